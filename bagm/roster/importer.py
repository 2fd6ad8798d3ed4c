"""Turning an exported army list into a bagm roster.

:func:`read_army_list` reads any supported export (BattleScribe / New Recruit ``.ros``,
``.rosz`` and JSON, the Warhammer 40,000 app's and New Recruit's text layouts, bagm's own JSON
export) into a :class:`bagm.io.textlist.ArmyList`. :func:`import_list` maps its names through
the data packs (aliases, typographic quotes and case tolerated) and returns an
:class:`ImportResult`: the roster file's content plus every line that could not be mapped, each
with the reason and how to fix it. Nothing is dropped: an unknown unit or Enhancement is
written as it was found (``bagm validate`` then points at it) and reported; a line the reader
could not understand is reported and kept as a comment at the top of the written roster.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bagm.data.names import did_you_mean, norm
from bagm.data.packs import Catalog, Faction
from bagm.io.textlist import ArmyList, Found, ListedUnit, read_text_list
from bagm.io.yamlsafe import InputError, check_regular, decode, read_bytes
from bagm.roster.model import MAX_UNITS
from bagm.roster.points import legal_sizes, points_for

MAX_TEXT_BYTES = 1_000_000  # a pasted list is a few kilobytes
MAX_JSON_BYTES = 5_000_000  # New Recruit JSON carries every profile: a 2,000-point list ~2 MB

FORMATS = {
    "ros": "BattleScribe roster (.ros)",
    "rosz": "BattleScribe roster (.rosz)",
    "newrecruit-json": "New Recruit JSON",
    "bagm-json": "bagm JSON export",
    "app": "Warhammer 40,000 app text",
    "wtc": "New Recruit WTC text",
    "battlescribe": "BattleScribe / New Recruit text",
    "listhammer": "listhammer.info text",
    "listhammer-short": "listhammer.info short text",
}

__all__ = ["ImportResult", "Unmapped", "import_file", "import_list", "read_army_list",
           "roster_yaml"]


@dataclass(frozen=True)
class Unmapped:
    """A line of the export that bagm could not map."""

    where: str
    text: str
    reason: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.where}: '{self.text}': {self.reason}"

    def as_dict(self) -> dict[str, Any]:
        return {"where": self.where, "line": self.line, "text": self.text, "reason": self.reason}


@dataclass
class ImportResult:
    """A roster made from an export, and what could not be mapped."""

    source: str
    format: str
    roster: dict[str, Any]
    unmapped: list[Unmapped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """Where the roster differs from what the export says, or reads it one way of two: a size
    kept though not legal, lines read as wargear. Printed as warnings, never in silence."""
    wargear: list[list[str]] = field(default_factory=list)
    """Each unit's wargear lines as the export wrote them ("7x Bolt pistol"), in the order of
    ``roster["units"]``: recognised as wargear, though a bagm roster does not record it yet."""

    @property
    def ok(self) -> bool:
        return not self.unmapped

    @property
    def format_name(self) -> str:
        return FORMATS.get(self.format, self.format)

    def as_dict(self) -> dict[str, Any]:
        return {"source": self.source, "format": self.format, "roster": self.roster,
                "unmapped": [u.as_dict() for u in self.unmapped], "notes": list(self.notes),
                "warnings": list(self.warnings), "wargear": [list(w) for w in self.wargear]}


# --- reading --------------------------------------------------------------------------------


def read_army_list(path: Path | str) -> ArmyList:
    """Read an export of any supported format; unreadable input raises ``InputError``."""
    path = Path(path)
    name = str(path)
    check_regular(path, "an army list")
    try:
        with path.open("rb") as fh:
            head = fh.read(64)
    except FileNotFoundError:
        raise InputError(name, "no such file", hint="check the path") from None
    except OSError as exc:
        raise InputError(name, f"cannot be read: {exc.strerror or exc}") from None
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    xml = path.suffix.lower() in (".ros", ".rosz") or head[:4] == b"PK\x03\x04" \
        or start[:1] == b"<"
    if xml or start[:1] in (b"{", b"["):
        return _read_structured(path, xml)
    return read_text_list(name, _read_text(path, MAX_TEXT_BYTES))


def _read_structured(path: Path, xml: bool) -> ArmyList:
    """A roster (.ros, .rosz) or a JSON export. Apart from text lists, so that a pasted list
    never imports the BattleScribe reader (a fifth of a second)."""
    from bagm.io.bsdata import CatalogueError

    try:
        if xml:
            from bagm.io.ros import read_roster

            return read_roster(path)
        return _read_json(path)
    except CatalogueError as exc:
        message = " ".join(exc.message.split())  # one line, whatever the file put in it
        raise InputError(str(path), message, hint=_hint(message)) from None


def _hint(message: str) -> str | None:
    if message.startswith("refused"):
        return None
    if "XML" in message:
        return "export the roster again from BattleScribe or New Recruit"
    return None


def _read_text(path: Path, limit: int) -> str:
    return decode(str(path), read_bytes(path, limit, "an exported army list"), "an army list")


def _read_json(path: Path) -> ArmyList:
    from bagm.io.ros import MAX_OBJECTS

    name = str(path)
    text = _read_text(path, MAX_JSON_BYTES)
    if text.count("{") > 2 * MAX_OBJECTS:  # before parsing: a roster has a few thousand
        raise InputError(name, f"{text.count('{'):,} JSON objects; a roster has a few thousand "
                         f"(limit {MAX_OBJECTS:,})", hint="is this really an exported list?")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(name, f"invalid JSON: {exc.msg}", line=exc.lineno) from None
    except RecursionError:
        raise InputError(name, "invalid JSON: nested too deeply") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise InputError(name, f"invalid JSON: {str(exc).split(';')[0]}") from None
    if isinstance(data, dict) and "roster" in data:
        from bagm.io.ros import roster_from_json

        return roster_from_json(name, data)
    if isinstance(data, dict) and isinstance(data.get("units"), list) and "faction" in data:
        return _bagm_json(name, data)
    raise InputError(name, "JSON that is neither a New Recruit roster ('roster') nor a bagm "
                     "export ('faction', 'units')", line=1)


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _bagm_json(path: str, data: dict[str, Any]) -> ArmyList:
    """bagm's JSON export (and ``bagm show --format json``)."""
    army = ArmyList(path, "bagm-json", name=_text(data.get("name")))
    if _text(data.get("faction")):
        army.faction = Found(data["faction"].strip(), "faction")
    if _text(data.get("detachment")):
        army.detachment = Found(data["detachment"].strip(), "detachment")
    if data.get("edition") in (2023, 2024):
        army.edition = data["edition"]
    if isinstance(data.get("battle_ready"), bool):
        army.battle_ready = data["battle_ready"]
    for i, entry in enumerate(data["units"]):
        where = f"units[{i}]"
        if not isinstance(entry, dict) or not _text(entry.get("unit")):
            army.skipped.append(Found(json.dumps(entry, ensure_ascii=False)[:120], where))
            continue
        unit = ListedUnit(entry["unit"].strip(), Found(entry["unit"].strip(), where))
        models, pts = entry.get("models"), entry.get("points")
        unit.models = models if isinstance(models, int) and not isinstance(models, bool) else None
        unit.points = pts if isinstance(pts, int) and not isinstance(pts, bool) else None
        unit.warlord = entry.get("warlord") is True
        if _text(entry.get("enhancement")):
            unit.enhancements.append(entry["enhancement"].strip())
        unit.weapon = _text(entry.get("weapon"))
        unit.label = _text(entry.get("label"))
        wargear = entry.get("wargear")
        if wargear is not None:
            if _wargear_shape(wargear):
                unit.wargear = wargear
            else:
                army.skipped.append(Found(json.dumps(wargear, ensure_ascii=False)[:120],
                                          where + ".wargear"))
        army.units.append(unit)
    return army


def _wargear_shape(value: Any) -> bool:
    """A roster's wargear mapping: item -> count, or profile -> {item: count}."""
    def count(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    return isinstance(value, dict) and all(
        isinstance(k, str) and (count(v) or isinstance(v, dict) and all(
            isinstance(k2, str) and count(v2) for k2, v2 in v.items()))
        for k, v in value.items())


# --- mapping --------------------------------------------------------------------------------

def _lookup(index: Any, name: str) -> Any:
    """A datasheet by a name as exports write it: as is, without a Legends / Forge World tag,
    without "Primaris" (10th edition dropped the word: "Primaris Captain" is the Captain)."""
    bare = _LEGENDS.sub(" ", name).strip()
    found = index.get(name) or index.get(bare)
    if found is None and norm(bare).startswith("primaris "):
        found = index.get(bare[len("primaris "):])
    return found


def _plain(name: str) -> str:
    """A model name for comparison: normalised, a plural 's' dropped."""
    key = norm(_COUNT.sub("", name))
    return key[:-1] if key.endswith("s") else key


def _weapon_key(name: str) -> str:
    """A weapon name without its profile ("Plasma pistol - supercharge" -> "plasma pistol")."""
    return norm(_COUNT.sub("", name)).split(" - ")[0].strip()


_LEGENDS = re.compile(r"\s*(?:\[[^\]]*\]|\((?:legends?|forge world)\))\s*", re.I)
_COUNT = re.compile(r"^\d+\s*x\s*", re.I)
_WARGEAR_COUNT = re.compile(r"^(?P<n>\d+)\s*(?:x\s*|with\s+)(?P<name>.+)$", re.I)  # 9 with X
_BRACKETED = re.compile(r"^(?P<name>.+?)\s*\((?P<inner>[^()]+)\)\s*$")


def import_list(army: ArmyList, catalog: Catalog, faction: str | None = None,
                detachment: str | None = None) -> ImportResult:
    """Map an army list onto the data packs. ``faction`` / ``detachment`` override what the
    export says (an unknown override raises ``InputError``)."""
    return _Mapper(army, catalog).run(faction, detachment)


def import_file(path: Path | str, catalog: Catalog | None = None, faction: str | None = None,
                detachment: str | None = None) -> ImportResult:
    """The importer's entry point: an exported list's path in, an :class:`ImportResult` out
    (the roster's content, every note, every line that could not be mapped, each unit's
    wargear as written). ``catalog`` defaults to the bundled packs and ``BAGM_DATA``;
    unreadable input raises ``InputError``."""
    return import_list(read_army_list(path), catalog if catalog is not None else Catalog(),
                       faction, detachment)


class _Mapper:
    def __init__(self, army: ArmyList, catalog: Catalog) -> None:
        self.army = army
        self.catalog = catalog
        self.result = ImportResult(army.path, army.format, {})
        self.faction: Faction | None = None
        self.detachment: Any = None
        self.used_header: set[int] = set()
        self._counted: list[tuple[int, str]] = []  # a unit's "Nx Name" lines read as models
        self._enh: dict[str, Any] | None = None
        self._dropped: list[str] = []  # wargear lines not kept, "where: line"

    def miss(self, found: Found, reason: str, text: str | None = None) -> None:
        self.result.unmapped.append(Unmapped(found.where, text if text is not None else found.text,
                                             reason, found.line))

    def run(self, faction: str | None, detachment: str | None) -> ImportResult:
        army, out = self.army, self.result.roster
        if not (army.units or army.faction or army.detachment or army.header):
            raise InputError(army.path, f"no army list found (read as {FORMATS[army.format]}: "
                             "no faction, Detachment or unit lines)",
                             hint="give a .ros/.rosz roster, a JSON export or an exported text "
                             "list")
        if len(army.units) > MAX_UNITS:  # the roster would not load: say so about the export
            raise InputError(army.path, f"{len(army.units):,} units: no Boarding Patrol has more "
                             f"than {MAX_UNITS}", hint="is this really an army list?")
        if army.name:
            out["name"] = army.name
        out["faction"] = self._faction(faction)
        out["detachment"] = self._detachment(detachment)
        if army.edition == 2023:
            out["edition"] = 2023
        if army.battle_ready:
            out["battle_ready"] = True
        if army.format == "listhammer-short" and self.faction is not None:
            # a bare line above the first counted one that names a unit is that unit
            moved = [i for i, f in enumerate(army.header)
                     if i not in self.used_header and self._find_unit(f.text) is not None]
            army.units[:0] = [ListedUnit(army.header[i].text, army.header[i]) for i in moved]
            army.units.sort(key=lambda u: u.at.line or 0)  # in the order written (stable)
            self.used_header |= set(moved)
        self._other_header_lines()
        out["units"] = [self._unit(u) for u in army.units]
        if not army.units:
            self.result.unmapped.append(Unmapped(
                army.path, "", "no units found in the export; is this an army list?"))
        for found in army.skipped:
            self.miss(found, "not understood; add it to the roster by hand if it matters")
        for found in army.recognised:
            self.result.notes.append(f"{found.where}: '{found.text}' is not part of a bagm roster")
        attached = sum(len(u.attached) for u in army.units)
        if attached:
            self.result.notes.append(
                f"{attached} attachment line(s) (Attached as, Leading) not kept: bagm forms the "
                "Boarding Squads itself")
        kept = sum(1 for u in out["units"] if u.get("wargear"))
        if kept:
            self.result.notes.append(f"wargear options kept for {kept} unit(s) (default "
                                     "wargear is not written: a roster names what differs)")
        if self._dropped:
            self.result.notes.append(
                f"{len(self._dropped)} wargear selection(s) not kept ("
                + "; ".join(self._dropped[:3]) + ("; ..." if len(self._dropped) > 3 else "")
                + "): not an option of the unit in bagm's data, or not combinable with the "
                "rest; the import report's JSON lists every unit's wargear lines")
        self.result.unmapped.sort(key=lambda u: (u.line is None, u.line or 0))
        return self.result

    # faction and Detachment ------------------------------------------------------------------

    def _resolve_faction(self, text: str) -> str | None:
        bare = re.sub(r"^faction\s*:\s*", "", text.strip(), flags=re.I)
        name = self.catalog.resolve_faction(bare)
        if name is not None:
            return name
        from bagm.io.bsdata import factions_for_catalogue  # a catalogue's name

        for candidate in factions_for_catalogue(bare):
            name = self.catalog.resolve_faction(candidate)
            if name is not None:
                return name
        return None

    def _faction(self, override: str | None) -> str:
        army, catalog = self.army, self.catalog
        if override is not None:
            self.faction = catalog.faction(override)
            if self.faction is None:
                raise InputError("--faction", f"unknown faction '{override}'",
                                 hint=catalog.faction_hint(override)
                                 or "known: " + ", ".join(catalog.faction_names()))
            return self.faction.name
        name = self._resolve_faction(army.faction.text) if army.faction else None
        if name is None:
            for i, found in enumerate(army.header):
                name = self._resolve_faction(found.text)
                if name is not None:
                    self.used_header.add(i)
                    break
        if name is None:
            for hint in army.faction_hints:
                name = self._resolve_faction(hint)
                if name is not None:
                    break
        if name is None and army.faction is None and army.units:
            name = self._faction_from_units()
        if name is not None:
            self.faction = catalog.faction(name)
            assert self.faction is not None
            return self.faction.name
        known = catalog.faction_names()
        if army.faction is not None:
            bare = army.faction.text.split(" - ")[-1]
            hint = catalog.faction_hint(bare) or "known: " + ", ".join(known)
            self.miss(army.faction, f"unknown Army Faction; {hint} (or pass --faction)")
            return army.faction.text
        self.result.unmapped.append(Unmapped(
            army.path, "", "no Army Faction found in the export; pass --faction (known: "
            + ", ".join(known) + ")"))
        return ""

    def _faction_from_units(self) -> str | None:
        """An export that names no faction (listhammer's short mode): the one faction whose
        datasheets name every unit, said in a note; none, or several, is no answer."""
        names = [u.name for u in self.army.units]
        fits = [f for f in self.catalog.all()
                if all(_lookup(f.units, n) is not None for n in names)]
        if len(fits) != 1:
            return None
        self.result.notes.append(f"the export names no faction: {fits[0].name} read from its "
                                 f"{len(names)} unit name(s)")
        return str(fits[0].name)

    def _detachment_from_enhancements(self) -> Any:
        """No Detachment named: the one Detachment of the faction that has every Enhancement the
        list names, said in a note."""
        assert self.faction is not None
        wanted = {norm(e) for u in self.army.units for e in u.enhancements}
        if not wanted:
            return None
        fits = [d for d in self.faction.pack.detachments
                if wanted <= {norm(e.name) for e in d.enhancements}]
        if len(fits) != 1:
            return None
        self.result.notes.append(f"the export names no Detachment: {fits[0].name} read from its "
                                 "Enhancements")
        return fits[0]

    def _find_detachment(self, text: str) -> Any:
        if self.faction is None:
            return None
        index = self.faction.detachments
        tries = [text, re.sub(r"\s*\([^()]*\)\s*$", "", text),
                 re.sub(r"\s+detachment$", "", text, flags=re.I)]
        for t in tries:
            found = index.get(t)
            if found is not None:
                return found
        return None

    def _detachment_hint(self, text: str) -> str:
        assert self.faction is not None
        for other in self.catalog.all():  # only on a miss
            det = other.detachments.get(text)
            if det is not None and other is not self.faction:
                return (f"it is a Detachment of {other.name}; pick one of: "
                        f"{', '.join(self.faction.detachments.names())} (or pass --detachment)")
        names = self.faction.detachments.names()
        return (self.faction.detachments.hint(text) or "pick one of: " + ", ".join(names)) + \
            " (or pass --detachment)"

    def _detachment(self, override: str | None) -> str:
        army, faction = self.army, self.faction
        if override is not None:
            if faction is None:
                return override
            self.detachment = self._find_detachment(override)
            if self.detachment is None:
                raise InputError("--detachment", f"unknown Boarding Actions Detachment "
                                 f"'{override}' for {faction.name}",
                                 hint=faction.detachments.hint(override) or "pick one of: "
                                 + ", ".join(faction.detachments.names()))
            return self.detachment.name
        if army.detachment is not None:
            self.detachment = self._find_detachment(army.detachment.text)
            if self.detachment is not None:
                return self.detachment.name
        for i, found in enumerate(army.header):
            if i in self.used_header:
                continue
            det = self._find_detachment(found.text)
            if det is not None:
                self.used_header.add(i)
                self.detachment = det
                return det.name
        if faction is None:
            return army.detachment.text if army.detachment else ""
        if army.detachment is None:  # an unlabelled header line close to a Detachment's name
            for i, found in enumerate(army.header):
                if i not in self.used_header and faction.detachments.hint(found.text):
                    self.used_header.add(i)
                    army.detachment = found
                    break
        if army.detachment is None:
            self.detachment = self._detachment_from_enhancements()
            if self.detachment is not None:
                return str(self.detachment.name)
        if army.detachment is not None:
            self.miss(army.detachment, "not a Boarding Actions Detachment of "
                      f"{faction.name}; {self._detachment_hint(army.detachment.text)}")
            return army.detachment.text
        self.result.unmapped.append(Unmapped(
            army.path, "", f"no Boarding Actions Detachment found in the export; pass "
            f"--detachment (one of: {', '.join(faction.detachments.names())})"))
        return ""

    def _other_header_lines(self) -> None:
        """Header lines that are neither the faction nor the Detachment: a sub-faction such as a
        Chapter is noted (a roster does not record it); anything else is reported."""
        keywords: set[str] = set()
        if self.faction is not None:
            for ds in self.faction.pack.units:
                keywords |= set(ds.all_keywords)
        for i, found in enumerate(self.army.header):
            if i in self.used_header:
                continue
            if found.text.upper() in keywords:
                self.result.notes.append(f"{found.where}: '{found.text}' (a keyword of "
                                         f"{self.faction.name if self.faction else '?'}) is "
                                         "not part of a bagm roster")
                continue
            hint = ""
            if self.faction is not None and self.detachment is None:
                hint = "; " + self._detachment_hint(found.text)
            self.miss(found, "not a faction, Detachment or sub-faction bagm knows" + hint)

    # units -----------------------------------------------------------------------------------

    def _known_enhancements(self) -> dict[str, Any]:
        if self._enh is None:
            known: dict[str, Any] = {}
            if self.faction is not None:
                own = [self.detachment] if self.detachment is not None else []
                for det in own + [d for d in self.faction.pack.detachments if d not in own]:
                    for e in det.enhancements:
                        known.setdefault(norm(e.name), e)
            for e in self.catalog.core().enhancements:
                known.setdefault(norm(e.name), e)
            for e in list(known.values()):  # aliases last: a name always wins over an alias
                for alias in getattr(e, "aliases", None) or []:
                    known.setdefault(norm(alias), e)
            self._enh = known
        return self._enh

    def _find_unit(self, name: str) -> Any:
        if self.faction is None:
            return None
        return _lookup(self.faction.units, name)

    def _unit_hint(self, name: str) -> str:
        assert self.faction is not None
        for other in self.catalog.all():  # only on a miss
            if other is not self.faction and other.units.get(name) is not None:
                return f"it is a unit of {other.name}"
        return self.faction.units.hint(name) or f"see 'bagm units \"{self.faction.name}\"'"

    def _unit(self, lu: ListedUnit) -> dict[str, Any]:
        ds = self._find_unit(lu.name)
        entry: dict[str, Any] = {"unit": ds.name if ds is not None else lu.name}
        if ds is None and self.faction is not None:
            self.miss(lu.at, f"unknown unit for {self.faction.name}; "
                      f"{self._unit_hint(lu.name)}; kept as written", text=lu.name)
        self._counted = []
        models = self._models(lu, ds, entry)
        if models is not None:
            entry["models"] = models
        if lu.label:
            entry["label"] = lu.label
        if lu.warlord:
            entry["warlord"] = True
        enhancement, weapon = self._enhancement(lu)
        if enhancement:
            entry["enhancement"] = enhancement
        weapon = lu.weapon or weapon
        if weapon:
            weapons = {norm(w.name): w.name for w in ds.weapons} if ds is not None else {}
            entry["weapon"] = weapons.get(norm(weapon), weapon)
        known = self._known_enhancements()
        counted = list(self._counted)
        wargear = [i for i in lu.items if known.get(norm(_COUNT.sub("", i))) is None]
        for line in lu.candidates:
            if line in counted:
                counted.remove(line)
            else:
                wargear.append(f"{line[0]}x {line[1]}")
        self.result.wargear.append(wargear)
        if lu.wargear is not None:  # a bagm export says it as a roster does
            entry["wargear"] = lu.wargear
        elif ds is not None and ds.wargear and wargear:
            self._wargear(lu, ds, entry, wargear)
        return entry

    def _wargear(self, lu: ListedUnit, ds: Any, entry: dict[str, Any],
                 lines: list[str]) -> None:
        """The unit's wargear lines as the roster's ``wargear``: the options that differ from
        the datasheet's default (see :func:`bagm.roster.wargear.from_lines`)."""
        from bagm.roster.wargear import from_lines

        models = entry.get("models")
        if models is None:
            allowance = (self.faction.allowance(self.detachment, ds.name)
                         if self.faction is not None and self.detachment is not None else None)
            legal = legal_sizes(ds.points, ds.sizes, allowance.sizes if allowance else None)
            if len(legal) != 1:
                return
            models = legal[0]
        counted = []
        for line in lines:
            m = _WARGEAR_COUNT.match(line)
            counted.append((int(m.group("n")), m.group("name").strip()) if m else (1, line))
        wanted, dropped = from_lines(ds, models, counted)
        if wanted:
            entry["wargear"] = wanted
        self._dropped += [f"{lu.at.where}: {line}" for line in dropped]

    def _models(self, lu: ListedUnit, ds: Any, entry: dict[str, Any]) -> int | None:
        """The Starting Strength to write: left out when it is the only legal one.

        What the export states is kept, legal or not (``bagm validate`` then reports it) and
        said loudly; a count is never made up. ``Nx Name`` lines that the layout does not mark
        as models or wargear (a lone line with nothing below it) are told apart by the
        datasheet: its model profiles are models, its weapons wargear."""
        if ds is None:  # no datasheet to tell models from wargear: only a stated count
            if lu.models is None and lu.candidates:
                self.result.notes.append(
                    f"{lu.at.where}: {lu.name}: no size written; lines such as "
                    f"'{lu.candidates[0][0]}x {lu.candidates[0][1]}' may be models or wargear")
            return lu.models
        allowance = (self.faction.allowance(self.detachment, ds.name)
                     if self.faction is not None and self.detachment is not None else None)
        legal = legal_sizes(ds.points, ds.sizes, allowance.sizes if allowance else None)
        models = lu.models
        if models is None and lu.candidates:
            models = self._candidate_models(lu, ds, legal)
        if models is None and len(legal) == 1:
            models = legal[0]
        if models is None and lu.points is not None:
            fits = [s for s in legal if points_for(ds.points, s) == lu.points]
            if len(fits) == 1:
                models = fits[0]
                self.result.notes.append(f"{lu.at.where}: {ds.name} has {models} models, "
                                         f"read from its {lu.points} points")
        if models is None:
            self.miss(lu.at, f"cannot tell how many models {ds.name} has; add 'models: N' "
                      f"(legal: {' or '.join(map(str, legal))})", text=lu.name)
            return None
        if models not in legal:
            self.result.warnings.append(
                f"{lu.at.where}: the export says {models} models of {ds.name}, not a "
                f"legal Starting Strength ({' or '.join(map(str, legal))}); kept as written, so "
                "'bagm validate' reports it")
        cost = points_for(ds.points, models)
        if lu.points is not None and cost is not None and cost != lu.points \
                and self.army.format != "bagm-json":
            self.result.notes.append(f"{lu.at.where}: the export says {lu.points} points for "
                                     f"{ds.name}, bagm's data {cost}")
        return None if legal == [models] else models

    def _candidate_models(self, lu: ListedUnit, ds: Any, legal: list[int]) -> int | None:
        """The models among lone ``Nx Name`` lines. Lines naming one of the datasheet's model
        profiles (or the unit) are models, whatever their sum; lines naming none of its models
        or weapons count only when their sum is a legal size, or when no single size is legal
        (the stated number is kept for validation to judge); otherwise they are read as
        wargear and that is said."""
        weapons = {_weapon_key(w.name) for w in ds.weapons}
        profiles = {_plain(m.name) for m in ds.models} | {_plain(ds.name)}
        named = [(n, name) for n, name in lu.candidates if _plain(name) in profiles]
        other = [(n, name) for n, name in lu.candidates
                 if _plain(name) not in profiles and _weapon_key(name) not in weapons]
        if named:  # with them, the lines naming the same kind of model ("... Champion")
            heads = {p.split()[-1] for p in profiles if p.split()}
            lines = named + [(n, name) for n, name in other
                             if heads & {w[:-1] if w.endswith("s") else w
                                         for w in norm(name).split()}]
        elif other and (sum(n for n, _ in other) in legal or len(legal) != 1):
            lines = other
        else:
            if other:
                shown = ", ".join(f"'{n}x {name}'" for n, name in other[:3])
                self.result.warnings.append(
                    f"{lu.at.where}: {shown} name no model or weapon of {ds.name} and "
                    f"do not add up to its size ({' or '.join(map(str, legal))}); read as "
                    "wargear, not models")
            return None
        self._counted = lines
        return sum(n for n, _ in lines)

    def _enhancement(self, lu: ListedUnit) -> tuple[str | None, str | None]:
        """The unit's Enhancement, and the weapon named with it ("Trademark Weapon (Storm
        bolter)"); a name with brackets of its own ("Sinister Presence (Aura)") is kept whole."""
        known = self._known_enhancements()
        names: list[str] = []
        weapon = None
        for name in lu.enhancements:
            e = known.get(norm(name))
            m = _BRACKETED.match(name)
            if e is None and m and known.get(norm(m.group("name"))) is not None:
                e = known[norm(m.group("name"))]
                if e.weapon and weapon is None:
                    weapon = m.group("inner").strip()
            if e is None:
                hint = did_you_mean(name, list(dict.fromkeys(k.name for k in known.values())))
                self.miss(lu.at, f"unknown Enhancement (on {lu.name})"
                          + (f"; {hint}" if hint else "") + "; kept as written", text=name)
            names.append(e.name if e is not None else name)
        for item in lu.items:
            e = known.get(norm(_COUNT.sub("", item)))
            if e is not None:
                names.append(e.name)
        names = list(dict.fromkeys(names))
        for extra in names[1:]:
            self.miss(lu.at, f"a second Enhancement on {lu.name}: a unit takes one, "
                      f"'{names[0]}' was kept", text=extra)
        return (names[0] if names else None), weapon


# --- writing --------------------------------------------------------------------------------


def _printable(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _escape(ch: str) -> str:
    if ch in '"\\':
        return "\\" + ch
    if ch.isprintable():
        return ch
    return f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}"


def _scalar(value: Any) -> str:
    import yaml

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if not str(value).isprintable():  # tabs, line breaks, controls: escaped, double-quoted
        return '"' + "".join(_escape(ch) for ch in str(value)) + '"'
    text = yaml.safe_dump(str(value), allow_unicode=True, width=1_000_000)
    if text.endswith("\n...\n"):
        text = text[:-5]
    return text.strip()


def _mapping_lines(value: dict[str, Any], indent: str) -> list[str]:
    out: list[str] = []
    for k, v in value.items():
        if isinstance(v, dict):
            out.append(f"{indent}{_scalar(k)}:")
            out += _mapping_lines(v, indent + "  ")
        else:
            out.append(f"{indent}{_scalar(k)}: {_scalar(v)}")
    return out


def roster_yaml(result: ImportResult) -> str:
    """The roster file: a comment naming the source and every unmapped line, then the keys
    in the roster format's order (``bagm schema roster``)."""
    source = Path(result.source).name
    lines = [f"# Imported by bagm from {_printable(source)} ({result.format_name})."]
    if result.unmapped:
        lines.append("# Not mapped: fix these by hand, then run 'bagm validate':")
        lines += [f"#   {_printable(str(u))}" for u in result.unmapped]
    for key, value in result.roster.items():
        if key == "units":
            continue
        lines.append(f"{key}: {_scalar(value)}")
    units = result.roster.get("units", [])
    lines.append("units:" if units else "units: []")
    for unit in units:
        first = True
        for key, value in unit.items():
            if isinstance(value, dict):  # wargear: one item a line, a profile's items below it
                lines.append(f"  {'-' if first else ' '} {key}:")
                lines += _mapping_lines(value, "      ")
            else:
                lines.append(f"  {'-' if first else ' '} {key}: {_scalar(value)}")
            first = False
    return "\n".join(lines) + "\n"
