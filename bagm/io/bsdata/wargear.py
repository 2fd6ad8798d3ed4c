"""A datasheet's wargear options read from its selection entries: for each kind of model (a
BattleScribe ``model`` entry) how many the unit may have, what it always carries and the choices
it makes (a ``selectionEntryGroup`` with its min/max and default, or an optional entry). Units
whose models come as fixed bundles ("1 Runtherd and 10 Gretchin") take the default bundle's.

Only names and numbers are taken. A group of several kinds of model with a bound of its own
(up to 2 of the kinds with a special weapon) is a bound over those kinds. Modifiers that change
a bound with the unit's size or another choice are read in the forms :func:`_conditions` and
:func:`_alternatives` name (the readers are in :mod:`bagm.io.bsdata.modifiers`); an option
hidden in every matched-play roster is none (:mod:`bagm.io.bsdata.shown`); one hidden by
another of the roster's choices is read in the forms :mod:`bagm.io.bsdata.beside` names (an
item only with others the model carries, an item or a kind none beside another kind); a bound
of an item or kind that another choice changes (:mod:`bagm.io.bsdata.bounds`) in the forms
:func:`_excludes`, :func:`_by_others`, :func:`_min_beside`, :func:`_left_one` and
:func:`_min_with` name; a
choice, item or kind changing in another form is named in ``wargear_unread``, never offered
silently; what is left is said in the README.
"""

from __future__ import annotations

import functools
import re
import weakref
from typing import TYPE_CHECKING, Any, Callable

from bagm.data.models import max_at_size
from bagm.io.bsdata.beside import read_hidden
from bagm.io.bsdata.bounds import bound_modifiers, describe, open_bounds
from bagm.io.bsdata.modifiers import (
    _bound_type,
    _bounds_max,
    _carried_item,
    _max_by_count,
    _max_by_size,
    _model_counters,
    _size_modifier,
    _unit_item,
)
from bagm.io.bsdata.names import dedupe, name_key
from bagm.io.bsdata.shown import (
    UnitEntries,
    Where,
    categories,
    hidden_modifiers,
    never_shown,
    open_hidden,
)
from bagm.io.bsdata.together import Together
from bagm.io.bsdata.unit_bounds import ANY, at_most, error_bound, own_max, unit_item_bounds
from bagm.io.bsdata.values import clean_text

if TYPE_CHECKING:  # pragma: no cover
    from bagm.io.bsdata.extract import Extractor, Node

MAX_DEPTH = 8  # model entries below a datasheet, groups below a model (real data: < 5)
# reads (or names as not read) the hidden conditions of a choice, its items and fixed items
Check = Callable[["Node | None", "dict[str, Any] | None", "dict[str, list[Node]]", "list[Node]"],
                 None]


def wargear_options(ex: "Extractor", node: "Node", profiles: dict[str, str],
                    largest: int | None = None
                    ) -> tuple[list[dict[str, Any]], dict[str, list[str]], list[dict[str, Any]],
                               list[str], list[dict[str, Any]]]:
    """(per model kind ``{model, profile, min, max, gear, choices}``, item -> weapon names where
    an item's weapons are not named after it, bounds shared by several kinds ``{models, min,
    max, max_from}``, the bounds the import does not read, bounds over items the unit's
    models carry together ``{items, alike}`` (:mod:`bagm.io.bsdata.together`) or ``{items,
    max, max_from}`` (an item's across the unit by its size, :mod:`bagm.io.bsdata.unit_bounds`)).
    ``profiles``: Unit profile key -> its name; ``largest``: the most models the unit's
    profiles count (a kind's maximum lowered by each model of other kinds restates
    the unit's size when it reaches that, see :func:`_by_others`)."""
    from bagm.io.bsdata.extract import _SKIP_BRANCH

    kinds: list[dict[str, Any]] = []
    groups: list[dict[str, Any]] = []
    items: dict[str, list[str]] = {}
    owner: list["Node"] = [node]  # the model (or unit) whose wargear is being read
    unread: list[str] = []  # choices whose bounds change in a way not read
    keys = list(profiles)
    entries = UnitEntries.of(ex, node)
    path: list["Node"] = [node]  # the unit, the groups and the model down to the choice made
    counted = _model_counters(ex, node)  # entries whose count is the unit's number of models

    kind_ids = _kind_ids(ex, node)  # the unit's model entries' ids -> their names
    item_bounds: list[dict[str, Any]] = []  # bounds of an item across the unit
    # kinds' and groups' maxima by an error: (max, max_from, the kinds max_from counts
    # (empty: the unit's size), the line naming it if it cannot join the kind's own)
    kind_caps: dict[str, list[Cap]] = {}
    group_caps: list[tuple[list[str], Cap]] = []
    unit_items = _item_ids(ex, node, models=True)  # every item's ids in the unit -> its name
    # entries whose count is the unit's size: the groups holding every model, its only kind
    whole = frozenset(counted | (set(kind_ids) if len(set(kind_ids.values())) == 1 else set()))
    group_kinds = _group_kinds(ex, node)  # its groups' ids -> the kinds of model in them
    sizes = _bundle_ids(ex, node)  # its bundles of models: a count of one is its size
    together = Together.of(ex, node, frozenset(counted))  # items carried across the unit
    # counted as the unit's own selections with or without child selections: its models,
    # kinds, groups of them and own items (none sits inside an item but in a bundle)
    direct = frozenset() if sizes else frozenset(
        {"model", *kind_ids, *group_kinds, *_item_ids(ex, node)})
    # entries counting some of its kinds of model (a kind, a group of kinds): a bound by
    # their number rather than the unit's size (Inquisitorial Agents' "5 - 10 Acolytes")
    partial = {i: ks for i, ks in {**{i: [n] for i, n in kind_ids.items()},
                                   **group_kinds}.items() if i not in whole}

    def entry_name(ident: str) -> str:
        if ident == "model":
            return "models"
        el = ex.lib.get(ident)
        if el is not None:
            return clean_text(el.get("name"))
        return _other_names(ex).get(ident, ident)  # a link, a category ("DCo Weapon Swap")

    def sized(mod: Any) -> bool:
        """A maximum changed by the unit's size alone (:func:`_max_by_size` reads it)."""
        return _size_modifier(mod, None, counted) is not None
    read: set[int] = set()  # hidden modifiers a reader of the choice took (``unit_needs``)

    def where() -> Where:
        m = max(i for i, n in enumerate(path) if n.target.tag != "selectionEntryGroup")
        start = m
        while start > 0 and path[start - 1].target.tag == "selectionEntryGroup":
            start -= 1  # the groups a model sits in lend it their categories
        return Where(ex, entries, categories(path[start:m + 1]), categories(path))

    def gone(child: "Node") -> bool:
        """Hidden in every matched-play roster of the unit (a Crusade upgrade's option)."""
        return never_shown(child, where())

    def label_of(child: "Node") -> str:
        return child.name if owner[-1] is child or len(owner) < 2 and child is node \
            else f"{owner[-1].name}: {child.name}"

    def line_of(child: "Node", mod: Any) -> str:
        """The ``unread`` line of a modifier of ``child``'s bounds (one a reader took in part
        is named after all)."""
        return next(f"{label_of(child)}: {describe(m, groups, what, entry_name)}"
                    for m, groups, what in bound_modifiers(child) if m is mod)

    def bounds_by(child: "Node", read: "Callable[[Any], bool]" = lambda m: False) -> None:
        """The bounds of ``child`` (an item, a choice, a kind or group of kinds) that the
        catalogues change by another of the roster's choices and no reader takes: named."""
        label = label_of(child)
        own = frozenset(child.ids | owner[0].ids | counted | sizes)
        for what in open_bounds(child, where(), entry_name, own, read, frozenset(counted)):
            unread.append(f"{label}: {what}")

    def hidden_by(child: "Node", choice: dict[str, Any] | None, item: str | None) -> None:
        """The conditions by which the catalogues hide ``child`` (a choice, an item it offers
        or a fixed item) depending on the roster's other choices, read onto ``choice`` (for
        ``item``, or for all its items), else the choice is named in ``unread``: never
        offered silently without its condition."""
        model = owner[-1]
        shared = model is node and node.target.get("type") != "model"  # the unit's own choice
        for mod, groups in open_hidden(child, where()):
            if id(mod) in read:
                continue
            got = None if choice is None or shared else read_hidden(
                mod, groups, frozenset(model.ids), frozenset(owner[0].ids),
                _item_ids(ex, model), kind_ids)
            if got is not None and got[0] == "unless" and item is None and choice is not None:
                choice["unless"] = list(dict.fromkeys([*choice.get("unless", []), *got[1]]))
                continue  # hidden while the model carries an item: no pick beside it
            # an item of a choice hidden while the model carries another: a form not met in
            # the bundled datasheets (Death Company Intercessors' pistols), not read
            key = None if got is None else {"needs": "item_needs",
                                            "unit_unless": "item_unit_unless"}.get(got[0])
            if key is None or choice is None or got is None:
                unread.append(f"{model.name}: {child.name}")
                continue
            names = got[1]
            for i in [item] if item is not None else choice["of"]:
                got_for = choice.setdefault(key, {}).setdefault(i, [])
                got_for += [n for n in names if n not in got_for]

    def check(choice_node: "Node | None", choice: dict[str, Any] | None,
              offered: dict[str, list["Node"]], fixed: list["Node"]) -> None:
        """Every hidden condition on another choice of a choice, the items it offers and
        the fixed items beside it: read or named (:func:`hidden_by`)."""
        if choice_node is not None:
            hidden_by(choice_node, choice, None)
        for name, nodes in offered.items():
            for n in nodes:
                if n is not choice_node:
                    hidden_by(n, choice, name)
        for n in fixed:
            hidden_by(n, None, None)
        if choice_node is not None:
            own = _choice_bounds(choice_node)  # its own bounds: _conditions reads or names
            mine = across(choice_node, choice["of"][0] if choice and len(choice["of"]) == 1
                          else None)  # an optional item: a choice of one
            bounds_by(choice_node, lambda m: m.get("field") in own or id(m) in mine
                      or replaced(m, choice_node, choice, offered))
        for name, nodes in offered.items():
            for n in nodes:
                if n is not choice_node:
                    other = functools.partial(item_read, item=n, name=name, choice=choice,
                                              offered=offered)
                    bounds_by(n, functools.partial(_either, frozenset(across(n, name)), other))
        for n in fixed:
            bounds_by(n, functools.partial(_either, frozenset(across(n, n.name)), None))

    def replaced(mod: Any, choice_node: "Node", choice: dict[str, Any] | None,
                 offered: dict[str, list["Node"]]) -> bool:
        """A choice's maximum across the unit (N picks) set to N - 1 while no model of the
        unit keeps its default, where no more than N models make the choice (Death Company
        Marines with Bolt Rifles: 2 Marines w/ alternate weapons, each choice's picks up to 2,
        1 while none keeps his close combat weapon, or his bolt rifle): at most N - 1 models
        take other than the default (``unit_max``), which says the same (with N models, one
        keeps it; with fewer, the bound is N - 1 anyway). Read onto ``choice``."""
        from bagm.io.bsdata.links import child_elements

        if choice is None or not choice.get("default") or owner[-1] is node \
                or (choice.get("min", 0), choice.get("max", 1)) != (1, 1) \
                or mod.get("type") != "set" or len(mod) != 1:
            return False
        scopes = {*owner[0].ids, "unit", *whole}
        cap = next((c for c in choice_node.children("constraints", "constraint")
                    if c.get("id") == mod.get("field") and c.get("type") == "max"
                    and c.get("field") == "selections" and c.get("scope") in scopes
                    and c.get("includeChildSelections", "false").lower() == "true"), None)
        conds = child_elements(mod, "conditions", "condition")
        if cap is None:
            return False
        try:
            n, value = int(float(cap.get("value", ""))), int(float(mod.get("value", "")))
            test = (conds[0].get("type", ""), float(conds[0].get("value", "")))
        except (ValueError, IndexError):
            return False
        c = conds[0]
        default_ids = {i for d in offered.get(choice["default"], []) for i in d.ids}
        hi = owner[-1].bounds()[1]
        most = None if hi is None else max([hi, *_max_by_size(owner[-1], hi,
                                                               counters=counted)[1].values()])
        if len(conds) != 1 or value != n - 1 or most is None or most > n \
                or test not in {("equalTo", 0.0), ("lessThan", 1.0), ("atMost", 0.0)} \
                or c.get("field") != "selections" or c.get("scope") not in scopes \
                or c.get("childId") not in default_ids:
            return False
        choice["unit_max"] = value
        return True

    def elsewhere(scope: str) -> bool:
        """Whether ``scope`` is another unit's entry (a bound there is none here)."""
        el = ex.lib.get(scope)
        return el is not None and el.get("type") == "unit"

    def across(n: "Node", name: str | None) -> set[int]:
        """The bounds of item ``n`` (named ``name`` in the datasheet) across the unit, read
        into ``item_bounds``, and its errors read as bounds (:func:`error_read`); the ids of
        the modifiers read."""
        if name is None or n.target.tag == "selectionEntryGroup":
            return set()
        got, mods = unit_item_bounds(n, frozenset(owner[0].ids), whole, largest, elsewhere)
        for hi, grows in got:
            add_item_bound(name, hi, grows)
        unit_own = owner[-1] is node  # the unit's own item: "parent" is the unit
        return mods | {id(m) for m, groups, what in bound_modifiers(n)
                       if what == "error" and not groups and error_read(m, unit_own, n)}

    def add_item_bound(name: str, hi: int, grows: dict[int, int],
                       by: tuple[str, ...] = ()) -> None:
        """A bound on item ``name`` across the unit, unless one as tight is there (the heavy
        mining tools' constraint and the error that says it again); one it is tighter than
        goes. ``by``: the kinds of model whose number ``grows`` counts (none: the unit's
        size); bounds counting different numbers are both kept."""
        reach = max([largest or ANY, *grows]) + 1

        def tighter(a: dict[str, Any], b: dict[str, Any]) -> bool:  # a <= b at every size
            return all(max_at_size(a["max"], a.get("max_from", {}), n)  # type: ignore[operator]
                       <= max_at_size(b["max"], b.get("max_from", {}), n)
                       for n in range(1, reach + 1))
        bound: dict[str, Any] = {"items": [name], "max": hi,
                                 **({"max_from": grows} if grows else {}),
                                 **({"max_from_kinds": list(by)} if by and grows else {})}
        same = [b for b in item_bounds if b["items"] == [name]
                and b.get("max_from_kinds", []) == bound.get("max_from_kinds", [])]
        if any(tighter(b, bound) for b in same):
            return
        item_bounds[:] = [b for b in item_bounds if b not in same or not tighter(bound, b)]
        item_bounds.append(bound)

    def error_read(mod: Any, parent_unit: bool = True, at: "Node | None" = None) -> bool:
        """An error on a count of an item across the unit, of a kind of model or of a group
        of kinds, and the unit's size (or the number of some kinds of model), read as that
        item's bound across the unit, that kind's maximum or a bound over those kinds
        (:func:`unit_bounds.error_bound`). ``parent_unit``: the error is on a kind, a group
        of kinds or the unit's own item (scope "parent" is the unit); ``at``: the entry it
        is on (default: the kind or group being read)."""
        at = owner[-1] if at is None else at
        scopes = frozenset({*owner[0].ids, "unit", "root-entry", *whole,
                            *(["parent"] if parent_unit else [])})
        got = error_bound(mod, scopes, whole, largest, direct,
                          lambda child: own_max(ex.lib.get(child)), partial,
                          frozenset(at.ids))
        if got is None:
            return False
        child, (hi, grows), by = got
        line = line_of(at, mod)
        if child in kind_ids:
            kind_caps.setdefault(kind_ids[child], []).append((hi, grows, by, line))
        elif child in group_kinds and len(group_kinds[child]) > 1:
            # merged once all are read
            group_caps.append((group_kinds[child], (hi, grows, by, line)))
        elif child in unit_items:
            top = own_max(ex.lib.get(child)) if by else None
            if top is not None:  # "no bound from 10 Acolytes": the item's own maximum
                hi, grows = min(hi, top), {n: min(v, top) for n, v in grows.items()}
            add_item_bound(unit_items[child], hi, grows, by)
        else:
            return False  # a category, a count of points: not read
        return True

    def item_read(mod: Any, item: "Node", name: str, choice: dict[str, Any] | None,
                  offered: dict[str, list["Node"]]) -> bool:
        """A bound of an item a choice offers, in a form read (:func:`_left_one`,
        :class:`Together`)."""
        return _left_one(mod, item=item, name=name, choice=choice, kind_ids=kind_ids) \
            or _min_with(mod, item, name, choice, _item_ids(ex, owner[-1]),
                         frozenset(owner[-1].ids), entry_name) \
            or together.read(mod, item, name, choice, offered, owner[-1],
                             lambda: line_of(item, mod))

    def gear_of(model: "Node", depth: int) -> tuple[list[str], list[dict[str, Any]]]:
        fixed: list[str] = []
        choices: list[dict[str, Any]] = []
        for child in ex._members(model):
            if _SKIP_BRANCH.search(child.name) or child.hidden \
                    or child.target.get("type") in ("model", "unit") or gone(child):
                continue
            lo, hi = child.bounds()
            if child.target.tag == "selectionEntryGroup":
                if hi == 0:
                    continue
                if (lo is None and hi is None and not _has_default(child)
                        or _groups_only(ex, child, gone)) and depth < MAX_DEPTH:
                    # a group without bounds is a folder ("Wargear"): its entries and groups
                    # are the model's own; so is one whose bounds only restate its groups'
                    path.append(child)
                    more_fixed, more_choices = gear_of(child, depth + 1)
                    path.pop()
                    fixed += more_fixed
                    choices += more_choices
                    continue
                split = _alternatives(ex, child, items, depth, gone, check)
                if split is not None:  # the default, or one item of each of its groups
                    choices += split
                    continue
                names, always, default, inner, nodes = _group_items(ex, child, items, depth,
                                                                    gone, check)
                fixed += always
                if names:
                    choice = _choice(names, lo, hi, default)
                    _conditions(ex, child, choice, owner, unread, counted, read, where())
                    check(child, choice, nodes, [])
                    choices.append(choice)
                elif always:  # a group of fixed items only
                    check(child, None, {}, [])
                choices += inner
                continue
            if hi == 0 or ex._holds_models(child) or not _gives(ex, child, items):
                continue
            if (lo or 0) >= 1:
                fixed.append(child.name)
                check(None, None, {}, [child])
            else:
                choice = {"of": [child.name], **({} if hi == 1 else {"max": hi})}
                _conditions(ex, child, choice, owner, unread, counted, read, where())
                check(child, choice, {child.name: [child]}, [])
                choices.append(choice)
            choices += _inner_choices(ex, child, items, depth, gone, check)
        return dedupe(fixed), _dedupe_choices(choices)

    def kind_hidden(model: "Node") -> list[str]:
        """The kinds of model of the unit beside which the catalogues hide this kind (the
        Skitarii Ranger with a data-tether beside one with an omnispex); any other condition
        on the roster's choices names the kind in ``unread``."""
        out: list[str] = []
        for mod, groups in open_hidden(model, where()):
            got = read_hidden(mod, groups, frozenset(), frozenset(owner[0].ids) | {"parent"},
                              {}, kind_ids)
            if got is None or got[0] != "unit_unless":
                unread.append(f"{model.name}: the model itself")
                continue
            out += [k for k in got[1] if k not in out]
        return out

    def kind(model: "Node", lo: int | None, hi: int | None, names: list[str], depth: int) -> None:
        beside = kind_hidden(model) if model is not node else []  # the unit's own: not wargear
        owner.append(model)
        path.append(model)
        by_others: list[str] = []
        min_beside: list[str] = []
        # its maximum by the number of models of other kinds (the Neurogaunt Nodebeast's by
        # the Neurogaunts)
        by_count = None if model is node or hi is None else _max_by_count(
            model, hi, partial, frozenset(owner[0].ids), counted)
        if model is not node:
            def kind_read(m: Any) -> bool:
                if sized(m) and _bounds_max(model, m):
                    return True  # _max_by_size reads it
                if by_count is not None and id(m) in by_count[0]:
                    return True  # read below
                got = _excludes(m, model.ids, kind_ids)
                if got is not None:  # an error while it is beside another kind
                    beside.extend(k for k in got if k not in beside)
                    return True
                if error_read(m):  # "max 3 Combi-weapon per 5 models"
                    return True
                others = _by_others(m, model, frozenset(owner[0].ids), kind_ids, group_kinds)
                if others is not None:  # worked out once every kind is read
                    by_others.extend(o for o in others if o not in by_others)
                    return True
                loosened = _min_beside(m, model, kind_ids)
                if loosened is not None:  # worked out once every kind is read
                    min_beside.extend(o for o in loosened if o not in min_beside)
                    return True
                # an error on a count of a category's items: worked out once every kind is read
                return together.category(m, model, lambda: line_of(model, m))
            bounds_by(model, kind_read)
        fixed, choices = gear_of(model, depth)
        path.pop()
        owner.pop()
        entry: dict[str, Any] = {"model": model.name}
        if len(names) == 1 and names[0] in profiles:
            entry["profile"] = profiles[names[0]]
        entry["min"] = lo or 0
        if hi is not None:
            entry["max"], grows = _max_by_size(model, hi, counters=counted)
            if grows:
                entry["max_from"] = grows
            elif by_count is not None:
                _, kinds_counted, entry["max"], entry["max_from"] = by_count
                entry["max_from_kinds"] = list(kinds_counted)
        if fixed:
            entry["gear"] = fixed
        if choices:
            entry["choices"] = choices
        if beside:
            entry["unit_unless"] = beside
        kinds.append(entry)
        if by_others:
            lowered.append((model, by_others, entry))
        if min_beside:
            eased.append((model, min_beside, entry))

    root_names = ex._unit_profile_names(node)
    if node.target.get("type") == "model":
        kind(node, 1, 1, root_names or keys[:1], 0)
        bound_items = together.finish(kinds, unread) + item_bounds
        return kinds, items, groups, dedupe(unread), bound_items

    def walk(n: "Node", inherited: list[str], depth: int, stack: set[int]) -> None:
        if depth > MAX_DEPTH or id(n.target) in stack:
            return
        stack = stack | {id(n.target)}
        path.append(n)
        try:
            walk_members(n, inherited, depth, stack)
        finally:
            path.pop()

    def walk_members(n: "Node", inherited: list[str], depth: int, stack: set[int]) -> None:
        for child, names in ex.shown_members(n, inherited, keys):
            if gone(child):
                continue  # a kind or bundle no Boarding Actions roster shows (20 Gretchin)
            if child.target.get("type") != "model" and open_hidden(child, where()) \
                    and _has_models(ex, child, 0):
                unread.append(child.name)  # models shown by another choice: not read
            if child.target.get("type") == "model":
                lo, hi = child.bounds()
                if hi != 0:
                    kind(child, lo, hi, names, depth)
            elif _bundle(ex, n, child, default=True):
                base.append(sum(int(x) for x in re.findall(r"\d+", child.name)))
                walk(child, names, depth + 1, stack)
            elif child.target.tag == "selectionEntryGroup" or ex._holds_models(child):
                start = len(kinds)
                if _has_models(ex, child, 0):  # a bound over kinds of model
                    owner.append(child)
                    bounds_by(child, functools.partial(_group_read, child=child,
                                                       counted=counted, error=error_read))
                    owner.pop()
                walk(child, names, depth + 1, stack)
                if all(m.target.get("type") == "model" or m.target.tag == "selectionEntryGroup"
                       for m in ex._members(child)):  # not a choice between bundles
                    _group_bound(child, kinds[start:], groups, every=bool(larger_depth),
                                 counters=counted)
            elif _bundle(ex, n, child, default=False):  # a larger bundle: how far maxima grow
                start, gstart = len(kinds), len(groups)
                larger_depth.append(depth)
                walk(child, names, depth + 1, stack)
                larger_depth.pop()
                size = sum(int(x) for x in re.findall(r"\d+", child.name))
                if size:
                    larger.append((size, kinds[start:]))
                    larger_groups.append((size, groups[gstart:]))
                del kinds[start:]
                del groups[gstart:]

    # kinds whose maximum each model of other kinds lowers: (the kind, the others, its entry)
    lowered: list[tuple["Node", list[str], dict[str, Any]]] = []
    # kinds whose minimum is 1 lower beside other kinds: (the kind, the others, its entry)
    eased: list[tuple["Node", list[str], dict[str, Any]]] = []
    larger: list[tuple[int, list[dict[str, Any]]]] = []  # (models, kinds) of the other bundles
    larger_groups: list[tuple[int, list[dict[str, Any]]]] = []  # (models, their group bounds)
    base: list[int] = []  # the models the default bundle's name counts
    larger_depth: list[int] = []  # non-empty while inside a larger bundle
    walk(node, root_names, 0, set())
    _merge_bundles(kinds, larger, base[0] if base else 0)
    for kind_entry in kinds:  # a kind's maximum an error sets by the unit's size
        for cap in kind_caps.get(kind_entry["model"], []):
            _capped(kind_entry, cap, largest, unread)
    for model, others, kind_entry in eased:
        # a minimum 1 lower beside another kind of the same profile (4 Intercessors, or 3 and
        # one with a grenade launcher): the roster check reads a kind's minimum as its
        # profile's (bagm.roster.wargear), which says as much
        profile = kind_entry.get("profile")
        if profile is None or any(k.get("profile") != profile for k in kinds
                                  if k["model"] in others):
            unread.append(f"{model.name}: minimum lowered by 1 beside " + " or ".join(others))
    shared: list[dict[str, Any]] = []  # bounds over a kind and those lowering its maximum
    for model, others, kind_entry in lowered:
        # "its maximum less one for each model of the others": the unit's size says as much
        # where the kind's maximum and the least of the kinds left reach its largest size;
        # else it is a bound over the kind and the others together (Crusaders: a power fist
        # or a pyreblaster, up to 2 of the two)
        rest = sum(k.get("min", 0) for k in kinds
                   if k is not kind_entry and k["model"] not in others)
        if largest is not None and kind_entry.get("max") is not None \
                and kind_entry["max"] + rest >= largest:
            continue
        members = [model.name, *others]
        if kind_entry.get("max") is None or any(
                [k["model"] for k in kinds].count(m) != 1 for m in members):
            unread.append(f"{model.name}: maximum lowered by 1 for each "
                          + " or ".join(others))
            continue
        bound = {"models": members, "min": 0, "max": kind_entry["max"]}
        if kind_entry.get("max_from"):
            bound["max_from"] = dict(kind_entry["max_from"])
        if not any(set(b["models"]) == set(members) and b["max"] == bound["max"]
                   for b in shared):
            shared.append(bound)
    _merge_bundles(groups, larger_groups, base[0] if base else 0, key="models")
    for members, cap in group_caps:  # a group's maximum an error sets by the unit's size
        g = next((g for g in groups if g["models"] == members), None)
        if g is None:
            g = {"models": members, "min": 0}
            groups.append(g)
        _capped(g, cap, largest, unread)
    # a bound over every kind of a variable number is the unit's size: its points say that
    # and one naming a kind the unit has twice under one name cannot be placed
    names = [k["model"] for k in kinds]
    groups[:] = [g for g in groups
                 if any(k["model"] not in g["models"] and k["min"] != k.get("max")
                        for k in kinds) and all(names.count(m) == 1 for m in g["models"])]
    groups += shared
    owner.append(node)
    unit_fixed, unit_choices = gear_of(node, 0)  # wargear of the unit as a whole
    if unit_choices or unit_fixed:
        entry: dict[str, Any] = {"model": None, "min": 0}
        if unit_fixed:
            entry["gear"] = unit_fixed
        if unit_choices:
            entry["choices"] = unit_choices
        kinds.append(entry)
    bound_items = together.finish(kinds, unread) + item_bounds
    return kinds, items, groups, dedupe(unread), bound_items


_ARMY_SCOPES = ("roster", "force", "primary-catalogue")  # Crusade, Detachment: not the datasheet

# a maximum an error sets: (max, max_from, the kinds of model max_from counts (empty: the
# unit's size), the unread line naming the error if it cannot join the bound's own)
Cap = tuple[int, dict[int, int], tuple[str, ...], str]


def _capped(entry: dict[str, Any], cap: Cap, largest: int | None, unread: list[str]) -> None:
    """A kind's or group's ``max`` and ``max_from`` lowered to ``cap`` where it is lower. Both
    must count one number (the unit's size, or the models of the same kinds), or one of them
    be the same whatever the number: otherwise the error is named in ``unread``."""
    hi, grows, by, line = cap
    own_by = tuple(entry.get("max_from_kinds", ()))
    if by != own_by and entry.get("max_from") and grows:
        unread.append(line)
        return
    key = list(by if grows else own_by)
    top, steps = at_most((entry.get("max"), entry.get("max_from", {})), (hi, grows),
                         max([largest or 0, *grows]))
    entry["max"] = top
    entry.pop("max_from", None)
    entry.pop("max_from_kinds", None)
    if steps:
        entry["max_from"] = steps
        if key:
            entry["max_from_kinds"] = key


def _conditions(ex: "Extractor", choice_node: "Node", choice: dict[str, Any],
                owners: list["Node"], unread: list[str], counters: frozenset[str] = frozenset(),
                read: set[int] | None = None, where: Where | None = None) -> None:
    """A choice's bounds that change with another choice or with the unit's size. The forms
    read: its maximum (and minimum) set to 0 while the model carries an item ("if the
    sergeant takes twin lightning claws, he makes no Weapon 1 choice"): ``unless: [item]`` on
    the choice; its maximum set, raised or lowered by the unit's number of models ("a
    Plasmacyte for 6 or more models, else 1 fewer"): ``max`` in the smallest unit and
    ``max_from``; hidden while no model of the unit carries an item, its minimum set while
    one does (the Reiver Sergeant's bolt carbine): ``unit_needs`` and ``unit_min``. Any other
    modifier of its bounds on what the unit carries (a count, a group
    of conditions, a repeat, an item of another model) is not read: the choice is named in
    ``unread`` (the pack's ``wargear_unread``; a roster naming that unit's wargear is told).
    ``owners``: the unit's entry first, the model (or unit) making the choice last;
    ``counters``: entries whose count is the unit's number of models (:func:`_model_counters`);
    ``read``: gets the ids of the ``hidden`` modifiers read here (others are read, or named,
    by :func:`bagm.io.bsdata.beside.read_hidden`'s caller); ``where``: what is known of the
    place (a modifier that never applies in a Boarding Actions roster, one on a Crusade
    upgrade, is none)."""
    from bagm.io.bsdata.links import child_elements

    owner, unit_ids = owners[-1], frozenset(owners[0].ids)
    bounds = {c.get("id") for p in choice_node.parts
              for c in child_elements(p, "constraints", "constraint")
              if c.get("field") == "selections" and c.get("scope") in ("parent", None)}
    names = _item_ids(ex, owner)
    unit_items = _item_ids(ex, owners[0], models=True)
    unless: list[str] = []
    sized = False
    unit_min: tuple[str, int] | None = None  # (item the unit carries, the minimum then)
    for p in choice_node.parts:
        for mod in child_elements(p, "modifiers", "modifier"):
            if mod.get("field") not in bounds:
                continue
            conds = child_elements(mod, "conditions", "condition")
            nested = mod.find("conditionGroups") is not None
            repeats = mod.find("repeats") is not None
            if conds and not nested and not repeats \
                    and all(c.get("scope") in _ARMY_SCOPES for c in conds):
                continue  # an army's option (Crusade, a Detachment), not the datasheet's
            if where is not None and not repeats and where.holds(mod) is False:
                continue  # never in a Boarding Actions roster (a Crusade upgrade's)
            if _size_modifier(mod, unit_ids, counters) is not None \
                    and _bounds_max(choice_node, mod):
                sized = True  # worked out below for every size at once
                continue
            item = _carried_item(mod, conds, names, owner) if not (nested or repeats) else None
            if item is None and not (nested or repeats) and _bound_type(choice_node, mod) == "min":
                found = _unit_item(mod, conds, unit_items, unit_ids, test=("atLeast", 1))
                if found is not None and unit_min is None:
                    unit_min = found
                    continue
            if item is None:
                unread.append(f"{owner.name}: {choice_node.name}")
            elif item not in unless:
                unless.append(item)
    # hidden until the unit carries an item: made only then (the Reiver Sergeant's carbine)
    needs: list[str] = []
    for mod, groups in hidden_modifiers(choice_node):
        conds = child_elements(mod, "conditions", "condition")
        if groups or mod.find("conditionGroups") is not None or mod.find("repeats") is not None:
            continue  # worked out (or not) where the choice is read: see shown.never_shown
        found = _unit_item(mod, conds, unit_items, unit_ids, test=("lessThan", 1), value="true")
        if found is not None and found[0] not in needs:
            needs.append(found[0])
        if found is not None and read is not None:
            read.add(id(mod))
    if unless:
        choice["unless"] = unless
    if needs:
        choice["unit_needs"] = needs
    if unit_min is not None:
        if unit_min[0] in needs:
            choice["unit_min"] = unit_min[1]
        else:  # a minimum bound to an item the choice is not hidden without: not read
            unread.append(f"{owner.name}: {choice_node.name}")
    if sized:
        _lo, hi = choice_node.bounds()
        top, grows = _max_by_size(choice_node, 1 if hi is None else hi, unit_ids, counters)
        if top != 1:
            choice["max"] = top
        else:
            choice.pop("max", None)
        if grows:
            choice["max_from"] = grows


_SOME = {("atLeast", 1.0), ("greaterThan", 0.0)}  # "has one or more"
_UNIT_SCOPES = ("unit", "root-entry", "parent")  # the unit's own count (beside its ids)


def _excludes(mod: Any, own: set[str], kind_ids: dict[str, str]) -> list[str] | None:
    """An error the catalogues raise while the unit has a model of this kind and one of
    other kinds ("all Yaegirs with the same weapon"): those kinds (``unit_unless``), else
    None. The form: every condition (and-ed, or in one "or" group) counts one or more models
    of a kind of the unit; one names this kind, the others those it excludes."""
    from bagm.io.bsdata.links import child_elements

    if mod.get("field") != "error" or mod.find("repeats") is not None:
        return None
    conds = list(child_elements(mod, "conditions", "condition"))
    groups = child_elements(mod, "conditionGroups", "conditionGroup")
    if len(groups) == 1 and groups[0].get("type", "and") == "and" and not conds:
        conds = list(child_elements(groups[0], "conditions", "condition"))
        groups = child_elements(groups[0], "conditionGroups", "conditionGroup")
    ors: list[Any] = []
    for g in groups:
        if g.get("type") != "or" or child_elements(g, "conditionGroups", "conditionGroup"):
            return None
        ors.append(child_elements(g, "conditions", "condition"))
    if len(ors) > 1:
        return None

    def kind(c: Any) -> str | None:
        try:
            test = (c.get("type", ""), float(c.get("value", "")))
        except ValueError:
            return None
        if c.get("field") != "selections" or test not in _SOME \
                or c.get("childId", "") not in kind_ids:
            return None
        return str(c.get("childId"))

    ids = [kind(c) for c in [*conds, *(c for o in ors for c in o)]]
    if any(i is None for i in ids):
        return None
    mine = [c for c in conds if kind(c) in own]
    others = [c for c in conds if kind(c) not in own]
    if len(mine) != 1 or len(others) + len(ors) != 1:
        return None
    names = [kind_ids[str(kind(c))] for c in (others or ors[0])]
    return list(dict.fromkeys(n for n in names if n))


def _by_others(mod: Any, model: "Node", unit_ids: frozenset[str], kind_ids: dict[str, str],
               group_kinds: dict[str, list[str]] | None = None) -> list[str] | None:
    """A kind's maximum lowered by 1 for each model of other kinds of the unit, or of a
    group of them (a repeat each, no condition): those kinds, else None."""
    group_kinds = group_kinds or {}
    from bagm.io.bsdata.links import child_elements

    repeats = child_elements(mod, "repeats", "repeat")
    if mod.get("type") != "decrement" or mod.get("value") not in ("1", "1.0") \
            or not _bounds_max(model, mod) or not repeats \
            or mod.find("conditions") is not None or mod.find("conditionGroups") is not None:
        return None
    out: list[str] = []
    for r in repeats:
        child = r.get("childId", "")
        kinds = [kind_ids[child]] if child in kind_ids else group_kinds.get(child, []) \
            if r.get("includeChildSelections", "false").lower() == "true" else []
        if r.get("field") != "selections" or r.get("value") not in ("1", "1.0") \
                or r.get("repeats") not in ("1", "1.0") or not kinds \
                or child in model.ids or model.name in kinds \
                or not (r.get("scope") in unit_ids or r.get("scope") in _UNIT_SCOPES):
            return None
        out += kinds
    return list(dict.fromkeys(out))


def _min_beside(mod: Any, model: "Node", kind_ids: dict[str, str]) -> list[str] | None:
    """A kind's minimum 1 lower while the unit has one or more models of other kinds
    (decremented by 1, or set to 1 below its own, on one condition or several or-ed): those
    kinds, else None."""
    from bagm.io.bsdata.links import child_elements

    lo = next((int(float(c.get("value", "0"))) for c in model.children("constraints",
                                                                        "constraint")
               if c.get("id") == mod.get("field") and c.get("type") == "min"), None)
    try:
        value = float(mod.get("value", ""))
    except ValueError:
        return None
    if lo is None or mod.find("repeats") is not None or not (
            mod.get("type") == "decrement" and value == 1
            or mod.get("type") == "set" and value == lo - 1):
        return None
    conds = child_elements(mod, "conditions", "condition")
    groups = child_elements(mod, "conditionGroups", "conditionGroup")
    if groups:
        if conds or len(groups) != 1 or groups[0].get("type") != "or" \
                or child_elements(groups[0], "conditionGroups", "conditionGroup"):
            return None
        conds = child_elements(groups[0], "conditions", "condition")
    elif len(conds) != 1:
        return None
    out: list[str] = []
    for c in conds:
        try:
            test = (c.get("type", ""), float(c.get("value", "")))
        except ValueError:
            return None
        child = c.get("childId", "")
        if c.get("field") != "selections" or test not in _SOME or child not in kind_ids \
                or child in model.ids:
            return None
        out.append(kind_ids[child])
    return out


def _group_read(mod: Any, child: "Node", counted: frozenset[str],
                error: Callable[[Any], bool]) -> bool:
    """A bound of a group of kinds read: by the unit's size alone, or an error on a count
    of it (a bound over its kinds)."""
    return _sized_max(mod, child, counted) or error(mod)


def _either(read: frozenset[int], other: "Callable[[Any], bool] | None", mod: Any) -> bool:
    """Whether a modifier is among those ``read`` (an item's bound across the unit took it)
    or ``other`` reads it."""
    return id(mod) in read or other is not None and other(mod)


def _sized_max(mod: Any, child: "Node", counted: frozenset[str]) -> bool:
    """A maximum of a kind or group changed by the unit's size alone (read by
    :func:`_max_by_size`)."""
    return _size_modifier(mod, None, counted) is not None and _bounds_max(child, mod)


def _left_one(mod: Any, item: "Node", name: str, choice: dict[str, Any] | None,
              kind_ids: dict[str, str]) -> bool:
    """An item's minimum set to 1 while the unit has a model of a kind beside which every
    other item of its choice (one at least) is barred (``item_unit_unless``): the Yaegir
    Theyn takes the bolt shotgun beside Yaegirs with bolt shotguns. The choice's bounds say
    as much."""
    if choice is None or choice.get("min", 0) < 1:
        return False
    c = _min_set_to_one_while_some(mod, item)
    kind = None if c is None else kind_ids.get(c.get("childId", ""))
    barred = choice.get("item_unit_unless", {})
    return kind is not None and all(kind in barred.get(i, []) for i in choice["of"] if i != name)


def _min_set_to_one_while_some(mod: Any, item: "Node",
                               scopes: tuple[str | None, ...] | None = None) -> Any | None:
    """The one condition ("has one or more" of an entry) under which ``mod`` sets a minimum
    of the item (one of ``scopes`` only, if given) to 1, else None: the form
    :func:`_left_one` and :func:`_min_with` read."""
    from bagm.io.bsdata.links import child_elements

    if mod.get("type") != "set" or mod.get("value") not in ("1", "1.0") \
            or mod.find("repeats") is not None or mod.find("conditionGroups") is not None \
            or not any(c.get("id") == mod.get("field") and c.get("type") == "min"
                       and (scopes is None or c.get("scope") in scopes)
                       for c in item.children("constraints", "constraint")):
        return None
    conds = child_elements(mod, "conditions", "condition")
    if len(conds) != 1:
        return None
    c = conds[0]
    try:
        test = (c.get("type", ""), float(c.get("value", "")))
    except ValueError:
        return None
    return c if c.get("field") == "selections" and test in _SOME else None


def _min_with(mod: Any, item: "Node", name: str, choice: dict[str, Any] | None,
              model_items: dict[str, str], model_ids: frozenset[str],
              entry_name: Callable[[str], str]) -> bool:
    """An item's minimum set to 1 while the model making its choice of one carries another
    item (the Chosen Champion's boltgun, not his combi-weapon, beside his power fist): every
    other item of the choice is not taken beside that item (``item_unless``), which says
    the same. Read onto ``choice``. ``model_items``: the ids of the model's items;
    ``entry_name``: an id -> its name (an item inside a bundle goes by its own)."""
    if choice is None or (choice.get("min", 0), choice.get("max", 1)) != (1, 1):
        return False
    c = _min_set_to_one_while_some(mod, item, ("parent", None))
    if c is None:
        return False
    child = c.get("childId", "")
    other = entry_name(child) if child in model_items else None  # its own name, in a bundle too
    if other is None or other == name or other in choice["of"] \
            or not (c.get("scope") == "model" or c.get("scope") in model_ids):
        return False
    barred = choice.setdefault("item_unless", {})
    for i in choice["of"]:
        if i != name:
            got = barred.setdefault(i, [])
            got += [other] if other not in got else []
    return True


_NAMES: "weakref.WeakKeyDictionary[Any, dict[str, str]]" = weakref.WeakKeyDictionary()


def _other_names(ex: "Extractor") -> dict[str, str]:
    """The names of the catalogues' entry links and categories by id (conditions count
    them; the library indexes entries only), read once a library."""
    got = _NAMES.get(ex.lib)
    if got is None:
        got = {}
        for cat in ex.lib.order:
            for el in cat.root.iter():
                if el.tag in ("entryLink", "categoryEntry", "categoryLink") and el.get("id"):
                    got.setdefault(el.get("id", ""), clean_text(el.get("name")))
        _NAMES[ex.lib] = got
    return got


def _choice_bounds(choice_node: "Node") -> set[str | None]:
    """The ids of a choice's own bounds (its selections, scope parent): the ones
    :func:`_conditions` reads or names."""
    from bagm.io.bsdata.links import child_elements

    return {c.get("id") for p in choice_node.parts
            for c in child_elements(p, "constraints", "constraint")
            if c.get("field") == "selections" and c.get("scope") in ("parent", None)}


def _has_models(ex: "Extractor", n: "Node", depth: int) -> bool:
    """Whether an entry or group holds model entries (at any depth)."""
    return n.target.get("type") == "model" or depth < MAX_DEPTH and any(
        _has_models(ex, m, depth + 1) for m in ex._members(n))


def _kind_ids(ex: "Extractor", unit: "Node") -> dict[str, str]:
    """The model entries below a unit (its kinds of model): their ids -> their names."""
    out: dict[str, str] = {}
    seen: set[int] = set()

    def visit(n: "Node", d: int) -> None:
        if d > MAX_DEPTH or id(n.target) in seen:
            return
        seen.add(id(n.target))
        for child in ex._members(n):
            if child.target.get("type") == "model":
                for i in child.ids:
                    out.setdefault(i, child.name)
            elif child.target.get("type") != "unit":
                visit(child, d + 1)

    visit(unit, 0)
    return out


def _bundle_ids(ex: "Extractor", unit: "Node") -> set[str]:
    """The ids of a unit's bundles of models (:func:`_bundle`: "1 mauler chainblade, 16
    chainblades"): counting one is asking the unit's size, which the bundles' merge reads."""
    out: set[str] = set()

    def visit(n: "Node", d: int) -> None:
        if d > MAX_DEPTH:
            return
        for child in ex._members(n):
            if _bundle(ex, n, child, True) or _bundle(ex, n, child, False):
                out.update(child.ids)
            if child.target.get("type") not in ("model", "unit"):
                visit(child, d + 1)

    visit(unit, 0)
    return out


def _group_kinds(ex: "Extractor", unit: "Node") -> dict[str, list[str]]:
    """The groups below a unit holding kinds of model: their ids -> the kinds' names."""
    out: dict[str, list[str]] = {}

    def visit(n: "Node", d: int) -> list[str]:
        if d > MAX_DEPTH:
            return []
        names: list[str] = []
        for child in ex._members(n):
            if child.target.get("type") == "model":
                names.append(child.name)
            elif child.target.get("type") != "unit":
                below = visit(child, d + 1)
                if below and child.target.tag == "selectionEntryGroup":
                    for i in child.ids:
                        out.setdefault(i, below)
                names += below
        return list(dict.fromkeys(names))

    visit(unit, 0)
    return out


def _item_ids(ex: "Extractor", owner: "Node", models: bool = False) -> dict[str, str]:
    """Every wargear entry below a model (or unit; ``models``: its models' too): its ids ->
    the name of the item it is (or is part of: the tachyon arrow of "Overlord's blade and
    tachyon arrow")."""
    out: dict[str, str] = {}
    seen: set[int] = set()

    def visit(n: "Node", d: int, item: str | None) -> None:
        if d > MAX_DEPTH or id(n.target) in seen:
            return
        seen.add(id(n.target))
        for child in ex._members(n):
            if child.target.get("type") == "unit" or not models and \
                    child.target.get("type") == "model":
                continue
            if child.target.tag == "selectionEntryGroup" or child.target.get("type") == "model":
                visit(child, d + 1, item)
                continue
            name = item or child.name
            for i in child.ids:
                out.setdefault(i, name)
            visit(child, d + 1, name)

    visit(owner, 0, None)
    return out


def _group_bound(group: "Node", members: list[dict[str, Any]], out: list[dict[str, Any]],
                 every: bool = False, counters: frozenset[str] = frozenset()) -> None:
    """A group of several kinds of model with a bound of its own that their own bounds do not
    already make ("Shock Trooper w/ Special Weapon": up to 2 of the four kinds with a special
    weapon, each up to 1): ``{models, min, max}`` in ``out``. ``every``: in a larger bundle,
    where a bound says how far the default bundle's grows, whether it binds there or not."""
    lo, hi = group.bounds()
    names = dedupe([k["model"] for k in members])
    if len(names) < 2 or (lo is None and hi is None):
        return
    mins = sum(k.get("min", 0) for k in members)
    maxes = None if any(k.get("max") is None for k in members) else \
        sum(k["max"] for k in members)
    binds_hi = hi is not None and (maxes is None or hi < maxes)
    binds_lo = lo is not None and lo > mins
    if every:
        binds_hi, binds_lo = hi is not None, bool(lo)
    if not binds_hi and not binds_lo:
        return
    bound: dict[str, Any] = {"models": names, "min": lo if binds_lo else 0}
    if binds_hi and hi is not None:
        bound["max"], grows = _max_by_size(group, hi, counters=counters)
        if grows:
            bound["max_from"] = grows
    out.append(bound)


def _merge_bundles(kinds: list[dict[str, Any]], others: list[tuple[int, list[dict[str, Any]]]],
                   base: int, key: str = "model") -> None:
    """The other bundles of a unit's models, merged into the default bundle's kinds: a larger
    bundle ("2 Runtherds and 20 Gretchin", 22 models by its name) raises a kind's maximum from
    that size (``max_from``); a kind only another bundle has ("1 mauler chainblade, 7
    chainblades") is an option, up to its count in a bundle of the default's size and, from a
    larger bundle's size, up to its count there."""
    for size, bundle in others:
        for b in bundle:
            k = next((x for x in kinds if x[key] == b[key]), None)
            more = b.get("max")
            if more is None:
                continue
            if k is None and key != "model":
                continue  # a bound over kinds the default bundle lacks
            if k is None:
                k = {**b, "min": 0, "max": 0}
                k.pop("max_from", None)
                kinds.append(k)
            if size <= base:
                k["max"] = max(k["max"], more)
            elif more > (k.get("max") or 0):
                grown = k.setdefault("max_from", {})
                grown[size] = max(grown.get(size, 0), more)


def _bundle(ex: "Extractor", group: "Node", child: "Node", default: bool) -> bool:
    """Whether ``child`` is one of a group of fixed bundles of models ("Unit Composition":
    "1 Runtherd and 10 Gretchin" or "2 Runtherds and 20 Gretchin"), an upgrade entry holding
    model entries (and groups of them), and the group's default one (``default``) or another.
    The default bundle's models are the unit's kinds of model; the others say how far each
    kind's maximum grows with the unit's size (``max_from``)."""
    first = group.target.get("defaultSelectionEntryId")
    if group.target.tag != "selectionEntryGroup" or not first or (first in child.ids) != default \
            or child.target.get("type") != "upgrade":
        return False
    members = ex._members(child)

    def models_in(n: "Node", depth: int) -> bool:
        return n.target.get("type") == "model" or depth < 2 and n.target.tag == "selectionEntryGroup" \
            and any(models_in(m, depth + 1) for m in ex._members(n))
    return any(models_in(m, 0) for m in members) and \
        all(m.target.get("type") == "model" or m.target.tag == "selectionEntryGroup" for m in members)


def _alternatives(ex: "Extractor", group: "Node", items: dict[str, list[str]], depth: int,
                  gone: Callable[["Node"], bool], check: "Check | None" = None
                  ) -> list[dict[str, Any]] | None:
    """A choice "its default, or one item from each of its N groups" read as choices, else
    None. The catalogues' form (the Acothyst's "Weapon Options"): a group of one pick holding
    the default item and N groups of at most one pick each, whose bounds are set to N while
    the model lacks the default. Read as the default or an item of the first group (one
    pick), and for each other group one pick unless the model carries the default, which is
    the same thing."""
    from bagm.io.bsdata.extract import _SKIP_BRANCH
    from bagm.io.bsdata.links import child_elements

    lo, hi = group.bounds()
    limits = {c.get("id"): c.get("type") for p in group.parts
              for c in child_elements(p, "constraints", "constraint")
              if c.get("field") == "selections" and c.get("scope") in ("parent", None)}
    mods = [m for p in group.parts for m in child_elements(p, "modifiers", "modifier")
            if m.get("field") in limits]
    members = [m for m in ex._members(group) if not _SKIP_BRANCH.search(m.name)
               and not m.hidden and not gone(m)]
    entries = [m for m in members if m.target.tag != "selectionEntryGroup"]
    groups = [m for m in members if m.target.tag == "selectionEntryGroup"]
    if (lo, hi) != (1, 1) or len(entries) != 1 or len(groups) < 2 or not mods \
            or {limits[m.get("field")] for m in mods} != {"min", "max"}:
        return None
    default = entries[0]
    for mod in mods:
        conds = child_elements(mod, "conditions", "condition")
        try:
            value, at = int(float(mod.get("value", ""))), float(conds[0].get("value", ""))
        except (ValueError, IndexError):
            return None
        if mod.get("type") != "set" or value != len(groups) or len(conds) != 1 \
                or mod.find("conditionGroups") is not None or mod.find("repeats") is not None \
                or conds[0].get("childId") not in default.ids \
                or conds[0].get("scope") not in ("parent", None) \
                or (conds[0].get("type"), at) not in (("lessThan", 1), ("equalTo", 0),
                                                       ("atMost", 0)):
            return None
    if any(g.bounds() not in ((None, 1), (0, 1)) for g in groups) \
            or not _gives(ex, default, items):
        return None
    out: list[dict[str, Any]] = []
    checks: list[tuple["Node", dict[str, Any], dict[str, list["Node"]]]] = []
    for i, g in enumerate(groups):
        names, _always, _default, inner, nodes = _group_items(ex, g, items, depth + 1, gone,
                                                              check)
        if not names:
            return None
        choice: dict[str, Any] = {"of": ([default.name] if i == 0 else []) + names, "min": 1}
        if i == 0:
            choice["default"] = default.name
            nodes = {default.name: [default], **nodes}
        else:
            choice["unless"] = [default.name]
        checks.append((g, choice, nodes))
        out += [choice, *inner]
    if check is not None:
        check(group, out[0], {}, [])
        for g, choice, nodes in checks:
            check(g, choice, nodes, [])
    return out


def _least(child: "Node") -> int:
    """An entry's own minimum as every roster has it: its ``min`` constraint, or the value a
    modifier without conditions sets it to (Death Company Marines with Bolt Rifles: the
    alternate-weapons Marine's bolt rifle, "min 1" set to 0, is the default of his choice
    beside a hand flamer, an inferno or plasma pistol or a chainsword, not always carried).
    Read for the items of a choice with a default only (:func:`_group_items`; the Plague
    Champion's plague knives, whose choice is one of a group of choices, :func:`_groups_only`):
    elsewhere such a minimum stands, in forms not settled (the Reiver Sergeant's combat knife,
    an item of no choice, which would then be carried by no default; an item's minimum N in
    a choice of several picks without a default, the catalogues' "N by default", which one
    default item cannot say: the Deff Dread's 2 big shootas and 2 dread klaws)."""
    from bagm.io.bsdata.links import child_elements

    lo = child.bounds()[0] or 0
    mins = {c.get("id") for c in child.children("constraints", "constraint")
            if c.get("type") == "min" and c.get("field") == "selections"
            and c.get("scope") in ("parent", None)}
    for p in child.parts:
        for mod in child_elements(p, "modifiers", "modifier"):
            if mod.get("field") in mins and mod.get("type") == "set" and len(mod) == 0:
                try:
                    lo = int(float(mod.get("value", "")))
                except ValueError:
                    pass
    return lo


def _groups_only(ex: "Extractor", group: "Node", gone: Callable[["Node"], bool]) -> bool:
    """Whether a group is a folder of choices: a group without a default, or modifiers, of
    its own whose members are two or more groups and whose bounds say nothing theirs do not
    (its minimum at most the sum of theirs, its maximum at least the sum of theirs). The
    Plague Champion's "Wargear", 2 picks over "Plague knives options" and "Boltgun options",
    1 pick each with a default: two choices, each with its default, not one choice of 2 of
    their items together without one."""
    from bagm.io.bsdata.extract import _SKIP_BRANCH
    from bagm.io.bsdata.links import child_elements

    if _has_default(group) or any(child_elements(p, "modifiers", "modifier")
                                  or p.find("modifierGroups") is not None
                                  for p in group.parts):
        return False
    members = [m for m in ex._members(group)
               if not _SKIP_BRANCH.search(m.name) and not m.hidden and not gone(m)
               and m.bounds()[1] != 0]
    if len(members) < 2 or any(m.target.tag != "selectionEntryGroup" for m in members):
        return False
    lo, hi = group.bounds()
    bounds = [m.bounds() for m in members]
    if (lo or 0) > sum(b[0] or 0 for b in bounds):
        return False
    return hi is None or all(b[1] is not None for b in bounds) \
        and hi >= sum(b[1] or 0 for b in bounds)


def _has_default(group: "Node") -> bool:
    return any(p.get("defaultSelectionEntryId") for p in group.parts)


def _inner_choices(ex: "Extractor", item: "Node", items: dict[str, list[str]], depth: int,
                   gone: Callable[["Node"], bool] = lambda n: False, check: "Check | None" = None
                   ) -> list[dict[str, Any]]:
    """The choices an item makes inside itself (the Captain's "Bolt Pistol, Master-crafted
    Bolter, Melee Weapon" and its melee weapon: close combat weapon, power fist or
    master-crafted power weapon): each a choice with ``needs``, made only by a model that
    carries the item."""
    from bagm.io.bsdata.extract import _SKIP_BRANCH

    out: list[dict[str, Any]] = []
    if depth >= MAX_DEPTH:
        return out
    for g in ex._members(item):
        if g.target.tag != "selectionEntryGroup" or _SKIP_BRANCH.search(g.name) or g.hidden \
                or gone(g):
            continue
        lo, hi = g.bounds()
        if hi == 0:
            continue
        names, _always, default, _, nodes = _group_items(ex, g, items, depth + 1, gone, check)
        if not names:
            continue
        out.append(_choice(names, lo, hi, default, needs=item.name))
        if check is not None:
            check(g, out[-1], nodes, [])
    return out


def _dedupe_choices(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each choice once (an item offered by two groups brings its own choices once)."""
    out: list[dict[str, Any]] = []
    for c in choices:
        if c not in out:
            out.append(c)
    return out


def _group_items(ex: "Extractor", group: "Node", items: dict[str, list[str]], depth: int,
                 gone: Callable[["Node"], bool] = lambda n: False, check: "Check | None" = None
                 ) -> tuple[list[str], list[str], str | None, list[dict[str, Any]],
                            dict[str, list["Node"]]]:
    """The items a choice offers (nested groups flattened), the items of the group every model
    takes (an entry with a minimum of its own: a group used as a folder), the default, the
    choices its items make inside themselves (:func:`_inner_choices`) and the entries (and
    nested groups) of each item offered, whose conditions ``check`` reads."""
    from bagm.io.bsdata.extract import _SKIP_BRANCH
    from bagm.io.bsdata.links import id_variants

    defaults: set[str] = set()
    for p in group.parts:
        if p.get("defaultSelectionEntryId"):
            defaults.update(id_variants(p.get("defaultSelectionEntryId", "")))
    names: list[str] = []
    always: list[str] = []
    default: str | None = None
    inner: list[dict[str, Any]] = []
    nodes: dict[str, list["Node"]] = {}

    def visit(g: "Node", d: int, within: list["Node"]) -> None:
        nonlocal default
        if d > MAX_DEPTH:
            return
        for child in ex._members(g):
            if _SKIP_BRANCH.search(child.name) or child.hidden or child.bounds()[1] == 0 \
                    or child.target.get("type") in ("model", "unit") or gone(child):
                continue
            if child.target.tag == "selectionEntryGroup":
                visit(child, d + 1, [*within, child])
            elif not _gives(ex, child, items):
                continue
            elif (_least(child) if defaults and not within else child.bounds()[0] or 0) >= 1:
                # (an unconditional minimum read only among a choice's own items, where the
                # choice has a default: other entries keep their constraint's)
                always.append(child.name)
                if check is not None:
                    check(None, None, {}, [*within, child])
                inner.extend(_inner_choices(ex, child, items, d, gone, check))
            else:
                names.append(child.name)
                got = nodes.setdefault(child.name, [])
                got += [n for n in [*within, child] if n not in got]
                if default is None and child.ids & defaults:
                    default = child.name
                inner.extend(_inner_choices(ex, child, items, d, gone, check))

    visit(group, depth, [])
    return dedupe(names), dedupe(always), default, _dedupe_choices(inner), nodes


def _gives(ex: "Extractor", item: "Node", items: dict[str, list[str]], depth: int = 0) -> bool:
    """Whether an entry is wargear (it gives a weapon or an ability); records the weapons it
    gives in ``items`` when they are not named after it ("Bolt pistol and chainsword")."""
    from bagm.io.bsdata.extract import _REFERENCE_ONLY, _weapon_name

    weapons: list[str] = []
    ability = False
    seen: set[int] = set()

    def visit(n: "Node", d: int) -> None:
        nonlocal ability
        if d > 3 or id(n.target) in seen:
            return
        seen.add(id(n.target))
        for kind, el, name in ex._info(n.parts):
            if kind != "profile":
                continue
            type_name = ex.lib.type_name(el)
            if type_name in ("Ranged Weapons", "Melee Weapons"):
                if not _REFERENCE_ONLY.search(name):
                    weapons.append(_weapon_name(el.get("name")))
            elif type_name == "Abilities":
                ability = True
        for child in ex._members(n):
            if child.target.tag != "selectionEntryGroup" and not child.hidden \
                    and child.target.get("type") not in ("model", "unit") \
                    and (child.bounds()[0] or 0) >= 1:
                visit(child, d + 1)  # an item's own parts (a drone and its gun)

    visit(item, 0)
    if not weapons and not ability and depth < MAX_DEPTH \
            and _made_of_choices(ex, item, items, depth + 1):
        return True  # a bundle of choices ("Boltgun and accursed weapon": each its own choice)
    weapons = dedupe(weapons)
    key = name_key(item.name)
    if weapons and not all(_named_after(w, key) for w in weapons):
        items.setdefault(item.name, weapons)
    return bool(weapons) or ability


def _made_of_choices(ex: "Extractor", item: "Node", items: dict[str, list[str]],
                     depth: int) -> bool:
    """Whether an entry giving nothing itself holds choices of wargear (a Chosen Champion's
    "Boltgun and accursed weapon": a boltgun or combi-weapon, an accursed weapon or power
    fist), which :func:`_inner_choices` reads as choices made by a model carrying it."""
    return any(g.target.tag == "selectionEntryGroup" and not g.hidden
               and any(c.target.tag != "selectionEntryGroup"
                       and c.target.get("type") not in ("model", "unit")
                       and _gives(ex, c, items, depth)
                       for c in ex._members(g))
               for g in ex._members(item))


def _named_after(weapon: str, key: str) -> bool:
    """'Plasma gun - supercharge' and 'Plasma gun' are named after the item 'Plasma gun'."""
    own = name_key(re.sub(r"\s+\(melee\)$", "", weapon))
    return own == key or name_key(weapon.split(" - ", 1)[0]) == key


def _choice(names: list[str], lo: int | None, hi: int | None, default: Any, needs: str | None = None) -> dict[str, Any]:
    """A choice as the pack writes it: its items, bounds (min left out at 0, max at 1), default,
    and the item a model must carry to make it (a choice inside a bundled item)."""
    choice: dict[str, Any] = {"of": names}
    if lo:
        choice["min"] = lo
    if hi != 1:
        choice["max"] = hi
    if default:
        choice["default"] = default
    if needs is not None:
        choice["needs"] = needs
    return choice
