"""Boarding actions between ships: boarding values, modifiers, the exact distribution of the
result, damage to the loser and each ship's chance of a critical hit.

Readings of the text (each also said in the output's notes):

- Results Table: its column header says "Winners/Losers Score Critical Hit on", but the worked
  example under it (the Plagueclaw wins Heavy Fighting against the Hyperion, 4+/5+) gives the
  *loser* the first figure (the Hyperion suffers a critical hit on 4+, the Plagueclaw on 5+).
  bagm follows the example: the first figure is the loser's, the second the winner's.
- A draw (Drawn Combats) has no row in the Results Table: nobody loses damage points and nobody
  rolls for a critical hit; the ships grapple (:mod:`bagm.bfg.grapple`).
- Boarding Value: Tau halving is kept exact (7 damage points: 3 1/2). The text gives no rounding
  and the value is only ever compared, so no rounding has to be invented.
- Boarding Modifiers: "twice the enemy's" is read as at least twice (a value of 2 1/2 times earns
  +2, not +1); "higher" means strictly higher.
- Multi-Ship Boarding Actions: race and other modifiers are counted once for the party, so the
  party gets the best race modifier of its ships, and the defender gets +1 for Blast Markers,
  +2 for crippled and +1 for special orders once if *any* boarding ship has that condition.
- Separate boarding: the defender rolls against each party in the order given, and its damage
  points remaining (so its boarding value, and its crippled state when ``crippled-at`` is given)
  are those left by the actions before; a defender reduced to 0 is not boarded again. A party
  that draws stays grappled (:func:`bagm.bfg.grapple.grapple_separately` plays the grapples on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, partial
from typing import Any, NamedTuple

from bagm.bfg.jsonable import chance, distribution, number
from bagm.bfg.ships import BfgError, Ship
from bagm.chance.dice import Dice
from bagm.chance.dist import ONE, ZERO, Dist, binomial, die, mix, outcomes_of

# Results Table: difference in scores -> boarding result (5 or more: Overwhelmed)
RESULTS = {1: "Stalemate", 2: "Heavy Fighting", 3: "Driven Back", 4: "Stormed", 5: "Overwhelmed"}
DRAW, NOT_FOUGHT = "Draw (grapple)", "Not fought"
# Results Table, read as its worked example reads it: (loser's, winner's) critical hit on a D6;
# 1 = automatic, None = no critical hit
CRITICAL_ON: dict[int, tuple[int | None, int | None]] = {
    1: (5, 5), 2: (4, 5), 3: (3, 6), 4: (2, 6), 5: (1, None)}

HEADER_NOTE = ("Results Table: the column header reads 'Winners/Losers', but the text's worked "
               "example (the Plagueclaw wins Heavy Fighting against the Hyperion: Hyperion 4+, "
               "Plagueclaw 5+) gives the loser the first figure; bagm follows the example "
               "(loser/winner).")
NOTES = (
    HEADER_NOTE,
    ("A draw has no row in the Results Table: no damage, no critical hits; the ships grapple "
     "and fight again each End Phase until one is at 0 damage points (Drawn Combats)."),
    ("A ship reduced to 0 damage points by a boarding action becomes a drifting hulk: no roll "
     "on the Catastrophic Damage table (unless a critical hit took it to 0)."),
    ("Critical hits are reported as chances; what each does is on the Critical Hits table, "
     "which the text does not give."),
)
ESCORT_NOTE = ("Escorts: a critical hit destroys an escort (Escorts Ships Boarding), so an escort "
               "can win and still be destroyed.")


def crit_chance(need: int | None) -> Fraction:
    """The chance of a critical hit needing ``need``+ on a D6 (1: automatic, None: none)."""
    return ZERO if need is None else Fraction(7 - need, 6)


def crit_text(need: int | None) -> str:
    return "None" if need is None else "Auto" if need == 1 else f"{need}+"


def result_name(margin: int) -> str:
    """The Results Table's name for winning by ``margin`` (1 or more)."""
    return RESULTS[min(margin, 5)]


class Outcome(NamedTuple):
    """Who won a boarding action and the result: ("attacker", "Stormed"), ("none", DRAW)."""

    winner: str
    result: str


_MARGIN = {name: k for k, name in RESULTS.items()}


def critical_on(o: Outcome) -> tuple[int | None, int | None]:
    """The (boarding ships', boarded ship's) critical hit roll for an outcome (Results Table,
    loser/winner as the worked example reads it)."""
    if o.winner == "none":
        return None, None
    loser_on, winner_on = CRITICAL_ON[_MARGIN[o.result]]
    return (winner_on, loser_on) if o.winner == "attacker" else (loser_on, winner_on)


def damage_lost(o: Outcome) -> str:
    """The loser's damage points lost, as text: one per point it lost by ("5+": Overwhelmed)."""
    if o.winner == "none":
        return "-"
    k = _MARGIN[o.result]
    return f"{k}+" if k == 5 else str(k)


OUTCOME_ORDER = ([Outcome("attacker", RESULTS[k]) for k in (5, 4, 3, 2, 1)]
                 + [Outcome("none", DRAW)]
                 + [Outcome("defender", RESULTS[k]) for k in (1, 2, 3, 4, 5)]
                 + [Outcome("none", NOT_FOUGHT)])


@dataclass(frozen=True)
class Modifier:
    label: str
    value: int


@dataclass(frozen=True)
class SideRoll:
    """One side of a boarding action: its ships, boarding value and roll modifiers."""

    names: tuple[str, ...]
    value: Fraction
    modifiers: tuple[Modifier, ...]

    @property
    def total(self) -> int:
        return sum(m.value for m in self.modifiers)

    def as_dict(self) -> dict[str, Any]:
        return {"ships": list(self.names), "boarding_value": number(self.value),
                "modifiers": [{"modifier": m.label, "value": m.value} for m in self.modifiers],
                "total_modifier": self.total}


def boarding_value(ship: Ship, damage: int | None = None, boarded: bool = False) -> Fraction:
    """Damage points remaining times the ship's special rules; the boarded ship adds its turrets
    (Boarding Value)."""
    d = ship.damage if damage is None else damage
    return d * ship.value_factor() + (ship.turrets if boarded else 0)


def ratio_modifier(own: Fraction, enemy: Fraction) -> Modifier | None:
    """The one boarding-value modifier that applies: only the highest (Boarding Modifiers, *)."""
    if own <= enemy:
        return None
    for times, words in ((4, "four or more times"), (3, "three times"), (2, "twice")):
        if own >= times * enemy:  # "twice" read as at least twice
            return Modifier(f"boarding value {number(own)} is {words} the enemy's "
                            f"{number(enemy)}", times)
    return Modifier(f"boarding value {number(own)} higher than the enemy's {number(enemy)}", 1)


def side_roll(own: Sequence[Ship], own_damage: Sequence[int], enemy: Sequence[Ship],
              enemy_damage: Sequence[int], boarded: bool) -> SideRoll:
    """A side's boarding value and modifiers against the other side (Boarding Modifiers;
    Multi-Ship Boarding Actions: race and other modifiers once for the party)."""
    value = sum((boarding_value(s, d, boarded) for s, d in zip(own, own_damage)), ZERO)
    enemy_value = sum((boarding_value(s, d, not boarded) for s, d in zip(enemy, enemy_damage)),
                      ZERO)
    mods: list[Modifier] = []
    ratio = ratio_modifier(value, enemy_value)
    if ratio is not None:
        mods.append(ratio)
    if any(s.blast for s in enemy):  # Boarding Modifiers: enemy has Blast Markers in contact
        mods.append(Modifier("enemy has Blast Markers in base contact", 1))
    if any(s.is_crippled(d) for s, d in zip(enemy, enemy_damage)):  # enemy ship is crippled
        mods.append(Modifier("enemy is crippled", 2))
    if any(s.orders != "none" for s in enemy):  # enemy ship is on special orders
        mods.append(Modifier("enemy is on special orders", 1))
    race, why = max((s.race_modifier() for s in own), key=lambda m: m[0])
    if race:  # Boarding Modifiers: Orks or Chaos +1, Space Marines +2; once per party
        mods.append(Modifier(why, race))
    return SideRoll(tuple(s.name for s in own), value, tuple(mods))


@cache
def _dice_difference() -> Dist:
    """The attacker's D6 minus the defender's D6."""
    return outcomes_of([die(6), die(6)], lambda a, b: a - b)


def difference(attacker_total: int, defender_total: int) -> Dist:
    """The exact distribution of (attacker's D6 + modifiers) - (defender's D6 + modifiers)."""
    shift = attacker_total - defender_total
    return {k + shift: p for k, p in _dice_difference().items()}


def outcome_of(diff: int) -> Outcome:
    if diff == 0:
        return Outcome("none", DRAW)
    return Outcome("attacker" if diff > 0 else "defender", result_name(abs(diff)))


@dataclass(frozen=True)
class Settlement:
    """What a difference in scores does (Boarding Action Results; Results Table)."""

    outcome: Outcome
    damage_to_attackers: int
    damage_to_defender: int
    attacker_crit_on: int | None  # each boarding ship's critical hit on a D6 (1: automatic)
    defender_crit_on: int | None
    attackers_hulk: bool
    defender_hulk: bool


def settle(diff: int, attackers_left: int, defender_left: int) -> Settlement:
    """The result of (attacker's score - defender's score) = ``diff``: the loser loses a damage
    point for each point it lost by (never below 0), and each side's critical hit is read from
    the Results Table as its worked example reads it (loser/winner)."""
    o = outcome_of(diff)
    if diff == 0:  # Drawn Combats: the ships grapple; no damage and no critical hits
        return Settlement(o, 0, 0, None, None, False, False)
    loser_on, winner_on = CRITICAL_ON[min(abs(diff), 5)]
    if diff > 0:
        lost = min(diff, defender_left)
        return Settlement(o, 0, lost, winner_on, loser_on, False, lost == defender_left)
    lost = min(-diff, attackers_left)
    return Settlement(o, lost, 0, loser_on, winner_on, lost == attackers_left, False)


@dataclass(frozen=True)
class ActionOdds:
    """The exact odds of one boarding action (or a mixture of them over earlier results)."""

    attacker: SideRoll
    defender: SideRoll
    escorts_attacking: int  # how many of the party's ships are escorts
    escort_defender: bool
    outcomes: dict[Outcome, Fraction]
    damage_to_attackers: Dist  # damage points the party loses, in all
    damage_to_defender: Dist
    attacker_crit: Fraction  # each boarding ship's chance of a critical hit
    attacker_crits: Dist  # how many of the party's ships suffer one
    defender_crit: Fraction
    defender_hulk: Fraction  # the defender reduced to 0 damage points: a drifting hulk
    attackers_hulk: Fraction  # the party loses all its damage points
    defender_destroyed: Fraction  # hulk, or (an escort) a critical hit
    draw: Fraction
    attacker_destroyed: Fraction | None = None  # one boarding ship: hulk, or an escort's crit

    def as_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker.as_dict(),
            "defender": self.defender.as_dict(),
            "outcomes": [{"winner": o.winner, "result": o.result, **chance(self.outcomes[o])}
                         for o in OUTCOME_ORDER if self.outcomes.get(o)],
            "draw_grapple": chance(self.draw),
            "damage_to_defender": distribution(self.damage_to_defender),
            "damage_to_attackers": distribution(self.damage_to_attackers),
            "defender_critical_hit": chance(self.defender_crit),
            "attacker_critical_hit_each_ship": chance(self.attacker_crit),
            "attacker_ships_with_critical_hit": distribution(self.attacker_crits),
            "defender_drifting_hulk": chance(self.defender_hulk),
            "attackers_all_damage_lost": chance(self.attackers_hulk),
            "defender_destroyed": chance(self.defender_destroyed),
            "attacker_destroyed": (None if self.attacker_destroyed is None
                                   else chance(self.attacker_destroyed)),
        }


def check_boarding(party: Sequence[Ship], defender: Ship) -> None:
    """Refuse what the text forbids or cannot resolve, saying why."""
    if not party:
        raise BfgError("a boarding action needs at least one boarding ship (--attacker)")
    if defender.mark == "nurgle":  # Hit-and-Run Attacks: Mark of Nurgle ships cannot be boarded
        raise BfgError(f"{defender.name} has the Mark of Nurgle and cannot be boarded; "
                       "Hit-and-Run attacks still can be made against it (bagm bfg hit-and-run)")
    for s in (*party, defender):
        if s.damage < 1:
            raise BfgError(f"{s.name} has 0 damage points left: a drifting hulk takes no part "
                           "in a boarding action")
        if s.squadron is not None and not s.escort:
            raise BfgError(f"{s.name}: squadron= is for escorts (kind=escort)")
    if defender.squadron is not None:
        raise BfgError(f"{defender.name}: a boarding action is against one ship; drop squadron=")


def action(party: Sequence[Ship], defender: Ship, defender_damage: int | None = None) -> ActionOdds:
    """One boarding action of ``party`` (one ship, or several boarding together: Multi-Ship
    Boarding Actions) against ``defender`` at ``defender_damage`` points remaining."""
    check_boarding(party, defender)
    d_left = defender.damage if defender_damage is None else defender_damage
    p_dmg = [s.damage for s in party]
    att = side_roll(party, p_dmg, [defender], [d_left], boarded=False)
    dfd = side_roll([defender], [d_left], party, p_dmg, boarded=True)
    party_left = sum(p_dmg)
    n = len(party)
    escorts = sum(s.escort for s in party)
    outcomes: dict[Outcome, Fraction] = {}
    to_att: Dist = {}
    to_def: Dist = {}
    att_crit = def_crit = def_hulk = att_hulk = def_destroyed = att_destroyed = draw = ZERO
    att_crits: list[tuple[Fraction, Dist]] = []
    for diff, p in sorted(difference(att.total, dfd.total).items()):
        r = settle(diff, party_left, d_left)
        outcomes[r.outcome] = outcomes.get(r.outcome, ZERO) + p
        to_att[r.damage_to_attackers] = to_att.get(r.damage_to_attackers, ZERO) + p
        to_def[r.damage_to_defender] = to_def.get(r.damage_to_defender, ZERO) + p
        draw += p * (diff == 0)
        def_hulk += p * r.defender_hulk
        att_hulk += p * r.attackers_hulk
        a_p, d_p = crit_chance(r.attacker_crit_on), crit_chance(r.defender_crit_on)
        att_crit += p * a_p
        def_crit += p * d_p
        att_crits.append((p, binomial(n, a_p)))
        # Escorts Ships Boarding: a critical hit destroys an escort
        def_destroyed += p * (ONE if r.defender_hulk else d_p if defender.escort else ZERO)
        att_destroyed += p * (ONE if r.attackers_hulk else a_p if escorts == n else ZERO)
    return ActionOdds(att, dfd, escorts, defender.escort, outcomes, to_att, to_def, att_crit,
                      _clean(mix(att_crits)), def_crit, def_hulk, att_hulk, def_destroyed, draw,
                      att_destroyed if n == 1 else None)


def _clean(d: Dist) -> Dist:
    return {k: p for k, p in sorted(d.items()) if p}


@dataclass(frozen=True)
class SeparateOdds:
    """Several parties boarding one defender separately, one after another."""

    parties: tuple[tuple[Ship, ...], ...]
    actions: tuple[ActionOdds, ...]  # each party's odds, over what the earlier ones did
    defender_damage_left: Dist  # after every action
    defender_hulk: Fraction
    # (the defender's damage points left, the parties that drew) -> chance, for each way the
    # End Phase can leave parties grappled with the defender afloat (Drawn Combats)
    grapple_starts: dict[tuple[int, tuple[int, ...]], Fraction] = field(default_factory=dict)

    @property
    def grapple_chance(self) -> Fraction:
        return sum(self.grapple_starts.values(), ZERO)

    def as_dict(self) -> dict[str, Any]:
        return {"mode": "separately",
                "actions": [a.as_dict() for a in self.actions],
                "defender_damage_left": distribution(self.defender_damage_left),
                "defender_drifting_hulk": chance(self.defender_hulk),
                "grapple_follows": chance(self.grapple_chance)}


def parties_of(attackers: Sequence[Ship]) -> list[tuple[Ship, ...]]:
    """Separate boarding: each capital ship alone, each escort squadron as one party, in the order
    their first ship is given (Multi-Ship Boarding Actions: roll for each capital ship or escort
    squadron separately). Escorts given without a squadron board alone."""
    out: list[list[Ship]] = []
    squads: dict[str, list[Ship]] = {}
    for s in attackers:
        if s.squadron is None:
            out.append([s])
        elif s.squadron in squads:
            squads[s.squadron].append(s)
        else:
            squads[s.squadron] = [s]
            out.append(squads[s.squadron])
    return [tuple(p) for p in out]


def board_separately(attackers: Sequence[Ship], defender: Ship) -> SeparateOdds:
    """Each party boards on its own; the defender's damage is cumulative (Multi-Ship Boarding
    Actions)."""
    parties = parties_of(attackers)
    check_boarding(list(attackers), defender)
    # (the defender's damage points left, the parties that drew so far) -> chance
    state: dict[tuple[int, tuple[int, ...]], Fraction] = {(defender.damage, ()): ONE}
    actions: list[ActionOdds] = []
    for j, party in enumerate(parties):
        parts: list[tuple[Fraction, ActionOdds]] = []
        nxt: dict[tuple[int, tuple[int, ...]], Fraction] = {}
        put = partial(_put, nxt)
        by_left: dict[int, ActionOdds] = {}
        for (left, drawn), w in sorted(state.items(), reverse=True):
            if left == 0:  # a drifting hulk is not boarded again
                put((0, drawn), w)
                parts.append((w, _not_fought(party, defender)))
                continue
            a = by_left.get(left) or by_left.setdefault(left, action(party, defender, left))
            parts.append((w, a))
            for lost, q in a.damage_to_defender.items():
                if lost == 0:  # Drawn Combats: a draw leaves this party grappled
                    put((left, (*drawn, j)), w * a.draw)
                    put((left, drawn), w * (q - a.draw))
                else:
                    put((left - lost, drawn), w * q)
        actions.append(_mix_actions(parts))
        state = nxt
    left_dist: Dist = {}
    for (left, _), w in state.items():
        left_dist[left] = left_dist.get(left, ZERO) + w
    starts = {k: w for k, w in sorted(state.items()) if k[0] > 0 and k[1]}
    return SeparateOdds(tuple(parties), tuple(actions), _clean(left_dist), left_dist.get(0, ZERO),
                        starts)


def _put(into: dict[tuple[int, tuple[int, ...]], Fraction], key: tuple[int, tuple[int, ...]],
         w: Fraction) -> None:
    if w:
        into[key] = into.get(key, ZERO) + w


def _not_fought(party: Sequence[Ship], defender: Ship) -> ActionOdds:
    zero = {0: ONE}
    side = SideRoll(tuple(s.name for s in party), ZERO, ())
    return ActionOdds(side, SideRoll((defender.name,), ZERO, ()), sum(s.escort for s in party),
                      defender.escort, {Outcome("none", NOT_FOUGHT): ONE}, zero, zero, ZERO,
                      zero, ZERO, ZERO, ZERO, ZERO, ZERO)


def _mix_actions(parts: list[tuple[Fraction, ActionOdds]]) -> ActionOdds:
    """The odds of an action taken over the states the earlier actions left (weights sum to 1).
    The sides shown (values, modifiers) are those against the defender with the most damage
    points it can have left then; the odds are over every state."""
    if len(parts) == 1:
        return parts[0][1]
    fought = [a for _, a in parts if Outcome("none", NOT_FOUGHT) not in a.outcomes]
    head = (fought or [parts[0][1]])[0]

    def fr(get: Any) -> Fraction:
        return sum((w * get(a) for w, a in parts), ZERO)

    outcomes: dict[Outcome, Fraction] = {}
    for w, a in parts:
        for o, p in a.outcomes.items():
            outcomes[o] = outcomes.get(o, ZERO) + w * p
    return ActionOdds(
        head.attacker, head.defender, head.escorts_attacking, head.escort_defender, outcomes,
        _clean(mix((w, a.damage_to_attackers) for w, a in parts)),
        _clean(mix((w, a.damage_to_defender) for w, a in parts)),
        fr(lambda a: a.attacker_crit), _clean(mix((w, a.attacker_crits) for w, a in parts)),
        fr(lambda a: a.defender_crit), fr(lambda a: a.defender_hulk),
        fr(lambda a: a.attackers_hulk), fr(lambda a: a.defender_destroyed), fr(lambda a: a.draw))


# --- playing it with dice (at the table, and the tests' sampler) ---------------------------


@dataclass(frozen=True)
class ActionRoll:
    """One boarding action played with dice."""

    attacker_roll: int
    defender_roll: int
    difference: int
    outcome: Outcome
    damage_to_attackers: int
    damage_to_defender: int
    attacker_crits: tuple[bool, ...]  # one per boarding ship
    defender_crit: bool
    attacker: SideRoll
    defender: SideRoll
    settlement: Settlement


def roll_action(dice: Dice, party: Sequence[Ship], defender: Ship,
                defender_damage: int | None = None) -> ActionRoll:
    """Play one boarding action: both roll a D6, add modifiers, the loser loses the difference,
    then every ship rolls for a critical hit as the Results Table says."""
    check_boarding(party, defender)
    d_left = defender.damage if defender_damage is None else defender_damage
    p_dmg = [s.damage for s in party]
    att = side_roll(party, p_dmg, [defender], [d_left], boarded=False)
    dfd = side_roll([defender], [d_left], party, p_dmg, boarded=True)
    a = dice.d6("boarding: attacker")
    d = dice.d6("boarding: defender")
    diff = (a + att.total) - (d + dfd.total)
    r = settle(diff, sum(p_dmg), d_left)
    a_crits = tuple(_crit_roll(dice, r.attacker_crit_on, f"critical hit: {s.name}") for s in party)
    d_crit = _crit_roll(dice, r.defender_crit_on, f"critical hit: {defender.name}")
    return ActionRoll(a, d, diff, r.outcome, r.damage_to_attackers, r.damage_to_defender,
                      a_crits, d_crit, att, dfd, r)


def _crit_roll(dice: Dice, need: int | None, reason: str) -> bool:
    if need is None:
        return False
    if need == 1:  # automatic: no roll
        return True
    return dice.d6(reason) >= need
