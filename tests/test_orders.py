"""Astra Militarum Orders (the army rule Voice of Command, with the Boarding Actions Mustering Rules'
Direct Orders), played through the game: an OFFICER issues its datasheet's number of Orders at the
end of your Command phase, each to a friendly ASTRA MILITARUM unit within 6" that is not
Battle-shocked, until the start of your next Command phase; one Order at a time per unit. The
Embarked Regiment (A: A1 Cadian Castellan, 2 Orders; A2 Commissar, 1: Fix Bayonets! or Duty and
Honour!) against the Orks (B)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from conftest import REPO, place
from test_abilities import attack

from bagm.chance.dice import Dice, DiceExpr
from bagm.data.weapons import WeaponProfile
from bagm.engine.game import kept, positions
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.effects import armour, effect_weapon
from bagm.engine.state.actions import Action, parse

AM = str(REPO / "rosters" / "astra_militarum_embarked_regiment.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
VOICE = "Voice Of Command"
AXE = WeaponProfile("Test choppa", True, DiceExpr(0, 6, 1), 3, 3, 0, DiceExpr(0, 6, 1))
X, Y = 20.0, 15.0  # an open stretch of mission 11's board: no Wall within 10" along y = 15


@cache
def _armies() -> tuple[Any, Any]:
    return build_army("A", AM), build_army("B", ORKS)


def to_orders(g: Game) -> Game:
    """``g`` played on (every first choice) to the end of A's first Command phase: A's decision to issue
    an Order (or pass)."""
    for _ in range(200):
        d = g.decision
        if d.step == "use" and d.player == "A" and g.phase == "command" and d.info.get("timing") == "phase_end":
            return g
        legal = g.legal_actions()
        g.apply(next((x for x in legal if x.kind in ("deploy", "done", "pass")), legal[0]))
    raise AssertionError("no Order offered")


def orders_game() -> Game:
    """Deployed, A's units on the board (A1 at (X, Y), the others far off), at the end of A's first
    Command phase: A's decision to issue an Order (or pass)."""
    a, b = (copy.deepcopy(x) for x in _armies())
    g = to_orders(Game(11, a, b, dice=Dice(3), rolloffs={"attacker": "A", "first_turn": "A"}))
    g.dice = Dice.scripted([])
    for i, u in enumerate(g.army_units("A") + [v for v in g.units.values() if v.player == "A" and v.where != "board"]):
        u.where = "board"
        u.models = u.models or u.new_models([(0.0, 0.0)])
        place(g, u.uid, [(X, Y)] if u.uid == "A1" else [(2.0 + 3.5 * i, 28.0)])
    kept.touch(g)
    return g


def at(g: Game, uid: str, gap: float) -> None:
    """Unit ``uid`` as one model ``gap`` inches (base to base) along y = Y from A1's model."""
    a1, u = g.units["A1"], g.units[uid]
    place(g, uid, [(X + a1.models[0].r + u.radius + gap, Y)])
    assert positions.unit_distance(g, a1, u) == pytest.approx(gap)


def offered(g: Game) -> set[str]:
    return {a.text() for a in g.legal_actions() if a.kind == "use"}


def orders(g: Game, uid: str) -> list[str]:
    return [n.split(": ", 1)[1] for n, _, _ in g.units[uid].timed if n.startswith(VOICE)]


ALL = {"Move! Move! Move!", "Fix Bayonets!", "Take Aim!", "First Rank, Fire! Second Rank, Fire!", "Take Cover!",
       "Duty and Honour!"}


@pytest.mark.parametrize("gap, shocked, gets", [(6.0, False, True), (6.1, False, False), (3.0, True, False)])
def test_an_order_goes_to_a_unit_within_6_inches_that_is_not_battle_shocked(gap, shocked, gets):
    g = orders_game()
    at(g, "A3", gap)
    g.units["A3"].battleshocked = shocked
    want = {f"use A3 {VOICE}: {o}" for o in ALL}
    assert want & offered(g) == (want if gets else set())
    assert f"use A1 {VOICE}: Take Aim!" in offered(g)  # the Officer's own unit


def test_direct_orders_any_astra_militarum_unit_and_the_commissars_two_orders():
    # Direct Orders: "to any one friendly ASTRA MILITARUM unit within range, regardless of any keywords"
    # (the Castellan's datasheet names REGIMENT units: the Ogryns have no such keyword); the Commissar
    # can only issue Duty and Honour! and Fix Bayonets!
    g = orders_game()
    at(g, "A7", 2.0)  # Ogryn Squad
    assert {f"use A7 {VOICE}: {o}" for o in ALL} <= offered(g)
    g = orders_game()
    place(g, "A1", [(42.0, 2.0)])  # the Castellan far off; the Commissar next to A3
    a2 = g.units["A2"]
    place(g, "A2", [(X, Y)])
    place(g, "A3", [(X + a2.models[0].r + g.units["A3"].radius + 1.0, Y)])
    got = {a for a in offered(g) if a.startswith("use A3 ")}
    assert got == {f"use A3 {VOICE}: Fix Bayonets!", f"use A3 {VOICE}: Duty and Honour!"}


def test_an_officer_issues_as_many_orders_as_its_datasheet_says_and_one_order_at_a_time():
    g = orders_game()
    at(g, "A3", 1.0)
    at(g, "A4", 2.5)
    g.apply(parse(f"use A3 {VOICE}: Take Aim!"))
    assert orders(g, "A3") == ["Take Aim!"]
    g.apply(parse(f"use A3 {VOICE}: Move! Move! Move!"))  # a second Order to it replaces the first
    assert orders(g, "A3") == ["Move! Move! Move!"]
    ends = [e for e in g.events if e["e"] == "effect_ends"]
    assert [(e["unit"], e["rule"]) for e in ends][-1] == ("A3", f"{VOICE}: Take Aim!")
    # the Castellan's two Orders are issued; the Commissar (far off) can order only its own unit
    assert {a.split(" ", 2)[1] for a in offered(g)} <= {"A2"}


def test_the_effects_of_each_order():
    g = orders_game()
    at(g, "A3", 1.0)
    u = g.units["A3"]
    lasgun = next(w for w in u.ranged if w.name == "Lasgun")
    pistol = next(w for w in u.ranged if w.name == "Laspistol")
    blade = u.melee[0]

    def issue(order: str) -> None:
        g.used = {m for m in g.used if VOICE not in m[1]}  # the Castellan may issue again (a test's shortcut)
        g.apply(parse(f"use A3 {VOICE}: {order}"))
    issue("Take Aim!")  # BS improved by 1 (ranged only)
    assert effect_weapon(u, lasgun).skill == lasgun.skill - 1 and effect_weapon(u, blade).skill == blade.skill
    issue("Fix Bayonets!")  # WS improved by 1 (melee only)
    assert effect_weapon(u, blade).skill == blade.skill - 1 and effect_weapon(u, lasgun).skill == lasgun.skill
    issue("First Rank, Fire! Second Rank, Fire!")  # +1 Attacks of Rapid Fire weapons only
    assert effect_weapon(u, lasgun).attacks.bonus == lasgun.attacks.bonus + 1
    assert effect_weapon(u, pistol) == pistol
    issue("Move! Move! Move!")
    assert u.move() == u.M + 3
    issue("Duty and Honour!")  # Leadership 7+ -> 6+, OC +1
    assert u.move() == u.M and (u.leadership(), u.oc()) == (u.Ld - 1, u.OC + 1)
    u.battleshocked = True  # "if a unit being affected by an Order becomes Battle-shocked, that Order ceases"
    assert u.leadership() == u.Ld
    u.battleshocked = False
    issue("Take Cover!")  # Save improved by 1, never to better than 3+
    assert (armour(u, 5), armour(u, 4), armour(u, 3), armour(u, 2)) == (4, 3, 3, 2)


@pytest.mark.parametrize("order, saved", [(None, False), ("Take Cover!", True)])
def test_take_cover_a_save_of_4_against_a_5_plus_save(order, saved):
    g = orders_game()
    at(g, "A3", 1.0)
    if order:
        g.apply(parse(f"use A3 {VOICE}: {order}"))
    ork = next(u.uid for u in g.units.values() if u.player == "B")
    # one attack: hits (3+ on 4), wounds (S3 against T3: 4+ on 4), save 4: passed only with Take Cover!
    assert attack(g, ork, "A3", AXE, [4, 4, 4]) == ((0, 0) if saved else (1, 1))


def test_orders_last_until_the_start_of_your_next_command_phase():
    g = orders_game()
    at(g, "A3", 1.0)
    g.apply(parse(f"use A3 {VOICE}: Move! Move! Move!"))
    g.dice = Dice(5)
    for _ in range(400):  # to A's next Command phase, everyone passing
        if g.phase == "command" and g.active == "A" and g.round == 2:
            break
        assert orders(g, "A3") == ["Move! Move! Move!"]
        legal = g.legal_actions()
        g.apply(next((x for x in legal if x.kind in ("done", "pass")), legal[0]))
    assert orders(g, "A3") == []
    assert Action("pass") in g.legal_actions() or g.decision.step != "use"


# --- Master Vox (Boarding Actions Mustering Rules, Astra Militarum rules adaptations) ------------------

VOX = str(REPO / "tests" / "fixtures" / "astra_militarum_master_vox.yaml")


def vox_game() -> Game:
    """A Cadian Command Squad (A1, its Master vox by default wargear) at (X, Y) with two Shock Troops units,
    at the end of A's first Command phase."""
    g = to_orders(Game(11, build_army("A", VOX), copy.deepcopy(_armies()[1]), dice=Dice(3),
                       rolloffs={"attacker": "A", "first_turn": "A"}))
    for i, u in enumerate(v for v in g.units.values() if v.player == "A"):
        u.where = "board"
        u.models = u.models or u.new_models([(0.0, 0.0)])
        place(g, u.uid, [(X + 0.8 * k, Y) for k in range(len(u.models))] if u.uid == "A1" else [(2.0 + 3.5 * i, 28.0)])
    kept.touch(g)
    return g


@pytest.mark.parametrize("gap, gets", [(11.9, True), (12.0, True), (12.2, False)])
def test_master_vox_reaches_12_inches_in_a_straight_line(gap, gets):
    g = vox_game()
    a1, u = g.units["A1"], g.units["A2"]
    place(g, "A2", [(X + 0.8 * (len(a1.models) - 1) + a1.models[-1].r + u.radius + gap, Y)])
    kept.touch(g)
    assert positions.min_straight(g, a1, u) == pytest.approx(gap)
    want = {f"use A2 {VOICE}: {o}" for o in ALL}
    assert want & offered(g) == (want if gets else set())


def test_master_vox_ignores_walls_where_6_inches_around_them_would_not_reach():
    # mission 11: two places 3.5" apart in a straight line with a Wall between (more than 6" around it)
    g = vox_game()
    a1, u = g.units["A1"], g.units["A2"]
    a1.models = a1.models[:2]
    found = None
    for x in range(2, 44):
        for y in range(2, 28):
            p, q = (x + 0.5, y + 0.5), (x + 4.0, y + 0.5)
            place(g, "A1", [p, (p[0], p[1] + 0.01)])
            place(g, "A2", [q])
            kept.touch(g)
            if positions.min_straight(g, a1, u) < 6 and positions.unit_distance(g, a1, u) > 6.5:
                found = (p, q)
                break
        if found:
            break
    assert found, "no Wall on mission 11's board between two places 3.5\" apart"
    assert {f"use A2 {VOICE}: {o}" for o in ALL} <= offered(g)
    a1.models = a1.models[:1]  # reading: the vox's model is the last but the Officer's to fall
    kept.touch(g)
    assert not any(a.startswith("use A2 ") for a in offered(g))


def test_only_a_unit_that_carries_the_master_vox_reaches_farther():
    from bagm.engine.game.muster import carries_item

    g = vox_game()
    cadian = next(s for s in g.armies["A"].uses if s.bearer == "A1")
    assert cadian.reach_straight == 12
    tempestus = build_army("A", str(REPO / "rosters" / "astra_militarum_tempestus_boarding_regiment.yaml"))
    own = [s for s in tempestus.uses if s.bearer == "A1" and s.name.startswith(VOICE)]
    assert own and all(s.reach_straight is None for s in own)  # no Master Vox in its default wargear
    assert carries_item  # (the muster helper, tested through the armies above)
    # the Master Vox note is played, no longer listed among what the game does not model
    assert not any("Master Vox" in n for n in g.armies["A"].not_modelled)
