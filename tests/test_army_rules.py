"""Faction army rules and datasheet abilities used at a moment, in the engine: Oath of Moment (an
enemy unit marked at the start of each Command phase), Doctrina Imperatives (a choice for the
whole army at the start of the battle round), Martial Ka'tah (a choice each time a unit is
selected to fight), Zealot and Servo-skull Uplink (once per battle, per unit), Stand Vigil and
Purity of Execution (standing effects). Scripted dice, every roll consumed."""

from __future__ import annotations

import pytest
from conftest import REPO, place
from test_abilities import BLADE, GUN, attack, game, near_marker

from bagm.chance.dice import Dice
from bagm.data.packs import Catalog
from bagm.engine.bots import make_bot
from bagm.engine.game import control, deployment, moments, positions, shooting, sight
from bagm.engine.game.moments import OFFERED
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit

MARINES = str(REPO / "rosters" / "adeptus_astartes_boarding_strike.yaml")
MECHANICUS = str(REPO / "rosters" / "adeptus_mechanicus_response_clade.yaml")
CUSTODES = str(REPO / "rosters" / "adeptus_custodes_voyagers_into_darkness.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
SORORITAS = str(REPO / "rosters" / "adepta_sororitas_penitents_and_pilgrims.yaml")


def until(g: Game, stop, seed: int = 1) -> None:
    """Play both sides with the greedy bot until ``stop(g)`` holds at a decision."""
    bot = make_bot("greedy", seed)
    for _ in range(5000):
        if stop(g):
            return
        g.apply(bot(g))
    raise AssertionError("never reached")


def at_distance(g: Game, src: Unit, u: Unit, d: float, ok=lambda: True) -> None:
    """``u``'s one model ``d`` inches from ``src``'s first model as the game measures (around
    Walls), in the first open direction where ``ok()`` holds too."""
    import math

    x, y = src.models[0].x, src.models[0].y
    gap = src.radius + u.radius
    for k in range(16):
        t = math.pi * k / 8
        place(g, u.uid, [(x + (gap + d) * math.cos(t), y + (gap + d) * math.sin(t))])
        if g.bf.layout.board_at((u.models[0].x, u.models[0].y)) is not None and \
                abs(positions.unit_distance(g, src, u) - d) < 1e-6 and ok():
            return
    raise AssertionError("no open direction")


def entry(faction: str, name: str):
    found = Catalog().abilities(faction).find(name)
    assert found is not None and found.modelled, name
    return found.entry


def test_every_ability_moment_is_at_a_timing_the_game_offers():
    cat = Catalog()
    for f in cat.all():
        for e in f.pack.abilities:
            for m in e.moments:
                assert m.when in OFFERED, (f.name, e.name, m.when)


# --- Oath of Moment ---------------------------------------------------------------------------


def test_oath_of_moment_rerolls_hits_only_against_the_target(tmp_path):
    # "each time a model with this ability makes an attack that targets your Oath of Moment
    # target, you can re-roll the Hit roll" (no +1 to Wound: not a Codex Detachment)
    g = game(tmp_path, "[]")
    found = Catalog().abilities("Adeptus Astartes").find("Oath of Moment")
    assert found is not None
    g.units["A3"].standing = tuple(("Oath of Moment", e) for e in found.effects)
    g.units["B3"].marked = frozenset({"Oath of Moment"})
    assert attack(g, "A3", "B3", GUN, [2, 3, 4]) == (0, 0)  # hit 2 re-rolled to 3; wound 4 fails on 5+
    assert attack(g, "A3", "B3", GUN, [2, 3, 5, 1]) == (1, 0)
    assert attack(g, "A3", "B4", GUN, [2]) == (0, 0)  # not the target: no re-roll
    g.units["B3"].marked = frozenset({"Another rule"})
    assert attack(g, "A3", "B3", BLADE, [2]) == (0, 0)


def test_oath_of_moment_target_is_selected_each_command_phase_and_moves():
    a, b = build_army("A", MARINES), build_army("B", ORKS)
    g = Game(11, a, b, seed=2, rolloffs={"attacker": "A", "first_turn": "A"})
    until(g, lambda g: g.decision.step == "mark")
    assert g.phase == "command" and g.active == "A" and g.decision.info["rule"] == "Oath of Moment"
    legal = g.legal_actions()
    assert {x.target for x in legal} == {u.uid for u in g.army_units("B")}
    g.apply(legal[0])
    first = legal[0].target
    assert [u.uid for u in g.units.values() if "Oath of Moment" in u.marked] == [first]
    assert g.decision.step != "mark"  # one target for the army
    until(g, lambda g: g.decision.step == "mark")
    assert g.active == "A" and g.turn == 3  # A's next Command phase
    others = [x for x in g.legal_actions() if x.target != first]
    if others:
        g.apply(others[0])
        assert [u.uid for u in g.units.values() if "Oath of Moment" in u.marked] == [others[0].target]


# --- Doctrina Imperatives (Close-Quarters Doctrinas) ----------------------------------------------


def doctrina_game() -> Game:
    a, b = build_army("A", MECHANICUS), build_army("B", ORKS)
    g = Game(11, a, b, seed=2, rolloffs={"attacker": "A", "first_turn": "A"})
    until(g, lambda g: g.decision.step == "use" and g.decision.info.get("timing") == "round_start")
    return g


def test_close_quarters_doctrinas_add_a_weapon_ability_for_the_rest_of_the_battle():
    # Boarding Actions "Close-Quarters Doctrinas" (replaces Doctrina Imperatives): at the start
    # of the battle round select [ASSAULT], [IGNORES COVER] or [PISTOL]; until the end of the
    # battle, ranged weapons of the army's units with this ability have it
    from bagm.engine.rules.effects import effect_weapon

    g = doctrina_game()
    assert g.decision.player == "A" and g.round == 1
    names = {x.arg for x in g.legal_actions() if x.kind == "use" and x.arg.startswith("Doctrina")}
    assert names == {f"Doctrina Imperatives: {n}" for n in ("Assault", "Ignores Cover", "Pistol")}
    g.apply(next(x for x in g.legal_actions() if x.arg == "Doctrina Imperatives: Pistol"))
    holders = [u for u in g.army_units("A") if "Doctrina Imperatives" in u.datasheet.abilities]
    others = [u for u in g.army_units("A") if "Doctrina Imperatives" not in u.datasheet.abilities]
    assert holders
    t = g.army_units("B")[0]
    for u in holders:
        assert all(effect_weapon(u, w, t).abilities.pistol for w in u.ranged)
        assert not any(effect_weapon(u, w, t).abilities.pistol for w in u.melee)
    for u in others:
        assert not any(effect_weapon(u, w, t).abilities.pistol for w in u.ranged if not w.abilities.pistol)
    # one selection a round (the Detachment rule, Procedural Elimination, is still offered: passed)
    assert not any((x.arg or "").startswith("Doctrina") for x in g.legal_actions())
    if g.decision.step == "use" and g.decision.player == "A":
        g.apply(Action("pass"))
    until(g, lambda g: g.decision.step == "use" and g.decision.info.get("timing") == "round_start"
          and g.decision.player == "A")
    assert g.round == 2
    u = next(v for v in holders if v.alive)
    assert all(effect_weapon(u, w, t).abilities.pistol for w in u.ranged)  # still: until the end of the battle
    g.apply(next(x for x in g.legal_actions() if x.arg == "Doctrina Imperatives: Assault"))
    assert all(effect_weapon(u, w, t).abilities.assault and effect_weapon(u, w, t).abilities.pistol
               for w in u.ranged)


def test_near_battleline_boundary(tmp_path):
    # the condition 'near_battleline': "this unit has the Battleline keyword and/or it is within
    # 6" of one or more friendly Battleline units"
    from bagm.data.models import Effect
    from bagm.data.schema import validate
    from bagm.engine.rules.effects import effect_weapon, holds_in

    g = game(tmp_path, "[]")
    e = validate(Effect, {"AP_mod": -1, "only_while": "near_battleline"})
    u, friend = g.units["A3"], g.units["A4"]
    u.timed = (("Test", e, "round"),)
    u.keywords = u.keywords - {"BATTLELINE"}
    friend.keywords = friend.keywords - {"BATTLELINE"}
    x0, y0 = u.models[0].x, u.models[0].y
    place(g, "A3", [(x0, y0)])
    r = u.radius + friend.radius
    place(g, "A4", [(x0 + r + 5.9, y0)])
    assert positions.unit_distance(g, u, friend) <= 6
    assert effect_weapon(u, BLADE, g.units["B3"], holds_in(g)).ap == BLADE.ap  # no BATTLELINE near
    friend.keywords = friend.keywords | {"BATTLELINE"}
    assert effect_weapon(u, BLADE, g.units["B3"], holds_in(g)).ap == BLADE.ap - 1
    place(g, "A4", [(x0 + r + 6.2, y0)])
    assert positions.unit_distance(g, u, friend) > 6
    assert effect_weapon(u, BLADE, g.units["B3"], holds_in(g)).ap == BLADE.ap
    u.keywords = u.keywords | {"BATTLELINE"}  # itself BATTLELINE
    assert effect_weapon(u, BLADE, g.units["B3"], holds_in(g)).ap == BLADE.ap - 1


# --- Martial Ka'tah (Focused Ka'Tah), Zealot, Servo-skull Uplink ----------------------------------


def katah_game() -> Game:
    a, b = build_army("A", CUSTODES), build_army("B", ORKS)
    g = Game(11, a, b, seed=2, rolloffs={"attacker": "A", "first_turn": "A"})
    until(g, lambda g: g.turn >= 1)
    g.phase = "fight"
    return g


def test_focused_katah_one_stance_for_the_army_at_the_start_of_the_fight_phase():
    # Boarding Actions "Focused Ka'Tah": at the start of the Fight phase select one stance; until
    # the end of the phase it is active for the army's units with Martial Ka'tah; each stance
    # can only be selected once per battle
    g = katah_game()
    holders = [u for u in g.army_units("A") if "Martial Ka'tah" in u.datasheet.abilities]
    assert holders
    acts = moments.usable(g, "A", "phase_start")
    assert {x.arg for x in acts} == {"Martial Ka'tah: Dacatarai Stance", "Martial Ka'tah: Rendax Stance"}
    assert moments.usable(g, "A", "selected_to_fight", holders[0].uid) == []  # no longer when selected to fight
    moments.use_rule(g, "A", next(x for x in acts if "Rendax" in x.arg))
    for u in holders:
        assert [e.weapon_abilities[0].name for _, e, _ in u.timed] == ["lethal hits"]
    assert moments.usable(g, "A", "phase_start") == []  # one stance a phase
    moments.end_timed(g, "phase")
    assert not any(u.timed for u in holders)
    g.phase_id += 1  # the next Fight phase
    assert {x.arg for x in moments.usable(g, "A", "phase_start")} == {"Martial Ka'tah: Dacatarai Stance"}
    moments.use_rule(g, "A", moments.usable(g, "A", "phase_start")[0])
    g.phase_id += 1
    assert moments.usable(g, "A", "phase_start") == []  # each stance once per battle


def test_the_bot_keeps_a_stance_for_a_fight_where_it_adds_damage():
    from bagm.engine.state.core import Decision

    g = katah_game()
    bot = make_bot("greedy", 1)
    assert not any(positions.engaged_with(g, u) for u in g.army_units("A"))
    g.decision = Decision("use", "A", {"timing": "phase_start"})
    assert bot(g).kind == "pass"  # nobody fights: kept
    u = next(u for u in g.army_units("A") if "Martial Ka'tah" in u.datasheet.abilities)
    t = g.army_units("B")[0]
    place(g, u.uid, [(t.models[0].x + t.radius + u.radius + 0.5, t.models[0].y)])
    assert positions.engaged_with(g, u)
    act = bot(g)
    assert act.kind == "use" and act.arg.startswith("Martial Ka'tah: ")


def test_zealot_once_per_battle_when_the_priest_fights():
    # Ministorum Priest "Zealot": once per battle, in the Fight phase, +3 to the Strength and
    # Attacks of its melee weapons until the end of the phase
    from bagm.engine.rules.effects import effect_weapon

    a, b = build_army("A", SORORITAS), build_army("B", ORKS)
    g = Game(11, a, b, seed=2, rolloffs={"attacker": "A", "first_turn": "A"})
    until(g, lambda g: any("Zealot" in u.datasheet.abilities for u in g.army_units("A")))  # arrived
    g.phase = "fight"
    priest = next(u for u in g.army_units("A") if "Zealot" in u.datasheet.abilities)
    other = next(u for u in g.army_units("A") if "Zealot" not in u.datasheet.abilities)
    assert moments.usable(g, "A", "selected_to_fight", other.uid) == []
    acts = moments.usable(g, "A", "selected_to_fight", priest.uid)
    assert [x.arg for x in acts] == ["Zealot"]
    w = priest.melee[0]
    moments.use_rule(g, "A", acts[0])
    got = effect_weapon(priest, w, g.army_units("B")[0])
    assert got.strength == w.strength + 3 and got.attacks.bonus == w.attacks.bonus + 3
    moments.end_timed(g, "phase")
    g.phase_id += 1
    assert moments.usable(g, "A", "selected_to_fight", priest.uid) == []  # once per battle


def test_servo_skull_uplink_ends_battleshock_of_a_skitarii_unit_within_6():
    # Skitarii Marshal "Servo-skull Uplink": once per battle, at the start of any phase, one
    # friendly SKITARII unit that is Battle-shocked and within 6" of this model is no longer
    a, b = build_army("A", MECHANICUS), build_army("B", ORKS)
    g = Game(11, a, b, seed=2, rolloffs={"attacker": "A", "first_turn": "A"})
    until(g, lambda g: any("Servo-skull Uplink" in u.datasheet.abilities for u in g.army_units("A")) and any(
        "SKITARII" in u.keywords and "CHARACTER" not in u.keywords for u in g.army_units("A")))
    marshal = next(u for u in g.army_units("A") if "Servo-skull Uplink" in u.datasheet.abilities)
    troops = [u for u in g.army_units("A") if "SKITARII" in u.keywords and "CHARACTER" not in u.keywords]
    near = troops[0]
    for u in g.army_units("A"):  # one model each, the others out of the way where they stand
        if u is not marshal:
            place(g, u.uid, [(u.models[0].x, u.models[0].y)])
    at_distance(g, marshal, near, 5.9)
    near.battleshocked = True
    uses = [x for x in moments.usable(g, "A", "phase_start") if x.arg == "Servo-skull Uplink"]
    assert near.uid in {x.unit for x in uses}
    moments.use_rule(g, "A", next(x for x in uses if x.unit == near.uid))
    assert not near.battleshocked
    near.battleshocked = True
    at_distance(g, marshal, near, 6.3)
    others = [m for m in g.army_units("A") if "Servo-skull Uplink" in m.datasheet.abilities and m is not marshal]
    if not others or positions.unit_distance(g, others[0], near) > 6:
        assert near.uid not in {x.unit for x in moments.usable(g, "A", "phase_start") if x.arg == "Servo-skull Uplink"}


def test_stand_vigil_rerolls_ones_and_every_wound_on_a_marker_you_control(tmp_path):
    # "re-roll a Wound roll of 1; while within range of an objective marker you control, you can
    # re-roll the Wound roll instead"
    g = game(tmp_path, "[]")
    found = Catalog().abilities("Adeptus Custodes").find("Stand Vigil")
    assert found is not None
    g.units["A3"].standing = tuple(("Stand Vigil", e) for e in found.effects)
    near_marker(g, "A3", False)
    assert attack(g, "A3", "B3", GUN, [3, 1, 5, 1]) == (1, 0)  # a 1 re-rolled
    assert attack(g, "A3", "B3", GUN, [3, 2]) == (0, 0)
    near_marker(g, "A3", True)
    g.control[0] = "B"
    assert attack(g, "A3", "B3", GUN, [3, 2]) == (0, 0)  # the marker is not yours
    g.control[0] = "A"
    assert attack(g, "A3", "B3", GUN, [3, 2, 5, 1])[0] == 1  # the 2 re-rolled to a 5: one wound


def test_purity_of_execution_against_psykers_only(tmp_path):
    g = game(tmp_path, "[]")
    found = Catalog().abilities("Adeptus Custodes").find("Purity of Execution")
    assert found is not None
    g.units["A3"].standing = tuple(("Purity of Execution", e) for e in found.effects)
    from bagm.engine.rules.effects import effect_weapon

    t = g.units["B3"]
    assert not effect_weapon(g.units["A3"], GUN, t).abilities.devastating_wounds
    t.keywords = t.keywords | {"PSYKER"}
    w = effect_weapon(g.units["A3"], GUN, t)
    assert w.abilities.devastating_wounds and w.abilities.precision
    assert not effect_weapon(g.units["A3"], BLADE, t).abilities.precision  # ranged attacks only


# --- Reanimation Protocols (Transdimensional Reinforcement) --------------------------------------

NECRONS = str(REPO / "rosters" / "necrons_deranged_outcasts.yaml")


def necron_game() -> tuple[Game, Unit]:
    a, b = build_army("A", NECRONS), build_army("B", ORKS)
    g = Game(11, a, b, seed=2, rolloffs={"attacker": "A", "first_turn": "A"})
    until(g, lambda g: g.turn >= 1 and any(
        "Reanimation Protocols" in u.datasheet.abilities and "CHARACTER" not in u.keywords and u.starting >= 4
        for u in g.army_units("A")))
    u = next(u for u in g.army_units("A") if "Reanimation Protocols" in u.datasheet.abilities
             and "CHARACTER" not in u.keywords and u.starting >= 4)
    return g, u


def test_reinforcement_in_the_command_phase_returns_models_on_a_5_with_full_wounds():
    # "once per battle in your Command phase, this unit can request reinforcement: roll one D6
    # for each destroyed model in this unit: for each 5+, return one destroyed model to this unit
    # with its full wounds remaining"
    g, u = necron_game()
    place(g, u.uid, [(m.x, m.y) for m in u.models[:1]])
    g.phase, g.active = "command", "A"
    acts = [x for x in moments.usable(g, "A", "phase_start") if x.arg == "Reanimation Protocols" and x.unit == u.uid]
    assert len(acts) == 1
    lost = u.starting - 1
    rolls = [5, 4] + [1] * (lost - 2)
    g.dice = Dice.scripted(rolls)
    moments.use_rule(g, "A", acts[0])
    g.dice.assert_consumed()
    assert len(u.models) == 2 and all(m.wounds == (m.full or u.W) for m in u.models)
    assert positions.coherent(g, [(m.x, m.y) for m in u.models], u.radius)
    assert not [x for x in moments.usable(g, "A", "phase_start") if x.arg == "Reanimation Protocols" and x.unit == u.uid]
    u.models = []  # destroyed after having requested: nothing more
    shooting.check_destroyed(g, u)
    assert u.where == "destroyed" and not u.models


def test_a_unit_destroyed_without_having_requested_requests_at_once_in_an_entry_zone():
    # "if this unit is destroyed without having requested reinforcement, ... it immediately
    # requests reinforcement; returned models are set up wholly within one of your Entry Zones"
    g, u = necron_game()
    u.models = []
    g.dice = Dice.scripted([6, 5] + [1] * (u.starting - 2))
    shooting.check_destroyed(g, u)
    g.dice.assert_consumed()
    assert u.alive and len(u.models) == 2
    zones = deployment.entry_zones(g, "A")
    assert any(all(z.wholly_within(m.base) for m in u.models) for z in zones)
    u.models = []  # destroyed again: it has requested
    shooting.check_destroyed(g, u)
    assert u.where == "destroyed"


def test_no_5_and_the_unit_stays_destroyed():
    g, u = necron_game()
    u.models = []
    g.dice = Dice.scripted([4] * u.starting)
    shooting.check_destroyed(g, u)
    g.dice.assert_consumed()
    assert u.where == "destroyed" and not u.models


def test_character_units_lose_reanimation_protocols_and_gain_nothing():
    a = build_army("A", NECRONS)
    chars = [u for u in a.units if "Reanimation Protocols" in u.datasheet.abilities and "CHARACTER" in u.keywords]
    others = [u for u in a.units if "Reanimation Protocols" in u.datasheet.abilities and "CHARACTER" not in u.keywords]
    assert chars and others
    bearers = {s.bearer for s in a.uses if s.name == "Reanimation Protocols"}
    assert bearers == {u.uid for u in others}
    assert not any(e.reinforce_roll for u in chars for e in u.effects())


def test_the_bot_requests_once_half_the_unit_is_gone():
    from bagm.engine.state.core import Decision

    g, u = necron_game()
    g.phase, g.active = "command", "A"
    g.decision = Decision("use", "A", {"timing": "phase_start"})
    bot = make_bot("greedy", 1)
    assert not (bot(g).arg == "Reanimation Protocols")
    place(g, u.uid, [(m.x, m.y) for m in u.models[:u.starting // 2]])
    act = bot(g)
    assert act.kind == "use" and act.arg == "Reanimation Protocols"


# --- auras ------------------------------------------------------------------------------------------

AURA = """abilities:
  - {name: Test Aura, effects: [{aura: 6, only_units: [Purifier Squad], hit_mod: 1}]}
"""


def test_an_aura_applies_to_friendly_units_within_its_range_only(tmp_path):
    # an aura: "while a friendly unit is within 6\" of this unit, each time a model in that unit
    # makes an attack, add 1 to the Hit roll" (the Strike Squads A3 and A4 have it; the Purifier
    # Squad A5 is the unit it picks)
    g = game(tmp_path, "[Test Aura]", AURA)
    src, far, near = g.units["A3"], g.units["A4"], g.units["A5"]
    x, y = src.models[0].x, src.models[0].y
    place(g, "A3", [(x, y)])
    place(g, "A4", [(x + 40, y)])  # the other source far away

    def at(d: float) -> None:
        at_distance(g, src, near, d, lambda: positions.unit_distance(g, far, near) > 6)
    at(5.9)
    assert attack(g, "A5", "B3", GUN, [2, 1, 1]) == (0, 0)  # a 2 hits (3+, +1): wound rolls of 1 (re-rolled)
    at(6.2)
    assert attack(g, "A5", "B3", GUN, [2]) == (0, 0)  # beyond 6": the 2 misses
    assert attack(g, "A3", "B3", GUN, [2]) == (0, 0)  # the source is not a Purifier Squad
    src.models = []  # a destroyed source: no aura



# --- Templar Vows ----------------------------------------------------------------------------------

TEMPLARS = str(REPO / "rosters" / "adeptus_astartes_terminator_assault.yaml")


def vow(name: str) -> list:
    return next(m for m in entry("Adeptus Astartes", "Templar Vows").moments if m.choice.startswith(name)).effects


def test_accept_any_challenge_adds_1_to_wound_when_strength_is_not_above_toughness(tmp_path):
    # "each time a model in this unit makes a melee attack, if the Strength characteristic of that
    # attack is less than or equal to the Toughness characteristic of the target, add 1 to the
    # wound roll" (the Nobz: T5)
    from dataclasses import replace

    g = game(tmp_path, "[]")
    g.units["A3"].timed = tuple(("Templar Vows", e, "battle") for e in vow("Accept Any Challenge"))
    assert g.units["B3"].T == 5
    s5, s6 = replace(BLADE, strength=5), replace(BLADE, strength=6)
    assert attack(g, "A3", "B3", s5, [3, 3, 1])[0] == 1  # S5 = T5: 4+ to wound, +1: a 3 wounds; save 1 fails
    assert attack(g, "A3", "B3", s6, [3, 2]) == (0, 0)  # S6 > T5: 3+ to wound, no bonus: a 2 fails
    assert attack(g, "A3", "B3", replace(GUN, strength=5), [3, 3]) == (0, 0)  # ranged: none (4+ to wound)


def test_abhor_the_witch_precision_against_psykers(tmp_path):
    from bagm.engine.rules.effects import effect_weapon

    g = game(tmp_path, "[]")
    a3 = g.units["A3"]
    a3.timed = tuple(("Templar Vows", e, "battle") for e in vow("Abhor the Witch"))
    t = g.units["B3"]
    assert not effect_weapon(a3, BLADE, t).abilities.precision
    t.keywords = t.keywords | {"PSYKER"}
    assert effect_weapon(a3, BLADE, t).abilities.precision and not effect_weapon(a3, GUN, t).abilities.precision


def test_the_vow_is_selected_at_the_start_of_the_first_battle_round_only():
    a, b = build_army("A", TEMPLARS), build_army("B", ORKS)
    assert any("Templar Vows" in u.datasheet.abilities for u in a.units)
    g = Game(11, a, b, seed=2, rolloffs={"attacker": "A", "first_turn": "A"})
    until(g, lambda g: g.decision.step == "use" and g.decision.info.get("timing") == "round_start")
    assert g.round == 1 and len([x for x in g.legal_actions() if x.kind == "use"]) == 4
    g.apply(Action("pass"))
    until(g, lambda g: g.round == 2)
    assert moments.usable(g, "A", "round_start") == []  # not in the second battle round


def test_abhor_the_witch_rerolls_a_charge_only_against_a_psyker():
    # "each time this unit declares a charge, if one or more targets of that charge have the
    # PSYKER keyword, you can re-roll the Charge roll"
    from conftest import advance_to, block
    from test_leaders import led_game, play

    for psyker in (True, False):
        g = led_game(*[{k: v for k, v in vars(e).items() if k == "reroll_charge_vs" and v}
                       for e in vow("Abhor the Witch") if e.reroll_charge_vs], cp=0)
        place(g, "A3", block(14))
        place(g, "B3", block(20, dx=1.4))
        if psyker:
            g.units["B3"].keywords = g.units["B3"].keywords | {"PSYKER"}
        play(g, "hold A3")
        advance_to(g, "charge")
        g.dice = Dice.scripted([1, 1] + ([1, 2] if psyker else []))
        play(g, "charge A3 B3")
        if psyker:  # no CP: only the Vow's free re-roll is offered
            assert g.decision.step == "reroll" and g.decision.info["free"]
            play(g, "reroll")
        else:
            assert g.decision.step != "reroll"
        g.dice.assert_consumed()


# --- Nightmare Shroud (Aura), Rad-saturation (Aura) --------------------------------------------------


def give_entry(g: Game, uid: str, faction: str, name: str) -> None:
    found = Catalog().abilities(faction).find(name)
    assert found is not None and found.effects, name
    g.units[uid].standing = tuple((name, e) for e in found.effects)


def test_nightmare_shroud_forces_a_test_at_minus_1_on_a_unit_below_starting_strength_within_6(tmp_path):
    # "in the Battle-shock step of your opponent's Command phase, if an enemy unit that is below
    # its Starting Strength is within 6" of this model, that enemy unit must take a Battle-shock
    # test, subtracting 1 from the roll"
    from bagm.engine.rules.effects import shock_aura

    g = game(tmp_path, "[]")
    give_entry(g, "A3", "Necrons", "Nightmare Shroud (Aura)")
    a3, b3 = g.units["A3"], g.units["B3"]
    place(g, "A3", [(a3.models[0].x, a3.models[0].y)])
    far = [u for u in g.army_units("B") if u is not b3]
    at_distance(g, a3, b3, 5.9, lambda: all(positions.unit_distance(g, a3, u) > 6 for u in far))
    assert b3.below_starting()
    assert shock_aura(g, "B") == {"B3": ("Nightmare Shroud (Aura)", -1)}
    at_distance(g, a3, b3, 6.3, lambda: all(positions.unit_distance(g, a3, u) > 6 for u in far))
    assert shock_aura(g, "B") == {}
    b3.starting = 1  # at its Starting Strength: no test
    at_distance(g, a3, b3, 2.0, lambda: all(positions.unit_distance(g, a3, u) > 6 for u in far))
    assert shock_aura(g, "B") == {}


def test_rad_saturation_minus_1_oc_to_enemy_units_within_3_but_vehicles(tmp_path):
    # "while an enemy unit (excluding VEHICLE units) is within 3" of this unit, subtract 1 from
    # the Objective Control characteristic of models in that unit"
    from bagm.engine.rules.effects import engaged_oc_mod

    g = game(tmp_path, "[]")
    give_entry(g, "A3", "Adeptus Mechanicus", "Rad-saturation (Aura)")
    a3, b3 = g.units["A3"], g.units["B3"]
    x, y = a3.models[0].x, a3.models[0].y
    place(g, "A3", [(x, y)])
    gap = a3.radius + b3.radius
    place(g, "B3", [(x + gap + 2.9, y)])
    assert engaged_oc_mod(g, b3) == -1
    place(g, "B3", [(x + gap + 3.2, y)])
    assert engaged_oc_mod(g, b3) == 0
    place(g, "B3", [(x + gap + 2.9, y)])
    b3.keywords = b3.keywords | {"VEHICLE"}
    assert engaged_oc_mod(g, b3) == 0
    mk = g.map.layout.markers[0]  # in play: B3 (one model) on a marker loses 1 from its Level of Control
    b3.keywords = b3.keywords - {"VEHICLE"}
    place(g, "B3", [(mk.x, mk.y)])
    place(g, "A3", [(x, y)])  # where it stood, far from the marker
    assert positions.unit_distance(g, a3, b3) > 3
    before = control.levels_of_control(g)[0]["B"]
    place(g, "A3", [(mk.x + gap + 2.5, mk.y)])
    assert positions.unit_distance(g, a3, b3) <= 3
    assert control.levels_of_control(g)[0]["B"] == before - 1


# --- datasheet abilities the vocabulary says ---------------------------------------------------------


def standing(g: Game, uid: str, faction: str, name: str) -> Unit:
    give_entry(g, uid, faction, name)
    return g.units[uid]


@pytest.mark.parametrize("faction, name, field, value", [
    ("T'au Empire", "Pech'ra", "weapon_abilities", "ignores cover"),
    ("Agents of the Imperium", "Dedication to Duty", "fight_on_death", 4),
    ("Adeptus Astartes", "Heroic Last Stand", "fight_on_death", 2),
    ("Astra Militarum", "Wall of Muscle", "damage_against_mod", -1),
    ("Necrons", "Implacable Resilience", "damage_against_mod", -1),
    ("Adeptus Mechanicus", "Sentinel Directive", "overwatch_hit", 5),
    ("Adeptus Custodes", "Sanctified Flames", "shock_hit", 0),
    ("Adeptus Astartes", "Savage Frenzy", "escape_as_shocked", True),
    ("Adeptus Custodes", "Corner the Quarry", "escape_as_shocked", True),
    ("Necrons", "Relentless Combatants", "charge_after_fall_back", True),
    ("Leagues of Votann", "Decisive Destruction", "target_while", "closest"),
    ("Agents of the Imperium", "Masters of Close Confines", "target_while", "closest"),
])
def test_abilities_that_are_one_field_of_the_vocabulary(faction, name, field, value):
    # each plays through a field the engine already plays (tests/test_effects.py and the
    # Enhancement and Detachment tests play the fields themselves)
    found = Catalog().abilities(faction).find(name)
    assert found is not None and found.modelled
    got = [getattr(e, field) for e in found.effects]
    if field == "weapon_abilities":
        got = [w.name for ws in got for w in ws]
    assert value in got
    if field == "escape_as_shocked":  # "excluding MONSTERS and VEHICLES"
        assert set(found.effects[0].target_lacks) == {"MONSTER", "VEHICLE"}


def test_wall_of_muscle_minus_1_damage(tmp_path):
    from dataclasses import replace

    g = game(tmp_path, "[]")
    standing(g, "A3", "Astra Militarum", "Wall of Muscle")
    d2 = replace(GUN, damage=replace(GUN.damage, bonus=2))
    # hit 3, wound 4 (S4 against T4), save 1: a 2-damage attack does 1 (2 to A4, without it)
    assert attack(g, "B3", "A4", d2, [3, 4, 1])[0] == 2
    assert attack(g, "B3", "A3", d2, [3, 4, 1])[0] == 1


def test_imperial_law_each_unit_selects_its_own_enemy_unit(tmp_path):
    # "at the start of the battle, select one unit from your opponent's army; each time a model
    # in this unit makes an attack that targets that unit, that attack has [LETHAL HITS] and
    # [PRECISION]" (the Strike Squads A3 and A4 have it here)
    from bagm.engine.rules.effects import effect_weapon

    law = ("abilities:\n  - {name: Imperial Law, effects: [{mark_enemy: true, mark_each: true}, "
           "{target_marked: true, mark_each: true, weapon_abilities: [{name: lethal hits}, {name: precision}]}]}\n")
    g = game(tmp_path, "[Imperial Law]", law)
    assert g.decision.step == "opening" and g.decision.player == "A"
    marks = {(x.unit, x.target) for x in g.legal_actions() if x.kind == "mark"}
    assert ("A3", "B3") in marks and ("A4", "B4") in marks
    g.apply(Action("mark", "A3", target="B3"))
    assert any(x.unit == "A4" for x in g.legal_actions() if x.kind == "mark")  # A4 still selects
    g.apply(Action("mark", "A4", target="B4"))
    a3, a4, b3, b4 = (g.units[u] for u in ("A3", "A4", "B3", "B4"))
    assert effect_weapon(a3, GUN, b3).abilities.lethal_hits and not effect_weapon(a3, GUN, b4).abilities.lethal_hits
    assert effect_weapon(a4, GUN, b4).abilities.precision and not effect_weapon(a4, GUN, b3).abilities.precision


def test_sternguard_focus_and_fury_of_the_first_against_the_oath_of_moment_target(tmp_path):
    g = game(tmp_path, "[]")
    standing(g, "A3", "Adeptus Astartes", "Fury of the First")
    assert attack(g, "A3", "B3", GUN, [2]) == (0, 0)  # not the target: a 2 misses
    g.units["B3"].marked = frozenset({"Oath of Moment"})
    assert attack(g, "A3", "B3", GUN, [2, 1]) == (0, 0)  # +1: a 2 hits; the wound roll of 1 fails
    standing(g, "A3", "Adeptus Astartes", "Sternguard Focus")
    assert attack(g, "A3", "B3", GUN, [3, 2, 5, 1])[0] == 1  # the failed wound roll of 2 re-rolled


def test_terror_troops_minus_1_oc_within_3_not_monsters(tmp_path):
    from bagm.engine.rules.effects import engaged_oc_mod

    g = game(tmp_path, "[]")
    a3 = standing(g, "A3", "Adeptus Astartes", "Terror Troops")
    b3 = g.units["B3"]
    x, y = a3.models[0].x, a3.models[0].y
    place(g, "A3", [(x, y)])
    place(g, "B3", [(x + a3.radius + b3.radius + 2.9, y)])
    assert engaged_oc_mod(g, b3) == -1
    b3.keywords = b3.keywords | {"MONSTER"}
    assert engaged_oc_mod(g, b3) == 0


@pytest.mark.parametrize("faction, name, phase, check", [
    ("Adeptus Astartes", "Finest Hour", "fight", lambda e: e.A_mod == 3 and e.weapon_abilities[0].name == "devastating wounds"),
    ("Grey Knights", "Might of Titan (Psychic)", "fight", lambda e: e.A_mod == 3 and e.S_mod == 3),
    ("Adeptus Mechanicus", "Defend the Divine Work", None, lambda e: e.invuln == 4),
    ("Adepta Sororitas", "The Emperor's Grace", None, lambda e: e.invuln == 2),
])
def test_once_per_battle_at_the_start_of_a_phase(tmp_path, faction, name, phase, check):
    # "once per battle, at the start of the Fight phase (of any phase), this model can use this
    # ability; until the end of the phase, ..."
    m = entry(faction, name).moments[0]
    table = "abilities:\n  - " + f"{{name: '{name.replace(chr(39), chr(39) * 2)}', moments: [{{when: phase_start, " + \
        (f"phase: {phase}, " if phase else "") + "once: battle, effects: []}]}\n"
    g = game(tmp_path, f"['{name.replace(chr(39), chr(39) * 2)}']", table)
    assert m.when == "phase_start" and m.phase == phase and m.once == "battle" and all(check(e) for e in m.effects)
    g.phase = phase or "movement"
    acts = [x for x in moments.usable(g, "A", "phase_start") if x.arg == name and x.unit == "A3"]
    assert len(acts) == 1
    moments.use_rule(g, "A", acts[0])
    g.phase_id += 1
    assert not [x for x in moments.usable(g, "A", "phase_start") if x.arg == name and x.unit == "A3"]  # once per battle
    if phase:
        g.phase = "shooting"
        assert not [x for x in moments.usable(g, "A", "phase_start") if x.arg == name]


def test_litanies_of_sanctity_ends_battleshock_within_12(tmp_path):
    g = game(tmp_path, "['Litanies of Sanctity']", "abilities:\n  - name: Litanies of Sanctity\n    moments: "
             "[{when: phase_start, once: battle, within: 12, target_keywords: [GREY KNIGHTS], target_battleshocked: true, "
             "effects: [{end_battleshock: true}]}]\n")
    assert entry("Grey Knights", "Litanies of Sanctity").moments[0].within == 12
    g.units["A5"].battleshocked = True
    near = positions.unit_distance(g, g.units["A3"], g.units["A5"]) <= 12 or positions.unit_distance(g, g.units["A4"], g.units["A5"]) <= 12
    acts = [x for x in moments.usable(g, "A", "phase_start") if x.arg == "Litanies of Sanctity"]
    assert bool(acts) == near and all(x.unit == "A5" for x in acts)
    if acts:
        moments.use_rule(g, "A", acts[0])
        assert not g.units["A5"].battleshocked


def test_point_blank_barrage_against_the_closest_eligible_target_only(tmp_path):
    # "each time a model in this unit makes a ranged attack that targets the closest eligible
    # target, improve the Armour Penetration characteristic of that attack by 1"
    from bagm.engine.rules.effects import effect_weapon, holds_in

    g = game(tmp_path, "[]")
    a3 = standing(g, "A3", "Astra Militarum", "Point-blank Barrage")
    b3, b4 = g.units["B3"], g.units["B4"]
    holds = holds_in(g)
    near = min((b for b in g.army_units("B") if sight.visible_idx(g, a3, b)), key=lambda b: positions.unit_distance(g, a3, b))
    far = next(b for b in (b3, b4) if b is not near)
    assert effect_weapon(a3, GUN, near, holds).ap == GUN.ap - 1
    if sight.visible_idx(g, a3, far):
        assert effect_weapon(a3, GUN, far, holds).ap == GUN.ap
    assert effect_weapon(a3, BLADE, near, holds).ap == BLADE.ap  # ranged attacks only


def test_whirling_onslaught_rerolls_every_hit_after_a_charge(tmp_path):
    g = game(tmp_path, "[]")
    a3 = standing(g, "A3", "Necrons", "Whirling Onslaught")
    assert attack(g, "A3", "B3", BLADE, [1, 2]) == (0, 0)  # a 1 re-rolled to a 2: a miss
    assert attack(g, "A3", "B3", BLADE, [2]) == (0, 0)  # a 2 is not re-rolled
    a3.charged = True
    assert attack(g, "A3", "B3", BLADE, [2, 3, 1]) == (0, 0)  # charged: the 2 re-rolled to a 3 hits


def test_force_edge_and_breaching_command(tmp_path):
    from bagm.engine.rules.effects import effect_weapon

    g = game(tmp_path, "[]")
    a3 = standing(g, "A3", "Grey Knights", "Force Edge (Psychic)")
    b3 = g.units["B3"]
    assert effect_weapon(a3, BLADE, b3).ap == BLADE.ap - 1 and effect_weapon(a3, GUN, b3).ap == GUN.ap
    b3.keywords = b3.keywords | {"VEHICLE"}
    assert effect_weapon(a3, BLADE, b3).ap == BLADE.ap
    found = Catalog().abilities("Adeptus Mechanicus").find("Breaching Command")
    assert found is not None and [(e.reroll_hits, e.only_while) for e in found.effects] == [
        ("ones", None), ("failed", "near_battleline")]


def test_fearsome_assault_battleshock_tests_at_the_start_of_the_fight_phase(tmp_path):
    # "at the start of the Fight phase, each enemy unit within Engagement Range of one or more
    # units with this ability must take a Battle-shock test, subtracting 1 from that test"
    from conftest import block

    g = game(tmp_path, "[]")
    standing(g, "A3", "Adeptus Astartes", "Fearsome Assault")
    standing(g, "A4", "Adeptus Astartes", "Terminatus Assault")
    place(g, "A3", block(14))
    place(g, "B3", block(15.6, dx=1.4))  # engaged with A3
    for u in g.units.values():
        u.melee = []  # the fights roll no dice
    assert positions.engaged(g, g.units["A3"], g.units["B3"])
    assert not any(positions.engaged(g, g.units["A4"], b) for b in g.army_units("B"))
    g.dice = Dice.scripted([4, 3])  # B3's test: 7 - 1 against its Leadership
    for _ in range(100):  # every decision declined until the first Fight phase has begun
        if any(e["e"] == "phase" and e["phase"] == "fight" for e in g.events):
            break
        d = g.decision.step
        g.apply(Action("done") if d in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
                else g.legal_actions()[0] if d == "mark" else Action("pass"))
    g.dice.assert_consumed()
    tests = [(e["unit"], e.get("mod", 0), e.get("why")) for e in g.events if e["e"] == "battleshock_test"]
    assert tests == [("B3", -1, "Fearsome Assault")]


def test_extremis_trigger_word_and_holy_piety(tmp_path):
    from dataclasses import replace

    from bagm.engine.rules.effects import effect_weapon

    m = entry("Adepta Sororitas", "Extremis Trigger Word").moments[0]
    assert m.when == "selected_to_fight" and m.once == "phase"
    g = game(tmp_path, "[]")
    a3 = g.units["A3"]
    a3.timed = tuple(("Extremis Trigger Word", e, "phase") for e in m.effects)
    flail = replace(BLADE, name="Arco-flails")
    got = effect_weapon(a3, flail, g.units["B3"])
    assert got.attacks.bonus == 6 and got.attacks.count == 0 and got.abilities.hazardous
    assert effect_weapon(a3, BLADE, g.units["B3"]) is BLADE  # other weapons: unchanged
    a4 = standing(g, "A4", "Astra Militarum", "Holy Piety")
    assert attack(g, "A4", "B3", BLADE, [2, 1]) == (0, 0)  # the 2 re-rolled: a 1 misses
    a4.battleshocked = True
    assert attack(g, "A4", "B3", BLADE, [2]) == (0, 0)  # Battle-shocked: no re-roll
