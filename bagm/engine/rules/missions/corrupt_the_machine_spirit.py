"""Mission 6: Corrupt the Machine Spirit (asymmetric)."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    Objective,
    at_end,
    controlled,
    register,
    set_hatchways,
    underdog_cp,
)
from bagm.engine.state import events as ev
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.actions import Action
    from bagm.engine.state.army import Unit

BOOK = "Asymmetric Mission 6 Corrupt the Machine Spirit"
CORRUPT = "Corrupt the Machine Spirit"
DOORS, STEAM, GRAVITY, COMMS = ("Door Controls", "Steam Venting Overrides", "Gravitational Systems",
                                "Communications Network")
CONSEQUENCES = (DOORS, STEAM, GRAVITY, COMMS)
STEAM_RANGE = 6.0
DOORS_MAX = 3
DOOR_CLEAR = 2.0  # Door Controls closes only a Hatchway with no model within 2" of it (our reading)


def _since(game: GameInterface, what: str) -> int | None:
    return game.mission_state.get(what)


def _until_next_command(game: GameInterface, what: str) -> bool:
    """A consequence lasting "until the start of the Attacker's next Command phase": chosen in
    the Attacker's turn t, it lasts through turn t and the Defender's turn t + 1."""
    t = _since(game, what)
    return t is not None and game.turn <= t + 1


def corrupted(game: GameInterface) -> list[int]:
    return sorted(game.mission_state.get("removed", set()))


def _corrupt(game: Game) -> Generator[Decision, Action, None]:
    # Mission 6 "Corrupt the Machine Spirit": at the end of the Attacker's Command phase, for each
    # objective marker they control they can attempt to corrupt it: a D6, on a 2+ it is corrupted
    # and removed from the battlefield, and the Attacker can select a consequence not yet selected
    p = game.active
    if game.role[p] != "Attacker":
        return
    for i in controlled(game, p):
        act = yield Decision("rule", p, {"rule": CORRUPT, "options": [f"corrupt {i + 1}"]})
        if act.kind != "rule":
            continue
        roll = game.dice.d6(f"{CORRUPT} marker {i + 1}")
        game.emit(ev.MissionRoll(e="mission_roll", player=p, rule=f"{CORRUPT} (objective marker {i + 1})", roll=roll, needed=2))
        if roll < 2:
            continue
        game.mission_state.setdefault("removed", set()).add(i)
        game.emit(ev.MarkerRemoved(e="marker_removed", marker=i + 1, why=CORRUPT))
        game.update_control(turn_boundary=False)
        left = [c for c in CONSEQUENCES if c not in game.mission_state.setdefault("chosen", [])]
        if not left:
            continue
        act = yield Decision("rule", p, {"rule": f"{CORRUPT}: consequence", "options": left})
        if act.kind == "rule" and act.arg in left:
            yield from _consequence(game, p, str(act.arg))


def _consequence(game: Game, p: Player, what: str) -> Generator[Decision, Action, None]:
    game.mission_state["chosen"].append(what)
    game.emit(ev.MissionRule(e="mission_rule", player=p, rule=what))
    if what == DOORS:  # open or close up to three Hatchways
        for _ in range(DOORS_MAX):
            options = [f"hatchway {h.index + 1}" for h in game.map.layout.hatchways if _may_toggle(game, h)]
            act = yield Decision("rule", p, {"rule": DOORS, "options": options})
            if act.kind != "rule" or act.arg not in options:
                break
            i = int(str(act.arg).split()[1]) - 1
            set_hatchways(game, [i], not game.bf.is_open(i), DOORS)
    elif what in (STEAM, GRAVITY, COMMS):
        game.mission_state[what] = game.turn
    if what == GRAVITY:  # those that did Set to Defend or Set Overwatch no longer count as having done so
        for u in game.units.values():
            u.set_to_defend = False
            u.overwatch_until = -1


def _may_toggle(game: Game, h: object) -> bool:
    """Door Controls may open any closed Hatchway; it closes an open one only while no model
    stands within 2" of it (a Hatchway is never closed with a unit across it)."""
    if not game.bf.is_open(h.index):  # type: ignore[attr-defined]
        return True
    cx, cy = h.centre  # type: ignore[attr-defined]
    return all(math.hypot(m.x - cx, m.y - cy) - m.r > DOOR_CLEAR
               for u in game.units.values() if u.alive for m in u.models)


def _steam(game: GameInterface, u: Unit, t: Unit) -> tuple[float | None, int]:
    # Steam Venting Overrides: ranged attacks cannot target units more than 6" away
    return (STEAM_RANGE, 0) if _until_next_command(game, STEAM) else (None, 0)


def _gravity(game: GameInterface, u: Unit, word: str) -> str | None:
    # Gravitational Systems: no Set to Defend or Set Overwatch
    if word in ("defend", "overwatch") and _until_next_command(game, GRAVITY):
        return "Gravitational Systems are down (Corrupt the Machine Spirit)"
    return None


def _comms(game: Game, p: Player) -> bool:
    # Communications Network: until the end of the Attacker's next Command phase, the Defender
    # cannot gain CP (chosen in the Attacker's turn t: through turn t + 2's Command phase)
    t = _since(game, COMMS)
    if t is None or game.role.get(p) != "Defender":
        return False
    return game.turn <= t + 1 or (game.turn == t + 2 and game.phase == "command")


def _removed(game: GameInterface, marker: int) -> bool:
    return marker in game.mission_state.get("removed", set())


def _humble_the_machine(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 6 "Humble the Machine": end of the battle, the Attacker scores 20VP per corrupted marker
    if game.role[p] != "Attacker":
        return []
    return [(20, f"objective marker {i + 1} corrupted") for i in corrupted(game)]


def _thwart_the_corrupters(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 6 "Thwart the Corrupters": end of the battle, the Defender scores 30VP per marker controlled
    if game.role[p] != "Defender":
        return []
    return [(30, f"controls objective marker {i + 1}") for i in controlled(game, p)]


def build() -> Mission:
    return Mission(6, "Corrupt the Machine Spirit", "asymmetric",
                   rules=[MissionRule("Set Defence", f"{BOOK}, Mission Rules: Set Defence", first_turn="Defender"),
                          MissionRule(CORRUPT, f"{BOOK}, Mission Rules: {CORRUPT}", "command", ask=_corrupt,
                                      shooting=_steam, core_manoeuvre=_gravity, blocks_cp=_comms,
                                      removed=_removed),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       Objective("Humble the Machine", f"{BOOK}, Mission Objectives: Humble the Machine",
                                 "end_game", ("end_battle",), _humble_the_machine, whose="both"),
                       at_end(BOOK, "Thwart the Corrupters", _thwart_the_corrupters)])


register("Corrupt the Machine Spirit", 6, build)
