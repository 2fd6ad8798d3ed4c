"""The narration of a game (`--narrate`): read from the event log, golden against tests/golden.

After a deliberate change of the engine's log or of the wording: BAGM_REGEN_GOLDEN=1 pytest
tests/test_narration.py, then review the diff of tests/golden/narration/.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path

import pytest
from conftest import REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.render.narration import Narrator, events_from_lines, narrate, steps, text, zone_name

GOLDEN = Path(__file__).parent / "golden"
LOGS = sorted(p.stem for p in GOLDEN.glob("*.jsonl"))
GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
runner = CliRunner()


def _events(name: str) -> list[dict]:
    return events_from_lines((GOLDEN / f"{name}.jsonl").read_text().splitlines())


def _golden(path: Path, got: str) -> None:
    if os.environ.get("BAGM_REGEN_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(got)
    if not path.exists():
        pytest.fail(f"{path} is missing: run the tests once with BAGM_REGEN_GOLDEN=1 and review it")
    want = path.read_text().splitlines()
    for i, (a, b) in enumerate(zip(got.splitlines(), want)):
        assert a == b, f"{path.name} line {i + 1} differs"
    assert len(got.splitlines()) == len(want)


@pytest.mark.parametrize("name", LOGS)
def test_narration_golden_text(name):
    _golden(GOLDEN / "narration" / f"{name}.txt", text(narrate(_events(name))))


@pytest.mark.parametrize("name", LOGS)
def test_narration_golden_json(name):
    got = json.dumps([s.as_dict() for s in narrate(_events(name))], indent=1, sort_keys=True) + "\n"
    _golden(GOLDEN / "narration" / f"{name}.json", got)


@pytest.mark.parametrize("name", LOGS)
def test_every_event_is_told_once_and_known(name):
    events = _events(name)
    st = narrate(events)
    # the steps cover the log, in order, without gap or overlap
    assert st[0].first == 0 and st[-1].last == len(events)
    for a, b in itertools.pairwise(st):
        assert a.last == b.first and a.first < a.last
    assert [s.index for s in st] == list(range(len(st)))
    # every kind in the golden logs has its own sentence (no raw fallback)
    assert not [line for s in st for line in s.lines if line.startswith("(")]
    # every attack of the log is in exactly one step, in order
    attacks = [{k: v for k, v in e.items() if k != "e"} for e in events if e["e"] == "attack"]
    assert [a for s in st for a in s.attacks] == attacks


def test_the_narration_tells_moves_attacks_vp_and_the_end():
    st = narrate(_events("example_mission11"))
    told = text(st)
    assert 'A3 Strike Squad A moves 4.5" to Zone B4.' in told
    assert "A5 Purifier Squad opens Hatchway 2." in told
    assert "Player B uses the Command Re-roll Stratagem for 1 CP (2 CP left)." in told
    assert ("A3 Strike Squad A attacks B1 Warboss with Storm bolter (5 models): 10 attacks, 8 hits, "
            "5 wounds, 3 saved, 2 wounds lost.") in told
    assert "B1 Warboss is destroyed (75 pts) by A3 Strike Squad A." in told
    assert "Player A now controls objective marker 2." in told
    # the attack's single dice, in the order the attack sequence rolls them
    assert ("  Dice: hit 6 5 3 2 6 4 6 3 5 2; wound 6 6 4 3 4 5 6 5; save (armour 4+) 2 5 6 3 5; "
            "save (armour 4+) command re-roll 3.") in told
    # VP name the units that scored them; Pile-in and Consolidation say where the unit went
    assert ("Player A scores 5 VP (Capture the Junction: controls 1+ objective markers; "
            "scored by A4 Strike Squad B): 5 VP.") in told
    # (a Consolidation: in whichever golden game has one; the example has none)
    consolidations = [line for n in LOGS for line in text(narrate(_events(n))).splitlines()
                      if " Consolidates toward " in line]
    assert consolidations and all(re.fullmatch(r"  [AB]\d+ .+ Consolidates toward [AB]\d+ .+ into .+\.", c)
                                  for c in consolidations)
    assert "The battle ends: A 30 VP, B 20 VP. Player A wins." in told
    assert st[-1].heading == "The end of the battle"
    headings = list(dict.fromkeys(s.heading for s in st))
    assert headings[:3] == ["Before the battle", "Battle round 1, player A's turn, Command phase",
                            "Battle round 1, player A's turn, Movement phase"]


def test_control_changes_are_told_only_when_they_change():
    n = Narrator()
    assert n.tell({"e": "control", "markers": [None, "A", None]}) == ["Player A now controls objective marker 2."]
    assert n.tell({"e": "control", "markers": [None, "A", None]}) == []
    assert n.tell({"e": "control", "markers": ["B", None, None]}) == [
        "Player B now controls objective marker 1.", "Player A no longer controls objective marker 2."]


def test_new_event_fields_are_told():
    n = Narrator()
    n.names.update({"A1": "A1 Chaplain", "B2": "B2 Big Mek"})
    assert n.tell({"e": "battleshock_ends", "unit": "A1"}) == ["A1 Chaplain is no longer Battle-shocked."]
    assert n.tell({"e": "hazardous", "unit": "B2", "failed": 1, "mortal_wounds": 3, "lost": 2,
                   "destroyed": 0, "removed_models": [], "dice": {"feel no pain (hazardous)": [6, 2, 1]}}) == [
        "B2 Big Mek fails 1 Hazardous test: 3 mortal wounds, 2 wounds lost, 0 models destroyed "
        "(dice: feel no pain (hazardous) 6 2 1)."]
    assert n.tell({"e": "desperate_escape", "unit": "A1", "tests": 2, "destroyed": 1, "rolls": [1, 5],
                   "removed_models": [3]}) == ["A1 Chaplain takes 2 Desperate Escape tests (rolled 1, 5): 1 model destroyed."]
    # a log of an older bagm: no dice, no units, told as before (VP scored in a battle round;
    # before the first, a mission's starting VP)
    assert n.tell({"e": "vp", "player": "A", "vp": 60, "total": 60, "why": "x"}) == [
        "Player A starts the battle with 60 VP (x)."]
    n.tell({"e": "round", "round": 1})
    assert n.tell({"e": "vp", "player": "A", "vp": 5, "total": 5, "why": "x"}) == ["Player A scores 5 VP (x): 5 VP."]


def test_an_unknown_event_is_told_as_its_fields_not_dropped():
    n = Narrator()
    assert n.tell({"e": "teleport", "unit": "A1", "to": [1, 2]}) == ['(teleport: to [1, 2], unit "A1")']


def test_zone_names_are_grid_references():
    assert zone_name(0, 0) == "Zone A1"
    assert zone_name(9, 6) == "Zone J7"
    assert zone_name(26, 0) == "Zone AA1"


def test_a_step_opens_at_each_decision_and_phase_but_headings_share_one():
    ev = [{"e": "round", "round": 1}, {"e": "turn", "player": "A", "round": 1, "turn": 1},
          {"e": "phase", "phase": "command", "player": "A"},
          {"e": "cp", "player": "A", "gain": 1, "cp": 1, "why": "Command phase"},
          {"e": "phase", "phase": "movement", "player": "A"},
          {"e": "action", "player": "A", "step": "move", "action": "hold A1"},
          {"e": "move", "unit": "A1", "kind": "remain stationary"},
          {"e": "action", "player": "A", "step": "move", "action": "hold A2"},
          {"e": "move", "unit": "A2", "kind": "remain stationary"}]
    st = steps(ev)
    assert [(s.first, s.last, s.phase, s.actor) for s in st] == [
        (0, 4, "command", None), (4, 7, "movement", "A"), (7, 9, "movement", "A")]


def test_user_text_is_never_rich_markup():
    from rich.console import Console

    from bagm.render.narration import rich as rich_narration

    ev = [{"e": "muster", "points": {"A": 1}, "underdog": None, "units": {"A": ["A1 [bold red]Boss[/]"]}},
          {"e": "destroyed", "unit": "A1", "points": 1}]
    console = Console(record=True, width=200, color_system=None)
    console.print(rich_narration(steps(ev)))
    assert "A1 [bold red]Boss[/] is destroyed (1 pts)." in console.export_text()


def test_play_prints_one_line_of_notes_and_narrates_on_request(tmp_path):
    r = runner.invoke(app, ["play", "--mission", "11", GK, ORKS, "--seed", "3"])
    assert r.exit_code == 0, r.output
    assert "Not implemented" not in r.stdout and "--notes lists them" in r.stdout
    assert "Battle round" not in r.stdout
    r = runner.invoke(app, ["play", "--mission", "11", GK, ORKS, "--seed", "3", "--notes", "--narrate"])
    assert r.exit_code == 0, r.output
    assert "Not implemented" in r.stdout and "Simplifications" in r.stdout
    assert "Battle round 1, player" in r.stdout and "The battle ends" in r.stdout


def test_replay_narrates_in_text_and_json(monkeypatch):
    monkeypatch.chdir(REPO)  # the golden logs name their rosters relative to the repository
    log = str(GOLDEN / "greedy_seed7.jsonl")
    r = runner.invoke(app, ["replay", log, "--narrate"])
    assert r.exit_code == 0, r.output
    assert "Before the battle" in r.stdout and "reproduced exactly" in r.stdout
    r = runner.invoke(app, ["replay", log, "--narrate", "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["reproduced"] is True and out["winner"] == "B"
    want = [s.as_dict() for s in narrate(_events("greedy_seed7"))]
    assert out["narration"] == want


def test_every_declared_event_kind_has_a_sentence():
    """Each kind the log may hold (state/events.py) is told in words, never shown raw."""
    from bagm.engine.state import events as ev
    from bagm.render.narration import Narrator

    assert sorted(k for k in ev.kinds() if not hasattr(Narrator, f"_e_{k}")) == []


@pytest.mark.parametrize("event, said", [
    ({"e": "deadly_demise", "unit": "A1", "roll": 6, "units": ["B2"]}, "Deadly Demise: a model of A1 rolls 6; mortal wounds for B2."),
    ({"e": "deadly_demise", "unit": "A1", "roll": 3, "units": []}, "Deadly Demise: a model of A1 rolls 3: nothing happens."),
    ({"e": "mortal_roll", "unit": "A1", "target": "B1", "rule": "Psychic Onslaught", "roll": 4},
     "A1 rolls one D6 for Psychic Onslaught against B1: 4."),
    ({"e": "regain_wounds", "unit": "A2", "wounds": 1, "rule": "Regenerative Agony"}, "A2 regains 1 wound (Regenerative Agony)."),
    ({"e": "pain", "player": "A", "gain": 1, "pool": 3, "why": "an enemy unit destroyed"},
     "Player A gains 1 Pain token (an enemy unit destroyed; 3 in all)."),
    ({"e": "pain", "player": "A", "gain": -2, "pool": 1, "why": "Empowered"}, "Player A spends 2 Pain tokens (Empowered; 1 in all)."),
])
def test_the_rules_own_rolls_and_tokens_are_told(event, said):
    from bagm.render.narration import Narrator

    assert Narrator().tell(event) == [said]
