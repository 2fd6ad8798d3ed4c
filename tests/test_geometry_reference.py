"""The optimised segment tests against their plain references (tests/reference/geometry.py):
Block.blocks and the path graph's clear(), on every bundled map's shapes with Hatchways open and
closed, for random segments and for segments that graze corners and edges."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from reference.geometry import clear, discs_near_segment, nearer_than, rim, segment_blocked

from bagm.engine.board import geometry, visibility
from bagm.engine.board.battlefield import Battlefield
from bagm.engine.board.geometry import EPS, Base
from bagm.engine.board.maps import BUNDLED, bundled

FIELDS = [Battlefield(bundled(n).layout) for n in sorted(BUNDLED)]
coord = st.floats(min_value=-2.0, max_value=46.0, allow_nan=False)
# points on a half-inch lattice land exactly on many edges and corners (the boundary cases)
lattice = st.integers(min_value=-4, max_value=92).map(lambda k: k / 2)
point = st.one_of(st.tuples(coord, coord), st.tuples(lattice, lattice))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(range(len(FIELDS))), st.integers(min_value=0), point, point)
def test_clear_is_its_plain_reference(f, closed_bits, a, b):
    bf = FIELDS[f]
    closed = closed_bits & ((1 << len(bf.layout.hatchways)) - 1)
    # the measuring layer (rectangles) and a moving layer (shapes grown into octagons by a base)
    for g in (bf.graph(closed), bf.layout.move_layer(0.63).graph(closed)):
        assert g.clear(*a, *b) == clear(g.blocks, *a, *b)
        for o in g.blocks:
            assert o.blocks(*a, *b) == segment_blocked(o, *a, *b)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(FIELDS))), st.integers(min_value=0), st.lists(point, min_size=0, max_size=5),
       st.booleans())
def test_hatchway_crossed_is_its_plain_reference(f, open_bits, pts, open_only):
    from reference.geometry import hatchway_crossed

    bf = Battlefield(FIELDS[f].layout)
    for h in bf.layout.hatchways:
        bf.set_open(h.index, bool(open_bits >> h.index & 1))
    # and polylines through the openings themselves (their ends, their middles)
    for h in bf.layout.hatchways[:3]:
        (ax, ay), (bx, by) = h.opening
        pts = pts + [((ax + bx) / 2, (ay + by) / 2), (ax, ay)]
    assert bf.hatchway_crossed(pts, open_only) == hatchway_crossed(bf, pts, open_only)


base = st.tuples(coord, coord, st.sampled_from([0.5, 0.63, 0.787, 1.0, 2.0]))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(FIELDS))), st.lists(base, min_size=1, max_size=6), st.integers(min_value=0))
def test_the_bots_door_test_is_its_plain_reference(f, models, k):
    from reference.geometry import door_near as plain

    from bagm.engine.bots.greedy import door_near
    from bagm.engine.state.army import Model

    hatchways = FIELDS[f].layout.hatchways
    door = hatchways[k % len(hatchways)].door
    # the unit's bounding box as Game.bbox gives it: its largest base around every model
    big = max(r for _, _, r in models)
    box = (min(x for x, _, _ in models) - big, min(y for _, y, _ in models) - big,
           max(x for x, _, _ in models) + big, max(y for _, y, _ in models) + big)
    # models placed beside the door too: the boundary of its reach
    assert door_near(box, [Model(x, y, r, 1) for x, y, r in models], door) == plain(models, door)
    near = [(door.x1 + 1.0 + r, door.y0, r) for _, _, r in models]
    box = (min(x for x, _, _ in near) - big, min(y for _, y, _ in near) - big,
           max(x for x, _, _ in near) + big, max(y for _, y, _ in near) + big)
    assert door_near(box, [Model(x, y, r, 1) for x, y, r in near], door) == plain(near, door)


radius = st.sampled_from([0.0, 0.5, 0.63, 0.79, 1.0, 1.97, 2.5])
disc = st.builds(Base, coord, coord, radius)


@settings(max_examples=400, deadline=None)
@given(point, point, st.lists(st.one_of(disc, st.builds(Base, lattice, lattice, radius)), max_size=6),
       st.sampled_from([0.0, 0.63, 0.79, 1.25]), st.sampled_from([0.0, EPS]))
def test_discs_near_a_segment_are_their_plain_reference(a, b, discs, reach, eps):
    assert geometry.discs_near_segment(a, b, discs, reach, eps) == discs_near_segment(a, b, discs, reach, eps)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(FIELDS))), st.integers(min_value=0), point, point,
       st.sampled_from([0.0, 0.63, 0.79, 1.25]))
def test_shapes_near_a_segment_are_their_plain_reference(f, closed_bits, a, b, d):
    bf = FIELDS[f]
    closed = closed_bits & ((1 << len(bf.layout.hatchways)) - 1)
    for g in (bf.graph(closed), bf.layout.move_layer(0.63).graph(closed)):
        for o in g.blocks:
            assert o.nearer_than(a, b, d - EPS) == nearer_than(o, a, b, d - EPS)


@settings(max_examples=200, deadline=None)
@given(coord, coord, radius)
def test_rim_points_are_the_bases_edge_points(x, y, r):
    assert visibility._rim(Base(x, y, r)) == rim(Base(x, y, r), visibility.SAMPLES)
