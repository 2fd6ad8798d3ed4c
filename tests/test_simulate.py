"""`bagm simulate`: progress on standard error, Ctrl-C, --jobs, the report (--html) and its JSON
(golden: BAGM_REGEN_GOLDEN=1 pytest tests/test_simulate.py after a deliberate change)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.engine.log.record import replay
from bagm.render.sim_report import Report, game_facts

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
GOLDEN = Path(__file__).parent / "golden"
runner = CliRunner()
TIMING = ("seconds", "games_per_second", "jobs")


def _bagm(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bagm", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=kw.pop("cwd", REPO), **kw)


def test_jobs_are_capped_by_the_games_and_the_cores():
    r = runner.invoke(app, ["simulate", GK, ORKS, "--games", "1", "--jobs", "64", "--format", "json",
                            "--bot", "random"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["jobs"] == 1
    r = runner.invoke(app, ["simulate", GK, ORKS, "--games", "3", "--jobs", "64", "--format", "json",
                            "--bot", "random"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert json.loads(r.stdout)["jobs"] == min(3, cores)


def test_progress_goes_to_standard_error_and_the_result_to_standard_output():
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"}
    p = _bagm("simulate", GK, ORKS, "--games", "6", "--jobs", "1", "--format", "json", "--bot", "random", env=env)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert json.loads(out)["games"] == 6  # nothing but the JSON on standard output
    assert "simulating" in err and "games/s" in err and "left" in err


def _left_in_group(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` still running (zombies aside), read from /proc."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(d))
    return out


def _default_sigint() -> None:
    # a terminal's Ctrl-C is handled as usual even when the test run itself ignores SIGINT (a
    # background job does): Python keeps an inherited SIG_IGN and the game would never stop
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_cleanly_and_reports_the_games_played():
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"}  # the progress bar is drawn
    p = _bagm("simulate", GK, ORKS, "--games", "100000", "--jobs", "2", "--format", "json", "--bot", "random",
              start_new_session=True, env=env, preexec_fn=_default_sigint)
    err = bytearray()
    reader = threading.Thread(target=lambda: _drain(p.stderr.fileno(), err), daemon=True)
    reader.start()
    # Ctrl-C once the first game has finished (the bar's count), however slow the machine is
    deadline = time.monotonic() + 600
    while not re.search(rb"\b[1-9]\d*/100000\b", bytes(err)):
        assert p.poll() is None and time.monotonic() < deadline, bytes(err).decode(errors="replace")
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C does: to the whole process group
    out = p.stdout.read()
    p.wait(timeout=120)
    reader.join(timeout=60)
    text = bytes(err).decode(errors="replace")
    assert p.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert "interrupted after" in text
    sim = json.loads(out)
    assert sim["interrupted"] is True and 0 < sim["games"] < 100000 and sim["asked"] == 100000
    assert sum(v["count"] for v in sim["results"].values()) == sim["games"]
    if Path("/proc/self/stat").exists():  # neither the parent nor a worker is left running
        left = _left_in_group(p.pid)
        for _ in range(50):
            if not left:
                break
            time.sleep(0.2)
            left = _left_in_group(p.pid)
        assert not left, f"processes left running after Ctrl-C: {left}"


def _drain(fd: int, into: bytearray) -> None:
    """Read a pipe to its end (so the writer never blocks on a full pipe)."""
    while chunk := os.read(fd, 65536):
        into += chunk


def test_the_report_json_is_golden(tmp_path):
    r = runner.invoke(app, ["simulate", GK, ORKS, "--games", "3", "--jobs", "1", "--seed", "5", "--format", "json",
                            "--html", str(tmp_path / "report.html")])
    assert r.exit_code == 0, r.output
    got = {k: v for k, v in json.loads(r.stdout).items() if k not in TIMING}
    got = json.loads(json.dumps(got).replace(str(REPO) + os.sep, ""))
    path = GOLDEN / "simulate_gk_orks_seed5_3games.json"
    if os.environ.get("BAGM_REGEN_GOLDEN"):
        path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    assert got == json.loads(path.read_text())


def test_the_report_and_its_sample_games(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["simulate", GK, ORKS, "--games", "6", "--jobs", "1", "--bot", "random",
                            "--format", "json", "--html", "report.html"])
    assert r.exit_code == 0, r.output
    sim = json.loads(r.stdout)
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "https://" not in page
    assert page.count("<svg") >= 3  # win rates, VP histogram, VP by round
    assert sim["samples"] and len(sim["samples"]) <= 4
    for s in sim["samples"]:
        assert f'href="{s["page"]}"' in page and f'href="{s["log"]}"' in page
        lines = (tmp_path / s["log"]).read_text().splitlines()
        rec = replay(lines)  # the kept log replays exactly ...
        assert (rec.winner, rec.vp) == (s["winner"], s["vp"])  # ... and is the game counted
        assert (tmp_path / s["page"]).read_text().startswith("<!DOCTYPE html>")
    # the figures add up
    assert sum(u["destroyed"] for u in sim["units"]) >= 0
    assert sum(sim["vp_histogram"]["counts"]["A"]) == 6
    means = sim["vp_by_round_mean"]
    assert sum(means["A"]) == pytest.approx(sim["mean_vp"]["A"] - _battle_ready_mean(sim, "A"))


def _battle_ready_mean(sim: dict, p: str) -> float:
    """VP scored after the last battle round (none are, in mission 11, but for Battle Ready)."""
    return sum(r["mean"][p] for r in sim["vp_reasons"] if r["rule"] == "Battle Ready")


def test_a_result_is_printed_before_a_write_that_fails(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who may write anywhere (root)")
        r = runner.invoke(app, ["play", "--mission", "11", GK, ORKS, "--seed", "1", "--log",
                                str(locked / "game.jsonl")])
        assert r.exit_code == 2 and ("Winner" in r.stdout or "draw" in r.stdout)
        assert f"{locked / 'game.jsonl'}: cannot write the log" in r.stderr and ".tmp" not in r.stderr
        r = runner.invoke(app, ["simulate", GK, ORKS, "--games", "2", "--jobs", "1", "--bot", "random",
                                "--html", str(locked / "report.html")])
        assert r.exit_code == 2 and "A wins" in r.stdout
        assert f"{locked / 'report.html'}: cannot write the report" in r.stderr and ".tmp" not in r.stderr
    finally:
        locked.chmod(0o700)


def test_a_failing_write_names_the_users_path_not_a_temporary_file(tmp_path):
    # a folder in the way of the log file: the write fails whoever runs the test
    target = tmp_path / "game.jsonl"
    target.mkdir()
    (target / "x").write_text("x")
    r = runner.invoke(app, ["play", "--mission", "11", GK, ORKS, "--seed", "1", "--log", str(target)])
    assert r.exit_code == 2
    assert "Winner" in r.stdout or "draw" in r.stdout  # the result came first
    assert f"{target}: cannot write the log" in r.stderr and ".tmp" not in r.stderr and "bagm-" not in r.stderr
    # the report's sample folder cannot be made (a file has its name): figures first, then the error
    (tmp_path / "r_games").write_text("x")
    r = runner.invoke(app, ["simulate", GK, ORKS, "--games", "2", "--jobs", "1", "--bot", "random",
                            "--html", str(tmp_path / "r.html")])
    assert r.exit_code == 2 and "A wins" in r.stdout
    assert f"{tmp_path / 'r.html'}: cannot write the report" in r.stderr and ".tmp" not in r.stderr


def test_game_facts_and_the_report_sums():
    events = [json.loads(x) for x in (GOLDEN / "greedy_seed7.jsonl").read_text().splitlines()]
    f = game_facts(events)
    end = events[-1]
    for p in "AB":
        scored = sum(e["vp"] for e in events if e["e"] == "vp" and e["player"] == p)
        assert sum(f["vp_rounds"][p]) + _after_last_round(events, p) == scored == end["vp"][p]
    assert sorted(f["destroyed"]) == sorted(e["unit"] for e in events if e["e"] == "destroyed")
    assert sum(f["kills"].values()) == sum(e["destroyed"] for e in events if e["e"] == "attack")
    rep = Report({"results": {}}, [(end["vp"]["A"], end["vp"]["B"])] * 2, [f, f])
    units = {u["unit"]: u for u in rep.units()}
    for uid in f["destroyed"]:
        assert units[uid]["destroyed"] == 2 and units[uid]["destroyed_rate"] == 1.0
    assert rep.histogram()["counts"]["A"][end["vp"]["A"] // 5] == 2
    # the units each VP credits, and the unit that destroyed each enemy unit, as the log names them
    for uid in units:
        credited = sum(e["vp"] for e in events if e["e"] == "vp" and uid in e.get("units", []))
        assert units[uid]["vp_credited"] == f["scored"].get(uid, 0) == credited
        finished = sum(1 for e in events if e["e"] == "destroyed" and e.get("by") == uid)
        assert units[uid]["units_finished"] == finished
    assert sum(f["scored"].values()) > 0 and sum(f["finished"].values()) > 0


def _after_last_round(events: list[dict], p: str) -> int:
    return 0  # every VP event of mission 11 falls inside a battle round
