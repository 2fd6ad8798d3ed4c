"""Mission 12: Deck Sweepers (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    TAKE_AND_HOLD_STEPS,
    Mission,
    MissionRule,
    Objective,
    controlled,
    marker_counts,
    register,
    take_and_hold,
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
                       Objective("Take and Hold", f"{BOOK}, Mission Objectives: Take and Hold",
                                 "progressive", TAKE_AND_HOLD_STEPS, _take_and_hold, when=take_and_hold, credit_control=True),
                       Objective("Sweep the Decks", f"{BOOK}, Mission Objectives: Sweep the Decks",
                                 "end_game", ("end_battle",), _sweep_the_decks, whose="both", credit_control=True)])


register("Deck Sweepers", 12, build)
