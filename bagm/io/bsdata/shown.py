"""Whether a wargear entry of a datasheet is ever shown in a matched-play roster of its unit:
its ``hidden`` modifiers' conditions evaluated with what the unit's own entries say, three
ways (true, false, or None: it depends on the roster's choices).

Known without the roster's choices: a count of an entry the unit offers only inside a Crusade
branch (or does not offer at all) is 0 in a Boarding Actions roster; whether the model making
the choice, or the unit, is an instance of a category (its own category links and those of
the groups it sits in); a count of selections of a profile is 0 (selections are of
entries); a count of the roster's "Boarding Actions" force is 1 (the roster is
one: Kommandos' Bomb Squig and the 20-model bundles the catalogues hide there are no options).
Everything else is left open. A choice hidden in every roster is no
option of the datasheet (the Chaos Boons a Unit Champion takes only with the Crusade upgrade
"Favoured for Dark God Glory").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

from bagm.io.bsdata.links import child_elements

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

    from bagm.io.bsdata.extract import Extractor, Node

MAX_DEPTH = 12  # entry nesting followed below a datasheet (real data: < 8)
Tri = Optional[bool]  # true, false, or unknown (it depends on the roster's choices)

_TESTS: dict[str, Callable[[float, float], bool]] = {
    "lessThan": lambda n, v: n < v, "atMost": lambda n, v: n <= v,
    "atLeast": lambda n, v: n >= v, "greaterThan": lambda n, v: n > v,
    "equalTo": lambda n, v: n == v, "notEqualTo": lambda n, v: n != v,
}
# scopes of a count that stay within the unit (a count of an entry it lacks there is 0)
_UNIT_SCOPES = ("parent", "self", "root-entry", "unit", "model", "model-or-unit", "ancestor")
BOARDING_ACTIONS = "Boarding Actions"  # the game system's force entry a bagm roster is


@dataclass
class UnitEntries:
    """The entries below a datasheet: ``plain``, the ids a matched-play roster can select
    (outside Crusade branches and the like); ``every``, all of them."""

    plain: set[str] = field(default_factory=set)
    every: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, ex: "Extractor", unit: "Node") -> "UnitEntries":
        from bagm.io.bsdata.extract import _SKIP_BRANCH

        out = cls()
        seen: set[tuple[int, bool]] = set()

        def visit(n: "Node", plain: bool, depth: int) -> None:
            if depth > MAX_DEPTH or (id(n.target), plain) in seen:
                return
            seen.add((id(n.target), plain))
            for child in ex._members(n):
                inside = plain and not _SKIP_BRANCH.search(child.name)
                out.every |= child.ids
                if inside:
                    out.plain |= child.ids
                visit(child, inside, depth + 1)

        out.plain |= unit.ids
        out.every |= unit.ids
        visit(unit, True, 0)
        return out


def categories(nodes: list["Node"]) -> set[str]:
    """The category ids of entries (and of the groups holding them)."""
    return {c.get("targetId", "") for n in nodes for c in n.children("categoryLinks",
                                                                       "categoryLink")}


@dataclass
class Where:
    """What is known of the place a choice is made: the unit's entries, the categories of the
    model making it (``parent``) and of every entry above it (``ancestor``)."""

    ex: "Extractor"
    entries: UnitEntries
    parent: set[str]
    ancestor: set[str]

    def count_is_zero(self, cond: "Element") -> bool:
        """A count of an entry the unit's matched-play roster never holds, or of a profile
        (selections are of entries: the Sister Superior's bolt pistol "up to 2 while she
        has 2 Bolt pistol profiles" counts none in any roster)."""
        child = cond.get("childId", "")
        target = self.ex.lib.get(child)
        if target is not None and target.tag == "profile":
            return True
        if target is None or target.tag not in ("selectionEntry", "selectionEntryGroup") \
                or child in self.entries.plain:
            return False
        return cond.get("scope") in _UNIT_SCOPES or cond.get("scope") in self.entries.every

    def is_boarding_actions(self, cond: "Element") -> bool:
        """A condition on the Boarding Actions force (its count in the roster, or whether the
        force is it); other forces (Crusade) stay open."""
        return cond.get("scope") in ("roster", "force") \
            and self.ex.lib.forces.get(cond.get("childId", "")) == BOARDING_ACTIONS

    def condition(self, cond: "Element") -> Tri:
        kind = cond.get("type", "")
        if self.is_boarding_actions(cond):  # the roster is that force, once
            if kind in ("instanceOf", "notInstanceOf"):
                return kind == "instanceOf"
            try:
                return _TESTS[kind](1, float(cond.get("value", ""))) if kind in _TESTS else None
            except ValueError:
                return None
        if kind in ("instanceOf", "notInstanceOf"):
            scope = cond.get("scope")
            cats = self.parent if scope == "parent" else self.ancestor if scope == "ancestor" \
                else None
            if cats is None:
                return None
            found = cond.get("childId", "") in cats
            return found if kind == "instanceOf" else not found
        if cond.get("field") != "selections" or kind not in _TESTS:
            return None
        if not self.count_is_zero(cond):
            return None
        try:
            value = float(cond.get("value", ""))
        except ValueError:
            return None
        return _TESTS[kind](0, value)

    def holds(self, el: "Element") -> Tri:
        """Whether all of ``el``'s conditions and condition groups hold (Kleene logic)."""
        parts = [self.condition(c) for c in child_elements(el, "conditions", "condition")]
        parts += [self.group(g) for g in child_elements(el, "conditionGroups", "conditionGroup")]
        return _all(parts)

    def group(self, group: "Element") -> Tri:
        parts = [self.condition(c) for c in child_elements(group, "conditions", "condition")]
        parts += [self.group(g) for g in child_elements(group, "conditionGroups",
                                                         "conditionGroup")]
        kind = group.get("type", "and")
        if kind == "or":
            return _any(parts)
        return _all(parts) if kind == "and" else None


def _all(parts: list[Tri]) -> Tri:
    if any(p is False for p in parts):
        return False
    return True if all(p is True for p in parts) else None


def _any(parts: list[Tri]) -> Tri:
    if any(p is True for p in parts):
        return True
    return False if all(p is False for p in parts) else None


def hidden_modifiers(node: "Node") -> list[tuple["Element", list["Element"]]]:
    """The node's ``set hidden true`` modifiers, each with the modifier groups around it."""
    out: list[tuple[Element, list[Element]]] = []

    def visit(container: "Element", groups: list["Element"]) -> None:
        for mod in child_elements(container, "modifiers", "modifier"):
            if mod.get("field") == "hidden" and mod.get("type") == "set" \
                    and mod.get("value", "").lower() == "true":
                out.append((mod, groups))
        for g in child_elements(container, "modifierGroups", "modifierGroup"):
            visit(g, [*groups, g])

    for p in node.parts:
        visit(p, [])
    return out


def never_shown(node: "Node", where: Where) -> bool:
    """Whether the entry is hidden in every matched-play roster of its unit: a ``hidden``
    modifier (not repeated) whose conditions hold whatever the roster chooses."""
    for mod, groups in hidden_modifiers(node):
        if mod.find("repeats") is not None:
            continue
        if _all([where.holds(mod), *(where.holds(g) for g in groups)]) is True:
            return True
    return False


def open_hidden(node: "Node", where: Where) -> list[tuple["Element", list["Element"]]]:
    """The entry's ``hidden`` modifiers whose conditions depend on the roster's choices (they
    neither hold whatever it chooses nor fail whatever it chooses; a repeated one is never
    worked out), each with the modifier groups around it: what a reader must read, or the
    choice is named as not read."""
    out: list[tuple[Element, list[Element]]] = []
    for mod, groups in hidden_modifiers(node):
        if mod.find("repeats") is not None \
                or _all([where.holds(mod), *(where.holds(g) for g in groups)]) is None:
            out.append((mod, groups))
    return out

