"""Exact odds: hand-computed cases, the book's examples, agreement with the attack sequence
played with dice (every die sequence enumerated, and a seeded sampler), boundaries, properties,
and the ``bagm odds`` command."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bagm.chance.dice import Dice, DiceError, parse_dice
from bagm.cli.app import app
from bagm.data.weapons import Abilities, Anti, WeaponProfile
from bagm.engine.attack.odds import (
    distribution,
    expected_models_destroyed,
    mean,
    packets_per_attack,
    steps,
)
from bagm.engine.attack.rules import AttackProfile, Conditions, Outcome, Reroll, Target
from bagm.engine.attack.sequence import resolve

runner = CliRunner()


def weapon(a="1", skill: int | None = 3, s=4, ap=0, d="1", melee=False, **abilities):
    return WeaponProfile("test gun", melee, parse_dice(a), skill, s, ap, parse_dice(d),
                         Abilities(**abilities), None if melee else 24)


def odds(w, t, models=1, **cond):
    return distribution(AttackProfile(w, models, Conditions(**cond)), t)


# --- by hand ----------------------------------------------------------------------------------


@pytest.mark.parametrize("w, t, models", [
    (weapon(skill=4), Target(4, 7, 1), 1),
    (weapon(a="D6", s=8, ap=-2, d="D3", devastating_wounds=True), Target(5, 3, 2, models=5), 3),
    (weapon(a=2, skill=None, s=8, d=2, torrent=True), Target(4, 7, 3, models=2, fnp=5), 2),
    (weapon(a=3, d=2, melee=True, lethal_hits=True), Target(4, 3, 3, models=3, visible=1), 4),
    (weapon(a="D3", d="D6+1", blast=True), Target(6, 2, 4, models=6, invuln=4, visible=4), 5),
])
def test_expected_models_destroyed_alone_is_the_same_fraction(w, t, models):
    profile = AttackProfile(w, models, Conditions())
    assert expected_models_destroyed(profile, t) == distribution(profile, t).expected_models_destroyed


def test_one_attack_by_hand():
    # BS4: 1/2; S4 v T4: 1/2; no save
    r = odds(weapon(skill=4), Target(4, 7, 1))
    assert r.damage == {0: F(3, 4), 1: F(1, 4)}
    assert r.models_destroyed == {0: F(3, 4), 1: F(1, 4)}


def test_two_attacks_by_hand():
    # per attack 2/3 * 1/2 * 1/2 = 1/6 gets through; Bin(2, 1/6)
    r = odds(weapon(a=2), Target(4, 4, 1, models=2))
    assert r.damage == {0: F(25, 36), 1: F(10, 36), 2: F(1, 36)}
    assert r.expected_damage == F(1, 3)
    assert r.models_destroyed == r.damage


def test_excess_damage_lost_by_hand():
    # Torrent, S8 v T4 wounds on 2+ (5/6), no save: 0, 1 or 2 packets of 2 damage on a W3 model
    r = odds(weapon(a=2, skill=None, s=8, d=2, torrent=True), Target(4, 7, 3))
    assert r.damage == {0: F(1, 36), 2: F(10, 36), 4: F(25, 36)}
    assert r.wounds_lost == {0: F(1, 36), 2: F(10, 36), 3: F(25, 36)}  # one excess wound lost
    assert r.models_destroyed == {0: F(11, 36), 1: F(25, 36)}


def test_damage_goes_to_one_model_at_a_time():
    # at most two packets of 2 damage against W3 models: 4 damage, but the second packet
    # finishes the first model and its excess is lost, so never 2 models
    r = odds(weapon(a=2, skill=None, s=8, d=2, torrent=True), Target(4, 7, 3, models=3))
    assert max(r.models_destroyed) == 1


def test_feel_no_pain_by_hand():
    # one sure hit wounding on 2+, D2, FNP 5+: each wound lost with 2/3
    r = odds(weapon(skill=None, s=8, d=2, torrent=True), Target(4, 7, 2, fnp=5))
    assert r.damage == {0: F(1, 6) + F(5, 6) * F(1, 9), 1: F(5, 6) * F(4, 9), 2: F(5, 6) * F(4, 9)}


def test_rerolls_by_hand():
    base = steps(AttackProfile(weapon(skill=4)), Target(4, 7, 1))
    assert base.hit[Outcome.success] + base.hit[Outcome.critical] == F(1, 2)
    ones = steps(AttackProfile(weapon(skill=4), 1, Conditions(reroll_hits=Reroll.ones)), Target(4, 7, 1))
    assert ones.hit[Outcome.success] + ones.hit[Outcome.critical] == F(1, 2) + F(1, 6) * F(1, 2)
    failed = steps(AttackProfile(weapon(skill=4), 1, Conditions(reroll_wounds=Reroll.failed)),
                   Target(4, 7, 1))
    assert failed.wound[Outcome.success] + failed.wound[Outcome.critical] == F(3, 4)
    assert failed.wound[Outcome.critical] == F(1, 6) + F(1, 2) * F(1, 6)
    twin = steps(AttackProfile(weapon(skill=4, twin_linked=True)), Target(4, 7, 1))
    assert twin.wound == failed.wound


# --- the book's examples ----------------------------------------------------------------------


def test_book_example_sustained_hits_2():
    # a Critical Hit makes 3 hits: with every hit getting through (Anti 2+ and Devastating
    # Wounds against no save: 5/6), 3 packets come with chance 1/6 * (5/6)^3
    w = weapon(melee=True, s=1, sustained_hits=parse_dice(2), devastating_wounds=True,
               anti=(Anti(None, 2),))
    r = odds(w, Target(12, 2, 1, models=5))
    per = packets_per_attack(r.profile, r.steps)
    assert per[3] == F(1, 6) * F(5, 6) ** 3
    assert sum(per.values()) == 1 and max(per) == 3


def test_book_example_blast_eleven_models():
    # 2D6 Blast against 11 models: +2 attacks, so a roll of 9 makes 11
    r = odds(weapon(a="2D6", blast=True), Target(4, 3, 1, models=11))
    assert r.attacks[11] == parse_dice("2D6").distribution[9] == F(4, 36)
    assert min(r.attacks) == 4 and max(r.attacks) == 14
    # Boarding Actions: only visible models count; 4 visible gives no bonus
    seen = odds(weapon(a="2D6", blast=True), Target(4, 3, 1, models=11, visible=4))
    assert seen.attacks == parse_dice("2D6").distribution


# --- rules through the odds -------------------------------------------------------------------


def test_lethal_hits_are_saved_but_devastating_critical_wounds_are_not():
    t = Target(4, 3, 1, invuln=4)
    lethal = steps(AttackProfile(weapon(lethal_hits=True, devastating_wounds=True)), t)
    per = packets_per_attack(AttackProfile(weapon(lethal_hits=True, devastating_wounds=True)), lethal)
    # 1/2 hit: 1/2 wound (1/3 normal, saved 3+: 1/3 gets through) + 1/6 Devastating;
    # 1/6 Critical Hit: automatically wounds, saved 3+
    assert per[1] == F(1, 2) * (F(1, 3) * F(1, 3) + F(1, 6)) + F(1, 6) * F(1, 3)


def test_visible_models_limit_allocation_of_ranged_attacks_only():
    t = Target(4, 7, 1, models=10, visible=3)
    assert max(odds(weapon(a=20, s=8), t).models_destroyed) == 3
    assert max(odds(weapon(a=20, s=8, melee=True), t).models_destroyed) == 10
    assert odds(weapon(a=20, s=8), Target(4, 7, 1, models=10, visible=0)).models_destroyed == {0: 1}


def test_hazardous():
    r = odds(weapon(hazardous=True), Target(4, 3, 1), models=3)
    assert r.hazardous_failed == {k: math.comb(3, k) * F(1, 6) ** k * F(5, 6) ** (3 - k)
                                  for k in range(4)}


@pytest.mark.parametrize("big, capped", [
    (dict(hit_mod=3), dict(hit_mod=1)), (dict(hit_mod=-4), dict(hit_mod=-1)),
    (dict(wound_mod=2), dict(wound_mod=1)), (dict(wound_mod=-2), dict(wound_mod=-1)),
    (dict(save_mod=2, cover=True), dict(save_mod=1)),
])
def test_modifier_caps(big, capped):
    w, t = weapon(a=3, skill=4), Target(4, 5, 1, models=3)
    assert odds(w, t, **big).damage == odds(w, t, **capped).damage


def test_ones_and_sixes_at_the_extremes():
    # BS2 with +1 still misses on a 1; BS6 with -1 still hits on a 6; S1 v T12 wounds on 6s
    assert steps(AttackProfile(weapon(skill=2), 1, Conditions(hit_mod=1)),
                 Target(4, 7, 1)).hit[Outcome.fail] == F(1, 6)
    assert steps(AttackProfile(weapon(skill=6), 1, Conditions(hit_mod=-1)),
                 Target(4, 7, 1)).hit[Outcome.critical] == F(1, 6)
    s = steps(AttackProfile(weapon(s=1)), Target(12, 2, 1, invuln=4))
    assert s.wound[Outcome.critical] == F(1, 6) and s.wound[Outcome.success] == 0
    assert s.unsaved == F(1, 6)  # Sv 2+, AP 0: only the 1 fails


# --- agreement with the attack sequence played with dice ------------------------------------


class _Need(Exception):
    def __init__(self, sides: int):
        self.sides = sides


class _TreeDice(Dice):
    """Dice playing a fixed prefix, then asking the enumerator which die comes next."""

    def __init__(self, prefix: list[int]):
        super().__init__(None, prefix, strict=True)

    def roll(self, sides: int = 6, reason: str = "") -> int:
        if not self._script:
            raise _Need(sides)
        return super().roll(sides, reason)


def enumerate_resolve(profile: AttackProfile, target: Target):
    """Every die sequence of :func:`resolve`, with its chance: the exact distribution of the
    attack sequence as played, computed without the odds module."""
    out = []
    stack: list[tuple[list[int], F]] = [([], F(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            result = resolve(profile, target, _TreeDice(prefix))
        except _Need as need:
            stack += [(prefix + [v], p / need.sides) for v in range(1, need.sides + 1)]
            continue
        out.append((result, p))
    return out


def tally(runs, key):
    d: dict[int, F] = {}
    for result, p in runs:
        d[key(result)] = d.get(key(result), F(0)) + p
    return d


CASES = [  # small enough to enumerate every die sequence (a few thousand at most)
    (weapon(a=1, d="D3"), Target(4, 4, 2, models=2), {}),
    (weapon(a=1, sustained_hits=parse_dice(1), devastating_wounds=True, d=2),
     Target(4, 3, 3, models=2, invuln=5), {}),
    (weapon(a=1, lethal_hits=True, d=2), Target(5, 3, 1, models=2, fnp=5),
     dict(reroll_hits=Reroll.ones)),
    (weapon(a=2, skill=None, torrent=True, d="D3"), Target(4, 7, 2, models=2), {}),
    (weapon(a=2, skill=None, torrent=True, d=2, devastating_wounds=True),
     Target(4, 4, 3, models=2), {}),
    (weapon(a="D3", skill=None, torrent=True, s=3, d=2, devastating_wounds=True,
            anti=(Anti("INFANTRY", 4),)), Target(4, 6, 3, 2, keywords=frozenset({"INFANTRY"})), {}),
    (weapon(a=1, skill=4, heavy=True, melta=1, twin_linked=True, d="D3"),
     Target(6, 4, 2, models=2), dict(cover=True, half_range=True, remained_stationary=True)),
    (weapon(a=1, sustained_hits=parse_dice("D3"), d=1), Target(4, 7, 1, models=3), {}),
    (weapon(a=1, d=1), Target(4, 5, 1, models=3), dict(reroll_wounds=Reroll.failed, hit_mod=-1)),
    (weapon(a="D3", skill=None, torrent=True, blast=True, d=1), Target(4, 7, 1, models=6, visible=5),
     {}),
    (weapon(a=1, skill=None, torrent=True, d=3, devastating_wounds=True), Target(2, 2, 2, 2, fnp=6),
     {}),
]


@pytest.mark.parametrize("w, t, cond", CASES)
def test_dynamic_programming_equals_every_die_sequence(w, t, cond):
    profile = AttackProfile(w, 1, Conditions(**cond))
    runs = enumerate_resolve(profile, t)
    assert sum(p for _, p in runs) == 1
    exact = distribution(profile, t)
    assert tally(runs, lambda r: r.models_destroyed) == exact.models_destroyed
    assert tally(runs, lambda r: r.wounds_lost) == exact.wounds_lost
    assert tally(runs, lambda r: r.attacks) == exact.attacks


def test_uncapped_damage_equals_every_die_sequence_when_nothing_is_capped():
    # no Feel No Pain and more wounds than any volley can take: played damage is uncapped
    profile = AttackProfile(weapon(a=2, skill=None, torrent=True, devastating_wounds=True,
                                   d="D3"))
    t = Target(4, 4, 20, models=1)
    runs = enumerate_resolve(profile, t)
    assert tally(runs, lambda r: r.damage) == distribution(profile, t).damage


def test_seeded_sampler_agrees_with_exact_distribution():
    profile = AttackProfile(weapon(a="D6", skill=3, s=5, ap=-1, d="D3", sustained_hits=parse_dice(1),
                                   devastating_wounds=True), 3, Conditions(reroll_hits=Reroll.ones))
    t = Target(4, 3, 2, models=5, fnp=6)
    exact = distribution(profile, t)
    n = 4000
    dice = Dice(20240)
    counts: dict[int, int] = {}
    for _ in range(n):
        k = resolve(profile, t, dice).models_destroyed
        counts[k] = counts.get(k, 0) + 1
    # chi-square over the values expected at least 5 times (the rest pooled)
    expected = {k: float(p) * n for k, p in exact.models_destroyed.items()}
    big = [k for k, e in expected.items() if e >= 5]
    chi = sum((counts.get(k, 0) - expected[k]) ** 2 / expected[k] for k in big)
    rest_e = n - sum(expected[k] for k in big)
    rest_o = n - sum(counts.get(k, 0) for k in big)
    if rest_e >= 1:
        chi += (rest_o - rest_e) ** 2 / rest_e
    assert chi < 30, (chi, counts, expected)  # df <= 6: p < 1e-4 if the two disagreed
    sample_mean = sum(k * c for k, c in counts.items()) / n
    second = sum(k * k * p for k, p in exact.models_destroyed.items())
    sd = math.sqrt(float(second) - float(exact.expected_models_destroyed) ** 2)
    assert abs(sample_mean - float(exact.expected_models_destroyed)) < 4 * sd / math.sqrt(n)
    assert len(dice.rolls) > n * 10  # every roll recorded


# --- properties -------------------------------------------------------------------------------

profiles = st.builds(
    lambda a, skill, s, ap, d, sus, lethal, dev, torrent, twin: weapon(
        a=a, skill=None if torrent else skill, s=s, ap=ap, d=d,
        sustained_hits=parse_dice(sus) if sus else None, lethal_hits=lethal,
        devastating_wounds=dev, torrent=torrent, twin_linked=twin),
    st.sampled_from(["1", "2", "3", "D3", "D6"]), st.integers(2, 6), st.integers(1, 10),
    st.integers(-3, 0), st.sampled_from(["1", "2", "D3"]), st.sampled_from([None, "1", "D3"]),
    st.booleans(), st.booleans(), st.booleans(), st.booleans())
targets = st.builds(
    lambda t, sv, w, n, inv, fnp: Target(t, sv, w, n, inv, fnp),
    st.integers(1, 10), st.integers(2, 7), st.integers(1, 3), st.integers(1, 4),
    st.sampled_from([None, 4, 5]), st.sampled_from([None, 5, 6]))


@settings(max_examples=60, deadline=None)
@given(profiles, targets, st.integers(1, 3))
def test_probabilities_sum_to_one_and_expectations_agree(w, t, models):
    r = distribution(AttackProfile(w, models), t)
    for d in (r.attacks, r.packets, r.damage, r.wounds_lost, r.models_destroyed):
        assert sum(d.values()) == 1 and all(p > 0 for p in d.values())
    assert max(r.models_destroyed) <= t.models
    assert max(r.wounds_lost) <= t.models * t.wounds
    assert r.expected_wounds_lost <= r.expected_damage
    # Wald: expected damage = expected packets x expected wounds per packet
    per_packet = r.steps.damage.mean() * (1 - r.steps.fnp_ignores)
    assert r.expected_damage == mean(r.packets) * per_packet
    assert mean(r.packets) == r.expected_attacks * mean(packets_per_attack(r.profile, r.steps))


@settings(max_examples=40, deadline=None)
@given(profiles, targets, st.integers(1, 3))
def test_more_attacks_never_lower_expected_damage(w, t, models):
    fewer = distribution(AttackProfile(w, models), t)
    more = distribution(AttackProfile(w, models + 1), t)
    assert more.expected_damage >= fewer.expected_damage
    assert more.expected_models_destroyed >= fewer.expected_models_destroyed
    assert more.expected_wounds_lost >= fewer.expected_wounds_lost


# --- the command ------------------------------------------------------------------------------

RAW = ["odds", "--attacks", "10", "--bs", "3", "--s", "4", "--ap=-1", "--d", "1", "--t", "4",
       "--sv", "3"]


def test_cli_json_shape_and_exact_values():
    res = runner.invoke(app, RAW + ["--models", "5", "--w", "2", "--format", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    for key in ("expected_damage", "expected_models_destroyed", "damage_distribution",
                "models_destroyed_distribution", "exact"):
        assert key in out
    # 10 attacks x 2/3 x 1/2 x 1/2 (3+ save at AP-1 fails on 1-3)
    assert out["exact"]["expected_damage"] == "5/3"
    assert out["expected_damage"] == pytest.approx(5 / 3)
    assert sum(out["damage_distribution"].values()) == pytest.approx(1)
    assert sum(F(v) for v in out["exact"]["models_destroyed_distribution"].values()) == 1
    assert set(out["models_destroyed_distribution"]) <= {str(k) for k in range(6)}


def test_cli_text_output():
    res = runner.invoke(app, RAW + ["--sustained", "D3", "--devastating", "--cover"])
    assert res.exit_code == 0, res.output
    for text in ("Each step", "expected damage", "models destroyed", "Sustained Hits D3",
                 "Devastating Wounds"):
        assert text in res.output


def test_cli_flags_change_the_odds():
    def expected(*extra):
        res = runner.invoke(app, RAW + ["-f", "json", *extra])
        assert res.exit_code == 0, res.output
        return F(json.loads(res.output)["exact"]["expected_damage"])

    base = expected()
    assert expected("--lethal") > base
    assert expected("--sustained", "1") > base
    assert expected("--reroll-hits", "failed") > expected("--reroll-hits", "ones") > base
    assert expected("--twin-linked") == expected("--reroll-wounds", "failed") > base
    assert expected("--hit-mod", "-1") < base
    assert expected("--cover") < base
    assert expected("--invuln", "2") < base
    assert expected("--fnp", "5") < base
    assert expected("--anti", "4", "--devastating") > expected("--devastating") > base
    assert expected("--torrent") > base
    assert expected("--attacks", "D6+2") == base * F(11, 2) / 10


@pytest.mark.parametrize("args, message", [
    (["--attacks", "D7"], "only D3 and D6"),
    (["--d", "lots"], "--d"),
    (["--ap", "1"], "--ap=-1"),
    (["--ws", "3"], "--bs (a ranged weapon) or --ws"),
    (["--sv", "1"], "Save 1+"),
    (["--models", "0"], "target models"),
    (["--anti", "7"], "--anti 7"),
    (["--weapon", "Bolter"], "--weapon needs --attacker"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args, message):
    res = runner.invoke(app, RAW + args)
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output and res.output.count("\n") == 1


def test_cli_missing_characteristics():
    res = runner.invoke(app, ["odds", "--attacks", "3", "--s", "4", "--t", "4", "--sv", "3"])
    assert res.exit_code == 2 and "--d" in res.output and "--bs or --ws" in res.output
    res = runner.invoke(app, ["odds", "--attacks", "3", "--bs", "3", "--s", "4", "--d", "1"])
    assert res.exit_code == 2 and "--t and --sv" in res.output
    res = runner.invoke(app, ["odds", "--attacks", "3", "--ws", "3", "--s", "4", "--d", "1",
                              "--t", "4", "--sv", "3", "--cover"])
    assert res.exit_code == 2 and "only against ranged attacks" in res.output


PACK = """\
faction: Odds Testers
points_source: tests
units:
  - name: Gunners
    keywords: [INFANTRY]
    faction_keywords: [ODDS TESTERS]
    points: {5: 50, 10: 100}
    models:
      - {name: Gunner, M: 6, T: 4, Sv: 3, W: 2, Ld: 6, OC: 1, count: 5-10}
    weapons:
      - {name: Test rifle, type: ranged, range: 24, A: 2, skill: 3, S: 4, AP: -1, D: 1,
         abilities: [{name: rapid fire, value: 1}, {name: indirect fire}]}
      - {name: Anti-grunt gun, type: ranged, range: 24, A: 1, skill: 3, S: 3, AP: 0, D: 2,
         abilities: [{name: anti, target: INFANTRY, value: 4}, {name: devastating wounds}]}
  - name: Boss
    keywords: [INFANTRY, CHARACTER, VEHICLE]
    faction_keywords: [ODDS TESTERS]
    points: {1: 60}
    models:
      - {name: Boss, M: 6, T: 5, Sv: 2, W: 5, Ld: 6, OC: 1, invuln: 4, count: '1'}
"""


@pytest.fixture
def pack(tmp_path: Path) -> list[str]:
    (tmp_path / "odds_testers.yaml").write_text(PACK, encoding="utf-8")
    return ["--data", str(tmp_path), "--faction", "Odds Testers", "--target-faction", "Odds Testers"]


def test_cli_from_datasheets(pack):
    res = runner.invoke(app, ["odds", "--attacker", "Gunners", "--weapon", "test rifle",
                              "--target", "Gunners", "-f", "json", *pack])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    # 5 models x 2 attacks; 2/3 hit; 1/2 wound; 3+ at AP-1 fails 1/2 -> 5/3
    assert out["exact"]["expected_damage"] == "5/3"
    assert out["target"] == {"name": "Gunners", "models": 5, "T": 4, "Sv": 3, "W": 2, "invuln": None, "fnp": None,
                             "visible": 5, "allocatable": 5}
    assert any("Indirect Fire: removed in Boarding Actions" in n for n in out["notes"])
    assert any("Rapid Fire: not applied" in n for n in out["notes"])
    assert any("smallest size" in n for n in out["notes"])
    half = runner.invoke(app, ["odds", "--attacker", "Gunners", "--weapon", "Test rifle",
                               "--target", "Gunners", "--half-range", "--attacker-models", "10",
                               "--models", "10", "-f", "json", *pack])
    assert json.loads(half.output)["exact"]["expected_damage"] == "5"  # 10 x 3 attacks


def test_cli_anti_uses_the_target_keywords(pack):
    res = runner.invoke(app, ["odds", "--attacker", "Gunners", "--weapon", "Anti-grunt gun",
                              "--target", "Boss", "--attacker-models", "1", "-f", "json", *pack])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["steps"]["critical_wound_on"] == 4
    assert out["steps"]["save"] == "armour 2+"  # better than the 4+ invulnerable at AP 0
    # 2/3 hit; S3 v T5 wounds on 5+, but Anti makes 4+ critical (Devastating, no save): 1/2
    assert F(out["exact"]["expected_damage"]) == F(2, 3) * F(1, 2) * 2


@pytest.mark.parametrize("args, message", [
    (["--attacker", "Gunnars", "--weapon", "Test rifle"], "did you mean 'Gunners'"),
    (["--attacker", "Gunners", "--weapon", "Test rifel"], "did you mean 'Test rifle'"),
])
def test_cli_datasheet_errors(pack, args, message):
    res = runner.invoke(app, ["odds", *args, "--t", "4", "--sv", "3", *pack])
    assert res.exit_code == 2 and message in res.output, res.output


def test_cli_attacker_without_weapon_lists_its_weapons(pack):
    res = runner.invoke(app, ["odds", "--attacker", "Gunners", "--t", "4", "--sv", "3", *pack])
    assert res.exit_code == 0 and "Weapons of Gunners" in res.output and "Test rifle" in \
        res.output, res.output


def test_registering_the_command_does_not_import_the_engine():
    import subprocess
    import sys

    code = "import sys, bagm.cli.app; print(any(m.startswith('bagm.engine') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_dice_error_type_is_exported():
    with pytest.raises(DiceError):
        parse_dice("D5")
