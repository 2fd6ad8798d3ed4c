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
  choice's own bound says as much.

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

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

    from bagm.io.bsdata.extract import Extractor, Node

MAX_DEPTH = 10  # entry nesting followed below a datasheet (real data: < 8)
_SOME = {("atLeast", 1.0), ("greaterThan", 0.0)}  # "has one or more"
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
    -> item names; ``entries``: each name -> (the kind of model, the entry's ids) of every entry
    of the unit bearing it that the reader offers (not one hidden as such: the Beserk with a
    mole grenade launcher's maul, shown beside the squad's, is no option of the pack)."""

    unit_ids: frozenset[str]
    items: dict[str, str]
    entries: dict[str, list[tuple[str | None, frozenset[str]]]]
    # items barred beside each other: (a pair of names, the line naming the error)
    apart: list[tuple[frozenset[str], str]] = field(default_factory=list)
    # items following the unit's: (kind, the choice, item name, line)
    follows: list[tuple[str, dict[str, Any], str, str]] = field(default_factory=list)
    order: list[str] = field(default_factory=list)  # the items barred, as first met

    @classmethod
    def of(cls, ex: "Extractor", unit: "Node") -> "Together":
        from bagm.io.bsdata.extract import _SKIP_BRANCH
        from bagm.io.bsdata.wargear import _item_ids

        entries: dict[str, list[tuple[str | None, frozenset[str]]]] = {}
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
                    entries.setdefault(child.name, []).append((kind, frozenset(child.ids)))
                visit(child, inner, depth + 1)

        visit(unit, None, 0)
        return cls(frozenset(unit.ids), _item_ids(ex, unit, models=True), entries)

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
        found = [ids for k, ids in self.entries.get(name, [])
                 if besides is None or k != besides]
        return bool(found) and all(child in ids for ids in found)

    def read(self, mod: "Element", item: "Node", name: str, choice: dict[str, Any] | None,
             offered: dict[str, list["Node"]], model: "Node", line: Callable[[], str]) -> bool:
        """Whether ``mod`` (of ``item``, offered by ``choice`` of ``model`` as ``name``) is in
        a form above: taken (worked out by :meth:`finish`, or saying nothing more)."""
        if choice is None or mod.find("repeats") is not None:
            return False
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
        return out


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
