"""What models can see (Rules Adaptations "Visibility": a model sees another when a straight
line joins their bases without crossing a Wall, a closed Hatchway or another model's base) and
the Benefit of Cover, kept per positions and Hatchway states."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bagm.engine.board.geometry import Base, Block, discs_near_segment, merge_rects
from bagm.engine.board.visibility import _walled_off
from bagm.engine.game import kept, positions
from bagm.engine.state.army import Unit

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


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
    """:meth:`visible_idx` kept across moves and games on what it depends on
    (:func:`_visible_key`). Where no line between the two units' models passes the Walls and
    closed Hatchways alone, that is kept on both units' positions and the Hatchways: the
    answer is then none, wherever the other models stand (more than half the new questions
    that find none ask again of a pair already seen, other models having moved)."""
    po, pt = kept.positions(observer), kept.positions(target)
    shut = positions.closed(g)
    walls = ("unseen", po, pt, shut)
    cache = g._geo_cache
    if walls in cache:
        return []
    got = cache.get(key := _visible_key(g, observer, target, po, pt, shut))
    if got is None:
        got, hidden = _visible_now(g, observer, target)
        if len(cache) > 100000:
            cache.clear()
        cache[key] = got
        if hidden:
            cache[walls] = True
    return got  # type: ignore[no-any-return]


def _visible_key(g: GameInterface, observer: Unit, target: Unit, po: tuple[float, ...],
                 pt: tuple[float, ...], shut: int) -> tuple[Any, ...]:
    """What :meth:`_visible_now` depends on: both units' positions (``po``, ``pt``), the
    Hatchways (``shut``) and the models of other units near the box of both (those that can
    lie across a line between them); a key for answers kept across moves and games. A unit
    whose bounding box (bases included, by its largest base) stays off that box has no such
    model."""
    xs = po[0:-1:2] + pt[0:-1:2]
    ys = po[1:-1:2] + pt[1:-1:2]
    r = max(observer.radius, target.radius)
    x0, x1, y0, y1 = min(xs) - r, max(xs) + r, min(ys) - r, max(ys) + r
    return ("vis", po, pt, shut, _models_in(g, x0, y0, x1, y1, observer, target))


def _models_in(g: GameInterface, x0: float, y0: float, x1: float, y1: float, a: Unit, b: Unit
               ) -> tuple[tuple[float, float, float], ...]:
    """(x, y, radius) of each model on the battlefield, but those of units ``a`` and ``b``,
    whose base reaches into the box x0-x1, y0-y1 (its centre nearer than its radius to the
    inside), sorted: a key of the models in the way. A unit whose bounding box (bases
    included, by its largest base) stays off the box has none: it is passed over whole."""
    bbox = positions.bbox
    near = []
    for u in g.units.values():
        if u.where == "board" and u.models and u is not a and u is not b:
            ux0, uy0, ux1, uy1 = bbox(g, u)
            if ux1 > x0 and ux0 < x1 and uy1 > y0 and uy0 < y1:
                near += [(m.x, m.y, m.r) for m in u.models
                         if x0 - m.r < m.x < x1 + m.r and y0 - m.r < m.y < y1 + m.r]
    near.sort()
    return tuple(near)


def _visible_now(g: GameInterface, observer: Unit, target: Unit) -> tuple[list[int], bool]:
    """:meth:`visible_idx` worked out, and whether the Walls and closed Hatchways alone
    hide every model (no line between centres clear of them, no pair of bases seeing each
    other past them: then no other model matters)."""
    if walled_off(g, positions.disc(g, observer), positions.disc(g, target)):
        return [], True
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
    hidden = True  # by the Walls alone, so far
    for k, t in enumerate(tbs):
        # a quick proof: the line between the centres is free
        tx, ty = t.x, t.y
        for o, others in blockers:
            if clear(o.x, o.y, tx, ty):
                hidden = False
                if not discs_near_segment((o.x, o.y), (tx, ty), others):
                    out.append(k)
                    break
        else:
            for o, others in blockers:
                seen = _pair_sight(g, o, t, others)
                if seen:
                    hidden = False
                    if seen == 2:
                        out.append(k)
                        break
    return out, hidden and not out


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


def _pair_sight(g: GameInterface, o: Base, t: Base, others: list[Base]) -> int:
    """2: some line joins the two bases past the Walls, closed Hatchways and the ``others``;
    1: past the Walls and Hatchways only (models are in the way); 0: not even past those."""
    key = (o.x, o.y, o.radius, t.x, t.y, t.radius, positions.closed(g))
    walls = g._wall_vis.get(key)
    if walls is None:
        if len(g._wall_vis) > 200000:
            g._wall_vis.clear()
        walls = not walled_off(g, o, t) and g.bf.visible(o, t, ())
        g._wall_vis[key] = walls
    if not walls:
        return 0
    reach = max(o.radius, t.radius)
    near = discs_near_segment((o.x, o.y), (t.x, t.y), others, reach)
    if not near:
        return 2
    # the same pair with the same models in the way comes back (a third of the time)
    return 2 if kept._geo(g, ("pv", key, tuple(near)), lambda: g.bf.visible(o, t, near)) else 1


def _cover(g: GameInterface, target: Base, u: Unit, t: Unit) -> bool:
    """Benefit of Cover (Rules Adaptations): unless fully visible to a model of the unit."""
    xs = [m.x for m in u.models] + [target.x]
    ys = [m.y for m in u.models] + [target.y]
    r = max(u.radius, target.radius)
    x0, x1, y0, y1 = min(xs) - r, max(xs) + r, min(ys) - r, max(ys) + r
    by = _models_in(g, x0, y0, x1, y1, u, t)
    key = ("cover", target.x, target.y, target.radius, kept.positions(u), positions.closed(g), by)
    return kept._geo(g, key, lambda: g.bf.has_cover(target, u.bases, [Base(*b) for b in by]))
