"""Result objects of roster checks; renderers in ``bagm.render`` turn them into output."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bagm.roster.findings import Finding, Severity
from bagm.roster.points import POINTS_LIMIT


@dataclass
class ArmyUnit:
    """A roster entry resolved against the data: datasheet, Starting Strength, points."""

    index: int
    name: str  # the datasheet name as printed (or as written, when unknown)
    label: str | None
    models: int | None
    points: int | None
    line: int | None
    warlord: bool = False
    enhancement: str | None = None
    weapon: str | None = None
    wargear: dict[str, Any] | None = None  # the roster's choices as written
    datasheet: Any = None  # Datasheet, or None when the name is unknown
    allowance: Any = None  # the Detachment's Allowance, or None
    loadouts: list[Any] = field(default_factory=list)
    """Its models by wargear (:mod:`bagm.roster.wargear`), when the roster names wargear."""

    @property
    def display(self) -> str:
        return self.label or self.name

    @property
    def keywords(self) -> frozenset[str]:
        return self.datasheet.all_keywords if self.datasheet is not None else frozenset()


@dataclass
class ValidationReport:
    path: str
    title: str = ""
    faction: str | None = None
    detachment: str | None = None
    edition: int = 2024
    battle_ready: bool = False
    units: list[ArmyUnit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    limit: int = POINTS_LIMIT
    input_error: Any = None  # an InputError when the file could not be read or parsed

    @property
    def points(self) -> int:
        return sum(u.points or 0 for u in self.units)

    @property
    def valid(self) -> bool:
        return self.input_error is None and not any(
            f.severity is Severity.ERROR for f in self.findings)

    def as_dict(self) -> dict[str, Any]:
        issues = [f.as_dict() for f in self.findings]
        if self.input_error is not None:
            e = self.input_error
            issues = [{"code": "BA000", "severity": "error", "message": e.message
                       + (f" ({e.hint})" if e.hint else ""), "line": e.line, "unit": None}]
        return {"path": self.path, "valid": self.valid, "points": self.points,
                "limit": self.limit, "issues": issues}
