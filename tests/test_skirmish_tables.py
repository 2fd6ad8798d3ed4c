"""Skirmish Battles: the data of the text, its tables and their formulas, overlays, scenarios."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.chance.dice import Dice, DiceError
from bagm.cli.app import app
from bagm.io.yamlsafe import InputError
from bagm.skirmish.data import LostValue, bundled_raw, load_data
from bagm.skirmish.scenario import SCENARIOS, find, roll_scenario, scenario_for
from bagm.skirmish.tables import (
    NEVER,
    Damage,
    RulesError,
    damage_bonus,
    damage_result,
    damage_row,
    grenade_range,
    shots,
    to_hit_close_combat,
    to_hit_shooting,
    to_wound,
)

RAW = bundled_raw()


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


def test_to_wound_formula_reproduces_every_printed_cell() -> None:
    printed = RAW["to_wound"]["printed"]
    assert len(printed) == 10
    for s, row in printed.items():
        assert [to_wound(int(s), t) for t in range(1, 11)] == row, f"S {s}"


def test_close_combat_chart_formula_reproduces_every_printed_cell_and_fills_lost_rows() -> None:
    printed = RAW["to_hit_close_combat"]["printed"]
    assert sorted(int(k) for k in printed) == [1, 2, 4, 6, 7, 8, 9, 10]
    assert RAW["to_hit_close_combat"]["lost_rows"] == [3, 5]
    for ws, row in printed.items():
        assert [to_hit_close_combat(int(ws), d) for d in range(1, 11)] == row, f"WS {ws}"
    # the lost rows, from the formula: 3+ below, 4+ up to twice the WS, 5+ beyond
    assert [to_hit_close_combat(3, d) for d in range(1, 11)] == [3, 3, 4, 4, 4, 4, 5, 5, 5, 5]
    assert [to_hit_close_combat(5, d) for d in range(1, 11)] == [3, 3, 3, 3, 4, 4, 4, 4, 4, 4]


def test_to_hit_shooting_reproduces_the_printed_row() -> None:
    assert [to_hit_shooting(bs) for bs in range(1, 11)] == RAW["to_hit_shooting"]["printed"]
    with pytest.raises(RulesError):
        to_hit_shooting(0)


def test_to_wound_boundaries() -> None:
    assert to_wound(1, 4) == 6 and to_wound(1, 5) == NEVER  # T-S 3: 6+; 4: N
    assert to_wound(4, 4) == 4 and to_wound(6, 4) == 2 and to_wound(10, 1) == 2
    with pytest.raises(RulesError):
        to_wound(11, 4)


def test_damage_table_rows_and_results() -> None:
    rows = {int(k): v for k, v in RAW["damage"]["rows"].items()}
    assert damage_row(3, 4) == 0 and damage_row(2, 6) == 0  # 0 or less
    assert damage_row(10, 3) == 6 and damage_row(12, 4) == 6  # 6 or more
    assert damage_row(4, 4, full_strength=True) == 4  # sniper: Toughness not deducted
    row0 = rows[0]  # Pinned A, Stunned 4+, OOA 6+, Killed N
    assert [damage_result(row0, r) for r in range(1, 8)] == [
        Damage.PINNED] * 3 + [Damage.STUNNED] * 2 + [Damage.OUT_OF_ACTION] * 2
    row6 = rows[6]  # OOA A, Killed 3+
    assert damage_result(row6, 2) is Damage.OUT_OF_ACTION and damage_result(row6, 3) is Damage.KILLED
    assert damage_bonus(9, 4) == 1 and damage_bonus(8, 4) == 0  # more than twice T


def test_grenade_range_and_shots() -> None:
    table = {int(k): v for k, v in RAW["grenade_range"]["table"].items()}
    assert [grenade_range(s, table) for s in (1, 2, 3, 4, 5, 9)] == [4, 6, 8, 10, 12, 12]
    assert shots("pistol") == 2 and shots("pistol", moved=True) == 1
    assert shots("rapid_fire") == 2 and shots("rapid_fire", within_12=False) == 1
    assert shots("rapid_fire", moved=True) == 1
    assert shots("heavy", 3) == 3 and shots("assault", 2, moved=True) == 2
    assert shots("pistol", fast_shot=True) == 4
    for bad in (lambda: shots("heavy", 1, moved=True), lambda: shots("assault", 2, fast_shot=True),
                lambda: shots("rapid_fire", moved=True, within_12=False), lambda: shots("lance")):
        with pytest.raises(RulesError):
            bad()


def test_every_faction_has_its_printed_limits() -> None:
    f = RAW["factions"]
    assert {k: (v["models"]["min"], v["models"]["max"]) for k, v in f.items()} == {
        "space_marines": (3, 12), "imperial_guard": (4, 16), "orks": (4, 16), "tau": (3, 16),
        "necrons": (4, 12), "tyranids": (5, 16), "dark_eldar": (3, 14),
        "chaos_space_marines": (3, 12), "eldar": (3, 15)}
    # the text's own example: Hardened Veterans cost four more points a model
    assert f["imperial_guard"]["packs"]["hardened_veterans"]["upgrade_cost"] == 4


def test_lost_values_raise_and_an_overlay_supplies_them(tmp_path: Path) -> None:
    data = load_data()
    with pytest.raises(LostValue) as exc:
        data.get("points", "fought_in")
    assert "Fought in" in str(exc.value) and "points.fought_in" in exc.value.fix
    overlay = tmp_path / "o.skirmish-data.yaml"
    overlay.write_text("example: true\npoints:\n  fought_in: 5\n")
    data = load_data([overlay])
    assert data.get("points", "fought_in") == 5
    assert data.supplied[("points", "fought_in")].line == 3
    assert data.example_files == [str(overlay)]
    assert ("points", "fought_in") not in {x.path for x in data.lost()}


@pytest.mark.parametrize("text, message, line", [
    ("points:\n  winning_side: 30\n", "printed in the text", 2),
    ("points:\n  foughtin: 5\n", "did you mean 'fought_in'", 2),
    ("points:\n  fought_in: lots\n", "whole number", 2),
    ("factions:\n  orks:\n    leader:\n      nob:\n        profile: {WS: 4}\n", "exactly WS", 5),
])
def test_bad_overlays_are_refused_with_their_line(tmp_path: Path, text: str, message: str,
                                                  line: int) -> None:
    overlay = tmp_path / "bad.yaml"
    overlay.write_text(text)
    with pytest.raises(InputError) as exc:
        load_data([overlay])
    assert message in str(exc.value) and exc.value.line == line


def test_scenario_table_and_rolls() -> None:
    table = {int(k): v for k, v in RAW["scenario_table"].items() if str(k).isdigit()}
    assert scenario_for(2, table) == "choose" and scenario_for(12, table) == "stand_your_ground"
    assert set(table.values()) - {"choose"} == set(SCENARIOS)
    roll = roll_scenario(Dice.scripted([3, 4]), table)
    assert roll.total == 7 and roll.key == "chance_encounter"
    roll = roll_scenario(Dice.scripted([1, 2, 6, 6]), table, farsight_reroll=True)
    assert roll.rolls == ((1, 2), (6, 6)) and roll.key == "stand_your_ground"  # second stands
    with pytest.raises(DiceError):
        roll_scenario(Dice.scripted([3]), table)
    assert find("Pig in the middle").key == "pig_in_the_middle"
    assert "Escape" in find("breakthrough").bonus[0]


def test_scenario_command() -> None:
    result = run("skirmish", "scenario", "--rolls", "4,4", "-f", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["total"] == 8 and out["scenario"]["name"] == "Hunt"
    assert run("skirmish", "scenario", "--reroll").exit_code == 2
    assert run("skirmish", "scenario", "--rolls", "4").exit_code == 2
    assert run("skirmish", "scenario", "--rolls", "4,4,4").exit_code == 2
    result = run("skirmish", "scenario", "recon")
    assert result.exit_code == 0 and "Recon" in result.output
    assert run("skirmish", "scenario", "parade").exit_code == 2
    result = run("skirmish", "scenario", "--seed", "5", "--eldar", "--reroll", "-f", "json")
    assert result.exit_code == 0 and len(json.loads(result.output)["rolls"]) == 2


def test_lost_command_lists_every_lost_value() -> None:
    result = run("skirmish", "lost", "-f", "json")
    assert result.exit_code == 0
    keys = {x["key"] for x in json.loads(result.output)}
    assert "points.fought_in" in keys and "leader_advancement" in keys
    assert "factions.tau.skills.shas_ui" in keys


def test_boarding_actions_validate_skips_skirmish_files(tmp_path: Path) -> None:
    folder = tmp_path / "rosters"
    (folder / "skirmish").mkdir(parents=True)
    (folder / "skirmish" / "a.skirmish.yaml").write_text("faction: Orks\n")
    result = run("validate", str(folder))
    assert result.exit_code == 2 and "no .yaml rosters" in result.output
    result = run("validate", str(folder / "skirmish" / "a.skirmish.yaml"))
    assert result.exit_code == 2 and "bagm skirmish validate" in result.output


def test_fraction_sanity() -> None:  # the damage table's single roll sums to one
    from bagm.skirmish.odds import Attack, Target, single_damage

    assert sum(single_damage(Attack(1, 4, bs=4), Target(4)).values()) == Fraction(1)


def test_skirmish_imports_no_boarding_actions_rules() -> None:
    import subprocess
    import sys

    code = ("import sys, bagm.skirmish.odds, bagm.skirmish.scenario, bagm.skirmish.data, "
            "bagm.skirmish.render, bagm.cli.skirmish, bagm.render.formats\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['bagm', 'engine'], ['bagm', 'roster'], ['bagm', 'data']))\n"
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_attacker_or_defender_and_the_dark_eldar_pirates() -> None:
    from bagm.skirmish.scenario import roll_sides

    assert roll_sides(Dice.scripted([2, 2, 5, 1])) == [(2, 2), (5, 1)]  # equal rolls again
    result = run("skirmish", "scenario", "--rolls", "3,4,1,6", "--sides", "-f", "json")
    out = json.loads(result.output)
    assert result.exit_code == 0 and out["sides"] == [[1, 6]] and out["attacker_chooses"] == "B"
    result = run("skirmish", "scenario", "--rolls", "3,4", "--sides", "--dark-eldar")
    assert result.exit_code == 0 and "Pirates" in result.output  # no roll for the sides
    assert run("skirmish", "scenario", "hunt", "--sides").exit_code == 2
