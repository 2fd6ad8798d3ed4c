"""The grapple after a drawn boarding action, as an exact absorbing Markov chain (a Markov
decision chain when several ships boarded together).

Drawn Combats: grappled ships fight again in each subsequent End Phase until one side is at 0
damage points. A state is every boarding ship's damage points remaining and the boarded ship's;
every End Phase is one boarding action from that state (boarding values, race modifiers and, with
``crippled-at``, crippled states as they are then). A draw keeps the state; any other result takes
damage points from the loser, so every other move leads to a state with fewer points in all. The
chain is therefore solved exactly, state by state from the smallest: for a state ``s`` with draw
chance ``p``, ``x(s) = (c(s) + sum q * x(s')) / (1 - p)`` over the moves to other states (the
geometric series of repeated draws, summed in closed form). No sampling, no iteration cut-off.

A party that boarded together (Multi-Ship Boarding Actions) grapples as one side: "any damage
points inflicted are distributed amongst the attacking ships by the attacker himself", so each
lost roll is a choice, made by a policy (:data:`POLICIES`). The default, ``best``, is the choice a
player makes to win: it maximises the party's chance of reducing the boarded ship to 0, then the
damage points the party keeps. Because every choice leads to a state with fewer points, already
solved, choosing the best next state at each lost roll is exactly optimal (backward induction).

Ships that boarded separately (one roll per capital ship or escort squadron) and drew are each
grappled with the boarded ship: every End Phase each grappled party fights its own boarding action,
in the order given, the boarded ship's damage cumulative. The End Phase is then a cycle of
sub-steps (which party acts next) and a state's figures solve a small cyclic system in closed form.

Readings (each also in the notes): a critical hit on a capital ship is counted (its expected
number) but changes nothing in the chain, because what it does is on the Critical Hits table the
text does not give; a critical hit on an escort destroys it (Escorts Ships Boarding). A party's
damage is shared out before the critical hits are rolled (the text's order). A boarding ship at 0
damage points is a drifting hulk and drops out; the grapple goes on while the boarded ship and at
least one boarding ship have damage points left ("until one of the ships is reduced to zero"
read, for a party, as one *side*: the boarded ship is still held by the others). Blast Markers,
special orders and turrets stay as given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from itertools import product
from math import prod
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

Points = tuple[int, ...]  # each boarding ship's damage points left, in the order given
State = tuple[Points, int]  # (the boarding ships' points, the boarded ship's)

# Multi-Ship Boarding Actions: "distributed amongst the attacking ships by the attacker himself"
POLICIES = {
    "best": ("each lost damage point goes where it gives the boarding party the best chance to "
             "win the grapple, then the most damage points kept (exact backward induction); on "
             "a tie the ships given first keep the most"),
    "spread": ("each lost damage point goes to the boarding ship with the most damage points "
               "left (the one given first on a tie): the ships stay in the fight longest"),
    "order": ("lost damage points go to the boarding ships in the order given: the first takes "
              "them until it is at 0, then the next"),
}
DEFAULT_POLICY = "best"
NOTES = (
    HEADER_NOTE,
    ("Grapple: each End Phase is a boarding action from the damage points left; a critical hit "
     "on a capital ship is counted but changes nothing in the chain (its effect is on the "
     "Critical Hits table the text does not give); an escort's destroys it."),
)
PARTY_NOTE = ("Grapple of a party: the boarding ships fight as one side (their values added, "
              "modifiers once); a boarding ship at 0 damage points is a drifting hulk and drops "
              "out, and the grapple goes on until the boarded ship or every boarding ship is at "
              "0. The party's lost damage points are shared out before the critical hits are "
              "rolled (the text's order).")
PHASES_SHOWN = 12
MAX_STATES = 3500  # states of the chain (points left of every ship): ~5 s of exact fractions
MAX_WORK = 12_000  # states x 2 ** boarding escorts (each escort's critical hit splits a move)
MAX_ROLLED_PHASES = 100_000


def policy_note(policy: str) -> str:
    return (f"Sharing out the party's lost damage points (the attacking player's choice): policy "
            f"'{policy}': {POLICIES[policy]}. Others: "
            + ", ".join(p for p in POLICIES if p != policy) + " (--policy).")


def check_policy(policy: str) -> None:
    if policy not in POLICIES:
        raise BfgError(f"unknown policy '{policy}': one of {', '.join(POLICIES)}")


def chain_size(party: Sequence[Ship], defender: Ship, groups: int = 1) -> int:
    """How many states the chain has (each ship's points left, the boarded ship's above 0, and
    with parties boarding separately which of them acts next)."""
    return prod(s.damage + 1 for s in party) * defender.damage * groups


def too_big(party: Sequence[Ship], defender: Ship, groups: int = 1) -> str | None:
    """Why the chain is not computed, or None."""
    n = chain_size(party, defender, groups)
    escorts = sum(s.escort for s in party)
    if n <= MAX_STATES and n * 2**escorts <= MAX_WORK:
        return None
    return (f"the grapple chain is computed for up to {MAX_STATES} states (the damage points "
            f"every ship can have left: {n} here), and up to {MAX_WORK} states x 2 per boarding "
            f"escort ({n * 2**escorts}); its exact fractions would take minutes")


# --- sharing out the party's lost damage points -------------------------------------------


def allocations(points: Points, lost: int) -> list[Points]:
    """Every way of taking ``lost`` damage points from ships with ``points`` left (none below 0),
    the first ships keeping the most listed first."""
    out: list[Points] = []
    rest = [sum(points[i + 1:]) for i in range(len(points))]

    def take(i: int, left: int, acc: list[int]) -> None:
        if i == len(points):
            out.append(tuple(acc))
            return
        for t in range(max(0, left - rest[i]), min(points[i], left) + 1):
            acc.append(points[i] - t)
            take(i + 1, left - t, acc)
            acc.pop()

    take(0, lost, [])
    return out


def spread(points: Points, lost: int) -> Points:
    """Each point to the ship with the most points left (the first given on a tie)."""
    left = list(points)
    for _ in range(min(lost, sum(points))):
        i = max(range(len(left)), key=lambda j: (left[j], -j))
        left[i] -= 1
    return tuple(left)


def in_order(points: Points, lost: int) -> Points:
    """Points from the first ship given until it is at 0, then the next."""
    left = list(points)
    for i, x in enumerate(left):
        t = min(x, lost)
        left[i] -= t
        lost -= t
    return tuple(left)


_FIXED: dict[str, Callable[[Points, int], Points]] = {"spread": spread, "order": in_order}


# --- one End Phase ------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """What one boarding action's roll does (several differences merged when they do the same)."""

    p: Fraction
    diffs: tuple[int, ...]  # attacker's score - defender's
    lost: int  # damage points the party loses (to share out)
    defender_left: int
    crit_a: Fraction  # each boarding ship's chance of a critical hit
    crit_d: Fraction


def action_rolls(party: Sequence[Ship], defender: Ship, s: State
                 ) -> tuple[list[Roll], Fraction, Fraction]:
    """One boarding action of ``party`` from ``s`` (its ships' points, the boarded ship's): its
    rolls, and the expected critical hits on the boarding ships (all of them) and on the boarded
    ship (Boarding Action Results)."""
    points, d = s
    alive = [(ship, x) for ship, x in zip(party, points) if x > 0]
    ships, dmg = [a for a, _ in alive], [x for _, x in alive]
    sa = side_roll(ships, dmg, [defender], [d], boarded=False)
    sd = side_roll([defender], [d], ships, dmg, boarded=True)
    merged: dict[tuple[int, int, Fraction, Fraction], tuple[Fraction, tuple[int, ...]]] = {}
    crit_a = crit_d = ZERO
    for diff, p in sorted(difference(sa.total, sd.total).items()):
        r = settle(diff, sum(points), d)
        qa, qd = crit_chance(r.attacker_crit_on), crit_chance(r.defender_crit_on)
        crit_a += p * qa * len(ships)
        crit_d += p * qd
        key = (r.damage_to_attackers, d - r.damage_to_defender, qa, qd)
        w, diffs = merged.get(key, (ZERO, ()))
        merged[key] = (w + p, (*diffs, diff))
    rolls = [Roll(w, diffs, lost, left, qa, qd)
             for (lost, left, qa, qd), (w, diffs) in merged.items()]
    return rolls, crit_a, crit_d


def after_crits(party: Sequence[Ship], defender: Ship, was: Points, points: Points,
                d: int, qa: Fraction, qd: Fraction) -> dict[State, Fraction]:
    """The states after the critical hit rolls: an escort's destroys it (Escorts Ships Boarding);
    a capital ship's changes nothing here. ``was``: who was boarding when the dice were rolled."""
    out: dict[State, Fraction] = {((*points,), d): ONE}
    for i, ship in enumerate(party):
        if ship.escort and was[i] > 0 and points[i] > 0 and qa:
            out = _branch(out, qa, partial(_sunk, i))
    if defender.escort and d > 0 and qd:
        out = _branch(out, qd, lambda st: (st[0], 0))
    return out


def _sunk(i: int, st: State) -> State:
    """Ship ``i`` destroyed by its critical hit."""
    return (*st[0][:i], 0, *st[0][i + 1:]), st[1]


def _branch(states: dict[State, Fraction], q: Fraction,
            hit: Callable[[State], State]) -> dict[State, Fraction]:
    out: dict[State, Fraction] = {}
    for st, w in states.items():
        for nxt, r in ((hit(st), q), (st, 1 - q)):
            if r:
                out[nxt] = out.get(nxt, ZERO) + w * r
    return out


def _over(s: State) -> bool:
    return s[1] == 0 or sum(s[0]) == 0


# --- the chain ---------------------------------------------------------------------------

Groups = tuple[tuple[int, ...], ...]  # the parties, as indices into the boarding ships
Sub = tuple[State, int]  # a state and the party that acts next in the End Phase
_N = 5  # the figures solved per state: win, points kept, End Phases, crits on each side


@dataclass(frozen=True)
class GrappleOdds:
    """How a grapple ends, from the End Phase after the draw (over ``starts`` when several
    start states are possible: ships boarding separately, some of which drew)."""

    attackers: tuple[Ship, ...]
    defender: Ship
    policy: str
    ends: dict[State, Fraction]  # the final damage points left (one side at 0)
    attacker_survives: Fraction  # the boarded ship reduced to 0, a boarding ship left
    defender_survives: Fraction
    both_lost: Fraction  # only with escorts: the winner destroyed by its critical hit
    expected_phases: Fraction
    phases: Dist  # P(the grapple ends in End Phase t), t = 1..PHASES_SHOWN
    longer: Fraction  # P(it lasts more than PHASES_SHOWN End Phases)
    attacker_expected_crits: Fraction  # on all the boarding ships together
    defender_expected_crits: Fraction
    groups: Groups = ((0,),)
    starts: dict[State, Fraction] = field(default_factory=dict)
    moves: dict[Sub, dict[Sub, Fraction]] = field(default_factory=dict, repr=False,
                                                  compare=False)
    choices: dict[tuple[State, int, int], Points] = field(default_factory=dict, repr=False,
                                                          compare=False)

    @property
    def attacker(self) -> Ship:
        """The boarding ship (the first, for a party)."""
        return self.attackers[0]

    @property
    def separately(self) -> bool:
        return len(self.groups) > 1

    @property
    def name(self) -> str:
        return " + ".join(s.name for s in self.attackers)

    @property
    def attacker_left(self) -> Dist:
        """The boarding ships' damage points left in all when the boarded ship is at 0 and they
        are not (not normalised)."""
        out: Dist = {}
        for (a, d), p in self.ends.items():
            if d == 0 and sum(a) > 0:
                out[sum(a)] = out.get(sum(a), ZERO) + p
        return dict(sorted(out.items()))

    @property
    def defender_left(self) -> Dist:
        out: Dist = {}
        for (_, d), p in self.ends.items():
            if d > 0:
                out[d] = out.get(d, ZERO) + p
        return dict(sorted(out.items()))

    def ship_grappled(self) -> list[Fraction]:
        """Each boarding ship's chance of being in the grapple (1 unless boarding separately)."""
        return [sum((w for (a, _), w in self.starts.items() if a[i] > 0), ZERO)
                for i in range(len(self.attackers))]

    def ship_survives(self) -> list[Fraction]:
        """Each boarding ship's chance of ending the grapple with damage points left."""
        return [sum((p for (a, _), p in self.ends.items() if a[i] > 0), ZERO)
                for i in range(len(self.attackers))]

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "attacker": self.name, "defender": self.defender.name,
            "start": {"attacker_damage": sum(s.damage for s in self.attackers),
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
        if len(self.attackers) > 1:
            out["policy"] = self.policy
            out["attackers"] = [
                {"ship": s.name, "damage": s.damage, "survives": chance(p)}
                for s, p in zip(self.attackers, self.ship_survives())]
        if self.separately:
            out["parties"] = [[self.attackers[i].name for i in g] for g in self.groups]
            out["starts"] = [
                {"grappled": [s.name for s, x in zip(self.attackers, a) if x],
                 "defender_damage": d, **chance(w)} for (a, d), w in self.starts.items()]
            for entry, p in zip(out["attackers"], self.ship_grappled()):
                entry["grappled"] = chance(p)
        return out


def grapple(party: Ship | Sequence[Ship], defender: Ship,
            policy: str = DEFAULT_POLICY) -> GrappleOdds:
    """The exact distribution of how a grapple ends (Drawn Combats), for one boarding ship or a
    party that boarded together, the party's losses shared out by ``policy``."""
    ships = (party,) if isinstance(party, Ship) else tuple(party)
    check_boarding(list(ships), defender)
    start: State = (tuple(s.damage for s in ships), defender.damage)
    return _solve(ships, defender, (tuple(range(len(ships))),), {start: ONE}, policy)


def grapple_separately(parties: Sequence[Sequence[Ship]], defender: Ship,
                       starts: dict[tuple[int, tuple[int, ...]], Fraction],
                       policy: str = DEFAULT_POLICY) -> GrappleOdds:
    """The grapples after ships boarded ``defender`` separately: ``starts`` gives, for each
    (the boarded ship's damage points left, the parties that drew), its chance (they sum to 1).
    Every End Phase each grappled party fights its own boarding action, in order."""
    ships = tuple(s for p in parties for s in p)
    check_boarding(list(ships), defender)
    groups: list[tuple[int, ...]] = []
    for p in parties:
        n = sum(len(g) for g in groups)
        groups.append(tuple(range(n, n + len(p))))
    first: dict[State, Fraction] = {}
    for (left, drawn), w in starts.items():
        if not 0 < left <= defender.damage or not drawn:
            raise BfgError("a grapple starts with the boarded ship afloat and a party that drew")
        points = tuple(ships[i].damage if j in drawn else 0
                       for j, g in enumerate(groups) for i in g)
        first[(points, left)] = first.get((points, left), ZERO) + w
    return _solve(ships, defender, tuple(groups), first, policy)


def _flip(value: Callable[[State, int], tuple[Fraction, ...]]
          ) -> Callable[[int, State], tuple[Fraction, ...]]:
    return lambda k, st: value(st, k)


def _embed(points: Points, group: tuple[int, ...], part: Points) -> Points:
    out = list(points)
    for i, x in zip(group, part):
        out[i] = x
    return tuple(out)


def _terminal(s: State) -> tuple[Fraction, ...]:
    won = s[1] == 0 and sum(s[0]) > 0
    return (ONE if won else ZERO, Fraction(sum(s[0])), ZERO, ZERO, ZERO)


def _solve(ships: tuple[Ship, ...], defender: Ship, groups: Groups,
           starts: dict[State, Fraction], policy: str) -> GrappleOdds:
    check_policy(policy)
    why = too_big(ships, defender, len(groups))
    if why:
        raise BfgError(why)
    n = len(groups)
    top = (tuple(s.damage for s in ships), defender.damage)
    states = sorted(((a, d) for a in product(*(range(x + 1) for x in top[0]))
                     for d in range(top[1] + 1)), key=lambda st: sum(st[0]) + st[1])
    solved: dict[Sub, tuple[Fraction, ...]] = {}
    moves: dict[Sub, dict[Sub, Fraction]] = {}
    choices: dict[tuple[State, int, int], Points] = {}
    rolls_of: dict[tuple[int, Points, int], Rolls] = {}

    def value(s: State, i: int) -> tuple[Fraction, ...]:
        return _terminal(s) if _over(s) else solved[(s, i)]

    for s in states:
        if _over(s):
            continue
        stay: list[Fraction] = []
        gain: list[list[Fraction]] = []
        for i, g in enumerate(groups):
            nxt_i = (i + 1) % n
            out, ca, cd = _step(ships, defender, g, s, i, policy, choices, rolls_of,
                                partial(_flip(value), nxt_i))
            moves[(s, i)] = {(st, nxt_i): q for st, q in out.items()}
            stay.append(out.pop(s, ZERO))
            a = [ZERO, ZERO, ONE if i == 0 else ZERO, ca, cd]  # a phase starts at party 0
            for st, q in out.items():
                v = value(st, nxt_i)
                for m in range(_N):
                    a[m] += q * v[m]
            gain.append(a)
        # the End Phase's cycle of parties: x_i = a_i + stay_i * x_{i+1}, x_n = x_0
        reach = ONE
        x0 = [ZERO] * _N
        for i in range(n):
            for m in range(_N):
                x0[m] += reach * gain[i][m]
            reach *= stay[i]
        x0 = [x / (1 - reach) for x in x0]
        x = x0
        for i in reversed(range(n)):
            x = [gain[i][m] + stay[i] * x[m] for m in range(_N)]
            solved[(s, i)] = tuple(x)
    ends, first = _ends(starts, moves, n)
    att = sum((p for (a, d), p in ends.items() if d == 0 and sum(a) > 0), ZERO)
    dfd = sum((p for (a, d), p in ends.items() if d > 0), ZERO)
    both = sum((p for (a, d), p in ends.items() if d == 0 and sum(a) == 0), ZERO)
    phases, longer = _by_phase(starts, moves, n)
    mean = [sum((w * solved[(st, 0)][m] for st, w in starts.items()), ZERO)
            for m in range(_N)]
    return GrappleOdds(ships, defender, policy, ends, att, dfd, both, mean[2], phases, longer,
                       mean[3], mean[4], groups, dict(starts), moves, choices)


Rolls = tuple[list[Roll], Fraction, Fraction]


def _step(ships: tuple[Ship, ...], defender: Ship, group: tuple[int, ...], s: State, i: int,
          policy: str, choices: dict[tuple[State, int, int], Points],
          rolls_of: dict[tuple[int, Points, int], Rolls],
          value: Callable[[State], tuple[Fraction, ...]]
          ) -> tuple[dict[State, Fraction], Fraction, Fraction]:
    """Party ``i``'s boarding action from ``s`` (nothing when it is out): the next states and the
    expected critical hits on each side."""
    points, d = s
    part = tuple(points[j] for j in group)
    if sum(part) == 0:  # not grappled, or every ship of it a drifting hulk
        return {s: ONE}, ZERO, ZERO
    gships = [ships[j] for j in group]
    key = (i, part, d)  # a party's action depends only on its own points and the boarded ship's
    if key not in rolls_of:
        rolls_of[key] = action_rolls(gships, defender, (part, d))
    rolls, ca, cd = rolls_of[key]
    out: dict[State, Fraction] = {}
    for r in rolls:
        pick = _choose(gships, defender, part, r, policy,
                       lambda st: value((_embed(points, group, st[0]), st[1])))
        if r.lost:
            for diff in r.diffs:
                choices[(s, i, diff)] = pick
        for (npart, nd), q in after_crits(gships, defender, part, pick, r.defender_left,
                                          r.crit_a, r.crit_d).items():
            nxt = (_embed(points, group, npart), nd)
            out[nxt] = out.get(nxt, ZERO) + r.p * q
    return out, ca, cd


def _choose(ships: Sequence[Ship], defender: Ship, points: Points, r: Roll, policy: str,
            value: Callable[[State], tuple[Fraction, ...]]) -> Points:
    """The party's points after sharing out ``r.lost`` (no choice when nothing is lost)."""
    if not r.lost:
        return points
    if policy in _FIXED:
        return _FIXED[policy](points, r.lost)
    best: tuple[Fraction, Fraction] | None = None
    pick = points
    for cand in allocations(points, r.lost):
        win = kept = ZERO
        for nxt, q in after_crits(ships, defender, points, cand, r.defender_left, r.crit_a,
                                  r.crit_d).items():
            v = value(nxt)
            win += q * v[0]
            kept += q * v[1]
        if best is None or (win, kept) > best:  # strictly better: the first listed wins ties
            best, pick = (win, kept), cand
    return pick


def _ends(starts: dict[State, Fraction], moves: dict[Sub, dict[Sub, Fraction]], n: int
          ) -> tuple[dict[State, Fraction], dict[Sub, Fraction]]:
    """Where the chance from ``starts`` ends. States are taken from the most points down, so
    each has all its chance when it passes it on; within a state the parties' cycle of draws is
    summed in closed form (expected visits ``v_i = a_i + stay_(i-1) * v_(i-1)``)."""
    inflow: dict[Sub, Fraction] = {(s, 0): w for s, w in starts.items()}
    ends: dict[State, Fraction] = {}
    for s in sorted({s for s, _ in moves}, key=lambda st: -(sum(st[0]) + st[1])):
        a = [inflow.pop((s, i), ZERO) for i in range(n)]
        if not any(a):
            continue
        stay = [moves[(s, i)].get((s, (i + 1) % n), ZERO) for i in range(n)]
        # v_i = alpha_i + beta_i * v_0, then v_0 = a_0 + stay_(n-1) * v_(n-1)
        alpha, beta = [ZERO], [ONE]
        for i in range(1, n):
            alpha.append(a[i] + stay[i - 1] * alpha[-1])
            beta.append(stay[i - 1] * beta[-1])
        v0 = ((a[0] + stay[-1] * alpha[-1]) / (1 - stay[-1] * beta[-1]) if n > 1
              else a[0] / (1 - stay[0]))
        visits = [alpha[i] + beta[i] * v0 for i in range(n)]
        for i in range(n):
            for (st, k), q in moves[(s, i)].items():
                if st == s:
                    continue
                if _over(st):
                    ends[st] = ends.get(st, ZERO) + visits[i] * q
                else:
                    inflow[(st, k)] = inflow.get((st, k), ZERO) + visits[i] * q
    return dict(sorted(ends.items())), inflow


def _by_phase(starts: dict[State, Fraction], moves: dict[Sub, dict[Sub, Fraction]], n: int
              ) -> tuple[Dist, Fraction]:
    """The chance the grapple ends in each of the first End Phases, pushing the chain forward
    one party's action at a time."""
    phases: Dist = {}
    now: dict[Sub, Fraction] = {(s, 0): w for s, w in starts.items()}
    for phase in range(1, PHASES_SHOWN + 1):
        for _ in range(n):
            nxt_now: dict[Sub, Fraction] = {}
            for sub, w in now.items():
                for nsub, q in moves[sub].items():
                    if _over(nsub[0]):
                        phases[phase] = phases.get(phase, ZERO) + w * q
                    else:
                        nxt_now[nsub] = nxt_now.get(nsub, ZERO) + w * q
            now = nxt_now
    return phases, sum(now.values(), ZERO)


# --- playing it with dice ----------------------------------------------------------------


@dataclass(frozen=True)
class GrappleRoll:
    phases: int
    attackers_left: Points
    defender_left: int

    @property
    def attacker_left(self) -> int:
        return sum(self.attackers_left)


def roll_grapple(dice: Dice, party: Ship | Sequence[Ship], defender: Ship,
                 policy: str = DEFAULT_POLICY, plan: GrappleOdds | None = None,
                 start: State | None = None, groups: Groups | None = None) -> GrappleRoll:
    """Play a grapple with dice, End Phase after End Phase, each party in turn, until a side is
    at 0; a party's losses are shared out by ``policy`` (``best`` takes its choices from
    ``plan``, solved once if not given). ``start``: the points at the start (every ship's
    damage; 0 for a party not grappled)."""
    ships = (party,) if isinstance(party, Ship) else tuple(party)
    check_policy(policy)
    groups = groups or (tuple(range(len(ships))),)
    s: State = start or (tuple(x.damage for x in ships), defender.damage)
    if policy == "best" and plan is None and any(len(g) > 1 for g in groups):
        plan = _solve(ships, defender, groups, {s: ONE}, policy)
    for phase in range(1, MAX_ROLLED_PHASES + 1):
        for i, g in enumerate(groups):
            if not _over(s):
                s = _phase(dice, ships, defender, g, i, s, policy, plan)
        if _over(s):
            return GrappleRoll(phase, *s)
    raise BfgError(f"the grapple did not end in {MAX_ROLLED_PHASES} End Phases")


def _phase(dice: Dice, ships: Sequence[Ship], defender: Ship, group: tuple[int, ...], i: int,
           s: State, policy: str, plan: GrappleOdds | None) -> State:
    """One party's boarding action in the grapple, played."""
    points, d = s
    alive = [j for j in group if points[j] > 0]
    if not alive:
        return s
    r = roll_action(dice, [replace(ships[j], damage=points[j]) for j in alive], defender, d)
    part = tuple(points[j] for j in group)
    if r.damage_to_attackers:
        if len(group) == 1:
            part = (part[0] - r.damage_to_attackers,)
        elif policy in _FIXED:
            part = _FIXED[policy](part, r.damage_to_attackers)
        else:
            assert plan is not None
            part = plan.choices[(s, i, r.difference)]
    new = list(_embed(points, group, part))
    for j, hit in zip(alive, r.attacker_crits):
        if ships[j].escort and hit:  # an escort's critical hit destroys it
            new[j] = 0
    nd = d - r.damage_to_defender
    if defender.escort and r.defender_crit:
        nd = 0
    return tuple(new), nd
