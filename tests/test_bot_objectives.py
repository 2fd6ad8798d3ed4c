"""The greedy bot plays the asymmetric missions' objectives (issue 12: "Bots must play every
mission's objectives sensibly"): it reaches a goal behind closed Hatchways through them, stands
beside a Hatchway where its base fits, and spreads over the markers the objectives value.
Public API of Game and of the bot only."""

from __future__ import annotations

import math

from conftest import advance_to, place
from test_missions import new_game

from bagm.engine.board.geometry import Base
from bagm.engine.bots import make_bot
from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.bots.objectives import assign, marker_worth
from bagm.engine.game.sequence import Game
from bagm.engine.state.actions import Action


def _deployed(mission: int, attacker: str = "A") -> Game:
    """Roles (``attacker`` the Attacker), the Mission Rules asked before Deploy Armies (Guard
    Duty) and Deploy Armies, all by the greedy bot (no dice)."""
    g = new_game(mission, rolloffs={"attacker": attacker, "first_turn": attacker})
    bot = make_bot("greedy", 0)
    while g.decision.step in ("roles", "rule", "deploy"):
        g.apply(Action("role", arg="attacker") if g.decision.step == "roles" else bot(g))
    return g


def test_strongrooms_the_attacker_heads_for_a_vaults_hatchway_and_opens_it() -> None:
    """They Are Ours: 45VP per objective marker the Attacker controls at the end of the battle;
    the markers stand in the Strongrooms, behind closed Hatchways. The bot's goal for an
    Attacker unit is the point beside the first closed Hatchway on its way (no route leads to
    the marker itself while they are closed); standing there, it opens that Hatchway."""
    g = _deployed(3)
    bot = GreedyBot()
    u = next(v for v in g.army_units("A") if v.models)
    target = bot.target(g, u)
    assert any(math.dist(target, (m.x, m.y)) < 1e-9 for m in g.map.layout.markers)
    assert g.bf.path((u.models[0].x, u.models[0].y), target) is None  # shut in its vault
    goal = bot.goal(g, u)
    door = min((h for h in g.map.layout.hatchways if not g.bf.is_open(h.index)),
               key=lambda h: math.dist(h.centre, goal))
    assert abs(math.dist(door.centre, goal) - (max(m.r for m in u.models) + 0.6)) < 1e-9
    assert g.bf.opposite_sides(Base(goal[0], goal[1], 0.5), target, door.index)
    dx, dy = ((goal[0] - door.centre[0]) / math.dist(goal, door.centre),
              (goal[1] - door.centre[1]) / math.dist(goal, door.centre))
    place(g, u.uid, [(goal[0] + dx * 1.3 * k, goal[1] + dy * 1.3 * k) for k in range(len(u.models))])
    for v in g.army_units("B"):  # no Defender unit on the other side to prevent it
        if v is not u and any(door.door.distance_to((m.x, m.y)) < 3.0 for m in v.models):
            place(g, v.uid, [(5.0, 5.0 + 1.4 * k) for k in range(len(v.models))])
    advance_to(g, "hatch", "A")
    assert g.decision.step == "hatch"
    act = bot(g)
    assert (act.kind, act.unit, act.arg) == ("hatch", u.uid, str(door.index + 1))


def test_pull_their_teeth_the_army_spreads_over_the_markers_its_objectives_value() -> None:
    """Destroy Ground Targets and Seize the Guns: every Loader the Defender controls costs the
    Attacker VP each Defender Command phase, and the Control Node doubles it (and scores the
    Attacker 5VP): the bot values the Node twice a Loader, and gives its units different markers
    (at most an even share on each) instead of sending all to the nearest."""
    g = _deployed(2)
    worth = marker_worth(g, "A")
    labels = [m.label for m in g.map.layout.markers]
    assert worth == {i: 2.0 if lab == "Control Node" else 1.0 for i, lab in enumerate(labels)}
    plan = assign(g, "A", list(range(len(labels))), worth)
    units = [u for u in g.army_units("A") if u.models]
    assert set(plan) == {u.uid for u in units}
    share = -(-len(units) // len(labels))
    assert len(set(plan.values())) >= min(len(units), len(labels)) - 1
    assert all(list(plan.values()).count(i) <= share for i in set(plan.values()))


def test_void_the_ship_a_wide_base_stands_beside_an_airlock() -> None:
    """Airlocks: the Attacker scores 20VP for each Airlock opened (within 1" of it). The point the
    bot heads for beside an Airlock fits the unit's base (a Meganob's 40mm base too: before, it
    overlapped the Wall, so the unit never moved), and is within 1" of the Hatch."""
    g = _deployed(1, attacker="B")  # the Orks attack
    bot = GreedyBot()
    nobz = next(u for u in g.armies["B"].units if u.name == "Meganobz")
    goal = bot.target(g, nobz)  # (where it goes once no closed Hatchway stands in its way)
    r = nobz.models[0].r
    airlock = min((h for h in g.map.layout.hatchways if h.label == "Airlock"),
                  key=lambda h: math.dist(h.centre, goal))
    assert r > 0.75 and g.bf.fits(Base(goal[0], goal[1], r))
    assert airlock.door.distance_to(goal) - r <= 1.0


# --- the symmetric missions' objectives and the Mission Rules a player may use ------------------


def test_hull_breach_the_bot_downloads_the_data_of_a_datacore_it_holds() -> None:
    """Hull Breach, The Datacores: a unit on a Datacore marker its player controls performs
    Download Data (15VP at the start of the next Command phase)."""
    from test_missions import deploy, on_marker

    g = new_game(23, dice=[2] * 20)
    deploy(g)
    on_marker(g, "A3", 1)
    advance_to(g, "manoeuvre", "A")
    assert g.control[0] == "A"
    assert GreedyBot()(g) == Action("manoeuvre", "A3", target="download")


def test_control_centre_the_bot_unlocks_the_overrides_while_marker_a_is_not_its_own() -> None:
    """Control Centre, Unlock Overrides: opening every Hatchway is worth it while marker A (in
    its closed room) is not the player's; once it holds A the doors stay as they are."""
    from test_missions import deploy, marker_index, on_marker

    g = new_game(31)
    deploy(g)
    on_marker(g, "A3", marker_index(g, "B"))
    advance_to(g, "rule", "A")
    assert GreedyBot()(g) == Action("rule", arg="Unlock Overrides")
    g2 = new_game(31)
    deploy(g2)
    on_marker(g2, "A3", marker_index(g2, "B"))
    on_marker(g2, "A4", marker_index(g2, "A"))
    advance_to(g2, "rule", "A")
    assert g2.control[marker_index(g2, "A") - 1] == "A"
    assert GreedyBot()(g2) == Action("pass")


def test_the_furnace_the_bot_turns_the_burners_on_only_when_the_enemy_loses_more() -> None:
    """Rites of Incineration: every unit in the Furnace risks mortal wounds, the bot's own unit
    in the Furnace Control Zone too: it turns the Burners on when the enemy has more there."""
    from test_missions import cross_at, deploy, zone_centre

    def at_burners(enemy_in_furnace: bool) -> Action:
        g = new_game(32)
        deploy(g)
        (c, r), = g.map.layout.areas_of("Furnace Control Zone")[0].zones
        cross_at(g, "A3", zone_centre(g, c, r))
        if enemy_in_furnace:
            (c2, r2), = g.map.layout.areas_of("Furnace Control Zone")[1].zones
            cross_at(g, "B3", zone_centre(g, c2, r2))
            cross_at(g, "B4", zone_centre(g, (c + c2) // 2, (r + r2) // 2))
        advance_to(g, "manoeuvre", "A")
        return GreedyBot()(g)

    assert at_burners(True) == Action("manoeuvre", "A3", target="burners")
    assert at_burners(False) != Action("manoeuvre", "A3", target="burners")


def test_corrupt_the_machine_spirit_the_attacker_corrupts_a_marker_it_holds() -> None:
    """Corrupt the Machine Spirit: the Attacker attempts it on every marker it controls (20VP
    for it, 30VP the fewer for the Defender)."""
    from test_missions import deploy, on_marker, to_round

    g = new_game(6, dice=[2], rolloffs={"attacker": "A"})
    deploy(g)
    on_marker(g, "A3", 1)
    to_round(g, 1, "A", "rule")
    assert GreedyBot()(g) == Action("rule", arg="corrupt 1")
