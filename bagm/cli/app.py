"""The ``bagm`` command line. Thin: parse arguments, call the library, render the result.

Exit codes: 0 all valid; 1 some roster breaks a rule; 2 usage error or unreadable input;
3 an internal error (a bug in bagm: reported in one line, the traceback only with ``--debug``).
Heavy modules (pydantic models, rich renderers) are imported inside commands to keep start-up
fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from bagm.cli.common import DataOpt, Format, ImportOpt, console, fail, read_roster
from bagm.cli.common import catalog as open_catalog
from bagm.errors import BagmError

if TYPE_CHECKING:
    from collections.abc import Iterable

    from rich.console import Console

    from bagm.data.packs import Catalog

app = typer.Typer(
    name="bagm",
    help="Army builder and roster validator for Warhammer 40,000 Boarding Actions.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        import bagm

        typer.echo(f"bagm {bagm.__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print bagm's version and exit.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show the traceback of an internal "
                                        "error (a bug in bagm).")] = False,
) -> None:
    """Army builder and roster validator for Warhammer 40,000 Boarding Actions."""


def _console() -> "Console":
    return console()


def _catalog(data: list[Path] | None) -> "Catalog":
    return open_catalog(data)


def _input_error(exc: Exception) -> NoReturn:
    fail(str(exc))


def _is_skirmish(path: Path) -> bool:
    """Skirmish Battles files (``*.skirmish.yaml``, ``*.skirmish-data.yaml``...) are not
    Boarding Actions rosters: ``bagm skirmish validate`` reads them."""
    return any(s.startswith(".skirmish") for s in path.suffixes[:-1])


def _yaml_files(folder: Path) -> "Iterable[Path]":
    """The .yaml/.yml files under ``folder``, as ``Path.rglob`` finds them (symbolic links to
    folders not followed), listed with ``os.scandir``, whose entries know their type without
    another system call for each file."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from _yaml_files(Path(entry.path))
        elif (entry.name.lower().endswith((".yaml", ".yml"))
              and entry.name.lower() not in (".yaml", ".yml") and entry.is_file()):
            yield Path(entry.path)


def _roster_paths(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(q for q in _yaml_files(p) if not _is_skirmish(q))
            if not found:
                fail(f"{p}: no .yaml rosters in this folder")
            out += found
        elif p.exists() and _is_skirmish(p):
            fail(f"{p}: a Skirmish Battles file; check it with 'bagm skirmish validate {p}'")
        elif p.exists():
            out.append(p)
        else:
            fail(f"{p}: no such file or folder")
    return out


@app.command()
def validate(
    paths: Annotated[list[Path], typer.Argument(help="Roster files or folders of rosters.")],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    cards: Annotated[bool, typer.Option("--cards", help="Print each roster's card (the "
                                        "default when one roster is given).")] = False,
    brief: Annotated[bool, typer.Option("--brief", help="Findings only, no roster card.")] = False,
    data: DataOpt = None,
    import_: ImportOpt = False,
    changed_only: Annotated[bool, typer.Option(
        "--changed-only", help="Only rosters git reports as changed: since the last commit, or "
        "since the branch left --base; untracked ones included.")] = False,
    base: Annotated[Optional[str], typer.Option(
        "--base", help="Git revision to compare with, e.g. origin/main (implies "
        "--changed-only).", show_default=False)] = None,
) -> None:
    """Check rosters against every rule of "Mustering your Boarding Patrol".

    One roster prints its card and findings; many (or --brief) print one line a finding
    (FILE:LINE: CODE severity: message) and a summary table; --cards prints every card.
    """
    from bagm.io.yamlsafe import InputError
    from bagm.roster.validate import validate_path

    files = _roster_paths(paths)
    if changed_only or base is not None:
        from bagm.io.git import GitError
        from bagm.io.git import changed_only as only_changed

        try:
            files = only_changed(files, base)
        except GitError as exc:
            fail(str(exc))
        if not files:
            typer.echo("bagm: no changed rosters", err=True)
    try:
        catalog = _catalog(data)
        reports = [_validate_importing(p, catalog) if import_ else validate_path(p, catalog)
                   for p in files]
    except InputError as exc:
        _input_error(exc)
    if format is Format.json:
        from bagm.render.formats import to_json

        typer.echo(to_json([r.as_dict() for r in reports]))
    elif format is Format.github:
        from bagm.render.formats import github_annotations

        out = github_annotations(reports)
        if out:
            typer.echo(out)
        valid = sum(r.valid for r in reports)
        typer.echo(f"bagm: {valid} of {len(reports)} roster(s) valid", err=True)
    else:
        from bagm.render.rich_render import print_findings, print_reports

        if cards or (len(reports) == 1 and not brief):
            print_reports(_console(), reports, cards=True)
        else:  # many rosters read like a linter: one line a finding, then the summary
            print_findings(_console(), reports)
    if any(r.input_error is not None for r in reports):
        raise typer.Exit(2)
    raise typer.Exit(0 if all(r.valid for r in reports) else 1)


def _validate_importing(path: Path, catalog: "Catalog"):  # type: ignore[no-untyped-def]
    """Validate ``path``, importing another tool's list in memory; unreadable input is kept
    on the report as ``validate_path`` keeps it."""
    from bagm.io.yamlsafe import InputError
    from bagm.roster.report import ValidationReport
    from bagm.roster.validate import validate

    try:
        return validate(read_roster(path, catalog, True), catalog)
    except InputError as exc:
        return ValidationReport(str(path), title=path.stem, input_error=exc)


# --- command modules ------------------------------------------------------------------------
# Each module adds its commands to `app` in a `register(app)` function and imports its heavy
# parts inside the commands. Typer builds every registered command's parameters on each run
# (about 1 ms a command), so `main` registers only the module of the command being run (all of
# them for --help); `validate`, the command run most, is the only one defined here.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "rosters": ("show", "squads", "underdog"),
    "catalog": ("units", "detachments", "schema", "data"),
    "mission": ("mission",),
    "odds": ("odds",),
    "datasheet": ("datasheet",),
    "edit": ("new", "add", "remove", "set", "suggest", "build"),
    "transfer": ("import", "export"),
    "play": ("play", "replay", "simulate"),
    "blackreach": ("blackreach",),
    "skirmish": ("skirmish",),
    "bfg": ("bfg",),
}
_registered: set[str] = set()


def register(modules: "Iterable[str]") -> None:
    import importlib

    for name in modules:
        if name not in _registered:
            _registered.add(name)
            importlib.import_module(f"bagm.cli.{name}").register(app)


def register_all() -> None:
    register(COMMAND_MODULES)


def _command(argv: list[str]) -> str:
    """The command word of a command line (the first argument that is not an option)."""
    return next((a for a in argv if not a.startswith("-")), "")


def main() -> None:
    argv = sys.argv[1:]
    first = _command(argv)
    module = next((m for m, names in COMMAND_MODULES.items() if first in names), None)
    if module is not None:
        register([module])
    elif first not in {c.name or c.callback.__name__ for c in app.registered_commands
                       if c.callback}:
        register_all()  # --help, no command, or a misspelt one: offer every command
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)
    except BagmError as exc:  # bad input that a command let through: still the user's
        sys.stderr.write(f"bagm: {exc}\n")
        sys.exit(2)
    except Exception as exc:  # the one guard: a bug in bagm is reported, not dumped
        if "--debug" in argv or os.environ.get("BAGM_DEBUG"):
            raise
        internal_error(exc)


def internal_error(exc: BaseException) -> NoReturn:
    """Report an unexpected exception in one line and exit 3 (the traceback with --debug)."""
    what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    sys.stderr.write(f"bagm: internal error, please report it: {what}\n"
                     "bagm: run the same command with --debug (before the command, e.g. "
                     "'bagm --debug validate ...') for the traceback\n")
    sys.exit(3)


if __name__ == "__main__":  # pragma: no cover
    main()
