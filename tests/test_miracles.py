"""Acts of Faith (Adepta Sororitas) with the Boarding Actions Mustering Rules' Minor Miracles and the
Penitents and Pilgrims' Bloody Redemption, played with scripted dice: the Miracle dice pool and the
Act of Faith before an Advance roll, a Charge roll or a Battle-shock test. The Penitents and Pilgrims
(A: A1 Ministorum Priest, A3/A4 Repentia Squads, A5-A7 Arco-flagellants) against the Orks (B)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from conftest import REPO, advance_to, place

from bagm.chance.dice import Dice
from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.game import kept, miracles
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.state.actions import Action, parse

SORORITAS = str(REPO / "rosters" / "adepta_sororitas_penitents_and_pilgrims.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
X, Y = 20.0, 15.0  # an open stretch of mission 11's board along y = 15


@cache
def _armies() -> tuple[Any, Any]:
    return build_army("A", SORORITAS), build_army("B", ORKS)


def sisters() -> Game:
    """Deployed (every unit on the battlefield), the start of A's first turn played; no Miracle dice."""
    a, b = (copy.deepcopy(x) for x in _armies())
    g = Game(11, a, b, dice=Dice(3), rolloffs={"attacker": "A", "first_turn": "A"})
    for _ in range(100):
        d = g.decision
        if d.step not in ("roles", "deploy", "opening", "use"):
            break
        legal = g.legal_actions()
        g.apply(next((x for x in legal if x.kind in ("deploy", "done", "pass")), legal[0]))
    for i, u in enumerate(v for v in g.units.values() if v.where != "board"):
        u.where = "board"
        u.models = u.new_models([(0.0, 0.0)])
        place(g, u.uid, [(2.0 + 3.5 * i, 28.0)])
    g.miracles["A"] = ()
    kept.touch(g)
    return g


def gains(g: Game) -> list[tuple[str, int, str]]:
    return [(e["player"], e["gain"], e["why"]) for e in g.events if e["e"] == "miracle" and "gain" in e]


@pytest.mark.parametrize("roll, value", [(1, 2), (5, 6), (6, 6)])
def test_a_miracle_dice_at_the_start_of_your_turn_only_its_value_1_more_to_6(roll, value):
    # Acts of Faith: gain 1 Miracle dice, a D6's value; Minor Miracles: "at the start of your turn ... only in
    # your turn, not your opponent's"; "improve the value of that Miracle Dice by 1 (to a maximum of 6)"
    g = sisters()
    g.dice = Dice.scripted([roll])
    miracles.miracle_at(g, "A", "turn")
    miracles.miracle_at(g, "A", "round")  # (the start of the battle round: not with Minor Miracles)
    miracles.miracle_at(g, "B", "turn")  # the Orks have no Miracle dice
    g.dice.assert_consumed()
    assert g.miracles == {"A": (value,), "B": ()}
    assert gains(g)[-1] == ("A", value, "Acts of Faith")


def test_one_miracle_dice_a_battle_round_in_play():
    g = sisters()
    n = len(gains(g))
    g.dice = Dice(5)
    advance_to(g, "move", "B")  # A's turn went on; B's turn starts: no Miracle dice for it
    advance_to(g, "move", "A")  # round 2, A's turn: one
    assert [p for p, _, why in gains(g)[n:] if why == "Acts of Faith"] == ["A"]


def test_a_destroyed_sisters_unit_gives_a_miracle_dice_bloody_redemption_a_6_the_first_time():
    # "each time an ADEPTA SORORITAS unit from your army is destroyed"; Bloody Redemption: "the first time
    # ... an Arco-Flagellants or Repentia Squad unit from your army being destroyed, do not roll a D6;
    # that Miracle dice has a value of 6"
    g = sisters()
    g.dice = Dice.scripted([2])
    miracles.miracle_on_death(g, g.units["A1"])  # the Priest: rolled (2 + 1)
    miracles.miracle_on_death(g, g.units["A3"])  # the first Repentia Squad: a 6, no roll
    g.dice.assert_consumed()
    g.dice = Dice.scripted([4])
    miracles.miracle_on_death(g, g.units["A5"])  # the next one: rolled (4 + 1)
    miracles.miracle_on_death(g, next(u for u in g.units.values() if u.player == "B"))  # an Ork unit: none
    g.dice.assert_consumed()
    assert g.miracles["A"] == (6, 5, 3)
    assert [why for _, _, why in gains(g)][-3:] == ["A1 destroyed", "Bloody Redemption", "A5 destroyed"]


def charge_setup(gap: float, pool: tuple[int, ...]) -> Game:
    g = sisters()
    ork = next(u for u in g.units.values() if u.player == "B" and u.melee)
    place(g, "A3", [(X, Y)])
    place(g, ork.uid, [(X + g.units["A3"].radius + ork.radius + gap, Y)])
    kept.touch(g)
    g.dice = Dice(7)
    advance_to(g, "charge")
    g.miracles["A"] = pool
    g.cp["A"] = 2
    return g


@pytest.mark.parametrize("die, made", [(1, False), (2, True)])
def test_a_miracle_dice_for_one_dice_of_a_charge_roll_never_re_rolled(die, made):
    g = charge_setup(8.5, (6, 2))
    ork = next(u for u in g.units.values() if u.player == "B" and u.melee)
    g.apply(parse(f"charge A3 {ork.uid}"))
    while g.decision.step in ("overwatch", "use"):
        g.apply(Action("pass"))
    assert g.decision.step == "rule" and g.decision.info["what"] == "charge"
    assert set(g.decision.info["options"]) == {"6", "2"}
    g.dice = Dice.scripted([die])
    g.apply(Action("rule", arg="6"))
    roll = [e for e in g.events if e["e"] == "charge_roll"][-1]
    assert (roll["roll"], roll["needed"], g.miracles["A"]) == (6 + die, 7.5, (2,))  # 8.5" apart: 7.5" to go
    assert g.decision.step != "reroll"  # a Miracle dice's roll is not re-rolled (2CP to spare)
    assert [e["success"] for e in g.events if e["e"] == "charge"][-1] == made


def test_the_greedy_bot_takes_the_miracle_dice_that_makes_the_charge_likely():
    g = charge_setup(8.5, (6, 2))
    ork = next(u for u in g.units.values() if u.player == "B" and u.melee)
    g.apply(parse(f"charge A3 {ork.uid}"))
    while g.decision.step in ("overwatch", "use"):
        g.apply(Action("pass"))
    assert GreedyBot()(g) == Action("rule", arg="6")  # 8" to roll: 42% on 2D6, 83% with the 6
    g = charge_setup(1.5, (6, 2))  # 2" to roll: sure enough without one
    g.apply(parse(f"charge A3 {ork.uid}"))
    while g.decision.step in ("overwatch", "use"):
        g.apply(Action("pass"))
    assert g.decision.step == "rule" and GreedyBot()(g) == Action("pass")


def test_a_miracle_dice_for_an_advance_roll_once_per_phase():
    g = sisters()
    place(g, "A3", [(X, Y)])
    place(g, "A4", [(X, Y + 5)])
    g.dice = Dice(7)
    advance_to(g, "move")
    g.miracles["A"] = (5, 3)
    g.dice = Dice.scripted([])
    g.apply(parse(f"advance A3 {X - 6:.1f},{Y:.1f}"))
    assert g.decision.step == "rule" and g.decision.info["what"] == "advance"
    g.apply(Action("rule", arg="5"))
    assert [e["roll"] for e in g.events if e["e"] == "advance_roll"][-1] == 5 and g.miracles["A"] == (3,)
    assert g.decision.step == "move"  # no re-roll offered, no dice rolled
    g.dice = Dice.scripted([4])
    g.apply(parse(f"advance A4 {X - 6:.1f},{Y + 5:.1f}"))  # another unit: asked again
    assert g.decision.step == "rule"
    g.apply(Action("pass"))
    g.dice.assert_consumed()


@pytest.mark.parametrize("die, passed", [(1, False), (2, True)])
def test_a_miracle_dice_for_one_dice_of_a_battle_shock_test(die, passed):
    g = sisters()
    u = g.units["A3"]
    place(g, "A3", [(X, Y), (X, Y + 1.2)])  # 2 of 5 models: Below Half-strength
    g.dice = Dice(7)
    advance_to(g, "move", "B")
    g.miracles["A"] = (6,)
    g.dice = Dice(7)
    for _ in range(300):  # to A's Battle-shock step of round 2: the Sisters' test
        if g.decision.step == "rule" and g.decision.info.get("what") == "battle-shock":
            break
        legal = g.legal_actions()
        g.apply(next((x for x in legal if x.kind in ("done", "pass")), legal[0]))
    assert g.decision.info["unit"] == "A3" and g.decision.info["needed"] == u.leadership()
    g.dice = Dice.scripted([die])
    g.apply(Action("rule", arg="6"))
    g.dice.assert_consumed()
    test = [e for e in g.events if e["e"] == "battleshock_test"][-1]
    assert (test["unit"], test["roll"], test["passed"]) == ("A3", 6 + die, passed)  # Leadership 8+
