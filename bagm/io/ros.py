"""Reading BattleScribe and New Recruit rosters: ``.ros`` (XML), ``.rosz`` (zip holding one
``.ros``) and New Recruit's JSON export of the same tree.

A roster is ``roster > forces > force (catalogueName) > selections > selection``. A selection
has a ``type`` (``unit``, ``model``, ``upgrade``), a ``name``, a ``number``, an ``entryId``
(composite ids such as ``a::b`` are normal and never looked up), ``costs``, ``categories`` and
nested ``selections``: the models of a unit, their wargear, the Warlord, Enhancements. The
Detachment is a configuration selection (``Detachment`` holding the chosen one). Elements
bagm does not know (rules, profiles, publications, a tool's extensions) are ignored.

Parsing is shared with the catalogue importer (:mod:`bagm.io.bsdata`): defusedxml refuses
entity declarations and external references, files and zip members are size-limited before
anything is unpacked. Problems raise :class:`bagm.io.bsdata.CatalogueError`.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bagm.io.textlist import ArmyList, Found, ListedUnit

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

MAX_BYTES = 20_000_000  # a 2,000-point roster with every profile is ~2 MB; 500 points far less
MAX_DEPTH = 40  # selection nesting (real rosters: < 8)
MAX_SELECTIONS = 100_000
SUFFIXES = (".ros", ".rosz")

# configuration selections that say nothing a bagm roster records
_CONFIG_IGNORED = {"battle size", "show legends", "show/hide options", "game type",
                   "force disposition", "points limit"}
_DETACHMENT = {"detachment", "detachments", "detachment choice", "detachment choices"}

__all__ = ["MAX_BYTES", "read_roster", "roster_from_json", "roster_from_xml"]


def read_roster(path: str | os.PathLike[str]) -> ArmyList:
    """Read a ``.ros`` file, or a ``.rosz`` (any zip) holding one."""
    from bagm.io.bsdata import parse_xml, read_xml_bytes

    path = Path(path)
    zipped = path.suffix.lower() == ".rosz" or _is_zip(path)
    data = read_xml_bytes(path, limit=MAX_BYTES, zipped=zipped, members=(".ros",))
    root = parse_xml(path, data, ("roster",))
    return roster_from_xml(str(path), root, "rosz" if zipped else "ros")


def _is_zip(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(4) == b"PK\x03\x04"
    except OSError:
        return False  # read_xml_bytes reports it


def roster_from_json(path: str, data: Any) -> ArmyList:
    """A New Recruit JSON export (``{"roster": {...}}``): the same tree as a ``.ros``."""
    from xml.etree.ElementTree import Element

    from bagm.io.bsdata import CatalogueError

    tree = data.get("roster") if isinstance(data, dict) else None
    if not isinstance(tree, dict):
        raise CatalogueError(path, "not a New Recruit roster: no top-level 'roster' object")
    count = [0]

    def build(tag: str, obj: dict[str, Any], depth: int) -> Element:
        if depth > 3 * MAX_DEPTH:
            raise CatalogueError(path, f"selections nested more than {MAX_DEPTH} deep")
        count[0] += 1
        if count[0] > 4 * MAX_SELECTIONS:
            raise CatalogueError(path, "too many elements for a roster")
        el = Element(tag)
        for key, value in obj.items():
            if isinstance(value, list):
                box = Element(key)
                el.append(box)
                child = "category" if key == "categories" else key[:-1] if key.endswith("s") else key
                for item in value:
                    if isinstance(item, dict):
                        box.append(build(child, item, depth + 1))
            elif isinstance(value, dict):
                el.append(build(key, value, depth + 1))
            elif isinstance(value, bool):
                el.set(key, "true" if value else "false")
            elif value is not None:
                el.set(key, str(value))
        return el

    return roster_from_xml(path, build("roster", tree, 0), "newrecruit-json")


def roster_from_xml(path: str, root: "Element", fmt: str = "ros") -> ArmyList:
    """The army list in a parsed ``<roster>`` element."""
    return _Reader(path, fmt).read(root)


def _children(el: "Element", container: str, tag: str) -> list["Element"]:
    out: list[Element] = []
    for box in el.findall(container):
        out.extend(box.findall(tag))
    return out


def _number(el: "Element") -> int:
    try:
        return max(0, int(float(el.get("number", "1") or 1)))
    except ValueError:
        return 1


def _points(el: "Element") -> float:
    total = 0.0
    for cost in _children(el, "costs", "cost"):
        if (cost.get("name") or "").strip().casefold() in ("pts", "points", "pt"):
            try:
                total += float(cost.get("value", "0") or 0)
            except ValueError:
                pass
    return total


def _categories(el: "Element") -> list[str]:
    return [(c.get("name") or "").strip() for c in _children(el, "categories", "category")]


def _primary(el: "Element") -> str:
    for c in _children(el, "categories", "category"):
        if (c.get("primary") or "").lower() == "true":
            return (c.get("name") or "").strip()
    return ""


class _Reader:
    def __init__(self, path: str, fmt: str) -> None:
        self.path = path
        self.army = ArmyList(path, fmt)
        self.factions: Counter[str] = Counter()
        self.seen = 0

    def read(self, root: "Element") -> ArmyList:
        army = self.army
        army.name = (root.get("name") or "").strip() or None
        pts = _points(root)
        army.points = int(pts) if pts else None
        forces = _children(root, "forces", "force")
        if not forces:
            from bagm.io.bsdata import CatalogueError

            raise CatalogueError(self.path, "the roster has no force (<forces><force>...)")
        for force in forces:
            self._force(force, 0)
        army.faction_hints = [name for name, _ in
                              sorted(self.factions.items(), key=lambda kv: (-kv[1], kv[0]))]
        return army

    def _force(self, force: "Element", depth: int) -> None:
        from bagm.io.bsdata import CatalogueError

        if depth > MAX_DEPTH:
            raise CatalogueError(self.path, f"forces nested more than {MAX_DEPTH} deep")
        label = (force.get("name") or "force").strip()
        catalogue = (force.get("catalogueName") or "").strip()
        if catalogue and self.army.faction is None:
            self.army.faction = Found(catalogue, f"force '{label}'")
        for sel in _children(force, "selections", "selection"):
            self._top(sel, label)
        for sub in _children(force, "forces", "force"):
            self._force(sub, depth + 1)

    def _top(self, sel: "Element", force: str) -> None:
        """A selection directly under a force: configuration, or a unit."""
        name = (sel.get("name") or "").strip()
        kind = (sel.get("type") or "").strip().casefold()
        where = f"{force} › {name or '(unnamed selection)'}"
        key = name.casefold()
        subs = _children(sel, "selections", "selection")
        if key in _DETACHMENT:
            chosen = [(s.get("name") or "").strip() for s in subs]
            if chosen and self.army.detachment is None:
                self.army.detachment = Found(chosen[0], f"{where} › {chosen[0]}")
                for extra in chosen[1:]:
                    self.army.skipped.append(Found(extra, f"{where} › {extra}"))
            elif not chosen:
                self.army.skipped.append(Found(name, where))
            else:
                self.army.skipped.extend(Found(c, f"{where} › {c}") for c in chosen)
            return
        is_unit = kind in ("unit", "model") or self._has_models(sel, 0)
        if not is_unit:
            if key in _CONFIG_IGNORED:
                return
            if _primary(sel).casefold() == "configuration":
                # an unknown configuration choice: the importer sees if it names a Detachment
                options = [(s.get("name") or "").strip() for s in subs] or [name]
                self.army.header.extend(Found(o, f"{where} › {o}" if o != name else where)
                                        for o in options)
                return
            self.army.skipped.append(Found(name, where))
            return
        copies = _number(sel) if kind == "unit" else 1
        for _ in range(max(1, copies)):
            self.army.units.append(self._unit(sel, where))

    def _has_models(self, sel: "Element", depth: int) -> bool:
        if depth > MAX_DEPTH:
            return False
        for s in _children(sel, "selections", "selection"):
            if (s.get("type") or "").casefold() == "model" or self._has_models(s, depth + 1):
                return True
        return False

    def _unit(self, sel: "Element", where: str) -> ListedUnit:
        name = (sel.get("name") or "").strip()
        unit = ListedUnit(name, Found(name, where))
        kind = (sel.get("type") or "").casefold()
        state = {"models": 0, "points": 0.0}
        self._walk(sel, unit, state, 0)
        if kind == "model":
            unit.models = _number(sel) or 1
        elif state["models"]:
            unit.models = int(state["models"])
        unit.points = int(round(state["points"])) if state["points"] else None
        return unit

    def _walk(self, sel: "Element", unit: ListedUnit, state: dict[str, Any], depth: int) -> None:
        """Everything below a unit: models, Warlord, Enhancements, wargear, points."""
        from bagm.io.bsdata import CatalogueError

        if depth > MAX_DEPTH:
            raise CatalogueError(self.path, f"'{unit.name}': selections nested more than "
                                 f"{MAX_DEPTH} deep")
        self.seen += 1
        if self.seen > MAX_SELECTIONS:
            raise CatalogueError(self.path, f"more than {MAX_SELECTIONS:,} selections")
        state["points"] += _points(sel)
        for cat in _categories(sel):
            low = cat.casefold()
            if low == "warlord":
                unit.warlord = True
            elif low.startswith("faction:") and depth == 0:
                self.factions[cat.split(":", 1)[1].strip()] += 1
        kind = (sel.get("type") or "").casefold()
        for sub in _children(sel, "selections", "selection"):
            sub_name = (sub.get("name") or "").strip()
            sub_kind = (sub.get("type") or "").casefold()
            low = sub_name.casefold()
            if sub_kind == "model":
                state["models"] += _number(sub)
            elif low == "warlord":
                unit.warlord = True
            elif low.startswith("trademark weapon") and kind not in ("unit", "model") \
                    and depth > 0:
                unit.weapon = (sel.get("name") or "").strip()  # the upgrade sits on the weapon
            elif sub_name and "enhancement" in (sub.get("group") or "").casefold():
                unit.enhancements.append(sub_name)  # New Recruit names the option group
            elif sub_name:
                count = _number(sub)
                unit.items.append(f"{count}x {sub_name}" if count > 1 else sub_name)
            self._walk(sub, unit, state, depth + 1)
