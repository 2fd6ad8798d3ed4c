"""Deploy Armies (mission sequence step 7, with the Boarding Actions Deployment adaptation): the
players alternate setting up one unit per Entry Zone (one CHARACTER and one other unit may share
one), Infiltrators within 6" of their Entry Zone, Deep Strike into Reserves (at least half set up
normally); Determine Reserves (step 8); and setting a unit up, which Mission Rules use too."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.game import kept, movement, positions, shooting
from bagm.engine.rules.army_rules import deploys_last
from bagm.engine.rules.effects import effect_first
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import INFILTRATE, Decision, IllegalAction, Player, _pt, _r

if TYPE_CHECKING:
    from bagm.engine.board.battlefield import Area
    from bagm.engine.game.interface import GameInterface


def entry_zones(g: GameInterface, p: Player) -> list[Area]:
    return g.mission.entry_zones(g, p)  # the Entry Zone kinds of a role, by the mission


def _deploy_armies(g: GameInterface) -> Generator[Decision, Action, None]:
    # Deploy Armies: the players alternate, one unit per Entry Zone each
    while True:
        nxt = g.deploy_next
        assert nxt is not None
        # e.g. Insidious Ambushers: "your opponent must set up their entire army before you"
        can = sorted((q for q in (nxt, g.other(nxt)) if _may_deploy(g, q)), key=lambda q: deploys_last(g, q))
        if not can:
            break
        p = can[0]
        g.deploy_next = p
        act = yield g.ask("deploy", p)
        _do_deploy(g, p, act)
        g.deploy_next = g.other(p)


def _determine_reserves(g: GameInterface) -> None:
    # 8. Determine Reserves: everything not set up starts in Strategic Reserves
    for u in g.units.values():
        if u.where == "army":
            u.where = "reserves"
            kept.touch(g, u)
            g.emit(ev.Reserves(e="reserves", unit=u.uid, deep_strike=u.deep_strike_reserve))


def _every_zone_used(g: GameInterface, p: Player) -> bool:
    """Deploy Armies (step 7) read with the Deployment adaptation: a player sets up units
    "until ... all players have set up one unit per Entry Zone", so they stop once every one
    of their Entry Zones has had a unit set up in it; on the way an Entry Zone may take "a
    maximum of one unit without the CHARACTER keyword and a maximum of one unit with" it, so
    a CHARACTER may join a zone that already has a unit without using up another zone. (The
    number of units is not capped at the number of Entry Zones: that left a zone empty and
    sent units to Strategic Reserves whenever a CHARACTER shared a zone.)"""
    return len({z for z, _ in g.deployed[p]}) >= len(entry_zones(g, p))


def _zone_free(g: GameInterface, p: Player, z: int, u: Unit) -> bool:
    """Entry Zone ``z`` of player ``p`` can take ``u`` in Deploy Armies: 2024 Deployment, "a
    maximum of one unit without the CHARACTER keyword and a maximum of one unit with the
    CHARACTER keyword in each Entry Zone"; 2023 (no Deployment adaptation), step 7 as
    written: "that player sets up one unit within that Entry Zone"."""
    if g.edition.character_shares_entry_zone:
        free = (z, u.is_character) not in g.deployed[p]
    else:
        free = all(zz != z for zz, _ in g.deployed[p])
    return free or not u.is_character and _rallied(g, p, z, u)


def _rallied(g: GameInterface, p: Player, z: int, u: Unit) -> bool:
    """Rallying Cry (``entry_zone_two``): "when the bearer is set up in an Entry Zone, you can set
    up two friendly GUARDIANS units within that Entry Zone instead of any other units": ``u``
    may join Entry Zone ``z`` that holds the bearer and fewer than two other units, all GUARDIANS."""
    if not any(v.affected and effect_first(v, "entry_zone_two") is not None for v in g.armies[p].units):
        return False
    zone = entry_zones(g, p)[z]
    here = [v for v in g.army_units(p) if v.models and all(zone.within(m.base) for m in v.models)]
    bearer = next((v for v in here if v.affected and effect_first(v, "entry_zone_two") is not None), None)
    if bearer is None:
        return False
    kw = effect_first(bearer, "entry_zone_two")
    n = sum(1 for zz, ch in g.deployed[p] if zz == z and not ch)  # (set up, or sent to Reserves not fitting)
    return kw in u.keywords and n < 2 and all(kw in v.keywords for v in here if v is not bearer)


def _may_reserve(g: GameInterface, p: Player) -> bool:
    """One more unit of ``p`` may be placed into Reserves with Deep Strike: 2024 Before the
    Battle, "at least half the units in a players army must be set up normally"; the 2023
    text has no such limit."""
    if not g.edition.deep_strike_half_set_up:
        return True
    units = g.armies[p].units
    return (sum(1 for x in units if x.deep_strike_reserve) + 1) * 2 <= len(units)


def _may_deploy(g: GameInterface, p: Player) -> bool:
    """``bool(self._deploy_options(p))`` by the same tests, without building the actions
    (frozen Actions are slow to build, and only whether there is one matters here)."""
    units = g.armies[p].units
    left = [u for u in units if u.where == "army"]
    zones = entry_zones(g, p)
    if not left or _every_zone_used(g, p):
        return False
    for u in left:
        if any(_zone_free(g, p, z, u) for z in range(len(zones))):
            return True
        if u.deep_strike and _may_reserve(g, p):
            return True
    return False


def _deploy_options(g: GameInterface, p: Player) -> list[Action]:
    left = [u for u in g.armies[p].units if u.where == "army"]
    zones = entry_zones(g, p)
    if not left or _every_zone_used(g, p):
        return []
    out = []
    # a Mission Rule may bar an Entry Zone (z) or Reserves (None) now (e.g. Prison Guards)
    no: set[int | None] = {z for z in (*range(len(zones)), None) if g.mission.deploy_reason(g, p, z)}
    for u in left:
        for z in range(len(zones)):
            if _zone_free(g, p, z, u) and z not in no:
                out.append(Action("deploy", u.uid, arg=str(z + 1)))
                if u.infiltrators and g.map.layout.markers and g.edition.infiltrators_near_entry_zone:  # 5" toward the nearest marker (if any)
                    c = zones[z].centre
                    m = min(g.map.layout.markers, key=lambda m: math.dist(c, (m.x, m.y)))
                    d = math.dist(c, (m.x, m.y)) or 1.0
                    k = min(5.0, d) / d
                    out.append(Action("deploy", u.uid, arg=str(z + 1),
                                      point=_r((c[0] + (m.x - c[0]) * k, c[1] + (m.y - c[1]) * k))))
        if u.deep_strike and _may_reserve(g, p) and None not in no:
            out.append(Action("reserve", u.uid))
    return out


def _check_deploy(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind not in ("deploy", "reserve"):
        raise IllegalAction(f"now player {p} sets up a unit: 'deploy UNIT ZONE' or 'reserve UNIT'",
                            "Deploy Armies")
    u = g.unit(act.unit, p)
    if u.where != "army":
        raise IllegalAction(f"{u.label()} is already set up or in Reserves", "Deploy Armies", u.uid)
    if act.kind == "reserve":
        if not u.deep_strike:
            raise IllegalAction(f"{u.label()} has no Deep Strike ability", "Deep Strike Ability", u.uid)
        if not _may_reserve(g, p):
            raise IllegalAction("at least half the units of an army must be set up normally",
                                "Deep Strike Ability (Before the Battle)", u.uid)
        if (why := g.mission.deploy_reason(g, p, None)) is not None:  # e.g. Prison Guards
            raise IllegalAction(why[1], why[0], u.uid)
        return
    zones = entry_zones(g, p)
    z = int(act.arg or 0) - 1
    if not 0 <= z < len(zones):
        raise IllegalAction(f"player {p} has Entry Zones 1 to {len(zones)}", "Deploy Armies", u.uid)
    if not _zone_free(g, p, z, u):
        if not g.edition.character_shares_entry_zone:
            raise IllegalAction(f"Entry Zone {z + 1} already has a unit", "Deploy Armies (step 7): "
                                "one unit per Entry Zone (2023: no CHARACTER may share it)", u.uid)
        kind = "CHARACTER" if u.is_character else "non-CHARACTER"
        raise IllegalAction(f"Entry Zone {z + 1} already has a {kind} unit",
                            "Deployment: one CHARACTER and one non-CHARACTER unit per Entry Zone", u.uid)
    if _every_zone_used(g, p):
        raise IllegalAction("every Entry Zone has been used", "Deploy Armies", u.uid)
    if (why := g.mission.deploy_reason(g, p, z)) is not None:  # e.g. Prison Guards
        raise IllegalAction(why[1], why[0], u.uid)
    if act.point is not None:
        if not u.infiltrators:
            raise IllegalAction(f"{u.label()} does not have the Infiltrators ability: it is set up "
                                "wholly within the Entry Zone", "Deployment (Infiltrators)", u.uid)
        if not g.edition.infiltrators_near_entry_zone:
            raise IllegalAction("the 2023 edition has no Deployment adaptation for Infiltrators (and "
                                "the engine does not model the Core Rule's set-up): it is set up "
                                "wholly within the Entry Zone", "Deployment (Infiltrators)", u.uid)
        if not movement.layout_ok(g, act.point) or zone_gap(g, zones[z], act.point, 0.0) > INFILTRATE:
            raise IllegalAction(f"{_pt(act.point)} is not within 6\" of Entry Zone {z + 1}",
                                "Deployment (Infiltrators)", u.uid)
        cell = g.map.layout.zone_at(act.point)
        for area in g.mission.barred(g, u):  # e.g. the Prison Cells (Jailbreak)
            if cell in area.zones:
                raise IllegalAction(f"{_pt(act.point)} is within the {area.kind}: {u.label()} cannot be "
                                    "set up there by any ability", area.kind, u.uid)


def _do_deploy(g: GameInterface, p: Player, act: Action) -> None:
    u = g.unit(act.unit, p)
    if act.kind == "reserve":
        u.where = "reserves"
        kept.touch(g, u)
        u.deep_strike_reserve = True
        g.emit(ev.Reserve(e="reserve", unit=u.uid))
        return
    z = int(act.arg or 0) - 1
    zone = entry_zones(g, p)[z]
    if act.point is not None:  # Infiltrators: wholly within 6" of the Entry Zone
        ok = set_up(g, u, act.point, infiltrate=zone)
    else:
        ok = set_up(g, u, zone.centre, zone=zone)
    if not ok:
        u.where = "reserves"
        kept.touch(g, u)
        g.emit(ev.Reserves(e="reserves", unit=u.uid, why=f"does not fit in Entry Zone {z + 1}"))
    g.deployed[p].append((z, u.is_character))


def zone_gap(g: GameInterface, zone: Area, p: tuple[float, float], r: float) -> float:
    """How far the farthest point of a base at ``p`` is from the Entry Zone (straight line)."""
    return min(zone.zone_rect(c, row).distance_to(p) for c, row in zone.zones) + (r if r else 0.0)


def overwatch_window(g: GameInterface, enemy: Unit, why: str) -> Generator[Decision, Action, None]:
    """A Set Overwatch window just after ``enemy`` is set up ("just after an enemy unit is
    set up"). Public: a Mission Rule that sets a unit up opens one too (Change Level)."""
    return shooting._overwatch_window(g, enemy, why)


def set_up(g: GameInterface, u: Unit, at: tuple[float, float], zone: Area | None = None, ds_gap: float | None = None,
           infiltrate: Any = None, barred: tuple[Area, ...] = ()) -> bool:
    """Set ``u``'s models up as a formation around ``at`` (within ``zone``, more than
    ``ds_gap`` from enemy models, within 6" of ``infiltrate``, in none of ``barred``); False
    when they do not fit. Public: Mission Rules set units up too (Guard Duty, Imprisoned)."""
    barred = barred + g.mission.barred(g, u)  # e.g. the Prison Cells (Jailbreak)
    pts = positions.formation(g, u, at, u.starting if not u.models else len(u.models), zone=zone, ds_gap=ds_gap,
                         within=(infiltrate, INFILTRATE) if infiltrate is not None else None,
                         barred=barred)
    if pts is None:
        return False
    if not u.models:
        u.models = u.new_models(pts)  # each with its profile's Wounds and its wargear
    else:
        positions.set_positions(g, u, pts)
    u.where = "board"
    u.set_up_turn = g.turn
    kept.touch(g, u)
    g.emit(ev.Setup(e="setup", unit=u.uid, at=[[round(x, 2), round(y, 2)] for x, y in pts]))
    return True
