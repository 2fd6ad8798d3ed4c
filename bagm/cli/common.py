"""What every command module shares: output formats, the --data option, errors, the console."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from bagm.data.packs import Catalog


class Format(str, Enum):
    text = "text"
    json = "json"
    github = "github"


class SimpleFormat(str, Enum):
    text = "text"
    json = "json"


# the --format option of every command whose output is text or JSON
FormatOpt = Annotated[SimpleFormat, typer.Option("--format", "-f", help="Output format.")]


DataOpt = Annotated[
    Optional[list[Path]],
    typer.Option("--data", help="Extra data pack folder (repeatable); also BAGM_DATA.",
                 show_default=False),
]


ImportOpt = Annotated[bool, typer.Option(
    "--import", help="Read another tool's army list (.ros, .rosz, New Recruit JSON, the app's "
    "text) through the importer, in memory.")]


def read_listed(path: Path, catalog: "Catalog", importing: bool) -> Any:
    """A roster file, or with ``--import`` another tool's list imported in memory
    (:func:`bagm.roster.foreign.load_or_import`): the loaded roster or the import, with the
    importer's notes printed on standard error (``bagm: PATH: note``)."""
    from bagm.roster.foreign import load_or_import, notes_of

    loaded = load_or_import(path, catalog, importing)
    for note in notes_of(loaded):
        typer.echo(f"bagm: {path}: {note}", err=True)
    return loaded


def fail(message: str, code: int = 2) -> NoReturn:
    """Report bad input on stderr (``bagm: ...``) and exit (2 unless told otherwise)."""
    typer.echo(f"bagm: {message}", err=True)
    raise typer.Exit(code)


def console(stderr: bool = False) -> "Console":
    """The console every command prints through.

    User text is never read as markup or emoji codes (``markup=False, emoji=False``: renderers
    style with ``Text``, and a unit named ``:skull:`` prints as itself);
    ``NO_COLOR``/``FORCE_COLOR`` and a non-terminal output (no colour codes) are Rich's own
    conventions. Output that is not a terminal is not wrapped or cut at 80 columns: each
    printed renderable gets the width it needs (``COLUMNS`` still wins when set).
    """
    import os

    from rich.console import Console

    if os.environ.get("COLUMNS"):
        return Console(highlight=False, markup=False, emoji=False, stderr=stderr)
    global _wide
    if _wide is None:
        _wide = _wide_console_class()
    return _wide(highlight=False, markup=False, emoji=False,  # type: ignore[no-any-return]
                 stderr=stderr)


_wide: Any = None


def _wide_console_class() -> type:
    from rich.console import Console
    from rich.measure import Measurement

    class WideConsole(Console):
        """A console that, when not writing to a terminal, prints each renderable at its
        natural width instead of wrapping it at 80 columns."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self._wide = not self.is_terminal
            if self._wide:
                self.width = _PIPE_WIDTH

        def print(self, *objects: Any, **kwargs: Any) -> None:
            if self._wide and objects and "width" not in kwargs:
                options = self.options
                need = max(Measurement.get(self, options, o).maximum
                           if not isinstance(o, str) else max(map(len, o.splitlines() or [""]))
                           for o in objects)
                kwargs["width"] = max(80, min(need, _PIPE_WIDTH))
            super().print(*objects, **kwargs)

    return WideConsole


_PIPE_WIDTH = 10_000


def catalog(data: list[Path] | None) -> "Catalog":
    """The data packs: the bundled ones and those --data / BAGM_DATA add."""
    from bagm.data.packs import Catalog, data_dirs

    return Catalog(data_dirs(data))


def read_roster(path: Path, catalog: "Catalog", importing: bool):  # type: ignore[no-untyped-def]
    """A roster, or with ``--import`` another tool's list imported in memory (its notes on
    standard error)."""
    from bagm.roster.foreign import roster_of

    return roster_of(read_listed(path, catalog, importing))
