"""The grapple after a drawn boarding action, as an exact absorbing Markov chain.

Drawn Combats: grappled ships fight again in each subsequent End Phase until one of them is at 0
damage points. A state is the two ships' damage points remaining; every End Phase is one
boarding action from that state (boarding values and, with ``crippled-at``, crippled states as
they are then). A draw keeps the state; any other result takes damage points from the loser, so
every other move leads to a state with fewer points in all. The chain is therefore solved exactly,
state by state from the smallest: for a transient state ``s`` with draw chance ``p``,
``end(s) = sum(q * end(s')) / (1 - p)`` over the moves to other states (the geometric series of
repeated draws, summed in closed form). No sampling, no iteration cut-off.

Readings: a critical hit on a capital ship is counted (its expected number) but changes nothing in
the chain, because what it does is on the Critical Hits table the text does not give; a critical
hit on an escort destroys it (Escorts Ships Boarding), which ends the grapple. Blast Markers,
special orders and turrets stay as given. One ship against one ship: for a party that boarded
together the attacker chooses which ship loses each damage point, a choice the chain cannot make.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from bagm.bfg.boarding import (
    HEADER_NOTE,
    check_boarding,
    crit_chance,
    difference,
    roll_action,
    settle,
    side_roll,
)
from bagm.bfg.jsonable import chance, distribution
from bagm.bfg.ships import BfgError, Ship
from bagm.chance.dice import Dice
from bagm.chance.dist import ONE, ZERO, Dist

State = tuple[int, int]  # (attacker's damage points left, defender's)
NOTES = (
    HEADER_NOTE,
    ("Grapple: each End Phase is a boarding action from the damage points left; a critical hit "
     "on a capital ship is counted but changes nothing in the chain (its effect is on the "
     "Critical Hits table the text does not give); an escort's destroys it."),
)
PHASES_SHOWN = 12
MAX_POINTS = 60  # damage points of both ships together: ~5 s of exact fractions at 60
MAX_ROLLED_PHASES = 100_000


@dataclass(frozen=True)
class GrappleOdds:
    """How a grapple between two ships ends, from the End Phase after the draw."""

    attacker: Ship
    defender: Ship
    ends: dict[State, Fraction]  # the final damage points left (one of them 0)
    attacker_survives: Fraction
    defender_survives: Fraction
    both_lost: Fraction  # only with escorts: the winner destroyed by its critical hit
    expected_phases: Fraction
    phases: Dist  # P(the grapple ends in End Phase t), t = 1..PHASES_SHOWN
    longer: Fraction  # P(it lasts more than PHASES_SHOWN End Phases)
    attacker_expected_crits: Fraction
    defender_expected_crits: Fraction

    @property
    def attacker_left(self) -> Dist:
        """The attacker's damage points left when it survives (not normalised)."""
        return {a: p for (a, d), p in sorted(self.ends.items()) if a > 0}

    @property
    def defender_left(self) -> Dist:
        return {d: p for (a, d), p in sorted(self.ends.items()) if d > 0}

    def as_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker.name, "defender": self.defender.name,
            "start": {"attacker_damage": self.attacker.damage,
                      "defender_damage": self.defender.damage},
            "attacker_survives": chance(self.attacker_survives),
            "defender_survives": chance(self.defender_survives),
            "both_lost": chance(self.both_lost),
            "attacker_damage_left_when_it_survives": distribution(self.attacker_left),
            "defender_damage_left_when_it_survives": distribution(self.defender_left),
            "expected_end_phases": float(self.expected_phases),
            "expected_end_phases_exact": str(self.expected_phases),
            "ends_in_end_phase": distribution(self.phases),
            "lasts_longer": {"than": PHASES_SHOWN, **chance(self.longer)},
            "attacker_expected_critical_hits": float(self.attacker_expected_crits),
            "defender_expected_critical_hits": float(self.defender_expected_crits),
        }


def one_end_phase(att: Ship, dfd: Ship, s: State
                  ) -> tuple[dict[State, Fraction], Fraction, Fraction]:
    """One End Phase from ``s``: the chance of each next state, and each ship's chance of a
    critical hit (Boarding Action Results; Escorts Ships Boarding)."""
    a, d = s
    sa = side_roll([att], [a], [dfd], [d], boarded=False)
    sd = side_roll([dfd], [d], [att], [a], boarded=True)
    out: dict[State, Fraction] = {}
    crit_a = crit_d = ZERO
    for diff, p in difference(sa.total, sd.total).items():
        r = settle(diff, a, d)
        na, nd = a - r.damage_to_attackers, d - r.damage_to_defender
        qa, qd = crit_chance(r.attacker_crit_on), crit_chance(r.defender_crit_on)
        crit_a += p * qa
        crit_d += p * qd
        # an escort's critical hit destroys it; a capital ship's changes nothing here
        for hit_a, wa in (((True, qa), (False, 1 - qa)) if att.escort else ((False, ONE),)):
            for hit_d, wd in (((True, qd), (False, 1 - qd)) if dfd.escort else ((False, ONE),)):
                w = p * wa * wd
                if w:
                    key = (0 if hit_a else na, 0 if hit_d else nd)
                    out[key] = out.get(key, ZERO) + w
    return out, crit_a, crit_d


def grapple(attacker: Ship, defender: Ship) -> GrappleOdds:
    """The exact distribution of how a grapple ends (Drawn Combats)."""
    check_boarding([attacker], defender)
    if attacker.damage + defender.damage > MAX_POINTS:
        raise BfgError(f"the grapple chain is computed for up to {MAX_POINTS} damage points in "
                       f"all ({attacker.damage} + {defender.damage} given): its exact fractions "
                       "would take minutes")
    start = (attacker.damage, defender.damage)
    ends: dict[State, dict[State, Fraction]] = {}
    phases_left: dict[State, Fraction] = {}
    crits: dict[State, tuple[Fraction, Fraction]] = {}
    moves: dict[State, dict[State, Fraction]] = {}
    # every state the chain can reach, solved from the fewest damage points up
    for total in range(2, sum(start) + 1):
        for a in range(max(1, total - start[1]), min(start[0], total - 1) + 1):
            s = (a, total - a)
            out, ca, cd = one_end_phase(attacker, defender, s)
            stay = out.pop(s, ZERO)
            moves[s] = out
            keep = 1 / (1 - stay)  # the repeated draws, summed: 1 + p + p^2 + ...
            end: dict[State, Fraction] = {}
            t = ONE
            ea, ed = ca, cd
            for nxt, q in out.items():
                if nxt[0] == 0 or nxt[1] == 0:
                    end[nxt] = end.get(nxt, ZERO) + q
                    continue
                for e, r in ends[nxt].items():
                    end[e] = end.get(e, ZERO) + q * r
                t += q * phases_left[nxt]
                xa, xd = crits[nxt]
                ea += q * xa
                ed += q * xd
            ends[s] = {e: r * keep for e, r in end.items()}
            phases_left[s] = t * keep
            crits[s] = (ea * keep, ed * keep)
    final = ends[start]
    att_win = sum((p for (a, d), p in final.items() if a > 0), ZERO)
    def_win = sum((p for (a, d), p in final.items() if d > 0), ZERO)
    both = sum((p for (a, d), p in final.items() if a == 0 and d == 0), ZERO)
    # the chance it ends in each End Phase, by pushing the chain forward
    phases: Dist = {}
    now: dict[State, Fraction] = {start: ONE}
    for phase in range(1, PHASES_SHOWN + 1):
        nxt_now: dict[State, Fraction] = {}
        for s, w in now.items():
            out = moves[s]
            stay = 1 - sum(out.values(), ZERO)
            if stay:
                nxt_now[s] = nxt_now.get(s, ZERO) + w * stay
            for n, q in out.items():
                if n[0] == 0 or n[1] == 0:
                    phases[phase] = phases.get(phase, ZERO) + w * q
                else:
                    nxt_now[n] = nxt_now.get(n, ZERO) + w * q
        now = nxt_now
    longer = sum(now.values(), ZERO)
    return GrappleOdds(attacker, defender, dict(sorted(final.items())), att_win, def_win, both,
                       phases_left[start], phases, longer, *crits[start])


@dataclass(frozen=True)
class GrappleRoll:
    phases: int
    attacker_left: int
    defender_left: int


def roll_grapple(dice: Dice, attacker: Ship, defender: Ship) -> GrappleRoll:
    """Play a grapple with dice, End Phase after End Phase, until a ship is at 0."""
    a, d = attacker.damage, defender.damage
    for phase in range(1, MAX_ROLLED_PHASES + 1):
        a, d = _phase(dice, attacker, defender, a, d)
        if a == 0 or d == 0:
            return GrappleRoll(phase, a, d)
    raise BfgError(f"the grapple did not end in {MAX_ROLLED_PHASES} End Phases")


def _phase(dice: Dice, attacker: Ship, defender: Ship, a: int, d: int) -> State:
    r = roll_action(dice, [replace(attacker, damage=a)], defender, d)
    na, nd = a - r.damage_to_attackers, d - r.damage_to_defender
    if attacker.escort and r.attacker_crits[0]:
        na = 0
    if defender.escort and r.defender_crit:
        nd = 0
    return na, nd
