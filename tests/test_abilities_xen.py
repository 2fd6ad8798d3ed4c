"""Datasheet abilities of the Chaos, Drukhari, Tyranids, Genestealer Cults and Orks packs used at a
moment, as their ability tables say them (issue 13 s4), each played with scripted dice and its
boundaries: Dark Pacts (with The Forsaken), Waaagh! and the Mustering Rules' Void Waaagh!, the
Drukhari Pain abilities, Overlord, Tormentors; and the greedy bot's use of them."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from conftest import REPO, advance_to, place, without_rules
from test_army_rules_others import BLADE, GAMES, GUN, game
from test_army_rules_others import _events_declared as _events_declared  # noqa: F401 (autouse fixture)

from bagm.chance.dice import Dice
from bagm.data.packs import Catalog
from bagm.engine.attack.rules import Conditions
from bagm.engine.bots import make_bot
from bagm.engine.bots.uses import pain_pays, regroup, self_risk
from bagm.engine.game import command, moments, positions, shooting
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.effects import effect_defence, effect_has, effect_weapon, holds_in
from bagm.engine.rules.uses import use_of
from bagm.engine.state.actions import Action, parse
from bagm.engine.state.core import Decision

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B2 1", "deploy A5 1"]


def entry(faction: str, name: str) -> Any:
    found = Catalog().abilities(faction).find(name)
    assert found is not None and found.modelled, f"{faction}: {name} is not in its table"
    return found.entry


def give_uses(g: Game, uid: str, faction: str, name: str) -> list[Any]:
    """Unit ``uid`` can use ability ``name`` of ``faction``'s table at its moments, as muster gives it."""
    u = g.units[uid]
    uses = [use_of(m, name, "Ability", uid) for m in entry(faction, name).moments]
    assert all(x is not None for x in uses)
    g.armies[u.player].uses += tuple(uses)
    return uses


def use_when_selected(faction: str, name: str, phase: str) -> Game:
    """A game where A3 is selected to shoot or fight (``phase``) and uses ``faction``'s ability
    ``name``, the only rule it is offered then."""
    g = game()
    give_uses(g, "A3", faction, name)
    g.phase = phase
    acts = moments.usable(g, "A", "selected_to_shoot" if phase == "shooting" else "selected_to_fight", "A3")
    assert [a.arg for a in acts] == [name]
    moments.use_rule(g, "A", acts[0])
    return g


def hits(g: Game, u: str, t: str, w: Any, dice: list[int]) -> tuple[int, int]:
    """``u`` attacks ``t`` with one model's ``w`` (its effects applied), re-rolls declined."""
    from test_abilities import attack

    return attack(g, u, t, effect_weapon(g.units[u], w, g.units[t]), dice)


# --- Dark Pacts (Heretic Astartes), with The Forsaken ------------------------------------------------


def test_dark_pacts_offers_lethal_or_sustained_hits_when_selected_to_shoot_or_fight():
    g = game()
    give_uses(g, "A3", "Heretic Astartes", "Dark Pacts")
    g.phase = "shooting"
    assert {a.arg for a in moments.usable(g, "A", "selected_to_shoot", "A3")} == \
        {"Dark Pacts: Lethal Hits", "Dark Pacts: Sustained Hits"}
    assert moments.usable(g, "A", "selected_to_shoot", "A4") == []  # only the unit that has it
    assert moments.usable(g, "A", "after_shot", "A3") == []
    g.phase = "fight"
    assert {a.arg for a in moments.usable(g, "A", "selected_to_fight", "A3")} == \
        {"Dark Pacts: Lethal Hits", "Dark Pacts: Sustained Hits"}


@pytest.mark.parametrize("short, passed", [(0, True), (1, False)])
def test_dark_pacts_leadership_test_first_d3_mortal_wounds_and_forsaken_on_a_failure(short, passed):
    # "it must first take a Leadership test ...; if that test is failed, that unit suffers D3 mortal
    # wounds. Then, select one of the following abilities ... until the end of the phase"; The
    # Forsaken: failed, "until the end of the battle, this unit loses its Dark Pacts ability"
    g = game()
    give_uses(g, "A3", "Heretic Astartes", "Dark Pacts")
    g.phase = "shooting"
    a3 = g.units["A3"]
    need = a3.leadership()  # 2D6 equal to the Leadership passes
    g.dice = Dice.scripted([3, need - 3 - short] + ([] if passed else [2]))  # failed: a D3 of 2
    before = sum(m.wounds for m in a3.models)
    moments.use_rule(g, "A", parse("use A3 Dark Pacts: Sustained Hits"))
    g.dice.assert_consumed()
    assert sum(m.wounds for m in a3.models) == before - (0 if passed else 2)
    w = effect_weapon(a3, GUN, g.units["B3"])
    assert w.abilities.sustained_hits is not None and not w.abilities.lethal_hits  # either way
    assert moments.usable(g, "A", "selected_to_shoot", "A3") == []  # one Pact a phase
    moments.end_timed(g, "phase")
    g.phase_id += 1
    assert not effect_weapon(a3, GUN, g.units["B3"]).abilities.lethal_hits
    g.phase = "fight"
    assert bool(moments.usable(g, "A", "selected_to_fight", "A3")) is passed  # Forsaken: never again


def test_dark_pacts_lethal_hits_in_the_fight_phase_scores_an_automatic_wound():
    g = game()
    give_uses(g, "A3", "Heretic Astartes", "Dark Pacts")
    g.phase = "fight"
    g.dice = Dice.scripted([6, 6])  # the test passes
    moments.use_rule(g, "A", parse("use A3 Dark Pacts: Lethal Hits"))
    # a Critical Hit (6) wounds automatically: no Wound roll; the save of 1 fails
    assert hits(g, "A3", "B3", BLADE, [6, 1]) == (1, 0)


def test_the_bot_makes_a_dark_pact_only_when_it_is_worth_the_risk():
    from bagm.engine.bots.greedy import GreedyBot

    g = game()
    give_uses(g, "A3", "Heretic Astartes", "Dark Pacts")
    a3 = g.units["A3"]
    g.phase = "shooting"
    rules = {x.name: x for x in g.armies["A"].uses}
    s = rules["Dark Pacts: Lethal Hits"]
    bot = make_bot("greedy", 1)
    assert isinstance(bot, GreedyBot)
    risk = self_risk(s, a3)
    assert risk > 0
    a3.Ld = 2  # a 2D6 roll never fails: no risk
    assert self_risk(s, a3) == 0
    a3.Ld = 13  # always fails: the whole cost
    wounds = sum(m.wounds for m in a3.models)
    assert self_risk(s, a3) == pytest.approx(2 * 2 * a3.points / wounds)
    g.decision = Decision("use", "A", {"timing": "selected_to_shoot", "unit": "A3"})
    assert bot(g).kind == "pass"  # a sure failure: D3 mortal wounds and Forsaken, for a little damage
    a3.Ld = 2
    act = bot(g)
    assert act.kind == "use" and act.arg.startswith("Dark Pacts: ")


# --- Waaagh! and Void Waaagh! (Orks) ------------------------------------------------------------------


@cache
def _orks() -> tuple[Any, Any]:
    return build_army("A", GK, without_rules()), build_army("B", ORKS)


def orks_game() -> Game:
    """Grey Knights (A) against Orks with their Waaagh! (B), deployed: the start of battle round 1."""
    a, b = (copy.deepcopy(x) for x in _orks())
    g = Game(11, a, b, dice=Dice.scripted([]), rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    g.leaders["A"] = g.leaders["B"] = []
    for t in DEPLOY:
        g.apply(parse(t))
    return g


def test_void_waaagh_at_the_start_of_the_battle_round_until_its_end_for_every_waaagh_unit():
    # BA Mustering Rules "Void Waaagh!": once per battle, at the start of the battle round, until
    # the start of the next: +1 Strength and Attacks of melee weapons, a 5+ invulnerable save
    g = orks_game()
    assert g.decision == Decision("use", "B", {"timing": "round_start"})
    acts = [a for a in g.legal_actions() if a.kind == "use"]
    assert [a.arg for a in acts] == ["Void Waaagh!"]  # the codex Waaagh! waits for the Command phase
    g.apply(acts[0])
    orks = [u for u in g.army_units("B") if "Waaagh!" in u.datasheet.abilities]
    assert orks
    for u in orks:
        w = effect_weapon(u, u.melee[0], g.units["A3"])
        biggest = 4 if "Da Biggest and da Best" in u.datasheet.abilities else 0  # "while the Waaagh! is active"
        assert (w.strength, w.attacks.bonus) == (u.melee[0].strength + 1, u.melee[0].attacks.bonus + 1 + biggest)
        assert effect_weapon(u, u.ranged[0], g.units["A3"]) == u.ranged[0] if u.ranged else True
        assert effect_defence(u)[0] == min(5, u.invuln or 7)
        assert not effect_has(u, "charge_after_advance")  # not the Void Waaagh!'s
    moments.end_timed(g, "round")
    assert not any(u.timed for u in orks)
    assert moments.usable(g, "B", "round_start") == []  # once per battle


def test_waaagh_at_the_start_of_your_command_phase_until_the_start_of_your_next():
    # Codex: Orks "Waaagh!": once per battle, at the start of your Command phase, until the start of
    # your next Command phase: eligible to charge after Advancing, +1 S and A in melee, 5+ invulnerable
    g = orks_game()
    g.apply(Action("pass"))  # no Void Waaagh!
    advance_to(g, "use", "B")
    while not (g.phase == "command" and g.active == "B"):
        g.apply(Action("pass"))
        advance_to(g, "use", "B")
    assert [a.arg for a in g.legal_actions() if a.kind == "use"] == ["Waaagh!"]
    g.apply(next(a for a in g.legal_actions() if a.kind == "use"))
    boss = g.units["B1"]
    assert effect_has(boss, "charge_after_advance") and effect_defence(boss)[0] == min(5, boss.invuln or 7)
    turn = g.turn
    advance_to(g, "move", "A")  # A's turn: still active
    assert effect_has(boss, "charge_after_advance")
    while not (g.active == "B" and g.turn > turn):  # B's next turn (its Command phase asks nothing)
        assert effect_has(boss, "charge_after_advance")
        d = g.decision
        g.apply(Action("done") if d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
                else g.legal_actions()[0] if d.step == "mark" else Action("pass"))
    assert not effect_has(boss, "charge_after_advance")  # ended at the start of B's next Command phase
    g.phase = "command"
    assert "Waaagh!" not in {a.arg for a in moments.usable(g, "B", "phase_start")}  # once per battle
    assert moments.usable(g, "B", "round_start") and moments.usable(g, "B", "round_start")[0].arg == "Void Waaagh!"


def test_the_bot_calls_a_waaagh_once_an_ork_unit_is_a_charge_away_from_an_enemy_unit():
    g = orks_game()
    bot = make_bot("greedy", 1)
    foes = g.army_units("A")
    orks = g.army_units("B")
    assert min(positions.min_straight(g, u, f) for u in orks for f in foes) > 12
    assert bot(g).kind == "pass"
    u, f = orks[0], foes[0]
    place(g, u.uid, [(f.models[0].x + 8, f.models[0].y)])
    if g.bf.layout.board_at((u.models[0].x, u.models[0].y)) is None:
        place(g, u.uid, [(f.models[0].x - 8, f.models[0].y)])
    assert positions.min_straight(g, u, f) <= 12
    act = bot(g)
    assert act.kind == "use" and act.arg == "Void Waaagh!"


# --- Drukhari: the Pain abilities ---------------------------------------------------------------------


def empower(g: Game, uid: str, name: str, timing: str, phase: str, choice: str | None = None) -> None:
    give_uses(g, uid, "Drukhari", name)
    g.phase = phase
    g.pain["A"] = 0
    assert moments.usable(g, "A", timing, uid) == []  # no Pain token
    g.pain["A"] = 1
    arg = name if choice is None else f"{name}: {choice}"
    assert arg in {a.arg for a in moments.usable(g, "A", timing, uid)}
    moments.use_rule(g, "A", Action("use", uid, arg=arg))
    assert g.pain["A"] == 0 and g.units[uid].empowered == g.phase_id


def test_hatred_eternal_rerolls_the_hit_roll_when_shooting_or_fighting():
    for timing, phase, w in (("selected_to_shoot", "shooting", GUN), ("selected_to_fight", "fight", BLADE)):
        g = game()
        assert hits(g, "A3", "B3", w, [2]) == (0, 0)  # not Empowered: the miss stands
        empower(g, "A3", "Hatred Eternal (Pain)", timing, phase)
        assert hits(g, "A3", "B3", w, [2, 3, 1]) == (0, 0)  # the failed 2 re-rolled to a 3; wound 1
        moments.end_timed(g, "phase")
        assert hits(g, "A3", "B3", w, [2]) == (0, 0)


def test_master_of_blades_plus_1_to_wound_in_melee():
    g = game()
    empower(g, "A3", "Master of Blades (Pain)", "selected_to_fight", "fight")
    b3 = g.units["B3"]
    assert BLADE.strength == b3.toughness() - 1  # S4 against T5: 5+ to wound, 4+ with the +1
    assert hits(g, "A3", "B3", BLADE, [3, 4, 1]) == (1, 0)
    assert hits(g, "A3", "B3", BLADE, [3, 3]) == (0, 0)
    assert hits(g, "A3", "B3", GUN, [3, 4]) == (0, 0)  # melee attacks only: a 4 fails to wound


def test_brides_of_death_plus_1_strength_and_ap_in_melee():
    g = game()
    empower(g, "A3", "Brides of Death (Pain)", "selected_to_fight", "fight")
    w = effect_weapon(g.units["A3"], BLADE, g.units["B3"])
    assert (w.strength, w.ap) == (BLADE.strength + 1, BLADE.ap - 1)
    assert effect_weapon(g.units["A3"], GUN, g.units["B3"]) == GUN


def test_decapitating_strikes_devastating_wounds_against_infantry_only():
    g = game()
    empower(g, "A3", "Decapitating Strikes (Pain)", "selected_to_fight", "fight")
    b3 = g.units["B3"]
    assert "INFANTRY" in b3.keywords
    assert effect_weapon(g.units["A3"], BLADE, b3).abilities.devastating_wounds
    b3.keywords = b3.keywords - {"INFANTRY"}
    assert not effect_weapon(g.units["A3"], BLADE, b3).abilities.devastating_wounds


@pytest.mark.parametrize("choice, attacks, hazardous", [("Attacks 3", 3, False), ("Attacks 4 and Hazardous", 4, True)])
def test_experimental_enhancements_an_attacks_characteristic_of_3_or_4_and_hazardous(choice, attacks, hazardous):
    g = game()
    empower(g, "A3", "Experimental Enhancements (Pain)", "selected_to_fight", "fight", choice)
    w = effect_weapon(g.units["A3"], BLADE, g.units["B3"])
    assert w.attacks.bonus == attacks and w.attacks.count == 0 and w.abilities.hazardous is hazardous
    assert moments.usable(g, "A", "selected_to_fight", "A3") == []  # one of the two, once a phase


def test_acrobatic_gladiators_charge_after_advancing_or_falling_back_at_the_start_of_your_charge_phase():
    g = game()
    give_uses(g, "A3", "Drukhari", "Acrobatic Gladiators (Pain)")
    g.pain["A"] = 1
    g.phase = "movement"
    assert moments.usable(g, "A", "phase_start", "A3") == []  # the Charge phase only
    g.phase = "charge"
    assert not effect_has(g.units["A3"], "charge_after_advance")
    moments.use_rule(g, "A", parse("use A3 Acrobatic Gladiators (Pain)"))
    a3 = g.units["A3"]
    assert effect_has(a3, "charge_after_advance") and effect_has(a3, "charge_after_fall_back")


def test_lithe_agility_rerolls_advance_and_charge_rolls():
    g = game()
    give_uses(g, "A3", "Drukhari", "Lithe Agility (Pain)")
    g.pain["A"] = 2
    for phase in ("movement", "charge"):
        g.phase = phase
        g.phase_id += 1
        assert not effect_has(g.units["A3"], "reroll_charge")
        moments.use_rule(g, "A", parse("use A3 Lithe Agility (Pain)"))
        assert effect_has(g.units["A3"], "reroll_advance") and effect_has(g.units["A3"], "reroll_charge")
        moments.end_timed(g, "phase")
    assert g.pain["A"] == 0


def test_the_bot_spends_pain_on_a_charge_only_after_advancing_near_an_enemy_unit():
    from bagm.engine.bots.greedy import GreedyBot

    g = game()
    give_uses(g, "A3", "Drukhari", "Acrobatic Gladiators (Pain)")
    bot = make_bot("greedy", 1)
    assert isinstance(bot, GreedyBot)
    s = next(x for x in g.armies["A"].uses if x.name == "Acrobatic Gladiators (Pain)")
    a3 = g.units["A3"]
    near = min(positions.min_straight(g, a3, f) for f in g.army_units("B"))
    a3.moved = "normal"
    assert not pain_pays(bot, g, s, a3)
    a3.moved = "advance"
    assert pain_pays(bot, g, s, a3) is (near <= 12 and not positions.engaged_with(g, a3))


# --- Overlord, Tormentors, Shade Weavers ------------------------------------------------------------------


@pytest.mark.parametrize("faction, name, keyword", [("Drukhari", "Overlord", "DRUKHARI"),
                                                   ("Heretic Astartes", "Demagogue", "HERETIC ASTARTES")])
@pytest.mark.parametrize("gap, ok", [(12.0, True), (12.1, False)])
def test_once_per_battle_a_battleshocked_unit_of_the_faction_within_12_is_no_longer_battleshocked(
        faction, name, keyword, gap, ok):
    # Archon "Overlord", Dark Apostle "Demagogue": "once per battle, at the start of any phase, you can
    # select one friendly <FACTION> unit that is Battle-shocked and within 12" of this model"
    from test_army_rules import at_distance

    g = game()
    give_uses(g, "A1", faction, name)
    a1, a3 = g.units["A1"], g.units["A3"]
    a3.battleshocked = True
    at_distance(g, a1, a3, gap)

    def offered() -> list[Action]:
        return [a for a in moments.usable(g, "A", "phase_start") if a.arg == name]

    assert offered() == []  # not a unit of the faction
    a3.keywords = a3.keywords | {keyword}
    acts = offered()
    assert [a.unit for a in acts] == (["A3"] if ok else [])
    if ok:
        moments.use_rule(g, "A", acts[0])
        assert not a3.battleshocked
        g.phase_id += 1
        a3.battleshocked = True
        assert offered() == []  # once per battle


def test_tormentors_battle_shock_tests_at_the_start_of_the_fight_phase_and_plus_1_to_hit_the_shocked():
    from test_army_rules_others import give

    g = game()
    give(g, "A3", "Drukhari", "Tormentors")
    b3 = g.units["B3"]
    assert hits(g, "A3", "B3", BLADE, [2]) == (0, 0)  # WS3+: a 2 misses
    b3.battleshocked = True
    assert hits(g, "A3", "B3", BLADE, [2, 1]) == (0, 0)  # +1 against a Battle-shocked unit: hits
    assert hits(g, "A3", "B3", GUN, [2]) == (0, 0)  # melee attacks only
    assert [e.fight_shock for _, e in g.units["A3"].standing if e.fight_shock is not None] == [0]


def test_shade_weavers_only_ranged_attacks_from_within_18():
    e = entry("Drukhari", "Shade Weavers")
    assert [x.ranged_within for x in e.effects] == [18]


# --- Blessings of Khorne (World Eaters), with Slaughterer's Glory -----------------------------------------

WE = str(REPO / "rosters" / "world_eaters_boarding_butchers.yaml")


def deployed(roster: str, dice: list[int] | None = None, catalog: Catalog | None = None) -> Game:
    """The army of ``roster`` (A; from ``catalog``'s packs) against Orks without their rules (B),
    deployed with the first legal choices (scripted ``dice``): the start of battle round 1."""
    g = Game(11, build_army("A", roster, catalog), build_army("B", ORKS, without_rules()), dice=Dice.scripted(dice or []),
             rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    g.leaders["A"] = g.leaders["B"] = []
    g.apply(parse("role attacker"))
    while g.decision.step == "deploy":
        g.apply(next(x for x in g.legal_actions() if x.kind == "deploy"))
    return g


def we_game(dice: list[int]) -> Game:
    """World Eaters (A) against Orks (B): A's Blessings of Khorne roll made with ``dice``."""
    return deployed(WE, dice)


def blessings(g: Game) -> set[str]:
    return {a.arg.split(": ", 1)[1] for a in moments.usable(g, "A", "round_start")}


@pytest.mark.parametrize("dice, offered", [
    ([1, 2, 3, 4], set()),  # no double: nothing
    ([1, 1, 3, 4], {"Unbridled Bloodlust"}),  # any double
    ([2, 2, 5, 6], {"Unbridled Bloodlust", "Rage-fuelled Invigoration"}),  # double 2: 2+ and 1+
    ([5, 5, 1, 1], {"Unbridled Bloodlust", "Rage-fuelled Invigoration", "Total Carnage", "Martial Excellence",
                    "Warp Blades"}),  # double 5: not Decapitating Strikes (double 6)
    ([6, 6, 1, 2], {"Unbridled Bloodlust", "Rage-fuelled Invigoration", "Total Carnage", "Martial Excellence",
                    "Warp Blades", "Decapitating Strikes"}),
    ([2, 2, 2, 6], {"Unbridled Bloodlust", "Rage-fuelled Invigoration", "Martial Excellence", "Warp Blades"}),
    # a triple 2: Martial Excellence (triple 1+) and Warp Blades (triple 2+), not Decapitating Strikes (triple 3+)
    ([3, 3, 3, 1], {"Unbridled Bloodlust", "Rage-fuelled Invigoration", "Total Carnage", "Martial Excellence",
                    "Warp Blades", "Decapitating Strikes"}),
])
def test_blessings_of_khorne_four_dice_at_the_start_of_the_battle_round_and_what_they_allow(dice, offered):
    # Slaughterer's Glory: "roll four D6 instead of eight D6"; each Blessing "specifies the dice results
    # it requires (where a number is specified, a double or triple of that value or higher is required)"
    g = we_game(dice)
    g.dice.assert_consumed()  # four dice, once
    rolls = [e for e in g.events if e["e"] == "pool_roll"]
    assert [(e["player"], e["rule"], sorted(e["dice"])) for e in rolls] == [("A", "Blessings of Khorne", sorted(dice))]
    assert blessings(g) == offered
    assert (g.decision.step == "use" and g.decision.player == "A") is bool(offered)


def test_one_blessing_a_round_for_every_unit_with_the_ability_until_the_end_of_the_round():
    # Slaughterer's Glory: "you can only activate one Blessing of Khorne per battle round"; "once
    # activated, each Blessing of Khorne applies to all units from your army with this ability until
    # the end of the battle round"
    g = we_game([5, 5, 1, 2])
    g.apply(next(a for a in g.legal_actions() if a.arg == "Blessings of Khorne: Warp Blades"))
    holders = [u for u in g.army_units("A") if "Blessings of Khorne" in u.datasheet.abilities]
    assert holders and all(u in holders for u in g.army_units("A"))
    for u in holders:
        assert effect_weapon(u, u.melee[0], g.units["B3"]).abilities.lethal_hits
        assert not any(effect_weapon(u, w, g.units["B3"]).abilities.lethal_hits for w in u.ranged)
    assert blessings(g) == set()  # one a round
    moments.end_timed(g, "round")
    assert not any(effect_weapon(u, u.melee[0], g.units["B3"]).abilities.lethal_hits for u in holders)


def test_decapitating_strikes_blessing_devastating_wounds_against_infantry_only():
    e = next(m for m in entry("World Eaters", "Blessings of Khorne").moments
             if m.choice == "Decapitating Strikes").effects[0]
    assert (e.attacks, e.target_has, [w.name for w in e.weapon_abilities]) == \
        ("melee", ["INFANTRY"], ["devastating wounds"])


def test_pool_needs_must_say_double_or_triple_and_a_value():
    from bagm.data.models import Moment
    from bagm.data.schema import validate

    with pytest.raises(Exception, match="double X"):
        validate(Moment, {"when": "round_start", "pool": 4, "pool_needs": ["pair 5"], "effects": []})
    with pytest.raises(Exception, match="goes with pool"):
        validate(Moment, {"when": "round_start", "pool_needs": ["double 5"], "effects": []})


# --- Shadow in the Warp (Tyranids, Great Devourer) ------------------------------------------------------------


def shadow_game() -> Game:
    g = game()
    m = entry("Tyranids", "Shadow in the Warp").moments[0]
    g.armies["A"].uses += (use_of(m, "Shadow in the Warp", "Ability", holders=frozenset({"A3"})),)
    return g


@pytest.mark.parametrize("gap, mod", [(6.0, -1), (6.1, 0)])
def test_shadow_in_the_warp_every_enemy_unit_tests_minus_1_near_a_synapse_unit(gap, mod):
    # "each enemy unit on the battlefield must take a Battle-shock test ... if it is within 6" of one or
    # more SYNAPSE units from your army, subtract 1 from that test"
    g = shadow_game()
    a3, b3 = g.units["A3"], g.units["B3"]
    a3.keywords = a3.keywords | {"SYNAPSE"}
    x, y = a3.models[0].x, a3.models[0].y
    place(g, "A3", [(x, y)])
    place(g, "B3", [(x + a3.radius + b3.radius + gap, y)])
    g.phase = "command"
    acts = moments.usable(g, "A", "phase_start")
    assert [a.arg for a in acts] == ["Shadow in the Warp"]
    foes = g.army_units("B")
    dice = []
    for u in foes:  # each passes or fails by its own roll: a 2D6 equal to its Leadership passes
        dice += [1, 1] if u is b3 else [6, 6]
    g.dice = Dice.scripted(dice)
    moments.use_rule(g, "A", acts[0])
    steps = moments.acts_now(g, "A", acts[0])
    for _ in steps:
        raise AssertionError("no question expected")
    g.dice.assert_consumed()
    tests = {e["unit"]: e for e in g.events if e["e"] == "battleshock_test" and e.get("why") == "Shadow in the Warp"}
    assert set(tests) == {u.uid for u in foes}
    assert tests["B3"].get("mod", 0) == mod
    for u in foes:  # each by its own distance (straight, as Synapse) from the SYNAPSE unit
        assert tests[u.uid].get("mod", 0) == (-1 if positions.min_straight(g, a3, u) <= 6 + 1e-9 else 0)
    assert b3.battleshocked and not any(u.battleshocked for u in foes if u is not b3)
    g.phase_id += 1
    assert moments.usable(g, "A", "phase_start") == []  # once per battle


def test_shadow_in_the_warp_is_offered_in_either_players_command_phase_through_the_game():
    g = shadow_game()
    while not (g.decision.step == "use" and g.decision.player == "A" and g.phase == "command"):
        advance_to(g, "use", "A")  # A's other rules at their moments: passed
        if g.phase != "command":
            g.apply(Action("pass"))
    assert g.active == "B"  # B's Command phase: its start
    assert g.decision.info["timing"] == "phase_start"
    foes = g.army_units("B")
    g.dice = Dice.scripted([6, 6] * len(foes))
    g.apply(Action("use", "A3", arg="Shadow in the Warp"))
    g.dice.assert_consumed()
    assert sum(1 for e in g.events if e["e"] == "battleshock_test" and e.get("why") == "Shadow in the Warp") == len(foes)


def test_the_bot_unleashes_the_shadow_in_the_opponents_command_phase():
    g = shadow_game()
    bot = make_bot("greedy", 1)
    g.phase = "command"
    g.decision = Decision("use", "A", {"timing": "phase_start"})
    assert g.active == "A" and bot(g).kind == "pass"  # its own: kept
    g.active = "B"
    act = bot(g)
    assert act.kind == "use" and act.arg == "Shadow in the Warp"


# --- Seductive Gambit, Feeder Tendrils, Mind-breaking Mutations, A Plan Generations in the Making ------------


def test_seductive_gambit_rerolls_hits_and_wound_rolls_of_1_until_the_end_of_the_turn():
    g = game()
    give_uses(g, "A3", "Legiones Daemonica", "Seductive Gambit")
    g.phase = "charge"
    assert moments.usable(g, "A", "selected_to_fight", "A3") == []
    acts = moments.usable(g, "A", "charge_move_end", "A3")
    assert [a.arg for a in acts] == ["Seductive Gambit"]
    moments.use_rule(g, "A", acts[0])
    g.phase = "fight"
    # hit 2 (a miss, WS3+) re-rolled to 3; wound 1 re-rolled to 5 (S4 against T5); save 1
    assert hits(g, "A3", "B3", BLADE, [2, 3, 1, 5, 1]) == (1, 0)
    # a failed Wound roll other than a 1 stands: hit 3, wound 4
    assert hits(g, "A3", "B3", BLADE, [3, 4]) == (0, 0)
    moments.end_timed(g, "phase")
    assert hits(g, "A3", "B3", BLADE, [3, 1, 5, 1]) == (1, 1)  # still this turn (the wounded Nob falls)
    moments.end_timed(g, "turn")
    assert hits(g, "A3", "B3", BLADE, [2]) == (0, 0)


@pytest.mark.parametrize("faction, name, field, value", [
    ("Tyranids", "Feeder Tendrils", "kill_cp", "CHARACTER"),
    ("Genestealer Cults", "A Plan Generations in the Making", "secure_roll", 1),
    ("Heretic Astartes", "Mind-breaking Mutations (Aura)", "OC_aura", 3),
])
def test_abilities_that_are_one_field_of_the_vocabulary(faction, name, field, value):
    # each plays through a field the engine already plays and tests (kill_cp: A Worthy Skull;
    # secure_roll: the Enhancements' tests; OC_aura: Rad-saturation)
    assert value in [getattr(e, field) for e in entry(faction, name).effects]


@pytest.mark.parametrize("gap, oc, vehicle", [(2.9, -1, False), (3.1, 0, False), (2.9, 0, True)])
def test_mind_breaking_mutations_minus_1_oc_within_3_not_vehicles(gap, oc, vehicle):
    from test_army_rules_others import give

    from bagm.engine.rules.effects import engaged_oc_mod

    g = game()
    a3 = give(g, "A3", "Heretic Astartes", "Mind-breaking Mutations (Aura)")
    b3 = g.units["B3"]
    x, y = a3.models[0].x, a3.models[0].y
    place(g, "A3", [(x, y)])
    place(g, "B3", [(x + a3.radius + b3.radius + gap, y)])
    if vehicle:
        b3.keywords = b3.keywords | {"VEHICLE"}
    assert engaged_oc_mod(g, b3) == oc



# --- Nurgle's Gift (Death Guard), with Slow Decay --------------------------------------------------------------

DG = str(REPO / "rosters" / "death_guard_vectors_of_decay.yaml")


def dg_game() -> Game:
    """Death Guard (A) against Orks (B): the start of battle round 1 (A's Plague to select)."""
    return deployed(DG)


def beside(g: Game, a: str, b: str, gap: float) -> None:
    """``b``'s one model ``gap`` inches (edge to edge, in a straight line) from ``a``'s one model."""
    u, v = g.units[a], g.units[b]
    x, y = u.models[0].x, u.models[0].y
    place(g, a, [(x, y)])
    place(g, b, [(x + u.radius + v.radius + gap, y)])


def test_nurgles_gift_the_plague_is_selected_at_the_start_of_the_first_battle_round():
    g = dg_game()
    assert g.decision.step == "use" and g.decision.player == "A" and g.round == 1
    acts = [a.arg for a in g.legal_actions() if a.kind == "use"]
    assert acts == ["Nurgle's Gift (Aura): Skullsquirm Blight", "Nurgle's Gift (Aura): Rattlejoint Ague"]
    assert any("the Scabrous Soulrot Plague is not implemented" in n for n in g.armies["A"].not_modelled)


@pytest.mark.parametrize("rnd, gap, afflicted", [(1, 1.0, True), (1, 1.1, False), (2, 3.0, True), (2, 3.1, False),
                                                 (3, 6.0, True), (5, 6.0, True), (5, 6.1, False)])
def test_nurgles_gift_an_afflicted_unit_has_minus_1_toughness_within_contagion_range(rnd, gap, afflicted):
    # Slow Decay: Contagion Range 1" in battle round 1, 3" in round 2, 6" from round 3
    from bagm.engine.rules.effects import toughness

    g = dg_game()
    g.apply(Action("pass"))  # no Plague: the Toughness alone
    g.round = rnd
    a, b = g.army_units("A")[0], g.units["B3"]
    for u in g.army_units("A"):
        if u is not a:
            place(g, u.uid, [(1.0, 1.0 + 2 * int(u.uid[1:]))])  # the others far away
    beside(g, a.uid, "B3", gap)
    holds = holds_in(g)
    assert toughness(b, holds) == b.toughness() - (1 if afflicted else 0)
    assert toughness(a, holds) == a.toughness()  # never its own unit
    assert all(toughness(u, holds) == u.toughness() for u in g.army_units("A"))  # nor a friendly one
    # S4 against T5: a Wound roll of 4 fails, unless the target is Afflicted (T4)
    assert GUN.strength == 4 and b.toughness() == 5
    assert hits(g, a.uid, "B3", GUN, [3, 4] + ([1] if afflicted else [])) == ((1, 0) if afflicted else (0, 0))


@pytest.mark.parametrize("plague", ["Skullsquirm Blight", "Rattlejoint Ague"])
def test_nurgles_gift_the_selected_plague_on_afflicted_units_only(plague):
    from bagm.engine.rules.effects import effect_conditions

    g = dg_game()
    g.apply(next(a for a in g.legal_actions() if a.arg == f"Nurgle's Gift (Aura): {plague}"))
    a, b, far = g.army_units("A")[0], g.units["B3"], g.units["B4"]
    for u in g.army_units("A"):
        if u is not a:
            place(g, u.uid, [(1.0, 1.0 + 2 * int(u.uid[1:]))])
    beside(g, a.uid, "B3", 0.5)
    holds = holds_in(g)
    assert positions.min_straight(g, a, far) > 1
    # Skullsquirm Blight: -1 to the Hit roll of the Afflicted unit's attacks
    hit = effect_conditions(b, a, GUN, Conditions(), holds).hit_mod
    assert hit == (-1 if plague == "Skullsquirm Blight" else 0)
    assert effect_conditions(far, a, GUN, Conditions(), holds).hit_mod == 0
    # Rattlejoint Ague: its Save characteristic worsened by 1 (armour saving throws of attacks on it)
    save = effect_conditions(a, b, GUN, Conditions(), holds).save_mod
    assert save == (-1 if plague == "Rattlejoint Ague" else 0)
    assert effect_conditions(a, far, GUN, Conditions(), holds).save_mod == 0
    assert effect_conditions(b, a, GUN, Conditions(), holds).save_mod == 0  # not the Death Guard's


# --- Curse of the Walking Pox (Death Guard) ------------------------------------------------------------------


@pytest.mark.parametrize("lost, kills, monster, back", [(2, 1, False, 1), (1, 2, False, 1), (0, 1, False, 0),
                                                         (2, 2, False, 2), (2, 1, True, 0)])
def test_curse_of_the_walking_pox_a_destroyed_poxwalker_returns_for_each_enemy_model_destroyed(lost, kills, monster, back):
    g = dg_game()
    g.apply(Action("pass"))
    pox = next(u for u in g.army_units("A") if u.datasheet.name == "Poxwalkers")
    b3 = g.units["B3"]
    x, y = pox.models[0].x, pox.models[0].y
    place(g, pox.uid, [(x - 1.3 * (i // 3), y + 1.3 * (i % 3)) for i in range(pox.starting - lost)])
    place(g, "B3", [(x + pox.radius + b3.radius + 0.2, y + 1.3 * i) for i in range(3)])
    assert len(pox.models) == pox.starting - lost and positions.engaged(g, pox, b3)
    for m in b3.models:
        m.wounds = 1
    if monster:
        b3.keywords = b3.keywords | {"MONSTER"}
    n = len(pox.models)
    # each attack: hit 6, wound 6 (S4 against T5), save 1 (Sv4+ against AP0): one Nob (1 wound left) each
    g.dice = Dice.scripted([6] * kills + [6] * kills + [1] * kills)  # the Hit rolls, the Wound rolls, the saves
    steps = shooting.attack(g, pox, b3, BLADE, kills, Conditions(), None, ranged=False)
    try:
        next(steps)
        while True:
            steps.send(Action("pass"))
    except StopIteration as stop:
        assert stop.value[1] == kills
    g.dice.assert_consumed()
    assert len(pox.models) == n + back
    ev = [e for e in g.events if e["e"] == "models_return"]
    assert [(e["unit"], e["returned"]) for e in ev] == ([(pox.uid, back)] if back else [])
    if back:
        assert positions.coherent(g, [(m.x, m.y) for m in pox.models], pox.radius)


# --- Orks: abilities while the Waaagh! is active; Monster Hunters, Pyromaniaks --------------------------------


@pytest.mark.parametrize("call", [None, "Waaagh!", "Void Waaagh!"])
def test_da_biggest_and_da_best_and_krumpin_time_while_the_waaagh_is_active(call):
    from test_army_rules_others import give

    g = game()
    boss = give(g, "A3", "Orks", "Da Biggest and da Best")
    give(g, "A3", "Orks", "Krumpin’ Time")
    if call is not None:  # the army's call: its units carry it until it ends ("counts as a Waaagh!")
        boss.timed += ((call, entry("Orks", "Waaagh!").moments[0].effects[1], "round"),)
    w = effect_weapon(boss, BLADE, g.units["B3"])
    assert w.attacks.bonus == BLADE.attacks.bonus + (4 + (1 if call else 0) if call else 0)
    assert effect_weapon(boss, GUN, g.units["B3"]).attacks == GUN.attacks  # melee weapons only
    assert effect_defence(boss)[1] == (5 if call else None)  # Feel No Pain 5+


def test_monster_hunters_rerolls_hits_against_monsters_and_vehicles():
    from test_army_rules_others import give

    g = game()
    give(g, "A3", "Orks", "Monster Hunters")
    assert hits(g, "A3", "B3", GUN, [2]) == (0, 0)  # Nobz: no re-roll
    g.units["B3"].keywords = g.units["B3"].keywords | {"VEHICLE"}
    assert hits(g, "A3", "B3", GUN, [2, 3, 4]) == (0, 0)  # the 2 re-rolled to a 3; wound 4 fails (T5)


@pytest.mark.parametrize("gap, marker, rerolls", [(6.0, False, "ones"), (6.1, False, "none"), (6.0, True, "failed")])
def test_pyromaniaks_burna_rerolls_wound_rolls_within_6_and_every_one_on_an_objective(gap, marker, rerolls):
    from dataclasses import replace

    from test_army_rules_others import give

    from bagm.engine.rules.effects import effect_conditions

    g = game()
    give(g, "A3", "Orks", "Pyromaniaks")
    a3, b3 = g.units["A3"], g.units["B3"]
    x, y = (g.map.layout.markers[0].x, g.map.layout.markers[0].y) if marker else (a3.models[0].x, a3.models[0].y)
    place(g, "B3", [(x, y)])
    for sign in (1, -1, 0):
        assert sign, "no open side"
        place(g, "A3", [(x + sign * (a3.radius + b3.radius + gap), y)])
        if g.bf.layout.board_at((a3.models[0].x, y)) is not None and abs(positions.unit_distance(g, a3, b3) - gap) < 1e-6:
            break
    burna = replace(GUN, name="Burna")
    got = effect_conditions(a3, b3, burna, Conditions(), holds_in(g)).reroll_wounds.name
    assert got == rerolls
    assert effect_conditions(a3, b3, GUN, Conditions(), holds_in(g)).reroll_wounds.name == "none"  # its burna only


# --- Thousand Sons: Rites of Coalescence, Twisted Sorceries ---------------------------------------------------


def test_rites_of_coalescence_minus_1_to_wound_the_unit():
    from test_army_rules_others import give

    g = game()
    give(g, "B3", "Thousand Sons", "Rites of Coalescence")
    # S4 against T5: 5+ to wound, 6+ with the -1
    assert hits(g, "A3", "B3", GUN, [3, 5]) == (0, 0)
    assert hits(g, "A3", "B3", GUN, [3, 6, 1]) == (1, 0)


def test_twisted_sorceries_plus_3_strength_and_attacks_of_psychic_weapons_once_per_battle():
    from dataclasses import replace

    from bagm.data.weapons import Abilities

    g = use_when_selected("Thousand Sons", "Twisted Sorceries (Psychic)", "shooting")
    psychic = replace(GUN, abilities=Abilities(psychic=True))
    w = effect_weapon(g.units["A3"], psychic, g.units["B3"])
    assert (w.strength, w.attacks.bonus) == (GUN.strength + 3, GUN.attacks.bonus + 3)
    assert effect_weapon(g.units["A3"], GUN, g.units["B3"]) == GUN  # not a Psychic weapon
    moments.end_timed(g, "phase")
    g.phase, g.phase_id = "fight", g.phase_id + 1
    assert moments.usable(g, "A", "selected_to_fight", "A3") == []  # once per battle


# --- Legiones Daemonica: Horrifying Beauty, A Gory Path -----------------------------------------------------


@pytest.mark.parametrize("below_half, mod", [(False, 0), (True, -1)])
def test_horrifying_beauty_battle_shock_tests_at_the_start_of_the_fight_phase(below_half, mod):
    from test_army_rules_others import give

    g = game()
    give(g, "A3", "Legiones Daemonica", "Horrifying Beauty")
    a3, b3 = g.units["A3"], g.units["B3"]
    x, y = a3.models[0].x, a3.models[0].y
    place(g, "A3", [(x, y)])
    place(g, "B3", [(x + a3.radius + b3.radius + 0.5, y + 1.3 * i) for i in range(2 if below_half else 5)])
    assert positions.engaged(g, a3, b3) and b3.below_half() is below_half
    g.phase = "fight"
    g.dice = Dice.scripted([4, 3])
    for _ in g.run_step("rules at the start of the Fight phase"):
        raise AssertionError("no question expected")
    g.dice.assert_consumed()
    test = [e for e in g.events if e["e"] == "battleshock_test"][-1]
    assert (test["unit"], test["why"], test.get("mod", 0)) == ("B3", "Horrifying Beauty", mod)


def test_a_gory_path_consolidates_up_to_6():
    e = entry("Legiones Daemonica", "A Gory Path").effects[0]
    assert e.consolidate == "6"


# --- Ambushing Hunters (Thousand Sons) --------------------------------------------------------------------------


@pytest.mark.parametrize("gap, offered", [(6.1, True), (6.0, False)])
def test_ambushing_hunters_into_strategic_reserves_at_the_end_of_the_opponents_turn(gap, offered):
    g = game()
    give_uses(g, "A3", "Thousand Sons", "Ambushing Hunters")
    a3 = g.units["A3"]
    far = [u for u in g.army_units("B")]
    for u in far:  # every enemy unit far away but one, ``gap`` from A3 (straight)
        if u.uid != "B3":
            place(g, u.uid, [(1.0 + 2 * int(u.uid[1:]), 1.0)])
    x, y = a3.models[0].x, a3.models[0].y
    place(g, "A3", [(x, y)])
    b3 = g.units["B3"]
    place(g, "B3", [(x + a3.radius + b3.radius + gap, y)])
    assert all(positions.min_straight(g, a3, u) > 6 for u in far if u.uid != "B3")
    g.phase, g.active = "fight", "B"
    acts = [a for a in moments.usable(g, "A", "phase_end") if a.arg == "Ambushing Hunters"]
    assert [a.unit for a in acts] == (["A3"] if offered else [])
    g.active = "A"
    assert not [a for a in moments.usable(g, "A", "phase_end") if a.arg == "Ambushing Hunters"]  # the opponent's turn only
    if offered:
        g.active = "B"
        moments.use_rule(g, "A", acts[0])
        for _ in moments.acts_now(g, "A", acts[0]):
            raise AssertionError("no question expected")
        assert a3.where == "reserves" and a3.late_reserve and a3 not in g.army_units("A")
        assert [e for e in g.events if e["e"] == "reserves"][-1] == \
            {"e": "reserves", "unit": "A3", "deep_strike": False, "why": "Ambushing Hunters"}
        assert a3 in g.army_units("A", "reserves")
        # placed there after the battle began: not destroyed at the end of round 3
        for _ in g.run_step("end of the battle round", 3):
            raise AssertionError("no question expected")
        assert a3.where == "reserves"


def test_the_bot_sends_a_unit_into_reserves_only_to_regroup_far_from_the_fight():
    from bagm.engine.bots.greedy import GreedyBot

    g = game()
    bot = make_bot("greedy", 1)
    assert isinstance(bot, GreedyBot)
    a3 = g.units["A3"]
    near = min(positions.min_straight(g, a3, e) for e in g.army_units("B"))
    if near <= 18:
        assert not regroup(bot, g, a3)  # an enemy unit within 18": it stays in the fight
    for e in g.army_units("B"):
        e.where = "reserves"  # nobody near
    mk = g.map.layout.markers[0]
    place(g, "A3", [(mk.x, mk.y)])
    assert bot.on_marker(g, a3) and not regroup(bot, g, a3)  # it holds a marker: it stays


# --- Heretic Astartes, Emperor's Children, World Eaters: more datasheet abilities ---------------------------------


def test_chance_for_glory_once_per_battle_at_the_start_of_the_fight_phase():
    g = game()
    give_uses(g, "A3", "Heretic Astartes", "Chance for Glory")
    g.phase = "shooting"
    assert not [a for a in moments.usable(g, "A", "phase_start") if a.arg == "Chance for Glory"]
    g.phase = "fight"
    acts = [a for a in moments.usable(g, "A", "phase_start") if a.arg == "Chance for Glory"]
    assert [a.unit for a in acts] == ["A3"]
    moments.use_rule(g, "A", acts[0])
    w = effect_weapon(g.units["A3"], BLADE, g.units["B3"])
    assert (w.strength, w.attacks.bonus, w.ap, w.damage.bonus) == (
        BLADE.strength + 1, BLADE.attacks.bonus + 1, BLADE.ap - 1, BLADE.damage.bonus + 1)
    moments.end_timed(g, "phase")
    g.phase_id += 1
    assert not [a for a in moments.usable(g, "A", "phase_start") if a.arg == "Chance for Glory"]


def test_terrifying_assault_and_cursed_flames_battle_shock_tests():
    e = entry("Heretic Astartes", "Terrifying Assault").effects[0]
    assert e.fight_shock == 0
    g = game()
    from test_army_rules_others import give

    give(g, "A3", "Heretic Astartes", "Cursed Flames")
    a3, b3 = g.units["A3"], g.units["B3"]
    plan = [(GUN, 1, None)]
    g.events.append({"e": "attack", "weapon": GUN.name, "hits": 1})  # A3 has just hit B3
    mark = len(g.events) - 1
    g.dice = Dice.scripted([6, 6])
    for _ in shooting.battleshock_after_hits(g, a3, b3, plan, mark):
        raise AssertionError("no question expected")
    g.dice.assert_consumed()
    assert [e for e in g.events if e["e"] == "battleshock_test"][-1]["why"] == "Cursed Flames"
    b3.keywords = b3.keywords - {"INFANTRY"}  # only an INFANTRY unit
    g.phase_id += 1
    n = len([e for e in g.events if e["e"] == "battleshock_test"])
    for _ in shooting.battleshock_after_hits(g, a3, b3, plan, mark):
        raise AssertionError("no question expected")
    assert len([e for e in g.events if e["e"] == "battleshock_test"]) == n
    g.events.pop(mark)


def test_a_challenge_worthy_of_skill_rerolls_against_characters_monsters_and_walkers():
    from test_army_rules_others import give

    g = game()
    give(g, "A3", "Emperor's Children", "A Challenge Worthy of Skill")
    assert hits(g, "A3", "B3", BLADE, [2]) == (0, 0)
    g.units["B3"].keywords = g.units["B3"].keywords | {"WALKER"}
    # hit 2 re-rolled to 3; wound 2 re-rolled to 5 (S4 against T5); save 1
    assert hits(g, "A3", "B3", BLADE, [2, 3, 2, 5, 1]) == (1, 0)


@pytest.mark.parametrize("gap, half, hit, wound", [(6.0, False, 1, 0), (6.0, True, 1, 1), (6.1, True, 0, 0)])
def test_beacons_of_rage_plus_1_to_hit_in_melee_within_6_and_to_wound_a_unit_below_half(gap, half, hit, wound):
    from test_army_rules import at_distance

    from bagm.engine.game.muster import _spread_auras

    g = game()
    a3, a4, b3 = g.units["A3"], g.units["A4"], g.units["B3"]
    for u in (a3, a4):
        u.keywords = u.keywords | {"WORLD EATERS"}
    own = tuple(("Beacons of Rage (Aura)", e) for e in entry("World Eaters", "Beacons of Rage (Aura)").effects)
    a3.standing += own
    _spread_auras([a3, a4], [("A3", n, e) for n, e in own])
    place(g, "A3", [(a3.models[0].x, a3.models[0].y)])
    at_distance(g, a3, a4, gap)
    if half:
        b3.models = b3.models[:2]
    from bagm.engine.rules.effects import effect_conditions

    c = effect_conditions(a4, b3, BLADE, Conditions(), holds_in(g))
    assert (c.hit_mod, c.wound_mod) == (hit, wound)
    assert effect_conditions(a4, b3, GUN, Conditions(), holds_in(g)).hit_mod == 0  # melee attacks only
    b3.keywords = b3.keywords | {"MONSTER"}
    assert effect_conditions(a4, b3, BLADE, Conditions(), holds_in(g)).hit_mod == 0  # not against a MONSTER


# --- Adaptable Predators, Bounding Leaps, Skulls for Khorne, Hypnotic Gaze --------------------------------------


@pytest.mark.parametrize("faction, name, shoots, charges", [("Tyranids", "Adaptable Predators", True, True),
                                                           ("Legiones Daemonica", "Bounding Leaps", True, False)])
def test_eligible_to_shoot_or_charge_after_falling_back(faction, name, shoots, charges):
    from test_army_rules_others import give

    g = game()
    u = give(g, "A3", faction, name)
    assert effect_has(u, "shoot_after_fall_back") is shoots and effect_has(u, "charge_after_fall_back") is charges
    assert not effect_has(u, "shoot_after_advance")


def test_skulls_for_khorne_rerolls_against_characters_and_1cp_for_one():
    from test_army_rules_others import give

    g = game()
    give(g, "A3", "Legiones Daemonica", "Skulls for Khorne")
    b3 = g.units["B3"]
    assert hits(g, "A3", "B3", GUN, [2]) == (0, 0)  # not a CHARACTER: no re-roll
    b3.keywords = b3.keywords | {"CHARACTER"}
    b3.models = b3.models[:1]
    b3.models[0].wounds = 1
    g.cp["A"] = 0
    # ranged attacks too: hit 2 re-rolled to 3; wound 2 re-rolled to 5 (S4 against T5); save 1: the model falls
    assert hits(g, "A3", "B3", GUN, [2, 3, 2, 5, 1]) == (1, 1)
    assert g.cp["A"] == 1


def test_hypnotic_gaze_minus_1_to_hit_for_one_engaged_enemy_unit():
    g = game()
    give_uses(g, "A3", "Great Devourer", "Hypnotic Gaze (Psychic)")
    a3, b3 = g.units["A3"], g.units["B3"]
    g.phase = "fight"
    far = [a for a in moments.usable(g, "A", "phase_start") if a.arg == "Hypnotic Gaze (Psychic)"]
    assert far == [] or not positions.engaged(g, a3, b3)
    x, y = a3.models[0].x, a3.models[0].y
    place(g, "A3", [(x, y)])
    place(g, "B3", [(x + a3.radius + b3.radius + 0.5, y)])
    acts = [a for a in moments.usable(g, "A", "phase_start") if a.arg == "Hypnotic Gaze (Psychic)"]
    assert [a.unit for a in acts] == ["B3"]  # an enemy unit within its Engagement Range
    moments.use_rule(g, "A", acts[0])
    assert hits(g, "B3", "A3", BLADE, [3]) == (0, 0)  # B3's WS3+ attack: a 3 misses with the -1
    assert hits(g, "A3", "B3", BLADE, [3, 1]) == (0, 0)  # not A3's own


# --- Battle-shock auras on enemy units: Feculent Despair, Fear Incarnate, Fear of the Unseen, Sullen Malevolence --


@pytest.mark.parametrize("faction, name", [("Legiones Daemonica", "Feculent Despair (Aura, Psychic)"),
                                           ("Legiones Daemonica", "Sullen Malevolence (Aura)"),
                                           ("Drukhari", "Fear Incarnate (Aura)"), ("Tyranids", "Fear of the Unseen (Aura)")])
@pytest.mark.parametrize("gap, mod", [(6.0, -1), (6.1, 0)])
def test_an_enemy_unit_within_6_subtracts_1_from_its_battle_shock_tests(faction, name, gap, mod):
    from bagm.engine.game.muster import spread_enemy_auras

    g = game()
    a3, b3 = g.units["A3"], g.units["B3"]
    found = entry(faction, name)
    a3.enemy_auras = tuple((name, e) for e in found.effects if e.aura_enemy)
    a3.standing += tuple((name, e) for e in found.effects if not e.aura_enemy)
    spread_enemy_auras(list(g.units.values()))
    spread_enemy_auras(list(g.units.values()))  # once only
    assert sum(n == name for n, _ in b3.standing) == 1 and not any(n == name for n, _ in g.units["A4"].standing)
    x, y = a3.models[0].x, a3.models[0].y
    place(g, "A3", [(x, y)])
    place(g, "B3", [(x + a3.radius + b3.radius + gap, y)])
    g.dice = Dice.scripted([3, 4])
    for _ in command.battleshock_test(g, b3, "a test"):  # a test another rule forces
        raise AssertionError("no question expected")
    g.dice.assert_consumed()
    test = [e for e in g.events if e["e"] == "battleshock_test"][-1]
    assert (test["unit"], test.get("mod", 0)) == ("B3", mod)
    if found.left:  # Leadership worsened: only Battle-shock tests are played
        assert "Battle-shock" in found.left[0]


@pytest.mark.parametrize("faction, name", [("Drukhari", "Fear Incarnate (Aura)"), ("Tyranids", "Fear of the Unseen (Aura)")])
def test_fear_auras_a_test_for_an_enemy_unit_below_starting_strength_within_6(faction, name):
    e = next(e for e in entry(faction, name).effects if e.shock_range is not None)
    assert (e.shock_range, e.target_while) == (6, "below_starting")


def test_blessed_icon_of_disease_ends_battleshock_of_a_death_guard_unit_within_12():
    g = game()
    give_uses(g, "A1", "Death Guard", "Blessed Icon of Disease")
    a3 = g.units["A3"]
    a3.battleshocked = True
    assert not [a for a in moments.usable(g, "A", "phase_start") if a.arg == "Blessed Icon of Disease"]  # not DEATH GUARD
    a3.keywords = a3.keywords | {"DEATH GUARD"}
    if positions.unit_distance(g, g.units["A1"], a3) <= 12:
        acts = [a for a in moments.usable(g, "A", "phase_start") if a.arg == "Blessed Icon of Disease"]
        assert [a.unit for a in acts] == ["A3"]


def test_biological_warfare_plus_3_attacks_and_damage_of_the_injector_goad_once_per_battle():
    from dataclasses import replace

    g = use_when_selected("Genestealer Cults", "Biological Warfare", "fight")
    goad = replace(BLADE, name="Injector goad")
    w = effect_weapon(g.units["A3"], goad, g.units["B3"])
    assert (w.attacks.bonus, w.damage.bonus) == (BLADE.attacks.bonus + 3, BLADE.damage.bonus + 3)
    assert effect_weapon(g.units["A3"], BLADE, g.units["B3"]) == BLADE  # its injector goad only
    g.phase_id += 1
    assert moments.usable(g, "A", "selected_to_fight", "A3") == []


def test_psychic_spoor_rerolls_against_its_prey_only():
    from test_army_rules_others import give

    g = game()
    give(g, "A3", "Genestealer Cults", "Psychic Spoor")
    assert hits(g, "A3", "B3", GUN, [2]) == (0, 0)  # no prey yet: no re-roll
    g.units["B3"].marked = frozenset({"Psychic Spoor A3"})  # A3 selected B3 as its prey
    # hit 2 re-rolled to 3; wound 2 re-rolled to 5 (S4 against T5); save 1
    assert hits(g, "A3", "B3", GUN, [2, 3, 2, 5, 1]) == (1, 0)
    assert hits(g, "A3", "B4", GUN, [2]) == (0, 0)  # another unit: none
    g.units["B3"].marked = frozenset({"Psychic Spoor A4"})  # another unit's prey
    assert hits(g, "A3", "B3", GUN, [2]) == (0, 0)


@pytest.mark.parametrize("faction, name", [("Genestealer Cults", "Heroic Fusillade")])
def test_heroic_fusillade_a_battle_shock_test_for_an_infantry_unit_hit(faction, name):
    e = entry(faction, name).effects[0]
    assert (e.shock_hit, e.target_has) == (0, ["INFANTRY"])


def test_fearsome_minus_1_to_battle_shock_tests_within_6():
    e = entry("Heretic Astartes", "Fearsome (Aura)")
    assert [(x.aura_enemy, x.aura, x.battleshock_mod) for x in e.effects] == [(True, 6, -1)] and e.left


def test_nurgles_gift_afflicted_once_however_many_death_guard_units_are_in_range():
    # "while an enemy unit is within Contagion Range of one or more DEATH GUARD units ..., it is Afflicted"
    from bagm.engine.rules.effects import toughness

    g = dg_game()
    g.apply(Action("pass"))
    g.round = 3
    b3 = g.units["B3"]
    dg = g.army_units("A")
    x, y = b3.models[0].x, b3.models[0].y
    place(g, "B3", [(x, y)])
    for k, u in enumerate(dg[:3]):  # three of them within 6" of it
        place(g, u.uid, [(x + b3.radius + u.radius + 1.0, y + 1.6 * (k - 1))])
    assert sum(1 for u in dg if positions.min_straight(g, u, b3) <= 6) >= 2
    assert toughness(b3, holds_in(g)) == b3.toughness() - 1
    assert sum(1 for n, _ in b3.standing if n == "Nurgle's Gift (Aura)") == 3  # one copy of each of its 3 effects
