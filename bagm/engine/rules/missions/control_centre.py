"""Mission 31: Control Centre (symmetric)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    cut_off_the_head,
    held,
    labelled,
    marker_counts,
    register,
    set_hatchways,
    underdog_cp,
)
from bagm.engine.state import events as ev
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.actions import Action

BOOK = "Symmetric Mission 31 Control Centre"
UNLOCK = "Unlock Overrides"


def may_unlock(game: Game, p: Player) -> bool:
    """Mission 31 "Unlock Overrides": ``p`` controls marker B and has a unit within range of it
    (not Battle-shocked), at least one of them not within Engagement Range of enemy models.
    Offered only while some Hatchway is closed (unlocking then would change nothing)."""
    (b,) = labelled(game, "B")
    if game.control[b] != p or all(game.bf.is_open(h.index) for h in game.map.layout.hatchways):
        return False
    marker = game.map.layout.markers[b]
    near = [u for u in game.army_units(p) if not u.battleshocked and
            any(game.bf.in_objective_range(m.base, marker) for m in u.models)]
    return any(not game.engaged_with(u) for u in near)


def _unlock_overrides(game: Game) -> Generator[Decision, Action, None]:
    # Mission 31 "Unlock Overrides": in your Command phase, you can open every Hatchway
    p = game.active
    if not may_unlock(game, p):
        return
    act = yield Decision("rule", p, {"rule": UNLOCK, "options": [UNLOCK]})
    if act.kind == "rule":
        game.emit(ev.MissionRule(e="mission_rule", player=p, rule=UNLOCK))
        set_hatchways(game, range(len(game.map.layout.hatchways)), True, UNLOCK)


def _secure_at_all_costs(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 31 "Secure at All Costs": 1+, 2+, more than the opponent, marker A
    out = marker_counts(game, p, (1, 2))
    if any(game.control[i] == p for i in labelled(game, "A")):
        out.append((5, "controls objective marker A"))
    return out


def build() -> Mission:
    return Mission(31, "Control Centre", "symmetric",
                   rules=[MissionRule(UNLOCK, f"{BOOK}, Mission Rules: {UNLOCK}", "command",
                                      ask=_unlock_overrides),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       held(BOOK, "Secure at All Costs", _secure_at_all_costs),
                       cut_off_the_head(f"{BOOK}, Mission Objectives: Cut Off the Head", 10)])


register("Control Centre", 31, build)
