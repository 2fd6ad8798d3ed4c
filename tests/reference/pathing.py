"""The plain reference of :func:`bagm.engine.board.pathing.route`.

One search with every obstacle at once, as the rules read: the nodes are every corner of the
Walls, Pillars and closed Hatches (grown by the base's radius), every corner of every other
model's octagon, the start and the end; an edge joins any two nodes whose straight line passes
through none of those shapes (every pair tried, no pruning), plus the step through each open
Hatchway; Dijkstra finds the shortest path. A disc whose octagon holds the start shrinks; the
cluster of discs around the end is left out and the path cut where it first enters one of
them, as ``route`` documents.

And :func:`search`, the search ``route`` makes once octagons are in the way, with every link
between its nodes worked out first (``_search`` works out only those of the nodes it reaches).
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left
from collections.abc import Sequence

from bagm.engine.board import pathing
from bagm.engine.board.geometry import Block, Point, Rect, dist
from bagm.engine.board.pathing import Disc, _Graph


def _octagon(d: Disc) -> Block:
    x, y, r = d
    return Block.octagon(Rect(x, y, x, y), r)


def _enters(a: Point, b: Point, d: Disc) -> float | None:
    """The first fraction of a-b strictly inside the circle, found by bisection on samples."""
    cx, cy, r = d
    steps = 4000
    for k in range(steps + 1):
        t = k / steps
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        if math.hypot(x - cx, y - cy) < r - 1e-7:
            lo, hi = max(0.0, (k - 1) / steps), t
            if k == 0:
                return 0.0
            for _ in range(60):
                mid = (lo + hi) / 2
                x, y = a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid
                if math.hypot(x - cx, y - cy) < r:
                    hi = mid
                else:
                    lo = mid
            return hi
    return None


def route(graph: _Graph, p: Point, q: Point, discs: Sequence[Disc]) -> list[Point] | None:
    layer = graph.layer
    inradius = math.cos(math.pi / 8)
    # a disc whose octagon holds the start shrinks until it does not
    discs = [d if not _octagon(d).touches(p) else
             (d[0], d[1], math.dist(d[:2], p) * inradius - 1e-6) for d in discs]
    # the cluster of discs around the end: holding it, or overlapping one that is in it
    goal_i = {i for i, d in enumerate(discs) if _octagon(d).touches(q)}
    changed = True
    while changed:
        changed = False
        for i, d in enumerate(discs):
            if i not in goal_i and any(math.dist(d[:2], discs[j][:2]) < d[2] + discs[j][2] for j in goal_i):
                goal_i.add(i)
                changed = True
    goal = [discs[i] for i in sorted(goal_i)]
    live = [_octagon(d) for i, d in enumerate(discs) if i not in goal_i and d[2] > 0]
    solid = list(graph.blocks)
    shapes = solid + live
    nodes: list[Point] = []
    for v in layer.vertices:
        if not any(s.contains(v) for s in shapes):
            nodes.append(v)
    for o in live:
        for c in o.corners():
            if not any(s.contains(c) for s in shapes if s is not o):
                nodes.append(c)
    nodes += [p, q]
    edges: dict[int, list[tuple[int, float]]] = {i: [] for i in range(len(nodes))}
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            a, b = nodes[i], nodes[j]
            if any(s.blocks(a[0], a[1], b[0], b[1]) for s in shapes):
                continue
            d = math.dist(a, b)
            edges[i].append((j, d))
            edges[j].append((i, d))
    index = {v: i for i, v in enumerate(nodes)}
    for portal in layer.portals:  # through an open Hatchway, however wide the base
        if graph.closed >> portal.door & 1:
            continue
        ia, ib = index.get(portal.a), index.get(portal.b)
        if ia is None or ib is None or any(o.blocks(*portal.a, *portal.b) for o in live):
            continue
        d = math.dist(portal.a, portal.b)
        edges[ia].append((ib, d))
        edges[ib].append((ia, d))
    src, dst = len(nodes) - 2, len(nodes) - 1
    best = {src: 0.0}
    prev: dict[int, int] = {}
    heap = [(0.0, src)]
    while heap:
        g, u = heapq.heappop(heap)
        if g > best.get(u, math.inf):
            continue
        for w, d in edges[u]:
            if g + d < best.get(w, math.inf):
                best[w] = g + d
                prev[w] = u
                heapq.heappush(heap, (g + d, w))
    if dst not in best:
        return None
    pts = [q]
    k = dst
    while k != src:
        k = prev[k]
        pts.append(nodes[k])
    pts.reverse()
    if goal:
        out = [pts[0]]
        for a, b in zip(pts, pts[1:]):
            ts = [t for t in (_enters(a, b, d) for d in goal) if t is not None]
            if ts:
                t = min(ts)
                out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
                return out
            out.append(b)
        return out
    return pts


def search(graph: _Graph, p: Point, q: Point, octagons: list[Block], reach: float = math.inf
           ) -> list[Point] | None:
    """:func:`bagm.engine.board.pathing._search` with every link worked out before the search
    (the lazy search works out only those of the nodes it reaches, in the same order): the same
    nodes, links, A* and tie-breaks, so the same points come out."""
    layer = graph.layer
    verts = layer.vertices
    n = len(verts)
    extra: list[Point] = []
    sides: list[tuple[Point, Point]] = []  # each extra corner's neighbours on its octagon
    boxes = graph._boxes[:bisect_left(graph._box_x0, max(o.x1 for o in octagons))]
    for o in octagons:
        cs = o.corners()
        for i, c in enumerate(cs):
            cx, cy = c
            if any(x0 < cx < x1 and y0 < cy < y1 and s.contains(c) for x0, y0, x1, y1, s in boxes) or \
                    any(x is not o and x.contains(c) for x in octagons):
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
            if pathing._crosses(o, a, c):
                return False
        return True

    # the links of the points that are not the graph's corners: to the corners each sees
    # (cached per point by the graph) and to each other
    def seen(k: int) -> list[tuple[int, float]]:
        a = nodes[k]
        if k >= src or reach == math.inf:
            return graph.seen(a)  # kept per point by the graph
        got = graph._near.get((a, reach))  # a model's corners come back while it stands still
        if got is not None:
            return got
        ax, ay = a
        tangent, clear = layer.tangent, graph.clear
        out = []
        for i, (vx, vy) in enumerate(verts):
            d = math.hypot(vx - ax, vy - ay)
            if d <= reach and tangent(i, a) and clear(ax, ay, vx, vy):
                out.append((i, d))
        graph._near[(a, reach)] = out
        if len(graph._near) > pathing._POINT_CACHE:
            graph._near.popitem(last=False)
        return out

    loose = list(range(n, len(nodes)))
    links: dict[int, list[tuple[int, float]]] = {k: [] for k in loose}
    clear = graph.clear
    for k in loose:
        a = nodes[k]
        links[k] += [(i, d) for i, d in seen(k) if bends(k, verts[i]) and free(a, verts[i])]
        for j in loose:
            if j > k:
                c = nodes[j]
                if bends(k, c) and bends(j, a) and clear(a[0], a[1], c[0], c[1]) and free(a, c):
                    d = dist(a, c)
                    links[k].append((j, d))
                    links[j].append((k, d))
    back: dict[int, list[tuple[int, float]]] = {}
    for k, out in links.items():
        for i, d in out:
            if i < n:
                back.setdefault(i, []).append((k, d))
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
            nbrs += back.get(u, [])
        else:
            nbrs = links[u]
        for w, d in nbrs:
            nd = g + d
            if nd < best.get(w, math.inf) - 1e-12:
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


def seen_masked(layer: pathing.Layer, p: Point) -> list[tuple[int, float, int]]:
    """The plain reference of :meth:`bagm.engine.board.pathing.Layer.seen_masked`: each corner
    tried in turn, :meth:`Layer.tangent` and a clear line past the static shapes (the graph
    with every Hatch open), then every Hatch tried for the mask (what seen_masked was before
    it looked only at the shapes in the quarter each corner lies in)."""
    open_graph = _Graph(layer, 0)
    out = []
    for i, (vx, vy) in enumerate(layer.vertices):
        if layer.tangent(i, p) and open_graph.clear(p[0], p[1], vx, vy):
            mask = 0
            lox, hix, loy, hiy = min(p[0], vx), max(p[0], vx), min(p[1], vy), max(p[1], vy)
            for k, o in enumerate(layer.doors):
                # the bounding-box rejection clear() makes first, then the same test
                if o is not None and not (o.x1 <= lox or o.x0 >= hix or o.y1 <= loy or o.y0 >= hiy) \
                        and o.blocks(p[0], p[1], vx, vy):
                    mask |= 1 << k
            out.append((i, math.hypot(vx - p[0], vy - p[1]), mask))
    return out


def seen_near(graph: _Graph, p: Point, reach: float) -> list[tuple[int, float]]:
    """The plain reference of :meth:`bagm.engine.board.pathing._Graph.seen_near`: each corner
    tried in turn, within ``reach``, :meth:`Layer.tangent` and :meth:`_Graph.clear`."""
    out = []
    for i, (vx, vy) in enumerate(graph.layer.vertices):
        d = math.hypot(vx - p[0], vy - p[1])
        if d <= reach and graph.layer.tangent(i, p) and graph.clear(p[0], p[1], vx, vy):
            out.append((i, d))
    return out
