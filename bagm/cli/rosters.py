"""``bagm show``, ``bagm squads`` and ``bagm underdog``: one roster (or two) validated and
shown as a card, as Boarding Squads, or settled for the Underdog. Their shared options are
declared once (:func:`roster_options`); kept out of ``cli.common`` so that ``bagm validate``'s
start-up does not build them."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from bagm.cli.common import DataOpt, FormatOpt, ImportOpt, SimpleFormat, catalog, fail, read_roster
from bagm.cli.common import console as open_console

if TYPE_CHECKING:
    from bagm.data.packs import Catalog
    from bagm.roster.report import ValidationReport

RosterArg = Annotated[Path, typer.Argument(help="A roster file.")]


@dataclass(frozen=True)
class RosterOptions:
    """The options of every command that shows a roster (``--format``, ``--data``,
    ``--import``), declared once by :func:`roster_options`."""

    format: SimpleFormat
    data: list[Path] | None
    importing: bool

    @property
    def json(self) -> bool:
        return self.format is SimpleFormat.json

    def catalog(self) -> "Catalog":
        """The data packs these options name (one catalogue serves several rosters)."""
        return catalog(self.data)

    def load(self, path: Path, catalog_: "Catalog | None" = None) -> "ValidationReport":
        """One roster validated; unreadable input ends the command (exit 2)."""
        from bagm.io.yamlsafe import InputError
        from bagm.roster.validate import validate

        try:
            cat = catalog_ or self.catalog()
            return validate(read_roster(path, cat, self.importing), cat)
        except InputError as exc:
            fail(str(exc))


# the parameters roster_options adds, after the command's own (their order is --help's)
_ROSTER_PARAMETERS = (
    inspect.Parameter("format", inspect.Parameter.KEYWORD_ONLY, default=SimpleFormat.text,
                      annotation=FormatOpt),
    inspect.Parameter("data", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=DataOpt),
    inspect.Parameter("import_", inspect.Parameter.KEYWORD_ONLY, default=False,
                      annotation=ImportOpt),
)


def roster_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command ``--format``, ``--data`` and ``--import`` (after its own parameters):
    the command declares a last parameter ``options: RosterOptions`` and gets the three in it.

    Typer reads a command's parameters with ``inspect.signature``, which honours a function's
    ``__signature__`` (PEP 362): the wrapper states the command's own parameters plus the
    three, and Typer calls it with each by name.
    """
    own = inspect.signature(command, eval_str=True)
    if list(own.parameters)[-1:] != ["options"]:
        raise TypeError(f"{command.__name__}: its last parameter must be 'options: RosterOptions'")
    shown = [p for name, p in own.parameters.items() if name != "options"]
    shown += _ROSTER_PARAMETERS

    @functools.wraps(command)
    def run(**given: Any) -> None:
        options = RosterOptions(given.pop("format"), given.pop("data"), given.pop("import_"))
        command(**given, options=options)

    run.__signature__ = own.replace(parameters=shown)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in shown}
    return run


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
