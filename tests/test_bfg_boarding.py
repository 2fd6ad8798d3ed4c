"""Battlefleet Gothic boarding actions and grapples: by hand, the text's worked examples, and
against a seeded sampler."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bagm.bfg.boarding import (
    DRAW,
    NOT_FOUGHT,
    Outcome,
    action,
    board_separately,
    boarding_value,
    critical_on,
    difference,
    ratio_modifier,
    roll_action,
    settle,
    side_roll,
)
from bagm.bfg.grapple import (
    MAX_STATES,
    allocations,
    grapple,
    grapple_separately,
    in_order,
    roll_grapple,
    spread,
)
from bagm.bfg.report import board
from bagm.bfg.ships import BfgError, Ship, parse_ship
from bagm.chance.dice import Dice


def ship(spec: str):  # type: ignore[no-untyped-def]
    return parse_ship(spec)


# --- Boarding Value -------------------------------------------------------------------------


def test_boarding_value_khorne_doubles_tau_halves_exactly_turrets_when_boarded():
    assert boarding_value(ship("A,damage=6")) == 6
    assert boarding_value(ship("A,damage=6,race=chaos,mark=khorne")) == 12
    assert boarding_value(ship("A,damage=7,race=tau")) == F(7, 2)  # no rounding invented
    assert boarding_value(ship("A,damage=3,turrets=2"), boarded=True) == 5
    assert boarding_value(ship("A,damage=3,turrets=2")) == 3  # turrets only when boarded
    # the mark doubles the damage points; turrets are added after
    assert boarding_value(ship("A,damage=3,turrets=2,race=chaos,khorne"), boarded=True) == 8


@pytest.mark.parametrize("own, enemy, bonus", [
    (5, 5, None), (4, 5, None), (6, 5, 1), (F(19, 2), 5, 1), (10, 5, 2), (F(29, 2), 5, 2),
    (15, 5, 3), (F(39, 2), 5, 3), (20, 5, 4), (100, 5, 4),
])
def test_only_the_highest_ratio_modifier(own, enemy, bonus):
    m = ratio_modifier(F(own), F(enemy))
    assert (m.value if m else None) == bonus


def test_every_condition_modifier_and_race_once_for_the_party():
    enemy = ship("E,damage=4,blast,crippled,orders=brace-for-impact")
    s = side_roll([ship("A,damage=4,race=orks")], [4], [enemy], [4], boarded=False)
    assert [m.value for m in s.modifiers] == [1, 2, 1, 1] and s.total == 5
    # Multi-Ship Boarding Actions: a Chaos Space Marine crew's +2 supersedes Chaos +1
    party = [ship("Murder,damage=8,race=chaos"),
             ship("Devastation,damage=8,race=chaos,crew=space-marines")]
    s = side_roll(party, [8, 8], [ship("C,damage=8,turrets=2")], [8], boarded=False)
    assert [(m.value, m.label) for m in s.modifiers][1] == (2, "Space Marines")


def test_multi_ship_example_plus_three_not_twice_because_of_turrets():
    # Multi-Ship Boarding Actions: a Murder and a Devastation (Chaos Space Marine crew) board an
    # Imperial cruiser together: +2 race and +1 for the higher value (not +2: the boarded ship
    # counts its turrets), +3 in all. The damage points and turrets are the example's reading
    # (full-strength cruisers, two turrets): the text gives none.
    party = [ship("Murder,damage=8,race=chaos"),
             ship("Devastation,damage=8,race=chaos,crew=space-marines")]
    odds = action(party, ship("Imperial cruiser,damage=8,turrets=2"))
    assert odds.attacker.value == 16 and odds.defender.value == 10
    assert odds.attacker.total == 3


def test_the_defender_gets_its_modifiers_once_from_any_boarding_ship():
    party = [ship("A,damage=2,blast"), ship("B,damage=2,crippled"), ship("C,damage=2")]
    odds = action(party, ship("D,damage=8"))
    assert odds.defender.total == 1 + 1 + 2  # higher value (8 > 6), Blast Markers, crippled


# --- Results Table --------------------------------------------------------------------------


def test_plagueclaw_against_hyperion_the_worked_example():
    # Boarding Action Results: the Plagueclaw scores 6, the Hyperion 4 (remaining damage 3):
    # Heavy Fighting, the Hyperion loses 2 damage points and suffers a critical hit on 4+, the
    # Plagueclaw on 5+. The header ("Winners/Losers") would say the reverse; the example rules.
    r = settle(6 - 4, attackers_left=6, defender_left=3)
    assert r.outcome == Outcome("attacker", "Heavy Fighting")
    assert (r.damage_to_defender, r.damage_to_attackers) == (2, 0)
    assert (r.defender_crit_on, r.attacker_crit_on) == (4, 5)
    assert not r.defender_hulk
    # played with dice: Hyperion turrets=2 gives the Plagueclaw +1 (6 > 5) and +1 (Chaos)
    plague = ship("Plagueclaw,damage=6,race=chaos,mark=nurgle")
    hyperion = ship("Hyperion,damage=3,turrets=2")
    dice = Dice.scripted([4, 4, 4, 4])  # 4+2 = 6 against 4; crit rolls: Plagueclaw 4, Hyperion 4
    roll = roll_action(dice, [plague], hyperion)
    dice.assert_consumed()
    assert (roll.attacker_roll + 2, roll.defender_roll, roll.damage_to_defender) == (6, 4, 2)
    assert roll.defender_crit and roll.attacker_crits == (False,)  # Hyperion 4+, Plagueclaw 5+
    dice = Dice.scripted([4, 4, 5, 3])
    roll = roll_action(dice, [plague], hyperion)
    assert roll.attacker_crits == (True,) and not roll.defender_crit
    assert critical_on(Outcome("attacker", "Heavy Fighting")) == (5, 4)


@pytest.mark.parametrize("diff, name, loser_on, winner_on", [
    (1, "Stalemate", 5, 5), (2, "Heavy Fighting", 4, 5), (3, "Driven Back", 3, 6),
    (4, "Stormed", 2, 6), (5, "Overwhelmed", 1, None), (9, "Overwhelmed", 1, None),
])
def test_results_table_rows_both_ways(diff, name, loser_on, winner_on):
    won = settle(diff, 20, 20)
    assert won.outcome == Outcome("attacker", name) and won.damage_to_defender == diff
    assert (won.defender_crit_on, won.attacker_crit_on) == (loser_on, winner_on)
    lost = settle(-diff, 20, 20)
    assert lost.outcome == Outcome("defender", name) and lost.damage_to_attackers == diff
    assert (lost.attacker_crit_on, lost.defender_crit_on) == (loser_on, winner_on)


def test_draw_no_damage_no_crits_and_damage_stops_at_zero():
    r = settle(0, 5, 5)
    assert r.outcome == Outcome("none", DRAW)
    assert (r.attacker_crit_on, r.defender_crit_on) == (None, None)
    assert (r.damage_to_attackers, r.damage_to_defender) == (0, 0)
    r = settle(4, 5, 1)
    assert r.damage_to_defender == 1 and r.defender_hulk


def test_difference_by_hand():
    even = difference(0, 0)
    assert even[0] == F(1, 6) and even[5] == even[-5] == F(1, 36) and sum(even.values()) == 1
    assert difference(3, 1) == {k + 2: p for k, p in even.items()}


def test_action_odds_by_hand():
    # equal ships, no modifiers: draw 1/6; Overwhelmed needs a 6 against a 1
    odds = action([ship("A,damage=5")], ship("B,damage=5"))
    assert odds.draw == F(1, 6)
    assert odds.outcomes[Outcome("attacker", "Overwhelmed")] == F(1, 36)
    assert odds.outcomes[Outcome("attacker", "Stalemate")] == F(5, 36)
    # the boarded ship's critical hit: as loser 5+,4+,3+,2+,auto; as winner 5+,5+,6+,6+,none
    lose = F(5, 36) * F(1, 3) + F(4, 36) * F(1, 2) + F(3, 36) * F(2, 3) + F(2, 36) * F(5, 6) \
        + F(1, 36)
    win = F(5, 36) * F(1, 3) + F(4, 36) * F(1, 3) + F(3, 36) * F(1, 6) + F(2, 36) * F(1, 6)
    assert odds.defender_crit == lose + win == odds.attacker_crit
    assert odds.damage_to_defender[5] == F(1, 36)  # only by 5 or more
    assert sum(odds.outcomes.values()) == 1


def test_escort_defender_destroyed_by_a_critical_hit_too():
    odds = action([ship("Cruiser,damage=8")], ship("Cobra,damage=1,kind=escort"))
    # any win takes the escort's one damage point; a loss destroys it if its critical hit lands
    assert odds.defender_destroyed == odds.defender_hulk + sum(
        p * (F(1, 3) if o.result in ("Stalemate", "Heavy Fighting") else F(1, 6)
             if o.result in ("Driven Back", "Stormed") else 0)
        for o, p in odds.outcomes.items() if o.winner == "defender")


def test_party_critical_hits_each_ship():
    party = [ship("A,damage=3,kind=escort,squadron=S"), ship("B,damage=3,kind=escort,squadron=S")]
    odds = action(party, ship("C,damage=2"))
    assert odds.attacker_crits[2] > 0 and sum(odds.attacker_crits.values()) == 1
    expected = sum(k * p for k, p in odds.attacker_crits.items())
    assert expected == 2 * odds.attacker_crit


def test_nurgle_cannot_be_boarded_and_hulks_take_no_part():
    with pytest.raises(BfgError, match="Mark of Nurgle"):
        action([ship("A,damage=5")], ship("B,damage=5,race=chaos,mark=nurgle"))
    with pytest.raises(BfgError, match="drifting hulk"):
        action([ship("A,damage=0")], ship("B,damage=5"))


def test_separately_damage_is_cumulative():
    first, second = ship("A,damage=6"), ship("B,damage=6")
    target = ship("T,damage=1")
    sep = board_separately([first, second], target)
    a1 = action([first], target)
    # the second ship finds a drifting hulk whenever the first won
    assert sep.actions[1].outcomes[Outcome("none", NOT_FOUGHT)] == a1.defender_hulk
    assert sep.defender_hulk == 1 - (1 - a1.defender_hulk) ** 2
    assert sep.defender_damage_left[1] == (1 - a1.defender_hulk) ** 2
    # with more damage points, the second action faces the value left by the first
    big = ship("T,damage=6,turrets=0")
    sep = board_separately([first, second], big)
    assert sep.actions[0].outcomes == action([first], big).outcomes
    assert sep.actions[1].outcomes != sep.actions[0].outcomes
    assert sum(sep.defender_damage_left.values()) == 1


def test_escort_squadrons_are_one_party_when_boarding_separately():
    from bagm.bfg.boarding import parties_of

    ships = [ship("C,damage=8"), ship("E1,damage=1,kind=escort,squadron=S"),
             ship("E2,damage=1,kind=escort,squadron=S"), ship("E3,damage=1,kind=escort")]
    assert [[s.name for s in p] for p in parties_of(ships)] == [["C"], ["E1", "E2"], ["E3"]]
    with pytest.raises(BfgError, match="escorts"):
        action([ship("C,damage=8,squadron=S")], ship("D,damage=2"))


def test_crippled_at_follows_the_damage_left():
    target = ship("T,damage=6,crippled-at=3")
    assert side_roll([ship("A,damage=2")], [2], [target], [6], False).total == 0
    assert side_roll([ship("A,damage=2")], [2], [target], [3], False).total == 2


# --- against the seeded sampler ---------------------------------------------------------


def test_action_matches_the_sampler():
    party = [ship("A,damage=4,race=orks"), ship("B,damage=2")]
    target = ship("T,damage=5,turrets=2,blast")
    odds = action(party, target)
    dice = Dice(2026)
    n = 20_000
    seen: Counter[Outcome] = Counter()
    crits = lost = 0
    for _ in range(n):
        r = roll_action(dice, party, target)
        seen[r.outcome] += 1
        crits += r.defender_crit
        lost += r.damage_to_defender
    for o, p in odds.outcomes.items():
        assert abs(seen[o] / n - float(p)) < 0.012, o
    assert abs(crits / n - float(odds.defender_crit)) < 0.012
    expected = sum(k * p for k, p in odds.damage_to_defender.items())
    assert abs(lost / n - float(expected)) < 0.05


# --- Drawn Combats: the grapple chain -------------------------------------------------------


def test_grapple_by_hand_one_point_each():
    g = grapple(ship("A,damage=1"), ship("B,damage=1"))
    assert g.attacker_survives == g.defender_survives == F(1, 2)
    assert g.expected_phases == F(6, 5)  # 1 / (1 - 1/6)
    assert g.phases[1] == F(5, 6) and g.phases[2] == F(5, 36)


def test_grapple_escorts_both_lost_by_hand():
    g = grapple(ship("A,damage=1,kind=escort"), ship("B,damage=1,kind=escort"))
    # the loser is at 0; the winner is destroyed by its own critical hit (5+ by 1 or 2,
    # 6+ by 3 or 4, none by 5): (10/3 + 8/3 + 6/6 + 4/6) / 36, over the non-draws (5/6)
    assert g.both_lost == F(23, 108) / F(5, 6) == F(23, 90)
    assert g.attacker_survives == g.defender_survives == (1 - F(23, 90)) / 2


def test_grapple_is_a_distribution_and_favours_the_bigger_ship():
    g = grapple(ship("Big,damage=8,race=chaos"), ship("Small,damage=4,turrets=1"))
    assert g.attacker_survives + g.defender_survives + g.both_lost == 1
    assert sum(g.ends.values()) == 1 and all(a == (0,) or d == 0 for a, d in g.ends)
    assert g.attacker_survives > F(9, 10)
    assert sum(g.phases.values()) + g.longer == 1


def test_grapple_matches_the_sampler():
    a, d = ship("A,damage=4,race=chaos"), ship("D,damage=5,turrets=1,crippled-at=2")
    g = grapple(a, d)
    dice = Dice(7)
    n = 10_000
    wins = phases = 0
    for _ in range(n):
        r = roll_grapple(dice, a, d)
        wins += r.defender_left == 0
        phases += r.phases
    assert abs(wins / n - float(g.attacker_survives)) < 0.015
    assert abs(phases / n - float(g.expected_phases)) < 0.05


def test_board_report_notes_say_how_the_header_was_read():
    r = board([ship("Plagueclaw,damage=6,race=chaos")], ship("Hyperion,damage=3,turrets=2"))
    assert any("Winners/Losers" in n and "example" in n for n in r.notes)
    assert r.grapple is not None and r.as_dict()["mode"] == "together"
    r = board([ship("A,damage=6"), ship("B,damage=2")], ship("C,damage=3"), separately=True)
    assert r.grapple is not None and r.grapple.separately and len(r.as_dict()["actions"]) == 2


# --- properties ---------------------------------------------------------------------------

ships = st.builds(
    Ship, name=st.just("S"), damage=st.integers(1, 6), turrets=st.integers(0, 3),
    kind=st.sampled_from(["capital", "escort"]), race=st.sampled_from(["other", "orks", "tau"]),
    crew=st.sampled_from(["normal", "space-marines"]), crippled=st.booleans(),
    blast=st.booleans(), orders=st.sampled_from(["none", "lock-on"]))


@settings(max_examples=60, deadline=None)
@given(st.lists(ships, min_size=1, max_size=3), ships)
def test_action_odds_are_distributions(party, defender):
    odds = action(party, defender)
    for d in (odds.outcomes, odds.damage_to_attackers, odds.damage_to_defender,
              odds.attacker_crits):
        assert sum(d.values()) == 1 and all(p >= 0 for p in d.values())
    assert 0 <= odds.defender_crit <= 1 and 0 <= odds.attacker_crit <= 1
    assert max(odds.damage_to_defender) <= defender.damage
    assert odds.defender_hulk <= odds.defender_destroyed <= 1


@settings(max_examples=40, deadline=None)
@given(ships)
def test_a_ship_against_its_twin_is_even(s):
    twin = Ship(**{**s.__dict__, "turrets": 0})
    odds = action([twin], twin)
    for k in ("Stalemate", "Heavy Fighting", "Driven Back", "Stormed", "Overwhelmed"):
        won, lost = Outcome("attacker", k), Outcome("defender", k)
        assert odds.outcomes.get(won) == odds.outcomes.get(lost)


@settings(max_examples=25, deadline=None)
@given(ships, ships)
def test_grapple_closed_form_agrees_with_pushing_the_chain_forward(a, d):
    # the closed form sums the repeated draws exactly; pushing the chain forward End Phase by
    # End Phase must approach it (what is left after 200 phases is below 6**-200)
    g = grapple(a, d)
    assert g.attacker_survives + g.defender_survives + g.both_lost == 1
    assert_pushing_forward_agrees(g, 60)


def assert_pushing_forward_agrees(g, steps: int) -> None:  # type: ignore[no-untyped-def]
    """Push the chance from the grapple's starts through its moves, one party's action at a
    time, and compare where it ends with the closed form's ends."""
    now = {(st, 0): w for st, w in g.starts.items()}  # the state, and the party to act next
    ended: dict[tuple[tuple[int, ...], int], F] = {}
    for _ in range(steps):
        nxt: dict = {}  # type: ignore[type-arg]
        for sub, w in now.items():
            for n, q in g.moves[sub].items():
                if n[0][1] == 0 or sum(n[0][0]) == 0:
                    ended[n[0]] = ended.get(n[0], F(0)) + w * q
                else:
                    nxt[n] = nxt.get(n, F(0)) + w * q
        now = {s: w for s, w in nxt.items() if w > F(1, 10**30)}
    for end, p in g.ends.items():
        assert abs(float(ended.get(end, 0)) - float(p)) < 1e-12


def test_played_boarding_follows_its_dice():
    from bagm.bfg.play import play_board

    plague, hyperion = ship("Plagueclaw,damage=6,race=chaos"), ship("Hyperion,damage=3,turrets=2")
    for seed in range(30):
        p = play_board(seed, [plague], hyperion)
        a, d = p.rolls[0][0], p.rolls[1][0]
        r = settle(a + 2 - d, 6, 3)
        assert r.outcome.result in p.lines[0]
        if r.damage_to_defender:
            assert p.lines[1].startswith(f"Hyperion loses {r.damage_to_defender} ")
        if r.outcome.result == DRAW:
            assert p.lines[1].startswith("the grapple ends after")
        assert play_board(seed, [plague], hyperion) == p


def test_lost_now_or_in_the_grapple_by_hand():
    # one damage point each, no modifiers: whoever loses now is lost; a draw (1/6) grapples,
    # and the grapple is even: 15/36 + 1/6 * 1/2 = 1/2 each
    r = board([ship("A,damage=1")], ship("B,damage=1"))
    assert r.lost_in_the_end == (F(1, 2), F(1, 2))
    # an escort is also lost to its own critical hit, even when it wins
    r = board([ship("E,damage=1,kind=escort")], ship("B,damage=1"))
    assert r.together is not None and r.lost_in_the_end is not None
    assert r.together.attacker_destroyed > r.together.attackers_hulk
    # the boarded ship is lost whenever the escort wins, now or in the grapple: still even
    assert r.lost_in_the_end[0] > F(1, 2) == r.lost_in_the_end[1]
    party = [ship("A,damage=1"), ship("C,damage=1")]
    assert board(party, ship("B,damage=1")).lost_in_the_end is None


def test_grapple_chain_has_a_size_limit_said_plainly():
    big, other = ship("A,damage=60"), ship(f"B,damage={MAX_STATES // 61 + 1}")
    with pytest.raises(BfgError, match="states"):
        grapple(big, other)
    r = board([big], other)
    assert r.grapple is None and any("not computed" in n for n in r.notes)
    assert r.together is not None and sum(r.together.outcomes.values()) == 1


# --- Multi-Ship Boarding Actions: a party's grapple, its losses shared out by a policy -------


def test_sharing_out_lost_points():
    assert allocations((2, 1), 2) == [(1, 0), (0, 1)]  # the first ships keep the most first
    assert allocations((1, 1, 1), 3) == [(0, 0, 0)]
    assert spread((3, 1, 3), 3) == (1, 1, 2)  # the most left first, the first given on a tie
    assert in_order((2, 3), 3) == (0, 2)


def _party_win_by_hand(keep_marines: bool) -> F:
    """Space Marines A (1) and B (1) against D (2), no turrets; worked by hand in the test's
    comments below. ``keep_marines``: the party loses B rather than A."""
    # A alone against D at 1: 1 vs 1, A +2: diff = k + 2; wins on k >= -1 (26/36), draws on
    # k = -2 (4/36): 26/32; B alone against D at 1: even, 15/30
    a_d1, b_d1 = F(26, 32), F(15, 30)
    # A alone against D at 2: D has twice A's value (+2), A +2: diff = k: wins on k >= 2
    # (10/36), D to 1 on k = 1 (5/36), draws on k = 0 (6/36)
    a_d2 = (F(10, 36) + F(5, 36) * a_d1) / F(30, 36)
    # B alone against D at 2: diff = k - 2: wins on k >= 4 (3/36), D to 1 on k = 3 (3/36),
    # draws on k = 2 (4/36)
    b_d2 = (F(3, 36) + F(3, 36) * b_d1) / F(32, 36)
    one_left_d1, one_left_d2 = (a_d1, a_d2) if keep_marines else (b_d1, b_d2)
    # both against D at 1: twice D's value (+2) and Space Marines (+2): diff = k + 4: wins on
    # k >= -3 (33/36), draws on k = -4 (2/36), loses a point on k = -5 (1/36)
    both_d1 = (F(33, 36) + F(1, 36) * one_left_d1) / F(34, 36)
    # both against D at 2 (2 vs 2): diff = k + 2: wins on k >= 0 (21/36), D to 1 on k = -1
    # (5/36), draws on k = -2 (4/36), loses a point on k = -3 (3/36), both on k <= -4
    return (F(21, 36) + F(5, 36) * both_d1 + F(3, 36) * one_left_d2) / F(32, 36)


def test_party_grapple_by_hand_the_policy_decides_who_loses_the_point():
    party = [ship("A,damage=1,crew=space-marines"), ship("B,damage=1")]
    d = ship("D,damage=2")
    best = grapple(party, d)  # the default: keep the Space Marines (their +2)
    assert best.policy == "best"
    assert best.attacker_survives == _party_win_by_hand(True) == F(7447, 8704)
    assert best.ship_survives()[0] == best.attacker_survives  # B is always the one lost
    for policy in ("spread", "order"):  # both take the point from A, given first
        g = grapple(party, d, policy)
        assert g.attacker_survives == _party_win_by_hand(False) < best.attacker_survives
    assert best.attacker_survives + best.defender_survives == 1
    assert sum(best.ends.values()) == 1


def test_party_grapple_of_one_ship_is_the_ship_grapple():
    a, d = ship("A,damage=3,race=orks"), ship("D,damage=4,turrets=1")
    assert grapple([a], d) == grapple(a, d)
    assert grapple([a], d, "spread").ends == grapple(a, d, "order").ends


def test_party_grapple_matches_the_sampler():
    party = [ship("K,damage=3,race=chaos,mark=khorne"), ship("N,damage=3,crippled-at=1"),
             ship("E,damage=1,kind=escort")]
    d = ship("D,damage=6,turrets=2")
    for policy in ("best", "spread"):
        g = grapple(party, d, policy)
        dice = Dice(11)
        n = 3000
        wins = kept = phases = 0
        for _ in range(n):
            r = roll_grapple(dice, party, d, policy, g)
            wins += r.defender_left == 0 and r.attacker_left > 0
            kept += r.attackers_left[0] > 0
            phases += r.phases
        assert abs(wins / n - float(g.attacker_survives)) < 0.03
        assert abs(kept / n - float(g.ship_survives()[0])) < 0.03
        assert abs(phases / n - float(g.expected_phases)) < 0.08


party_ships = st.builds(
    Ship, name=st.just("S"), damage=st.integers(1, 3), kind=st.sampled_from(["capital", "escort"]),
    race=st.sampled_from(["other", "orks", "tau"]), crew=st.sampled_from(["normal",
                                                                          "space-marines"]),
    crippled_at=st.sampled_from([None, 1]))


@settings(max_examples=15, deadline=None)
@given(st.lists(party_ships, min_size=2, max_size=3), ships)
def test_best_policy_wins_at_least_as_often_as_the_others(party, defender):
    best = grapple(party, defender)
    assert best.attacker_survives + best.defender_survives + best.both_lost == 1
    for policy in ("spread", "order"):
        other = grapple(party, defender, policy)
        assert sum(other.ends.values()) == 1
        assert other.attacker_survives <= best.attacker_survives


def test_board_together_grapples_the_party_and_says_how():
    party = [ship("A,damage=2,crew=space-marines"), ship("B,damage=2")]
    r = board(party, ship("D,damage=4,turrets=1"), policy="spread")
    assert r.grapple is not None and r.grapple.policy == "spread"
    assert any("policy 'spread'" in n for n in r.notes)
    assert r.as_dict()["grapple_if_drawn"]["attackers"][0]["ship"] == "A"
    with pytest.raises(BfgError, match="unknown policy"):
        board(party, ship("D,damage=4"), policy="random")


# --- grapples after boarding separately: each party that drew fights on, in turn -------------


def test_separate_boarding_says_who_drew_by_hand():
    # A and B (1 point each) board D (1 point) one after the other, no modifiers: each action
    # draws 1/6, wins 15/36 (D a hulk: no more actions), loses 15/36
    r = board([ship("A,damage=1"), ship("B,damage=1")], ship("D,damage=1"), separately=True)
    assert r.separate is not None
    assert r.separate.grapple_starts == {(1, (0,)): F(1, 6) * F(15, 36),  # A drew, B lost
                                         (1, (0, 1)): F(1, 36),  # both drew
                                         (1, (1,)): F(15, 36) * F(1, 6)}  # A lost, B drew
    assert r.separate.grapple_chance == F(1, 6)
    assert r.as_dict()["grapple_follows"]["exact"] == "1/6"


def test_separate_grapple_by_hand():
    # A and B both grappled with D (1 point each): each End Phase A fights, then B; a win ends
    # it, a loss leaves the other to fight on alone (then even: 1/2). With x the parties' chance
    # at A's turn and at B's (the same by symmetry): x = 15/36 + 15/36 * 1/2 + 1/6 * x = 3/4
    a, b, d = ship("A,damage=1"), ship("B,damage=1"), ship("D,damage=1")
    g = grapple_separately([[a], [b]], d, {(1, (0, 1)): F(1)})
    assert g.attacker_survives == F(3, 4) and g.defender_survives == F(1, 4)
    assert g.ship_grappled() == [1, 1]
    # one grappled alone is the one-ship grapple
    solo = grapple_separately([[a], [b]], d, {(1, (1,)): F(1)})
    assert solo.attacker_survives == grapple(b, d).attacker_survives == F(1, 2)
    assert solo.expected_phases == grapple(b, d).expected_phases


def test_separate_grapple_agrees_with_pushing_forward_and_the_sampler():
    parties = [[ship("A,damage=2,race=orks")], [ship("E,damage=1,kind=escort,squadron=S"),
                                                ship("F,damage=1,kind=escort,squadron=S")]]
    d = ship("D,damage=3,turrets=1")
    g = grapple_separately(parties, d, {(3, (0, 1)): F(1, 2), (2, (1,)): F(1, 2)})
    assert g.attacker_survives + g.defender_survives + g.both_lost == 1
    assert_pushing_forward_agrees(g, 300)
    ships = (parties[0][0], *parties[1])
    dice, n, wins = Dice(5), 3000, 0
    for i in range(n):
        start = ((2, 1, 1), 3) if i % 2 == 0 else ((0, 1, 1), 2)
        r = roll_grapple(dice, ships, d, "best", g, start=start, groups=g.groups)
        wins += r.defender_left == 0 and r.attacker_left > 0
    assert abs(wins / n - float(g.attacker_survives)) < 0.03
