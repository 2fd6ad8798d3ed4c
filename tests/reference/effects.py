"""Plain references of a unit's effect lookups (:class:`bagm.engine.state.army.Unit`).

``Unit.effects`` and ``Unit.setting`` read an index of the unit's effects by the fields they set,
kept while its effects and keywords stay the same, and the lookups of :mod:`bagm.engine.rules.
effects` (a sum, the least value, a flag, the first value) read only the effects setting their
field. These are the same answers read plainly: every effect of the unit, every time, its fixed
and changing conditions checked, the field read on each.

The attack sequence's lookups (``effect_weapon``, ``effect_conditions``, ``effect_defence``,
``toughness``) ask a unit only for the effects setting the fields each of them reads (``Unit.setting``
by several fields), so that the conditions of the others are never looked at: :func:`plain` is a
way of asking a unit's lookups to answer every effect that applies now instead, and the same functions
asked of units while :func:`plainly` are their plain references.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import MISSING
from dataclasses import fields as dc_fields
from typing import Any

from bagm.data.models import Effect
from bagm.engine.state.army import Army, Unit, fits


def effects(u: Unit, holds: Any = None) -> list[Any]:
    """Its standing, timed and conferred effects whose conditions hold now, in that order."""
    listed = [e for _, e in u.standing] + [e for _, e, _ in u.timed]
    if u.led is not None:
        listed += u.led[2].effects
    name = getattr(u.datasheet, "name", u.name)
    out = []
    for e in listed:
        if not fits(e, name, u.keywords):
            continue
        conds = e.only_while if isinstance(e.only_while, list) else [e.only_while]
        if e.only_while is None or all(u.state(c, holds) for c in conds):
            out.append(e)
    return out


def effect_sum(u: Unit, field: str) -> int:
    return sum(getattr(e, field) for e in effects(u))


def effect_least(u: Unit, field: str) -> Any:
    vals = [v for e in effects(u) if (v := getattr(e, field)) is not None]
    return min(vals) if vals else None


def effect_has(u: Unit, field: str) -> bool:
    return any(getattr(e, field) for e in effects(u))


def effect_first(u: Unit, field: str) -> Any:
    return next((v for e in effects(u) if (v := getattr(e, field)) is not None), None)


def oc(u: Unit, model: Any = None) -> int:
    """Objective Control: 0 Battle-shocked (or the best ``OC_shocked``), else the highest
    ``OC_set`` or the model's own OC, plus every ``OC_mod``, never below 0."""
    es = effects(u)
    if u.battleshocked:
        return max((e.OC_shocked for e in es if e.OC_shocked is not None), default=0)
    own = u.OC if model is None or model.own is None else model.own.OC
    if not es:
        return own
    sets = [e.OC_set for e in es if e.OC_set is not None]
    return max(0, (max(sets) if sets else own) + sum(e.OC_mod for e in es))


class _Plain(Unit):
    """A unit whose lookups by field read every effect that applies now (:func:`effects`)."""

    def setting(self, name: Any, holds: Any = None) -> list[Any]:
        return effects(self, holds)

    def effects(self, holds: Any = None) -> list[Any]:
        return effects(self, holds)


@contextmanager
def plainly(*units: Unit) -> Iterator[None]:
    """While within: the lookups by field of ``units`` read every effect of theirs that applies now
    (the same objects: conditions that compare units, such as 'closest', still see them). An effect
    setting none of the fields an answer reads changes nothing in it, so the attack sequence's
    answers asked within are the plain references of the same answers asked outside."""
    kinds = [u.__class__ for u in units]
    for u in units:
        u.__class__ = _Plain
    try:
        yield
    finally:
        for u, k in zip(units, kinds):
            u.__class__ = k


_FIELDS = [(f.name, f) for f in dc_fields(Effect)]


def may_set(army: Army, name: str) -> bool:
    """Whether an effect a unit of ``army`` carries (standing, timed, conferred) has field ``name``
    other than its default (a field whose default is something counts as set)."""
    f = dict(_FIELDS)[name]
    default = f.default_factory() if f.default_factory is not MISSING else f.default
    if default:
        return True
    for u in army.units:
        carried = [e for _, e in u.standing] + [e for _, e, _ in u.timed]
        if u.led is not None:
            carried += u.led[2].effects
        if any(getattr(e, name) != default for e in carried):
            return True
    return False
