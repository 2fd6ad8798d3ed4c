"""The ``bagm`` command line. Thin: parse arguments, call the library, render the result.

Exit codes: 0 all valid; 1 some roster breaks a rule; 2 usage error or unreadable input;
3 an internal error (a bug in bagm: reported in one line, the traceback only with ``--debug``).
Heavy modules (pydantic models, rich renderers) are imported inside commands to keep start-up
fast.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from bagm.cli.common import DataOpt, Format, ImportOpt, SimpleFormat, catalog, console, fail
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
data_app = typer.Typer(help="Check and maintain data packs.", no_args_is_help=True)
app.add_typer(data_app, name="data")


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
    return catalog(data)


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


def _load_one(path: Path, data: list[Path] | None,  # type: ignore[no-untyped-def]
              catalog: "Catalog | None" = None, importing: bool = False):
    from bagm.io.yamlsafe import InputError
    from bagm.roster.validate import validate

    try:
        cat = catalog or _catalog(data)
        return validate(_read_roster(path, cat, importing), cat)
    except InputError as exc:
        _input_error(exc)


def _validate_importing(path: Path, catalog: "Catalog"):  # type: ignore[no-untyped-def]
    """Validate ``path``, importing another tool's list in memory; unreadable input is kept
    on the report as ``validate_path`` keeps it."""
    from bagm.io.yamlsafe import InputError
    from bagm.roster.report import ValidationReport
    from bagm.roster.validate import validate

    try:
        return validate(_read_roster(path, catalog, True), catalog)
    except InputError as exc:
        return ValidationReport(str(path), title=path.stem, input_error=exc)


def _read_roster(path: Path, catalog: "Catalog", importing: bool):  # type: ignore[no-untyped-def]
    """A roster, or with ``--import`` another tool's list imported in memory (its notes on
    standard error)."""
    from bagm.cli.common import read_listed
    from bagm.roster.foreign import roster_of

    return roster_of(read_listed(path, catalog, importing))


@app.command()
def show(
    roster: Annotated[Path, typer.Argument(help="A roster file.")],
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: DataOpt = None,
    import_: ImportOpt = False,
) -> None:
    """Print a roster card: units, models, points, Warlord, Enhancements, findings."""
    report = _load_one(roster, data, importing=import_)
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        units = [{"name": u.display, "unit": u.name, "models": u.models, "points": u.points,
                  "warlord": u.warlord, "enhancement": u.enhancement, "weapon": u.weapon}
                 for u in report.units]
        typer.echo(to_json({"name": report.title, "faction": report.faction,
                            "detachment": report.detachment, "edition": report.edition,
                            "units": units, **report.as_dict()}))
    else:
        from bagm.render.rich_render import findings_table, roster_card

        console = _console()
        console.print(roster_card(report))
        console.print(findings_table(report))
    raise typer.Exit(0 if report.valid else 1)


@app.command()
def squads(
    roster: Annotated[Path, typer.Argument(help="A roster file.")],
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: DataOpt = None,
    import_: ImportOpt = False,
) -> None:
    """The army after "Form Boarding Squads": 10-model units become two 5-model units."""
    from bagm.roster.squads import form_boarding_squads

    report = _load_one(roster, data, importing=import_)
    result = form_boarding_squads(report.path, report.units)
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(result.as_dict()))
    else:
        from bagm.render.rich_render import findings_table, squads_table

        console = _console()
        console.print(squads_table(result))
        if not report.valid:
            console.print(findings_table(report))
    raise typer.Exit(0 if report.valid else 1)


@app.command()
def underdog(
    roster_a: Annotated[Path, typer.Argument(metavar="A", help="Player A's roster.")],
    roster_b: Annotated[Path, typer.Argument(metavar="B", help="Player B's roster.")],
    mission: Annotated[Optional[int], typer.Option("--mission", "-m",
                                                   help="Mission number (11-33 or 1-6).")] = None,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: DataOpt = None,
    import_: ImportOpt = False,
) -> None:
    """Settle the Underdog: the player at least 30 points below the other."""
    from bagm.roster.underdog import decide

    info = None
    if mission is not None:
        from bagm.data.missions import missions

        table = missions()
        if mission not in table:
            fail(f"unknown mission {mission}; missions: {', '.join(map(str, sorted(table)))}")
        info = table[mission]
    shared = _catalog(data)  # one catalog: a pack both rosters use is read once
    a, b = (_load_one(roster_a, data, shared, import_),
            _load_one(roster_b, data, shared, import_))
    result = decide(a.points, b.points, (a.title, b.title), info)
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(result.as_dict()))
    else:
        from rich.text import Text

        from bagm.render.rich_render import underdog_panel

        console = _console()
        console.print(underdog_panel(result))
        for r in (a, b):
            if not r.valid:
                console.print(Text.assemble(("warning:", "yellow"), f" {r.path} is not a valid "
                                            f"Boarding Patrol (run 'bagm validate {r.path}')"))
    raise typer.Exit(0 if a.valid and b.valid else 1)


def _faction(name: str, data: list[Path] | None):  # type: ignore[no-untyped-def]
    from bagm.io.yamlsafe import InputError

    try:
        catalog = _catalog(data)
        faction = catalog.faction(name)
    except InputError as exc:
        _input_error(exc)
    if faction is None:
        hint = catalog.faction_hint(name) or "known: " + ", ".join(catalog.faction_names())
        fail(f"unknown faction '{name}'; {hint}")
    return faction


@app.command()
def units(
    faction: Annotated[str, typer.Argument(help="Army Faction, e.g. 'Grey Knights'.")],
    detachment: Annotated[Optional[str], typer.Option("--detachment", "-d",
                                                      help="Only units this Detachment allows.")] = None,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: DataOpt = None,
) -> None:
    """List a faction's units and points (optionally as a Detachment allows them)."""
    from bagm.render.rich_render import units_table

    f = _faction(faction, data)
    det = None
    if detachment is not None:
        det = f.detachments.get(detachment)
        if det is None:
            fail(f"unknown Detachment '{detachment}'; {f.detachments.hint(detachment) or 'known: ' + ', '.join(f.detachments.names())}")
    if format is SimpleFormat.json:
        from bagm.render.catalog_json import units_json
        from bagm.render.formats import to_json

        typer.echo(to_json(units_json(f, det)))
    else:
        _console().print(units_table(f, det))


@app.command()
def detachments(
    faction: Annotated[str, typer.Argument(help="Army Faction, e.g. 'Orks'.")],
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: DataOpt = None,
) -> None:
    """List a faction's Boarding Actions Detachments and their mustering rules."""
    if format is SimpleFormat.json:
        from bagm.render.catalog_json import detachments_json
        from bagm.render.formats import to_json

        typer.echo(to_json(detachments_json(_faction(faction, data))))
        return
    from bagm.render.rich_render import detachments_table

    _console().print(detachments_table(_faction(faction, data)))


class SchemaKind(str, Enum):
    roster = "roster"
    datasheets = "datasheets"


@app.command()
def schema(kind: Annotated[SchemaKind, typer.Argument(help="roster or datasheets")]) -> None:
    """Print the JSON Schema of the roster or the data pack format."""
    from bagm.data.schema import json_schema
    from bagm.render.formats import to_json

    if kind is SchemaKind.roster:
        from bagm.roster.model import RosterFile

        typer.echo(to_json(json_schema(RosterFile)))
    else:
        from bagm.data.models import FactionPack

        typer.echo(to_json(json_schema(FactionPack)))


@data_app.command("check")
def data_check(data: DataOpt = None) -> None:
    """Check every data pack: names resolve, sizes have points, no duplicates."""
    from rich.text import Text

    from bagm.io.yamlsafe import InputError
    from bagm.roster.packcheck import check_faction

    console = _console()
    problems = 0
    try:
        catalog = _catalog(data)
        for faction in catalog.all():
            found = check_faction(faction)
            problems += len(found)
            status = ("ok", "green") if not found else (f"{len(found)} problem(s)", "red")
            console.print(Text.assemble(f"{faction.name}: {len(faction.pack.units)} units, "
                                        f"{len(faction.pack.detachments)} Detachments: ", status))
            for p in found:
                console.print(Text(f"  - {p}"))
    except InputError as exc:
        _input_error(exc)
    raise typer.Exit(1 if problems else 0)


@data_app.command("import-bsdata")
def data_import_bsdata(
    catalogues: Annotated[Path, typer.Argument(help="Folder of BattleScribe .cat/.gst files.")],
    packs: Annotated[list[Path], typer.Argument(help="Data pack files to fill (YAML).")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o",
                                                help="Write here instead (one pack only).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report, write nothing.")] = False,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
) -> None:
    """Fill model profiles, weapons, abilities and Leader data of packs from BattleScribe data.

    Only names, numbers and keywords are taken; every other key of the pack (points, sizes,
    Detachments, notes) is kept. Units it cannot find are reported, never dropped.
    """
    from bagm.io.bsdata import CatalogueError, update_pack

    if out is not None and len(packs) != 1:
        fail("--out needs exactly one pack")
    reports = []
    for pack in packs:
        if not pack.is_file():
            fail(f"{pack}: no such data pack")
        try:
            reports.append(update_pack(pack, catalogues, out, dry_run=dry_run))
        except CatalogueError as exc:
            fail(str(exc))
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json([r.to_dict() for r in reports]))
    else:
        for r in reports:
            typer.echo(r.summary())
    raise typer.Exit(0 if all(r.ok for r in reports) else 1)


# --- command modules ------------------------------------------------------------------------
# Each module adds its commands to `app` in a `register(app)` function and imports its heavy
# parts inside the commands. Typer builds every registered command's parameters on each run,
# so `main` registers only the module of the command being run (all of them for --help).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
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
    import gc

    # a run is short and what it builds (YAML nodes, rosters, reports) lives until it ends: the
    # cyclic collector's default of a pass every 700 new objects found nothing to free and cost
    # about 15% of validating a folder of 1,000 rosters
    gc.set_threshold(20_000, 10, 10)
    argv = sys.argv[1:]
    first = _command(argv)
    module = next((m for m, names in COMMAND_MODULES.items() if first in names), None)
    if module is not None:
        register([module])
    elif first not in {c.name or c.callback.__name__ for c in app.registered_commands
                       if c.callback} | {"data"}:
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
