"""Plane geometry in inches: points, round bases, and the blocking shapes of the battlefield.

Everything on a Boarding Actions battlefield lies on the Zone grid, so every Wall, Pillar and
Hatch is an axis-aligned rectangle. For movement the rectangles are grown by a base's radius
into octagons (a rectangle cut by 45-degree lines), which follow the rounded shape a base sweeps
around a corner to within 3%. Both shapes are a :class:`Block`: the intersection of four slabs
on the axes x, y, x+y and x-y, so one clipping routine serves them all.

Measurements are horizontal only; Boarding Actions has no vertical terrain to measure over.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

MM_PER_INCH = 25.4
OBJECTIVE_MARKER_MM = 40  # Core Rules "Objective Markers": round markers 40mm across
EPS = 1e-7  # inches: how far a line may graze a shape without passing through it
INF = math.inf
_SQRT2 = math.sqrt(2.0)
_TAN_22_5 = math.tan(math.pi / 8)

Point = tuple[float, float]


def mm_to_inches(mm: float) -> float:
    return mm / MM_PER_INCH


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


@dataclass(frozen=True, slots=True)
class Base:
    """A model's round base: centre (inches) and radius (inches)."""

    x: float
    y: float
    radius: float

    @classmethod
    def mm(cls, x: float, y: float, diameter_mm: float) -> Base:
        """A base of ``diameter_mm`` millimetres centred on (x, y) inches."""
        return cls(x, y, diameter_mm / MM_PER_INCH / 2)

    @property
    def centre(self) -> Point:
        return (self.x, self.y)

    def moved(self, x: float, y: float) -> Base:
        return Base(x, y, self.radius)

    def overlaps(self, other: Base) -> bool:
        return math.hypot(self.x - other.x, self.y - other.y) < self.radius + other.radius - EPS

    def edge_points(self, n: int) -> list[Point]:
        """``n`` points evenly spaced on the rim of the base."""
        step = 2 * math.pi / n
        return [(self.x + self.radius * math.cos(i * step), self.y + self.radius * math.sin(i * step))
                for i in range(n)]


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle [x0, x1] x [y0, y1] in inches (y grows down the map)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def centre(self) -> Point:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def contains(self, p: Point, eps: float = 0.0) -> bool:
        """``p`` inside or on the edge (``eps`` > 0 widens, < 0 shrinks the rectangle)."""
        return (self.x0 - eps <= p[0] <= self.x1 + eps) and (self.y0 - eps <= p[1] <= self.y1 + eps)

    def contains_base(self, base: Base, eps: float = 1e-9) -> bool:
        r = base.radius
        return (self.x0 - eps <= base.x - r and base.x + r <= self.x1 + eps
                and self.y0 - eps <= base.y - r and base.y + r <= self.y1 + eps)

    def overlaps_area(self, other: Rect, eps: float = 1e-9) -> bool:
        """The two rectangles share some area (not only an edge or a corner)."""
        return (min(self.x1, other.x1) - max(self.x0, other.x0) > eps
                and min(self.y1, other.y1) - max(self.y0, other.y0) > eps)

    def closest_point(self, p: Point) -> Point:
        return (min(max(p[0], self.x0), self.x1), min(max(p[1], self.y0), self.y1))

    def distance_to(self, p: Point) -> float:
        return box_distance(self.x0, self.y0, self.x1, self.y1, p)

    def disk_overlap(self, base: Base, eps: float = 1e-9) -> bool:
        """Some area of the base lies in the rectangle."""
        return self.distance_to((base.x, base.y)) < base.radius - eps and self.width > eps and self.height > eps


@dataclass(frozen=True, slots=True)
class Block:
    """A convex blocking shape: the points strictly inside four slabs, on x, y, u = x + y and
    v = x - y. A rectangle leaves the u and v slabs unbounded; an octagon bounds all four.

    ``door`` is the index of the Hatchway whose Hatch this is, or -1 for a permanent shape.
    """

    x0: float
    y0: float
    x1: float
    y1: float
    u0: float = -INF
    u1: float = INF
    v0: float = -INF
    v1: float = INF
    door: int = -1
    is_rect: bool = True  # no u, v slabs (set by the constructors)

    @classmethod
    def rect(cls, r: Rect, door: int = -1) -> Block:
        return cls(r.x0, r.y0, r.x1, r.y1, door=door)

    @classmethod
    def octagon(cls, r: Rect, grow: float, door: int = -1) -> Block:
        """``r`` grown by ``grow`` inches on every side, corners cut at 45 degrees so the shape
        circumscribes the rounded outline a base of radius ``grow`` sweeps around ``r``."""
        if grow <= 0:
            return cls.rect(r, door)
        c = grow * _SQRT2
        return cls(r.x0 - grow, r.y0 - grow, r.x1 + grow, r.y1 + grow,
                   r.x0 + r.y0 - c, r.x1 + r.y1 + c, r.x0 - r.y1 - c, r.x1 - r.y0 + c, door, False)

    def corners(self) -> list[Point]:
        """The corners in order around the shape (4 for a rectangle, up to 8 for an octagon)."""
        if self.is_rect:
            return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]
        x0, y0, x1, y1, u0, u1, v0, v1 = (self.x0, self.y0, self.x1, self.y1,
                                          self.u0, self.u1, self.v0, self.v1)
        pts = [(u0 - y0, y0), (v1 + y0, y0),        # top edge: cut by u0 on the left, v1 right
               (x1, x1 - v1), (x1, u1 - x1),        # right edge
               (u1 - y1, y1), (v0 + y1, y1),        # bottom edge
               (x0, x0 - v0), (x0, u0 - x0)]        # left edge
        out: list[Point] = []
        for p in pts:
            if not out or dist(out[-1], p) > 1e-12:
                out.append(p)
        if len(out) > 1 and dist(out[0], out[-1]) <= 1e-12:
            out.pop()
        return out

    def contains(self, p: Point, eps: float = EPS) -> bool:
        """``p`` strictly inside (by more than ``eps``)."""
        x, y = p
        u, v = x + y, x - y
        return (self.x0 + eps < x < self.x1 - eps and self.y0 + eps < y < self.y1 - eps
                and self.u0 + eps < u < self.u1 - eps and self.v0 + eps < v < self.v1 - eps)

    def touches(self, p: Point, eps: float = EPS) -> bool:
        """``p`` inside or on the edge (within ``eps``)."""
        return self.contains(p, -eps)

    def blocks(self, ax: float, ay: float, bx: float, by: float, eps: float = EPS) -> bool:
        """The segment a-b passes through the inside of the shape (grazing an edge or a corner
        does not count). Liang-Barsky clipping against each slab. (Comparisons stand in for
        max/min, a hot path: the same values come out.)"""
        t0, t1 = 0.0, 1.0
        d = bx - ax
        lo, hi = self.x0 + eps, self.x1 - eps
        if d == 0.0:
            if ax <= lo or ax >= hi:
                return False
        else:
            ta, tb = (lo - ax) / d, (hi - ax) / d
            if ta > tb:
                ta, tb = tb, ta
            if ta > t0:
                t0 = ta
            if tb < t1:
                t1 = tb
            if t0 >= t1:
                return False
        d = by - ay
        lo, hi = self.y0 + eps, self.y1 - eps
        if d == 0.0:
            if ay <= lo or ay >= hi:
                return False
        else:
            ta, tb = (lo - ay) / d, (hi - ay) / d
            if ta > tb:
                ta, tb = tb, ta
            if ta > t0:
                t0 = ta
            if tb < t1:
                t1 = tb
            if t0 >= t1:
                return False
        if not self.is_rect:
            for sa, sb, lo, hi in ((ax + ay, bx + by, self.u0, self.u1),
                                   (ax - ay, bx - by, self.v0, self.v1)):
                lo += eps
                hi -= eps
                d = sb - sa
                if d == 0.0:
                    if sa <= lo or sa >= hi:
                        return False
                    continue
                ta, tb = (lo - sa) / d, (hi - sa) / d
                if ta > tb:
                    ta, tb = tb, ta
                if ta > t0:
                    t0 = ta
                if tb < t1:
                    t1 = tb
                if t0 >= t1:
                    return False
        return t1 - t0 > 1e-12

    def distance_to_segment(self, a: Point, b: Point) -> float:
        """Shortest distance between the (rectangular) shape and the segment a-b."""
        if self.blocks(a[0], a[1], b[0], b[1], 0.0):
            return 0.0
        r = Rect(self.x0, self.y0, self.x1, self.y1)
        best = min(r.distance_to(a), r.distance_to(b))
        for c in self.corners():
            best = min(best, point_segment_distance(c, a, b))
        return best

    def nearer_than(self, a: Point, b: Point, d: float) -> bool:
        """``distance_to_segment(a, b) < d``, the same parts measured, stopping at the first
        one nearer (the visibility tests ask which shapes lie near a line)."""
        if self.blocks(a[0], a[1], b[0], b[1], 0.0):
            return 0.0 < d
        x0, y0, x1, y1 = self.x0, self.y0, self.x1, self.y1
        if box_distance(x0, y0, x1, y1, a) < d or box_distance(x0, y0, x1, y1, b) < d:
            return True
        for c in self.corners():
            if point_segment_distance(c, a, b) < d:
                return True
        return False


def box_distance(x0: float, y0: float, x1: float, y1: float, p: Point) -> float:
    """:meth:`Rect.distance_to` of the rectangle x0-x1, y0-y1 without building it (a hot path:
    closest_point and dist written out, the same clamping, the same hypot)."""
    x, y = p
    cx = x0 if x0 > x else x
    if x1 < cx:
        cx = x1
    cy = y0 if y0 > y else y
    if y1 < cy:
        cy = y1
    return math.hypot(x - cx, y - cy)


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    px, py = p
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    if n == 0.0:
        return math.hypot(px - ax, py - ay)
    # max(0, min(1, t)) by comparisons (a hot path; the same value)
    t = ((px - ax) * dx + (py - ay) * dy) / n
    if t > 1.0:
        t = 1.0
    if t < 0.0:
        t = 0.0
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def discs_near_segment(a: Point, b: Point, discs: Sequence[Base], reach: float = 0.0,
                       eps: float = 0.0) -> list[Base]:
    """The discs whose centre is nearer the segment a-b than ``reach`` plus its radius less
    ``eps``: :func:`point_segment_distance` for one segment and many points (a hot path: the
    segment's numbers worked out once; the same arithmetic, the same values)."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    hypot = math.hypot
    out = []
    for m in discs:
        px, py = m.x, m.y
        if n == 0.0:
            d = hypot(px - ax, py - ay)
        else:
            t = ((px - ax) * dx + (py - ay) * dy) / n
            if t > 1.0:
                t = 1.0
            if t < 0.0:
                t = 0.0
            d = hypot(px - ax - t * dx, py - ay - t * dy)
        if d < reach + m.radius - eps:
            out.append(m)
    return out


def segment_hits_disk(a: Point, b: Point, centre: Point, radius: float, eps: float = EPS) -> bool:
    """The segment a-b passes through the inside of a disk (grazing its rim does not count)."""
    return point_segment_distance(centre, a, b) < radius - eps


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Segments a-b and c-d meet (touching counts)."""
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    def on(p: Point, q: Point, r: Point) -> bool:
        return (min(p[0], q[0]) - 1e-12 <= r[0] <= max(p[0], q[0]) + 1e-12
                and min(p[1], q[1]) - 1e-12 <= r[1] <= max(p[1], q[1]) + 1e-12)

    d1, d2 = orient(c, d, a), orient(c, d, b)
    d3, d4 = orient(a, b, c), orient(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return ((abs(d1) < 1e-12 and on(c, d, a)) or (abs(d2) < 1e-12 and on(c, d, b))
            or (abs(d3) < 1e-12 and on(a, b, c)) or (abs(d4) < 1e-12 and on(a, b, d)))


def polyline_length(points: Iterable[Point]) -> float:
    pts = list(points)
    return sum(dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))


def merge_rects(rects: list[Rect]) -> list[Rect]:
    """Join rectangles that lie on the same line with the same thickness and touch or overlap
    end to end (two Wall pieces in a row become one), so no line can slip through a joint."""
    out: list[Rect] = []
    groups: dict[tuple[str, float, float], list[Rect]] = {}
    rest: list[Rect] = []
    for r in rects:
        if r.width >= r.height:
            groups.setdefault(("h", round(r.y0, 9), round(r.y1, 9)), []).append(r)
        else:
            groups.setdefault(("v", round(r.x0, 9), round(r.x1, 9)), []).append(r)
    for (axis, _, _), members in groups.items():
        if axis == "h":
            members.sort(key=lambda r: r.x0)
            cur = members[0]
            for r in members[1:]:
                if r.x0 <= cur.x1 + 1e-9:
                    cur = Rect(cur.x0, cur.y0, max(cur.x1, r.x1), cur.y1)
                else:
                    out.append(cur)
                    cur = r
            out.append(cur)
        else:
            members.sort(key=lambda r: r.y0)
            cur = members[0]
            for r in members[1:]:
                if r.y0 <= cur.y1 + 1e-9:
                    cur = Rect(cur.x0, cur.y0, cur.x1, max(cur.y1, r.y1))
                else:
                    out.append(cur)
                    cur = r
            out.append(cur)
    return out + rest
