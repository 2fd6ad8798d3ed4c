"""DESTRUCTION and DEMOLISHING: dice of 4+ deal destruction points (DPs) to a STRUCTURE."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bagm.blackreach.hits import SM_PENALTY
from bagm.blackreach.odds import Chances, Odds, add, need
from bagm.chance.dice import Dice
from bagm.chance.dist import at_least, binomial, die, shift

SUCCESS = 4  # DESTRUCTION / DEMOLISHING: each result of 4+ deals 1 DP


@dataclass(frozen=True)
class Demolition:
    """``dice`` dice against a structure of ``value`` DPs that already has ``dealt``.

    ``exceed``: the structure falls when its DPs *exceed* its value (the DESTRUCTION ability's
    wording) instead of when they reach it (STRUCTURES: 'dealt the number printed'); see notes.
    """

    dice: int
    value: int
    dealt: int = 0
    sm: int = 0
    bonus: int = 0
    exceed: bool = False

    def __post_init__(self) -> None:
        need(1 <= self.dice <= 20, "roll from 1 to 20 dice (the number on the symbol)")
        need(self.value >= 1, "a structure has at least 1 DP")
        need(0 <= self.dealt, "DPs already dealt are 0 or more")
        need(self.sm >= 0, "SMs are 0 or more")

    @property
    def per_die(self) -> Fraction:
        return at_least(shift(die(6), self.bonus - SM_PENALTY * self.sm), SUCCESS)

    def falls(self, new: int) -> bool:
        total = self.dealt + new
        return total > self.value if self.exceed else total >= self.value


def demolition_odds(d: Demolition, procedure: str = "destruction") -> Odds:
    dps = binomial(d.dice, d.per_die)
    out: Chances = {}
    for k, p in sorted(dps.items()):
        add(out, f"{k} DP" + (": destroyed" if d.falls(k) else ""), p)
    effects = {k: ("the structure is destroyed: a building flips to its rubble side, a wreck is "
                   "removed" if k.endswith("destroyed") else "the structure stands") for k in out}
    notes = [f"each die deals 1 DP on {SUCCESS}+ (chance {d.per_die} per die)",
             "reading: " + ("a structure falls when its DPs exceed its value (the DESTRUCTION "
                            "ability's wording; --reach for the STRUCTURES section's)"
                            if d.exceed else
                            "a structure falls when dealt the DPs printed on it (STRUCTURES); the "
                            "DESTRUCTION ability says 'exceeds': --exceed for that reading")]
    if d.sm:
        notes.append("reading: the unit's SMs take 2 from each die (SUPPRESSED MARKERS: all of a "
                     "unit's die rolls)")
    section = "DEMOLISHING; STRUCTURES" if procedure == "demolishing" else "DESTRUCTION; STRUCTURES"
    return Odds(procedure, section, out, effects, {"DPs dealt": dps}, notes,
                {"dice": d.dice, "value": d.value, "dealt": d.dealt, "exceed": d.exceed})


def resolve_demolition(dice: Dice, d: Demolition) -> str:
    k = sum(dice.d6("destruction") + d.bonus - SM_PENALTY * d.sm >= SUCCESS for _ in range(d.dice))
    return f"{k} DP" + (": destroyed" if d.falls(k) else "")
