"""Detachment rules in play (Boarding Actions "Detachment Rules"; issue 13 s4): each rule the
packs encode (``rule_effects``) changes the game where the rule says, shown with scripted dice
or the game's state. Armies are the bundled rosters, or a small roster written here."""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from conftest import REPO, advance_to, block, declined, place
from pydantic import TypeAdapter

from bagm.chance.dice import Dice, DiceExpr
from bagm.data.models import Effect
from bagm.data.packs import Catalog
from bagm.data.weapons import WeaponProfile
from bagm.engine.attack.odds import steps
from bagm.engine.attack.rules import AttackProfile, Conditions, Outcome, Target
from bagm.engine.bots import make_bot
from bagm.engine.game import (
    charge,
    control,
    hatchways,
    kept,
    moments,
    movement,
    positions,
    reinforcements,
    shooting,
    sight,
)
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules.effects import effect_conditions, effect_defence, effect_least, effect_weapon, holds_in
from bagm.engine.state.actions import Action, parse
from bagm.engine.state.army import Army, Unit

ROSTERS = REPO / "rosters"
BLADE = WeaponProfile("Test blade", True, DiceExpr(0, 6, 2), 3, 4, 0, DiceExpr(0, 6, 1))
GUN = WeaponProfile("Test gun", False, DiceExpr(0, 6, 2), 3, 4, 0, DiceExpr(0, 6, 1), range=24)
SHOT = WeaponProfile("Test shot", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1), range=24)
PRE_BATTLE = ("roles", "deploy", "opening")  # opening: Enhancements' moves before the first turn


@cache
def _bundled(name: str, player: str) -> Army:
    return build_army(player, str(ROSTERS / f"{name}.yaml"))


@cache
def _catalog() -> Catalog:
    return Catalog()


def army(name: str, player: str = "A") -> Army:
    return copy.deepcopy(_bundled(name, player))


def roster(tmp_path: Path, faction: str, detachment: str, *units: str, player: str = "A") -> Army:
    """An army of ``units`` (roster lines such as 'unit: Hormagaunts', the smallest legal size
    unless 'models: N' is given); the first CHARACTER, or the first unit, is the Warlord."""
    lines = [f"name: Test\nfaction: {faction}\ndetachment: {detachment}\nunits:"]
    sheets = {u.name: u for u in _catalog().faction(faction).pack.units}
    names = [u.split(",")[0].split(":", 1)[1].strip() for u in units]
    chars = [i for i, n in enumerate(names) if "CHARACTER" in sheets[n].keywords]
    warlord = chars[0] if chars else 0
    for i, u in enumerate(units):
        if "models:" not in u:
            ds = sheets[names[i]]
            u += f", models: {min(ds.sizes or ds.points)}"
        lines.append(f"  - {{{u}{', warlord: true' if i == warlord else ''}}}")
    path = tmp_path / f"{player}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return build_army(player, str(path))


ARMY_CALLS = {"Void Waaagh!", "Waaagh!", "Shadow in the Warp"}  # army rules these tests never use


def game(a: Army, b: Army | None = None, dice: list[int] | None = None) -> Game:
    """A game of ``a`` (A, the Attacker, first turn) against ``b`` (Orks by default), deployed
    with the first legal choices; it waits at A's first decision of the battle."""
    g = Game(11, a, b or army("orks_kaptin_killers", "B"), dice=Dice(5),
             rolloffs={"attacker": "A", "first_turn": "A"})
    for _ in range(100):
        d = g.decision
        if d.step == "use" and {a.arg for a in g.legal_actions() if a.kind == "use"} <= ARMY_CALLS:
            g.apply(Action("pass"))  # the Orks' Waaagh! calls, the Tyranids' Shadow in the Warp: not made
            continue
        if d.step not in PRE_BATTLE:
            break
        legal = g.legal_actions()
        g.apply(next((x for x in legal if x.kind in ("deploy", "done")), legal[0]))  # none in Reserves
    g.dice = Dice.scripted(dice or [])
    return g


def unit(g: Game, name: str, player: str = "A") -> Unit:
    return next(u for u in g.units.values() if u.player == player and u.datasheet.name == name)


def on_marker(g: Game, u: Unit, i: int = 0) -> None:
    mk = g.map.layout.markers[i]
    place(g, u.uid, [(mk.x, mk.y), (mk.x, mk.y + 1.3), (mk.x, mk.y - 1.3)])


def off_markers(g: Game, u: Unit) -> None:
    """Put ``u`` (three models) where no objective marker is in range."""
    mk = g.map.layout.markers
    for x in range(2, 60):
        for y in range(2, 30):
            if all(abs(x - m.x) > 4 or abs(y - m.y) > 4 for m in mk):
                place(g, u.uid, [(float(x), float(y)), (x + 1.3, float(y)), (x + 2.6, float(y))])
                if not holds_in(g)(u, "near_objective"):
                    return
    raise AssertionError("no place away from the markers")


# --- Secure Site as if BATTLELINE, or never ------------------------------------------------------


SECURE = [  # (faction, Detachment, a unit the rule names, a unit of the faction it does not name)
    ("Adeptus Astartes", "Pilum Strike Team", "Infiltrator Squad", "Reiver Squad"),
    ("Adeptus Astartes", "Terminator Assault", "Terminator Squad", "Deathwatch Terminator Squad"),
    ("Adeptus Mechanicus", "Machine Cult", "Corpuscarii Electro-Priests", "Tech-Priest Dominus"),
    ("Astra Militarum", "Tempestus Boarding Regiment", "Tempestus Scions", None),
    ("Death Guard", "Arch-Contaminators", "Blightlord Terminators", None),
    ("Emperor's Children", "Sublime Strike", "Chaos Terminators", None),
    ("Great Devourer", "Infestation Swarm", "Genestealers", None),
    ("Heretic Astartes", "Champions of Chaos", "Chaos Terminator Squad", None),
    ("Leagues of Votann", "Hearthfire Strike", "Einhyr Hearthguard", None),
    ("Necrons", "Canoptek Harvesters", "Technomancer", None),
    ("T'au Empire", "Kroot Raiding Party", "Kroot Carnivores", None),
    ("Thousand Sons", "Fateseekers", "Scarab Occult Terminators", None),
    ("Tyranids", "Tyranid Attack", "Tyranid Warriors with Melee Bio-weapons", None),
    ("World Eaters", "Skullsworn", "Chaos Terminators", None),
]


@pytest.mark.parametrize(("faction", "detachment", "named", "other"), SECURE)
def test_named_units_secure_sites_as_if_battleline(tmp_path, faction, detachment, named, other):
    units = [f"unit: {named}"] + ([f"unit: {other}"] if other else [])
    g = game(roster(tmp_path, faction, detachment, *units))
    u = unit(g, named)
    assert "BATTLELINE" not in u.keywords
    assert g.mission.secure_reason(g, u, 0) is None
    if other:
        assert g.mission.secure_reason(g, unit(g, other), 0) == "is not BATTLELINE"


def test_secure_site_as_battleline_in_play(tmp_path):
    # Relentless Salvoes: an Infiltrator Squad on a marker A controls performs Secure Site
    g = game(roster(tmp_path, "Adeptus Astartes", "Pilum Strike Team", "unit: Infiltrator Squad"))
    u = unit(g, "Infiltrator Squad")
    on_marker(g, u)
    g.control[0] = "A"
    advance_to(g, "manoeuvre")
    act = Action("manoeuvre", u.uid, target="secure", arg="1")
    assert act in g.legal_actions()
    g.apply(act)
    assert u.secure_marker == 0


def test_units_that_cannot_secure_sites_even_where_a_mission_rule_lets_any_unit(tmp_path):
    # Priority Predation: Hormagaunts cannot; Xeno-Terror: ENDLESS MULTITUDE units cannot
    g = game(roster(tmp_path, "Tyranids", "Boarding Swarm", "unit: Hormagaunts, models: 10"))
    u = unit(g, "Hormagaunts")
    assert "BATTLELINE" in u.keywords
    assert g.mission.secure_reason(g, u, 0) == "cannot perform Secure Site (its Detachment rule)"
    g2 = game(roster(tmp_path, "Tyranids", "Tyranid Attack", "unit: Hormagaunts, models: 10",
                     "unit: Tyranid Warriors with Ranged Bio-weapons"))
    assert g2.mission.secure_reason(g2, unit(g2, "Hormagaunts"), 0) is not None
    assert g2.mission.secure_reason(g2, unit(g2, "Tyranid Warriors with Ranged Bio-weapons"), 0) is None
    # without the Detachment rule a BATTLELINE unit may
    g3 = game(roster(tmp_path, "Tyranids", "Biotide", "unit: Hormagaunts, models: 10"))
    assert g3.mission.secure_reason(g3, unit(g3, "Hormagaunts"), 0) is None


def test_parts_of_a_rule_not_modelled_are_listed():
    a = army("adeptus_astartes_terminator_assault")
    assert any("Detachment rule 'Sacred Oath'" in n and "Oath of Moment" in n and "not implemented" in n
               for n in a.not_modelled)
    assert not any("Relentless Salvoes" in n for n in army("adeptus_astartes_pilum_strike_team").not_modelled)


# --- shooting and Tactical Manoeuvres after moving -------------------------------------------------


def test_relentless_salvoes_shoot_after_advancing_or_falling_back():
    g = game(army("adeptus_astartes_pilum_strike_team"))
    orks = game(army("orks_kaptin_killers"), army("adeptus_astartes_pilum_strike_team", "B"))
    for gg, p in ((g, "A"), (orks, "B")):
        u = next(x for x in gg.army_units(p) if x.ranged and not any(w.abilities.assault for w in x.ranged))
        u.moved = "advance"
        assert shooting.shoot_reason(gg, u) is None
        u.moved = "fallback"
        assert shooting.shoot_reason(gg, u) is None
    o = next(x for x in orks.army_units("A") if x.ranged and not any(w.abilities.assault for w in x.ranged))
    o.moved = "advance"  # the Orks have no such rule
    assert shooting.shoot_reason(orks, o) == "it Advanced this turn (and has no Assault weapon)"


def test_unnatural_energies_tactical_manoeuvres_after_advancing():
    g = game(army("legiones_daemonica_daemonic_incursion"), army("legiones_daemonica_dread_carnival", "B"))
    for p, ok in (("A", True), ("B", False)):
        u = g.army_units(p)[-1]
        for moved in ("advance", "fallback"):
            u.moved = moved
            assert (shooting.manoeuvre_reason(g, u) is None) is ok


# --- the attack sequence -------------------------------------------------------------------------


def test_focused_response_overwatch_hits_on_5_plus():
    g = game(army("adeptus_astartes_shield_of_the_void"), army("adeptus_astartes_boarding_strike", "B"))
    a, b = g.army_units("A")[-1], g.army_units("B")[-1]
    cond = effect_conditions(a, b, GUN, Conditions(overwatch=True))
    assert cond.overwatch_hit == 5
    assert effect_conditions(b, a, GUN, Conditions(overwatch=True)).overwatch_hit == 6
    # 2 attacks firing Overwatch: hit rolls 5 and 4; the 5 hits; wound roll 6; save roll 1
    g.dice = Dice.scripted([5, 4, 6, 1])
    lost, _ = declined(shooting.attack(g, a, b, GUN, 1, Conditions(overwatch=True), None, ranged=True))
    assert lost == 1
    g.dice.assert_consumed()
    g.dice = Dice.scripted([5, 4])  # Boarding Strike has no such rule: neither hits
    assert declined(shooting.attack(g, b, a, GUN, 1, Conditions(overwatch=True), None, ranged=True)) == (0, 0)
    g.dice.assert_consumed()


def test_focused_response_minus_1_to_hit_a_unit_set_to_defend():
    g = game(army("adeptus_astartes_shield_of_the_void"), army("orks_kaptin_killers", "B"))
    a, b = g.army_units("A")[-1], g.army_units("B")[-1]
    assert effect_conditions(b, a, GUN, Conditions()).hit_mod == 0
    a.set_to_defend = True
    assert effect_conditions(b, a, GUN, Conditions()).hit_mod == -1
    # BS 3+ with -1: a hit roll of 3 misses, 4 hits; wound roll 6; save roll 1
    g.dice = Dice.scripted([3, 4, 6, 1])
    lost, _ = declined(shooting.attack(g, b, a, GUN, 1, Conditions(), None, ranged=True))
    assert lost == 1
    g.dice.assert_consumed()


def test_the_emperor_protects_invulnerable_save_on_a_marker_and_after_securing_it(tmp_path):
    g = game(roster(tmp_path, "Adepta Sororitas", "Pious Protectors", "unit: Canoness",
                    "unit: Battle Sisters Squad, models: 10"))
    sisters = unit(g, "Battle Sisters Squad")
    off_markers(g, sisters)
    holds = holds_in(g)
    assert effect_defence(sisters, GUN, holds) == (6, None)  # its own 6+
    on_marker(g, sisters)
    assert effect_defence(sisters, GUN, holds) == (4, None)
    assert effect_defence(sisters, GUN) == (6, None)  # asked without the game: not in range
    sisters.secured_turn = g.turn  # it performed Secure Site in this, A's, turn
    g.phase = "fight"  # after A's Shooting phase: that was its most recent one
    assert effect_defence(sisters, GUN, holds) == (3, None)
    g.phase = "movement"  # before it: the most recent is two turns ago
    assert effect_defence(sisters, GUN, holds) == (4, None)
    # in play: AP -3 against Sv 3+; the 4+ invulnerable save roll of 4 saves
    g.phase = "shooting"
    ap3 = WeaponProfile("Test melta", False, DiceExpr(0, 6, 1), 3, 4, -3, DiceExpr(0, 6, 1), range=24)
    orks = g.army_units("B")[-1]
    g.dice = Dice.scripted([4, 6, 3])  # hit, wound, save 3: fails the 4+ ...
    g.phase = "movement"
    assert declined(shooting.attack(g, orks, sisters, ap3, 1, Conditions(), None, ranged=True))[0] == 1
    g.phase = "fight"
    g.dice = Dice.scripted([4, 6, 3])  # ... and passes the 3+
    assert declined(shooting.attack(g, orks, sisters, ap3, 1, Conditions(), None, ranged=True))[0] == 0
    g.dice.assert_consumed()


def test_the_emperor_protects_leaves_out_penitent_units(tmp_path):
    g = game(roster(tmp_path, "Adepta Sororitas", "Pious Protectors", "unit: Canoness",
                    "unit: Repentia Squad, models: 5"))
    repentia = unit(g, "Repentia Squad")
    assert not [n for n, _ in repentia.standing if n == "The Emperor Protects"]
    on_marker(g, repentia)
    # its own datasheet's Feel No Pain 5+, no invulnerable save from the rule
    assert effect_defence(repentia, GUN, holds_in(g)) == (repentia.invuln, 5)


def test_determined_defence_plus_1_armour_save_on_a_marker(tmp_path):
    g = game(roster(tmp_path, "Aeldari", "Protector Host", "unit: Farseer", "unit: Guardian Defenders",
                    "unit: Dire Avengers, models: 5"))
    orks = g.army_units("B")[-1]
    for name in ("Guardian Defenders", "Dire Avengers"):
        u = unit(g, name)
        off_markers(g, u)
        need = u.Sv
        # hit 4, wound 6, save roll one below the save characteristic: fails away from a marker
        g.dice = Dice.scripted([4, 6, need - 1])
        assert declined(shooting.attack(g, orks, u, SHOT, 1, Conditions(), None, ranged=True))[0] == 1
        on_marker(g, u)
        g.dice = Dice.scripted([4, 6, need - 1])  # and passes within range of one (+1)
        assert declined(shooting.attack(g, orks, u, SHOT, 1, Conditions(), None, ranged=True))[0] == 0
        g.dice.assert_consumed()
    assert not unit(g, "Farseer").standing


def test_belligerent_boarders_minus_1_to_wound_from_stronger_attacks(tmp_path):
    g = game(army("orks_ramship_raiders"), army("grey_knights_void_purge_force", "B"))
    boyz, grots = unit(g, "Boyz"), unit(g, "Gretchin")
    gk = g.army_units("B")[-1]
    s5 = WeaponProfile("S5", False, DiceExpr(0, 6, 1), 3, 5, 0, DiceExpr(0, 6, 1), range=24)
    s6 = WeaponProfile("S6", False, DiceExpr(0, 6, 1), 3, 6, 0, DiceExpr(0, 6, 1), range=24)
    assert boyz.T == 5
    assert effect_conditions(gk, boyz, s5, Conditions()).wound_mod == 0  # not greater
    assert effect_conditions(gk, boyz, s6, Conditions()).wound_mod == -1
    assert not grots.standing and effect_conditions(gk, grots, s6, Conditions()).wound_mod == 0
    # S6 against T5 wounds on 3+; with -1 a wound roll of 3 fails
    g.dice = Dice.scripted([4, 3])
    assert declined(shooting.attack(g, gk, boyz, s6, 1, Conditions(), None, ranged=True)) == (0, 0)
    g.dice.assert_consumed()


def test_witchsight_ranged_weapons_ignore_cover():
    g = game(army("thousand_sons_chosen_cabal"), army("orks_kaptin_killers", "B"))
    a, b = g.army_units("A")[-1], g.army_units("B")[-1]
    assert effect_weapon(a, GUN).abilities.ignores_cover and not GUN.abilities.ignores_cover
    assert not effect_weapon(a, BLADE).abilities.ignores_cover  # melee: unchanged
    assert not effect_weapon(b, GUN).abilities.ignores_cover
    # the target in cover: AP 0 against Sv 6+ with cover would save on 5; ignoring it, a 5 fails
    b.Sv = 6
    g.dice = Dice.scripted([4, 6, 5])
    assert declined(shooting.attack(g, a, b, SHOT, 1, Conditions(cover=True), None, ranged=True))[0] == 1
    g.dice.assert_consumed()


# --- Advance, Charge and Battle-shock ------------------------------------------------------------


@pytest.mark.parametrize("name", ["grey_knights_void_purge_force", "leagues_of_votann_hearthfire_strike"])
def test_plus_1_to_advance_and_charge_rolls(name):
    g = game(army(name))
    advance_to(g, "move")
    u = g.army_units("A")[-1]
    place(g, u.uid, block(14))
    g.dice = Dice.scripted([3])
    g.apply(parse(f"advance {u.uid} 40,15"))
    while g.decision.step == "reroll":
        g.apply(Action("pass"))
    moved = [e for e in g.events if e["e"] == "move"][-1]["moved"]
    assert u.move() < moved <= u.move() + 3 + 1 + 1e-9  # Move + the roll of 3 + 1
    g.dice.assert_consumed()


def test_charge_roll_plus_1_in_play():
    g = game(army("grey_knights_void_purge_force"))
    u, e = g.army_units("A")[-1], g.army_units("B")[-1]
    place(g, u.uid, block(14))
    place(g, e.uid, block(20, dx=1.4))
    advance_to(g, "move")
    g.apply(parse(f"hold {u.uid}"))
    advance_to(g, "charge")
    need = positions.unit_distance(g, u, e) - 1.0
    assert 3 < need <= 4
    g.dice = Dice.scripted([1, 2])  # 3 + 1 reaches
    g.apply(parse(f"charge {u.uid} {e.uid}"))
    while g.decision.step == "reroll":
        g.apply(Action("pass"))
    assert u.charged
    g.dice.assert_consumed()


def test_canticles_battle_shock_tests_plus_1(tmp_path):
    # B's Electro-Priests are Below Half-strength in B's first Command phase
    g = game(army("orks_kaptin_killers"), roster(tmp_path, "Adeptus Mechanicus", "Machine Cult",
                                                 "unit: Tech-Priest Dominus",
                                                 "unit: Corpuscarii Electro-Priests, models: 10",
                                                 player="B"))
    priests = unit(g, "Corpuscarii Electro-Priests", "B")
    priests.models = priests.models[:1]
    kept.touch(g, priests)
    need = priests.Ld
    g.dice = Dice.scripted([1, need - 2])  # one short of its Leadership: passes with the +1
    advance_to(g, "move", "B")
    test = [e for e in g.events if e["e"] == "battleshock_test"][-1]
    assert test["unit"] == priests.uid and test["roll"] == need and test["passed"]
    assert not priests.battleshocked
    g.dice.assert_consumed()


def test_fervent_devotees_melee_sustained_hits_against_a_unit_on_a_marker():
    g = game(army("thousand_sons_devoted_thralls"), army("orks_kaptin_killers", "B"))
    a, b = g.army_units("A")[-1], g.army_units("B")[-1]
    holds = holds_in(g)
    off_markers(g, b)
    assert effect_weapon(a, BLADE, b, holds) is BLADE
    on_marker(g, b)
    assert effect_weapon(a, BLADE, b, holds).abilities.sustained_hits == DiceExpr(0, 6, 1)
    assert effect_weapon(a, GUN, b, holds) is GUN  # melee weapons only
    assert effect_weapon(a, BLADE) is BLADE  # no target known: no condition on it holds
    # in play: one attack, a Critical Hit (6) scores one more hit; wound rolls 6 and 6; saves 1, 1
    one = WeaponProfile("Test blade", True, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1))
    g.dice = Dice.scripted([6, 6, 6, 1, 1])
    assert declined(shooting.attack(g, a, b, one, 1, Conditions(), None, ranged=False))[0] == 2
    g.dice.assert_consumed()


def test_canticles_reading_no_unit_has_both_keywords():
    # the rule names TECH-PRIEST and ELECTRO-PRIESTS units: two entries, which never add up
    pack = _catalog().faction("Adeptus Mechanicus").pack
    assert not [u.name for u in pack.units if {"TECH-PRIEST", "ELECTRO-PRIESTS"} <= set(u.keywords)]


def test_every_datasheet_and_keyword_a_rule_names_is_in_its_pack():
    from bagm.data.names import norm

    cat = _catalog()
    for fname in cat.faction_names():
        pack = cat.faction(fname).pack
        names = {norm(u.name) for u in pack.units}
        kws = {k for u in pack.units for k in u.keywords + u.faction_keywords}
        for d in pack.detachments:
            for e in d.rule_effects or ():
                assert {norm(x) for x in e.only_units + e.except_units} <= names, d.name
                assert {k for k in [e.only_keyword, *e.only_lacks] if k} <= kws, d.name


# --- tests a charge calls for --------------------------------------------------------------------


def _charge(g: Game, u: Unit, e: Unit, dice: list[int]) -> None:
    """``u`` (A) declares a charge at ``e`` from 5" away in A's first Charge phase, with
    ``dice`` scripted from the declaration on."""
    advance_to(g, "move")
    place(g, u.uid, block(14))
    place(g, e.uid, block(20, dx=1.4))
    g.apply(parse(f"hold {u.uid}"))
    advance_to(g, "charge")
    g.dice = Dice.scripted(dice)
    g.apply(parse(f"charge {u.uid} {e.uid}"))
    while g.decision.step == "reroll":
        g.apply(Action("pass"))


def test_terrifying_charge_a_failed_leadership_test_gives_the_target_minus_1_to_hit():
    g = game(army("necrons_deranged_outcasts"))
    u, e = unit(g, "Flayed Ones"), unit(g, "Nobz", "B")
    # the target's Leadership test: 1 + 1 fails; then the Charge roll 6 + 6
    _charge(g, u, e, [1, 1, 6, 6])
    test = next(x for x in g.events if x["e"] == "leadership_test")
    assert test == {"e": "leadership_test", "unit": e.uid, "roll": 2, "ld": e.Ld, "passed": False,
                    "why": "Terrifying Charge"}
    assert effect_conditions(e, u, BLADE, Conditions()).hit_mod == -1
    assert u.charged
    g.dice.assert_consumed()
    moments.end_timed(g, "turn")  # "until the end of the turn"
    assert effect_conditions(e, u, BLADE, Conditions()).hit_mod == 0


def test_terrifying_charge_a_passed_test_does_nothing():
    g = game(army("necrons_deranged_outcasts"))
    u, e = unit(g, "Flayed Ones"), unit(g, "Nobz", "B")
    _charge(g, u, e, [6, 6, 6, 6])
    assert not e.timed and effect_conditions(e, u, BLADE, Conditions()).hit_mod == 0
    g.dice.assert_consumed()


def test_focused_ferocity_the_target_takes_a_battle_shock_test():
    g = game(army("world_eaters_boarding_butchers"))
    u, e = unit(g, "Khorne Berzerkers"), unit(g, "Nobz", "B")
    _charge(g, u, e, [2, 3, 6, 6])
    assert e.battleshocked and e.oc() == 0
    assert [x for x in g.events if x["e"] == "battleshock_test"][-1]["why"] == "Focused Ferocity"
    g.dice.assert_consumed()


def test_blessed_visages_a_unit_that_charges_them_takes_the_test():
    g = game(army("orks_kaptin_killers"), army("genestealer_cults_genespawn_onslaught", "B"))
    u, e = unit(g, "Nobz"), unit(g, "Aberrants", "B")
    _charge(g, u, e, [1, 2, 6, 6])
    assert effect_conditions(u, e, BLADE, Conditions()).hit_mod == -1  # the charging Orks
    assert not e.timed
    g.dice.assert_consumed()


# --- auras ---------------------------------------------------------------------------------------


def test_overwhelming_magnificence_minus_1_oc_in_engagement_range():
    g = game(army("adeptus_custodes_voyagers_into_darkness"))
    guard, boyz = unit(g, "Custodian Guard"), unit(g, "Nobz", "B")
    mk = g.map.layout.markers[0]
    place(g, boyz.uid, [(mk.x, mk.y), (mk.x, mk.y + 1.3)])
    others = [u for u in g.units.values() if u is not boyz and u.alive]
    for u in others:  # everyone else off the markers
        if u is not guard:
            off_markers(g, u)
    off_markers(g, guard)
    i = 0
    assert control.levels_of_control(g)[i]["B"] == 2 * boyz.OC
    place(g, guard.uid, [(mk.x + 1.9, mk.y)])  # engaged, out of the marker's range
    assert positions.engaged(g, guard, boyz)
    assert control.levels_of_control(g)[i]["B"] == 2 * (boyz.OC - 1)


# --- conditions on the target --------------------------------------------------------------------


def test_retribution_protocols_rerolls_against_the_unit_that_destroyed_a_cryptek():
    from bagm.engine.attack.rules import Reroll

    g = game(army("necrons_canoptek_harvesters"))
    cryptek, warriors = unit(g, "Technomancer"), unit(g, "Necron Warriors")
    boyz, grots = unit(g, "Nobz", "B"), unit(g, "Meganobz", "B")
    assert effect_conditions(warriors, boyz, GUN, Conditions()).reroll_hits == Reroll.none
    big = WeaponProfile("Test cannon", False, DiceExpr(0, 6, 1), 3, 8, -4, DiceExpr(0, 6, 9), range=24)
    g.dice = Dice.scripted([4, 6])  # hit, wound (AP -4: no save): 9 damage destroys the Technomancer
    assert declined(shooting.attack(g, boyz, cryptek, big, 1, Conditions(), None, ranged=True))[1] == 1
    g.dice.assert_consumed()
    assert "CRYPTEK" in boyz.slew
    assert effect_conditions(warriors, boyz, GUN, Conditions()).reroll_hits == Reroll.failed
    assert effect_conditions(warriors, grots, GUN, Conditions()).reroll_hits == Reroll.none


def test_markerlight_precision_against_a_unit_a_markerlight_unit_sees():
    g = game(army("tau_empire_starfire_cadre"))
    spotter, *more = [u for u in g.army_units("A") if "MARKERLIGHT" in u.keywords]
    for u in more:  # one MARKERLIGHT unit on the battlefield
        u.models = []
        kept.touch(g, u)
    shooter = next(u for u in g.army_units("A") if u is not spotter and u.ranged)
    boyz = unit(g, "Nobz", "B")
    place(g, spotter.uid, block(14))
    place(g, boyz.uid, block(22, dx=1.4))
    holds = holds_in(g)
    assert sight.visible_idx(g, spotter, boyz) and not positions.engaged_with(g, spotter)
    w = effect_weapon(shooter, GUN, boyz, holds)
    assert (w.skill, w.abilities.sustained_hits) == (2, DiceExpr(0, 6, 1))
    assert effect_weapon(shooter, GUN, boyz) is GUN  # without the game: not known to hold
    grots = unit(g, "Meganobz", "B")
    place(g, grots.uid, [(15.5, 15.0)])  # an enemy model in Engagement Range of the spotter
    assert positions.engaged_with(g, spotter)
    assert effect_weapon(shooter, GUN, boyz, holds) is GUN


def test_methodical_conquest_set_overwatch_after_secure_site():
    g = game(army("thousand_sons_fateseekers"))
    scarabs = unit(g, "Scarab Occult Terminators")
    spawn = unit(g, "Chaos Spawn")
    on_marker(g, scarabs)
    g.control[0] = "A"
    advance_to(g, "manoeuvre")
    g.apply(Action("manoeuvre", scarabs.uid, target="secure", arg="1"))
    mine = [a.text() for a in g.legal_actions() if a.unit == scarabs.uid]
    assert mine == [f"manoeuvre {scarabs.uid} overwatch"]  # Set Overwatch only
    g.apply(Action("manoeuvre", scarabs.uid, target="overwatch"))
    assert scarabs.secure_marker == 0 and scarabs.overwatch_until > g.turn
    assert not [a for a in g.legal_actions() if a.unit == scarabs.uid]
    assert spawn.uid  # a unit without the rule: one Tactical Manoeuvre (the core rule)


# --- moving through models, Desperate Escape, Hatchway roll-offs, Consolidation ----------------


def _path(g: Game, u: Unit, kind: str, to: tuple[float, float]) -> float:
    length, route = g.bf.move_path(u.models[0].base, to, positions.move_discs(g, u, kind))
    return length if route is not None and route[-1] == to else float("inf")


def test_dark_radiance_moves_through_models_on_normal_advance_and_charge_moves():
    g = game(army("emperors_children_sublime_strike"), army("orks_ramship_raiders", "B"))
    mover, friend = g.army_units("A")[-1], g.army_units("A")[-2]
    place(g, mover.uid, [(14.0, 15.0)])
    place(g, friend.uid, [(17.0, 15.0)])  # in the way
    to = (20.0, 15.0)
    for kind in ("normal", "advance", "charge"):
        assert _path(g, mover, kind, to) == pytest.approx(6.0)  # straight through
    assert _path(g, mover, "fallback", to) > 6.0 + 1e-6  # not on a Fall Back move
    # the Orks of Ramship Raiders (no such rule) go around
    boyz, more = g.units["B3"], g.units["B4"]
    place(g, more.uid, [(33.0, 15.0)])
    place(g, boyz.uid, [(36.0, 15.0)])
    assert _path(g, boyz, "normal", (30.0, 15.0)) > 6.0 + 1e-6


def test_comin_through_moves_through_units_with_a_lower_toughness():
    g = game(army("orks_kaptin_killers"), army("orks_ramship_raiders", "B"))
    meganobz, nobz, warboss = unit(g, "Meganobz"), unit(g, "Nobz"), unit(g, "Warboss")
    assert nobz.T < meganobz.T and warboss.T == nobz.T
    place(g, meganobz.uid, [(14.0, 15.0)])
    place(g, nobz.uid, [(17.0, 15.0)])
    assert _path(g, meganobz, "normal", (20.0, 15.0)) == pytest.approx(6.0)  # through the Nobz
    assert _path(g, meganobz, "charge", (20.0, 15.0)) > 6.0 + 1e-6  # not on a Charge move
    place(g, nobz.uid, [(14.0, 15.0)])
    place(g, meganobz.uid, [(40.0, 25.0)])
    place(g, warboss.uid, [(17.0, 15.0)])  # the same Toughness: not through it
    assert _path(g, nobz, "normal", (20.0, 15.0)) > 6.0 + 1e-6


def test_relentless_spread_consolidation_d3_plus_3():
    g = game(army("death_guard_unclean_uprising"))
    u, e = unit(g, "Poxwalkers"), g.army_units("B")[-1]
    advance_to(g, "move")
    # one model of u engaged with e (one model, which has fought: it stays out of this); the
    # other 6.5" from the first, too far for a 3" move to bring it back into Unit Coherency;
    # u swings one blade
    place(g, e.uid, [(20.0, 15.0)])
    front = 20.0 - e.radius - u.radius - 0.2
    place(g, u.uid, [(front, 15.0), (12.0, 15.0)])
    assert positions.engaged(g, u, e)
    e.fought = True
    u.melee = [WeaponProfile("Test blade", True, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1))]
    advance_to(g, "fight")
    g.dice = Dice.scripted([1, 1])  # the hit roll misses; the Consolidation's D3 rolls 1: up to 4"
    g.apply(parse(f"fight {u.uid} {e.uid}"))
    while g.decision.step in ("reroll", "counter"):
        g.apply(Action("pass"))
    g.dice.assert_consumed()
    assert not [x for x in g.events if x["e"] == "pile_in" and x["unit"] == u.uid]  # 3": not coherent
    ev = [x for x in g.events if x["e"] == "consolidate" and x["unit"] == u.uid][-1]
    assert ev["at"][-1][0] == pytest.approx(16.0, abs=0.01)  # 4": back in Unit Coherency


def _beside(g: Game, i: int, u: Unit, side: int) -> None:
    """Put ``u`` (one model) 0.1" from closed Hatchway ``i``'s door, on one side (+1 or -1)."""
    h = g.map.layout.hatchways[i]
    cx, cy = h.centre
    off = u.radius + 0.35
    pt = (cx, cy + side * off) if h.horizontal else (cx + side * off, cy)
    place(g, u.uid, [pt])


def test_unstoppable_swarm_moves_through_friendly_models_and_plus_1_to_the_hatchway_roll_off():
    g = game(army("tyranids_biotide"), army("orks_kaptin_killers", "B"))
    gaunts, friend = g.army_units("A")[-1], g.army_units("A")[-2]
    place(g, gaunts.uid, [(14.0, 15.0)])
    place(g, friend.uid, [(17.0, 15.0)])
    assert _path(g, gaunts, "normal", (20.0, 15.0)) == pytest.approx(6.0)  # through a friendly unit
    # the roll-off to open a closed Hatchway an enemy unit tries to keep shut
    advance_to(g, "move")
    i = next(h.index for h in g.map.layout.hatchways if not g.bf.is_open(h.index))
    enemy = g.army_units("B")[-1]
    _beside(g, i, gaunts, 1)
    _beside(g, i, enemy, -1)
    assert g.bf.wholly_opposite_sides(gaunts.bases[:1], enemy.bases[:1], i)
    g.apply(Action("done"))  # Operating Hatchways: at the end of the Move Units step
    assert g.decision.step == "hatch"
    g.dice = Dice.scripted([4, 4 + gaunts.T - enemy.T])  # D6 + T: a tie without the +1; won with it
    g.apply(Action("hatch", gaunts.uid, arg=str(i + 1)))
    roll = next(x for x in g.events if x["e"] == "hatch_rolloff")
    assert roll["roll"] == 4 + gaunts.T + 1 and roll["enemy"] == 4 + gaunts.T
    assert g.bf.is_open(i)
    g.dice.assert_consumed()


def test_living_flame_sustained_hits_against_a_unit_in_engagement_range_of_friendly_models():
    # Reading: its first sentence (targeting units engaged with friendly TZEENTCH units) the core
    # rules already allow (only [BLAST] cannot), so only the Sustained Hits is modelled
    g = game(army("legiones_daemonica_pandaemoniac_inferno"))
    flamer = next(u for u in g.army_units("A") if "TZEENTCH" in u.keywords and u.ranged)
    other = next(u for u in g.army_units("A") if u is not flamer)
    e = g.army_units("B")[-1]
    holds = holds_in(g)
    place(g, e.uid, [(30.0, 15.0)])
    place(g, other.uid, [(40.0, 25.0)])
    assert effect_weapon(flamer, GUN, e, holds) is GUN
    place(g, other.uid, [(30.0 - e.radius - other.radius - 0.3, 15.0)])
    assert positions.engaged(g, other, e)
    assert effect_weapon(flamer, GUN, e, holds).abilities.sustained_hits == DiceExpr(0, 6, 1)
    assert effect_weapon(flamer, BLADE, e, holds) is BLADE  # ranged weapons only


def test_conquest_protocols_critical_wounds_improve_ap_on_or_against_a_marker():
    g = game(army("necrons_tomb_ship_complement"), army("orks_kaptin_killers", "B"))
    a, b = g.army_units("A")[-1], unit(g, "Nobz", "B")
    holds = holds_in(g)
    off_markers(g, a)
    off_markers(g, b)
    assert effect_conditions(a, b, SHOT, Conditions(), holds).crit_wound_ap == 0
    on_marker(g, b)  # the target within range of a marker
    assert effect_conditions(a, b, SHOT, Conditions(), holds).crit_wound_ap == -1
    off_markers(g, b)
    on_marker(g, a)  # or the attacking model
    assert effect_conditions(a, b, SHOT, Conditions(), holds).crit_wound_ap == -1
    # in play: two attacks hit (4, 4); wound rolls 6 (Critical) and 5; Sv 4+: the Critical
    # Wound's save (AP -1: 5+) rolled first, 4 fails; the other's 4 passes
    b.Sv = 4
    two = WeaponProfile("Test gun", False, DiceExpr(0, 6, 2), 3, 4, 0, DiceExpr(0, 6, 1), range=24)
    g.dice = Dice.scripted([4, 4, 6, 5, 4, 4])
    assert declined(shooting.attack(g, a, b, two, 1, Conditions(), None, ranged=True))[0] == 1
    g.dice.assert_consumed()


def test_critical_wound_ap_in_the_exact_odds():
    t = Target(toughness=4, save=4, wounds=1)
    plain = steps(AttackProfile(SHOT, 1, Conditions()), t)
    better = steps(AttackProfile(SHOT, 1, Conditions(crit_wound_ap=-1)), t)
    # a Critical Wound fails a 5+ save 4/6 of the time instead of a 4+ save's 3/6
    assert better.through - plain.through == plain.wound[Outcome.critical] * Fraction(1, 6)


def test_drive_home_the_blade_sustained_hits_against_one_unit_beyond_an_open_hatchway():
    g = game(army("adeptus_astartes_boarding_strike"))
    shooter = g.army_units("A")[-1]
    first, second = g.army_units("B")[-1], g.army_units("B")[-2]
    i = next(h.index for h in g.map.layout.hatchways if not g.bf.is_open(h.index))
    h = g.map.layout.hatchways[i]
    _beside(g, i, shooter, 1)
    cx, cy = h.centre
    far = [(cx, cy - 3.0)] if h.horizontal else [(cx - 3.0, cy)]
    near2 = [(cx + 1.5, cy - 3.0)] if h.horizontal else [(cx - 3.0, cy + 1.5)]
    place(g, first.uid, far)
    place(g, second.uid, near2)
    holds = holds_in(g)
    assert effect_weapon(shooter, GUN, first, holds) is GUN  # the Hatchway is closed
    g.bf.set_open(i, True)
    kept.touch(g)
    assert g.bf.wholly_opposite_sides(shooter.bases, first.bases, i)
    w = effect_weapon(shooter, GUN, first, holds)
    assert w.abilities.sustained_hits == DiceExpr(0, 6, 1)
    assert effect_weapon(shooter, BLADE, first, holds) is BLADE  # ranged weapons only
    # one enemy unit is selected: the first it attacks; another beyond the Hatchway is not
    assert g.bf.wholly_opposite_sides(shooter.bases, second.bases, i)
    assert effect_weapon(shooter, GUN, second, holds) is GUN
    assert effect_weapon(shooter, GUN, first, holds).abilities.sustained_hits is not None


def test_toxic_miasma_halves_move_and_slows_advance_and_charge_within_3_inches():
    g = game(army("legiones_daemonica_rotten_and_rusted"))
    daemons = next(u for u in g.army_units("A") if "NURGLE" in u.keywords)
    advance_to(g, "move", "B")
    near, far = g.army_units("B")[-1], g.army_units("B")[-2]
    place(g, daemons.uid, [(14.0, 15.0)])
    place(g, near.uid, [(14.0 + daemons.radius + near.radius + 2.5, 15.0)])  # 2.5" away
    assert positions.min_straight(g, near, daemons) <= 3 < positions.min_straight(g, far, daemons)
    assert effect_conditions(near, near, GUN, Conditions()) == Conditions()  # no standing effect
    g.dice = Dice.scripted([])
    g.apply(parse(f"move {near.uid} 40,15"))
    ev = [x for x in g.events if x["e"] == "move" and x["unit"] == near.uid][-1]
    assert 0 < ev["moved"] <= near.M - near.M // 2 + 1e-6  # Move halved, rounding up
    assert any(x["e"] == "effect" and x["rule"] == "Toxic Miasma" and x["unit"] == near.uid for x in g.events)
    moments.end_timed(g, "phase")
    assert near.move() == near.M


def test_half_glimpsed_shadows_minus_1_to_hit_from_models_beyond_6_inches():
    g = game(army("great_devourer_infestation_swarm"), army("astra_militarum_embarked_regiment", "B"))
    stealers = unit(g, "Genestealers")
    advance_to(g, "move")
    shooter = unit(g, "Cadian Shock Troops", "B")
    place(g, stealers.uid, [(14.0, 15.0)])
    gap = stealers.radius + shooter.radius
    # in Unit Coherency: two models within 6" (4" and 5.5"), one beyond (7")
    place(g, shooter.uid, [(14.0 + gap + d, 15.0) for d in (4.0, 5.5, 7.0)])
    g.dice = Dice(4)
    advance_to(g, "shoot", "B")
    mark = len(g.events)
    g.apply(parse(f"shoot {shooter.uid} {stealers.uid}"))
    while g.decision.step == "reroll":
        g.apply(Action("pass"))
    attacks = [x for x in g.events[mark:] if x["e"] == "attack"]
    skill = {w.name: w.skill for w in shooter.ranged}
    runs = {}
    for a in attacks:
        need = skill[a["weapon"]]
        hits = a["dice"].get("hit", [])
        runs.setdefault(a["weapon"], []).append((a["models"], a["hits"], hits, need))
    split = [r for r in runs.values() if len(r) == 2]
    assert split  # each weapon's attacks ran twice: the models within 6" and the one beyond
    for (n1, h1, d1, need), (n2, h2, d2, _) in split:
        assert (n1, n2) == (2, 1)
        assert h1 == sum(1 for d in d1 if d >= need)  # within 6": no modifier
        assert h2 == sum(1 for d in d2 if d == 6 or d != 1 and d - 1 >= need)  # beyond: -1
    gun = shooter.ranged[-1]
    assert effect_conditions(shooter, stealers, gun, Conditions(far=True)).hit_mod == -1
    assert effect_conditions(shooter, stealers, gun, Conditions()).hit_mod == 0
    assert effect_conditions(shooter, stealers, BLADE, Conditions(far=True)).hit_mod == 0  # ranged only


def _fight_first(g: Game, u: Unit, t: Unit, dice: list[int]) -> None:
    """``u`` (A, one model, with a charge behind it) fights ``t`` with ``dice`` scripted; every
    Command Re-roll and Counter-offensive declined."""
    advance_to(g, "move")
    place(g, t.uid, [(20.0, 15.0), (20.0, 16.0 + t.radius)])
    place(g, u.uid, [(20.0 - t.radius - u.radius - 0.2, 15.0)])
    assert positions.engaged(g, u, t)
    u.charged = True  # Fights First: it fights before the other side's units
    advance_to(g, "fight")
    g.dice = Dice.scripted(dice)
    g.apply(parse(f"fight {u.uid} {t.uid}"))
    while g.decision.step in ("reroll", "counter", "use"):
        g.apply(Action("pass"))


ONE_BLADE = WeaponProfile("Test blade", True, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1))
BIG_BLADE = WeaponProfile("Test axe", True, DiceExpr(0, 6, 1), 3, 8, 0, DiceExpr(0, 6, 9))


def test_faolchus_last_flight_a_destroyed_model_fights_on_a_3_plus():
    g = game(army("orks_kaptin_killers"), army("aeldari_star_dancer_masque", "B"))
    u, t = unit(g, "Nobz"), unit(g, "Troupe", "B")
    u.melee, t.melee = [BIG_BLADE], [ONE_BLADE]
    n = len(u.models)
    # the Nobz' hit 4, wound 6, save 1: one Troupe model destroyed; its D6: 3,
    # it fights on: hit 4, wound 6, save 1: a Nob loses a wound
    _fight_first(g, u, t, [4, 6, 1, 3, 4, 6, 1])
    g.dice.assert_consumed()
    ev = next(x for x in g.events if x["e"] == "fight_on_death")
    assert ev == {"e": "fight_on_death", "unit": t.uid, "rule": "Faolchu's Last Flight", "rolls": [3], "fighting": 1}
    back = [x for x in g.events if x["e"] == "fight" and x.get("dying")]
    assert back and back[0]["unit"] == t.uid and back[0]["fighters"] == 1
    assert len(u.models) == n - 1 or u.models[0].wounds < u.W
    assert t.dying == 0


def test_faolchus_last_flight_a_2_or_a_unit_that_has_fought_does_not():
    g = game(army("orks_kaptin_killers"), army("aeldari_star_dancer_masque", "B"))
    u, t = unit(g, "Nobz"), unit(g, "Troupe", "B")
    u.melee, t.melee = [BIG_BLADE], [ONE_BLADE]
    _fight_first(g, u, t, [4, 6, 1, 2])  # the D6 rolls 2: it does not fight on
    g.dice.assert_consumed()
    assert not [x for x in g.events if x["e"] == "fight" and x.get("dying")]
    g2 = game(army("orks_kaptin_killers"), army("aeldari_star_dancer_masque", "B"))
    u2, t2 = unit(g2, "Nobz"), unit(g2, "Troupe", "B")
    u2.melee = [BIG_BLADE]
    t2.fought = True  # "if it has not fought this phase"
    g2.dice = Dice.scripted([4, 6, 1])
    assert declined(shooting.attack(g2, u2, t2, BIG_BLADE, 1, Conditions(), None, ranged=False))[1] == 1
    g2.dice.assert_consumed()
    assert t2.dying == 0


def test_reap_the_tally_only_the_last_model_of_a_unit_on_a_5_plus():
    g = game(army("orks_kaptin_killers"), army("world_eaters_skullsworn", "B"))
    u = unit(g, "Nobz")
    t = next(x for x in g.army_units("B") if len(x.models) > 1)
    place(g, t.uid, [(20.0, 15.0), (20.0, 16.5)])
    # the first of two models: no roll
    g.dice = Dice.scripted([4, 6, 1])
    assert declined(shooting.attack(g, u, t, BIG_BLADE, 1, Conditions(), None, ranged=False))[1] == 1
    g.dice.assert_consumed()
    g.dice = Dice.scripted([4, 6, 1, 5])  # the last: a 5 fights on
    declined(shooting.attack(g, u, t, BIG_BLADE, 1, Conditions(), None, ranged=False))
    g.dice.assert_consumed()
    assert not t.alive and t.dying == 1


@pytest.mark.parametrize(("roll", "wounded"), [(2, True), (3, False)])
def test_lithe_killers_move_through_enemy_models_at_the_risk_of_a_mortal_wound(roll, wounded):
    g = game(army("legiones_daemonica_dread_carnival"))
    advance_to(g, "move")
    d = unit(g, "Daemonettes")
    e = unit(g, "Nobz", "B")
    place(g, d.uid, [(14.0, 15.0), (14.0, 16.3)])
    place(g, e.uid, [(17.0, 15.0), (17.0, 16.3)])
    assert _path(g, d, "normal", (21.0, 15.0)) == pytest.approx(7.0)  # straight through the Nobz
    g.dice = Dice.scripted([roll, 6])  # the model whose line crossed a Nob: one D6 each
    g.apply(parse(f"move {d.uid} 21,15.6"))
    ev = [x for x in g.events if x["e"] == "move" and x["unit"] == d.uid][-1]
    assert all(p[0] > 17.0 for p in ev["at"])  # beyond the Nobz
    g.dice.assert_consumed()
    mw = [x for x in g.events if x["e"] == "mortal_wounds" and x["unit"] == d.uid]
    assert bool(mw) is wounded and (not mw or (mw[0]["amount"], mw[0]["why"]) == (1, "Lithe Killers"))


def test_lithe_killers_reading_fiends_are_the_one_slaanesh_unit_not_infantry():
    pack = _catalog().faction("Legiones Daemonica").pack
    assert [u.name for u in pack.units if "SLAANESH" in u.keywords and "INFANTRY" not in u.keywords] == ["Fiends"]


def _with_reserve(a: Army, uid: str) -> Game:
    """A game of ``a`` against Orks where A's ``uid`` is placed into Reserves; it waits at A's
    first decision of the battle."""
    g = Game(11, a, army("orks_kaptin_killers", "B"), dice=Dice(5), rolloffs={"attacker": "A", "first_turn": "A"})
    for _ in range(100):
        if g.decision.step not in PRE_BATTLE:
            break
        legal = g.legal_actions()
        mine = Action("reserve", uid)
        g.apply(mine if mine in legal else next((x for x in legal if x.kind == "deploy" and x.unit != uid), legal[0]))
    return g


def test_pre_emptive_strike_deep_strike_in_the_first_round_more_than_6_inches_away(tmp_path):
    a = roster(tmp_path, "Grey Knights", "Baneslayer Strike", "unit: Grand Master",
               "unit: Brotherhood Terminator Squad, models: 10")  # 2024, as the Orks' roster
    g = _with_reserve(a, "A3")
    u = g.units["A3"]
    assert u.where == "reserves" and u.deep_strike and g.round == 1
    advance_to(g, "reinforce")
    strikes = [x for x in g.legal_actions() if x.kind == "deepstrike" and x.unit == "A3"]
    assert strikes  # in the first battle round
    g.apply(strikes[0])
    assert u.where == "board" and u.struck_turn == g.turn
    gap = min(positions.min_straight(g, u, e) for e in g.army_units("B"))
    assert gap > 6.0
    assert charge.charge_reason(g, u) == "it arrived by Deep Strike in the first battle round (Pre-Emptive Strike)"


def test_without_pre_emptive_strike_deep_strike_waits_for_the_second_round():
    g = _with_reserve(army("grey_knights_void_purge_force"), "A3")
    u = g.units["A3"]
    assert u.where == "reserves" and u.deep_strike and g.round == 1
    advance_to(g, "move")
    assert not [x for x in reinforcements.legal_reinforce(g, "A") if x.kind == "deepstrike"]
    with pytest.raises(IllegalAction, match="second battle round"):
        g.check_as("reinforce", "A", Action("deepstrike", "A3", point=(30.0, 15.0)))


# --- rules used at a moment (rule_moments) -------------------------------------------------------


def test_overload_machine_spirits_each_unit_each_time_it_is_selected_to_shoot():
    """Overload Machine Spirits: "each time an ADEPTUS MECHANICUS unit from your army is selected
    to shoot, it can use this ability": until the end of the phase its ranged weapons' AP is
    improved by 1 and they have [HAZARDOUS]. Once per phase for each unit, not once for the army."""
    g = game(army("adeptus_mechanicus_electromartyrs"))
    a, v = g.army_units("A")[:2]
    b = g.army_units("B")[-1]
    name = "Overload Machine Spirits"
    assert [x.text() for x in moments.usable(g, "A", "selected_to_shoot", a.uid)] == [f"use {a.uid} {name}"]
    steps = moments.moment(g, "selected_to_shoot", "A", a)
    assert next(steps).step == "use"
    with pytest.raises(StopIteration):
        steps.send(parse(f"use {a.uid} {name}"))
    w = effect_weapon(a, GUN, b)
    assert (w.ap, w.abilities.hazardous) == (-1, True)
    assert effect_weapon(a, BLADE, b) == BLADE  # ranged weapons only
    assert moments.usable(g, "A", "selected_to_shoot", a.uid) == []  # this unit: once this phase
    assert [x.text() for x in moments.usable(g, "A", "selected_to_shoot", v.uid)] == [f"use {v.uid} {name}"]
    # one attack: hit 3 (BS 3+), wound 6, save roll of exactly the target's Save: failed at AP -1
    g.dice = Dice.scripted([3, 6, b.Sv])
    assert declined(shooting.attack(g, a, b, SHOT, 1, Conditions(), None, ranged=True))[0] == 1
    assert a.hazard == ("Test shot",)  # a Hazardous test owed once the unit has shot
    moments.end_timed(g, "phase")
    assert effect_weapon(a, GUN, b) == GUN
    g.dice = Dice.scripted([3, 6, b.Sv])  # the same rolls without it: saved
    assert declined(shooting.attack(g, a, b, SHOT, 1, Conditions(), None, ranged=True))[0] == 0
    assert not any(x.name == name for x in g.armies["B"].uses)  # the Orks have no such rule


def test_greedy_bot_overloads_machine_spirits_but_never_on_a_character():
    from bagm.engine.bots import make_bot
    from bagm.engine.state.core import Decision

    g = game(army("adeptus_mechanicus_electromartyrs"))
    bot = make_bot("greedy")
    assert {"CHARACTER" in u.keywords for u in g.army_units("A")} == {True, False}
    for u in g.army_units("A"):
        g.decision = Decision("use", "A", {"timing": "selected_to_shoot", "unit": u.uid})
        act = bot(g)
        assert (act.kind == "use") == ("CHARACTER" not in u.keywords), u.name


def _phase(g: Game, phase: str, active: str = "A") -> None:
    g.phase, g.active = phase, active  # type: ignore[assignment]


def _moved(g: Game, u: Unit, before: list[tuple[float, float]]) -> float:
    return max(((m.x - x) ** 2 + (m.y - y) ** 2) ** 0.5 for m, (x, y) in zip(u.models, before))


def test_harassing_fire_one_unit_moves_3_inches_at_the_end_of_the_shooting_phase_and_cannot_charge():
    """Harassing Fire: "at the end of your Shooting phase, you can select one GENESTEALER CULTS
    unit from your army that is not within Engagement range of one or more enemy units ... can
    then make a Normal move of up to 3" ... Until the end of the turn, that unit is not eligible
    to charge." One unit a phase; an engaged unit cannot be selected."""
    name = "Harassing Fire"
    g = game(army("genestealer_cults_cult_unveiled"))
    u, v = g.army_units("A")[-1], g.army_units("A")[-2]
    e = g.army_units("B")[-1]
    place(g, u.uid, block(14))
    place(g, v.uid, block(30))
    place(g, e.uid, block(31.5, dx=1.4))  # v's Engagement Range
    kept.touch(g)
    _phase(g, "shooting")
    offered = {a.unit for a in moments.usable(g, "A", "phase_end")}
    assert u.uid in offered and v.uid not in offered
    _phase(g, "shooting", "B")
    assert moments.usable(g, "A", "phase_end") == []  # your Shooting phase only
    _phase(g, "shooting")
    before = [(m.x, m.y) for m in u.models]
    steps = moments.moment(g, "phase_end", "A")
    assert next(steps).step == "use"
    d = steps.send(parse(f"use {u.uid} {name}"))
    assert d.step == "freemove" and d.info["reach"] == 3
    with pytest.raises(StopIteration):
        steps.send(parse(f"move {u.uid} 24,15"))
    assert 2.9 < _moved(g, u, before) <= 3 + 1e-6
    assert charge.charge_reason(g, u) == f"it is not eligible to charge this turn ({name})"
    assert moments.usable(g, "A", "phase_end") == []  # one unit a phase
    moments.end_timed(g, "turn")
    assert charge.charge_reason(g, u) is None


def test_stalwart_advance_a_normal_move_after_shooting_only_if_those_attacks_destroyed_a_unit():
    """Stalwart Advance: "each time a LEAGUES OF VOTANN unit from your army has shot, if one or
    more enemy units were destroyed by those attacks", a Normal move of up to 3"."""
    name = "Stalwart Advance"
    g = game(army("leagues_of_votann_void_salvagers"))
    u = g.army_units("A")[-1]
    e, f = g.army_units("B")[-1], g.army_units("B")[-2]
    place(g, u.uid, block(14))
    kept.touch(g)
    _phase(g, "shooting")
    u.volley = ((e.uid, 3, 1),)  # a model destroyed, the unit still alive
    assert moments.usable(g, "A", "after_shot", u.uid) == []
    f.where = "destroyed"  # destroyed, but not by its attacks
    u.volley = ((e.uid, 3, 1), (f.uid, 0, 0))
    assert moments.usable(g, "A", "after_shot", u.uid) == []
    e.where = "destroyed"  # destroyed by those attacks
    assert [a.text() for a in moments.usable(g, "A", "after_shot", u.uid)] == [f"use {u.uid} {name}"]
    before = [(m.x, m.y) for m in u.models]
    steps = moments.moment(g, "after_shot", "A", u)
    next(steps)
    d = steps.send(parse(f"use {u.uid} {name}"))
    assert d.step == "freemove"
    try:
        d = steps.send(parse(f"move {u.uid} 24,15"))
        assert d.step == "freemove" and d.info["hatch"]  # then it can try a Hatchway within 1"
    except StopIteration:
        pass
    assert 2.9 < _moved(g, u, before) <= 3 + 1e-6
    assert moments.usable(g, "A", "after_shot", u.uid) == []  # once a phase for the unit


def test_a_free_move_then_a_hatchway_the_unit_is_within_1_inch_of():
    """Stalwart Advance, "... and can then attempt to operate a Hatchway" (one within 1")."""
    g = game(army("leagues_of_votann_void_salvagers"))
    u = g.army_units("A")[-1]
    i = next(h.index for h in g.map.layout.hatchways if not g.bf.is_open(h.index))
    _beside(g, i, u, 1)
    kept.touch(g)
    _phase(g, "shooting")
    e = g.army_units("B")[-1]
    e.where = "destroyed"
    u.volley = ((e.uid, 1, 1),)
    steps = moments.moment(g, "after_shot", "A", u)
    next(steps)
    steps.send(parse(f"use {u.uid} Stalwart Advance"))
    d = steps.send(Action("pass"))  # no move: still beside the Hatchway
    assert d.step == "freemove" and d.info["hatch"]
    assert Action("hatch", u.uid, arg=str(i + 1)) in movement.legal_freemove(g, d.info)
    g.dice = Dice.scripted([])
    with pytest.raises(StopIteration):
        steps.send(Action("hatch", u.uid, arg=str(i + 1)))  # no enemy unit near: it opens
    assert g.bf.is_open(i)


def test_greedy_bot_moves_with_harassing_fire_only_a_unit_with_no_charge_to_lose():
    from bagm.engine.bots import make_bot
    from bagm.engine.state.core import Decision

    g = game(army("genestealer_cults_cult_unveiled"))
    mine = g.army_units("A")
    for i, u in enumerate(mine):
        place(g, u.uid, [(4.0 + 2 * i, 28.0)])
    bot = make_bot("greedy")
    _phase(g, "shooting")
    mid = 4.0 + len(mine)
    for (x, y), used in (((60.0, 2.0), True), ((mid, 20.0), False)):  # far off; within 12" of every unit
        for j, v in enumerate(g.army_units("B")):
            place(g, v.uid, [(x + 2 * j if used else x, y - 2 * j if not used else y)])
        kept.touch(g)
        assert not any(bot.on_marker(g, u) for u in mine)
        g.decision = Decision("use", "A", {"timing": "phase_end"})
        assert (bot(g).kind == "use") == used


def test_fanatical_onslaught_a_rush_move_toward_the_unit_whose_attacks_destroyed_models():
    """Fanatical Onslaught: "each time an enemy unit has shot, if one or more models from one or
    more HERETIC ASTARTES units from your army were destroyed as a result of those attacks, each
    such unit can make a Rush move ... up to 3\\", but must end that move as close as possible to
    the attacking unit ... cannot make a Rush move while it is Battle-shocked, and can only make
    one Rush move per turn." Hit but no model destroyed: no move."""
    g = game(army("heretic_astartes_underdeck_uprising"))
    u = next(x for x in g.army_units("A") if len(x.models) >= 3)
    e = g.army_units("B")[-1]
    place(g, u.uid, block(14)[:3])
    place(g, e.uid, block(24, dx=1.4))
    kept.touch(g)
    _phase(g, "shooting", "B")
    e.volley = ((u.uid, 4, 0),)
    with pytest.raises(StopIteration):
        next(shooting.rushes(g, e))  # no model destroyed
    e.volley = ((u.uid, 4, 1),)
    u.battleshocked = True
    with pytest.raises(StopIteration):
        next(shooting.rushes(g, e))
    u.battleshocked = False
    before = [(m.x, m.y) for m in u.models]
    gap = positions.unit_distance(g, u, e)
    steps = shooting.rushes(g, e)
    d = next(steps)
    assert d.step == "freemove" and d.info["rush"] == e.uid and d.info["reach"] == "3"
    g.dice = Dice.scripted([])  # 3": no roll
    with pytest.raises(StopIteration):
        steps.send(movement.legal_freemove(g, d.info)[0])
    assert 2.9 < _moved(g, u, before) <= 3 + 1e-6
    assert positions.unit_distance(g, u, e) < gap - 2.5  # toward the attacking unit
    with pytest.raises(StopIteration):
        next(shooting.rushes(g, e))  # one Rush move per turn


def test_wraith_marked_a_passed_leadership_test_secures_the_marker_minus_2_for_wraith_constructs():
    """Wraith-Marked: "in your Command phase, you can select one AELDARI unit from your army within
    range of an objective marker you control. That unit must take a Leadership test, subtracting 2
    from the result if it has the WRAITH CONSTRUCT keyword: if passed, that objective marker is
    Secured by your army." A roll of exactly its Leadership passes, but not for a WRAITH
    CONSTRUCT unit; a marker the army does not control: not offered."""
    name = "Wraith-Marked"
    for wraith, extra, secured in ((False, 0, True), (True, 0, False), (True, 2, True)):
        g = game(army("aeldari_wraiths_of_the_void"))
        u = next(x for x in g.army_units("A") if ("WRAITH CONSTRUCT" in x.keywords) == wraith)
        on_marker(g, u)
        kept.touch(g)
        _phase(g, "command")
        g.control[0] = "B"
        assert all(a.unit != u.uid for a in moments.usable(g, "A", "phase_start"))
        g.control[0] = "A"
        assert f"use {u.uid} {name}" in [a.text() for a in moments.usable(g, "A", "phase_start")]
        ld = u.leadership() + extra
        g.dice = Dice.scripted([ld // 2, ld - ld // 2])
        moments.use_rule(g, "A", parse(f"use {u.uid} {name}"))
        g.dice.assert_consumed()
        test = [e for e in g.events if e["e"] == "leadership_test"][-1]
        assert test["passed"] == secured and test.get("mod", 0) == (-2 if wraith else 0)
        assert (g.secured[0] == "A") == secured
        assert moments.usable(g, "A", "phase_start") == []  # one unit a phase


def test_priority_quarry_the_warlord_and_one_selected_unit_rerolls_and_unseen_charges():
    """Priority Quarry: "at the start of the first battle round, you can select up to two enemy
    units to be your army's quarry, one of which must be your opponent's WARLORD. Each time an
    ANATHEMA PSYKANA unit from your army makes an attack that targets one of your army's
    quarries, re-roll a Hit roll of 1 ... it can include one or more of your army's quarries as
    targets of that charge, even if they are not visible to it." Other enemy units: neither."""
    g = game(army("adeptus_custodes_black_ship_guardians"))  # the first legal choices: a selection
    marked = [e for e in g.army_units("B") if "Priority Quarry" in e.marked]
    assert len(marked) == 2 and sum(e.warlord for e in marked) == 1
    u = next(x for x in g.army_units("A") if "ANATHEMA PSYKANA" in x.keywords)
    q = next(e for e in marked if not e.warlord)
    other = next(e for e in g.army_units("B") if e not in marked)
    assert effect_conditions(u, q, GUN, Conditions()).reroll_hits.name == "ones"
    assert effect_conditions(u, other, GUN, Conditions()).reroll_hits.name == "none"
    # one attack at the quarry: a Hit roll of 1, re-rolled: 3 hits (BS 3+), wound 6, save 1
    g.dice = Dice.scripted([1, 3, 6, 1])
    assert declined(shooting.attack(g, u, q, SHOT, 1, Conditions(), None, ranged=True))[0] == 1
    g.dice.assert_consumed()
    g.dice = Dice.scripted([1])  # the other unit: no re-roll
    assert declined(shooting.attack(g, u, other, SHOT, 1, Conditions(), None, ranged=True)) == (0, 0)
    # a charge at a quarry not visible (around a corner), not at another unit so placed
    for e in (q, other):
        assert _hidden_near(g, u, e), "no place out of sight within 12 inches"
        if e is q:
            g.check_as("charge", "A", Action("charge", u.uid, target=e.uid))
        else:
            with pytest.raises(IllegalAction, match="not visible"):
                g.check_as("charge", "A", Action("charge", u.uid, target=e.uid))
        place(g, e.uid, [(60.0, 2.0)])
        kept.touch(g)


def _hidden_near(g: Game, u: Unit, e: Unit) -> bool:
    """Put ``e`` (one model) where ``u`` cannot see it, within 12" of it (around Walls) and not
    in Engagement Range: a search of the battlefield around ``u``."""
    ux, uy = u.models[0].x, u.models[0].y
    for dx in range(-11, 12):
        for dy in range(-11, 12):
            p = (ux + dx, uy + dy)
            if not movement.layout_ok(g, p):
                continue
            try:
                place(g, e.uid, [p])
            except ValueError:
                continue
            kept.touch(g)
            if not positions.fits(g, e.models[0].base) or positions.engaged(g, u, e) or sight.visible_idx(g, u, e):
                continue
            if positions.unit_distance(g, u, e) <= 11.5:
                return True
    return False


def _off_hatch(g: Game, i: int, u: Unit, gap: float, side: int = 1) -> tuple[float, float]:
    """Put ``u`` (one model) ``gap`` inches from closed Hatchway ``i``'s door (straight out from
    its centre, on one side); the point as far out on the other side."""
    h = g.map.layout.hatchways[i]
    cx, cy = h.centre
    off = u.radius + gap
    pt = (cx, cy + side * off) if h.horizontal else (cx + side * off, cy)
    place(g, u.uid, [pt])
    kept.touch(g)
    return (cx, cy - side * (off + 1)) if h.horizontal else (cx - side * (off + 1), cy)


def _open_ground(g: Game, u: Unit, gap: float) -> tuple[int, tuple[float, float]]:
    """A closed Hatchway and a side of it where ``u`` put ``gap`` inches from its door is that far
    from it around Walls too (no Wall between); the point beyond it."""
    for h in g.map.layout.hatchways:
        for side in (1, -1):
            if g.bf.is_open(h.index):
                continue
            beyond = _off_hatch(g, h.index, u, gap, side)
            m = u.models[0]
            if movement.layout_ok(g, (m.x, m.y)) and abs(g.bf.distance_to_hatchway(m.base, h.index) - gap) < 0.3:
                return h.index, (round(beyond[0], 2), round(beyond[1], 2))
    raise AssertionError("no open ground beside a closed Hatchway")


def test_unerring_strike_operates_a_closed_hatchway_on_the_way_of_a_normal_move_2_inches_shorter():
    """Unerring Strike: "each time an AELDARI unit from your army makes a Normal move, while making
    that move, it can attempt to operate a closed Hatchway that is within 1\\" of it at any point
    during that move, provided that there are no enemy units within 1\\" of that Hatchway ...
    reduce the distance each model in that unit can move by 2\\" ... and it cannot operate a
    Hatchway again this turn." Beyond its Move less 2" (plus 1"): not offered."""
    for gap, offered in ((2.0, True), (None, False)):
        g = game(army("aeldari_khaines_arrow"))
        advance_to(g, "move")
        u = next(x for x in g.army_units("A") if x.move() >= 6)
        far = u.move() - 2 + 1.0 + 0.5  # just beyond what a move 2" shorter reaches, plus 1"
        i, beyond = _open_ground(g, u, gap if gap is not None else far)
        for e in g.army_units("B"):
            place(g, e.uid, [(60.0 - 2 * int(e.uid[1:]), 2.0)])
        kept.touch(g)
        before = (u.models[0].x, u.models[0].y)
        g.apply(Action("move", u.uid, point=beyond))
        if not offered:
            assert g.decision.step != "freemove"
            continue
        d = g.decision
        assert d.step == "freemove" and d.info["options"] == [i + 1]
        g.dice = Dice.scripted([])  # no enemy unit near: it opens, no roll-off
        g.apply(Action("hatch", u.uid, arg=str(i + 1)))
        assert g.bf.is_open(i) and hatchways.hatch_spent(g, u)
        moved = ((u.models[0].x - before[0]) ** 2 + (u.models[0].y - before[1]) ** 2) ** 0.5
        assert moved <= u.move() + 1e-6 and u.move() == u.M - 2  # 2" less this phase
        assert moved > 2.0  # through the Hatchway it opened


def test_unerring_strike_not_with_an_enemy_unit_within_1_inch_of_the_hatchway():
    g = game(army("aeldari_khaines_arrow"))
    advance_to(g, "move")
    u = next(x for x in g.army_units("A") if x.move() >= 6)
    i, beyond = _open_ground(g, u, 2.0)
    e = g.army_units("B")[-1]
    _beside(g, i, e, -1)
    kept.touch(g)
    g.apply(Action("move", u.uid, point=beyond))
    assert g.decision.step != "freemove"


@pytest.mark.parametrize(("extra", "offered"), [(-0.5, True), (0.5, False)])
def test_beseechment_codes_a_hatchway_within_its_whole_move(extra, offered):
    """Beseechment Codes: as Unerring Strike for VOIDFARERS units, without the 2" less: a closed
    Hatchway within its Move (plus 1") is offered, one farther is not."""
    g = game(army("agents_of_the_imperium_voidships_company"))
    advance_to(g, "move")
    u = next(x for x in g.army_units("A") if "VOIDFARERS" in x.keywords)
    i, beyond = _open_ground(g, u, u.move() + 1.0 + extra)
    for e in g.army_units("B"):
        place(g, e.uid, [(60.0 - 2 * int(e.uid[1:]), 2.0)])
    kept.touch(g)
    g.apply(Action("move", u.uid, point=beyond))
    assert (g.decision.step == "freemove") == offered
    if offered:
        g.apply(Action("pass"))
        assert u.move() == u.M and not hatchways.hatch_spent(g, u)


@pytest.mark.parametrize("across", [True, False])
def test_brutal_entrance_an_opened_hatchway_stays_open_and_plus_1_to_charge_through_it(across):
    """Brutal Entrance: "each time a KHORNE LEGIONES DAEMONICA unit from your army opens a
    Hatchway, until the end of the battle, that Hatchway cannot be closed. In addition, until the
    end of the turn, each time that unit declares a charge, if every target of that charge is on
    the opposite side of that Hatchway from your unit, add 1 to the charge roll." A target on
    the unit's own side: no +1."""
    g = game(army("legiones_daemonica_infernal_onslaught"))
    advance_to(g, "move")
    u, v = [x for x in g.army_units("A") if "KHORNE" in x.keywords][:2]
    i = next(h.index for h in g.map.layout.hatchways if not g.bf.is_open(h.index))
    _beside(g, i, u, 1)
    e = g.army_units("B")[-1]
    for x in g.army_units("B"):
        if x is not e:
            x.where = "reserves"  # out of the way
    place(g, e.uid, [(60.0, 28.0)])
    kept.touch(g)
    g.apply(Action("done"))  # Operating Hatchways
    g.dice = Dice.scripted([])
    g.apply(Action("hatch", u.uid, arg=str(i + 1)))
    assert g.bf.is_open(i) and g.hatch_jammed == {i: "Brutal Entrance"}
    _beside(g, i, v, 1)
    kept.touch(g)
    with pytest.raises(IllegalAction, match="cannot be closed"):
        g.check_as("hatch", "A", Action("hatch", v.uid, arg=str(i + 1)))
    place(g, v.uid, [(60.0, 28.0)])
    # the enemy unit 4" beyond the Hatchway (or 4" on the unit's own side)
    h = g.map.layout.hatchways[i]
    cx, cy = h.centre
    side = -1 if across else 1
    off = 4.5 if across else 0.0
    pt = (cx, cy + side * off) if h.horizontal else (cx + side * off, cy)
    if not across:  # beside the unit, along the wall
        pt = (cx + 3.0, cy + u.radius + 0.35) if h.horizontal else (cx + u.radius + 0.35, cy + 3.0)
    place(g, e.uid, [pt])
    kept.touch(g)
    assert g.bf.wholly_opposite_sides(u.bases, e.bases, i) == across
    advance_to(g, "charge")
    g.dice = Dice.scripted([3, 3])
    g.apply(Action("charge", u.uid, target=e.uid))
    while g.decision.step in ("reroll", "overwatch", "use"):
        g.apply(Action("pass"))
    roll = next(x for x in g.events if x["e"] == "charge_roll")["roll"]
    assert roll == (7 if across else 6)


# --- Objective Control under the game's conditions -----------------------------------------------


def test_an_oc_modifier_that_holds_while_near_a_marker_counts_in_objective_control():
    # Core Rules "Objective Control": a unit's OC with its modifiers; the modifier here holds only
    # while the unit is within range of a marker (a condition only the game answers)
    g = game(army("grey_knights_void_purge_force"))
    u = next(u for u in g.army_units("A") if not u.mixed_oc and len(u.models) >= 3)
    u.standing = (*u.standing, ("Test rule", TypeAdapter(Effect).validate_python({"OC_mod": 2, "only_while": "near_objective"})))
    on_marker(g, u)
    for v in g.units.values():
        if v is not u and v.alive:
            off_markers(g, v)
    assert u.oc() == u.OC  # without the game the condition is not known to hold
    assert u.oc(None, holds_in(g)) == u.OC + 2
    level = control.levels_of_control(g)[0]["A"]
    counted = sum(1 for m in u.models if g.bf.in_objective_range(m.base, g.map.layout.markers[0]))
    assert counted and level == counted * (u.OC + 2)
    off_markers(g, u)
    assert u.oc(None, holds_in(g)) == u.OC and control.levels_of_control(g)[0]["A"] == 0


def test_half_glimpsed_shadows_target_destroyed_by_an_earlier_weapon_of_the_shooting():
    """Half-Glimpsed Shadows splits each weapon's attacks by the models within 6" of the target;
    a target the first weapon destroyed has no model left to measure to, so the later weapons
    find no one (as against any destroyed target), not a crash. A game a property test found:
    a Terminator Squad's Smite destroys the Genestealers, then its storm bolter is resolved."""
    g = Game(1, army("great_devourer_infestation_swarm"), army("adeptus_astartes_terminator_assault", "B"), seed=164)
    bot = make_bot("greedy", 164)
    while g.decision.step != "over":
        g.apply(bot(g))
    wiped = [e for e in g.events if e["e"] == "shoot" and e["left"] == 0 and len(e["weapons"]) > 1
             and g.units[e["target"]].affected and effect_least(g.units[e["target"]], "against_beyond") == 6]
    assert wiped  # the case: a Half-Glimpsed Shadows target destroyed with a weapon still to resolve
