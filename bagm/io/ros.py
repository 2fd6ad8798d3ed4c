"""Reading BattleScribe and New Recruit rosters: ``.ros`` (XML), ``.rosz`` (zip holding one
``.ros``) and New Recruit's JSON export of the same tree.

A roster is ``roster > forces > force (catalogueName) > selections > selection``. A selection
has a ``type`` (``unit``, ``model``, ``upgrade``), a ``name``, a ``number``, an ``entryId``
(composite ids such as ``a::b`` are normal and never looked up), ``costs``, ``categories`` and
nested ``selections``: the models of a unit, their wargear, the Warlord, Enhancements. The
Detachment is a configuration selection (``Detachment`` holding the chosen one). Elements
bagm does not know (rules, profiles, publications, a tool's extensions) are ignored.

Reading is shared with the catalogue importer (:func:`bagm.io.bsdata.xmlfile.read_battlescribe`,
with the roster's limits, ``ROSTER``): zip members, encodings, element counts and nesting are
checked before the tree is built, and defusedxml refuses entity declarations and external
references. Problems raise :class:`bagm.io.bsdata.CatalogueError`.
"""

from __future__ import annotations

import copy
import math
import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bagm.io.bsdata.xmlfile import CatalogueError, XmlLimits, is_zip, read_battlescribe
from bagm.io.textlist import ArmyList, Found, ListedUnit

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

MAX_BYTES = 20_000_000  # a 2,000-point roster with every profile is ~2 MB; 500 points far less
MAX_DEPTH = 40  # selection nesting (real rosters: < 8)
MAX_SELECTIONS = 100_000
MAX_ELEMENTS = 60_000  # a 2,000-point roster with every profile: some 10,000 XML elements
MAX_TAG = 65_536  # bytes in one start tag (real: < 1 KB; expat slows on 100,000s of attributes)
MAX_OBJECTS = 40_000  # the same in New Recruit's JSON (whose parsing costs more an object)
MAX_XML_DEPTH = 200  # element nesting (selections are 2 elements a level)
MAX_RATIO = 200  # unpacked / packed size of a .rosz member (real XML: 5 to 30)
MAX_UNITS = 500  # a 2,000-point army has some 20 units
MAX_NUMBER = 10_000  # a selection's number: models or copies
SUFFIXES = (".ros", ".rosz")
_AGAIN = "; export the roster again from BattleScribe or New Recruit"
ROSTER = XmlLimits("roster", (".ros",), ("roster",), MAX_BYTES, MAX_ELEMENTS, MAX_XML_DEPTH,
                   MAX_TAG, MAX_RATIO, again=_AGAIN)

# configuration selections that say nothing a bagm roster records
_CONFIG_IGNORED = {"battle size", "show legends", "show/hide options", "game type",
                   "force disposition", "points limit"}
_DETACHMENT = {"detachment", "detachments", "detachment choice", "detachment choices"}
# configuration of older rosters (and sub-faction choices) that a bagm roster does not record:
# read as what they are and noted, never reported as not understood
_CONFIG_RECOGNISED = {"gametype", "game type", "detachment command cost", "legion", "legions",
                      "dynasty", "dynasty choice", "chapter", "chapter selection", "hive fleet",
                      "craftworld", "sept", "sept choice", "kabal", "forge world", "order",
                      "plague company", "brotherhood", "cult", "clan", "clan kultur"}
_MODEL_PROFILES = {"unit", "model", "unit profile"}  # profile typeNames of a model

__all__ = ["MAX_BYTES", "read_roster", "roster_from_json", "roster_from_xml"]


def read_roster(path: str | os.PathLike[str]) -> ArmyList:
    """Read a ``.ros`` file, or a ``.rosz`` (any zip) holding one, with the checks every
    BattleScribe file gets (:func:`bagm.io.bsdata.xmlfile.read_battlescribe`)."""
    path = Path(path)
    root = read_battlescribe(path, ROSTER)
    zipped = path.suffix.lower() == ".rosz" or is_zip(path)
    return roster_from_xml(str(path), root, "rosz" if zipped else "ros")


def roster_from_json(path: str, data: Any) -> ArmyList:
    """A New Recruit JSON export (``{"roster": {...}}``): the same tree as a ``.ros``."""
    from xml.etree.ElementTree import Element

    tree = data.get("roster") if isinstance(data, dict) else None
    if not isinstance(tree, dict):
        raise CatalogueError(path, "not a New Recruit roster: no top-level 'roster' object")
    count = [0]

    def build(tag: str, obj: dict[str, Any], depth: int) -> Element:
        if depth > 3 * MAX_DEPTH:
            raise CatalogueError(path, f"selections nested more than {MAX_DEPTH} deep")
        count[0] += 1
        if count[0] > MAX_OBJECTS:  # as for XML: small on disk must not mean seconds
            raise CatalogueError(path, f"more than {MAX_OBJECTS:,} objects (a real roster has a "
                                 "few thousand)" + _AGAIN)
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
    """The army list in a parsed ``<roster>`` element. Runs of white space in names are folded
    to one space (as name lookup does anyway), so that no later pattern meets a long run."""
    for el in root.iter():
        for key in ("name", "catalogueName"):
            value = el.get(key)
            if value and len(value.split()) > 1 and " ".join(value.split()) != value.strip():
                el.set(key, " ".join(value.split()))
    return _Reader(path, fmt).read(root)


def _children(el: "Element", container: str, tag: str) -> list["Element"]:
    out: list[Element] = []
    for box in el.findall(container):
        out.extend(box.findall(tag))
    return out


def _number(el: "Element", path: str) -> int:
    """A selection's ``number``: a whole number from 0 to ``MAX_NUMBER`` ("1" or "1.0"), or a
    clear error; never read as something else in silence."""
    text = (el.get("number") or "1").strip()
    try:
        value = float(text) if len(text) <= 20 else math.inf
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value == int(value) and 0 <= value <= MAX_NUMBER):
        name = (el.get("name") or "").strip()[:80]
        raise CatalogueError(path, f"selection '{name}' has number=\"{text[:40]}\", not a whole number "
                     f"from 0 to {MAX_NUMBER:,}" + _AGAIN)
    return int(value)


def _points(el: "Element", path: str) -> float:
    total = 0.0
    for cost in _children(el, "costs", "cost"):
        if (cost.get("name") or "").strip().casefold() in ("pts", "points", "pt"):
            text = (cost.get("value") or "0").strip()
            try:
                value = float(text) if len(text) <= 20 else math.inf
            except ValueError:
                continue  # a cost bagm does not need; the points are only compared
            if not (math.isfinite(value) and abs(value) <= 1_000_000):
                name = (el.get("name") or "").strip()[:80]
                raise CatalogueError(path, f"'{name}' costs \"{text[:40]}\" points, not a number of "
                             "points" + _AGAIN)
            total += value
    return total


def _categories(el: "Element") -> list[str]:
    return [(c.get("name") or "").strip() for c in _children(el, "categories", "category")]


def _is_model(sel: "Element") -> bool:
    """A model selection: ``type="model"``, or (older rosters) an ``upgrade`` that carries a
    model's profile (``typeName="Unit"``) rather than a weapon's."""
    kind = (sel.get("type") or "").casefold()
    if kind == "model":
        return True
    return kind == "upgrade" and any(
        (p.get("typeName") or "").strip().casefold() in _MODEL_PROFILES
        for p in _children(sel, "profiles", "profile"))


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
        pts = _points(root, self.path)
        army.points = int(pts) if pts else None
        forces = _children(root, "forces", "force")
        if not forces:
            raise CatalogueError(self.path, "the roster has no force (<forces><force>...)")
        for force in forces:
            self._force(force, 0)
        army.faction_hints = [name for name, _ in
                              sorted(self.factions.items(), key=lambda kv: (-kv[1], kv[0]))]
        return army

    def _force(self, force: "Element", depth: int) -> None:
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
            if key in _CONFIG_RECOGNISED or key.rstrip(":").startswith(("legion", "dynasty")):
                picked = ", ".join((s.get("name") or "").strip() for s in subs)
                self.army.recognised.append(Found(f"{name}: {picked}" if picked else name, where))
                return
            if _primary(sel).casefold() == "configuration":
                # an unknown configuration choice: the importer sees if it names a Detachment
                options = [(s.get("name") or "").strip() for s in subs] or [name]
                self.army.header.extend(Found(o, f"{where} › {o}" if o != name else where)
                                        for o in options)
                return
            self.army.skipped.append(Found(name, where))
            return
        copies = _number(sel, self.path) if kind == "unit" else 1
        if len(self.army.units) + max(1, copies) > MAX_UNITS:
            raise CatalogueError(self.path, f"more than {MAX_UNITS} units; an army has a few dozen")
        unit = self._unit(sel, where)
        self.army.units.append(unit)
        for _ in range(copies - 1):  # "number" copies of one unit: read once
            self.army.units.append(copy.deepcopy(unit))

    def _has_models(self, sel: "Element", depth: int) -> bool:
        if depth > MAX_DEPTH:
            return False
        for s in _children(sel, "selections", "selection"):
            if _is_model(s) or self._has_models(s, depth + 1):
                return True
        return False

    def _unit(self, sel: "Element", where: str) -> ListedUnit:
        name = (sel.get("name") or "").strip()
        unit = ListedUnit(name, Found(name, where))
        kind = (sel.get("type") or "").casefold()
        state = {"models": 0, "points": 0.0}
        self._walk(sel, unit, state, 0, kind == "model")
        if state["models"]:
            unit.models = int(state["models"])
        elif kind == "model":
            unit.models = _number(sel, self.path) or 1
        unit.points = int(round(state["points"])) if state["points"] else None
        return unit

    def _walk(self, sel: "Element", unit: ListedUnit, state: dict[str, Any], depth: int,
              in_model: bool = False) -> None:
        """Everything below a unit: models, Warlord, Enhancements, wargear, points. Older
        rosters mark models as ``upgrade`` selections with a model profile; those count as
        models too, unless they sit inside a model already counted."""
        if depth > MAX_DEPTH:
            raise CatalogueError(self.path, f"'{unit.name}': selections nested more than "
                                 f"{MAX_DEPTH} deep")
        self.seen += 1
        if self.seen > MAX_SELECTIONS:
            raise CatalogueError(self.path, f"more than {MAX_SELECTIONS:,} selections")
        state["points"] += _points(sel, self.path)
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
            model = sub_kind == "model" or (not in_model and _is_model(sub))
            if model:
                state["models"] += _number(sub, self.path)
            elif low == "warlord":
                unit.warlord = True
            elif low.startswith("trademark weapon") and kind not in ("unit", "model") \
                    and depth > 0:
                unit.weapon = (sel.get("name") or "").strip()  # the upgrade sits on the weapon
            elif sub_name and "enhancement" in (sub.get("group") or "").casefold():
                unit.enhancements.append(sub_name)  # New Recruit names the option group
            elif sub_name:
                count = _number(sub, self.path)
                unit.items.append(f"{count}x {sub_name}" if count > 1 else sub_name)
            self._walk(sub, unit, state, depth + 1, in_model or model)
