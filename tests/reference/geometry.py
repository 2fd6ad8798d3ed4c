"""Plain references of the optimised segment tests of :mod:`bagm.engine.board`.

``Block.blocks`` clips a segment against a shape's slabs with comparisons written out for speed;
``_Graph.clear`` (what ``Battlefield.graph(closed).clear`` answers) skips shapes by sorted
bounding boxes. These are the same tests read plainly: clip the segment's parameter interval
against every slab with ``max``/``min``; a segment is clear when no shape blocks it. The
visibility tests' filters of what lies near a line (``discs_near_segment``,
``Block.nearer_than``) and their rim points (``visibility._rim``) are read plainly too: one
distance at a time, the whole distance, the points of ``Base.edge_points``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from bagm.engine.board.geometry import EPS, Base, Block, Rect, point_segment_distance


def segment_blocked(o: Block, ax: float, ay: float, bx: float, by: float, eps: float = EPS) -> bool:
    """The segment a-b passes through the inside of ``o`` (Liang-Barsky on each slab)."""
    slabs = [(ax, bx, o.x0, o.x1), (ay, by, o.y0, o.y1)]
    if not o.is_rect:
        slabs += [(ax + ay, bx + by, o.u0, o.u1), (ax - ay, bx - by, o.v0, o.v1)]
    t0, t1 = 0.0, 1.0
    for sa, sb, lo, hi in slabs:
        lo, hi = lo + eps, hi - eps
        d = sb - sa
        if d == 0.0:
            if not lo < sa < hi:
                return False
            continue
        ta, tb = sorted(((lo - sa) / d, (hi - sa) / d))
        t0, t1 = max(t0, ta), min(t1, tb)
        if t0 >= t1:
            return False
    return t1 - t0 > 1e-12 and not math.isnan(t0)


def clear(blocks: Iterable[Block], ax: float, ay: float, bx: float, by: float) -> bool:
    """No shape lies across the segment a-b."""
    return not any(segment_blocked(o, ax, ay, bx, by) for o in blocks)


def hatchway_crossed(bf: object, points: list[tuple[float, float]], open_only: bool = True) -> list[int]:
    """The Hatchways whose opening one of the polyline's segments meets (every segment tried)."""
    from bagm.engine.board.geometry import segments_cross

    return [h.index for h in bf.layout.hatchways  # type: ignore[attr-defined]
            if (not open_only or bf.is_open(h.index))  # type: ignore[attr-defined]
            and any(segments_cross(a, b, *h.opening) for a, b in zip(points, points[1:]))]


def door_near(models: Iterable[tuple[float, float, float]], door: Rect) -> bool:
    """Some model (x, y, base radius) stands within 1" of the door, edge to edge."""
    return min(door.distance_to((x, y)) - r for x, y, r in models) <= 1.0


def discs_near_segment(a: tuple[float, float], b: tuple[float, float], discs: Iterable[Base],
                       reach: float = 0.0, eps: float = 0.0) -> list[Base]:
    """The discs whose centre is nearer the segment a-b than ``reach`` plus its radius less
    ``eps``, each measured by ``point_segment_distance``."""
    return [m for m in discs if point_segment_distance(m.centre, a, b) < reach + m.radius - eps]


def nearer_than(o: Block, a: tuple[float, float], b: tuple[float, float], d: float) -> bool:
    """The shape is nearer the segment a-b than ``d``."""
    return o.distance_to_segment(a, b) < d


def rim(base: Base, samples: int) -> list[tuple[float, float]]:
    """The points a visibility test tries on a base's rim: ``samples`` points evenly spaced on
    the rim of the base a hair smaller (Base.edge_points)."""
    return Base(base.x, base.y, base.radius * (1 - 1e-6)).edge_points(samples)
