"""Units whose models have different profiles play each profile (issue 13 section 1): a Superior's
Save among her Sisters, a Runtherd's Toughness among Gretchin, a Heavy Weapon Platform's OC 0, a
Kroot Hound's Move. A unit of identical models plays exactly as before."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from conftest import REPO, advance_to, block, place
from hypothesis import given
from hypothesis import strategies as st
from test_game_rules import at_first_move, play

from bagm.chance.dice import Dice, parse_dice
from bagm.data.weapons import Abilities, WeaponProfile
from bagm.engine.attack.rules import AttackProfile, Target
from bagm.engine.attack.sequence import TargetUnit, resolve
from bagm.engine.game import control, deployment, kept, positions
from bagm.engine.game.muster import build_army
from bagm.engine.state.army import Own, Unit

ROSTERS = REPO / "rosters"


def _unit(roster: str, name: str) -> Unit:
    """The Boarding Squad of that name whose models have own profiles (a split unit's Superior
    goes to one of its two squads)."""
    army = build_army("A", str(ROSTERS / roster))
    return next(u for u in army.units if u.name.startswith(name) and u.kit_own)


def _set_up(u: Unit, n: int | None = None) -> Unit:
    u.models = u.new_models([(0.0, 2.0 * i) for i in range(n or u.starting)])
    u.where = "board"
    return u


def _profile(u: Unit, name: str) -> object:
    return next(p for p in u.datasheet.models if p.name == name)


def _gun(a: str = "1", s: int = 4, ap: int = 0) -> WeaponProfile:
    return WeaponProfile("gun", False, parse_dice(a), 3, s, ap, parse_dice("1"), Abilities(), 24)


# --- muster: each model's own profile ----------------------------------------------------------


def test_a_superior_keeps_her_own_save_among_her_sisters() -> None:
    """Repentia Squad: the Sisters Repentia and the Repentia Superior have different Saves, so
    each model keeps its own (Core Rules, Saving Throw: "the Save characteristic of the model the
    attack was allocated to")."""
    u = _set_up(_unit("adepta_sororitas_penitents_and_pilgrims.yaml", "Repentia Squad"))
    sister, superior = _profile(u, "Sister Repentia"), _profile(u, "Repentia Superior")
    assert (u.Sv, u.invuln) == (sister.Sv, sister.invuln)  # the unit's: its main profile's
    saves = u.saves(None, ranged=True)
    assert saves is not None and saves.count((superior.Sv, superior.invuln)) == 1
    assert saves.count((sister.Sv, sister.invuln)) == len(u.models) - 1
    # an effect's invulnerable save (None here: 4+) counts for every model where it is better
    assert all(inv == 4 for _, inv in u.saves(4, ranged=True) or [])


def test_units_of_identical_models_have_no_own_profiles() -> None:
    """Every unit of the bundled rosters whose datasheet's profiles play alike musters as before:
    no model has an own profile, and its Toughness, saves and OC are the unit's."""
    for path in sorted(ROSTERS.glob("*.yaml")):
        for u in build_army("A", str(path)).units:
            profiles = {(p.T, p.Sv, p.invuln, p.invuln_melee, p.OC, min(p.M or 0, 9), p.base)
                        for p in u.datasheet.models}
            if len(profiles) == 1:
                assert not u.kit_own, (path.name, u.name)
                _set_up(u)
                assert (u.toughness(), u.toughest(), u.saves(None, True)) == (u.T, u.T, None)
                # ranks: the defender's choice also weighs wargear and Wounds (Unit.ranks): none
                # unless the models' loadouts or starting Wounds differ
                differ = len({m.gear for m in u.models}) > 1 or len({m.full or u.W for m in u.models}) > 1
                assert (u.ranks() is not None) == differ, (path.name, u.name)
                assert not u.mixed_oc and all(m.own is None and m.r == u.radius for m in u.models)
                assert u.model_r is None


# --- Toughness ---------------------------------------------------------------------------------


def test_the_wound_roll_uses_the_toughness_of_most_of_the_models_left() -> None:
    """Gretchin and their Runtherd: the Wound roll compares Strength with "the target's
    Toughness" (Core Rules, Wound Roll); reading, that of the majority of the models left, a tie
    going to the highest (Unit.toughness)."""
    u = _set_up(_unit("orks_ramship_raiders.yaml", "Gretchin"))
    grot, herder = _profile(u, "Gretchin"), _profile(u, "Runtherd")
    assert grot.T < herder.T and u.toughness() == grot.T
    runtherd = next(m for m in u.models if m.own is not None)
    grots = [m for m in u.models if m.own is None]
    u.models = [grots[0], runtherd]
    assert u.toughness() == herder.T  # one each: the highest
    u.models = [runtherd]
    assert u.toughness() == herder.T
    u.T -= 1  # a rule on the unit (Rad Exposure: -1 Toughness) changes every model's
    assert u.toughness() == herder.T - 1 and u.toughest() == herder.T - 1


def test_a_game_wounds_a_unit_on_the_toughness_of_its_majority() -> None:
    """Three Nobz, two of them given an own profile of Toughness 8: a storm bolter's S4 now
    wounds on 6+ (half the Toughness or less), not the 5+ it needs against T5."""
    g = at_first_move()
    place(g, "A1", [(15, 15)])
    place(g, "B3", block(25)[:3])
    b3 = g.units["B3"]
    tough = Own(T=3, M=0, Sv=b3.Sv, invuln=b3.invuln, invuln_melee=None, OC=b3.OC)
    b3.kit_own = [None, tough, tough]
    for m, own in zip(b3.models, b3.kit_own):
        m.own = own
    play(g, "hold A1")
    advance_to(g, "shoot")
    # 4 attacks (Rapid Fire 2 within half range), 4 hits; Wound rolls 5, 5, 6, 6: two wounds;
    # both allocated to the T5 Nob (the main profile first), saves 1 and 1 fail: it is destroyed
    g.dice = Dice.scripted([3, 3, 3, 3, 5, 5, 6, 6, 1, 1])
    play(g, "shoot A1 B3")
    ev = [e for e in g.events if e["e"] == "attack"][-1]
    assert (ev["hits"], ev["wounds"], ev["lost"], ev["destroyed"]) == (4, 2, 2, 1)
    assert all(m.own is tough for m in b3.models)
    g.dice.assert_consumed()


# --- saving throws and allocation ---------------------------------------------------------------


def test_each_attack_is_saved_on_the_save_of_the_model_it_is_allocated_to() -> None:
    """Core Rules, Saving Throw: "If the result is greater than or equal to the Save
    characteristic of the model the attack was allocated to, then that saving throw is
    successful". Two Sisters without an armour save and their Superior (3+): the Sisters take
    the first two attacks (the defender's choice: the main profile first), the Superior saves
    the third on a 3."""
    unit = TargetUnit([1, 1, 1], 1, saves=[(3, None), (7, None), (7, None)], rank=[1, 0, 0])
    dice = Dice.scripted([3, 3, 3, 6, 6, 6, 3])  # hits, wounds, then one saving throw: the Superior's
    res = resolve(AttackProfile(_gun("3")), Target(3, 7, 1, 3), dice, unit)
    dice.assert_consumed()
    assert (res.saves, res.unsaved, res.models_destroyed) == (1, 2, 2)
    assert unit.wounds == [1, 0, 0]
    dice = Dice.scripted([3, 3, 3, 6, 6, 6, 2])  # a 2 fails her 3+
    unit = TargetUnit([1, 1, 1], 1, saves=[(3, None), (7, None), (7, None)], rank=[1, 0, 0])
    assert resolve(AttackProfile(_gun("3")), Target(3, 7, 1, 3), dice, unit).models_destroyed == 3


def test_an_invulnerable_save_counts_only_for_the_model_that_has_it() -> None:
    """Gaunt (5+ invulnerable) among his Ghosts (none): an AP -3 attack allocated to a Ghost
    gets no save, one allocated to Gaunt is saved on his invulnerable 5+."""
    unit = TargetUnit([1, 1], 1, saves=[(4, 5), (5, None)], rank=[1, 0])
    dice = Dice.scripted([3, 3, 6, 6, 5])
    res = resolve(AttackProfile(_gun("2", ap=-3)), Target(3, 5, 1, 2), dice, unit)
    dice.assert_consumed()
    assert (res.saves, unit.wounds) == (1, [1, 0])


def test_a_wounded_model_is_allocated_to_before_the_main_profile() -> None:
    """The defender's choice comes after "a model that has lost wounds first": a hurt character
    among servitors takes the attack; unhurt, the servitors go first."""
    assert TargetUnit([3, 1, 1], 1, fulls=[4, 1, 1], rank=[1, 0, 0]).allocate() == 0
    assert TargetUnit([4, 1, 1], 1, fulls=[4, 1, 1], rank=[1, 0, 0]).allocate() == 1
    assert TargetUnit([4, 1, 1], 1, fulls=[4, 1, 1]).allocate() == 0  # no ranks: in order, as before


@given(st.integers(0, 2**32 - 1), st.integers(2, 7), st.one_of(st.none(), st.integers(3, 6)),
       st.integers(1, 6), st.integers(-3, 0))
def test_identical_models_play_as_before(seed: int, sv: int, inv: int | None, models: int, ap: int) -> None:
    """A unit whose models all have the unit's profile (saves and ranks equal for every model)
    gets the same dice, the same result and the same wounds as without per-model profiles."""
    tgt = Target(4, sv, 2, models, inv)
    before = TargetUnit([2] * models, 2)
    after = TargetUnit([2] * models, 2, saves=[(sv, inv)] * models, rank=[0] * models)
    w = _gun("D6", ap=ap)
    a = resolve(AttackProfile(w, 2), tgt, Dice(seed), before)
    b = resolve(AttackProfile(w, 2), tgt, Dice(seed), after)
    assert dataclasses.astuple(a) == dataclasses.astuple(b) and before.wounds == after.wounds


# --- Objective Control, Move -------------------------------------------------------------------


def test_objective_control_sums_each_models_own_oc() -> None:
    """Core Rules, Objective Markers: a player's Level of Control is the sum of the OC
    characteristics of their models within range; a Heavy Weapon Platform's OC 0 adds nothing."""
    g = at_first_move()
    mk = g.map.layout.markers[0]
    b3 = g.units["B3"]
    place(g, "B3", [(mk.x, mk.y + 0.9), (mk.x, mk.y - 0.9)])
    before = control.levels_of_control(g)[0]["B"]
    assert before == 2 * b3.OC
    platform = Own(T=0, M=0, Sv=b3.Sv, invuln=b3.invuln, invuln_melee=None, OC=0)
    b3.kit_own = [None, platform]
    b3.models[1].own = platform
    kept.touch(g, b3)
    assert b3.mixed_oc and control.levels_of_control(g)[0]["B"] == b3.OC
    b3.battleshocked = True
    kept.touch(g, b3)
    assert control.levels_of_control(g)[0]["B"] == 0


def test_guardian_defenders_platform_has_oc_0() -> None:
    u = _set_up(_unit("aeldari_protector_host.yaml", "Guardian Defenders"))
    platform = _profile(u, "Heavy Weapon Platform")
    owns = [m for m in u.models if m.own is not None]
    assert len(owns) == 1 and u.oc(owns[0]) == platform.OC == 0 and u.oc(u.models[0]) == u.OC > 0


def test_a_unit_moves_as_far_as_its_slowest_model(tmp_path: Path) -> None:
    """Core Rules, Normal Moves: "each model in that unit can move a distance in inches less than
    or equal to its Move (M) characteristic"; the engine moves a unit's models in step, so the
    unit goes as far as its slowest model left. Kroot Farstalkers (7") with Kroot Hounds (12",
    9" after the Flying adaptation's cap): 7" while a Kroot is left, then 9"."""
    u = _set_up(_unit("tau_empire_kroot_raiding_party.yaml", "Kroot Farstalkers"))
    kroot = _profile(u, "Farstalkers & Kill-broker")
    hounds = [m for m in u.models if m.own is not None]
    assert hounds and u.move() == kroot.M
    u.models = hounds
    assert u.move() == 9


# --- base sizes --------------------------------------------------------------------------------


def test_each_model_stands_on_its_own_base() -> None:
    """Guardian Defenders and their Heavy Weapon Platform: each model on its profile's base (the
    data's per-profile ``base``); the unit keeps clear for its largest (formations, paths,
    doorways)."""
    from bagm.engine.board.geometry import MM_PER_INCH

    u = _set_up(_unit("aeldari_protector_host.yaml", "Guardian Defenders"))
    guardian, platform = _profile(u, "Guardian Defender"), _profile(u, "Heavy Weapon Platform")
    radii = sorted({round(m.r * 2 * MM_PER_INCH, 1) for m in u.models})
    assert radii == sorted({guardian.base, platform.base})
    big = next(m for m in u.models if m.own is not None)
    assert u.radius == big.r > u.model_r == min(m.r for m in u.models)


def test_engagement_range_is_measured_from_each_models_own_base() -> None:
    """Core Rules, Engagement Range: within 1" horizontally of an enemy model, measured between
    bases; a Nob on a bigger base of its own reaches an enemy that a Nob on the unit's base
    would not."""
    g = at_first_move()
    b3 = g.units["B3"]
    place(g, "B3", [(25.0, 15.0), (25.0, 16.5)])
    a3 = g.units["A3"]
    r = b3.radius
    # A3's one model 1.2" from the first Nob's base edge: out of Engagement Range
    place(g, "A3", [(25.0 - r - 1.2 - a3.radius, 15.0)])
    assert not positions.engaged(g, a3, b3)
    big = Own(T=0, M=0, Sv=b3.Sv, invuln=b3.invuln, invuln_melee=None, OC=b3.OC, r=r + 0.3)
    b3.kit_own = [big, None]
    b3.models[0].own, b3.models[0].r = big, big.r
    b3.radius, b3.model_r = big.r, r
    kept.touch(g, b3)
    assert positions.engaged(g, a3, b3)  # 0.9" from the bigger base


def test_a_formation_keeps_every_model_on_its_own_base_apart() -> None:
    """Accursed Cultists: three Torments on 40mm bases among Mutants on 25mm. Set up in an Entry
    Zone, no two models' own bases overlap (Rules Adaptations, "Impassable Terrain and Other
    Models"): the formation is spaced for the largest base."""
    import copy
    import math

    from test_game_rules import _armies

    from bagm.engine.game.sequence import Game

    army = build_army("A", str(ROSTERS / "heretic_astartes_underdeck_uprising.yaml"))
    g = Game(11, army, copy.deepcopy(_armies()[1]), dice=Dice(4), rolloffs={"attacker": "A", "first_turn": "A"})
    u = next(v for v in g.units.values() if v.name.startswith("Accursed Cultists"))
    zone = g.map.layout.entry_zones_of("Attacker")[0]
    assert deployment.set_up(g, u, zone.centre, zone=zone)
    radii = sorted({round(m.r, 3) for m in u.models})
    assert len(radii) == 2 and u.radius == max(m.r for m in u.models)
    assert all(math.hypot(a.x - b.x, a.y - b.y) >= a.r + b.r - 1e-6
               for i, a in enumerate(u.models) for b in u.models[i + 1:])
