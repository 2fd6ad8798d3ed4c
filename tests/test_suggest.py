"""What still fits: units and sizes, Warlords, Enhancements (``bagm suggest`` and the builder's
lists). A small pack made here keeps the expected lists exact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.packs import Catalog
from bagm.roster.model import load_roster
from bagm.roster.suggest import (
    EnhancementOption,
    Suggestion,
    enhancement_options,
    suggest_units,
    warlord_options,
)

PACK = """\
faction: Edit Legion
points_source: invented for the editing tests
units:
  - name: Captain
    keywords: [INFANTRY, CHARACTER]
    faction_keywords: [EDIT LEGION]
    points: {1: 80}
    weapons:
      - {name: Bolt pistol, type: ranged, range: 12, A: 1, skill: 3, S: 4, AP: 0, D: 1}
      - {name: Hand flamer, type: ranged, range: 12, A: D6, skill: null, S: 3, AP: 0, D: 1,
         abilities: [{name: torrent}]}
      - {name: Chainsword, type: melee, A: 4, skill: 3, S: 4, AP: -1, D: 1}
  - name: Saint
    keywords: [INFANTRY, CHARACTER, EPIC HERO]
    faction_keywords: [EDIT LEGION]
    points: {1: 100}
  - name: Troopers
    keywords: [INFANTRY, BATTLELINE]
    faction_keywords: [EDIT LEGION]
    points: {5: 90, 10: 170}
  - name: Hulk
    keywords: [VEHICLE]
    faction_keywords: [EDIT LEGION]
    points: {1: 250}
  - name: Hounds
    keywords: [BEAST]
    faction_keywords: [EDIT LEGION]
    points: {5: 50}
detachments:
  - name: Edit Strike
    faction_keyword: EDIT LEGION
    enhancements:
      - {name: Iron Halo}
    units:
      - {unit: Captain, max: 1}
      - {unit: Saint, max: 1}
      - {unit: Troopers, max: 2}
      - {unit: Hulk, max: 1}
      - {unit: Hounds, max: 2}
    rules:
      - {rule: ratio, count: {units: [Hounds]}, per: {keywords: [BATTLELINE]}}
"""
CORE = ["Superior Boarding Tactics", "Close-Quarters Killer", "Peerless Leader",
        "Expert Breacher", "Personal Teleporter"]


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Catalog:
    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "edit.yaml").write_text(PACK)
    monkeypatch.setenv("BAGM_DATA", str(folder))
    return Catalog([folder])


def make(tmp_path: Path, units: str, header: str = "") -> Path:
    path = tmp_path / "r.yaml"
    path.write_text(f"faction: Edit Legion\ndetachment: Edit Strike\n{header}units:\n{units}")
    return path


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


def test_an_empty_roster(pack: Catalog, tmp_path: Path) -> None:
    roster = load_roster(make(tmp_path, "  []\n"))
    # no Hounds: one unit per BATTLELINE unit, and there is none yet
    assert suggest_units(roster, pack) == [
        Suggestion("Captain", 1, 80, 420), Suggestion("Saint", 1, 100, 400),
        Suggestion("Troopers", 5, 90, 410), Suggestion("Troopers", 10, 170, 330),
        Suggestion("Hulk", 1, 250, 250)]


def test_limits_epic_heroes_points_and_ratios(pack: Catalog, tmp_path: Path) -> None:
    path = make(tmp_path, "  - {unit: Saint, warlord: true}\n  - {unit: Troopers, models: 5}\n"
                          "  - {unit: Troopers, models: 5}\n")
    # 280 points: a third Troopers is over the maximum, a second Saint is not allowed,
    # the Hulk does not fit, two Hounds units for two BATTLELINE units
    assert suggest_units(load_roster(path), pack) == [
        Suggestion("Captain", 1, 80, 140), Suggestion("Hounds", 5, 50, 170)]


def test_suggest_command_text_and_json(pack: Catalog, tmp_path: Path) -> None:
    path = make(tmp_path, "  - {unit: Captain, warlord: true}\n  - {unit: Troopers, models: 10}\n")
    result = run("suggest", str(path))
    assert result.exit_code == 0, result.output
    assert "Still fits r (250 points left)" in result.output
    rows = [line.split("│")[1:-1] for line in result.output.splitlines() if "│" in line]
    assert [[c.strip() for c in row] for row in rows] == [
        ["1", "Saint", "1", "100", "150"], ["2", "Troopers", "5", "90", "160"],
        ["3", "Troopers", "10", "170", "80"], ["4", "Hulk", "1", "250", "0"],
        ["5", "Hounds", "5", "50", "200"]]
    data = json.loads(run("suggest", str(path), "--format", "json").output)
    assert data["points"] == 250 and data["left"] == 250 and data["limit"] == 500
    assert data["suggestions"][3] == {"unit": "Hulk", "models": 1, "points": 250, "left": 0}


def test_nothing_fits(pack: Catalog, tmp_path: Path) -> None:
    path = make(tmp_path, "  - {unit: Captain, warlord: true}\n  - {unit: Troopers, models: 10}\n"
                          "  - {unit: Hulk}\n")
    result = run("suggest", str(path))
    assert result.exit_code == 0 and "Nothing else fits r: 0 points left." in result.output
    assert json.loads(run("suggest", str(path), "-f", "json").output)["suggestions"] == []


def test_unknown_detachment_exit_2(pack: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("faction: Edit Legion\ndetachment: Nowhere\nunits: []\n")
    result = run("suggest", str(path))
    assert result.exit_code == 2 and "unknown detachment" in result.output


@pytest.mark.parametrize("units", [
    "  []\n",
    "  - {unit: Saint, warlord: true}\n  - {unit: Troopers, models: 5}\n",
    "  - {unit: Captain}\n  - {unit: Troopers, models: 10}\n  - {unit: Hounds}\n",
])
def test_every_suggestion_is_accepted_by_add_and_nothing_else_is(
        pack: Catalog, tmp_path: Path, units: str) -> None:
    """The suggestions are exactly what 'bagm add' accepts without --force."""
    path = make(tmp_path, units)
    original = path.read_bytes()
    suggested = {(s.unit, s.models) for s in suggest_units(load_roster(path), pack)}
    for unit, sizes in [("Captain", [1]), ("Saint", [1]), ("Troopers", [5, 10]), ("Hulk", [1]),
                        ("Hounds", [5])]:
        for size in sizes:
            result = run("add", str(path), unit, "--models", str(size))
            assert result.exit_code == (0 if (unit, size) in suggested else 1), result.output
            path.write_bytes(original)


def test_warlord_options(pack: Catalog, tmp_path: Path) -> None:
    path = make(tmp_path, "  - {unit: Troopers, models: 5}\n  - {unit: Captain}\n"
                          "  - {unit: Saint}\n")
    assert warlord_options(load_roster(path), pack) == [1, 2]  # CHARACTERS only
    path = make(tmp_path, "  - {unit: Troopers, models: 5}\n  - {unit: Hulk}\n")
    assert warlord_options(load_roster(path), pack) == [0, 1]  # no CHARACTER: anyone


def test_enhancement_options_2024(pack: Catalog, tmp_path: Path) -> None:
    path = make(tmp_path, "  - {unit: Troopers, models: 5}\n  - {unit: Captain, warlord: true}\n"
                          "  - {unit: Saint}\n")
    options = enhancement_options(load_roster(path), pack)
    # only the Captain: the Saint is an EPIC HERO, the Troopers are not CHARACTERS; Trademark
    # Weapon on a ranged weapon that is not Torrent
    assert options == [EnhancementOption(e, 1) for e in ["Iron Halo", *CORE]] + [
        EnhancementOption("Trademark Weapon", 1, "Bolt pistol")]


def test_enhancement_options_2023(pack: Catalog, tmp_path: Path) -> None:
    units = "  - {unit: Captain, warlord: true}\n  - {unit: Troopers, models: 5}\n"
    roster = load_roster(make(tmp_path, units, "edition: 2023\n"))
    options = enhancement_options(roster, pack)
    assert [o for o in options if o.enhancement == "Trademark Weapon"] == [
        EnhancementOption("Trademark Weapon", 0, "Bolt pistol"),
        EnhancementOption("Trademark Weapon", 0, "Hand flamer")]  # 2023: Torrent allowed
    roster = load_roster(make(tmp_path, units.replace(", warlord: true", ""), "edition: 2023\n"))
    assert enhancement_options(roster, pack) == []  # 2023: only the Warlord can have one


def test_taken_enhancements_are_not_offered_again(pack: Catalog, tmp_path: Path) -> None:
    path = make(tmp_path, "  - {unit: Captain, warlord: true, enhancement: Iron Halo}\n"
                          "  - {unit: Troopers, models: 5}\n")
    assert enhancement_options(load_roster(path), pack) == []  # the one CHARACTER has one
