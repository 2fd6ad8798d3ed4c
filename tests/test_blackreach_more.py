"""Heroes of Black Reach: ramming, destruction and demolition, indirect fire scatter, perils of
the warp, Da Krunch, drop pod landing, teleportation and unstable, by hand and with the dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from blackreach_dice import agrees

from bagm.blackreach.assault import Assault, Side, assault_odds
from bagm.blackreach.counters import Kind, OnHit
from bagm.blackreach.drop_pods import Landing, landing_odds, resolve_landing
from bagm.blackreach.hits import Victim
from bagm.blackreach.odds import BlackReachError
from bagm.blackreach.psychic import (
    Krunch,
    Perils,
    krunch_odds,
    perils_odds,
    power_named,
    resolve_krunch,
    resolve_perils,
)
from bagm.blackreach.ramming import Ram, ram_odds, ram_value, resolve_ram
from bagm.blackreach.scatter import Scatter, resolve_scatter, scatter_odds
from bagm.blackreach.structures import Demolition, demolition_odds, resolve_demolition
from bagm.blackreach.teleport import (
    Teleport,
    resolve_teleport,
    teleport_odds,
    teleported_assault,
)
from bagm.blackreach.unstable import Unstable, resolve_unstable, unstable_odds

F = Fraction


# --- RAMMING ----------------------------------------------------------------------------------

def test_ram_value_halves_light_vehicles_rounding_up():
    assert ram_value(Kind.heavy, 7) == 7
    assert ram_value(Kind.light, 7) == 4
    assert ram_value(Kind.light, 6) == 3


def test_ram_by_hand():
    # light DEFENCE 6 (3) rams heavy DEFENCE 3: both 1 die +3; a higher rammer total: 15/36
    r = Ram(Kind.light, 6, 3, Victim(Kind.heavy, damage_set={k: "hull" for k in range(1, 7)}))
    o = ram_odds(r)
    assert o.outcomes == {"no effect": F(21, 36), "target damage marker 1: hull": F(15, 216),
                          "target damage marker 2: hull": F(15, 216),
                          "target damage marker 3: hull": F(15, 216),
                          "target damage marker 4: hull": F(15, 216),
                          "target damage marker 5: hull": F(15, 216),
                          "target damage marker 6: hull": F(15, 216)}
    r = Ram(Kind.heavy, 9, 6, Victim(Kind.light, save=2))  # a save plays no part in a ram
    assert ram_odds(r).outcomes["target destroyed"] == sum(
        F(1, 36) for a in range(1, 7) for b in range(1, 7) if a + 9 > b + 3)
    agrees(ram_odds(r), lambda d: resolve_ram(d, r))
    with pytest.raises(BlackReachError):
        Ram(Kind.infantry, 3, 3)


# --- DESTRUCTION / DEMOLISHING ----------------------------------------------------------------

def test_demolition_by_hand():
    d = Demolition(dice=2, value=2)
    o = demolition_odds(d)
    assert o.outcomes == {"0 DP": F(1, 4), "1 DP": F(1, 2), "2 DP: destroyed": F(1, 4)}
    # the two readings differ exactly at the boundary
    assert demolition_odds(Demolition(2, 2, exceed=True)).outcomes == {
        "0 DP": F(1, 4), "1 DP": F(1, 2), "2 DP": F(1, 4)}
    assert demolition_odds(Demolition(2, 2, dealt=1, exceed=True)).chance("2 DP: destroyed") == F(1, 4)
    # 1 SM: each die needs a 6
    assert Demolition(3, 5, sm=1).per_die == F(1, 6)
    d = Demolition(3, 4, dealt=2, sm=0, bonus=1)
    agrees(demolition_odds(d), lambda x: resolve_demolition(x, d))


# --- INDIRECT FIRE scatter ---------------------------------------------------------------------

def test_scatter_by_hand():
    o = scatter_odds(Scatter(2))
    assert o.outcomes["on target"] == F(1, 3)
    assert o.outcomes["direction 1, 2 interspace(s)"] == F(1, 6)
    assert scatter_odds(Scatter(1, signum=True)).outcomes == {"on target": 1}
    assert scatter_odds(Scatter(3, template="G")).outcomes == {"on target": 1}
    s = Scatter(2, signum=True, directions=("north", "east", "south", "west"))
    assert scatter_odds(s).outcomes["west, 1 interspace(s)"] == F(1, 6)
    agrees(scatter_odds(s), lambda d: resolve_scatter(d, s))


# --- perils of the warp -----------------------------------------------------------------------

def test_power_costs_from_the_text():
    assert power_named("Da Krunch").cost == 2
    assert power_named("scrier's gaze").cost == 2
    assert power_named("Smite").cost == 1
    with pytest.raises(BlackReachError):
        power_named("Vortex of Doom")


def test_librarian_perils_by_hand():
    # level 2, cost 1, no SMs before: 1 die + 2 - 2 = the die; 1 or less draws a marker
    o = perils_odds(Perils("librarian", level=2, cost=1))
    assert o.outcomes == {"peril of the warp marker": F(1, 6), "power works": F(5, 6)}
    # with 1 SM already on it: the die - 2: 1..3 draw
    p = Perils("librarian", level=2, cost=1, sm=1, pool=(("hit", 1), ("again", 2)))
    o = perils_odds(p)
    assert o.outcomes == {"peril: hit": F(1, 6), "peril: again": F(1, 3), "power works": F(1, 2)}
    agrees(o, lambda d: resolve_perils(d, p))


def test_weirdboy_perils_by_hand():
    # level 1, cost 2, one SM of the cost on another ork: 1 die + 1 - 2 = die - 1
    p = Perils("weirdboy", level=1, cost=2, shared=True, victim=Victim(on_hit=OnHit.flipped))
    assert p.markers == 1
    o = perils_odds(p)
    assert o.outcomes == {"weirdboy destroyed": F(1, 3), "power works, weirdboy flipped": F(1, 3),
                          "power works": F(1, 3)}
    agrees(o, lambda d: resolve_perils(d, p))
    with pytest.raises(BlackReachError):
        Perils("weirdboy", level=1, cost=1, shared=True)  # the first SM stays on the weirdboy
    with pytest.raises(BlackReachError):
        Perils("librarian", level=1, cost=2, shared=True)


# --- DA KRUNCH --------------------------------------------------------------------------------

def test_krunch_by_hand():
    # DEFENCE 7: 2D6 of 7+ hits (21/36), 14+ never; a double 6 destroys (1/36, not a hit then)
    o = krunch_odds(Krunch(7, victim=Victim(on_hit=OnHit.flipped)))
    assert o.outcomes == {"miss": F(15, 36), "flipped": F(20, 36), "double 6: destroyed": F(1, 36)}
    # DEFENCE 3: a 2 misses, 3-5 hit, 6+ doubles; a double 6 is still the automatic destruction
    o = krunch_odds(Krunch(3, victim=Victim(on_hit=OnHit.flipped)))
    assert o.tables["shot"] == {"miss": F(1, 36), "hit": F(9, 36), "double hit": F(25, 36),
                                "double 6": F(1, 36)}
    k = Krunch(5, combat=1, victim=Victim(on_hit=OnHit.flipped, save=5))
    agrees(krunch_odds(k), lambda d: resolve_krunch(d, k))


# --- DROP PODS --------------------------------------------------------------------------------

def test_landing_by_hand():
    o = landing_odds(Landing())
    assert o.outcomes == {"delayed landing": F(1, 6), "botched landing": F(1, 6),
                          "proper landing": F(2, 3)}
    assert o.tables["landed"]["by attempt 2"] == 1 - F(1, 36)
    x = Landing(sm=1)  # die - 2: 1..3 delayed, 4 botched, 5..6 proper
    assert landing_odds(x).outcomes == {"delayed landing": F(1, 2), "botched landing": F(1, 6),
                                        "proper landing": F(1, 3)}
    agrees(landing_odds(x), lambda d: resolve_landing(d, x))


# --- TELEPORT STRIKES -------------------------------------------------------------------------

def test_teleport_by_hand():
    o = teleport_odds(Teleport())
    assert o.outcomes == {"warp accident: destroyed": F(1, 18),
                          "warp accident: lost in the warp": F(1, 9),
                          "warp accident: arrives": F(1, 6), "all is well": F(2, 3)}
    # lost in the warp (1/9) tries again: after 2 attempts, 1/81 still lost
    assert o.tables["after 2 attempt(s)"] == {"arrived": (1 + F(1, 9)) * F(5, 6),
                                             "destroyed": (1 + F(1, 9)) * F(1, 18),
                                             "still lost": F(1, 81)}
    t = Teleport(no_free_square=True)
    assert teleport_odds(t).outcomes["warp accident: destroyed"] == F(1, 18) + F(1, 6)
    agrees(teleport_odds(t), lambda d: resolve_teleport(d, t))


def test_teleported_assault():
    a = assault_odds(Assault(Side(0, assault=0), Side(0, Victim(on_hit=OnHit.destroyed))))
    o = teleported_assault(a, Teleport())
    assert o.outcomes["all is well: attacker wins: defender destroyed"] == F(2, 3) * F(125, 216)
    assert "destroyed" in o.effects["all is well: tie"]
    assert "destroyed" not in teleported_assault(a, Teleport(), tie_fails=False).effects[
        "all is well: tie"]


# --- UNSTABLE ---------------------------------------------------------------------------------

def test_unstable_by_hand():
    u = Unstable(3, victim=Victim(on_hit=OnHit.destroyed))
    assert unstable_odds(u).outcomes == {"activation cancelled, unit destroyed": F(1, 6),
                                         "activation cancelled": F(1, 6),
                                         "activation goes ahead": F(2, 3)}
    u = Unstable(1, sm=1, victim=Victim(Kind.heavy))
    o = unstable_odds(u)
    assert o.chance("activation cancelled") == F(1, 6)  # 2 - 2 = 0 < 1; a 1 is a hit too
    agrees(o, lambda d: resolve_unstable(d, u))


def test_template_counts_the_units_destroyed():
    from bagm.blackreach.templates import template_odds

    units = [(f"u{d}", krunch_odds(Krunch(d, victim=Victim(on_hit=OnHit.flipped))))
             for d in (5, 7, 9)]
    # DEFENCE 5 falls to a double hit (10+: 1/6, the double 6 among them); 7 and 9 only to a
    # double 6 (1/36): each attack rolled separately
    o = template_odds(units)
    p = [F(1, 6), F(1, 36), F(1, 36)]
    assert o.outcomes["0 destroyed"] == (1 - p[0]) * (1 - p[1]) * (1 - p[2])
    assert o.outcomes["3 destroyed"] == p[0] * p[1] * p[2]
    assert o.tables["u7"] == units[1][1].outcomes
