"""The data browsing commands in JSON: ``bagm units`` and ``bagm detachments --format json``.

Lays out a faction's pack as the text tables show it; decides no rule (legal sizes come from
``bagm.roster.points.legal_sizes``, mustering rules are described as the tables describe them).
"""

from __future__ import annotations

from typing import Any

from bagm.roster.points import legal_sizes


def units_json(faction: Any, detachment: Any = None) -> dict[str, Any]:
    """Every datasheet of ``faction`` (only those ``detachment`` allows, when given)."""
    out = []
    for ds in faction.pack.units:
        entry: dict[str, Any] = {
            "name": ds.name, "points": [{"models": n, "points": p}
                                        for n, p in sorted(ds.points.items())],
            "keywords": list(ds.keywords), "faction_keywords": list(ds.faction_keywords)}
        if detachment is not None:
            a = faction.allowance(detachment, ds.name)
            if a is None:
                continue
            entry["max"] = a.max
            entry["sizes"] = legal_sizes(ds.points, ds.sizes, a.sizes)
        else:
            entry["sizes"] = legal_sizes(ds.points, ds.sizes, None)
        out.append(entry)
    return {"faction": faction.name,
            "detachment": detachment.name if detachment is not None else None, "units": out}


def detachments_json(faction: Any) -> dict[str, Any]:
    """Every Boarding Actions Detachment of ``faction``: rule, Enhancements, units, mustering."""
    from bagm.render.rich_render import describe_rule
    from bagm.roster.mustering import plain_note

    return {"faction": faction.name, "detachments": [{
        "name": d.name, "rule": d.rule, "faction_keyword": d.faction_keyword,
        "enhancements": [{"name": e.name, "requires_keywords": list(e.requires_keywords),
                          "weapon": e.weapon, "editions": list(e.editions)}
                         for e in d.enhancements],
        "units": [{"unit": a.unit, "max": a.max, "sizes": a.sizes} for a in d.units],
        "mustering_rules": [{"rule": r.rule, "text": describe_rule(r), "note": plain_note(r.note)}
                            for r in d.rules],
        "note": d.note} for d in faction.pack.detachments]}
