"""Copying and serialising a game mid-battle: :meth:`Game.clone` and pickling.

A game is its state plus the position of the mission sequence (``pc``, see flow.py). Where the
current decision was asked at the top of a step's loop (``game.resumable``), a copy of the state
starts that step again and arrives at the same decision: a clone costs a copy of the armies and
a few dictionaries. Anywhere else (a decision asked while resolving something: a Command
Re-roll offer in an attack, a Set Overwatch window after a move), the clone is the game replayed
from its start: the same armies, dice and actions give the same game (it is deterministic).

The state is declared in :mod:`~bagm.engine.game.state`, each field with how a copy treats it:
copied with the game, shared because it never changes during a game, or a cache that starts
empty. ``tests/test_clone.py`` checks that every attribute of a game is a field there.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bagm.chance.dice import Dice
from bagm.engine.game.state import DEEP_FIELDS, FLAT_FIELDS, FRESH, PLAIN_FIELDS, SHARED_FIELDS

if TYPE_CHECKING:
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.army import Army, Unit

# how a copy treats each attribute: declared on the state's fields (state.py)
SHARED = frozenset(SHARED_FIELDS)
CACHES: dict[str, Callable[[], Any]] = FRESH
PLAIN = frozenset(PLAIN_FIELDS)
FLAT = frozenset(FLAT_FIELDS)
DEEP = frozenset(DEEP_FIELDS)
ALL = SHARED | set(CACHES) | PLAIN | FLAT | DEEP


@dataclass(frozen=True)
class Start:
    """What a replay of the game starts from: the armies before the game changed them, the
    mission and the roll-offs a script gave. (The dice are not kept: a replay is given the
    results rolled so far, see :func:`replay`.)"""

    mission: int
    army_a: Army
    army_b: Army
    rolloffs: dict[str, str]


def start_of(game: Game, army_a: Army, army_b: Army) -> Start:
    return Start(game.mission.number, copy_army(army_a, {}), copy_army(army_b, {}), dict(game.rolloffs))


def copy_unit(u: Unit) -> Unit:
    """The unit with its own models; datasheet, weapons and keywords are shared (never change)."""
    v = copy.copy(u)
    v.models = [copy.copy(m) for m in u.models]
    return v


def copy_army(a: Army, units: dict[str, Unit]) -> Army:
    """The army with its own units (each also put in ``units`` by uid)."""
    own = []
    for u in a.units:
        v = units[u.uid] = copy_unit(u)
        own.append(v)
    return replace(a, units=own, not_modelled=list(a.not_modelled))


def _copy_state(game: Game) -> dict[str, Any]:
    """The game's attributes for another game in the same state (caches empty, no flow)."""
    src = game.__dict__
    out: dict[str, Any] = {}
    for k in SHARED:
        out[k] = src[k]
    for k, make in CACHES.items():
        out[k] = make()
    for k in PLAIN:
        out[k] = src[k]
    for k in FLAT:
        out[k] = src[k].copy()
    units: dict[str, Unit] = {}
    out["armies"] = {p: copy_army(a, units) for p, a in src["armies"].items()}
    out["units"] = {uid: units[uid] for uid in src["units"]}
    out["leaders"] = {p: [units[u.uid] for u in us] for p, us in src["leaders"].items()}
    out["dice"] = src["dice"].copy()
    out["bf"] = src["bf"].copy()
    out["vp_rounds"] = {p: list(v) for p, v in src["vp_rounds"].items()}
    out["vp_taken"] = {p: list(v) for p, v in src["vp_taken"].items()}
    out["deployed"] = {p: list(v) for p, v in src["deployed"].items()}
    out["mission_state"] = copy.deepcopy(src["mission_state"])
    return out


def replay(start: Start, actions: list[Any], seed: int, dice: Dice, into: Game | None = None) -> Game:
    """The game played again from ``start`` with ``actions``, to where ``dice`` stand now
    (``into``: a game object not yet initialised, for unpickling). The replay rolls the results
    ``dice`` rolled so far (scripted ahead of what is still queued), then holds dice in exactly
    their state: results fed to them mid-game come back in their place."""
    from bagm.engine.game.sequence import Game

    again = dice.for_replay()
    g = into if into is not None else object.__new__(Game)
    Game.__init__(g, start.mission, copy_army(start.army_a, {}), copy_army(start.army_b, {}), seed=seed,
                  rolloffs=start.rolloffs, dice=again)
    for act in actions:
        g.apply(act)
    # the same dice object goes on (a suspended step holds it): its record as it was, every
    # roll marked scripted or not as it was made
    again.restore_history(dice.history())
    return g


def clone(game: Game) -> Game:
    if not game.resumable:
        return replay(game.start, game.actions, game.seed, game.dice)
    g = object.__new__(type(game))
    g.__dict__.update(_copy_state(game))
    _restart(g)
    return g


def _restart(g: Game) -> None:
    """Start the flow again at step ``pc``: it asks the decision the state stands at."""
    decision = g.decision
    g._flow = g._run()
    g.decision = next(g._flow)
    if g.decision != decision:  # pragma: no cover - a step that does not start again cleanly
        raise AssertionError(f"step {g.program[g.pc].name} restarted at {g.decision}, not {decision}")


def getstate(game: Game) -> dict[str, Any]:
    """What pickle stores: the state where it can be started again, else the replay."""
    if not game.resumable:
        return {"replay": (game.start, list(game.actions), game.seed, game.dice)}
    state = _copy_state(game)
    for k in ("mission", "map", "program", "edition", "_geo_cache", "_wall_vis", *CACHES):
        del state[k]  # found again (or rebuilt) when loaded
    return {"state": state}


def setstate(game: Game, saved: dict[str, Any]) -> None:
    from bagm.engine.board.maps import bundled
    from bagm.engine.game.flow import program
    from bagm.engine.rules.editions import edition_of
    from bagm.engine.rules.missions import get_mission
    from bagm.engine.state.core import _GEO, _WALL_VIS

    if "replay" in saved:
        start, actions, seed, dice = saved["replay"]
        replay(start, actions, seed, dice, into=game)
        return
    state = saved["state"]
    n = state["start"].mission
    game.__dict__.update(state)
    game.mission = get_mission(n)
    game.edition = edition_of(state["start"].army_a, state["start"].army_b)
    game.map = bundled(n)
    game.program = program(type(game), game.mission.rounds)
    game._geo_cache = _GEO.setdefault(n, {})
    game._wall_vis = _WALL_VIS.setdefault(n, {})
    for k, make in CACHES.items():
        setattr(game, k, make())
    _restart(game)
