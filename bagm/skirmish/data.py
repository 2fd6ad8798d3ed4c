"""The data of Skirmish Battles: every number the text gives, and the ones it lost.

The bundled ``skirmish.yaml`` holds the text's numbers with their sections. A value the text
lost is a :class:`Lost` marker; a user supplies it in an overlay file (``--data``), which may
fill lost values only: a printed number is the rules text and is never overridden. Reading a
lost value that nobody supplied raises :class:`LostValue`, which validators turn into an SK001
finding (never a guess presented as fact).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bagm.errors import BagmError
from bagm.io.yamlsafe import InputError, Located, load, load_trusted

BUNDLED = Path(__file__).with_name("skirmish.yaml")
Path_ = tuple[str | int, ...]
PROFILE_KEYS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv")
KINDS = ("points", "profile", "weapons", "items", "skill_row", "advance_table", "text")


@dataclass(frozen=True)
class Lost:
    """A value the text lost: what it was, what kind a supplied value must be, where."""

    what: str
    kind: str
    path: Path_
    section: str | None

    def __str__(self) -> str:
        return f"lost: {self.what}"


class LostValue(BagmError):
    """A lost value was needed and no overlay supplied it."""

    def __init__(self, lost: Lost):
        self.lost = lost
        super().__init__(f"the text lost {lost.what}" + (f" ({lost.section})" if lost.section else ""))

    @property
    def key(self) -> str:
        return ".".join(str(p) for p in self.lost.path)

    @property
    def fix(self) -> str:
        return f"supply {self.key} ({self.lost.kind}) in a --data overlay"


@dataclass(frozen=True)
class Supplied:
    """Where an overlay supplied a lost value (a later overlay may supply it again)."""

    file: str
    line: int | None
    example: bool
    lost: Lost


def _mark(node: Any, path: Path_, section: str | None) -> Any:
    """Turn ``{lost: ..., kind: ...}`` mappings into :class:`Lost` markers, recursively."""
    if isinstance(node, dict):
        if "lost" in node and set(node) <= {"lost", "kind"}:
            return Lost(str(node["lost"]), str(node.get("kind", "text")), path, section)
        section = node.get("section", section) if isinstance(node.get("section"), str) else section
        return {k: _mark(v, path + (k,), section) for k, v in node.items()}
    if isinstance(node, list):
        return [_mark(v, path + (i,), section) for i, v in enumerate(node)]
    return node


class SkirmishData:
    """The text's data with overlays applied. Look values up with :meth:`get`."""

    def __init__(self, raw: dict[str, Any], supplied: dict[Path_, Supplied] | None = None):
        self.raw = raw
        self.supplied: dict[Path_, Supplied] = supplied or {}

    # -- lookups ---------------------------------------------------------------------------
    def node(self, *path: str | int) -> Any:
        """The value at ``path`` as stored: possibly a :class:`Lost` marker."""
        cur: Any = self.raw
        for p in path:
            cur = cur[p]
        return cur

    def get(self, *path: str | int) -> Any:
        """The value at ``path``; raises :class:`LostValue` when the text lost it."""
        value = self.node(*path)
        if isinstance(value, Lost):
            raise LostValue(value)
        return value

    def lost(self) -> list[Lost]:
        """Every value still lost (not supplied by an overlay), in file order."""
        return list(_walk_lost(self.raw))

    def all_lost(self) -> list[Lost]:
        """Every value the text lost, supplied or not (the bundled markers)."""
        return list(_walk_lost(bundled_raw()))

    @property
    def example_files(self) -> list[str]:
        return sorted({s.file for s in self.supplied.values() if s.example})

    def faction_key(self, name: str) -> str | None:
        """The key of a faction by key or name, case and spacing aside."""
        want = _norm(name)
        for key, f in self.raw["factions"].items():
            if want in (_norm(key), _norm(f["name"])):
                return str(key)
        return None

    def faction_hint(self, name: str) -> str:
        names = [f["name"] for f in self.raw["factions"].values()]
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
        return f"did you mean '{close[0]}'?" if close else "known: " + ", ".join(names)


def _norm(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _walk_lost(node: Any) -> Iterator[Lost]:
    if isinstance(node, Lost):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _walk_lost(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk_lost(v)


@lru_cache(maxsize=1)
def bundled_raw() -> dict[str, Any]:
    raw = load_trusted(BUNDLED)
    return _mark(raw, (), None)  # type: ignore[no-any-return]


def _copy(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _copy(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node


def load_data(overlays: Iterable[Path] = ()) -> SkirmishData:
    """The bundled data with each overlay applied in order."""
    overlays = list(overlays)
    if not overlays:
        return SkirmishData(bundled_raw())
    raw = _copy(bundled_raw())
    supplied: dict[Path_, Supplied] = {}
    for path in overlays:
        doc = load(path)
        if not isinstance(doc.data, dict):
            raise InputError(str(path), "a Skirmish data overlay is a mapping", line=1,
                             hint="see rosters/skirmish/EXAMPLE-overlay.skirmish-data.yaml")
        example = doc.data.get("example") is True
        body = {k: v for k, v in doc.data.items() if k not in ("example", "note", "skirmish_data")}
        _apply(raw, body, (), doc, str(path), example, supplied)
    return SkirmishData(raw, supplied)


def _apply(base: dict[str, Any], over: dict[Any, Any], path: Path_, doc: Located, file: str,
           example: bool, supplied: dict[Path_, Supplied]) -> None:
    for key, value in over.items():
        here = path + (key,)
        line = doc.line(here)
        if key not in base:
            close = difflib.get_close_matches(str(key), [str(k) for k in base], n=1)
            hint = f"did you mean '{close[0]}'?" if close else "only keys of the bundled data"
            raise InputError(file, f"unknown key '{'.'.join(map(str, here))}'", line=line, hint=hint)
        current = base[key]
        if here in supplied:  # supplied by an earlier overlay: this one takes over
            current = supplied[here].lost
        if isinstance(current, Lost):
            base[key] = check_kind(current, value, file, line)
            supplied[current.path] = Supplied(file, line, example, current)
        elif isinstance(current, dict) and isinstance(value, dict):
            _apply(current, value, here, doc, file, example, supplied)
        else:
            raise InputError(file, f"'{'.'.join(map(str, here))}' is printed in the text "
                             f"({current!r}); an overlay only supplies lost values", line=line,
                             hint="remove it from the overlay")


def _int(value: Any, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def check_kind(lost: Lost, value: Any, file: str, line: int | None) -> Any:
    """Check a supplied value against the kind the lost one had; return it normalised."""
    where = ".".join(map(str, lost.path))

    def bad(why: str) -> InputError:
        return InputError(file, f"{where}: {why}", line=line)

    kind = lost.kind
    if kind == "points":
        if not _int(value, 0, 1000):
            raise bad("a points cost is a whole number from 0 to 1000")
        return value
    if kind == "profile":
        if not isinstance(value, dict) or set(value) != set(PROFILE_KEYS):
            raise bad("a profile gives exactly " + ", ".join(PROFILE_KEYS))
        for k in PROFILE_KEYS:
            v = value[k]
            if k == "Sv":
                if v is not None and not _int(v, 2, 6):
                    raise bad("Sv is 2 to 6 (for 2+ to 6+) or null for none")
            elif not _int(v, 0, 10):
                raise bad(f"{k} is a whole number from 0 to 10")
        return dict(value)
    if kind == "skill_row":
        if (not isinstance(value, list) or len(value) != 5
                or not all(v == "A" or _int(v, 0, 10) for v in value)):
            raise bad("a skill row is five entries (Combat, Shooting, Strength, Agility, "
                      "Intelligence), each A or a number")
        return list(value)
    if kind == "weapons":
        return _check_weapons(value, bad)
    if kind == "items":
        return _check_items(value, bad)
    if kind == "advance_table":
        return _check_advance_table(value, bad)
    if not isinstance(value, str) or not value.strip():
        raise bad("give a text")
    return value


def _check_weapons(value: Any, bad: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not set(value) <= {"heavy", "assault", "per_pack"}:
        raise bad("give heavy: {NAME: {cost: N, hands: 1|2}}, assault: {...} and per_pack: N")
    out: dict[str, Any] = {"heavy": {}, "assault": {}, "per_pack": value.get("per_pack", 0)}
    if not _int(out["per_pack"], 0, 20):
        raise bad("per_pack (Heavy or Assault weapons a Pack may take) is a number from 0 to 20")
    for group in ("heavy", "assault"):
        items = value.get(group) or {}
        if not isinstance(items, dict):
            raise bad(f"{group} is a mapping of weapon names to {{cost, hands}}")
        for name, item in items.items():
            if not isinstance(item, dict) or not _int(item.get("cost"), 0, 1000) \
                    or item.get("hands", 2) not in (1, 2):
                raise bad(f"{group} weapon '{name}' needs cost: N (and hands: 1 or 2)")
            out[group][str(name)] = {"cost": item["cost"], "kind": "weapon",
                                     "hands": item.get("hands", 2), group: True}
    return out


def _check_items(value: Any, bad: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad("give armoury items: {NAME: {cost: N, kind: weapon|wargear|grenade, hands: 1|2}}")
    out: dict[str, Any] = {}
    for name, item in value.items():
        if not isinstance(item, dict) or not _int(item.get("cost"), 0, 1000) \
                or item.get("kind", "weapon") not in ("weapon", "wargear", "grenade") \
                or item.get("hands", 1) not in (1, 2):
            raise bad(f"item '{name}' needs cost: N, kind: weapon|wargear|grenade (and hands: 1|2)")
        out[str(name)] = {"cost": item["cost"], "kind": item.get("kind", "weapon"),
                          **({"hands": item.get("hands", 1)} if item.get("kind", "weapon") == "weapon" else {})}
    return out


ADVANCE_RESULTS = ("skill", "breaking_the_mould", "none")


def parse_advance(text: str) -> tuple[str, int] | str | None:
    """``"WS+1"`` -> ("WS", 1); ``"skill"``, ``"breaking_the_mould"``, ``"none"`` as they are."""
    t = text.strip()
    if t in ADVANCE_RESULTS:
        return t
    if "+" in t:
        stat, _, n = t.partition("+")
        if stat.strip() in PROFILE_KEYS[:-1] and n.strip().isdigit() and 1 <= int(n) <= 2:
            return stat.strip(), int(n)
    return None


def _check_advance_table(value: Any, bad: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not set(value) <= {"dice", "results"} \
            or not isinstance(value.get("results"), dict):
        raise bad("give dice: 2D6 (or D6, D66) and results: {ROLL or FROM-TO: RESULT}")
    dice = str(value.get("dice", "2D6")).upper()
    if dice not in ("D6", "2D6", "D66"):
        raise bad("dice is D6, 2D6 or D66")
    results: dict[int, str] = {}
    for key, res in value["results"].items():
        lo, _, hi = str(key).partition("-")
        if not lo.strip().isdigit() or (hi and not hi.strip().isdigit()):
            raise bad(f"roll '{key}' is a number or FROM-TO")
        if not isinstance(res, str) or parse_advance(res) is None:
            raise bad(f"result '{res}' is STAT+1, STAT+2, skill, breaking_the_mould or none")
        for r in range(int(lo), int(hi or lo) + 1):
            results[r] = res.strip()
    return {"dice": dice, "results": results}
