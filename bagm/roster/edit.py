"""Edits of a roster document: new, add a unit, remove one, set a unit's choices.

Each edit takes a ``Document`` (``bagm.io.roundtrip``) and returns a new one, keeping the
user's comments, key order and layout; nothing is written here. Names typed by a user are
resolved against the data packs first (``resolve_*``, ``find_unit``), with a "did you mean"
when they are unknown. ``new_breaks`` tells whether an edit makes the roster break a rule it did
not break before.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bagm.data.names import did_you_mean, norm
from bagm.data.packs import Catalog, Faction
from bagm.errors import BagmError
from bagm.io.roundtrip import (
    Document,
    append_item,
    delete_item,
    delete_key,
    new_document,
    set_key,
    text_scalar,
)
from bagm.roster.findings import Finding, Severity
from bagm.roster.model import KEYS
from bagm.roster.points import legal_sizes
from bagm.roster.report import ValidationReport

UNIT_KEYS: list[str] = KEYS["unit"]  # unit, models, label, warlord, enhancement, weapon
ROSTER_KEYS: list[str] = ["name"] + [k for k in KEYS["roster"] if k != "name"]

# Findings that say the roster is unfinished rather than that a choice broke a rule: every
# roster passes through them while it is built (no units yet, no Warlord chosen yet).
INCOMPLETE = frozenset({"BA102", "BA130"})


@dataclass
class EditError(BagmError):
    """An edit that cannot be made as asked: an unknown or ambiguous name, nothing to change."""

    message: str
    hint: str | None = None

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


# --- names ----------------------------------------------------------------------------------


def resolve_faction(catalog: Catalog, name: str) -> Faction:
    faction = catalog.faction(name)
    if faction is None:
        hint = catalog.faction_hint(name) or "known: " + ", ".join(catalog.faction_names())
        raise EditError(f"unknown faction '{name}'", hint)
    return faction


def resolve_detachment(faction: Faction, name: str) -> Any:
    detachment = faction.detachments.get(name)
    if detachment is None:
        hint = faction.detachments.hint(name) or "pick one of: " + ", ".join(
            faction.detachments.names())
        raise EditError(f"unknown Boarding Actions Detachment '{name}' for {faction.name}", hint)
    return detachment


def resolve_datasheet(faction: Faction, name: str) -> Any:
    ds = faction.units.get(name)
    if ds is None:
        hint = faction.units.hint(name) or f"see 'bagm units \"{faction.name}\"'"
        raise EditError(f"unknown unit '{name}' for {faction.name}", hint)
    return ds


def unit_sizes(faction: Faction, detachment: Any, ds: Any) -> list[int]:
    """The legal Starting Strengths of a datasheet (in this Detachment, when it is known)."""
    allowance = faction.allowance(detachment, ds.name) if detachment is not None else None
    return legal_sizes(ds.points, ds.sizes, allowance.sizes if allowance else None)


def available_enhancements(catalog: Catalog, detachment: Any, edition: int) -> list[Any]:
    """The Detachment's Enhancements, then the universal ones, of this edition."""
    found: dict[str, Any] = {}
    own = detachment.enhancements if detachment is not None else []
    for e in [*own, *catalog.core().enhancements]:
        if edition in e.editions:
            found.setdefault(norm(e.name), e)
    return list(found.values())


def resolve_enhancement(catalog: Catalog, faction: Faction, detachment: Any, edition: int,
                        name: str) -> str:
    """The Enhancement's name as printed. One of another Detachment of the faction is returned
    too (the validator then says where it belongs); an unknown name is an ``EditError``."""
    known = available_enhancements(catalog, detachment, edition)
    others = [e for d in faction.pack.detachments if d is not detachment for e in d.enhancements]
    for e in [*known, *others]:
        if norm(name) in {norm(e.name), *(norm(a) for a in e.aliases)}:
            return str(e.name)
    names = [e.name for e in known]
    raise EditError(f"unknown Enhancement '{name}'",
                    did_you_mean(name, names) or "available: " + ", ".join(names))


def resolve_weapon(ds: Any, name: str) -> str:
    """The bearer's weapon as printed; any name when the data has no weapons for it."""
    if not ds.weapons:
        return name
    for w in ds.weapons:
        if norm(w.name) == norm(name):
            return str(w.name)
    ranged = [w.name for w in ds.weapons if w.type == "ranged"]
    raise EditError(f"{ds.name} has no weapon '{name}'",
                    did_you_mean(name, ranged) or "its ranged weapons: " + (", ".join(ranged)
                                                                           or "none"))


@dataclass(frozen=True)
class WargearChange:
    """One wargear edit: ``count`` models of ``profile`` (None: any) carry ``item``; 0 removes
    the item from the roster's choices (the unit's default comes back)."""

    item: str
    count: int
    profile: str | None = None


def parse_wargear(text: str) -> WargearChange:
    """``[PROFILE:]ITEM[=N]`` as typed on the command line (N: 1 when left out)."""
    body, _, count = text.rpartition("=") if "=" in text else (text, "", "1")
    try:
        n = int(count.strip())
    except ValueError:
        raise EditError(f"'{text}': the count after '=' must be a whole number",
                        "e.g. --wargear 'meltagun=1'") from None
    if n < 0:
        raise EditError(f"'{text}': a count of models cannot be negative")
    profile, _, item = body.rpartition(":")
    if not item.strip():
        raise EditError(f"'{text}' names no wargear item", "e.g. --wargear 'meltagun=1' or "
                        "--wargear 'Intercessor Sergeant: power fist=1'")
    return WargearChange(item.strip(), n, profile.strip() or None)


def resolve_wargear(ds: Any, change: WargearChange) -> WargearChange:
    """The item and profile as the datasheet names them; an unknown one is an ``EditError``
    with the options (a datasheet without options recorded takes any name)."""
    from bagm.roster.wargear import find_item, offered

    if not ds.wargear:
        return change
    items = offered(ds)
    item = find_item(change.item, items, ds)
    if item is None:
        raise EditError(f"{ds.name} has no wargear option '{change.item}'",
                        did_you_mean(change.item, items) or "its options: " + ", ".join(items))
    profile = change.profile
    if profile is not None:
        names = [m.name for m in ds.models]
        profile = next((n for n in names if norm(n) == norm(profile)), None)
        if profile is None:
            raise EditError(f"{ds.name} has no model profile '{change.profile}'",
                            did_you_mean(change.profile or "", names)
                            or "its model profiles: " + ", ".join(names))
    return WargearChange(item, change.count, profile)


def _units(doc: Document) -> list[Any]:
    units = doc.data.get("units")
    return list(units) if isinstance(units, list) else []


def _datasheet_key(entry: Any, faction: Faction | None) -> str:
    name = str(entry.get("unit", ""))
    ds = faction.units.get(name) if faction is not None else None
    return norm(ds.name if ds is not None else name)


def find_unit(doc: Document, target: str, faction: Faction | None) -> int:
    """The index of the unit named by ``target``: '#N' or 'N' (its number on the roster card),
    a label, or a datasheet name or alias when only one unit has it."""
    units = _units(doc)
    number = re.fullmatch(r"#?\s*(\d+)", target.strip())
    if number:
        n = int(number.group(1))
        if not 1 <= n <= len(units):
            raise EditError(f"no unit #{n}; the roster has {len(units)} unit(s)")
        return n - 1
    key = norm(target)
    matches = [i for i, u in enumerate(units) if u.get("label") and norm(str(u["label"])) == key]
    if not matches:
        ds = faction.units.get(target) if faction is not None else None
        wanted = norm(ds.name) if ds is not None else key
        matches = [i for i, u in enumerate(units) if _datasheet_key(u, faction) == wanted]
    if len(matches) == 1:
        return matches[0]
    if matches:
        numbers = ", ".join(f"#{i + 1}" for i in matches)
        raise EditError(f"{len(matches)} units match '{target}' ({numbers})",
                        f"name one by its number, e.g. '#{matches[0] + 1}', or give it a label")
    names = [str(u["label"]) for u in units if u.get("label")] + [str(u.get("unit", ""))
                                                                   for u in units]
    raise EditError(f"no unit '{target}' in the roster",
                    did_you_mean(target, names) or ("units: " + ", ".join(names) if names
                                                    else "the roster has no units"))


# --- edits ----------------------------------------------------------------------------------


def new_roster(faction: str, detachment: str, name: str | None = None,
               edition: int | None = None) -> Document:
    """A roster with no units yet."""
    values: dict[str, Any] = {}
    if name:
        values["name"] = name
    values["faction"] = faction
    values["detachment"] = detachment
    if edition is not None:
        values["edition"] = edition
    values["units"] = []
    return new_document(values)


def add_unit(doc: Document, unit: str, models: int | None = None,
             label: str | None = None, wargear: list[WargearChange] | None = None) -> Document:
    """Append a unit (``models`` left out when the datasheet has one legal size)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    out = doc.copy()
    entry = CommentedMap()
    entry["unit"] = text_scalar(unit)
    if models is not None:
        entry["models"] = models
    if label:
        entry["label"] = text_scalar(label)
    for change in wargear or []:
        set_wargear(entry, change)
    units = out.data.get("units")
    if isinstance(units, CommentedSeq):
        append_item(units, entry)
    else:  # no 'units:' yet: the new key and its first unit, comments after it stay last
        units = CommentedSeq([entry])
        units.fa.set_block_style()
        set_key(out.data, "units", units, ROSTER_KEYS)
    return out


def remove_unit(doc: Document, index: int) -> Document:
    out = doc.copy()
    delete_item(out.data, "units", index)
    return out


def set_unit(doc: Document, index: int, *, models: int | None = None, label: str | None = None,
             warlord: bool | None = None, enhancement: str | None = None,
             weapon: str | None = None, wargear: list[WargearChange] | None = None,
             clear_wargear: bool = False) -> Document:
    """Change one unit. ``None`` leaves a choice as it is; an empty string clears a label,
    Enhancement or weapon. Making a unit the Warlord takes the title from every other unit;
    clearing an Enhancement clears its weapon too. ``wargear`` changes are applied in order
    after ``clear_wargear`` (back to the default wargear)."""
    if all(v is None for v in (models, label, warlord, enhancement, weapon, wargear)) \
            and not clear_wargear:
        raise EditError("nothing to change",
                        "give --warlord, --no-warlord, --enhancement, --models, --weapon, "
                        "--wargear or --label")
    out = doc.copy()
    units = out.data["units"]
    entry = units[index]
    if models is not None:
        set_key(entry, "models", models, UNIT_KEYS)
    if label is not None:
        _set_or_clear(entry, "label", label)
    if warlord is True:
        for i, other in enumerate(units):
            if i != index and "warlord" in other:
                delete_key(other, "warlord")
        set_key(entry, "warlord", True, UNIT_KEYS)
    elif warlord is False:
        delete_key(entry, "warlord")
    if enhancement is not None:
        _set_or_clear(entry, "enhancement", enhancement)
        if not enhancement and weapon is None:
            delete_key(entry, "weapon")
    if weapon is not None:
        _set_or_clear(entry, "weapon", weapon)
    if clear_wargear:
        delete_key(entry, "wargear")
    for change in wargear or []:
        set_wargear(entry, change)
    return out


def set_wargear(entry: Any, change: WargearChange) -> None:
    """Apply one wargear change to a unit's entry in place (comments kept): set the item's
    count, or with 0 remove it; an emptied profile mapping or ``wargear`` key goes too."""
    from ruamel.yaml.comments import CommentedMap

    if change.count == 0 and "wargear" not in entry:
        return
    if "wargear" not in entry or not isinstance(entry["wargear"], dict):
        set_key(entry, "wargear", CommentedMap(), UNIT_KEYS)
    wargear = entry["wargear"]
    where = wargear
    if change.profile is not None:
        key = next((k for k in wargear if isinstance(wargear[k], dict)
                    and norm(str(k)) == norm(change.profile)), None)
        if key is None:
            if change.count == 0:
                return
            key = text_scalar(change.profile)
            set_key(wargear, key, CommentedMap(), list(wargear) + [key])
        where = wargear[key]
    old = next((k for k in where if not isinstance(where[k], dict)
                and norm(str(k)) == norm(change.item)), None)
    if change.count == 0:
        if old is not None:
            delete_key(where, old)
    elif old is not None:
        where[old] = change.count
    else:
        item = text_scalar(change.item)
        set_key(where, item, change.count, list(where) + [item])
    if change.profile is not None and not where:
        delete_key(wargear, next(k for k in wargear if wargear[k] is where))
    if not wargear:
        delete_key(entry, "wargear")


def _set_or_clear(entry: Any, key: str, value: str) -> None:
    if value:
        set_key(entry, key, value, UNIT_KEYS)
    else:
        delete_key(entry, key)


# --- judging an edit ------------------------------------------------------------------------


def _lacked(report: ValidationReport, code: str) -> bool:
    """The roster lacked what an INCOMPLETE finding asks for: it is still being built."""
    if code == "BA130":  # Select Warlord: none chosen yet
        return not any(u.warlord for u in report.units)
    return not report.units  # BA102: no units yet


def _errors(report: ValidationReport, before: ValidationReport | None = None) -> list[Finding]:
    """Errors that count against an edit: an unfinished roster's INCOMPLETE findings do not,
    but taking away what was there (removing the Warlord, the last unit) does."""
    return [f for f in report.findings
            if f.severity is Severity.ERROR
            and (f.code not in INCOMPLETE or (before is not None and not _lacked(before, f.code)))]


def new_breaks(before: ValidationReport, after: ValidationReport) -> list[Finding]:
    """The errors an edit adds: findings of a rule (a code) the edited roster breaks more often
    than the roster before it. A rule already broken may stay broken; a roster that is only
    unfinished (no units or no Warlord yet) breaks nothing, but removing its Warlord or its last
    unit does."""
    old, new = _errors(before), _errors(after, before)
    counts_before = Counter(f.code for f in old)
    counts_after = Counter(f.code for f in new)
    worse = {code for code, n in counts_after.items() if n > counts_before[code]}
    seen = Counter((f.code, f.message) for f in old)
    out: list[Finding] = []
    for f in new:
        if f.code not in worse:
            continue
        if seen[(f.code, f.message)]:
            seen[(f.code, f.message)] -= 1
            continue
        out.append(f)
    return out
