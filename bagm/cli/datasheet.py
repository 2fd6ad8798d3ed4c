"""``bagm datasheet NAME``: a unit's datasheet as bagm's data holds it.

Thin: find the datasheet (``Catalog.find_unit``), gather what Boarding Actions says about it
(``bagm.render.datasheet.DatasheetView``), render it as text or JSON.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from bagm.cli.common import DataOpt, SimpleFormat, catalog, console, fail


def register(app: typer.Typer) -> None:
    app.command("datasheet")(datasheet)


def datasheet(
    name: Annotated[str, typer.Argument(help="Datasheet name or alias, e.g. 'Strike Squad'.")],
    faction: Annotated[Optional[str], typer.Option(
        "--faction", help="The Army Faction, when several have a unit of that name.")] = None,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f",
                                                 help="Output format.")] = SimpleFormat.text,
    data: DataOpt = None,
) -> None:
    """Print a datasheet: profiles, weapons with all their characteristics and abilities,
    wargear options, abilities, keywords, legal Starting Strengths with points, base size, and
    the Boarding Actions Detachments that may take it."""
    from bagm.data.packs import UnitLookupError
    from bagm.io.yamlsafe import InputError
    from bagm.render.datasheet import DatasheetView

    try:
        f, ds = catalog(data).find_unit(name, faction)
    except (UnitLookupError, InputError) as exc:
        fail(str(exc))
    view = DatasheetView.of(f, ds)
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(view.as_dict()))
    else:
        from bagm.render.datasheet import datasheet_text

        console().print(datasheet_text(view))
