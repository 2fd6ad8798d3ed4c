"""Re-rolls offered just after a roll: Command Re-roll (Core Stratagem: 1CP, once per phase,
never for a Battle-shocked unit) and the free re-rolls an effect gives ("you can re-roll Charge
rolls made for that unit"); a dice is re-rolled once at most."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, TypeVar

from bagm.engine.attack.sequence import MiracleOffer, RerollOffer
from bagm.engine.game import miracles
from bagm.engine.rules.stratagems import COMMAND_REROLL, may_use, use
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface

R = TypeVar("R")  # what a sequence of Command Re-roll offers gives back


def _command_reroll(g: GameInterface, p: Player, u: Unit, info: dict[str, Any]) -> Generator[Decision, Action, bool]:
    """Command Re-roll (1CP, once per phase, never for a Battle-shocked unit), offered just
    after a roll of ``u``; True when the player re-rolls (the CP is then spent)."""
    if not _may_reroll(g, p, u):
        return False
    act = yield Decision("reroll", p, {"unit": u.uid, **info})
    if act.kind != "reroll":
        return False
    use(g, p, COMMAND_REROLL, unit=u)
    return True


def _may_reroll(g: GameInterface, p: Player, u: Unit) -> bool:
    """Command Re-roll could be used now on a roll of ``u`` (Stratagems: once per phase,
    1CP; Battle-shock: never on a Battle-shocked unit)."""
    return may_use(g, p, COMMAND_REROLL, u)


def _effect_reroll(g: GameInterface, p: Player, u: Unit, field: str, info: dict[str, Any]) -> Generator[Decision, Action, bool]:
    """A re-roll an effect ``field`` gives (a conferred Leader ability's or a standing
    rule's: "you can re-roll Charge rolls made for that unit"), offered just after the roll in place of Command Re-roll (a dice is re-rolled
    once at most): free, and Battle-shock does not stop it (no Stratagem is used). True when
    the player re-rolls."""
    act = yield Decision("reroll", p, {"unit": u.uid, "free": True, **info})
    if act.kind != "reroll":
        return False
    g.emit(ev.LeaderReroll(e="leader_reroll", unit=u.uid, ability=u.source(field), what=info.get("what", "charge")))
    return True


def reroll_offers(g: GameInterface, steps: Generator[RerollOffer, bool, R], u: Unit, t: Unit, weapon: str
            ) -> Generator[Decision, Action, R]:
    """Play the attack sequence, turning its Command Re-roll offers into decisions of the
    player whose roll it is (the defender's for a saving throw). The decision's info: unit,
    what (the roll), roll (the die or total), weapon, damage (the weapon's average Damage)
    and, for a save or a Damage roll, wounds_left on the model the attack is allocated to."""
    take = False
    offer: RerollOffer | None = None
    while True:
        try:
            nxt = steps.send(take) if offer is not None else next(steps)
        except StopIteration as stop:
            nxt, result = None, stop.value
        if take and offer is not None and not isinstance(offer, MiracleOffer):
            # the re-roll was made as the sequence ran on to here
            rolled = (t if offer.side == "defender" else u).uid
            assert offer.new is not None  # the re-roll was made
            if offer.by is None:
                g.emit(ev.CommandReroll(e="command_reroll", unit=rolled, what=offer.what, roll=offer.roll,
                                           new=offer.new, weapon=weapon))
            else:
                g.emit(ev.Reroll(e="reroll", unit=rolled, what=offer.what, roll=offer.roll, new=offer.new,
                                    weapon=weapon, by=offer.by))
        if nxt is None:
            return result
        offer = nxt
        who = t if offer.side == "defender" else u
        info = {"what": offer.what, "roll": offer.roll, "weapon": weapon, "damage": offer.damage}
        if offer.wounds_left:
            info["wounds_left"] = offer.wounds_left
        if isinstance(offer, MiracleOffer):  # Acts of Faith: before the roll, a Miracle dice for one of its dice
            facts = {"weapon": weapon, "damage": offer.damage, **offer.facts}
            if offer.wounds_left:
                facts["wounds_left"] = offer.wounds_left
            offer.new = yield from miracles.act_of_faith(g, who, offer.what, 1, facts=facts)
            take = offer.new is not None
            continue
        if offer.by is not None:  # a free re-roll the player chooses (Close-Quarters Killer)
            act = yield Decision("reroll", who.player, {"unit": who.uid, **info, "free": True, "by": offer.by,
                                                        **offer.facts})
            take = act.kind == "reroll"
            continue
        take = yield from _command_reroll(g, who.player, who, info)
