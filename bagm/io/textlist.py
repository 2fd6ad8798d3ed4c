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
  ``• Enhancement: X``. bagm's own text export is this layout. The 11th-edition app adds
  ``Attached Units`` / ``Attached Unit N`` blocks, ``• Attached as: Leader`` lines, a Force
  Disposition, and bullets only the first weapon of a group (the rest follow un-bulleted).
- ``listhammer``: listhammer.info's export: the app's grammar under a labelled header
  (``List Name:``, ``Faction:``, ``Detachment:`` between rows of ``+``) or under New Recruit's
  WTC header; ``listhammer-short``: its short mode, a priced title then one line per unit
  (``Khârn the Betrayer + 10x Khorne Berzerkers``), counts of models and no points.
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
from typing import Any

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
    model_lines: list[tuple[int, str]] = field(default_factory=list)
    """``Nx Name`` lines the layout marks as models (wargear listed below them)."""
    attached: list[str] = field(default_factory=list)
    """What the export says the unit is attached as or to ("Leader (Character)"); a bagm
    roster forms its Boarding Squads itself."""
    wargear: dict[str, Any] | None = None
    """A bagm JSON export's wargear mapping, as the roster format writes it."""


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
    recognised: list[Found] = field(default_factory=list)
    """Lines understood that a bagm roster does not record (a Force Disposition, the mission):
    noted, not reported as not understood."""


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
FOOTER = re.compile(r"^(?:exported (?:with|from|by)|created with|generated by)\b", re.I)
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
    return [_folded(ln) for ln in lines]


def _folded(line: str) -> str:
    """A line with its indent kept and every other run of white space folded to one space: no
    pattern downstream (here or in name lookup) meets a long run of spaces."""
    body = line.strip()
    if "  " not in body and "\t" not in body and "\x0b" not in body and "\x0c" not in body:
        return line.rstrip()
    return line[:len(line) - len(line.lstrip())] + " ".join(body.split())


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
    text = line.strip()
    if len(text) > 200:  # reported and kept as a comment: a hostile line is not repeated whole
        text = f"{text[:200]}… ({len(text):,} characters)"
    army.skipped.append(Found(text, f"line {number}", number))


# --- the app layout (and listhammer.info's) -------------------------------------------------

ATTACHED = re.compile(r"^attached\s+units?(?:\s+\d{1,4})?\s*:?$", re.I)
"""``Attached Units`` / ``ATTACHED UNITS`` (a section) and ``Attached unit 1`` (a block in it)."""
ATTACHMENT = re.compile(r"^(?:attached\s+as|attached\s+to|leading|leader|led\s+by|supporting)"
                        r"\s*+(?::|\s)\s*+(?P<what>\S.*)$", re.I)
"""``• Attached as: Leader (Character)``, ``• Leading: Eldrad Ulthran`` (11th-edition app)."""
DISPOSITION = re.compile(r"^(?:force\s+)?dispositions?\s*:\s*(?P<what>.*)$", re.I)
LABELLED = re.compile(r"^(?P<key>list name|factions? used|factions?|army points|total points|"
                      r"points|detachments?|dispositions?|army enhancements|"
                      r"mission|battle size)\s*:\s*(?P<value>.*)$", re.I)
"""listhammer.info's plain-text header labels its lines (and closes them with a row of '+')."""
_DETACHMENT_POINTS = re.compile(r"\(\s*\d{1,3}\s+detachment points?\s*\)$", re.I)
_KIND = re.compile(r"\s*\((?:upgrade|miniature|unit)\)$", re.I)  # listhammer: "X (Upgrade)"
_SHORT_PART = re.compile(r"^(?:(?P<count>\d{1,4})x\s++)?(?P<name>\S.*)$", re.I)


@dataclass(eq=False)
class _Node:
    """One line of a unit's body in the app layout: a bullet, or an un-bulleted line that
    continues the bullet list above it (the 11th-edition app bullets only the first weapon)."""

    text: str
    indent: int
    children: list[_Node] = field(default_factory=list)
    bulleted_children: bool = False
    grouped: bool = False  # has un-bulleted siblings, or is one: a wargear group
    parent: _Node | None = None


def _is_marked(unit: ListedUnit, content: str) -> bool:
    """Warlord, Enhancement, Trademark Weapon, label and attachment lines: applied at once,
    wherever they stand; they never hold model or wargear lines."""
    m = ATTACHMENT.match(content)
    if m:
        unit.attached.append(m.group("what").strip())
        return True
    if _marked(content):
        _apply_item(unit, _KIND.sub("", content))
        return True
    return False


def _close_body(unit: ListedUnit, roots: list[_Node]) -> None:
    """A unit's body read: which ``Nx Name`` lines are models and which wargear.

    A line with bullets below it is a model line (its wargear is below it); a line in a wargear
    group (un-bulleted siblings) is wargear; a lone ``Nx Name`` line with nothing below it could
    be either, and stays a candidate for the data to decide (``bagm.roster.importer``)."""
    for node in roots:
        models = MODELS.match(node.text)
        counted = COUNTED.match(node.text)
        if models:
            unit.models = (unit.models or 0) + int(models.group("count"))
        elif counted and node.bulleted_children:
            unit.models = (unit.models or 0) + int(counted.group("count"))
            unit.model_lines.append((int(counted.group("count")), counted.group("name").strip()))
        elif counted and not node.grouped:
            unit.candidates.append((int(counted.group("count")), counted.group("name").strip()))
        else:
            unit.items.append(node.text)
        _wargear(unit, node.children)


def _wargear(unit: ListedUnit, nodes: list[_Node]) -> None:
    for node in nodes:
        unit.items.append(node.text)
        _wargear(unit, node.children)


def _read_app(path: str, lines: list[str]) -> ArmyList:
    if _is_short(lines):
        return _read_short(path, lines)
    army = ArmyList(path, "app")
    in_header = True
    in_attached = False
    unit: ListedUnit | None = None
    roots: list[_Node] = []
    stack: list[_Node] = []
    last: _Node | None = None  # the last bulleted line: un-bulleted lines continue its list
    last_solid = -1  # indent of the last "•" line, so that a "◦" line sits below it

    def close() -> None:
        nonlocal roots, stack, last, last_solid
        if unit is not None:
            _close_body(unit, roots)
        roots, stack, last, last_solid = [], [], None, -1

    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.strip("+") == "":
            continue
        if FOOTER.match(line) or TOTAL.match(line) or line.casefold().startswith("underdog:"):
            continue
        bullet = BULLET.match(raw)
        # a bullet is never a unit line, even with a cost ("• 1x Ember Blade (15 pts)")
        if unit is not None and (bullet or ((raw[:1].isspace() or COUNTED.match(line))
                                            and not _unit_match(line))):
            content = bullet.group("text").strip() if bullet else line
            if not content or _is_marked(unit, content):
                continue
            if bullet:
                indent = len(bullet.group("indent").expandtabs(4))
                if bullet.group("mark") == "◦":
                    indent = max(indent, last_solid + 1)
                else:
                    last_solid = indent
                while stack and stack[-1].indent >= indent:
                    stack.pop()
                node = _Node(content, indent, parent=stack[-1] if stack else None)
                if stack:
                    stack[-1].children.append(node)
                    stack[-1].bulleted_children = True
                else:
                    roots.append(node)
                stack.append(node)
                last = node
                continue
            if last is not None:  # "    1x Plasma pistol": a sibling of the bullet above
                node = _Node(content, last.indent, grouped=True, parent=last.parent)
                last.grouped = True
                (last.parent.children if last.parent is not None else roots).append(node)
                continue
            if raw[:1].isspace():
                roots.append(_Node(content, 0))
                continue
        if ATTACHED.match(line):
            close()
            in_header, in_attached, unit = False, True, None
            continue
        if SECTION.match(line) and (not in_header or line in SECTIONS):
            close()
            in_header, in_attached, unit = False, False, None
            continue
        m = _unit_match(line)
        if m and in_header and army.points is None and army.name is None and not army.header:
            army.name = m.group("name").strip()
            army.points = points(m.group("pts") or m.group("pts2"))
            continue
        if m and in_attached and " + " in m.group("name"):
            close()  # listhammer heads an attached block "Leader + Bodyguard (N points)"
            unit = None
            continue
        if m:
            close()
            in_header = False
            unit = _new_unit(m, f"line {number}", number, line)
            army.units.append(unit)
            continue
        if in_header:
            _header_line(army, number, line)
            continue
        dispo = DISPOSITION.match(line)
        if dispo:
            army.recognised.append(Found(line, f"line {number}", number))
            continue
        _skip(army, number, line)
    close()
    return army


def _header_line(army: ArmyList, number: int, line: str) -> None:
    """One line above the first unit: battle size, rules year, Battle Ready, a labelled field
    (listhammer), a Force Disposition, or an unlabelled faction / Detachment line."""
    where = f"line {number}"
    if BATTLE_SIZE.match(line):
        return
    rules = RULES.match(line)
    if rules:
        army.edition = int(rules.group("year"))
        return
    if line.casefold() == "battle ready":
        army.battle_ready = True
        return
    label = LABELLED.match(line)
    if label:
        key, value = label.group("key").casefold(), label.group("value").strip()
        if key == "list name":
            army.name = value or army.name
        elif key.startswith("faction"):
            army.faction = Found(value, where, number) if value else army.faction
        elif key in ("army points", "total points", "points"):
            army.points = points(re.sub(r"[^\d,.]", "", value) or None)
        elif key.startswith("detachment"):
            army.detachment = Found(value, where, number) if value else army.detachment
        elif key == "battle size":
            pass
        else:  # dispositions, the Enhancements again, the mission: not part of a bagm roster
            army.recognised.append(Found(line, where, number))
        army.format = "listhammer"
        return
    if DISPOSITION.match(line):
        army.recognised.append(Found(line, where, number))
        return
    last = army.header[-1] if army.header else None
    if last is not None and last.line == number - 1 and _DETACHMENT_POINTS.search(last.text):
        # the 11th-edition app writes the Force Disposition bare, on the line after the
        # Detachment ("Ironstorm Spearhead (3 Detachment Points)" / "Priority Assets")
        army.recognised.append(Found(f"Force Disposition: {line}", where, number))
        return
    army.header.append(Found(line, where, number))


def _is_short(lines: list[str]) -> bool:
    """listhammer.info's short mode: a priced title, then one line per unit (or per attached
    unit, its members joined with " + "), with model counts and no points and no bullets."""
    body = [ln.strip() for ln in lines if ln.strip() and not FOOTER.match(ln.strip())]
    if len(body) < 2 or not _unit_match(body[0]):
        return False
    rest = [ln for ln in body[1:] if not ENHANCEMENT.match(ln) and not LABELLED.match(ln)]
    if not rest or any(_unit_match(ln) or BULLET.match(ln) or SECTION.match(ln)
                       or ATTACHED.match(ln) for ln in rest):
        return False
    return any(re.match(r"^\d{1,4}x\s", ln, re.I) or " + " in ln for ln in rest)


def _read_short(path: str, lines: list[str]) -> ArmyList:
    """Bare lines above the first unit line with a count or a " + " may be the faction or the
    Detachment: they go to the header, where the importer tells them from single units."""
    army = ArmyList(path, "listhammer-short")
    members: list[ListedUnit] = []
    started = False
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or FOOTER.match(line):
            continue
        where = f"line {number}"
        if army.name is None and army.points is None:
            m = _unit_match(line)
            if m:
                army.name, army.points = m.group("name").strip(), points(m.group("pts")
                                                                         or m.group("pts2"))
                continue
        enh = ENHANCEMENT.match(line)
        if enh:  # printed under its attached unit: the first member without one (the Leader)
            if not members and army.header and army.header[-1].line == number - 1:
                bare = army.header.pop()  # only a unit carries an Enhancement
                members = [ListedUnit(bare.text, bare)]
                army.units.extend(members)
            target = next((u for u in members if not u.enhancements), None)
            if target is None:
                _skip(army, number, line)
            else:
                target.enhancements.append(without_cost(_KIND.sub("", enh.group("name"))))
            continue
        if LABELLED.match(line):
            _header_line(army, number, line)
            continue
        if not started and " + " not in line and not re.match(r"^\d{1,4}x\s", line, re.I):
            army.header.append(Found(line, where, number))
            continue
        started = True
        members = []
        for part in re.split(r"\s+\+\s+", line):
            m = _SHORT_PART.match(part.strip())
            if m is None:
                continue
            unit = ListedUnit(m.group("name").strip(), Found(line, where, number))
            if m.group("count"):  # listhammer's count is of models ("20x Boyz")
                unit.models = int(m.group("count"))
            members.append(unit)
        army.units.extend(members)
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
    """New Recruit's WTC layout; or its header over a body in the app's grammar (listhammer
    re-exports a list that way: ``Attached as:`` lines, ``◦`` wargear), each read as what it is."""
    def app_grammar(ln: str) -> bool:
        text = ln.strip().lstrip("•◦▪‣·*-– ")
        return "◦" in ln or text.casefold().startswith("attached as")

    if not any(app_grammar(ln) for ln in lines):
        army, warlord, enhancements = _wtc(path, lines)
        _wtc_assign(army, warlord, enhancements)
        return army
    head = [ln if ln.strip().startswith(("+", "&")) else "" for ln in lines]
    army, warlord, enhancements = _wtc(path, head)
    body = _read_app(path, ["" if ln.strip().startswith(("+", "&")) else ln for ln in lines])
    army.format = "listhammer"
    army.units = body.units
    army.skipped += body.skipped
    army.recognised += body.recognised
    army.header += body.header
    army.name = army.name or body.name
    army.points = army.points if army.points is not None else body.points
    _wtc_assign(army, warlord, enhancements)
    return army


def _wtc(path: str, lines: list[str]) -> tuple[ArmyList, Found | None, list[Found]]:
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
    return army, warlord, enhancements


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
