"""Form Boarding Squads (mission sequence step 5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from string import ascii_uppercase

from bagm.roster.points import half_up
from bagm.roster.report import ArmyUnit

SPLIT_SIZE = 10  # "Each unit ... that has a Starting Strength of 10 must now be split"


@dataclass(frozen=True)
class Squad:
    name: str  # display name, unique in the army
    unit: str  # datasheet name
    models: int | None
    points: int | None
    split_from: str | None = None
    source: int = -1  # the index of the roster's unit it comes from (two units may share a display name)

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "unit": self.unit, "models": self.models, "points": self.points}


@dataclass
class SquadsResult:
    path: str
    units: list[Squad] = field(default_factory=list)

    @property
    def points(self) -> int:
        return sum(s.points or 0 for s in self.units)

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "units": [s.as_dict() for s in self.units],
                "points": self.points}


def form_boarding_squads(path: str, army: list[ArmyUnit]) -> SquadsResult:
    """Split every 10-model unit into two 5-model units, each at half the points rounding up
    (or as the datasheet's Boarding Actions adaptation says)."""
    result = SquadsResult(path)
    letters: dict[str, int] = {}
    for i, u in enumerate(army):
        parts = squad_sizes(u)
        if len(parts) < 2:
            result.units.append(Squad(u.display, u.name, u.models, u.points, source=i))
            continue
        half = half_up(u.points) if u.points is not None else None
        for size in parts:
            n = letters.get(u.display, 0)
            letters[u.display] = n + 1
            result.units.append(Squad(f"{u.display} {_letter(n)}", u.name, size, half,
                                      split_from=u.display, source=i))
    return result


def squad_sizes(u: ArmyUnit) -> list[int]:
    """The sizes of the units ``u`` becomes: [5, 5] for a Starting Strength of 10, unless its
    adaptation keeps it whole (Termagants...) or splits it otherwise (11 models into 5 + 6)."""
    ada = u.datasheet.adaptation if u.datasheet is not None else None
    if u.models is None or (ada is not None and ada.no_split):
        return [u.models] if u.models is not None else []
    if ada is not None and ada.split and sum(ada.split) == u.models:
        return list(ada.split)
    if u.models == SPLIT_SIZE:
        return [SPLIT_SIZE // 2, SPLIT_SIZE // 2]
    return [u.models]


def _letter(n: int) -> str:
    return ascii_uppercase[n] if n < 26 else f"#{n + 1}"
