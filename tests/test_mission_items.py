"""Mission items (issue 12): the VP record of a mission whose VP pass from one player to the
other (Pull Their Teeth), Deadly Decompression's AP model by model (Hull Breach), and the
public names mission rules use on the game."""

from __future__ import annotations

import inspect

from conftest import advance_to
from test_attack import target, weapon
from test_missions import cross_at, deploy, loaders_and_node, new_game, on_marker, to_round, zone_centre

from bagm.chance.dice import Dice
from bagm.engine.attack.rules import AttackProfile
from bagm.engine.attack.sequence import TargetUnit, resolve
from bagm.engine.game import kept
from bagm.engine.log.record import record
from bagm.engine.rules.missions import base
from bagm.render.sim_report import game_facts

# --- 2 Pull Their Teeth: the VP record ---------------------------------------------------------


def _teeth_game_to_round_3() -> object:
    # "Destroy Ground Targets": "The Attacker starts the battle with 60VP. At the start of the
    # Defender's Command phase: If the Defender controls the Control Node objective marker, for
    # each Loader objective marker they control, subtract 10VP from the Attacker (to a minimum
    # of 0VP) and the Defender scores 10VP. Otherwise, ... 5VP"
    g = new_game(2, rolloffs={"attacker": "A"})
    deploy(g)
    loaders, node = loaders_and_node(g)
    on_marker(g, "B3", loaders[0])
    on_marker(g, "B4", loaders[1])
    advance_to(g, "move", "B")  # round 1: two Loaders without the Control Node: 2 x 5VP
    on_marker(g, "B5", node)
    to_round(g, 2, "B")  # round 2: two Loaders with the Control Node: 2 x 10VP
    return g


def test_pull_their_teeth_per_round_columns_count_vp_scored_and_taken_apart() -> None:
    # our reading of the record: each round's column counts the VP a player scored in it (never
    # negative); VP taken from a player are recorded apart, per round; the Attacker's 60VP are
    # its starting VP (scored before the first round); start + scored - taken = total
    g = _teeth_game_to_round_3()
    assert g.vp == {"A": 30, "B": 30}
    assert g.vp_start == {"A": 60, "B": 0}
    assert g.vp_rounds == {"A": [0, 0, 0, 0, 0], "B": [10, 20, 0, 0, 0]}
    assert g.vp_taken == {"A": [10, 20, 0, 0, 0], "B": [0, 0, 0, 0, 0]}
    for p in "AB":
        assert min(g.vp_rounds[p]) >= 0
        assert g.vp_start[p] + sum(g.vp_rounds[p]) - sum(g.vp_taken[p]) == g.vp[p]
    rec = record(g)
    assert rec.vp_start == g.vp_start and rec.vp_taken == g.vp_taken and rec.vp_rounds == g.vp_rounds
    d = rec.as_dict()
    assert d["vp_start"] == {"A": 60, "B": 0} and d["vp_taken_by_round"]["A"][:2] == [10, 20]
    # the same record read back from the event log (what `bagm simulate` sums)
    f = game_facts(g.events)
    assert f["vp_start"] == {"A": 60, "B": 0}
    assert f["vp_rounds"]["A"] == [0, 0] and f["vp_rounds"]["B"] == [10, 20]
    assert f["vp_taken"]["A"] == [10, 20] and f["vp_taken"]["B"] == [0, 0]


def test_the_summary_table_shows_starting_vp_and_vp_taken() -> None:
    from rich.console import Console

    from bagm.render.game_render import game_summary

    g = _teeth_game_to_round_3()
    out = Console(width=200, record=True)
    out.print(game_summary(record(g)))
    text = out.export_text()
    assert "Start" in text
    row_a = next(line for line in text.splitlines() if line.lstrip("│ ").startswith("A:"))
    assert "60" in row_a and "0 (-10)" in row_a and "0 (-20)" in row_a and "-" not in row_a.split("60")[0][-3:]


def test_narration_and_the_simulate_report_read_starting_vp_and_vp_taken_apart() -> None:
    # renderers decide no rule: the narration says the Attacker starts with its 60VP (not that
    # it scores them) and loses VP; the simulate report's VP by rule shows the VP taken from the
    # Attacker as a row of their own (negative), beside the starting VP
    from bagm.render.narration import Narrator
    from bagm.render.sim_report import Report

    g = _teeth_game_to_round_3()
    n = Narrator(g.map.layout)
    lines = [line for e in g.events for line in n.tell(e) if "VP" in line]
    assert lines[0] == "Player A starts the battle with 60 VP (Destroy Ground Targets: the Attacker starts with 60VP)."
    assert any(line.startswith("Player A loses 5 VP") for line in lines)
    assert not any("scores -" in line for line in lines)
    rows = {r["rule"]: r["mean"] for r in Report(sim={}, facts=[game_facts(g.events)]).vp_reasons()}
    assert rows["Destroy Ground Targets"] == {"A": 60.0, "B": 30.0}
    assert rows["Destroy Ground Targets (VP taken away)"] == {"A": -30.0, "B": 0.0}


def test_vp_taken_never_below_zero_and_the_gainer_scores_the_whole_amount() -> None:
    g = new_game(2, rolloffs={"attacker": "A"})
    deploy(g)
    to_round(g, 1, "B")
    g.vp["A"] = 5
    base.take_vp(g, "A", "B", 10, "Destroy Ground Targets: test")
    assert g.vp["A"] == 0 and g.vp_taken["A"][0] == 5 and g.vp_rounds["B"][0] == 10


# --- 23 Hull Breach: Deadly Decompression's AP, model by model ---------------------------------

def test_ap_improved_only_for_attacks_allocated_to_a_model_in_the_compartment() -> None:
    # "Each time an attack is allocated to a model in that Compartment, improve the Armour
    # Penetration characteristic of that attack by 1": a 3+ save against AP 0 is a 4+ save for
    # the model inside; the defender allocates to the model outside first
    w = weapon(a="2", ap=0)
    tgt = target(t=4, sv=3, w=1, models=2)
    # 2 attacks: hits 6, 6; wounds 6, 6; save 2 (model 1, outside, fails: 3+), save 3 (model 2,
    # inside: a 4+ save, fails)
    unit = TargetUnit([1, 1], 1, ap_better=[1, 0])
    dice = Dice.scripted([6, 6, 6, 6, 2, 3])
    res = resolve(AttackProfile(w, 1), tgt, dice, unit)
    assert res.unsaved == 2 and unit.wounds == [0, 0]
    saves = [(value, reason) for _, value, reason, _ in dice.history() if reason.startswith("save")]
    assert saves == [(2, "save (armour 3+)"), (3, "save (armour 3+ (-1))")]
    # the same dice with nobody in the Compartment: the 3 saves
    unit = TargetUnit([1, 1], 1)
    res = resolve(AttackProfile(w, 1), tgt, Dice.scripted([6, 6, 6, 6, 2, 3]), unit)
    assert res.unsaved == 1 and res.saves == 1


def test_deadly_decompression_marks_only_the_models_in_the_vented_compartment() -> None:
    from bagm.engine.rules.missions.hull_breach import vented

    g = new_game(23, dice=[3, 2, 2])  # 3: vented; 2: Compartment 2; D3 = 2 for A3
    deploy(g)
    room = next(a for a in g.map.layout.areas_of("Compartment") if a.label == "2")
    (col, row) = sorted(room.zones)[4]
    cross_at(g, "A3", zone_centre(g, col, row))
    to_round(g, 2, "A")
    assert vented(g) is room
    a3, b3 = g.units["A3"], g.units["B3"]
    assert g.mission.allocated_ap(g, a3) == [1] * len(a3.models)
    assert g.mission.allocated_ap(g, b3) is None  # no model of B3 in it
    # one model of A3 steps out of the Compartment: only the others are marked
    far = next((c, r) for c in range(10) for r in range(7) if (c, r) not in room.zones)
    a3.models[0].x, a3.models[0].y = zone_centre(g, *far)
    kept.touch(g, a3)
    assert g.mission.allocated_ap(g, a3) == [0] + [1] * (len(a3.models) - 1)
    assert not any("AP improvement" in n for n in g.not_modelled())  # now modelled as written


# --- public names -------------------------------------------------------------------------------

def test_mission_rules_use_public_names_of_the_game() -> None:
    import bagm.engine.rules.missions as pkg

    for mod in pkg.__dict__.values():
        if inspect.ismodule(mod) and mod.__name__.startswith("bagm.engine.rules.missions."):
            src = inspect.getsource(mod)
            assert "game._" not in src, f"{mod.__name__} uses a private member of the game"


def test_mission_queries_are_typed_by_the_game_interface() -> None:
    """Every function of a mission module takes the game typed (the declared GameInterface, or
    Game), never ``Any`` (mypy then checks each member it uses is declared), and answers a typed
    value (an Area, not ``Any``)."""
    import bagm.engine.rules.missions as pkg

    for mod in pkg.__dict__.values():
        if not (inspect.ismodule(mod) and mod.__name__.startswith("bagm.engine.rules.missions.")):
            continue
        for name, fn in vars(mod).items():
            if not inspect.isfunction(fn) or fn.__module__ != mod.__name__:
                continue
            notes = fn.__annotations__
            if "game" in notes:
                assert notes["game"] in ("GameInterface", "Game"), f"{mod.__name__}.{name}: game: {notes['game']}"
            assert "Any" not in str(notes.get("return", "")), f"{mod.__name__}.{name} returns Any"
