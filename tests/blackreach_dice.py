"""The checks every Black Reach procedure gets: its exact odds against the resolver that plays
it, over every scripted dice sequence and with a seeded sampler."""

from __future__ import annotations

import math
from collections import Counter as Tally
from collections.abc import Callable
from fractions import Fraction

from bagm.blackreach.odds import Odds
from bagm.chance.dice import Dice, DiceError

F = Fraction


def every_roll(play: Callable[[Dice], str]) -> dict[str, Fraction]:
    """The exact distribution of ``play``'s answer over every sequence of D6 results."""
    out: dict[str, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        script = stack.pop()
        dice = Dice.scripted(script)
        try:
            answer = play(dice)
        except DiceError:  # the script ran out: try each next result
            stack += [script + (v,) for v in range(1, 7)]
            continue
        dice.assert_consumed()
        out[answer] = out.get(answer, F(0)) + F(1, 6 ** len(script))
    return out


def agrees(odds: Odds, play: Callable[[Dice], str], n: int = 3000, seed: int = 7) -> None:
    """The exact odds equal the resolver over every dice sequence, and a seeded sampler's
    frequencies lie within 4.5 standard deviations of them."""
    assert every_roll(play) == {k: p for k, p in odds.outcomes.items() if p}
    dice = Dice(seed)
    seen = Tally(play(dice) for _ in range(n))
    assert set(seen) <= set(odds.outcomes)
    for k, p in odds.outcomes.items():
        sd = math.sqrt(float(p * (1 - p)) / n)
        assert abs(seen[k] / n - float(p)) <= 4.5 * sd + 1e-12, (k, seen[k], p)
