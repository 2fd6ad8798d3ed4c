"""The Command phase (Core Rules "Command Phase"): the Command step (1CP each, Battle-shock
ends, Secure Site and the effects acting then, wounds regained), the Battle-shock step (tests,
Insane Bravery, effects that force or modify a test); the end of the phase (Mission Rules used
then) is a mission step of sequence.py. Battlefield Command windows at its start and end are moments (moments.py)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from bagm.engine.game import control, miracles, moments, rerolls
from bagm.engine.rules.army_rules import cp_rolls, pain_from, pain_in_command
from bagm.engine.rules.effects import effect_has, effect_least, effect_sum, holds_in, shock_aura, shock_roll
from bagm.engine.rules.stratagems import INSANE_BRAVERY, may_use, use
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


def _command_step(g: GameInterface) -> None:
    p = g.active
    g.mission_step("start_command")  # e.g. Destroy Ground Targets
    for q in (p, g.other(p)):  # Command step: both players gain 1CP
        g.gain_cp(q, 1, "Command phase")
    pain_in_command(g, p)  # Power from Pain, Pain Adept
    cp_rolls(g, p)  # e.g. Coordinated Leadership: "in your Command phase, roll one D6"
    for u in g.army_units(p):
        if u.battleshocked:
            g.emit(ev.BattleshockEnds(e="battleshock_ends", unit=u.uid))
        u.battleshocked = False  # lasts until the start of your next Command phase
        u.set_to_defend = False  # Set to Defend: until the start of your next Command phase
    # Tactical Manoeuvres "Secure Site": at the start of your next Command phase
    for u in g.army_units(p):
        m = u.secure_marker
        u.secure_marker = None
        if m is not None and not u.battleshocked and g.control[m] == p and \
                any(g.bf.in_objective_range(x.base, g.map.layout.markers[m]) for x in u.models) and \
                not control._seize_barred(g, u):
            if control._secures(g, p, m):
                g.emit(ev.Secured(e="secured", player=p, marker=m + 1, unit=u.uid))
    for u in g.army_units(p):  # an effect: "on a 2+, that objective marker is Secured"
        if u.affected and (need := effect_least(u, "secure_roll")) is not None:
            control._secure_roll(g, p, u, need)
    for u in [*g.army_units(p), *g.army_units(g.other(p))]:
        if u.affected and (n := effect_sum(u, "regain_wounds")):
            _regain(g, u, n)  # an effect: "in each player's Command phase, regains a wound"


def _regain(g: GameInterface, u: Unit, n: int) -> None:
    fulls = u.fulls() or [u.W] * len(u.models)
    for m, full in zip(u.models, fulls):
        if m.wounds < full:
            got = min(n, full - m.wounds)
            m.wounds += got
            g.emit(ev.RegainWounds(e="regain_wounds", unit=u.uid, wounds=got, rule=u.source("regain_wounds")))
            return


def _battleshock_step(g: GameInterface) -> Generator[Decision, Action, None]:
    p = g.active
    # enemy effects: "that unit must take a Battle-shock test" (one test in the phase at most):
    # uid -> (the rule, the modifier to its test), e.g. Chastisor Auto-Vox, Harmonic Discordator
    near = shock_aura(g, p)
    for v in [v for v in g.army_units(g.other(p)) if v.affected]:
        for name, e in v.standing:  # "at the start of the Battle-shock step, select one enemy unit within 3""
            options = [u for u in g.army_units(p) if e.shock_select is not None and
                       g.within_reach(v, u, e.shock_select)]
            if options:
                act = yield Decision("shock", v.player, {"unit": v.uid, "rule": name,
                                                         "options": [u.uid for u in options]})
                t = g.unit(act.target, p)
                g.emit(ev.Mark(e="mark", unit=v.uid, target=t.uid, rule=name))
                mod = e.shock_below_half_mod if t.below_half() else 0
                near[t.uid] = (name, min(mod, near[t.uid][1])) if t.uid in near else (name, mod)
    for u in g.army_units(p):
        if not u.below_half() and u.uid not in near:
            continue
        # an effect: "add 1 to Battle-shock tests"; an enemy's aura: "subtract 1" (Feculent Despair)
        mod = effect_sum(u, "battleshock_mod", holds_in(g))
        if u.uid in near:
            mod += near[u.uid][1]  # "if that enemy unit is also Below Half-strength, subtract 1"
        ld = u.leadership(holds_in(g))  # the best Leadership of the models left
        miracle = yield from miracles.act_of_faith(g, u, "battle-shock", 2, ld - mod)  # Acts of Faith: one of the dice
        roll = (shock_roll(g, u, f"battle-shock {u.uid}") if miracle is None else
                miracles.shock_dice_with(g, u, miracle, f"battle-shock {u.uid}")) + mod  # 2D6 (3D6: Synapse)
        ok = roll >= ld
        test = ev.BattleshockTest(e="battleshock_test", unit=u.uid, roll=roll, ld=ld, passed=ok)
        if u.uid in near:
            test["why"] = near[u.uid][0]
            if near[u.uid][1]:
                test["mod"] = near[u.uid][1]
        g.emit(test)
        # an effect: "you can re-roll Leadership tests taken for that unit"
        if not ok and miracle is None and u.affected and effect_has(u, "reroll_leadership") and (
                yield from rerolls._effect_reroll(g, p, u, "reroll_leadership", {"roll": roll, "needed": ld,
                                                      "what": "battle-shock"})):
            roll = shock_roll(g, u, f"battle-shock {u.uid} re-roll") + mod
            ok = roll >= ld
            g.emit(ev.BattleshockTest(e="battleshock_test", unit=u.uid, roll=roll, ld=ld, passed=ok, reroll=True))
        if not ok:
            yield from moments.moment(g, "battleshock_failed", p, u)
            if may_use(g, p, INSANE_BRAVERY, u):
                act = yield Decision("bravery", p, {"unit": u.uid})
                if act.kind == "bravery":
                    use(g, p, INSANE_BRAVERY, unit=u)
                    g.emit(ev.Battleshock(e="battleshock", unit=u.uid, shocked=False, why=INSANE_BRAVERY.name))
                    continue
            u.battleshocked = True
            g.emit(ev.Battleshock(e="battleshock", unit=u.uid, shocked=True))
            pain_from(g, u, "Power from Pain")  # "each time an enemy unit fails a Battle-shock test"


def battleshock_test(g: GameInterface, u: Unit, why: str, mod: int = 0) -> Generator[Decision, Action, None]:
    """A Battle-shock test taken outside the Battle-shock step (a rule says "must take a
    Battle-shock test"): 2D6 against Leadership; failed, the unit is Battle-shocked until the
    start of its player's next Command phase. An effect's free re-roll is offered."""
    if not u.alive or u.battleshocked:
        return
    ld = u.leadership(holds_in(g))  # the best Leadership of the models left, as in the Battle-shock step
    # "each time that unit takes a Battle-shock test, subtract 1" (an effect's, as in the step)
    mod += effect_sum(u, "battleshock_mod", holds_in(g))
    miracle = yield from miracles.act_of_faith(g, u, "battle-shock", 2, ld - mod)  # Acts of Faith: one of the dice
    roll = shock_roll(g, u, f"battle-shock {u.uid}") if miracle is None else \
        miracles.shock_dice_with(g, u, miracle, f"battle-shock {u.uid}")  # 2D6 (3D6: Synapse)
    ok = roll + mod >= ld
    test = ev.BattleshockTest(e="battleshock_test", unit=u.uid, roll=roll, ld=ld, passed=ok, why=why)
    if mod:
        test["mod"] = mod
    g.emit(test)
    if not ok and miracle is None and u.affected and effect_has(u, "reroll_leadership") and (
            yield from rerolls._effect_reroll(g, u.player, u, "reroll_leadership",
                                           {"roll": roll, "needed": ld, "what": "battle-shock"})):
        roll = shock_roll(g, u, f"battle-shock {u.uid} re-roll")
        ok = roll + mod >= ld
        g.emit(ev.BattleshockTest(e="battleshock_test", unit=u.uid, roll=roll, ld=ld, passed=ok, reroll=True, why=why))
    if not ok:
        u.battleshocked = True
        g.emit(ev.Battleshock(e="battleshock", unit=u.uid, shocked=True))
        pain_from(g, u, "Power from Pain")  # "each time an enemy unit fails a Battle-shock test"
