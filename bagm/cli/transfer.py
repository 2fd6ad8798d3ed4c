"""``bagm import`` and ``bagm export``: rosters in and out of other tools' formats.

Thin: read, call the library (``bagm.roster.importer``, ``bagm.render.export``), write
atomically, report. Readers, XML and rich are imported inside the commands.
"""

from __future__ import annotations

import os
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from bagm.cli.common import DataOpt, ImportOpt, SimpleFormat
from bagm.cli.common import catalog as _catalog
from bagm.cli.common import fail as _fail

if TYPE_CHECKING:  # pragma: no cover
    from bagm.data.packs import Catalog
    from bagm.roster.importer import ImportResult
    from bagm.roster.report import ValidationReport


class ExportFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    json = "json"
    html = "html"
    svg = "svg"




def register(app: typer.Typer) -> None:
    app.command("import")(import_list)
    app.command("export")(export_roster)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def _write(path: Path, text: str, overwrite: bool) -> None:
    from bagm.io.atomic import write_atomic

    try:
        write_atomic(path, text, overwrite=overwrite)
    except FileExistsError:
        _fail(f"{path}: already exists; pass --force to replace it")
    except OSError as exc:
        _fail(f"{path}: cannot be written: {exc.strerror or exc}")


def import_list(
    file: Annotated[Path, typer.Argument(help="An exported list: .ros, .rosz, New Recruit "
                                         "or bagm JSON, or the app's / New Recruit's text.")],
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", help="The roster file to write (default: print it).")] = None,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f",
                                                 help="Report format.")] = SimpleFormat.text,
    faction: Annotated[Optional[str], typer.Option(
        "--faction", help="The Army Faction, when the export names none or another.")] = None,
    detachment: Annotated[Optional[str], typer.Option(
        "--detachment", help="The Boarding Actions Detachment, when the export has none.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing output file.")] = False,
    data: DataOpt = None,
) -> None:
    """Turn a list exported by BattleScribe, New Recruit or the Warhammer 40,000 app into a
    bagm roster.

    Names are mapped through the data packs' aliases. Every line that cannot be mapped is
    reported (exit 1) and never dropped: unknown units and Enhancements are written as found,
    other lines are kept as comments at the top of the roster.
    """
    from bagm.io.yamlsafe import InputError
    from bagm.roster.importer import import_file, roster_yaml

    if output is not None:
        if _same_file(file, output):
            _fail(f"{output}: is the file being imported; write the roster somewhere else")
        if output.exists() and not force:
            _fail(f"{output}: already exists; pass --force to replace it")
        if output.is_dir():
            _fail(f"{output}: is a directory; give a file name such as roster.yaml")
    _refuse_a_bagm_roster(file)
    try:
        catalog = _catalog(data)
        result = import_file(file, catalog, faction, detachment)
        text = roster_yaml(result)
        report = _check(output or Path(file.stem + ".yaml"), text, catalog)
    except InputError as exc:
        _fail(str(exc))
    if output is not None:
        _write(output, text, overwrite=force)
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        out: dict[str, Any] = {"output": str(output) if output else None, **result.as_dict(),
                               "valid": report.valid, "points": report.points}
        typer.echo(to_json(out))
    else:
        if output is None:
            typer.echo(text, nl=False)
        _summary(result, report, output)
    raise typer.Exit(0 if result.ok else 1)


def _refuse_a_bagm_roster(file: Path) -> None:
    """``bagm import`` of a file that already is a bagm roster says so (exit 2)."""
    from bagm.io.yamlsafe import InputError
    from bagm.roster.model import load_roster

    if file.suffix.lower() not in (".yaml", ".yml"):
        return
    try:
        load_roster(file)
    except InputError:
        return  # not a roster: the importer reads it or says what is wrong
    _fail(f"{file}: is already a bagm roster; nothing to import (check it with "
          f"'bagm validate {file}')")


def _check(path: Path, text: str, catalog: "Catalog") -> "ValidationReport":
    """Load the written roster back (it must always load) and validate it for the summary."""
    from bagm.roster.model import load_roster
    from bagm.roster.validate import validate

    return validate(load_roster(path, text), catalog)


def _summary(result: "ImportResult", report: "ValidationReport", output: Path | None) -> None:
    """The import report, on stderr when the roster itself went to stdout."""
    err = output is None
    roster = result.roster
    where = str(output) if output else "the roster above"
    units = len(roster.get("units", []))
    typer.echo(f"bagm: {result.source} ({result.format_name}): {units} unit(s) of "
               f"{roster.get('faction') or '?'}, {roster.get('detachment') or '?'} -> {where}",
               err=err)
    for note in result.notes:
        typer.echo(f"  note: {note}", err=err)
    for warning in result.warnings:
        typer.echo(f"  warning: {warning}", err=err)
    for u in result.unmapped:
        typer.echo(f"  not mapped: {u}", err=err)
    state = "valid" if report.valid else "not valid yet"
    rerun = f"bagm validate {output}" if output else "bagm validate"
    typer.echo(f"bagm: {len(result.unmapped)} line(s) not mapped; {report.points} points; "
               f"{state} (see '{rerun}')", err=err)


def export_roster(
    roster: Annotated[Path, typer.Argument(help="A roster file.")],
    to: Annotated[ExportFormat, typer.Option("--to", "-t", "--format", "-f", help="Output format.")] = ExportFormat.text,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", help="Write here; '-' or none: standard output.")] = None,
    opponent: Annotated[Optional[Path], typer.Option(
        "--opponent", help="The opponent's roster: adds the Underdog line.")] = None,
    data: DataOpt = None,
    import_: ImportOpt = False,
) -> None:
    """Export a roster: text as the app lays it out (for chats and other tools), markdown for
    forums, JSON, or a printable roster card as HTML or SVG with the Boarding Squads and the
    Underdog.
    """
    from bagm.io.yamlsafe import InputError
    from bagm.render.export import EXPORTERS, RosterSheet

    if output is not None and str(output) == "-":
        output = None  # the usual spelling of standard output
    if output is not None and (_same_file(roster, output)
                               or (opponent is not None and _same_file(opponent, output))):
        _fail(f"{output}: is a roster being exported; write the export somewhere else")
    try:
        sheet = RosterSheet.of(roster, _catalog(data), opponent, importing=import_)
    except InputError as exc:
        _fail(str(exc))
    for note in sheet.notes:
        typer.echo(f"bagm: {note}", err=True)
    text = EXPORTERS[to.value](sheet)
    if output is not None:
        _write(output, text, overwrite=True)
    else:
        typer.echo(text, nl=False)
    report = sheet.report
    if not report.valid:
        typer.echo(f"bagm: warning: {report.path} is not a valid Boarding Patrol (run "
                   f"'bagm validate {report.path}')", err=True)
    raise typer.Exit(0 if report.valid else 1)
