"""Mission 21: Power Struggle (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    controlled,
    cut_off_the_head,
    held,
    marker_counts,
    register,
    underdog_cp,
)
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.sequence import Game

BOOK = "Symmetric Mission 21 Power Struggle"


def linked_pairs(game: Game) -> list[tuple[int, int]]:
    """The pairs of objective markers (indexes) directly linked by the Power Lines: the map's
    ``power_lines`` join two markers by label with no marker between them."""
    index = {m.label: i for i, m in enumerate(game.map.layout.markers)}
    return [(index[a], index[b]) for a, b in game.map.layout.power_lines]


def _power_network(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 21 "Power Network": 1+, 2+, more than the opponent, 2+ markers directly linked
    out = marker_counts(game, p, (1, 2))
    mine = set(controlled(game, p))
    linked = [(a, b) for a, b in linked_pairs(game) if a in mine and b in mine]
    if linked:
        a, b = linked[0]
        out.append((5, f"controls objective markers {a + 1} and {b + 1}, directly linked by the Power Lines"))
    return out


def build() -> Mission:
    return Mission(21, "Power Struggle", "symmetric",
                   rules=[underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       held(BOOK, "Power Network", _power_network),
                       cut_off_the_head(f"{BOOK}, Mission Objectives: Cut Off the Head", 10)])


register("Power Struggle", 21, build)
