"""Objective control (Core Rules "Objective Markers"; Rules Adaptations: within 1"; a
Battle-shocked unit has OC 0; Tactical Manoeuvres "Secure Site": a Secured marker stays until the
opponent controls it at the start or end of a turn)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface

import math
from collections.abc import Generator
from functools import partial

from bagm.engine.game import kept, movement, positions
from bagm.engine.rules.effects import effect_first, effect_has, effect_sum, engaged_oc_mod, holds_in
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Model, Unit
from bagm.engine.state.core import Decision, Player


def levels_of_control(g: GameInterface) -> list[dict[str, int]]:
    """Each player's Level of Control over each objective marker (OC of models within 1")."""
    out = [{"A": 0, "B": 0} for _ in g.map.layout.markers]
    holds = holds_in(g)  # an OC modifier "while ..." a condition on the game (near a marker...)
    # Overwhelming Magnificence: enemy units in Engagement Range of such a unit lose OC
    auras = {u.player for u in g.units.values() if u.alive and u.affected
             and (effect_sum(u, "engaged_enemy_OC_mod") or effect_sum(u, "OC_aura_mod"))}
    for u in g.units.values():
        if not u.alive:
            continue
        # a sum of whole numbers: adding each unit's models at once gives the same levels
        counts = in_range_counts(g, u)
        aura = engaged_oc_mod(g, u) if auras and g.other(u.player) in auras else 0
        if u.mixed_oc:  # models of different OC (a Heavy Weapon Platform's 0): each its own
            for i, (level, c) in enumerate(zip(out, counts)):
                if c:
                    level[u.player] += sum(max(0, oc + aura) if (oc := u.oc(m, holds)) else 0
                                           for m in _models_in_range(g, u, i))
            continue
        oc = u.oc(None, holds)
        if aura and oc:
            oc = max(0, oc + aura)
        for level, c in zip(out, counts):
            if c:
                level[u.player] += c * oc
    return out


def control_levels(g: GameInterface) -> list[dict[str, int]]:
    """:meth:`levels_of_control`, kept until anything on the battlefield changes or the OC of
    a unit within range of an objective marker does (Battle-shock, conferred Leader abilities
    and effects that hold while a condition on the game holds change it): a unit within range
    of none adds nothing to any level, whatever its OC, so only those units' OC is looked at.
    Across changes, kept while those units stand where they stood (their stamps; :meth:`_levels_kept`)."""
    holds = holds_in(g)
    units = units_in_range(g)
    ocs = tuple([u.oc(None, holds) for u in units])
    cache, key = kept._now(g), ("levels", ocs)  # (asked after every phase: no closure built)
    levels: list[dict[str, int]] | None = cache.get(key)
    if levels is None:
        levels = cache[key] = _levels_kept(g, units, ocs)
    return levels


def _levels_kept(g: GameInterface, units: list[Unit], ocs: tuple[int, ...]) -> list[dict[str, int]]:
    """:meth:`levels_of_control` kept on what it reads when no aura changes OC and every model
    of a unit within range has the unit's OC: which units are within range of a marker, where
    they stand (their stamps, with the Hatchways: how many of their models are within range of
    each marker) and their OC. A move elsewhere, a unit out of range losing models, keep it."""
    if any(u.mixed_oc for u in units) or any(
            a.may_set("engaged_enemy_OC_mod") or a.may_set("OC_aura_mod") for a in g.armies.values()):
        return levels_of_control(g)  # (Overwhelming Magnificence, Rad-saturation: engagement counts)
    if units:
        kept.stamp(g, units[0])  # brings every stamp up to date: read directly below
    stamps = g._stamps
    key = ("levels", positions.closed(g), tuple([(u.uid, stamps[u.uid]) for u in units]), ocs)
    got = g._by_stamp.get(key)
    if got is None:
        got = g._by_stamp[key] = (levels_of_control(g),)
    levels: list[dict[str, int]] = got[0]
    return levels


def units_in_range(g: GameInterface) -> list[Unit]:
    """The units on the battlefield with a model within range of an objective marker (in unit
    order; :meth:`in_range_counts`), kept until anything on the battlefield changes."""
    cache = kept._now(g)
    got: list[Unit] | None = cache.get("in range")
    if got is None:
        got = cache["in range"] = _units_in_range(g)
    return got


def _units_in_range(g: GameInterface) -> list[Unit]:
    """:meth:`units_in_range` worked out again after a change: each unit's answer is kept (for
    the game) with its stamp (where its models stand, whether it is on the battlefield) and the
    Hatchways, so only the units that have moved since are measured (most changes move one)."""
    units = g.units
    kept.stamp(g, next(iter(units.values())))  # brings every stamp up to date: read directly below
    stamps, shut = g._stamps, positions.closed(g)
    last = g._by_stamp.get("in range")  # (the Hatchways, each unit's (stamp, within range))
    if last is None or last[0] != shut:
        last = g._by_stamp["in range"] = (shut, {})
    then: dict[str, tuple[int, bool]] = last[1]
    out = []
    for uid, u in units.items():
        st = stamps[uid]
        was = then.get(uid)
        if was is not None and was[0] == st:
            near = was[1]
        else:
            near = u.alive and any(in_range_counts(g, u))
            then[uid] = (st, near)
        if near:
            out.append(u)
    return out


def _models_in_range(g: GameInterface, u: Unit, i: int) -> list[Model]:
    """The models of ``u`` within range of objective marker ``i`` (as :meth:`_in_range_counts`)."""
    mk = g.map.layout.markers[i]
    return [m for m in u.models if math.hypot(m.x - mk.x, m.y - mk.y) - m.r - mk.radius <= 1.0 + 1e-9
            and g.bf.in_objective_range(m.base, mk)]


def in_range_counts(g: GameInterface, u: Unit) -> tuple[int, ...]:
    """How many models of ``u`` are within range of each objective marker: kept on the unit's
    stamp and the Hatchways, and across moves and games on its positions (a geometry answer)."""
    st, closed = kept.stamp(g, u), positions.closed(g)
    got = g._by_stamp.get(("objn", u.uid))
    if got is None or got[0] != st or got[1] != closed:
        got = g._by_stamp[("objn", u.uid)] = (st, closed, kept._geo(g,
            ("objn", kept.positions(u), closed), partial(_in_range_counts, g, u)))
    counts: tuple[int, ...] = got[2]
    return counts


def near_markers(g: GameInterface, u: Unit) -> tuple[bool, ...]:
    """Whether a model of ``u`` is within range of each objective marker (Core Rules "Objective
    Markers", measured around Walls and closed Hatchways): what the effect conditions
    'near_objective' and 'near_controlled' and Secure-at-once rules ask, many times a turn."""
    return tuple(c > 0 for c in in_range_counts(g, u))


def _in_range_counts(g: GameInterface, u: Unit) -> tuple[int, ...]:
    """How many models of ``u`` are within range of each objective marker (kept across
    moves and games: it depends only on where the unit stands and on the Hatchways)."""
    if not u.models:  # (a destroyed unit: none)
        return (0,) * len(g.map.layout.markers)
    out = []
    x0, y0, x1, y1 = positions.bbox(g, u)
    for mk in g.map.layout.markers:
        n = 0
        if not (mk.x < x0 - 2 or mk.x > x1 + 2 or mk.y < y0 - 2 or mk.y > y1 + 2):
            for m in u.models:
                if math.hypot(m.x - mk.x, m.y - mk.y) - m.r - mk.radius <= 1.0 + 1e-9 and \
                        g.bf.in_objective_range(m.base, mk):
                    n += 1
        out.append(n)
    return tuple(out)


def update_control(g: GameInterface, turn_boundary: bool) -> None:
    """Objective control (Core Rules "Objective Markers"; Rules Adaptations: within 1";
    Battle-shocked OC 0; Secured markers stay until the opponent controls them at the start
    or end of a turn)."""
    new: list[Player | None] = []
    for i, level in enumerate(control_levels(g)):
        raw: Player | None = "A" if level["A"] > level["B"] else "B" if level["B"] > level["A"] else None
        if g.mission.removed(g, i):  # a marker a Mission Rule removed: nobody controls it
            g.secured[i], raw = None, None
        sec = g.secured[i]
        if sec is not None:
            # lost when the opponent controls it at the start or end of a turn (2024), at
            # the end of any phase (2023 Secure Site: "at the end of any subsequent phase")
            if raw == g.other(sec) and (turn_boundary or g.edition.secured_lost_at_phase_end):
                g.secured[i] = None
                new.append(raw)
            else:
                new.append(sec)
        else:
            new.append(raw)
    if new != g.control:
        g.emit(ev.Control(e="control", markers=new))
    g.control = new


# Tactical Manoeuvres "Secure Site" and the effects that Secure or keep markers -------------

def _secure_roll(g: GameInterface, p: Player, u: Unit, need: int) -> None:
    """Select one objective marker you control within range of ``u`` and not yet Secured by
    your army (reading: selecting one already yours would change nothing), then roll."""
    for m, mk in enumerate(g.map.layout.markers):
        if g.control[m] == p and g.secured[m] != p and \
                any(g.bf.in_objective_range(x.base, mk) for x in u.models):
            roll = g.dice.d6(f"secure {u.uid}") if need > 1 else 6
            g.emit(ev.SecureRoll(e="secure_roll", player=p, marker=m + 1, unit=u.uid, roll=roll, secured=roll >= need,
                      rule=u.source("secure_roll")))
            if roll >= need:
                _secures(g, p, m)
            return


def marker_to_secure(g: GameInterface, u: Unit, how: str) -> int | None:
    """The objective marker a rule used on ``u`` Secures at once (``secure_now``): the first
    within range of it and not yet Secured by its army that its army controls ('controlled'),
    or that no enemy unit is within range of ('uncontested')."""
    p = u.player
    near = near_markers(g, u)  # (kept on the units' stamps: asked at every window it is offered)
    for m in range(len(g.map.layout.markers)):
        if g.secured[m] == p or not near[m]:
            continue
        if how == "controlled" and g.control[m] != p:
            continue
        if how == "uncontested" and any(near_markers(g, v)[m] for v in g.army_units(g.other(p))):
            continue
        return m
    return None


def _secures(g: GameInterface, p: Player, m: int) -> bool:
    """Objective marker ``m`` is Secured by ``p``'s army, unless an enemy effect undoes it
    ("the first time your opponent's army Secures an objective marker, on a 3+ it is not")."""
    for v in g.army_units(g.other(p)):
        for name, e in v.standing if v.affected else ():
            if e.spoil_secure is not None and (v.player, name, 0) not in g.used:
                g.used.add((v.player, name, 0))  # the first time in the battle
                roll = g.dice.d6(f"{name} {v.uid}")
                g.emit(ev.SecureRoll(e="secure_roll", player=p, marker=m + 1, unit=v.uid, roll=roll,
                          secured=roll < e.spoil_secure, rule=name))
                if roll >= e.spoil_secure:
                    return False
    g.secured[m] = p
    return True


def secured_at_once(g: GameInterface, u: Unit) -> Generator[Decision, Action, None]:
    """``u`` just performed Secure Site. Imperial Insights (Boarding Actions Mustering Rules, Agents
    of the Imperium army rule, in place of Assigned Agents): its objective marker is Secured at once
    instead of at the start of the next Command phase (reading: the unit Seizes it now, so an enemy
    effect that bars Seizing still does); then it can make a Normal move of up to D6" (it still
    cannot shoot or declare a charge: it performed a Tactical Manoeuvre)."""
    m = u.secure_marker
    if m is None or not (u.affected and effect_has(u, "secure_at_once")):
        return
    rule = u.source("secure_at_once")
    u.secure_marker = None  # "instead of at the start of your next Command phase"
    if not _seize_barred(g, u) and _secures(g, u.player, m):
        g.emit(ev.Secured(e="secured", player=u.player, marker=m + 1, unit=u.uid))
    reach = effect_first(u, "move_after_secure")
    if reach is None:
        return
    d = g.dice.roll_expr(reach, f"{rule} {u.uid}")
    g.emit(ev.RuleRoll(e="rule_roll", player=u.player, rule=rule, roll=d))
    act = yield Decision("freemove", u.player, {"unit": u.uid, "reach": d, "rule": rule})
    if act.kind == "move" and act.point is not None and u.alive:
        movement.normal_move(g, u, act.point, float(d), rule)


def _seize_barred(g: GameInterface, u: Unit) -> bool:
    """An enemy effect: "while an enemy unit is within 6\" of the bearer, that unit cannot
    Seize objective markers"."""
    for v in g.army_units(g.other(u.player)):
        for e in v.setting("no_seize_range") if v.affected else ():
            if g.within_reach(
                    v, u, ("straight", e.no_seize_range) if e.straight else e.no_seize_range):
                g.emit(ev.Note(e="note", text=f"{u.uid} cannot Seize objective markers ({v.uid}'s effect)"))
                return True
    return False
