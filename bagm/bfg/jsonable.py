"""The JSON shapes every End Phase result shares: a chance as a float and as an exact fraction."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bagm.chance.dist import Dist


def number(x: Fraction) -> int | str:
    """A whole number as an int, anything else as an exact fraction ("7/2")."""
    return int(x) if x.denominator == 1 else str(x)


def chance(p: Fraction) -> dict[str, Any]:
    return {"chance": float(p), "exact": str(p)}


def distribution(d: Dist) -> list[dict[str, Any]]:
    """Each value with its chance, in order; impossible values left out."""
    return [{"value": k, "chance": float(p), "exact": str(p)} for k, p in sorted(d.items()) if p]
