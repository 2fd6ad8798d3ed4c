"""The Fight phase: Fights First, alternating selection, Pile-in and Consolidation as Boarding
Actions changes them, Counter-offensive."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Literal

from bagm.engine.attack.rules import Conditions
from bagm.engine.board.geometry import EPS, Base
from bagm.engine.game import control, hazardous, kept, moments, positions, shooting, sight
from bagm.engine.rules.effects import effect_has, effect_least
from bagm.engine.rules.enhancements import enhancement
from bagm.engine.rules.stratagems import COUNTER_OFFENSIVE, affects, may_use, use
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Model, Unit
from bagm.engine.state.core import COHERENCY, PILE_IN, PLAYERS, Decision, IllegalAction, Player
from bagm.engine.state.wargear import melee_plan

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


# Fight phase -----------------------------------------------------------------------------

def can_fight(g: GameInterface, u: Unit) -> bool:
    return u.alive and not u.fought and bool(u.melee) and (u.charged or bool(fight_foes(g, u)))


def fight_foes(g: GameInterface, u: Unit) -> list[Unit]:
    """The enemy units within Engagement Range of ``u`` in the Fight phase: those of
    :meth:`engaged_with`, then those a Mission Rule counts as within it (Fighting Between
    Decks: matching Access Zones on the two levels)."""
    foes = positions.engaged_with(g, u)
    if not g.mission.fights_between:
        return foes
    more = g.mission.fight_links(g, u)
    return foes + [e for e in more if e not in foes] if more else foes


def fights_first(u: Unit) -> bool:
    """Fights First step: units that made a Charge move this turn, and units with the Fights
    First ability (here: conferred by a Leader ability, Battlefield Command)."""
    return u.charged or (u.affected and effect_has(u, "fights_first"))


def pile_reach(u: Unit) -> float:
    """How far a Pile-in or Consolidation move goes: 3", or a conferred Leader ability's 6"."""
    if u.affected:
        return float(effect_least(u, "pile_in") or PILE_IN)
    return PILE_IN


def _fights(g: GameInterface) -> Generator[Decision, Action, None]:
    # Fights First (units that made a Charge move or have Fights First), then Remaining
    # Combats, alternating, starting with the player whose turn it is not
    p = g.active
    while g.fight_stage < 2:
        first = g.fight_stage == 0
        q = g.fight_next or g.other(p)
        pool = {x: [u for u in g.army_units(x) if can_fight(g, u) and (not first or fights_first(u))]
                for x in PLAYERS}
        if not pool["A"] and not pool["B"]:
            g.fight_stage += 1
            g.fight_next = None
            continue
        if not pool[q]:
            q = g.other(q)
        g.fight_next = q
        act = yield g.ask("fight", q, {"fights_first": first})
        u = g.unit(act.unit, q)
        yield from _do_fight(g, u, act.target)
        yield from _counter_window(g, u)
        g.fight_next = g.other(q)
    g.fight_stage = 0
    g.fight_next = None
    control.update_control(g, False)
    g.mission_step("end_fight")


def legal_fight(g: GameInterface, p: Player, only: str | None = None) -> list[Action]:
    first = g.decision.info.get("fights_first", False) if g.decision.step == "fight" else False
    out = []
    for u in g.army_units(p):
        if only and u.uid != only:
            continue
        if not can_fight(g, u) or (first and not fights_first(u)):
            continue
        foes = fight_foes(g, u) or [e for e in g.army_units(g.other(p))
                                      if positions.min_straight(g, u, e) <= pile_reach(u) + 2]
        out += [Action("fight", u.uid, target=e.uid) for e in foes]
        if not foes:
            out.append(Action("fight", u.uid, target="-"))
    return out


def _check_fight(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind != "fight":
        raise IllegalAction("in the Fight phase: 'fight UNIT ENEMY'", "Fight phase")
    only = g.decision.info.get("only")
    legal = legal_fight(g, p, only)
    u = g.unit(act.unit, p)
    if not any(a.unit == u.uid for a in legal):
        why = f"only {only} fights next (Counter-offensive)" if only else \
            "it is not eligible to fight now (not engaged, already fought, or not its step)"
        raise IllegalAction(f"{u.label()} cannot be selected to fight: {why}", "Fight phase", u.uid)
    if act not in legal:
        raise IllegalAction(f"{act.target} is not within reach of {u.label()}", "Fight phase", u.uid)


def _do_fight(g: GameInterface, u: Unit, target: str | None) -> Generator[Decision, Action, None]:
    u.fought = True
    yield from moments.moment(g, "selected_to_fight", u.player, u)
    if not u.alive:  # destroyed as it was selected (a Dark Pact's mortal wounds): it does not fight
        return
    t = g.units.get(target or "")
    if t is None or not t.alive:
        g.emit(ev.Fight(e="fight", unit=u.uid, target=None))
        return
    pile(g, u, t, "pile_in")
    fighters = _fighters(g, u)
    if not (positions.engaged(g, u, t) or t in fight_foes(g, u)) or not fighters:
        g.emit(ev.Fight(e="fight", unit=u.uid, target=t.uid, fighters=0))
        return
    yield from moments.moment(g, "targeted", t.player, t)  # just after it selected its targets
    plan = melee_plan(u, fighters, t)  # each model's weapon (its own wargear, if chosen)
    w = plan[0][0] if plan else u.melee[0]
    e = enhancement(u.enhancement)
    cond = Conditions(hit_mod=1 if u.set_to_defend else 0,  # Set to Defend
                      charged=u.charged)
    parts = [(x, n, cond) for x, n in plan]
    bearer = u.bearer_model() if e.melee_wound_choice else None
    if bearer is not None and bearer in fighters:
        # Close-Quarters Killer: "Each time the bearer makes a melee attack, you can re-roll
        # the Wound roll": any Wound roll of the bearer's (its CHARACTER model's) attacks
        cqk = Conditions(hit_mod=cond.hit_mod, charged=cond.charged, wound_choice=e.name)
        rest = [m for m in fighters if m is not bearer]
        parts = [(x, n, cqk) for x, n in melee_plan(u, [bearer], t)] + \
            [(x, n, cond) for x, n in (melee_plan(u, rest, t) if rest else [])]
    mark = len(g.events)
    for x, n, c in parts:
        if t.alive and u.alive:
            yield from shooting.attack(g, u, t, x, n, c, None, ranged=False)
        elif u.alive:  # the target destroyed first: a Hazardous weapon still owes its tests
            hazardous.hazard_owed(g, u, t, x, n)
    yield from hazardous.take_hazardous(g, u)  # after the unit has resolved all of its attacks
    if u.affected and t.alive and u.alive:  # e.g. Torturer's Craft: "after this unit has fought"
        yield from shooting.battleshock_after_hits(g, u, t, [(x, n, 0) for x, n in plan], mark, fought=True)
    if t.dying and t.melee and u.alive:  # destroyed models that fight on (then are removed)
        n, t.dying = t.dying, 0
        g.emit(ev.Fight(e="fight", unit=t.uid, target=u.uid, fighters=n, weapon=t.melee[0].name,
                  left=len(u.models), dying=True))
        yield from shooting.attack(g, t, u, t.melee[0], n, Conditions(), None, ranged=False)
        yield from hazardous.take_hazardous(g, t)  # (none while its models are gone: cleared)
    g.emit(ev.Fight(e="fight", unit=u.uid, target=t.uid, fighters=len(fighters), weapon=w.name, left=len(t.models)))
    if u.alive:
        links = fight_foes(g, u)
        foes = links or ([t] if t.alive else [])
        nearest = min(g.army_units(g.other(u.player)), key=lambda e: positions.min_straight(g, u, e), default=None)
        goal = foes[0] if foes else nearest
        reach = pile_reach(u)
        if u.affected and (dice := next((e.consolidate for e in u.effects() if e.consolidate), None)):
            # an effect: "it can move up to D3+3\" instead of up to 3\"" (Relentless Spread)
            reach = float(g.dice.roll_expr(dice, f"consolidate {u.uid}"))
        if goal is not None and (goal in links or positions.min_straight(g, u, goal) <= reach + 2):
            pile(g, u, goal, "consolidate", reach)


def _fighters(g: GameInterface, u: Unit) -> list[Model]:
    foes = fight_foes(g, u)
    enemy = [m.base for e in foes for m in e.models]
    link = g.mission.linked if g.mission.fights_between else None  # Fighting Between Decks
    front = [m for m in u.models if any(
        math.hypot(m.x - e.x, m.y - e.y) - m.r - e.radius <= 2.0 and positions.model_engaged(g, m.base, e)
        or link is not None and link(g, m.base, e) for e in enemy)]
    return [m for m in u.models if m in front or any(
        math.hypot(m.x - f.x, m.y - f.y) - m.r - f.r <= COHERENCY for f in front)]


def pile(g: GameInterface, u: Unit, t: Unit, what: Literal["pile_in", "consolidate", "rush_move"],
         reach: float | None = None) -> None:
    # Pile-in / Consolidation (Boarding Actions: toward the closest visible enemy unit; the
    # 2023 adaptation covers Consolidation moves only: a Pile-in needs no visibility);
    # a Mission Rule may send the models toward a point instead (Fighting Between Decks)
    toward = g.mission.pile_point(g, u, t) if g.mission.fights_between and t.alive else None
    seen = what == "pile_in" and not g.edition.pile_in_needs_visibility
    # engaged() first: the same answer (both are pure), and it spares most visibility work
    if toward is None and (not t.alive or not seen and not positions.engaged(g, u, t) and not sight.visible_idx(g, u, t)):
        return
    graph = g.bf.layout.move_layer(u.radius).graph(positions.closed(g))
    others = [(o.x, o.y, o.radius) for o in positions.others_bases(g, u)]
    enemies = [m.base for m in t.models]
    reach = pile_reach(u) if reach is None else reach
    old = [(m.x, m.y) for m in u.models]
    moved = False
    hypot = math.hypot
    # toward a point: models already within Engagement Range on their own level stay too
    near = [b.base for e in positions.engaged_with(g, u) for b in e.models] if toward is not None else []
    for m in u.models:
        if toward is not None:  # a model already linked stays; the others end nearer the point
            if any(g.mission.linked(g, m.base, e) for e in enemies) or \
                    any(positions.model_engaged(g, m.base, e) for e in near):
                continue
            tx, ty = toward
            d = math.hypot(m.x - tx, m.y - ty)
            gap = d
        else:
            if any(positions.model_engaged(g, m.base, e) for e in enemies
                   if math.hypot(m.x - e.x, m.y - e.y) - m.r - e.radius <= 2.0):
                continue
            e = min(enemies, key=lambda e: math.hypot(m.x - e.x, m.y - e.y))
            tx, ty = e.x, e.y
            d = math.hypot(m.x - tx, m.y - ty)
            gap = d - m.r - e.radius - 0.02
        step = min(reach, gap)
        # toward a point (no enemy to stop at): stepping back 0.5" at a time until it fits
        steps = [step - 0.5 * k for k in range(int(step / 0.5) + 1)] if toward is not None else [step]
        for step in steps:
            if step <= 0.05:
                break
            nx, ny = m.x + (tx - m.x) / d * step, m.y + (ty - m.y) / d * step
            b = Base(nx, ny, m.r)
            if not positions.fits(g, b) or not graph.clear(m.x, m.y, nx, ny):
                continue
            # Base.overlaps with every other base (its arithmetic, on plain numbers: a hot loop)
            mr = m.r
            if any(hypot(nx - ox, ny - oy) < mr + orad - EPS for ox, oy, orad in others) or \
                    any(hypot(nx - x.x, ny - x.y) < mr + x.r - EPS for x in u.models if x is not m):
                continue
            m.x, m.y = nx, ny
            moved = True
            break
    if moved:
        if not positions.coherent(g, [(m.x, m.y) for m in u.models], u.radius):
            for m, (x, y) in zip(u.models, old):
                m.x, m.y = x, y  # a move that breaks Unit Coherency is not made
            return
        kept.touch(g, u)
        at = [[round(m.x, 2), round(m.y, 2)] for m in u.models]
        if what == "pile_in":
            g.emit(ev.PileIn(e="pile_in", unit=u.uid, toward=t.uid, at=at))
        elif what == "consolidate":
            g.emit(ev.Consolidate(e="consolidate", unit=u.uid, toward=t.uid, at=at))
        else:
            g.emit(ev.RushMove(e="rush_move", unit=u.uid, toward=t.uid, at=at))


def counter_candidates(g: GameInterface, q: Player) -> list[Unit]:
    """Counter-offensive's TARGET: a unit of ``q`` within Engagement Range of enemy units that
    has not been selected to fight this phase, and that ``q``'s Stratagems can affect."""
    return [u for u in g.army_units(q) if not u.fought and u.melee and
            affects(g, COUNTER_OFFENSIVE, u) and fight_foes(g, u) and
            (not moments.cost_rules(g) or may_use(g, q, COUNTER_OFFENSIVE, u))]


def _counter_window(g: GameInterface, fought: Unit) -> Generator[Decision, Action, None]:
    # Counter-offensive: just after an enemy unit has fought
    q = g.other(fought.player)
    yield from moments.moment(g, "after_enemy_fought", q)
    if not may_use(g, q, COUNTER_OFFENSIVE):
        return
    cands = counter_candidates(g, q)
    if not cands:
        return
    act = yield Decision("counter", q)
    if act.kind == "counter":
        u = g.unit(act.unit, q)
        use(g, q, COUNTER_OFFENSIVE, unit=u)
        act2 = yield Decision("fight", q, {"only": u.uid, "fights_first": False})
        yield from _do_fight(g, g.unit(act2.unit, q), act2.target)
