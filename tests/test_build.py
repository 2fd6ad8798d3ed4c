"""The interactive builder, driven through plain stdin as a script would drive it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.roster.model import load_roster

BUILT = """\
name: Stdin Force
faction: Test Legion
detachment: Test Strike
units:
  - unit: Lord Commander
    warlord: true
    enhancement: Iron Will
  - unit: Line Squad
    models: 10
"""

EXISTING = """\
# our club list
name: Old Force   # keep me
faction: Test Legion
detachment: Test Strike
units:
  - unit: Lord Commander   # the boss
    warlord: true
  # the squad
  - unit: Line Squad
    models: 5
# more later
"""


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    data = os.pathsep.join([str(FIXTURES / "packs"), str(FIXTURES / "packs_other")])
    monkeypatch.setenv("BAGM_DATA", data)
    return {"BAGM_DATA": data}


def build(path: Path, answers: list[str], *options: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, ["build", str(path), *options],
                              input="".join(a + "\n" for a in answers))


def test_build_from_scratch(env, tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    result = build(path, [
        "Test Legion",    # faction (by name; a number works too)
        "Test Strike",    # Detachment
        "Stdin Force",    # roster name
        "Lord Commander",  # one legal size: no size question
        "Line Squad", "10",  # two legal sizes: asked
        "",               # done with units
        "",               # Warlord: the default, the only CHARACTER
        "y", "Iron Will", "1",  # an Enhancement for the Lord Commander
        "n",              # no more
    ])
    assert result.exit_code == 0, result.output
    assert path.read_text() == BUILT
    out = result.output
    assert "Still fits Stdin Force (500 points left)" in out
    assert "Added Lord Commander (1 model, 90 pts): 410 points left." in out
    assert "Added Line Squad (10 models, 185 pts): 225 points left." in out
    assert "BA130" in out  # the findings as it goes: no Warlord until one is chosen
    assert f"Wrote {path}." in out and "275 / 500 pts" in out and "valid Boarding Patrol" in out
    assert CliRunner().invoke(app, ["validate", str(path)]).exit_code == 0


def test_numbers_pick_from_the_lists(env, tmp_path: Path) -> None:
    path = tmp_path / "n.yaml"
    factions = CliRunner().invoke(app, ["build", str(path)], input="").output
    number = re.search(r"^\s+(\d+)\s+Test Legion$", factions, re.M)
    assert number is not None
    result = build(path, [number.group(1), "2", "", "1", "", ""])  # Small Detachment, unit #1
    assert result.exit_code == 0, result.output
    roster = load_roster(path)
    assert roster.file.detachment == "Small Detachment"
    # no CHARACTER in the army: the Line Squad may be the Warlord; the Detachment allows one
    # size only, so 'models' is left out
    assert [(u.unit, u.models, u.warlord) for u in roster.file.units] == [
        ("Line Squad", None, True)]


def test_wrong_answers_are_asked_again(env, tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    result = build(path, [
        "Test Legoin", "Test Legion", "Test Strike", "",
        "Hero Prime", "Hero Prime",  # the second: an EPIC HERO only once
        "Line Sqaud", "99", "",
        "7", "1",  # Warlord: no line 7
    ])
    out = result.output
    assert "Not a choice: 'Test Legoin'" in out and "did you mean 'Test Legion'?" in out
    assert "Hero Prime cannot be added now: Hero Prime is an EPIC HERO" in out
    assert "Unknown unit 'Line Sqaud' for Test Legion; did you mean 'Line Squad'" in out
    assert "No line 99" in out and "Not a choice: '7'" in out
    assert result.exit_code == 0, out
    roster = load_roster(path)
    assert [(u.unit, u.warlord) for u in roster.file.units] == [("Hero Prime", True)]


def test_trademark_weapon_offers_only_eligible_weapons(env, tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    result = build(path, ["Lord Commander", "", "", "y", "Trademark Weapon", "1", "1", "n"],
                   "--faction", "TL", "--detachment", "test strike", "--name", "Guns")
    assert result.exit_code == 0, result.output
    listed = result.output.split("Bearer (number or name):")[1].split("Weapon (number")[0]
    weapons = re.findall(r"\d+\s+(.+?)\s*$", listed, re.M)
    assert weapons == ["Storm bolter"]  # not the Torrent Flamer, not the melee Power sword
    unit = load_roster(path).file.units[0]
    assert (unit.enhancement, unit.weapon) == ("Trademark Weapon", "Storm bolter")


def test_continuing_a_file_keeps_its_comments(env, tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text(EXISTING)
    result = build(path, ["Cherub", "", "", "n"])
    assert result.exit_code == 0, result.output
    assert "Continuing" in result.output
    assert path.read_text() == EXISTING.replace("# more later", "  - unit: Cherub\n# more later")


def test_input_ending_early_writes_nothing(env, tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    result = build(path, ["Test Legion", "Test Strike", "", "Lord Commander"])
    assert result.exit_code == 2 and "input ended" in result.output
    assert not path.exists()
    old = tmp_path / "old.yaml"
    old.write_text(EXISTING)
    result = build(old, ["Cherub"])
    assert result.exit_code == 2 and old.read_text() == EXISTING


def test_bad_options_exit_2(env, tmp_path: Path) -> None:
    result = build(tmp_path / "x.yaml", [], "--faction", "Nope")
    assert result.exit_code == 2 and "unknown faction 'Nope'" in result.output
    result = build(tmp_path / "nowhere" / "x.yaml", [])
    assert result.exit_code == 2 and "does not exist" in result.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("faction: Nope\ndetachment: x\nunits: []\n")
    result = build(broken, [])
    assert result.exit_code == 2 and "unknown faction or detachment" in result.output


def test_a_real_pipe(env, tmp_path: Path) -> None:
    """Plain stdin of a separate process, as a shell script would drive it."""
    path = tmp_path / "pipe.yaml"
    answers = "Test Legion\nTest Strike\nStdin Force\nLord Commander\nLine Squad\n10\n\n\n" \
              "y\nIron Will\n1\nn\n"
    done = subprocess.run([sys.executable, "-m", "bagm", "build", str(path)], input=answers,
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(REPO), **env))
    assert done.returncode == 0, done.stderr
    assert path.read_text() == BUILT


def test_every_alias_is_accepted(env, tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    result = build(path, ["TL", "Strike of Tests", "", "Lord Commander", "Liners", "5", "",
                          "", "y", "Will of Iron", "1", "n"])
    assert result.exit_code == 0, result.output
    roster = load_roster(path).file
    assert (roster.faction, roster.detachment) == ("Test Legion", "Test Strike")
    assert [(u.unit, u.enhancement) for u in roster.units] == [
        ("Lord Commander", "Iron Will"), ("Line Squad", None)]


def test_line_numbers_stay_as_the_list_shrinks(env, tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    result = build(path, ["Test Legion", "Test Strike", "", "1", "", "", "n"])
    assert result.exit_code == 0, result.output
    tables = [t.split("Add a unit")[0] for t in result.output.split("Still fits")[1:3]]
    first = dict(re.findall(r"^│\s*(\d+) │ (.+?)\s+│", tables[0], re.M))
    second = dict(re.findall(r"^│\s*(\d+) │ (.+?)\s+│", tables[1], re.M))
    assert first["1"] == "Lord Commander", repr(first["1"])
    assert "1" not in second  # the Detachment allows one Lord Commander
    # every line kept its number (a unit the Lord Commander makes possible gets its own)
    assert all(first[n] == name for n, name in second.items() if n in first)
    assert second["2"] == first["2"] == "Hero Prime"


def test_continuing_shows_the_units_and_can_remove_one(env, tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text(EXISTING)
    before = load_roster(path).file.units
    result = build(path, ["-9", f"-{len(before)}", "", "", "n"])
    assert result.exit_code in (0, 1), result.output
    out = result.output
    assert "Continuing" in out and before[0].unit in out.split("Still fits")[0]
    assert "No unit #9" in out and f"Removed #{len(before)}" in out
    after = load_roster(path).file.units
    assert [u.unit for u in after] == [u.unit for u in before[:-1]]
