"""The one base of every error bagm reports to a user, and where it happened.

Errors are values until the edge: the library raises a :class:`BagmError` carrying a
:class:`Location` (file, line, and what inside it: a unit, a script step); only the command line
turns it into a message and an exit code. Each package's errors derive from this base, so the
CLI's guard can tell "your input is wrong" (exit 2) from "bagm is wrong" (exit 3).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """Where an error was found: a file, a line in it, and a thing named inside it."""

    path: str | None = None
    line: int | None = None
    where: str | None = None  # "unit B3", "step 4", "column 'x'"

    def __str__(self) -> str:
        text = self.path or ""
        if self.line is not None:
            text += f":{self.line}"
        if self.where:
            text += f" ({self.where})" if text else self.where
        return text


class BagmError(Exception):
    """An error in the user's input or request (never a bug in bagm).

    Subclasses keep their own fields; :attr:`location` reads the common ones (``path``,
    ``line``) so every error can be placed the same way.
    """

    @property
    def location(self) -> Location:
        path = getattr(self, "path", None)
        line = getattr(self, "line", None)
        return Location(str(path) if path is not None else None, line if isinstance(line, int) else None)
