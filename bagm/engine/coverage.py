"""What of the data the engine plays: ``bagm data coverage``.

Per faction and in total, four counts of (modelled, all): the Detachment rules, the Detachment
Enhancements, the Leader abilities of the faction's datasheets, and the abilities that the units
of a folder of rosters (the bundled ``rosters/``) list, one per unit of a roster. "Modelled" is
what a game does not list as not modelled: the same questions muster asks
(:func:`bagm.engine.game.muster.modelled_rule`, :func:`~bagm.engine.game.muster.modelled_enhancement`,
:func:`bagm.data.abilities.played`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("detachment_rules", "enhancements", "leader_abilities", "ability_occurrences")
"""The counts, in the order tables show them."""

LABELS = {"detachment_rules": "Detachment rules", "enhancements": "Enhancements",
          "leader_abilities": "Leader abilities", "ability_occurrences": "Ability occurrences"}


@dataclass
class Count:
    modelled: int = 0
    all: int = 0
    missing: dict[str, int] = field(default_factory=dict)
    """What is not modelled, by name, and how often."""

    def add(self, modelled: bool, name: str) -> None:
        self.all += 1
        if modelled:
            self.modelled += 1
        else:
            self.missing[name] = self.missing.get(name, 0) + 1

    def pair(self) -> list[int]:
        return [self.modelled, self.all]


def _counts() -> dict[str, Count]:
    return {k: Count() for k in KINDS}


@dataclass
class Coverage:
    """The four counts per faction (by its name) and in total, and the rosters read."""

    factions: dict[str, dict[str, Count]] = field(default_factory=dict)
    rosters: list[str] = field(default_factory=list)

    @property
    def total(self) -> dict[str, Count]:
        out = _counts()
        for counts in self.factions.values():
            for k, c in counts.items():
                out[k].modelled += c.modelled
                out[k].all += c.all
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``total`` and ``factions`` as [modelled, all] per kind, ``rosters`` (how
        many were read) and ``not_modelled`` (per faction and kind, each name and how often)."""
        return {"total": {k: c.pair() for k, c in self.total.items()},
                "factions": {name: {k: c.pair() for k, c in counts.items()}
                             for name, counts in sorted(self.factions.items())},
                "rosters": len(self.rosters),
                "not_modelled": {name: {k: dict(sorted(c.missing.items(), key=lambda kv: (-kv[1], kv[0])))
                                        for k, c in counts.items() if c.missing}
                                 for name, counts in sorted(self.factions.items())}}


def bundled_rosters() -> Path | None:
    """The example rosters of a source checkout (``rosters/`` beside ``bagm/``); None when bagm
    runs from an installed wheel, which ships none."""
    folder = Path(__file__).resolve().parents[2] / "rosters"
    return folder if folder.is_dir() else None


def coverage(catalog: Any, rosters: Path | None = None) -> Coverage:
    """Count what the engine plays of every pack the catalog sees, and of the abilities the
    units of the rosters in folder ``rosters`` list (none: no occurrences counted)."""
    from bagm.data.abilities import played
    from bagm.engine.game.muster import modelled_enhancement, modelled_rule

    cov = Coverage()
    for faction in catalog.all():
        counts = cov.factions.setdefault(faction.name, _counts())
        for det in faction.pack.detachments:
            if det.rule:
                counts["detachment_rules"].add(modelled_rule(det), f"{det.rule} ({det.name})")
            for e in det.enhancements:
                counts["enhancements"].add(modelled_enhancement(e), f"{e.name} ({det.name})")
        for ds in faction.pack.units:
            for a in ds.leader.abilities if ds.leader is not None else []:
                counts["leader_abilities"].add(bool(a.effects), f"{a.name} ({ds.name})")
    if rosters is not None:
        from bagm.roster.model import load_roster
        from bagm.roster.validate import validate

        for path in sorted(rosters.glob("*.yaml")):
            report = validate(load_roster(path), catalog)
            if not report.faction:
                continue
            counts = cov.factions.setdefault(report.faction, _counts())
            table = catalog.abilities(report.faction)
            for unit in report.units:
                for p in played(unit.datasheet, table):
                    counts["ability_occurrences"].add(p.modelled, p.name)
            cov.rosters.append(path.name)
    return cov
