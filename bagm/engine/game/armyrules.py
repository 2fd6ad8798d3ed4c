"""Faction army rules that act at a step of the turn: a marked enemy unit that moves each Command
phase (Oath of Moment); destroyed models that return (Transdimensional Reinforcement).

Each is an :class:`~bagm.data.models.Effect` field given by an ability table entry (a faction
pack's ``abilities:``); these steps play it. An army whose units have none of them pays one look
at its units' effects per step.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING

from bagm.engine.board.geometry import Base
from bagm.engine.game import command, deployment, kept, moments, positions
from bagm.engine.rules.effects import effect_first
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


def command_marks(g: GameInterface, p: Player) -> dict[str, str]:
    """Player ``p``'s rules that select an enemy unit at the start of their Command phase
    and have not yet in this phase: rule -> the first of their units that has it."""
    out: dict[str, str] = {}
    for u in g.army_units(p):
        if not u.affected:
            continue
        for name, e in u.standing:
            if e.mark_enemy and e.mark_at == "command" and name not in out and \
                    (p, f"{name} mark", g.phase_id) not in g.used:
                out[name] = u.uid
    return out


def _command_marks(g: GameInterface) -> Generator[Decision, Action, None]:
    """Oath of Moment: "at the start of your Command phase, select one unit from your
    opponent's army; until the start of your next Command phase it is your Oath of Moment
    target". The previous target stops being one as the new one is selected (or, with no
    enemy unit on the battlefield to select, at once)."""
    p = g.active
    while True:
        pending = command_marks(g, p)
        if not pending:
            return
        rule, uid = next(iter(pending.items()))
        enemies = g.army_units(g.other(p))
        t: Unit | None = None
        if enemies:
            act = yield g.ask("mark", p, {"unit": uid, "rule": rule})
            t = g.unit(act.target, g.other(p))
        for v in g.units.values():  # "until the start of your next Command phase"
            if v.player != p and rule in v.marked:
                v.marked = v.marked - {rule}
        g.used.add((p, f"{rule} mark", g.phase_id))
        if t is not None:
            t.marked = t.marked | {rule}
            g.emit(ev.Mark(e="mark", unit=uid, target=t.uid, rule=rule))


def _marks_again(g: GameInterface) -> Generator[Decision, Action, None]:
    """Manhunter's Helm (``mark_again``): "each time your Priority Target is destroyed, if the
    bearer is on the battlefield, you can select a new enemy unit to be your Priority Target".
    Reading: the new one is selected at the next Battlefield Command window (the end of the
    phase at the latest), the active player first; selecting one never hurts, so it is made."""
    # (asked at every Battlefield Command window: first whether any unit was ever selected by a
    # rule, a look at a few flags, then whether the army could have the rule)
    if not any(v.marked for v in g.units.values()):
        return
    for p in (g.active, g.other(g.active)):
        if not any(v.marked for v in g.armies[g.other(p)].units) or not g.armies[p].may_set("mark_again"):
            continue
        for b in g.army_units(p):
            if not b.affected:
                continue
            for rule, e in b.standing:
                if not (e.mark_again and e.mark_enemy):
                    continue
                foes = [v for v in g.units.values() if v.player != p]
                if any(rule in v.marked and v.alive for v in foes) or \
                        not any(rule in v.marked for v in foes) or not g.army_units(g.other(p)):
                    continue  # its target stands, or none was ever selected, or none is left
                act = yield g.ask("mark", p, {"unit": b.uid, "rule": rule})
                t = g.unit(act.target, g.other(p))
                t.marked = t.marked | {rule}
                g.emit(ev.Mark(e="mark", unit=b.uid, target=t.uid, rule=rule))


def legal_mark(g: GameInterface, p: Player) -> list[Action]:
    """Each enemy unit on the battlefield, for the rule the decision names."""
    uid = g.decision.info["unit"]
    return [Action("mark", uid, target=e.uid) for e in g.army_units(g.other(p))]


# --- Transdimensional Reinforcement (Necrons, Boarding Actions) ----------------------------

def reinforce(g: GameInterface, u: Unit, need: int, rule: str) -> None:
    """Transdimensional Reinforcement (the Boarding Actions Necrons army rule, in place of
    Reanimation Protocols): the unit requests reinforcement: one D6 for each of its destroyed
    models, each X+ returns one with its full wounds, set up in Unit Coherency with the
    unit's models (one that does not fit stays destroyed); a destroyed unit's returned
    models are set up wholly within one of its player's Entry Zones, or it stays destroyed."""
    lost = u.starting - len(u.models)
    rolls = [g.dice.d6(f"{rule} {u.uid}") for _ in range(lost)]
    back = sum(r >= need for r in rolls)
    at: list[tuple[float, float]] = []
    if back and u.models:  # on the battlefield: in Unit Coherency
        for _ in range(back):
            q = _return_point(g, u)
            if q is None:
                break
            u.models.append(u.new_models([(m.x, m.y) for m in u.models] + [q])[-1])
            kept.touch(g, u)
            at.append(q)
    elif back:  # destroyed: set back up wholly within one of its Entry Zones
        u.models = u.new_models([(0.0, 0.0)] * back)
        for zone in deployment.entry_zones(g, u.player):
            u.where = "board"
            if deployment.set_up(g, u, zone.centre, zone=zone):
                at = [(m.x, m.y) for m in u.models]
                break
            u.where = "destroyed"
        else:
            u.models = []
    # ``at``: where the unit's models stand after (none returned: nothing changes)
    g.emit(ev.Reinforce(e="reinforce", unit=u.uid, rule=rule, rolls=rolls, returned=len(at),
              at=[[round(m.x, 2), round(m.y, 2)] for m in u.models] if at else []))


def return_models(g: GameInterface, u: Unit, n: int, rule: str) -> None:
    """Up to ``n`` destroyed models of ``u`` (on the battlefield) return with their full wounds,
    each set up in Unit Coherency as Transdimensional Reinforcement's (:meth:`_return_point`);
    one that does not fit stays destroyed (Song of Renewal, Pox-Bearer)."""
    back = 0
    for _ in range(min(n, u.starting - len(u.models))):
        q = _return_point(g, u) if u.models else None
        if q is None:
            break
        u.models.append(u.new_models([(m.x, m.y) for m in u.models] + [q])[-1])
        kept.touch(g, u)
        back += 1
    g.emit(ev.Reinforce(e="reinforce", unit=u.uid, rule=rule, rolls=[], returned=back,
              at=[[round(m.x, 2), round(m.y, 2)] for m in u.models] if back else []))


def revivals(g: GameInterface) -> None:
    """Resurrection Protocols: "the first time the bearer is destroyed, roll one D6 at the end of
    the phase. On a 2+, set the bearer back up on the battlefield, as close as possible to where it
    was destroyed and not within Engagement range of any enemy units, with D3 wounds remaining".
    Reading: its one model (the bearer) comes back; "as close as possible": the first point that
    fits on rings 1" apart around where it fell, out to 12"."""
    for u in g.units.values():
        if u.revive is None or u.where != "destroyed":
            continue
        _, x, y = u.revive
        u.revive = None
        rule = u.source("revive_roll")
        need = effect_first(u, "revive_roll")
        g.used.add((u.player, f"{rule} {u.uid}", 0))  # "the first time"
        roll = g.dice.d6(f"{rule} {u.uid}")
        g.emit(ev.RuleRoll(e="rule_roll", player=u.player, rule=rule, roll=roll))
        if roll < need:
            continue
        u.models = u.new_models([(x, y)])[:1]
        spots = [(x, y)] + [(x + d * math.cos(math.pi * k / 6), y + d * math.sin(math.pi * k / 6))
                            for d in range(1, 13) for k in range(12)]
        for at in spots:
            if g.bf.layout.board_at(at) is not None and deployment.set_up(g, u, at):
                break
        else:
            u.models, u.where = [], "destroyed"
            continue
        back = effect_first(u, "revive_wounds")
        w = g.dice.roll_expr(back, f"{rule} {u.uid}") if back is not None else u.W
        u.models[0].wounds = min(w, u.models[0].wounds)
        g.emit(ev.Note(e="note", text=f"{u.uid} is set back up ({rule}) with {u.models[0].wounds} wounds remaining"))


def reinforce_on_death(g: GameInterface, u: Unit) -> None:
    """"If this unit is destroyed without having requested reinforcement, after removing the
    last model it immediately requests reinforcement"."""
    for s in g.armies[u.player].uses:
        if s.bearer == u.uid and s.kind == "Ability" and any(e.reinforce_roll for e in s.effects):
            key = moments._once(g, u.player, s)
            if key not in g.used:
                g.used.add(key)
                g.emit(ev.RuleUsed(e="rule_used", player=u.player, name=s.name, kind=s.kind))
                need = next(e.reinforce_roll for e in s.effects if e.reinforce_roll)
                reinforce(g, u, need, s.name)
            return


def return_on_kill(g: GameInterface, u: Unit, t: Unit, kills: int) -> None:
    """Curse of the Walking Pox: "each time a model in this unit makes an attack that destroys an
    enemy model (excluding MONSTER and VEHICLE models), after this unit has resolved its attacks,
    you can return one destroyed model to this unit" (in Unit Coherency, as a reinforcement's).
    Reading: once each weapon's attacks are resolved (a unit with it has one melee weapon)."""
    rule = next((n for n, e in u.standing if e.return_on_kill and not any(k in t.keywords for k in e.target_lacks)),
                None)
    if rule is None:
        return
    back = 0
    for _ in range(min(kills, u.starting - len(u.models))):
        q = _return_point(g, u)
        if q is None:
            break
        u.models.append(u.new_models([(m.x, m.y) for m in u.models] + [q])[-1])
        kept.touch(g, u)
        back += 1
    if back:  # ``at``: where the unit's models stand after
        g.emit(ev.ModelsReturn(e="models_return", unit=u.uid, rule=rule, returned=back,
                  at=[[round(m.x, 2), round(m.y, 2)] for m in u.models]))


def _return_point(g: GameInterface, u: Unit) -> tuple[float, float] | None:
    """Where a destroyed model of ``u`` is set up again: in Unit Coherency with its models (1"
    from one of them, no Wall between), on the battlefield, on no other model, and not within
    Engagement Range of an enemy unit unless that unit is already within Engagement Range of
    ``u``. The first such point going round each of its models in turn; None: none."""
    r = u.radius
    pts = [(m.x, m.y) for m in u.models]
    engaged = {v.uid for v in positions.engaged_with(g, u)}
    enemies = [m.base for v in g.army_units(g.other(u.player)) if v.uid not in engaged for m in v.models]
    others = positions.others_bases(g, u) + u.bases
    gap = 2 * r + 1.0
    for m in u.models:
        for k in range(12):
            a = math.pi * k / 6
            q = (m.x + gap * math.cos(a), m.y + gap * math.sin(a))
            b = Base(q[0], q[1], r)
            if g.bf.layout.board_at(q) is None or not positions.fits(g, b):
                continue
            if any(math.hypot(o.x - q[0], o.y - q[1]) < o.radius + r - 1e-9 for o in others):
                continue
            if any(positions.model_engaged(g, b, e) for e in enemies):
                continue
            if g.bf.distance(m.base, b) > 1.0 + 1e-6 or not positions.coherent(g, pts + [q], r):
                continue
            return q
    return None


# --- at the start of the Fight phase ----------------------------------------------------

def _fight_start_rules(g: GameInterface) -> Generator[Decision, Action, None]:
    """Fearsome Assault, Terminatus Assault, Voices in the Code: "at the start of the Fight
    phase, each enemy unit within Engagement Range of one or more units with this ability must
    take a Battle-shock test" (X added: ``fight_shock``, and ``shock_below_half_mod`` for a unit
    Below Half-strength); the active player's rules first."""
    for p in (g.active, g.other(g.active)):
        tests: dict[str, tuple[str, int]] = {}
        for u in g.army_units(p):
            for name, e in u.standing if u.affected else ():
                if e.fight_shock is None:
                    continue
                for t in positions.engaged_with(g, u):
                    old = tests.get(t.uid)
                    # Horrifying Beauty: "subtracting 1 from that test if that enemy unit is Below Half-strength"
                    mod = e.fight_shock + (e.shock_below_half_mod if t.below_half() else 0)
                    tests[t.uid] = (name, mod if old is None else min(old[1], mod))
        for uid, (name, mod) in tests.items():
            yield from command.battleshock_test(g, g.unit(uid), name, mod)
