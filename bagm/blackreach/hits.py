"""What one hit does to a counter: armour save, hit symbol, heavy vehicle hit location.

Shared by firing, sniper fire, assaults, ramming and the perils that make a psyker suffer a hit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from bagm.blackreach.counters import Kind, OnHit, marker_effect
from bagm.blackreach.odds import Chances, add, need
from bagm.chance.dice import Dice
from bagm.chance.dist import at_least, die, shift

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
    adjust: int = 0  # MEKANIAK: the owner may move the location result by 1 (GROT OILERS: 2)
    extra_die: bool = False  # TECHMARINE: the attacker rolls 2 location dice, the owner picks
    prefer: tuple[str, ...] = ()  # the owner's marker kinds, least harmful first

    def __post_init__(self) -> None:
        need(self.sm >= 0, "a unit cannot have fewer than 0 SMs")
        need(self.adjust in (0, 1, 2), "the location result moves by 0, 1 (mekaniak) or 2 "
             "(grot oilers)")
        need(not (self.adjust or self.extra_die) or self.damage_set is not None,
             "a mekaniak, grot oilers or techmarine choice needs the vehicle's damage set "
             "(which marker each result places)")
        need(self.save is None or 1 <= self.save <= 12, "an armour save is a number from 1 to 12")


def save_chance(v: Victim, piercing: bool = False) -> Fraction:
    """ARMOUR SAVE: 1 die, at least the value ignores the hit; PIERCING/TEARING forbid it."""
    if v.save is None or piercing:
        return Fraction(0)
    return at_least(shift(die(6), v.save_bonus - SM_PENALTY * v.sm), v.save)


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


def _rank(v: Victim, fate: str) -> tuple[int, int]:
    """The owner's order of preference: survive first, then the kinds of --prefer in order."""
    if fate == DESTROYED:
        return (1, 0)
    kind = fate.split(": ", 1)[1] if ": " in fate else ""
    return (0, v.prefer.index(kind) if kind in v.prefer else len(v.prefer))


def chosen_fate(v: Victim, rolls: tuple[int, ...], piercing: bool = False) -> str:
    """The damage marker placed from the location dice: MEKANIAK / GROT OILERS let the owner
    move the result (only onto a score the set has a marker for), TECHMARINE gives the owner
    the pick of 2 dice. Ties keep the die as rolled, then the first die."""
    assert v.damage_set is not None or not (v.adjust or v.extra_die)
    candidates: list[int] = []
    for r in rolls:
        score = r + (1 if piercing else 0)
        candidates.append(score)
        for step in range(1, v.adjust + 1):
            candidates += [s for s in (score - step, score + step)
                           if v.damage_set is not None and s in v.damage_set]
    return min((location_fate(v, s) for s in candidates), key=lambda f: _rank(v, f))


def location_fates(v: Victim, piercing: bool = False) -> Chances:
    """HITTING A HEAVY VEHICLE: the fate from the location dice, the owner's aids included."""
    out: Chances = {}
    n = 2 if v.extra_die else 1
    for rolls in product(range(1, 7), repeat=n):
        add(out, chosen_fate(v, rolls, piercing), Fraction(1, 6 ** n))
    return out


def unsaved_fates(v: Victim, double: bool, piercing: bool = False) -> Chances:
    """What a hit that was not saved does (EFFECT OF A HIT; Double hits)."""
    if double or (v.kind is Kind.light and v.on_hit is not OnHit.flipped):
        return {DESTROYED: Fraction(1)}  # a double hit destroys any target; a light vehicle too
    if v.kind is Kind.heavy:
        return location_fates(v, piercing)
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
        rolls = tuple(dice.d6("hit location") for _ in range(2 if v.extra_die else 1))
        return chosen_fate(v, rolls, piercing)
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
