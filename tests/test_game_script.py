"""Game scripts, the play/replay/simulate commands, and golden playthroughs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.engine.log.record import replay, sha256_lines
from bagm.engine.log.script import ScriptError, load_script, run_script

EXAMPLE = REPO / "games" / "example_mission11.yaml"
GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
GOLDEN = Path(__file__).parent / "golden"
runner = CliRunner()


def script(tmp_path: Path, steps: list[str], **top) -> Path:
    lines = ["mission: 11", f"seed: {top.get('seed', 1)}", "rosters:", f"  A: {GK}", f"  B: {ORKS}",
             "rolloffs: {attacker: A, first_turn: A}", "steps:"]
    lines += [f"  - \"{s}\"" for s in steps]
    p = tmp_path / "game.yaml"
    p.write_text("\n".join(lines) + "\n")
    return p


DEPLOY = ["A: role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B2 1", "deploy A5 1"]


def test_example_script_plays_to_the_end():
    rec = run_script(load_script(EXAMPLE))
    assert rec.rounds == 5 and set(rec.vp) == {"A", "B"}
    actions = [json.loads(x)["action"] for x in rec.lines if '"e":"action"' in x]
    assert actions[:9] == ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2",
                           "deploy B4 3", "deploy A4 3", "deploy B2 1", "deploy A5 1"]
    assert "hatch A5 2" in actions and "deploy A5 1" in actions


def test_illegal_step_names_step_line_unit_and_rule(tmp_path):
    p = script(tmp_path, DEPLOY + ["advance A3 12,15", "manoeuvre A3 defend"])
    with pytest.raises(ScriptError) as e:
        run_script(load_script(p))
    err = e.value
    assert err.step == 11 and err.line == 18 and err.unit == "A3" and err.rule == "Tactical Manoeuvres"
    assert "Advanced" in str(err)


def test_battlefield_command_steps(tmp_path):
    # an illegal Battlefield Command step stops the game naming the rule
    p = script(tmp_path, DEPLOY + ["move A3 12,15", "command A1 A3 Zealous Path"])
    with pytest.raises(ScriptError) as e:
        run_script(load_script(p))
    assert e.value.step == 11 and e.value.rule == "Battlefield Command Stratagem"
    assert "could not normally be attached to A3" in str(e.value)  # it leads Terminators, Paladins
    # a legal one is played at the first window it fits (the Orks' Warboss leads the Nobz)
    p = script(tmp_path, DEPLOY + ["command B1 B3 Might is Right"])
    rec = run_script(load_script(p))
    uses = [json.loads(x) for x in rec.lines if '"e":"battlefield_command"' in x]
    assert uses[0]["leader"] == "B1" and uses[0]["unit"] == "B3" and uses[0]["ability"] == "Might is Right"


def test_illegal_step_exit_code_2(tmp_path):
    p = script(tmp_path, DEPLOY + ["deploy A2 1"])
    r = runner.invoke(app, ["play", str(p)])
    assert r.exit_code == 2
    assert "step 10" in r.stderr and "A2" in r.stderr


def test_script_errors_for_bad_files(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("mission: 11\nrosters: {A: a.yaml}\n")
    with pytest.raises(ScriptError, match="rosters needs A and B"):
        load_script(bad)
    bad.write_text(f"rosters: {{A: {GK}, B: {ORKS}}}\nsteps:\n  - fly A1 home\n")
    with pytest.raises(ScriptError) as e:
        load_script(bad)
    assert e.value.line == 3 and "unknown action" in str(e.value)
    bad.write_text(f"rosters: {{A: {GK}, B: {ORKS}}}\nsteps:\n  - done\n")
    with pytest.raises(ScriptError, match="needs its player"):
        load_script(bad)
    bad.write_text(f"rosters: {{A: {GK}, B: {ORKS}}}\nspeed: 3\n")
    with pytest.raises(ScriptError, match="unknown key"):
        load_script(bad)


def test_steps_never_reached_are_an_error(tmp_path):
    p = script(tmp_path, DEPLOY + ["deploy B5 1"])
    with pytest.raises(ScriptError, match="never played"):
        run_script(load_script(p))


def test_play_json_and_log_and_replay(tmp_path):
    log = tmp_path / "g.jsonl"
    r = runner.invoke(app, ["play", "--mission", "11", GK, ORKS, "--seed", "4", "--bot", "random",
                            "--format", "json", "--log", str(log)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["winner"] in ("A", "B", None) and set(out["vp"]) == {"A", "B"} and out["rounds"] == 5
    lines = log.read_text().splitlines()
    assert out["log_sha256"] == sha256_lines(lines)
    r = runner.invoke(app, ["replay", str(log)])
    assert r.exit_code == 0 and "reproduced exactly" in r.stdout
    # a tampered log does not reproduce
    tampered = [x.replace('"vp":5,', '"vp":6,', 1) if '"e":"vp"' in x else x for x in lines]
    if tampered != lines:
        log.write_text("\n".join(tampered) + "\n")
        r = runner.invoke(app, ["replay", str(log)])
        assert r.exit_code == 1


def test_play_bad_input_exit_2(tmp_path):
    assert runner.invoke(app, ["play", GK, ORKS]).exit_code == 2  # no --mission
    assert runner.invoke(app, ["play", "--mission", "99", GK, ORKS]).exit_code == 2  # no such mission
    assert runner.invoke(app, ["play", "--mission", "11", GK, ORKS, "--bot", "clever"]).exit_code == 2
    assert runner.invoke(app, ["play", str(tmp_path / "missing.yaml")]).exit_code == 2
    r = runner.invoke(app, ["replay", str(tmp_path / "missing.jsonl")])
    assert r.exit_code == 2


def test_simulate_json():
    r = runner.invoke(app, ["simulate", GK, ORKS, "--games", "3", "--jobs", "1", "--bot", "random",
                            "--format", "json"])
    assert r.exit_code == 0, r.output
    sim = json.loads(r.stdout)
    assert sim["games"] == 3
    assert sum(v["count"] for v in sim["results"].values()) == 3
    assert sum(sim["histogram"]["A"]) == 3
    lo, hi = sim["results"]["A"]["ci"]
    assert 0 <= lo <= sim["results"]["A"]["rate"] <= hi <= 1


def test_wilson_interval():
    from bagm.render.game_render import wilson

    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 0.0)


# --- golden playthroughs ------------------------------------------------------------------------
# Full event logs of scripted games, stored under tests/golden/ and diffed line by line. After a
# deliberate change of the rules engine or the bots: BAGM_REGEN_GOLDEN=1 pytest, then review the diff.

GOLDEN_GAMES = {
    "example_mission11": lambda: run_script(load_script(EXAMPLE)),
    "greedy_seed7": lambda: __import__("bagm.engine.log.record", fromlist=["x"]).play_bots(11, GK, ORKS, 7),
    # one greedy playthrough per mission beyond 11 (its objectives scored in the log)
    **{f"mission{m:02d}_greedy": (lambda m=m: __import__("bagm.engine.log.record", fromlist=["x"]).play_bots(
        m, GK, ORKS, 5)) for m in (12, 13, 21, 31, 3, 2, 1, 32, 22, 6, 33, 23, 4, 5)},
}


def _portable(lines: list[str]) -> list[str]:
    """Roster paths in the header differ between checkouts: store them relative to the repo."""
    out = []
    for x in lines:
        out.append(x.replace(str(REPO) + os.sep, "").replace(str(REPO) + "/", ""))
    return out


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_playthrough(name):
    rec = GOLDEN_GAMES[name]()
    lines = _portable(rec.lines)
    path = GOLDEN / f"{name}.jsonl"
    if os.environ.get("BAGM_REGEN_GOLDEN"):  # after a deliberate change of the engine or bots
        path.parent.mkdir(exist_ok=True)
        path.write_text("\n".join(lines) + "\n")
    if not path.exists():
        pytest.fail(f"{path} is missing: run the tests once with BAGM_REGEN_GOLDEN=1 and review it")
    stored = path.read_text().splitlines()
    for i, (a, b) in enumerate(zip(lines, stored)):
        assert a == b, f"{path.name} line {i + 1} differs"
    assert len(lines) == len(stored)


def test_golden_logs_replay():
    stored = (GOLDEN / "greedy_seed7.jsonl").read_text().splitlines()
    here = [x.replace('"rosters/', f'"{REPO}/rosters/') for x in stored]
    assert replay(here).lines == here


def test_cli_import_does_not_load_the_engine():
    import subprocess
    import sys

    code = "import sys, bagm.cli.app; print(any(m.startswith('bagm.engine') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_step_whose_phase_never_came_is_an_error(tmp_path):
    # A3 cannot charge in round 1 (nothing within 12"): the script must not play it later
    p = script(tmp_path, DEPLOY + ["move A3 8,15", "charge A3 B3"])
    with pytest.raises(ScriptError) as e:
        run_script(load_script(p))
    assert e.value.step == 11 and "turn it belongs to" in str(e.value)


def test_a_log_replays_from_any_folder_from_the_rosters_it_holds(tmp_path, monkeypatch):
    # the golden log names its rosters relative to the repository; from elsewhere those paths
    # lead nowhere, and the log's own copies of the rosters (checked by their sha256) serve
    monkeypatch.chdir(tmp_path)
    log = GOLDEN / "example_mission11.jsonl"
    head = json.loads(log.read_text().splitlines()[0])
    assert not Path(head["rosters"]["A"]).exists()
    r = runner.invoke(app, ["replay", str(log), "-f", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["reproduced"] is True
    # an edited roster text is caught: the replay differs (exit 1) and says why
    lines = log.read_text().splitlines()
    first = json.loads(lines[0])
    first["roster_text"]["A"] = first["roster_text"]["A"].replace("warlord: true", "warlord: false")
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([json.dumps(first)] + lines[1:]) + "\n")
    r = runner.invoke(app, ["replay", str(edited)])
    assert r.exit_code == 1 and "does not match its sha256" in r.stderr
