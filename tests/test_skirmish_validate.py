"""Skirmish Battles: the squad roster and every construction rule, each with a passing, a
failing and a boundary case; the example rosters; the text's own examples."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.io.yamlsafe import InputError
from bagm.skirmish.data import SkirmishData, load_data
from bagm.skirmish.roster import load_roster
from bagm.skirmish.validate import Report, validate, validate_path

REPO = Path(__file__).parents[1]
FOLDER = REPO / "rosters" / "skirmish"
EXAMPLE = FOLDER / "EXAMPLE-overlay.skirmish-data.yaml"
EXTRA = """\
factions:
  orks:
    packs:
      kommandos: {upgrade_cost: 2}
    heavy_assault:
      heavy: {Big Shoota: {cost: 5}}
      assault: {Burna: {cost: 6}}
      per_pack: 1
  eldar:
    packs:
      storm_guardians: {upgrade_cost: 1}
    armoury:
      Psychic Item 7: {cost: 10}
  dark_eldar:
    packs:
      scourges: {profile: {WS: 4, BS: 4, S: 3, T: 3, W: 1, I: 5, A: 1, Ld: 8, Sv: 5}}
    heavy_assault:
      heavy: {Dark Lance: {cost: 10}, Splinter Cannon: {cost: 8}}
      assault: {Blaster: {cost: 8}}
      per_pack: 1
  tyranids:
    armoury:
      Hive Node: {cost: 5}
      Warp Field: {cost: 5}
  necrons:
    packs:
      destroyers: {profile: {WS: 4, BS: 4, S: 4, T: 5, W: 1, I: 2, A: 1, Ld: 10, Sv: 3}}
  imperial_guard:
    skills: {}
"""


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> SkirmishData:
    extra = tmp_path_factory.mktemp("o") / "extra.yaml"
    extra.write_text(EXTRA.replace("  imperial_guard:\n    skills: {}\n", ""))
    return load_data([EXAMPLE, extra])


def check(data: SkirmishData, tmp_path: Path, text: str) -> Report:
    path = tmp_path / "t.skirmish.yaml"
    path.write_text("skirmish: roster\n" + textwrap.dedent(text))
    return validate(load_roster(path), data)


def codes(report: Report) -> list[str]:
    return [f.code for f in report.findings]


SM = """\
faction: Space Marines
leader: {name: Sarg, type: sergeant, weapons: [Bolt Pistol, Close Combat Weapon]}
packs:
  - {name: A, type: space_marine, models: 4, founded: 4}
"""


def sm(leader: str = "weapons: [Bolt Pistol]", packs: str = "  - {name: A, type: space_marine, models: 2}",
       state: str = "") -> str:
    return (f"faction: Space Marines\nleader: {{name: Sarg, type: sergeant, {leader}}}\n"
            f"packs:\n{packs}\n" + state)


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


# --- the example rosters ---------------------------------------------------------------------
def test_all_nine_example_rosters_are_valid_with_the_example_overlay() -> None:
    data = load_data([EXAMPLE])
    files = sorted(FOLDER.glob("*.skirmish.yaml"))
    factions = {validate_path(p, data).faction for p in files}
    assert len(factions) == 9
    for p in files:
        r = validate_path(p, data)
        assert r.valid, (p.name, [(f.code, f.message) for f in r.findings])
        assert r.examples == [str(EXAMPLE)]


def test_example_rosters_report_their_lost_values_without_the_overlay() -> None:
    r = validate_path(FOLDER / "orks.skirmish.yaml", load_data())
    assert not r.valid and r.points is None
    assert {f.code for f in r.findings} == {"SK001"}
    first = r.findings[0]
    assert first.line == 7 and first.fix and "factions.orks.leader.nob.cost" in first.fix


def test_validate_command(tmp_path: Path) -> None:
    result = run("skirmish", "validate", str(FOLDER), "--data", str(EXAMPLE), "-f", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert len(out) == 9 and all(r["valid"] for r in out)
    assert run("skirmish", "validate", str(FOLDER)).exit_code == 1
    result = run("skirmish", "validate", str(FOLDER / "tau.skirmish.yaml"), "-f", "github")
    assert "::error file=" in result.output and "SK001 value-lost" in result.output
    bad = tmp_path / "bad.skirmish.yaml"
    bad.write_text("skirmish: roster\nfaction: Orks\npacks: 3\n")
    result = run("skirmish", "validate", str(bad))
    assert result.exit_code == 2 and "packs is a list" in result.output
    result = run("skirmish", "show", str(FOLDER / "eldar.skirmish.yaml"), "--data", str(EXAMPLE))
    assert result.exit_code == 0 and "Rangers" in result.output and "EXAMPLE" in result.output
    result = run("skirmish", "show", str(bad))
    assert result.exit_code == 2 and ":3:" in result.output


@pytest.mark.parametrize("text, message, line", [
    ("faction: Orks\n", "'skirmish: roster' is missing", 1),
    ("skirmish: roster\nfaction: Orks\nleeder: {name: x}\n", "did you mean 'leader'", 3),
    ("skirmish: roster\nfaction: Orks\npacks:\n  - {name: A, type: boy, models: many}\n", "whole number", 4),
    ("skirmish: roster\nfaction: Orks\nleader: {name: N, type: nob, weapons: Choppa}\n", "list of names", 3),
    ("skirmish: roster\nfaction: Orks\nleader: {name: N, type: nob, advances: {WS: -1}}\n", "whole number", 3),
])
def test_bad_shapes_are_input_errors_with_lines(tmp_path: Path, text: str, message: str, line: int) -> None:
    path = tmp_path / "x.skirmish.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as exc:
        load_roster(path)
    assert message in str(exc.value) and exc.value.line == line


# --- the text's own examples -------------------------------------------------------------------
def test_hardened_veterans_cost_four_points_more_a_model(data: SkirmishData, tmp_path: Path) -> None:
    base = """\
    faction: Imperial Guard
    leader: {name: S, type: sergeant}
    packs:
      - {name: P, type: TYPE, models: 5}
    """
    plain = check(data, tmp_path, base.replace("TYPE", "guardsman"))
    veterans = check(data, tmp_path, base.replace("TYPE", "hardened_veterans"))
    assert plain.valid and veterans.valid
    assert veterans.points is not None and plain.points is not None
    assert veterans.points - plain.points == 5 * 4


def test_imperial_guard_one_pack_of_each_upgraded_type(data: SkirmishData, tmp_path: Path) -> None:
    both = """\
    faction: Imperial Guard
    leader: {name: S, type: sergeant}
    packs:
      - {name: V, type: hardened_veterans, models: 3}
      - {name: T, type: storm_troopers, models: 3}
    """
    assert check(data, tmp_path, both).valid  # one Pack of each: the text's example
    r = check(data, tmp_path, both.replace("storm_troopers", "hardened_veterans"))
    assert codes(r) == ["SK122"] and r.findings[0].line == 6


def test_eldar_storm_guardians_up_to_two_packs(data: SkirmishData, tmp_path: Path) -> None:
    text = "faction: Eldar\nleader: {name: W, type: warlock}\npacks:\n" + "".join(f"  - {{name: S{i}, type: storm_guardians, models: 2}}\n" for i in range(3))
    assert codes(check(data, tmp_path, text)) == ["SK122"]
    two = text.rsplit("  - ", 1)[0]
    assert check(data, tmp_path, two).valid


# --- points and models -------------------------------------------------------------------------
def test_budget_boundary(data: SkirmishData, tmp_path: Path) -> None:
    text = (FOLDER / "tau.skirmish.yaml").read_text().split("\n", 2)[2]
    r = check(data, tmp_path, text.replace("skirmish: roster\n", ""))
    assert r.valid and r.points == 100  # exactly 100: valid
    over = text.replace("skirmish: roster\n", "").replace("[Photon Grenades]", "[Photon Grenades, EMP Grenades]")
    r = check(data, tmp_path, over)
    assert codes(r) == ["SK101"] and r.points == 102
    # after the first battle the Points Pool pays, not the 100-point budget
    assert check(data, tmp_path, over + "state: {battles: 1, pool: 0}\n").valid


def test_model_limits_with_half_grots(data: SkirmishData, tmp_path: Path) -> None:
    def orks(boys: int, grots: int) -> str:
        return (f"faction: Orks\nleader: {{name: N, type: nob}}\npacks:\n"
                f"  - {{name: B, type: boy, models: {boys}}}\n"
                f"  - {{name: G, type: grot, models: {grots}}}\nstate: {{battles: 1}}\n")
    r = check(data, tmp_path, orks(11, 8))
    assert r.valid and r.models == 16  # 1 + 11 + 8/2: at the maximum
    r = check(data, tmp_path, orks(11, 9))
    assert codes(r) == ["SK103"] and "16.5" in r.findings[0].message
    r = check(data, tmp_path, orks(1, 4))
    assert r.valid and r.models == 4  # the minimum
    assert codes(check(data, tmp_path, orks(0, 4))) == ["SK102"]


def test_space_marine_minimum_and_maximum(data: SkirmishData, tmp_path: Path) -> None:
    assert check(data, tmp_path, sm()).valid  # 3 models
    assert codes(check(data, tmp_path, sm(packs="  - {name: A, type: space_marine, models: 1}"))) == ["SK102"]
    big = sm(packs="  - {name: A, type: space_marine, models: 11}", state="state: {battles: 2}\n")
    assert check(data, tmp_path, big).valid
    assert codes(check(data, tmp_path, big.replace("models: 11", "models: 12"))) == ["SK103"]


def test_companions_do_not_count_and_swarm_bases_do(data: SkirmishData, tmp_path: Path) -> None:
    text = """\
    faction: Necrons
    packs:
      - {name: W, type: warrior, models: 3}
    swarms:
      - {type: scarab_swarm, bases: 1}
    """
    r = check(data, tmp_path, text)
    assert r.valid and r.models == 4 and r.points == 3 * 18 + 12
    assert codes(check(data, tmp_path, text.replace("scarab_swarm", "ripper_swarm"))) == ["SK126"]


# --- the Leader ------------------------------------------------------------------------------------
def test_leaders(data: SkirmishData, tmp_path: Path) -> None:
    no_leader = "faction: Space Marines\npacks:\n  - {name: A, type: space_marine, models: 3}\n"
    assert codes(check(data, tmp_path, no_leader)) == ["SK110"]
    necron = ("faction: Necrons\nleader: {name: L, type: warrior}\n"
              "packs:\n  - {name: W, type: warrior, models: 4}\n")
    assert codes(check(data, tmp_path, necron)) == ["SK111"]
    assert codes(check(data, tmp_path, sm().replace("type: sergeant", "type: captain"))) == ["SK112"]
    assert check(data, tmp_path, sm().replace("type: sergeant", "type: upgraded")).valid  # took command


# --- Packs --------------------------------------------------------------------------------------------
def test_pack_rules(data: SkirmishData, tmp_path: Path) -> None:
    assert codes(check(data, tmp_path, sm(packs="  - {name: A, type: terminator, models: 2}"))) == ["SK120"]
    added = sm(packs="  - {name: A, type: space_marine, models: 3, founded: 2}")
    assert codes(check(data, tmp_path, added)) == ["SK121"]  # a Pack is never added to
    assert check(data, tmp_path, added.replace("founded: 2", "founded: 3")).valid
    grots = ("faction: Orks\nleader: {name: N, type: nob}\npacks:\n  - {name: B, type: boy, models: 3}\n"
             "  - {name: G, type: grot, models: 4, founded: 6}\n")
    assert check(data, tmp_path, grots).valid
    # back up to the minimum size (4 Grots) is allowed, not beyond what it was founded with
    assert check(data, tmp_path, grots.replace("founded: 6", "founded: 3")).valid
    assert "SK121" in codes(check(data, tmp_path, grots.replace("models: 4, founded: 6", "models: 5, founded: 3")))
    assert codes(check(data, tmp_path, grots.replace("models: 4, founded: 6", "models: 3"))) == ["SK123"]
    rangers = ("faction: Eldar\nleader: {name: W, type: warlock}\npacks:\n"
               "  - {name: G, type: guardian_defender, models: 2}\n  - {name: R, type: rangers, models: 4}\n"
               "state: {battles: 1}\n")
    assert check(data, tmp_path, rangers).valid
    assert codes(check(data, tmp_path, rangers.replace("models: 4", "models: 5"))) == ["SK123"]
    assert check(data, tmp_path, rangers.replace("models: 4", "models: 1")).valid
    two = rangers.replace("state:", "  - {name: S, type: rangers, models: 1}\nstate:")
    assert codes(check(data, tmp_path, two)) == ["SK122"]  # one Pack of Rangers


def test_heavy_and_assault_weapons(data: SkirmishData, tmp_path: Path) -> None:
    one = sm(packs="  - {name: A, type: space_marine, models: 2, heavy: [Heavy Bolter]}")
    assert check(data, tmp_path, one).valid
    two = one.replace("[Heavy Bolter]", "[Heavy Bolter, Heavy Bolter]")
    assert codes(check(data, tmp_path, two)) == ["SK125"]
    assert codes(check(data, tmp_path, one.replace("Heavy Bolter", "Lascannon"))) == ["SK130"]
    boyz = ("faction: Orks\nleader: {name: N, type: nob}\npacks:\n"
            "  - {name: K, type: TYPE, models: 3, heavy: [Big Shoota]}\n")
    assert check(data, tmp_path, boyz.replace("TYPE", "kommandos")).valid  # Kommandos may
    assert codes(check(data, tmp_path, boyz.replace("TYPE", "boy"))) == ["SK125"]
    de = ("faction: Dark Eldar\nleader: {name: S, type: sybarite}\npacks:\n"
          "  - {name: P, type: scourges, models: 2, heavy: [Dark Lance, Splinter Cannon]}\n")
    assert check(data, tmp_path, de).valid  # Scourges: twice the Heavy weapons
    assert codes(check(data, tmp_path, de.replace("heavy: [Dark Lance, Splinter Cannon]", "assault: [Blaster]"))) == ["SK125"]
    rangers = ("faction: Eldar\nleader: {name: W, type: warlock}\npacks:\n"
               "  - {name: R, type: rangers, models: 3, heavy: [Anything]}\n")
    assert "SK125" in codes(check(data, tmp_path, rangers))


def test_necron_wargear_bought_per_pack(data: SkirmishData, tmp_path: Path) -> None:
    text = """\
    faction: Necrons
    packs:
      - {name: W, type: warrior, models: 2, wargear: [Chronometion]}
      - {name: X, type: warrior, models: 2}
    """
    r = check(data, tmp_path, text)
    assert r.valid and r.points == 4 * 18 + 2 * 10  # the cost times the Pack's models
    twice = text.replace("models: 2}", "models: 2, wargear: [Chronometion]}") + "state: {battles: 1}\n"
    assert codes(check(data, tmp_path, twice)) == ["SK136"]  # once per unit
    two_items = text.replace("[Chronometion]", "[Chronometion, Phylactery]")
    assert "SK137" in codes(check(data, tmp_path, two_items))
    destroyers = ("faction: Necrons\npacks:\n  - {name: W, type: warrior, models: 3}\n"
                  "  - {name: D, type: destroyers, models: 1, wargear: [Chronometion]}\n"
                  "state: {battles: 1}\n")
    assert codes(check(data, tmp_path, destroyers)) == ["SK137"]
    assert codes(check(data, tmp_path, text.replace("Chronometion", "Warp Field"))) == ["SK130"]


def test_pack_models_buy_no_armoury_items(data: SkirmishData, tmp_path: Path) -> None:
    r = check(data, tmp_path, sm(packs="  - {name: A, type: space_marine, models: 2, wargear: [Jump Pack]}"))
    assert codes(r) == ["SK138"]
    r = check(data, tmp_path, sm(packs="  - {name: A, type: space_marine, models: 2, grenades: [Frag Grenades]}"))
    assert codes(r) == ["SK138"]


# --- the armoury --------------------------------------------------------------------------------------
@pytest.mark.parametrize("leader, found", [
    ("weapons: [Bolt Pistol, Power Weapon]", []),  # two single-handed
    ("weapons: [Bolt Pistol, Storm Bolter]", []),  # one single-, one two-handed
    ("weapons: [Storm Bolter]", []),
    ("weapons: [Bolt Pistol, Power Weapon, Close Combat Weapon]", ["SK131"]),
    ("weapons: [Storm Bolter, Bolter-Meltagun]", ["SK131"]),  # two two-handed
    ("weapons: [Lightning Claw]", []),  # the pair: two choices
    ("weapons: [Lightning Claw, Bolt Pistol]", ["SK131"]),
    ("weapons: [Bolt Pistol, Bolt Pistol]", ["SK132"]),
    ("wargear: [Purity Seals, Purity Seals]", ["SK132"]),
    ("weapons: [Lasgun]", ["SK130"]),  # not a Space Marine item
    ("wargear: [Bolt Pistol]", ["SK130"]),  # a weapon listed as wargear
    ("grenades: [Frag Grenades, Krak Grenades]", []),
    ("grenades: [Frag Grenades, Krak Grenades, Meltabombs]", ["SK133"]),
    ("weapons: [Power Weapon], wargear: [Master-Crafted Weapon], master_crafted: Power Weapon", []),
    ("weapons: [Power Weapon], wargear: [Master-Crafted Weapon]", ["SK135"]),
    ("weapons: [Power Weapon], master_crafted: Power Weapon", ["SK135"]),
    ("weapons: [Power Weapon], wargear: [Master-Crafted Weapon], master_crafted: Power Fist", ["SK135"]),
    ("wargear: [Bionic Replacement]", ["SK140"]),  # only after an amputation
])
def test_space_marine_armoury(data: SkirmishData, tmp_path: Path, leader: str, found: list[str]) -> None:
    assert codes(check(data, tmp_path, sm(leader=leader, state="state: {battles: 1}\n"))) == found


def test_an_amputated_arm_leaves_one_single_handed_weapon(data: SkirmishData, tmp_path: Path) -> None:
    state = "state: {battles: 1, injuries: {Sarg: [arm_amputated]}}\n"
    assert check(data, tmp_path, sm(leader="weapons: [Bolt Pistol]", state=state)).valid
    assert codes(check(data, tmp_path, sm(leader="weapons: [Bolt Pistol, Power Weapon]", state=state))) == ["SK131"]
    assert check(data, tmp_path, sm(leader="weapons: [Bolt Pistol, Power Weapon], wargear: [Bionic Replacement]",
                                    state=state)).valid


def test_imperial_guard_weapon_rule(data: SkirmishData, tmp_path: Path) -> None:
    text = "faction: Imperial Guard\nleader: {name: S, type: sergeant, weapons: WEAPONS}\npacks:\n  - {name: P, type: guardsman, models: 3}\n"
    assert check(data, tmp_path, text.replace("WEAPONS", "[Laspistol, Lasgun]")).valid
    assert codes(check(data, tmp_path, text.replace("WEAPONS", "[Lasgun, Shotgun]"))) == ["SK131"]
    assert codes(check(data, tmp_path, text.replace("WEAPONS", "[Laspistol, Hellpistol, Close Combat Weapon]"))) == ["SK131"]


def test_prerequisites(data: SkirmishData, tmp_path: Path) -> None:
    csm = ("faction: Chaos Space Marines\nleader: {name: C, type: aspiring_champion, wargear: WARGEAR}\n"
           "packs:\n  - {name: P, type: chaos_space_marine, models: 2}\nstate: {battles: 1}\n")
    assert check(data, tmp_path, csm.replace("WARGEAR", "[Mark of Khorne, Collar of Khorne]")).valid
    r = check(data, tmp_path, csm.replace("WARGEAR", "[Mark of Nurgle, Collar of Khorne]"))
    assert codes(r) == ["SK140"] and "Mark of Khorne" in (r.findings[0].fix or "")
    orks = ("faction: Orks\nleader: {name: N, type: nob, wargear: WARGEAR}\n"
            "packs:\n  - {name: B, type: boy, models: 3}\nstate: {battles: 1}\n")
    assert codes(check(data, tmp_path, orks.replace("WARGEAR", "[Mega Boosta]"))) == ["SK140"]
    assert check(data, tmp_path, orks.replace("WARGEAR", "[Mega Armour, Mega Boosta]")).valid
    eldar = ("faction: Eldar\nleader: {name: W, type: warlock, wargear: [Psychic Item 7], skills: SKILLS}\n"
             "packs:\n  - {name: G, type: guardian_defender, models: 2}\nstate: {battles: 1}\n")
    assert codes(check(data, tmp_path, eldar.replace("SKILLS", "[]"))) == ["SK140"]
    r = check(data, tmp_path, eldar.replace("SKILLS", "[Psychic Training]"))
    assert codes(r) == ["SK001"]  # the Warlock's skill row was lost (one of five values)
    nids = ("faction: Tyranids\nleader: {name: M, type: mutated_gaunt, wargear: WARGEAR}\n"
            "packs:\n  - {name: T, type: termagant, models: 4}\nstate: {battles: 1}\n")
    assert codes(check(data, tmp_path, nids.replace("WARGEAR", "[Warp Field]"))) == ["SK140"]
    assert check(data, tmp_path, nids.replace("WARGEAR", "[Hive Node, Warp Field]")).valid


def test_one_per_unit_items(data: SkirmishData, tmp_path: Path) -> None:
    de = ("faction: Dark Eldar\nleader: {name: S, type: sybarite, wargear: [Shadow Field]}\n"
          "packs:\n  - {name: W, type: warrior, models: 3}\n"
          "upgraded:\n  - {name: U, from_pack: W, wargear: [Shadow Field]}\nstate: {battles: 1}\n")
    r = check(data, tmp_path, de)
    assert codes(r) == ["SK136"]
    assert check(data, tmp_path, de.replace("wargear: [Shadow Field]}\nstate", "wargear: [Hell Mask]}\nstate")).valid


# --- upgraded models, skills and advances ---------------------------------------------------------
def test_at_most_four_upgraded_models(data: SkirmishData, tmp_path: Path) -> None:
    def ups(n: int) -> str:
        return sm(state="state: {battles: 5}\n") + "upgraded:\n" + "".join(
            f"  - {{name: U{i}, from_pack: A}}\n" for i in range(n))
    assert check(data, tmp_path, ups(4)).valid
    assert codes(check(data, tmp_path, ups(5))) == ["SK150"]


def test_skills_per_category(data: SkirmishData, tmp_path: Path) -> None:
    ig = ("faction: Imperial Guard\nleader: {name: S, type: sergeant, skills: SKILLS}\n"
          "packs:\n  - {name: P, type: guardsman, models: 3}\nstate: {battles: 3, injuries: INJ}\n")

    def r(skills: str, inj: str = "{}") -> list[str]:
        return codes(check(data, tmp_path, ig.replace("SKILLS", skills).replace("INJ", inj)))
    # a Sergeant: Combat 2, Shooting 3, Strength 1, Agility 0, Intelligence 1
    assert r("[Crack Shot, Fast Shot, Marksman]") == []
    assert r("[Crack Shot, Fast Shot, Marksman, Eagle Eye]") == ["SK161"]
    assert r("[Dodge]") == ["SK161"]  # Agility 0
    assert r("[Body Slam, Fearsome]") == ["SK161"]
    assert r("[Body Slam, Fearsome]", "{S: [horrible_scars]}") == []  # Horrible Scars
    assert r("[Crack Shot, Crack Shot]") == ["SK162"]
    assert r("[Sword Dance]") == ["SK160"]


def test_a_pack_with_no_models(data: SkirmishData, tmp_path: Path) -> None:
    # a new unit's Pack has models; after a battle an emptied Pack is removed by 'campaign end'
    assert check(data, tmp_path, sm(packs="  - {name: A, type: space_marine, models: 2}")).valid
    empty = sm(packs="  - {name: A, type: space_marine, models: 2}\n  - {name: B, type: scout, models: 0}")
    assert "SK124" in codes(check(data, tmp_path, empty))
    assert "SK124" not in codes(check(data, tmp_path, empty + "state: {battles: 1}\n"))


def test_one_master_crafted_weapon_a_model(data: SkirmishData, tmp_path: Path) -> None:
    one = "weapons: [Power Weapon], wargear: [Master-Crafted Weapon], master_crafted: Power Weapon"
    assert check(data, tmp_path, sm(leader=one, state="state: {battles: 1}\n")).valid
    two = one.replace("[Master-Crafted Weapon]", "[Master-Crafted Weapon, Master-Crafted Weapon]")
    assert "SK134" in codes(check(data, tmp_path, sm(leader=two, state="state: {battles: 1}\n")))


def test_replacements_need_a_lost_or_replaced_limb_or_eye(data: SkirmishData, tmp_path: Path) -> None:
    nids = ("faction: Tyranids\nleader: {name: M, type: mutated_gaunt, wargear: [Limb Replacement]}\n"
            "packs:\n  - {name: T, type: termagant, models: 4}\nstate: {battles: 1, injuries: {M: INJ}}\n")
    # a Tyranid's eye replaced through 'campaign buy' (its BS-1 gone, eye_replaced recorded)
    assert check(data, tmp_path, nids.replace("INJ", "[eye_replaced]")).valid
    assert check(data, tmp_path, nids.replace("INJ", "[leg_amputated, leg_replaced]")).valid
    assert codes(check(data, tmp_path, nids.replace("INJ", "[BS-1]"))) == ["SK140"]  # not bought for it
    assert codes(check(data, tmp_path, nids.replace("INJ", "[]"))) == ["SK140"]


def test_psychic_powers(data: SkirmishData, tmp_path: Path) -> None:
    leader = "skills: [Psychic Training, Psychic Training], psychic_powers: POWERS"
    ok = sm(leader=leader.replace("POWERS", "[Shield, Leap]"), state="state: {battles: 3}\n")
    assert check(data, tmp_path, ok).valid  # Psychic Training may be taken again
    four = leader.replace("POWERS", "[Shield, Leap, Push, Healing]")
    assert check(data, tmp_path, sm(leader=four, state="state: {battles: 3}\n")).valid  # at most 4
    five = leader.replace("POWERS", "[Shield, Leap, Push, Healing, Slow Time]")
    assert codes(check(data, tmp_path, sm(leader=five, state="state: {battles: 3}\n"))) == ["SK163"]
    assert codes(check(data, tmp_path, sm(leader=leader.replace("POWERS", "[Fireball]")))) == ["SK160"]


def test_advances(data: SkirmishData, tmp_path: Path) -> None:
    def r(adv: str) -> list[str]:
        return codes(check(data, tmp_path, sm(leader=f"advances: {adv}", state="state: {battles: 3}\n")))
    assert r("{WS: 2, BS: 2}") == []
    assert r("{WS: 3}") == ["SK170"]
    assert r("{Ld: 2}") == ["SK171"]  # Ld 9 + 2 = 11: no characteristic over 10
    assert r("{Ld: 1}") == []  # exactly 10
    assert r("{Luck: 1}") == ["SK173"]
    horma = ("faction: Tyranids\nleader: {name: M, type: mutated_gaunt}\npacks:\n"
             "  - {name: H, type: hormagaunts, models: 4, advances: {BS: 1}}\n")
    assert codes(check(data, tmp_path, horma)) == ["SK172"]  # BS 0 never increases
    assert check(data, tmp_path, horma.replace("BS: 1", "WS: 1")).valid


def test_names_twice_is_a_warning(data: SkirmishData, tmp_path: Path) -> None:
    r = check(data, tmp_path, sm(packs="  - {name: Sarg, type: space_marine, models: 2}"))
    assert codes(r) == ["SK180"] and r.valid


def test_unknown_faction(data: SkirmishData, tmp_path: Path) -> None:
    r = check(data, tmp_path, "faction: Space Marine\n")
    assert codes(r) == ["SK100"] and "Space Marines" in (r.findings[0].fix or "")


def test_new_writes_a_valid_start_for_every_faction(tmp_path: Path) -> None:
    data = load_data([EXAMPLE])
    for key, f in data.raw["factions"].items():
        path = tmp_path / f"{key}.skirmish.yaml"
        result = run("skirmish", "new", str(path), "--faction", f["name"], "--name", 'Unit: "one"')
        assert result.exit_code == 0, result.output
        r = validate_path(path, data)
        assert r.valid, (key, [(x.code, x.message) for x in r.findings])
        assert load_roster(path).name == 'Unit: "one"'
    assert run("skirmish", "new", str(path), "--faction", "Orks").exit_code == 2  # never overwritten
    assert run("skirmish", "new", str(tmp_path / "x.yaml"), "--faction", "Orks").exit_code == 2
    assert run("skirmish", "new", str(tmp_path / "y.skirmish.yaml"), "--faction", "Squats").exit_code == 2


def test_tables_command_marks_the_lost_rows() -> None:
    result = run("skirmish", "tables")
    assert result.exit_code == 0 and "3 (formula: row lost)" in result.output


def test_both_rules_systems_findings_share_one_shape() -> None:
    from bagm.findings import CodedFinding
    from bagm.roster.findings import Finding as BoardingFinding
    from bagm.roster.findings import Severity
    from bagm.skirmish.findings import Finding

    sk, ba = Finding("SK180", "twice", 3, where="Sarg"), BoardingFinding("BA180", "twice", 4, unit="B3")
    assert isinstance(sk, CodedFinding) and isinstance(ba, CodedFinding)
    assert (sk.name, sk.severity, sk.rule) == ("name-twice", "warning", "Roster: tell models and Packs apart")
    assert (ba.name, ba.severity) == ("label-twice", Severity.WARNING)
    assert ba.as_dict() == {"code": "BA180", "severity": "warning", "message": "twice", "line": 4, "unit": "B3"}
