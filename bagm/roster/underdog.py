"""The Underdog (mission sequences, step 1: Muster Boarding Patrol)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# "at least 30 points less than their opponent's ... is the Underdog"
UNDERDOG_GAP = 30


@dataclass(frozen=True)
class UnderdogResult:
    points_a: int
    points_b: int
    names: tuple[str, str] = ("A", "B")
    mission: dict[str, object] | None = None

    @property
    def difference(self) -> int:
        return abs(self.points_a - self.points_b)

    @property
    def underdog(self) -> Literal["A", "B"] | None:
        if self.points_a <= self.points_b - UNDERDOG_GAP:
            return "A"
        if self.points_b <= self.points_a - UNDERDOG_GAP:
            return "B"
        return None

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"underdog": self.underdog,
                                  "points": {"A": self.points_a, "B": self.points_b},
                                  "difference": self.difference}
        if self.mission is not None:
            out["mission"] = self.mission
        return out


def decide(points_a: int, points_b: int, names: tuple[str, str] = ("A", "B"),
           mission: dict[str, object] | None = None) -> UnderdogResult:
    """The Underdog of two Army Rosters' combined points totals. Step 1 (Muster Boarding
    Patrol) compares these totals; Form Boarding Squads (step 5) comes later, so the halves of
    split units rounded up never decide it. The CLI (`bagm underdog`) and the engine both call
    this with the roster totals."""
    return UnderdogResult(points_a, points_b, names, mission)
