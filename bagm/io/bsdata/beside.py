"""An option the catalogues hide by another of the roster's choices, read as a fact of the
datasheet: a ``hidden`` modifier whose conditions count items of the model making the choice
or kinds of model of its unit (the conditions :mod:`bagm.io.bsdata.shown` cannot settle
without the roster). The forms read:

- hidden while the model lacks an item, or lacks any of several ("or"): taken only by a model
  carrying every one of them (``needs``: the Canoness's Rod of Office with a plasma pistol and
  a power weapon);
- hidden while the model carries an item, or any of several: none beside them (``unless``);
- hidden while the unit has a model of another kind, or of any of several: none beside them
  (``unit_unless``: a Skitarii Ranger with a data-tether, or one with an omnispex).

Any other form is not read: the caller names the choice in ``wargear_unread`` (never offered
silently without its condition).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.io.bsdata.links import child_elements

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

_NONE = {("equalTo", 0.0), ("lessThan", 1.0), ("atMost", 0.0)}  # "has none"
_SOME = {("atLeast", 1.0), ("greaterThan", 0.0)}  # "has one or more"
_UNIT_SCOPES = ("unit", "root-entry")  # scopes naming the unit (beside its own ids)


def read_hidden(mod: "Element", groups: list["Element"], model_ids: frozenset[str],
                unit_ids: frozenset[str], model_items: dict[str, str],
                kinds: dict[str, str]) -> tuple[str, list[str]] | None:
    """A ``set hidden true`` modifier read as (``needs`` | ``unless`` | ``unit_unless``, the
    items or kinds it names), else None. ``model_ids``: the model making the choice;
    ``unit_ids``: its unit; ``model_items``: the model's item ids -> item names; ``kinds``:
    the unit's model entry ids -> kind names."""
    if groups or mod.find("repeats") is not None:
        return None
    conds = child_elements(mod, "conditions", "condition")
    cgroups = child_elements(mod, "conditionGroups", "conditionGroup")
    mode = "or"  # one condition: either reading
    if cgroups:
        if conds or len(cgroups) != 1 or child_elements(cgroups[0], "conditionGroups",
                                                         "conditionGroup"):
            return None
        mode = cgroups[0].get("type", "and")
        conds = child_elements(cgroups[0], "conditions", "condition")
    elif len(conds) > 1:
        mode = "and"
    if not conds or (len(conds) > 1 and mode != "or"):
        return None  # all of several must hold: a form not met in the catalogues
    read = [_condition(c, model_ids, unit_ids, model_items, kinds) for c in conds]
    if any(r is None for r in read) or len({r[0] for r in read if r is not None}) != 1:
        return None
    form = read[0][0] if read[0] is not None else ""
    return form, list(dict.fromkeys(r[1] for r in read if r is not None))


def _condition(cond: "Element", model_ids: frozenset[str], unit_ids: frozenset[str],
               model_items: dict[str, str], kinds: dict[str, str]) -> tuple[str, str] | None:
    """One condition as (form, name): the model lacks an item (``needs``), carries one
    (``unless``), or its unit has a model of a kind (``unit_unless``); else None."""
    try:
        test = (cond.get("type", ""), float(cond.get("value", "")))
    except ValueError:
        return None
    if cond.get("field") != "selections":
        return None
    scope, child = cond.get("scope"), cond.get("childId", "")
    if (scope == "parent" or scope in model_ids) and child in model_items:
        if test in _NONE:
            return "needs", model_items[child]
        if test in _SOME:
            return "unless", model_items[child]
        return None
    if (scope in unit_ids or scope in _UNIT_SCOPES) and child in kinds and test in _SOME:
        return "unit_unless", kinds[child]
    return None
