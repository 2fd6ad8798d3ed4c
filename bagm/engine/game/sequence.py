"""A game of Boarding Actions: the state, the mission sequence and the phases of each turn.

The API follows game engines: :class:`Game` holds the state; :attr:`Game.decision` says who
must decide what now; :meth:`Game.legal_actions` lists a finite set of legal choices (moves are
offered toward a few useful points; any other destination may be asked for and is checked);
:meth:`Game.check` refuses an illegal action naming the rule; :meth:`Game.apply` plays one
action and returns the events it caused. The sequence itself is a generator that yields each
decision, so the rules read in their book order. All chance comes from one seeded
:class:`~bagm.chance.dice.Dice`; the event log plus the seed is the game's replay.

The phases live in their own modules, mixed into :class:`Game`: :mod:`bagm.engine.game.movement`,
:mod:`bagm.engine.game.shooting`, :mod:`bagm.engine.game.charge`, :mod:`bagm.engine.game.fight`; where models
stand is :mod:`bagm.engine.game.positions`. This module holds the mission sequence (muster, roles,
Deploy Armies, Strategic Reserves, first turn, five battle rounds, the victor), the Command phase,
the end of a turn (Unit Coherency), objective control, and the API.

Simplifications (stated in every game's output, see :data:`SIMPLIFICATIONS`) concern where
models stand: units move as formations laid out by the engine around a lead model.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Generator
from typing import Any

from bagm.chance.dice import Dice
from bagm.engine.board.battlefield import Battlefield
from bagm.engine.game.charge import ChargePhase
from bagm.engine.game.control import ObjectiveControl
from bagm.engine.game.fight import FightPhase
from bagm.engine.game.flow import program
from bagm.engine.game.kept import KeptAnswers
from bagm.engine.game.moments import Moments
from bagm.engine.game.movement import MovementPhase
from bagm.engine.game.positions import Positions
from bagm.engine.game.shooting import ShootingPhase
from bagm.engine.game.snapshot import start_of
from bagm.engine.rules.editions import Edition, edition_of
from bagm.engine.rules.effects import effect_has, effect_least, effect_sum, shock_aura
from bagm.engine.rules.enhancements import enhancement
from bagm.engine.rules.leaders import LeaderRules, modelled_abilities
from bagm.engine.rules.missions import Mission, get_mission
from bagm.engine.rules.stratagems import COMMAND_REROLL, INSANE_BRAVERY, may_use, use
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Army, Unit
from bagm.engine.state.core import (
    _GEO,
    _WALL_VIS,
    BATTLE_READY_VP,
    INFILTRATE,
    PLAYERS,
    SIMPLIFICATIONS,
    VP_CAP,
    Decision,
    IllegalAction,
    Player,
    Step,
    Where,
    _pt,
    _r,
)

__all__ = [
    "BATTLE_READY_VP",
    "SIMPLIFICATIONS",
    "VP_CAP",
    "Decision",
    "Game",
    "IllegalAction",
    "Unit",
    "_r",
]


# the steps whose actions are checked one by one (the others against their list of legal actions)
_CHECKS = {"deploy": "_check_deploy", "move": "_check_move", "hatch": "_check_hatch", "opening": "_check_opening",
           "freemove": "_check_freemove",
           "reinforce": "_check_reinforce", "manoeuvre": "_check_manoeuvre", "shoot": "_check_shoot",
           "charge": "_check_charge", "fight": "_check_fight", "command": "_check_command"}


class Game(KeptAnswers, ObjectiveControl, Positions, MovementPhase, ShootingPhase, ChargePhase, FightPhase,
           LeaderRules, Moments):
    """One game of a mission between armies A and B."""

    def __init__(self, mission: int, army_a: Army, army_b: Army, seed: int = 0,
                 rolloffs: dict[str, str] | None = None, dice: Dice | None = None) -> None:
        from bagm.engine.board.maps import bundled

        self.mission: Mission = get_mission(mission)
        self.map = bundled(mission)
        self.bf = Battlefield(self.map.layout)
        self.dice = dice if dice is not None else Dice(seed)
        self.seed = seed
        self.armies: dict[Player, Army] = {"A": army_a, "B": army_b}
        # the edition of the rules (Muster Boarding Patrol): both rosters', which must agree
        self.edition: Edition = edition_of(army_a, army_b)
        self.units: dict[str, Unit] = {u.uid: u for a in (army_a, army_b) for u in a.units}
        self.rolloffs = dict(rolloffs or {})
        self.cp: dict[Player, int] = {"A": 0, "B": 0}
        self.vp: dict[Player, int] = {"A": 0, "B": 0}
        # the VP record: scored in each battle round; a mission's starting VP (scored before the
        # first round); taken away in each round (Destroy Ground Targets): total = start + scored
        # - taken (+ Battle Ready); every column is a count, never negative
        self.vp_rounds: dict[Player, list[int]] = {"A": [0] * 5, "B": [0] * 5}
        self.vp_start: dict[Player, int] = {"A": 0, "B": 0}
        self.vp_taken: dict[Player, list[int]] = {"A": [0] * 5, "B": [0] * 5}
        self.role: dict[str, str] = {}
        self.round = 0
        self.turn = 0  # player turns played, from 1
        self.active: Player = "A"
        self.phase = "setup"
        self.first: Player | None = None
        self.control: list[Player | None] = [None] * len(self.map.layout.markers)
        self.secured: list[Player | None] = [None] * len(self.map.layout.markers)
        self.events: list[dict[str, Any]] = []
        self.used: set[tuple[str, str, int]] = set()  # (player, Stratagem, phase id)
        self.phase_id = 0
        self.deep_struck_turn: dict[str, int] = {}
        self.hatch_operated: dict[int, int] = {}  # Hatchway index -> the turn it was last operated
        self.peerless_round: dict[str, int] = {}  # Peerless Leader bearer: the round it was used
        # Battlefield Command windows open only for a Leader with a modelled Leader ability
        self.leaders = {p: [u for u in a.units if modelled_abilities(u.datasheet)]
                        for p, a in self.armies.items()}
        self.version = 0
        self._cache: dict[Any, Any] = {}
        self._cache_version = -1
        # per-unit stamps (see stamp()) and the answers kept on them across changes elsewhere
        self._stamps: dict[str, int] = {}
        self._stamp_keys: dict[str, tuple[Any, ...]] = {}
        self._stamp_count = 0
        self._stamp_version = -1
        self._moved: set[str] | None = None  # units named by touch() since the stamps were read (None: any)
        self._by_stamp: dict[Any, tuple[Any, ...]] = {}
        self._wall_vis = _WALL_VIS.setdefault(mission, {})  # shared by the games of a process
        self._geo_cache = _GEO.setdefault(mission, {})
        self.underdog: Player | None = None
        self.destroyed_by: dict[str, str] = {}  # a destroyed unit's uid -> the attacking unit's
        self.finished = False
        self.winner: Player | None = None
        # the rosters' texts and hashes: a replay needs no file (another folder, an import)
        texts = {p: a.text for p, a in self.armies.items() if a.text is not None}
        # where the mission sequence stands (see flow.py): the step, and the loops a step
        # starts again from (whose turn it is to deploy, to decide in a Battlefield Command
        # window, to fight)
        self.program = program(type(self), self.mission.rounds)
        self.pc = 0
        self.roles_winner: Player | None = None
        self.deployed: dict[str, list[tuple[int, bool]]] = {"A": [], "B": []}
        self.deploy_next: Player | None = None
        self.window: int = 0  # Battlefield Command window: 0 the active player decides, 1 the other
        self.fight_stage: int = 0  # 0 Fights First, 1 Remaining Combats
        self.fight_next: Player | None = None
        self.mission_state: dict[str, Any] = {}  # what mission rules remember (copied by clone)
        self.resumable = False  # the decision was asked at the top of a step's loop (ask())
        self.actions: list[Action] = []  # every action applied, in order (with the seed: the game)
        self.start = start_of(self, army_a, army_b)  # what a replay starts from
        self.emit("game", mission=mission, name=self.mission.name, seed=seed,
                  rosters={p: a.path for p, a in self.armies.items()}, rolloffs=self.rolloffs,
                  **({"edition": self.edition.name} if self.edition.name != "2024" else {}),
                  **({"roster_text": texts, "roster_sha256": {
                      p: hashlib.sha256(t.encode()).hexdigest() for p, t in texts.items()}}
                     if texts else {}))
        self._accepted: tuple[Decision, Action] | None = None  # see passes()
        self._flow: Generator[Decision, Action, None] = self._run()
        self.decision: Decision = next(self._flow)

    # --- the flow (flow.py) ---------------------------------------------------------------

    def _run(self) -> Generator[Decision, Action, None]:
        """Play the program from step ``pc`` on (a step may jump by setting ``pc``)."""
        prog = self.program
        while True:
            pc = self.pc
            step = prog[pc]
            steps = step.run(self, *step.args)
            if steps is not None:
                yield from steps
            if self.pc == pc:
                self.pc = pc + 1

    def mission_step(self, step: str) -> None:
        """The mission's rules and objectives of the named step (see missions.STEPS)."""
        self.mission.run(step, self)

    def ask(self, step: Step, player: Player, info: dict[str, Any] | None = None) -> Decision:
        """A decision asked at the top of a step's loop, before the step has changed anything
        since it began: the step started again from the state asks it again (see flow.py)."""
        self.resumable = True
        return Decision(step, player, info if info is not None else {})

    def clone(self) -> Game:
        """An independent copy of the game as it stands: the same state, decision, dice and
        log; playing either one never changes the other."""
        from bagm.engine.game.snapshot import clone

        return clone(self)

    def __getstate__(self) -> dict[str, Any]:
        from bagm.engine.game.snapshot import getstate

        return getstate(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        from bagm.engine.game.snapshot import setstate

        setstate(self, state)

    # --- basics -------------------------------------------------------------------------

    @staticmethod
    def other(p: Player) -> Player:
        return "B" if p == "A" else "A"

    def emit(self, name: str, /, **data: Any) -> None:
        ev = {"e": name, **data}
        self.events.append(ev)

    def gain_cp(self, p: Player, n: int, why: str) -> None:
        if self.mission.blocks_cp(self, p):  # e.g. Communications Network
            self.emit("cp_blocked", player=p, gain=n, why=why)
            return
        self.cp[p] += n
        self.emit("cp", player=p, gain=n, cp=self.cp[p], why=why)

    def spend_cp(self, p: Player, n: int, what: str) -> None:
        self.cp[p] -= n
        self.used.add((p, what, self.phase_id))
        self.emit("stratagem", player=p, name=what, cost=n, cp=self.cp[p])

    def _command_reroll(self, p: Player, u: Unit, info: dict[str, Any]) -> Generator[Decision, Action, bool]:
        """Command Re-roll (1CP, once per phase, never for a Battle-shocked unit), offered just
        after a roll of ``u``; True when the player re-rolls (the CP is then spent)."""
        if not self._may_reroll(p, u):
            return False
        act = yield Decision("reroll", p, {"unit": u.uid, **info})
        if act.kind != "reroll":
            return False
        use(self, p, COMMAND_REROLL)
        return True

    def _may_reroll(self, p: Player, u: Unit) -> bool:
        """Command Re-roll could be used now on a roll of ``u`` (Stratagems: once per phase,
        1CP; Battle-shock: never on a Battle-shocked unit)."""
        return may_use(self, p, COMMAND_REROLL, u)

    def score(self, p: Player, vp: int, why: str, units: list[str] | None = None) -> None:
        """Score VP (capped); ``units``: the units the objective credits, for the log."""
        room = max(0, VP_CAP - self.vp[p])
        got = min(vp, room)
        self.vp[p] += got
        if 1 <= self.round <= 5:
            self.vp_rounds[p][self.round - 1] += got
        elif self.round == 0:
            self.vp_start[p] += got
        self.emit("vp", player=p, vp=got, total=self.vp[p], why=why,
                  **({"units": units} if units is not None else {}))

    def lose_vp(self, p: Player, vp: int, why: str) -> int:
        """Take ``vp`` from player ``p`` (to a minimum of 0VP); the VP taken, recorded against
        the battle round (``vp_taken``), never as negative VP scored in it."""
        lost = min(vp, self.vp[p])
        self.vp[p] -= lost
        if 1 <= self.round <= 5:
            self.vp_taken[p][self.round - 1] += lost
        self.emit("vp", player=p, vp=-lost, total=self.vp[p], why=why)
        return lost

    def controlling_units(self, p: Player) -> list[str]:
        """Player ``p``'s units with OC above 0 and a model within range of a marker that ``p``
        controls now: the units a control objective credits (for the log; decides no rule)."""
        mine = [i for i, c in enumerate(self.control) if c == p]
        out = []
        for u in self.army_units(p):
            if u.oc() > 0 and any(self._in_range_counts(u)[i] for i in mine):
                out.append(u.uid)
        return out

    def destroyed_points(self, p: Player) -> int:
        """Points of player ``p``'s units that have been destroyed."""
        return sum(u.points for u in self.armies[p].units if u.where == "destroyed")

    def army_units(self, p: Player, where: Where = "board") -> list[Unit]:
        if where == "board":
            # kept until anything on the battlefield changes: a unit comes onto or leaves the
            # battlefield, or loses models, only with a touch() (callers never change the list)
            # _now() inlined (a hot path)
            cache = self._cache if self._cache_version == self.version else self._now()
            key = ("board", p)
            v = cache.get(key)
            if v is None:
                v = cache[key] = [u for u in self.armies[p].units if u.where == "board" and u.models]
            return v
        return [u for u in self.armies[p].units if u.where == where]

    def live_unit(self, uid: str | None, player: Player, rule: str) -> Unit:
        """The player's unit ``uid``, refused under ``rule`` unless it is on the battlefield."""
        u = self.unit(uid, player)
        if not u.alive:
            raise IllegalAction(f"{u.label()} is not on the battlefield", rule, u.uid)
        return u

    def unit(self, uid: str | None, player: Player | None = None) -> Unit:
        u = self.units.get((uid or "").upper())
        if u is None:
            raise IllegalAction(f"no unit '{uid}' in this game (units: {', '.join(self.units)})",
                                "unknown unit", uid)
        if player is not None and u.player != player:
            raise IllegalAction(f"{u.label()} belongs to player {u.player}, not {player}",
                                "a player acts only with units from their army", u.uid)
        return u

    # --- roll-offs ------------------------------------------------------------------------

    def rolloff(self, what: str) -> Player:
        """Roll-offs (Core Rules): each player rolls a D6, ties roll again; a script may give
        the winner instead."""
        w: Player
        if what in self.rolloffs:
            w = "A" if self.rolloffs[what] == "A" else "B"  # a script's, checked when read
            self.emit("rolloff", what=what, winner=w, given=True)
            return w
        while True:
            a, b = self.dice.d6(f"roll-off {what} A"), self.dice.d6(f"roll-off {what} B")
            if a != b:
                w = "A" if a > b else "B"
                self.emit("rolloff", what=what, A=a, B=b, winner=w)
                return w

    # --- the mission sequence -----------------------------------------------------------------

    def _muster(self) -> None:
        from bagm.roster.underdog import decide

        # 1. Muster Boarding Patrol; the Underdog (the validated rosters come in as Armies)
        ud = decide(self.armies["A"].points, self.armies["B"].points).underdog
        self.underdog = ud
        self.emit("muster", points={p: a.points for p, a in self.armies.items()}, underdog=ud,
                  units={p: [u.label() for u in a.units] for p, a in self.armies.items()},
                  base_radius={u.uid: round(u.radius, 3) for a in self.armies.values() for u in a.units})
        for p, a in self.armies.items():
            for u in a.units:
                e = enhancement(u.enhancement)
                if e.start_cp:
                    self.gain_cp(p, e.start_cp, e.name)  # Superior Boarding Tactics: "start the battle with 2CP"
        self.mission_step("muster")
        # 6. Determine Attacker and Defender: the roll-off (its winner chooses next)
        self.roles_winner = self.rolloff("attacker")

    def _roles(self) -> Generator[Decision, Action, None]:
        w = self.roles_winner
        assert w is not None
        act = yield self.ask("roles", w)
        self.role = {w: "Attacker" if act.arg == "attacker" else "Defender"}
        self.role[self.other(w)] = "Defender" if act.arg == "attacker" else "Attacker"
        self.emit("roles", **self.role)
        # 7. Deploy Armies, starting with the Defender
        self.phase = "deploy"
        self.deploy_next = next(q for q in PLAYERS if self.role[q] == "Defender")

    def _first_turn(self) -> None:
        self.mission_step("deploy")
        # 9. Determine First Turn
        self.first = self.mission.first_player(self) or self.rolloff("first_turn")

    def _start_round(self, rnd: int) -> Generator[Decision, Action, None]:
        # 10-11. five battle rounds
        self.round = rnd
        self.emit("round", round=rnd)
        if rnd == 2:  # effects "in the first battle round" end
            for u in self.units.values():
                if any(e.first_round_only for _, e in u.standing):
                    u.standing = tuple((n, e) for n, e in u.standing if not e.first_round_only)
        self.mission_step("start_round")
        yield from self.mission.decide("start_round", self, act=False)  # e.g. Silent Infiltration

    def _end_round(self, rnd: int) -> None:
        if rnd == 3:  # 8. Strategic Reserves not arrived by the end of round 3 are destroyed
            for u in self.units.values():
                if u.where == "reserves":
                    u.where = "destroyed"
                    u.models = []
                    self.touch(u)
                    self.emit("destroyed", unit=u.uid, why="not arrived from Reserves by the end of battle round 3")
        self.mission_step("end_round")

    def _determine_victor(self) -> None:
        # 12. Determine Victor
        self.phase = "end"
        self.mission_step("end_battle")
        for p, a in self.armies.items():
            if a.battle_ready:
                self.vp[p] += BATTLE_READY_VP
                self.emit("vp", player=p, vp=BATTLE_READY_VP, total=self.vp[p], why="Battle Ready")
        va, vb = self.vp["A"], self.vp["B"]
        self.winner = "A" if va > vb else "B" if vb > va else None
        self.finished = True
        self.emit("end", vp=dict(self.vp), winner=self.winner)

    def _over(self) -> Generator[Decision, Action, None]:
        while True:
            yield self.ask("over", "A")

    def entry_zones(self, p: Player) -> list[Any]:
        return self.mission.entry_zones(self, p)  # the Entry Zone kinds of a role, by the mission

    def _start_deploy(self) -> Generator[Decision, Action, None]:
        yield from self.mission.decide("start_deploy", self)  # e.g. Guard Duty

    def _deploy_armies(self) -> Generator[Decision, Action, None]:
        # Deploy Armies: the players alternate, one unit per Entry Zone each
        while True:
            p = self.deploy_next
            assert p is not None
            can = [q for q in (p, self.other(p)) if self._may_deploy(q)]
            if not can:
                break
            p = self.deploy_next = can[0]
            act = yield self.ask("deploy", p)
            self._do_deploy(p, act)
            self.deploy_next = self.other(p)

    def _determine_reserves(self) -> None:
        # 8. Determine Reserves: everything not set up starts in Strategic Reserves
        for u in self.units.values():
            if u.where == "army":
                u.where = "reserves"
                self.touch(u)
                self.emit("reserves", unit=u.uid, deep_strike=u.deep_strike_reserve)

    def _every_zone_used(self, p: Player) -> bool:
        """Deploy Armies (step 7) read with the Deployment adaptation: a player sets up units
        "until ... all players have set up one unit per Entry Zone", so they stop once every one
        of their Entry Zones has had a unit set up in it; on the way an Entry Zone may take "a
        maximum of one unit without the CHARACTER keyword and a maximum of one unit with" it, so
        a CHARACTER may join a zone that already has a unit without using up another zone. (The
        number of units is not capped at the number of Entry Zones: that left a zone empty and
        sent units to Strategic Reserves whenever a CHARACTER shared a zone.)"""
        return len({z for z, _ in self.deployed[p]}) >= len(self.entry_zones(p))

    def _zone_free(self, p: Player, z: int, u: Unit) -> bool:
        """Entry Zone ``z`` of player ``p`` can take ``u`` in Deploy Armies: 2024 Deployment, "a
        maximum of one unit without the CHARACTER keyword and a maximum of one unit with the
        CHARACTER keyword in each Entry Zone"; 2023 (no Deployment adaptation), step 7 as
        written: "that player sets up one unit within that Entry Zone"."""
        if self.edition.character_shares_entry_zone:
            return (z, u.is_character) not in self.deployed[p]
        return all(zz != z for zz, _ in self.deployed[p])

    def _may_reserve(self, p: Player) -> bool:
        """One more unit of ``p`` may be placed into Reserves with Deep Strike: 2024 Before the
        Battle, "at least half the units in a players army must be set up normally"; the 2023
        text has no such limit."""
        if not self.edition.deep_strike_half_set_up:
            return True
        units = self.armies[p].units
        return (sum(1 for x in units if x.deep_strike_reserve) + 1) * 2 <= len(units)

    def _may_deploy(self, p: Player) -> bool:
        """``bool(self._deploy_options(p))`` by the same tests, without building the actions
        (frozen Actions are slow to build, and only whether there is one matters here)."""
        units = self.armies[p].units
        left = [u for u in units if u.where == "army"]
        zones = self.entry_zones(p)
        if not left or self._every_zone_used(p):
            return False
        for u in left:
            if any(self._zone_free(p, z, u) for z in range(len(zones))):
                return True
            if u.deep_strike and self._may_reserve(p):
                return True
        return False

    def _deploy_options(self, p: Player) -> list[Action]:
        left = [u for u in self.armies[p].units if u.where == "army"]
        zones = self.entry_zones(p)
        if not left or self._every_zone_used(p):
            return []
        out = []
        # a Mission Rule may bar an Entry Zone (z) or Reserves (None) now (e.g. Prison Guards)
        no: set[int | None] = {z for z in (*range(len(zones)), None) if self.mission.deploy_reason(self, p, z)}
        for u in left:
            for z in range(len(zones)):
                if self._zone_free(p, z, u) and z not in no:
                    out.append(Action("deploy", u.uid, arg=str(z + 1)))
                    if u.infiltrators and self.map.layout.markers and self.edition.infiltrators_near_entry_zone:  # 5" toward the nearest marker (if any)
                        c = zones[z].centre
                        m = min(self.map.layout.markers, key=lambda m: math.dist(c, (m.x, m.y)))
                        d = math.dist(c, (m.x, m.y)) or 1.0
                        k = min(5.0, d) / d
                        out.append(Action("deploy", u.uid, arg=str(z + 1),
                                          point=_r((c[0] + (m.x - c[0]) * k, c[1] + (m.y - c[1]) * k))))
            if u.deep_strike and self._may_reserve(p) and None not in no:
                out.append(Action("reserve", u.uid))
        return out

    def _check_deploy(self, p: Player, act: Action) -> None:
        if act.kind not in ("deploy", "reserve"):
            raise IllegalAction(f"now player {p} sets up a unit: 'deploy UNIT ZONE' or 'reserve UNIT'",
                                "Deploy Armies")
        u = self.unit(act.unit, p)
        if u.where != "army":
            raise IllegalAction(f"{u.label()} is already set up or in Reserves", "Deploy Armies", u.uid)
        if act.kind == "reserve":
            if not u.deep_strike:
                raise IllegalAction(f"{u.label()} has no Deep Strike ability", "Deep Strike Ability", u.uid)
            if not self._may_reserve(p):
                raise IllegalAction("at least half the units of an army must be set up normally",
                                    "Deep Strike Ability (Before the Battle)", u.uid)
            if (why := self.mission.deploy_reason(self, p, None)) is not None:  # e.g. Prison Guards
                raise IllegalAction(why[1], why[0], u.uid)
            return
        zones = self.entry_zones(p)
        z = int(act.arg or 0) - 1
        if not 0 <= z < len(zones):
            raise IllegalAction(f"player {p} has Entry Zones 1 to {len(zones)}", "Deploy Armies", u.uid)
        if not self._zone_free(p, z, u):
            if not self.edition.character_shares_entry_zone:
                raise IllegalAction(f"Entry Zone {z + 1} already has a unit", "Deploy Armies (step 7): "
                                    "one unit per Entry Zone (2023: no CHARACTER may share it)", u.uid)
            kind = "CHARACTER" if u.is_character else "non-CHARACTER"
            raise IllegalAction(f"Entry Zone {z + 1} already has a {kind} unit",
                                "Deployment: one CHARACTER and one non-CHARACTER unit per Entry Zone", u.uid)
        if self._every_zone_used(p):
            raise IllegalAction("every Entry Zone has been used", "Deploy Armies", u.uid)
        if (why := self.mission.deploy_reason(self, p, z)) is not None:  # e.g. Prison Guards
            raise IllegalAction(why[1], why[0], u.uid)
        if act.point is not None:
            if not u.infiltrators:
                raise IllegalAction(f"{u.label()} does not have the Infiltrators ability: it is set up "
                                    "wholly within the Entry Zone", "Deployment (Infiltrators)", u.uid)
            if not self.edition.infiltrators_near_entry_zone:
                raise IllegalAction("the 2023 edition has no Deployment adaptation for Infiltrators (and "
                                    "the engine does not model the Core Rule's set-up): it is set up "
                                    "wholly within the Entry Zone", "Deployment (Infiltrators)", u.uid)
            if not self.layout_ok(act.point) or self.zone_gap(zones[z], act.point, 0.0) > INFILTRATE:
                raise IllegalAction(f"{_pt(act.point)} is not within 6\" of Entry Zone {z + 1}",
                                    "Deployment (Infiltrators)", u.uid)
            cell = self.map.layout.zone_at(act.point)
            for area in self.mission.barred(self, u):  # e.g. the Prison Cells (Jailbreak)
                if cell in area.zones:
                    raise IllegalAction(f"{_pt(act.point)} is within the {area.kind}: {u.label()} cannot be "
                                        "set up there by any ability", area.kind, u.uid)

    def _do_deploy(self, p: Player, act: Action) -> None:
        u = self.unit(act.unit, p)
        if act.kind == "reserve":
            u.where = "reserves"
            self.touch(u)
            u.deep_strike_reserve = True
            self.emit("reserve", unit=u.uid)
            return
        z = int(act.arg or 0) - 1
        zone = self.entry_zones(p)[z]
        if act.point is not None:  # Infiltrators: wholly within 6" of the Entry Zone
            ok = self.set_up(u, act.point, infiltrate=zone)
        else:
            ok = self.set_up(u, zone.centre, zone=zone)
        if not ok:
            u.where = "reserves"
            self.touch(u)
            self.emit("reserves", unit=u.uid, why=f"does not fit in Entry Zone {z + 1}")
        self.deployed[p].append((z, u.is_character))

    def zone_gap(self, zone: Any, p: tuple[float, float], r: float) -> float:
        """How far the farthest point of a base at ``p`` is from the Entry Zone (straight line)."""
        return min(zone.zone_rect(c, row).distance_to(p) for c, row in zone.zones) + (r if r else 0.0)

    def overwatch_window(self, enemy: Unit, why: str) -> Generator[Decision, Action, None]:
        """A Set Overwatch window just after ``enemy`` is set up ("just after an enemy unit is
        set up"). Public: a Mission Rule that sets a unit up opens one too (Change Level)."""
        return self._overwatch_window(enemy, why)

    def set_up(self, u: Unit, at: tuple[float, float], zone: Any = None, ds_gap: float | None = None,
               infiltrate: Any = None, barred: tuple[Any, ...] = ()) -> bool:
        """Set ``u``'s models up as a formation around ``at`` (within ``zone``, more than
        ``ds_gap`` from enemy models, within 6" of ``infiltrate``, in none of ``barred``); False
        when they do not fit. Public: Mission Rules set units up too (Guard Duty, Imprisoned)."""
        barred = barred + self.mission.barred(self, u)  # e.g. the Prison Cells (Jailbreak)
        pts = self.formation(u, at, u.starting if not u.models else len(u.models), zone=zone, ds_gap=ds_gap,
                             within=(infiltrate, INFILTRATE) if infiltrate is not None else None,
                             barred=barred)
        if pts is None:
            return False
        if not u.models:
            u.models = u.new_models(pts)  # each with its profile's Wounds and its wargear
        else:
            self.set_positions(u, pts)
        u.where = "board"
        u.set_up_turn = self.turn
        self.touch(u)
        self.emit("setup", unit=u.uid, at=[[round(x, 2), round(y, 2)] for x, y in pts])
        return True

    # --- a turn -------------------------------------------------------------------------

    def _start_turn(self, i: int, after: int) -> None:
        """The start of the first (``i`` 0) or second player's turn; a turn with nothing to
        play goes on at step ``after``."""
        assert self.first is not None
        p = self.first if i == 0 else self.other(self.first)
        self.active = p
        self.turn += 1
        for u in self.units.values():
            u.moved = None
            u.shot = u.charged = u.fought = u.declared = u.opened = False
            u.manoeuvre = None
            u.clearance = False
        self.emit("turn", player=p, round=self.round, turn=self.turn)
        self.mission_step("start_turn")
        self.update_control(turn_boundary=True)
        if not self.army_units(p) and not self.army_units(p, "reserves"):
            self.emit("skip", player=p, why="no models on the battlefield")
            self.mission_step("end_turn")
            self.pc = after

    def _new_phase(self, name: str) -> None:
        self.end_timed("phase")  # effects used "until the end of the phase" end with it
        self.phase = name
        self.phase_id += 1
        self.emit("phase", phase=name, player=self.active)
        if name == "command":
            self.end_command(self.active)  # conferred Leader abilities last until now

    # Command phase ---------------------------------------------------------------------------

    def _command_step(self) -> None:
        p = self.active
        self.mission_step("start_command")  # e.g. Destroy Ground Targets
        for q in (p, self.other(p)):  # Command step: both players gain 1CP
            self.gain_cp(q, 1, "Command phase")
        for u in self.army_units(p):
            if u.battleshocked:
                self.emit("battleshock_ends", unit=u.uid)
            u.battleshocked = False  # lasts until the start of your next Command phase
            u.set_to_defend = False  # Set to Defend: until the start of your next Command phase
        # Tactical Manoeuvres "Secure Site": at the start of your next Command phase
        for u in self.army_units(p):
            m = u.secure_marker
            u.secure_marker = None
            if m is not None and not u.battleshocked and self.control[m] == p and \
                    any(self.bf.in_objective_range(x.base, self.map.layout.markers[m]) for x in u.models) and \
                    not self._seize_barred(u):
                if self._secures(p, m):
                    self.emit("secured", player=p, marker=m + 1, unit=u.uid)
        for u in self.army_units(p):  # an effect: "on a 2+, that objective marker is Secured"
            if u.affected and (need := effect_least(u, "secure_roll")) is not None:
                self._secure_roll(p, u, need)
        for u in [*self.army_units(p), *self.army_units(self.other(p))]:
            if u.affected and (n := effect_sum(u, "regain_wounds")):
                self._regain(u, n)  # an effect: "in each player's Command phase, regains a wound"

    def _secure_roll(self, p: str, u: Unit, need: int) -> None:
        """Select one objective marker you control within range of ``u`` and not yet Secured by
        your army (reading: selecting one already yours would change nothing), then roll."""
        for m, mk in enumerate(self.map.layout.markers):
            if self.control[m] == p and self.secured[m] != p and \
                    any(self.bf.in_objective_range(x.base, mk) for x in u.models):
                roll = self.dice.d6(f"secure {u.uid}") if need > 1 else 6
                self.emit("secure_roll", player=p, marker=m + 1, unit=u.uid, roll=roll, secured=roll >= need,
                          rule=u.source("secure_roll"))
                if roll >= need:
                    self._secures(p, m)
                return

    def _secures(self, p: Player, m: int) -> bool:
        """Objective marker ``m`` is Secured by ``p``'s army, unless an enemy effect undoes it
        ("the first time your opponent's army Secures an objective marker, on a 3+ it is not")."""
        for v in self.army_units(self.other(p)):
            for name, e in v.standing if v.affected else ():
                if e.spoil_secure is not None and (v.player, name, 0) not in self.used:
                    self.used.add((v.player, name, 0))  # the first time in the battle
                    roll = self.dice.d6(f"{name} {v.uid}")
                    self.emit("secure_roll", player=p, marker=m + 1, unit=v.uid, roll=roll,
                              secured=roll < e.spoil_secure, rule=name)
                    if roll >= e.spoil_secure:
                        return False
        self.secured[m] = p
        return True

    def within_reach(self, a: Unit, b: Unit, reach: Any) -> bool:
        """``b`` is within ``reach`` inches of ``a`` (measured around Walls; ("straight", X):
        ignoring them), or within its Engagement Range ('engagement')."""
        if reach == "engagement":
            return self.engaged(a, b)
        if isinstance(reach, tuple):  # "when measuring this distance, Walls and closed Hatchways are ignored"
            return self.min_straight(a, b) <= float(reach[1]) + 1e-9
        return self.unit_distance(a, b) <= float(reach) + 1e-9

    def _seize_barred(self, u: Unit) -> bool:
        """An enemy effect: "while an enemy unit is within 6\" of the bearer, that unit cannot
        Seize objective markers"."""
        for v in self.army_units(self.other(u.player)):
            for e in v.effects() if v.affected else ():
                if e.no_seize_range is not None and self.within_reach(
                        v, u, ("straight", e.no_seize_range) if e.straight else e.no_seize_range):
                    self.emit("note", text=f"{u.uid} cannot Seize objective markers ({v.uid}'s effect)")
                    return True
        return False

    def _regain(self, u: Unit, n: int) -> None:
        fulls = u.fulls() or [u.W] * len(u.models)
        for m, full in zip(u.models, fulls):
            if m.wounds < full:
                got = min(n, full - m.wounds)
                m.wounds += got
                self.emit("regain_wounds", unit=u.uid, wounds=got, rule=u.source("regain_wounds"))
                return

    def _battleshock_step(self) -> Generator[Decision, Action, None]:
        p = self.active
        # enemy effects: "that unit must take a Battle-shock test" (one test in the phase at most):
        # uid -> (the rule, the modifier to its test), e.g. Chastisor Auto-Vox, Harmonic Discordator
        near = shock_aura(self, p)
        for v in [v for v in self.army_units(self.other(p)) if v.affected]:
            for name, e in v.standing:  # "at the start of the Battle-shock step, select one enemy unit within 3""
                options = [u for u in self.army_units(p) if e.shock_select is not None and
                           self.within_reach(v, u, e.shock_select)]
                if options:
                    act = yield Decision("shock", v.player, {"unit": v.uid, "rule": name,
                                                             "options": [u.uid for u in options]})
                    t = self.unit(act.target, p)
                    self.emit("mark", unit=v.uid, target=t.uid, rule=name)
                    mod = e.shock_below_half_mod if t.below_half() else 0
                    near[t.uid] = (name, min(mod, near[t.uid][1])) if t.uid in near else (name, mod)
        for u in self.army_units(p):
            if not u.below_half() and u.uid not in near:
                continue
            mod = effect_sum(u, "battleshock_mod")  # an effect: "add 1 to Battle-shock tests"
            if u.uid in near:
                mod += near[u.uid][1]  # "if that enemy unit is also Below Half-strength, subtract 1"
            roll = self.dice.d6(f"battle-shock {u.uid}") + self.dice.d6(f"battle-shock {u.uid}") + mod
            ld = u.leadership()  # the best Leadership of the models left
            ok = roll >= ld
            self.emit("battleshock_test", unit=u.uid, roll=roll, ld=ld, passed=ok,
                      **({"why": near[u.uid][0]} if u.uid in near else {}),
                      **({"mod": near[u.uid][1]} if u.uid in near and near[u.uid][1] else {}))
            # an effect: "you can re-roll Leadership tests taken for that unit"
            if not ok and u.affected and effect_has(u, "reroll_leadership") and (
                    yield from self._effect_reroll(p, u, "reroll_leadership", {"roll": roll, "needed": ld,
                                                          "what": "battle-shock"})):
                roll = self.dice.d6(f"battle-shock {u.uid} re-roll") + self.dice.d6(f"battle-shock {u.uid} re-roll") + mod
                ok = roll >= ld
                self.emit("battleshock_test", unit=u.uid, roll=roll, ld=ld, passed=ok, reroll=True)
            if not ok:
                yield from self.moment("battleshock_failed", p, u)
                if may_use(self, p, INSANE_BRAVERY, u):
                    act = yield Decision("bravery", p, {"unit": u.uid})
                    if act.kind == "bravery":
                        use(self, p, INSANE_BRAVERY)
                        self.emit("battleshock", unit=u.uid, shocked=False, why=INSANE_BRAVERY.name)
                        continue
                u.battleshocked = True
                self.emit("battleshock", unit=u.uid, shocked=True)

    def _end_command_phase(self) -> Generator[Decision, Action, None]:
        self.update_control(turn_boundary=False)
        yield from self.mission.decide("command", self)  # Mission Rules a player may use (Unlock Overrides)
        self.mission_step("end_command")
        # then the end of the Command phase's Battlefield Command window (CP gained)

    # End of turn -----------------------------------------------------------------------------

    def end_turn(self) -> None:
        # Unit Coherency: remove models until a single coherent group remains
        for u in list(self.units.values()):
            if not u.alive or len(u.models) < 2:
                continue
            pts = [(m.x, m.y) for m in u.models]
            if self.coherent(pts, u.radius):
                continue
            groups = self._groups(pts, u.radius)
            keep = max(groups, key=len)
            removed = len(u.models) - len(keep)
            gone = sorted(set(range(len(u.models))) - set(keep))
            u.models = [u.models[i] for i in keep]
            self.touch(u)
            # removed_models: indices into the unit's models as they stood before the event
            self.emit("coherency", unit=u.uid, removed=removed, removed_models=gone)
        self.end_timed("phase")
        self.end_timed("turn")  # ... and those "until the end of the turn"
        self.update_control(turn_boundary=True)
        self.mission_step("end_turn")

    # --- the API --------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """A finite list of legal actions for the current decision."""
        d = self.decision
        s, p = d.step, d.player
        if s == "over":
            return []
        if s == "roles":
            return [Action("role", arg="attacker"), Action("role", arg="defender")]
        if s == "deploy":
            return self._deploy_options(p)
        if s == "move":
            return self.legal_move(p)
        if s == "hatch":
            return self.legal_hatch(p)
        if s == "opening":
            return self.legal_opening(p)
        if s == "freemove":  # a Normal move an effect allows now
            return self.legal_freemove(d.info)
        if s == "shock":  # an enemy effect selects one of the units for a Battle-shock test
            return [Action("mark", d.info["unit"], target=uid) for uid in d.info["options"]]
        if s == "reinforce":
            return self.legal_reinforce(p)
        if s == "manoeuvre":
            return self.legal_manoeuvre(p)
        if s == "shoot":
            return self.legal_shoot(p)
        if s == "charge":
            return self.legal_charge(p)
        if s == "reroll":
            return [Action("reroll"), Action("pass")]
        if s == "fight":
            return self.legal_fight(p, d.info.get("only"))
        if s == "bravery":
            return [Action("bravery", d.info["unit"]), Action("pass")]
        if s == "counter":
            return [Action("counter", u.uid) for u in self.counter_candidates(p)] + [Action("pass")]
        if s == "command":
            return self.legal_command(p) + [Action("pass")]
        if s == "use":  # a supplied Stratagem at its moment
            return self.usable(p, d.info["timing"], d.info.get("unit")) + [Action("pass")]
        if s == "rule":  # a Mission Rule offered by the mission (its options, or pass)
            return [Action("rule", arg=o) for o in d.info["options"]] + ([] if d.info.get("must") else [Action("pass")])
        if s == "overwatch":
            enemy = self.unit(d.info["enemy"])
            return [Action("overwatch", u.uid, target=enemy.uid) for u in self._overwatchers(enemy)] + [Action("pass")]
        raise AssertionError(s)  # pragma: no cover

    def check(self, act: Action) -> None:
        """Raise :class:`IllegalAction` unless ``act`` is legal now."""
        d = self.decision
        s, p = d.step, d.player
        if s == "over":
            raise IllegalAction("the battle is over", "Ending the Battle")
        if s == "roles":
            if act.kind != "role":
                raise IllegalAction(f"player {p} won the roll-off and chooses: 'role attacker' or 'role defender'",
                                    "Determine Attacker and Defender")
            return
        if s == "reroll" and act.kind in ("reroll", "pass") and act.unit is None:
            # a frequent offer: checked without building its legal actions
            if act.arg is None or act.kind == "reroll" and act.arg == d.info.get("what"):
                return
            raise IllegalAction(f"this Command Re-roll offer is for the {d.info.get('what')} roll, not "
                                f"the {act.arg} roll: 'reroll' or 'pass'", "Command Re-roll")
        if s in _CHECKS:
            return self.check_as(s, p, act)
        legal = self.legal_actions()
        if act not in legal:
            raise IllegalAction(f"now player {p} decides {s}: one of " + ", ".join(a.text() for a in legal),
                                {"reroll": "Command Re-roll", "bravery": "Insane Bravery",
                                 "counter": "Counter-offensive", "overwatch": "Set Overwatch",
                                 "rule": str(d.info.get("rule")), "use": "Stratagems",
                                 "shock": str(d.info.get("rule"))}[s], act.unit)

    def check_as(self, step: str, player: Player, act: Action) -> None:
        """Raise :class:`IllegalAction` unless ``act`` would be legal for ``player`` at a
        decision of kind ``step`` (one of the steps checked action by action: deploy, move,
        hatch, reinforce, manoeuvre, shoot, charge, fight, command), as the game stands."""
        if step not in _CHECKS:
            raise ValueError(f"no check for step '{step}'; steps: {', '.join(_CHECKS)}")
        getattr(self, _CHECKS[step])(player, act)

    def passes(self, act: Action) -> bool:
        """Whether :meth:`check` accepts ``act`` now. An accepted action is remembered with
        the decision it answers, so that applying it next does not check it twice (nothing
        changes the game between a check and the apply of the same decision)."""
        try:
            self.check(act)
        except IllegalAction:
            return False
        self._accepted = (self.decision, act)
        return True

    def apply(self, act: Action) -> list[dict[str, Any]]:
        """Check and play one action; return the events it caused."""
        accepted = self._accepted
        if accepted is None or accepted[0] is not self.decision or \
                (accepted[1] is not act and accepted[1] != act):
            self.check(act)
        self._accepted = None
        start = len(self.events)
        self.emit("action", player=self.decision.player, step=self.decision.step, action=act.text())
        self.actions.append(act)
        self.resumable = False  # until a step asks at the top of its loop again
        self.decision = self._flow.send(act)
        return self.events[start:]

    # --- summaries --------------------------------------------------------------------------

    def not_modelled(self) -> list[str]:
        return [f"{p}: {n}" for p, a in self.armies.items() for n in a.not_modelled] + \
            [f"mission {self.mission.number}: {n}" for n in self.mission.not_modelled] + \
            list(self.edition.not_modelled)
