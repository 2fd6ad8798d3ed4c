"""Rules the engine once got wrong (issue 12, section 2), each against the book's text, with
scripted dice and the public Game API only."""

from __future__ import annotations

import math

import pytest
from conftest import REPO, without_rules

from bagm.chance.dice import Dice
from bagm.data.packs import Catalog
from bagm.engine.attack.sequence import TargetUnit
from bagm.engine.game import charge, kept, positions
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.state.actions import Action, parse
from bagm.roster.model import load_roster
from bagm.roster.squads import form_boarding_squads
from bagm.roster.underdog import decide
from bagm.roster.validate import validate

ROSTERS = REPO / "rosters"
GK_VOID = ROSTERS / "grey_knights_void_purge_force.yaml"
GK_BANE = ROSTERS / "grey_knights_baneslayer_strike.yaml"


# --- 1. The Underdog is decided on the roster totals ---------------------------------------------


def test_underdog_compares_roster_totals_not_boarding_squads():
    """Muster Boarding Patrol (step 1): "If, when players compare their points total, one
    players is at least 30 points less than their opponent's, then the player with the smaller
    points total is the Underdog". Form Boarding Squads (step 5) halves split units "rounding up",
    which here lifts 470 to 471: it must not take the Underdog away."""
    bane = validate(load_roster(GK_BANE), Catalog())
    void = validate(load_roster(GK_VOID), Catalog())
    assert (void.points, bane.points) == (500, 470)
    assert form_boarding_squads(str(GK_BANE), bane.units).points == 471  # the boundary case
    cli = decide(void.points, bane.points).underdog
    # a game is played under one edition: the 2023 Baneslayer roster (valid under 2024 too) as 2024
    bane_2024 = load_roster(GK_BANE, GK_BANE.read_text().replace("edition: 2023", "edition: 2024"))
    g = Game(11, build_army("A", GK_VOID, without_rules()), build_army("B", bane_2024), dice=Dice.scripted([]),
             rolloffs={"attacker": "A", "first_turn": "A"})
    assert cli == g.underdog == "B"
    assert g.cp["B"] == g.cp["A"] + 1  # mission 11's Underdog Bonus: 1 additional CP


# --- 3. Deep Strike and occupied Entry Zones ---------------------------------------------------

ORKS = ROSTERS / "orks_kaptin_killers.yaml"
# Attacker A (Grey Knights) and Defender B (Orks) on mission 11; A2 (Brotherhood Champion, Deep
# Strike) and A5 stay in Reserves; the Attacker's Entry Zones are the Zones (0,0), (0,3), (0,6).
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B5 1", "reserve A5", "reserve A2"]


def _game(dice: list[int] | None = None) -> Game:
    return _deploying(*DEPLOY, dice=dice)


def _decline(g: Game, until: str | None = None) -> None:
    """Decline every decision (``done`` or ``pass``) until the active player must decide ``until``
    (None: only the Battlefield Command windows)."""
    for _ in range(200):
        d = g.decision
        if d.step == until and d.player == "A":
            return
        if d.step in ("command", "use") or until is not None and d.step in ("overwatch", "counter", "reroll"):
            g.apply(Action("pass"))
        elif until is not None and d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge"):
            g.apply(Action("done"))
        else:
            return


def _at_deep_strike(g: Game) -> Game:
    _decline(g, "reinforce")
    g.round = 2  # Deep Strike units arrive from the second battle round
    return g


def test_deep_strike_into_an_empty_entry_zone_is_allowed():
    g = _at_deep_strike(_game())
    zone = g.map.layout.entry_zones_of("Attacker")[0]  # Zone (0,0): empty
    g.apply(parse(f"deepstrike A2 {zone.centre[0]},{zone.centre[1]}"))
    a2 = g.units["A2"]
    assert a2.where == "board" and all(zone.within(m.base) for m in a2.models)


def test_deep_strike_cannot_set_up_in_an_entry_zone_holding_another_unit():
    """Rules Adaptations, Deployment: "During the battle, you cannot set up a unit within an Entry
    Zone if any other unit is within that Entry Zone." Strike Squad A4 stands in the Attacker's
    Entry Zone (0,0); the Champion's Deep Strike aimed at that Zone must not end within it."""
    g = _at_deep_strike(_game())
    zone = g.map.layout.entry_zones_of("Attacker")[0]
    positions.set_positions(g, g.units["A4"], [(0.8, 0.8), (2.1, 0.8), (0.8, 2.1), (2.1, 2.1), (3.4, 0.8)])
    g.apply(parse("deepstrike A2 3.5,3.4"))
    a2 = g.units["A2"]
    assert not any(zone.within(m.base) for m in a2.models)
    for z in g.map.layout.entry_zones:  # no Entry Zone now holds A2 and another unit
        if any(z.within(m.base) for m in a2.models):
            assert not any(z.within(m.base) for u in g.units.values() if u is not a2 and u.alive
                           for m in u.models)


# --- 4. A charge through an open Hatchway ------------------------------------------------------


def _charge_through_hatchway(dice: list[int]) -> Game:
    """Strike Squad A3 west of the open Hatchway 3 (the Wall at x = 17.6), Nobz B3 just east of
    it: the nearest pair is 4.24" apart, the line through the open Hatchway."""
    g = _game(dice)
    y = g.map.layout.hatchways[2].centre[1]
    assert g.bf.is_open(2)
    positions.set_positions(g, g.units["A3"], [(13.5, y), (12.2, y - 0.7), (12.2, y + 0.7), (10.9, y - 0.7),
                                    (10.9, y + 0.7)])
    positions.set_positions(g, g.units["B3"], [(19.0, y), (20.3, y - 0.7), (20.3, y + 0.7), (21.6, y - 0.7),
                                    (21.6, y + 0.7)])
    _decline(g, "charge")
    assert charge.charge_needed(g, g.units["A3"], g.units["B3"]) == pytest.approx(4.24 - 2.0, abs=0.01)
    g.apply(parse("charge A3 B3"))
    for _ in range(10):  # B's Overwatch offer, A's Command Re-roll offer: declined
        if g.decision.step in ("overwatch", "reroll", "command", "use"):
            g.apply(Action("pass"))
    return g


def test_a_charge_through_an_open_hatchway_needs_to_reach_2_inches():
    """Rules Adaptations, Engagement Range: "When measuring through an open Hatchway, while a
    model is within 2" horizontally of an enemy model, those models are within Engagement Range of
    each other." So a Charge roll of 3 is enough for a gap of 4.24" measured through the open
    Hatchway (4.24 - 2 = 2.24), where 1" would need 3.24; and the charger does not end in the
    middle of the Hatchway ("a model cannot end a move with its base in the middle of an open
    Hatchway")."""
    g = _charge_through_hatchway([2, 1])
    a3, b3 = g.units["A3"], g.units["B3"]
    assert a3.charged and positions.engaged(g, a3, b3)
    assert all(g.bf.fits(m.base) for m in a3.models)
    assert g.dice.pending == ()


def test_a_charge_through_an_open_hatchway_still_fails_short_of_2_inches():
    g = _charge_through_hatchway([1, 1])  # 2 < 2.24: the charge fails, no model moves
    a3 = g.units["A3"]
    assert not a3.charged and (a3.models[0].x, a3.models[0].y)[0] == 13.5


# --- 5. Hazardous: each failed test one at a time -----------------------------------------------


def test_each_failed_hazardous_test_is_resolved_one_at_a_time():
    """Hazardous: "For each failed test you must resolve the following sequence (resolve each
    failed test one at a time)": select a model that has lost wounds, otherwise any model; it
    suffers 3 mortal wounds, the rest lost when it is destroyed (Mortal Wounds). Two failed tests
    on W2 models destroy two models, not one with the other 4 mortal wounds lost."""
    unit = TargetUnit([2, 2, 2, 2, 2], 2)
    assert unit.hazardous(2, Dice.scripted([])) == 4
    assert unit.wounds == [0, 0, 2, 2, 2] and unit.destroyed == 2


def test_a_failed_hazardous_test_selects_a_model_that_has_lost_wounds_first():
    unit = TargetUnit([4, 4, 1, 4], 4)  # the third model has lost 3 wounds
    assert unit.hazardous(1, Dice.scripted([])) == 1  # 3 mortal wounds, 2 lost with the model
    assert unit.wounds == [4, 4, 0, 4]
    assert unit.hazardous(1, Dice.scripted([])) == 3  # then any model: 3 of its 4 wounds
    assert unit.wounds == [1, 4, 0, 4]


# --- 6. Deploy Armies: one unit per Entry Zone, a CHARACTER may share ---------------------------


def _deploying(*texts: str, dice: list[int] | None = None) -> Game:
    """Mission 11, Grey Knights (A, the Attacker) against Orks (B), after ``texts``."""
    g = Game(11, build_army("A", GK_VOID, without_rules()), build_army("B", ORKS, without_rules()), dice=Dice.scripted(dice or []),
             rolloffs={"attacker": "A", "first_turn": "A"})
    for text in texts:
        _decline(g)
        g.apply(parse(text))
    _decline(g)
    return g


def test_deploy_armies_fills_every_entry_zone_when_characters_share_one():
    """Deploy Armies (step 7): "For each of a player's Entry Zones ..., that player sets up one
    unit within that Entry Zone ... until either all players have set up one unit per Entry Zone,
    or all units have been deployed"; Deployment adaptation: "a maximum of one unit without the
    CHARACTER keyword and a maximum of one unit with the CHARACTER keyword in each Entry Zone".
    A CHARACTER joining a used zone does not use up another: all three Entry Zones get a unit
    and all five units are set up."""
    g = _deploying("role attacker", "deploy B3 1", "deploy A3 1", "deploy B1 1", "deploy A1 1",
                   "deploy B4 2", "deploy A4 2", "deploy B2 2", "deploy A2 2", "deploy B5 3",
                   "deploy A5 3")
    assert g.decision.step != "deploy"
    for p, role in (("A", "Attacker"), ("B", "Defender")):
        assert all(u.where == "board" for u in g.army_units(p, "board") + g.army_units(p, "reserves")) \
            and not g.army_units(p, "reserves")
        for zone in g.map.layout.entry_zones_of(role):
            assert any(zone.within(m.base) for u in g.army_units(p) for m in u.models)


def test_deploy_armies_stops_once_every_entry_zone_has_a_unit():
    g = _deploying("role attacker", "deploy B3 1", "deploy A3 1", "deploy B4 2", "deploy A4 2",
                   "deploy B5 3")
    assert g.decision.step == "deploy" and g.decision.player == "A"
    g.apply(parse("deploy A5 3"))
    _decline(g)
    # B sets up one unit per Entry Zone too: both are done, the CHARACTERs go to Reserves
    assert g.decision.step != "deploy"
    assert {u.uid for u in g.army_units("A", "reserves")} == {"A1", "A2"}
    with pytest.raises(IllegalAction):
        g.check(parse("deploy A1 1"))


# --- 2. Other models are impassable; Normal moves keep out of Engagement Range --------------------

DOORWAY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
           "deploy A4 3", "deploy B5 1", "deploy A5 1"]
# Hatchway 5 (open) is the only open way out of the north-west room (Zones x 0-1, y 0-1) of
# mission 11: the Wall runs along y = 8.57 with the opening from x = 5.35 to 7.85.
PURIFIERS_NORTH = [(6.6, 5.5), (5.3, 5.5), (7.9, 5.5), (5.95, 4.3), (7.25, 4.3)]
MEGANOBZ_IN_THE_DOORWAY = [(5.0, 9.62), (6.6, 9.62), (8.2, 9.62)]  # 40mm bases, side by side


def _doorway(meganobz: list[tuple[float, float]]) -> Game:
    g = _deploying(*DOORWAY)
    positions.set_positions(g, g.units["A5"], PURIFIERS_NORTH)
    positions.set_positions(g, g.units["B5"], meganobz)
    assert not positions.engaged_with(g, g.units["A5"])
    return g


def _move(g: Game, text: str) -> None:
    g.apply(parse(text))
    for _ in range(10):  # B's Overwatch offer: declined
        if g.decision.step in ("overwatch", "reroll", "command"):
            g.apply(Action("pass"))


def test_three_meganobz_filling_the_only_doorway_stop_a_squad():
    """Rules Adaptations, Impassable Terrain and Other Models: "Walls, closed Hatchways and
    other models are considered impassable, meaning models cannot move through or end a move
    overlapping them"; Normal Moves: "no model can be moved within Engagement Range of any
    enemy models". Three Meganobz standing side by side in the mouth of the room's only open
    Hatchway: the Purifier Squad cannot get out that way, so none of its models ends south of
    the Wall."""
    g = _doorway(MEGANOBZ_IN_THE_DOORWAY)
    _move(g, "move A5 6.6,13")
    a5 = g.units["A5"]
    assert all(m.y < 8.57 for m in a5.models)
    assert not positions.engaged_with(g, a5)


def test_the_same_squad_walks_through_when_the_doorway_is_clear():
    g = _doorway([(20.0, 10.5), (21.6, 10.5), (23.2, 10.5)])  # the Meganobz stand well aside
    _move(g, "move A5 6.6,13")
    assert any(m.y > 8.57 for m in g.units["A5"].models)


def test_a_move_goes_around_engagement_range_not_through_it():
    """Normal Moves: "no model can be moved within Engagement Range of any enemy models". The
    Warboss stands on the straight line from the Strike Squad's lead model to its goal 5.5"
    away: the route bends around his Engagement Range, so the squad falls short of the goal
    (straight through, 5.5" would have reached it)."""
    g = _deploying(*DOORWAY)
    y = 15.0
    positions.set_positions(g, g.units["A3"], [(8.0, y), (6.7, y - 0.7), (6.7, y + 0.7), (5.4, y - 0.7), (5.4, y + 0.7)])
    positions.set_positions(g, g.units["B1"], [(11.0, y)])  # the Warboss, in the way
    events = g.apply(parse("move A3 13.5,15"))
    move = next(e for e in events if e.get("e") == "move")
    a3, boss = g.units["A3"], g.units["B1"].models[0]
    assert move["moved"] <= 6.0
    assert not any(math.hypot(m.x - 13.5, m.y - y) < 0.01 for m in a3.models)
    assert not positions.engaged_with(g, a3)
    assert all(math.hypot(m.x - boss.x, m.y - boss.y) - m.r - boss.r > 1.0 for m in a3.models)


# --- Also: Rapid Fire and Melta count per model ----------------------------------------------------


def _storm_bolters_at_nobz(g: Game, near: bool, dice: list[int], first: str | None = None) -> list[dict]:
    """A3's five Strike Squad models in a column, two of them within 12" of B3 (five Nobz, at
    25-27.6" on the same line) if ``near``, else none; A3 shoots its storm bolters at B3 with
    ``dice`` (after the action ``first``, if any); the attack events."""
    y = 15.0
    a3 = [(14.0, y - 0.7), (14.0, y + 0.7), (9.0, y - 0.7), (9.0, y + 0.7), (7.7, y)]
    far = [(9.0, y - 0.7), (9.0, y + 0.7), (7.7, y - 0.7), (7.7, y + 0.7), (6.4, y)]
    positions.set_positions(g, g.units["A3"], a3 if near else far)
    positions.set_positions(g, g.units["B3"], [(25.0, y - 0.7), (25.0, y + 0.7), (26.3, y - 0.7), (26.3, y + 0.7),
                                    (27.6, y)])
    kept.touch(g)
    _decline(g, "shoot")
    if first is not None:
        g.apply(parse(first))
    g.dice.feed(dice)
    events = g.apply(parse("shoot A3 B3 Storm bolter"))
    for _ in range(20):
        if g.decision.step in ("reroll", "command"):
            events += g.apply(Action("pass"))
    assert g.dice.pending == ()
    return [e for e in events if e.get("e") == "attack"]


def test_rapid_fire_adds_attacks_only_for_the_models_within_half_range():
    """Rapid Fire: "Each time such a weapon targets a unit within half that weapon's range, the
    Attacks characteristic of that weapon is increased by x" - each model's own weapon. Two of
    the five Strike Squad models stand within 12" of the Nobz, three beyond: 2 x (2 + 2) + 3 x 2
    = 14 storm bolter attacks (all 1s here: every one misses)."""
    attacks = _storm_bolters_at_nobz(_deploying(*DOORWAY), True, [1] * 14)
    assert [e["attacks"] for e in attacks] == [8, 6] and [e["models"] for e in attacks] == [2, 3]


def test_melta_adds_damage_only_to_the_attacks_of_models_within_half_range():
    """Melta: "Each time an attack made with such a weapon targets a unit within half that
    weapon's range, that attack's Damage characteristic is increased by x" - per attacking
    model, as Rapid Fire. The Strike Squad's storm bolters made Melta 2 here (D1, so D3 within
    12"): two models stand within 12" of the Nobz (W2), three beyond. One attack of each group
    hits, wounds and is not saved: the near one's 3 Damage destroys a Nob, the far one's 1
    Damage takes one wound from the next."""
    import dataclasses

    g = _deploying(*DOORWAY)
    a3 = g.units["A3"]
    a3.ranged = [dataclasses.replace(w, abilities=dataclasses.replace(w.abilities, melta=2))
                 for w in a3.ranged]
    # near: 2 models x (2 + Rapid Fire 2) = 8 hit rolls, one 6; its wound roll 6; its save 1
    # far: 3 models x 2 = 6 hit rolls, one 6; its wound roll 6; its save 1
    attacks = _storm_bolters_at_nobz(g, True, [6] + [1] * 7 + [6, 1] + [6] + [1] * 5 + [6, 1])
    assert [(e["models"], e["attacks"], e["unsaved"], e["lost"], e["destroyed"]) for e in attacks] == \
        [(2, 8, 1, 2, 1), (3, 6, 1, 1, 0)]


# --- Also: Expert Breacher at the start or the end of Move Units -----------------------------------


def _breacher_at_hatchway_2() -> Game:
    from bagm.engine.state.army import Model

    g = _deploying(*DOORWAY)
    u = g.units["A2"]  # Brotherhood Champion with Expert Breacher (in Strategic Reserves)
    cx, cy = g.map.layout.hatchways[1].centre
    u.models, u.where = [Model(cx - 1.0, cy, u.radius, u.W)], "board"
    kept.touch(g)
    return g


def test_expert_breacher_operates_a_hatchway_at_the_start_of_move_units():
    """Expert Breacher: "The bearer's unit can attempt to operate a Hatchway at the start or end
    of the Move Units step of your Movement phase" - at the start, before any unit moves."""
    g = _breacher_at_hatchway_2()
    assert Action("hatch", "A2", arg="2") in g.legal_actions()
    g.apply(parse("hatch A2 2"))
    assert g.bf.is_open(1) and g.decision.step == "move"


def test_expert_breacher_cannot_operate_a_hatchway_once_units_have_moved():
    g = _breacher_at_hatchway_2()
    g.apply(parse("hold A3"))
    _decline(g)
    assert Action("hatch", "A2", arg="2") not in g.legal_actions()
    with pytest.raises(IllegalAction, match="start or the end"):
        g.check(parse("hatch A2 2"))


# --- Also: Battle-shock on the best Leadership in the unit -----------------------------------------


SISTERS = ROSTERS / "adepta_sororitas_penitents_and_pilgrims.yaml"


def test_battle_shock_uses_the_best_leadership_in_the_unit():
    """Battle-shock step: "if the result is greater than or equal to the best Leadership
    characteristic in that unit, the test is passed". A Repentia Squad is nine Sisters Repentia
    (Ld 8+) and a Repentia Superior (Ld 7+): split into two Boarding Squads, the half the
    Superior's loadout is dealt to tests on 7+ while she lives, the other on 8+; a unit of one
    profile keeps its own."""
    army = build_army("A", SISTERS)
    units = {u.name: u for u in army.units}
    a, b = units["Repentia Squad A"], units["Repentia Squad B"]
    with_superior = a if -1 in a.kit_ld else b
    without = b if with_superior is a else a
    assert sorted(with_superior.kit_ld) == [-1, 0, 0, 0, 0] and not any(without.kit_ld)
    assert with_superior.Ld == without.Ld == 8  # the Sisters' profile; the Superior's is one better
    assert units["Ministorum Priest"].leadership() == 7


def _sisters_battle_shock(dice: list[int], superior_alive: bool) -> Game:
    """Mission 11, Sisters (A) against Orks (B): Repentia Squad B (A4: four Sisters Repentia and
    the Superior) is cut to two models before A's first Battle-shock step."""
    g = Game(11, build_army("A", SISTERS), build_army("B", ORKS), dice=Dice.scripted(dice),
             rolloffs={"attacker": "A", "first_turn": "A"})
    u = g.units["A4"]
    while u.where != "board":
        g.apply(g.legal_actions()[0])  # the first legal deployment of each unit
    assert [m.ld_diff for m in u.models] == [0, 0, 0, 0, -1]
    u.models = [u.models[0], u.models[4]] if superior_alive else u.models[:2]  # Below Half-strength
    # (the Orks' Void Waaagh!: not called; the Sisters' Act of Faith before the test: not performed)
    while g.decision.step in ("deploy", "command", "use", "rule"):
        g.apply(g.legal_actions()[0] if g.decision.step == "deploy" else Action("pass"))
    return g


@pytest.mark.parametrize("superior_alive, ld, passed", [(True, 7, True), (False, 8, False)])
def test_battle_shock_leadership_worsens_when_the_best_model_is_destroyed(superior_alive, ld, passed):
    """The best Leadership "in that unit" is that of the models left: a roll of 7 passes while
    the Superior (7+) lives and fails once only Sisters Repentia (8+) are left."""
    g = _sisters_battle_shock([1, 3, 4], superior_alive)  # first, the Miracle dice of A's turn (Acts of Faith)
    test = [e for e in g.events if e["e"] == "battleshock_test"]
    assert [(e["unit"], e["roll"], e["ld"], e["passed"]) for e in test] == [("A4", 7, ld, passed)]
    assert g.units["A4"].leadership() == ld


# --- Also: Explosive Clearance for one model's Blast weapon ----------------------------------------


def test_explosive_clearance_is_for_one_models_blast_weapon():
    """Explosive Clearance: "Select one model in your unit that is equipped with a weapon with the
    [BLAST] ability ... attacks made with that weapon can be allocated to models that are not
    visible to the attacking model": one model's weapon, not every model's. The Strike Squad's
    storm bolters made Blast here: one model fires with the Stratagem, the other four without
    (2 attacks + 1 for Blast against five models each; all 1s: every one misses)."""
    import dataclasses

    g = _deploying(*DOORWAY)
    a3 = g.units["A3"]
    a3.ranged = [dataclasses.replace(w, abilities=dataclasses.replace(w.abilities, blast=True))
                 for w in a3.ranged]
    attacks = _storm_bolters_at_nobz(g, False, [1] * 15, first="clearance A3")
    assert [(e["models"], e["attacks"]) for e in attacks] == [(1, 3), (4, 12)]


# --- Also: Battlefield Command at the start and the end of every phase -----------------------------


def test_battlefield_command_has_a_window_at_the_start_and_the_end_of_every_phase():
    """Battlefield Command: "WHEN: Start or end of any phase." In the mission sequence's program
    every phase opens with a window and ends with one, the Fight phase included (before the end
    of the turn)."""
    from bagm.engine.game.flow import program

    steps = [s.name for s in program(Game, 5)]
    starts = {"command phase", "movement phase", "shooting phase", "charge phase", "fight phase"}
    phases = [i for i, name in enumerate(steps) if name in starts]
    assert len(phases) == 5 * 2 * 5
    for i in phases:
        assert steps[i + 1] == "start of the phase"  # the Battlefield Command window (phase_start)
        end = next(j for j in range(i + 1, len(steps)) if steps[j] in starts or steps[j] == "end of turn")
        assert steps[end - 1] == "end of the phase", (steps[i], steps[end - 1])  # (phase_end)
        assert end - 1 > i + 1  # two windows, not one


# --- Also: Engagement Range through an open Hatchway along a move; each model's own path -----------


def test_a_move_does_not_pass_within_2_inches_of_an_enemy_through_an_open_hatchway():
    """Rules Adaptations, Engagement Range: "When measuring through an open Hatchway, while a
    model is within 2" horizontally of an enemy model, those models are within Engagement Range of
    each other"; Normal Moves: "no model can be moved within Engagement Range of any enemy models"
    (along the move, not only where it ends). The Chaplain walks south along the west side of the
    Wall past the open Hatchway 3; the Warboss stands east of it, 1.93" away through the opening
    when the Chaplain passes: the move stops before it comes within 2" through the Hatchway, though
    both ends of the walk are farther than 2" (3.7" of its Move 5")."""
    g = _game()
    y = g.map.layout.hatchways[2].centre[1]
    assert g.bf.is_open(2)
    chaplain, boss = g.units["A1"], g.units["B1"]
    positions.set_positions(g, chaplain, [(16.5, 4.0)])
    positions.set_positions(g, boss, [(20.0, y)])
    assert not positions.engaged_with(g, chaplain)
    _move(g, "move A1 16.5,7.4")
    m = chaplain.models[0]
    assert m.y < 5.8  # stopped short of the Hatchway, where it would be within 2" of the Warboss
    assert m.y > 5.0  # the way there is clear
    assert not positions.engaged_with(g, chaplain)


def test_every_model_moves_no_farther_than_its_move():
    """Normal Moves: "each model in that unit can move a distance in inches less than or equal to
    its Move (M) characteristic" - each model, not only the one leading the way. A Strike Squad
    (M6") spread over 2.6" moves east: gathered around where its lead model could go in 6", the
    rear models would move 7.3"; instead the squad gathers nearer, every model 6" at most, in
    Unit Coherency."""
    g = _deploying(*DOORWAY)
    y = 15.0
    a3 = g.units["A3"]
    start = [(8.0, y), (6.7, y - 0.7), (6.7, y + 0.7), (5.4, y - 0.7), (5.4, y + 0.7)]
    positions.set_positions(g, a3, start)
    _move(g, "move A3 20,15")
    moved = sorted(math.hypot(m.x - x, m.y - yy) for m, (x, yy) in zip(a3.models, start))
    assert moved[-1] <= a3.M + 1e-6
    assert max(m.x for m in a3.models) > 11.0  # on its way all the same
    assert positions.coherent(g, [(m.x, m.y) for m in a3.models], a3.radius)
