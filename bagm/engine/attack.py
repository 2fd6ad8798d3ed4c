"""The attack sequence of the 10th-edition Core Rules, as used in Boarding Actions.

Each rule lives in one small function: the Hit roll, the Wound roll and its table, the saving
throw (armour, invulnerable, Benefit of Cover), re-rolls, Damage, Feel No Pain, mortal wounds,
allocation, and the effect of every weapon ability. The same functions serve two callers:
:func:`resolve` (and :func:`resolve_steps`) plays an attack with a :class:`~bagm.chance.dice.Dice`, and
:mod:`bagm.engine.odds` enumerates their die faces to compute exact odds.

Section names in the comments are those of the rules text (``../shared/rules``, the Core Rules
excerpts at its end and "Rules Adaptations"). Some Core Rules the engine needs are not among the
excerpts (Lethal Hits, Anti, Twin-linked, Melta, Rapid Fire, Heavy, Lance, Ignores Cover,
Precision, Pistol, Assault, Extra Attacks, invulnerable saves, Feel No Pain, re-rolls,
allocating to a wounded model first); their comments say "Core Rules, not in the excerpts".

Order of the dice in :func:`resolve` (tests that script the dice follow it): the Attacks of each
model (Attacks dice, then Rapid Fire dice), every Hit roll (each followed at once by its re-roll
and its Sustained Hits dice), every Wound roll (each followed by its re-roll), then one attack at
a time its saving throw, Damage and Feel No Pain rolls, then the Devastating Wounds attacks'
Damage and Feel No Pain rolls, then the Hazardous tests.

:func:`resolve_steps` is the one implementation: a generator that also offers the Command
Re-roll Stratagem where the game allows it (:func:`resolve` runs it with no offers). A re-roll
taken adds its die where it is offered: after the pool of Attacks dice, after the pool of Hit
rolls (then that hit's Sustained Hits dice), after the pool of Wound rolls, just after a failed
saving throw, just after a random Damage roll, just after a failed Hazardous test.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from typing import Any

from bagm.chance.dice import Dice, DiceError, DiceExpr, parse_dice
from bagm.errors import BagmError

FACES = range(1, 7)


class AttackError(BagmError, ValueError):
    """A profile, target or ability that the attack sequence cannot use."""


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


# --- weapons and their abilities ------------------------------------------------------------


@dataclass(frozen=True)
class Anti:
    """[ANTI-KEYWORD X+]. ``keyword`` None: the caller has decided the target has it."""

    keyword: str | None
    x: int

    def __str__(self) -> str:
        return f"Anti-{(self.keyword or 'keyword').title()} {self.x}+"


@dataclass(frozen=True)
class Abilities:
    """A weapon's abilities as structured values (parsed from the data packs' WeaponAbility)."""

    sustained_hits: DiceExpr | None = None
    lethal_hits: bool = False
    devastating_wounds: bool = False
    torrent: bool = False
    blast: bool = False
    hazardous: bool = False
    anti: tuple[Anti, ...] = ()
    twin_linked: bool = False
    melta: int | None = None
    rapid_fire: DiceExpr | None = None
    heavy: bool = False
    lance: bool = False
    ignores_cover: bool = False
    precision: bool = False
    pistol: bool = False
    assault: bool = False
    extra_attacks: bool = False
    indirect_fire: bool = False
    psychic: bool = False
    one_shot: bool = False
    conversion: bool = False
    unknown: tuple[str, ...] = ()
    """Abilities bagm does not know; reported, never applied."""

    @classmethod
    def from_data(cls, abilities: Iterable[Any]) -> "Abilities":
        """Build from data-pack WeaponAbility values (``name``, ``value``, ``target``)."""
        found: dict[str, Any] = {}
        anti: list[Anti] = []
        unknown: list[str] = []
        for ab in abilities:
            name = re.sub(r"[\s_]+", " ", str(ab.name).strip().lower())
            where = f"weapon ability '{ab.name}'"
            if name == "anti" or name.startswith("anti-"):
                keyword = ab.target or (name[5:] if name.startswith("anti-") else None)
                if not keyword:
                    raise AttackError(f"{where}: Anti needs a target keyword, e.g. target: INFANTRY")
                anti.append(Anti(keyword.upper(), _threshold(ab.value, where)))
            elif name in ("sustained hits", "rapid fire"):
                if ab.value is None:
                    raise AttackError(f"{where}: needs a value, e.g. value: 1 or value: D3")
                try:
                    found[name.replace(" ", "_")] = parse_dice(ab.value, f"{name} value")
                except DiceError as exc:
                    raise AttackError(f"{where}: {exc}") from None
            elif name == "melta":
                if not isinstance(ab.value, int) or isinstance(ab.value, bool) or ab.value < 1:
                    raise AttackError(f"{where}: needs a whole-number value, e.g. value: 2")
                found["melta"] = ab.value
            elif name.replace(" ", "_").replace("-", "_") in _FLAGS:
                found[name.replace(" ", "_").replace("-", "_")] = True
            else:
                unknown.append(str(ab.name))
        return cls(anti=tuple(anti), unknown=tuple(unknown), **found)

    def plus(self, extra: "Abilities") -> "Abilities":
        """These abilities and those ``extra`` gives (one this weapon already has stays as it is)."""
        changes: dict[str, Any] = {f: True for f in _FLAGS if getattr(extra, f) and not getattr(self, f)}
        for f in ("sustained_hits", "rapid_fire", "melta"):
            if getattr(extra, f) is not None and getattr(self, f) is None:
                changes[f] = getattr(extra, f)
        if extra.anti:
            changes["anti"] = self.anti + tuple(a for a in extra.anti if a not in self.anti)
        return replace(self, **changes) if changes else self

    def names(self) -> list[str]:
        """The abilities as printed on a datasheet, e.g. ['Sustained Hits 2', 'Anti-Infantry 4+']."""
        out = []
        if self.sustained_hits is not None:
            out.append(f"Sustained Hits {self.sustained_hits}")
        if self.rapid_fire is not None:
            out.append(f"Rapid Fire {self.rapid_fire}")
        if self.melta is not None:
            out.append(f"Melta {self.melta}")
        out += [str(a) for a in self.anti]
        out += [_FLAGS[f] for f in _FLAGS if getattr(self, f)]
        return out + list(self.unknown)


_FLAGS = {
    "lethal_hits": "Lethal Hits", "devastating_wounds": "Devastating Wounds", "torrent": "Torrent",
    "blast": "Blast", "hazardous": "Hazardous", "twin_linked": "Twin-linked", "heavy": "Heavy",
    "lance": "Lance", "ignores_cover": "Ignores Cover", "precision": "Precision",
    "pistol": "Pistol", "assault": "Assault", "extra_attacks": "Extra Attacks",
    "indirect_fire": "Indirect Fire", "psychic": "Psychic", "one_shot": "One Shot",
    "conversion": "Conversion",
}


def _threshold(value: Any, where: str) -> int:
    """A roll threshold such as 4 or '4+'."""
    text = str(value).strip().rstrip("+") if value is not None else ""
    if not text.isdigit() or not 2 <= int(text) <= 6:
        raise AttackError(f"{where}: needs a value from 2+ to 6+, e.g. value: 4")
    return int(text)


@dataclass(frozen=True)
class WeaponProfile:
    """A weapon's characteristics as the attack sequence uses them."""

    name: str
    melee: bool
    attacks: DiceExpr
    skill: int | None
    """BS or WS (3 means 3+); None only for Torrent weapons."""
    strength: int
    ap: int
    """As printed: 0, -1, -2..."""
    damage: DiceExpr
    abilities: Abilities = field(default_factory=Abilities)
    range: int | None = None

    def __post_init__(self) -> None:
        where = f"weapon '{self.name}'"
        if self.skill is None and not self.abilities.torrent:
            raise AttackError(f"{where}: needs a BS or WS (only Torrent weapons have none)")
        if self.skill is not None and not 2 <= self.skill <= 6:
            raise AttackError(f"{where}: BS/WS {self.skill}+ is not one of 2+ to 6+")
        if not 1 <= self.strength <= 30:
            raise AttackError(f"{where}: Strength {self.strength} is not from 1 to 30")
        if not -6 <= self.ap <= 0:
            raise AttackError(f"{where}: AP {self.ap} is not as printed (0, -1, ... -6)")

    @classmethod
    def from_data(cls, weapon: Any) -> "WeaponProfile":
        """Build from a data-pack ``bagm.data.models.Weapon``."""
        where = f"weapon '{weapon.name}'"
        if not isinstance(weapon.S, int):
            raise AttackError(f"{where}: a random Strength ({weapon.S}) is not supported")
        try:
            attacks = parse_dice(weapon.A, "Attacks")
            damage = parse_dice(weapon.D, "Damage")
        except DiceError as exc:
            raise AttackError(f"{where}: {exc}") from None
        return cls(weapon.name, weapon.type == "melee", attacks, weapon.skill, weapon.S,
                   weapon.AP, damage, Abilities.from_data(weapon.abilities), weapon.range)

    def with_abilities(self, **changes: Any) -> "WeaponProfile":
        return replace(self, abilities=replace(self.abilities, **changes))


@dataclass(frozen=True)
class Conditions:
    """The situation of an attack, always explicit: the engine never guesses it."""

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
    beyond_12: bool = False
    """The target is more than 12" away: Conversion."""
    critical_hit: int = 6
    """An unmodified Hit roll of this or more is a Critical Hit (5: a Leader ability's 5+)."""


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
    Overwatch (Set Overwatch). ``cond.critical_hit`` lowers it (a conferred Leader ability)."""
    if cond.overwatch:
        return 6
    if weapon.abilities.conversion and cond.beyond_12:
        return 4 if cond.critical_hit > 4 else cond.critical_hit
    return cond.critical_hit


def hit_roll(unmodified: int, skill: int, modifier: int, overwatch: bool = False,
             critical_on: int = 6) -> Outcome:
    """Hit Roll: an unmodified 6 (or Conversion's 4+) is a Critical Hit and always hits, an
    unmodified 1 always fails, otherwise hit on BS/WS or more after the (capped) modifier.
    Overwatch (Set Overwatch): only an unmodified 6 hits."""
    if unmodified >= critical_on:
        return Outcome.critical
    if unmodified == 1 or overwatch:
        return Outcome.fail
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


def wound_reroll_policy(weapon: WeaponProfile, cond: Conditions) -> Reroll:
    """Twin-linked (Core Rules, not in the excerpts): re-roll the Wound roll; a failed one is
    the roll worth re-rolling, so it counts as re-rolling failed Wound rolls."""
    if weapon.abilities.twin_linked:
        return Reroll.failed
    return cond.reroll_wounds


def has_cover(weapon: WeaponProfile, target: Target, cond: Conditions) -> bool:
    """Benefit of Cover: only against ranged attacks, never for a Save of 3+ or better against
    AP 0, and not against Ignores Cover (Core Rules, not in the excerpts). Not cumulative."""
    if not cond.cover or weapon.melee or weapon.abilities.ignores_cover:
        return False
    return not (target.save <= 3 and weapon.ap == 0)


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
    if ab.blast and not weapon.melee and target.visible_models >= 5:
        parts.append(DiceExpr.constant(target.visible_models // 5))
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
    elif cond.cover and target.save <= 3 and w.ap == 0:
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
    if ab.blast and not w.melee:
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


# --- playing an attack with dice ------------------------------------------------------------


@dataclass
class TargetUnit:
    """The wounds left on each model of the target while attacks are resolved."""

    wounds: list[int]
    full: int
    """A model's starting Wounds characteristic."""
    visible: set[int] | None = None
    """Indices of models visible to the attacker (ranged allocation); None: all."""
    fnp: int | None = None
    fnp_mortal: int | None = None
    """Feel No Pain X+ against mortal wounds only (a conferred Leader ability)."""

    @classmethod
    def of(cls, target: Target) -> "TargetUnit":
        visible = None if target.visible is None else set(range(target.visible))
        return cls([target.wounds] * target.models, target.wounds, visible, target.fnp)

    @property
    def destroyed(self) -> int:
        return sum(1 for w in self.wounds if w <= 0)

    def allocate(self, ranged: bool = True) -> int | None:
        """The model an attack is allocated to: one that has lost wounds first (Core Rules,
        not in the excerpts); otherwise, for a ranged attack, a model visible to the
        attacking unit (Rules Adaptations, Allocating Attacks). None: no model, so the attack
        sequence ends."""
        alive = [i for i, w in enumerate(self.wounds) if w > 0]
        for i in alive:
            if self.wounds[i] < self.full:
                return i
        for i in alive:
            if not ranged or self.visible is None or i in self.visible:
                return i
        return None

    def lose_wounds(self, index: int, amount: int, dice: Dice, reason: str, mortal: bool = False) -> int:
        """Inflict ``amount`` damage on one model, one wound at a time, rolling Feel No Pain
        for each (for ``mortal`` wounds the better of it and ``fnp_mortal``); excess damage is
        lost when the model is destroyed. Returns wounds lost."""
        lost = 0
        fnp = self.fnp
        if mortal and self.fnp_mortal is not None and (fnp is None or self.fnp_mortal < fnp):
            fnp = self.fnp_mortal
        for _ in range(amount):
            if self.wounds[index] <= 0:
                break  # excess damage lost (Allocating Attacks; Mortal Wounds)
            if fnp is not None and fnp_saves(dice.d6(f"feel no pain ({reason})"), fnp):
                continue
            self.wounds[index] -= 1
            lost += 1
        return lost

    def mortal_wounds(self, amount: int, dice: Dice, spill: bool, ranged: bool = True,
                      reason: str = "mortal wounds") -> int:
        """Mortal Wounds: each inflicts one damage, allocated one at a time like an attack.
        ``spill``: excess carries on to the next model until the unit is destroyed; False for
        Hazardous and Devastating Wounds, whose remaining mortal wounds are lost when the model
        they were allocated to is destroyed (Mortal Wounds). Returns wounds lost."""
        lost = 0
        index = self.allocate(ranged)
        for _ in range(amount):
            if index is None:
                break
            lost += self.lose_wounds(index, 1, dice, reason, mortal=True)
            if self.wounds[index] <= 0:
                if not spill:
                    break
                index = self.allocate(ranged)
        return lost


@dataclass
class AttackResult:
    """What one weapon's attacks did, counted step by step, with a text log."""

    attacks: int = 0
    hits: int = 0
    critical_hits: int = 0
    wounds: int = 0
    critical_wounds: int = 0
    saves: int = 0
    unsaved: int = 0
    """Attacks that got through saves (normal damage)."""
    devastating: int = 0
    """Critical Wounds of a Devastating Wounds weapon (mortal wounds, no save)."""
    damage: int = 0
    """The Damage rolled by every attack that got through, before Feel No Pain and wounds."""
    wounds_lost: int = 0
    models_destroyed: int = 0
    hazardous_failed: int = 0
    log: list[str] = field(default_factory=list)

    @property
    def hazardous_mortal_wounds(self) -> int:
        return HAZARDOUS_MORTAL_WOUNDS * self.hazardous_failed


class RerollOffer:
    """A roll that the Command Re-roll Stratagem could re-roll now, sent by :func:`resolve_steps`
    (Boarding Actions Stratagems, COMMAND RE-ROLL: "just after you have made a Hit roll, a Wound
    roll, a Damage roll, a saving throw, ... a Hazardous test, or just after you have rolled the
    dice to determine the number of attacks made with a weapon")."""

    __slots__ = ("what", "side", "roll", "damage", "wounds_left", "new")

    def __init__(self, what: str, side: str, roll: int, damage: float, wounds_left: int = 0) -> None:
        self.what = what
        """'attacks', 'hit', 'wound', 'save', 'damage' or 'hazardous'."""
        self.side = side
        """'attacker', or 'defender' for a saving throw: whose roll it is."""
        self.roll = roll
        """The die or total rolled (the lowest model's random Attacks for 'attacks')."""
        self.damage = damage
        """The weapon's average Damage (what the bots weigh the offer by)."""
        self.wounds_left = wounds_left
        """'save', 'damage': wounds left on the model the attack is allocated to."""
        self.new: int | None = None
        """The result of the re-roll, once made."""


Offers = Generator[RerollOffer, bool, "AttackResult"]


def _roll_with_reroll(dice: Dice, policy: Reroll, reason: str, judge: Any) -> tuple[int, Outcome, bool]:
    """A Hit or Wound roll and its re-roll by an ability; the third value: it was re-rolled."""
    u = dice.d6(reason)
    outcome = judge(u)
    if rerolls(policy, u, outcome):
        u = dice.d6(reason + " re-roll")
        return u, judge(u), True
    return u, outcome, False


def _pool(dice: Dice, n: int, policy: Reroll, reason: str, judge: Any, score: Any, offer: bool,
          avg: float) -> Generator[RerollOffer, bool, bool]:
    """``n`` Hit or Wound rolls rolled as a pool, each that succeeds scored; then, if ``offer``,
    the attacker's Command Re-roll of one failed die that no ability re-rolled (its new result
    scored as if rolled then). True when the re-roll was taken."""
    failed = None
    for _ in range(n):
        u, outcome, again = _roll_with_reroll(dice, policy, reason, judge)
        if outcome is Outcome.fail:
            if not again and failed is None:
                failed = u
            continue
        score(outcome)
    if failed is None or not offer:
        return False
    o = RerollOffer(reason, "attacker", failed, avg)
    if not (yield o):
        return False
    o.new = dice.d6(f"{reason} command re-roll")
    outcome = judge(o.new)
    if outcome is not Outcome.fail:
        score(outcome)
    return True


def resolve(profile: AttackProfile, target: Target, dice: Dice,
            unit: TargetUnit | None = None) -> AttackResult:
    """Play every attack of ``profile`` against ``target`` with ``dice`` (see the module
    docstring for the order of the dice), with no Command Re-roll. ``unit`` carries wounds
    already lost; it is updated."""
    steps = resolve_steps(profile, target, dice, unit)
    try:
        next(steps)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("resolve_steps made an offer nobody may take")  # pragma: no cover


def resolve_steps(profile: AttackProfile, target: Target, dice: Dice, unit: TargetUnit | None = None,
                  attacker: bool = False, defender: bool = False) -> Offers:
    """:func:`resolve` as a generator that sends a :class:`RerollOffer` each time a Command
    Re-roll could be used and is sent back True to re-roll (the CP is the caller's business);
    returns the :class:`AttackResult`. ``attacker``/``defender``: that player may use Command
    Re-roll now (CP, not yet this phase, unit not Battle-shocked); once used it is not offered
    to them again. With both False nothing is sent, and the dice are those of :func:`resolve`.

    Fast dice (how the offers fit rolling a weapon's attacks together): the number of attacks,
    Hit rolls and Wound rolls are rolled as a pool, then one die of the pool may be re-rolled
    (the lowest random number of attacks of a model; a failed Hit or Wound roll that no ability
    has re-rolled: a die is never re-rolled twice), its new result counting as if rolled then.
    A saving throw is offered just after it fails, a random Damage just after it is rolled
    (before it is inflicted), a Hazardous test just after it fails."""
    w, cond, ab = profile.weapon, profile.conditions, profile.weapon.abilities
    unit = unit if unit is not None else TargetUnit.of(target)
    destroyed_before = unit.destroyed
    res = AttackResult()
    ranged = not w.melee
    damage = attack_damage(w, cond)
    avg = float(damage.mean()) if attacker or defender else 0.0

    # Attacks; Blast; Rapid Fire
    parts = attack_dice(w, target, cond)
    random_parts = [p for p in parts if not p.is_constant] if attacker else []
    lowest: int | None = None  # the lowest roll of a model's random Attacks (the one offered)
    for _ in range(profile.models):
        n = rnd = 0
        for part in parts:
            v = dice.roll_expr(part, "attacks")
            n += v
            if not part.is_constant:
                rnd += v
        res.attacks += n
        if random_parts and (lowest is None or rnd < lowest):
            lowest = rnd
    if lowest is not None and attacker:
        # Command Re-roll (Boarding Actions Stratagems): the dice that determine the number of attacks
        offer = RerollOffer("attacks", "attacker", lowest, avg)
        if (yield offer):
            attacker = False
            offer.new = sum(dice.roll_expr(p, "attacks command re-roll") for p in random_parts)
            res.attacks += offer.new - lowest
    res.log.append(f"{res.attacks} attack(s)")

    # Hit Roll; Torrent (automatic hits, so never a Critical Hit); Sustained Hits; Lethal Hits
    hits = auto_wounds = 0
    # the judge of a Hit roll, built once (its modifier and Critical Hit value are the same
    # for every attack: pure functions of the weapon and the conditions)
    skill, hit_mod, crit_hit, overwatch = w.skill or 7, hit_modifier(w, cond), critical_hit_on(w, cond), cond.overwatch

    def judge_hit(u: int) -> Outcome:
        return hit_roll(u, skill, hit_mod, overwatch, crit_hit)

    def score_hit(outcome: Outcome) -> None:
        nonlocal hits, auto_wounds
        res.hits += 1
        if outcome is Outcome.critical:
            res.critical_hits += 1
            if ab.lethal_hits:
                auto_wounds += 1  # Lethal Hits: the Critical Hit wounds automatically
            else:
                hits += 1
            if ab.sustained_hits is not None:  # Sustained Hits X: X more hits
                extra = dice.roll_expr(ab.sustained_hits, "sustained hits")
                hits += extra
                res.hits += extra
        else:
            hits += 1

    if ab.torrent:
        hits = res.hits = res.attacks
    else:
        # Command Re-roll (Boarding Actions Stratagems): a Hit roll
        if (yield from _pool(dice, res.attacks, cond.reroll_hits, "hit", judge_hit, score_hit, attacker, avg)):
            attacker = False
    res.log.append(f"{res.hits} hit(s) ({res.critical_hits} critical)")

    # Wound Roll; Anti; Twin-linked; Lance; Devastating Wounds
    needed = wound_threshold(w.strength, target.toughness)
    crit_on = critical_wound_on(w, target)
    policy = wound_reroll_policy(w, cond)
    normal, devastating = auto_wounds, 0
    wound_mod = wound_modifier(w, cond)  # the same for every hit (a pure function)

    def judge_wound(u: int) -> Outcome:
        return wound_roll(u, needed, wound_mod, crit_on)

    def score_wound(outcome: Outcome) -> None:
        nonlocal normal, devastating
        if outcome is Outcome.critical:
            res.critical_wounds += 1
            if ab.devastating_wounds:
                devastating += 1
                return
        normal += 1

    # Command Re-roll (Boarding Actions Stratagems): a Wound roll
    if (yield from _pool(dice, hits, policy, "wound", judge_wound, score_wound, attacker, avg)):
        attacker = False
    res.wounds = normal + devastating
    res.devastating = devastating
    res.log.append(f"{res.wounds} wound(s) ({res.critical_wounds} critical, "
                   f"{auto_wounds} from Lethal Hits)")

    # Saving Throw; Allocating Attacks; damage to one model, excess lost
    save = saving_throw(w, target, cond)
    save_reason = f"save ({save})"  # the reason of each saving throw's die, written once
    random_damage = not damage.is_constant
    for _ in range(normal):
        index = unit.allocate(ranged)
        if index is None:
            break  # Allocating Attacks: no visible model, the attack sequence ends
        if save.kind != "none":
            u = dice.d6(save_reason)
            if not save.succeeds(u) and defender:  # Command Re-roll: the defender's saving throw
                offer = RerollOffer("save", "defender", u, avg, unit.wounds[index])
                if (yield offer):
                    defender = False
                    u = offer.new = dice.d6(f"save ({save}) command re-roll")
            if save.succeeds(u):
                res.saves += 1
                continue
        res.unsaved += 1
        d = dice.roll_expr(damage, "damage")
        if random_damage and attacker:  # Command Re-roll: a Damage roll, before it is inflicted
            offer = RerollOffer("damage", "attacker", d, avg, unit.wounds[index])
            if (yield offer):
                attacker = False
                d = offer.new = dice.roll_expr(damage, "damage command re-roll")
        res.damage += d
        res.wounds_lost += unit.lose_wounds(index, d, dice, "damage")

    # Devastating Wounds: allocated after all other attacks; mortal wounds equal to the Damage;
    # a destroyed model loses the rest of that attack's mortal wounds (Mortal Wounds)
    for _ in range(devastating):
        index = unit.allocate(ranged)
        if index is None:
            break
        d = dice.roll_expr(damage, "damage (devastating wounds)")
        if random_damage and attacker:
            offer = RerollOffer("damage", "attacker", d, avg, unit.wounds[index])
            if (yield offer):
                attacker = False
                d = offer.new = dice.roll_expr(damage, "damage (devastating wounds) command re-roll")
        res.damage += d
        res.wounds_lost += unit.mortal_wounds(d, dice, spill=False, ranged=ranged,
                                              reason="devastating wounds")
    res.models_destroyed = unit.destroyed - destroyed_before
    res.log.append(f"{res.saves} saved, {res.unsaved} unsaved, {devastating} devastating; "
                   f"{res.wounds_lost} wound(s) lost, {res.models_destroyed} model(s) destroyed")

    # Hazardous: one test per Hazardous weapon used, after all attacks
    if ab.hazardous:
        for _ in range(profile.models):
            u = dice.d6("hazardous")
            if hazardous_fails(u) and attacker:  # Command Re-roll: a Hazardous test
                offer = RerollOffer("hazardous", "attacker", u, avg)
                if (yield offer):
                    attacker = False
                    u = offer.new = dice.d6("hazardous command re-roll")
            res.hazardous_failed += hazardous_fails(u)
        res.log.append(f"Hazardous: {res.hazardous_failed} failed test(s), "
                       f"{res.hazardous_mortal_wounds} mortal wound(s) to the attacking unit")
    return res
