"""What one hit does to a counter: armour save, hit symbol, heavy vehicle hit location.

Shared by firing, sniper fire, assaults, ramming and the perils that make a psyker suffer a hit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from bagm.blackreach.counters import Kind, OnHit, marker_effect
from bagm.blackreach.odds import Chances, add, need
from bagm.chance.dice import Dice
from bagm.chance.dist import Dist, at_least, die, shift

SM_PENALTY = 2  # SUPPRESSED MARKERS: -2 to all of a unit's die rolls per SM

DESTROYED, FLIPPED, HIT, SAVED = "destroyed", "flipped", "hit", "saved"


@dataclass(frozen=True)
class Victim:
    """The counter that suffers a hit, and what protects it."""

    kind: Kind = Kind.infantry
    on_hit: OnHit | None = None  # the hit symbol; None when the user did not give it
    save: int | None = None  # ARMOUR SAVE: roll this or more to ignore the hit
    save_bonus: int = 0  # action card bonuses to the save roll
    sm: int = 0  # SMs on it: -2 each to its own save roll (SUPPRESSED MARKERS: all its die rolls)
    damage_set: Mapping[int, str] | None = None  # heavy vehicle: location score -> marker kind
    held: frozenset[str] = frozenset()  # damage marker kinds already on the vehicle

    def __post_init__(self) -> None:
        need(self.sm >= 0, "a unit cannot have fewer than 0 SMs")
        need(self.save is None or 1 <= self.save <= 12, "an armour save is a number from 1 to 12")


def save_chance(v: Victim, piercing: bool = False) -> Fraction:
    """ARMOUR SAVE: 1 die, at least the value ignores the hit; PIERCING/TEARING forbid it."""
    if v.save is None or piercing:
        return Fraction(0)
    return at_least(shift(die(6), v.save_bonus - SM_PENALTY * v.sm), v.save)


def location_dist(piercing: bool = False) -> Dist:
    """HITTING A HEAVY VEHICLE: the attacker's die picks the damage marker; PIERCING adds 1."""
    return shift(die(6), 1 if piercing else 0)


def location_fate(v: Victim, score: int) -> str:
    """The damage marker a location score places, and whether it destroys the vehicle."""
    if v.damage_set is None:
        return f"damage marker {score}"
    marker = v.damage_set.get(score)
    if marker is None:
        return f"damage marker {score} (not in the damage set given)"
    # HITTING A HEAVY VEHICLE: an explosion, or a second marker of a kind, destroys it
    if marker == "explosion" or marker in v.held:
        return DESTROYED
    return f"damage marker {score}: {marker}"


def unsaved_fates(v: Victim, double: bool, piercing: bool = False) -> Chances:
    """What a hit that was not saved does (EFFECT OF A HIT; Double hits)."""
    if double or (v.kind is Kind.light and v.on_hit is not OnHit.flipped):
        return {DESTROYED: Fraction(1)}  # a double hit destroys any target; a light vehicle too
    if v.kind is Kind.heavy:
        out: Chances = {}
        for score, p in sorted(location_dist(piercing).items()):
            add(out, location_fate(v, score), p)
        return out
    if v.on_hit is None:
        return {HIT: Fraction(1)}
    return {DESTROYED if v.on_hit is OnHit.destroyed else FLIPPED: Fraction(1)}


def hit_fates(v: Victim, double: bool = False, piercing: bool = False,
              double_saveable: bool = True) -> Chances:
    """The fate of a counter that suffers one hit (or a double hit)."""
    saved = save_chance(v, piercing) if (double_saveable or not double) else Fraction(0)
    out: Chances = {}
    add(out, SAVED, saved)
    for fate, p in unsaved_fates(v, double, piercing).items():
        add(out, fate, (1 - saved) * p)
    return out


def resolve_hit(dice: Dice, v: Victim, double: bool = False, piercing: bool = False,
                double_saveable: bool = True) -> str:
    """Play one hit with the dice: the save (if any), then the location roll of a heavy vehicle."""
    saveable = v.save is not None and not piercing and (double_saveable or not double)
    if saveable and dice.d6("armour save") + v.save_bonus - SM_PENALTY * v.sm >= (v.save or 0):
        return SAVED
    if double or (v.kind is Kind.light and v.on_hit is not OnHit.flipped):
        return DESTROYED
    if v.kind is Kind.heavy:
        return location_fate(v, dice.d6("hit location") + (1 if piercing else 0))
    if v.on_hit is None:
        return HIT
    return DESTROYED if v.on_hit is OnHit.destroyed else FLIPPED


def fate_effect(fate: str, v: Victim) -> str:
    """One line saying what a fate means for this kind of counter (from EFFECT OF A HIT)."""
    if fate == SAVED:
        return "armour save made: the hit is ignored"
    if fate == DESTROYED:
        return ("destroyed: flipped to its wreck" if v.kind.vehicle
                else "destroyed: removed and placed on its recruitment tile")
    if fate == FLIPPED:
        return ("flipped over (not destroyed)" if v.kind is Kind.infantry
                else "flipped over to its wrecked or damaged side")
    if fate == HIT:
        return "a hit: destroyed if the counter shows the destroyed symbol, flipped if it shows " \
               "the flip symbol (give its hit symbol to name it)"
    if ":" in fate:
        return marker_effect(fate.split(": ", 1)[1])
    return "the damage marker with this number from the vehicle's set (give the set to name it)"
