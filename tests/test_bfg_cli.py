"""``bagm bfg``: every command in text and JSON, exit codes, errors without tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.cli.app import app

PLAGUECLAW = "Plagueclaw,damage=6,race=chaos,mark=nurgle"
HYPERION = "Hyperion,damage=3,turrets=2"


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, ["bfg", *args])


def test_board_text_and_json():
    r = run("board", "-a", PLAGUECLAW, "-d", HYPERION)
    assert r.exit_code == 0, r.output
    assert "Heavy Fighting" in r.output and "Winners/Losers" in r.output
    r = run("board", "-a", PLAGUECLAW, "-d", HYPERION, "--format", "json")
    data = json.loads(r.output)
    assert data["mode"] == "together" and data["action"]["attacker"]["total_modifier"] == 2
    heavy = next(o for o in data["action"]["outcomes"]
                 if o["winner"] == "attacker" and o["result"] == "Heavy Fighting")
    assert heavy["exact"] == "1/6"
    assert data["grapple_if_drawn"]["attacker"] == "Plagueclaw"
    assert any("Winners/Losers" in n for n in data["notes"])
    again = run("board", "-a", PLAGUECLAW, "-d", HYPERION, "--format", "json")
    assert again.output == r.output  # byte for byte


def test_board_several_ships_separately():
    r = run("board", "-a", "Murder,damage=8,chaos", "-a", "Iconoclast,damage=1,escort,squadron=S",
            "-a", "Idolator,damage=1,escort,squadron=S", "-d", "Lunar,damage=8,turrets=2",
            "--separately", "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["mode"] == "separately" and len(data["actions"]) == 2
    assert data["actions"][1]["attacker"]["ships"] == ["Iconoclast", "Idolator"]
    grapple = data["grapple_if_drawn"]
    assert grapple["parties"] == [["Murder"], ["Iconoclast", "Idolator"]]
    assert sum(s["chance"] for s in grapple["starts"]) == pytest.approx(1)
    assert data["grapple_follows"]["chance"] > 0


def test_bad_input_exit_2_with_a_message():
    r = run("board", "-a", "X,damage=many", "-d", HYPERION)
    assert r.exit_code == 2 and "damage=many is not a whole number" in r.output
    r = run("board", "-a", PLAGUECLAW, "-d", "Y,damage=4,race=chaos,nurgle")
    assert r.exit_code == 2 and "cannot be boarded" in r.output
    r = run("board", "-a", "Z,colour=red,damage=2", "-d", HYPERION)
    assert r.exit_code == 2 and "unknown key 'colour'" in r.output
    assert "Traceback" not in r.output


def test_user_text_is_not_markup():
    r = run("board", "-a", "[red]Boss[/red],damage=4", "-d", HYPERION)
    assert r.exit_code == 0 and "[red]Boss[/red]" in r.output


def test_grapple():
    r = run("grapple", "-a", "A,damage=1", "-d", "B,damage=1", "-f", "json")
    data = json.loads(r.output)
    assert data["attacker_survives"]["exact"] == "1/2"
    assert data["expected_end_phases_exact"] == "6/5"


def test_grapple_of_a_party_with_a_policy():
    args = ["grapple", "-a", "A,damage=1,crew=space-marines", "-a", "B,damage=1",
            "-d", "D,damage=2"]
    data = json.loads(run(*args, "-f", "json").output)
    assert data["policy"] == "best" and data["attacker_survives"]["exact"] == "7447/8704"
    assert [s["ship"] for s in data["attackers"]] == ["A", "B"]
    assert any("policy 'best'" in n for n in data["notes"])
    spread = json.loads(run(*args, "--policy", "spread", "-f", "json").output)
    assert spread["attacker_survives"]["chance"] < data["attacker_survives"]["chance"]
    r = run(*args)
    assert r.exit_code == 0 and "Each boarding ship" in r.output and "policy 'best'" in r.output
    r = run(*args, "--roll", "--seed", "3")
    assert r.exit_code == 0 and "the grapple ends after" in r.output
    r = run(*args, "--policy", "random")
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_hit_and_run_with_a_table(tmp_path: Path):
    table = tmp_path / "crits.yaml"
    table.write_text("critical_hits:\n  2: Dorsal [bold]thing[/bold]\n", encoding="utf-8")
    r = run("hit-and-run", "--attacks", "2", "--bonus", "--table", str(table))
    assert r.exit_code == 0, r.output
    assert "Dorsal [bold]thing[/bold]" in r.output and "7" in r.output
    data = json.loads(run("hit-and-run", "--table", str(table), "-f", "json").output)
    scores = {s["score"]: s["effect"] for s in data["critical_hits_score"]}
    assert scores[2] == "Dorsal [bold]thing[/bold]" and scores[3] is None
    data = json.loads(run("hit-and-run", "-t", "escort", "--dice", "2d6", "--tyranids",
                          "-f", "json").output)
    assert data["escort_destroyed"]["exact"] == "121/144"  # (33/36) squared
    table.write_text("critical_hits:\n  two: x\n", encoding="utf-8")
    r = run("hit-and-run", "--table", str(table))
    assert r.exit_code == 2 and "crits.yaml:2" in r.output


def test_teleport_exit_1_when_not_allowed():
    r = run("teleport", "-a", "Ret,damage=12,orders=lock-on", "-t", "Carnage,damage=8,shields=0",
            "--range", "8")
    assert r.exit_code == 0 and "may be made" in r.output
    r = run("teleport", "-a", "Ret,damage=12,orders=burn-retros", "-t",
            "Carnage,damage=8,shields=0", "--range", "12", "-f", "json")
    assert r.exit_code == 1
    data = json.loads(r.output)
    assert not data["eligible"] and data["odds"] is None
    assert {c["rule"] for c in data["checks"] if not c["met"]} == {"within 10 cm", "special orders"}
    r = run("teleport", "-a", "Ret,damage=12", "-t", "Carnage,damage=8", "--range", "8")
    assert r.exit_code == 2 and "shields=N" in r.output


def test_repair_and_blast_markers():
    data = json.loads(run("repair", "--damage", "3", "--blast", "--needing", "1",
                          "-f", "json").output)
    assert data["dice"] == 2 and data["all_repaired"]["exact"] == "11/36"
    r = run("repair", "--damage", "8")
    assert r.exit_code == 0 and "8 D6" in r.output
    data = json.loads(run("blast-markers", "--markers", "4", "--in-contact", "1",
                          "-f", "json").output)
    assert [d["value"] for d in data["removed"]] == [1, 2, 3]
    r = run("blast-markers", "--markers", "1", "--in-contact", "2")
    assert r.exit_code == 2


def test_roll_at_the_table_is_seeded_and_says_every_roll():
    args = ("board", "-a", PLAGUECLAW, "-d", HYPERION, "--roll", "--seed", "11", "-f", "json")
    first, again = run(*args), run(*args)
    assert first.exit_code == 0 and first.output == again.output
    data = json.loads(first.output)
    a, d = data["rolls"][0], data["rolls"][1]
    assert (a["reason"], d["reason"]) == ("boarding: attacker", "boarding: defender")
    # the first line gives both scores from those two dice and the modifiers (+2 against +0)
    assert data["result"][0].startswith(f"Plagueclaw scores {a['value']} +2 = {a['value'] + 2}; "
                                        f"Hyperion scores {d['value']}")
    for cmd in (["grapple", "-a", "A,damage=2", "-d", "B,damage=2"],
                ["hit-and-run", "-t", "escort", "--attacks", "3"],
                ["repair", "--damage", "4"], ["blast-markers", "--markers", "3"]):
        r = run(*cmd, "--roll", "--seed", "5")
        assert r.exit_code == 0 and "Rolled with seed 5" in r.output, cmd


def test_fleet_file_names_ships_and_says_where_it_is_wrong(tmp_path: Path):
    fleet = tmp_path / "fleet.yaml"
    fleet.write_text("# turn 3\nships:\n  Plagueclaw: {damage: 6, race: chaos, mark: nurgle}\n"
                     "  Hyperion:\n    damage: 3\n    turrets: 2\n    crippled: no\n",
                     encoding="utf-8")
    by_name = run("board", "--fleet", str(fleet), "-a", "Plagueclaw", "-d", "Hyperion",
                  "-f", "json")
    spelt = run("board", "-a", PLAGUECLAW, "-d", HYPERION, "-f", "json")
    assert by_name.exit_code == 0 and by_name.output == spelt.output
    changed = json.loads(run("board", "--fleet", str(fleet), "-a", "Plagueclaw", "-d",
                             "Hyperion,damage=1", "-f", "json").output)
    assert changed["action"]["defender"]["boarding_value"] == 3  # 1 damage point + 2 turrets
    r = run("board", "--fleet", str(fleet), "-a", "Plagueclaw", "-d", "Plagueclaw")
    assert r.exit_code == 2 and "Mark of Nurgle" in r.output
    for text, line, what in [
        ("ships:\n  A:\n    damage: lots\n", 2, "damage=lots is not a whole number"),
        ("ships:\n  A:\n    damage: 2\n    colour: red\n", 4, "unknown key 'colour'"),
        ("ships:\n  A: 3\n", 2, "as a mapping"),
        ("fleet: []\n", 1, "no 'ships'"),
    ]:
        fleet.write_text(text, encoding="utf-8")
        r = run("grapple", "--fleet", str(fleet), "-a", "A", "-d", "A")
        assert r.exit_code == 2 and f"fleet.yaml:{line}" in r.output and what in r.output, text


def test_hit_and_run_brace_for_impact():
    r = run("hit-and-run", "--target", "escort", "--brace", "4", "-f", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["escort_destroyed"]["exact"] == "1/4"
    r = run("hit-and-run", "--brace", "4")
    assert r.exit_code == 2 and "escorts only" in r.output
    r = run("hit-and-run", "--target", "escort", "--brace", "4", "--attacks", "2", "--roll",
            "--seed", "1")
    assert r.exit_code == 0 and "attack 1" in r.output
