"""Bot games between bundled rosters that once broke (found by a sweep of 64 games over the bundled
rosters and every mission): each ends, and the bots' every action is one the game accepts.

- Two Corpuscarii Electro-Priests units: using one's Electro-shock marked the other's "once per
  phase" as used, so the one offered stayed offered and the game never ended.
- Kroot Hounds that Advanced (Void Combat Discipline: then only Set Overwatch) were ordered to Set
  to Defend by the greedy bot, which the game refused.
"""

from __future__ import annotations

import pytest
from conftest import REPO

from bagm.engine.game.muster import build_army
from bagm.engine.log.record import play_bots

CASES = [
    (31, "adepta_sororitas_penitents_and_pilgrims", "adeptus_mechanicus_machine_cult", 151, "greedy", "greedy"),
    (1, "tau_empire_kroot_raiding_party", "adeptus_custodes_voyagers_into_darkness", 139, "greedy", "random"),
]


@pytest.mark.parametrize(("mission", "a", "b", "seed", "bot_a", "bot_b"), CASES)
def test_the_game_ends(mission, a, b, seed, bot_a, bot_b):
    armies = (build_army("A", REPO / "rosters" / f"{a}.yaml"), build_army("B", REPO / "rosters" / f"{b}.yaml"))
    r = play_bots(mission, "", "", seed, bot_a, bot_b, armies=armies)
    assert r.events[-1]["e"] == "end"
    # Electro-shock: once per phase for each unit that has it (two units, five Shooting phases)
    shocks = [e for e in r.events if e["e"] == "rule_used" and e.get("name") == "Electro-shock"]
    assert len(shocks) <= 10
