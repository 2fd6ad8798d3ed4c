"""pydantic over the data classes: validation of raw YAML and the exported JSON Schemas.

Importing pydantic costs more than the rest of a ``bagm validate`` run, so only this module
imports it: packs are validated here once and then cached (``bagm.data.cache``), rosters are
checked by ``bagm.io.shape``, whose agreement with pydantic is property-tested.
"""

from __future__ import annotations

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
    """Validate ``data`` into ``cls``; raises :class:`DataError` with one readable message."""
    try:
        return adapter(cls).validate_python(data)
    except ValidationError as exc:
        errors = exc.errors()
        raise DataError(explain(data, errors), tuple(_loc(data, errors))) from None


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
