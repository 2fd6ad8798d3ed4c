"""Machine formats: JSON (stable fields) and GitHub Actions workflow annotations."""

from __future__ import annotations

import json
from typing import Any, Iterable

from bagm.roster.findings import Severity
from bagm.roster.report import ValidationReport


def to_json(value: Any) -> str:
    """Deterministic JSON: fixed key order from the result objects, two-space indent."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def github_annotations(reports: Iterable[ValidationReport]) -> str:
    """``::error file=...,line=...,title=...::message`` lines, one per finding."""
    lines: list[str] = []
    for r in reports:
        if r.input_error is not None:
            e = r.input_error
            props = f"file={_escape_prop(r.path)}" + (f",line={e.line}" if e.line else "")
            text = e.message + (f" ({e.hint})" if e.hint else "")
            lines.append(f"::error {props},title=BA000 unreadable roster::{_escape_data(text)}")
            continue
        for f in r.findings:
            props = f"file={_escape_prop(r.path)}" + (f",line={f.line}" if f.line else "")
            title = _escape_prop(f"{f.code} {f.name}")
            lines.append(f"::{_LEVEL[f.severity]} {props},title={title}::{_escape_data(f.message)}")
    return "\n".join(lines)
