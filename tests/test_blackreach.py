"""Heroes of Black Reach: each procedure by hand on simple cases, against every scripted dice
sequence (an exact check of the resolver that plays it), and against a seeded sampler."""

from __future__ import annotations

import json
import math
from collections import Counter as Tally
from collections.abc import Callable
from fractions import Fraction

import pytest
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
from bagm.blackreach.odds import BlackReachError, Odds
from bagm.chance.dice import Dice, DiceError

F = Fraction


def every_roll(play: Callable[[Dice], str]) -> dict[str, Fraction]:
    """The exact distribution of ``play``'s answer over every sequence of D6 results."""
    out: dict[str, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        script = stack.pop()
        dice = Dice.scripted(script)
        try:
            answer = play(dice)
        except DiceError:  # the script ran out: try each next result
            stack += [script + (v,) for v in range(1, 7)]
            continue
        dice.assert_consumed()
        out[answer] = out.get(answer, F(0)) + F(1, 6 ** len(script))
    return out


def agrees(odds: Odds, play: Callable[[Dice], str], n: int = 3000, seed: int = 7) -> None:
    """The exact odds equal the resolver over every dice sequence, and a seeded sampler's
    frequencies lie within 4.5 standard deviations of them."""
    assert every_roll(play) == {k: p for k, p in odds.outcomes.items() if p}
    dice = Dice(seed)
    seen = Tally(play(dice) for _ in range(n))
    assert set(seen) <= set(odds.outcomes)
    for k, p in odds.outcomes.items():
        sd = math.sqrt(float(p * (1 - p)) / n)
        assert abs(seen[k] / n - float(p)) <= 4.5 * sd + 1e-12, (k, seen[k], p)


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
    assert Shot(combat=3, defence=5, obscuring=(1, 2), sm=1, bonus=1, rear=True).modifier() == 1
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
    x = Assault(a, Side(2, assault=2, bonus=1, sm=0), supporters=2, rear=True, outside_arc=True)
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
