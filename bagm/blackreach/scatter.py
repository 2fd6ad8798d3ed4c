"""INDIRECT FIRE scatter: 1-4 scatters the template the chart's way by its scatter distance,
5-6 hits the target interspace; SIGNUM shortens the distance by 1; template G never scatters."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bagm.blackreach.odds import Chances, Odds, add, need
from bagm.chance.dice import Dice

ON_TARGET = "on target"


@dataclass(frozen=True)
class Scatter:
    distance: int  # the number on the template's scatter symbol (on the component)
    signum: bool = False
    template: str = ""
    directions: tuple[str, ...] = ("direction 1", "direction 2", "direction 3", "direction 4")

    def __post_init__(self) -> None:
        need(self.distance >= 0, "the scatter distance is 0 or more interspaces")
        need(len(self.directions) == 4, "the scatter chart has 4 directions (results 1 to 4)")

    @property
    def scatters(self) -> bool:
        return self.template.strip().upper() != "G"  # INDIRECT FIRE: template G does not scatter

    @property
    def moved(self) -> int:
        return max(self.distance - (1 if self.signum else 0), 0)

    def land(self, roll: int) -> str:
        if not self.scatters or roll >= 5 or self.moved == 0:
            return ON_TARGET
        return f"{self.directions[roll - 1]}, {self.moved} interspace(s)"


def scatter_odds(s: Scatter) -> Odds:
    out: Chances = {}
    for roll in range(1, 7):
        add(out, s.land(roll), Fraction(1, 6))
    effects = {k: ("the template lands on the target interspace" if k == ON_TARGET
                   else "the template moves this way and far before the attacks") for k in out}
    notes = ["SMs do not affect scatter rolls",
             ("each unit even partly under the template is then attacked separately (bagm "
             "blackreach fire, with no obscuring penalties: they do not modify indirect fire)")]
    if s.signum:
        notes.append("SIGNUM: the scatter distance is 1 interspace shorter")
    if not s.scatters:
        notes.append("template G does not scatter")
    return Odds("indirect fire scatter", "INDIRECT FIRE; SIGNUM", out, effects, {}, notes,
                {"distance": s.distance, "signum": s.signum, "template": s.template})


def resolve_scatter(dice: Dice, s: Scatter) -> str:
    if not s.scatters:
        return ON_TARGET
    return s.land(dice.d6("scatter"))
