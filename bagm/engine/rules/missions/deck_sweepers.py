"""Mission 12: Deck Sweepers (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    at_end,
    controlled,
    held,
    marker_counts,
    register,
)
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.game.sequence import Game

BOOK = "Symmetric Mission 12 Deck Sweepers"


def _underdog_zone(game: GameInterface, p: Player, deploying: bool) -> tuple[str, ...]:
    # Mission 12 "Underdog Bonus": the Underdog may also use the Underdog Entry Zone in the Deploy
    # Armies step, never for Strategic Reserves once the battle has begun. Our map has one such
    # zone per role (either player may be the Underdog): the Underdog uses the one of its role.
    return ("Underdog",) if deploying and game.underdog == p else ()


def _take_and_hold(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 12 "Take and Hold": 5VP each for 1+ markers and for more markers than the opponent
    return marker_counts(game, p, (1,))


def _sweep_the_decks(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 12 "Sweep the Decks": end of the battle, 15VP per objective marker controlled
    return [(15, f"controls objective marker {i + 1}") for i in controlled(game, p)]


def build() -> Mission:
    return Mission(12, "Deck Sweepers", "symmetric",
                   rules=[MissionRule("Underdog Bonus", f"{BOOK}, Mission Rules: Underdog Bonus",
                                      zone_kinds=_underdog_zone)],
                   objectives=[
                       held(BOOK, "Take and Hold", _take_and_hold),
                       at_end(BOOK, "Sweep the Decks", _sweep_the_decks)])


register("Deck Sweepers", 12, build)
