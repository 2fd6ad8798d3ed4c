"""An item's bound across its unit, read as a fact of the datasheet: the catalogues' ``max``
constraint on an item counted in the whole unit (its scope the unit, or the group holding
every model: "at most 2 plasma pistols in a Chosen squad"), with the modifiers that set,
raise or lower it by the unit's number of models ("4 from 10 models"; "2 more for every 5
models"). Read into ``wargear_item_bounds`` as the item's maximum in the smallest unit and
``max_from`` (as kinds' and choices' maxima by size are,
:func:`bagm.io.bsdata.modifiers._max_by_size`).

A bound whose other modifiers (another choice's: Death Company Marines' pistols one fewer
for each inferno pistol) could only lower it is read too: the roster check enforces the
most it can be, and those modifiers stay named in ``wargear_unread`` (BA196). A bound with a
modifier that could raise it otherwise is not read: its modifiers stay named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from bagm.io.bsdata.links import child_elements
from bagm.io.bsdata.modifiers import _SIZE_TESTS, size_steps

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

    from bagm.io.bsdata.extract import Node

_UNIT_SCOPES = ("unit",)  # the unit the item is taken in (beside its own entry's ids)
ANY = 40  # models: more than any unit has (Gretchin, 30), where a unit's largest is not known


def unit_item_bounds(node: "Node", unit_ids: frozenset[str], counters: frozenset[str],
                     largest: int | None, elsewhere: Callable[[str], bool] = lambda s: False
                     ) -> tuple[list[tuple[int, dict[int, int]]], set[int]]:
    """The bounds of item ``node`` across its unit, each as (its maximum in the smallest
    unit, {N: max} from N models on), and the ids of the modifiers read into them or that
    never apply in this unit (of a bound on the item in another unit: ``elsewhere`` says
    whether a scope is another unit's entry; an item the Chosen and Chaos Terminators share
    has one for each). ``unit_ids``: the unit's entry; ``counters``: entries whose count of
    selections is the unit's number of models (the group holding every model, the unit's
    only kind of model); ``largest``: the most models the unit can have (how far a bound
    "for every 5 models" is worked out)."""
    out: list[tuple[int, dict[int, int]]] = []
    read: set[int] = set()
    for p in node.parts:
        for con in child_elements(p, "constraints", "constraint"):
            scope = con.get("scope", "")
            if scope not in unit_ids and elsewhere(scope):
                read |= {id(m) for q in node.parts for m in q.iter("modifier")
                         if m.get("field") == con.get("id")}
                continue  # another unit's bound on the item
            if con.get("type") != "max" or con.get("field") != "selections" \
                    or con.get("includeChildSelections", "false").lower() != "true" \
                    or not (scope in _UNIT_SCOPES or scope in unit_ids or scope in counters):
                continue
            try:
                hi = int(float(con.get("value", "")))
            except ValueError:
                continue
            mods = [m for q in node.parts for m in child_elements(q, "modifiers", "modifier")
                    if m.get("field") == con.get("id")]
            grouped = [m for q in node.parts
                       for g in child_elements(q, "modifierGroups", "modifierGroup")
                       for m in g.iter("modifier") if m.get("field") == con.get("id")]
            rules = [(m, _size_rule(m, unit_ids, counters)) for m in mods]
            if any(rule is None and m.get("type") != "decrement" for m, rule in rules) \
                    or any(m.get("type") != "decrement" for m in grouped):
                continue  # raised by something else than the size: not read, stays named
            sized = [rule for _, rule in rules if rule is not None]
            out.append(_at_sizes(hi, sized, largest))
            read |= {id(m) for m, rule in rules if rule is not None}
    return out, read


Rule = Callable[[int, int], int]  # (the unit's number of models, the maximum so far) -> max


def _size_rule(mod: "Element", unit_ids: frozenset[str], counters: frozenset[str]
               ) -> tuple[Rule, int] | None:
    """A modifier on the unit's number of models alone as (how it changes the maximum at a
    size, the size it turns at), else None: set, raised or lowered while the unit has at
    least (more, fewer, at most) N models, or raised for every N models (a repeat)."""
    conds = child_elements(mod, "conditions", "condition")
    repeats = child_elements(mod, "repeats", "repeat")
    how = mod.get("type", "")
    try:
        value = int(float(mod.get("value", "")))
    except ValueError:
        return None
    if mod.find("conditionGroups") is not None or how not in ("set", "increment", "decrement") \
            or len(conds) + len(repeats) != 1:
        return None
    sign = -1 if how == "decrement" else 1
    if repeats:
        r = repeats[0]
        try:
            every, times = int(float(r.get("value", ""))), int(float(r.get("repeats", "")))
        except ValueError:
            return None
        if how == "set" or every < 1 or times != 1 \
                or r.get("roundUp", "false").lower() == "true" \
                or not _counts_models(r, unit_ids, counters):
            return None
        return (lambda n, v: v + sign * value * (n // every)), every
    cond = conds[0]
    test = _SIZE_TESTS.get(cond.get("type", ""))
    try:
        at = int(float(cond.get("value", "")))
    except ValueError:
        return None
    if test is None or not _counts_models(cond, unit_ids, counters):
        return None

    def rule(n: int, v: int) -> int:
        if not test(n, at):
            return v
        return value if how == "set" else v + sign * value
    return rule, at


def _counts_models(cond: "Element", unit_ids: frozenset[str], counters: frozenset[str]) -> bool:
    """Whether a condition or repeat counts the unit's models: models, or an entry holding
    (or being) every one of them, within the unit. A group's selections are read as its
    entries' whether or not child selections are included (Sword Brethren count "Sword
    Brethren", the group of every Sword Brother, without them)."""
    scope = cond.get("scope", "")
    child = cond.get("childId", "")
    return cond.get("field") == "selections" \
        and (child == "model" and cond.get("includeChildSelections", "false").lower() == "true"
             or child in counters) \
        and (scope in _UNIT_SCOPES or scope in unit_ids or scope in counters)


def _at_sizes(hi: int, rules: list[tuple[Rule, int]], largest: int | None
              ) -> tuple[int, dict[int, int]]:
    """The maximum at every size, applying the rules in order: (the smallest unit's, {N:
    max} where it changes). Worked out up to the unit's largest size and past every size a
    rule turns at."""
    # no largest size known: far enough for "for every 5 models" in any unit of the game
    top = max([largest or ANY, *(at for _, at in rules)]) + 2

    def at(size: int) -> int:
        value = hi
        for rule, _ in rules:
            value = rule(size, value)
        return max(value, 0)

    return size_steps(at, top)


_OVER = {"greaterThan": 0, "atLeast": 1}  # a count over k (or k or more): k (k - 1) at most


def error_bound(mod: "Element", scopes: frozenset[str], counters: frozenset[str],
                largest: int | None, direct: frozenset[str] = frozenset(),
                ceiling: Callable[[str], int | None] = lambda child: None,
                kinds: "Mapping[str, Sequence[str]] | None" = None,
                own: frozenset[str] = frozenset()
                ) -> tuple[str, tuple[int, dict[int, int]], tuple[str, ...]] | None:
    """An ``error`` the catalogues raise while one entry of the unit is counted over a number,
    with or without conditions on the unit's number of models, read as a maximum of that
    entry by size: (the entry counted, (its maximum in the smallest unit, {N: max} from N
    models on)), else None. The forms: the conditions and-ed ("Can only take 2 Demolition
    charges per 5 models" while 3 or more models with one and fewer than 10 models: 2 below
    10 models, as many as the unit has from 10), or several such groups or-ed ("Max 3
    Combi-weapon per 5 models": more than 3 below 10 models, or more than 0 below 5). Where
    no group holds at a size the entry is not bound by the error there (the unit's largest
    size is written). ``scopes``: the scopes that name the unit where the error is (its
    entry, "unit", the group of every model; "parent" on a kind of model or the unit's own
    item); ``counters``: entries whose count is the unit's size; ``direct``: entries counted
    as the unit's own selections, with or without child selections (its models, kinds of
    model and groups of them, where no model sits inside an item: the selections counted
    are the same); ``ceiling``: an entry's own maximum where nothing changes it (a count
    "equal to" it is a count of at least that: "Max 1 mole launcher per 5 models" while
    there are 2, of at most 2).

    ``kinds``: entries counting some of the unit's kinds of model (a kind, a group of
    kinds) -> those kinds. Conditions on one such entry instead of the unit's size read the
    maximum by that entry's number of models, returned as the third item (empty: by the
    unit's size): Inquisitorial Agents' "Max 1 {this} per 5 models" while "5 - 10
    Acolytes" counts fewer than 10, a number the unit's size does not settle (11 models may
    be 9 or 10 Acolytes). ``own``: the ids of the entry the error is on, which the count
    over N names where two conditions could."""
    kinds = kinds or {}

    def counts(c: "Element", child_ok: bool) -> bool:
        return c.get("field") == "selections" and c.get("scope", "") in scopes and (
            c.get("includeChildSelections", "false").lower() == "true"
            or c.get("childId", "") in direct) and child_ok

    def size(c: "Element") -> bool:
        return c.get("type") in _SIZE_TESTS and counts(
            c, c.get("childId") == "model" or c.get("childId", "") in counters)

    def keyed(c: "Element") -> bool:  # a count of some kinds of model instead of the size
        return c.get("type") in _SIZE_TESTS and counts(c, c.get("childId", "") in kinds)

    if mod.get("type") != "add" or mod.get("field") != "error" \
            or mod.find("repeats") is not None:
        return None
    clauses = _clauses(mod)
    if clauses is None:
        return None
    counted: set[str] = set()
    by: set[str] = set()  # the entries counted instead of the unit's size (one at most)
    read: list[tuple[int, list[tuple[Callable[[int, int], bool], int]]]] = []
    for clause in clauses:
        over = [c for c in clause if not size(c) and (c.get("type") in _OVER or c.get(
            "type") == "equalTo" and _number(c) == ceiling(c.get("childId", "")))]
        if len(over) > 1 and own:  # "this > 1" beside "the Acolytes >= 10"
            over = [c for c in over if c.get("childId", "") in own]
        sizes = [c for c in clause if c not in over]
        if len(over) != 1 or not all(size(c) or keyed(c) for c in sizes):
            return None
        by |= {str(c.get("childId", "")) for c in sizes if not size(c)}
        c = over[0]
        try:
            k = int(float(c.get("value", ""))) - _OVER.get(c.get("type", ""), 1)
            tests = [(_SIZE_TESTS[s.get("type", "")], int(float(s.get("value", ""))))
                     for s in sizes]
        except ValueError:
            return None
        if not counts(c, True):
            return None
        counted.add(c.get("childId", ""))
        read.append((k, tests))
    # one count at a time: the unit's size, or one entry's models (not both: one number)
    if len(counted) != 1 or len(by) > 1 or by and any(
            size(c) for clause in clauses for c in clause):
        return None
    reach = largest or max([ANY, *(at for _, tests in read for _, at in tests)])

    def cap(n: int) -> int:
        held = [k for k, tests in read if all(test(n, at) for test, at in tests)]
        return max(0, min(held)) if held else max(reach, n)

    out: dict[int, int] = {}
    last = cap(1)
    for n in range(2, reach + 1):
        if (v := cap(n)) != last:
            out[n], last = v, v
    if all(cap(n) >= max(reach, n) for n in range(1, reach + 1)):
        return None  # never binds
    return counted.pop(), (cap(1), out), tuple(kinds[by.pop()]) if by else ()


def _number(c: "Element") -> float | None:
    try:
        return float(c.get("value", ""))
    except ValueError:
        return None


def own_max(el: "Element | None") -> int | None:
    """An entry's own maximum (its selections, scope parent) where no modifier changes it,
    else None."""
    if el is None:
        return None
    cons = [c for c in child_elements(el, "constraints", "constraint")
            if c.get("type") == "max" and c.get("field") == "selections"
            and c.get("scope") == "parent"]
    if len(cons) != 1 or any(m.get("field") == cons[0].get("id") for m in el.iter("modifier")):
        return None
    got = _number(cons[0])
    return None if got is None else int(got)


def _clauses(mod: "Element") -> list[list["Element"]] | None:
    """The conditions of a modifier as groups and-ed inside, or-ed between them: its own
    conditions and one "and" group, or one "or" group of conditions and "and" groups; else
    None."""
    conds = child_elements(mod, "conditions", "condition")
    groups = child_elements(mod, "conditionGroups", "conditionGroup")
    if not groups:
        return [conds] if conds else None
    if len(groups) != 1:
        return None
    g = groups[0]
    inner = child_elements(g, "conditions", "condition")
    nested = child_elements(g, "conditionGroups", "conditionGroup")
    if g.get("type", "and") == "and":
        return [[*conds, *inner]] if not nested else None
    if conds or any(n.get("type", "and") != "and"
                    or child_elements(n, "conditionGroups", "conditionGroup") for n in nested):
        return None
    return [[c] for c in inner] + [child_elements(n, "conditions", "condition") for n in nested]


def at_most(a: tuple[int | None, dict[int, int]], b: tuple[int, dict[int, int]],
            reach: int) -> tuple[int, dict[int, int]]:
    """The smaller of two maxima by size at every size up to ``reach`` (a None maximum: no
    bound), as (the smallest unit's, {N: max} where it changes)."""
    from bagm.data.models import max_at_size

    def at(n: int) -> int:
        mine = max_at_size(a[0], a[1], n)
        theirs = max_at_size(b[0], b[1], n)
        assert theirs is not None
        return theirs if mine is None else min(mine, theirs)

    out: dict[int, int] = {}
    last = at(1)
    for n in range(2, reach + 2):
        if (v := at(n)) != last:
            out[n], last = v, v
    return at(1), out
