"""Exact odds of an attack: distributions of damage, wounds lost and models destroyed.

Dynamic programming over exact fractions, never sampling. Every rule comes from
:mod:`bagm.engine.attack.rules`: the chances of each step are found by running its rule functions on
the six faces of a die (and on the six faces of the re-rolled die).

The model (Boarding Actions, Rules Adaptations "Allocating Attacks"): the target is a unit of N
identical models with W wounds; only the models visible to the attacker can be allocated ranged
attacks; damage goes to one model at a time and excess damage is lost. Each attack that gets
through (a failed save, or a Devastating Wounds Critical Wound) is a "packet" of Damage,
thinned by Feel No Pain one wound at a time. Devastating Wounds packets are resolved after the
others, and lose their excess like normal damage (Mortal Wounds); as every packet has the same
Damage and the same excess rule, their order does not change any distribution, so one chain
over the number of packets serves both.

``damage`` counts the Damage of every packet that gets through saves and Feel No Pain, before
it is capped by the wounds the target has; ``wounds_lost`` is capped.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import lcm
from typing import Any, Callable

from bagm.chance.dice import DiceExpr
from bagm.chance.dist import ONE, ZERO, Dist, binomial, convolve, mean, mix
from bagm.chance.dist import power as _power
from bagm.engine.attack.rules import (
    FACES,
    AttackProfile,
    Outcome,
    Reroll,
    SavingThrow,
    Target,
    attack_damage,
    attack_dice,
    critical_hit_on,
    critical_wound_on,
    fnp_saves,
    hazardous_fails,
    hit_modifier,
    hit_roll,
    notes,
    rerolls,
    saving_throw,
    wound_modifier,
    wound_reroll_policy,
    wound_roll,
    wound_threshold,
)


def _dice_sum(parts: tuple[DiceExpr, ...]) -> Dist:
    out: Dist = {0: ONE}
    for e in parts:
        out = convolve(out, e.distribution)
    return out



class _Vec:
    """A distribution over 0..len-1 as integer numerators over one denominator: the long
    convolution chains run on Python integers, and fractions are built once at the end."""

    __slots__ = ("nums", "den")

    def __init__(self, nums: list[int], den: int):
        self.nums, self.den = nums, den

    @classmethod
    def of(cls, d: Dist) -> "_Vec":
        den = lcm(*(p.denominator for p in d.values()))
        nums = [0] * (max(d) + 1)
        for x, p in d.items():
            nums[x] = p.numerator * (den // p.denominator)
        return cls(nums, den)

    def convolve(self, other: "_Vec") -> "_Vec":
        out = [0] * (len(self.nums) + len(other.nums) - 1)
        pairs = [(j, q) for j, q in enumerate(other.nums) if q]
        for i, p in enumerate(self.nums):
            if p:
                for j, q in pairs:
                    out[i + j] += p * q
        return _Vec(out, self.den * other.den)


class _Mixture:
    """Accumulates ``weight * vec`` terms exactly over a common denominator."""

    def __init__(self) -> None:
        self.nums: list[int] = []
        self.den = 1

    def add(self, weight: Fraction, vec: _Vec) -> None:
        if not weight:
            return
        term_den = weight.denominator * vec.den
        den = lcm(self.den, term_den)
        if den != self.den:
            scale = den // self.den
            self.nums = [n * scale for n in self.nums]
            self.den = den
        factor = weight.numerator * (den // term_den)
        if len(self.nums) < len(vec.nums):
            self.nums += [0] * (len(vec.nums) - len(self.nums))
        for i, n in enumerate(vec.nums):
            if n:
                self.nums[i] += n * factor

    def dist(self) -> Dist:
        return {i: Fraction(n, self.den) for i, n in enumerate(self.nums) if n}


# --- the chance of each step ----------------------------------------------------------------


def roll_chances(judge: Callable[[int], Outcome], policy: Reroll) -> dict[Outcome, Fraction]:
    """The outcomes of one D6 judged by a rule, re-rolled once under ``policy``."""
    out = {o: ZERO for o in Outcome}
    for u in FACES:
        outcome = judge(u)
        if rerolls(policy, u, outcome):
            for u2 in FACES:
                out[judge(u2)] += Fraction(1, 36)
        else:
            out[outcome] += Fraction(1, 6)
    return out


@dataclass(frozen=True)
class Steps:
    """The chance of each step of one attack."""

    hit: dict[Outcome, Fraction]
    """Per attack: fail, hit, Critical Hit (Torrent: always a hit)."""
    wound: dict[Outcome, Fraction]
    """Per hit that rolls to wound: fail, wound, Critical Wound."""
    wound_needed: int
    critical_wound_on: int
    save: SavingThrow
    unsaved: Fraction
    """Chance a saving throw fails."""
    through: Fraction
    """Chance a hit that rolls to wound gets through (fails its save or is Devastating)."""
    damage: DiceExpr
    fnp_ignores: Fraction
    """Chance Feel No Pain ignores one wound."""


def steps(profile: AttackProfile, target: Target) -> Steps:
    w, cond, ab = profile.weapon, profile.conditions, profile.weapon.abilities
    if ab.torrent:  # Torrent: the attack hits automatically; no roll, so no Critical Hit
        hit = {Outcome.fail: ZERO, Outcome.success: ONE, Outcome.critical: ZERO}
    else:
        modifier, crit_hit = hit_modifier(w, cond), critical_hit_on(w, cond)
        hit = roll_chances(lambda u: hit_roll(u, w.skill or 7, modifier, cond.overwatch, crit_hit, cond.overwatch_hit),
                           cond.reroll_hits)
    needed = wound_threshold(w.strength, target.toughness)
    crit_on = min(critical_wound_on(w, target), cond.critical_wound)
    wmod = wound_modifier(w, cond)
    wound = roll_chances(lambda u: wound_roll(u, needed, wmod, crit_on),
                         wound_reroll_policy(w, cond))
    save = saving_throw(w, target, cond)
    unsaved = 1 - Fraction(*save.chance())
    # Devastating Wounds: no saving throw of any kind against a Critical Wound; an effect may
    # give a Critical Wound's attack a better AP (Conditions.crit_wound_ap)
    crit_unsaved = unsaved
    if cond.crit_wound_ap:
        better = replace(w, ap=max(-6, min(0, w.ap + cond.crit_wound_ap)))
        crit_unsaved = 1 - Fraction(*saving_throw(better, target, cond).chance())
    through = wound[Outcome.success] * unsaved + wound[Outcome.critical] * (
        ONE if ab.devastating_wounds else crit_unsaved)
    fnp = Fraction(sum(fnp_saves(u, target.fnp) for u in FACES), 6)
    return Steps(hit, wound, needed, crit_on, save, unsaved, through, attack_damage(w, cond), fnp)


def packets_per_attack(profile: AttackProfile, st: Steps) -> Dist:
    """How many packets of damage one attack makes: a Critical Hit makes its Sustained Hits
    extra hits (each rolls to wound), and with Lethal Hits wounds automatically (a wound that
    is not a Critical Wound, so it is saved normally)."""
    ab = profile.weapon.abilities
    one_hit = {0: 1 - st.through, 1: st.through}
    crit = {0: 1 - st.unsaved, 1: st.unsaved} if ab.lethal_hits else one_hit
    if ab.sustained_hits is not None:
        extra = mix([(p, binomial(x, st.through)) for x, p in ab.sustained_hits.distribution.items()])
        crit = convolve(crit, extra)
    return mix([(st.hit[Outcome.fail], {0: ONE}), (st.hit[Outcome.success], one_hit),
                (st.hit[Outcome.critical], crit)])


def packet_wounds(damage: DiceExpr, fnp_ignores: Fraction) -> Dist:
    """Wounds one packet takes off before any cap: its Damage, each point ignored by Feel No
    Pain with the given chance."""
    return mix([(p, binomial(d, 1 - fnp_ignores)) for d, p in damage.distribution.items()])


# --- the result -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """Exact odds of one weapon's attacks against one unit."""

    profile: AttackProfile
    target: Target
    steps: Steps
    attacks: Dist
    packets: Dist
    """Attacks that get through saves (or are Devastating), before Feel No Pain."""
    damage: Dist
    """Damage through saves and Feel No Pain, before it is capped by wounds."""
    wounds_lost: Dist
    models_destroyed: Dist
    hazardous_failed: Dist
    """Failed Hazardous tests; each inflicts 3 mortal wounds on the attacking unit."""
    allocatable: int
    """Models that can be allocated these attacks (visible ones for ranged attacks)."""
    notes: tuple[str, ...] = field(default=())

    @property
    def expected_damage(self) -> Fraction:
        return mean(self.damage)

    @property
    def expected_wounds_lost(self) -> Fraction:
        return mean(self.wounds_lost)

    @property
    def expected_models_destroyed(self) -> Fraction:
        return mean(self.models_destroyed)

    @property
    def expected_attacks(self) -> Fraction:
        return mean(self.attacks)

    def at_least(self, models: int) -> Fraction:
        """The chance of destroying at least ``models`` models."""
        return sum((p for k, p in self.models_destroyed.items() if k >= models), ZERO)

    def as_dict(self) -> dict[str, Any]:
        """The stable JSON shape of ``bagm odds --format json``."""

        def floats(d: Dist) -> dict[str, float]:
            return {str(k): float(p) for k, p in sorted(d.items())}

        def exact(d: Dist) -> dict[str, str]:
            return {str(k): str(p) for k, p in sorted(d.items())}

        st = self.steps
        w, t = self.profile.weapon, self.target
        return {
            "expected_damage": float(self.expected_damage),
            "expected_models_destroyed": float(self.expected_models_destroyed),
            "expected_wounds_lost": float(self.expected_wounds_lost),
            "expected_attacks": float(self.expected_attacks),
            "damage_distribution": floats(self.damage),
            "models_destroyed_distribution": floats(self.models_destroyed),
            "wounds_lost_distribution": floats(self.wounds_lost),
            "attacks_distribution": floats(self.attacks),
            "exact": {
                "expected_damage": str(self.expected_damage),
                "expected_models_destroyed": str(self.expected_models_destroyed),
                "expected_wounds_lost": str(self.expected_wounds_lost),
                "damage_distribution": exact(self.damage),
                "models_destroyed_distribution": exact(self.models_destroyed),
                "wounds_lost_distribution": exact(self.wounds_lost),
            },
            "steps": {
                "hit": {o.name: float(p) for o, p in st.hit.items()},
                "wound": {o.name: float(p) for o, p in st.wound.items()},
                "wound_needed": st.wound_needed,
                "critical_wound_on": st.critical_wound_on,
                "save": str(st.save),
                "save_fails": float(st.unsaved),
                "through_per_hit": float(st.through),
                "damage": str(st.damage),
                "feel_no_pain_ignores": float(st.fnp_ignores),
            },
            "hazardous_failed_distribution": floats(self.hazardous_failed),
            "weapon": {"name": w.name, "type": "melee" if w.melee else "ranged",
                       "A": str(w.attacks), "skill": w.skill, "S": w.strength, "AP": w.ap,
                       "D": str(w.damage), "abilities": w.abilities.names(),
                       "models": self.profile.models},
            "target": {"name": t.name, "models": t.models, "T": t.toughness, "Sv": t.save, "W": t.wounds,
                       "invuln": t.invuln, "fnp": t.fnp, "visible": t.visible_models,
                       "allocatable": self.allocatable},
            "notes": list(self.notes),
        }


def _packets(profile: AttackProfile, target: Target, st: Steps) -> tuple[Dist, Dist]:
    """The attacks made and the packets of damage that get through."""
    # Attacks: each model rolls its own Attacks (and Blast / Rapid Fire bonuses)
    attacks = _power(_dice_sum(attack_dice(profile.weapon, target, profile.conditions)), profile.models)

    # packets: the sum over a random number of attacks of each attack's packets
    per_attack = _Vec.of(packets_per_attack(profile, st))
    packets_mix = _Mixture()
    power = _Vec([1], 1)
    for a in range(max(attacks) + 1):
        if a:
            power = power.convolve(per_attack)
        packets_mix.add(attacks.get(a, ZERO), power)
    return attacks, packets_mix.dist()


def expected_models_destroyed(profile: AttackProfile, target: Target) -> Fraction:
    """``distribution(profile, target).expected_models_destroyed``, exactly (the same
    Fraction), without the distributions nobody asks for: the bot wants only this number."""
    st = steps(profile, target)
    _, packets = _packets(profile, target, st)
    allocatable = target.models if profile.weapon.melee else target.visible_models
    lost = _Vec.of(packet_wounds(st.damage, st.fnp_ignores))
    mixed = _capped_chain(packets, lost, target.wounds, allocatable, None)
    # the mean of models destroyed (wounds lost // W) over the mixture's common denominator
    w = target.wounds
    return Fraction(sum((x // w) * n for x, n in enumerate(mixed.nums)), mixed.den)


def distribution(profile: AttackProfile, target: Target) -> Distribution:
    """The exact odds of ``profile`` attacking ``target``."""
    st = steps(profile, target)
    w = profile.weapon
    attacks, packets = _packets(profile, target, st)

    # Allocating Attacks (Rules Adaptations): ranged attacks only to visible models
    allocatable = target.models if w.melee else target.visible_models
    lost = _Vec.of(packet_wounds(st.damage, st.fnp_ignores))
    damage, wounds_lost = _chains(packets, lost, target.wounds, allocatable)
    destroyed: Dist = {}
    for x, p in wounds_lost.items():
        destroyed[x // target.wounds] = destroyed.get(x // target.wounds, ZERO) + p

    hazardous = {0: ONE}
    if w.abilities.hazardous:  # Hazardous: one test per weapon, failed on a 1
        hazardous = binomial(profile.models, Fraction(sum(map(hazardous_fails, FACES)), 6))
    return Distribution(profile, target, st, attacks, packets, damage, wounds_lost, destroyed,
                        hazardous, allocatable, tuple(notes(profile, target)))


def _chains(packets: Dist, lost: _Vec, wounds: int, models: int) -> tuple[Dist, Dist]:
    """Apply k packets for every k: the uncapped total (a convolution power) and the capped
    wounds lost (damage to one model at a time, excess lost), mixed by the chance of k."""
    total_mix = _Mixture()
    state_mix = _capped_chain(packets, lost, wounds, models, total_mix)
    return total_mix.dist(), state_mix.dist()


def _capped_chain(packets: Dist, lost: _Vec, wounds: int, models: int,
                  total_mix: _Mixture | None) -> _Mixture:
    """The capped wounds lost of :func:`_chains` as a mixture; the uncapped totals are added
    to ``total_mix`` when one is given."""
    cap = wounds * models
    total = _Vec([1], 1)
    state = _Vec([1] + [0] * cap, 1)
    state_mix = _Mixture()
    # where each (wounds lost so far, wounds lost by one packet) leads
    moves = [[min(x + n, x - x % wounds + wounds) if x < cap else x for n in range(len(lost.nums))]
             for x in range(cap + 1)]
    terms = [(n, c) for n, c in enumerate(lost.nums) if c]
    for k in range(max(packets) + 1):
        if k:
            if total_mix is not None:
                total = total.convolve(lost)
            nxt = [0] * (cap + 1)
            for x, s in enumerate(state.nums):
                if s:
                    row = moves[x]
                    for n, c in terms:
                        nxt[row[n]] += s * c
            state = _Vec(nxt, state.den * lost.den)
        p = packets.get(k, ZERO)
        if total_mix is not None:
            total_mix.add(p, total)
        state_mix.add(p, state)
    return state_mix
