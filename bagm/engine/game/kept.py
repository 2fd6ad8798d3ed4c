"""Answers kept for speed, and when they stop holding.

Three kinds (see bagm/engine/README.md, "Speed"): answers kept until anything on the battlefield
changes (``version``, bumped by :meth:`touch`); answers about a unit or a pair of units kept on
the units' stamps (a number that changes only when that unit moves, loses models, or comes onto
or leaves the battlefield); geometry answers kept per mission for the whole process, keyed on
the positions they depend on. A rule that moves or removes models calls ``touch`` naming the
units; :meth:`untouched` finds a unit changed without one.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface

from bagm.engine.state.army import Unit

_MISSING = object()  # a cache miss (None may be a cached answer)
_NUMBERS: dict[tuple[float, ...], int] = {}  # placements numbered by this process (placement())
_NEXT = itertools.count(1)


def touch(g: GameInterface, *moved: Unit) -> None:
    """Something on the battlefield changed: answers kept on ``version`` are dropped.
    ``moved``: the only units whose models moved or were removed, or that came onto or left
    the battlefield, since the last touch() (naming none: any unit may have)."""
    g.version += 1
    if not moved:
        g._moved = None
    elif g._moved is not None:
        g._moved.update(u.uid for u in moved)
    if g.mission.watching:  # a Mission Rule following where a unit stands (Imprisoned)
        g.mission.watch(g, moved)


def _geo(g: GameInterface, key: Any, fn: Any) -> Any:
    """A geometry answer keyed on the positions it depends on (kept across moves)."""
    cache = g._geo_cache
    v = cache.get(key)
    if v is None:
        if len(cache) > 100000:
            cache.clear()
        v = cache[key] = fn()
    return v


def positions(u: Unit) -> tuple[float, ...]:
    """The unit's positions as a key: x, y of each model, then the base radius."""
    out: list[float] = []  # a plain loop: twice as fast as a nested generator (a hot path)
    add = out.append
    for m in u.models:
        add(m.x)
        add(m.y)
    add(u.radius)
    if u.model_r is not None:  # models on bases of their own: each one's
        out += [m.r for m in u.models]
    return tuple(out)


def placement(g: GameInterface, u: Unit) -> int:
    """A number for where the unit's models stand (its :func:`positions`): equal numbers,
    equal positions, in every game of the process. A short key for a geometry answer that
    depends on where every unit stands (a move's plan), read from the unit's stamp, so
    numbered once each time the unit moves."""
    st = stamp(g, u)
    key = ("placement", u.uid)
    got = g._by_stamp.get(key)
    if got is None or got[0] != st:
        where = g._stamp_keys[u.uid][1]  # positions(u), as stamp() found it
        n = _NUMBERS.get(where)
        if n is None:
            if len(_NUMBERS) > 200_000:
                _NUMBERS.clear()  # numbers are never given twice: answers kept on old ones only go unused
            n = _NUMBERS[where] = next(_NEXT)
        got = g._by_stamp[key] = (st, n)
    return got[1]  # type: ignore[no-any-return]


def stamp(g: GameInterface, u: Unit) -> int:
    """A number that changes whenever the unit's models move or are removed, or it comes
    onto or leaves the battlefield (looked at on the first question after a touch()):
    answers about a unit or a pair of units keyed on it survive changes elsewhere."""
    if g._stamp_version != g.version:
        # only the units named since the last look can have new stamps (_touch)
        units = g.units
        for uid in units if g._moved is None else g._moved:
            v = units[uid]
            k = (v.where, positions(v))
            if g._stamp_keys.get(uid) != k:
                g._stamp_keys[uid] = k
                g._stamp_count += 1
                g._stamps[uid] = g._stamp_count
        g._stamp_version = g.version
        g._moved = set()
    return g._stamps[u.uid]


def untouched(g: GameInterface) -> list[str]:
    """The units that moved, lost models, or came onto or left the battlefield without a
    :meth:`touch` naming them (their stamps are stale): a check for tests and new rules."""
    stamp(g, next(iter(g.units.values())))
    return [uid for uid, u in g.units.items() if g._stamp_keys[uid] != (u.where, positions(u))]


def _now(g: GameInterface) -> dict[Any, Any]:
    """The answers kept since the battlefield last changed (``version``): emptied first
    when it has changed since. Hot paths read it without building a closure for _cached."""
    cache = g._cache
    if g._cache_version != g.version:
        cache.clear()
        g._cache_version = g.version
    return cache


def _cached(g: GameInterface, key: Any, fn: Any) -> Any:
    """An answer kept until anything on the battlefield changes (``version``)."""
    cache = _now(g)
    v = cache.get(key, _MISSING)  # not try/except: a third of the calls miss
    if v is _MISSING:
        v = cache[key] = fn()
    return v
