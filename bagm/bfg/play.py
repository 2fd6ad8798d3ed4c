"""The End Phase played with seeded dice, at the table: every roll with its reason, and what
came of it, step by step. The same procedures (``roll_*``) the tests hold to the exact odds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bagm.bfg.boarding import DRAW, check_boarding, crit_text, parties_of, roll_action
from bagm.bfg.end_phase import (
    REPAIR_ON,
    blast_removal,
    repair_dice,
    repairs,
    roll_blast_removal,
    roll_repairs,
)
from bagm.bfg.grapple import DEFAULT_POLICY, check_policy, roll_grapple
from bagm.bfg.hit_and_run import Attack, hit_and_run, roll_hit_and_run
from bagm.bfg.ships import Ship
from bagm.chance.dice import Dice


@dataclass(frozen=True)
class Played:
    """What the dice did: the seed, every roll in order, and the story in lines."""

    seed: int
    rolls: tuple[tuple[int, str], ...]  # (result, why it was rolled)
    lines: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.seed,
                "rolls": [{"die": "D6", "value": v, "reason": r} for v, r in self.rolls],
                "result": list(self.lines)}


def _played(dice: Dice, seed: int, lines: list[str]) -> Played:
    return Played(seed, tuple((r.value, r.reason) for r in dice.rolls), tuple(lines))


def _score(roll: int, total: int) -> str:
    return f"{roll} {total:+d} = {roll + total}" if total else f"{roll}"


def play_board(seed: int, attackers: Sequence[Ship], defender: Ship,
               separately: bool = False, policy: str = DEFAULT_POLICY) -> Played:
    """Board ``defender`` with dice: together (one roll) or separately (one roll per capital
    ship or escort squadron, the defender's damage cumulative); a draw after boarding together
    plays the grapple to its end (a party's losses shared out by ``policy``)."""
    check_boarding(list(attackers), defender)
    check_policy(policy)
    dice = Dice(seed)
    lines: list[str] = []
    parties = parties_of(attackers) if separately else [tuple(attackers)]
    left = defender.damage
    drawn: list[int] = []
    for j, party in enumerate(parties):
        names = " + ".join(s.name for s in party)
        several = len(party) > 1
        if left == 0:
            lines.append(f"{names}: {defender.name} is already a drifting hulk; no action")
            continue
        r = roll_action(dice, party, defender, left)
        lines.append(f"{names} score{'' if several else 's'} "
                     f"{_score(r.attacker_roll, r.attacker.total)}; "
                     f"{defender.name} scores {_score(r.defender_roll, r.defender.total)}: "
                     + (r.outcome.result if r.outcome.result == DRAW else
                        f"{'boarding' if r.outcome.winner == 'attacker' else 'boarded'} side "
                        f"wins, {r.outcome.result}"))
        if r.damage_to_defender:
            left -= r.damage_to_defender
            lines.append(f"{defender.name} loses {r.damage_to_defender} damage point(s), "
                         f"{left} left" + (": a drifting hulk" if left == 0 else ""))
        if r.damage_to_attackers:
            lines.append(f"{names} lose{'' if several else 's'} {r.damage_to_attackers} damage "
                         "point(s)" + (" in all (shared out by the attacking player)"
                                       if several else ""))
        s = r.settlement
        if s.outcome.result != DRAW:
            for ship, hit in zip(party, r.attacker_crits):
                lines.append(_crit_line(ship, s.attacker_crit_on, hit))
            lines.append(_crit_line(defender, s.defender_crit_on, r.defender_crit))
        elif not separately:
            lines.append(_grapple_line(dice, party, replace(defender, damage=left), policy))
        else:
            drawn.append(j)
    if drawn and left > 0:  # Drawn Combats: the parties that drew fight on, each in turn
        lines.append(_separate_grapple_line(dice, parties, drawn, defender, left, policy))
    return _played(dice, seed, lines)


def _separate_grapple_line(dice: Dice, parties: Sequence[tuple[Ship, ...]], drawn: list[int],
                           defender: Ship, left: int, policy: str) -> str:
    ships = tuple(s for p in parties for s in p)
    groups: list[tuple[int, ...]] = []
    for p in parties:
        n = sum(len(g) for g in groups)
        groups.append(tuple(range(n, n + len(p))))
    start = (tuple(s.damage if j in drawn else 0 for j, p in enumerate(parties) for s in p), left)
    g = roll_grapple(dice, ships, defender, policy, start=start, groups=tuple(groups))
    kept = ", ".join(f"{s.name} {x}" for s, x in zip(ships, g.attackers_left) if x)
    who = (f"{defender.name} survives with {g.defender_left} damage point(s)" if g.defender_left
           else f"{defender.name} is a drifting hulk; damage points left: {kept}"
           if g.attacker_left else "neither side survives")
    names = "; ".join(" + ".join(s.name for s in parties[j]) for j in drawn)
    return f"grappled ({names}): the grapple ends after {g.phases} more End Phase(s): {who}"


def _grapple_line(dice: Dice, party: Sequence[Ship], defender: Ship, policy: str) -> str:
    """Drawn Combats: fight on each End Phase until one side is at 0."""
    g = roll_grapple(dice, party, defender, policy)
    kept = ", ".join(f"{s.name} {x}" for s, x in zip(party, g.attackers_left) if x)
    who = (f"{defender.name} survives with {g.defender_left} damage point(s)" if g.defender_left
           else f"{defender.name} is a drifting hulk; damage points left: {kept}"
           if g.attacker_left else "neither side survives")
    return f"the grapple ends after {g.phases} more End Phase(s): {who}"


def _crit_line(ship: Ship, need: int | None, hit: bool) -> str:
    if need is None:
        return f"{ship.name}: no critical hit roll"
    what = "critical hit" + (" (an escort: destroyed)" if ship.escort else "")
    return f"{ship.name}: {what} on {crit_text(need)}: {'yes' if hit else 'no'}"


def play_grapple(seed: int, party: Sequence[Ship], defender: Ship,
                 policy: str = DEFAULT_POLICY) -> Played:
    check_boarding(list(party), defender)
    check_policy(policy)
    dice = Dice(seed)
    return _played(dice, seed, [_grapple_line(dice, party, defender, policy)])


def play_hit_and_run(seed: int, target_kind: str, attack: Attack, attacks: int,
                     names: dict[int, str] | None = None, brace: int | None = None) -> Played:
    hit_and_run(target_kind, attack, attacks, brace)  # the same checks as the odds
    dice = Dice(seed)
    lines: list[str] = []
    for i in range(1, attacks + 1):
        r = roll_hit_and_run(dice, target_kind, attack, brace)
        score = _score(r.natural, attack.modifier)
        if target_kind == "escort":
            saved = (f", braced: {dice.rolls[-1].value} saves it" if r.braced
                     else f", braced: {dice.rolls[-1].value} does not save it"
                     if r.braced is False else "")
            lines.append(f"attack {i}: {score}{saved}: " + ("the escort is destroyed" if r.success
                                                            else "the escort survives"))
            if r.success:
                if i < attacks:
                    lines.append(f"the other {attacks - i} attack(s) have no target left")
                break
        elif r.success:
            effect = (names or {}).get(r.score)
            lines.append(f"attack {i}: {score}: Critical Hits score {r.score}"
                         + (f" ({effect})" if effect else ""))
        else:
            lines.append(f"attack {i}: {score}: fails")
    return _played(dice, seed, lines)


def play_repairs(seed: int, damage: int, blast: bool = False,
                 needing: int | None = None) -> Played:
    repairs(damage, blast, needing)  # the same checks as the odds
    dice = Dice(seed)
    done = roll_repairs(dice, damage, blast, needing)
    sixes = sum(r.value >= REPAIR_ON for r in dice.rolls)
    n = repair_dice(damage, blast)
    return _played(dice, seed, [f"{n} D6: {sixes} six(es), {done} system(s) or fire(s) repaired"])


def play_blast_removal(seed: int, markers: int, in_contact: int = 0) -> Played:
    blast_removal(markers, in_contact)  # the same checks as the odds
    dice = Dice(seed)
    gone = roll_blast_removal(dice, markers, in_contact)
    roll = dice.rolls[-1].value
    line = (f"D6 = {roll}: {gone} Blast Marker(s) removed, {markers - gone} left "
            f"({in_contact} in contact stay)")
    return _played(dice, seed, [line])
