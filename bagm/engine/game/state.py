"""The state of a game, apart from the rules that act on it.

Every attribute the phases read and change is declared here once, typed, with how a copy of the
game treats it (:mod:`~bagm.engine.game.snapshot`: clone and pickle):

- ``shared``: never changes during a game (the mission, the map, the seed...): a clone holds the
  same object;
- ``plain``: a number, string, None or tuple: copied as it is;
- ``flat``: a container of plain values: one level copied;
- ``deep``: copied with care by :func:`~bagm.engine.game.snapshot.copy_state` (armies, dice, the
  battlefield, the mission rules' memory);
- ``cache``: answers kept for speed, not state: a copy starts with them empty (``fresh`` makes one).

:class:`GameState` builds the state a mission starts from; :class:`~bagm.engine.game.sequence.Game`
adds the mission sequence and the phases (each a module of :mod:`bagm.engine.game`, typed against
:mod:`~bagm.engine.game.interface`). A new attribute of the game is a field here, or
``tests/test_clone.py`` fails.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from bagm.chance.dice import Dice
from bagm.engine.board.battlefield import Battlefield
from bagm.engine.rules.editions import edition_of
from bagm.engine.rules.leaders import commanders
from bagm.engine.rules.missions import get_mission
from bagm.engine.state import events as ev
from bagm.engine.state.core import _GEO, _WALL_VIS, Decision, Player

if TYPE_CHECKING:
    from bagm.engine.board.maps import MissionMap
    from bagm.engine.game.flow import Step
    from bagm.engine.game.snapshot import Start
    from bagm.engine.rules.editions import Edition
    from bagm.engine.rules.missions import Mission
    from bagm.engine.state.actions import Action
    from bagm.engine.state.army import Army, Unit

SHARED, PLAIN, FLAT, DEEP, CACHE = "shared", "plain", "flat", "deep", "cache"
KINDS = (SHARED, PLAIN, FLAT, DEEP, CACHE)


def _f(kind: str, fresh: Callable[[], Any] | None = None) -> Any:
    """A field of the state: how a copy treats it (a cache: and how a fresh one is made)."""
    return field(metadata={"copy": kind, **({"fresh": fresh} if fresh is not None else {})})


@dataclass(init=False, eq=False, repr=False)
class GameState:
    """One game's state: the armies and their units, the battlefield, dice, CP and VP, who holds
    each objective marker, where the mission sequence stands, the record of events and actions."""

    # --- never change during a game --------------------------------------------------------------
    mission: Mission = _f(SHARED)
    map: MissionMap = _f(SHARED)
    seed: int = _f(SHARED)
    edition: Edition = _f(SHARED)  # the rules' edition (2024 book or 2023 original), decided at muster
    rolloffs: dict[str, str] = _f(SHARED)  # roll-offs a script decided in advance
    program: tuple[Step, ...] = _f(SHARED)  # the mission sequence as named steps (flow.py)
    start: Start = _f(SHARED)  # what a replay starts from
    _geo_cache: dict[Any, Any] = _f(SHARED)  # per mission, shared by the games of a process
    _wall_vis: dict[tuple[Any, ...], bool] = _f(SHARED)

    # --- the armies, the board, the dice -----------------------------------------------------------
    armies: dict[Player, Army] = _f(DEEP)
    units: dict[str, Unit] = _f(DEEP)  # every unit of both armies by uid
    leaders: dict[Player, list[Unit]] = _f(DEEP)  # Leaders Battlefield Command can target (leaders.commanders)
    bf: Battlefield = _f(DEEP)  # Hatchways open or closed, and what the map's geometry answers
    dice: Dice = _f(DEEP)

    # --- the score and the resources ---------------------------------------------------------------
    cp: dict[Player, int] = _f(FLAT)
    pain: dict[Player, int] = _f(FLAT)  # Power from Pain: each army's Pain token pool
    miracles: dict[Player, tuple[int, ...]] = _f(FLAT)  # Acts of Faith: each army's Miracle dice (their values)
    yp: dict[Player, int] = _f(FLAT)  # Prioritised Efficiency: each army's Yield points
    pools: dict[str, tuple[int, ...]] = _f(FLAT)  # "PLAYER RULE": this round's dice (a Blessings of Khorne roll)
    tokens: dict[str, int] = _f(FLAT)  # "PLAYER RULE": this round's tokens left (Battle Focus)
    vp: dict[Player, int] = _f(FLAT)
    # the VP record: scored in each battle round; a mission's starting VP (scored before the first
    # round); taken away in each round (Destroy Ground Targets): total = start + scored - taken
    # (+ Battle Ready); every column is a count, never negative
    vp_rounds: dict[Player, list[int]] = _f(DEEP)
    vp_start: dict[Player, int] = _f(FLAT)
    vp_taken: dict[Player, list[int]] = _f(DEEP)
    role: dict[str, str] = _f(FLAT)  # player: "Attacker" or "Defender"
    underdog: Player | None = _f(PLAIN)
    control: list[Player | None] = _f(FLAT)  # who controls each objective marker
    secured: list[Player | None] = _f(FLAT)  # who has Secured each objective marker
    used: set[tuple[str, str, int]] = _f(FLAT)  # (player, rule or Stratagem, phase id / round / 0)
    mission_state: dict[str, Any] = _f(DEEP)  # what the Mission Rules remember during the game

    # --- what happened that later rules ask about ----------------------------------------------------
    deep_struck_turn: dict[str, int] = _f(FLAT)
    hatch_operated: dict[int, int] = _f(FLAT)  # Hatchway index -> the turn it was last operated
    hatch_jammed: dict[int, str] = _f(FLAT)  # Hatchway index -> the rule that says it cannot be closed
    peerless_round: dict[str, int] = _f(FLAT)  # Peerless Leader bearer: the round it was used
    destroyed_by: dict[str, str] = _f(FLAT)  # a destroyed unit's uid -> the attacking unit's

    # --- where the mission sequence stands ------------------------------------------------------------
    round: int = _f(PLAIN)
    turn: int = _f(PLAIN)  # player turns played, from 1
    active: Player = _f(PLAIN)
    phase: str = _f(PLAIN)
    phase_id: int = _f(PLAIN)  # counts phases: "once per phase" marks
    first: Player | None = _f(PLAIN)  # the player who has the first turn
    finished: bool = _f(PLAIN)
    winner: Player | None = _f(PLAIN)
    pc: int = _f(PLAIN)  # the step of ``program`` being played
    roles_winner: Player | None = _f(PLAIN)
    deployed: dict[str, list[tuple[int, bool]]] = _f(DEEP)  # Deploy Armies: (Entry Zone, CHARACTER) per player
    deploy_next: Player | None = _f(PLAIN)  # whose turn it is to set up a unit
    window: int = _f(PLAIN)  # Battlefield Command window: 0 the active player decides, 1 the other
    fight_stage: int = _f(PLAIN)  # 0 Fights First, 1 Remaining Combats
    fight_next: Player | None = _f(PLAIN)
    decision: Decision = _f(PLAIN)  # the decision the game waits for
    resumable: bool = _f(PLAIN)  # it was asked at the top of a step's loop (ask()): a clone restarts there
    _flow: Generator[Decision, Action, None] = _f(DEEP)  # the step being played (restarted by a clone)

    # --- the record -----------------------------------------------------------------------------------
    events: list[ev.Event] = _f(FLAT)  # the log: events of the vocabulary (state/events.py), plain dicts
    actions: list[Action] = _f(FLAT)  # every action applied, in order (with the seed: the game)

    # --- answers kept for speed (kept.py): a copy starts them empty -----------------------------------
    version: int = _f(PLAIN)  # counts battlefield changes
    _stamp_count: int = _f(PLAIN)
    _cache: dict[Any, Any] = _f(CACHE, dict)
    _cache_version: int = _f(CACHE, lambda: -1)
    _stamps: dict[str, int] = _f(CACHE, dict)  # per-unit stamps (see stamp())
    _stamp_keys: dict[str, tuple[Any, ...]] = _f(CACHE, dict)
    _stamp_version: int = _f(CACHE, lambda: -1)
    _moved: set[str] | None = _f(CACHE, lambda: None)  # units named by touch() since the stamps were read
    _by_stamp: dict[Any, tuple[Any, ...]] = _f(CACHE, dict)  # answers kept on stamps across changes
    _accepted: tuple[Decision, Action] | None = _f(CACHE, lambda: None)  # see passes()

    def __init__(self, mission: int, army_a: Army, army_b: Army, seed: int = 0,
                 rolloffs: dict[str, str] | None = None, dice: Dice | None = None) -> None:
        """The state a game of ``mission`` starts from (before the mission sequence's first step)."""
        from bagm.engine.board.maps import bundled

        self.mission = get_mission(mission)
        self.map = bundled(mission)
        self.seed = seed
        # the edition of the rules (Muster Boarding Patrol): both rosters', which must agree
        self.edition = edition_of(army_a, army_b)
        self.rolloffs = dict(rolloffs or {})
        self._geo_cache = _GEO.setdefault(mission, {})
        self._wall_vis = _WALL_VIS.setdefault(mission, {})
        self.armies = {"A": army_a, "B": army_b}
        self.units = {u.uid: u for a in (army_a, army_b) for u in a.units}
        # Battlefield Command windows open only for a Leader with a modelled Leader ability and a
        # unit of its army it could lead
        self.leaders = {p: commanders(a.units) for p, a in self.armies.items()}
        self.bf = Battlefield(self.map.layout)
        self.dice = dice if dice is not None else Dice(seed)
        self.cp = {"A": 0, "B": 0}
        self.pain = {"A": 0, "B": 0}
        self.miracles = {"A": (), "B": ()}
        self.yp = {"A": 0, "B": 0}
        self.pools = {}
        self.tokens = {}
        self.vp = {"A": 0, "B": 0}
        self.vp_rounds = {"A": [0] * 5, "B": [0] * 5}
        self.vp_start = {"A": 0, "B": 0}
        self.vp_taken = {"A": [0] * 5, "B": [0] * 5}
        self.role = {}
        self.underdog = None
        self.control = [None] * len(self.map.layout.markers)
        self.secured = [None] * len(self.map.layout.markers)
        self.used = set()
        self.mission_state = {}
        self.deep_struck_turn = {}
        self.hatch_operated = {}
        self.hatch_jammed = {}
        self.peerless_round = {}
        self.destroyed_by = {}
        self.round = 0
        self.turn = 0
        self.active = "A"
        self.phase = "setup"
        self.phase_id = 0
        self.first = None
        self.finished = False
        self.winner = None
        self.pc = 0
        self.roles_winner = None
        self.deployed = {"A": [], "B": []}
        self.deploy_next = None
        self.window = 0
        self.fight_stage = 0
        self.fight_next = None
        self.resumable = False
        self.events = []
        self.actions = []
        self.version = 0
        self._stamp_count = 0
        for f in CACHE_FIELDS:
            setattr(self, f, FRESH[f]())


def _fields(kind: str) -> tuple[str, ...]:
    return tuple(f.name for f in fields(GameState) if f.metadata["copy"] == kind)


SHARED_FIELDS, PLAIN_FIELDS, FLAT_FIELDS, DEEP_FIELDS, CACHE_FIELDS = (_fields(k) for k in KINDS)
FRESH: dict[str, Callable[[], Any]] = {f.name: f.metadata["fresh"] for f in fields(GameState)
                                       if f.metadata["copy"] == CACHE}
