"""RAMMING: each player rolls 1 die plus its vehicle's DEFENCE (half, rounded up, for a light
vehicle); a higher total for the rammer gives the target a hit."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from bagm.blackreach.counters import Kind
from bagm.blackreach.hits import (
    SM_PENALTY,
    Victim,
    fate_effect,
    resolve_hit,
    unsaved_fates,
)
from bagm.blackreach.odds import Chances, Odds, add, need
from bagm.chance.dice import Dice
from bagm.chance.dist import Dist, die, outcomes_of, shift

NO_EFFECT = "no effect"


def ram_value(kind: Kind, defence: int) -> int:
    """RAMMING: a heavy vehicle adds its DEFENCE, a light vehicle half of it, rounded up."""
    return defence if kind is Kind.heavy else -(-defence // 2)


@dataclass(frozen=True)
class Ram:
    rammer_kind: Kind
    rammer_defence: int
    target_defence: int
    target: Victim = field(default_factory=lambda: Victim(Kind.heavy))
    rammer_bonus: int = 0
    target_bonus: int = 0
    rammer_sm: int = 0
    target_sm: int = 0

    def __post_init__(self) -> None:
        need(self.rammer_kind.vehicle and self.target.kind.vehicle,
             "ramming is between vehicles: the rammer and the target are light or heavy vehicles")
        need(self.rammer_defence >= 1 and self.target_defence >= 1, "DEFENCE is at least 1")
        need(self.rammer_sm >= 0 and self.target_sm >= 0, "SMs are 0 or more")

    def rammer_modifier(self) -> int:
        return (ram_value(self.rammer_kind, self.rammer_defence) + self.rammer_bonus
                - SM_PENALTY * self.rammer_sm)

    def target_modifier(self) -> int:
        return (ram_value(self.target.kind, self.target_defence) + self.target_bonus
                - SM_PENALTY * self.target_sm)

    def totals(self) -> tuple[Dist, Dist]:
        return shift(die(6), self.rammer_modifier()), shift(die(6), self.target_modifier())


def ram_odds(r: Ram) -> Odds:
    rammer, target = r.totals()
    wins = outcomes_of([rammer, target], lambda a, b: a > b)
    out: Chances = {}
    add(out, NO_EFFECT, wins.get(False, Fraction(0)))
    for fate, p in unsaved_fates(r.target, double=False).items():
        add(out, f"target {fate}", wins.get(True, Fraction(0)) * p)
    effects = {k: ("a tie or a lower total does nothing" if k == NO_EFFECT
                   else fate_effect(k.removeprefix("target "), r.target)) for k in out}
    notes = [(f"rammer: 1 die {r.rammer_modifier():+d}; target: 1 die {r.target_modifier():+d}; "
             "only a higher total for the rammer counts"),
             "reading: no armour save (the text allows one against firing actions and assaults)",
             "SMs count against each player's ramming roll (SUPPRESSED MARKERS: all die rolls)"]
    return Odds("ramming", "RAMMING", out, effects,
                {"rammer total": dict(sorted(rammer.items())),
                 "target total": dict(sorted(target.items()))}, notes,
                {"rammer": r.rammer_kind.value, "target": r.target.kind.value,
                 "rammer_modifier": r.rammer_modifier(), "target_modifier": r.target_modifier()})


def resolve_ram(dice: Dice, r: Ram) -> str:
    a = dice.d6("ramming: rammer") + r.rammer_modifier()
    b = dice.d6("ramming: target") + r.target_modifier()
    if a <= b:
        return NO_EFFECT
    # no armour save against a ram: a Victim without a save value plays none
    return "target " + resolve_hit(dice, replace(r.target, save=None))
