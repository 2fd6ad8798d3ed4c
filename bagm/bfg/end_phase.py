"""Damage control and Blast Marker removal, the End Phase's last two steps.

Readings: damage control is the capital ships' (the text says capital ships roll); each 6
repairs one critically damaged system or puts out one fire, so repairs beyond what needs
repairing are wasted (``needing`` caps them when given). Blast Marker removal removes as many
markers as the D6 shows, but never those in contact with a ship's base.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bagm.bfg.jsonable import chance, distribution
from bagm.bfg.ships import MAX_DAMAGE, BfgError
from bagm.chance.dice import Dice
from bagm.chance.dist import Dist, binomial, die, mean, outcomes

REPAIR_ON = 6  # Damage Control: each roll of a 6 repairs one system or fire
MAX_MARKERS = 999


def repair_dice(damage: int, blast: bool) -> int:
    """Damage Control: a D6 per damage point remaining, half as many (rounding up) with Blast
    Markers in contact."""
    return (damage + 1) // 2 if blast else damage


@dataclass(frozen=True)
class RepairOdds:
    damage: int
    blast: bool
    needing: int | None  # critical hits and fires to repair, when given
    dice: int
    sixes: Dist
    repaired: Dist  # sixes, capped at ``needing``

    @property
    def all_repaired(self) -> Fraction | None:
        if self.needing is None:
            return None
        return sum((p for k, p in self.repaired.items() if k >= self.needing), Fraction(0))

    @property
    def notes(self) -> tuple[str, ...]:
        out = [("Damage control is the capital ships' (Damage Control): an escort that suffers "
                "critical damage is destroyed.")]
        if self.needing is None:
            out.append("Each 6 repairs one critically damaged system or puts out one fire; give "
                       "--needing N to stop at what needs repairing.")
        return tuple(out)

    def as_dict(self) -> dict[str, Any]:
        return {"damage_points": self.damage, "blast_markers_in_contact": self.blast,
                "dice": self.dice, "repair_on": REPAIR_ON, "needing_repair": self.needing,
                "sixes": distribution(self.sixes),
                "repaired": distribution(self.repaired),
                "expected_repaired": float(mean(self.repaired)),
                "all_repaired": None if self.all_repaired is None else chance(self.all_repaired),
                "notes": list(self.notes)}


def repairs(damage: int, blast: bool = False, needing: int | None = None) -> RepairOdds:
    """The exact distribution of repairs in one End Phase (Damage Control)."""
    if not 0 <= damage <= MAX_DAMAGE:
        raise BfgError(f"--damage {damage}: damage points remaining, from 0 to {MAX_DAMAGE}")
    if needing is not None and needing < 0:
        raise BfgError(f"--needing {needing}: a number of critical hits and fires, 0 or more")
    n = repair_dice(damage, blast)
    sixes = binomial(n, Fraction(1, 6))
    repaired = sixes if needing is None else outcomes(sixes, lambda k: min(k, needing))
    return RepairOdds(damage, blast, needing, n, sixes, dict(sorted(repaired.items())))


def roll_repairs(dice: Dice, damage: int, blast: bool = False, needing: int | None = None) -> int:
    """Play damage control with dice: the number of systems or fires repaired."""
    n = sum(dice.d6("damage control") >= REPAIR_ON for _ in range(repair_dice(damage, blast)))
    return n if needing is None else min(n, needing)


@dataclass(frozen=True)
class BlastRemovalOdds:
    markers: int
    in_contact: int
    removed: Dist

    def as_dict(self) -> dict[str, Any]:
        return {"markers": self.markers, "in_contact": self.in_contact,
                "removable": self.markers - self.in_contact,
                "removed": distribution(self.removed),
                "expected_removed": float(mean(self.removed)),
                "left": distribution({self.markers - k: p for k, p in self.removed.items()})}


def blast_removal(markers: int, in_contact: int = 0) -> BlastRemovalOdds:
    """Blast Marker Removal: D6 markers removed, none of those in contact with a ship's base."""
    if not 0 <= markers <= MAX_MARKERS:
        raise BfgError(f"--markers {markers}: Blast Markers on the table, from 0 to {MAX_MARKERS}")
    if not 0 <= in_contact <= markers:
        raise BfgError(f"--in-contact {in_contact}: from 0 to the {markers} marker(s) on the table")
    free = markers - in_contact
    removed = outcomes(die(6), lambda k: min(k, free))
    return BlastRemovalOdds(markers, in_contact, dict(sorted(removed.items())))


def roll_blast_removal(dice: Dice, markers: int, in_contact: int = 0) -> int:
    return min(dice.d6("Blast Marker removal"), markers - in_contact)
