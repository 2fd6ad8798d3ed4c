"""Exact distributions of small integer values, in fractions: never sampling.

A :data:`Dist` maps each value to its probability. The helpers here are the building blocks
of every exact-odds calculation in bagm (the attack sequence's dynamic programming, and the
neighbouring rules systems' resolvers).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from math import comb
from typing import TypeVar

Dist = dict[int, Fraction]
ONE, ZERO = Fraction(1), Fraction(0)
K = TypeVar("K", bound=Hashable)


def die(sides: int) -> Dist:
    """One fair die of ``sides`` sides."""
    face = Fraction(1, sides)
    return {v: face for v in range(1, sides + 1)}


def convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of the sum of two independent values."""
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, ZERO) + p * q
    return out


def power(d: Dist, n: int) -> Dist:
    """The sum of ``n`` independent values each distributed as ``d``."""
    out: Dist = {0: ONE}
    for _ in range(n):
        out = convolve(out, d)
    return out


def mix(parts: Iterable[tuple[Fraction, Dist]]) -> Dist:
    """A mixture: each distribution taken with its weight."""
    out: Dist = {}
    for w, d in parts:
        if w:
            for x, p in d.items():
                out[x] = out.get(x, ZERO) + w * p
    return out


def binomial(n: int, p: Fraction) -> Dist:
    """How many of ``n`` independent trials succeed, each with chance ``p``."""
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def highest(d: Dist, n: int) -> Dist:
    """The highest of ``n`` independent values each distributed as ``d`` (roll n, keep the best)."""
    return _extreme(d, n, max)


def lowest(d: Dist, n: int) -> Dist:
    """The lowest of ``n`` independent values each distributed as ``d`` (roll n, keep the worst)."""
    return _extreme(d, n, min)


def _extreme(d: Dist, n: int, pick: Callable[[int, int], int]) -> Dist:
    if n < 1:
        raise ValueError(f"keep the best or worst of at least one value, not {n}")
    out = dict(d)
    for _ in range(n - 1):
        nxt: Dist = {}
        for x, p in out.items():
            for y, q in d.items():
                k = pick(x, y)
                nxt[k] = nxt.get(k, ZERO) + p * q
        out = nxt
    return out


def shift(d: Dist, by: int) -> Dist:
    """The distribution of a value plus the constant ``by`` (a modifier)."""
    return {x + by: p for x, p in d.items()}


def mean(d: Dist) -> Fraction:
    return sum((x * p for x, p in d.items()), ZERO)


def at_least(d: Dist, value: int) -> Fraction:
    """The chance of a value of ``value`` or more."""
    return sum((p for x, p in d.items() if x >= value), ZERO)


def outcomes(d: Dist, judge: Callable[[int], K]) -> dict[K, Fraction]:
    """The distribution of ``judge(value)``: group a distribution's values into outcomes."""
    out: dict[K, Fraction] = {}
    for x, p in d.items():
        k = judge(x)
        out[k] = out.get(k, ZERO) + p
    return out


def outcomes_of(dists: Iterable[Dist], judge: Callable[..., K]) -> dict[K, Fraction]:
    """The distribution of ``judge(x1, x2, ...)`` over independent values (a joint outcome)."""
    joint: dict[tuple[int, ...], Fraction] = {(): ONE}
    for d in dists:
        nxt: dict[tuple[int, ...], Fraction] = {}
        for xs, p in joint.items():
            for x, q in d.items():
                key = (*xs, x)
                nxt[key] = nxt.get(key, ZERO) + p * q
        joint = nxt
    out: dict[K, Fraction] = {}
    for xs, p in joint.items():
        k = judge(*xs)
        out[k] = out.get(k, ZERO) + p
    return out


def thin(d: Dist, p: Fraction) -> Dist:
    """Each of a counted number of successes survives independently with chance ``p``."""
    return mix((w, binomial(n, p)) for n, w in d.items())


def with_one_retry(n: int, p: Fraction) -> Dist:
    """Successes of ``n`` trials of chance ``p`` when one failed trial may be tried again."""
    first = binomial(n, p)
    out: Dist = {}
    for k, w in first.items():
        if k < n:  # a failure to retry
            out[k + 1] = out.get(k + 1, ZERO) + w * p
            out[k] = out.get(k, ZERO) + w * (1 - p)
        else:
            out[k] = out.get(k, ZERO) + w
    return out
