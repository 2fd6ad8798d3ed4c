"""Faction army rules that act at a step of the turn: a marked enemy unit that moves each Command
phase (Oath of Moment); destroyed models that return (Transdimensional Reinforcement).

Each is an :class:`~bagm.data.models.Effect` field given by an ability table entry (a faction
pack's ``abilities:``); these steps play it. An army whose units have none of them pays one look
at its units' effects per step.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING

from bagm.engine.board.geometry import Base
from bagm.engine.rules.effects import effect_first
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface
else:
    GameInterface = object  # the declared interface, checked by mypy only (see interface.py)


class ArmyRules(GameInterface):
    """Mixed into :class:`bagm.engine.game.Game` (its state lives there)."""

    def command_marks(self, p: Player) -> dict[str, str]:
        """Player ``p``'s rules that select an enemy unit at the start of their Command phase
        and have not yet in this phase: rule -> the first of their units that has it."""
        out: dict[str, str] = {}
        for u in self.army_units(p):
            if not u.affected:
                continue
            for name, e in u.standing:
                if e.mark_enemy and e.mark_at == "command" and name not in out and \
                        (p, f"{name} mark", self.phase_id) not in self.used:
                    out[name] = u.uid
        return out

    def _command_marks(self) -> Generator[Decision, Action, None]:
        """Oath of Moment: "at the start of your Command phase, select one unit from your
        opponent's army; until the start of your next Command phase it is your Oath of Moment
        target". The previous target stops being one as the new one is selected (or, with no
        enemy unit on the battlefield to select, at once)."""
        p = self.active
        while True:
            pending = self.command_marks(p)
            if not pending:
                return
            rule, uid = next(iter(pending.items()))
            enemies = self.army_units(self.other(p))
            t: Unit | None = None
            if enemies:
                act = yield self.ask("mark", p, {"unit": uid, "rule": rule})
                t = self.unit(act.target, self.other(p))
            for v in self.units.values():  # "until the start of your next Command phase"
                if v.player != p and rule in v.marked:
                    v.marked = v.marked - {rule}
            self.used.add((p, f"{rule} mark", self.phase_id))
            if t is not None:
                t.marked = t.marked | {rule}
                self.emit(ev.Mark(e="mark", unit=uid, target=t.uid, rule=rule))

    def _marks_again(self) -> Generator[Decision, Action, None]:
        """Manhunter's Helm (``mark_again``): "each time your Priority Target is destroyed, if the
        bearer is on the battlefield, you can select a new enemy unit to be your Priority Target".
        Reading: the new one is selected at the next Battlefield Command window (the end of the
        phase at the latest), the active player first; selecting one never hurts, so it is made."""
        for p in (self.active, self.other(self.active)):
            if not self.armies[p].may_set("mark_again"):
                continue  # (asked at every Battlefield Command window)
            for b in self.army_units(p):
                if not b.affected:
                    continue
                for rule, e in b.standing:
                    if not (e.mark_again and e.mark_enemy):
                        continue
                    foes = [v for v in self.units.values() if v.player != p]
                    if any(rule in v.marked and v.alive for v in foes) or \
                            not any(rule in v.marked for v in foes) or not self.army_units(self.other(p)):
                        continue  # its target stands, or none was ever selected, or none is left
                    act = yield self.ask("mark", p, {"unit": b.uid, "rule": rule})
                    t = self.unit(act.target, self.other(p))
                    t.marked = t.marked | {rule}
                    self.emit(ev.Mark(e="mark", unit=b.uid, target=t.uid, rule=rule))

    def legal_mark(self, p: Player) -> list[Action]:
        """Each enemy unit on the battlefield, for the rule the decision names."""
        uid = self.decision.info["unit"]
        return [Action("mark", uid, target=e.uid) for e in self.army_units(self.other(p))]

    # --- Transdimensional Reinforcement (Necrons, Boarding Actions) ----------------------------

    def reinforce(self, u: Unit, need: int, rule: str) -> None:
        """Transdimensional Reinforcement (the Boarding Actions Necrons army rule, in place of
        Reanimation Protocols): the unit requests reinforcement: one D6 for each of its destroyed
        models, each X+ returns one with its full wounds, set up in Unit Coherency with the
        unit's models (one that does not fit stays destroyed); a destroyed unit's returned
        models are set up wholly within one of its player's Entry Zones, or it stays destroyed."""
        lost = u.starting - len(u.models)
        rolls = [self.dice.d6(f"{rule} {u.uid}") for _ in range(lost)]
        back = sum(r >= need for r in rolls)
        at: list[tuple[float, float]] = []
        if back and u.models:  # on the battlefield: in Unit Coherency
            for _ in range(back):
                q = self._return_point(u)
                if q is None:
                    break
                u.models.append(u.new_models([(m.x, m.y) for m in u.models] + [q])[-1])
                self.touch(u)
                at.append(q)
        elif back:  # destroyed: set back up wholly within one of its Entry Zones
            u.models = u.new_models([(0.0, 0.0)] * back)
            for zone in self.entry_zones(u.player):
                u.where = "board"
                if self.set_up(u, zone.centre, zone=zone):
                    at = [(m.x, m.y) for m in u.models]
                    break
                u.where = "destroyed"
            else:
                u.models = []
        # ``at``: where the unit's models stand after (none returned: nothing changes)
        self.emit(ev.Reinforce(e="reinforce", unit=u.uid, rule=rule, rolls=rolls, returned=len(at),
                  at=[[round(m.x, 2), round(m.y, 2)] for m in u.models] if at else []))

    def return_models(self, u: Unit, n: int, rule: str) -> None:
        """Up to ``n`` destroyed models of ``u`` (on the battlefield) return with their full wounds,
        each set up in Unit Coherency as Transdimensional Reinforcement's (:meth:`_return_point`);
        one that does not fit stays destroyed (Song of Renewal, Pox-Bearer)."""
        back = 0
        for _ in range(min(n, u.starting - len(u.models))):
            q = self._return_point(u) if u.models else None
            if q is None:
                break
            u.models.append(u.new_models([(m.x, m.y) for m in u.models] + [q])[-1])
            self.touch(u)
            back += 1
        self.emit(ev.Reinforce(e="reinforce", unit=u.uid, rule=rule, rolls=[], returned=back,
                  at=[[round(m.x, 2), round(m.y, 2)] for m in u.models] if back else []))

    def revivals(self) -> None:
        """Resurrection Protocols: "the first time the bearer is destroyed, roll one D6 at the end of
        the phase. On a 2+, set the bearer back up on the battlefield, as close as possible to where it
        was destroyed and not within Engagement range of any enemy units, with D3 wounds remaining".
        Reading: its one model (the bearer) comes back; "as close as possible": the first point that
        fits on rings 1" apart around where it fell, out to 12"."""
        for u in self.units.values():
            if u.revive is None or u.where != "destroyed":
                continue
            _, x, y = u.revive
            u.revive = None
            rule = u.source("revive_roll")
            need = effect_first(u, "revive_roll")
            self.used.add((u.player, f"{rule} {u.uid}", 0))  # "the first time"
            roll = self.dice.d6(f"{rule} {u.uid}")
            self.emit(ev.RuleRoll(e="rule_roll", player=u.player, rule=rule, roll=roll))
            if roll < need:
                continue
            u.models = u.new_models([(x, y)])[:1]
            spots = [(x, y)] + [(x + d * math.cos(math.pi * k / 6), y + d * math.sin(math.pi * k / 6))
                                for d in range(1, 13) for k in range(12)]
            for at in spots:
                if self.bf.layout.board_at(at) is not None and self.set_up(u, at):
                    break
            else:
                u.models, u.where = [], "destroyed"
                continue
            back = effect_first(u, "revive_wounds")
            w = self.dice.roll_expr(back, f"{rule} {u.uid}") if back is not None else u.W
            u.models[0].wounds = min(w, u.models[0].wounds)
            self.emit(ev.Note(e="note", text=f"{u.uid} is set back up ({rule}) with {u.models[0].wounds} wounds remaining"))

    def reinforce_on_death(self, u: Unit) -> None:
        """"If this unit is destroyed without having requested reinforcement, after removing the
        last model it immediately requests reinforcement"."""
        for s in self.armies[u.player].uses:
            if s.bearer == u.uid and s.kind == "Ability" and any(e.reinforce_roll for e in s.effects):
                key = self._once(u.player, s)
                if key not in self.used:
                    self.used.add(key)
                    self.emit(ev.RuleUsed(e="rule_used", player=u.player, name=s.name, kind=s.kind))
                    need = next(e.reinforce_roll for e in s.effects if e.reinforce_roll)
                    self.reinforce(u, need, s.name)
                return

    def return_on_kill(self, u: Unit, t: Unit, kills: int) -> None:
        """Curse of the Walking Pox: "each time a model in this unit makes an attack that destroys an
        enemy model (excluding MONSTER and VEHICLE models), after this unit has resolved its attacks,
        you can return one destroyed model to this unit" (in Unit Coherency, as a reinforcement's).
        Reading: once each weapon's attacks are resolved (a unit with it has one melee weapon)."""
        rule = next((n for n, e in u.standing if e.return_on_kill and not any(k in t.keywords for k in e.target_lacks)),
                    None)
        if rule is None:
            return
        back = 0
        for _ in range(min(kills, u.starting - len(u.models))):
            q = self._return_point(u)
            if q is None:
                break
            u.models.append(u.new_models([(m.x, m.y) for m in u.models] + [q])[-1])
            self.touch(u)
            back += 1
        if back:  # ``at``: where the unit's models stand after
            self.emit(ev.ModelsReturn(e="models_return", unit=u.uid, rule=rule, returned=back,
                      at=[[round(m.x, 2), round(m.y, 2)] for m in u.models]))

    def _return_point(self, u: Unit) -> tuple[float, float] | None:
        """Where a destroyed model of ``u`` is set up again: in Unit Coherency with its models (1"
        from one of them, no Wall between), on the battlefield, on no other model, and not within
        Engagement Range of an enemy unit unless that unit is already within Engagement Range of
        ``u``. The first such point going round each of its models in turn; None: none."""
        r = u.radius
        pts = [(m.x, m.y) for m in u.models]
        engaged = {v.uid for v in self.engaged_with(u)}
        enemies = [m.base for v in self.army_units(self.other(u.player)) if v.uid not in engaged for m in v.models]
        others = self.others_bases(u) + u.bases
        gap = 2 * r + 1.0
        for m in u.models:
            for k in range(12):
                a = math.pi * k / 6
                q = (m.x + gap * math.cos(a), m.y + gap * math.sin(a))
                b = Base(q[0], q[1], r)
                if self.bf.layout.board_at(q) is None or not self.fits(b):
                    continue
                if any(math.hypot(o.x - q[0], o.y - q[1]) < o.radius + r - 1e-9 for o in others):
                    continue
                if any(self.model_engaged(b, e) for e in enemies):
                    continue
                if self.bf.distance(m.base, b) > 1.0 + 1e-6 or not self.coherent(pts + [q], r):
                    continue
                return q
        return None

    # --- at the start of the Fight phase ----------------------------------------------------

    def _fight_start_rules(self) -> Generator[Decision, Action, None]:
        """Fearsome Assault, Terminatus Assault, Voices in the Code: "at the start of the Fight
        phase, each enemy unit within Engagement Range of one or more units with this ability must
        take a Battle-shock test" (X added: ``fight_shock``, and ``shock_below_half_mod`` for a unit
        Below Half-strength); the active player's rules first."""
        for p in (self.active, self.other(self.active)):
            tests: dict[str, tuple[str, int]] = {}
            for u in self.army_units(p):
                for name, e in u.standing if u.affected else ():
                    if e.fight_shock is None:
                        continue
                    for t in self.engaged_with(u):
                        old = tests.get(t.uid)
                        # Horrifying Beauty: "subtracting 1 from that test if that enemy unit is Below Half-strength"
                        mod = e.fight_shock + (e.shock_below_half_mod if t.below_half() else 0)
                        tests[t.uid] = (name, mod if old is None else min(old[1], mod))
            for uid, (name, mod) in tests.items():
                yield from self.battleshock_test(self.unit(uid), name, mod)
