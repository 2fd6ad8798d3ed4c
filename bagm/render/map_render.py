"""Drawings of a mission map: rich text for the terminal, and SVG.

Renderers only lay out a :class:`~bagm.engine.board.maps.MissionMap` and a Hatchway state; they
decide no rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from bagm.engine.board.battlefield import Area, Layout
    from bagm.engine.board.maps import MissionMap

CW, CH = 6, 3  # characters per Zone across, lines per Zone down

PLAYER_STYLE = {"Attacker": "on #5f1f1f", "Defender": "on #1f2f5f"}
PLAYER_FILL = {"Attacker": "#e74c3c", "Defender": "#3470c9"}
AREA_STYLE = {"Lighting Area": "on #3a3a00", "Compartment": "on #2a3a2a", "Furnace": "on #5a2a00",
              "Furnace Control Zone": "on #6a4a00", "Sector": "", "Prison Cells": "on #3a003a",
              "Strongroom": "on #003a3a", "Access Zone": "on #2a2a4a", "Inaccessible Area": "on #000000"}
AREA_FILL = {"Lighting Area": "#f1e05a", "Compartment": "#7fbf7f", "Furnace": "#e67e22",
             "Furnace Control Zone": "#f39c12", "Sector": "#b0b0b0", "Prison Cells": "#9b59b6",
             "Strongroom": "#16a085", "Access Zone": "#6c7ae0", "Inaccessible Area": "#111111"}
SECTOR_FILL = {"A": "#e74c3c", "B": "#e67e22", "C": "#f1c40f", "D": "#2ecc71"}

# heavy box-drawing joints keyed by (up, down, left, right)
_JOINT = {
    (1, 1, 0, 0): "┃", (0, 0, 1, 1): "━", (1, 0, 0, 0): "╹", (0, 1, 0, 0): "╻", (0, 0, 1, 0): "╸",
    (0, 0, 0, 1): "╺", (0, 1, 0, 1): "┏", (0, 1, 1, 0): "┓", (1, 0, 0, 1): "┗", (1, 0, 1, 0): "┛",
    (1, 1, 0, 1): "┣", (1, 1, 1, 0): "┫", (0, 1, 1, 1): "┳", (1, 0, 1, 1): "┻", (1, 1, 1, 1): "╋",
}


def short_label(label: str | None) -> str:
    """A marker's label in at most two characters (Critical -> Cr, Control Node -> CN)."""
    if not label:
        return ""
    if len(label) <= 2:
        return label
    words = label.split()
    if len(words) > 1:
        return "".join(w[0] for w in words)[:2].upper()
    return label[:2]


def area_tag(area: Area) -> str:
    """A few characters naming an area inside its Zones."""
    if area.player:
        who = "Atk" if area.player == "Attacker" else "Def"
        kind = "" if area.kind == "Entry Zone" else area.kind[0]
        return who + kind
    fixed = {"Furnace": "FUR", "Furnace Control Zone": "FCZ", "Prison Cells": "CELL",
             "Inaccessible Area": "VOID"}
    if area.kind in fixed:
        return fixed[area.kind]
    initials = "".join(w[0] for w in area.kind.split())[:2]
    return (initials + (area.label or ""))[:5]


class _Canvas:
    """A grid of characters, each with a foreground style and a background style."""

    def __init__(self, width: int, height: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.fg = [[""] * width for _ in range(height)]
        self.bg = [[""] * width for _ in range(height)]
        self.w, self.h = width, height

    def put(self, x: int, y: int, ch: str, style: str = "") -> None:
        if 0 <= x < self.w and 0 <= y < self.h:
            self.chars[y][x] = ch
            self.fg[y][x] = style

    def fill(self, x: int, y: int, style: str) -> None:
        if 0 <= x < self.w and 0 <= y < self.h:
            self.bg[y][x] = style

    def text(self) -> Text:
        out = Text()
        for y in range(self.h):
            for x in range(self.w):
                style = f"{self.fg[y][x]} {self.bg[y][x]}".strip()
                out.append(self.chars[y][x], style=style or None)
            if y < self.h - 1:
                out.append("\n")
        return out


def draw_text(mmap: MissionMap, open_hatchways: set[int] | None = None) -> Text:
    """The map as rich text: Zones, Walls, Hatchways open and closed, markers, areas."""
    lay = mmap.layout
    is_open = _open_set(lay, open_hatchways)
    cols, rows = lay.grid_size
    cv = _Canvas(cols * CW + 1, rows * CH + 1)
    on_board = {(c, r) for b in lay.boards for c in range(b.col, b.col + b.columns)
                for r in range(b.row, b.row + b.rows)}
    # areas first (background), then Entry Zones over them
    tags: dict[tuple[int, int], list[str]] = {}
    for area in lay.areas + lay.entry_zones:
        style = PLAYER_STYLE.get(area.player or "", "") if area.player else AREA_STYLE.get(area.kind, "")
        for c, r in area.zones:
            for dy in range(1, CH):
                for dx in range(1, CW):
                    if style:
                        cv.fill(c * CW + dx, r * CH + dy, style)
            tags.setdefault((c, r), []).append(area_tag(area))
    for (c, r), ts in tags.items():
        entry = [t for t in ts if t[:3] in ("Atk", "Def")]
        other = [t for t in ts if t[:3] not in ("Atk", "Def")]
        for line, words in ((1, entry), (2, other)):
            s = " ".join(words)[:CW - 1]
            for k, ch in enumerate(s):
                cv.put(c * CW + 1 + k, r * CH + line, ch, "bold white" if line == 1 else "white")
    # the grid: a dot at each Zone corner on a board
    for gx in range(cols + 1):
        for gy in range(rows + 1):
            if any((c, r) in on_board for c in (gx - 1, gx) for r in (gy - 1, gy)):
                cv.put(gx * CW, gy * CH, "·", "grey42")
    # Walls and Hatchway frames as unit edges, then the joints
    solid: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for w in lay.walls:
        solid |= set(_unit_edges(w.a, w.b))
    for h in lay.hatchways:
        solid |= set(_unit_edges(h.a, h.b))
    for (a, b) in solid:
        if a[1] == b[1]:
            for dx in range(1, CW):
                cv.put(a[0] * CW + dx, a[1] * CH, "━", "bold white")
        else:
            for dy in range(1, CH):
                cv.put(a[0] * CW, a[1] * CH + dy, "┃", "bold white")
    points = {p for e in solid for p in e}
    for p in points:
        up = ((p[0], p[1] - 1), p) in solid
        down = (p, (p[0], p[1] + 1)) in solid
        left = ((p[0] - 1, p[1]), p) in solid
        right = (p, (p[0] + 1, p[1])) in solid
        cv.put(p[0] * CW, p[1] * CH, _JOINT.get((up, down, left, right), "╋"), "bold white")
    for pillar in lay.pillars:
        cv.put(pillar.at[0] * CW, pillar.at[1] * CH, "■", "bold white")
    # Hatches over their frames
    for h in lay.hatchways:
        (x0, y0), (x1, y1) = h.opening
        opened = h.index in is_open
        style = ("bold green" if opened else "bold red") if not h.label else (
            "bold bright_green" if opened else "bold magenta")
        if h.horizontal:
            line = round(y0 / lay.zone_h * CH)
            lo, hi = sorted((x0 / lay.zone_w * CW, x1 / lay.zone_w * CW))
            for x in range(round(lo + 0.25), round(hi - 0.25) + 1):
                cv.put(x, line, "┅" if opened else "▬", style)
        else:
            col = round(x0 / lay.zone_w * CW)
            lo, hi = sorted((y0 / lay.zone_h * CH, y1 / lay.zone_h * CH))
            for y in range(max(round(lo), int(lo) + 1), min(round(hi), int(hi - 1e-9)) + 1):
                cv.put(col, y, "┇" if opened else "█", style)
    # objective markers
    for m in lay.markers:
        x = round(m.x / lay.zone_w * CW)
        y = min(round(m.y / lay.zone_h * CH), rows * CH - 1)
        if y % CH == 0:
            y += 1
        cv.put(x, y, "◉", "bold yellow")
        for k, ch in enumerate(short_label(m.label)):
            cv.put(x + 1 + k, y, ch, "bold yellow")
    head = Text()
    for board in lay.boards:
        start = board.col * CW
        pad = max(0, start - len(head.plain))
        name = board.name.center(board.columns * CW)
        head.append(" " * pad + name, style="bold")
    return Text.assemble(head, "\n", cv.text())


def legend(mmap: MissionMap, open_hatchways: set[int] | None = None) -> Table:
    """What the symbols and tags mean, with the labelled pieces."""
    lay = mmap.layout
    is_open = _open_set(lay, open_hatchways)
    t = Table(show_header=False, box=None, padding=(0, 1))
    t.add_column(style="bold")
    t.add_column()
    t.add_row(Text("━┃■", style="bold white"), "Wall, Pillar")
    t.add_row(Text.assemble(("▬ █", "bold red"), " ", ("┅ ┇", "bold green")),
              f"Hatchway closed, open ({len(is_open)} of {len(lay.hatchways)} open)")
    labelled = [h for h in lay.hatchways if h.label]
    if labelled:
        names = sorted({h.label or "" for h in labelled})
        t.add_row(Text.assemble(("▬ █", "bold magenta"), " ", ("┅ ┇", "bold bright_green")),
                  Text(", ".join(f"{n} ({sum(h.label == n for h in labelled)})" for n in names)))
    if lay.markers:
        marks = sorted({(short_label(m.label), m.label or "") for m in lay.markers})
        text = ", ".join(f"{s} {full}" if s != full else s for s, full in marks if full)
        t.add_row(Text("◉", style="bold yellow"),
                  Text(f"objective marker ({len(lay.markers)})" + (f": {text}" if text else "")))
    kinds: dict[str, str] = {}
    for z in lay.entry_zones:
        kinds.setdefault(area_tag(z), z.name.replace(f" {z.label}", "") if z.label else z.name)
    for tag, name in sorted(kinds.items()):
        n = sum(area_tag(z) == tag for z in lay.entry_zones)
        t.add_row(Text(tag, style=PLAYER_STYLE.get("Attacker" if tag.startswith("Atk") else "Defender") or ""),
                  Text(f"{name} ({n})"))
    seen: set[str] = set()
    for a in lay.areas:
        tag = area_tag(a)
        if tag in seen:
            continue
        seen.add(tag)
        t.add_row(Text(tag, style=AREA_STYLE.get(a.kind) or ""), Text(a.name))
    if lay.power_lines:
        t.add_row("Power Lines", Text(", ".join(f"{a}-{b}" for a, b in lay.power_lines)))
    return t


def mission_panel(mmap: MissionMap, open_hatchways: set[int] | None = None) -> Group:
    """The whole `bagm mission show` output: map, legend, rules summary, provenance."""
    parts: list = [Panel(draw_text(mmap, open_hatchways), title=Text(mmap.title), expand=False),
                   legend(mmap, open_hatchways)]
    if mmap.summary:
        body = Text()
        for i, s in enumerate(mmap.summary):
            body.append(("\n" if i else "") + "• " + s)
        parts.append(Panel(body, title="Mission rules (summary)", expand=False))
    lay = mmap.layout
    w, h = lay.bounds.width, lay.bounds.height
    info = (f"{len(lay.boards)} boards, {w:g}\" x {h:g}\" over all, Zones "
            f"{lay.zone_w:.2f}\" x {lay.zone_h:.2f}\"")
    parts.append(Text(info, style="dim"))
    if mmap.reconstruction:
        parts.append(Text("Reconstruction: " + (mmap.note or "the book's map is not in the text."),
                          style="dim italic"))
    return Group(*parts)


@dataclass
class Drawing:
    """A map drawn as SVG elements in layers, so that a page can add its own over the board
    (the replay draws bases between the Hatchways and the markers) and redraw a Hatchway that
    opens. Points in inches map to pixels by :meth:`x` and :meth:`y`."""

    width: float
    height: float
    margin: float
    top: float
    scale: float
    x0: float
    y0: float
    head: list[str]  # title and background
    board: list[str]  # boards, Zones, areas, Walls, Pillars
    hatchways: dict[int, tuple[str, str]]  # index -> (drawn closed, drawn open)
    labels: list[str]  # labelled Hatchways' names
    markers: list[str]  # Power Lines, then objective markers
    legend: list[str]

    def x(self, v: float) -> float:
        return round(self.margin + (v - self.x0) * self.scale, 2)

    def y(self, v: float) -> float:
        return round(self.top + (v - self.y0) * self.scale, 2)

    def open_tag(self) -> str:
        W, H = self.width, self.height
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W:.0f}" height="{H:.0f}" '
                f'viewBox="0 0 {W:.0f} {H:.0f}" font-family="sans-serif">')

    def inches(self) -> str:
        """The SVG transform that lets a layer draw in the battlefield's inches."""
        return (f"translate({round(self.margin - self.x0 * self.scale, 2)} "
                f"{round(self.top - self.y0 * self.scale, 2)}) scale({self.scale})")


def draw(mmap: MissionMap, open_hatchways: set[int] | None = None, scale: float = 16.0) -> Drawing:
    """The map's SVG elements, layer by layer (16 px to the inch by default)."""
    lay = mmap.layout
    is_open = _open_set(lay, open_hatchways)
    b = lay.bounds
    margin, top = 20.0, 44.0
    extra = 24.0 * (4 + len({a.kind for a in lay.areas}))
    W = b.width * scale + 2 * margin
    H = b.height * scale + top + margin + extra

    def X(x: float) -> float:
        return round(margin + (x - b.x0) * scale, 2)

    def Y(y: float) -> float:
        return round(top + (y - b.y0) * scale, 2)

    def rect(r, fill: str, extra_attrs: str = "") -> str:  # type: ignore[no-untyped-def]
        return (f'<rect x="{X(r.x0)}" y="{Y(r.y0)}" width="{round(r.width * scale, 2)}" '
                f'height="{round(r.height * scale, 2)}" fill="{fill}" {extra_attrs}/>')

    head = [f'<title>{escape(mmap.title)}</title>',
            '<rect width="100%" height="100%" fill="#ffffff"/>',
            f'<text x="{margin}" y="26" font-size="18" font-weight="bold">{escape(mmap.title)}</text>']
    out: list[str] = []
    from bagm.engine.board.geometry import Rect
    for bd in lay.boards:
        out.append(rect(bd.rect, "#ece7da", 'stroke="#555" stroke-width="1.5"'))
        out.append(f'<text x="{X(bd.rect.x0) + 4}" y="{Y(bd.rect.y0) - 4}" font-size="11" '
                   f'fill="#555">{escape(bd.name)}</text>')
        for c in range(bd.columns + 1):
            x = bd.rect.x0 + c * lay.zone_w
            out.append(f'<line x1="{X(x)}" y1="{Y(bd.rect.y0)}" x2="{X(x)}" y2="{Y(bd.rect.y1)}" '
                       'stroke="#cbc3ad" stroke-width="0.8"/>')
        for r in range(bd.rows + 1):
            y = bd.rect.y0 + r * lay.zone_h
            out.append(f'<line x1="{X(bd.rect.x0)}" y1="{Y(y)}" x2="{X(bd.rect.x1)}" y2="{Y(y)}" '
                       'stroke="#cbc3ad" stroke-width="0.8"/>')
    for area in lay.areas + lay.entry_zones:
        if area.player:
            fill, op = PLAYER_FILL[area.player], 0.35
        elif area.kind == "Sector":
            fill, op = SECTOR_FILL.get(area.label or "", "#b0b0b0"), 0.18
        else:
            fill, op = AREA_FILL.get(area.kind, "#999999"), 0.3
        for c, r in sorted(area.zones):
            zr = Rect(c * lay.zone_w, r * lay.zone_h, (c + 1) * lay.zone_w, (r + 1) * lay.zone_h)
            out.append(rect(zr, fill, f'fill-opacity="{op}"'))
        c, r = min(area.zones, key=lambda z: (z[1], z[0]))
        dy = 14 if area.player else 28
        out.append(f'<text x="{X(c * lay.zone_w) + 4}" y="{Y(r * lay.zone_h) + dy}" font-size="11" '
                   f'fill="#222">{escape(area_tag(area))}</text>')
    for solid in lay.solid_rects:
        if solid in lay.gaps:
            continue
        out.append(rect(solid, "#3b3b3b"))
    for p in lay.pillars:
        out.append(rect(p.rect, "#111111"))
    hatchways: dict[int, tuple[str, str]] = {}
    labels: list[str] = []
    for h in lay.hatchways:
        closed_colour = "#8e44ad" if h.label else "#c0392b"
        open_colour = "#8e44ad" if h.label else "#27ae60"
        hatchways[h.index] = (rect(h.door, closed_colour),
                              rect(h.door, "none", f'stroke="{open_colour}" stroke-width="2" stroke-dasharray="4 3"'))
        if h.label:
            colour = open_colour if h.index in is_open else closed_colour
            cx, cy = h.centre
            labels.append(f'<text x="{X(cx) + 6}" y="{Y(cy) - 6}" font-size="10" fill="{colour}">'
                          f'{escape(h.label)}</text>')
    marks: list[str] = []
    pos = {m.label: (m.x, m.y) for m in lay.markers if m.label}
    for m1, m2 in lay.power_lines:
        (x0, y0), (x1, y1) = pos[m1], pos[m2]
        marks.append(f'<line x1="{X(x0)}" y1="{Y(y0)}" x2="{X(x1)}" y2="{Y(y1)}" stroke="#8e44ad" '
                     'stroke-width="2.5" stroke-dasharray="8 4"/>')
    for m in lay.markers:
        marks.append(f'<circle cx="{X(m.x)}" cy="{Y(m.y)}" r="{round(m.radius * scale, 2)}" '
                     'fill="#f1c40f" stroke="#000" stroke-width="1.5"/>')
        if m.label:
            marks.append(f'<text x="{X(m.x)}" y="{Y(m.y) + 4}" font-size="10" text-anchor="middle" '
                         f'font-weight="bold">{escape(short_label(m.label))}</text>')
    # legend
    leg: list[str] = []
    y = Y(b.y1) + 22
    items = [("#3b3b3b", "Wall / Pillar"), ("#c0392b", "closed Hatchway"),
             ("#27ae60", "open Hatchway (dashed)"), ("#f1c40f", "objective marker (40mm)"),
             (PLAYER_FILL["Attacker"], "Attacker Entry Zone"), (PLAYER_FILL["Defender"], "Defender Entry Zone")]
    if any(h.label for h in lay.hatchways):
        items.append(("#8e44ad", "labelled Hatchway: " + ", ".join(sorted({h.label or "" for h in lay.hatchways if h.label}))))
    for kind in sorted({a.kind for a in lay.areas}):
        items.append((AREA_FILL.get(kind, "#999"), kind))
    if lay.power_lines:
        items.append(("#8e44ad", "Power Lines"))
    x = margin
    for colour, name in items:
        width = 22 + 6.5 * len(name)
        if x + width > W - margin:
            x = margin
            y += 20
        leg.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{colour}" stroke="#333"/>')
        leg.append(f'<text x="{x + 16}" y="{y}" font-size="11">{escape(name)}</text>')
        x += width
    if mmap.reconstruction:
        leg.append(f'<text x="{margin}" y="{y + 22}" font-size="10" fill="#666">Reconstruction: the '
                   'book\'s map is not in the rules text; see the map file\'s note.</text>')
    return Drawing(W, H, margin, top, scale, b.x0, b.y0, head, out, hatchways, labels, marks, leg)


def svg(mmap: MissionMap, open_hatchways: set[int] | None = None, scale: float = 16.0) -> str:
    """The map as a standalone SVG document (16 px to the inch by default)."""
    d = draw(mmap, open_hatchways, scale)
    is_open = _open_set(mmap.layout, open_hatchways)
    out = [d.open_tag(), *d.head, *d.board]
    labels = iter(d.labels)
    for h in mmap.layout.hatchways:
        out.append(d.hatchways[h.index][1 if h.index in is_open else 0])
        if h.label:
            out.append(next(labels))
    out += d.markers + d.legend
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_svg(path: Path, text: str) -> None:
    """Write the SVG atomically (the one ``bagm.io.atomic.write_atomic``)."""
    from bagm.io.atomic import write_atomic

    write_atomic(path, text)


def _open_set(lay: Layout, open_hatchways: set[int] | None) -> set[int]:
    if open_hatchways is None:
        return {h.index for h in lay.hatchways if h.starts_open}
    return set(open_hatchways)


def _unit_edges(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    if a[1] == b[1]:
        return [((x, a[1]), (x + 1, a[1])) for x in range(min(a[0], b[0]), max(a[0], b[0]))]
    return [((a[0], y), (a[0], y + 1)) for y in range(min(a[1], b[1]), max(a[1], b[1]))]
