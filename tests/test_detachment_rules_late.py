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
from bagm.engine.game import armyrules, charge, hatchways, kept, moments, movement, positions, shooting, sight
from bagm.engine.game.sequence import Game
from bagm.engine.rules.effects import effect_defence, holds_in
from bagm.engine.state.actions import parse
from bagm.engine.state.army import Unit


def attack(g: Game, u: Unit, t: Unit, w, dice: list[int]) -> tuple[int, int]:
    """``u`` attacks ``t`` with one model's ``w``, Command Re-rolls declined; every die used."""
    g.dice = Dice.scripted(dice)
    got = declined(shooting.attack(g, u, t, w, 1, Conditions(), None, ranged=not w.melee))
    g.dice.assert_consumed()
    return got


def raw_game(a, stop) -> Game:
    """A game of ``a`` (A, the Attacker, first turn) against Orks, each decision taken as the first
    legal one (set up, done or pass), until ``stop(g)`` holds."""
    from bagm.engine.state.actions import Action

    g = Game(11, a, army("orks_kaptin_killers", "B"), dice=Dice(5), rolloffs={"attacker": "A", "first_turn": "A"})
    for _ in range(300):
        if stop(g):
            return g
        legal = g.legal_actions()
        g.apply(next((x for x in legal if x.kind in ("deploy", "done")), None) or
                (Action("pass") if Action("pass") in legal else legal[0]))
    raise AssertionError("never reached")


def round_start_game(name: str) -> Game:
    return raw_game(army(name), lambda g: g.decision.step == "use" and g.decision.player == "A"
                    and g.decision.info.get("timing") == "round_start")


def at_round_start(g: Game) -> list[str]:
    """The rules player A can use now, at the start of the battle round."""
    assert g.decision.step == "use" and g.decision.info.get("timing") == "round_start", g.decision
    return sorted(a.arg or "" for a in g.legal_actions() if a.kind == "use")


# --- Procedural Elimination (Response Clade) ------------------------------------------------------


def test_procedural_elimination_rerolls_hit_rolls_of_1_of_the_selected_type_until_the_round_ends():
    """Procedural Elimination: "at the start of the battle round, select either melee attacks or
    ranged attacks. Until the end of the battle round, each time a SKITARII model from your army
    makes an attack of the selected type, re-roll a Hit roll of 1"."""
    g = round_start_game("adeptus_mechanicus_response_clade")
    assert {"Procedural Elimination: Melee", "Procedural Elimination: Ranged"} <= set(at_round_start(g))
    g.apply(parse(next(a.text() for a in g.legal_actions() if a.arg == "Procedural Elimination: Ranged")))
    assert not any((a.arg or "").startswith("Procedural Elimination") for a in g.legal_actions())  # one a round
    u = next(x for x in g.army_units("A") if "SKITARII" in x.keywords)
    t = g.army_units("B")[0]
    assert all(n == "Procedural Elimination: Ranged" for v in g.army_units("A") for n, _, w in v.timed
               if n.startswith("Procedural") and w == "round")
    g.dice = Dice.scripted([])
    assert attack(g, u, t, SHOT, [1, 3, 1]) == (0, 0)  # a Hit roll of 1 re-rolled: 3 hits, wound 1 fails
    assert attack(g, u, t, SHOT, [2]) == (0, 0)  # a 2: no re-roll
    assert attack(g, u, t, BLADE, [1, 1]) == (0, 0)  # melee attacks: not the selected type
    moments.end_timed(g, "round")  # the end of the battle round
    assert attack(g, u, t, SHOT, [1]) == (0, 0)


def test_procedural_elimination_is_selected_again_each_round_and_the_bot_picks_one():
    g = round_start_game("adeptus_mechanicus_response_clade")
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
            if abs(positions.unit_distance(g, bearer, pro) - d) < 1e-6:
                break
        kept.touch(g)
        assert abs(positions.unit_distance(g, bearer, pro) - d) < 1e-6
        assert (effect_defence(pro, SHOT, holds)[0] == 4) == inside, d
    assert effect_defence(bearer, SHOT, holds)[0] == 4  # its own unit
    # an AP -3 attack: the armour save (3+ -> 6+) is worse than the 4+ invulnerable save; a 4 saves
    from dataclasses import replace

    place(g, pro.uid, [(x + gap + 1.0, y)])
    kept.touch(g)
    ap3 = replace(SHOT, ap=-3)
    assert attack(g, g.army_units("B")[0], pro, ap3, [3, 6, 4]) == (0, 0)
    place(g, pro.uid, [(x + gap + 5.0, y)])
    kept.touch(g)
    assert attack(g, g.army_units("B")[0], pro, ap3, [3, 6, 5])[0] == 1  # beyond 3": the 5 fails


# --- Appetite for Adulation (Ship-Killer Cult) ----------------------------------------------------


def pains(g: Game) -> list[tuple[str, int, str]]:
    return [(e["player"], e["gain"], e["why"]) for e in g.events if e["e"] == "pain"]


def _destroy(g: Game, dead: Unit, by: Unit) -> None:
    dead.models = []
    shooting.check_destroyed(g, dead, by=by)


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


# --- Raid and Pillage (Kabalite Corsairs) ---------------------------------------------------------


def _on_marker(g: Game, u: Unit, i: int = 0) -> None:
    mk = g.map.layout.markers[i]
    place(g, u.uid, [(mk.x, mk.y)])
    kept.touch(g)


@pytest.mark.parametrize("on, controller, same_phase, gained", [
    (True, "B", True, 1),  # on a marker its army controlled as the phase began
    (False, "B", True, 0),  # not within range of one
    (True, "A", True, 0),  # the marker was the Drukhari's
    (True, None, True, 0),  # nobody's
    (True, "B", False, 0),  # as an earlier phase began
])
def test_raid_and_pillage_a_pain_token_for_an_enemy_unit_destroyed_off_its_own_marker(on, controller, same_phase, gained):
    """Raid and Pillage: "each time a DRUKHARI unit from your army destroys an enemy unit, if that
    enemy unit was within range of an objective marker controlled by your opponent at the start of
    the phase, you gain 1 Pain token"."""
    from bagm.engine.rules.army_rules import raid_marks

    g = game(army("drukhari_kabalite_corsairs"))
    e, by = g.army_units("B")[1], g.army_units("A")[0]
    if on:
        _on_marker(g, e)
    else:
        place(g, e.uid, [(e.models[0].x, e.models[0].y)])
        assert not holds_in(g)(e, "near_objective")
    g.control[0] = controller
    raid_marks(g)  # the start of a phase
    if not same_phase:
        g.phase_id += 1
    before = len(pains(g))
    _destroy(g, e, by)
    assert [w for _, _, w in pains(g)[before:]].count("Raid and Pillage") == gained


def test_raid_and_pillage_expend_a_pain_token_to_secure_a_marker_a_kabal_unit_holds():
    """"In your Command phase, you can select one objective marker you control that has one or more
    KABAL units from your army within range of it, then expend 1 Pain token ... that objective is
    Secured by your army" (expended, not spent to Empower)."""
    g = game(army("drukhari_kabalite_corsairs"))
    kabal = unit(g, "Kabalite Warriors")
    incubi = unit(g, "Incubi")
    g.phase, g.active = "command", "A"
    _on_marker(g, kabal)
    g.control[0], g.pain["A"] = "A", 1
    use = f"use {kabal.uid} Raid and Pillage"
    assert [a.text() for a in moments.usable(g, "A", "phase_start")] == [use]
    g.control[0] = "B"
    assert moments.usable(g, "A", "phase_start") == []  # not a marker it controls
    g.control[0], g.pain["A"] = "A", 0
    assert moments.usable(g, "A", "phase_start") == []  # no Pain token to expend
    far = g.map.layout.markers[-1]  # on the battlefield, off marker 1 (the Archon's Overlord measures to it)
    place(g, kabal.uid, [(far.x, far.y)])
    _on_marker(g, incubi)
    g.pain["A"] = 1
    assert moments.usable(g, "A", "phase_start") == []  # Incubi are not KABAL
    _on_marker(g, kabal)
    moments.use_rule(g, "A", parse(use))
    assert g.secured[0] == "A" and g.pain["A"] == 0 and kabal.empowered != g.phase_id
    assert pains(g)[-1] == ("A", -1, "Raid and Pillage")
    assert moments.usable(g, "A", "phase_start") == []  # Secured now (and once a phase)


# --- Commorrite Rivalries and Power and Greed (Space Lane Raiders) --------------------------------


@pytest.mark.parametrize("attacker, victim, gained", [("Archon", True, 1), ("Wyches", True, 0), ("Archon", False, 0)])
def test_commorrite_rivalries_a_pain_token_for_each_enemy_character_model_a_character_destroys(
        attacker, victim, gained):
    """Commorrite Rivalries: "each time a DRUKHARI CHARACTER model from your army destroys an enemy
    CHARACTER model, you gain 1 Pain token"."""
    g = game(army("drukhari_space_lane_raiders"))
    t = next(e for e in g.army_units("B") if ("CHARACTER" in e.keywords) == victim)
    t.models = t.models[:1]
    t.models[0].wounds = 1
    attack(g, unit(g, attacker), t, SHOT, [3, 6, 1])  # a hit, a wound, a failed save: destroyed
    assert not t.alive
    assert [w for _, _, w in pains(g)].count("Commorrite Rivalries") == gained


def _to_command_window(g: Game) -> None:
    """The Succubus beside the Wyches (its Bodyguard); play on (passing) until A is asked about
    Battlefield Command in its own Command phase."""
    from bagm.engine.state.actions import Action

    succubus, wyches = unit(g, "Succubus"), unit(g, "Wyches")
    x, y = succubus.models[0].x, succubus.models[0].y
    if not wyches.models:  # in Reserves: set up beside the Succubus
        wyches.models, wyches.where = wyches.new_models([(x, y)]), "board"
    place(g, wyches.uid, [(x + succubus.radius + wyches.radius + 0.5, y)])
    kept.touch(g)
    assert positions.unit_distance(g, succubus, wyches) <= 6
    for _ in range(300):
        d = g.decision
        if d.step == "command" and d.player == "A" and g.phase == "command" and g.active == "A" and \
                any(a.kind == "command" for a in g.legal_actions()):
            return
        g.apply(Action("done") if d.step in ("move", "hatch", "manoeuvre", "shoot", "charge", "deploy")
                else Action("pass"))
    raise AssertionError("no Battlefield Command window")


@pytest.mark.parametrize("expend", [True, False])
def test_commorrite_rivalries_a_pain_token_pays_1cp_of_battlefield_command(expend):
    """"Each time you use the Battlefield Command Stratagem, you can expend 1 Pain token from your
    Pain token pool. If you do, decrease that Stratagem's cost by 1CP for that usage"."""
    from bagm.engine.state.actions import Action

    g = game(army("drukhari_space_lane_raiders"))
    g.dice = Dice(3)
    _to_command_window(g)
    cp, pain = g.cp["A"], g.pain["A"]
    assert pain >= 1
    g.apply(next(a for a in g.legal_actions() if a.kind == "command"))
    assert g.decision.step == "rule" and g.decision.info["rule"] == "Commorrite Rivalries"
    g.apply(Action("rule", arg="expend 1 Pain token") if expend else Action("pass"))
    assert (g.cp["A"], g.pain["A"]) == ((cp, pain - 1) if expend else (cp - 1, pain))


def test_commorrite_rivalries_no_offer_without_a_pain_token():
    g = game(army("drukhari_space_lane_raiders"))
    g.dice = Dice(3)
    _to_command_window(g)
    g.pain["A"] = 0
    cp = g.cp["A"]
    g.apply(next(a for a in g.legal_actions() if a.kind == "command"))
    assert g.decision.step != "rule" and g.cp["A"] == cp - 1


@pytest.mark.parametrize("roll, gained", [(2, 0), (3, 1), (6, 1)])
def test_power_and_greed_the_first_time_each_turn_the_bearer_is_empowered_a_3_plus_gains_a_pain_token(roll, gained):
    """Power and Greed: "the first time in each turn that the bearer is Empowered, roll one D6: on a
    3+, you gain 1 Pain token"."""
    from bagm.data.models import Moment
    from bagm.data.schema import validate
    from bagm.engine.rules.uses import use_of

    g = game(army("drukhari_space_lane_raiders"))
    archon, wyches = unit(g, "Archon"), unit(g, "Wyches")
    m = validate(Moment, {"when": "phase_start", "pain": 1, "once": "unit", "effects": [{"charge_after_advance": True}]})
    g.armies["A"].uses += (use_of(m, "Test Pain", "Enhancement"),)
    g.pain["A"] = 5
    g.dice = Dice.scripted([roll])
    moments.use_rule(g, "A", parse(f"use {archon.uid} Test Pain"))
    g.dice.assert_consumed()
    assert g.pain["A"] == 4 + gained
    g.phase_id += 1  # the same turn, another phase: no roll
    moments.use_rule(g, "A", parse(f"use {archon.uid} Test Pain"))
    assert g.pain["A"] == 3 + gained
    g.dice = Dice.scripted([])
    moments.use_rule(g, "A", parse(f"use {wyches.uid} Test Pain"))  # not the bearer: no roll
    g.turn += 1
    g.phase_id += 1
    g.dice = Dice.scripted([6])  # the next turn: a roll again
    moments.use_rule(g, "A", parse(f"use {archon.uid} Test Pain"))
    g.dice.assert_consumed()


# --- Arcanoscientific Expertise (Harbinger Cabal) -------------------------------------------------


ARCANO = "Arcanoscientific Expertise"


def _beside(g: Game, src: Unit, u: Unit, gap: float, tol: float = 1e-6) -> None:
    """``u`` (one model; set up from Reserves if need be) ``gap`` inches from ``src`` as the game
    measures, in the first open direction."""
    import math

    x, y = src.models[0].x, src.models[0].y
    if not u.models:
        u.models, u.where = u.new_models([(x, y)]), "board"
    d = src.radius + u.radius + gap
    for k in range(16):
        t = math.pi * k / 8
        place(g, u.uid, [(x + d * math.cos(t), y + d * math.sin(t))])
        kept.touch(g)
        if g.bf.layout.board_at((u.models[0].x, u.models[0].y)) is not None and \
                abs(positions.unit_distance(g, src, u) - gap) < tol:
            return
    raise AssertionError("no open direction")


def test_arcanoscientific_expertise_one_aura_for_each_cryptek_until_the_next_command_phase():
    """Arcanoscientific Expertise: "in your Command phase, for each CRYPTEK unit in your army,
    select one of the following abilities. Until the start of your next Command phase, your unit
    has that ability" - three Auras, "while a friendly NECRONS unit is within 6\" of this model"."""
    from bagm.engine.rules.effects import effect_sum, effect_weapon

    g = game(army("necrons_harbinger_cabal"))
    assert g.phase == "command" and g.active == "A"
    cryptek = [u for u in g.army_units("A") if "CRYPTEK" in u.keywords]
    offered = {a.text() for a in moments.usable(g, "A", "phase_start")}
    assert offered == {f"use {u.uid} {ARCANO}: {c}" for u in cryptek for c in
                       ("Hyperlocation Stutter", "Transharmonic Disruption", "Quantum Interface")}
    tech, chrono = cryptek[0], cryptek[1]
    moments.use_rule(g, "A", parse(f"use {tech.uid} {ARCANO}: Transharmonic Disruption"))
    left = {a.text() for a in moments.usable(g, "A", "phase_start")}
    assert not any(t.startswith(f"use {tech.uid} ") for t in left)  # one for each CRYPTEK unit
    assert any(t.startswith(f"use {chrono.uid} ") for t in left)
    moments.use_rule(g, "A", parse(f"use {chrono.uid} {ARCANO}: Quantum Interface"))
    moments.use_rule(g, "A", parse(f"use {cryptek[2].uid} {ARCANO}: Hyperlocation Stutter"))
    imm = unit(g, "Immortals")
    t = g.army_units("B")[0]
    for gap, inside in ((5.9, True), (6.0, True), (6.2, False)):
        _beside(g, tech, imm, gap)
        holds = holds_in(g)
        w = imm.ranged[0]
        assert effect_weapon(imm, w, t, holds).strength == w.strength + (1 if inside else 0), gap
    assert effect_weapon(tech, tech.ranged[0], t, holds_in(g)).strength == tech.ranged[0].strength + 1  # its own unit
    _beside(g, chrono, imm, 3.0)
    assert effect_defence(imm, SHOT, holds_in(g))[0] == 5
    _beside(g, cryptek[2], imm, 3.0)
    assert effect_sum(imm, "advance_mod", holds_in(g)) == 2 and effect_sum(imm, "advance_mod") == 0
    moments.end_timed(g, "next command A")  # the start of A's next Command phase
    assert effect_sum(imm, "advance_mod", holds_in(g)) == 0 and not imm.timed and not tech.timed


def test_hyperlocation_stutter_adds_2_to_an_advance_roll_within_6_inches():
    from conftest import advance_to

    from bagm.engine.state.actions import Action

    g = game(army("necrons_harbinger_cabal"))
    tech = next(u for u in g.army_units("A") if "CRYPTEK" in u.keywords)
    moments.use_rule(g, "A", parse(f"use {tech.uid} {ARCANO}: Hyperlocation Stutter"))
    imm = unit(g, "Immortals")
    _beside(g, tech, imm, 2.0)
    g.dice = Dice(7)  # (a Battle-shock test: the one model set up is Below Half-strength)
    advance_to(g, "move")
    place(g, tech.uid, [(12.0, 15.0)])  # open ground (as test_plus_1_to_advance_and_charge_rolls)
    place(g, imm.uid, [(14.0, 15.0)])
    kept.touch(g)
    assert positions.unit_distance(g, tech, imm) <= 6
    g.dice = Dice.scripted([3])
    g.apply(parse(f"advance {imm.uid} 40,15"))
    while g.decision.step == "reroll":
        g.apply(Action("pass"))
    g.dice.assert_consumed()
    roll = [e for e in g.events if e["e"] == "advance_roll"][-1]
    assert roll["roll"] == 3
    moved = [e for e in g.events if e["e"] == "move"][-1]["moved"]
    assert imm.move() + 3 + 1e-6 < moved <= imm.move() + 3 + 2 + 1e-9  # Move + the roll of 3 + 2


def test_greedy_bot_selects_an_aura_for_each_cryptek():
    bot = make_bot("greedy", 1)
    g = raw_game(army("necrons_harbinger_cabal"), lambda g: g.decision.step == "use" and g.decision.player == "A"
                 and g.phase == "command" and g.decision.info.get("timing") == "phase_start")
    picks = []
    while g.decision.step == "use":
        act = bot(g)
        if act.kind != "use":
            break
        picks.append(act.unit)
        g.apply(act)
    assert sorted(picks) == sorted(u.uid for u in g.army_units("A") if "CRYPTEK" in u.keywords)


# --- Manhunter's Helm (Interdiction Team) ---------------------------------------------------------


HELM = "Manhunter's Helm"


def test_manhunters_helm_plus_1_to_wound_the_priority_target_for_adeptus_arbites_units():
    """Manhunter's Helm: "at the start of the first Battle-round, select one enemy unit to be your
    Priority Target. Each time an ADEPTUS ARBITES model from your army makes an attack that targets
    your Priority Target, if the bearer of the enhancement is on the battlefield, add 1 to the Wound
    roll"."""
    g = game(army("agents_of_the_imperium_interdiction_team"))  # the first legal choices: a selection
    marked = [e for e in g.army_units("B") if HELM in e.marked]
    assert len(marked) == 1
    q = marked[0]
    other = next(e for e in g.army_units("B") if e is not q and e.T == q.T)
    # the Proctor-Exactant's Boarding Squad only ("the Boarding Squad holding it"): the first half
    assert [u.name for u in g.units.values() if u.enhancement == HELM] == ["Exaction Squad A"]
    bearer = next(u for u in g.army_units("A") if u.enhancement == HELM)
    arbites = next(u for u in g.army_units("A") if u is not bearer and "ADEPTUS ARBITES" in u.keywords)
    inquisitor = unit(g, "Inquisitor")
    assert q.T == other.T == 5  # S4 against T5: 5+ to wound
    for u in (bearer, arbites):
        assert attack(g, u, q, SHOT, [3, 4, 1])[0] == 1  # a 4 wounds (+1); the save fails
        assert attack(g, u, other, SHOT, [3, 4]) == (0, 0)  # not the Priority Target
    assert attack(g, inquisitor, q, SHOT, [3, 4]) == (0, 0)  # not ADEPTUS ARBITES
    bearer.models = []
    shooting.check_destroyed(g, bearer)  # "if the bearer is on the battlefield"
    assert attack(g, arbites, q, SHOT, [3, 4]) == (0, 0)


def test_manhunters_helm_a_new_priority_target_once_the_last_is_destroyed():
    """"Each time your Priority Target is destroyed, if the bearer is on the battlefield, you can
    select a new enemy unit to be your Priority Target" (reading: at the next Battlefield Command
    window, the end of that phase at the latest)."""
    from conftest import advance_to

    g = game(army("agents_of_the_imperium_interdiction_team"))
    g.dice = Dice(4)
    q = next(e for e in g.army_units("B") if HELM in e.marked)
    bearer = next(u for u in g.army_units("A") if u.enhancement == HELM)
    q.models = []
    shooting.check_destroyed(g, q, by=bearer)
    advance_to(g, "mark")
    assert g.decision.info["rule"] == HELM and g.decision.info["unit"] == bearer.uid
    legal = g.legal_actions()
    assert {a.target for a in legal} == {e.uid for e in g.army_units("B")}
    g.apply(legal[-1])
    assert [e.uid for e in g.army_units("B") if HELM in e.marked] == [legal[-1].target]
    # destroyed again with the bearer gone: no new selection
    t = g.unit(legal[-1].target)
    bearer.models = []
    shooting.check_destroyed(g, bearer)
    t.models = []
    shooting.check_destroyed(g, t)
    from bagm.engine.state.actions import Action

    start = g.phase_id
    while g.phase_id < start + 3 and g.decision.step != "over":  # three Battlefield Command windows on
        d = g.decision
        assert d.step != "mark"
        g.apply(Action("done") if d.step in ("move", "hatch", "manoeuvre", "shoot", "charge") else Action("pass"))


# --- Quill Marker (Kroot Raiding Party) -----------------------------------------------------------


def _hidden_within(g: Game, u: Unit, e: Unit, lo: float, hi: float) -> None:
    """Put ``u`` and ``e`` (one model each) where ``u`` cannot see ``e``, ``lo`` to ``hi`` inches
    apart (around Walls), not in Engagement Range: a search of the battlefield."""
    def put(v: Unit, p: tuple[float, float]) -> bool:
        if not movement.layout_ok(g, p):
            return False
        try:
            place(g, v.uid, [p])
        except ValueError:
            return False
        kept.touch(g)
        return positions.fits(g, v.models[0].base)

    for ax in range(4, 60, 4):
        for ay in range(3, 30, 4):
            if not put(u, (float(ax), float(ay))):
                continue
            for dx in range(-11, 12):
                for dy in range(-11, 12):
                    if not put(e, (float(ax + dx), float(ay + dy))) or positions.engaged(g, u, e) or sight.visible_idx(g, u, e):
                        continue
                    if lo <= positions.unit_distance(g, u, e) <= hi:
                        return
    raise AssertionError("no hidden place at that distance")


@pytest.mark.parametrize("lo, hi, kroot, allowed", [(2.0, 6.0, True, True), (6.5, 11.5, True, False),
                                                    (2.0, 6.0, False, False)])
def test_quill_marker_kroot_units_within_6_inches_can_charge_the_selected_unit_unseen(lo, hi, kroot, allowed):
    """Quill Marker: "at the start of your Charge phase, select one enemy unit within 12\" of the
    bearer. Until the end of the phase, each time a KROOT unit from your army declares a charge, if it
    is within 6\" of that enemy unit, it can include that enemy unit as a target of that charge, even if
    it is not visible to it"."""
    from bagm.engine.state.actions import Action
    from bagm.engine.state.core import IllegalAction

    g = game(army("tau_empire_kroot_raiding_party"))
    g.phase, g.active = "charge", "A"
    bearer = next(u for u in g.army_units("A") if u.enhancement == "Quill Marker")
    u = next(v for v in g.army_units("A") if v is not bearer and "KROOT" in v.keywords)
    if not kroot:
        u.keywords = u.keywords - {"KROOT"}
    e = g.army_units("B")[0]
    _hidden_within(g, u, e, lo, hi)
    place(g, bearer.uid, [(u.models[0].x, u.models[0].y)])  # the bearer where u stands: e within 12"
    place(g, u.uid, [(u.models[0].x, u.models[0].y)])
    kept.touch(g)
    quill = f"use {e.uid} Quill Marker"
    assert quill in [a.text() for a in moments.usable(g, "A", "phase_start")]
    with pytest.raises(IllegalAction, match="not visible"):
        g.check_as("charge", "A", Action("charge", u.uid, target=e.uid))
    moments.use_rule(g, "A", parse(quill))
    assert moments.usable(g, "A", "phase_start") == []  # one a phase
    if allowed:
        g.check_as("charge", "A", Action("charge", u.uid, target=e.uid))
    else:
        with pytest.raises(IllegalAction, match="not visible"):
            g.check_as("charge", "A", Action("charge", u.uid, target=e.uid))
    moments.end_timed(g, "phase")  # the end of the phase
    with pytest.raises(IllegalAction, match="not visible"):
        g.check_as("charge", "A", Action("charge", u.uid, target=e.uid))


def test_quill_marker_selects_only_an_enemy_unit_within_12_inches_of_the_bearer():
    g = game(army("tau_empire_kroot_raiding_party"))
    g.phase, g.active = "charge", "A"
    bearer = next(u for u in g.army_units("A") if u.enhancement == "Quill Marker")
    e = g.army_units("B")[0]
    for dx in range(-10, 11):  # the bearer 3" to 12" from e
        p = (e.models[0].x + dx, e.models[0].y)
        if movement.layout_ok(g, p):
            place(g, bearer.uid, [p])
            kept.touch(g)
            if positions.fits(g, bearer.models[0].base) and 3 <= positions.unit_distance(g, bearer, e) <= 12:
                break
    near = {e.uid for e in g.army_units("B") if positions.unit_distance(g, bearer, e) <= 12}
    assert e.uid in near and len(near) < len(g.army_units("B"))
    assert {a.unit for a in moments.usable(g, "A", "phase_start") if a.arg == "Quill Marker"} == near


# --- Charge and Advance rolls see the conditions that need the game -------------------------------


def test_a_charge_roll_modifier_under_a_game_condition_applies():
    """Charge rolls read the effects with the game's conditions (an aura's, 'near_battleline'), as
    Advance rolls do (Hyperlocation Stutter)."""
    from conftest import advance_to, block
    from test_detachment_rules import game as dgame

    from bagm.data.models import Effect
    from bagm.data.schema import validate
    from bagm.engine.state.actions import Action

    g = dgame(army("grey_knights_void_purge_force"))
    u, e = g.army_units("A")[-1], g.army_units("B")[-1]
    u.standing = (("Test", validate(Effect, {"charge_mod": 1, "only_while": "near_battleline"})),)
    u.keywords = u.keywords | {"BATTLELINE"}
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


# --- Song of Renewal (Wraiths of the Void) and Pox-Bearer (Unclean Uprising) ------------------------


def _set_up(g: Game, u: Unit, near: Unit, gap: float) -> None:
    """``u`` with its models set up in a line ``gap`` inches from ``near`` (from Reserves if need be)."""
    x, y = near.models[0].x, near.models[0].y
    if not u.models:
        u.models, u.where = u.new_models([(x, y)] * u.starting), "board"
    _beside(g, near, u, gap)  # its first model; the others beside it
    x0, y0 = u.models[0].x, u.models[0].y
    u.models = u.new_models([(x0, y0)] * u.starting)
    positions.set_positions(g, u, [(x0, y0 + 2.1 * u.radius * k) for k in range(u.starting)])
    kept.touch(g)


def test_song_of_renewal_one_destroyed_model_back_in_your_command_phase_up_to_two_times():
    """Song of Renewal: "in your Command phase, the bearer can use this enhancement. If it does,
    select one friendly WRAITH CONSTRUCT unit within 6\" of, and visible to the bearer. Return one
    destroyed model to that WRAITH CONSTRUCT unit with its full wounds remaining. The bearer can only
    use this Enhancement up to two times"."""
    g = game(army("aeldari_wraiths_of_the_void"))
    bearer = next(u for u in g.army_units("A") if u.enhancement == "Song of Renewal")
    w = unit(g, "Wraithblades")
    g.phase, g.active = "command", "A"
    _set_up(g, w, bearer, 2.0)
    song = f"use {w.uid} Song of Renewal"
    assert song not in [a.text() for a in moments.usable(g, "A", "phase_start")]  # nothing destroyed yet
    w.models = w.models[:2]
    kept.touch(g)
    assert moments.usable(g, "A", "phase_start") and song in [a.text() for a in moments.usable(g, "A", "phase_start")]
    moments.use_rule(g, "A", parse(song))
    assert len(w.models) == 3 and w.models[-1].wounds == w.W
    assert positions.coherent(g, [(m.x, m.y) for m in w.models], w.radius)
    assert song not in [a.text() for a in moments.usable(g, "A", "phase_start")]  # once a phase
    g.phase_id += 1
    moments.use_rule(g, "A", parse(song))
    assert len(w.models) == 4
    g.phase_id += 1
    assert song not in [a.text() for a in moments.usable(g, "A", "phase_start")]  # "up to two times"
    g.phase_id += 1
    _beside(g, bearer, w, 6.5)  # beyond 6": not a target
    g.used.clear()
    w.models = w.models[:1]
    kept.touch(g)
    assert song not in [a.text() for a in moments.usable(g, "A", "phase_start")]


@pytest.mark.parametrize("rolled, lost, back", [(1, 5, 3), (3, 9, 5), (3, 2, 2)])
def test_pox_bearer_up_to_d3_plus_2_destroyed_poxwalkers_back_at_the_end_of_the_movement_phase(rolled, lost, back):
    """Pox-Bearer: "once per battle, at the end of your Movement phase ... select one friendly
    Poxwalkers units within 9\" and visible to the bearer, return up to D3+2 destroyed models to that
    unit"."""
    g = game(army("death_guard_unclean_uprising"))
    bearer = next(u for u in g.army_units("A") if u.enhancement == "Pox-Bearer")
    pox = unit(g, "Poxwalkers")
    g.phase, g.active = "movement", "A"
    _set_up(g, pox, bearer, 3.0)
    pox.models = pox.models[:pox.starting - lost]
    kept.touch(g)
    use = f"use {pox.uid} Pox-Bearer"
    assert use in [a.text() for a in moments.usable(g, "A", "phase_end")]
    g.dice = Dice.scripted([rolled])
    moments.use_rule(g, "A", parse(use))
    g.dice.assert_consumed()
    assert len(pox.models) == pox.starting - lost + back
    assert [e["returned"] for e in g.events if e["e"] == "reinforce"][-1] == back
    g.phase_id += 1
    pox.models = pox.models[:1]
    assert moments.usable(g, "A", "phase_end") == []  # once per battle


def test_greedy_bot_keeps_pox_bearer_until_enough_models_are_lost():
    from bagm.engine.bots.uses import use_choice
    from bagm.engine.state.core import Decision

    g = game(army("death_guard_unclean_uprising"))
    bearer = next(u for u in g.army_units("A") if u.enhancement == "Pox-Bearer")
    pox = unit(g, "Poxwalkers")
    g.phase, g.active = "movement", "A"
    _set_up(g, pox, bearer, 3.0)
    g.round = 2
    bot = make_bot("greedy", 1)
    full = list(pox.models)
    for lost, wanted in ((1, False), (3, False), (4, True)):  # D3+2 returns 4 on average
        pox.models = full[:pox.starting - lost]
        kept.touch(g)
        legal = moments.usable(g, "A", "phase_end")
        assert legal
        g.decision = Decision("use", "A", {"timing": "phase_end"})
        assert (use_choice(bot, g, legal) is not None) == wanted, lost
    pox.models = full[:pox.starting - 1]
    g.round = 4  # in the last rounds: any model lost
    assert use_choice(bot, g, moments.usable(g, "A", "phase_end")) is not None


def test_two_roster_units_of_one_name_keep_their_own_enhancements():
    """Two unlabelled Spiritseers: each plays its own Enhancement (the second's used to replace the
    first's: muster looked roster units up by their display name)."""
    g = game(army("aeldari_wraiths_of_the_void"))
    assert sorted(u.enhancement or "" for u in g.units.values() if u.datasheet.name == "Spiritseer") == \
        ["Direct Guidance", "Song of Renewal"]


# --- Synaptic Beacon (Biotide) --------------------------------------------------------------------


@pytest.mark.parametrize("gap, beacon, inside", [(8.9, True, True), (9.0, True, True), (9.3, True, False),
                                                 (8.0, False, False)])
def test_synaptic_beacon_tyranids_units_within_9_inches_are_within_synapse_range(gap, beacon, inside):
    """Synaptic Beacon: "while a friendly TYRANIDS unit is within 9\" of the bearer (ignoring Walls and
    closed Hatchways), that unit is within Synapse Range of the bearer and of your army" (6" without)."""
    from bagm.engine.rules.effects import effect_weapon, shock_dice

    g = game(army("tyranids_biotide"))
    primes = [u for u in g.army_units("A") if u.datasheet.name == "Winged Tyranid Prime"]
    bearer = next(u for u in primes if u.enhancement == "Synaptic Beacon")
    other = next(u for u in primes if u is not bearer)
    if not beacon:
        bearer.standing = tuple((n, e) for n, e in bearer.standing if n != "Synaptic Beacon")
    gaunts = unit(g, "Termagants")
    x, y = bearer.models[0].x, bearer.models[0].y
    if not gaunts.models:
        gaunts.models, gaunts.where = gaunts.new_models([(x, y)]), "board"
    place(g, other.uid, [(60.0 - x if x < 30 else 2.0, y)])  # the other SYNAPSE unit far away
    for dy in (0.0, 1.0, -1.0, 2.0):
        place(g, gaunts.uid, [(x + bearer.radius + gaunts.radius + gap, y + dy)])
        kept.touch(g)
        if abs(positions.min_straight(g, bearer, gaunts) - gap) < 0.3 and positions.min_straight(g, other, gaunts) > 6.5:
            break
    d = positions.min_straight(g, bearer, gaunts)
    assert d > 6.0 and positions.min_straight(g, other, gaunts) > 6.5
    assert holds_in(g)(gaunts, "synapse") == (inside and d <= 9.0 + 1e-9)
    w = gaunts.melee[0]
    assert effect_weapon(gaunts, w, g.army_units("B")[0], holds_in(g)).strength == w.strength + (1 if inside else 0)
    assert shock_dice(g, gaunts) == (3 if inside else 2)


# --- Stalking Menace (Infestation Swarm) ----------------------------------------------------------


def _pass_until(g: Game, stop) -> None:
    from bagm.engine.state.actions import Action

    for _ in range(400):
        if stop(g):
            return
        d = g.decision
        g.apply(Action("done") if d.step in ("move", "hatch", "manoeuvre", "shoot", "charge", "reinforce", "fight")
                and any(a.kind == "done" for a in g.legal_actions()) else Action("pass"))
    raise AssertionError("never reached")


def _menace_game() -> tuple[Game, Unit]:
    g = game(army("great_devourer_infestation_swarm"))
    g.dice = Dice(11)
    bearer = next(u for u in g.units.values() if u.enhancement == "Stalking Menace")
    _pass_until(g, lambda g: g.decision.step == "use" and g.decision.player == "A" and g.phase == "fight"
                and g.active == "B" and g.decision.info.get("timing") == "phase_end")
    return g, bearer


@pytest.mark.parametrize("arrives", [True, False])
def test_stalking_menace_into_strategic_reserves_then_back_by_deep_strike_or_destroyed(arrives):
    """Stalking Menace: "once per battle, at the end of your opponent's Fight phase, if the bearer is
    not within Engagement Range of one or more enemy units ... remove the bearer from the battlefield
    and place it into Strategic Reserves. It will arrive back on the battlefield in the Reinforcements
    step of your next Movement phase, as if it had the Deep Strike ability. If this is not possible,
    the bearer is destroyed. When the bearer is set up on the battlefield, until the end of the turn,
    it cannot declare a charge"."""
    from bagm.engine.state.actions import Action

    g, bearer = _menace_game()
    use = f"use {bearer.uid} Stalking Menace"
    assert use in [a.text() for a in g.legal_actions()]
    wounds = [m.wounds for m in bearer.models]
    g.apply(parse(use))
    assert bearer.where == "reserves" and not bearer.alive
    assert any(e["e"] == "reserves" and e["unit"] == bearer.uid for e in g.events)
    _pass_until(g, lambda g: g.decision.step == "reinforce" and g.decision.player == "A")
    assert g.active == "A" and g.round in (1, 2)
    ds = [a for a in g.legal_actions() if a.kind == "deepstrike" and a.unit == bearer.uid]
    assert ds  # as if it had Deep Strike (whatever the battle round)
    if arrives:
        g.apply(ds[0])
        assert bearer.alive and [m.wounds for m in bearer.models] == wounds
        assert "not eligible to charge" in (charge.charge_reason(g, bearer) or "")
    else:
        g.apply(Action("done"))
        assert bearer.where == "destroyed"
        assert any(e["e"] == "destroyed" and e["unit"] == bearer.uid for e in g.events)


def test_stalking_menace_not_from_engagement_range():
    g, bearer = _menace_game()
    enemy = g.army_units("B")[0]
    x, y = bearer.models[0].x, bearer.models[0].y
    place(g, enemy.uid, [(x + bearer.radius + enemy.radius + 0.5, y)])
    kept.touch(g)
    assert positions.engaged(g, bearer, enemy)
    assert moments.usable(g, "A", "phase_end") == []


def test_greedy_bot_stalks_away_when_hurt_and_off_a_marker():
    from bagm.engine.bots.objectives import on_marker_now

    g, bearer = _menace_game()
    bot = make_bot("greedy", 1)
    for e in g.army_units("B"):  # no enemy near
        if positions.min_straight(g, bearer, e) <= 12:
            place(g, e.uid, [(60.0 - bearer.models[0].x if bearer.models[0].x < 30 else 2.0, e.models[0].y)])
    kept.touch(g)
    assert not on_marker_now(g, bearer)  # (on one it holds: never used)
    assert all(positions.min_straight(g, bearer, e) > 12 for e in g.army_units("B"))
    assert bot(g).kind == "pass"  # unhurt, nobody near
    bearer.models[0].wounds = 1
    assert bot(g).text() == f"use {bearer.uid} Stalking Menace"


# --- Resurrection Protocols (Tomb Ship Complement) ------------------------------------------------


@pytest.mark.parametrize("roll, back", [(1, False), (2, True), (6, True)])
def test_resurrection_protocols_the_first_time_the_bearer_is_destroyed_a_2_plus_sets_it_back_up(roll, back):
    """Resurrection Protocols: "the first time the bearer is destroyed, roll one D6 at the end of the
    phase. On a 2+, set the bearer back up on the battlefield, as close as possible to where it was
    destroyed and not within Engagement range of any enemy units, with D3 wounds remaining"."""
    g = game(army("necrons_tomb_ship_complement"))
    bearer = next(u for u in g.units.values() if u.enhancement == "Resurrection Protocols")
    enemy = g.army_units("B")[0]
    x, y = bearer.models[0].x, bearer.models[0].y
    place(g, enemy.uid, [(x + bearer.radius + enemy.radius + 0.3, y)])  # in Engagement Range
    kept.touch(g)
    bearer.models[0].wounds = 1
    assert attack(g, enemy, bearer, SHOT, [3, 6, 1]) == (1, 1)
    assert bearer.where == "destroyed"
    g.dice = Dice.scripted([roll] + ([2] if back else []))  # the D6, then the D3 wounds
    armyrules.revivals(g)  # the end of the phase
    g.dice.assert_consumed()
    assert bearer.alive == back
    if back:
        assert bearer.models[0].wounds == 2  # a D3 of 2: 2 wounds remaining
        assert not positions.engaged(g, bearer, enemy)
        assert positions.unit_distance(g, bearer, enemy) < 3.0  # as close as possible
        bearer.models[0].wounds = 1
        attack(g, enemy, bearer, SHOT, [3, 6, 1])
        g.dice = Dice.scripted([])
        armyrules.revivals(g)  # "the first time": no second roll
        assert not bearer.alive


def test_resurrection_protocols_roll_comes_at_the_end_of_the_phase_in_play():
    g = game(army("necrons_tomb_ship_complement"))
    bearer = next(u for u in g.units.values() if u.enhancement == "Resurrection Protocols")
    bearer.models[0].wounds = 1
    attack(g, g.army_units("B")[0], bearer, SHOT, [3, 6, 1])
    assert bearer.where == "destroyed"
    g.dice = Dice(3)
    start = g.phase_id
    _pass_until(g, lambda g: g.phase_id >= start + 2)  # (the end of this phase, or of the next at the latest)
    rolls = [e for e in g.events if e["e"] == "rule_roll" and e["rule"] == "Resurrection Protocols"]
    assert len(rolls) == 1 and bearer.alive == (rolls[0]["roll"] >= 2)


# --- Rallying Cry (Protector Host) ----------------------------------------------------------------


def test_rallying_cry_two_guardians_units_in_the_bearers_entry_zone():
    """Rallying Cry: "in the Deploy Armies step, when the bearer is set up in an Entry Zone, you can
    set up two friendly GUARDIANS units within that Entry Zone instead of any other units" (one unit
    without the CHARACTER keyword per Entry Zone otherwise)."""
    g = Game(11, army("aeldari_protector_host"), army("orks_kaptin_killers", "B"), dice=Dice(5),
             rolloffs={"attacker": "A", "first_turn": "A"})

    def a_deploys(act: str | None) -> list[str]:
        """B sets up its first option until A is to set up; A's options (then ``act`` applied)."""
        for _ in range(60):
            d = g.decision
            if d.step == "deploy" and d.player == "A":
                break
            g.apply(g.legal_actions()[0])
        legal = [a.text() for a in g.legal_actions()]
        if act is not None:
            assert act in legal, (act, legal)
            g.apply(parse(act))
        return legal

    warlock, gd, sg, da = g.units["A2"], g.units["A3"], g.units["A5"], g.units["A7"]
    assert "GUARDIANS" in gd.keywords and "GUARDIANS" in sg.keywords and "GUARDIANS" not in da.keywords
    a_deploys(f"deploy {gd.uid} 1")  # a GUARDIANS unit first: the zone's one other unit
    legal = a_deploys(f"deploy {warlock.uid} 1")  # then the bearer
    assert f"deploy {sg.uid} 1" not in legal  # (before the bearer was set up there: one only)
    legal = a_deploys(f"deploy {sg.uid} 1")  # now a second GUARDIANS unit
    legal = a_deploys(None)
    assert gd.where == "board" and warlock.where == "board"
    assert not [t for t in legal if t.startswith("deploy") and t.endswith(" 1")], legal  # two: the zone is full
    assert any(t == f"deploy {da.uid} 2" for t in legal)


def test_without_rallying_cry_one_unit_per_entry_zone():
    g = Game(11, army("aeldari_protector_host"), army("orks_kaptin_killers", "B"), dice=Dice(5),
             rolloffs={"attacker": "A", "first_turn": "A"})
    g.units["A2"].standing = ()  # the Warlock without its Enhancement
    for act in ("deploy A3 1", "deploy A2 1"):
        for _ in range(60):
            if g.decision.step == "deploy" and g.decision.player == "A":
                break
            g.apply(g.legal_actions()[0])
        g.apply(parse(act))
    for _ in range(60):
        if g.decision.step == "deploy" and g.decision.player == "A":
            break
        g.apply(g.legal_actions()[0])
    assert "deploy A5 1" not in [a.text() for a in g.legal_actions()]


# --- Dark Rewards (Infernal Reavers) --------------------------------------------------------------


@pytest.mark.parametrize("dice, cp", [((4, 4), 0), ((4, 5), 1), ((6, 6), 1), ((1, 1), 0)])
def test_dark_rewards_a_dark_pact_leadership_test_of_9_plus_gains_1cp(dice, cp):
    """Dark Rewards: "each time a HERETIC ASTARTES model from your army takes a Leadership test for the
    Dark Pacts ability, on a 9+, you gain 1 CP" (a Dark Pact: a Moment with ``self_test``; failed, D3
    mortal wounds too)."""
    from bagm.data.models import Moment
    from bagm.data.schema import validate
    from bagm.engine.rules.uses import use_of

    g = game(army("heretic_astartes_infernal_reavers"))
    u = next(v for v in g.army_units("A") if "HERETIC ASTARTES" in v.keywords)
    m = validate(Moment, {"when": "selected_to_shoot", "once": "phase", "choice": "Lethal Hits", "self_test": "leadership",
                          "self_test_mortals": "D3", "effects": [{"weapon_abilities": [{"name": "lethal hits"}]}]})
    g.armies["A"].uses += (use_of(m, "Dark Pacts", "Ability", u.uid),)
    before = g.cp["A"]
    failed = sum(dice) < u.leadership()
    g.dice = Dice.scripted(list(dice) + ([1] if failed else []))  # the test; failed: a D3 of mortal wounds
    moments.use_rule(g, "A", parse(f"use {u.uid} Dark Pacts: Lethal Hits"))
    g.dice.assert_consumed()
    assert g.cp["A"] == before + cp


# --- Regenerative Agony (Painbringers) ------------------------------------------------------------


def test_regenerative_agony_a_pain_token_when_four_feel_no_pain_rolls_succeed_in_a_phase():
    """Regenerative Agony: "each time four or more Feel No Pain rolls are successful for
    HAEMONCULUS COVENS models from your army in a single phase, you gain 1 Pain token" (reading: once
    a phase, as the fourth succeeds)."""
    g = game(army("drukhari_painbringers"))
    h = unit(g, "Haemonculus")
    assert effect_defence(h, SHOT)[1] == 5  # Feel No Pain 5+
    foe = g.army_units("B")[0]

    def agony() -> int:
        return [w for _, _, w in pains(g)].count("Regenerative Agony")

    for i in range(1, 6):  # a hit, a wound, a failed save, a Feel No Pain roll of 5: ignored
        attack(g, foe, h, SHOT, [3, 6, 1, 5])
        assert agony() == (1 if i >= 4 else 0), i
    attack(g, foe, h, SHOT, [3, 6, 1, 4])  # a failed Feel No Pain roll does not count
    g.phase_id += 1  # the next phase counts anew
    for _ in range(4):
        attack(g, foe, h, SHOT, [3, 6, 1, 6])
    assert agony() == 2


def _empower(g: Game, u: Unit, dice: list[int]) -> None:
    from bagm.data.models import Moment
    from bagm.data.schema import validate
    from bagm.engine.rules.uses import use_of

    if not any(s.name == "Test Pain" for s in g.armies["A"].uses):
        m = validate(Moment, {"when": "phase_start", "pain": 1, "once": "unit", "effects": [{"charge_after_advance": True}]})
        g.armies["A"].uses += (use_of(m, "Test Pain", "Enhancement"),)
    g.pain["A"] = 5
    g.dice = Dice.scripted(dice)
    moments.use_rule(g, "A", parse(f"use {u.uid} Test Pain"))
    g.dice.assert_consumed()


@pytest.mark.parametrize("roll, regained", [(1, 0), (2, 1), (5, 1), (6, 2)])
def test_regenerative_agony_the_first_empowering_each_round_regains_wounds(roll, regained):
    """"Each battle round, the first time a HAEMONCULUS COVENS unit from your army becomes Empowered
    in that battle round, roll one D6: on a 2-5, one model in that unit regains 1 lost wound ...; on a
    6, one model in that unit regains up to two lost wounds"."""
    g = game(army("drukhari_painbringers"))
    h, wracks = unit(g, "Haemonculus"), unit(g, "Wracks")
    h.models[0].wounds = 1
    _empower(g, h, [roll])
    assert h.models[0].wounds == 1 + regained
    g.phase_id += 1
    _empower(g, wracks, [])  # not the first Empowering of the round: no roll
    g.round += 1
    g.phase_id += 1
    _empower(g, h, [1])  # the next battle round: a roll again


@pytest.mark.parametrize("roll, back", [(1, 0), (3, 1), (6, 1)])
def test_regenerative_agony_wracks_get_a_destroyed_model_back(roll, back):
    """"... or if that unit has the WRACKS keyword, one destroyed model is returned to it with it's
    full wounds remaining" (on a 6 too)."""
    g = game(army("drukhari_painbringers"))
    wracks = unit(g, "Wracks")
    if not wracks.models:
        wracks.models, wracks.where = wracks.new_models([(20.0, 15.0), (21.2, 15.0)]), "board"
        kept.touch(g)
    wracks.models = wracks.models[:2]
    kept.touch(g)
    _empower(g, wracks, [roll])
    assert len(wracks.models) == 2 + back and all(m.wounds == wracks.W for m in wracks.models)


# --- Voice of the Octed (Infernal Reavers) --------------------------------------------------------


@pytest.mark.parametrize("until", [None, "next", "their_turn"])  # however long the Pact's use lasts
@pytest.mark.parametrize("octed", [True, False])
def test_voice_of_the_octed_a_dark_pact_gives_both_abilities(octed, until):
    """Voice of the Octed: "each time the bearer's unit makes a Dark Pact, until the end of the Phase,
    weapons equipped by models in that unit gain both abilities conferred by that Dark Pact (instead of
    only one)" (Dark Pacts as data: one alternative for each ability, a Leadership test first)."""
    from bagm.data.models import Moment
    from bagm.data.schema import validate
    from bagm.engine.rules.effects import effect_weapon
    from bagm.engine.rules.uses import use_of

    g = game(army("heretic_astartes_infernal_reavers"))
    lord = next(u for u in g.units.values() if u.enhancement == "Voice of the Octed")
    u = lord if octed else next(v for v in g.army_units("A") if v is not lord and v.enhancement is None)
    g.armies["A"].uses = tuple(x for x in g.armies["A"].uses if x.group != "Dark Pacts")  # the pack's: replaced
    for choice, ab in (("Lethal Hits", {"name": "lethal hits"}), ("Sustained Hits", {"name": "sustained hits", "value": 1})):
        m = validate(Moment, {"when": "selected_to_shoot", "once": "phase", "choice": choice, "self_test": "leadership",
                              "self_test_mortals": "D3", "effects": [{"weapon_abilities": [ab]}],
                              **({"until": until} if until else {})})
        g.armies["A"].uses += (use_of(m, "Dark Pacts", "Ability", u.uid),)
    g.dice = Dice.scripted([6, 6])  # the Leadership test: passed
    moments.use_rule(g, "A", parse(f"use {u.uid} Dark Pacts: Lethal Hits"))
    g.dice.assert_consumed()
    w = effect_weapon(u, (u.ranged or u.melee)[0], g.army_units("B")[0])
    assert w.abilities.lethal_hits
    assert (w.abilities.sustained_hits is not None) == octed


# --- Horrifying Visage (Dread Carnival) -----------------------------------------------------------


VISAGE = "Horrifying Visage"


def _visage_game() -> tuple[Game, Unit, Unit]:
    """Orks (A) against the Dread Carnival (B): an Ork unit 5" from the bearer, in A's Shooting phase
    at its Tactical Manoeuvres."""
    from conftest import advance_to

    g = game(army("orks_kaptin_killers"), army("legiones_daemonica_dread_carnival", "B"))
    g.dice = Dice(2)
    bearer = next(u for u in g.units.values() if u.enhancement == VISAGE)
    if not bearer.models:
        bearer.models, bearer.where = bearer.new_models([(30.0, 15.0)]), "board"
    advance_to(g, "manoeuvre")
    ork = next(u for u in g.army_units("A") if shooting.manoeuvre_reason(g, u) is None)
    place(g, ork.uid, [(ork.models[0].x, ork.models[0].y)])  # one model
    place(g, bearer.uid, [(ork.models[0].x, ork.models[0].y)])
    _beside(g, ork, bearer, 5.0, tol=0.3)
    for e in g.army_units("B"):
        if e is not bearer and positions.engaged(g, e, ork):
            place(g, e.uid, [(58.0, 28.0)])
    kept.touch(g)
    return g, bearer, ork


@pytest.mark.parametrize("dice, fails", [((1, 1), True), ((6, 6), False)])
def test_horrifying_visage_a_failed_leadership_test_stops_a_tactical_manoeuvre(dice, fails):
    """Horrifying Visage: "once per battle round, when an enemy unit within 9\" of the bearer attempts
    to perform a Tactical Manoeuvre ..., the bearer can use this ability. If it does, that enemy unit
    must take a Leadership test, subtracting 1 from the result: if failed, that enemy unit fails to
    perform the Tactical Manoeuvre ... and, until the start of your opponents next turn, that unit
    cannot perform Tactical Manoeuvres or operate Hatchways"."""
    from bagm.engine.state.actions import Action

    g, bearer, ork = _visage_game()
    g.apply(Action("manoeuvre", ork.uid, target="defend"))
    d = g.decision
    assert d.step == "use" and d.player == "B" and d.info["timing"] == "enemy_attempt"
    assert [a.text() for a in g.legal_actions() if a.kind == "use"] == [f"use {ork.uid} {VISAGE}"]
    g.dice = Dice.scripted(list(dice))
    g.apply(parse(f"use {ork.uid} {VISAGE}"))
    g.dice.assert_consumed()
    test = [e for e in g.events if e["e"] == "leadership_test"][-1]
    assert test["mod"] == -1 and test["passed"] == (not fails)
    assert ork.set_to_defend == (not fails)
    if fails:
        assert VISAGE in (shooting.manoeuvre_reason(g, ork) or "")
        assert hatchways.hatch_options(g, "A") == [] or all(a.unit != ork.uid for a in hatchways.hatch_options(g, "A"))
        moments.end_timed(g, "start A")  # the start of A's next turn
        assert VISAGE not in (shooting.manoeuvre_reason(g, ork) or "")


def test_horrifying_visage_once_per_battle_round_and_within_9_inches():
    from bagm.engine.state.actions import Action

    g, bearer, ork = _visage_game()
    _beside(g, ork, bearer, 9.6, tol=0.3)  # beyond 9": not offered
    g.apply(Action("manoeuvre", ork.uid, target="defend"))
    assert not (g.decision.step == "use" and g.decision.player == "B")
    assert ork.set_to_defend
    other = next((u for u in g.army_units("A") if shooting.manoeuvre_reason(g, u) is None), None)
    if other is not None:  # within 9" now; used once, not again this battle round
        place(g, other.uid, [(other.models[0].x, other.models[0].y)])
        _beside(g, other, bearer, 3.0, tol=0.3)
        g.used.add(("B", VISAGE, -g.round))
        g.apply(Action("manoeuvre", other.uid, target="defend"))
        assert not (g.decision.step == "use" and g.decision.player == "B")


def test_horrifying_visage_a_failed_test_stops_a_hatchway_being_operated():
    """"... or attempts to operate a Hatchway within 9\" of the bearer ... if failed, that enemy unit
    fails to ... operate the Hatchway" (reading: measured to the unit operating it)."""
    from conftest import advance_to
    from test_detachment_rules import _open_ground

    g = game(army("orks_kaptin_killers"), army("legiones_daemonica_dread_carnival", "B"))
    g.dice = Dice(2)
    bearer = next(u for u in g.units.values() if u.enhancement == VISAGE)
    advance_to(g, "move")
    ork = next(u for u in g.army_units("A") if not hatchways.hatch_spent(g, u))
    place(g, ork.uid, [(ork.models[0].x, ork.models[0].y)])
    i, _ = _open_ground(g, ork, 0.5)
    if not bearer.models:
        bearer.models, bearer.where = bearer.new_models([(30.0, 15.0)]), "board"
    for e in g.army_units("B"):  # the others far away; the bearer 4" from the Ork unit
        place(g, e.uid, [(58.0 - int(e.uid[1:]), 28.0)])
    _beside(g, ork, bearer, 4.0, tol=0.5)
    assert not any(positions.engaged(g, e, ork) for e in g.army_units("B"))
    from bagm.engine.state.actions import Action

    g.apply(Action("done"))  # the end of the Move Units step: Operating Hatchways
    assert g.decision.step == "hatch"
    g.apply(parse(f"hatch {ork.uid} {i + 1}"))
    assert g.decision.step == "use" and g.decision.player == "B"
    g.dice = Dice.scripted([1, 1])
    g.apply(parse(f"use {ork.uid} {VISAGE}"))
    g.dice.assert_consumed()
    assert not g.bf.is_open(i)
    assert all(a.unit != ork.uid for a in hatchways.hatch_options(g, "A"))


# --- Miasmic Odour (Arch-Contaminators) and Sevenfold Offerings (Vectors of Decay) -----------------


def _afflicted(g: Game, src: Unit, e: Unit) -> bool:
    """``e`` is Afflicted by ``src``'s Nurgle's Gift now (its -1 Toughness copy, one naming every
    source unit, applies: the tests keep the other sources out of range)."""
    mine = [x for n, x in e.standing if n == "Nurgle's Gift (Aura)" and x.T_mod == -1
            and any(c.startswith("aura ") and src.uid in c.split()[1].split(",") for c in x.only_while)]
    assert mine, "no Nurgle's Gift copy from that unit"
    return any(x in e.effects(holds_in(g)) for x in mine)


def _straight_from(g: Game, src: Unit, e: Unit, d: float) -> None:
    x, y = src.models[0].x, src.models[0].y
    place(g, e.uid, [(x + src.radius + e.radius + d, y)])
    kept.touch(g)
    assert abs(positions.min_straight(g, src, e) - d) < 1e-6


@pytest.mark.parametrize("d, inside", [(3.9, True), (4.0, True), (4.2, False)])
def test_miasmic_odour_adds_3_inches_to_the_bearers_contagion_range(d, inside):
    """Miasmic Odour: "add 3\" to the Contagion Range of the bearer" (1" in the first battle round
    with Slow Decay: 4")."""
    g = game(army("death_guard_arch_contaminators"))
    assert g.round == 1
    bearer = next(u for u in g.units.values() if u.enhancement == "Miasmic Odour")
    other = next(u for u in g.army_units("A") if u is not bearer and u.enemy_auras)
    e = g.army_units("B")[0]
    place(g, other.uid, [(58.0, 28.0)])
    _straight_from(g, bearer, e, d)
    assert _afflicted(g, bearer, e) == inside
    place(g, other.uid, [(bearer.models[0].x, bearer.models[0].y)])
    place(g, bearer.uid, [(58.0, 28.0)])
    _straight_from(g, other, e, 2.0)  # another unit's Contagion Range: 1"
    assert not _afflicted(g, other, e)


def test_sevenfold_offerings_every_seven_enemy_models_destroyed_add_2_inches():
    """Sevenfold Offerings: "for every seven enemy models that have been destroyed, add 2\" to the
    Contagion Range of units from your army"."""
    g = game(army("death_guard_vectors_of_decay"))
    src = next(u for u in g.army_units("A") if u.enemy_auras)
    e = g.army_units("B")[0]
    others = [v for v in g.army_units("B") if v is not e]
    for i, w in enumerate(u for u in g.army_units("A") if u is not src and u.enemy_auras):
        place(g, w.uid, [(58.0, 4.0 + 6.0 * i)])  # the other sources of the one aura out of range
    _straight_from(g, src, e, 2.5)  # 1" in round 1: not yet
    assert not _afflicted(g, src, e)
    lost = 0
    for v in others:  # six enemy models destroyed: not yet
        while v.models and lost < 6:
            v.models = v.models[:-1]
            lost += 1
    kept.touch(g)
    assert not _afflicted(g, src, e)
    v = next(v for v in others if v.models)
    v.models = v.models[:-1]  # the seventh: 3"
    kept.touch(g)
    assert _afflicted(g, src, e)
