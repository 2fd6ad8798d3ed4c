"""``bagm odds``: the exact odds of one unit's weapon attacking another unit.

Thin: parse the options, build an attack profile and a target (from datasheets or raw
characteristics), call :func:`bagm.engine.attack.odds.distribution`, render. The engine is imported
inside the command so that registering it costs no start-up time.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from bagm.cli.common import SimpleFormat, console
from bagm.errors import BagmError

if TYPE_CHECKING:
    from bagm.engine.attack.rules import AttackProfile, Target


class RerollChoice(str, Enum):
    ones = "ones"
    failed = "failed"





class OddsInputError(BagmError, ValueError):
    """Options that do not describe an attack; the message says which and how to fix it."""


def register(app: typer.Typer) -> None:
    app.command("odds")(odds)


def odds(
    attacker: Annotated[Optional[str], typer.Option(
        "--attacker", help="Attacking unit (datasheet name).")] = None,
    weapon: Annotated[Optional[str], typer.Option(
        "--weapon", help="The attacker's weapon (name as on the datasheet).")] = None,
    faction: Annotated[Optional[str], typer.Option(
        "--faction", help="The attacker's faction (when the unit name is ambiguous).")] = None,
    attacker_models: Annotated[Optional[int], typer.Option(
        "--attacker-models", help="Models attacking with the weapon [default: the unit's smallest size, or 1].")] = None,
    attacks: Annotated[Optional[str], typer.Option(
        "--attacks", help="Attacks characteristic per model: 10, D6, 2D6, D6+2...")] = None,
    bs: Annotated[Optional[int], typer.Option(
        "--bs", help="Ballistic Skill (3 for 3+): a ranged weapon.")] = None,
    ws: Annotated[Optional[int], typer.Option(
        "--ws", help="Weapon Skill (3 for 3+): a melee weapon.")] = None,
    s: Annotated[Optional[int], typer.Option("--s", help="Strength.")] = None,
    ap: Annotated[Optional[int], typer.Option(
        "--ap", help="Armour Penetration as printed: --ap=-1.")] = None,
    d: Annotated[Optional[str], typer.Option("--d", help="Damage: 1, D3, D6, D6+2...")] = None,
    target: Annotated[Optional[str], typer.Option(
        "--target", help="Target unit (datasheet name).")] = None,
    target_faction: Annotated[Optional[str], typer.Option(
        "--target-faction", help="The target's faction.")] = None,
    models: Annotated[Optional[int], typer.Option(
        "--models", help="Models in the target unit [default: the unit's smallest size, or 1].")] = None,
    t: Annotated[Optional[int], typer.Option("--t", help="Toughness.")] = None,
    sv: Annotated[Optional[int], typer.Option("--sv", help="Save (3 for 3+; 7 for none).")] = None,
    w: Annotated[Optional[int], typer.Option(
        "--w", help="Wounds per model [default 1 for raw targets].")] = None,
    invuln: Annotated[Optional[int], typer.Option(
        "--invuln", help="Invulnerable save (4 for 4+).")] = None,
    fnp: Annotated[Optional[int], typer.Option("--fnp", help="Feel No Pain (5 for 5+).")] = None,
    visible: Annotated[Optional[int], typer.Option(
        "--visible", help="Target models visible to the attacker (Blast, allocation) [default: all].")] = None,
    sustained: Annotated[Optional[str], typer.Option(
        "--sustained", help="Sustained Hits X (1, 2, D3).")] = None,
    lethal: Annotated[bool, typer.Option("--lethal", help="Lethal Hits.")] = False,
    devastating: Annotated[bool, typer.Option("--devastating", help="Devastating Wounds.")] = False,
    torrent: Annotated[bool, typer.Option(
        "--torrent", help="Torrent (hits automatically).")] = False,
    twin_linked: Annotated[bool, typer.Option(
        "--twin-linked", help="Twin-linked (re-roll the Wound roll).")] = False,
    anti: Annotated[Optional[int], typer.Option(
        "--anti", help="Anti-KEYWORD N+ and the target has the keyword: Critical Wounds on N+.")] = None,
    blast: Annotated[bool, typer.Option(
        "--blast", help="Blast (+1 attack per 5 visible target models).")] = False,
    melta: Annotated[Optional[int], typer.Option(
        "--melta", help="Melta X (+X Damage with --half-range).")] = None,
    rapid_fire: Annotated[Optional[str], typer.Option(
        "--rapid-fire", help="Rapid Fire X (+X attacks with --half-range).")] = None,
    heavy: Annotated[bool, typer.Option(
        "--heavy", help="Heavy (+1 to hit with --stationary).")] = False,
    lance: Annotated[bool, typer.Option(
        "--lance", help="Lance (+1 to wound with --charged).")] = False,
    ignores_cover: Annotated[bool, typer.Option("--ignores-cover", help="Ignores Cover.")] = False,
    conversion: Annotated[bool, typer.Option(
        "--conversion", help="Conversion (Critical Hits on 4+ with --beyond-12).")] = False,
    hazardous: Annotated[bool, typer.Option(
        "--hazardous", help="Hazardous (tests for the attacker).")] = False,
    reroll_hits: Annotated[Optional[RerollChoice], typer.Option(
        "--reroll-hits", help="Re-roll Hit rolls of 1, or failed ones.")] = None,
    reroll_wounds: Annotated[Optional[RerollChoice], typer.Option(
        "--reroll-wounds", help="Re-roll Wound rolls of 1, or failed ones.")] = None,
    hit_mod: Annotated[int, typer.Option(
        "--hit-mod", help="Hit roll modifier (capped at +1/-1).")] = 0,
    wound_mod: Annotated[int, typer.Option(
        "--wound-mod", help="Wound roll modifier (capped at +1/-1).")] = 0,
    save_mod: Annotated[int, typer.Option(
        "--save-mod", help="Other armour save modifier (improvement capped at +1 with cover).")] = 0,
    cover: Annotated[bool, typer.Option(
        "--cover", help="The target has the Benefit of Cover (ranged attacks).")] = False,
    half_range: Annotated[bool, typer.Option(
        "--half-range", help="Within half range (Melta, Rapid Fire).")] = False,
    stationary: Annotated[bool, typer.Option(
        "--stationary", help="The attacker Remained Stationary (Heavy).")] = False,
    charged: Annotated[bool, typer.Option(
        "--charged", help="The attacker charged this turn (Lance).")] = False,
    beyond_12: Annotated[bool, typer.Option(
        "--beyond-12", help="The target is more than 12\" away (Conversion).")] = False,
    overwatch: Annotated[bool, typer.Option(
        "--overwatch", help="Fire Overwatch: only unmodified 6s hit.")] = False,
    format: Annotated[SimpleFormat, typer.Option(
        "--format", "-f", help="Output format.")] = SimpleFormat.text,
    data: Annotated[Optional[list[Path]], typer.Option(
        "--data", help="Extra data pack folder (repeatable); also BAGM_DATA.", show_default=False)] = None,
) -> None:
    """Exact odds (fractions, not sampling) of damage and models destroyed when one unit
    attacks another: from datasheets (--attacker UNIT --weapon NAME --target UNIT) or raw
    characteristics (--attacks 10 --bs 3 --s 4 --ap=-1 --d 1 --t 4 --sv 3). Characteristics
    given on the command line override the datasheets'."""
    from bagm.chance.dice import DiceError
    from bagm.data.weapons import AttackError

    opts = dict(locals())
    if attacker and not weapon and attacks is None and s is None and d is None:
        _list_weapons(attacker, faction, data, format)  # nothing to compute yet: show the choice
        return
    try:
        profile, tgt, extra_notes = build(opts)
        from bagm.engine.attack.odds import distribution

        result = distribution(profile, tgt)
    except (OddsInputError, AttackError, DiceError) as exc:
        typer.echo(f"bagm: odds: {exc}", err=True)
        raise typer.Exit(2) from None
    if format is SimpleFormat.json:
        import json

        out = result.as_dict()
        out["notes"] = extra_notes + out["notes"]
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))  # as bagm.render.formats
    else:
        from bagm.render.odds_render import render

        console().print(render(result, extra_notes))


def _list_weapons(attacker: str, faction: str | None, data: list[Path] | None,
                  format: SimpleFormat) -> None:
    """``--attacker`` without ``--weapon``: the attacker's weapons, to choose one from."""
    from bagm.cli.common import catalog, fail
    from bagm.data.packs import UnitLookupError
    from bagm.io.yamlsafe import InputError

    try:
        f, ds = catalog(data).find_unit(attacker, faction)
    except (UnitLookupError, InputError) as exc:
        fail(f"odds: --attacker: {exc}")
    if format is SimpleFormat.json:
        from bagm.render.datasheet import weapon_row
        from bagm.render.formats import to_json

        typer.echo(to_json({"attacker": ds.name, "faction": f.name,
                            "weapons": [weapon_row(w) for w in ds.weapons]}))
        return
    from bagm.render.datasheet import weapons_table

    out = console()
    if not ds.weapons:
        out.print(f"{ds.name} has no weapon profiles in its data pack; describe the weapon "
                  "with --attacks/--bs/--s/--ap/--d")
        return
    out.print(weapons_table(ds.weapons, f"Weapons of {ds.name} ({f.name})"))
    out.print(f"Choose one: bagm odds --attacker \"{ds.name}\" --weapon \"{ds.weapons[0].name}\" "
              "--target UNIT")


# --- building the attack from the options ---------------------------------------------------


def build(o: dict[str, Any]) -> tuple["AttackProfile", "Target", list[str]]:
    """The attack profile and target the options describe, and notes on how they were read."""
    notes: list[str] = []
    catalog = None
    if o["attacker"] or o["target"]:
        from bagm.data.packs import Catalog, data_dirs

        catalog = Catalog(data_dirs(o["data"]))
        from bagm.io.yamlsafe import InputError

        try:
            return _build(o, catalog, notes)
        except InputError as exc:  # a data pack that cannot be read
            raise OddsInputError(str(exc)) from None
    return _build(o, catalog, notes)


def _build(o: dict[str, Any], catalog: Any, notes: list[str]) -> tuple["AttackProfile", "Target", list[str]]:
    from dataclasses import replace

    from bagm.chance.dice import parse_dice
    from bagm.data.weapons import Abilities, Anti, WeaponProfile
    from bagm.engine.attack.rules import AttackProfile, Conditions, Reroll, Target

    # the weapon
    if o["bs"] is not None and o["ws"] is not None:
        raise OddsInputError("give --bs (a ranged weapon) or --ws (a melee weapon), not both")
    skill = o["bs"] if o["bs"] is not None else o["ws"]
    if o["ap"] is not None and o["ap"] > 0:
        raise OddsInputError(f"--ap {o['ap']}: AP is given as printed, e.g. --ap=-{o['ap']}")
    if o["attacker"]:
        if not o["weapon"]:
            raise OddsInputError(f"which weapon of '{o['attacker']}'? add --weapon NAME")
        ds = _unit(catalog, o["attacker"], o["faction"], "--attacker", "--faction")
        wp = _weapon(ds, o["weapon"])
        weapon = WeaponProfile.from_data(wp)
        changes: dict[str, Any] = {}
        if o["attacks"] is not None:
            changes["attacks"] = parse_dice(o["attacks"], "--attacks")
        if skill is not None:
            changes["skill"], changes["melee"] = skill, o["ws"] is not None
        for key, field in (("s", "strength"), ("ap", "ap")):
            if o[key] is not None:
                changes[field] = o[key]
        if o["d"] is not None:
            changes["damage"] = parse_dice(o["d"], "--d")
        weapon = replace(weapon, **changes)
        models = _given(o["attacker_models"], min(_sizes(ds)))
        if o["attacker_models"] is None:
            notes.append(f"{models} {ds.name} model(s) attack with the {wp.name}, the unit's "
                         "smallest size (set --attacker-models)")
    else:
        if o["weapon"]:
            raise OddsInputError("--weapon needs --attacker UNIT (or give raw --attacks/--bs/--s/--d)")
        missing = [f for f, v in (("--attacks", o["attacks"]), ("--s", o["s"]), ("--d", o["d"]))
                   if v is None]
        if skill is None and not o["torrent"]:
            missing.append("--bs or --ws (or --torrent)")
        if missing:
            raise OddsInputError(f"missing {', '.join(missing)}: describe the weapon, e.g. "
                                 "--attacks 10 --bs 3 --s 4 --ap=-1 --d 1 (or use --attacker)")
        weapon = WeaponProfile("weapon", o["ws"] is not None, parse_dice(o["attacks"], "--attacks"),
                               skill, o["s"], o["ap"] or 0, parse_dice(o["d"], "--d"),
                               Abilities(torrent=o["torrent"]))
        models = _given(o["attacker_models"], 1)
    ab = weapon.abilities
    added: dict[str, Any] = {}
    for flag, field in (("lethal", "lethal_hits"), ("devastating", "devastating_wounds"),
                        ("torrent", "torrent"), ("twin_linked", "twin_linked"), ("blast", "blast"),
                        ("heavy", "heavy"), ("lance", "lance"), ("ignores_cover", "ignores_cover"),
                        ("hazardous", "hazardous"), ("conversion", "conversion")):
        if o[flag]:
            added[field] = True
    if o["sustained"] is not None:
        added["sustained_hits"] = parse_dice(o["sustained"], "--sustained")
    if o["rapid_fire"] is not None:
        added["rapid_fire"] = parse_dice(o["rapid_fire"], "--rapid-fire")
    if o["melta"] is not None:
        if o["melta"] < 1:
            raise OddsInputError(f"--melta {o['melta']}: Melta X needs X of 1 or more")
        added["melta"] = o["melta"]
    if o["anti"] is not None:
        if not 2 <= o["anti"] <= 6:
            raise OddsInputError(f"--anti {o['anti']}: use 2 to 6 (Critical Wounds on N+)")
        added["anti"] = ab.anti + (Anti(None, o["anti"]),)
    if added:
        weapon = replace(weapon, abilities=replace(ab, **added))
    if o["cover"] and weapon.melee:
        raise OddsInputError("--cover: the Benefit of Cover applies only against ranged attacks")
    reroll = {None: Reroll.none, "ones": Reroll.ones, "failed": Reroll.failed}
    cond = Conditions(hit_mod=o["hit_mod"], wound_mod=o["wound_mod"], save_mod=o["save_mod"],
                      reroll_hits=reroll[o["reroll_hits"] and o["reroll_hits"].value],
                      reroll_wounds=reroll[o["reroll_wounds"] and o["reroll_wounds"].value],
                      cover=o["cover"], half_range=o["half_range"],
                      remained_stationary=o["stationary"], charged=o["charged"],
                      overwatch=o["overwatch"], beyond_12=o["beyond_12"])
    profile = AttackProfile(weapon, models, cond)

    # the target
    if o["target"]:
        ds = _unit(catalog, o["target"], o["target_faction"], "--target", "--target-faction")
        prof = _profile(ds, notes)
        n = _given(o["models"], min(_sizes(ds)))
        tgt = Target(
            toughness=_given(o["t"], prof.T), save=_given(o["sv"], prof.Sv),
            wounds=_given(o["w"], prof.W), models=n, invuln=_given(o["invuln"], prof.invuln),
            fnp=o["fnp"], keywords=ds.all_keywords, visible=o["visible"], name=ds.name)
        if o["models"] is None:
            notes.append(f"{n} {ds.name} model(s), the unit's smallest size (set --models)")
    else:
        missing = [f for f, v in (("--t", o["t"]), ("--sv", o["sv"])) if v is None]
        if missing:
            raise OddsInputError(f"missing {' and '.join(missing)}: describe the target, e.g. "
                                 "--t 4 --sv 3 --w 2 --models 5 (or use --target UNIT)")
        tgt = Target(o["t"], o["sv"], _given(o["w"], 1), _given(o["models"], 1), o["invuln"],
                     o["fnp"], visible=o["visible"])
    return profile, tgt, notes


def _given(value: Any, default: Any) -> Any:
    return default if value is None else value


def _unit(catalog: Any, name: str, faction: str | None, opt: str, faction_opt: str) -> Any:
    if faction:
        f = catalog.faction(faction)
        if f is None:
            hint = catalog.faction_hint(faction) or "known: " + ", ".join(catalog.faction_names())
            raise OddsInputError(f"{faction_opt} '{faction}': unknown faction; {hint}")
        ds = f.units.get(name)
        if ds is None:
            hint = f.units.hint(name)
            raise OddsInputError(f"{opt} '{name}': no such unit in {f.name}"
                                 + (f"; {hint}" if hint else f" (see 'bagm units \"{f.name}\"')"))
        return ds
    found = [(f, ds) for f in catalog.all() if (ds := f.units.get(name)) is not None]
    if len(found) == 1:
        return found[0][1]
    if found:
        names = ", ".join(f.name for f, _ in found)
        raise OddsInputError(f"{opt} '{name}': in several factions ({names}); add {faction_opt}")
    from bagm.data.names import did_you_mean

    hint = did_you_mean(name, [n for f in catalog.all() for n in f.units.names()])
    raise OddsInputError(f"{opt} '{name}': no such unit in any faction"
                         + (f"; {hint}" if hint else "; add --faction or check 'bagm units FACTION'"))


def _weapon(ds: Any, name: str) -> Any:
    from bagm.data.names import did_you_mean, norm

    for wp in ds.weapons:
        if norm(wp.name) == norm(name):
            return wp
    if not ds.weapons:
        raise OddsInputError(f"'{ds.name}' has no weapon profiles in its data pack; give raw "
                             "--attacks/--bs/--s/--ap/--d instead of --attacker")
    names = [wp.name for wp in ds.weapons]
    hint = did_you_mean(name, names)
    raise OddsInputError(f"--weapon '{name}': not a weapon of {ds.name}; "
                         + (hint if hint else "its weapons: " + ", ".join(names)))


def _sizes(ds: Any) -> list[int]:
    return list(ds.sizes or sorted(ds.points) or [1])


def _profile(ds: Any, notes: list[str]) -> Any:
    """The target's model profile: the only one, or the one most of its models have."""
    if not ds.models:
        raise OddsInputError(f"'{ds.name}' has no model profile in its data pack; give raw "
                             "--t/--sv/--w instead of --target")
    if len(ds.models) == 1:
        return ds.models[0]

    def most(p: Any) -> int:
        count = str(p.count or "1").split("-")[-1]
        return int(count) if count.isdigit() else 1

    prof = max(ds.models, key=most)
    notes.append(f"{ds.name} has {len(ds.models)} model profiles; every model uses "
                 f"'{prof.name}' (T{prof.T} Sv{prof.Sv}+ W{prof.W}; override with --t/--sv/--w)")
    return prof
