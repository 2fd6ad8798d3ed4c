"""Acts of Faith (the Adepta Sororitas army rule) with the Boarding Actions Mustering Rules' Minor
Miracles: the army's Miracle dice pool, and the Act of Faith a unit performs before a roll (one dice of
that roll is not rolled: a Miracle dice's value stands for it, as an unmodified roll).

Readings. Acts of Faith gains a Miracle dice "at the start of each battle round"; Minor Miracles says
the one gained "at the start of your turn" is gained in your turn only: one a battle round, at the start
of the Sororitas player's turn (without Minor Miracles, at the start of the round). A roll with a
Miracle dice in it is not re-rolled ("this value cannot be changed or re-rolled"). Hit, Wound and Damage
rolls and saving throws: the attack sequence offers an Act of Faith before each of them
(:class:`bagm.engine.attack.sequence.MiracleOffer`; :meth:`faith_pool` says whether a unit may).
A Battle-shock test a declared charge calls for (Focused Ferocity) is offered too
(``rules.effects.charge_tests``). Reading: Hit and Wound rolls are rolled as a pool (all of a weapon's attacks at once), so one Act of
Faith puts a Miracle dice in place of one die of the pool; a saving throw or a Damage roll is one
attack's.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.rules.effects import effect_has, effect_sum, shock_dice
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


def miracle_army(g: GameInterface, p: Player) -> Unit | None:
    """A unit of ``p``'s army (anywhere) whose effects give the army Miracle dice, or None."""
    army = g.armies[p]
    if not army.may_set("miracle_dice"):
        return None
    return next((u for u in army.units if u.affected and effect_has(u, "miracle_dice")), None)


def gain_miracle(g: GameInterface, p: Player, why: str, six: bool = False) -> None:
    """Acts of Faith: "each time you gain a Miracle dice, roll one D6: the number you roll is the
    value of that Miracle dice"; Minor Miracles: "improve the value of that Miracle dice by 1 (to a
    maximum of 6)"; ``six``: a rule gives it the value 6 without a roll (Bloody Redemption)."""
    u = miracle_army(g, p)
    if u is None:
        return
    rule = u.source("miracle_dice")
    v = 6 if six else min(6, g.dice.d6(f"{rule} {p}") + effect_sum(u, "miracle_bonus"))
    g.miracles[p] = tuple(sorted(g.miracles[p] + (v,), reverse=True))
    g.emit(ev.Miracle(e="miracle", player=p, pool=list(g.miracles[p]), gain=v, why=why))


def miracle_at(g: GameInterface, p: Player, start: str) -> None:
    """The start of the battle round (``start`` "round") or of ``p``'s turn ("turn"): the Miracle
    dice Acts of Faith gains then (at the start of the turn with Minor Miracles)."""
    u = miracle_army(g, p)
    if u is not None and (start == "turn") == bool(effect_sum(u, "miracle_bonus")):
        gain_miracle(g, p, "Acts of Faith")


def miracle_on_death(g: GameInterface, u: Unit) -> None:
    """``u`` was destroyed: "each time an ADEPTA SORORITAS unit from your army is destroyed" its
    army gains a Miracle dice; Bloody Redemption (Penitents and Pilgrims): "the first time that you
    gain a Miracle dice as the result of an Arco-Flagellants or Repentia Squad unit from your army
    being destroyed, do not roll a D6; that Miracle dice has a value of 6 instead"."""
    p = u.player
    if "ADEPTA SORORITAS" not in u.keywords or miracle_army(g, p) is None:
        return
    six = False
    if u.affected and effect_has(u, "miracle_six"):
        mark = (p, u.source("miracle_six"), 0)  # "the first time"
        six = mark not in g.used
        g.used.add(mark)
    gain_miracle(g, p, u.source("miracle_six") if six else f"{u.uid} destroyed", six=six)


def act_of_faith(g: GameInterface, u: Unit, what: str, dice: int, needed: float | None = None,
                 facts: dict[str, Any] | None = None) -> Generator[Decision, Action, int | None]:
    """Acts of Faith: "before making a dice roll for a model or unit from your army with the Acts of
    Faith ability, if you have one or more dice in your Miracle dice pool, that unit can perform an
    Act of Faith" (one per phase): its player picks a Miracle dice (decision step ``rule``, options:
    the pool's values) or passes. The value used for one of the roll's ``dice`` (None: none);
    ``needed``: what the roll's dice must reach (for the player's choice); ``facts``: what the
    player weighs an attack's roll by (:class:`bagm.engine.attack.sequence.MiracleOffer`)."""
    p = u.player
    pool = faith_pool(g, u)
    if not pool:
        return None
    rule = u.source("miracle_dice")
    mark = (p, f"{rule} {u.uid}", g.phase_id)  # "one Act of Faith per phase" (faith_pool's)
    info: dict[str, Any] = {"rule": rule, "unit": u.uid, "what": what, "dice": dice,
                            "options": [str(v) for v in dict.fromkeys(pool)]}
    if needed is not None:
        info["needed"] = needed
    if facts:
        info.update(facts)
    act = yield Decision("rule", p, info)
    if act.kind != "rule" or act.arg is None:
        return None
    v = int(act.arg)
    left = list(pool)
    left.remove(v)
    g.miracles[p] = tuple(left)
    g.used.add(mark)
    event = ev.Miracle(e="miracle", player=p, pool=left, used=v, unit=u.uid, what=what)
    if facts and "weapon" in facts:
        event["weapon"] = str(facts["weapon"])  # a roll of the attack sequence: the attacking weapon
    g.emit(event)
    return v


def faith_pool(g: GameInterface, u: Unit) -> tuple[int, ...]:
    """The Miracle dice ``u`` could use now in an Act of Faith (Acts of Faith: one per phase), or ()."""
    pool = g.miracles[u.player]
    if not pool or not (u.affected and effect_has(u, "miracle_dice")) or \
            (u.player, f"{u.source('miracle_dice')} {u.uid}", g.phase_id) in g.used:
        return ()  # (the mark act_of_faith leaves: "one Act of Faith per phase")
    return pool


def shock_dice_with(g: GameInterface, u: Unit, v: int, what: str) -> int:
    """A Battle-shock test's dice with one of them a Miracle dice of value ``v``."""
    return v + sum(g.dice.d6(what) for _ in range(shock_dice(g, u) - 1))
