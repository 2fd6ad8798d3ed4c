"""Mission 13: The Pipeline (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    controlled,
    held,
    labelled,
    marker_counts,
    register,
    underdog_cp,
)
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.sequence import Game

BOOK = "Symmetric Mission 13 The Pipeline"


def _regulate_the_flow(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 13 "Regulate the Flow": 1+, 2+, more than the opponent, both A, both B
    out = marker_counts(game, p, (1, 2))
    mine = set(controlled(game, p))
    for label in ("A", "B"):
        both = labelled(game, label)
        if both and set(both) <= mine:
            out.append((5, f"controls both objective markers labelled {label}"))
    return out


def build() -> Mission:
    return Mission(13, "The Pipeline", "symmetric",
                   rules=[underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       held(BOOK, "Regulate the Flow", _regulate_the_flow)])


register("The Pipeline", 13, build)
