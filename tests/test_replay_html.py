"""The board step by step from the event log, the replay page and the per-phase SVGs
(`bagm replay LOG --html FILE --svg DIR`), without a browser (tests/browser opens the page)."""

from __future__ import annotations

import json
import xml.dom.minidom
from pathlib import Path

import pytest
from conftest import REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.render.narration import events_from_lines, mission_map, narrate
from bagm.render.replay import Tracker, frames
from bagm.render.replay_html import html, phase_svgs

GOLDEN = Path(__file__).parent / "golden"
LOG = GOLDEN / "example_mission11.jsonl"
runner = CliRunner()


def _events(name: str = "example_mission11") -> list[dict]:
    return events_from_lines((GOLDEN / f"{name}.jsonl").read_text().splitlines())


FRAMED = ["example_mission11", "greedy_seed7", "mission01_greedy", "mission05_greedy"]


@pytest.mark.parametrize("name", FRAMED)
def test_each_frame_holds_the_logged_positions_less_the_logged_casualties(name):
    events = _events(name)
    st = narrate(events)
    fr = frames(events, st, mission_map(events).layout)
    assert len(fr) == len(st)
    removing = {"attack": "target", "hazardous": "unit", "coherency": "unit", "desperate_escape": "unit"}
    here: dict[str, list] = {}  # each unit's models, followed independently of the Tracker
    fell: dict[str, list] = {}
    k = 0
    for s, f in zip(st, fr):
        for e in events[k:s.last]:
            if e["e"] in ("setup", "move", "charge_move", "pile_in", "consolidate", "change_level") and e.get("at"):
                here[e["unit"]] = e["at"]
            elif e["e"] in removing and e["removed_models"]:
                uid = e[removing[e["e"]]]
                fell.setdefault(uid, []).extend(p for i, p in enumerate(here[uid]) if i in e["removed_models"])
                here[uid] = [p for i, p in enumerate(here[uid]) if i not in e["removed_models"]]
            elif e["e"] == "destroyed":
                fell.setdefault(e["unit"], []).extend(here.pop(e["unit"], []))
        k = s.last
        assert f.units == {u: m for u, m in here.items() if m}
        assert f.gone == {u: m for u, m in fell.items() if m}
    last = fr[-1]
    end = events[-1]
    assert last.ended and last.vp == end["vp"] and last.winner == end["winner"]
    destroyed = {e["unit"] for e in events if e["e"] == "destroyed"}
    assert set(last.destroyed) == destroyed and not destroyed & set(last.units)


def test_the_golden_games_hold_casualties_of_units_that_lived_on_and_a_consolidation():
    """What the frames must follow is in the games above: models removed from a unit that lives
    on, and models moved by a Pile-in or a Consolidation (whichever game has them: the games
    change as the engine does)."""
    names = sorted(p.stem for p in GOLDEN.glob("*.jsonl"))
    logs = {n: _events(n) for n in names}
    def casualties(events: list[dict]) -> bool:
        gone = {e["unit"] for e in events if e["e"] == "destroyed"}
        return any(e["e"] == "attack" and e["removed_models"] and e["target"] not in gone for e in events)
    assert any(casualties(logs[n]) for n in FRAMED)
    assert any(e["e"] in ("pile_in", "consolidate") for n in FRAMED for e in logs[n])


def _older(events: list[dict]) -> list[dict]:
    """The log as an older bagm wrote it: no base sizes, removed models, positions of Pile-in
    and Consolidation, dice or end of Battle-shock."""
    out = []
    for e in events:
        if e["e"] == "battleshock_ends":
            continue
        e = {k: v for k, v in e.items() if k not in ("base_radius", "removed_models", "dice")}
        if e["e"] in ("pile_in", "consolidate"):
            e.pop("at")
        out.append(e)
    return out


def test_an_older_log_is_still_drawn_and_says_what_it_lacks():
    from bagm.render.replay import log_gaps

    events = _older(_events())
    st = narrate(events)
    fr = frames(events, st, mission_map(events).layout)
    for s, f in zip(st, fr):
        seen: dict[str, list] = {}
        for e in events[:s.last]:
            if e["e"] in ("setup", "move", "charge_move") and e.get("at"):
                seen[e["unit"]] = e["at"]
        for uid, models in f.units.items():
            # the logged positions, less the models lost since (the last ones: the log says no more)
            assert models == seen[uid][:len(models)]
    assert log_gaps(events) and not log_gaps(_events())
    assert "This log is from an older bagm" in html(events, mission_map(events))
    assert "This log is from an older bagm" not in html(_events(), mission_map(_events()))


def test_casualties_hatchways_control_and_reserves():
    layout = mission_map([{"e": "game", "mission": 11}]).layout
    t = Tracker(layout)
    starts_open = sorted(h.index for h in layout.hatchways if h.starts_open)
    assert 2 in starts_open and 1 not in starts_open and 3 not in starts_open
    assert t.f.open == starts_open and t.f.control == [None, None, None]
    t.apply({"e": "reserves", "unit": "A2", "deep_strike": False})
    t.apply({"e": "setup", "unit": "A1", "at": [[1, 1], [2, 2], [3, 3]]})
    t.apply({"e": "attack", "unit": "B1", "target": "A1", "destroyed": 2, "weapon": "x", "removed_models": [0, 2]})
    assert t.f.units["A1"] == [[2.0, 2.0]]  # the models the log names
    assert t.f.gone["A1"] == t.f.fell["A1"] == [[1.0, 1.0], [3.0, 3.0]]  # greyed where they fell
    t.snapshot()
    assert t.f.fell == {}  # fell: in this step only
    t.apply({"e": "attack", "unit": "B1", "target": "A1", "destroyed": 1, "weapon": "x", "removed_models": [0]})
    t.apply({"e": "destroyed", "unit": "A1", "points": 60})
    assert "A1" not in t.f.units and t.f.destroyed == ["A1"]
    assert t.f.gone["A1"] == [[1.0, 1.0], [3.0, 3.0], [2.0, 2.0]]
    t.apply({"e": "setup", "unit": "A4", "at": [[1, 1], [2, 2], [3, 3]]})
    t.apply({"e": "pile_in", "unit": "A4", "toward": "B1", "at": [[1, 2], [2, 3], [3, 4]]})
    assert t.f.units["A4"] == [[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]]
    t.apply({"e": "battleshock", "unit": "A4", "shocked": True})
    t.apply({"e": "phase", "phase": "command", "player": "A"})
    assert t.f.shocked == ["A4"]  # the log says when it ends
    t.apply({"e": "battleshock_ends", "unit": "A4"})
    assert t.f.shocked == []
    old = Tracker(layout, full=False)  # a log of an older bagm: counts only
    old.apply({"e": "setup", "unit": "A1", "at": [[1, 1], [2, 2], [3, 3]]})
    old.apply({"e": "attack", "unit": "B1", "target": "A1", "destroyed": 2, "weapon": "x"})
    assert old.f.units["A1"] == [[1.0, 1.0]]  # the log does not say which: the last ones go
    t.apply({"e": "hatch", "unit": "A3", "hatchway": 2, "open": True})
    t.apply({"e": "hatch", "unit": "A3", "hatchway": 3, "open": False})
    t.apply({"e": "hatch", "unit": "A3", "hatchway": 4, "open": True, "prevented": True})
    assert t.f.open == sorted({1, *starts_open} - {2})
    t.apply({"e": "control", "markers": ["A", None, "B"]})
    t.apply({"e": "setup", "unit": "A2", "at": [[5, 5]]})
    assert t.f.control == ["A", None, "B"] and t.f.reserves == [] and t.f.units["A2"] == [[5.0, 5.0]]
    t.apply({"e": "stratagem", "player": "B", "name": "Command Re-roll", "cost": 1, "cp": 3})
    t.apply({"e": "vp", "player": "A", "vp": 5, "total": 15, "why": "x"})
    assert t.f.cp["B"] == 3 and t.f.vp["A"] == 15


def test_the_page_is_one_file_with_the_data_and_no_network():
    events = _events()
    page = html(events, mission_map(events))
    assert page.startswith("<!DOCTYPE html>")
    assert "https://" not in page and "<script src" not in page and "<link " not in page
    data = json.loads(page.split('<script type="application/json" id="game-data">')[1].split("</script>")[0])
    assert len(data["steps"]) == len(data["frames"]) == len(narrate(events))
    end = events[-1]
    assert data["final"] == {"vp": end["vp"], "winner": end["winner"]}
    assert data["units"]["A3"]["name"] == "A3 Strike Squad A"


def test_user_text_is_escaped_in_the_page():
    events = _events()[:10]
    events[1]["units"]["A"][0] = "A1 </script><script>alert(1)</script>"
    page = html(events, mission_map(events))
    assert "<script>alert(1)" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page  # in the header, escaped
    assert "\\u003c/script\\u003e" in page  # in the JSON data, escaped by tojson


def test_one_svg_per_phase_well_formed_and_deterministic():
    events = _events()
    pics = phase_svgs(events, mission_map(events))
    headings = list(dict.fromkeys(s.heading for s in narrate(events)))
    assert len(pics) == len(headings)
    assert pics[0][0] == "001-setup.svg" and pics[1][0] == "002-round1-A-command.svg"
    assert pics[-1][0].endswith("-end.svg")
    for _, text in pics:
        xml.dom.minidom.parseString(text)  # well-formed XML
    assert pics == phase_svgs(events, mission_map(events))
    vp = events[-1]["vp"]
    assert f"VP A {vp['A']} – B {vp['B']}" in pics[-1][1]


def test_cli_writes_the_page_and_the_pictures(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    r = runner.invoke(app, ["replay", str(LOG), "--html", str(tmp_path / "g.html"),
                            "--svg", str(tmp_path / "pics")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "g.html").read_text().startswith("<!DOCTYPE html>")
    assert len(list((tmp_path / "pics").glob("*.svg"))) == len({s.heading for s in narrate(_events())})
    # base sizes come from the log's muster event, as the engine's armies have them
    from bagm.engine.game.muster import build_army

    data = (tmp_path / "g.html").read_text()
    units = json.loads(data.split('id="game-data">')[1].split("</script>")[0])["units"]
    head = _events()[0]
    want = {u.uid: u.radius for p in "AB" for u in build_army(p, head["rosters"][p]).units}
    assert _events()[1]["base_radius"] == pytest.approx(want, abs=1e-3)
    assert {uid: u["radius"] for uid, u in units.items()} == pytest.approx(want, abs=1e-3)
    assert len(set(want.values())) > 1  # not one default size for all


def test_cli_play_writes_the_page(tmp_path):
    gk = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
    orks = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
    r = runner.invoke(app, ["play", "--mission", "11", gk, orks, "--seed", "2", "--html", str(tmp_path / "p.html")])
    assert r.exit_code == 0, r.output
    assert "game-data" in (tmp_path / "p.html").read_text()


def test_cli_refuses_bad_targets_and_non_logs(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    r = runner.invoke(app, ["replay", str(LOG), "--html", str(tmp_path)])
    assert r.exit_code == 2 and "is a folder" in r.output
    f = tmp_path / "file"
    f.write_text("x")
    r = runner.invoke(app, ["replay", str(LOG), "--svg", str(f)])
    assert r.exit_code == 2 and "is a file" in r.output
    r = runner.invoke(app, ["replay", str(LOG), "--html", str(tmp_path / "no" / "such" / "g.html")])
    assert r.exit_code == 2 and "cannot write the page" in r.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    r = runner.invoke(app, ["replay", str(bad), "--html", str(tmp_path / "g.html")])
    assert r.exit_code == 2 and "not a JSON event" in r.output
