"""Mission 4: Jailbreak (asymmetric).

The Attacker's imprisoned unit starts in the Prison Cells behind the closed Prison Cells'
Hatchway; the Defender guards it (Prison Guards); at the end of the battle the Escape table
scores where the imprisoned unit is.

Readings we chose where the text allows two (each also beside its code):

- Escape: a destroyed imprisoned unit is judged where it stood when it was destroyed: destroyed
  within the Prison Cells it never got out ("still within Prison Cells": 0VP / 90VP); destroyed
  once out, "not within Prison Cells, but destroyed" (30VP / 60VP). The table's two VP columns
  (their headings are lost in the text) are the Attacker's then the Defender's: the Attacker
  scores more the freer its unit is.
- Imprisoned: only units of 60 points or more that fit in the Prison Cells are offered; with
  none, the game says so and nobody scores Escape. "Cannot be removed from the battlefield" and
  "cannot move through Walls or terrain features": no rule the engine plays does either (FLY is
  removed by the Rules Adaptations), so nothing is barred.
- Prison Guards: "one unit from their army must be set up within the Guard Entry Zone" is
  enforced by refusing the Defender any other set-up (or Reserves) with their last unit while
  the Guard Entry Zone has had no unit; the Defender otherwise deploys in any order.
- Silent Infiltration: the Attacker may stop at any unit (the text: "they can then select
  another unit"); the Normal Move is of up to 6" whatever the unit's Move, offered toward a
  few useful points (the Prison Cells' Hatchway, every Hatchway, the nearest enemy unit, the
  Defender's Entry Zones), and may be declined; it is made outside the Movement phase, so no
  Overwatch window opens.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    Objective,
    player_of,
    register,
    underdog_cp,
    within,
)
from bagm.engine.state import events as ev
from bagm.engine.state.core import Decision

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.board.battlefield import Area
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.actions import Action
    from bagm.engine.state.army import Unit
    from bagm.engine.state.core import Player

BOOK = "Asymmetric Mission 4 Jailbreak"
IMPRISONED, INFILTRATION = "Imprisoned", "Silent Infiltration"
INFILTRATION_MOVE = "Silent Infiltration: move"
CELLS, HATCH = "Prison Cells", "Prison Cells' Hatchway"
MIN_POINTS = 60  # "a minimum points cost of 60 points"
INFILTRATION_INCHES = 6.0  # "a Normal Move of up to 6\""
# Escape: (Attacker VP, Defender VP) by the imprisoned unit's situation at the end of the battle
ESCAPE = {"in the cells": (0, 90), "destroyed": (30, 60), "engaged": (60, 30), "free": (90, 0)}


def cells(game: GameInterface) -> Area:
    """The Prison Cells (an area of the map)."""
    return game.map.layout.areas_of(CELLS)[0]


def prison_hatch(game: GameInterface) -> int:
    """The Prison Cells' Hatchway (its index)."""
    return next(h.index for h in game.map.layout.hatchways if h.label == HATCH)


def prisoner(game: GameInterface) -> Unit | None:
    """The imprisoned unit (None before it is chosen, or when no unit could be)."""
    uid = game.mission_state.get("prisoner")
    return game.units[uid] if uid else None


def guard_zone(game: GameInterface) -> Area:
    return game.map.layout.entry_zones_of("Defender", "Guard")[0]


def guarded(game: GameInterface) -> bool:
    """A unit of the Defender's army is wholly within the Guard Entry Zone."""
    zone = guard_zone(game)
    d = player_of(game, "Defender")
    return any(u.models and all(zone.wholly_within(m.base) for m in u.models) for u in game.army_units(d))


# --- Imprisoned ---------------------------------------------------------------------------------

def prisoner_options(game: Game) -> list[str]:
    """The Attacker's units of 60 points or more, not yet set up, that fit in the Prison Cells."""
    a = player_of(game, "Attacker")
    room = cells(game)
    return [u.uid for u in game.armies[a].units if u.where == "army" and u.points >= MIN_POINTS and
            game.formation(u, room.centre, u.starting, zone=room) is not None]


def _imprison(game: Game) -> Generator[Decision, Action, None]:
    # Mission 4 "Imprisoned": at the start of the Deploy Armies step, the Attacker selects one
    # unit from their army of 60 points or more; it is set up within the Prison Cells
    a = player_of(game, "Attacker")
    options = prisoner_options(game)
    if not options:
        game.emit(ev.Note(e="note", text=f"{IMPRISONED}: no unit of player {a} of {MIN_POINTS} points or more fits in "
                               f"the {CELLS}: there is no imprisoned unit, and nobody scores Escape"))
        return
    act = yield Decision("rule", a, {"rule": IMPRISONED, "options": options, "must": True, "area": CELLS})
    u = game.unit(act.arg, a)
    game.mission_state["prisoner"] = u.uid  # before it is set up: the watch follows it from there
    game.emit(ev.MissionRule(e="mission_rule", player=a, rule=IMPRISONED, unit=u.uid, area=CELLS))
    game.set_up(u, cells(game).centre, zone=cells(game))


def _watch(game: GameInterface, moved: tuple[Unit, ...]) -> None:
    # Escape judges a destroyed imprisoned unit by where it stood when destroyed: where its
    # models stood after the last change before its last model was removed
    u = prisoner(game)
    if u is None or not u.models or (moved and all(v is not u for v in moved)):
        return
    game.mission_state["in_cells"] = within(cells(game), u)


def _prison_hatch(game: GameInterface, u: Unit, index: int) -> str | None:
    # Mission 4 "Prison Cells": once opened the Prison Cells' Hatchway cannot be closed again;
    # units from the Defender's army cannot attempt to operate it. "Imprisoned": the imprisoned
    # unit may attempt to open it only while no Defender unit is wholly within the Guard Entry Zone
    if index != prison_hatch(game):
        return None
    if game.bf.is_open(index):
        return f"the {HATCH} has been opened: it cannot be closed again"
    if game.role[u.player] == "Defender":
        return f"units from the Defender's army cannot operate the {HATCH}"
    if u is prisoner(game) and guarded(game):
        return "the imprisoned unit cannot attempt it while a Defender unit is wholly within the Guard Entry Zone"
    return None


def _attempt(game: GameInterface, u: Unit, index: int) -> bool:
    # Mission 4 "Imprisoned": the imprisoned unit's attempt: roll one D6; if the result is
    # greater than or equal to its Toughness it fails and the Hatchway remains closed
    if u is not prisoner(game) or index != prison_hatch(game) or game.bf.is_open(index):
        return True
    roll = game.dice.d6(f"{IMPRISONED}: {HATCH}")
    ok = roll < u.toughness()
    game.emit(ev.MissionRoll(e="mission_roll", player=u.player, rule=IMPRISONED, unit=u.uid, roll=roll, toughness=u.toughness(), passed=ok))
    if not ok:
        game.emit(ev.Hatch(e="hatch", unit=u.uid, hatchway=index + 1, name=HATCH, open=False, prevented=True))
    return ok


def _barred(game: GameInterface, u: Unit) -> tuple[Area, ...]:
    # Mission 4 "Prison Cells": units other than the imprisoned unit cannot make use of any
    # ability that allows them to be set up within the Prison Cells
    return () if u is prisoner(game) else (cells(game),)


# --- Prison Guards ------------------------------------------------------------------------------

def _guard_kinds(game: GameInterface, p: Player, deploying: bool) -> tuple[str, ...]:
    # Mission 4 "Prison Guards": in Deploy Armies the Defender sets up only within the Guard and
    # Patrol Entry Zones; once the first battle round has started, only the Backup Entry Zones
    # for Strategic Reserves
    if game.role.get(p) != "Defender":
        return ()
    return ("Guard", "Patrol") if deploying else ("Backup",)


def _guard_must(game: GameInterface, p: Player, zone: int | None) -> str | None:
    # Mission 4 "Prison Guards": one unit of the Defender's army must be set up within the Guard
    # Entry Zone: their last unit goes there if none has
    if game.role.get(p) != "Defender":
        return None
    zones = game.entry_zones(p)
    guard = next((i for i, z in enumerate(zones) if z.kind == "Guard"), None)
    if guard is None or zone == guard or any(z == guard for z, _ in game.deployed[p]):
        return None
    if sum(1 for u in game.armies[p].units if u.where == "army") > 1:
        return None
    return "one unit from the Defender's army must be set up within the Guard Entry Zone: this is their last unit"


# --- Silent Infiltration --------------------------------------------------------------------------

def infiltration_points(game: GameInterface, u: Unit) -> list[str]:
    """Where a Silent Infiltration move may head (as ``x,y``): beside the Prison Cells' Hatchway
    and every other Hatchway (the side nearer the unit), the nearest enemy unit, the Defender's
    Entry Zones."""
    me = (u.models[0].x, u.models[0].y)
    pts: list[tuple[float, float]] = []
    for h in game.map.layout.hatchways:
        cx, cy = h.centre
        sides = [(cx, cy - 1.0), (cx, cy + 1.0)] if h.horizontal else [(cx - 1.0, cy), (cx + 1.0, cy)]
        pts.append(min(sides, key=lambda q: math.dist(q, me)))
    enemies = game.army_units(game.other(u.player))
    if enemies:
        e = min(enemies, key=lambda e: game.min_straight(u, e))
        pts.append((e.models[0].x, e.models[0].y))
    pts += [z.centre for z in game.map.layout.entry_zones_of("Defender")]
    out: list[str] = []
    for x, y in pts:
        text = f"{round(x, 2):g},{round(y, 2):g}"
        if text not in out:
            out.append(text)
    return out


def _silent_infiltration(game: Game) -> Generator[Decision, Action, None]:
    # Mission 4 "Silent Infiltration": at the start of the first battle round the Attacker
    # selects one unit and rolls one D6: on a 2+ the alarm is not set off and that unit can make
    # a Normal Move of up to 6"; then another unit not yet selected, subtracting 1 from the roll
    # for each successive unit, until the alarm goes off or no unit is left
    if game.round != 1:
        return
    a = player_of(game, "Attacker")
    chosen: list[str] = []
    while True:
        options = [u.uid for u in game.army_units(a) if u.uid not in chosen]
        if not options:
            return
        act = yield Decision("rule", a, {"rule": INFILTRATION, "options": options, "unit_number": len(chosen) + 1})
        if act.kind != "rule":
            game.emit(ev.Note(e="note", text=f"{INFILTRATION}: player {a} stops infiltrating"))
            return
        u = game.unit(act.arg, a)
        chosen.append(u.uid)
        roll = game.dice.d6(f"{INFILTRATION} {u.uid}")
        modified = roll - (len(chosen) - 1)
        ok = modified >= 2
        game.emit(ev.MissionRoll(e="mission_roll", player=a, rule=INFILTRATION, unit=u.uid, roll=roll, modifier=1 - len(chosen),
                  needed=2, passed=ok))
        if not ok:
            game.emit(ev.Note(e="note", text=f"{INFILTRATION}: the alarm goes off ({u.uid} rolled {roll}, {modified} modified)"))
            return
        move = yield Decision("rule", a, {"rule": INFILTRATION_MOVE, "unit": u.uid,
                                          "options": infiltration_points(game, u)})
        if move.kind == "rule":
            x, y = (float(v) for v in str(move.arg).split(","))
            game.normal_move(u, (x, y), INFILTRATION_INCHES, INFILTRATION)


# --- Escape ---------------------------------------------------------------------------------------

def situation(game: GameInterface) -> str | None:
    """The imprisoned unit's row of the Escape table now (None: no imprisoned unit)."""
    u = prisoner(game)
    if u is None:
        return None
    if not u.alive:
        # destroyed: judged where it stood then (see the module's readings)
        return "in the cells" if game.mission_state.get("in_cells", True) else "destroyed"
    if within(cells(game), u):
        return "in the cells"
    d = player_of(game, "Defender")
    return "engaged" if any(game.engaged(u, e) for e in game.army_units(d)) else "free"


WHY = {"in the cells": "the imprisoned unit is still within the Prison Cells",
       "destroyed": "the imprisoned unit got out of the Prison Cells but was destroyed",
       "engaged": "the imprisoned unit is out of the Prison Cells, within Engagement Range of the Defender's army",
       "free": "the imprisoned unit is out of the Prison Cells and not within Engagement Range of the Defender's army"}


def _escape(game: Game, p: str) -> list[tuple[int, str, list[str]]]:
    # Mission 4 "Escape": at the end of the battle, by the imprisoned unit's situation
    # (Attacker / Defender): still within the Prison Cells 0/90; not within them but destroyed
    # 30/60; not within them, not destroyed, within Engagement Range of the Defender's army
    # 60/30; not within them, not destroyed, not within Engagement Range 90/0
    row = situation(game)
    u = prisoner(game)
    if row is None or u is None:
        return []
    vp = ESCAPE[row][0 if game.role[p] == "Attacker" else 1]
    return [(vp, WHY[row], [u.uid])] if vp else []


def build() -> Mission:
    return Mission(4, "Jailbreak", "asymmetric",
                   rules=[MissionRule(IMPRISONED, f"{BOOK}, Mission Rules: {IMPRISONED}", "start_deploy",
                                      ask=_imprison, hatchway=_prison_hatch, attempt=_attempt, watch=_watch),
                          MissionRule(CELLS, f"{BOOK}, Mission Rules: {CELLS}", barred=_barred),
                          MissionRule("Prison Guards", f"{BOOK}, Mission Rules: Prison Guards",
                                      zone_kinds=_guard_kinds, deploying=_guard_must),
                          MissionRule("Rapid Offence", f"{BOOK}, Mission Rules: Rapid Offence",
                                      first_turn="Attacker"),
                          MissionRule(INFILTRATION, f"{BOOK}, Mission Rules: {INFILTRATION}", "start_round",
                                      ask=_silent_infiltration),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[Objective("Escape", f"{BOOK}, Mission Objectives: Escape", "end_game",
                                         ("end_battle",), _escape, whose="both")])


register("Jailbreak", 4, build)
