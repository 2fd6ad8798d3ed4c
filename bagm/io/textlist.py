"""Army lists as other tools export them, and the plain-text layouts that players paste.

An :class:`ArmyList` is what a reader found in an export, before any name is looked up: the
list's name, faction and Detachment as written, its units with their model counts, Warlord,
Enhancements and wargear, and every line the reader did not understand. ``bagm.io.ros`` reads
BattleScribe / New Recruit rosters into the same shape; ``bagm.roster.importer`` maps it onto
the data packs.

Text layouts read here (:func:`read_text_list` picks one by its markers):

- ``app``: the Warhammer 40,000 app's plain-text export, also New Recruit's "GW" export: a
  header (list name with points, faction, battle size, Detachment), then sections
  (``CHARACTERS``, ``BATTLELINE``, ``OTHER DATASHEETS``...) of unit lines ``Name (N points)``
  with bullets ``• 10x Model`` (and ``◦`` wargear below them), ``• Warlord``,
  ``• Enhancement: X``. bagm's own text export is this layout.
- ``wtc``: New Recruit's WTC / WTC-compact export: a ``+ FACTION KEYWORD:`` / ``+ DETACHMENT:``
  / ``+ WARLORD:`` / ``+ ENHANCEMENT:`` header block between ``+++`` fences, then lines
  ``Char1: 1x Name (N pts): wargear`` and ``10x Name (N pts)`` with ``•`` model lines.
- ``battlescribe``: BattleScribe's text export and New Recruit's default layout:
  ``++ Force (Catalogue) [N pts] ++``, ``+ Category +`` sections, ``Name [N pts]: a, b, c``
  unit lines with ``. 9x Model: ...`` model lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["ArmyList", "Found", "ListedUnit", "read_text_list", "split_items"]


@dataclass(frozen=True)
class Found:
    """A value as written in the source, and where: ``line`` for text, a path for XML."""

    text: str
    where: str
    line: int | None = None


@dataclass
class ListedUnit:
    """One unit of an exported list, names as written."""

    name: str
    at: Found
    models: int | None = None
    """Model count the export states (model lines, ``10x`` prefixes, model selections)."""
    candidates: list[tuple[int, str]] = field(default_factory=list)
    """``Nx Name`` lines that are models or wargear: the layout cannot tell, the data can."""
    points: int | None = None
    warlord: bool = False
    enhancements: list[str] = field(default_factory=list)
    """Names the layout marks as Enhancements, as written: "Trademark Weapon (Storm bolter)"
    names its weapon too."""
    items: list[str] = field(default_factory=list)
    """Other selections as written: wargear, and Enhancements where the layout does not mark
    them (BattleScribe)."""
    weapon: str | None = None
    """The ranged weapon a Trademark Weapon improves."""
    label: str | None = None
    slot: str | None = None  # "Char1" in the WTC layout


@dataclass
class ArmyList:
    """What a reader found in one export."""

    path: str
    format: str
    name: str | None = None
    faction: Found | None = None
    detachment: Found | None = None
    header: list[Found] = field(default_factory=list)
    """Unlabelled header lines (the app layout): faction, sub-faction or Detachment."""
    faction_hints: list[str] = field(default_factory=list)
    """Faction keywords seen on units ("Faction: Grey Knights" categories), most common first."""
    points: int | None = None
    edition: int | None = None
    battle_ready: bool | None = None
    units: list[ListedUnit] = field(default_factory=list)
    skipped: list[Found] = field(default_factory=list)
    """Lines the reader did not understand; reported, never dropped."""


# --- shared patterns ------------------------------------------------------------------------

# Every pattern here runs on pasted text, so none may backtrack badly: a name ends on a
# non-space (``.*?\S``) and the quantifiers around it are possessive (``*+``), so a long run of
# spaces, digits or brackets is scanned once, not once per place the name could end.
_PTS = r"(?P<pts>\d[\d,.]*+|\?)\s*+(?:points|point|pts|pt)"
UNIT_LINE = re.compile(
    r"^(?:(?P<slot>char\s*+\d++)\s*+:\s*+)?(?:(?P<count>\d{1,4}+)\s*+x\s++)?(?P<name>.*?\S)\s*+"
    r"(?:\(\s*+" + _PTS + r"\s*+\)|\[\s*+" + _PTS.replace("pts>", "pts2>") + r"\s*+\])"
    r"\s*+(?::\s*+(?P<rest>.*))?$", re.I)
BATTLE_SIZE = re.compile(r"^(?:\d+\.\s*)?(combat patrol|incursion|strike force|onslaught|"
                         r"boarding (?:patrol|actions?))\b", re.I)
BULLET = re.compile(r"^(?P<indent>\s*)(?P<mark>[•◦▪‣·*\-–]|\.(?=\s))\s*(?P<text>.*)$")
COUNTED = re.compile(r"^(?P<count>\d{1,4})\s*x\s*(?P<name>.+)$", re.I)  # 4 digits: a count
MODELS = re.compile(r"^(?P<count>\d{1,4})\s+models?$", re.I)
ENHANCEMENT = re.compile(r"^enhancements?\s*:\s*(?P<name>.+)$", re.I)
COST = re.compile(r"^\+?\s*+\d[\d,.]*+\s*+(?:points|point|pts|pt)$", re.I)
TRADEMARK = re.compile(r"^trademark weapon(?: upgrade)?\s*:\s*(?P<weapon>.+)$", re.I)
LABEL = re.compile(r"^(?:label|name)\s*:\s*(?P<label>.+)$", re.I)
RULES = re.compile(r"^rules\s*:\s*boarding actions\s*(?P<year>20\d\d)\b", re.I)
FOOTER = re.compile(r"^(?:exported with|created with|generated by)\b", re.I)
TOTAL = re.compile(r"^total\s*:", re.I)
SECTION = re.compile(r"^[A-Z][A-Z '’&/-]*[A-Z]$")
SECTIONS = {"CHARACTERS", "CHARACTER", "EPIC HEROES", "BATTLELINE", "OTHER DATASHEETS",
            "DEDICATED TRANSPORTS", "DEDICATED TRANSPORT", "ALLIED UNITS", "FORTIFICATIONS",
            "FORTIFICATION", "ATTACHED UNITS", "INFANTRY", "VEHICLES", "MONSTERS"}
_BRACKETED_END = re.compile(r"^(?P<name>.*?\S)\s*+[(\[](?P<inner>[^()\[\]]*+)[)\]]\s*+$")
MAX_LINES = 20_000


def points(text: str | None) -> int | None:
    """``"1,995"`` / ``"75.0"`` -> the number; ``"?"`` -> None."""
    if not text or text == "?":
        return None
    clean = text.replace(",", "")
    if len(clean) > 9:  # no list costs a billion points: a typo or a hostile line, not a cost
        return None
    try:
        return int(float(clean))
    except ValueError:
        return None


def split_items(text: str) -> list[str]:
    """``"a, 2x b (c, d), e"`` -> ``["a", "2x b (c, d)", "e"]``: commas inside brackets stay."""
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [s.strip() for s in out if s.strip()]


def without_cost(text: str) -> str:
    """``"Ember Blade (+15 pts)"`` -> ``"Ember Blade"``; other brackets stay (a name such as
    "Sinister Presence (Aura)", or the weapon of "Trademark Weapon (Storm bolter)")."""
    m = _BRACKETED_END.match(text)
    if m and (COST.match(m.group("inner").strip()) or not m.group("inner").strip()):
        return m.group("name").strip()
    return text.strip()


def _unit_match(line: str) -> re.Match[str] | None:
    m = UNIT_LINE.match(line)
    if m is None or BATTLE_SIZE.match(m.group("name")):
        return None
    return m


def _new_unit(m: re.Match[str], where: str, number: int, line: str) -> ListedUnit:
    unit = ListedUnit(m.group("name").strip(), Found(line, where, number))
    unit.points = points(m.group("pts") or m.group("pts2"))
    if m.group("count"):
        unit.models = int(m.group("count"))
    if m.group("slot"):
        unit.slot = re.sub(r"\s+", "", m.group("slot")).casefold()
    return unit


def _apply_item(unit: ListedUnit, item: str) -> None:
    """One selection named in a unit's list: Warlord, an Enhancement, a weapon, wargear."""
    item = item.strip()
    if not item:
        return
    if item.casefold() == "warlord":
        unit.warlord = True
        return
    m = ENHANCEMENT.match(item)
    if m:
        unit.enhancements.append(without_cost(m.group("name")))
        return
    m = TRADEMARK.match(item)
    if m:
        unit.weapon = m.group("weapon").strip()
        return
    m = LABEL.match(item)
    if m:
        unit.label = m.group("label").strip()
        return
    unit.items.append(item)


def _marked(item: str) -> bool:
    """A Warlord, Enhancement, label or Trademark Weapon line, wherever it is nested."""
    return item.casefold() == "warlord" or any(
        p.match(item) for p in (ENHANCEMENT, TRADEMARK, LABEL))


def _lines(path: str, text: str) -> list[str]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ").split("\n")
    if len(lines) > MAX_LINES:
        from bagm.io.yamlsafe import InputError

        raise InputError(path, f"has {len(lines):,} lines; an army list has a few hundred "
                         f"(limit {MAX_LINES:,})", hint="is this really an exported list?")
    return [ln.rstrip() for ln in lines]


def read_text_list(path: str, text: str) -> ArmyList:
    """Read a text export in whichever layout it is (``InputError`` if it is far too long)."""
    lines = _lines(path, text)
    if any(re.match(r"^\+\s*FACTION KEYWORD\s*:", ln.strip(), re.I) for ln in lines):
        return _read_wtc(path, lines)
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    if re.match(r"^\+\+\s.*\+\+$", first):
        return _read_battlescribe(path, lines)
    return _read_app(path, lines)


def _skip(army: ArmyList, number: int, line: str) -> None:
    army.skipped.append(Found(line.strip(), f"line {number}", number))


# --- the app layout -------------------------------------------------------------------------


def _read_app(path: str, lines: list[str]) -> ArmyList:
    army = ArmyList(path, "app")
    in_header = True
    unit: ListedUnit | None = None
    top_indent: int | None = None  # indent of the unit's first-level bullets
    parent: tuple[int, str] | None = None  # the last first-level "Nx Name" bullet
    parent_children = False

    def close_parent() -> None:
        nonlocal parent, parent_children
        if unit is not None and parent is not None:
            if parent_children:  # a model line: its wargear is listed below it
                unit.models = (unit.models or 0) + parent[0]
            else:
                unit.candidates.append(parent)
        parent, parent_children = None, False

    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if FOOTER.match(line) or TOTAL.match(line) or line.casefold().startswith("underdog:"):
            continue
        bullet = BULLET.match(raw)
        if bullet and unit is not None and not _unit_match(line):
            indent = len(bullet.group("indent").expandtabs(4))
            deep = bullet.group("mark") == "◦" or (top_indent is not None and indent > top_indent)
            content = bullet.group("text").strip()
            if deep:
                if parent is not None:
                    parent_children = True
                if parent is None or _marked(content):
                    _apply_item(unit, content)
                else:
                    unit.items.append(content)
                continue
            if top_indent is None:
                top_indent = indent
            close_parent()
            m = MODELS.match(content)
            if m:
                unit.models = (unit.models or 0) + int(m.group("count"))
                continue
            m = COUNTED.match(content)
            if m:
                parent = (int(m.group("count")), m.group("name").strip())
                continue
            _apply_item(unit, content)
            continue
        if SECTION.match(line) and (not in_header or line in SECTIONS):
            close_parent()
            in_header = False
            unit = None
            continue
        m = _unit_match(line)
        if m and in_header and army.name is None and not army.header:
            army.name = m.group("name").strip()
            army.points = points(m.group("pts") or m.group("pts2"))
            continue
        if m:
            close_parent()
            in_header = False
            unit = _new_unit(m, f"line {number}", number, line)
            top_indent = None
            army.units.append(unit)
            continue
        if in_header:
            if BATTLE_SIZE.match(line):
                continue
            rules = RULES.match(line)
            if rules:
                army.edition = int(rules.group("year"))
            elif line.casefold() == "battle ready":
                army.battle_ready = True
            else:
                army.header.append(Found(line, f"line {number}", number))
            continue
        _skip(army, number, line)
    close_parent()
    return army


# --- New Recruit WTC layout -----------------------------------------------------------------

_WTC_IGNORED = {"number of units", "secondary", "battle size", "force disposition",
                "points limit", "roster note", "allegiance", "game type", "army points"}
_ON_CHAR = re.compile(r"\(\s*+on\s++(?:(?P<slot>char\s*+\d++)\s*+:\s*+)?"
                      r"(?P<unit>[^)]*?[^)\s])\s*+\)\s*+$", re.I)


def _on_char(text: str) -> tuple[str, str | None, str] | None:
    """``"Name (+15 pts) (on Char2: Unit)"`` -> (Enhancement, slot, unit). The unit holds no
    ``)``, so the search starts after the last ``)`` but the final one: one pass, whatever the
    line (a regular expression with a lazy name before it is quadratic on many ``(on``)."""
    text = text.strip()
    if not text.endswith(")"):
        return None
    cut = text.rfind(")", 0, len(text) - 1) + 1
    m = _ON_CHAR.search(text, cut)
    while m is not None and not text[:m.start()].strip():
        m = _ON_CHAR.search(text, m.start() + 1)
    if m is None:
        return None
    return text[:m.start()].strip(), m.group("slot"), m.group("unit")
_HEAD = re.compile(r"^\+\s*+(?P<key>[A-Za-z][A-Za-z ]*+)\s*+:\s*+(?P<value>.*)$")


def _read_wtc(path: str, lines: list[str]) -> ArmyList:
    army = ArmyList(path, "wtc")
    warlord: Found | None = None
    enhancements: list[Found] = []
    last_key = ""
    unit: ListedUnit | None = None
    counted = False  # the unit line gave the model count ("10x Strike Squad")
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or re.match(r"^\+{3,}$", line) or line == "+":
            continue
        if FOOTER.match(line):
            continue
        where = f"line {number}"
        head = _HEAD.match(line)
        if head:
            key, value = head.group("key").strip().casefold(), head.group("value").strip()
            last_key = key
            if key == "faction keyword":
                army.faction = Found(value, where, number)
            elif key == "detachment":
                army.detachment = Found(value, where, number)
            elif key == "total army points":
                army.points = points(re.sub(r"[^\d,.]", "", value) or None)
            elif key == "list name":
                army.name = value
            elif key == "warlord":
                warlord = Found(value, where, number)
            elif key == "enhancement":
                if value and value not in ("-", "—"):
                    enhancements.append(Found(value, where, number))
            elif key not in _WTC_IGNORED:
                _skip(army, number, line)
            continue
        if line.startswith("&"):
            if last_key == "enhancement":
                enhancements.append(Found(line[1:].strip(), where, number))
            elif last_key not in _WTC_IGNORED:
                _skip(army, number, line)
            continue
        if line.startswith("+"):
            _skip(army, number, line)
            continue
        m = None if ENHANCEMENT.match(line) else _unit_match(line)
        if m and not BULLET.match(raw):
            unit = _new_unit(m, where, number, line)
            counted = unit.models is not None
            army.units.append(unit)
            for item in split_items(m.group("rest") or ""):
                _apply_item(unit, item)
            continue
        if SECTION.match(line):
            unit = None
            continue
        if unit is None:
            _skip(army, number, line)
            continue
        bullet = BULLET.match(raw)
        content = bullet.group("text").strip() if bullet else line
        enh = ENHANCEMENT.match(content)
        if enh:
            _apply_item(unit, content)
            continue
        if bullet:  # "• 9x Grey Knight: 9 with Nemesis force weapon, ..."
            model, _, rest = content.partition(":")
            m = COUNTED.match(model.strip())
            if not counted:
                unit.models = (unit.models or 0) + (int(m.group("count")) if m else 1)
            for item in split_items(rest):
                _apply_item(unit, item)
            continue
        for item in split_items(content):  # "  1 with Astartes grenade launcher"
            _apply_item(unit, item)
    _wtc_assign(army, warlord, enhancements)
    return army


def _wtc_find(army: ArmyList, slot: str | None, name: str) -> ListedUnit | None:
    if slot:
        key = re.sub(r"\s+", "", slot).casefold()
        for u in army.units:
            if u.slot == key:
                return u
    for u in army.units:
        if u.name.casefold() == name.strip().casefold():
            return u
    return None


def _wtc_assign(army: ArmyList, warlord: Found | None, enhancements: list[Found]) -> None:
    """The header's ``WARLORD`` and ``ENHANCEMENT ... (on Char1: X)`` lines, onto units."""
    if warlord is not None:
        m = re.match(r"^(?:(?P<slot>char\s*\d+)\s*:\s*)?(?P<unit>.+)$", warlord.text, re.I)
        found = _wtc_find(army, m.group("slot") if m else None, m.group("unit") if m else "")
        if found is not None:
            found.warlord = True
        elif warlord.text.strip() not in ("", "-", "—"):
            army.skipped.append(warlord)
    for enh in enhancements:
        on = _on_char(enh.text)
        if on is None:
            army.skipped.append(enh)
            continue
        name = without_cost(on[0])
        found = _wtc_find(army, on[1], on[2])
        if found is None:
            army.skipped.append(enh)
            continue
        if name.casefold() not in (e.casefold() for e in found.enhancements):
            found.enhancements.append(name)


# --- BattleScribe / New Recruit default layout ----------------------------------------------

_FORCE = re.compile(r"^\+\+\s*+(?P<force>.*?\S)\s*+\((?P<cat>[^()]++)\)\s*+(?:\[[^\]]*+\])?"
                    r"\s*+\+\+$")
_CATEGORY = re.compile(r"^\+\s*+(?P<cat>[^+\[]*?[^+\[\s])\s*+(?:\[[^\]]*+\])?\s*+\+$")
_TOTAL_PTS = re.compile(r"\[\s*+" + _PTS + r"\s*+\]", re.I)
_CONFIG_IGNORED = {"battle size", "show legends", "show/hide options", "game type",
                   "force disposition"}


def _read_battlescribe(path: str, lines: list[str]) -> ArmyList:
    army = ArmyList(path, "battlescribe")
    category = ""
    unit: ListedUnit | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or FOOTER.match(line):
            continue
        where = f"line {number}"
        if line.startswith("++"):
            if re.match(r"^\+\+\s*total\b", line, re.I):
                m = _TOTAL_PTS.search(line)
                if m:
                    army.points = points(m.group("pts"))
                continue
            m = _FORCE.match(line)
            if m:
                if army.faction is None:
                    army.faction = Found(m.group("cat").strip(), where, number)
                continue
            _skip(army, number, line)
            continue
        m = _CATEGORY.match(line)
        if m:
            category = m.group("cat").strip().casefold()
            unit = None
            continue
        if category == "configuration":
            key, sep, value = line.partition(":")
            key = key.strip().casefold()
            if sep and key.startswith("detachment"):
                army.detachment = Found(value.strip(), where, number)
            elif not (sep and key in _CONFIG_IGNORED):
                _skip(army, number, line)
            continue
        bullet = BULLET.match(raw)
        if bullet and unit is not None:  # ". 9x Grey Knight: 8x Storm bolter, Incinerator"
            model, _, rest = bullet.group("text").partition(":")
            counted = COUNTED.match(model.strip())
            unit.models = (unit.models or 0) + (int(counted.group("count")) if counted else 1)
            for item in split_items(rest):
                _apply_item(unit, item)
            continue
        m = _unit_match(line)
        if m:
            unit = _new_unit(m, where, number, line)
            if m.group("count"):
                unit.models = None  # the count here is of the entry, not its models
            army.units.append(unit)
            for item in split_items(m.group("rest") or ""):
                _apply_item(unit, item)
            continue
        _skip(army, number, line)
    return army
