"""The mission framework: each mission is an entry registered by its book name (and number),
its Mission Rules are named hooks on named steps of the mission sequence, and its Mission
Objectives are Progressive or End Game scorers.

Named steps the game calls (``Game.run_step``): ``muster``, ``deploy``, ``start_round``,
``start_turn``, ``end_command``, ``end_movement``, ``end_shooting``, ``end_charge``,
``end_fight``, ``end_turn``, ``end_round``, ``end_battle``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bagm.engine.rules.registry import Registry

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.sequence import Game

STEPS = ("muster", "deploy", "start_round", "start_turn", "end_command", "end_movement",
         "end_shooting", "end_charge", "end_fight", "end_turn", "end_round", "end_battle")

Hook = Callable[["Game"], None]
# a scorer's VP: (vp, why) or (vp, why, the uids of the units it credits, for the log)
Scorer = Callable[["Game", str], list[tuple[int, str]] | list[tuple[int, str, list[str]]]]


@dataclass(frozen=True)
class MissionRule:
    """One of a mission's Mission Rules: what it does at a named step."""

    name: str
    step: str
    apply: Hook


@dataclass(frozen=True)
class Objective:
    name: str
    kind: str  # "progressive" or "end_game"
    step: str  # the named step it scores at
    score: Scorer
    whose: str = "active"  # "active": the player whose turn it is; "both": each player


@dataclass
class Mission:
    number: int
    name: str
    rules: list[MissionRule] = field(default_factory=list)
    objectives: list[Objective] = field(default_factory=list)
    rounds: int = 5

    def run(self, step: str, game: Game) -> None:
        """Run the mission rules and score the objectives of a named step."""
        for rule in self.rules:
            if rule.step == step:
                rule.apply(game)
        for obj in self.objectives:
            if obj.step != step:
                continue
            players = [game.active] if obj.whose == "active" else ["A", "B"]
            for p in players:
                for got in obj.score(game, p):
                    game.score(p, got[0], f"{obj.name}: {got[1]}", *got[2:])


# --- Mission 11: Access Junction Primus ---------------------------------------------------------

def _underdog_cp(game: Game) -> None:
    # Mission 11 "Mission Rules": the Underdog starts the battle with 1 additional CP
    if game.underdog is not None:
        game.gain_cp(game.underdog, 1, "Underdog Bonus")


def _capture_the_junction(game: Game, p: str) -> list[tuple[int, str, list[str]]]:
    # Mission 11 "Capture the Junction": end of each Command phase, the player whose turn it is
    mine = sum(1 for c in game.control if c == p)
    theirs = sum(1 for c in game.control if c == game.other(p))
    out = []
    if mine >= 1:
        out.append((5, "controls 1+ objective markers"))
    if mine >= 2:
        out.append((5, "controls 2+ objective markers"))
    if mine > theirs:
        out.append((5, "controls more objective markers than the opponent"))
    units = game.controlling_units(p) if out else []
    return [(vp, why, units) for vp, why in out]


def _purge_the_ship(game: Game, p: str) -> list[tuple[int, str, list[str]]]:
    # Mission 11 "Purge the Ship": end of the battle, points of enemy units destroyed
    total = game.destroyed_points(game.other(p))
    killers = sorted({k for u, k in game.destroyed_by.items() if game.units[u].player != p})
    return [(15, f"{total} points of enemy units destroyed (>= {t})", killers) for t in (125, 250, 375)
            if total >= t]


def mission_11() -> Mission:
    return Mission(11, "Access Junction Primus",
                   rules=[MissionRule("Underdog Bonus", "muster", _underdog_cp)],
                   objectives=[Objective("Capture the Junction", "progressive", "end_command",
                                         _capture_the_junction),
                               Objective("Purge the Ship", "end_game", "end_battle",
                                         _purge_the_ship, whose="both")])


@dataclass(frozen=True)
class MissionEntry:
    """A playable mission: its book name and number, and how to set up a fresh one."""

    name: str
    number: int
    build: Callable[[], Mission]


MISSIONS: Registry[MissionEntry] = Registry("mission")
MISSIONS.register(MissionEntry("Access Junction Primus", 11, mission_11), aliases=("11",))


def get_mission(number: int | str) -> Mission:
    """A fresh mission, by its number or its book name."""
    entry = MISSIONS.get(str(number))
    if entry is None:
        raise ValueError(f"mission {number} is not playable yet; playable: "
                         f"{', '.join(f'{e.number} {e.name}' for e in MISSIONS)}")
    return entry.build()
