"""Detachment rules and Enhancements modelled late (issue 13 s4): Procedural Elimination, The
Vratine Aquila, Appetite for Adulation, Raid and Pillage, Commorrite Rivalries, Power and Greed,
Arcanoscientific Expertise, Manhunter's Helm, Monoform Predators. Scripted dice, every roll
consumed; the armies are the bundled rosters or a small roster written here."""

from __future__ import annotations

import pytest
from conftest import declined, place
from test_detachment_rules import BLADE, SHOT, army, game, roster, unit

from bagm.chance.dice import Dice
from bagm.data.weapons import Anti
from bagm.engine.attack.rules import Conditions
from bagm.engine.bots import make_bot
from bagm.engine.game.sequence import Game
from bagm.engine.rules.effects import effect_defence, holds_in
from bagm.engine.state.actions import parse
from bagm.engine.state.army import Unit


def attack(g: Game, u: Unit, t: Unit, w, dice: list[int]) -> tuple[int, int]:
    """``u`` attacks ``t`` with one model's ``w``, Command Re-rolls declined; every die used."""
    g.dice = Dice.scripted(dice)
    got = declined(g.attack(u, t, w, 1, Conditions(), None, ranged=not w.melee))
    g.dice.assert_consumed()
    return got


def at_round_start(g: Game) -> list[str]:
    """The rules player A can use now, at the start of the battle round."""
    assert g.decision.step == "use" and g.decision.info.get("timing") == "round_start", g.decision
    return sorted(a.arg or "" for a in g.legal_actions() if a.kind == "use")


# --- Procedural Elimination (Response Clade) ------------------------------------------------------


def test_procedural_elimination_rerolls_hit_rolls_of_1_of_the_selected_type_until_the_round_ends():
    """Procedural Elimination: "at the start of the battle round, select either melee attacks or
    ranged attacks. Until the end of the battle round, each time a SKITARII model from your army
    makes an attack of the selected type, re-roll a Hit roll of 1"."""
    g = game(army("adeptus_mechanicus_response_clade"))
    assert {"Procedural Elimination: Melee", "Procedural Elimination: Ranged"} <= set(at_round_start(g))
    g.apply(parse(next(a.text() for a in g.legal_actions() if a.arg == "Procedural Elimination: Ranged")))
    assert not any((a.arg or "").startswith("Procedural Elimination") for a in g.legal_actions())  # one a round
    u = next(x for x in g.army_units("A") if "SKITARII" in x.keywords)
    t = g.army_units("B")[0]
    assert all(n == "Procedural Elimination: Ranged" for v in g.army_units("A") for n, _, w in v.timed
               if n.startswith("Procedural") and w == "round")
    assert attack(g, u, t, SHOT, [1, 3, 1]) == (0, 0)  # a Hit roll of 1 re-rolled: 3 hits, wound 1 fails
    assert attack(g, u, t, SHOT, [2]) == (0, 0)  # a 2: no re-roll
    assert attack(g, u, t, BLADE, [1, 1]) == (0, 0)  # melee attacks: not the selected type
    g.end_timed("round")  # the end of the battle round
    assert attack(g, u, t, SHOT, [1]) == (0, 0)


def test_procedural_elimination_is_selected_again_each_round_and_the_bot_picks_one():
    g = game(army("adeptus_mechanicus_response_clade"))
    g.dice = Dice(5)
    bot = make_bot("greedy", 1)
    picked = []
    for _ in range(4000):
        d = g.decision
        if d.step == "over":
            break
        if d.step == "use" and d.info.get("timing") == "round_start" and d.player == "A":
            act = bot(g)
            if (act.arg or "").startswith("Procedural Elimination"):
                picked.append((g.round, act.arg))
        else:
            act = bot(g)
        g.apply(act)
        if len({r for r, _ in picked}) >= 2:
            break
    rounds = [r for r, _ in picked]
    # once in each battle round (the bot used to pass after the first: the phase at the start of
    # a battle round still reads the last round's Fight phase)
    assert rounds[:2] == [1, 2], picked


# --- The Vratine Aquila (Black Ship Guardians) ----------------------------------------------------


def test_vratine_aquila_4_plus_invulnerable_save_for_anathema_psykana_units_within_3_inches(tmp_path):
    """The Vratine Aquila (Aura): "while a friendly ANATHEMA PSYKANA unit is within 3\" of the
    bearer, models in that unit have a 4+ invulnerable save" (the bearer's own unit too)."""
    a = roster(tmp_path, "Adeptus Custodes", "Black Ship Guardians",
               "unit: Knight-Centura, enhancement: The Vratine Aquila (Aura)", "unit: Prosecutors", "unit: Vigilators")
    g = game(a)
    bearer, pro = unit(g, "Knight-Centura"), unit(g, "Prosecutors")
    x, y = bearer.models[0].x, bearer.models[0].y
    holds = holds_in(g)
    gap = bearer.radius + pro.radius
    for d, inside in ((2.9, True), (3.0, True), (3.2, False)):
        for dy in (0.0, 1.0, -1.0, 2.0, -2.0):
            place(g, pro.uid, [(x + gap + d, y + dy)])
            if abs(g.unit_distance(bearer, pro) - d) < 1e-6:
                break
        g.touch()
        assert abs(g.unit_distance(bearer, pro) - d) < 1e-6
        assert (effect_defence(pro, SHOT, holds)[0] == 4) == inside, d
    assert effect_defence(bearer, SHOT, holds)[0] == 4  # its own unit
    # an AP -3 attack: the armour save (3+ -> 6+) is worse than the 4+ invulnerable save; a 4 saves
    from dataclasses import replace

    place(g, pro.uid, [(x + gap + 1.0, y)])
    g.touch()
    ap3 = replace(SHOT, ap=-3)
    assert attack(g, g.army_units("B")[0], pro, ap3, [3, 6, 4]) == (0, 0)
    place(g, pro.uid, [(x + gap + 5.0, y)])
    g.touch()
    assert attack(g, g.army_units("B")[0], pro, ap3, [3, 6, 5])[0] == 1  # beyond 3": the 5 fails


# --- Appetite for Adulation (Ship-Killer Cult) ----------------------------------------------------


def pains(g: Game) -> list[tuple[str, int, str]]:
    return [(e["player"], e["gain"], e["why"]) for e in g.events if e["e"] == "pain"]


def _destroy(g: Game, dead: Unit, by: Unit) -> None:
    dead.models = []
    g.check_destroyed(dead, by=by)


@pytest.mark.parametrize("phase, kills, gained", [("fight", 1, 0), ("fight", 2, 1), ("fight", 3, 1),
                                                  ("shooting", 2, 0)])
def test_appetite_for_adulation_a_pain_token_when_two_enemy_units_are_destroyed_in_a_fight_phase(
        phase, kills, gained):
    """Appetite for Adulation: "in the Fight phase, if two or more enemy units are destroyed by
    DRUKHARI units from your army that phase, you gain 1 Pain token" (one a phase; besides Power
    from Pain's token for each enemy unit destroyed)."""
    g = game(army("drukhari_ship_killer_cult"))
    g.phase = phase
    by = g.army_units("A")[0]
    before = len(pains(g))
    for dead in g.army_units("B")[:kills]:
        _destroy(g, dead, by)
    got = [w for _, _, w in pains(g)[before:]]
    assert got.count("Power from Pain") == kills
    assert got.count("Appetite for Adulation") == gained
    g.phase_id += 1  # the next phase counts anew
    if phase == "fight" and kills < 3:
        for dead in g.army_units("B")[:2]:
            _destroy(g, dead, by)
        assert [w for _, _, w in pains(g)].count("Appetite for Adulation") == gained + 1


def test_appetite_for_adulation_empowered_wych_cult_melee_weapons_gain_anti_infantry_4_plus():
    """"Each time a WYCH CULT unit from your army becomes Empowered in the Fight phase, until the
    end of the phase, melee weapons ... have the [ANTI-INFANTRY 4+] ability"."""
    from bagm.engine.rules.effects import effect_weapon

    g = game(army("drukhari_ship_killer_cult"))
    g.phase = "fight"
    wyches = unit(g, "Wyches")
    boyz = next(e for e in g.army_units("B") if "INFANTRY" in e.keywords)
    w = wyches.melee[0]
    assert effect_weapon(wyches, w, boyz, holds_in(g)).abilities.anti == ()
    wyches.empowered = g.phase_id
    holds = holds_in(g)
    assert Anti("INFANTRY", 4) in effect_weapon(wyches, w, boyz, holds).abilities.anti
    # a Wound roll of 4 (S4 against T5: 5+ needed) is a Critical Wound: it wounds
    assert attack(g, wyches, boyz, BLADE, [3, 1, 4, 1])[0] >= 1
    g.phase_id += 1  # the phase ended: no longer Empowered
    assert effect_weapon(wyches, w, boyz, holds_in(g)).abilities.anti == ()
    assert attack(g, wyches, boyz, BLADE, [3, 1, 4]) == (0, 0)  # the 4 fails to wound


# --- Monoform Predators (Boarding Swarm) ----------------------------------------------------------


@pytest.mark.parametrize("enhancement, want", [
    ("Monoform Predators", {"BA148"}),  # not given to a model
    ("Close-Quarters Killer", {"BA142", "BA148"}),  # a core Enhancement: barred too (and an EPIC HERO)
    (None, set()),
])
def test_monoform_predators_tyranids_models_of_the_detachment_cannot_be_given_enhancements(
        tmp_path, enhancement, want):
    """Monoform Predators: "TYRANIDS models in this detachment cannot be given Enhancements"."""
    from test_detachment_rules import _catalog

    from bagm.roster.model import load_roster
    from bagm.roster.validate import validate

    enh = f"\n    enhancement: {enhancement}" if enhancement else ""
    path = tmp_path / "swarm.yaml"
    path.write_text("name: Swarm\nfaction: Tyranids\ndetachment: Boarding Swarm\nunits:\n"
                    f"  - unit: Deathleaper\n    warlord: true{enh}\n  - unit: Lictor\n", encoding="utf-8")
    report = validate(load_roster(path), _catalog())
    got = {f.code for f in report.findings}
    assert got == want
    barred = [f for f in report.findings if f.code == "BA148"]
    assert all(f.line == 7 and "TYRANIDS" in f.message for f in barred)


def test_monoform_predators_counts_as_modelled_and_other_detachments_bar_nothing():
    from test_detachment_rules import _catalog

    from bagm.engine.game.muster import modelled_enhancement

    swarm = next(d for d in _catalog().faction("Tyranids").pack.detachments if d.name == "Boarding Swarm")
    assert [e.bars for e in swarm.enhancements] == [["TYRANIDS"]]
    assert modelled_enhancement(swarm.enhancements[0])
    assert [e.name for f in _catalog().all() for d in f.pack.detachments for e in d.enhancements if e.bars] == \
        ["Monoform Predators"]
