"""Detachment Enhancements modelled late (issue 13 s4), each with scripted dice: Chosen of Khorne (World
Eaters, Boarding Butchers)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from test_abilities_xen import we_game

from bagm.chance.dice import Dice
from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.bots.uses import pool_reroll_for
from bagm.engine.game import kept, moments
from bagm.engine.state.actions import Action

POOL = "A Blessings of Khorne"


def khorne_roll(kills: int, dice: list[int], where: str = "board"):
    """A's Blessings of Khorne roll (``dice``) made again, its Chosen of Khorne bearer (A1) having destroyed
    ``kills`` enemy units and standing ``where``: the roll's steps (a generator) and the game."""
    g = we_game([1, 2, 3, 4])
    bearer = g.units["A1"]
    assert bearer.enhancement == "Chosen of Khorne"
    bearer.kills = kills
    bearer.where = where  # type: ignore[assignment]
    g.dice = Dice.scripted(dice)
    return g, moments.roll_pools(g, "A")


@pytest.mark.parametrize("kills, where, asked", [(0, "board", False), (1, "board", True), (1, "reserves", False)])
def test_chosen_of_khorne_once_the_bearer_has_destroyed_a_unit_and_is_on_the_battlefield(kills, where, asked):
    g, steps = khorne_roll(kills, [1, 2, 3, 4], where)
    kept.touch(g)
    try:
        d = next(steps)
    except StopIteration:
        d = None
    assert (d is not None) is asked
    if d is not None:
        assert d.step == "rule" and d.info["rule"] == "Chosen of Khorne" and d.info["options"] == ["re-roll"]
        assert d.info["dice"] == [4, 3, 2, 1] and d.info["fits"] == []  # no double: no Blessing


def test_chosen_of_khorne_re_rolls_every_dice():
    g, steps = khorne_roll(1, [1, 2, 3, 4, 5, 5, 1, 6])
    next(steps)
    with pytest.raises(StopIteration):
        steps.send(Action("rule", arg="re-roll"))
    g.dice.assert_consumed()  # all four dice rolled again, not only some
    assert g.pools[POOL] == (6, 5, 5, 1)
    rolls = [e for e in g.events if e["e"] == "pool_roll"]
    assert rolls[-1] == {"e": "pool_roll", "player": "A", "rule": "Blessings of Khorne", "dice": [6, 5, 5, 1],
                         "by": "Chosen of Khorne"}
    assert "Warp Blades" in {a.arg.split(": ", 1)[1] for a in moments.usable(g, "A", "round_start")}  # the double 5


def test_chosen_of_khorne_declined_keeps_the_roll():
    g, steps = khorne_roll(1, [5, 5, 1, 2])
    d = next(steps)
    assert d.info["fits"]  # a double 5
    with pytest.raises(StopIteration):
        steps.send(Action("pass"))
    g.dice.assert_consumed()
    assert g.pools[POOL] == (5, 5, 2, 1)


@pytest.mark.parametrize("dice, take", [([1, 2, 3, 4], True), ([1, 1, 3, 4], False)])
def test_the_greedy_bot_re_rolls_a_roll_that_activates_no_blessing(dice, take):
    _, steps = khorne_roll(1, dice)
    asked = SimpleNamespace(decision=next(steps))  # the decision as the game would show it
    got = pool_reroll_for(GreedyBot(), asked, "A", [Action("rule", arg="re-roll"), Action("pass")])  # type: ignore[arg-type]
    assert (got is not None) is take
