"""Asymmetric Mission 4 Jailbreak against the book's text (Boarding Actions, October 2024,
"Asymmetric Missions": Jailbreak's Mission Rules and its Escape objective), scripted dice:
every scripted roll must be consumed and a roll nobody scripted fails the test."""

from __future__ import annotations

import pytest
from conftest import advance_to, place
from test_missions import NECRONS, finish, new_game, to_round

from bagm.engine.bots import make_bot
from bagm.engine.game import deployment, kept, positions
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules.missions import base
from bagm.engine.rules.missions.jailbreak import (
    ESCAPE,
    _escape,
    cells,
    guard_zone,
    prison_hatch,
    prisoner,
    prisoner_options,
    situation,
)
from bagm.engine.state.actions import Action
from bagm.render.narration import narrate, text

HATCH = "Prison Cells' Hatchway"


def start(dice: list[int] | None = None, prisoner_uid: str = "A1", b: object = None) -> Game:
    """A game of Jailbreak, GK (A) the Attacker: the roles, Imprisoned (``prisoner_uid``), and
    Deploy Armies by the greedy bot (no dice)."""
    g = new_game(4, **({"b": b} if b is not None else {}), dice=dice, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    g.apply(Action("rule", arg=prisoner_uid))
    bot = make_bot("greedy", 0)
    while g.decision.step == "deploy":
        g.apply(bot(g))
    return g


def clear_defenders(g: Game, keep: tuple[str, ...] = ()) -> None:
    """The Defender's units but ``keep`` taken off the battlefield (destroyed), out of the way."""
    for u in g.armies["B"].units:
        if u.uid not in keep:
            u.models, u.where = [], "destroyed"
            kept.touch(g, u)


def zone_point(zone: object, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
    cx, cy = zone.centre  # type: ignore[attr-defined]
    return (cx + dx, cy + dy)


def guard_block(g: Game, uid: str) -> None:
    """Unit ``uid`` (five models) wholly within the Guard Entry Zone, away from the Hatchway."""
    place(g, uid, [zone_point(guard_zone(g), dx, dy) for dx, dy in
                   [(-1.2, -1.4), (-1.2, 0.0), (-1.2, 1.4), (0.2, -0.7), (0.2, 0.7)]])


def at_the_hatch(g: Game, uid: str) -> None:
    """Unit ``uid`` (one model) inside the Prison Cells, within 1" of their Hatchway."""
    h = g.map.layout.hatchways[prison_hatch(g)]
    place(g, uid, [(h.door.x1 + 0.95, (h.door.y0 + h.door.y1) / 2)])


# --- Imprisoned ----------------------------------------------------------------------------------

def test_imprisoned_a_unit_of_60_points_or_more_set_up_in_the_prison_cells() -> None:
    # "At the start of the Deploy Armies step, the Attacker selects one unit from their army with
    # a minimum points cost of 60 points to be imprisoned. That unit is set up within the Prison Cells."
    g = new_game(4, b=NECRONS, rolloffs={"attacker": "B"})  # the Necrons (B) win and attack
    g.apply(Action("role", arg="attacker"))
    d = g.decision
    assert (d.step, d.player, d.info["rule"]) == ("rule", "B", "Imprisoned")
    assert "pass" not in [a.text() for a in g.legal_actions()]  # the Attacker must
    opts = set(d.info["options"])
    assert opts == set(prisoner_options(g))
    assert "B3" not in opts and "B6" not in opts and "B7" not in opts  # 55 and 45 points
    assert {"B1", "B2", "B4", "B5"} <= opts  # 80, 65 and 75 points
    with pytest.raises(IllegalAction):
        g.check(Action("rule", arg="B3"))
    g.apply(Action("rule", arg="B2"))
    u = g.units["B2"]
    assert u.where == "board" and all(cells(g).within(m.base) for m in u.models)
    assert prisoner(g) is u and g.decision.step == "deploy" and g.decision.player == "A"  # the Defender deploys first


def test_the_imprisoned_unit_stays_on_the_battlefield_and_in_the_cells_while_their_hatchway_is_closed() -> None:
    # "The imprisoned unit: Cannot be removed from the battlefield at any point, unless
    # destroyed. Cannot make use of any rule that would allow it to move through Walls or
    # terrain features while the Prison Cells' Hatchway is still closed." No rule the engine
    # plays removes a unit or moves it through Walls: it is never offered to Reserves, and a
    # move toward the way out ends within the cells
    g = new_game(4, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    g.apply(Action("rule", arg="A1"))
    g.apply(Action("deploy", "B3", arg="1"))
    assert not any(a.unit == "A1" for a in g.legal_actions())  # set up already: no Reserves, no Entry Zone
    bot = make_bot("greedy", 0)
    while g.decision.step == "deploy":
        g.apply(bot(g))
    advance_to(g, "move", "A")
    g.apply(Action("move", "A1", point=(20.0, 15.0)))
    assert all(cells(g).within(m.base) for m in g.units["A1"].models) and g.units["A1"].where == "board"


def test_rapid_offence_the_attacker_has_the_first_turn() -> None:
    # "Rapid Offence: The Attacker has the first turn." (no roll-off for it)
    g = start()
    assert g.first == "A" and any(e["e"] == "first_turn" and e["why"] == "Rapid Offence" for e in g.events)
    assert not any(e["e"] == "rolloff" and e["what"] == "first_turn" for e in g.events)


def test_underdog_bonus_one_more_cp() -> None:
    # "Underdog Bonus: If one player is the Underdog, that player starts the battle with 1 additional CP."
    g = new_game(4, b=NECRONS, rolloffs={"attacker": "A"})  # 440 points against 500
    assert [(e["player"], e["gain"]) for e in g.events if e["e"] == "cp" and e["why"] == "Underdog Bonus"] == [("B", 1)]


def test_the_imprisoned_unit_tries_the_hatchway_only_while_the_guard_entry_zone_is_empty() -> None:
    # "Can only attempt to operate the Prison Cells' Hatchway while it is closed if there are no
    # units from the Defender's army wholly within the Guard Entry Zone. If it does, roll one D6:
    # if the result is greater than or equal to its Toughness characteristic, it is unsuccessful
    # and the Hatchway remains closed; otherwise, open the Hatchway as normal."
    g = start(dice=[5, 4])  # the Chaplain (T5): 5 fails (equal to T), then 4 opens it
    clear_defenders(g, keep=("B3",))
    i = prison_hatch(g)
    at_the_hatch(g, "A1")
    guard_block(g, "B3")
    advance_to(g, "hatch", "A")
    with pytest.raises(IllegalAction, match="wholly within the Guard Entry Zone"):
        g.check(Action("hatch", "A1", arg=str(i + 1)))
    g.apply(Action("done"))
    # B3 steps half out of the Guard Entry Zone: no longer wholly within it
    zone = guard_zone(g)
    place(g, "B3", [(zone.box[0] - 0.5, m.y) if j == 0 else (m.x, m.y)
                    for j, m in enumerate(g.units["B3"].models)])
    to_round(g, 2, "A", "hatch")
    g.apply(Action("hatch", "A1", arg=str(i + 1)))
    assert not g.bf.is_open(i)
    roll = [e for e in g.events if e["e"] == "mission_roll" and e["rule"] == "Imprisoned"]
    assert [(e["roll"], e["passed"]) for e in roll] == [(5, False)]
    to_round(g, 3, "A", "hatch")
    g.apply(Action("hatch", "A1", arg=str(i + 1)))
    assert g.bf.is_open(i) and g.dice.pending == ()
    told = text(narrate(g.events))  # the narration tells the rolls as the rule judged them
    assert "rolls 5 for Imprisoned (failed)" in told and "rolls 4 for Imprisoned (success)" in told


def test_prison_cells_hatchway_defender_never_operates_it_and_it_never_closes_again() -> None:
    # "Once the Prison Cells' Hatchway has been opened, it cannot be closed again. Units from the
    # Defender's army cannot attempt to operate the Prison Cells' Hatchway."; another Attacker
    # unit opens it as normal (no roll)
    g = start()
    clear_defenders(g, keep=("B3",))
    i = prison_hatch(g)
    h = g.map.layout.hatchways[i]
    outside = (h.door.x0 - 0.95, (h.door.y0 + h.door.y1) / 2)
    place(g, "B3", [outside, (outside[0] - 1.4, outside[1] - 0.7), (outside[0] - 1.4, outside[1] + 0.7)])
    advance_to(g, "hatch", "B")
    with pytest.raises(IllegalAction, match="Defender's army cannot operate"):
        g.check(Action("hatch", "B3", arg=str(i + 1)))
    g.apply(Action("done"))
    clear_defenders(g)
    place(g, "A3", [outside, (outside[0] - 1.4, outside[1] - 0.7), (outside[0] - 1.4, outside[1] + 0.7)])
    advance_to(g, "hatch", "A")
    g.apply(Action("hatch", "A3", arg=str(i + 1)))  # no roll: scripted dice are empty
    assert g.bf.is_open(i)
    to_round(g, 3, "A", "hatch")
    with pytest.raises(IllegalAction, match="cannot be closed again"):
        g.check(Action("hatch", "A3", arg=str(i + 1)))


def test_no_other_unit_is_set_up_within_the_prison_cells() -> None:
    # "Prison Cells: Units other than the imprisoned unit cannot make use of any ability that
    # allows them to be set up within the Prison Cells." (Deep Strike here)
    g = new_game(4, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    g.apply(Action("rule", arg="A1"))
    bot = make_bot("greedy", 0)
    while g.decision.step == "deploy":
        act = Action("reserve", "A5") if g.decision.player == "A" and g.units["A5"].where == "army" else bot(g)
        g.apply(act)
    assert g.units["A5"].deep_strike_reserve
    clear_defenders(g)
    assert g.mission.barred(g, g.units["A5"]) == (cells(g),) and g.mission.barred(g, g.units["A1"]) == ()
    to_round(g, 2, "A", "reinforce")
    room = cells(g)
    inside = (room.box[2] - 2.0, room.centre[1])
    with pytest.raises(IllegalAction, match="cannot be set up by Deep Strike"):
        g.check(Action("deepstrike", "A5", point=inside))
    g.check(Action("deepstrike", "A5", point=(inside[0], 3.0)))  # outside it, as far from anyone: allowed


def test_infiltrators_cannot_be_set_up_within_the_prison_cells() -> None:
    # "Prison Cells: Units other than the imprisoned unit cannot make use of any ability that
    # allows them to be set up within the Prison Cells." (Infiltrators: within 6" of the Guard
    # Entry Zone, next to the Prison Cells)
    g = new_game(4, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    g.apply(Action("rule", arg="A1"))
    g.units["B3"].infiltrators = True  # for this test
    room = cells(g)
    inside = (room.box[0] + 1.5, room.centre[1])
    with pytest.raises(IllegalAction, match="within the Prison Cells"):
        g.check(Action("deploy", "B3", arg="1", point=inside))
    g.check(Action("deploy", "B3", arg="1", point=(room.box[0] - 3.0, room.centre[1] - 3.0)))


# --- Prison Guards -------------------------------------------------------------------------------

def test_prison_guards_entry_zones_in_deploy_armies_and_afterwards() -> None:
    # "In the Deploy Armies step, the Defender can only set up units from their army within the
    # Guard Entry Zone and the Patrol Entry Zones (they cannot use the Backup Entry Zones) ...
    # Once the first battle round has started, they can only use their Backup Entry Zones when
    # setting up any Strategic Reserve units"
    g = new_game(4, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    g.apply(Action("rule", arg="A1"))
    assert [z.kind for z in deployment.entry_zones(g, "B")] == ["Guard", "Patrol", "Patrol"]
    assert [z.kind for z in deployment.entry_zones(g, "A")] == ["Entry Zone"] * 3
    bot = make_bot("greedy", 0)
    while g.decision.step == "deploy":
        g.apply(bot(g))
    to_round(g, 1, "B")
    assert [z.kind for z in deployment.entry_zones(g, "B")] == ["Backup", "Backup"]
    assert [z.kind for z in deployment.entry_zones(g, "A")] == ["Entry Zone"] * 3


def test_prison_guards_one_unit_must_be_set_up_in_the_guard_entry_zone() -> None:
    # "... and one unit from their army must be set up within the Guard Entry Zone"
    g = new_game(4, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    g.apply(Action("rule", arg="A1"))
    g.apply(Action("deploy", "B3", arg="2"))  # a Patrol Entry Zone
    g.apply(Action("deploy", "A3", arg="1"))
    g.apply(Action("deploy", "B1", arg="2"))  # the CHARACTER joins it
    g.apply(Action("deploy", "A4", arg="2"))
    for uid in ("B4", "B5"):  # for this test: only B2 left to set up
        g.units[uid].where = "reserves"
    assert g.decision.player == "B"
    assert {a.text() for a in g.legal_actions()} == {"deploy B2 1"}  # zone 3 is free, but B2 is their last unit
    with pytest.raises(IllegalAction, match="must be set up within the Guard Entry Zone"):
        g.check(Action("deploy", "B2", arg="3"))
    g.apply(Action("deploy", "B2", arg="1"))
    assert all(guard_zone(g).within(m.base) for m in g.units["B2"].models)


# --- Silent Infiltration -------------------------------------------------------------------------

def test_silent_infiltration_until_the_alarm_goes_off() -> None:
    # "At the start of the first battle round, the Attacker ... select one unit from their army
    # and roll one D6: on a 2+, the alarm is not set off and that unit can make a Normal Move of
    # up to 6". They can then select another unit ... and roll again, subtracting 1 from the
    # roll. This continues, subtracting 1 from the roll for each successive unit, until either
    # the alarm goes off or the Attacker has no more units to move."
    g = start(dice=[2, 3, 3])  # A3: 2 (2+); A4: 3 - 1 = 2 (2+); A5: 3 - 2 = 1 (the alarm)
    d = g.decision
    assert (g.round, d.step, d.player, d.info["rule"]) == (1, "rule", "A", "Silent Infiltration")
    assert "A3" in d.info["options"] and "pass" in [a.text() for a in g.legal_actions()]
    before = [(m.x, m.y) for m in g.units["A3"].models]
    g.apply(Action("rule", arg="A3"))
    assert g.decision.info["rule"] == "Silent Infiltration: move" and g.decision.info["unit"] == "A3"
    g.apply(Action("rule", arg=g.decision.info["options"][0]))
    moved = next(e for e in g.events if e["e"] == "move" and e.get("why") == "Silent Infiltration")
    assert 0 < moved["moved"] <= 6.0 and [(m.x, m.y) for m in g.units["A3"].models] != before
    assert "A3" not in g.decision.info["options"]  # a unit is selected once
    g.apply(Action("rule", arg="A4"))
    g.apply(Action("pass"))  # "can make": A4 stays where it is
    g.apply(Action("rule", arg="A5"))
    rolls = [(e["unit"], e["roll"], e["modifier"], e["passed"]) for e in g.events if e["e"] == "mission_roll"]
    assert rolls == [("A3", 2, 0, True), ("A4", 3, -1, True), ("A5", 3, -2, False)]
    assert any(e["e"] == "note" and "the alarm goes off" in e["text"] for e in g.events)
    assert g.decision.info.get("rule") != "Silent Infiltration" and g.dice.pending == ()
    told = text(narrate(g.events))
    assert "rolls 3 (-1) for Silent Infiltration (success)" in told
    assert "rolls 3 (-2) for Silent Infiltration (failed)" in told


def test_silent_infiltration_a_first_roll_of_1_sets_the_alarm_off_and_only_in_round_1() -> None:
    g = start(dice=[1])
    g.apply(Action("rule", arg="A3"))
    assert g.decision.info.get("rule") != "Silent Infiltration: move"
    assert [e["passed"] for e in g.events if e["e"] == "mission_roll"] == [False]
    to_round(g, 2, "A")  # no Silent Infiltration at the start of round 2 (no roll scripted)
    since = next(i for i, e in enumerate(g.events) if e["e"] == "round" and e["round"] == 2)
    assert not any(e["e"] == "action" and e["step"] == "rule" for e in g.events[since:])


# --- Escape --------------------------------------------------------------------------------------

def test_escape_still_within_the_prison_cells_at_the_end_of_the_battle() -> None:
    # "Imprisoned unit still within Prison Cells": the Attacker 0VP, the Defender 90VP
    g = start()
    finish(g)
    got = [(e["player"], e["vp"]) for e in g.events if e["e"] == "vp" and e["why"].startswith("Escape:")]
    assert got == [("B", 90)]


@pytest.mark.parametrize("row", ["free", "engaged", "destroyed", "destroyed in the cells"])
def test_escape_table(row: str) -> None:
    # "Imprisoned unit not within Prison Cells, but destroyed 30 / 60; ... not destroyed, but
    # within Engagement Range of one or more models from the Defender's army 60 / 30; ... not
    # within Engagement Range of all models from the Defender's army 90 / 0"; a unit destroyed
    # within the cells never got out (our reading): 0 / 90
    g = start()
    clear_defenders(g, keep=("B3",))
    a1, b3 = g.units["A1"], g.units["B3"]
    if row != "destroyed in the cells":
        place(g, "A1", [(25.0, 10.5)])  # out of the cells
        assert situation(g) == "free"
    if row == "engaged":
        place(g, "B3", [(26.8, 10.5), (28.2, 10.5), (29.6, 10.5)])
        assert positions.engaged(g, a1, b3)
    if row.startswith("destroyed"):
        base.suffer_mortal_wounds(g, a1, 10, "test")
        assert a1.where == "destroyed"
    want = {"free": "free", "engaged": "engaged", "destroyed": "destroyed",
            "destroyed in the cells": "in the cells"}[row]
    assert situation(g) == want
    vp_a, vp_b = ESCAPE[want]
    assert sum(v for v, *_ in _escape(g, "A")) == vp_a and sum(v for v, *_ in _escape(g, "B")) == vp_b


def test_escape_credits_the_imprisoned_unit_and_reads_the_table_columns_as_attacker_then_defender() -> None:
    assert ESCAPE == {"in the cells": (0, 90), "destroyed": (30, 60), "engaged": (60, 30), "free": (90, 0)}
    g = start()
    place(g, "A1", [(30.0, 4.0)])
    clear_defenders(g)
    assert _escape(g, "A") == [(90, "the imprisoned unit is out of the Prison Cells and not within "
                                    "Engagement Range of the Defender's army", ["A1"])]
    assert _escape(g, "B") == []


# --- the greedy bot plays the objectives ------------------------------------------------------------

def test_the_greedy_bot_guards_and_frees() -> None:
    from bagm.engine.bots.greedy import GreedyBot

    g = start()
    bot = GreedyBot()
    # Imprisoned: the toughest unit (its roll is under its Toughness), the cheapest of those
    assert prisoner(g) is not None
    # the Defender keeps a unit wholly within the Guard Entry Zone and holds it there
    guards = [u for u in g.army_units("B") if bot.guarding(g, u)]
    assert guards
    # the Attacker's others head for the Prison Cells' Hatchway
    i = prison_hatch(g)
    assert bot.doors_to_open(g, "A") == [i] and bot.doors_to_open(g, "B") == []
    h = g.map.layout.hatchways[i]
    a3 = g.units["A3"]
    goal = bot.goal(g, a3)
    # beside it, outside: the base 0.35" from the Hatch (its middle 0.6" + the base's radius away)
    away = max(m.r for m in a3.models) + 0.6
    assert abs(goal[0] - (h.centre[0] - away)) < 1e-9 and abs(goal[1] - h.centre[1]) < 1e-9


def test_the_greedy_bot_offers_expert_breacher_only_at_the_start_of_move_units() -> None:
    # seed 15 once crashed: the bot proposed its Expert Breacher's Hatchway after units had
    # moved ("at the start or end of the Move Units step"; the end is the Operating Hatchways step)
    from test_missions import GK, ORKS

    from bagm.engine.log.record import play_bots

    rec = play_bots(4, GK, ORKS, 15)
    assert rec.events[-1]["e"] == "end"


def test_engagement_range_does_not_reach_through_the_closed_prison_cells_hatchway() -> None:
    """Rules Adaptations, Measurement: "When measuring the distance between two points, you
    cannot measure through Walls or closed Hatchways ... If you cannot trace a path between two
    points, they are considered to be an infinite distance apart"; Engagement Range is such a
    distance, and a Normal move may not end within it. A guard stands against the closed Prison
    Cells' Hatchway outside; inside, the imprisoned Chaplain walks up to the Hatchway, 0.05" from
    it: the guard is an infinite distance away (the cells are sealed), so nothing stops it short
    (a straight 1" around the guard's base reaches 1.2" past the Hatch into the cells)."""
    g = start()
    clear_defenders(g, keep=("B3",))
    i = prison_hatch(g)
    h = g.map.layout.hatchways[i]
    cy = (h.door.y0 + h.door.y1) / 2
    a1, b3 = g.units["A1"], g.units["B3"]
    place(g, "A1", [(40.0, cy)])
    x = h.door.x0 - b3.models[0].r - 0.05  # the guard's base 0.05" from the Hatch, outside
    place(g, "B3", [(x, cy), (x - 1.4, cy - 0.7), (x - 1.4, cy + 0.7)])
    advance_to(g, "move", "A")
    goal = (round(h.door.x1 + a1.models[0].r + 0.05, 3), cy)
    g.apply(Action("move", "A1", point=goal))
    m = a1.models[0]
    assert (round(m.x, 3), m.y) == goal and not positions.engaged(g, a1, b3)
    assert g.bf.distance_to_hatchway(m.base, i) <= 1.0
