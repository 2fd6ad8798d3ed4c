"""Filling a faction data pack from the catalogues: units matched by name and alias, models,
weapons, abilities and Leader data merged in, everything else kept as it was."""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from bagm.io.bsdata.factions import catalogues_for_faction
from bagm.io.bsdata.names import dedupe, loose_key, name_key
from bagm.io.bsdata.read import read_units
from bagm.io.bsdata.xmlfile import CatalogueError
from bagm.io.bsdata.yamlout import write_pack

MAX_PACK_BYTES = 20_000_000

_FILLED_KEYS = ("models", "weapons", "abilities")
_OPTION_KEYS = ("wargear", "wargear_items", "wargear_groups", "wargear_item_bounds",
                "wargear_unread")  # filled when the catalogue has them
_DATASHEET_ORDER = ("name", "aliases", "keywords", "faction_keywords", "points",
                    "supplement_points", "sizes", "base", "base_oval", "base_source", "models",
                    "weapons", "wargear", "wargear_items", "wargear_groups", "wargear_item_bounds",
                    "wargear_unread", "abilities", "adaptation", "leader", "enhancement", "points_note",
                    "corrections")


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


def _load_pack(path: Path) -> tuple[dict[str, Any], str]:
    """The pack's data and its text (kept where an import leaves a block unchanged)."""
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
    return data, text


def _match(units: dict[str, dict[str, Any]], names: list[str]) -> str | None:
    exact: dict[str, str] = {}
    loose: dict[str, str] = {}
    for unit_name in units:
        exact.setdefault(name_key(unit_name), unit_name)
    for unit_name in units:
        loose.setdefault(loose_key(unit_name), unit_name)
    for name in names:
        if name_key(name) in exact:
            return exact[name_key(name)]
    for name in names:
        if loose_key(name) in loose:
            return loose[loose_key(name)]
    return None


def _suggest(names: list[str], keywords: list[Any], units: dict[str, dict[str, Any]]) -> list[str]:
    """Catalogue datasheets a missing unit may be: close spellings, or a shared name word and
    all of the unit's keywords ("Assault Marines" [JUMP PACK] -> "... with Jump Packs")."""
    hints: list[str] = []
    for name in names:
        hints += difflib.get_close_matches(name, list(units), n=3, cutoff=0.6)
    wanted = {str(k).upper() for k in keywords}
    words = {w for n in names for w in loose_key(n).split() if len(w) > 3}
    for unit_name, unit in units.items():
        have = set(unit["keywords"]) | set(unit["faction_keywords"])
        if words & set(loose_key(unit_name).split()) and wanted <= have:
            hints.append(unit_name)
    return dedupe(hints)[:4]


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


_KEPT_MODEL_KEYS = ("count", "invuln_melee", "base", "base_oval")  # facts the catalogue lacks


def _merge_models(new: list[dict[str, Any]], old: Any) -> list[dict[str, Any]]:
    """Keep what a pack records that the catalogue cannot say: a hand-entered ``count`` it could
    not work out, a melee-only invulnerable save, a model's own base size."""
    if not isinstance(old, list):
        return new
    old_by_name = {name_key(str(m.get("name", ""))): m for m in old if isinstance(m, dict)}
    out = []
    for model in new:
        previous = old_by_name.get(name_key(model["name"]))
        if previous:
            kept = {k: previous[k] for k in _KEPT_MODEL_KEYS
                    if k not in model and previous.get(k) is not None}
            model = {**model, **kept}
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
        stem = loose_key(name) + " with "
        split = dedupe(v for k, v in sorted(self.keys.items()) if k.startswith(stem))
        if split:
            return split
        # a misspelling in the catalogue ("Legionaires"): only a very close one
        close = difflib.get_close_matches(loose_key(name), list(self.keys), n=1, cutoff=0.9)
        return [self.keys[close[0]]] if close else []


def _name_keys(name: str) -> list[str]:
    """Ways a unit name is written in the catalogues' Leader lists, strictest first: exact,
    without tags, without spaces ("Wolfguard"), without a trailing "Squad" or plural "s"."""
    key = loose_key(name)
    bare = re.sub(r" squad$", "", key)
    singular = " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in bare.split())
    return dedupe([name_key(name), key, key.replace(" ", ""), bare, singular.replace(" ", "")])


def _apply_corrections(unit: dict[str, Any], report: ImportReport) -> None:
    """Apply the unit's recorded ``corrections`` to the freshly imported models and weapons, so
    a re-import keeps a hand-corrected fact; a correction whose target is gone is reported."""
    for fix in unit.get("corrections") or []:
        if not isinstance(fix, dict) or not isinstance(fix.get("values"), dict):
            continue
        key = "models" if fix.get("model") else "weapons"
        wanted = name_key(str(fix.get("model") or fix.get("weapon")))
        targets = [x for x in unit.get(key) or []
                   if isinstance(x, dict) and name_key(str(x.get("name", ""))) == wanted]
        if not targets:
            report.warnings.append(f"{unit['name']}: correction of "
                                   f"'{fix.get('model') or fix.get('weapon')}' matches no "
                                   f"{key[:-1]}")
        for target in targets:
            target.update(fix["values"])


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
    """Fill each datasheet's ``models``, ``weapons``, ``wargear`` options and ``abilities`` from
    BattleScribe data, and the ``leader`` of each CHARACTER with the Leader ability (see
    :func:`_pack_leader`).

    ``catalogues`` (explicit files) wins over finding them in ``catalogue_dir`` by the pack's
    ``faction``. Units are matched by name, then by ``aliases`` (case, punctuation and
    apostrophes ignored; then "[Legends]" tags ignored). Every other key is left as it was, in
    its order; units not found are reported and kept. The result is written to ``out_path``
    (default: the pack itself) atomically, unless ``dry_run``.
    """
    pack_path = Path(pack_path)
    data, original = _load_pack(pack_path)
    faction = str(data.get("faction", ""))
    if catalogues is not None:
        files = [Path(p) for p in catalogues]
    else:
        if catalogue_dir is None:
            raise CatalogueError(pack_path, "give a catalogue folder or a list of catalogues")
        files = catalogues_for_faction(faction, catalogue_dir)
        if not files:
            raise CatalogueError(catalogue_dir, f"no catalogue found for faction '{faction}'")
    read = read_units(files)
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
        for key in _OPTION_KEYS:
            if src.get(key):
                updated = _place(updated, key, src[key])
        for key in ("wargear_groups", "wargear_item_bounds", "wargear_unread"):
            if src.get("wargear") and not src.get(key):
                updated.pop(key, None)  # the options read today have none
        if src["models"]:
            report.filled.append(name)
        if missing:
            report.partial.append((name, "no " + ", no ".join(missing) + " in the catalogue"))
        _apply_corrections(updated, report)
        leader = _pack_leader(updated, src.get("leader"), names, report)
        if leader is not None:
            updated = _place(updated, "leader", leader)
        new_units.append(updated)
    if "units" in data:
        data["units"] = new_units
    if not dry_run:
        write_pack(target, data, original=original)
        report.written = True
    return report
