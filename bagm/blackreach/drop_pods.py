"""DROP PODS: the landing test (1 delayed, 2 botched, 3-6 proper) and how soon a pod lands."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bagm.blackreach.hits import SM_PENALTY
from bagm.blackreach.odds import Chances, Odds, add, need
from bagm.chance.dice import Dice
from bagm.chance.dist import die, shift

DELAYED, BOTCHED, PROPER = "delayed landing", "botched landing", "proper landing"

EFFECTS = {
    DELAYED: "retry: in the supply phase of this turn if tested in the activation phase, else "
             "next turn",
    BOTCHED: "the pod and every unit it carries receive 1 SM, then it lands properly",
    PROPER: "the pod covers the 4 squares round its landing marker; its units deploy on it "
            "(landing in the activation phase, the pod may fire at once)",
}


@dataclass(frozen=True)
class Landing:
    bonus: int = 0  # an action card's bonus to any die roll
    sm: int = 0
    attempts: int = 4  # how many tests the 'landed by' table follows

    def __post_init__(self) -> None:
        need(self.sm >= 0, "SMs are 0 or more")
        need(1 <= self.attempts <= 20, "follow from 1 to 20 attempts")

    @property
    def modifier(self) -> int:
        return self.bonus - SM_PENALTY * self.sm

    def band(self, result: int) -> str:
        # reading: a modified result below 1 counts as 1, above 6 as 6
        return DELAYED if result <= 1 else BOTCHED if result == 2 else PROPER


def landing_odds(x: Landing) -> Odds:
    out: Chances = {}
    for r, p in shift(die(6), x.modifier).items():
        add(out, x.band(r), p)
    out = {k: out[k] for k in (DELAYED, BOTCHED, PROPER) if k in out}
    delayed = out.get(DELAYED, Fraction(0))
    landed = {f"by attempt {n}": 1 - delayed ** n for n in range(1, x.attempts + 1)}
    notes = [("LANDING ON OCCUPIED SQUARES: units and structures under the pod are destroyed, its "
             "units receive 1 SM, and the pod loses its order token (an activated marker)")]
    if x.modifier:
        notes.append("reading: a modified result of 1 or less is a delayed landing, 3 or more "
                     "a proper one")
    return Odds("drop pod landing test", "DROP PODS; LANDING TEST", out,
                {k: EFFECTS[k] for k in out}, {"landed": landed}, notes,
                {"modifier": x.modifier})


def resolve_landing(dice: Dice, x: Landing) -> str:
    return x.band(dice.d6("landing test") + x.modifier)
