"""``bagm skirmish ...``: Skirmish Battles (rules text 002), its own rules system.

Thin: parse, call :mod:`bagm.skirmish`, render. Everything heavy is imported inside the
commands so that registering the group costs no start-up time.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer

from bagm.cli.common import Format, SimpleFormat, console, fail

if TYPE_CHECKING:
    from bagm.skirmish.data import SkirmishData

skirmish_app = typer.Typer(
    help="Skirmish Battles: squad rosters, campaigns, exact attack odds and scenarios.",
    no_args_is_help=True)

SkDataOpt = Annotated[
    Optional[list[Path]],
    typer.Option("--data", help="Skirmish data overlay supplying values the text lost "
                 "(repeatable).", show_default=False),
]


def register(app: typer.Typer) -> None:
    app.add_typer(skirmish_app, name="skirmish")


def _error(exc: Exception) -> NoReturn:
    fail(f"skirmish: {exc}")


def _data(paths: list[Path] | None) -> SkirmishData:
    from bagm.io.yamlsafe import InputError
    from bagm.skirmish.data import load_data

    try:
        return load_data(paths or ())
    except InputError as exc:
        _error(exc)


def _parse_rolls(rolls: str) -> list[int]:
    """The results a player rolled at the table: ``--rolls 3,5``."""
    try:
        return [int(v) for v in rolls.replace(" ", "").split(",") if v]
    except ValueError:
        fail("skirmish: --rolls takes die results separated by commas, e.g. --rolls 3,5")


def _dice(seed: Optional[int], rolls: Optional[str]) -> Any:
    """Dice from a seed, or the results a player rolled at the table."""
    from bagm.chance.dice import Dice

    if rolls is not None:
        return Dice.scripted(_parse_rolls(rolls))
    return Dice(seed if seed is not None else 0)


@skirmish_app.command("odds")
def odds(
    attacks: Annotated[Optional[str], typer.Option(
        "--attacks", "-n", help="Shots or close-combat attacks: 3, D3... (or give --type).")] = None,
    weapon: Annotated[Optional[str], typer.Option(
        "--weapon", help="A special weapon whose rules the text gives: 'Power Fist', 'Krak Grenade'... (see 'bagm skirmish weapons').")] = None,
    weapon_type: Annotated[Optional[str], typer.Option(
        "--type", help="Weapon type for the number of shots: pistol, rapid_fire, assault, heavy.")] = None,
    x: Annotated[int, typer.Option("--x", help="X of Assault X / Heavy X.")] = 1,
    moved: Annotated[bool, typer.Option("--moved", help="The shooter moved this turn.")] = False,
    beyond_12: Annotated[bool, typer.Option("--beyond-12", help="The target is beyond 12\" (Rapid Fire).")] = False,
    fast_shot: Annotated[bool, typer.Option("--fast-shot", help="Fast Shot skill.")] = False,
    close_combat: Annotated[bool, typer.Option("--cc", help="Close-combat attacks (WS against WS).")] = False,
    bs: Annotated[Optional[int], typer.Option("--bs", help="Ballistic Skill (shooting).")] = None,
    ws: Annotated[Optional[int], typer.Option("--ws", help="Attacker's Weapon Skill (close combat).")] = None,
    enemy_ws: Annotated[Optional[int], typer.Option("--enemy-ws", help="Target's Weapon Skill (close combat).")] = None,
    s: Annotated[Optional[str], typer.Option("--s", help="Strength: 4, or rolled: D6+6 [default 4].")] = None,
    ap: Annotated[Optional[int], typer.Option("--ap", help="AP of the weapon (none if not given).")] = None,
    t: Annotated[int, typer.Option("--t", help="Target's Toughness.")] = 4,
    sv: Annotated[Optional[int], typer.Option("--sv", help="Target's armour save (3 for 3+).")] = None,
    invuln: Annotated[Optional[int], typer.Option("--invuln", help="Invulnerable save (4 for 4+).")] = None,
    cover: Annotated[bool, typer.Option("--cover", help="Line of sight through difficult terrain.")] = False,
    cover_save: Annotated[int, typer.Option("--cover-save", help="The cover save (4, or 3 for Rangers).")] = 4,
    w: Annotated[int, typer.Option("--w", help="Target's Wounds.")] = 1,
    hit_on: Annotated[Optional[int], typer.Option("--hit-on", help="A fixed roll to hit (Markerlight 2, Traitors 3).")] = None,
    targeter: Annotated[bool, typer.Option("--targeter", help="Targeter: +1 to hit.")] = False,
    auto_hit: Annotated[bool, typer.Option("--auto-hit", help="Hits automatically (Stunned target, Template).")] = False,
    reroll_hits: Annotated[str, typer.Option("--reroll-hits", help="none, failed (Twin-Linked, Ammo Runt) or one (Spiky Bits).")] = "none",
    reroll_wounds: Annotated[str, typer.Option("--reroll-wounds", help="none, failed (Lightning Claws, Crack Shot) or one.")] = "none",
    gauss: Annotated[bool, typer.Option("--gauss", help="Gauss: a 6 always wounds.")] = False,
    no_armour: Annotated[bool, typer.Option("--no-armour", help="No armour save (Power Weapon, Power Fist...).")] = False,
    choppa: Annotated[bool, typer.Option("--choppa", help="Choppa: armour saves better than 4+ at 4+.")] = False,
    damage_bonus: Annotated[int, typer.Option("--damage-bonus", help="Added to Damage rolls (Strike to Injure 1, Plague Weapon 2).")] = 0,
    sniper: Annotated[bool, typer.Option("--sniper", help="Sniper Rifle on Overwatch.")] = False,
    blast: Annotated[bool, typer.Option("--blast", help="Blast: a hit model is Pinned.")] = False,
    template: Annotated[bool, typer.Option("--template", help="Tear-drop template: hits automatically, no cover.")] = False,
    partial: Annotated[bool, typer.Option("--partial", help="Partly under the template: hit on a further 4+.")] = False,
    pulse_carbine: Annotated[bool, typer.Option("--pulse-carbine", help="Pulse Carbine: a wounded model is Pinned.")] = False,
    thunder_hammer: Annotated[bool, typer.Option("--thunder-hammer", help="Thunder Hammer: a hit model is Stunned.")] = False,
    no_cover: Annotated[bool, typer.Option("--no-cover", help="No cover save (Marksman, Soul Seeker).")] = False,
    shooter_above: Annotated[bool, typer.Option("--shooter-above", help="The shooter is 6\" or more above: saves -1.")] = False,
    target_above: Annotated[bool, typer.Option("--target-above", help="The target is 6\" or more above: cover +1.")] = False,
    dodge: Annotated[bool, typer.Option("--dodge", help="Dodge: an extra unmodified 6+ save in close combat.")] = False,
    monstrous: Annotated[bool, typer.Option("--monstrous", help="The attacker is Monstrous (your statement: the text never says which models are): no armour save, a Damage roll for every wound (close combat).")] = False,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
) -> None:
    """Exact odds (fractions) of what N shots or close-combat attacks do to one model: hit,
    wound, save, and the Damage Table's Pinned / Stunned / Out of Action / Killed."""
    from bagm.chance.dice import DiceError, parse_dice
    from bagm.skirmish.odds import Attack, Reroll, Target
    from bagm.skirmish.odds import odds as resolve
    from bagm.skirmish.tables import RulesError, shots

    try:
        preset: dict[str, Any] = {}
        if weapon is not None:
            from bagm.skirmish.odds import find_weapon

            preset = find_weapon(weapon, _data(None).get("weapons"))
        s_text: str | int = (preset["strength"] if s is None and "strength" in preset
                             else s if s is not None else 4)
        s_expr = parse_dice(s_text, "--s")
        if "strength_times" in preset or "strength_plus" in preset:
            if not s_expr.is_constant:
                fail("skirmish odds: give the user's Strength as a number with this weapon")
            base = s_expr.bonus
            base = min(10, base * 2) if "strength_times" in preset else base + preset["strength_plus"]
            s_expr = parse_dice(base, "--s")
        volley = parse_dice(preset["hits"], "hits") if "hits" in preset else None
        if volley is not None and volley.is_constant:
            volley = None  # one shot: a plain attack
        n_expr = parse_dice(attacks, "--attacks") if attacks is not None else \
            parse_dice(1) if "hits" in preset else None
        if n_expr is None:
            if weapon_type is None:
                fail("skirmish odds: give --attacks N or a weapon --type")
            n_expr = parse_dice(shots(weapon_type, x, moved=moved, within_12=not beyond_12,
                                      fast_shot=fast_shot))
        try:
            rh, rw = Reroll(reroll_hits), Reroll(preset.get("reroll_wounds", reroll_wounds))
        except ValueError:
            fail("skirmish odds: --reroll-hits and --reroll-wounds take none, failed or one")
        cc = close_combat or bool(preset.get("close_combat"))
        attack = Attack(n_expr.min, s_expr.min, close_combat=cc, bs=bs, ws=ws, hit_on=hit_on,
                        hit_bonus=1 if targeter else 0,
                        auto_hit=auto_hit or template or bool(preset.get("template") or preset.get("auto_hit")),
                        ap=ap if ap is not None else preset.get("ap"),
                        reroll_hits=rh, reroll_wounds=rw, gauss=gauss or bool(preset.get("gauss")),
                        no_armour=no_armour or bool(preset.get("no_armour")),
                        choppa=choppa or bool(preset.get("choppa")),
                        damage_bonus=damage_bonus + preset.get("damage_bonus", 0),
                        sniper=sniper or bool(preset.get("sniper")),
                        pins_on_hit=blast or bool(preset.get("blast")),
                        pins_on_wound=pulse_carbine or bool(preset.get("pins_on_wound")),
                        stuns_on_hit=thunder_hammer or bool(preset.get("stuns_on_hit")),
                        no_cover=no_cover or template or bool(preset.get("template")), partial=partial,
                        monstrous=monstrous)
        target = Target(t, sv, invuln, cover, cover_save, w, enemy_ws, shooter_above, target_above,
                        dodge)
        if volley is not None:  # a thrown grenade: one roll to hit, then its hits
            from bagm.skirmish.odds import volley as land

            result = land(attack, target, volley.distribution, s_expr.distribution)
            n_expr = parse_dice(1)
            result.notes.insert(0, f"a throw that hits lands {volley} hits")
        else:
            result = resolve(attack, target, strength=s_expr.distribution,
                             attacks=n_expr.distribution)
    except (RulesError, DiceError) as exc:
        _error(exc)
    if weapon is not None:
        result.notes.insert(0, f"{preset['name']} ({preset['section']})")
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(result.as_dict()))
    else:
        from bagm.skirmish.render import odds_view

        console().print(odds_view(result, str(n_expr), str(s_expr)))


@skirmish_app.command("weapons")
def weapons(data: SkDataOpt = None) -> None:
    """The special weapons 'odds --weapon' knows, with what the text says they do."""
    from rich.table import Table
    from rich.text import Text

    tab = Table(show_edge=False)
    for col in ("weapon", "section", "rules"):
        tab.add_column(col)
    for name, w in _data(data).get("weapons").items():
        rules = ", ".join(f"{k}: {v}" for k, v in w.items() if k != "section")
        tab.add_row(Text(name), Text(w["section"]), Text(rules))
    console().print(tab)


@skirmish_app.command("scenario")
def scenario(
    name: Annotated[Optional[str], typer.Argument(help="Show this scenario instead of rolling.")] = None,
    seed: Annotated[Optional[int], typer.Option("--seed", help="Seed for the dice.")] = None,
    rolls: Annotated[Optional[str], typer.Option("--rolls", help="Dice rolled at the table, e.g. 3,5 (four with --reroll).")] = None,
    eldar: Annotated[bool, typer.Option("--eldar", help="A player is Eldar (Farsight may re-roll).")] = False,
    reroll: Annotated[bool, typer.Option("--reroll", help="Use Farsight: re-roll once; the second roll stands.")] = False,
    sides: Annotated[bool, typer.Option("--sides", help="Also roll who chooses to be the Attacker or the Defender.")] = False,
    dark_eldar: Annotated[bool, typer.Option("--dark-eldar", help="A player is Dark Eldar (Pirates: always the Attackers).")] = False,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: SkDataOpt = None,
) -> None:
    """Roll 2D6 on the scenario table (or show one scenario) and print its rules."""
    from bagm.chance.dice import DiceError
    from bagm.skirmish.scenario import (
        SCENARIOS,
        TITLES_NOTE,
        ScenarioError,
        find,
        roll_scenario,
    )

    if reroll and not eldar:
        fail("skirmish scenario: only the Eldar's Farsight re-rolls the scenario (add --eldar)")
    if sides and name is not None:
        fail("skirmish scenario: --sides goes with a rolled scenario")
    roll = None
    side_rolls: list[tuple[int, int]] = []
    pirates = "Pirates: the Dark Eldar are always the Attackers (no roll)"
    sides_text = ""
    if dark_eldar:
        sides_text = pirates
    try:
        if name is not None:
            chosen = find(name)
        else:
            table = {int(k): str(v) for k, v in _data(data).get("scenario_table").items()
                     if str(k).isdigit()}
            dice = _dice(seed, rolls)
            roll = roll_scenario(dice, table, farsight_reroll=reroll)
            if sides and not dark_eldar:
                from bagm.skirmish.scenario import roll_sides

                side_rolls = roll_sides(dice)
            if dice.pending:
                fail(f"skirmish scenario: {len(dice.pending)} roll(s) in --rolls not used")
            chosen = SCENARIOS.get(roll.key)  # type: ignore[assignment]
    except (ScenarioError, DiceError) as exc:
        _error(exc)
    choose = roll is not None and roll.key == "choose"
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        out: dict[str, Any] = {"rolls": [list(r) for r in roll.rolls] if roll else None,
                               "total": roll.total if roll else None,
                               "scenario": None if choose else chosen.as_dict(),
                               "choose": choose, "note": TITLES_NOTE,
                               "sides": [list(r) for r in side_rolls] or None,
                               "attacker_chooses": _chooser(side_rolls),
                               "dark_eldar_attack": dark_eldar}
        typer.echo(to_json(out))
        return
    from rich.text import Text

    con = console()
    if side_rolls:
        sides_text = ("Attacker or Defender: " + "; again: ".join(f"A {a}, B {b}" for a, b in side_rolls)
                      + f": player {_chooser(side_rolls)} chooses")
    if sides_text:
        con.print(Text(sides_text))
    if choose:
        con.print(Text(f"2D6: {roll.total}: the player with the fewer models chooses the scenario"))  # type: ignore[union-attr]
        return
    from bagm.skirmish.render import scenario_view

    con.print(scenario_view(chosen, roll, TITLES_NOTE))
    if eldar and roll is not None and not reroll:
        con.print(Text("Farsight: the Eldar player may re-roll (run again with --reroll)", style="dim"))


def _chooser(rolls: list[tuple[int, int]]) -> str | None:
    if not rolls:
        return None
    a, b = rolls[-1]
    return "A" if a > b else "B"


@skirmish_app.command("new")
def new(
    path: Annotated[Path, typer.Argument(help="The roster file to write (NAME.skirmish.yaml).")],
    faction: Annotated[str, typer.Option("--faction", help="One of the nine units, e.g. Orks.")],
    name: Annotated[Optional[str], typer.Option("--name", help="The unit's name.")] = None,
) -> None:
    """Write a new roster for a faction to fill in (never overwrites a file)."""
    from bagm.io.atomic import write_atomic
    from bagm.skirmish.roster import template

    d = _data(None)
    key = d.faction_key(faction)
    if key is None:
        fail(f"skirmish new: unknown faction '{faction}'; {d.faction_hint(faction)}")
    if not path.name.endswith((".skirmish.yaml", ".skirmish.yml")):
        fail("skirmish new: name the file NAME.skirmish.yaml (Boarding Actions' folder scan "
             "passes such files by)")
    try:
        write_atomic(path, template(d, key, name or path.name.split(".")[0]), overwrite=False)
    except FileExistsError:
        fail(f"skirmish new: {path} exists; it is never overwritten")
    except OSError as exc:
        fail(f"skirmish new: {path}: {exc.strerror or exc}")
    typer.echo(f"wrote {path}")


@skirmish_app.command("tables")
def tables() -> None:
    """The to-hit, to-wound and close-combat tables (the lost rows from their formula)."""
    from bagm.skirmish.data import bundled_raw
    from bagm.skirmish.render import tables_view

    console().print(tables_view(bundled_raw()))


@skirmish_app.command("lost")
def lost(
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: SkDataOpt = None,
) -> None:
    """List every value the text lost, and which overlay supplies it."""
    d = _data(data)
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        def supplied(lost: Any) -> dict[str, Any] | None:
            s = d.supplied.get(lost.path)
            return None if s is None else {"file": s.file, "line": s.line, "example": s.example}

        typer.echo(to_json([{"key": ".".join(map(str, x.path)), "section": x.section,
                             "lost": x.what, "kind": x.kind, "supplied_by": supplied(x)}
                            for x in d.all_lost()]))
        return
    from bagm.skirmish.render import lost_view

    console().print(lost_view(d))


def _skirmish_files(paths: list[Path]) -> list[Path]:
    """Roster files given, or the ``*.skirmish.yaml`` files in the folders given."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(q for q in p.rglob("*.skirmish.y*ml") if q.is_file())
            if not found:
                fail(f"skirmish: {p}: no *.skirmish.yaml rosters in this folder")
            out += found
        elif p.exists():
            out.append(p)
        else:
            fail(f"skirmish: {p}: no such file or folder")
    return out


@skirmish_app.command("validate")
def validate(
    paths: Annotated[list[Path], typer.Argument(help="Roster files (NAME.skirmish.yaml) or folders.")],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    data: SkDataOpt = None,
) -> None:
    """Check Skirmish rosters against every construction rule (exit 0 valid, 1 not, 2 unreadable)."""
    from bagm.skirmish.validate import validate_path

    if format not in ("text", "json", "github"):
        fail("skirmish validate: --format is text, json or github")
    files = _skirmish_files(paths)
    d = _data(data)
    reports = [validate_path(p, d) for p in files]
    if format == "json":
        from bagm.render.formats import to_json

        typer.echo(to_json([r.as_dict() for r in reports]))
    elif format == "github":
        from bagm.render.formats import github_annotations

        out = github_annotations(reports, unreadable="SK000")  # type: ignore[arg-type]
        if out:
            typer.echo(out)
    else:
        from bagm.skirmish.render import report_view

        con = console()
        for r in reports:
            con.print(report_view(r))
    if any(r.input_error is not None for r in reports):
        raise typer.Exit(2)
    raise typer.Exit(0 if all(r.valid for r in reports) else 1)


@skirmish_app.command("show")
def show(
    roster: Annotated[Path, typer.Argument(help="A roster file (NAME.skirmish.yaml).")],
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: SkDataOpt = None,
) -> None:
    """Print a unit's roster card: Leader, Packs, upgraded models, points, state, findings."""
    from bagm.io.yamlsafe import InputError
    from bagm.skirmish.roster import load_roster
    from bagm.skirmish.validate import validate as check

    d = _data(data)
    try:
        r = load_roster(roster)
    except InputError as exc:
        _error(exc)
    report = check(r, d)
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json
        from bagm.skirmish.render import roster_dict

        typer.echo(to_json({**roster_dict(r), **report.as_dict()}))
    else:
        from bagm.skirmish.render import report_view, roster_card

        con = console()
        con.print(roster_card(r, report))
        con.print(report_view(report))
    raise typer.Exit(0 if report.valid else 1)


# --- the campaign tracker ---------------------------------------------------------------------
campaign_app = typer.Typer(help="Track a unit's campaign: battles, injuries, points, purchases, "
                           "advances; every change an event in the campaign file.",
                           no_args_is_help=True)
skirmish_app.add_typer(campaign_app, name="campaign")

CampaignArg = Annotated[Path, typer.Argument(help="The campaign file (NAME.skirmish-campaign.yaml).")]
SeedOpt = Annotated[Optional[int], typer.Option("--seed", help="Seed for this step's dice [default: the campaign's].")]
RollsOpt = Annotated[Optional[str], typer.Option(
    "--rolls", help="The dice rolled at the table, in order, e.g. 2,5,6 (D66: two dice).")]


def _campaign_call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    from bagm.chance.dice import DiceError
    from bagm.io.yamlsafe import InputError
    from bagm.skirmish.campaign import CampaignError

    try:
        return fn(*args, **kwargs)
    except (CampaignError, InputError, DiceError) as exc:
        _error(exc)


def _open(path: Path) -> Any:
    from bagm.skirmish.campaign import load_campaign

    return _campaign_call(load_campaign, path)


def _step_dice(c: Any, seed: Optional[int], rolls: Optional[str]) -> tuple[Any, str]:
    return c.dice(None if rolls is None else _parse_rolls(rolls), seed)  # type: ignore[no-any-return]


def _print_event(entry: dict[str, Any]) -> None:
    from rich.text import Text

    from bagm.skirmish.render import event_text

    console().print(Text(event_text(entry)))


@campaign_app.command("start")
def campaign_start(
    roster: Annotated[Path, typer.Argument(help="The unit's roster (NAME.skirmish.yaml).")],
    campaign: CampaignArg,
    seed: Annotated[int, typer.Option("--seed", help="The campaign's dice seed.")] = 0,
    data: SkDataOpt = None,
) -> None:
    """Start a campaign from a valid roster (never overwrites a campaign file)."""
    from bagm.skirmish.campaign import start

    c, _ = _campaign_call(start, roster, campaign, _data(data), seed)
    _print_event(c.history[-1])


@campaign_app.command("battle")
def campaign_battle(
    campaign: CampaignArg,
    scenario: Annotated[str, typer.Option("--scenario", help="The scenario played.")],
    result: Annotated[str, typer.Option("--result", help="won, lost or draw.")],
    routed: Annotated[bool, typer.Option("--routed", help="The unit failed a Rout test.")] = False,
    ooa: Annotated[Optional[list[str]], typer.Option("--ooa", help="Out of Action: a model's name or PACK:N (repeatable).")] = None,
    killed: Annotated[Optional[list[str]], typer.Option("--killed", help="Killed in the battle: a name or PACK:N (repeatable).")] = None,
    fled: Annotated[Optional[list[str]], typer.Option("--fled", help="Grots that failed Ld and ran: PACK:N (no injury roll).")] = None,
    enemy_ooa: Annotated[int, typer.Option("--enemy-ooa", help="Enemy models you took Out of Action.")] = 0,
    enemy_killed: Annotated[int, typer.Option("--enemy-killed", help="Enemy models you Killed.")] = 0,
    bonus: Annotated[int, typer.Option("--bonus", help="The scenario's bonus points for this unit.")] = 0,
    dark_eldar_opponent: Annotated[bool, typer.Option("--dark-eldar-opponent", help="The Dark Eldar opponent takes Captured for Dead results.")] = False,
) -> None:
    """Record a battle; then run injuries, points, purchases and advances, and end."""
    from bagm.skirmish.campaign import battle
    from bagm.skirmish.scenario import ScenarioError, find

    try:
        key = find(scenario).key
    except ScenarioError as exc:
        _error(exc)
    c = _open(campaign)
    entry = _campaign_call(battle, c, scenario=key, result=result, routed=routed,
                           out_of_action=ooa or [], killed=killed or [], fled=fled or [],
                           enemy_out_of_action=enemy_ooa, enemy_killed=enemy_killed, bonus=bonus,
                           dark_eldar_opponent=dark_eldar_opponent)
    _print_event(entry)


@campaign_app.command("injuries")
def campaign_injuries(
    campaign: CampaignArg, seed: SeedOpt = None, rolls: RollsOpt = None,
    ransom: Annotated[Optional[str], typer.Option("--ransom", help="pay or refuse a Captured model's ransom.")] = None,
    successor: Annotated[Optional[str], typer.Option("--successor", help="The upgraded model taking command if the Leader died.")] = None,
    data: SkDataOpt = None,
) -> None:
    """Pack casualties (D6 each), then the Injury Table (D66) for each Leader or upgraded model."""
    from bagm.skirmish.campaign import injuries

    c = _open(campaign)
    dice, how = _step_dice(c, seed, rolls)
    _print_event(_campaign_call(injuries, c, _data(data), dice, how, ransom=ransom, successor=successor))


@campaign_app.command("points")
def campaign_points(campaign: CampaignArg, seed: SeedOpt = None, rolls: RollsOpt = None,
                    data: SkDataOpt = None) -> None:
    """Add the points earned to the Points Pool."""
    from bagm.skirmish.campaign import points

    c = _open(campaign)
    dice, how = _step_dice(c, seed, rolls)
    _print_event(_campaign_call(points, c, _data(data), dice, how))


@campaign_app.command("buy")
def campaign_buy(
    campaign: CampaignArg,
    model: Annotated[Optional[str], typer.Option("--model", help="The Leader or upgraded model buying.")] = None,
    item: Annotated[Optional[str], typer.Option("--item", help="The armoury item (or Pack wargear, Heavy or Assault weapon).")] = None,
    crafted: Annotated[Optional[str], typer.Option("--crafted", help="The weapon a Master-Crafted Weapon makes crafted.")] = None,
    pack: Annotated[Optional[str], typer.Option("--pack", help="The Pack buying, upgraded or topped up.")] = None,
    new_pack: Annotated[Optional[str], typer.Option("--new-pack", help="Name of a new Pack.")] = None,
    pack_type: Annotated[Optional[str], typer.Option("--type", help="The new Pack's type.")] = None,
    models: Annotated[Optional[int], typer.Option("--models", help="Models of the new Pack, or to bring a Pack back to its minimum.")] = None,
    upgrade_to: Annotated[Optional[str], typer.Option("--upgrade-to", help="Upgrade --pack to this type.")] = None,
    replaces: Annotated[Optional[str], typer.Option("--replaces", help="arm, leg or eye: what a Bionic (or Limb) Replacement replaces, when the model lost more than one.")] = None,
    data: SkDataOpt = None,
) -> None:
    """Spend the Points Pool (refused when the Pool is short or the unit would break a rule)."""
    from bagm.skirmish.campaign import buy

    c = _open(campaign)
    _print_event(_campaign_call(buy, c, _data(data), model=model, item=item, pack=pack,
                                new_pack=new_pack, pack_type=pack_type, models=models,
                                upgrade_to=upgrade_to, crafted=crafted, replaces=replaces))


@campaign_app.command("sell")
def campaign_sell(
    campaign: CampaignArg,
    model: Annotated[str, typer.Option("--model", help="The model selling.")],
    item: Annotated[str, typer.Option("--item", help="The weapon (or grenade) sold for half its points value.")],
    data: SkDataOpt = None,
) -> None:
    """Sell a weapon (or grenade) back for half its points value; wargear is kept."""
    from bagm.skirmish.campaign import sell

    c = _open(campaign)
    _print_event(_campaign_call(sell, c, _data(data), model=model, item=item))


@campaign_app.command("advance")
def campaign_advance(
    campaign: CampaignArg,
    who: Annotated[str, typer.Argument(help="The Leader, an upgraded model or a Pack.")],
    result: Annotated[Optional[str], typer.Option("--result", help="The table's result read at the table: WS+1, skill, breaking_the_mould, none.")] = None,
    skill: Annotated[Optional[str], typer.Option("--skill", help="The skill taken if the result is a new skill.")] = None,
    name: Annotated[Optional[str], typer.Option("--name", help="Name of the model that Breaks the Mould.")] = None,
    seed: SeedOpt = None, rolls: RollsOpt = None, data: SkDataOpt = None,
) -> None:
    """Roll on the Leader or Pack Advancement table (supplied with --data) or enter the result."""
    from bagm.skirmish.campaign import advance

    c = _open(campaign)
    dice, how = _step_dice(c, seed, rolls)
    _print_event(_campaign_call(advance, c, _data(data), dice, how, who, result=result,
                                skill=skill, name=name))


@campaign_app.command("skill")
def campaign_skill(
    campaign: CampaignArg,
    who: Annotated[str, typer.Argument(help="The model or Pack an advance gave a skill.")],
    skill: Annotated[str, typer.Argument(help="The skill chosen.")],
    seed: SeedOpt = None, rolls: RollsOpt = None, data: SkDataOpt = None,
) -> None:
    """Choose the new skill an advance gave (Psychic Training rolls its power)."""
    from bagm.skirmish.campaign import skill as choose

    c = _open(campaign)
    dice, how = _step_dice(c, seed, rolls)
    _print_event(_campaign_call(choose, c, _data(data), dice, how, who, skill))


@campaign_app.command("end")
def campaign_end(campaign: CampaignArg, data: SkDataOpt = None) -> None:
    """Close the after-battle sequence and validate the unit (exit 1 if it breaks a rule)."""
    from bagm.skirmish.campaign import end

    c = _open(campaign)
    entry, _report = _campaign_call(end, c, _data(data))
    _print_event(entry)
    raise typer.Exit(0 if entry["valid"] else 1)


@campaign_app.command("history")
def campaign_history(
    campaign: CampaignArg,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
) -> None:
    """The unit's story: every event, in order, with its dice."""
    c = _open(campaign)
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(c.history))
        return
    from rich.text import Text

    from bagm.skirmish.render import event_text

    con = console()
    for e in c.history:
        con.print(Text(event_text(e)))


@campaign_app.command("show")
def campaign_show(
    campaign: CampaignArg,
    format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
    data: SkDataOpt = None,
) -> None:
    """The unit now: roster card, Points Pool, injuries, the step of the sequence, findings."""
    from bagm.skirmish.validate import validate as check

    c = _open(campaign)
    roster = _campaign_call(c.roster)
    report = check(roster, _data(data))
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json
        from bagm.skirmish.render import roster_dict

        typer.echo(to_json({**roster_dict(roster), "pending": c.pending,
                            "events": len(c.history), **report.as_dict()}))
        return
    from rich.text import Text

    from bagm.skirmish.render import report_view, roster_card

    con = console()
    con.print(roster_card(roster, report))
    step = c.pending["step"] if c.pending else "between battles"
    con.print(Text(f"after-battle sequence: {step}; {len(c.history)} events"))
    con.print(report_view(report))
