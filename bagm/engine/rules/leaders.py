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
from bagm.engine.rules.stratagems import affects, card, may_use, use, used_this_phase
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision, IllegalAction, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface
else:
    GameInterface = object  # the declared interface, checked by mypy only (see interface.py)


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


def not_modelled_notes(ds: Any) -> list[str]:
    """What a game lists for a Leader: its Leader abilities without modelled effects."""
    lead = getattr(ds, "leader", None)
    if lead is None:
        return []
    return [f"{ds.name}: Leader ability '{a.name}' has no modelled effect (Battlefield Command "
            f"cannot confer it)" for a in lead.abilities if not a.effects]


# --- the Stratagem ------------------------------------------------------------------------------


class LeaderRules(GameInterface):
    """Mixed into :class:`bagm.engine.game.Game` (its state lives there)."""

    def peerless_free(self, leader: Unit) -> bool:
        # Peerless Leader: once per battle round, the bearer can be targeted for 0CP
        return enhancement(leader.enhancement).free_battlefield_command and \
            self.peerless_round.get(leader.uid) != self.round

    def _may_target(self, u: Unit, leader: bool) -> bool:
        """``u`` can be targeted with Battlefield Command now, as the Leader unit or the
        Bodyguard: not Battle-shocked (unless the edition lets Stratagems target such units),
        and not targeted since its last Command phase (2024 RESTRICTIONS; the 2023 card has
        none, but a Bodyguard holds one conferred ability at a time in the engine)."""
        c = card(self, STRATAGEM)
        if u.commanded and (c.once_until_command or not leader):
            return False
        return affects(self, c, u)

    def _bodyguards(self, leader: Unit) -> list[Unit]:
        names = leader.datasheet.leader.bodyguard_keys
        return [b for b in self.army_units(leader.player)
                if b is not leader and b.datasheet.key in names and self._may_target(b, False)]

    def legal_command(self, p: Player) -> list[Action]:
        """Battlefield Command uses open to player ``p`` now (empty: no window is offered)."""
        # the Leaders that could be targeted now (your Battle-shocked units cannot be affected by
        # your Stratagems; a paid use needs 1CP and none yet this phase, Peerless Leader none)
        if not self.leaders[p]:
            return []
        paid = may_use(self, p, STRATAGEM)
        # asked at every window of every phase: kept (for the game) on all it reads, which Leaders
        # could be targeted included: whether a paid use is open, Peerless Leader uses this round,
        # each unit's flags and stamp (where its models stand, whether it is on the battlefield),
        # the Hatchways (distances around Walls)
        units = self.armies[p].units
        self.stamp(units[0])  # brings every stamp up to date: read directly below
        stamps = self._stamps
        key = ("command", p, paid, self.round, tuple(self.peerless_round.items()), self.closed,
               tuple([(u.commanded, u.battleshocked, stamps[u.uid]) for u in units]))
        got = self._by_stamp.get(key)
        if got is None:
            leaders = [u for u in self.leaders[p] if u.alive and self._may_target(u, True)
                       and (paid or self.peerless_free(u))]
            got = self._by_stamp[key] = (self._legal_command_now(leaders),)
        return got[0]

    def _legal_command_now(self, leaders: list[Unit]) -> list[Action]:
        """Each use by ``leaders`` (those that could be targeted): a Bodyguard within 6", one of
        the Leader's modelled abilities."""
        out: list[Action] = []
        for leader in leaders:
            abilities = modelled_abilities(leader.datasheet)
            for b in self._bodyguards(leader):
                # a path around Walls is never shorter than the straight line: a quick refusal
                if self.min_straight(leader, b) <= COMMAND_RANGE and self.unit_distance(leader, b) <= COMMAND_RANGE:
                    out += [Action("command", leader.uid, target=b.uid, arg=a.name) for a in abilities]
        return out

    def _battlefield_command(self, when: str) -> Generator[Decision, Action, None]:
        """Stratagems "Battlefield Command": WHEN start or end of any phase. A window opens at
        the start and at the end of every phase (``when``; the program of
        :mod:`bagm.engine.game.flow`). The player whose turn it is decides first, then the
        opponent, while they have a legal use; then each may use supplied Stratagems of that
        moment (``phase_start``, ``phase_end``: :mod:`bagm.engine.game.moments`). The 2023
        card's WHEN is "Your Command phase": its windows are the start and the end of the
        active player's Command phase, for that player only."""
        timing = "phase_start" if when == "start" else "phase_end"
        if self.window == 0:
            if when == "end":
                self.revivals()  # Resurrection Protocols: "roll one D6 at the end of the phase"
            yield from self._marks_again()  # e.g. Manhunter's Helm: a new Priority Target once the last is destroyed
        yours = card(self, STRATAGEM).when == "your_command"  # the 2023 card
        while self.window < 4:
            p = self.active if self.window % 2 == 0 else self.other(self.active)
            offered = not yours or (self.phase == "command" and self.window == 0)
            if self.window < 2 and offered and self.legal_command(p):
                act = yield self.ask("command", p, {"phase": self.phase})
                if act.kind == "command":
                    discount = yield from self._pain_discount(p, act)
                    self._do_command(p, act, discount)
                    continue
            elif self.window >= 2 and self.usable(p, timing):
                act = yield self.ask("use", p, {"timing": timing})
                if act.kind == "use":
                    self.use_rule(p, act)
                    yield from self.acts_now(p, act)  # e.g. Shadow in the Warp's Battle-shock tests
                    continue
            self.window += 1
        self.window: int = 0

    def _check_command(self, p: Player, act: Action) -> None:
        if act.kind == "pass":
            return
        if act.kind != "command":
            raise IllegalAction(f"now player {p} may use Battlefield Command: 'command LEADER UNIT "
                                "ABILITY' or 'pass'", RULE)
        leader = self.live_unit(act.unit, p, RULE)
        lead = leader.datasheet.leader
        if lead is None:
            raise IllegalAction(f"{leader.label()} is not a Leader unit", RULE, leader.uid)
        b = self.live_unit(act.target, p, RULE)
        if b is leader or _norm(b.datasheet.name) not in {_norm(n) for n in lead.bodyguards}:
            can = ", ".join(lead.bodyguards) or "no unit"
            raise IllegalAction(f"{leader.label()} could not normally be attached to {b.label()} "
                                f"(it leads: {can})", RULE, leader.uid)
        ability = self._ability(leader, act.arg)
        if not ability.effects:
            raise IllegalAction(f"the engine does not model the Leader ability '{ability.name}'",
                                RULE, leader.uid)
        c = card(self, STRATAGEM)
        if c.when == "your_command" and (self.phase != "command" or p != self.active):
            raise IllegalAction("the 2023 Battlefield Command is used in your Command phase",
                                RULE + " (2023: WHEN Your Command phase)", leader.uid)
        for u in (leader, b):
            if u.commanded and (c.once_until_command or u is b):
                raise IllegalAction(f"{u.label()} was already targeted with Battlefield Command since "
                                    "its last Command phase", RULE + " (Restrictions)", u.uid)
            if not affects(self, c, u):
                raise IllegalAction(f"{u.label()} is Battle-shocked: your Stratagems cannot affect it",
                                    "Battle-shock", u.uid)
        if not self.peerless_free(leader):
            if used_this_phase(self, p, STRATAGEM):
                raise IllegalAction("Battlefield Command was already used this phase", "Stratagems: once "
                                    "per phase", leader.uid)
            if self.cp[p] < STRATAGEM.cp:
                raise IllegalAction(f"player {p} has {self.cp[p]}CP; Battlefield Command costs {STRATAGEM.cp}CP",
                                    RULE, leader.uid)
        if self.unit_distance(leader, b) > COMMAND_RANGE:
            raise IllegalAction(f"{b.label()} is not within 6\" of {leader.label()}", RULE, b.uid)

    def _ability(self, leader: Unit, name: str | None) -> Any:
        abilities = leader.datasheet.leader.abilities
        for a in abilities:
            if _norm(a.name) == _norm(name or ""):
                return a
        raise IllegalAction(f"{leader.label()} has no Leader ability '{name}' (has: "
                            f"{', '.join(a.name for a in abilities) or 'none'})", RULE, leader.uid)

    def _pain_discount(self, p: Player, act: Action) -> Generator[Decision, Action, str | None]:
        """Commorrite Rivalries: the player may expend 1 Pain token to pay 1CP less for this use
        (a decision, step "rule"). Reading: the use is offered as any paid one, to a player who
        has the card's CP; the token is expended as it is used."""
        rule = pain_discount(self, p)
        if rule is None or self.peerless_free(self.unit(act.unit, p)):
            return None
        ans = yield self.ask("rule", p, {"rule": rule, "options": ["expend 1 Pain token"]})
        return rule if ans.kind == "rule" else None

    def _do_command(self, p: Player, act: Action, discount: str | None = None) -> None:
        leader, b = self.unit(act.unit, p), self.unit(act.target, p)
        ability = self._ability(leader, act.arg)
        free = self.peerless_free(leader)
        if free:
            self.peerless_round[leader.uid] = self.round
        if discount is not None:  # Commorrite Rivalries: "decrease that Stratagem's cost by 1CP for that usage"
            self.pain[p] -= 1
            self.emit(ev.Pain(e="pain", player=p, gain=-1, pool=self.pain[p], why=discount))
        use(self, p, STRATAGEM, cp=0 if free else max(0, STRATAGEM.cp - 1) if discount else None)
        # until the start of your next Command phase; neither unit can be targeted again until then
        leader.commanded = b.commanded = True
        b.led = (leader.uid, ability.name, ability)  # answers kept that depend on it name it in their keys
        self.emit(ev.BattlefieldCommand(e="battlefield_command", leader=leader.uid, unit=b.uid, ability=ability.name,
                  peerless=free))

    def end_command(self, p: Player) -> None:
        """Start of player ``p``'s Command phase: their conferred Leader abilities end."""
        for u in self.armies[p].units:
            u.commanded = False
            if u.led is not None:
                self.emit(ev.LeaderAbilityEnds(e="leader_ability_ends", unit=u.uid, ability=u.led[1]))
                u.led = None
