"""The Reinforcements step of the Movement phase (Core Rules "Reinforcements"; Boarding Actions
"Strategic Reserves" and "Deep Strike"): units arriving in an empty Entry Zone, or more than 9"
from every enemy model with Deep Strike, and the Set Overwatch window after each."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any

from bagm.data.models import Effect
from bagm.data.schema import validate
from bagm.engine.game import control, deployment, kept, miracles, moments, positions, shooting
from bagm.engine.rules.army_rules import pain_from
from bagm.engine.rules.effects import (
    early_deep_strike,
)
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import (
    DEEP_STRIKE_GAP,
    Decision,
    IllegalAction,
    Player,
    _pt,
    _r,
)

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


_NO_CHARGE = validate(Effect, {"no_charge": True})


def _reinforcements(g: GameInterface) -> Generator[Decision, Action, None]:
    # Reinforcements step
    p = g.active
    while _may_reinforce(g, p):
        act = yield g.ask("reinforce", p)
        if act.kind == "done":
            break
        u = g.unit(act.unit, p)
        _do_reinforce(g, u, act)
        if u.alive:
            yield from moments.moment(g, "set_up", p, u)  # e.g. Flitting Shadows (Battle Focus)
            yield from shooting._overwatch_window(g, u, "is set up")
    for u in g.army_units(p, "reserves"):  # Stalking Menace: "if this is not possible, the bearer is destroyed"
        if u.recalled is not None:
            lost_in_reserves(g, u, f"not arrived from Strategic Reserves ({u.recalled})")
    control.update_control(g, False)
    # Mission Rules a player may use (Change Level); the phase is the Game itself
    yield from g.mission.decide("movement", g)  # type: ignore[arg-type]
    g.mission_step("end_movement")


def lost_in_reserves(g: GameInterface, u: Unit, why: str) -> None:
    """A unit in Strategic Reserves that cannot arrive is destroyed (Core Rules "Strategic
    Reserves": not arrived by the end of the third battle round; Stalking Menace: "if this is
    not possible, the bearer is destroyed")."""
    u.where, u.models, u.recalled = "destroyed", [], None
    kept.touch(g, u)
    g.emit(ev.Destroyed(e="destroyed", unit=u.uid, why=why))
    pain_from(g, u, "Power from Pain")  # "each time an enemy unit is destroyed"
    miracles.miracle_on_death(g, u)  # Acts of Faith: "each time an ADEPTA SORORITAS unit from your army is destroyed"


# Reinforcements --------------------------------------------------------------------------

def occupied_entry_zones(g: GameInterface) -> tuple[Any, ...]:
    """Every Entry Zone on the map (either player's) with a model of some unit within it."""
    def calc() -> tuple[Any, ...]:
        everyone = [m.base for v in g.units.values() if v.alive for m in v.models]
        return tuple(z for z in g.map.layout.entry_zones if any(z.within(b) for b in everyone))
    return kept._cached(g, "occupied zones", calc)


def _empty_zones(g: GameInterface, p: Player) -> list[int]:
    return kept._cached(g, ("empty", p), lambda: _empty_zones_now(g, p))


def _empty_zones_now(g: GameInterface, p: Player) -> list[int]:
    out = []
    everyone = [m.base for v in g.units.values() if v.alive for m in v.models]
    for z, zone in enumerate(deployment.entry_zones(g, p)):
        if not any(zone.within(b) for b in everyone):
            out.append(z)
    return out


def legal_reinforce(g: GameInterface, p: Player) -> list[Action]:
    out = list(_arrivals(g, p))
    return out + [Action("done")] if out else []


def _may_reinforce(g: GameInterface, p: Player) -> bool:
    """Whether a unit of ``p`` can arrive now (the step is offered): the first arrival that
    fits settles it, without laying out every other."""
    return next(_arrivals(g, p), None) is not None


def _arrivals(g: GameInterface, p: Player) -> Iterator[Action]:
    """The arrivals from Reserves open to ``p`` now, in order, each one only if the unit can
    be set up there (one that cannot would be offered again and again)."""
    res = g.army_units(p, "reserves")
    if not res:
        return
    empty = _empty_zones(g, p)
    for u in res:
        out = []
        if not u.deep_strike_reserve:
            out += [Action("arrive", u.uid, arg=str(z + 1)) for z in empty]
        if (u.deep_strike and (g.round >= 2 or early_deep_strike(g, u) is not None) or u.recalled) and \
                g.deep_struck_turn.get(p) != g.turn:  # e.g. Pre-Emptive Strike: round 1
            for m in g.map.layout.markers:
                out.append(Action("deepstrike", u.uid, point=_r((m.x, m.y))))
            for z in deployment.entry_zones(g, p):
                out.append(Action("deepstrike", u.uid, point=_r(z.centre)))
        yield from (a for a in out if _arrival_fits(g, u, a))


def _arrival(g: GameInterface, u: Unit, act: Action) -> tuple[tuple[float, float], dict[str, Any]]:
    """Where and how a unit arriving from Reserves is set up: an Entry Zone with no models
    in it (Determine Reserves), or by Deep Strike more than 9" from enemy models."""
    if act.kind == "arrive":
        zone = deployment.entry_zones(g, u.player)[int(act.arg or 0) - 1]
        return zone.centre, {"zone": zone}
    # Deployment adaptation: "During the battle, you cannot set up a unit within an Entry
    # Zone if any other unit is within that Entry Zone" (either player's Entry Zone)
    # Deployment adaptation (2024; rules/editions.py), and a Mission Rule's barred zones
    barred = occupied_entry_zones(g) if g.edition.no_set_up_in_occupied_entry_zone else ()
    early = early_deep_strike(g, u)  # e.g. Pre-Emptive Strike: more than 6" away
    return act.point or (0, 0), {"ds_gap": DEEP_STRIKE_GAP if early is None else float(early),
                                 "barred": barred + g.mission.barred(g, u)}


def _arrival_fits(g: GameInterface, u: Unit, act: Action) -> bool:
    """The unit's models can be set up there (the layout _do_reinforce would use)."""
    at, how = _arrival(g, u, act)
    return positions.formation(g, u, at, u.starting if not u.models else len(u.models), **how) is not None


def _check_reinforce(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind == "done":
        return
    if act.kind not in ("arrive", "deepstrike"):
        raise IllegalAction("Reinforcements: 'arrive UNIT ZONE', 'deepstrike UNIT x,y' or 'done'",
                            "Reinforcements")
    u = g.unit(act.unit, p)
    if u.where != "reserves":
        raise IllegalAction(f"{u.label()} is not in Reserves", "Reinforcements", u.uid)
    if act.kind == "arrive":
        if u.deep_strike_reserve:
            raise IllegalAction(f"{u.label()} was placed into Reserves with Deep Strike: it arrives by Deep Strike",
                                "Deep Strike Ability", u.uid)
        z = int(act.arg or 0) - 1
        if z not in _empty_zones(g, p):
            raise IllegalAction(f"Entry Zone {z + 1} has models in it (or does not exist)",
                                "Determine Reserves: an Entry Zone with no models in it", u.uid)
        if not _arrival_fits(g, u, act):
            raise IllegalAction(f"{u.label()} cannot be set up in Entry Zone {z + 1}: its models do not "
                                "fit there (clear of other bases and of Engagement Range of enemy models)",
                                "Determine Reserves: set up wholly within an Entry Zone", u.uid)
    else:
        if not u.deep_strike and u.recalled is None:
            raise IllegalAction(f"{u.label()} has no Deep Strike ability", "Deep Strike", u.uid)
        if g.round < 2 and early_deep_strike(g, u) is None and u.recalled is None:  # e.g. Pre-Emptive Strike
            raise IllegalAction("Deep Strike units arrive from the second battle round",
                                "Deep Strike Ability (Before the Battle)", u.uid)
        if g.deep_struck_turn.get(p) == g.turn:
            raise IllegalAction("only one unit per battle round arrives by Deep Strike",
                                "Deep Strike Ability (Before the Battle)", u.uid)
        try:
            g.bf._check(act.point or (-1, -1))
        except ValueError as exc:
            raise IllegalAction(f"{u.label()}: {exc}", "Deep Strike", u.uid) from None
        if not _arrival_fits(g, u, act):
            raise IllegalAction(f"{u.label()} cannot be set up by Deep Strike at {_pt(act.point or (0, 0))}: "
                                "its models do not fit there more than 9\" from enemy models",
                                "Deep Strike", u.uid)


def _do_reinforce(g: GameInterface, u: Unit, act: Action) -> None:
    p = u.player
    at, how = _arrival(g, u, act)
    if act.kind != "arrive":
        g.deep_struck_turn[p] = u.struck_turn = g.turn
    # Deep Strike: more than 9" from enemy models, measured ignoring Walls and Hatchways
    ok = deployment.set_up(g, u, at, **how)
    if not ok:
        g.emit(ev.Note(e="note", text=f"{u.uid} could not be set up there; it stays in Reserves"))
    elif u.recalled is not None:  # Stalking Menace: "until the end of the turn, it cannot declare a charge"
        u.timed += ((u.recalled, _NO_CHARGE, "turn"),)
        u.recalled = None


def recall(g: GameInterface, u: Unit, rule: str, deep_strike_back: bool = False) -> None:
    """A rule (``to_reserves``) removes ``u`` from the battlefield into Strategic Reserves (its
    models keep their wounds). Stalking Menace (``deep_strike_back``): it arrives in the
    Reinforcements step of its player's next Movement phase as if it had the Deep Strike ability
    (reading: in that step whatever the battle round, since the rule names it; more than 9" from
    enemy models, one Deep Strike a turn), or is destroyed."""
    u.where, u.deep_strike_reserve, u.late_reserve = "reserves", False, True  # (not lost after round 3)
    if deep_strike_back:
        u.recalled, u.deep_strike_reserve = rule, True
    kept.touch(g, u)
    g.emit(ev.Reserves(e="reserves", unit=u.uid, deep_strike=deep_strike_back, why=rule))
