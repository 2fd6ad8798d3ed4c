"""Datasheet abilities in the engine: the ability tables (bagm/data/core.yaml, a faction pack's
``abilities:``) turn a datasheet's ability names into standing effects at muster, and each
modelled core ability plays as its rule says (scripted dice, every roll consumed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, block, place

from bagm.chance.dice import Dice, DiceExpr
from bagm.data.packs import Catalog, data_dirs
from bagm.data.weapons import Abilities, WeaponProfile
from bagm.engine.attack.rules import Conditions
from bagm.engine.game import charge, fight, kept, positions, shooting, sight
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.effects import effect_conditions, effect_defence, effect_has, effect_least
from bagm.engine.state.actions import Action, parse
from bagm.engine.state.army import IMPLEMENTED_ABILITIES
from bagm.errors import BagmError

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B2 1", "deploy A5 1"]
GUN = WeaponProfile("Test gun", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1), range=24)
BLADE = WeaponProfile("Test blade", True, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1))


def overlay(tmp_path: Path, abilities: str, extra: str = "") -> Catalog:
    """The Grey Knights' Strike Squad with the datasheet abilities ``abilities`` (YAML flow)."""
    text = f"faction: Grey Knights\nunits:\n  - name: Strike Squad\n    abilities: {abilities}\n{extra}"
    (tmp_path / "gk.yaml").write_text(text, encoding="utf-8")
    return Catalog(data_dirs([tmp_path]))


def game(tmp_path: Path, abilities: str, extra: str = "") -> Game:
    a = build_army("A", GK, overlay(tmp_path, abilities, extra))
    g = Game(11, a, build_army("B", ORKS), dice=Dice.scripted([]), rolloffs={"attacker": "A", "first_turn": "A"})
    for t in DEPLOY:
        g.apply(parse(t))
    while g.decision.step == "use" and g.decision.info.get("timing") == "round_start":
        g.apply(parse("pass"))  # the Orks' Void Waaagh!: not called
    return g


def own(u) -> list:
    """The unit's standing effects from its datasheet's abilities (not its army's Detachment rule)."""
    return [(n, e) for n, e in u.standing if n in u.datasheet.abilities]


def attack(g: Game, u: str, t: str, w: WeaponProfile, dice: list[int]) -> tuple[int, int]:
    """``u`` attacks ``t`` with one model's ``w``, Command Re-rolls declined; every die used."""
    g.dice = Dice.scripted(dice)
    steps = shooting.attack(g, g.units[u], g.units[t], w, 1, Conditions(), None, ranged=not w.melee)
    try:
        next(steps)
        while True:  # a Command Re-roll offer: declined
            steps.send(Action("pass"))
    except StopIteration as stop:
        g.dice.assert_consumed()
        return stop.value


# --- the tables ----------------------------------------------------------------------------------


def test_the_core_table_names_the_abilities_the_engine_plays_in_its_own_code():
    core = Catalog().core()
    assert {e.name.lower() for e in core.abilities if e.engine} == IMPLEMENTED_ABILITIES


@pytest.mark.parametrize("name, field, value", [
    ("Feel No Pain 5+", "fnp", 5), ("feel no pain 6+", "fnp", 6),
    ("Deadly Demise 1", "deadly_demise", 1), ("Deadly Demise D3", "deadly_demise", "D3"),
    ("Deadly Demise D6+1", "deadly_demise", "D6+1"),
])
def test_a_number_in_the_name_goes_into_the_entrys_field(name, field, value):
    found = Catalog().abilities("Orks").find(name)
    assert found is not None and found.modelled
    assert [getattr(e, field) for e in found.effects] == [value]
    # the table's own effect is left as it was: each name gets its own copy
    assert found.entry.effects[0] is not found.effects[0] or value is None


@pytest.mark.parametrize("name", ["Feel No Pain", "Feel No Pain 5", "Feel No Pain X+", "Stealthy", "Deadly Demise"])
def test_names_without_the_number_or_with_more_do_not_match(name):
    assert Catalog().abilities("Orks").find(name) is None


def test_scouts_are_removed_and_never_listed(tmp_path):
    # Boarding Actions "Scouts Ability": all units lose the Scouts ability
    a = build_army("A", GK, overlay(tmp_path, '[Scouts 6", Scouts]'))
    strike = next(u for u in a.units if u.name.startswith("Strike Squad"))
    assert not own(strike) and not any("Scouts" in n for n in a.not_modelled)


def test_an_ability_the_adaptation_removes_plays_no_part(tmp_path):
    # a datasheet's Boarding Actions adaptation ("loses"): the ability is gone, Deep Strike too
    a = build_army("A", GK, overlay(tmp_path, "[Deep Strike, Stealth, Hammerhand]",
                                    "    adaptation: {loses: [Deep Strike, Stealth, Hammerhand]}\n"))
    strike = next(u for u in a.units if u.name.startswith("Strike Squad"))
    assert not strike.deep_strike and not own(strike)
    assert not any("Hammerhand" in n for n in a.not_modelled)


def test_unknown_abilities_are_listed_modelled_ones_are_not(tmp_path):
    a = build_army("A", GK, overlay(tmp_path, "[Stealth, Feel No Pain 5+, Teleport Shunt]"))
    strike = [u for u in a.units if u.name.startswith("Strike Squad")]
    assert all([n for n, _ in own(u)] == ["Stealth", "Feel No Pain 5+"] for u in strike)
    assert "Strike Squad: ability 'Teleport Shunt' is not implemented" in a.not_modelled
    assert not any("Stealth" in n or "Feel No Pain" in n for n in a.not_modelled)


def test_a_faction_table_entry_comes_before_the_core_one_and_can_name_its_units(tmp_path):
    extra = ("abilities:\n"
             "  - {name: Teleport Shunt, effects: [{M_mod: 2}], units: [Strike Squad]}\n"
             "  - {name: Stealth, effects: [{cover: true}]}\n")
    a = build_army("A", GK, overlay(tmp_path, "[Stealth, Teleport Shunt]", extra))
    strike = next(u for u in a.units if u.name.startswith("Strike Squad"))
    assert [(n, e.cover, e.M_mod) for n, e in own(strike)] == [("Stealth", True, 0), ("Teleport Shunt", False, 2)]
    table = Catalog(data_dirs([tmp_path])).abilities("Grey Knights")
    assert table.find("Teleport Shunt", "Purifier Squad") is None  # only on the units it names


@pytest.mark.parametrize("entry, message", [
    ("{name: Feel No Pain X+, x: fnp, engine: true}", "not effects/x and engine"),
    ("{name: Stubborn, x: fnp}", "needs an X in the name"),
    ("{name: Tough X, x: toughness}", "'toughness' is not an effect field"),
    ("{name: Tough X, effects: [{fnp: 5}]}", "say which effect field"),
    ("{name: Tough, effects: [{fnp: five}]}", "abilities > 'Tough' > effects"),
])
def test_a_bad_table_entry_is_a_clear_error(tmp_path, entry, message):
    with pytest.raises(BagmError) as e:
        build_army("A", GK, overlay(tmp_path, "[Stealth]", f"abilities:\n  - {entry}\n"))
    # the overlay's file and the line of the entry at fault
    assert message in str(e.value) and str(e.value).startswith(f"{tmp_path / 'gk.yaml'}:6: invalid data pack")


@pytest.mark.parametrize("card, where, message", [
    ("{name: Bad, cp: 1, category: Battle Tactic, when: start_of_phase}", ":8:", "stratagems > 'Bad' > when: Input should be 'phase_start'"),
    ("{name: Bad, cp: 5, category: Battle Tactic, when: targeted}", ":8:", "cp must be 0 to 3, not 5"),
    ("{name: Bad, cp: 1, category: Gambit, when: targeted}", ":8:", "category: Input should be 'Battle Tactic'"),
    ("{name: Bad, cp: 1, category: Battle Tactic, when: targeted, effects: [{hitmod: 1}]}", ":8:", "effects > [0] > hitmod: unknown key"),
    ("{cp: 1, category: Battle Tactic, when: targeted}", ":8:", "stratagems > [0] > name: Field required"),
])
def test_a_bad_detachment_stratagem_is_a_clear_error_with_file_and_line(tmp_path, card, where, message):
    # Detachment Stratagems are data a user supplies: a bad entry names the file, the line and
    # what is wrong, and the command exits with 2
    from typer.testing import CliRunner

    from bagm.cli.app import app

    extra = f"detachments:\n  - name: Void Purge Force\n    stratagems:\n      - {card}\n"
    overlay(tmp_path, "[Stealth]", extra)
    res = CliRunner().invoke(app, ["validate", GK, "--data", str(tmp_path)])
    assert res.exit_code == 2
    assert f"{tmp_path / 'gk.yaml'}{where} invalid data pack: detachments > 'Void Purge Force' > " in res.output
    assert message in res.output


def test_an_error_under_a_later_overlay_names_the_file_that_holds_it(tmp_path):
    # two overlays: the first gives the bad value, the second names the same unit but not that
    # field; the error names the first file and its line
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    (first / "gk.yaml").write_text("faction: Grey Knights\nunits:\n  - name: Strike Squad\n"
                                   "    sizes: [five]\n", encoding="utf-8")
    (second / "gk.yaml").write_text("faction: Grey Knights\nunits:\n  - name: Strike Squad\n"
                                    "    abilities: [Stealth]\n", encoding="utf-8")
    with pytest.raises(BagmError) as e:
        Catalog(data_dirs([first, second])).faction("Grey Knights")
    assert str(e.value).startswith(f"{first / 'gk.yaml'}:4: invalid data pack: units > 'Strike Squad' > sizes")



def test_an_error_in_a_list_an_overlay_replaced_names_the_overlay_not_the_pack(tmp_path):
    # the overlay replaces Battle Focus's manoeuvres; its unnamed one lacks a name: the error is
    # the overlay's line, not the bundled pack's first manoeuvre (found by place, it once was)
    (tmp_path / "aeldari.yaml").write_text(
        "faction: Aeldari\nabilities:\n  - name: Battle Focus\n    tokens: 2\n    manoeuvres:\n"
        "      - when: selected_to_move\n        effects: [{M_mod: 2}]\n", encoding="utf-8")
    with pytest.raises(BagmError) as e:
        Catalog(data_dirs([tmp_path])).faction("Aeldari")
    assert str(e.value).startswith(f"{tmp_path / 'aeldari.yaml'}:6: invalid data pack: abilities > "
                                   "'Battle Focus' > manoeuvres > [0] > name: Field required")

# --- each ability as its rule says -------------------------------------------------------------


def test_feel_no_pain(tmp_path):
    # Core Rules "Feel No Pain x+": each time a model would lose a wound, roll one D6: on x or
    # more that wound is not lost
    g = game(tmp_path, "[Feel No Pain 5+]")
    assert effect_defence(g.units["A3"]) == (None, 5)
    # hit 3, wound 4, save 1 (fails), Feel No Pain 5: not lost
    assert attack(g, "B3", "A3", GUN, [3, 4, 1, 5]) == (0, 0)
    # the same with a Feel No Pain roll of 4: lost
    assert attack(g, "B3", "A3", GUN, [3, 4, 1, 4]) == (1, 0)
    # a unit without it rolls none
    assert attack(g, "B3", "A5", GUN, [3, 4, 1]) == (1, 0)


def test_stealth(tmp_path):
    # Core Rules "Stealth": each time a ranged attack is made against it, subtract 1 from that
    # attack's Hit roll
    g = game(tmp_path, "[Stealth]")
    a3, b3 = g.units["A3"], g.units["B3"]
    assert effect_conditions(b3, a3, GUN, Conditions()).hit_mod == -1
    assert effect_conditions(b3, a3, BLADE, Conditions()).hit_mod == 0  # melee: untouched
    assert attack(g, "B3", "A3", GUN, [3]) == (0, 0)  # a 3 on a 3+ misses at -1
    assert attack(g, "B3", "A3", GUN, [4, 4, 1]) == (1, 0)  # a 4 still hits
    assert attack(g, "B3", "A3", BLADE, [3, 4, 1])[0] == 1  # in melee a 3 hits


def test_lone_operative(tmp_path):
    # Core Rules "Lone Operative": can only be selected as the target of a ranged attack if the
    # attacking model is within 12" (never part of an Attached unit: Boarding Actions "Leaders")
    g = game(tmp_path, "[Lone Operative]")
    a3, a5, b3 = g.units["A3"], g.units["A5"], g.units["B3"]
    b3.ranged = [GUN]  # 24" range
    assert effect_least(a3, "ranged_within") == 12
    mk = g.map.layout.markers[0]  # the open deck around (22, 15)
    for target in (a3, a5):
        place(g, target.uid, [(mk.x, mk.y)])
        for dx, gap in ((12.5, 11.24), (14.0, 12.74)):
            place(g, "B3", [(mk.x + dx, mk.y)])
            assert abs(positions.min_straight(g, b3, target) - gap) < 0.01 and sight.visible_idx(g, b3, target)
            shoots = bool(shooting.weapons_in_range(g, b3, target))
            assert shoots == (target is a5 or gap <= 12), (target.uid, gap)
        place(g, target.uid, [(mk.x - 10, mk.y - 6)] if target is a3 else [(mk.x - 12, mk.y - 6)])


def test_fights_first(tmp_path):
    # Core Rules "Fights First": a unit with it that is eligible to fight does so in the Fights
    # First step, though it did not charge
    g = game(tmp_path, "[Fights First]")
    assert effect_has(g.units["A3"], "fights_first") and not effect_has(g.units["A5"], "fights_first")
    assert fight.fights_first(g.units["A3"]) and not fight.fights_first(g.units["A5"])


def deadly_setup(tmp_path: Path, x: str) -> Game:
    """A3 (5 Strike Squad models, Deadly Demise ``x``) in the open, B3 2" from it, every other
    unit far away."""
    g = game(tmp_path, f"[Deadly Demise {x}]")
    mk = g.map.layout.markers[0]
    place(g, "A3", block(mk.x - 2, mk.y))
    place(g, "B3", [(mk.x + 2, mk.y)])
    far = [u for p in "AB" for u in g.army_units(p) if u.uid not in ("A3", "B3")]
    for u in far:
        u.where = "reserves"  # out of the way: no unit but A3 and B3 stands near
    kept.touch(g, *far)
    return g


def test_deadly_demise_on_a_6(tmp_path):
    # Core Rules "Deadly Demise x": when such a model is destroyed, roll one D6; on a 6 each unit
    # within 6" of that model suffers x mortal wounds
    g = deadly_setup(tmp_path, "1")
    a3, b3 = g.units["A3"], g.units["B3"]
    b_before, a_before = sum(m.wounds for m in b3.models), len(a3.models)
    # B3's gun: hit 3, wound 4, save 1, 1 damage destroys a W2 model? Strike Squad models have W2:
    # two shots' worth, so use D 2 here
    gun = WeaponProfile("Test gun", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 2), range=24)
    assert attack(g, "B3", "A3", gun, [3, 4, 1, 6]) == (2, 1)
    ev = [e for e in g.events if e["e"] == "deadly_demise"]
    assert ev == [{"e": "deadly_demise", "unit": "A3", "roll": 6, "units": ["A3", "B3"]}]
    # 1 mortal wound each: on B3 and on A3's own models
    assert sum(m.wounds for m in b3.models) == b_before - 1
    assert sum(m.wounds for m in a3.models) == (a_before - 1) * a3.W - 1


def test_deadly_demise_below_6_does_nothing(tmp_path):
    g = deadly_setup(tmp_path, "1")
    b3 = g.units["B3"]
    before = sum(m.wounds for m in b3.models)
    gun = WeaponProfile("Test gun", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 2), range=24)
    assert attack(g, "B3", "A3", gun, [3, 4, 1, 5]) == (2, 1)
    assert [e["units"] for e in g.events if e["e"] == "deadly_demise"] == [[]]
    assert sum(m.wounds for m in b3.models) == before


def test_deadly_demise_dice_are_rolled_for_each_unit_and_range_is_6_inches(tmp_path):
    # "if this is a random number, roll separately for each unit within 6""
    g = deadly_setup(tmp_path, "D3")
    a3, b3 = g.units["A3"], g.units["B3"]
    mk = g.map.layout.markers[0]
    place(g, "B3", [(mk.x + 7.5, mk.y)])  # a model of A3 at mk.x - 2 + ...: B3 over 6" away
    gun = WeaponProfile("Test gun", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 2), range=24)
    victim = a3.models[0]
    gap = min(g.bf.distance(victim.base, n.base) for n in b3.models)
    assert gap > 6  # the first model takes the wound: it is the one that is destroyed
    b_before = sum(m.wounds for m in b3.models)
    a_before = sum(m.wounds for m in a3.models)
    # D3 for A3 only (B3 out of range): a 2 -> 2 mortal wounds on A3, which destroy another of
    # its models: that one's Deadly Demise is rolled too (a 1: nothing)
    assert attack(g, "B3", "A3", gun, [3, 4, 1, 6, 2, 1]) == (2, 1)
    assert [e["units"] for e in g.events if e["e"] == "deadly_demise"] == [["A3"], []]
    assert sum(m.wounds for m in b3.models) == b_before
    assert sum(m.wounds for m in a3.models) == a_before - 2 - 2


# --- faction abilities (the packs' own tables), each as its datasheet says ----------------------

DEVASTATING = WeaponProfile("Test rifle", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1), range=24,
                            abilities=GUN.abilities.plus(Abilities(devastating_wounds=True)))


def give(g: Game, uid: str, faction: str, name: str, unit: str = "") -> None:
    """Unit ``uid`` has faction ``faction``'s ability ``name`` (its table entry's effects, as
    datasheet ``unit`` has it)."""
    found = Catalog().abilities(faction).find(name, unit)
    assert found is not None and found.modelled and found.effects, name
    g.units[uid].standing = tuple((name, e) for e in found.effects)


def shrink(g: Game, uid: str, n: int) -> None:
    """Unit ``uid`` keeps ``n`` of its models (where they stand)."""
    u = g.units[uid]
    place(g, uid, [(m.x, m.y) for m in u.models[:n]])


def test_penumbral_puppetry(tmp_path):
    # Legiones Daemonica "Penumbral Puppetry": each time an attack targets this unit, -1 to the Hit roll
    g = game(tmp_path, "[]")
    give(g, "A3", "Legiones Daemonica", "Penumbral Puppetry")
    assert attack(g, "B3", "A3", GUN, [3]) == (0, 0)
    assert attack(g, "B3", "A3", BLADE, [3]) == (0, 0)
    assert attack(g, "B3", "A3", BLADE, [4, 4, 1]) == (1, 0)


def test_deft_parry(tmp_path):
    # Adeptus Custodes, Vigilators "Deft Parry": each time a melee attack targets this unit, -1 to hit
    g = game(tmp_path, "[]")
    give(g, "A3", "Adeptus Custodes", "Deft Parry")
    assert attack(g, "B3", "A3", BLADE, [3]) == (0, 0)
    assert attack(g, "B3", "A3", GUN, [3, 4, 1]) == (1, 0)


def test_daughter_of_the_abyss(tmp_path):
    # Adeptus Custodes "Daughter of the Abyss": Feel No Pain 3+ against Psychic Attacks and mortal wounds
    g = game(tmp_path, "[]")
    give(g, "A3", "Adeptus Custodes", "Daughter of the Abyss")
    # Devastating Wounds: hit 4, wound 6 (a mortal wound); Feel No Pain 3 ignores it, 2 does not
    assert attack(g, "B3", "A3", DEVASTATING, [4, 6, 3]) == (0, 0)
    assert attack(g, "B3", "A3", DEVASTATING, [4, 6, 2]) == (1, 0)
    # a normal wound, no Psychic Attack: no Feel No Pain roll
    assert attack(g, "B3", "A5", GUN, [4, 4, 1]) == (1, 0)
    assert attack(g, "B3", "A3", GUN, [4, 4, 1]) == (1, 1)


def test_cegorachs_favour(tmp_path):
    # Aeldari, Troupe Master "Cegorach's Favour": each melee attack re-rolls a Hit roll of 1 and
    # adds 1 to the Wound roll (S4 against the Nobz' T5: 5+, here 4+)
    g = game(tmp_path, "[]")
    give(g, "A3", "Aeldari", "Cegorach’s Favour:")
    assert attack(g, "A3", "B3", BLADE, [1, 3, 4, 1]) == (1, 0)
    assert attack(g, "A3", "B3", GUN, [1]) == (0, 0)  # ranged: no re-roll


def test_merciless_judgement(tmp_path):
    # Agents of the Imperium, Vigilant Squad "Merciless Judgement": +1 to the Wound roll of ranged
    # attacks that target a unit Below Half-strength
    g = game(tmp_path, "[]")
    give(g, "A3", "Agents of the Imperium", "Merciless Judgement")
    assert attack(g, "A3", "B3", GUN, [3, 4]) == (0, 0)  # the Nobz at full strength: 4 fails on 5+
    shrink(g, "B3", 2)
    assert attack(g, "A3", "B3", GUN, [3, 4, 1]) == (1, 0)
    assert attack(g, "A3", "B3", BLADE, [3, 4]) == (0, 0)  # melee: no bonus


def test_silent_executioner(tmp_path):
    # Drukhari, Drazhar "Silent Executioner": re-roll the Hit roll against a unit below its Starting
    # Strength; against one Below Half-strength, the Wound roll as well
    g = game(tmp_path, "[]")
    give(g, "A3", "Drukhari", "Silent Executioner")
    assert attack(g, "A3", "B3", GUN, [2]) == (0, 0)
    shrink(g, "B3", 4)
    assert attack(g, "A3", "B3", GUN, [2, 3, 4]) == (0, 0)  # the hit re-rolled, the wound not
    shrink(g, "B3", 2)
    assert attack(g, "A3", "B3", GUN, [2, 3, 4, 5, 1]) == (1, 0)


def test_pan_spectral_scanning_and_multi_spectral_visor(tmp_path):
    # Leagues of Votann "Pan-spectral Scanning": ranged attacks re-roll a Hit roll of 1;
    # "Multi-spectral visor": ranged attacks re-roll a Wound roll of 1
    g = game(tmp_path, "[]")
    give(g, "A3", "Leagues of Votann", "Pan-spectral Scanning")
    assert attack(g, "A3", "B3", GUN, [1, 3, 5, 1]) == (1, 0)
    assert attack(g, "A3", "B3", BLADE, [1]) == (0, 0)
    give(g, "A3", "Leagues of Votann", "Multi-spectral visor")
    assert attack(g, "A3", "B3", GUN, [3, 1, 5, 1]) == (1, 1)
    assert attack(g, "A3", "B4", BLADE, [3, 1]) == (0, 0)


def test_empyric_guidance_and_alpha_warrior(tmp_path):
    # Thousand Sons "Empyric Guidance": weapons have [LETHAL HITS] (a Critical Hit wounds at once);
    # Tyranids "Alpha Warrior": weapons have [SUSTAINED HITS 1] (a Critical Hit scores one more hit)
    g = game(tmp_path, "[]")
    give(g, "A3", "Thousand Sons", "Empyric Guidance (Psychic)")
    assert attack(g, "A3", "B3", GUN, [6, 1]) == (1, 0)
    give(g, "A3", "Tyranids", "Alpha Warrior")
    assert attack(g, "A3", "B4", GUN, [6, 5, 5, 1, 1]) == (2, 1)


@pytest.mark.parametrize("faction, name", [("Tyranids", "Bounding Leap"), ("Adeptus Astartes", "Berserk Charge"),
                                           ("World Eaters", "To Slake Its Rage")])
def test_charge_after_advancing(tmp_path, faction, name):
    # "eligible to declare a charge in a turn in which it Advanced"
    g = game(tmp_path, "[]")
    give(g, "A3", faction, name)
    for uid in ("A3", "A5"):
        g.units[uid].moved = "advance"
    assert charge.charge_reason(g, g.units["A3"]) is None
    assert charge.charge_reason(g, g.units["A5"]) == "it Advanced or Fell Back this turn"
    g.units["A3"].moved = "fallback"
    assert charge.charge_reason(g, g.units["A3"]) == "it Advanced or Fell Back this turn"


def test_led_by_abilities_and_attaching_leaders_play_no_part():
    # Boarding Actions "Leaders": Leaders never attach, and Led-by abilities ("while ... is leading
    # this unit") have no effect, even through Battlefield Command; "Mustering your Boarding
    # Patrol": units only as the Detachment allows (Assigned Agents: the Mustering Rules replace it)
    orks = build_army("B", ORKS)
    nobz = next(u for u in orks.units if u.datasheet.name == "Nobz")
    assert "Da Boss’ Ladz" in nobz.datasheet.abilities and not own(nobz)
    assert not any("Da Boss" in n for n in orks.not_modelled)
    cat = Catalog()
    for f in cat.all():
        for e in f.pack.abilities:
            if e.removed:  # the book's section, or the Mustering Rules' army rule, that removes it
                assert e.section and e.section.startswith(("Boarding Actions: ",
                                                           "Boarding Actions Mustering Rules: ")), e.name
    # an entry limited to some datasheets leaves the same name elsewhere alone: the Votann "Unit
    # Composition" (its E-COGs are destroyed with the Iron-master) is not the Guard's
    table = cat.abilities("Astra Militarum")
    assert table.find("Unit Composition", "Cadian Shock Troops").entry.removed
    assert cat.abilities("Leagues of Votann").find("Unit Composition", "Grimnyr") is None


def test_duellists_hubris(tmp_path):
    # Emperor's Children, Lucius "Duellist's Hubris": at the start of the Fight phase, if this model
    # is not leading a unit, it has Fights First until the end of the phase; in Boarding Actions it
    # never leads a unit ("Leaders"), so it always fights first
    g = game(tmp_path, "[]")
    give(g, "A3", "Emperor's Children", "Duellist’s Hubris")
    assert fight.fights_first(g.units["A3"]) and not fight.fights_first(g.units["A5"])


def test_data_check_finds_an_entry_no_datasheet_lists(tmp_path):
    # a misspelt table entry would leave the ability unmodelled without a word: `bagm data check`
    from bagm.roster.packcheck import check_faction

    overlay(tmp_path, "[Stealth]", "abilities:\n  - {name: Stealht, effects: [{cover: true}]}\n"
                                   "  - {name: Stealth, effects: [{cover: true}], units: [Strike Squadd]}\n")
    problems = check_faction(Catalog(data_dirs([tmp_path])).faction("Grey Knights"))
    assert "ability table entry 'Stealht': no datasheet of Grey Knights lists it" in problems
    assert "ability table entry 'Stealth': unit 'Strike Squadd' is not a datasheet of Grey Knights" in problems


def test_an_overlay_changes_one_table_entry_and_keeps_the_others(tmp_path):
    # an overlay's ability entries merge by name, like its units and Detachments
    (tmp_path / "tyr.yaml").write_text("faction: Tyranids\nabilities:\n"
                                       "  - {name: Bounding Leap, effects: [{M_mod: 1}]}\n", encoding="utf-8")
    table = Catalog(data_dirs([tmp_path])).abilities("Tyranids")
    assert [e.M_mod for e in table.find("Bounding Leap").effects] == [1]
    assert table.find("Alpha Warrior") is not None and table.find("Alpha Warrior").modelled


def test_gloam_rot(tmp_path):
    # Legiones Daemonica (Nurgle) "Gloam Rot": each time an attack targets this unit, if its
    # Strength is greater than this unit's Toughness, subtract 1 from the Wound roll
    g = game(tmp_path, "[]")
    give(g, "A3", "Legiones Daemonica", "Gloam Rot")
    strong = WeaponProfile("Test gun S5", False, DiceExpr(0, 6, 1), 3, 5, 0, DiceExpr(0, 6, 1), range=24)
    assert attack(g, "B3", "A3", strong, [3, 3]) == (0, 0)  # S5 against T4: 3+, at -1 a 3 fails
    assert attack(g, "B3", "A3", strong, [3, 4, 1]) == (1, 0)
    assert attack(g, "B3", "A3", GUN, [3, 4, 1]) == (1, 1)  # S4 against T4: no change, a 4 wounds


def test_murderers_cowl(tmp_path):
    # Legiones Daemonica (Khorne) "Murderer's Cowl": eligible to shoot and declare a charge in a
    # turn in which it Advanced
    g = game(tmp_path, "[]")
    give(g, "A3", "Legiones Daemonica", "Murderer's Cowl")
    for uid in ("A3", "A5"):
        g.units[uid].moved = "advance"
    assert shooting.shoot_reason(g, g.units["A3"]) is None and charge.charge_reason(g, g.units["A3"]) is None
    assert shooting.shoot_reason(g, g.units["A5"]) and charge.charge_reason(g, g.units["A5"])


def near_marker(g: Game, uid: str, on: bool) -> None:
    """Unit ``uid`` as one model on objective marker 1 (``on``) or 6" from it."""
    mk = g.map.layout.markers[0]
    place(g, uid, [(mk.x, mk.y) if on else (mk.x + 6, mk.y)])
    assert bool(g.units[uid].models) and (
        any(g.bf.in_objective_range(m.base, mk) for m in g.units[uid].models) == on)


@pytest.mark.parametrize("faction, name", [
    ("Astra Militarum", "Storm Troopers"), ("Agents of the Imperium", "Breaching Team"),
    ("Necrons", "Implacable Eradication"), ("Grey Knights", "Sanctity of Purpose")])
def test_wound_rerolls_of_one_and_all_against_a_unit_on_an_objective(tmp_path, faction, name):
    # "each time a model in this unit makes an attack, re-roll a Wound roll of 1; if the target is
    # within range of an objective marker, you can re-roll the Wound roll instead"
    g = game(tmp_path, "[]")
    give(g, "A3", faction, name)
    near_marker(g, "B3", False)  # the Nobz (T5: S4 wounds on 5+)
    assert attack(g, "A3", "B3", GUN, [3, 1, 5, 1]) == (1, 0)  # a 1 re-rolled
    assert attack(g, "A3", "B3", GUN, [3, 2]) == (0, 0)  # a 2 is not
    near_marker(g, "B3", True)
    assert attack(g, "A3", "B3", GUN, [3, 2, 5, 1]) == (1, 1)  # on the marker: any failed roll


def test_veterans_of_the_long_war_and_breach_and_clear(tmp_path):
    # Heretic Astartes "Veterans of the Long War": melee attacks only; T'au "Breach and Clear":
    # ranged attacks against a unit within range of an objective marker re-roll the Wound roll
    g = game(tmp_path, "[]")
    give(g, "A3", "Heretic Astartes", "Veterans of the Long War")
    near_marker(g, "B3", True)
    assert attack(g, "A3", "B3", BLADE, [3, 2, 5, 1]) == (1, 0)
    assert attack(g, "A3", "B3", GUN, [3, 1]) == (0, 0)  # ranged: nothing
    give(g, "A3", "T'au Empire", "Breach and Clear")
    assert attack(g, "A3", "B3", GUN, [3, 2, 5, 1]) == (1, 1)
    near_marker(g, "B4", False)
    assert attack(g, "A3", "B4", GUN, [3, 1]) == (0, 0)  # off the marker: no re-roll at all


def test_tranceweaver_and_vanguard_predator(tmp_path):
    # Legiones Daemonica "Tranceweaver": re-roll a Hit roll of 1; against a unit within range of an
    # objective marker, the Hit roll. Tyranids "Vanguard Predator": re-roll a Hit roll of 1; against
    # a unit within range of an objective marker, a Wound roll of 1 as well
    g = game(tmp_path, "[]")
    give(g, "A3", "Legiones Daemonica", "Tranceweaver", "Tranceweaver")
    near_marker(g, "B3", False)
    assert attack(g, "A3", "B3", GUN, [1, 3, 5, 1]) == (1, 0)
    assert attack(g, "A3", "B3", GUN, [2]) == (0, 0)
    near_marker(g, "B3", True)
    assert attack(g, "A3", "B3", GUN, [2, 3, 5, 1]) == (1, 1)
    for faction in ("Tyranids", "Great Devourer"):
        give(g, "A3", faction, "Vanguard Predator")
        near_marker(g, "B4", False)
        assert attack(g, "A3", "B4", GUN, [1, 3, 1]) == (0, 0)  # the Wound roll of 1 stands
        near_marker(g, "B4", True)
        assert attack(g, "A3", "B4", GUN, [1, 3, 1, 5, 1]) == (1, 0)
        g.units["B4"].models[0].wounds = 2
