"""Points of a unit at a Starting Strength, and the Boarding Patrol's points limit."""

from __future__ import annotations

from typing import Mapping

# Mustering your Boarding Patrol, step 1: "up to 500 points of units"
POINTS_LIMIT = 500


def half_up(points: int) -> int:
    """Half a points value, rounding up (the book's two halving rules use this)."""
    return -(-points // 2)


def points_for(points: Mapping[int, int], size: int) -> int | None:
    """Points for ``size`` models, or None when the data cannot cost that size.

    - an exact Field Manual entry;
    - Mustering, step 4: a size only costed at twice that size costs half of it, rounding up;
    - Field Manual brackets: a size between two entries pays the next entry up.
    """
    if size in points:
        return points[size]
    if 2 * size in points:
        return half_up(points[2 * size])
    above = [n for n in points if n > size]
    if above and size > min(points):
        return points[min(above)]
    return None


def legal_sizes(points: Mapping[int, int], datasheet_sizes: list[int] | None,
                allowance_sizes: list[int] | None) -> list[int]:
    """Legal Starting Strengths: the Detachment's list, else the datasheet's, else the brackets."""
    if allowance_sizes:
        return sorted(allowance_sizes)
    if datasheet_sizes:
        return sorted(datasheet_sizes)
    return sorted(points)
