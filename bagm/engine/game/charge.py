"""The Charge phase: visible targets within 12", the 2D6 Charge roll (Command Re-roll), the Charge
move."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.board.battlefield import ENGAGEMENT_RANGE, ENGAGEMENT_RANGE_HATCHWAY
from bagm.engine.board.geometry import polyline_length
from bagm.engine.game import (
    control,
    hatchways,
    hazardous,
    kept,
    miracles,
    moments,
    movement,
    positions,
    rerolls,
    shooting,
    sight,
)
from bagm.engine.rules.effects import charge_tests, early_deep_strike, effect_has, effect_sum, holds_in, slow_aura
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import CHARGE_RANGE, Decision, IllegalAction, Player, _along

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


# Charge phase ----------------------------------------------------------------------------

def charge_reason(g: GameInterface, u: Unit) -> str | None:
    if u.moved == "fallback" and not (u.affected and effect_has(u, "charge_after_fall_back")) or \
            u.moved == "advance" and not (u.affected and effect_has(u, "charge_after_advance")):
        return "it Advanced or Fell Back this turn"  # unless an effect allows it
    if u.manoeuvre is not None:
        return "it performed a Tactical Manoeuvre this turn"
    if u.affected and effect_has(u, "no_charge"):
        return f"it is not eligible to charge this turn ({u.source('no_charge')})"
    if u.declared:
        return "it has already declared a charge"
    if u.struck_turn == g.turn and early_deep_strike(g, u) is not None:
        return f"it arrived by Deep Strike in the first battle round ({u.source('deep_strike_round_1')})"
    if positions.engaged_with(g, u):
        return "it is within Engagement Range of an enemy unit"
    return None


def _charge_targets(g: GameInterface, u: Unit) -> list[Unit]:
    out = []
    for e in g.army_units(g.other(u.player)):
        if positions.min_straight(g, u, e) > CHARGE_RANGE:
            continue
        if positions.unit_distance(g, u, e) <= CHARGE_RANGE + 1e-9 and _charge_sees(g, u, e) and \
                g.mission.charge(g, u, e)[0] is None:  # e.g. Lights Out
            out.append(e)
    return out


def _charge_sees(g: GameInterface, u: Unit, t: Unit) -> bool:
    """Charge Phase: Visibility (Rules Adaptations): the target is visible to the charging
    unit, or within the reach of an effect that lets it charge unseen units."""
    if sight.visible_idx(g, u, t):
        return True
    return _unseen_rule(g, u, t) is not None


def _unseen_rule(g: GameInterface, u: Unit, t: Unit) -> str | None:
    """The rule that lets ``u`` charge ``t``, not visible to it ("it can select units that
    are not visible to it as targets of that charge, provided they are within 9\""), if any
    (one usable once per battle counts until it is used)."""
    if t.timed:  # Quill Marker: "... if it is within 6\" of that enemy unit, it can include that enemy
        # unit as a target of that charge, even if it is not visible to it"
        for name, e, _ in t.timed:
            if e.charged_unseen is not None and (e.charged_unseen_by is None or e.charged_unseen_by in u.keywords) \
                    and positions.unit_distance(g, u, t) <= e.charged_unseen + 1e-9:
                return name
    if not u.affected:
        return None
    d = positions.unit_distance(g, u, t)
    for name, e in u.standing:
        if e.charge_unseen is not None and d <= e.charge_unseen + 1e-9 and not (
                e.trigger_once and (u.player, name, 0) in g.used) and (
                not e.target_marked or name in t.marked):  # Priority Quarry: "one or more of your quarries"
            return name
    return None


def legal_charge(g: GameInterface, p: Player) -> list[Action]:
    out = []
    for u in g.army_units(p):
        if charge_reason(g, u) is None:
            out += [Action("charge", u.uid, target=e.uid) for e in _charge_targets(g, u)]
    return out + [Action("done")]


def _check_charge(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind == "done":
        return
    if act.kind != "charge":
        raise IllegalAction("in the Charge phase: 'charge UNIT ENEMY' or 'done'", "Charge phase")
    u = g.live_unit(act.unit, p, "Charge phase")
    why = charge_reason(g, u)
    if why:
        raise IllegalAction(f"{u.label()} cannot declare a charge: {why}", "Charge phase", u.uid)
    t = g.unit(act.target)
    if t.player == p or not t.alive:
        raise IllegalAction(f"{t.label()} is not an enemy unit on the battlefield", "Charging with a Unit", u.uid)
    if positions.unit_distance(g, u, t) > CHARGE_RANGE + 1e-9:
        raise IllegalAction(f"{t.label()} is not within 12\" of {u.label()}", "Charging with a Unit", u.uid)
    if not _charge_sees(g, u, t):
        raise IllegalAction(f"{t.label()} is not visible to {u.label()}",
                            "Charge Phase: Visibility (Rules Adaptations)", u.uid)
    if (why := g.mission.charge(g, u, t)[0]) is not None:
        raise IllegalAction(f"{t.label()} cannot be charged: {why}", "Mission Rules", u.uid)


def _charging(g: GameInterface) -> Generator[Decision, Action, None]:
    p = g.active
    while shooting._may_charge(g, p):
        act = yield g.ask("charge", p)
        if act.kind == "done":
            break
        u, t = g.unit(act.unit, p), g.unit(act.target)
        u.declared = True
        g.emit(ev.ChargeDeclared(e="charge_declared", unit=u.uid, target=t.uid))
        yield from moments.moment(g, "charge_declared", p, u)  # e.g. Flitting Shadows (Battle Focus)
        yield from charge_tests(g, u, t)  # e.g. Terrifying Charge: the target's Leadership test
        if not sight.visible_idx(g, u, t) and (rule := _unseen_rule(g, u, t)) is not None:
            if any(e.trigger_once for n, e in u.standing if n == rule):
                g.used.add((p, rule, 0))  # "once per battle, when the bearer declares a charge"
        yield from shooting._overwatch_window(g, u, "declares a charge")
        if not u.alive or not t.alive:
            hazardous.hazardous_after_charge(g)  # no Charge move to wait for
            continue
        need = charge_needed(g, u, t)
        # a conferred Leader ability: "add 1 to Charge rolls", "you can re-roll Charge rolls"
        mod = (effect_sum(u, "charge_mod", holds_in(g)) if u.affected else 0) + g.mission.charge(g, u, t)[1]
        if slow_aura(g, u) is not None:
            mod -= 1
        if u.affected and u.opened_hatch is not None and u.opened_hatch[0] == g.turn and \
                (through := effect_sum(u, "charge_through_mod")) and \
                g.bf.wholly_opposite_sides(u.bases, t.bases, u.opened_hatch[1]):
            mod += through  # Brutal Entrance: "every target ... on the opposite side of that Hatchway"  # e.g. Toxic Miasma: "subtract 1 from ... Charge rolls made for it"
        halve = u.affected and effect_has(u, "halve_move")  # "halve Charge rolls made for it"
        # Acts of Faith: a Miracle dice for one of the two dice (the roll is then never re-rolled)
        miracle = yield from miracles.act_of_faith(g, u, "charge", 2, round(need - mod, 2))
        roll = (g.dice.d6(f"charge {u.uid}") if miracle is None else miracle) + g.dice.d6(f"charge {u.uid}")
        roll = (roll + 1) // 2 + mod if halve else roll + mod
        g.emit(ev.ChargeRoll(e="charge_roll", unit=u.uid, roll=roll, needed=round(max(0.0, need), 2)))
        if roll < need and miracle is None:
            info = {"what": "charge", "roll": roll - mod, "needed": round(need - mod, 2)}  # what the dice need
            # "... if one or more targets of that charge have the PSYKER keyword, you can re-roll"
            vs = "reroll_charge_vs" if u.affected and any(
                k in t.keywords for e in u.effects() for k in e.reroll_charge_vs) else None
            again = (yield from rerolls._effect_reroll(g, p, u, "reroll_charge", info)) if effect_has(u, "reroll_charge") \
                else (yield from rerolls._effect_reroll(g, p, u, vs, info)) if vs is not None \
                else (yield from rerolls._command_reroll(g, p, u, info))
            if again:
                roll = g.dice.d6(f"charge {u.uid} re-roll") + g.dice.d6(f"charge {u.uid} re-roll")
                roll = (roll + 1) // 2 + mod if halve else roll + mod
                g.emit(ev.ChargeRoll(e="charge_roll", unit=u.uid, roll=roll, needed=round(max(0.0, need), 2), reroll=True))
        ok = roll >= need and _charge_move(g, u, t, float(roll))
        u.charged = ok  # made a Charge move
        g.emit(ev.Charge(e="charge", unit=u.uid, target=t.uid, success=ok))
        if ok and u.affected:  # e.g. Gulyk's Stars: "each time the bearer ends a Charge move"
            for name, e in u.standing:
                if e.mortals_on == "charge_end" and t.alive:
                    left = len(t.models)
                    movement._mortals(g, u, t, name, e)
                    if e.mortals_open_hatch is not None and len(t.models) < left:
                        yield from hatchways.open_hatch_now(g, u, e, name)
        if ok:  # e.g. Dark Majesty: "each time the bearer makes a Charge move, select one enemy unit"
            yield from moments.moment(g, "charge_move_end", p, u)
        hazardous.hazardous_after_charge(g)  # Hazardous tests failed firing Overwatch at it
    control.update_control(g, False)
    g.mission_step("end_charge")


def charge_needed(g: GameInterface, u: Unit, t: Unit) -> float:
    """The least Charge roll that can bring a model of ``u`` within Engagement Range of a
    model of ``t``: the distance between them less 1", or less 2" when that shortest line
    passes through an open Hatchway (Rules Adaptations "Engagement Range")."""
    return _charge_pair(g, u, t)[0]


def _charge_pair(g: GameInterface, u: Unit, t: Unit) -> tuple[float, Any, Any]:
    """(roll needed, charging model, target model) of the pair that needs the least; kept
    across moves and games on the positions of both units and the Hatchways."""
    def calc() -> tuple[float, int, int]:
        pairs = sorted(((math.hypot(m.x - n.x, m.y - n.y) - m.r - n.r, i, j)
                        for i, m in enumerate(u.models) for j, n in enumerate(t.models)))
        best = (math.inf, 0, 0)
        for s, i, j in pairs:  # a path is never shorter than the straight line
            if s - ENGAGEMENT_RANGE_HATCHWAY >= best[0]:
                break
            m, n = u.models[i].base, t.models[j].base
            d = g.bf.distance(m, n)
            if d - ENGAGEMENT_RANGE_HATCHWAY >= best[0]:
                continue
            er = ENGAGEMENT_RANGE
            if d > ENGAGEMENT_RANGE:
                pts = g.bf.path(m, n)
                if pts and g.bf.hatchway_crossed(pts):
                    er = ENGAGEMENT_RANGE_HATCHWAY
            if d - er < best[0]:
                best = (d - er, i, j)
        return best
    need, i, j = kept._geo(g, ("charge", kept.positions(u), kept.positions(t), positions.closed(g)), calc)
    return need, u.models[i], t.models[j]


def _charge_move(g: GameInterface, u: Unit, t: Unit, roll: float) -> bool:
    need, lead, tm = _charge_pair(g, u, t)
    # around other models and the Engagement Range of enemy units not charged, to base
    # contact with the target model (where the route is cut), or as far as the roll goes
    discs = positions.move_discs(g, u, "charge", (t.uid,))
    length, pts = positions.move_path(g, lead.base, (tm.x, tm.y), discs, roll)
    if pts is None:
        return False
    # not within Engagement Range of a unit not charged through an open Hatchway (2") either
    cut = positions.cut_at_hatchway_er(g, u, pts, "charge", (t.uid,))
    if cut is not pts:
        pts, length = cut, polyline_length(cut)
    stop = max(0.0, length - 0.05)
    others = positions.others_bases(g, u)
    reach, placed = min(stop, roll), None
    while reach >= max(0.0, need) - 1e-9 and not placed:
        end = _along(pts, reach)
        placed = positions.formation(g, u, end, len(u.models), avoid=others, enemy_gap=None, discs=discs)
        # each model's own path within the Charge roll, not only the lead's; or the unit
        # moving in step with its lead model
        placed = placed and positions.paths_within(g, u, placed, roll, "charge", discs, (t.uid,)) or \
            positions.translated(g, u, (end[0] - lead.x, end[1] - lead.y), "charge", discs, (t.uid,))
        reach -= 0.25  # closer to the charging unit: its models have less far to go
    if not placed:
        return False
    old = [(m.x, m.y) for m in u.models]
    positions.set_positions(g, u, placed)
    bad = [e for e in positions.engaged_with(g, u) if e is not t]
    if not positions.engaged(g, u, t) or bad:
        positions.set_positions(g, u, old)  # the charge fails: no model moves
        return False
    g.emit(ev.ChargeMove(e="charge_move", unit=u.uid, at=[[round(m.x, 2), round(m.y, 2)] for m in u.models]))
    return True
