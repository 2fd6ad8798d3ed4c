"""The Boarding Actions Enhancements as registered entries (Boarding Actions, "Enhancements").

An entry's effect is a set of values in one small vocabulary that the phase code reads where the
effect happens (the CP a player starts with, Deep Strike, a re-roll of melee Wound rolls, a
Hatchway operated during Move Units, a free Battlefield Command, a weapon improved at muster).
Adding an Enhancement whose effect the vocabulary can say touches no phase code; one it cannot
say is listed in every game as not modelled. Detachment Enhancements (issue: faction rules) will
register the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from bagm.chance.dice import DiceExpr
from bagm.data.weapons import WeaponProfile
from bagm.engine.rules.registry import Registry


@dataclass(frozen=True)
class Enhancement:
    """One Enhancement and its effect. ``summary`` says what the engine does with it."""

    name: str
    section: str
    summary: str
    start_cp: int = 0  # CP the player starts the battle with
    deep_strike: bool = False  # the bearer has the Deep Strike ability
    melee_wound_choice: bool = False  # the player may re-roll any Wound roll of the bearer's melee attacks
    hatchway_in_move_units: bool = False  # operate a Hatchway at the start or end of Move Units
    free_battlefield_command: bool = False  # once per battle round, Battlefield Command for 0CP
    ranged_weapon: Callable[[WeaponProfile], WeaponProfile] | None = None  # the noted weapon, changed


def _trademark(w: WeaponProfile) -> WeaponProfile:
    # Enhancements "Trademark Weapon": add 1 to the Strength and Damage characteristics
    d = w.damage
    return replace(w, strength=w.strength + 1, damage=DiceExpr(d.count, d.sides, d.bonus + 1))


ENHANCEMENTS: Registry[Enhancement] = Registry("Enhancement")

SUPERIOR_BOARDING_TACTICS = ENHANCEMENTS.register(Enhancement(
    "Superior Boarding Tactics", "Enhancements: Superior Boarding Tactics",
    "starts the battle with 2CP", start_cp=2))
# Close-Quarters Killer: "Each time the bearer makes a melee attack, you can re-roll the Wound
# roll": any Wound roll, a successful one too (seeking a Critical Wound), the player choosing die
# by die; the engine's units are their bearer (one model, or a unit whose models attack alike)
CLOSE_QUARTERS_KILLER = ENHANCEMENTS.register(Enhancement(
    "Close-Quarters Killer", "Enhancements: Close-Quarters Killer",
    "the bearer's melee Wound rolls may each be re-rolled (the player chooses)", melee_wound_choice=True))
PEERLESS_LEADER = ENHANCEMENTS.register(Enhancement(
    "Peerless Leader", "Enhancements: Peerless Leader",
    "Battlefield Command on the bearer for 0CP once per battle round", free_battlefield_command=True))
EXPERT_BREACHER = ENHANCEMENTS.register(Enhancement(
    "Expert Breacher", "Enhancements: Expert Breacher",
    "the bearer's unit may operate a Hatchway during the Move Units step", hatchway_in_move_units=True))
PERSONAL_TELEPORTER = ENHANCEMENTS.register(Enhancement(
    "Personal Teleporter", "Enhancements: Personal Teleporter", "the bearer has Deep Strike",
    deep_strike=True))
TRADEMARK_WEAPON = ENHANCEMENTS.register(Enhancement(
    "Trademark Weapon", "Enhancements: Trademark Weapon",
    "+1 Strength and Damage on the named ranged weapon", ranged_weapon=_trademark))

NO_ENHANCEMENT = Enhancement("", "", "")  # what a unit without a modelled Enhancement reads


def enhancement(name: str | None) -> Enhancement:
    """The modelled entry of the Enhancement ``name``, or one with no effect."""
    return ENHANCEMENTS.get(name) or NO_ENHANCEMENT
