"""The Charge phase: visible targets within 12", the 2D6 Charge roll (Command Re-roll), the Charge
move."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.board.battlefield import ENGAGEMENT_RANGE, ENGAGEMENT_RANGE_HATCHWAY
from bagm.engine.board.geometry import polyline_length
from bagm.engine.rules.effects import charge_tests, early_deep_strike, effect_has, effect_sum, holds_in, slow_aura
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import CHARGE_RANGE, Decision, IllegalAction, Player, _along

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface
else:
    GameInterface = object  # the declared interface, checked by mypy only (see interface.py)



class ChargePhase(GameInterface):
    """Mixed into :class:`bagm.engine.game.Game` (its state lives there)."""

    # Charge phase ----------------------------------------------------------------------------

    def charge_reason(self, u: Unit) -> str | None:
        if u.moved == "fallback" and not (u.affected and effect_has(u, "charge_after_fall_back")) or \
                u.moved == "advance" and not (u.affected and effect_has(u, "charge_after_advance")):
            return "it Advanced or Fell Back this turn"  # unless an effect allows it
        if u.manoeuvre is not None:
            return "it performed a Tactical Manoeuvre this turn"
        if u.affected and effect_has(u, "no_charge"):
            return f"it is not eligible to charge this turn ({u.source('no_charge')})"
        if u.declared:
            return "it has already declared a charge"
        if u.struck_turn == self.turn and early_deep_strike(self, u) is not None:
            return f"it arrived by Deep Strike in the first battle round ({u.source('deep_strike_round_1')})"
        if self.engaged_with(u):
            return "it is within Engagement Range of an enemy unit"
        return None

    def _charge_targets(self, u: Unit) -> list[Unit]:
        out = []
        for e in self.army_units(self.other(u.player)):
            if self.min_straight(u, e) > CHARGE_RANGE:
                continue
            if self.unit_distance(u, e) <= CHARGE_RANGE + 1e-9 and self._charge_sees(u, e) and \
                    self.mission.charge(self, u, e)[0] is None:  # e.g. Lights Out
                out.append(e)
        return out

    def _charge_sees(self, u: Unit, t: Unit) -> bool:
        """Charge Phase: Visibility (Rules Adaptations): the target is visible to the charging
        unit, or within the reach of an effect that lets it charge unseen units."""
        if self.visible_idx(u, t):
            return True
        return self._unseen_rule(u, t) is not None

    def _unseen_rule(self, u: Unit, t: Unit) -> str | None:
        """The rule that lets ``u`` charge ``t``, not visible to it ("it can select units that
        are not visible to it as targets of that charge, provided they are within 9\""), if any
        (one usable once per battle counts until it is used)."""
        if t.timed:  # Quill Marker: "... if it is within 6\" of that enemy unit, it can include that enemy
            # unit as a target of that charge, even if it is not visible to it"
            for name, e, _ in t.timed:
                if e.charged_unseen is not None and (e.charged_unseen_by is None or e.charged_unseen_by in u.keywords) \
                        and self.unit_distance(u, t) <= e.charged_unseen + 1e-9:
                    return name
        if not u.affected:
            return None
        d = self.unit_distance(u, t)
        for name, e in u.standing:
            if e.charge_unseen is not None and d <= e.charge_unseen + 1e-9 and not (
                    e.trigger_once and (u.player, name, 0) in self.used) and (
                    not e.target_marked or name in t.marked):  # Priority Quarry: "one or more of your quarries"
                return name
        return None

    def legal_charge(self, p: Player) -> list[Action]:
        out = []
        for u in self.army_units(p):
            if self.charge_reason(u) is None:
                out += [Action("charge", u.uid, target=e.uid) for e in self._charge_targets(u)]
        return out + [Action("done")]

    def _check_charge(self, p: Player, act: Action) -> None:
        if act.kind == "done":
            return
        if act.kind != "charge":
            raise IllegalAction("in the Charge phase: 'charge UNIT ENEMY' or 'done'", "Charge phase")
        u = self.live_unit(act.unit, p, "Charge phase")
        why = self.charge_reason(u)
        if why:
            raise IllegalAction(f"{u.label()} cannot declare a charge: {why}", "Charge phase", u.uid)
        t = self.unit(act.target)
        if t.player == p or not t.alive:
            raise IllegalAction(f"{t.label()} is not an enemy unit on the battlefield", "Charging with a Unit", u.uid)
        if self.unit_distance(u, t) > CHARGE_RANGE + 1e-9:
            raise IllegalAction(f"{t.label()} is not within 12\" of {u.label()}", "Charging with a Unit", u.uid)
        if not self._charge_sees(u, t):
            raise IllegalAction(f"{t.label()} is not visible to {u.label()}",
                                "Charge Phase: Visibility (Rules Adaptations)", u.uid)
        if (why := self.mission.charge(self, u, t)[0]) is not None:
            raise IllegalAction(f"{t.label()} cannot be charged: {why}", "Mission Rules", u.uid)

    def _charging(self) -> Generator[Decision, Action, None]:
        p = self.active
        while self._may_charge(p):
            act = yield self.ask("charge", p)
            if act.kind == "done":
                break
            u, t = self.unit(act.unit, p), self.unit(act.target)
            u.declared = True
            self.emit(ev.ChargeDeclared(e="charge_declared", unit=u.uid, target=t.uid))
            yield from self.moment("charge_declared", p, u)  # e.g. Flitting Shadows (Battle Focus)
            yield from charge_tests(self, u, t)  # e.g. Terrifying Charge: the target's Leadership test
            if not self.visible_idx(u, t) and (rule := self._unseen_rule(u, t)) is not None:
                if any(e.trigger_once for n, e in u.standing if n == rule):
                    self.used.add((p, rule, 0))  # "once per battle, when the bearer declares a charge"
            yield from self._overwatch_window(u, "declares a charge")
            if not u.alive or not t.alive:
                self.hazardous_after_charge()  # no Charge move to wait for
                continue
            need = self.charge_needed(u, t)
            # a conferred Leader ability: "add 1 to Charge rolls", "you can re-roll Charge rolls"
            mod = (effect_sum(u, "charge_mod", holds_in(self)) if u.affected else 0) + self.mission.charge(self, u, t)[1]
            if slow_aura(self, u) is not None:
                mod -= 1
            if u.affected and u.opened_hatch is not None and u.opened_hatch[0] == self.turn and \
                    (through := effect_sum(u, "charge_through_mod")) and \
                    self.bf.wholly_opposite_sides(u.bases, t.bases, u.opened_hatch[1]):
                mod += through  # Brutal Entrance: "every target ... on the opposite side of that Hatchway"  # e.g. Toxic Miasma: "subtract 1 from ... Charge rolls made for it"
            halve = u.affected and effect_has(u, "halve_move")  # "halve Charge rolls made for it"
            # Acts of Faith: a Miracle dice for one of the two dice (the roll is then never re-rolled)
            miracle = yield from self.act_of_faith(u, "charge", 2, round(need - mod, 2))
            roll = (self.dice.d6(f"charge {u.uid}") if miracle is None else miracle) + self.dice.d6(f"charge {u.uid}")
            roll = (roll + 1) // 2 + mod if halve else roll + mod
            self.emit(ev.ChargeRoll(e="charge_roll", unit=u.uid, roll=roll, needed=round(max(0.0, need), 2)))
            if roll < need and miracle is None:
                info = {"what": "charge", "roll": roll - mod, "needed": round(need - mod, 2)}  # what the dice need
                # "... if one or more targets of that charge have the PSYKER keyword, you can re-roll"
                vs = "reroll_charge_vs" if u.affected and any(
                    k in t.keywords for e in u.effects() for k in e.reroll_charge_vs) else None
                again = (yield from self._effect_reroll(p, u, "reroll_charge", info)) if effect_has(u, "reroll_charge") \
                    else (yield from self._effect_reroll(p, u, vs, info)) if vs is not None \
                    else (yield from self._command_reroll(p, u, info))
                if again:
                    roll = self.dice.d6(f"charge {u.uid} re-roll") + self.dice.d6(f"charge {u.uid} re-roll")
                    roll = (roll + 1) // 2 + mod if halve else roll + mod
                    self.emit(ev.ChargeRoll(e="charge_roll", unit=u.uid, roll=roll, needed=round(max(0.0, need), 2), reroll=True))
            ok = roll >= need and self._charge_move(u, t, float(roll))
            u.charged = ok  # made a Charge move
            self.emit(ev.Charge(e="charge", unit=u.uid, target=t.uid, success=ok))
            if ok and u.affected:  # e.g. Gulyk's Stars: "each time the bearer ends a Charge move"
                for name, e in u.standing:
                    if e.mortals_on == "charge_end" and t.alive:
                        left = len(t.models)
                        self._mortals(u, t, name, e)
                        if e.mortals_open_hatch is not None and len(t.models) < left:
                            yield from self.open_hatch_now(u, e, name)
            if ok:  # e.g. Dark Majesty: "each time the bearer makes a Charge move, select one enemy unit"
                yield from self.moment("charge_move_end", p, u)
            self.hazardous_after_charge()  # Hazardous tests failed firing Overwatch at it
        self.update_control(False)
        self.mission_step("end_charge")

    def charge_needed(self, u: Unit, t: Unit) -> float:
        """The least Charge roll that can bring a model of ``u`` within Engagement Range of a
        model of ``t``: the distance between them less 1", or less 2" when that shortest line
        passes through an open Hatchway (Rules Adaptations "Engagement Range")."""
        return self._charge_pair(u, t)[0]

    def _charge_pair(self, u: Unit, t: Unit) -> tuple[float, Any, Any]:
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
                d = self.bf.distance(m, n)
                if d - ENGAGEMENT_RANGE_HATCHWAY >= best[0]:
                    continue
                er = ENGAGEMENT_RANGE
                if d > ENGAGEMENT_RANGE:
                    pts = self.bf.path(m, n)
                    if pts and self.bf.hatchway_crossed(pts):
                        er = ENGAGEMENT_RANGE_HATCHWAY
                if d - er < best[0]:
                    best = (d - er, i, j)
            return best
        need, i, j = self._geo(("charge", self.positions(u), self.positions(t), self.closed), calc)
        return need, u.models[i], t.models[j]

    def _charge_move(self, u: Unit, t: Unit, roll: float) -> bool:
        need, lead, tm = self._charge_pair(u, t)
        # around other models and the Engagement Range of enemy units not charged, to base
        # contact with the target model (where the route is cut), or as far as the roll goes
        discs = self.move_discs(u, "charge", (t.uid,))
        length, pts = self.move_path(lead.base, (tm.x, tm.y), discs, roll)
        if pts is None:
            return False
        # not within Engagement Range of a unit not charged through an open Hatchway (2") either
        cut = self.cut_at_hatchway_er(u, pts, "charge", (t.uid,))
        if cut is not pts:
            pts, length = cut, polyline_length(cut)
        stop = max(0.0, length - 0.05)
        others = self.others_bases(u)
        reach, placed = min(stop, roll), None
        while reach >= max(0.0, need) - 1e-9 and not placed:
            end = _along(pts, reach)
            placed = self.formation(u, end, len(u.models), avoid=others, enemy_gap=None, discs=discs)
            # each model's own path within the Charge roll, not only the lead's; or the unit
            # moving in step with its lead model
            placed = placed and self.paths_within(u, placed, roll, "charge", discs, (t.uid,)) or \
                self.translated(u, (end[0] - lead.x, end[1] - lead.y), "charge", discs, (t.uid,))
            reach -= 0.25  # closer to the charging unit: its models have less far to go
        if not placed:
            return False
        old = [(m.x, m.y) for m in u.models]
        self.set_positions(u, placed)
        bad = [e for e in self.engaged_with(u) if e is not t]
        if not self.engaged(u, t) or bad:
            self.set_positions(u, old)  # the charge fails: no model moves
            return False
        self.emit(ev.ChargeMove(e="charge_move", unit=u.uid, at=[[round(m.x, 2), round(m.y, 2)] for m in u.models]))
        return True
