"""Datasheet abilities by name: what each does in the engine, from the ability tables.

Datasheets list their abilities by name (``abilities: [Deep Strike, Feel No Pain 5+]``). The
tables say what a name does: the core abilities in ``bagm/data/core.yaml`` and a faction's own
(army rules, datasheet abilities) in its pack's ``abilities:``, the faction's first. A name with
a number ('Feel No Pain 5+', 'Deadly Demise D3') matches an entry whose name has an X there;
the number goes into the entry's ``x`` effect field.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any, Iterable

from bagm.data.names import norm

# the X of an ability's name: a number or a dice expression (5, D3, D6+1)
_X = r"(?P<x>(?:\d*d\d+(?:\+\d+)?)|\d+)"
_X_WORD = re.compile(r"(?<![A-Za-z])X(?![A-Za-z])")


def _pattern(name: str) -> re.Pattern[str]:
    # the name as look-ups compare it, with each X kept apart from the case folding
    parts = norm(_X_WORD.sub("\x00", name)).split("\x00")
    return re.compile(_X.join(re.escape(p) for p in parts) + r"$")


@dataclass(frozen=True)
class Found:
    """An ability's entry and, where the engine gives the unit effects, those effects (X filled
    in from the ability's name)."""

    entry: Any  # bagm.data.models.Ability
    effects: tuple[Any, ...]  # bagm.data.models.Effect

    @property
    def modelled(self) -> bool:
        return bool(self.entry.modelled)


def _value(text: str) -> int | str:
    return int(text) if text.isdigit() else text.upper()


class AbilityTable:
    """Ability entries looked up by a datasheet's ability name (and its datasheet's, for an entry
    limited to some units); the first entry that matches wins."""

    def __init__(self, entries: Iterable[Any]) -> None:
        entries = list(entries)
        self._entries = [(e, _pattern(e.name), frozenset(norm(u) for u in e.units)) for e in entries]
        # army rules by keyword ("THOUSAND SONS units from your army gain this one")
        self.army = [(e, e.keyword.upper()) for e in entries if getattr(e, "keyword", None)]
        self._found: dict[tuple[str, str], Found | None] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def find(self, name: str, unit: str = "") -> Found | None:
        """The entry for ability ``name`` of datasheet ``unit``; None when no table has one."""
        key = (norm(name), norm(unit))
        if key in self._found:
            return self._found[key]
        out: Found | None = None
        for entry, pattern, units in self._entries:
            if units and key[1] not in units:
                continue
            m = pattern.match(key[0])
            if m is None:
                continue
            effects = tuple(entry.effects or ())
            if entry.x is not None:
                x = _value(m.group("x"))
                filled = []
                for e in effects:
                    e = copy.copy(e)  # the table's effect is shared: fill in a copy
                    setattr(e, entry.x, x)
                    filled.append(e)
                effects = tuple(filled)
            out = Found(entry, effects)
            break
        self._found[key] = out
        return out


@dataclass(frozen=True)
class Played:
    """How the engine plays one ability a datasheet lists: ``how`` is 'effects' (standing
    effects on the unit), 'engine' (its own code), 'removed' (Boarding Actions removes it),
    'lost' (the datasheet's Boarding Actions adaptation removes it), 'leader' (a Leader ability
    Battlefield Command confers); '' when the engine does not model it, 'leader_unmodelled' for a
    Leader ability without effects."""

    name: str
    how: str
    effects: tuple[Any, ...] = ()
    moments: tuple[Any, ...] = ()  # bagm.data.models.Moment: what the unit can use it for
    left: tuple[str, ...] = ()  # parts of it the engine does not play
    entry: Any = None  # its entry of the ability tables (bagm.data.models.Ability), when it has tokens

    @property
    def modelled(self) -> bool:
        return self.how not in ("", "leader_unmodelled")


def played(ds: Any, table: AbilityTable) -> list[Played]:
    """Each ability datasheet ``ds`` lists, and how the engine plays it (one home for the
    question: games list the unmodelled ones, ``bagm data coverage`` counts them)."""
    lost = tuple(x.lower() for x in (ds.adaptation.loses if ds.adaptation else []))
    lead = ds.leader.abilities if ds.leader is not None else []
    leader = {norm(a.name): bool(a.effects) for a in lead}
    listed = {norm(a): a for a in ds.abilities}

    def one(a: str, seen: frozenset[str] = frozenset()) -> Played:
        if lost and a.lower().startswith(lost):  # its Boarding Actions adaptation: it loses it
            return Played(a, "lost")
        if norm(a) in leader:  # a Leader ability: conferred by Battlefield Command
            return Played(a, "leader" if leader[norm(a)] else "leader_unmodelled")
        found = table.find(a, ds.name)
        part_of = getattr(found.entry, "part_of", None) if found is not None else None
        if part_of is not None:  # a reference of another of its abilities: plays as that one does
            ref = listed.get(norm(part_of))
            if ref is None or norm(ref) in seen:
                return Played(a, "")
            how = one(ref, seen | {norm(a)}).how
            return Played(a, how if how not in ("", "leader_unmodelled") else "")
        if found is None or not found.modelled:
            entry = found.entry if found is not None else None
            lost_number = getattr(entry, "lost", None)
            if entry is not None and getattr(entry, "tokens", None) is not None:  # the number supplied, no manoeuvre
                return Played(a, "", left=(f"{entry.tokens} tokens each battle round supplied, but no manoeuvre "
                                           "to spend them on (manoeuvres: in an overlay)",))
            return Played(a, "", left=(f"the number it needs is lost: {lost_number}",) if lost_number else ())
        e = found.entry
        how = "engine" if e.engine else "removed" if e.removed else "effects"
        return Played(a, how, found.effects, tuple(e.moments), tuple(e.left),
                      e if getattr(e, "tokens", None) is not None else None)

    return [one(a) for a in ds.abilities]


def army_rules(ds: Any, table: AbilityTable) -> list[Played]:
    """The army rules (the Boarding Actions Mustering Rules') that datasheet ``ds`` has by its
    keywords, whatever it lists ("... units from your army gain this one"), and how each plays."""
    out = []
    for e, keyword in table.army:
        if keyword in ds.all_keywords:
            how = "engine" if e.engine else "removed" if e.removed else "effects" if e.modelled else ""
            out.append(Played(e.name, how, tuple(e.effects or ())))
    return out
