"""Dice: expressions, seeded rolling, the roll record, scripted results."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bagm.chance.dice import Dice, DiceError, DiceExpr, parse_dice


@pytest.mark.parametrize("text, expr", [
    ("3", DiceExpr(0, 6, 3)),
    (3, DiceExpr(0, 6, 3)),
    ("D3", DiceExpr(1, 3, 0)),
    ("d6", DiceExpr(1, 6, 0)),
    ("2D6", DiceExpr(2, 6, 0)),
    ("D6+2", DiceExpr(1, 6, 2)),
    (" 2d3 + 1 ", DiceExpr(2, 3, 1)),
    ("0", DiceExpr(0, 6, 0)),
])
def test_parse(text, expr):
    assert parse_dice(text) == expr


@pytest.mark.parametrize("text", ["D7", "D", "2D", "D6-1", "D6+", "abc", "", "0D6", "21D6",
                                  "D6*2", "1.5", -1, 201, True, 1.5, None, "3D6+201"])
def test_bad_expressions_say_what_to_write(text):
    with pytest.raises(DiceError) as err:
        parse_dice(text, "Damage")
    assert "Damage" in str(err.value)
    assert "\n" not in str(err.value)


def test_text_min_max_and_mean():
    e = parse_dice("2D6+1")
    assert (str(e), e.min, e.max, e.mean()) == ("2D6+1", 3, 13, 8)
    assert (str(parse_dice("D3")), str(parse_dice(4))) == ("D3", "4")


def test_distributions():
    assert parse_dice("D3").distribution == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    two = parse_dice("2D6").distribution
    assert two[7] == Fraction(1, 6) and two[2] == two[12] == Fraction(1, 36)
    assert parse_dice("D6+2").distribution == {v: Fraction(1, 6) for v in range(3, 9)}
    assert parse_dice(5).distribution == {5: 1}


@given(st.integers(0, 4), st.sampled_from([3, 6]), st.integers(0, 5))
def test_expression_properties(count, sides, bonus):
    e = DiceExpr(count, sides, bonus) if count else DiceExpr.constant(bonus)
    assert parse_dice(str(e)) == e
    dist = e.distribution
    assert sum(dist.values()) == 1
    assert min(dist) == e.min and max(dist) == e.max
    assert sum(v * p for v, p in dist.items()) == e.mean()
    dice = Dice(count * 100 + bonus)
    for _ in range(20):
        assert e.min <= dice.roll_expr(e) <= e.max


def test_seeded_dice_repeat_and_never_touch_the_global_generator():
    random.seed(12345)
    state = random.getstate()
    one, two = Dice(7), Dice(7)
    assert [one.d6() for _ in range(50)] == [two.d6() for _ in range(50)]
    assert [Dice(8).d6() for _ in range(50)] != [Dice(9).d6() for _ in range(50)]
    assert random.getstate() == state


def test_every_roll_is_recorded_with_its_reason():
    dice = Dice(1)
    dice.d6("hit")
    dice.d3("sustained hits")
    dice.roll_expr("2D6+1", "attacks")
    assert [(r.sides, r.reason) for r in dice.rolls] == [(6, "hit"), (3, "sustained hits"),
                                                         (6, "attacks"), (6, "attacks")]
    assert all(not r.scripted for r in dice.rolls)
    assert str(dice.rolls[0]).startswith("D6=")


def test_scripted_dice_play_exactly_their_results():
    dice = Dice.scripted([6, 1, 3])
    assert dice.d6("hit") == 6
    assert dice.roll_expr("D6+2", "damage") == 3
    assert dice.pending == (3,)
    with pytest.raises(AssertionError, match="not used"):
        dice.assert_consumed()
    assert dice.d3() == 3
    dice.assert_consumed()
    with pytest.raises(DiceError, match="ran out at roll 4"):
        dice.d6("wound")
    assert all(r.scripted for r in dice.rolls)


def test_scripted_result_must_fit_the_die():
    with pytest.raises(DiceError, match="does not fit a D3"):
        Dice.scripted([4]).d3("sustained hits")
    with pytest.raises(DiceError, match="does not fit a D6"):
        Dice.scripted([0]).d6()
    with pytest.raises(DiceError, match="no D8"):
        Dice(1).roll(8)


def test_fed_results_come_before_random_ones():
    dice = Dice(3)
    dice.feed([2, 2])
    assert [dice.d6(), dice.d6()] == [2, 2]
    assert 1 <= dice.d6() <= 6
    dice.assert_consumed()


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), sides=st.sampled_from([3, 6]))
def test_rolls_are_the_numbers_randint_gives(seed: int, sides: int) -> None:
    """Dice draw from the public getrandbits as random.randint draws: the same numbers, so a
    seed replays every game logged before the change."""
    import random

    dice, ref = Dice(seed), random.Random(seed)
    assert [dice.roll(sides) for _ in range(200)] == [ref.randint(1, sides) for _ in range(200)]
