"""Counters: the values printed on a unit's counter and tiles, as the user reads them off.

The rules summary names the values (COMBAT against each kind of target, DEFENCE, the hit
symbol, the *assault* bonus, the armour save, the damage marker set of a heavy vehicle) but gives
none: they are on physical components. A user gives them as options or in a small YAML counter
file (read with :mod:`bagm.io.yamlsafe`, so a mistake is reported with its line)::

    counters:
      Assault Squad:            # any name you use on the command line
        kind: infantry          # infantry | light-vehicle | heavy-vehicle
        defence: 5
        on_hit: flipped         # the hit symbol: destroyed | flipped
        combat: {infantry: 3, light-vehicle: 2, heavy-vehicle: X}
        assault: 1              # the assault ability's bonus (leave out: no assault ability)
        save: 5                 # armour save (roll this or more)
    damage_sets:
      grey: {1: tracks, 2: hull, 3: secondary weapon, 4: primary weapon, 5: hull, 6: explosion}

(These numbers are an example of the format, not any real counter's values.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from bagm.blackreach.odds import BlackReachError


class Kind(str, Enum):
    """What a counter is (UNITS: infantry, light and heavy vehicles)."""

    infantry = "infantry"
    light = "light-vehicle"
    heavy = "heavy-vehicle"

    @property
    def vehicle(self) -> bool:
        return self is not Kind.infantry


class OnHit(str, Enum):
    """The hit symbol on a counter (EFFECT OF A HIT): removed, or flipped over."""

    destroyed = "destroyed"
    flipped = "flipped"


# HITTING A HEAVY VEHICLE: the kinds of damage marker the text names
MARKER_EFFECTS = {
    "tracks": "no more movement actions this game; stops if it was moving",
    "hull": "2 SMs as well as the marker; stops if it was moving",
    "secondary weapon": "may not fire its secondary weapon(s) for the rest of the game",
    "primary weapon": "may not fire that primary weapon for the rest of the game",
    "explosion": "destroyed: flipped to its wreck",
}
_PRIMARY_N = re.compile(r"^primary weapon \d$")


def marker_kind(name: str) -> str:
    """A damage marker's kind, checked against the text's list (``primary weapon 2`` allowed)."""
    text = " ".join(str(name).lower().replace("-", " ").replace("_", " ").split())
    if text in MARKER_EFFECTS or _PRIMARY_N.match(text):
        return text
    raise BlackReachError(f"unknown damage marker '{name}': use one of "
                          f"{', '.join(MARKER_EFFECTS)} (or 'primary weapon 2' for a numbered one)")


def marker_effect(kind: str) -> str:
    return MARKER_EFFECTS.get(kind, MARKER_EFFECTS["primary weapon"])


@dataclass(frozen=True)
class Counter:
    """A counter's values as the user gives them; ``None`` means not given (or X for COMBAT)."""

    name: str = ""
    kind: Kind = Kind.infantry
    defence: int | None = None
    on_hit: OnHit | None = None
    combat: Mapping[Kind, int | None] = field(default_factory=dict)  # None: a COMBAT of X
    assault: int | None = None
    save: int | None = None
    twin_linked: bool = False
    front_armour: bool = False
    damage_set: Mapping[int, str] | None = None
    level: int | None = None

    def combat_against(self, kind: Kind) -> int | None:
        """COMBAT against ``kind`` (None for X); refused when the counter file does not say."""
        if kind not in self.combat:
            raise BlackReachError(f"{self.name or 'the counter'} has no COMBAT against {kind.value} "
                                  f"in the counter file: add combat: {{{kind.value}: N}} (X if it "
                                  "has none) or give the value as an option")
        return self.combat[kind]


@dataclass
class CounterFile:
    """The counters and damage marker sets of one counter file."""

    path: str
    counters: dict[str, Counter] = field(default_factory=dict)
    damage_sets: dict[str, dict[int, str]] = field(default_factory=dict)

    def counter(self, name: str) -> Counter:
        key = _key(name)
        for n, c in self.counters.items():
            if _key(n) == key:
                return c
        known = ", ".join(sorted(self.counters)) or "none"
        raise BlackReachError(f"{self.path}: no counter named '{name}' (counters: {known})")

    def damage_set(self, name: str) -> dict[int, str]:
        for n, s in self.damage_sets.items():
            if _key(n) == _key(name):
                return s
        known = ", ".join(sorted(self.damage_sets)) or "none"
        raise BlackReachError(f"{self.path}: no damage set named '{name}' (damage_sets: {known})")


def _key(name: str) -> str:
    return " ".join(name.lower().split())


_FIELDS = {"kind", "defence", "on_hit", "combat", "assault", "save", "twin_linked",
           "front_armour", "damage_set", "level"}


def load_counters(path: Path | str) -> CounterFile:
    """Read a counter file; any mistake is an ``InputError`` with the file and line."""
    from bagm.io.yamlsafe import InputError, load

    doc = load(path)
    name = str(path)
    data = doc.data

    def bad(loc: tuple[str | int, ...], message: str, hint: str | None = None) -> InputError:
        return InputError(name, message, line=doc.line(loc), hint=hint)

    if not isinstance(data, dict):
        raise bad((), "a counter file is a mapping", "start with 'counters:'")
    unknown = set(data) - {"counters", "damage_sets"}
    if unknown:
        key = min(map(str, unknown))
        raise bad((key,), f"unknown section '{key}'", "the sections are counters and damage_sets")
    out = CounterFile(name)
    sets = data.get("damage_sets") or {}
    if not isinstance(sets, dict):
        raise bad(("damage_sets",), "damage_sets is a mapping of set names to markers")
    for set_name, markers in sets.items():
        loc: tuple[str | int, ...] = ("damage_sets", set_name)
        if not isinstance(markers, dict) or not markers:
            raise bad(loc, f"damage set '{set_name}' maps each location score to a marker",
                      "e.g. {1: tracks, 2: hull, 6: explosion}")
        table: dict[int, str] = {}
        for score, marker in markers.items():
            if isinstance(score, bool) or not isinstance(score, int) or not 1 <= score <= 12:
                raise bad(loc + (score,), f"location score '{score}' is not a number from 1 to 12")
            try:
                table[score] = marker_kind(str(marker))
            except BlackReachError as exc:
                raise bad(loc + (score,), str(exc)) from None
        out.damage_sets[str(set_name)] = table
    counters = data.get("counters") or {}
    if not isinstance(counters, dict):
        raise bad(("counters",), "counters is a mapping of counter names to their values")
    for cname, values in counters.items():
        loc = ("counters", cname)
        if not isinstance(values, dict):
            raise bad(loc, f"counter '{cname}' needs its values as a mapping", "e.g. defence: 5")
        extra = set(values) - _FIELDS
        if extra:
            key = min(map(str, extra))
            raise bad(loc + (key,), f"unknown value '{key}' for counter '{cname}'",
                      f"the values are {', '.join(sorted(_FIELDS))}")
        out.counters[str(cname)] = _counter(str(cname), values, out, bad)
    return out


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BlackReachError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _field(key: str, value: Any, file: CounterFile) -> Any:
    """One value of a counter, checked."""
    if key == "kind":
        return parse_kind(str(value), "kind")
    if key == "defence":
        return _int(value, "defence", 1, 30)
    if key == "on_hit":
        try:
            return OnHit(str(value).lower())
        except ValueError:
            raise BlackReachError("on_hit is 'destroyed' or 'flipped' (the counter's hit "
                                  "symbol)") from None
    if key == "combat":
        if not isinstance(value, dict):
            raise BlackReachError("combat maps each target kind to a COMBAT value, "
                                  "e.g. {infantry: 3, heavy-vehicle: X}")
        return {parse_kind(str(k), "combat"): parse_combat(v, f"combat {k}")
                for k, v in value.items()}
    if key in ("assault", "save", "level"):
        return _int(value, key, *{"assault": (0, 20), "save": (1, 12), "level": (0, 10)}[key])
    if key in ("twin_linked", "front_armour"):
        if not isinstance(value, bool):
            raise BlackReachError(f"{key} is true or false")
        return value
    return file.damage_set(str(value))  # damage_set


def _counter(name: str, values: dict[str, Any], file: CounterFile,
             bad: Callable[[tuple[str | int, ...], str], Exception]) -> Counter:
    fields: dict[str, Any] = {}
    for key, value in values.items():
        try:
            fields[key] = _field(key, value, file)
        except BlackReachError as exc:
            raise bad(("counters", name, key), str(exc)) from None
    return replace(Counter(name), **fields)


_KINDS = {"infantry": Kind.infantry, "light": Kind.light, "light-vehicle": Kind.light,
          "light vehicle": Kind.light, "heavy": Kind.heavy, "heavy-vehicle": Kind.heavy,
          "heavy vehicle": Kind.heavy}


def parse_kind(text: str, what: str = "kind") -> Kind:
    kind = _KINDS.get(" ".join(text.lower().replace("_", "-").split()))
    if kind is None:
        raise BlackReachError(f"{what}: '{text}' is not infantry, light-vehicle or heavy-vehicle")
    return kind


def parse_combat(value: Any, what: str = "COMBAT") -> int | None:
    """A COMBAT value: a number, or X (the unit cannot attack that kind of target)."""
    if isinstance(value, str) and value.strip().upper() == "X":
        return None
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
        value = int(value)
    return _int(value, what, -10, 30)
