"""Moments and supplied Detachment Stratagems (Core Rules "Stratagems": WHEN, TARGET, EFFECT,
once per phase; Battle-shock: your Stratagems cannot affect the unit). A user supplies the
Stratagems in a data pack; the game offers each at its moment and applies its effects."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, advance_to, block, place, until_finished

from bagm.chance.dice import Dice
from bagm.data.packs import Catalog, data_dirs
from bagm.engine.attack.rules import Conditions
from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.game import fight, moments
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules.effects import effect_conditions
from bagm.engine.state.actions import Action, parse

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B2 1", "deploy A5 1"]
AIM = "{name: Sanctified Aim, cp: 1, category: Battle Tactic, when: selected_to_shoot, effects: [{attacks: ranged, hit_mod: 1}]}"
WARD = "{name: Psychic Ward, cp: 1, category: Battle Tactic, when: targeted, until: turn, effects: [{hit_against_mod: -1}]}"
ZEAL = "{name: Zeal, cp: 2, category: Strategic Ploy, when: phase_start, phase: fight, turn: yours, target_keywords: [INFANTRY], effects: [{fights_first: true}]}"


def pack(tmp_path: Path, *stratagems: str) -> Catalog:
    text = "faction: Grey Knights\ndetachments:\n  - name: Void Purge Force\n    stratagems:\n"
    text += "".join(f"      - {s}\n" for s in stratagems)
    (tmp_path / "gk.yaml").write_text(text, encoding="utf-8")
    return Catalog(data_dirs([tmp_path]))


def new_game(tmp_path: Path, *stratagems: str, cp: int | None = 3, seed: int = 7) -> Game:
    a = build_army("A", GK, pack(tmp_path, *stratagems))
    g = Game(11, a, build_army("B", ORKS), dice=Dice(seed), rolloffs={"attacker": "A", "first_turn": "A"})
    for t in DEPLOY:
        g.apply(parse(t))
    if cp is not None:
        g.cp.update({"A": cp, "B": cp})
    return g


def facing(g: Game) -> None:
    """A3 (Strike Squad) and B3 a few inches apart in the open, near marker 1."""
    mk = g.map.layout.markers[0]
    place(g, "A3", block(mk.x - 3, mk.y))
    place(g, "B3", block(mk.x + 3, mk.y, dx=1.4))


def shoot_b3(g: Game) -> Action:
    return next(a for a in g.legal_actions() if a.kind == "shoot" and a.unit == "A3" and a.target == "B3")


def test_use_action_text_round_trips():
    a = parse("use A3 Sanctified Aim")
    assert a == Action("use", "A3", arg="Sanctified Aim") and a.text() == "use A3 Sanctified Aim"


def test_a_selected_to_shoot_stratagem_is_offered_paid_applied_and_ends_with_the_phase(tmp_path):
    g = new_game(tmp_path, AIM)
    facing(g)
    advance_to(g, "shoot")
    g.apply(shoot_b3(g))
    # WHEN: just after the unit has been selected to shoot; TARGET: that unit
    d = g.decision
    assert (d.step, d.player, d.info) == ("use", "A", {"timing": "selected_to_shoot", "unit": "A3"})
    assert [a.text() for a in g.legal_actions()] == ["use A3 Sanctified Aim", "pass"]
    with pytest.raises(IllegalAction):
        g.apply(parse("use A4 Sanctified Aim"))  # the unit the moment is about, only
    cp = g.cp["A"]
    g.apply(parse("use A3 Sanctified Aim"))
    a3 = g.units["A3"]
    assert g.cp["A"] == cp - 1 and [n for n, _, _ in a3.timed] == ["Sanctified Aim"]
    gun = a3.ranged[0]
    assert effect_conditions(a3, g.units["B3"], gun, Conditions()).hit_mod == 1
    assert any(e["e"] == "effect" and e["rule"] == "Sanctified Aim" for e in g.events)
    advance_to(g, "charge")
    assert not a3.timed  # until the end of the phase
    assert any(e["e"] == "effect_ends" and e["unit"] == "A3" for e in g.events)


def test_once_per_phase_and_enough_cp(tmp_path):
    g = new_game(tmp_path, AIM)
    facing(g)
    place(g, "A4", block(g.map.layout.markers[0].x - 5, g.map.layout.markers[0].y))
    advance_to(g, "shoot")
    g.cp["A"] = 1
    g.apply(shoot_b3(g))
    g.apply(parse("use A3 Sanctified Aim"))
    assert g.cp["A"] == 0
    assert g.decision.step != "use"  # not offered again: no CP, and once per phase
    g.cp["A"] = 5
    assert moments.usable(g, "A", "selected_to_shoot", "A4") == []  # once per phase (Core Rules)


def test_a_battleshocked_unit_is_never_a_target(tmp_path):
    g = new_game(tmp_path, AIM)
    facing(g)
    advance_to(g, "shoot")
    g.units["A3"].battleshocked = False
    assert moments.usable(g, "A", "selected_to_shoot", "A3")
    g.units["A3"].battleshocked = True
    assert moments.usable(g, "A", "selected_to_shoot", "A3") == []


def test_a_targeted_stratagem_goes_to_the_defender_and_lasts_the_turn(tmp_path):
    g = new_game(tmp_path, WARD)
    facing(g)
    advance_to(g, "shoot")
    g.apply(shoot_b3(g))
    assert g.decision.step != "use"  # the Orks (B) supplied none; A's Ward is for its own units
    # B's turn: the Orks shoot A3 and A may use Psychic Ward on it
    advance_to(g, "shoot", "B")
    shots = [a for a in g.legal_actions() if a.kind == "shoot" and a.target == "A3"]
    if not shots:
        pytest.skip("no Ork unit can shoot A3 from where they stand")
    g.apply(shots[0])
    assert (g.decision.step, g.decision.player, g.decision.info) == \
        ("use", "A", {"timing": "targeted", "unit": "A3"})
    g.apply(parse("use A3 Psychic Ward"))
    assert g.units["A3"].timed[0][2] == "turn"
    advance_to(g, "charge", "B")
    assert g.units["A3"].timed  # until the end of the turn, past the Shooting phase


def test_a_phase_start_stratagem_with_phase_turn_and_keywords(tmp_path):
    g = new_game(tmp_path, ZEAL)
    advance_to(g, "use")  # the first moment it can be used: the start of A's Fight phase
    while g.phase != "fight" and not any(a.arg == "Zeal" for a in g.legal_actions()):
        g.apply(parse("pass"))  # an Enhancement used at another moment (Sigil of Warding)
        advance_to(g, "use")
    assert g.phase == "fight" and g.active == "A" and g.decision.info == {"timing": "phase_start"}
    legal = {a.unit for a in g.legal_actions() if a.kind == "use"}
    assert legal == {u.uid for u in g.army_units("A") if "INFANTRY" in u.keywords}
    cp = g.cp["A"]
    g.apply(parse(f"use {sorted(legal)[0]} Zeal"))
    assert fight.fights_first(g.units[sorted(legal)[0]])
    assert g.cp["A"] == cp - 2


def test_notes_list_what_is_not_supplied_or_not_modelled(tmp_path):
    army = build_army("B", ORKS)
    assert any("Detachment Stratagems of" in n and "none supplied" in n for n in army.not_modelled)
    roll = "{name: Grim Roll, cp: 1, category: Epic Deed, when: after_roll, effects: [{hit_mod: 1}]}"
    blank = "{name: Unknown Card, cp: 1, category: Epic Deed, when: targeted}"
    a = build_army("A", GK, pack(tmp_path, AIM, roll, blank))
    assert [s.name for s in a.uses if s.stratagem] == ["Sanctified Aim"]  # (and Sigil of Warding, an Enhancement)
    notes = " ".join(a.not_modelled)
    assert "'Grim Roll'" in notes and "after_roll" in notes and "'Unknown Card'" in notes


@pytest.mark.parametrize("timing", ["phase_start", "selected_to_shoot", "targeted"])
def test_a_clone_at_a_moment_plays_on_alike(tmp_path, timing):
    # at the phase windows a clone copies the state; in the middle of shooting it replays
    for seed in range(1, 30):
        g = new_game(tmp_path, AIM, WARD, ZEAL, cp=None, seed=seed)
        bot = GreedyBot()
        while g.decision.step != "over" and not (g.decision.step == "use" and g.decision.info["timing"] == timing):
            g.apply(bot(g))
        if g.decision.step == "use":
            break
    else:
        pytest.fail(f"no greedy game reached a {timing} moment")
    c = g.clone()
    assert c.decision == g.decision and c.legal_actions() == g.legal_actions()
    act = g.legal_actions()[0]
    for x in (g, c):
        x.apply(act)
    assert c.units[act.unit].timed == g.units[act.unit].timed and c.cp == g.cp
    assert c.events[-5:] == g.events[-5:]


def test_greedy_games_with_supplied_stratagems_use_them(tmp_path):
    g = new_game(tmp_path, AIM, WARD, ZEAL)
    bot = GreedyBot()
    for _ in until_finished(g):
        g.apply(bot(g))
    used = [e["rule"] for e in g.events if e["e"] == "effect"]
    rules = {x.name for p in ("A", "B") for x in g.armies[p].uses if not x.stratagem}  # Enhancements'
    assert used and set(used) <= {"Sanctified Aim", "Psychic Ward", "Zeal"} | rules
    assert {"Sanctified Aim", "Psychic Ward", "Zeal"} & set(used)


def test_a_game_without_supplied_stratagems_asks_only_for_its_rules_used_at_a_moment(tmp_path):
    g = Game(11, build_army("A", GK), build_army("B", ORKS), dice=Dice(3))
    bot = GreedyBot()
    for _ in until_finished(g):
        if g.decision.step == "use":  # an Enhancement's moment (Sigil of Warding, Gnasher Squig Crates)
            assert all(a.kind == "pass" or not next(x for x in g.armies[g.decision.player].uses
                                                    if x.name == a.arg).stratagem for a in g.legal_actions())
        g.apply(bot(g))


def rule_game(tmp_path: Path, detachment: str) -> Game:
    (tmp_path / "gk.yaml").write_text("faction: Grey Knights\ndetachments:\n  - name: Void Purge Force\n"
                                      + detachment, encoding="utf-8")
    a = build_army("A", GK, Catalog(data_dirs([tmp_path])))
    g = Game(11, a, build_army("B", ORKS), dice=Dice(7), rolloffs={"attacker": "A", "first_turn": "A"})
    for t in DEPLOY:
        g.apply(parse(t))
    return g


def test_an_enhancement_used_once_per_battle_on_its_bearers_unit_only(tmp_path):
    # e.g. "Once per battle, when the bearer's unit is selected as the target of one or more
    # attacks ... until the end of the phase, the bearer has a 3+ invulnerable save"
    g = rule_game(tmp_path, "    enhancements:\n      - {name: Sigil of Warding, moments: [{when: targeted, "
                            "effects: [{invuln: 3}]}]}\n      - {name: Tactical Haruspexy}\n")
    bearer = next(u for u in g.army_units("A") if u.enhancement == "Sigil of Warding")
    assert not any("Sigil of Warding" in n for n in g.armies["A"].not_modelled)
    other = next(u for u in g.army_units("A") if u is not bearer)
    assert moments.usable(g, "A", "targeted", other.uid) == []
    assert moments.usable(g, "A", "targeted", bearer.uid) == [Action("use", bearer.uid, arg="Sigil of Warding")]
    bearer.battleshocked = True  # not a Stratagem: Battle-shock does not stop it
    assert moments.usable(g, "A", "targeted", bearer.uid)
    cp = dict(g.cp)
    moments.use_rule(g, "A", Action("use", bearer.uid, arg="Sigil of Warding"))
    assert g.cp == cp  # free
    from bagm.engine.rules.effects import effect_defence
    assert effect_defence(bearer)[0] == 3
    assert moments.usable(g, "A", "targeted", bearer.uid) == []  # once per battle
    moments.end_timed(g, "phase")
    assert effect_defence(bearer)[0] == bearer.invuln
    assert any(e["e"] == "rule_used" and e["kind"] == "Enhancement" for e in g.events)


def test_a_detachment_rule_used_once_per_battle_at_the_start_of_your_command_phase(tmp_path):
    g = rule_game(tmp_path, "    rule_moments: [{when: phase_start, phase: command, turn: yours, once: battle, "
                            "until: turn, target_keywords: [INFANTRY], effects: [{OC_mod: 1}]}]\n")
    assert not any("Detachment rule" in n for n in g.armies["A"].not_modelled)
    advance_to(g, "use")
    assert g.phase == "command" and g.active == "A" and g.round == 1
    act = next(a for a in g.legal_actions() if a.kind == "use")
    u = g.units[act.unit]
    oc = u.oc()
    g.apply(act)
    assert u.oc() == oc + 1 and g.decision.step != "use"  # once: no second unit
    advance_to(g, "move", "B")
    assert u.oc() == oc  # until the end of the turn
    for _ in range(400):  # never offered again in the battle
        d = g.decision
        if d.step == "over":
            break
        if d.step == "use":  # only an Enhancement's moment (Sigil of Warding), never the rule again
            offered = {a.arg for a in g.legal_actions()}
            assert not any(x.kind == "Detachment rule" and x.name in offered for x in g.armies["A"].uses)
        g.apply(GreedyBot()(g))
