"""A datasheet as a person reads it: profiles, weapons, abilities, keywords, Starting Strengths.

Shared by ``bagm datasheet`` (text and JSON) and the roster card (HTML and SVG). It lays out
what the data pack holds and decides no rule: legal sizes and their points come from
``bagm.roster.points``, the Detachments that may take a unit from the pack's allowances.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bagm.roster.points import legal_sizes, points_for

__all__ = ["DatasheetView", "ability_text", "adaptation_text", "profile_row", "weapon_abilities",
           "weapon_row"]

PROFILE_COLUMNS = ("M", "T", "Sv", "W", "Ld", "OC")
WEAPON_COLUMNS = ("Range", "A", "BS", "S", "AP", "D")  # "WS" for melee


def ability_text(ab: Any) -> str:
    """A weapon ability as printed on a datasheet: 'Sustained Hits 1', 'Anti-Infantry 4+'."""
    name = " ".join(w.capitalize() for w in ab.name.split())
    if ab.name == "anti":
        target = (ab.target or "?").title()
        return f"Anti-{target} {ab.value}+" if ab.value is not None else f"Anti-{target}"
    return f"{name} {ab.value}" if ab.value is not None else name


def weapon_abilities(wp: Any) -> str:
    return ", ".join(ability_text(a) for a in wp.abilities)


def _plus(value: int | None) -> str:
    return "-" if value is None else f"{value}+"


def _dice(value: Any) -> str:
    return str(value)


def profile_row(p: Any) -> dict[str, str]:
    """A model profile's characteristics as printed (3+ saves, 6" moves, '-' for none)."""
    return {"name": p.name, "M": "-" if p.M is None else f'{p.M}"', "T": str(p.T),
            "Sv": _plus(p.Sv), "W": str(p.W), "Ld": _plus(p.Ld), "OC": str(p.OC),
            "invuln": _plus(p.invuln) if p.invuln is not None else ""}


def weapon_row(wp: Any) -> dict[str, Any]:
    """A weapon's characteristics as printed: Range, A, BS/WS, S, AP, D and its abilities."""
    return {"name": wp.name, "type": wp.type,
            "Range": "Melee" if wp.type == "melee" else (f'{wp.range}"' if wp.range else "-"),
            "A": _dice(wp.A), "skill": "N/A" if wp.skill is None else f"{wp.skill}+",
            "S": _dice(wp.S), "AP": str(wp.AP) if wp.AP else "0", "D": _dice(wp.D),
            "abilities": weapon_abilities(wp), "option": not wp.default}


@dataclass(frozen=True)
class DatasheetView:
    """A datasheet with what the Boarding Actions data says about it, ready to lay out."""

    datasheet: Any  # Datasheet
    faction: str
    detachments: list[tuple[str, int, list[int]]]  # (name, max, legal sizes there)

    @classmethod
    def of(cls, faction: Any, ds: Any) -> DatasheetView:
        """Gather the Detachments of ``faction`` that may take ``ds``."""
        dets = []
        for det in faction.pack.detachments:
            a = faction.allowance(det, ds.name)
            if a is not None:
                dets.append((det.name, a.max, legal_sizes(ds.points, ds.sizes, a.sizes)))
        return cls(ds, faction.name, dets)

    @property
    def sizes(self) -> list[tuple[int, int | None]]:
        """Legal Starting Strengths on the datasheet (any Detachment) with their points."""
        ds = self.datasheet
        return [(n, points_for(ds.points, n)) for n in legal_sizes(ds.points, ds.sizes, None)]

    @property
    def has_options(self) -> bool:
        return any(not w.default for w in self.datasheet.weapons)

    def as_dict(self) -> dict[str, Any]:
        ds = self.datasheet
        ada = ds.adaptation
        return {
            "name": ds.name, "faction": self.faction, "aliases": list(ds.aliases),
            "keywords": list(ds.keywords), "faction_keywords": list(ds.faction_keywords),
            "base_mm": ds.base,
            "starting_strengths": [{"models": n, "points": p} for n, p in self.sizes],
            "profiles": [{**profile_row(p), "count": p.count} for p in ds.models],
            "weapons": [weapon_row(w) for w in ds.weapons],
            "wargear_options": ([w.name for w in ds.weapons if not w.default]
                                if self.has_options else None),
            "abilities": list(ds.abilities),
            "boarding_actions": None if ada is None else {
                "loses": list(ada.loses), "M": ada.M, "no_split": ada.no_split,
                "split": ada.split, "note": ada.note},
            "leader": None if ds.leader is None else {
                "bodyguards": list(ds.leader.bodyguards),
                "abilities": [a.name for a in ds.leader.abilities]},
            "detachments": [{"name": n, "max": m, "sizes": s} for n, m, s in self.detachments],
            "points_note": ds.points_note,
        }


def adaptation_text(ada: Any) -> str:
    """The Boarding Actions adaptation in one line: 'loses Deep Strike; M 6"; not split'."""
    if ada is None:
        return ""
    parts = []
    if ada.loses:
        parts.append("loses " + ", ".join(ada.loses))
    if ada.M is not None:
        parts.append(f'M becomes {ada.M}"')
    if ada.no_split:
        parts.append("not split into Boarding Squads")
    if ada.split:
        parts.append("splits into " + " + ".join(map(str, ada.split)))
    if ada.note:
        parts.append(ada.note)
    return "; ".join(parts)
