"""Consistency checks of a data pack (``bagm data check``): every rule a pack states is read
as the mustering rules read it (legal sizes, points), so the check lives with them."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from bagm.data.names import norm
from bagm.roster.points import legal_sizes, points_for


def check_faction(faction: Any) -> list[str]:
    """Problems in one faction pack, as readable lines (empty when the pack is sound)."""
    pack = faction.pack
    out: list[str] = []
    names = Counter(norm(u.name) for u in pack.units)
    out += [f"unit '{n}' is defined {c} times" for n, c in names.items() if c > 1]
    dets = Counter(norm(d.name) for d in pack.detachments)
    out += [f"Detachment '{n}' is defined {c} times" for n, c in dets.items() if c > 1]
    army_kw = pack.faction.upper()
    for ds in pack.units:
        if not ds.points:
            out.append(f"{ds.name}: no points")
        for size in ds.sizes or []:
            if points_for(ds.points, size) is None:
                out.append(f"{ds.name}: no points for {size} models")
        if army_kw not in ds.faction_keywords:
            out.append(f"{ds.name}: lacks the {army_kw} Faction keyword")
        ada = ds.adaptation
        if ada is not None and ada.split and sum(ada.split) not in (ds.sizes or ds.points):
            out.append(f"{ds.name}: split {ada.split} does not add up to a legal size")
        out += _check_profiles(ds)
        seen = Counter(w.name for w in ds.weapons)
        out += [f"{ds.name}: weapon '{w}' listed twice" for w, c in seen.items() if c > 1]
        if ds.leader is not None:
            out += _check_leader(ds, faction)
    for det in pack.detachments:
        where = f"Detachment {det.name}"
        enh = Counter(norm(e.name) for e in det.enhancements)
        out += [f"{where}: Enhancement '{e}' listed twice" for e, c in enh.items() if c > 1]
        listed = Counter(norm(a.unit) for a in det.units)
        out += [f"{where}: unit '{u}' listed twice" for u, c in listed.items() if c > 1]
        for a in det.units:
            ds = faction.units.get(a.unit)
            if ds is None:
                out.append(f"{where}: unit '{a.unit}' is not a datasheet of {pack.faction}")
                continue
            for size in legal_sizes(ds.points, ds.sizes, a.sizes):
                if points_for(ds.points, size) is None:
                    out.append(f"{where}: {ds.name} at {size} models has no points")
        for rule in det.rules:
            for name in _rule_units(rule):
                if faction.units.get(name) is None:
                    out.append(f"{where}: rule names unknown unit '{name}'")
    out += _check_abilities(faction)
    return out


def _check_abilities(faction: Any) -> list[str]:
    """Each entry of the pack's ability table names an ability one of its datasheets lists (a
    misspelt entry would leave that ability unmodelled without a word), or for an army rule
    (``keyword``) a keyword one of them has, and its ``units`` are datasheets of the pack."""
    from bagm.data.abilities import AbilityTable

    out = []
    for entry in faction.pack.abilities:
        where = f"ability table entry '{entry.name}'"
        for name in entry.units:
            if faction.units.get(name) is None:
                out.append(f"{where}: unit '{name}' is not a datasheet of {faction.pack.faction}")
        if entry.keyword:  # an army rule units gain by keyword: some datasheet has the keyword
            if not any(entry.keyword.upper() in ds.all_keywords for ds in faction.pack.units):
                out.append(f"{where}: no datasheet of {faction.pack.faction} has the keyword {entry.keyword}")
            continue
        table = AbilityTable([entry])
        if not any(table.find(a, ds.name) is not None for ds in faction.pack.units for a in ds.abilities):
            out.append(f"{where}: no datasheet of {faction.pack.faction} lists it")
    return out


def _round_equivalent(oval: list[float]) -> float:
    """The diameter of a round base with the area of an oval base (long x short axes, mm)."""
    return round(math.sqrt(oval[0] * oval[1]), 1)


_REFERENCE_ONLY = re.compile(r"\(ref(?:erence)?\.? only\)", re.I)


def _count_span(count: str) -> tuple[int, int] | None:
    """'4-9' -> (4, 9), '1' -> (1, 1); None when unreadable."""
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", count.strip())
    return (int(m[1]), int(m[2] or m[1])) if m else None


def _check_profiles(ds: Any) -> list[str]:
    """Problems in a datasheet's models, weapons and base sizes that no single field shows."""
    out: list[str] = []
    if not ds.models:
        out.append(f"{ds.name}: no model profile (the engine cannot play it)")
    if ds.weapons and not any(w.default for w in ds.weapons):
        out.append(f"{ds.name}: no weapon is carried by default (it could neither shoot nor "
                   f"fight)")
    out += [f"{ds.name}: weapon '{w.name}' is a reference profile but carried by default"
            for w in ds.weapons if w.default and _REFERENCE_ONLY.search(w.name)]
    out += [f"{ds.name}: model '{m.name}' has a melee-only invulnerable save "
            f"{m.invuln_melee}+ no better than its {m.invuln}+"
            for m in ds.models if m.invuln_melee is not None and m.invuln is not None
            and m.invuln_melee >= m.invuln]
    spans = [_count_span(m.count) for m in ds.models if m.count is not None
             and not _REFERENCE_ONLY.search(m.name)]
    counted = [m for m in ds.models if not _REFERENCE_ONLY.search(m.name)]
    if counted and len(spans) == len(counted) and all(spans):
        lo = sum(s[0] for s in spans if s)
        hi = sum(s[1] for s in spans if s)
        # the Field Manual's sizes: a Boarding Actions size of half of one (Mustering) is a
        # part of the datasheet's unit, not its composition
        for size in sorted(ds.points):
            if not lo <= size <= hi:
                out.append(f"{ds.name}: its model counts add up to {lo}-{hi} models, not the "
                           f"{size} models it is costed for")
    for fix in ds.corrections:
        target = fix.model or fix.weapon
        items = ds.models if fix.model else ds.weapons
        found = [x for x in items if norm(x.name) == norm(target)]
        if not found:
            out.append(f"{ds.name}: correction of '{target}' matches no "
                       f"{'model' if fix.model else 'weapon'}")
        for x in found:
            out += [f"{ds.name}: '{target}' has {k} {getattr(x, k, None)!r}, its correction "
                    f"says {v!r}" for k, v in fix.values.items() if getattr(x, k, None) != v]
    for owner in [ds, *ds.models]:
        oval = owner.base_oval
        where = ds.name if owner is ds else f"{ds.name}: model '{owner.name}'"
        if oval is not None and (len(oval) != 2 or owner.base != _round_equivalent(oval)):
            out.append(f"{where}: base {owner.base} is not the round equivalent of the oval "
                       f"base {oval}")
    return out


def _rule_units(rule: Any) -> list[str]:
    names: list[str] = list(getattr(rule, "units", []) or [])
    for attr in ("select", "count", "per", "needs", "others"):
        sel = getattr(rule, attr, None)
        if sel is not None:
            names += sel.units
    return names


def _check_leader(ds: Any, faction: Any) -> list[str]:
    """Problems in a datasheet's Leader data.

    Rules Adaptations "Leader Abilities": Battlefield Command targets a Bodyguard unit the
    Leader could normally be attached to, so each Bodyguard must be a unit of the same pack.
    """
    from bagm.data.weapons import Abilities, AttackError

    leader = ds.leader
    out: list[str] = []
    if not ds.is_character:
        out.append(f"{ds.name}: has Leader data but is not a CHARACTER")
    for name, count in Counter(norm(b) for b in leader.bodyguards).items():
        if count > 1:
            out.append(f"{ds.name}: Bodyguard unit '{name}' listed twice")
    for name in leader.bodyguards:
        unit = faction.units.get(name)
        if unit is None:
            out.append(f"{ds.name}: Bodyguard unit '{name}' is not a datasheet of "
                       f"{faction.pack.faction}")
        elif unit is ds:
            out.append(f"{ds.name}: lists itself as a Bodyguard unit")
    own = {norm(a) for a in ds.abilities}
    for name, count in Counter(norm(a.name) for a in leader.abilities).items():
        if count > 1:
            out.append(f"{ds.name}: Leader ability '{name}' listed twice")
    for ability in leader.abilities:
        where = f"{ds.name}: Leader ability '{ability.name}'"
        if norm(ability.name) not in own:
            out.append(f"{where} is not one of its abilities")
        for effect in ability.effects or []:
            try:
                unknown = Abilities.from_data(effect.weapon_abilities).unknown
            except AttackError as exc:
                out.append(f"{where}: {exc}")
                continue
            out += [f"{where}: weapon ability '{u}' is not one the engine applies"
                    for u in unknown]
    return out
