"""The roster card laid out for SVG: positions of every line, table cell and box.

SVG has no text flow, so the layout is computed here in a monospaced font (every character one
``CHAR`` wide, so widths are known without measuring) and ``templates/roster_card.svg.j2``
draws it. Input is the plain card of :func:`bagm.render.export.card`; nothing here decides a
rule.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

WIDTH = 794  # A4 width at 96 dpi: the image prints at A4 width
MARGIN = 24
SIZE = 10  # font size of body text (px)
CHAR = 6.02  # advance of one monospaced character at SIZE (DejaVu Sans Mono: 0.602 em)
LINE = 13  # line height at SIZE
COLS = int((WIDTH - 2 * MARGIN - 12) / CHAR)  # characters in a unit box's line

# (label, width in characters) of the table columns after the name column
PROFILE = (("M", 5), ("T", 4), ("Sv", 5), ("W", 4), ("Ld", 5), ("OC", 4), ("Inv", 5))
WEAPON = (("Range", 7), ("A", 6), ("BS", 5), ("S", 5), ("AP", 5), ("D", 6))
NAME_COL = 32


@dataclass
class Layout:
    """Items in drawing order: ``text`` (x, y, text, cls, anchor), ``rect`` and ``rule``."""

    width: int = WIDTH
    y: float = MARGIN
    items: list[dict[str, Any]] = field(default_factory=list)

    @property
    def height(self) -> int:
        return int(self.y + MARGIN)

    def text(self, x: float, text: str, cls: str = "", anchor: str = "start",
             y: float | None = None) -> None:
        self.items.append({"kind": "text", "x": round(x, 1), "y": round(self.y if y is None
                                                                          else y, 1),
                           "text": text, "cls": cls, "anchor": anchor})

    def rule(self, x1: float, x2: float, y: float, cls: str = "") -> None:
        self.items.append({"kind": "rule", "x1": round(x1, 1), "x2": round(x2, 1),
                           "y": round(y, 1), "cls": cls})

    def rect(self, x: float, y: float, w: float, h: float) -> None:
        self.items.append({"kind": "rect", "x": round(x, 1), "y": round(y, 1),
                           "w": round(w, 1), "h": round(h, 1)})

    def wrapped(self, x: float, text: str, width: int, cls: str = "",
                indent: str = "") -> None:
        """``text`` over as many lines as it needs, ``width`` characters each."""
        for line in textwrap.wrap(text, width, subsequent_indent=indent) or [""]:
            self.y += LINE
            self.text(x, line, cls)


def _table(lay: Layout, x: float, head: str, columns: tuple[tuple[str, int], ...],
           rows: list[tuple[str, list[str], str]]) -> None:
    """A table: a name column, fixed columns, and an optional note line under each row."""
    lay.y += LINE
    lay.text(x, head, "th")
    cx = x + NAME_COL * CHAR
    for label, w in columns:
        lay.text(cx + w * CHAR / 2, label, "th", "middle")
        cx += w * CHAR
    lay.rule(x, cx, lay.y + 3)
    for name, cells, note in rows:
        lay.y += LINE
        lay.text(x, textwrap.shorten(name, NAME_COL - 1, placeholder="…"))
        cx = x + NAME_COL * CHAR
        for (_, w), cell in zip(columns, cells):
            lay.text(cx + w * CHAR / 2, cell, "", "middle")
            cx += w * CHAR
        if note:
            lay.wrapped(x + 2 * CHAR, note, COLS - 2, "note")


def layout(card: dict[str, Any]) -> Layout:
    """The whole card, top to bottom."""
    lay = Layout()
    left, right = MARGIN, WIDTH - MARGIN
    lay.y += 16
    lay.text(left, card["title"], "title")
    lay.y += LINE + 2
    meta = f"{card['faction']} · {card['detachment']} · Boarding Actions {card['edition']} rules"
    lay.text(left, meta + (" · Battle Ready" if card["battle_ready"] else ""))
    lay.y += LINE
    verdict = "✓ valid Boarding Patrol" if card["valid"] else "✗ not a valid Boarding Patrol"
    lay.text(left, f"{card['points']} / {card['limit']} points ({card['left']}) · {verdict}", "b")
    lay.rule(left, right, lay.y + 6, "thick")
    lay.y += 12
    for u in card["units"]:
        top = lay.y + 4
        lay.y += 4 + LINE
        x = left + 6
        lay.text(x, f"{u['number']}. {u['name']}", "h")
        lay.text(right - 6, f"{u['points']} pts", "h", "end")
        if u["facts"]:
            lay.wrapped(x, " · ".join(" ".join(p for p in (tag.upper(), text) if p)
                                      for tag, text in u["facts"]), COLS)
        if u["same_as"]:
            lay.wrapped(x, f"Profiles, weapons, abilities and keywords as unit {u['same_as']}.",
                        COLS, "note")
        if not u["known"]:
            lay.wrapped(x, "No datasheet of this name in the data packs: nothing more to show.",
                        COLS, "note")
        if u["profiles"]:
            _table(lay, x, "Model", PROFILE,
                   [(p["name"], [p["M"], p["T"], p["Sv"], p["W"], p["Ld"], p["OC"],
                                 p["invuln"] or "-"], "") for p in u["profiles"]])
        for head, skill, weapons in (("Ranged weapons", "BS", u["ranged"]),
                                     ("Melee weapons", "WS", u["melee"])):
            if weapons:
                cols = tuple((skill if label == "BS" else label, w) for label, w in WEAPON)
                _table(lay, x, head, cols,
                       [(w["name"] + (" †" if w["option"] else ""),
                         [w["Range"], w["A"], w["skill"], w["S"], w["AP"], w["D"]],
                         w["abilities"]) for w in weapons])
        for label, key in (("Abilities", "abilities"), ("Boarding Actions", "adaptation"),
                           ("Keywords", "keywords")):
            value = u[key]
            if isinstance(value, list):
                value = ", ".join(value)
            if value:
                lay.wrapped(x, f"{label}: {value}", COLS, "small", "  ")
        lay.y += 6
        lay.rect(left, top, right - left, lay.y - top)
        lay.y += 4
    if card["options"]:
        lay.wrapped(left, "† wargear option: the datasheet lists it, the roster does not say "
                    "which models carry it.", COLS, "small")
    if card["squads"]:
        lay.y += 6
        _table(lay, left, "Boarding Squads", (("Models", 8), ("Points", 8)),
               [(s["name"] if s["name"].startswith(s["unit"]) else f"{s['name']} ({s['unit']})",
                 [s["models"], s["points"]], "")
                for s in card["squads"]])
    if card["underdog"]:
        lay.y += 6
        lay.wrapped(left, card["underdog"], COLS, "b")
    if card["input_error"] or card["findings"]:
        lay.y += 6
        lay.y += LINE
        lay.text(left, "Findings", "th")
        if card["input_error"]:
            lay.wrapped(left, "✗ " + card["input_error"], COLS)
        for f in card["findings"]:
            where = f"line {f['line']} " if f["line"] is not None else ""
            lay.wrapped(left, f"{where}{f['code']} {f['severity']}: {f['message']}", COLS, "",
                        "    ")
    lay.rule(left, right, lay.y + 6)
    lay.y += 6 + LINE
    lay.text(left, f"bagm · Warhammer 40,000 Boarding Actions · {card['faction']} · "
             f"{card['detachment']}", "small")
    return lay
