"""Every mustering rule in the bundled data, broken on purpose by a generated roster.

For each rule of each Detachment, a roster that breaks exactly that rule is built from the
Detachment's own units; the validator must report the rule's code. This covers every kind of
mustering limit used anywhere in the data, with real datasheets.
"""

from __future__ import annotations

import itertools

import pytest
import yaml

from bagm.data.packs import Catalog, Faction
from bagm.roster.model import load_roster
from bagm.roster.mustering import matches
from bagm.roster.report import ArmyUnit
from bagm.roster.validate import validate

CATALOG = Catalog()
CODES = {"limit": "BA160", "ratio": "BA161", "requires": "BA162", "exclusive": "BA163",
         "excludes": "BA165", "keyword_group": "BA164"}


def _cases() -> list[tuple[str, str, int]]:
    return [(f.name, d.name, i) for f in CATALOG.all() for d in f.pack.detachments
            for i in range(len(d.rules))]


def _allowed(faction: Faction, det) -> list:  # type: ignore[no-untyped-def]
    return [(faction.units.get(a.unit), a) for a in det.units]


def _pick(faction: Faction, det, selector, n: int, distinct: bool = False) -> list[str]:  # type: ignore[no-untyped-def]
    """``n`` unit names matching ``selector``, within each unit's own maximum."""
    names: list[str] = []
    for ds, a in _allowed(faction, det):
        probe = ArmyUnit(0, ds.name, None, None, None, None, datasheet=ds)
        if matches(selector, probe):
            names += [ds.name] * (1 if distinct else a.max)
    return names[:n] if len(names) >= n else []


def _broken(faction: Faction, det, rule) -> list[str] | None:  # type: ignore[no-untyped-def]
    kind = rule.rule
    if kind == "limit":
        return _pick(faction, det, rule.select, rule.max + 1) or None
    if kind == "ratio":
        return _pick(faction, det, rule.count, 1) or None
    if kind == "requires":
        return _pick(faction, det, rule.select, 1) or None
    if kind == "exclusive":
        return rule.units[:2]
    if kind == "excludes":
        first = _pick(faction, det, rule.select, 1)
        others = [n for n in _pick(faction, det, rule.others, 99, distinct=True) if n not in first]
        return first + others[:1] if first and others else None
    if kind == "keyword_group":
        found: list[str] = []
        for kw1, kw2 in itertools.combinations(rule.keywords, 2):
            for ds, _ in _allowed(faction, det):
                if kw1 in ds.all_keywords and not found:
                    found.append(ds.name)
            if found:
                for ds, _ in _allowed(faction, det):
                    if kw2 in ds.all_keywords and kw1 not in ds.all_keywords:
                        return found + [ds.name]
            found = []
        return None
    raise AssertionError(f"unknown rule kind {kind}")


@pytest.mark.parametrize("faction_name,detachment,index", _cases())
def test_rule_is_enforced(faction_name: str, detachment: str, index: int) -> None:
    faction = CATALOG.faction(faction_name)
    det = faction.detachments.get(detachment)
    rule = det.rules[index]
    names = _broken(faction, det, rule)
    if names is None:
        pytest.skip(f"{detachment}: no roster of its own units can break {rule}")
    units = []
    for name in names:
        ds = faction.units.get(name)
        sizes = next(a.sizes for a in det.units if a.unit == name) or ds.sizes or sorted(ds.points)
        units.append({"unit": name, "models": sizes[0]})
    roster = {"faction": faction_name, "detachment": detachment, "units": units}
    report = validate(load_roster("broken.yaml", yaml.safe_dump(roster, sort_keys=False)), CATALOG)
    assert CODES[rule.rule] in [f.code for f in report.findings], (names, report.findings)
