"""Leaders in Boarding Actions: the Battlefield Command Stratagem and Peerless Leader, with
scripted dice (every scripted roll consumed)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from bagm.data.models import Leader, LeaderEffect
from bagm.data.schema import validate
from bagm.engine.actions import Action, ActionSyntaxError, parse
from bagm.engine.army import build_army
from bagm.engine.attack import Conditions, Reroll, WeaponProfile
from bagm.engine.dice import Dice, DiceExpr
from bagm.engine.game import Game, IllegalAction
from bagm.engine.leaders import led_conditions, led_defence, led_weapon, not_modelled_notes
from conftest import REPO

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3"]
ZEALOUS = {"name": "Zealous Path", "effects": [
    {"attacks": "melee", "hit_mod": 1, "weapon_abilities": [{"name": "lethal hits"}]}]}
WARDED = {"name": "Warded", "effects": [{"fnp": 5, "hit_against_mod": -1}]}
UNMODELLED = {"name": "Litanies of Sanctity"}


@cache
def _armies() -> tuple:
    return build_army("A", GK), build_army("B", ORKS)


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
    g.has_leaders["B"] = False  # the Orks' own Leaders stay out of these tests
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
    g._end_command("A")  # the start of A's next Command phase
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
        g._check_command("A", parse("command A1 A4 Zealous Path"))
    assert "already targeted" in str(e.value) or "this phase" in str(e.value)
    assert g._legal_command("A") == []
    g.phase_id += 1  # a new phase: A1 was still targeted since the last Command phase
    with pytest.raises(IllegalAction) as e:
        g._check_command("A", parse("command A1 A4 Zealous Path"))
    assert e.value.rule == "Battlefield Command Stratagem (Restrictions)"


def test_bodyguard_must_be_within_6_inches_and_one_the_leader_could_join():
    g = new_game(cp={"A": 5})
    play(g, *DEPLOY)
    a1, a3 = g.units["A1"], g.units["A3"]
    x = a1.models[0].x
    g.set_positions(a3, [(m.x + 30 if m.x < 30 else m.x - 30, m.y) for m in a3.models])
    g._touch()
    if g.unit_distance(a1, a3) <= 6:  # pragma: no cover - the layout keeps them apart
        pytest.skip("could not move A3 away")
    with pytest.raises(IllegalAction) as e:
        g._check_command("A", parse("command A1 A3 Warded"))
    assert "within 6" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        g._check_command("A", parse("command A1 A1 Warded"))  # the Leader itself: never
    assert "could not normally be attached" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        g._check_command("A", parse("command A1 A4 Litanies of Sanctity"))
    assert "does not model" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        g._check_command("A", parse("command A1 A4 Nonsense"))
    assert "no Leader ability 'Nonsense'" in str(e.value)
    assert x == a1.models[0].x


def test_battle_shocked_units_cannot_be_targeted():
    g = new_game(cp={"A": 5})
    play(g, *DEPLOY)
    g.units["A4"].battleshocked = True
    assert not any(a.target == "A4" for a in g._legal_command("A"))
    with pytest.raises(IllegalAction) as e:
        g._check_command("A", parse("command A1 A4 Warded"))
    assert e.value.rule == "Battle-shock"


def test_peerless_leader_is_free_once_per_battle_round_even_after_another_use():
    g = new_game(enhancement="Peerless Leader", cp={"A": -1})  # 0CP after the Command step
    play(g, *DEPLOY)
    assert g.decision.step == "command"  # free: offered with 0CP
    play(g, "command A1 A3 Zealous Path")
    assert g.cp["A"] == 0 and g.peerless_round["A1"] == 1
    assert [e["peerless"] for e in g.events if e["e"] == "battlefield_command"] == [True]
    # the next battle round, after its Command phase: free again, even once the Stratagem was used
    g._end_command("A")
    g.round = 2
    g.used.add(("A", "Battlefield Command", g.phase_id))
    g._check_command("A", parse("command A1 A3 Warded"))
    g.round = 1  # the same battle round: no longer free, and the Stratagem was used this phase
    with pytest.raises(IllegalAction) as e:
        g._check_command("A", parse("command A1 A3 Warded"))
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
    w = led_weapon(a3, WEAPON)
    assert w.abilities.lethal_hits and not WEAPON.abilities.lethal_hits
    assert led_conditions(a3, b3, w, Conditions()).hit_mod == 1
    assert led_weapon(a3, GUN) is GUN  # melee only
    assert led_conditions(a3, b3, GUN, Conditions()) == Conditions()
    assert led_weapon(g.units["A4"], WEAPON) is WEAPON  # not led


def test_characteristics_rerolls_and_defence():
    lead = leader(bodyguards=["Strike Squad"], abilities=[
        {"name": "All of it", "effects": [
            {"A_mod": 1, "S_mod": 1, "AP_mod": -1, "D_mod": 1, "reroll_hits": "ones",
             "reroll_wounds": "failed", "wound_mod": 1, "weapon_abilities": [{"name": "sustained hits", "value": 1}],
             "invuln": 4, "fnp": 6, "wound_against_mod": -1}]}])
    g = new_game(lead=lead, cp={"A": 5})
    play(g, *DEPLOY, "command A1 A3 All of it")
    a3, b3 = g.units["A3"], g.units["B3"]
    w = led_weapon(a3, GUN)
    assert (w.attacks.bonus, w.strength, w.ap, w.damage.bonus) == (3, 5, -1, 2)
    assert w.abilities.sustained_hits == DiceExpr(0, 6, 1)
    c = led_conditions(a3, b3, w, Conditions(reroll_wounds=Reroll.ones))
    assert (c.reroll_hits, c.reroll_wounds, c.wound_mod) == (Reroll.ones, Reroll.failed, 1)
    # attacks that target the led unit: -1 to wound; the better invulnerable save; Feel No Pain
    assert led_conditions(b3, a3, WEAPON, Conditions()).wound_mod == -1
    assert led_defence(a3) == (4, 6)
    assert led_defence(g.units["A4"]) == (None, None)  # not led: its own characteristics


def declined(steps):
    """Run an attack sequence, declining every Command Re-roll it offers; its result."""
    try:
        d = next(steps)
        while True:
            assert d.step == "reroll"
            d = steps.send(Action("pass"))
    except StopIteration as stop:
        return stop.value


def test_feel_no_pain_is_rolled_for_a_led_unit():
    """B3 shoots A3 (warded: Feel No Pain 5+, -1 to be hit): every scripted roll is used."""
    g = new_game(cp={"A": 5})
    play(g, *DEPLOY, "command A1 A3 Warded")
    a3, b3 = g.units["A3"], g.units["B3"]
    # 2 attacks; hit rolls 4 (3+, -1: hits on 4+) and 3 (misses); wound roll 6; save 1; FNP 5: saved
    g.dice = Dice.scripted([4, 3, 6, 1, 5])
    lost, destroyed = declined(g._attack(b3, a3, GUN, 1, Conditions(), None, ranged=True))
    assert (lost, destroyed) == (0, 0)
    g.dice.assert_consumed()
    # without the ability both hit (3+); wound rolls 6 and 1; the save roll of 1 fails
    a4 = g.units["A4"]
    g.dice = Dice.scripted([4, 3, 6, 1, 1])
    lost, _ = declined(g._attack(b3, a4, GUN, 1, Conditions(), None, ranged=True))
    assert lost == 1
    g.dice.assert_consumed()


# --- what a game says --------------------------------------------------------------------------


def test_leader_abilities_without_effects_are_listed_as_not_modelled():
    ds = copy.copy(_armies()[0].units[0].datasheet)
    ds.leader = leader(bodyguards=["Strike Squad"], abilities=[ZEALOUS, UNMODELLED])
    notes = not_modelled_notes(ds)
    assert notes == ["Brotherhood Chaplain: Leader ability 'Litanies of Sanctity' has no modelled effect "
                     "(Battlefield Command cannot confer it)"]
    assert isinstance(ds.leader.abilities[0].effects[0], LeaderEffect)


def test_bots_use_it_and_games_stay_deterministic():
    from bagm.engine.bots import make_bot

    def run(seed: int) -> list[dict]:
        g = new_game(cp={"A": 3})
        g.dice = Dice(seed)
        bots = {"A": make_bot("greedy"), "B": make_bot("greedy")}
        while not g.finished:
            g.apply(bots[g.decision.player](g))
        return g.events
    first = run(5)
    assert any(e["e"] == "battlefield_command" for e in first)
    assert first == run(5)
