"""Effects on units, applied where they happen: the one vocabulary
(:class:`bagm.data.models.Effect`) of what a conferred Leader ability (Battlefield Command), a
Detachment rule, an Enhancement or a datasheet ability does in the engine.

A unit's effects (:meth:`bagm.engine.state.army.Unit.effects`) are its standing rules' and its
conferred Leader ability's. The attack sequence reads them through :func:`effect_weapon`,
:func:`effect_conditions` and :func:`effect_defence`; the phases read a flag or a modifier with
:func:`effect_has`, :func:`effect_sum` and :func:`effect_least`. Callers ask ``u.affected``
first, so units without effects pay nothing. Adding a rule whose effect the vocabulary says
touches no code here: it is data.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bagm.chance.dice import DiceExpr
from bagm.data.weapons import Abilities, WeaponProfile
from bagm.engine.attack.rules import Conditions, Reroll
from bagm.engine.state.army import Unit

_REROLL_ORDER = {Reroll.none: 0, Reroll.ones: 1, Reroll.failed: 2}

# --- effects in the attack sequence ------------------------------------------------------------

_WEAPONS: dict[tuple[Any, ...], WeaponProfile] = {}  # (weapon, *its effects): the weapon changed


def _effects(u: Unit, melee: bool) -> list[Any]:
    if not u.affected:
        return []
    want = "melee" if melee else "ranged"
    return [e for e in u.effects() if e.attacks in ("all", want)]


def _better(a: Reroll, b: str | None) -> Reroll:
    r = Reroll(b) if b else Reroll.none
    return r if _REROLL_ORDER[r] > _REROLL_ORDER[a] else a


def effect_weapon(u: Unit, w: WeaponProfile) -> WeaponProfile:
    """The weapon as the unit's effects change it (characteristics, abilities)."""
    # an effect with a condition on the target changes Hit and Wound rolls only (effect_conditions)
    effects = [e for e in _effects(u, w.melee) if e.target_while is None and not e.target_lacks]
    if not effects:
        return w
    key = (w, *effects)  # effects hash by identity; a condition may leave some out
    out = _WEAPONS.get(key)
    if out is None:
        out = w
        for e in effects:
            a = out.attacks
            d = out.damage
            out = replace(out, attacks=DiceExpr(a.count, a.sides, a.bonus + e.A_mod),
                          strength=max(1, min(30, out.strength + e.S_mod)),
                          ap=max(-6, min(0, out.ap + e.AP_mod)),
                          damage=DiceExpr(d.count, d.sides, d.bonus + e.D_mod),
                          abilities=out.abilities.plus(Abilities.from_data(e.weapon_abilities)))
        _WEAPONS[key] = out
    return out


def effect_conditions(u: Unit, t: Unit, w: WeaponProfile, cond: Conditions) -> Conditions:
    """The attack's conditions with the attacker's and the target's effects."""
    mine = _effects(u, w.melee)
    theirs = t.effects() if t.affected else []
    if not mine and not theirs:
        return cond
    hit, wound, crit, cover = cond.hit_mod, cond.wound_mod, cond.critical_hit, cond.cover
    rh, rw = cond.reroll_hits, cond.reroll_wounds
    for e in mine:
        if e.target_while is not None and not (
                t.below_starting() if e.target_while == "below_starting" else t.below_half()):
            continue  # "an attack that targets a unit that is Below Half-strength"
        if e.target_lacks and any(k in t.keywords for k in e.target_lacks):
            continue  # "... that targets an enemy unit that does not have the X keyword"
        hit += e.hit_mod
        wound += e.wound_mod
        rh, rw = _better(rh, e.reroll_hits), _better(rw, e.reroll_wounds)
        if e.crit_hit is not None:  # "an unmodified Hit roll of 5+ scores a Critical Hit"
            crit = min(crit, e.crit_hit)
    for e in theirs:  # attacks that target the affected unit
        if e.against != "all" and (e.against == "melee") != w.melee:
            continue  # e.g. Stealth: ranged attacks only
        hit += e.hit_against_mod
        wound += e.wound_against_mod
        cover = cover or (e.cover and not w.melee)  # Benefit of Cover: against ranged attacks
    return replace(cond, hit_mod=hit, wound_mod=wound, reroll_hits=rh, reroll_wounds=rw,
                   critical_hit=crit, cover=cover)


def _best(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def effect_defence(t: Unit, w: WeaponProfile | None = None) -> tuple[int | None, int | None]:
    """The target's invulnerable save and Feel No Pain with its effects; with
    the attacking weapon ``w``, Feel No Pain against Psychic Attacks counts for a [PSYCHIC] one."""
    inv, fnp = t.invuln, None
    if t.affected:
        psychic = w is not None and w.abilities.psychic
        for e in t.effects():
            inv, fnp = _best(inv, e.invuln), _best(fnp, e.fnp)
            if psychic:
                fnp = _best(fnp, e.fnp_psychic)
    return inv, fnp


def effect_fnp_mortal(t: Unit) -> int | None:
    """Feel No Pain against mortal wounds only, from the unit's effects."""
    return effect_least(t, "fnp_mortal")


# --- effects outside the attack sequence ---------------------------------------------------------
# Callers check ``u.affected`` first, so units without effects pay nothing.


def effect_sum(u: Unit, field: str) -> int:
    """A numeric field (OC_mod, M_mod, advance_mod, charge_mod) summed over the unit's effects:
    0 when it has none."""
    return sum(getattr(e, field) for e in u.effects()) if u.affected else 0


def effect_least(u: Unit, field: str) -> int | None:
    """The smallest value of an optional field (ranged_within, pile_in) over the unit's effects:
    None when no effect sets it."""
    out = None
    if u.affected:
        for e in u.effects():
            out = _best(out, getattr(e, field))
    return out


def effect_has(u: Unit, field: str) -> bool:
    """Whether one of the unit's effects grants a flag (fights_first, reroll_charge,
    reroll_advance, charge_after_advance)."""
    return u.affected and any(getattr(e, field) for e in u.effects())
