"""Datasheet abilities of the Imperial factions, Necrons, T'au, Votann and Aeldari in the engine
(issue 13 s4): each plays as its datasheet says, with scripted dice and its boundaries. The rule
each test follows is quoted in short (paraphrase) in its first comment."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from conftest import REPO
from test_abilities import GUN, attack, game, give, near_marker, shrink
from test_army_rules import entry

from bagm.chance.dice import Dice
from bagm.data.packs import Catalog
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.stratagem_costs import stratagem_cost
from bagm.engine.state.army import Unit

ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")


@cache
def _orks() -> Any:
    return build_army("B", ORKS)


def versus_orks(roster: str, seed: int = 4) -> Game:
    """A game of the bundled roster ``roster`` (player A) against the Orks, deployed."""
    a, b = build_army("A", str(REPO / "rosters" / roster)), copy.deepcopy(_orks())
    b.edition = a.edition  # (a 2023 roster plays against the same Orks under its edition)
    g = Game(11, a, b, dice=Dice(seed), rolloffs={"attacker": "A", "first_turn": "A"})
    for _ in range(100):
        if g.decision.step not in ("roles", "deploy", "opening"):
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
    return out


# --- Stratagem costs --------------------------------------------------------------------------


@pytest.mark.parametrize("roster, name", [
    ("adeptus_astartes_shield_of_the_void.yaml", "Rites of Battle"),
    ("adeptus_custodes_voyagers_into_darkness.yaml", "Strategic Mastery"),
    ("adepta_sororitas_pious_protectors.yaml", "Sacred Command"),
    ("grey_knights_baneslayer_strike.yaml", "Warrior Strategist")])
def test_once_per_battle_round_a_stratagem_on_the_unit_costs_1cp_less(roster, name):
    # Rites of Battle, Strategic Mastery, Sacred Command (Canoness), Warrior Strategist: "once per
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
    assert not [x for x in g.usable("A", "phase_start") if x.arg == "Laud Hailer"]
    at_distance(g, dialogus, sisters, 12)
    acts = [x for x in g.usable("A", "phase_start") if x.arg == "Laud Hailer"]
    assert [x.unit for x in acts] == [sisters.uid]
    g.use_rule("A", acts[0])
    assert not sisters.battleshocked
    sisters.battleshocked = True
    assert not [x for x in g.usable("A", "phase_start") if x.arg == "Laud Hailer"]  # once per battle
    assert entry("Adepta Sororitas", "Laud Hailer").moments[0].once == "battle"
