"""PURSUIT: after winning an assault, a second assault against the unit it forced to retreat.

"After this unit wins an assault, if it still has enough MOVEMENT left to enter the target's square
and nothing prevents it from moving further, it may make a second assault against the unit it just
forced to retreat." The odds here are those of a unit that does pursue whenever it may.

Readings (each also in the notes):

- Only a unit that retreated can be pursued: an infantry defender that lost and was not destroyed
  (its hit saved, or the counter flipped). A light or heavy vehicle never retreats.
- The second assault is one assault of its own (no third one): the pursuer keeps its values and
  SMs; the supporters gave their bonus to the first assault (they are activated now), so there are
  none; the defender fights with the side that shows (its flipped side's values, which are on the
  counter, when the first hit flipped it), its SMs, and the defence bonus of the square it fell
  back to (the first square's unless given). TERRIFYING SMs from the first assault count.
- The MOVEMENT left and a free path are the player's to check; retreat squares are taken as free
  (a defender that cannot retreat is destroyed, and then there is no pursuit).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from bagm.blackreach.assault import ATTACKER, Assault, Side, assault_odds, resolve_assault
from bagm.blackreach.counters import Kind
from bagm.blackreach.hits import FLIPPED, HIT, SAVED
from bagm.blackreach.odds import BlackReachError, Chances, Odds, add, need
from bagm.chance.dice import Dice

PURSUED = {SAVED, FLIPPED}  # the defender's fates after which it retreated, alive


@dataclass(frozen=True)
class Pursuit:
    """What the second assault needs beyond the first: the defender's flipped side (its COMBAT
    against the pursuer, its assault bonus, hit symbol and save as ``Side``) and the defence
    bonus of the square it fell back to (None: the same as the first square's)."""

    flipped: Side | None = None
    retreat_bonus: int | None = None


def _fate(key: str) -> str | None:
    """The defender's fate if the first assault's outcome ``key`` is a win it retreated from."""
    prefix = f"{ATTACKER}: defender "
    if not key.startswith(prefix):
        return None
    fate = key[len(prefix):]
    if fate == HIT:
        raise BlackReachError("PURSUIT: give the defender's hit symbol (--defender-on-hit): "
                              "whether the first hit destroys it or flips it decides the pursuit")
    return fate if fate in PURSUED else None


def second_assault(x: Assault, p: Pursuit, fate: str) -> Assault:
    """The pursuit's assault after the defender retreated with ``fate`` (saved or flipped)."""
    a, d = x.attacker, x.defender
    defender_sm = x.defender_sm + (1 if a.terrifying else 0)  # TERRIFYING: 1 SM on the loser
    attacker_sm = a.sm + (1 if d.terrifying else 0)  # ... and the loser's on the winner
    if fate == FLIPPED:
        if p.flipped is None:
            raise BlackReachError("PURSUIT: the first hit may flip the defender: give its flipped "
                                  "side's values (--flipped-combat, and --flipped-assault, "
                                  "--flipped-on-hit, --flipped-save as it shows them)")
        side = replace(p.flipped, tearing=d.tearing, terrifying=d.terrifying, fragile=d.fragile,
                       penalty=d.penalty)
    else:
        side = d
    bonus = d.bonus if p.retreat_bonus is None else p.retreat_bonus
    side = replace(side, sm=defender_sm, bonus=bonus,
                   victim=replace(side.victim, sm=defender_sm))
    pursuer = replace(a, sm=attacker_sm, victim=replace(a.victim, sm=attacker_sm))
    return Assault(pursuer, side, supporters=0, long_distance=x.long_distance,
                   defender_assault_bonus=x.defender_assault_bonus)


def _removed(key: str) -> bool:
    return key.endswith(("defender destroyed", "defender deserts"))


def pursuit_odds(x: Assault, p: Pursuit) -> Odds:
    """An assault by a unit with PURSUIT that pursues whenever it may: the first assault's
    outcomes, each win the defender retreated from followed by the second assault's."""
    need(x.defender.kind is Kind.infantry, "PURSUIT: only a unit forced to retreat can be "
         "pursued, and a vehicle losing an assault never retreats")
    first = assault_odds(x)
    out: Chances = {}
    effects: dict[str, str] = {}
    tables: dict[str, Any] = {"first assault": dict(first.outcomes)}
    notes = list(first.notes)
    pursued = destroyed = Fraction(0)
    for key, pr in first.outcomes.items():
        fate = _fate(key)
        if fate is None:
            add(out, key, pr)
            effects[key] = first.effects.get(key, "")
            destroyed += pr * _removed(key)
            continue
        pursued += pr
        second = assault_odds(second_assault(x, p, fate))
        tables[f"second assault after '{key}'"] = dict(second.outcomes)
        for k2, q in second.outcomes.items():
            k = f"{key}; pursuit: {k2}"
            add(out, k, pr * q)
            effects[k] = "PURSUIT, second assault: " + second.effects.get(k2, "")
            destroyed += pr * q * _removed(k2)
    tables["in all"] = {"pursuit made": pursued, "defender destroyed or deserted": destroyed}
    notes += [
        ("PURSUIT: the odds of a unit that makes the second assault whenever it may (it still "
         "has the MOVEMENT and a free path: the player's to check); no third assault"),
        ("PURSUIT: no supporters in the second assault (they were activated by the first); the "
         "defender fights with the side that shows, its SMs, and the defence bonus of the square "
         "it fell back to (--retreat-bonus; the first square's if not given)"),
    ]
    return Odds("assault with pursuit", "PURSUIT; " + first.section, out, effects, tables,
                notes, {**first.inputs, "pursuit": True})


def resolve_pursuit(dice: Dice, x: Assault, p: Pursuit) -> str:
    """Play the assault and, after a win the defender retreated from, the pursuit."""
    first = resolve_assault(dice, x)
    fate = _fate(first)
    if fate is None:
        return first
    return f"{first}; pursuit: {resolve_assault(dice, second_assault(x, p, fate))}"
