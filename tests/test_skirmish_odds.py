"""Skirmish Battles: exact attack odds, checked by hand on simple cases and against a seeded
sampler that plays the same rules with dice."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from bagm.chance.dice import Dice
from bagm.cli.app import app
from bagm.skirmish.odds import Attack, Reroll, Target, odds, sample, saving_throw
from bagm.skirmish.tables import Damage, RulesError

D = Damage


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


def test_one_bolter_shot_at_a_marine_by_hand() -> None:
    # BS 4: 3+ (2/3); S4 v T4: 4+ (1/2); Sv 3+ against AP 5: saved on 3+ (fails 1/3)
    o = odds(Attack(1, 4, bs=4, ap=5), Target(4, save=3))
    assert (o.hit, o.wound, o.unsaved) == (F(2, 3), F(1, 2), F(1, 3))
    through = F(1, 9)  # damage row 0: Pinned 1-3, Stunned 4-5, Out of Action 6
    assert o.result == {D.UNHARMED: 1 - through, D.PINNED: through / 2,
                        D.STUNNED: through / 3, D.OUT_OF_ACTION: through / 6}


def test_ap_equal_to_the_save_denies_it_and_invulnerable_saves_stand() -> None:
    assert saving_throw(Attack(1, 4, bs=4, ap=3), Target(4, save=3)) == (None, "none")
    assert saving_throw(Attack(1, 4, bs=4, ap=4), Target(4, save=3)) == (3, "armour")
    assert saving_throw(Attack(1, 4, bs=4, ap=2), Target(4, save=3, invulnerable=5)) == (5, "invulnerable")
    assert saving_throw(Attack(1, 4, bs=4, no_armour=True), Target(4, save=2)) == (None, "none")
    # Choppa: armour saves better than 4+ are made at 4+
    assert saving_throw(Attack(1, 4, ws=4, close_combat=True, choppa=True), Target(4, save=2, ws=4)) == (4, "armour")


def test_cover_saves() -> None:
    t = Target(3, save=5, cover=True)
    assert saving_throw(Attack(1, 4, bs=3, ap=5), t) == (4, "cover")  # AP never negates cover
    assert saving_throw(Attack(1, 4, bs=3, no_cover=True), t) == (5, "armour")  # Template
    assert saving_throw(Attack(1, 4, ws=3, close_combat=True), Target(3, save=5, cover=True, ws=3)) == (5, "armour")
    # Height Advantage: the shooter above makes every save one worse; the target above
    # improves its cover by one
    assert saving_throw(Attack(1, 4, bs=3), Target(3, save=5, cover=True, shooter_above=True)) == (5, "cover")
    assert saving_throw(Attack(1, 4, bs=3), Target(3, save=6, cover=True, above_shooter=True)) == (3, "cover")
    assert saving_throw(Attack(1, 4, bs=3), Target(3, save=6, shooter_above=True)) == (None, "none")


def test_strength_over_twice_toughness_adds_one_to_the_damage_roll() -> None:
    # S9 v T4 wounds on 2+, row 5 (Stunned A, OOA 2+, Killed 4+), +1: Killed on 3+, OOA on 1-2
    o = odds(Attack(1, 9, auto_hit=True), Target(4))
    assert o.result == {D.OUT_OF_ACTION: F(5, 6) * F(2, 6), D.KILLED: F(5, 6) * F(4, 6),
                        D.UNHARMED: F(1, 6)}


def test_worst_of_two_damage_rolls() -> None:
    # two sure wounds at row 0 (no save): worst of two rolls
    o = odds(Attack(2, 10, auto_hit=True), Target(10))  # S10 v T10: 4+ to wound
    p_two = F(1, 4)
    assert o.result[D.OUT_OF_ACTION] == F(1, 2) * F(1, 2) * 2 * F(1, 6) + p_two * (1 - F(5, 6) ** 2)


def test_several_wounds_roll_only_on_the_last() -> None:
    o = odds(Attack(1, 10, auto_hit=True), Target(3, wounds=2))  # one sure wound: W2 -> W1
    assert o.result == {D.UNHARMED: F(1)} and o.wounds_left == {1: F(5, 6), 2: F(1, 6)}
    o = odds(Attack(2, 10, auto_hit=True), Target(3, wounds=2))
    assert o.result[D.UNHARMED] == 1 - F(5, 6) ** 2


def test_rerolls_of_failed_hits_and_of_one_hit() -> None:
    o = odds(Attack(1, 4, bs=3, reroll_hits=Reroll.failed), Target(4))
    assert o.hit == F(1, 2) + F(1, 2) * F(1, 2)
    o = odds(Attack(2, 4, bs=3, reroll_hits=Reroll.one), Target(4))
    # two misses (1/4): one re-roll; one miss (1/2): re-roll it
    assert o.hits == {0: F(1, 8), 1: F(1, 4) * F(1, 2) + F(1, 2) * F(1, 2), 2: F(1, 4) + F(1, 4)}


def test_gauss_wounds_on_a_six_whatever_the_toughness() -> None:
    o = odds(Attack(1, 3, auto_hit=True, gauss=True), Target(7))
    assert o.wound_needed == 0 and o.wound == F(1, 6)
    assert odds(Attack(1, 3, auto_hit=True), Target(7)).wound == 0


def test_sniper_on_overwatch() -> None:
    o = odds(Attack(1, 4, bs=2, sniper=True), Target(4, save=4))
    # hits 2+, wounds 4+, damage row = T (4: Stunned A, OOA 2+, Killed 5+), always Pinned
    assert (o.hit_needed, o.wound_needed) == (2, 4)
    through = F(5, 6) * F(1, 2) * F(1, 2)
    assert o.result[D.PINNED] == 1 - through
    assert o.result[D.KILLED] == through * F(2, 6)


def test_blast_pins_thunder_hammer_stuns_pulse_carbine_pins_partial_halves() -> None:
    o = odds(Attack(1, 3, auto_hit=True, pins_on_hit=True), Target(10))
    assert o.result == {D.PINNED: F(1)}
    o = odds(Attack(1, 3, bs=4, stuns_on_hit=True), Target(10))
    assert o.result == {D.UNHARMED: F(1, 3), D.STUNNED: F(2, 3)}
    o = odds(Attack(1, 4, auto_hit=True, pins_on_wound=True), Target(4, wounds=3))
    assert o.result == {D.UNHARMED: F(1, 2), D.PINNED: F(1, 2)}
    o = odds(Attack(1, 3, auto_hit=True, partial=True, pins_on_hit=True), Target(10))
    assert o.result == {D.UNHARMED: F(1, 2), D.PINNED: F(1, 2)}


def test_dodge_is_a_further_six_in_close_combat_only() -> None:
    cc = odds(Attack(1, 4, close_combat=True, ws=4, auto_hit=True), Target(4, save=4, ws=4, dodge=True))
    assert cc.result[D.UNHARMED] == 1 - F(1, 2) * F(1, 2) * F(5, 6)
    shot = odds(Attack(1, 4, auto_hit=True), Target(4, save=4, dodge=True))
    assert shot.result[D.UNHARMED] == 1 - F(1, 2) * F(1, 2)


def test_a_monstrous_attacker_by_hand() -> None:
    # S8 v T4, one sure hit: wounds on 2+ (5/6); Damage row 4: Stunned A, OOA 2+, Killed 5+
    a = Attack(1, 8, close_combat=True, auto_hit=True, monstrous=True)
    o = odds(a, Target(4, save=2))  # Monstrous Creatures ignore armour saves
    assert (o.save, o.save_kind) == (None, "none")
    assert o.result == {D.UNHARMED: F(1, 6), D.STUNNED: F(5, 36), D.OUT_OF_ACTION: F(15, 36),
                        D.KILLED: F(10, 36)}
    assert odds(a, Target(4, save=2, invulnerable=4)).save_kind == "invulnerable"
    # a W2 model: that wound is not its last, so it rolls at once and Killed counts as OOA
    o = odds(a, Target(4, wounds=2))
    assert o.result == {D.UNHARMED: F(1, 6), D.STUNNED: F(5, 36), D.OUT_OF_ACTION: F(25, 36)}
    assert o.wounds_left == {1: F(5, 6), 2: F(1, 6)}
    assert "never says which models are Monstrous" in o.notes[0]
    # boundary: not Monstrous, the same wound makes no Damage roll (down to its last wound)
    assert odds(Attack(1, 8, close_combat=True, auto_hit=True), Target(4, wounds=2)).result == {
        D.UNHARMED: F(1)}
    # two sure wounds on W2: the first rolls (Killed -> OOA), the second, its last, as printed
    o = odds(Attack(2, 8, close_combat=True, auto_hit=True, monstrous=True), Target(1, wounds=2))
    # S8 v T1: wound 2+, row 6 (OOA A, Killed 3+) +1 for S over 2T: Killed on 2+ at the last
    both = F(25, 36)
    assert o.result[D.KILLED] == both * F(5, 6)
    with pytest.raises(RulesError, match="close combat only"):
        odds(Attack(1, 8, bs=4, monstrous=True), Target(4))


def test_monstrous_on_the_command_line() -> None:
    result = run("skirmish", "odds", "--cc", "--attacks", "1", "--auto-hit", "--s", "8", "--t", "4",
                 "--sv", "2", "--w", "2", "--monstrous", "-f", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["save"] is None and out["result"]["out of action"] == "25/36"
    assert any("reading: Monstrous" in n for n in out["notes"])
    assert run("skirmish", "odds", "--attacks", "1", "--bs", "4", "--monstrous").exit_code == 2


def test_close_combat_uses_the_chart() -> None:
    o = odds(Attack(3, 4, close_combat=True, ws=3, ap=None), Target(4, ws=5))
    assert o.hit_needed == 4 and o.hit == F(1, 2)  # a lost row, from the formula
    with pytest.raises(RulesError):
        odds(Attack(1, 4, close_combat=True, ws=3), Target(4))


@pytest.mark.parametrize("attack, target", [
    (Attack(3, 4, bs=4, ap=5), Target(4, save=3)),
    (Attack(2, 8, bs=3, reroll_hits=Reroll.one, reroll_wounds=Reroll.failed), Target(3, save=4, wounds=2)),
    (Attack(4, 5, close_combat=True, ws=4, gauss=True, damage_bonus=1, choppa=True),
     Target(4, save=2, ws=4, cover=True)),
    (Attack(2, 4, bs=2, sniper=True, partial=True), Target(3, save=5, invulnerable=6)),
    (Attack(3, 6, close_combat=True, ws=5, stuns_on_hit=True), Target(4, save=3, ws=3, dodge=True, wounds=2)),
    (Attack(4, 8, close_combat=True, ws=5, monstrous=True), Target(4, save=3, invulnerable=5, ws=4, wounds=3)),
])
def test_exact_odds_agree_with_a_seeded_sampler(attack: Attack, target: Target) -> None:
    trials = 6000
    exact = odds(attack, target).result
    counts = sample(attack, target, Dice(2024), trials)
    assert sum(exact.values()) == 1
    for d in Damage:
        p = float(exact.get(d, 0))
        sd = math.sqrt(max(p * (1 - p), 1e-9) / trials)
        assert abs(counts[d] / trials - p) <= 5 * sd + 1e-9, (d, counts[d] / trials, p)


def test_odds_command_text_and_json() -> None:
    result = run("skirmish", "odds", "--attacks", "1", "--bs", "4", "--s", "4", "--t", "4",
                 "--sv", "3", "--ap", "5", "-f", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["result"]["out of action"] == "1/54" and out["hit"] == "2/3"
    result = run("skirmish", "odds", "--type", "rapid_fire", "--bs", "3", "--s", "4")
    assert result.exit_code == 0 and "2 shot(s)" in result.output
    assert run("skirmish", "odds", "--type", "heavy", "--moved", "--bs", "3").exit_code == 2
    assert run("skirmish", "odds", "--attacks", "2", "--bs", "0").exit_code == 2
    assert run("skirmish", "odds", "--attacks", "2", "--bs", "3", "--s", "21").exit_code == 2
    result = run("skirmish", "odds", "--attacks", "1", "--bs", "3", "--s", "12", "-f", "json")
    assert result.exit_code == 0 and "Strength 10" in json.loads(result.output)["notes"][0]
    assert run("skirmish", "odds", "--attacks", "2", "--cc", "--ws", "3").exit_code == 2
    assert run("skirmish", "odds", "--attacks", "2", "--bs", "3", "--reroll-hits", "x").exit_code == 2


def test_a_rolled_strength_by_hand() -> None:
    # S D3+2 (3, 4 or 5) against T4, auto hit, no save: wounds on 5+, 4+, 3+
    from bagm.chance.dice import parse_dice

    o = odds(Attack(1, 3, auto_hit=True), Target(4), strength=parse_dice("D3+2").distribution)
    assert o.wound == (F(2, 6) + F(3, 6) + F(4, 6)) / 3
    # each wound's Damage roll at the Strength that wounded: row 0 for S 3 and 4, row 1 for S 5
    w3, w4, w5 = F(2, 6) / 3, F(3, 6) / 3, F(4, 6) / 3
    assert o.result[D.OUT_OF_ACTION] == (w3 + w4) * F(1, 6) + w5 * F(2, 6)


def test_a_rad_grenade_lands_d3_hits_after_one_roll_to_hit() -> None:
    from bagm.chance.dice import parse_dice
    from bagm.skirmish.odds import volley

    o = volley(Attack(1, 4, bs=3, ap=3), Target(3), parse_dice("D3").distribution,
               parse_dice("D6+4").distribution)
    none_through = (F(1, 6) + F(1, 6) ** 2 + F(1, 6) ** 3) / 3
    assert o.result[D.UNHARMED] == F(1, 2) + F(1, 2) * none_through


def test_rolled_strength_agrees_with_the_sampler() -> None:
    from bagm.chance.dice import parse_dice

    a, t = Attack(2, 4, bs=4, ap=5), Target(4, save=4, wounds=2)
    exact = odds(a, t, strength=parse_dice("D6+6").distribution, attacks=parse_dice("D3").distribution).result
    trials = 6000
    counts = sample(a, t, Dice(7), trials, strength=parse_dice("D6+6"), attacks=parse_dice("D3"))
    for d in Damage:
        p = float(exact.get(d, 0))
        assert abs(counts[d] / trials - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-9) / trials) + 1e-9


def test_special_weapons_from_the_text() -> None:
    result = run("skirmish", "odds", "--weapon", "power fist", "--ws", "4", "--enemy-ws", "4",
                 "--s", "4", "--attacks", "2", "--t", "4", "--sv", "3", "-f", "json")
    out = json.loads(result.output)
    assert result.exit_code == 0 and out["wound_needed"] == 2 and out["save"] is None  # S 8, no save
    assert "Power Fist" in out["notes"][0]
    result = run("skirmish", "odds", "--weapon", "Power Fist", "--ws", "4", "--enemy-ws", "4",
                 "--s", "6", "--attacks", "1", "--t", "4", "-f", "json")
    assert json.loads(result.output)["wound_needed"] == 2  # 12 capped at 10
    result = run("skirmish", "odds", "--weapon", "Krak Grenade", "--bs", "4", "--t", "4", "--sv", "3", "-f", "json")
    out = json.loads(result.output)
    assert out["result"]["unharmed"] == "1/3"  # a hit pins (Blast) even when it does not wound
    result = run("skirmish", "odds", "--weapon", "RAD Grenade", "--bs", "3", "--t", "3", "-f", "json")
    assert json.loads(result.output)["result"]["unharmed"] == "691/1296"
    assert run("skirmish", "odds", "--weapon", "Laser Sword", "--attacks", "1", "--bs", "3").exit_code == 2
    result = run("skirmish", "weapons")
    assert result.exit_code == 0 and "Thunder Hammer" in result.output
