"""The greedy bot: it moves toward objective
markers it does not hold (then toward the enemy), opens closed Hatchways that stand between a
unit and its goal, shoots and charges where the exact odds (:mod:`bagm.engine.attack.odds`) favour it,
uses Tactical Manoeuvres (Secure Site on held markers, Set Overwatch or Set to Defend for units
with nothing to shoot) and the Stratagems Insane Bravery, Command Re-roll (on a Charge or Advance
roll, and inside the attack sequence where a roll costs much, see
:meth:`GreedyBot._reroll_in_attack`), Counter-offensive and Battlefield Command.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from bagm.chance.dice import DiceExpr
from bagm.engine.attack.rules import AttackProfile, Conditions, Target
from bagm.engine.board.geometry import segments_cross
from bagm.engine.bots.objectives import CROWD, RULES, assign, marker_worth, on_marker_now
from bagm.engine.bots.uses import use_choice
from bagm.engine.game import charge, deployment, hatchways, kept, movement, positions, shooting
from bagm.engine.game.sequence import Game, Unit
from bagm.engine.rules import leaders
from bagm.engine.rules.effects import effect_has, effect_sum, holds_in
from bagm.engine.rules.missions.power_the_generators import ACCESS_ZONE, GENERATOR, TERMINAL, route_via
from bagm.engine.state.actions import Action
from bagm.engine.state.army import profile_group
from bagm.engine.state.core import Player

_ODDS: dict[Any, float] = {}
_CHEAP: dict[tuple[Any, ...], bool] = {}  # see GreedyBot._sees_cheap
TWO_D6 = DiceExpr(2, 6, 0).distribution


_CHARGE_CHANCE: dict[int, Fraction] = {}
JAILBREAK = 4  # the mission whose objectives the bot plays by jailbreak_goal
_REROLL, _PASS = Action("reroll"), Action("pass")
_IN_ATTACK = frozenset(("attacks", "hit", "wound", "save", "damage", "hazardous"))
# the few Conditions the bot asks about, built once (a frozen dataclass is slow to build;
# equal values hash alike, so the odds cache sees the same keys)
_PLAIN = Conditions()
_HALF_RANGE = {False: Conditions(half_range=False), True: Conditions(half_range=True)}
_CHARGED = {False: Conditions(charged=False), True: Conditions(charged=True)}


def charge_chance(need: float) -> Fraction:
    """P(2D6 >= need), exactly."""
    # a 2D6 total v >= need exactly when v >= ceil(need): one sum per whole threshold, kept
    k = 13 if not need <= 12 else 2 if need <= 2 else math.ceil(need)
    v = _CHARGE_CHANCE.get(k)
    if v is None:
        v = _CHARGE_CHANCE[k] = sum((p for v, p in TWO_D6.items() if v >= k), Fraction(0))
    return v


def door_near(box: tuple[float, float, float, float], models: list[Any], door: Any) -> bool:
    """Some model stands within 1" of the Hatchway's door (edge to edge, in a straight line).
    A door more than 1" beyond the unit's bounding box (``box``: its bases included) in x or
    in y is out of every model's reach: only the others are measured."""
    x0, y0, x1, y1 = box
    if door.x0 - x1 > 1.000001 or x0 - door.x1 > 1.000001 or door.y0 - y1 > 1.000001 or y0 - door.y1 > 1.000001:
        return False
    return min(door.distance_to((m.x, m.y)) - m.r for m in models) <= 1.0


class GreedyBot:
    def __init__(self, seed: int = 0) -> None:
        self._odds = _ODDS  # exact odds depend only on the profiles: shared by every game
        self._game: Game | None = None
        self._seen: dict[tuple[Any, ...], bool] = {}
        # per game, like _seen (a cache of pure answers): where a unit's way meets a closed
        # Hatchway (door_on_way)
        self._doors: dict[tuple[Any, ...], tuple[float, float] | None] = {}

    def _fresh(self, g: Game) -> None:
        """Forget what was kept of another game (stamps and plans are one game's)."""
        if self._game is not g:
            self._game, self._seen, self._doors = g, {}, {}

    # --- expected values with the exact odds ----------------------------------------------

    def expected(self, w: Any, n: int, t: Unit, cond: Conditions | None = None) -> float:
        """Expected points of ``t`` destroyed by ``n`` models attacking with ``w``."""
        from bagm.engine.attack.odds import expected_models_destroyed

        cond = cond or _PLAIN
        models = len(t.models)
        if not models:
            return 0.0
        tough = t.toughness()
        key = (w, n, cond, tough, t.Sv, t.W, t.invuln, models, t.keywords)
        v = self._odds.get(key)
        if v is None:
            target = Target(tough, t.Sv, t.W, min(models, 100), t.invuln, None, t.keywords)
            try:
                # only the mean is used: worked out alone (the same Fraction as the full odds give)
                v = float(expected_models_destroyed(AttackProfile(w, min(n, 100), cond), target))
            except (ValueError, ArithmeticError):  # a profile the exact odds cannot take
                v = 0.0
            self._odds[key] = v
        return v * t.points / max(1, t.starting)

    def melee_value(self, u: Unit, t: Unit, charged: bool = False) -> float:
        if not u.melee:
            return 0.0
        w = next((x for x in u.melee if not x.abilities.extra_attacks), u.melee[0])
        return self.expected(w, len(u.models), t, _CHARGED[charged])

    # --- goals ------------------------------------------------------------------------------

    def goal(self, g: Game, u: Unit) -> tuple[float, float]:
        """Where ``u`` heads now: its :meth:`target`; on a map of two levels (Power the
        Generators) the Access Zone it changes level from when the target is on the other; and
        when closed Hatchways shut the target off, the first of them on its way (:meth:`door_on_way`)."""
        target = self.target(g, u)
        if not g.map.layout.areas_of(ACCESS_ZONE):
            return self.door_on_way(g, u, target) or target
        return route_via(g, (u.models[0].x, u.models[0].y), target) or target

    def door_on_way(self, g: Game, u: Unit, target: tuple[float, float]) -> tuple[float, float] | None:
        """A target behind closed Hatchways (a Strongroom's marker): the point beside the first
        closed Hatchway on the shortest way to it were every Hatchway open, one the unit may
        operate, so that it goes there and opens it (:meth:`_hatch`). None: the target is within
        reach as the Hatchways stand, or no Hatchway opens the way."""
        me = (u.models[0].x, u.models[0].y)
        self._fresh(g)
        key = (me, target, positions.closed(g), u.player)
        if key in self._doors:
            return self._doors[key]
        out: tuple[float, float] | None = None
        bf = g.bf
        if positions.closed(g) and not bf.reachable(me, target) and (way := bf.path(me, target, 0)) is not None:
            lay = g.map.layout
            shut = [h for h in lay.hatchways if not bf.is_open(h.index)]
            for a, b in zip(way, way[1:]):
                h = next((h for h in shut if segments_cross(a, b, *h.opening)), None)
                if h is not None:
                    if g.mission.hatchway_reason(g, u, h.index) is None:
                        out = self.beside(h, me, max(m.r for m in u.models))
                    break
        self._doors[key] = out
        return out

    @staticmethod
    def far(g: Game, me: tuple[float, float], q: tuple[float, float]) -> float:
        """How far ``q`` is from ``me`` for choosing a target: a straight line, or on a map of two
        levels by way of the Access Zones when ``q`` is on the other level."""
        d = math.hypot(q[0] - me[0], q[1] - me[1])
        if not g.map.layout.areas_of(ACCESS_ZONE):
            return d
        via = route_via(g, me, q)
        if via is None:
            return d
        lay = g.map.layout
        return math.dist(me, via) + min(math.dist(a.centre, q) for a in lay.areas_of(ACCESS_ZONE)
                                        if lay.board_at(a.centre) is lay.board_at(q))

    def target(self, g: Game, u: Unit) -> tuple[float, float]:
        """The nearest objective marker the army does not hold, else an Airlock to open (Void
        the Ship), else the nearest enemy."""
        markers = g.map.layout.markers
        me = (u.models[0].x, u.models[0].y)
        mates = [v for v in g.army_units(u.player) if v is not u]
        free = []
        boxes = [(v, positions.bbox(g, v)) for v in mates]
        for i, m in enumerate(markers):
            if g.mission.removed(g, i):  # a marker a Mission Rule removed (Corrupt the Machine Spirit)
                continue
            # a model within 3" of the marker: only in a unit whose box (bases included) is
            held = any(x0 - 3.0 <= m.x <= x1 + 3.0 and y0 - 3.0 <= m.y <= y1 + 3.0 and
                       any(math.hypot(x.x - m.x, x.y - m.y) < 3.0 for x in v.models)
                       for v, (x0, y0, x1, y1) in boxes)
            if not held or g.control[i] != u.player:
                free.append(m)
        short = self.short_of(g, u.player)
        if short is not None:  # Power the Generators: the kind of marker the Attacker lacks first
            free = [m for m in free if m.label == short] or free
        worth = marker_worth(g, u.player)
        if worth is not None:  # a mission whose objectives say what each marker is worth
            free = [m for m in free if worth.get(markers.index(m), 0.0) > 0]
        if free:
            if worth is None:
                m = min(free, key=lambda m: self.far(g, me, (m.x, m.y)))
            else:  # the marker the army's plan gives the unit (see assign)
                got = assign(g, u.player, [markers.index(m) for m in free], worth).get(u.uid)
                m = markers[got] if got is not None else min(free, key=lambda m: self.far(g, me, (m.x, m.y)))
            return (m.x, m.y)
        if g.mission.number == JAILBREAK:
            jail = self.jailbreak_goal(g, u, me)
            if jail is not None:
                return jail
        doors = self.doors_to_open(g, u.player)
        if doors:  # Void the Ship: the Attacker opens the Airlocks; Jailbreak: the Prison Cells
            r = max(m.r for m in u.models)
            spread = worth is not None  # the objectives' advice: spread over the Airlocks
            return min((self.beside(g.map.layout.hatchways[i], me, r) for i in doors),
                       key=lambda q: math.hypot(q[0] - me[0], q[1] - me[1])
                       + (CROWD * self.nearer(g, u, mates, q) if spread else 0.0))
        enemies = g.army_units(g.other(u.player))
        if enemies:
            if g.map.layout.areas_of(ACCESS_ZONE):  # two levels: the nearest by way of the Access Zones
                e = min(enemies, key=lambda e: self.far(g, me, (e.models[0].x, e.models[0].y)))
            else:
                e = min(enemies, key=lambda e: positions.min_straight(g, u, e))
            return (e.models[0].x, e.models[0].y)
        return me

    @staticmethod
    def nearer(g: Game, u: Unit, mates: list[Unit], q: tuple[float, float]) -> int:
        """How many friendly units not in combat stand nearer to ``q`` than ``u`` (straight):
        they go there first, so ``u`` looks for another goal."""
        mine = math.dist((u.models[0].x, u.models[0].y), q)
        return sum(1 for v in mates if math.dist((v.models[0].x, v.models[0].y), q) < mine
                   and not positions.engaged_with(g, v))

    @staticmethod
    def short_of(g: Game, p: Player) -> str | None:
        """Power the Generators: each Generator the Attacker controls powers one Terminal they
        control (10VP each), so the Attacker heads first for the kind it holds fewer of."""
        if g.role.get(p) != "Attacker" or not g.map.layout.areas_of(ACCESS_ZONE):
            return None
        mine = [m.label for i, m in enumerate(g.map.layout.markers) if g.control[i] == p]
        gens, terms = mine.count(GENERATOR), mine.count(TERMINAL)
        return GENERATOR if gens < terms else TERMINAL if terms < gens else None

    @staticmethod
    def doors_to_open(g: Game, p: Player) -> list[int]:
        """The closed Hatchways the Attacker races to open: Void the Ship's Airlocks (20VP each
        open), Jailbreak's Prison Cells' Hatchway (the imprisoned unit's way out)."""
        if g.role.get(p) != "Attacker":
            return []
        return [h.index for h in g.map.layout.hatchways
                if h.label in ("Airlock", "Prison Cells' Hatchway") and not g.bf.is_open(h.index)]

    def jailbreak_goal(self, g: Game, u: Unit, me: tuple[float, float]) -> tuple[float, float] | None:
        """Jailbreak: the imprisoned unit heads for the Prison Cells' Hatchway, then once it is
        open for the Attacker's nearest Entry Zone (out of the cells, away from its guards); the
        Defender keeps a unit wholly within the Guard Entry Zone while the Hatchway is closed
        (the nearest unit goes there when none is), and once it is open goes for the imprisoned
        unit (kept in the cells, or destroyed, it scores the Defender 90VP or 60VP). None: as usual."""
        from bagm.engine.rules.missions.jailbreak import guard_zone, prison_hatch, prisoner

        pr = prisoner(g)
        opened = g.bf.is_open(prison_hatch(g))
        if u is pr:
            if not opened:
                return self.beside(g.map.layout.hatchways[prison_hatch(g)], me, max(m.r for m in u.models))
            home = g.map.layout.entry_zones_of("Attacker")
            return min((z.centre for z in home), key=lambda c: math.dist(c, me)) if home else None
        if g.role.get(u.player) != "Defender":
            return None  # the Attacker's others: the Hatchway (doors_to_open), then the enemy
        if opened:
            return (pr.models[0].x, pr.models[0].y) if pr is not None and pr.alive else None
        zone = guard_zone(g)
        guards = [v for v in g.army_units(u.player) if self.guarding(g, v)]
        if not guards:
            nearest = min(g.army_units(u.player), key=lambda v: math.dist(zone.centre, (v.models[0].x, v.models[0].y)))
            if nearest is u:
                return zone.centre
        # the nearest enemy but the imprisoned unit (out of reach behind the closed Hatchway)
        enemies = [e for e in g.army_units(g.other(u.player)) if e is not pr]
        if enemies:
            e = min(enemies, key=lambda e: positions.min_straight(g, u, e))
            return (e.models[0].x, e.models[0].y)
        return me

    @staticmethod
    def guarding(g: Game, u: Unit) -> bool:
        """Jailbreak: ``u`` is the Defender's unit wholly within the Guard Entry Zone while the
        Prison Cells' Hatchway is closed (the imprisoned unit cannot try it while one is)."""
        if g.mission.number != JAILBREAK or g.role.get(u.player) != "Defender":
            return False
        from bagm.engine.rules.missions.jailbreak import guard_zone, prison_hatch

        zone = guard_zone(g)
        return not g.bf.is_open(prison_hatch(g)) and all(zone.wholly_within(m.base) for m in u.models)

    @staticmethod
    def beside(h: Any, me: tuple[float, float], r: float = 0.4) -> tuple[float, float]:
        """Where a model of base radius ``r`` stands to operate a Hatchway (within 1" of it),
        on the side nearer ``me``: its base 0.35" from the Hatch (a Wall is 0.5" thick), so that
        a wide base fits there too."""
        cx, cy = h.centre
        d = r + 0.6
        sides = [(cx, cy - d), (cx, cy + d)] if h.horizontal else [(cx - d, cy), (cx + d, cy)]
        return min(sides, key=lambda q: math.hypot(q[0] - me[0], q[1] - me[1]))

    def on_marker(self, g: Game, u: Unit) -> bool:
        return on_marker_now(g, u)

    # --- decisions ----------------------------------------------------------------------------

    def __call__(self, g: Game) -> Action:
        d = g.decision
        if d.step in ("move", "hatch", "manoeuvre", "shoot", "charge"):
            # the bot proposes and the engine checks: no need to list every legal action
            return getattr(self, "_" + d.step)(g) or Action("done")
        if d.step == "reroll":  # its two actions are known: no list to build
            return self._reroll(g, [])
        if d.step == "command" and (g.phase != "command" or g.active != d.player):
            return _PASS  # Battlefield Command only in its own Command phase (see _command)
        legal = g.legal_actions()
        fn = getattr(self, "_" + d.step, None)
        if fn is not None:
            act = fn(g, legal)
            if act is not None:
                return act
        for a in legal:
            if a.kind in ("done", "pass"):
                return a
        return legal[0]

    def _use(self, g: Game, legal: list[Action]) -> Action | None:
        return use_choice(self, g, legal)  # bots/uses.py

    def _mark(self, g: Game, legal: list[Action]) -> Action:
        """An enemy unit to mark (Oath of Moment): the nearest to the army, the costliest first
        among those as near."""
        mine = g.army_units(g.decision.player)

        def near(a: Action) -> tuple[float, int]:
            t = g.unit(a.target)
            return (min((positions.min_straight(g, u, t) for u in mine), default=0.0) // 6, -t.points)
        return min(legal, key=near)

    def _freemove(self, g: Game, legal: list[Action]) -> Action | None:
        """A Normal move an effect allows (after shooting, after an enemy Fell Back): toward the
        unit's goal, unless it holds an objective marker."""
        from bagm.engine.game.sequence import _r

        u = g.unit(g.decision.info["unit"])
        if g.decision.info.get("rush"):  # toward the enemy unit that shot: a unit that fights, off a marker
            return _PASS if self.on_marker(g, u) or not u.melee else legal[0]
        if g.decision.info.get("options"):  # a Hatchway on the way of its move: one toward its goal
            return next((a for a in legal if a.kind == "hatch" and self._wants_hatch(g, u, int(a.arg or 0) - 1)),
                        _PASS)
        if g.decision.info.get("hatch"):  # "it can then attempt to operate a Hatchway": one it wants open
            a = self._hatch(g)
            return a if a in legal else _PASS
        if self.on_marker(g, u):
            return _PASS
        act = Action("move", u.uid, point=_r(self.goal(g, u)))
        return act if g.passes(act) else _PASS

    def _shock(self, g: Game, legal: list[Action]) -> Action:
        """An enemy unit for a Battle-shock test: the likeliest to fail (the highest Leadership
        to roll, Below Half-strength counting one more)."""
        return max(legal, key=lambda a: g.unit(a.target).Ld + g.unit(a.target).below_half())

    def _roles(self, g: Game, legal: list[Action]) -> Action:
        return Action("role", arg="attacker")

    def _deploy(self, g: Game, legal: list[Action]) -> Action:
        markers = g.map.layout.markers
        # each Entry Zone's distance to its nearest objective marker, worked out once
        near = [min((math.dist(z.centre, (m.x, m.y)) for m in markers), default=0.0)
                for z in deployment.entry_zones(g, g.decision.player)]

        def score(a: Action) -> float:
            u = g.unit(a.unit)
            if a.kind == "reserve":
                return -1e6
            return u.points * 10 - near[int(a.arg or 1) - 1]
        return max(legal, key=score)

    def _move(self, g: Game, legal: list[Action] | None = None) -> Action | None:
        """Toward the nearest objective marker the army does not hold (else the nearest enemy);
        hold on a marker; stay in combat; open a closed Hatchway on the way (Expert Breacher)."""
        from bagm.engine.game.sequence import _r

        p = g.decision.player
        # Expert Breacher: only at the start of the Move Units step (before any unit has moved)
        if movement.move_units_starting(g, p) and any(movement.breacher(g, u) for u in g.army_units(p)):
            for a in hatchways.hatch_options(g, p, breachers=True):
                if self._wants_hatch(g, g.unit(a.unit), int(a.arg or 1) - 1) and g.passes(a):
                    return a
        for u in g.army_units(p):
            if u.moved is not None:
                continue
            if positions.engaged_with(g, u):
                if g.mission.number == JAILBREAK and self._escaping(g, u):  # out of the cells: away
                    a = Action("fallback", u.uid, point=_r(self.goal(g, u)))
                    if g.passes(a):
                        return a
                return Action("hold", u.uid)
            if self.on_marker(g, u) or self.guarding(g, u):
                return Action("hold", u.uid)
            goal = self.goal(g, u)
            far = math.hypot(u.models[0].x - goal[0], u.models[0].y - goal[1])
            if g.mission.number == JAILBREAK and min(math.dist((m.x, m.y), goal) for m in u.models) < 1.0:
                return Action("hold", u.uid)  # there already (the imprisoned unit at its Hatchway)
            rush = not u.ranged or bool(self.doors_to_open(g, p))  # Airlocks, Prison Cells: a race against the clock
            if marker_worth(g, p) is not None:  # objectives to race for: Advance while no enemy is
                # near, else move and keep the charge (or the shots) for the enemy in the way
                rush = all(positions.min_straight(g, u, e) > u.move() + 12 for e in g.army_units(g.other(p)))
            kind = "advance" if (rush and far > u.move() + 1) else "move"
            return Action(kind, u.uid, point=_r(goal))
        return None

    @staticmethod
    def _escaping(g: Game, u: Unit) -> bool:
        """Jailbreak: ``u`` is the imprisoned unit, out of the Prison Cells (Escape scores the
        Attacker 90VP out of Engagement Range of the Defender's army, 60VP within it)."""
        from bagm.engine.rules.missions.jailbreak import cells, prisoner

        return u is prisoner(g) and not any(cells(g).within(m.base) for m in u.models)

    def _opening(self, g: Game, legal: list[Action]) -> Action | None:
        """A move an effect allows at the start of the first battle round: toward the unit's
        goal, as in the Movement phase."""
        from bagm.engine.game.sequence import _r

        marks = [a for a in legal if a.kind == "mark"]
        if marks:  # an enemy unit for the battle: the costliest
            return max(marks, key=lambda a: g.unit(a.target).points)
        for a in legal:
            if a.kind == "move":
                act = Action("move", a.unit, point=_r(self.goal(g, g.unit(a.unit))))
                return act if g.passes(act) else a
        return None

    def _wants_hatch(self, g: Game, u: Unit, i: int) -> bool:
        """A closed Hatchway between the unit and where it heads (its goal, or the target its
        goal leads to through that Hatchway)."""
        if g.bf.is_open(i):
            return False
        goal = self.goal(g, u)
        try:
            if g.bf.opposite_sides(u.models[0].base, goal, i):
                return True
            target = self.target(g, u)
            return target != goal and g.bf.opposite_sides(u.models[0].base, target, i)
        except ValueError:
            return False

    def _hatch(self, g: Game, legal: list[Action] | None = None) -> Action | None:
        for u in g.army_units(g.decision.player):
            if u.hatch_turn == g.turn:
                continue
            box = positions.bbox(g, u)
            for h in g.map.layout.hatchways:
                if g.bf.is_open(h.index) or not door_near(box, u.models, h.door):
                    continue
                if h.index in self.doors_to_open(g, u.player) or self._wants_hatch(g, u, h.index):
                    a = Action("hatch", u.uid, arg=str(h.index + 1))
                    if g.passes(a):
                        return a
        return None

    def _reinforce(self, g: Game, legal: list[Action]) -> Action | None:
        arrive = [a for a in legal if a.kind == "arrive"]
        if arrive:
            return arrive[0]
        ds = [a for a in legal if a.kind == "deepstrike"]
        if ds:
            p = g.decision.player
            free = [(m.x, m.y) for i, m in enumerate(g.map.layout.markers) if g.control[i] != p]
            if free:
                return min(ds, key=lambda a: min(math.dist(a.point, f) for f in free))  # type: ignore[arg-type]
            return ds[0]
        return None

    def _sees_cheap(self, g: Game, u: Unit, e: Unit, reach: float) -> bool:
        """A cheap guess (for the bot only): some pair of models within ``reach`` with a free
        line between their centres."""
        if positions.apart(g, u, e, reach + 1e-6):  # bounding boxes farther apart than reach: no pair is within it
            return False
        self._fresh(g)  # stamps are numbers of one game
        # kept while neither unit moves (their stamps); across games, on where both stand
        key = (u.uid, kept.stamp(g, u), e.uid, kept.stamp(g, e), positions.closed(g), reach)
        got = self._seen.get(key)
        if got is None:
            where = (kept.positions(u), kept.positions(e), positions.closed(g), reach)
            got = _CHEAP.get(where)
            if got is None:
                if len(_CHEAP) > 100_000:
                    _CHEAP.clear()
                clear = g.bf.graph(positions.closed(g)).clear
                got = _CHEAP[where] = any(
                    math.hypot(m.x - n.x, m.y - n.y) - m.r - n.r <= reach and clear(m.x, m.y, n.x, n.y)
                    for m in u.models for n in e.models)
            self._seen[key] = got
        return got

    def _first_legal(self, g: Game, ranked: list[tuple[float, Action]], tries: int = 4) -> Action | None:
        ranked.sort(key=lambda x: -x[0])
        return next((a for _, a in ranked[:tries] if g.passes(a)), None)

    def _manoeuvre(self, g: Game, legal: list[Action] | None = None) -> Action | None:
        """The first unit's Tactical Manoeuvre worth performing, among those the game accepts (a
        unit that Advanced may only Set Overwatch, with Void Combat Discipline)."""
        for act in self._manoeuvres(g):
            if legal is not None and act in legal or legal is None and g.passes(act):
                return act
        return None

    def _manoeuvres(self, g: Game) -> Iterator[Action]:
        p = g.decision.player
        enemies = g.army_units(g.other(p))
        for u in g.army_units(p):
            if shooting.manoeuvre_reason(g, u) is not None:
                continue
            if "burners" in g.mission.manoeuvres(g, u) and self._burners_pay(g, p):
                yield Action("manoeuvre", u.uid, target="burners")
            if "download" in g.mission.manoeuvres(g, u):  # Hull Breach: 15VP next Command phase
                yield Action("manoeuvre", u.uid, target="download")
            longest = u.longest_range
            # only whether there is one matters: any() stops at the first (the guess is pure)
            targets = any(self._sees_cheap(g, u, e, longest) for e in enemies)
            if not targets:  # Secure Site: BATTLELINE units, or any unit a Mission Rule allows
                held = [i for i in shooting.secure_markers(g, u) if g.mission.secure_reason(g, u, i) is None]
                if held:
                    yield Action("manoeuvre", u.uid, target="secure", arg=str(held[0] + 1))
            if targets:
                continue
            if g.mission.core_manoeuvre_reason(g, u, "overwatch") is not None:
                continue  # a Mission Rule bars Set Overwatch and Set to Defend now
            if longest >= 12:
                # no pair within `longest` had a free line, so none within 12" has: it cannot charge either
                yield Action("manoeuvre", u.uid, target="overwatch")
            if u.melee and any(self._sees_cheap(g, u, e, 12.0) for e in enemies):
                continue  # it may charge
            if longest >= 12:
                yield Action("manoeuvre", u.uid, target="overwatch")
            if u.melee and any(positions.min_straight(g, u, e) <= 18 for e in enemies):
                yield Action("manoeuvre", u.uid, target="defend")

    @staticmethod
    def _burners_pay(g: Game, p: Player) -> bool:
        """The Furnace: Turn on the Burners when the mortal wounds expected on enemy units in the
        Furnace (half a wound per model, at most 3 a unit) outweigh those on our own there."""
        furnace = g.map.layout.areas_of("Furnace")[0]

        def burnt(q: Player) -> float:
            return sum(min(3.0, len(u.models) / 2) * u.points / max(1, u.starting * u.W)
                       for u in g.army_units(q) if any(furnace.within(m.base) for m in u.models))
        return burnt(g.other(p)) > burnt(p)

    def _shoot(self, g: Game, legal: list[Action] | None = None) -> Action | None:
        p = g.decision.player
        ranked = []
        for u in g.army_units(p):
            if shooting.shoot_reason(g, u) is not None:
                continue
            engaged = bool(positions.engaged_with(g, u))
            # each weapon with its range and the weapon its profile belongs to, worked out once
            ws = [(w, w.range or 0, profile_group(w.name)) for w in shooting.usable_weapons(g, u, engaged)]
            several = len({k for _, _, k in ws}) < len(ws)  # a weapon with profiles
            best: dict[str, tuple[float, str, str]] = {}  # weapon: (value, target, profile) at its best
            count = len(u.models)
            for e in g.army_units(g.other(p)):
                d = positions.min_straight(g, u, e)
                top: dict[str, tuple[float, str]] = {}  # weapon: (value, profile) against e
                for w, rng, k in ws:
                    if rng >= d:
                        x = self.expected(w, count, e, _HALF_RANGE[d <= rng / 2])
                        if x > top.get(k, (-1.0, ""))[0]:
                            top[k] = (x, w.name)
                        if x > best.get(k, (0.0, "", ""))[0]:
                            best[k] = (x, e.uid, w.name)
                v = sum(x for x, _ in top.values())
                if v > 0:  # weapons with profiles: the best profile is named
                    names = tuple(sorted(n for _, n in top.values())) if several else ()
                    ranked.append((v, Action("shoot", u.uid, target=e.uid, weapons=names)))
            targets = sorted({t for _, t, _ in best.values()})
            if len(targets) > 1:  # split fire: each weapon at the target it does most against
                groups = [(t, tuple(sorted(n for _, x, n in best.values() if x == t))) for t in targets]
                ranked.append((sum(x for x, _, _ in best.values()) + 1e-9, Action(
                    "shoot", u.uid, target=groups[0][0], weapons=groups[0][1], also=tuple(groups[1:]))))
        return self._first_legal(g, ranked)

    def _charge(self, g: Game, legal: list[Action] | None = None) -> Action | None:
        p = g.decision.player
        ranked = []
        for u in g.army_units(p):
            if charge.charge_reason(g, u) is not None or not u.melee:
                continue
            for t in g.army_units(g.other(p)):
                if positions.min_straight(g, u, t) > 12:
                    continue
                need = charge.charge_needed(g, u, t)
                if u.affected:  # an effect: "add 1 to Charge rolls"
                    need -= effect_sum(u, "charge_mod", holds_in(g))
                chance = float(charge_chance(need))
                if u.affected and effect_has(u, "reroll_charge"):  # an effect's free re-roll
                    chance = 1 - (1 - chance) ** 2
                if chance < 0.4:
                    continue
                ranked.append((chance * self.melee_value(u, t, charged=True), Action("charge", u.uid, target=t.uid)))
        return self._first_legal(g, ranked, 3)

    def _reroll(self, g: Game, legal: list[Action]) -> Action:
        info = g.decision.info
        what = info.get("what")
        if what == "wound" and info.get("by"):  # a free re-roll of a Wound roll the player chooses
            return _REROLL if self._free_wound_reroll(info) else _PASS
        if info.get("free"):  # a Leader ability's re-roll: a failed charge, a low Advance
            return _REROLL if what != "advance" or info["roll"] <= 3 else _PASS
        if what == "advance":
            return _REROLL if info["roll"] <= 2 else _PASS
        if what in _IN_ATTACK:
            return _REROLL if self._reroll_in_attack(g, info) else _PASS
        if what == "desperate escape":  # a failed test, while 2CP or more are left
            return _REROLL if g.cp[g.decision.player] >= 2 else _PASS
        need = info.get("needed", 99)
        return _REROLL if charge_chance(need) >= Fraction(1, 3) else _PASS

    @staticmethod
    def _free_wound_reroll(info: dict[str, Any]) -> bool:
        """Close-Quarters Killer (any Wound roll may be re-rolled): a failed one always (it cannot
        get worse). A successful one only to seek a Critical Wound of a Devastating Wounds weapon
        (Anti makes more faces critical), when that gains more than it risks: the success kept
        gets through the save on 6 - s of 6 faces; a re-roll is a Critical Wound (mortal wounds,
        no save) on c faces and fails on f, so it is worth it when c * s > f * (6 - s). Without
        Devastating Wounds a Critical Wound is worth no more than a success: never re-rolled."""
        if info["outcome"] == "fail":
            return True
        if not info.get("devastating"):
            return False
        c, f, s = info["critical_faces"], info["fail_faces"], info["save_faces"]
        return bool(c * s > f * (6 - s))

    @staticmethod
    def _reroll_in_attack(g: Game, info: dict[str, Any]) -> bool:
        """Worth 1CP inside the attack sequence: a roll that costs much (a failed save against
        Damage 2 or more or on a CHARACTER, a failed Hit or Wound roll of a weapon with Damage 2
        or more, a low random Damage that leaves the model alive, few random attacks, a failed
        Hazardous test of a CHARACTER); 1CP is kept in reserve except to save a CHARACTER."""
        what, roll, dmg = info["what"], info["roll"], info["damage"]
        cp = g.cp[g.decision.player]
        if what in ("save", "hazardous") and g.unit(info["unit"]).is_character:
            return True
        if cp < 2:
            return False
        if what in ("hit", "wound", "save"):
            return dmg >= 2
        if what == "damage":
            return roll < dmg and roll < info.get("wounds_left", 0)
        if what == "attacks":
            return roll <= 2 and dmg >= 2
        return False

    def _fight(self, g: Game, legal: list[Action]) -> Action:
        def val(a: Action) -> float:
            t = g.units.get(a.target or "")
            return self.melee_value(g.unit(a.unit), t) if t is not None and t.alive else -1.0
        return max(legal, key=val)

    def _bravery(self, g: Game, legal: list[Action]) -> Action:
        u = g.unit(g.decision.info["unit"])
        return legal[0] if self.on_marker(g, u) or u.points >= 100 else Action("pass")

    def _command(self, g: Game, legal: list[Action]) -> Action:
        """Battlefield Command in its own Command phase (the ability then lasts the battle round),
        when it is free (Peerless Leader) or leaves 1CP; on the Bodyguard worth most points."""
        p = g.decision.player
        opts = [a for a in legal if a.kind == "command"]
        if not opts or g.phase != "command" or g.active != p:
            return Action("pass")
        free = [a for a in opts if leaders.peerless_free(g, g.unit(a.unit))]
        if not free and g.cp[p] < 2:
            return Action("pass")
        return max(free or opts, key=lambda a: g.unit(a.target).points)

    def _rule(self, g: Game, legal: list[Action]) -> Action:
        """A Mission Rule the mission offers (see :data:`RULES`); declined when it has no advice."""
        advice = RULES.get(str(g.decision.info.get("rule")))
        choice = advice(self, g, g.decision.player, legal) if advice is not None else None
        return choice if choice is not None else _PASS

    def _counter(self, g: Game, legal: list[Action]) -> Action:
        return legal[0]

    def _overwatch(self, g: Game, legal: list[Action]) -> Action:
        return legal[0]
