"""Stratagems and Enhancements as registered entries (Boarding Actions "Stratagems",
"Enhancements"): found by their book name, with the card's cost and restrictions."""

from __future__ import annotations

import pytest

from bagm.engine.rules.editions import EDITION_2024
from bagm.engine.rules.enhancements import ENHANCEMENTS, NO_ENHANCEMENT, enhancement
from bagm.engine.rules.registry import Registry
from bagm.engine.rules.stratagems import (
    COMMAND_REROLL,
    COUNTER_OFFENSIVE,
    EXPLOSIVE_CLEARANCE,
    INSANE_BRAVERY,
    STRATAGEMS,
    Stratagem,
    may_use,
    use,
)


class _Game:
    """The little a Stratagem reads and changes."""

    def __init__(self, cp: int) -> None:
        self.edition = EDITION_2024
        self.cp = {"A": cp, "B": cp}
        self.used: set[tuple[str, str, int]] = set()
        self.phase_id = 1
        self.spent: list[tuple[str, int, str]] = []
        self.cost_rules = False  # no rule in this army changes a Stratagem's cost

    def spend_cp(self, p: str, n: int, what: str) -> None:
        self.cp[p] -= n
        self.used.add((p, what, self.phase_id))
        self.spent.append((p, n, what))


class _Unit:
    def __init__(self, battleshocked: bool) -> None:
        self.battleshocked = battleshocked


def test_the_books_stratagems_with_their_costs() -> None:
    # Boarding Actions "Stratagems": the five cards and their CP
    assert {s.name: s.cp for s in STRATAGEMS} == {
        "Command Re-roll": 1, "Battlefield Command": 1, "Counter-offensive": 2, "Insane Bravery": 1,
        "Explosive Clearance": 1}
    assert STRATAGEMS["command re-roll"] is COMMAND_REROLL  # names as the book prints them, any case
    assert STRATAGEMS["Counter–offensive"] is COUNTER_OFFENSIVE  # a typographic dash
    assert "2023" not in EXPLOSIVE_CLEARANCE.editions


def test_unknown_names_suggest() -> None:
    with pytest.raises(KeyError, match="did you mean 'Insane Bravery'"):
        STRATAGEMS["Insane Braveri"]


def test_a_timing_the_phases_do_not_know_is_refused() -> None:
    with pytest.raises(ValueError, match="no timing 'whenever'"):
        Stratagem("X", 1, "Epic Deed", "whenever", "a unit", "test")


def test_registering_twice_is_refused() -> None:
    r: Registry[Stratagem] = Registry("Stratagem")
    r.register(Stratagem("X", 1, "Epic Deed", "after_roll", "a unit", "test"))
    with pytest.raises(ValueError, match="registered twice"):
        r.register(Stratagem("x", 2, "Epic Deed", "after_roll", "a unit", "test"))


@pytest.mark.parametrize("cp, ok", [(0, False), (1, True)])
def test_cost_boundary(cp: int, ok: bool) -> None:
    assert may_use(_Game(cp), "A", COMMAND_REROLL) is ok
    assert may_use(_Game(cp + 1), "A", COUNTER_OFFENSIVE) is ok  # 2CP


def test_once_per_phase() -> None:
    # Core Rules "Stratagems": the same Stratagem once per phase; another phase, again
    g = _Game(5)
    use(g, "A", COMMAND_REROLL)
    assert g.spent == [("A", 1, "Command Re-roll")] and g.cp["A"] == 4
    assert not may_use(g, "A", COMMAND_REROLL) and may_use(g, "B", COMMAND_REROLL)
    assert may_use(g, "A", INSANE_BRAVERY)
    g.phase_id += 1
    assert may_use(g, "A", COMMAND_REROLL)


def test_battleshocked_units_only_when_the_card_says_so() -> None:
    # Battle-shock: your Stratagems cannot affect the unit; Insane Bravery says "even though"
    shocked = _Unit(True)
    assert not may_use(_Game(3), "A", COMMAND_REROLL, shocked)
    assert may_use(_Game(3), "A", INSANE_BRAVERY, shocked)
    assert may_use(_Game(3), "A", COMMAND_REROLL, _Unit(False))


def test_a_changed_cost() -> None:
    # Peerless Leader: Battlefield Command for 0CP
    g = _Game(0)
    assert may_use(g, "A", STRATAGEMS["Battlefield Command"], cp=0)
    use(g, "A", STRATAGEMS["Battlefield Command"], cp=0)
    assert g.cp["A"] == 0 and g.spent == [("A", 0, "Battlefield Command")]


def test_the_books_enhancements_and_their_effects() -> None:
    assert {e.name for e in ENHANCEMENTS} == {
        "Superior Boarding Tactics", "Close-Quarters Killer", "Peerless Leader", "Expert Breacher",
        "Personal Teleporter", "Trademark Weapon"}
    assert enhancement("superior boarding tactics").start_cp == 2
    assert enhancement("Personal Teleporter").deep_strike
    assert enhancement("Expert Breacher").hatchway_in_move_units
    assert enhancement("Peerless Leader").free_battlefield_command
    assert enhancement(None) is NO_ENHANCEMENT and enhancement("Some Detachment Relic") is NO_ENHANCEMENT


def test_trademark_weapon_adds_one_to_strength_and_damage() -> None:
    from bagm.chance.dice import parse_dice
    from bagm.data.weapons import WeaponProfile

    w = WeaponProfile("Storm bolter", False, parse_dice(2), 3, 4, 0, parse_dice("D3"))
    changed = enhancement("Trademark Weapon").ranged_weapon(w)  # type: ignore[misc]
    assert (changed.strength, str(changed.damage)) == (5, "D3+1")


def test_missions_are_entries_by_name_and_number() -> None:
    from bagm.engine.rules.missions import MISSIONS, get_mission

    assert get_mission(11).name == get_mission("Access Junction Primus").name == "Access Junction Primus"
    assert [r.name for r in get_mission(11).rules] == ["Underdog Bonus"]
    assert get_mission(11) is not get_mission(11)  # a fresh mission for every game
    assert "access junction primus" in MISSIONS
    assert get_mission("12").name == "Deck Sweepers"
    with pytest.raises(ValueError, match="not playable yet; playable: 11 Access Junction Primus, 12 Deck"):
        get_mission(99)
