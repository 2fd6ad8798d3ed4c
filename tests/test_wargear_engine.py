"""The engine plays the chosen wargear (issue 13 section 1): each model fires and fights with
what it carries, each model has its own profile's Wounds, and a save against melee attacks
only counts in melee. Rosters without wargear play as before (the golden logs check that)."""

from __future__ import annotations

import copy
from pathlib import Path

from conftest import REPO, block, place

from bagm.chance.dice import Dice
from bagm.engine.attack.sequence import TargetUnit
from bagm.engine.game import kept, shooting
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.state.army import Model
from bagm.engine.state.wargear import expected, melee_plan

GK = REPO / "rosters" / "grey_knights_void_purge_force.yaml"
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B2 1", "deploy A5 1"]  # one unit per Entry Zone


def roster(tmp_path: Path, wargear: str) -> Path:
    text = GK.read_text(encoding="utf-8").replace(
        "  - unit: Strike Squad\n    models: 10\n",
        "  - unit: Strike Squad\n    models: 10\n" + wargear)
    path = tmp_path / "gk.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_roster_without_wargear_musters_as_before() -> None:
    army = build_army("A", str(GK))
    assert all(not u.kit and not u.mixed for u in army.units)
    squad = next(u for u in army.units if u.name == "Strike Squad A")
    assert {w.name for w in squad.ranged} == {"Storm bolter"}


def test_the_chosen_wargear_goes_to_one_boarding_squad(tmp_path: Path) -> None:
    army = build_army("A", str(roster(tmp_path, "    wargear: {psycannon: 1}\n")))
    a, b = (u for u in army.units if u.name.startswith("Strike Squad"))
    kits = [gear for u in (a, b) for _, gear in u.kit]
    assert len(kits) == 10 and sum("psycannon" in g for g in kits) == 1
    assert sum("storm bolter" in g for g in kits) == 9  # the heavy gunner has no storm bolter
    has = a if any("psycannon" in g for _, g in a.kit) else b
    other = b if has is a else a
    assert "Psycannon" in {w.name for w in has.ranged}
    assert "Psycannon" not in {w.name for w in other.ranged}


def _game(tmp_path: Path, wargear: str) -> Game:
    a = build_army("A", str(roster(tmp_path, wargear)))
    b = build_army("B", ORKS)
    g = Game(11, copy.deepcopy(a), copy.deepcopy(b), dice=Dice.scripted([]),
             rolloffs={"attacker": "A", "first_turn": "A"})
    from test_game_rules import play

    play(g, *DEPLOY)
    return g


def test_each_model_fires_what_it_carries(tmp_path: Path) -> None:
    g = _game(tmp_path, "    wargear: {psycannon: 1}\n")
    squad = next(u for u in g.units.values() if u.player == "A" and u.mixed
                 and any(m.gear and "psycannon" in m.gear for m in u.models))
    place(g, squad.uid, [(15, 15 + i * 1.4) for i in range(5)])
    place(g, "B3", block(25))
    plan = {w.name: n for w, n, _ in shooting.weapons_in_range(g, squad, g.units["B3"])}
    assert plan == {"Storm bolter": 4, "Psycannon": 1}
    squad.models = [m for m in squad.models if not (m.gear and "psycannon" in m.gear)]
    kept.touch(g, squad)
    plan = {w.name: n for w, n, _ in shooting.weapons_in_range(g, squad, g.units["B3"])}
    assert plan == {"Storm bolter": 4}  # the gunner is gone, and his gun with him


def test_a_model_with_only_a_pistol_fires_it_beside_the_others_guns() -> None:
    from bagm.data.weapons import WeaponProfile

    gun = WeaponProfile.from_data(_weapon("Gun", "ranged"))
    pistol = WeaponProfile.from_data(_weapon("Pistol", "ranged", pistol=True))

    class U:
        models = [Model(0, 0, 0.5, 1, gear=frozenset({"gun", "pistol"})),
                  Model(0, 0, 0.5, 1, gear=frozenset({"pistol"}))]

    own = shooting.own_weapons(U(), [gun, pistol])
    assert own == [[gun], [pistol]]  # Pistols: one or the other, model by model


def _weapon(name: str, kind: str, **kw: object) -> object:
    from types import SimpleNamespace

    abilities = [SimpleNamespace(name="pistol", value=None, target=None)] if kw.get("pistol") else []
    return SimpleNamespace(name=name, type=kind, A=kw.get("A", 1), skill=3, S=kw.get("S", 4),
                           AP=kw.get("AP", 0), D=kw.get("D", 1), range=None if kind == "melee"
                           else 12, abilities=abilities)


def test_each_model_fights_with_its_best_weapon() -> None:
    from types import SimpleNamespace

    from bagm.data.weapons import WeaponProfile

    ccw = WeaponProfile.from_data(_weapon("Close combat weapon", "melee", A=2))
    fist = WeaponProfile.from_data(_weapon("Power fist", "melee", A=3, S=8, AP=-2, D=2))
    target = SimpleNamespace(T=4, Sv=3, W=2, invuln=None, invuln_melee=None)
    assert expected(fist, target) > expected(ccw, target)
    sergeant = Model(0, 0, 0.5, 2, gear=frozenset({"close combat weapon", "power fist"}))
    marine = Model(0, 0, 0.5, 2, gear=frozenset({"close combat weapon"}))
    unit = SimpleNamespace(melee=[ccw, fist], mixed=True)
    assert melee_plan(unit, [sergeant, marine, marine], target) == [(ccw, 2), (fist, 1)]
    plain = SimpleNamespace(melee=[ccw, fist], mixed=False)  # as before: the first weapon
    assert melee_plan(plain, [sergeant, marine], target) == [(ccw, 2)]


def test_models_with_more_wounds_take_damage_first_when_hurt() -> None:
    # a character (W4) with servitors (W1): a hurt character is allocated to first, by its own W
    tu = TargetUnit([3, 1, 1], 1, fulls=[4, 1, 1])
    assert tu.allocate() == 0
    healthy = TargetUnit([4, 1, 1], 1, fulls=[4, 1, 1])
    assert healthy.allocate() == 0  # none hurt: the first in order
    old = TargetUnit([3, 1, 1], 1)  # without fulls every model would count as unhurt at W 1
    assert old.allocate() == 0


def test_each_model_gets_its_profiles_wounds(tmp_path: Path) -> None:
    path = tmp_path / "brokhyr.yaml"
    path.write_text("faction: Leagues of Votann\ndetachment: Void Salvagers\nunits:\n"
                    "  - unit: Brôkhyr Iron-master\n    warlord: true\n", encoding="utf-8")
    army = build_army("A", str(path))
    unit = army.units[0]
    models = unit.new_models([(0, 2.0 * i) for i in range(unit.starting)])
    walls = sorted(m.wounds for m in models)
    assert walls[-1] == 4 and walls[0] == 1 and unit.fulls() is None  # before set-up
    unit.models = models
    assert unit.fulls() == [m.wounds for m in models]


def test_a_save_against_melee_attacks_counts_only_in_melee() -> None:
    army = build_army("A", str(REPO / "rosters" / "aeldari_khaines_arrow.yaml"))
    banshees = next(u for u in army.units if u.name.startswith("Howling Banshees"))
    assert (banshees.invuln, banshees.invuln_melee) == (5, 4)  # from the datasheet
    assert banshees.invuln_against(5, ranged=True) == 5
    assert banshees.invuln_against(5, ranged=False) == 4  # the better of the two
    assert banshees.invuln_against(None, ranged=False) == 4
    assert banshees.invuln_against(3, ranged=False) == 3  # a better conferred one stays
    assert banshees.invuln_against(5, ranged=True) == 5


def test_a_fight_splits_the_attacks_by_each_models_weapon(tmp_path: Path) -> None:
    """The Boarding Squad holding the psycannon gunner fights: four Grey Knights strike with
    Nemesis force weapons and the gunner with his close combat weapon."""
    from conftest import advance_to
    from test_game_rules import play

    g = _game(tmp_path, "    wargear: {psycannon: 1}\n")
    squads = [u for u in g.units.values() if u.name.startswith("Strike Squad")]
    assert sum("psycannon" in (m.gear or ()) for u in squads for m in u.models) == 1
    sq = next(u for u in squads if any("psycannon" in (m.gear or ()) for m in u.models))
    place(g, sq.uid, block(14))
    place(g, "B3", block(20, dx=1.4))
    play(g, f"hold {sq.uid}")
    advance_to(g, "charge")
    g.dice = Dice.scripted([6, 6])
    play(g, f"charge {sq.uid} B3")
    g.dice = Dice(7)
    play(g, f"fight {sq.uid} B3")
    fight = next(e for e in g.events if e["e"] == "fight" and e["unit"] == sq.uid)
    attacks = [e for e in g.events if e["e"] == "attack" and e["unit"] == sq.uid]
    by_weapon = {e["weapon"]: e["models"] for e in attacks}
    assert by_weapon == {"Nemesis force weapon": fight["fighters"] - 1, "Close combat weapon": 1}


def test_the_defender_allocates_to_a_model_with_the_commonest_loadout_first(tmp_path: Path) -> None:
    """Core Rules, Allocate Attack: "the player controlling the target unit allocates that attack
    to one model in the target unit. If a model in the target unit has already lost one or more
    wounds, or has already had attacks allocated to it this phase, that attack must be allocated
    to that model." The engine allocates for the defender (``Unit.ranks``): a model with the
    unit's commonest loadout before one with other wargear. The psycannon gunner stands
    first in its squad; two mortal wounds (a Strike Squad model has 2 wounds) take a Storm bolter
    model, not him; a model already hurt is allocated to before any choice."""
    from bagm.engine.rules.missions.base import suffer_mortal_wounds

    g = _game(tmp_path, "    wargear: {psycannon: 1}\n")
    squad = next(u for u in g.units.values() if u.player == "A" and u.mixed
                 and any(m.gear and "psycannon" in m.gear for m in u.models))
    squad.models.sort(key=lambda m: not (m.gear and "psycannon" in m.gear))  # the gunner first
    gunner = squad.models[0]
    assert squad.ranks() == [1, 0, 0, 0, 0]
    suffer_mortal_wounds(g, squad, 2, "a test")
    assert len(squad.models) == 4 and gunner in squad.models and gunner.wounds == 2
    gunner.wounds = 1  # hurt: he must take the next wound, whatever the defender would choose
    suffer_mortal_wounds(g, squad, 1, "a test")
    assert gunner not in squad.models and len(squad.models) == 3
    tu = TargetUnit([2, 2, 1], 2, rank=[0, 0, 1])
    assert tu.allocate() == 2  # the hurt model, whatever the order
    assert TargetUnit([2, 2, 2], 2, rank=[1, 0, 1]).allocate() == 1
