"""Wargear choices of a roster unit, checked against its datasheet's options and worked out
model by model.

A roster names only what differs from the datasheet's default wargear, as a player writes it:
``wargear: {meltagun: 1, power fist: 1}`` (how many models carry each item), or per model
profile (``{Intercessor Sergeant: {power fist: 1}}``). :func:`resolve` turns that into
:class:`Loadout` groups (which models carry what), or says why it cannot be done.

Reading chosen (the rules leave the form of an Army Roster's wargear to the player): a count is
the number of the unit's models that carry the item once every choice is made, so naming a
default item with its default count is accepted and changes nothing. Which models carry what is
found by an exact search (:mod:`bagm.roster.loadout_search`): every combination the datasheet's
options allow is accepted, changing the fewest models from the default, and a combination none
allows is refused with the first named item (in the roster's order) that cannot be added to the
ones before it. A model takes only its standard wargear and the items the roster names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from bagm.data.names import did_you_mean, norm


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
class Model:
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


class Models:
    """The unit's models, each of one kind with its picks: the datasheet's default unit of
    ``n`` models, or (:func:`resolve`) the one a roster's choices make."""

    def __init__(self, ds: Any, n: int) -> None:
        self.ds = ds
        self.kinds = [k for k in ds.wargear if k.model is not None]
        self.shared = [k for k in ds.wargear if k.model is None]  # the unit as a whole
        self.n = n
        self.models: list[Model] = []
        self.shared_picks: dict[str, int] = {}
        self.cramped = False
        # bounds counting some kinds' models (``max_from_kinds``): that number as the search
        # case takes it (:func:`_solve`), or the loosest such bound (``loose``: left out)
        self.case: dict[tuple[str, ...], int] | None = None
        self.loose = False
        self.groups = self._groups()
        self.present: set[str] = set()  # items the default unit carries (for ``unit_needs``)
        counts = self._composition(n)
        for i, c in enumerate(counts):
            self.models += [self.fresh(i) for _ in range(c)]
        if any(c.unit_needs for k in self.kinds for c in k.choices):
            self.present = {i for m in self.models for i in self.items(m)}
            self.models = [self.fresh(m.kind) for m in self.models]

    def items(self, m: Model) -> set[str]:
        return {*self.kinds[m.kind].gear, *(i for p in m.picks for i in p)}

    def fresh(self, kind: int, present: set[str] | None = None) -> Model:
        """A model of kind ``kind`` with its default picks (a choice inside an item only
        where it carries the item; one bound to what the unit carries only where the unit
        carries it: ``present``, else what the default unit carries)."""
        k = self.kinds[kind]
        present = self.present if present is None else present
        picks: list[list[str]] = []
        for c in k.choices:
            carried = {*k.gear, *(i for p in picks for i in p)}
            if c.needs is not None and c.needs not in carried \
                    or any(i in carried for i in c.unless) or c.most(self.n) == 0 \
                    or c.unit_needs and not set(c.unit_needs) & present:
                picks.append([])
            elif c.unit_needs and c.default is None and (c.unit_min or c.min):
                picks.append(list(c.of[:c.unit_min or c.min]))  # required with the unit's item
            elif c.default is not None:
                picks.append([c.default])
            elif c.min >= 1 and c.of:
                picks.append(self.first(c))  # a required choice: the first, as builders do
            else:
                picks.append([])
        return Model(kind, picks)

    def first(self, c: Any) -> list[str]:
        """The picks of a required choice without a default: its first items, as list
        builders do, passing over an item bounded across the unit where others are offered
        (3 Sanguinary Guard take Angelus boltguns, as the catalogue allows 1 inferno pistol)."""
        bounded = {norm(i) for b in self.ds.wargear_item_bounds if not b.alike for i in b.items}
        free = [i for i in c.of if norm(i) not in bounded]
        return list((free if len(free) >= c.min else c.of)[:c.min])

    def _groups(self) -> list[tuple[frozenset[int], int, Any]]:
        """The datasheet's bounds over several kinds: (kinds, min, the bound: its maximum
        :meth:`top`). A bound naming a kind the unit has twice under one name cannot be
        placed: left out."""
        names = [k.model for k in self.kinds]
        out = []
        for g in self.ds.wargear_groups:
            if any(names.count(m) > 1 for m in g.models):
                continue
            members = frozenset(i for i, m in enumerate(names) if m in g.models)
            if members:
                out.append((members, g.min, g))
        # a unit smaller than the catalogue's composition (a Boarding Actions half-size
        # squad): the bounds' minima cannot all hold, none binds a roster's choices
        grouped = set().union(*(m for m, _, _ in out)) if out else set()
        self.cramped = sum(lo for _, lo, _ in out) + sum(
            k.min for i, k in enumerate(self.kinds) if i not in grouped) > self.n
        return out

    def _composition(self, n: int) -> list[int]:
        """How many models of each kind a plain roster has: each kind's minimum (one-model
        kinds such as a sergeant first when the unit is smaller), then each bound over several
        kinds' minimum (one Princeps of the two kinds), the rest the plainest kind, within the
        bounds' maxima."""
        counts = [0] * len(self.kinds)
        left = n
        order = sorted(range(len(self.kinds)), key=lambda i: self.most(i) != 1)
        for i in order:
            take = min(self.kinds[i].min, left)
            counts[i] += take
            left -= take
        for members, lo, _ in self.groups:
            while left > 0 and sum(counts[i] for i in members) < lo:
                room = [i for i in sorted(members) if self._room(i, counts) > 0]
                if not room:
                    break
                main = min(room, key=lambda i: (self._plain(i), i))
                counts[main] += 1
                left -= 1
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

    def most(self, i: int, counts: list[int] | None = None) -> int | None:
        """The most models of kind ``i`` in a unit of this size (see :meth:`top`)."""
        return self.top(self.kinds[i], counts)

    def top(self, b: Any, counts: list[int] | None = None) -> int | None:
        """The maximum of bound ``b`` (a kind, a group of kinds, items together) here: by
        the unit's size, or by the number of models of its ``max_from_kinds`` (the
        Inquisitorial Agents' special Agents, 2 with 10 Acolytes): the search case's number
        (``case``), the loosest (``loose``), else the one in ``counts`` (models per kind,
        the default unit's where not given)."""
        if not b.max_from_kinds:
            return b.most(self.n)
        key = tuple(b.max_from_kinds)
        if self.loose:
            tops = [b.most(t) for t in [0, *b.max_from]]
            return None if None in tops else max(tops)
        if self.case is not None and key in self.case:
            return b.most(self.case[key])
        if counts is None:
            counts = [self.count(i) for i in range(len(self.kinds))]
        return b.most(sum(c for i, c in enumerate(counts)
                          if self.kinds[i].model in key))

    def _plain(self, i: int) -> int:
        k = self.kinds[i]
        return len(k.gear) + 2 * len(k.choices)

    def _room(self, i: int, counts: list[int]) -> int:
        # a bound counting some kinds' models: by their number so far (they only grow, and
        # such a maximum with them: the default unit keeps it)
        hi = self.most(i, counts)
        room = 10**6 if hi is None else hi - counts[i]
        for members, _, g in self.groups:
            most = self.top(g, counts)
            if i in members and most is not None:
                room = min(room, most - sum(counts[j] for j in members))
        # an item bounded across the unit that the kind always carries (no more than 3 of 5
        # Acolyte Hybrids with heavy mining tools, whose kind carries nothing else)
        gear = {norm(g) for g in self.kinds[i].gear}
        for b in self.ds.wargear_item_bounds:
            most = None if b.alike else self.top(b, counts)
            items = {norm(g) for g in b.items}
            if most is not None and not b.alike and len(items & gear) == 1:
                room = min(room, most - sum(
                    counts[j] * min(len(items & {norm(g) for g in k.gear}),
                                    1 if b.per_model else 10**6)  # models, or items
                    for j, k in enumerate(self.kinds)))
        return room

    def count(self, kind: int) -> int:
        return sum(1 for m in self.models if m.kind == kind)

    def profile(self, m: Model) -> str | None:
        return self.kinds[m.kind].profile

    def carries(self, m: Model, item: str) -> bool:
        k = self.kinds[m.kind]
        return item in k.gear or any(item in p for p in m.picks)

    def carriers(self, r: Request) -> int:
        n = sum(1 for m in self.models if self._scope(m, r) and self.carries(m, item=r.item))
        return n + (self.shared_picks.get(r.item, 0) if r.profile is None else 0)

    def _scope(self, m: Model, r: Request) -> bool:
        return r.profile is None or self.profile(m) == r.profile

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
    return Models(ds, models).loadouts()


def _search_spec(unit: Models, present: set[str] | None = None,
                 beside: set[str] | None = None) -> tuple[list[Any], list[Any], list[Any]]:
    """The unit's kinds of model, bounds over several kinds (the catalogues' groups, such as
    up to 2 Shock Troopers with special weapons) and unit-wide choices as the search reads
    them. A kind's bounds take in the default unit (which the catalogue's bounds may not
    reach). Kinds of one profile are one model equipped differently: the minimum of
    such a kind ("at least 4 Intercessors" beside "up to 2 with grenade launchers") is the
    catalogues' bookkeeping and binds the profile's models together; a kind of exactly one
    model (a sergeant, also where larger units have two) keeps its own. ``present``: the
    items the unit carries in this search (choices bound to them are made; see :func:`_solve`);
    ``beside``: the kinds of model the unit has in this search, of those other kinds or items
    are barred beside (None: no such bound, or the bounds left out: ``free``)."""
    from bagm.roster.loadout_search import Bound, Choice, Kind

    kinds = []
    together: dict[str, list[int]] = {}  # profile -> its kinds
    floor: dict[str, int] = {}  # profile -> the largest minimum of its kinds
    for i, k in enumerate(unit.kinds):
        plain = unit.count(i)
        most = unit.most(i)
        hi = unit.n if most is None else min(most, unit.n)
        lo = min(k.min, plain)
        if k.profile is not None:
            together.setdefault(k.profile, []).append(i)
            if not k.min == k.max == 1:
                floor[k.profile] = max(floor.get(k.profile, 0), lo)
                lo = 0
        picks = unit.fresh(i, present).picks
        # a required choice without a default in the catalogues is filled by the first item
        # only for a kind the default unit has: another kind takes an item the roster names
        choices = tuple(Choice(tuple(c.of), _least(c, present),
                               _cap(c.most(unit.n), len(c.of)) if _made(c, present) else 0,
                               tuple(picks[ci]) if c.default is not None or plain else (),
                               c.needs, (c.default,) if c.default else tuple(unit.first(c)),
                               tuple(c.unless), *_item_bounds(c, beside))
                        for ci, c in enumerate(k.choices))
        # the default unit keeps its own; a bound counting some kinds' models it meets in
        # its own search case (its composition is made so), not in another
        kinds.append(Kind(k.profile, lo, hi if k.max_from_kinds else max(hi, plain), plain,
                          tuple(k.gear), choices))
    bounds = [Bound(frozenset(together[p]), lo, unit.n) for p, lo in floor.items() if lo]
    if beside is not None:  # each kind in question: one or more models, or none
        for name in _beside_kinds(unit):
            members = frozenset(i for i, k in enumerate(unit.kinds) if k.model == name)
            bounds.append(Bound(members, 1, unit.n) if name in beside else Bound(members, 0, 0))
        for i, k in enumerate(unit.kinds):  # none of a kind beside one it cannot join
            if set(k.unit_unless) & beside:
                bounds.append(Bound(frozenset([i]), 0, 0))
    for members, g_lo, g in unit.groups:  # a bound shared by several kinds (special weapons)
        plain = sum(kinds[i].plain for i in members)  # the default unit keeps its own
        g_hi = unit.top(g)
        bounds.append(Bound(members, 0 if unit.cramped else min(g_lo, plain),
                            unit.n if g_hi is None else min(g_hi, unit.n)
                            if g.max_from_kinds else max(min(g_hi, unit.n), plain)))
    shared = [Choice(tuple(c.of), 0, _cap(c.most(unit.n), unit.n), ())
              for k in unit.shared for c in k.choices]
    return kinds, bounds, shared


def _beside_kinds(unit: Models) -> list[str]:
    """The kinds of model beside which the datasheet bars a kind or an item (the Skitarii
    Ranger with an omnispex, the Yaegirs the Theyn's weapon goes with), or bounds items
    carried together (the Death Company Marine w/ alternate weapons)."""
    names = {n for k in unit.kinds for n in k.unit_unless} | \
        {n for k in unit.kinds for c in k.choices for ns in c.item_unit_unless.values()
         for n in ns} | {n for b in unit.ds.wargear_item_bounds for n in b.beside}
    return sorted(n for n in names if any(k.model == n for k in unit.kinds))


def _item_bounds(c: Any, beside: set[str] | None
                 ) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...],
                            tuple[tuple[str, tuple[str, ...]], ...]]:
    """A choice's items barred beside the kinds ``beside``, the items its items need and
    those they are not taken with (none of them with ``beside`` None: the bounds left out)."""
    if beside is None:
        return (), (), ()
    barred = tuple(i for i in c.of if set(c.item_unit_unless.get(i, ())) & beside)
    return barred, tuple((i, tuple(n)) for i, n in c.item_needs.items()), \
        tuple((i, tuple(n)) for i, n in c.item_unless.items())


def _made(c: Any, present: set[str] | None) -> bool:
    """Whether a choice bound to what the unit carries is made (``present``: None, the
    default unit's items are not in question)."""
    return not c.unit_needs or present is None or bool(set(c.unit_needs) & present)


def _least(c: Any, present: set[str] | None) -> int:
    """A choice's minimum where the unit carries (or lacks) its ``unit_needs``."""
    if not c.unit_needs or present is None:
        return int(c.min)
    return max(c.min, c.unit_min or 0) if set(c.unit_needs) & present else 0


def _cap(most: int | None, otherwise: int) -> int:
    """A choice's maximum for the search: its own, or ``otherwise`` where the catalogue gives none."""
    return otherwise if most is None else most


def _kept(unit: Models, b: Any) -> int:
    """The most of a bound's items the unit carries together at this size: the bound's, or
    what the default unit carries (as a kind's bounds take it in)."""
    items = {norm(i) for i in b.items}
    plain = sum(min(len(items & {norm(i) for i in unit.items(m)}), 1 if b.per_model else 10**6)
                for m in unit.models)
    top = _cap(unit.top(b), 10**6)
    return top if b.max_from_kinds else max(top, plain)  # (see _search_spec)


def _solve(unit: Models, reqs: list[Request], free: bool = False) -> Any:
    """The search's answer for these requests (None: no legal unit has them). A choice made
    only while the unit carries an item (the Reiver Sergeant's bolt carbine), and a kind or
    item barred beside a kind of model (the Skitarii's data-tether and omnispex, the Yaegir
    Theyn's weapon), are searched in each case, the unit with one or more of the item (or
    kind) and the unit with none, and the answer changing the fewest models kept; an
    ``alike`` set of items (the Thunderkyn's weapons) in a case per item, the others none.
    A bound counting some kinds' models (``max_from_kinds``) is searched in a case per
    range of that number in which it is the same (Inquisitorial Agents: fewer than 10
    Acolytes, or 10), the number held to the range.
    ``free``: the bounds on items a model carries, kinds the unit has or items the unit
    carries together are left out, and those counting some kinds' models taken at their
    loosest (to tell whether they are why a request is refused)."""
    from itertools import product

    from bagm.roster.loadout_search import Bound, Want

    wants = []
    for r in reqs:
        count = r.count
        if r.profile is None:  # what every model carries as the unit's own wargear
            count -= unit.n * sum(norm(g) == norm(r.item) for k in unit.shared for g in k.gear)
        if count < 0:
            return None
        wants.append(Want(norm(r.item), count, r.profile))
    keyed = [] if free else _counted(unit)
    unit.loose = free
    best = None
    try:
        for ranges in product(*(r for _, _, r in keyed)):
            unit.case = {key: lo for (key, _, _), (lo, _) in zip(keyed, ranges)}
            held = [Bound(members, lo, hi) for (_, members, _), (lo, hi) in zip(keyed, ranges)]
            answer = _solve_case(unit, wants, free, held)
            if answer is not None and (best is None or answer.changed < best.changed):
                best = answer
    finally:
        unit.case, unit.loose = None, False
    return best


def _counted(unit: Models) -> list[tuple[tuple[str, ...], frozenset[int], list[tuple[int, int]]]]:
    """The numbers of models that bounds count instead of the unit's size: per set of kinds
    (``max_from_kinds``), its kinds' indices and the ranges (lo, hi) of that number within
    which every such bound is the same."""
    steps: dict[tuple[str, ...], set[int]] = {}
    for b in [*unit.kinds, *unit.ds.wargear_groups, *unit.ds.wargear_item_bounds]:
        if b.max_from_kinds:
            steps.setdefault(tuple(b.max_from_kinds), set()).update(b.max_from)
    out = []
    for key, at in sorted(steps.items()):
        members = frozenset(i for i, k in enumerate(unit.kinds) if k.model in key)
        if not members:
            continue
        edges = [0, *sorted(t for t in at if 0 < t <= unit.n)]
        ranges = [(a, b - 1) for a, b in zip(edges, edges[1:])] + [(edges[-1], unit.n)]
        out.append((key, members, ranges))
    return out


def _solve_case(unit: Models, wants: list[Any], free: bool, held: list[Any]) -> Any:
    """:func:`_solve` in one case of the numbers bounds count (``held``: those numbers'
    bounds)."""
    from itertools import product

    from bagm.roster.loadout_search import Want, solve

    bound = sorted({i for k in unit.kinds for c in k.choices for i in c.unit_needs})
    kinds_bound = [] if free else _beside_kinds(unit)
    items_bound = not free and any(c.item_needs or c.item_unless
                                   for k in unit.kinds for c in k.choices)
    together = [] if free else unit.ds.wargear_item_bounds
    replaced = [] if free else _replaced(unit)

    def caps(beside: set[str]) -> list[Any]:
        """Items carried together: at most so many of them (one more want each), where the
        unit has a model of the kinds the bound needs (``beside``: those it has)."""
        return [Want("", _kept(unit, b), None, items=frozenset(norm(i) for i in b.items),
                     per_model=b.per_model)
                for b in together if not b.alike and (not b.beside or set(b.beside) & beside)]
    # one item of each alike set, the others none: a case per item (real data: 2 or 3)
    alike = [[Want("", 0, None, items=frozenset(norm(o) for o in b.items if o != i))
              for i in b.items] for b in together if b.alike]
    best = None
    for same in product(*alike):
        if not bound and not kinds_bound:
            kinds, bounds, shared = _search_spec(unit, None, set() if items_bound else None)
            answer = solve(kinds, bounds + held, shared,
                           wants + caps(set()) + list(same) + replaced,
                           unit.n, norm)
            if answer is not None and (best is None or answer.changed < best.changed):
                best = answer
            continue
        # 2 cases per item or kind (real data: 1 item, or 2 kinds)
        for has in product((False, True), repeat=len(bound) + len(kinds_bound)):
            present = {i for i, h in zip(bound, has) if h}
            beside = {n for n, h in zip(kinds_bound, has[len(bound):]) if h}
            kinds, bounds, shared = _search_spec(unit, present if bound else None,
                                                 beside if kinds_bound or items_bound else None)
            # one or more models carry each item present (the roster names it, or a model
            # has it by default), none each item absent
            extra = [Want(norm(i), 1, None, at_least=True) if h else Want(norm(i), 0, None)
                     for i, h in zip(bound, has[:len(bound)])]
            answer = solve(kinds, bounds + held, shared,
                           wants + caps(beside) + list(same) + extra + replaced, unit.n, norm)
            if answer is not None and (best is None or answer.changed < best.changed):
                best = answer
    return best


def _replaced(unit: Models) -> list[Any]:
    """A want for each choice bounding how many models of the unit take other than its
    default (``unit_max``): its picks other than the default, counted in that choice only
    (the Astartes chainsword another choice of the same model offers is not counted); the
    default unit keeps what it has."""
    from bagm.roster.loadout_search import Want

    out = []
    for i, k in enumerate(unit.kinds):
        for ci, c in enumerate(k.choices):
            if c.unit_max is None or c.default is None:
                continue
            others = frozenset(norm(o) for o in c.of if o != c.default)
            plain = sum(1 for m in unit.models if m.kind == i
                        and {norm(p) for p in m.picks[ci]} & others)
            out.append(Want("", max(c.unit_max, plain), None, items=others, choice=(i, ci)))
    return out


def resolve(ds: Any, models: int, wanted: dict[str, Any] | None
            ) -> tuple[list[Loadout], list[Problem]]:
    """The unit's loadouts with the roster's choices applied, or the problems that stop it."""
    from bagm.roster.loadout_search import TooHard

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
    unit = Models(ds, models)
    try:
        answer = _solve(unit, reqs)
        if answer is not None:
            unit.models = [Model(i, [list(p) for p in picks])
                           for i, group in enumerate(answer.models)
                           for count, picks in group for _ in range(count)]
            unit.shared_picks = {}
            for taken in answer.shared:
                for item, n in taken.items():
                    unit.shared_picks[item] = unit.shared_picks.get(item, 0) + n
            return unit.loadouts(), []
        return [], [_refusal(ds, unit, reqs)]
    except TooHard:
        return [], [Problem("BA194", f"{ds.name}: too many combinations of these choices to "
                            "check; the wargear is kept but not checked, and games play the "
                            "default weapons", reqs[0].loc)]


def _refusal(ds: Any, unit: Models, reqs: list[Request]) -> Problem:
    """Why no legal unit has these counts: the first request (in the roster's order) that
    cannot join the ones before it, said as the most (BA191) or fewest (BA192) models that can
    carry its item on their own, or as a combination that cannot be made (BA192)."""
    culprit = reqs[-1]
    for k in range(1, len(reqs) + 1):
        if _solve(unit, reqs[:k]) is None:
            culprit = reqs[k - 1]
            break
    r = culprit
    whose = f" {r.profile}" if r.profile else ""
    bound = _unit_bound(unit, r, reqs)
    if bound is not None:
        return Problem("BA197", f"{ds.name}: {bound}", r.loc)
    upto = reqs[:reqs.index(r) + 1]
    free = _solve(unit, upto, free=True)
    if free is not None:  # legal but for an item or kind beside, or items together
        return Problem("BA197", f"{ds.name}: {_beside_bound(unit, upto, free)}", r.loc)
    alone = [n for n in range(unit.n + 1)
             if _solve(unit, [Request(r.item, n, r.profile, r.loc)]) is not None]
    if r.count and max(alone, default=0) == 0:  # only with another choice named before it
        before = reqs[:reqs.index(r)]
        together = [n for n in range(1, unit.n + 1)
                    if _solve(unit, [*before, Request(r.item, n, r.profile, r.loc)]) is not None]
        if together and r.count > max(together):
            return Problem("BA191", f"{ds.name}: at most {max(together)}{whose} model(s) can "
                           f"carry {r.item} with the choices before it, not {r.count}", r.loc)
        ruled = _ruled_out(unit, r.item, r.profile)
        if ruled is not None:
            return Problem("BA192", f"{ds.name}: {r.item} is taken only by a model without "
                           f"{ruled}", r.loc)
    if alone and r.count > max(alone):
        return Problem("BA191", f"{ds.name}: at most {max(alone)}{whose} model(s) can carry "
                       f"{r.item}, not {r.count}", r.loc)
    if alone and r.count < min(alone):
        return Problem("BA192", f"{ds.name}: {min(alone)}{whose} model(s) carry {r.item} with "
                       f"these choices, not {r.count} (name what replaces it)", r.loc)
    if r.count not in alone:
        return Problem("BA192", f"{ds.name}: no legal unit has exactly {r.count}{whose} "
                       f"model(s) with {r.item}", r.loc)
    return Problem("BA192", f"{ds.name}: {r.count}{whose} model(s) with {r.item} cannot be "
                   "combined with the unit's other choices", r.loc)


def _unit_bound(unit: Models, r: Request, reqs: list[Request]) -> str | None:
    """A request refused for a choice bound to what the unit carries, said as that bound:
    the item named without one the unit must carry for it ("the Reiver Sergeant's Bolt
    Carbine is taken only while the unit has Bolt Carbine and Close Combat Weapon"), or left
    out where the unit's item requires it; else None."""
    offers = [(k, c) for k in unit.kinds for c in k.choices
              if r.item in c.of and (r.profile is None or k.profile == r.profile)]
    if not offers or not all(c.unit_needs for _, c in offers):
        return None
    kind, c = offers[0]
    needs = " or ".join(c.unit_needs)
    named = any(q.count > 0 and norm(q.item) in {norm(i) for i in c.unit_needs} for q in reqs)
    if r.count > 0 and not named:
        return f"{kind.model}'s {r.item} is taken only while the unit has {needs}; name it too"
    if named and c.unit_min:
        return f"while the unit has {needs}, the {kind.model} takes {r.item} " \
            f"({c.unit_min} each), not {r.count}"
    return None


def _beside_bound(unit: Models, reqs: list[Request], free: Any = None) -> str:
    """The datasheet's bounds on an item a model carries, a kind of model the unit has or
    items the unit's models carry together that the requests meet (all of them where none
    names a requested item), said as facts with how to meet them: "the Canoness takes Null
    Rod only with Hallowed Chainsword", "the Yaegir Theyn takes Bolt shotgun only without a
    Hernkyn Yaegir w/ revolver and knife in the unit", "no Skitarii Ranger w/ omnispex beside
    a Skitarii Ranger w/ data-tether", "every model taking one of Bolt cannon / Graviton
    blast cannon takes the same". ``free``: the search's answer without these bounds, whose
    items carried together say which such bound it breaks (a choice the roster names nothing
    for takes its first item: 4 plasma pistols bring 4 power weapons)."""
    named = {norm(q.item) for q in reqs if q.count > 0}
    carrying = {k.model for k in unit.kinds if named & {norm(g) for g in k.gear}}
    met: list[tuple[str, str]] = []  # (the fact, how to meet it)
    every: list[tuple[str, str]] = []
    hide = "the catalogues hide it otherwise"
    pairs: set[frozenset[str | None]] = set()
    for k in unit.kinds:
        for c in k.choices:
            for item, needs in c.item_needs.items():
                fact = (f"the {k.model} takes {item} only with {' and '.join(needs)} ({hide})",
                        "name what it goes with, or leave it out")
                every.append(fact)
                if norm(item) in named or named & {norm(n) for n in needs}:
                    met.append(fact)
            for item, other in c.item_unless.items():
                without = " or ".join(other)
                fact = (f"the {k.model} takes {item} only without {without} (the catalogues "
                        f"require another item of that choice beside {without})",
                        "name another of the choice's items, or leave one of them out")
                every.append(fact)
                if norm(item) in named or named & {norm(n) for n in other}:
                    met.append(fact)
            for item, kinds in c.item_unit_unless.items():
                fact = (f"the {k.model} takes {item} only without a {' or '.join(kinds)} "
                        f"in the unit ({hide})", "name what it goes with, or leave it out")
                every.append(fact)
                if norm(item) in named or carrying & set(kinds):
                    met.append(fact)
        for other in k.unit_unless:
            if frozenset([k.model, other]) in pairs:
                continue
            pairs.add(frozenset([k.model, other]))
            fact = (f"no {k.model} beside a {other} ({hide})", "keep one of them")
            every.append(fact)
            if carrying & {k.model, other}:
                met.append(fact)
    for i, k in enumerate(unit.kinds):  # how many models take other than a choice's default
        for ci, c in enumerate(k.choices):
            if c.unit_max is None or c.default is None:
                continue
            others = [o for o in c.of if o != c.default]
            took = sum(x for x, picks in (free.models[i] if free is not None else [])
                       if set(picks[ci]) & set(others))
            fact = (f"at most {c.unit_max} {k.model} in the unit takes one of "
                    f"{' / '.join(others)} for {c.default} (the catalogues' bound on the "
                    "choice across the unit)", "name fewer of them")
            every.append(fact)
            if took > c.unit_max or free is None and named & {norm(o) for o in others}:
                met.append(fact)
    carried: list[tuple[int, set[str], str | None]] = []  # (models, their items, their kind)
    for i, group in enumerate(free.models if free is not None else []):
        k = unit.kinds[i]
        carried += [(x, {norm(g) for g in k.gear} | {norm(p) for ps in picks for p in ps},
                     k.model) for x, picks in group]
    kinds_in = {m for x, _, m in carried if x}
    per_kind = [sum(x for x, _ in group) for group in free.models] if free is not None else []
    # bounds counting some kinds' models: said with that number (the answer's, which the
    # search without them found)
    for b, members in [*((k, [i]) for i, k in enumerate(unit.kinds)),
                       *((g, sorted(m)) for m, _, g in unit.groups)]:
        if b.max_from_kinds:
            what = getattr(b, "model", None) or f"of {' / '.join(b.models)} together"
            fact = _counted_fact(b, what, per_kind, unit)
            every.append(fact)
            if per_kind and sum(per_kind[i] for i in members) > (
                    _at(b, per_kind, unit) or unit.n):
                met.append(fact)
    shared_taken = [(n, {norm(i)}) for taken in (free.shared if free is not None else [])
                    for i, n in taken.items()]  # the unit's own items (a Tome-skull)
    for b in unit.ds.wargear_item_bounds:
        items = " / ".join(b.items)
        keys = {norm(i) for i in b.items}
        each = 1 if b.per_model else 10**6  # a model carrying two counts once in a pool
        total = sum(x * min(len(got & keys), each) for x, got, _ in carried) + sum(
            n * min(len(got & keys), each) for n, got in shared_taken)
        distinct = {i for x, got, _ in carried if x for i in got & keys}
        if b.max_from_kinds and not b.alike:
            fact = _counted_fact(b, items, per_kind, unit)
            every.append(fact)
            if per_kind and total > (_at(b, per_kind, unit) or 0) \
                    or free is None and named & keys:
                met.append(fact)
            continue
        broken = len(distinct) > 1 if b.alike else (
            (not b.beside or bool(set(b.beside) & kinds_in)) and total > (b.most(unit.n) or 0))
        beside = f" while it has a {' or '.join(b.beside)}" if b.beside else ""
        grows = ", ".join(f"{v} from {n} models" for n, v in sorted(b.max_from.items())
                          if n > unit.n)
        fact = (f"every model taking one of {items} takes the same (the catalogues' error "
                "otherwise)", "name one of them only") if b.alike else (
            f"at most {b.most(unit.n)} models in a unit of {unit.n} carry one or more of "
            f"{items}" + (f" ({grows})" if grows else "") + " (a model carrying two counts "
            "once)", "name fewer of them, or put them on the same models"
            + (", or take a larger unit" if grows else "")) if b.per_model else (
            f"at most {b.most(unit.n)} {items} in a unit of {unit.n} models"
            + (f" ({grows})" if grows else "") + ", whichever models carry them",
            "name fewer" + (", or take a larger unit" if grows else "")) \
            if len(b.items) == 1 and not b.beside else (
            f"at most {b.most(unit.n)} of {items} in the unit together{beside} (the "
            "catalogues' error otherwise)", "name fewer of them, or what the models take instead")
        every.append(fact)
        if broken or free is None and named & keys:
            met.append(fact)
    said = met or every
    advice = "; ".join(dict.fromkeys(a for _, a in said))
    return "; ".join(t for t, _ in said) + f": {advice}"


def _at(b: Any, per_kind: list[int], unit: Models) -> int | None:
    """A bound's maximum where the unit has ``per_kind`` models of each kind."""
    return b.most(sum(n for i, n in enumerate(per_kind)
                      if unit.kinds[i].model in b.max_from_kinds))


def _counted_fact(b: Any, what: str, per_kind: list[int], unit: Models) -> tuple[str, str]:
    """A bound counting some kinds' models said as a fact with how to meet it: "at most 1
    Agent w/ plasma pistol while the unit has fewer than 10 models of Agent / ... (2 from
    10)", said alike whether the catalogues raise an error or set the maximum; the way to
    a larger maximum from the number of models the search found (``per_kind``)."""
    kinds = " / ".join(b.max_from_kinds)
    steps = sorted(b.max_from.items())
    now = sum(n for i, n in enumerate(per_kind) if unit.kinds[i].model in b.max_from_kinds)
    first = steps[0][0] if steps else 0
    here = b.most(now) or 0
    more = [t for t, v in steps if t > now and v > here]
    fewer = [t for t in (t for t, _ in steps if t <= now) if (b.most(t - 1) or 0) > here]
    how = "name fewer" + (f", or have {more[0]} or more of them in the unit" if more else "") \
        + (f", or fewer than {fewer[-1]} of them" if fewer else "")
    grows = ", ".join(f"{v} from {t}" for t, v in steps)
    while_ = f"without a {kinds}" if first == 1 else \
        f"while the unit has fewer than {first} models of {kinds}"
    return f"at most {b.max} {what} {while_} ({grows})", how


def _ruled_out(unit: Models, item: str, profile: str | None) -> str | None:
    """Why a default model (of ``profile``) cannot take ``item`` alone: the default item
    ruling its choice out and what may replace it ("Twin torturer's tools (name what replaces
    it: one of Hexrifle / ...)"), or None."""
    for i, k in enumerate(unit.kinds):
        if profile is not None and k.profile != profile or not unit.count(i):
            continue
        model = unit.fresh(i)
        for c in k.choices:
            if item not in c.of or not any(unit.carries(model, u) for u in c.unless):
                continue
            others = [i for d in k.choices if set(d.of) & set(c.unless)
                      for i in d.of if i not in c.unless]
            return f"{' or '.join(c.unless)} (name what replaces it: one of " \
                f"{' / '.join(dict.fromkeys(others))})" if others else ' or '.join(c.unless)
    return None


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
