"""pydantic over the data classes: validation of raw YAML and the exported JSON Schemas.

Importing pydantic costs more than the rest of a ``bagm validate`` run, so only this module
imports it: packs are validated here once and then cached (``bagm.data.cache``), rosters are
checked by ``bagm.io.shape``, whose agreement with pydantic is property-tested.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from bagm.data import models

RULE_CLASSES = {"limit": "Limit", "ratio": "Ratio", "requires": "Requires",
                "exclusive": "Exclusive", "excludes": "Excludes",
                "keyword_group": "KeywordGroup"}


@lru_cache(maxsize=None)
def adapter(cls: type) -> TypeAdapter[Any]:
    return TypeAdapter(cls)


class DataError(ValueError):
    """Data that does not fit its class: one readable message, and ``loc``, the path of keys and
    list indexes to the value at fault (to find its file and line)."""

    def __init__(self, message: str, loc: tuple[Any, ...] = ()) -> None:
        super().__init__(message)
        self.loc = loc


def validate(cls: type, data: Any) -> Any:
    """Validate ``data`` into ``cls``; raises :class:`DataError` with one readable message.

    Strictly, as the data's JSON: a number is never read from ``true`` or from the text
    ``"4"``, nor text from a number (pydantic's lax mode would: ``tokens: true`` read as 1).
    Strict validation of Python objects would also refuse a mapping for a data class, so
    the YAML's values (maps, lists, text, numbers, booleans, null; a YAML date as the text
    written) go through JSON, whose strict mode reads a mapping as a data class and a
    key ``"6"`` of ``max_from`` as the number 6."""
    try:
        return adapter(cls).validate_json(json.dumps(data, default=_as_text), strict=True)
    except ValidationError as exc:
        errors = [{**e, "loc": _own_keys(data, e["loc"])} for e in exc.errors()]
        raise DataError(explain(data, errors), tuple(_loc(data, errors))) from None


def _own_keys(data: Any, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """An error's location with the data's own keys: JSON wrote the key 6 as ``"6"``."""
    out: list[Any] = []
    node = data
    for part in loc:
        if isinstance(node, dict):
            if part not in node:
                part = next((k for k in node if str(k) == part), part)
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
        out.append(part)
    return tuple(out)


def _as_text(value: Any) -> str:
    """A YAML value JSON has no type for (a date: ``2024-10-01``), as the text written."""
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def _loc(data: Any, errors: list[Any]) -> list[Any]:
    chosen = [e for e in errors if _on_matching_member(data, e["loc"])] or errors
    return [p for p in chosen[0]["loc"] if p not in RULE_CLASSES.values()]


def explain(data: Any, errors: list[Any]) -> str:
    """The most useful error, with its location written by names rather than indexes."""
    chosen = [e for e in errors if _on_matching_member(data, e["loc"])] or errors
    err = chosen[0]
    loc = _loc(data, errors)
    where = describe_loc(data, loc)
    kind = err["type"]
    if kind == "unexpected_keyword_argument":
        return f"{where}: unknown key"
    if kind == "missing_argument":
        return f"{where}: missing key"
    if kind == "literal_error" and loc and loc[-1] == "rule":
        return f"{where}: unknown rule {err.get('input')!r}; known: {', '.join(RULE_CLASSES)}"
    if kind.endswith("_type"):  # say what was written: ``true`` where a number goes
        return f"{where}: {err['msg']}, not {json.dumps(err.get('input'))[:60]}"
    return f"{where}: {err['msg']}"


def _on_matching_member(data: Any, loc: tuple[Any, ...]) -> bool:
    """For a mustering rule, keep the errors of the class its ``rule:`` tag names."""
    node = data
    for part in loc:
        if part in RULE_CLASSES.values() and isinstance(node, dict):
            return RULE_CLASSES.get(str(node.get("rule"))) == part
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return False
    return False


def describe_loc(data: Any, loc: list[Any]) -> str:
    """``units[3].points`` becomes ``units 'Strike Squad' > points``."""
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int) and isinstance(node, list) and item < len(node):
            node = node[item]
            label = (node.get("name") or node.get("unit")) if isinstance(node, dict) else None
            parts.append(f"'{label}'" if label else f"[{item}]")
        else:
            node = node.get(item) if isinstance(node, dict) else None
            parts.append(str(item))
    return " > ".join(parts) or "top level"


def json_schema(cls: type) -> dict[str, Any]:
    return adapter(cls).json_schema()


def faction_pack(data: Any) -> models.FactionPack:
    return validate(models.FactionPack, data)


def core_pack(data: Any) -> models.CorePack:
    return validate(models.CorePack, data)
