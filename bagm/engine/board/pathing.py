"""Shortest paths around Walls and closed Hatchways ("Measurement", "Impassable Terrain").

A :class:`Layer` is the blocking geometry seen by one kind of traveller: a tape measure
(radius 0: the shapes as they are) or a base of some radius moving (the shapes grown by that
radius). Its visibility graph joins the outward corners of the shapes that see each other;
each edge remembers which Hatches lie across it, so the graph for any set of closed Hatchways is
a filter of one precomputed list. Shortest distances from each corner are computed when first needed
(Dijkstra) and kept with the graph of that set of closed Hatchways, and a query from point p to point q then costs
the straight line (if clear) or, otherwise, the corners seen from p and from q.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bagm.engine.board.geometry import EPS, INF, Block, Point, Rect, dist

_STATE_CACHE = 64  # graphs kept per layer (one per set of closed Hatchways)
_POINT_CACHE = 4096  # points whose seen corners and distances are kept per graph


@dataclass(frozen=True, slots=True)
class Portal:
    """A way through an open Hatchway for a base too wide for the opening ("Open Hatchways":
    models move through without hindrance): two points either side of the Hatch, joined by a
    straight step that ignores the grown frame."""

    a: Point
    b: Point
    door: int


class Layer:
    """Blocking shapes, their corners and the door-aware visibility graph between corners."""

    def __init__(self, static: list[Block], doors: Sequence[Block | None],
                 bounds: tuple[float, float, float, float], portals: Sequence[Portal] = ()) -> None:
        self.static = static
        self.doors = doors
        self.bounds = bounds
        self.portals = list(portals)
        self._build_vertices()
        self._build_pairs()
        # the boxes of the static shapes (bit 1: any one hides), then of the Hatches with each
        # one's bit in a mask of closed Hatches, as plain tuples (x0, y0, x1, y1, shape, bit):
        # seen_masked's loops (:func:`_across`)
        self._boxes = ([(o.x0, o.y0, o.x1, o.y1, o, 1) for o in static],
                       [(o.x0, o.y0, o.x1, o.y1, o, 1 << k) for k, o in enumerate(doors) if o is not None])
        self._states: OrderedDict[int, _Graph] = OrderedDict()
        self._seen_masked: OrderedDict[Point, list[tuple[int, float, int]]] = OrderedDict()

    # --- construction -------------------------------------------------------------------

    def _build_vertices(self) -> None:
        bx0, by0, bx1, by1 = self.bounds
        verts: list[Point] = []
        nbrs: list[tuple[Point, Point] | None] = []
        for i, b in enumerate(self.static):
            cs = b.corners()
            n = len(cs)
            for k, c in enumerate(cs):
                if not (bx0 + EPS < c[0] < bx1 - EPS and by0 + EPS < c[1] < by1 - EPS):
                    continue
                if any(j != i and o.touches(c) for j, o in enumerate(self.static)):
                    continue
                verts.append(c)
                nbrs.append((cs[k - 1], cs[(k + 1) % n]))
        self.portal_index: list[tuple[int, int]] = []
        for p in self.portals:
            ia = len(verts)
            verts += [p.a, p.b]
            nbrs += [None, None]
            self.portal_index.append((ia, ia + 1))
        self.vertices = verts
        self.neighbours = nbrs
        # each corner with the sides to its neighbours, as :meth:`tangent` subtracts them (a
        # portal's point: zeros, always tangent), for the loop over every corner in seen_masked
        self._sides = [(i, vx, vy, 0.0, 0.0, 0.0, 0.0) if nb is None else
                       (i, vx, vy, nb[0][0] - vx, nb[0][1] - vy, nb[1][0] - vx, nb[1][1] - vy)
                       for i, ((vx, vy), nb) in enumerate(zip(verts, nbrs))]

    def tangent(self, i: int, p: Point) -> bool:
        """A path from ``p`` can bend at corner ``i``: the line from p to it does not cut the
        shape the corner belongs to (both neighbouring corners lie on one side)."""
        nb = self.neighbours[i]
        if nb is None:
            return True
        vx, vy = self.vertices[i]
        dx, dy = vx - p[0], vy - p[1]
        (ax, ay), (bx, by) = nb
        s1 = dx * (ay - vy) - dy * (ax - vx)
        s2 = dx * (by - vy) - dy * (bx - vx)
        return s1 * s2 >= -1e-12

    def static_clear(self, ax: float, ay: float, bx: float, by: float) -> bool:
        lox, hix = (ax, bx) if ax < bx else (bx, ax)
        loy, hiy = (ay, by) if ay < by else (by, ay)
        for o in self.static:
            if o.x1 <= lox or o.x0 >= hix or o.y1 <= loy or o.y0 >= hiy:
                continue
            if o.blocks(ax, ay, bx, by):
                return False
        return True

    def door_mask(self, ax: float, ay: float, bx: float, by: float) -> int:
        mask = 0
        for k, o in enumerate(self.doors):
            if o is not None and o.blocks(ax, ay, bx, by):
                mask |= 1 << k
        return mask

    def _build_pairs(self) -> None:
        """Every pair of corners that may see each other, with the Hatches across the line."""
        vs = self.vertices
        pairs: list[tuple[int, int, float, int]] = []
        for i in range(len(vs)):
            ax, ay = vs[i]
            for j in range(i + 1, len(vs)):
                if not (self.tangent(i, vs[j]) and self.tangent(j, vs[i])):
                    continue
                bx, by = vs[j]
                if not self.static_clear(ax, ay, bx, by):
                    continue
                pairs.append((i, j, math.hypot(bx - ax, by - ay), self.door_mask(ax, ay, bx, by)))
        for k, (ia, ib) in enumerate(self.portal_index):
            p = self.portals[k]
            pairs.append((ia, ib, dist(p.a, p.b), -1 - p.door))  # negative: needs that door open
        self.pairs = pairs

    def seen_masked(self, p: Point) -> list[tuple[int, float, int]]:
        """The corners a path from ``p`` can go to first were every Hatch open, with their
        distances and the mask of the Hatches that cut the line when closed: the corners seen
        under any set of closed Hatches are those whose mask it does not meet (kept per point,
        as games with many Hatchway states otherwise ask again for each new state).

        The tests of :meth:`tangent` and :meth:`_Graph.clear`, split into the static shapes and
        each Hatch, written out over every corner: a shape is tried for a line from ``p`` only
        where its bounding box reaches past ``p`` on the line's side in x and in y (the
        quarter the corner lies in) and short of the corner (the boxes ``clear`` passes over
        first), so the same shapes are tried and the same corners come out
        (``tests/reference/pathing.py``)."""
        out = self._seen_masked.get(p)
        if out is not None:
            return out
        px, py = p
        statics, doors = _quarters(self._boxes[0], px, py), _quarters(self._boxes[1], px, py)
        hypot = math.hypot
        out = []
        for i, vx, vy, ax, ay, bx, by in self._sides:
            dx, dy = vx - px, vy - py
            if not (dx * ay - dy * ax) * (dx * by - dy * bx) >= -1e-12:
                continue  # not tangent: the line cuts the corner's own shape
            if _across(statics, px, py, vx, vy, True):
                continue
            out.append((i, hypot(vx - px, vy - py), _across(doors, px, py, vx, vy, False)))
        self._seen_masked[p] = out
        if len(self._seen_masked) > _POINT_CACHE:
            self._seen_masked.popitem(last=False)
        return out

    # --- per state ----------------------------------------------------------------------

    def graph(self, closed: int) -> _Graph:
        """The graph with the Hatches in bit mask ``closed`` shut."""
        g = self._states.get(closed)
        if g is None:
            g = _Graph(self, closed)
            self._states[closed] = g
            if len(self._states) > _STATE_CACHE:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(closed)
        return g


Quarters = tuple[list[tuple[float, float, Block, int]], ...]
"""The boxes (x0, y0, x1, y1, shape, bit) that reach past a point eastward and southward,
eastward and northward, westward and southward, westward and northward (y grows down), each
with the two sides of its box that must lie short of a corner in that quarter for a line from
the point to the corner to meet it: (x, y, shape, bit)."""


def _quarters(boxes: list[tuple[float, float, float, float, Block, int]], px: float, py: float) -> Quarters:
    """The boxes a line from (px, py) to a corner in each quarter around it may meet: the
    boxes :meth:`_Graph.clear` does not pass over, for any corner there."""
    east = [b for b in boxes if b[2] > px]
    west = [b for b in boxes if b[0] < px]
    return ([(x0, y0, o, bit) for x0, y0, _, y1, o, bit in east if y1 > py],
            [(x0, y1, o, bit) for x0, y0, _, y1, o, bit in east if y0 < py],
            [(x1, y0, o, bit) for _, y0, x1, y1, o, bit in west if y1 > py],
            [(x1, y1, o, bit) for _, y0, x1, y1, o, bit in west if y0 < py])


def _across(quarters: Quarters, px: float, py: float, vx: float, vy: float, first: bool) -> int:
    """The bits of the shapes of ``quarters`` that lie across the line from (px, py) to
    (vx, vy), or'd together (``first``: the first one's only, as soon as it is found; a static
    shape's bit is 1): the test of :meth:`_Graph.clear`, over the boxes of the quarter the
    corner lies in."""
    es, en, ws, wn = quarters
    mask = 0
    if vx >= px:
        if vy >= py:
            for x, y, o, bit in es:
                if x < vx and y < vy and o.blocks(px, py, vx, vy):
                    mask |= bit
                    if first:
                        return mask
        else:
            for x, y, o, bit in en:
                if x < vx and y > vy and o.blocks(px, py, vx, vy):
                    mask |= bit
                    if first:
                        return mask
    elif vy >= py:
        for x, y, o, bit in ws:
            if x > vx and y < vy and o.blocks(px, py, vx, vy):
                mask |= bit
                if first:
                    return mask
    else:
        for x, y, o, bit in wn:
            if x > vx and y > vy and o.blocks(px, py, vx, vy):
                mask |= bit
                if first:
                    return mask
    return mask


class _Graph:
    """The visibility graph of a layer with a given set of closed Hatches, its shortest
    distances (one Dijkstra row per corner, computed when first needed), and caches of the
    corners each queried point sees."""

    def __init__(self, layer: Layer, closed: int) -> None:
        self.layer = layer
        self.closed = closed
        self.blocks = layer.static + [d for k, d in enumerate(layer.doors)
                                      if d is not None and closed >> k & 1]
        # the bounding boxes as plain tuples: the quick rejection in clear() is a hot loop
        self._boxes = sorted(((o.x0, o.y0, o.x1, o.y1, o) for o in self.blocks), key=lambda b: b[0])
        self._box_x0 = [b[0] for b in self._boxes]
        self._boxes6 = [(x0, y0, x1, y1, o, 1) for x0, y0, x1, y1, o in self._boxes]  # (seen_near's _quarters)
        n = len(layer.vertices)
        adj: list[dict[int, float]] = [dict() for _ in range(n)]
        for i, j, w, mask in layer.pairs:
            if mask < 0:
                if closed >> (-1 - mask) & 1:
                    continue
            elif mask & closed:
                continue
            adj[i][j] = w
            adj[j][i] = w
        self.adj = adj
        self._rows: list[list[float] | None] = [None] * n
        self._parts: list[int] | None = None  # (parts(), worked out when first asked)
        self._seen: OrderedDict[Point, list[tuple[int, float]]] = OrderedDict()
        self._from: OrderedDict[Point, list[float]] = OrderedDict()
        self._near: OrderedDict[tuple[Point, float], list[tuple[int, float]]] = OrderedDict()
        self._paths: OrderedDict[tuple[Point, Point], tuple[Point, ...] | None] = OrderedDict()

    def clear(self, ax: float, ay: float, bx: float, by: float) -> bool:
        """No Wall, Pillar or closed Hatch lies across the segment a-b. (A bounding-box test
        first; a grid index walked cell by cell measured slower for ~50 shapes.)"""
        lox, hix = (ax, bx) if ax < bx else (bx, ax)
        loy, hiy = (ay, by) if ay < by else (by, ay)
        # boxes are sorted on x0: those from the first with x0 >= hix on cannot meet the segment
        for x0, y0, x1, y1, o in self._boxes[:bisect_left(self._box_x0, hix)]:
            if x1 <= lox or x0 >= hix or y1 <= loy or y0 >= hiy:
                continue
            if o.blocks(ax, ay, bx, by):
                return False
        return True

    def seen_near(self, p: Point, reach: float) -> list[tuple[int, float]]:
        """The corners within ``reach`` of ``p`` a path from it can go to first, with their
        distances (kept per point and reach: a model's corners come back while it stands
        still). The tests of :meth:`Layer.tangent` and :meth:`clear` written out over every
        corner, as :meth:`Layer.seen_masked` does (``tests/reference/pathing.py``)."""
        key = (p, reach)
        got = self._near.get(key)
        if got is not None:
            return got
        px, py = p
        blocks = _quarters(self._boxes6, px, py)
        hypot = math.hypot
        out = []
        for i, vx, vy, ax, ay, bx, by in self.layer._sides:
            d = hypot(vx - px, vy - py)
            if not d <= reach:
                continue
            dx, dy = vx - px, vy - py
            if not (dx * ay - dy * ax) * (dx * by - dy * bx) >= -1e-12:
                continue  # not tangent: the line cuts the corner's own shape
            if not _across(blocks, px, py, vx, vy, True):
                out.append((i, d))
        self._near[key] = out
        if len(self._near) > _POINT_CACHE:
            self._near.popitem(last=False)
        return out

    # --- shortest distances ---------------------------------------------------------------

    def row(self, u: int) -> list[float]:
        """Shortest distances from corner ``u`` to every corner (Dijkstra)."""
        r = self._rows[u]
        if r is None:
            r = [INF] * len(self.adj)
            r[u] = 0.0
            heap = [(0.0, u)]
            adj = self.adj
            pop, push = heapq.heappop, heapq.heappush  # locals: the loop runs ~100 times a row
            while heap:
                d, v = pop(heap)
                if d > r[v]:
                    continue
                for w, length in adj[v].items():
                    nd = d + length
                    if nd < r[w]:
                        r[w] = nd
                        push(heap, (nd, w))
            self._rows[u] = r
        return r

    def seen(self, p: Point) -> list[tuple[int, float]]:
        """The corners a path from ``p`` can go to first, with their distances."""
        out = self._seen.get(p)
        if out is not None:
            return out
        closed = self.closed
        out = [(i, d) for i, d, mask in self.layer.seen_masked(p) if not mask & closed]
        self._seen[p] = out
        if len(self._seen) > _POINT_CACHE:
            self._seen.popitem(last=False)
        return out

    def distances_from(self, p: Point) -> list[float]:
        """The shortest distance from ``p`` to every corner."""
        out = self._from.get(p)
        if out is not None:
            return out
        n = len(self.layer.vertices)
        out = [INF] * n
        for i, d in self.seen(p):
            out = [a if a <= d + b else d + b for a, b in zip(out, self.row(i))]
        self._from[p] = out
        if len(self._from) > _POINT_CACHE:
            self._from.popitem(last=False)
        return out

    def distance(self, p: Point, q: Point) -> float:
        """Length of the shortest path from ``p`` to ``q`` (``inf`` when there is none)."""
        if self.clear(p[0], p[1], q[0], q[1]):
            return dist(p, q)
        dp = self.distances_from(p)
        best = INF
        for j, d in self.seen(q):
            t = dp[j] + d
            if t < best:
                best = t
        return best

    def reachable(self, p: Point, q: Point) -> bool:
        """A path leads from ``p`` to ``q`` (:meth:`path` is not None), found without working
        it out: the straight line is clear, or some corner seen from ``p`` and some corner
        seen from ``q`` are joined in the graph (one of its parts: :meth:`parts`)."""
        if (p, q) in self._paths:  # (the path kept)
            return self._paths[(p, q)] is not None
        if self.clear(p[0], p[1], q[0], q[1]):
            return True
        parts = self.parts()
        mine = {parts[i] for i, _ in self.seen(p)}
        return any(parts[j] in mine for j, _ in self.seen(q))

    def parts(self) -> list[int]:
        """For each corner, the part of the graph it lies in (the first corner of that part):
        two corners are joined by a path exactly when their parts are the same (the edges go
        both ways)."""
        if self._parts is None:
            parts = [-1] * len(self.adj)
            for start in range(len(self.adj)):
                if parts[start] >= 0:
                    continue
                parts[start] = start
                stack = [start]
                while stack:
                    for w in self.adj[stack.pop()]:
                        if parts[w] < 0:
                            parts[w] = start
                            stack.append(w)
            self._parts = parts
        return self._parts

    def path(self, p: Point, q: Point) -> list[Point] | None:
        """The shortest path from ``p`` to ``q`` as a list of points, or None (kept per pair of
        points: a move asks again for the same model's way to the same place, as its plan is
        tried at each step back and by each unit's move)."""
        if (p, q) in self._paths:
            got = self._paths[(p, q)]
            return None if got is None else list(got)
        out = self._path(p, q)
        self._paths[(p, q)] = None if out is None else tuple(out)
        if len(self._paths) > _POINT_CACHE:
            self._paths.popitem(last=False)
        return out

    def _path(self, p: Point, q: Point) -> list[Point] | None:
        if self.clear(p[0], p[1], q[0], q[1]):
            return [p, q]
        best, bu, bv = INF, -1, -1
        sp = self.seen(p)
        for v, dq in self.seen(q):
            rv = self.row(v)
            for u, du in sp:
                t = du + rv[u] + dq
                if t < best:
                    best, bu, bv = t, u, v
        if bu < 0:
            return None
        verts = self.layer.vertices
        to_end = self.row(bv)
        out = [p, verts[bu]]
        cur = bu
        guard = len(verts) + 1
        while cur != bv and guard:
            guard -= 1
            target = to_end[cur]
            nbrs = self.adj[cur]
            nxt = min(nbrs, key=lambda k: abs(nbrs[k] + to_end[k] - target))
            out.append(verts[nxt])
            cur = nxt
        out.append(q)
        return out


# --- routes around other models ("Impassable Terrain and Other Models") ----------------------

Disc = tuple[float, float, float]
"""A circle the centre of a moving base may not enter: (x, y, radius). Another model's base is
the sum of both radii; an enemy model on a Normal or Advance move adds Engagement Range."""


_INRADIUS = math.cos(math.pi / 8)  # a regular octagon's inradius over its circumradius


def disc_block(d: Disc) -> Block:
    """The octagon circumscribing disc ``d`` (the shape the path search bends around)."""
    x, y, r = d
    return Block.octagon(Rect(x, y, x, y), r)


def _segment_enters_disc(ax: float, ay: float, bx: float, by: float, d: Disc) -> float | None:
    """Where (0..1 along a-b) the segment first comes strictly inside the circle, or None."""
    cx, cy, r = d
    dx, dy = bx - ax, by - ay
    fx, fy = ax - cx, ay - cy
    a = dx * dx + dy * dy
    c = fx * fx + fy * fy - r * r
    if c < -EPS:
        return 0.0
    if a == 0.0:
        return None
    b = 2 * (fx * dx + fy * dy)
    disc = b * b - 4 * a * c
    if disc <= 0.0:
        return None
    s = math.sqrt(disc)
    t0, t1 = (-b - s) / (2 * a), (-b + s) / (2 * a)
    if t1 - t0 <= 1e-9 or t1 <= 0.0 or t0 >= 1.0:
        return None
    return max(t0, 0.0)


def cut_at_discs(pts: list[Point], discs: Sequence[Disc]) -> list[Point]:
    """The polyline up to where it first enters one of the circles (all of it if none)."""
    if not discs:
        return pts
    out = [pts[0]]
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        first = None
        for d in discs:
            t = _segment_enters_disc(ax, ay, bx, by, d)
            if t is not None and (first is None or t < first):
                first = t
        if first is not None:
            out.append((ax + (bx - ax) * first, ay + (by - ay) * first))
            return out
        out.append((bx, by))
    return out


def route(graph: _Graph, p: Point, q: Point, discs: Sequence[Disc], within: float = INF
          ) -> list[Point] | None:
    """The shortest path from ``p`` to ``q`` around the graph's Walls and closed Hatches and
    around the octagons of ``discs`` (None if there is none). A disc whose octagon holds ``p``
    shrinks until it does not (the base may start between the circle and the octagon's
    corners). The disc whose octagon holds ``q``, with every disc overlapping it and so on (a
    unit and the Engagement Range around it), is left out of the search and the path is cut
    where it first enters one of those circles: a move toward a point inside them ends as close
    as that route allows.

    Obstacles are added lazily: the path without them first (the graph's cached answer), then
    again with the octagons it went through, until it goes through none. Each search is exact
    for the octagons it includes, and a path avoiding every octagon that was left out is also
    the shortest avoiding all of them (a superset of constraints cannot shorten it), so the
    answer equals the search with every octagon at once (``tests/reference/pathing.py``).

    ``within``: a move goes no farther than that, so only the first ``within`` inches of the
    path must be free; octagons beyond are not looked for (the route heads the shortest way
    around Walls and keeps clear of models only where it is actually walked: much faster, and
    the same wherever it matters)."""
    px, py = p
    if within != INF:  # a disc out of reach of the walked part cannot matter
        discs = [d for d in discs if math.hypot(d[0] - px, d[1] - py) < within + d[2] + 0.1]
    # a disc whose octagon holds the start shrinks until it does not (the base may stand
    # within the octagon's corners and still outside the circle)
    discs = [d if not _octagon(d).touches(p) else
             (d[0], d[1], math.hypot(d[0] - px, d[1] - py) * _INRADIUS - 1e-6) for d in discs]
    blocks = [_octagon(d) for d in discs]
    # the discs around the destination: those holding it and every disc overlapping them,
    # and so on (a unit's models and their Engagement Range form one cluster around it)
    at_goal = [b.touches(q) for b in blocks]
    grow = [i for i, g in enumerate(at_goal) if g]
    while grow:
        x, y, r = discs[grow.pop()]
        for j, d in enumerate(discs):
            if not at_goal[j] and math.hypot(d[0] - x, d[1] - y) < d[2] + r:
                at_goal[j] = True
                grow.append(j)
    goal = [d for d, g in zip(discs, at_goal) if g]
    live = [(d, b) for d, b, g in zip(discs, blocks, at_goal) if not g and d[2] > 0 and not b.touches(p)]
    included: list[Block] = []
    while True:
        pts = graph.path(p, q) if not included else _search(graph, p, q, included, within)
        if pts is None:
            return None
        walked = _head(pts, within)
        hit = [b for _, b in live if b not in included and
               any(_crosses(b, a, c) for a, c in zip(walked, walked[1:]))]
        if not hit:
            return cut_at_discs(pts, goal)
        included += hit


def _head(pts: list[Point], length: float) -> list[Point]:
    """The first ``length`` inches of the polyline (a little more: rounding never hides a
    model at the very end)."""
    if length == INF:
        return pts
    left = length + 0.05
    out = [pts[0]]
    for a, b in zip(pts, pts[1:]):
        seg = dist(a, b)
        if seg >= left:
            t = left / seg if seg else 0.0
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            return out
        out.append(b)
        left -= seg
    return out


def _crosses(b: Block, a: Point, c: Point) -> bool:
    ax, ay = a
    cx, cy = c
    # the bounding boxes first: most octagons lie nowhere near a segment
    if (ax if ax > cx else cx) <= b.x0 or (ax if ax < cx else cx) >= b.x1 or \
            (ay if ay > cy else cy) <= b.y0 or (ay if ay < cy else cy) >= b.y1:
        return False
    return b.blocks(ax, ay, cx, cy)


@lru_cache(maxsize=4096)
def _octagon(d: Disc) -> Block:
    return disc_block(d)


def _search(graph: _Graph, p: Point, q: Point, octagons: list[Block], reach: float = INF
            ) -> list[Point] | None:
    """A* from ``p`` to ``q`` over the graph's corners, the corners of ``octagons``, ``p`` and
    ``q``: an edge is the graph's (or a clear straight line) that crosses no octagon. An
    octagon's corner is joined to the graph's corners within ``reach`` of it only (all of them
    when it is infinite; a move's route needs no more)."""
    layer = graph.layer
    verts = layer.vertices
    n = len(verts)
    extra: list[Point] = []
    sides: list[tuple[Point, Point]] = []  # each extra corner's neighbours on its octagon
    boxes = graph._boxes[:bisect_left(graph._box_x0, max(o.x1 for o in octagons))]
    for o in octagons:
        cs = o.corners()
        # only the shapes and octagons whose boxes meet this one's (a hair wider: its corners
        # as worked out) can hold one of its corners
        lox, loy, hix, hiy = o.x0 - 1e-6, o.y0 - 1e-6, o.x1 + 1e-6, o.y1 + 1e-6
        near = [b for b in boxes if b[0] < hix and b[2] > lox and b[1] < hiy and b[3] > loy]
        others = [x for x in octagons if x is not o and x.x0 < hix and x.x1 > lox and x.y0 < hiy and x.y1 > loy]
        for i, c in enumerate(cs):
            cx, cy = c
            if any(x0 < cx < x1 and y0 < cy < y1 and s.contains(c) for x0, y0, x1, y1, s in near) or \
                    any(x.contains(c) for x in others):
                continue
            extra.append(c)
            sides.append((cs[i - 1], cs[(i + 1) % len(cs)]))
    nodes = verts + extra + [p, q]
    src, dst = len(nodes) - 2, len(nodes) - 1

    def bends(k: int, a: Point) -> bool:
        """A shortest path coming from ``a`` can bend at node ``k``: for an octagon's corner,
        the line from ``a`` does not cut that octagon (as :meth:`Layer.tangent`)."""
        if k >= src:
            return True
        (ax, ay), (bx, by) = sides[k - n]
        vx, vy = nodes[k]
        dx, dy = vx - a[0], vy - a[1]
        s1 = dx * (ay - vy) - dy * (ax - vx)
        s2 = dx * (by - vy) - dy * (bx - vx)
        return s1 * s2 >= -1e-12

    def free(a: Point, c: Point) -> bool:
        for o in octagons:
            if _crosses(o, a, c):
                return False
        return True

    # the links of the points that are not the graph's corners ("loose": the octagons'
    # corners, p and q), to the corners each sees (kept per point by the graph) and to each
    # other: worked out only for the nodes the search reaches (it reaches few), in the order
    # in which a list of every link, loose node by loose node, would give them
    def seen(k: int) -> list[tuple[int, float]]:
        a = nodes[k]
        if k >= src or reach == INF:
            return graph.seen(a)  # kept per point by the graph
        return graph.seen_near(a, reach)

    clear = graph.clear
    loose = range(n, len(nodes))

    def pair(k: int, j: int) -> float | None:
        """The length of the link between loose nodes k < j (None: none)."""
        got = pairs.get((k, j), 0)
        if got == 0:
            a, c = nodes[k], nodes[j]
            got = pairs[(k, j)] = dist(a, c) if (
                bends(k, c) and bends(j, a) and clear(a[0], a[1], c[0], c[1]) and free(a, c)) else None
        return got

    def sees(k: int) -> dict[int, float]:
        """The graph's corners loose node ``k`` links to, with their distances, in order."""
        got = seen_by.get(k)
        if got is None:
            a = nodes[k]
            got = seen_by[k] = {i: d for i, d in seen(k) if bends(k, verts[i]) and free(a, verts[i])}
        return got

    def sees_one(k: int, i: int) -> float | None:
        """Whether loose node ``k`` links to the graph's corner ``i`` (its distance): the
        tests of :func:`seen` and :func:`sees` for that one corner."""
        got = seen_by.get(k)
        if got is not None:
            return got.get(i)
        a = nodes[k]
        if k >= src or reach == INF or (a, reach) in graph._near:
            return sees(k).get(i)
        v = verts[i]
        d = math.hypot(v[0] - a[0], v[1] - a[1])
        if d <= reach and layer.tangent(i, a) and clear(a[0], a[1], v[0], v[1]) and bends(k, v) and free(a, v):
            return d
        return None

    def links(k: int) -> list[tuple[int, float]]:
        out: list[tuple[int, float]] = []
        for j in loose:
            if j < k and (d := pair(j, k)) is not None:
                out.append((j, d))
        out += sees(k).items()
        for j in loose:
            if j > k and (d := pair(k, j)) is not None:
                out.append((j, d))
        return out

    def back(i: int) -> list[tuple[int, float]]:
        return [(k, d) for k in loose if (d := sees_one(k, i)) is not None]

    pairs: dict[tuple[int, int], float | None] = {}
    seen_by: dict[int, dict[int, float]] = {}
    qx, qy = q
    best = {src: 0.0}
    prev: dict[int, int] = {}
    heap = [(math.hypot(p[0] - qx, p[1] - qy), 0.0, src)]
    done: set[int] = set()
    adj = graph.adj
    while heap:
        _, g, u = heapq.heappop(heap)
        if u in done:
            continue
        if u == dst:
            break
        done.add(u)
        a = nodes[u]
        if u < n:
            nbrs: list[tuple[int, float]] = [(w, d) for w, d in adj[u].items() if free(a, verts[w])]
            nbrs += back(u)
        else:
            nbrs = links(u)
        for w, d in nbrs:
            nd = g + d
            if nd < best.get(w, INF) - 1e-12:
                best[w] = nd
                prev[w] = u
                x, y = nodes[w]
                heapq.heappush(heap, (nd + math.hypot(x - qx, y - qy), nd, w))
    if dst not in best:
        return None
    out_pts = [q]
    k = dst
    while k != src:
        k = prev[k]
        out_pts.append(nodes[k])
    out_pts.reverse()
    return out_pts
