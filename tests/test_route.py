"""Paths around other models ("Impassable Terrain and Other Models"): the lazy search of
:func:`bagm.engine.board.pathing.route` against its plain reference (one search with every
obstacle), and the cases the rules turn on."""

from __future__ import annotations

import math
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from bagm.engine.board.geometry import polyline_length
from bagm.engine.board.maps import bundled
from bagm.engine.board.pathing import route

R = 0.63  # a 32mm base


@cache
def _graph(closed: int = 0):  # type: ignore[no-untyped-def]
    return bundled(11).layout.move_layer(R).graph(closed)


def _free(p: tuple[float, float]) -> bool:
    return not any(b.touches(p) for b in _graph().blocks)


coord = st.tuples(st.floats(0.7, 43.3), st.floats(0.7, 29.3))


@st.composite
def cases(draw):  # type: ignore[no-untyped-def]
    p = draw(coord.filter(_free))
    q = draw(coord.filter(_free))
    discs = []
    for _ in range(draw(st.integers(0, 6))):
        t = draw(st.floats(0.0, 1.0))
        dx, dy = draw(st.floats(-3, 3)), draw(st.floats(-3, 3))
        x, y = p[0] + (q[0] - p[0]) * t + dx, p[1] + (q[1] - p[1]) * t + dy
        discs.append((x, y, draw(st.floats(1.0, 2.8))))
    return p, q, discs


@settings(max_examples=60, deadline=None)
@given(cases())
def test_route_equals_its_plain_reference(case) -> None:  # type: ignore[no-untyped-def]
    from reference.pathing import route as plain

    p, q, discs = case
    got, want = route(_graph(), p, q, discs), plain(_graph(), p, q, discs)
    assert (got is None) == (want is None)
    if got is not None and want is not None:
        assert math.isclose(polyline_length(got), polyline_length(want), abs_tol=1e-6)
        assert got[0] == p


@settings(max_examples=80, deadline=None)
@given(cases(), st.one_of(st.just(math.inf), st.floats(1.0, 12.0)))
def test_the_search_around_octagons_is_its_plain_reference(case, reach) -> None:  # type: ignore[no-untyped-def]
    """The search with octagons in the way works out the links of the nodes it reaches only:
    the very points of the search that works out every link first (the same ties broken)."""
    from reference.pathing import search as plain

    from bagm.engine.board.pathing import _search, disc_block

    p, q, discs = case
    octagons = [disc_block(d) for d in discs if not disc_block(d).touches(p) and not disc_block(d).touches(q)]
    if not octagons:
        return
    assert _search(_graph(), p, q, octagons, reach) == plain(_graph(), p, q, octagons, reach)


@settings(max_examples=60, deadline=None)
@given(cases(), st.floats(1.0, 12.0))
def test_the_walked_part_of_a_route_enters_no_disc(case, within) -> None:  # type: ignore[no-untyped-def]
    """A move walks at most ``within`` inches: however far the route looks, no circle but those
    around the destination (where it is cut) or holding the start is entered on the way."""
    p, q, discs = case
    got = route(_graph(), p, q, discs, within)
    if got is None:
        return
    walked, left = [got[0]], within
    for a, b in zip(got, got[1:]):
        seg = math.dist(a, b)
        t = min(1.0, left / seg) if seg else 1.0
        walked.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        left -= seg
        if left <= 0:
            break
    near_goal = {d for d in discs if math.dist(d[:2], q) < d[2] * 1.09}  # its octagon may hold q
    for d in discs:
        if d in near_goal or math.dist(d[:2], p) < d[2] * 1.09:
            continue
        for (ax, ay), (bx, by) in zip(walked, walked[1:]):
            # sampled: no point of the walked line strictly inside the circle
            for k in range(101):
                x, y = ax + (bx - ax) * k / 100, ay + (by - ay) * k / 100
                assert math.hypot(x - d[0], y - d[1]) > d[2] - 1e-6


@settings(max_examples=60, deadline=None)
@given(cases())
def test_a_kept_path_between_walls_is_the_plain_reference(case) -> None:  # type: ignore[no-untyped-def]
    """``_Graph.path`` keeps its answer per pair of points: asked again (and after the caller
    changed the list it was given) it is still the shortest path around Walls alone."""
    from reference.pathing import route as plain

    p, q, _ = case
    want = plain(_graph(), p, q, [])
    for _ in range(2):
        got = _graph().path(p, q)
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert math.isclose(polyline_length(got), polyline_length(want), abs_tol=1e-6)
            assert got[0] == p and got[-1] == q
            got.append((0.0, 0.0))  # the caller's own list: the kept answer does not change


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.floats(-1.0, 45.0), st.floats(-1.0, 31.0)), st.sampled_from([0.0, 0.5, 0.63, 1.0]),
       st.integers(0, 3), st.sampled_from(["", "x", "y"]), st.integers(0, 10_000))
def test_the_corners_seen_from_a_point_are_their_plain_reference(p, radius, rounding, on, corner) -> None:  # type: ignore[no-untyped-def]
    """The corners seen from a point (each shape tried only where its box reaches into the
    quarter the corner lies in) are those every shape is tried for, on every layer of a map
    with Hatchways (the tape measure's and bases'), from anywhere (on a grid the maps are
    drawn on, on a corner's own x or y)."""
    from reference.pathing import seen_masked as plain

    from bagm.engine.board.pathing import Layer

    layout = bundled(11).layout
    layer = layout.measure_layer if radius == 0.0 else layout.move_layer(radius)
    if rounding:  # on the corners' own lines: the grid the maps are drawn on
        p = (round(p[0] * 2 ** rounding) / 2 ** rounding, round(p[1] * 2 ** rounding) / 2 ** rounding)
    if on:  # on a corner's own x or y (a line from p to it runs along a box's side)
        c = layer.vertices[corner % len(layer.vertices)]
        p = (c[0], p[1]) if on == "x" else (p[0], c[1])
    fresh = Layer(layer.static, layer.doors, layer.bounds, layer.portals)  # nothing kept yet
    assert fresh.seen_masked(p) == plain(fresh, p)


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.floats(-1.0, 45.0), st.floats(-1.0, 31.0)), st.sampled_from([0.0, 0.5, 0.63, 1.0]),
       st.integers(0, 2 ** 14 - 1), st.floats(0.5, 14.0), st.sampled_from(["", "x", "y"]), st.integers(0, 10_000))
def test_the_corners_seen_within_reach_are_their_plain_reference(p, radius, closed, reach, on, corner) -> None:  # type: ignore[no-untyped-def]
    """The corners within reach seen from a point (an octagon's corner in a search around
    models), under any set of closed Hatches, are those every shape is tried for."""
    from reference.pathing import seen_near as plain

    from bagm.engine.board.pathing import _Graph

    layout = bundled(11).layout
    layer = layout.measure_layer if radius == 0.0 else layout.move_layer(radius)
    if on:  # on a corner's own x or y (a line from p to it runs along a box's side)
        c = layer.vertices[corner % len(layer.vertices)]
        p = (c[0], p[1]) if on == "x" else (p[0], c[1])
    graph = _Graph(layer, closed)  # nothing kept yet
    assert graph.seen_near(p, reach) == plain(graph, p, reach)


@settings(max_examples=80, deadline=None)
@given(st.tuples(st.floats(0.1, 43.9), st.floats(0.1, 29.9)), st.tuples(st.floats(0.1, 43.9), st.floats(0.1, 29.9)),
       st.sampled_from([0.0, 0.63, 1.0]), st.integers(0, 2 ** 14 - 1), st.booleans())
def test_a_point_is_reachable_when_a_path_leads_there(p, q, radius, closed, kept) -> None:  # type: ignore[no-untyped-def]
    """Whether a path leads from one point to another, found by the parts of the graph the
    corners each sees lie in, is whether the shortest path is found (under any set of closed
    Hatches, from inside shapes too: no path), asked before the path and after it."""
    from bagm.engine.board.pathing import _Graph

    layout = bundled(11).layout
    layer = layout.measure_layer if radius == 0.0 else layout.move_layer(radius)
    graph = _Graph(layer, closed)  # nothing kept yet
    if kept:
        want = graph.path(p, q) is not None
        assert graph.reachable(p, q) == want
    else:
        got = graph.reachable(p, q)
        assert got == (graph.path(p, q) is not None)
