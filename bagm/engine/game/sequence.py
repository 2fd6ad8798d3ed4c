"""A game of Boarding Actions: the state, the mission sequence and the phases of each turn.

The API follows game engines: :class:`Game` is its state (:class:`~bagm.engine.game.state.GameState`,
declared apart from the phases) played by the phases; :attr:`Game.decision` says who
must decide what now; :meth:`Game.legal_actions` lists a finite set of legal choices (moves are
offered toward a few useful points; any other destination may be asked for and is checked);
:meth:`Game.check` refuses an illegal action naming the rule; :meth:`Game.apply` plays one
action and returns the events it caused. The sequence itself is a generator that yields each
decision, so the rules read in their book order. All chance comes from one seeded
:class:`~bagm.chance.dice.Dice`; the event log plus the seed is the game's replay.

The phases are modules of functions taking the game: :mod:`~bagm.engine.game.deployment`
(Deploy Armies), :mod:`~bagm.engine.game.command`, :mod:`~bagm.engine.game.movement`,
:mod:`~bagm.engine.game.shooting`, :mod:`~bagm.engine.game.charge`, :mod:`~bagm.engine.game.fight`;
where models stand is :mod:`~bagm.engine.game.positions`, objective control
:mod:`~bagm.engine.game.control`. This module holds the mission sequence (muster, roles, first
turn, five battle rounds, the victor), the start and end of a turn (Unit Coherency), and the API;
:class:`Game` binds by name the few phase functions the rules entries reach through the declared
interface (:mod:`~bagm.engine.game.interface`).

Simplifications (stated in every game's output, see :data:`SIMPLIFICATIONS`) concern where
models stand: units move as formations laid out by the engine around a lead model.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any

from bagm.chance.dice import Dice
from bagm.engine.game import (
    armyrules,
    charge,
    control,
    deployment,
    fight,
    hatchways,
    kept,
    miracles,
    moments,
    movement,
    positions,
    reinforcements,
    shooting,
    sight,
)
from bagm.engine.game.flow import program
from bagm.engine.game.muster import spread_enemy_auras
from bagm.engine.game.snapshot import start_of
from bagm.engine.game.state import GameState
from bagm.engine.rules import leaders
from bagm.engine.rules.army_rules import pain_at_start, raid_marks, stratagem_spent
from bagm.engine.rules.effects import holds_in
from bagm.engine.rules.enhancements import enhancement
from bagm.engine.rules.yield_points import yield_command_end, yield_start
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Army, Unit
from bagm.engine.state.core import (
    BATTLE_READY_VP,
    PLAYERS,
    SIMPLIFICATIONS,
    VP_CAP,
    Decision,
    IllegalAction,
    Player,
    Step,
    Where,
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
_CHECKS: dict[str, Callable[..., None]] = {
    "deploy": deployment._check_deploy, "move": movement._check_move, "hatch": hatchways._check_hatch,
    "opening": movement._check_opening, "freemove": movement._check_freemove,
    "reinforce": reinforcements._check_reinforce, "manoeuvre": shooting._check_manoeuvre,
    "shoot": shooting._check_shoot, "charge": charge._check_charge, "fight": fight._check_fight,
    "command": leaders._check_command}


_PASS = Action("pass")
_PASSABLE = frozenset({"use", "overwatch", "counter", "bravery", "rule"})
"""The decisions whose legal actions always end with 'pass' (a "rule" one unless it must be
taken): :meth:`Game.check` accepts a pass there without building the others."""


if TYPE_CHECKING:  # the declared interface (interface.py), checked by mypy only
    from bagm.engine.game.interface import GameInterface as _Declared
else:
    _Declared = GameState


class Game(_Declared):
    """One game of a mission between armies A and B."""

    # the phases' functions the rules entries reach through the declared interface (interface.py)
    _marks_again = armyrules._marks_again
    _mortals = movement._mortals
    act_of_faith = miracles.act_of_faith
    acts_now = moments.acts_now
    bbox = positions.bbox
    check_destroyed = shooting.check_destroyed
    closed = property(positions.closed)
    cost_rules = property(moments.cost_rules)
    engaged = positions.engaged
    engaged_with = positions.engaged_with
    entry_zones = deployment.entry_zones
    formation = positions.formation
    min_straight = positions.min_straight
    model_engaged = positions.model_engaged
    near_markers = control.near_markers
    normal_move = movement.normal_move
    overwatch_window = deployment.overwatch_window
    return_models = armyrules.return_models
    revivals = armyrules.revivals
    set_positions = positions.set_positions
    set_up = deployment.set_up
    shock_dice_with = miracles.shock_dice_with
    stamp = kept.stamp
    kept_now = kept._now
    touch = kept.touch
    unit_distance = positions.unit_distance
    update_control = control.update_control
    usable = moments.usable
    use_rule = moments.use_rule
    visible_idx = sight.visible_idx

    def __init__(self, mission: int, army_a: Army, army_b: Army, seed: int = 0,
                 rolloffs: dict[str, str] | None = None, dice: Dice | None = None) -> None:
        GameState.__init__(self, mission, army_a, army_b, seed, rolloffs, dice)
        self.program = program(type(self), self.mission.rounds)
        self.start = start_of(self, army_a, army_b)
        spread_enemy_auras(list(self.units.values()))  # e.g. Nurgle's Gift: Afflicted enemy units
        # the rosters' texts and hashes: a replay needs no file (another folder, an import)
        texts = {p: a.text for p, a in self.armies.items() if a.text is not None}
        game = ev.Game(e="game", mission=mission, name=self.mission.name, seed=seed,
                       rosters={p: a.path for p, a in self.armies.items()}, rolloffs=self.rolloffs)
        if self.edition.name != "2024":
            game["edition"] = self.edition.name
        if stripped := [p for p, a in self.armies.items() if not a.faction_rules]:
            game["without_faction_rules"] = stripped  # armies played without their faction rules
        if texts:
            game["roster_text"] = texts
            game["roster_sha256"] = {p: hashlib.sha256(t.encode()).hexdigest() for p, t in texts.items()}
        self.emit(game)
        self._flow = self._run()
        self.decision = next(self._flow)

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

    def run_step(self, name: str, *args: Any) -> Iterator[Decision]:
        """Play the mission sequence's step ``name`` (its book name in the program, flow.py) now,
        with ``args`` (by default the program's first such step's): for a test or a scripted
        set-up that starts in the middle of a phase. The decisions it asks are yielded."""
        step = next((s for s in self.program if s.name == name), None)
        if step is None:
            raise KeyError(f"no step {name!r} in the mission sequence")
        steps = step.run(self, *(args or step.args))
        return iter(()) if steps is None else steps

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

    def emit(self, event: ev.Event) -> None:
        """Record ``event`` in the log: an event of the vocabulary, built at the call site
        (``self.emit(ev.Cp(e="cp", player=p, ...))``, checked by mypy against its declaration)."""
        self.events.append(event)

    def gain_cp(self, p: Player, n: int, why: str) -> None:
        if self.mission.blocks_cp(self, p):  # e.g. Communications Network
            self.emit(ev.CpBlocked(e="cp_blocked", player=p, gain=n, why=why))
            return
        self.cp[p] += n
        self.emit(ev.Cp(e="cp", player=p, gain=n, cp=self.cp[p], why=why))

    def spend_cp(self, p: Player, n: int, what: str) -> None:
        self.cp[p] -= n
        self.used.add((p, what, self.phase_id))
        self.emit(ev.StratagemUsed(e="stratagem", player=p, name=what, cost=n, cp=self.cp[p]))
        stratagem_spent(self, p, n)  # e.g. Twisting Fate: a D6 each time CP is spent on a Stratagem

    def score(self, p: Player, vp: int, why: str, units: list[str] | None = None) -> None:
        """Score VP (capped); ``units``: the units the objective credits, for the log."""
        room = max(0, VP_CAP - self.vp[p])
        got = min(vp, room)
        self.vp[p] += got
        if 1 <= self.round <= 5:
            self.vp_rounds[p][self.round - 1] += got
        elif self.round == 0:
            self.vp_start[p] += got
        scored = ev.Vp(e="vp", player=p, vp=got, total=self.vp[p], why=why)
        if units is not None:
            scored["units"] = units
        self.emit(scored)

    def lose_vp(self, p: Player, vp: int, why: str) -> int:
        """Take ``vp`` from player ``p`` (to a minimum of 0VP); the VP taken, recorded against
        the battle round (``vp_taken``), never as negative VP scored in it."""
        lost = min(vp, self.vp[p])
        self.vp[p] -= lost
        if 1 <= self.round <= 5:
            self.vp_taken[p][self.round - 1] += lost
        self.emit(ev.Vp(e="vp", player=p, vp=-lost, total=self.vp[p], why=why))
        return lost

    def controlling_units(self, p: Player) -> list[str]:
        """Player ``p``'s units with OC above 0 and a model within range of a marker that ``p``
        controls now: the units a control objective credits (for the log; decides no rule)."""
        mine = [i for i, c in enumerate(self.control) if c == p]
        out, holds = [], holds_in(self)
        for u in self.army_units(p):
            if u.oc(None, holds) > 0 and any(control.in_range_counts(self, u)[i] for i in mine):
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
            cache = self._cache if self._cache_version == self.version else kept._now(self)
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
            self.emit(ev.Rolloff(e="rolloff", what=what, winner=w, given=True))
            return w
        while True:
            a, b = self.dice.d6(f"roll-off {what} A"), self.dice.d6(f"roll-off {what} B")
            if a != b:
                w = "A" if a > b else "B"
                self.emit(ev.Rolloff(e="rolloff", what=what, A=a, B=b, winner=w))
                return w

    # --- the mission sequence -----------------------------------------------------------------

    def _muster(self) -> None:
        from bagm.roster.underdog import decide

        # 1. Muster Boarding Patrol; the Underdog (the validated rosters come in as Armies)
        ud = decide(self.armies["A"].points, self.armies["B"].points).underdog
        self.underdog = ud
        self.emit(ev.Muster(e="muster", points={p: a.points for p, a in self.armies.items()}, underdog=ud,
                  units={p: [u.label() for u in a.units] for p, a in self.armies.items()},
                  base_radius={u.uid: round(u.radius, 3) for a in self.armies.values() for u in a.units}))
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
        if w == "A":  # the winner's role first, as the log has always had it
            self.emit(ev.Roles(e="roles", A=self.role["A"], B=self.role["B"]))
        else:
            self.emit(ev.Roles(e="roles", B=self.role["B"], A=self.role["A"]))
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
        self.emit(ev.Round(e="round", round=rnd))
        if rnd == 1:
            pain_at_start(self)  # Feast of Pain: "at the start of the battle, you gain 1 Pain token"
            yield_start(self)  # Prioritised Efficiency: "at the start of the battle ... Hostile Acquisition"
        if rnd == 2:  # effects "in the first battle round" end
            for u in self.units.values():
                if any(e.first_round_only for _, e in u.standing):
                    u.standing = tuple((n, e) for n, e in u.standing if not e.first_round_only)
        for q in PLAYERS:
            miracles.miracle_at(self, q, "round")  # Acts of Faith: "at the start of each battle round"
        self.mission_step("start_round")
        yield from self.mission.decide("start_round", self, act=False)  # e.g. Silent Infiltration
        for q in (self.first, self.other(self.first)) if self.first is not None else ():
            moments.gain_tokens(self, q)  # Battle Focus: "at the start of the battle round, you receive ... tokens"
            yield from moments.roll_pools(self, q)  # e.g. a Blessings of Khorne roll
            yield from moments.moment(self, "round_start", q)  # "at the start of the battle round" (Doctrina)

    def _end_round(self, rnd: int) -> None:
        moments.end_timed(self, "round")  # effects used "until the end of the battle round" end
        moments.lose_tokens(self)  # Battle Focus: "at the end of the battle round, all unspent ... tokens are lost"
        if rnd == 3:  # 8. Strategic Reserves not arrived by the end of round 3 are destroyed
            for u in self.units.values():
                # (not a unit placed there after the first battle round began: Ambushing Hunters)
                if u.where == "reserves" and not u.late_reserve:
                    reinforcements.lost_in_reserves(self, u, "not arrived from Reserves by the end of battle round 3")
        self.mission_step("end_round")

    def _determine_victor(self) -> None:
        # 12. Determine Victor
        self.phase = "end"
        self.mission_step("end_battle")
        for p, a in self.armies.items():
            if a.battle_ready:
                self.vp[p] += BATTLE_READY_VP
                self.emit(ev.Vp(e="vp", player=p, vp=BATTLE_READY_VP, total=self.vp[p], why="Battle Ready"))
        va, vb = self.vp["A"], self.vp["B"]
        self.winner = "A" if va > vb else "B" if vb > va else None
        self.finished = True
        self.emit(ev.End(e="end", vp=dict(self.vp), winner=self.winner))

    def _over(self) -> Generator[Decision, Action, None]:
        while True:
            yield self.ask("over", "A")

    def _start_deploy(self) -> Generator[Decision, Action, None]:
        yield from self.mission.decide("start_deploy", self)  # e.g. Guard Duty

    def _end_command_phase(self) -> Generator[Decision, Action, None]:
        control.update_control(self, turn_boundary=False)
        yield from self.mission.decide("command", self)  # Mission Rules a player may use (Unlock Overrides)
        self.mission_step("end_command")
        yield_command_end(self)  # Prioritised Efficiency: "at the end of each player's Command phase"
        # then the end of the Command phase's Battlefield Command window (CP gained)

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
        self.emit(ev.Turn(e="turn", player=p, round=self.round, turn=self.turn))
        miracles.miracle_at(self, p, "turn")  # Acts of Faith with Minor Miracles: "at the start of your turn"
        moments.end_timed(self, f"start {p}")  # e.g. Horrifying Visage: "until the start of your opponent's next turn"
        self.mission_step("start_turn")
        control.update_control(self, turn_boundary=True)
        if not self.army_units(p) and not self.army_units(p, "reserves"):
            self.emit(ev.Skip(e="skip", player=p, why="no models on the battlefield"))
            self.mission_step("end_turn")
            self.pc = after

    def _new_phase(self, name: str) -> None:
        moments.end_timed(self, "phase")  # effects used "until the end of the phase" end with it
        self.phase = name
        self.phase_id += 1
        self.emit(ev.Phase(e="phase", phase=name, player=self.active))
        moments.end_timed(self, f"next {name} {self.active}")  # "until the start of your next Shooting phase"
        raid_marks(self)  # Raid and Pillage: who stands on a marker its army controls as the phase starts
        if name == "command":
            leaders.end_command(self, self.active)  # conferred Leader abilities last until now

    # End of turn -----------------------------------------------------------------------------

    def end_turn(self) -> None:
        # Unit Coherency: remove models until a single coherent group remains
        for u in list(self.units.values()):
            if not u.alive or len(u.models) < 2:
                continue
            pts = [(m.x, m.y) for m in u.models]
            if positions.coherent(self, pts, u.radius):
                continue
            groups = positions.coherency_groups(pts, u.radius)
            keep = max(groups, key=len)
            removed = len(u.models) - len(keep)
            gone = sorted(set(range(len(u.models))) - set(keep))
            u.models = [u.models[i] for i in keep]
            kept.touch(self, u)
            # removed_models: indices into the unit's models as they stood before the event
            self.emit(ev.Coherency(e="coherency", unit=u.uid, removed=removed, removed_models=gone))
        moments.end_timed(self, "phase")
        moments.end_timed(self, "turn")  # ... and those "until the end of the turn"
        moments.end_timed(self, f"turn {self.turn}")  # ... "until the end of your opponent's next turn"
        control.update_control(self, turn_boundary=True)
        self.mission_step("end_turn")

    def within_reach(self, a: Unit, b: Unit, reach: Any) -> bool:
        """``b`` is within ``reach`` inches of ``a`` (measured around Walls; ("straight", X):
        ignoring them), or within its Engagement Range ('engagement')."""
        if reach == "engagement":
            return positions.engaged(self, a, b)
        if isinstance(reach, tuple):  # "when measuring this distance, Walls and closed Hatchways are ignored"
            return positions.min_straight(self, a, b) <= float(reach[1]) + 1e-9
        return positions.unit_distance(self, a, b) <= float(reach) + 1e-9

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
            return deployment._deploy_options(self, p)
        if s == "move":
            return movement.legal_move(self, p)
        if s == "hatch":
            return hatchways.legal_hatch(self, p)
        if s == "opening":
            return movement.legal_opening(self, p)
        if s == "freemove":  # a Normal move an effect allows now
            return movement.legal_freemove(self, d.info)
        if s == "mark":  # a rule selects an enemy unit at the start of the Command phase
            return armyrules.legal_mark(self, p)
        if s == "shock":  # an enemy effect selects one of the units for a Battle-shock test
            return [Action("mark", d.info["unit"], target=uid) for uid in d.info["options"]]
        if s == "reinforce":
            return reinforcements.legal_reinforce(self, p)
        if s == "manoeuvre":
            return shooting.legal_manoeuvre(self, p)
        if s == "shoot":
            return shooting.legal_shoot(self, p)
        if s == "charge":
            return charge.legal_charge(self, p)
        if s == "reroll":
            return [Action("reroll"), Action("pass")]
        if s == "fight":
            return fight.legal_fight(self, p, d.info.get("only"))
        if s == "bravery":
            return [Action("bravery", d.info["unit"]), Action("pass")]
        if s == "counter":
            return [Action("counter", u.uid) for u in fight.counter_candidates(self, p)] + [Action("pass")]
        if s == "command":
            return leaders.legal_command(self, p) + [Action("pass")]
        if s == "use":  # a supplied Stratagem at its moment
            return moments.usable(self, p, d.info["timing"], d.info.get("unit")) + [Action("pass")]
        if s == "rule":  # a Mission Rule offered by the mission (its options, or pass)
            return [Action("rule", arg=o) for o in d.info["options"]] + ([] if d.info.get("must") else [Action("pass")])
        if s == "overwatch":
            enemy = self.unit(d.info["enemy"])
            return [Action("overwatch", u.uid, target=enemy.uid) for u in shooting._overwatchers(self, enemy)] + [Action("pass")]
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
        if s in _PASSABLE and act == _PASS and not (s == "rule" and d.info.get("must")):
            return  # passing is among the legal actions of these decisions: checked without building them
        legal = self.legal_actions()
        if act not in legal:
            raise IllegalAction(f"now player {p} decides {s}: one of " + ", ".join(a.text() for a in legal),
                                {"reroll": "Command Re-roll", "bravery": "Insane Bravery",
                                 "counter": "Counter-offensive", "overwatch": "Set Overwatch",
                                 "rule": str(d.info.get("rule")), "use": "Stratagems",
                                 "shock": str(d.info.get("rule")), "mark": str(d.info.get("rule"))}[s],
                                act.unit)

    def check_as(self, step: str, player: Player, act: Action) -> None:
        """Raise :class:`IllegalAction` unless ``act`` would be legal for ``player`` at a
        decision of kind ``step`` (one of the steps checked action by action: deploy, move,
        hatch, reinforce, manoeuvre, shoot, charge, fight, command), as the game stands."""
        if step not in _CHECKS:
            raise ValueError(f"no check for step '{step}'; steps: {', '.join(_CHECKS)}")
        _CHECKS[step](self, player, act)

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

    def apply(self, act: Action) -> list[ev.Event]:
        """Check and play one action; return the events it caused."""
        accepted = self._accepted
        if accepted is None or accepted[0] is not self.decision or \
                (accepted[1] is not act and accepted[1] != act):
            self.check(act)
        self._accepted = None
        start = len(self.events)
        self.emit(ev.ActionTaken(e="action", player=self.decision.player, step=self.decision.step, action=act.text()))
        self.actions.append(act)
        self.resumable = False  # until a step asks at the top of its loop again
        self.decision = self._flow.send(act)
        return self.events[start:]

    # --- summaries --------------------------------------------------------------------------

    def not_modelled(self) -> list[str]:
        return [f"{p}: {n}" for p, a in self.armies.items() for n in a.not_modelled] + \
            [f"mission {self.mission.number}: {n}" for n in self.mission.not_modelled] + \
            list(self.edition.not_modelled)
