"""CHARGE: a free attack, resolved as a firing action, before the assault it launches.

"When this unit launches an assault, it may make a free attack before resolving the assault.
... resolve the attack as you would a firing action (though it is not a firing action), ignoring
any range restrictions. The target receives any defensive bonuses from the terrain element. If the
target survives, resolve the assault." The odds here are those of a unit that makes the attack.

Readings (each also in the notes):

- The assault is fought against the target as the attack left it: flipped to its other side (whose
  values are on the counter: give them), or a heavy vehicle with the damage marker it just took
  (a hull marker's 2 SMs count in the assault, and a second marker of the same kind destroys it).
- A destroyed target ends it: no assault (the charger ends its move in the target's square).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bagm.blackreach.assault import Assault, Side, assault_odds, resolve_assault
from bagm.blackreach.counters import Kind
from bagm.blackreach.firing import MISS, Shot, fire_odds, resolve_fire
from bagm.blackreach.hits import DESTROYED, FLIPPED, HIT, SAVED
from bagm.blackreach.odds import BlackReachError, Chances, Odds, add, need
from bagm.chance.dice import Dice

HULL_SMS = 2  # HITTING A HEAVY VEHICLE: a hull marker gives 2 SMs as well


@dataclass(frozen=True)
class Charge:
    """The free attack (a firing action's numbers against the defender) and, if it can flip the
    target, the target's flipped side (its COMBAT against the charger, assault bonus, hit symbol
    and save, as a ``Side``)."""

    shot: Shot
    flipped: Side | None = None


def after_attack(x: Assault, c: Charge, fate: str) -> Assault | None:
    """The assault against the target as the free attack left it (None: it was destroyed)."""
    if fate == DESTROYED:
        return None
    d = x.defender
    if fate in (MISS, SAVED):
        return x
    if fate == HIT:
        raise BlackReachError("CHARGE: give the target's hit symbol (--defender-on-hit): whether "
                              "the attack destroys it or flips it decides the assault")
    if fate == FLIPPED:
        if c.flipped is None:
            raise BlackReachError("CHARGE: the attack may flip the target: give its flipped "
                                  "side's values (--flipped-combat, and --flipped-assault, "
                                  "--flipped-on-hit, --flipped-save as it shows them)")
        side = replace(c.flipped, bonus=d.bonus, penalty=d.penalty, sm=d.sm, tearing=d.tearing,
                       terrifying=d.terrifying, fragile=d.fragile)
        return replace(x, defender=replace(side, victim=replace(side.victim, sm=d.sm)))
    # a heavy vehicle's damage marker: "damage marker 3: hull"
    kind = fate.split(": ", 1)[1] if ": " in fate else None
    if kind is None:
        raise BlackReachError("CHARGE at a heavy vehicle: give its damage set (--defender-damage-"
                              "set): the marker the attack places changes the assault")
    sm = d.sm + (HULL_SMS if kind == "hull" else 0)
    victim = replace(d.victim, sm=sm, held=d.victim.held | {kind})
    return replace(x, defender=replace(d, sm=sm, victim=victim))


def charge_odds(x: Assault, c: Charge) -> Odds:
    """The free attack, then the assault against whatever survived it."""
    need(c.shot.victim.kind is x.defender.kind, "CHARGE: the attack and the assault have the "
         "same target")
    attack = fire_odds(c.shot)
    plain = assault_odds(x)
    out: Chances = {}
    effects: dict[str, str] = {}
    tables: dict[str, Any] = {"free attack": dict(attack.outcomes)}
    notes = [f"CHARGE, the free attack: {n}" for n in attack.notes]
    for fate, p in attack.outcomes.items():
        y = after_attack(x, c, fate)
        if y is None:
            key = f"charge: {fate}"
            add(out, key, p)
            effects[key] = ("the free attack destroys the target; no assault: the charger ends "
                            "its move in the target's square")
            continue
        a = assault_odds(y)
        tables[f"assault after '{fate}'"] = dict(a.outcomes)
        for k, q in a.outcomes.items():
            key = f"charge: {fate}; {k}"
            add(out, key, p * q)
            effects[key] = (attack.effects.get(fate, "") + "; then the assault: "
                            + a.effects.get(k, ""))
        notes += [n for n in a.notes if n not in notes]
    notes += [
        ("CHARGE: the odds of a unit that makes its free attack (it may); the attack ignores "
         "range, the target keeps its terrain's DEFENCE bonus"),
        ("CHARGE: the assault is against the target as the attack left it: its flipped side "
         "(values from the counter), or a heavy vehicle with the new marker (a hull marker's 2 "
         "SMs count; a second marker of a kind destroys it)"),
    ]
    if x.defender.kind is Kind.heavy:
        notes.append("CHARGE: a lost primary or secondary weapon may change the COMBAT the "
                     "vehicle fights with; give the weapon's value you use")
    return Odds("charge and assault", "CHARGE; " + plain.section, out, effects, tables, notes,
                {**plain.inputs, "charge": True})


def resolve_charge(dice: Dice, x: Assault, c: Charge) -> str:
    """Play the free attack, then the assault against what is left."""
    fate = resolve_fire(dice, c.shot)
    y = after_attack(x, c, fate)
    if y is None:
        return f"charge: {fate}"
    return f"charge: {fate}; {resolve_assault(dice, y)}"
