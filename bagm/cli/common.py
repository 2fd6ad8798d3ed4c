"""What every command module shares: output formats, the --data option, errors, the console."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

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


DataOpt = Annotated[
    Optional[list[Path]],
    typer.Option("--data", help="Extra data pack folder (repeatable); also BAGM_DATA.",
                 show_default=False),
]


def fail(message: str, code: int = 2) -> NoReturn:
    """Report bad input on stderr (``bagm: ...``) and exit (2 unless told otherwise)."""
    typer.echo(f"bagm: {message}", err=True)
    raise typer.Exit(code)


def console() -> "Console":
    from rich.console import Console

    return Console(highlight=False)


def catalog(data: list[Path] | None) -> "Catalog":
    from bagm.data.packs import Catalog, data_dirs

    return Catalog(data_dirs(data))
