"""``bagm datasheet`` and ``bagm odds --attacker`` without ``--weapon``."""

from __future__ import annotations

import json
import os

import pytest
from conftest import FIXTURES
from golden_json import assert_golden_json
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.packs import Catalog, UnitLookupError
from bagm.render.datasheet import ability_text, weapon_row


def run(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAGM_DATA", os.pathsep.join([str(FIXTURES / "packs"),
                                                      str(FIXTURES / "packs_other")]))


@pytest.mark.usefixtures("env")
@pytest.mark.parametrize("unit", ["Lord Commander", "Heavy Squad", "Liners"])
def test_datasheet_json_golden(unit: str) -> None:
    result = run("datasheet", unit, "--faction", "Test Legion", "--format", "json")
    assert result.exit_code == 0, result.output
    assert_golden_json("datasheet_" + unit.lower().replace(" ", "_"), result.stdout)


@pytest.mark.usefixtures("env")
def test_datasheet_json_says_what_boarding_actions_allows() -> None:
    data = json.loads(run("datasheet", "Heavy Squad", "--faction", "Test Legion", "-f",
                          "json").stdout)
    # Mustering step 4: 5 models, only costed at 10, cost half of 375 rounding up
    assert data["starting_strengths"] == [{"models": 5, "points": 188},
                                          {"models": 10, "points": 375}]
    assert {"name": "Test Strike", "max": 2, "sizes": [5, 10]} in data["detachments"]
    assert data["wargear_options"] == [] and "not who may take them" in data["wargear_note"]


def test_datasheet_text_of_a_bundled_unit() -> None:
    result = run("datasheet", "strike squad")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for needle in ("Strike Squad  · Grey Knights", "5 models: ", "10 models: ", "Base: ",
                   "Storm bolter", "Rapid Fire 2", "Nemesis force weapon", "Melee",
                   "Wargear options (weapons marked †): each kind of model",
                   "Grey Knight with Heavy Weapon (0-1; up to 2 from 10 models)",
                   "Keywords: INFANTRY, BATTLELINE",
                   "Boarding Actions Detachments: Void Purge Force (up to "):
        assert needle in out, needle


def test_datasheet_names_the_problem() -> None:
    unknown = run("datasheet", "Strik Squad")
    assert unknown.exit_code == 2 and "did you mean 'Strike Squad'" in unknown.stderr
    other = run("datasheet", "Boyz", "--faction", "Grey Knights")
    assert other.exit_code == 2 and "no unit 'Boyz' in Grey Knights; it is a unit of Orks" \
        in other.stderr
    several = run("datasheet", "Ministorum Priest")
    assert several.exit_code == 2 and "several factions" in several.stderr
    assert run("datasheet", "Ministorum Priest", "--faction", "Astra Militarum").exit_code == 0
    bad = run("datasheet", "Boyz", "--faction", "Orkz")
    assert bad.exit_code == 2 and "unknown faction 'Orkz'" in bad.stderr


def test_find_unit_by_alias(catalog: Catalog) -> None:
    f, ds = catalog.find_unit("Liners")
    assert (f.name, ds.name) == ("Test Legion", "Line Squad")
    with pytest.raises(UnitLookupError, match="no unit 'Nobody'"):
        catalog.find_unit("Nobody")


def test_weapon_abilities_as_printed(catalog: Catalog) -> None:
    _, ds = catalog.find_unit("Lord Commander")
    rows = {w.name: weapon_row(w) for w in ds.weapons}
    assert rows["Storm bolter"] == {
        "name": "Storm bolter", "type": "ranged", "Range": '24"', "A": "2", "skill": "2+",
        "S": "4", "AP": "0", "D": "1", "abilities": "Rapid Fire 2", "option": False}
    assert rows["Flamer"]["skill"] == "N/A" and rows["Flamer"]["abilities"] == \
        "Torrent, Ignores Cover"
    assert rows["Power sword"]["Range"] == "Melee" and rows["Power sword"]["AP"] == "-2"
    from types import SimpleNamespace as NS
    assert ability_text(NS(name="anti", target="INFANTRY", value=4)) == "Anti-Infantry 4+"
    assert ability_text(NS(name="twin-linked", target=None, value=None)) == "Twin-linked"


def test_odds_without_weapon_lists_the_weapons() -> None:
    result = run("odds", "--attacker", "Strike Squad")
    assert result.exit_code == 0, result.output
    assert "Weapons of Strike Squad (Grey Knights)" in result.stdout
    assert "Psilencer" in result.stdout and "--weapon \"Storm bolter\"" in result.stdout
    data = json.loads(run("odds", "--attacker", "Strike Squad", "-f", "json").stdout)
    assert data["attacker"] == "Strike Squad" and "Storm bolter" in \
        [w["name"] for w in data["weapons"]]
    assert run("odds", "--attacker", "Strik Squad").exit_code == 2


# --- the data browsing commands in JSON (golden) ---------------------------------------------


@pytest.mark.usefixtures("env")
@pytest.mark.parametrize("name, args", [
    ("units_test_legion", ["units", "Test Legion"]),
    ("units_test_strike", ["units", "Test Legion", "-d", "Test Strike"]),
    ("detachments_test_legion", ["detachments", "Test Legion"]),
    ("mission_list", ["mission", "list"]),
    ("mission_show_11", ["mission", "show", "11"]),
])
def test_browsing_json_golden(name: str, args: list[str]) -> None:
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    assert_golden_json(name, result.stdout)


@pytest.mark.usefixtures("env")
def test_units_json_says_what_the_detachment_allows() -> None:
    data = json.loads(run("units", "Test Legion", "-d", "Test Strike", "-f", "json").stdout)
    heavy = next(u for u in data["units"] if u["name"] == "Heavy Squad")
    assert heavy["max"] == 2 and heavy["sizes"] == [5, 10]
    assert {"models": 10, "points": 375} in heavy["points"]
    every = json.loads(run("units", "Test Legion", "-f", "json").stdout)
    assert len(every["units"]) >= len(data["units"]) and every["detachment"] is None
    mission = json.loads(run("mission", "show", "12", "-f", "json").stdout)
    assert mission["mission"] == 12 and mission["map"]["objectives"]
