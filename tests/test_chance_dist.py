"""The neutral exact-distribution helpers (bagm.chance.dist), checked by hand."""

from fractions import Fraction

import pytest

from bagm.chance.dist import die, highest, lowest, shift


def test_highest_of_two_d6_by_hand():
    best = highest(die(6), 2)
    # the best of two is v when both are at most v and not both below v: (v^2 - (v-1)^2) / 36
    assert best == {v: Fraction(2 * v - 1, 36) for v in range(1, 7)}
    assert highest(die(6), 1) == die(6)


def test_lowest_of_two_d6_by_hand():
    worst = lowest(die(6), 2)
    assert worst == {v: Fraction(2 * (7 - v) - 1, 36) for v in range(1, 7)}
    assert sum(highest(die(6), 3).values()) == 1
    assert highest(die(6), 3)[1] == Fraction(1, 216)


def test_keep_needs_one_value():
    with pytest.raises(ValueError):
        highest(die(6), 0)


def test_shift():
    assert shift(die(3), -2) == {-1: Fraction(1, 3), 0: Fraction(1, 3), 1: Fraction(1, 3)}
