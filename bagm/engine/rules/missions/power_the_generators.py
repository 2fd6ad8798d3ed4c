"""Mission 5: Power the Generators (asymmetric): two levels of a ship joined by Access Zones.

How the two levels are represented (see also the map file, ``board/maps/mission_05.yaml``): the
Deck Level and the Sub-level are two boards of one battlefield, laid three Zones apart. Boards
that do not touch are separate parts of the battlefield, so the geometry, pathing and visibility
code already keeps them apart: no path, distance, line of sight or Engagement Range joins them
("Multi-level" is the map itself). The Mission Rules are the only bridges, both through the two
Access Zones that share a label:

- Change Level (a decision at the end of the Movement phase, the named step ``movement``):
  ``rule UNIT`` takes a unit off its level and sets it up in the matching Access Zone of the other.
  It is offered only for a unit that can make it (every model within one Access Zone, and room
  for every model within the matching one).
- Fighting Between Decks (the ``fight_link`` and ``pile_toward`` hooks the Fight phase asks):
  models in matching Access Zones count as visible to and within Engagement Range of each other.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING

from bagm.engine.board.geometry import Base
from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    Objective,
    controlled,
    labelled,
    register,
    underdog_cp,
    warlord_destroyed,
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

BOOK = "Asymmetric Mission 5 Power the Generators"
ACCESS_ZONE = "Access Zone"
CHANGE_LEVEL = "Change Level"
GENERATOR, TERMINAL = "Generator", "Terminal"
ROUT_TABLE = ((500, 80), (375, 60), (250, 40), (125, 15), (0, 0))  # points destroyed: Defender VP


# --- the two levels -------------------------------------------------------------------------------

def access_zones(game: GameInterface) -> list[Area]:
    return game.map.layout.areas_of(ACCESS_ZONE)


def partner(game: GameInterface, area: Area) -> Area | None:
    """The Access Zone with the same label on the other level (Change Level: "the corresponding
    Access Zone on the other game board")."""
    return next((a for a in access_zones(game) if a.label == area.label and a.board != area.board), None)


def access_zone_of(game: GameInterface, u: Unit) -> Area | None:
    """The Access Zone every model of ``u`` is within (Change Level's condition), or None.
    Our reading: "within an Access Zone" as the Core Rules' "within" (some part of the base),
    and every model within the same one (the map's Access Zones never touch, so a coherent unit
    could not be within two anyway)."""
    for a in access_zones(game):
        if u.models and all(a.within(m.base) for m in u.models):
            return a
    return None


def level_of(game: GameInterface, point: tuple[float, float]) -> str | None:
    board = game.map.layout.board_at(point)
    return board.name if board is not None else None


# --- Change Level ---------------------------------------------------------------------------------

def destination(game: Game, u: Unit) -> tuple[Area, list[tuple[float, float]]] | None:
    """Where ``u`` would be set up by Change Level now: the matching Access Zone on the other level
    and a layout with every model within it (wholly within where there is room, as close to its
    centre as possible), clear of every other base; it may be within Engagement Range of enemy
    units ("it can set it up within Engagement Range"). None if the unit cannot change level."""
    here = access_zone_of(game, u)
    there = partner(game, here) if here is not None else None
    if there is None:
        return None
    pts = game.formation(u, there.centre, len(u.models), zone=there, enemy_gap=None)
    if pts is None or not all(there.within(Base(x, y, u.radius)) for x, y in pts):
        return None
    return there, pts


def may_change_level(game: Game, p: Player, done: list[str]) -> list[str]:
    """The units of player ``p`` that can change level now (each once a Movement phase)."""
    return [u.uid for u in game.army_units(p) if u.uid not in done and destination(game, u) is not None]


def _change_level(game: Game) -> Generator[Decision, Action, None]:
    # Mission 5 "Change Level": at the end of each player's Movement phase, any of their units with
    # every model within an Access Zone can be removed and set up with every model within the
    # corresponding Access Zone on the other board, within Engagement Range of enemies if need be
    # (then they fight in the Fight phase; none counts as having charged: nothing sets `charged`)
    p = game.active
    done: list[str] = []  # a unit changes level once a phase (it could otherwise bounce back)
    while True:
        options = may_change_level(game, p, done)
        if not options:
            return
        act = yield Decision("rule", p, {"rule": CHANGE_LEVEL, "options": options})
        if act.kind != "rule":
            return
        u = game.unit(act.arg, p)
        got = destination(game, u)
        assert got is not None  # offered only when it can be made
        there, pts = got
        here = access_zone_of(game, u)
        done.append(u.uid)
        game.set_positions(u, pts)
        u.set_up_turn = game.turn  # it is set up: no Tactical Manoeuvre this turn (Rules Adaptations)
        game.emit(ev.ChangeLevel(e="change_level", unit=u.uid, area=there.name, level=there.board,
                  left=here.board if here is not None else None,
                  at=[[round(x, 2), round(y, 2)] for x, y in pts]))
        game.update_control(turn_boundary=False)
        # Set Overwatch: "just after an enemy unit is set up"
        yield from game.overwatch_window(u, "is set up")


# --- Fighting Between Decks -----------------------------------------------------------------------

def _linked(game: GameInterface, a: Base, b: Base) -> bool:
    # Mission 5 "Fighting Between Decks": during the Fight phase, a model within an Access Zone
    # counts as visible to and within Engagement Range of opposing models within the corresponding
    # Access Zone on the other board (game.mission.fight_links asks only for opposing units)
    if game.phase != "fight":
        return False
    for area in access_zones(game):
        if area.within(a):
            other = partner(game, area)
            if other is not None and other.within(b):
                return True
    return False


def _fight_units(game: GameInterface, u: Unit) -> list[Unit]:
    # Mission 5 "Fighting Between Decks", unit by unit: the opposing units with a model within the
    # Access Zone matching one that a model of ``u`` is within (the same answer as _linked for
    # every pair of their models, found without trying each pair)
    if game.phase != "fight":
        return []
    x0, y0, x1, y1 = game.bbox(u)
    others = []
    for area in access_zones(game):
        ax0, ay0, ax1, ay1 = area.box
        if x1 <= ax0 or x0 >= ax1 or y1 <= ay0 or y0 >= ay1:  # the unit's box misses the Zone
            continue
        other = partner(game, area)
        if other is not None and any(area.within(m.base) for m in u.models):
            others.append(other)
    if not others:
        return []
    return [e for e in game.army_units(game.other(u.player))
            if any(o.within(n.base) for o in others for n in e.models)]


def _pile_toward(game: GameInterface, u: Unit, t: Unit) -> tuple[float, float] | None:
    # Mission 5 "Fighting Between Decks": a model of a unit fighting this way may Pile in or
    # Consolidate in any direction but must end closer to the centre of that Access Zone. Our
    # reading: "such a unit" is one fighting a unit it reaches only between decks (a unit also
    # within Engagement Range on its own level piles in toward the closest enemy as usual), and
    # "that Access Zone" is the one on the unit's own level through which it fights
    if game.engaged(u, t):
        return None
    for area in access_zones(game):
        other = partner(game, area)
        if other is None:
            continue
        if any(area.within(m.base) for m in u.models) and any(other.within(n.base) for n in t.models):
            return area.centre
    return None


# --- Focused Operatives ---------------------------------------------------------------------------

def _focused_operatives(game: GameInterface, u: Unit, marker: int) -> str | None:
    # Mission 5 "Focused Operatives": any unit can perform Secure Site on an objective marker
    return ""


# --- the objectives -------------------------------------------------------------------------------

def _access_when(game: Game, step: str, p: Player) -> bool:
    # Mission 5 "Access the Data": at the end of the Attacker's Command phase; in the fifth battle
    # round at the end of their turn instead. Our reading: every battle round, the first included
    # (the text names no round but the fifth)
    if game.role.get(p) != "Attacker":
        return False
    if step == "end_command":
        return game.round < 5
    return step == "end_turn" and game.round == 5


def powered_terminals(game: Game, p: Player) -> list[int]:
    """The Terminals the Attacker powers up: one for each Generator they control. Our reading of
    "they can select one Terminal objective marker": the selection has no effect but this score
    (powered "until the end of the turn", nothing else reads it), so the engine selects for the
    player the Terminals they control, in map order; a Terminal they do not control would score
    nothing."""
    gens = [i for i in controlled(game, p) if i in labelled(game, GENERATOR)]
    mine = [i for i in controlled(game, p) if i in labelled(game, TERMINAL)]
    return mine[:len(gens)]


def _access_the_data(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 5 "Access the Data": for each Generator controlled, one Terminal is powered up; 10VP
    # for each powered Terminal the Attacker controls
    powered = powered_terminals(game, p)
    if powered:
        game.emit(ev.Powered(e="powered", player=p, terminals=[i + 1 for i in powered], why="Access the Data"))
    return [(10, f"powered Terminal (objective marker {i + 1}) controlled") for i in powered]


def _rout_and_crush_them(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 5 "Rout and Crush Them": end of the battle, the Defender scores by the points of the
    # Attacker's units destroyed: 0-124: 0VP, 125-249: 15VP, 250-374: 40VP, 375-499: 60VP, 500: 80VP
    # (the table's last row reads "500": our reading, 500 or more, as the rows before it run on),
    # and 20VP if the Attacker's WARLORD is destroyed
    if game.role.get(p) != "Defender":
        return []
    attacker = game.other(p)
    total = game.destroyed_points(attacker)
    vp = next(v for t, v in ROUT_TABLE if total >= t)
    out = [(vp, f"{total} points of Attacker units destroyed")] if vp else []
    if warlord_destroyed(game, attacker):
        out.append((20, "the Attacker's WARLORD is destroyed"))
    return out


# --- for the bots: the way to a point on the other level ---------------------------------------------

def route_via(game: GameInterface, here: tuple[float, float], there: tuple[float, float]) -> tuple[float, float] | None:
    """The centre of the Access Zone on ``here``'s level to make for to reach ``there`` on the
    other level (straight lines: the shortest sum to it and from its partner), or None when both
    points are on one level (or no Access Zone joins them)."""
    a, b = level_of(game, here), level_of(game, there)
    if a is None or b is None or a == b:
        return None
    best = None
    for area in access_zones(game):
        other = partner(game, area)
        if area.board != a or other is None or other.board != b:
            continue
        d = math.dist(here, area.centre) + math.dist(other.centre, there)
        if best is None or d < best[0]:
            best = (d, area.centre)
    return best[1] if best is not None else None


def build() -> Mission:
    return Mission(5, "Power the Generators", "asymmetric",
                   rules=[MissionRule("Set Defence", f"{BOOK}, Mission Rules: Set Defence", first_turn="Defender"),
                          # "Multi-level": the map's two boards do not touch, so nothing moves,
                          # measures or sees from one to the other (board/battlefield.py connected())
                          MissionRule("Multi-level", f"{BOOK}, Mission Rules: Multi-level"),
                          MissionRule(CHANGE_LEVEL, f"{BOOK}, Mission Rules: {CHANGE_LEVEL}", "movement",
                                      ask=_change_level),
                          MissionRule("Fighting Between Decks", f"{BOOK}, Mission Rules: Fighting Between Decks",
                                      fight_link=_linked, fight_units=_fight_units, pile_toward=_pile_toward),
                          MissionRule("Focused Operatives", f"{BOOK}, Mission Rules: Focused Operatives",
                                      secure=_focused_operatives),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       Objective("Access the Data", f"{BOOK}, Mission Objectives: Access the Data",
                                 "progressive", ("end_command", "end_turn"), _access_the_data,
                                 when=_access_when, credit_control=True),
                       Objective("Rout and Crush Them", f"{BOOK}, Mission Objectives: Rout and Crush Them",
                                 "end_game", ("end_battle",), _rout_and_crush_them, whose="both")])


register("Power the Generators", 5, build)
