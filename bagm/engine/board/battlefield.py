"""The Boarding Actions battlefield: boards split into Zones, Walls, Pillars and Hatchways on
the Zone grid, objective markers, Entry Zones and mission areas ("Boarding Actions
Battlefields"), and the measurements the rules make on it ("Rules Adaptations").

A :class:`Layout` is the fixed geometry of one map (built from a map file by
:mod:`bagm.engine.board.maps`); it owns the precomputed path graphs, shared by every game on that map.
A :class:`Battlefield` is a Layout plus the state of its Hatchways; it answers distance,
visibility, Engagement Range, objective range and "wholly within" questions.

Coordinates are inches, x to the right and y down the map; the Zone grid's lines sit at whole
multiples of the Zone size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Sequence

from bagm.engine.board import visibility
from bagm.engine.board.geometry import (
    EPS,
    INF,
    OBJECTIVE_MARKER_MM,
    Base,
    Block,
    Point,
    Rect,
    dist,
    merge_rects,
    mm_to_inches,
    polyline_length,
    segments_cross,
)
from bagm.engine.board.pathing import Disc, Layer, Portal, route

ENGAGEMENT_RANGE = 1.0  # Core Rules "Engagement Range": 1" horizontally
ENGAGEMENT_RANGE_HATCHWAY = 2.0  # Rules Adaptations "Engagement Range": 2" through an open Hatchway
OBJECTIVE_RANGE = 1.0  # Rules Adaptations "Objective Markers": within 1" horizontally
TOLERANCE = 1e-9

Loc = Base | Point


@dataclass(frozen=True)
class Pieces:
    """Sizes of the terrain pieces in inches (assumed; the rules text gives none)."""

    wall: float = 0.5  # thickness of a Wall
    pillar: float = 1.0  # side of a square Pillar
    hatch: float = 2.5  # width of a Hatchway's opening


@dataclass(frozen=True)
class Board:
    """One game board, placed on the battlefield's Zone grid at Zone (col, row)."""

    name: str
    col: int
    row: int
    columns: int
    rows: int
    rect: Rect  # inches

    def has_zone(self, col: int, row: int) -> bool:
        return self.col <= col < self.col + self.columns and self.row <= row < self.row + self.rows


@dataclass(frozen=True)
class Wall:
    """A Wall run along Zone edges, from grid point ``a`` to ``b`` (Zone units)."""

    a: tuple[int, int]
    b: tuple[int, int]
    rect: Rect


@dataclass(frozen=True)
class Pillar:
    at: tuple[int, int]
    rect: Rect


@dataclass(frozen=True)
class Hatchway:
    """A Hatchway on the Zone edge(s) from grid point ``a`` to ``b``: Wall frames either side of
    an opening closed by a Hatch."""

    index: int
    a: tuple[int, int]
    b: tuple[int, int]
    starts_open: bool
    label: str | None
    door: Rect  # the Hatch (blocks while closed)
    frames: tuple[Rect, ...]  # the Wall either side of the opening
    opening: tuple[Point, Point]  # the line across the opening, along the Wall

    @property
    def horizontal(self) -> bool:
        return self.a[1] == self.b[1]

    @property
    def centre(self) -> Point:
        (x0, y0), (x1, y1) = self.opening
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    @property
    def name(self) -> str:
        return self.label or f"Hatchway {self.index + 1}"


@dataclass(frozen=True)
class ObjectiveMarker:
    label: str | None
    x: float
    y: float
    radius: float = mm_to_inches(OBJECTIVE_MARKER_MM) / 2

    @property
    def base(self) -> Base:
        return Base(self.x, self.y, self.radius)


@dataclass(frozen=True)
class Area:
    """A set of Zones: an Entry Zone (``player`` set) or a mission area (Lighting Area,
    Compartment, Furnace, Sector, Prison Cells...)."""

    kind: str
    label: str | None
    zones: frozenset[tuple[int, int]]
    player: str | None = None  # Attacker / Defender, for Entry Zones
    zone_w: float = 1.0
    zone_h: float = 1.0
    board: str | None = None

    @property
    def name(self) -> str:
        if self.player:
            kind = "" if self.kind in ("", "Entry Zone") else self.kind + " "
            return f"{self.player} {kind}Entry Zone" + (f" {self.label}" if self.label else "")
        return self.kind + (f" {self.label}" if self.label else "")

    def zone_rect(self, col: int, row: int) -> Rect:
        return Rect(col * self.zone_w, row * self.zone_h, (col + 1) * self.zone_w,
                    (row + 1) * self.zone_h)

    @cached_property
    def centre(self) -> Point:
        """The centre of the area's Zones (for "as close to the centre as possible")."""
        n = len(self.zones)
        return (sum((c + 0.5) * self.zone_w for c, _ in self.zones) / n,
                sum((r + 0.5) * self.zone_h for _, r in self.zones) / n)

    def _cells_touched(self, base: Base) -> Iterable[tuple[int, int]]:
        r = base.radius
        c0 = math.floor((base.x - r) / self.zone_w)
        c1 = math.floor((base.x + r) / self.zone_w)
        r0 = math.floor((base.y - r) / self.zone_h)
        r1 = math.floor((base.y + r) / self.zone_h)
        for c in range(c0, c1 + 1):
            for row in range(r0, r1 + 1):
                if self.zone_rect(c, row).disk_overlap(base):
                    yield (c, row)

    def contains_point(self, p: Point) -> bool:
        return (math.floor(p[0] / self.zone_w), math.floor(p[1] / self.zone_h)) in self.zones

    @cached_property
    def box(self) -> tuple[float, float, float, float]:
        """The bounding box of the area's Zones."""
        if not self.zones:
            return (math.inf, math.inf, -math.inf, -math.inf)  # holds no base
        cols = [c for c, _ in self.zones]
        rows = [r for _, r in self.zones]
        return (min(cols) * self.zone_w, min(rows) * self.zone_h, (max(cols) + 1) * self.zone_w,
                (max(rows) + 1) * self.zone_h)

    def within(self, base: Base) -> bool:
        """Some part of the base is in the area."""
        # _cells_touched with the cheap membership test first (a hot path; the same answer)
        r = base.radius
        x0, y0, x1, y1 = self.box  # a base clear of the whole box overlaps none of its Zones
        if base.x + r <= x0 or base.x - r >= x1 or base.y + r <= y0 or base.y - r >= y1:
            return False
        zw, zh, zones = self.zone_w, self.zone_h, self.zones
        c0 = math.floor((base.x - r) / zw)
        c1 = math.floor((base.x + r) / zw)
        r0 = math.floor((base.y - r) / zh)
        r1 = math.floor((base.y + r) / zh)
        for c in range(c0, c1 + 1):
            for row in range(r0, r1 + 1):
                if (c, row) in zones and self.zone_rect(c, row).disk_overlap(base):
                    return True
        return False

    def wholly_within(self, base: Base) -> bool:
        """Every part of the base is in the area."""
        return all(z in self.zones for z in self._cells_touched(base))

    def touches_segment(self, a: Point, b: Point) -> bool:
        """The segment a-b lies in or on the edge of one of the area's Zones."""
        for c, r in self.zones:
            rect = self.zone_rect(c, r)
            if rect.contains(a, 1e-9) and rect.contains(b, 1e-9):
                return True
        return False


@dataclass
class Layout:
    """The fixed geometry of a battlefield. Built by :func:`bagm.engine.board.maps.load_map`."""

    zone_w: float
    zone_h: float
    boards: list[Board]
    walls: list[Wall] = field(default_factory=list)
    pillars: list[Pillar] = field(default_factory=list)
    hatchways: list[Hatchway] = field(default_factory=list)
    markers: list[ObjectiveMarker] = field(default_factory=list)
    entry_zones: list[Area] = field(default_factory=list)
    areas: list[Area] = field(default_factory=list)
    power_lines: list[tuple[str, str]] = field(default_factory=list)
    pieces: Pieces = field(default_factory=Pieces)

    def __post_init__(self) -> None:
        self._move_layers: dict[float, Layer] = {}

    # --- extent -------------------------------------------------------------------------

    @cached_property
    def bounds(self) -> Rect:
        return Rect(min(b.rect.x0 for b in self.boards), min(b.rect.y0 for b in self.boards),
                    max(b.rect.x1 for b in self.boards), max(b.rect.y1 for b in self.boards))

    @cached_property
    def grid_size(self) -> tuple[int, int]:
        """Columns and rows of the Zone grid spanning every board."""
        return (max(b.col + b.columns for b in self.boards), max(b.row + b.rows for b in self.boards))

    def board_at(self, p: Point) -> Board | None:
        for b in self.boards:
            if b.rect.contains(p, 1e-9):
                return b
        return None

    @cached_property
    def _components(self) -> dict[str, int]:
        """Boards that touch along an edge form one connected part of the battlefield."""
        comp = {b.name: i for i, b in enumerate(self.boards)}
        changed = True
        while changed:
            changed = False
            for a in self.boards:
                for b in self.boards:
                    ra, rb = a.rect, b.rect
                    ox = min(ra.x1, rb.x1) - max(ra.x0, rb.x0)
                    oy = min(ra.y1, rb.y1) - max(ra.y0, rb.y0)
                    if ((ox > EPS and abs(oy) <= 1e-9) or (oy > EPS and abs(ox) <= 1e-9)) \
                            and comp[a.name] != comp[b.name]:
                        low = min(comp[a.name], comp[b.name])
                        comp[a.name] = comp[b.name] = low
                        changed = True
        return comp

    def connected(self, p: Point, q: Point) -> bool:
        a, b = self.board_at(p), self.board_at(q)
        return a is not None and b is not None and self._components[a.name] == self._components[b.name]

    @cached_property
    def gaps(self) -> list[Rect]:
        """The parts of the bounding box that no board covers (solid for every purpose)."""
        xs = sorted({v for b in self.boards for v in (b.rect.x0, b.rect.x1)})
        ys = sorted({v for b in self.boards for v in (b.rect.y0, b.rect.y1)})
        cells = []
        for i in range(len(xs) - 1):
            for j in range(len(ys) - 1):
                c = Rect(xs[i], ys[j], xs[i + 1], ys[j + 1])
                if not any(b.rect.contains(c.centre) for b in self.boards):
                    cells.append(c)
        return merge_rects(cells) if cells else []

    @cached_property
    def solid_rects(self) -> list[Rect]:
        """Every permanent blocking rectangle: Walls, Hatchway frames, Pillars, gaps."""
        lines = [w.rect for w in self.walls] + [f for h in self.hatchways for f in h.frames]
        return merge_rects(lines) + [p.rect for p in self.pillars] + self.gaps

    # --- path layers --------------------------------------------------------------------

    @cached_property
    def measure_layer(self) -> Layer:
        """Shapes for a tape measure: Walls and Hatches as they are."""
        b = self.bounds
        return Layer([Block.rect(r) for r in self.solid_rects],
                     [Block.rect(h.door, h.index) for h in self.hatchways],
                     (b.x0, b.y0, b.x1, b.y1))

    def move_layer(self, radius: float) -> Layer:
        """Shapes for the centre of a base of ``radius`` inches: everything grown by the
        radius, the battlefield edge and impassable areas included."""
        key = round(radius, 6)
        layer = self._move_layers.get(key)
        if layer is not None:
            return layer
        b = self.bounds
        big = 1000.0
        r = radius
        edge = [Rect(b.x0 - big, b.y0 - big, b.x0 + r, b.y1 + big),
                Rect(b.x1 - r, b.y0 - big, b.x1 + big, b.y1 + big),
                Rect(b.x0 - big, b.y0 - big, b.x1 + big, b.y0 + r),
                Rect(b.x0 - big, b.y1 - r, b.x1 + big, b.y1 + big)]
        barred = [a.zone_rect(c, row) for a in self.areas if a.kind in IMPASSABLE_AREAS
                  for c, row in sorted(a.zones)]
        static = [Block.octagon(x, r) for x in self.solid_rects + merge_rects(barred)]
        static += [Block.rect(x) for x in edge]
        doors = [Block.octagon(h.door, radius, h.index) for h in self.hatchways]
        portals = []
        for h in self.hatchways:
            cx, cy = h.centre
            reach = self.pieces.wall / 2 + radius + 0.01
            if h.horizontal:
                portals.append(Portal((cx, cy - reach), (cx, cy + reach), h.index))
            else:
                portals.append(Portal((cx - reach, cy), (cx + reach, cy), h.index))
        layer = Layer(static, doors, (b.x0, b.y0, b.x1, b.y1), portals)
        self._move_layers[key] = layer
        return layer

    # --- look-ups -----------------------------------------------------------------------

    def marker(self, label: str) -> ObjectiveMarker:
        for m in self.markers:
            if m.label == label:
                return m
        raise KeyError(label)

    def areas_of(self, kind: str) -> list[Area]:
        return [a for a in self.areas if a.kind == kind]

    def entry_zones_of(self, player: str, kind: str | None = None) -> list[Area]:
        return [z for z in self.entry_zones if z.player == player and (kind is None or z.kind == kind)]

    def zone_at(self, p: Point) -> tuple[int, int] | None:
        """The Zone (col, row) holding point ``p``, or None off the boards."""
        if self.board_at(p) is None:
            return None
        c = min(int(p[0] // self.zone_w), self.grid_size[0] - 1)
        r = min(int(p[1] // self.zone_h), self.grid_size[1] - 1)
        return (c, r)

    def zone_area(self, col: int, row: int) -> Area:
        """A single Zone as an :class:`Area` (for "wholly within a Zone")."""
        return Area("Zone", f"{col},{row}", frozenset({(col, row)}), zone_w=self.zone_w,
                    zone_h=self.zone_h)


IMPASSABLE_AREAS = frozenset({"Inaccessible Area"})  # Void the Ship: "Exposed to the Void"


class Battlefield:
    """A :class:`Layout` with its Hatchways each open or closed."""

    def __init__(self, layout: Layout, open_hatchways: Iterable[int] | None = None) -> None:
        self.layout = layout
        if open_hatchways is None:
            open_hatchways = [h.index for h in layout.hatchways if h.starts_open]
        self._open = set(open_hatchways)
        self._mask: int | None = None  # closed_mask, kept until a Hatchway opens or closes

    # --- Hatchways ----------------------------------------------------------------------

    def is_open(self, hatchway: int) -> bool:
        return hatchway in self._open

    def set_open(self, hatchway: int, open_: bool = True) -> None:
        self.layout.hatchways[hatchway]  # IndexError for a Hatchway that does not exist
        if open_:
            self._open.add(hatchway)
        else:
            self._open.discard(hatchway)
        self._mask = None

    def open_all(self) -> None:
        self._open = {h.index for h in self.layout.hatchways}
        self._mask = None

    @property
    def closed_mask(self) -> int:
        m = self._mask
        if m is None:
            m = self._mask = sum(1 << h.index for h in self.layout.hatchways if h.index not in self._open)
        return m

    def copy(self) -> Battlefield:
        return Battlefield(self.layout, self._open)

    @property
    def blocks(self) -> list[Block]:
        """Every shape that stops a line of sight now: Walls, Pillars, closed Hatches."""
        return self.layout.measure_layer.graph(self.closed_mask).blocks

    # --- measurement --------------------------------------------------------------------

    def graph(self, closed: int | None = None):  # type: ignore[no-untyped-def]
        return self.layout.measure_layer.graph(self.closed_mask if closed is None else closed)

    @staticmethod
    def _split(x: Loc | ObjectiveMarker) -> tuple[Point, float]:
        if isinstance(x, ObjectiveMarker):
            x = x.base
        if isinstance(x, Base):
            return x.centre, x.radius
        return (float(x[0]), float(x[1])), 0.0

    def _check(self, p: Point) -> None:
        if self.layout.board_at(p) is None:
            raise ValueError(f"({p[0]:.2f}, {p[1]:.2f}) is off the battlefield")

    def distance(self, a: Loc, b: Loc, closed: int | None = None) -> float:
        """Distance between two points or bases, measured around Walls and closed Hatchways
        and through open ones (Rules Adaptations "Measurement"); ``inf`` with no path."""
        (p, ra), (q, rb) = self._split(a), self._split(b)
        self._check(p)
        self._check(q)
        if not self.layout.connected(p, q):
            return INF
        d = self.graph(closed).distance(p, q)
        return max(0.0, d - ra - rb)

    def path(self, a: Loc, b: Loc, closed: int | None = None) -> list[Point] | None:
        """The shortest measuring line between the centres, as points (None if none)."""
        (p, _), (q, _) = self._split(a), self._split(b)
        self._check(p)
        self._check(q)
        if not self.layout.connected(p, q):
            return None
        return self.graph(closed).path(p, q)

    def reachable(self, a: Loc, b: Loc, closed: int | None = None) -> bool:
        """A measuring line leads from one centre to the other (:meth:`path` is not None),
        found without working it out."""
        (p, _), (q, _) = self._split(a), self._split(b)
        self._check(p)
        self._check(q)
        return self.layout.connected(p, q) and self.graph(closed).reachable(p, q)

    @staticmethod
    def straight_distance(a: Loc, b: Loc) -> float:
        """Distance ignoring Walls and Hatchways (Rules Adaptations "Deep Strike Ability")."""
        (p, ra), (q, rb) = Battlefield._split(a), Battlefield._split(b)
        return max(0.0, dist(p, q) - ra - rb)

    def within(self, a: Loc, b: Loc, inches: float) -> bool:
        """Within ``inches`` measured around Walls (a straight line longer than that settles
        it without a path search)."""
        if self.straight_distance(a, b) > inches + TOLERANCE:
            return False
        return self.distance(a, b) <= inches + TOLERANCE

    def hatchway_crossed(self, points: Sequence[Point], open_only: bool = True) -> list[int]:
        """The Hatchways whose opening the polyline passes through."""
        out: list[int] = []
        if len(points) < 2:
            return out
        # an opening outside the polyline's bounding box (with a hair of slack: segments_cross
        # counts touching within 1e-12) meets none of its segments: only the others are crossed
        x0 = min(p[0] for p in points) - 1e-9
        x1 = max(p[0] for p in points) + 1e-9
        y0 = min(p[1] for p in points) - 1e-9
        y1 = max(p[1] for p in points) + 1e-9
        for h in self.layout.hatchways:
            if open_only and h.index not in self._open:
                continue
            o0, o1 = h.opening
            if (o0[0] < x0 and o1[0] < x0) or (o0[0] > x1 and o1[0] > x1) or \
                    (o0[1] < y0 and o1[1] < y0) or (o0[1] > y1 and o1[1] > y1):
                continue
            if any(segments_cross(points[i], points[i + 1], o0, o1) for i in range(len(points) - 1)):
                out.append(h.index)
        return out

    def engaged(self, a: Base, b: Base) -> bool:
        """Within Engagement Range: 1", or 2" when the shortest line passes through an open
        Hatchway (Rules Adaptations "Engagement Range")."""
        if not self.layout.connected(a.centre, b.centre):
            return False
        if self.straight_distance(a, b) > ENGAGEMENT_RANGE_HATCHWAY + TOLERANCE:
            return False
        g = self.graph()
        d = g.distance(a.centre, b.centre) - a.radius - b.radius
        if d <= ENGAGEMENT_RANGE + TOLERANCE:
            return True
        if d > ENGAGEMENT_RANGE_HATCHWAY + TOLERANCE:
            return False
        pts = g.path(a.centre, b.centre)
        return bool(pts and self.hatchway_crossed(pts))

    def units_engaged(self, unit_a: Sequence[Base], unit_b: Sequence[Base]) -> bool:
        return any(self.engaged(a, b) for a in unit_a for b in unit_b)

    def opposite_sides(self, a: Loc, b: Loc, hatchway: int) -> bool:
        """The shortest line between the two would pass through ``hatchway`` were it open,
        whether or not it is (Rules Adaptations "Opposite Sides of a Hatchway")."""
        closed = self.closed_mask & ~(1 << hatchway)
        pts = self.path(a, b, closed)
        if not pts:
            return False
        o0, o1 = self.layout.hatchways[hatchway].opening
        return any(segments_cross(pts[i], pts[i + 1], o0, o1) for i in range(len(pts) - 1))

    def wholly_opposite_sides(self, unit_a: Sequence[Loc], unit_b: Sequence[Loc], hatchway: int) -> bool:
        """Every model of one unit is on the opposite side of the Hatchway from every model of
        the other."""
        return all(self.opposite_sides(a, b, hatchway) for a in unit_a for b in unit_b)

    def distance_to_hatchway(self, a: Loc, hatchway: int) -> float:
        """Distance from a point or base to the nearest part of a Hatchway's Hatch, measured
        around Walls (to operate it, a unit must be within 1")."""
        (p, ra) = self._split(a)
        self._check(p)
        door = self.layout.hatchways[hatchway].door
        g = self.graph()
        cp = door.closest_point(p)
        if g.clear(p[0], p[1], cp[0], cp[1]):
            return max(0.0, dist(p, cp) - ra)
        if self.layout.board_at(cp) is None or not self.layout.connected(p, cp):
            return INF
        dp = g.distances_from(p)
        verts = g.layer.vertices
        order = sorted(range(len(verts)), key=lambda i: dp[i] + door.distance_to(verts[i]))
        for i in order:
            if dp[i] == INF:
                break
            v = verts[i]
            c = door.closest_point(v)
            if g.clear(v[0], v[1], c[0], c[1]):
                return max(0.0, dp[i] + dist(v, c) - ra)
        return INF

    # --- objectives and areas -------------------------------------------------------------

    def in_objective_range(self, model: Base, marker: ObjectiveMarker) -> bool:
        """Within 1" horizontally of the marker (Rules Adaptations "Objective Markers")."""
        return self.within(model, marker.base, OBJECTIVE_RANGE)

    # --- movement -------------------------------------------------------------------------

    def fits(self, base: Base) -> bool:
        """The base lies on the battlefield without overlapping a Wall, a Pillar, a closed Hatch,
        an open Hatchway's opening ("cannot end a move ... in the middle of an open Hatchway")
        or an impassable area."""
        lay = self.layout
        if not any(b.rect.contains_base(base) for b in lay.boards):
            return False
        for r in lay.solid_rects:
            if r.disk_overlap(base):
                return False
        for h in lay.hatchways:
            if h.door.disk_overlap(base):
                return False
        return not any(a.within(base) for a in lay.areas if a.kind in IMPASSABLE_AREAS)

    def move_path(self, base: Base, to: Point, discs: Sequence[Disc] = (), within: float = INF
                  ) -> tuple[float, list[Point] | None]:
        """The shortest route for the base's centre to ``to``, keeping the base clear of
        Walls, closed Hatches and the battlefield edge (through open Hatchways however wide
        the base: "Open Hatchways") and out of ``discs`` (other models, Engagement Range:
        "Impassable Terrain and Other Models"; see :func:`pathing.route`, which also says how
        a destination inside a disc cuts the route short; ``within``: how far the move goes)."""
        self._check(base.centre)
        self._check(to)
        if not self.layout.connected(base.centre, to):
            return INF, None
        g = self.layout.move_layer(base.radius).graph(self.closed_mask)
        pts = route(g, base.centre, to, discs, within) if discs else g.path(base.centre, to)
        if pts is None:
            return INF, None
        return polyline_length(pts), pts

    # --- visibility -----------------------------------------------------------------------

    def visible(self, observer: Base, target: Base, others: Sequence[Base] = ()) -> bool:
        """``target`` is visible to ``observer`` (Rules Adaptations "Visibility"). ``others``
        are the models that can block the line: every model that is neither the observer nor
        in the target's unit."""
        if not self.layout.connected(observer.centre, target.centre):
            return False
        return visibility.visible(observer, target, self.blocks, others)

    def fully_visible(self, observer: Base, target: Base, others: Sequence[Base] = ()) -> bool:
        """Every part of ``target``'s base is visible to ``observer``."""
        if not self.layout.connected(observer.centre, target.centre):
            return False
        return visibility.fully_visible(observer, target, self.blocks, others)

    def visible_models(self, observers: Sequence[Base], targets: Sequence[Base],
                       bystanders: Sequence[Base] = ()) -> list[int]:
        """Indices of the target unit's models visible to one or more models of the observing
        unit (those an attack may be allocated to: "Allocating Attacks"). ``bystanders`` are the
        models in neither unit; the observers' own other models also block."""
        out = []
        for k, t in enumerate(targets):
            for o in observers:
                others = list(bystanders) + [m for m in observers if m is not o]
                if self.visible(o, t, others):
                    out.append(k)
                    break
        return out

    def unit_visible(self, observers: Sequence[Base], targets: Sequence[Base],
                     bystanders: Sequence[Base] = ()) -> bool:
        """A unit is visible if one of its models is."""
        for t in targets:
            for o in observers:
                others = list(bystanders) + [m for m in observers if m is not o]
                if self.visible(o, t, others):
                    return True
        return False

    def has_cover(self, target: Base, attackers: Sequence[Base], bystanders: Sequence[Base] = ()) -> bool:
        """Benefit of Cover against a ranged attack: unless the model is fully visible to one
        or more models of the attacking unit (Rules Adaptations "Benefit of Cover")."""
        for o in attackers:
            others = list(bystanders) + [m for m in attackers if m is not o]
            if self.fully_visible(o, target, others):
                return False
        return True
