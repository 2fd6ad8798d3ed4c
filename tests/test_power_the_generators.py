"""Asymmetric Mission 5 Power the Generators (Boarding Actions, October 2024): its two levels and
each Mission Rule and Objective against the book's text, with scripted dice where a roll matters
(every scripted roll must be consumed; a roll nobody scripted fails the test)."""

from __future__ import annotations

import copy
import math
from functools import cache
from typing import Any

import pytest
from conftest import REPO, advance_to, place
from test_missions import deploy, finish, scored

from bagm.chance.dice import Dice
from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.game import fight, kept, positions, shooting, sight
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.missions.power_the_generators import (
    _rout_and_crush_them,
    access_zone_of,
    destination,
    may_change_level,
    partner,
)
from bagm.engine.state.actions import Action

GK = REPO / "rosters" / "grey_knights_void_purge_force.yaml"  # 500 pts, WARLORD A1
ORKS = REPO / "rosters" / "orks_kaptin_killers.yaml"  # 470 pts: the Underdog (30 points below)
NECRONS = REPO / "rosters" / "necrons_harbinger_cabal.yaml"  # 440 pts: the Underdog against GK
CROSS = [(0.0, 0.0), (0.0, 1.4), (0.0, -1.4), (1.4, 0.0), (-1.4, 0.0)]


@cache
def _army(player: str, path: Any) -> Any:
    return build_army(player, path)


def new_game(b: Any = ORKS, dice: Dice | None = None) -> Game:
    """Mission 5, GK (A, the Attacker) against ``b``; scripted dice (none by default: any roll
    fails the test)."""
    return Game(5, copy.deepcopy(_army("A", GK)), copy.deepcopy(_army("B", b)),
                dice=dice if dice is not None else Dice.scripted([]),
                rolloffs={"attacker": "A", "first_turn": "A"})


def zone(g: Game, label: str, level: str) -> Any:
    return next(a for a in g.map.layout.areas_of("Access Zone") if a.label == label and a.board == level)


def cross_at(g: Game, uid: str, at: tuple[float, float]) -> None:
    place(g, uid, [(at[0] + dx, at[1] + dy) for dx, dy in CROSS[:len(g.units[uid].models)]])


def only(g: Game, *keep: str) -> None:
    """Every unit but ``keep`` off the battlefield (destroyed), so nothing else interferes."""
    for u in g.units.values():
        if u.uid not in keep and u.where == "board":
            u.models, u.where = [], "destroyed"
            kept.touch(g, u)


def decline(g: Game) -> None:
    d = g.decision
    g.apply(Action("done") if d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
            else Action("pass"))


def settle(g: Game) -> None:
    """Decline the offers made inside a fight (Command Re-roll, Counter-offensive)."""
    while g.decision.step in ("reroll", "counter", "overwatch"):
        decline(g)


# --- the two levels ---------------------------------------------------------------------------------

def test_the_levels_are_apart_beyond_every_straight_measure() -> None:
    # "Multi-level": units cannot move from one board to the other but by Change Level, and units
    # on one are not visible to those on the other. The boards do not touch, and lie more than
    # 12" apart (no straight-line measure of the engine reaches across: charges, Deep Strike)
    g = new_game()
    deck, sub = g.map.layout.boards
    assert (deck.name, sub.name) == ("Deck Level", "Sub-level")
    assert sub.rect.x0 - deck.rect.x1 > 12.0
    assert not g.map.layout.connected(deck.rect.centre, sub.rect.centre)
    for a in g.map.layout.areas_of("Access Zone"):
        other = partner(g, a)
        assert other is not None and other.board != a.board and other.label == a.label


def test_no_shot_or_charge_across_levels() -> None:
    # Multi-level: units on one board are not visible to those on the other
    g = new_game()
    deploy(g)
    only(g, "A3", "B3")
    cross_at(g, "A3", zone(g, "A", "Deck Level").centre)
    cross_at(g, "B3", zone(g, "B", "Sub-level").centre)  # (matching Access Zones would fight)
    a3, b3 = g.units["A3"], g.units["B3"]
    assert not sight.visible_idx(g, a3, b3) and positions.unit_distance(g, a3, b3) == math.inf
    steps = []
    while g.round < 2:
        steps.append((g.decision.player, g.decision.step))
        decline(g)
    # no target to shoot or charge, in either player's turn
    assert ("A", "manoeuvre") in steps and not {s for _, s in steps} & {"shoot", "charge", "fight"}


# --- Set Defence, Underdog Bonus, Focused Operatives ---------------------------------------------------

def test_set_defence_the_defender_has_the_first_turn() -> None:
    # "Set Defence: The Defender has the first turn." (the first-turn roll-off is not made)
    g = new_game()
    deploy(g)
    assert g.first == "B" and g.role["B"] == "Defender"
    assert any(e["e"] == "first_turn" and e["why"] == "Set Defence" for e in g.events)


def test_underdog_bonus_one_additional_cp() -> None:
    # "Underdog Bonus: If one player is the Underdog, that player starts the battle with 1 additional CP."
    g = new_game(NECRONS)
    assert g.underdog == "B"
    assert [e for e in g.events if e["e"] == "cp" and e["why"] == "Underdog Bonus"] == [
        {"e": "cp", "player": "B", "gain": 1, "cp": g.cp["B"], "why": "Underdog Bonus"}]
    even = new_game(GK)  # 500 points against 500: no Underdog
    assert even.underdog is None and not any(e["e"] == "cp" and e["why"] == "Underdog Bonus" for e in even.events)


def test_focused_operatives_any_unit_may_secure_site() -> None:
    # "Focused Operatives: Any unit can perform the Secure Site Tactical Manoeuvre on an objective
    # marker, regardless of whether that unit has the BATTLELINE keyword or not."
    g = new_game()
    purifiers = g.units["A5"]
    assert "BATTLELINE" not in purifiers.keywords
    assert all(g.mission.secure_reason(g, purifiers, i) is None for i in range(len(g.map.layout.markers)))
    # on another mission the same unit may not
    other = Game(12, copy.deepcopy(_army("A", GK)), copy.deepcopy(_army("B", ORKS)), dice=Dice.scripted([]),
                 rolloffs={"attacker": "A"})
    assert other.mission.secure_reason(other, other.units["A5"], 0) == "is not BATTLELINE"


# --- Change Level -----------------------------------------------------------------------------------

def rule_offers(g: Game, player: str, until: str) -> list[list[str]]:
    """Decline every decision until ``player`` decides ``until``; the Change Level offers seen."""
    seen = []
    for _ in range(300):
        d = g.decision
        if d.step == until and d.player == player:
            return seen
        if d.step == "rule" and d.info.get("rule") == "Change Level":
            seen.append(list(d.info["options"]))
        decline(g)
    raise AssertionError(f"never reached {until}")


def test_change_level_sets_the_unit_up_in_the_matching_access_zone() -> None:
    # "Change Level: At the end of each players Movement phase, one or more units from that
    # players army can, if every model in that unit is within an Access Zone, change level. ...
    # set it up with every model within the corresponding Access Zone on the other game board"
    g = new_game()
    deploy(g)
    deck_a, sub_a = zone(g, "A", "Deck Level"), zone(g, "A", "Sub-level")
    cross_at(g, "A3", deck_a.centre)
    advance_to(g, "rule", "A")
    assert g.phase == "movement" and g.decision.info == {"rule": "Change Level", "options": ["A3"]}
    g.apply(Action("rule", arg="A3"))
    a3 = g.units["A3"]
    assert all(sub_a.within(m.base) for m in a3.models)
    assert access_zone_of(g, a3) is sub_a
    ev = next(e for e in g.events if e["e"] == "change_level")
    assert (ev["unit"], ev["level"], ev["left"]) == ("A3", "Sub-level", "Deck Level")
    # once a phase: it stands in an Access Zone again, but is not offered again
    assert g.decision.step != "rule"
    # it was set up this turn: no Tactical Manoeuvre ("must not have been set up on the battlefield this turn")
    assert shooting.manoeuvre_reason(g, a3) == "it was set up on the battlefield this turn"


def test_change_level_only_when_every_model_is_within_an_access_zone() -> None:
    g = new_game()
    deploy(g)
    deck_a = zone(g, "A", "Deck Level")
    x, y = deck_a.centre
    # four models within the Access Zone, the fifth outside it (in Unit Coherency)
    place(g, "A3", [(x, y), (x, y + 1.4), (x, y - 1.4), (x - 1.4, y), (x - 3.6, y)])
    assert access_zone_of(g, g.units["A3"]) is None
    assert rule_offers(g, "A", "manoeuvre") == []
    # a model partly within (its base overlapping the Zone) is within it: Core Rules "within"
    g = new_game()
    deploy(g)
    place(g, "A3", [(x, y), (x, y + 1.4), (x, y - 1.4), (x - 1.4, y), (x - 2.6, y)])
    assert deck_a.within(g.units["A3"].models[-1].base) and not deck_a.wholly_within(g.units["A3"].models[-1].base)
    assert rule_offers(g, "A", "manoeuvre") == [["A3"]]


def test_change_level_may_be_declined_and_is_only_in_your_own_movement_phase() -> None:
    g = new_game()
    deploy(g)
    cross_at(g, "A3", zone(g, "C", "Deck Level").centre)
    # the Defender's turn first (Set Defence): nothing is offered to A
    assert rule_offers(g, "B", "shoot") == []
    assert rule_offers(g, "A", "manoeuvre") == [["A3"]]  # declined by rule_offers
    assert access_zone_of(g, g.units["A3"]).board == "Deck Level"


def test_change_level_not_offered_without_room_in_the_other_access_zone() -> None:
    # it must be offered only when it can be made: every model within the corresponding Access Zone
    g = new_game()
    deploy(g)
    cross_at(g, "A3", zone(g, "B", "Deck Level").centre)
    a3 = g.units["A3"]
    assert may_change_level(g, "A", []) == ["A3"] and destination(g, a3) is not None
    assert may_change_level(g, "A", ["A3"]) == []  # once a phase
    # twenty bases fill the Sub-level's Access Zone B and the ring around it a base could overlap
    x0, y0, x1, y1 = zone(g, "B", "Sub-level").box
    fill = [(x0 - 0.6 + 1.27 * i, y0 - 0.6 + 1.27 * j) for j in range(5) for i in range(4)]
    for k, uid in enumerate(("A4", "A5", "B3", "B4")):
        place(g, uid, fill[5 * k:5 * k + 5])
    assert destination(g, a3) is None and may_change_level(g, "A", []) == []


def test_change_level_within_engagement_range_fights_but_not_as_a_charge() -> None:
    # "When setting a unit up in this way, it can set it up within Engagement Range of enemy units.
    # If this happens, then those units will be eligible to fight during the subsequent Fight phase,
    # but none of them count as having made a charge move this turn."
    g = new_game(dice=Dice(3))
    deploy(g)
    only(g, "A3", "B3")
    advance_to(g, "move", "A")
    sub_a = zone(g, "A", "Sub-level")
    x, y = sub_a.centre
    place(g, "B3", [(x + 1.6, y + 1.3), (x + 1.6, y - 0.1)])
    cross_at(g, "A3", zone(g, "A", "Deck Level").centre)
    advance_to(g, "rule", "A")
    g.apply(Action("rule", arg="A3"))
    a3, b3 = g.units["A3"], g.units["B3"]
    assert all(sub_a.within(m.base) for m in a3.models)
    assert positions.engaged(g, a3, b3)  # set up within Engagement Range
    advance_to(g, "fight", "B")
    assert not a3.charged and not fight.fights_first(a3)
    assert fight.can_fight(g, a3) and fight.can_fight(g, b3)
    assert {(a.unit, a.target) for a in g.legal_actions()} == {("B3", "A3")}


# --- Fighting Between Decks ----------------------------------------------------------------------------

def across(g: Game, label: str = "A", other: str = "A") -> tuple[Any, Any]:
    """A3 in Access Zone ``label`` of the Deck Level, B3 in ``other`` of the Sub-level, nobody else."""
    deploy(g)
    only(g, "A3", "B3")
    cross_at(g, "A3", zone(g, label, "Deck Level").centre)
    cross_at(g, "B3", zone(g, other, "Sub-level").centre)
    return g.units["A3"], g.units["B3"]


def test_fighting_between_decks_in_matching_access_zones() -> None:
    # "Fighting Between Decks: During the Fight phase, while a model is within an Access Zone it
    # counts as visible to and within Engagement Range of any opposing models that are within the
    # corresponding Access Zone on the other game board. This means that those models' units are
    # eligible to fight and can make melee attacks against one another."
    g = new_game(dice=Dice(11))
    a3, b3 = across(g)
    while g.decision.step == "use":  # the Orks' Waaagh! at the start of their Command phase: not called
        g.apply(Action("pass"))
    # not in the Movement phase (B's, the first turn): B3 is not within Engagement Range, so it
    # may make a Normal move
    assert g.decision.step == "move" and g.decision.player == "B"
    assert positions.engaged_with(g, b3) == [] and fight.fight_foes(g, b3) == []
    assert any(a.kind == "move" and a.unit == "B3" for a in g.legal_actions())
    advance_to(g, "fight", "A")  # Remaining Combats: the player whose turn it is not selects first
    assert not positions.engaged(g, a3, b3) and fight.fight_foes(g, a3) == [b3] and fight.fight_foes(g, b3) == [a3]
    assert {(a.unit, a.target) for a in g.legal_actions()} == {("A3", "B3")}
    wounds = sum(m.wounds for m in b3.models)
    g.apply(Action("fight", "A3", target="B3"))
    settle(g)
    attacks = [e for e in g.events if e["e"] == "attack" and e["unit"] == "A3"]
    assert attacks and attacks[0]["target"] == "B3" and attacks[0]["attacks"] >= 5
    fought = next(e for e in g.events if e["e"] == "fight" and e["unit"] == "A3")
    assert fought["fighters"] == 5
    assert sum(m.wounds for m in b3.models) == wounds - sum(e["lost"] for e in attacks)


def test_no_fighting_between_access_zones_that_do_not_match() -> None:
    g = new_game()
    a3, b3 = across(g, "A", "B")
    steps = []
    while g.round < 2:
        steps.append(g.decision.step)
        decline(g)
    assert "fight" not in steps and not fight.fight_foes(g, a3)


def test_pile_in_between_decks_ends_closer_to_the_centre_of_the_access_zone() -> None:
    # "Each time a model in such a unit makes a pile-in or consolidation move, that model can move
    # in any direction but must end that move closer to the centre of that Access Zone."
    g = new_game(dice=Dice(5))
    deploy(g)
    only(g, "A3", "B3")
    deck_a = zone(g, "A", "Deck Level")
    x, y = deck_a.centre
    cross_at(g, "B3", zone(g, "A", "Sub-level").centre)
    # three models within the Access Zone; two outside it, below (the Zone is 4.29" high)
    place(g, "A3", [(x, y), (x - 1.4, y), (x + 1.4, y), (x, y + 2.9), (x - 1.4, y + 2.9)])
    a3 = g.units["A3"]
    outside = [m for m in a3.models if not deck_a.within(m.base)]
    assert len(outside) == 2
    before = [math.dist((m.x, m.y), deck_a.centre) for m in outside]
    advance_to(g, "fight", "A")
    g.apply(Action("fight", "A3", target="B3"))
    settle(g)
    pile = next(e for e in g.events if e["e"] == "pile_in" and e["unit"] == "A3")
    assert pile["toward"] == "B3"
    survivors = [m for m in outside if m in a3.models]
    assert survivors and all(math.dist((m.x, m.y), deck_a.centre) < d for m, d in zip(outside, before)
                             if m in survivors)


# --- Access the Data ---------------------------------------------------------------------------------

def markers(g: Game, label: str) -> list[int]:
    return [i + 1 for i, m in enumerate(g.map.layout.markers) if m.label == label]


def on(g: Game, uid: str, marker: int) -> None:
    """Unit ``uid`` on objective marker ``marker`` (numbered from 1), from Reserves if need be."""
    m = g.map.layout.markers[marker - 1]
    u = g.units[uid]
    if u.where != "board":
        u.where, u.models = "board", u.new_models([(m.x, m.y)] * u.starting)
    cross_at(g, uid, (m.x, m.y))


@pytest.mark.parametrize("generators,terminals,vp", [(1, 2, 10), (2, 2, 20), (2, 1, 10), (0, 2, 0), (1, 0, 0)])
def test_access_the_data_one_terminal_per_generator(generators: int, terminals: int, vp: int) -> None:
    # "ACCESS THE DATA: At the end of the Attackers Command phase, for each Generator objective
    # marker they control, they can select one Terminal objective marker to be powered up until the
    # end of the turn, and then for each powered up Terminal objective marker they control, they
    # score 10VP."
    g = new_game()
    deploy(g)
    only(g, "A2", "A3", "A4", "A5")
    units = iter(["A3", "A4", "A5", "A2"])
    for i in markers(g, "Generator")[:generators] + markers(g, "Terminal")[:terminals]:
        on(g, next(units), i)
    advance_to(g, "move", "A")
    assert [v for *_, p, v in scored(g, "Access the Data")] == ([10] * (vp // 10))
    assert all(p == "A" for *_, p, _ in scored(g, "Access the Data"))
    powered = [e for e in g.events if e["e"] == "powered"]
    assert [len(e["terminals"]) for e in powered] == ([vp // 10] if vp else [])


def test_access_the_data_timing_and_the_defender_never_scores_it() -> None:
    # every Attacker's Command phase, the first round included; "In the fifth battle round, the
    # Attacker does this at the end of their turn, instead of at the end of their Command phase."
    g = new_game()
    deploy(g)
    only(g, "A3", "A4", "B3", "B4")
    on(g, "A3", markers(g, "Generator")[0])
    on(g, "A4", markers(g, "Terminal")[0])
    on(g, "B3", markers(g, "Generator")[1])  # the Defender holds markers too: it never scores them
    on(g, "B4", markers(g, "Terminal")[1])
    finish(g)
    got = scored(g, "Access the Data")
    assert [(r, t, ph, p, v) for r, t, ph, p, v in got] == \
        [(r, "A", "command", "A", 10) for r in range(1, 5)] + [(5, "A", "fight", "A", 10)]


# --- Rout and Crush Them ------------------------------------------------------------------------------

@pytest.mark.parametrize("points,vp", [(0, 0), (124, 0), (125, 15), (249, 15), (250, 40), (374, 40),
                                       (375, 60), (499, 60), (500, 80), (620, 80)])
def test_rout_and_crush_them_table(points: int, vp: int) -> None:
    # "ROUT AND CRUSH THEM: At the end of the battle, total the points values of the Attackers units
    # that are destroyed. The Defender scores ...: 0-124: 0, 125-249: 15, 250-374: 40, 375-499: 60,
    # 500: 80" (the last row read as 500 or more)
    g = new_game()
    g.apply(Action("role", arg="attacker"))
    g.destroyed_points = lambda p: points  # type: ignore[method-assign]
    assert sum(v for v, _ in _rout_and_crush_them(g, "B")) == vp
    assert _rout_and_crush_them(g, "A") == []  # the Attacker never scores it


def test_rout_and_crush_them_20vp_for_the_attackers_warlord() -> None:
    # "In addition, at the end of the battle, the Defender scores 20VP if the Attackers WARLORD is destroyed."
    g = new_game()
    deploy(g)
    warlord = g.units["A1"]
    assert warlord.warlord and warlord.points == 65
    warlord.where, warlord.models = "destroyed", []
    kept.touch(g, warlord)
    finish(g)
    # (units left in Strategic Reserves are destroyed after round 3 and count too)
    table = [v for v, _ in _rout_and_crush_them(g, "B")][:-1]
    assert g.destroyed_points("A") >= 65
    assert [(p, v) for *_, p, v in scored(g, "Rout and Crush Them")] == [("B", v) for v in table] + [("B", 20)]


# --- the greedy bot ------------------------------------------------------------------------------------

def test_greedy_attacker_heads_for_the_generators_through_an_access_zone() -> None:
    # holding a Terminal and no Generator, the Attacker's unit on the Deck Level heads for the
    # Access Zone that leads down to the nearest Generator, and changes level there
    g = new_game()
    deploy(g)
    only(g, "A3", "A4")
    on(g, "A4", markers(g, "Terminal")[0])
    cross_at(g, "A3", zone(g, "A", "Deck Level").centre)
    advance_to(g, "move", "A")
    bot = GreedyBot()
    a3 = g.units["A3"]
    assert g.map.layout.board_at(bot.target(g, a3)).name == "Sub-level"
    assert bot.goal(g, a3) == zone(g, "A", "Deck Level").centre
    decline(g)
    while g.decision.step != "rule":
        decline(g)
    assert bot(g) == Action("rule", arg="A3")
    g.apply(bot(g))
    assert access_zone_of(g, a3).board == "Sub-level"


def test_greedy_games_on_mission_5_change_level_and_score_the_data() -> None:
    from bagm.engine.log.record import play_bots

    changed, scored = 0, []
    for seed in range(8):
        rec = play_bots(5, GK, ORKS, seed)
        changed += sum(1 for x in rec.lines if '"change_level"' in x)
        scored.append(sum(1 for x in rec.lines if "Access the Data:" in x))
    assert changed >= 3 and min(scored) >= 3  # the Attacker scores the data in every game


def test_the_unit_by_unit_answer_is_the_model_by_model_one() -> None:
    # Fighting Between Decks is asked unit by unit (quickly) and model by model (which models
    # fight, which pile in): the two agree wherever the units stand
    import random

    from bagm.engine.rules.missions.power_the_generators import _fight_units, _linked

    g = new_game()
    a3, b3 = across(g)
    advance_to(g, "fight", "A")
    rng = random.Random(5)
    zones = g.map.layout.areas_of("Access Zone")
    seen = set()
    for _ in range(40):
        for uid in ("A3", "B3"):
            z = rng.choice(zones)
            x, y = z.centre
            cross_at(g, uid, (x + rng.uniform(-3, 3), y + rng.uniform(-3, 3)))
        pairwise = any(_linked(g, m.base, n.base) for m in a3.models for n in b3.models)
        assert (_fight_units(g, a3) == [b3]) == pairwise == (_fight_units(g, b3) == [a3])
        seen.add(pairwise)
    assert seen == {True, False}
