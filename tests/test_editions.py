"""The 2023 edition in play (issue 12, section 3): a roster with ``edition: 2023`` is played
under the original Boarding Actions rules (``001_79794abb0e3efb63.txt``), never silently under
the 2024 book's (``000_027a8f369a38d052.txt``). Each test quotes both texts and plays the same
situation under both editions with scripted dice: the same two armies (the 2023 example rosters
of tests/fixtures/edition2023, and the same text with ``edition: 2024``), public Game API only."""

from __future__ import annotations

import json

import pytest
from conftest import REPO, until_finished
from pydantic import TypeAdapter
from test_game_properties import PLAYABLE, check_invariants
from test_rules_fixes import _decline

from bagm.chance.dice import Dice
from bagm.data.models import Effect
from bagm.engine.attack.rules import Conditions, Target, attack_dice, saving_throw
from bagm.engine.game import control, fight, kept, positions, sight
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules.editions import EDITION_2023, EDITION_2024, EDITIONS, EditionError
from bagm.engine.rules.stratagems import BATTLEFIELD_COMMAND, EXPLOSIVE_CLEARANCE, card, may_use
from bagm.engine.state.actions import Action, parse
from bagm.roster.model import load_roster

FIXTURES = REPO / "tests" / "fixtures" / "edition2023"
GK = FIXTURES / "grey_knights_purgation_2023.yaml"
ORKS = FIXTURES / "orks_krumpas_2023.yaml"
BOTH = ("2023", "2024")
# mission 11: A (Grey Knights) the Attacker, Entry Zones (0,0), (0,3), (0,6); one unit per zone
DEPLOY = ("role attacker", "deploy B3 1", "deploy A3 1", "deploy B4 2", "deploy A4 2", "deploy B5 3",
          "deploy A5 3")


def _army(player: str, path: object, edition: str):
    """The fixture roster as written (2023) or with ``edition: 2024`` (valid under both)."""
    text = path.read_text().replace("edition: 2023", f"edition: {edition}")  # type: ignore[attr-defined]
    return build_army(player, load_roster(path, text))  # type: ignore[arg-type]


def _game(edition: str, *texts: str, deploy: tuple[str, ...] = DEPLOY, dice: list[int] | None = None) -> Game:
    g = Game(11, _army("A", GK, edition), _army("B", ORKS, edition), dice=Dice.scripted(dice or []),
             rolloffs={"attacker": "A", "first_turn": "A"})
    for text in deploy + texts:
        _decline(g)
        g.apply(parse(text))
    _decline(g)
    return g


def _pass_offers(g: Game) -> None:
    for _ in range(20):
        if g.decision.step in ("overwatch", "reroll", "command", "counter", "bravery"):
            g.apply(Action("pass"))


# --- the edition is the game's, decided at muster ---------------------------------------------------


def test_the_game_plays_the_rosters_edition():
    g23, g24 = _game("2023"), _game("2024")
    assert g23.edition is EDITION_2023 and g24.edition is EDITION_2024
    assert g23.events[0]["edition"] == "2023" and "edition" not in g24.events[0]  # the log says so
    # what 2023 does not model is listed plainly in every 2023 game, never in a 2024 one
    notes = g23.not_modelled()
    assert any("2023 edition: Infiltrators" in n for n in notes)
    assert not any("2023 edition" in n for n in g24.not_modelled())
    assert set(EDITIONS["2023"].not_modelled) <= set(notes)


def test_rosters_of_two_editions_are_refused_with_both_files_named():
    """Decided at muster: a game is played under one edition's rules, and the two rosters say
    which; rosters of different editions cannot both be honoured, so the game refuses."""
    with pytest.raises(EditionError, match=r"different editions.*2023.*is 2024.*edition: 2023") as exc:
        Game(11, _army("A", GK, "2023"), _army("B", ORKS, "2024"), dice=Dice.scripted([]))
    assert str(GK) in str(exc.value) and str(ORKS) in str(exc.value)


def test_clone_and_pickle_keep_the_edition():
    import pickle

    g = _game("2023")
    assert g.clone().edition is EDITION_2023
    assert pickle.loads(pickle.dumps(g)).edition is EDITION_2023


# --- Benefit of Cover -------------------------------------------------------------------------------

def _bolter():
    return _army("A", GK, "2024").units[2].ranged[0]  # Strike Squad's storm bolter: AP 0


@pytest.mark.parametrize("edition", BOTH)
def test_cover_for_any_save(edition: str):
    """2023 Benefit of Cover: "The Save characteristic of models does not affect whether they can
    receive the Benefit of Cover in Boarding Actions games." 2024 has no such sentence, so the
    Core Rule stands: "Models with a Save characteristic of 3+ or better cannot have the Benefit of
    Cover against attacks with an Armour Penetration characteristic of 0." A 3+ model not fully
    visible, hit by an AP 0 storm bolter, rolls a 2: saved with cover (2 + 1 = 3) in 2023 only."""
    ed = EDITIONS[edition]
    target = Target(toughness=4, save=3, wounds=1)
    cond = Conditions(cover=True, cover_any_save=ed.cover_any_save)
    save = saving_throw(_bolter(), target, cond)
    assert save.succeeds(2) is (edition == "2023")


# --- Blast ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH)
def test_blast_counts_hidden_models_only_in_2023(edition: str):
    """2024 Rules Adaptations, Blast Weapons: "when determining how many models are in the target
    unit for the purpose of that ability, only count the models that are visible to the attacking
    model." The 2023 text has no such adaptation: the Core Rule counts "every five models that were
    in the target unit". Ten Nobz, four of them visible: +2 attacks (2023) or none (2024)."""
    from bagm.data.weapons import Abilities

    blast = _bolter()
    blast = type(blast)(**{**blast.__dict__, "abilities": Abilities(blast=True)})
    cond = Conditions(blast_counts_hidden=not EDITIONS[edition].blast_counts_visible)
    dice = attack_dice(blast, Target(toughness=5, save=4, wounds=2, models=10, visible=4), cond)
    bonus = sum(d.bonus for d in dice[1:])
    assert bonus == (2 if edition == "2023" else 0)


# --- Stratagems on Battle-shocked units -----------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH)
def test_battle_shocked_units_may_be_targeted_with_stratagems_in_2023(edition: str):
    """2023 Stratagems: "units can be the target of Stratagems, even if they are Battle-shocked".
    2024 keeps the Core Rule (Battle-shock: "their controlling player cannot use Stratagems to
    affect them"). A Battle-shocked Strike Squad Advances and rolls a 1: Command Re-roll is
    offered in 2023 only."""
    g = _game(edition, dice=[1])
    assert g.decision.step == "move" and g.cp["A"] >= 1
    g.units["A3"].battleshocked = True
    g.apply(parse("advance A3 8,2"))
    assert (g.decision.step == "reroll") is (edition == "2023")


# --- Explosive Clearance ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH)
def test_no_explosive_clearance_in_2023(edition: str):
    """The 2023 Stratagems are Command Re-roll, Insane Bravery, Counter-offensive and Battlefield
    Command; Explosive Clearance is the 2024 book's ("WHEN: Your Shooting phase")."""
    g = _game(edition)
    assert may_use(g, "A", EXPLOSIVE_CLEARANCE) is (edition == "2024")
    with pytest.raises(IllegalAction) as exc:  # the Purifiers have no Blast weapon either
        g.check_as("shoot", "A", parse("clearance A5"))
    assert ("not a Stratagem of the 2023 edition" in str(exc.value)) is (edition == "2023")


# --- Battlefield Command: when ---------------------------------------------------------------------


def _command_windows(edition: str) -> list[tuple[str, str]]:
    """(phase, player) of every Battlefield Command decision from the Movement phase of the first
    turn to the end of the third: the Champion (Leader of Strike Squads) stands next to Strike
    Squad B; every offer is passed, and nothing moves."""
    g = _game(edition, deploy=DEPLOY[:-1] + ("deploy A2 3",))
    positions.set_positions(g, g.units["A2"], [(6.0, 15.0)])
    seen = []
    for _ in range(600):  # to the end of A's second turn (round 2)
        d = g.decision
        if g.turn > 3 or d.step == "over":
            break
        if d.step == "command":
            seen.append((g.phase, d.player))
            g.apply(Action("pass"))
        elif d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge"):
            g.apply(Action("done"))
        else:
            g.apply(Action("pass"))
    return seen


def test_battlefield_command_in_the_command_phase_in_2023():
    """2023 Battlefield Command: "WHEN: Your Command phase." 2024: "WHEN: Start or end of any
    phase." With the Champion beside a Strike Squad and CP to spend, the 2024 game offers it in
    every phase; the 2023 game only in player A's own Command phase (of round 2)."""
    assert card(_game("2023"), BATTLEFIELD_COMMAND).when == "your_command"
    w23, w24 = _command_windows("2023"), _command_windows("2024")
    assert w23 and all(phase == "command" and p == "A" for phase, p in w23)
    assert any(phase != "command" for phase, _ in w24)


# --- Operating Hatchways ---------------------------------------------------------------------------

WEST_OF_HATCHWAY_3 = [(16.6, 5.6), (15.3, 5.6), (14.0, 5.6), (15.3, 4.3), (14.0, 4.3)]


def _at_hatchways(edition: str, dice: list[int]) -> Game:
    g = _game(edition, dice=dice)
    positions.set_positions(g, g.units["A3"], WEST_OF_HATCHWAY_3)
    g.apply(Action("done"))  # Move Units: nothing moves
    _pass_offers(g)
    return g


@pytest.mark.parametrize("edition", BOTH)
def test_an_enemy_on_the_same_side_may_prevent_it_in_2023(edition: str):
    """2023 Operating Hatchways: "If there are any enemy models also within 1" of that Hatchway,
    their opponent can attempt to prevent them". 2024: "If there are any enemy units on the
    opposite side of and within 1" of that Hatchway". The Meganobz stand within 1" of the open
    Hatchway 3 on the Strike Squad's own side: a roll-off in 2023 (1 + 4 against 6 + 6: prevented),
    none in 2024 (it closes)."""
    g = _at_hatchways(edition, [1, 6] if edition == "2023" else [])
    positions.set_positions(g, g.units["B5"], [(16.0, 8.0), (14.3, 8.0), (12.6, 8.0)])
    assert g.bf.is_open(2) and not positions.engaged_with(g, g.units["A3"])
    events = g.apply(parse("hatch A3 3"))
    rolloff = [e for e in events if e["e"] == "hatch_rolloff"]
    if edition == "2023":
        assert rolloff and (rolloff[0]["roll"], rolloff[0]["enemy"]) == (5, 12) and g.bf.is_open(2)
    else:
        assert not rolloff and not g.bf.is_open(2)
    assert g.dice.pending == ()


@pytest.mark.parametrize("edition", BOTH)
def test_the_toughness_added_to_the_rolloff_is_capped_at_6_in_2023(edition: str):
    """2023: "each adding the Toughness characteristic of one of their models that is within 1" of
    that Hatchway to their respective scores (to a maximum of +6 each)". 2024: "each adding the
    Toughness characteristic of one of the models from their respective units" (no maximum).
    A Toughness 10 unit across the closed Hatchway 3: 6 + 4 = 10 against 1 + 6 = 7 opens it in
    2023; against 1 + 10 = 11 it stays closed in 2024."""
    g = _at_hatchways(edition, [6, 1])
    g.bf.set_open(2, False)
    kept.touch(g)
    positions.set_positions(g, g.units["B5"], [(18.9, 6.4), (20.4, 5.4), (20.4, 7.4)])
    g.units["B5"].T = 10  # a Dreadnought's Toughness
    events = g.apply(parse("hatch A3 3"))
    rolloff = next(e for e in events if e["e"] == "hatch_rolloff")
    if edition == "2023":
        assert (rolloff["roll"], rolloff["enemy"]) == (10, 7) and g.bf.is_open(2)
    else:
        assert (rolloff["roll"], rolloff["enemy"]) == (10, 11) and not g.bf.is_open(2)


BETWEEN_HATCHWAYS_3_AND_4 = [(18.7, 6.4), (19.8, 5.6), (20.9, 6.4), (19.8, 7.3), (19.8, 4.3)]


@pytest.mark.parametrize("edition", BOTH)
def test_one_unit_operates_two_hatchways_in_2023(edition: str):
    """2023: "that player can operate one or more of the Hatchways on the battlefield" (read: each
    Hatchway once, by any unit within 1"); 2024: "one or more units ... can attempt to operate one
    Hatchway each". The Strike Squad stands within 1" of Hatchways 3 (open) and 4 (closed): it
    closes the one and opens the other in 2023, operates only one in 2024; and no Hatchway is
    operated twice in a turn in 2023."""
    g = _at_hatchways(edition, [])
    positions.set_positions(g, g.units["A3"], BETWEEN_HATCHWAYS_3_AND_4)
    assert g.bf.is_open(2) and not g.bf.is_open(3)
    g.apply(parse("hatch A3 3"))
    _pass_offers(g)
    assert not g.bf.is_open(2)
    if edition == "2023":
        g.apply(parse("hatch A3 4"))
        _pass_offers(g)
        assert g.bf.is_open(3)
        with pytest.raises(IllegalAction, match="already been operated this turn"):
            g.check_as("hatch", "A", parse("hatch A3 3"))
    else:
        with pytest.raises(IllegalAction, match="already operated a Hatchway this turn"):
            g.check_as("hatch", "A", parse("hatch A3 4"))


# --- Hold Steady -----------------------------------------------------------------------------------


@pytest.mark.parametrize("steady", [True, False])
def test_hold_steady_hits_on_5s_when_firing_overwatch_in_2023(steady: bool):
    """2023 Set Overwatch, Hold Steady: "If a unit fires Overwatch while its unit is under the
    effects of such a rule, each time a model in that unit makes an attack, an unmodified hit roll
    of 5+ for that attack will score a hit, instead of just an unmodified hit roll of 6." The 2024
    book has no Hold Steady (Set Overwatch: "an unmodified Hit roll of 6 is required"). A rule that
    lets a unit Hold Steady is the effect ``overwatch_hit: 5`` (the vocabulary 2024 Detachment rules
    use for "5+"). A Strike Squad fires Overwatch at Nobz ending a move 15" away: 10 storm bolter
    attacks, all 5s: 10 hits holding steady, none otherwise."""
    g = _game("2023")
    if steady:
        holds = TypeAdapter(Effect).validate_python({"overwatch_hit": 5})  # as a data pack says it
        g.units["A4"].standing = (("a rule that lets it Hold Steady", holds),)
    _decline(g, "manoeuvre")
    g.apply(parse("manoeuvre A4 overwatch"))
    for _ in range(400):  # to player B's Move Units step, declining everything
        d = g.decision
        if d.step == "move" and d.player == "B":
            break
        g.apply(Action("done") if d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
                else Action("pass"))
    positions.set_positions(g, g.units["B3"], [(24.0, 15.0), (25.3, 14.3), (25.3, 15.7), (26.6, 14.3), (26.6, 15.7)])
    hits = 10 if steady else 0
    g.dice.feed([5] * 10 + [1] * hits)  # Hit rolls, then a failed Wound roll for each hit
    g.apply(parse("move B3 20,15"))
    assert g.decision.step == "overwatch" and g.decision.player == "A"
    events = g.apply(parse("overwatch A4 B3"))
    while g.decision.step in ("reroll", "command"):
        events += g.apply(Action("pass"))
    attack = next(e for e in events if e["e"] == "attack")
    assert (attack["attacks"], attack["hits"]) == (10, hits)
    assert g.dice.pending == ()


# --- Deployment ------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH)
def test_a_character_shares_an_entry_zone_only_in_2024(edition: str):
    """2024 Deployment: "a maximum of one unit without the CHARACTER keyword and a maximum of one
    unit with the CHARACTER keyword in each Entry Zone". The 2023 text has no Deployment
    adaptation: Deploy Armies (step 7) as written, "that player sets up one unit within that
    Entry Zone". The Chaplain joins the Strike Squad's Entry Zone in 2024 only."""
    g = _game(edition, deploy=DEPLOY[:4])
    act = parse("deploy A1 1")
    assert g.decision.step == "deploy" and g.decision.player == "A"
    if edition == "2024":
        g.check(act)
    else:
        with pytest.raises(IllegalAction, match="already has a unit"):
            g.check(act)
    assert (act in g.legal_actions()) is (edition == "2024")


@pytest.mark.parametrize("edition", BOTH)
def test_deep_strike_reserves_have_no_limit_in_2023(edition: str):
    """2024 Before the Battle, Deep Strike Ability: "at least half the units in a players army must
    be set up normally and cannot be placed into Reserves using this rule". The 2023 text has no
    such limit: three of the five Grey Knights units go into Reserves."""
    g = _game(edition, deploy=("role attacker", "deploy B3 1", "reserve A1", "deploy B4 2", "reserve A2",
                               "deploy B5 3"))
    act = parse("reserve A3")
    if edition == "2023":
        g.apply(act)
        assert g.units["A3"].deep_strike_reserve
    else:
        with pytest.raises(IllegalAction, match="at least half"):
            g.check(act)


@pytest.mark.parametrize("edition", BOTH)
def test_deep_strike_into_an_occupied_entry_zone_in_2023(edition: str):
    """2024 Deployment: "During the battle, you cannot set up a unit within an Entry Zone if any
    other unit is within that Entry Zone." No such rule in 2023: the Champion arrives by Deep
    Strike within the Entry Zone the Strike Squad stands in."""
    g = _game(edition)
    _decline(g, "reinforce")
    g.round = 2  # Deep Strike units arrive from the second battle round
    zone = g.map.layout.entry_zones_of("Attacker")[0]
    assert any(zone.within(m.base) for m in g.units["A3"].models)
    g.apply(parse("deepstrike A2 0.9,3.5"))
    a2 = g.units["A2"]
    assert a2.alive
    assert any(zone.within(m.base) for m in a2.models) is (edition == "2023")


# --- Tactical Manoeuvres and Secure Site -----------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH)
def test_a_unit_set_up_this_turn_may_perform_a_manoeuvre_in_2023(edition: str):
    """2024 Tactical Manoeuvres: "It must not have been set up on the battlefield this turn."
    2023: "It must be eligible to shoot" (and a unit that arrived this turn is). The Champion,
    arrived by Deep Strike, is Set to Defend in 2023 only."""
    g = _game(edition)
    _decline(g, "reinforce")
    g.round = 2
    g.apply(parse("deepstrike A2 10,2"))
    _decline(g, "manoeuvre")
    act = parse("manoeuvre A2 defend")
    if edition == "2023":
        g.check(act)
    else:
        with pytest.raises(IllegalAction, match="set up on the battlefield this turn"):
            g.check(act)


@pytest.mark.parametrize("edition", BOTH)
def test_a_manoeuvre_after_another_unit_has_shot_in_2023(edition: str):
    """2024 Tactical Manoeuvres: "At the start of your Shooting phase, you can select one or more
    units"; 2023: "In your Shooting phase, you can select one or more units" (read: at any point
    of it). Strike Squad B shoots the Nobz (ten 1s: every attack misses); then Strike Squad A is
    Set to Defend in 2023; in 2024 the moment has passed."""
    g = _game(edition)
    positions.set_positions(g, g.units["B3"], [(20.0, 15.0), (21.3, 14.3), (21.3, 15.7), (22.6, 14.3), (22.6, 15.7)])
    _decline(g, "shoot")
    g.dice.feed([1] * 10)
    g.apply(parse("shoot A4 B3 Storm bolter"))
    _pass_offers(g)
    assert g.decision.step == "shoot" and g.units["A4"].shot and g.dice.pending == ()
    act = parse("manoeuvre A3 defend")
    if edition == "2023":
        assert act in g.legal_actions()
        g.apply(act)
        assert g.units["A3"].set_to_defend
    else:
        with pytest.raises(IllegalAction, match="performed at its start"):
            g.check(act)


@pytest.mark.parametrize("edition", BOTH)
def test_a_secured_marker_is_lost_at_the_end_of_a_phase_in_2023(edition: str):
    """2023 Secure Site: "you continue to control it until the end of the battle, unless your
    opponent controls it at the end of any subsequent phase". 2024: Secured "until their opponent
    controls it at the start or end of any turn". Player A has Secured marker 1; the Meganobz
    stand on it at the end of a phase: lost in 2023, kept until the turn ends in 2024."""
    g = _game(edition)
    g.secured[0] = "A"
    positions.set_positions(g, g.units["B5"], [(22.0, 15.0), (23.6, 15.0), (20.4, 15.0)])
    control.update_control(g, turn_boundary=False)  # the end of a phase
    assert g.control[0] == ("B" if edition == "2023" else "A")
    control.update_control(g, turn_boundary=True)  # the end of the turn
    assert g.control[0] == "B"


# --- bagm play and bagm simulate with 2023 rosters ----------------------------------------------


def _cli(*args: str):
    from typer.testing import CliRunner

    from bagm.cli.app import app

    return CliRunner().invoke(app, list(args))


def test_bagm_play_and_replay_a_2023_game(tmp_path):
    log = tmp_path / "game.jsonl"
    r = _cli("play", "--mission", "11", str(GK), str(ORKS), "--seed", "3", "--bot", "greedy",
             "--format", "json", "--log", str(log))
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["edition"] == "2023" and out["winner"] in ("A", "B", None)
    assert any(n.startswith("2023 edition:") for n in out["not_modelled"])
    again = _cli("replay", str(log), "--format", "json")  # the log replays under the same rules
    assert again.exit_code == 0 and json.loads(again.stdout)["reproduced"], again.output
    text = _cli("play", "--mission", "11", str(GK), str(ORKS), "--seed", "3")
    assert text.exit_code == 0 and "Boarding Actions 2023 rules" in text.stdout


def test_bagm_simulate_2023_rosters():
    r = _cli("simulate", str(GK), str(ORKS), "--mission", "11", "--games", "2", "--jobs", "1",
             "--bot", "random", "--format", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["edition"] == "2023" and out["games"] == 2


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_bagm_refuses_rosters_of_two_editions(command: str):
    other = REPO / "rosters" / "orks_kaptin_killers.yaml"  # a 2024 roster
    args = ["--games", "1", "--jobs", "1"] if command == "simulate" else []
    r = _cli(command, "--mission", "11", str(GK), str(other), *args)
    assert r.exit_code == 2
    assert "different editions of Boarding Actions" in r.output and "is 2024" in r.output
    assert "Traceback" not in r.output


# --- Pile-in -------------------------------------------------------------------------------------


def _charged_and_hidden(edition: str) -> Game:
    """Player B (first turn) has charged the Strike Squad A3 with the Nobz B3; then, before B3
    fights, the middle corridor holds B3's one model, a Meganob of B5 (40mm, wider than the two
    32mm bases) just in front of it, and A3's models in a line behind: every line from B3's base
    to an A3 base passes through the Meganob, so A3 is not visible to B3, and B3 is not within
    Engagement Range of any enemy unit (2.3" from A3), but A3 is within the 3" of a Pile-in."""
    from conftest import place

    g = Game(11, _army("A", GK, edition), _army("B", ORKS, edition), dice=Dice.scripted([6, 6]),
             rolloffs={"attacker": "A", "first_turn": "B"})
    for text in DEPLOY:
        _decline(g)
        g.apply(parse(text))
    _decline(g)
    positions.set_positions(g, g.units["B3"], [(27.0, 14.3), (27.0, 15.6), (25.7, 14.3), (25.7, 15.6), (24.4, 14.95)])
    positions.set_positions(g, g.units["A3"], [(30.5, 14.3), (30.5, 15.6), (31.8, 14.3), (31.8, 15.6), (33.1, 14.95)])
    for _ in range(20):  # B's Movement and Shooting phases: nothing moves, nothing shoots
        if g.decision.step == "charge":
            break
        g.apply(Action("done" if g.decision.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot")
                       else "pass"))
    g.apply(parse("charge B3 A3"))  # 6 + 6: the Charge move ends in base contact
    g.apply(Action("done"))  # no other charge
    assert g.units["B3"].charged and g.decision.step == "fight" and g.decision.player == "B"
    place(g, "B3", [(30.0, 15.0)])
    place(g, "B5", [(31.45, 15.0)])
    place(g, "A3", [(34.18, 15.0), (35.48, 15.0), (36.78, 15.0)])
    b3, a3 = g.units["B3"], g.units["A3"]
    assert not sight.visible_idx(g, b3, a3) and not positions.engaged_with(g, b3) and fight.can_fight(g, b3)
    assert [a.text() for a in g.legal_actions()] == ["fight B3 A3"]
    return g


@pytest.mark.parametrize("edition", BOTH)
def test_a_pile_in_toward_a_unit_not_visible_only_in_2023(edition: str):
    """2024 Pile-in and Consolidation Moves: "Each time a model makes a Pile-in or Consolidation
    move: It cannot end that move within Engagement Range of a unit that was not visible to its
    own unit when it started that move." 2023 has the restriction for "Consolidation Moves"
    only ("Each time a model makes a consolidation move, it cannot end that move within
    Engagement Range of a model that was not visible to its unit when it started that move"):
    its Pile-in is the Core Rules' ("up to 3" ... must end that move closer to the closest enemy
    model", in base contact if it can). The Nobz that charged, hidden from the Strike Squad by a
    Meganob: in 2023 its model piles in 2.9" to base contact and fights (its Hit rolls come
    next); in 2024 it cannot end within Engagement Range of the Strike Squad, so it does not
    move and no model fights."""
    g = _charged_and_hidden(edition)
    g.dice = Dice.scripted([1, 1, 1])  # the Big choppa's three Hit rolls (2023)
    events = g.apply(parse("fight B3 A3"))
    b3, a3 = g.units["B3"], g.units["A3"]
    piled = [e for e in events if e["e"] == "pile_in"]
    if edition == "2023":
        assert piled and piled[0]["at"] == [[32.9, 15.0]] and positions.engaged(g, b3, a3)
        assert g.dice.pending == () and g.decision.step == "reroll"  # a Command Re-roll offer: it fought
        assert g.decision.info["what"] == "hit" and g.decision.info["unit"] == "B3"
    else:
        assert not piled and (b3.models[0].x, b3.models[0].y) == (30.0, 15.0) and not positions.engaged(g, b3, a3)
        assert [e.get("fighters") for e in events if e["e"] == "fight"] == [0]
        assert g.dice.pending == (1, 1, 1)  # no attack was made


# --- Flying ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH)
def test_the_move_of_a_flying_model_is_never_increased_in_2023(edition: str):
    """2023 Flying: "the Move characteristic of such models is reduced to a maximum of 9" and this
    cannot be increased for the duration of the battle". 2024: "if their Move characteristic is
    greater than 9", it is reduced to 9"" (and may be increased later). A Winged Tyranid Prime
    (FLY, Move 12" reduced to 9") given +2" by a rule: 11" in 2024, still 9" in 2023."""
    path = REPO / "rosters" / "tyranids_tyranid_attack.yaml"
    lines = [ln for ln in path.read_text().splitlines() if "enhancement:" not in ln]
    text = "\n".join(ln + (f"\nedition: {edition}" if ln.startswith("detachment:") else "") for ln in lines)
    army = build_army("A", load_roster(path, text + "\n"))
    prime = next(u for u in army.units if u.name.startswith("Winged Tyranid Prime"))
    swifter = TypeAdapter(Effect).validate_python({"M_mod": 2})
    prime.standing = (("a rule adding 2 inches to its Move", swifter),)
    assert prime.M == 9 and prime.move() == (9 if edition == "2023" else 11)


# --- property games under 2023 -------------------------------------------------------------------


@pytest.mark.parametrize("mission", PLAYABLE)
def test_2023_games_keep_the_invariants_and_the_2023_rules(mission: int):
    """A game of every playable mission under the 2023 rules (random bots; greedy on every third
    mission; the armies swap sides on even missions): the engine's invariants after every move,
    five battle rounds, and the 2023 rules as events show them: Battlefield Command only in the
    Command phase of the player using it, never Explosive Clearance."""
    import copy

    from bagm.engine.bots import make_bot
    from bagm.engine.log.record import bots_chooser

    first, second = (GK, ORKS) if mission % 2 else (ORKS, GK)
    bot = "greedy" if mission % 3 == 0 else "random"
    g = Game(mission, copy.deepcopy(_army("A", first, "2023")), copy.deepcopy(_army("B", second, "2023")), mission)
    assert g.edition is EDITION_2023
    choose = bots_chooser({"A": make_bot(bot, mission), "B": make_bot(bot, mission + 1)})
    for _ in until_finished(g):
        g.apply(choose(g))
        if g.decision.step in ("move", "over"):
            check_invariants(g)
    assert g.round == 5
    phase, active = None, None
    for e in g.events:
        if e["e"] == "phase":
            phase, active = e["phase"], e["player"]
        elif e["e"] == "stratagem":
            assert e["name"] != "Explosive Clearance"
            if e["name"] == "Battlefield Command":
                assert phase == "command" and e["player"] == active
