"""ASSAULT: 2D6 keep the best plus COMBAT, supporters and bonuses, against the defender's roll."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bagm.blackreach.counters import Kind
from bagm.blackreach.hits import (
    DESTROYED,
    SM_PENALTY,
    Victim,
    fate_effect,
    hit_fates,
    resolve_hit,
)
from bagm.blackreach.odds import BlackReachError, Chances, Odds, add, need
from bagm.chance.dice import Dice
from bagm.chance.dist import Dist, die, highest, outcomes_of, shift

REAR_BONUS = 2  # RESOLVING THE ASSAULT: entering a heavy vehicle's square from the rear
SUPPORT_BONUS = 1  # each supporting ally

ATTACKER, TIE, DEFENDER = "attacker wins", "tie", "defender wins"


@dataclass(frozen=True)
class Side:
    """One unit in an assault. ``combat`` is its COMBAT against the other (None: X);
    ``assault`` its *assault* ability bonus (None: no such ability, so a defender rolls 1 die)."""

    combat: int | None
    victim: Victim = field(default_factory=Victim)
    assault: int | None = None
    bonus: int = 0  # action cards, WARPATH +1; a defender's terrain defence bonus
    penalty: int = 0  # a BARRICADE crossed by the attacker, ENFEEBLE -2...
    sm: int = 0
    tearing: bool = False  # TEARING: piercing in an assault (location +1, no armour save)
    terrifying: bool = False  # TERRIFYING: 1 SM on an opponent it does not destroy
    fragile: bool = False  # FRAGILE: deserts if it loses, or if it has a SM when engaged

    def __post_init__(self) -> None:
        need(self.sm >= 0, "a unit cannot have fewer than 0 SMs")

    @property
    def kind(self) -> Kind:
        return self.victim.kind


@dataclass(frozen=True)
class Assault:
    attacker: Side
    defender: Side
    supporters: int = 0  # allies giving the +1 support bonus (assault ability, unactivated, no SM)
    rear: bool = False
    outside_arc: bool = False  # LIMITED FIRING ARC defender assaulted from outside it: 1 SM
    long_distance: bool = False  # LONG DISTANCE ASSAULT: the winner does not enter the square
    defender_assault_bonus: bool = False  # reading: see notes
    # FLYING: the attacker began the assault in an occupied (or normally impassable) square
    flying_lost: bool = False

    def __post_init__(self) -> None:
        need(self.supporters >= 0, "supporters is 0 or more")
        if self.attacker.combat is None:
            raise BlackReachError("a unit with a COMBAT of X cannot assault a target of that kind")
        if self.rear and self.defender.kind is not Kind.heavy:
            raise BlackReachError("the rear bonus is for entering a heavy vehicle's square")
        if self.attacker.assault is None:
            raise BlackReachError("only units with the assault ability can assault: give the "
                                  "attacker's assault bonus (0 if the symbol shows none)")

    @property
    def defender_sm(self) -> int:
        return self.defender.sm + (1 if self.outside_arc else 0)

    def attacker_modifier(self) -> int:
        a = self.attacker
        assert a.combat is not None and a.assault is not None
        return (a.combat + a.assault + SUPPORT_BONUS * self.supporters + a.bonus
                + (REAR_BONUS if self.rear else 0) - a.penalty - SM_PENALTY * a.sm)

    def defender_modifier(self) -> int:
        d = self.defender
        assert d.combat is not None
        extra = d.assault if (self.defender_assault_bonus and d.assault is not None) else 0
        return d.combat + extra + d.bonus - d.penalty - SM_PENALTY * self.defender_sm

    def attacker_total(self) -> Dist:
        return shift(highest(die(6), 2), self.attacker_modifier())

    def defender_total(self) -> Dist:
        return shift(highest(die(6), 2 if self.defender.assault is not None else 1),
                     self.defender_modifier())


def _judge(a: int, d: int) -> str:
    return ATTACKER if a > d else DEFENDER if d > a else TIE  # the highest result wins


def _positions(x: Assault, result: str) -> str:
    """Where the units end up (IF THE ATTACKER IS VICTORIOUS / DEFENDER / ON A TIE)."""
    ak, dk = x.attacker.kind, x.defender.kind
    if result == ATTACKER:
        if dk is Kind.infantry:
            move = ("" if x.long_distance else "; the attacker takes its square")
            return ("the defender falls back 1 square away from the attacker (forced move; "
                    "destroyed if it cannot)" + move)
        if ak is Kind.heavy:
            return ("the defending vehicle never retreats; the heavy attacker occupies its square "
                    "and deals 1 DP to its wreck if it can enter it, else returns")
        return ("the defending vehicle never retreats; the attacker returns to the square it "
                "launched from (forced move)")
    if result == DEFENDER:
        if ak is Kind.infantry:
            return "the attacker returns to the square it launched from (forced move)"
        if dk is Kind.infantry:
            return ("the attacking vehicle, wrecked or not, takes the defender's square; the "
                    "defender is pushed back to an adjacent square (forced move)")
        return "the attacking vehicle returns to the square it launched from"
    if ak.vehicle and dk is Kind.infantry:
        return ("no hits; the attacking vehicle takes the defender's square and the defender is "
                "pushed to an adjacent unoccupied square (forced move)")
    return "no hits; the defender stays, the attacker stays on the square it launched from"


FLYING_EFFECT = ("FLYING: it began the assault in an occupied or normally impassable square, so "
                 "losing destroys it")


def _loser_fates(x: Assault, res: str, loser: Side, winner: Side) -> Chances:
    # FLYING: "If the flying unit loses, it is destroyed if it did not begin its assault in an
    # unoccupied square or if it started the assault in a normally impassable square."
    if res == DEFENDER and x.flying_lost:
        return {DESTROYED: Fraction(1)}
    if loser.fragile:
        return {"deserts": Fraction(1)}  # FRAGILE: the unit deserts if it loses an assault
    return hit_fates(loser.victim, piercing=winner.tearing)


def _terrified(fate: str, winner: Side, loser: Side) -> str:
    """TERRIFYING: a unit that does not destroy its opponent in the assault puts 1 SM on it."""
    notes = []
    if winner.terrifying and fate not in (DESTROYED, "deserts"):
        notes.append("TERRIFYING: the loser also receives 1 SM")
    if loser.terrifying:
        notes.append("TERRIFYING: the winner receives 1 SM")
    return "; ".join(notes)


def assault_odds(x: Assault) -> Odds:
    """The exact odds of an assault: who wins, and what happens to each unit."""
    a, d = x.attacker, x.defender
    notes = [f"attacker: best of 2 dice {x.attacker_modifier():+d}"]
    effects: dict[str, str] = {}
    out: Chances = {}
    tables: dict[str, Mapping[Any, Fraction]] = {}
    for side, sm, who in ((a, a.sm, "attacker"), (d, x.defender_sm, "defender")):
        if side.fragile and sm > 0:  # FRAGILE: a SM when engaged: it deserts before the roll
            out[f"{who} deserts"] = Fraction(1)
            effects[f"{who} deserts"] = "FRAGILE: it has a SM when engaged, destroyed before the roll"
            return Odds("assault", "ASSAULT; FRAGILE", out, effects, {}, notes, _inputs(x))
    if d.combat is None:
        if d.kind is not Kind.heavy:
            out["defender destroyed"] = Fraction(1)
            effects["defender destroyed"] = "a defender with a COMBAT of X is destroyed at once"
            return Odds("assault", "RESOLVING THE ASSAULT", out, effects, {}, notes, _inputs(x))
        result = {ATTACKER: Fraction(1)}  # a heavy vehicle with X loses and suffers 1 hit
        notes.append("the heavy vehicle has a COMBAT of X: it loses automatically")
    else:
        notes.append(f"defender: {'best of 2 dice' if d.assault is not None else '1 die'} "
                     f"{x.defender_modifier():+d}")
        result = outcomes_of([x.attacker_total(), x.defender_total()], _judge)
        tables["attacker total"] = dict(sorted(x.attacker_total().items()))
        tables["defender total"] = dict(sorted(x.defender_total().items()))
    tables["result"] = {k: result.get(k, Fraction(0)) for k in (ATTACKER, TIE, DEFENDER)}
    attacker_fate: Chances = {}
    defender_fate: Chances = {}
    for res in (ATTACKER, TIE, DEFENDER):
        p = result.get(res, Fraction(0))
        if not p:
            continue
        if res == TIE:
            add(out, TIE, p)
            effects[TIE] = _positions(x, TIE) + "".join(
                f"; TERRIFYING: the {o} receives 1 SM" for s, o in ((a, "defender"), (d, "attacker"))
                if s.terrifying)
            add(attacker_fate, "unhurt", p)
            add(defender_fate, "unhurt", p)
            continue
        winner, loser = (a, d) if res == ATTACKER else (d, a)
        who = "defender" if res == ATTACKER else "attacker"
        for fate, q in _loser_fates(x, res, loser, winner).items():
            key = f"{res}: {who} {fate}"
            add(out, key, p * q)
            text = ("FRAGILE: deserts (destroyed)" if fate == "deserts"
                    else FLYING_EFFECT if res == DEFENDER and x.flying_lost
                    else fate_effect(fate, loser.victim))
            extra = _terrified(fate, winner, loser)
            effects[key] = "; ".join(t for t in (text, extra,
                                                 _positions(x, res) if fate != DESTROYED else "")
                                     if t)
            add(defender_fate if res == ATTACKER else attacker_fate, fate, p * q)
        add(attacker_fate if res == ATTACKER else defender_fate, "unhurt", p)
    tables["attacker fate"] = attacker_fate
    tables["defender fate"] = defender_fate
    if a.terrifying or d.terrifying:
        notes.append("TERRIFYING: a unit in the assault that does not destroy its opponent puts "
                     "1 SM on it (a tie included)")
    if d.assault is not None:
        notes.append("reading: the defender's assault ability gives it the second die; its bonus "
                     + ("is added too (--defender-adds-assault-bonus)" if x.defender_assault_bonus
                        else "is not added: the text names the bonus for the attacker only "
                        "(--defender-adds-assault-bonus for the other reading)"))
    if x.outside_arc:
        notes.append("LIMITED FIRING ARC: assaulted from outside its arc, the defender has 1 more SM")
    if x.flying_lost:
        notes.append("FLYING: the attacker began the assault in an occupied or normally "
                     "impassable square: it is destroyed if it loses (a tie is not a loss)")
    notes.append("no double hits in an assault: the text gives them for firing actions only")
    return Odds("assault", "ASSAULT; RESOLVING THE ASSAULT", out, effects, tables, notes,
                _inputs(x))


def _inputs(x: Assault) -> dict[str, object]:
    return {"attacker": x.attacker.kind.value, "defender": x.defender.kind.value,
            "attacker_combat": x.attacker.combat, "defender_combat": x.defender.combat,
            "supporters": x.supporters, "defender_sm": x.defender_sm,
            **({"flying_lost": True} if x.flying_lost else {})}


def resolve_assault(dice: Dice, x: Assault) -> str:
    """Play one assault; the answer is one of :func:`assault_odds`'s outcome names."""
    a, d = x.attacker, x.defender
    if a.fragile and a.sm > 0:
        return "attacker deserts"
    if d.fragile and x.defender_sm > 0:
        return "defender deserts"
    if d.combat is None:
        if d.kind is not Kind.heavy:
            return "defender destroyed"
        res = ATTACKER
    else:
        att = max(dice.d6("assault: attacker"), dice.d6("assault: attacker")) + x.attacker_modifier()
        n = 2 if d.assault is not None else 1
        dfd = max(dice.d6("assault: defender") for _ in range(n)) + x.defender_modifier()
        res = _judge(att, dfd)
    if res == TIE:
        return TIE
    winner, loser = (a, d) if res == ATTACKER else (d, a)
    who = "defender" if res == ATTACKER else "attacker"
    if res == DEFENDER and x.flying_lost:  # FLYING: destroyed, whatever the hit would do
        return f"{res}: {who} {DESTROYED}"
    fate = "deserts" if loser.fragile else resolve_hit(dice, loser.victim, piercing=winner.tearing)
    return f"{res}: {who} {fate}"
