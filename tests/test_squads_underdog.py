"""Form Boarding Squads and the Underdog."""

from __future__ import annotations

from bagm.roster.squads import form_boarding_squads
from bagm.roster.underdog import UNDERDOG_GAP, decide


def test_ten_model_units_split_in_two(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true}\n- {unit: Line Squad, models: 10}\n"
              "- {unit: Line Squad, models: 10, label: Second}\n- {unit: Line Squad, models: 5}\n")
    s = form_boarding_squads(r.path, r.units)
    assert [(x.name, x.models, x.points) for x in s.units] == [
        ("Lord Commander", 1, 90),
        ("Line Squad A", 5, 93), ("Line Squad B", 5, 93),  # 185 is odd: half rounds up
        ("Second A", 5, 93), ("Second B", 5, 93),
        ("Line Squad", 5, 95),
    ]
    assert s.points == 90 + 4 * 93 + 95
    assert len({x.name for x in s.units}) == len(s.units)  # a player can tell them apart


def test_only_starting_strength_10_splits(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true}\n- {unit: Bracket Squad, models: 6}\n")
    s = form_boarding_squads(r.path, r.units)
    assert [x.models for x in s.units] == [1, 6]


def test_squads_json_shape(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true}\n")
    d = form_boarding_squads(r.path, r.units).as_dict()
    assert d["units"] == [{"name": "Lord Commander", "unit": "Lord Commander", "models": 1,
                           "points": 90}]
    assert d["points"] == 90


def test_underdog_boundary() -> None:
    assert UNDERDOG_GAP == 30
    assert decide(470, 499).underdog is None  # 29 points below
    assert decide(470, 500).underdog == "A"  # 30 points below
    assert decide(500, 470).underdog == "B"
    assert decide(400, 400).underdog is None


def test_underdog_json() -> None:
    assert decide(450, 500).as_dict() == {"underdog": "A", "points": {"A": 450, "B": 500},
                                          "difference": 50}


def test_adaptation_can_keep_a_ten_model_unit_whole(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true}\n- {unit: Swarmlings}\n")
    s = form_boarding_squads(r.path, r.units)
    assert [(x.name, x.models, x.points) for x in s.units][1] == ("Swarmlings", 10, 60)


def test_adaptation_can_split_unevenly(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true}\n- {unit: Odd Squad}\n")
    s = form_boarding_squads(r.path, r.units)
    assert [(x.name, x.models, x.points) for x in s.units][1:] == [
        ("Odd Squad A", 5, 56), ("Odd Squad B", 6, 56)]
