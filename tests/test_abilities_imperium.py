"""Datasheet abilities of the Imperial factions, Necrons, T'au, Votann and Aeldari in the engine
(issue 13 s4): each plays as its datasheet says, with scripted dice and its boundaries. The rule
each test follows is quoted in short (paraphrase) in its first comment."""

from __future__ import annotations

import copy
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from conftest import REPO
from test_abilities import GUN, attack, game, give, near_marker, shrink
from test_army_rules import entry

from bagm.chance.dice import Dice
from bagm.data.abilities import played
from bagm.data.packs import Catalog
from bagm.engine.attack.rules import Conditions
from bagm.engine.game import charge, kept, moments, shooting
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.stratagem_costs import stratagem_cost
from bagm.engine.state.actions import parse
from bagm.engine.state.army import Unit

ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")


@cache
def _orks() -> Any:
    return build_army("B", ORKS)


def versus_orks(roster: str, seed: int = 4, mission: int = 11) -> Game:
    """A game (mission ``mission``) of the bundled roster ``roster`` (player A) against the Orks,
    deployed."""
    a, b = build_army("A", str(REPO / "rosters" / roster)), copy.deepcopy(_orks())
    b.edition = a.edition  # (a 2023 roster plays against the same Orks under its edition)
    g = Game(mission, a, b, dice=Dice(seed), rolloffs={"attacker": "A", "first_turn": "A"})
    for _ in range(100):
        d = g.decision
        if d.step == "use" and d.player == "B" and d.info.get("timing") == "round_start":
            g.apply(parse("pass"))  # the Orks' Void Waaagh!: not called
            continue
        if d.step not in ("roles", "deploy", "opening"):
            break
        legal = g.legal_actions()
        g.apply(next((x for x in legal if x.kind in ("deploy", "done")), legal[0]))
    return g


def having(g: Game, name: str, p: str = "A") -> list[Unit]:
    """Player ``p``'s units whose datasheet lists ability ``name`` (in reserves too: such a unit is
    put on the battlefield)."""
    out = [u for u in g.units.values() if u.player == p and name in u.datasheet.abilities]
    for u in out:
        if u.where != "board":  # somewhere on the board, to be placed by the test
            ref = g.army_units(p)[0].models[0]
            u.models = u.new_models([(ref.x, ref.y)])
            u.where = "board"
            kept.touch(g, u)
    return out


# --- Stratagem costs --------------------------------------------------------------------------


@pytest.mark.parametrize("roster, name", [
    ("adeptus_astartes_shield_of_the_void.yaml", "Rites of Battle"),
    ("adeptus_custodes_voyagers_into_darkness.yaml", "Strategic Mastery"),
    ("adepta_sororitas_pious_protectors.yaml", "Sacred Command"),
    ("grey_knights_baneslayer_strike.yaml", "Warrior Strategist"),
    ("aeldari_protector_host.yaml", "Path of Command"),
    ("necrons_tomb_ship_complement.yaml", "My Will Be Done"),
    ("tau_empire_kroot_raiding_party.yaml", "War Leader")])
def test_once_per_battle_round_a_stratagem_on_the_unit_costs_1cp_less(roster, name):
    # Rites of Battle, Strategic Mastery, Sacred Command (Canoness), Warrior Strategist, Path of
    # Command, My Will Be Done (Overlord), War Leader: "once per
    # battle round, one unit from your army with this ability can use it when its unit is targeted
    # with a Stratagem: reduce the CP cost of that use by 1CP" (never below 0)
    g = versus_orks(roster)
    units = having(g, name)
    assert units, name
    u = units[0]
    other = next(v for v in g.army_units("A") if name not in v.datasheet.abilities)
    assert stratagem_cost(g, "A", 1, other) == 1
    assert stratagem_cost(g, "A", 2, u) == 1 and stratagem_cost(g, "A", 1, u) == 0  # asked, not spent
    assert stratagem_cost(g, "A", 1, u, mark=True) == 0
    assert stratagem_cost(g, "A", 1, u) == 1  # spent for the round: one unit of the army, once
    for v in units[1:]:
        assert stratagem_cost(g, "A", 1, v) == 1
    g.round += 1
    assert stratagem_cost(g, "A", 1, u) == 0


# --- re-rolls and modifiers -------------------------------------------------------------------


def test_cunning_hunters_of_grey_hunters_rerolls_wounds(tmp_path):
    # Grey Hunters "Cunning Hunters": re-roll a Wound roll of 1; against a target within range of
    # an objective marker, any Wound roll. The Codex: Space Marines ability of that name (a charge
    # re-roll from Strategic Reserves) is another rule: the entry is for Grey Hunters only
    assert Catalog().abilities("Adeptus Astartes").find("Cunning Hunters", "Scout Squad") is None
    g = game(tmp_path, "[]")
    give(g, "A3", "Adeptus Astartes", "Cunning Hunters", "Grey Hunters")
    near_marker(g, "B3", False)  # the Nobz (T5: S4 wounds on 5+)
    assert attack(g, "A3", "B3", GUN, [3, 1, 5, 1]) == (1, 0)  # a 1 re-rolled
    assert attack(g, "A3", "B3", GUN, [3, 2]) == (0, 0)  # a 2 is not
    near_marker(g, "B3", True)
    assert attack(g, "A3", "B3", GUN, [3, 2, 5, 1]) == (1, 1)


def test_tempered_ferocity_sustained_hits_and_hit_rerolls_of_one_within_6(tmp_path):
    # Wolf Guard Battle Leader "Tempered Ferocity" (a Leader ability, conferred by Battlefield
    # Command): the unit's weapons have [SUSTAINED HITS 1]; its attacks that target an enemy unit
    # within 6" re-roll a Hit roll of 1
    from test_army_rules import at_distance

    lead = Catalog().find_unit("Wolf Guard Battle Leader", "Adeptus Astartes")[1].leader
    ability = next(a for a in lead.abilities if a.name == "Tempered Ferocity")
    g = game(tmp_path, "[]")
    g.units["A3"].standing = tuple(("Tempered Ferocity", e) for e in ability.effects)
    a3, b3 = g.units["A3"], g.units["B3"]
    shrink(g, "A3", 1)
    at_distance(g, a3, b3, 7)
    assert attack(g, "A3", "B3", GUN, [1]) == (0, 0)  # beyond 6": no re-roll
    # Sustained Hits at any range: a 6 scores two hits (both wound; one save of 4 passes)
    assert attack(g, "A3", "B3", GUN, [6, 5, 5, 1, 4]) == (1, 0)
    at_distance(g, a3, b3, 6)
    # a 1 re-rolled to a 6 within 6": a Critical Hit, two hits; one wounds, its save fails
    assert attack(g, "A3", "B3", GUN, [1, 6, 5, 1, 1]) == (1, 1)


# --- abilities that play no part, and the T'au army rule ------------------------------------


@pytest.mark.parametrize("faction, name, unit", [
    ("Astra Militarum", "Political Overwatch", "Commissar"),
    ("T'au Empire", "For The Greater Good", "Strike Team")])
def test_abilities_that_play_no_part_in_boarding_actions(faction, name, unit):
    # Political Overwatch needs another OFFICER model in the Commissar's unit (Leaders never attach
    # in Boarding Actions); the Mustering Rules' Void Combat Discipline: units lose For the Greater Good
    found = Catalog().abilities(faction).find(name, unit)
    assert found is not None and found.entry.removed and found.entry.section


# --- Laud Hailer ----------------------------------------------------------------------------------


def test_laud_hailer_ends_battle_shock_of_a_sororitas_unit_within_12():
    # Dialogus "Laud Hailer": once per battle, at the start of any phase, one friendly ADEPTA
    # SORORITAS unit within 12" of this model that is Battle-shocked is no longer Battle-shocked
    from test_army_rules import at_distance

    g = versus_orks("adepta_sororitas_pious_protectors.yaml")
    dialogus = having(g, "Laud Hailer")[0]
    sisters = next(u for u in g.army_units("A") if u is not dialogus and "ADEPTA SORORITAS" in u.keywords)
    sisters.battleshocked = True
    at_distance(g, dialogus, sisters, 12.5)
    assert not [x for x in moments.usable(g, "A", "phase_start") if x.arg == "Laud Hailer"]
    at_distance(g, dialogus, sisters, 12)
    acts = [x for x in moments.usable(g, "A", "phase_start") if x.arg == "Laud Hailer"]
    assert [x.unit for x in acts] == [sisters.uid]
    moments.use_rule(g, "A", acts[0])
    assert not sisters.battleshocked
    sisters.battleshocked = True
    assert not [x for x in moments.usable(g, "A", "phase_start") if x.arg == "Laud Hailer"]  # once per battle
    assert entry("Adepta Sororitas", "Laud Hailer").moments[0].once == "battle"


# --- Electro-shock ---------------------------------------------------------------------------------


def test_electro_shock_slows_an_enemy_unit_hit_until_the_end_of_its_next_turn():
    # Corpuscarii Electro-Priests "Electro-shock": in your Shooting phase, after this unit has shot,
    # select one enemy unit (excluding MONSTERS and VEHICLES) hit by those attacks: until the end of
    # your opponent's next turn it is shocked (-2" Move, -2 to Advance and Charge rolls)
    from conftest import advance_to

    from bagm.engine.rules.effects import effect_sum

    g = versus_orks("adeptus_mechanicus_machine_cult.yaml")
    u = having(g, "Electro-shock")[0]
    advance_to(g, "move", "A")
    g.phase = "shooting"  # (A's Shooting phase of this turn, for the while)
    b3, b4 = g.units["B3"], g.units["B4"]
    b4.keywords = b4.keywords | {"VEHICLE"}  # (a VEHICLE is never selected)
    u.volley = (("B3", 0, 0), ("B4", 2, 0), ("B1", 0, 0))
    assert moments.usable(g, "A", "after_shot", u.uid) == []  # B3 not hit, B4 a VEHICLE
    u.volley = (("B3", 1, 0),)
    assert moments.usable(g, "B", "after_shot", u.uid) == []  # in your Shooting phase, your unit
    acts = moments.usable(g, "A", "after_shot", u.uid)
    assert [a.text() for a in acts] == ["use B3 Electro-shock"]
    moments.use_rule(g, "A", acts[0])
    assert moments.usable(g, "A", "after_shot", u.uid) == []  # once a phase
    g.phase = "movement"
    shocked = [effect_sum(b3, f) for f in ("M_mod", "advance_mod", "charge_mod")]
    assert shocked == [-2, -2, -2] and b3.move() == b3.M - 2
    turn = g.turn
    g.dice = Dice(3)
    advance_to(g, "move", "B")  # the opponent's next turn: still shocked
    assert g.turn == turn + 1 and [effect_sum(b3, f) for f in ("M_mod", "advance_mod", "charge_mod")] == shocked
    advance_to(g, "move", "A")  # ... until its end
    assert [effect_sum(b3, f) for f in ("M_mod", "advance_mod", "charge_mod")] == [0, 0, 0]
    assert any(e["e"] == "effect" and e["until"] == "their_turn" for e in g.events)
    assert any(e["e"] == "effect_ends" and e["unit"] == "B3" and e["rule"] == "Electro-shock" for e in g.events)


def test_guerrilla_adepts_is_a_codex_detachments_rule():
    # the catalogues show "Guerrilla Adepts" on Votann datasheets only in an army of the Codex
    # Persecution Prospect Detachment; a Boarding Patrol takes a Boarding Actions Detachment
    found = Catalog().abilities("Leagues of Votann").find("Guerrilla Adepts", "Hearthkyn Warriors")
    assert found is not None and found.entry.removed and "Persecution Prospect" in found.entry.section


# --- Prioritised Efficiency (Leagues of Votann): Yield points ----------------------------------------


VOTANN = "leagues_of_votann_hearthfire_strike.yaml"


def _modes(g: Game, p: str = "A") -> set[str]:
    return {n for u in g.armies[p].units for n, _, _ in u.timed if n in ("Hostile Acquisition", "Fortify Takeover")}


def test_yield_points_at_the_end_of_each_command_phase(monkeypatch):
    # Prioritised Efficiency: at the end of each player's Command phase, 1YP for controlling an
    # objective marker within your deployment zone (reading: one of your Entry Zones); from the
    # second battle round, 1YP more for each: a marker controlled outside it, two or more such,
    # more markers controlled than the opponent
    from bagm.engine.rules.yield_points import _gain

    g = versus_orks(VOTANN, mission=21)
    markers = g.map.layout.markers
    assert len(markers) == 5

    class Zone:  # marker 1 within A's Entry Zone (no mission map has a marker in one)
        @staticmethod
        def within(base):
            return base == markers[0].base
    monkeypatch.setattr(g, "entry_zones", lambda p: [Zone()] if p == "A" else [])
    g.round = 1
    g.control = [None, "A", "A", "A", None]
    assert _gain(g, "A") == 0  # round 1: only a marker in the deployment zone counts
    g.control[0] = "A"
    assert _gain(g, "A") == 1
    g.round = 2
    assert _gain(g, "A") == 4  # home, one away, two away, more than the opponent's 0
    g.control = [None, "A", "B", "B", None]
    assert _gain(g, "A") == 1  # one away; fewer than the opponent
    g.control = [None, "A", "A", "B", "B"]
    assert _gain(g, "A") == 2  # one away, two away; as many as the opponent: not more
    assert _gain(g, "B") == 2


def test_prioritised_efficiency_hostile_acquisition_then_fortify_takeover():
    # "At the start of the battle, your units have Hostile Acquisition until the start of your next
    # Command phase"; at the end of your Command phase: 7YP or more, Fortify Takeover, else Hostile
    # Acquisition, until the start of your next Command phase
    from conftest import advance_to

    from bagm.engine.rules.effects import effect_has

    g = versus_orks(VOTANN)
    advance_to(g, "move", "A")
    units = [u for u in g.armies["A"].units if u.where != "destroyed"]
    assert all(any(n == "Hostile Acquisition" for n, _, _ in u.timed) for u in units)
    assert all(effect_has(u, "reroll_charge") and effect_has(u, "reroll_advance") for u in units)
    assert not any(e["e"] == "yield" and e["player"] == "B" for e in g.events)  # the Orks have no YP
    assert [e for e in g.events if e["e"] == "yield"][-1] == {
        "e": "yield", "player": "A", "gain": 0, "pool": 0, "mode": "Hostile Acquisition"}
    g.yp["A"] = 7
    g.dice = Dice(5)
    advance_to(g, "move", "B")
    assert _modes(g) == {"Hostile Acquisition"}  # not the opponent's Command phase
    advance_to(g, "move", "A")
    assert _modes(g) == {"Fortify Takeover"} and g.yp["A"] >= 7
    assert all(not effect_has(u, "reroll_charge") for u in units)
    g.yp["A"] = 0
    g.dice = Dice(6)
    advance_to(g, "move", "B")
    advance_to(g, "move", "A")
    assert _modes(g) == {"Hostile Acquisition"}


def test_hostile_acquisition_and_fortify_takeover_in_attacks(tmp_path):
    # Hostile Acquisition: +1 to Hit against an enemy unit within range of an objective marker;
    # Fortify Takeover: +1 to Hit while this unit is within range of an objective marker it
    # controls; -1 to Wound for an attack on it with a Strength above its Toughness (not a VEHICLE)
    from bagm.data.models import Effect
    from bagm.data.schema import validate

    g = game(tmp_path, "[]")
    give(g, "A3", "Leagues of Votann", "Prioritised Efficiency")
    a3 = g.units["A3"]
    label = validate(Effect, {})
    near_marker(g, "B3", True)
    assert attack(g, "A3", "B3", GUN, [2]) == (0, 0)  # no ability in force: a 2 misses (BS 3+)
    a3.timed = (("Hostile Acquisition", label, "next command A"),)
    assert attack(g, "A3", "B3", GUN, [2, 4]) == (0, 0)  # +1: hits; the Wound roll of 4 fails (5+)
    near_marker(g, "B3", False)
    assert attack(g, "A3", "B3", GUN, [2]) == (0, 0)  # not within range of a marker: no +1
    a3.timed = (("Fortify Takeover", label, "next command A"),)
    near_marker(g, "A3", True)
    g.control[0] = None
    assert attack(g, "A3", "B3", GUN, [2]) == (0, 0)  # the marker not controlled: no +1
    g.control[0] = "A"
    assert attack(g, "A3", "B3", GUN, [2, 4]) == (0, 0)
    assert a3.T == 4  # (the Strike Squad: S5 wounds on 3+, S4 on 4+; a save roll of 1 fails)
    strong = replace(GUN, strength=5)
    assert attack(g, "B3", "A3", strong, [6, 3]) == (0, 0)  # S above T: -1, a 3 fails
    assert attack(g, "B3", "A3", strong, [6, 4, 1]) == (1, 0)
    assert attack(g, "B3", "A3", GUN, [6, 4, 1]) == (1, 1)  # S4 against T4: no -1 (its last wound)


# --- Void Combat Discipline (T'au Empire army rule, Boarding Actions Mustering Rules) ----------------


@pytest.mark.parametrize("moved", ["advance", "fallback"])
def test_void_combat_discipline_set_overwatch_after_advancing_or_falling_back(moved):
    # "this unit is eligible to perform the Set Overwatch Tactical Manoeuvre in a turn in which it
    # Advanced or Fell Back" (no other Tactical Manoeuvre); every T'AU EMPIRE unit has it
    g = versus_orks("tau_empire_starfire_cadre.yaml")
    tau = [u for u in g.army_units("A") if "T'AU EMPIRE" in u.keywords]
    assert tau and all(any(n == "Void Combat Discipline" for n, _ in u.standing) for u in tau)
    u = tau[0]
    g.phase = "shooting"
    assert {a.target for a in shooting.legal_manoeuvre(g, "A") if a.unit == u.uid} >= {"defend", "overwatch"}
    u.moved = moved
    assert [a.target for a in shooting.legal_manoeuvre(g, "A") if a.unit == u.uid] == ["overwatch"]
    u.manoeuvre = "overwatch"  # performed: nothing more
    assert shooting.manoeuvre_reason(g, u) is not None
    u.manoeuvre = None
    v = tau[1]  # without the rule: no Tactical Manoeuvre after it Advanced or Fell Back
    v.standing = ()
    v.moved = moved
    assert shooting.manoeuvre_reason(g, v) == "it Advanced or Fell Back this turn"


# --- Aeldari ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("faction, name, unit", [
    ("Aeldari", "Disparate Paths", "Troupe"), ("Aeldari", "Travelling Players", "Death Jester"),
    ("Adeptus Astartes", "Combat Squads", "Tactical Squad")])
def test_mustering_rules_play_no_part_in_a_game(faction, name, unit):
    # Disparate Paths, the Harlequin characters' Travelling Players: who an army may include
    # (mustering); Combat Squads: Form Boarding Squads has already split each unit of ten
    found = Catalog().abilities(faction).find(name, unit)
    assert found is not None and found.entry.removed and found.entry.section
    # the Troupe's own Travelling Players (BATTLELINE and OC 2) is another rule: not this entry
    assert Catalog().abilities("Aeldari").find("Travelling Players", "Troupe") is None


@pytest.mark.parametrize("roll, fights", [(2, 0), (3, 1)])
def test_malevolent_souls_fights_on_a_3_plus(roll, fights):
    # Wraithblades "Malevolent Souls": a model destroyed by a melee attack, if it has not fought
    # this phase: on a D6 of 3+ it fights once the attacking unit has made its attacks
    from bagm.engine.rules.effects import fights_on_death

    g = versus_orks("aeldari_wraiths_of_the_void.yaml")
    u = having(g, "Malevolent Souls")[0]
    g.dice = Dice.scripted([roll])
    fights_on_death(g, u, 1)
    g.dice.assert_consumed()
    assert u.dying == fights
    u.dying, u.fought = 0, True  # it has fought this phase: no roll
    g.dice = Dice.scripted([])
    fights_on_death(g, u, 1)
    assert u.dying == 0


def test_storm_of_silence_rerolls_wounds_against_characters(tmp_path):
    # Jain Zar "Storm of Silence": its attacks that target a CHARACTER unit re-roll the Wound roll
    g = game(tmp_path, "[]")
    give(g, "A3", "Aeldari", "Storm of Silence")
    b3 = g.units["B3"]
    assert "CHARACTER" not in b3.keywords
    assert attack(g, "A3", "B3", GUN, [3, 2]) == (0, 0)  # not a CHARACTER: no re-roll
    b3.keywords = b3.keywords | {"CHARACTER"}
    assert attack(g, "A3", "B3", GUN, [3, 2, 5, 1]) == (1, 0)


def test_serpent_shield_a_5_plus_invulnerable_save(tmp_path):
    # Storm Guardians "Serpent Shield": the models of the bearer's unit have a 5+ invulnerable save
    from bagm.engine.rules.effects import effect_defence

    g = game(tmp_path, "[]")
    give(g, "B3", "Aeldari", "Serpent Shield")
    assert effect_defence(g.units["B3"])[0] == 5
    # AP -3 against Sv 4+: an armour save needs 7; the invulnerable save a 5
    assert attack(g, "A3", "B3", replace(GUN, ap=-3), [3, 5, 5]) == (0, 0)
    assert attack(g, "A3", "B3", replace(GUN, ap=-3), [3, 5, 4]) == (1, 0)


def test_dance_of_death_one_of_three_abilities_at_the_start_of_the_fight_phase():
    # Troupe "Dance of Death": at the start of the Fight phase, select one for this unit until the
    # end of the phase: re-roll a Hit roll of 1; +1 to the Wound roll; -1 to the Hit roll of attacks
    # that target it. Each Troupe unit selects its own, once a phase
    from bagm.engine.rules.effects import effect_conditions

    g = versus_orks("aeldari_star_dancer_masque.yaml")
    troupes = having(g, "Dance of Death")
    g.phase = "fight"
    acts = moments.usable(g, "A", "phase_start")
    names = {"Dance of Death: Hero's Prowess", "Dance of Death: Villain's Doom", "Dance of Death: Trickster's Grace"}
    assert {a.arg for a in acts} == names and {a.unit for a in acts} == {u.uid for u in troupes}
    u = troupes[0]
    moments.use_rule(g, "A", next(a for a in acts if a.unit == u.uid and a.arg.endswith("Villain's Doom")))
    assert not [a for a in moments.usable(g, "A", "phase_start") if a.unit == u.uid]  # one, once a phase
    t = g.army_units("B")[0]
    assert effect_conditions(u, t, u.melee[0], Conditions()).wound_mod == 1
    moments.end_timed(g, "phase")
    assert effect_conditions(u, t, u.melee[0], Conditions()).wound_mod == 0


def test_cruel_amusement_gives_the_shrieker_cannon_one_ability():
    # Death Jester "Cruel Amusement": each time it is selected to shoot in your Shooting phase, its
    # Shrieker Cannon has [IGNORES COVER], [PRECISION] or [SUSTAINED HITS 3] until the end of the phase
    from bagm.engine.rules.effects import effect_weapon

    g = versus_orks("aeldari_star_dancer_masque.yaml")
    u = having(g, "Cruel Amusement")[0]
    g.phase = "shooting"
    acts = moments.usable(g, "A", "selected_to_shoot", u.uid)
    assert sorted(a.arg for a in acts) == ["Cruel Amusement: Ignores Cover", "Cruel Amusement: Precision",
                                           "Cruel Amusement: Sustained Hits 3"]
    moments.use_rule(g, "A", next(a for a in acts if a.arg.endswith("Sustained Hits 3")))
    t = g.army_units("B")[0]
    cannon = next(w for w in u.ranged if w.name == "Shrieker Cannon")
    assert effect_weapon(u, cannon, t).abilities.sustained_hits.bonus == 3
    assert all(not effect_weapon(u, w, t).abilities.sustained_hits for w in u.melee)  # its other weapon
    assert moments.usable(g, "A", "selected_to_shoot", u.uid) == []
    g.active = "B"  # not in the opponent's turn (Fire Overwatch)
    moments.end_timed(g, "phase")
    assert moments.usable(g, "A", "selected_to_shoot", u.uid) == []


# --- Adeptus Astartes -------------------------------------------------------------------------------


def test_multi_spectrum_array_plus_1_to_hit_an_enemy_unit_it_hit():
    # Incursor Squad "Multi-spectrum Array": in your Shooting phase, after this unit has shot, select
    # one enemy unit hit by those attacks: until the end of the phase, +1 to the Hit roll of friendly
    # ADEPTUS ASTARTES attacks that target it
    from bagm.engine.rules.effects import effect_conditions

    g = versus_orks("adeptus_astartes_pilum_strike_team.yaml")
    u = having(g, "Multi-spectrum Array")[0]
    g.phase = "shooting"
    u.volley = (("B3", 0, 0),)
    assert moments.usable(g, "A", "after_shot", u.uid) == []  # nothing hit
    u.volley = (("B3", 0, 0), ("B4", 1, 0))
    acts = moments.usable(g, "A", "after_shot", u.uid)
    assert [a.text() for a in acts] == ["use B4 Multi-spectrum Array"]
    moments.use_rule(g, "A", acts[0])
    other = next(v for v in g.army_units("A") if v is not u and v.ranged)
    w = other.ranged[0]
    assert effect_conditions(other, g.units["B4"], w, Conditions()).hit_mod == 1
    assert effect_conditions(other, g.units["B3"], w, Conditions()).hit_mod == 0
    moments.end_timed(g, "phase")
    assert effect_conditions(other, g.units["B4"], w, Conditions()).hit_mod == 0


# --- Stratagems and CP ------------------------------------------------------------------------------


@pytest.mark.parametrize("roll, back", [(3, 1), (2, 0)])
def test_power_of_the_rosette_a_3_plus_gives_1cp_back(roll, back):
    # Inquisitor "Power of the Rosette": each time you target this model's unit with a Stratagem,
    # roll one D6: on a 3+, you gain 1CP. A Stratagem on another unit: no roll
    from bagm.engine.rules.stratagems import COMMAND_REROLL, use

    g = versus_orks("agents_of_the_imperium_interdiction_team.yaml")
    inq = having(g, "Power of the Rosette")[0]
    other = next(u for u in g.army_units("A") if u is not inq)
    g.cp["A"] = 2
    g.dice = Dice.scripted([roll])
    use(g, "A", COMMAND_REROLL, unit=inq)
    g.dice.assert_consumed()
    assert g.cp["A"] == 1 + back
    g.used.clear()
    g.dice = Dice.scripted([])
    use(g, "A", COMMAND_REROLL, unit=other)
    assert g.cp["A"] == back


@pytest.mark.parametrize("roll, gain", [(4, 1), (3, 0)])
def test_coordinated_leadership_a_4_plus_gives_1cp_in_your_command_phase(roll, gain):
    # Ethereal "Coordinated Leadership": in your Command phase, roll one D6: on a 4+, you gain 1CP
    from bagm.engine.rules.army_rules import cp_rolls

    g = versus_orks("tau_empire_starfire_cadre.yaml")
    ethereal = having(g, "Coordinated Leadership")[0]
    cp = g.cp["A"]
    g.dice = Dice.scripted([roll])
    cp_rolls(g, "A")
    g.dice.assert_consumed()
    assert g.cp["A"] == cp + gain
    g.dice = Dice.scripted([])
    cp_rolls(g, "B")  # not the opponent's
    ethereal.where = "reserves"
    kept.touch(g, ethereal)
    cp_rolls(g, "A")  # not on the battlefield: no roll
    assert g.cp["A"] == cp + gain


def test_coordinated_leadership_is_rolled_in_the_command_phase():
    from conftest import advance_to

    g = versus_orks("tau_empire_starfire_cadre.yaml")
    advance_to(g, "move", "A")
    assert [e["rule"] for e in g.events if e["e"] == "rule_roll"] == ["Coordinated Leadership"]


# --- Sentinel Storm ---------------------------------------------------------------------------------


def test_sentinel_storm_shoots_again_once_per_battle():
    # Custodian Guard "Sentinel Storm": once per battle, in your Shooting phase, after the unit has
    # shot, it can shoot again (reading: it can be selected to shoot again this phase)
    g = versus_orks("adeptus_custodes_voyagers_into_darkness.yaml")
    u = having(g, "Sentinel Storm")[0]
    g.phase = "shooting"
    u.shot = True
    assert shooting.shoot_reason(g, u) == "it has already shot this phase"
    acts = [a for a in moments.usable(g, "A", "after_shot", u.uid) if a.arg == "Sentinel Storm"]
    assert [a.unit for a in acts] == [u.uid]
    moments.use_rule(g, "A", acts[0])
    assert not u.shot and shooting.shoot_reason(g, u) is None
    u.shot = True
    assert not [a for a in moments.usable(g, "A", "after_shot", u.uid) if a.arg == "Sentinel Storm"]  # once per battle
    g.active = "B"
    assert not [a for a in moments.usable(g, "A", "after_shot", u.uid) if a.arg == "Sentinel Storm"]


def test_praesidium_shield_is_in_the_shield_bearers_profile():
    # Custodian Guard "Praesidium Shield": +1 to the bearer's Wounds, which the shield profiles carry
    found = Catalog().abilities("Adeptus Custodes").find("Praesidium Shield", "Custodian Guard")
    assert found is not None and found.modelled and found.effects == ()
    ds = Catalog().find_unit("Custodian Guard", "Adeptus Custodes")[1]
    plain = next(m for m in ds.models if m.name == "Custodian Guard")
    assert {m.name: m.W for m in ds.models if "Shield" in m.name or "Vexilla" in m.name} == {
        "Custodian Guard (Shield)": plain.W + 1, "Custodian Guard (Vexilla)": plain.W + 1}


# --- a model of another profile: Tempestor Prime, Overseer of Redemption, Crewed Platform --------------


def _without_own(u: Unit) -> None:
    """``u`` loses its models of another profile (where they stand)."""
    u.models = [m for m in u.models if m.own is None and m.full is None and not m.ld_diff]


def test_tempestor_prime_sustained_hits_while_the_unit_contains_him():
    # "While this unit contains a Tempestor Prime, ranged weapons equipped by models in this unit
    # have the [SUSTAINED HITS 1] ability" (the Prime: the Command Squad's one model of another profile)
    from bagm.engine.rules.effects import effect_weapon

    g = versus_orks("astra_militarum_tempestus_boarding_regiment.yaml")
    u = having(g, "Tempestor Prime")[0]
    others = [m for m in u.models if m.own is not None or m.full is not None or m.ld_diff]
    assert len(others) == 1 and others[0].full == 3  # the Tempestor Prime (W3)
    t = g.army_units("B")[0]
    assert all(effect_weapon(u, w, t).abilities.sustained_hits for w in u.ranged)
    assert not any(effect_weapon(u, w, t).abilities.sustained_hits for w in u.melee)
    _without_own(u)
    assert not any(effect_weapon(u, w, t).abilities.sustained_hits for w in u.ranged)
    # the catalogue's bare "Sustained Hits" beside it is its reference, modelled with it
    assert [p.how for p in played(u.datasheet, Catalog().abilities("Astra Militarum"))
            if p.name == "Sustained Hits"] == ["effects"]


def test_overseer_of_redemption_rerolls_while_the_superior_stands():
    # Repentia Squad "Overseer of Redemption": while the unit contains a Repentia Superior, each
    # time a Sisters Repentia model makes a melee attack, re-roll the Hit roll and the Wound roll.
    # Form Boarding Squads: only one of the two squads keeps the Superior
    from bagm.engine.rules.effects import effect_conditions

    g = versus_orks("adepta_sororitas_penitents_and_pilgrims.yaml")
    squads = having(g, "Overseer of Redemption")
    led = [u for u in squads if any(m.own is not None for m in u.models)]
    assert len(squads) == 2 and len(led) == 1
    u, bare = led[0], next(v for v in squads if v is not led[0])
    t = g.army_units("B")[0]
    evis = next(w for w in u.melee if w.name == "Penitent Eviscerator")
    whips = next(w for w in u.melee if w.name == "Neural Whips")
    got = effect_conditions(u, t, evis, Conditions())
    assert (got.reroll_hits.name, got.reroll_wounds.name) == ("failed", "failed")
    got = effect_conditions(u, t, whips, Conditions())  # the Superior's own weapon
    assert (got.reroll_hits.name, got.reroll_wounds.name) == ("none", "none")
    got = effect_conditions(bare, t, evis, Conditions())  # the squad without the Superior
    assert (got.reroll_hits.name, got.reroll_wounds.name) == ("none", "none")
    _without_own(u)
    got = effect_conditions(u, t, evis, Conditions())
    assert (got.reroll_hits.name, got.reroll_wounds.name) == ("none", "none")


def test_crewed_platform_falls_with_its_last_guardian():
    # Guardian Defenders "Crewed Platform": when the last Guardian Defender model in this unit is
    # destroyed, any remaining Heavy Weapon Platform models in this unit are also destroyed
    from bagm.engine.rules.abilities import models_destroyed

    g = versus_orks("aeldari_protector_host.yaml")
    u = next(v for v in having(g, "Crewed Platform") if any(m.own is not None for m in v.models))
    crew = [m for m in u.models if m.own is None]
    platform = [m for m in u.models if m.own is not None]
    assert len(platform) == 1 and len(crew) >= 2
    u.models = crew[1:] + platform  # one Guardian falls: the platform stays
    models_destroyed(g, u, crew[:1])
    assert u.models == crew[1:] + platform
    u.models = platform  # the last Guardians fall: the platform is destroyed too
    models_destroyed(g, u, crew[1:])
    assert u.models == [] and g.events[-1] == {"e": "crewed", "unit": u.uid, "destroyed": 1, "rule": "Crewed Platform"}


# --- a core rule's name listed as another ability's reference -----------------------------------------


def test_a_reference_plays_as_the_ability_it_belongs_to():
    # Kroot Farstalkers: the catalogues list [PRECISION] and [LETHAL HITS] (Bounty Hunters) and
    # [IGNORES COVER] (Pech'ra) among its abilities; each plays as its ability does, no effect of its own
    from types import SimpleNamespace

    table = Catalog().abilities("T'au Empire")
    ds = Catalog().find_unit("Kroot Farstalkers", "T'au Empire")[1]
    got = {p.name: (p.how, p.effects) for p in played(ds, table)}
    assert got["Precision"] == got["Lethal Hits"] == got["Ignores Cover"] == ("effects", ())
    alone = SimpleNamespace(name="Kroot Farstalkers", abilities=["Precision", "Lethal Hits"], adaptation=None,
                            leader=None)  # without Bounty Hunters: not modelled
    assert [p.how for p in played(alone, table)] == ["", ""]
    assert table.find("Lethal Hits", "Kroot Hounds") is None  # the entries are Farstalkers' only


def test_seized_opportunity_1yp_when_its_unit_destroys_an_enemy_unit_once_a_phase():
    # Kâhl "Seized Opportunity": once per phase, one model from your army with this ability can use
    # it when its unit destroys an enemy unit: you gain 1YP
    g = versus_orks("leagues_of_votann_void_salvagers.yaml")
    kahl = having(g, "Seized Opportunity")[0]
    other = next(u for u in g.army_units("A") if u is not kahl)
    b1, b2, b3 = (g.units[x] for x in ("B1", "B2", "B3"))
    yp = g.yp["A"]
    for victim, by in ((b1, other), (b2, kahl), (b3, kahl)):
        victim.models = []
        shooting.check_destroyed(g, victim, by=by)
    assert g.yp["A"] == yp + 1  # not for another unit's kill; once in the phase
    assert [e for e in g.events if e["e"] == "yield"][-1]["why"] == "Seized Opportunity"
    g.phase_id += 1
    b4 = g.units["B4"]
    b4.models = []
    shooting.check_destroyed(g, b4, by=kahl)
    assert g.yp["A"] == yp + 2


@pytest.mark.parametrize("mode, roll, fights", [
    (None, 3, 0), (None, 4, 1), ("Fortify Takeover", 2, 0), ("Fortify Takeover", 3, 1)])
def test_cyberstimms_fights_on_a_4_plus_3_plus_with_fortify_takeover(mode, roll, fights):
    # Cthonian Beserks "Cyberstimms": a model destroyed by a melee attack before it has fought this
    # phase: one D6, +1 if your army's units have Fortify Takeover: on a 4+ it fights, then is removed
    from bagm.data.models import Effect
    from bagm.data.schema import validate
    from bagm.engine.rules.effects import fights_on_death

    g = versus_orks("leagues_of_votann_void_salvagers.yaml")
    u = having(g, "Cyberstimms")[0]
    u.timed = ((mode, validate(Effect, {}), "next command A"),) if mode else ()
    g.dice = Dice.scripted([roll])
    fights_on_death(g, u, 1)
    g.dice.assert_consumed()
    assert u.dying == fights


def test_ds8_support_turret_only_after_remaining_stationary():
    # Strike Team "DS8 Support Turret": in your Movement phase, if this unit Remains Stationary,
    # until the start of your next turn its Shas'ui model is equipped with the support turret
    from conftest import advance_to

    from bagm.engine.state.actions import Action

    g = versus_orks("tau_empire_starfire_cadre.yaml")
    u = next(v for v in having(g, "DS8 Support Turret") if any(w.name == "Support turret" for w in v.ranged))

    def turret() -> bool:
        return any(w.name == "Support turret" for w in shooting.usable_weapons(g, u, False))
    assert not turret()  # not yet: it has not Remained Stationary
    advance_to(g, "move", "A")
    assert not turret()
    g.apply(Action("done"))  # every unit Remains Stationary
    assert u.moved == "stationary" and turret()
    g.dice = Dice(2)
    advance_to(g, "move", "B")
    assert turret()  # the opponent's turn (Overwatch): still equipped
    advance_to(g, "move", "A")
    assert not turret()  # the start of A's next turn: gone until it Remains Stationary again


def test_optimised_gait_adds_1_or_2_near_a_battleline_unit():
    # Sicarian Ruststalkers "Optimised Gait": +1 to Advance and Charge rolls; +2 instead while
    # within 6" of a friendly ADEPTUS MECHANICUS BATTLELINE unit (Advance and Charge rolls read the
    # game's conditions)
    from test_army_rules import at_distance

    from bagm.engine.rules.effects import effect_sum, holds_in

    g = versus_orks("adeptus_mechanicus_response_clade.yaml")
    u = having(g, "Optimised Gait")[0]
    assert "BATTLELINE" not in u.keywords
    lines = [v for v in g.army_units("A") if "BATTLELINE" in v.keywords]
    for v in lines[1:]:
        v.where = "reserves"  # (one BATTLELINE unit on the battlefield)
        kept.touch(g, v)
    line = lines[0]
    shrink(g, line.uid, 1)
    holds = holds_in(g)
    at_distance(g, line, u, 6.5)
    assert [effect_sum(u, f, holds) for f in ("advance_mod", "charge_mod")] == [1, 1]
    at_distance(g, line, u, 6)
    assert [effect_sum(u, f, holds) for f in ("advance_mod", "charge_mod")] == [2, 2]


def test_crack_shot_ap_minus_3_on_a_critical_wound(tmp_path):
    # Cadre Fireblade "Crack Shot": each time this model makes a ranged attack, on a Critical Wound
    # that attack has an Armour Penetration characteristic of -3 (its pulse rifle: AP 0); its
    # drones' weapons (another model's) do not
    rifle = replace(GUN, name="Fireblade pulse rifle")
    assert rifle.ap == 0
    g = game(tmp_path, "[]")
    give(g, "A3", "T'au Empire", "Crack Shot")
    # the Nobz (Sv 4+): a 6 to wound is a Critical Wound, AP -3: no save can be made (7+)
    assert attack(g, "A3", "B3", rifle, [3, 6]) == (1, 0)
    assert attack(g, "A3", "B3", rifle, [3, 5, 4]) == (0, 0)  # not critical: AP 0, a 4 saves
    assert attack(g, "A3", "B3", replace(GUN, name="Missile pod"), [3, 6, 4]) == (0, 0)  # a drone's


@pytest.mark.parametrize("unit, name, how", [
    ("Ethereal", "Feel No Pain", "leader"),  # Failure Is Not an Option: a modelled Leader ability
    ("Kroot Flesh Shaper", "Sustained Hits", "leader"),  # Ritual Butchery
    ("Kroot Flesh Shaper", "Feel No Pain", "")])  # Rites of Feasting: not modelled, nor its reference
def test_a_leader_abilitys_reference_plays_as_it(unit, name, how):
    table = Catalog().abilities("T'au Empire")
    ds = Catalog().find_unit(unit, "T'au Empire")[1]
    assert [p.how for p in played(ds, table) if p.name == name] == [how]


# --- Leader abilities the importer now reads ----------------------------------------------------------


@pytest.mark.parametrize("faction, leader, name, effects", [
    ("Adeptus Astartes", "Arjac Rockfist", "Anvil of Endurance", [{"fight_on_death": 4}]),
    ("Adeptus Astartes", "Lemartes", "Guardian of the Lost", [{"damage_against_mod": -1}]),
    ("Adeptus Custodes", "Valerian", "Golden Laurels", [{"AP_against_mod": 1, "against": "melee"}]),
    ("Adeptus Astartes", "Watch Master", "Strategic Knowledge", [{
        "shoot_after_advance": True, "charge_after_advance": True, "shoot_after_fall_back": True,
        "charge_after_fall_back": True}])])
def test_leader_abilities_read_from_their_text(faction, leader, name, effects):
    # the packs hold what the importer reads from each Leader ability's text (tests/test_leader_data.py)
    lead = Catalog().find_unit(leader, faction)[1].leader
    got = next(a for a in lead.abilities if a.name == name).effects
    assert [{k: v for k, v in vars(e).items() if v != getattr(type(e), k, None) and k in want}
            for e, want in zip(got, effects)] == effects


@pytest.mark.parametrize("roll, fights", [(3, 0), (4, 1)])
def test_a_conferred_redeemer_of_the_lost_fights_on_a_4_plus(roll, fights):
    # Astorath "Redeemer of the Lost", conferred by Battlefield Command: each time a model of that
    # unit is destroyed by a melee attack, if it has not fought this phase, on a D6 of 4+ it fights
    from bagm.engine.rules.effects import fights_on_death

    g = versus_orks("adeptus_astartes_boarding_strike.yaml")
    lead = Catalog().find_unit("Astorath", "Adeptus Astartes")[1].leader
    ability = next(a for a in lead.abilities if a.name == "Redeemer of the Lost")
    u = g.army_units("A")[0]
    u.standing = ()  # (none of its own rules: Heroic Last Stand)
    u.led = ("A9", ability.name, ability)
    g.dice = Dice.scripted([roll])
    fights_on_death(g, u, 1)
    g.dice.assert_consumed()
    assert u.dying == fights


# --- Army rules the Boarding Actions Mustering Rules give -------------------------------------------


@pytest.mark.parametrize("rule, roll", [(True, 1), (True, 6), (False, None)])
def test_imperial_insights_secure_site_secures_at_once_then_a_normal_move_of_d6(rule, roll):
    # Boarding Actions Mustering Rules, Agents of the Imperium "Imperial Insights" (in place of Assigned
    # Agents): each time this unit performs Secure Site, the marker is Secured at once instead of at the
    # start of your next Command phase; it can then make a Normal move of up to D6" (still not eligible to
    # shoot or declare a charge this turn)
    from conftest import advance_to, place

    g = versus_orks("agents_of_the_imperium_interdiction_team.yaml")
    vig = having(g, "Assigned Agents")
    u = next(v for v in vig if "BATTLELINE" in v.keywords)
    if not rule:
        u.standing = tuple((n, e) for n, e in u.standing if n != "Assigned Agents")
        kept.touch(g, u)
    advance_to(g, "manoeuvre")
    mk = g.map.layout.markers[0]
    place(g, u.uid, [(mk.x, mk.y)])
    g.control[0] = "A"
    g.dice = Dice.scripted([roll] if roll else [])
    g.apply(parse(f"manoeuvre {u.uid} secure 1"))
    g.dice.assert_consumed()
    assert g.secured[0] == ("A" if rule else None)
    if not rule:  # Secure Site as the book has it: at the start of the next Command phase
        assert g.decision.step == "manoeuvre" and u.secure_marker == 0
        return
    assert g.decision.step == "freemove" and g.decision.info["reach"] == roll
    assert ("secured", u.uid) in [(e["e"], e.get("unit")) for e in g.events]
    x, y = u.models[0].x, u.models[0].y
    g.apply(parse(f"move {u.uid} {x + 10:.2f},{y:.2f}"))
    assert abs(u.models[0].x - x) <= roll + 1e-6 and u.secure_marker is None
    assert shooting.shoot_reason(g, u) and charge.charge_reason(g, u)  # it performed a Tactical Manoeuvre
