"""``bagm bfg``: Battlefleet Gothic End Phase odds (boarding actions, grapples, Hit-and-Run
attacks, damage control, Blast Marker removal).

Thin: parse the options, call :mod:`bagm.bfg`, render. The library and the renderers are imported
inside the commands so that registering the group costs no start-up time.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from bagm.cli.common import FormatOpt, SimpleFormat, console, fail

if TYPE_CHECKING:
    from bagm.bfg.ships import Fleet, Ship

SHIP_HELP = ("A ship: NAME,damage=N[,turrets=N][,race=orks|chaos|tau][,crew=space-marines]"
             "[,mark=khorne|nurgle][,kind=escort][,crippled][,blast][,orders=lock-on]"
             "[,squadron=S][,crippled-at=N][,shields=N]")

T = TypeVar("T")

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


class Policy(str, Enum):
    best = "best"
    spread = "spread"
    order = "order"


PolicyOpt = Annotated[Policy, typer.Option(
    "--policy", help="How a boarding party shares out the damage points it loses in a grapple "
    "(the attacking player's choice): best (the most chance to win, the default), spread (to "
    "the ship with the most left), order (the ships in the order given).")]


class DiceKind(str, Enum):
    d6 = "d6"
    two_d6 = "2d6"


BonusOpt = Annotated[bool, typer.Option(
    "--bonus", help="The attacking fleet has +1 to its Hit-and-Run attacks.")]
MinusOpt = Annotated[bool, typer.Option(
    "--minus", help="The target's fleet gives enemy Hit-and-Run attacks -1.")]
DiceOpt = Annotated[DiceKind, typer.Option(
    "--dice", help="d6, or 2d6 added (e.g. Dark Eldar Impalers).")]
TyranidsOpt = Annotated[bool, typer.Option(
    "--tyranids", help="The target is Tyranid: 2D6 attacks roll twice and keep the lower.")]
FleetOpt = Annotated[Path | None, typer.Option(
    "--fleet", help="Your ships by name (YAML, 'ships: {NAME: {damage: N, ...}}'): then a ship "
    "may be given as NAME, or NAME,damage=N to change it.", show_default=False)]
RollOpt = Annotated[bool, typer.Option(
    "--roll", help="Roll the dice instead (at the table): every roll and what it does.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the dice for --roll.")]
BraceOpt = Annotated[int | None, typer.Option(
    "--brace", help="The target escort is on Brace For Impact!: it saves an attack on a D6 of "
    "this or more (your rulebook's number; the text gives none).", show_default=False)]
TableOpt = Annotated[Path | None, typer.Option(
    "--table", help="Your Critical Hits table (YAML, 'critical_hits: {2: effect, ...}') to name "
    "the scores; the rules text does not give it.", show_default=False)]


def _error(exc: Exception) -> NoReturn:
    fail(f"bfg: {exc}")


def _ship(spec: str, what: str, fleet: Fleet | None = None) -> Ship:
    from bagm.bfg.ships import parse_ship

    return _run(parse_ship, spec, what, fleet)


def _fleet(path: Path | None) -> Fleet | None:
    """The ships of a --fleet file."""
    if path is None:
        return None
    from bagm.bfg.fleet import load_fleet
    from bagm.io.yamlsafe import InputError

    try:
        return load_fleet(path)
    except InputError as exc:
        _error(exc)


def _run(resolve: Callable[..., T], *args: Any) -> T:
    """Call the library; a request the rules cannot answer is the user's error (exit 2)."""
    from bagm.bfg.ships import BfgError

    try:
        return resolve(*args)
    except BfgError as exc:
        _error(exc)


def _show_roll(format: SimpleFormat, play: Callable[..., Any], *args: Any) -> None:
    """Play the procedure with seeded dice and print what they did."""
    from bagm.render import bfg_render

    result = _run(play, *args)
    _show(format, result.as_dict, lambda: bfg_render.played(result))


def _show(format: SimpleFormat, data: Callable[[], Any], render: Callable[[], Any]) -> None:
    """Print the result as JSON or as rich tables (through the one console)."""
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(data()))
    else:
        console().print(render())


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
    fleet: FleetOpt = None,
    policy: PolicyOpt = Policy.best,
    roll: RollOpt = False,
    seed: SeedOpt = 0,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Exact odds of a boarding action: the result (Stalemate ... Overwhelmed, draw), damage
    to the loser, each side's critical hits, and how a grapple after a draw ends."""
    from bagm.bfg.report import board as resolve
    from bagm.render import bfg_render

    ships = _fleet(fleet)
    party = [_ship(s, f"--attacker {i}", ships) for i, s in enumerate(attacker, 1)]
    target = _ship(defender, "--defender", ships)
    if roll:
        from bagm.bfg.play import play_board

        return _show_roll(format, play_board, seed, party, target, separately, policy.value)
    report = _run(resolve, party, target, separately, policy.value)
    _show(format, report.as_dict, lambda: bfg_render.board(report))


@bfg_app.command("grapple")
def grapple(
    attacker: Annotated[list[str], typer.Option(
        "--attacker", "-a", help=f"A boarding ship (repeat for a party that boarded together). "
        f"{SHIP_HELP}", show_default=False)],
    defender: Annotated[str, typer.Option("--defender", "-d", help="The boarded ship.",
                                          show_default=False)],
    fleet: FleetOpt = None,
    policy: PolicyOpt = Policy.best,
    roll: RollOpt = False,
    seed: SeedOpt = 0,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """How a grapple ends (exact Markov chain): ships that drew fight each End Phase until one
    side is at 0 damage points."""
    from bagm.bfg.grapple import NOTES, PARTY_NOTE, policy_note
    from bagm.bfg.grapple import grapple as resolve
    from bagm.render import bfg_render

    ships = _fleet(fleet)
    party = [_ship(s, f"--attacker {i}", ships) for i, s in enumerate(attacker, 1)]
    d = _ship(defender, "--defender", ships)
    if roll:
        from bagm.bfg.play import play_grapple

        return _show_roll(format, play_grapple, seed, party, d, policy.value)
    odds = _run(resolve, party, d, policy.value)
    notes = NOTES + ((PARTY_NOTE, policy_note(policy.value)) if len(party) > 1 else ())
    _show(format, lambda: {**odds.as_dict(), "notes": list(notes)},
          lambda: bfg_render.grapple(odds, notes))


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
    brace: BraceOpt = None,
    table: TableOpt = None,
    roll: RollOpt = False,
    seed: SeedOpt = 0,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Exact odds of Hit-and-Run attacks: success, the Critical Hits score against a capital
    ship, destruction of an escort."""
    from bagm.bfg.hit_and_run import Attack
    from bagm.bfg.hit_and_run import hit_and_run as resolve
    from bagm.render import bfg_render

    names = _names(table)
    how = Attack(dice.value, bonus, minus, tyranids)
    if roll:
        from bagm.bfg.play import play_hit_and_run

        return _show_roll(format, play_hit_and_run, seed, target.value, how, attacks, names,
                          brace)
    odds = _run(resolve, target.value, how, attacks, brace)
    extra: tuple[str, ...] = (_MEANS_NOTES[by],)
    if by is Means.teleport and attacks > 1:
        extra += (f"{attacks} teleport attacks need {attacks} ships: a ship makes one each turn.",)
    _show(format, lambda: {**odds.as_dict(names), "by": by.value,
                           "notes": [*extra, *odds.notes]},
          lambda: bfg_render.hit_and_run(odds, names, extra))


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
    fleet: FleetOpt = None,
    bonus: BonusOpt = False,
    minus: MinusOpt = False,
    dice: DiceOpt = DiceKind.d6,
    tyranids: TyranidsOpt = False,
    brace: BraceOpt = None,
    table: TableOpt = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """May this ship make a teleport attack (every condition, with reasons), and its odds."""
    from bagm.bfg.hit_and_run import TELEPORT_NOTES, Attack
    from bagm.bfg.hit_and_run import teleport as resolve
    from bagm.render import bfg_render

    ships = _fleet(fleet)
    a, t = _ship(attacker, "--attacker", ships), _ship(target, "--target", ships)
    names = _names(table)
    odds = _run(resolve, a, t, range_cm, Attack(dice.value, bonus, minus, tyranids), already,
                brace)
    _show(format, lambda: {**odds.as_dict(names),
                           "notes": [*TELEPORT_NOTES, *(odds.odds.notes if odds.odds else ())]},
          lambda: bfg_render.teleport(odds, names, TELEPORT_NOTES))
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
    roll: RollOpt = False,
    seed: SeedOpt = 0,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Damage control: the distribution of systems and fires repaired (a 6 on each D6)."""
    from bagm.bfg.end_phase import repairs
    from bagm.render import bfg_render

    if roll:
        from bagm.bfg.play import play_repairs

        return _show_roll(format, play_repairs, seed, damage, blast, needing)
    odds = _run(repairs, damage, blast, needing)
    _show(format, odds.as_dict, lambda: bfg_render.repairs(odds))


@bfg_app.command("blast-markers")
def blast_markers(
    markers: Annotated[int, typer.Option("--markers", help="Blast Markers on the table.",
                                         show_default=False)],
    in_contact: Annotated[int, typer.Option(
        "--in-contact", help="Of them, in contact with ships' bases (never removed).")] = 0,
    roll: RollOpt = False,
    seed: SeedOpt = 0,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Blast Marker removal: the distribution of markers removed (D6, none in contact)."""
    from bagm.bfg.end_phase import blast_removal
    from bagm.render import bfg_render

    if roll:
        from bagm.bfg.play import play_blast_removal

        return _show_roll(format, play_blast_removal, seed, markers, in_contact)
    odds = _run(blast_removal, markers, in_contact)
    _show(format, odds.as_dict, lambda: bfg_render.blast_removal(odds))
