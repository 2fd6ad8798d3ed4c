"""TELEPORT STRIKES: the teleportation test (1-2 a warp accident and a second die, 3-6 all is
well), and a teleported assault that destroys the unit if it fails."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from bagm.blackreach.odds import Chances, Odds, add
from bagm.chance.dice import Dice

DESTROYED = "warp accident: destroyed"
LOST = "warp accident: lost in the warp"
ARRIVES = "warp accident: arrives"
WELL = "all is well"

EFFECTS = {
    DESTROYED: "the unit disintegrates in the warp",
    LOST: "set it aside; it may teleport again in a later turn",
    ARRIVES: "it loses its order token and takes an activated marker; declared assaults are "
             "cancelled; a forced move onto a free square next to the marker (destroyed if none)",
    WELL: "the unit arrives and makes its movement action off the teleport strike marker",
}


@dataclass(frozen=True)
class Teleport:
    no_free_square: bool = False  # every square next to the marker is taken


def accident(roll: int, t: Teleport) -> str:
    # TELEPORTATION TEST, warp accident: the second die
    if roll == 1:
        return DESTROYED
    if roll <= 3:
        return LOST
    return DESTROYED if t.no_free_square else ARRIVES


def _accidents(t: Teleport) -> Chances:
    out: Chances = {}
    for roll in range(1, 7):
        add(out, accident(roll, t), Fraction(1, 3) * Fraction(1, 6))
    return out


def _notes(t: Teleport) -> list[str]:
    if t.no_free_square:
        return [("no free square next to the marker: a unit arriving from a warp accident is "
                "destroyed")]
    return []


def teleport_odds(t: Teleport, attempts: int = 3) -> Odds:
    out = _accidents(t)
    add(out, WELL, Fraction(2, 3))
    # a unit lost in the warp tries again in a later turn: where it stands after n attempts
    lost = out.get(LOST, Fraction(0))
    tables: dict[str, Mapping[str, Fraction]] = {}
    for n in range(1, attempts + 1):
        reach = sum((lost ** k for k in range(n)), Fraction(0))  # P(attempt k+1 is made), summed
        tables[f"after {n} attempt(s)"] = {
            "arrived": reach * (out.get(WELL, Fraction(0)) + out.get(ARRIVES, Fraction(0))),
            "destroyed": reach * out.get(DESTROYED, Fraction(0)),
            "still lost": lost ** n}
    return Odds("teleportation test", "TELEPORT STRIKES; TELEPORTATION TEST", out,
                {k: EFFECTS[k] for k in out}, tables, _notes(t),
                {"no_free_square": t.no_free_square})


def teleported_assault(assault: Odds, t: Teleport, tie_fails: bool = True) -> Odds:
    """A teleported unit's declared assault: the test first, then the assault, which destroys
    the unit if it fails (reading: a tie is a failure unless ``tie_fails`` is False)."""
    out = _accidents(t)
    effects = {k: EFFECTS[k] for k in out}
    effects[ARRIVES] = EFFECTS[ARRIVES]
    for k, p in assault.outcomes.items():
        key = f"{WELL}: {k}"
        add(out, key, Fraction(2, 3) * p)
        fails = k.startswith("defender wins") or (k == "tie" and tie_fails)
        effects[key] = assault.effects.get(k, "") + (
            "; the assault failed: the teleported unit is destroyed" if fails else "")
    notes = _notes(t) + [
        "TELEPORTATION TEST first (assaults are declared before it), then the assault",
        ("reading: a tie is a failed assault (the unit does not win); --tie-survives for the "
         "other reading") if tie_fails else
        "reading taken (--tie-survives): only a lost assault is a failure, not a tie",
    ] + assault.notes
    return Odds("teleported assault", "TELEPORTATION TEST; " + assault.section, out,
                {k: effects.get(k, "") for k in out}, dict(assault.tables), notes,
                {**assault.inputs, "teleported": True, "tie_fails": tie_fails})


def resolve_teleport(dice: Dice, t: Teleport) -> str:
    if dice.d6("teleportation test") <= 2:
        return accident(dice.d6("warp accident"), t)
    return WELL
