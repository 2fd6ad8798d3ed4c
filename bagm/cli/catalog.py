"""``bagm units``, ``bagm detachments``, ``bagm schema`` and ``bagm data``: what the data packs
hold, their formats, and their upkeep."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from bagm.cli.common import DataOpt, FormatOpt, SimpleFormat, fail
from bagm.cli.common import catalog as open_catalog
from bagm.cli.common import console as open_console

data_app = typer.Typer(help="Check and maintain data packs.", no_args_is_help=True)


def _faction(name: str, data: list[Path] | None):  # type: ignore[no-untyped-def]
    from bagm.io.yamlsafe import InputError

    try:
        catalog = open_catalog(data)
        faction = catalog.faction(name)
    except InputError as exc:
        fail(str(exc))
    if faction is None:
        hint = catalog.faction_hint(name) or "known: " + ", ".join(catalog.faction_names())
        fail(f"unknown faction '{name}'; {hint}")
    return faction


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
        open_console().print(units_table(f, det))


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

    open_console().print(detachments_table(_faction(faction, data)))


class SchemaKind(str, Enum):
    roster = "roster"
    datasheets = "datasheets"


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

    console = open_console()
    problems = 0
    try:
        catalog = open_catalog(data)
        for faction in catalog.all():
            found = check_faction(faction)
            problems += len(found)
            status = ("ok", "green") if not found else (f"{len(found)} problem(s)", "red")
            console.print(Text.assemble(f"{faction.name}: {len(faction.pack.units)} units, "
                                        f"{len(faction.pack.detachments)} Detachments: ", status))
            for p in found:
                console.print(Text(f"  - {p}"))
    except InputError as exc:
        fail(str(exc))
    raise typer.Exit(1 if problems else 0)


@data_app.command("coverage")
def data_coverage(
    rosters: Annotated[Optional[Path], typer.Option(
        "--rosters", help="Folder of rosters whose units' abilities are counted (default: the "
        "bundled rosters/ of a source checkout).", show_default=False)] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="The README's Markdown table.")] = False,
    missing: Annotated[bool, typer.Option("--missing", help="Also list what is not modelled, by name.")] = False,
    format: FormatOpt = SimpleFormat.text,
    data: DataOpt = None,
) -> None:
    """What the engine models, per faction and in total: Detachment rules, Enhancements,
    Leader abilities, and the datasheet abilities the units of the rosters list."""
    from bagm.engine.coverage import bundled_rosters, coverage
    from bagm.io.yamlsafe import InputError

    if rosters is not None and not rosters.is_dir():
        fail(f"{rosters}: no such folder of rosters")
    try:
        found = coverage(open_catalog(data), rosters or bundled_rosters())
    except InputError as exc:
        fail(str(exc))
    result = found.to_dict()
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(result))
        return
    from bagm.render.coverage_render import coverage_markdown, coverage_table, missing_lines

    if markdown:
        typer.echo(coverage_markdown(result), nl=False)
        return
    console = open_console()
    console.print(coverage_table(result))
    if missing:
        for line in missing_lines(result):
            console.print(line)


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


def register(app: typer.Typer) -> None:
    for command in (units, detachments, schema):
        app.command()(command)
    app.add_typer(data_app, name="data")
