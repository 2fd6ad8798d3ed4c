"""The greedy placement that decided wargear before the exact search
(:mod:`bagm.roster.loadout_search`), kept as a reference: items go to models one request at a
time, each model changing only what it must, in up to ``MAX_ORDERS`` orders of the requests.
tests/test_wargear_search.py checks that the exact search accepts whatever this accepts."""

from __future__ import annotations

import itertools
from typing import Any

from bagm.roster.wargear import Model, Models, Request, requests

MAX_ORDERS = 120


class Greedy(Models):
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
                fresh = self.fresh(t)
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

    def _donor(self, target: int) -> Model | None:
        """A model to re-equip as ``target``: untouched by any request, of a kind that keeps its
        minimum (or of the same profile); a model of the same profile first, of the most
        numerous kind."""
        want = self.kinds[target].profile
        best: Model | None = None
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


def _kinds_offering(ds: Any, item: str) -> int:
    return sum(1 for k in ds.wargear if item in k.gear or any(item in c.of for c in k.choices))


def greedy_accepts(ds: Any, models: int, wanted: dict[str, Any]) -> bool:
    """Whether the greedy placement finds models for these choices."""
    return greedy_loadouts(ds, models, wanted) is not None


def greedy_loadouts(ds: Any, models: int, wanted: dict[str, Any]) -> list[Any] | None:
    """The loadouts the greedy placement finds for these choices, or None."""
    reqs, problems = requests(ds, wanted)
    if problems or any(r.count > models for r in reqs):
        return None
    named: dict[str, int] = {}
    for r in reqs:
        named[r.item] = named.get(r.item, 0) + r.count
    first = sorted(reqs, key=lambda r: (_kinds_offering(ds, r.item), r.loc))
    for order in itertools.islice(itertools.permutations(first), MAX_ORDERS):
        unit = Greedy(ds, models)
        for r in order:
            unit.place(r, named)
        if all(unit.carriers(r) == r.count for r in order):
            return unit.loadouts()
    return None
