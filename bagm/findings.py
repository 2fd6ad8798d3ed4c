"""The one shape of a finding, whatever rules system reports it.

A finding is a rule a file breaks: a stable code, a message and the line. Each rules system
keeps its own codes (``CODES``: code -> short name, severity, the rule and its section) and
adds what it says besides (Boarding Actions: the unit; Skirmish Battles: the model and a fix);
the renderers (:mod:`bagm.render.formats`) read any of them by this shape. Neutral ground: it
knows no rules system.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class CodedFinding:
    """A finding whose name, severity and rule come from its class's table of codes."""

    CODES: ClassVar[Mapping[str, tuple[str, Any, str]]] = {}

    code: str
    message: str
    line: int | None = None

    @property
    def name(self) -> str:
        return self.CODES[self.code][0]

    @property
    def severity(self) -> Any:  # each system's own severity ("error", or an Enum of str)
        return self.CODES[self.code][1]

    @property
    def rule(self) -> str:
        return self.CODES[self.code][2]
