"""Mission 3: Strongrooms (asymmetric)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    Objective,
    controlled,
    player_of,
    register,
    underdog_cp,
)
from bagm.engine.state import events as ev
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.actions import Action

BOOK = "Asymmetric Mission 3 Strongrooms"
GUARD_DUTY = "Guard Duty"


def guard_options(game: Game, room: object) -> list[str]:
    """The Defender's units not yet set up that fit wholly within the Strongroom ``room``."""
    d = player_of(game, "Defender")
    return [u.uid for u in game.armies[d].units if u.where == "army" and
            game.formation(u, room.centre, u.starting, zone=room) is not None]  # type: ignore[attr-defined]


def _guard_duty(game: Game) -> Generator[Decision, Action, None]:
    # Mission 3 "Guard Duty": at the start of Deploy Armies, for each Strongroom the Defender
    # sets up one unit of their army anywhere wholly within it
    d = player_of(game, "Defender")
    for room in game.map.layout.areas_of("Strongroom"):
        options = guard_options(game, room)
        if not options:
            game.emit(ev.Note(e="note", text=f"{GUARD_DUTY}: no unit of player {d} fits in {room.name}"))
            continue
        act = yield Decision("rule", d, {"rule": GUARD_DUTY, "options": options, "must": True,
                                         "area": room.name})
        u = game.unit(act.arg, d)
        game.emit(ev.MissionRule(e="mission_rule", player=d, rule=GUARD_DUTY, unit=u.uid, area=room.name))
        game.set_up(u, room.centre, zone=room)


def _they_are_ours(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 3 "They Are Ours": end of the battle, the Attacker scores 45VP per marker controlled
    if game.role[p] != "Attacker":
        return []
    return [(45, f"controls objective marker {i + 1}") for i in controlled(game, p)]


PURGE_TABLE = ((375, 90), (250, 60), (125, 30), (0, 0))  # points of Attacker units destroyed: VP


def _purge_the_thieves(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 3 "Purge the Thieves": end of the battle, the Defender scores by the points of the
    # Attacker's units destroyed: 0-124: 0VP, 125-249: 30VP, 250-374: 60VP, 375+: 90VP
    if game.role[p] != "Defender":
        return []
    total = game.destroyed_points(game.other(p))
    vp = next(v for t, v in PURGE_TABLE if total >= t)
    return [(vp, f"{total} points of Attacker units destroyed")] if vp else []


def build() -> Mission:
    return Mission(3, "Strongrooms", "asymmetric",
                   rules=[MissionRule("Rapid Offence", f"{BOOK}, Mission Rules: Rapid Offence",
                                      first_turn="Attacker"),
                          MissionRule(GUARD_DUTY, f"{BOOK}, Mission Rules: {GUARD_DUTY}", "start_deploy",
                                      ask=_guard_duty),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       Objective("They Are Ours", f"{BOOK}, Mission Objectives: They Are Ours",
                                 "end_game", ("end_battle",), _they_are_ours, whose="both", credit_control=True),
                       Objective("Purge the Thieves", f"{BOOK}, Mission Objectives: Purge the Thieves",
                                 "end_game", ("end_battle",), _purge_the_thieves, whose="both")])


register("Strongrooms", 3, build)
