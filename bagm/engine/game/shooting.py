"""The Shooting phase: Tactical Manoeuvres (Secure Site, Set to Defend, Set Overwatch), firing
Overwatch, selecting targets (visibility, range, Pistols, Big Guns, Blast) and resolving attacks
with :func:`bagm.engine.attack.resolve_steps` (Command Re-roll offers inside it; the Fight phase
uses the same :meth:`ShootingPhase.attack`)."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, TypeVar

from bagm.engine.attack.rules import AttackProfile, Conditions, Target
from bagm.engine.attack.sequence import (
    TargetUnit,
    resolve_steps,
)
from bagm.engine.game import (
    armyrules,
    charge,
    command,
    control,
    fight,
    hazardous,
    kept,
    miracles,
    moments,
    movement,
    positions,
    rerolls,
    sight,
)
from bagm.engine.rules.abilities import models_destroyed, weapons_off
from bagm.engine.rules.army_rules import fnp_pain, kill_pain, pain_for_kill, pain_from
from bagm.engine.rules.effects import (
    armour,
    effect_conditions,
    effect_defence,
    effect_first,
    effect_fnp_mortal,
    effect_has,
    effect_least,
    effect_weapon,
    fights_on_death,
    holds_in,
    toughness,
)
from bagm.engine.rules.stratagems import (
    EXPLOSIVE_CLEARANCE,
    affects,
    may_use,
    use,
    used_this_phase,
)
from bagm.engine.rules.yield_points import yield_on_kill
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit, profile_group
from bagm.engine.state.core import CHARGE_RANGE, Decision, IllegalAction, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface

R = TypeVar("R")  # what a sequence of Command Re-roll offers gives back


# Overwatch -------------------------------------------------------------------------------

def _overwatchers(g: GameInterface, enemy: Unit) -> list[Unit]:
    q = g.other(enemy.player)
    out = []
    for u in g.army_units(q):
        # out of its longest range, a unit has no weapon in range: the cheap tests first (the
        # units' boxes farther apart than that range: no pair of models is within it)
        if u.overwatch_until >= g.turn and u.overwatch_used_turn != g.turn and \
                not u.battleshocked and not positions.apart(g, u, enemy, u.longest_range + 1e-6) and \
                positions.min_straight(g, u, enemy) <= u.longest_range and \
                not positions.engaged_with(g, u) and weapons_in_range(g, u, enemy, overwatch=True):
            out.append(u)
    return out


def _overwatch_window(g: GameInterface, enemy: Unit, why: str) -> Generator[Decision, Action, None]:
    # Set Overwatch: just after an enemy unit is set up, ends a move, declares a charge,
    # or opens a Hatchway
    if not enemy.alive or enemy.affected and effect_has(enemy, "no_overwatch_against"):
        return  # an effect: "enemy units cannot fire Overwatch at this unit"
    q = g.other(enemy.player)
    if not any(u.overwatch_until >= g.turn for u in g.army_units(q)):
        return
    if not _overwatchers(g, enemy):
        return
    act = yield Decision("overwatch", q, {"enemy": enemy.uid, "why": why})
    if act.kind == "overwatch":
        u = g.unit(act.unit, q)
        u.overwatch_used_turn = g.turn
        g.emit(ev.Overwatch(e="overwatch", unit=u.uid, target=enemy.uid, why=why))
        yield from _shoot(g, u, enemy, overwatch=True)
        # Hazardous: fired at a unit that declares a charge, the mortal wounds are allocated
        # after that unit has ended its Charge move (see :meth:`hazardous_after_charge`)
        yield from hazardous.take_hazardous(g, u, defer=why == "declares a charge")


# Shooting phase --------------------------------------------------------------------------

def _manoeuvres(g: GameInterface) -> Generator[Decision, Action, None]:
    p = g.active
    while _may_manoeuvre(g, p):
        act = yield g.ask("manoeuvre", p)
        if act.kind == "done":
            break
        u = g.unit(act.unit, p)
        yield from moments.moment(g, "enemy_attempt", g.other(p), u)  # e.g. Horrifying Visage
        if not (u.affected and effect_has(u, "no_manoeuvre")):  # "... fails to perform the Tactical Manoeuvre"
            _do_manoeuvre(g, u, act)
            yield from control.secured_at_once(g, u)  # e.g. Imperial Insights


def _shoot_units(g: GameInterface) -> Generator[Decision, Action, None]:
    p = g.active
    while _may_shoot(g, p):
        act = yield g.ask("shoot", p)
        if act.kind == "done":
            break
        u = g.unit(act.unit, p)
        if act.kind == "clearance":
            use(g, p, EXPLOSIVE_CLEARANCE, unit=u)
            u.clearance = True
            continue
        if act.kind == "manoeuvre":  # 2023: a Tactical Manoeuvre at any point of the phase
            yield from moments.moment(g, "enemy_attempt", g.other(p), u)  # e.g. Horrifying Visage
            if not (u.affected and effect_has(u, "no_manoeuvre")):
                _do_manoeuvre(g, u, act)
                yield from control.secured_at_once(g, u)
            continue
        # Select Targets: every target is chosen (and checked) before any attack is resolved
        u.volley = ()  # what its attacks hit (after_shot: "an enemy unit hit by those attacks")
        yield from moments.moment(g, "selected_to_shoot", p, u)
        if not u.alive:  # destroyed as it was selected (a Dark Pact's mortal wounds): it makes no attacks
            continue
        groups = ((act.target, act.weapons),) + act.also
        for target in dict.fromkeys(t for t, _ in groups):  # just after it selected its targets
            yield from moments.moment(g, "targeted", g.other(p), g.unit(target))
        for target, weapons in groups:
            yield from _shoot(g, u, g.unit(target), weapons=weapons)
        yield from hazardous.take_hazardous(g, u)  # after the unit has resolved all of its attacks
        for target in dict.fromkeys(t for t, _ in groups):  # e.g. Spiteful Demise: the dead fight on
            yield from shot_dead_fight(g, g.unit(target))
        yield from moments.moment(g, "after_shot", p, u)  # e.g. Mutagenic Flames
        if g.armies[g.other(p)].uses:  # e.g. Fade Back (Battle Focus): each unit its attacks hit
            volley: tuple[tuple[str, int, int], ...] = u.volley
            hit = [target for target, hits, _ in volley if hits]
            for uid in dict.fromkeys(hit):
                if g.unit(uid).alive:
                    yield from moments.moment(g, "enemy_shot", g.other(p), g.unit(uid))
        if g.armies[g.other(p)].rushers:  # e.g. Fanatical Onslaught: moves toward it
            yield from rushes(g, u)
        if u.affected:  # an effect: "after the bearer has shot, it can make a Normal move"
            yield from movement.free_moves(g, u, "after_shooting")
    control.update_control(g, False)
    g.mission_step("end_shooting")


def manoeuvre_reason(g: GameInterface, u: Unit) -> str | None:
    # Tactical Manoeuvres: who may perform one
    if u.battleshocked:
        return "it is Battle-shocked"
    if u.affected and effect_has(u, "no_manoeuvre"):
        return f"it cannot perform Tactical Manoeuvres ({u.source('no_manoeuvre')})"
    if positions.engaged_with(g, u):
        return "it is within Engagement Range of an enemy unit"
    if u.moved in ("advance", "fallback") and not (u.affected and (effect_has(u, "manoeuvre_after_move") or (
            u.moved == "fallback" and effect_has(u, "manoeuvre_after_fall_back")) or effect_has(u, "overwatch_after_move"))):
        return "it Advanced or Fell Back this turn"
    if u.set_up_turn == g.turn and g.edition.manoeuvre_not_if_set_up:  # 2024 only
        return "it was set up on the battlefield this turn"
    if u.manoeuvre is not None and not _overwatch_too(u) or u.shot:
        return "it has already performed a Tactical Manoeuvre or shot"
    return None


def _overwatch_too(u: Unit) -> bool:
    """It performed Secure Site this turn and an effect lets it Set Overwatch as well
    (Methodical Conquest), or it Advanced or Fell Back and an effect lets it Set Overwatch all
    the same (Void Combat Discipline): that is then the only Tactical Manoeuvre it may perform."""
    if not u.affected:
        return False
    if u.manoeuvre is None and u.moved in ("advance", "fallback"):
        return effect_has(u, "overwatch_after_move") and not (effect_has(u, "manoeuvre_after_move") or (
            u.moved == "fallback" and effect_has(u, "manoeuvre_after_fall_back")))
    return u.manoeuvre == "secure" and effect_has(u, "overwatch_after_secure")


def secure_markers(g: GameInterface, u: Unit) -> list[int]:
    """The objective markers ``u``'s army controls that a model of ``u`` is within range of
    (Secure Site: "one objective marker you control ... within range of that unit"): read from
    :func:`control.near_markers`, kept on the unit's stamp and across games on where it stands."""
    held = g.control
    return [i for i, near in enumerate(control.near_markers(g, u)) if near and held[i] == u.player]


# Cheap tests of whether a step is offered at all ("done" is always among its actions);
# the exact legal actions are only worked out when someone asks for them.

def _may_manoeuvre(g: GameInterface, p: Player) -> bool:
    return any(manoeuvre_reason(g, u) is None for u in g.army_units(p))


def _may_shoot(g: GameInterface, p: Player) -> bool:
    enemies = g.army_units(g.other(p))
    return bool(enemies) and any(
        shoot_reason(g, u) is None and any(
            positions.min_straight(g, u, e) <= u.longest_range for e in enemies)
        for u in g.army_units(p))


def _may_charge(g: GameInterface, p: Player) -> bool:
    enemies = g.army_units(g.other(p))
    return any(charge.charge_reason(g, u) is None and any(positions.min_straight(g, u, e) <= CHARGE_RANGE for e in enemies)
               for u in g.army_units(p))


def legal_manoeuvre(g: GameInterface, p: Player) -> list[Action]:
    out = []
    for u in g.army_units(p):
        if manoeuvre_reason(g, u) is not None:
            continue
        if _overwatch_too(u):
            if g.mission.core_manoeuvre_reason(g, u, "overwatch") is None:
                out.append(Action("manoeuvre", u.uid, target="overwatch"))
            continue
        out += [Action("manoeuvre", u.uid, target=t) for t in ("defend", "overwatch")
                if g.mission.core_manoeuvre_reason(g, u, t) is None]  # e.g. Gravitational Systems
        out += [Action("manoeuvre", u.uid, target="secure", arg=str(i + 1)) for i in secure_markers(g, u)
                if g.mission.secure_reason(g, u, i) is None]  # BATTLELINE, or a Mission Rule
        out += [Action("manoeuvre", u.uid, target=t) for t in g.mission.manoeuvres(g, u)]
    return out + [Action("done")]


def _check_manoeuvre(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind == "done":
        return
    if act.kind != "manoeuvre":
        raise IllegalAction("at the start of the Shooting phase: 'manoeuvre UNIT ...' or 'done'",
                            "Tactical Manoeuvres")
    u = g.live_unit(act.unit, p, "Tactical Manoeuvres")
    why = manoeuvre_reason(g, u)
    if not why and _overwatch_too(u) and act.target != "overwatch":
        why = "it performed Secure Site this turn (only Set Overwatch as well)" if u.manoeuvre == "secure" \
            else "it Advanced or Fell Back this turn (only Set Overwatch)"
    if why:
        raise IllegalAction(f"{u.label()} cannot perform a Tactical Manoeuvre: {why}", "Tactical Manoeuvres", u.uid)
    if act.target == "secure":
        i = int(act.arg or 0) - 1
        why = g.mission.secure_reason(g, u, i)  # BATTLELINE, or a Mission Rule
        if why:
            raise IllegalAction(f"{u.label()} {why}", "Secure Site", u.uid)
        if i not in secure_markers(g, u):
            raise IllegalAction(f"objective marker {i + 1} is not one you control within range of {u.label()}",
                                "Secure Site", u.uid)
    elif act.target in ("defend", "overwatch"):
        if (why := g.mission.core_manoeuvre_reason(g, u, act.target)) is not None:
            raise IllegalAction(f"{u.label()} cannot perform it: {why}", "Tactical Manoeuvres", u.uid)
    else:  # a Mission Rule's Tactical Manoeuvre
        if (why := g.mission.manoeuvre_reason(g, u, act.target)) is not None:
            raise IllegalAction(f"{u.label()} cannot perform it: {why}", "Tactical Manoeuvres", u.uid)


def _do_manoeuvre(g: GameInterface, u: Unit, act: Action) -> None:
    u.manoeuvre = "secure+overwatch" if _overwatch_too(u) else act.target
    if act.target == "secure":
        u.secure_marker = int(act.arg or 0) - 1
        u.secured_turn = g.turn
    elif act.target == "defend":
        u.set_to_defend = True
    elif act.target == "overwatch":
        u.overwatch_until = g.turn + 1  # until the end of the opponent's next turn
    assert act.target is not None  # checked: a manoeuvre is named
    g.emit(ev.Manoeuvre(e="manoeuvre", unit=u.uid, manoeuvre=act.target, marker=act.arg))
    g.mission.perform(g, u, act.target)  # a Mission Rule's Tactical Manoeuvre, if it is one


def shoot_reason(g: GameInterface, u: Unit) -> str | None:
    if u.shot:
        return "it has already shot this phase"
    if u.manoeuvre is not None:
        return "it performed a Tactical Manoeuvre this turn"
    if u.moved == "fallback" and not (u.affected and effect_has(u, "shoot_after_fall_back")):
        return "it Fell Back this turn"  # unless a conferred Leader ability lets it shoot
    if u.moved == "advance" and not any(w.abilities.assault for w in u.ranged) and not (
            u.affected and effect_has(u, "shoot_after_advance")):  # e.g. Relentless Salvoes
        return "it Advanced this turn (and has no Assault weapon)"
    if not u.ranged:
        return "it has no ranged weapon"
    return None


def usable_weapons(g: GameInterface, u: Unit, engaged: bool) -> list[Any]:
    big = bool({"MONSTER", "VEHICLE"} & u.keywords)
    ws = u.ranged
    if u.affected and (off := weapons_off(u)):  # e.g. DS8 Support Turret: only once it Remained Stationary
        ws = [w for w in ws if profile_group(w.name) not in off]
    if u.moved == "advance":
        ws = [w for w in ws if w.abilities.assault]  # Assault
    pistols = [w for w in ws if w.abilities.pistol]
    rest = [w for w in ws if not w.abilities.pistol]
    if engaged and not big:
        return pistols  # Pistols: may shoot while within Engagement Range
    if big or u.mixed:  # models with their own wargear choose model by model
        return ws
    return rest or pistols


def own_weapons(u: Unit, ws: list[Any]) -> list[list[Any]]:
    """The usable weapons each model fires, for models with their own wargear: its
    weapons other than Pistols, or its Pistols when it has nothing else usable (Core
    Rules, Pistols: a model shoots its Pistols or its other weapons, not both)."""
    out = []
    for m in u.models:
        mine = [w for w in ws if m.carries(w.name)]
        rest = [w for w in mine if not w.abilities.pistol]
        out.append(rest or mine)
    return out


def weapons_in_range(g: GameInterface, u: Unit, target: Unit, weapons: tuple[str, ...] = (),
                      overwatch: bool = False) -> list[tuple[Any, int, int]]:
    """(weapon, models that can fire it, how many of those are within half range) for each
    usable weapon."""
    # an effect may change what is in range (ranged attacks only from within X")
    key = ("wir", u.uid, target.uid, weapons, u.moved, u.effect_key(), target.effect_key())
    cache = kept._now(g)
    v = cache.get(key)
    if v is None:
        v = cache[key] = _weapons_in_range_now(g, u, target, weapons)
    return v


def _weapons_in_range_now(g: GameInterface, u: Unit, target: Unit, weapons: tuple[str, ...]
                          ) -> list[tuple[Any, int, int]]:
    if not u.alive or not target.alive:
        return []
    engaged = bool(positions.engaged_with(g, u))
    if engaged and target not in positions.engaged_with(g, u) and not ({"MONSTER", "VEHICLE"} & u.keywords):
        return []
    ws = usable_weapons(g, u, engaged)
    if weapons:
        want = {w.lower() for w in weapons}
        ws = [w for w in ws if w.name.lower() in want]
    # Core Rules, weapons with several profiles: one profile each time the weapon is used
    # (the one named, else the first listed)
    first: dict[str, Any] = {}
    for w in ws:
        first.setdefault(profile_group(w.name), w)
    ws = list(first.values())
    if not ws:
        return []
    longest = max(w.range or 0 for w in ws)
    if positions.min_straight(g, u, target) > longest:
        return []
    vis = sight.visible_idx(g, u, target)
    if not vis:
        return []
    tm = [target.models[i] for i in vis if i < len(target.models)]
    d = dists = [min(math.hypot(m.x - t.x, m.y - t.y) - m.r - t.r for t in tm) for m in u.models]
    # Blast: looked at only for a Blast weapon
    friends_engaged = any(w.abilities.blast for w in ws) and \
        any(positions.engaged(g, f, target) for f in g.army_units(u.player))
    # a conferred Leader ability: only models (or units) within X" can target that unit with
    # ranged attacks
    cap: float | None = None
    if target.affected:
        cap, near = effect_least(target, "ranged_within"), effect_least(target, "ranged_unit_within")
        if near is not None and min(d) > near + 1e-9:
            return []
    if (far := g.mission.ranged(g, u, target)[0]) is not None:  # e.g. Lights Out, Steam Venting
        cap = far if cap is None else min(cap, far)
    out = []
    own = own_weapons(u, ws) if u.mixed else None
    for w in ws:
        if w.abilities.blast and friends_engaged:
            continue  # Blast: never against a unit within Engagement Range of the attacker's army
        rng = w.range or 0
        reach = rng if cap is None or cap >= rng else cap
        if own is not None:  # models with their own wargear: those that carry it
            d = [x if w in mine else math.inf for x, mine in zip(dists, own)]
        n = sum(1 for x in d if x <= reach + 1e-9)
        if n:  # and how many of them are within half range (Rapid Fire, Melta: per model)
            out.append((w, n, sum(1 for x in d if x <= reach + 1e-9 and x <= rng / 2 + 1e-9)))
    return out


def legal_shoot(g: GameInterface, p: Player) -> list[Action]:
    out = []
    for u in g.army_units(p):
        if shoot_reason(g, u):
            continue
        for e in g.army_units(g.other(p)):
            if weapons_in_range(g, u, e):
                out.append(Action("shoot", u.uid, target=e.uid))
        if not u.clearance and may_use(g, p, EXPLOSIVE_CLEARANCE, u) \
                and any(w.abilities.blast for w in u.ranged):
            out.append(Action("clearance", u.uid))
    if g.edition.manoeuvre_any_time:  # 2023 Tactical Manoeuvres: "In your Shooting phase"
        out += [a for a in legal_manoeuvre(g, p) if a.kind == "manoeuvre"]
    return out + [Action("done")]


def _check_shoot(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind == "done":
        return
    if act.kind == "manoeuvre" and g.edition.manoeuvre_any_time:
        return _check_manoeuvre(g, p, act)  # 2023: at any point of the Shooting phase
    if act.kind not in ("shoot", "clearance"):
        raise IllegalAction("in the Shooting phase: 'shoot UNIT ENEMY', 'clearance UNIT' or 'done'"
                            + (" (Tactical Manoeuvres are performed at its start)"
                               if act.kind == "manoeuvre" else ""), "Shooting phase")
    u = g.live_unit(act.unit, p, "Shooting phase")
    if act.kind == "clearance":
        if g.edition.name not in EXPLOSIVE_CLEARANCE.editions:
            raise IllegalAction(f"Explosive Clearance is not a Stratagem of the {g.edition.name} "
                                "edition of Boarding Actions", "Stratagems", u.uid)
        if g.cp[p] < EXPLOSIVE_CLEARANCE.cp:
            raise IllegalAction(f"Explosive Clearance costs {EXPLOSIVE_CLEARANCE.cp}CP", "Explosive Clearance", u.uid)
        if used_this_phase(g, p, EXPLOSIVE_CLEARANCE):
            raise IllegalAction("a Stratagem can be used once per phase", "Stratagems", u.uid)
        if not affects(g, EXPLOSIVE_CLEARANCE, u):
            raise IllegalAction(f"{u.label()} is Battle-shocked: your Stratagems cannot affect it",
                                "Battle-shock", u.uid)
        if u.shot or not any(w.abilities.blast for w in u.ranged):
            raise IllegalAction(f"{u.label()} has shot already or has no Blast weapon",
                                "Explosive Clearance", u.uid)
        return
    why = shoot_reason(g, u)
    if why:
        raise IllegalAction(f"{u.label()} is not eligible to shoot: {why}", "Shooting phase", u.uid)
    groups = ((act.target, act.weapons),) + act.also
    chosen: set[str] = set()
    for target, weapons in groups:
        t = g.unit(target)
        if t.player == p or not t.alive:
            raise IllegalAction(f"{t.label()} is not an enemy unit on the battlefield", "Select Targets", u.uid)
        if weapons:
            names = {w.name.lower() for w in u.ranged}
            for w in weapons:
                if w.lower() not in names:
                    raise IllegalAction(f"{u.label()} has no ranged weapon '{w}' (has: "
                                        f"{', '.join(x.name for x in u.ranged)})", "Select Targets", u.uid)
                if profile_group(w) in chosen:  # Select Targets: each weapon selects one target
                    raise IllegalAction(f"'{w}' already has a target (each weapon shoots at one unit, "
                                        "with one of its profiles)", "Select Targets", u.uid)
                chosen.add(profile_group(w))
        if not sight.visible_idx(g, u, t):
            raise IllegalAction(f"{t.label()} is not visible to {u.label()}", "Visibility", u.uid)
        plan = weapons_in_range(g, u, t, weapons)
        if not plan:
            raise IllegalAction(f"{t.label()} is not within range of {u.label()}'s usable weapons",
                                "Select Targets", u.uid)
        if act.also:  # split fire: every named weapon must be able to target its unit
            able = {w.name.lower() for w, _, _ in plan}
            for w in weapons:
                if w.lower() not in able:
                    raise IllegalAction(f"'{w}' cannot shoot {t.label()} (out of range, or not usable "
                                        "now)", "Select Targets", u.uid)


def _shoot(g: GameInterface, u: Unit, t: Unit, weapons: tuple[str, ...] = (), overwatch: bool = False
           ) -> Generator[Decision, Action, None]:
    plan = weapons_in_range(g, u, t, weapons, overwatch)
    if not overwatch:
        u.shot = True
    big_engaged = bool(positions.engaged_with(g, u)) and bool({"MONSTER", "VEHICLE"} & u.keywords)
    total_lost = 0
    mark = len(g.events)
    cleared = False  # Explosive Clearance: "Select one model ... equipped with a weapon with [BLAST]"
    for w, n, near in plan:
        # Rapid Fire and Melta count per attacking model: the models within half range make
        # their attacks with the bonus, the others without (two runs of the attack sequence)
        per_model = w.abilities.rapid_fire is not None or w.abilities.melta is not None
        groups = [(near, True), (n - near, False)] if per_model and 0 < near < n else [(n, near == n)]
        parts: list[tuple[int, bool, bool]] = []  # (models, within half range, Explosive Clearance)
        for k, half in groups:
            if u.clearance and w.abilities.blast and not cleared and k:
                parts.append((1, half, True))  # the one model's Blast weapon
                cleared, k = True, k - 1
            if k:
                parts.append((k, half, False))
        # (a target an earlier weapon destroyed has no model to measure to: its parts find no one)
        far = effect_least(t, "against_beyond") if t.affected and t.models else None
        split = _far_parts(g, u, t, parts, far) if far is not None else [(*x, False) for x in parts]
        for k, half, clear, beyond in split:
            if not u.alive:
                break
            vis = sight.visible_idx(g, u, t) if t.alive else []
            if not vis and not clear:  # the target destroyed (or out of sight) first
                hazardous.hazard_owed(g, u, t, w, k)
                continue
            # the model the first attack is allocated to (TargetUnit.allocate): for its cover
            ranks = t.ranks()
            seen = sorted(vis, key=lambda i: ranks[i]) if ranks is not None else vis
            first = next((i for i, m in enumerate(t.models) if m.wounds < (m.full or t.W)),
                         seen[0] if seen else 0)
            cover = sight._cover(g, t.models[first].base, u, t)
            cond = Conditions(hit_mod=(-1 if big_engaged and not w.abilities.pistol else 0)
                              + g.mission.ranged(g, u, t)[1],  # e.g. Lights Out
                              cover=cover, half_range=half, overwatch=overwatch, far=beyond,
                              remained_stationary=u.moved == "stationary",
                              # the edition's Benefit of Cover and Blast (rules/editions.py)
                              cover_any_save=g.edition.cover_any_save,
                              blast_counts_hidden=not g.edition.blast_counts_visible)
            lost, _ = yield from attack(g, u, t, w, k, cond, None if clear else set(vis), ranged=True)
            total_lost += lost
    g.emit(ev.Shoot(e="shoot", unit=u.uid, target=t.uid, weapons=[w.name for w, _, _ in plan],
              wounds_lost=total_lost, left=len(t.models), overwatch=overwatch))
    if u.affected and t.alive:
        yield from battleshock_after_hits(g, u, t, plan, mark)


def battleshock_after_hits(g: GameInterface, u: Unit, t: Unit, plan: list[Any], mark: int, fought: bool = False
               ) -> Generator[Decision, Action, None]:
    """An effect: "after it has shot, select one enemy unit hit by one or more of those
    attacks made with a Psychic weapon: that unit must take a Battle-shock test, subtracting
    1" (once each time it shoots: reading, the first unit hit)."""
    for name, e in u.standing:
        if e.shock_hit is None or fought and not e.shock_hit_fight or \
                (u.player, f"{name} {u.uid}", g.phase_id) in g.used or t.keywords.intersection(e.target_lacks) \
                or e.target_has and not t.keywords.intersection(e.target_has):
            continue  # Torturer's Craft: "(excluding VEHICLES)"; Cursed Flames: "one enemy INFANTRY unit hit"
        allowed = {w.name for w, _, _ in plan if (not e.only_psychic or w.abilities.psychic) and (
            not e.only_weapons or w.name.lower() in {n.lower() for n in e.only_weapons})}
        if any(x["e"] == "attack" and x["weapon"] in allowed and x["hits"] for x in g.events[mark:]):
            g.used.add((u.player, f"{name} {u.uid}", g.phase_id))
            yield from command.battleshock_test(g, t, name, e.shock_hit)


def _far_parts(g: GameInterface, u: Unit, t: Unit, parts: list[tuple[int, bool, bool]], far: float
               ) -> list[tuple[int, bool, bool, bool]]:
    """The parts of a weapon's attacks split into models within ``far`` inches of ``t`` and
    beyond (Half-Glimpsed Shadows); the closest models make the first parts (those within
    half range)."""
    close = sum(1 for m in u.models if min(math.hypot(m.x - x.x, m.y - x.y) - m.r - x.r
                                              for x in t.models) <= far + 1e-9)
    out = []
    for k, half, clear in parts:
        near = min(k, close)
        close -= near
        out += [(c, half, clear, beyond) for c, beyond in ((near, False), (k - near, True)) if c]
    return out


def attack(g: GameInterface, u: Unit, t: Unit, w: Any, n: int, cond: Conditions, visible: set[int] | None,
            ranged: bool) -> Generator[Decision, Action, tuple[int, int]]:
    """One weapon's attacks of ``u`` against ``t`` (the attack sequence), offering Command
    Re-roll to either player where the rules allow; returns (wounds lost, models destroyed)."""
    holds = None
    if u.affected or t.affected:  # effects: Leader abilities, Detachment rules, Enhancements
        holds = holds_in(g)  # their conditions on the game (within range of a marker)
        w = effect_weapon(u, w, t, holds)
        cond = effect_conditions(u, t, w, cond, holds)
    if w.abilities.hazardous:  # Hazardous: a test for each Hazardous weapon used (one per model),
        u.hazard += (w.name,) * n  # taken once the unit has resolved all of its attacks (take_hazardous)
    invuln, fnp = effect_defence(t, w, holds) if t.affected else (t.invuln, None)
    # models with their own profiles: each one's Save and invulnerable save (with the effects')
    saves = t.saves(effect_defence(t, w, holds, own=False)[0] if t.affected else None, ranged) \
        if t.kit_own else None
    invuln = t.invuln_against(invuln, ranged)  # with a save against melee attacks only
    sv = t.Sv
    if t.affected and t.sets("Sv_mod"):  # e.g. Take Cover!: the Save characteristic improved
        sv = armour(t, sv, holds)
        saves = [(armour(t, s, holds), i) for s, i in saves] if saves is not None else None
    target = Target(toughness=toughness(t, holds) if t.affected else t.toughness(), save=sv, wounds=t.W, models=len(t.models), invuln=invuln,
                    fnp=fnp, keywords=t.keywords, visible=None if visible is None else len(visible),
                    name=t.uid)
    tu = TargetUnit([m.wounds for m in t.models], t.W, visible, fnp,
                    effect_fnp_mortal(t) if t.affected else None, t.fulls(),
                    g.mission.allocated_ap(g, t),  # e.g. Deadly Decompression, per model
                    saves, t.ranks())
    mark = g.dice.count
    # Acts of Faith: the Miracle dice each side may use now (nothing to do for armies without a pool)
    faith = (miracles.faith_pool(g, u), miracles.faith_pool(g, t)) if g.miracles[u.player] or g.miracles[t.player] \
        else ((), ())
    steps = resolve_steps(AttackProfile(w, n, cond), target, g.dice, tu,
                          rerolls._may_reroll(g, u.player, u), rerolls._may_reroll(g, t.player, t),
                          hazardous=False,  # taken after all of the unit's attacks (take_hazardous)
                          choosing=True,  # the attacker answers a free re-roll's offers
                          faith=faith)
    res = yield from rerolls.reroll_offers(g, steps, u, t, w.name)
    if tu.fnp_saved and t.affected:
        fnp_pain(g, t, tu.fnp_saved)  # e.g. Regenerative Agony
    for m, wl in zip(t.models, tu.wounds):
        m.wounds = wl
    # removed_models: indices into the target's models as they stood before the attack
    gone = [i for i, m in enumerate(t.models) if m.wounds <= 0]
    dead = [t.models[i] for i in gone]
    if gone:  # no cached answer depends on wounds: only on who stands where
        t.models = [m for m in t.models if m.wounds > 0]
        kept.touch(g, t)
        u.slew |= t.keywords  # what it has destroyed models of (Retribution Protocols)
        if not ranged and t.affected:  # e.g. Faolchu's Last Flight: the dead fight on
            fights_on_death(g, t, len(gone))
        elif ranged and t.affected and effect_has(t, "fight_on_death_any"):  # Spiteful Demise: shot dead
            foes = [e for e in g.army_units(u.player)
                    if any(positions.model_engaged(g, m.base, n.base) for m in dead for n in e.models)]
            if foes:  # (it fights only an enemy unit within Engagement Range of where it fell)
                t.dying_foe = max(foes, key=lambda e: len(e.models)).uid
                fights_on_death(g, t, len(gone))
    # dice: every die of the attack sequence by what it was rolled for (hit, wound, save...)
    g.emit(ev.Attack(e="attack", unit=u.uid, target=t.uid, weapon=w.name, models=n, attacks=res.attacks,
              hits=res.hits, wounds=res.wounds, unsaved=res.unsaved, lost=res.wounds_lost,
              destroyed=res.models_destroyed, removed_models=gone, dice=g.dice.since(mark)))
    if ranged:
        u.volley += ((t.uid, res.hits, res.models_destroyed),)
    models_destroyed(g, t, dead)  # e.g. Deadly Demise
    if res.models_destroyed and u.affected and (kw := effect_first(u, "kill_cp")) is not None \
            and kw in t.keywords:  # "each time this model's unit destroys a CHARACTER model, you gain 1CP"
        for _ in range(res.models_destroyed):
            g.gain_cp(u.player, 1, u.source("kill_cp"))
    if res.models_destroyed and u.affected:
        kill_pain(g, u, t, res.models_destroyed)  # e.g. Commorrite Rivalries
    if not ranged and res.models_destroyed and u.affected and \
            (need := effect_least(u, "regain_on_kill")) is not None:
        _regain_on_kill(g, u, res.models_destroyed, need)
    if res.models_destroyed and u.affected and len(u.models) < u.starting:
        armyrules.return_on_kill(g, u, t, res.models_destroyed)  # e.g. Curse of the Walking Pox
    check_destroyed(g, t, by=u)
    return res.wounds_lost, res.models_destroyed


def shot_dead_fight(g: GameInterface, t: Unit) -> Generator[Decision, Action, None]:
    """Models of ``t`` destroyed by ranged attacks that fight on (``fight_on_death_any``):
    "the bearer can fight after the attacking unit has finished making its attacks, and is
    then removed" - against the enemy unit within its Engagement Range where it fell."""
    foe = g.units.get(t.dying_foe or "")
    n, t.dying, t.dying_foe = t.dying, 0, None
    if not n or foe is None or not foe.alive or not t.melee:
        return
    g.emit(ev.Fight(e="fight", unit=t.uid, target=foe.uid, fighters=n, weapon=t.melee[0].name,
              left=len(foe.models), dying=True))
    yield from attack(g, t, foe, t.melee[0], n, Conditions(), None, ranged=False)
    yield from hazardous.take_hazardous(g, t)


def rushes(g: GameInterface, a: Unit) -> Generator[Decision, Action, None]:
    """Just after enemy unit ``a`` has shot: each unit with ``rush_move`` whose trigger its
    attacks met may move toward it, or the nearest visible enemy unit (Fanatical Onslaught:
    "each such unit can make a Rush move ... up to 3\", but must end that move as close as
    possible to the attacking unit"), at most once a turn or phase if it says so."""
    hit = {t: (h, d) for t, h, d in a.volley}
    for u in g.army_units(g.other(a.player)):
        if not u.affected or u.uid not in hit:
            continue
        for name, e in u.standing:
            if e.rush_move is None or not u.alive:
                continue
            hits, dead = hit[u.uid]
            if e.rush_on == "lost_models" and not dead or e.rush_on == "hit" and not hits:
                continue
            if e.rush_unshocked and u.battleshocked:
                continue  # "a unit cannot make a Rush move while it is Battle-shocked"
            mark = (u.player, f"{name} {u.uid}", 100_000 + g.turn if e.rush_once == "turn" else g.phase_id)
            if e.rush_once is not None and mark in g.used:
                continue
            to = a if e.rush_to == "attacker" else _nearest_seen(g, u)
            if to is None or not to.alive:
                continue
            lead = to.models[0]
            act = yield Decision("freemove", u.player, {"unit": u.uid, "rush": to.uid, "rule": name,
                                                        "reach": str(e.rush_move),
                                                        "point": [round(lead.x, 2), round(lead.y, 2)]})
            if act.kind != "move":
                continue
            g.used.add(mark)
            reach = float(g.dice.roll_expr(str(e.rush_move), f"{name} {u.uid}"))
            g.emit(ev.Rush(e="rush", unit=u.uid, toward=to.uid, rule=name, reach=reach))
            fight.pile(g, u, to, "rush_move", reach)


def _nearest_seen(g: GameInterface, u: Unit) -> Unit | None:
    seen = [e for e in g.army_units(g.other(u.player)) if sight.visible_idx(g, u, e)]
    return min(seen, key=lambda e: positions.unit_distance(g, u, e)) if seen else None


def _regain_on_kill(g: GameInterface, u: Unit, kills: int, need: int) -> None:
    """An effect: "each time the bearer destroys an enemy model with a melee attack, roll
    one D6: on a 5+, it regains one lost wound (at most two per phase)"."""
    cap = effect_least(u, "regain_on_kill_cap")
    for _ in range(kills):
        done = u.regained[1] if u.regained[0] == g.phase_id else 0
        if cap is not None and done >= cap or not any(
                m.wounds < full for m, full in zip(u.models, u.fulls() or [u.W] * len(u.models))):
            return  # nothing to regain: no roll
        if g.dice.d6(f"regain {u.uid}") >= need:
            u.regained = (g.phase_id, done + 1)
            command._regain(g, u, 1)


def check_destroyed(g: GameInterface, u: Unit, by: Unit | None = None) -> None:
    """``u`` is destroyed once its last model is; ``by``: the unit whose attack did it."""
    if not u.models and u.where == "board":
        u.where = "destroyed"
        kept.touch(g, u)
        if by is not None:
            g.destroyed_by[u.uid] = by.uid
            by.kills += 1  # for "once the bearer has destroyed one or more enemy units"
            yield_on_kill(g, by)  # e.g. Seized Opportunity: "when its unit destroys an enemy unit"
        if u.enhancement and any(e.army for _, e in u.standing):
            gone = {id(e) for _, e in u.standing if e.army}  # "if the bearer is on the battlefield"
            for v in g.units.values():
                if v.player == u.player and v.standing:
                    v.standing = tuple((n, e) for n, e in v.standing if id(e) not in gone)
        event = ev.Destroyed(e="destroyed", unit=u.uid, points=u.points)
        if by is not None:
            event["by"] = by.uid
        g.emit(event)
        pain_from(g, u, "Power from Pain")  # "each time an enemy unit is destroyed"
        miracles.miracle_on_death(g, u)  # Acts of Faith: "each time an ADEPTA SORORITAS unit from your army is destroyed"
        if by is not None:
            pain_for_kill(g, u, by)  # e.g. Appetite for Adulation
        if any(e.reinforce_roll for _, e in u.standing):  # Transdimensional Reinforcement
            armyrules.reinforce_on_death(g, u)
