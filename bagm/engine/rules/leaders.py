"""Leaders in Boarding Actions: they never attach; the Battlefield Command Stratagem confers one
Leader ability on a Bodyguard unit instead, and Peerless Leader makes that free once per round.

Rules Adaptations "Leaders" and "Leader Abilities"; Stratagems "Battlefield Command";
Enhancements "Peerless Leader". The abilities' effects come from the data packs
(:class:`bagm.data.models.Effect`); an ability without modelled effects is never offered
and every game lists it as not modelled.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.rules.army_rules import pain_discount
from bagm.engine.rules.enhancements import enhancement
from bagm.engine.rules.stratagems import BATTLEFIELD_COMMAND as STRATAGEM
from bagm.engine.rules.stratagems import Stratagem, affects, card, may_use, use, used_this_phase
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision, IllegalAction, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface


RULE = "Battlefield Command Stratagem"
COMMAND_RANGE = 6.0  # Battlefield Command: a Bodyguard unit within 6" of the Leader unit


def _norm(name: str) -> str:
    from bagm.data.names import norm

    return norm(name)


def modelled_abilities(ds: Any) -> list[Any]:
    """The Leader abilities of a datasheet whose effects the engine applies (those the pack
    describes; kept on the datasheet, asked at every Battlefield Command window)."""
    lead = getattr(ds, "leader", None)
    return lead.described if lead is not None else []


def commanders(units: list[Unit]) -> list[Unit]:
    """The units of an army that Battlefield Command can ever target as the Leader unit: a
    Leader with a modelled Leader ability and another unit of its army it could lead (an army's
    units never change in a game: the Battlefield Command windows of an army without one are
    passed at once)."""
    return [u for u in units if modelled_abilities(u.datasheet) and any(
        b is not u and b.datasheet.key in u.datasheet.leader.bodyguard_keys for b in units)]


def not_modelled_notes(ds: Any) -> list[str]:
    """What a game lists for a Leader: its Leader abilities without modelled effects."""
    lead = getattr(ds, "leader", None)
    if lead is None:
        return []
    return [f"{ds.name}: Leader ability '{a.name}' has no modelled effect (Battlefield Command "
            f"cannot confer it)" for a in lead.abilities if not a.effects]


# --- the Stratagem ------------------------------------------------------------------------------


def peerless_free(g: GameInterface, leader: Unit) -> bool:
    # Peerless Leader: once per battle round, the bearer can be targeted for 0CP
    return enhancement(leader.enhancement).free_battlefield_command and \
        g.peerless_round.get(leader.uid) != g.round


def _may_target(g: GameInterface, u: Unit, leader: bool, c: Stratagem | None = None) -> bool:
    """``u`` can be targeted with Battlefield Command now, as the Leader unit or the
    Bodyguard: not Battle-shocked (unless the edition lets Stratagems target such units),
    and not targeted since its last Command phase (2024 RESTRICTIONS; the 2023 card has
    none, but a Bodyguard holds one conferred ability at a time in the engine). ``c``: the
    game's card, when the caller has it."""
    if c is None:
        c = card(g, STRATAGEM)
    if u.commanded and (c.once_until_command or not leader):
        return False
    return affects(g, c, u)


def legal_command(g: GameInterface, p: Player) -> list[Action]:
    """Battlefield Command uses open to player ``p`` now (empty: no window is offered)."""
    # the Leaders that could be targeted now (your Battle-shocked units cannot be affected by
    # your Stratagems; a paid use needs 1CP and none yet this phase, Peerless Leader none)
    if not g.leaders[p]:
        return []
    # the units within 6" of each Leader depend on where the models stand alone (kept); the
    # flags (targeted, Battle-shocked), CP and uses this phase change between windows with
    # nothing moving: read afresh (most windows: no unit to lead within 6", no CP, used this
    # phase, or every Leader targeted already)
    reach = in_command_range(g, p)
    if not reach:
        return []
    c = card(g, STRATAGEM)
    leaders = [u for u in g.leaders[p] if u.uid in reach and _may_target(g, u, True, c)]
    if not leaders:
        return []
    if not may_use(g, p, STRATAGEM):
        leaders = [u for u in leaders if peerless_free(g, u)]
    out: list[Action] = []
    for leader in leaders:
        for b, uses in reach[leader.uid]:
            if _may_target(g, b, False, c):
                out += uses
    return out


def in_command_range(g: GameInterface, p: Player) -> dict[str, tuple[tuple[Unit, list[Action]], ...]]:
    """For each Leader of ``p``'s army Battlefield Command can target (``g.leaders``) that is on
    the battlefield with a unit it could lead within 6" of it, those units (in army order), each
    with its uses (one per modelled Leader ability), their flags aside:
    asked at every window of every phase, so kept until anything on the battlefield changes,
    then (for the game) on the stamps of the army's units (where their models stand, whether
    they are on the battlefield) and the Hatchways (distances around Walls)."""
    now = g.kept_now()
    here = ("command range", p)
    got: dict[str, tuple[tuple[Unit, list[Action]], ...]] | None = now.get(here)
    if got is None:
        units = g.armies[p].units
        g.stamp(units[0])  # brings every stamp up to date: read directly below
        stamps = g._stamps
        key = (here, g.closed, tuple([stamps[u.uid] for u in units]))
        kept = g._by_stamp.get(key)
        if kept is None:
            kept = g._by_stamp[key] = ({u.uid: near for u in g.leaders[p] if (near := _in_range_now(g, u))},)
        got = now[here] = kept[0]
    return got


def _in_range_now(g: GameInterface, leader: Unit) -> tuple[tuple[Unit, list[Action]], ...]:
    """The units ``leader`` could lead within 6" of it, each with its uses."""
    if not leader.alive:
        return ()
    names = leader.datasheet.leader.bodyguard_keys
    abilities = modelled_abilities(leader.datasheet)
    out = []
    for b in g.army_units(leader.player):
        # a path around Walls is never shorter than the straight line: a quick refusal
        if b is not leader and b.datasheet.key in names and g.min_straight(leader, b) <= COMMAND_RANGE \
                and g.unit_distance(leader, b) <= COMMAND_RANGE:
            out.append((b, [Action("command", leader.uid, target=b.uid, arg=a.name) for a in abilities]))
    return tuple(out)


def _battlefield_command(g: GameInterface, when: str) -> Generator[Decision, Action, None]:
    """Stratagems "Battlefield Command": WHEN start or end of any phase. A window opens at
    the start and at the end of every phase (``when``; the program of
    :mod:`bagm.engine.game.flow`). The player whose turn it is decides first, then the
    opponent, while they have a legal use; then each may use supplied Stratagems of that
    moment (``phase_start``, ``phase_end``: :mod:`bagm.engine.game.moments`). The 2023
    card's WHEN is "Your Command phase": its windows are the start and the end of the
    active player's Command phase, for that player only."""
    timing = "phase_start" if when == "start" else "phase_end"
    if g.window == 0:
        if when == "end":
            g.revivals()  # Resurrection Protocols: "roll one D6 at the end of the phase"
        yield from g._marks_again()  # e.g. Manhunter's Helm: a new Priority Target once the last is destroyed
    yours = card(g, STRATAGEM).when == "your_command"  # the 2023 card
    while (w := g.window) < 4:
        p = g.active if w % 2 == 0 else g.other(g.active)
        if w < 2:
            # (a player none of whose Leaders Battlefield Command can target: no look further)
            if g.leaders[p] and (not yours or (g.phase == "command" and w == 0)) and legal_command(g, p):
                act = yield g.ask("command", p, {"phase": g.phase})
                if act.kind == "command":
                    discount = yield from _pain_discount(g, p, act)
                    _do_command(g, p, act, discount)
                    continue
        elif g.armies[p].uses and g.usable(p, timing):
            act = yield g.ask("use", p, {"timing": timing})
            if act.kind == "use":
                g.use_rule(p, act)
                yield from g.acts_now(p, act)  # e.g. Shadow in the Warp's Battle-shock tests
                continue
        g.window = w + 1
    g.window = 0


def _check_command(g: GameInterface, p: Player, act: Action) -> None:
    if act.kind == "pass":
        return
    if act.kind != "command":
        raise IllegalAction(f"now player {p} may use Battlefield Command: 'command LEADER UNIT "
                            "ABILITY' or 'pass'", RULE)
    leader = g.live_unit(act.unit, p, RULE)
    lead = leader.datasheet.leader
    if lead is None:
        raise IllegalAction(f"{leader.label()} is not a Leader unit", RULE, leader.uid)
    b = g.live_unit(act.target, p, RULE)
    if b is leader or _norm(b.datasheet.name) not in {_norm(n) for n in lead.bodyguards}:
        can = ", ".join(lead.bodyguards) or "no unit"
        raise IllegalAction(f"{leader.label()} could not normally be attached to {b.label()} "
                            f"(it leads: {can})", RULE, leader.uid)
    ability = _ability(g, leader, act.arg)
    if not ability.effects:
        raise IllegalAction(f"the engine does not model the Leader ability '{ability.name}'",
                            RULE, leader.uid)
    c = card(g, STRATAGEM)
    if c.when == "your_command" and (g.phase != "command" or p != g.active):
        raise IllegalAction("the 2023 Battlefield Command is used in your Command phase",
                            RULE + " (2023: WHEN Your Command phase)", leader.uid)
    for u in (leader, b):
        if u.commanded and (c.once_until_command or u is b):
            raise IllegalAction(f"{u.label()} was already targeted with Battlefield Command since "
                                "its last Command phase", RULE + " (Restrictions)", u.uid)
        if not affects(g, c, u):
            raise IllegalAction(f"{u.label()} is Battle-shocked: your Stratagems cannot affect it",
                                "Battle-shock", u.uid)
    if not peerless_free(g, leader):
        if used_this_phase(g, p, STRATAGEM):
            raise IllegalAction("Battlefield Command was already used this phase", "Stratagems: once "
                                "per phase", leader.uid)
        if g.cp[p] < STRATAGEM.cp:
            raise IllegalAction(f"player {p} has {g.cp[p]}CP; Battlefield Command costs {STRATAGEM.cp}CP",
                                RULE, leader.uid)
    if g.unit_distance(leader, b) > COMMAND_RANGE:
        raise IllegalAction(f"{b.label()} is not within 6\" of {leader.label()}", RULE, b.uid)


def _ability(g: GameInterface, leader: Unit, name: str | None) -> Any:
    abilities = leader.datasheet.leader.abilities
    for a in abilities:
        if _norm(a.name) == _norm(name or ""):
            return a
    raise IllegalAction(f"{leader.label()} has no Leader ability '{name}' (has: "
                        f"{', '.join(a.name for a in abilities) or 'none'})", RULE, leader.uid)


def _pain_discount(g: GameInterface, p: Player, act: Action) -> Generator[Decision, Action, str | None]:
    """Commorrite Rivalries: the player may expend 1 Pain token to pay 1CP less for this use
    (a decision, step "rule"). Reading: the use is offered as any paid one, to a player who
    has the card's CP; the token is expended as it is used."""
    rule = pain_discount(g, p)
    if rule is None or peerless_free(g, g.unit(act.unit, p)):
        return None
    ans = yield g.ask("rule", p, {"rule": rule, "options": ["expend 1 Pain token"]})
    return rule if ans.kind == "rule" else None


def _do_command(g: GameInterface, p: Player, act: Action, discount: str | None = None) -> None:
    leader, b = g.unit(act.unit, p), g.unit(act.target, p)
    ability = _ability(g, leader, act.arg)
    free = peerless_free(g, leader)
    if free:
        g.peerless_round[leader.uid] = g.round
    if discount is not None:  # Commorrite Rivalries: "decrease that Stratagem's cost by 1CP for that usage"
        g.pain[p] -= 1
        g.emit(ev.Pain(e="pain", player=p, gain=-1, pool=g.pain[p], why=discount))
    use(g, p, STRATAGEM, cp=0 if free else max(0, STRATAGEM.cp - 1) if discount else None)
    # until the start of your next Command phase; neither unit can be targeted again until then
    leader.commanded = b.commanded = True
    b.led = (leader.uid, ability.name, ability)  # answers kept that depend on it name it in their keys
    g.emit(ev.BattlefieldCommand(e="battlefield_command", leader=leader.uid, unit=b.uid, ability=ability.name,
              peerless=free))


def end_command(g: GameInterface, p: Player) -> None:
    """Start of player ``p``'s Command phase: their conferred Leader abilities end."""
    for u in g.armies[p].units:
        u.commanded = False
        if u.led is not None:
            g.emit(ev.LeaderAbilityEnds(e="leader_ability_ends", unit=u.uid, ability=u.led[1]))
            u.led = None
