"""Heroes of Black Reach: the procedures that chain or spread a roll - PURSUIT's second assault,
a FLYING attacker lost from an occupied square, the librarian's 'again' marker, several units
under one template - by hand and with the dice."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from blackreach_dice import agrees
from typer.testing import CliRunner

from bagm.blackreach.assault import Assault, Side, assault_odds, resolve_assault
from bagm.blackreach.charge import Charge, charge_odds, resolve_charge
from bagm.blackreach.counters import Kind, OnHit
from bagm.blackreach.firing import Shot
from bagm.blackreach.hits import Victim
from bagm.blackreach.odds import BlackReachError
from bagm.blackreach.psychic import Perils, again_chain, resolve_again_chain
from bagm.blackreach.pursuit import Pursuit, pursuit_odds, resolve_pursuit, second_assault

F = Fraction
# best of 2 dice against 1 die, both +0: the attacker wins 125/216, ties 1/6 (test_blackreach)
WIN, TIE, LOSS = F(125, 216), F(36, 216), F(55, 216)


def _run(*args: str):  # type: ignore[no-untyped-def]
    from bagm.cli.app import app, register

    register(["blackreach"])
    return CliRunner().invoke(app, ["blackreach", *args])


# --- PURSUIT ----------------------------------------------------------------------------------

def test_pursuit_by_hand_after_a_flip():
    # the first win flips the defender (125/216); its flipped side has COMBAT -1 and the
    # destroyed symbol, so the pursuit wins on max(2 dice) >= the die: 125/216 + 1/6 = 161/216
    x = Assault(Side(0, assault=0), Side(0, Victim(on_hit=OnHit.flipped)))
    p = Pursuit(Side(-1, Victim(on_hit=OnHit.destroyed)))
    o = pursuit_odds(x, p)
    assert o.outcomes["attacker wins: defender flipped; pursuit: attacker wins: defender "
                      "destroyed"] == WIN * F(161, 216) == F(20125, 46656)
    assert o.outcomes["tie"] == TIE and o.outcomes["defender wins: attacker hit"] == LOSS
    assert o.tables["in all"]["pursuit made"] == WIN
    assert sum(o.outcomes.values()) == 1
    agrees(o, lambda d: resolve_pursuit(d, x, p), n=2000)


def test_pursuit_by_hand_after_a_saved_hit():
    # the defender's 4+ save: half the wins leave it alive to retreat, on its same side, and
    # the pursuit is the same assault again
    x = Assault(Side(0, assault=0), Side(0, Victim(on_hit=OnHit.destroyed, save=4)))
    o = pursuit_odds(x, Pursuit())
    assert o.outcomes["attacker wins: defender destroyed"] == WIN / 2
    assert o.outcomes["attacker wins: defender saved; pursuit: attacker wins: defender "
                      "saved"] == (WIN / 2) ** 2
    assert o.tables["in all"]["defender destroyed or deserted"] == WIN / 2 + WIN / 2 * WIN / 2


def test_pursuit_second_assault_keeps_sms_and_drops_supporters():
    x = Assault(Side(1, assault=1, terrifying=True),
                Side(2, Victim(on_hit=OnHit.flipped), bonus=1, terrifying=True),
                supporters=2, outside_arc=True)
    flipped = Side(0, Victim(on_hit=OnHit.destroyed))
    y = second_assault(x, Pursuit(flipped, retreat_bonus=2), "flipped")
    assert y.supporters == 0
    assert y.attacker.sm == 1  # TERRIFYING: the loser's SM on the winner
    assert y.defender.sm == 2 and y.defender.victim.sm == 2  # the outside-arc SM and TERRIFYING
    assert y.defender.combat == 0 and y.defender.bonus == 2 and y.defender.terrifying
    assert y.attacker_modifier() == 1 + 1 - 2
    z = second_assault(x, Pursuit(), "saved")
    assert z.defender.combat == 2 and z.defender.bonus == 1  # its square's bonus unless given


def test_pursuit_refusals():
    flip = Assault(Side(0, assault=0), Side(0, Victim(on_hit=OnHit.flipped)))
    with pytest.raises(BlackReachError, match="flipped side"):
        pursuit_odds(flip, Pursuit())
    with pytest.raises(BlackReachError, match="hit symbol"):
        pursuit_odds(Assault(Side(0, assault=0), Side(0)), Pursuit())
    with pytest.raises(BlackReachError, match="never retreats"):
        pursuit_odds(Assault(Side(0, assault=0), Side(0, Victim(Kind.light))), Pursuit())


# --- CHARGE ---------------------------------------------------------------------------------

def test_charge_by_hand_the_assault_meets_the_flipped_side():
    # the free attack: 1 die + 3 against DEFENCE 5 hits on 2+ (5/6), never doubles: flipped.
    # Then best of 2 dice + 3 against 1 die - 1 (the flipped side): the charger wins unless
    # the die is 5 (max 1: 1/36) or 6 (max 1-2: 4/36): (4 + 35/36 + 32/36) / 6 = 211/216
    target = Victim(on_hit=OnHit.flipped)
    x = Assault(Side(3, assault=0), Side(0, target))
    c = Charge(Shot(3, 5, victim=target), Side(-1, Victim(on_hit=OnHit.destroyed)))
    o = charge_odds(x, c)
    assert o.outcomes["charge: flipped; attacker wins: defender destroyed"] == F(5, 6) * F(211, 216)
    # a miss: the assault against the unflipped side, as without the charge
    plain = assault_odds(x).outcomes
    assert o.outcomes["charge: miss; attacker wins: defender flipped"] == (
        F(1, 6) * plain["attacker wins: defender flipped"])
    assert sum(o.outcomes.values()) == 1
    agrees(o, lambda d: resolve_charge(d, x, c), n=2000)


def test_charge_a_destroyed_target_is_not_assaulted_and_a_hull_marker_counts():
    x = Assault(Side(3, assault=0), Side(0, Victim(on_hit=OnHit.destroyed)))
    o = charge_odds(x, Charge(Shot(3, 2, victim=Victim(on_hit=OnHit.destroyed))))
    assert o.outcomes == {"charge: destroyed": 1}  # 1 die + 3 against 2 always hits
    # a heavy vehicle whose every location is a hull marker: the attack's marker gives 2 SMs
    # (-4 to its roll) and the assault's hit is a second hull marker: destroyed
    hull = Victim(Kind.heavy, damage_set={k: "hull" for k in range(1, 7)})
    x = Assault(Side(3, Victim(Kind.infantry, on_hit=OnHit.flipped), assault=0), Side(2, hull))
    c = Charge(Shot(3, 4, victim=hull))
    o = charge_odds(x, c)
    after = next(k for k in o.tables if k.startswith("assault after 'damage marker"))
    assert o.tables[after]["attacker wins: defender destroyed"] == assault_odds(Assault(
        x.attacker, Side(2, Victim(Kind.heavy, damage_set=hull.damage_set, sm=2,
                                   held=frozenset({"hull"})), sm=2))).outcomes[
        "attacker wins: defender destroyed"]
    agrees(o, lambda d: resolve_charge(d, x, c), n=2000)
    with pytest.raises(BlackReachError, match="flipped side"):
        charge_odds(Assault(Side(3, assault=0), Side(0, Victim(on_hit=OnHit.flipped))),
                    Charge(Shot(3, 5, victim=Victim(on_hit=OnHit.flipped))))


# --- FLYING -----------------------------------------------------------------------------------

def test_flying_attacker_from_an_occupied_square_is_destroyed_if_it_loses():
    # "If the flying unit loses, it is destroyed if it did not begin its assault in an
    # unoccupied square": its 4+ save and flip symbol do not help; a tie is not a loss
    me = Victim(on_hit=OnHit.flipped, save=4)
    x = Assault(Side(0, me, assault=0), Side(0, Victim(on_hit=OnHit.destroyed)),
                flying_lost=True)
    o = assault_odds(x)
    assert o.outcomes["defender wins: attacker destroyed"] == LOSS
    assert o.outcomes["tie"] == TIE
    assert "FLYING" in o.effects["defender wins: attacker destroyed"]
    agrees(o, lambda d: resolve_assault(d, x), n=2000)
    plain = assault_odds(Assault(Side(0, me, assault=0), Side(0, Victim(on_hit=OnHit.destroyed))))
    assert plain.outcomes["defender wins: attacker saved"] == LOSS / 2


# --- LIBRARIANS: the 'again' marker ------------------------------------------------------------

def test_again_chain_by_hand():
    # level 2, cost 1: each test is the die + 2 - 2, a peril on a 1 (1/6). Markers: again, hit.
    # 5/6 works once; 1/12 draws 'hit' (works once, then the hit); 1/12 draws 'again': the
    # power works, SMs go, it pays 1 again and tests the same way, only 'hit' left
    p = Perils("librarian", level=2, cost=1, pool=(("again", 1), ("hit", 1)))
    o = again_chain(p)
    assert o.outcomes == {"works 1 time(s), then passed": F(5, 6),
                          "works 1 time(s), then hit": F(1, 12),
                          "works 2 time(s), then passed": F(1, 12) * F(5, 6),
                          "works 2 time(s), then hit": F(1, 12) * F(1, 6)}
    assert o.tables["times the power works"] == {1: F(11, 12), 2: F(1, 12)}
    agrees(o, lambda d: resolve_again_chain(d, p))


def test_again_chain_sms_reset_and_markers_run_out():
    # 2 SMs before, level 3, cost 2: the first test is the die + 3 - 8 (always a peril); after
    # 'again' the SMs are discarded, so the next is the die + 3 - 4: a peril on 1 or 2
    p = Perils("librarian", level=3, cost=2, sm=2, pool=(("again", 2), ("no effect", 1)))
    o = again_chain(p)
    first_again = F(2, 3)
    second_again = first_again * F(1, 3) * F(1, 2)  # a peril, then 'again' of the 2 left
    assert o.outcomes["works 0 time(s), then no effect"] == F(1, 3)
    assert o.outcomes["works 2 time(s), then passed"] == first_again * F(2, 3)
    assert o.outcomes["works 1 time(s), then no effect"] == first_again * F(1, 3) * F(1, 2)
    assert o.outcomes["works 3 time(s), then passed"] == second_again * F(2, 3)
    assert o.outcomes["works 2 time(s), then no effect"] == second_again * F(1, 3)
    assert o.tables["SMs on the librarian at the end"][2] == sum(
        q for k, q in o.outcomes.items() if k.endswith("passed"))
    agrees(o, lambda d: resolve_again_chain(d, p))
    # the only marker was 'again': a peril after it finds no marker left (the text is silent)
    p = Perils("librarian", level=3, cost=2, sm=2, pool=(("again", 1),))
    o = again_chain(p)
    assert o.outcomes == {"works 2 time(s), then passed": F(2, 3),
                          "works 1 time(s), then no marker left": F(1, 3)}
    agrees(o, lambda d: resolve_again_chain(d, p))
    with pytest.raises(BlackReachError, match="again"):
        again_chain(Perils("librarian", level=2, cost=1, pool=(("hit", 1),)))
    with pytest.raises(BlackReachError, match="pool"):
        again_chain(Perils("librarian", level=2, cost=1))


# --- command line -------------------------------------------------------------------------------

def test_cli_pursuit_flying_again_and_template():
    r = _run("assault", "--attacker-combat", "0", "--attacker-assault", "0",
             "--defender-combat", "0", "--defender-on-hit", "flipped", "--pursuit",
             "--flipped-combat", "-1", "--flipped-on-hit", "destroyed", "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["tables"]["in all"]["defender destroyed or deserted"]["exact"] == "20125/46656"
    r = _run("assault", "--attacker-combat", "0", "--attacker-assault", "0",
             "--defender-combat", "0", "--defender-on-hit", "flipped", "--pursuit")
    assert r.exit_code == 2 and "--flipped-combat" in r.output and "Traceback" not in r.output
    r = _run("assault", "--attacker-combat", "0", "--attacker-assault", "0",
             "--defender-combat", "0", "--flipped-combat", "1")
    assert r.exit_code == 2 and "--pursuit" in r.output
    r = _run("assault", "--attacker-combat", "0", "--attacker-assault", "0",
             "--defender-combat", "0", "--flying-from-occupied", "-f", "json")
    data = json.loads(r.output)
    assert data["outcomes"]["defender wins: attacker destroyed"]["exact"] == "55/216"
    r = _run("perils", "--psyker", "librarian", "--level", "2", "--cost", "1",
             "--pool", "again=1,hit=1", "--again", "-f", "json")
    assert json.loads(r.output)["outcomes"]["works 2 time(s), then hit"]["exact"] == "1/72"
    # HOWITZER: COMBAT 3 against DEFENCE 5, 4 and 6: hits on 2+, always, 3+; each its own roll
    r = _run("fire", "--combat", "3", "--defence", "5", "--template", "--under-defence", "4",
             "--under-defence", "6", "--on-hit", "destroyed", "-f", "json")
    data = json.loads(r.output)
    assert data["outcomes"]["3 destroyed"]["exact"] == str(F(5, 6) * F(2, 3))
    assert data["tables"]["unit 3 (DEFENCE 6)"]["destroyed"]["exact"] == "2/3"
    r = _run("fire", "--combat", "3", "--defence", "5", "--under-defence", "4")
    assert r.exit_code == 2 and "--template" in r.output


def test_cli_charge():
    r = _run("assault", "--attacker-combat", "3", "--attacker-assault", "0",
             "--defender-combat", "0", "--defender-on-hit", "flipped", "--charge",
             "--defender-defence", "5", "--flipped-combat", "-1", "--flipped-on-hit", "destroyed",
             "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    key = "charge: flipped; attacker wins: defender destroyed"
    assert data["outcomes"][key]["exact"] == str(F(5, 6) * F(211, 216))
    r = _run("assault", "--attacker-combat", "3", "--attacker-assault", "0",
             "--defender-combat", "0", "--charge")
    assert r.exit_code == 2 and "--defender-defence" in r.output
    r = _run("assault", "--attacker-combat", "3", "--attacker-assault", "0",
             "--defender-combat", "0", "--charge-penalty", "1")
    assert r.exit_code == 2 and "--charge" in r.output


def test_cli_template_units_from_a_counter_file(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("counters:\n"
                    "  Grots: {kind: infantry, defence: 3, on_hit: destroyed}\n"
                    "  Boyz: {kind: infantry, defence: 6, on_hit: flipped, save: 6}\n",
                    encoding="utf-8")
    r = _run("fire", "--counters", str(path), "--combat", "2", "--target", "Grots",
             "--indirect", "--under", "Boyz", "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    # Grots: 1 die + 2 against 3: hit on 1+, double hit on 4+ (both destroy): always; Boyz:
    # hit on 4+ (1/2), double (12+) never; the 6+ save ignores 1 in 6 hits
    assert data["tables"]["Grots"]["destroyed"]["exact"] == "1"
    assert data["tables"]["Boyz"]["flipped"]["exact"] == str(F(1, 2) * F(5, 6))
    assert data["outcomes"]["1 destroyed"]["exact"] == "1"
