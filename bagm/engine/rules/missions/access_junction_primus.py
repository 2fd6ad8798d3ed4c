"""Mission 11: Access Junction Primus (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import Mission, Objective, marker_counts, register, underdog_cp
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.sequence import Game

BOOK = "Symmetric Mission 11 Access Junction Primus"


def _capture_the_junction(game: Game, p: Player) -> list[tuple[int, str, list[str]]]:
    # Mission 11 "Capture the Junction": end of each Command phase, the player whose turn it is
    out = marker_counts(game, p, (1, 2))
    units = game.controlling_units(p) if out else []  # the units it credits, for the log
    return [(vp, why, units) for vp, why in out]


def _purge_the_ship(game: Game, p: Player) -> list[tuple[int, str, list[str]]]:
    # Mission 11 "Purge the Ship": end of the battle, points of enemy units destroyed
    total = game.destroyed_points(game.other(p))
    killers = sorted({k for u, k in game.destroyed_by.items() if game.units[u].player != p})
    return [(15, f"{total} points of enemy units destroyed (>= {t})", killers) for t in (125, 250, 375)
            if total >= t]


def build() -> Mission:
    return Mission(11, "Access Junction Primus", "symmetric",
                   rules=[underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       Objective("Capture the Junction", f"{BOOK}, Mission Objectives: Capture the Junction",
                                 "progressive", ("end_command",), _capture_the_junction),
                       Objective("Purge the Ship", f"{BOOK}, Mission Objectives: Purge the Ship",
                                 "end_game", ("end_battle",), _purge_the_ship, whose="both")])


register("Access Junction Primus", 11, build)

