"""Operating Hatchways (Rules Adaptations "Operating Hatchways"): at the end of the Move Units
step a unit next to a Hatchway opens or closes it, or a BREACHER unit breaks it down; the rules
that bar it (Lockdown effects, Mission Rules such as Airlocks) and what happens when it opens."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

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
else:
    GameInterface = object  # the declared interface, checked by mypy only (see interface.py)


class Hatchways(GameInterface):
    """Mixed into :class:`bagm.engine.game.Game` (its state lives there)."""

    def _operate_hatchways(self) -> Generator[Decision, Action, None]:
        # Operating Hatchways: at the end of the Move Units step
        p = self.active
        while self._may_hatch(p):
            act = yield self.ask("hatch", p)
            if act.kind == "done":
                break
            yield from self._operate(p, act)

    # Hatchways -------------------------------------------------------------------------------

    def hatch_options(self, p: Player, breachers: bool = False) -> list[Action]:
        return self._cached(("hatch", p, self.turn, breachers), lambda: self._hatch_options_now(p, breachers))

    def _hatch_options_now(self, p: Player, breachers: bool) -> list[Action]:
        out = []
        for u in self.army_units(p):
            if breachers and not self.breacher(u):
                continue
            if self.hatch_spent(u) or self.engaged_with(u):
                continue
            reach = self._hatch_reach(u)
            for h in self.map.layout.hatchways:
                # a path is never shorter than the straight line: most Hatchways are too far
                if min(h.door.distance_to((m.x, m.y)) - m.r for m in u.models) > reach + 1e-9:
                    continue
                if self._hatch_reason(u, h.index) is None:
                    out.append(Action("hatch", u.uid, arg=str(h.index + 1)))
        return out

    def _hatch_reason(self, u: Unit, index: int) -> str | None:
        if (why := self.mission.hatchway_reason(self, u, index)) is not None:  # e.g. Airlocks
            return why
        if u.affected and effect_has(u, "no_hatch"):  # e.g. Horrifying Visage
            return f"it cannot operate Hatchways ({u.source('no_hatch')})"
        if index in self.hatch_jammed and self.bf.is_open(index):  # "until the end of the battle, that
            return f"it cannot be closed ({self.hatch_jammed[index]})"  # Hatchway cannot be closed"
        if not self.edition.hatchway_once_per_unit and self.hatch_operated.get(index) == self.turn:
            # 2023: "that player can operate one or more of the Hatchways" (each once a turn)
            return "it has already been operated this turn"
        reach = self._hatch_reach(u)
        if reach > 1.0 and self.phase == "movement" and all(v.moved for v in self.army_units(u.player)) and \
                self._near_hatch(u, index, reach):
            pass  # an effect: "at the end of the Move Units step ... within 9" of and visible to it"
        elif not any(self._near_hatchway(m, index) for m in u.models):
            return "no model of the unit is within 1\" of it"
        if self.bf.is_open(index) and self.edition.hatchway_never_splits_unit:  # 2024 only
            h = self.map.layout.hatchways[index]
            cx, cy = h.centre
            for v in self.units.values():
                if not v.alive or len(v.models) < 2:
                    continue
                # A Hatchway can never be closed with models of one unit on opposite sides of it
                # (pairs with a model within 8" of it are looked at: coherent units are compact)
                near = [m.base for m in v.models if math.hypot(m.x - cx, m.y - cy) < 8]
                if not near:
                    continue
                far = [m.base for m in v.models]
                if any(self.bf.opposite_sides(a, b, index) for a in near for b in far if a != b):
                    return f"models of {v.label()} are on opposite sides of it"
        return None

    def _hatch_reach(self, u: Unit) -> float:
        """How far from a Hatchway the unit can operate it: 1", or an effect's reach."""
        reach = effect_least(u, "hatch_reach") if u.affected else None
        return 1.0 if reach is None else max(1.0, reach)

    def _near_hatch(self, u: Unit, i: int, reach: float) -> bool:
        """A model of ``u`` is within ``reach`` of Hatchway ``i`` (around Walls) and sees it
        (reading: a straight line from the model to the Hatch's nearest point crosses no Wall)."""
        door = self.map.layout.hatchways[i].door
        g = self.bf.graph()
        for m in u.models:
            if door.distance_to((m.x, m.y)) - m.r > reach + 1e-9:
                continue
            cx, cy = door.closest_point((m.x, m.y))
            if g.clear(m.x, m.y, cx, cy) and self.bf.distance_to_hatchway(m.base, i) <= reach + 1e-9:
                return True
        return False

    def _may_hatch(self, p: Player) -> bool:
        """A unit that has not operated a Hatchway this turn stands within 1" (in a straight
        line) of one: the step is offered ("done" is always among its actions)."""
        doors = [h.door for h in self.map.layout.hatchways
                 if self.edition.hatchway_once_per_unit or self.hatch_operated.get(h.index) != self.turn]

        def near(u: Unit) -> bool:
            # a door whose rectangle lies more than 1" (plus slack) from the unit's bounding box
            # in x or in y is out of reach of every model: only the others are measured
            x0, y0, x1, y1 = self.bbox(u)
            return any(d.distance_to((m.x, m.y)) - m.r <= 1.0 + 1e-9 for d in doors
                       if not (d.x0 - x1 > 1.000001 or x0 - d.x1 > 1.000001 or
                               d.y0 - y1 > 1.000001 or y0 - d.y1 > 1.000001)
                       for m in u.models)
        return any(not self.hatch_spent(u) and near(u)
                   and not self.engaged_with(u) for u in self.army_units(p)) or any(
            u.affected and self._hatch_reach(u) > 1.0 for u in self.army_units(p)) and bool(self.hatch_options(p))

    def hatch_spent(self, u: Unit) -> bool:
        """``u`` can operate no more Hatchways this turn: 2024 "one or more units ... can attempt
        to operate one Hatchway each"; 2023 a unit may operate several, but an Expert Breacher's
        unit that did so at the start of Move Units cannot at the end ("it cannot do both")."""
        return u.hatch_turn == self.turn

    def _near_hatchway(self, m: Any, index: int) -> bool:
        """Model ``m`` is within 1" of Hatchway ``index`` (Operating Hatchways)."""
        door = self.map.layout.hatchways[index].door
        return door.distance_to((m.x, m.y)) - m.r <= 1.0 + 1e-9 and \
            self.bf.distance_to_hatchway(m.base, index) <= 1.0 + 1e-9

    def legal_hatch(self, p: Player) -> list[Action]:
        return self.hatch_options(p) + [Action("done")]

    def _check_hatch(self, p: Player, act: Action) -> None:
        if act.kind == "done":
            return
        if act.kind != "hatch":
            raise IllegalAction("now: 'hatch UNIT N' or 'done'", "Operating Hatchways")
        u = self.unit(act.unit, p)
        n = len(self.map.layout.hatchways)
        i = int(act.arg or 0) - 1
        if not 0 <= i < n:
            raise IllegalAction(f"there are Hatchways 1 to {n}", "Operating Hatchways", u.uid)
        if not u.alive:
            raise IllegalAction(f"{u.label()} is not on the battlefield", "Operating Hatchways", u.uid)
        if self.hatch_spent(u):
            raise IllegalAction(f"{u.label()} has already operated a Hatchway this turn", "Operating Hatchways", u.uid)
        if self.engaged_with(u):
            raise IllegalAction(f"{u.label()} is within Engagement Range of an enemy unit",
                                "Operating Hatchways", u.uid)
        why = self._hatch_reason(u, i)
        if why:
            raise IllegalAction(f"{u.label()} cannot operate Hatchway {i + 1}: {why}", "Operating Hatchways", u.uid)

    def _operate(self, p: Player, act: Action, start: bool = False) -> Generator[Decision, Action, None]:
        """Operate a Hatchway (``start``: at the start of Move Units, Expert Breacher)."""
        u = self.unit(act.unit, p)
        i = int(act.arg or 0) - 1
        ed = self.edition
        if ed.hatchway_once_per_unit or start:
            u.hatch_turn = self.turn
        self.hatch_operated[i] = self.turn
        self.touch()
        h = self.map.layout.hatchways[i]
        yield from self.moment("enemy_attempt", self.other(p), u)  # e.g. Horrifying Visage
        if u.affected and effect_has(u, "no_hatch"):  # "... fails to operate the Hatchway"
            return
        if not self.mission.attempt(self, u, i):  # e.g. Imprisoned: a D6 below its Toughness
            return
        # who may try to prevent it: an enemy unit on the opposite side of and within 1" of it
        # (2024), any enemy models within 1" of it (2023)
        blockers = []
        for e in self.army_units(self.other(p)):
            if any(self._near_hatchway(m, i) for m in e.models) and (
                    not ed.hatchway_blockers_opposite or
                    self.bf.wholly_opposite_sides(u.bases[:1], e.bases[:1], i)):
                blockers.append(e)
        remote = [e for e in self.army_units(self.other(p))  # an enemy effect: "as if it was within 1""
                  if e not in blockers and e.affected and self._lockdown(e, i) is not None]
        blockers += remote
        opening = not self.bf.is_open(i)
        if blockers and opening and u.affected and effect_has(u, "hatch_unopposed"):
            blockers = []  # an effect: "... a closed Hatchway, your opponent cannot try to prevent it"
        if blockers:
            e = max(blockers, key=lambda x: x.toughest())
            if e in remote and (rule := self._lockdown(e, i)) is not None:
                self.used.add((e.player, rule, -self.round))  # once per battle round
            mine, theirs = u.toughest(), e.toughest()  # 2024: a model of each unit (its best)
            if ed.hatchway_rolloff_cap is not None:
                # 2023: "the Toughness characteristic of one of their models that is within 1" of
                # that Hatchway ... (to a maximum of +6 each)"
                cap = ed.hatchway_rolloff_cap
                mine = min(cap, max(v.toughest() for v in self.army_units(p) if any(self._near_hatchway(m, i)
                                                                          for m in v.models)))
                theirs = min(cap, e.toughest())
            # an effect: "in the resulting roll-off, you can re-roll your result" (a losing one, once)
            again_a = u.affected and effect_has(u, "reroll_hatch_rolloff")
            again_b = e.affected and effect_has(e, "reroll_hatch_rolloff")
            while True:
                # an effect: "add 1 to your result of the roll-off" (opening a closed Hatchway)
                bonus = effect_sum(u, "hatch_rolloff_mod") if opening else 0
                a = self.dice.d6(f"hatchway roll-off {p}") + mine + bonus
                b = self.dice.d6(f"hatchway roll-off {e.player}") + theirs
                if a < b and again_a:
                    again_a = False
                    a = self.dice.d6(f"hatchway roll-off {p} re-roll") + mine + bonus
                elif b < a and again_b:
                    again_b = False
                    b = self.dice.d6(f"hatchway roll-off {e.player} re-roll") + theirs
                if a != b:
                    break
            self.emit(ev.HatchRolloff(e="hatch_rolloff", unit=u.uid, against=e.uid, roll=a, enemy=b))
            if a < b:
                self.emit(ev.Hatch(e="hatch", unit=u.uid, hatchway=i + 1, name=h.name, open=not opening, prevented=True))
                return
        self.bf.set_open(i, opening)
        self.touch()
        self.emit(ev.Hatch(e="hatch", unit=u.uid, hatchway=i + 1, name=h.name, open=opening))
        if opening:
            u.opened = True  # "each time it opens a Hatchway, until the end of the turn"
            u.opened_hatch = (self.turn, i)
            if u.affected and effect_has(u, "jam_hatch"):  # Brutal Entrance
                self.hatch_jammed[i] = u.source("jam_hatch")
            yield from self._opened_by(u, i)
            yield from self._overwatch_window(u, "opens a Hatchway")

    def hatches_to_open(self, u: Unit, reach: float, seen: bool = True) -> list[int]:
        """The closed Hatchways within ``reach`` of (and, ``seen``, visible to) ``u`` (numbered from 1)."""
        return [h.index + 1 for h in self.map.layout.hatchways if not self.bf.is_open(h.index) and (
            self._near_hatch(u, h.index, reach) if seen else
            any(self.bf.distance_to_hatchway(m.base, h.index) <= reach + 1e-9 for m in u.models))]

    def open_hatch_now(self, u: Unit, e: Any, name: str) -> Generator[Decision, Action, None]:
        """A rule used at a moment: "select one closed Hatchway within 12\" of and visible to the
        bearer ... roll one D6: on a 2+ open that Hatchway and, until the end of the battle, that
        Hatchway cannot be closed" (no roll-off: the unit does not operate it)."""
        reach = e.open_hatch if e.open_hatch is not None else e.mortals_open_hatch
        options = self.hatches_to_open(u, reach, seen=e.open_hatch is not None)
        if not options:
            return
        act = yield Decision("freemove", u.player, {"unit": u.uid, "hatch": True, "rule": name, "options": options})
        if act.kind != "hatch":
            return
        i = int(act.arg or 0) - 1
        if e.open_roll > 1:  # "roll one D6: on a 2+ open that Hatchway"
            roll = self.dice.d6(f"{name} {u.uid}")
            self.emit(ev.HatchRoll(e="hatch_roll", unit=u.uid, hatchway=i + 1, rule=name, roll=roll, opened=roll >= e.open_roll))
            if roll < e.open_roll:
                return
        self.bf.set_open(i, True)
        self.touch()
        h = self.map.layout.hatchways[i]
        self.emit(ev.Hatch(e="hatch", unit=u.uid, hatchway=i + 1, name=h.name, open=True))
        if e.jam_hatch:
            self.hatch_jammed[i] = name

    def _lockdown(self, e: Unit, i: int) -> str | None:
        """The rule that lets ``e`` try to prevent the operating of Hatchway ``i`` from afar
        ("once per battle round, ... within 9" and visible to the bearer"), if usable now and
        ``e`` is not within 1" of it anyway."""
        for name, x in e.standing:
            if x.prevent_reach is not None and (e.player, name, -self.round) not in self.used and \
                    self._near_hatch(e, i, x.prevent_reach):
                return name
        return None

    def _opened_by(self, u: Unit, i: int) -> Generator[Decision, Action, None]:
        """Effects that happen each time a unit opens a Hatchway: its own (enemy units nearby
        on the other side take a Battle-shock test) and its enemies' (mortal wounds to it)."""
        door = self.map.layout.hatchways[i].door
        reach = effect_least(u, "hatch_shock") if u.affected else None
        if reach is not None:  # "each enemy unit within 6" of that Hatchway and wholly on the opposite side"
            for e in self.army_units(self.other(u.player)):
                if any(door.distance_to((m.x, m.y)) - m.r <= reach + 1e-9 for m in e.models) and \
                        self.bf.wholly_opposite_sides(u.bases, e.bases, i):
                    yield from self.battleshock_test(e, u.source("hatch_shock"))
        for v in self.army_units(self.other(u.player)):
            if not v.affected:
                continue
            for name, e in v.standing:
                if e.mortals_on == "enemy_opens_hatchway" and (e.mortals_within is None or any(
                        door.distance_to((m.x, m.y)) - m.r <= e.mortals_within + 1e-9 for m in v.models)):
                    self._mortals(v, u, name, e)  # "on a 3-4, 1 mortal wound; on a 5+, 2"
