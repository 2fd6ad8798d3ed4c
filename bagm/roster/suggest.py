"""What still fits a roster: units and sizes, Warlords, Enhancements and their bearers.

Each candidate is tried on a copy of the roster and validated; it is kept when it makes the
roster break no rule it did not already break (``bagm.roster.edit.new_breaks``), so the points
left and every mustering rule of the Detachment are respected by construction.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from bagm.data.names import norm
from bagm.data.packs import Catalog
from bagm.io.shape import build
from bagm.io.yamlsafe import Located
from bagm.roster.edit import available_enhancements, new_breaks, unit_sizes
from bagm.roster.model import Roster, RosterFile
from bagm.roster.points import points_for
from bagm.roster.report import ValidationReport
from bagm.roster.validate import validate


@dataclass(frozen=True)
class Suggestion:
    """A unit at a Starting Strength that can still be added."""

    unit: str
    models: int
    points: int
    left: int  # points left after adding it

    def as_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "models": self.models, "points": self.points,
                "left": self.left}


@dataclass(frozen=True)
class EnhancementOption:
    """An Enhancement that unit ``index`` can still take (with ``weapon`` when it needs one)."""

    enhancement: str
    index: int
    weapon: str | None = None


def with_units(roster: Roster, units: list[dict[str, Any]]) -> Roster:
    """The roster with other unit entries (no file involved; new entries get the line of
    ``units:``)."""
    data = dict(roster.source.data)
    data["units"] = units
    file = build(RosterFile, data)
    return Roster(roster.path, file, Located(data, roster.source.lines))


def _entries(roster: Roster) -> list[dict[str, Any]]:
    units = roster.source.data.get("units") or []
    return [dict(u) for u in copy.deepcopy(units)]


def _fits(before: ValidationReport, roster: Roster, units: list[dict[str, Any]],
          catalog: Catalog) -> bool:
    return not new_breaks(before, validate(with_units(roster, units), catalog))


def suggest_units(roster: Roster, catalog: Catalog,
                  before: ValidationReport | None = None) -> list[Suggestion]:
    """Every unit the Detachment allows, at every legal size, that can still be added
    (in the Detachment's order, smallest size first). Empty when the faction or Detachment is
    unknown."""
    faction = catalog.faction(roster.file.faction)
    if faction is None:
        return []
    detachment = faction.detachments.get(roster.file.detachment)
    if detachment is None:
        return []
    before = before or validate(roster, catalog)
    out: list[Suggestion] = []
    for allowance in detachment.units:
        ds = faction.units.get(allowance.unit)
        if ds is None:
            continue
        for size in unit_sizes(faction, detachment, ds):
            points = points_for(ds.points, size)
            if points is None:
                continue
            units = _entries(roster) + [{"unit": ds.name, "models": size}]
            if _fits(before, roster, units, catalog):
                out.append(Suggestion(ds.name, size, points, before.limit - before.points - points))
    return out


def warlord_options(roster: Roster, catalog: Catalog,
                    before: ValidationReport | None = None) -> list[int]:
    """The units that can be made the Warlord (in roster order)."""
    before = before or validate(roster, catalog)
    out: list[int] = []
    for i in range(len(roster.file.units)):
        units = _entries(roster)
        for u in units:
            u.pop("warlord", None)
        units[i]["warlord"] = True
        if _fits(before, roster, units, catalog):
            out.append(i)
    return out


def enhancement_options(roster: Roster, catalog: Catalog,
                        before: ValidationReport | None = None) -> list[EnhancementOption]:
    """Enhancements not yet taken, each with every unit (and ranged weapon, for one that
    improves a weapon) that can take it."""
    faction = catalog.faction(roster.file.faction)
    if faction is None:
        return []
    detachment = faction.detachments.get(roster.file.detachment)
    before = before or validate(roster, catalog)
    taken = {norm(u.enhancement) for u in roster.file.units if u.enhancement}
    out: list[EnhancementOption] = []
    for enh in available_enhancements(catalog, detachment, roster.file.edition):
        if norm(enh.name) in taken:
            continue
        for i, unit in enumerate(before.units):
            if unit.datasheet is None or unit.enhancement:
                continue
            weapons: list[str | None] = [None]
            if enh.weapon:
                weapons = [w.name for w in unit.datasheet.weapons if w.type == "ranged"]
            for weapon in weapons:
                units = _entries(roster)
                units[i]["enhancement"] = enh.name
                if weapon is not None:
                    units[i]["weapon"] = weapon
                if _fits(before, roster, units, catalog):
                    out.append(EnhancementOption(enh.name, i, weapon))
    return out
