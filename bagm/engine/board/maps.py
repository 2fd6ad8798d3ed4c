"""Mission maps: the YAML map format, its validation, and the bundled maps of the 15 missions.

The book's mission maps are pictures that are not in the rules text; every bundled map is a
reconstruction that satisfies what the text states (and says so in ``reconstruction`` and
``note``). A user's own map file uses the same format (``bagm mission show N --map FILE``):

    board: {width: 22, height: 30, columns: 5, rows: 7}   # one game board (the default)
    pieces: {wall: 0.5, pillar: 1.0, hatch: 2.5}         # piece sizes in inches (the default)
    boards: [{name: left, at: [0, 0]}, {name: right, at: [5, 0]}]   # Zone units (the default)
    walls: [[[0, 2], [3, 2], [3, 4]]]      # polylines along Zone edges, in Zone-corner units
    hatchways: [{at: [[3, 2], [4, 2]], open: false, label: Airlock}]
    pillars: [[3, 2]]
    objectives: [{label: A, at: [2.5, 3.5]}]             # Zone units: x.5 is a Zone's middle
    entry_zones: [{player: Attacker, zones: [[0, 0]]}]   # kind: Patrol, Guard, Underdog...
    areas: [{kind: Lighting Area, label: "1", zones: [[1, 1], [1, 2]]}]
    power_lines: [[A, B]]                                # objective labels

Coordinates are Zone units on the battlefield's Zone grid: x counts Zone widths to the right, y
counts Zone heights down the map, so Zone (c, r) spans [c, c+1] x [r, r+1]. Every problem is an
:class:`~bagm.io.yamlsafe.InputError` naming the file and line.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from bagm.engine.board.battlefield import (
    Area,
    Board,
    Hatchway,
    Layout,
    ObjectiveMarker,
    Pieces,
    Pillar,
    Wall,
)
from bagm.engine.board.geometry import OBJECTIVE_MARKER_MM, Rect, mm_to_inches
from bagm.io.yamlsafe import InputError, Loc, Located, load

BUNDLED = (11, 12, 13, 21, 22, 23, 31, 32, 33, 1, 2, 3, 4, 5, 6)
PLAYERS = ("Attacker", "Defender")
SYMMETRIES = ("point", "mirror", "none")
_DOOR_OVERLAP = 0.01  # the Hatch overlaps its frames a little so no line slips between them

# input bounds (no map comes near them; a hostile one would otherwise cost minutes and GBs)
MAX_SIZE = 10_000  # any number in a map file: inches or Zone units
MAX_BOARDS = 16
MAX_SPAN = 64  # how far from the first Zone the boards may reach (the book's maps: 10)

_TOP_KEYS = {"mission", "name", "kind", "symmetry", "reconstruction", "note", "summary", "board",
             "pieces", "boards", "walls", "hatchways", "pillars", "objectives", "entry_zones",
             "areas", "power_lines"}


@dataclass
class MissionMap:
    """A mission's map file: what it is, its rules in short, and its :class:`Layout`."""

    path: str
    layout: Layout
    mission: int | None = None
    name: str | None = None
    kind: str = "custom"
    symmetry: str = "none"
    reconstruction: bool = False
    note: str | None = None
    summary: list[str] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def title(self) -> str:
        if self.mission is None:
            return self.name or Path(self.path).name
        return f"{self.mission}. {self.name}" if self.name else f"Mission {self.mission}"


def bundled_path(number: int) -> Path:
    return Path(str(resources.files("bagm.engine.board"))) / "maps" / f"mission_{number:02d}.yaml"


@lru_cache(maxsize=None)
def bundled(number: int) -> MissionMap:
    """The bundled map of mission ``number`` (loaded once per process, so its path graphs are
    built once and shared by every game)."""
    if number not in BUNDLED:
        raise KeyError(number)
    return load_map(bundled_path(number))


def load_map(path: Path | str, text: str | None = None) -> MissionMap:
    """Load and validate a map file."""
    doc = load(path, text)
    return _Reader(str(path), doc).read()


class _Reader:
    def __init__(self, path: str, doc: Located) -> None:
        self.path = path
        self.doc = doc

    # --- errors -------------------------------------------------------------------------

    def fail(self, loc: Loc, message: str, hint: str | None = None) -> InputError:
        return InputError(self.path, message, line=self.doc.line(loc), hint=hint)

    def mapping(self, value: Any, loc: Loc, keys: set[str], what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(loc, f"{what} must be a mapping of keys to values")
        for k in value:
            if k not in keys:
                close = difflib.get_close_matches(str(k), sorted(keys), n=1)
                hint = f"did you mean '{close[0]}'?" if close else "known: " + ", ".join(sorted(keys))
                raise self.fail(loc + (k,), f"unknown key '{k}' in {what}", hint)
        return value

    def listing(self, value: Any, loc: Loc, what: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(loc, f"{what} must be a list")
        return value

    def number(self, value: Any, loc: Loc, what: str, positive: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(loc, f"{what} must be a number, not {value!r}")
        if not -MAX_SIZE <= value <= MAX_SIZE:  # also refuses .inf and .nan
            raise self.fail(loc, f"{what} must be a number from {-MAX_SIZE:,} to {MAX_SIZE:,}, "
                            f"not {value!r}")
        if positive and value <= 0:
            raise self.fail(loc, f"{what} must be more than 0")
        return float(value)

    def integer(self, value: Any, loc: Loc, what: str, lo: int = 0, hi: int = 1000) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(loc, f"{what} must be a whole number from {lo} to {hi}, not {value!r}")
        return value

    def point(self, value: Any, loc: Loc, what: str) -> tuple[float, float]:
        if not (isinstance(value, list) and len(value) == 2):
            raise self.fail(loc, f"{what} must be a pair [x, y] in Zone units, not {value!r}")
        x, y = self.number(value[0], loc + (0,), what), self.number(value[1], loc + (1,), what)
        span = getattr(self, "span", None)  # the boards' extent, once they are read
        if span is not None and not (0 <= x <= span[0] and 0 <= y <= span[1]):
            raise self.fail(loc, f"{what} [{x:g}, {y:g}] is off the board (outside the "
                            "battlefield)",
                            f"the boards span [0, 0] to [{span[0]}, {span[1]}] in Zone units")
        return (x, y)

    def grid_point(self, value: Any, loc: Loc, what: str) -> tuple[int, int]:
        x, y = self.point(value, loc, what)
        if x != int(x) or y != int(y):
            raise self.fail(loc, f"{what} [{x:g}, {y:g}] is not on the Zone grid",
                            "Walls, Hatchways and Pillars lie on Zone edges and corners: "
                            "use whole numbers")
        return (int(x), int(y))

    def text(self, value: Any, loc: Loc, what: str) -> str:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.fail(loc, f"{what} must be text")
        return str(value)

    # --- the document -------------------------------------------------------------------

    def read(self) -> MissionMap:
        data = self.doc.data
        top = self.mapping(data, (), _TOP_KEYS, "the map file")
        mission = top.get("mission")
        if mission is not None:
            mission = self.integer(mission, ("mission",), "mission", 1, 99)
        kind = str(top.get("kind", "custom"))
        symmetry = str(top.get("symmetry", "none"))
        if symmetry not in SYMMETRIES:
            raise self.fail(("symmetry",), f"unknown symmetry '{symmetry}'",
                            "use one of: " + ", ".join(SYMMETRIES))
        summary = [self.text(s, ("summary", i), "a summary line")
                   for i, s in enumerate(self.listing(top.get("summary"), ("summary",), "summary"))]
        reconstruction = top.get("reconstruction", False)
        if not isinstance(reconstruction, bool):
            raise self.fail(("reconstruction",), "reconstruction must be true or false")

        self.read_board(top)
        layout = Layout(self.zw, self.zh, self.boards, pieces=self.pieces)
        self.used_edges: dict[tuple[tuple[int, int], tuple[int, int]], int | None] = {}
        layout.walls = self.walls = self.read_walls(top)
        layout.hatchways = self.hatchways_read = self.read_hatchways(top)
        layout.pillars = self.pillars = self.read_pillars(top)
        layout.markers = self.read_markers(top)
        layout.entry_zones = self.read_areas(top, "entry_zones")
        layout.areas = self.read_areas(top, "areas")
        layout.power_lines = self.read_power_lines(top, layout)
        return MissionMap(self.path, layout, mission,
                          str(top["name"]) if "name" in top else None, kind, symmetry,
                          reconstruction, str(top["note"]) if "note" in top else None, summary,
                          data)

    def read_board(self, top: dict[str, Any]) -> None:
        board = self.mapping(top.get("board", {}), ("board",),
                             {"width", "height", "columns", "rows"}, "board")
        width = self.number(board.get("width", 22), ("board", "width"), "board width", True)
        height = self.number(board.get("height", 30), ("board", "height"), "board height", True)
        cols = self.integer(board.get("columns", 5), ("board", "columns"), "board columns", 1, 40)
        rows = self.integer(board.get("rows", 7), ("board", "rows"), "board rows", 1, 40)
        self.zw, self.zh = width / cols, height / rows
        pieces = self.mapping(top.get("pieces", {}), ("pieces",), {"wall", "pillar", "hatch"}, "pieces")
        default = Pieces()
        self.pieces = Pieces(
            self.number(pieces.get("wall", default.wall), ("pieces", "wall"), "wall thickness", True),
            self.number(pieces.get("pillar", default.pillar), ("pieces", "pillar"), "pillar size", True),
            self.number(pieces.get("hatch", default.hatch), ("pieces", "hatch"), "hatch width", True))
        if self.pieces.wall >= min(self.zw, self.zh) / 2:
            raise self.fail(("pieces", "wall"), "Walls this thick would fill the Zones")
        raw_boards = top.get("boards", [{"name": "left", "at": [0, 0]},
                                        {"name": "right", "at": [cols, 0]}])
        self.boards: list[Board] = []
        taken: dict[tuple[int, int], str] = {}
        for i, b in enumerate(self.listing(raw_boards, ("boards",), "boards")):
            loc: Loc = ("boards", i)
            b = self.mapping(b, loc, {"name", "at"}, "a board")
            name = self.text(b.get("name", f"board {i + 1}"), loc + ("name",), "board name")
            if any(x.name == name for x in self.boards):
                raise self.fail(loc + ("name",), f"two boards are named '{name}'")
            if i >= MAX_BOARDS:
                raise self.fail(loc, f"a map has at most {MAX_BOARDS} boards")
            c, r = self.grid_point(b.get("at", [0, 0]), loc + ("at",), "board position")
            if c < 0 or r < 0:
                raise self.fail(loc + ("at",), "board positions must not be negative")
            if c + cols > MAX_SPAN or r + rows > MAX_SPAN:
                raise self.fail(loc + ("at",), f"board '{name}' at [{c}, {r}] reaches beyond "
                                f"{MAX_SPAN} Zones", "put the boards next to each other")
            for dc in range(cols):
                for dr in range(rows):
                    if (c + dc, r + dr) in taken:
                        raise self.fail(loc + ("at",), f"board '{name}' overlaps board "
                                        f"'{taken[(c + dc, r + dr)]}'")
                    taken[(c + dc, r + dr)] = name
            self.boards.append(Board(name, c, r, cols, rows,
                                     Rect(c * self.zw, r * self.zh, (c + cols) * self.zw,
                                          (r + rows) * self.zh)))
        if not self.boards:
            raise self.fail(("boards",), "a map needs at least one board")
        self.span = (max(b.col + b.columns for b in self.boards),
                     max(b.row + b.rows for b in self.boards))

    # --- pieces on the grid ---------------------------------------------------------------

    def on_board_edge(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """The unit Zone edge a-b lies on some board (inside it or along its border)."""
        for bd in self.boards:
            if (bd.col <= min(a[0], b[0]) and max(a[0], b[0]) <= bd.col + bd.columns
                    and bd.row <= min(a[1], b[1]) and max(a[1], b[1]) <= bd.row + bd.rows):
                return True
        return False

    def on_board_point(self, p: tuple[int, int]) -> bool:
        return any(bd.col <= p[0] <= bd.col + bd.columns and bd.row <= p[1] <= bd.row + bd.rows
                   for bd in self.boards)

    def unit_edges(self, a: tuple[int, int], b: tuple[int, int], loc: Loc, what: str
                   ) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        if a == b:
            raise self.fail(loc, f"{what} from {list(a)} to {list(b)} has no length")
        if a[0] != b[0] and a[1] != b[1]:
            raise self.fail(loc, f"{what} from {list(a)} to {list(b)} is not along a Zone edge",
                            "Walls and Hatchways run along the Zone grid lines: keep x or y the same")
        edges = []
        if a[1] == b[1]:
            for x in range(min(a[0], b[0]), max(a[0], b[0])):
                edges.append(((x, a[1]), (x + 1, a[1])))
        else:
            for y in range(min(a[1], b[1]), max(a[1], b[1])):
                edges.append(((a[0], y), (a[0], y + 1)))
        for e in edges:
            if not self.on_board_edge(*e):
                raise self.fail(loc, f"{what} from {list(a)} to {list(b)} is off the board "
                                f"(at {list(e[0])}-{list(e[1])})", "keep pieces on the boards")
        return edges

    def claim(self, edges: list, loc: Loc, what: str) -> None:  # type: ignore[type-arg]
        line = self.doc.line(loc)
        for e in edges:
            if e in self.used_edges:
                other = self.used_edges[e]
                where = f" (line {other})" if other else ""
                raise self.fail(loc, f"overlapping {what}: the Zone edge {list(e[0])}-{list(e[1])} "
                                f"already has a Wall or Hatchway{where}", "remove one of the two")
            self.used_edges[e] = line

    def line_rect(self, a: tuple[float, float], b: tuple[float, float], cap: bool = True) -> Rect:
        """The rectangle of a Wall on the grid line a-b (Zone units), ``cap`` extending it half
        a thickness past each end so that Walls meeting at a corner close it."""
        t = self.pieces.wall / 2
        e = t if cap else 0.0
        x0, x1 = sorted((a[0] * self.zw, b[0] * self.zw))
        y0, y1 = sorted((a[1] * self.zh, b[1] * self.zh))
        if y0 == y1:
            return Rect(x0 - e, y0 - t, x1 + e, y1 + t)
        return Rect(x0 - t, y0 - e, x1 + t, y1 + e)

    def read_walls(self, top: dict[str, Any]) -> list[Wall]:
        out = []
        for i, w in enumerate(self.listing(top.get("walls"), ("walls",), "walls")):
            loc: Loc = ("walls", i)
            pts = self.listing(w, loc, "a Wall (a list of Zone-corner points)")
            if len(pts) < 2:
                raise self.fail(loc, "a Wall needs at least two points")
            grid = [self.grid_point(p, loc + (k,), "Wall point") for k, p in enumerate(pts)]
            for k in range(len(grid) - 1):
                a, b = grid[k], grid[k + 1]
                self.claim(self.unit_edges(a, b, loc + (k,), "Wall"), loc + (k,), "Walls")
                out.append(Wall(a, b, self.line_rect(a, b)))
        return out

    def read_hatchways(self, top: dict[str, Any]) -> list[Hatchway]:
        out: list[Hatchway] = []
        for i, h in enumerate(self.listing(top.get("hatchways"), ("hatchways",), "hatchways")):
            loc: Loc = ("hatchways", i)
            h = self.mapping(h, loc, {"at", "open", "label"}, "a Hatchway")
            at = h.get("at")
            if not (isinstance(at, list) and len(at) == 2):
                raise self.fail(loc + ("at",), "a Hatchway needs 'at: [[x0, y0], [x1, y1]]', the "
                                "Zone edge it stands on")
            a = self.grid_point(at[0], loc + ("at",), "Hatchway end")
            b = self.grid_point(at[1], loc + ("at",), "Hatchway end")
            edges = self.unit_edges(a, b, loc + ("at",), "Hatchway")
            self.claim(edges, loc + ("at",), "Hatchway and Wall")
            is_open = h.get("open", False)
            if not isinstance(is_open, bool):
                raise self.fail(loc + ("open",), "open must be true or false")
            label = self.text(h["label"], loc + ("label",), "label") if "label" in h else None
            out.append(self.hatchway(len(out), a, b, is_open, label, loc))
        return out

    def hatchway(self, index: int, a: tuple[int, int], b: tuple[int, int], is_open: bool,
                 label: str | None, loc: Loc) -> Hatchway:
        w = self.pieces.hatch
        t = self.pieces.wall / 2
        horizontal = a[1] == b[1]
        length = abs(b[0] - a[0]) * self.zw if horizontal else abs(b[1] - a[1]) * self.zh
        if w > length - self.pieces.wall:
            raise self.fail(loc, f"a {w:g}\" Hatch does not fit on a {length:.2f}\" Zone edge",
                            "use a longer Hatchway or a smaller 'pieces: hatch'")
        ax, ay, bx, by = a[0] * self.zw, a[1] * self.zh, b[0] * self.zw, b[1] * self.zh
        if horizontal:
            x0, x1 = sorted((ax, bx))
            mid = (x0 + x1) / 2
            frames = (Rect(x0 - t, ay - t, mid - w / 2, ay + t), Rect(mid + w / 2, ay - t, x1 + t, ay + t))
            door = Rect(mid - w / 2 - _DOOR_OVERLAP, ay - t, mid + w / 2 + _DOOR_OVERLAP, ay + t)
            opening = ((mid - w / 2, ay), (mid + w / 2, ay))
        else:
            y0, y1 = sorted((ay, by))
            mid = (y0 + y1) / 2
            frames = (Rect(ax - t, y0 - t, ax + t, mid - w / 2), Rect(ax - t, mid + w / 2, ax + t, y1 + t))
            door = Rect(ax - t, mid - w / 2 - _DOOR_OVERLAP, ax + t, mid + w / 2 + _DOOR_OVERLAP)
            opening = ((ax, mid - w / 2), (ax, mid + w / 2))
        return Hatchway(index, a, b, is_open, label, door, frames, opening)

    def read_pillars(self, top: dict[str, Any]) -> list[Pillar]:
        out = []
        s = self.pieces.pillar / 2
        for i, p in enumerate(self.listing(top.get("pillars"), ("pillars",), "pillars")):
            g = self.grid_point(p, ("pillars", i), "Pillar")
            if not self.on_board_point(g):
                raise self.fail(("pillars", i), f"Pillar at {list(g)} is off the board")
            x, y = g[0] * self.zw, g[1] * self.zh
            out.append(Pillar(g, Rect(x - s, y - s, x + s, y + s)))
        return out

    def read_markers(self, top: dict[str, Any]) -> list[ObjectiveMarker]:
        out: list[ObjectiveMarker] = []
        radius = mm_to_inches(OBJECTIVE_MARKER_MM) / 2
        for i, m in enumerate(self.listing(top.get("objectives"), ("objectives",), "objectives")):
            loc: Loc = ("objectives", i)
            m = self.mapping(m, loc, {"label", "at"}, "an objective marker")
            if "at" not in m:
                raise self.fail(loc, "an objective marker needs 'at: [x, y]' (Zone units)")
            x, y = self.point(m["at"], loc + ("at",), "objective marker position")
            px, py = x * self.zw, y * self.zh
            probes = ((px, py), (px - radius, py), (px + radius, py), (px, py - radius),
                      (px, py + radius))
            if not all(any(b.rect.contains(q, 1e-9) for b in self.boards) for q in probes):
                raise self.fail(loc + ("at",), f"objective marker at [{x:g}, {y:g}] is off the board")
            solid = [w.rect for w in self.walls] + [p.rect for p in self.pillars] + \
                [r for h in self.hatchways_read for r in (*h.frames, h.door)]
            if any(r.contains((px, py), -1e-9) for r in solid):
                raise self.fail(loc + ("at",), f"objective marker at [{x:g}, {y:g}] is inside a Wall")
            label = self.text(m["label"], loc + ("label",), "label") if "label" in m else None
            out.append(ObjectiveMarker(label, px, py))
        return out

    def read_areas(self, top: dict[str, Any], key: str) -> list[Area]:
        out = []
        entry = key == "entry_zones"
        keys = {"player", "kind", "label", "zones"} if entry else {"kind", "label", "zones"}
        for i, a in enumerate(self.listing(top.get(key), (key,), key)):
            loc: Loc = (key, i)
            what = "an Entry Zone" if entry else "an area"
            a = self.mapping(a, loc, keys, what)
            player = None
            if entry:
                player = a.get("player")
                if player not in PLAYERS:
                    raise self.fail(loc + ("player",), f"{what} needs 'player: Attacker' or "
                                    f"'player: Defender', not {player!r}")
                kind = self.text(a.get("kind", "Entry Zone"), loc + ("kind",), "kind")
            else:
                if "kind" not in a:
                    raise self.fail(loc, "an area needs a 'kind' (Lighting Area, Compartment...)")
                kind = self.text(a["kind"], loc + ("kind",), "kind")
            zones = self.listing(a.get("zones"), loc + ("zones",), "zones")
            if not zones:
                raise self.fail(loc, f"{what} needs 'zones: [[col, row], ...]'")
            cells = set()
            for k, z in enumerate(zones):
                c, r = self.grid_point(z, loc + ("zones", k), "Zone")
                if not any(bd.has_zone(c, r) for bd in self.boards):
                    raise self.fail(loc + ("zones", k), f"Zone [{c}, {r}] of {what} is outside the "
                                    "battlefield", "Zones are [col, row] on the boards")
                cells.add((c, r))
            boards = {bd.name for bd in self.boards for c, r in cells if bd.has_zone(c, r)}
            label = self.text(a["label"], loc + ("label",), "label") if "label" in a else None
            out.append(Area(kind, label, frozenset(cells), player, self.zw, self.zh,
                            boards.pop() if len(boards) == 1 else None))
        return out

    def read_power_lines(self, top: dict[str, Any], layout: Layout) -> list[tuple[str, str]]:
        labels = [m.label for m in layout.markers if m.label]
        out = []
        for i, pl in enumerate(self.listing(top.get("power_lines"), ("power_lines",), "power_lines")):
            loc: Loc = ("power_lines", i)
            if not (isinstance(pl, list) and len(pl) == 2):
                raise self.fail(loc, "a Power Line joins two objective markers: [label, label]")
            a, b = (self.text(x, loc + (k,), "label") for k, x in enumerate(pl))
            for x in (a, b):
                if x not in labels:
                    close = difflib.get_close_matches(x, labels, n=1)
                    raise self.fail(loc, f"no objective marker is labelled '{x}'",
                                    f"did you mean '{close[0]}'?" if close else None)
            if a == b:
                raise self.fail(loc, "a Power Line must join two different markers")
            out.append((a, b))
        return out
