"""UNSTABLE: activating the unit rolls 1 die; below the value cancels the activation, and a 1
makes the unit suffer 1 hit."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from bagm.blackreach.hits import (
    SM_PENALTY,
    Victim,
    fate_effect,
    resolve_hit,
    unsaved_fates,
)
from bagm.blackreach.odds import Chances, Odds, add, need
from bagm.chance.dice import Dice

ACTS = "activation goes ahead"
CANCELLED = "activation cancelled"


@dataclass(frozen=True)
class Unstable:
    value: int
    sm: int = 0
    bonus: int = 0
    victim: Victim = field(default_factory=Victim)

    def __post_init__(self) -> None:
        need(1 <= self.value <= 7, "the unstable value is from 1 to 7")
        need(self.sm >= 0, "SMs are 0 or more")

    def judge(self, roll: int) -> tuple[bool, bool]:
        """(cancelled, hit): reading: the hit comes on a 1 on the die, the SMs and bonuses
        modify the result compared with the value."""
        return roll + self.bonus - SM_PENALTY * self.sm < self.value, roll == 1


def unstable_odds(u: Unstable) -> Odds:
    out: Chances = {}
    for roll in range(1, 7):
        cancelled, hit = u.judge(roll)
        key = CANCELLED if cancelled else ACTS
        if hit:
            for fate, p in unsaved_fates(u.victim, double=False).items():
                add(out, f"{key}, unit {fate}", Fraction(1, 6) * p)
        else:
            add(out, key, Fraction(1, 6))
    effects = {k: ("the unit does nothing this activation" if k.startswith(CANCELLED)
                   else "the unit acts") for k in out}
    for k in out:
        if ", unit " in k:
            effects[k] += "; it suffers 1 hit: " + fate_effect(k.split(", unit ", 1)[1], u.victim)
    notes = [("reading: a 1 on the die is the hit; SMs and bonuses modify the result compared "
             "with the value")]
    return Odds("unstable", "UNSTABLE", out, effects, {}, notes,
                {"value": u.value, "sm": u.sm, "bonus": u.bonus})


def resolve_unstable(dice: Dice, u: Unstable) -> str:
    roll = dice.d6("unstable")
    cancelled, hit = u.judge(roll)
    key = CANCELLED if cancelled else ACTS
    if not hit:
        return key
    return f"{key}, unit {resolve_hit(dice, replace(u.victim, save=None))}"  # no armour save
