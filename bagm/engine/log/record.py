"""Playing a game to the end, its record (event log as JSON lines), replays and simulations."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import SIMPLIFICATIONS, Game
from bagm.engine.state import events as ev
from bagm.engine.state.actions import Action, parse
from bagm.engine.state.core import Player
from bagm.errors import BagmError

MAX_DECISIONS = 20000  # a guard: no game needs this many


class ReplayError(BagmError, ValueError):
    pass


@dataclass
class GameRecord:
    """The result of a game, built once and rendered in every format."""

    mission: int
    name: str
    seed: int
    winner: Player | None
    vp: dict[str, int]
    vp_rounds: dict[str, list[int]]
    rounds: int
    destroyed: dict[str, list[str]]
    armies: dict[str, str]
    cp: dict[str, int]
    events: list[ev.Event] = field(default_factory=list, repr=False)
    not_modelled: list[str] = field(default_factory=list)
    simplifications: list[str] = field(default_factory=lambda: list(SIMPLIFICATIONS))
    # a mission's starting VP, and VP taken away in each round (Pull Their Teeth): vp_rounds
    # counts only VP scored in each round, so total = start + scored - taken (+ Battle Ready)
    vp_start: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    vp_taken: dict[str, list[int]] = field(default_factory=lambda: {"A": [0] * 5, "B": [0] * 5})
    edition: str = "2024"  # the edition of the rules the game was played under

    @cached_property
    def lines(self) -> list[str]:
        """The event log as JSON lines, written when first asked for (a simulation that only
        counts wins never needs it: a twentieth of a game's time)."""
        return event_lines(self.events)

    @property
    def log_sha256(self) -> str:
        return sha256_lines(self.lines)

    def as_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "vp": self.vp, "rounds": self.rounds,
                "log_sha256": self.log_sha256, "mission": self.mission, "seed": self.seed,
                "vp_by_round": self.vp_rounds, "vp_start": self.vp_start, "vp_taken_by_round": self.vp_taken,
                "destroyed": self.destroyed, "armies": self.armies,
                "cp": self.cp, "events": len(self.events), "not_modelled": self.not_modelled,
                "simplifications": self.simplifications,
                **({"edition": self.edition} if self.edition != "2024" else {})}


def sha256_lines(lines: list[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


# json.dumps(e, sort_keys=True, separators=(",", ":")) builds an encoder per call: one serves all
_EVENT_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def event_lines(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """The event log as JSON lines: keys sorted, no spaces (the text a log's hash is taken of)."""
    encode = _EVENT_ENCODER.encode
    return [encode(e) for e in events]


def play(game: Game, chooser: Callable[[Game], Action]) -> GameRecord:
    """Play ``game`` to the end, asking ``chooser`` for every decision."""
    n = 0
    while not game.finished:
        n += 1
        if n > MAX_DECISIONS:
            raise RuntimeError("the game did not end (more than 20,000 decisions)")
        game.apply(chooser(game))
    return record(game)


def record(game: Game) -> GameRecord:
    destroyed: dict[str, list[str]] = {p: [u.label() for u in a.units if u.where == "destroyed"] for p, a in game.armies.items()}
    return GameRecord(game.mission.number, game.mission.name, game.seed, game.winner, {p: v for p, v in game.vp.items()},
                      {p: list(v) for p, v in game.vp_rounds.items()}, game.round, destroyed,
                      {p: f"{a.title} ({a.faction}, {a.detachment}"
                          f"{'' if a.faction_rules else ' without its faction rules'}, {a.points} pts)"
                       for p, a in game.armies.items()},
                      {p: v for p, v in game.cp.items()}, game.events, game.not_modelled(),
                      vp_start={p: v for p, v in game.vp_start.items()}, vp_taken={p: list(v) for p, v in game.vp_taken.items()},
                      edition=game.edition.name)


def bots_chooser(bots: dict[str, Callable[[Game], Action]]) -> Callable[[Game], Action]:
    return lambda g: bots[g.decision.player](g)


def new_game(mission: int, a: str, b: str, seed: int = 0,
             rolloffs: dict[str, str] | None = None, catalog: Any = None) -> Game:
    return Game(mission, build_army("A", a, catalog), build_army("B", b, catalog), seed, rolloffs)


def play_bots(mission: int, a: str, b: str, seed: int, bot_a: str = "greedy",
              bot_b: str = "greedy", catalog: Any = None, armies: Any = None) -> GameRecord:
    from bagm.engine.bots import make_bot

    if armies is not None:
        game = Game(mission, armies[0].clone(), armies[1].clone(), seed)
    else:
        game = new_game(mission, a, b, seed, catalog=catalog)
    chooser = bots_chooser({"A": make_bot(bot_a, seed * 2 + 1), "B": make_bot(bot_b, seed * 2 + 2)})
    return play(game, chooser)


def _roster_text(head: dict[str, Any], p: Player) -> str | None:
    """Player ``p``'s roster as the log stores it (checked against its sha256), or None for a
    log that stores only the roster's path."""
    text = (head.get("roster_text") or {}).get(p)
    if text is None:
        return None
    if not isinstance(text, str):
        raise ReplayError(f"line 1: roster {p}'s text is not a string")
    want = (head.get("roster_sha256") or {}).get(p)
    if want is not None and hashlib.sha256(text.encode()).hexdigest() != want:
        raise ReplayError(f"line 1: roster {p}'s text does not match its sha256 (the log was edited)")
    return str(text)


def replay(lines: list[str]) -> GameRecord:
    """Re-play a logged game from its header (mission, rosters, seed, roll-offs) and its actions,
    and check that it reproduces the log exactly."""
    if not lines:
        raise ReplayError("the log is empty")
    try:
        events = [json.loads(x) for x in lines]
    except json.JSONDecodeError as exc:
        raise ReplayError(f"line {exc.lineno}: not JSON ({exc.msg})") from None
    head = events[0]
    if head.get("e") != "game":
        raise ReplayError("line 1: the log does not start with a 'game' event")
    try:
        stripped = head.get("without_faction_rules") or []
        armies = [build_army(p, head["rosters"][p], text=_roster_text(head, p), faction_rules=p not in stripped)
                  for p in ("A", "B")]
        game = Game(int(head["mission"]), armies[0], armies[1], int(head["seed"]),
                    head.get("rolloffs") or None)
    except KeyError as exc:
        raise ReplayError(f"line 1: the 'game' event lacks {exc}") from None
    actions = [(i, e) for i, e in enumerate(events) if e.get("e") == "action"]
    for i, e in actions:
        if game.finished:
            raise ReplayError(f"line {i + 1}: an action after the end of the battle")
        game.apply(parse(e["action"]))
    rec = record(game)
    if rec.lines != lines:
        for k, (x, y) in enumerate(zip(rec.lines, lines)):
            if x != y:
                raise ReplayError(f"line {k + 1} differs: the replay gives {x[:200]}")
        raise ReplayError(f"the replay has {len(rec.lines)} lines, the log {len(lines)}")
    return rec
