"""Lines of sight between round bases ("Visibility" in the Boarding Actions Rules Adaptations).

A model is visible when some straight line joins its base to the observer's base without
passing through a Wall, a closed Hatchway, or a model that is not part of the target's unit; it
is fully visible when every point of its base can be joined to some point of the observer's.

The test from one point to a whole base is exact: seen from the point, the base covers an arc
of directions; every shape in front of the base hides part of that arc; the point sees the base
when some of the arc is left. (Two disjoint convex shapes never swap places in front of each
other, so one ray per overlap tells which is in front.) Bases are then sampled: ``SAMPLES``
points on the rim plus the centre.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Sequence

from bagm.engine.board.geometry import EPS, Base, Block, Point, box_distance, discs_near_segment

SAMPLES = 24  # points on a rim tried (plus the centre); 4.8mm apart on a 40mm base
_TWO_PI = 2 * math.pi


# A block prepared for point_sees_base: its slab bounds shrunk by EPS (the same numbers
# Block.contains and the ray clipping compute), whether it is a plain rectangle, its corners.
Prepared = tuple[float, float, float, float, float, float, float, float, bool, list[Point]]


def prepare(blocks: Sequence[Block]) -> list[Prepared]:
    """The blocks as plain tuples, built once for the many points one visibility test tries."""
    return [(o.x0 + EPS, o.x1 - EPS, o.y0 + EPS, o.y1 - EPS, o.u0 + EPS, o.u1 - EPS,
             o.v0 + EPS, o.v1 - EPS, o.is_rect, o.corners()) for o in blocks]


# A model's base prepared for point_sees_base: its centre, its radius less EPS (and that at
# least 0), its radius squared (the numbers the shadow of a disk is worked out from).
PreparedDisk = tuple[float, float, float, float, float]


def prepare_disks(disks: Sequence[Base]) -> list[PreparedDisk]:
    """The bases as plain tuples, built once for the many points one visibility test tries."""
    return [(m.x, m.y, m.radius - EPS, max(0.0, m.radius - EPS), m.radius * m.radius) for m in disks]


def point_sees_base(p: Point, target: Base, blocks: Sequence[Block],
                    disks: Sequence[Base] = ()) -> bool:
    """Some straight line from point ``p`` reaches ``target``'s base unblocked (exact)."""
    return _sees(p[0], p[1], target, prepare(blocks), prepare_disks(disks))


def _sees(px: float, py: float, target: Base, blocks: list[Prepared], disks: list[PreparedDisk]) -> bool:
    """:func:`point_sees_base` on prepared blocks, the one implementation (a hot path: angles,
    Block.contains and the ray tests are written on plain numbers). Its plain reference, step by
    step with helper functions, is ``tests/reference/visibility.py``; a property test holds the
    two equal."""
    tx, ty, tr = target.x, target.y, target.radius
    cx, cy = tx - px, ty - py
    d = math.hypot(cx, cy)
    if d <= tr + EPS:
        return True
    atan2, cos, sin, fmod, sqrt, pi, inf = math.atan2, math.cos, math.sin, math.fmod, math.sqrt, math.pi, math.inf
    two_pi = _TWO_PI
    phi = atan2(cy, cx)
    alpha = math.asin(min(1.0, tr / d))
    neg_alpha = -alpha
    r2t = tr * tr
    shadows: list[tuple[float, float]] = []
    # Models first, then shapes: the answer does not depend on the order (every way out early
    # answers "not seen", and the shadows are sorted before the sweep), and a model in front
    # often hides the whole arc alone (then no shape's corners are measured).
    front = d - tr - 1e-3  # (a margin far above the rounding of the ray tests below)
    for m_x, m_y, r_in, r_shadow, r2 in disks:
        mx, my = m_x - px, m_y - py
        dm = math.hypot(mx, my)
        if dm <= r_in:
            return False
        if dm <= EPS:
            continue
        a = fmod(atan2(my, mx) - phi + pi, two_pi)  # in (-pi, pi]
        if a <= 0:
            a += two_pi
        rel_m = a - pi
        beta = math.asin(min(1.0, r_shadow / dm))
        lo, hi = rel_m - beta, rel_m + beta
        if neg_alpha > lo:
            lo = neg_alpha
        if alpha < hi:
            hi = alpha
        if hi - lo <= 1e-12:
            continue
        if dm < front:
            # the model's centre is nearer than any point of the target: the ray through the
            # middle of the overlap enters the model (it passes within its radius less EPS of
            # the centre) at most dm along, before the target (at least d - tr along)
            if lo == neg_alpha and hi == alpha:
                return False  # one shadow hides the whole arc
            shadows.append((lo, hi))
            continue
        mid = phi + (lo + hi) / 2
        ux, uy = cos(mid), sin(mid)
        # where the ray enters the model, then the target
        along = mx * ux + my * uy
        off2 = mx * mx + my * my - along * along
        if off2 >= r2:
            continue  # never enters the model: inf < x is never true
        tm = along - sqrt(r2 - off2)
        if tm < 0:
            tm = 0.0
        along = cx * ux + cy * uy
        off2 = cx * cx + cy * cy - along * along
        if off2 < r2t:
            t = along - sqrt(r2t - off2)
            if t < 0:
                t = 0.0
            if not tm < t:
                continue
        if lo == neg_alpha and hi == alpha:
            return False  # one shadow hides the whole arc
        shadows.append((lo, hi))
    pu, pv = px + py, px - py
    for x0, x1, y0, y1, u0, u1, v0, v1, is_rect, corners in blocks:
        if x0 < px < x1 and y0 < py < y1 and u0 < pu < u1 and v0 < pv < v1:
            return False  # p inside the shape (Block.contains)
        rel = []
        for x, y in corners:  # the angle from the target direction, in (-pi, pi]
            a = fmod(atan2(y - py, x - px) - phi + pi, two_pi)
            if a <= 0:
                a += two_pi
            rel.append(a - pi)
        lo, hi = min(rel), max(rel)
        if hi - lo > pi:  # the shape lies across the direction opposite the target
            rel = [a + two_pi if a < 0 else a for a in rel]
            lo, hi = min(rel), max(rel)
            spans: tuple[tuple[float, float], ...] = ((lo, hi), (lo - two_pi, hi - two_pi))
        else:
            spans = ((lo, hi),)
        for lo, hi in spans:
            if neg_alpha > lo:
                lo = neg_alpha
            if alpha < hi:
                hi = alpha
            if hi - lo <= 1e-12:
                continue
            mid = phi + (lo + hi) / 2
            ux, uy = cos(mid), sin(mid)
            # where the ray enters the block: clipping against each slab
            t0, t1 = 0.0, inf
            for s, dd, slo, shi in ((px, ux, x0, x1), (py, uy, y0, y1)) if is_rect else \
                    ((px, ux, x0, x1), (py, uy, y0, y1), (pu, ux + uy, u0, u1), (pv, ux - uy, v0, v1)):
                if dd == 0.0:
                    if s <= slo or s >= shi:
                        t0 = inf
                        break
                    continue
                ta, tb = (slo - s) / dd, (shi - s) / dd
                if ta > tb:
                    ta, tb = tb, ta
                if ta > t0:
                    t0 = ta
                if tb < t1:
                    t1 = tb
                if t0 >= t1:
                    t0 = inf
                    break
            if t0 == inf:
                continue  # the ray never enters the block: no shadow (inf < x is never true)
            # where it enters the target
            along = cx * ux + cy * uy
            off2 = cx * cx + cy * cy - along * along
            if off2 < r2t:
                t = along - sqrt(r2t - off2)
                if t < 0:
                    t = 0.0
                if not t0 < t:
                    continue
            # (the ray misses the target: the target's distance is inf, and t0 < inf)
            if lo == neg_alpha and hi == alpha:
                return False  # one shadow hides the whole arc: the sweep below would say so
            shadows.append((lo, hi))
    if not shadows:
        return True
    shadows.sort()
    reach = neg_alpha
    for lo, hi in shadows:
        if lo > reach + 1e-9:
            return True
        reach = max(reach, hi)
    return reach < alpha - 1e-9


def _in_the_way(a: Base, b: Base, blocks: Sequence[Block], disks: Sequence[Base]
                ) -> tuple[list[Block], list[Base]]:
    """The shapes and models that could lie across some line between the two bases (those
    near the segment joining their centres)."""
    reach = max(a.radius, b.radius)
    ca, cb = a.centre, b.centre
    lox, hix = min(a.x, b.x) - reach, max(a.x, b.x) + reach
    loy, hiy = min(a.y, b.y) - reach, max(a.y, b.y) + reach
    near_blocks = [o for o in blocks
                   if not (o.x1 <= lox or o.x0 >= hix or o.y1 <= loy or o.y0 >= hiy)
                   and o.nearer_than(ca, cb, reach - EPS)]
    near_disks = discs_near_segment(ca, cb, disks, reach, EPS)
    return near_blocks, near_disks


def visible(observer: Base, target: Base, blocks: Sequence[Block],
            disks: Sequence[Base] = ()) -> bool:
    """Some line joins the two bases without crossing ``blocks`` or ``disks`` (the models
    that are neither the observer nor in the target's unit)."""
    near_blocks, near_disks = _in_the_way(observer, target, blocks, disks)
    if not near_blocks and not near_disks:
        return True
    if _walled_off(observer, target, near_blocks):
        return False
    prep, bases = prepare(near_blocks), prepare_disks(near_disks)  # once for the up to 25 points tried
    if _sees(observer.x, observer.y, target, prep, bases):
        return True
    return any(_sees(x, y, target, prep, bases) for x, y in _rim(observer))


def fully_visible(observer: Base, target: Base, blocks: Sequence[Block],
                  disks: Sequence[Base] = ()) -> bool:
    """Every point of the target's base can be joined to some point of the observer's."""
    near_blocks, near_disks = _in_the_way(observer, target, blocks, disks)
    if not near_blocks and not near_disks:
        return True
    if _walled_off(observer, target, near_blocks):
        return False
    prep, bases = prepare(near_blocks), prepare_disks(near_disks)  # once for the up to 25 points tried
    if not _sees(target.x, target.y, observer, prep, bases):
        return False
    return all(_sees(x, y, observer, prep, bases) for x, y in _rim(target))


def _outer_tangents(a: Base, b: Base) -> list[tuple[Point, Point]]:
    """The two segments touching both bases on the outside of the pair."""
    dx, dy = b.x - a.x, b.y - a.y
    d = math.hypot(dx, dy)
    if d <= abs(a.radius - b.radius) + EPS:
        return []
    ux, uy = dx / d, dy / d
    c = (a.radius - b.radius) / d
    s = math.sqrt(max(0.0, 1 - c * c))
    out = []
    for sign in (1, -1):
        nx, ny = c * ux - sign * s * uy, c * uy + sign * s * ux
        out.append(((a.x + a.radius * nx, a.y + a.radius * ny), (b.x + b.radius * nx, b.y + b.radius * ny)))
    return out


def _walled_off(a: Base, b: Base, blocks: Sequence[Block]) -> bool:
    """One convex shape crosses both outer tangents and the line between the centres, and
    reaches into neither disc: it then cuts every line between the two discs (a quick proof
    that nothing is visible). Why: the shape holds a chord from one tangent to the other, which
    cuts the hull of the two discs in two, one disc's rim on each side; a disc the shape does
    not reach into lies wholly on its own side. (A shape reaching into a disc proves nothing:
    a unit's disc with models on both sides of a closed Hatchway, the models on the far side
    seeing past it.) A model's base never reaches into a Wall; the disc holding a whole unit may."""
    tangents = _outer_tangents(a, b)
    if not tangents:
        return False
    (p1, q1), (p2, q2) = tangents
    for o in blocks:
        if (o.blocks(a.x, a.y, b.x, b.y) and o.blocks(p1[0], p1[1], q1[0], q1[1])
                and o.blocks(p2[0], p2[1], q2[0], q2[1])
                # (the box's distance: no more than the shape's, so never too far)
                and box_distance(o.x0, o.y0, o.x1, o.y1, (a.x, a.y)) >= a.radius
                and box_distance(o.x0, o.y0, o.x1, o.y1, (b.x, b.y)) >= b.radius):
            return True
    return False


def _rim(base: Base) -> list[Point]:
    """Sample points on the rim, a hair inside it so that a base touching a Wall is never
    taken to stand on the Wall's edge (``Base.edge_points`` of that smaller base: the same
    numbers, the offsets from the centre worked out once per radius)."""
    x, y = base.x, base.y
    return [(x + dx, y + dy) for dx, dy in _rim_offsets(base.radius * (1 - 1e-6))]


@cache
def _rim_offsets(r: float) -> tuple[Point, ...]:
    """The offsets of ``Base.edge_points(SAMPLES)`` from the centre of a base of radius ``r``."""
    step = 2 * math.pi / SAMPLES
    return tuple((r * math.cos(i * step), r * math.sin(i * step)) for i in range(SAMPLES))
