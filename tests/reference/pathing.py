"""The plain reference of :func:`bagm.engine.board.pathing.route`.

One search with every obstacle at once, as the rules read: the nodes are every corner of the
Walls, Pillars and closed Hatches (grown by the base's radius), every corner of every other
model's octagon, the start and the end; an edge joins any two nodes whose straight line passes
through none of those shapes (every pair tried, no pruning), plus the step through each open
Hatchway; Dijkstra finds the shortest path. A disc whose octagon holds the start shrinks; the
cluster of discs around the end is left out and the path cut where it first enters one of
them, as ``route`` documents.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

from bagm.engine.board.geometry import Block, Point, Rect
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
