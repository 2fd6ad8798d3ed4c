"""Checks a roster against "Mustering your Boarding Patrol" for its edition.

Each rule is one small function returning findings; ``validate`` resolves the roster against
the data packs and runs them all. Rule text: ../shared/rules/000 (2024) and 001 (2023).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from bagm.data.names import did_you_mean, norm
from bagm.data.packs import Catalog, Faction
from bagm.io.yamlsafe import InputError
from bagm.roster.findings import Finding
from bagm.roster.model import Roster, load_roster
from bagm.roster.mustering import check_rules
from bagm.roster.points import POINTS_LIMIT, legal_sizes, points_for
from bagm.roster.report import ArmyUnit, ValidationReport


def validate_path(path: Path | str, catalog: Catalog) -> ValidationReport:
    """Load and validate one roster file; unreadable input is kept on the report."""
    try:
        roster = load_roster(path)
    except InputError as exc:
        return ValidationReport(str(path), title=Path(path).stem, input_error=exc)
    return validate(roster, catalog)


def validate(roster: Roster, catalog: Catalog) -> ValidationReport:
    f = roster.file
    report = ValidationReport(roster.path, roster.title, f.faction, f.detachment, f.edition,
                              f.battle_ready)
    faction = catalog.faction(f.faction)
    if faction is None:  # Select Army Faction: one keyword, with data to check it against
        hint = catalog.faction_hint(f.faction) or "known: " + ", ".join(catalog.faction_names())
        report.findings.append(Finding("BA100", f"unknown Army Faction '{f.faction}'; {hint}",
                                       roster.line("faction")))
        report.units = [_unresolved(roster, i) for i in range(len(f.units))]
        return report
    report.faction = faction.name
    detachment = faction.detachments.get(f.detachment)
    if detachment is None:
        report.findings.append(_unknown_detachment(roster, faction, catalog))
    else:
        report.detachment = detachment.name
    report.units = [_resolve(roster, i, faction, detachment, report.findings, catalog)
                    for i in range(len(f.units))]
    army = report.units
    _supplement_points(army)
    checks = [check_units_present, check_unit_maximums, check_epic_heroes, check_warlord,
              check_labels, check_wargear]
    for check in checks:
        report.findings += check(roster, army)
    report.findings += check_enhancements(roster, army, faction, detachment, catalog)
    if detachment is not None:
        report.findings += check_rules(detachment.rules, army)
    report.findings += check_points(roster, army)
    report.findings.sort(key=lambda x: (x.line or 0, x.code))
    return report


def _supplement_points(army: list[ArmyUnit]) -> None:
    """Munitorum Field Manual, Codex Supplements: a unit of an army of that chapter (a unit with
    its keyword, e.g. BLACK TEMPLARS) pays the supplement's own price for it."""
    present = {k for u in army if u.datasheet is not None for k in u.datasheet.all_keywords}
    for u in army:
        ds = u.datasheet
        if ds is None or u.points is None or u.models is None:
            continue
        for keyword, points in ds.supplement_points.items():
            if keyword in present and points_for(points, u.models) is not None:
                u.points = points_for(points, u.models)
                break


def _unresolved(roster: Roster, i: int) -> ArmyUnit:
    e = roster.file.units[i]
    return ArmyUnit(i, e.unit, e.label, e.models, None, roster.unit_line(i), e.warlord,
                    e.enhancement, e.weapon, e.wargear)


def _unknown_detachment(roster: Roster, faction: Faction, catalog: Catalog) -> Finding:
    name = roster.file.detachment
    line = roster.line("detachment")
    for other in catalog.all():  # only reached on an error, so loading every pack is fine
        det = other.detachments.get(name)
        if det is not None and other is not faction:
            return Finding("BA101", f"Detachment '{det.name}' belongs to {other.name}, not "
                           f"{faction.name}; pick one of: {', '.join(faction.detachments.names())}",
                           line)
    hint = faction.detachments.hint(name) or "pick one of: " + ", ".join(faction.detachments.names())
    if not name.strip():
        return Finding("BA101", f"no Boarding Actions Detachment; add 'detachment: ...' ({hint})",
                       line)
    return Finding("BA101", f"unknown Boarding Actions Detachment '{name}' for {faction.name}; "
                   f"{hint}", line)


def _unknown_unit(name: str, faction: Faction, catalog: Catalog | None, line: int | None
                  ) -> Finding:
    """Step 4, Select Units, for a name this faction's pack lacks: another faction's unit
    names its faction (one Army Faction); a real datasheet no Boarding Actions Detachment
    includes is said to be one; only a name bagm has never heard of is "unknown"."""
    if catalog is not None:  # only reached on an error, so loading every pack is fine
        for other in catalog.all():
            ds = other.units.get(name)
            if ds is not None and other is not faction:
                return Finding("BA111", f"{ds.name} is a unit of {other.name}, not of "
                               f"{faction.name}: a Boarding Patrol has one Army Faction; remove "
                               "it", line, name)
        armies = catalog.elsewhere(name)
        if armies:
            own = faction.name in armies
            whose = "" if own else f" ({' / '.join(armies)})"
            return Finding("BA112", f"{name} is a Warhammer 40,000 datasheet{whose} that no "
                           "Boarding Actions Detachment includes; remove it", line, name)
    hint = faction.units.hint(name) or f"see 'bagm units \"{faction.name}\"'"
    return Finding("BA110", f"unknown unit '{name}' for {faction.name}; {hint}", line, name)


def _resolve(roster: Roster, i: int, faction: Faction, detachment: Any,
             findings: list[Finding], catalog: Catalog | None = None) -> ArmyUnit:
    """Step 4, Select Units: the datasheet, its Starting Strength and its points."""
    unit = _unresolved(roster, i)
    entry = roster.file.units[i]
    line = unit.line
    ds = faction.units.get(entry.unit)
    if ds is None:
        findings.append(_unknown_unit(entry.unit, faction, catalog, line))
        return unit
    unit.datasheet, unit.name = ds, ds.name
    army_keyword = faction.name.upper()
    if army_keyword not in ds.faction_keywords:  # one Army Faction: every unit carries it
        findings.append(Finding("BA111", f"{ds.name} does not have the {army_keyword} Faction "
                                "keyword; remove it", line, unit.display))
    allowance = None
    if detachment is not None:
        allowance = faction.allowance(detachment, ds.name)
        if allowance is None:
            findings.append(Finding("BA112", f"{ds.name} is not allowed by the {detachment.name} "
                                    "Detachment's Mustering Rules; remove it or pick a Detachment "
                                    "that allows it", line, unit.display))
    unit.allowance = allowance
    sizes = legal_sizes(ds.points, ds.sizes, allowance.sizes if allowance else None)
    if entry.models is None:
        if len(sizes) == 1:
            unit.models = sizes[0]
        else:
            findings.append(Finding("BA115", f"{ds.name} can be taken at "
                                    f"{_sizes(sizes)} models; add 'models: N'",
                                    line, unit.display))
            return unit
    elif entry.models not in sizes:
        findings.append(Finding("BA114", f"{ds.name} cannot have a Starting Strength of "
                                f"{entry.models}; legal: {_sizes(sizes)}",
                                roster.line("units", i, "models"), unit.display))
        unit.points = points_for(ds.points, entry.models)  # shown when the brackets cost it
        return unit
    unit.points = points_for(ds.points, unit.models)  # type: ignore[arg-type]
    if unit.points is None:
        findings.append(Finding("BA116", f"no points value for {ds.name} at {unit.models} models "
                                f"(costed: {_sizes(sorted(ds.points))})", line, unit.display))
    return unit


def _sizes(sizes: list[int]) -> str:
    return " or ".join(str(s) for s in sizes)


def check_units_present(roster: Roster, army: list[ArmyUnit]) -> list[Finding]:
    if army:
        return []
    return [Finding("BA102", "the roster has no units; add at least one under 'units:'",
                    roster.line("units") or roster.line())]


def check_unit_maximums(roster: Roster, army: list[ArmyUnit]) -> list[Finding]:
    """Step 4: "you have not reached the maximum number of that unit"."""
    out: list[Finding] = []
    seen: Counter[str] = Counter()
    for u in army:
        if u.allowance is None:
            continue
        seen[u.name] += 1
        if seen[u.name] == u.allowance.max + 1:
            out.append(Finding("BA113", f"at most {u.allowance.max} {u.name} unit(s) allowed by "
                               "the Detachment; remove one", u.line, u.display))
    return out


def check_epic_heroes(roster: Roster, army: list[ArmyUnit]) -> list[Finding]:
    """Step 4: "Your army cannot include the same EPIC HERO more than once"."""
    seen: Counter[str] = Counter()
    out: list[Finding] = []
    for u in army:
        if u.datasheet is not None and u.datasheet.is_epic_hero:
            seen[u.name] += 1
            if seen[u.name] == 2:
                out.append(Finding("BA120", f"{u.name} is an EPIC HERO and can be included only "
                                   "once; remove the second", u.line, u.display))
    return out


def check_warlord(roster: Roster, army: list[ArmyUnit]) -> list[Finding]:
    """Step 5: one Warlord, a CHARACTER model if the army includes any."""
    if not army:
        return []
    warlords = [u for u in army if u.warlord]
    if not warlords:
        return [Finding("BA130", "no Warlord: mark one unit with 'warlord: true'"
                        + (" (a CHARACTER)" if any(_is_character(u) for u in army) else ""),
                        roster.line("units"))]
    out = [Finding("BA131", f"only one Warlord is allowed; {u.display} is another",
                   roster.line("units", u.index, "warlord"), u.display) for u in warlords[1:]]
    w = warlords[0]
    if w.datasheet is not None and not _is_character(w) and any(_is_character(u) for u in army):
        out.append(Finding("BA132", f"{w.display} is not a CHARACTER, and the army includes one: "
                           "make a CHARACTER the Warlord", roster.line("units", w.index, "warlord"),
                           w.display))
    return out


def _is_character(u: ArmyUnit) -> bool:
    return u.datasheet is not None and u.datasheet.is_character


def check_labels(roster: Roster, army: list[ArmyUnit]) -> list[Finding]:
    seen: set[str] = set()
    out: list[Finding] = []
    for u in army:
        if u.label:
            if norm(u.label) in seen:
                out.append(Finding("BA180", f"label '{u.label}' is used twice; labels tell units "
                                   "apart", roster.line("units", u.index, "label"), u.display))
            seen.add(norm(u.label))
    return out


def check_wargear(roster: Roster, army: list[ArmyUnit]) -> list[Finding]:
    """The wargear a unit's entry names is among its datasheet's options (the datasheet's
    "can be replaced with" lists, from the catalogues); see :mod:`bagm.roster.wargear`
    (imported only for a roster that names wargear: most name none)."""
    out: list[Finding] = []
    for u in army:
        ds = u.datasheet
        if ds is None or u.models is None or not u.wargear:
            continue  # default wargear: worked out where it is needed (the engine)
        if not ds.wargear:
            out.append(Finding("BA194", f"{ds.name} has no wargear options in the data; its "
                               "wargear is kept but not checked, and games play its default "
                               "weapons", roster.line("units", u.index, "wargear"), u.display))
            continue
        from bagm.roster.wargear import resolve

        loadouts, problems = resolve(ds, u.models, u.wargear)
        u.loadouts = loadouts
        for p in problems:
            out.append(Finding(p.code, p.message, roster.line("units", u.index, "wargear", *p.loc),
                               u.display))
        if ds.wargear_unread:  # never a silent pass: say what was not checked
            out.append(Finding("BA196", f"{ds.name}: checked without these bounds, which "
                               "the data does not read: " + "; ".join(ds.wargear_unread) +
                               "; check those by hand",
                               roster.line("units", u.index, "wargear"), u.display))
    return out


def check_enhancements(roster: Roster, army: list[ArmyUnit], faction: Faction, detachment: Any,
                       catalog: Catalog) -> list[Finding]:
    """Step 5, Enhancements: 2024 up to two CHARACTERS (not EPIC HEROES), one each, no
    duplicates; 2023 the Warlord only, one in the army."""
    edition = roster.file.edition
    available: dict[str, tuple[Any, Any]] = {}  # name -> (Enhancement, Detachment or None)
    if detachment is not None:
        for e in detachment.enhancements:
            if edition in e.editions:
                for name in [e.name, *e.aliases]:
                    available.setdefault(norm(name), (e, detachment))
    for e in catalog.core().enhancements:
        if edition in e.editions:
            available.setdefault(norm(e.name), (e, None))
    out: list[Finding] = []
    bearers = [u for u in army if u.enhancement]
    used: Counter[str] = Counter()
    for u in bearers:
        line = roster.line("units", u.index, "enhancement")
        found = available.get(norm(u.enhancement or ""))
        if found is None:
            out.append(_unknown_enhancement(u, line, available, faction, detachment))
            continue
        enh, source = found
        used[enh.name] += 1
        if used[enh.name] == 2:
            out.append(Finding("BA143", f"{enh.name} is already taken; each Enhancement can be "
                               "included once", line, u.display))
        barred = _barred(u, enh, detachment, line)
        out += barred if enh.bars else _eligibility(u, enh, source, edition, line) + barred
        out += _weapon(roster, u, enh)
    for u in army:
        if u.weapon and not (u.enhancement and (found := available.get(norm(u.enhancement)))
                             and found[0].weapon):
            out.append(Finding("BA153", f"{u.display} names a weapon but has no Trademark Weapon "
                               "Enhancement; remove 'weapon'", roster.line("units", u.index,
                                                                          "weapon"), u.display))
    most = 2 if edition == 2024 else 1
    if len(bearers) > most:
        extra = bearers[most]
        rule = ("up to two CHARACTER models can have one" if edition == 2024
                else "your army cannot include more than one (2023 rules)")
        out.append(Finding("BA144", f"{len(bearers)} Enhancements: {rule}; remove one",
                           roster.line("units", extra.index, "enhancement"), extra.display))
    return out


def _unknown_enhancement(u: ArmyUnit, line: int | None, available: dict[str, Any],
                         faction: Faction, detachment: Any) -> Finding:
    for det in faction.pack.detachments:
        if det is not detachment and any(norm(e.name) == norm(u.enhancement or "")
                                         for e in det.enhancements):
            return Finding("BA140", f"{u.enhancement} belongs to the {det.name} Detachment, not "
                           "this one", line, u.display)
    names = list(dict.fromkeys(e.name for e, _ in available.values()))
    hint = did_you_mean(u.enhancement or "", names) or "available: " + ", ".join(names)
    return Finding("BA140", f"unknown Enhancement '{u.enhancement}'; {hint}", line, u.display)


def _eligibility(u: ArmyUnit, enh: Any, source: Any, edition: int,
                 line: int | None) -> list[Finding]:
    ds = u.datasheet
    if ds is None:
        return []
    out: list[Finding] = []
    override = u.allowance.enhancement if u.allowance is not None else None
    if override is None:
        override = ds.enhancement
    if ds.is_epic_hero:
        out.append(Finding("BA142", f"{ds.name} is an EPIC HERO and cannot have an Enhancement",
                           line, u.display))
    elif override is False and ds.is_character:
        out.append(Finding("BA141", f"{ds.name} cannot have an Enhancement in Boarding Actions "
                           "(its datasheet's adaptation forbids it)", line, u.display))
    elif not (ds.is_character if override is None else override):
        out.append(Finding("BA141", f"{ds.name} cannot have an Enhancement: only CHARACTER models "
                           "can", line, u.display))
    if edition == 2023 and not u.warlord:  # 2023: "If your WARLORD is a CHARACTER ..."
        out.append(Finding("BA145", f"{u.display} is not the Warlord: under the 2023 rules only "
                           "the Warlord can have an Enhancement", line, u.display))
    if source is not None and source.faction_keyword.upper() not in ds.all_keywords:
        out.append(Finding("BA146", f"{enh.name} can only be given to a {source.faction_keyword} "
                           "unit", line, u.display))
    missing = [k for k in enh.requires_keywords if k.upper() not in ds.all_keywords]
    if missing:
        out.append(Finding("BA147", f"{enh.name} needs a bearer with {' '.join(missing)}; "
                           f"{ds.name} is not", line, u.display))
    return out


def _barred(u: ArmyUnit, enh: Any, detachment: Any, line: int | None) -> list[Finding]:
    """A Detachment whose rule bars Enhancements (Monoform Predators: "TYRANIDS models in this
    detachment cannot be given Enhancements"): neither the bar itself nor any Enhancement on such
    a model."""
    if enh.bars:
        return [Finding("BA148", f"{enh.name} is not given to a model: {' and '.join(enh.bars)} models "
                        "of this Detachment cannot be given Enhancements; remove it", line, u.display)]
    bars = [k for e in (detachment.enhancements if detachment is not None else ()) for k in e.bars]
    hit = [k for k in bars if u.datasheet is not None and k.upper() in u.datasheet.all_keywords]
    if hit:
        return [Finding("BA148", f"{hit[0]} models of the {detachment.name} Detachment cannot be given "
                        f"Enhancements ({', '.join(e.name for e in detachment.enhancements if e.bars)}); "
                        "remove it", line, u.display)]
    return []


def _weapon(roster: Roster, u: ArmyUnit, enh: Any) -> list[Finding]:
    """Trademark Weapon: one ranged weapon the bearer has (2024: excluding Torrent)."""
    if not enh.weapon or u.datasheet is None:
        return []
    line = roster.line("units", u.index, "weapon") or roster.line("units", u.index)
    if not u.weapon:
        return [Finding("BA150", f"{enh.name} needs the ranged weapon it improves; add "
                        "'weapon: <name>'", line, u.display)]
    weapons = u.datasheet.weapons
    if not weapons:
        return [Finding("BA154", f"cannot check '{u.weapon}': the data has no weapons for "
                        f"{u.datasheet.name}", line, u.display)]
    w = next((w for w in weapons if norm(w.name) == norm(u.weapon)), None)
    if w is None:
        ranged = [w.name for w in weapons if w.type == "ranged"]
        hint = did_you_mean(u.weapon, ranged) or "its ranged weapons: " + (", ".join(ranged)
                                                                           or "none")
        return [Finding("BA151", f"{u.datasheet.name} has no weapon '{u.weapon}'; {hint}", line,
                        u.display)]
    if w.type != "ranged":
        return [Finding("BA152", f"{w.name} is a melee weapon; {enh.name} needs a ranged one",
                        line, u.display)]
    excluded = [a for a in enh.weapon_excludes if w.has_ability(a)]
    if excluded:
        return [Finding("BA152", f"{w.name} is a {excluded[0].title()} weapon, which {enh.name} "
                        "excludes", line, u.display)]
    return []


def check_points(roster: Roster, army: list[ArmyUnit]) -> list[Finding]:
    """Step 1: a Boarding Patrol contains up to 500 points of units."""
    total = 0
    for u in army:
        total += u.points or 0
        if total > POINTS_LIMIT:
            full = sum(x.points or 0 for x in army)
            return [Finding("BA170", f"{full} points is over the {POINTS_LIMIT}-point limit by "
                            f"{full - POINTS_LIMIT}; remove or shrink units", u.line, u.display)]
    return []
