"""Hazardous (Core Rules, weapon abilities): "after that unit has resolved all of its attacks",
one Hazardous test for each Hazardous weapon that targets were selected for; each failed test
resolved one at a time (3 mortal wounds on a model equipped with such a weapon)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.attack.rules import HAZARDOUS_MORTAL_WOUNDS
from bagm.engine.attack.sequence import TargetUnit, hazardous_tests
from bagm.engine.game import kept, rerolls, shooting
from bagm.engine.rules.abilities import models_destroyed
from bagm.engine.rules.army_rules import fnp_pain
from bagm.engine.rules.effects import effect_defence, effect_fnp_mortal, effect_weapon, holds_in
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


def hazard_owed(g: GameInterface, u: Unit, t: Unit, w: Any, n: int) -> None:
    """Hazardous: "for each Hazardous weapon that targets were selected for": ``n`` models'
    weapon ``w`` had ``t`` selected as its target but makes no attacks (``t`` was destroyed,
    or is out of sight, first); its tests are owed all the same (a weapon made Hazardous by
    an effect on the target too, as :meth:`attack` counts them)."""
    if u.affected or t.affected:  # (conditions on the game count as not holding for a unit destroyed)
        w = effect_weapon(u, w, t, holds_in(g) if t.alive else None)
    if w.abilities.hazardous:
        u.hazard += (w.name,) * n


def take_hazardous(g: GameInterface, u: Unit, defer: bool = False) -> Generator[Decision, Action, None]:
    """Hazardous: "after that unit has resolved all of its attacks", the tests it owes
    (:attr:`Unit.hazard`), then each failed test one at a time (:meth:`_hazard_wounds`);
    ``defer``: the failed tests wait for :meth:`hazardous_after_charge`."""
    owed, u.hazard = u.hazard, ()
    if not owed or not u.alive:
        return
    mark = g.dice.count
    failed = yield from rerolls.reroll_offers(g, hazardous_tests(len(owed), g.dice, rerolls._may_reroll(g, u.player, u)),
                                     u, u, owed[0])
    dice = g.dice.since(mark)
    weapons = tuple(owed[i] for i in failed)
    if defer and weapons:
        u.hazard_failed += weapons
        g.emit(ev.Hazardous(e="hazardous", unit=u.uid, tests=len(owed), failed=len(weapons), removed_models=[], dice=dice))
        return
    _hazard_wounds(g, u, weapons, len(owed), dice)


def _hazard_wounds(g: GameInterface, u: Unit, weapons: tuple[str, ...], tests: int | None, dice: dict[str, Any]) -> None:
    """The failed Hazardous tests of ``weapons`` resolved one at a time: 3 mortal wounds on a
    model equipped with one of them, one that has lost wounds first. ``tests``: how many
    were taken (None: failed earlier, their mortal wounds allocated now)."""
    mark = g.dice.count
    lost, gone, dead = 0, [], []
    if weapons and u.models:
        own = TargetUnit([m.wounds for m in u.models], u.W, None, None, None, u.fulls(), rank=u.ranks())
        if u.affected:  # Feel No Pain from an effect (mortal wounds)
            own.fnp, own.fnp_mortal = effect_defence(u)[1], effect_fnp_mortal(u)
        names = {w.lower() for w in weapons}
        equipped = [any(m.carries(w) for w in names) for m in u.models] if u.mixed else None
        lost = own.hazardous(len(weapons), g.dice, equipped)  # each failed test one at a time
        if own.fnp_saved:
            fnp_pain(g, u, own.fnp_saved)  # e.g. Regenerative Agony
        for m, wl in zip(u.models, own.wounds):
            m.wounds = wl
        gone = [i for i, m in enumerate(u.models) if m.wounds <= 0]
        dead = [u.models[i] for i in gone]
        if gone:
            u.models = [m for m in u.models if m.wounds > 0]
            kept.touch(g, u)
    fail = len(weapons)
    dice = {**dice, **g.dice.since(mark)}
    wounds = HAZARDOUS_MORTAL_WOUNDS * fail
    if tests is None:  # failed before, resolved now (there is one at least)
        g.emit(ev.Hazardous(e="hazardous", unit=u.uid, failed=fail, mortal_wounds=wounds, lost=lost,
                               destroyed=len(gone), removed_models=gone, dice=dice))
    elif fail:
        g.emit(ev.Hazardous(e="hazardous", unit=u.uid, tests=tests, failed=fail, mortal_wounds=wounds, lost=lost,
                               destroyed=len(gone), removed_models=gone, dice=dice))
    else:
        g.emit(ev.Hazardous(e="hazardous", unit=u.uid, tests=tests, failed=0, removed_models=gone, dice=dice))
    models_destroyed(g, u, dead)
    shooting.check_destroyed(g, u)


def hazardous_after_charge(g: GameInterface) -> None:
    """Hazardous: "any mortal wounds inflicted by Hazardous tests are allocated after the
    charging unit has ended its Charge move" for a unit that fired Overwatch at it (Set
    Overwatch in Boarding Actions, read as the Fire Overwatch it replaces)."""
    for u in g.units.values():
        if u.hazard_failed:
            weapons, u.hazard_failed = u.hazard_failed, ()
            if u.alive:
                _hazard_wounds(g, u, weapons, None, {})
