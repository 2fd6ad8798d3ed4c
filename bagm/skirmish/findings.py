"""Skirmish findings: what the validator and the data report, each with a stable code.

Codes never change meaning once published. The shape (code, name, severity, message, line) is
:class:`bagm.findings.CodedFinding`, the one Boarding Actions findings have too, so the JSON and
GitHub formats of :mod:`bagm.render.formats` serve both games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from bagm.findings import CodedFinding

# code -> (short name, severity, the rule and its section)
CODES: dict[str, tuple[str, str, str]] = {
    "SK001": ("value-lost", "error", "a number the text lost: supply it with --data"),
    "SK100": ("faction-unknown", "error", "Unit Composition: one of the nine units"),
    "SK101": ("points-over", "error", "Designing A Unit: 100 points"),
    "SK102": ("models-too-few", "error", "Unit Composition: minimum number of models"),
    "SK103": ("models-too-many", "error", "Unit Composition: maximum number of models"),
    "SK110": ("leader-missing", "error", "Unit Composition: a unit is led by one Leader"),
    "SK111": ("leader-not-allowed", "error", "Necron Unit: no Leader"),
    "SK112": ("leader-type-unknown", "error", "Unit Composition: the faction's Leader"),
    "SK120": ("pack-type-unknown", "error", "Unit Composition: the faction's Pack types"),
    "SK121": ("pack-added-to", "error", "Unit Composition: a Pack is never added to"),
    "SK122": ("upgrade-twice", "error", "Unit Composition: one Pack of each upgraded type"),
    "SK123": ("pack-size", "error", "Unit Composition: a Pack type's size limits"),
    "SK124": ("pack-empty", "error", "Unit Composition: a Pack has models"),
    "SK125": ("pack-heavy-assault", "error", "Unit Composition: Heavy and Assault weapons"),
    "SK126": ("swarm-unknown", "error", "Unit Composition: the faction's swarms"),
    "SK130": ("item-unknown", "error", "Armoury: items the faction's armoury lists"),
    "SK131": ("weapon-slots", "error", "Armoury: single- and two-handed weapons"),
    "SK132": ("wargear-twice", "error", "Armoury: no model has the same item twice"),
    "SK133": ("grenade-types", "error", "Throwing Grenades: up to two types"),
    "SK134": ("crafted-twice", "error", "Armoury: one Master-Crafted weapon"),
    "SK135": ("crafted-weapon", "error", "Armoury: Master-Crafted names one of its weapons"),
    "SK136": ("per-unit-item", "error", "Armoury: one per unit"),
    "SK137": ("pack-wargear", "error", "Necron Unit: wargear bought per Pack"),
    "SK138": ("pack-armoury", "error", "Breaking The Mould: the Armoury is for Leaders and upgraded models"),
    "SK140": ("prerequisite", "error", "Armoury: an item's prerequisite"),
    "SK150": ("upgraded-too-many", "error", "Breaking The Mould: at most 4 upgraded models"),
    "SK160": ("skill-unknown", "error", "New Skills: the skill lists"),
    "SK161": ("skill-category", "error", "New Skills: the faction's skill table"),
    "SK162": ("skill-twice", "error", "New Skills: a skill once"),
    "SK163": ("psychic-powers", "error", "Psychic Training: at most 4 powers"),
    "SK170": ("advance-over", "error", "Advances: at most 2 over the starting amount"),
    "SK171": ("characteristic-over", "error", "Advances: no characteristic over 10"),
    "SK172": ("advance-from-zero", "error", "Advances: a 0 is never increased"),
    "SK173": ("characteristic-unknown", "error", "Advances: WS BS S T W I A Ld"),
    "SK180": ("name-twice", "warning", "Roster: tell models and Packs apart"),
}


@dataclass(frozen=True)
class Finding(CodedFinding):
    """One finding: a broken rule (or a lost value) with its line and how to fix it."""

    CODES: ClassVar[Mapping[str, tuple[str, Any, str]]] = CODES

    where: str | None = None  # the model or Pack it is about
    fix: str | None = None

    @property
    def severity(self) -> str:
        return str(self.CODES[self.code][1])

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "name": self.name, "severity": self.severity,
                "message": self.message, "line": self.line, "where": self.where, "fix": self.fix,
                "rule": self.rule}
