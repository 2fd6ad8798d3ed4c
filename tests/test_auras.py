"""Auras on friendly units (issue 13 s4): Core Rules "Aura Abilities" (not in the project's texts):
the effects of identically named auras are not cumulative, a unit is within range of its own aura.
A unit within range of two units with the same aura has its effect once; within range of one, once;
of none, not at all; one of them destroyed, the other still gives it; two auras of different names
both apply; a unit with the aura has it once however near another unit with it. Played with World
Eaters' Eightbound ("Beacons of Rage (Aura)": +1 to melee Hit rolls of friendly WORLD EATERS units
within 6") as muster and the game give it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, place
from test_abilities_xen import deployed
from test_army_rules import at_distance
from test_army_rules_others import BLADE
from test_army_rules_others import _events_declared as _events_declared  # noqa: F401 (autouse fixture)

from bagm.chance.dice import Dice
from bagm.data.packs import Catalog, data_dirs
from bagm.engine.attack.rules import Conditions
from bagm.engine.game import moments, positions
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules.effects import effect_conditions, holds_in
from bagm.engine.rules.missions.base import suffer_mortal_wounds
from bagm.engine.state.actions import parse

BEACONS = "Beacons of Rage (Aura)"
ROSTER = """name: Two Beacons
faction: World Eaters
detachment: Skullsworn
units:
  - unit: Master of Executions
    warlord: true{enh}
  - unit: Eightbound
    models: 3
  - unit: Eightbound
    models: 3
  - unit: Kharn the Betrayer
"""


def beacons(tmp_path: Path, enh: str = "", catalog: Catalog | None = None) -> Game:
    """A1 Master of Executions (with Enhancement ``enh``), A2 and A3 Eightbound (each with Beacons
    of Rage), A4 Khârn, deployed against Orks with the first legal choices; no Blessings of Khorne."""
    path = tmp_path / "we.yaml"
    path.write_text(ROSTER.format(enh=f"\n    enhancement: {enh}" if enh else ""), encoding="utf-8")
    return deployed(str(path), [1, 2, 3, 5], catalog)


def hit_mod(g: Game, uid: str) -> int:
    """The Hit roll modifier the effects give ``uid``'s melee attacks on an Ork unit (before the
    Core Rules' cap of +1: the sum shows whether an aura counted twice)."""
    return effect_conditions(g.units[uid], g.units["B3"], BLADE, Conditions(), holds_in(g)).hit_mod


def apart(g: Game, uid: str, d: float, others: tuple[str, ...] = (), far: float = 0.0) -> None:
    """Unit ``uid``'s one model ``d`` inches from A1, more than ``far`` inches from ``others``."""
    a1 = g.units["A1"]
    at_distance(g, a1, g.units[uid], d, ok=lambda: all(positions.unit_distance(g, g.units[uid], g.units[o]) > far for o in others))


def start(tmp_path: Path, enh: str = "", catalog: Catalog | None = None) -> Game:
    """:func:`beacons` with A1's one model where open ground reaches 12" on both sides (A4 measures it)."""
    g = beacons(tmp_path, enh, catalog)
    a1, a4 = g.units["A1"], g.units["A4"]
    gap = a1.radius + a4.radius + 12.0
    for y in range(2, 40):
        for x in range(2, 40):
            place(g, "A1", [(x, y)])
            for dx in (gap, -gap):
                place(g, "A4", [(x + dx, y)])
                if g.bf.layout.board_at((x + dx, y)) is None or abs(positions.unit_distance(g, a1, a4) - 12.0) > 1e-6:
                    break
            else:
                return g
    raise AssertionError("no open ground")


@pytest.mark.parametrize("d2, d3, mod", [
    (3.0, 5.0, 1),  # both Eightbound within 6": +1 once, not +2
    (6.0, 6.0, 1),  # both exactly 6" away: once
    (3.0, 8.0, 1),  # one in range: once
    (8.0, 3.0, 1),
    (6.1, 8.0, 0),  # none: nothing
])
def test_the_same_aura_from_two_units_applies_once(tmp_path, d2, d3, mod):
    g = start(tmp_path)
    apart(g, "A2", d2)
    apart(g, "A3", d3)
    assert abs(positions.unit_distance(g, g.units["A1"], g.units["A2"]) - d2) < 1e-6
    assert hit_mod(g, "A1") == mod
    copies = [e for e in g.units["A1"].effects(holds_in(g)) if e.hit_mod]
    assert len(copies) == mod  # one copy of the aura's hit effect at most


def test_one_source_destroyed_the_other_still_gives_the_aura(tmp_path):
    g = start(tmp_path)
    apart(g, "A2", 3.0)
    apart(g, "A3", 8.0)
    assert hit_mod(g, "A1") == 1
    g.dice = Dice(7)
    suffer_mortal_wounds(g, g.units["A2"], 99, "test")
    assert not g.units["A2"].alive
    assert hit_mod(g, "A1") == 0  # the one in range is gone
    apart(g, "A3", 4.0)
    assert hit_mod(g, "A1") == 1  # the other still gives it


def test_a_unit_with_the_aura_has_it_once_near_another_unit_with_it(tmp_path):
    g = start(tmp_path)
    apart(g, "A2", 10.0)
    at_distance(g, g.units["A2"], g.units["A3"], 2.0, ok=lambda: positions.unit_distance(g, g.units["A1"], g.units["A3"]) > 6)
    assert hit_mod(g, "A2") == 1 and hit_mod(g, "A3") == 1  # its own, not its own and the other's
    assert hit_mod(g, "A1") == 0
    g.dice = Dice(7)
    suffer_mortal_wounds(g, g.units["A3"], 99, "test")
    assert hit_mod(g, "A2") == 1  # its own still


def frenzied_aura(tmp_path: Path) -> Catalog:
    """The bundled packs with the Skullsworn Enhancement Frenzied made an aura of a different
    name with the same effect as Beacons of Rage's Hit roll part."""
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "we.yaml").write_text(
        "faction: World Eaters\ndetachments:\n  - name: Skullsworn\n    enhancements:\n"
        "      - {name: Frenzied, effects: [{aura: 6, only_keyword: WORLD EATERS, attacks: melee, hit_mod: 1,"
        " target_lacks: [MONSTER, VEHICLE]}]}\n", encoding="utf-8")
    return Catalog(data_dirs([tmp_path / "packs"]))


def test_two_auras_of_different_names_both_apply(tmp_path):
    g = start(tmp_path, "Frenzied", frenzied_aura(tmp_path))
    apart(g, "A4", 3.0)  # Khârn: within 6" of the Frenzied bearer
    apart(g, "A2", 20.0, ("A4",), 6.0)
    apart(g, "A3", 20.0, ("A4",), 6.0)
    assert hit_mod(g, "A4") == 1  # Frenzied only
    assert hit_mod(g, "A1") == 1  # the bearer: its own
    at_distance(g, g.units["A4"], g.units["A2"], 2.0)
    assert hit_mod(g, "A4") == 2  # Frenzied and Beacons of Rage: two auras, both apply
    at_distance(g, g.units["A4"], g.units["A3"], 2.5, ok=lambda: positions.unit_distance(g, g.units["A2"], g.units["A4"]) <= 6)
    assert hit_mod(g, "A4") == 2  # a second Beacons of Rage adds nothing


def _aura_key(name: str, e: Any) -> tuple[str, Any] | None:
    """The aura an effect a unit carries is of: its own aura (``aura`` set) or a copy of one (a
    condition 'aura S1,S2 X'), with the aura's range and sources left out; None: no aura."""
    listed = [] if e.only_while is None else [e.only_while] if isinstance(e.only_while, str) else e.only_while
    conds = [c for c in listed if not c.startswith(("aura ", "carries "))]
    if e.aura is None and not e.aura_rounds and len(conds) == len(listed):
        return None
    e2 = copy.copy(e)
    e2.aura, e2.aura_rounds, e2.aura_enemy, e2.aura_choice, e2.only_while = None, [], False, None, conds or None
    return name, repr(e2)  # (an Effect compares by identity)


def _twice(units: list[Any]) -> list[tuple[str, str]]:
    out = []
    for u in units:
        seen: list[Any] = []
        for n, e in u.standing:
            key = _aura_key(n, e)
            if key is None:
                continue
            if key in seen:
                out.append((u.uid, n))
            seen.append(key)
    return out


ROSTERS = sorted((REPO / "rosters").glob("*.yaml"))
DG = REPO / "rosters" / "death_guard_vectors_of_decay.yaml"  # Nurgle's Gift: an aura on enemy units


@pytest.mark.parametrize("roster", ROSTERS, ids=lambda p: p.stem)
def test_no_unit_of_a_bundled_roster_carries_one_aura_twice(roster):
    # every bundled roster, against itself and against Death Guard (their aura on enemy units;
    # a roster of the 2023 edition plays only one of its edition)
    a = build_army("A", str(roster))
    for other in (roster, DG):
        b = build_army("B", str(other))
        if b.edition == a.edition:
            g = Game(11, copy.deepcopy(a), b, seed=1)
            assert _twice(list(g.units.values())) == []


def test_the_class_test_finds_an_aura_carried_twice(tmp_path):
    g = start(tmp_path)
    a1 = g.units["A1"]
    assert _twice([a1]) == []
    a1.standing += tuple((n, e) for n, e in g.units["A2"].standing if n == BEACONS)  # an own copy too
    assert _twice([a1]) == [("A1", BEACONS), ("A1", BEACONS)]


# --- an aura a rule gives for a while: Arcanoscientific Expertise (Harbinger Cabal) -------------------


def test_the_same_timed_aura_from_two_crypteks_applies_once():
    """Arcanoscientific Expertise: each CRYPTEK unit gains one of three Auras until the start of
    the next Command phase; two that select Transharmonic Disruption (+1 Strength to friendly
    NECRONS units within 6") give a unit within 6" of both +1, not +2; each Cryptek, within 6" of
    the other, has it once; Quantum Interface, another aura, applies besides."""
    from test_detachment_rules import SHOT, army, game, unit
    from test_detachment_rules_late import ARCANO, _beside

    from bagm.engine.rules.effects import effect_defence, effect_weapon

    g = game(army("necrons_harbinger_cabal"))
    tech, chrono, psycho = [u for u in g.army_units("A") if "CRYPTEK" in u.keywords]
    moments.use_rule(g, "A", parse(f"use {tech.uid} {ARCANO}: Transharmonic Disruption"))
    moments.use_rule(g, "A", parse(f"use {chrono.uid} {ARCANO}: Transharmonic Disruption"))
    moments.use_rule(g, "A", parse(f"use {psycho.uid} {ARCANO}: Quantum Interface"))
    imm, t = unit(g, "Immortals"), g.army_units("B")[0]

    def strength(u: Any) -> int:
        return effect_weapon(u, u.ranged[0], t, holds_in(g)).strength - u.ranged[0].strength

    _beside(g, tech, chrono, 2.0)
    _beside(g, tech, imm, 3.0)
    assert positions.unit_distance(g, chrono, imm) <= 6
    assert (strength(imm), strength(tech), strength(chrono)) == (1, 1, 1)  # once each, not twice
    _beside(g, chrono, imm, 7.0)
    assert strength(imm) == (1 if positions.unit_distance(g, tech, imm) <= 6 else 0)
    _beside(g, psycho, imm, 3.0)
    assert effect_defence(imm, SHOT, holds_in(g))[0] == 5  # Quantum Interface applies too
    moments.end_timed(g, "next command A")
    assert strength(imm) == strength(tech) == 0 and not imm.timed and not tech.timed and not chrono.timed
