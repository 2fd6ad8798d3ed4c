"""The export layouts real players paste, each recovered exactly (issue 16, section 1).

Fixtures in tests/fixtures/import, written by hand in each layout's shape: the 11th-edition app
(``Attached Units`` blocks, ``Attached as:`` lines, wargear bulleted once and continued without
bullets, a Force Disposition), the newer app layout with model and wargear lines at one bullet
level, listhammer.info's labelled export and its short mode, and older BattleScribe rosters that
mark models as ``upgrade`` selections and carry 9th-edition configuration. Every unit, size,
Warlord and Enhancement must come back; what a list says is never changed in silence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.packs import Catalog, bundled_dir
from bagm.io.textlist import read_text_list
from bagm.roster.importer import ImportResult, import_file, read_army_list, roster_yaml
from bagm.roster.model import load_roster
from bagm.roster.validate import validate

IMPORT = FIXTURES / "import"


@pytest.fixture(scope="module")
def bundled() -> Catalog:
    return Catalog([bundled_dir()])


def U(unit: str, **kw: Any) -> dict[str, Any]:
    return {"unit": unit, **kw}


def imported(tmp_path: Path, text: str, catalog: Catalog) -> ImportResult:
    """A pasted list, written to a file and imported."""
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8")
    return import_file(path, catalog)


BERZERKERS = {"Plasma pistol": 1, "Icon of Khorne": 1, "Khornate eviscerator": 2}  # the options


def butchers(**berzerkers: Any) -> list[dict[str, Any]]:
    # the Jakhals' mauler chainblade is an option of the datasheet (a Jakhal w/ mauler chainblade,
    # from the catalogue's bundle "1 mauler chainblade, 7 chainblades"): kept as the list says
    return [U("Khârn the Betrayer", warlord=True), U("Khorne Berzerkers", **berzerkers),
            U("Master of Executions", enhancement="Battle Lust"), U("Chaos Spawn"),
            U("Jakhals", wargear={"Mauler chainblade": 1})]


BUTCHERS = butchers(wargear=BERZERKERS)

# file: (format, roster, the validation codes the imported roster gets)
EXPECTED: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    # the Jakhals' Icon of Khorne: one in a unit of fewer than 20 (its bound by the unit's size)
    "app11_world_eaters.txt": ("app", {
        "name": "Butchers of the Void", "faction": "World Eaters",
        "detachment": "Boarding Butchers", "units": BUTCHERS}, []),
    "listhammer_world_eaters.txt": ("listhammer", {
        "name": "Butchers of the Void", "faction": "World Eaters",
        "detachment": "Boarding Butchers", "units": BUTCHERS}, []),
    # New Recruit's WTC header over a body in the app's grammar (a listhammer re-export)
    "listhammer_wtc_world_eaters.txt": ("listhammer", {
        "faction": "World Eaters", "detachment": "Boarding Butchers",  # no Icon in this one
        "units": butchers(wargear={"Plasma pistol": 1, "Khornate eviscerator": 2})},
        []),
    # the short mode names no Warlord: the roster says so when validated
    "listhammer_short_world_eaters.txt": ("listhammer-short", {
        "name": "Butchers of the Void", "faction": "World Eaters",
        "detachment": "Boarding Butchers",
        "units": [U("Khârn the Betrayer"), U("Khorne Berzerkers"),
                  U("Master of Executions", enhancement="Battle Lust"), U("Chaos Spawn"),
                  U("Jakhals")]}, ["BA130"]),
    # 20 Khorne Berzerkers stay 20 (only 10 is legal): validation reports it
    "app_world_eaters_same_level.txt": ("app", {
        "name": "Twenty Angry Men", "faction": "World Eaters", "detachment": "Boarding Butchers",
        "units": [U("Master of Executions", warlord=True, enhancement="Chosen of Khorne"),
                  U("Khorne Berzerkers", models=20,
                    wargear={"Khornate eviscerator": 2, "Plasma pistol": 2,
                             "Icon of Khorne": 1})]}, ["BA114"]),
    "older_grey_knights.ros": ("ros", {
        "name": "Old Sanctic Cell", "faction": "Grey Knights", "detachment": "Void Purge Force",
        "units": [U("Brother-Captain", warlord=True, enhancement="Tactical Haruspexy"),
                  U("Strike Squad", models=5),
                  U("Strike Squad", models=10, wargear={"Psycannon": 1})]}, []),
    "older_necrons_dynasty.ros": ("ros", {
        "name": "Old Cabal", "faction": "Necrons", "detachment": "Harbinger Cabal",
        "units": [U("Technomancer", warlord=True, enhancement="Cryptometric Enhancement"),
                  U("Immortals", models=10), U("Necron Warriors"), U("Chronomancer")]}, []),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_layout_is_recovered_exactly(name: str, bundled: Catalog, tmp_path: Path) -> None:
    fmt, roster, codes = EXPECTED[name]
    result = import_file(IMPORT / name, bundled)
    assert result.format == fmt
    assert result.roster == roster
    assert result.unmapped == []
    report = validate(load_roster(tmp_path / "r.yaml", roster_yaml(result)), bundled)
    assert sorted({f.code for f in report.findings}) == codes


def test_11th_edition_lines_are_read_as_what_they_are() -> None:
    army = read_army_list(IMPORT / "app11_world_eaters.txt")
    assert army.skipped == [] and army.header[0].text == "World Eaters"
    assert [f.text for f in army.recognised] == ["Force Disposition: Purge the Foe"]
    kharn, zerks, master, spawn, jakhals = army.units
    assert kharn.attached == ["Leader (Character)"] and zerks.attached == ["Bodyguard (Battleline)"]
    # a wargear group (bullet, then un-bulleted lines) is wargear, not models
    assert kharn.models is None and kharn.candidates == []
    assert kharn.items == ["1x Gorechild", "1x Plasma pistol"]
    # model lines are those with bullets below them
    assert zerks.models == 10 and zerks.model_lines == [(1, "Khorne Berzerker Champion"),
                                                        (9, "Khorne Berzerker")]
    assert "2x Khornate eviscerator" in zerks.items and "1x Icon of Khorne" in zerks.items
    assert master.items == ["1x Axe of dismemberment", "1x Bolt pistol"]
    assert (spawn.models, jakhals.models) == (2, 10)


def test_stated_counts_are_kept_and_said_loudly(bundled: Catalog) -> None:
    result = import_file(IMPORT / "app_world_eaters_same_level.txt", bundled)
    assert result.warnings == [
        "line 17: the export says 20 models of Khorne Berzerkers, not a legal Starting Strength "
        "(10); kept as written, so 'bagm validate' reports it"]
    cli = CliRunner().invoke(app, ["import", str(IMPORT / "app_world_eaters_same_level.txt")])
    assert "  warning: line 17: the export says 20 models" in cli.stderr


def test_unknown_units_get_no_size_made_up_from_wargear(bundled: Catalog, tmp_path: Path) -> None:
    """A Rhino (no Boarding Actions datasheet) with three weapon lines is not three models; a
    unit that states its models keeps them."""
    result = imported(tmp_path, "Death Guard\nBoarding Patrol (500 Points)\n\nOTHER DATASHEETS\n\n"
                      "Rhino (75 Points)\n  • 1x Armoured tracks\n  • 1x Combi-bolter\n"
                      "  • 1x Havoc launcher\n\nLokhust Destroyers (90 Points)\n"
                      "  • 3x Lokhust Destroyer\n     ◦ 3x Gauss cannon\n", bundled)
    rhino, lokhust = result.roster["units"]
    assert rhino == U("Rhino") and lokhust == U("Lokhust Destroyers", models=3)
    assert any("Rhino: no size written; lines such as '1x Armoured tracks' may be models or "
               "wargear" in n for n in result.notes)


def test_lines_that_name_no_model_are_not_counted_without_saying_so(bundled: Catalog,
                                                                     tmp_path: Path) -> None:
    result = imported(tmp_path, "World Eaters\nBoarding Butchers\n\nBATTLELINE\n\n"
                      "Khorne Berzerkers (180 Points)\n  • 3x Skull trophy\n"
                      "  • 9x Bolt pistol\n", bundled)
    assert result.roster["units"] == [U("Khorne Berzerkers")]  # the only legal size, 10
    assert any("'3x Skull trophy' name no model or weapon of Khorne Berzerkers" in n
               for n in result.warnings)


def test_primaris_names_map_like_primaris_lieutenant(bundled: Catalog, tmp_path: Path) -> None:
    result = imported(tmp_path, "Space Marines\nBoarding Strike\n\nCHARACTERS\n\n"
                      "Primaris Captain (80 Points)\n  • Warlord\n\n"
                      "Primaris Lieutenant (55 Points)\n", bundled)
    assert result.roster["units"] == [U("Captain", warlord=True), U("Lieutenant")]
    assert result.ok


def test_older_rosters_read_configuration_as_configuration(bundled: Catalog,
                                                           tmp_path: Path) -> None:
    result = import_file(IMPORT / "older_necrons_dynasty.ros", bundled)
    notes = "\n".join(result.notes)
    for entry in ("Gametype: Matched", "Detachment Command Cost",
                  "Dynasty Choice: Dynasty: Novokh"):
        assert f"'{entry}' is not part of a bagm roster" in notes
    legion = tmp_path / "legion.ros"
    legion.write_text((IMPORT / "older_necrons_dynasty.ros").read_text(encoding="utf-8")
                      .replace('name="Dynasty Choice"', 'name="Legion"')
                      .replace('name="Dynasty: Novokh"', 'name="Black Legion"'), encoding="utf-8")
    result = import_file(legion, bundled)
    assert result.ok and "'Legion: Black Legion' is not part of a bagm roster" in result.notes[2]


def test_older_model_upgrades_count_once(tmp_path: Path) -> None:
    """A model upgrade inside a model is not counted again; wargear upgrades are not models."""
    army = read_army_list(IMPORT / "older_grey_knights.ros")
    assert [u.models for u in army.units] == [1, 5, 10]
    assert "4x Storm bolter" in army.units[1].items


def test_listhammer_short_mode_reads_every_line() -> None:
    army = read_text_list("short.txt", (IMPORT / "listhammer_short_world_eaters.txt")
                          .read_text(encoding="utf-8"))
    assert army.format == "listhammer-short" and army.skipped == []
    assert [(u.name, u.models, u.enhancements) for u in army.units] == [
        ("Khârn the Betrayer", None, []), ("Khorne Berzerkers", 10, []),
        ("Master of Executions", None, ["Battle Lust"]), ("Chaos Spawn", 2, []),
        ("Jakhals", 10, [])]
    assert (army.name, army.points) == ("Butchers of the Void", 495)


@pytest.mark.parametrize("footer", ["Exported from listhammer.info",
                                    "Exported with App Version: v2.0.5 (128), Data Version: v886",
                                    "Created with New Recruit"])
def test_footers_are_not_reported(footer: str) -> None:
    text = (IMPORT / "app11_world_eaters.txt").read_text(encoding="utf-8")
    army = read_text_list("x.txt", text.replace(text.splitlines()[-1], footer))
    assert army.skipped == []


def test_wargear_is_kept_as_wargear_per_unit(bundled: Catalog) -> None:
    """Wargear is recognised (never 'not understood') and handed back unit by unit, for when
    the roster format records it; model lines and Enhancements are not wargear."""
    result = import_file(IMPORT / "app11_world_eaters.txt")  # the default catalogue
    assert result.wargear == [
        ["1x Gorechild", "1x Plasma pistol"],
        ["1x Chainblade", "1x Plasma pistol", "7x Bolt pistol", "7x Chainblade",
         "1x Icon of Khorne", "2x Khornate eviscerator"],
        ["1x Axe of dismemberment", "1x Bolt pistol"], ["2x Hideous mutations"],
        ["1x Mauler chainblade", "9x Autopistol", "9x Chainblades"]]
    same_level = import_file(IMPORT / "app_world_eaters_same_level.txt", bundled)
    assert same_level.wargear == [["1x Axe of dismemberment", "1x Bolt pistol"],
                                  ["18x Bolt pistol", "17x Chainblade", "2x Khornate eviscerator",
                                   "2x Plasma pistol", "1x Icon of Khorne"]]


def test_a_bare_force_disposition_after_the_detachment_is_recognised(bundled: Catalog,
                                                                     tmp_path: Path) -> None:
    """The 11th-edition app also writes the Force Disposition unlabelled, on the line after the
    Detachment with its Detachment Points; it is noted, not reported as unknown."""
    text = (IMPORT / "app11_world_eaters.txt").read_text(encoding="utf-8").replace(
        "Force Disposition: Purge the Foe", "Purge the Foe")
    result = imported(tmp_path, text, bundled)
    assert result.ok and result.roster == EXPECTED["app11_world_eaters.txt"][1]
    assert "line 6: 'Force Disposition: Purge the Foe' is not part of a bagm roster" in result.notes


def test_listhammer_short_mode_with_faction_lines_and_a_bare_first_unit(
        bundled: Catalog, tmp_path: Path) -> None:
    result = imported(tmp_path, "Butchers of the Void (495 points)\n\nWorld Eaters\n"
                      "Boarding Butchers\n"
                      "Master of Executions\nEnhancement: Battle Lust (Upgrade)\n"
                      "Khârn the Betrayer\nKhârn the Betrayer + 10x Khorne Berzerkers\n"
                      "2x Chaos Spawn\n10x Jakhals\n", bundled)
    assert result.format == "listhammer-short" and result.ok, result.unmapped
    assert (result.roster["faction"], result.roster["detachment"]) == ("World Eaters",
                                                                       "Boarding Butchers")
    assert result.roster["units"] == [
        U("Master of Executions", enhancement="Battle Lust"), U("Khârn the Betrayer"),
        U("Khârn the Betrayer"), U("Khorne Berzerkers"), U("Chaos Spawn"), U("Jakhals")]
