"""Machine formats: JSON (stable fields) and GitHub Actions workflow annotations."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # read by shape only: Boarding Actions and Skirmish reports both render here
    from bagm.roster.report import ValidationReport


def to_json(value: Any) -> str:
    """Deterministic JSON: fixed key order from the result objects, two-space indent."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}  # by severity value


def github_annotations(reports: Iterable[ValidationReport], unreadable: str = "BA000") -> str:
    """``::error file=...,line=...,title=...::message`` lines, one per finding (any report
    with ``path``, ``input_error`` and findings with code, name, severity, message, line)."""
    lines: list[str] = []
    for r in reports:
        if r.input_error is not None:
            e = r.input_error
            props = f"file={_escape_prop(r.path)}" + (f",line={e.line}" if e.line else "")
            text = e.message + (f" ({e.hint})" if e.hint else "")
            lines.append(f"::error {props},title={unreadable} unreadable roster::{_escape_data(text)}")
            continue
        for f in r.findings:
            props = f"file={_escape_prop(r.path)}" + (f",line={f.line}" if f.line else "")
            title = _escape_prop(f"{f.code} {f.name}")
            level = _LEVEL[getattr(f.severity, "value", f.severity)]
            lines.append(f"::{level} {props},title={title}::{_escape_data(f.message)}")
    return "\n".join(lines)
