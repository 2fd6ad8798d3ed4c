"""Armies played without their faction's rules (`--without-faction-rules A|B|both`): what a
Detachment rule, its Enhancements, army rules and the faction's datasheet abilities are worth.
The core abilities (Deep Strike, Feel No Pain ...) and Leader abilities stay; the log says which
armies were stripped, so a replay plays the same game."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.engine.game.muster import build_army
from bagm.engine.log.record import play_bots, replay

ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
runner = CliRunner()


def _rule_names(army) -> set[str]:
    return {n for u in army.units for n, _ in u.standing} | {s.name for s in army.uses}


def test_the_faction_rules_are_left_out_and_said() -> None:
    full, bare = build_army("A", ORKS), build_army("A", ORKS, faction_rules=False)
    assert full.faction_rules and not bare.faction_rules
    assert any(n.startswith("Waaagh") for n in _rule_names(full))  # the Orks army rule, when played
    assert not any(n.startswith("Waaagh") for n in _rule_names(bare))
    assert any(u.enhancement for u in full.units) and not any(u.enhancement for u in bare.units)
    assert any(n.startswith("played without its faction rules") for n in bare.not_modelled)
    # the faction's abilities are left out, never listed as not implemented
    assert not any("is not implemented" in n for n in bare.not_modelled)
    # the same units and models otherwise
    assert [(u.name, len(u.models)) for u in full.units] == [(u.name, len(u.models)) for u in bare.units]


def test_core_abilities_stay() -> None:
    """Deep Strike is a core ability (bagm/data/core.yaml): a stripped army keeps it."""
    full, bare = build_army("B", GK), build_army("B", GK, faction_rules=False)
    assert [u.deep_strike for u in full.units] == [u.deep_strike for u in bare.units]
    assert any(u.deep_strike for u in bare.units)


def test_the_log_names_the_stripped_army_and_replays() -> None:
    armies = (build_army("A", ORKS, faction_rules=False), build_army("B", GK))
    rec = play_bots(11, ORKS, GK, 3, "greedy", "greedy", armies=armies)
    head = json.loads(rec.lines[0])
    assert head["without_faction_rules"] == ["A"]
    assert "without its faction rules" in rec.armies["A"] and "without" not in rec.armies["B"]
    assert replay(rec.lines).lines == rec.lines
    plain = play_bots(11, ORKS, GK, 3, "greedy", "greedy")
    assert "without_faction_rules" not in json.loads(plain.lines[0])  # logs of full armies unchanged
    assert plain.lines != rec.lines


def test_a_stripped_army_plays_no_faction_rule() -> None:
    """No event of a stripped army names one of its faction's rules."""
    bare = build_army("A", ORKS, faction_rules=False)
    own = _rule_names(build_army("A", ORKS)) - _rule_names(bare)  # the faction's rules alone
    assert own
    rec = play_bots(11, ORKS, GK, 5, "greedy", "greedy", armies=(bare, build_army("B", GK)))
    named = {e.get("rule") or e.get("name") for e in map(json.loads, rec.lines)
             if e.get("player") == "A" or str(e.get("unit", "")).startswith("A")}
    assert not (named & own), named & own


def test_cli_play_and_simulate(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    r = runner.invoke(app, ["play", "--mission", "11", ORKS, GK, "--seed", "2", "--bot", "random",
                            "--without-faction-rules", "b", "--log", str(log), "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(log.read_text().splitlines()[0])["without_faction_rules"] == ["B"]
    r = runner.invoke(app, ["replay", str(log), "--format", "json"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["simulate", ORKS, GK, "--games", "2", "--jobs", "1", "--bot", "random",
                            "--without-faction-rules", "both", "--format", "json"])
    assert r.exit_code == 0, r.output
    sim = json.loads(r.stdout)
    assert sim["without_faction_rules"] == ["A", "B"]
    assert all(t.endswith("(without its faction rules)") for t in sim["armies"].values())


def test_cli_refuses_a_bad_value_and_a_script(tmp_path: Path) -> None:
    r = runner.invoke(app, ["play", "--mission", "11", ORKS, GK, "--without-faction-rules", "C"])
    assert r.exit_code == 2
    assert "takes A, B or both, not 'C'" in r.output
    script = REPO / "tests" / "fixtures"
    scripts = sorted(script.glob("**/*.yaml"))
    game_script = next((s for s in scripts if "actions:" in s.read_text(encoding="utf-8")), None)
    if game_script is not None:
        r = runner.invoke(app, ["play", str(game_script), "--without-faction-rules", "A"])
        assert r.exit_code == 2
        assert "for two rosters with --mission" in r.output
