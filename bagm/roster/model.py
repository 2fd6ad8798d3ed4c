"""The roster file: its data classes (the format contract) and loading with line numbers.

``bagm schema roster`` exports these classes' JSON Schema through pydantic; loading checks
them with ``bagm.io.shape`` (same classes, no pydantic import on the hot path).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bagm.data.names import did_you_mean
from bagm.io.shape import ShapeError, build
from bagm.io.yamlsafe import InputError, Located, load

# strict: a roster says `models: 10`, not `models: "10"`; both checkers refuse the same input
CONFIG: dict[str, Any] = {"extra": "forbid", "strict": True, "use_attribute_docstrings": True}


@dataclass(init=False, eq=False)  # built by bagm.io.shape or pydantic; treat as read-only
class RosterUnit:
    """One unit of a Boarding Patrol."""

    __pydantic_config__ = CONFIG
    unit: str
    """Datasheet name as printed; case-insensitive; aliases accepted."""
    models: int | None = None
    """Starting Strength; may be left out when only one is legal."""
    label: str | None = None
    """Optional display name."""
    warlord: bool = False
    enhancement: str | None = None
    weapon: str | None = None
    """The ranged weapon the Trademark Weapon Enhancement improves."""
    wargear: dict[str, int | dict[str, int]] | None = None
    """Wargear options taken: item -> how many models carry it (``{storm bolter: 4}``), or a
    model profile -> such a mapping for those models only (``{Sergeant: {power fist: 1}}``).
    Items not named keep the datasheet's default wargear."""


@dataclass(init=False, eq=False)
class RosterFile:
    """A Boarding Patrol roster."""

    __pydantic_config__ = CONFIG
    faction: str
    """The Army Faction keyword, e.g. 'Grey Knights'."""
    detachment: str = ""
    """One Boarding Actions Detachment of that faction. Left out, it reads as '' so that the
    roster gets every finding (BA101 and the rest), not one refusal."""
    name: str | None = None
    edition: Literal[2024, 2023] = 2024
    """2024: the October 2024 book (default); 2023: the original rules."""
    battle_ready: bool = False
    """Every model painted to a Battle Ready standard (+10 VP)."""
    units: list[RosterUnit] = field(default_factory=list)


@dataclass(frozen=True)
class Roster:
    """A loaded roster: the checked file plus where each value came from."""

    path: str
    file: RosterFile
    source: Located

    def line(self, *loc: str | int) -> int | None:
        return self.source.line(tuple(loc))

    def unit_line(self, index: int) -> int | None:
        return self.line("units", index)

    @property
    def title(self) -> str:
        return self.file.name or Path(self.path).stem


MAX_UNITS = 250  # the cheapest units cost several points each; refuses absurd files quickly

KEYS = {"roster": [f for f in RosterFile.__dataclass_fields__],
        "unit": [f for f in RosterUnit.__dataclass_fields__]}


def roster_from_data(path: str, located: Located) -> Roster:
    """Check loaded YAML as a roster; the first problem becomes an ``InputError``."""
    data = located.data
    if not isinstance(data, dict):
        raise InputError(path, "a roster must be a mapping (faction:, detachment:, units:)", line=1,
                         hint="see 'bagm schema roster'")
    units = data.get("units")
    if isinstance(units, list) and len(units) > MAX_UNITS:
        raise InputError(path, f"{len(units):,} units: no 500-point Boarding Patrol has more than "
                         f"{MAX_UNITS}", located.line(("units",)), "is this really a roster?")
    try:
        file = build(RosterFile, data)
    except ShapeError as exc:
        raise _explain(path, located, exc) from None
    return Roster(path, file, located)


def load_roster(path: Path | str, text: str | None = None) -> Roster:
    """Read and check a roster file (names are checked later by the validator). Another
    tool's army list is named as such, with how to import it."""
    try:
        return roster_from_data(str(path), load(path, text))
    except InputError:
        if text is None:
            from bagm.roster.foreign import kind_of, not_a_roster

            kind = kind_of(path)
            if kind is not None:
                raise not_a_roster(path, kind) from None
        raise


def _explain(path: str, located: Located, err: ShapeError) -> InputError:
    loc = err.loc
    line = located.line(loc)
    if err.kind == "extra":
        key = str(loc[-1])
        known = KEYS["unit"] if "units" in loc else KEYS["roster"]
        hint = did_you_mean(key, known) or "known keys: " + ", ".join(known)
        return InputError(path, err.message, line, hint)
    if err.kind == "missing":
        return InputError(path, err.message, located.line(loc[:-1]), f"add '{loc[-1]}: ...'")
    shown = "" if isinstance(err.value, (dict, list)) else f" (got {err.value!r})"
    return InputError(path, f"{_where(loc)} {err.message}{shown}", line)


def _where(loc: tuple[str | int, ...]) -> str:
    """A place in a roster as a player says it: "unit 1's 'models'", not "units.0.models"."""
    if len(loc) >= 2 and loc[0] == "units" and isinstance(loc[1], int):
        rest = " ".join(f"'{p}'" for p in loc[2:])
        return f"unit {loc[1] + 1}" + (f"'s {rest}" if rest else "")
    return " ".join(f"'{p}'" for p in loc) if loc else "the roster"
