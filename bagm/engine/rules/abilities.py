"""Datasheet abilities that act when something happens rather than standing on the unit.

A datasheet ability's standing effects (Feel No Pain, Stealth, Fights First, Lone Operative)
are :class:`bagm.data.models.Effect` values set at muster and applied by
:mod:`bagm.engine.rules.effects`; the ones here act at a moment the phase code reports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.effects import effect_first, effect_has, label_effect
from bagm.engine.state import events as ev
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.state.army import Model, Unit

DEADLY_DEMISE_RANGE = 6.0  # Core Rules "Deadly Demise": each unit within 6" of that model


def stationary_weapons(game: GameInterface, p: Player) -> None:
    """The end of player ``p``'s Movement phase: each of their units with ``stationary_weapons``
    that Remained Stationary has those weapons until the start of their next turn (DS8 Support
    Turret: "if this unit Remains Stationary, until the start of your next turn, its Shas'ui model
    is equipped with the support turret weapon"); a label on its timed effects says so."""
    for u in game.army_units(p):
        if u.moved == "stationary" and u.affected and effect_has(u, "stationary_weapons"):
            rule = u.source("stationary_weapons")
            u.timed = tuple(x for x in u.timed if x[0] != rule) + ((rule, label_effect(), f"next command {p}"),)
            game.emit(ev.Effect(e="effect", unit=u.uid, rule=rule, until="next"))


def weapons_off(u: Unit) -> frozenset[str]:
    """The weapons (lower case, profile groups) ``u`` is not equipped with now: those of its
    ``stationary_weapons`` effects while it has not Remained Stationary (:func:`stationary_weapons`)."""
    off: set[str] = set()
    for rule, e in u.standing:  # a datasheet ability's (standing; a short scan, asked per shooting)
        if e.stationary_weapons and not any(x[0] == rule for x in u.timed):
            off |= {n.lower() for n in e.stationary_weapons}
    return frozenset(off)


def _last_spite(game: GameInterface, u: Unit, dead: list[Model]) -> None:
    """"When the bearer is destroyed, before removing it from the battlefield, select one enemy
    unit within Engagement Range of the bearer and roll one D6" (``mortals_on: destroyed``).
    Reading: the enemy unit selected is the first within Engagement Range of the models that
    just fell (the player's choice, made for them: the one with the most models left)."""
    for name, e in u.standing:
        if e.mortals_on != "destroyed":
            continue
        near = [v for v in game.army_units(game.other(u.player))
                if any(game.model_engaged(m.base, n.base) for m in dead for n in v.models)]
        if near:
            game._mortals(u, max(near, key=lambda v: len(v.models)), name, e)


def models_destroyed(game: GameInterface, u: Unit, dead: list[Model]) -> None:
    """Models of ``u`` were just destroyed (already taken off its list, standing where they
    fell). Core Rules "Deadly Demise X": for each such model, roll one D6; on a 6, each unit
    within 6" of it suffers X mortal wounds (a dice X rolled separately for each unit).

    Readings: "each unit" is every unit on the battlefield, friend or foe, the model's own unit
    included; distances are measured around Walls and closed Hatchways (Boarding Actions
    "Measurement"); the mortal wounds spill over from model to model and may set off the
    Deadly Demise of the models they destroy."""
    if not dead or not u.affected:
        return
    if u.models and not any(m.own is None and m.full is None and not m.ld_diff for m in u.models) and \
            effect_has(u, "crewed"):  # Crewed Platform: "when the last Guardian Defender model ... is
        # destroyed, any remaining Heavy Weapon Platform models in this unit are also destroyed"
        rest, u.models = u.models, []
        game.touch(u)
        game.emit(ev.Crewed(e="crewed", unit=u.uid, destroyed=len(rest), rule=u.source("crewed")))
        dead = dead + rest
    if not u.models and effect_first(u, "revive_roll") is not None and \
            (u.player, f"{u.source('revive_roll')} {u.uid}", 0) not in game.used:
        u.revive = (game.phase_id, dead[-1].x, dead[-1].y)  # Resurrection Protocols: where it fell
    if not u.models and any(e.mortals_on == "destroyed" for _, e in u.standing):
        _last_spite(game, u, dead)  # e.g. Fountaining Filth: the bearer's last act
    x = effect_first(u, "deadly_demise")
    if x is None:
        return
    from bagm.engine.rules.missions.base import suffer_mortal_wounds

    for m in dead:
        roll = game.dice.d6(f"deadly demise {u.uid}")
        hit = []
        if roll == 6:
            for p in sorted(game.armies):
                for other in game.army_units(p):
                    if other.models and min(game.bf.distance(m.base, n.base) for n in other.models) \
                            <= DEADLY_DEMISE_RANGE + 1e-9:
                        hit.append(other)
        game.emit(ev.DeadlyDemise(e="deadly_demise", unit=u.uid, roll=roll, units=[o.uid for o in hit]))
        for other in hit:
            amount = game.dice.roll_expr(x, f"deadly demise {u.uid} on {other.uid}")
            suffer_mortal_wounds(game, other, amount, f"Deadly Demise ({u.uid})")
