"""Hit-and-Run attacks: assault boats, boarding torpedoes and teleport attacks.

Resolving a Hit-and-Run Attack: roll a D6; a score of 1 fails, 2 or more is looked up on the
Critical Hits table (capital ships). Escorts have no critical table: the attack destroys them on
4+. A fleet's +1 bonus makes the roll 2 to 7; a target fleet's -1 makes it 0 to 5. Attacks that
roll 2D6 (Dark Eldar Impalers) add them, and against Tyranids roll 2D6 twice and keep the lower.

Readings (also in the output's notes):

- The fleet modifiers change the score itself ("roll a 2 to 7"), so the capital-ship score looked
  up is the modified one, and the escort threshold of 4+ applies to the modified score (the text's
  3+ with the bonus and 5+ with the -1 on the die are the same thing).
- "A score of a 1 the attack has failed": with a -1 a natural 1 scores 0, which fails as well.
- Twice-take-the-lowest is stated for 2D6 attacks against Tyranids only; a D6 attack against
  Tyranids is rolled as normal.
- Teleport attacks: the text first says capital ships on Lock On or Reload Ordnance may make them,
  then "all other special orders preclude" them, and forbids them to escorts and defences with one
  damage point left. bagm reads that as: a ship on no special orders, Lock On or Reload Ordnance
  may teleport; escorts and defences may too while they have two or more damage points (else that
  last sentence would say nothing).
- "More hits at that point in the battle than it has itself" is read as damage points remaining.
- An escort "can Brace For Impact! to counter the effects of the attack", but the text gives no
  number for it: a braced escort's save is the user's (``brace``: saved on a D6 of that or more),
  applied to each attack that would destroy it; unbraced, nothing is saved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bagm.bfg.jsonable import chance, distribution
from bagm.bfg.ships import BfgError, Ship
from bagm.chance.dice import Dice
from bagm.chance.dist import ZERO, Dist, binomial, die, lowest, power

MEANS = ("assault-boats", "boarding-torpedoes", "teleport")
DICE = ("d6", "2d6")
MAX_ATTACKS = 100
ESCORT_DESTROYED_ON = 4  # Resolving a Hit-and-Run Attack: escorts destroyed on 4+
TELEPORT_RANGE_CM = 10  # Teleport Attacks: within 10 cm
TELEPORT_ORDERS = ("none", "lock-on", "reload-ordnance")


@dataclass(frozen=True)
class Attack:
    """How a Hit-and-Run attack is rolled."""

    dice: str = "d6"  # "d6", or "2d6" added (Dark Eldar Impalers)
    bonus: bool = False  # the attacking fleet's +1 to its Hit-and-Run attacks
    minus: bool = False  # the target fleet's -1 to enemy Hit-and-Run attacks
    tyranids: bool = False  # the target is Tyranid: 2D6 attacks roll twice, keep the lowest

    @property
    def modifier(self) -> int:
        return int(self.bonus) - int(self.minus)

    def natural(self) -> Dist:
        """The roll before modifiers."""
        if self.dice == "d6":
            return die(6)
        two = power(die(6), 2)
        # Resolving a Hit-and-Run Attack: 2D6 twice, take the lowest, against Tyranids
        return lowest(two, 2) if self.tyranids else two

    def score(self) -> Dist:
        """The modified score (Hit-and-Run Attacks: +1 fleets roll a 2 to 7)."""
        return {x + self.modifier: p for x, p in sorted(self.natural().items())}

    def describe(self) -> str:
        text = "2D6 added" if self.dice == "2d6" else "D6"
        if self.dice == "2d6" and self.tyranids:
            text += ", rolled twice taking the lowest (Tyranids)"
        if self.modifier:
            text += f", {self.modifier:+d}"
        return text


def fails(score: int) -> bool:
    """Resolving a Hit-and-Run Attack: a score of 1 (or less, after a -1) fails."""
    return score <= 1


def escort_destroyed(score: int) -> bool:
    """Escorts are destroyed on a modified score of 4+ (not 2+)."""
    return score >= ESCORT_DESTROYED_ON


@dataclass(frozen=True)
class HitAndRunOdds:
    """The exact odds of ``attacks`` Hit-and-Run attacks against one ship."""

    target_kind: str  # "capital" or "escort"
    attack: Attack
    attacks: int
    score: Dist  # one attack's modified score
    success: Fraction  # one attack succeeds (a critical hit; an escort destroyed)
    successes: Dist  # how many of the attacks succeed
    at_least_one: Fraction  # an escort: destroyed
    critical_scores: Dist  # capital ship: one attack's Critical Hits score (failures left out)
    expected_by_score: dict[int, Fraction]  # capital ship: expected attacks scoring each score
    notes: tuple[str, ...] = field(default=())
    brace: int | None = None  # a braced escort saves an attack on a D6 of this or more
    unsaved: Fraction | None = None  # braced: one attack's chance before the save

    def as_dict(self, names: dict[int, str] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "target": self.target_kind, "attacks": self.attacks, "roll": self.attack.describe(),
            "modifier": self.attack.modifier,
            "score_distribution": distribution(self.score),
            "each_attack_succeeds": chance(self.success),
            "successes": distribution(self.successes),
            "at_least_one_succeeds": chance(self.at_least_one),
        }
        if self.target_kind == "escort":
            out["escort_destroyed"] = chance(self.at_least_one)
            if self.brace is not None and self.unsaved is not None:
                out["brace_for_impact"] = {"saves_on": self.brace,
                                           "each_attack_before_the_save": chance(self.unsaved)}
        else:
            out["critical_hits_score"] = [
                {"score": k, **chance(p), "expected_attacks": float(self.expected_by_score[k]),
                 "effect": (names or {}).get(k)} for k, p in sorted(self.critical_scores.items())]
        out["notes"] = list(self.notes)
        return out


def brace_saves(brace: int) -> Fraction:
    """A braced escort's chance to save an attack: a D6 of ``brace`` or more (the user's number)."""
    return Fraction(max(0, 7 - max(brace, 1)), 6) if brace <= 6 else ZERO


def hit_and_run(target_kind: str, attack: Attack = Attack(), attacks: int = 1,
                brace: int | None = None) -> HitAndRunOdds:
    """The exact odds of ``attacks`` independent Hit-and-Run attacks on a ship of
    ``target_kind`` (capital, or escort; ``brace``: a braced escort's save, D6 of that or more)."""
    if target_kind not in ("capital", "escort"):
        raise BfgError(f"target {target_kind!r}: the text resolves Hit-and-Run attacks against "
                       "a capital ship (Critical Hits table) or an escort (destroyed on 4+); "
                       "give the one your rules treat the target as")
    if attack.dice not in DICE:
        raise BfgError(f"dice {attack.dice!r}: use d6 or 2d6")
    if not 1 <= attacks <= MAX_ATTACKS:
        raise BfgError(f"{attacks} attacks: give from 1 to {MAX_ATTACKS}")
    if brace is not None and target_kind != "escort":
        raise BfgError("--brace is an escort's Brace For Impact! against a Hit-and-Run attack "
                       "(the text names it for escorts only)")
    if brace is not None and not 2 <= brace <= 7:
        raise BfgError(f"--brace {brace}: the D6 score a braced escort needs, from 2 to 7")
    score = attack.score()
    notes: list[str] = []
    unsaved = None
    if target_kind == "escort":
        success = sum((p for x, p in score.items() if escort_destroyed(x)), ZERO)
        crit: Dist = {}
        notes.append("An escort has no critical table: a successful attack destroys it "
                     f"(modified score {ESCORT_DESTROYED_ON}+).")
        if brace is None:
            notes.append("Brace For Impact!: the text lets an escort brace against the attack but "
                         "gives no number, so bracing is not counted; give --brace N (its save "
                         "on a D6, from your rulebook) if it is braced.")
        else:
            # "an escort which has suffered critical damage is automatically destroyed, though
            # they can Brace For Impact! to counter the effects of the attack"
            unsaved = success
            success = success * (1 - brace_saves(brace))
            notes.append(f"Brace For Impact!: the escort saves each attack that would destroy it "
                         f"on a D6 of {brace}+ (your number: the text gives none).")
    else:
        crit = {x: p for x, p in score.items() if not fails(x)}
        success = sum(crit.values(), ZERO)
        notes.append("The score is looked up on the Critical Hits table, which the text does not "
                     "give; name its effects with --table FILE.")
    if attack.tyranids and attack.dice == "d6":
        notes.append("The text gives Tyranids a rule only against 2D6 attacks (roll twice, take "
                     "the lowest); this D6 attack is rolled as normal.")
    if attack.bonus:
        notes.append("+1 fleet: the die scores 2 to 7, so it never fails against a capital ship "
                     "(needs 3+ on the die against an escort).")
    if attack.minus:
        notes.append("-1 fleet: a 1 on the die scores 0 and fails (needs 5+ on the die against "
                     "an escort).")
    successes = binomial(attacks, success)
    expected = {k: attacks * p for k, p in crit.items()}
    return HitAndRunOdds(target_kind, attack, attacks, score, success, successes,
                         1 - (1 - success) ** attacks, crit, expected, tuple(notes), brace,
                         unsaved)


@dataclass(frozen=True)
class HitAndRunRoll:
    natural: int
    score: int
    success: bool
    braced: bool | None = None  # a braced escort's save: made (True) or not; None: no roll


def roll_hit_and_run(dice: Dice, target_kind: str, attack: Attack = Attack(),
                     brace: int | None = None) -> HitAndRunRoll:
    """Play one Hit-and-Run attack with dice (``brace``: a braced escort's save)."""
    if attack.dice == "d6":
        natural = dice.d6("hit-and-run")
    else:
        natural = dice.d6("hit-and-run") + dice.d6("hit-and-run")
        if attack.tyranids:  # 2D6 twice, take the lowest, against Tyranids
            natural = min(natural, dice.d6("hit-and-run again") + dice.d6("hit-and-run again"))
    score = natural + attack.modifier
    ok = escort_destroyed(score) if target_kind == "escort" else not fails(score)
    if ok and target_kind == "escort" and brace is not None:
        saved = dice.d6("brace for impact") >= brace
        return HitAndRunRoll(natural, score, not saved, saved)
    return HitAndRunRoll(natural, score, ok)


# --- Teleport Attacks ----------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One eligibility condition of a teleport attack: met or not, and the rule behind it."""

    rule: str
    met: bool
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "met": self.met, "reason": self.reason}


def teleport_checks(attacker: Ship, target: Ship, range_cm: float,
                    already_teleported: bool = False) -> list[Check]:
    """Every condition the text sets on a teleport attack, each with why it is or is not met
    (Teleport Attacks)."""
    if target.shields is None:
        raise BfgError(f"{target.name}: how many shields are still up? add shields=N to the target "
                       "(shields=0 when they are knocked down)")
    if range_cm < 0:
        raise BfgError(f"--range {range_cm}: a distance in cm, 0 or more")
    out = [
        # Teleport Attacks: only against an enemy whose shields have been knocked down
        Check("target has no shields", target.shields == 0,
              "the target's shields are down" if target.shields == 0 else
              f"{target.name} still has {target.shields} shield(s) up; active shields interfere "
              "with teleport beams"),
        # Teleport Attacks: within 10 cm
        Check("within 10 cm", range_cm <= TELEPORT_RANGE_CM,
              f"{_cm(range_cm)} cm away" + ("" if range_cm <= TELEPORT_RANGE_CM else
                                            f", beyond {TELEPORT_RANGE_CM} cm")),
        # Teleport Attacks: Lock On or Reload Ordnance; all other special orders preclude
        Check("special orders", attacker.orders in TELEPORT_ORDERS, _orders_reason(attacker)),
        # Teleport Attacks: crippled ships may not make teleport attacks
        Check("not crippled", not attacker.is_crippled(),
              f"{attacker.name} is crippled" if attacker.is_crippled() else "not crippled"),
        # Teleport Attacks: escorts and defences with only one damage point left cannot
        Check("damage points left", attacker.damage >= (2 if attacker.kind != "capital" else 1),
              _damage_reason(attacker)),
        # Teleport Attacks: not against a target with more hits left than the attacker
        Check("target not bigger", target.damage <= attacker.damage,
              f"{target.name} has {target.damage} damage point(s) left, {attacker.name} has "
              f"{attacker.damage}" + (": the target has more" if target.damage > attacker.damage
                                      else "")),
        # Teleport Attacks: one teleport attack per ship each turn
        Check("one per turn", not already_teleported,
              f"{attacker.name} has already made a teleport attack this turn"
              if already_teleported else "first teleport attack this turn"),
    ]
    return out


def _orders_reason(s: Ship) -> str:
    if s.orders == "none":
        return "on no special orders"
    if s.orders in TELEPORT_ORDERS:
        return f"on {s.orders} special orders"
    return (f"on {s.orders} special orders, which preclude teleport attacks (only Lock On or "
            "Reload Ordnance allow them)")


def _damage_reason(s: Ship) -> str:
    if s.damage < 1:
        return f"{s.name} is a drifting hulk"
    if s.kind != "capital" and s.damage < 2:
        return f"an {s.kind} with only one damage point left cannot make teleport attacks"
    return f"{s.damage} damage point(s) left"


def _cm(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


TELEPORT_NOTES = (
    ("Teleport Attacks reads two ways on special orders: bagm allows a ship on no special orders, "
     "Lock On or Reload Ordnance ('all other special orders preclude' them)."),
    ("Escorts and defences may teleport while they have two or more damage points left (the "
     "text forbids it only with one)."),
    "'More hits than it has itself' is read as damage points remaining.",
    "Necron Portals are not teleport attacks in the normal manner.",
)


@dataclass(frozen=True)
class TeleportOdds:
    attacker: Ship
    target: Ship
    checks: tuple[Check, ...]
    odds: HitAndRunOdds | None  # None when not eligible

    @property
    def eligible(self) -> bool:
        return all(c.met for c in self.checks)

    def as_dict(self, names: dict[int, str] | None = None) -> dict[str, Any]:
        return {"attacker": self.attacker.name, "target": self.target.name,
                "eligible": self.eligible, "checks": [c.as_dict() for c in self.checks],
                "odds": self.odds.as_dict(names) if self.odds else None}


def teleport(attacker: Ship, target: Ship, range_cm: float, attack: Attack = Attack(),
             already_teleported: bool = False, brace: int | None = None) -> TeleportOdds:
    """A teleport attack's eligibility and, when it may be made, its one Hit-and-Run attack."""
    checks = tuple(teleport_checks(attacker, target, range_cm, already_teleported))
    kind = "escort" if target.escort else "capital"
    odds = hit_and_run(kind, attack, 1, brace) if all(c.met for c in checks) else None
    return TeleportOdds(attacker, target, checks, odds)

