"""Bounds over items the unit's models carry together (issue 13 section 1), read from the
catalogues' modifiers of an item's bounds whose conditions count the items of the whole unit
or of the model making the choice. The forms read:

- an error while the unit carries this item and one of others ("All Thunderkyn models must
  have the same weapon"): the items none beside each other; where every two items of a set
  are such, the unit carries one of them only (an ``alike`` bound over the set);
- an item's minimum set to 1 while another model of the unit carries an item of that name,
  for every item of a choice of exactly one, made by the one model of its kind (the Aggressor
  Sergeant's gauntlets follow the squad's): the others carry one of the items at most (he
  cannot follow two) and he takes it, which is an ``alike`` bound over the choice's items;
- an item's (or a group of items') maximum set to 0 while the model carries another item of
  the same choice of one (a Battle Sister's special weapons beside her heavy weapons): the
  choice's own bound says as much;
- an error on a kind of model while the unit counts more than N selections of a category
  ("Max 1 pistol replacement in squad" while "Pistol replacement" >= 2): at most N of the
  items of that category carried in the unit, while it has a model of that kind (``beside``:
  the error is raised on his entry; none without him);
- an item's maximum counted across the unit lowered by 1 for each of other items (a repeat
  each: Death Company Marines with Jump Packs, "up to 2 plasma pistols, 1 fewer for each hand
  flamer or inferno pistol"): at most that many of them together, its maximum raised or
  lowered by the unit's size alone as the catalogue says (4 from 10 models). The catalogue
  checks it only while the unit carries the item; it is read as a bound whatever the unit
  carries where each of the other items has such a bound of its own, over the others at
  least and no larger, so that without the item they are bound as much. Other modifiers of
  that maximum, which can only lower it, stay named;
- such maxima of items lowered by 1 while the model carrying one has none of some other
  items and the unit has N or more of them together, at N = t, t + 1, ... as far as the
  items' bound together allows (Death Company Marines with Jump Packs: hand flamers and
  inferno pistols beside power fists and weapons): one pool of models carrying one or more
  of them all (``per_model``), see :func:`_pool` for the reading chosen.

Items are counted by name (:mod:`bagm.roster.wargear`), so a form is read only where every
entry of the unit bearing a counted name is the entry the catalogue counts (for the sergeant:
every entry of another kind of model). A form met in part (a set not every two of whose items
are barred together, a choice with an item that follows nothing) is named in
``wargear_unread``, never passed silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from bagm.io.bsdata.links import child_elements
from bagm.io.bsdata.shown import categories

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

    from bagm.io.bsdata.extract import Extractor, Node

MAX_DEPTH = 10  # entry nesting followed below a datasheet (real data: < 8)
_SOME = {("atLeast", 1.0), ("greaterThan", 0.0)}  # "has one or more"
_NONE = {("equalTo", 0.0), ("lessThan", 1.0), ("atMost", 0.0)}  # "has none"
_UNIT_SCOPES = ("unit", "root-entry")  # scopes naming the unit (beside its own ids)


def _test(cond: "Element") -> tuple[str, float] | None:
    try:
        return cond.get("type", ""), float(cond.get("value", ""))
    except ValueError:
        return None


def _conditions(el: "Element") -> list["Element"]:
    """Every condition of a modifier, in its condition groups too."""
    out = list(child_elements(el, "conditions", "condition"))
    for g in child_elements(el, "conditionGroups", "conditionGroup"):
        out += _conditions(g)
    return out


@dataclass
class Together:
    """What a unit's read found of the forms above; :meth:`finish` works them out once every
    kind of model is read. ``unit_ids``: the unit's entry; ``items``: its models' item entry ids
    -> item names; ``entries``: each name -> (the kind of model, the entry's ids, its
    categories) of every entry of the unit bearing it that the reader offers (not one hidden as such: the Beserk with a
    mole grenade launcher's maul, shown beside the squad's, is no option of the pack)."""

    unit_ids: frozenset[str]
    items: dict[str, str]
    counters: frozenset[str]
    entries: dict[str, list[tuple[str | None, frozenset[str], frozenset[str]]]]
    # items barred beside each other: (a pair of names, the line naming the error)
    apart: list[tuple[frozenset[str], str]] = field(default_factory=list)
    # items following the unit's: (kind, the choice, item name, line)
    follows: list[tuple[str, dict[str, Any], str, str]] = field(default_factory=list)
    order: list[str] = field(default_factory=list)  # the items barred, as first met
    counted: list[dict[str, Any]] = field(default_factory=list)  # bounds over a category
    # maxima lowered by other items: (the item, its bound, the line)
    lowered: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)
    # maxima lowered while the model lacks others the unit has N of: (the item, the others,
    # N, from which unit size, the line)
    pooled: list[tuple[str, frozenset[str], int, int, str]] = field(default_factory=list)

    @classmethod
    def of(cls, ex: "Extractor", unit: "Node", counters: frozenset[str]) -> "Together":
        from bagm.io.bsdata.extract import _SKIP_BRANCH
        from bagm.io.bsdata.wargear import _item_ids

        entries: dict[str, list[tuple[str | None, frozenset[str], frozenset[str]]]] = {}
        seen: set[tuple[int, str | None]] = set()

        def visit(n: "Node", kind: str | None, depth: int) -> None:
            if depth > MAX_DEPTH or (id(n.target), kind) in seen:
                return
            seen.add((id(n.target), kind))
            for child in ex._members(n):
                if child.target.get("type") == "unit" or child.hidden \
                        or _SKIP_BRANCH.search(child.name):
                    continue  # no option of the unit (the reader offers none of these)
                inner = child.name if child.target.get("type") == "model" else kind
                if child.target.tag != "selectionEntryGroup" \
                        and child.target.get("type") != "model":
                    entries.setdefault(child.name, []).append(
                        (kind, frozenset(child.ids), frozenset(categories([child]))))
                visit(child, inner, depth + 1)

        visit(unit, None, 0)
        return cls(frozenset(unit.ids), _item_ids(ex, unit, models=True), counters, entries)

    def _unit_count(self, cond: "Element") -> str | None:
        """The item name a condition counts over the whole unit (one or more of it), else
        None."""
        if cond.get("field") != "selections" or _test(cond) not in _SOME \
                or not (cond.get("scope") in self.unit_ids or cond.get("scope") in _UNIT_SCOPES) \
                or cond.get("includeChildSelections", "false").lower() != "true":
            return None
        return self.items.get(cond.get("childId", ""))

    def _counts_every(self, name: str, child: str, besides: str | None = None) -> bool:
        """Whether ``child`` is every entry of the unit bearing ``name`` (``besides``: but
        those of this kind of model), so that counting the name counts it."""
        found = [ids for k, ids, _ in self.entries.get(name, [])
                 if besides is None or k != besides]
        return bool(found) and all(child in ids for ids in found)

    def read(self, mod: "Element", item: "Node", name: str, choice: dict[str, Any] | None,
             offered: dict[str, list["Node"]], model: "Node", line: Callable[[], str]) -> bool:
        """Whether ``mod`` (of ``item``, offered by ``choice`` of ``model`` as ``name``) is in
        a form above: taken (worked out by :meth:`finish`, or saying nothing more)."""
        if choice is None:
            return False
        if mod.find("repeats") is not None:
            return self._lowered(mod, item, name, line)
        if mod.find("conditionGroups") is not None and mod.get("type") == "decrement":
            return self._pool(mod, item, name, model, line)
        if mod.get("field") == "error":
            return self._apart(mod, item, name, line)
        if _within(mod, item, choice, offered, model):
            return True
        return self._follows(mod, item, name, choice, model, line)

    def _apart(self, mod: "Element", item: "Node", name: str, line: Callable[[], str]) -> bool:
        from bagm.io.bsdata.wargear import _excludes

        if mod.get("type") != "add" or item.target.tag == "selectionEntryGroup":
            return False
        conds = _conditions(mod)
        names = [self._unit_count(c) for c in conds]
        if not conds or any(n is None for n in names) or any(
                not self._counts_every(str(n), c.get("childId", ""))
                for n, c in zip(names, conds)):
            return False
        others = _excludes(mod, item.ids, self.items)
        if others is None or name in others:
            return False
        text = line()
        self.apart += [(frozenset([name, o]), text) for o in others]
        self.order += [n for n in [name, *others] if n not in self.order]
        return True

    def _follows(self, mod: "Element", item: "Node", name: str, choice: dict[str, Any],
                 model: "Node", line: Callable[[], str]) -> bool:
        conds = list(child_elements(mod, "conditions", "condition"))
        if mod.get("type") != "set" or mod.get("value") not in ("1", "1.0") \
                or mod.find("conditionGroups") is not None or len(conds) != 1 \
                or not any(c.get("id") == mod.get("field") and c.get("type") == "min"
                           for c in item.children("constraints", "constraint")):
            return False
        child = conds[0].get("childId", "")
        if self._unit_count(conds[0]) != name or child in item.ids \
                or not self._counts_every(name, child, besides=model.name):
            return False
        self.follows.append((model.name, choice, name, line()))
        return True

    def _lowered(self, mod: "Element", item: "Node", name: str, line: Callable[[], str]) -> bool:
        from bagm.io.bsdata.bounds import bound_modifiers
        from bagm.io.bsdata.modifiers import _SIZE_TESTS, _size_modifier

        con = next((c for c in item.children("constraints", "constraint")
                    if c.get("id") == mod.get("field")), None)
        if con is None or con.get("type") != "max" or con.get("field") != "selections" \
                or not (con.get("scope") in self.unit_ids or con.get("scope") in _UNIT_SCOPES) \
                or con.get("includeChildSelections", "false").lower() != "true" \
                or mod.get("type") != "decrement" or mod.get("value") not in ("1", "1.0") \
                or _conditions(mod) or not _ungrouped(item, mod):
            return False
        others: list[str] = []
        for r in child_elements(mod, "repeats", "repeat"):
            child = r.get("childId", "")
            other = self.items.get(child)
            if r.get("field") != "selections" or r.get("value") not in ("1", "1.0") \
                    or r.get("repeats") not in ("1", "1.0") \
                    or not (r.get("scope") in self.unit_ids or r.get("scope") in _UNIT_SCOPES) \
                    or r.get("includeChildSelections", "false").lower() != "true" \
                    or other is None or other == name or not self._counts_every(other, child):
                return False
            others.append(other)
        if not others or not all(ids & item.ids for _, ids, _ in self.entries.get(name, [])):
            return False  # counted by name: every entry of the item's name is it
        # the maximum's other modifiers: by the unit's size alone (worked out), or lowering it
        sizes: list[tuple[str, int, str, int]] = []
        for m, groups, _ in bound_modifiers(item):
            if m.get("field") != con.get("id") or m is mod:
                continue
            rule = None if groups else _size_modifier(m, None, self.counters)
            if rule is not None and rule[0] in ("increment", "decrement"):
                sizes.append(rule)
            elif m.get("type") != "decrement":
                return False  # it could raise the maximum otherwise
        try:
            top = int(float(con.get("value", "")))
        except ValueError:
            return False

        def at(n: int) -> int:
            return max(0, top + sum(by if how == "increment" else -by
                                    for how, by, test, size in sizes
                                    if _SIZE_TESTS[test](n, size)))
        grows: dict[int, int] = {}
        for n in range(2, max([size for *_, size in sizes], default=0) + 2):
            if at(n) != at(n - 1):
                grows[n] = at(n)
        bound = {"items": [name, *others], "max": at(1), **({"max_from": grows} if grows else {})}
        self.lowered.append((name, bound, line()))
        return True

    def _pool(self, mod: "Element", item: "Node", name: str, model: "Node",
              line: Callable[[], str]) -> bool:
        """An item's maximum counted across the unit lowered by 1 while the model carrying
        it has none of some other items and the unit has N or more of them together (from a
        unit size on, or at every size): (the item, the others, N, the size) in
        ``pooled``, worked out by :meth:`finish`. The catalogues write "N or more of them
        together" as an "or" of every way to count N (Death Company Marines with Jump Packs:
        "2 power fists, or 2 power weapons, or 1 of each"); it is checked so by counting."""
        con = next((c for c in item.children("constraints", "constraint")
                    if c.get("id") == mod.get("field")), None)
        if con is None or con.get("type") != "max" or con.get("field") != "selections" \
                or not (con.get("scope") in self.unit_ids or con.get("scope") in _UNIT_SCOPES) \
                or con.get("includeChildSelections", "false").lower() != "true" \
                or mod.get("value") not in ("1", "1.0") or not _ungrouped(item, mod) \
                or child_elements(mod, "conditions", "condition"):
            return False
        groups = child_elements(mod, "conditionGroups", "conditionGroup")
        if len(groups) != 1 or groups[0].get("type") != "and":
            return False
        ors = child_elements(groups[0], "conditionGroups", "conditionGroup")
        if len(ors) != 1 or ors[0].get("type") != "or":
            return False
        lacks: set[str] = set()
        held = False
        size = 0
        for c in child_elements(groups[0], "conditions", "condition"):
            test, child, scope = _test(c), c.get("childId", ""), c.get("scope")
            if c.get("field") != "selections" or test is None:
                return False
            if (scope == "model" or scope in model.ids) and child in self.items:
                got = self.items[child]
                if test in _NONE and got != name and self._counts_every(got, child):
                    lacks.add(got)
                elif test in _SOME and got == name and child in item.ids:
                    held = True
                else:
                    return False
            elif (child == "model" or child in self.counters) and test[0] == "atLeast" \
                    and (scope in self.unit_ids or scope in _UNIT_SCOPES) and not size:
                size = int(test[1])
            else:
                return False
        count = self._together(ors[0], lacks)
        if not held or not lacks or count is None:
            return False
        self.pooled.append((name, frozenset(lacks), count, size, line()))
        return True

    def _together(self, group: "Element", names: set[str]) -> int | None:
        """N where the condition group holds exactly while the unit carries N or more of
        ``names`` together (each counted across the unit), else None."""
        from itertools import product

        def counts(g: "Element") -> list["Element"]:
            out = list(child_elements(g, "conditions", "condition"))
            for inner in child_elements(g, "conditionGroups", "conditionGroup"):
                out += counts(inner)
            return out
        for c in counts(group):
            test = _test(c)
            child = c.get("childId", "")
            if c.get("field") != "selections" or test is None or test[0] != "atLeast" \
                    or not (c.get("scope") in self.unit_ids or c.get("scope") in _UNIT_SCOPES) \
                    or c.get("includeChildSelections", "false").lower() != "true" \
                    or self.items.get(child) not in names \
                    or not self._counts_every(self.items[child], child):
                return None
        order = sorted(names)
        top = max(int(_test(c)[1]) for c in counts(group)) + 1  # type: ignore[index]

        def holds(g: "Element", have: dict[str, int]) -> bool:
            parts = [have[self.items[c.get("childId", "")]] >= int(_test(c)[1])  # type: ignore[index]
                     for c in child_elements(g, "conditions", "condition")]
            parts += [holds(inner, have)
                      for inner in child_elements(g, "conditionGroups", "conditionGroup")]
            return any(parts) if g.get("type") == "or" else all(parts)
        least: int | None = None
        cases = list(product(range(top + 1), repeat=len(order)))
        for case in cases:
            if holds(group, dict(zip(order, case))):
                least = sum(case) if least is None else min(least, sum(case))
        if least is None or not all(holds(group, dict(zip(order, case))) == (sum(case) >= least)
                                    for case in cases):
            return None
        return least

    def category(self, mod: "Element", model: "Node", line: Callable[[], str]) -> bool:
        """Whether ``mod`` (of the kind ``model``) is an error while the unit counts more
        than N selections of a category its items bear: read as a bound over those items."""
        conds = list(child_elements(mod, "conditions", "condition"))
        if mod.get("field") != "error" or mod.get("type") != "add" \
                or mod.find("repeats") is not None or mod.find("conditionGroups") is not None \
                or len(conds) != 1 or not _ungrouped(model, mod):
            return False
        cond, test = conds[0], _test(conds[0])
        if test is None or test[0] not in ("greaterThan", "atLeast") or test[1] != int(test[1]) \
                or cond.get("field") != "selections" \
                or not (cond.get("scope") in self.unit_ids or cond.get("scope") in _UNIT_SCOPES) \
                or cond.get("includeChildSelections", "false").lower() != "true":
            return False
        category = cond.get("childId", "")
        names = [n for n, found in self.entries.items()
                 if any(category in cats for _, _, cats in found)]
        # counted by name: every entry of such a name bears the category
        if not names or any(category not in cats for n in names
                            for _, _, cats in self.entries[n]):
            return False
        most = int(test[1]) - (1 if test[0] == "atLeast" else 0)
        self.counted.append({"items": names, "max": most, "kind": model.name, "line": line()})
        return True

    def finish(self, kinds: list[dict[str, Any]], unread: list[str]) -> list[dict[str, Any]]:
        """The bounds over items read (``{items, alike: true}``); the lines of a form met
        only in part go to ``unread``."""
        out: list[dict[str, Any]] = []
        # items barred beside each other: each set every two of whose items are is alike
        names = self.order
        pairs = {pair for pair, _ in self.apart}
        done: set[str] = set()
        for start in names:
            if start in done:
                continue
            group, todo = [start], [start]
            while todo:
                at = todo.pop()
                for pair in pairs:
                    if at in pair:
                        for n in pair - {at}:
                            if n not in group:
                                group.append(n)
                                todo.append(n)
            done |= set(group)
            group = [n for n in names if n in group]
            if all(frozenset([a, b]) in pairs for i, a in enumerate(group) for b in group[i + 1:]):
                out.append({"items": group, "alike": True})
            else:
                unread += [text for pair, text in self.apart if pair <= set(group)]
        # a choice of one whose every item follows the unit's: alike over its items
        by_choice: dict[int, list[tuple[str, dict[str, Any], str, str]]] = {}
        for f in self.follows:
            by_choice.setdefault(id(f[1]), []).append(f)
        for found in by_choice.values():
            model, choice = found[0][0], found[0][1]
            kind = next((k for k in kinds if k["model"] == model), None)
            followed = {n for _, _, n, _ in found}
            if kind is not None and kind.get("min", 0) >= 1 and kind.get("max") == 1 \
                    and not kind.get("max_from") and choice.get("min", 0) >= 1 \
                    and choice.get("max", 1) == 1 and set(choice["of"]) == followed \
                    and not any(choice.get(k) for k in ("needs", "unless", "unit_needs")):
                bound = {"items": list(choice["of"]), "alike": True}
                if bound not in out:
                    out.append(bound)
            else:
                unread += [text for *_, text in found]
        # maxima lowered by other items: a bound whatever the unit carries where each other
        # item bounds the others as much (see the module's docstring)
        def most(b: dict[str, Any], n: int) -> int:
            from bagm.data.models import max_at_size

            return int(max_at_size(b["max"], b.get("max_from", {}), n) or 0)

        own = {name: pooled for name, pooled, _ in self.lowered}
        for name, pooled, text in self.lowered:
            rest = set(pooled["items"]) - {name}
            sizes = {1, *pooled.get("max_from", {})} | {
                n for b in own.values() for n in b.get("max_from", {})}
            if not all(o in own and rest <= set(own[o]["items"])
                       and all(most(own[o], n) <= most(pooled, n) for n in sizes)
                       for o in rest):
                unread.append(text)
                continue
            if not any(set(b["items"]) == set(pooled["items"]) and b.get("max") == pooled["max"]
                       and b.get("max_from") == pooled.get("max_from") for b in out):
                out.append(pooled)
        # maxima lowered while the model lacks others the unit has N of: one pool of models
        by_others: dict[frozenset[str], list[tuple[str, int, int, str]]] = {}
        for name, others, count, size, text in self.pooled:
            by_others.setdefault(others, []).append((name, count, size, text))
        for others, lowering in by_others.items():
            pool = _pool(lowering, others, out, most)
            if pool is None:
                unread += [text for *_, text in lowering]
            elif pool not in out:
                out.append(pool)
        # at most N of a category's items, while the unit has a model of the error's kind
        for c in self.counted:
            kind = next((k for k in kinds if k["model"] == c["kind"]), None)
            if kind is None or [k["model"] for k in kinds].count(c["kind"]) != 1:
                unread.append(c["line"])  # a kind the pack names twice: cannot be told apart
                continue
            bound = {"items": c["items"], "max": c["max"],
                     **({} if kind.get("min", 0) >= 1 else {"beside": [c["kind"]]})}
            if bound not in out:
                out.append(bound)
        return out


def _pool(found: list[tuple[str, int, int, str]], others: frozenset[str],
          out: list[dict[str, Any]], most: Callable[[dict[str, Any], int], int]
          ) -> dict[str, Any] | None:
    """The items ``found`` lowered (each: its name, N, from which size) while the model
    carrying one lacks ``others`` and the unit has N of them, read as one pool of models, else
    None. Read where the items found have a bound together of m (the unit's size may change
    it) and are lowered alike, by 1 at N = t, t + 1, ..., t + m - 1 at every size (Death
    Company Marines with Jump Packs: hand flamers and inferno pistols up to 1, lowered at 2
    power fists or weapons; 2 from 10 models, lowered at 2 and at 3), and ``others`` a bound
    of their own no larger than m + t - 1. A model carrying one of the items without the
    others counts then with the models carrying the others: at most m + t - 1 models carry
    one or more of them (``per_model``), which is what the catalogue's check says wherever a
    model carrying an item has none of the others, and bounds the others as their own bound
    does where every model carrying one has them too. Where models of both sorts carry the
    items (10 models: a power fist and an inferno pistol on one, a power fist on another, a
    hand flamer on a third) the catalogue's lowering, counted once per model, refuses what
    the pool (3 models) allows; the datasheet's options (a Marine's pistol and melee weapon
    swapped together for every 5 models, one melee weapon alone: BSData/wh40k-11e#1025
    explains the catalogue so) allow it too, and the pool is read."""
    names = list(dict.fromkeys(n for n, *_ in found))
    steps = {(c, s) for _, c, s, _ in found}
    if any({(c, s) for n2, c, s, _ in found if n2 == n} != steps for n in names):
        return None
    own = next((b for b in out if set(b["items"]) == set(names) and not b.get("alike")
                and not b.get("per_model")), None)
    theirs = next((b for b in out if set(b["items"]) == set(others) and not b.get("alike")
                   and not b.get("per_model")), None)
    if own is None or theirs is None:
        return None
    sizes = sorted({1, *(s for _, s in steps), *own.get("max_from", {}),
                    *theirs.get("max_from", {})})
    first: int | None = None
    at: dict[int, int] = {}
    for n in sizes:
        m = most(own, n)
        counts = sorted(c for c, s in steps if n >= s)
        if m < 1 or len(counts) != m or counts != list(range(counts[0], counts[0] + m)) \
                or first is not None and counts[0] != first:
            return None
        first = counts[0]
        at[n] = m + first - 1
        if most(theirs, n) > at[n]:
            return None
    grows: dict[int, int] = {}
    for before, n in zip(sizes, sizes[1:]):
        if at[n] != at[before]:
            grows[n] = at[n]
    return {"items": [*names, *sorted(others)], "max": at[1],
            **({"max_from": grows} if grows else {}), "per_model": True}


def _within(mod: "Element", item: "Node", choice: dict[str, Any],
            offered: dict[str, list["Node"]], model: "Node") -> bool:
    """An item's (or group's) maximum set to 0 while the model carries another item (or
    group) of the same choice of one: the choice says as much."""
    conds = list(child_elements(mod, "conditions", "condition"))
    if mod.get("type") != "set" or mod.get("value") not in ("0", "0.0") \
            or choice.get("max", 1) != 1 or mod.find("conditionGroups") is not None \
            or len(conds) != 1 or _test(conds[0]) not in _SOME \
            or conds[0].get("field") != "selections" \
            or not any(c.get("id") == mod.get("field") and c.get("type") == "max"
                       for c in item.children("constraints", "constraint")):
        return False
    cond = conds[0]
    if not (cond.get("scope") in model.ids or cond.get("scope") == "model"):
        return False
    child = cond.get("childId", "")
    others = [n for nodes in offered.values() for n in nodes if n is not item]
    return child not in item.ids and any(child in n.ids for n in others)


def _ungrouped(node: "Node", mod: "Element") -> bool:
    """Whether ``mod`` stands outside any modifier group of ``node`` (whose conditions the
    forms above do not read)."""
    from bagm.io.bsdata.bounds import bound_modifiers

    return any(m is mod and not groups for m, groups, _ in bound_modifiers(node))
