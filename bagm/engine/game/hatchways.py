"""Operating Hatchways (Rules Adaptations "Operating Hatchways"): at the end of the Move Units
step a unit next to a Hatchway opens or closes it, or a BREACHER unit breaks it down; the rules
that bar it (Lockdown effects, Mission Rules such as Airlocks) and what happens when it opens."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.game import command, kept, moments, movement, positions, shooting
from bagm.engine.rules.effects import (
    effect_has,
    effect_least,
    effect_sum,
)
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import (
    Decision,
    IllegalAction,
    Player,
)

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


def _operate_hatchways(g: GameInterface) -> Generator[Decision, Action, None]:
    # Operating Hatchways: at the end of the Move Units step
    p = g.active
    while _may_hatch(g, p):
        act = yield g.ask("hatch", p)
        if act.kind == "done":
            break
        yield from _operate(g, p, act)


# Hatchways -------------------------------------------------------------------------------

def hatch_options(g: GameInterface, p: Player, breachers: bool = False) -> list[Action]:
    return kept._cached(g, ("hatch", p, g.turn, breachers), lambda: _hatch_options_now(g, p, breachers))


def _hatch_options_now(g: GameInterface, p: Player, breachers: bool) -> list[Action]:
    out = []
    for u in g.army_units(p):
        if breachers and not movement.breacher(g, u):
            continue
        if hatch_spent(g, u) or positions.engaged_with(g, u):
            continue
        reach = hatch_reach(g, u)
        # a door farther in x or in y from the box of the unit's bases than the reach and the
        # widest base (plus slack) is too far from every model: only the others are measured
        x0, y0, x1, y1 = positions.bbox(g, u)
        slack = reach + max(m.r for m in u.models) - u.radius + 1e-6
        for h in g.map.layout.hatchways:
            d = h.door
            if d.x0 - x1 > slack or x0 - d.x1 > slack or d.y0 - y1 > slack or y0 - d.y1 > slack:
                continue
            # a path is never shorter than the straight line: most Hatchways are too far
            if min(d.distance_to((m.x, m.y)) - m.r for m in u.models) > reach + 1e-9:
                continue
            if hatch_reason(g, u, h.index) is None:
                out.append(Action("hatch", u.uid, arg=str(h.index + 1)))
    return out


def hatch_reason(g: GameInterface, u: Unit, index: int) -> str | None:
    """Why the unit cannot operate Hatchway ``index`` now (None: it can), its distance
    from the Hatchway included; not whether it has operated one this turn or is engaged."""
    if (why := g.mission.hatchway_reason(g, u, index)) is not None:  # e.g. Airlocks
        return why
    if u.affected and effect_has(u, "no_hatch"):  # e.g. Horrifying Visage
        return f"it cannot operate Hatchways ({u.source('no_hatch')})"
    if index in g.hatch_jammed and g.bf.is_open(index):  # "until the end of the battle, that
        return f"it cannot be closed ({g.hatch_jammed[index]})"  # Hatchway cannot be closed"
    if not g.edition.hatchway_once_per_unit and g.hatch_operated.get(index) == g.turn:
        # 2023: "that player can operate one or more of the Hatchways" (each once a turn)
        return "it has already been operated this turn"
    reach = hatch_reach(g, u)
    if reach > 1.0 and g.phase == "movement" and all(v.moved for v in g.army_units(u.player)) and \
            _near_hatch(g, u, index, reach):
        pass  # an effect: "at the end of the Move Units step ... within 9" of and visible to it"
    elif not any(_near_hatchway(g, m, index) for m in u.models):
        return "no model of the unit is within 1\" of it"
    if g.bf.is_open(index) and g.edition.hatchway_never_splits_unit:  # 2024 only
        h = g.map.layout.hatchways[index]
        cx, cy = h.centre
        for v in g.units.values():
            if not v.alive or len(v.models) < 2:
                continue
            # A Hatchway can never be closed with models of one unit on opposite sides of it
            # (pairs with a model within 8" of it are looked at: coherent units are compact)
            near = [m.base for m in v.models if math.hypot(m.x - cx, m.y - cy) < 8]
            if not near:
                continue
            far = [m.base for m in v.models]
            if any(g.bf.opposite_sides(a, b, index) for a in near for b in far if a != b):
                return f"models of {v.label()} are on opposite sides of it"
    return None


def hatch_reach(g: GameInterface, u: Unit) -> float:
    """How far from a Hatchway the unit can operate it: 1", or an effect's reach."""
    reach = effect_least(u, "hatch_reach") if u.affected else None
    return 1.0 if reach is None else max(1.0, reach)


def _near_hatch(g: GameInterface, u: Unit, i: int, reach: float) -> bool:
    """A model of ``u`` is within ``reach`` of Hatchway ``i`` (around Walls) and sees it
    (reading: a straight line from the model to the Hatch's nearest point crosses no Wall)."""
    door = g.map.layout.hatchways[i].door
    graph = g.bf.graph()
    for m in u.models:
        if door.distance_to((m.x, m.y)) - m.r > reach + 1e-9:
            continue
        cx, cy = door.closest_point((m.x, m.y))
        if graph.clear(m.x, m.y, cx, cy) and g.bf.distance_to_hatchway(m.base, i) <= reach + 1e-9:
            return True
    return False


def _may_hatch(g: GameInterface, p: Player) -> bool:
    """A unit that has not operated a Hatchway this turn stands within 1" (in a straight
    line) of one: the step is offered ("done" is always among its actions)."""
    doors = [h.door for h in g.map.layout.hatchways
             if g.edition.hatchway_once_per_unit or g.hatch_operated.get(h.index) != g.turn]

    def near(u: Unit) -> bool:
        # a door whose rectangle lies more than 1" (plus slack) from the unit's bounding box
        # in x or in y is out of reach of every model: only the others are measured
        x0, y0, x1, y1 = positions.bbox(g, u)
        return any(d.distance_to((m.x, m.y)) - m.r <= 1.0 + 1e-9 for d in doors
                   if not (d.x0 - x1 > 1.000001 or x0 - d.x1 > 1.000001 or
                           d.y0 - y1 > 1.000001 or y0 - d.y1 > 1.000001)
                   for m in u.models)
    return any(not hatch_spent(g, u) and near(u)
               and not positions.engaged_with(g, u) for u in g.army_units(p)) or any(
        u.affected and hatch_reach(g, u) > 1.0 for u in g.army_units(p)) and bool(hatch_options(g, p))


def hatch_spent(g: GameInterface, u: Unit) -> bool:
    """``u`` can operate no more Hatchways this turn: 2024 "one or more units ... can attempt
    to operate one Hatchway each"; 2023 a unit may operate several, but an Expert Breacher's
    unit that did so at the start of Move Units cannot at the end ("it cannot do both")."""
    return u.hatch_turn == g.turn


def _near_hatchway(g: GameInterface, m: Any, index: int) -> bool:
    """Model ``m`` is within 1" of Hatchway ``index`` (Operating Hatchways)."""
    door = g.map.layout.hatchways[index].door
    return door.distance_to((m.x, m.y)) - m.r <= 1.0 + 1e-9 and \
        g.bf.distance_to_hatchway(m.base, index) <= 1.0 + 1e-9


def legal_hatch(g: GameInterface, p: Player) -> list[Action]:
    return hatch_options(g, p) + [Action("done")]


def _check_hatch(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind == "done":
        return
    if act.kind != "hatch":
        raise IllegalAction("now: 'hatch UNIT N' or 'done'", "Operating Hatchways")
    u = g.unit(act.unit, p)
    n = len(g.map.layout.hatchways)
    i = int(act.arg or 0) - 1
    if not 0 <= i < n:
        raise IllegalAction(f"there are Hatchways 1 to {n}", "Operating Hatchways", u.uid)
    if not u.alive:
        raise IllegalAction(f"{u.label()} is not on the battlefield", "Operating Hatchways", u.uid)
    if hatch_spent(g, u):
        raise IllegalAction(f"{u.label()} has already operated a Hatchway this turn", "Operating Hatchways", u.uid)
    if positions.engaged_with(g, u):
        raise IllegalAction(f"{u.label()} is within Engagement Range of an enemy unit",
                            "Operating Hatchways", u.uid)
    why = hatch_reason(g, u, i)
    if why:
        raise IllegalAction(f"{u.label()} cannot operate Hatchway {i + 1}: {why}", "Operating Hatchways", u.uid)


def _operate(g: GameInterface, p: Player, act: Action, start: bool = False) -> Generator[Decision, Action, None]:
    """Operate a Hatchway (``start``: at the start of Move Units, Expert Breacher)."""
    u = g.unit(act.unit, p)
    i = int(act.arg or 0) - 1
    ed = g.edition
    if ed.hatchway_once_per_unit or start:
        u.hatch_turn = g.turn
    g.hatch_operated[i] = g.turn
    kept.touch(g)
    h = g.map.layout.hatchways[i]
    yield from moments.moment(g, "enemy_attempt", g.other(p), u)  # e.g. Horrifying Visage
    if u.affected and effect_has(u, "no_hatch"):  # "... fails to operate the Hatchway"
        return
    if not g.mission.attempt(g, u, i):  # e.g. Imprisoned: a D6 below its Toughness
        return
    # who may try to prevent it: an enemy unit on the opposite side of and within 1" of it
    # (2024), any enemy models within 1" of it (2023)
    blockers = []
    for e in g.army_units(g.other(p)):
        if any(_near_hatchway(g, m, i) for m in e.models) and (
                not ed.hatchway_blockers_opposite or
                g.bf.wholly_opposite_sides(u.bases[:1], e.bases[:1], i)):
            blockers.append(e)
    remote = [e for e in g.army_units(g.other(p))  # an enemy effect: "as if it was within 1""
              if e not in blockers and e.affected and _lockdown(g, e, i) is not None]
    blockers += remote
    opening = not g.bf.is_open(i)
    if blockers and opening and u.affected and effect_has(u, "hatch_unopposed"):
        blockers = []  # an effect: "... a closed Hatchway, your opponent cannot try to prevent it"
    if blockers:
        e = max(blockers, key=lambda x: x.toughest())
        if e in remote and (rule := _lockdown(g, e, i)) is not None:
            g.used.add((e.player, rule, -g.round))  # once per battle round
        mine, theirs = u.toughest(), e.toughest()  # 2024: a model of each unit (its best)
        if ed.hatchway_rolloff_cap is not None:
            # 2023: "the Toughness characteristic of one of their models that is within 1" of
            # that Hatchway ... (to a maximum of +6 each)"
            cap = ed.hatchway_rolloff_cap
            mine = min(cap, max(v.toughest() for v in g.army_units(p) if any(_near_hatchway(g, m, i)
                                                                      for m in v.models)))
            theirs = min(cap, e.toughest())
        # an effect: "in the resulting roll-off, you can re-roll your result" (a losing one, once)
        again_a = u.affected and effect_has(u, "reroll_hatch_rolloff")
        again_b = e.affected and effect_has(e, "reroll_hatch_rolloff")
        while True:
            # an effect: "add 1 to your result of the roll-off" (opening a closed Hatchway)
            bonus = effect_sum(u, "hatch_rolloff_mod") if opening else 0
            a = g.dice.d6(f"hatchway roll-off {p}") + mine + bonus
            b = g.dice.d6(f"hatchway roll-off {e.player}") + theirs
            if a < b and again_a:
                again_a = False
                a = g.dice.d6(f"hatchway roll-off {p} re-roll") + mine + bonus
            elif b < a and again_b:
                again_b = False
                b = g.dice.d6(f"hatchway roll-off {e.player} re-roll") + theirs
            if a != b:
                break
        g.emit(ev.HatchRolloff(e="hatch_rolloff", unit=u.uid, against=e.uid, roll=a, enemy=b))
        if a < b:
            g.emit(ev.Hatch(e="hatch", unit=u.uid, hatchway=i + 1, name=h.name, open=not opening, prevented=True))
            return
    g.bf.set_open(i, opening)
    kept.touch(g)
    g.emit(ev.Hatch(e="hatch", unit=u.uid, hatchway=i + 1, name=h.name, open=opening))
    if opening:
        u.opened = True  # "each time it opens a Hatchway, until the end of the turn"
        u.opened_hatch = (g.turn, i)
        if u.affected and effect_has(u, "jam_hatch"):  # Brutal Entrance
            g.hatch_jammed[i] = u.source("jam_hatch")
        yield from _opened_by(g, u, i)
        yield from shooting._overwatch_window(g, u, "opens a Hatchway")


def hatches_to_open(g: GameInterface, u: Unit, reach: float, seen: bool = True) -> list[int]:
    """The closed Hatchways within ``reach`` of (and, ``seen``, visible to) ``u`` (numbered from 1)."""
    return [h.index + 1 for h in g.map.layout.hatchways if not g.bf.is_open(h.index) and (
        _near_hatch(g, u, h.index, reach) if seen else
        any(g.bf.distance_to_hatchway(m.base, h.index) <= reach + 1e-9 for m in u.models))]


def open_hatch_now(g: GameInterface, u: Unit, e: Any, name: str) -> Generator[Decision, Action, None]:
    """A rule used at a moment: "select one closed Hatchway within 12\" of and visible to the
    bearer ... roll one D6: on a 2+ open that Hatchway and, until the end of the battle, that
    Hatchway cannot be closed" (no roll-off: the unit does not operate it)."""
    reach = e.open_hatch if e.open_hatch is not None else e.mortals_open_hatch
    options = hatches_to_open(g, u, reach, seen=e.open_hatch is not None)
    if not options:
        return
    act = yield Decision("freemove", u.player, {"unit": u.uid, "hatch": True, "rule": name, "options": options})
    if act.kind != "hatch":
        return
    i = int(act.arg or 0) - 1
    if e.open_roll > 1:  # "roll one D6: on a 2+ open that Hatchway"
        roll = g.dice.d6(f"{name} {u.uid}")
        g.emit(ev.HatchRoll(e="hatch_roll", unit=u.uid, hatchway=i + 1, rule=name, roll=roll, opened=roll >= e.open_roll))
        if roll < e.open_roll:
            return
    g.bf.set_open(i, True)
    kept.touch(g)
    h = g.map.layout.hatchways[i]
    g.emit(ev.Hatch(e="hatch", unit=u.uid, hatchway=i + 1, name=h.name, open=True))
    if e.jam_hatch:
        g.hatch_jammed[i] = name


def _lockdown(g: GameInterface, e: Unit, i: int) -> str | None:
    """The rule that lets ``e`` try to prevent the operating of Hatchway ``i`` from afar
    ("once per battle round, ... within 9" and visible to the bearer"), if usable now and
    ``e`` is not within 1" of it anyway."""
    for name, x in e.standing:
        if x.prevent_reach is not None and (e.player, name, -g.round) not in g.used and \
                _near_hatch(g, e, i, x.prevent_reach):
            return name
    return None


def _opened_by(g: GameInterface, u: Unit, i: int) -> Generator[Decision, Action, None]:
    """Effects that happen each time a unit opens a Hatchway: its own (enemy units nearby
    on the other side take a Battle-shock test) and its enemies' (mortal wounds to it)."""
    door = g.map.layout.hatchways[i].door
    reach = effect_least(u, "hatch_shock") if u.affected else None
    if reach is not None:  # "each enemy unit within 6" of that Hatchway and wholly on the opposite side"
        for e in g.army_units(g.other(u.player)):
            if any(door.distance_to((m.x, m.y)) - m.r <= reach + 1e-9 for m in e.models) and \
                    g.bf.wholly_opposite_sides(u.bases, e.bases, i):
                yield from command.battleshock_test(g, e, u.source("hatch_shock"))
    for v in g.army_units(g.other(u.player)):
        if not v.affected:
            continue
        for name, e in v.standing:
            if e.mortals_on == "enemy_opens_hatchway" and (e.mortals_within is None or any(
                    door.distance_to((m.x, m.y)) - m.r <= e.mortals_within + 1e-9 for m in v.models)):
                movement._mortals(g, v, u, name, e)  # "on a 3-4, 1 mortal wound; on a 5+, 2"
