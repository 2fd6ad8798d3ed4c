"""Wargear choices of a roster unit, checked against its datasheet's options and worked out
model by model.

A roster names only what differs from the datasheet's default wargear, as a player writes it:
``wargear: {meltagun: 1, power fist: 1}`` (how many models carry each item), or per model
profile (``{Intercessor Sergeant: {power fist: 1}}``). :func:`resolve` turns that into
:class:`Loadout` groups (which models carry what), or says why it cannot be done.

Reading chosen (the rules leave the form of an Army Roster's wargear to the player): a count is
the number of the unit's models that carry the item once every choice is made, so naming a
default item with its default count is accepted and changes nothing. Items are given to models
one request at a time, each model changing only what it must (the item fewest kinds of model
can take first; then other orders, up to ``MAX_ORDERS``); a combination no order places is
refused with the item that did not fit, which can in rare cases refuse a legal combination
(the search is greedy per order, not complete).
Conditional bounds of the catalogues ("no Weapon 1 if it has lightning claws") are not modelled.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Iterable

from bagm.data.names import did_you_mean, norm

MAX_ORDERS = 120  # orders of placing the requests tried before one is refused (5! = 120)


@dataclass(frozen=True)
class Loadout:
    """``count`` models of one profile carrying the same items."""

    profile: str | None
    count: int
    items: tuple[str, ...]

    def describe(self) -> str:
        who = self.profile or "model"
        return f"{self.count}x {who}: {', '.join(self.items) or 'no wargear'}"


@dataclass(frozen=True)
class Problem:
    """Why a wargear choice is refused: a finding code, the message, the roster keys it is at."""

    code: str
    message: str
    loc: tuple[str, ...] = ()


@dataclass
class _Model:
    kind: int
    picks: list[list[str]]  # per choice of its kind: the items taken
    locked: set[int] = field(default_factory=set)  # choices a request has set
    pinned: bool = False  # became this kind for a request: not converted again


@dataclass(frozen=True)
class Request:
    item: str  # as the datasheet names it
    count: int
    profile: str | None  # only models of this profile
    loc: tuple[str, ...]


def offered(ds: Any) -> list[str]:
    """Every wargear item the datasheet's options name, in their order."""
    out: dict[str, str] = {}
    for kind in ds.wargear:
        for item in [*kind.gear, *(i for c in kind.choices for i in c.of)]:
            out.setdefault(norm(item), item)
    return list(out.values())


def item_weapons(ds: Any, item: str) -> list[Any]:
    """The datasheet's weapon profiles an item gives ('Plasma gun' gives both its profiles)."""
    named = ds.wargear_items.get(item)
    if named is None:
        named = next((v for k, v in ds.wargear_items.items() if norm(k) == norm(item)), None)
    keys = {norm(n) for n in named} if named is not None else None
    out = []
    for w in ds.weapons:
        own = norm(w.name[:-len(" (melee)")] if w.name.endswith(" (melee)") else w.name)
        if keys is not None:
            if own in keys or norm(w.name) in keys:
                out.append(w)
        elif own == norm(item) or norm(w.name.split(" - ", 1)[0]) == norm(item):
            out.append(w)
    return out


def find_item(name: str, items: list[str], ds: Any) -> str | None:
    """The option ``name`` stands for among ``items``: by its name (case ignored), or by the
    name of one of its weapon profiles ("Plasma gun - standard"). A weapon that only comes in
    a bundle ("Heavy bolt pistol, power weapon and relic shield") names no item: taking the
    bundle would give more than was asked."""
    key = norm(name)
    for item in items:
        if norm(item) == key:
            return item
    head = norm(name.split(" - ", 1)[0])
    found = [i for i in items if norm(i) == head
             and any(norm(w.name) == key for w in item_weapons(ds, i))]
    return found[0] if len(found) == 1 else None


def requests(ds: Any, wanted: dict[str, Any]) -> tuple[list[Request], list[Problem]]:
    """The roster's wargear mapping read against the datasheet: items and profiles by name."""
    items = offered(ds)
    profiles = {norm(p.name): p.name for p in ds.models}
    out: list[Request] = []
    problems: list[Problem] = []

    def add(name: str, count: int, profile: str | None, loc: tuple[str, ...]) -> None:
        item = find_item(name, items, ds)
        if item is None:
            hint = did_you_mean(name, items) or ("its options: " + ", ".join(items))
            problems.append(Problem("BA190", f"{ds.name} has no wargear option '{name}'; {hint}",
                                    loc))
        elif count < 0:
            problems.append(Problem("BA195", f"'{name}': a count of models cannot be negative "
                                    f"({count})", loc))
        else:
            out.append(Request(item, count, profile, loc))

    for key, value in wanted.items():
        if isinstance(value, dict):
            profile = profiles.get(norm(key))
            if profile is None:
                hint = did_you_mean(key, list(profiles.values())) or \
                    "its model profiles: " + ", ".join(profiles.values())
                problems.append(Problem("BA193", f"{ds.name} has no model profile '{key}'; "
                                        f"{hint}", (key,)))
                continue
            for name, count in value.items():
                add(name, count, profile, (key, name))
        else:
            add(key, value, None, (key,))
    return out, problems


class _Unit:
    """The unit's models, each of one kind with its picks, as choices are applied."""

    def __init__(self, ds: Any, n: int) -> None:
        self.ds = ds
        self.kinds = [k for k in ds.wargear if k.model is not None]
        self.shared = [k for k in ds.wargear if k.model is None]  # the unit as a whole
        self.n = n
        self.models: list[_Model] = []
        self.shared_picks: dict[str, int] = {}
        counts = self._composition(n)
        for i, c in enumerate(counts):
            self.models += [self._fresh(i) for _ in range(c)]

    def _fresh(self, kind: int) -> _Model:
        picks = []
        for c in self.kinds[kind].choices:
            if c.default is not None:
                picks.append([c.default])
            elif c.min >= 1 and c.of:
                picks.append(list(c.of[:c.min]))  # a required choice: the first, as builders do
            else:
                picks.append([])
        return _Model(kind, picks)

    def _composition(self, n: int) -> list[int]:
        """How many models of each kind a plain roster has: each kind's minimum (one-model
        kinds such as a sergeant first when the unit is smaller), the rest the plainest kind."""
        counts = [0] * len(self.kinds)
        left = n
        order = sorted(range(len(self.kinds)), key=lambda i: self.most(i) != 1)
        for i in order:
            take = min(self.kinds[i].min, left)
            counts[i] += take
            left -= take
        while left > 0:
            room = [i for i in range(len(self.kinds)) if self._room(i, counts) > 0]
            if not room:
                break
            main = min(room, key=lambda i: (self.kinds[i].min == 0, self._plain(i),
                                            -min(self._room(i, counts), 1000), i))
            take = min(left, self._room(i=main, counts=counts))
            counts[main] += take
            left -= take
        if left > 0 and self.kinds:  # the catalogue's bounds do not reach n: the plainest kind
            counts[min(range(len(self.kinds)), key=self._plain)] += left
        return counts

    def most(self, i: int) -> int | None:
        """The most models of kind ``i`` in a unit of this size."""
        k = self.kinds[i]
        hi = k.max
        for size, value in k.max_from.items():
            if self.n >= size:
                hi = value
        return hi

    def _plain(self, i: int) -> int:
        k = self.kinds[i]
        return len(k.gear) + 2 * len(k.choices)

    def _room(self, i: int, counts: list[int]) -> int:
        hi = self.most(i)
        return 10**6 if hi is None else hi - counts[i]

    def count(self, kind: int) -> int:
        return sum(1 for m in self.models if m.kind == kind)

    def profile(self, m: _Model) -> str | None:
        return self.kinds[m.kind].profile

    def carries(self, m: _Model, item: str) -> bool:
        k = self.kinds[m.kind]
        return item in k.gear or any(item in p for p in m.picks)

    def carriers(self, r: Request) -> int:
        n = sum(1 for m in self.models if self._scope(m, r) and self.carries(m, item=r.item))
        return n + (self.shared_picks.get(r.item, 0) if r.profile is None else 0)

    def _scope(self, m: _Model, r: Request) -> bool:
        return r.profile is None or self.profile(m) == r.profile

    def place(self, r: Request, named: dict[str, int] | None = None) -> None:
        """Give ``r.item`` to models until ``r.count`` carry it. ``named``: every item the
        roster names, with its count; a kind of model that brings along another of them that
        still lacks carriers is tried first, one that brings one already placed last."""
        named = named or {}
        need = r.count - self.carriers(r)
        # 1. a model that can take it in a free choice
        for m in sorted((m for m in self.models if self._scope(m, r)),
                        key=lambda m: len(m.locked)):
            if need <= 0:
                return
            if self.carries(m, r.item):
                continue
            for ci, c in enumerate(self.kinds[m.kind].choices):
                if r.item not in c.of:
                    continue
                cap = c.max if c.max is not None else len(c.of)
                if ci not in m.locked:
                    m.picks[ci] = [r.item]
                    m.locked.add(ci)
                elif len(m.picks[ci]) < cap:
                    m.picks[ci].append(r.item)
                else:
                    continue
                need -= 1
                break
        # 2. a model that becomes another kind of the same models, one that carries it
        targets = sorted((i for i, k in enumerate(self.kinds)
                          if (r.profile is None or k.profile == r.profile)
                          and (r.item in k.gear or any(r.item in c.of for c in k.choices))),
                         key=lambda i: sum(self._along(g, named) for g in self.kinds[i].gear
                                           if g != r.item))
        for t in targets:
            while need > 0 and (self.most(t) is None or self.count(t) < (self.most(t) or 0)):
                donor = self._donor(t)
                if donor is None:
                    break
                fresh = self._fresh(t)
                donor.kind, donor.picks, donor.locked, donor.pinned = t, fresh.picks, set(), True
                if r.item not in self.kinds[t].gear:
                    ci = next(i for i, c in enumerate(self.kinds[t].choices) if r.item in c.of)
                    donor.picks[ci] = [r.item]
                    donor.locked.add(ci)
                need -= 1
        # 3. wargear of the unit as a whole
        if need > 0 and r.profile is None:
            for k in self.shared:
                for c in k.choices:
                    if r.item in c.of:
                        cap = c.max if c.max is not None else self.n
                        take = min(need, cap - self.shared_picks.get(r.item, 0))
                        if take > 0:
                            self.shared_picks[r.item] = self.shared_picks.get(r.item, 0) + take
                            need -= take

    def _along(self, item: str, named: dict[str, int]) -> int:
        """-1: an item the roster wants more of; 1: one it has enough of; 0: not named."""
        if item not in named:
            return 0
        have = sum(1 for m in self.models if self.carries(m, item))
        return -1 if have < named[item] else 1

    def _donor(self, target: int) -> _Model | None:
        """A model to re-equip as ``target``: untouched by any request, of a kind that keeps its
        minimum (or of the same profile); a model of the same profile first, of the most
        numerous kind."""
        want = self.kinds[target].profile
        best: _Model | None = None
        best_key: tuple[int, int, int] | None = None
        for m in self.models:
            if m.kind == target or m.pinned or m.locked:
                continue
            same = self.profile(m) == want and want is not None
            if self.count(m.kind) <= self.kinds[m.kind].min and not same:
                continue  # kinds of one profile are one model equipped differently: their
                # minimums are the catalogues' bookkeeping, not a limit on swapping
            key = (self.profile(m) != want, -self.count(m.kind), m.kind)
            if best_key is None or key < best_key:
                best, best_key = m, key
        return best

    def capacity(self, r: Request) -> int:
        """A bound on the models that could carry the item (for the message)."""
        total = 0
        for k in self.kinds:
            if r.profile is not None and k.profile != r.profile:
                continue
            if r.item in k.gear or any(r.item in c.of for c in k.choices):
                per = max([1] + [c.max or 1 for c in k.choices if r.item in c.of])
                most = self.most(self.kinds.index(k))
                total += per * (most if most is not None else self.n)
        for k in self.shared:
            for c in k.choices:
                if r.item in c.of:
                    total += c.max if c.max is not None else self.n
        return min(total, self.n)

    def loadouts(self) -> list[Loadout]:
        groups: dict[tuple[str | None, tuple[str, ...]], int] = {}
        shared = [item for item, n in self.shared_picks.items() for _ in range(n)]
        shared += [item for k in self.shared for item in k.gear for _ in range(self.n)]
        extra: list[list[str]] = [[] for _ in self.models]
        for i, item in enumerate(shared):  # one model each, in order
            if self.models:
                extra[i % len(self.models)].append(item)
        models = sorted(self.models, key=lambda m: m.kind)  # in the datasheet's order
        for m, more in zip(models, extra):
            k = self.kinds[m.kind]
            items = tuple(dict.fromkeys([*k.gear, *(i for p in m.picks for i in p), *more]))
            key = (k.profile, items)
            groups[key] = groups.get(key, 0) + 1
        return [Loadout(p, n, items) for (p, items), n in groups.items()]


def default_loadouts(ds: Any, models: int) -> list[Loadout]:
    """The datasheet's default wargear for ``models`` models (empty: no options recorded)."""
    if not ds.wargear:
        return []
    return _Unit(ds, models).loadouts()


def resolve(ds: Any, models: int, wanted: dict[str, Any] | None
            ) -> tuple[list[Loadout], list[Problem]]:
    """The unit's loadouts with the roster's choices applied, or the problems that stop it."""
    if not wanted:
        return default_loadouts(ds, models), []
    reqs, problems = requests(ds, wanted)
    if problems:
        return [], problems
    for r in reqs:
        if r.count > models:
            problems.append(Problem("BA195", f"{r.count} models carrying {r.item}: the unit has "
                                    f"{models}", r.loc))
    if problems:
        return [], problems
    named: dict[str, int] = {}
    for r in reqs:
        named[r.item] = named.get(r.item, 0) + r.count
    first = sorted(reqs, key=lambda r: (_kinds_offering(ds, r.item), r.loc))
    # the greedy placement in the first order, then in others (a few requests: cheap)
    for order in itertools.islice(itertools.permutations(first), MAX_ORDERS):
        unit = _Unit(ds, models)
        for r in order:
            unit.place(r, named)
        if all(unit.carriers(r) == r.count for r in order):
            return unit.loadouts(), []
    unit = _Unit(ds, models)
    order = tuple(first)
    for r in order:
        unit.place(r, named)
    for r in order:
        got = unit.carriers(r)
        if got == r.count:
            continue
        whose = f" {r.profile}" if r.profile else ""
        if got < r.count:
            most = unit.capacity(r)
            if most < r.count:
                problems.append(Problem("BA191", f"{ds.name}: at most {most}{whose} model(s) can "
                                        f"carry {r.item}, not {r.count}", r.loc))
            else:
                problems.append(Problem("BA192", f"{ds.name}: {r.count}{whose} model(s) with "
                                        f"{r.item} cannot be combined with the unit's other "
                                        f"choices ({got} placed)", r.loc))
        else:
            problems.append(Problem("BA192", f"{ds.name}: {got}{whose} model(s) carry {r.item} "
                                    f"with these choices, not {r.count} (name what replaces it)",
                                    r.loc))
    return ([] if problems else unit.loadouts()), problems


def _kinds_offering(ds: Any, item: str) -> int:
    return sum(1 for k in ds.wargear if item in k.gear or any(item in c.of for c in k.choices))


def from_lines(ds: Any, models: int, lines: list[tuple[int, str]]
               ) -> tuple[dict[str, int], list[str]]:
    """The wargear mapping for an exported list's wargear lines (``(count, name)``, totals over
    the unit): the items no model carries by default, with their counts, as far as they can
    be combined; and the lines not kept (not an option of the datasheet, or not placeable).
    Default items need no mention: a roster names only what differs."""
    items = offered(ds)
    carried = {i for lo in default_loadouts(ds, models) for i in lo.items}
    # a weapon of a default item ("Bolt pistol" of the bundle a character carries): default
    carried_weapons = {norm(w.name.split(" - ", 1)[0].removesuffix(" (melee)"))
                       for i in carried for w in item_weapons(ds, i)}
    totals: dict[str, int] = {}
    named: dict[str, list[str]] = {}
    dropped: list[str] = []
    for n, name in lines:
        item = find_item(name, items, ds)
        if item is None:
            if norm(name.split(" - ", 1)[0]) not in carried_weapons:
                dropped.append(f"{n}x {name}" if n != 1 else name)
            continue
        if item not in carried:
            totals[item] = totals.get(item, 0) + n
            named.setdefault(item, []).append(f"{n}x {name}" if n != 1 else name)
    wanted = dict(totals)
    while wanted:
        _, problems = resolve(ds, models, wanted)
        if not problems:
            break
        # one at a time: an item no count of the unit allows, else (choices that cannot be
        # combined) the last line's, so that the earlier lines are kept
        bad = {p.loc[0] for p in problems if p.loc and p.code != "BA192"}
        item = next((i for i in reversed(wanted) if i in bad), next(reversed(wanted)))
        del wanted[item]
        dropped += named[item]
    return wanted, dropped


def describe(loadouts: Iterable[Loadout]) -> str:
    return "; ".join(lo.describe() for lo in loadouts)
