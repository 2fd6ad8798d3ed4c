"""Where models stand: Engagement Range, distances, Unit Coherency and the engine's formations
(cached on the positions they depend on). What models can see is sight.py."""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING, Any

from bagm.engine.board.battlefield import ENGAGEMENT_RANGE, ENGAGEMENT_RANGE_HATCHWAY, IMPASSABLE_AREAS
from bagm.engine.board.geometry import Base, point_segment_distance, polyline_length
from bagm.engine.board.pathing import Disc, cut_at_discs
from bagm.engine.game import deployment
from bagm.engine.game import kept as kept_answers
from bagm.engine.rules.effects import moves_through
from bagm.engine.state.army import Unit
from bagm.engine.state.core import COHERENCY, GAP, HEX, HEX_RINGS, _along

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


# --- geometry helpers ----------------------------------------------------------------

def others_bases(g: GameInterface, *exclude: Unit) -> list[Base]:
    """The bases of every model on the battlefield but those of the ``exclude`` units."""
    ex = tuple(u.uid for u in exclude)

    def calc() -> list[Base]:
        out: list[Base] = []
        for uid, bases in _unit_bases(g).items():
            if uid not in ex:
                out += bases  # a whole unit at once: the same bases in the same order
        return out
    # kept until anything moves: a move planned step by step asks again at each step
    # (callers never change the list); built from each unit's bases, also kept until then
    return kept_answers._cached(g, ("others", ex), calc)


def _unit_bases(g: GameInterface) -> dict[str, list[Base]]:
    """The bases of each unit on the battlefield (in unit order), kept until anything moves."""
    def calc() -> dict[str, list[Base]]:
        out = {}
        kept = g._by_stamp
        for u in g.units.values():
            if u.where == "board":
                # a unit that has not moved since (the same stamp) has the same bases
                st = kept_answers.stamp(g, u)
                got = kept.get(("bases", u.uid))
                if got is None or got[0] != st:
                    got = kept[("bases", u.uid)] = (st, [m.base for m in u.models])
                out[u.uid] = got[1]
        return out
    return kept_answers._cached(g, "unit_bases", calc)


def bbox(g: GameInterface, u: Unit) -> tuple[float, float, float, float]:
    """The unit's bounding box (bases included), kept until anything moves."""
    # called tens of thousands of times a game: no closure, one look-up when kept
    # _now() inlined (a hot path)
    cache = g._cache if g._cache_version == g.version else kept_answers._now(g)
    boxes = cache.get("bboxes")
    if boxes is None:
        boxes = cache["bboxes"] = {}
    box = boxes.get(u.uid)
    if box is None:
        st = kept_answers.stamp(g, u)  # the unit may not have moved since last asked
        got = g._by_stamp.get(("bbox", u.uid))
        if got is not None and got[0] == st:
            box = boxes[u.uid] = got[1]
            return box
        xs = [m.x for m in u.models]
        ys = [m.y for m in u.models]
        r = u.radius
        box = boxes[u.uid] = (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r)
        g._by_stamp[("bbox", u.uid)] = (st, box)
    return box


def disc(g: GameInterface, u: Unit) -> Base:
    """A disc holding every base of the unit."""
    x0, y0, x1, y1 = bbox(g, u)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return Base(cx, cy, max(math.hypot(m.x - cx, m.y - cy) for m in u.models) + u.radius + 1e-6)


def apart(g: GameInterface, a: Unit, b: Unit, gap: float) -> bool:
    """The units' bounding boxes are more than ``gap`` inches apart (a quick proof)."""
    ax0, ay0, ax1, ay1 = bbox(g, a)
    bx0, by0, bx1, by1 = bbox(g, b)
    return bx0 - ax1 > gap or ax0 - bx1 > gap or by0 - ay1 > gap or ay0 - by1 > gap


def move_discs(g: GameInterface, u: Unit, kind: str, targets: tuple[str, ...] = ()) -> tuple[Disc, ...]:
    """What the centre of a moving model of ``u`` may not enter (Rules Adaptations
    "Impassable Terrain and Other Models": other models are impassable): every other unit's
    bases (grown by the mover's radius); on a Normal or Advance move also Engagement Range
    of every enemy model (Core Rules: "no model can be moved within Engagement Range of any
    enemy models"); on a Charge move Engagement Range of every enemy unit but the
    ``targets``. On a Fall Back move enemy models may be moved over (Core Rules, Desperate
    Escape Tests: the one exception the adaptation leaves). Engagement Range is 1" here; the
    2" through an open Hatchway is looked at along each route (:meth:`cut_at_hatchway_er`).
    Engagement Range is measured like any distance, around Walls and closed Hatchways
    (Rules Adaptations "Measurement": no path, "an infinite distance apart"): an enemy unit
    shut off from the mover by closed Hatchways (:meth:`shut_off`) keeps out only its bases."""
    def calc() -> tuple[Disc, ...]:
        r = u.radius
        out: list[Disc] = []
        through = u.affected and any(e.move_through for e in u.setting("move_through"))
        doors = [h.door for h in g.map.layout.hatchways if not g.bf.is_open(h.index)]
        for v in g.units.values():
            if v is u or v.where != "board":
                continue
            if through and moves_through(u, v, kind):
                continue  # an effect: "can move through other models as if they were not there"
            enemy = v.player != u.player
            if enemy and kind == "fallback":
                continue
            er = enemy and (kind in ("normal", "advance") or kind == "charge" and v.uid not in targets)
            if er and doors and shut_off(g, u, v, doors, r + ENGAGEMENT_RANGE):
                er = False  # (e.g. Jailbreak: a guard outside the closed Prison Cells' Hatchway)
            out += _unit_discs(g, v, r + (ENGAGEMENT_RANGE if er else 0.0))
        return tuple(out)
    return kept_answers._cached(g, ("discs", u.uid, kind, targets), calc)


def _unit_discs(g: GameInterface, v: Unit, grow: float) -> list[Disc]:
    """Each model of ``v`` as a disc grown by ``grow`` (a mover's radius, and Engagement
    Range): kept on ``v``'s stamp, as most units stand still while another moves (every
    move asks :meth:`move_discs` again, for the whole battlefield but the mover)."""
    key = ("discs", v.uid, grow)
    st = kept_answers.stamp(g, v)
    got = g._by_stamp.get(key)
    if got is None or got[0] != st:
        got = g._by_stamp[key] = (st, [(m.x, m.y, m.r + grow) for m in v.models])
    discs: list[Disc] = got[1]
    return discs


def move_path(g: GameInterface, base: Base, to: tuple[float, float], discs: tuple[Disc, ...] = (),
              within: float = math.inf) -> tuple[float, list[tuple[float, float]] | None]:
    """:meth:`Battlefield.move_path` (the shortest route of a base's centre around Walls,
    closed Hatches and ``discs``), kept across moves and games on its arguments and the
    Hatchways: a move's plan asks again for a model's route when it is tried strictly and
    then as far as each model gets, and games that start alike ask for the same routes."""
    key = ("move path", base.x, base.y, base.radius, to, discs, within, closed(g))
    got = g._geo_cache.get(key)
    if got is None:
        length, pts = g.bf.move_path(base, to, discs, within)
        got = (length, None if pts is None else tuple(pts))
        kept_answers._geo(g, key, lambda: got)
    return got[0], None if got[1] is None else list(got[1])


def shut_off(g: GameInterface, u: Unit, v: Unit, doors: list[Any], reach: float) -> bool:
    """Enemy unit ``v``'s Engagement Range (``reach`` beyond its bases) crosses a closed
    Hatchway, and no path leads from ``u`` to ``v`` around Walls and closed Hatchways: they
    are "an infinite distance apart", so no place ``u`` can reach is within it."""
    # whether v's Engagement Range reaches a closed Hatchway: kept while v stands still
    key = ("near door", v.uid, reach, closed(g))
    st = kept_answers.stamp(g, v)
    got = g._by_stamp.get(key)
    if got is None or got[0] != st:
        got = g._by_stamp[key] = (st, any(d.distance_to((m.x, m.y)) <= m.r + reach
                                             for d in doors for m in v.models))
    if not got[1]:
        return False
    a, b = u.models[0], v.models[0]
    return not g.bf.reachable((a.x, a.y), (b.x, b.y))


def _hatchway_er_models(g: GameInterface, u: Unit, kind: str, targets: tuple[str, ...] = ()) -> list[Base]:
    """The enemy models a move of ``u`` may come within Engagement Range of through an open
    Hatchway (2", Rules Adaptations "Engagement Range") where :meth:`move_discs` (1") does
    not keep it out: on a Normal or Advance move every enemy model, on a Charge move those
    of units not charged, and only those near an open Hatchway's opening (a line through it
    of 2" and both radii passes within that reach of the model); kept until anything moves."""
    if kind not in ("normal", "advance", "charge"):
        return []

    def calc() -> list[Base]:
        openings = [h.opening for h in g.map.layout.hatchways if g.bf.is_open(h.index)]
        if not openings:
            return []
        def near(v: Unit) -> list[Base]:
            return [m.base for m in v.models if any(point_segment_distance((m.x, m.y), a, b) <=
                                                    ENGAGEMENT_RANGE_HATCHWAY + m.r + u.radius for a, b in openings)]
        out: list[Base] = []
        for v in g.army_units(g.other(u.player)):
            if kind == "charge" and v.uid in targets:
                continue
            # kept across moves and games on where the unit stands and the Hatchways
            out += kept_answers._geo(g, ("hatch er", kept_answers.positions(v), closed(g), u.radius), partial(near, v))
        return out
    return kept_answers._cached(g, ("hatch er", u.uid, kind, targets), calc)


def cut_at_hatchway_er(g: GameInterface, u: Unit, pts: list[tuple[float, float]], kind: str,
                       targets: tuple[str, ...] = ()) -> list[tuple[float, float]]:
    """A model's route up to where it would first come within Engagement Range of an enemy
    model through an open Hatchway (Normal and Advance Moves: "no model can be moved within
    Engagement Range of any enemy models"; Charge Move: of units not charged), looked at
    every 0.1" along it; ``pts`` itself when nothing is in the way."""
    near = _hatchway_er_models(g, u, kind, targets)
    if not near or len(pts) < 2:
        return pts
    r = u.radius
    x0, y0 = min(p[0] for p in pts) - r - 3.0, min(p[1] for p in pts) - r - 3.0
    x1, y1 = max(p[0] for p in pts) + r + 3.0, max(p[1] for p in pts) + r + 3.0
    near = [e for e in near if x0 < e.x < x1 and y0 < e.y < y1]
    if not near:
        return pts
    out = [pts[0]]
    for a, b in zip(pts, pts[1:]):
        # only the models this leg passes within 2" of (and both radii) can be reached
        close = [e for e in near
                 if point_segment_distance((e.x, e.y), a, b) <= ENGAGEMENT_RANGE_HATCHWAY + r + e.radius + 1e-9]
        if not close:
            out.append(b)
            continue
        n = max(1, math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / 0.1))
        for k in range(1, n + 1):
            p = (a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
            base = Base(p[0], p[1], r)
            if any(math.hypot(p[0] - e.x, p[1] - e.y) - r - e.radius <= ENGAGEMENT_RANGE_HATCHWAY + 1e-9
                   and g.bf.engaged(base, e) for e in close):
                return out  # the last point looked at that was clear
            out.append(p)
    return pts


def paths_within(g: GameInterface, u: Unit, placed: list[tuple[float, float]], limit: float, kind: str,
                 discs: tuple[Disc, ...], targets: tuple[str, ...] = (), strict: bool = False
                 ) -> list[tuple[float, float]] | None:
    """Where each model of ``u`` ends a move whose formation is ``placed`` (in model order),
    each along its own path of at most ``limit`` inches (Normal, Advance and Fall Back Moves:
    "each model in that unit can move a distance in inches less than or equal to its Move
    characteristic"; Charge Move: the Charge roll): the model farthest from the formation
    first heads for the nearest free position, around Walls, closed Hatchways and ``discs``
    and out of Engagement Range through an open Hatchway, as the lead's path does; one that
    cannot get that far stops where its path runs out. None: a model cannot head there, or
    the models do not end on the battlefield, apart, out of Engagement Range (a Fall Back
    move) and in Unit Coherency, or (``strict``) one stops short."""
    models = u.models
    if len(placed) != len(models):
        return None
    # only the discs near the unit and its formation can be in any model's way
    xs = [m.x for m in models] + [p[0] for p in placed]
    ys = [m.y for m in models] + [p[1] for p in placed]
    x0, x1, y0, y1 = min(xs) - limit, max(xs) + limit, min(ys) - limit, max(ys) + limit
    discs = tuple(d for d in discs if x0 - d[2] < d[0] < x1 + d[2] and y0 - d[2] < d[1] < y1 + d[2])
    free = list(range(len(placed)))
    cx = sum(p[0] for p in placed) / len(placed)
    cy = sum(p[1] for p in placed) / len(placed)
    order = sorted(range(len(models)), key=lambda i: -math.hypot(models[i].x - cx, models[i].y - cy))
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(models)
    graph = g.bf.layout.move_layer(u.radius).graph(closed(g))
    r = u.radius
    others = others_bases(g, u)  # (a unit that moves through models may not end on one)
    short = False  # a model stops short of its position
    done: list[int] = []  # the models placed so far
    # a model that stops short ends out of Engagement Range (a Fall Back move: enemy models
    # are not kept out of its path)
    enemies = [b for v in g.army_units(g.other(u.player)) for b in v.bases] if kind == "fallback" else []
    for i in order:
        m = models[i]
        j = min(free, key=lambda k: math.hypot(placed[k][0] - m.x, placed[k][1] - m.y))
        free.remove(j)
        q = placed[j]
        if strict and math.hypot(q[0] - m.x, q[1] - m.y) > limit + 1e-6:
            return None  # a path is never shorter than the straight line
        # the shortest way around Walls alone, when it enters no disc (most do not: the
        # search around the discs is then spared); a path is never shorter than that
        walls = graph.path((m.x, m.y), q)
        if walls is not None and strict and polyline_length(walls) > limit + 1e-6:
            return None
        if walls is not None and cut_at_discs(walls, discs)[-1] == q:
            route = walls
        else:
            _, found = move_path(g, m.base, q, discs, limit)
            route = found if found is not None else [(m.x, m.y)]  # (cut short where blocked)
        route = cut_at_hatchway_er(g, u, route, kind, targets)
        length = polyline_length(route)
        if length <= limit + 1e-6 and route[-1] == q:
            out[i] = q
            done.append(i)
            continue
        if strict:
            return None
        # it stops short: as far along its path as it may go, clear of the models placed
        end = None
        d = min(length, limit)
        while d >= 0.0:
            x, y = _along(route, d)
            b = Base(x, y, r)
            if not any(math.hypot(x - out[k][0], y - out[k][1]) < 2 * r - 1e-6 for k in done) and \
                    not any(math.hypot(x - o.x, y - o.y) < r + o.radius - 1e-6 for o in others) and \
                    fits(g, b) and not any(
                    math.hypot(x - e.x, y - e.y) - r - e.radius <= ENGAGEMENT_RANGE_HATCHWAY + 1e-9
                    and g.bf.engaged(b, e) for e in enemies):
                end = (x, y)
                break
            d -= 0.25
        if end is None:
            return None
        out[i] = end
        done.append(i)
        short = True
    if short and (not coherent(g, out, r) or any(
            math.hypot(out[i][0] - out[k][0], out[i][1] - out[k][1]) < 2 * r - 1e-6
            for i in range(len(out)) for k in range(i))):
        return None
    return out


def translated(g: GameInterface, u: Unit, step: tuple[float, float], kind: str, discs: tuple[Disc, ...],
               targets: tuple[str, ...] = ()) -> list[tuple[float, float]] | None:
    """Every model of ``u`` moved by the same straight ``step`` (what a unit spread out
    along its way does when its formation at the lead model's end is out of its rear models'
    reach): each moves as far as the lead, the unit keeps its shape and so its Unit
    Coherency. None unless every step is clear of Walls, closed Hatchways and ``discs`` and
    of Engagement Range through an open Hatchway, and ends on the battlefield (out of
    Engagement Range for a Fall Back move)."""
    dx, dy = step
    graph = g.bf.layout.move_layer(u.radius).graph(closed(g))
    r = u.radius
    enemies = [b for v in g.army_units(g.other(u.player)) for b in v.bases] if kind == "fallback" else []
    others = others_bases(g, u)  # (a unit that moves through models may not end on one)
    out = []
    for m in u.models:
        q = (m.x + dx, m.y + dy)
        b = Base(q[0], q[1], r)
        route = [(m.x, m.y), q]
        if not fits(g, b) or not graph.clear(m.x, m.y, q[0], q[1]) or cut_at_discs(route, discs)[-1] != q \
                or cut_at_hatchway_er(g, u, route, kind, targets) is not route or any(
                    math.hypot(q[0] - o.x, q[1] - o.y) < r + o.radius - 1e-6 for o in others):
            return None
        if any(math.hypot(q[0] - e.x, q[1] - e.y) - r - e.radius <= ENGAGEMENT_RANGE_HATCHWAY + 1e-9
               and g.bf.engaged(b, e) for e in enemies):
            return None
        out.append(q)
    return out


def closed(g: GameInterface) -> int:
    return g.bf.closed_mask  # kept by the Battlefield itself until a Hatchway moves


def engaged(g: GameInterface, a: Unit, b: Unit) -> bool:
    """Units within Engagement Range (1", 2" through an open Hatchway)."""
    if a.player == b.player or not a.alive or not b.alive:
        return False
    if a.uid > b.uid:
        a, b = b, a
    if apart(g, a, b, 2.0):
        return False
    key = ("er", a.uid, b.uid)
    cache = kept_answers._now(g)
    v = cache.get(key)
    if v is None:
        v = cache[key] = _engaged(g, a, b)
    return v


def _engaged(g: GameInterface, a: Unit, b: Unit) -> bool:
    key = ("er", kept_answers.positions(a), kept_answers.positions(b), closed(g))

    def calc() -> bool:
        for m in a.models:
            for n in b.models:
                if math.hypot(m.x - n.x, m.y - n.y) - m.r - n.r <= 2.0 + 1e-9 and \
                        g.bf.engaged(m.base, n.base):
                    return True
        return False
    return kept_answers._geo(g, key, calc)


def model_engaged(g: GameInterface, a: Base, b: Base) -> bool:
    """:meth:`Battlefield.engaged` for two bases, kept across moves and games (keyed on both
    bases and the Hatchways): combats go on with models where they were."""
    return kept_answers._geo(g, ("me", a.x, a.y, a.radius, b.x, b.y, b.radius, closed(g)),
                     lambda: g.bf.engaged(a, b))


def engaged_with(g: GameInterface, u: Unit) -> list[Unit]:
    """The enemy units within Engagement Range of ``u`` (in army order)."""
    # _now() inlined (a hot path)
    cache = g._cache if g._cache_version == g.version else kept_answers._now(g)
    table = cache.get("ew")
    if table is None:
        table = cache["ew"] = _engagements(g)
    return table.get(u.uid, [])


def _engagements(g: GameInterface) -> dict[str, list[Unit]]:
    """Every unit's :meth:`engaged_with`, worked out at once for all pairs (most units are
    asked about after each change anyway); a unit off the battlefield is engaged with none."""
    a_units, b_units = g.army_units("A"), g.army_units("B")
    out: dict[str, list[Unit]] = {u.uid: [] for u in a_units + b_units}
    if not a_units or not b_units:
        return out
    shut = closed(g)
    kept = g._by_stamp
    box_of = partial(bbox, g)
    kept_answers.stamp(g, a_units[0])  # brings every stamp up to date: read directly below
    stamps = g._stamps
    boxes = [(b, box_of(b)) for b in b_units]
    for a in a_units:
        mine = out[a.uid]
        ax0, ay0, ax1, ay1 = box_of(a)
        sa = stamps[a.uid]
        # each list comes out in army order, as a per-unit scan gives it
        for b, (bx0, by0, bx1, by1) in boxes:
            # apart(a, b, 2.0) written out: the quick proof engaged() starts with
            if bx0 - ax1 > 2.0 or ax0 - bx1 > 2.0 or by0 - ay1 > 2.0 or ay0 - by1 > 2.0:
                continue
            # a pair neither of which has moved since (nor a Hatchway): the answer kept
            sb = stamps[b.uid]
            key = ("er", a.uid, b.uid)
            got = kept.get(key)
            if got is not None and got[0] == sa and got[1] == sb and got[2] == shut:
                v = got[3]
            else:
                v = engaged(g, a, b)
                kept[key] = (sa, sb, shut, v)
            if v:
                mine.append(b)
                out[b.uid].append(a)
    return out


def min_straight(g: GameInterface, a: Unit, b: Unit) -> float:
    """The shortest straight-line gap between the bases of two units."""
    if a.uid > b.uid:
        a, b = b, a
    key = ("ms", a.uid, b.uid)
    # _now() inlined (a hot path)
    cache = g._cache if g._cache_version == g.version else kept_answers._now(g)
    v = cache.get(key)
    if v is None:
        # neither unit has moved since last asked (their stamps): the answer kept
        sa, sb = kept_answers.stamp(g, a), kept_answers.stamp(g, b)
        got = g._by_stamp.get(key)
        if got is not None and got[0] == sa and got[1] == sb:
            v = got[2]
        else:
            v = _min_straight_now(a, b)
            g._by_stamp[key] = (sa, sb, v)
        cache[key] = v
    return v


def _min_straight_now(a: Unit, b: Unit) -> float:
    if not a.models or not b.models:
        return min(())  # no pairs: the ValueError min() gives
    hypot = math.hypot  # min() over the pairs, written out (a hot path)
    best = math.inf
    for m in a.models:
        mx, my, mr = m.x, m.y, m.r
        for n in b.models:
            d = hypot(mx - n.x, my - n.y) - mr - n.r
            if d < best:
                best = d
    return best


def unit_distance(g: GameInterface, a: Unit, b: Unit) -> float:
    """Shortest distance between two units, measured around Walls."""
    if a.uid > b.uid:
        a, b = b, a
    key = ("dist", a.uid, b.uid)
    cache = kept_answers._now(g)
    v = cache.get(key)
    if v is None:
        # neither unit has moved since last asked (nor a Hatchway): the answer kept
        sa, sb, shut = kept_answers.stamp(g, a), kept_answers.stamp(g, b), closed(g)
        got = g._by_stamp.get(key)
        if got is not None and got[0] == sa and got[1] == sb and got[2] == shut:
            v = got[3]
        else:
            v = kept_answers._geo(g, ("dist", kept_answers.positions(a), kept_answers.positions(b), shut),
                          lambda: _unit_distance_now(g, a, b))
            g._by_stamp[key] = (sa, sb, shut, v)
        cache[key] = v
    return v


def _unit_distance_now(g: GameInterface, a: Unit, b: Unit) -> float:
    pairs = sorted(((math.hypot(m.x - n.x, m.y - n.y) - m.r - n.r, m, n)
                    for m in a.models for n in b.models), key=lambda t: t[0])
    best = math.inf
    for s, m, n in pairs:  # a path is never shorter than the straight line
        if s >= best:
            break
        best = min(best, g.bf.distance(m.base, n.base))
    return best


def coherent(g: GameInterface, pts: list[tuple[float, float]], r: float) -> bool:
    n = len(pts)
    if n <= 1:
        return True
    need = 2 if n >= 7 else 1
    # count neighbours only until there are enough (the same tests, fewer of them)
    hypot, two_r, limit = math.hypot, 2 * r, COHERENCY + 1e-9
    for i, (px, py) in enumerate(pts):
        near = 0
        for j, (qx, qy) in enumerate(pts):
            if j != i and hypot(px - qx, py - qy) - two_r <= limit:
                near += 1
                if near >= need:
                    break
        if near < need:
            return False
    return connected(g, pts, r)


def coherency_groups(pts: list[tuple[float, float]], r: float) -> list[list[int]]:
    left = set(range(len(pts)))
    groups = []
    while left:
        start = min(left)
        left.discard(start)
        stack, g = [start], [start]
        while stack:
            i = stack.pop()
            for j in list(left):
                if math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]) - 2 * r <= COHERENCY + 1e-9:
                    left.discard(j)
                    stack.append(j)
                    g.append(j)
        groups.append(sorted(g))
    return groups


def connected(g: GameInterface, pts: list[tuple[float, float]], r: float) -> bool:
    """All the points form one group (:func:`coherency_groups`, the same test): one search from the
    first point, without building the groups."""
    n = len(pts)
    if n <= 1:
        return n == 1
    hypot, two_r, limit = math.hypot, 2 * r, COHERENCY + 1e-9
    seen = [False] * n
    seen[0] = True
    stack, count = [0], 1
    while stack:
        px, py = pts[stack.pop()]
        for j in range(n):
            if not seen[j]:
                qx, qy = pts[j]
                if hypot(px - qx, py - qy) - two_r <= limit:
                    seen[j] = True
                    count += 1
                    stack.append(j)
    return count == n


def formation(g: GameInterface, unit: Unit, anchor: tuple[float, float], n: int, *, zone: Any = None,
              avoid: list[Base] | None = None, enemy_gap: float | None = ENGAGEMENT_RANGE,
              ds_gap: float | None = None, within: tuple[Any, float] | None = None,
              barred: tuple[Any, ...] = (), discs: tuple[Disc, ...] = ()
              ) -> list[tuple[float, float]] | None:
    """Lay ``n`` models of ``unit`` out around ``anchor``: each fits on the battlefield,
    overlaps no other base, is reachable in a straight line from the anchor, keeps Unit
    Coherency, and (``enemy_gap``) is not within Engagement Range of an enemy model
    (``ds_gap``: more than that many inches from enemy models, in a straight line), and is
    within none of the ``barred`` areas; with ``discs`` (a move: :meth:`move_discs`), the
    straight line from the anchor to each model enters none of them (models spread out
    from where the lead model stopped, never through other models)."""
    r = unit.radius
    s = 2 * r + GAP
    ax, ay = anchor
    reach = HEX_RINGS * s + r + 2.0 + (ds_gap or 0.0)  # nothing farther matters
    others = [o for o in (others_bases(g, unit) if avoid is None else avoid)
              if abs(o.x - ax) < reach + o.radius and abs(o.y - ay) < reach + o.radius]
    enemies = [m.base for e in g.army_units(g.other(unit.player)) for m in e.models
               if abs(m.x - ax) < reach + m.r and abs(m.y - ay) < reach + m.r]
    if discs:  # only the discs near the anchor can meet a line from it (_formation_now's test)
        near = HEX_RINGS * s + r + 2.0
        discs = tuple([d for d in discs if abs(d[0] - ax) < near + d[2] and abs(d[1] - ay) < near + d[2]])
    # The same layout is asked for again and again (games start alike, a move steps back
    # 0.5" at a time): kept across moves and games, keyed on everything it depends on.
    key = ("form", r, anchor, n, tuple([(o.x, o.y, o.radius) for o in others]),
           tuple([(e.x, e.y, e.radius) for e in enemies]), closed(g), zone, enemy_gap is None,
           ds_gap, within, barred, discs)
    def calc() -> tuple[tuple[tuple[float, float], ...] | None]:  # a 1-tuple: None is an answer
        pts = _formation_now(g, r, anchor, n, others, enemies, zone, enemy_gap, ds_gap, within,
                                  barred, discs)
        return (None if pts is None else tuple(pts),)
    got = kept_answers._geo(g, key, calc)[0]
    return None if got is None else list(got)


def _formation_now(g: GameInterface, r: float, anchor: tuple[float, float], n: int, others: list[Base],
                   enemies: list[Base], zone: Any, enemy_gap: float | None, ds_gap: float | None,
                   within: tuple[Any, float] | None, barred: tuple[Any, ...] = (),
                   discs: tuple[Disc, ...] = ()) -> list[tuple[float, float]] | None:
    """:meth:`formation` worked out, given the other bases and enemy models within reach."""
    s = 2 * r + GAP
    ax, ay = anchor
    graph = g.bf.layout.move_layer(r).graph(closed(g))
    reach = HEX_RINGS * s + r + 2.0
    near_discs = [d for d in discs if abs(d[0] - ax) < reach + d[2] and abs(d[1] - ay) < reach + d[2]]
    chosen: list[tuple[float, float]] = []
    spare: list[tuple[float, float]] = []
    # hot loop: locals, and the other bases as tuples with the same thresholds as before
    hypot = math.hypot
    apart2, two_r = 2 * r + 1e-6, 2 * r
    others_t = [(o.x, o.y, r + o.radius + 1e-6) for o in others]
    for ox, oy in HEX:
        if len(chosen) >= n:
            break
        x, y = ax + ox * s, ay + oy * s
        if chosen:
            near = False
            clash = False
            for cx, cy in chosen:
                dd = hypot(x - cx, y - cy)
                if dd < apart2:
                    clash = True
                    break
                if not near and dd - two_r <= COHERENCY:
                    near = True
            if clash or not near:
                continue
        clash = False
        for o_x, o_y, gap in others_t:
            if hypot(x - o_x, y - o_y) < gap:
                clash = True
                break
        if clash:
            continue
        b = Base(x, y, r)
        if not fits(g, b):
            continue
        if enemy_gap is not None and any(
                math.hypot(x - e.x, y - e.y) - r - e.radius <= 2.0 + 1e-9 and g.bf.engaged(b, e)
                for e in enemies):
            continue
        if ds_gap is not None and any(
                math.hypot(x - e.x, y - e.y) - r - e.radius <= ds_gap for e in enemies):
            continue
        if within is not None and deployment.zone_gap(g, within[0], (x, y), r) > within[1] + 1e-9:
            continue
        if barred and any(a.within(b) for a in barred):
            continue
        if (ox or oy) and not graph.clear(ax, ay, x, y):
            continue
        if (ox or oy) and near_discs and cut_at_discs([(ax, ay), (x, y)], near_discs)[-1] != (x, y):
            continue
        if zone is not None and not zone.wholly_within(b):
            spare.append((x, y))
            continue
        chosen.append((x, y))
    if zone is not None and len(chosen) < n:
        # Deployment: as close to the centre of the Entry Zone as possible
        for p in spare:
            if len(chosen) >= n:
                break
            if any(math.hypot(p[0] - cx, p[1] - cy) - 2 * r <= COHERENCY for cx, cy in chosen) or not chosen:
                chosen.append(p)
    if len(chosen) < n or not coherent(g, chosen, r):
        return None
    return chosen


def fits(g: GameInterface, b: Base) -> bool:
    """:meth:`Battlefield.fits`, with a quick answer where no Wall is near the base."""
    lay = g.bf.layout
    quick = g._geo_cache.get("quick")
    if quick is None:
        shapes = list(lay.solid_rects) + [h.door for h in lay.hatchways]
        simple = not lay.gaps and not any(a.kind in IMPASSABLE_AREAS for a in lay.areas)
        # plain tuples: the overlap test below is a hot loop
        quick = g._geo_cache["quick"] = ([(q.x0, q.x1, q.y0, q.y1) for q in shapes], simple,
                                            lay.bounds)
    rects: list[tuple[float, float, float, float]] = quick[0]
    simple = quick[1]
    x, y, r = b.x, b.y, b.radius
    if simple and any(bd.rect.contains_base(b) for bd in lay.boards):
        xl, xh, yl, yh = x - r, x + r, y - r, y + r
        for x0, x1, y0, y1 in rects:
            if xh > x0 and xl < x1 and yh > y0 and yl < y1:
                break
        else:
            return True
    return lay.board_at((x, y)) is not None and g.bf.fits(b)


def set_positions(g: GameInterface, unit: Unit, pts: list[tuple[float, float]]) -> None:
    for m, (x, y) in zip(unit.models, pts):
        m.x, m.y = x, y
    kept_answers.touch(g, unit)
