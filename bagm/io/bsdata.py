"""Reading BattleScribe catalogues (``.cat`` / ``.gst``) and filling data packs from them.

BattleScribe data (the community BSData ``wh40k-10e`` set, also read by New Recruit) is XML: a
game system file (``.gst``) and one catalogue per faction (``.cat``), which imports library
catalogues through ``catalogueLink``. A datasheet is a ``selectionEntry`` of type ``unit`` or
``model``; its characteristics are ``profile`` elements (``typeName`` "Unit", "Ranged Weapons",
"Melee Weapons", "Abilities"), often reached through ``entryLink`` / ``infoLink`` references to
shared entries defined in another file.

This module takes *facts* only: names, numbers and keywords. Ability and rule descriptions are
never copied; an invulnerable save is read as a number and nothing else.

Security: the files are parsed with ``defusedxml`` (imported lazily), so entity declarations
(entity-expansion "billion laughs" bombs) and external entities / DTDs are refused with a
:class:`CatalogueError`; oversized files and zip archives are refused too.

Public API:

- :func:`read_catalogues` -- ``{unit name: unit dict}`` from catalogue files;
- :func:`catalogues_for_faction` -- which catalogue files hold a faction;
- :func:`update_pack` -- fill ``models``, ``weapons``, ``abilities`` and ``leader`` of a faction
  YAML pack;
- :func:`parse_weapon_keywords` -- "Rapid Fire 2, Anti-Infantry 4+" as structured data;
- :func:`leader_data`, :func:`parse_leader_units`, :func:`parse_leader_effects`,
  :func:`is_leader_ability` -- a Leader's Bodyguard units and Leader abilities as effects;
- :class:`CatalogueError`.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from bagm.errors import BagmError

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

MAX_BYTES = 64_000_000  # the largest real catalogue is ~4 MB
MAX_PACK_BYTES = 20_000_000
MAX_DEPTH = 16  # entry nesting followed below a datasheet (real data: < 8)

__all__ = [
    "CatalogueError",
    "ImportReport",
    "catalogues_for_faction",
    "is_leader_ability",
    "leader_data",
    "parse_leader_effects",
    "parse_leader_units",
    "parse_weapon_keywords",
    "read_catalogues",
    "update_pack",
]


class CatalogueError(BagmError):
    """A catalogue (or pack) that cannot be read: refused, malformed or missing."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        self.path = str(path)
        self.message = message
        super().__init__(f"{self.path}: {message}")


# --- XML loading ----------------------------------------------------------------------------


def _read_bytes(path: Path) -> bytes:
    """The XML bytes of a catalogue; ``.catz`` / ``.gstz`` archives are unpacked (size-limited)."""
    zipped = path.suffix.lower() in (".catz", ".gstz")
    return read_xml_bytes(path, limit=MAX_BYTES, zipped=zipped, members=(".cat", ".gst"))


def _parse_xml(path: Path, data: bytes | None = None) -> "Element":
    """Parse a catalogue safely and strip the XML namespace from every tag."""
    if data is None:
        data = _read_bytes(path)
    return parse_xml(path, data, ("catalogue", "gameSystem"))


def _header(path: Path) -> dict[str, str] | None:
    """The root element's attributes (id, name, library...), or None if unreadable."""
    import defusedxml.ElementTree as DET

    try:
        if path.suffix.lower() in (".catz", ".gstz"):
            source: Any = _io_bytes(_read_bytes(path))
        else:
            if path.stat().st_size > MAX_BYTES:
                return None
            source = path.open("rb")
        with source:
            for _event, el in DET.iterparse(source, events=("start",), forbid_dtd=False,
                                             forbid_entities=True, forbid_external=True):
                return dict(el.attrib)
    except Exception:  # noqa: BLE001 - a bad file in the folder is only an error when it is used
        return None
    return None


def _io_bytes(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


_CAT_SUFFIXES = (".cat", ".gst", ".catz", ".gstz")


@dataclass
class _Cat:
    path: Path
    root: "Element"
    id: str
    name: str
    library: bool
    game_system: bool
    links: list[tuple[str, str, bool]]  # (targetId, name, importRootEntries)


def _child(el: "Element", container: str, tag: str) -> list["Element"]:
    out: list[Element] = []
    for c in el.findall(container):
        out.extend(c.findall(tag))
    return out


class _Library:
    """Loaded catalogues and their elements by id, for resolving links across files."""

    INDEXED = ("selectionEntry", "selectionEntryGroup", "profile", "rule", "infoGroup")

    def __init__(self) -> None:
        self.cats: dict[Path, _Cat] = {}
        self.order: list[_Cat] = []
        self.by_id: dict[str, Element] = {}
        self.profile_types: dict[str, str] = {}
        self._dir_index: dict[Path, dict[str, Path]] = {}
        self.warnings: list[str] = []

    # loading ---------------------------------------------------------------------------------

    def load(self, path: Path) -> _Cat:
        path = path.resolve()
        if path in self.cats:
            return self.cats[path]
        root = _parse_xml(path)
        links = [(cl.get("targetId", ""), cl.get("name", ""),
                  cl.get("importRootEntries", "false").lower() == "true")
                 for cl in _child(root, "catalogueLinks", "catalogueLink")]
        cat = _Cat(path, root, root.get("id", ""), root.get("name", path.stem),
                   root.get("library", "false").lower() == "true",
                   root.tag == "gameSystem", links)
        self.cats[path] = cat
        self.order.append(cat)
        for el in root.iter():
            if el.tag in self.INDEXED:
                ident = el.get("id")
                if ident:
                    self.by_id.setdefault(ident, el)
            elif el.tag == "profileType" and el.get("id"):
                self.profile_types.setdefault(el.get("id", ""), el.get("name", ""))
        return cat

    def load_with_links(self, paths: Iterable[Path]) -> list[_Cat]:
        """Load ``paths`` (in priority order), then every catalogue they link, then the system."""
        primaries = [self.load(Path(p)) for p in paths]
        queue = list(primaries)
        while queue:
            cat = queue.pop(0)
            for target, name, _imp in cat.links:
                found = self.locate(cat.path.parent, target, name)
                if found is None:
                    self.warnings.append(
                        f"{cat.path.name}: linked catalogue '{name}' ({target}) not found")
                    continue
                if found.resolve() not in self.cats:
                    queue.append(self.load(found))
        for cat in primaries:
            if cat.game_system:
                continue
            system_id = cat.root.get("gameSystemId", "")
            if not any(c.game_system and (c.id == system_id or not system_id) for c in self.order):
                found = self.locate(cat.path.parent, system_id, "", system=True)
                if found is not None:
                    self.load(found)
                else:
                    self.warnings.append(f"{cat.path.name}: game system ({system_id}) not found")
        return primaries

    def locate(self, directory: Path, target: str, name: str, system: bool = False) -> Path | None:
        """A catalogue file in ``directory`` by its id (composite ids tolerated), else its name."""
        index = self._index(directory)
        for key in _id_variants(target):
            if key and ("id:" + key) in index:
                return index["id:" + key]
        if name and ("name:" + _key(name)) in index:
            return index["name:" + _key(name)]
        if system:
            systems = [p for p in sorted(directory.iterdir())
                       if p.suffix.lower() in (".gst", ".gstz")]
            if len(systems) == 1:
                return systems[0]
        return None

    def _index(self, directory: Path) -> dict[str, Path]:
        directory = directory.resolve()
        if directory not in self._dir_index:
            index: dict[str, Path] = {}
            try:
                files = sorted(p for p in directory.iterdir() if p.suffix.lower() in _CAT_SUFFIXES)
            except OSError:
                files = []
            for p in files:
                head = _header(p)
                index.setdefault("name:" + _key(p.stem), p)
                if head is None:
                    continue
                if head.get("id"):
                    index.setdefault("id:" + head["id"], p)
                if head.get("name"):
                    index.setdefault("name:" + _key(head["name"]), p)
            self._dir_index[directory] = index
        return self._dir_index[directory]

    # resolution ------------------------------------------------------------------------------

    def get(self, target: str | None) -> "Element | None":
        for key in _id_variants(target or ""):
            el = self.by_id.get(key)
            if el is not None:
                return el
        return None

    def type_name(self, profile: "Element") -> str:
        return profile.get("typeName") or self.profile_types.get(profile.get("typeId", ""), "")


def _id_variants(ident: str) -> list[str]:
    """An id and, for composite ``catalogue::entry`` ids, its parts from the last one."""
    if "::" not in ident:
        return [ident]
    parts = [p for p in ident.split("::") if p]
    return [ident] + parts[::-1]


# --- value parsing --------------------------------------------------------------------------

_DICE = re.compile(r"^(\d*)D(\d+)(?:([+-])(\d+))?$")
_INT = re.compile(r"^[+]?(\d+)$")
_NA = {"", "-", "n/a", "na", "*", "–", "—"}


def _clean(text: str | None) -> str:
    return " ".join((text or "").replace("\u00a0", " ").split())


def parse_dice(text: str | None) -> int | str | None:
    """``"3"`` -> 3, ``"d6+1"`` -> ``"D6+1"``, ``"2D6"`` -> ``"2D6"``; ``"-"`` -> None."""
    t = _clean(text).replace(" ", "").replace('"', "")
    if t.lower() in _NA:
        return None
    m = _INT.match(t)
    if m:
        return int(m.group(1))
    u = t.upper()
    if _DICE.match(u):
        return u
    m = re.match(r"^(\d+)\+$", t)  # a stray "+" (S "4+" in a few entries)
    if m:
        return int(m.group(1))
    raise ValueError(f"not a number or dice expression: {text!r}")


def parse_int(text: str | None, *, allow_none: bool = False) -> int | None:
    """``"6+"``, ``"5\\""``, ``"20+\\""`` -> the number; ``"-"`` -> None (when allowed)."""
    t = _clean(text).replace('"', "").replace("”", "").replace("″", "").replace(" ", "")
    if t.lower() in _NA:
        if allow_none:
            return None
        raise ValueError(f"missing value: {text!r}")
    m = re.match(r"^([+-]?\d+)\+?$", t)
    if m:
        return int(m.group(1))
    raise ValueError(f"not a number: {text!r}")


def parse_ap(text: str | None) -> int:
    t = _clean(text).replace(" ", "")
    if t.lower() in _NA:
        return 0
    m = re.match(r"^([+-]?\d+)$", t.replace("–", "-").replace("−", "-"))
    if not m:
        raise ValueError(f"not an AP value: {text!r}")
    return int(m.group(1))


def parse_range(text: str | None) -> int | None:
    t = _clean(text)
    if t.lower() in _NA or t.lower() == "melee":
        return None
    return parse_int(t)


def parse_skill(text: str | None) -> int | None:
    t = _clean(text)
    if t.lower() in _NA:
        return None
    return parse_int(t)


_KW_ALIASES = {
    "twin linked": "twin-linked",
    "twinlinked": "twin-linked",
    "sustained hit": "sustained hits",
    "lethal hit": "lethal hits",
    "devastating wound": "devastating wounds",
    "ignore cover": "ignores cover",
    "extra attack": "extra attacks",
    "one-shot": "one shot",
    "indirect": "indirect fire",
}
_ANTI = re.compile(r"^anti[\s\-–]*(.+?)\s*(\d)\s*\+?$", re.I)
_TRAILING_VALUE = re.compile(r"^(.*?[a-z])\s*[-\s]\s*(\d*D\d+(?:[+-]\d+)?|\d+)\s*\+?$", re.I)
_MAX_KW_LEN = 40  # a longer "keyword" is prose, never copied


def parse_weapon_keywords(text: str | None) -> list[dict[str, Any]]:
    """Weapon keywords as data.

    ``"Rapid Fire 2, Anti-Infantry 4+, Lethal Hits"`` ->
    ``[{name: rapid fire, value: 2}, {name: anti, target: INFANTRY, value: 4},
    {name: lethal hits}]``. Names are lower case; Anti targets upper case; dice stay strings.
    Unknown keywords are kept by name; anything that looks like prose is dropped.
    """
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for raw in re.split(r"[,;\n]", text or ""):
        item = _clean(raw).strip(" .[]")
        if item.lower() in _NA or len(item) > _MAX_KW_LEN or ":" in item or ". " in item:
            continue
        item = item.replace("–", "-").replace("’", "'")
        entry: dict[str, Any]
        m = _ANTI.match(item)
        if m:
            target = m.group(1).strip(" -").upper()
            entry = {"name": "anti", "target": target, "value": int(m.group(2))}
        else:
            m = _TRAILING_VALUE.match(item)
            if m:
                name = m.group(1).strip().lower()
                value = parse_dice(m.group(2))
                entry = {"name": _KW_ALIASES.get(name, name), "value": value}
            else:
                name = item.lower()
                entry = {"name": _KW_ALIASES.get(name, name)}
        key = tuple(sorted(entry.items()))
        if key not in seen:
            seen.add(key)
            out.append(entry)
    return out


# --- datasheet extraction -------------------------------------------------------------------

_SKIP_BRANCH = re.compile(  # option lists that are not datasheet wargear (Crusade, army options)
    r"\bcrusade\b|\benhancements?$|^warlord$|battle honou?rs?|battle scars?|battle traits?|"
    r"weapon modifications?|weapon upgrades?|\brelics\b|relic upgrades?|mighty champions|"
    r"territory control|blackstone|requisitions?|\bagendas?\b|^detachment\b|chivalric quests|"
    r"shadow operations|infiltrated institutions|boarding acti+ons upgrades",
    re.I,
)
_NOT_KEYWORDS = {
    "configuration", "reference", "warlord", "allied units", "unit", "no force org slot",
    "uncategorised", "legends", "provisionally prepared",
}
_INVULN = re.compile(r"invulnerable\s+save", re.I)
_SAVE_NUMBER = re.compile(r"(\d)\s*\+")
_CONDITIONAL_INVULN = re.compile(r"\bagainst\b|ranged attack|melee attack|psychic attack|"
                                 r"\bwhile\b|\bif\b", re.I)


@dataclass
class _Node:
    """An entry seen through its link: the link's own children plus the target's."""

    link: "Element | None"
    target: "Element"

    @property
    def parts(self) -> list["Element"]:
        return [p for p in (self.link, self.target) if p is not None]

    @property
    def name(self) -> str:
        link_name = self.link.get("name") if self.link is not None else ""
        return _clean(self.target.get("name") or link_name)

    @property
    def ids(self) -> set[str]:
        out = {p.get("id", "") for p in self.parts}
        if self.link is not None:
            out.add(self.link.get("targetId", ""))
        return {i for v in out for i in _id_variants(v) if i}

    @property
    def hidden(self) -> bool:
        return any(p.get("hidden", "false").lower() == "true" for p in self.parts)

    def children(self, container: str, tag: str) -> list["Element"]:
        out: list[Element] = []
        for p in self.parts:
            out.extend(_child(p, container, tag))
        return out

    def bounds(self) -> tuple[int | None, int | None]:
        """Own ``min`` / ``max`` selections constraints (scope parent), link first."""
        lo: int | None = None
        hi: int | None = None
        for p in self.parts:
            for c in _child(p, "constraints", "constraint"):
                if c.get("field") != "selections" or c.get("scope") not in ("parent", None):
                    continue
                try:
                    value = int(float(c.get("value", "")))
                except ValueError:
                    continue
                if c.get("type") == "min" and lo is None:
                    lo = value
                elif c.get("type") == "max" and hi is None:
                    hi = value
        return lo, hi


@dataclass(eq=False)
class _Tree:
    """A unit's model structure: groups with their min/max, models with their profile names."""

    lo: int | None
    hi: int | None
    names: list[str] | None = None  # a model: the Unit profiles it uses; a group: None
    children: list["_Tree"] = field(default_factory=list)


@dataclass
class _Found:
    models: list[tuple["Element", int]] = field(default_factory=list)  # (profile, owner)
    weapons: list[tuple["Element", bool]] = field(default_factory=list)
    abilities: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # ability name -> its text (parsed only)
    invulns: dict[int, int] = field(default_factory=dict)  # owner -> save
    model_owners: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


_EMPTY_CONDITION = {  # each condition type evaluated for a count of 0 (a fresh, plain roster)
    "lessThan": lambda v: 0 < v,
    "atMost": lambda v: 0 <= v,
    "atLeast": lambda v: 0 >= v,
    "greaterThan": lambda v: 0 > v,
    "equalTo": lambda v: v == 0,
    "notEqualTo": lambda v: v != 0,
    "instanceOf": lambda v: False,
    "notInstanceOf": lambda v: True,
}


def _condition_true(cond: "Element") -> bool:
    try:
        value = float(cond.get("value", "0"))
    except ValueError:
        value = 0.0
    test = _EMPTY_CONDITION.get(cond.get("type", ""))
    return bool(test and test(value))


def _holds(el: "Element") -> bool:
    """Whether ``el``'s conditions hold in a fresh roster with no Detachment or options chosen."""
    return all(_condition_true(c) for c in _child(el, "conditions", "condition")) and \
        all(_group_holds(g) for g in _child(el, "conditionGroups", "conditionGroup"))


def _group_holds(group: "Element") -> bool:
    parts = [_condition_true(c) for c in _child(group, "conditions", "condition")]
    parts += [_group_holds(g) for g in _child(group, "conditionGroups", "conditionGroup")]
    kind = group.get("type", "and")
    if kind == "or":
        return any(parts)
    if kind == "and":
        return all(parts)
    return False  # "count" groups and unknown kinds: assume they do not hold


def _hidden_by_default(el: "Element") -> bool:
    """Hidden in a plain roster: statically, or by a modifier whose conditions hold there.

    A Detachment's rules are attached to every unit but hidden "unless that Detachment is
    chosen"; an ability a Boarding Actions force removes is hidden "if the force is Boarding
    Actions". The first kind is dropped, the second kept (the pack records the adaptation).
    """
    hidden = el.get("hidden", "false").lower() == "true"

    def visit(container: "Element", guarded: bool) -> None:
        nonlocal hidden
        for mod in _child(container, "modifiers", "modifier"):
            if mod.get("field") == "hidden" and mod.get("type") == "set" \
                    and guarded and _holds(mod):
                hidden = mod.get("value", "").lower() == "true"
        for group in _child(container, "modifierGroups", "modifierGroup"):
            visit(group, guarded and _holds(group))

    visit(el, True)
    return hidden


def _named(el: "Element") -> str:
    """An element's name with unconditional ``append``/``set`` name modifiers applied."""
    name = _clean(el.get("name"))
    for mod in _child(el, "modifiers", "modifier"):
        if mod.get("field") != "name" or mod.find("conditions") is not None \
                or mod.find("conditionGroups") is not None or mod.find("repeats") is not None:
            continue
        value = _clean(mod.get("value"))
        if mod.get("type") == "append" and value:
            name = f"{name} {value}"
        elif mod.get("type") == "set" and value:
            name = value
    return name


class _Extractor:
    def __init__(self, lib: _Library) -> None:
        self.lib = lib

    # entry contents --------------------------------------------------------------------------

    def _info(self, parts: list["Element"], depth: int = 0) -> Iterator[tuple[str, "Element", str]]:
        """("profile" | "rule", element, display name) of entries' profiles, rules, infoGroups."""
        if depth > 4:
            return
        for p in parts:
            for prof in _child(p, "profiles", "profile"):
                if not _hidden_by_default(prof):
                    yield "profile", prof, _clean(prof.get("name"))
            for rule in _child(p, "rules", "rule"):
                if not _hidden_by_default(rule):
                    yield "rule", rule, _named(rule)
            for group in _child(p, "infoGroups", "infoGroup"):
                if not _hidden_by_default(group):
                    yield from self._info([group], depth + 1)
            for link in _child(p, "infoLinks", "infoLink"):
                if _hidden_by_default(link):
                    continue
                target = self.lib.get(link.get("targetId"))
                if target is not None and target.get("hidden", "false").lower() == "true":
                    continue
                kind = link.get("type", "")
                if kind == "profile" and target is not None:
                    yield "profile", target, _clean(target.get("name"))
                elif kind == "rule":
                    base = _clean(target.get("name")) if target is not None else ""
                    name = _named(link) if link.find("modifiers") is not None else (
                        base or _clean(link.get("name")))
                    yield "rule", link, name
                elif kind == "infoGroup" and target is not None:
                    yield from self._info([link, target], depth + 1)

    def _resolve(self, el: "Element") -> _Node | None:
        if el.tag == "entryLink":
            target = self.lib.get(el.get("targetId"))
            if target is None:
                return None
            return _Node(el, target)
        return _Node(None, el)

    def _members(self, node: _Node) -> list[_Node]:
        """Child entries and groups of an entry or group, links resolved, in document order."""
        out: list[_Node] = []
        for p in node.parts:
            for container in p:
                if container.tag not in ("selectionEntries", "entryLinks", "selectionEntryGroups"):
                    continue
                for el in container:
                    if el.tag not in ("selectionEntry", "entryLink", "selectionEntryGroup"):
                        continue
                    child = self._resolve(el)
                    if child is not None:
                        out.append(child)
        return out

    # walking ---------------------------------------------------------------------------------

    def unit(self, node: _Node) -> tuple[dict[str, Any], list[str]]:
        found = _Found()
        root_owner = id(node.target)
        self._walk(node, found, default=True, level="unit", owner=root_owner,
                   depth=0, stack=set())
        keywords, factions = self._keywords(node)
        counts = self._ranges(self._tree(node))
        models = self._models(node, found, counts, root_owner)
        weapons = self._weapons(found)
        abilities = _dedupe(found.abilities)
        unit = {
            "name": node.name,
            "keywords": keywords,
            "faction_keywords": factions,
            "models": models,
            "weapons": weapons,
            "abilities": abilities,
        }
        leader = leader_data(found.texts)
        if leader is not None:
            unit["leader"] = leader
        return unit, _dedupe(found.notes)

    def _walk(self, node: _Node, found: _Found, *, default: bool, level: str, owner: int,
              depth: int, stack: set[int]) -> None:
        if depth > MAX_DEPTH or id(node.target) in stack:
            return
        stack = stack | {id(node.target)}
        is_group = node.target.tag == "selectionEntryGroup"
        if not is_group:
            etype = node.target.get("type", "")
            if depth > 0 and etype == "model":
                level, owner = "model", id(node.target)
                found.model_owners.append(owner)
            elif depth > 0:
                level = "gear"
        self._collect(node, found, default=default, level=level, owner=owner)  # groups too
        members = self._members(node)
        defaults: set[str] = set()
        if is_group:
            for p in node.parts:
                if p.get("defaultSelectionEntryId"):
                    defaults.update(_id_variants(p.get("defaultSelectionEntryId", "")))
        group_min = node.bounds()[0] if is_group else None
        entries = [m for m in members if m.target.tag != "selectionEntryGroup"
                   and not _SKIP_BRANCH.search(m.name) and not m.hidden]
        if defaults and not any(e.ids & defaults for e in entries):
            defaults = set()  # a stale default id (or "none"): as if there were no default
        for child in members:
            if _SKIP_BRANCH.search(child.name):
                continue
            if child.target.tag == "selectionEntryGroup":
                self._walk(child, found, default=default, level=level, owner=owner,
                           depth=depth + 1, stack=stack)
                continue
            if child.hidden or child.target.get("type") == "unit":
                continue
            lo, _hi = child.bounds()
            if is_group and defaults:
                chosen = bool(child.ids & defaults) or (lo or 0) >= 1
            elif is_group and (group_min or 0) >= 1 \
                    and not any((e.bounds()[0] or 0) >= 1 for e in entries):
                # a required choice without a (valid) default: the first, as a list builder does
                chosen = bool(entries) and child is entries[0]
            else:
                chosen = (lo or 0) >= 1
            self._walk(child, found, default=default and chosen, level=level, owner=owner,
                       depth=depth + 1, stack=stack)

    def _collect(self, node: _Node, found: _Found, *, default: bool, level: str,
                 owner: int) -> None:
        for kind, el, name in self._info(node.parts):
            if kind == "rule":
                if level in ("unit", "model") and name:
                    found.abilities.append(name)
                continue
            type_name = self.lib.type_name(el)
            if type_name == "Unit":
                found.models.append((el, owner))
            elif type_name in ("Ranged Weapons", "Melee Weapons"):
                found.weapons.append((el, default))
            elif type_name == "Abilities" and level in ("unit", "model"):
                if _INVULN.search(name):
                    save = self._invuln(el, name)
                    if save is not None:
                        found.invulns.setdefault(owner, save)
                    else:
                        found.notes.append(f"conditional invulnerable save not recorded ({name})")
                elif name:
                    found.abilities.append(name)
                    text = " ".join(c.text or "" for c in el.iter("characteristic"))
                    found.texts.setdefault(name, text.strip())

    @staticmethod
    def _invuln(profile: "Element", name: str) -> int | None:
        """The all-round invulnerable save of an ability, or None when it is only conditional.

        Only the number is read: "Invulnerable Save (4+)", or the first sentence of the text
        that gives one, unless that sentence limits it ("against ranged attacks").
        """
        text = " ".join(_clean(c.text) for c in profile.iter("characteristic"))
        m = _SAVE_NUMBER.search(name)
        if m and "*" not in name:
            return int(m.group(1))
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            m = _SAVE_NUMBER.search(sentence)
            if m:
                return None if _CONDITIONAL_INVULN.search(sentence) else int(m.group(1))
        return None

    def _keywords(self, node: _Node) -> tuple[list[str], list[str]]:
        keywords: list[str] = []
        factions: list[str] = []
        for link in node.children("categoryLinks", "categoryLink"):
            target = self.lib.get(link.get("targetId"))
            name = _clean(link.get("name") or (target.get("name") if target is not None else ""))
            if not name:
                continue
            if name.lower().startswith("faction:"):
                factions.append(name.split(":", 1)[1].strip().upper())
            elif name.lower() not in _NOT_KEYWORDS \
                    and not re.search(r"\b(weapon|modifier)$", name, re.I):
                keywords.append(name.upper())
        return _dedupe(keywords), _dedupe(factions)

    # model counts ----------------------------------------------------------------------------

    def _unit_profile_names(self, node: _Node) -> list[str]:
        return [_key(name) for kind, el, name in self._info(node.parts)
                if kind == "profile" and self.lib.type_name(el) == "Unit"]

    def _tree(self, node: _Node) -> _Tree:
        """The model entries of a unit, in their groups, each with the profile it uses."""
        root = _Tree(None, None)
        root_names = self._unit_profile_names(node)
        if node.target.get("type") == "model":
            root.children.append(_Tree(1, 1, root_names))
            root_names = []  # a character's companions do not share its profile

        def walk(n: _Node, into: _Tree, inherited: list[str], depth: int, stack: set[int]) -> None:
            if depth > MAX_DEPTH or id(n.target) in stack:
                return
            stack = stack | {id(n.target)}
            for child in self._members(n):
                if _SKIP_BRANCH.search(child.name) or child.hidden:
                    continue
                names = self._unit_profile_names(child) or inherited
                lo, hi = child.bounds()
                if child.target.tag == "selectionEntryGroup":
                    sub = _Tree(lo, hi)
                    walk(child, sub, names, depth + 1, stack)
                    if sub.children:
                        into.children.append(sub)
                elif child.target.get("type") == "model":
                    into.children.append(_Tree(lo or 0, hi, names))

        walk(node, root, root_names, 0, set())
        return root

    @staticmethod
    def _ranges(tree: _Tree) -> dict[str, tuple[int, int | None]]:
        """How many models use each Unit profile (by name key).

        Computed up the tree: a group's min/max bounds the models of one profile by what the
        group's other models leave over. Where alternatives only add up to an upper bound
        (several open-ended choices in a group without a maximum), the count is unknown.
        """
        Span = tuple[int, int | None]

        def add(a: Span, b: Span) -> Span:
            return a[0] + b[0], None if a[1] is None or b[1] is None else a[1] + b[1]

        def span(t: _Tree, name: str) -> tuple[Span, Span]:
            """(models using ``name``, other models) under ``t``."""
            if t.names is not None:
                own: Span = (t.lo or 0, t.hi)
                return (own, (0, 0)) if name in t.names else ((0, 0), own)
            mine: Span = (0, 0)
            rest: Span = (0, 0)
            open_mine = open_rest = 0
            for child in t.children:
                m, r = span(child, name)
                mine, rest = add(mine, m), add(rest, r)
                open_mine += m[1] != m[0]
                open_rest += r[1] != r[0]
            if t.hi is None:
                if open_mine > 1:
                    mine = (mine[0], None)
                if open_rest > 1:
                    rest = (rest[0], None)
                if t.lo is None:
                    return mine, rest
            m_lo, m_hi = mine
            r_lo, r_hi = rest
            if t.lo is not None:
                if r_hi is not None:
                    m_lo = max(m_lo, t.lo - r_hi)
                if m_hi is not None:
                    r_lo = max(r_lo, t.lo - m_hi)
            if t.hi is not None:
                m_hi = t.hi - rest[0] if m_hi is None else min(m_hi, t.hi - rest[0])
                r_hi = t.hi - mine[0] if r_hi is None else min(r_hi, t.hi - mine[0])
            return (m_lo, m_hi), (r_lo, r_hi)

        names: list[str] = []

        def collect(t: _Tree) -> None:
            if t.names is not None:
                names.extend(n for n in t.names if n not in names)
            for child in t.children:
                collect(child)

        collect(tree)
        return {name: span(tree, name)[0] for name in names}

    # assembling ------------------------------------------------------------------------------

    def _models(self, node: _Node, found: _Found, counts: dict[str, tuple[int, int | None]],
                root_owner: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        profiles = found.models
        root_invuln = found.invulns.get(root_owner)
        model_invulns = {o: v for o, v in found.invulns.items() if o != root_owner}
        shared_invuln = None
        if model_invulns and set(found.model_owners) <= set(model_invulns) \
                and len(set(model_invulns.values())) == 1:
            shared_invuln = next(iter(model_invulns.values()))  # every model has the same one
        for prof, owner in profiles:
            name = _clean(prof.get("name"))
            key = _key(name)
            if key in seen:
                continue
            try:
                chars = _characteristics(prof)
                model: dict[str, Any] = {
                    "name": name,
                    "M": parse_int(chars.get("M"), allow_none=True),
                    "T": parse_int(chars.get("T")),
                    "Sv": parse_int(chars.get("SV")),
                    "W": parse_int(chars.get("W")),
                    "Ld": parse_int(chars.get("LD")),
                    "OC": parse_int(chars.get("OC")),
                }
            except ValueError as exc:
                found.notes.append(f"model profile '{name}' skipped: {exc}")
                continue
            seen.add(key)
            invuln = model_invulns.get(owner) if owner != root_owner else None
            if invuln is None:
                invuln = root_invuln if root_invuln is not None else shared_invuln
            if invuln is not None:
                model["invuln"] = invuln
            count = _count_text(counts.get(key))
            if count is not None:
                model["count"] = count
            out.append(model)
        return out

    def _weapons(self, found: _Found) -> list[dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for prof, default in found.weapons:
            name = _weapon_name(prof.get("name"))
            kind = "ranged" if self.lib.type_name(prof) == "Ranged Weapons" else "melee"
            key = f"{kind}:{_key(name)}"  # a staff with a ranged and a melee profile: both kept
            if key in out:
                if default and out[key].get("default") is False:
                    del out[key]["default"]
                continue
            try:
                weapon = _weapon(prof, name, kind)
            except ValueError as exc:
                found.notes.append(f"weapon '{name}' skipped: {exc}")
                continue
            if not default:
                weapon["default"] = False
            out[key] = weapon
        weapons = sorted(out.values(), key=lambda w: w["type"] != "ranged")  # stable: ranged first
        ranged = {_key(w["name"]) for w in weapons if w["type"] == "ranged"}
        for w in weapons:  # names are unique in a pack: "Staff of light" and "... (melee)"
            if w["type"] == "melee" and _key(w["name"]) in ranged:
                w["name"] = f"{w['name']} (melee)"
        return weapons


def _characteristics(profile: "Element") -> dict[str, str]:
    return {_clean(c.get("name")).upper(): _clean(c.text) for c in profile.iter("characteristic")}


def _weapon_name(raw: str | None) -> str:
    return _clean((raw or "").replace("➤", " ").replace("►", " ")).strip(" -")


def _weapon(profile: "Element", name: str, kind: str) -> dict[str, Any]:
    chars = _characteristics(profile)
    skill_text = chars.get("BS") if kind == "ranged" else chars.get("WS")
    if skill_text is None:
        skill_text = chars.get("WS", chars.get("BS"))
    attacks = parse_dice(chars.get("A"))
    strength = parse_dice(chars.get("S"))
    damage = parse_dice(chars.get("D"))
    if attacks is None or strength is None or damage is None:
        raise ValueError("A, S and D are required")
    weapon: dict[str, Any] = {"name": name, "type": kind}
    rng = parse_range(chars.get("RANGE")) if kind == "ranged" else None
    if rng is not None:
        weapon["range"] = rng
    weapon.update({"A": attacks, "skill": parse_skill(skill_text), "S": strength,
                   "AP": parse_ap(chars.get("AP")), "D": damage})
    abilities = parse_weapon_keywords(chars.get("KEYWORDS"))
    if abilities:
        weapon["abilities"] = abilities
    return weapon


def _count_text(span: tuple[int, int | None] | None) -> str | None:
    if span is None:
        return None
    lo, hi = span
    if hi is None or hi <= 0 or lo > hi:
        return None
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _dedupe(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        k = _key(item)
        if k and k not in seen:
            seen.add(k)
            out.append(item)
    return out


_PUNCT = re.compile(r"[^\w\s]+")


def _key(name: str) -> str:
    """Matching key: accents, case, apostrophes, punctuation and spacing ignored."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("’", "").replace("'", "").replace("‘", "")
    text = _PUNCT.sub(" ", text.casefold())
    return " ".join(text.split())


def _loose_key(name: str) -> str:
    """A looser key: also without "[Legends]" style tags and a leading "the"."""
    text = re.sub(r"\[[^\]]*\]|\((?:legends?|forge world)\)", " ", name, flags=re.I)
    key = _key(text)
    return key[4:] if key.startswith("the ") else key


# --- public reading API ---------------------------------------------------------------------


@dataclass
class _Units:
    units: dict[str, dict[str, Any]]
    sources: dict[str, str]  # unit name -> catalogue name
    notes: dict[str, list[str]]
    warnings: list[str]
    catalogues: list[str]


def _read(paths: Iterable[str | os.PathLike[str]]) -> _Units:
    lib = _Library()
    primaries = lib.load_with_links(Path(p) for p in paths)
    ex = _Extractor(lib)
    units: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    notes: dict[str, list[str]] = {}

    def roots(cat: _Cat, seen: set[Path]) -> Iterator[tuple[_Node, _Cat]]:
        if cat.path in seen:
            return
        seen.add(cat.path)
        for el in list(_child(cat.root, "selectionEntries", "selectionEntry")) + \
                list(_child(cat.root, "entryLinks", "entryLink")):
            node = ex._resolve(el)
            if node is not None and node.target.tag == "selectionEntry" \
                    and node.target.get("type") in ("unit", "model"):
                yield node, cat

    def imported(cat: _Cat, seen: set[Path]) -> Iterator[tuple[_Node, _Cat]]:
        for target, name, import_root in cat.links:
            if not import_root:
                continue
            found = lib.locate(cat.path.parent, target, name)
            sub = lib.cats.get(found.resolve()) if found is not None else None
            if sub is not None and sub.path not in seen:
                yield from roots(sub, seen)
                yield from imported(sub, seen)

    seen: set[Path] = set()
    ordered: list[tuple[_Node, _Cat]] = []
    for cat in primaries:  # the given files' own datasheets first, in the order given
        ordered.extend(roots(cat, seen))
    for cat in primaries:  # then those they import with importRootEntries
        ordered.extend(imported(cat, seen))
    done: set[int] = set()
    for node, cat in ordered:
        if id(node.target) in done:
            continue
        done.add(id(node.target))
        name = node.name
        if not name or name in units:
            continue
        unit, found_notes = ex.unit(node)
        units[name] = unit
        sources[name] = cat.name
        if found_notes:
            notes[name] = found_notes
    return _Units(units, sources, notes, lib.warnings, [c.path.name for c in lib.order])


def read_catalogues(paths: Iterable[str | os.PathLike[str]]) -> dict[str, dict[str, Any]]:
    """Every datasheet of the given catalogue files, by name.

    Linked catalogues (``catalogueLink``) and the game system are loaded from the same folder
    to resolve shared entries. Datasheets come from the given files' root entries first (the
    first file wins a name clash), then from catalogues they import with ``importRootEntries``.
    Each value has ``name``, ``keywords``, ``faction_keywords``, ``models``, ``weapons`` and
    ``abilities`` in the :class:`bagm.data.models.Datasheet` format (add ``points`` to validate
    one as a whole Datasheet).
    """
    return _read(paths).units


# --- Leader data ----------------------------------------------------------------------------
# Rules Adaptations "Leaders" / "Leader Abilities": a Leader never attaches in Boarding Actions;
# the Battlefield Command Stratagem gives one of its Leader abilities to a Bodyguard unit it could
# normally be attached to. So a pack records those units (by name) and each Leader ability as
# structured effects. Only facts are taken: unit names, ability names, numbers.

_MARKUP = re.compile(r"\*\*|\^\^|\*")  # BattleScribe bold/keyword markup and footnote stars
_BULLET = re.compile(r"^\s*[■▪•●\-–]\s*")
_LIST_HEAD = re.compile(r"attached to the following units?\s*:?", re.I)
_MAX_NAME_WORDS = 8  # a longer list item is prose, not a unit name


def _plain(text: str | None) -> str:
    """Text without markup, non-breaking spaces or curly apostrophes (lines kept)."""
    text = _MARKUP.sub("", text or "").replace("\u00a0", " ").replace("’", "'")
    return "\n".join(" ".join(line.split()) for line in text.splitlines())


def _unit_name(item: str) -> str | None:
    """A list item as a unit name, or None when it is prose."""
    name = re.sub(r"\s+units?$", "", item.strip(" .,;:"), flags=re.I).strip(" .,;:")
    if not name or len(name.split()) > _MAX_NAME_WORDS or re.search(r"[.:()]", name):
        return None
    return name


def parse_leader_units(text: str | None) -> list[str]:
    """The unit names a "Leader" ability lists (its bullets, or the comma list after "...
    attached to the following units:"); sentences around the list are ignored."""
    lines = _plain(text).splitlines()
    names: list[str] = []
    in_list = False  # the lines right after the heading, before any sentence
    for line in lines:
        if not line:
            continue
        head = _LIST_HEAD.search(line)
        if head:
            line, in_list = line[head.end():], True
            if not line.strip():
                continue
        if _BULLET.match(line):
            names.append(line)
            continue
        if in_list:
            items = re.split(r"[,;]", line)
            if all(_unit_name(i) or not i.strip(" .") for i in items):
                names.extend(items)
                continue
        in_list = False
    return _dedupe(n for n in (_unit_name(_BULLET.sub("", n)) for n in names) if n)


_LEADING = re.compile(r"^(?:while|when) this (?:model|unit) is leading\b", re.I)
_LEADING_ANY = re.compile(r"^(?:while|when) this (?:model|unit) is leading a unit\s*[,:]\s*",
                          re.I)
_KIND = r"(?:(?P<kind>ranged|melee) )?"
_INCHES = r"(?:\"|''|\u201d|\u2033)?"  # 2" (the inch mark, in any of its spellings)
_THAT_UNIT = r"(?:models in )?that unit"
_WEAPONS = rf"{_KIND}weapons equipped by {_THAT_UNIT}"
_CLAUSES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"{_WEAPONS} have the (?P<abilities>\[[^\]]+\](?:(?:,| and) \[[^\]]+\])*) "
                r"abil(?:ity|ities|ties)$"), "weapon_abilities"),  # "abilties": a typo in the data
    (re.compile(rf"add 1 to the (?P<chars>Attacks|Strength|Damage)(?: and (?P<chars2>Strength|"
                rf"Damage))? characteristics? of {_WEAPONS}$"), "characteristics"),
    (re.compile(rf"improve the Armour Penetration characteristic of {_WEAPONS} by 1$"), "ap"),
    (re.compile(r"models in that unit have the Feel No Pain (?P<fnp>[2-6])\+ ability$"), "fnp"),
    (re.compile(r"models in that unit have an? (?P<inv>[2-6])\+ invulnerable save$"), "invuln"),
    (re.compile(r"each time an? (?:(?P<against>ranged|melee) )?attack targets that unit, subtract 1 "
                r"from the (?P<roll>Hit|Wound) roll$"), "against"),
    (re.compile(r"models in that unit have the Stealth ability$"), "stealth"),
    (re.compile(r"models in that unit have the Benefit of Cover$"), "cover"),
    (re.compile(rf"that unit can only be selected as the target of a ranged attack if the attacking "
                rf"model is within (?P<n>\d+){_INCHES}$"), "ranged_within"),
    (re.compile(rf"(?:models in )?(?:this|that) unit cannot be targeted by ranged attacks unless the "
                rf"attacking model is within (?P<n>\d+){_INCHES}$"), "ranged_within"),
    (re.compile(rf"that unit cannot be targeted by ranged attacks unless the attacking unit is "
                rf"within (?P<n>\d+){_INCHES}$"), "ranged_unit_within"),
    (re.compile(rf"each time (?:a model in that unit makes a Pile-In or Consolidation move, it|that "
                rf"unit Piles In or Consolidates, each model in that unit) can move up to "
                rf"(?P<n>[4-9]){_INCHES} instead of (?:up to )?3{_INCHES}$"), "pile_in"),
    (re.compile(r"that unit is eligible to shoot in a turn in which it Fell Back$"),
     "shoot_after_fall_back"),
    (re.compile(r"(?:you can )?re-roll Leadership tests taken for that unit$"), "leadership"),
    (re.compile(rf"each time that unit advances, do not make an Advance roll; instead, until the "
                rf"end of the phase, add (?P<n>\d+){_INCHES} to the Move characteristic of models "
                r"in (?:this|that) unit$", re.I), "advance_fixed"),
    (re.compile(rf"each time a model in that unit makes an? {_KIND}attack(?: that targets (?:an "
                r"enemy unit that does not have the (?P<lacks>[A-Z][A-Z' -]*?(?: or [A-Z][A-Z' -]*?)*) "
                r"keywords?|a unit that is (?P<tstate>below its Starting Strength|Below "
                r"Half-strength)))?, (?P<rest>.+)$"), "attack"),
    (re.compile(r"models in that unit have the Feel No Pain (?P<fnp>[2-6])\+ ability against "
                r"(?P<against>Psychic Attacks|mortal wounds)(?: and (?P<against2>Psychic Attacks|"
                r"mortal wounds))?$", re.I), "fnp_against"),
    (re.compile(r"add (?P<n>[1-3]) to the Objective Control characteristic of models in that "
                r"unit$"), "oc"),
    (re.compile(r"(?:models in that unit have|that unit has) the Fights First ability$"),
     "fights_first"),
    (re.compile(rf"add (?P<n>[1-6]){_INCHES} to the Move characteristic of models in (?:that|this) "
                r"unit$"), "move"),
    (re.compile(r"add (?P<n>[1-3]) to (?P<rolls>Advance|Charge)(?: and (?P<rolls2>Charge))? rolls "
                r"made for that unit$"), "roll_mod"),
    (re.compile(r"(?:you can )?re-roll (?P<rolls>Advance|Charge)(?: and (?P<rolls2>Charge))? rolls "
                r"made for that unit$"), "roll_reroll"),
    (re.compile(r"that unit is eligible to declare a charge in a turn in which it Advanced$"),
     "charge_after_advance"),
]
_ATTACK_CLAUSES: list[tuple[re.Pattern[str], dict[str, Any]]] = [
    (re.compile(r"(?:you can )?add 1 to the Hit roll"), {"hit_mod": 1}),
    (re.compile(r"(?:you can )?add 1 to the Wound roll"), {"wound_mod": 1}),
    (re.compile(r"(?:you can )?re-roll the Hit roll"), {"reroll_hits": "failed"}),
    (re.compile(r"(?:you can )?re-roll the Wound roll"), {"reroll_wounds": "failed"}),
    (re.compile(r"(?:you can )?re-roll a Hit roll of 1"), {"reroll_hits": "ones"}),
    (re.compile(r"(?:you can )?re-roll a Wound roll of 1"), {"reroll_wounds": "ones"}),
    # "modifed": a typo in the data; the value ("5+") goes into crit_hit
    (re.compile(r"an? (?:successful )?unmodifi?ed Hit roll of (?P<crit>[2-5])\+ scores a "
                r"Critical Hit"), {}),
    (re.compile(r"a Critical Hit is scored on an unmodified Hit roll of (?P<crit>[2-5])\+"
                r"(?:, instead of only on a 6)?"), {}),
]


_IF_KEYWORD = re.compile(r"if that unit has the (?P<kw>[A-Za-z][\w' -]*?) keyword, (?P<rest>.+?)"
                         r"(?P<instead> instead)?$", re.I)
_BEST_OF = {"fnp", "invuln", "fnp_mortal", "fnp_psychic"}  # the better of two values applies
_CONDITIONS = {"only_while", "only_keyword", "against", "target_while", "target_lacks"}


def is_leader_ability(text: str | None) -> bool:
    """Whether an ability is a Leader ability: its text begins "While this model (or unit) is
    leading ..." (Rules Adaptations "Leader Abilities")."""
    return bool(_LEADING.match(_plain(text).strip()))


_UNIT_STATE = re.compile(r"(?: as well)? if that unit is (?P<state>below its Starting Strength|"
                         r"Below Half-strength)$", re.I)  # a condition the engine checks
_STATES = {"below its starting strength": "below_starting", "below half-strength": "below_half"}


def _attack_effect(kind: str | None, rest: str) -> list[dict[str, Any]] | None:
    """The effects of "each time a model in that unit makes a [kind] attack, <rest>": one per
    condition on the led unit ("... if that unit is below its Starting Strength")."""
    effects: dict[str | None, dict[str, Any]] = {}
    for part in re.split(r",? and (?=(?:you can )?(?:add|re-roll))", rest):
        state = _UNIT_STATE.search(part)
        if state:
            part = part[:state.start()]
        when = _STATES[state["state"].lower()] if state else None
        effect = effects.setdefault(when, {"attacks": kind or "all", **(
            {"only_while": when} if when else {})})
        for pattern, change in _ATTACK_CLAUSES:
            m = pattern.fullmatch(part)
            if m:
                if m.groupdict().get("crit"):
                    change = {"crit_hit": int(m["crit"])}
                if set(change) & set(effect):
                    return None
                effect.update(change)
                break
        else:
            return None
    # the condition last, as the other fields read first
    return [{k: v for k, v in e.items() if k != "only_while"} | (
        {"only_while": e["only_while"]} if "only_while" in e else {}) for e in effects.values()]


def _clause_effect(clause: str) -> list[dict[str, Any]] | None:
    """One clause ("melee weapons ... have the [LETHAL HITS] ability") as effects, or None."""
    for pattern, what in _CLAUSES:
        m = pattern.match(clause)
        if not m:
            continue
        groups = m.groupdict()
        kind = groups.get("kind")
        effect: dict[str, Any] = {"attacks": kind or "all"}
        if what == "weapon_abilities":
            items = re.findall(r"\[([^\]]+)\]", groups["abilities"])
            abilities = [a for item in items for a in parse_weapon_keywords(item)]
            if len(abilities) != len(items) or not all(_engine_knows(a) for a in abilities):
                return None
            effect["weapon_abilities"] = abilities
        elif what == "characteristics":
            for char in (groups["chars"], groups.get("chars2")):
                if char:
                    effect[f"{char[0]}_mod"] = 1  # Attacks -> A_mod, Strength -> S_mod...
        elif what == "ap":
            effect["AP_mod"] = -1  # improving AP by 1 makes it one more negative
        elif what == "fnp":
            effect = {"fnp": int(groups["fnp"])}
        elif what == "invuln":
            effect = {"invuln": int(groups["inv"])}
        elif what == "against":
            effect = {f"{groups['roll'].lower()}_against_mod": -1}
            if groups.get("against"):
                effect["against"] = groups["against"]
        elif what == "stealth":  # Stealth: -1 to the Hit roll of ranged attacks that target it
            effect = {"hit_against_mod": -1, "against": "ranged"}
        elif what == "cover":
            effect = {"cover": True}
        elif what in ("ranged_within", "ranged_unit_within"):
            effect = {what: int(groups["n"])}
        elif what == "pile_in":
            effect = {"pile_in": int(groups["n"])}
        elif what == "shoot_after_fall_back":
            effect = {"shoot_after_fall_back": True}
        elif what == "leadership":
            effect = {"reroll_leadership": True}
        elif what == "advance_fixed":
            effect = {"advance_fixed": int(groups["n"])}
        elif what == "attack":
            found = _attack_effect(kind, groups["rest"])
            target: dict[str, Any] = {}
            if groups.get("tstate"):
                target["target_while"] = _STATES[groups["tstate"].lower()]
            if groups.get("lacks"):
                target["target_lacks"] = [k.strip() for k in groups["lacks"].split(" or ")]
            if found is None or target and any("only_while" in e for e in found):
                return None  # a condition on the target and one on "that unit": ambiguous
            return [e | target for e in found]
        elif what == "fnp_against":
            against = {groups["against"].lower(), (groups.get("against2") or "").lower()} - {""}
            if len(against) != len([g for g in (groups["against"], groups.get("against2")) if g]):
                return None  # the same thing twice
            fnp = int(groups["fnp"])
            effect = {("fnp_psychic" if a == "psychic attacks" else "fnp_mortal"): fnp
                      for a in sorted(against)}
        elif what == "oc":
            effect = {"OC_mod": int(groups["n"])}
        elif what == "fights_first":
            effect = {"fights_first": True}
        elif what == "move":
            effect = {"M_mod": int(groups["n"])}
        elif what in ("roll_mod", "roll_reroll"):
            rolls = [r.lower() for r in (groups["rolls"], groups.get("rolls2")) if r]
            if what == "roll_mod":
                effect = {f"{r}_mod": int(groups["n"]) for r in rolls}
            else:
                effect = {f"reroll_{r}": True for r in rolls}
        elif what == "charge_after_advance":
            effect = {"charge_after_advance": True}
        return [effect]
    return None


def _engine_knows(ability: dict[str, Any]) -> bool:
    """Whether the attack engine applies this weapon ability (an unknown one is only listed)."""
    from bagm.data.models import WeaponAbility
    from bagm.data.schema import validate
    from bagm.engine.attack import Abilities

    try:
        known = Abilities.from_data([validate(WeaponAbility, ability)])
    except Exception:  # noqa: BLE001 - a malformed value is simply not modelled
        return False
    return not known.unknown


def parse_leader_effects(text: str | None) -> list[dict[str, Any]] | None:
    """A Leader ability's text as :class:`bagm.data.models.LeaderEffect` dicts, or None.

    Every sentence and clause must be understood. A condition the engine checks is kept as a
    field (the led unit below its Starting Strength or Half-strength, or with a keyword; the
    target's state or keywords; Feel No Pain against mortal wounds or Psychic Attacks); any other
    condition ("while ... contains a ... model", "within 6\""), a rider sentence, or an effect
    outside the vocabulary gives None (not modelled), never a partial or unconditional
    approximation. Fields left at their default are omitted.
    """
    plain = " ".join(_plain(text).split())
    m = _LEADING_ANY.match(plain)
    if not m:
        return None  # leading a particular unit, or "... and contains a X model": conditional
    body = plain[m.end():].strip().rstrip(".")
    if not body:
        return None
    # "... do not make an Advance roll. Instead, ...": one rule in two sentences
    body = re.sub(r"do not make an Advance roll\. Instead,", "do not make an Advance roll; instead,",
                  body)
    # a bulleted form ("leading a unit: - Models ... - Each time ...") or sentences
    parts = [p for p in re.split(r"\s+-\s+|\.\s+", body) if p.strip()]
    clauses: list[tuple[str, dict[str, Any]]] = []  # (clause, a condition on the led unit)
    for i, part in enumerate(parts):
        part = part.strip().lstrip("- ").rstrip(".")
        if i and part.lower().startswith("in addition, "):  # a second sentence that only adds
            part = part[len("in addition, "):]
        when: dict[str, Any] = {}
        keyword = _IF_KEYWORD.match(part) if i else None
        if keyword:  # "If that unit has the X keyword, <a better value> instead"
            if not keyword["instead"]:
                return None
            part, when = keyword["rest"], {"only_keyword": keyword["kw"].upper()}
        # "X have the [A] ability and melee weapons ... have the [B] ability": two clauses
        clauses += [(c, when) for c in re.split(
            r",? and (?=(?:ranged |melee )?weapons equipped|models in that unit have|each time|"
            r"(?:you can )?re-roll (?:Advance|Charge)|add \d+ to (?:Advance|Charge)|that unit "
            r"(?:cannot|can only|is eligible|has))", part[:1].lower() + part[1:])]
    effects: dict[tuple[Any, ...], dict[str, Any]] = {}
    for clause, when in clauses:
        found = _clause_effect(clause.strip())
        if found is None:
            return None
        for effect in found:
            if when and not set(effect) <= _BEST_OF:
                return None  # "instead" replaces a value: only for fields where the best applies
            effect.update(when)
            kind = effect.pop("attacks", "all")
            # one effect per kind of attack made, per kind of attack that targets the unit, and
            # per condition on the led unit
            group = (kind, effect.get("against"), effect.get("only_while"),
                     effect.get("only_keyword"), effect.get("target_while"),
                     tuple(effect.get("target_lacks", ())))
            into = effects.setdefault(group, {"attacks": kind} if kind != "all" else {})
            for key, value in effect.items():
                if key in _CONDITIONS or key not in into:
                    into[key] = value  # a condition: the same in the whole group
                elif key == "weapon_abilities":
                    into[key] = into[key] + value
                else:
                    return None  # the same field twice: not a plain sum, leave it to a human
    return list(effects.values()) or None


def leader_data(texts: dict[str, str]) -> dict[str, Any] | None:
    """A unit's Leader data from its abilities (name -> text): ``{bodyguards: [catalogue unit
    names], abilities: [{name, effects}]}``, or None without a "Leader" ability."""
    leader_text = next((t for n, t in texts.items() if _key(n) == "leader"), None)
    if leader_text is None:
        return None
    abilities = [{"name": name, "effects": parse_leader_effects(text)}
                 for name, text in texts.items()
                 if _key(name) != "leader" and is_leader_ability(text)]
    return {"bodyguards": parse_leader_units(leader_text), "abilities": abilities}


# --- which catalogues hold a faction --------------------------------------------------------

_SM_CHAPTERS = [
    "Imperium - Black Templars", "Imperium - Blood Angels", "Imperium - Dark Angels",
    "Imperium - Deathwatch", "Imperium - Imperial Fists", "Imperium - Iron Hands",
    "Imperium - Raven Guard", "Imperium - Salamanders", "Imperium - Space Wolves",
    "Imperium - Ultramarines", "Imperium - White Scars",
]
_FACTION_FILES: dict[str, list[str]] = {
    "grey knights": ["Imperium - Grey Knights"],
    "adeptus astartes": ["Imperium - Space Marines", *_SM_CHAPTERS],
    "space marines": ["Imperium - Space Marines", *_SM_CHAPTERS],
    "necrons": ["Necrons"],
    "tyranids": ["Tyranids", "Library - Tyranids"],
    "great devourer": ["Tyranids", "Library - Tyranids", "Genestealer Cults"],
    "astra militarum": ["Imperium - Astra Militarum", "Imperium - Astra Militarum - Library"],
    "orks": ["Orks"],
    "adeptus custodes": ["Imperium - Adeptus Custodes"],
    "adepta sororitas": ["Imperium - Adepta Sororitas"],
    "adeptus mechanicus": ["Imperium - Adeptus Mechanicus"],
    "agents of the imperium": ["Imperium - Agents of the Imperium"],
    "imperial knights": ["Imperium - Imperial Knights", "Imperium - Imperial Knights - Library"],
    "chaos space marines": ["Chaos - Chaos Space Marines"],
    "heretic astartes": ["Chaos - Chaos Space Marines"],
    "chaos daemons": ["Chaos - Chaos Daemons", "Chaos - Chaos Daemons Library"],
    "legiones daemonica": ["Chaos - Chaos Daemons", "Chaos - Chaos Daemons Library"],
    "chaos knights": ["Chaos - Chaos Knights", "Chaos - Chaos Knights Library"],
    "aeldari": ["Aeldari - Craftworlds", "Aeldari - Aeldari Library"],
    "craftworlds": ["Aeldari - Craftworlds", "Aeldari - Aeldari Library"],
    "drukhari": ["Aeldari - Drukhari", "Aeldari - Aeldari Library"],
    "tau empire": ["T'au Empire"],
    "genestealer cults": ["Genestealer Cults"],
    "leagues of votann": ["Leagues of Votann"],
}
for _chapter in _SM_CHAPTERS:
    _FACTION_FILES.setdefault(_key(_chapter.split(" - ", 1)[1]),
                              [_chapter, "Imperium - Space Marines"])


def catalogues_for_faction(faction: str, directory: str | os.PathLike[str]) -> list[Path]:
    """The catalogue files of ``faction`` in ``directory``, the faction's own catalogue first.

    Known factions use a table (Adeptus Astartes: Space Marines plus the chapter catalogues);
    others are found by name ("Death Guard" -> "Chaos - Death Guard.cat"). Files that are
    missing are left out; an unknown faction gives an empty list.
    """
    directory = Path(directory)
    try:
        files = sorted(p for p in directory.iterdir()
                       if p.suffix.lower() in (".cat", ".catz") and p.is_file())
    except OSError as exc:
        raise CatalogueError(
            directory, f"cannot list the catalogue folder: {exc.strerror or exc}") from None
    by_stem = {_key(p.stem): p for p in files}
    key = _key(faction)
    wanted = _FACTION_FILES.get(key)
    if wanted:
        return [by_stem[_key(n)] for n in wanted if _key(n) in by_stem]
    out: list[Path] = []
    for p in files:  # "Imperium - Adepta Sororitas", "Chaos - Death Guard", "T'au Empire"
        stem = _key(p.stem)
        head, _, rest = stem.partition(" ")
        bare = rest if head in ("imperium", "chaos", "aeldari", "xenos") and rest else stem
        if bare == key or bare == f"{key} library" or stem == key:
            out.append(p)
    return sorted(out, key=lambda p: "library" in _key(p.stem))


# --- updating a data pack -------------------------------------------------------------------

_FILLED_KEYS = ("models", "weapons", "abilities")
_DATASHEET_ORDER = ("name", "aliases", "keywords", "faction_keywords", "points", "sizes", "base",
                    "models", "weapons", "abilities", "adaptation", "leader", "enhancement",
                    "points_note")


@dataclass
class ImportReport:
    """What :func:`update_pack` did."""

    pack: str
    out: str
    faction: str
    catalogues: list[str]
    filled: list[str] = field(default_factory=list)
    not_found: list[tuple[str, str]] = field(default_factory=list)  # (unit, why)
    partial: list[tuple[str, str]] = field(default_factory=list)  # matched but data missing
    warnings: list[str] = field(default_factory=list)
    matched_as: dict[str, str] = field(default_factory=dict)  # pack name -> catalogue name
    leaders: list[str] = field(default_factory=list)  # units given Leader data
    bodyguards_dropped: list[tuple[str, str]] = field(default_factory=list)  # (leader, unit)
    written: bool = False

    @property
    def ok(self) -> bool:
        return not self.not_found

    def summary(self) -> str:
        lines = [f"{self.faction}: {len(self.filled)} unit(s) filled from "
                 f"{', '.join(self.catalogues) or 'no catalogue'}"]
        for name, why in self.not_found:
            lines.append(f"  not found: {name} ({why})")
        for name, why in self.partial:
            lines.append(f"  incomplete: {name} ({why})")
        if self.leaders:
            lines.append(f"  Leader data: {len(self.leaders)} unit(s)")
        dropped: dict[str, list[str]] = {}
        for leader, unit in self.bodyguards_dropped:
            dropped.setdefault(leader, []).append(unit)
        for leader, units in dropped.items():
            lines.append(f"  {leader}: Bodyguard unit(s) not in the pack: {', '.join(units)}")
        for text in self.warnings:
            lines.append(f"  warning: {text}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pack": self.pack, "out": self.out, "faction": self.faction,
            "catalogues": self.catalogues, "filled": self.filled,
            "not_found": [{"unit": n, "reason": r} for n, r in self.not_found],
            "partial": [{"unit": n, "reason": r} for n, r in self.partial],
            "matched_as": self.matched_as, "leaders": self.leaders,
            "bodyguards_dropped": [{"leader": n, "unit": u} for n, u in self.bodyguards_dropped],
            "warnings": self.warnings, "written": self.written,
        }


def _load_pack(path: Path) -> dict[str, Any]:
    import yaml

    try:
        size = path.stat().st_size
        if size > MAX_PACK_BYTES:
            raise CatalogueError(path, f"pack is too large ({size:,} bytes)")
        text = path.read_text(encoding="utf-8-sig")
    except CatalogueError:
        raise
    except FileNotFoundError:
        raise CatalogueError(path, "no such pack file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogueError(path, f"cannot read the pack: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CatalogueError(path, f"invalid YAML: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("units", []), list):
        raise CatalogueError(
            path, "not a faction pack (needs a mapping with 'faction' and 'units')")
    return data


def _leading_comments(path: Path) -> str:
    """The comment block at the top of a YAML file, kept when the file is rewritten."""
    lines: list[str] = []
    try:
        with path.open(encoding="utf-8-sig") as fh:
            for line in fh:
                if line.startswith("#") or (lines and not line.strip()):
                    lines.append(line if line.endswith("\n") else line + "\n")
                else:
                    break
    except OSError:
        return ""
    while lines and not lines[-1].strip():
        lines.pop()
    return "".join(lines)


def _match(units: dict[str, dict[str, Any]], names: list[str]) -> str | None:
    exact: dict[str, str] = {}
    loose: dict[str, str] = {}
    for unit_name in units:
        exact.setdefault(_key(unit_name), unit_name)
    for unit_name in units:
        loose.setdefault(_loose_key(unit_name), unit_name)
    for name in names:
        if _key(name) in exact:
            return exact[_key(name)]
    for name in names:
        if _loose_key(name) in loose:
            return loose[_loose_key(name)]
    return None


def _suggest(names: list[str], keywords: list[Any], units: dict[str, dict[str, Any]]) -> list[str]:
    """Catalogue datasheets a missing unit may be: close spellings, or a shared name word and
    all of the unit's keywords ("Assault Marines" [JUMP PACK] -> "... with Jump Packs")."""
    hints: list[str] = []
    for name in names:
        hints += difflib.get_close_matches(name, list(units), n=3, cutoff=0.6)
    wanted = {str(k).upper() for k in keywords}
    words = {w for n in names for w in _loose_key(n).split() if len(w) > 3}
    for unit_name, unit in units.items():
        have = set(unit["keywords"]) | set(unit["faction_keywords"])
        if words & set(_loose_key(unit_name).split()) and wanted <= have:
            hints.append(unit_name)
    return _dedupe(hints)[:4]


def _place(unit: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``unit`` with ``key`` set: replaced in place, or inserted at its schema position."""
    if key in unit:
        unit[key] = value
        return unit
    rank = {k: i for i, k in enumerate(_DATASHEET_ORDER)}
    mine = rank[key]
    items = list(unit.items())
    at = 0
    for i, (k, _v) in enumerate(items):
        if rank.get(k, len(rank)) < mine:
            at = i + 1
    items.insert(at, (key, value))
    return dict(items)


def _merge_models(new: list[dict[str, Any]], old: Any) -> list[dict[str, Any]]:
    """Keep a hand-entered ``count`` the catalogue could not work out."""
    if not isinstance(old, list):
        return new
    old_by_name = {_key(str(m.get("name", ""))): m for m in old if isinstance(m, dict)}
    out = []
    for model in new:
        previous = old_by_name.get(_key(model["name"]))
        if previous and "count" not in model and previous.get("count") is not None:
            model = {**model, "count": previous["count"]}
        out.append(model)
    return out


class _PackNames:
    """Finds a pack's datasheet name for a unit name as the catalogues spell it: by the pack's
    names and aliases, and by the catalogue datasheet each pack unit was matched to."""

    def __init__(self, pack_units: list[Any], catalogue_units: dict[str, dict[str, Any]]) -> None:
        self.keys: dict[str, str] = {}
        for unit in pack_units:
            if not isinstance(unit, dict) or "name" not in unit:
                continue
            name = str(unit["name"])
            spellings = [name, *(str(a) for a in unit.get("aliases") or [])]
            found = _match(catalogue_units, spellings)
            for spelling in spellings + ([found] if found else []):
                for key in _name_keys(spelling):
                    self.keys.setdefault(key, name)

    def find(self, name: str) -> list[str]:
        """The pack units ``name`` stands for (none when the pack lacks it)."""
        for key in _name_keys(name):
            if key in self.keys:
                return [self.keys[key]]
        # a datasheet later split in two ("Acolyte Hybrids" -> "... with Autopistols" and
        # "... with Hand Flamers"): the older name covers every "<name> with ..." datasheet
        stem = _loose_key(name) + " with "
        split = _dedupe(v for k, v in sorted(self.keys.items()) if k.startswith(stem))
        if split:
            return split
        # a misspelling in the catalogue ("Legionaires"): only a very close one
        close = difflib.get_close_matches(_loose_key(name), list(self.keys), n=1, cutoff=0.9)
        return [self.keys[close[0]]] if close else []


def _name_keys(name: str) -> list[str]:
    """Ways a unit name is written in the catalogues' Leader lists, strictest first: exact,
    without tags, without spaces ("Wolfguard"), without a trailing "Squad" or plural "s"."""
    key = _loose_key(name)
    bare = re.sub(r" squad$", "", key)
    singular = " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in bare.split())
    return _dedupe([_key(name), key, key.replace(" ", ""), bare, singular.replace(" ", "")])


def _pack_leader(unit: dict[str, Any], src: Any, names: _PackNames,
                 report: ImportReport) -> dict[str, Any] | None:
    """The ``leader`` value of a pack unit, or None to leave the unit as it is.

    Only CHARACTER units (by the pack's keywords) get one; Bodyguard units are written with the
    pack's names and those the pack lacks (no Boarding Actions Detachment has them) are left
    out and reported. A hand-entered ``leader`` is kept when the catalogue has no Leader data.
    """
    keywords = {str(k).upper() for k in unit.get("keywords") or []}
    if not isinstance(src, dict) or "CHARACTER" not in keywords:
        return None
    name = str(unit["name"])
    bodyguards: list[str] = []
    for wanted in src["bodyguards"]:
        found = names.find(wanted)
        if not found:
            report.bodyguards_dropped.append((name, wanted))
        bodyguards += [f for f in found if f not in bodyguards and f != name]
    leader: dict[str, Any] = {"bodyguards": bodyguards}
    if src["abilities"]:
        leader["abilities"] = [dict(a) for a in src["abilities"]]
    report.leaders.append(name)
    return leader


def update_pack(pack_path: str | os.PathLike[str], catalogue_dir: str | os.PathLike[str] | None,
                out_path: str | os.PathLike[str] | None = None, *,
                catalogues: Iterable[str | os.PathLike[str]] | None = None,
                dry_run: bool = False) -> ImportReport:
    """Fill each datasheet's ``models``, ``weapons`` and ``abilities`` from BattleScribe data,
    and the ``leader`` of each CHARACTER with the Leader ability (see :func:`_pack_leader`).

    ``catalogues`` (explicit files) wins over finding them in ``catalogue_dir`` by the pack's
    ``faction``. Units are matched by name, then by ``aliases`` (case, punctuation and
    apostrophes ignored; then "[Legends]" tags ignored). Every other key is left as it was, in
    its order; units not found are reported and kept. The result is written to ``out_path``
    (default: the pack itself) atomically, unless ``dry_run``.
    """
    pack_path = Path(pack_path)
    data = _load_pack(pack_path)
    faction = str(data.get("faction", ""))
    if catalogues is not None:
        files = [Path(p) for p in catalogues]
    else:
        if catalogue_dir is None:
            raise CatalogueError(pack_path, "give a catalogue folder or a list of catalogues")
        files = catalogues_for_faction(faction, catalogue_dir)
        if not files:
            raise CatalogueError(catalogue_dir, f"no catalogue found for faction '{faction}'")
    read = _read(files)
    target = Path(out_path) if out_path is not None else pack_path
    report = ImportReport(str(pack_path), str(target), faction, [p.name for p in files])
    report.warnings.extend(read.warnings)
    names = _PackNames(data.get("units") or [], read.units)
    new_units: list[Any] = []
    for unit in data.get("units") or []:
        if not isinstance(unit, dict) or "name" not in unit:
            new_units.append(unit)
            continue
        name = str(unit["name"])
        aliases = [str(a) for a in unit.get("aliases") or []]
        found = _match(read.units, [name, *aliases])
        if found is None:
            hints = _suggest([name, *aliases], unit.get("keywords") or [], read.units)
            why = "no datasheet of that name or alias in the catalogues"
            if hints:
                why += "; closest: " + ", ".join(hints)
            report.not_found.append((name, why))
            new_units.append(unit)
            continue
        src = read.units[found]
        if found != name:
            report.matched_as[name] = found
        report.warnings.extend(f"{name}: {note}" for note in read.notes.get(found, []))
        missing = [k for k in _FILLED_KEYS if not src[k]]
        updated = dict(unit)
        for key in _FILLED_KEYS:
            if not src[key]:
                continue  # never wipe hand-entered data with nothing
            value = _merge_models(src[key], unit.get(key)) if key == "models" else src[key]
            updated = _place(updated, key, value)
        if src["models"]:
            report.filled.append(name)
        if missing:
            report.partial.append((name, "no " + ", no ".join(missing) + " in the catalogue"))
        leader = _pack_leader(updated, src.get("leader"), names, report)
        if leader is not None:
            updated = _place(updated, "leader", leader)
        new_units.append(updated)
    if "units" in data:
        data["units"] = new_units
    if not dry_run:
        write_pack(target, data, header=_leading_comments(pack_path))
        report.written = True
    return report


# --- writing YAML ---------------------------------------------------------------------------

_FLOW_LIMIT = 88


class _Flow(dict):  # type: ignore[type-arg]
    """A mapping always written in flow style (model profiles, weapons)."""


class _Block(dict):  # type: ignore[type-arg]
    """A mapping always written in block style (``leader``: one key a line, as in the docs)."""


def _flat_len(obj: Any, budget: int) -> int:
    """Rough one-line length of ``obj`` in flow style, stopping once over ``budget``."""
    if isinstance(obj, dict):
        total = 2
        for k, v in obj.items():
            total += len(str(k)) + 4 + _flat_len(v, budget - total)
            if total > budget:
                return total
        return total
    if isinstance(obj, list):
        total = 2
        for v in obj:
            total += 2 + _flat_len(v, budget - total)
            if total > budget:
                return total
        return total
    if isinstance(obj, str):
        return budget + 1 if "\n" in obj else len(obj) + 2
    return len(str(obj))


def _dumper() -> type:
    import yaml

    class PackDumper(yaml.SafeDumper):
        def increase_indent(self, flow: bool = False, indentless: bool = False) -> Any:
            return super().increase_indent(flow, False)  # indent list items under their key

        # inside {...} / [...] lines break between items, never inside a name
        def write_plain(self, text: str, split: bool = True) -> None:
            super().write_plain(text, split and not self.flow_level)

        def write_single_quoted(self, text: str, split: bool = True) -> None:
            super().write_single_quoted(text, split and not self.flow_level)

        def write_double_quoted(self, text: str, split: bool = True) -> None:
            super().write_double_quoted(text, split and not self.flow_level)

    def rep_flow(dumper: Any, data: dict[str, Any]) -> Any:
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)

    def rep_dict(dumper: Any, data: dict[Any, Any]) -> Any:
        flow = bool(data) and _flat_len(data, _FLOW_LIMIT) <= _FLOW_LIMIT and \
            all(not isinstance(v, (dict, list)) or len(v) <= 8 for v in data.values())
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)

    def rep_list(dumper: Any, data: list[Any]) -> Any:
        flow = bool(data) and all(not isinstance(v, (dict, list)) for v in data) and \
            _flat_len(data, _FLOW_LIMIT) <= _FLOW_LIMIT
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    def rep_block(dumper: Any, data: dict[str, Any]) -> Any:
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=False)

    PackDumper.add_representer(_Flow, rep_flow)
    PackDumper.add_representer(_Block, rep_block)
    PackDumper.add_representer(dict, rep_dict)
    PackDumper.add_representer(list, rep_list)
    return PackDumper


def _mark_flow(data: Any) -> Any:
    """Model profiles and weapons become flow-style mappings, ``leader`` a block-style one;
    everything else is unchanged."""
    if not isinstance(data, dict):
        return data
    units = data.get("units")
    if isinstance(units, list):
        for unit in units:
            if not isinstance(unit, dict):
                continue
            for key in ("models", "weapons"):
                if isinstance(unit.get(key), list):
                    unit[key] = [_Flow(v) if isinstance(v, dict) else v for v in unit[key]]
            if isinstance(unit.get("leader"), dict):
                unit["leader"] = _Block(unit["leader"])
    return data


def dump_pack(data: dict[str, Any]) -> str:
    """A pack as YAML text: key order kept, deterministic, 100 columns, unicode as is."""
    import yaml

    return yaml.dump(_mark_flow(data), Dumper=_dumper(), sort_keys=False, allow_unicode=True,
                     width=100, default_flow_style=False)


def write_pack(path: str | os.PathLike[str], data: dict[str, Any], header: str = "") -> None:
    """Write a pack atomically: a temporary file in the same folder, fsync, then rename."""
    path = Path(path)
    text = dump_pack(data)
    if header:
        text = header.rstrip("\n") + "\n" + text
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.chmod(tmp, path.stat().st_mode & 0o777)
        except FileNotFoundError:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:  # make the rename itself durable (best effort: not every platform can open a folder)
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


# --- the BattleScribe reader shared by catalogues and rosters (bagm.io.ros) ------------------


def read_xml_bytes(path: str | os.PathLike[str], *, limit: int,
                   zipped: bool = False, members: tuple[str, ...] = (".ros",)) -> bytes:
    """The XML bytes of a BattleScribe file, at most ``limit`` bytes.

    ``zipped``: the file is a zip archive (``.rosz``, ``.catz``) holding exactly one file with a
    suffix in ``members``; its declared size is checked before anything is unpacked and the
    unpacking stops after ``limit`` bytes, so a zip bomb costs nothing.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > limit:
            raise CatalogueError(path, f"file is too large ({size:,} bytes; limit {limit:,})")
        if not zipped:
            return path.read_bytes()
        with zipfile.ZipFile(path) as zf:
            found = [i for i in zf.infolist()
                     if not i.is_dir() and i.filename.lower().endswith(members)]
            if len(found) != 1:
                raise CatalogueError(path, f"archive must hold exactly one {'/'.join(members)} "
                                     f"file (found {len(found)})")
            info = found[0]
            if info.file_size > limit:
                raise CatalogueError(
                    path, f"refused: archive member '{info.filename}' unpacks to "
                    f"{info.file_size:,} bytes (limit {limit:,}); is this a zip bomb?")
            with zf.open(info) as fh:
                data = fh.read(limit + 1)
            if len(data) > limit:
                raise CatalogueError(path, f"refused: archive member '{info.filename}' unpacks "
                                     f"to more than {limit:,} bytes")
            return data
    except CatalogueError:
        raise
    except FileNotFoundError:
        raise CatalogueError(path, "no such file") from None
    except IsADirectoryError:
        raise CatalogueError(path, "is a directory, not a file") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        raise CatalogueError(path, f"is not a valid zip archive ({exc})") from None
    except NotImplementedError as exc:  # an unsupported compression method
        raise CatalogueError(path, f"cannot be unpacked: {exc}") from None
    except OSError as exc:
        raise CatalogueError(path, f"cannot be read: {exc.strerror or exc}") from None


def parse_xml(path: str | os.PathLike[str], data: bytes, roots: tuple[str, ...]) -> "Element":
    """Parse BattleScribe XML safely (defusedxml: no DTD entities, no external references),
    strip the namespace from every tag and check the root element is one of ``roots``."""
    import defusedxml
    import defusedxml.ElementTree as DET

    path = Path(path)
    try:
        root = DET.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except defusedxml.EntitiesForbidden as exc:
        if exc.sysid or exc.pubid:
            raise CatalogueError(
                path, f"refused: the file declares an external entity '{exc.name}' "
                f"({exc.sysid or exc.pubid}); external entities could read local files or the "
                "network (XXE), and BattleScribe files never need them") from None
        raise CatalogueError(
            path, f"refused: the file declares the XML entity '{exc.name}'; entity expansion "
            "can blow up memory (a 'billion laughs' bomb), and BattleScribe files never need "
            "it") from None
    except defusedxml.ExternalReferenceForbidden as exc:
        raise CatalogueError(
            path, f"refused: the file references external content ({exc.sysid or exc.pubid}); "
            "external references (XXE) are not allowed") from None
    except defusedxml.DefusedXmlException as exc:
        raise CatalogueError(path, f"refused: {exc}") from None
    except DET.ParseError as exc:
        raise CatalogueError(path, f"not well-formed XML: {exc}") from None
    for el in root.iter():
        tag = el.tag
        if isinstance(tag, str) and tag[:1] == "{":
            el.tag = tag.rpartition("}")[2]
    if root.tag not in roots:
        want = " or ".join(f"<{r}>" for r in roots)
        raise CatalogueError(path, f"not the expected BattleScribe file: the root element is "
                             f"<{root.tag}>, not {want}")
    return root


def factions_for_catalogue(name: str) -> list[str]:
    """Faction names a catalogue name may stand for, best first: "Imperium - Blood Angels" ->
    ["adeptus astartes", "space marines", "blood angels", "Blood Angels", ...]."""
    key = _key(name)
    out = [f for f, files in _FACTION_FILES.items() if any(_key(n) == key for n in files)]
    parts = [p.strip() for p in name.split(" - ") if p.strip()]
    out += [" - ".join(parts[i:]) for i in range(1, len(parts))]  # without "Imperium - "
    out += [name]
    return list(dict.fromkeys(out))
