"""Objective control (Core Rules "Objective Markers"; Rules Adaptations: within 1"; a
Battle-shocked unit has OC 0; Tactical Manoeuvres "Secure Site": a Secured marker stays until the
opponent controls it at the start or end of a turn)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface
else:
    GameInterface = object  # the declared interface, checked by mypy only (see interface.py)

import math
from collections.abc import Generator
from functools import partial

from bagm.engine.rules.effects import effect_first, effect_has, effect_sum, engaged_oc_mod, holds_in
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Model, Unit
from bagm.engine.state.core import Decision, Player


class ObjectiveControl(GameInterface):
    """Mixed into :class:`~bagm.engine.game.sequence.Game` (its state lives there)."""

    def levels_of_control(self) -> list[dict[str, int]]:
        """Each player's Level of Control over each objective marker (OC of models within 1")."""
        out = [{"A": 0, "B": 0} for _ in self.map.layout.markers]
        holds = holds_in(self)  # an OC modifier "while ..." a condition on the game (near a marker...)
        # Overwhelming Magnificence: enemy units in Engagement Range of such a unit lose OC
        auras = {u.player for u in self.units.values() if u.alive and u.affected
                 and (effect_sum(u, "engaged_enemy_OC_mod") or effect_sum(u, "OC_aura_mod"))}
        for u in self.units.values():
            if not u.alive:
                continue
            # a sum of whole numbers: adding each unit's models at once gives the same levels
            counts = self.in_range_counts(u)
            aura = engaged_oc_mod(self, u) if auras and self.other(u.player) in auras else 0
            if u.mixed_oc:  # models of different OC (a Heavy Weapon Platform's 0): each its own
                for i, (level, c) in enumerate(zip(out, counts)):
                    if c:
                        level[u.player] += sum(max(0, oc + aura) if (oc := u.oc(m, holds)) else 0
                                               for m in self._models_in_range(u, i))
                continue
            oc = u.oc(None, holds)
            if aura and oc:
                oc = max(0, oc + aura)
            for level, c in zip(out, counts):
                if c:
                    level[u.player] += c * oc
        return out

    def control_levels(self) -> list[dict[str, int]]:
        """:meth:`levels_of_control`, kept until anything on the battlefield changes or the OC of
        a unit within range of an objective marker does (Battle-shock, conferred Leader abilities
        and effects that hold while a condition on the game holds change it): a unit within range
        of none adds nothing to any level, whatever its OC, so only those units' OC is looked at."""
        holds = holds_in(self)
        levels: list[dict[str, int]] = self._cached(
            ("levels", tuple([u.oc(None, holds) for u in self.units_in_range()])), self.levels_of_control)
        return levels

    def units_in_range(self) -> list[Unit]:
        """The units on the battlefield with a model within range of an objective marker (in unit
        order; :meth:`in_range_counts`), kept until anything on the battlefield changes."""
        got: list[Unit] = self._cached("in range", lambda: [
            u for u in self.units.values() if u.alive and any(self.in_range_counts(u))])
        return got

    def _models_in_range(self, u: Unit, i: int) -> list[Model]:
        """The models of ``u`` within range of objective marker ``i`` (as :meth:`_in_range_counts`)."""
        mk = self.map.layout.markers[i]
        return [m for m in u.models if math.hypot(m.x - mk.x, m.y - mk.y) - m.r - mk.radius <= 1.0 + 1e-9
                and self.bf.in_objective_range(m.base, mk)]

    def in_range_counts(self, u: Unit) -> tuple[int, ...]:
        """How many models of ``u`` are within range of each objective marker: kept on the unit's
        stamp and the Hatchways, and across moves and games on its positions (a geometry answer)."""
        st, closed = self.stamp(u), self.closed
        got = self._by_stamp.get(("objn", u.uid))
        if got is None or got[0] != st or got[1] != closed:
            got = self._by_stamp[("objn", u.uid)] = (st, closed, self._geo(
                ("objn", self.positions(u), closed), partial(self._in_range_counts, u)))
        counts: tuple[int, ...] = got[2]
        return counts

    def near_markers(self, u: Unit) -> tuple[bool, ...]:
        """Whether a model of ``u`` is within range of each objective marker (Core Rules "Objective
        Markers", measured around Walls and closed Hatchways): what the effect conditions
        'near_objective' and 'near_controlled' and Secure-at-once rules ask, many times a turn."""
        return tuple(c > 0 for c in self.in_range_counts(u))

    def _in_range_counts(self, u: Unit) -> tuple[int, ...]:
        """How many models of ``u`` are within range of each objective marker (kept across
        moves and games: it depends only on where the unit stands and on the Hatchways)."""
        if not u.models:  # (a destroyed unit: none)
            return (0,) * len(self.map.layout.markers)
        out = []
        x0, y0, x1, y1 = self.bbox(u)
        for mk in self.map.layout.markers:
            n = 0
            if not (mk.x < x0 - 2 or mk.x > x1 + 2 or mk.y < y0 - 2 or mk.y > y1 + 2):
                for m in u.models:
                    if math.hypot(m.x - mk.x, m.y - mk.y) - m.r - mk.radius <= 1.0 + 1e-9 and \
                            self.bf.in_objective_range(m.base, mk):
                        n += 1
            out.append(n)
        return tuple(out)

    def update_control(self, turn_boundary: bool) -> None:
        """Objective control (Core Rules "Objective Markers"; Rules Adaptations: within 1";
        Battle-shocked OC 0; Secured markers stay until the opponent controls them at the start
        or end of a turn)."""
        new: list[Player | None] = []
        for i, level in enumerate(self.control_levels()):
            raw: Player | None = "A" if level["A"] > level["B"] else "B" if level["B"] > level["A"] else None
            if self.mission.removed(self, i):  # a marker a Mission Rule removed: nobody controls it
                self.secured[i], raw = None, None
            sec = self.secured[i]
            if sec is not None:
                # lost when the opponent controls it at the start or end of a turn (2024), at
                # the end of any phase (2023 Secure Site: "at the end of any subsequent phase")
                if raw == self.other(sec) and (turn_boundary or self.edition.secured_lost_at_phase_end):
                    self.secured[i] = None
                    new.append(raw)
                else:
                    new.append(sec)
            else:
                new.append(raw)
        if new != self.control:
            self.emit(ev.Control(e="control", markers=new))
        self.control: list[Player | None] = new

    # Tactical Manoeuvres "Secure Site" and the effects that Secure or keep markers -------------

    def _secure_roll(self, p: Player, u: Unit, need: int) -> None:
        """Select one objective marker you control within range of ``u`` and not yet Secured by
        your army (reading: selecting one already yours would change nothing), then roll."""
        for m, mk in enumerate(self.map.layout.markers):
            if self.control[m] == p and self.secured[m] != p and \
                    any(self.bf.in_objective_range(x.base, mk) for x in u.models):
                roll = self.dice.d6(f"secure {u.uid}") if need > 1 else 6
                self.emit(ev.SecureRoll(e="secure_roll", player=p, marker=m + 1, unit=u.uid, roll=roll, secured=roll >= need,
                          rule=u.source("secure_roll")))
                if roll >= need:
                    self._secures(p, m)
                return

    def marker_to_secure(self, u: Unit, how: str) -> int | None:
        """The objective marker a rule used on ``u`` Secures at once (``secure_now``): the first
        within range of it and not yet Secured by its army that its army controls ('controlled'),
        or that no enemy unit is within range of ('uncontested')."""
        p = u.player
        near = self.near_markers(u)  # (kept on the units' stamps: asked at every window it is offered)
        for m in range(len(self.map.layout.markers)):
            if self.secured[m] == p or not near[m]:
                continue
            if how == "controlled" and self.control[m] != p:
                continue
            if how == "uncontested" and any(self.near_markers(v)[m] for v in self.army_units(self.other(p))):
                continue
            return m
        return None

    def _secures(self, p: Player, m: int) -> bool:
        """Objective marker ``m`` is Secured by ``p``'s army, unless an enemy effect undoes it
        ("the first time your opponent's army Secures an objective marker, on a 3+ it is not")."""
        for v in self.army_units(self.other(p)):
            for name, e in v.standing if v.affected else ():
                if e.spoil_secure is not None and (v.player, name, 0) not in self.used:
                    self.used.add((v.player, name, 0))  # the first time in the battle
                    roll = self.dice.d6(f"{name} {v.uid}")
                    self.emit(ev.SecureRoll(e="secure_roll", player=p, marker=m + 1, unit=v.uid, roll=roll,
                              secured=roll < e.spoil_secure, rule=name))
                    if roll >= e.spoil_secure:
                        return False
        self.secured[m] = p
        return True

    def secured_at_once(self, u: Unit) -> Generator[Decision, Action, None]:
        """``u`` just performed Secure Site. Imperial Insights (Boarding Actions Mustering Rules, Agents
        of the Imperium army rule, in place of Assigned Agents): its objective marker is Secured at once
        instead of at the start of the next Command phase (reading: the unit Seizes it now, so an enemy
        effect that bars Seizing still does); then it can make a Normal move of up to D6" (it still
        cannot shoot or declare a charge: it performed a Tactical Manoeuvre)."""
        m = u.secure_marker
        if m is None or not (u.affected and effect_has(u, "secure_at_once")):
            return
        rule = u.source("secure_at_once")
        u.secure_marker = None  # "instead of at the start of your next Command phase"
        if not self._seize_barred(u) and self._secures(u.player, m):
            self.emit(ev.Secured(e="secured", player=u.player, marker=m + 1, unit=u.uid))
        reach = effect_first(u, "move_after_secure")
        if reach is None:
            return
        d = self.dice.roll_expr(reach, f"{rule} {u.uid}")
        self.emit(ev.RuleRoll(e="rule_roll", player=u.player, rule=rule, roll=d))
        act = yield Decision("freemove", u.player, {"unit": u.uid, "reach": d, "rule": rule})
        if act.kind == "move" and act.point is not None and u.alive:
            self.normal_move(u, act.point, float(d), rule)

    def _seize_barred(self, u: Unit) -> bool:
        """An enemy effect: "while an enemy unit is within 6\" of the bearer, that unit cannot
        Seize objective markers"."""
        for v in self.army_units(self.other(u.player)):
            for e in v.setting("no_seize_range") if v.affected else ():
                if self.within_reach(
                        v, u, ("straight", e.no_seize_range) if e.straight else e.no_seize_range):
                    self.emit(ev.Note(e="note", text=f"{u.uid} cannot Seize objective markers ({v.uid}'s effect)"))
                    return True
        return False
