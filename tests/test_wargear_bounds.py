"""The last wargear bounds the data did not read (issue 13 section 1), each read from the
catalogues and checked: for each, a roster that keeps the bound and one that breaks it, with
the finding's code and line. Units: Death Company Marines with Bolt Rifles (grenade launchers
by the unit's size), Chosen, Chaos Terminator Squad and Cultist Mob (Chaos Boons: a Crusade
upgrade's option), Wracks (the Acothyst's weapons), Reiver Squad (the sergeant's bolt
carbine goes with the squad's) and the options the catalogues hide in a Boarding Actions force
(Kommandos' Bomb Squig, Stealth Battlesuits' homing beacon, Vespid special weapons and Oversight
Drone, the 20-model bundles of Guard squads and Gretchin)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_bsdata import catalogue_of, read_test_catalogue

from bagm.data.packs import Catalog
from bagm.roster.model import load_roster
from bagm.roster.report import ValidationReport
from bagm.roster.validate import validate

CATALOG = Catalog()


def sheet(faction: str, name: str):  # type: ignore[no-untyped-def]
    return CATALOG.faction(faction).units.get(name)


def check(tmp_path: Path, text: str) -> ValidationReport:
    path = tmp_path / "r.yaml"
    path.write_text(text, encoding="utf-8")
    return validate(load_roster(path), CATALOG)


def wargear_findings(r: ValidationReport) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in r.findings if f.code.startswith("BA19")]


def test_the_bundled_datasheets_bounds_left_unread_are_those_named() -> None:
    """Only bounds changed by another choice in a form not read (test_wargear_bounds_beside
    holds the list); every other bound of the bundled datasheets is read."""
    from test_wargear_bounds_beside import NAMED

    assert sorted((ds.name, w) for f in CATALOG.all() for ds in f.pack.units
                  for w in ds.wargear_unread) == sorted(NAMED)


# --- Death Company Marines with Bolt Rifles: up to 1 grenade launcher, 2 from 10 models ---------

DEATH_COMPANY = """faction: Adeptus Astartes
detachment: Boarding Strike
units:
  - unit: Captain
    warlord: true
  - unit: Death Company Marines with Bolt Rifles
    models: {n}
    wargear:
      Astartes Grenade Launcher: {k}
"""


def test_death_company_grenade_launchers_grow_with_the_unit() -> None:
    """The catalogue counts the unit's models as selections of the group holding them all
    ("at least 10 Death Company Marines"); the Eviscerator kind's bound reads the same."""
    ds = sheet("Adeptus Astartes", "Death Company Marines with Bolt Rifles")
    unit = next(k for k in ds.wargear if k.model is None)
    assert (unit.choices[0].max, unit.choices[0].max_from) == (1, {10: 2})
    eviscerator = next(k for k in ds.wargear if k.model == "Death Company Marine w/Eviscerator")
    assert (eviscerator.max, eviscerator.max_from) == (1, {10: 2})


def test_two_grenade_launchers_in_a_unit_of_10_are_legal(tmp_path: Path) -> None:
    r = check(tmp_path, DEATH_COMPANY.format(n=10, k=2))
    # no BA196: its "Replace ..." choices' maxima across the unit are read (unit_max)
    assert r.valid and wargear_findings(r) == []
    assert sum(lo.count for lo in r.units[1].loadouts
               if "Astartes Grenade Launcher" in lo.items) == 2


def test_two_grenade_launchers_in_a_unit_of_5_are_refused(tmp_path: Path) -> None:
    r = check(tmp_path, DEATH_COMPANY.format(n=5, k=2))
    assert not r.valid and wargear_findings(r) == [("BA191", 9)]
    assert "at most 1" in next(f for f in r.findings if f.code == "BA191").message


# --- Chaos Boons: hidden unless the champion has a Crusade upgrade --------------------------

# the last: the findings on legal wargear (none: the Chosen Champion's boltgun beside his
# power fist, named once, is read: test_wargear_bounds_within)
BOONS = [
    ("Champions of Chaos", "Chosen", 5, "Chosen Champion", "plasma pistol",
     "Chaos Lord in Terminator Armour", []),
    ("Champions of Chaos", "Chaos Terminator Squad", 5, "Terminator Champion", None,
     "Chaos Lord in Terminator Armour", []),
    ("Underdeck Uprising", "Cultist Mob", 10, "Cultist Champion", "bolt pistol", "Dark Commune",
     []),
]


def boons_roster(detachment: str, unit: str, n: int, wargear: str, leader: str) -> str:
    return (f"faction: Heretic Astartes\ndetachment: {detachment}\nunits:\n"
            f"  - unit: {leader}\n    warlord: true\n  - unit: {unit}\n    models: {n}\n"
            f"    wargear:\n{wargear}")


@pytest.mark.parametrize("detachment, unit, n, champion, item, leader, noted", BOONS)
def test_chaos_boons_are_no_option_in_boarding_actions(tmp_path: Path, detachment: str,
                                                       unit: str, n: int, champion: str,
                                                       item: str | None, leader: str,
                                                       noted: list[tuple[str, int]]) -> None:
    """The catalogue hides Chaos Boons unless the champion has "Favoured for Dark God Glory"
    or "Mortal Empowerment", Crusade upgrades a Boarding Actions roster never takes: the
    champion's legal wargear passes without a "check by hand" note on a Boon (``noted``: the
    unit's other unread bounds), a Boon is refused."""
    ds = sheet("Heretic Astartes", unit)
    kind = next(k for k in ds.wargear if k.model == champion)
    assert not any("Dark Blessing" in c.of for c in kind.choices)
    legal = f"      {champion}: {{{item}: 1}}\n" if item else "      heavy flamer: 1\n"
    r = check(tmp_path, boons_roster(detachment, unit, n, legal, leader))
    assert r.valid and wargear_findings(r) == noted, r.findings
    assert not any("Dark Blessing" in f.message for f in r.findings)
    r = check(tmp_path, boons_roster(detachment, unit, n, f"      {champion}:\n"
                                     "        Dark Blessing: 1\n", leader))
    assert not r.valid and wargear_findings(r) == [*noted, ("BA190", 10)]


# --- Chosen: an item's maximum across the unit, raised from 10 models -------------------------

CHOSEN = """faction: Heretic Astartes
detachment: Champions of Chaos
units:
  - unit: Chaos Lord in Terminator Armour
    warlord: true
  - unit: Chosen
    models: 5
    wargear:
      plasma pistol: {k}
"""


def test_chosens_plasma_pistols_are_bound_across_the_unit(tmp_path: Path) -> None:
    """The catalogue bounds the Chosen's plasma pistols across the unit, whichever kinds of
    model carry them (the champion's among them): 2 in a unit of 5, 4 from 10 models. Read:
    2 pass (no "check by hand" note: every bound of the Chosen is read), 3 are BA197 at the
    wargear line, saying the bound."""
    r = check(tmp_path, CHOSEN.format(k=2))
    assert r.valid and wargear_findings(r) == [], r.findings
    r = check(tmp_path, CHOSEN.format(k=3))
    assert not r.valid and wargear_findings(r) == [("BA197", 9)], r.findings
    found = next(f for f in r.findings if f.code == "BA197")
    assert "at most 2 Plasma pistol in a unit of 5 models (4 from 10 models)" in found.message
    assert "name fewer, or take a larger unit" in found.message


# --- Wracks: the Acothyst's twin torturer's tools, or one ranged and one melee weapon ----------

WRACKS = """faction: Drukhari
detachment: Painbringers
units:
  - unit: Haemonculus
    warlord: true
  - unit: Wracks
    models: 5
    wargear:
"""


def test_the_acothysts_weapons_are_the_default_or_one_of_each_group() -> None:
    """The catalogue's "Weapon Options": twin torturer's tools, else (its bounds set to 2) one
    item of "Ranged Weapon" and one of "Melee Weapon"; read as two choices, the second made
    only without the twin tools."""
    ds = sheet("Drukhari", "Wracks")
    acothyst = next(k for k in ds.wargear if k.model == "Acothyst")
    first, second = acothyst.choices
    assert (first.of[0], first.min, first.max, first.default) == (
        "Twin torturer's tools", 1, 1, "Twin torturer's tools")
    assert "Hexrifle" in first.of and "Power weapon" not in first.of
    assert (second.of, second.min, second.unless) == (
        ["Torturer's tool", "Power weapon"], 1, ["Twin torturer's tools"])


def test_an_acothyst_with_a_hexrifle_and_a_power_weapon_is_legal(tmp_path: Path) -> None:
    r = check(tmp_path, WRACKS + "      power weapon: 1\n      hexrifle: 1\n")
    assert r.valid and wargear_findings(r) == [], r.findings
    got = {lo.items: lo.count for lo in r.units[1].loadouts}
    assert got == {("Twin torturer's tools",): 4, ("Hexrifle", "Power weapon"): 1}


@pytest.mark.parametrize("wargear, code, line", [
    # a power weapon alone: the twin tools stay, and they rule the melee weapon out
    ("      power weapon: 1\n", "BA192", 9),
    # twin tools kept on every model, and a power weapon too
    ("      twin torturer's tools: 5\n      power weapon: 1\n", "BA192", 10),
    # one Acothyst, one melee pick: a second power weapon has no model to carry it
    ("      hexrifle: 1\n      power weapon: 2\n", "BA191", 10),
])
def test_an_acothyst_breaking_the_bound_is_refused(tmp_path: Path, wargear: str, code: str,
                                                   line: int) -> None:
    r = check(tmp_path, WRACKS + wargear)
    assert not r.valid and wargear_findings(r) == [(code, line)], r.findings


def test_the_refusal_says_what_rules_the_weapon_out(tmp_path: Path) -> None:
    r = check(tmp_path, WRACKS + "      power weapon: 1\n")
    message = next(f for f in r.findings if f.code == "BA192").message
    assert "only by a model without Twin torturer's tools" in message
    assert "name what replaces it: one of Torturer's tool / Hexrifle" in message


# --- Reiver Squad: the sergeant's bolt carbine goes with the squad's ---------------------------

REIVERS = """faction: Adeptus Astartes
detachment: Shield of the Void
units:
  - unit: Captain
    warlord: true
  - unit: Reiver Squad
    models: 5
    wargear:
"""
CARBINES = "Bolt Carbine and Close Combat Weapon"


def test_the_sergeants_carbine_is_bound_to_the_squads() -> None:
    """The catalogue hides the Reiver Sergeant's bolt carbine while no Reiver has "Bolt Carbine
    and Close Combat Weapon" (counted over the unit) and sets its minimum to 1 while one has."""
    ds = sheet("Adeptus Astartes", "Reiver Squad")
    sergeant = next(k for k in ds.wargear if k.model == "Reiver Sergeant")
    carbine = next(c for c in sergeant.choices if c.of == ["Bolt Carbine"])
    assert (carbine.unit_needs, carbine.unit_min, carbine.min) == ([CARBINES], 1, 0)


@pytest.mark.parametrize("wargear", [
    f"      {CARBINES}: 4\n",  # the sergeant takes his without being named
    f"      {CARBINES}: 2\n      Reiver Sergeant: {{Bolt Carbine: 1}}\n",
])
def test_reivers_with_carbines_and_their_sergeants_are_legal(tmp_path: Path,
                                                             wargear: str) -> None:
    r = check(tmp_path, REIVERS + wargear)
    assert r.valid and wargear_findings(r) == [], r.findings
    sergeant = [lo for lo in r.units[1].loadouts if lo.profile == "Reiver Sergeant"]
    assert [lo.items for lo in sergeant] == [("Combat Knife", "Special Issue Bolt Pistol",
                                              "Bolt Carbine")]


def test_reivers_without_carbines_keep_the_sergeants_knife() -> None:
    from bagm.roster.wargear import default_loadouts

    got = default_loadouts(sheet("Adeptus Astartes", "Reiver Squad"), 5)
    assert all("Bolt Carbine" not in lo.items for lo in got)


@pytest.mark.parametrize("wargear, line, says", [
    # the sergeant's carbine without the squad's
    ("      Reiver Sergeant: {Bolt Carbine: 1}\n", 9,
     f"Reiver Sergeant's Bolt Carbine is taken only while the unit has {CARBINES}"),
    # the squad's carbines, the sergeant's left out
    (f"      {CARBINES}: 4\n      Reiver Sergeant: {{Bolt Carbine: 0}}\n", 10,
     f"while the unit has {CARBINES}, the Reiver Sergeant takes Bolt Carbine"),
])
def test_a_sergeants_carbine_apart_from_the_squads_is_refused(tmp_path: Path, wargear: str,
                                                              line: int, says: str) -> None:
    r = check(tmp_path, REIVERS + wargear)
    assert not r.valid and wargear_findings(r) == [("BA197", line)], r.findings
    assert says in next(f for f in r.findings if f.code == "BA197").message


def test_bagm_datasheet_shows_the_bound() -> None:
    from bagm.render.datasheet import kind_dict, kind_text

    ds = sheet("Adeptus Astartes", "Reiver Squad")
    sergeant = next(k for k in ds.wargear if k.model == "Reiver Sergeant")
    assert f"optional Bolt Carbine (only while the unit has {CARBINES}; then required)" \
        in kind_text(sergeant)
    got = kind_dict(sergeant)["choices"][0]
    assert (got["unit_needs"], got["unit_min"]) == ([CARBINES], 1)


# --- the importer's forms, on a catalogue of their own ---------------------------------------

def _gang_catalogue() -> str:
    """A unit whose models all sit in one group ("Gangers"), a unit-wide Big gun that grows
    with the count of that group, a Boss's Boon hidden unless the unit has a Crusade upgrade,
    and a Trophy hidden unless the unit has a Big gun (which depends on the roster)."""
    from test_bsdata import _bounds, _entry, _unit_xml, _weapon_xml

    def hide_unless(child: str, scope: str) -> str:
        return ('<modifiers><modifier type="set" value="true" field="hidden"><conditions>'
                f'<condition type="lessThan" value="1" field="selections" scope="{scope}" '
                f'childId="{child}" shared="true" includeChildSelections="true"/>'
                '</conditions></modifier></modifiers>')

    boon = ('<selectionEntry type="upgrade" name="Boon" hidden="false" id="g-boon">'
            f'<constraints>{_bounds("g-boon", None, 1)}</constraints>'
            + hide_unless("g-favour", "root-entry")
            + f'<profiles>{_weapon_xml("boon", "Boon", "3+", "melee")}</profiles></selectionEntry>')
    trophy = ('<selectionEntry type="upgrade" name="Trophy" hidden="false" id="g-trophy">'
              f'<constraints>{_bounds("g-trophy", None, 1)}</constraints>'
              + hide_unless("g-biggun", "u-gang")
              + f'<profiles>{_weapon_xml("trophy", "Trophy")}</profiles></selectionEntry>')
    boss = _entry("m-boss", "Boss", "model", boon + trophy, 1, 1, _unit_xml("boss", "Boss"))
    ganger = _entry("m-ganger", "Ganger", "model", _entry(
        "g-knife", "Knife", "upgrade", "", 1, 1, _weapon_xml("knife", "Knife", "3+", "melee")),
        4, 9, _unit_xml("ganger", "Ganger"))
    gangers = ('<selectionEntryGroup name="Gangers" hidden="false" id="grp-gangers">'
               f'<constraints>{_bounds("grp-gangers", 5, 10)}</constraints>'
               f'<selectionEntries>{boss}{ganger}</selectionEntries></selectionEntryGroup>')
    big_gun = ('<selectionEntry type="upgrade" name="Big gun" hidden="false" id="g-biggun">'
               f'<constraints>{_bounds("g-biggun", None, 1)}</constraints>'
               '<modifiers><modifier type="increment" value="1" field="c-g-biggun-max">'
               '<conditions><condition type="atLeast" value="10" field="selections" '
               'scope="u-gang" childId="grp-gangers" shared="true" '
               'includeChildSelections="true"/></conditions></modifier></modifiers>'
               f'<profiles>{_weapon_xml("big", "Big gun")}</profiles></selectionEntry>')
    crusade = ('<selectionEntryGroup name="Crusade" hidden="false" id="grp-crusade">'
               '<selectionEntries><selectionEntry type="upgrade" name="Favour" hidden="false" '
               'id="g-favour"/></selectionEntries></selectionEntryGroup>')
    unit = ('<selectionEntry type="unit" name="Gang" hidden="false" id="u-gang">'
            f'<selectionEntries>{big_gun}</selectionEntries>'
            f'<selectionEntryGroups>{gangers}{crusade}</selectionEntryGroups></selectionEntry>')
    return catalogue_of("cat-gang", "Imperium - Gang Test", unit)


@pytest.fixture
def gang(tmp_path: Path) -> dict:
    return read_test_catalogue(tmp_path, "Imperium - Gang Test", _gang_catalogue())["Gang"]


def test_a_count_of_the_group_holding_every_model_is_the_units_size(gang: dict) -> None:
    unit = next(k for k in gang["wargear"] if k["model"] is None)
    assert unit["choices"] == [{"of": ["Big gun"], "max_from": {10: 2}}]


def test_an_option_only_a_crusade_upgrade_shows_is_none(gang: dict) -> None:
    """The Boon is hidden unless the unit has "Favour", which sits only in its Crusade
    branch: no option. The Trophy's condition depends on the roster: offered while the unit
    has a Big gun."""
    boss = next(k for k in gang["wargear"] if k["model"] == "Boss")
    assert boss["choices"] == [{"of": ["Trophy"], "unit_needs": ["Big gun"]}]


# --- Hidden in a Boarding Actions force: no option ---------------------------------------------

HIDDEN_IN_BOARDING_ACTIONS = [
    ("Orks", "Ramship Raiders", "Warboss", "Kommandos", 10, "Distraction Grot: 1",
     "Bomb Squig: 1"),
    ("T'au Empire", "Starfire Cadre", "Cadre Fireblade", "Stealth Battlesuits", 5,
     "fusion blaster: 1", "homing beacon: 1"),
    ("T'au Empire", "Starfire Cadre", "Cadre Fireblade", "Vespid Stingwings", 5,
     "neutron blaster: 5", "oversight drone: 1"),
    ("T'au Empire", "Starfire Cadre", "Cadre Fireblade", "Vespid Stingwings", 5,
     "neutron blaster: 5", "t'au flamer: 1"),
]


@pytest.mark.parametrize("faction, detachment, leader, unit, n, legal, hidden",
                         HIDDEN_IN_BOARDING_ACTIONS)
def test_an_option_hidden_in_a_boarding_actions_force_is_refused(
        tmp_path: Path, faction: str, detachment: str, leader: str, unit: str, n: int,
        legal: str, hidden: str) -> None:
    """The catalogues hide it while the force is "Boarding Actions" (a bagm roster always is):
    the unit's other wargear passes, the hidden option is BA190 on its line."""
    def roster(wargear: str) -> str:
        return (f"faction: {faction}\ndetachment: {detachment}\nunits:\n"
                f"  - unit: {leader}\n    warlord: true\n  - unit: {unit}\n    models: {n}\n"
                f"    wargear:\n      {wargear}\n")

    r = check(tmp_path, roster(legal))
    assert r.valid and wargear_findings(r) == [], r.findings
    r = check(tmp_path, roster(hidden))
    assert not r.valid and wargear_findings(r) == [("BA190", 9)]
    assert "has no wargear option" in next(f for f in r.findings if f.code == "BA190").message


def test_the_larger_bundles_hidden_in_boarding_actions_grow_no_maximum() -> None:
    """"2 Runtherds and 20 Gretchin" and the 20-model Guard squads are hidden in a Boarding
    Actions force: the default bundle's kinds keep their own maxima (no ``max_from``)."""
    for faction, name in [("Orks", "Gretchin"), ("Astra Militarum", "Cadian Shock Troops"),
                          ("Astra Militarum", "Catachan Jungle Fighters"),
                          ("Astra Militarum", "Death Korps of Krieg")]:
        ds = sheet(faction, name)
        assert ds.wargear and not [k.model for k in ds.wargear if k.max_from], name
        assert not [g.models for g in ds.wargear_groups if g.max_from], name
    kommandos = sheet("Orks", "Kommandos")
    assert [c.of for k in kommandos.wargear if k.model is None for c in k.choices] == [
        ["Distraction Grot"]]
