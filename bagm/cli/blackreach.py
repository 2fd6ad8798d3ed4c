"""``bagm blackreach ...``: exact odds for the dice procedures of Heroes of Black Reach.

Thin: read the counters' values from options or a counter file, call :mod:`bagm.blackreach`,
render. The library and the renderers are imported inside the commands (start-up).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from bagm.cli.common import FormatOpt, SimpleFormat, console, fail

if TYPE_CHECKING:
    from collections.abc import Callable

    from bagm.blackreach.counters import Counter, CounterFile, Kind
    from bagm.blackreach.firing import Shot
    from bagm.blackreach.hits import Victim
    from bagm.blackreach.odds import Odds

group = typer.Typer(
    help="Heroes of Black Reach: exact odds for every dice procedure of the rules summary. "
    "Counter values are on your components: give them as options or in a --counters file.",
    no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(group, name="blackreach")


CountersOpt = Annotated[Path | None, typer.Option(
    "--counters", help="A YAML counter file with your counters' values (see the README).",
    show_default=False)]
AttackerOpt = Annotated[str | None, typer.Option(
    "--attacker", help="The acting counter's name in the --counters file.", show_default=False)]
TargetOpt = Annotated[str | None, typer.Option(
    "--target", help="The target counter's name in the --counters file.", show_default=False)]
KindOpt = Annotated[str | None, typer.Option(
    "--target-kind", help="infantry, light-vehicle or heavy-vehicle [default: infantry, or the "
    "counter's].", show_default=False)]
OnHitOpt = Annotated[str | None, typer.Option(
    "--on-hit", help="The target's hit symbol on the side showing: destroyed or flipped.",
    show_default=False)]
SaveOpt = Annotated[int | None, typer.Option(
    "--save", help="The target's armour save (roll this or more), if it may make one.",
    show_default=False)]
SaveBonusOpt = Annotated[int, typer.Option("--save-bonus", help="Bonus to the armour save roll.")]
TargetSmOpt = Annotated[int, typer.Option(
    "--target-sm", help="SMs on the target (-2 each to its own rolls: the armour save).")]
DamageSetOpt = Annotated[str | None, typer.Option(
    "--damage-set", help="Heavy vehicle: its damage marker set, by name from the --counters file "
    "or written out: 1=tracks,2=hull,...,6=explosion.", show_default=False)]
HeldOpt = Annotated[list[str] | None, typer.Option(
    "--held", help="A damage marker kind already on the vehicle (repeatable): a second one of a "
    "kind destroys it.", show_default=False)]
PiercingOpt = Annotated[bool, typer.Option(
    "--piercing", help="PIERCING: +1 to the hit location roll, no armour save.")]
BonusOpt = Annotated[int, typer.Option("--bonus", help="Other bonuses (action cards...).")]
PenaltyOpt = Annotated[int, typer.Option("--penalty", help="Other penalties (as a positive number).")]
SmOpt = Annotated[int, typer.Option("--sm", help="SMs on the acting unit: -2 each to its rolls.")]
ObscuredOpt = Annotated[list[int] | None, typer.Option(
    "--obscured", help="The value of one obscuring square the LOS crosses (repeatable).",
    show_default=False)]


def _fail(exc: Exception) -> NoReturn:
    fail(str(exc))


def _emit(odds: Odds, format: SimpleFormat) -> None:
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json(odds.as_dict()))
    else:
        from bagm.render.blackreach_render import render

        console().print(render(odds))


def _answer(build: Callable[[], Odds], format: SimpleFormat) -> None:
    """Work out the odds; bad input is a clear message and exit code 2, never a traceback."""
    from bagm.errors import BagmError

    try:
        odds = build()
    except BagmError as exc:
        _fail(exc)
    _emit(odds, format)


def _file(path: Path | None) -> CounterFile | None:
    if path is None:
        return None
    from bagm.blackreach.counters import load_counters

    return load_counters(path)


def _counter(file: CounterFile | None, name: str | None, role: str) -> Counter | None:
    if name is None:
        return None
    if file is None:
        from bagm.blackreach.odds import BlackReachError

        raise BlackReachError(f"--{role} names a counter: give the --counters file it is in")
    return file.counter(name)


def _kind(text: str | None, counter: Counter | None) -> Kind:
    from bagm.blackreach.counters import Kind, parse_kind

    if text is not None:
        return parse_kind(text, "--target-kind")
    return counter.kind if counter is not None else Kind.infantry


def _damage_set(text: str | None, counter: Counter | None,
                file: CounterFile | None) -> dict[int, str] | None:
    from bagm.blackreach.counters import marker_kind
    from bagm.blackreach.odds import need

    if text is None:
        return dict(counter.damage_set) if counter and counter.damage_set else None
    if "=" not in text:
        need(file is not None, f"--damage-set '{text}' names a set: give the --counters file")
        assert file is not None
        return file.damage_set(text)
    table: dict[int, str] = {}
    for part in text.split(","):
        score, _, marker = part.partition("=")
        need(score.strip().isdigit(), f"bad --damage-set entry '{part}': write 1=tracks,2=hull,...")
        table[int(score)] = marker_kind(marker)
    return table


def _victim(counter: Counter | None, kind: str | None, on_hit: str | None, save: int | None,
            save_bonus: int, sm: int, damage_set: str | None, held: list[str] | None,
            file: CounterFile | None, aids: tuple[int, bool, list[str] | None] = (0, False, None),
            ) -> Victim:
    from bagm.blackreach.counters import OnHit, marker_kind
    from bagm.blackreach.hits import Victim
    from bagm.blackreach.odds import BlackReachError

    symbol = counter.on_hit if counter else None
    if on_hit is not None:
        try:
            symbol = OnHit(on_hit.lower())
        except ValueError:
            raise BlackReachError("--on-hit is destroyed or flipped (the counter's hit symbol)") from None
    return Victim(kind=_kind(kind, counter), on_hit=symbol,
                  save=save if save is not None else (counter.save if counter else None),
                  save_bonus=save_bonus, sm=sm,
                  damage_set=_damage_set(damage_set, counter, file),
                  held=frozenset(marker_kind(h) for h in held or ()), adjust=aids[0],
                  extra_die=aids[1], prefer=tuple(marker_kind(k) for k in aids[2] or ()))


def _missing(what: str) -> NoReturn:
    from bagm.blackreach.odds import BlackReachError

    raise BlackReachError(f"give {what}")


def _value(given: int | None, from_counter: int | None, what: str) -> int:
    from bagm.blackreach.odds import BlackReachError

    value = given if given is not None else from_counter
    if value is None:
        raise BlackReachError(f"give {what}")
    return value


def _combat(given: str | None, attacker: Counter | None, kind: Kind, what: str) -> int:
    from bagm.blackreach.counters import parse_combat
    from bagm.blackreach.odds import BlackReachError

    if given is not None:
        value = parse_combat(given, "--combat")
    elif attacker is not None:
        value = attacker.combat_against(kind)
    else:
        raise BlackReachError(f"give --combat (the {what} COMBAT against {kind.value}) or "
                              "--attacker with --counters")
    if value is None:
        raise BlackReachError(f"a COMBAT of X against {kind.value}: the unit cannot {what} it")
    return value


def _shot(counters: Path | None, attacker: str | None, target: str | None, combat: str | None,
          defence: int | None, target_kind: str | None, on_hit: str | None,
          defence_bonus: int, bonus: int, penalty: int, sm: int, obscured: list[int] | None,
          range_: int | None, hawk_eyed: bool, rear: bool, twin_linked: bool | None,
          save: int | None, save_bonus: int, target_sm: int, piercing: bool,
          damage_set: str | None, held: list[str] | None, save_double: bool,
          front_armour: bool | None, aids: tuple[int, bool, list[str] | None] = (0, False, None),
          speed_penalty: int = 0, reroll: bool = False, template: bool = False,
          indirect: bool = False) -> Shot:
    from bagm.blackreach.firing import Shot

    file = _file(counters)
    a, t = _counter(file, attacker, "attacker"), _counter(file, target, "target")
    victim = _victim(t, target_kind, on_hit, save, save_bonus, target_sm, damage_set, held, file,
                     aids)
    armour = front_armour if front_armour is not None else bool(
        t and t.front_armour and not (template or indirect))
    return Shot(combat=_combat(combat, a, victim.kind, "fire at"),
                defence=_value(defence, t.defence if t else None, "--defence (the target's DEFENCE)"),
                defence_bonus=defence_bonus + (2 if armour else 0), bonus=bonus, penalty=penalty,
                sm=sm, obscuring=tuple(obscured or ()), range=range_, ignore_long_range=hawk_eyed,
                rear=rear, dice=2 if (twin_linked if twin_linked is not None
                                      else bool(a and a.twin_linked)) else 1,
                victim=victim, piercing=piercing, double_saveable=save_double,
                speed_penalty=speed_penalty, reroll=reroll, template=template, indirect=indirect)


CombatOpt = Annotated[str | None, typer.Option(
    "--combat", help="The firer's COMBAT against the target's DEFENCE colour (X: cannot fire).",
    show_default=False)]
DefenceOpt = Annotated[int | None, typer.Option(
    "--defence", help="The target's DEFENCE.", show_default=False)]
DefenceBonusOpt = Annotated[int, typer.Option(
    "--defence-bonus", help="Bonuses to the target's DEFENCE: terrain, PAINBOY +2...")]
FrontOpt = Annotated[bool | None, typer.Option(
    "--front-armour/--no-front-armour", help="FRONT ARMOUR: the LOS crosses the target's front "
    "edge (+2 DEFENCE).", show_default=False)]
RangeOpt = Annotated[int | None, typer.Option(
    "--range", help="Squares to the target (more than 7: long range, -2).", show_default=False)]
HawkOpt = Annotated[bool, typer.Option(
    "--hawk-eyed", help="HAWK-EYED, or an aircraft involved: no long range penalty.")]
RearOpt = Annotated[bool, typer.Option(
    "--rear", help="The LOS crosses a heavy vehicle's rear (+2).")]
TwinOpt = Annotated[bool | None, typer.Option(
    "--twin-linked/--no-twin-linked", help="TWIN-LINKED: 2 dice, keep the best.",
    show_default=False)]
MekOpt = Annotated[bool, typer.Option(
    "--mekaniak", help="MEKANIAK: the vehicle's owner may move the location result by 1.")]
GrotOpt = Annotated[bool, typer.Option(
    "--grot-oilers", help="GROT OILERS with the mekaniak: by 1 or 2.")]
TechOpt = Annotated[bool, typer.Option(
    "--techmarine", help="TECHMARINE: 2 location dice, the owner picks one.")]
PreferOpt = Annotated[list[str] | None, typer.Option(
    "--prefer", help="With --mekaniak/--techmarine: the owner's marker kinds, least harmful "
    "first (repeatable); surviving always comes first.", show_default=False)]
AircraftOpt = Annotated[bool, typer.Option(
    "--aircraft", help="An aircraft fires or is the target: no long range penalty.")]
TokensOpt = Annotated[str | None, typer.Option(
    "--order-tokens", help="Firing at an aircraft: FIRER,AIRCRAFT order token numbers (SPEED "
    "PENALTY: their difference; 'special' or 'none' for the aircraft: 2).", show_default=False)]
PrescienceOpt = Annotated[bool, typer.Option(
    "--prescience", help="PRESCIENCE: a roll that fails is rolled again.")]


def _aids(mekaniak: bool, grot_oilers: bool, techmarine: bool,
          prefer: list[str] | None) -> tuple[int, bool, list[str] | None]:
    from bagm.blackreach.odds import need

    need(not grot_oilers or mekaniak, "grot oilers work with a mekaniak: give --mekaniak too")
    return (2 if grot_oilers else 1 if mekaniak else 0), techmarine, prefer


def _speed(tokens: str | None) -> int:
    """SPEED PENALTY: the difference of the order tokens; 2 for a special token or none."""
    from bagm.blackreach.odds import need

    if tokens is None:
        return 0
    firer, _, aircraft = tokens.partition(",")
    if aircraft.strip().lower() in ("special", "none"):
        return 2
    need(firer.strip().isdigit() and aircraft.strip().isdigit(),
         f"bad --order-tokens '{tokens}': write FIRER,AIRCRAFT, e.g. 3,7 or 3,special")
    return abs(int(firer) - int(aircraft))


SaveDoubleOpt = Annotated[bool, typer.Option(
    "--save-double-hits/--no-save-double-hits",
    help="Whether an armour save can ignore a double hit (see the notes).")]


@group.command()
def fire(
    counters: CountersOpt = None, attacker: AttackerOpt = None, target: TargetOpt = None,
    combat: CombatOpt = None, defence: DefenceOpt = None, target_kind: KindOpt = None,
    on_hit: OnHitOpt = None, defence_bonus: DefenceBonusOpt = 0, front_armour: FrontOpt = None,
    bonus: BonusOpt = 0, penalty: PenaltyOpt = 0, sm: SmOpt = 0, obscured: ObscuredOpt = None,
    range_: RangeOpt = None, hawk_eyed: HawkOpt = False, rear: RearOpt = False,
    twin_linked: TwinOpt = None, save: SaveOpt = None, save_bonus: SaveBonusOpt = 0,
    target_sm: TargetSmOpt = 0, piercing: PiercingOpt = False, damage_set: DamageSetOpt = None,
    held: HeldOpt = None, save_double_hits: SaveDoubleOpt = True,
    frightening: Annotated[bool, typer.Option(
        "--frightening", help="FRIGHTENING SHOT: a miss may put 1 SM on the target.")] = False,
    mekaniak: MekOpt = False, grot_oilers: GrotOpt = False, techmarine: TechOpt = False,
    prefer: PreferOpt = None, aircraft: AircraftOpt = False, order_tokens: TokensOpt = None,
    prescience: PrescienceOpt = False,
    template: Annotated[bool, typer.Option(
        "--template", help="HOWITZER (or a flamethrower): a template attack (several units "
        "under it: --under, --under-defence).")] = False,
    indirect: Annotated[bool, typer.Option(
        "--indirect", help="INDIRECT FIRE: a template attack; obscuring does not count (see "
        "bagm blackreach scatter for where it lands).")] = False,
    under: Annotated[list[str] | None, typer.Option(
        "--under", help="With --template/--indirect: another unit under the template, by name in "
        "the --counters file (repeatable; the other target options are shared).",
        show_default=False)] = None,
    under_defence: Annotated[list[int] | None, typer.Option(
        "--under-defence", help="With --template/--indirect: the DEFENCE of another unit under "
        "the template (repeatable; the other target options are shared).",
        show_default=False)] = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """A firing action: 1D6 + COMBAT against DEFENCE, double hits, and what a hit does. With a
    template and several units under it: each unit's odds and how many fall."""
    from bagm.blackreach.firing import fire_odds
    from bagm.blackreach.odds import need

    def build() -> Odds:
        def one(name: str | None, value: int | None) -> Odds:
            shot = _shot(counters, attacker, name, combat, value, target_kind, on_hit,
                         defence_bonus, bonus, penalty, sm, obscured, range_,
                         hawk_eyed or aircraft, rear, twin_linked, save, save_bonus, target_sm,
                         piercing, damage_set, held, save_double_hits, front_armour,
                         _aids(mekaniak, grot_oilers, techmarine, prefer), _speed(order_tokens),
                         prescience, template, indirect)
            return fire_odds(shot, frightening)

        first = one(target, defence)
        if not under and not under_defence:
            return first
        # HOWITZER / INDIRECT FIRE: "Units and structures even partially under the template are
        # affected by the explosion. Resolve each attack individually."
        need(template or indirect, "--under and --under-defence are units under a template: "
             "give --template or --indirect")
        from bagm.blackreach.templates import template_odds

        units = [(target or f"unit 1 (DEFENCE {defence})", first)]
        units += [(name, one(name, None)) for name in under or ()]
        units += [(f"unit {len(units) + i} (DEFENCE {v})", one(None, v))
                  for i, v in enumerate(under_defence or (), 1)]
        return template_odds(units)

    _answer(build, format)


@group.command()
def suppress(
    counters: CountersOpt = None, attacker: AttackerOpt = None, target: TargetOpt = None,
    combat: CombatOpt = None, defence: DefenceOpt = None, target_kind: KindOpt = None,
    defence_bonus: DefenceBonusOpt = 0, front_armour: FrontOpt = None,
    bonus: BonusOpt = 0, penalty: PenaltyOpt = 0, sm: SmOpt = 0, obscured: ObscuredOpt = None,
    range_: RangeOpt = None, hawk_eyed: HawkOpt = False, rear: RearOpt = False,
    twin_linked: TwinOpt = None, aircraft: AircraftOpt = False, order_tokens: TokensOpt = None,
    prescience: PrescienceOpt = False, format: FormatOpt = SimpleFormat.text,
) -> None:
    """Suppressive fire: COMBAT and bonuses doubled; 1 SM per multiple of DEFENCE, no hits."""
    from bagm.blackreach.firing import suppressive_odds

    def build() -> Odds:
        shot = _shot(counters, attacker, target, combat, defence, target_kind, None,
                     defence_bonus, bonus, penalty, sm, obscured, range_, hawk_eyed or aircraft,
                     rear, twin_linked, None, 0, 0, False, None, None, True, front_armour,
                     speed_penalty=_speed(order_tokens), reroll=prescience)
        odds = suppressive_odds(shot)
        return odds

    _answer(build, format)


@group.command()
def snipe(
    counters: CountersOpt = None, target: TargetOpt = None, on_hit: OnHitOpt = None,
    bonus: BonusOpt = 0, penalty: PenaltyOpt = 0, sm: SmOpt = 0, obscured: ObscuredOpt = None,
    save: SaveOpt = None, save_bonus: SaveBonusOpt = 0, target_sm: TargetSmOpt = 0,
    table: Annotated[str | None, typer.Option(
        "--table", help="The firing table on the sniper's recruitment tile, if it has one: "
        "1:none,2-3:sm,4-5:hit,6:hit+sm.", show_default=False)] = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Sniper fire: 1 die, modified by SMs and obstacles, read on the sniper table."""
    from bagm.blackreach.counters import Kind
    from bagm.blackreach.firing import (
        SNIPER_TABLE,
        Sniper,
        parse_sniper_table,
        sniper_odds,
    )
    from bagm.blackreach.odds import need

    def build() -> Odds:
        file = _file(counters)
        t = _counter(file, target, "target")
        victim = _victim(t, None, on_hit, save, save_bonus, target_sm, None, None, file)
        need(victim.kind is Kind.infantry, "a sniper can only target infantry units")
        odds = sniper_odds(Sniper(sm=sm, obscuring=tuple(obscured or ()), bonus=bonus,
                                  penalty=penalty, victim=victim,
                                  table=parse_sniper_table(table) if table else SNIPER_TABLE))
        return odds

    _answer(build, format)


@group.command()
def assault(
    counters: CountersOpt = None, attacker: AttackerOpt = None,
    defender: Annotated[str | None, typer.Option(
        "--defender", help="The defending counter's name in the --counters file.",
        show_default=False)] = None,
    attacker_kind: Annotated[str | None, typer.Option(
        "--attacker-kind", help="infantry, light-vehicle or heavy-vehicle.",
        show_default=False)] = None,
    defender_kind: Annotated[str | None, typer.Option(
        "--defender-kind", help="infantry, light-vehicle or heavy-vehicle.",
        show_default=False)] = None,
    attacker_combat: Annotated[str | None, typer.Option(
        "--attacker-combat", help="The attacker's COMBAT against the defender's kind.",
        show_default=False)] = None,
    defender_combat: Annotated[str | None, typer.Option(
        "--defender-combat", help="The defender's COMBAT against the attacker's kind (X: see the "
        "rules).", show_default=False)] = None,
    attacker_assault: Annotated[int | None, typer.Option(
        "--attacker-assault", help="The attacker's assault ability bonus.",
        show_default=False)] = None,
    defender_assault: Annotated[int | None, typer.Option(
        "--defender-assault", help="The defender's assault ability bonus, if it has the ability "
        "(it then rolls 2 dice).", show_default=False)] = None,
    defender_adds_assault_bonus: Annotated[bool, typer.Option(
        "--defender-adds-assault-bonus", help="Reading: the defender adds its assault bonus too.")
    ] = False,
    supporters: Annotated[int, typer.Option("--supporters", help="Supporting allies: +1 each.")] = 0,
    attacker_bonus: Annotated[int, typer.Option("--attacker-bonus", help="Cards, WARPATH...")] = 0,
    defender_bonus: Annotated[int, typer.Option(
        "--defender-bonus", help="Terrain defence bonus, cards, WARPATH...")] = 0,
    barricade: Annotated[int, typer.Option(
        "--barricade", help="The attacker crosses a barricade: its penalty.")] = 0,
    attacker_penalty: Annotated[int, typer.Option("--attacker-penalty")] = 0,
    defender_penalty: Annotated[int, typer.Option("--defender-penalty")] = 0,
    attacker_sm: Annotated[int, typer.Option("--attacker-sm", help="SMs on the attacker.")] = 0,
    defender_sm: Annotated[int, typer.Option("--defender-sm", help="SMs on the defender.")] = 0,
    rear: Annotated[bool, typer.Option(
        "--rear", help="Entering a heavy vehicle's square from the rear (+2).")] = False,
    outside_arc: Annotated[bool, typer.Option(
        "--outside-arc", help="The defender has a limited firing arc and is assaulted from "
        "outside it (1 SM).")] = False,
    long_distance: Annotated[bool, typer.Option(
        "--long-distance", help="LONG DISTANCE ASSAULT.")] = False,
    attacker_on_hit: Annotated[str | None, typer.Option(
        "--attacker-on-hit", help="The attacker's hit symbol.", show_default=False)] = None,
    defender_on_hit: Annotated[str | None, typer.Option(
        "--defender-on-hit", help="The defender's hit symbol.", show_default=False)] = None,
    attacker_save: Annotated[int | None, typer.Option(
        "--attacker-save", show_default=False)] = None,
    defender_save: Annotated[int | None, typer.Option(
        "--defender-save", show_default=False)] = None,
    attacker_damage_set: Annotated[str | None, typer.Option(
        "--attacker-damage-set", show_default=False)] = None,
    defender_damage_set: Annotated[str | None, typer.Option(
        "--defender-damage-set", show_default=False)] = None,
    attacker_tearing: Annotated[bool, typer.Option("--attacker-tearing")] = False,
    defender_tearing: Annotated[bool, typer.Option("--defender-tearing")] = False,
    attacker_terrifying: Annotated[bool, typer.Option("--attacker-terrifying")] = False,
    defender_terrifying: Annotated[bool, typer.Option("--defender-terrifying")] = False,
    attacker_fragile: Annotated[bool, typer.Option("--attacker-fragile")] = False,
    defender_fragile: Annotated[bool, typer.Option("--defender-fragile")] = False,
    attacker_mekaniak: Annotated[bool, typer.Option("--attacker-mekaniak")] = False,
    defender_mekaniak: Annotated[bool, typer.Option(
        "--defender-mekaniak", help="MEKANIAK (and --*-grot-oilers, --*-techmarine, --*-prefer "
        "as for fire) for a heavy vehicle that loses.")] = False,
    attacker_grot_oilers: Annotated[bool, typer.Option("--attacker-grot-oilers")] = False,
    defender_grot_oilers: Annotated[bool, typer.Option("--defender-grot-oilers")] = False,
    attacker_techmarine: Annotated[bool, typer.Option("--attacker-techmarine")] = False,
    defender_techmarine: Annotated[bool, typer.Option("--defender-techmarine")] = False,
    attacker_prefer: Annotated[list[str] | None, typer.Option(
        "--attacker-prefer", show_default=False)] = None,
    defender_prefer: Annotated[list[str] | None, typer.Option(
        "--defender-prefer", show_default=False)] = None,
    teleported: Annotated[bool, typer.Option(
        "--teleported", help="The attacker teleports in first (TELEPORTATION TEST); it is "
        "destroyed if the assault fails.")] = False,
    tie_survives: Annotated[bool, typer.Option(
        "--tie-survives", help="Reading: with --teleported, a tie is not a failed assault.")
    ] = False,
    no_free_square: Annotated[bool, typer.Option(
        "--no-free-square", help="With --teleported: no free square next to the marker.")
    ] = False,
    flying_from_occupied: Annotated[bool, typer.Option(
        "--flying-from-occupied", help="FLYING: the attacker began the assault in an occupied "
        "or normally impassable square, so losing destroys it.")] = False,
    pursuit: Annotated[bool, typer.Option(
        "--pursuit", help="PURSUIT: after a win the defender retreated from, a second assault "
        "against it.")] = False,
    flipped_combat: Annotated[str | None, typer.Option(
        "--flipped-combat", help="With --pursuit: the defender's flipped side's COMBAT against "
        "the attacker (needed when the first hit can flip it).", show_default=False)] = None,
    flipped_assault: Annotated[int | None, typer.Option(
        "--flipped-assault", help="With --pursuit: the flipped side's assault bonus, if it has "
        "the ability.", show_default=False)] = None,
    flipped_on_hit: Annotated[str | None, typer.Option(
        "--flipped-on-hit", help="With --pursuit: the flipped side's hit symbol.",
        show_default=False)] = None,
    flipped_save: Annotated[int | None, typer.Option(
        "--flipped-save", help="With --pursuit: the flipped side's armour save.",
        show_default=False)] = None,
    retreat_bonus: Annotated[int | None, typer.Option(
        "--retreat-bonus", help="With --pursuit: the defence bonus of the square the defender "
        "fell back to [default: the first square's].", show_default=False)] = None,
    charge: Annotated[bool, typer.Option(
        "--charge", help="CHARGE: a free attack (as a firing action, with the attacker's COMBAT) "
        "before the assault; --flipped-* give the target's flipped side.")] = False,
    defender_defence: Annotated[int | None, typer.Option(
        "--defender-defence", help="With --charge: the defender's DEFENCE [default: the "
        "counter's].", show_default=False)] = None,
    charge_defence_bonus: Annotated[int, typer.Option(
        "--charge-defence-bonus", help="With --charge: the target's terrain DEFENCE bonus against "
        "the free attack.")] = 0,
    charge_penalty: Annotated[int, typer.Option(
        "--charge-penalty", help="With --charge: penalties to the free attack (FIRE ON THE MOVE "
        "...).")] = 0,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """An assault: 2D6 keep the best + COMBAT against the defender's roll; who wins, and what
    that does to each unit (--pursuit: and the second assault)."""
    from bagm.blackreach.assault import Assault, Side, assault_odds
    from bagm.blackreach.counters import parse_combat
    from bagm.blackreach.odds import need

    def build() -> Odds:
        file = _file(counters)
        a, d = _counter(file, attacker, "attacker"), _counter(file, defender, "defender")
        av = _victim(a, attacker_kind, attacker_on_hit, attacker_save, 0, attacker_sm,
                     attacker_damage_set, None, file,
                     _aids(attacker_mekaniak, attacker_grot_oilers, attacker_techmarine,
                           attacker_prefer))
        dv = _victim(d, defender_kind, defender_on_hit, defender_save, 0, defender_sm,
                     defender_damage_set, None, file,
                     _aids(defender_mekaniak, defender_grot_oilers, defender_techmarine,
                           defender_prefer))
        a_combat = _combat(attacker_combat, a, dv.kind, "assault")
        d_combat = (parse_combat(defender_combat, "--defender-combat")
                    if defender_combat is not None else
                    d.combat_against(av.kind) if d is not None else
                    _missing("--defender-combat (the defender's COMBAT against the attacker's "
                             "kind; X if it has none)"))
        x = Assault(
            Side(a_combat, av, attacker_assault if attacker_assault is not None
                 else (a.assault if a else None), attacker_bonus,
                 attacker_penalty + barricade, attacker_sm, attacker_tearing,
                 attacker_terrifying, attacker_fragile),
            Side(d_combat, dv, defender_assault if defender_assault is not None
                 else (d.assault if d else None), defender_bonus, defender_penalty,
                 defender_sm, defender_tearing, defender_terrifying, defender_fragile),
            supporters=supporters, rear=rear, outside_arc=outside_arc,
            long_distance=long_distance, defender_assault_bonus=defender_adds_assault_bonus,
            flying_lost=flying_from_occupied)
        flipped = (flipped_combat, flipped_assault, flipped_on_hit, flipped_save)
        need(pursuit or charge or all(v is None for v in flipped),
             "--flipped-* describe the target's flipped side: give --pursuit or --charge too")
        need(pursuit or retreat_bonus is None, "--retreat-bonus is for --pursuit")
        need(charge or (defender_defence is None and not charge_defence_bonus
                        and not charge_penalty),
             "--defender-defence and --charge-* describe the free attack: give --charge too")
        need(not (pursuit and charge), "--pursuit and --charge together are not modelled: ask "
             "for each on its own")
        side = None
        if flipped_combat is not None:
            fv = _victim(None, dv.kind.value, flipped_on_hit, flipped_save, 0, 0, None, None,
                         None)
            side = Side(parse_combat(flipped_combat, "--flipped-combat"), fv, flipped_assault)
        else:
            need(flipped_assault is None and flipped_on_hit is None and flipped_save is None,
                 "give the flipped side's --flipped-combat with its other values")
        if pursuit:
            from bagm.blackreach.pursuit import Pursuit, pursuit_odds

            odds = pursuit_odds(x, Pursuit(side, retreat_bonus))
        elif charge:
            from bagm.blackreach.charge import Charge, charge_odds
            from bagm.blackreach.firing import Shot

            shot = Shot(a_combat, _value(defender_defence, d.defence if d else None,
                                         "--defender-defence (the target's DEFENCE)"),
                        defence_bonus=charge_defence_bonus, penalty=charge_penalty,
                        sm=attacker_sm, dice=2 if (a and a.twin_linked) else 1, victim=dv)
            odds = charge_odds(x, Charge(shot, side))
        else:
            odds = assault_odds(x)
        if teleported:
            from bagm.blackreach.teleport import Teleport, teleported_assault

            odds = teleported_assault(odds, Teleport(no_free_square), tie_fails=not tie_survives)
        return odds

    _answer(build, format)


@group.command()
def ram(
    counters: CountersOpt = None, attacker: AttackerOpt = None, target: TargetOpt = None,
    rammer_kind: Annotated[str | None, typer.Option(
        "--rammer-kind", help="light-vehicle or heavy-vehicle.", show_default=False)] = None,
    rammer_defence: Annotated[int | None, typer.Option(
        "--rammer-defence", help="The ramming vehicle's DEFENCE.", show_default=False)] = None,
    defence: DefenceOpt = None, target_kind: KindOpt = None,
    rammer_bonus: Annotated[int, typer.Option("--rammer-bonus")] = 0,
    target_bonus: Annotated[int, typer.Option("--target-bonus")] = 0,
    sm: SmOpt = 0, target_sm: TargetSmOpt = 0, on_hit: OnHitOpt = None,
    damage_set: DamageSetOpt = None, held: HeldOpt = None,
    mekaniak: MekOpt = False, grot_oilers: GrotOpt = False, techmarine: TechOpt = False,
    prefer: PreferOpt = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Ramming: 1 die + DEFENCE (half for a light vehicle) each; a higher rammer total hits."""
    from bagm.blackreach.counters import Kind, parse_kind
    from bagm.blackreach.ramming import Ram, ram_odds

    def build() -> Odds:
        file = _file(counters)
        a, t = _counter(file, attacker, "attacker"), _counter(file, target, "target")
        victim = _victim(t, target_kind or ("heavy-vehicle" if t is None else None), on_hit,
                         None, 0, target_sm, damage_set, held, file,
                         _aids(mekaniak, grot_oilers, techmarine, prefer))
        kind = (parse_kind(rammer_kind, "--rammer-kind") if rammer_kind is not None
                else a.kind if a is not None else Kind.heavy)
        odds = ram_odds(Ram(kind, _value(rammer_defence, a.defence if a else None,
                                         "--rammer-defence"),
                            _value(defence, t.defence if t else None, "--defence"), victim,
                            rammer_bonus, target_bonus, sm, target_sm))
        return odds

    _answer(build, format)


@group.command()
def destroy(
    dice: Annotated[int, typer.Option("--dice", help="Dice shown on the DESTRUCTION or "
                                      "DEMOLISHING symbol.")],
    value: Annotated[int, typer.Option("--value", help="The structure's DPs (printed on it).")],
    dealt: Annotated[int, typer.Option("--dealt", help="DPs it already has.")] = 0,
    sm: SmOpt = 0, bonus: Annotated[int, typer.Option("--bonus", help="Bonus to each die.")] = 0,
    exceed: Annotated[bool, typer.Option(
        "--exceed/--reach", help="Reading: the structure falls when its DPs exceed its value "
        "(DESTRUCTION's wording) or reach it (STRUCTURES', the default).")] = False,
    demolish: Annotated[bool, typer.Option(
        "--demolish", help="The DEMOLISHING ability (the same dice, after a movement action).")
    ] = False,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Destruction and demolition: each die of 4+ deals 1 DP to a structure."""
    from bagm.blackreach.structures import Demolition, demolition_odds

    def build() -> Odds:
        odds = demolition_odds(Demolition(dice, value, dealt, sm, bonus, exceed),
                               "demolishing" if demolish else "destruction")
        return odds

    _answer(build, format)


@group.command()
def scatter(
    distance: Annotated[int, typer.Option(
        "--distance", help="The number on the template's scatter symbol.")],
    signum: Annotated[bool, typer.Option(
        "--signum", help="SIGNUM: a spotter sees the target interspace (1 shorter).")] = False,
    template: Annotated[str, typer.Option("--template", help="The template's letter.")] = "",
    directions: Annotated[str | None, typer.Option(
        "--directions", help="The scatter chart's directions for 1-4, comma-separated.",
        show_default=False)] = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Indirect fire scatter: 1-4 scatter the chart's way, 5-6 on target."""
    from bagm.blackreach.scatter import Scatter, scatter_odds

    def build() -> Odds:
        names = tuple(d.strip() for d in directions.split(",")) if directions else None
        s = Scatter(distance, signum, template, *((names,) if names else ()))
        odds = scatter_odds(s)
        return odds

    _answer(build, format)


@group.command()
def perils(
    psyker: Annotated[str, typer.Option("--psyker", help="librarian or weirdboy.")],
    level: Annotated[int, typer.Option("--level", help="The psyker's level (on its symbol).")],
    power: Annotated[str | None, typer.Option(
        "--power", help="The power manifested (its cost is in the text).",
        show_default=False)] = None,
    cost: Annotated[int | None, typer.Option(
        "--cost", help="The power's cost in SMs, instead of --power.", show_default=False)] = None,
    sm: Annotated[int, typer.Option("--sm", help="SMs on the psyker before paying the cost.")] = 0,
    share: Annotated[bool, typer.Option(
        "--share", help="WEIRDBOY: put 1 SM of the cost on an ork infantry unit within 2.")
    ] = False,
    bonus: BonusOpt = 0,
    pool: Annotated[str | None, typer.Option(
        "--pool", help="LIBRARIAN: the facedown peril markers left, e.g. "
        "'no effect=1,hit=1,1 SM=2,2 SMs=1,again=1' (the mix is on the components).",
        show_default=False)] = None,
    on_hit: OnHitOpt = None,
    again: Annotated[bool, typer.Option(
        "--again", help="LIBRARIAN: follow the 'again' marker's chain (it uses the power again "
        "each time it may): how many times the power works. Needs --pool.")] = False,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """The perils of the warp test of a librarian or a weirdboy manifesting a power."""
    from bagm.blackreach.hits import Victim
    from bagm.blackreach.odds import need
    from bagm.blackreach.psychic import (
        Perils,
        again_chain,
        peril_marker,
        perils_odds,
        power_named,
    )

    def build() -> Odds:
        who = psyker.strip().lower()
        need(who in ("librarian", "weirdboy"), "--psyker is librarian or weirdboy")
        need((power is None) != (cost is None), "give --power or --cost (one of them)")
        price = power_named(power).cost if power is not None else cost
        assert price is not None
        if power is not None:
            need(power_named(power).psyker == who,
                 f"{power_named(power).name} is a {power_named(power).psyker}'s power")
        markers: list[tuple[str, int]] = []
        for part in (pool.split(",") if pool else ()):
            name, _, n = part.rpartition("=")
            need(n.strip().isdigit(), f"bad --pool entry '{part}': write kind=count")
            markers.append((peril_marker(name), int(n)))
        victim = _victim(None, None, on_hit, None, 0, 0, None, None, None)
        test = Perils(who, level, price, sm, share, bonus, tuple(markers),
                      Victim(on_hit=victim.on_hit))
        return again_chain(test) if again else perils_odds(test)

    _answer(build, format)


@group.command()
def krunch(
    counters: CountersOpt = None,
    target: Annotated[list[str] | None, typer.Option(
        "--target", help="A unit under the template, by name in the --counters file "
        "(repeatable).", show_default=False)] = None,
    defence: Annotated[list[int] | None, typer.Option(
        "--defence", help="The DEFENCE of a unit under the template (repeatable: one attack "
        "each, with the other options shared).", show_default=False)] = None,
    target_kind: KindOpt = None, on_hit: OnHitOpt = None,
    defence_bonus: DefenceBonusOpt = 0,
    combat: Annotated[int, typer.Option(
        "--combat", help="Reading: a COMBAT added to the 2 dice (the text names none).")] = 0,
    bonus: BonusOpt = 0, penalty: PenaltyOpt = 0, obscured: ObscuredOpt = None,
    save: SaveOpt = None, save_bonus: SaveBonusOpt = 0, target_sm: TargetSmOpt = 0,
    damage_set: DamageSetOpt = None, held: HeldOpt = None,
    save_double_hits: SaveDoubleOpt = True,
    mekaniak: MekOpt = False, grot_oilers: GrotOpt = False, techmarine: TechOpt = False,
    prefer: PreferOpt = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Da Krunch: 2 dice against each unit under the G template; a double 6 destroys. Several
    units: how many are destroyed."""
    from bagm.blackreach.psychic import Krunch, krunch_odds
    from bagm.blackreach.templates import template_odds

    def build() -> Odds:
        file = _file(counters)
        aids = _aids(mekaniak, grot_oilers, techmarine, prefer)
        units: list[tuple[str, Odds]] = []
        for name in target or ():
            t = _counter(file, name, "target")
            assert t is not None
            victim = _victim(t, target_kind, on_hit, save, save_bonus, target_sm, damage_set,
                             held, file, aids)
            units.append((name, krunch_odds(Krunch(
                _value(t.defence, None, f"the DEFENCE of {name} in the counter file"),
                defence_bonus, combat, bonus, penalty, tuple(obscured or ()), victim,
                save_double_hits))))
        for value in defence or ():
            victim = _victim(None, target_kind, on_hit, save, save_bonus, target_sm, damage_set,
                             held, file, aids)
            units.append((f"unit {len(units) + 1} (DEFENCE {value})", krunch_odds(Krunch(
                value, defence_bonus, combat, bonus, penalty, tuple(obscured or ()), victim,
                save_double_hits))))
        if not units:
            _missing("--defence (the target's DEFENCE) or --target with --counters")
        return units[0][1] if len(units) == 1 else template_odds(units)

    _answer(build, format)


@group.command("drop-pod")
def drop_pod(
    bonus: BonusOpt = 0, sm: SmOpt = 0,
    attempts: Annotated[int, typer.Option("--attempts", help="Tests to follow.")] = 4,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """The drop pod landing test: 1 delayed, 2 botched, 3-6 proper; and how soon it lands."""
    from bagm.blackreach.drop_pods import Landing, landing_odds

    def build() -> Odds:
        odds = landing_odds(Landing(bonus, sm, attempts))
        return odds

    _answer(build, format)


@group.command()
def teleport(
    no_free_square: Annotated[bool, typer.Option(
        "--no-free-square", help="No free square next to the teleport strike marker.")] = False,
    attempts: Annotated[int, typer.Option(
        "--attempts", help="Turns to follow a unit lost in the warp (1 to 20).")] = 3,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """The teleportation test (for a teleported assault: bagm blackreach assault --teleported)."""
    from bagm.blackreach.odds import need
    from bagm.blackreach.teleport import Teleport, teleport_odds

    def build() -> Odds:
        need(1 <= attempts <= 20, "--attempts is from 1 to 20")
        return teleport_odds(Teleport(no_free_square), attempts)

    _answer(build, format)


@group.command()
def unstable(
    value: Annotated[int, typer.Option("--value", help="The value on the UNSTABLE symbol.")],
    sm: SmOpt = 0, bonus: BonusOpt = 0, on_hit: OnHitOpt = None,
    kind: KindOpt = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Unstable: below the value cancels the activation; a 1 also makes the unit suffer a hit."""
    from bagm.blackreach.unstable import Unstable, unstable_odds

    def build() -> Odds:
        victim = _victim(None, kind, on_hit, None, 0, 0, None, None, None)
        odds = unstable_odds(Unstable(value, sm, bonus, victim))
        return odds

    _answer(build, format)
