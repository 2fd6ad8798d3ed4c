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

from bagm.engine.board.geometry import EPS, INF, Block, Point, dist

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
        self._states: OrderedDict[int, _Graph] = OrderedDict()
        self._open: _Graph | None = None  # the graph with every Hatch open (static shapes only)
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
        under any set of closed Hatches are those whose mask it does not meet (the same tests
        as :meth:`_Graph.clear`, split into the static shapes and each Hatch; kept per point, as
        games with many Hatchway states otherwise ask again for each new state)."""
        out = self._seen_masked.get(p)
        if out is not None:
            return out
        if self._open is None:
            self._open = _Graph(self, 0)
        clear, tangent, doors = self._open.clear, self.tangent, self.doors
        px, py = p
        out = []
        for i, (vx, vy) in enumerate(self.vertices):
            if tangent(i, p) and clear(px, py, vx, vy):
                lox, hix = (px, vx) if px < vx else (vx, px)
                loy, hiy = (py, vy) if py < vy else (vy, py)
                mask = 0
                for k, o in enumerate(doors):
                    # the bounding-box rejection clear() makes first, then the same test
                    if o is None or o.x1 <= lox or o.x0 >= hix or o.y1 <= loy or o.y0 >= hiy:
                        continue
                    if o.blocks(px, py, vx, vy):
                        mask |= 1 << k
                out.append((i, math.hypot(vx - px, vy - py), mask))
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
        self._seen: OrderedDict[Point, list[tuple[int, float]]] = OrderedDict()
        self._from: OrderedDict[Point, list[float]] = OrderedDict()

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

    def path(self, p: Point, q: Point) -> list[Point] | None:
        """The shortest path from ``p`` to ``q`` as a list of points, or None."""
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
