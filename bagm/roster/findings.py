"""Findings: what the validator reports, each with a stable code.

Codes never change meaning once published; CI configurations and other tools match on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from bagm.findings import CodedFinding


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


# code -> (short name, severity, the rule it enforces)
CODES: dict[str, tuple[str, Severity, str]] = {
    "BA100": ("faction-unknown", Severity.ERROR, "Select Army Faction"),
    "BA101": ("detachment-unknown", Severity.ERROR, "Select Detachment Rules"),
    "BA102": ("units-missing", Severity.ERROR, "Select Units"),
    "BA110": ("unit-unknown", Severity.ERROR, "Select Units"),
    "BA111": ("unit-faction", Severity.ERROR, "Select Units: one Army Faction"),
    "BA112": ("unit-not-allowed", Severity.ERROR, "Select Units: Detachment's Mustering Rules"),
    "BA113": ("unit-maximum", Severity.ERROR, "Select Units: maximum of that unit"),
    "BA114": ("size-illegal", Severity.ERROR, "Select Units: valid Starting Strengths"),
    "BA115": ("size-missing", Severity.ERROR, "Select Units: note the number of models"),
    "BA116": ("points-unknown", Severity.ERROR, "Select Units: points value"),
    "BA120": ("epic-hero-twice", Severity.ERROR, "Select Units: the same EPIC HERO once"),
    "BA130": ("warlord-missing", Severity.ERROR, "Select Warlord"),
    "BA131": ("warlord-several", Severity.ERROR, "Select Warlord"),
    "BA132": ("warlord-not-character", Severity.ERROR, "Select Warlord: a CHARACTER if any"),
    "BA140": ("enhancement-unknown", Severity.ERROR, "Select Enhancements"),
    "BA141": ("enhancement-not-character", Severity.ERROR, "Enhancements: CHARACTER models"),
    "BA142": ("enhancement-epic-hero", Severity.ERROR, "Enhancements: excluding EPIC HEROES"),
    "BA143": ("enhancement-twice", Severity.ERROR, "Enhancements: the same one once"),
    "BA144": ("enhancement-too-many", Severity.ERROR, "Enhancements: how many"),
    "BA145": ("enhancement-not-warlord", Severity.ERROR, "Enhancements (2023): the Warlord only"),
    "BA146": ("enhancement-faction", Severity.ERROR, "Enhancements: Detachment's Faction keyword"),
    "BA147": ("enhancement-bearer", Severity.ERROR, "Enhancements: the bearer's keywords"),
    "BA148": ("enhancement-barred", Severity.ERROR, "Enhancements: the Detachment bars them"),
    "BA150": ("weapon-missing", Severity.ERROR, "Trademark Weapon: note the weapon"),
    "BA151": ("weapon-unknown", Severity.ERROR, "Trademark Weapon: a weapon the bearer has"),
    "BA152": ("weapon-not-eligible", Severity.ERROR, "Trademark Weapon: ranged, not Torrent"),
    "BA153": ("weapon-unused", Severity.WARNING, "Trademark Weapon: weapon without it"),
    "BA154": ("weapon-unchecked", Severity.WARNING, "Trademark Weapon: no weapon data"),
    "BA160": ("limit", Severity.ERROR, "Detachment's Mustering Rules: limit"),
    "BA161": ("ratio", Severity.ERROR, "Detachment's Mustering Rules: ratio"),
    "BA162": ("requires", Severity.ERROR, "Detachment's Mustering Rules: requirement"),
    "BA163": ("exclusive", Severity.ERROR, "Detachment's Mustering Rules: exclusive units"),
    "BA164": ("keyword-group", Severity.ERROR, "Detachment's Mustering Rules: keyword group"),
    "BA165": ("excludes", Severity.ERROR, "Detachment's Mustering Rules: a unit excludes others"),
    "BA170": ("points-over", Severity.ERROR, "Start your Army Roster: up to 500 points"),
    "BA180": ("label-twice", Severity.WARNING, "Army Roster: tell units apart"),
    "BA190": ("wargear-unknown", Severity.ERROR, "Wargear: an option of the datasheet"),
    "BA191": ("wargear-too-many", Severity.ERROR, "Wargear: how many models can take it"),
    "BA192": ("wargear-conflict", Severity.ERROR, "Wargear: choices that cannot be combined"),
    "BA193": ("wargear-profile-unknown", Severity.ERROR, "Wargear: a model profile of the unit"),
    "BA194": ("wargear-unchecked", Severity.WARNING, "Wargear: no options recorded"),
    "BA195": ("wargear-count", Severity.ERROR, "Wargear: a count of the unit's models"),
    "BA196": ("wargear-partly-checked", Severity.WARNING,
              "Wargear: bounds the data does not read"),
    "BA197": ("wargear-unit-bound", Severity.ERROR,
              "Wargear: a choice made only beside another item or kind of model, or items "
              "the unit's models carry together"),
}


@dataclass(frozen=True)
class Finding(CodedFinding):
    CODES: ClassVar[Mapping[str, tuple[str, Any, str]]] = CODES

    unit: str | None = None

    @property
    def severity(self) -> Severity:
        return Severity(self.CODES[self.code][1])

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "severity": self.severity.value, "message": self.message,
                "line": self.line, "unit": self.unit}
