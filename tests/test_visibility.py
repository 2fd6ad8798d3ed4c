"""Visibility: the four examples of the rules text, Benefit of Cover, and properties."""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bagm.engine.board import visibility
from bagm.engine.board.battlefield import Battlefield
from bagm.engine.board.geometry import Base, Block, Rect
from bagm.engine.board.maps import bundled, load_map
from bagm.engine.board.visibility import point_sees_base

R = 32 / 25.4 / 2
HEAD = """board: {width: 20, height: 20, columns: 10, rows: 10}
pieces: {wall: 0.2, pillar: 0.4, hatch: 1.5}
boards: [{name: test, at: [0, 0]}]
"""


def field(body: str) -> Battlefield:
    return Battlefield(load_map("test.yaml", HEAD + body).layout)


def test_visibility_around_walls() -> None:
    # A Wall from (4", 8") to (12", 8"). "Model A cannot see Model B ... Model A can see
    # Model C ... but part of Model C is still hidden ... Model D is fully visible"
    bf = field("walls:\n  - [[2, 4], [6, 4]]\n")
    a, b, c, d = Base(2, 2, R), Base(8, 11, R), Base(5, 11.5, R), Base(2, 11, R)
    assert not bf.visible(a, b)
    assert bf.visible(a, c) and not bf.fully_visible(a, c)
    assert bf.has_cover(c, [a])
    assert bf.visible(a, d) and bf.fully_visible(a, d)
    assert not bf.has_cover(d, [a])
    # the hidden part is C's right-hand side
    blocks = bf.blocks
    assert point_sees_base((c.x - R * 0.99, c.y), a, blocks)
    assert not point_sees_base((c.x + R * 0.99, c.y), a, blocks)


def test_visibility_through_hatchways() -> None:
    # a Wall down x = 10" with a closed Hatchway (y 6-8") and an open one (y 12-14")
    bf = field("walls:\n  - [[5, 0], [5, 3]]\n  - [[5, 4], [5, 6]]\n  - [[5, 7], [5, 10]]\n"
               "hatchways:\n  - {at: [[5, 3], [5, 4]], open: false}\n"
               "  - {at: [[5, 6], [5, 7]], open: true}\n")
    b = Base(8.5, 13, R)
    a = Base(11.5, 7, R)  # behind the closed Hatch
    c = Base(11.5, 13, R)  # through the open one
    assert not bf.visible(b, a)
    assert bf.visible(b, c) and bf.fully_visible(b, c)
    facing = Base(8.5, 7, R)  # across the closed Hatch from A
    assert not bf.visible(facing, a)
    bf.set_open(0)
    assert bf.visible(facing, a) and bf.fully_visible(facing, a)
    assert not bf.visible(b, a)  # B's lines to A meet the Wall between the two Hatchways
    bf.set_open(0, False)
    bf.set_open(1, False)
    assert not bf.visible(b, c)


# B, C and D are one unit; D stands behind B and C (staggered so no line slips between them)
A = Base(2, 10, R)
B_ = Base(8, 9.6, R)
C_ = Base(7, 10.4, R)
D_ = Base(10, 10, R)


def test_visibility_through_models_in_the_same_unit() -> None:
    bf = field("")
    unit = [B_, C_, D_]
    # "When Model D's unit is selected to shoot, Model D cannot make any ranged attacks against
    # Model A": B and C are not part of A's unit, so they block
    assert not bf.visible(D_, A, others=[B_, C_])
    assert bf.visible(B_, A, others=[C_, D_])
    # "when Model A is selected to shoot ... Model D is considered visible for the purposes of
    # allocating attacks to it": B and C are in D's own unit
    assert bf.visible(A, D_, others=[])
    assert bf.visible_models([A], unit) == [0, 1, 2]
    # "Model D is fully visible to Model A, and so Model D would not have the Benefit of Cover"
    assert bf.fully_visible(A, D_) and not bf.has_cover(D_, [A])


def test_visibility_through_models_in_different_units() -> None:
    bf = field("")
    e = Base(12, 10, R)  # D and E are one unit, B and C another
    # "it cannot make any ranged attacks against Model D's unit ... passing through Models B or
    # C, which are not part of Model D's unit"
    assert not bf.unit_visible([A], [D_, e], bystanders=[B_, C_])
    assert bf.visible_models([A], [D_, e], bystanders=[B_, C_]) == []
    # the same unit with one model in the open is visible (one visible model is enough)
    f = Base(10, 16, R)
    assert bf.unit_visible([A], [D_, f], bystanders=[B_, C_])
    assert bf.visible_models([A], [D_, f], bystanders=[B_, C_]) == [1]


def test_a_models_own_unit_blocks_its_shots() -> None:
    # the observer's other models are not part of the target's unit: they block too
    bf = field("")
    assert not bf.visible(D_, A, others=[B_, C_])
    assert bf.unit_visible([D_, B_, C_], [A])  # B and C themselves see A


def test_models_on_different_levels_cannot_see_each_other() -> None:
    bf = Battlefield(bundled(5).layout)  # Deck Level and Sub-level: separate boards
    deck, sub = Base(20, 15, R), Base(40, 15, R)
    assert bf.layout.board_at(deck.centre).name == "Deck Level"
    assert bf.layout.board_at(sub.centre).name == "Sub-level"
    assert not bf.visible(deck, sub) and bf.distance(deck, sub) == math.inf


def test_point_to_base_is_exact_at_a_slit() -> None:
    # two rectangles leave a 0.02" slit; a point on the slit's line sees the base beyond
    blocks = [Block.rect(Rect(4, 0, 5, 0.99)), Block.rect(Rect(4, 1.01, 5, 3))]
    assert point_sees_base((0, 1), Base(9, 1, 0.5), blocks)
    assert not point_sees_base((0, 1), Base(9, 2.5, 0.3), blocks)
    # a base behind the target does not hide it; one in front does
    assert point_sees_base((0, 0), Base(5, 0, 0.5), [], [Base(8, 0, 0.5)])
    assert not point_sees_base((0, 0), Base(5, 0, 0.5), [], [Base(2, 0, 0.9)])


M11 = Battlefield(bundled(11).layout)
pts = st.tuples(st.floats(1, M11.layout.bounds.x1 - 1), st.floats(1, M11.layout.bounds.y1 - 1))


@settings(max_examples=120, deadline=None)
@given(pts, pts)
def test_seen_means_a_clear_line_exists(p, q) -> None:  # type: ignore[no-untyped-def]
    a, b = Base(p[0], p[1], R), Base(q[0], q[1], R)
    assume(M11.fits(a) and M11.fits(b))
    g = M11.layout.measure_layer.graph(M11.closed_mask)
    if g.clear(a.x, a.y, b.x, b.y):
        assert M11.visible(a, b) and M11.visible(b, a)
    if M11.fully_visible(a, b):
        assert M11.visible(a, b)
    if not M11.visible(a, b):  # nothing visible: no rim-to-rim line is clear either
        for s in a.edge_points(12):
            for t in b.edge_points(12):
                assert not g.clear(s[0], s[1], t[0], t[1])
    # opening every Hatchway never hides anything
    wide = M11.copy()
    wide.open_all()
    if M11.visible(a, b):
        assert wide.visible(a, b)


# --- the optimised point-to-base test against its plain reference ------------------------------

_coord = st.floats(0, 20, allow_nan=False)


@st.composite
def _block(draw: st.DrawFn) -> Block:
    x0, y0 = draw(_coord), draw(_coord)
    r = Rect(x0, y0, x0 + draw(st.floats(0.3, 6)), y0 + draw(st.floats(0.3, 6)))
    grow = draw(st.sampled_from([0.0, 0.0, 0.4, 1.0]))
    return Block.octagon(r, grow) if grow else Block.rect(r)


@st.composite
def _base(draw: st.DrawFn) -> Base:
    return Base(draw(_coord), draw(_coord), draw(st.sampled_from([0.5, 0.63, 0.79, 1.0, 1.57])))


@settings(max_examples=400, deadline=None)
@given(p=st.tuples(_coord, _coord), target=_base(), blocks=st.lists(_block(), max_size=5),
       disks=st.lists(_base(), max_size=5))
def test_point_sees_base_equals_its_plain_reference(p, target, blocks, disks) -> None:  # type: ignore[no-untyped-def]
    from reference.visibility import point_sees_base as plain

    assert point_sees_base(p, target, blocks, disks) == plain(p, target, blocks, disks)


@settings(max_examples=300, deadline=None)
@given(observer=_base(), target=_base(), blocks=st.lists(_block(), max_size=4),
       disks=st.lists(_base(), max_size=6))
def test_visible_and_fully_visible_equal_their_plain_reference(observer, target, blocks, disks) -> None:  # type: ignore[no-untyped-def]
    """Bases seeing each other (from the centre or 24 rim points, past the shapes and models
    near the line between them) as the plain reference reads it: every distance measured
    alone, every point tried with the plain point-to-base test."""
    from reference.visibility import fully_visible as plain_full
    from reference.visibility import visible as plain

    assert visibility.visible(observer, target, blocks, disks) == plain(observer, target, blocks, disks)
    assert visibility.fully_visible(observer, target, blocks, disks) == plain_full(observer, target, blocks, disks)
