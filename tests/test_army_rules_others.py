"""Faction army rules and common datasheet abilities of the Chaos, Aeldari, Drukhari, Tyranids,
Genestealer Cults and Orks packs, as their ability tables say them (the Boarding Actions
Mustering Rules' army rules where they replace or change one), each played with scripted dice:
Grey Knights (A) against Orks (B), the unit under test given the entry's effects as muster
gives them."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from conftest import REPO, advance_to, block, place, without_rules
from test_abilities import near_marker

from bagm.chance.dice import Dice, DiceExpr
from bagm.data.packs import Catalog
from bagm.data.weapons import WeaponProfile
from bagm.engine.attack.rules import Conditions, Reroll
from bagm.engine.game import charge, kept, moments, positions, shooting, sight
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.effects import (
    effect_conditions,
    effect_has,
    effect_weapon,
    fights_on_death,
    holds_in,
    shock_dice,
)
from bagm.engine.state.actions import parse

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B2 1", "deploy A5 1"]
GUN = WeaponProfile("Test gun", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1), range=24)
BLADE = WeaponProfile("Test blade", True, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1))


@cache
def _armies() -> tuple[Any, Any]:
    return build_army("A", GK, without_rules()), build_army("B", ORKS, without_rules())


@pytest.fixture(autouse=True)
def _events_declared():
    """Every event the games of a test record is declared (bagm.engine.state.events)."""
    from test_events import problems

    GAMES.clear()
    yield
    for g in GAMES:
        for ev in g.events:
            assert not problems(ev), (ev, problems(ev))
    GAMES.clear()


GAMES: list[Game] = []


def game(army_rule: bool = False) -> Game:
    """Grey Knights (A) against Orks (B), deployed; A's Movement phase, no CP on either side
    (``army_rule``: the Grey Knights with their army rule, Eye of the Prognosticars)."""
    a, b = (copy.deepcopy(x) for x in _armies())
    if army_rule:
        a = build_army("A", GK)
    g = Game(11, a, b, dice=Dice.scripted([]), rolloffs={"attacker": "A", "first_turn": "A"})
    g.leaders["A"] = g.leaders["B"] = []
    for t in DEPLOY:
        g.apply(parse(t))
    advance_to(g, "move")
    g.cp["A"] = g.cp["B"] = 0
    GAMES.append(g)
    return g


def entry(faction: str, name: str) -> Any:
    found = Catalog().abilities(faction).find(name)
    assert found is not None and found.modelled, f"{faction}: {name} is not in its table"
    return found


def give(g: Game, uid: str, faction: str, name: str) -> Any:
    """Unit ``uid`` has the ability ``name`` of ``faction``'s table: its effects, as muster gives them."""
    found = entry(faction, name)
    u = g.units[uid]
    u.standing = u.standing + tuple((name, e) for e in found.effects)
    kept.touch(g)
    return u


def pack_keywords() -> set[str]:
    """Every keyword of every datasheet in the bundled packs."""
    return {k for f in Catalog().all() for ds in f.pack.units for k in ds.all_keywords}


# --- Legiones Daemonica ------------------------------------------------------------------------


def test_soul_hunters_ranged_weapons_ignore_cover_against_units_within_7_inches():
    # BA Mustering Rules, Soul Hunters (replaces The Shadow of Chaos): "enemy units within 7" of
    # this unit are Hunted by it ... ranged weapons have [IGNORES COVER] while targeting that unit"
    for gap, hunted in ((6.9, True), (7.0, True), (7.1, False)):
        g = game()
        a3 = give(g, "A3", "Legiones Daemonica", "The Shadow of Chaos")
        place(g, "A3", [(14.0, 15.0)])
        r = a3.radius + g.units["B3"].radius
        place(g, "B3", [(14.0 + gap + r, 15.0)])
        kept.touch(g)
        assert positions.unit_distance(g, a3, g.units["B3"]) == pytest.approx(gap)
        holds = holds_in(g)
        assert effect_weapon(a3, GUN, g.units["B3"], holds).abilities.ignores_cover is hunted
        assert not effect_weapon(a3, BLADE, g.units["B3"], holds).abilities.ignores_cover  # ranged only
        assert not effect_weapon(a3, GUN, None, holds).abilities.ignores_cover  # no target: no condition met


@pytest.mark.parametrize("at, hunted", [((5.0, 9.0), True), ((4.0, 9.0), False)])
def test_soul_hunters_charge_a_hunted_unit_that_is_not_visible(at, hunted):
    # "... it can include that enemy unit as a target of that charge, even if it is not visible to it"
    g = game()
    place(g, "A3", [(2.0, 2.0)])
    place(g, "B3", [at])  # behind a Wall: 6.79" around it, or 7.76"
    kept.touch(g)
    a3, b3 = g.units["A3"], g.units["B3"]
    assert not sight.visible_idx(g, a3, b3) and (positions.unit_distance(g, a3, b3) <= 7) is hunted
    assert parse("charge A3 B3") not in charge.legal_charge(g, "A")
    give(g, "A3", "Legiones Daemonica", "The Shadow of Chaos")
    assert (parse("charge A3 B3") in charge.legal_charge(g, "A")) is hunted


def test_warp_rifts_plays_no_part_no_greater_daemon_is_in_any_pack():
    # Warp Rifts needs the Shadow of Chaos (replaced by Soul Hunters) or a friendly Greater Daemon
    greater = {"BLOODTHIRSTER", "GREAT UNCLEAN ONE", "KAIROS FATEWEAVER", "KEEPER OF SECRETS",
               "LORD OF CHANGE", "ROTIGUS", "SHALAXI HELBANE", "SKARBRAND"}
    assert not greater & pack_keywords()
    assert entry("Legiones Daemonica", "Warp Rifts").entry.removed


def test_mortal_sorcery_plays_no_part_no_scintillating_legions_unit_is_in_any_pack():
    assert "SCINTILLATING LEGIONS" not in pack_keywords()
    assert entry("Thousand Sons", "Mortal Sorcery (Aura)").entry.removed


def test_shadows_caress_no_overwatch_at_the_unit():
    def overwatch_offered(caress: bool) -> bool:
        g = game()
        if caress:
            give(g, "A3", "Legiones Daemonica", "Shadow's Caress")
        place(g, "B3", block(30, dx=1.4))
        place(g, "A3", block(14))
        g.units["B3"].overwatch_until = 99  # B3 has Set Overwatch
        kept.touch(g)
        g.dice = Dice(1)
        g.apply(parse("move A3 20,15"))
        return g.decision.step == "overwatch" and g.decision.player == "B"
    assert overwatch_offered(False) and not overwatch_offered(True)


@pytest.mark.parametrize("faction, name", [("Legiones Daemonica", "Bane of Cowards"), ("Drukhari", "No Escape")])
@pytest.mark.parametrize("shocked, keyword, tests, mod", [
    (False, None, 5, 0),  # every model tests, as if Battle-shocked
    (True, None, 5, -1),  # Battle-shocked as well: 1 subtracted from each test
    (False, "VEHICLE", 0, 0),  # "excluding MONSTERS and VEHICLES": only the models crossing enemies
    (False, "MONSTER", 0, 0),
])
def test_no_escape_every_model_takes_a_desperate_escape_test(faction, name, shocked, keyword, tests, mod):
    g = game()
    give(g, "B3", faction, name)
    a3 = g.units["A3"]
    place(g, "A3", block(14))
    place(g, "B3", block(15.6, dx=1.4))
    a3.battleshocked = shocked
    if keyword:
        a3.keywords = a3.keywords | {keyword}
    kept.touch(g)
    fall_back = next(a for a in g.legal_actions() if a.kind == "fallback" and a.unit == "A3")
    g.dice = Dice.scripted([3] * 5 if shocked or not keyword else [])
    g.apply(fall_back)
    g.dice.assert_consumed()
    ev = [e for e in g.events if e["e"] == "desperate_escape"]
    if tests:
        # a 3 passes (failed on 1-2); with the -1 it is a 2: failed
        assert [(e["tests"], e["destroyed"]) for e in ev] == [(tests, 5 if mod else 0)]
    else:
        assert ev == []


# --- Emperor's Children, Heretic Astartes, Aeldari -------------------------------------------------


def test_musk_of_torpidity_manoeuvre_or_shoot_and_charge_after_falling_back_not_advancing():
    # BA Mustering Rules, Musk of Torpidity (replaces Thrill Seekers)
    g = game()
    a3 = give(g, "A3", "Emperor's Children", "Thrill Seekers")
    a4 = g.units["A4"]
    a3.moved = a4.moved = "fallback"
    assert shooting.manoeuvre_reason(g, a3) is None and shooting.shoot_reason(g, a3) is None and charge.charge_reason(g, a3) is None
    assert shooting.manoeuvre_reason(g, a4) and shooting.shoot_reason(g, a4) and charge.charge_reason(g, a4)
    a3.moved = "advance"
    assert shooting.manoeuvre_reason(g, a3) and charge.charge_reason(g, a3)


@pytest.mark.parametrize("faction, name, shoots", [("Heretic Astartes", "Chosen Marauders", True),
                                                    ("Aeldari", "Acrobatic", False)])
def test_charge_after_advancing_or_falling_back(faction, name, shoots):
    g = game()
    a3 = give(g, "A3", faction, name)
    for moved in ("advance", "fallback"):
        a3.moved = g.units["A4"].moved = moved
        assert charge.charge_reason(g, a3) is None and charge.charge_reason(g, g.units["A4"])
        assert (shooting.shoot_reason(g, a3) is None) is shoots


@pytest.mark.parametrize("faction, name", [("Aeldari", "Flip Belt"), ("Drukhari", "Fleshcraft (Pain)")])
def test_abilities_that_play_no_part_in_boarding_actions(faction, name):
    assert entry(faction, name).entry.removed


# --- Tyranids ----------------------------------------------------------------------------------


@pytest.mark.parametrize("roll, fights", [(3, 0), (4, 1)])
def test_death_blow_fights_on_a_4_plus(roll, fights):
    # "If this model is destroyed by a melee attack, if it has not fought this phase, roll one D6:
    # on a 4+ ... can fight after the attacking model's unit has finished making its attacks"
    g = game()
    a3 = give(g, "A3", "Tyranids", "Death Blow")
    g.dice = Dice.scripted([roll])
    fights_on_death(g, a3, 1)
    g.dice.assert_consumed()
    assert a3.dying == fights
    a3.dying, a3.fought = 0, True  # it has fought this phase: no roll
    g.dice = Dice.scripted([])
    fights_on_death(g, a3, 1)
    assert a3.dying == 0


# --- army rules the Mustering Rules give by keyword ---------------------------------------------

GSC = str(REPO / "rosters" / "genestealer_cults_cult_unveiled.yaml")
GDV = str(REPO / "rosters" / "great_devourer_infestation_swarm.yaml")
TSONS = str(REPO / "rosters" / "thousand_sons_chosen_cabal.yaml")


def deployers(a: Any, b: Any) -> list[str]:
    """The player of each Deploy Armies decision, the first legal set-up taken each time."""
    g = Game(11, a, b, dice=Dice(3), rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    g.apply(parse("role attacker"))  # A attacks: the Defender (B) would set up first
    out = []
    while g.decision.step == "deploy":
        out.append(g.decision.player)
        g.apply(next(x for x in g.legal_actions() if x.kind == "deploy"))
    return out


def test_insidious_ambushers_every_gsc_unit_has_it_and_cult_ambush_is_gone():
    a = build_army("A", GSC)
    assert all(any(n == "Insidious Ambushers" and e.deploy_last for n, e in u.standing) for u in a.units)
    assert not any("Cult Ambush" in n or "Insidious" in n for n in a.not_modelled)


@pytest.mark.parametrize("roster", [GSC, GDV])
def test_the_opponent_sets_up_its_entire_army_first(roster):
    # Insidious Ambushers / Auspex Ghosts: "your opponent must set up their entire army before
    # you set up any of your units"
    order = deployers(build_army("A", roster), build_army("B", ORKS))
    assert order[0] == "B" and order == sorted(order, reverse=True) and "A" in order
    order = deployers(build_army("A", ORKS), build_army("B", roster))
    assert order[0] == "A" and order == sorted(order) and "B" in order
    # "if both players have a rule which allows them to do this, both set up normally": alternating,
    # the Defender (B) first
    order = deployers(build_army("A", roster), build_army("B", GSC))
    assert order[:4] == ["B", "A", "B", "A"]


def ts_game(control: list[Any], psyker: bool = True) -> Game:
    g = Game(11, build_army("A", TSONS), build_army("B", ORKS), dice=Dice(5),
             rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    g.apply(parse("role attacker"))
    while g.decision.step == "deploy":
        g.apply(next(x for x in g.legal_actions() if x.kind == "deploy"))
    for u in g.army_units("A"):
        if "PSYKER" in u.keywords and not psyker:
            u.keywords = u.keywords - {"PSYKER"}
    g.control[:len(control)] = control
    return g


@pytest.mark.parametrize("control, psyker, roll, gains", [
    ([None, None], True, 1, "B"),  # Ascendence (0 against 0, a PSYKER unit): 1 + 1 = 2, the opponent gains 1CP
    ([None, None], True, 2, None),  # 3
    ([None, None], True, 5, "A"),  # 6+: the Thousand Sons gain 1CP
    (["B", None], True, 2, "B"),  # fewer markers controlled: no Ascendence, a 2
    (["B", None], True, 5, None),
    (["A", "B"], False, 5, None),  # as many markers, but no PSYKER unit: no Ascendence
    (["A", "B"], True, 6, "A"),
])
def test_twisting_fate_a_d6_each_time_cp_is_spent_on_a_stratagem(control, psyker, roll, gains):
    for spender in ("A", "B"):  # "each time you or your opponent spend one or more CP"
        g = ts_game(control, psyker)
        g.cp = {"A": 2, "B": 2}
        g.dice = Dice.scripted([roll])
        g.spend_cp(spender, 1, "Test Stratagem")
        g.dice.assert_consumed()
        after = {"A": 2 - (spender == "A"), "B": 2 - (spender == "B")}
        if gains:
            after[gains] += 1
        assert g.cp == after
        ev = [e for e in g.events if e["e"] == "rule_roll"][-1]
        assert (ev["player"], ev["rule"], ev["roll"]) == ("A", "Twisting Fate", roll)
    g = ts_game(control, psyker)
    g.dice = Dice.scripted([])
    g.spend_cp("B", 0, "Free Stratagem")  # no CP spent: no roll
    assert not any(e["e"] == "rule_roll" for e in g.events)


def test_data_check_finds_an_army_rule_keyword_no_datasheet_has(tmp_path):
    from bagm.data.packs import data_dirs
    from bagm.roster.packcheck import check_faction

    (tmp_path / "gk.yaml").write_text(
        "faction: Grey Knights\nabilities:\n"
        "  - {name: Rule One, keyword: GREY KNIGHTZ, effects: [{deploy_last: true}]}\n"
        "  - {name: Rule Two, keyword: grey knights, effects: [{deploy_last: true}]}\n", encoding="utf-8")
    problems = check_faction(Catalog(data_dirs([tmp_path])).faction("Grey Knights"))
    assert "ability table entry 'Rule One': no datasheet of Grey Knights has the keyword GREY KNIGHTZ" in problems
    assert not any("Rule Two" in p for p in problems)
    # muster: every unit with the keyword has the rule (any case), whatever its datasheet lists
    a = build_army("A", GK, Catalog(data_dirs([tmp_path])))
    assert all([n for n, e in u.standing if e.deploy_last] == ["Rule Two"] for u in a.units)


# --- Tyranids: Synapse ---------------------------------------------------------------------------


@pytest.mark.parametrize("gap, within", [(5.9, True), (6.0, True), (6.1, False)])
def test_synapse_melee_strength_and_3d6_battle_shock_within_6_inches_of_a_synapse_unit(gap, within):
    # "while a TYRANIDS unit from your army is within 6" of one or more friendly SYNAPSE models:
    # Battle-shock tests on 3D6; melee attacks +1 Strength"; Synaptic Web: Walls are ignored
    g = game()
    a3, a4 = give(g, "A3", "Tyranids", "Synapse"), g.units["A4"]
    a4.keywords = a4.keywords | {"SYNAPSE"}
    place(g, "A3", [(14.0, 15.0)])
    place(g, "A4", [(14.0, 15.0 + gap + a3.radius + a4.radius)])
    kept.touch(g)
    assert positions.min_straight(g, a3, a4) == pytest.approx(gap)
    holds = holds_in(g)
    assert effect_weapon(a3, BLADE, g.units["B3"], holds).strength == (5 if within else 4)
    assert effect_weapon(a3, GUN, g.units["B3"], holds).strength == 4  # melee attacks only
    assert shock_dice(g, a3) == (3 if within else 2)
    assert shock_dice(g, a4) == 2  # A4 has no Synapse ability


def test_synapse_a_synapse_unit_is_in_range_of_itself_and_walls_are_ignored():
    g = game()
    a3, a4 = give(g, "A3", "Tyranids", "Synapse"), g.units["A4"]
    place(g, "A3", [(1.0, 3.0)])
    place(g, "A4", [(1.0, 9.0)])  # a Wall between: 4.74" straight, 10.47" around it
    kept.touch(g)
    assert positions.min_straight(g, a3, a4) < 6 < positions.unit_distance(g, a3, a4)
    assert shock_dice(g, a3) == 2
    a4.keywords = a4.keywords | {"SYNAPSE"}
    assert shock_dice(g, a3) == 3  # measured in a straight line (Synaptic Web)
    a4.keywords = a4.keywords - {"SYNAPSE"}
    a3.keywords = a3.keywords | {"SYNAPSE"}
    assert shock_dice(g, a3) == 3


@pytest.mark.parametrize("synapse, dice, passed", [(True, [1, 1, 3], True), (False, [1, 4], False)])
def test_synapse_battle_shock_test_on_3d6_in_the_battle_shock_step(synapse, dice, passed):
    g = game()
    b3 = give(g, "B3", "Tyranids", "Synapse")
    if synapse:
        b3.keywords = b3.keywords | {"SYNAPSE"}
    b3.models = b3.models[:1]  # Below Half-strength: a test in B's Battle-shock step
    kept.touch(g, b3)
    need = b3.leadership()
    g.dice = Dice.scripted(dice[:-1] + [need - sum(dice[:-1]) - (0 if synapse else 1)])
    advance_to(g, "move", "B")
    test = [e for e in g.events if e["e"] == "battleshock_test"][-1]
    assert test["unit"] == "B3" and test["passed"] is passed and b3.battleshocked is not passed
    g.dice.assert_consumed()



# --- Drukhari, World Eaters: shocks after fighting, a CP for a CHARACTER ------------------------------


def test_torturers_craft_a_battle_shock_test_after_shooting_or_fighting_not_on_a_vehicle():
    # "after this unit has shot or fought, select one enemy unit (excluding VEHICLES) hit by one or
    # more of those attacks. That unit must take a Battle-shock test"
    for vehicle in (False, True):
        g = game()
        give(g, "A3", "Drukhari", "Torturer’s Craft")
        place(g, "A3", block(14))
        place(g, "B3", block(15.6, dx=1.4))
        b3 = g.units["B3"]
        if vehicle:
            b3.keywords = b3.keywords | {"VEHICLE"}
        kept.touch(g)
        g.dice = Dice(2)
        for _ in range(50):  # to A's Fight phase (A3 and B3 engaged): B fights first, then A3
            d = g.decision
            if d.step == "fight" and d.player == "A":
                break
            legal = g.legal_actions()
            g.apply(legal[0] if d.step == "fight" else next(a for a in legal if a.kind in ("pass", "done")))
        g.apply(parse("fight A3 B3"))
        while g.decision.step in ("reroll", "use"):
            g.apply(parse("pass"))
        hit = any(e["e"] == "attack" and e["unit"] == "A3" and e["hits"] for e in g.events)
        tests = [e for e in g.events if e["e"] == "battleshock_test" and e["unit"] == "B3"]
        assert hit and b3.alive and len(tests) == (0 if vehicle else 1)  # (the seeded dice: A3 hits, B3 stands)


@pytest.mark.parametrize("faction, name", [("Drukhari", "Bloody Spectacle"), ("World Eaters", "A Worthy Skull")])
def test_a_worthy_skull_rerolls_against_characters_and_1cp_per_character_model_destroyed(faction, name):
    g = game()
    a3, b3 = give(g, "A3", faction, name), g.units["B3"]
    c = effect_conditions(a3, b3, BLADE, Conditions())
    assert (c.reroll_hits, c.reroll_wounds) == (Reroll.none, Reroll.none)  # not a CHARACTER
    b3.keywords = b3.keywords | {"CHARACTER"}
    c = effect_conditions(a3, b3, BLADE, Conditions())
    assert (c.reroll_hits, c.reroll_wounds) == (Reroll.failed, Reroll.failed)
    c = effect_conditions(a3, b3, GUN, Conditions())
    assert (c.reroll_hits, c.reroll_wounds) == (Reroll.none, Reroll.none)  # melee attacks only
    # one attack: hit 1 re-rolled to 3; wound 2 re-rolled to 5 (S4 against T5); save 1: one model (W1) destroyed
    b3.models = b3.models[:2]
    for m in b3.models:
        m.wounds = 1
    kept.touch(g, b3)
    g.cp["A"] = 0
    g.dice = Dice.scripted([1, 3, 2, 5, 1])
    steps = shooting.attack(g, a3, b3, BLADE, 1, Conditions(), None, ranged=False)
    try:
        next(steps)
        while True:
            steps.send(parse("pass"))
    except StopIteration as stop:
        assert stop.value[1] == 1
    g.dice.assert_consumed()
    assert g.cp["A"] == 1 and [e["why"] for e in g.events if e["e"] == "cp"][-1] == name


# --- Drukhari: Power from Pain ---------------------------------------------------------------------

DRU = str(REPO / "rosters" / "drukhari_space_lane_raiders.yaml")


def dru_game(dice: list[int] | None = None) -> Game:
    """Drukhari (A, Uneasy Alliance of the Black Lanes) against Orks (B), deployed: the game goes
    on to A's first Command phase (its Command step played with ``dice``, scripted)."""
    g = Game(11, build_army("A", DRU), build_army("B", ORKS), dice=Dice.scripted(dice or []),
             rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    g.leaders["A"] = g.leaders["B"] = []
    g.apply(parse("role attacker"))
    while g.decision.step == "deploy":
        g.apply(next(x for x in g.legal_actions() if x.kind == "deploy"))
    while g.decision.step == "use" and g.decision.info.get("timing") == "round_start":
        g.apply(parse("pass"))  # the Orks' Void Waaagh!: not called
    return g


def pains(g: Game) -> list[tuple[str, int, int, str]]:
    return [(e["player"], e["gain"], e["pool"], e["why"]) for e in g.events if e["e"] == "pain"]


@pytest.mark.parametrize("adept_roll, adept", [(3, False), (4, True)])
def test_pain_tokens_at_the_start_of_the_battle_and_of_the_command_phase_and_pain_adept(adept_roll, adept):
    # Feast of Pain: 1 at the start of the battle; Power from Pain: 1 at the start of your Command
    # phase; Pain Adept (the Haemonculus): one D6 in your Command phase, 4+: 1 more
    g = dru_game([adept_roll])
    g.dice.assert_consumed()
    want = [("A", 1, 1, "Feast of Pain"), ("A", 1, 2, "Power from Pain")] + \
        ([("A", 1, 3, "Pain Adept")] if adept else [])
    assert pains(g) == want and g.pain == {"A": 3 if adept else 2, "B": 0}
    rolls = [e for e in g.events if e["e"] == "rule_roll"]
    assert [(e["rule"], e["roll"]) for e in rolls] == [("Pain Adept", adept_roll)]


def test_pain_tokens_when_an_enemy_unit_is_destroyed_or_fails_a_battle_shock_test():
    g = dru_game([6])
    before = g.pain["A"]
    b3 = g.units["B3"]
    b3.models = []
    shooting.check_destroyed(g, b3)  # "1 Pain token each time an enemy unit is destroyed"
    assert g.pain["A"] == before + 1
    a3 = g.army_units("A")[0]
    a3.models = []
    shooting.check_destroyed(g, a3)  # one of its own: none
    assert g.pain["A"] == before + 1 and g.pain["B"] == 0


def test_a_moment_with_a_pain_cost_spends_tokens_and_empowers_its_target():
    # Power from Pain: "you can spend 1 Pain token to Empower that unit ... until the end of the phase"
    from bagm.data.models import Moment
    from bagm.data.schema import validate
    from bagm.engine.rules.uses import use_of

    g = game()
    m = validate(Moment, {"when": "phase_start", "pain": 1, "once": "phase",
                          "effects": [{"charge_after_advance": True}]})
    assert m.pain == 1
    g.armies["A"].uses += (use_of(m, "Test Pain", "Enhancement", "A3"),)
    a3 = g.units["A3"]
    g.pain["A"] = 0
    assert moments.usable(g, "A", "phase_start", "A3") == []  # no Pain token
    g.pain["A"] = 2
    assert [a.text() for a in moments.usable(g, "A", "phase_start", "A3")] == ["use A3 Test Pain"]
    moments.use_rule(g, "A", parse("use A3 Test Pain"))
    assert g.pain["A"] == 1 and a3.empowered == g.phase_id and effect_has(a3, "charge_after_advance")
    assert pains(g)[-1] == ("A", -1, 1, "Test Pain")
    assert moments.usable(g, "A", "phase_start", "A3") == []  # once per phase
    assert holds_in(g)(a3, "empowered", None)  # only_while 'empowered': in this phase only
    advance_to(g, "move", "B")  # another phase
    assert not holds_in(g)(a3, "empowered", None)


@pytest.mark.parametrize("short, passed", [(0, True), (1, False)])
def test_a_moment_with_a_self_test_the_leadership_test_first(short, passed):
    # Dark Pacts' shape (its data waits on ability moments): "it must first take a Leadership test
    # ...; if that test is failed, that unit suffers D3 mortal wounds"; The Forsaken: failed, the
    # unit loses the ability until the end of the battle; the effects apply either way
    from bagm.data.models import Moment
    from bagm.data.schema import validate
    from bagm.engine.rules.uses import use_of

    g = game()
    m = validate(Moment, {"when": "phase_start", "once": "phase", "choice": "Lethal Hits",
                          "self_test": "leadership", "self_test_mortals": "D3", "self_test_forsake": True,
                          "effects": [{"weapon_abilities": [{"name": "lethal hits"}]}]})
    g.armies["A"].uses += (use_of(m, "Test Pact", "Enhancement", "A3"),)
    a3 = g.units["A3"]
    need = a3.leadership()  # the test: 2D6 against the unit's Leadership; exactly it passes
    g.dice = Dice.scripted([3, need - 3 - short] + ([] if passed else [1]))  # failed: a D3 of 1
    before = sum(m.wounds for m in a3.models)
    moments.use_rule(g, "A", parse("use A3 Test Pact: Lethal Hits"))
    g.dice.assert_consumed()
    test = [e for e in g.events if e["e"] == "leadership_test"][-1]
    assert (test["unit"], test["passed"], test["why"]) == ("A3", passed, "Test Pact")
    assert sum(m.wounds for m in a3.models) == before - (0 if passed else 1)
    assert effect_weapon(a3, GUN, g.units["B3"]).abilities.lethal_hits  # the effects either way
    assert moments.usable(g, "A", "phase_start", "A3") == []  # once a phase
    advance_to(g, "move", "B")  # another phase
    assert bool(moments.usable(g, "A", "phase_start", "A3")) is passed  # forsaken after a failed test


# --- Grey Knights ---------------------------------------------------------------------------------


@pytest.mark.parametrize("on, held, roll, back", [
    (False, "A", 4, 0), (False, "A", 5, 1),  # a 5+
    (True, "A", 3, 0), (True, "A", 4, 1),  # +1 within range of a marker its army controls: a 4 is a 5
    (True, None, 4, 0), (True, "B", 4, 0)])  # a marker no one, or the opponent, controls: no +1
def test_eye_of_the_prognosticars_a_5_plus_gives_1cp_back(on, held, roll, back):
    # Boarding Actions Mustering Rules, Grey Knights "Eye of the Prognosticars" (in place of the army
    # rule, Gate of Infinity): each time you target this unit with a Stratagem, roll one D6, +1 if it
    # is within range of an objective marker you control: on a 5+, you gain 1CP
    from bagm.engine.rules.stratagems import COMMAND_REROLL, use

    g = game(army_rule=True)
    u = g.units["A3"]
    assert "Gate of Infinity" in u.datasheet.abilities
    near_marker(g, "A3", on)
    g.control[0] = held
    g.cp["A"] = 1
    g.dice = Dice.scripted([roll])
    use(g, "A", COMMAND_REROLL, unit=u)
    g.dice.assert_consumed()
    assert g.cp["A"] == back
    ev = [e for e in g.events if e["e"] == "rule_roll"][-1]
    assert (ev["player"], ev["rule"], ev["roll"]) == ("A", "Gate of Infinity", roll)
    g.dice = Dice.scripted([])
    use(g, "B", COMMAND_REROLL, unit=g.units["B3"])  # the opponent's Stratagem on their unit: no roll


# --- Move and Leadership modifiers read with the game's conditions -----------------------------------


@pytest.mark.parametrize("on", [True, False])
def test_move_and_leadership_modifiers_honour_conditions_only_the_game_answers(on):
    # an effect's Move or Leadership modifier with a condition only the game can answer (within range of
    # an objective marker): the game reads Move (moves) and Leadership (tests) with its answer
    from bagm.data.models import Effect
    from bagm.data.schema import validate

    g = game()
    u = g.units["A3"]
    u.standing = u.standing + (("Test rule", validate(Effect, {"M_mod": 2, "Ld_mod": -1, "only_while": "near_objective"})),)
    kept.touch(g)
    near_marker(g, "A3", on)
    holds = holds_in(g)
    assert (u.move(holds), u.leadership(holds)) == ((u.M + 2, u.Ld - 1) if on else (u.M, u.Ld))
    assert (u.move(), u.leadership()) == (u.M, u.Ld)  # without the game: such a condition does not hold
