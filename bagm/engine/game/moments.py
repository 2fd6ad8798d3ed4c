"""Moments: the points of the game at which a rule can be used (a Stratagem's WHEN), fired by
the phase code, one call per place, and the rules used at a moment offered there (Detachment
Stratagems supplied as data; Enhancements and Detachment rules used "once per battle...").

Core Rules "Stratagems": a Stratagem is used at its WHEN on its TARGET for its CP, once per
phase. The phase code calls :meth:`Moments.moment` where each moment of
:mod:`bagm.data.timings` happens (just after a unit is selected to shoot or to fight, just after
an enemy unit has selected its targets, ...); the Battlefield Command windows at the start and
end of every phase are the ``phase_start`` and ``phase_end`` moments. A used rule's effects join
its target's effects (``Unit.timed``) until the end of the phase or turn. An army without such
rules is never asked, and pays one look-up per moment.

Reading: WHEN "your Shooting phase" (``your_shooting``) is offered at the start of your
Shooting phase: its TARGET is a unit that has not shot, and nothing a unit does before it is
selected to shoot changes what the effect does.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.game import armyrules, command, control, hatchways, movement, positions, reinforcements, sight
from bagm.engine.rules.army_rules import empowered
from bagm.engine.rules.effects import aura_copy, aura_sources, effect_least, holds_in
from bagm.engine.rules.stratagem_costs import stratagem_cost, stratagem_refund
from bagm.engine.rules.uses import Use
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit, fits
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface

OFFERED = frozenset({"phase_start", "phase_end", "phase_start_or_end", "your_shooting", "selected_to_shoot",
                     "selected_to_fight", "targeted", "after_enemy_fought", "battleshock_failed",
                     "after_shot", "charge_move_end", "round_start", "enemy_attempt", "selected_to_move",
                     "enemy_shot", "enemy_fell_back", "charge_declared", "set_up"})
"""The timings at which rules used at a moment are offered ("after_roll" is Command Re-roll's alone)."""


def offered_at(when: str, timing: str) -> bool:
    """Whether a rule used at the moment ``when`` (its WHEN) is offered at the moment ``timing``
    (in some phase and turn): "your_shooting" at the start of a phase (your Shooting phase's),
    "phase_start_or_end" at either, any other at itself."""
    if when == "your_shooting":
        return timing == "phase_start"
    return when == timing or when == "phase_start_or_end" and timing in ("phase_start", "phase_end")


def cost_rules(g: GameInterface) -> bool:
    """An army has an effect that changes what Stratagems cost (rules/stratagem_costs.py)."""
    return g.armies["A"].cost_rules or g.armies["B"].cost_rules


def offered(g: GameInterface, p: Player, timing: str) -> tuple[Use, ...]:
    """Player ``p``'s rules used at a moment whose WHEN is ``timing`` now (phase and turn), each
    checked by :meth:`usable`: those that can be offered at the moment at all (:func:`offered_at`)
    in this phase, in your turn or the opponent's, in the first battle round or a later one
    (:func:`offered_now`). Pure functions of those four: worked out once for the army for each
    (the army's ``offered_index``), so that a moment at which none is offered, most of them,
    costs a look-up."""
    army = g.armies[p]
    kept = army.offered_index
    if kept is None or kept[0] is not army.uses:
        kept = army.offered_index = (army.uses, {})
    phase, yours, first = g.phase, g.active == p, g.round == 1
    got = kept[1].get((timing, phase, yours, first))
    if got is None:
        got = kept[1][timing, phase, yours, first] = tuple(
            s for s in army.uses if offered_at(s.when, timing) and offered_now(s, phase, yours, first))
    return got


def offered_now(s: Use, phase: str, yours: bool, first: bool) -> bool:
    """Whether ``s``, an entry offered at the moment, is offered in ``phase`` of your turn
    (``yours``) or your opponent's, in the first battle round (``first``) or a later one."""
    if s.when == "your_shooting" and (phase != "shooting" or not yours):
        return False  # offered at the start of your Shooting phase (module note)
    if s.phase is not None and s.phase != phase:
        return False
    return not (s.turn == "yours" and not yours or s.turn == "opponents" and yours or s.first_round and not first)


def _once(g: GameInterface, p: Player, s: Use, uid: str | None = None) -> tuple[str, str, int]:
    """The mark in ``used`` that a use of ``s`` (on the unit ``uid``) leaves: per phase
    (Stratagems: the phase's id, as every Stratagem's), per battle round (minus the round),
    per battle (0), or per phase for each unit ("each time a unit is selected to shoot, it
    can use this ability")."""
    name = s.group or s.name  # the alternatives of one rule share its "once"
    if s.kind == "Ability" and s.bearer is not None:  # a datasheet ability's: each unit's own
        name = f"{name} {s.bearer}"
    if s.once == "unit":
        return (p, f"{name} {uid}", g.phase_id)
    if s.once == "turn":  # "once per turn": a mark of its own kind (turns are numbered from 1)
        return (p, name, 100_000 + g.turn)
    return (p, name, g.phase_id if s.once == "phase" else -g.round if s.once == "round" else 0)


def usable(g: GameInterface, p: Player, timing: str, unit: str | None = None) -> list[Action]:
    """'use UNIT NAME' actions open to player ``p`` at the moment ``timing`` (about their
    unit ``unit``, for the moments that are about one unit)."""
    if not g.armies[p].uses:
        return []
    entries = offered(g, p, timing)
    if not entries:
        return []  # (the usual case: no entry of the army is offered at this moment)
    out = []
    cp, used = g.cp[p], g.used
    for s in entries:
        # Core Rules "Stratagems": enough CP, once per phase; a rule: as often as it says
        spent = _once(g, p, s) in used
        if cp < s.cp - (1 if cost_rules(g) else 0) or s.pain and g.pain[p] < s.pain \
                or s.once != "unit" and spent or s.once_each and (p, s.name, 0) in used:
            continue
        if s.pool_needs and not pool_fits(g, p, s):
            continue  # Blessings of Khorne: this round's roll has not the dice it needs
        if s.spends is not None and g.tokens.get(f"{p} {s.spends}", 0) < 1:
            continue  # Battle Focus: "you can spend one Battle Focus token"
        if s.enemy:  # "select one enemy unit ..."
            out += [Action("use", e.uid, arg=s.name) for e in _enemy_targets(g, p, s, unit)]
            continue
        if cp < s.cp or spent:
            continue
        if s.times is not None and _times_used(g, p, s) >= s.times:
            continue  # "can only use this Enhancement up to two times"
        if s.army:  # one use for the army: offered on the first of its units that has it
            first = next((u for u in g.army_units(p) if covers(s, u)), None)
            if first is not None and unit is None:
                out.append(Action("use", first.uid, arg=s.name))
            continue
        targets = [g.unit(unit)] if unit is not None else g.army_units(p)
        for u in targets:
            # (every test below must pass: the unit's own flags first, those that measure
            # or look around the battlefield last)
            if s.shocked and not u.battleshocked or s.unshocked and u.battleshocked:
                continue
            if u.player != p or not u.alive or not s.target_keywords <= u.keywords:
                continue
            if u.battleshocked and s.stratagem and not g.edition.stratagems_on_battleshocked:
                continue  # Battle-shock: your Stratagems cannot affect the unit (not in 2023)
            if s.target_units and u.datasheet.name.casefold() not in s.target_units:
                continue
            if s.spends is not None and (u.uid not in s.holders or _manoeuvred(g, p, s, u)):
                continue  # "eligible ... if it has this ability and has not already performed an Agile Manoeuvre"
            if s.returns is not None and len(u.models) >= u.starting:
                continue  # no destroyed model to return
            if s.once == "unit" and _once(g, p, s, u.uid) in g.used:
                continue
            if s.self_test_forsake and (p, f"{s.group or s.name} forsaken {u.uid}", 0) in g.used:
                continue  # The Forsaken: "until the end of the battle, this unit loses its Dark Pacts ability"
            if s.bearer is not None and not _near_bearer(g, s, u):
                continue
            if s.after_kill and not any(d and not g.unit(t).alive for t, _, d in u.volley):
                continue  # "if one or more enemy units were destroyed by those attacks"
            if s.moves and positions.engaged_with(g, u):
                continue  # a Normal move: never from within Engagement Range
            if s.secures is not None and control.marker_to_secure(g, u, s.secures) is None:
                continue  # no objective marker it could Secure
            if (o := s.opens) is not None and not hatchways.hatches_to_open(g, u, o.open_hatch):
                continue  # no closed Hatchway in reach
            if (far := s.reserves) is not None and any(
                    positions.min_straight(g, u, e) <= far + 1e-9 for e in g.army_units(g.other(p))):
                continue  # Ambushing Hunters: "more than 6\" horizontally away from all enemy units"
            if s.stratagem and cost_rules(g) and g.cp[p] < stratagem_cost(g, p, s.cp, u):
                continue  # e.g. Malevolent Cunning: 1CP more on this unit
            out.append(Action("use", u.uid, arg=s.name))
    return out


def _enemy_targets(g: GameInterface, p: Player, s: Use, unit: str | None) -> list[Unit]:
    """The enemy units a rule whose TARGET is an enemy unit can select: measured from the
    bearer's unit (an Enhancement's; the moment's unit must be it) or the moment's unit."""
    if s.acting:  # the enemy unit the moment is about ("when an enemy unit within 9\" of the bearer attempts")
        src = g.unit(s.bearer) if s.bearer is not None else None
        e = g.unit(unit) if unit is not None else None
        if e is None or e.player == p or src is None or not src.alive or \
                s.within is not None and positions.unit_distance(g, src, e) > s.within + 1e-9:
            return []
        return [e]
    src = g.unit(s.bearer) if s.bearer is not None else g.unit(unit) if unit is not None else None
    if src is not None and (not src.alive or unit is not None and src.uid != unit):
        return []
    out = []
    for e in g.army_units(g.other(p)):
        if not e.alive or not s.target_keywords <= e.keywords or s.lacks & e.keywords:
            continue
        if src is not None:
            if s.hit and not any(t == e.uid and hits for t, hits, _ in src.volley):
                continue
            if s.engaged and not positions.engaged(g, src, e):
                continue
            if s.within is not None and positions.unit_distance(g, src, e) > s.within + 1e-9:
                continue
            if s.visible and not sight.visible_idx(g, src, e):
                continue
        out.append(e)
    return out


def covers(s: Use, u: Unit) -> bool:
    """A use for the army (``army``): ``u`` is one of the units it affects: those with its
    ``target_keywords`` ("active for ADEPTUS ASTARTES units from your army"), else those
    that have the ability."""
    return s.target_keywords <= u.keywords if s.target_keywords or not s.holders else u.uid in s.holders


def _near_bearer(g: GameInterface, s: Use, u: Unit) -> bool:
    """An Enhancement's TARGET: its bearer's unit, or with ``within`` a friendly unit within
    X" of (and, ``visible``, visible to) the bearer's unit."""
    if u.uid == s.bearer:
        return True
    if s.anywhere and s.bearer is not None:  # "if the bearer is on the battlefield"
        return g.unit(s.bearer).alive
    if s.within is None or s.bearer is None:
        return False
    b = g.unit(s.bearer)
    if not b.alive:
        return False
    if positions.unit_distance(g, b, u) <= s.within + 1e-9:
        return not s.visible or bool(sight.visible_idx(g, b, u))
    # Master Vox (Boarding Actions Mustering Rules, Astra Militarum rules adaptations): up to 12" away, Walls
    # and closed Hatchways ignored. Reading: its player allocates attacks so the vox's model is the last of the
    # unit to fall but the OFFICER (Core Rules: the defender allocates): it reaches while two models are left
    return s.reach_straight is not None and len(b.models) >= 2 and \
        positions.min_straight(g, b, u) <= s.reach_straight + 1e-9


def moment(g: GameInterface, timing: str, p: Player, unit: Unit | None = None) -> Generator[Decision, Action, None]:
    """The moment ``timing`` for player ``p``: while they have a rule usable now, they may
    use one (or pass)."""
    if not g.armies[p].uses:
        return
    uid = unit.uid if unit is not None else None
    while usable(g, p, timing, uid):
        info: dict[str, Any] = {"timing": timing}
        if uid is not None:
            info["unit"] = uid
        act = yield Decision("use", p, info)
        if act.kind != "use":
            return
        use_rule(g, p, act)
        yield from acts_now(g, p, act)


def acts_now(g: GameInterface, p: Player, act: Action) -> Generator[Decision, Action, None]:
    """What a rule just used does at once, besides its effects on its target: a Normal move,
    opening a Hatchway, Battle-shock tests (each may ask a player something)."""
    s = next(x for x in g.armies[p].uses if x.name == act.arg)
    for e in s.effects if s.moves else ():  # "it can make a Normal move of up to 3\"" at once
        if e.free_move is not None or e.free_move_roll is not None:
            yield from movement.free_move_now(g, g.unit(act.unit, p), e, s.name)
    if (o := s.opens) is not None:  # Daemonshrieker: "select one closed Hatchway ... roll one D6"
        yield from hatchways.open_hatch_now(g, g.unit(act.unit, p), o, s.name)
    if s.reserves is not None:  # Ambushing Hunters: "remove this unit ... place it into Strategic Reserves"
        reinforcements.recall(g, g.unit(act.unit, p), s.name, any(e.deep_strike_back for e in s.effects))
    if (sh := s.shocks) is not None:  # Shadow in the Warp: "each enemy unit on the battlefield must
        # take a Battle-shock test ... if it is within 6\" of one or more SYNAPSE units, subtract 1"
        synapse = [v for v in g.army_units(p) if "SYNAPSE" in v.keywords]
        for e in g.army_units(g.other(p)):
            near = any(positions.min_straight(g, e, v) <= 6 + 1e-9 for v in synapse)
            yield from command.battleshock_test(g, e, s.group or s.name, sh.shock_all + (sh.shock_synapse_mod if near else 0))


def roll_pools(g: GameInterface, p: Player) -> Generator[Decision, Action, None]:
    """At the start of the battle round: player ``p``'s roll for each of its rules with a pool of
    dice (Blessings of Khorne: "you can make a Blessings of Khorne roll. To do so, roll eight D6";
    four with the Mustering Rules' Slaughterer's Glory), if a unit that has it is on the battlefield;
    then, with an effect's ``pool_reroll`` (Chosen of Khorne), the player may re-roll all of them
    (decision step ``rule``, option ``re-roll``)."""
    done: set[str] = set()
    for s in g.armies[p].uses:
        rule = s.group or s.name
        if not s.pool or rule in done:
            continue
        done.add(rule)
        g.pools.pop(f"{p} {rule}", None)
        if any(covers(s, u) for u in g.army_units(p)):
            dice = tuple(sorted((g.dice.d6(f"{rule} {p}") for _ in range(s.pool)), reverse=True))
            g.pools[f"{p} {rule}"] = dice
            g.emit(ev.PoolRoll(e="pool_roll", player=p, rule=rule, dice=list(dice)))
            yield from _pool_reroll(g, p, s, rule)


def _pool_reroll(g: GameInterface, p: Player, s: Use, rule: str) -> Generator[Decision, Action, None]:
    """Chosen of Khorne (Boarding Butchers Enhancement): "once the bearer has destroyed one or more
    enemy units ... each time you make a Blessings of Khorne roll, if the bearer is on the battlefield,
    you can re-roll all of the dice (if you do, you must re-roll every dice)"."""
    by = next((u for u in g.army_units(p) if u.affected and u.sets("pool_reroll") and
               any(e.pool_reroll for e in u.setting("pool_reroll", holds_in(g)))), None)
    if by is None:
        return
    name = by.source("pool_reroll")
    fits = [x.name for x in g.armies[p].uses if (x.group or x.name) == rule and pool_fits(g, p, x)]
    act = yield Decision("rule", p, {"rule": name, "unit": by.uid, "pool": rule,
                                     "dice": list(g.pools[f"{p} {rule}"]), "fits": fits,
                                     "options": ["re-roll"]})
    if act.kind != "rule" or act.arg != "re-roll":
        return
    dice = tuple(sorted((g.dice.d6(f"{rule} {p} re-roll") for _ in range(s.pool)), reverse=True))
    g.pools[f"{p} {rule}"] = dice
    event = ev.PoolRoll(e="pool_roll", player=p, rule=rule, dice=list(dice))
    event["by"] = name
    g.emit(event)


def _manoeuvred_mark(g: GameInterface, p: Player, s: Use, u: Unit) -> tuple[str, str, int]:
    """The mark in ``used`` that ``u`` has performed one of the manoeuvres of ``s``'s rule this phase."""
    return (p, f"{s.spends} manoeuvre {u.uid}", g.phase_id)


def _manoeuvred(g: GameInterface, p: Player, s: Use, u: Unit) -> bool:
    return _manoeuvred_mark(g, p, s, u) in g.used


def gain_tokens(g: GameInterface, p: Player) -> None:
    """At the start of the battle round, player ``p`` receives each of its token pools' number
    (Battle Focus: "at the start of the battle round, you receive a number of Battle Focus
    tokens", the number a user supplied; unspent ones are lost at the end of it)."""
    done: set[str] = set()
    for s in g.armies[p].uses:
        if s.spends is None or s.spends in done or not s.gain:
            continue
        done.add(s.spends)
        g.tokens[f"{p} {s.spends}"] = s.gain
        g.emit(ev.Tokens(e="tokens", player=p, rule=s.spends, gain=s.gain, pool=s.gain,
                            why="the start of the battle round"))


def lose_tokens(g: GameInterface) -> None:
    """Battle Focus: "at the end of the battle round, all unspent Battle Focus tokens are lost"."""
    for key in sorted(g.tokens):
        n = g.tokens[key]
        if n:
            p, rule = key.split(" ", 1)
            g.tokens[key] = 0
            g.emit(ev.Tokens(e="tokens", player="A" if p == "A" else "B", rule=rule, gain=-n, pool=0,
                                why="unspent at the end of the battle round"))


def pool_fits(g: GameInterface, p: Player, s: Use) -> bool:
    """This round's roll for ``s``'s rule has the dice one of its needs names: "double 5" (two
    dice of the same value, 5 or higher), "triple 2" (three)."""
    dice = g.pools.get(f"{p} {s.group or s.name}", ())
    for need in s.pool_needs:
        kind, low = need.split()
        n = 2 if kind == "double" else 3
        if any(dice.count(v) >= n for v in range(int(low), 7)):
            return True
    return False


def use_rule(g: GameInterface, p: Player, act: Action) -> None:
    """Use the rule ``act`` names (a Stratagem: pay its CP) and give its target its effects."""
    same = [x for x in g.armies[p].uses if x.name == act.arg]
    u = g.unit(act.unit, g.other(p) if same[0].enemy else p)
    # a datasheet ability's uses share its name, one per unit that has it: the one that can
    # target ``u`` and is not used up
    about = g.decision.info.get("unit") if g.decision.step == "use" else None
    s = next((x for x in same if len(same) == 1 or _once(g, p, x, u.uid) not in g.used and (
        x.bearer is None or _near_bearer(g, x, u) or x.enemy and x.bearer == about)), same[0])
    # (an enemy TARGET is near no bearer: the use of the unit the moment is about, or it was marked
    # on another unit's use and offered again without end: Multi-spectrum Array on split squads)
    if s.stratagem:  # marks it used this phase and records the Stratagem (its cost as effects change it)
        g.spend_cp(p, stratagem_cost(g, p, s.cp, u, mark=True) if cost_rules(g) else s.cp, s.name)
        if cost_rules(g):
            stratagem_refund(g, p, u)
    else:
        g.emit(ev.RuleUsed(e="rule_used", player=p, name=s.name, kind=s.kind))
    if s.spends is not None:  # Battle Focus: one token spent, the unit has performed its manoeuvre this phase
        key = f"{p} {s.spends}"
        g.tokens[key] -= 1
        g.emit(ev.Tokens(e="tokens", player=p, rule=s.spends, gain=-1, pool=g.tokens[key], why=s.name))
        g.used.add(_manoeuvred_mark(g, p, s, u))
    if s.per_phase is None or _last_this_phase(g, p, s):
        g.used.add(_once(g, p, s, u.uid))
    if s.times is not None:
        g.used.add((p, f"{s.group or s.name} use {_times_used(g, p, s) + 1}", 0))
    if s.once_each:  # "each ... can only be selected once per battle"
        g.used.add((p, s.name, 0))
    if s.pain:  # Power from Pain: "spend 1 Pain token to Empower that unit" (until the end of the phase)
        g.pain[p] -= s.pain
        g.emit(ev.Pain(e="pain", player=p, gain=-s.pain, pool=g.pain[p], why=s.name))
        if s.empower:
            empowered(g, u)
    if s.self_test is not None:
        _self_test(g, p, s, u)
    if s.test == "leadership":  # "that enemy unit must take a Leadership test": failed, the effects
        roll = g.dice.d6(f"{s.name} {u.uid}") + g.dice.d6(f"{s.name} {u.uid}")
        ld = u.leadership(holds_in(g))
        mod = s.test_mod if s.test_mod_keyword is None or s.test_mod_keyword in u.keywords else 0
        passed = roll + mod >= ld
        test = ev.LeadershipTest(e="leadership_test", unit=u.uid, roll=roll, ld=ld, passed=passed, why=s.name)
        if mod:
            test["mod"] = mod
        g.emit(test)
        if passed != s.test_pass:  # (Wraith-Marked: "if passed, that objective marker is Secured")
            return
    if (how := s.secures) is not None and (m := control.marker_to_secure(g, u, how)) is not None:
        ok = control._secures(g, p, m)  # "that objective marker is Secured by your army"
        g.emit(ev.SecureRoll(e="secure_roll", player=p, marker=m + 1, unit=u.uid, roll=0, secured=ok, rule=s.name))
    if s.one_at_a_time:  # "a unit can only be affected by one Order at a time": the last one ends
        _replace(g, p, s, u)
    # until the start of the user's next phase of this kind ("until the start of your next Command phase")
    until = f"next {g.phase} {p}" if s.until == "next" else s.until
    if s.army:  # "... is active for your army": every unit that has the ability
        for v in g.units.values():
            if v.player == p and v.where != "destroyed" and covers(s, v):
                v.timed += tuple((s.name, e, until) for e in s.effects)
                g.emit(ev.Effect(e="effect", unit=v.uid, rule=s.name, until=s.until))
        return
    if any(e.aura is not None for e in s.effects):  # a timed aura: the army's units near the target too
        _timed_aura(g, p, s, u, until)
    gives = _choice_effects(g, s, u)  # its own effects, or every alternative's (Voice of the Octed)
    if s.until == "target_next_turn":  # "until the start of your opponent's next turn"
        u.timed += tuple((s.name, e, f"start {u.player}") for e in gives)
        g.emit(ev.Effect(e="effect", unit=u.uid, rule=s.name, until="next"))
        return
    if s.until == "next":  # until the start of the user's next phase of this kind
        u.timed += tuple((s.name, e, until) for e in gives)
        g.emit(ev.Effect(e="effect", unit=u.uid, rule=s.name, until="next"))
        return
    if s.until == "their_turn":  # "until the end of your opponent's next turn" (turns alternate)
        end = g.turn + (1 if g.active == p else 2)
        u.timed += tuple((s.name, e, f"turn {end}") for e in gives)
        g.emit(ev.Effect(e="effect", unit=u.uid, rule=s.name, until="their_turn"))
        return
    u.timed += tuple((s.name, e, s.until) for e in gives)
    if need := next((e.reinforce_roll for e in s.effects if e.reinforce_roll), None):
        armyrules.reinforce(g, u, need, s.name)  # "this unit can request reinforcement"
    if (back := s.returns) is not None:  # "return up to D3+2 destroyed models to that unit"
        armyrules.return_models(g, u, g.dice.roll_expr(back.return_models, f"{s.name} {u.uid}"), s.name)
    if u.battleshocked and any(e.end_battleshock for e in s.effects):
        u.battleshocked = False  # "that unit is no longer Battle-shocked"
        g.emit(ev.BattleshockEnds(e="battleshock_ends", unit=u.uid))
    if any(e.shoot_again for e in s.effects):  # Sentinel Storm: "after the unit has shot, it can shoot again"
        u.shot = False
    g.emit(ev.Effect(e="effect", unit=u.uid, rule=s.name, until=s.until))


def _choice_effects(g: GameInterface, s: Use, u: Unit) -> tuple[Any, ...]:
    """The effects a use gives ``u``: its own, or with an effect ``all_choices`` naming the rule
    (Voice of the Octed: "each time the bearer's unit makes a Dark Pact ... weapons gain both
    abilities conferred by that Dark Pact (instead of only one)") those of every alternative of
    the rule at that moment."""
    if s.group is None or not u.affected or not any(e.all_choices == s.group for e in u.effects()):
        return s.effects
    same = [x for x in g.armies[u.player].uses if x.group == s.group and x.when == s.when and x.phase == s.phase]
    return tuple(e for x in same for e in x.effects if x.bearer in (None, s.bearer))


def _last_this_phase(g: GameInterface, p: Player, s: Use) -> bool:
    """A use of ``s`` (used up to ``per_phase`` times a phase by each unit that has it: "this
    OFFICER can issue 2 Orders") is made: whether it is the last it may make this phase."""
    name, n = _once(g, p, s)[1], 1
    while (p, f"{name} per phase {n}", g.phase_id) in g.used:
        n += 1
    g.used.add((p, f"{name} per phase {n}", g.phase_id))
    return n >= (s.per_phase or 1)


def _replace(g: GameInterface, p: Player, s: Use, u: Unit) -> None:
    """``s`` is used on ``u``: the effects on ``u`` of an earlier use of the same rule (any unit's
    alternative) end ("any Order subsequently issued to that unit replaces the current one")."""
    rule = s.group or s.name
    names = {x.name for x in g.armies[p].uses if (x.group or x.name) == rule}
    old = [x for x in u.timed if x[0] in names]
    for name in dict.fromkeys(x[0] for x in old):
        g.emit(ev.EffectEnds(e="effect_ends", unit=u.uid, rule=name))
    if old:
        u.timed = tuple(x for x in u.timed if x[0] not in names)


def _times_used(g: GameInterface, p: Player, s: Use) -> int:
    """How many times ``s`` has been used in the battle (for ``times``)."""
    name, n = s.group or s.name, 0
    while (p, f"{name} use {n + 1}", 0) in g.used:
        n += 1
    return n


def _timed_aura(g: GameInterface, p: Player, s: Use, u: Unit, until: str) -> None:
    """An aura a rule gives its target for a while (Arcanoscientific Expertise: "until the start
    of your next Command phase, your unit has that ability", an Aura): each other unit of the
    army whose fixed conditions fit has its copy for as long, applying while within range. The
    same aura affects a unit once (Core Rules "Aura Abilities", see rules.effects.aura_copy):
    a unit with a copy of it for as long has that one copy name ``u`` too; a unit that has the
    aura itself has no copy (``u`` drops the one it had: it has the effect as its own)."""
    for e in (e for e in s.effects if e.aura is not None):
        own = repr(e)
        for v in g.units.values():  # (units in Reserves too: the aura is theirs once near)
            if v.player != p or v.where == "destroyed":
                continue
            mine = [x for x in v.timed if x[0] == s.name and x[2] == until]
            if any(repr(x[1]) == own for x in mine) and v is not u:
                continue  # it has the aura itself (a unit within range of its own aura)
            held = next((x for x in mine if aura_sources(x[1], e, s.name) is not None), None)
            if held is not None:  # replaced by one naming ``u`` too (``u`` itself: by its own)
                v.timed = tuple(x for x in v.timed if x is not held)
            if v is u:
                continue
            e2 = aura_copy(e, u.uid if held is None else f"{aura_sources(held[1], e, s.name)},{u.uid}", s.name)
            if held is not None or fits(e2, v.datasheet.name, v.keywords):
                v.timed += ((s.name, e2, until),)


def _self_test(g: GameInterface, p: Player, s: Use, u: Unit) -> None:
    """Dark Pacts: "it must first take a Leadership test before any effects ... are resolved; if
    that test is failed, that unit suffers D3 mortal wounds"; The Forsaken (Boarding Actions
    Mustering Rules): failed, the unit loses the ability until the end of the battle."""
    rule = s.group or s.name
    roll = g.dice.d6(f"{rule} {u.uid}") + g.dice.d6(f"{rule} {u.uid}")
    ld = u.leadership(holds_in(g))  # the best Leadership of the models left
    ok = roll >= ld
    g.emit(ev.LeadershipTest(e="leadership_test", unit=u.uid, roll=roll, ld=ld, passed=ok, why=rule))
    if u.affected and (need := effect_least(u, "self_test_cp")) is not None and roll >= need:
        g.gain_cp(p, 1, u.source("self_test_cp"))  # Dark Rewards: "on a 9+, you gain 1 CP"
    if ok:
        return
    if s.self_test_forsake:
        g.used.add((p, f"{rule} forsaken {u.uid}", 0))
    if s.self_test_mortals is not None:
        from bagm.engine.rules.missions.base import suffer_mortal_wounds

        suffer_mortal_wounds(g, u, g.dice.roll_expr(s.self_test_mortals, f"{rule} {u.uid}"), rule)


def end_timed(g: GameInterface, until: str) -> None:
    """The end of the phase or turn (or the start of a player's phase, "next PHASE PLAYER"):
    effects that last until then end."""
    for u in g.units.values():
        if u.timed and any(x[2] == until for x in u.timed):
            for name in dict.fromkeys(x[0] for x in u.timed if x[2] == until):
                g.emit(ev.EffectEnds(e="effect_ends", unit=u.uid, rule=name))
            u.timed = tuple(x for x in u.timed if x[2] != until)
