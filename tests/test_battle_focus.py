"""Battle Focus (Aeldari army rule) played when a user supplies its lost number: "if your Army Faction
is ASURYANI, at the start of the battle round, you receive a number of Battle Focus tokens based on the
battle size"; "each time one of the triggers ... occurs, you can spend one Battle Focus token to enable
the relevant eligible unit to perform that Agile Manoeuvre"; eligible: "has this ability and has not
already performed an Agile Manoeuvre in the same phase"; "unless otherwise stated, you cannot trigger the
same Agile Manoeuvre more than once per phase"; "at the end of the battle round, all unspent Battle Focus
tokens are lost". The number is supplied in an overlay (``tokens:``); the Agile Manoeuvres are the
bundled pack's (the BattleScribe catalogue's), or an overlay's."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, advance_to, block, place, until_finished

from bagm.chance.dice import Dice
from bagm.data.abilities import played
from bagm.data.packs import Catalog, data_dirs
from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.bots.random import RandomBot
from bagm.engine.game import fight, moments
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules.effects import effect_has
from bagm.engine.state.actions import parse
from bagm.errors import BagmError

ARROW = str(REPO / "rosters" / "aeldari_khaines_arrow.yaml")  # every unit ASURYANI, every unit has Battle Focus
MASQUE = str(REPO / "rosters" / "aeldari_star_dancer_masque.yaml")  # HARLEQUINS units: not ASURYANI
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
EXAMPLE = REPO / "games" / "EXAMPLE-battle-focus"


def supplied(tmp_path: Path, entry: str = "{name: Battle Focus, tokens: 2}") -> Catalog:
    (tmp_path / "aeldari.yaml").write_text(f"faction: Aeldari\nabilities:\n  - {entry}\n", encoding="utf-8")
    return Catalog(data_dirs([tmp_path]))


def new_game(cat: Catalog, seed: int = 7) -> Game:
    g = Game(11, build_army("A", ARROW, cat), build_army("B", ORKS), dice=Dice(seed),
             rolloffs={"attacker": "A", "first_turn": "A"})
    while g.decision.step in ("roles", "deploy"):
        g.apply(g.legal_actions()[0])
    return g


def to_move(g: Game) -> None:
    """The first battle round's Movement phase, player A about to select a unit to move."""
    advance_to(g, "move")


def settle(g: Game) -> None:
    """Decline what a move asks after its manoeuvre (a Hatchway on its way: Unerring Strike; a Fire
    Overwatch) until player A selects its next unit to move."""
    while g.decision.step != "move":
        g.apply(parse("pass"))


def to_phase(g: Game, phase: str) -> None:
    """Decline every decision (``done`` or ``pass``) until the game is in ``phase``."""
    for _ in range(500):
        if g.phase == phase:
            return
        legal = g.legal_actions()
        g.apply(next((a for a in legal if a.kind in ("done", "pass")), legal[0]))
    raise AssertionError(f"never reached the {phase} phase")


def select(g: Game, uid: str) -> None:
    """Player A selects unit ``uid`` to make a Normal move (toward the first marker it is offered)."""
    settle(g)
    g.apply(next(a for a in g.legal_actions() if a.kind == "move" and a.unit == uid))


def tokens(g: Game, p: str = "A") -> int:
    return g.tokens.get(f"{p} Battle Focus", 0)


def test_the_bundled_data_plays_no_battle_focus_and_says_the_number_is_lost():
    a = build_army("A", ARROW)
    assert not [s for s in a.uses if s.spends]
    g = new_game(Catalog())
    to_move(g)
    assert tokens(g) == 0 and not [e for e in g.events if e["e"] == "tokens"]


def test_the_example_overlay_supplies_the_number_and_the_bundled_manoeuvres_play():
    a = build_army("A", ARROW, Catalog(data_dirs([EXAMPLE])))
    got = [(s.name, s.when, s.once, s.until, s.spends, s.gain) for s in a.uses if s.spends]
    assert got == [("Swift as the Wind", "selected_to_move", "unit", "phase", "Battle Focus", 2),
                   ("Sudden Strike", "selected_to_fight", "phase", "phase", "Battle Focus", 2),
                   ("Flitting Shadows", "selected_to_move", "phase", "turn", "Battle Focus", 2),
                   ("Flitting Shadows", "set_up", "phase", "turn", "Battle Focus", 2),
                   ("Flitting Shadows", "charge_declared", "phase", "turn", "Battle Focus", 2),
                   ("Opportunity Seized", "enemy_fell_back", "phase", "phase", "Battle Focus", 2),
                   ("Fade Back", "enemy_shot", "phase", "phase", "Battle Focus", 2)]
    assert all(s.holders == frozenset({"A1", "A2", "A3", "A4", "A5"}) for s in a.uses if s.spends)
    # no longer "lost", and every Agile Manoeuvre plays (Star Engines plays no part: no VEHICLE)
    assert not any("Battle Focus" in n for n in a.not_modelled)


def test_tokens_come_at_the_start_of_each_battle_round_and_unspent_ones_are_lost_at_its_end(tmp_path):
    g = new_game(supplied(tmp_path))
    to_move(g)
    assert tokens(g) == 2
    assert [e for e in g.events if e["e"] == "tokens"] == [
        {"e": "tokens", "player": "A", "rule": "Battle Focus", "gain": 2, "pool": 2, "why": "the start of the battle round"}]
    g.run_step("end of the battle round", 1)
    assert tokens(g) == 0 and g.events[-1] == {"e": "tokens", "player": "A", "rule": "Battle Focus", "gain": -2,
                                               "pool": 0, "why": "unspent at the end of the battle round"}
    assert not [e for e in g.events if e["e"] == "tokens" and e["player"] == "B"]  # the Orks have none


def test_a_unit_selected_to_move_may_spend_a_token_on_swift_as_the_wind(tmp_path):
    g = new_game(supplied(tmp_path))
    to_move(g)
    a3 = g.units["A3"]
    move = a3.move()
    select(g, "A3")
    d = g.decision
    assert (d.step, d.player, d.info) == ("use", "A", {"timing": "selected_to_move", "unit": "A3"})
    assert [a.text() for a in g.legal_actions()] == [
        "use A3 Swift as the Wind", "use A3 Flitting Shadows", "pass"]
    with pytest.raises(IllegalAction):
        g.apply(parse("use A4 Swift as the Wind"))  # the unit the trigger is about, only
    g.apply(parse("use A3 Swift as the Wind"))
    # "add 2\" to the Move characteristic of models in that unit" until the end of the phase
    assert a3.move() == move + 2 and tokens(g) == 1
    assert {"e": "tokens", "player": "A", "rule": "Battle Focus", "gain": -1, "pool": 1,
            "why": "Swift as the Wind"} in g.events
    assert {"e": "rule_used", "player": "A", "name": "Swift as the Wind", "kind": "Battle Focus"} in g.events
    # eligible: it has performed an Agile Manoeuvre this phase, so no other one (a token left)
    assert moments.usable(g, "A", "selected_to_move", "A3") == []
    to_phase(g, "shooting")  # the end of the Movement phase
    assert a3.move() == move


def test_once_per_phase_unless_stated_and_never_without_a_token(tmp_path):
    g = new_game(supplied(tmp_path))
    to_move(g)
    select(g, "A3")
    g.apply(parse("use A3 Flitting Shadows"))
    select(g, "A4")
    # Flitting Shadows: once this phase; Swift as the Wind: "more than once per phase (provided a
    # different unit performs it each time)"
    assert [a.text() for a in g.legal_actions()] == ["use A4 Swift as the Wind", "pass"]
    g.apply(parse("use A4 Swift as the Wind"))
    assert tokens(g) == 0
    select(g, "A5")  # no token left: the game does not ask
    assert g.decision.step != "use" or g.decision.info.get("unit") != "A5"


def test_flitting_shadows_keeps_fire_overwatch_off_the_unit_until_the_end_of_the_turn(tmp_path):
    g = new_game(supplied(tmp_path))
    to_move(g)
    select(g, "A3")
    g.apply(parse("use A3 Flitting Shadows"))
    a3 = g.units["A3"]
    assert effect_has(a3, "no_overwatch_against")
    to_phase(g, "shooting")  # a later phase of the same turn
    assert effect_has(a3, "no_overwatch_against")
    to_phase(g, "fight")
    for _ in range(100):  # the opponent's turn
        if g.active == "B":
            break
        legal = g.legal_actions()
        g.apply(next((a for a in legal if a.kind in ("done", "pass")), legal[0]))
    assert g.active == "B" and not effect_has(a3, "no_overwatch_against")


def test_sudden_strike_when_selected_to_fight_gives_pile_in_and_consolidation_of_6(tmp_path):
    g = new_game(supplied(tmp_path))
    to_move(g)
    g.tokens["A Battle Focus"] = 1  # (the test reaches the Fight phase by declining: set its pool)
    a2 = g.units["A2"]
    assert fight.pile_reach(a2) == 3
    assert [a.text() for a in moments.usable(g, "A", "selected_to_fight", "A2")] == ["use A2 Sudden Strike"]
    moments.use_rule(g, "A", parse("use A2 Sudden Strike"))
    assert fight.pile_reach(a2) == 6 and tokens(g) == 0


def test_an_army_whose_faction_is_not_asuryani_receives_no_tokens(tmp_path):
    a = build_army("A", MASQUE, supplied(tmp_path))
    assert not [s for s in a.uses if s.spends]
    assert "ability 'Battle Focus': no tokens (the army's Army Faction is not ASURYANI: a unit without that " \
           "keyword)" in a.not_modelled


def test_the_number_supplied_without_manoeuvres_is_listed_and_not_modelled(tmp_path):
    cat = supplied(tmp_path, "{name: Battle Focus, tokens: 2, manoeuvres: []}")
    a = build_army("A", ARROW, cat)
    assert not [s for s in a.uses if s.spends]
    assert "Farseer: ability 'Battle Focus' is not implemented (2 tokens each battle round supplied, but no " \
           "manoeuvre to spend them on (manoeuvres: in an overlay))" in a.not_modelled
    ds = next(d for d in cat.faction("Aeldari").pack.units if d.name == "Farseer")
    assert not {p.name: p for p in played(ds, cat.abilities("Aeldari"))}["Battle Focus"].modelled


def test_an_overlay_replaces_the_manoeuvres_and_a_manoeuvre_without_effects_is_listed(tmp_path):
    entry = ("{name: Battle Focus, tokens: 1, manoeuvres: [{name: My Dodge, when: targeted, until: turn, "
             "effects: [{hit_against_mod: -1}]}, {name: My Leap, when: selected_to_move, effects: null}]}")
    a = build_army("A", ARROW, supplied(tmp_path, entry))
    assert [(s.name, s.when, s.until, s.gain) for s in a.uses if s.spends] == [("My Dodge", "targeted", "turn", 1)]
    assert "ability 'Battle Focus': manoeuvre 'My Leap' is not implemented" in a.not_modelled


@pytest.mark.parametrize("entry, message", [
    ("{name: Battle Focus, tokens: -1}", "tokens must be 0 or more, not -1"),
    ("{name: Battle Focus, tokens: two}", "tokens: Input should be a valid integer"),
    ("{name: Battle Focus, tokens: 2, manoeuvres: [{name: X, when: selected_to_move, pain: 1, effects: [{M_mod: 1}]}]}",
     "manoeuvre 'X': 'pain' is not supported in a manoeuvre"),
    ("{name: Battle Focus, tokens: 2, manoeuvres: [{name: X, when: after_roll, effects: [{M_mod: 1}]}]}",
     "manoeuvre 'X': 'after_roll' is Command Re-roll's moment alone"),
    ("{name: Battle Focus, tokens: 2, manoeuvres: [{name: X, when: selected_to_move, once: battle}]}",
     "once: Input should be 'phase' or 'unit'"),
    ("{name: Battle Focus, tokens: 2, manoeuvres: [{name: X, when: selected_to_move, effects: [{normal_move: 6}]}]}",
     "normal_move: unknown key"),
    ("{name: Battle Focus, tokens: 2, manoeuvres: [{name: X, effects: [{M_mod: 1}]}]}", "manoeuvres > 'X' > when: Field required"),
])
def test_a_bad_battle_focus_overlay_is_a_clear_error_with_file_line_and_exit_2(tmp_path, entry, message):
    from typer.testing import CliRunner

    from bagm.cli.app import app

    with pytest.raises(BagmError) as e:
        build_army("A", ARROW, supplied(tmp_path, entry))
    assert str(e.value).startswith(f"{tmp_path / 'aeldari.yaml'}:3: invalid data pack: abilities > 'Battle Focus'")
    assert message in str(e.value)
    res = CliRunner().invoke(app, ["play", "--mission", "11", ARROW, ORKS, "--seed", "1"], env={"BAGM_DATA": str(tmp_path)})
    assert res.exit_code == 2 and f"{tmp_path / 'aeldari.yaml'}:3" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("bot", [GreedyBot, RandomBot])
def test_bots_spend_the_tokens_and_the_game_is_deterministic(bot):
    cat = Catalog(data_dirs([EXAMPLE]))
    logs = []
    for _ in range(2):
        g = Game(11, build_army("A", ARROW, cat), build_army("B", ORKS), dice=Dice(3))
        player = bot() if bot is GreedyBot else bot(5)
        for _n in until_finished(g):
            g.apply(player(g))
        logs.append(g.events)
    assert logs[0] == logs[1]
    spent = [e for e in logs[0] if e["e"] == "tokens" and e["gain"] == -1]
    received = [e for e in logs[0] if e["e"] == "tokens" and e["gain"] > 0]
    assert spent and len(received) == 5 and all(e["gain"] == 2 for e in received)


def test_a_clone_at_a_manoeuvre_plays_on_alike(tmp_path):
    g = new_game(supplied(tmp_path))
    to_move(g)
    select(g, "A3")
    c = g.clone()
    assert c.decision == g.decision and c.legal_actions() == g.legal_actions()
    for x in (g, c):
        x.apply(parse("use A3 Swift as the Wind"))
    assert c.tokens == g.tokens and c.units["A3"].timed == g.units["A3"].timed and c.events == g.events


@pytest.mark.parametrize("event, said", [
    ({"e": "tokens", "player": "A", "rule": "Battle Focus", "gain": 2, "pool": 2, "why": "the start of the battle round"},
     "Player A receives 2 Battle Focus tokens (the start of the battle round)."),
    ({"e": "tokens", "player": "A", "rule": "Battle Focus", "gain": -1, "pool": 1, "why": "Swift as the Wind"},
     "Player A spends 1 Battle Focus token on Swift as the Wind (1 left)."),
    ({"e": "tokens", "player": "B", "rule": "Battle Focus", "gain": -1, "pool": 0, "why": "Sudden Strike"},
     "Player B spends 1 Battle Focus token on Sudden Strike (0 left)."),
    ({"e": "tokens", "player": "A", "rule": "Battle Focus", "gain": -2, "pool": 0,
      "why": "unspent at the end of the battle round"},
     "Player A loses 2 Battle Focus tokens (unspent at the end of the battle round)."),
])
def test_tokens_are_told(event, said):
    from bagm.render.narration import Narrator

    assert Narrator().tell(event) == [said]


def test_coverage_counts_battle_focus_modelled_only_when_its_number_is_supplied():
    # bundled: not modelled (the coverage table in the README is unchanged); with the number
    # supplied, each of its 16 occurrences in the bundled rosters is
    import json

    from typer.testing import CliRunner

    from bagm.cli.app import app

    def aeldari(env: dict[str, str]) -> list[int]:
        res = CliRunner().invoke(app, ["data", "coverage", "--format", "json"], env=env)
        assert res.exit_code == 0
        return list(json.loads(res.output)["factions"]["Aeldari"]["ability_occurrences"])

    bundled, supplied_ = aeldari({"BAGM_DATA": ""}), aeldari({"BAGM_DATA": str(EXAMPLE)})
    assert supplied_[1] == bundled[1] and supplied_[0] == bundled[0] + 16


def decline(g: Game, until) -> None:
    """Decline every decision (``done`` or ``pass``) until ``until(g)`` holds."""
    for _ in range(1000):
        if until(g):
            return
        legal = g.legal_actions()
        g.apply(next((a for a in legal if a.kind in ("done", "pass")), legal[0]))
    raise AssertionError("never reached")


def at(g: Game, active: str, phase: str, step: str) -> None:
    """Decline every decision until player ``active``'s ``phase`` asks them ``step``."""
    decline(g, lambda g: g.active == active and g.phase == phase and g.decision.step == step
            and g.decision.player == active)


def facing(g: Game, a: str, b: str) -> None:
    """Units ``a`` and ``b`` a few inches apart in the open, near marker 1."""
    mk = g.map.layout.markers[0]
    place(g, a, block(mk.x - 3, mk.y))
    place(g, b, block(mk.x + 3, mk.y, dx=1.4))


def test_fade_back_just_after_an_enemy_unit_has_shot_a_unit_it_hit_moves_d6_plus_1(tmp_path):
    g = new_game(supplied(tmp_path), seed=4)
    at(g, "B", "shooting", "manoeuvre")  # the opponent's Shooting phase
    facing(g, "A3", "B3")
    g.apply(parse("done"))
    assert g.decision.step == "shoot"
    g.apply(next(a for a in g.legal_actions() if a.kind == "shoot" and a.unit == "B3" and a.target == "A3"))
    decline(g, lambda g: g.decision.step in ("use", "shoot") and g.decision.player == "A" or g.decision.step == "shoot")
    d = g.decision
    assert (d.step, d.info) == ("use", {"timing": "enemy_shot", "unit": "A3"})
    assert [a.text() for a in g.legal_actions()] == ["use A3 Fade Back", "pass"]
    g.apply(parse("use A3 Fade Back"))
    roll = next(e for e in reversed(g.events) if e["e"] == "rule_roll")
    assert roll["rule"] == "Fade Back" and roll["expr"] == "D6+1" and 2 <= roll["roll"] <= 7
    d = g.decision
    assert (d.step, d.player, d.info["unit"], d.info["reach"]) == ("freemove", "A", "A3", roll["roll"])
    assert tokens(g) == 1


def test_opportunity_seized_when_an_enemy_unit_falls_back_from_a_unit(tmp_path):
    g = new_game(supplied(tmp_path), seed=5)
    at(g, "B", "movement", "move")  # the opponent's Movement phase
    mk = g.map.layout.markers[0]
    place(g, "A3", block(mk.x - 3, mk.y))
    place(g, "B3", [(mk.x - 1.6, mk.y - 0.7), (mk.x - 1.6, mk.y + 0.7)])  # within Engagement Range of A3
    g.apply(next(a for a in g.legal_actions() if a.kind == "fallback" and a.unit == "B3"))
    decline(g, lambda g: g.decision.step == "use" and g.decision.player == "A" or g.decision.step == "move")
    d = g.decision
    assert (d.step, d.info) == ("use", {"timing": "enemy_fell_back", "unit": "A3"})
    g.apply(parse("use A3 Opportunity Seized"))
    assert g.decision.step == "freemove" and tokens(g) == 1


def test_flitting_shadows_when_a_unit_declares_a_charge(tmp_path):
    g = new_game(supplied(tmp_path))
    at(g, "A", "shooting", "manoeuvre")
    facing(g, "A3", "B3")
    decline(g, lambda g: g.phase == "charge" and g.decision.step == "charge")
    g.apply(next(a for a in g.legal_actions() if a.kind == "charge" and a.unit == "A3"))
    d = g.decision
    assert (d.step, d.info) == ("use", {"timing": "charge_declared", "unit": "A3"})
    g.apply(parse("use A3 Flitting Shadows"))
    assert effect_has(g.units["A3"], "no_overwatch_against") and tokens(g) == 1


def test_flitting_shadows_when_a_unit_is_set_up_from_strategic_reserves(tmp_path):
    # Khaine's Arrow with Warp Spiders (Deep Strike) in place of the Fire Dragons
    (tmp_path / "r").mkdir()
    spiders = tmp_path / "r" / "spiders.yaml"  # (not beside the overlay: a pack folder's files are packs)
    spiders.write_text(Path(ARROW).read_text(encoding="utf-8").replace("unit: Fire Dragons", "unit: Warp Spiders"),
                     encoding="utf-8")
    g = Game(11, build_army("A", str(spiders), supplied(tmp_path)), build_army("B", ORKS), dice=Dice(7),
             rolloffs={"attacker": "A", "first_turn": "A"})
    g.apply(parse("role defender"))
    while g.decision.step == "deploy":
        legal = g.legal_actions()
        g.apply(next((a for a in legal if a.text() == "reserve A5"), legal[0]))
    assert g.units["A5"].where == "reserves"
    decline(g, lambda g: g.decision.step == "reinforce" and g.decision.player == "A")
    g.apply(next(a for a in g.legal_actions() if a.kind != "done" and a.unit == "A5"))
    d = g.decision
    assert (d.step, d.info) == ("use", {"timing": "set_up", "unit": "A5"})
    assert [a.text() for a in g.legal_actions()] == ["use A5 Flitting Shadows", "pass"]


@pytest.mark.parametrize("effects, message", [
    ("[{free_move_roll: D6+x}]", "free_move_roll"),
    ("[{free_move: 3, free_move_roll: D6+1}]", "give free_move (a distance) or free_move_roll (a dice expression), not both"),
])
def test_a_bad_rolled_move_is_a_data_error(tmp_path, effects, message):
    entry = f"{{name: Battle Focus, tokens: 2, manoeuvres: [{{name: X, when: enemy_shot, effects: {effects}}}]}}"
    with pytest.raises(BagmError) as e:
        build_army("A", ARROW, supplied(tmp_path, entry))
    assert str(e.value).startswith(f"{tmp_path / 'aeldari.yaml'}:3: invalid data pack") and message in str(e.value)


def test_a_rolled_move_is_told():
    from bagm.render.narration import Narrator

    assert Narrator().tell({"e": "rule_roll", "player": "A", "rule": "Fade Back", "roll": 5, "expr": "D6+1"}) == [
        "Player A rolls D6+1 for Fade Back: 5."]


def test_the_example_overlays_own_command_runs():
    """The command written in the example overlay runs as pasted (it once passed --data, an option
    bagm play does not have: exit 2)."""
    import os
    import subprocess
    import sys

    lines = [ln.removeprefix("#").strip() for ln in
             (EXAMPLE / "aeldari.yaml").read_text(encoding="utf-8").splitlines() if ln.startswith("#")]
    at = next(i for i, ln in enumerate(lines) if " bagm play " in f" {ln}")
    command = lines[at]
    while command.endswith("\\"):
        at += 1
        command = command[:-1] + " " + lines[at]
    bagm = Path(sys.executable).parent / "bagm"
    env = {k: v for k, v in os.environ.items() if k != "BAGM_DATA"}
    res = subprocess.run(["bash", "-c", command.replace("bagm play", f"{bagm} play", 1)], cwd=REPO,
                         env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "receives 2 Battle Focus tokens" in res.stdout
