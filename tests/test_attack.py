"""The attack sequence: each rule on its own, then whole attacks played with scripted dice."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bagm.chance.dice import Dice, DiceExpr, parse_dice
from bagm.data.weapons import Abilities, Anti, AttackError, WeaponProfile
from bagm.engine.attack.rules import (
    AttackProfile,
    Conditions,
    Outcome,
    Reroll,
    SavingThrow,
    Target,
    attack_damage,
    attack_dice,
    critical_hit_on,
    critical_wound_on,
    fnp_saves,
    has_cover,
    hit_modifier,
    hit_roll,
    notes,
    rerolls,
    saving_throw,
    wound_modifier,
    wound_roll,
    wound_threshold,
)
from bagm.engine.attack.sequence import TargetUnit, resolve, resolve_steps


def weapon(a="1", skill: int | None = 3, s=4, ap=0, d="1", melee=False, rng=24, **abilities):
    return WeaponProfile("test gun", melee, parse_dice(a), skill, s, ap, parse_dice(d),
                         Abilities(**abilities), None if melee else rng)


def target(t=4, sv=7, w=1, models=5, **kw):
    return Target(t, sv, w, models, **kw)


def play(script, w, tgt, cond=Conditions(), models=1):
    dice = Dice.scripted(script)
    result = resolve(AttackProfile(w, models, cond), tgt, dice)
    dice.assert_consumed()
    return result


# --- Hit Roll ---------------------------------------------------------------------------------


def test_hit_roll_ones_fail_sixes_are_critical():
    assert hit_roll(1, 2, +1) is Outcome.fail  # an unmodified 1 always fails
    assert hit_roll(6, 6, -1) is Outcome.critical  # an unmodified 6 always hits, critically
    assert hit_roll(3, 3, 0) is Outcome.success
    assert hit_roll(2, 3, 0) is Outcome.fail


def test_hit_modifier_capped_at_plus_or_minus_one():
    assert hit_roll(3, 4, +3) is Outcome.success  # +3 counts as +1
    assert hit_roll(2, 4, +3) is Outcome.fail
    assert hit_roll(5, 4, -5) is Outcome.success  # -5 counts as -1
    assert hit_roll(4, 4, -5) is Outcome.fail


def test_heavy_adds_one_only_when_stationary_and_within_the_cap():
    heavy = weapon(heavy=True)
    assert hit_modifier(heavy, Conditions()) == 0
    assert hit_modifier(heavy, Conditions(remained_stationary=True)) == 1
    assert hit_modifier(heavy, Conditions(remained_stationary=True, hit_mod=1)) == 1
    assert hit_modifier(heavy, Conditions(remained_stationary=True, hit_mod=-1)) == 0
    assert hit_modifier(weapon(), Conditions(remained_stationary=True)) == 0


def test_overwatch_hits_only_on_an_unmodified_six():
    assert hit_roll(5, 2, +1, overwatch=True) is Outcome.fail
    assert hit_roll(6, 6, -1, overwatch=True) is Outcome.critical


def test_conversion_critical_hits_on_four_plus_beyond_12_inches():
    conv = weapon(skill=5, conversion=True)
    assert critical_hit_on(conv, Conditions()) == 6
    assert critical_hit_on(conv, Conditions(beyond_12=True)) == 4
    assert critical_hit_on(conv, Conditions(beyond_12=True, overwatch=True)) == 6
    assert critical_hit_on(weapon(), Conditions(beyond_12=True)) == 6
    assert hit_roll(4, 5, -1, critical_on=4) is Outcome.critical  # and it always hits


# --- Wound Roll -------------------------------------------------------------------------------


@pytest.mark.parametrize("s, t, needed", [
    (8, 4, 2), (9, 4, 2), (7, 4, 3), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6), (1, 4, 6),
    (3, 6, 6), (4, 7, 5), (1, 1, 4), (2, 1, 2), (12, 6, 2), (11, 6, 3), (6, 12, 6), (6, 11, 5),
])
def test_wound_table(s, t, needed):
    assert wound_threshold(s, t) == needed


def test_wound_roll_ones_sixes_and_cap():
    assert wound_roll(1, 2, +1) is Outcome.fail
    assert wound_roll(6, 6, -1) is Outcome.critical
    assert wound_roll(4, 5, +4) is Outcome.success  # +4 counts as +1
    assert wound_roll(3, 5, +4) is Outcome.fail
    assert wound_roll(5, 4, -3) is Outcome.success  # -3 counts as -1
    assert wound_roll(4, 4, -3) is Outcome.fail


def test_anti_makes_critical_wounds_on_x_plus_against_its_keyword():
    anti = weapon(anti=(Anti("INFANTRY", 4), Anti("VEHICLE", 2)))
    assert critical_wound_on(anti, target(keywords=frozenset({"Infantry"}))) == 4
    assert critical_wound_on(anti, target(keywords=frozenset({"VEHICLE", "INFANTRY"}))) == 2
    assert critical_wound_on(anti, target(keywords=frozenset({"MONSTER"}))) == 6
    assert critical_wound_on(weapon(anti=(Anti(None, 3),)), target()) == 3
    assert wound_roll(4, 6, 0, critical_on=4) is Outcome.critical  # and it always wounds
    assert wound_roll(1, 2, 0, critical_on=2) is Outcome.fail


def test_lance_adds_one_to_wound_when_charging():
    lance = weapon(melee=True, lance=True)
    assert wound_modifier(lance, Conditions()) == 0
    assert wound_modifier(lance, Conditions(charged=True)) == 1
    assert wound_modifier(lance, Conditions(charged=True, wound_mod=1)) == 1


def test_rerolls():
    assert rerolls(Reroll.ones, 1, Outcome.fail)
    assert not rerolls(Reroll.ones, 2, Outcome.fail)
    assert rerolls(Reroll.failed, 2, Outcome.fail)
    assert not rerolls(Reroll.failed, 4, Outcome.success)
    assert not rerolls(Reroll.none, 1, Outcome.fail)


# --- Saving Throw -------------------------------------------------------------------------------


def test_armour_save_worsened_by_ap():
    s = saving_throw(weapon(ap=-1), target(sv=3), Conditions())
    assert (s.kind, s.needed, s.modifier, s.chance()) == ("armour", 3, -1, (3, 6))


def test_benefit_of_cover():
    ranged = weapon()
    assert saving_throw(ranged, target(sv=4), Conditions(cover=True)).chance() == (4, 6)
    # a 3+ or better Save gets no cover against AP 0, but does against AP -1
    assert not has_cover(ranged, target(sv=3), Conditions(cover=True))
    assert has_cover(weapon(ap=-1), target(sv=3), Conditions(cover=True))
    assert has_cover(ranged, target(sv=4), Conditions(cover=True))
    # only against ranged attacks, and never against Ignores Cover
    assert not has_cover(weapon(melee=True), target(sv=5), Conditions(cover=True))
    assert not has_cover(weapon(ignores_cover=True), target(sv=5), Conditions(cover=True))


def test_save_never_improved_by_more_than_one():
    both = saving_throw(weapon(), target(sv=5), Conditions(cover=True, save_mod=2))
    assert both.modifier == 1 and both.chance() == (3, 6)
    assert saving_throw(weapon(ap=-3), target(sv=5), Conditions(cover=True, save_mod=2)).modifier == 0


def test_an_unmodified_one_always_fails_a_save():
    s = saving_throw(weapon(), target(sv=2), Conditions(cover=True, save_mod=1))
    assert s.modifier == 1 and not s.succeeds(1) and s.succeeds(2)


def test_invulnerable_save_ignores_ap_and_cover_and_is_taken_when_better():
    s = saving_throw(weapon(ap=-3), target(sv=3, invuln=4), Conditions())
    assert (s.kind, s.needed, s.modifier, s.chance()) == ("invulnerable", 4, 0, (3, 6))
    armour = saving_throw(weapon(ap=-1), target(sv=2, invuln=4), Conditions())
    assert armour.kind == "armour" and armour.chance() == (4, 6)
    covered = saving_throw(weapon(), target(sv=7, invuln=5), Conditions(cover=True))
    assert covered.kind == "invulnerable" and covered.chance() == (2, 6)


def test_no_save_at_all():
    s = saving_throw(weapon(ap=-1), target(sv=6), Conditions())
    assert s.kind == "none" and not s.succeeds(6) and str(s) == "no save"
    assert str(SavingThrow("armour", 3, -1)) == "armour 3+ (-1)"


# --- attacks, damage, Feel No Pain ----------------------------------------------------------


def test_blast_counts_visible_models_only():
    blast = weapon(a="2D6", blast=True)
    assert attack_dice(blast, target(models=11), Conditions()) == (parse_dice("2D6"), DiceExpr.constant(2))
    assert attack_dice(blast, target(models=11, visible=9), Conditions()) == (
        parse_dice("2D6"), DiceExpr.constant(1))
    assert attack_dice(blast, target(models=11, visible=4), Conditions()) == (parse_dice("2D6"),)
    assert attack_dice(blast, target(models=4), Conditions()) == (parse_dice("2D6"),)


def test_rapid_fire_and_melta_need_half_range():
    rf = weapon(a="2", rapid_fire=parse_dice("D3"))
    assert attack_dice(rf, target(), Conditions()) == (parse_dice(2),)
    assert attack_dice(rf, target(), Conditions(half_range=True)) == (parse_dice(2), parse_dice("D3"))
    melta = weapon(d="D6", melta=2)
    assert attack_damage(melta, Conditions()) == parse_dice("D6")
    assert attack_damage(melta, Conditions(half_range=True)) == parse_dice("D6+2")


def test_extra_attacks_are_never_modified():
    ea = weapon(a="2", extra_attacks=True, rapid_fire=parse_dice(1))
    assert attack_dice(ea, target(), Conditions(half_range=True)) == (parse_dice(2),)


def test_feel_no_pain():
    assert fnp_saves(5, 5) and fnp_saves(6, 5) and not fnp_saves(4, 5)
    assert not fnp_saves(6, None)


# --- abilities from the data packs ----------------------------------------------------------


def ability(name, value=None, target=None):
    return SimpleNamespace(name=name, value=value, target=target)


def test_abilities_from_data():
    ab = Abilities.from_data([
        ability("sustained hits", "D3"), ability("lethal hits"), ability("devastating wounds"),
        ability("anti", 4, "infantry"), ability("twin-linked"), ability("melta", 2),
        ability("rapid fire", 1), ability("ignores cover"), ability("indirect fire"),
        ability("extra attacks"), ability("one shot"), ability("rending"),
    ])
    assert ab.sustained_hits == parse_dice("D3") and ab.rapid_fire == parse_dice(1)
    assert ab.lethal_hits and ab.devastating_wounds and ab.twin_linked and ab.ignores_cover
    assert ab.anti == (Anti("INFANTRY", 4),) and ab.melta == 2
    assert ab.indirect_fire and ab.extra_attacks and ab.one_shot
    assert ab.unknown == ("rending",)
    assert ab.names()[:4] == ["Sustained Hits D3", "Rapid Fire 1", "Melta 2", "Anti-Infantry 4+"]


@pytest.mark.parametrize("bad, message", [
    (ability("sustained hits"), "needs a value"),
    (ability("sustained hits", "D8"), "only D3 and D6"),
    (ability("anti", 4), "target keyword"),
    (ability("anti", 9, "VEHICLE"), r"2\+ to 6\+"),
    (ability("melta", "D3"), "whole-number"),
])
def test_bad_abilities(bad, message):
    with pytest.raises(AttackError, match=message):
        Abilities.from_data([bad])


@pytest.mark.parametrize("kwargs, message", [
    (dict(skill=None), "only Torrent"), (dict(skill=7), "2\\+ to 6\\+"), (dict(ap=1), "as printed"),
    (dict(s=0), "Strength"),
])
def test_bad_weapons(kwargs, message):
    with pytest.raises(AttackError, match=message):
        weapon(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(sv=1), "Save"), (dict(w=0), "Wounds"), (dict(models=0), "target models"),
    (dict(invuln=1), "invulnerable"), (dict(fnp=7), "Feel No Pain"), (dict(visible=6), "visible"),
])
def test_bad_targets(kwargs, message):
    with pytest.raises(AttackError, match=message):
        target(**kwargs)


def test_every_bundled_weapon_converts_and_every_ability_is_known():
    from bagm.data.packs import Catalog

    unknown = set()
    count = 0
    for faction in Catalog().all():
        for ds in faction.pack.units:
            for wp in ds.weapons:
                profile = WeaponProfile.from_data(wp)
                count += 1
                unknown |= set(profile.abilities.unknown)
    assert count > 500
    assert not unknown, f"weapon abilities the attack sequence does not know: {sorted(unknown)}"


# --- allocation and mortal wounds -----------------------------------------------------------


def test_allocation_wounded_model_first_then_visible():
    unit = TargetUnit([2, 1, 2], full=2, visible={2})
    assert unit.allocate() == 1
    unit = TargetUnit([2, 2, 2], full=2, visible={2})
    assert unit.allocate() == 2
    assert unit.allocate(ranged=False) == 0  # melee: visibility does not matter
    assert TargetUnit([2, 2], full=2, visible=set()).allocate() is None
    assert TargetUnit([0, 2], full=2).allocate() == 1


def test_mortal_wounds_spill_over_but_devastating_and_hazardous_ones_do_not():
    dice = Dice.scripted([])
    unit = TargetUnit([1] * 5, full=1)
    assert unit.mortal_wounds(3, dice, spill=True) == 3 and unit.destroyed == 3
    unit = TargetUnit([1] * 5, full=1)
    assert unit.mortal_wounds(3, dice, spill=False) == 1 and unit.destroyed == 1
    unit = TargetUnit([2, 2], full=2)
    assert unit.mortal_wounds(3, dice, spill=True) == 3 and unit.wounds == [0, 1]


def test_feel_no_pain_is_rolled_per_wound_and_stops_with_the_model():
    dice = Dice.scripted([5, 1, 2])
    unit = TargetUnit([2, 2], full=2, fnp=5)
    assert unit.lose_wounds(0, 3, dice, "damage") == 2  # 5 saves one, then 1 and 2 fail
    assert unit.wounds == [0, 2]
    dice.assert_consumed()


# --- whole attacks with scripted dice -------------------------------------------------------


def test_book_example_sustained_hits_2_on_a_six():
    # Sustained Hits: an unmodified 6 to hit scores 3 hits in all
    r = play([6, 4, 4, 4], weapon(melee=True, sustained_hits=parse_dice(2)), target())
    assert (r.hits, r.critical_hits, r.wounds, r.models_destroyed) == (3, 1, 3, 3)


def test_sustained_hits_d3_rolls_for_each_critical_hit():
    r = play([6, 2, 5, 1, 4, 4, 4], weapon(a=2, sustained_hits=parse_dice("D3")), target())
    assert (r.hits, r.critical_hits, r.wounds) == (4, 1, 3)


def test_book_example_blast_against_eleven_models():
    # Blast: 2D6 rolled as 9 against 11 models makes 11 attacks
    r = play([4, 5] + [1] * 11, weapon(a="2D6", blast=True), target(models=11))
    assert r.attacks == 11 and r.hits == 0
    # Boarding Actions: only the visible models count (4 visible: no bonus)
    r = play([4, 5] + [1] * 9, weapon(a="2D6", blast=True), target(models=11, visible=4))
    assert r.attacks == 9


def test_lethal_hits_wound_automatically_but_are_saved_normally():
    w = weapon(lethal_hits=True, devastating_wounds=True)
    # hit 6 (no Wound roll), save 3+ rolled 2: fails; damage 1
    r = play([6, 2], w, target(sv=3))
    assert (r.wounds, r.critical_wounds, r.devastating, r.unsaved, r.models_destroyed) == (1, 0, 0, 1, 1)
    r = play([6, 3], w, target(sv=3))
    assert (r.saves, r.models_destroyed) == (1, 0)


def test_devastating_wounds_no_save_and_no_spill_over():
    w = weapon(s=4, d=2, devastating_wounds=True)
    r = play([4, 6], w, target(sv=2, invuln=4))  # no saving throw of any kind
    assert (r.devastating, r.damage, r.wounds_lost, r.models_destroyed) == (1, 2, 1, 1)


def test_devastating_wounds_come_after_the_other_attacks():
    w = weapon(a=2, s=4, d=2, devastating_wounds=True)
    # hits 4, 4; wounds 6 (devastating), 4 (normal); save for the normal one 1;
    # normal damage 2 takes the first W3 model to 1; then 2 mortal wounds: 1 lost, 1 lost to
    # excess as the model dies
    r = play([4, 4, 6, 4, 1], w, target(sv=3, w=3, models=2))
    assert (r.unsaved, r.devastating, r.wounds_lost, r.models_destroyed) == (1, 1, 3, 1)


def test_anti_critical_wounds_with_devastating_wounds():
    w = weapon(s=3, devastating_wounds=True, anti=(Anti("INFANTRY", 4),))
    r = play([3, 4], w, target(t=8, sv=2, keywords=frozenset({"INFANTRY"})))
    assert r.devastating == 1 and r.models_destroyed == 1
    r = play([3, 4], w, target(t=8, sv=2))  # not INFANTRY: a 4 does not wound T8 at S3
    assert r.wounds == 0


def test_excess_damage_is_lost():
    w = weapon(a=2, d="D3")
    # two hits, two wounds, two failed saves; D3 rolled 3 on a W2 model: 1 excess lost
    r = play([4, 4, 4, 4, 1, 3, 1, 1], w, target(sv=4, w=2, models=3))
    assert (r.damage, r.wounds_lost, r.models_destroyed) == (4, 3, 1)


def test_rerolls_in_play():
    w = weapon()
    r = play([1, 5, 4], w, target(), Conditions(reroll_hits=Reroll.ones))
    assert r.hits == 1 and r.models_destroyed == 1
    r = play([1, 1], w, target(), Conditions(reroll_hits=Reroll.ones))  # never re-rolled twice
    assert r.hits == 0
    r = play([2, 6, 2, 4], w, target(), Conditions(reroll_hits=Reroll.failed,
                                                    reroll_wounds=Reroll.failed))
    assert (r.critical_hits, r.wounds) == (1, 1)
    r = play([3, 3, 4], weapon(twin_linked=True), target())  # Twin-linked: re-roll the wound
    assert r.wounds == 1


def test_torrent_never_rolls_to_hit_so_never_scores_critical_hits():
    r = play([3, 4, 4, 4], weapon(a="D6", skill=None, torrent=True, sustained_hits=parse_dice(1)),
             target())
    assert (r.attacks, r.hits, r.critical_hits, r.wounds) == (3, 3, 0, 3)


def test_cover_heavy_melta_rapid_fire_in_play():
    cond = Conditions(cover=True, half_range=True, remained_stationary=True)
    w = weapon(skill=4, d="D6", melta=2, heavy=True, rapid_fire=parse_dice(1))
    # 2 attacks (Rapid Fire 1); hit rolls 3 (Heavy +1) and 2; wound 4; save 4+ with cover: 2
    # fails (2 + 1 = 3); damage D6 rolled 1 + Melta 2 = 3
    r = play([3, 2, 4, 2, 1], w, target(sv=4, w=3, models=1), cond)
    assert (r.attacks, r.hits, r.damage, r.models_destroyed) == (2, 1, 3, 1)


def test_ranged_attacks_end_without_a_visible_model():
    r = play([4, 4], weapon(a=1), target(sv=3, visible=0))
    assert (r.wounds, r.saves, r.unsaved, r.models_destroyed) == (1, 0, 0, 0)
    r = play([4, 4], weapon(a=1, melee=True), target(visible=0))
    assert r.models_destroyed == 1


def test_hazardous_one_test_per_weapon():
    r = play([1, 1, 1, 3], weapon(hazardous=True), target(), models=2)
    assert r.hazardous_failed == 1 and r.hazardous_mortal_wounds == 3


def test_notes_name_removed_and_situational_abilities():
    ab = dict(indirect_fire=True, melta=2, heavy=True, lance=True, precision=True, pistol=True)
    text = " | ".join(notes(AttackProfile(weapon(**ab)), target()))
    assert "Indirect Fire: removed in Boarding Actions" in text
    assert "Melta: not applied (needs --half-range)" in text
    assert "Heavy: not applied (needs --stationary)" in text
    assert "Lance: not applied (needs --charged)" in text
    assert "Pistol: no effect" in text and "Precision" in text
    cover = notes(AttackProfile(weapon(), 1, Conditions(cover=True)), target(sv=3))
    assert any("3+ Save against AP 0" in n for n in cover)


# --- Command Re-roll offers (resolve_steps) -----------------------------------------------------


def steps(script, w, tgt, answers, cond=Conditions(), models=1, attacker=True, defender=True):
    """Drive resolve_steps: each offer is recorded as (what, side, roll) and answered from
    ``answers`` in order (True: re-roll); every scripted die must be used."""
    dice = Dice.scripted(script)
    gen = resolve_steps(AttackProfile(w, models, cond), tgt, dice, None, attacker, defender)
    seen, answers = [], list(answers)
    try:
        offer = next(gen)
        while True:
            seen.append((offer.what, offer.side, offer.roll))
            offer = gen.send(answers.pop(0))
    except StopIteration as stop:
        result = stop.value
    dice.assert_consumed()
    assert not answers
    return result, seen


def test_resolve_steps_without_offers_is_resolve():
    w, tgt = weapon(a="D6", d="D3", sustained_hits=DiceExpr.constant(1)), target(sv=4, w=3, models=3)
    for seed in range(20):
        a = resolve(AttackProfile(w, 2), tgt, Dice(seed))
        gen = resolve_steps(AttackProfile(w, 2), tgt, Dice(seed))
        with pytest.raises(StopIteration) as stop:
            next(gen)  # nothing offered: it runs to the end
        assert stop.value.value == a


def test_command_reroll_new_critical_hit_gets_sustained_hits():
    # 2 attacks: hits 6 (critical: Sustained Hits 1, D=1 extra) and 1; the 1 re-rolled to a 6:
    # a second Critical Hit and its extra hit; 4 Wound rolls of 4; no save
    res, seen = steps([6, 1, 6] + [4] * 4, weapon(a="2", sustained_hits=DiceExpr.constant(1)),
                      target(sv=7), [True])
    assert seen == [("hit", "attacker", 1)]
    assert (res.hits, res.critical_hits, res.wounds) == (4, 2, 4)


def test_command_reroll_never_offered_for_a_die_an_ability_re_rolled():
    # re-roll 1s: the 1 is re-rolled to a 2 (a miss that cannot be re-rolled again); the 2 of the
    # next die is offered
    res, seen = steps([1, 2, 2, 5, 4], weapon(a="2"), target(sv=7), [True],
                      Conditions(reroll_hits=Reroll.ones))
    assert seen == [("hit", "attacker", 2)] and res.hits == 1
    # re-roll failed hits: no die is left to offer
    res, seen = steps([1, 2, 2, 3, 4], weapon(a="2"), target(sv=7), [], Conditions(reroll_hits=Reroll.failed))
    assert seen == [] and res.hits == 1


def test_command_reroll_offers_follow_the_sequence_and_stop_once_taken():
    w = weapon(a="D6", d="D3", hazardous=True)
    # attacks 2; hits 1, 3; wound 1; no offers are taken: attacks, hit, wound, then hazardous 1
    res, seen = steps([2, 1, 3, 1, 1], w, target(sv=7), [False] * 4)
    assert seen == [("attacks", "attacker", 2), ("hit", "attacker", 1), ("wound", "attacker", 1),
                    ("hazardous", "attacker", 1)]
    assert res.hazardous_failed == 1
    # attacks 1 re-rolled to 2: nothing more is offered to the attacker; the defender's failed save
    res, seen = steps([1, 2, 3, 1, 4, 2, 1, 3, 4], w, target(sv=4, w=3), [True, True])
    assert seen == [("attacks", "attacker", 1), ("save", "defender", 2)]
    assert (res.attacks, res.hits, res.wounds, res.saves, res.damage) == (2, 1, 1, 0, 3)
    # damage of a Devastating Wounds attack, offered after it is rolled
    res, seen = steps([3, 6, 1, 2], weapon(d="D3", devastating_wounds=True), target(sv=3, w=3),
                      [True], defender=False)
    assert seen == [("damage", "attacker", 1)] and res.wounds_lost == 2


def test_profiles_and_conditions_hash_once_and_like_their_values():
    """WeaponProfile and Conditions key the exact-odds caches: equal values hash alike (also a
    copy, a replace() and a pickled copy, whose hash is worked out again in its process)."""
    import pickle
    from dataclasses import replace as _replace

    from bagm.engine.attack.rules import Conditions

    c = Conditions(half_range=True)
    for other in (Conditions(half_range=True), _replace(Conditions(), half_range=True),
                  pickle.loads(pickle.dumps(c))):
        assert other == c and hash(other) == hash(c)
    assert "_hash" not in pickle.loads(pickle.dumps(c)).__dict__
    assert hash(Conditions(half_range=False)) != hash(c) or Conditions(half_range=False) != c
