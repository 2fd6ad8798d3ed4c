"""The catalogues' modifiers of a wargear bound read as facts of the datasheet: a bound set,
raised or lowered by the unit's number of models (counted as such or as the selections of the
entry holding every model) or by the number of models of some of its kinds, a bound set to 0
while the model carries an item, and a bound set while the unit carries an item (:mod:`bagm.io.bsdata.wargear` reads the choices)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from bagm.io.bsdata.extract import Extractor, Node

MAX_DEPTH = 8  # entry nesting followed below a datasheet (real data: < 5)


def _model_counters(ex: "Extractor", unit: "Node") -> frozenset[str]:
    """The entries (groups, wrappers) below a unit holding every one of its models, whose
    count of selections is the unit's number of models."""
    from bagm.io.bsdata.extract import _SKIP_BRANCH

    def has_models(n: "Node", depth: int) -> bool:
        return n.target.get("type") == "model" or depth < MAX_DEPTH and any(
            has_models(m, depth + 1) for m in ex._members(n) if not m.hidden)

    out: set[str] = set()
    n = unit
    for _ in range(MAX_DEPTH):
        holders = [m for m in ex._members(n)
                   if not _SKIP_BRANCH.search(m.name) and not m.hidden and has_models(m, 0)]
        if len(holders) != 1 or holders[0].target.get("type") == "model":
            break
        n = holders[0]
        out |= n.ids
    return frozenset(out)


def _bound_type(node: "Node", mod: Any) -> str | None:
    """Which of ``node``'s bounds (min or max) ``mod`` changes."""
    from bagm.io.bsdata.links import child_elements

    return next((c.get("type") for p in node.parts
                 for c in child_elements(p, "constraints", "constraint")
                 if c.get("id") == mod.get("field")), None)


_NONE_TESTS = {("lessThan", 1.0), ("equalTo", 0.0), ("atMost", 0.0)}  # "the unit has none"


_SOME_TESTS = {("atLeast", 1.0), ("greaterThan", 0.0)}  # "the unit has one or more"


def _unit_item(mod: Any, conds: list[Any], items: dict[str, str], unit_ids: frozenset[str],
               test: tuple[str, int], value: str | None = None) -> tuple[str, int] | None:
    """(the item, the modifier's value) of a ``set`` modifier whose one condition is that the
    unit (counting every model's selections) has none of an item (``test`` lessThan 1) or
    some (atLeast 1): "hidden while no Reiver has a bolt carbine", "a minimum of 1 while one
    has"; else None."""
    if mod.get("type") != "set" or len(conds) != 1:
        return None
    cond = conds[0]
    try:
        at = float(cond.get("value", ""))
        got = 0 if value is not None else int(float(mod.get("value", "")))
    except ValueError:
        return None
    tests = _NONE_TESTS if test[0] == "lessThan" else _SOME_TESTS
    if value is not None and mod.get("value", "").lower() != value \
            or cond.get("field") != "selections" or (cond.get("type"), at) not in tests \
            or not (cond.get("scope") in unit_ids or cond.get("scope") in ("unit", "root-entry")) \
            or cond.get("includeChildSelections", "false").lower() != "true":
        return None
    item = items.get(cond.get("childId", ""))
    return None if item is None else (item, got)


def _bounds_max(node: "Node", mod: Any) -> bool:
    """Whether ``mod`` changes ``node``'s maximum (not its minimum)."""
    from bagm.io.bsdata.links import child_elements

    return any(c.get("id") == mod.get("field") and c.get("type") == "max"
               for p in node.parts for c in child_elements(p, "constraints", "constraint"))


def _carried_item(mod: Any, conds: list[Any], names: dict[str, str], owner: "Node"
                  ) -> str | None:
    """The item of ``owner`` a "set to 0 while it carries X" modifier names, else None."""
    if mod.get("type") != "set" or len(conds) != 1:
        return None
    cond = conds[0]
    try:
        value, at = float(mod.get("value", "")), float(cond.get("value", ""))
    except ValueError:
        return None
    if value != 0 or cond.get("field") != "selections" \
            or (cond.get("type"), at) not in (("atLeast", 1), ("greaterThan", 0)) \
            or not (cond.get("scope") == "parent" or cond.get("scope") in owner.ids):
        return None
    return names.get(cond.get("childId", ""))


_SIZE_TESTS = {"atLeast": lambda n, v: n >= v, "greaterThan": lambda n, v: n > v,
               "lessThan": lambda n, v: n < v, "atMost": lambda n, v: n <= v}


def _size_modifier(mod: Any, unit_ids: frozenset[str] | None,
                   counters: frozenset[str] = frozenset()) -> tuple[str, int, str, int] | None:
    """A modifier of a bound on the unit's number of models alone, as (how: set, increment or
    decrement; by; test: atLeast, greaterThan, lessThan or atMost; models), else None:
    "set 2 if the unit has at least 10 models", "decrement 1 if it has fewer than 6". The
    models are counted as such or as the selections of an entry holding them all
    (``counters``: "at least 10 Death Company Marines" counts the group of every model)."""
    from bagm.io.bsdata.links import child_elements

    conds = child_elements(mod, "conditions", "condition")
    if len(conds) != 1 or mod.find("repeats") is not None \
            or mod.find("conditionGroups") is not None or mod.get("type") not in \
            ("set", "increment", "decrement"):
        return None
    cond = conds[0]
    counts_models = cond.get("childId") == "model" or cond.get("childId") in counters \
        and cond.get("includeChildSelections", "false").lower() == "true"
    if not counts_models or cond.get("field") != "selections" \
            or cond.get("type") not in _SIZE_TESTS \
            or not (unit_ids is None or cond.get("scope") in ("unit", "parent")
                    or cond.get("scope") in unit_ids):
        return None
    try:
        n = int(float(cond.get("value", "")))
        value = int(float(mod.get("value", "")))
    except ValueError:
        return None
    return str(mod.get("type")), value, str(cond.get("type")), n


def _max_by_size(node: "Node", hi: int, unit_ids: frozenset[str] | None = None,
                 counters: frozenset[str] = frozenset()) -> tuple[int, dict[int, int]]:
    """How the maximum of an entry (a kind of model, a group, a choice) changes with the unit's
    size, where the catalogue says so on the entry itself: (its maximum in the smallest unit,
    {N: max} from N models on), worked out by applying its modifiers in order at each size
    ("set 2 if at least 10 models", "add 1 if at least 10", "subtract 1 if fewer than 6": max 1,
    2 from 6). ``unit_ids``: the unit's entry, which the model count's scope names (none: any
    scope). Other modifiers (of other choices, of Crusade) are not read here."""
    from bagm.io.bsdata.links import child_elements

    ids = {c.get("id") for p in node.parts for c in child_elements(p, "constraints", "constraint")
           if c.get("type") == "max" and c.get("field") == "selections"}
    rules: list[tuple[str, int, str, int]] = []
    for p in node.parts:
        for mod in child_elements(p, "modifiers", "modifier"):
            if mod.get("field") not in ids:
                continue
            rule = _size_modifier(mod, unit_ids, counters)
            if rule is not None:
                rules.append(rule)
    if not rules:
        return hi, {}
    return size_steps(_applied(hi, rules), max(n for *_, n in rules) + 2)


def _applied(hi: int, rules: list[tuple[str, int, str, int]]) -> "Callable[[int], int]":
    """A maximum ``hi`` with the modifiers ``rules`` (how, by, test, N) applied in order at a
    number of models."""
    def at(size: int) -> int:
        value = hi
        for how, by, test, n in rules:
            if _SIZE_TESTS[test](size, n):
                value = by if how == "set" else value + by if how == "increment" else value - by
        return max(value, 0)
    return at


def _max_by_count(node: "Node", hi: int, kinds: "Mapping[str, Sequence[str]]",
                  unit_ids: frozenset[str], counters: frozenset[str] = frozenset()
                  ) -> tuple[set[int], tuple[str, ...], int, dict[int, int]] | None:
    """How the maximum of a kind of model changes with the number of models of other kinds
    of the unit, where the catalogue says so on the entry itself: (the modifiers read, those
    kinds, its maximum with none of them, {N: max} from N of them on), worked out as
    :func:`_max_by_size` does by the unit's size: the Neurogaunt Nodebeast, 1 and 2 from 20
    Neurogaunts. The modifiers must count one entry (a kind, a group of kinds: ``kinds``,
    its id -> those kinds) and none the unit's size (``counters``; one number at a time);
    else None."""
    from bagm.io.bsdata.links import child_elements

    ids = {c.get("id") for p in node.parts for c in child_elements(p, "constraints", "constraint")
           if c.get("type") == "max" and c.get("field") == "selections"}
    rules: list[tuple[str, int, str, int]] = []
    read: set[int] = set()
    counted: set[str] = set()
    for p in node.parts:
        for mod in child_elements(p, "modifiers", "modifier"):
            if mod.get("field") not in ids:
                continue
            if _size_modifier(mod, None, counters) is not None:
                return None  # by the unit's size too: not one number
            conds = child_elements(mod, "conditions", "condition")
            child = conds[0].get("childId", "") if len(conds) == 1 else ""
            rule = _size_modifier(mod, unit_ids, frozenset({child})) if child in kinds else None
            if rule is not None:
                rules.append(rule)
                read.add(id(mod))
                counted.add(child)
    if not rules or len({tuple(kinds[c]) for c in counted}) != 1:
        return None
    # none of them is a number too ("set to 7 while it has a Heavy Weapons Team")
    first, steps = size_steps(_applied(hi, rules), max(n for *_, n in rules) + 2, start=0)
    return read, tuple(kinds[counted.pop()]), first, steps


def size_steps(at: "Callable[[int], int]", top: int, start: int = 1
               ) -> tuple[int, dict[int, int]]:
    """A maximum by the unit's size as the data keeps it: the smallest unit's (``start``
    models: 0 where the number counted is of some kinds), and ``{N: max}`` at each size below
    ``top`` where it changes."""
    out: dict[int, int] = {}
    last = at(start)
    for size in range(start + 1, top):
        if (v := at(size)) != last:
            out[size], last = v, v
    return at(start), out
