"""Mission 2: Pull Their Teeth (asymmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    Objective,
    labelled,
    player_of,
    register,
    start_vp,
    take_vp,
    underdog_cp,
)
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.army import Unit

BOOK = "Asymmetric Mission 2 Pull Their Teeth"
NODE, LOADER = "Control Node", "Loader"
START_VP = 60


def _control_node(game: GameInterface, u: Unit, marker: int) -> str | None:
    # Mission 2 "Control Node": only the Control Node can be Secured (by either army); any unit
    # can perform Secure Site on it, BATTLELINE or not
    if marker in labelled(game, NODE):
        return ""
    return "cannot Secure it: the Control Node is the only objective marker that can be Secured"


def _attacker_starts_with_vp(game: Game) -> None:
    # Mission 2 "Destroy Ground Targets": the Attacker starts the battle with 60VP
    start_vp(game, player_of(game, "Attacker"), START_VP, "Destroy Ground Targets: the Attacker starts with 60VP")


def _loaders(game: Game) -> None:
    # Mission 2 "Destroy Ground Targets": start of the Defender's Command phase: per Loader the
    # Defender controls, 10VP (5VP without the Control Node) pass from the Attacker to them
    d = game.active
    if game.role[d] != "Defender":
        return
    node = any(game.control[i] == d for i in labelled(game, NODE))
    each = 10 if node else 5
    for i in labelled(game, LOADER):
        if game.control[i] == d:
            take_vp(game, game.other(d), d, each,
                    f"Destroy Ground Targets: Loader objective marker {i + 1}"
                    + (" with the Control Node" if node else ""))


def _seize_the_guns(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 2 "Seize the Guns": start of the Attacker's Command phase, 5VP for the Control Node
    if game.role[p] != "Attacker":
        return []
    return [(5, "controls the Control Node")] if any(game.control[i] == p for i in labelled(game, NODE)) else []


def build() -> Mission:
    return Mission(2, "Pull Their Teeth", "asymmetric",
                   rules=[MissionRule("Rapid Offence", f"{BOOK}, Mission Rules: Rapid Offence",
                                      first_turn="Attacker"),
                          MissionRule(NODE, f"{BOOK}, Mission Rules: {NODE}", secure=_control_node),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       Objective("Destroy Ground Targets", f"{BOOK}, Mission Objectives: Destroy Ground Targets",
                                 "progressive", ("deploy", "start_command"),
                                 apply=_destroy_ground_targets),
                       Objective("Seize the Guns", f"{BOOK}, Mission Objectives: Seize the Guns",
                                 "progressive", ("start_command",), _seize_the_guns, credit_control=True)])


def _destroy_ground_targets(game: Game, step: str) -> None:
    if step == "deploy":
        _attacker_starts_with_vp(game)
    elif step == "start_command":
        _loaders(game)


register("Pull Their Teeth", 2, build)
