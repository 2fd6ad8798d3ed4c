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

from collections.abc import Callable, Generator
from dataclasses import replace
from functools import cache
from typing import Any

from bagm.chance.dice import DiceExpr
from bagm.data.weapons import Abilities, WeaponProfile
from bagm.engine.attack.rules import Conditions, Reroll
from bagm.engine.state import events as ev
from bagm.engine.state.army import Unit

_REROLL_ORDER = {Reroll.none: 0, Reroll.ones: 1, Reroll.failed: 2}
SYNAPSE_RANGE = 6.0  # Synapse: "within 6\" of one or more friendly SYNAPSE models"

# --- effects in the attack sequence ------------------------------------------------------------

_WEAPONS: dict[tuple[Any, ...], WeaponProfile] = {}  # (weapon, *its effects): the weapon changed


Holds = Callable[[Unit, str, "Unit | None"], bool]
"""Answers whether a unit is in a state that needs the game ('near_objective', 'secured_site'),
given the attacker for a condition on an attack's target."""


@cache
def label_effect() -> Any:
    """An effect that changes nothing by itself: kept in ``Unit.timed`` under a rule's name, it
    marks that the rule is in force on the unit for the while (Prioritised Efficiency's Hostile
    Acquisition, DS8 Support Turret's turret)."""
    from bagm.data.models import Effect
    from bagm.data.schema import validate

    return validate(Effect, {})


def holds_in(game: Any) -> Holds:
    """The answer to the effect conditions that need the game, in ``game``'s present state."""
    def holds(u: Unit, cond: str, other: Unit | None = None) -> bool:
        return _holds(game, u, cond, other)
    return holds


_WITHIN: dict[float, str] = {}  # target_within X -> its condition's name, "within X" (built once each)


def _within(x: float) -> str:
    name = _WITHIN.get(x)
    if name is None:
        name = _WITHIN[x] = f"within {x}"
    return name


def _holds(game: Any, u: Unit, cond: str, other: Unit | None = None) -> bool:
    if cond.startswith("within "):  # target_within: the target within X" of the attacker (around Walls)
        return other is not None and game.within_reach(other, u, float(cond[7:]))
    if cond == "beyond_hatchway":
        return other is not None and _beyond_hatchway(game, other, u)
    if cond == "empowered":  # Power from Pain: Empowered until the end of the phase
        return u.empowered == game.phase_id
    if cond == "synapse":  # Synapse: within 6" of a friendly SYNAPSE unit (itself one counts);
        # Synaptic Web (BA Mustering Rules, Tyranids): Walls and closed Hatchways are ignored
        # Synaptic Beacon: "while a friendly TYRANIDS unit is within 9\" of the bearer (ignoring Walls and
        # closed Hatchways), that unit is within Synapse Range of the bearer and of your army"
        return "SYNAPSE" in u.keywords or any(
            game.min_straight(u, v) <= max(SYNAPSE_RANGE if "SYNAPSE" in v.keywords else -1.0,
                                           (effect_least(v, "synapse_range") or -1.0) if v.affected else -1.0) + 1e-9
            for v in game.army_units(u.player) if v is not u)
    if cond == "near_objective":  # Core Rules "Objective Markers": a model within range of one
        return any(game.near_markers(u))
    if cond.startswith("aura "):  # within X" of a unit whose aura it is (muster._spread_auras; an aura on
        # enemy units names every unit of the army that has it: spread_enemy_auras)
        _, uids, reach, *how = cond.split()
        if not u.alive:
            return False
        by_round: list[str] = []
        if "/" in reach:  # by battle round, the last for every later one (Contagion Range)
            by_round = reach.split("/")
            reach = by_round[min(max(game.round, 1), len(by_round)) - 1]
        for uid in uids.split(","):
            src = game.units[uid]
            if not src.alive:
                continue
            grow = contagion_extra(game, src) if by_round and src.affected else 0.0
            far = game.min_straight(src, u) if how == ["straight"] else game.unit_distance(src, u)
            if far <= float(reach) + grow + 1e-9:
                return True
        return False
    if cond.startswith("carries "):  # the aura's units carry an alternative of its rule (a Plague)
        _, uids, name = cond.split(" ", 2)
        return any(n == name for uid in uids.split(",") for n, _, _ in game.units[uid].timed)
    if cond == "closest":  # "the closest eligible target": the closest enemy unit the attacker sees
        if other is None:
            return False
        seen = [e for e in game.army_units(u.player) if e is u or game.visible_idx(other, e)]
        return bool(seen) and min(seen, key=lambda e: game.unit_distance(other, e)) is u
    if cond == "near_controlled":  # "within range of an objective marker you control"
        return any(near and game.control[i] == u.player for i, near in enumerate(game.near_markers(u)))
    if cond == "near_battleline":  # "has BATTLELINE and/or is within 6\" of a friendly BATTLELINE unit"
        return "BATTLELINE" in u.keywords or any(
            "BATTLELINE" in v.keywords and game.unit_distance(u, v) <= 6.0 + 1e-9
            for v in game.army_units(u.player) if v is not u)
    if cond == "secured_site":  # "performed Secure Site in your previous Shooting phase"
        return u.secured_turn >= 0 and u.secured_turn == last_shooting_turn(game, u.player)
    if cond == "engaged":  # "a unit within Engagement Range of one or more friendly models"
        return bool(game.engaged_with(u))
    if cond == "markerlight":  # "visible to one or more friendly MARKERLIGHT units that are not
        # within Engagement range of one or more enemy models" (friendly: to the attacker)
        return any("MARKERLIGHT" in m.keywords and not game.engaged_with(m) and game.visible_idx(m, u)
                   for m in game.army_units(game.other(u.player)))
    return False


def contagion_extra(game: Any, src: Unit) -> float:
    """Inches added to the Contagion Range of ``src`` (its auras by battle round): Miasmic Odour,
    "add 3\" to the Contagion Range of the bearer"; Sevenfold Offerings, "for every seven enemy models
    that have been destroyed, add 2\" to the Contagion Range of units from your army" (reading: the
    enemy army's models lost so far, of its units set up or destroyed)."""
    extra = float(sum(e.aura_mod for e in src.effects()))
    per = next((e for e in src.effects() if e.aura_kills), None)
    if per is not None:
        lost = sum(v.starting - len(v.models) for v in game.units.values()
                   if v.player != src.player and v.where in ("board", "destroyed"))
        extra += lost // per.aura_kills * per.aura_kills_mod
    return extra


def _beyond_hatchway(game: Any, u: Unit, t: Unit) -> bool:
    """Drive Home the Blade, Purge-Sweep Protocols: a model of ``u`` within 1" of an open
    Hatchway, ``u`` and ``t`` wholly on opposite sides of it; the enemy unit so selected is the
    first such target ``u`` attacks in the phase (reading: the player selects the unit it
    shoots), and the only one."""
    mark = u.hatch_target
    if mark is not None and mark[0] == game.phase_id:
        return mark[1] == t.uid
    bf = game.bf
    for i in range(len(game.map.layout.hatchways)):
        if bf.is_open(i) and any(bf.distance_to_hatchway(m.base, i) <= 1.0 + 1e-9 for m in u.models) \
                and bf.wholly_opposite_sides(u.bases, t.bases, i):
            u.hatch_target = (game.phase_id, t.uid)
            return True
    return False


def last_shooting_turn(game: Any, player: str) -> int:
    """The turn of ``player``'s most recent Shooting phase that has begun (-1: none yet). Reading:
    in its own turn after its Shooting phase began, that phase; otherwise its previous turn's."""
    if game.active == player:
        begun = game.phase in ("shooting", "charge", "fight")
        return game.turn if begun else game.turn - 2
    return game.turn - 1


# The fields each step of an attack reads of the effects: a lookup by them (Unit.setting) looks at
# the conditions of the effects that set one of them only (a Detachment rule's "while within range
# of an objective marker you control" on a Stratagem's refund is no question for an attack).
WEAPON_FIELDS = ("A_mod", "S_mod", "AP_mod", "D_mod", "skill_mod", "weapon_abilities", "D_set", "A_set")
"""What :func:`effect_weapon` reads of the attacker's effects (the weapon's characteristics)."""
HIT_FIELDS = ("hit_mod", "wound_mod", "reroll_hits", "reroll_wounds", "crit_hit", "overwatch_hit",
              "crit_wound_AP_mod", "crit_wound", "reroll_damage", "reroll_attacks")
"""What :func:`effect_conditions` reads of the attacker's effects."""
AGAINST_WEAPON_FIELDS = ("hazardous_against", "AP_against_mod")
"""What :func:`effect_weapon` reads of the target's effects."""
AGAINST_FIELDS = ("damage_against_mod", "hit_against_mod", "wound_against_mod", "save_mod", "cover")
"""What :func:`effect_conditions` reads of the target's effects."""
DEFENCE_FIELDS = ("invuln", "fnp", "fnp_psychic")
"""What :func:`effect_defence` reads of the target's effects."""


def _effects(u: Unit, melee: bool, fields: tuple[str, ...], holds: Holds | None = None) -> list[Any]:
    """The attacker's effects that apply now to its attacks of that kind and set one of ``fields``."""
    if not u.affected:
        return []
    want = "melee" if melee else "ranged"
    return [e for e in u.setting(fields, holds) if e.attacks in ("all", want)]


def _target_fits(e: Any, u: Unit, t: Unit | None, holds: Holds | None) -> bool:
    """Whether an effect's conditions on the attack's target hold (None: no target known, so
    only effects without such a condition apply)."""
    if e.target_while is None and not e.target_lacks and e.target_slew is None and not e.target_has \
            and e.target_within is None:
        return True
    if t is None:
        return False
    if e.target_within is not None and not (holds is not None and holds(t, _within(e.target_within), u)):
        return False  # "enemy units within 7\" of this unit are Hunted by it" (Soul Hunters)
    if e.target_has and not any(k in t.keywords for k in e.target_has):
        return False  # "... while targeting CHARACTER units"
    if e.target_while is not None and not t.state(e.target_while, holds, u):
        return False  # "an attack that targets a unit that is Below Half-strength"
    if e.target_slew is not None and e.target_slew not in t.slew:
        return False  # "... targets that enemy unit" (the one that destroyed a CRYPTEK model)
    # "... that targets an enemy unit that does not have the X keyword"
    return not (e.target_lacks and any(k in t.keywords for k in e.target_lacks))


def _better(a: Reroll, b: str | None) -> Reroll:
    r = Reroll(b) if b else Reroll.none
    return r if _REROLL_ORDER[r] > _REROLL_ORDER[a] else a


def effect_weapon(u: Unit, w: WeaponProfile, t: Unit | None = None,
                  holds: Holds | None = None) -> WeaponProfile:
    """The weapon as the unit's effects change it (characteristics, abilities) in its attacks
    on ``t`` ("... while targeting a unit within range of an objective marker"); without a
    target, effects with a condition on it are left out. With the target, as the target's
    effects change it too ("enemy weapons have [HAZARDOUS] while targeting this unit")."""
    if t is not None and t.affected:  # the target's effects on the attacks that target it
        theirs = [e for e in t.setting(AGAINST_WEAPON_FIELDS, holds) if e.against in ("all", "melee" if w.melee else "ranged")
                  and not (e.against_lacks and any(k in u.keywords for k in e.against_lacks))]
        if not w.abilities.hazardous and any(e.hazardous_against for e in theirs):
            w = _hazardous(w)
        if worse := sum(e.AP_against_mod for e in theirs):  # "worsen the AP of the attack by 1"
            key = (w, "AP", worse)
            w = _WEAPONS.get(key) or _WEAPONS.setdefault(key, replace(w, ap=max(-6, min(0, w.ap + worse))))
    effects = [e for e in _effects(u, w.melee, WEAPON_FIELDS, holds) if _target_fits(e, u, t, holds)
               and _names(e, w) and (not e.target_marked or t is not None and _marked(u, t, e))]
    if not effects:
        return w
    key = (w, *effects)  # effects hash by identity; a condition may leave some out
    out = _WEAPONS.get(key)
    if out is None:
        out = w
        for e in effects:
            a = out.attacks if e.A_set is None else DiceExpr(0, 6, e.A_set)  # "an Attacks characteristic of 6"
            d = out.damage
            if e.D_set is not None:  # "has a Damage characteristic of 3"
                d = DiceExpr(0, 6, e.D_set)
            if e.A_set is not None:  # "have an Attacks characteristic of 3"
                a = DiceExpr(0, 6, e.A_set)
            skill = out.skill if out.skill is None else max(2, min(6, out.skill + e.skill_mod))
            out = replace(out, attacks=DiceExpr(a.count, a.sides, a.bonus + e.A_mod), skill=skill,
                          strength=max(1, min(30, out.strength + e.S_mod)),
                          ap=max(-6, min(0, out.ap + e.AP_mod)),
                          damage=DiceExpr(d.count, d.sides, d.bonus + e.D_mod),
                          abilities=out.abilities.plus(Abilities.from_data(e.weapon_abilities)))
        _WEAPONS[key] = out
    return out


def _marked(u: Unit, t: Unit, e: Any) -> bool:
    """The target was marked by the rule that gives ``u`` the effect ``e``."""
    if e.marked_by is not None:  # "... that targets your Oath of Moment target"
        return e.marked_by in t.marked
    if e.mark_each:  # the unit's own selection
        return any(x is e and f"{name} {u.uid}" in t.marked for name, x in u.standing)
    return any(x is e and name in t.marked for name, x in u.standing)


def _names(e: Any, w: WeaponProfile) -> bool:
    """The effect's weapon conditions (only_weapons, only_psychic, no_psychic, only_rapid_fire) hold
    for ``w``."""
    return (not e.only_weapons or w.name.lower() in (n.lower() for n in e.only_weapons)) and (
        not e.only_psychic or w.abilities.psychic) and not (e.no_psychic and w.abilities.psychic) and (
        not e.only_rapid_fire or w.abilities.rapid_fire is not None)


def _hazardous(w: WeaponProfile) -> WeaponProfile:
    out = _WEAPONS.get((w, "hazardous"))
    if out is None:
        out = _WEAPONS[(w, "hazardous")] = w.with_abilities(hazardous=True)
    return out


def toughness(t: Unit, holds: Holds | None = None) -> int:
    """The Toughness an attack's Wound roll compares its Strength with: the unit's
    (:meth:`Unit.toughness`, with the Toughness modifiers set at muster) and the modifiers of its
    effects that apply only for a while (an Afflicted unit's -1 within Contagion Range; a timed
    one), which muster could not set."""
    base = t.toughness()
    if not t.affected:
        return base
    mods = t.setting("T_mod", holds)
    if not mods:
        return base
    timed = {id(x) for _, x, _ in t.timed}
    return max(1, base + sum(e.T_mod for e in mods if e.only_while is not None or id(e) in timed))


def armour(t: Unit, sv: int, holds: Holds | None = None) -> int:
    """The Save characteristic ``sv`` of a model of ``t`` with its effects' improvements (``Sv_mod``:
    Take Cover!), never better than ``Sv_best``; a Save already better than that stays as it is."""
    mods = t.setting("Sv_mod", holds) if t.affected else []
    if not mods:
        return sv
    best = max((e.Sv_best for e in mods if e.Sv_best is not None), default=2)
    return min(sv, max(best, sv + sum(e.Sv_mod for e in mods)))


def effect_conditions(u: Unit, t: Unit, w: WeaponProfile, cond: Conditions,
                      holds: Holds | None = None) -> Conditions:
    """The attack's conditions with the attacker's and the target's effects (``holds``: the
    answer to conditions that need the game, :func:`holds_in`)."""
    mine = _effects(u, w.melee, HIT_FIELDS, holds)
    theirs = t.setting(AGAINST_FIELDS, holds) if t.affected else []
    if not mine and not theirs:
        return cond
    hit, wound, crit, cover = cond.hit_mod, cond.wound_mod, cond.critical_hit, cond.cover
    rh, rw, save, ow = cond.reroll_hits, cond.reroll_wounds, cond.save_mod, cond.overwatch_hit
    cw = cond.crit_wound_ap
    cwo, dmg, rd, ra = cond.critical_wound, cond.damage_mod, cond.reroll_damage_ones, cond.reroll_attacks
    for e in mine:
        if not _target_fits(e, u, t, holds) or not _names(e, w):
            continue  # a condition on the target ("while targeting CHARACTER units"), the weapon
        if e.only_weaker and not w.strength < toughness(t, holds):
            continue  # "if the Strength of the attack is less than the Toughness of that unit"
        if e.only_not_stronger and not w.strength <= t.T:
            continue  # "... less than or equal to the Toughness characteristic of the target"
        if e.target_marked and not _marked(u, t, e):
            continue  # "... an attack that targets that (selected) enemy unit"
        hit += e.hit_mod
        wound += e.wound_mod
        rh, rw = _better(rh, e.reroll_hits), _better(rw, e.reroll_wounds)
        if e.crit_hit is not None:  # "an unmodified Hit roll of 5+ scores a Critical Hit"
            crit = min(crit, e.crit_hit)
        if e.overwatch_hit is not None:  # "an unmodified Hit roll of 5+ is required to score a hit"
            ow = min(ow, e.overwatch_hit)
        cw = min(cw, e.crit_wound_AP_mod)  # "on a Critical Wound, improve the AP ... by 1"
        if e.crit_wound is not None:  # "... a Critical Wound is scored on an unmodified 5+"
            cwo = min(cwo, e.crit_wound)
        rd = rd or e.reroll_damage == "ones"  # "re-roll a Damage roll of 1"
        ra = ra or e.reroll_attacks  # "each time you roll for the number of attacks, re-roll it"
    for e in theirs:  # attacks that target the affected unit
        if e.against != "all" and (e.against == "melee") != w.melee:
            continue  # e.g. Stealth: ranged attacks only
        if e.against_lacks and any(k in u.keywords for k in e.against_lacks):
            continue  # "each time a friendly model (excluding CHARACTER models) makes an attack"
        dmg += e.damage_against_mod  # "each time an attack is allocated to the bearer, -1 Damage"
        if e.against_stronger and not w.strength > toughness(t, holds):
            continue  # "if the Strength characteristic of the attack is greater than the Toughness"
        if e.against_beyond is not None and (w.melee or not cond.far):
            continue  # "if the attacking model is not within 6\" of that unit"
        hit += e.hit_against_mod
        wound += e.wound_against_mod
        save += e.save_mod  # "add 1 to any armour saving throw made against that attack"
        cover = cover or (e.cover and not w.melee)  # Benefit of Cover: against ranged attacks
    return replace(cond, hit_mod=hit, wound_mod=wound, reroll_hits=rh, reroll_wounds=rw,
                   critical_hit=crit, cover=cover, save_mod=save, overwatch_hit=ow, crit_wound_ap=cw,
                   critical_wound=cwo, damage_mod=dmg, reroll_damage_ones=rd, reroll_attacks=ra)


def _best(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def effect_defence(t: Unit, w: WeaponProfile | None = None, holds: Holds | None = None,
                   own: bool = True) -> tuple[int | None, int | None]:
    """The target's invulnerable save and Feel No Pain with its effects; with
    the attacking weapon ``w``, Feel No Pain against Psychic Attacks counts for a [PSYCHIC] one.
    ``own=False``: the invulnerable save its effects give, without the unit's own (each model
    then adds its own profile's: :meth:`Unit.saves`)."""
    inv, fnp = t.invuln if own else None, None
    if t.affected:
        psychic = w is not None and w.abilities.psychic
        for e in t.setting(DEFENCE_FIELDS, holds):
            inv, fnp = _best(inv, e.invuln), _best(fnp, e.fnp)
            if psychic:
                fnp = _best(fnp, e.fnp_psychic)
    return inv, fnp


def effect_fnp_mortal(t: Unit) -> int | None:
    """Feel No Pain against mortal wounds only, from the unit's effects."""
    return effect_least(t, "fnp_mortal")


# --- effects outside the attack sequence ---------------------------------------------------------
# Callers check ``u.affected`` first, so units without effects pay nothing.


def effect_sum(u: Unit, field: str, holds: Holds | None = None) -> int:
    """A numeric field (OC_mod, M_mod, advance_mod, charge_mod) summed over the unit's effects
    (``holds``: with the conditions that need the game, an aura's): 0 when it has none."""
    if not u.affected:
        return 0
    got = u.setting(field, holds)
    return sum(getattr(e, field) for e in got) if got else 0


def effect_least(u: Unit, field: str) -> int | None:
    """The smallest value of an optional field (ranged_within, pile_in) over the unit's effects:
    None when no effect sets it."""
    out = None
    if u.affected:
        for e in u.setting(field):
            out = _best(out, getattr(e, field))
    return out


def effect_has(u: Unit, field: str) -> bool:
    """Whether one of the unit's effects grants a flag (fights_first, reroll_charge,
    reroll_advance, charge_after_advance)."""
    if not u.affected:
        return False
    got = u.setting(field)
    return bool(got) and any(getattr(e, field) for e in got)


def shock_dice(game: Any, u: Unit) -> int:
    """How many D6 a Battle-shock test of ``u`` is taken on: 3 with an effect's ``shock_3d6``
    (Synapse: "take that test on 3D6 instead of 2D6"), else 2."""
    return 3 if u.affected and u.sets("shock_3d6") and any(e.shock_3d6 for e in u.setting("shock_3d6", holds_in(game))) \
        else 2


def shock_roll(game: Any, u: Unit, what: str) -> int:
    """The dice of one Battle-shock test of ``u`` (2D6, or 3D6 with :func:`shock_dice`)."""
    return sum(game.dice.d6(what) for _ in range(shock_dice(game, u)))


def effect_first(u: Unit, field: str) -> Any:
    """The value of an optional field that is no number to compare (deadly_demise: 1 or 'D3')
    from the first of the unit's effects that sets it: None when none does."""
    if u.affected:
        for e in u.setting(field):
            v = getattr(e, field)
            if v is not None:
                return v
    return None


# --- effects on other units: tests a charge calls for, auras -------------------------------------


def aura_copy(e: Any, sources: str, name: str = "") -> Any:
    """The one copy of aura effect ``e`` that a unit within its range has, however many units have
    that aura (``sources``: their uids, "S1,S2"): its other fields, while within range of ANY of
    them (the condition 'aura S1,S2 X', answered by :func:`holds_in`; by battle round with
    ``aura_rounds``, 'straight' ignoring Walls; with ``aura_choice``, while those units carry that
    alternative of rule ``name``: 'carries S1,S2 NAME: CHOICE'). Core Rules "Aura Abilities" (not in
    the project's texts): the effects of identically named auras are not cumulative, so a unit has
    one copy per aura, never one per unit that has it (muster: spread_enemy_auras, _spread_auras)."""
    import copy

    reach = f"{e.aura}" if not e.aura_rounds else "/".join(f"{x:g}" for x in e.aura_rounds)
    e2 = copy.copy(e)
    e2.aura, e2.aura_rounds, e2.aura_enemy, e2.aura_choice = None, [], False, None
    listed = [] if e.only_while is None else [e.only_while] if isinstance(e.only_while, str) else e.only_while
    e2.only_while = [*listed, f"aura {sources} {reach}" + (" straight" if e.straight else "")] + (
        [f"carries {sources} {name}: {e.aura_choice}"] if e.aura_choice else [])
    return e2


def aura_sources(x: Any, e: Any, name: str = "") -> str | None:
    """The units ("S1,S2") whose aura effect ``e`` (of rule ``name``) effect ``x`` is the copy of
    (:func:`aura_copy`); None: ``x`` is no copy of that aura."""
    listed = [] if x.only_while is None else [x.only_while] if isinstance(x.only_while, str) else x.only_while
    cond = next((c for c in listed if c.startswith("aura ")), None)
    if cond is None:
        return None
    who = cond.split()[1]
    return who if repr(aura_copy(e, who, name)) == repr(x) else None



_MINUS_1_TO_HIT: list[Any] = []  # the Effect a failed Leadership test of a charge gives (built once)


def charge_tests(game: Any, u: Unit, t: Unit) -> Generator[Any, Any, None]:
    """The tests a declared charge of ``u`` at ``t`` calls for, at once: each target of a unit
    with ``charge_test`` (Terrifying Charge, Focused Ferocity) and a unit charging one with
    ``charger_test`` (Blessed Visages). The charging player's rule first (sequencing). A unit with
    Acts of Faith may put a Miracle dice in place of one dice of its Battle-shock test (a decision)."""
    tests = []
    if u.affected and (kind := _least_str(u, "charge_test")):
        tests.append((t, kind, u.source("charge_test")))
    if t.affected and (kind := _least_str(t, "charger_test")):
        tests.append((u, kind, t.source("charger_test")))
    for who, kind, rule in tests:
        if not who.alive:
            continue
        ld = who.leadership(holds_in(game))  # the best Leadership of the models left
        miracle = None
        if kind == "battle-shock" and game.miracles[who.player]:  # Acts of Faith: a Miracle dice for one dice
            miracle = yield from game.act_of_faith(who, "battle-shock", 2, ld)
        roll = game.shock_dice_with(who, miracle, f"{kind} {who.uid}") if miracle is not None else \
            shock_roll(game, who, f"{kind} {who.uid}") if kind == "battle-shock" else \
            game.dice.d6(f"{kind} {who.uid}") + game.dice.d6(f"{kind} {who.uid}")
        ok = roll >= ld
        if kind == "battle-shock":
            game.emit(ev.BattleshockTest(e="battleshock_test", unit=who.uid, roll=roll, ld=ld, passed=ok, why=rule))
        else:
            game.emit(ev.LeadershipTest(e="leadership_test", unit=who.uid, roll=roll, ld=ld, passed=ok, why=rule))
        if ok:
            continue
        if kind == "battle-shock":  # a failed Battle-shock test: Battle-shocked
            who.battleshocked = True
            game.emit(ev.Battleshock(e="battleshock", unit=who.uid, shocked=True))
            from bagm.engine.rules.army_rules import pain_from

            pain_from(game, who, "Power from Pain")  # "each time an enemy unit fails a Battle-shock test"
        else:  # "each time a model in that unit makes an attack, subtract 1 from the Hit roll"
            if not _MINUS_1_TO_HIT:
                from bagm.data.models import Effect
                from bagm.data.schema import validate

                _MINUS_1_TO_HIT.append(validate(Effect, {"hit_mod": -1}))
            who.timed += ((rule, _MINUS_1_TO_HIT[0], "turn"),)
            game.emit(ev.Effect(e="effect", unit=who.uid, rule=rule, until="turn"))


def _least_str(u: Unit, field: str) -> str | None:
    """A text field of the unit's effects ('battle-shock' before 'leadership'); None: unset."""
    vals = sorted(v for e in u.setting(field) if (v := getattr(e, field)) is not None)
    return vals[0] if vals else None


def shock_aura(game: Any, p: str) -> dict[str, tuple[str, int]]:
    """The units of player ``p`` an enemy unit's ``shock_range`` makes take a Battle-shock test in
    ``p``'s Command phase (Chastisor Auto-Vox: within 3"; Harmonic Discordator: within 3" and
    below its Starting Strength; Blood-Drenched Champion: within Engagement Range), each with the
    rule's name and the modifier to that one test (``shock_below_half_mod`` when it is Below
    Half-strength; the worst of several)."""
    out: dict[str, tuple[str, int]] = {}
    for v in game.army_units(game.other(p)):
        for name, e in v.standing if v.affected else ():
            if e.shock_range is None:
                continue
            reach = ("straight", e.shock_range) if e.straight else e.shock_range
            for u in game.army_units(p):
                if e.target_while is not None and not u.state(e.target_while):
                    continue  # "an enemy unit that is below its Starting Strength"
                if game.within_reach(v, u, reach):  # "subtracting 1 from the roll" (shock_mod)
                    mod = e.shock_mod + (e.shock_below_half_mod if u.below_half() else 0)
                    out[u.uid] = (name, min(mod, out[u.uid][1])) if u.uid in out else (name, mod)
    return out


def engaged_oc_mod(game: Any, u: Unit) -> int:
    """The change to the OC of ``u``'s models from enemy units within Engagement Range of it
    (Overwhelming Magnificence: -1, however many such units)."""
    mods = [m for e in game.engaged_with(u) if e.affected and (m := effect_sum(e, "engaged_enemy_OC_mod"))]
    # Rad-saturation: "while an enemy unit (excluding VEHICLE units) is within 3" of this unit,
    # subtract 1 from the OC of models in that unit"
    near = [e.OC_aura_mod for v in game.army_units(game.other(u.player)) if v.affected for e in v.setting("OC_aura")
            if e.OC_aura_mod and not any(k in u.keywords for k in e.target_lacks)
            and game.within_reach(v, u, e.OC_aura)]
    return min(mods, default=0) + min(near, default=0)


def moves_through(u: Unit, v: Unit, kind: str) -> bool:
    """Whether ``u``'s models can move through ``v``'s on a move of ``kind`` (normal, advance,
    fallback, charge): an effect's ``move_through`` (Dark Radiance, Comin' Through)."""
    if not u.affected:
        return False
    for e in u.setting("move_through"):
        if kind not in e.move_through_moves:
            continue
        if e.move_through == "models" or e.move_through == "friendly" and v.player == u.player or \
                e.move_through == "weaker" and v.toughness() < u.toughness():
            return True
    return False


_SLOWED: dict[int, Any] = {}  # the Effect Toxic Miasma gives a unit of Move M (built once each)


def slow_aura(game: Any, u: Unit) -> str | None:
    """The rule of an enemy unit whose ``slow_aura`` reaches ``u`` (Toxic Miasma), or None."""
    if not game.armies[game.other(u.player)].may_set("slow_aura"):
        return None  # (asked each time a unit is selected to move or charge)
    for e in game.army_units(game.other(u.player)):
        reach = effect_least(e, "slow_aura")
        if reach is not None and game.min_straight(u, e) <= reach + 1e-9:
            return e.source("slow_aura")
    return None


def slowed(game: Any, u: Unit) -> None:
    """Just after ``u`` is selected to move: within an enemy's ``slow_aura``, its Move is halved
    (rounding up) and -1 to its Advance roll, until the end of the phase."""
    rule = slow_aura(game, u)
    if rule is None:
        return
    eff = _SLOWED.get(u.M)
    if eff is None:
        from bagm.data.models import Effect
        from bagm.data.schema import validate

        eff = _SLOWED[u.M] = validate(Effect, {"M_mod": -(u.M // 2), "advance_mod": -1})
    u.timed += ((rule, eff, "phase"),)
    game.emit(ev.Effect(e="effect", unit=u.uid, rule=rule, until="phase"))


def fights_on_death(game: Any, t: Unit, destroyed: int) -> None:
    """``destroyed`` models of ``t`` were just destroyed by a melee attack: with an effect's
    ``fight_on_death`` (Faolchu's Last Flight, Reap the Tally) and if ``t`` has not fought this
    phase, a D6 for each (or, ``fight_on_death_last``, for its last model only); each success
    joins ``t.dying``, to fight once the attacking unit has made its attacks."""
    if t.fought or not destroyed:
        return
    need = effect_least(t, "fight_on_death")
    if need is None:
        return
    last = effect_has(t, "fight_on_death_last")
    if last:
        if t.models:
            return
        destroyed = 1
    rule = t.source("fight_on_death")
    rolls = [game.dice.d6(f"{rule} {t.uid}") for _ in range(destroyed)]
    won = sum(1 for r in rolls if r >= need)
    t.dying += won
    game.emit(ev.FightOnDeath(e="fight_on_death", unit=t.uid, rule=rule, rolls=rolls, fighting=won))


def through_enemies(game: Any, u: Unit, before: list[tuple[float, float]]) -> None:
    """Just after ``u`` has moved from ``before``: with an effect's ``through_enemy_wound``
    (Lithe Killers), a D6 for each model whose line crossed an enemy model; each roll of X or
    less, one mortal wound to the unit."""
    need = effect_least(u, "through_enemy_wound")
    if need is None or not u.models:
        return
    from bagm.engine.board.geometry import segment_hits_disk
    from bagm.engine.rules.missions.base import suffer_mortal_wounds

    enemies = [m.base for e in game.army_units(game.other(u.player)) for m in e.models]
    crossed = sum(1 for (x, y), m in zip(before, u.models)
                  if any(segment_hits_disk((x, y), (m.x, m.y), e.centre, e.radius) for e in enemies))
    if crossed:
        rule = u.source("through_enemy_wound")
        rolls = [game.dice.d6(f"{rule} {u.uid}") for _ in range(crossed)]
        suffer_mortal_wounds(game, u, sum(1 for r in rolls if r <= need), rule)


def early_deep_strike(game: Any, u: Unit) -> int | None:
    """In the first battle round, the distance from enemy models an effect lets ``u`` arrive by
    Deep Strike at (Pre-Emptive Strike: 6"); None: not in this battle round."""
    return effect_least(u, "deep_strike_round_1") if game.round == 1 and u.affected else None
