"""The plain references of :func:`bagm.engine.board.visibility.point_sees_base`, ``visible``,
``fully_visible`` and of :func:`bagm.engine.game.sight.visible_idx`.

The library's ``_sees`` is written on plain numbers for speed; this is the same exact test read
as the docstring of ``visibility`` says it: seen from the point, the target's base covers an arc
of directions; every Wall, closed Hatchway or model in front of it hides part of that arc (one ray
through the middle of an overlap tells which is in front); the point sees the base when some of
the arc is left. A base sees another when its centre or one of its rim points does
(``visible``); the models of a unit a unit sees are found pair of bases by pair of bases
(``visible_models``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from bagm.engine.board.geometry import EPS, Base, Block, Point
from bagm.engine.board.visibility import SAMPLES
from reference.geometry import discs_near_segment, nearer_than, rim


def wrap(a: float) -> float:
    """An angle in (-pi, pi]."""
    a = math.fmod(a + math.pi, 2 * math.pi)
    if a <= 0:
        a += 2 * math.pi
    return a - math.pi


def ray_enters_block(px: float, py: float, ux: float, uy: float, o: Block) -> float:
    """Distance along the ray p + t*u (t >= 0) at which it enters block ``o`` (inf if never)."""
    t0, t1 = 0.0, math.inf
    slabs = [(px, ux, o.x0, o.x1), (py, uy, o.y0, o.y1)]
    if not o.is_rect:
        slabs += [(px + py, ux + uy, o.u0, o.u1), (px - py, ux - uy, o.v0, o.v1)]
    for s, d, lo, hi in slabs:
        lo, hi = lo + EPS, hi - EPS
        if d == 0.0:
            if s <= lo or s >= hi:
                return math.inf
            continue
        ta, tb = sorted(((lo - s) / d, (hi - s) / d))
        t0, t1 = max(t0, ta), min(t1, tb)
        if t0 >= t1:
            return math.inf
    return t0


def ray_enters_disk(px: float, py: float, ux: float, uy: float, b: Base) -> float:
    cx, cy = b.x - px, b.y - py
    along = cx * ux + cy * uy
    off2 = cx * cx + cy * cy - along * along
    r2 = b.radius * b.radius
    if off2 >= r2:
        return math.inf
    return max(0.0, along - math.sqrt(r2 - off2))


def _spans(rel: list[float]) -> list[tuple[float, float]]:
    lo, hi = min(rel), max(rel)
    if hi - lo <= math.pi:
        return [(lo, hi)]
    rel = [a + 2 * math.pi if a < 0 else a for a in rel]  # across the direction behind
    lo, hi = min(rel), max(rel)
    return [(lo, hi), (lo - 2 * math.pi, hi - 2 * math.pi)]


def point_sees_base(p: Point, target: Base, blocks: Sequence[Block], disks: Sequence[Base] = ()) -> bool:
    px, py = p
    d = math.hypot(target.x - px, target.y - py)
    if d <= target.radius + EPS:
        return True
    phi = math.atan2(target.y - py, target.x - px)
    alpha = math.asin(min(1.0, target.radius / d))
    shadows: list[tuple[float, float]] = []

    def shade(lo: float, hi: float, enters_at: Callable[[float, float], float]) -> None:
        """The shape hides the overlap of its arc with the target's, if it is in front."""
        lo, hi = max(lo, -alpha), min(hi, alpha)
        if hi - lo <= 1e-12:
            return
        mid = phi + (lo + hi) / 2
        ux, uy = math.cos(mid), math.sin(mid)
        t = enters_at(ux, uy)
        if t < ray_enters_disk(px, py, ux, uy, target):
            shadows.append((lo, hi))

    for o in blocks:
        if o.contains(p):
            return False
        rel = [wrap(math.atan2(y - py, x - px) - phi) for x, y in o.corners()]
        for lo, hi in _spans(rel):
            shade(lo, hi, lambda ux, uy, o=o: ray_enters_block(px, py, ux, uy, o))
    for m in disks:
        dm = math.hypot(m.x - px, m.y - py)
        if dm <= m.radius - EPS:
            return False
        if dm <= EPS:
            continue
        rel_m = wrap(math.atan2(m.y - py, m.x - px) - phi)
        beta = math.asin(min(1.0, max(0.0, m.radius - EPS) / dm))
        shade(rel_m - beta, rel_m + beta, lambda ux, uy, m=m: ray_enters_disk(px, py, ux, uy, m))
    shadows.sort()
    reach = -alpha
    for lo, hi in shadows:
        if lo > reach + 1e-9:
            return True
        reach = max(reach, hi)
    return reach < alpha - 1e-9


def _near(a: Base, b: Base, blocks: Sequence[Block], disks: Sequence[Base]) -> tuple[list[Block], list[Base]]:
    """The shapes and models near the segment joining the two bases' centres (within the
    larger radius), each measured alone."""
    reach = max(a.radius, b.radius)
    return ([o for o in blocks if nearer_than(o, a.centre, b.centre, reach - EPS)],
            discs_near_segment(a.centre, b.centre, disks, reach, EPS))


def visible(observer: Base, target: Base, blocks: Sequence[Block], disks: Sequence[Base] = ()) -> bool:
    """The plain reading of :func:`bagm.engine.board.visibility.visible`: the centre or a rim
    point of the observer sees the target's base past the shapes and models near the line
    between them (none near: visible). No quick proof: the library's (``_walled_off``, a shape
    that walls the two bases off) is checked against these samples, not shared with them."""
    near_blocks, near_disks = _near(observer, target, blocks, disks)
    if not near_blocks and not near_disks:
        return True
    return any(point_sees_base(p, target, near_blocks, near_disks)
               for p in [observer.centre] + rim(observer, SAMPLES))


def fully_visible(observer: Base, target: Base, blocks: Sequence[Block], disks: Sequence[Base] = ()) -> bool:
    """The plain reading of :func:`bagm.engine.board.visibility.fully_visible`: the centre and
    every rim point of the target see the observer's base (no quick proof, as in ``visible``)."""
    near_blocks, near_disks = _near(observer, target, blocks, disks)
    if not near_blocks and not near_disks:
        return True
    return all(point_sees_base(p, observer, near_blocks, near_disks)
               for p in [target.centre] + rim(target, SAMPLES))


def visible_models(g: Any, observer: Any, target: Any) -> list[int]:
    """The plain reference of :func:`bagm.engine.game.sight.visible_idx`: the models of
    ``target`` some model of ``observer`` sees, each pair of bases tested with every other
    model on the battlefield in the way (the observer's other models included), nothing kept
    and no quick proof (:meth:`Battlefield.visible_models`)."""
    others = [m.base for u in g.units.values() if u.where == "board" and u is not observer
              and u is not target for m in u.models]
    return g.bf.visible_models([m.base for m in observer.models], [m.base for m in target.models], others)
