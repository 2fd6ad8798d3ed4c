"""``bagm bfg``: Battlefleet Gothic End Phase odds (boarding actions, grapples, Hit-and-Run
attacks, damage control, Blast Marker removal).

Thin: parse the options, call :mod:`bagm.bfg`, render. The library and the renderers are imported
inside the commands so that registering the group costs no start-up time.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from bagm.cli.common import SimpleFormat, fail

if TYPE_CHECKING:
    from bagm.bfg.ships import Ship

SHIP_HELP = ("A ship: NAME,damage=N[,turrets=N][,race=orks|chaos|tau][,crew=space-marines]"
             "[,mark=khorne|nurgle][,kind=escort][,crippled][,blast][,orders=lock-on]"
             "[,squadron=S][,crippled-at=N][,shields=N]")

bfg_app = typer.Typer(help="Battlefleet Gothic, the End Phase: exact odds of boarding actions, "
                      "grapples, Hit-and-Run attacks, damage control and Blast Marker removal.",
                      no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(bfg_app, name="bfg")


class Target(str, Enum):
    capital = "capital"
    escort = "escort"


class Means(str, Enum):
    assault_boats = "assault-boats"
    boarding_torpedoes = "boarding-torpedoes"
    teleport = "teleport"


class DiceKind(str, Enum):
    d6 = "d6"
    two_d6 = "2d6"


FormatOpt = Annotated[SimpleFormat, typer.Option("--format", "-f", help="Output format.")]
BonusOpt = Annotated[bool, typer.Option(
    "--bonus", help="The attacking fleet has +1 to its Hit-and-Run attacks.")]
MinusOpt = Annotated[bool, typer.Option(
    "--minus", help="The target's fleet gives enemy Hit-and-Run attacks -1.")]
DiceOpt = Annotated[DiceKind, typer.Option(
    "--dice", help="d6, or 2d6 added (e.g. Dark Eldar Impalers).")]
TyranidsOpt = Annotated[bool, typer.Option(
    "--tyranids", help="The target is Tyranid: 2D6 attacks roll twice and keep the lower.")]
TableOpt = Annotated[Path | None, typer.Option(
    "--table", help="Your Critical Hits table (YAML, 'critical_hits: {2: effect, ...}') to name "
    "the scores; the rules text does not give it.", show_default=False)]


def _error(exc: Exception) -> NoReturn:
    fail(f"bfg: {exc}")


def _ship(spec: str, what: str) -> Ship:
    from bagm.bfg.ships import BfgError, parse_ship

    try:
        return parse_ship(spec, what)
    except BfgError as exc:
        _error(exc)


def _print(renderable: Any) -> None:
    from rich.console import Console

    Console(highlight=False).print(renderable)


def _json(value: Any) -> None:
    from bagm.render.formats import to_json

    typer.echo(to_json(value))


def _names(table: Path | None) -> dict[int, str] | None:
    if table is None:
        return None
    from bagm.bfg.tables import load_critical_hits
    from bagm.io.yamlsafe import InputError

    try:
        return load_critical_hits(table)
    except InputError as exc:
        _error(exc)


@bfg_app.command("board")
def board(
    attacker: Annotated[list[str], typer.Option(
        "--attacker", "-a", help=f"A boarding ship (repeat for several). {SHIP_HELP}",
        show_default=False)],
    defender: Annotated[str, typer.Option(
        "--defender", "-d", help="The ship being boarded (it adds its turrets=N).",
        show_default=False)],
    separately: Annotated[bool, typer.Option(
        "--separately", help="Several ships board one after another (one roll per capital ship "
        "or escort squadron) instead of together (one roll).")] = False,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Exact odds of a boarding action: the result (Stalemate ... Overwhelmed, draw), damage
    to the loser, each side's critical hits, and how a grapple after a draw ends."""
    from bagm.bfg.report import board as resolve
    from bagm.bfg.ships import BfgError

    party = [_ship(s, f"--attacker {i}") for i, s in enumerate(attacker, 1)]
    target = _ship(defender, "--defender")
    try:
        report = resolve(party, target, separately)
    except BfgError as exc:
        _error(exc)
    if format is SimpleFormat.json:
        _json(report.as_dict())
    else:
        from bagm.render.bfg_render import board as render

        _print(render(report))


@bfg_app.command("grapple")
def grapple(
    attacker: Annotated[str, typer.Option("--attacker", "-a", help=SHIP_HELP,
                                          show_default=False)],
    defender: Annotated[str, typer.Option("--defender", "-d", help="The boarded ship.",
                                          show_default=False)],
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """How a grapple ends (exact Markov chain): two ships that drew fight each End Phase until
    one is at 0 damage points."""
    from bagm.bfg.grapple import grapple as resolve
    from bagm.bfg.ships import BfgError

    a, d = _ship(attacker, "--attacker"), _ship(defender, "--defender")
    try:
        odds = resolve(a, d)
    except BfgError as exc:
        _error(exc)
    if format is SimpleFormat.json:
        from bagm.bfg.boarding import HEADER_NOTE

        _json({**odds.as_dict(), "notes": [HEADER_NOTE]})
    else:
        from rich.console import Group

        from bagm.bfg.boarding import HEADER_NOTE
        from bagm.render.bfg_render import grapple as render
        from bagm.render.bfg_render import notes

        _print(Group(render(odds), notes([HEADER_NOTE])))


_MEANS_NOTES = {
    Means.assault_boats: "Assault boats: --attacks is the number of markers that survived the "
                         "target's turrets (shot at like bombers; not in this text). Each makes "
                         "one attack.",
    Means.boarding_torpedoes: "Boarding torpedoes: --attacks is the number that hit (turrets and "
                              "the to-hit roll as for ordinary torpedoes; not in this text). Each "
                              "makes one attack instead of a point of damage.",
    Means.teleport: "Teleport attacks: one per ship each turn; check one with 'bagm bfg "
                    "teleport'.",
}


@bfg_app.command("hit-and-run")
def hit_and_run(
    target: Annotated[Target, typer.Option(
        "--target", "-t", help="capital or escort.")] = Target.capital,
    by: Annotated[Means, typer.Option(
        "--by", help="How the attack arrives.")] = Means.assault_boats,
    attacks: Annotated[int, typer.Option("--attacks", "-n", help="How many attacks reach the "
                                         "target.")] = 1,
    bonus: BonusOpt = False,
    minus: MinusOpt = False,
    dice: DiceOpt = DiceKind.d6,
    tyranids: TyranidsOpt = False,
    table: TableOpt = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Exact odds of Hit-and-Run attacks: success, the Critical Hits score against a capital
    ship, destruction of an escort."""
    from bagm.bfg.hit_and_run import Attack
    from bagm.bfg.hit_and_run import hit_and_run as resolve
    from bagm.bfg.ships import BfgError

    names = _names(table)
    try:
        odds = resolve(target.value, Attack(dice.value, bonus, minus, tyranids), attacks)
    except BfgError as exc:
        _error(exc)
    extra: tuple[str, ...] = (_MEANS_NOTES[by],)
    if by is Means.teleport and attacks > 1:
        extra += (f"{attacks} teleport attacks need {attacks} ships: a ship makes one each turn.",)
    if format is SimpleFormat.json:
        out = odds.as_dict(names)
        out["by"] = by.value
        out["notes"] = [*extra, *out["notes"]]
        _json(out)
    else:
        from bagm.render.bfg_render import hit_and_run as render

        _print(render(odds, names, extra))


@bfg_app.command("teleport")
def teleport(
    attacker: Annotated[str, typer.Option("--attacker", "-a", help=SHIP_HELP,
                                          show_default=False)],
    target: Annotated[str, typer.Option("--target", "-t", help="The target ship; say shields=N "
                                        "(0 when knocked down).", show_default=False)],
    range_cm: Annotated[float, typer.Option("--range", help="Distance to the target in cm.",
                                            show_default=False)],
    already: Annotated[bool, typer.Option(
        "--already", help="The ship has already made a teleport attack this turn.")] = False,
    bonus: BonusOpt = False,
    minus: MinusOpt = False,
    dice: DiceOpt = DiceKind.d6,
    tyranids: TyranidsOpt = False,
    table: TableOpt = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """May this ship make a teleport attack (every condition, with reasons), and its odds."""
    from bagm.bfg.hit_and_run import TELEPORT_NOTES, Attack
    from bagm.bfg.hit_and_run import teleport as resolve
    from bagm.bfg.ships import BfgError

    a, t = _ship(attacker, "--attacker"), _ship(target, "--target")
    names = _names(table)
    try:
        odds = resolve(a, t, range_cm, Attack(dice.value, bonus, minus, tyranids), already)
    except BfgError as exc:
        _error(exc)
    extra = TELEPORT_NOTES
    if format is SimpleFormat.json:
        out = odds.as_dict(names)
        out["notes"] = [*extra, *(out["odds"] or {}).get("notes", [])]
        _json(out)
    else:
        from bagm.render.bfg_render import teleport as render

        _print(render(odds, names, extra))
    raise typer.Exit(0 if odds.eligible else 1)


@bfg_app.command("repair")
def repair(
    damage: Annotated[int, typer.Option("--damage", help="The capital ship's damage points "
                                        "remaining.", show_default=False)],
    blast: Annotated[bool, typer.Option("--blast", help="Blast Markers in contact: half the "
                                        "dice, rounding up.")] = False,
    needing: Annotated[int | None, typer.Option(
        "--needing", help="Critical hits and fires to repair (caps the repairs).",
        show_default=False)] = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Damage control: the distribution of systems and fires repaired (a 6 on each D6)."""
    from bagm.bfg.end_phase import repairs
    from bagm.bfg.ships import BfgError

    try:
        odds = repairs(damage, blast, needing)
    except BfgError as exc:
        _error(exc)
    if format is SimpleFormat.json:
        _json(odds.as_dict())
    else:
        from bagm.render.bfg_render import repairs as render

        _print(render(odds))


@bfg_app.command("blast-markers")
def blast_markers(
    markers: Annotated[int, typer.Option("--markers", help="Blast Markers on the table.",
                                         show_default=False)],
    in_contact: Annotated[int, typer.Option(
        "--in-contact", help="Of them, in contact with ships' bases (never removed).")] = 0,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Blast Marker removal: the distribution of markers removed (D6, none in contact)."""
    from bagm.bfg.end_phase import blast_removal
    from bagm.bfg.ships import BfgError

    try:
        odds = blast_removal(markers, in_contact)
    except BfgError as exc:
        _error(exc)
    if format is SimpleFormat.json:
        _json(odds.as_dict())
    else:
        from bagm.render.bfg_render import blast_removal as render

        _print(render(odds))
