"""The roster file: its pydantic model (the format contract) and loading with line numbers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bagm.data.names import did_you_mean
from bagm.io.yamlsafe import InputError, Located, load


class RosterUnit(BaseModel):
    """One unit of a Boarding Patrol."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    unit: str = Field(min_length=1, description="Datasheet name as printed; aliases accepted.")
    models: int | None = Field(None, ge=1, description="Starting Strength.")
    label: str | None = Field(None, description="Optional display name.")
    warlord: bool = False
    enhancement: str | None = None
    weapon: str | None = Field(None, description="The ranged weapon Trademark Weapon improves.")


class RosterFile(BaseModel):
    """A Boarding Patrol roster (``bagm schema roster``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = None
    faction: str = Field(min_length=1, description="The Army Faction keyword.")
    detachment: str = Field(min_length=1, description="A Boarding Actions Detachment.")
    edition: Literal[2023, 2024] = Field(2024, description="2024: the October 2024 book.")
    battle_ready: bool = False
    units: list[RosterUnit] = Field(default_factory=list)


@dataclass(frozen=True)
class Roster:
    """A loaded roster: the validated file plus where each value came from."""

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


_EXPECTED = {"int_type", "int_parsing", "bool_type", "bool_parsing", "string_type", "list_type",
             "model_type", "dict_type", "literal_error", "greater_than_equal", "string_too_short",
             "int_from_float", "missing"}


def roster_from_data(path: str, located: Located) -> Roster:
    """Validate loaded YAML as a roster; the first problem becomes an ``InputError``."""
    data = located.data
    if not isinstance(data, dict):
        raise InputError(path, "a roster must be a mapping (faction:, detachment:, units:)", line=1,
                         hint="see 'bagm schema roster'")
    try:
        file = RosterFile.model_validate(data)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: (e["type"] != "extra_forbidden",
                                                     located.line(tuple(e["loc"])) or 0))
        raise _explain(path, located, errors[0]) from None
    return Roster(path, file, located)


def load_roster(path: Path | str, text: str | None = None) -> Roster:
    """Read and type-check a roster file (names are checked later by the validator)."""
    return roster_from_data(str(path), load(path, text))


def _explain(path: str, located: Located, err: dict[str, Any]) -> InputError:
    loc = tuple(err["loc"])
    line = located.line(loc)
    field = ".".join(str(p) for p in loc) or "roster"
    kind = err["type"]
    if kind == "extra_forbidden":
        key = str(loc[-1])
        known = RosterUnit.model_fields if "units" in loc else RosterFile.model_fields
        hint = did_you_mean(key, known) or "known keys: " + ", ".join(known)
        return InputError(path, f"unknown key '{key}'", line, hint)
    if kind == "missing":
        where = located.line(loc[:-1])
        return InputError(path, f"missing key '{loc[-1]}'", where, f"add '{loc[-1]}: ...'")
    if kind == "literal_error" and loc[-1] == "edition":
        return InputError(path, f"edition must be 2024 or 2023, not {err.get('input')!r}", line)
    value = err.get("input")
    shown = f" (got {value!r})" if not isinstance(value, (dict, list)) else ""
    return InputError(path, f"{field}: {err['msg'].lower()}{shown}", line)
