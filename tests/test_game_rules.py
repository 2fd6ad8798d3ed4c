"""Rules of the game engine, each with scripted dice (every scripted roll must be consumed)."""

from __future__ import annotations

import copy
import dataclasses
import math
from functools import cache

import pytest
from conftest import REPO, advance_to, block, place, without_rules

from bagm.chance.dice import Dice, DiceError, DiceExpr
from bagm.engine.game import control, deployment, fight, kept, positions, shooting
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules.missions import get_mission
from bagm.engine.state.actions import Action, ActionSyntaxError, parse
from bagm.engine.state.army import MOVE_CAP, ArmyError, Model

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3"]


@cache
def _armies() -> tuple:
    # without the two armies' Detachment rules: the rules under test alone
    return build_army("A", GK, without_rules()), build_army("B", ORKS, without_rules())


def new_game(dice: list[int] | None = None, **kw) -> Game:
    a, b = _armies()
    return Game(11, copy.deepcopy(a), copy.deepcopy(b), dice=Dice.scripted(dice or []),
                rolloffs=kw.pop("rolloffs", {"attacker": "A", "first_turn": "A"}), **kw)


ATTACK_ROLLS = ("attacks", "hit", "wound", "save", "damage", "hazardous")


def skip_command(g: Game, offers: bool = True) -> None:
    """Decline the Battlefield Command windows, army rules called at the start of the battle round
    (Void Waaagh!) and (``offers``) the Command Re-roll offers inside the attack sequence (tests of
    other rules do not ask for them)."""
    while g.decision.step == "command" or offers and g.decision.step == "reroll" and \
            g.decision.info.get("what") in ATTACK_ROLLS or \
            g.decision.step == "use" and g.decision.info.get("timing") == "round_start":  # the Orks' Void Waaagh!
        g.apply(Action("pass"))


def play(g: Game, *texts: str) -> None:
    """Play ``texts``; a 'reroll' or 'pass' answers the offer pending (not declined first)."""
    for t in texts:
        a = parse(t)
        if a.kind != "command":
            skip_command(g, offers=a.kind not in ("reroll", "pass"))
        g.apply(a)
    skip_command(g)


def at_first_move(dice: list[int] | None = None, before=None) -> Game:
    """A game just before A's last deployment; ``before(g)`` runs, then A4 is set up and the
    battle starts (A's Command phase uses the scripted dice)."""
    g = new_game(dice)
    play(g, *DEPLOY)
    if before:
        before(g)
    play(g, "deploy A4 3", "deploy B2 1", "deploy A5 1")  # one unit per Entry Zone
    return g


# --- muster, underdog, squads ---------------------------------------------------------------


def test_muster_forms_boarding_squads_and_caps_move():
    a, b = _armies()
    assert [u.name for u in a.units] == ["Brotherhood Chaplain", "Brotherhood Champion",
                                         "Strike Squad A", "Strike Squad B", "Purifier Squad"]
    assert [u.starting for u in a.units] == [1, 1, 5, 5, 5]
    assert all(u.M <= MOVE_CAP for u in a.units + b.units)
    assert all("FLY" not in u.keywords for u in a.units + b.units)


def test_invalid_roster_is_refused(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("faction: Orks\ndetachment: Kaptin Killers\nunits:\n  - unit: Nobz\n    models: 10\n"
                 "  - unit: Nobz\n    models: 10\n  - unit: Nobz\n    models: 10\n")
    with pytest.raises(ArmyError, match="not valid"):
        build_army("A", p)


def test_underdog_gets_one_cp():
    g = new_game()
    assert g.underdog == "B"  # 470 against 500 points
    assert g.cp == {"A": 0, "B": 1}


def test_not_modelled_rules_are_listed():
    g = new_game()
    notes = g.not_modelled()
    assert any("Detachment rule" in n for n in notes)
    assert any("Detachment Stratagems of Kaptin Killers: none supplied" in n for n in notes)
    assert not any("Gnasher Squig Crates" in n for n in notes)  # an Enhancement the engine plays


# --- deployment ------------------------------------------------------------------------------


def test_deploy_one_character_and_one_other_per_entry_zone():
    g = new_game()
    play(g, "role attacker", "deploy B3 2")
    with pytest.raises(IllegalAction) as e:
        g.check(parse("deploy A1 4"))
    assert "Entry Zones 1 to 3" in str(e.value)
    play(g, "deploy A3 2", "deploy B4 2" if False else "deploy B1 2")
    with pytest.raises(IllegalAction) as e:
        g.check(parse("deploy A4 2"))
    assert e.value.rule.startswith("Deployment")
    g.check(parse("deploy A1 2"))  # a CHARACTER may still use Entry Zone 2


def test_deployed_units_are_wholly_within_their_entry_zone():
    g = at_first_move()
    zones = deployment.entry_zones(g, "A")
    for uid, z in (("A3", 1), ("A4", 2)):
        assert all(zones[z].wholly_within(m.base) for m in g.units[uid].models)
    assert g.units["A2"].where == "reserves" and g.units["B5"].where == "reserves"


def test_reserve_needs_deep_strike_and_half_set_up_normally():
    g = new_game()
    play(g, "role attacker", "deploy B3 2", "reserve A5")
    with pytest.raises(IllegalAction, match="no Deep Strike"):
        g.check(parse("reserve B1"))
    play(g, "deploy B1 2", "reserve A2", "deploy B4 1")
    with pytest.raises(IllegalAction, match="at least half"):
        g.check(parse("reserve A4"))


# --- Command phase -----------------------------------------------------------------------------


def below_half(g: Game) -> None:
    g.units["A3"].models = g.units["A3"].models[:2]


def test_battle_shock_failed_then_pass():
    g = at_first_move([2, 3], before=below_half)  # 5 < Ld 6: failed
    assert g.decision.step == "bravery"
    play(g, "pass")
    assert g.units["A3"].battleshocked and g.units["A3"].oc() == 0
    g.dice.assert_consumed()


def test_battle_shock_passed_on_leadership():
    g = at_first_move([3, 3], before=below_half)  # 6 >= Ld 6
    assert g.decision.step == "move" and not g.units["A3"].battleshocked
    g.dice.assert_consumed()


def test_insane_bravery_costs_one_cp():
    g = at_first_move([1, 1], before=below_half)
    cp = g.cp["A"]
    play(g, "bravery A3")
    assert not g.units["A3"].battleshocked and g.cp["A"] == cp - 1
    g.dice.assert_consumed()


def test_command_phase_gives_both_players_one_cp():
    g = at_first_move()
    assert g.cp == {"A": 1, "B": 2}


# --- Movement phase -----------------------------------------------------------------------------


def test_advance_adds_the_roll():
    g = at_first_move([6])
    start = g.units["A3"].models[0].x
    play(g, "advance A3 40,15")
    assert g.decision.step == "reroll" and g.decision.info["what"] == "advance"
    play(g, "pass")
    ev = [e for e in g.events if e["e"] == "move"][-1]
    assert ev["moved"] <= 6 + 6 + 1e-9 and ev["moved"] > 6
    assert g.units["A3"].moved == "advance" and g.units["A3"].models[0].x > start
    g.dice.assert_consumed()


def test_normal_move_is_clipped_to_move():
    g = at_first_move()
    play(g, "move A3 40,15")
    ev = [e for e in g.events if e["e"] == "move"][-1]
    assert 0 < ev["moved"] <= g.units["A3"].M + 1e-9


def test_place_checks_each_model():
    g = at_first_move()
    place(g, "A1", [(14, 15)])
    with pytest.raises(IllegalAction) as e:
        g.check(Action("place", "A1", points=((19.5, 15),)))  # 5.5" > Move 5"
    assert e.value.rule == "Normal Move"
    with pytest.raises(IllegalAction) as e:
        g.check(Action("place", "A1", points=((2.2, 15),)))  # on a model of A3
    assert "overlap another model" in str(e.value)
    g.check(Action("place", "A1", points=((18.9, 15),)))


def test_engaged_unit_cannot_make_a_normal_move_and_fallback_needs_engagement():
    g = at_first_move()
    with pytest.raises(IllegalAction, match="not within Engagement Range"):
        g.check(parse("fallback A3 2,15"))
    place(g, "B3", [(12, 15)])
    place(g, "A3", [(10.6, 15), (9.2, 15)])
    with pytest.raises(IllegalAction) as e:
        g.check(parse("move A3 5,15"))
    assert "Remain Stationary or Fall Back" in str(e.value)


def test_desperate_escape_for_a_battle_shocked_unit():
    g = at_first_move()
    place(g, "B3", [(12, 15)])
    place(g, "A3", [(10.6, 15), (9.2, 15)])
    g.units["A3"].battleshocked = True
    g.dice = Dice.scripted([1, 5])  # one test per model: a 1 destroys one
    play(g, "fallback A3 2.2,15")
    assert len(g.units["A3"].models) == 1
    assert not positions.engaged(g, g.units["A3"], g.units["B3"])
    g.dice.assert_consumed()


def _falling_back(cp: int, dice: list[int], shocked: bool = False) -> Game:
    """A3 (2 models) falls back through B3: both models' lines cross the Ork, a test each."""
    g = at_first_move()
    place(g, "B3", [(12, 15)])
    place(g, "A3", [(10.6, 15), (9.2, 15)])
    g.cp["A"] = cp
    g.units["A3"].battleshocked = shocked
    g.dice = Dice.scripted(dice)
    g.apply(parse("fallback A3 16,15"))
    return g


def test_command_reroll_of_a_desperate_escape_test():
    g = _falling_back(1, [2, 4, 6])  # 2 fails, re-rolled to 6
    assert g.decision.step == "reroll" and g.decision.info["what"] == "desperate escape"
    g.apply(parse("reroll"))
    assert len(g.units["A3"].models) == 2 and g.cp["A"] == 0
    assert [e for e in g.events if e["e"] == "desperate_escape"][-1]["destroyed"] == 0
    g.dice.assert_consumed()


def test_no_command_reroll_for_a_battle_shocked_unit_or_without_cp():
    for g in (_falling_back(0, [2, 4]), _falling_back(3, [2, 4], shocked=True)):
        assert g.decision.step != "reroll" and len(g.units["A3"].models) == 1
        g.dice.assert_consumed()


def test_hatchway_needs_a_unit_within_one_inch():
    g = at_first_move()
    play(g, "done")
    assert g.decision.step in ("reinforce", "hatch", "manoeuvre")
    with pytest.raises(IllegalAction) as e:
        g.check_as("hatch", "A", parse("hatch A3 2"))
    assert "within 1\"" in str(e.value)


def test_hatchway_roll_off_adds_toughness():
    g = at_first_move([2, 5])  # A: 2 + T4 = 6; B: 5 + T5 = 10: prevented
    h = g.map.layout.hatchways[1]  # Hatchway 2, closed, vertical at x = 8.8
    cx, cy = h.centre
    place(g, "A3", [(cx - 1.0, cy), (cx - 1.0, cy - 1.5)])
    place(g, "B3", [(cx + 1.0, cy), (cx + 1.0, cy - 1.5)])
    play(g, "done", "hatch A3 2")
    assert not g.bf.is_open(1)
    ev = [e for e in g.events if e["e"] == "hatch_rolloff"][-1]
    assert (ev["roll"], ev["enemy"]) == (6, 10)
    g.dice.assert_consumed()


def test_hatchway_opens_when_unopposed():
    g = at_first_move()
    h = g.map.layout.hatchways[1]
    cx, cy = h.centre
    place(g, "A3", [(cx - 1.0, cy), (cx - 1.0, cy - 1.5)])
    play(g, "done", "hatch A3 2")
    assert g.bf.is_open(1)
    with pytest.raises(IllegalAction, match="already operated"):
        g.check_as("hatch", "A", parse("hatch A3 2"))


def test_reinforcements_need_an_empty_entry_zone_and_deep_strike_waits_for_round_2():
    g = at_first_move()
    play(g, "move A4 6.6,22", "done")  # Entry Zone 3 left empty
    assert g.decision.step == "reinforce"
    with pytest.raises(IllegalAction) as e:
        g.check(parse("arrive A2 2"))  # A3 and A1 stand in Entry Zone 2
    assert "no models" in e.value.rule
    with pytest.raises(IllegalAction) as e:
        g.check(parse("deepstrike A2 22,15"))
    assert "second battle round" in str(e.value)
    play(g, "arrive A2 3")
    assert g.units["A2"].alive and deployment.entry_zones(g, "A")[2].wholly_within(g.units["A2"].models[0].base)


def test_an_arrival_that_cannot_be_set_up_is_neither_offered_nor_accepted():
    # Entry Zone 1 (the north-west corner Zone) has no models in it, but Orks stand just outside
    # it: the Purifiers cannot be set up in it out of Engagement Range of them. Offering the
    # arrival made the greedy bot choose it for ever (issue 16); it is refused like any rule.
    g = at_first_move()
    g.units["A5"].where = "reserves"  # (set up in Entry Zone 1 at deployment): back in Reserves
    kept.touch(g)
    play(g, "done")
    place(g, "B3", [(5.6, 0.8), (5.6, 2.2), (5.6, 3.6), (3.0, 5.5), (1.2, 5.5)])
    place(g, "B4", [(7.0, 1.5), (7.0, 2.9), (4.4, 5.5)])
    zone = deployment.entry_zones(g, "A")[0]
    assert not any(zone.within(m.base) for u in g.units.values() if u.alive for m in u.models)
    offered = [a.text() for a in g.legal_actions()]
    assert "arrive A5 1" not in offered and "arrive A2 1" in offered  # one model still fits
    with pytest.raises(IllegalAction, match="cannot be set up in Entry Zone 1") as e:
        g.check(parse("arrive A5 1"))
    assert "Entry Zone" in e.value.rule
    play(g, "arrive A2 1")
    assert g.units["A2"].alive and g.units["A5"].where == "reserves"
    assert "arrive A5 1" not in [a.text() for a in g.legal_actions()]


# --- Shooting -----------------------------------------------------------------------------------


def test_command_reroll_of_an_advance_roll():
    g = at_first_move([1, 5])
    play(g, "advance A3 40,15", "reroll")
    rolls = [e["roll"] for e in g.events if e["e"] == "advance_roll"]
    assert rolls == [1, 5] and g.cp["A"] == 0
    g.dice.assert_consumed()


def test_fallback_must_end_outside_engagement_range():
    g = at_first_move()
    place(g, "B3", [(12, 15)])
    place(g, "A3", [(10.6, 15), (9.2, 15)])
    assert any(a.kind == "fallback" for a in g.legal_actions())
    g.check(parse("fallback A3 2.2,15"))


def test_tactical_manoeuvre_refused_after_advancing():
    g = at_first_move([3])
    play(g, "advance A3 12,15", "pass", "done")  # no Reinforcements step: no empty Entry Zone
    assert g.decision.step == "manoeuvre"
    with pytest.raises(IllegalAction) as e:
        g.check(parse("manoeuvre A3 defend"))
    assert e.value.rule == "Tactical Manoeuvres"


def test_secure_site_is_battleline_only():
    g = at_first_move()
    play(g, "done", "done")
    with pytest.raises(IllegalAction):
        g.check(parse("manoeuvre A1 secure 1"))


def test_shooting_needs_visibility():
    g = at_first_move()
    place(g, "A3", [(6.5, 2.2), (6.5, 3.6)])
    place(g, "B3", [(11, 2.2), (11, 3.6)])  # a Wall and a closed Hatchway between them
    with pytest.raises(IllegalAction) as e:
        g.check_as("shoot", "A", parse("shoot A3 B3"))
    assert e.value.rule == "Visibility"


def test_shooting_resolves_attacks_with_scripted_dice():
    g = at_first_move()
    place(g, "A1", [(15, 15)])
    place(g, "B3", block(25))
    play(g, "hold A1")
    advance_to(g, "shoot")
    # storm bolter, Rapid Fire 2 within half range: 4 attacks; BS3+: 6, 1, 3, 2 -> 2 hits;
    # S4 against T5 wounds on 5+: 5, 4 -> 1 wound; save 1 always fails; Damage 1
    g.dice = Dice.scripted([6, 1, 3, 2, 5, 4, 1])
    play(g, "shoot A1 B3")
    ev = [e for e in g.events if e["e"] == "attack"][-1]
    assert (ev["attacks"], ev["hits"], ev["wounds"], ev["unsaved"], ev["lost"]) == (4, 2, 1, 1, 1)
    assert g.units["A1"].shot
    g.dice.assert_consumed()


def _split_fire_game() -> Game:
    """A5 (Purifiers: Storm bolter and Purifying Flame, 18") sees B3 (6" away) and B4 (4")."""
    g = at_first_move()
    place(g, "A1", [(15, 15)])
    place(g, "B3", block(25))
    a5 = g.units["A5"]
    a5.models = [Model(15, 13.5, a5.radius, a5.W), Model(15, 16.5, a5.radius, a5.W)]
    a5.where = "board"
    kept.touch(g)
    place(g, "B4", block(22, 19.5))
    play(g, "hold A1")
    advance_to(g, "shoot")
    return g


def test_split_fire_each_weapon_at_its_own_target():
    g = _split_fire_game()
    g.dice = Dice(1)
    play(g, "shoot A5 B3 Storm bolter; B4 Purifying Flame")
    shots = [(e["target"], e["weapons"]) for e in g.events if e["e"] == "shoot"]
    assert shots == [("B3", ["Storm bolter"]), ("B4", ["Purifying Flame"])]
    assert g.units["A5"].shot and g.decision.step == "shoot"
    assert parse("shoot A5 B3 Storm bolter; B4 Purifying Flame").text() == "shoot A5 B3 Storm bolter; B4 Purifying Flame"


def test_split_fire_is_checked_before_any_attack():
    g = _split_fire_game()
    with pytest.raises(IllegalAction) as e:  # one weapon, two targets
        g.check_as("shoot", "A", parse("shoot A5 B3 Storm bolter; B4 Storm bolter"))
    assert "already has a target" in str(e.value) and e.value.rule == "Select Targets"
    with pytest.raises(IllegalAction) as e:  # the second target is not visible
        place(g, "B4", [(6.5, 2.2)])
        g.check_as("shoot", "A", parse("shoot A5 B3 Storm bolter; B4 Purifying Flame"))
    assert e.value.rule == "Visibility"
    with pytest.raises(ActionSyntaxError):  # every group names its weapons
        parse("shoot A5 B3; B4 Purifying Flame")


def test_split_fire_weapon_must_reach_its_target():
    g = _split_fire_game()
    place(g, "B3", block(38))  # beyond the Purifying Flame's 18"
    assert positions.min_straight(g, g.units["A5"], g.units["B3"]) > 18
    with pytest.raises(IllegalAction) as e:
        g.check_as("shoot", "A", parse("shoot A5 B4 Storm bolter; B3 Purifying Flame"))
    assert "not within range" in str(e.value) and e.value.rule == "Select Targets"
    g.check_as("shoot", "A", parse("shoot A5 B3 Storm bolter; B4 Purifying Flame"))  # 24" reaches B3
    a5 = g.units["A5"]
    a5.ranged = a5.ranged + [dataclasses.replace(a5.ranged[0], name="Short gun", range=3)]
    with pytest.raises(IllegalAction) as e:  # every weapon a group names must reach its target
        g.check_as("shoot", "A", parse("shoot A5 B3 Storm bolter+Short gun; B4 Purifying Flame"))
    assert "'Short gun' cannot shoot B3" in str(e.value)


def test_a_weapon_with_several_profiles_fires_one_of_them():
    g = _split_fire_game()
    a5 = g.units["A5"]
    bolter = a5.ranged[0]
    a5.ranged = [dataclasses.replace(bolter, name="Storm bolter - steady"),
                 dataclasses.replace(bolter, name="Storm bolter - hail", attacks=DiceExpr(0, 6, 4))] + a5.ranged[1:]
    kept.touch(g)
    fired = [w.name for w, _, _ in shooting.weapons_in_range(g, a5, g.units["B3"])]
    assert fired == ["Storm bolter - steady", "Purifying Flame"]  # the first profile by default
    named = shooting.weapons_in_range(g, a5, g.units["B3"], ("Storm bolter - hail",))
    assert [w.name for w, _, _ in named] == ["Storm bolter - hail"]
    with pytest.raises(IllegalAction) as e:
        g.check_as("shoot", "A", parse("shoot A5 B3 Storm bolter - steady+Storm bolter - hail"))
    assert "one of its profiles" in str(e.value)
    with pytest.raises(IllegalAction):  # nor one profile at each of two targets
        g.check_as("shoot", "A", parse("shoot A5 B3 Storm bolter - steady; B4 Storm bolter - hail"))


# --- Charge and Fight -------------------------------------------------------------------------


def _to_charge(dice):
    g = at_first_move()
    place(g, "A3", block(14))
    place(g, "B3", block(20, dx=1.4))
    play(g, "hold A3")
    advance_to(g, "charge")
    g.dice = Dice.scripted(dice)
    return g


def test_charge_roll_too_low_offers_command_reroll():
    g = _to_charge([1, 2, 3, 3])
    play(g, "charge A3 B3")
    assert g.decision.step == "reroll"
    play(g, "reroll")
    assert g.units["A3"].charged and positions.engaged(g, g.units["A3"], g.units["B3"])
    assert g.cp["A"] == 0
    g.dice.assert_consumed()


def test_charge_fails_without_reroll():
    g = _to_charge([1, 1])
    play(g, "charge A3 B3", "pass")
    assert not g.units["A3"].charged and not positions.engaged(g, g.units["A3"], g.units["B3"])
    assert [e["success"] for e in g.events if e["e"] == "charge"] == [False]
    g.dice.assert_consumed()


def test_charge_target_must_be_within_12_inches():
    g = at_first_move()
    place(g, "A3", block(14))
    place(g, "B3", block(28, dx=1.4))
    with pytest.raises(IllegalAction) as e:
        g.check_as("charge", "A", parse("charge A3 B3"))
    assert "12" in str(e.value)


def test_chargers_fight_first():
    g = _to_charge([6, 6])
    play(g, "charge A3 B3")
    assert g.decision.step == "fight" and g.decision.player == "A"
    assert g.decision.info["fights_first"]
    assert [a.text() for a in g.legal_actions()] == ["fight A3 B3"]
    g.dice.assert_consumed()


# --- objectives and scoring ------------------------------------------------------------------


def test_capture_the_junction_scoring():
    g = new_game()
    m = get_mission(11)
    score = m.objectives[0].score
    g.control = ["A", "A", "B"]
    assert [v for v, *_ in score(g, "A")] == [5, 5, 5]
    g.control = ["A", None, "B"]
    assert [v for v, *_ in score(g, "A")] == [5]
    g.control = [None, None, None]
    assert score(g, "A") == []


@pytest.mark.parametrize("points,vp", [(124, 0), (125, 15), (249, 15), (250, 30), (375, 45), (500, 45)])
def test_purge_the_ship_thresholds(points, vp):
    g = new_game()
    g.destroyed_points = lambda p: points  # type: ignore[method-assign]
    assert sum(v for v, *_ in get_mission(11).objectives[1].score(g, "A")) == vp


def test_vp_cap_is_90():
    g = new_game()
    g.round = 1
    g.score("A", 85, "test")
    g.score("A", 15, "test")
    assert g.vp["A"] == 90


def test_objective_control_battle_shocked_oc_zero_and_secured():
    g = at_first_move()
    mk = g.map.layout.markers[0]
    place(g, "A3", [(mk.x - 1.2, mk.y), (mk.x - 1.2, mk.y + 1.4)])
    control.update_control(g, False)
    assert g.control[0] == "A"
    g.units["A3"].battleshocked = True
    control.update_control(g, False)
    assert g.control[0] is None
    g.units["A3"].battleshocked = False
    g.secured[0] = "B"
    control.update_control(g, False)
    assert g.control[0] == "B"  # Secured: stays until A controls it at the start or end of a turn
    control.update_control(g, True)
    assert g.control[0] == "A" and g.secured[0] is None


def test_coherency_removes_stragglers_at_end_of_turn():
    g = at_first_move()
    place(g, "A3", [(14, 15), (12.6, 15), (11.2, 15), (3.0, 15.0)])
    g.end_turn()
    assert len(g.units["A3"].models) == 3


def test_strategic_reserves_destroyed_after_round_3():
    from bagm.engine.bots.greedy import GreedyBot
    from bagm.engine.log.record import play as play_game

    g = new_game()
    g.dice = Dice(5)
    bot = GreedyBot()

    def never_arrive(game: Game) -> Action:
        if game.decision.step == "reinforce" and game.decision.player == "A":
            return Action("done")
        return bot(game)
    rec = play_game(g, never_arrive)
    waiting = {e["unit"] for e in g.events if e["e"] == "reserves" and e["unit"].startswith("A")}
    lost = {e["unit"] for e in g.events if e["e"] == "destroyed" and "Reserves" in e.get("why", "")}
    assert waiting and waiting <= lost
    assert rec.rounds == 5


# --- actions and dice -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["move A3 12.5,7", "place A1 3,4;4.5,4", "hatch A1 3", "deploy A1 2",
                                  "manoeuvre A1 secure 2", "manoeuvre A1 overwatch",
                                  "shoot A1 B2 Storm bolter+Psilencer", "charge A1 B2", "done",
                                  "role defender", "deepstrike A2 20,15", "reroll", "bravery A3",
                                  "deploy A5 2 8,15"])
def test_action_text_round_trip(text):
    assert parse(text).text() == text


@pytest.mark.parametrize("bad", ["", "jump A1", "move A1", "move A1 x,y", "deploy A1 one",
                                 "manoeuvre A1 dance", "role king", "done now"])
def test_bad_action_text(bad):
    with pytest.raises(ActionSyntaxError):
        parse(bad)


def test_scripted_dice_must_cover_every_roll():
    with pytest.raises(DiceError):
        at_first_move([], before=below_half)  # the Battle-shock test needs two dice


# --- Stratagems, Overwatch, Enhancements -------------------------------------------------------


def test_set_overwatch_fires_on_a_move_hitting_only_on_sixes():
    g = at_first_move()
    place(g, "A3", block(14))
    place(g, "B3", block(24, dx=1.4))
    g.units["B3"].overwatch_until = g.turn
    play(g, "move A3 16,15")
    assert g.decision.step == "overwatch" and g.decision.player == "B"
    assert [a.text() for a in g.legal_actions()] == ["overwatch B3 A3", "pass"]
    # 5 Sluggas: only the 6 hits; S4 v T4 wounds on 4+; the save of 1 fails; Damage 1
    g.dice = Dice.scripted([6, 5, 5, 5, 5, 4, 1])
    play(g, "overwatch B3 A3")
    ev = [e for e in g.events if e["e"] == "attack"][-1]
    assert (ev["hits"], ev["wounds"], ev["lost"]) == (1, 1, 1)
    g.dice.assert_consumed()
    assert g.decision.step == "move" and g.decision.player == "A"


def test_counter_offensive_lets_the_enemy_fight_next_for_2cp():
    g = _to_charge([6, 6] + [1] * 15 + [1] * 15)  # charge 12; every Hit roll a 1
    play(g, "charge A3 B3", "fight A3 B3")
    assert g.decision.step == "counter" and g.decision.player == "B"
    cp = g.cp["B"]
    play(g, "counter B3")
    assert g.cp["B"] == cp - 2
    assert g.decision.step == "fight" and [a.text() for a in g.legal_actions()] == ["fight B3 A3"]
    play(g, "fight B3 A3")
    g.dice.assert_consumed()


def test_explosive_clearance_needs_a_blast_weapon():
    g = at_first_move()
    with pytest.raises(IllegalAction) as e:
        g.check_as("shoot", "A", parse("clearance A3"))
    assert e.value.rule == "Explosive Clearance"


def test_expert_breacher_operates_a_hatchway_during_the_move_step():
    from bagm.engine.state.army import Model

    g = at_first_move()
    u = g.units["A2"]  # Brotherhood Champion with Expert Breacher (in Reserves)
    cx, cy = g.map.layout.hatchways[1].centre
    u.models, u.where = [Model(cx - 1.0, cy, u.radius, u.W)], "board"
    kept.touch(g)
    assert Action("hatch", "A2", arg="2") in g.legal_actions()
    play(g, "hatch A2 2")
    assert g.bf.is_open(1) and g.decision.step == "move"
    with pytest.raises(IllegalAction):
        g.check(parse("hatch A3 2"))  # others only at the end of the Move Units step


def test_trademark_weapon_and_superior_boarding_tactics(tmp_path):
    p = tmp_path / "gk.yaml"
    p.write_text("faction: Grey Knights\ndetachment: Void Purge Force\nunits:\n"
                 "  - unit: Brotherhood Chaplain\n    warlord: true\n    enhancement: Superior Boarding Tactics\n"
                 "  - unit: Brotherhood Champion\n    enhancement: Trademark Weapon\n    weapon: Storm bolter\n"
                 "  - unit: Strike Squad\n    models: 10\n")
    army = build_army("A", p)
    champion = army.units[1]
    bolter = champion.ranged[0]
    assert (bolter.name, bolter.strength, str(bolter.damage)) == ("Storm bolter", 5, "2")
    assert str(army.units[0].ranged[0].damage) == "1"
    g = Game(11, army, copy.deepcopy(_armies()[1]), dice=Dice.scripted([]),
             rolloffs={"attacker": "A", "first_turn": "A"})
    assert g.cp["A"] == 2 + (g.underdog == "A")  # "you start the battle with 2CP"


def test_charge_declared_once_per_phase():
    g = _to_charge([])
    g.units["A3"].declared = True
    with pytest.raises(IllegalAction, match="already declared"):
        g.check(parse("charge A3 B3"))


def test_action_parser_never_crashes_on_junk():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    words = st.sampled_from(["move", "A1", "B2", "3", "1,2", "x", ";", "secure", "done", "+", "shoot",
                             "hatch", "place", "1,2;3,4", "role", "attacker", "-1", "1e9,2"])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(words, max_size=5).map(" ".join) | st.text(max_size=30))
    def run(text: str) -> None:
        try:
            act = parse(text)
        except ActionSyntaxError:
            return
        assert parse(act.text()) == act or act.kind in ("move", "place", "deepstrike", "advance", "fallback")

    run()


# --- more rules -----------------------------------------------------------------------------------


def test_engagement_range_is_2_inches_through_an_open_hatchway_only():
    g = at_first_move()
    y = g.map.layout.hatchways[2].centre[1]  # Hatchway 3 (open), on the Wall at x = 17.6
    place(g, "A1", [(16.2, y)])
    place(g, "B1", [(19.0, y)])  # 1.54" apart, through the open Hatchway
    assert positions.engaged(g, g.units["A1"], g.units["B1"])
    g.bf.set_open(2, False)
    kept.touch(g)
    assert not positions.engaged(g, g.units["A1"], g.units["B1"])


def test_units_engaged_through_an_opened_hatchway_fight_without_having_charged():
    g = at_first_move()
    y = g.map.layout.hatchways[1].centre[1]  # Hatchway 2 (closed) on the Wall at x = 8.8
    place(g, "A3", [(7.5, y), (7.5, y - 1.4)])
    place(g, "B3", [(10.1, y), (10.1, y - 1.4)])
    assert not positions.engaged(g, g.units["A3"], g.units["B3"])
    g.dice = Dice.scripted([6, 1])  # the roll-off: A 6 + T4 beats B 1 + T5
    play(g, "done", "hatch A3 2")
    assert g.bf.is_open(1) and positions.engaged(g, g.units["A3"], g.units["B3"])
    assert not g.units["A3"].charged and fight.can_fight(g, g.units["A3"]) and fight.can_fight(g, g.units["B3"])


def test_deep_strike_more_than_9_inches_from_enemy_models():
    g = at_first_move()
    place(g, "B3", block(22, 15, 1.4))
    advance_to(g, "reinforce")
    g.round = 2
    play(g, "deepstrike A2 24.2,27")
    a2 = g.units["A2"]
    assert a2.alive
    assert all(math.hypot(m.x - e.x, m.y - e.y) - m.r - e.r > 9 for m in a2.models for e in g.units["B3"].models)


def test_deep_strike_too_close_stays_in_reserves():
    g = at_first_move()
    place(g, "B3", block(22, 15, 1.4))
    advance_to(g, "reinforce")
    g.round = 2
    # Deep Strike: more than 9" from enemy models; a point where the unit cannot be set up is
    # neither offered nor accepted, and the unit stays in Reserves
    assert "deepstrike A2 22,18" not in [a.text() for a in g.legal_actions()]
    with pytest.raises(IllegalAction, match="cannot be set up by Deep Strike"):
        play(g, "deepstrike A2 22,18")
    assert g.units["A2"].where == "reserves" and g.decision.step == "reinforce"


def test_pistols_only_at_engaged_enemies():
    g = at_first_move()
    place(g, "B3", block(12, 15, 1.4))
    place(g, "A3", block(10.6, 15))
    place(g, "A1", [(20, 15)])
    b3 = g.units["B3"]
    assert [w.name for w in shooting.usable_weapons(g, b3, engaged=True)] == ["Slugga"]
    assert shooting.weapons_in_range(g, b3, g.units["A3"])
    assert not shooting.weapons_in_range(g, b3, g.units["A1"])


def test_no_underdog_within_30_points():
    from bagm.roster.underdog import decide

    assert decide(500, 471).underdog is None and decide(500, 470).underdog == "B"


def test_infiltrators_deploy_wholly_within_6_inches_of_their_entry_zone():
    a = build_army("A", REPO / "rosters" / "adeptus_astartes_pilum_strike_team.yaml")
    g = Game(11, a, copy.deepcopy(_armies()[1]), dice=Dice.scripted([]),
             rolloffs={"attacker": "A", "first_turn": "A"})
    play(g, "role attacker", "deploy B3 2")
    zone = deployment.entry_zones(g, "A")[1]  # Attacker Entry Zone 2, centred on (2.2, 15)
    with pytest.raises(IllegalAction) as e:
        g.check(parse("deploy A3 2 7,15"))  # Incursors lack Infiltrators
    assert e.value.rule == "Deployment (Infiltrators)"
    with pytest.raises(IllegalAction, match="within 6"):
        g.check(parse("deploy A5 2 14,15"))
    assert any(x.point for x in g.legal_actions() if x.unit == "A5")
    play(g, "deploy A5 2 8,15")
    models = g.units["A5"].models
    assert len(models) == 5 and not all(zone.wholly_within(m.base) for m in models)
    assert all(deployment.zone_gap(g, zone, (m.x, m.y), m.r) <= 6 + 1e-9 for m in models)


# --- Command Re-roll inside the attack sequence -------------------------------------------------


def _a1_shoots(dice: list[int], cp: dict[str, int], weapon=None, shocked: tuple[str, ...] = ()) -> Game:
    """A1 (the Chaplain, BS3+ Storm bolter: 4 attacks within half range, S4 v T5 wounds on 5+)
    shoots B3 (Nobz: Sv4+, W2); ``weapon(storm bolter)`` changes the weapon."""
    g = at_first_move()
    place(g, "A1", [(15, 15)])
    place(g, "B3", block(25))
    play(g, "hold A1")
    advance_to(g, "shoot")
    g.cp.update(cp)
    a1 = g.units["A1"]
    if weapon is not None:
        a1.ranged = [weapon(a1.ranged[0])]
        kept.touch(g)
    for uid in shocked:
        g.units[uid].battleshocked = True
    g.dice = Dice.scripted(dice)
    g.apply(parse("shoot A1 B3"))
    return g


def _offered(g: Game, what: str, player: str = "A") -> dict:
    d = g.decision
    assert (d.step, d.player, d.info.get("what")) == ("reroll", player, what), d
    return d.info


def _attack_done(g: Game) -> dict:
    """The last attack event, once the shooting is over (no offer left)."""
    assert g.decision.step == "shoot" and g.decision.player == "A", g.decision
    g.dice.assert_consumed()
    return [e for e in g.events if e["e"] == "attack"][-1]


def test_command_reroll_of_a_hit_roll_counts_as_rolled_then():
    # hits 6, 1, 3, 2: the first failed die (1) is offered, re-rolled to a 6 (a Critical Hit);
    # 3 hits wound on 5, 4, 6; the saves of 1 fail
    g = _a1_shoots([6, 1, 3, 2, 6, 5, 4, 6, 1, 1], {"A": 1, "B": 0})
    info = _offered(g, "hit")
    assert (info["unit"], info["roll"], info["weapon"]) == ("A1", 1, "Storm bolter")
    g.apply(parse("reroll"))
    ev = _attack_done(g)
    assert (ev["hits"], ev["wounds"], ev["lost"], ev["destroyed"]) == (3, 2, 2, 1)
    assert g.cp["A"] == 0
    assert [e for e in g.events if e["e"] == "command_reroll"] == [
        {"e": "command_reroll", "unit": "A1", "what": "hit", "roll": 1, "new": 6, "weapon": "Storm bolter"}]
    assert [e["name"] for e in g.events if e["e"] == "stratagem"][-1] == "Command Re-roll"


def test_command_reroll_of_a_wound_roll_once_per_phase():
    # every hit; wounds 5, 1, 2, 6: the 1 is offered and re-rolled to a 5; three saves of 1
    g = _a1_shoots([3, 3, 3, 3, 5, 1, 2, 6, 5, 1, 1, 1], {"A": 3, "B": 0})
    assert _offered(g, "wound")["roll"] == 1
    g.apply(parse("reroll"))
    ev = _attack_done(g)
    assert (ev["wounds"], ev["unsaved"], ev["lost"]) == (3, 3, 3)
    # a failed hit then: re-rolled, and the failed wound after it is not offered (once per phase)
    g = _a1_shoots([1, 3, 3, 3, 3, 1, 5, 5, 5, 4, 4, 4], {"A": 3, "B": 0})
    g.apply(parse("reroll"))
    ev = _attack_done(g)
    assert (ev["hits"], ev["wounds"], ev["unsaved"]) == (4, 3, 0) and g.cp["A"] == 2


def test_command_reroll_of_a_saving_throw_is_the_defenders():
    # hits 3, 3 (1s fail: A has no CP, no offer); wounds 5, 6; B's save of 1 is offered to B,
    # re-rolled to a 4 (saved); the next failed save (2) is not offered: once per phase
    g = _a1_shoots([3, 3, 1, 1, 5, 6, 1, 4, 2], {"A": 0, "B": 1})
    info = _offered(g, "save", "B")
    assert (info["unit"], info["roll"], info["wounds_left"]) == ("B3", 1, 2)
    g.apply(parse("reroll"))
    ev = _attack_done(g)
    assert (ev["wounds"], ev["unsaved"], ev["lost"]) == (2, 1, 1) and g.cp["B"] == 0


def test_command_reroll_of_a_random_damage_roll():
    def d3(w):
        return dataclasses.replace(w, damage=DiceExpr(1, 3, 0))
    # hits all; wounds 5, 5, 1, 1: the wound offer is declined; save 1, Damage D3 = 1 is offered
    # and re-rolled to 3 (the first Nob dies); save 1, Damage 2 (not offered: once per phase)
    g = _a1_shoots([3, 3, 3, 3, 5, 5, 1, 1, 1, 1, 3, 1, 2], {"A": 2, "B": 0}, d3)
    g.apply(parse("pass"))
    info = _offered(g, "damage")
    assert (info["roll"], info["wounds_left"], info["damage"]) == (1, 2, 2.0)
    g.apply(parse("reroll"))
    ev = _attack_done(g)
    assert (ev["unsaved"], ev["lost"], ev["destroyed"]) == (2, 4, 2)


def test_command_reroll_of_a_random_number_of_attacks():
    def d6_attacks(w):
        return dataclasses.replace(w.with_abilities(rapid_fire=None), attacks=DiceExpr(1, 6, 0))
    g = _a1_shoots([2, 5] + [3] * 5 + [5] * 5 + [4] * 5, {"A": 1, "B": 0}, d6_attacks)
    assert _offered(g, "attacks")["roll"] == 2
    g.apply(parse("reroll"))
    ev = _attack_done(g)
    assert (ev["attacks"], ev["hits"], ev["wounds"], ev["unsaved"]) == (5, 5, 5, 0)


def test_command_reroll_of_a_hazardous_test():
    def hazardous(w):
        return w.with_abilities(hazardous=True)
    g = _a1_shoots([3] * 4 + [5] * 4 + [4] * 4 + [1, 4], {"A": 1, "B": 0}, hazardous)
    info = _offered(g, "hazardous")
    assert (info["unit"], info["roll"]) == ("A1", 1)
    g.apply(parse("reroll"))
    _attack_done(g)
    assert [(e["tests"], e["failed"]) for e in g.events if e["e"] == "hazardous"] == [(1, 0)]
    assert g.units["A1"].models[0].wounds == g.units["A1"].W


def test_no_command_reroll_offer_without_cp_or_for_constant_attacks_and_damage():
    g = _a1_shoots([6, 1, 3, 2, 5, 4, 1], {"A": 0, "B": 0})
    ev = _attack_done(g)
    assert (ev["attacks"], ev["hits"], ev["wounds"], ev["lost"]) == (4, 2, 1, 1)
    assert not [e for e in g.events if e.get("step") == "reroll"]
    # with CP: the failed hit, wound and save are offered, never the constant Attacks or Damage
    g = _a1_shoots([6, 1, 3, 2, 5, 4, 1], {"A": 3, "B": 3})
    offers = []
    while g.decision.step == "reroll":
        offers.append((g.decision.player, g.decision.info["what"]))
        g.apply(parse("pass"))
    assert offers == [("A", "hit"), ("A", "wound"), ("B", "save")]
    _attack_done(g)


def test_no_command_reroll_offer_for_a_battle_shocked_unit():
    # A1 Battle-shocked: its failed hit and wound are not offered; B3's failed save is
    g = _a1_shoots([1, 1, 3, 3, 5, 1, 1], {"A": 2, "B": 2}, shocked=("A1",))
    _offered(g, "save", "B")
    g.apply(parse("pass"))
    assert _attack_done(g)["lost"] == 1
    g = _a1_shoots([1, 1, 3, 3, 5, 1, 1], {"A": 2, "B": 2}, shocked=("A1", "B3"))
    assert _attack_done(g)["lost"] == 1


def test_no_command_reroll_offer_for_a_die_an_ability_re_rolled():
    # Twin-linked: the failed Wound roll (1) is re-rolled (a 2, still failed): never again
    def twin(w):
        return w.with_abilities(twin_linked=True)
    g = _a1_shoots([3, 3, 3, 3, 1, 2, 5, 5, 5, 4, 4, 4], {"A": 2, "B": 0}, twin)
    ev = _attack_done(g)
    assert ev["wounds"] == 3 and g.cp["A"] == 2


def test_no_command_reroll_of_a_save_after_an_advance_re_roll_in_the_same_phase():
    g = at_first_move()
    place(g, "A3", block(14))
    place(g, "B3", block(24, dx=1.4))
    g.units["B3"].overwatch_until = g.turn
    g.cp.update(A=3, B=0)
    g.dice = Dice.scripted([1, 2])
    play(g, "advance A3 16,15", "reroll")  # the Advance roll of 1 re-rolled: Command Re-roll used
    assert g.decision.step == "overwatch"
    # Overwatch: one 6 hits, wounds on 4, A3's save of 1 fails: not offered (once per phase)
    g.dice = Dice.scripted([6, 5, 5, 5, 5, 4, 1])
    g.apply(parse("overwatch B3 A3"))
    assert g.decision.step == "move" and g.cp["A"] == 2
    assert [e for e in g.events if e["e"] == "attack"][-1]["lost"] == 1
    g.dice.assert_consumed()


def test_a_script_step_answers_the_offer_of_the_roll_it_names():
    from bagm.engine.log.script import Script, ScriptPlayer, Step

    def refuse(g):
        raise AssertionError(f"the bot was asked: {g.decision}")
    g = _a1_shoots([3, 3, 1, 3, 5, 1, 5, 5, 4, 4, 4], {"A": 3, "B": 0})
    step = Step(1, 1, "A", parse("reroll wound"), "A: reroll wound")
    player = ScriptPlayer(Script("test", 11, {}, steps=[step]), {"A": refuse, "B": refuse})
    _offered(g, "hit")
    assert player(g) == Action("pass")  # not the roll the step names: declined, the step waits
    g.apply(Action("pass"))
    _offered(g, "wound")
    act = player(g)
    assert act == parse("reroll wound") and act.text() == "reroll wound" and not player.leftover()
    g.apply(act)
    assert _attack_done(g)["wounds"] == 3 and g.cp["A"] == 2
    with pytest.raises(IllegalAction, match="for the hit roll"):
        g2 = _a1_shoots([3, 3, 1, 3, 5, 5, 4, 4, 4], {"A": 3, "B": 0})
        g2.apply(parse("reroll save"))


def test_games_with_command_re_rolls_are_deterministic_and_replay():
    from bagm.engine.log.record import play_bots, replay

    a = play_bots(11, GK, ORKS, 5)
    assert a.lines == play_bots(11, GK, ORKS, 5).lines
    assert any('"e":"command_reroll"' in x for x in a.lines)
    assert replay(a.lines).lines == a.lines


def test_command_reroll_in_the_fight_phase():
    # charge 12; A3's 15 Nemesis force weapon attacks all roll 1: one is offered and re-rolled
    g = _to_charge([6, 6] + [1] * 15 + [1])
    g.cp.update(A=2, B=0)
    play(g, "charge A3 B3")
    g.apply(parse("fight A3 B3"))
    info = _offered(g, "hit")
    assert (info["unit"], info["weapon"], info["roll"], info["damage"]) == ("A3", "Nemesis force weapon", 1, 2.0)
    g.apply(parse("reroll"))
    g.dice.assert_consumed()
    assert [e["what"] for e in g.events if e["e"] == "command_reroll"] == ["hit"] and g.cp["A"] == 1

def test_an_accepted_action_is_applied_without_a_second_check_and_others_are_checked():
    """Game.passes remembers the action it accepted for this decision (the bots check before
    they answer); any other action, or the same one at a later decision, is checked again."""
    g = new_game()
    ok, bad = parse("role attacker"), parse("deploy B3 2")
    assert not g.passes(bad)
    assert g.passes(ok)
    with pytest.raises(IllegalAction):
        g.apply(bad)  # not the accepted action: checked (and refused)
    g.apply(ok)
    d = g.decision
    assert g.passes(parse("deploy B3 2"))
    checks = []
    real = g.check
    g.check = lambda act: (checks.append(act), real(act))[1]  # type: ignore[method-assign]
    g.apply(parse("deploy B3 2"))  # an equal action: played, not checked again
    assert g.decision is not d and checks == []


# --- Hazardous: after the unit has resolved all of its attacks -------------------------------------


def test_hazardous_tests_come_after_all_of_the_units_attacks_one_per_weapon_used():
    """Hazardous: "Each time a unit is selected to shoot or fight, after that unit has resolved
    all of its attacks, for each Hazardous weapon that targets were selected for when resolving
    those attacks, that unit must take one Hazardous test." Two Purifiers split their fire (Storm
    bolter at B3, Purifying Flame at B4), both weapons Hazardous: four tests, taken once, after
    both targets' attacks."""
    g = _split_fire_game()
    a5 = g.units["A5"]
    a5.ranged = [w.with_abilities(hazardous=True) for w in a5.ranged]
    kept.touch(g)
    g.cp.update(A=0, B=0)
    g.dice = Dice(1)
    play(g, "shoot A5 B3 Storm bolter; B4 Purifying Flame")
    kinds = [e["e"] for e in g.events if e["e"] in ("attack", "shoot", "hazardous")]
    assert kinds == ["attack", "shoot", "attack", "shoot", "hazardous"]
    haz = [e for e in g.events if e["e"] == "hazardous"][0]
    assert haz["tests"] == 4 and len(haz["dice"]["hazardous"]) == 4
    assert "hazardous" not in [e for e in g.events if e["e"] == "attack"][0]["dice"]


def test_a_hazardous_weapon_whose_target_is_destroyed_first_still_owes_its_test():
    """Hazardous: "for each Hazardous weapon that targets were selected for when resolving those
    attacks, that unit must take one Hazardous test" -- targets selected, not attacks made. Both
    Purifiers shoot both weapons at B3, one Nob with one wound left: the Storm bolters (first)
    destroy it, so the Purifying Flames (Hazardous here) make no attack, yet owe their two tests."""
    g = _split_fire_game()
    a5, b3 = g.units["A5"], g.units["B3"]
    a5.ranged = [w.with_abilities(hazardous=True) if w.name == "Purifying Flame" else w for w in a5.ranged]
    place(g, "B3", [(21.0, 15.0)])
    b3.models[0].wounds = 1
    kept.touch(g)
    g.cp.update(A=0, B=0)
    g.dice = Dice(1)
    play(g, "shoot A5 B3")
    assert not b3.alive
    weapons = [e["weapon"] for e in g.events if e["e"] == "attack"]
    assert weapons == ["Storm bolter"]  # the Purifying Flames made no attack
    haz = [e for e in g.events if e["e"] == "hazardous"]
    assert len(haz) == 1 and haz[0]["tests"] == 2 and len(haz[0]["dice"]["hazardous"]) == 2


def test_hazardous_mortal_wounds_of_overwatch_at_a_charge_wait_for_the_charge_move():
    """Hazardous: "If a unit from a player's army is selected as the target of the Fire Overwatch
    Stratagem in their opponent's Charge phase, any mortal wounds inflicted by Hazardous tests are
    allocated after the charging unit has ended its Charge move" (Set Overwatch fires at a unit
    that declares a charge). B3's five Sluggas, Hazardous here, fire at A3 as it declares its
    charge; one test fails; the Nob loses its model only once A3 has made its Charge move."""
    g = _to_charge([])
    b3 = g.units["B3"]
    b3.ranged = [w.with_abilities(hazardous=True) for w in b3.ranged]
    b3.overwatch_until = g.turn
    kept.touch(g)
    g.cp.update(A=0, B=0)
    # Overwatch: five misses; the five tests (one fails); the Charge roll 6 + 6
    g.dice = Dice.scripted([1, 1, 1, 1, 1] + [1, 2, 2, 2, 2] + [6, 6])
    play(g, "charge A3 B3", "overwatch B3 A3")
    kinds = [(e["e"], "lost" in e) for e in g.events if e["e"] in ("hazardous", "charge_move", "charge")]
    assert kinds == [("hazardous", False), ("charge_move", False), ("charge", False), ("hazardous", True)]
    late = [e for e in g.events if e["e"] == "hazardous"][-1]
    assert (late["failed"], late["mortal_wounds"], late["destroyed"]) == (1, 3, 1)
    assert g.units["A3"].charged and len(b3.models) == 4
    g.dice.assert_consumed()


# --- Close-Quarters Killer: any Wound roll, the player chooses -----------------------------------


def _cqk_fight(dice: list[int], weapon=None, others: list[int] | None = None) -> Game:
    """A3 (Strike Squad: Nemesis force weapons, A3 WS3+ S6 AP-2 D2) charges B3 (Nobz: T5, Sv4+,
    W2) and fights; its first model bears Close-Quarters Killer here (a Strike Squad cannot take
    an Enhancement: the test stands it in for a CHARACTER model among others). The bearer's
    attacks are made first: two hits and a miss, then ``dice`` (its Wound rolls, re-rolls and
    saving throws); then the other four models' 12 attacks (``others``: all miss)."""
    g = _to_charge([6, 6] + [3, 3, 1] + dice + (others if others is not None else [1] * 12))
    a3 = g.units["A3"]
    a3.enhancement = "Close-Quarters Killer"
    a3.models[0].bearer = True  # (muster marks the bearer: Unit.bearer, muster.bearer_index)
    if weapon is not None:
        a3.melee = [weapon(w) for w in a3.melee]
    g.cp.update(A=0, B=0)
    play(g, "charge A3 B3")
    g.apply(parse("fight A3 B3"))  # (play would decline the offers)
    return g


def test_close_quarters_killer_offers_any_wound_roll_the_player_chooses():
    """Enhancements, Close-Quarters Killer: "Each time the bearer makes a melee attack, you can
    re-roll the Wound roll." Not only a failed one: each Wound roll that is not a Critical Wound
    is offered, die by die, free; the greedy bot re-rolls the failed 2 and keeps the 4 (S6 v T5
    wounds on 3+; a Critical Wound would add nothing without Devastating Wounds)."""
    from bagm.engine.bots.greedy import GreedyBot
    g = _cqk_fight([2, 4, 5, 1, 1])  # the Wound rolls, the re-roll, two saving throws
    d = g.decision
    assert (d.step, d.player) == ("reroll", "A")
    assert {k: d.info[k] for k in ("unit", "what", "roll", "free", "by", "outcome")} == {
        "unit": "A3", "what": "wound", "roll": 2, "free": True, "by": "Close-Quarters Killer", "outcome": "fail"}
    bot = GreedyBot()
    assert bot(g) == Action("reroll")
    g.apply(Action("reroll"))  # the 2 becomes a 5
    assert (g.decision.info["roll"], g.decision.info["outcome"]) == (4, "success")
    assert bot(g) == Action("pass")
    g.apply(Action("pass"))
    assert [e for e in g.events if e["e"] == "reroll"] == [
        {"e": "reroll", "unit": "A3", "what": "wound", "roll": 2, "new": 5, "weapon": "Nemesis force weapon",
         "by": "Close-Quarters Killer"}]
    assert g.cp["A"] == 0  # free: no Command Re-roll


def test_close_quarters_killer_never_offers_a_critical_wound_and_may_turn_a_success_into_one():
    """A successful Wound roll re-rolled for a Critical Wound: with Devastating Wounds and
    Anti-Infantry 4+ (here AP 0: the Nobz save on 4+), a re-roll is critical on 4, 5, 6 and fails
    on 1, 2: worth the risk (3 x 3 > 2 x 3), so the greedy bot re-rolls the 3 and gets a 6; the
    6 rolled first is never offered."""
    from bagm.data.weapons import Anti
    from bagm.engine.bots.greedy import GreedyBot

    def deadly(w):
        return dataclasses.replace(w.with_abilities(devastating_wounds=True, anti=(Anti("INFANTRY", 4),)), ap=0)
    g = _cqk_fight([6, 3, 6], deadly)
    d = g.decision
    assert (d.info["roll"], d.info["outcome"], d.info["devastating"]) == (3, "success", True)
    assert (d.info["critical_faces"], d.info["fail_faces"], d.info["save_faces"]) == (3, 2, 3)
    assert GreedyBot()(g) == Action("reroll")
    g.apply(Action("reroll"))
    assert g.decision.step != "reroll"  # no other die to offer: the first was a Critical Wound
    attack = next(e for e in g.events if e["e"] == "attack" and e["unit"] == "A3")  # the bearer's
    assert attack["models"] == 1
    assert attack["wounds"] == 2 and attack["dice"]["wound"] == [6, 3] and attack["dice"]["wound re-roll"] == [6]


def test_close_quarters_killer_is_the_bearers_not_its_units():
    """"Each time the bearer makes a melee attack": only the bearer's attacks. The bearer's two
    hits wound on 5 and 6: the 5 is offered (declined), the 6 (a Critical Wound) never; the
    Nobz save both on 6s. The other four models' two hits fail to wound on 2s: never offered."""
    g = _cqk_fight([5, 6, 6, 6], others=[3, 3] + [1] * 10 + [2, 2])
    d = g.decision
    assert (d.step, d.info["roll"], d.info["by"]) == ("reroll", 5, "Close-Quarters Killer")
    g.apply(Action("pass"))
    assert g.decision.step != "reroll"
    attacks = [e for e in g.events if e["e"] == "attack" and e["unit"] == "A3"]
    assert [(e["models"], e["hits"], e["dice"].get("wound")) for e in attacks] == [(1, 2, [5, 6]), (4, 2, [2, 2])]
    assert not any(e["e"] == "reroll" for e in g.events)
    assert g.dice.pending == ()


def test_close_quarters_killer_ends_with_its_bearer():
    """The bearer destroyed, its unit's other models fight on without the Enhancement: their
    failed Wound roll (a 2) is not offered."""
    g = _to_charge([6, 6] + [3, 3] + [1] * 10 + [2, 4, 6])
    a3 = g.units["A3"]
    a3.enhancement = "Close-Quarters Killer"
    a3.models[0].bearer = True
    a3.models = a3.models[1:]  # the bearer is slain
    kept.touch(g, a3)
    assert a3.bearer_model() is None
    g.cp.update(A=0, B=0)
    play(g, "charge A3 B3")
    g.apply(parse("fight A3 B3"))
    assert g.decision.step != "reroll"
    attack = next(e for e in g.events if e["e"] == "attack" and e["unit"] == "A3")
    assert (attack["models"], attack["dice"]["wound"]) == (4, [2, 4])


def test_the_bearer_of_an_enhancement_is_its_units_character_model():
    """Muster: a CHARACTER unit whose models have different profiles - only its CHARACTER model
    bears its Enhancement (muster.bearer_index: the profile named as the datasheet, else the one
    model of its profile with the most Wounds)."""
    from bagm.data.packs import Catalog
    from bagm.engine.game.muster import bearer_index

    cat = Catalog()
    want = {("Astra Militarum", "Cadian Command Squad"): "Cadian Commander",
            ("Astra Militarum", "Militarum Tempestus Command Squad"): "Tempestor Prime",
            ("Heretic Astartes", "Dark Apostle"): "Dark Apostle",
            ("Heretic Astartes", "Dark Commune"): "Cult Demagogue",
            ("Heretic Astartes", "Traitor Enforcer"): "Traitor Enforcer",  # not his Ogryn (W4)
            ("Leagues of Votann", "Grimnyr"): "Grimnyr",
            ("Leagues of Votann", "Brôkhyr Iron-master"): "Brôkhyr Iron-master",
            ("Agents of the Imperium", "Rogue Trader Entourage"): "Rogue Trader"}
    for (faction, unit), bearer in want.items():
        _, ds = cat.find_unit(unit, faction)
        names = [p.name for p in ds.models for _ in range(int((p.count or "1").split("-")[0]))]
        assert names[bearer_index(ds, names)] == bearer, unit
        others = [n for n in names if n != bearer]
        assert bearer_index(ds, others) is None  # a Boarding Squad without it bears nothing
    _, one = cat.find_unit("Strike Squad", "Grey Knights")
    assert bearer_index(one, []) == 0


def test_a_mustered_command_squad_marks_its_commander_as_the_bearer(tmp_path):
    """A Cadian Command Squad (a Cadian Commander, W3, and four Veteran Guardsmen, W1) taking
    Close-Quarters Killer: set up, only the Commander bears it."""
    text = (REPO / "rosters" / "astra_militarum_embarked_regiment.yaml").read_text().replace(
        "  - unit: Cadian Castellan\n    warlord: true\n    enhancement: Shipboard Veteran\n",
        "  - unit: Cadian Command Squad\n    models: 5\n    warlord: true\n"
        "    enhancement: Close-Quarters Killer\n")
    path = tmp_path / "command_squad.yaml"
    path.write_text(text)
    u = next(u for u in build_army("A", path).units if u.name.startswith("Cadian Command Squad"))
    models = u.new_models([(float(i), 1.0) for i in range(5)])
    assert [m.full or u.W for m in models if m.bearer] == [3]
    assert sum(m.bearer for m in models) == 1
