"""The missions of Boarding Actions as registered entries: the machinery in
:mod:`~bagm.engine.rules.missions.base`, one module per mission (named after it)."""

from bagm.engine.rules.missions import (  # noqa: F401 - each module registers its mission
    access_junction_primus,
    control_centre,
    corrupt_the_machine_spirit,
    death_in_the_dark,
    deck_sweepers,
    hull_breach,
    jailbreak,
    power_struggle,
    power_the_generators,
    pull_their_teeth,
    rad_leak,
    strongrooms,
    the_furnace,
    the_pipeline,
    void_the_ship,
)
from bagm.engine.rules.missions.base import (
    MISSIONS,
    STEPS,
    Mission,
    MissionEntry,
    MissionRule,
    Objective,
    get_mission,
    resolve_mission,
    roll_mission,
)

__all__ = ["MISSIONS", "STEPS", "Mission", "MissionEntry", "MissionRule", "Objective", "get_mission",
           "resolve_mission", "roll_mission"]
