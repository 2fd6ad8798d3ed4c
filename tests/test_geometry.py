"""Measurement on the battlefield: the rules text's diagrams in words, then properties.

Small test battlefields are map files of one 20" x 20" board with 2" Zones, 0.2" Walls and a
1.5" Hatch, so every expected length can be worked out by hand.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bagm.engine.board.bases import base_mm, default_base_mm
from bagm.engine.board.battlefield import Battlefield
from bagm.engine.board.geometry import Base, Block, Rect, dist, segments_cross
from bagm.engine.board.maps import bundled, load_map

R32 = 32 / 25.4 / 2  # radius of a 32mm base, inches
R40 = 40 / 25.4 / 2
HEAD = """board: {width: 20, height: 20, columns: 10, rows: 10}
pieces: {wall: 0.2, pillar: 0.4, hatch: 1.5}
boards: [{name: test, at: [0, 0]}]
"""


def field(body: str, head: str = HEAD) -> Battlefield:
    return Battlefield(load_map("test.yaml", head + body).layout)


# --- Impassable Terrain: "Model A and Model B are 5" apart, as the Wall cannot be measured
# through" ---------------------------------------------------------------------------------------

def test_wall_is_measured_around_five_inches() -> None:
    # a Wall on x = 10" from y = 8" down to the board edge; its end (with its 0.1" cap) is at
    # y = 7.9", its corners at x = 9.9" and 10.1"
    bf = field("walls:\n  - [[5, 4], [5, 10]]\n")
    # A and B either side of the Wall, placed so the way round is 5" between the bases:
    # 2 * sqrt(1.5^2 + h^2) + 0.2 - 2r = 5
    leg = (5 + 2 * R32 - 0.2) / 2
    y = 7.9 + math.sqrt(leg ** 2 - 1.5 ** 2)
    a, b = Base(8.4, y, R32), Base(11.6, y, R32)
    assert bf.distance(a, b) == pytest.approx(5.0, abs=1e-9)
    assert bf.straight_distance(a, b) == pytest.approx(3.2 - 2 * R32)  # the dashed red line
    path = bf.path(a, b)
    assert path is not None and len(path) == 4  # round the two corners of the Wall's end
    assert path[1] == pytest.approx((9.9, 7.9)) and path[2] == pytest.approx((10.1, 7.9))


def test_no_path_is_an_infinite_distance() -> None:
    bf = field("walls:\n  - [[5, 0], [5, 10]]\n")
    assert bf.distance((4, 4), (16, 4)) == math.inf
    assert bf.path((4, 4), (16, 4)) is None
    assert not bf.engaged(Base(9.5, 4, R32), Base(10.5, 4, R32))


# --- Hatchways: "the Hatchway on the left is closed and so must be measured around ... the
# Hatchway on the right is open and so is measured through" -----------------------------------

HATCHES = """walls:
  - [[1, 5], [3, 5]]
  - [[4, 5], [6, 5]]
  - [[7, 5], [9, 5]]
hatchways:
  - {at: [[3, 5], [4, 5]], open: false}
  - {at: [[6, 5], [7, 5]], open: true}
"""


def test_closed_hatchway_is_measured_around_open_one_through() -> None:
    bf = field(HATCHES)
    # left: a closed Hatch at x 7-8", centre 7"; Walls run from x 2" to 18" (caps to 1.9/18.1)
    a, b = Base(7, 8, R32), Base(7, 12, R32)
    around = bf.distance(a, b)
    # around the Wall's left end at x = 1.9" (0.2" thick): 2 * sqrt(5.1^2 + 1.9^2) + 0.2 - 2r
    assert around == pytest.approx(2 * math.hypot(5.1, 1.9) + 0.2 - 2 * R32, abs=1e-9)
    # right: the open Hatch at x 12-14", centre 13": straight through
    c, d = Base(13, 8, R32), Base(13, 12, R32)
    assert bf.distance(c, d) == pytest.approx(4 - 2 * R32)
    assert bf.hatchway_crossed(bf.path(c, d)) == [1]
    # opening the left one: now measured through as well
    bf.set_open(0)
    assert bf.distance(a, b) == pytest.approx(4 - 2 * R32)


def test_hatch_of_an_open_hatchway_is_ignored_but_its_frame_is_a_wall() -> None:
    bf = field(HATCHES)
    # a line through the frame beside the open opening (x 12.75" to 13.25" is the opening)
    assert bf.distance((11.9, 9), (11.9, 11)) > 2.0 + 1e-6
    assert bf.distance((12.5, 9), (13.5, 11)) == pytest.approx(math.hypot(1, 2))


# --- Engagement Range: "Both Models B and C are within Engagement Range of Model A, as the
# shortest distance between them passes through an open Hatchway and they are within 2" ...
# Model D is not within 2" of Model A" -------------------------------------------------------

ER_MAP = """walls:
  - [[0, 5], [4, 5]]
  - [[5, 5], [10, 5]]
hatchways:
  - {at: [[4, 5], [5, 5]], open: true}
"""


def test_engagement_range_through_an_open_hatchway() -> None:
    bf = field(ER_MAP)  # the open Hatch spans x 8.25-9.75" on y = 10"
    a = Base(9, 10 - 0.1 - R32 - 0.05, R32)  # just above the Wall
    b = Base(9, 10 + 0.1 + R32 + 0.6, R32)  # straight below, 0.85" apart: also within 1"
    c = Base(9.6, 10 + 0.1 + R32 + 1.2, R32)  # below and aside: more than 1", within 2"
    d = Base(9, 10 + 0.1 + R32 + 2.4, R32)  # more than 2"
    for m in (b, c):
        assert bf.hatchway_crossed(bf.path(a, m)) == [0]
    assert 1.0 < bf.distance(a, c) <= 2.0
    assert bf.distance(a, d) > 2.0
    assert bf.engaged(a, b) and bf.engaged(a, c)
    assert not bf.engaged(a, d)
    assert bf.units_engaged([a], [d, c]) and not bf.units_engaged([a], [d])


def test_two_inches_only_through_an_open_hatchway() -> None:
    bf = field(ER_MAP)
    # 1.5" apart with nothing between: not engaged (1" is the range in the open)
    assert not bf.engaged(Base(4, 4, R32), Base(4 + 2 * R32 + 1.5, 4, R32))
    assert bf.engaged(Base(4, 4, R32), Base(4 + 2 * R32 + 1.0, 4, R32))  # exactly 1": within
    # 1.5" round a Wall's end: not engaged either
    bf2 = field("walls:\n  - [[5, 0], [5, 5]]\n")
    a, b = Base(10 - 0.1 - R32, 9.0, R32), Base(10 + 0.1 + R32, 9.0, R32)
    d = bf2.distance(a, b)
    assert 1.0 < d < 2.0 and not bf2.engaged(a, b)


def test_operating_hatchways_example() -> None:
    # "Before opening the Hatchway, Model A and Model B are not within Engagement Range ...
    # After Model A opens the Hatchway, it is within Engagement Range of Model B"
    bf = field(ER_MAP.replace("open: true", "open: false"))
    a = Base(9, 10 - 0.1 - R32 - 0.3, R32)
    b = Base(9, 10 + 0.1 + R32 + 0.9, R32)
    assert bf.distance(a, b) > 2 and not bf.engaged(a, b)
    assert bf.distance_to_hatchway(a, 0) == pytest.approx(0.3) and bf.distance_to_hatchway(a, 0) <= 1
    bf.set_open(0)
    assert bf.engaged(a, b)
    assert bf.distance(a, b) == pytest.approx(1.4)


# --- Opposite sides of a Hatchway ------------------------------------------------------------

def test_models_on_opposite_sides_of_an_open_hatchway() -> None:
    # "Model C is on the opposite side of the Hatchway from Model A ... This is not the case
    # for Models A and B ... the Necrons unit is not wholly on the opposite side"
    bf = field(ER_MAP.replace("[[5, 5], [10, 5]]", "[[5, 5], [8, 5]]"))  # a way round at x 16-20"
    a = Base(9, 8, R32)
    c = Base(9, 12, R32)  # straight through the Hatchway
    b = Base(18, 12, R32)  # round the Wall's end: nearer that way
    assert bf.opposite_sides(a, c, 0)
    assert not bf.opposite_sides(a, b, 0)
    assert not bf.wholly_opposite_sides([a], [b, c], 0)
    assert bf.wholly_opposite_sides([a], [c], 0)


def test_units_wholly_on_opposite_sides_of_a_closed_hatchway() -> None:
    # "although the Hatchway is closed, the shortest distance between Model A and Models B and
    # C would pass through the Hatchway if it was opened"
    bf = field(ER_MAP.replace("open: true", "open: false"))
    a = Base(9, 8, R32)
    b, c = Base(8, 12, R32), Base(10.2, 12.5, R32)
    assert not bf.is_open(0)
    assert bf.opposite_sides(a, b, 0) and bf.opposite_sides(a, c, 0)
    assert bf.wholly_opposite_sides([a], [b, c], 0)
    assert not bf.is_open(0)  # asking does not open it


def test_models_of_a_unit_astride_a_hatchway() -> None:
    # "A Hatchway can never be closed if there are models from the same unit on opposite sides"
    bf = field(ER_MAP)
    unit = [Base(9, 8, R32), Base(9, 12, R32)]
    assert bf.opposite_sides(unit[0], unit[1], 0)


# --- Deep Strike: Walls and closed Hatchways are ignored when measuring -----------------------

def test_deep_strike_terminator_example() -> None:
    # enemy models behind a Wall with a closed Hatchway; "the position on the right" is within
    # 9" in a straight line (invalid) though more than 9" around; "the position at the top" is
    # more than 9" away either way (valid)
    bf = field("walls:\n  - [[6, 0], [6, 3]]\n  - [[6, 4], [6, 10]]\n"
               "hatchways:\n  - {at: [[6, 3], [6, 4]], open: false}\n")
    enemy = Base(8, 10, R32)
    right = Base(16, 10, R40)
    top = Base(16, 1, R40)
    assert bf.distance(enemy, right) > 9  # measured round the Walls
    assert bf.straight_distance(enemy, right) <= 9  # Deep Strike: ignored, so invalid
    assert bf.straight_distance(enemy, top) > 9  # valid


# --- objective markers and areas ---------------------------------------------------------------

def test_objective_range_is_one_inch_to_the_marker_edge() -> None:
    bf = field("objectives:\n  - {label: A, at: [5, 5]}\n")
    m = bf.layout.marker("A")
    edge = m.radius + R32
    assert bf.in_objective_range(Base(10 + edge + 1.0, 10, R32), m)
    assert not bf.in_objective_range(Base(10 + edge + 1.01, 10, R32), m)


def test_objective_range_is_measured_around_walls() -> None:
    bf = field("walls:\n  - [[0, 5], [9, 5]]\nobjectives:\n  - {label: A, at: [5, 4.5]}\n")
    m = bf.layout.marker("A")
    below = Base(10, 10 + 0.1 + R32, R32)
    assert bf.straight_distance(below, m) < 1 and not bf.in_objective_range(below, m)


def test_wholly_within_a_zone_and_an_area() -> None:
    bf = field("entry_zones:\n  - {player: Attacker, zones: [[0, 0], [1, 0]]}\n")
    zone = bf.layout.entry_zones[0]  # x 0-4", y 0-2"
    assert zone.wholly_within(Base(2, 1, R32))  # across the line between its two Zones
    assert not zone.wholly_within(Base(2, 1.5, R32)) and zone.within(Base(2, 1.5, R32))
    assert zone.wholly_within(Base(4 - R32, 2 - R32, R32))  # touching the edges counts
    assert not zone.within(Base(2, 2 + R32, R32))  # touching from outside is not within
    assert bf.layout.zone_area(0, 0).wholly_within(Base(1, 1, R32))
    assert not bf.layout.zone_area(0, 0).wholly_within(Base(2, 1, R32))


def test_bases_by_datasheet_or_keyword() -> None:
    assert default_base_mm(["INFANTRY", "TERMINATOR", "IMPERIUM"]) == 40
    assert default_base_mm(["INFANTRY"]) == 32
    assert default_base_mm(["INFANTRY", "ASTRA MILITARUM"]) == 25
    assert default_base_mm(["GRETCHIN"]) == 25
    assert default_base_mm(["VEHICLE", "WALKER"]) == 60

    class Sheet:
        base = 50
        keywords = ["INFANTRY"]
        faction_keywords: list[str] = []

    assert base_mm(Sheet()) == 50
    Sheet.base = None
    assert base_mm(Sheet()) == 32


def test_bases_from_the_datasheets() -> None:
    from bagm.data.packs import Catalog

    faction = Catalog().faction("Grey Knights")
    assert faction is not None
    sheets = [faction.units.get(n) for n in faction.units.names()]
    with_base = [s for s in sheets if s is not None and s.base]
    assert with_base, "the Grey Knights pack gives base sizes"
    for s in sheets:
        assert s is not None
        expected = s.base or default_base_mm(s.keywords + s.faction_keywords)
        assert base_mm(s) == expected


# --- the blocking shapes ---------------------------------------------------------------------

def test_block_clipping_grazes_but_does_not_pass() -> None:
    b = Block.rect(Rect(0, 0, 2, 1))
    assert b.blocks(-1, 0.5, 3, 0.5)
    assert not b.blocks(-1, 0, 3, 0)  # along an edge
    assert not b.blocks(-1, -1, 1, 1 - 2)  # touching a corner only
    o = Block.octagon(Rect(0, 0, 2, 1), 1.0)
    assert len(o.corners()) == 8
    r = 1.0
    # the octagon lies outside the rounded shape: every corner at least r from the rectangle
    assert all(Rect(0, 0, 2, 1).distance_to(c) >= r - 1e-9 for c in o.corners())
    assert segments_cross((0, 0), (2, 2), (0, 2), (2, 0))


# --- properties ------------------------------------------------------------------------------

M11 = Battlefield(bundled(11).layout)
W11, H11 = M11.layout.bounds.x1, M11.layout.bounds.y1
points = st.tuples(st.floats(0.1, W11 - 0.1), st.floats(0.1, H11 - 0.1))


def free(bf: Battlefield, p: tuple[float, float]) -> bool:
    return not any(b.touches(p, 1e-6) for b in bf.layout.measure_layer.graph(0).blocks)


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(points, points)
def test_distance_is_symmetric(p, q) -> None:  # type: ignore[no-untyped-def]
    assume(free(M11, p) and free(M11, q))
    a, b = M11.distance(p, q), M11.distance(q, p)
    assert a == b or abs(a - b) < 1e-6
    assert a >= dist(p, q) - 1e-9


@SETTINGS
@given(points, points, points)
def test_triangle_inequality(p, q, r) -> None:  # type: ignore[no-untyped-def]
    assume(free(M11, p) and free(M11, q) and free(M11, r))
    assert M11.distance(p, r) <= M11.distance(p, q) + M11.distance(q, r) + 1e-6


@SETTINGS
@given(points, points)
def test_a_path_never_crosses_a_wall(p, q) -> None:  # type: ignore[no-untyped-def]
    assume(free(M11, p) and free(M11, q))
    path = M11.path(p, q)
    d = M11.distance(p, q)
    if path is None:
        assert d == math.inf
        return
    g = M11.layout.measure_layer.graph(M11.closed_mask)
    for s, e in zip(path, path[1:]):
        assert g.clear(s[0], s[1], e[0], e[1])
        for blk in g.blocks:  # independent check: no midpoint of a leg inside a shape
            assert not blk.contains(((s[0] + e[0]) / 2, (s[1] + e[1]) / 2), 1e-6)
    assert sum(dist(s, e) for s, e in zip(path, path[1:])) == pytest.approx(d, abs=1e-6)


@SETTINGS
@given(points, points, st.integers(0, len(M11.layout.hatchways) - 1))
def test_opening_a_hatchway_never_lengthens_a_distance(p, q, h) -> None:  # type: ignore[no-untyped-def]
    assume(free(M11, p) and free(M11, q))
    bf = M11.copy()
    bf.set_open(h, False)
    closed = bf.distance(p, q)
    bf.set_open(h, True)
    assert bf.distance(p, q) <= closed + 1e-9


@SETTINGS
@given(points, points)
def test_a_moving_base_keeps_clear_of_walls(p, q) -> None:  # type: ignore[no-untyped-def]
    bf = M11.copy()
    for h in bf.layout.hatchways:  # no portals: every Hatchway closed
        bf.set_open(h.index, False)
    a, target = Base(p[0], p[1], R32), Base(q[0], q[1], R32)
    assume(bf.fits(a) and bf.fits(target))
    length, path = bf.move_path(a, q)
    if path is None:
        return
    assert length >= bf.distance(p, q) - 1e-6
    solid = bf.layout.solid_rects + [h.door for h in bf.layout.hatchways]
    for s, e in zip(path, path[1:]):
        for k in range(11):
            x, y = s[0] + (e[0] - s[0]) * k / 10, s[1] + (e[1] - s[1]) * k / 10
            assert all(r.distance_to((x, y)) >= R32 - 1e-6 for r in solid)


def test_move_path_through_an_open_hatchway_narrower_than_the_base() -> None:
    bf = field(ER_MAP, HEAD.replace("hatch: 1.5", "hatch: 1.0"))
    big = Base(9, 6, 60 / 25.4 / 2)  # a 60mm base through a 1" opening
    length, path = bf.move_path(big, (9, 14))
    assert path is not None and length == pytest.approx(8, abs=0.05)
    bf.set_open(0, False)
    length, path = bf.move_path(big, (9, 14))
    assert path is None and length == math.inf
