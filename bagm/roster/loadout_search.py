"""The exact search behind a unit's wargear choices: which models, of which kind and with which
picks, make every count a roster names come true.

The question is small integer programming: each kind of model has a range of models, each
model of a kind one of a few *configurations* (what its choices take, seen only through the
items the roster names), groups of kinds share a bound, and each named count is a sum over
models. :func:`solve` answers it by dynamic programming over the kinds (state: the counts
still to place, the models used, the group totals), keeping for each state the cheapest way
to reach it, so the answer is exact (a legal combination is never refused) and, among the
legal ones, changes the fewest models from the datasheet's default. The work is bounded
(:data:`MAX_STATES`); real datasheets stay far below it.

A model carries its kind's standard wargear (what it always carries and its default picks)
and the items the roster names, nothing else: a choice never silently takes an item the
roster does not name ("boltgun: 8" alone is refused: say what replaces the two).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable

KeyFn = Callable[[str], str]  # an item's name -> the key it is compared by
State = tuple[tuple[int, ...], int, tuple[int, ...]]  # counts to place, models used, bound totals
Layer = dict[State, tuple[int, "State | None", tuple[int, ...]]]  # -> cost, previous, choice

MAX_STATES = 200_000  # states visited before the search gives up (real data: < 2,000)


@dataclass(frozen=True)
class Choice:
    """One choice of a kind of model: it takes ``min``..``cap`` of ``of``; ``default``: the
    picks a plain model has."""

    of: tuple[str, ...]
    min: int
    cap: int
    default: tuple[str, ...]
    needs: str | None = None  # made only by a model carrying this item (inside a bundle)
    fill: tuple[str, ...] = ()  # inside an item: its picks when the model takes the item
    unless: tuple[str, ...] = ()  # a model carrying one of these makes no pick here
    barred: tuple[str, ...] = ()  # items of ``of`` not taken here (another kind in the unit)
    item_needs: tuple[tuple[str, tuple[str, ...]], ...] = ()  # an item taken only with these
    item_unless: tuple[tuple[str, tuple[str, ...]], ...] = ()  # an item not taken with these


@dataclass(frozen=True)
class Kind:
    """A kind of model: ``lo``..``hi`` models of it (``plain`` in the default unit)."""

    profile: str | None
    lo: int
    hi: int
    plain: int
    gear: tuple[str, ...]
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Bound:
    """At least ``lo`` and at most ``hi`` models of the kinds ``kinds`` together."""

    kinds: frozenset[int]
    lo: int
    hi: int


@dataclass(frozen=True)
class Want:
    """``count`` models (of ``profile``, or any) carry ``item`` (a key: see ``key``);
    ``at_least``: ``count`` or more (an item the unit must have for another choice, which the
    roster need not name: no model takes it for this want alone); ``items``: instead of
    ``item``, at most ``count`` of these items carried across the unit (a model with two of
    them counts twice: a bound over items together, which names none of them); ``choice``:
    with ``items``, only the picks of that choice (kind, choice index) count (a bound on how
    many models take other than a choice's default); ``per_model``: with ``items``, a model
    carrying one or more of them counts once."""

    item: str
    count: int
    profile: str | None
    at_least: bool = False
    items: frozenset[str] | None = None
    choice: tuple[int, int] | None = None
    per_model: bool = False

    def carried(self, carried: set[str], profile: str | None) -> int:
        """How far a model carrying ``carried`` (of ``profile``) counts towards it."""
        if self.items is not None:
            return min(len(carried & self.items), 1) if self.per_model \
                else len(carried & self.items)
        return int(self.item in carried and (self.profile is None or self.profile == profile))


@dataclass
class Answer:
    """Per kind, the models as (count, picks per choice); per unit-wide choice, the items
    taken with their counts."""

    models: list[list[tuple[int, tuple[tuple[str, ...], ...]]]]
    shared: list[dict[str, int]] = field(default_factory=list)
    changed: int = 0


class TooHard(Exception):
    """The search passed :data:`MAX_STATES` without an answer."""


@dataclass(frozen=True)
class _Config:
    vec: tuple[int, ...]
    picks: tuple[tuple[str, ...], ...]
    plain: bool


def _configs(kind: Kind, wants: list[Want], key: KeyFn, standard: set[str],
             index: int = -1) -> list[_Config]:
    """The kind's configurations, one per distinct effect on the named counts: the plain one
    first, then each other, picks made of named items and, to fill a choice's minimum, the
    choice's default picks (a kind the default unit lacks: its first items, as list builders
    do). ``index``: the kind's place (a want on one of its choices). A configuration carries
    an item neither named nor ``standard`` (in the default unit)
    only along with a new item the roster names: no model silently takes a new item, and
    "boltgun: 8" alone is refused (say what replaces the two).
    """
    named = {w.item for w in wants if not w.at_least and w.items is None}
    # an item whose inner choice offers a named item is named with it (a relic blade that
    # only comes inside "Boltstorm Gauntlet, Powerfist, and Relic weapon")
    named |= {key(c.needs) for c in kind.choices
              if c.needs is not None and any(key(i) in named for i in c.of)}
    per_choice: list[list[tuple[tuple[str, ...], bool, bool]]] = []  # (picks, plain, guess)
    for c in kind.choices:
        plain_named = sorted(key(i) for i in c.default if key(i) in named)
        inside = c.needs is not None
        # the plain model's picks stand (a choice inside an item it lacks: none); else a kind
        # the default unit lacks
        # (a choice another item rules out in the default unit: none either)
        has_plain = c.min <= len(c.default) or (inside or bool(c.unless)) and not c.default
        options = [(c.default, True, False)] if has_plain else []
        if (inside or c.unless) and c.default:
            options.append(((), False, False))  # the item gone, or ruled out by another
        barred = {key(i) for i in c.barred}
        offered = [i for i in dict.fromkeys(c.of) if key(i) in named and key(i) not in barred]
        standard_fill = c.fill if inside else c.default if has_plain else ()
        filler = [(i, False) for i in standard_fill if key(i) not in named | barred] + \
            [(i, True) for i in dict.fromkeys(c.of) if key(i) not in named | barred]
        for size in range(0, min(c.cap, len(offered)) + 1):
            for chosen in itertools.combinations(offered, size):
                if has_plain and sorted(map(key, chosen)) == plain_named \
                        and not (inside and not c.default):
                    continue  # the default picks already stand for it
                picks = list(chosen)
                guessed = False
                for f, guess in filler:
                    if len(picks) >= c.min:
                        break
                    if f not in picks:
                        picks.append(f)
                        guessed = guessed or guess
                if c.min <= len(picks) <= c.cap and (picks or not inside):
                    options.append((tuple(picks), False, guessed))
        per_choice.append(options)
    seen: dict[tuple[int, ...], tuple[int, _Config]] = {}
    for combo in itertools.product(*per_choice):
        carried = {key(i) for i in kind.gear} | {key(i) for picks, _, _ in combo for i in picks}
        if any(not _choice_ok(c, picks, carried, key)
               for c, (picks, _, _) in zip(kind.choices, combo)):
            continue  # made exactly when the model carries its item and nothing rules it out
        vec = tuple(w.carried(carried, kind.profile) if w.choice is None else (
            len({key(i) for i in combo[w.choice[1]][0]} & (w.items or frozenset()))
            if w.choice[0] == index else 0) for w in wants)
        guess = any(g for _, _, g in combo)
        if carried - named - standard and not carried & named - standard:
            continue  # a new item the roster does not name, on a model it names nothing new for
        rank = 0 if all(p for _, p, _ in combo) else 1 + guess
        if vec not in seen or rank < seen[vec][0]:
            seen[vec] = (rank, _Config(vec, tuple(p for p, _, _ in combo), rank == 0))
        if len(seen) > MAX_STATES:
            raise TooHard
    return [cfg for _, cfg in sorted(seen.values(), key=lambda rc: rc[0])]


def _choice_ok(c: Choice, picks: tuple[str, ...], carried: set[str], key: KeyFn) -> bool:
    """A choice is made within its bounds, except that a choice inside an item the model does
    not carry, or one an item it carries rules out, takes nothing; an item barred here, taken
    without every item it needs or beside one it is not taken with, is not taken."""
    if c.needs is not None and key(c.needs) not in carried \
            or any(key(i) in carried for i in c.unless):
        return not picks
    taken = {key(i) for i in picks}
    if taken & {key(i) for i in c.barred} or any(
            key(i) in taken and not {key(n) for n in needs} <= carried for i, needs in c.item_needs) \
            or any(key(i) in taken and {key(n) for n in other} & carried
                   for i, other in c.item_unless):
        return False
    return c.min <= len(picks)


def solve(kinds: list[Kind], bounds: list[Bound], shared: list[Choice], wants: list[Want],
          models: int, key: KeyFn) -> Answer | None:
    """The unit of ``models`` models whose named counts are ``wants``, changing the fewest
    models from the default; None: no legal unit has them. Raises :class:`TooHard`."""
    target = tuple(w.count for w in wants)
    standard = {key(i) for k in kinds if k.plain for i in k.gear} | \
        {key(i) for k in kinds if k.plain for c in k.choices for i in c.default}
    configs = [_configs(k, wants, key, standard, i) for i, k in enumerate(kinds)]
    least = [w.at_least for w in wants]
    upto = [w.items is not None for w in wants]  # a bound: any count left over will do
    last_of = {b: max(b.kinds) for b in bounds}
    start: State = (target, 0, tuple(0 for _ in bounds))
    layers: list[Layer] = [{start: (0, None, ())}]
    visited = 0
    for i, kind in enumerate(kinds):
        nxt: Layer = {}
        for state, (cost, _, _) in layers[-1].items():
            rem, used, totals = state
            # the kind's models spread over its configurations (a small inner search)
            inner: dict[tuple[tuple[int, ...], int], tuple[int, tuple[int, ...]]] = \
                {(rem, 0): (0, ())}
            for cfg in configs[i]:
                grown: dict[tuple[tuple[int, ...], int], tuple[int, tuple[int, ...]]] = {}
                for (r, n), (c, xs) in inner.items():
                    most = min(kind.hi - n, models - used - n,
                               *(r[j] // v for j, v in enumerate(cfg.vec) if v and not least[j]))
                    for x in range(most + 1):
                        r2 = tuple(max(a - v * x, 0) if at else a - v * x
                                   for a, v, at in zip(r, cfg.vec, least))
                        c2 = c + (0 if cfg.plain else x)
                        k2 = (r2, n + x)
                        if k2 not in grown or c2 < grown[k2][0]:
                            grown[k2] = (c2, xs + (x,))
                        visited += 1
                inner = grown
                if visited > MAX_STATES:
                    raise TooHard
            for (r, n), (c, xs) in inner.items():
                if n < kind.lo:
                    continue
                new_totals = list(totals)
                ok = True
                for bi, b in enumerate(bounds):
                    if i in b.kinds:
                        new_totals[bi] += n
                        if new_totals[bi] > b.hi:
                            ok = False
                    if last_of[b] == i:
                        ok = ok and new_totals[bi] >= b.lo
                        new_totals[bi] = 0  # closed: no longer part of the state
                if not ok:
                    continue
                s2: State = (r, used + n, tuple(new_totals))
                c2 = cost + c + abs(n - kind.plain)
                if s2 not in nxt or c2 < nxt[s2][0]:
                    nxt[s2] = (c2, state, xs)
        layers.append(nxt)
    # the unit-wide choices take what the models did not
    shared_layers: list[Layer] = []
    for choice in shared:
        nxt = {}
        for state, (cost, _, _) in (shared_layers[-1] if shared_layers else layers[-1]).items():
            rem, used, totals = state
            spans = [[j for j, w in enumerate(wants)
                      if w.profile is None and not w.at_least and w.choice is None
                      and (key(i) in w.items if w.items is not None else w.item == key(i))]
                     for i in choice.of]
            ranges = [range(min([rem[j] for j in js] + [choice.cap]) + 1) if js else range(1)
                      for js in spans]
            for takes in itertools.product(*ranges):
                if sum(takes) > choice.cap:
                    continue
                left = list(rem)
                for t, js in zip(takes, spans):
                    for j in js:
                        left[j] -= t
                if min(left, default=0) < 0:
                    continue
                s2 = (tuple(left), used, totals)
                c2 = cost + sum(takes)
                if s2 not in nxt or c2 < nxt[s2][0]:
                    nxt[s2] = (c2, state, takes)
                visited += 1
                if visited > MAX_STATES:
                    raise TooHard
        shared_layers.append(nxt)
    final = shared_layers[-1] if shared_layers else layers[-1]
    ends = [s for s in final if s[1] == models and not any(s[2])
            and all(a == 0 or up for a, up in zip(s[0], upto))]
    if not ends:
        return None
    end = min(ends, key=lambda s: (final[s][0], s))  # the fewest changes (ties: the same one)
    answer = Answer([[] for _ in kinds], [{} for _ in shared], final[end][0])
    back: State | None = end
    for si in range(len(shared) - 1, -1, -1):
        assert back is not None
        _, back, takes = shared_layers[si][back]
        answer.shared[si] = {i: t for i, t in zip(shared[si].of, takes) if t}
    for i in range(len(kinds) - 1, -1, -1):
        assert back is not None
        _, back, xs = layers[i + 1][back]
        answer.models[i] = [(x, cfg.picks) for cfg, x in zip(configs[i], xs) if x]
    return answer
