"""BattleScribe conditions and modifiers evaluated in a fresh, plain roster (no Detachment, no
options chosen): which entries are hidden there, and names with their unconditional modifiers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from bagm.io.bsdata.links import child_elements
from bagm.io.bsdata.values import clean_text

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

# each condition type evaluated for a count of 0 (a fresh, plain roster)
_EMPTY_CONDITION: dict[str, Callable[[float], bool]] = {
    "lessThan": lambda v: 0 < v,
    "atMost": lambda v: 0 <= v,
    "atLeast": lambda v: 0 >= v,
    "greaterThan": lambda v: 0 > v,
    "equalTo": lambda v: v == 0,
    "notEqualTo": lambda v: v != 0,
    "instanceOf": lambda v: False,
    "notInstanceOf": lambda v: True,
}


def condition_true(cond: "Element") -> bool:
    try:
        value = float(cond.get("value", "0"))
    except ValueError:
        value = 0.0
    test = _EMPTY_CONDITION.get(cond.get("type", ""))
    return bool(test and test(value))


def holds(el: "Element") -> bool:
    """Whether ``el``'s conditions hold in a fresh roster with no Detachment or options chosen."""
    return all(condition_true(c) for c in child_elements(el, "conditions", "condition")) and \
        all(group_holds(g) for g in child_elements(el, "conditionGroups", "conditionGroup"))


def group_holds(group: "Element") -> bool:
    parts = [condition_true(c) for c in child_elements(group, "conditions", "condition")]
    parts += [group_holds(g) for g in child_elements(group, "conditionGroups", "conditionGroup")]
    kind = group.get("type", "and")
    if kind == "or":
        return any(parts)
    if kind == "and":
        return all(parts)
    return False  # "count" groups and unknown kinds: assume they do not hold


def hidden_by_default(el: "Element") -> bool:
    """Hidden in a plain roster: statically, or by a modifier whose conditions hold there.

    A Detachment's rules are attached to every unit but hidden "unless that Detachment is
    chosen"; an ability a Boarding Actions force removes is hidden "if the force is Boarding
    Actions". The first kind is dropped, the second kept (the pack records the adaptation).
    """
    hidden = el.get("hidden", "false").lower() == "true"

    def visit(container: "Element", guarded: bool) -> None:
        nonlocal hidden
        for mod in child_elements(container, "modifiers", "modifier"):
            if mod.get("field") == "hidden" and mod.get("type") == "set" \
                    and guarded and holds(mod):
                hidden = mod.get("value", "").lower() == "true"
        for group in child_elements(container, "modifierGroups", "modifierGroup"):
            visit(group, guarded and holds(group))

    visit(el, True)
    return hidden


def named(el: "Element") -> str:
    """An element's name with unconditional ``append``/``set`` name modifiers applied."""
    name = clean_text(el.get("name"))
    for mod in child_elements(el, "modifiers", "modifier"):
        if mod.get("field") != "name" or mod.find("conditions") is not None \
                or mod.find("conditionGroups") is not None or mod.find("repeats") is not None:
            continue
        value = clean_text(mod.get("value"))
        if mod.get("type") == "append" and value:
            name = f"{name} {value}"
        elif mod.get("type") == "set" and value:
            name = value
    return name
