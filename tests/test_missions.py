"""The missions as registered entries: each Mission Rule and Objective against the book's text
(Boarding Actions, October 2024, "Symmetric Missions" and "Asymmetric Missions"), with scripted
dice (every scripted roll must be consumed; a roll nobody scripted fails the test)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from conftest import REPO, advance_to, place, until_finished, without_rules

from bagm.chance.dice import Dice
from bagm.engine.bots import make_bot
from bagm.engine.game import deployment, kept, positions
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules.missions import MISSIONS, STEPS, get_mission
from bagm.engine.state.actions import Action

GK = REPO / "rosters" / "grey_knights_void_purge_force.yaml"  # 500 pts, WARLORD A1
ORKS = REPO / "rosters" / "orks_kaptin_killers.yaml"  # 470 pts: no Underdog
NECRONS = REPO / "rosters" / "necrons_harbinger_cabal.yaml"  # 440 pts: the Underdog against GK


@cache
def _army(player: str, path: Any) -> Any:
    # without the test armies' Detachment rules: the Mission Rules under test alone
    return build_army(player, path, without_rules())


def new_game(mission: int, b: Any = ORKS, dice: list[int] | None = None,
             rolloffs: dict[str, str] | None = None) -> Game:
    """A game of ``mission``, GK (A, the Attacker) against ``b``; scripted dice (none by default:
    any roll fails the test)."""
    return Game(mission, copy.deepcopy(_army("A", GK)), copy.deepcopy(_army("B", b)),
                dice=Dice.scripted(dice or []),
                rolloffs=rolloffs or {"attacker": "A", "first_turn": "A"})


def deploy(g: Game) -> None:
    """The roles (A the Attacker) and Deploy Armies by the greedy bot (it rolls no dice); no army
    rule called at the start of the first battle round."""
    bot = make_bot("greedy", 0)
    while g.decision.step in ("roles", "deploy"):
        g.apply(Action("role", arg="attacker") if g.decision.step == "roles" else bot(g))
    while g.decision.step == "use" and g.decision.info.get("timing") == "round_start":
        g.apply(Action("pass"))  # an army rule called at the start of the battle round (Void Waaagh!): not


def on_marker(g: Game, uid: str, marker: int) -> None:
    """Unit ``uid`` in a tight cross on objective marker ``marker`` (numbered from 1)."""
    m = g.map.layout.markers[marker - 1]
    cross = [(0.0, 0.0), (0.0, 1.4), (0.0, -1.4), (1.4, 0.0), (-1.4, 0.0)]
    place(g, uid, [(m.x + dx, m.y + dy) for dx, dy in cross[:len(g.units[uid].models)]])


def scored(g: Game, name: str) -> list[tuple[int, str, str, str, int]]:
    """VP events of objective ``name``: (round, whose turn, phase, scorer, VP)."""
    out, rnd, turn, phase = [], 0, "", ""
    for e in g.events:
        if e["e"] == "round":
            rnd = e["round"]
        elif e["e"] == "turn":
            turn, phase = e["player"], "start"
        elif e["e"] == "phase":
            phase = e["phase"]
        elif e["e"] == "vp" and e["why"].startswith(name + ":"):
            out.append((rnd, turn, phase, e["player"], e["vp"]))
    return out


def to_round(g: Game, rnd: int, player: str = "A", step: str = "move") -> None:
    """Decline every decision until ``player`` decides ``step`` in battle round ``rnd``."""
    for _ in range(100):
        advance_to(g, step, player)
        if g.round == rnd:
            return
        g.apply(Action("done"))
    raise AssertionError(f"never reached round {rnd}")


def finish(g: Game) -> None:
    """Decline every decision to the end of the battle."""
    for _ in until_finished(g):
        d = g.decision
        g.apply(Action("done") if d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
                else Action("pass"))


# --- the registry -----------------------------------------------------------------------------

def test_every_mission_entry_cites_its_book_section_and_hooks_on_known_steps() -> None:
    assert len(MISSIONS) >= 4
    for entry in MISSIONS:
        m = get_mission(entry.number)
        assert (m.number, m.name) == (entry.number, entry.name)
        assert get_mission(entry.name).number == entry.number
        for r in m.rules:
            # (a rule acting at two steps has a second entry: "Rad Exposure (end of the round)")
            assert r.section.startswith(("Symmetric Mission", "Asymmetric Mission")) and \
                r.name.split(" (")[0] in r.section
            assert r.step is None or r.step in STEPS
        for o in m.objectives:
            assert o.section.startswith(("Symmetric Mission", "Asymmetric Mission")) and o.name in o.section
            assert set(o.steps) <= set(STEPS) and o.kind in ("progressive", "end_game")


def test_a_mission_not_yet_playable_is_refused_naming_the_playable_ones() -> None:
    with pytest.raises(ValueError, match="mission 99 is not playable yet; playable: 11 Access"):
        get_mission(99)


# --- the shared timing: rounds 2-4 at the end of the Command phase, round 5 ------------------

@pytest.mark.parametrize("first", ["A", "B"])
def test_take_and_hold_timing(first: str) -> None:
    # Mission 12 "Take and Hold": rounds 2-4 at the end of each player's Command phase; round 5:
    # the first player at the end of their Command phase, the second at the end of their turn
    g = new_game(12, rolloffs={"attacker": "A", "first_turn": first})
    deploy(g)
    on_marker(g, "A3", 1)
    on_marker(g, "A4", 2)
    on_marker(g, "B3", 3)
    finish(g)
    got = scored(g, "Take and Hold")
    second = "B" if first == "A" else "A"
    when = sorted({(r, turn, phase) for r, turn, phase, _, _ in got})
    assert when == sorted([(r, p, "command") for r in (2, 3, 4) for p in "AB"] +
                          [(5, first, "command"), (5, second, "fight")])
    # A: one or more (5), more than the opponent (5); B: one or more (5), each time in its own turn
    assert all(turn == scorer for _, turn, _, scorer, _ in got)
    assert sum(v for *_, p, v in got if p == "A") == 4 * 10
    assert sum(v for *_, p, v in got if p == "B") == 4 * 5


def test_sweep_the_decks_scores_15_per_marker_at_the_end() -> None:
    # Mission 12 "Sweep the Decks": at the end of the battle, 15VP per objective marker controlled
    g = new_game(12)
    deploy(g)
    on_marker(g, "A3", 1)
    on_marker(g, "A4", 2)
    on_marker(g, "B3", 3)
    finish(g)
    assert [(p, v) for *_, p, v in scored(g, "Sweep the Decks")] == [("A", 15), ("A", 15), ("B", 15)]


def test_deck_sweepers_underdog_entry_zone_in_deploy_armies_only() -> None:
    # Mission 12 "Underdog Bonus": the Underdog may also use the Underdog Entry Zone in Deploy
    # Armies; once the battle has begun, not for Strategic Reserves
    g = new_game(12, b=NECRONS)
    assert g.underdog == "B"
    g.apply(Action("role", arg="attacker"))
    zones = {a.arg for a in g.legal_actions() if a.kind == "deploy"}
    assert zones == {"1", "2", "3", "4"}  # B (the Defender): three Entry Zones and the Underdog's
    g.apply(Action("deploy", "B3", arg="4"))
    assert g.units["B3"].where == "board"
    uz = g.map.layout.entry_zones_of("Defender", "Underdog")[0]
    assert all(uz.within(m.base) for m in g.units["B3"].models)
    assert {a.arg for a in g.legal_actions() if a.kind == "deploy"} == {"1", "2", "3"}  # A: no Underdog zone
    with pytest.raises(IllegalAction):
        g.check(Action("deploy", "A3", arg="4"))
    deploy(g)
    assert g.phase != "deploy"
    assert len(deployment.entry_zones(g, "B")) == 3 and all(z.kind == "Entry Zone" for z in deployment.entry_zones(g, "B"))


def test_regulate_the_flow_pairs_labelled_a_and_b() -> None:
    # Mission 13 "Regulate the Flow": 1+, 2+, more than the opponent, both A, both B
    g = new_game(13)
    deploy(g)
    a, b = [i + 1 for i, m in enumerate(g.map.layout.markers) if m.label == "A"], \
        [i + 1 for i, m in enumerate(g.map.layout.markers) if m.label == "B"]
    on_marker(g, "A3", a[0])
    on_marker(g, "A4", a[1])
    on_marker(g, "B3", b[0])
    to_round(g, 2, "A")
    got = [(p, v) for r, *_, p, v in scored(g, "Regulate the Flow")]
    assert got == [("A", 5)] * 4  # 1+, 2+, more than B, both A
    why = [e["why"] for e in g.events if e["e"] == "vp"]
    assert "Regulate the Flow: controls both objective markers labelled A" in why
    to_round(g, 2, "B")
    assert [v for r, t, _, p, v in scored(g, "Regulate the Flow") if p == "B"] == [5]  # 1+ only


def test_power_network_directly_linked_markers() -> None:
    # Mission 21 "Power Network": two or more markers directly linked by the Power Lines
    g = new_game(21)
    deploy(g)
    idx = {m.label: i + 1 for i, m in enumerate(g.map.layout.markers)}
    on_marker(g, "A3", idx["L1"])
    on_marker(g, "A4", idx["R1"])  # not directly linked to L1 (C lies between)
    on_marker(g, "B3", idx["R2"])
    on_marker(g, "B4", idx["C"])  # directly linked to R2
    to_round(g, 2, "A", "move")
    advance_to(g, "move", "B")
    got = scored(g, "Power Network")
    assert [v for *_, p, v in got if p == "A"] == [5, 5]  # 1+, 2+ (no link, not more)
    assert [v for *_, p, v in got if p == "B"] == [5, 5, 5]  # 1+, 2+, linked C-R2
    assert any("directly linked" in e["why"] for e in g.events if e["e"] == "vp" and e["player"] == "B")


def test_cut_off_the_head_scores_when_the_opponents_warlord_is_destroyed() -> None:
    # Mission 21 "Cut Off the Head": at the end of the battle, 10VP if the opponent's WARLORD is destroyed
    g = new_game(21)
    g.apply(Action("role", arg="attacker"))
    for z, (b, a) in enumerate([("B1", "A1"), ("B3", "A3"), ("B4", "A4")]):  # both WARLORDs set up
        g.apply(Action("deploy", b, arg=str(z + 1)))
        g.apply(Action("deploy", a, arg=str(z + 1)))
    warlord = g.units["B1"]
    assert warlord.warlord and g.units["A1"].warlord
    warlord.where, warlord.models = "destroyed", []
    kept.touch(g, warlord)
    finish(g)
    assert [(p, v) for *_, p, v in scored(g, "Cut Off the Head")] == [("A", 10)]


# --- 31 Control Centre -------------------------------------------------------------------------

def steps_until_move(g: Game, rnd: int = 2, player: str = "A") -> list[str]:
    """Decline every decision until ``player``'s Move Units step in round ``rnd``; the steps
    seen on the way."""
    seen = []
    while not (g.decision.step == "move" and g.decision.player == player and g.round == rnd):
        d = g.decision
        seen.append(d.step)
        g.apply(Action("done") if d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
                else Action("pass"))
    return seen


def marker_index(g: Game, label: str) -> int:
    return next(i + 1 for i, m in enumerate(g.map.layout.markers) if m.label == label)


def test_unlock_overrides_opens_every_hatchway() -> None:
    # Mission 31 "Unlock Overrides": controlling B with a unit in range (not Battle-shocked, not
    # in Engagement Range), the player can open every Hatchway (no roll-off can prevent it)
    g = new_game(31)
    deploy(g)
    on_marker(g, "A3", marker_index(g, "B"))
    closed = [h.index for h in g.map.layout.hatchways if not g.bf.is_open(h.index)]
    assert closed
    advance_to(g, "rule", "A")
    assert g.round == 2 and g.phase == "command"  # (round 1's Command phase was before on_marker)
    assert g.decision.info["rule"] == "Unlock Overrides"
    assert [a.text() for a in g.legal_actions()] == ["rule Unlock Overrides", "pass"]
    g.apply(Action("rule", arg="Unlock Overrides"))
    assert all(g.bf.is_open(h.index) for h in g.map.layout.hatchways)
    ev = next(e for e in g.events if e["e"] == "hatchways")
    assert ev["hatchways"] == [i + 1 for i in closed] and ev["why"] == "Unlock Overrides"


def test_unlock_overrides_may_be_declined() -> None:
    g = new_game(31)
    deploy(g)
    on_marker(g, "A3", marker_index(g, "B"))
    advance_to(g, "rule", "A")
    before = g.bf.closed_mask
    g.apply(Action("pass"))
    assert g.bf.closed_mask == before


def test_unlock_overrides_not_offered_to_a_battle_shocked_unit() -> None:
    g = new_game(31, dice=[1, 1])  # A3's Battle-shock test: 2 on 2D6, failed
    deploy(g)
    on_marker(g, "A3", marker_index(g, "B"))
    place(g, "A3", [(m.x, m.y) for m in g.units["A3"].models[:2]])  # Below Half-strength
    seen = steps_until_move(g)
    assert g.units["A3"].battleshocked and "rule" not in seen


def test_unlock_overrides_not_offered_while_engaged_or_without_b() -> None:
    from bagm.engine.rules.missions.control_centre import may_unlock

    g = new_game(31)
    deploy(g)
    b = g.map.layout.markers[marker_index(g, "B") - 1]
    on_marker(g, "A3", marker_index(g, "B"))
    advance_to(g, "rule", "A")
    assert may_unlock(g, "A")
    x = b.x + 1.4 + g.units["A3"].radius + g.units["B5"].radius + 0.5  # within 1" of A3's model
    place(g, "B5", [(x, b.y), (x + 1.7, b.y - 0.9), (x + 1.7, b.y + 0.9)])
    assert positions.engaged_with(g, g.units["A3"]) and g.control[marker_index(g, "B") - 1] == "A"
    assert not may_unlock(g, "A")  # its only unit in range is within Engagement Range
    g2 = new_game(31)
    deploy(g2)
    on_marker(g2, "A3", marker_index(g2, "A"))  # marker A, not B
    assert "rule" not in steps_until_move(g2)


@pytest.mark.parametrize("mission,name", [(22, "Lock It Down!"), (23, "Temporary Stabilisation"),
                                          (33, "Urgent Takeover")])
def test_the_one_two_more_progressive_objectives(mission: int, name: str) -> None:
    # Missions 22 "Lock It Down!", 23 "Temporary Stabilisation", 33 "Urgent Takeover": from the
    # second round, at the end of your Command phase, 5VP each for controlling one or more
    # objective markers, two or more, and more than your opponent (our maps' markers 1 and 2)
    g = new_game(mission, dice=[2] * 60)  # no roll of these missions' rules changes control here
    deploy(g)
    on_marker(g, "A3", 1)
    to_round(g, 2, "A")
    assert [e["why"] for e in g.events if e["e"] == "vp"] == [
        f"{name}: controls 1+ objective markers", f"{name}: controls more objective markers than the opponent"]
    on_marker(g, "A4", 2)
    to_round(g, 3, "A")
    assert [e["why"] for e in g.events if e["e"] == "vp"][2:] == [
        f"{name}: controls 1+ objective markers", f"{name}: controls 2+ objective markers",
        f"{name}: controls more objective markers than the opponent"]


def test_secure_at_all_costs_scores_marker_a() -> None:
    # Mission 31 "Secure at All Costs": 1+, 2+, more than the opponent, objective marker A
    g = new_game(31)
    deploy(g)
    on_marker(g, "A3", marker_index(g, "A"))
    to_round(g, 2, "A")
    why = [e["why"] for e in g.events if e["e"] == "vp"]
    assert why == ["Secure at All Costs: controls 1+ objective markers",
                   "Secure at All Costs: controls more objective markers than the opponent",
                   "Secure at All Costs: controls objective marker A"]


# --- 3 Strongrooms -----------------------------------------------------------------------------

def test_guard_duty_sets_a_unit_up_in_each_strongroom_before_deploy_armies() -> None:
    # Mission 3 "Guard Duty": at the start of Deploy Armies, for each Strongroom the Defender
    # sets up one unit wholly within it; "Rapid Offence": the Attacker has the first turn
    g = new_game(3, rolloffs={"attacker": "A"})  # no first-turn roll-off: Rapid Offence
    g.apply(Action("role", arg="attacker"))
    rooms = g.map.layout.areas_of("Strongroom")
    assert len(rooms) == 2
    d = g.decision
    assert (d.step, d.player, d.info["rule"], d.info["area"]) == ("rule", "B", "Guard Duty", rooms[0].name)
    assert "pass" not in [a.text() for a in g.legal_actions()]  # the Defender must set one up
    with pytest.raises(IllegalAction):
        g.check(Action("rule", arg="A3"))  # not a Defender unit
    g.apply(Action("rule", arg="B3"))
    assert all(rooms[0].within(m.base) for m in g.units["B3"].models)
    assert g.decision.info["area"] == rooms[1].name
    assert "B3" not in g.decision.info["options"]
    g.apply(Action("rule", arg="B4"))
    assert all(rooms[1].within(m.base) for m in g.units["B4"].models)
    assert (g.decision.step, g.decision.player) == ("deploy", "B")  # then Deploy Armies as usual
    deploy(g)
    assert g.first == "A" and not any(e["e"] == "rolloff" and e["what"] == "first_turn" for e in g.events)
    assert g.units["B3"].where == g.units["B4"].where == "board"


def test_they_are_ours_45_per_marker_for_the_attacker_only() -> None:
    # Mission 3 "They Are Ours": at the end of the battle, the Attacker scores 45VP per marker
    g = new_game(3, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    g.apply(Action("rule", arg="B3"))
    g.apply(Action("rule", arg="B4"))
    deploy(g)
    on_marker(g, "A3", 1)  # in Strongroom 1, whose guard B3 has been destroyed
    g.units["B3"].models = []
    g.units["B3"].where = "destroyed"
    kept.touch(g, g.units["B3"])
    finish(g)
    assert [(p, v) for *_, p, v in scored(g, "They Are Ours")] == [("A", 45)]


@pytest.mark.parametrize("points,vp", [(0, 0), (124, 0), (125, 30), (249, 30), (250, 60), (374, 60),
                                       (375, 90), (500, 90)])
def test_purge_the_thieves_table(points: int, vp: int) -> None:
    # Mission 3 "Purge the Thieves": 0-124: 0VP, 125-249: 30VP, 250-374: 60VP, 375+: 90VP
    from bagm.engine.rules.missions.strongrooms import _purge_the_thieves

    g = new_game(3, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    g.destroyed_points = lambda p: points  # type: ignore[method-assign]
    assert sum(v for v, _ in _purge_the_thieves(g, "B")) == vp
    assert _purge_the_thieves(g, "A") == []  # the Attacker never scores it


# --- 2 Pull Their Teeth ------------------------------------------------------------------------

def loaders_and_node(g: Game) -> tuple[list[int], int]:
    lay = g.map.layout.markers
    return [i + 1 for i, m in enumerate(lay) if m.label == "Loader"], \
        next(i + 1 for i, m in enumerate(lay) if m.label == "Control Node")


def test_destroy_ground_targets_moves_vp_from_the_attacker() -> None:
    # Mission 2 "Destroy Ground Targets": the Attacker starts with 60VP; at the start of the
    # Defender's Command phase, per Loader the Defender controls: 10VP from the Attacker to the
    # Defender with the Control Node, 5VP without it; "Rapid Offence": the Attacker goes first
    g = new_game(2, rolloffs={"attacker": "A"})
    deploy(g)
    assert g.vp == {"A": 60, "B": 0} and g.first == "A"
    loaders, node = loaders_and_node(g)
    on_marker(g, "B3", loaders[0])
    on_marker(g, "B4", loaders[1])
    advance_to(g, "move", "B")  # round 1, B's Command phase: two Loaders, no Control Node
    assert g.vp == {"A": 50, "B": 10}
    on_marker(g, "B5", node)
    to_round(g, 2, "B")  # two Loaders with the Control Node (A holds no marker: nothing for A)
    assert g.vp == {"A": 30, "B": 30}
    assert scored(g, "Seize the Guns") == []


def test_destroy_ground_targets_never_takes_the_attacker_below_zero() -> None:
    from bagm.engine.rules.missions.base import take_vp

    g = new_game(2, rolloffs={"attacker": "A"})
    deploy(g)
    g.vp["A"] = 5
    take_vp(g, "A", "B", 10, "Destroy Ground Targets: test")
    assert g.vp == {"A": 0, "B": 10}  # the Defender scores the whole 10VP


def test_seize_the_guns_at_the_start_of_the_attackers_command_phase() -> None:
    # Mission 2 "Seize the Guns": at the start of the Attacker's Command phase, 5VP for the Control Node
    g = new_game(2, rolloffs={"attacker": "A"})
    deploy(g)
    _, node = loaders_and_node(g)
    on_marker(g, "A3", node)
    to_round(g, 2, "A", "move")
    got = scored(g, "Seize the Guns")
    assert [(r, phase, p, v) for r, _, phase, p, v in got] == [(2, "command", "A", 5)]


def test_control_node_only_marker_secured_by_any_unit() -> None:
    # Mission 2 "Control Node": only the Control Node can be Secured, by any unit (BATTLELINE or not)
    g = new_game(2, rolloffs={"attacker": "A"})
    deploy(g)
    loaders, node = loaders_and_node(g)
    on_marker(g, "A3", node)
    on_marker(g, "A4", loaders[0])
    advance_to(g, "manoeuvre", "A")  # round 1: control is worked out at the end of the Movement phase
    legal = {a.text() for a in g.legal_actions()}
    assert f"manoeuvre A3 secure {node}" in legal
    assert f"manoeuvre A4 secure {loaders[0]}" not in legal
    assert "only objective marker that can be Secured" in str(
        g.mission.secure_reason(g, g.units["A4"], loaders[0] - 1))
    g5 = g.units["A5"]  # the Purifier Squad is not BATTLELINE: it may Secure the Control Node too
    assert "BATTLELINE" not in g5.keywords
    assert g.mission.secure_reason(g, g5, node - 1) is None
    assert g.mission.secure_reason(g, g5, loaders[0] - 1)


# --- 1 Void the Ship ---------------------------------------------------------------------------

def by_airlock(g: Game, uid: str, index: int) -> None:
    """Three models of ``uid`` just inside Airlock ``index`` (a Hatchway index from 0): on the
    ship's side of it, away from the Inaccessible Area (the void beyond the hull)."""
    h = g.map.layout.hatchways[index]
    void = g.map.layout.areas_of("Inaccessible Area")[0]
    (cx, cy), d = h.centre, h.door
    if h.horizontal:
        down = not void.contains_point((cx, d.y1 + 0.95))
        y = d.y1 + 0.95 if down else d.y0 - 0.95
        step = 1.4 if down else -1.4
        place(g, uid, [(cx, y), (cx, y + step), (cx + 1.4, y + step)])
    else:
        right = not void.contains_point((d.x1 + 0.95, cy))
        x = d.x1 + 0.95 if right else d.x0 - 0.95
        step = 1.4 if right else -1.4
        place(g, uid, [(x, cy), (x + step, cy), (x + step, cy + 1.4)])


def test_security_patrol_and_set_defence() -> None:
    # Mission 1 "Security Patrol": the Patrol Entry Zone is the Defender's in Deploy Armies only;
    # "Set Defence": the Defender has the first turn
    g = new_game(1, rolloffs={"attacker": "A"})
    g.apply(Action("role", arg="attacker"))
    assert {a.arg for a in g.legal_actions() if a.kind == "deploy"} == {"1", "2", "3", "4"}  # B: Defender
    patrol = g.map.layout.entry_zones_of("Defender", "Patrol")[0]
    assert deployment.entry_zones(g, "B")[3] is patrol
    g.apply(Action("deploy", "B3", arg="4"))
    assert {a.arg for a in g.legal_actions() if a.kind == "deploy"} == {"1", "2", "3"}  # A: the Attacker
    deploy(g)
    assert g.first == "B" and any(e["e"] == "first_turn" and e["why"] == "Set Defence" for e in g.events)
    assert patrol not in deployment.entry_zones(g, "B")  # not for Strategic Reserves once the battle has begun


def test_airlocks_only_the_attacker_opens_them_and_they_stay_open() -> None:
    # Mission 1 "Airlocks": only the Attacker can open an Airlock; once opened it cannot be closed;
    # "Maintain Ship Integrity": 20VP to the Attacker per open Airlock, to the Defender per closed one
    g = new_game(1, rolloffs={"attacker": "A"})
    deploy(g)
    locks = [h.index for h in g.map.layout.hatchways if h.label == "Airlock"]
    assert len(locks) == 4
    for u in g.armies["B"].units:  # the Defender's other units out of the way (no fights)
        if u.uid not in ("B3", "B4"):
            u.models, u.where = [], "destroyed"
            kept.touch(g, u)
    by_airlock(g, "B3", locks[1])
    by_airlock(g, "B4", locks[3])
    advance_to(g, "hatch", "B")
    with pytest.raises(IllegalAction, match="only the Attacker can open it"):
        g.check(Action("hatch", "B3", arg=str(locks[1] + 1)))
    g.apply(Action("done"))
    by_airlock(g, "A3", locks[0])
    advance_to(g, "hatch", "A")
    g.apply(Action("hatch", "A3", arg=str(locks[0] + 1)))
    advance_to(g, "move", "B")
    assert g.bf.is_open(locks[0])
    place(g, "A3", [(6.0, 14.0), (6.0, 15.4), (6.0, 16.8)])  # back to its own side
    by_airlock(g, "B4", locks[0])
    advance_to(g, "hatch", "B")
    with pytest.raises(IllegalAction, match="cannot be closed"):
        g.check(Action("hatch", "B4", arg=str(locks[0] + 1)))
    finish(g)
    assert sorted((p, v) for *_, p, v in scored(g, "Maintain Ship Integrity")) == [("A", 20)] + [("B", 20)] * 3


def test_exposed_to_the_void_no_model_enters_through_an_open_airlock() -> None:
    # Mission 1 "Exposed to the Void": "Models cannot enter the Inaccessible Area of the
    # battlefield for any reason" - not through an Airlock the Attacker has opened either
    g = new_game(1, rolloffs={"attacker": "A"})
    deploy(g)
    lock = next(h for h in g.map.layout.hatchways if h.label == "Airlock")
    void = g.map.layout.areas_of("Inaccessible Area")[0]
    for u in g.armies["B"].units:  # the Defender out of the way
        u.models, u.where = [], "destroyed"
        kept.touch(g, u)
    by_airlock(g, "A3", lock.index)
    advance_to(g, "hatch", "A")
    g.apply(Action("hatch", "A3", arg=str(lock.index + 1)))
    assert g.bf.is_open(lock.index)
    advance_to(g, "move", "A")
    beyond = (lock.centre[0], lock.centre[1] - 2.0) if lock.horizontal else (lock.centre[0] + 2.0, lock.centre[1])
    if not void.contains_point(beyond):
        beyond = (2 * lock.centre[0] - beyond[0], 2 * lock.centre[1] - beyond[1])
    assert void.contains_point(beyond)
    g.apply(Action("move", "A3", point=beyond))
    assert not any(void.within(m.base) for m in g.units["A3"].models)


# --- Determine Mission: --mission random ------------------------------------------------------

def test_random_mission_rolls_a_d33_or_a_d6() -> None:
    # Symmetric Missions step 2: a D33 (two D3s, tens then units); Asymmetric step 2: a D6
    from bagm.engine.rules.missions import resolve_mission, roll_mission

    sym = {roll_mission("symmetric", s)[0] for s in range(200)}
    assert sym == {11, 12, 13, 21, 22, 23, 31, 32, 33}
    assert {roll_mission("asymmetric", s)[0] for s in range(200)} == {1, 2, 3, 4, 5, 6}
    assert roll_mission("symmetric", 7) == roll_mission("symmetric", 7)  # the seed decides
    n, how = roll_mission("symmetric", 1)
    assert how == f"D33: {n // 10} then {n % 10} = {n}"
    for s in range(40):
        n, _ = roll_mission("symmetric", s)
        if n in {e.number for e in MISSIONS}:
            assert resolve_mission("random", s)[0] == n
        else:
            with pytest.raises(ValueError, match=f"rolled mission {n} .* not playable yet"):
                resolve_mission("random", s)
    assert resolve_mission("Deck Sweepers") == (12, None) and resolve_mission("12") == (12, None)


def test_cli_mission_random_tells_the_roll_and_refuses_an_unplayable_one() -> None:
    from typer.testing import CliRunner

    from bagm.cli.app import app
    from bagm.engine.rules.missions import roll_mission

    playable = {e.number for e in MISSIONS}
    good = next(s for s in range(50) if roll_mission("symmetric", s)[0] in playable)
    r = CliRunner().invoke(app, ["play", "--mission", "random", "--seed", str(good), str(GK), str(ORKS),
                                 "--format", "json"])
    assert r.exit_code == 0
    bad = next((s for s in range(50) if roll_mission("symmetric", s)[0] not in playable), None)
    if bad is not None:
        r = CliRunner().invoke(app, ["play", "--mission", "random", "--seed", str(bad), str(GK), str(ORKS)])
        assert r.exit_code == 2 and "not playable yet" in r.output


# --- 32 The Furnace ----------------------------------------------------------------------------

def zone_centre(g: Game, col: int, row: int) -> tuple[float, float]:
    lay = g.map.layout
    return ((col + 0.5) * lay.zone_w, (row + 0.5) * lay.zone_h)


def cross_at(g: Game, uid: str, at: tuple[float, float]) -> None:
    cross = [(0.0, 0.0), (0.0, 1.4), (0.0, -1.4), (1.4, 0.0), (-1.4, 0.0)]
    place(g, uid, [(at[0] + dx, at[1] + dy) for dx, dy in cross[:len(g.units[uid].models)]])


def test_the_furnace_control_zones_are_zones_of_the_furnace() -> None:
    # Mission 32: the Furnace Control Zones are marked with the Zones that comprise the Furnace;
    # the map keeps them inside it (a unit turning the Burners on stands in the flames)
    from bagm.engine.board.maps import bundled

    lay = bundled(32).layout
    (furnace,) = lay.areas_of("Furnace")
    controls = lay.areas_of("Furnace Control Zone")
    assert len(controls) == 2 and all(z.zones <= furnace.zones for z in controls)


def test_turn_on_the_burners() -> None:
    # Mission 32 "Rites of Incineration": once per turn a unit within a Furnace Control Zone may
    # Turn on the Burners: at the end of the turn each unit within the Furnace rolls a D6 per
    # model, 1 mortal wound per 4+, at most 3 per unit per turn
    g = new_game(32, dice=[1, 1, 1, 1, 4] + [4, 4, 4, 4, 4])  # A3's rolls, then B3's
    deploy(g)
    lay = g.map.layout
    ctl = lay.areas_of("Furnace Control Zone")[0]
    (col, row), = ctl.zones
    cross_at(g, "A3", zone_centre(g, col, row))
    (col2, row2), = lay.areas_of("Furnace Control Zone")[1].zones
    cross_at(g, "B3", zone_centre(g, col2, row2))
    cross_at(g, "A4", (4.0, 15.0))  # outside the Furnace
    advance_to(g, "manoeuvre", "A")
    legal = {a.text() for a in g.legal_actions()}
    assert "manoeuvre A3 burners" in legal and "manoeuvre A4 burners" not in legal
    with pytest.raises(IllegalAction, match="not within a Furnace Control Zone"):
        g.check(Action("manoeuvre", "A4", target="burners"))
    g.apply(Action("manoeuvre", "A3", target="burners"))
    assert "manoeuvre A4 burners" not in {a.text() for a in g.legal_actions()}
    with pytest.raises(IllegalAction, match="once in each player's turn"):
        g.check(Action("manoeuvre", "A5", target="burners"))
    w3a, w3b = sum(m.wounds for m in g.units["A3"].models), sum(m.wounds for m in g.units["B3"].models)
    advance_to(g, "move", "B")
    burns = {e["unit"]: e["mortal_wounds"] for e in g.events if e["e"] == "burners"}
    assert burns == {"A3": 1, "B3": 3}  # B3: five 4+, at most 3
    assert sum(m.wounds for m in g.units["A3"].models) == w3a - 1
    assert sum(m.wounds for m in g.units["B3"].models) == w3b - 3
    g.dice.assert_consumed()


def test_worth_dying_for_any_unit_secures_a_furnace_marker() -> None:
    from bagm.engine.rules.missions.the_furnace import furnace_markers

    g = new_game(32)
    deploy(g)
    inside = furnace_markers(g)
    outside = [i for i in range(len(g.map.layout.markers)) if i not in inside]
    a5 = g.units["A5"]
    assert "BATTLELINE" not in a5.keywords and inside and outside
    assert g.mission.secure_reason(g, a5, inside[0]) is None
    assert g.mission.secure_reason(g, a5, outside[0]) == "is not BATTLELINE"


@pytest.mark.parametrize("roll,cp", [(5, 1), (6, 1), (4, 0)])
def test_desperate_measures(roll: int, cp: int) -> None:
    # Mission 32 "Desperate Measures": in your Command phase, with a marker within the Furnace, a
    # D6: on a 5+ you gain 1CP
    from bagm.engine.rules.missions.the_furnace import furnace_markers

    g = new_game(32, dice=[roll])
    deploy(g)
    on_marker(g, "A3", furnace_markers(g)[0] + 1)
    to_round(g, 2, "A")
    got = [e for e in g.events if e["e"] == "cp" and e["why"] == "Desperate Measures"]
    assert len(got) == cp
    assert [e["roll"] for e in g.events if e["e"] == "mission_roll"] == [roll]


def test_promethium_exchangers_and_costly_prize() -> None:
    from bagm.engine.rules.missions.the_furnace import furnace_markers

    g = new_game(32, dice=[1] * 10)  # Desperate Measures each Command phase of A: no CP
    deploy(g)
    on_marker(g, "A3", furnace_markers(g)[0] + 1)
    finish(g)
    why = [e["why"] for e in g.events if e["e"] == "vp" and e["player"] == "A"]
    assert why.count("Promethium Exchangers: controls an objective marker within the Furnace") == 4
    assert why[-1] == "Costly Prize: controls an objective marker within the Furnace"


# --- 22 Death in the Dark ----------------------------------------------------------------------

def _dark_game(lights: list[int], extra: list[int] | None = None) -> Game:
    """Mission 22 with A3 inside Lighting Area 1, B3 about 11" from it (in the light), B4 about
    6" from it; at A's first Movement phase the Lights Out rolls are ``lights``."""
    g = new_game(22, dice=lights + (extra or []))
    deploy(g)
    cross_at(g, "A3", (24.0, 6.4))
    place(g, "B3", [(20.0 + 1.4 * i, 20.0) for i in range(5)])
    place(g, "B4", [(20.0 + 1.4 * i, 15.5) for i in range(5)])
    return g


def test_lights_out_roll_at_the_end_of_each_movement_phase() -> None:
    # Mission 22 "Lights Out": at the end of your Movement phase, a D6 per Lighting Area: on a
    # 1-3 its lights are off until the end of the turn
    from bagm.engine.rules.missions.death_in_the_dark import dark, in_the_dark

    g = _dark_game([3, 4])
    advance_to(g, "shoot", "A")
    assert [a.label for a in dark(g)] == ["1"]
    assert in_the_dark(g, g.units["A3"]) and not in_the_dark(g, g.units["B3"])
    assert [e["roll"] for e in g.events if e["e"] == "mission_roll"] == [3, 4]


def test_lights_out_no_ranged_attacks_beyond_9_and_minus_1_within() -> None:
    dark_g, lit_g = _dark_game([1, 6]), _dark_game([6, 6])
    for g in (dark_g, lit_g):
        advance_to(g, "shoot", "A")
    lit = {a.text() for a in lit_g.legal_actions() if a.unit == "A3"}
    dark_ = {a.text() for a in dark_g.legal_actions() if a.unit == "A3"}
    assert "shoot A3 B3" in lit and "shoot A3 B3" not in dark_  # B3: more than 9" away
    assert "shoot A3 B4" in dark_  # B4: within 9"
    assert dark_g.mission.ranged(dark_g, dark_g.units["A3"], dark_g.units["B4"]) == (9.0, -1)
    assert lit_g.mission.ranged(lit_g, lit_g.units["A3"], lit_g.units["B4"]) == (None, 0)


def test_lights_out_charges_beyond_9_barred_and_minus_1_to_the_roll() -> None:
    g = _dark_game([1, 6], [3, 4])
    advance_to(g, "charge", "A")
    legal = {a.text() for a in g.legal_actions() if a.unit == "A3"}
    assert "charge A3 B4" in legal and "charge A3 B3" not in legal
    with pytest.raises(IllegalAction, match="Lights Out"):
        g.check(Action("charge", "A3", target="B3"))
    g.apply(Action("charge", "A3", target="B4"))
    while g.decision.step == "overwatch":
        g.apply(Action("pass"))
    rolls = [e["roll"] for e in g.events if e["e"] == "charge_roll"]
    assert rolls == [3 + 4 - 1]


def test_seek_sanctuary_both_markers_of_a_lighting_area() -> None:
    from bagm.engine.rules.missions.death_in_the_dark import _seek_sanctuary, lighting_areas

    g = new_game(22)
    deploy(g)
    area = lighting_areas(g)[0]
    inside = [i for i, m in enumerate(g.map.layout.markers) if area.contains_point((m.x, m.y))]
    assert len(inside) == 2  # "both objective markers within Lighting Area 1"
    g.control = [None] * len(g.control)
    g.control[inside[0]] = "A"
    assert _seek_sanctuary(g, "A") == []
    g.control[inside[1]] = "A"
    assert _seek_sanctuary(g, "A") == [(15, "controls both objective markers within Lighting Area 1")]


# --- 6 Corrupt the Machine Spirit -------------------------------------------------------------

def _corrupt_game(dice: list[int]) -> Game:
    """Mission 6, A the Attacker (B the Defender goes first: Set Defence), A3 on marker 1."""
    g = new_game(6, dice=dice, rolloffs={"attacker": "A"})
    deploy(g)
    assert g.first == "B"
    on_marker(g, "A3", 1)
    return g


def test_corrupt_the_machine_spirit_removes_the_marker_on_a_2_plus() -> None:
    # Mission 6 "Corrupt the Machine Spirit": at the end of the Attacker's Command phase, for each
    # marker they control, a D6: on a 2+ it is corrupted and removed; then a consequence
    g = _corrupt_game([2])
    to_round(g, 1, "A", "rule")
    assert g.decision.info == {"rule": "Corrupt the Machine Spirit", "options": ["corrupt 1"]}
    g.apply(Action("rule", arg="corrupt 1"))
    assert g.control[0] is None and any(e["e"] == "marker_removed" for e in g.events)
    assert g.decision.info["options"] == ["Door Controls", "Steam Venting Overrides", "Gravitational Systems",
                                          "Communications Network"]
    g.apply(Action("pass"))
    finish(g)
    assert g.control[0] is None  # A3 still stands on it: nobody controls a removed marker
    assert [(p, v) for *_, p, v in scored(g, "Humble the Machine")] == [("A", 20)]


def test_corrupt_fails_on_a_1() -> None:
    g = _corrupt_game([1])
    to_round(g, 1, "A", "rule")
    g.apply(Action("rule", arg="corrupt 1"))
    assert g.decision.step != "rule" and g.control[0] == "A"


def test_communications_network_stops_the_defender_gaining_cp() -> None:
    # "Communications Network": until the end of the Attacker's next Command phase, the Defender
    # cannot gain CP
    g = _corrupt_game([6])
    to_round(g, 1, "A", "rule")
    g.apply(Action("rule", arg="corrupt 1"))
    g.apply(Action("rule", arg="Communications Network"))
    to_round(g, 3, "B", "move")
    blocked = [(e["player"], e["why"]) for e in g.events if e["e"] == "cp_blocked"]
    assert blocked == [("B", "Command phase")] * 2  # B's own turn 2 and A's turn 2 Command phases
    gained = [e for e in g.events if e["e"] == "cp" and e["player"] == "B" and e["why"] == "Command phase"]
    assert len(gained) == 3  # both Command phases of round 1 (before the choice), B's of round 3
    assert g.mission_state["chosen"] == ["Communications Network"]


def test_gravitational_systems_and_steam_venting() -> None:
    g = _corrupt_game([6])
    g.units["B3"].set_to_defend = True
    to_round(g, 1, "A", "rule")
    g.apply(Action("rule", arg="corrupt 1"))
    g.apply(Action("rule", arg="Gravitational Systems"))
    assert not g.units["B3"].set_to_defend
    advance_to(g, "manoeuvre", "A")
    assert not [a for a in g.legal_actions() if a.target in ("defend", "overwatch")]
    with pytest.raises(IllegalAction, match="Gravitational Systems"):
        g.check(Action("manoeuvre", "A4", target="overwatch"))
    from bagm.engine.rules.missions.corrupt_the_machine_spirit import _steam

    assert _steam(g, g.units["A3"], g.units["B3"]) == (None, 0)  # not chosen


def test_steam_venting_overrides_no_target_beyond_6() -> None:
    # "Steam Venting Overrides": until the start of the Attacker's next Command phase, ranged
    # attacks cannot target units more than 6" away
    g = _corrupt_game([6])
    to_round(g, 1, "A", "rule")
    g.apply(Action("rule", arg="corrupt 1"))
    g.apply(Action("rule", arg="Steam Venting Overrides"))
    a3, b3 = g.units["A3"], g.units["B3"]
    assert g.mission.ranged(g, a3, b3) == (6.0, 0)
    to_round(g, 2, "B", "move")
    assert g.mission.ranged(g, b3, a3) == (6.0, 0)  # the Defender's turn too
    to_round(g, 2, "A", "move")
    assert g.mission.ranged(g, a3, b3) == (None, 0)  # over at the Attacker's next Command phase


def test_door_controls_opens_or_closes_up_to_three_hatchways() -> None:
    g = _corrupt_game([6])
    to_round(g, 1, "A", "rule")
    g.apply(Action("rule", arg="corrupt 1"))
    g.apply(Action("rule", arg="Door Controls"))
    before = [g.bf.is_open(h.index) for h in g.map.layout.hatchways]
    for _ in range(3):
        assert g.decision.info["rule"] == "Door Controls"
        opt = next(o for o in g.decision.info["options"]
                   if before[int(o.split()[1]) - 1] is False and g.bf.is_open(int(o.split()[1]) - 1) is False)
        g.apply(Action("rule", arg=opt))
    after = [g.bf.is_open(h.index) for h in g.map.layout.hatchways]
    assert sum(a != b for a, b in zip(before, after)) == 3
    assert g.decision.step != "rule" or g.decision.info["rule"] != "Door Controls"


def test_thwart_the_corrupters_30_per_marker_for_the_defender() -> None:
    from bagm.engine.rules.missions.corrupt_the_machine_spirit import _thwart_the_corrupters

    g = _corrupt_game([])
    g.control = ["B", "B", None][:len(g.control)] + [None] * max(0, len(g.control) - 3)
    assert sum(v for v, _ in _thwart_the_corrupters(g, "B")) == 60
    assert _thwart_the_corrupters(g, "A") == []


# --- 33 Rad Leak ---------------------------------------------------------------------------------

def test_rad_levels_follow_the_books_table() -> None:
    # Mission 33 "Rad Exposure", the table: A Mild 1, High 2, Extreme 3+; B 2, 3, 4+; C 3, 4, 5;
    # D Mild 4, High 5
    from bagm.engine.rules.missions.rad_leak import rad_level

    table = {s: [rad_level(s, r) for r in range(1, 6)] for s in "ABCD"}
    assert table == {"A": [1, 2, 3, 3, 3], "B": [0, 1, 2, 3, 3], "C": [0, 0, 1, 2, 3], "D": [0, 0, 0, 1, 2]}


def test_rad_exposure_worsens_leadership_move_and_toughness_for_the_round() -> None:
    g = new_game(33)
    deploy(g)
    sector_a = next(a for a in g.map.layout.areas_of("Sector") if a.label == "A")
    col, row = sorted(sector_a.zones)[2]
    u = g.units["A3"]
    base = (u.Ld, u.M, u.T)
    cross_at(g, "A3", zone_centre(g, col, row))
    to_round(g, 3, "A")  # round 3: Sector A is Extreme
    assert (u.Ld, u.M, u.T) == (base[0] + 1, base[1] - 1, base[2] - 1)
    assert [e["level"] for e in g.events if e["e"] == "rad_exposure" and e["unit"] == "A3"][-1] == "Extreme"
    finish(g)
    assert (u.Ld, u.M, u.T) == base  # until the end of the battle round only


def test_salvation_shrines() -> None:
    from bagm.engine.rules.missions.rad_leak import _salvation_shrines

    g = new_game(33)
    crit = [i for i, m in enumerate(g.map.layout.markers) if m.label == "Critical"]
    assert len(crit) == 2
    g.control = [None] * len(g.control)
    g.control[crit[0]] = "A"
    assert _salvation_shrines(g, "A") == []
    g.control[crit[1]] = "A"
    assert _salvation_shrines(g, "A") == [(15, "controls both objective markers labelled Critical")]


# --- clones: what the mission rules remember goes with the game --------------------------------

@pytest.mark.parametrize("mission", sorted(e.number for e in MISSIONS))
def test_a_game_played_from_clones_is_the_game_on_every_mission(mission: int) -> None:
    """Mission Rules keep their memory in game.mission_state (Airlocks, Burners, corrupted
    markers, Rad Exposure, lights): a game cloned every few actions plays as the game itself."""
    import random

    def game() -> Game:
        return Game(mission, _army("A", GK).clone(), _army("B", ORKS).clone(), seed=mission)

    plain = game()
    rng = random.Random(mission)
    for _ in until_finished(plain):
        plain.apply(rng.choice(plain.legal_actions()))
    g = game()
    rng = random.Random(mission)
    i = 0
    while not g.finished:  # the same number of decisions as the plain game (bounded above)
        if i % 5 == 0 or not g.resumable:
            g = g.clone()
        g.apply(rng.choice(g.legal_actions()))
        i += 1
        assert i <= 20_000, "the cloned game did not end"
    assert g.events == plain.events


def test_a_mission_rule_not_modelled_is_named_in_the_games_output() -> None:
    # every playable mission models all its rules today; one that did not would say so per game
    g = new_game(12)
    assert not any(n.startswith("mission") for n in g.not_modelled())
    g.mission.not_modelled.append("Some Rule: its effect on X")  # each game builds its own Mission
    assert "mission 12: Some Rule: its effect on X" in g.not_modelled()
    assert get_mission(12).not_modelled == []


def test_control_objectives_credit_the_units_holding_the_markers() -> None:
    g = new_game(12)
    deploy(g)
    on_marker(g, "A3", 1)
    to_round(g, 2, "A", "move")
    ev = [e for e in g.events if e["e"] == "vp" and e["why"].startswith("Take and Hold")]
    assert ev and all(e["units"] == ["A3"] for e in ev)


# --- 23 Hull Breach ------------------------------------------------------------------------------

def test_deadly_decompression_vents_a_compartment() -> None:
    # Mission 23 "Deadly Decompression": from round 2, the Attacker's D6 3+ vents the Compartment
    # of the Defender's D6 until the end of the round: its open Hatchways close, each unit in it
    # suffers D3 mortal wounds, units in it move 1" less, attacks on them improve their AP by 1
    from bagm.engine.rules.missions.hull_breach import hatchways_of, vented

    g = new_game(23, dice=[3, 2, 2])  # 3: vented; 2: Compartment 2; D3 = 2 for A3
    deploy(g)
    room = next(a for a in g.map.layout.areas_of("Compartment") if a.label == "2")
    (col, row) = sorted(room.zones)[4]
    cross_at(g, "A3", zone_centre(g, col, row))
    wounds = sum(m.wounds for m in g.units["A3"].models)
    to_round(g, 2, "A")
    assert vented(g) is room and g.dice.pending == ()
    assert all(not g.bf.is_open(i) for i in hatchways_of(g, room))
    assert sum(m.wounds for m in g.units["A3"].models) == wounds - 2
    a3, b3 = g.units["A3"], g.units["B3"]
    assert g.mission.move_modifier(g, a3, "move") == g.mission.move_modifier(g, a3, "advance") == -1
    assert g.mission.move_modifier(g, a3, "fallback") == 0 and g.mission.move_modifier(g, b3, "move") == 0
    # attacks allocated to a model in it: AP improved by 1, model by model (test_mission_items.py)
    assert g.mission.allocated_ap(g, a3) == [1] * len(a3.models)
    assert g.mission.allocated_ap(g, b3) is None


def test_deadly_decompression_needs_a_3_and_waits_for_round_2() -> None:
    from bagm.engine.rules.missions.hull_breach import vented

    g = new_game(23, dice=[2])
    deploy(g)
    to_round(g, 2, "A")
    assert vented(g) is None and g.dice.pending == ()
    assert [e["roll"] for e in g.events if e["e"] == "mission_roll"] == [2]  # none in round 1


def test_download_data_scores_15_at_the_start_of_the_next_command_phase() -> None:
    # Mission 23 "The Datacores" / "Data Retrieval": once a turn a unit on a marker you control
    # performs Download Data; at the start of your next Command phase, still in range and not
    # Battle-shocked, you score 15VP; a marker's data is downloaded once
    g = new_game(23, dice=[1, 1])  # Deadly Decompression at rounds 2 and 3: nothing
    deploy(g)
    on_marker(g, "A3", 1)
    on_marker(g, "A4", 2)
    advance_to(g, "manoeuvre", "A")
    assert "manoeuvre A3 download" in {a.text() for a in g.legal_actions()}
    g.apply(Action("manoeuvre", "A3", target="download"))
    with pytest.raises(IllegalAction, match="already performed Download Data this turn"):
        g.check(Action("manoeuvre", "A4", target="download"))
    to_round(g, 2, "A")
    assert [(e["vp"], e["units"]) for e in g.events if e["e"] == "vp" and e["why"].startswith("Data Retrieval")] \
        == [(15, ["A3"])]
    advance_to(g, "manoeuvre", "A")
    legal = {a.text() for a in g.legal_actions()}
    assert "manoeuvre A3 download" not in legal and "manoeuvre A4 download" in legal
