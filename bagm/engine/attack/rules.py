"""The attack sequence of the 10th-edition Core Rules, as used in Boarding Actions: the rules,
one small function each.

The Hit roll, the Wound roll and its table, the saving throw (armour, invulnerable, Benefit of
Cover), re-rolls, Damage, Feel No Pain, mortal wounds, and the effect of every weapon ability.
The same functions serve two callers: :mod:`bagm.engine.attack.sequence` plays an attack with
dice, and :mod:`bagm.engine.attack.odds` enumerates their die faces to compute exact odds.

Section names in the comments are those of the rules text (``../shared/rules``, the Core Rules
excerpts at its end and "Rules Adaptations"). Some Core Rules the engine needs are not among the
excerpts (Lethal Hits, Anti, Twin-linked, Melta, Rapid Fire, Heavy, Lance, Ignores Cover,
Precision, Pistol, Assault, Extra Attacks, invulnerable saves, Feel No Pain, re-rolls,
allocating to a wounded model first); their comments say "Core Rules, not in the excerpts".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum

from bagm.chance.dice import DiceExpr
from bagm.data.weapons import AttackError, HashedOnce, WeaponProfile

FACES = range(1, 7)


class Reroll(str, Enum):
    """Which rolls a re-roll ability lets the attacker re-roll."""

    none = "none"
    ones = "ones"
    failed = "failed"


class Outcome(IntEnum):
    """The result of a Hit or Wound roll."""

    fail = 0
    success = 1
    critical = 2


@dataclass(frozen=True)
class Conditions(HashedOnce):
    """The situation of an attack, always explicit: the engine never guesses it."""

    __hash__ = HashedOnce.__hash__  # kept by @dataclass, which would write its own

    hit_mod: int = 0
    wound_mod: int = 0
    save_mod: int = 0
    """Other modifiers to the armour saving throw (an ability's +1, say)."""
    reroll_hits: Reroll = Reroll.none
    reroll_wounds: Reroll = Reroll.none
    cover: bool = False
    """The target has the Benefit of Cover (in Boarding Actions: not fully visible)."""
    half_range: bool = False
    """Within half range: Melta and Rapid Fire."""
    remained_stationary: bool = False
    """The attacking unit Remained Stationary: Heavy."""
    charged: bool = False
    """The attacking model made a Charge move this turn: Lance."""
    overwatch: bool = False
    """Fire Overwatch / Set Overwatch: only an unmodified 6 hits."""
    overwatch_hit: int = 6
    """While firing Overwatch, the unmodified Hit roll that hits (5: a Detachment rule's 5+)."""
    beyond_12: bool = False
    """The target is more than 12" away: Conversion."""
    critical_hit: int = 6
    """An unmodified Hit roll of this or more is a Critical Hit (5: a Leader ability's 5+)."""
    cover_any_save: bool = False
    """2023 Benefit of Cover: "The Save characteristic of models does not affect whether they
    can receive the Benefit of Cover" (bagm.engine.rules.editions)."""
    blast_counts_hidden: bool = False
    """Blast counts every model of the target unit, visible or not (2023: no "Blast Weapons"
    adaptation; bagm.engine.rules.editions)."""
    far: bool = False
    """The attacking models are farther from the target than an effect on it names
    (Effect.against_beyond: "if the attacking model is not within 6\"")."""
    crit_wound_ap: int = 0
    """Added to the AP of an attack that scores a Critical Wound (-1: a Detachment rule's
    "on a Critical Wound, improve the Armour Penetration characteristic of that attack by 1")."""
    critical_wound: int = 6
    """An unmodified Wound roll of this or more is a Critical Wound (5: an effect's 5+)."""
    damage_mod: int = 0
    """Added to the Damage of each attack after it is rolled, never below 1 (-1: "subtract 1
    from the Damage characteristic of attacks allocated to this model")."""
    reroll_damage_ones: bool = False
    """Re-roll a Damage roll of 1."""
    reroll_attacks: bool = False
    """Re-roll a model's roll for its number of attacks when below the average ("you can
    re-roll the result")."""
    wound_choice: str | None = None
    """The rule that lets the attacker re-roll any Wound roll, choosing die by die (Close-Quarters
    Killer: a successful one too); None: none. With nobody to ask, failed ones are re-rolled."""


@dataclass(frozen=True)
class AttackProfile:
    """One weapon fired or swung by ``models`` models, in given conditions."""

    weapon: WeaponProfile
    models: int = 1
    conditions: Conditions = field(default_factory=Conditions)

    def __post_init__(self) -> None:
        if not 1 <= self.models <= 100:
            raise AttackError(f"{self.models} attacking models: use 1 to 100")


_UPPER: dict[frozenset[str], frozenset[str]] = {}  # keyword sets upper-cased (few distinct ones)


@dataclass(frozen=True)
class Target:
    """The target unit: N identical models (the odds model) and what defends them."""

    toughness: int
    save: int
    """3 means 3+; 7 means no armour save."""
    wounds: int
    models: int = 1
    invuln: int | None = None
    fnp: int | None = None
    """Feel No Pain X+."""
    keywords: frozenset[str] = frozenset()
    visible: int | None = None
    """Models visible to the attacking unit (Blast, allocation); None: all of them."""
    name: str = "target"

    def __post_init__(self) -> None:
        # the common case tested first, the messages built only for a refusal (one Target is
        # built for every attack of a game)
        if 1 <= self.toughness <= 30 and 2 <= self.save <= 7 and 1 <= self.wounds <= 50 and \
                1 <= self.models <= 100 and (self.invuln is None or 2 <= self.invuln <= 6) and \
                (self.fnp is None or 2 <= self.fnp <= 6) and \
                (self.visible is None or 0 <= self.visible <= self.models):
            kw = _UPPER.get(self.keywords) if isinstance(self.keywords, frozenset) else None
            if kw is None:
                kw = frozenset(k.upper() for k in self.keywords)
                if isinstance(self.keywords, frozenset):
                    _UPPER[self.keywords] = kw
            object.__setattr__(self, "keywords", kw)
            return
        checks = [
            (1 <= self.toughness <= 30, f"Toughness {self.toughness}: use 1 to 30"),
            (2 <= self.save <= 7, f"Save {self.save}+: use 2 to 6, or 7 for no armour save"),
            (1 <= self.wounds <= 50, f"Wounds {self.wounds}: use 1 to 50"),
            (1 <= self.models <= 100, f"{self.models} target models: use 1 to 100"),
            (self.invuln is None or 2 <= self.invuln <= 6, f"invulnerable save {self.invuln}+: use 2 to 6"),
            (self.fnp is None or 2 <= self.fnp <= 6, f"Feel No Pain {self.fnp}+: use 2 to 6"),
            (self.visible is None or 0 <= self.visible <= self.models,
             f"{self.visible} visible models: use 0 to the unit's {self.models}"),
        ]
        for ok, message in checks:
            if not ok:
                raise AttackError(f"target: {message}")
        object.__setattr__(self, "keywords", frozenset(k.upper() for k in self.keywords))

    @property
    def visible_models(self) -> int:
        return self.models if self.visible is None else self.visible


# --- the rules, one function each -----------------------------------------------------------


def cap_modifier(modifier: int) -> int:
    """Hit Roll / Wound Roll: a roll is never modified by more than -1 or +1."""
    return max(-1, min(1, modifier))


def hit_modifier(weapon: WeaponProfile, cond: Conditions) -> int:
    """The net Hit roll modifier: the given one plus Heavy (Core Rules, not in the excerpts:
    +1 to hit if the unit Remained Stationary), capped at +1/-1 (Hit Roll)."""
    heavy = 1 if weapon.abilities.heavy and cond.remained_stationary else 0
    return cap_modifier(cond.hit_mod + heavy)


def critical_hit_on(weapon: WeaponProfile, cond: Conditions) -> int:
    """The unmodified Hit roll that is a Critical Hit: 6 (Hit Roll), or 4+ for Conversion
    against a target more than 12" away (Core Rules, not in the excerpts); only 6 when firing
    Overwatch (Set Overwatch: "Critical Hits are only ever scored on an unmodified Hit roll of
    6", whatever Hit roll scores a hit). ``cond.critical_hit`` lowers it (a conferred Leader ability)."""
    if cond.overwatch:
        return 6
    if weapon.abilities.conversion and cond.beyond_12:
        return 4 if cond.critical_hit > 4 else cond.critical_hit
    return cond.critical_hit


def hit_roll(unmodified: int, skill: int, modifier: int, overwatch: bool = False,
             critical_on: int = 6, overwatch_on: int = 6) -> Outcome:
    """Hit Roll: an unmodified 6 (or Conversion's 4+) is a Critical Hit and always hits, an
    unmodified 1 always fails, otherwise hit on BS/WS or more after the (capped) modifier.
    Overwatch (Set Overwatch): only an unmodified 6 hits (or ``overwatch_on``+: an effect's
    "an unmodified Hit roll of 5+ is required to score a hit")."""
    if unmodified >= critical_on:
        return Outcome.critical
    if unmodified == 1:
        return Outcome.fail
    if overwatch:
        return Outcome.success if unmodified >= overwatch_on else Outcome.fail
    return Outcome.success if unmodified + cap_modifier(modifier) >= skill else Outcome.fail


def wound_threshold(strength: int, toughness: int) -> int:
    """Wound Roll table: S >= 2T 2+, S > T 3+, S = T 4+, S <= T/2 6+, S < T 5+."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def wound_modifier(weapon: WeaponProfile, cond: Conditions) -> int:
    """The net Wound roll modifier: the given one plus Lance (Core Rules, not in the excerpts:
    +1 to wound if the bearer charged this turn), capped at +1/-1 (Wound Roll)."""
    lance = 1 if weapon.abilities.lance and cond.charged else 0
    return cap_modifier(cond.wound_mod + lance)


def critical_wound_on(weapon: WeaponProfile, target: Target) -> int:
    """The unmodified Wound roll that is a Critical Wound: 6 (Wound Roll), or X+ for an
    [ANTI-KEYWORD X+] the target has the keyword of (Core Rules, not in the excerpts)."""
    xs = [a.x for a in weapon.abilities.anti if a.keyword is None or a.keyword in target.keywords]
    return min([6, *xs])


def wound_roll(unmodified: int, needed: int, modifier: int, critical_on: int = 6) -> Outcome:
    """Wound Roll: a Critical Wound (an unmodified 6, or Anti's X+) always wounds, an
    unmodified 1 always fails, otherwise wound on the table's value after the capped modifier."""
    if unmodified >= critical_on:
        return Outcome.critical
    if unmodified == 1:
        return Outcome.fail
    return Outcome.success if unmodified + cap_modifier(modifier) >= needed else Outcome.fail


def rerolls(policy: Reroll, unmodified: int, outcome: Outcome) -> bool:
    """Re-rolls (Core Rules, not in the excerpts): re-roll a 1, or any failed roll; a die is
    re-rolled at most once (the caller never offers a re-rolled die again)."""
    if policy is Reroll.ones:
        return unmodified == 1
    if policy is Reroll.failed:
        return outcome is Outcome.fail
    return False


def wound_reroll_policy(weapon: WeaponProfile, cond: Conditions, choosing: bool = False) -> Reroll:
    """Twin-linked (Core Rules, not in the excerpts): re-roll the Wound roll; a failed one is
    the roll worth re-rolling, so it counts as re-rolling failed Wound rolls. So does a rule
    that lets the attacker choose (``cond.wound_choice``) when nobody is ``choosing``."""
    if weapon.abilities.twin_linked or cond.wound_choice is not None and not choosing:
        return Reroll.failed
    return cond.reroll_wounds


def has_cover(weapon: WeaponProfile, target: Target, cond: Conditions) -> bool:
    """Benefit of Cover: only against ranged attacks, never for a Save of 3+ or better against
    AP 0 (unless the 2023 adaptation, ``cond.cover_any_save``), and not against Ignores Cover
    (Core Rules, not in the excerpts). Not cumulative."""
    if not cond.cover or weapon.melee or weapon.abilities.ignores_cover:
        return False
    return cond.cover_any_save or not (target.save <= 3 and weapon.ap == 0)


@dataclass(frozen=True)
class SavingThrow:
    """The saving throw the defender makes: 'armour', 'invulnerable' or 'none'."""

    kind: str
    needed: int
    modifier: int = 0

    def succeeds(self, unmodified: int) -> bool:
        """Saving Throw: an unmodified 1 always fails; otherwise save on ``needed`` or more
        after the modifier (AP and cover for armour; none for invulnerable)."""
        if self.kind == "none" or unmodified == 1:
            return False
        return unmodified + self.modifier >= self.needed

    def chance(self) -> tuple[int, int]:
        """How many of the six faces save."""
        return sum(self.succeeds(u) for u in FACES), 6

    def __str__(self) -> str:
        if self.kind == "none":
            return "no save"
        mod = f" ({self.modifier:+d})" if self.modifier else ""
        return f"{self.kind} {self.needed}+{mod}"


def saving_throw(weapon: WeaponProfile, target: Target, cond: Conditions) -> SavingThrow:
    """Saving Throw: the armour save modified by AP and other modifiers, improved by the
    Benefit of Cover (+1, not for invulnerable saves) but never by more than +1 in all; or the
    invulnerable save, which AP does not change (Core Rules, not in the excerpts). The defender
    takes whichever saves more."""
    cover = 1 if has_cover(weapon, target, cond) else 0
    modifier = min(1, weapon.ap + cond.save_mod + cover)
    armour = SavingThrow("armour", target.save, modifier)
    options = [armour]
    if target.invuln is not None:
        options.append(SavingThrow("invulnerable", target.invuln))
    best = max(options, key=lambda s: s.chance()[0])
    return best if best.chance()[0] > 0 else SavingThrow("none", 7)


def attack_dice(weapon: WeaponProfile, target: Target, cond: Conditions) -> tuple[DiceExpr, ...]:
    """The dice that give one model's number of attacks: its Attacks characteristic, plus
    Blast (+1 per five models in the target, counting only the models visible to the attacker:
    Blast; Rules Adaptations "Blast Weapons"), plus Rapid Fire X within half range (Core Rules,
    not in the excerpts). An Extra Attacks weapon's attacks are never modified (Core Rules, not
    in the excerpts)."""
    ab = weapon.abilities
    parts = [weapon.attacks]
    if ab.extra_attacks:
        return tuple(parts)
    counted = target.models if cond.blast_counts_hidden else target.visible_models
    if ab.blast and not weapon.melee and counted >= 5:
        parts.append(DiceExpr.constant(counted // 5))
    if ab.rapid_fire is not None and cond.half_range and not weapon.melee:
        parts.append(ab.rapid_fire)
    return tuple(parts)


def attack_damage(weapon: WeaponProfile, cond: Conditions) -> DiceExpr:
    """The Damage of one attack: the characteristic, plus X for Melta X within half range
    (Core Rules, not in the excerpts)."""
    d = weapon.damage
    if weapon.abilities.melta is not None and cond.half_range:
        d = replace(d, bonus=d.bonus + weapon.abilities.melta)
    return d


def fnp_saves(unmodified: int, fnp: int | None) -> bool:
    """Feel No Pain X+ (Core Rules, not in the excerpts): each wound that would be lost is
    not lost on X or more."""
    return fnp is not None and unmodified >= fnp


HAZARDOUS_MORTAL_WOUNDS = 3  # Hazardous: a failed test inflicts 3 mortal wounds


def hazardous_fails(unmodified: int) -> bool:
    """Hazardous: a test fails on a 1."""
    return unmodified == 1


def notes(profile: AttackProfile, target: Target) -> list[str]:
    """What the caller should know about this attack: removed, situational or unknown
    abilities, and conditions that do not apply."""
    w, cond, ab = profile.weapon, profile.conditions, profile.weapon.abilities
    out = []
    if ab.indirect_fire:
        out.append("Indirect Fire: removed in Boarding Actions (Rules Adaptations, "
                    "Indirect Fire Weapons); the weapon needs a visible target")
    if cond.cover and w.melee:
        out.append("Benefit of Cover: only against ranged attacks; not applied")
    elif cond.cover and ab.ignores_cover:
        out.append("Benefit of Cover: ignored (Ignores Cover)")
    elif cond.cover and target.save <= 3 and w.ap == 0 and not cond.cover_any_save:
        out.append(f"Benefit of Cover: not for a {target.save}+ Save against AP 0")
    for flag, need, name in ((ab.melta is not None, cond.half_range, "Melta"),
                             (ab.rapid_fire is not None, cond.half_range, "Rapid Fire"),
                             (ab.heavy, cond.remained_stationary, "Heavy"),
                             (ab.conversion, cond.beyond_12, "Conversion"),
                             (ab.lance, cond.charged, "Lance")):
        if flag and not need:
            situation = {"Heavy": "--stationary", "Lance": "--charged",
                         "Conversion": "--beyond-12"}.get(name, "--half-range")
            out.append(f"{name}: not applied (needs {situation})")
    if ab.blast and not w.melee and cond.blast_counts_hidden:
        out.append(f"Blast: +{target.models // 5} attack(s) per model, counting all "
                   f"{target.models} model(s) (2023 edition: no Blast Weapons adaptation)")
    elif ab.blast and not w.melee:
        out.append(f"Blast: +{target.visible_models // 5} attack(s) per model, counting the "
                   f"{target.visible_models} visible model(s) (Rules Adaptations, Blast Weapons)")
    if target.visible is not None and target.visible < target.models and not w.melee:
        out.append(f"Allocation: only the {target.visible} visible model(s) can be allocated "
                   "attacks (Rules Adaptations, Allocating Attacks)")
    if ab.anti and critical_wound_on(w, target) == 6:
        out.append("Anti: the target has none of its keywords; not applied")
    if ab.precision:
        out.append("Precision: lets attacks be allocated to a CHARACTER; the odds model a unit "
                   "of identical models, so it changes nothing here")
    if ab.extra_attacks and (ab.blast or ab.rapid_fire is not None):
        out.append("Extra Attacks: its number of attacks is never modified")
    quiet = [n for f, n in (("pistol", "Pistol"), ("assault", "Assault"), ("psychic", "Psychic"),
                            ("one_shot", "One Shot"), ("extra_attacks", "Extra Attacks"))
             if getattr(ab, f)]
    if quiet:
        out.append(f"{', '.join(quiet)}: no effect on these odds")
    if ab.unknown:
        out.append(f"not applied (unknown to bagm): {', '.join(ab.unknown)}")
    return out
