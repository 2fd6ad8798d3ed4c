"""Leaders in Boarding Actions: they never attach; the Battlefield Command Stratagem confers one
Leader ability on a Bodyguard unit instead, and Peerless Leader makes that free once per round.

Rules Adaptations "Leaders" and "Leader Abilities"; Stratagems "Battlefield Command";
Enhancements "Peerless Leader". The abilities' effects come from the data packs
(:class:`bagm.data.models.LeaderEffect`); an ability without modelled effects is never offered
and every game lists it as not modelled.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bagm.chance.dice import DiceExpr
from bagm.data.weapons import Abilities, WeaponProfile
from bagm.engine.attack.rules import Conditions, Reroll
from bagm.engine.rules.enhancements import enhancement
from bagm.engine.rules.stratagems import BATTLEFIELD_COMMAND as STRATAGEM
from bagm.engine.rules.stratagems import may_use, use, used_this_phase
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision, IllegalAction

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface
else:
    GameInterface = object  # the declared interface, checked by mypy only (see interface.py)


RULE = "Battlefield Command Stratagem"
COMMAND_RANGE = 6.0  # Battlefield Command: a Bodyguard unit within 6" of the Leader unit
_REROLL_ORDER = {Reroll.none: 0, Reroll.ones: 1, Reroll.failed: 2}


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


def leader_ability_names(ds: Any) -> set[str]:
    lead = getattr(ds, "leader", None)
    return {_norm(a.name) for a in lead.abilities} if lead is not None else set()


# --- effects in the attack sequence ------------------------------------------------------------

_WEAPONS: dict[tuple[Any, ...], WeaponProfile] = {}  # (weapon, *its effects): the weapon changed


def _effects(u: Unit, melee: bool) -> list[Any]:
    if u.led is None:
        return []
    want = "melee" if melee else "ranged"
    return [e for e in u.led_effects() if e.attacks in ("all", want)]


def _better(a: Reroll, b: str | None) -> Reroll:
    r = Reroll(b) if b else Reroll.none
    return r if _REROLL_ORDER[r] > _REROLL_ORDER[a] else a


def led_weapon(u: Unit, w: WeaponProfile) -> WeaponProfile:
    """The weapon as the unit's conferred Leader ability changes it (characteristics, abilities)."""
    # an effect with a condition on the target changes Hit and Wound rolls only (led_conditions)
    effects = [e for e in _effects(u, w.melee) if e.target_while is None and not e.target_lacks]
    if not effects:
        return w
    key = (w, *effects)  # effects hash by identity; a condition may leave some out
    out = _WEAPONS.get(key)
    if out is None:
        out = w
        for e in effects:
            a = out.attacks
            d = out.damage
            out = replace(out, attacks=DiceExpr(a.count, a.sides, a.bonus + e.A_mod),
                          strength=max(1, min(30, out.strength + e.S_mod)),
                          ap=max(-6, min(0, out.ap + e.AP_mod)),
                          damage=DiceExpr(d.count, d.sides, d.bonus + e.D_mod),
                          abilities=out.abilities.plus(Abilities.from_data(e.weapon_abilities)))
        _WEAPONS[key] = out
    return out


def led_conditions(u: Unit, t: Unit, w: WeaponProfile, cond: Conditions) -> Conditions:
    """The attack's conditions with the attacker's and the target's conferred Leader abilities."""
    mine = _effects(u, w.melee)
    theirs = t.led_effects() if t.led is not None else []
    if not mine and not theirs:
        return cond
    hit, wound, crit, cover = cond.hit_mod, cond.wound_mod, cond.critical_hit, cond.cover
    rh, rw = cond.reroll_hits, cond.reroll_wounds
    for e in mine:
        if e.target_while is not None and not (
                t.below_starting() if e.target_while == "below_starting" else t.below_half()):
            continue  # "an attack that targets a unit that is Below Half-strength"
        if e.target_lacks and any(k in t.keywords for k in e.target_lacks):
            continue  # "... that targets an enemy unit that does not have the X keyword"
        hit += e.hit_mod
        wound += e.wound_mod
        rh, rw = _better(rh, e.reroll_hits), _better(rw, e.reroll_wounds)
        if e.crit_hit is not None:  # "an unmodified Hit roll of 5+ scores a Critical Hit"
            crit = min(crit, e.crit_hit)
    for e in theirs:  # attacks that target the led unit
        if e.against != "all" and (e.against == "melee") != w.melee:
            continue  # e.g. Stealth: ranged attacks only
        hit += e.hit_against_mod
        wound += e.wound_against_mod
        cover = cover or (e.cover and not w.melee)  # Benefit of Cover: against ranged attacks
    return replace(cond, hit_mod=hit, wound_mod=wound, reroll_hits=rh, reroll_wounds=rw,
                   critical_hit=crit, cover=cover)


def _best(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def led_defence(t: Unit, w: WeaponProfile | None = None) -> tuple[int | None, int | None]:
    """The target's invulnerable save and Feel No Pain with its conferred Leader ability; with
    the attacking weapon ``w``, Feel No Pain against Psychic Attacks counts for a [PSYCHIC] one."""
    inv, fnp = t.invuln, None
    if t.led is not None:
        psychic = w is not None and w.abilities.psychic
        for e in t.led_effects():
            inv, fnp = _best(inv, e.invuln), _best(fnp, e.fnp)
            if psychic:
                fnp = _best(fnp, e.fnp_psychic)
    return inv, fnp


def led_fnp_mortal(t: Unit) -> int | None:
    """Feel No Pain against mortal wounds only, from the unit's conferred Leader ability."""
    return led_least(t, "fnp_mortal")


# --- effects outside the attack sequence ---------------------------------------------------------
# Callers check ``u.led is not None`` first, so units not led pay nothing.


def led_sum(u: Unit, field: str) -> int:
    """A numeric field (OC_mod, M_mod, advance_mod, charge_mod) summed over the unit's conferred
    Leader ability: 0 when it has none."""
    return sum(getattr(e, field) for e in u.led_effects()) if u.led is not None else 0


def led_least(u: Unit, field: str) -> int | None:
    """The smallest value of an optional field (ranged_within, pile_in) over the unit's conferred
    Leader ability: None when no effect sets it."""
    out = None
    if u.led is not None:
        for e in u.led_effects():
            out = _best(out, getattr(e, field))
    return out


def led_has(u: Unit, field: str) -> bool:
    """Whether the unit's conferred Leader ability grants a flag (fights_first, reroll_charge,
    reroll_advance, charge_after_advance)."""
    return u.led is not None and any(getattr(e, field) for e in u.led_effects())


# --- the Stratagem ------------------------------------------------------------------------------


class LeaderRules(GameInterface):
    """Mixed into :class:`bagm.engine.game.Game` (its state lives there)."""

    def peerless_free(self, leader: Unit) -> bool:
        # Peerless Leader: once per battle round, the bearer can be targeted for 0CP
        return enhancement(leader.enhancement).free_battlefield_command and \
            self.peerless_round.get(leader.uid) != self.round

    def _bodyguards(self, leader: Unit) -> list[Unit]:
        names = leader.datasheet.leader.bodyguard_keys
        return [b for b in self.army_units(leader.player)
                if b is not leader and not b.commanded and not b.battleshocked and b.datasheet.key in names]

    def legal_command(self, p: str) -> list[Action]:
        """Battlefield Command uses open to player ``p`` now (empty: no window is offered)."""
        # the Leaders that could be targeted now (your Battle-shocked units cannot be affected by
        # your Stratagems; a paid use needs 1CP and none yet this phase, Peerless Leader none)
        paid = may_use(self, p, STRATAGEM)
        leaders = [u for u in self.leaders[p] if u.alive and not u.commanded and not u.battleshocked
                   and (paid or self.peerless_free(u))]
        if not leaders:
            return []  # nothing to work out
        # asked at every window of every phase: kept (for the game) on all it reads: whether a
        # paid use is open, Peerless Leader uses this round, each unit's flags and stamp (where
        # its models stand), the Hatchways (distances around Walls)
        units = self.armies[p].units
        self.stamp(units[0])  # brings every stamp up to date: read directly below
        stamps = self._stamps
        key = ("command", p, paid, self.round, tuple(self.peerless_round.items()), self.closed,
               tuple([(u.commanded, u.battleshocked, stamps[u.uid]) for u in units]))
        got = self._by_stamp.get(key)
        if got is None:
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

    def _battlefield_command(self) -> Generator[Decision, Action, None]:
        """Stratagems "Battlefield Command": WHEN start or end of any phase. A window opens at
        the start and at the end of every phase (the program of :mod:`bagm.engine.game.flow`).
        The player whose turn it is decides first, then the opponent, while they have a legal
        use."""
        while self.window < 2:
            p = self.active if self.window == 0 else self.other(self.active)
            if self.legal_command(p):
                act = yield self.ask("command", p, {"phase": self.phase})
                if act.kind == "command":
                    self._do_command(p, act)
                    continue
            self.window += 1
        self.window: int = 0

    def _check_command(self, p: str, act: Action) -> None:
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
        for u in (leader, b):
            if u.commanded:
                raise IllegalAction(f"{u.label()} was already targeted with Battlefield Command since "
                                    "its last Command phase", RULE + " (Restrictions)", u.uid)
            if u.battleshocked:
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

    def _do_command(self, p: str, act: Action) -> None:
        leader, b = self.unit(act.unit, p), self.unit(act.target, p)
        ability = self._ability(leader, act.arg)
        free = self.peerless_free(leader)
        if free:
            self.peerless_round[leader.uid] = self.round
        use(self, p, STRATAGEM, cp=0 if free else None)
        # until the start of your next Command phase; neither unit can be targeted again until then
        leader.commanded = b.commanded = True
        b.led = (leader.uid, ability.name, ability)  # answers kept that depend on it name it in their keys
        self.emit("battlefield_command", leader=leader.uid, unit=b.uid, ability=ability.name,
                  peerless=free)

    def _leader_reroll(self, p: str, u: Unit, info: dict[str, Any]) -> Generator[Decision, Action, bool]:
        """A re-roll a conferred Leader ability gives ("you can re-roll Charge rolls made for
        that unit"), offered just after the roll in place of Command Re-roll (a dice is re-rolled
        once at most): free, and Battle-shock does not stop it (no Stratagem is used). True when
        the player re-rolls."""
        act = yield Decision("reroll", p, {"unit": u.uid, "free": True, **info})
        if act.kind != "reroll":
            return False
        self.emit("leader_reroll", unit=u.uid, ability=u.led[1], what=info.get("what", "charge"))
        return True

    def end_command(self, p: str) -> None:
        """Start of player ``p``'s Command phase: their conferred Leader abilities end."""
        for u in self.armies[p].units:
            u.commanded = False
            if u.led is not None:
                self.emit("leader_ability_ends", unit=u.uid, ability=u.led[1])
                u.led = None
