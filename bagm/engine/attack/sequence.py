"""Playing an attack with dice: allocation, the order of the dice, and Command Re-roll offers.

Order of the dice in :func:`resolve` (tests that script the dice follow it): the Attacks of each
model (Attacks dice, then Rapid Fire dice), every Hit roll (each followed at once by its re-roll
and its Sustained Hits dice), every Wound roll (each followed by its re-roll; with a re-roll the
attacker chooses, Close-Quarters Killer, every Wound roll first, then the re-rolls chosen die by
die), then one attack at
a time its saving throw, Damage and Feel No Pain rolls, then the Devastating Wounds attacks'
Damage and Feel No Pain rolls, then the Hazardous tests.

:func:`resolve_steps` is the one implementation: a generator that also offers the Command
Re-roll Stratagem where the game allows it (:func:`resolve` runs it with no offers). A re-roll
taken adds its die where it is offered: after the pool of Attacks dice, after the pool of Hit
rolls (then that hit's Sustained Hits dice), after the pool of Wound rolls, just after a failed
saving throw, just after a random Damage roll, just after a failed Hazardous test.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field, replace
from typing import Any

from bagm.chance.dice import Dice, DiceExpr
from bagm.engine.attack.rules import (
    FACES,
    HAZARDOUS_MORTAL_WOUNDS,
    AttackProfile,
    Conditions,
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
    rerolls,
    saving_throw,
    wound_modifier,
    wound_reroll_policy,
    wound_roll,
    wound_threshold,
)


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
    fulls: list[int] | None = None
    """Each model's own starting Wounds, where its models have different profiles (a sergeant
    with more wounds, a character with servitors); None: every model has ``full``."""
    ap_better: list[int] | None = None
    """For each model, by how much the Armour Penetration of an attack allocated to it improves
    (a Mission Rule: Hull Breach's vented Compartment); None: for no model."""
    saves: list[tuple[int, int | None]] | None = None
    """Each model's own (Save, invulnerable save), where its models have different profiles
    ("the Save characteristic of the model the attack was allocated to", Core Rules, Saving
    Throw); None: every model has the target's."""
    rank: list[int] | None = None
    """The defender's order of allocation among models that have lost no wounds, lowest first
    (the unit's main profile before models with their own: ``Unit.ranks``); None: in order."""
    fnp_saved: int = 0
    """Feel No Pain rolls that succeeded (Regenerative Agony counts them)."""

    @classmethod
    def of(cls, target: Target) -> "TargetUnit":
        visible = None if target.visible is None else set(range(target.visible))
        return cls([target.wounds] * target.models, target.wounds, visible, target.fnp)

    @property
    def destroyed(self) -> int:
        return sum(1 for w in self.wounds if w <= 0)

    def allocate(self, ranged: bool = True) -> int | None:
        """The model an attack is allocated to: the defender allocates it (Core Rules, not in
        the excerpts), to a model that has lost wounds first; otherwise, for a ranged attack, to
        a model visible to the attacking unit (Rules Adaptations, Allocating Attacks), the one
        the defender loses most willingly (``order``). None: no model, so the attack sequence
        ends. (A model that had an attack allocated and saved this phase comes first again: the
        order does not change within an attack.)"""
        alive = [i for i, w in enumerate(self.wounds) if w > 0]
        for i in alive:
            if self.wounds[i] < (self.full if self.fulls is None else self.fulls[i]):
                return i
        if self.ap_better is not None or self.rank is not None:
            # the defender's choice: a model the AP is not improved against first, then the
            # unit's main profile before its models with their own (troopers before a Superior)
            alive = sorted(alive, key=self._preference)
        for i in alive:
            if not ranged or self.visible is None or i in self.visible:
                return i
        return None

    def _preference(self, i: int) -> tuple[int, int]:
        return (self.ap_better[i] if self.ap_better is not None else 0,
                self.rank[i] if self.rank is not None else 0)

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
                self.fnp_saved += 1
                continue
            self.wounds[index] -= 1
            lost += 1
        return lost

    def hazardous(self, failed: int, dice: Dice, equipped: list[bool] | None = None) -> int:
        """Hazardous: "resolve each failed test one at a time": select a model equipped with a
        Hazardous weapon (``equipped``, per model; None: every model) that has lost wounds,
        otherwise any such model (the models of an engine unit have the same keywords, so the
        CHARACTER order never separates them); that model suffers 3 mortal wounds, the rest
        lost if it is destroyed. Returns wounds lost."""
        lost = 0
        for _ in range(failed):
            alive = [i for i, w in enumerate(self.wounds) if w > 0 and (equipped is None or equipped[i])]
            if not alive:
                break
            if self.rank is not None:  # the player's choice: the main profile's models first
                alive.sort(key=self._preference)
            index = next((i for i in alive
                          if self.wounds[i] < (self.full if self.fulls is None else self.fulls[i])), alive[0])
            lost += self.lose_wounds(index, HAZARDOUS_MORTAL_WOUNDS, dice, "hazardous", mortal=True)
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

    __slots__ = ("what", "side", "roll", "damage", "wounds_left", "new", "by", "facts")

    def __init__(self, what: str, side: str, roll: int, damage: float, wounds_left: int = 0,
                 by: str | None = None, facts: dict[str, Any] | None = None) -> None:
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
        self.by = by
        """The rule offering a free re-roll the attacker chooses (Close-Quarters Killer); None:
        Command Re-roll."""
        self.facts = facts or {}
        """What the player weighs a free re-roll by: the die's outcome, the faces that would fail
        or be a Critical Wound, the faces the target saves on, Devastating Wounds."""


class MiracleOffer(RerollOffer):
    """Acts of Faith (Adepta Sororitas army rule): before a Hit roll, a Wound roll, a saving throw or a
    Damage roll, the unit whose roll it is may put a Miracle dice in place of one dice of it ("the dice
    that is being substituted is not rolled; instead the value of the selected Miracle dice is used as
    if it had been rolled": an unmodified roll). Sent before the roll; the game sets ``new`` to the
    Miracle dice's value and sends back True when the unit performs the Act of Faith. ``facts``:
    ``faces`` (what each face 1-6 would give: the outcome, saved or not, or the Damage), and for Hit
    and Wound rolls the faces that wound and that the target saves on."""

    __slots__ = ()


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
          avg: float, choice: tuple[str, dict[str, Any]] | None = None,
          first: int | None = None) -> Generator[RerollOffer, bool, bool]:
    """``n`` Hit or Wound rolls rolled as a pool, each that succeeds scored; then, if ``offer``,
    the attacker's Command Re-roll of one failed die that no ability re-rolled (its new result
    scored as if rolled then). True when the re-roll was taken. ``choice``: (the rule, facts):
    first each die that no ability re-rolled and that is not a Critical result is offered to
    that rule's free re-roll, die by die in the order rolled (Close-Quarters Killer). ``first``:
    a Miracle dice's value standing for the first die (Acts of Faith): not rolled, never re-rolled."""
    failed = None
    if first is not None and n:
        # Acts of Faith: the Miracle dice's value "cannot be changed or re-rolled" (reading: nor the roll it stands for)
        outcome = judge(first)
        if outcome is not Outcome.fail:
            score(outcome)
        n -= 1
    if choice is not None:
        rolls = [_roll_with_reroll(dice, policy, reason, judge) for _ in range(n)]
        by, facts = choice
        for i, (u, outcome, again) in enumerate(rolls):
            if again or outcome is Outcome.critical:
                continue  # a die is re-rolled once; a Critical result cannot be bettered
            o = RerollOffer(reason, "attacker", u, avg, by=by, facts={**facts, "outcome": outcome.name})
            if (yield o):
                o.new = dice.d6(f"{reason} re-roll")
                rolls[i] = (o.new, judge(o.new), True)
        for u, outcome, again in rolls:
            if outcome is Outcome.fail:
                if not again and failed is None:
                    failed = u
                continue
            score(outcome)
    else:
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


def _damage(dice: Dice, damage: DiceExpr, cond: Conditions, reason: str, again: bool = True,
            first: int | None = None) -> int:
    """One attack's Damage: rolled, a roll of 1 re-rolled where an effect says so ("re-roll a
    Damage roll of 1"), then its modifier added, never below 1 (an effect's "subtract 1 from
    the Damage characteristic"). ``first``: a Miracle dice's value standing for one of its dice
    (Acts of Faith; never re-rolled)."""
    if first is not None:
        return _with_modifier(miracle_damage(damage, first) + sum(
            dice.roll(damage.sides, reason) for _ in range(damage.count - 1)), cond)
    d = dice.roll_expr(damage, reason)
    if again and cond.reroll_damage_ones and not damage.is_constant and d - damage.bonus == 1 \
            and damage.count == 1:
        d = dice.roll_expr(damage, reason + " re-roll")
    return _with_modifier(d, cond)


def _with_modifier(d: int, cond: Conditions) -> int:
    return max(1, d + cond.damage_mod) if cond.damage_mod else d


def miracle_damage(damage: DiceExpr, v: int) -> int:
    """A Damage roll's total with a Miracle dice of value ``v`` for one of its dice, before the others
    are added (its bonus included). Reading: a D3 is a D6 halved, rounding up (Core Rules, the D3), so
    a Miracle dice (a D6's value) stands for a D3 as its half; a D6's face it is."""
    return (v if damage.sides == 6 else -(-v * damage.sides // 6)) + damage.bonus


def _damage_faces(damage: DiceExpr, cond: Conditions) -> list[float]:
    """What a Miracle dice of each value 1-6 makes an attack's Damage (the other dice at their mean)."""
    rest = (damage.count - 1) * (damage.sides + 1) / 2
    return [float(max(1, miracle_damage(damage, v) + rest + cond.damage_mod) if cond.damage_mod
                  else miracle_damage(damage, v) + rest) for v in FACES]


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
                  attacker: bool = False, defender: bool = False, hazardous: bool = True,
                  choosing: bool = False, faith: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())) -> Offers:
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
    (before it is inflicted), a Hazardous test just after it fails. ``hazardous``: take the
    weapon's Hazardous tests here (False: the caller takes them after all of the unit's
    attacks, with :func:`hazardous_tests`). ``choosing``: the attacker answers the free
    re-rolls a rule lets them choose (``conditions.wound_choice``: each Wound roll that is not a
    Critical Wound, offered die by die before any Command Re-roll; without, failed ones are
    re-rolled). ``faith``: the attacking and the target unit's Miracle dice pools, where that unit
    may perform an Act of Faith now (Acts of Faith: one per phase; empty: none): a
    :class:`MiracleOffer` is sent before each roll a Miracle dice of the pool could change, until
    one is taken."""
    w, cond, ab = profile.weapon, profile.conditions, profile.weapon.abilities
    faith_a, faith_d = faith
    unit = unit if unit is not None else TargetUnit.of(target)
    destroyed_before = unit.destroyed
    res = AttackResult()
    ranged = not w.melee
    damage = attack_damage(w, cond)
    avg = float(damage.mean()) if attacker or defender or faith_a or faith_d else 0.0

    # Attacks; Blast; Rapid Fire
    parts = attack_dice(w, target, cond)
    random_parts = [p for p in parts if not p.is_constant] if attacker else []
    lowest: int | None = None  # the lowest roll of a model's random Attacks (the one offered)
    for _ in range(profile.models):
        n = rnd = 0
        for part in parts:
            v = dice.roll_expr(part, "attacks")
            if cond.reroll_attacks and not part.is_constant and v < part.mean():
                v = dice.roll_expr(part, "attacks re-roll")  # an effect's re-roll, below the average
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
        return hit_roll(u, skill, hit_mod, overwatch, crit_hit, cond.overwatch_hit)

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
        first = None
        if faith_a and res.attacks:  # Acts of Faith: a Miracle dice for one Hit roll
            first = yield from _miracle("hit", faith_a, judge_hit, avg, w, target, cond)
            faith_a = () if first is not None else faith_a
        # Command Re-roll (Boarding Actions Stratagems): a Hit roll
        if (yield from _pool(dice, res.attacks, cond.reroll_hits, "hit", judge_hit, score_hit, attacker, avg,
                             first=first)):
            attacker = False
    res.log.append(f"{res.hits} hit(s) ({res.critical_hits} critical)")

    # Wound Roll; Anti; Twin-linked; Lance; Devastating Wounds
    needed = wound_threshold(w.strength, target.toughness)
    crit_on = min(critical_wound_on(w, target), cond.critical_wound)  # an effect's 5+
    choose = choosing and cond.wound_choice is not None
    policy = wound_reroll_policy(w, cond, choose)
    normal, devastating, crit_normal = auto_wounds, 0, 0
    wound_mod = wound_modifier(w, cond)  # the same for every hit (a pure function)

    def judge_wound(u: int) -> Outcome:
        return wound_roll(u, needed, wound_mod, crit_on)

    choice = None
    if choose and hits:  # Close-Quarters Killer: "you can re-roll the Wound roll" (any of them)
        faces = [judge_wound(f) for f in FACES]
        choice = (str(cond.wound_choice), {
            "fail_faces": faces.count(Outcome.fail), "critical_faces": faces.count(Outcome.critical),
            "save_faces": saving_throw(w, target, cond).chance()[0], "devastating": ab.devastating_wounds})

    def score_wound(outcome: Outcome) -> None:
        nonlocal normal, devastating, crit_normal
        if outcome is Outcome.critical:
            res.critical_wounds += 1
            if ab.devastating_wounds:
                devastating += 1
                return
            crit_normal += 1
        normal += 1

    first = None
    if faith_a and hits:  # Acts of Faith: a Miracle dice for one Wound roll
        first = yield from _miracle("wound", faith_a, judge_wound, avg, w, target, cond)
        faith_a = () if first is not None else faith_a
    # Command Re-roll (Boarding Actions Stratagems): a Wound roll
    if (yield from _pool(dice, hits, policy, "wound", judge_wound, score_wound, attacker, avg, choice, first)):
        attacker = False
    res.wounds = normal + devastating
    res.devastating = devastating
    res.log.append(f"{res.wounds} wound(s) ({res.critical_wounds} critical, "
                   f"{auto_wounds} from Lethal Hits)")

    # Saving Throw; Allocating Attacks; damage to one model, excess lost
    save = plain_save = saving_throw(w, target, cond)
    save_reason = plain_reason = f"save ({save})"  # the reason of each saving throw's die, written once
    # an effect: a Critical Wound's attack has a better AP (Conditions.crit_wound_ap); reading:
    # those attacks are allocated and saved first
    crit_ap = cond.crit_wound_ap if crit_normal else 0
    random_damage = not damage.is_constant
    own_saves = unit.saves
    kept: dict[tuple[int, int | None, int], SavingThrow] = {}  # per model profile and AP change
    for k in range(normal):
        index = unit.allocate(ranged)
        if index is None:
            break  # Allocating Attacks: no visible model, the attack sequence ends
        if unit.ap_better is not None or crit_ap or own_saves is not None:
            # its AP improved for an attack allocated to this model, or for a Critical Wound
            change = (unit.ap_better[index] if unit.ap_better is not None else 0) - (crit_ap if k < crit_normal else 0)
            if own_saves is not None:  # Saving Throw: the Save of the model the attack is allocated to
                sv, inv = own_saves[index]
                got = kept.get((sv, inv, change))
                if got is None:
                    got = kept[(sv, inv, change)] = saving_throw(
                        replace(w, ap=max(-6, min(0, w.ap - change))) if change else w,
                        replace(target, save=sv, invuln=inv), cond)
                save, save_reason = got, f"save ({got})"
            else:
                save = saving_throw(replace(w, ap=max(-6, min(0, w.ap - change))), target, cond) if change \
                    else plain_save
                save_reason = f"save ({save})" if change else plain_reason
        if save.kind != "none":
            mv = None
            if faith_d and any(save.succeeds(x) for x in faith_d):  # Acts of Faith: a Miracle dice for the save
                o = MiracleOffer("save", "defender", 0, avg, unit.wounds[index],
                                 facts={"faces": [save.succeeds(x) for x in FACES]})
                if (yield o):
                    mv, faith_d = o.new, ()
            u = dice.d6(save_reason) if mv is None else mv
            if not save.succeeds(u) and defender and mv is None:  # Command Re-roll: the defender's saving throw
                offer = RerollOffer("save", "defender", u, avg, unit.wounds[index])
                if (yield offer):
                    defender = False
                    u = offer.new = dice.d6(f"save ({save}) command re-roll")
            if save.succeeds(u):
                res.saves += 1
                continue
        res.unsaved += 1
        mv = None
        if faith_a and random_damage:  # Acts of Faith: a Miracle dice for the Damage roll
            mv = yield from _miracle_damage(damage, cond, avg, unit.wounds[index])
            faith_a = () if mv is not None else faith_a
        d = _damage(dice, damage, cond, "damage", first=mv)
        if random_damage and attacker and mv is None:  # Command Re-roll: a Damage roll, before it is inflicted
            offer = RerollOffer("damage", "attacker", d, avg, unit.wounds[index])
            if (yield offer):
                attacker = False
                d = offer.new = _damage(dice, damage, cond, "damage command re-roll", again=False)
        res.damage += d
        res.wounds_lost += unit.lose_wounds(index, d, dice, "damage")

    # Devastating Wounds: allocated after all other attacks; mortal wounds equal to the Damage;
    # a destroyed model loses the rest of that attack's mortal wounds (Mortal Wounds)
    for _ in range(devastating):
        index = unit.allocate(ranged)
        if index is None:
            break
        mv = None
        if faith_a and random_damage:  # Acts of Faith: a Miracle dice for the Damage roll
            mv = yield from _miracle_damage(damage, cond, avg, unit.wounds[index])
            faith_a = () if mv is not None else faith_a
        d = _damage(dice, damage, cond, "damage (devastating wounds)", first=mv)
        if random_damage and attacker and mv is None:
            offer = RerollOffer("damage", "attacker", d, avg, unit.wounds[index])
            if (yield offer):
                attacker = False
                d = offer.new = _damage(dice, damage, cond, "damage (devastating wounds) command re-roll",
                                        again=False)
        res.damage += d
        res.wounds_lost += unit.mortal_wounds(d, dice, spill=False, ranged=ranged,
                                              reason="devastating wounds")
    res.models_destroyed = unit.destroyed - destroyed_before
    res.log.append(f"{res.saves} saved, {res.unsaved} unsaved, {devastating} devastating; "
                   f"{res.wounds_lost} wound(s) lost, {res.models_destroyed} model(s) destroyed")

    # Hazardous: one test per Hazardous weapon used, after all attacks (the game takes them
    # after all of the unit's attacks instead: ``hazardous=False``, then :func:`hazardous_tests`)
    if ab.hazardous and hazardous:
        failed = yield from hazardous_tests(profile.models, dice, attacker, avg)
        res.hazardous_failed = len(failed)
        res.log.append(f"Hazardous: {res.hazardous_failed} failed test(s), "
                       f"{res.hazardous_mortal_wounds} mortal wound(s) to the attacking unit")
    return res


def _miracle(what: str, pool: tuple[int, ...], judge: Any, avg: float, w: Any, target: Target,
             cond: Conditions) -> Generator[RerollOffer, bool, int | None]:
    """Acts of Faith before a pool of Hit or Wound rolls: offered when a Miracle dice of the pool
    gives a better result than some face; the Miracle dice's value taken, or None."""
    faces = [judge(x) for x in FACES]
    if max(judge(x).value for x in pool) <= min(f.value for f in faces):
        return None  # no Miracle dice would change the roll
    facts: dict[str, Any] = {"faces": [f.name for f in faces],
                             "save_faces": saving_throw(w, target, cond).chance()[0]}
    if what == "hit":
        crit_wound = min(critical_wound_on(w, target), cond.critical_wound)
        needed = wound_threshold(w.strength, target.toughness)
        mod = wound_modifier(w, cond)
        facts["wound_faces"] = sum(wound_roll(x, needed, mod, crit_wound) is not Outcome.fail for x in FACES)
    o = MiracleOffer(what, "attacker", 0, avg, facts=facts)
    return o.new if (yield o) else None


def _miracle_damage(damage: DiceExpr, cond: Conditions, avg: float, wounds_left: int
                    ) -> Generator[RerollOffer, bool, int | None]:
    """Acts of Faith before a random Damage roll; the Miracle dice's value taken, or None."""
    o = MiracleOffer("damage", "attacker", 0, avg, wounds_left, facts={"faces": _damage_faces(damage, cond)})
    return o.new if (yield o) else None


def hazardous_tests(tests: int, dice: Dice, attacker: bool = False, avg: float = 0.0
                    ) -> Generator[RerollOffer, bool, list[int]]:
    """Hazardous: ``tests`` Hazardous tests (one D6 each, failed on a 1), the first failed one
    offered to the attacker's Command Re-roll ("just after ... a Hazardous test") when
    ``attacker``; returns the indices of the tests failed."""
    failed = []
    for i in range(tests):
        u = dice.d6("hazardous")
        if hazardous_fails(u) and attacker:  # Command Re-roll: a Hazardous test
            offer = RerollOffer("hazardous", "attacker", u, avg)
            if (yield offer):
                attacker = False
                u = offer.new = dice.d6("hazardous command re-roll")
        if hazardous_fails(u):
            failed.append(i)
    return failed
