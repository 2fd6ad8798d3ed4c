"""Mission 33: Rad Leak (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    at_end,
    cut_off_the_head,
    held,
    labelled,
    marker_counts,
    register,
    underdog_cp,
    within,
)
from bagm.engine.state import events as ev
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.sequence import Game

BOOK = "Symmetric Mission 33 Rad Leak"
# Rad Exposure, "Battle round rad levels": the round each Sector's radiation starts (Mild), a
# level more each round after, to Extreme (3); Sector D only reaches High by round 5
START = {"A": 1, "B": 2, "C": 3, "D": 4}
LEVELS = ("none", "Mild", "High", "Extreme")


def rad_level(sector: str, rnd: int) -> int:
    """The Rad level of a Sector in a battle round: 0 none, 1 Mild, 2 High, 3 Extreme."""
    return min(3, max(0, rnd - START[sector] + 1))


def _exposure(game: Game) -> None:
    # Mission 33 "Rad Exposure": at the start of the battle round, each unit suffers the effects
    # of the most extreme level of the Sectors it is within until the end of the round: Mild,
    # Leadership worsened by 1; High, also 1" off its Move; Extreme, also -1 Toughness
    sectors = game.map.layout.areas_of("Sector")
    changed: dict[str, tuple[int, int, int]] = {}
    for u in game.units.values():
        if not u.alive:
            continue
        level = max((rad_level(str(s.label), game.round) for s in sectors if within(s, u)), default=0)
        if not level:
            continue
        d_ld, d_m, d_t = 1, (1 if level >= 2 else 0), (1 if level >= 3 and u.T > 1 else 0)
        u.Ld += d_ld  # "worsen": a Leadership of 7+ becomes 8+
        u.M -= min(d_m, u.M)
        d_m = min(d_m, u.M + d_m)
        u.T -= d_t
        changed[u.uid] = (d_ld, d_m, d_t)
        game.emit(ev.RadExposure(e="rad_exposure", unit=u.uid, level=LEVELS[level]))
    game.mission_state["rad"] = changed
    if changed:
        game.touch()


def _exposure_ends(game: Game) -> None:
    for uid, (d_ld, d_m, d_t) in game.mission_state.pop("rad", {}).items():
        u = game.units[uid]
        u.Ld, u.M, u.T = u.Ld - d_ld, u.M + d_m, u.T + d_t
    game.touch()


def _urgent_takeover(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 33 "Urgent Takeover": 1+, 2+, more markers than the opponent
    return marker_counts(game, p, (1, 2))


def _salvation_shrines(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 33 "Salvation Shrines": end of the battle, 15VP for controlling both Critical markers
    critical = labelled(game, "Critical")
    if critical and all(game.control[i] == p for i in critical):
        return [(15, "controls both objective markers labelled Critical")]
    return []


def build() -> Mission:
    return Mission(33, "Rad Leak", "symmetric",
                   rules=[MissionRule("Rad Exposure", f"{BOOK}, Mission Rules: Rad Exposure", "start_round",
                                      _exposure),
                          # the same rule's end: "until the end of that battle round"
                          MissionRule("Rad Exposure (end of the round)", f"{BOOK}, Mission Rules: Rad Exposure",
                                      "end_round", _exposure_ends),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       held(BOOK, "Urgent Takeover", _urgent_takeover),
                       at_end(BOOK, "Salvation Shrines", _salvation_shrines),
                       cut_off_the_head(f"{BOOK}, Mission Objectives: Cut Off the Head", 15)])


register("Rad Leak", 33, build)
