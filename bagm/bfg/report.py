"""A boarding action's whole answer: the action(s), the grapple a draw starts, and the notes that
say how the text was read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bagm.bfg import boarding
from bagm.bfg.boarding import (
    ActionOdds,
    SeparateOdds,
    action,
    board_separately,
)
from bagm.bfg.grapple import (
    DEFAULT_POLICY,
    PARTY_NOTE,
    GrappleOdds,
    check_policy,
    grapple,
    grapple_separately,
    policy_note,
    too_big,
)
from bagm.bfg.grapple import NOTES as GRAPPLE_NOTES
from bagm.bfg.jsonable import chance
from bagm.bfg.ships import Ship

SEPARATE_NOTE = (
    "Grapples after boarding separately: each party that drew stays grappled with the boarded "
    "ship; every later End Phase each grappled party fights its own boarding action, in the "
    "order given, the boarded ship's damage cumulative, until the boarded ship or every "
    "grappled party is at 0 (the text's Drawn Combats, read for several grapples with one "
    "ship). The grapple's odds are given if one follows; its starts (who drew, the boarded "
    "ship's damage points) are weighted by their chances.")


@dataclass(frozen=True)
class BoardingReport:
    attackers: tuple[Ship, ...]
    defender: Ship
    separately: bool
    together: ActionOdds | None
    separate: SeparateOdds | None
    grapple: GrappleOdds | None
    notes: tuple[str, ...]

    @property
    def lost_in_the_end(self) -> tuple[Fraction, Fraction] | None:
        """(the boarding ship, the boarded ship) lost this End Phase or in the grapple a draw
        starts: reduced to 0 damage points, or an escort destroyed by a critical hit."""
        a, g = self.together, self.grapple
        if a is None or g is None or a.attacker_destroyed is None:
            return None
        return (a.attacker_destroyed + a.draw * (g.defender_survives + g.both_lost),
                a.defender_destroyed + a.draw * (g.attacker_survives + g.both_lost))

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"mode": "separately" if self.separately else "together"}
        if self.together is not None:
            out["action"] = self.together.as_dict()
        if self.separate is not None:
            out.update(self.separate.as_dict())
        out["grapple_if_drawn"] = self.grapple.as_dict() if self.grapple else None
        if self.together is not None:
            out["grapple_follows"] = chance(self.together.draw)
        lost = self.lost_in_the_end
        out["lost_now_or_in_the_grapple"] = None if lost is None else {
            "attacker": chance(lost[0]), "defender": chance(lost[1])}
        out["notes"] = list(self.notes)
        return out


def board(attackers: Sequence[Ship], defender: Ship, separately: bool = False,
          policy: str = DEFAULT_POLICY) -> BoardingReport:
    """The exact odds of boarding ``defender`` with ``attackers``, together (one roll) or
    separately (one roll per capital ship or escort squadron), and of the grapple a draw starts
    when they board together (a party's losses shared out by ``policy``)."""
    check_policy(policy)
    notes = list(boarding.NOTES)
    # Moving in for Boarding: conditions only the players know
    notes.append("Taken as given: the ships are in base contact in the End Phase, the boarding was "
                 "declared in the Movement Phase, the boarding ships fired no weapons and launched "
                 "no ordnance this turn, and it is the boarding player's turn.")
    ships = (*attackers, defender)
    together = separate = None
    g = None
    if separately:
        separate = board_separately(attackers, defender)
        notes.append("Boarding separately: the defender rolls against each capital ship or escort "
                     "squadron in the order given; its damage is cumulative, and each action "
                     "uses the boarding value it has left by then (the text's 'cumulative', read "
                     "as one action after another). A later action's values and modifiers are "
                     "shown against the defender's damage before any loss; its odds are over "
                     "every state the earlier actions leave.")
    else:
        together = action(attackers, defender)
    if not separately:
        why = too_big(attackers, defender)
        if why is None:
            g = grapple(attackers, defender, policy)
        else:
            notes.append(f"The grapple after a draw is not computed: {why}.")
    elif separate is not None and separate.grapple_starts:
        parties = separate.parties
        why = too_big(attackers, defender, len(parties))
        if why is None:
            total = separate.grapple_chance
            g = grapple_separately(parties, defender, {k: w / total for k, w in
                                                       separate.grapple_starts.items()}, policy)
            notes.append(SEPARATE_NOTE)
        else:
            notes.append(f"The grapples after draws are not computed: {why}.")
    if len(attackers) > 1:
        if not separately:
            notes.append("Boarding together: one roll for the party; its boarding values are "
                         "added, its race and other modifiers count once (the best race "
                         "modifier; the defender's +1/+2/+1 if any boarding ship has Blast "
                         "Markers, is crippled or is on special orders).")
        notes.append("Damage the boarding ships lose is shared out among them by the attacking "
                     "player; every boarding ship rolls for its own critical hit.")
        if g is not None and (not separately or any(len(p) > 1 for p in g.groups)):
            notes += [PARTY_NOTE, policy_note(policy)]
    if any(s.escort for s in ships):
        notes.append(boarding.ESCORT_NOTE)
    if any(s.race == "tau" for s in ships):
        notes.append("Tau Kor'vattra boarding values are halved exactly (no rounding is given; the "
                     "value is only compared).")
    if any(s.crippled_at is not None for s in ships):
        notes.append("crippled-at: the user's threshold for crippled (the text does not say when "
                     "a ship is crippled); it is applied to the damage points left at each roll.")
    elif any(s.crippled for s in ships):
        notes.append("Crippled as given; the text does not say when a ship becomes crippled, so "
                     "bagm does not change it as damage is lost (give crippled-at=N to).")
    if g is not None:
        notes.append(GRAPPLE_NOTES[1])
    return BoardingReport(tuple(attackers), defender, separately, together, separate, g,
                          tuple(notes))
