"""The optimised segment tests against their plain references (tests/reference/geometry.py):
Block.blocks and the path graph's clear(), on every bundled map's shapes with Hatchways open and
closed, for random segments and for segments that graze corners and edges."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from reference.geometry import clear, segment_blocked

from bagm.engine.board.battlefield import Battlefield
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
