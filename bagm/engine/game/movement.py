"""The Movement phase: Normal, Advance and Fall Back moves (Desperate Escape), Remain Stationary,
the moves effects allow (at the start of the battle, at a moment). Operating Hatchways and the
Reinforcements step are their own modules (hatchways.py, reinforcements.py)."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, cast

from bagm.engine.board.geometry import Base, polyline_length, segment_hits_disk
from bagm.engine.game import deployment, hatchways, miracles, moments, positions, rerolls, shooting
from bagm.engine.game import kept as kept_answers
from bagm.engine.rules.abilities import models_destroyed, stationary_weapons
from bagm.engine.rules.effects import (
    effect_has,
    effect_least,
    effect_sum,
    holds_in,
    moves_through,
    slow_aura,
    slowed,
    through_enemies,
)
from bagm.engine.rules.enhancements import enhancement
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import (
    Decision,
    IllegalAction,
    Player,
    _along,
    _pt,
    _r,
)

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


_SHORTER: dict[int, Any] = {}  # the Effect "its models move X\" less" (hatch_in_move), built once


# Movement phase --------------------------------------------------------------------------

def _move_units(g: GameInterface) -> Generator[Decision, Action, None]:
    p = g.active
    while legal_move(g, p, quick=True):
        act = yield g.ask("move", p)
        if act.kind == "done":
            break
        if act.kind == "hatch":
            yield from hatchways._operate(g, p, act, start=True)
            continue
        u = g.unit(act.unit)
        if act.kind in ("move", "advance", "fallback", "place"):
            slowed(g, u)  # e.g. Toxic Miasma: within 3" of the enemy, Move halved
        if act.kind in ("move", "advance", "fallback", "place"):  # e.g. an Agile Manoeuvre (Battle Focus)
            yield from moments.moment(g, "selected_to_move", p, u)
        roll = 0
        fixed = effect_least(u, "advance_fixed") if act.kind == "advance" and u.affected else None
        if fixed is not None:  # a conferred Leader ability: no Advance roll, add X" instead
            roll = fixed
            g.emit(ev.AdvanceRoll(e="advance_roll", unit=u.uid, roll=roll, fixed=True))
        elif act.kind == "advance":  # Advance Moves: roll one D6
            miracle = yield from miracles.act_of_faith(g, u, "advance", 1)  # Acts of Faith: a Miracle dice for it
            roll = g.dice.d6(f"advance {u.uid}") if miracle is None else miracle
            g.emit(ev.AdvanceRoll(e="advance_roll", unit=u.uid, roll=roll))
            info = {"roll": roll, "what": "advance"}
            # an effect: "you can re-roll Advance rolls made for that unit" (never a Miracle dice)
            again = False if miracle is not None else \
                (yield from rerolls._effect_reroll(g, p, u, "reroll_advance", info)) if effect_has(u, "reroll_advance") \
                else (yield from rerolls._command_reroll(g, p, u, info))
            if again:
                roll = g.dice.d6(f"advance {u.uid} re-roll")  # Command Re-roll or the effect
                g.emit(ev.AdvanceRoll(e="advance_roll", unit=u.uid, roll=roll, reroll=True))
            if u.affected:  # an effect: "add 1 to Advance rolls" (a halving first: Vasov's Auto-Oppressor)
                roll = ((roll + 1) // 2 if effect_has(u, "halve_move") else roll) + effect_sum(
                    u, "advance_mod", holds_in(g))  # (an aura's: Hyperlocation Stutter)
        if act.kind == "fallback":  # an enemy effect: "each time an enemy unit ... is selected to Fall Back"
            for v in g.army_units(g.other(p)):
                if v.affected and positions.engaged(g, u, v):
                    for name, e in v.standing:
                        if e.mortals_on == "enemy_falls_back":
                            _mortals(g, v, u, name, e)
        if act.kind == "fallback" and u.alive:  # Desperate Escape tests, before any model is moved
            rolls = _escape_rolls(g, u, act.point)
            failed = [i for i, r in enumerate(rolls) if r <= 2]
            # Command Re-roll: a Desperate Escape test
            if failed and (yield from rerolls._command_reroll(g,
                    p, u, {"roll": rolls[failed[0]], "what": "desperate escape"})):
                rolls[failed[0]] = g.dice.d6(f"desperate escape {u.uid} re-roll")
            _escape_losses(g, u, rolls)
        foes = positions.engaged_with(g, u) if act.kind == "fallback" else []
        if act.kind == "move" and u.affected and effect_least(u, "hatch_in_move") is not None and \
                not hatchways.hatch_spent(g, u):
            yield from _hatch_in_move(g, u)  # e.g. Unerring Strike: a Hatchway on the way
        _do_move(g, u, act, roll)
        if u.moved != "stationary" and u.alive:
            yield from shooting._overwatch_window(g, u, "ends a move")
        for v in foes:  # an enemy effect: "each time an enemy unit ... Falls Back, after it has moved"
            if v.alive and v.affected and not positions.engaged_with(g, v):
                yield from free_moves(g, v, "enemy_fell_back")
        for v in foes if act.kind == "fallback" else ():  # e.g. Opportunity Seized (Battle Focus)
            if v.alive:
                yield from moments.moment(g, "enemy_fell_back", g.other(p), v)
    for u in g.army_units(p):
        if u.moved is None:
            u.moved = "stationary"
    stationary_weapons(g, p)  # e.g. DS8 Support Turret: "if this unit Remains Stationary"


def _hatch_in_move(g: GameInterface, u: Unit) -> Generator[Decision, Action, None]:
    """An effect: "each time it makes a Normal move, while making that move, it can attempt to
    operate a closed Hatchway that is within 1\" of it at any point during that move, provided
    that there are no enemy units within 1\" of that Hatchway ... reduce the distance each
    model in that unit can move by 2\"". Reading: the Hatchway is operated first (the point
    of the move nearest it), then the whole move is made with the Hatchway as it now is."""
    cut = effect_least(u, "hatch_in_move") or 0
    rule = next((n for n, e in u.standing if e.hatch_in_move is not None), "")
    reach = u.move(holds_in(g)) - cut
    enemies = [m for e in g.army_units(g.other(u.player)) for m in e.models]
    options = []
    for h in g.map.layout.hatchways:
        i = h.index
        if reach < 0 or g.bf.is_open(i) or any(hatchways._near_hatchway(g, m, i) for m in enemies):
            continue
        if g.mission.hatchway_reason(g, u, i) is not None:
            continue
        if min(g.bf.distance_to_hatchway(m.base, i) for m in u.models) <= reach + 1.0 + 1e-9:
            options.append(i + 1)
    if not options:
        return
    act = yield Decision("freemove", u.player, {"unit": u.uid, "hatch": True, "rule": rule, "options": options})
    if act.kind != "hatch":
        return
    if cut:
        eff = _SHORTER.get(cut)
        if eff is None:
            from bagm.data.models import Effect
            from bagm.data.schema import validate

            eff = _SHORTER[cut] = validate(Effect, {"M_mod": -cut})
        u.timed += ((rule, eff, "phase"),)
    yield from hatchways._operate(g, u.player, act, start=True)  # "it cannot operate a Hatchway again this turn"


def legal_move(g: GameInterface, p: Player, quick: bool = False) -> list[Action]:
    out: list[Action] = []
    markers = g.map.layout.markers
    for u in g.army_units(p):
        if u.moved is not None:
            continue
        if quick:
            return [Action("hold", u.uid)]
        out.append(Action("hold", u.uid))
        foes = positions.engaged_with(g, u)
        if foes:
            for z in deployment.entry_zones(g, p):
                if plan_move(g, u, _r(z.centre), float(u.move(holds_in(g))), "fallback")[1] is not None:
                    out.append(Action("fallback", u.uid, point=_r(z.centre)))
            continue
        for m in markers:
            out.append(Action("move", u.uid, point=_r((m.x, m.y))))
            out.append(Action("advance", u.uid, point=_r((m.x, m.y))))
        enemies = g.army_units(g.other(p))
        if enemies:
            e = min(enemies, key=lambda e: positions.min_straight(g, u, e))
            out.append(Action("move", u.uid, point=_r((e.models[0].x, e.models[0].y))))
    if any(breacher(g, u) for u in g.army_units(p)):
        out += [a for a in hatchways.hatch_options(g, p, breachers=True) if _may_breach(g, p, g.unit(a.unit))]
    if out:
        out.append(Action("done"))
    return out


def move_units_starting(g: GameInterface, p: Player) -> bool:
    """No unit of ``p`` has been selected to move yet: the start of the Move Units step
    (Expert Breacher: "at the start or end of the Move Units step"; the end is the step of
    Operating Hatchways every unit has)."""
    return all(u.moved is None for u in g.army_units(p))


def layout_ok(g: GameInterface, p: tuple[float, float]) -> bool:
    return g.bf.layout.board_at(p) is not None


def breacher(g: GameInterface, u: Unit) -> bool:
    """It can operate a Hatchway in the Move Units step: Expert Breacher (at its start), or
    an effect (when it is selected to move)."""
    return enhancement(u.enhancement).hatchway_in_move_units or (  # Expert Breacher
        u.affected and effect_has(u, "hatch_before_move"))


def _may_breach(g: GameInterface, p: Player, u: Unit) -> bool:
    """Now, in the Move Units step: Expert Breacher at its start; an effect's "each time it is
    selected to make a Normal or Advance move" before the unit has moved."""
    if move_units_starting(g, p) and enhancement(u.enhancement).hatchway_in_move_units:
        return True
    return u.moved is None and u.affected and effect_has(u, "hatch_before_move")


def _check_move(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind == "done":
        return
    if act.kind == "hatch":
        u = g.unit(act.unit, p)
        if not breacher(g, u):
            raise IllegalAction(f"{u.label()} can only operate a Hatchway at the end of the Move "
                                "Units step (Expert Breacher lets it do so at the start too)",
                                "Operating Hatchways", u.uid)
        if not _may_breach(g, p, u):
            raise IllegalAction(f"{u.label()}: Expert Breacher operates a Hatchway at the start or "
                                "the end of the Move Units step, not once units have moved (an "
                                "Enhancement may let a unit do so when selected to move, before it "
                                "moves)", "Enhancements: Expert Breacher", u.uid)
        return hatchways._check_hatch(g, p, act)
    if act.kind not in ("move", "advance", "fallback", "hold", "place"):
        raise IllegalAction("in the Move Units step: move, advance, fallback, place, hold or done, "
                            f"not '{act.kind}'",
                            "Movement phase")
    u = g.live_unit(act.unit, p, "Move Units")
    if u.moved is not None:
        raise IllegalAction(f"{u.label()} has already been selected to move this phase", "Move Units", u.uid)
    foes = positions.engaged_with(g, u)
    if foes and act.kind in ("move", "advance", "place"):
        raise IllegalAction(f"{u.label()} is within Engagement Range of {foes[0].label()}: it can only "
                            "Remain Stationary or Fall Back", "Move Units", u.uid)
    if not foes and act.kind == "fallback":
        raise IllegalAction(f"{u.label()} is not within Engagement Range of an enemy unit",
                            "Fall Back Moves", u.uid)
    if act.kind == "fallback" and act.point is not None and layout_ok(g, act.point) and \
            plan_move(g, u, act.point, float(u.move(holds_in(g))), "fallback")[1] is None:
        raise IllegalAction(f"{u.label()} cannot end a Fall Back move toward {_pt(act.point)} outside "
                            "Engagement Range, so it cannot Fall Back that way", "Fall Back Moves", u.uid)
    if act.point is not None:
        try:
            g.bf._check(act.point)
        except ValueError as exc:
            raise IllegalAction(f"{u.label()}: destination {exc}", "Movement", u.uid) from None
    if act.kind == "place":
        _check_place(g, u, act)


def _check_place(g: GameInterface, u: Unit, act: Action) -> None:
    pts = list(act.points or ())
    if len(pts) != len(u.models):
        raise IllegalAction(f"{u.label()} has {len(u.models)} models; give one position each",
                            "Movement", u.uid)
    others = positions.others_bases(g, u)
    enemies = [m.base for e in g.army_units(g.other(u.player)) for m in e.models]
    for i, (m, q) in enumerate(zip(u.models, pts)):
        b = Base(q[0], q[1], m.r)  # its own base
        try:
            g.bf._check(q)
        except ValueError as exc:
            raise IllegalAction(f"{u.label()} model {i + 1}: {exc}", "Movement", u.uid) from None
        if not g.bf.fits(b):
            raise IllegalAction(f"{u.label()} model {i + 1} at {_pt(q)} would overlap a Wall, a "
                                "closed Hatchway or an open Hatchway's opening",
                                "Impassable Terrain / Open Hatchways", u.uid)
        if any(b.overlaps(o) for o in others) or any(
                b.overlaps(Base(x, y, u.models[j].r)) for j, (x, y) in enumerate(pts) if j != i):
            raise IllegalAction(f"{u.label()} model {i + 1} at {_pt(q)} would overlap another model",
                                "Impassable Terrain and Other Models", u.uid)
        length, route = g.bf.move_path(m.base, q, positions.move_discs(g, u, "normal"))
        if route is None or route[-1] != q or positions.cut_at_hatchway_er(g, u, route, "normal") is not route:
            raise IllegalAction(f"{u.label()} model {i + 1} cannot reach {_pt(q)} without moving "
                                "through another model or within Engagement Range of an enemy",
                                "Impassable Terrain and Other Models / Normal Moves", u.uid)
        halved = u.M // 2 if slow_aura(g, u) is not None else 0  # e.g. Toxic Miasma
        if length > u.move(holds_in(g)) - halved + g.mission.move_modifier(g, u, "move") + 1e-6:
            raise IllegalAction(f"{u.label()} model {i + 1} would move {length:.2f}\" (Move {u.move(holds_in(g))}\")",
                                "Normal Move", u.uid)
        if any(g.bf.engaged(b, e) for e in enemies):
            raise IllegalAction(f"{u.label()} model {i + 1} would end within Engagement Range of an enemy",
                                "Engagement Range", u.uid)
    if not positions.coherent(g, pts, u.radius):
        raise IllegalAction(f"{u.label()} would not end in Unit Coherency", "Unit Coherency", u.uid)


def _do_move(g: GameInterface, u: Unit, act: Action, advance_roll: int = 0) -> None:
    k = act.kind
    if k == "hold":
        u.moved = "stationary"
        g.emit(ev.Move(e="move", unit=u.uid, kind="remain stationary"))
        return
    if k == "place":
        before = [(m.x, m.y) for m in u.models]
        positions.set_positions(g, u, list(act.points or ()))
        u.moved = "normal"
        g.emit(ev.Move(e="move", unit=u.uid, kind="normal", at=[[round(x, 2), round(y, 2)] for x, y in act.points or ()]))
        if u.affected:
            through_enemies(g, u, before)  # e.g. Lithe Killers
        return
    limit = max(0.0, float(u.move(holds_in(g))) + g.mission.move_modifier(g, u, k)) + advance_roll  # e.g. Deadly Decompression
    if k == "fallback" and not u.models:  # every model failed its Desperate Escape test
        u.moved = "fallback"
        return
    u.moved = {"move": "normal", "advance": "advance", "fallback": "fallback"}[k]
    before = [(m.x, m.y) for m in u.models]
    moved = _move_formation(g, u, act.point, limit, u.moved)
    assert act.point is not None  # checked: a move names its destination
    g.emit(ev.Move(e="move", unit=u.uid, kind=u.moved, goal=list(_r(act.point)), moved=round(moved, 2),
              at=[[round(m.x, 2), round(m.y, 2)] for m in u.models]))
    if u.affected:
        through_enemies(g, u, before)  # e.g. Lithe Killers: moving through enemy models


def _escape_rolls(g: GameInterface, u: Unit, to: tuple[float, float] | None) -> list[int]:
    # Desperate Escape Tests: every model of a Battle-shocked unit, else each model whose
    # line to the destination crosses an enemy model; one D6 each, failed on a 1-2
    if u.affected and effect_has(u, "escape_auto_pass"):
        return []  # an effect: "Desperate Escape tests taken for it are automatically passed"
    foes = g.army_units(g.other(u.player))
    enemies = [m.base for e in foes for m in e.models]
    # an enemy effect: "... must take Desperate Escape tests as if that unit was Battle-shocked;
    # if it is also Battle-shocked, subtract 1 from each test" (the roll returned is the result);
    # target_lacks: "an enemy unit (excluding MONSTERS and VEHICLES)" (No Escape, Bane of Cowards)
    forced = any(e.affected and any(x.escape_as_shocked and not u.keywords.intersection(x.target_lacks)
                                    for x in e.effects()) and positions.engaged(g, u, e) for e in foes)
    mod = -1 if forced and u.battleshocked else 0
    return [g.dice.d6(f"desperate escape {u.uid}") + mod for m in list(u.models)
            if u.battleshocked or forced or (to is not None and any(
                segment_hits_disk((m.x, m.y), to, e.centre, e.radius) for e in enemies))]


def _escape_losses(g: GameInterface, u: Unit, rolls: list[int]) -> int:
    """One model destroyed for each failed Desperate Escape test."""
    dead = sum(1 for r in rolls if r <= 2)
    n = len(u.models)
    fell = [u.models.pop() for _ in range(min(dead, n))]
    if rolls:  # removed_models: indices into the models as they stood before the tests
        g.emit(ev.DesperateEscape(e="desperate_escape", unit=u.uid, tests=len(rolls), destroyed=dead, rolls=rolls,
                  removed_models=list(range(len(u.models), n))))
        kept_answers.touch(g, u)
        models_destroyed(g, u, fell)  # e.g. Deadly Demise
        shooting.check_destroyed(g, u)
    return dead


def plan_move(g: GameInterface, u: Unit, to: tuple[float, float], limit: float, kind: str = "normal"
               ) -> tuple[float, list[tuple[float, float]] | None]:
    """Where a move toward ``to`` of up to ``limit`` inches ends: the lead model's path
    (around Walls, closed Hatchways and other models, and on a Normal or Advance move
    around enemy Engagement Range, 2" through an open Hatchway: :meth:`move_discs`,
    :meth:`cut_at_hatchway_er`), then the formation spreading from where it stops, or the
    unit moving in step with its lead model, every model within ``limit`` along its own
    path (:meth:`paths_within`, :meth:`translated`); stepping back 0.5" at a time while neither
    fits (never within Engagement Range of an enemy), or at once as far as the farthest
    model lacks."""
    def calc() -> tuple[float, list[tuple[float, float]] | None]:
        lead = min(u.models, key=lambda m: math.hypot(m.x - to[0], m.y - to[1]))
        discs = positions.move_discs(g, u, kind)
        length, pts = positions.move_path(g, lead.base, to, discs, limit)
        if pts is None:
            return 0.0, None
        # Engagement Range through an open Hatchway (2") along the way, not only at the end
        cut = positions.cut_at_hatchway_er(g, u, pts, kind)
        if cut is not pts:
            pts, length = cut, polyline_length(cut)
        reach = min(limit, length)
        tries = 0
        # each model's own path within its Move, not only the lead's, farthest first: the
        # formation where every model reaches its place, or the unit moving in step with its
        # lead model; else the farthest where some model stops short on its way
        first: tuple[float, list[tuple[float, float]]] | None = None
        while reach > 0 and tries < 30:
            anchor = _along(pts, reach)
            placed = positions.formation(g, u, anchor, len(u.models), discs=discs)
            whole = placed and positions.paths_within(g, u, placed, limit, kind, discs, strict=True) or \
                positions.translated(g, u, (anchor[0] - lead.x, anchor[1] - lead.y), kind, discs)
            if whole:
                return reach, whole
            if tries == 0 and placed:
                first = (reach, placed)  # (looked for where the lead model goes farthest only)
            # the formation moves with its anchor: a step back shorter than the farthest
            # model lacks (in a straight line to its nearest place) cannot be enough
            lack = max((min(math.hypot(m.x - x, m.y - y) for x, y in placed) for m in u.models),
                       default=0.0) - limit if placed else 0.0
            step = 0.5 * max(1, math.ceil(lack / 0.5 - 1e-9))
            reach -= step
            tries += 1
        # where some model stops short: worked out only now that no step back gave a whole
        # move (the same answer as at the first try: nothing has moved since)
        if first is not None and (got := positions.paths_within(g, u, first[1], limit, kind, discs)):
            return first[0], got
        return 0.0, None

    def kept() -> tuple[float, list[tuple[float, float]] | None]:
        # kept across moves and games on all it depends on: where the unit and every other
        # model stand, which of them are enemies, and the Hatchways. These determine the
        # move's discs (:meth:`move_discs`), which are built only for a new plan (most plans
        # come back); for a unit that moves through models (its effects say which), so do
        # which of the other units it moves through on this kind of move.
        through = u.affected and any(e.move_through for e in u.setting("move_through"))
        board = [v for v in g.units.values() if v is not u and v.where == "board"]
        number = kept_answers.placement  # (a number for each unit's positions: a short key)
        others = tuple([(v.player != u.player, number(g, v)) for v in board])
        got: tuple[float, list[tuple[float, float]] | None] = kept_answers._geo(g,
            ("plan", number(g, u), to, limit, kind, others, positions.closed(g),
             tuple([moves_through(u, v, kind) for v in board]) if through else None), calc)
        return got
    return kept_answers._cached(g, ("plan", u.uid, to, limit, kind), kept)


def _move_formation(g: GameInterface, u: Unit, to: tuple[float, float] | None, limit: float,
                    kind: str = "normal") -> float:
    """Move the unit toward ``to`` up to ``limit`` inches; returns the lead model's move."""
    assert to is not None
    reach, placed = plan_move(g, u, to, limit, kind)
    if placed is None:
        g.emit(ev.Note(e="note", text=f"{u.uid}: cannot move toward {_pt(to)}"))
        return 0.0
    positions.set_positions(g, u, placed)
    return reach


def normal_move(g: GameInterface, u: Unit, to: tuple[float, float], limit: float, why: str) -> float:
    """A Normal Move a Mission Rule or an effect grants outside the Movement phase (Silent Infiltration:
    up to 6"), toward ``to`` by the rules of moves (around Walls, closed Hatchways, other
    models and enemy Engagement Range); how far the lead model went."""
    moved = _move_formation(g, u, to, limit, "normal")
    g.emit(ev.Move(e="move", unit=u.uid, kind="normal", goal=list(_r(to)), moved=round(moved, 2), why=why,
              at=[[round(m.x, 2), round(m.y, 2)] for m in u.models]))
    return moved


# The start of the first battle round: Normal moves effects allow ---------------------------

def _opening_moves(g: GameInterface) -> Generator[Decision, Action, None]:
    """An effect: "at the start of the first battle round, the bearer's unit (and one other
    friendly unit within the same Entry Zone) can make a Normal move of up to 6"". Reading:
    the player who has the first turn makes theirs first. A player who is done marks their
    units as having moved ('stationary'; every turn starts with none moved)."""
    assert g.first is not None
    for p in (g.first, g.other(g.first)):
        _mark_warlord(g, p)
        while opening_movers(g, p) or opening_marks(g, p):
            act = yield g.ask("opening", p)
            if act.kind == "done":
                for u in g.army_units(p):
                    u.moved = u.moved or "stationary"
                break
            u = g.unit(act.unit, p)
            if act.kind == "mark":  # "at the start of the first battle round, select one enemy unit"
                rule = opening_marks(g, p)[u.uid]
                t = g.unit(act.target)
                t.marked = t.marked | {rule}
                g.emit(ev.Mark(e="mark", unit=u.uid, target=t.uid, rule=rule))
                continue
            reach, rule = opening_movers(g, p)[u.uid]
            u.moved = "normal"
            assert act.point is not None
            normal_move(g, u, act.point, reach, rule)


def opening_movers(g: GameInterface, p: Player) -> dict[str, tuple[float, str]]:
    """The units of ``p`` that can still make a move at the start of the first battle round:
    uid -> (its reach in inches, the rule)."""
    if g.turn != 0 or g.round != 1:
        return {}  # only before the first turn
    units = g.army_units(p)
    bearers = [b for b in units if b.affected and (effect_least(b, "opening_move") is not None or
                                                      effect_least(b, "opening_other_move") is not None)]
    if not bearers:
        return {}
    own = {b.uid: float(x) for b in bearers if (x := effect_least(b, "opening_move")) is not None}
    out: dict[str, tuple[float, str]] = {uid: (x, g.unit(uid).source("opening_move"))
                                          for uid, x in own.items() if g.unit(uid).moved is None}
    for b in bearers:
        other = effect_least(b, "opening_other_move")
        if other is None:
            continue
        names = {n.casefold() for e in b.effects() for n in e.opening_others}
        zones = [z for z in deployment.entry_zones(g, p) if any(z.within(m.base) for m in b.models)]
        friends = [v for v in units if v is not b and v.uid not in own and
                   (not names or v.datasheet.name.casefold() in names) and
                   any(z.within(m.base) for z in zones for m in v.models)]
        if any(v.moved == "normal" for v in friends):
            continue  # its one other unit has moved
        for v in friends:
            if v.moved is None:
                out.setdefault(v.uid, (float(other), b.source("opening_other_move")))
    return out


def _mark_warlord(g: GameInterface, p: Player) -> None:
    """Priority Quarry: the opponent's WARLORD is one of the enemy units the rule selects."""
    for b in g.army_units(p):
        if b.affected and effect_has(b, "mark_warlord"):
            rule = b.source("mark_warlord")
            for e in g.army_units(g.other(p)):
                if e.warlord and rule not in e.marked:
                    e.marked = e.marked | {rule}
                    g.emit(ev.Mark(e="mark", unit=b.uid, target=e.uid, rule=rule))
            return


def opening_marks(g: GameInterface, p: Player) -> dict[str, str]:
    """The units of ``p`` whose effect selects an enemy unit at the start of the first battle
    round and has not yet: uid -> the rule."""
    if g.turn != 0 or g.round != 1:
        return {}
    out = {}
    enemies = g.army_units(g.other(p))
    for b in g.army_units(p):
        for rule, eff in b.standing if b.affected else ():  # each of its rules in turn (Imperial Law, Manhunter's Helm)
            if not (eff.mark_enemy and eff.mark_at == "first_round"):
                continue
            if eff.mark_each:  # each unit with the rule selects its own: the mark names the unit
                rule = f"{rule} {b.uid}"
            # (mark_warlord: the Warlord is marked besides the one the player selects)
            if not any(rule in e.marked and not (e.warlord and effect_has(b, "mark_warlord")) for e in enemies) \
                    and any(rule not in e.marked for e in enemies):
                out[b.uid] = rule
                break
    return out


def legal_opening(g: GameInterface, p: Player) -> list[Action]:
    """Each enemy unit to select for a rule that selects one (the selections come first:
    'done' only once they are made), moves toward each objective marker and the nearest
    enemy unit (any destination on the battlefield is accepted: see _check_opening)."""
    enemies = g.army_units(g.other(p))
    marks = [Action("mark", uid, target=e.uid) for uid, rule in opening_marks(g, p).items() for e in enemies
             if rule not in e.marked]
    if marks:
        return marks
    out: list[Action] = []
    for uid in opening_movers(g, p):
        u = g.unit(uid)
        out += [Action("move", uid, point=_r((m.x, m.y))) for m in g.map.layout.markers]
        if enemies:
            e = min(enemies, key=lambda e: positions.min_straight(g, u, e))
            out.append(Action("move", uid, point=_r((e.models[0].x, e.models[0].y))))
    return out + [Action("done")]


def _check_opening(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind in ("done", "mark"):
        marks = legal_opening(g, p)
        if act.kind == "done" and marks and marks[0].kind == "mark":
            raise IllegalAction("first select an enemy unit: " + ", ".join(a.text() for a in marks),
                                "Enhancements: at the start of the first battle round")
        if act.kind == "mark" and act not in marks:
            raise IllegalAction("now: " + ", ".join(a.text() for a in marks),
                                "Enhancements: at the start of the first battle round")
        return
    rule = "Enhancements: a move at the start of the first battle round"
    if act.kind != "move" or act.point is None:
        raise IllegalAction("now: 'move UNIT X,Y' or 'done'", rule)
    u = g.live_unit(act.unit, p, rule)
    if u.uid not in opening_movers(g, p):
        raise IllegalAction(f"{u.label()} cannot move now (no effect lets it, or it has moved)", rule, u.uid)
    try:
        g.bf._check(act.point)
    except ValueError as exc:
        raise IllegalAction(f"{u.label()}: destination {exc}", "Movement", u.uid) from None


# Moves an effect allows at a moment ---------------------------------------------------------

def free_moves(g: GameInterface, u: Unit, when: str) -> Generator[Decision, Action, None]:
    """An effect of ``u``'s: "after the bearer has shot, it can make a Normal move of up to
    6"" (``when``: its free_move_on). Its player moves it ('move UNIT X,Y') or passes; a once
    per battle one is spent only when made."""
    for name, e in list(u.standing) if u.affected else ():
        if e.free_move is None or e.free_move_on != when or not u.alive or \
                e.trigger_once and (u.player, name, 0) in g.used:
            continue
        act = yield Decision("freemove", u.player, {"unit": u.uid, "reach": e.free_move, "rule": name})
        if act.kind == "move" and act.point is not None:
            if e.trigger_once:
                g.used.add((u.player, name, 0))
            normal_move(g, u, act.point, float(e.free_move), name)


def free_move_now(g: GameInterface, u: Unit, e: Any, name: str) -> Generator[Decision, Action, None]:
    """A rule used at a moment: "it can make a Normal move of up to 3\"" now, with a Hatchway
    operated first or after (``free_move_hatch``), and then counting as having Set Overwatch
    (``set_overwatch``)."""
    if e.free_move_hatch == "close_first":
        yield from _free_hatch(g, u, name, opened=True)
    reach = e.free_move
    if reach is None:  # "a Normal move of up to D6+1\"": rolled as the rule is used
        reach = g.dice.roll_expr(e.free_move_roll, f"{name} {u.uid}")
        g.emit(ev.RuleRoll(e="rule_roll", player=u.player, rule=name, roll=reach, expr=str(e.free_move_roll)))
    act = yield Decision("freemove", u.player, {"unit": u.uid, "reach": reach, "rule": name})
    if act.kind == "move" and act.point is not None and u.alive:
        normal_move(g, u, act.point, float(reach), name)
    if e.free_move_hatch == "after":
        yield from _free_hatch(g, u, name)
    if e.set_overwatch and u.alive:  # "counts as having performed the Set Overwatch Tactical Manoeuvre"
        u.manoeuvre = "overwatch"
        u.overwatch_until = g.turn + 1  # until the end of the opponent's next turn
        g.emit(ev.Manoeuvre(e="manoeuvre", unit=u.uid, manoeuvre="overwatch", marker=None))


def _free_hatch(g: GameInterface, u: Unit, name: str, opened: bool = False) -> Generator[Decision, Action, None]:
    """The unit "can then attempt to operate a Hatchway" (``opened``: an open one only)."""
    if not u.alive or not [a for a in _own_hatches(g, u, opened)]:
        return
    act = yield Decision("freemove", u.player, {"unit": u.uid, "hatch": True, "rule": name,
                                                 **({"opened": True} if opened else {})})
    if act.kind == "hatch":
        yield from hatchways._operate(g, u.player, act)


def _own_hatches(g: GameInterface, u: Unit, opened: bool = False) -> list[Action]:
    return [a for a in hatchways.hatch_options(g, u.player) if a.unit == u.uid and (
        not opened or g.bf.is_open(int(a.arg or 0) - 1))]


def legal_freemove(g: GameInterface, info: dict[str, Any]) -> list[Action]:
    """Moves toward each objective marker and the nearest enemy unit, and 'pass' (any
    destination on the battlefield is accepted); or the Hatchways it can operate now."""
    u = g.unit(info["unit"])
    if info.get("options"):  # a Hatchway on the way of a Normal move (hatch_in_move)
        return [Action("hatch", u.uid, arg=str(n)) for n in info["options"]] + [Action("pass")]
    if info.get("hatch"):
        return _own_hatches(g, u, bool(info.get("opened"))) + [Action("pass")]
    if info.get("rush"):  # a move that ends as close as possible to that enemy unit: toward it
        x, y = info["point"]
        return [Action("move", u.uid, point=(x, y)), Action("pass")]
    out = [Action("move", u.uid, point=_r((m.x, m.y))) for m in g.map.layout.markers]
    enemies = g.army_units(g.other(u.player))
    if enemies:
        e = min(enemies, key=lambda e: positions.min_straight(g, u, e))
        out.append(Action("move", u.uid, point=_r((e.models[0].x, e.models[0].y))))
    return out + [Action("pass")]


def _check_freemove(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind == "pass":
        return
    uid = g.decision.info["unit"]
    if g.decision.info.get("hatch"):
        legal = legal_freemove(g, g.decision.info)
        if act not in legal:
            raise IllegalAction("now: " + ", ".join(a.text() for a in legal), str(g.decision.info["rule"]), uid)
        return
    if act.kind != "move" or act.unit != uid or act.point is None:
        raise IllegalAction(f"now: 'move {uid} X,Y' or 'pass'", str(g.decision.info["rule"]), uid)
    try:
        g.bf._check(act.point)
    except ValueError as exc:
        raise IllegalAction(f"{uid}: destination {exc}", "Movement", uid) from None


def _mortals(g: GameInterface, by: Unit, to: Unit, rule: str, e: Any) -> None:
    """A rule's trigger on the enemy unit ``to``: one D6, its table of mortal wounds
    (``e.mortals[roll - 1]``) and/or Battle-shocked on ``e.shock_roll``+; once per battle
    with ``e.trigger_once`` (reading: used the first time it can be)."""
    from bagm.engine.rules.missions.base import suffer_mortal_wounds

    if not to.alive:
        return
    if e.trigger_once:
        mark = (by.player, rule, 0)  # as a rule used at a moment once per battle
        if mark in g.used:
            return
        g.used.add(mark)
    roll = g.dice.d6(f"{rule} {by.uid}")
    g.emit(ev.MortalRoll(e="mortal_roll", unit=by.uid, target=to.uid, rule=rule, roll=roll))
    if e.mortals:
        suffer_mortal_wounds(cast(Any, g), to, e.mortals[roll - 1], rule)
    if e.shock_roll is not None and roll >= e.shock_roll and to.alive and not to.battleshocked:
        to.battleshocked = True  # "on a 2+, that enemy unit is Battle-shocked"
        g.emit(ev.Battleshock(e="battleshock", unit=to.uid, shocked=True, why=rule))

