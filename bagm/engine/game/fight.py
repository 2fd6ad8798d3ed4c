"""The Fight phase: Fights First, alternating selection, Pile-in and Consolidation as Boarding
Actions changes them, Counter-offensive."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Literal

from bagm.engine.attack.rules import Conditions
from bagm.engine.board.geometry import EPS, Base
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
else:
    GameInterface = object  # the declared interface, checked by mypy only (see interface.py)



class FightPhase(GameInterface):
    """Mixed into :class:`bagm.engine.game.Game` (its state lives there)."""

    # Fight phase -----------------------------------------------------------------------------

    def can_fight(self, u: Unit) -> bool:
        return u.alive and not u.fought and bool(u.melee) and (u.charged or bool(self.fight_foes(u)))

    def fight_foes(self, u: Unit) -> list[Unit]:
        """The enemy units within Engagement Range of ``u`` in the Fight phase: those of
        :meth:`engaged_with`, then those a Mission Rule counts as within it (Fighting Between
        Decks: matching Access Zones on the two levels)."""
        foes = self.engaged_with(u)
        if not self.mission.fights_between:
            return foes
        more = self.mission.fight_links(self, u)
        return foes + [e for e in more if e not in foes] if more else foes

    @staticmethod
    def fights_first(u: Unit) -> bool:
        """Fights First step: units that made a Charge move this turn, and units with the Fights
        First ability (here: conferred by a Leader ability, Battlefield Command)."""
        return u.charged or (u.affected and effect_has(u, "fights_first"))

    @staticmethod
    def pile_reach(u: Unit) -> float:
        """How far a Pile-in or Consolidation move goes: 3", or a conferred Leader ability's 6"."""
        if u.affected:
            return float(effect_least(u, "pile_in") or PILE_IN)
        return PILE_IN

    def _fights(self) -> Generator[Decision, Action, None]:
        # Fights First (units that made a Charge move or have Fights First), then Remaining
        # Combats, alternating, starting with the player whose turn it is not
        p = self.active
        while self.fight_stage < 2:
            first = self.fight_stage == 0
            q = self.fight_next or self.other(p)
            pool = {x: [u for u in self.army_units(x) if self.can_fight(u) and (not first or self.fights_first(u))]
                    for x in PLAYERS}
            if not pool["A"] and not pool["B"]:
                self.fight_stage += 1
                self.fight_next: Player | None = None
                continue
            if not pool[q]:
                q = self.other(q)
            self.fight_next = q
            act = yield self.ask("fight", q, {"fights_first": first})
            u = self.unit(act.unit, q)
            yield from self._do_fight(u, act.target)
            yield from self._counter_window(u)
            self.fight_next = self.other(q)
        self.fight_stage: int = 0
        self.fight_next = None
        self.update_control(False)
        self.mission_step("end_fight")

    def legal_fight(self, p: Player, only: str | None = None) -> list[Action]:
        first = self.decision.info.get("fights_first", False) if self.decision.step == "fight" else False
        out = []
        for u in self.army_units(p):
            if only and u.uid != only:
                continue
            if not self.can_fight(u) or (first and not self.fights_first(u)):
                continue
            foes = self.fight_foes(u) or [e for e in self.army_units(self.other(p))
                                          if self.min_straight(u, e) <= self.pile_reach(u) + 2]
            out += [Action("fight", u.uid, target=e.uid) for e in foes]
            if not foes:
                out.append(Action("fight", u.uid, target="-"))
        return out

    def _check_fight(self, p: Player, act: Action) -> None:
        if act.kind != "fight":
            raise IllegalAction("in the Fight phase: 'fight UNIT ENEMY'", "Fight phase")
        only = self.decision.info.get("only")
        legal = self.legal_fight(p, only)
        u = self.unit(act.unit, p)
        if not any(a.unit == u.uid for a in legal):
            why = f"only {only} fights next (Counter-offensive)" if only else \
                "it is not eligible to fight now (not engaged, already fought, or not its step)"
            raise IllegalAction(f"{u.label()} cannot be selected to fight: {why}", "Fight phase", u.uid)
        if act not in legal:
            raise IllegalAction(f"{act.target} is not within reach of {u.label()}", "Fight phase", u.uid)

    def _do_fight(self, u: Unit, target: str | None) -> Generator[Decision, Action, None]:
        u.fought = True
        yield from self.moment("selected_to_fight", u.player, u)
        if not u.alive:  # destroyed as it was selected (a Dark Pact's mortal wounds): it does not fight
            return
        t = self.units.get(target or "")
        if t is None or not t.alive:
            self.emit(ev.Fight(e="fight", unit=u.uid, target=None))
            return
        self.pile(u, t, "pile_in")
        fighters = self._fighters(u)
        if not (self.engaged(u, t) or t in self.fight_foes(u)) or not fighters:
            self.emit(ev.Fight(e="fight", unit=u.uid, target=t.uid, fighters=0))
            return
        yield from self.moment("targeted", t.player, t)  # just after it selected its targets
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
        mark = len(self.events)
        for x, n, c in parts:
            if t.alive and u.alive:
                yield from self.attack(u, t, x, n, c, None, ranged=False)
            elif u.alive:  # the target destroyed first: a Hazardous weapon still owes its tests
                self.hazard_owed(u, t, x, n)
        yield from self.take_hazardous(u)  # after the unit has resolved all of its attacks
        if u.affected and t.alive and u.alive:  # e.g. Torturer's Craft: "after this unit has fought"
            yield from self.battleshock_after_hits(u, t, [(x, n, 0) for x, n in plan], mark, fought=True)
        if t.dying and t.melee and u.alive:  # destroyed models that fight on (then are removed)
            n, t.dying = t.dying, 0
            self.emit(ev.Fight(e="fight", unit=t.uid, target=u.uid, fighters=n, weapon=t.melee[0].name,
                      left=len(u.models), dying=True))
            yield from self.attack(t, u, t.melee[0], n, Conditions(), None, ranged=False)
            yield from self.take_hazardous(t)  # (none while its models are gone: cleared)
        self.emit(ev.Fight(e="fight", unit=u.uid, target=t.uid, fighters=len(fighters), weapon=w.name, left=len(t.models)))
        if u.alive:
            links = self.fight_foes(u)
            foes = links or ([t] if t.alive else [])
            nearest = min(self.army_units(self.other(u.player)), key=lambda e: self.min_straight(u, e), default=None)
            goal = foes[0] if foes else nearest
            reach = self.pile_reach(u)
            if u.affected and (dice := next((e.consolidate for e in u.effects() if e.consolidate), None)):
                # an effect: "it can move up to D3+3\" instead of up to 3\"" (Relentless Spread)
                reach = float(self.dice.roll_expr(dice, f"consolidate {u.uid}"))
            if goal is not None and (goal in links or self.min_straight(u, goal) <= reach + 2):
                self.pile(u, goal, "consolidate", reach)

    def _fighters(self, u: Unit) -> list[Model]:
        foes = self.fight_foes(u)
        enemy = [m.base for e in foes for m in e.models]
        link = self.mission.linked if self.mission.fights_between else None  # Fighting Between Decks
        front = [m for m in u.models if any(
            math.hypot(m.x - e.x, m.y - e.y) - m.r - e.radius <= 2.0 and self.model_engaged(m.base, e)
            or link is not None and link(self, m.base, e) for e in enemy)]
        return [m for m in u.models if m in front or any(
            math.hypot(m.x - f.x, m.y - f.y) - m.r - f.r <= COHERENCY for f in front)]

    def pile(self, u: Unit, t: Unit, what: Literal["pile_in", "consolidate", "rush_move"],
             reach: float | None = None) -> None:
        # Pile-in / Consolidation (Boarding Actions: toward the closest visible enemy unit; the
        # 2023 adaptation covers Consolidation moves only: a Pile-in needs no visibility);
        # a Mission Rule may send the models toward a point instead (Fighting Between Decks)
        toward = self.mission.pile_point(self, u, t) if self.mission.fights_between and t.alive else None
        seen = what == "pile_in" and not self.edition.pile_in_needs_visibility
        # engaged() first: the same answer (both are pure), and it spares most visibility work
        if toward is None and (not t.alive or not seen and not self.engaged(u, t) and not self.visible_idx(u, t)):
            return
        graph = self.bf.layout.move_layer(u.radius).graph(self.closed)
        others = [(o.x, o.y, o.radius) for o in self.others_bases(u)]
        enemies = [m.base for m in t.models]
        reach = self.pile_reach(u) if reach is None else reach
        old = [(m.x, m.y) for m in u.models]
        moved = False
        hypot = math.hypot
        # toward a point: models already within Engagement Range on their own level stay too
        near = [b.base for e in self.engaged_with(u) for b in e.models] if toward is not None else []
        for m in u.models:
            if toward is not None:  # a model already linked stays; the others end nearer the point
                if any(self.mission.linked(self, m.base, e) for e in enemies) or \
                        any(self.model_engaged(m.base, e) for e in near):
                    continue
                tx, ty = toward
                d = math.hypot(m.x - tx, m.y - ty)
                gap = d
            else:
                if any(self.model_engaged(m.base, e) for e in enemies
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
                if not self.fits(b) or not graph.clear(m.x, m.y, nx, ny):
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
            if not self.coherent([(m.x, m.y) for m in u.models], u.radius):
                for m, (x, y) in zip(u.models, old):
                    m.x, m.y = x, y  # a move that breaks Unit Coherency is not made
                return
            self.touch(u)
            at = [[round(m.x, 2), round(m.y, 2)] for m in u.models]
            if what == "pile_in":
                self.emit(ev.PileIn(e="pile_in", unit=u.uid, toward=t.uid, at=at))
            elif what == "consolidate":
                self.emit(ev.Consolidate(e="consolidate", unit=u.uid, toward=t.uid, at=at))
            else:
                self.emit(ev.RushMove(e="rush_move", unit=u.uid, toward=t.uid, at=at))

    def counter_candidates(self, q: Player) -> list[Unit]:
        """Counter-offensive's TARGET: a unit of ``q`` within Engagement Range of enemy units that
        has not been selected to fight this phase, and that ``q``'s Stratagems can affect."""
        return [u for u in self.army_units(q) if not u.fought and u.melee and
                affects(self, COUNTER_OFFENSIVE, u) and self.fight_foes(u) and
                (not self.cost_rules or may_use(self, q, COUNTER_OFFENSIVE, u))]

    def _counter_window(self, fought: Unit) -> Generator[Decision, Action, None]:
        # Counter-offensive: just after an enemy unit has fought
        q = self.other(fought.player)
        yield from self.moment("after_enemy_fought", q)
        if not may_use(self, q, COUNTER_OFFENSIVE):
            return
        cands = self.counter_candidates(q)
        if not cands:
            return
        act = yield Decision("counter", q)
        if act.kind == "counter":
            u = self.unit(act.unit, q)
            use(self, q, COUNTER_OFFENSIVE, unit=u)
            act2 = yield Decision("fight", q, {"only": u.uid, "fights_first": False})
            yield from self._do_fight(self.unit(act2.unit, q), act2.target)
