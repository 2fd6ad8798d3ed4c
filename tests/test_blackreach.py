"""Heroes of Black Reach: each procedure by hand on simple cases, against every scripted dice
sequence (an exact check of the resolver that plays it), and against a seeded sampler."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from blackreach_dice import agrees
from typer.testing import CliRunner

from bagm.blackreach.assault import Assault, Side, assault_odds, resolve_assault
from bagm.blackreach.counters import Kind, OnHit
from bagm.blackreach.firing import (
    Shot,
    Sniper,
    fire_odds,
    parse_sniper_table,
    resolve_fire,
    resolve_sniper,
    resolve_suppressive,
    sniper_odds,
    suppressive_odds,
)
from bagm.blackreach.hits import Victim
from bagm.blackreach.odds import BlackReachError

F = Fraction


# --- FIRING ACTION ----------------------------------------------------------------------------

def test_fire_by_hand():
    # COMBAT 2 against DEFENCE 5: a hit on 3+ (4/6), a double hit needs 10: never
    o = fire_odds(Shot(combat=2, defence=5, victim=Victim(on_hit=OnHit.flipped)))
    assert o.outcomes == {"miss": F(1, 3), "flipped": F(2, 3)}
    # COMBAT 4 against DEFENCE 5: double hit on 10 (die 6), a flipped counter is destroyed then
    o = fire_odds(Shot(combat=4, defence=5, victim=Victim(on_hit=OnHit.flipped)))
    assert o.tables["shot"] == {"miss": 0, "hit": F(5, 6), "double hit": F(1, 6)}
    assert o.outcomes == {"flipped": F(5, 6), "destroyed": F(1, 6)}


def test_fire_modifiers_and_boundaries():
    # RANGE: 7 squares is not long range, 8 is (-2); obscuring squares cumulate; each SM -2
    assert Shot(combat=3, defence=5, range=7).modifier() == 3
    assert Shot(combat=3, defence=5, range=8).modifier() == 1
    assert Shot(combat=3, defence=5, range=8, ignore_long_range=True).modifier() == 3
    heavy = Victim(Kind.heavy)
    assert Shot(combat=3, defence=5, obscuring=(1, 2), sm=1, bonus=1, rear=True,
                victim=heavy).modifier() == 1
    # INDIRECT FIRE: obscuring obstacles do not count; a template never gets the rear bonus
    assert Shot(combat=3, defence=5, obscuring=(1, 2), indirect=True).modifier() == 3
    with pytest.raises(BlackReachError, match="rear"):
        Shot(combat=3, defence=5, rear=True)
    with pytest.raises(BlackReachError, match="template"):
        Shot(combat=3, defence=5, rear=True, template=True, victim=heavy)
    # the target's DEFENCE bonuses count for the double hit too: 2 x (4 + 2) = 12
    o = fire_odds(Shot(combat=6, defence=4, defence_bonus=2))
    assert o.tables["shot"]["double hit"] == F(1, 6)
    # a result of exactly DEFENCE hits; one below misses
    assert fire_odds(Shot(combat=0, defence=6)).tables["shot"]["hit"] == F(1, 6)
    assert fire_odds(Shot(combat=-1, defence=6)).outcomes == {"miss": 1}


def test_twin_linked_keeps_the_best():
    o = fire_odds(Shot(combat=0, defence=6, dice=2))
    assert o.tables["shot"]["hit"] == F(11, 36)


def test_fire_heavy_vehicle_location_and_save():
    markers = {1: "tracks", 2: "hull", 3: "secondary weapon", 4: "primary weapon", 5: "hull",
               6: "explosion"}
    v = Victim(Kind.heavy, damage_set=markers, held=frozenset({"hull"}))
    o = fire_odds(Shot(combat=10, defence=6, victim=v))  # always hits, double on 12 (die 2+)
    assert o.outcomes == {"damage marker 1: tracks": F(1, 36), "destroyed": F(5, 6) + F(3, 36),
                          "damage marker 3: secondary weapon": F(1, 36),
                          "damage marker 4: primary weapon": F(1, 36)}
    # piercing: location 2..7 and no armour save
    v = Victim(Kind.heavy, save=4)
    o = fire_odds(Shot(combat=0, defence=1, victim=v, piercing=True))
    assert o.outcomes["damage marker 7"] == F(1, 6) * F(1, 6)
    assert "saved" not in o.outcomes
    # an armour save of 4+ with one SM on the saver needs a 6
    o = fire_odds(Shot(combat=0, defence=6, victim=Victim(on_hit=OnHit.destroyed, save=4, sm=1)))
    assert o.outcomes == {"miss": F(5, 6), "saved": F(1, 36), "destroyed": F(5, 36)}


def test_double_hit_save_reading():
    v = Victim(on_hit=OnHit.flipped, save=4)
    yes = fire_odds(Shot(combat=20, defence=1, victim=v))
    no = fire_odds(Shot(combat=20, defence=1, victim=v, double_saveable=False))
    assert yes.outcomes == {"saved": F(1, 2), "destroyed": F(1, 2)}
    assert no.outcomes == {"destroyed": 1}


def test_light_vehicle_hit_is_destroyed():
    o = fire_odds(Shot(combat=3, defence=5, victim=Victim(Kind.light)))
    assert o.outcomes == {"miss": F(1, 6), "destroyed": F(5, 6)}


@pytest.mark.parametrize("shot", [
    Shot(combat=3, defence=4, victim=Victim(on_hit=OnHit.flipped, save=5)),
    Shot(combat=2, defence=4, dice=2, victim=Victim(Kind.heavy, damage_set={2: "hull", 6: "explosion"},
                                                  held=frozenset({"hull"})), piercing=True),
    Shot(combat=4, defence=5, obscuring=(1,), victim=Victim(Kind.light), double_saveable=False),
])
def test_fire_agrees_with_the_dice(shot):
    agrees(fire_odds(shot), lambda d: resolve_fire(d, shot))


# --- SUPPRESSIVE FIRE -------------------------------------------------------------------------

def test_suppressive_by_hand():
    # COMBAT 2 and bonus 1 doubled (+6), minus 1 SM (-2): the die +4 against DEFENCE 3
    s = Shot(combat=2, defence=3, bonus=1, sm=1)
    o = suppressive_odds(s)
    # totals 5..10: 5 -> 1 SM, 6..8 -> 2 SMs, 9..10 -> 3 SMs
    assert o.outcomes == {"1 SM": F(1, 6), "2 SM": F(1, 2), "3 SM": F(1, 3)}
    assert suppressive_odds(Shot(combat=0, defence=7)).outcomes == {"no SM": 1}
    agrees(o, lambda d: resolve_suppressive(d, s))


# --- SNIPER -----------------------------------------------------------------------------------

def test_sniper_by_hand():
    o = sniper_odds(Sniper(victim=Victim(on_hit=OnHit.destroyed)))
    assert o.outcomes == {"no effect": F(1, 6), "SM": F(1, 3), "hit: destroyed": F(1, 3),
                          "hit and SM: destroyed": F(1, 6)}
    o = sniper_odds(Sniper(victim=Victim(on_hit=OnHit.flipped), sm=1))  # -2: 1..4 shifted
    assert o.outcomes == {"no effect": F(1, 2), "SM": F(1, 3), "hit: flipped": F(1, 6)}
    s = Sniper(victim=Victim(on_hit=OnHit.flipped, save=6), bonus=1)
    o = sniper_odds(s)
    assert o.chance("hit and SM: flipped", "hit and SM: saved") == F(1, 3)
    agrees(o, lambda d: resolve_sniper(d, s))


def test_sniper_table_from_a_tile():
    table = parse_sniper_table("1-2:none,3:sm,4-6:hit")
    assert table == ((2, "no effect"), (3, "SM"), (6, "hit"))
    with pytest.raises(BlackReachError):
        parse_sniper_table("1-2:boom")


# --- ASSAULT ----------------------------------------------------------------------------------

def test_assault_by_hand():
    # attacker best of 2 dice +0 against a defender's single die +0
    x = Assault(Side(0, assault=0), Side(0, Victim(on_hit=OnHit.destroyed)))
    o = assault_odds(x)
    # P(max(a,b) > c) = 1 - sum over c of (c/6)^2 / 6 = 1 - 91/216; a tie is max == c: 1/6
    win = sum(F(1, 216) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
              if max(a, b) > c)
    tie = sum(F(1, 216) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
              if max(a, b) == c)
    assert o.tables["result"] == {"attacker wins": win, "tie": tie, "defender wins": 1 - win - tie}
    assert o.outcomes["attacker wins: defender destroyed"] == win
    assert win == F(125, 216) and tie == F(1, 6)


def test_assault_modifiers():
    a = Side(3, assault=1, sm=1, bonus=1, penalty=2)
    x = Assault(a, Side(2, Victim(Kind.heavy), assault=2, bonus=1, sm=0), supporters=2, rear=True,
                outside_arc=True)
    assert x.attacker_modifier() == 3 + 1 + 2 + 1 + 2 - 2 - 2
    assert x.defender_modifier() == 2 + 1 - 2  # the outside-arc SM; the assault bonus not added
    y = Assault(a, Side(2, assault=2, bonus=1), defender_assault_bonus=True)
    assert y.defender_modifier() == 5


def test_assault_x_and_fragile():
    o = assault_odds(Assault(Side(1, assault=0), Side(None)))
    assert o.outcomes == {"defender destroyed": 1}
    # a heavy vehicle with X loses and suffers 1 hit: with tracks already on it, every location
    # of this set is a second tracks marker
    heavy = Victim(Kind.heavy, damage_set={k: "tracks" for k in range(1, 7)},
                   held=frozenset({"tracks"}))
    o = assault_odds(Assault(Side(1, assault=0), Side(None, heavy)))
    assert o.outcomes == {"attacker wins: defender destroyed": 1}
    assert o.tables["result"]["attacker wins"] == 1
    o = assault_odds(Assault(Side(1, assault=0), Side(3, sm=1, fragile=True)))
    assert o.outcomes == {"defender deserts": 1}
    o = assault_odds(Assault(Side(1, assault=0, sm=1, fragile=True), Side(3)))
    assert o.outcomes == {"attacker deserts": 1}
    with pytest.raises(BlackReachError, match="rear"):
        Assault(Side(1, assault=0), Side(1), rear=True)
    with pytest.raises(BlackReachError):
        Assault(Side(None, assault=0), Side(1))
    with pytest.raises(BlackReachError):
        Assault(Side(2), Side(1))  # no assault ability


@pytest.mark.parametrize("x", [
    Assault(Side(2, Victim(on_hit=OnHit.flipped), assault=1),
            Side(3, Victim(on_hit=OnHit.destroyed, save=5), assault=0, terrifying=True)),
    Assault(Side(1, Victim(Kind.heavy), assault=0, tearing=True),
            Side(2, Victim(Kind.light), fragile=True), supporters=1),
    Assault(Side(0, Victim(on_hit=OnHit.destroyed), assault=0),
            Side(None, Victim(Kind.heavy, damage_set={1: "explosion"}))),
])
def test_assault_agrees_with_the_dice(x):
    agrees(assault_odds(x), lambda d: resolve_assault(d, x), n=2000)


# --- command line -----------------------------------------------------------------------------

def _run(*args: str):
    from bagm.cli.app import app, register

    register(["blackreach"])
    return CliRunner().invoke(app, ["blackreach", *args])


def test_cli_fire_json():
    r = _run("fire", "--combat", "2", "--defence", "5", "--on-hit", "flipped", "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["outcomes"]["flipped"]["exact"] == "2/3"
    assert data["procedure"] == "fire"


def test_cli_errors_are_clear():
    r = _run("fire", "--combat", "X", "--defence", "5")
    assert r.exit_code == 2 and "cannot fire" in r.output
    r = _run("fire", "--combat", "3")
    assert r.exit_code == 2 and "--defence" in r.output
    r = _run("assault", "--attacker-combat", "3", "--defender-combat", "2")
    assert r.exit_code == 2 and "assault ability" in r.output


def test_cli_text_is_not_markup():
    r = _run("assault", "--attacker-combat", "3", "--attacker-assault", "1", "--defender-combat",
             "[bold]2")
    assert r.exit_code == 2 and "[bold]2" in r.output


def test_knows_no_boarding_actions_rules():
    # the import-linter contract in pyproject.toml, checked at run time too
    import subprocess
    import sys

    code = ("import importlib, pkgutil, sys, bagm.blackreach as b, bagm.render.blackreach_render; "
            "[importlib.import_module(m.name) for m in pkgutil.iter_modules(b.__path__, 'bagm.blackreach.')]; "
            "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['bagm', 'engine'], ['bagm', 'roster'], ['bagm', 'data'])))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- counter file -----------------------------------------------------------------------------

COUNTERS = """\
# values as read off my counters (an example, not real ones)
counters:
  Assault Squad:
    kind: infantry
    defence: 5
    on_hit: flipped
    combat: {infantry: 3, light-vehicle: 2, heavy-vehicle: X}
    assault: 1
    save: 5
  Battlewagon:
    kind: heavy-vehicle
    defence: 7
    combat: {infantry: 4}
    damage_set: grey
damage_sets:
  grey: {1: tracks, 2: hull, 3: secondary weapon, 4: primary weapon, 5: hull, 6: explosion}
"""


def test_counter_file(tmp_path):
    from bagm.blackreach.counters import load_counters

    path = tmp_path / "counters.yaml"
    path.write_text(COUNTERS)
    f = load_counters(path)
    squad = f.counter("assault squad")
    assert squad.defence == 5 and squad.on_hit is OnHit.flipped and squad.save == 5
    assert squad.combat_against(Kind.heavy) is None
    assert f.counter("Battlewagon").damage_set == {1: "tracks", 2: "hull",
                                                   3: "secondary weapon", 4: "primary weapon",
                                                   5: "hull", 6: "explosion"}
    with pytest.raises(BlackReachError, match="no COMBAT against light-vehicle"):
        f.counter("Battlewagon").combat_against(Kind.light)
    # the command line reads it: the Battlewagon fires at the squad (4 against 5: always a
    # hit, a double hit on a 6; the squad's save of 5+ and its flip symbol)
    r = _run("fire", "--counters", str(path), "--attacker", "Battlewagon", "--target",
             "Assault Squad", "-f", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)["outcomes"]
    assert {k: v["exact"] for k, v in out.items()} == {
        "saved": "1/3", "flipped": str(F(5, 6) * F(2, 3)), "destroyed": str(F(1, 6) * F(2, 3))}
    # the squad cannot fire at the vehicle: COMBAT X
    r = _run("fire", "--counters", str(path), "--attacker", "Assault Squad", "--target",
             "Battlewagon")
    assert r.exit_code == 2 and "COMBAT of X" in r.output


@pytest.mark.parametrize(("text", "line", "words"), [
    ("counters:\n  A:\n    defense: 5\n", 3, "unknown value 'defense'"),
    ("counters:\n  A:\n    kind: tank\n", 3, "not infantry"),
    ("counters:\n  A:\n    defence: five\n", 3, "whole number"),
    ("damage_sets:\n  g: {1: track}\n", 2, "unknown damage marker"),
    ("counters:\n  A:\n    damage_set: red\n", 3, "no damage set named 'red'"),
    ("unit: 1\n", 1, "unknown section"),
])
def test_counter_file_errors(tmp_path, text, line, words):
    from bagm.blackreach.counters import load_counters
    from bagm.io.yamlsafe import InputError

    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_counters(path)
    assert err.value.line == line and words in str(err.value)
    r = _run("fire", "--counters", str(path), "--combat", "1", "--defence", "2")
    assert r.exit_code == 2 and f"c.yaml:{line}" in r.output


@pytest.mark.parametrize("args", [
    ["ram", "--rammer-defence", "6", "--rammer-kind", "light", "--defence", "5"],
    ["destroy", "--dice", "3", "--value", "2", "--exceed"],
    ["scatter", "--distance", "2", "--directions", "n,e,s,w"],
    ["perils", "--psyker", "librarian", "--level", "2", "--power", "smite",
     "--pool", "no effect=1,hit=1,1 SM=1,2 SMs=1,again=2"],
    ["krunch", "--defence", "5", "--on-hit", "flipped"],
    ["krunch", "--defence", "5", "--defence", "7", "--save", "5"],
    ["drop-pod", "--attempts", "3"],
    ["teleport", "--no-free-square"],
    ["unstable", "--value", "3"],
    ["assault", "--attacker-combat", "2", "--attacker-assault", "1", "--defender-combat", "2",
     "--teleported"],
])
def test_cli_every_procedure_json(args):
    r = _run(*args, "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert sum(F(o["exact"]) for o in data["outcomes"].values()) == 1
    r = _run(*args)
    assert r.exit_code == 0 and data["procedure"] in r.output


def test_cli_perils_refusals():
    r = _run("perils", "--psyker", "librarian", "--level", "1", "--power", "da krunch")
    assert r.exit_code == 2 and "weirdboy's power" in r.output
    r = _run("perils", "--psyker", "weirdboy", "--level", "1", "--cost", "1", "--share")
    assert r.exit_code == 2 and "first SM" in r.output


# --- heavy vehicle aids, PRESCIENCE, SPEED PENALTY -------------------------------------------

SET = {1: "tracks", 2: "hull", 3: "secondary weapon", 4: "primary weapon", 5: "hull",
       6: "explosion"}


def test_mekaniak_moves_the_location_to_survive():
    # hull already on it: 2 and 5 would destroy, and 6 explodes; the mekaniak moves 2 to 1 or 3
    # (tracks preferred), 5 to 4 (6 destroys), and 6 to 5 destroys anyway
    v = Victim(Kind.heavy, damage_set=SET, held=frozenset({"hull"}), adjust=1,
               prefer=("tracks", "secondary weapon"))
    o = fire_odds(Shot(combat=10, defence=11, victim=v))  # always a hit, never a double
    assert o.outcomes == {"damage marker 1: tracks": F(1, 3),
                          "damage marker 3: secondary weapon": F(1, 3),
                          "damage marker 4: primary weapon": F(1, 6), "destroyed": F(1, 6)}
    # grot oilers reach 2 away: 6 to 4
    g = Victim(Kind.heavy, damage_set=SET, held=frozenset({"hull"}), adjust=2)
    assert "destroyed" not in fire_odds(Shot(combat=10, defence=11, victim=g)).outcomes
    s = Shot(combat=10, defence=11, victim=v)
    agrees(fire_odds(s), lambda d: resolve_fire(d, s), n=1000)


def test_techmarine_gives_the_owner_the_pick_of_two_dice():
    v = Victim(Kind.heavy, damage_set={1: "explosion", 2: "explosion", 3: "explosion",
                                       4: "explosion", 5: "explosion", 6: "tracks"},
               extra_die=True)
    o = fire_odds(Shot(combat=10, defence=11, victim=v))
    assert o.outcomes == {"destroyed": F(25, 36), "damage marker 6: tracks": F(11, 36)}
    s = Shot(combat=10, defence=11, victim=v)
    agrees(fire_odds(s), lambda d: resolve_fire(d, s), n=1000)
    with pytest.raises(BlackReachError, match="damage set"):
        Victim(Kind.heavy, extra_die=True)


def test_prescience_rerolls_a_miss():
    s = Shot(combat=0, defence=6, reroll=True)
    assert fire_odds(s).tables["shot"]["hit"] == 1 - F(5, 6) ** 2
    agrees(fire_odds(s), lambda d: resolve_fire(d, s))


def test_speed_penalty_from_order_tokens():
    r = _run("fire", "--combat", "3", "--defence", "5", "--aircraft", "--range", "12",
             "--order-tokens", "2,5", "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["inputs"]["modifier"] == 0 and not data["inputs"]["long_range"]
    r = _run("fire", "--combat", "3", "--defence", "5", "--order-tokens", "2,special", "-f", "json")
    assert json.loads(r.output)["inputs"]["modifier"] == 1
    r = _run("fire", "--combat", "3", "--defence", "5", "--order-tokens", "two,5")
    assert r.exit_code == 2 and "--order-tokens" in r.output
