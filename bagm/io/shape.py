"""A small structural checker for user files, driven by the same dataclasses pydantic reads.

Rosters are checked on every ``bagm validate``; importing pydantic would triple its start-up
time, so this interprets the roster dataclasses' type hints directly (str, int, bool, None,
Literal, list, dict, nested dataclasses). A property test checks it
accepts and refuses exactly what pydantic does.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import MISSING
from functools import lru_cache
from typing import Any, Literal, Union

from bagm.errors import BagmError

Loc = tuple[Union[str, int], ...]


class ShapeError(BagmError):
    def __init__(self, loc: Loc, kind: str, message: str, value: Any = None) -> None:
        super().__init__(message)
        self.loc, self.kind, self.message, self.value = loc, kind, message, value


@lru_cache(maxsize=None)
def _fields(cls: type) -> tuple[dict[str, Any], tuple[tuple[str, tuple[str, Any], Any, Any], ...]]:
    """A dataclass's fields, each with how to check its value and its default, worked out
    once per class (validating a folder builds thousands of rosters)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = dataclasses.fields(cls)
    return ({f.name: f for f in fields},
            tuple((f.name, _plan(hints[f.name]), f.default, f.default_factory) for f in fields))


def build(cls: type, data: Any, loc: Loc = ()) -> Any:
    """Check ``data`` against dataclass ``cls`` and construct it."""
    if not isinstance(data, dict):
        raise ShapeError(loc, "type", "must be a mapping of keys to values", data)
    known, plans = _fields(cls)
    for key in data:
        if key not in known:
            raise ShapeError(loc + (key,), "extra", f"unknown key '{key}'", key)
    values: dict[str, Any] = {}
    for name, plan, default, factory in plans:
        if name in data:
            values[name] = _check(plan, data[name], loc + (name,))
        elif default is not MISSING:
            values[name] = default
        elif factory is not MISSING:
            values[name] = factory()
        else:
            raise ShapeError(loc + (name,), "missing", f"missing key '{name}'")
    obj: Any = object.__new__(cls)  # as pydantic does: the classes need no generated __init__
    obj.__dict__.update(values)
    return obj


@lru_cache(maxsize=None)
def _plan(hint: Any) -> tuple[str, Any]:
    """How to check a value of this type (the plans of its parts within), worked out once per
    type hint."""
    if typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        return "union", (type(None) in options,
                         tuple(_plan(o) for o in options if o is not type(None)))
    if origin is Literal:
        return "literal", typing.get_args(hint)
    if origin is list:
        return "list", _plan(typing.get_args(hint)[0])
    if origin is dict:
        key, value = typing.get_args(hint)
        return "dict", (_plan(key), _plan(value))
    if dataclasses.is_dataclass(hint):
        return "dataclass", hint
    return "scalar", hint


def _check(plan: tuple[str, Any], value: Any, loc: Loc) -> Any:
    kind, arg = plan
    if kind == "scalar":
        return _scalar(arg, value, loc)
    if kind == "union":
        nullable, options = arg
        if value is None and nullable:
            return None
        errors: list[ShapeError] = []
        for option in options:
            try:
                return _check(option, value, loc)
            except ShapeError as exc:
                errors.append(exc)
        raise errors[0]
    if kind == "literal":
        if value in arg and type(value) in {type(a) for a in arg}:
            return value
        shown = " or ".join(repr(a) for a in arg)
        raise ShapeError(loc, "literal", f"must be {shown}", value)
    if kind == "list":
        if not isinstance(value, list):
            raise ShapeError(loc, "type", "must be a list", value)
        return [_check(arg, v, loc + (i,)) for i, v in enumerate(value)]
    if kind == "dict":
        if not isinstance(value, dict):
            raise ShapeError(loc, "type", "must be a mapping", value)
        key_plan, value_plan = arg
        return {_check(key_plan, k, loc + (k,)): _check(value_plan, v, loc + (k,))
                for k, v in value.items()}
    return build(arg, value, loc)


_NAMES = {str: "text", int: "a whole number", bool: "true or false"}


def _scalar(hint: Any, value: Any, loc: Loc) -> Any:
    ok = (isinstance(value, hint) and not (hint is int and isinstance(value, bool)))
    if not ok:
        raise ShapeError(loc, "type", f"must be {_NAMES.get(hint, hint.__name__)}", value)
    return value
