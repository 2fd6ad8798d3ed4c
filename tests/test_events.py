"""Every event a game records is declared in :mod:`bagm.engine.state.events` and matches its
declaration: games of every playable mission, greedy and random, each event checked (kind
declared, required fields present, no field undeclared, each value of its declared type, as the
JSON log stores it)."""

from __future__ import annotations

import json
import types
from functools import cache
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from conftest import REPO, until_finished

from bagm.chance.dice import Dice
from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.bots.random import RandomBot
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.missions import MISSIONS
from bagm.engine.state import events
from bagm.engine.state.events import kinds

ROSTERS = sorted((REPO / "rosters").glob("*.yaml"))


def conforms(value: Any, t: Any) -> bool:
    """``value`` (as JSON gives it back) is of the declared type ``t``."""
    if t is Any:
        return True
    if t is type(None):
        return value is None
    origin = get_origin(t)
    if origin is Literal:
        return value in get_args(t)
    if origin in (Union, types.UnionType):
        return any(conforms(value, a) for a in get_args(t))
    if origin is list:
        (item,) = get_args(t)
        return isinstance(value, list) and all(conforms(v, item) for v in value)
    if origin is dict:
        k, v = get_args(t)
        return isinstance(value, dict) and all(conforms(a, k) and conforms(b, v) for a, b in value.items())
    if t is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, t)


@cache
def declared() -> dict[str, tuple[dict[str, Any], frozenset[str]]]:
    """Each kind's field types and its required fields."""
    out = {}
    for kind, td in kinds().items():
        hints = get_type_hints(td, include_extras=True)
        required = frozenset(f for f, h in hints.items() if get_origin(h) is not NotRequired)
        out[kind] = ({f: get_args(h)[0] if get_origin(h) is NotRequired else h for f, h in hints.items()}, required)
    return out


def problems(ev: dict[str, Any]) -> list[str]:
    ev = json.loads(json.dumps(ev))
    kind = ev.get("e")
    if kind not in declared():
        return [f"event kind '{kind}' is not declared in bagm/engine/state/events.py"]
    fields, required = declared()[kind]
    out = [f"{kind}: missing '{f}'" for f in sorted(required - ev.keys())]
    out += [f"{kind}: undeclared field '{f}'" for f in sorted(ev.keys() - fields.keys())]
    out += [f"{kind}: '{f}' = {ev[f]!r} is not {fields[f]}" for f in sorted(ev.keys() & fields.keys())
            if not conforms(ev[f], fields[f])]
    return out


def test_the_checker_catches_each_kind_of_mistake():
    assert problems({"e": "round", "round": 2}) == []
    assert problems({"e": "no_such"})
    assert problems({"e": "round"}) == ["round: missing 'round'"]
    assert problems({"e": "round", "round": 2, "extra": 1}) == ["round: undeclared field 'extra'"]
    assert problems({"e": "round", "round": "2"})
    assert problems({"e": "control", "markers": ["A", None, "C"]})  # players are A and B
    assert problems({"e": "move", "unit": "A1", "kind": "advance", "goal": (1.5, 2)}) == []
    assert problems({"e": "rolloff", "what": "attacker", "winner": "A", "given": True}) == []



def test_every_declared_kind_is_an_event():
    """A kind declared but left out of ``Event`` could not be emitted (``Game.emit`` takes an
    ``Event``) and this test's checker would not know it."""
    declared_here = {t for t in vars(events).values() if is_typeddict(t) and t.__module__ == events.__name__}
    assert declared_here == set(get_args(events.Event))
    assert len(kinds()) == len(declared_here)  # one class per kind


@pytest.mark.parametrize("number", sorted(m.number for m in MISSIONS))
def test_every_event_of_every_mission_is_declared(number):
    seen: set[str] = set()
    for seed in (1, 2):
        a = build_army("A", ROSTERS[(number + seed) % len(ROSTERS)])
        b = build_army("B", ROSTERS[(number * 3 + seed + 1) % len(ROSTERS)])
        try:
            g = Game(number, a, b, dice=Dice(seed))
        except Exception as exc:  # noqa: BLE001 - a mission not playable yet says so
            pytest.skip(str(exc))
        bots = {"A": GreedyBot(), "B": RandomBot(seed) if seed == 2 else GreedyBot()}
        for _ in until_finished(g):
            g.apply(bots[g.decision.player](g))
        bad = [p for ev in g.events for p in problems(ev)]
        assert not bad, bad[:10]
        seen |= {ev["e"] for ev in g.events}
    assert {"game", "muster", "round", "turn", "phase", "end"} <= seen
