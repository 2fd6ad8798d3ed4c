"""Exact odds of an attack in Skirmish Battles: shots or close-combat attacks against one model.

Each attack follows the Shooting Phase sequence (to hit, to wound, saving throw, Damage Table);
a model keeps only its worst Damage result, rolls once per unsaved wound, and a model with more
than one wound first loses wounds and rolls only on its last wound point (against a Monstrous
attacker it rolls for every wound). Everything is in
fractions (:mod:`bagm.chance.dist`); :func:`sample` plays the same rules with dice, so a test can
hold the two together.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import Any

from bagm.chance.dice import Dice, DiceExpr
from bagm.chance.dist import ZERO, Dist, binomial, die, outcomes, thin, with_one_retry
from bagm.skirmish.tables import (
    NEVER,
    Damage,
    RulesError,
    damage_bonus,
    damage_result,
    damage_row,
    to_hit_close_combat,
    to_hit_shooting,
    to_wound,
)


def _rows() -> dict[int, list[str | int]]:
    """The Wound & Damage Table as the text prints it (skirmish.yaml: damage)."""
    from bagm.skirmish.data import bundled_raw

    return {int(k): v for k, v in bundled_raw()["damage"]["rows"].items()}


class Reroll(str, Enum):
    none = "none"
    failed = "failed"  # every failed roll once (Twin-Linked, Ammo Runt, Lightning Claws...)
    one = "one"  # one failed roll (Spiky Bits)


@dataclass(frozen=True)
class Attack:
    """What attacks: how many dice, the skill, the Strength and the weapon's rules."""

    attacks: int
    strength: int
    close_combat: bool = False
    bs: int | None = None
    ws: int | None = None
    hit_on: int | None = None  # a fixed roll to hit (Markerlight 2+, Traitors 3+, Bitter Enmity 3+)
    hit_bonus: int = 0  # Targeter: +1 to the roll to hit
    auto_hit: bool = False  # a Stunned model in close combat; Template weapons
    ap: int | None = None
    reroll_hits: Reroll = Reroll.none
    reroll_wounds: Reroll = Reroll.none
    gauss: bool = False  # Gauss: a 6 to wound always wounds
    no_armour: bool = False  # Power Weapon, Power Fist, Lightning Claws: no armour save
    choppa: bool = False  # armour saves better than 4+ are made at 4+
    damage_bonus: int = 0  # Strike to Injure +1, Plague Weapon +2
    sniper: bool = False  # Sniper Rifle on Overwatch
    pins_on_hit: bool = False  # Blast
    pins_on_wound: bool = False  # Pulse Carbine
    stuns_on_hit: bool = False  # Thunder Hammer
    no_cover: bool = False  # Template, Marksman, Soul Seeker Ammunition, Doom Siren
    partial: bool = False  # partly under a Blast or Template: hit on a further 4+
    # Close Combat Phase: a Monstrous attacker ignores armour saves (Armour Saving Throws) and
    # a model it wounds rolls on the Damage Table for every unsaved wound, Killed counting as
    # Out of Action until its last wound (Models With Multiple Wounds). The text never says
    # which models are Monstrous: the user says so (reading; see MONSTROUS_READING).
    monstrous: bool = False


@dataclass(frozen=True)
class Target:
    """The model attacked."""

    toughness: int
    save: int | None = None
    invulnerable: int | None = None
    cover: bool = False  # the line of sight passes through difficult terrain
    cover_save: int = 4  # Cover Saving Throws: 4+ (Rangers' cloaks 3+)
    wounds: int = 1
    ws: int | None = None
    shooter_above: bool = False  # Height Advantage: the shooter 6" or more above: saves -1
    above_shooter: bool = False  # the target 6" or more above: cover +1
    dodge: bool = False  # Dodge: an extra unmodified 6+ save, in close combat only


@dataclass
class Odds:
    attack: Attack
    target: Target
    hit_needed: int | None  # None: hits automatically
    hit: Fraction  # chance one attack hits (after re-rolls of every failed roll)
    wound_needed: int
    wound: Fraction  # chance one hit wounds
    save: int | None  # the save taken (None: none)
    save_kind: str
    unsaved: Fraction  # chance one wound is not saved
    hits: Dist
    unsaved_wounds: Dist
    result: dict[Damage, Fraction]
    wounds_left: Dist
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        def frac(p: Fraction) -> str:
            return f"{p.numerator}/{p.denominator}"

        return {
            "hit_needed": self.hit_needed, "hit": frac(self.hit),
            "wound_needed": self.wound_needed or None, "wound": frac(self.wound),
            "save": self.save, "save_kind": self.save_kind, "unsaved": frac(self.unsaved),
            "hits": {str(k): frac(v) for k, v in sorted(self.hits.items())},
            "unsaved_wounds": {str(k): frac(v) for k, v in sorted(self.unsaved_wounds.items())},
            "result": {d.label: frac(self.result.get(d, ZERO)) for d in Damage},
            "wounds_left": {str(k): frac(v) for k, v in sorted(self.wounds_left.items())},
            "notes": self.notes,
        }


MONSTROUS_READING = (
    "reading: Monstrous is the user's statement (the text never says which models are "
    "Monstrous); in close combat it ignores armour saves (invulnerable saves still taken), and "
    "a model with several wounds rolls on the Damage Table for every unsaved wound, a Killed "
    "result counting as Out of Action until its last wound; the row is still Strength minus "
    "Toughness")


def _chance(needed: int | None) -> Fraction:
    if needed is None:
        return Fraction(1)
    if needed == NEVER or needed > 6:
        return ZERO
    return Fraction(7 - needed, 6)


def hit_needed(a: Attack, t: Target) -> int | None:
    """The roll one attack needs to hit, or None when it hits automatically."""
    if a.auto_hit:
        return None
    if a.sniper:
        return 2  # Sniper Rifles & Overwatch: hit on 2+
    if a.hit_on is not None:
        need = a.hit_on
    elif a.close_combat:
        if a.ws is None or t.ws is None:
            raise RulesError("close combat needs the attacker's WS and the target's WS")
        need = to_hit_close_combat(a.ws, t.ws)
    else:
        if a.bs is None:
            raise RulesError("shooting needs the attacker's BS")
        if a.bs == 0:
            raise RulesError("a model with BS 0 cannot shoot")
        need = to_hit_shooting(a.bs)
    return max(2, need - a.hit_bonus)  # a roll of 1 always misses


def wound_needed(a: Attack, t: Target, strength: int | None = None) -> int:
    if a.sniper:
        return 4  # Sniper Rifles & Overwatch: wound on 4+
    return to_wound(min(a.strength if strength is None else strength, 10), t.toughness)


def saving_throw(a: Attack, t: Target) -> tuple[int | None, str]:
    """The best save the target may take against this attack, and which one it is."""
    options: list[tuple[int, str]] = []
    worse = 1 if t.shooter_above and not a.close_combat else 0
    no_armour = a.no_armour or a.monstrous  # Monstrous Creatures ignore armour saves
    if t.save is not None and not no_armour and not (a.ap is not None and a.ap <= t.save):
        sv = max(t.save, 4) if a.choppa else t.save  # Choppa: better than 4+ made at 4+
        options.append((sv + worse, "armour"))
    if t.invulnerable is not None:  # taken regardless of AP
        options.append((t.invulnerable + worse, "invulnerable"))
    if t.cover and not a.close_combat and not a.no_cover:  # AP never negates cover
        options.append((t.cover_save + worse - (1 if t.above_shooter else 0), "cover"))
    options = [(max(2, v), k) for v, k in options if v <= 6]
    if not options:
        return None, "none"
    return min(options)


def _worst_of(*rolls: tuple[dict[Damage, Fraction], int]) -> dict[Damage, Fraction]:
    """The worst of independent Damage results: ``m`` rolls of each distribution given (no
    roll at all: unharmed). P(worst <= d) is the product of every roll's P(<= d)."""
    if all(m == 0 for _, m in rolls):
        return {Damage.UNHARMED: Fraction(1)}
    out: dict[Damage, Fraction] = {}
    below = ZERO
    upto = [ZERO] * len(rolls)
    for d in Damage:
        at_most = Fraction(1)
        for i, (single, m) in enumerate(rolls):
            upto[i] += single.get(d, ZERO)
            at_most *= upto[i] ** m
        if at_most - below:
            out[d] = at_most - below
        below = at_most
    return out


def _not_killed(single: dict[Damage, Fraction]) -> dict[Damage, Fraction]:
    """A Damage roll before the last wound against a Monstrous attacker: Killed is OOA."""
    out = dict(single)
    killed = out.pop(Damage.KILLED, ZERO)
    if killed:
        out[Damage.OUT_OF_ACTION] = out.get(Damage.OUT_OF_ACTION, ZERO) + killed
    return out


def single_damage(a: Attack, t: Target, strength: int | None = None) -> dict[Damage, Fraction]:
    """One roll on the Damage Table for this attack (at ``strength`` when it varies)."""
    s = a.strength if strength is None else strength
    row = _rows()[damage_row(s, t.toughness, full_strength=a.sniper)]
    bonus = a.damage_bonus + (0 if a.sniper else damage_bonus(s, t.toughness))
    return outcomes(die(6), lambda x: damage_result(row, x + bonus))


def _wound_chance(a: Attack, t: Target, s: int) -> Fraction:
    p = _chance(wound_needed(a, t, s))
    if a.gauss and p == 0:
        p = Fraction(1, 6)  # Gauss Weapons: a 6 always wounds
    if a.reroll_wounds is Reroll.failed:
        p = p + (1 - p) * p
    return p


def _add(into: dict, key: object, p: Fraction) -> None:  # type: ignore[type-arg]
    into[key] = into.get(key, ZERO) + p


def odds(a: Attack, t: Target, strength: Dist | None = None, attacks: Dist | None = None) -> Odds:
    """The exact distribution of what ``a`` does to the model ``t``. ``strength`` and
    ``attacks`` are distributions when they are rolled (a Krak grenade's D6+6, RAD's D3 hits);
    each attack rolls its own Strength."""
    strengths = strength or {a.strength: Fraction(1)}
    counts = attacks or {a.attacks: Fraction(1)}
    if min(counts) < 0 or max(counts) > 50:
        raise RulesError("attacks: from 0 to 50")
    if not 1 <= t.wounds <= 10:
        raise RulesError("wounds: from 1 to 10")
    if min(strengths) < 1 or max(strengths) > 20:
        raise RulesError("strength: from 1 to 20")
    if len(strengths) > 1 and a.reroll_wounds is Reroll.one:
        raise RulesError("one re-rolled wound with a rolled Strength is not modelled")
    if a.monstrous and not a.close_combat:
        raise RulesError("the text gives Monstrous attackers rules in close combat only "
                         "(Armour Saving Throws, Models With Multiple Wounds): add --cc")
    notes: list[str] = [MONSTROUS_READING] if a.monstrous else []
    if max(strengths) > 10:
        notes.append("reading: the To Wound table stops at Strength 10; a stronger attack "
                     "wounds as Strength 10 and keeps its full Strength on the Damage Table")
    hn = hit_needed(a, t)
    p_hit = _chance(hn)
    if a.reroll_hits is Reroll.failed and hn is not None:
        p_hit = p_hit + (1 - p_hit) * p_hit
    # each unsaved wound's Damage roll, at the Strength that wounded (Bayes over the Strengths)
    p_wound = sum((w * _wound_chance(a, t, s) for s, w in strengths.items()), ZERO)
    single: dict[Damage, Fraction] = {}
    for s, w in strengths.items():
        ws = w * _wound_chance(a, t, s) / p_wound if p_wound else w
        for d, q in single_damage(a, t, s).items():
            _add(single, d, ws * q)
    early_single = _not_killed(single)  # Monstrous: the rolls before the last wound
    sv, kind = saving_throw(a, t)
    p_fail = 1 - _chance(sv) if sv is not None else Fraction(1)
    if t.dodge and a.close_combat:
        p_fail *= Fraction(5, 6)  # Dodge: a further 6+ after the save fails
        notes.append("Dodge: a wound not saved is still stopped on an unmodified 6")
    result: dict[Damage, Fraction] = {}
    hits_all: Dist = {}
    unsaved: Dist = {}
    left: Dist = {}
    for n, pn in counts.items():
        if hn is None:
            hits: Dist = {n: Fraction(1)}
        elif a.reroll_hits is Reroll.one:
            hits = with_one_retry(n, _chance(hn))
        else:
            hits = binomial(n, p_hit)
        if a.partial:  # partly under the template: hit on a 4+
            hits = thin(hits, Fraction(1, 2))
        for h, ph in hits.items():
            _add(hits_all, h, pn * ph)
            wounds = (with_one_retry(h, p_wound) if a.reroll_wounds is Reroll.one
                      else binomial(h, p_wound))
            for u, pu in thin(wounds, p_fail).items():
                p = pn * ph * pu
                _add(unsaved, u, p)
                lost = min(u, t.wounds - 1)  # Models With Multiple Wounds: down to the last
                _add(left, t.wounds - lost, p)
                floor = Damage.UNHARMED
                if a.sniper or (a.pins_on_hit and h > 0) or (a.pins_on_wound and u > 0):
                    floor = Damage.PINNED
                if a.stuns_on_hit and h > 0:
                    floor = Damage.STUNNED
                early = (early_single, lost) if a.monstrous else (single, 0)
                for d, q in _worst_of(early, (single, u - lost)).items():
                    _add(result, max(d, floor), p * q)
    if a.partial:
        notes.append("partly under the template: each hit needs a further 4+")
    if a.close_combat and not a.sniper and any(s > 2 * t.toughness for s in strengths):
        notes.append("reading: +1 on the Damage Table for Strength over twice the Toughness "
                     "applies in close combat too (the rule is stated with the Shooting Phase)")
    if t.wounds > 1 and not a.monstrous:
        notes.append("reading: a model with several wounds rolls on the Damage Table for each "
                     "unsaved wound once it is down to its last wound point")
    wn = wound_needed(a, t) if len(strengths) == 1 else 0
    return Odds(a, t, hn, p_hit, wn, p_wound, sv, kind, p_fail, hits_all, unsaved, result,
                left, notes)


def sample(a: Attack, t: Target, dice: Dice, trials: int, strength: DiceExpr | None = None,
           attacks: DiceExpr | None = None) -> dict[Damage, int]:
    """Play the attack ``trials`` times with ``dice``: how often each result came up."""
    hn = hit_needed(a, t)
    sv, _ = saving_throw(a, t)

    def passes(need: int | None, roll: int) -> bool:
        return need is None or (need != NEVER and need <= 6 and roll >= need)

    def wounds(roll: int, s: int) -> bool:
        return passes(wound_needed(a, t, s), roll) or (a.gauss and roll == 6)

    counts = {d: 0 for d in Damage}
    for _ in range(trials):
        hit_any, unsaved, retry_hit, retry_wound = False, 0, True, True
        strengths: list[int] = []
        n = a.attacks if attacks is None else dice.roll_expr(attacks, "attacks")
        for _ in range(n):
            if hn is None:
                hit = True
            else:
                roll = dice.d6("to hit")
                hit = passes(hn, roll)
                if not hit and (a.reroll_hits is Reroll.failed
                                or (a.reroll_hits is Reroll.one and retry_hit)):
                    retry_hit = False
                    hit = passes(hn, dice.d6("to hit re-roll"))
            if hit and a.partial:
                hit = dice.d6("partly under the template") >= 4
            if not hit:
                continue
            hit_any = True
            s = a.strength if strength is None else dice.roll_expr(strength, "strength")
            w = wounds(dice.d6("to wound"), s)
            if not w and (a.reroll_wounds is Reroll.failed
                          or (a.reroll_wounds is Reroll.one and retry_wound)):
                retry_wound = False
                w = wounds(dice.d6("to wound re-roll"), s)
            if w and (sv is None or dice.d6("save") < sv) and not (
                    t.dodge and a.close_combat and dice.d6("Dodge") == 6):
                unsaved += 1
                strengths.append(s)
        lost = min(unsaved, t.wounds - 1)
        worst = Damage.UNHARMED
        for i, s in enumerate(strengths):  # the wounds once the model is down to its last
            if i < lost and not a.monstrous:  # (every wound against a Monstrous attacker)
                continue
            row = _rows()[damage_row(s, t.toughness, full_strength=a.sniper)]
            bonus = a.damage_bonus + (0 if a.sniper else damage_bonus(s, t.toughness))
            d = damage_result(row, dice.d6("damage") + bonus)
            if i < lost and d is Damage.KILLED:
                d = Damage.OUT_OF_ACTION  # not its last wound: Killed counts as OOA
            worst = max(worst, d)
        if a.sniper or (a.pins_on_hit and hit_any) or (a.pins_on_wound and unsaved > 0):
            worst = max(worst, Damage.PINNED)
        if a.stuns_on_hit and hit_any:
            worst = max(worst, Damage.STUNNED)
        counts[worst] += 1
    return counts


def volley(a: Attack, t: Target, hits: Dist, strength: Dist | None = None) -> Odds:
    """One roll to hit (a thrown grenade) that, when it hits, lands ``hits`` automatic hits
    (a RAD grenade: D3 hits). A miss scatters and does nothing."""
    thrown = odds(replace(a, attacks=1, partial=False), t, strength)
    landed = odds(replace(a, auto_hit=True, pins_on_hit=a.pins_on_hit), t, strength, hits)
    p = thrown.hit * (Fraction(1, 2) if a.partial else 1)
    result = {d: p * q for d, q in landed.result.items()}
    result[Damage.UNHARMED] = result.get(Damage.UNHARMED, ZERO) + 1 - p
    scale = {k: p * q for k, q in landed.hits.items()}
    scale[0] = scale.get(0, ZERO) + 1 - p
    unsaved = {k: p * q for k, q in landed.unsaved_wounds.items()}
    unsaved[0] = unsaved.get(0, ZERO) + 1 - p
    left = {k: p * q for k, q in landed.wounds_left.items()}
    left[t.wounds] = left.get(t.wounds, ZERO) + 1 - p
    return Odds(a, t, thrown.hit_needed, thrown.hit, landed.wound_needed, landed.wound,
                landed.save, landed.save_kind, landed.unsaved, scale, unsaved, result, left,
                ["one roll to hit; a hit lands several hits", *landed.notes])


def find_weapon(name: str, table: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A special weapon from the data by name (case and punctuation aside)."""
    def norm(x: str) -> str:
        return "".join(c for c in x.lower() if c.isalnum())
    for key, w in table.items():
        if norm(key) == norm(name):
            return {"name": key, **w}
    raise RulesError(f"no special weapon '{name}'; known: " + ", ".join(table))
