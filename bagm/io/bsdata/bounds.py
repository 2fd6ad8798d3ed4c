"""Bounds of an item or a kind of model that the catalogues change by another of the roster's
choices: a modifier of one of the entry's ``min``/``max`` constraints, or an ``error`` it adds,
whose conditions depend on what the roster chooses (:class:`bagm.io.bsdata.shown.Where`
settles the rest: a Crusade or Legends entry's count is 0 in a Boarding Actions roster, the
roster is that force, categories of the model are known). What a reader of
:mod:`bagm.io.bsdata.wargear` takes (the unit's size) is left to it; every other such bound
is described here so the caller names it in ``wargear_unread``: never passed silently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from bagm.io.bsdata.links import child_elements
from bagm.io.bsdata.modifiers import _size_modifier
from bagm.io.bsdata.shown import Where, _all
from bagm.io.bsdata.values import clean_text

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

    from bagm.io.bsdata.extract import Node

_SIGNS = {"lessThan": "<", "atMost": "<=", "atLeast": ">=", "greaterThan": ">",
          "equalTo": "=", "notEqualTo": "!="}


def bound_modifiers(node: "Node") -> list[tuple["Element", list["Element"], str]]:
    """The node's modifiers of its own ``min``/``max`` constraints and the ``error``s it adds,
    each with the modifier groups around it and what it changes (``max``, ``min``,
    ``error``)."""
    kinds = {c.get("id", ""): c.get("type", "")
             for c in node.children("constraints", "constraint")
             if c.get("type") in ("min", "max")}
    out: list[tuple[Element, list[Element], str]] = []

    def visit(container: "Element", groups: list["Element"]) -> None:
        for mod in child_elements(container, "modifiers", "modifier"):
            field = mod.get("field", "")
            if field in kinds:
                out.append((mod, groups, kinds[field]))
            elif field == "error" and mod.get("type") == "add":
                out.append((mod, groups, "error"))
        for g in child_elements(container, "modifierGroups", "modifierGroup"):
            visit(g, [*groups, g])

    for p in node.parts:
        visit(p, [])
    return out


def open_bounds(node: "Node", where: Where, names: Callable[[str], str], own: frozenset[str],
                read: Callable[["Element"], bool] = lambda m: False,
                counters: frozenset[str] = frozenset()) -> list[str]:
    """Each bound of ``node`` the catalogues change by another of the roster's choices that
    ``read`` does not take, described ("maximum set to 0 while Bolt shotgun >= 1"): a
    modifier whose conditions (or repeats) count another entry than ``own`` (the entry
    itself, the unit and the entries whose count is its number of models) within the
    roster's units, and neither hold nor fail whatever the roster chooses. One on the army
    alone (a Detachment, Crusade: scopes roster, force, catalogue) is the army's, not the
    datasheet's. One on the unit's size alone (its models, or ``counters``: entries whose
    count is its number of models) that ``read`` does not take is named too: an item's
    maximum raised from 10 models (Chosen's plasma pistols) binds a roster as much as a
    choice's. ``names``: an entry id -> its name."""
    out: list[str] = []
    for mod, groups, what in bound_modifiers(node):
        if mod.find("repeats") is None \
                and _all([where.holds(mod), *(where.holds(g) for g in groups)]) is not None:
            continue  # settled: it holds, or fails, in every Boarding Actions roster
        if not (_another_choice([mod, *groups], own, where) or what == "error"
                or not groups and _size_modifier(mod, None, counters) is not None) or read(mod):
            continue  # an error binds whatever it counts: read, or named
        out.append(describe(mod, groups, what, names))
    return out


_ARMY_SCOPES = ("roster", "force", "primary-catalogue")  # the army's, not the datasheet's


def _another_choice(els: list["Element"], own: frozenset[str], where: Where) -> bool:
    """Whether the conditions or repeats of a modifier (and its groups) count another entry
    of the unit's roster than ``own``, in a way :class:`Where` does not settle."""
    for c, repeat in (x for el in els for x in _counts(el)):
        child = c.get("childId", "")
        if c.get("scope") in _ARMY_SCOPES or child in own or child == "model" \
                or (not repeat and where.condition(c) is not None):
            continue
        return True  # another item or kind, a category, a count of points: not read
    return False


def _counts(el: "Element") -> list[tuple["Element", bool]]:
    """The conditions (nested in condition groups) and repeats of a modifier or a modifier
    group (not of the modifiers inside the group), each with whether it is a repeat."""
    out = [(r, True) for r in child_elements(el, "repeats", "repeat")]
    out += [(c, False) for c in child_elements(el, "conditions", "condition")]
    for g in child_elements(el, "conditionGroups", "conditionGroup"):
        out += _counts(g)
    return out


def describe(mod: "Element", groups: list["Element"], what: str,
             names: Callable[[str], str]) -> str:
    """A modifier of a bound in words: "maximum set to 0 while Bolt shotgun >= 1"."""
    if what == "error":
        head = f"error '{clean_text(mod.get('value'))}'"
    else:
        how = {"set": "set to", "increment": "raised by", "decrement": "lowered by"}.get(
            mod.get("type", ""), mod.get("type", ""))
        head = f"{'maximum' if what == 'max' else 'minimum'} {how} {mod.get('value', '')}"
    conds = [_condition(c, names) for el in [mod, *groups]
             for c in child_elements(el, "conditions", "condition")]
    for el in [mod, *groups]:
        for g in child_elements(el, "conditionGroups", "conditionGroup"):
            conds.append(_group(g, names))
    tail = f" while {' and '.join(conds)}" if conds else ""
    return head + tail + (" (repeated)" if mod.find("repeats") is not None else "")


def _group(group: "Element", names: Callable[[str], str]) -> str:
    parts = [_condition(c, names) for c in child_elements(group, "conditions", "condition")]
    parts += [_group(g, names) for g in child_elements(group, "conditionGroups",
                                                        "conditionGroup")]
    return "(" + f" {group.get('type', 'and')} ".join(parts) + ")"


def _condition(cond: "Element", names: Callable[[str], str]) -> str:
    kind = cond.get("type", "")
    child = names(cond.get("childId", ""))
    if kind in ("instanceOf", "notInstanceOf"):
        return f"{'' if kind == 'instanceOf' else 'not '}{child}"
    value = cond.get("value", "")
    value = value[:-2] if value.endswith(".0") else value
    return f"{child} {_SIGNS.get(kind, kind)} {value}"
