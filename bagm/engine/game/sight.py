"""What models can see (Rules Adaptations "Visibility": a model sees another when a straight
line joins their bases without crossing a Wall, a closed Hatchway or another model's base) and
the Benefit of Cover, kept per positions and Hatchway states."""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING, Any

from bagm.engine.board.geometry import Base, Block, merge_rects, point_segment_distance
from bagm.engine.board.visibility import _walled_off
from bagm.engine.game import kept, positions
from bagm.engine.state.army import Unit

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


def _no_disc_on_line(ax: float, ay: float, bx: float, by: float, discs: list[Base]) -> bool:
    """No disc's centre is nearer the segment a-b than its radius: ``point_segment_distance``
    written out for one segment and many points (a hot path; the same arithmetic)."""
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    hypot = math.hypot
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
        if d < m.radius:
            return False
    return True


def visible_idx(g: GameInterface, observer: Unit, target: Unit) -> list[int]:
    """Models of ``target`` visible to ``observer`` (Rules Adaptations "Visibility"):
    the same answer as :meth:`Battlefield.visible_models`, faster. Walls-only visibility
    of a pair of bases is kept across moves (keyed on both positions and the Hatchways);
    models of other units are looked at only when one lies near the line between them."""
    key = ("vis", observer.uid, target.uid)
    cache = kept._now(g)
    v = cache.get(key)
    if v is None:
        v = cache[key] = _visible_kept(g, observer, target)
    return v


def _visible_kept(g: GameInterface, observer: Unit, target: Unit) -> list[int]:
    """:meth:`visible_idx` kept while neither unit has moved, nor any unit that comes near
    the box of both (nor a Hatchway): the units whose bounding boxes reach a box larger than
    the one _visible_key() looks in (by a radius and some slack) are named with their
    stamps, so the answer kept is the one _visible_key() would find."""
    r = max(observer.radius, target.radius) + 1e-3
    ox0, oy0, ox1, oy1 = positions.bbox(g, observer)
    tx0, ty0, tx1, ty1 = positions.bbox(g, target)
    x0, y0 = min(ox0, tx0) - r, min(oy0, ty0) - r
    x1, y1 = max(ox1, tx1) + r, max(oy1, ty1) + r
    near = []
    kept.stamp(g, observer)  # brings every stamp up to date: read directly below
    bbox, stamps = partial(positions.bbox, g), g._stamps
    for u in g.units.values():
        if u.where == "board" and u.models and u is not observer and u is not target:
            ux0, uy0, ux1, uy1 = bbox(u)
            if ux1 >= x0 and ux0 <= x1 and uy1 >= y0 and uy0 <= y1:
                near.append((u.uid, stamps[u.uid]))
    k = ("vis", observer.uid, kept.stamp(g, observer), target.uid, kept.stamp(g, target),
         positions.closed(g), tuple(near))
    got = g._by_stamp.get(k)
    if got is None:
        got = g._by_stamp[k] = (kept._geo(g, _visible_key(g, observer, target),
                                             lambda: _visible_now(g, observer, target)),)
    return got[0]


def _visible_key(g: GameInterface, observer: Unit, target: Unit) -> tuple[Any, ...]:
    """What :meth:`_visible_now` depends on: a key for answers kept across moves and games."""
    po, pt = kept.positions(observer), kept.positions(target)
    xs = po[0:-1:2] + pt[0:-1:2]
    ys = po[1:-1:2] + pt[1:-1:2]
    r = max(observer.radius, target.radius)
    x0, x1, y0, y1 = min(xs) - r, max(xs) + r, min(ys) - r, max(ys) + r
    by = tuple(sorted((m.x, m.y, m.r) for u in g.units.values() if u.where == "board"
                      and u is not observer and u is not target for m in u.models
                      if x0 - m.r < m.x < x1 + m.r and y0 - m.r < m.y < y1 + m.r))
    return ("vis", po, pt, positions.closed(g), by)


def _visible_now(g: GameInterface, observer: Unit, target: Unit) -> list[int]:
    """:meth:`visible_idx` worked out."""
    if walled_off(g, positions.disc(g, observer), positions.disc(g, target)):
        return []
    obs = observer.bases
    tbs = target.bases
    # Only a model near the box of both units' centres can come within reach of a line
    # between two of them (the tests below: within its radius, or within the larger base
    # radius plus its own): the others are left out (a hair of slack against rounding).
    xs = [b.x for b in obs] + [b.x for b in tbs]
    ys = [b.y for b in obs] + [b.y for b in tbs]
    reach = max(b.radius for b in obs + tbs) + 1e-6
    bx0, bx1, by0, by1 = min(xs) - reach, max(xs) + reach, min(ys) - reach, max(ys) + reach
    by = [m for m in positions.others_bases(g, observer, target)
          if bx0 - m.radius < m.x < bx1 + m.radius and by0 - m.radius < m.y < by1 + m.radius]
    clear = g.bf.graph().clear
    # the models that may block each observer's lines, built once (not per target)
    blockers = [(o, by + [x for x in obs if x is not o]) for o in obs]
    out = []
    for k, t in enumerate(tbs):
        # a quick proof: the line between the centres is free
        tx, ty = t.x, t.y
        if any(clear(o.x, o.y, tx, ty) and _no_disc_on_line(o.x, o.y, tx, ty, others)
               for o, others in blockers):
            out.append(k)
            continue
        for o, others in blockers:
            if _pair_visible(g, o, t, others):
                out.append(k)
                break
    return out


def _merged_blocks(g: GameInterface) -> list[Any]:
    """Walls, Hatchway frames and closed Hatches merged into whole lines (their union), and
    Pillars: the shapes for a quick proof that two bases cannot see each other."""
    key = ("merged", positions.closed(g))
    out = g._geo_cache.get(key)
    if out is None:
        lay = g.bf.layout
        rects = [w.rect for w in lay.walls] + [f for h in lay.hatchways for f in h.frames] + \
            [h.door for h in lay.hatchways if not g.bf.is_open(h.index)]
        out = [Block.rect(r) for r in merge_rects(rects)] + [Block.rect(x.rect) for x in lay.pillars]
        g._geo_cache[key] = out
    return out


def walled_off(g: GameInterface, a: Base, b: Base) -> bool:
    """One whole Wall line cuts every straight line between the two discs."""
    x0, x1 = min(a.x - a.radius, b.x - b.radius), max(a.x + a.radius, b.x + b.radius)
    y0, y1 = min(a.y - a.radius, b.y - b.radius), max(a.y + a.radius, b.y + b.radius)
    near = [o for o in _merged_blocks(g) if not (o.x1 <= x0 or o.x0 >= x1 or o.y1 <= y0 or o.y0 >= y1)]
    return bool(near) and _walled_off(a, b, near)


def _pair_visible(g: GameInterface, o: Base, t: Base, others: list[Base]) -> bool:
    key = (o.x, o.y, o.radius, t.x, t.y, t.radius, positions.closed(g))
    walls = g._wall_vis.get(key)
    if walls is None:
        if len(g._wall_vis) > 200000:
            g._wall_vis.clear()
        walls = not walled_off(g, o, t) and g.bf.visible(o, t, ())
        g._wall_vis[key] = walls
    if not walls:
        return False
    reach = max(o.radius, t.radius)
    oc, tc = (o.x, o.y), (t.x, t.y)
    near = [m for m in others if point_segment_distance((m.x, m.y), oc, tc) < reach + m.radius]
    if not near:
        return True
    # the same pair with the same models in the way comes back (a third of the time)
    return kept._geo(g, ("pv", key, tuple(near)), lambda: g.bf.visible(o, t, near))


def _cover(g: GameInterface, target: Base, u: Unit, t: Unit) -> bool:
    """Benefit of Cover (Rules Adaptations): unless fully visible to a model of the unit."""
    xs = [m.x for m in u.models] + [target.x]
    ys = [m.y for m in u.models] + [target.y]
    r = max(u.radius, target.radius)
    x0, x1, y0, y1 = min(xs) - r, max(xs) + r, min(ys) - r, max(ys) + r
    by = tuple(sorted((b.x, b.y, b.radius) for b in positions.others_bases(g, u, t)
                      if x0 - b.radius < b.x < x1 + b.radius and y0 - b.radius < b.y < y1 + b.radius))
    key = ("cover", target.x, target.y, target.radius, kept.positions(u), positions.closed(g), by)
    return kept._geo(g, key, lambda: g.bf.has_cover(target, u.bases, [Base(*b) for b in by]))
