"""Plain references of answers the game keeps on the units' stamps (:mod:`bagm.engine.game.positions`,
:mod:`bagm.engine.game.moments`, :mod:`bagm.engine.game.control`, :mod:`bagm.engine.game.hatchways`):
the same answers worked out from the battlefield as it stands, every time, nothing kept."""

from __future__ import annotations

import math
from typing import Any

from bagm.engine.board.battlefield import ENGAGEMENT_RANGE
from bagm.engine.board.geometry import Base, polyline_length
from bagm.engine.board.pathing import cut_at_discs
from bagm.engine.game import deployment, positions
from bagm.engine.rules.effects import effect_sum, engaged_oc_mod, holds_in, moves_through
from bagm.engine.state.core import COHERENCY, GAP, HEX, _along


def move_discs(g: Any, u: Any, kind: str, targets: tuple[str, ...] = ()) -> tuple[tuple[float, float, float], ...]:
    """What the centre of a moving model of ``u`` may not enter: every other unit's models as
    discs grown by the mover's radius, and by Engagement Range for enemy units whose Engagement
    Range keeps it out on this move (not shut off behind closed Hatchways)."""
    r = u.radius
    out = []
    through = u.affected and any(e.move_through for e in u.setting("move_through"))
    doors = [h.door for h in g.map.layout.hatchways if not g.bf.is_open(h.index)]
    for v in g.units.values():
        if v is u or v.where != "board":
            continue
        if through and moves_through(u, v, kind):
            continue
        enemy = v.player != u.player
        if enemy and kind == "fallback":
            continue
        er = enemy and (kind in ("normal", "advance") or kind == "charge" and v.uid not in targets)
        if er and doors and any(d.distance_to((m.x, m.y)) <= m.r + r + ENGAGEMENT_RANGE for d in doors for m in v.models):
            a, b = u.models[0], v.models[0]
            er = g.bf.path((a.x, a.y), (b.x, b.y)) is not None
        grow = r + (ENGAGEMENT_RANGE if er else 0.0)
        out += [(m.x, m.y, m.r + grow) for m in v.models]
    return tuple(out)


def formation(g: Any, unit: Any, anchor: tuple[float, float], n: int, *, zone: Any = None,
              avoid: list[Any] | None = None, enemy_gap: float | None = ENGAGEMENT_RANGE,
              ds_gap: float | None = None, within: tuple[Any, float] | None = None,
              barred: tuple[Any, ...] = (), discs: tuple[tuple[float, float, float], ...] = ()
              ) -> list[tuple[float, float]] | None:
    """``n`` places for models of ``unit`` around ``anchor``, tried ring by ring on the hex
    grid: each apart from the places chosen and next to one of them (Unit Coherency), clear of
    every other base (``avoid``, else every other model on the battlefield), on the
    battlefield, out of Engagement Range of every enemy model (``enemy_gap``), more than
    ``ds_gap`` from them, within ``within`` of its zone, in none of the ``barred`` areas,
    reached from the anchor in a straight line crossing no Wall and none of ``discs``; with a
    ``zone``, places wholly within it first, then the others nearest the centre. None: no
    ``n`` such places in Unit Coherency."""
    r = unit.radius
    s = 2 * r + GAP
    ax, ay = anchor
    others = positions.others_bases(g, unit) if avoid is None else avoid
    enemies = [m.base for e in g.units.values() if e.player != unit.player and e.where == "board"
               for m in e.models]
    graph = g.bf.layout.move_layer(r).graph(positions.closed(g))
    chosen: list[tuple[float, float]] = []
    spare: list[tuple[float, float]] = []
    for ox, oy in HEX:
        if len(chosen) >= n:
            break
        x, y = ax + ox * s, ay + oy * s
        if chosen and (any(math.hypot(x - cx, y - cy) < 2 * r + 1e-6 for cx, cy in chosen) or
                       not any(math.hypot(x - cx, y - cy) - 2 * r <= COHERENCY for cx, cy in chosen)):
            continue
        if any(math.hypot(x - o.x, y - o.y) < r + o.radius + 1e-6 for o in others):
            continue
        b = Base(x, y, r)
        if not positions.fits(g, b):
            continue
        if enemy_gap is not None and any(g.bf.engaged(b, e) for e in enemies):
            continue
        if ds_gap is not None and any(math.hypot(x - e.x, y - e.y) - r - e.radius <= ds_gap for e in enemies):
            continue
        if within is not None and deployment.zone_gap(g, within[0], (x, y), r) > within[1] + 1e-9:
            continue
        if any(a.within(b) for a in barred):
            continue
        if (ox or oy) and (not graph.clear(ax, ay, x, y) or
                           cut_at_discs([(ax, ay), (x, y)], list(discs))[-1] != (x, y)):
            continue
        if zone is not None and not zone.wholly_within(b):
            spare.append((x, y))
            continue
        chosen.append((x, y))
    if zone is not None:
        for p in spare:
            if len(chosen) >= n:
                break
            if not chosen or any(math.hypot(p[0] - cx, p[1] - cy) - 2 * r <= COHERENCY for cx, cy in chosen):
                chosen.append(p)
    if len(chosen) < n or not positions.coherent(g, chosen, r):
        return None
    return chosen


def plan_move(g: Any, u: Any, to: tuple[float, float], limit: float, kind: str = "normal"
              ) -> tuple[float, list[tuple[float, float]] | None]:
    """Where a move of ``u`` toward ``to`` of up to ``limit`` inches ends (how far the lead
    model goes, where each model stands; None: it cannot move): the lead model (the nearest to
    ``to``) along its route around Walls, closed Hatchways and the move's discs, cut where it
    would come within Engagement Range through an open Hatchway; at each place along it, from
    as far as it goes, the formation there with every model reaching its place along its own
    route, or else the whole unit moved in step with the lead; stepping back 0.5" at a time (or
    at once as far as the farthest model lacks), at most 30 times; failing all, where the
    models stop short heading for the formation tried first."""
    lead = min(u.models, key=lambda m: math.hypot(m.x - to[0], m.y - to[1]))
    discs = move_discs(g, u, kind)
    length, pts = g.bf.move_path(lead.base, to, discs, limit)
    if pts is None:
        return 0.0, None
    cut = positions.cut_at_hatchway_er(g, u, pts, kind)
    if cut != pts:
        pts, length = cut, polyline_length(cut)
    reach = min(limit, length)
    short = None
    for tries in range(30):
        if reach <= 0:
            break
        anchor = _along(pts, reach)
        placed = formation(g, u, anchor, len(u.models), discs=discs)
        whole = (placed and positions.paths_within(g, u, placed, limit, kind, discs, strict=True)) or \
            positions.translated(g, u, (anchor[0] - lead.x, anchor[1] - lead.y), kind, discs)
        if whole:
            return reach, whole
        if tries == 0 and placed:
            short = (reach, placed)
        lack = max(min(math.hypot(m.x - x, m.y - y) for x, y in placed) for m in u.models) - limit \
            if placed else 0.0
        reach -= 0.5 * max(1, math.ceil(lack / 0.5 - 1e-9))
    if short is not None and (got := positions.paths_within(g, u, short[1], limit, kind, discs)):
        return short[0], got
    return 0.0, None


def near_markers(g: Any, u: Any) -> tuple[bool, ...]:
    """For each objective marker, whether a model of ``u`` is within range of it (measured around
    Walls and closed Hatchways)."""
    return tuple(any(g.bf.in_objective_range(m.base, mk) for m in u.models) for mk in g.map.layout.markers)


def secure_markers(g: Any, u: Any) -> list[int]:
    """The objective markers ``u``'s army controls that a model of ``u`` is within range of
    (measured around Walls and closed Hatchways): those it could Secure (Secure Site)."""
    return [i for i, mk in enumerate(g.map.layout.markers)
            if g.control[i] == u.player and any(g.bf.in_objective_range(m.base, mk) for m in u.models)]


def marker_to_secure(g: Any, u: Any, how: str) -> int | None:
    """The first objective marker within range of ``u`` not yet Secured by its army that its army
    controls ('controlled'), or that no enemy unit is within range of ('uncontested')."""
    p = u.player
    for m, mk in enumerate(g.map.layout.markers):
        if g.secured[m] == p or not any(g.bf.in_objective_range(x.base, mk) for x in u.models):
            continue
        if how == "controlled" and g.control[m] != p:
            continue
        if how == "uncontested" and any(g.bf.in_objective_range(x.base, mk)
                                        for v in g.army_units(g.other(p)) for x in v.models):
            continue
        return m
    return None


def levels_of_control(g: Any) -> list[dict[str, int]]:
    """Each player's Level of Control over each objective marker: the OC of each of their models
    within range of it (measured around Walls and closed Hatchways), less what enemy auras take
    (Overwhelming Magnificence, Rad-saturation), never below 0."""
    holds = holds_in(g)
    out = [{"A": 0, "B": 0} for _ in g.map.layout.markers]
    auras = {u.player for u in g.units.values() if u.alive and u.affected
             and (effect_sum(u, "engaged_enemy_OC_mod") or effect_sum(u, "OC_aura_mod"))}
    for u in g.units.values():
        if not u.alive:
            continue
        aura = engaged_oc_mod(g, u) if g.other(u.player) in auras else 0
        for level, mk in zip(out, g.map.layout.markers):
            for m in u.models:
                if g.bf.in_objective_range(m.base, mk):
                    oc = u.oc(m if u.mixed_oc else None, holds)
                    level[u.player] += max(0, oc + aura) if oc else 0
    return out


def hatch_options(g: Any, p: str, breachers: bool = False) -> list[Any]:
    """The Hatchways each unit of ``p`` may operate now: every Hatchway measured from every
    model (no box of the unit's bases to pass over the far ones)."""
    from bagm.engine.game import hatchways, movement
    from bagm.engine.state.actions import Action

    out = []
    for u in g.army_units(p):
        if breachers and not movement.breacher(g, u) or hatchways.hatch_spent(g, u) or positions.engaged_with(g, u):
            continue
        reach = hatchways.hatch_reach(g, u)
        for h in g.map.layout.hatchways:
            if min(h.door.distance_to((m.x, m.y)) - m.r for m in u.models) <= reach + 1e-9 and \
                    hatchways.hatch_reason(g, u, h.index) is None:
                out.append(Action("hatch", u.uid, arg=str(h.index + 1)))
    return out


def engaged_with(g: Any, u: Any) -> list[Any]:
    """The enemy units within Engagement Range of ``u`` (in army order): every pair of their
    models measured on the battlefield as it stands."""
    if not u.alive:
        return []
    return [v for v in g.army_units("B" if u.player == "A" else "A")
            if any(g.bf.engaged(m.base, n.base) for m in u.models for n in v.models)]
