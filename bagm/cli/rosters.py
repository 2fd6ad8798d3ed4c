"""``bagm show``, ``bagm squads`` and ``bagm underdog``: one roster (or two) validated and
shown as a card, as Boarding Squads, or settled for the Underdog."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from bagm.cli.common import RosterOptions, fail, roster_options
from bagm.cli.common import console as open_console

RosterArg = Annotated[Path, typer.Argument(help="A roster file.")]


@roster_options
def show(roster: RosterArg, options: RosterOptions) -> None:
    """Print a roster card: units, models, points, Warlord, Enhancements, findings."""
    report = options.load(roster)
    if options.json:
        from bagm.render.formats import to_json

        units = [{"name": u.display, "unit": u.name, "models": u.models, "points": u.points,
                  "warlord": u.warlord, "enhancement": u.enhancement, "weapon": u.weapon}
                 for u in report.units]
        typer.echo(to_json({"name": report.title, "faction": report.faction,
                            "detachment": report.detachment, "edition": report.edition,
                            "units": units, **report.as_dict()}))
    else:
        from bagm.render.rich_render import findings_table, roster_card

        console = open_console()
        console.print(roster_card(report))
        console.print(findings_table(report))
    raise typer.Exit(0 if report.valid else 1)


@roster_options
def squads(roster: RosterArg, options: RosterOptions) -> None:
    """The army after "Form Boarding Squads": 10-model units become two 5-model units."""
    from bagm.roster.squads import form_boarding_squads

    report = options.load(roster)
    result = form_boarding_squads(report.path, report.units)
    if options.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(result.as_dict()))
    else:
        from bagm.render.rich_render import findings_table, squads_table

        console = open_console()
        console.print(squads_table(result))
        if not report.valid:
            console.print(findings_table(report))
    raise typer.Exit(0 if report.valid else 1)


@roster_options
def underdog(
    roster_a: Annotated[Path, typer.Argument(metavar="A", help="Player A's roster.")],
    roster_b: Annotated[Path, typer.Argument(metavar="B", help="Player B's roster.")],
    mission: Annotated[Optional[int], typer.Option("--mission", "-m",
                                                   help="Mission number (11-33 or 1-6).")] = None,
    *,
    options: RosterOptions,
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
    shared = options.catalog()  # one catalog: a pack both rosters use is read once
    a, b = options.load(roster_a, shared), options.load(roster_b, shared)
    result = decide(a.points, b.points, (a.title, b.title), info)
    if options.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(result.as_dict()))
    else:
        from rich.text import Text

        from bagm.render.rich_render import underdog_panel

        console = open_console()
        console.print(underdog_panel(result))
        for r in (a, b):
            if not r.valid:
                console.print(Text.assemble(("warning:", "yellow"), f" {r.path} is not a valid "
                                            f"Boarding Patrol (run 'bagm validate {r.path}')"))
    raise typer.Exit(0 if a.valid and b.valid else 1)


def register(app: typer.Typer) -> None:
    for command in (show, squads, underdog):
        app.command()(command)
