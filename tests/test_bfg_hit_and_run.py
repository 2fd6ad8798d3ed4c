"""Battlefleet Gothic Hit-and-Run attacks, teleport eligibility, damage control, Blast Marker
removal and the user's Critical Hits table: by hand and against a seeded sampler."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from pathlib import Path

import pytest

from bagm.bfg.end_phase import (
    blast_removal,
    repair_dice,
    repairs,
    roll_blast_removal,
    roll_repairs,
)
from bagm.bfg.hit_and_run import (
    Attack,
    hit_and_run,
    roll_hit_and_run,
    teleport,
    teleport_checks,
)
from bagm.bfg.ships import BfgError, parse_ship
from bagm.bfg.tables import load_critical_hits
from bagm.chance.dice import Dice
from bagm.io.yamlsafe import InputError

SIXTH = F(1, 6)


# --- Resolving a Hit-and-Run Attack -------------------------------------------------------


def test_capital_ship_d6_by_hand():
    o = hit_and_run("capital")
    assert o.success == F(5, 6) and o.critical_scores == {k: SIXTH for k in range(2, 7)}
    plus = hit_and_run("capital", Attack(bonus=True))  # +1: a 2 to 7, never fails
    assert plus.success == 1 and plus.critical_scores == {k: SIXTH for k in range(2, 8)}
    minus = hit_and_run("capital", Attack(minus=True))  # -1: a 1 scores 0, a 2 scores 1: both fail
    assert minus.success == F(4, 6) and set(minus.critical_scores) == {2, 3, 4, 5}
    both = hit_and_run("capital", Attack(bonus=True, minus=True))
    assert both.critical_scores == o.critical_scores


def test_escorts_destroyed_on_4_plus_3_plus_with_bonus_5_plus_with_minus():
    assert hit_and_run("escort").success == F(1, 2)
    assert hit_and_run("escort", Attack(bonus=True)).success == F(4, 6)  # 3+ on the die
    assert hit_and_run("escort", Attack(minus=True)).success == F(2, 6)  # 5+ on the die
    assert hit_and_run("escort", attacks=3).at_least_one == F(7, 8)


def test_2d6_and_twice_take_the_lowest_against_tyranids():
    two = hit_and_run("escort", Attack(dice="2d6"))
    assert two.success == F(33, 36)  # only 2 and 3 fail
    tyr = hit_and_run("escort", Attack(dice="2d6", tyranids=True))
    assert tyr.success == F(33, 36) ** 2
    cap = hit_and_run("capital", Attack(dice="2d6", minus=True))
    assert cap.success == F(35, 36) and max(cap.critical_scores) == 11  # a 2 scores 1: fails
    d6 = hit_and_run("escort", Attack(tyranids=True))
    assert d6.success == F(1, 2) and any("Tyranids" in n for n in d6.notes)


def test_several_attacks_binomial():
    o = hit_and_run("capital", attacks=2)
    assert o.successes == {0: F(1, 36), 1: F(10, 36), 2: F(25, 36)}
    assert o.expected_by_score[6] == F(2, 6)


def test_brace_for_impact_saves_an_escort_on_the_users_number():
    # "an escort which has suffered critical damage is automatically destroyed, though they can
    # Brace For Impact!": destroyed on 4+ (1/2), saved on the user's 4+ (1/2): 1/4 each attack
    o = hit_and_run("escort", brace=4)
    assert o.success == F(1, 4) and o.unsaved == F(1, 2)
    assert hit_and_run("escort", attacks=2, brace=4).at_least_one == 1 - F(3, 4) ** 2
    assert hit_and_run("escort", Attack(bonus=True), brace=5).success == F(4, 6) * F(4, 6)
    assert hit_and_run("escort", brace=7).success == F(1, 2)  # a 7 never comes
    assert any("no number" in n for n in hit_and_run("escort").notes)
    with pytest.raises(BfgError, match="escorts only"):
        hit_and_run("capital", brace=4)
    with pytest.raises(BfgError, match="from 2 to 7"):
        hit_and_run("escort", brace=1)
    dice = Dice.scripted([5, 3])  # destroyed on 5, the brace roll of 3 fails to save (4+)
    r = roll_hit_and_run(dice, "escort", Attack(), brace=4)
    assert r.success and r.braced is False
    dice = Dice.scripted([5, 4])
    assert not roll_hit_and_run(dice, "escort", Attack(), brace=4).success
    dice, n = Dice(3), 12_000
    hits = sum(roll_hit_and_run(dice, "escort", Attack(), brace=4).success for _ in range(n))
    assert abs(hits / n - 0.25) < 0.02


def test_bad_requests():
    with pytest.raises(BfgError):
        hit_and_run("defence")
    with pytest.raises(BfgError):
        hit_and_run("capital", attacks=0)


def test_hit_and_run_matches_the_sampler():
    attack = Attack(dice="2d6", tyranids=True, bonus=True)
    odds = hit_and_run("capital", attack)
    dice = Dice(15)
    n = 20_000
    seen = Counter(roll_hit_and_run(dice, "capital", attack).score for _ in range(n))
    for k, p in odds.score.items():
        assert abs(seen[k] / n - float(p)) < 0.01, k
    dice = Dice.scripted([1, 2, 3, 3])  # 1+2 = 3 and 3+3 = 6: the lower, 3, destroys no escort
    assert not roll_hit_and_run(dice, "escort", Attack(dice="2d6", tyranids=True)).success


# --- Teleport Attacks ---------------------------------------------------------------------


def ship(spec: str):  # type: ignore[no-untyped-def]
    return parse_ship(spec)


def unmet(attacker: str, target: str, rng: float = 5, already: bool = False) -> list[str]:
    return [c.rule for c in teleport_checks(ship(attacker), ship(target), rng, already)
            if not c.met]


def test_teleport_every_condition_and_its_boundary():
    ok = "Retribution,damage=12"
    tgt = "Carnage,damage=8,shields=0"
    assert unmet(ok, tgt) == []
    assert unmet(ok, tgt, 10) == [] and unmet(ok, tgt, 10.5) == ["within 10 cm"]
    assert unmet(ok, "Carnage,damage=8,shields=1") == ["target has no shields"]
    for orders in ("lock-on", "reload-ordnance"):
        assert unmet(f"{ok},orders={orders}", tgt) == []
    for orders in ("all-ahead-full", "come-to-new-heading", "burn-retros", "brace-for-impact"):
        assert unmet(f"{ok},orders={orders}", tgt) == ["special orders"]
    assert unmet(f"{ok},crippled", tgt) == ["not crippled"]
    assert unmet("Sword,damage=2,kind=escort", "Cobra,damage=1,kind=escort,shields=0") == []
    assert unmet("Sword,damage=1,kind=escort", "Cobra,damage=1,kind=escort,shields=0") == [
        "damage points left"]
    assert unmet("Platform,damage=1,kind=defence", "Cobra,damage=1,kind=escort,shields=0") == [
        "damage points left"]
    assert unmet("A,damage=8", "B,damage=8,shields=0") == []  # equal is not more
    assert unmet("A,damage=7", "B,damage=8,shields=0") == ["target not bigger"]
    assert unmet(ok, tgt, already=True) == ["one per turn"]


def test_teleport_needs_the_targets_shields_and_gives_odds_only_when_eligible():
    with pytest.raises(BfgError, match="shields=N"):
        teleport(ship("A,damage=8"), ship("B,damage=4"), 5)
    t = teleport(ship("A,damage=8"), ship("B,damage=1,kind=escort,shields=0"), 5)
    assert t.eligible and t.odds is not None and t.odds.success == F(1, 2)
    t = teleport(ship("A,damage=8,crippled"), ship("B,damage=4,shields=0"), 5)
    assert not t.eligible and t.odds is None


# --- Damage Control and Blast Marker Removal ----------------------------------------------


def test_repairs_by_hand():
    assert repair_dice(6, False) == 6 and repair_dice(6, True) == 3 and repair_dice(5, True) == 3
    r = repairs(2)
    assert r.repaired == {0: F(25, 36), 1: F(10, 36), 2: F(1, 36)}
    r = repairs(3, blast=True, needing=1)  # two dice; one thing to repair
    assert r.dice == 2 and r.repaired == {0: F(25, 36), 1: F(11, 36)}
    assert r.all_repaired == F(11, 36)
    assert repairs(0).repaired == {0: 1}


def test_repairs_match_the_sampler():
    odds = repairs(7, blast=True, needing=2)
    dice = Dice(3)
    n = 20_000
    seen = Counter(roll_repairs(dice, 7, True, 2) for _ in range(n))
    for k, p in odds.repaired.items():
        assert abs(seen[k] / n - float(p)) < 0.01


def test_blast_marker_removal_by_hand_and_sampler():
    b = blast_removal(4, in_contact=1)  # three may go
    assert b.removed == {1: SIXTH, 2: SIXTH, 3: F(4, 6)}
    assert blast_removal(2, 2).removed == {0: 1}
    with pytest.raises(BfgError):
        blast_removal(2, 3)
    dice = Dice(9)
    n = 12_000
    seen = Counter(roll_blast_removal(dice, 4, 1) for _ in range(n))
    for k, p in b.removed.items():
        assert abs(seen[k] / n - float(p)) < 0.012


# --- the user's Critical Hits table ---------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "crits.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_critical_hits_table_scores_and_ranges(tmp_path: Path):
    p = write(tmp_path, "# mine\ncritical_hits:\n  2: First effect\n  3-4: Second effect\n")
    assert load_critical_hits(p) == {2: "First effect", 3: "Second effect", 4: "Second effect"}


@pytest.mark.parametrize("text, line, what", [
    ("other: 1\n", 1, "no 'critical_hits'"),
    ("critical_hits:\n  2: a\nextra: 1\n", 3, "unknown key"),
    ("critical_hits:\n  2: a\n  x: b\n", 3, "not a score"),
    ("critical_hits:\n  2-3: a\n  3: b\n", 3, "given twice"),
    ("critical_hits:\n  2: 5\n", 2, "effect's name"),
    ("critical_hits:\n  5-3: a\n", 2, "upwards"),
    ("critical_hits: []\n", 1, "must map"),
])
def test_critical_hits_table_errors_name_the_line(tmp_path: Path, text: str, line: int, what: str):
    with pytest.raises(InputError) as err:
        load_critical_hits(write(tmp_path, text))
    assert err.value.line == line and what in str(err.value)


def test_nurgle_ships_are_not_immune_to_hit_and_run():
    # Hit-and-Run Attacks: ships that cannot be boarded are not automatically immune
    t = teleport(ship("A,damage=8"), ship("N,damage=6,race=chaos,mark=nurgle,shields=0"), 5)
    assert t.eligible and t.odds is not None and t.odds.success == F(5, 6)
