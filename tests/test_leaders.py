"""Leaders in Boarding Actions: the Battlefield Command Stratagem and Peerless Leader, with
scripted dice (every scripted roll consumed)."""

from __future__ import annotations

import copy
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from conftest import REPO, advance_to, block, declined, place, until_finished, without_rules

from bagm.chance.dice import Dice, DiceExpr
from bagm.data.models import Effect, Leader, LeaderAbility, WeaponAbility
from bagm.data.schema import validate
from bagm.data.weapons import Abilities, WeaponProfile
from bagm.engine.attack.rules import (
    AttackProfile,
    Conditions,
    Reroll,
    Target,
    critical_hit_on,
)
from bagm.engine.attack.sequence import resolve
from bagm.engine.game import charge, control, fight, hazardous, kept, positions, shooting
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules import leaders
from bagm.engine.rules.effects import (
    effect_conditions,
    effect_defence,
    effect_fnp_mortal,
    effect_weapon,
)
from bagm.engine.rules.leaders import not_modelled_notes
from bagm.engine.state.actions import ActionSyntaxError, parse

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B2 1", "deploy A5 1"]
ZEALOUS = {"name": "Zealous Path", "effects": [
    {"attacks": "melee", "hit_mod": 1, "weapon_abilities": [{"name": "lethal hits"}]}]}
WARDED = {"name": "Warded", "effects": [{"fnp": 5, "hit_against_mod": -1}]}
UNMODELLED = {"name": "Litanies of Sanctity"}


@cache
def _armies() -> tuple:
    # without the two armies' Detachment rules: the rules under test alone
    return build_army("A", GK, without_rules()), build_army("B", ORKS, without_rules())


def leader(**data: Any) -> Leader:
    return validate(Leader, data)


def new_game(dice: list[int] | None = None, lead: Leader | None = None, enhancement: str | None = None,
             cp: dict[str, int] | None = None) -> Game:
    """GK (A) against Orks (B); A1, the Brotherhood Chaplain, leads Strike and Purifier Squads."""
    a, b = (copy.deepcopy(x) for x in _armies())
    chaplain = a.units[0]
    ds = copy.copy(chaplain.datasheet)
    ds.leader = lead or leader(bodyguards=["Strike Squad", "Purifier Squad"],
                               abilities=[ZEALOUS, WARDED, UNMODELLED])
    chaplain.datasheet = ds
    if enhancement is not None:
        chaplain.enhancement = enhancement
    g = Game(11, a, b, dice=Dice.scripted(dice or []), rolloffs={"attacker": "A", "first_turn": "A"})
    if cp:
        g.cp.update(cp)
    g.leaders["B"] = []  # the Orks' own Leaders stay out of these tests
    return g


def play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(parse(t))


def to_window(g: Game) -> None:
    """Deploy; A's Command phase gains 1CP (the start-of-phase window has none to spend)."""
    play(g, *DEPLOY)
    assert g.decision.step == "command" and g.decision.player == "A"
    assert g.phase == "command" and g.cp["A"] == 1


# --- the window and the Stratagem ------------------------------------------------------------


def test_window_at_the_end_of_the_command_phase_lists_modelled_abilities_only():
    g = new_game()
    to_window(g)
    legal = [a.text() for a in g.legal_actions()]
    assert "command A1 A3 Zealous Path" in legal and "command A1 A3 Warded" in legal
    assert not any("Litanies" in t for t in legal)  # no modelled effect: never offered
    assert not any(" A2 " in t for t in legal)  # the Champion is no Bodyguard of the Chaplain
    assert legal[-1] == "pass"


def test_only_leaders_with_a_unit_of_their_army_to_lead_are_looked_at():
    # the Brotherhood Chaplain leads Terminator and Paladin Squads: the army has neither, so its
    # windows never look at it; the Brotherhood Champion leads the army's Strike Squads
    a, b = (x.clone() for x in _armies())
    g = Game(11, a, b, rolloffs={"attacker": "A", "first_turn": "A"})
    assert [u.uid for u in g.leaders["A"]] == ["A2"]
    assert leaders.commanders([g.units["A1"], g.units["A5"]]) == []
    assert [u.uid for u in leaders.commanders(g.armies["B"].units)] == ["B1", "B2"]
    assert [u.uid for u in new_game().leaders["A"]] == ["A1", "A2"]  # this Chaplain leads Strike Squads


def test_battlefield_command_costs_1cp_and_confers_the_ability_until_the_next_command_phase():
    g = new_game()
    to_window(g)
    play(g, "command A1 A3 Zealous Path")
    a1, a3 = g.units["A1"], g.units["A3"]
    assert g.cp["A"] == 0 and a3.led[1] == "Zealous Path" and a1.led is None  # not the Leader itself
    ev = [e for e in g.events if e["e"] == "battlefield_command"][-1]
    assert ev == {"e": "battlefield_command", "leader": "A1", "unit": "A3", "ability": "Zealous Path",
                  "peerless": False}
    assert g.decision.step == "move"  # A has no CP left: no window at the start of Movement
    leaders.end_command(g, "A")  # the start of A's next Command phase
    assert a3.led is None and not a1.commanded and not a3.commanded


def test_no_window_without_cp_and_units_in_range():
    g = new_game(cp={"A": -1})  # A will have 0CP after the Command step
    play(g, *DEPLOY)
    assert g.decision.step == "move"


def test_once_per_phase_and_once_per_unit_until_the_next_command_phase():
    g = new_game(cp={"A": 5})
    play(g, *DEPLOY, "command A1 A3 Warded")
    # the Stratagem was used this phase, and A1 and A3 were targeted: nothing more now
    with pytest.raises(IllegalAction) as e:
        g.check_as("command", "A", parse("command A1 A4 Zealous Path"))
    assert "already targeted" in str(e.value) or "this phase" in str(e.value)
    assert leaders.legal_command(g, "A") == []
    g.phase_id += 1  # a new phase: A1 was still targeted since the last Command phase
    with pytest.raises(IllegalAction) as e:
        g.check_as("command", "A", parse("command A1 A4 Zealous Path"))
    assert e.value.rule == "Battlefield Command Stratagem (Restrictions)"


def test_bodyguard_must_be_within_6_inches_and_one_the_leader_could_join():
    g = new_game(cp={"A": 5})
    play(g, *DEPLOY)
    a1, a3 = g.units["A1"], g.units["A3"]
    x = a1.models[0].x
    positions.set_positions(g, a3, [(m.x + 30 if m.x < 30 else m.x - 30, m.y) for m in a3.models])
    kept.touch(g)
    if positions.unit_distance(g, a1, a3) <= 6:  # pragma: no cover - the layout keeps them apart
        pytest.skip("could not move A3 away")
    with pytest.raises(IllegalAction) as e:
        g.check_as("command", "A", parse("command A1 A3 Warded"))
    assert "within 6" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        g.check_as("command", "A", parse("command A1 A1 Warded"))  # the Leader itself: never
    assert "could not normally be attached" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        g.check_as("command", "A", parse("command A1 A4 Litanies of Sanctity"))
    assert "does not model" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        g.check_as("command", "A", parse("command A1 A4 Nonsense"))
    assert "no Leader ability 'Nonsense'" in str(e.value)
    assert x == a1.models[0].x


def test_battle_shocked_units_cannot_be_targeted():
    g = new_game(cp={"A": 5})
    play(g, *DEPLOY)
    g.units["A4"].battleshocked = True
    assert not any(a.target == "A4" for a in leaders.legal_command(g, "A"))
    with pytest.raises(IllegalAction) as e:
        g.check_as("command", "A", parse("command A1 A4 Warded"))
    assert e.value.rule == "Battle-shock"


def test_peerless_leader_is_free_once_per_battle_round_even_after_another_use():
    g = new_game(enhancement="Peerless Leader", cp={"A": -1})  # 0CP after the Command step
    play(g, *DEPLOY)
    assert g.decision.step == "command"  # free: offered with 0CP
    play(g, "command A1 A3 Zealous Path")
    assert g.cp["A"] == 0 and g.peerless_round["A1"] == 1
    assert [e["peerless"] for e in g.events if e["e"] == "battlefield_command"] == [True]
    # the next battle round, after its Command phase: free again, even once the Stratagem was used
    leaders.end_command(g, "A")
    g.round = 2
    g.used.add(("A", "Battlefield Command", g.phase_id))
    g.check_as("command", "A", parse("command A1 A3 Warded"))
    g.round = 1  # the same battle round: no longer free, and the Stratagem was used this phase
    with pytest.raises(IllegalAction) as e:
        g.check_as("command", "A", parse("command A1 A3 Warded"))
    assert "already used this phase" in str(e.value)


def test_command_action_text_form():
    a = parse("command A1 A3 Zealous Path")
    assert (a.unit, a.target, a.arg) == ("A1", "A3", "Zealous Path") and a.text() == "command A1 A3 Zealous Path"
    with pytest.raises(ActionSyntaxError):
        parse("command A1 A3")


# --- the effects in the attack sequence ---------------------------------------------------------

WEAPON = WeaponProfile("Test blade", True, DiceExpr(0, 6, 2), 3, 4, 0, DiceExpr(0, 6, 1))
GUN = WeaponProfile("Test gun", False, DiceExpr(0, 6, 2), 3, 4, 0, DiceExpr(0, 6, 1), range=24)


def test_effects_change_only_the_attacks_they_name():
    g = new_game(cp={"A": 5})
    play(g, *DEPLOY, "command A1 A3 Zealous Path")
    a3, b3 = g.units["A3"], g.units["B3"]
    w = effect_weapon(a3, WEAPON)
    assert w.abilities.lethal_hits and not WEAPON.abilities.lethal_hits
    assert effect_conditions(a3, b3, w, Conditions()).hit_mod == 1
    assert effect_weapon(a3, GUN) is GUN  # melee only
    assert effect_conditions(a3, b3, GUN, Conditions()) == Conditions()
    assert effect_weapon(g.units["A4"], WEAPON) is WEAPON  # not led


def test_characteristics_rerolls_and_defence():
    lead = leader(bodyguards=["Strike Squad"], abilities=[
        {"name": "All of it", "effects": [
            {"A_mod": 1, "S_mod": 1, "AP_mod": -1, "D_mod": 1, "reroll_hits": "ones",
             "reroll_wounds": "failed", "wound_mod": 1, "weapon_abilities": [{"name": "sustained hits", "value": 1}],
             "invuln": 4, "fnp": 6, "wound_against_mod": -1}]}])
    g = new_game(lead=lead, cp={"A": 5})
    play(g, *DEPLOY, "command A1 A3 All of it")
    a3, b3 = g.units["A3"], g.units["B3"]
    w = effect_weapon(a3, GUN)
    assert (w.attacks.bonus, w.strength, w.ap, w.damage.bonus) == (3, 5, -1, 2)
    assert w.abilities.sustained_hits == DiceExpr(0, 6, 1)
    c = effect_conditions(a3, b3, w, Conditions(reroll_wounds=Reroll.ones))
    assert (c.reroll_hits, c.reroll_wounds, c.wound_mod) == (Reroll.ones, Reroll.failed, 1)
    # attacks that target the led unit: -1 to wound; the better invulnerable save; Feel No Pain
    assert effect_conditions(b3, a3, WEAPON, Conditions()).wound_mod == -1
    assert effect_defence(a3) == (4, 6)
    assert effect_defence(g.units["A4"]) == (None, None)  # not led: its own characteristics


def test_feel_no_pain_is_rolled_for_a_led_unit():
    """B3 shoots A3 (warded: Feel No Pain 5+, -1 to be hit): every scripted roll is used."""
    g = new_game(cp={"A": 5})
    play(g, *DEPLOY, "command A1 A3 Warded")
    a3, b3 = g.units["A3"], g.units["B3"]
    # 2 attacks; hit rolls 4 (3+, -1: hits on 4+) and 3 (misses); wound roll 6; save 1; FNP 5: saved
    g.dice = Dice.scripted([4, 3, 6, 1, 5])
    lost, destroyed = declined(shooting.attack(g, b3, a3, GUN, 1, Conditions(), None, ranged=True))
    assert (lost, destroyed) == (0, 0)
    g.dice.assert_consumed()
    # without the ability both hit (3+); wound rolls 6 and 1; the save roll of 1 fails
    a4 = g.units["A4"]
    g.dice = Dice.scripted([4, 3, 6, 1, 1])
    lost, _ = declined(shooting.attack(g, b3, a4, GUN, 1, Conditions(), None, ranged=True))
    assert lost == 1
    g.dice.assert_consumed()


# --- what a game says --------------------------------------------------------------------------


def test_leader_abilities_without_effects_are_listed_as_not_modelled():
    ds = copy.copy(_armies()[0].units[0].datasheet)
    ds.leader = leader(bodyguards=["Strike Squad"], abilities=[ZEALOUS, UNMODELLED])
    notes = not_modelled_notes(ds)
    assert notes == ["Brotherhood Chaplain: Leader ability 'Litanies of Sanctity' has no modelled effect "
                     "(Battlefield Command cannot confer it)"]
    assert isinstance(ds.leader.abilities[0].effects[0], Effect)


def test_bots_use_it_and_games_stay_deterministic():
    from bagm.engine.bots import make_bot

    def run(seed: int) -> list[dict]:
        g = new_game(cp={"A": 3})
        g.dice = Dice(seed)
        bots = {"A": make_bot("greedy"), "B": make_bot("greedy")}
        for _ in until_finished(g):
            g.apply(bots[g.decision.player](g))
        return g.events
    first = run(5)
    assert any(e["e"] == "battlefield_command" for e in first)
    assert first == run(5)


# --- effects outside the attack sequence, and Feel No Pain against some wounds -----------------


def led_game(*effects: dict[str, Any], cp: int = 5) -> Game:
    """A1 (the Chaplain) has conferred an ability with ``effects`` on A3 in A's first Command
    phase; the game waits in A's Movement phase."""
    lead = leader(bodyguards=["Strike Squad", "Purifier Squad"],
                  abilities=[{"name": "Test", "effects": list(effects)}])
    g = new_game(lead=lead, cp={"A": cp})
    play(g, *DEPLOY, "command A1 A3 Test")
    advance_to(g, "move")
    return g


DEVASTATING = WeaponProfile("Test rifle", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1),
                            abilities=Abilities.from_data([validate(WeaponAbility, {"name": "devastating wounds"})]),
                            range=24)
PSYCHIC = replace(GUN, name="Test psychic gun", abilities=Abilities(psychic=True))
HAZARDOUS = replace(GUN, name="Test hazardous gun", attacks=DiceExpr(0, 6, 1), abilities=Abilities(hazardous=True))


def test_feel_no_pain_against_mortal_wounds_devastating_wounds_and_hazardous():
    g = led_game({"fnp_mortal": 4})
    a3, a4, b3 = g.units["A3"], g.units["A4"], g.units["B3"]
    assert effect_fnp_mortal(a3) == 4 and effect_fnp_mortal(a4) is None and effect_defence(a3) == (None, None)
    # Devastating Wounds: hit 4, wound 6 (a Critical Wound: 1 mortal wound); Feel No Pain 4: not lost
    g.dice = Dice.scripted([4, 6, 4])
    assert declined(shooting.attack(g, b3, a3, DEVASTATING, 1, Conditions(), None, ranged=True)) == (0, 0)
    g.dice.assert_consumed()
    # a normal wound: hit 4, wound 4, save 1; no Feel No Pain roll against normal damage
    g.dice = Dice.scripted([4, 4, 1])
    assert declined(shooting.attack(g, b3, a3, replace(DEVASTATING, abilities=Abilities()), 1, Conditions(), None,
                     ranged=True)) == (1, 0)
    g.dice.assert_consumed()
    # the same Devastating Wound against a unit not led: lost
    g.dice = Dice.scripted([4, 6])
    assert declined(shooting.attack(g, b3, a4, DEVASTATING, 1, Conditions(), None, ranged=True)) == (1, 0)
    g.dice.assert_consumed()
    # Hazardous: the led unit's own weapon; hit 1 (miss); after all its attacks the test fails
    # (3 mortal wounds), each one rolled for (4, 6 not lost; 2 lost)
    g.dice = Dice.scripted([1, 1, 4, 6, 2])
    before = sum(m.wounds for m in a3.models)
    declined(shooting.attack(g, a3, b3, HAZARDOUS, 1, Conditions(), None, ranged=True))
    a3.hazard = (HAZARDOUS.name,)  # the test the unit owes for the weapon it used
    declined(hazardous.take_hazardous(g, a3))
    assert sum(m.wounds for m in a3.models) == before - 1
    assert any(e["e"] == "hazardous" and e["unit"] == "A3" for e in g.events)
    g.dice.assert_consumed()


def test_feel_no_pain_against_psychic_attacks_only():
    g = led_game({"fnp_psychic": 4})
    a3, b3 = g.units["A3"], g.units["B3"]
    assert effect_defence(a3, PSYCHIC) == (None, 4) and effect_defence(a3, GUN) == (None, None)
    # a [PSYCHIC] weapon: 2 attacks hit (4, 4), wound (4, 4), saves fail (1, 1); FNP 4 and 3
    g.dice = Dice.scripted([4, 4, 4, 4, 1, 4, 1, 3])
    assert declined(shooting.attack(g, b3, a3, PSYCHIC, 1, Conditions(), None, ranged=True)) == (1, 0)
    g.dice.assert_consumed()
    # any other weapon: no Feel No Pain roll
    g.dice = Dice.scripted([4, 4, 4, 4, 1, 1])
    assert declined(shooting.attack(g, b3, a3, GUN, 1, Conditions(), None, ranged=True)) == (2, 1)
    g.dice.assert_consumed()


def test_critical_hits_on_5_plus_for_the_attacks_it_names():
    g = led_game({"attacks": "melee", "crit_hit": 5})
    a3, b3 = g.units["A3"], g.units["B3"]
    lethal = WEAPON.with_abilities(lethal_hits=True)
    cond = effect_conditions(a3, b3, lethal, Conditions())
    assert cond.critical_hit == 5 and critical_hit_on(lethal, cond) == 5
    assert critical_hit_on(lethal, replace(cond, overwatch=True)) == 6  # Overwatch: only a 6
    assert effect_conditions(a3, b3, GUN, Conditions()) == Conditions()  # melee only
    assert effect_conditions(g.units["A4"], b3, lethal, Conditions()) == Conditions()  # not led
    # two attacks, hit rolls 5 and 5: Critical Hits, so Lethal Hits wound automatically (no save)
    target = Target(toughness=4, save=7, wounds=10)
    g.dice = Dice.scripted([5, 5])
    res = resolve(AttackProfile(lethal, 1, cond), target, g.dice)
    assert (res.critical_hits, res.wounds, res.wounds_lost) == (2, 2, 2)
    g.dice.assert_consumed()
    g.dice = Dice.scripted([5, 5, 6, 6])  # without it: plain hits, then wound rolls
    assert resolve(AttackProfile(lethal, 1, Conditions()), target, g.dice).critical_hits == 0
    g.dice.assert_consumed()


def test_objective_control_modifier_and_its_end():
    g = led_game({"OC_mod": 1})
    a1, a3, b3 = g.units["A1"], g.units["A3"], g.units["B3"]
    assert (a3.oc(), a1.oc(), g.units["A4"].oc()) == (3, 1, 2)  # the Leader itself: unchanged
    mk = g.map.layout.markers[0]
    place(g, "A3", [(mk.x - 1.2, mk.y), (mk.x - 1.2, mk.y + 1.4)])
    place(g, "B3", [(mk.x + 1.2, mk.y)])
    b3.OC = 5
    # A: 2 models x OC 3 = 6 against B: 1 model x OC 5
    assert control.levels_of_control(g)[0] == {"A": 6, "B": 5}
    control.update_control(g, False)
    assert g.control[0] == "A"
    a3.battleshocked = True  # Battle-shock: OC 0, modifiers or not
    assert a3.oc() == 0
    control.update_control(g, False)
    assert g.control[0] == "B"
    a3.battleshocked = False
    leaders.end_command(g, "A")  # the start of A's next Command phase: the ability ends
    assert a3.oc() == 2
    control.update_control(g, False)
    assert g.control[0] == "B" and control.levels_of_control(g)[0] == {"A": 4, "B": 5}


def test_fights_first_for_the_led_unit_only():
    g = led_game({"fights_first": True})
    a1, a3, a4 = g.units["A1"], g.units["A3"], g.units["A4"]
    assert fight.fights_first(a3) and not fight.fights_first(a1) and not fight.fights_first(a4)
    place(g, "A3", block(14))
    place(g, "B3", block(15.6, dx=1.4))  # engaged: bases 0.2" apart
    assert positions.engaged(g, a3, g.units["B3"])
    # B, whose turn it is not, would select first, but B3 neither charged nor has Fights First
    advance_to(g, "fight")
    assert g.decision.info["fights_first"] and g.phase == "fight"
    assert [a.text() for a in g.legal_actions()] == ["fight A3 B3"]
    assert fight.legal_fight(g, "B") == []
    g.dice = Dice(1)
    play(g, "fight A3 B3")
    while g.decision.step == "reroll":  # Command Re-roll offers inside the attacks: declined
        play(g, "pass")
    if g.units["B3"].alive:  # then the Remaining Combats step
        assert g.decision.step == "fight" and not g.decision.info["fights_first"]


def test_charge_bonus_and_a_free_reroll():
    g = led_game({"charge_mod": 1, "reroll_charge": True}, cp=0)
    place(g, "A3", block(14))
    place(g, "B3", block(20, dx=1.4))
    play(g, "hold A3")
    advance_to(g, "charge")
    assert g.cp["A"] == 0  # no CP: no Command Re-roll, the ability's re-roll is free
    # 1 + 1 + 1 = 3 fails; the free re-roll 1 + 2 + 1 = 4 succeeds
    g.dice = Dice.scripted([1, 1, 1, 2])
    play(g, "charge A3 B3")
    assert g.decision.step == "reroll" and g.decision.info["free"]
    need = positions.unit_distance(g, g.units["A3"], g.units["B3"]) - 1.0  # to Engagement Range
    assert 3 < need <= 4
    # what the dice need: the distance less the bonus
    assert (g.decision.info["roll"], g.decision.info["needed"]) == (2, round(need - 1, 2))
    play(g, "reroll")
    assert [e["roll"] for e in g.events if e["e"] == "charge_roll"] == [3, 4]
    assert g.units["A3"].charged and g.cp["A"] == 0
    assert [e["what"] for e in g.events if e["e"] == "leader_reroll"] == ["charge"]
    g.dice.assert_consumed()


def test_advance_bonus_free_reroll_and_move():
    g = led_game({"M_mod": 2, "advance_mod": 1, "reroll_advance": True}, cp=0)
    a1, a3, a4 = g.units["A1"], g.units["A3"], g.units["A4"]
    assert (a3.move(), a3.M, a4.move(), a1.move()) == (8, 6, 6, 5)
    g.dice = Dice.scripted([1, 3])
    play(g, "advance A3 40,15")
    assert g.decision.step == "reroll" and g.decision.info == {
        "unit": "A3", "free": True, "roll": 1, "what": "advance"}
    play(g, "reroll")
    ev = [e for e in g.events if e["e"] == "move"][-1]
    assert 8 < ev["moved"] <= 8 + 3 + 1 + 1e-9  # Move 6 + 2, the re-rolled 3, + 1
    g.dice.assert_consumed()


def test_charge_after_advancing():
    g = led_game({"charge_after_advance": True})
    a3, a4 = g.units["A3"], g.units["A4"]
    a3.moved = a4.moved = "advance"
    assert charge.charge_reason(g, a3) is None
    assert charge.charge_reason(g, a4) == "it Advanced or Fell Back this turn"
    a3.moved = "fallback"
    assert charge.charge_reason(g, a3) == "it Advanced or Fell Back this turn"


def test_greedy_bot_takes_a_free_reroll():
    from bagm.engine.bots import make_bot
    from bagm.engine.state.core import Decision

    g = led_game({"reroll_charge": True})
    bot = make_bot("greedy")
    g.decision = Decision("reroll", "A", {"unit": "A3", "free": True, "roll": 11, "needed": 12})
    assert bot._reroll(g, g.legal_actions()).kind == "reroll"
    g.decision = Decision("reroll", "A", {"unit": "A3", "free": True, "roll": 5, "what": "advance"})
    assert bot._reroll(g, g.legal_actions()).kind == "pass"


def confer(g: Game, uid: str, *effects: dict[str, Any]) -> None:
    """Give unit ``uid`` a conferred ability with ``effects`` directly (any player's unit)."""
    ability = validate(LeaderAbility, {"name": "Test", "effects": list(effects)})
    g.units[uid].led = ("-", "Test", ability)
    kept.touch(g)


def test_attacks_that_target_the_unit_by_kind_and_benefit_of_cover():
    g = led_game({"hit_against_mod": -1, "against": "melee"}, {"cover": True})
    a3, b3 = g.units["A3"], g.units["B3"]
    assert effect_conditions(b3, a3, WEAPON, Conditions()) == Conditions(hit_mod=-1)  # melee: -1, no cover
    assert effect_conditions(b3, a3, GUN, Conditions()) == Conditions(cover=True)  # ranged: cover only
    assert effect_conditions(a3, b3, GUN, Conditions()) == Conditions()  # its own attacks: nothing


def test_ranged_attacks_only_from_models_within_range():
    g = led_game({"hit_mod": 1})  # on A3; B3 is given the range limit below
    a4, b3 = g.units["A4"], g.units["B3"]
    place(g, "A4", block(8))
    place(g, "B3", block(22, dx=1.4))
    kept.touch(g)
    plan = shooting.weapons_in_range(g, a4, b3)
    assert plan and plan[0][1] == 5 and not plan[0][2]  # Storm bolters, 24": every model, not half range
    confer(g, "B3", {"ranged_within": 12})
    assert shooting.weapons_in_range(g, a4, b3) == []  # no model of A4 within 12"
    assert not any(a.target == "B3" for a in shooting.legal_shoot(g, "A"))
    place(g, "A4", block(11))  # the two front columns within 12", the model behind them not
    kept.touch(g)
    (w, n, half), = shooting.weapons_in_range(g, a4, b3)
    assert n == 4 and half  # half range is still the weapon's: 12" (Rapid Fire, Melta)
    # "unless the attacking unit is within 10"": all of the unit's models in range, or none
    confer(g, "B3", {"ranged_unit_within": 10})
    assert [(w.name, n) for w, n, _ in shooting.weapons_in_range(g, a4, b3)] == [(w.name, 5)]
    confer(g, "B3", {"ranged_unit_within": 9})
    assert shooting.weapons_in_range(g, a4, b3) == []


def test_shooting_after_falling_back_and_the_pile_in_reach():
    g = led_game({"shoot_after_fall_back": True, "pile_in": 6})
    a3, a4 = g.units["A3"], g.units["A4"]
    a3.moved = a4.moved = "fallback"
    assert shooting.shoot_reason(g, a3) is None and shooting.shoot_reason(g, a4) == "it Fell Back this turn"
    assert (fight.pile_reach(a3), fight.pile_reach(a4), fight.pile_reach(g.units["A1"])) == (6.0, 3.0, 3.0)
    place(g, "A3", [(14, 15)])
    place(g, "B3", [(20, 15)])
    kept.touch(g)
    fight.pile(g, a3, g.units["B3"], "pile_in")
    assert a3.models[0].x - 14 > 3  # more than 3": up to 6"
    assert positions.engaged(g, a3, g.units["B3"])


def test_effects_with_a_condition_on_the_led_unit():
    g = led_game({"hit_mod": 1, "only_while": "below_starting"},
                 {"wound_mod": 1, "only_while": "below_half"},
                 {"fnp": 4, "only_keyword": "STRIKE"}, {"fnp": 6, "only_keyword": "GREY KNIGHTS"})
    a3, b3 = g.units["A3"], g.units["B3"]
    assert "GREY KNIGHTS" in a3.keywords and "STRIKE" not in a3.keywords
    assert effect_conditions(a3, b3, GUN, Conditions()) == Conditions()  # at Starting Strength (5)
    assert effect_defence(a3) == (None, 6)  # the keyword it has
    a3.models = a3.models[:4]  # below its Starting Strength
    assert effect_conditions(a3, b3, GUN, Conditions()) == Conditions(hit_mod=1)
    a3.models = a3.models[:2]  # and Below Half-strength
    assert effect_conditions(a3, b3, GUN, Conditions()) == Conditions(hit_mod=1, wound_mod=1)
    a3.keywords = a3.keywords | {"STRIKE"}
    assert effect_defence(a3) == (None, 4)  # the better of the two


def test_a_weapon_change_with_a_condition_follows_the_unit():
    g = led_game({"attacks": "melee", "A_mod": 1, "only_while": "below_half"})
    a3 = g.units["A3"]
    assert effect_weapon(a3, WEAPON) is WEAPON
    a3.models = a3.models[:2]
    assert effect_weapon(a3, WEAPON).attacks.bonus == 3
    a3.models = a3.models + [copy.copy(a3.models[0]) for _ in range(3)]  # back to 5 (not in play)
    assert effect_weapon(a3, WEAPON) is WEAPON


def test_conditions_on_the_target_of_the_attack():
    g = led_game({"hit_mod": 1, "target_while": "below_half"},
                 {"wound_mod": 1, "target_lacks": ["IMPERIUM", "CHAOS"]})
    a3, b3 = g.units["A3"], g.units["B3"]
    assert effect_conditions(a3, b3, GUN, Conditions()) == Conditions(wound_mod=1)  # Orks: no IMPERIUM
    assert effect_weapon(a3, GUN) is GUN
    b3.models = b3.models[:2]  # Below Half-strength
    assert effect_conditions(a3, b3, GUN, Conditions()) == Conditions(hit_mod=1, wound_mod=1)
    assert effect_conditions(a3, g.units["A4"], GUN, Conditions()) == Conditions()  # IMPERIUM


def test_a_free_reroll_of_a_failed_battle_shock_test():
    g = led_game({"reroll_leadership": True})
    for _ in range(80):  # on to A's next Command phase, where the ability ended: confer it again
        d = g.decision
        if d.step == "command" and d.player == "A" and g.round == 2:
            break
        play(g, "done" if d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
             else "pass")
    a3 = g.units["A3"]
    assert a3.led is None and g.phase == "command"
    a3.models = a3.models[:2]  # Below Half-strength: a Battle-shock test
    g.dice = Dice.scripted([1, 1, 6, 6])
    play(g, "command A1 A3 Test")
    decline_until(g, "reroll")
    assert g.decision.info == {"unit": "A3", "free": True, "roll": 2, "needed": a3.Ld,
                               "what": "battle-shock"}
    play(g, "reroll")
    assert [e["passed"] for e in g.events if e["e"] == "battleshock_test"][-2:] == [False, True]
    assert not a3.battleshocked
    g.dice.assert_consumed()


def decline_until(g: Game, step: str) -> None:
    """Pass every decision until ``step`` is asked."""
    while g.decision.step != step:
        play(g, "pass")


def test_an_advance_without_a_roll():
    g = led_game({"advance_fixed": 6}, cp=0)
    play(g, "advance A3 40,15")  # no dice: the scripted dice are empty
    assert [e for e in g.events if e["e"] == "advance_roll"][-1] == {
        "e": "advance_roll", "unit": "A3", "roll": 6, "fixed": True}
    ev = [e for e in g.events if e["e"] == "move"][-1]
    assert 6 < ev["moved"] <= 12 + 1e-9 and g.units["A3"].moved == "advance"
