"""Characteristic values as the catalogues write them ("4+", "D6+1", "-", "Rapid Fire 2")
read as numbers, dice expressions and structured weapon keywords."""

from __future__ import annotations

import re
from typing import Any

_DICE = re.compile(r"^(\d*)D(\d+)(?:([+-])(\d+))?$")
_INT = re.compile(r"^[+]?(\d+)$")
_NA = {"", "-", "n/a", "na", "*", "–", "—"}


def clean_text(text: str | None) -> str:
    return " ".join((text or "").replace("\u00a0", " ").split())


def parse_dice(text: str | None) -> int | str | None:
    """``"3"`` -> 3, ``"d6+1"`` -> ``"D6+1"``, ``"2D6"`` -> ``"2D6"``; ``"-"`` -> None."""
    t = clean_text(text).replace(" ", "").replace('"', "")
    if t.lower() in _NA:
        return None
    m = _INT.match(t)
    if m:
        return int(m.group(1))
    u = t.upper()
    if _DICE.match(u):
        return u
    m = re.match(r"^(\d+)\+$", t)  # a stray "+" (S "4+" in a few entries)
    if m:
        return int(m.group(1))
    raise ValueError(f"not a number or dice expression: {text!r}")


def parse_int(text: str | None, *, allow_none: bool = False) -> int | None:
    """``"6+"``, ``"5\\""``, ``"20+\\""`` -> the number; ``"-"`` -> None (when allowed)."""
    t = clean_text(text).replace('"', "").replace("”", "").replace("″", "").replace(" ", "")
    if t.lower() in _NA:
        if allow_none:
            return None
        raise ValueError(f"missing value: {text!r}")
    m = re.match(r"^([+-]?\d+)\+?$", t)
    if m:
        return int(m.group(1))
    raise ValueError(f"not a number: {text!r}")


def parse_ap(text: str | None) -> int:
    t = clean_text(text).replace(" ", "")
    if t.lower() in _NA:
        return 0
    m = re.match(r"^([+-]?\d+)$", t.replace("–", "-").replace("−", "-"))
    if not m:
        raise ValueError(f"not an AP value: {text!r}")
    return int(m.group(1))


def parse_range(text: str | None) -> int | None:
    t = clean_text(text)
    if t.lower() in _NA or t.lower() == "melee":
        return None
    return parse_int(t)


def parse_skill(text: str | None) -> int | None:
    t = clean_text(text)
    if t.lower() in _NA:
        return None
    return parse_int(t)


_KW_ALIASES = {
    "twin linked": "twin-linked",
    "twinlinked": "twin-linked",
    "sustained hit": "sustained hits",
    "lethal hit": "lethal hits",
    "devastating wound": "devastating wounds",
    "ignore cover": "ignores cover",
    "extra attack": "extra attacks",
    "one-shot": "one shot",
    "indirect": "indirect fire",
}
_ANTI = re.compile(r"^anti[\s\-–]*(.+?)\s*(\d)\s*\+?$", re.I)
_TRAILING_VALUE = re.compile(r"^(.*?[a-z])\s*[-\s]\s*(\d*D\d+(?:[+-]\d+)?|\d+)\s*\+?$", re.I)
_MAX_KW_LEN = 40  # a longer "keyword" is prose, never copied


def parse_weapon_keywords(text: str | None) -> list[dict[str, Any]]:
    """Weapon keywords as data.

    ``"Rapid Fire 2, Anti-Infantry 4+, Lethal Hits"`` ->
    ``[{name: rapid fire, value: 2}, {name: anti, target: INFANTRY, value: 4},
    {name: lethal hits}]``. Names are lower case; Anti targets upper case; dice stay strings.
    Unknown keywords are kept by name; anything that looks like prose is dropped.
    """
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for raw in re.split(r"[,;\n]", text or ""):
        item = clean_text(raw).strip(" .[]")
        if item.lower() in _NA or len(item) > _MAX_KW_LEN or ":" in item or ". " in item:
            continue
        item = item.replace("–", "-").replace("’", "'")
        entry: dict[str, Any]
        m = _ANTI.match(item)
        if m:
            target = m.group(1).strip(" -").upper()
            entry = {"name": "anti", "target": target, "value": int(m.group(2))}
        else:
            m = _TRAILING_VALUE.match(item)
            if m:
                name = m.group(1).strip().lower()
                value = parse_dice(m.group(2))
                entry = {"name": _KW_ALIASES.get(name, name), "value": value}
            else:
                name = item.lower()
                entry = {"name": _KW_ALIASES.get(name, name)}
        key = tuple(sorted(entry.items()))
        if key not in seen:
            seen.add(key)
            out.append(entry)
    return out
