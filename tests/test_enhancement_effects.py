"""Detachment Enhancements in play: each Enhancement a pack gives ``effects`` has a check here
that plays its effect with the pack's own data (scripted dice, or the game's state), and the
effect fields the Enhancements brought are tested in the attack sequence and the phases."""

from __future__ import annotations

import copy
import re
import tempfile
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import test_detachment_rules_late as late
import test_enhancements_late as enh_late
from conftest import REPO, advance_to, block, declined, place, without_rules

from bagm.chance.dice import Dice, DiceExpr
from bagm.data.models import Effect
from bagm.data.packs import Catalog
from bagm.data.schema import validate
from bagm.data.weapons import Abilities, WeaponProfile
from bagm.engine.attack.rules import AttackProfile, Conditions, Reroll, Target
from bagm.engine.attack.sequence import resolve
from bagm.engine.game import charge, control, fight, hatchways, hazardous, moments, movement, positions, shooting, sight
from bagm.engine.game import kept as kept_answers
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.rules.effects import effect_conditions, effect_defence, effect_has, effect_sum, effect_weapon
from bagm.engine.rules.uses import use_of
from bagm.engine.state.actions import Action, parse

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")
DEPLOY = ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
          "deploy A4 3", "deploy B2 1", "deploy A5 1"]
GUN = WeaponProfile("Test gun", False, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1), range=24)
BLADE = WeaponProfile("Test blade", True, DiceExpr(0, 6, 1), 3, 4, 0, DiceExpr(0, 6, 1))


@cache
def _catalog() -> Catalog:
    return Catalog()


@cache
def pack_enhancements() -> dict[str, Any]:
    """Every Detachment Enhancement of the bundled packs, by name."""
    return {e.name: e for f in _catalog().all() for n in f.detachments.names()
            for e in f.detachments.get(n).enhancements}


@cache
def _armies() -> tuple[Any, Any]:
    """The GK and Orks test armies without their Detachment rules: the Enhancement under test
    alone."""
    return build_army("A", GK, without_rules()), build_army("B", ORKS, without_rules())


GAMES: list[Game] = []


@pytest.fixture(autouse=True)
def _events_declared():
    """Every event the games of a test record is declared (bagm.engine.state.events)."""
    from test_events import problems

    GAMES.clear()
    yield
    for g in GAMES:
        for ev in g.events:
            assert not problems(ev), (ev, problems(ev))
    GAMES.clear()


def game(dice: list[int] | None = None) -> Game:
    """Grey Knights (A) against Orks (B), deployed; A's Movement phase, A with no CP (so no
    Command Re-roll is offered)."""
    a, b = (copy.deepcopy(x) for x in _armies())
    g = Game(11, a, b, dice=Dice.scripted(dice or []), rolloffs={"attacker": "A", "first_turn": "A"})
    g.leaders["A"] = g.leaders["B"] = []
    for t in DEPLOY:
        g.apply(parse(t))
    advance_to(g, "move")
    g.cp["A"] = g.cp["B"] = 0
    GAMES.append(g)
    return g


def bear(g: Game, uid: str, name: str) -> Any:
    """Unit ``uid`` bears the pack Enhancement ``name``: its effects, as muster gives them."""
    e = pack_enhancements()[name]
    assert e.effects or e.moments, f"{name} has no effects in its pack"
    u = g.units[uid]
    u.standing = u.standing + tuple((e.name, x) for x in e.effects or ())
    kept_answers.touch(g)
    return u


def attack(g: Game, a: str, t: str, w: WeaponProfile, dice: list[int]) -> tuple[int, int]:
    """``a`` attacks ``t`` with ``w`` (one model), every Command Re-roll declined; all the
    scripted ``dice`` used."""
    g.dice = Dice.scripted(dice)
    out = None
    # the attack, then the Hazardous tests the unit takes once it has resolved its attacks
    for steps in (shooting.attack(g, g.units[a], g.units[t], w, 1, Conditions(), None, ranged=not w.melee),
                  hazardous.take_hazardous(g, g.units[a])):
        try:
            next(steps)
            while True:
                steps.send(Action("pass"))
        except StopIteration as stop:
            out = out if out is not None else stop.value
    g.dice.assert_consumed()
    return out


# --- one check per encoded Enhancement ---------------------------------------------------------
# A3 (a Strike Squad: T4, Sv 3+, W2, OC 2, M6) bears it; B3 (Orks) is the enemy.


def fnp(threshold: int) -> Callable[[str], None]:
    def check(name: str) -> None:
        g = game()
        # hit 4, wound 4, save 1 (fails): the Feel No Pain roll of ``threshold`` keeps the wound
        bear(g, "A3", name)
        assert attack(g, "B3", "A4", GUN, [4, 4, 1]) == (1, 0)  # another unit: no roll
        assert attack(g, "B3", "A3", GUN, [4, 4, 1, threshold]) == (0, 0)
        assert attack(g, "B3", "A3", GUN, [4, 4, 1, threshold - 1]) == (1, 0)
    return check


def inured(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    assert attack(g, "B3", "A3", GUN, [4, 4, 1, 5]) == (1, 0)  # 6+ only
    assert attack(g, "B3", "A3", GUN, [4, 4, 1, 6]) == (0, 0)
    a3.kills = 1  # once it has destroyed an enemy unit: 5+
    assert attack(g, "B3", "A3", GUN, [4, 4, 1, 5]) == (0, 0)


def advance_then_charge(name: str, rerolls: bool = True) -> None:
    g = game()
    a3, a4 = bear(g, "A3", name), g.units["A4"]
    a3.moved = a4.moved = "advance"
    assert charge.charge_reason(g, a3) is None  # eligible to charge after Advancing
    assert charge.charge_reason(g, a4) == "it Advanced or Fell Back this turn"
    a3.moved = a4.moved = None
    if not rerolls:
        assert not effect_has(a3, "reroll_advance") and not effect_has(a3, "reroll_charge")
        return
    g.dice = Dice.scripted([1, 3])  # a free re-roll of the Advance roll (A has no CP)
    g.apply(parse("advance A3 40,15"))
    assert g.decision.step == "reroll" and g.decision.info["free"]
    g.apply(parse("reroll"))
    assert [e["roll"] for e in g.events if e["e"] == "advance_roll"][-2:] == [1, 3]
    g.dice.assert_consumed()
    g = game()
    bear(g, "A3", name)
    place(g, "A3", block(14))
    place(g, "B3", block(20, dx=1.4))
    g.apply(parse("hold A3"))
    advance_to(g, "charge")
    g.dice = Dice.scripted([1, 1, 2, 2])  # 2 fails; the free re-roll's 4 reaches Engagement Range
    g.apply(parse("charge A3 B3"))
    assert g.decision.step == "reroll" and g.decision.info["free"]
    g.apply(parse("reroll"))
    assert g.units["A3"].charged
    g.dice.assert_consumed()


def move_plus_2(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    assert a3.move() == a3.M + 2
    g.apply(parse("move A3 40,15"))
    ev = [e for e in g.events if e["e"] == "move"][-1]
    assert a3.M < ev["moved"] <= a3.M + 2 + 1e-9


def venom(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    w = effect_weapon(a3, BLADE)
    assert (w.strength, w.ap, w.damage.bonus) == (5, -2, 2)
    assert effect_weapon(a3, GUN) is GUN  # melee weapons only
    # S5 against T5 Nobz: wound on 4+ (not 5+); AP -2 against Sv 4+: a 5 fails; Damage 2
    b3 = g.units["B3"]
    assert (b3.T, b3.Sv, b3.W) == (5, 4, 2)
    assert attack(g, "A3", "B3", BLADE, [4, 4, 5]) == (2, 1)


def minus_to_hit(melee_only: bool, wound: bool = False) -> Callable[[str], None]:
    def check(name: str) -> None:
        g = game()
        bear(g, "A3", name)
        # a hit roll of 3 against 3+: misses with -1 to be hit
        assert attack(g, "B3", "A3", BLADE, [3]) == (0, 0)
        assert attack(g, "B3", "A3", GUN, [3, 4, 1] if melee_only else [3]) == ((1, 0) if melee_only else (0, 0))
        if wound:  # and -1 to wound: a 4 against T4 (4+) fails
            assert attack(g, "B3", "A3", GUN, [4, 4]) == (0, 0)
            assert attack(g, "B3", "A3", GUN, [4, 5, 1]) == (1, 0)
    return check


def minus_damage(name: str) -> None:
    g = game()
    bear(g, "A3", name)
    d2 = replace(GUN, damage=DiceExpr(0, 6, 2))
    # hit 4, wound 4, save 1: Damage 2 - 1 = 1 (the W2 model lives), not 2
    assert attack(g, "B3", "A3", d2, [4, 4, 1]) == (1, 0)
    assert attack(g, "B3", "A4", d2, [4, 4, 1]) == (2, 1)  # not the bearer's unit
    # never below 1: Damage 1 - 1 is still 1, and the wounded model dies
    assert attack(g, "B3", "A3", GUN, [4, 4, 1]) == (1, 1)


def oc_5(name: str, after_kill: bool = False) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    if after_kill:
        assert a3.oc() == a3.OC == 2
        a3.kills = 1
    assert a3.oc() == 5 and g.units["A4"].oc() == 2
    a3.battleshocked = True
    assert a3.oc() == 0  # Battle-shocked: OC 0
    if name == "Dark Charisma":
        assert effect_has(a3, "reroll_leadership")


def mustered(roster: str, name: str, t: int, w: int, invuln: int | None = None) -> Callable[[str], None]:
    def check(_: str) -> None:
        army = build_army("A", str(REPO / "rosters" / roster))
        u = next(u for u in army.units if u.enhancement == name)
        prof = next(iter(u.datasheet.models))
        assert (u.T, u.W) == (prof.T + t, prof.W + w)
        assert [m.wounds for m in u.new_models([(0.0, 0.0)])] == [prof.W + w]
        if invuln is not None:
            assert effect_defence(u)[0] == invuln
    return check


def fatal_caress(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    dev = BLADE.with_abilities(devastating_wounds=True)
    assert effect_conditions(a3, g.units["B3"], dev, Conditions()).critical_wound == 5
    assert effect_conditions(a3, g.units["B3"], GUN, Conditions()).critical_wound == 6  # melee only
    # hit 3, wound 5: a Critical Wound (Devastating Wounds: no save), 1 mortal wound
    assert attack(g, "A3", "B3", dev, [3, 5]) == (1, 0)


def grace(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    d3 = replace(GUN, damage=DiceExpr(1, 3, 0))
    c = effect_conditions(a3, g.units["B3"], d3, Conditions())
    assert (c.reroll_hits, c.reroll_wounds, c.reroll_damage_ones) == (Reroll.ones, Reroll.ones, True)
    # hit 1 re-rolled to 4; wound 1 re-rolled to 5 (T5: 5+); save 1; Damage 1 re-rolled to 2
    assert attack(g, "A3", "B3", d3, [1, 4, 1, 5, 1, 1, 2]) == (2, 1)  # a W2 Nob


def spite(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    b3 = g.units["B3"]
    assert effect_weapon(b3, BLADE, a3).abilities.hazardous
    assert not effect_weapon(b3, GUN, a3).abilities.hazardous  # melee weapons only
    assert not effect_weapon(b3, BLADE, g.units["A4"]).abilities.hazardous
    # B3's melee attack on A3: a miss, then its Hazardous test fails (1): 3 mortal wounds on B3
    before = sum(m.wounds for m in b3.models)
    attack(g, "B3", "A3", BLADE, [1, 1])
    assert sum(m.wounds for m in b3.models) < before
    assert any(e["e"] == "hazardous" and e["unit"] == "B3" for e in g.events)


def resolute(name: str) -> None:
    g = game()
    a3, a4 = bear(g, "A3", name), g.units["A4"]
    a3.moved = a4.moved = "fallback"
    assert charge.charge_reason(g, a3) is None and charge.charge_reason(g, a4) == "it Advanced or Fell Back this turn"
    a3.moved = a4.moved = None
    # Battle-shocked and engaged: every model would take a Desperate Escape test; none is rolled
    place(g, "A3", block(14))
    place(g, "B3", block(15.6, dx=1.4))
    a3.battleshocked = True
    kept_answers.touch(g)
    fall_back = next(a for a in g.legal_actions() if a.kind == "fallback" and a.unit == "A3")
    g.dice = Dice.scripted([])
    g.apply(fall_back)
    assert a3.moved == "fallback" and len(a3.models) == 5
    assert not any(e["e"] == "desperate_escape" for e in g.events)


def prismatic(name: str) -> None:
    def overwatch_offered(uid: str) -> bool:
        g = game()
        bear(g, "A3", name)
        place(g, "B3", block(30, dx=1.4))
        place(g, uid, block(14))
        g.units["B3"].overwatch_until = 99  # B3 has Set Overwatch
        kept_answers.touch(g)
        g.dice = Dice(1)
        g.apply(parse(f"move {uid} 20,15"))
        return g.decision.step == "overwatch" and g.decision.player == "B"
    assert overwatch_offered("A4") and not overwatch_offered("A3")


def unseen_pair(g: Game) -> None:
    """A3 and B3 8\" apart (around Walls) with a Wall between them: neither sees the other."""
    place(g, "A3", [(2.0, 2.0)])
    place(g, "B3", [(4.0, 10.0)])
    kept_answers.touch(g)
    assert not sight.visible_idx(g, g.units["A3"], g.units["B3"]) and positions.unit_distance(g, g.units["A3"], g.units["B3"]) <= 12


def psi_spoor(name: str) -> None:
    g = game()
    unseen_pair(g)
    assert parse("charge A3 B3") not in charge.legal_charge(g, "A")
    bear(g, "A3", name)
    assert parse("charge A3 B3") in charge.legal_charge(g, "A")


def to_b_command(g: Game) -> None:
    """On to player B's first turn, just after its Command phase; engaged units fight (the
    callers leave them no melee weapons: no dice)."""
    for _ in range(50):
        d = g.decision
        if d.step == "fight":
            g.apply(g.legal_actions()[0])
        elif d.step == "move" and d.player == "B":
            return
        else:
            g.apply(Action("done" if d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
                           else "pass"))
    raise AssertionError("never reached B's Movement phase")


def nanoscarab(name: str) -> None:
    g = game()
    a3, a4 = bear(g, "A3", name), g.units["A4"]
    a3.models[0].wounds = a4.models[0].wounds = 1  # each lost 1 of 2 wounds
    to_b_command(g)  # "in each player's Command phase": the opponent's too
    assert a3.models[0].wounds == 2 and a4.models[0].wounds == 1
    assert [e["unit"] for e in g.events if e["e"] == "regain_wounds"] == ["A3"]


def a3_on_marker_1(name: str, bearer: str) -> Game:
    """``bearer`` bears ``name``; A3 holds objective marker 1 (controlled by A, not Secured)."""
    g = game()
    bear(g, bearer, name)
    mk = g.map.layout.markers[0]
    place(g, "A3", block(mk.x - 1.2, mk.y))
    kept_answers.touch(g)
    control.update_control(g, False)
    assert g.control[0] == "A" and g.secured[0] is None
    return g


def secure_2(name: str) -> None:
    for roll, secured in ((2, True), (1, False)):
        g = a3_on_marker_1(name, "A3")
        g.dice = Dice.scripted([])  # B's turn: no roll
        advance_to(g, "move", "B")
        g.dice = Dice.scripted([roll])  # A's next Command phase: the one roll
        advance_to(g, "move", "A")
        g.dice.assert_consumed()
        assert (g.secured[0] == "A") == secured
        ev = [e for e in g.events if e["e"] == "secure_roll"]
        assert [(e["unit"], e["roll"], e["secured"]) for e in ev] == [("A3", roll, secured)]


def shock(name: str, engaged: bool) -> None:
    for lost, mod in ((1, 0), (3, -1)):  # below Starting Strength; Below Half-strength: -1
        g = game()
        bear(g, "A3", name)
        place(g, "A3", block(14))
        place(g, "B3", block(15.6 if engaged else 16.5, dx=1.4)[:5 - lost])
        place(g, "B4", block(17.0, y=25.0, dx=1.4))  # at full strength: no test
        g.units["A3"].melee = g.units["B3"].melee = []  # the fight, if any, rolls no dice
        kept_answers.touch(g)
        assert positions.engaged(g, g.units["A3"], g.units["B3"]) == engaged
        g.dice = Dice.scripted([4, 3])  # B's Battle-shock step: B3's test, 7 (+ mod) against Ld 7
        to_b_command(g)
        g.dice.assert_consumed()
        test = [e for e in g.events if e["e"] == "battleshock_test"]
        assert [(e["unit"], e.get("mod", 0)) for e in test] == [("B3", mod)]
        assert g.units["B3"].battleshocked == (mod < 0)


def seal(name: str) -> None:
    g = game()
    # once per battle, when the bearer's unit is selected as the target of attacks
    use_moment(g, "A3", name, "targeted")
    ap3 = replace(GUN, ap=-3)
    # hit 4, wound 4; the armour save (2+, AP -3: 5+) would fail on a 3; the 3+ invulnerable holds
    assert attack(g, "B3", "A3", ap3, [4, 4, 3]) == (0, 0)
    assert attack(g, "B3", "A4", ap3, [4, 4, 3]) == (1, 0)
    moments.end_timed(g, "phase")  # until the end of the phase
    assert attack(g, "B3", "A3", ap3, [4, 4, 3]) == (1, 0)


def at_hatchway(g: Game, blocker: bool = True) -> None:
    """A3 (one model) within 1" of closed Hatchway 2 (a door from (8.55, 5.17) to (9.05, 7.69));
    B3 (one model) within 1" of its other side (it can try to prevent it being opened), or far."""
    assert not g.bf.is_open(1)
    place(g, "A3", [(7.4, 6.43)])
    place(g, "B3", [(10.0, 6.43)] if blocker else block(40.0, 30.0, dx=1.4))
    kept_answers.touch(g)
    assert not positions.engaged(g, g.units["A3"], g.units["B3"])
    g.apply(parse("done"))  # Operating Hatchways: at the end of the Move Units step
    assert g.decision.step == "hatch"


def hatch_rolloff(name: str) -> None:
    for dice, opened in (([1, 3, 6], True), ([6, 1], True), ([1, 3, 2], False)):
        g = game()
        bear(g, "A3", name)
        at_hatchway(g)
        # A rolls 1 + T4 = 5 against B's 3 + T5 = 8: a losing result is re-rolled (6 + 4 = 10)
        g.dice = Dice.scripted(dice)
        g.apply(parse("hatch A3 2"))
        g.dice.assert_consumed()
        assert g.bf.is_open(1) == opened
    g = game()  # without it: no re-roll
    at_hatchway(g)
    g.dice = Dice.scripted([1, 3])
    g.apply(parse("hatch A3 2"))
    assert not g.bf.is_open(1)
    # "add 1 to the bearer's Toughness": at muster
    mustered("heretic_astartes_infernal_reavers.yaml", name, 1, 0)(name)


def battering_ram(name: str) -> None:
    g = game()
    bear(g, "A3", name)
    at_hatchway(g)
    # no roll-off (the opponent cannot try to prevent it); B3, within 6" and wholly on the other
    # side, takes a Battle-shock test: 3 + 3 = 6 against Leadership 7 fails
    g.dice = Dice.scripted([3, 3])
    g.apply(parse("hatch A3 2"))
    g.dice.assert_consumed()
    assert g.bf.is_open(1) and g.units["B3"].battleshocked
    assert not any(e["e"] == "hatch_rolloff" for e in g.events)


def eldanesh(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    assert fight.fights_first(a3) and not fight.fights_first(g.units["A4"])
    at_hatchway(g, blocker=False)
    assert effect_weapon(a3, BLADE) == BLADE
    g.dice = Dice.scripted([])
    g.apply(parse("hatch A3 2"))
    assert g.bf.is_open(1) and a3.opened
    assert effect_weapon(a3, BLADE).ap == -1 and effect_weapon(a3, GUN) == GUN  # melee, until the end of the turn
    advance_to(g, "move", "B")
    assert not a3.opened and effect_weapon(a3, BLADE) == BLADE


def spiteful_imp(name: str) -> None:
    g = game()
    bear(g, "B3", name)
    at_hatchway(g)  # B3, the bearer, within 1" of the Hatchway A3 opens
    # the roll-off: A 6 + 4 against B 1 + 5; then the Enhancement's D6: 5, 2 mortal wounds
    g.dice = Dice.scripted([6, 1, 5])
    g.apply(parse("hatch A3 2"))
    g.dice.assert_consumed()
    assert g.bf.is_open(1) and not g.units["A3"].alive  # one W2 model
    ev = [e for e in g.events if e["e"] == "mortal_wounds"]
    assert [(e["unit"], e["amount"], e["why"]) for e in ev] == [("A3", 2, name)]


def chain_flails(name: str) -> None:
    for roll, lost in ((1, 0), (4, 1), (5, 2)):
        g = game()
        bear(g, "B3", name)
        place(g, "A3", block(14))
        place(g, "B3", block(15.6, dx=1.4))
        kept_answers.touch(g)
        fall_back = next(a for a in g.legal_actions() if a.kind == "fallback" and a.unit == "A3")
        g.dice = Dice.scripted([roll] + [6] * 5)  # then any Desperate Escape tests: passed
        g.apply(fall_back)
        ev = [e for e in g.events if e["e"] == "mortal_wounds"]
        assert [e["amount"] for e in ev] == ([lost] if lost else [0] if ev else [])
        assert sum(m.wounds for m in g.units["A3"].models) == 10 - lost


def use_moment(g: Game, uid: str, name: str, timing: str) -> None:
    """Muster's part (the bearer's unit may use the Enhancement's moments), then its use."""
    g.armies["A"].uses = g.armies["A"].uses + tuple(
        use_of(m, name, "Enhancement", uid) for m in pack_enhancements()[name].moments)
    assert [a.text() for a in moments.usable(g, "A", timing, uid)] == [f"use {uid} {name}"]
    assert moments.usable(g, "A", timing, "A4" if uid != "A4" else "A3") == []  # the bearer's unit only
    steps = moments.moment(g, timing, "A", g.units[uid])
    assert next(steps).step == "use"
    with pytest.raises(StopIteration):
        steps.send(parse(f"use {uid} {name}"))
    assert moments.usable(g, "A", timing, uid) == []  # once per battle


def heirloom(name: str) -> None:
    g = game()
    a3 = g.units["A3"]
    rapier = replace(BLADE, name="Monomolecular cane-rapier", skill=3, strength=4, ap=-1)
    use_moment(g, "A3", name, "selected_to_fight")
    w = effect_weapon(a3, rapier)
    assert (w.attacks.bonus, w.skill, w.strength, w.ap, w.damage.bonus) == (2, 2, 5, -2, 2)
    assert effect_weapon(a3, BLADE) == BLADE  # its other weapons: unchanged
    # hit 2 (WS 2+), wound 4 (S5 against T5), save 5 (Sv 4+, AP -2: 6+): Damage 2 kills a Nob
    assert attack(g, "A3", "B3", rapier, [2, 2, 4, 4, 5, 6]) == (2, 1)
    moments.end_timed(g, "phase")
    assert effect_weapon(a3, rapier) == rapier


def vile_surgeon(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    tools = replace(BLADE, name="Haemonculus tools and scissorhands", damage=DiceExpr(1, 3, 0))
    b1, b3 = g.units["B1"], g.units["B3"]
    assert "CHARACTER" in b1.keywords and "CHARACTER" not in b3.keywords
    assert effect_weapon(a3, tools, b1).damage == DiceExpr(0, 6, 3)
    assert effect_weapon(a3, tools, b3) == tools and effect_weapon(a3, tools) == tools
    assert effect_weapon(a3, BLADE, b1) == BLADE  # its other weapons
    # against the Warboss (W6): hit 3, wound 5 (S4 against T5), save 1: Damage 3, no roll
    assert attack(g, "A3", "B1", tools, [3, 5, 1]) == (3, 0)


def reinvigoration(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    a3.models[0].wounds = 1
    d2 = replace(BLADE, damage=DiceExpr(0, 6, 2))
    # a melee attack destroys a Nob (hit 3, wound 5, save 1, Damage 2); the D6: 5 regains a wound
    assert attack(g, "A3", "B3", d2, [3, 5, 1, 5]) == (2, 1)
    assert a3.models[0].wounds == 2
    a3.models[0].wounds = 1
    assert attack(g, "A3", "B3", d2, [3, 5, 1, 4]) == (2, 1)  # a 4: none
    assert attack(g, "A3", "B3", d2, [3, 5, 1, 6]) == (2, 1)  # the second this phase
    assert a3.models[0].wounds == 2
    a3.models[0].wounds = 1
    assert attack(g, "A3", "B3", d2, [3, 5, 1]) == (2, 1)  # two this phase already: no roll
    assert attack(g, "A3", "B3", replace(GUN, damage=DiceExpr(0, 6, 2)), [3, 5, 1]) == (2, 1)  # ranged: none


def before_battle(name: str, uid: str = "A3") -> Game:
    """The game with ``uid`` bearing ``name`` from muster on, deployed: A3 and A1 in Entry Zone
    2, A4 in 3 (see DEPLOY); the start of the first battle round."""
    a, b = (copy.deepcopy(x) for x in _armies())
    g = Game(11, a, b, dice=Dice.scripted([]), rolloffs={"attacker": "A", "first_turn": "A"})
    g.leaders["A"] = g.leaders["B"] = []
    GAMES.append(g)
    bear(g, uid, name)
    for t in DEPLOY:
        g.apply(parse(t))
    return g


def opening_own(name: str) -> None:
    g = before_battle(name)
    a3 = g.units["A3"]
    assert (g.decision.step, g.decision.player, g.round) == ("opening", "A", 1)
    assert set(movement.opening_movers(g, "A")) == {"A3"}
    mk = g.map.layout.markers[0]
    start = (a3.models[0].x, a3.models[0].y)
    g.apply(parse(f"move A3 {mk.x},{mk.y}"))  # a Normal move of up to 6"
    ev = [e for e in g.events if e["e"] == "move"][-1]
    assert ev["unit"] == "A3" and ev["why"] == name and 0 < ev["moved"] <= 6 + 1e-9
    assert (a3.models[0].x, a3.models[0].y) != start
    assert g.decision.step == "move" and g.phase == "movement"  # B has none: on to the first turn
    advance_to(g, "move")
    assert a3.moved is None  # it moves again in its Movement phase
    g = before_battle(name)
    g.apply(parse("done"))  # or not at all
    assert g.decision.step == "move" and not any(e["e"] == "move" for e in g.events)
    with pytest.raises(IllegalAction):  # only before the first turn
        g.check_as("opening", "A", parse("move A3 20,15"))


def speartip(name: str) -> None:
    g = before_battle(name)
    assert set(movement.opening_movers(g, "A")) == {"A3", "A1"}  # the bearer's unit, one other in Entry Zone 2
    g.apply(parse("move A1 20,15"))
    assert set(movement.opening_movers(g, "A")) == {"A3"}  # up to one other unit
    g.apply(parse("move A3 20,15"))
    assert g.decision.step == "move" and g.phase == "movement"
    assert [e["unit"] for e in g.events if e["e"] == "move"] == ["A1", "A3"]


def thrallmaster(name: str) -> None:
    a, b = (copy.deepcopy(x) for x in _armies())
    a1 = a.units[0]
    a1.datasheet = copy.copy(a1.datasheet)
    a1.datasheet.name = "Tzaangors"  # stands in for a Tzaangors unit, in Entry Zone 2 with A3
    g = Game(11, a, b, dice=Dice.scripted([]), rolloffs={"attacker": "A", "first_turn": "A"})
    g.leaders["A"] = g.leaders["B"] = []
    GAMES.append(g)
    bear(g, "A3", name)
    for t in DEPLOY:
        g.apply(parse(t))
    assert g.decision.step == "opening" and set(movement.opening_movers(g, "A")) == {"A1"}  # not the bearer
    g.apply(parse("move A1 20,15"))
    assert g.decision.step == "move" and g.phase == "movement"


def elimination(name: str) -> None:
    g = before_battle(name)
    assert g.decision.step == "opening"
    legal = g.legal_actions()
    assert {a.text() for a in legal} == {f"mark A3 {u.uid}" for u in g.army_units("B")}  # first of all
    with pytest.raises(IllegalAction):
        g.apply(parse("done"))
    g.apply(parse("mark A3 B3"))
    assert g.units["B3"].marked == {name} and g.decision.step == "move"
    a3, b3, b4 = g.units["A3"], g.units["B3"], g.units["B4"]
    assert effect_conditions(a3, b3, GUN, Conditions()).wound_mod == 1  # S4 against T5
    assert effect_conditions(a3, b4, GUN, Conditions()).wound_mod == 0  # not the selected unit
    assert effect_conditions(a3, b3, replace(GUN, strength=5), Conditions()).wound_mod == 0  # S5: not less
    assert effect_conditions(g.units["A4"], b3, GUN, Conditions()).wound_mod == 0  # the bearer's unit only
    # S4 against T5 wounds on a 5+; the 4 rolled, +1, wounds
    assert attack(g, "A3", "B3", GUN, [3, 4, 1]) == (1, 0)
    assert attack(g, "A3", "B4", GUN, [3, 4]) == (0, 0)


def experienced_leader(name: str) -> None:
    army = build_army("A", str(REPO / "rosters" / "tau_empire_kroot_raiding_party.yaml"))
    shaper = next(u for u in army.units if u.enhancement == name)
    kroot = [u for u in army.units if "KROOT" in u.keywords]
    assert len(kroot) > 2 and all(any(n == name for n, _ in u.standing) for u in army.units)
    b = copy.deepcopy(_armies()[1])
    g = Game(11, army, b, dice=Dice(1), rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    from bagm.engine.bots import make_bot
    bot = make_bot("greedy")
    while g.decision.step != "opening":
        g.apply(bot(g))
    assert g.decision.player == "A" and all(a.kind == "mark" for a in g.legal_actions())
    g.apply(parse("mark " + shaper.uid + " B3"))
    carnivores = next(u for u in kroot if u is not shaper)
    b3, b4 = g.units["B3"], g.units["B4"]
    c = effect_conditions(carnivores, b3, GUN, Conditions())
    assert c.reroll_wounds == Reroll.failed  # a KROOT unit of the army, against the selected unit
    assert effect_conditions(carnivores, b4, GUN, Conditions()).reroll_wounds == Reroll.none
    # a failed Wound roll (2: S4 against T5) re-rolled: 5 wounds; the save (Sv 4+) 1 fails
    assert attack(g, carnivores.uid, "B3", GUN, [3, 2, 5, 1]) == (1, 0)
    # once the bearer is destroyed, no longer ("if the bearer is on the battlefield")
    shaper.models[1:] = []
    shaper.models[0].wounds = 1
    attack(g, "B3", shaper.uid, replace(GUN, strength=8, ap=-4), [6, 6])  # no save can be made
    assert not shaper.alive
    assert effect_conditions(carnivores, b3, GUN, Conditions()).reroll_wounds == Reroll.none


def near_bearer(name: str, rename: str | None = None, keyword: str | None = None) -> Game:
    """A1 (the Chaplain) bears ``name``, a moment whose TARGET is a friendly unit near it; A3
    stands 2" from it (and A4 far off), both renamed ``rename`` or given ``keyword``."""
    g = game()
    for uid in ("A3", "A4"):
        u = g.units[uid]
        if rename:
            u.datasheet = copy.copy(u.datasheet)
            u.datasheet.name = rename
        if keyword:
            u.keywords = u.keywords | {keyword}
    place(g, "A1", [(14.0, 15.0)])
    place(g, "A3", block(17.2))
    kept_answers.touch(g)
    assert positions.unit_distance(g, g.units["A1"], g.units["A4"]) > 9  # where it was deployed (Entry Zone 3)
    g.armies["A"].uses = g.armies["A"].uses + tuple(
        use_of(m, name, "Enhancement", "A1") for m in pack_enhancements()[name].moments)
    return g


def at(g: Game, phase: str, active: str) -> None:
    g.phase, g.active = phase, active  # type: ignore[assignment]


def use_near(g: Game, timing: str, unit: str | None, name: str) -> None:
    assert [a.text() for a in moments.usable(g, "A", timing, unit)] == [f"use A3 {name}"]
    moments.use_rule(g, "A", parse(f"use A3 {name}"))
    assert moments.usable(g, "A", timing, unit) == []


def synaptic_goad(name: str) -> None:
    g = near_bearer(name, rename="Tyranid Warriors with Melee Bio-weapons")
    at(g, "command", "A")
    a3 = g.units["A3"]
    use_near(g, "phase_start", None, name)  # A3 within 6" of the bearer; not A4
    assert a3.move() == a3.M + 2 and g.units["A4"].move() == g.units["A4"].M
    moments.end_timed(g, "turn")
    assert a3.move() == a3.M


def microdrones(name: str) -> None:
    g = near_bearer(name, rename="Strike Team")
    at(g, "shooting", "A")
    a3 = g.units["A3"]
    assert moments.usable(g, "A", "selected_to_shoot", "A4") == []  # too far
    use_near(g, "selected_to_shoot", "A3", name)
    assert effect_weapon(a3, GUN).ap == -1 and effect_weapon(a3, BLADE) == BLADE  # ranged weapons
    g.turn += 1  # once per turn
    assert moments.usable(g, "A", "selected_to_shoot", "A3") != []


def direct_guidance(name: str) -> None:
    g = near_bearer(name, keyword="WRAITH CONSTRUCT")
    at(g, "movement", "A")
    a3 = g.units["A3"]
    use_near(g, "phase_end", None, name)
    a3.moved = "fallback"
    assert shooting.shoot_reason(g, a3) is None and charge.charge_reason(g, a3) is None
    g.units["A4"].moved = "fallback"
    assert shooting.shoot_reason(g, g.units["A4"]) == "it Fell Back this turn"


def prescient(name: str) -> None:
    g = near_bearer(name, rename="Tzaangors")
    place(g, "A3", block(16.0))  # within 3" of the bearer
    kept_answers.touch(g)
    at(g, "fight", "A")
    a3 = g.units["A3"]
    use_near(g, "selected_to_fight", "A3", name)
    assert effect_conditions(a3, g.units["B3"], BLADE, Conditions()).reroll_wounds == Reroll.ones
    at(g, "shooting", "A")
    assert moments.usable(g, "A", "selected_to_shoot", "A3") == []  # once per turn, shooting or fighting


def rabble_rouser(name: str) -> None:
    g = near_bearer(name, rename="Cultist Mob")
    at(g, "shooting", "A")
    a3 = g.units["A3"]
    use_near(g, "selected_to_shoot", "A3", name)
    assert effect_weapon(a3, GUN).attacks.bonus == 2 and effect_weapon(a3, BLADE).attacks.bonus == 2
    moments.end_timed(g, "phase")
    at(g, "fight", "A")
    assert moments.usable(g, "A", "selected_to_fight", "A3") == []  # once per turn


def runes(name: str) -> None:
    g = near_bearer(name, keyword="AELDARI")
    at(g, "shooting", "B")  # the opponent's Shooting phase
    a3, b3 = g.units["A3"], g.units["B3"]
    ap1 = replace(GUN, ap=-1)
    use_near(g, "targeted", "A3", name)
    assert effect_weapon(b3, ap1, a3).ap == 0 and effect_weapon(b3, ap1, g.units["A4"]).ap == -1
    assert effect_weapon(b3, GUN, a3).ap == 0  # never better than 0


def warp_mastery(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    d3 = replace(GUN, attacks=DiceExpr(1, 3, 0))
    psychic = replace(d3, name="Test psychic gun", abilities=Abilities(psychic=True))
    assert effect_conditions(a3, g.units["B3"], psychic, Conditions()).reroll_attacks
    assert not effect_conditions(a3, g.units["B3"], d3, Conditions()).reroll_attacks  # [PSYCHIC] only
    # D3 attacks: a 1 (below the average, 2) re-rolled to 3; three Hit rolls of 1 miss
    assert attack(g, "A3", "B3", psychic, [1, 3, 1, 1, 1]) == (0, 0)
    assert attack(g, "A3", "B3", psychic, [2, 1, 1]) == (0, 0)  # a 2: kept
    assert attack(g, "A3", "B3", d3, [1, 1]) == (0, 0)  # not psychic: no re-roll


def virulent(name: str) -> None:
    for shocked, roll, lost in ((False, 3, 0), (True, 3, 5), (True, 4, 0)):
        g = game()
        bear(g, "B3", name)
        place(g, "A3", block(14))
        place(g, "B3", block(15.6, dx=1.4))
        a3 = g.units["A3"]
        a3.battleshocked = shocked
        kept_answers.touch(g)
        fall_back = next(a for a in g.legal_actions() if a.kind == "fallback" and a.unit == "A3")
        g.dice = Dice.scripted([roll] * 5)  # every model tests (as if Battle-shocked); -1 if it is
        g.apply(fall_back)
        g.dice.assert_consumed()
        ev = next(e for e in g.events if e["e"] == "desperate_escape")
        assert (ev["tests"], ev["destroyed"]) == (5, lost)


def detonator(name: str, shocks: bool = False) -> None:
    for roll, hurt in ((5, True), (1, False)):
        g = game()
        bear(g, "B3", name)  # anywhere on the battlefield
        at_hatchway(g, blocker=False)
        g.dice = Dice.scripted([roll])
        g.apply(parse("hatch A3 2"))
        g.dice.assert_consumed()
        a3 = g.units["A3"]
        if shocks:
            assert a3.battleshocked == (roll >= 2)
        else:
            assert a3.alive != hurt  # 2 mortal wounds on a 5+: the one W2 model
        assert ("B", name, 0) in g.used  # once per battle


def fires_of_change(name: str) -> None:
    g = game()
    a3 = bear(g, "A3", name)
    a3.ranged = [replace(GUN, name="Test psychic gun", abilities=Abilities(psychic=True))]
    place(g, "A3", block(14))
    place(g, "B3", block(24, dx=1.4))
    kept_answers.touch(g)
    advance_to(g, "shoot")
    # five attacks: one hits (3), its Wound roll fails (1: S4 against T5); then B3's Battle-shock
    # test: 3 + 3 = 6, less 1, against Leadership 7
    g.dice = Dice.scripted([3, 1, 1, 1, 1, 1, 3, 3])
    g.apply(parse("shoot A3 B3"))
    g.dice.assert_consumed()
    ev = [e for e in g.events if e["e"] == "battleshock_test"]
    assert [(e["unit"], e["mod"], e["why"]) for e in ev] == [("B3", -1, name)]
    assert g.units["B3"].battleshocked


def saboteur(name: str) -> None:
    for roll, kept in ((3, False), (2, True)):
        g = a3_on_marker_1(name, "B3")
        g.apply(parse("done"))  # A's Move Units step ends; then to its Shooting phase
        advance_to(g, "manoeuvre")
        g.apply(parse("manoeuvre A3 secure 1"))  # Secure Site: at the start of A's next Command phase
        g.dice = Dice.scripted([])
        advance_to(g, "move", "B")
        g.dice = Dice.scripted([roll])  # the first time A's army Secures a marker: 3+, it is not
        advance_to(g, "move", "A")
        g.dice.assert_consumed()
        assert (g.secured[0] == "A") == kept
        assert ("B", name, 0) in g.used  # the first time only


def haruspexy(name: str) -> None:
    g = game()
    unseen_pair(g)  # 8" apart, not visible
    bear(g, "A3", name)
    assert parse("charge A3 B3") in charge.legal_charge(g, "A")  # within 9"
    g.units["A3"].standing = ((name, validate(Effect, {"charge_unseen": 7, "trigger_once": True})),)
    assert parse("charge A3 B3") not in charge.legal_charge(g, "A")  # beyond the reach
    g = game()
    unseen_pair(g)
    bear(g, "A3", name)
    advance_to(g, "charge")
    g.dice = Dice(1)
    g.apply(parse("charge A3 B3"))
    assert ("A", name, 0) in g.used  # once per battle: spent
    assert parse("charge A3 B3") not in charge.legal_charge(g, "A")


def domineering(name: str) -> None:
    for lost, shocked in ((0, False), (3, True)):  # 3 + 4 = 7 passes (Ld 7); Below Half-strength: 7 - 1
        g = game()
        bear(g, "A3", name)
        place(g, "A3", block(14))
        place(g, "B3", block(17.8, dx=1.4)[:5 - lost])  # 2" away: within 3", not engaged
        kept_answers.touch(g)
        assert not positions.engaged(g, g.units["A3"], g.units["B3"])
        g.dice = Dice.scripted([])
        for _ in range(40):
            if g.decision.step == "shock":
                break
            g.apply(parse("done" if g.decision.step in ("move", "hatch", "manoeuvre", "shoot", "charge")
                          else "pass"))
        d = g.decision
        assert (d.step, d.player, d.info["options"]) == ("shock", "A", ["B3"])  # B's Battle-shock step
        assert [a.text() for a in g.legal_actions()] == ["mark A3 B3"]
        assert g.units["B3"].Ld == 7
        g.dice = Dice.scripted([3, 4])
        g.apply(parse("mark A3 B3"))
        g.dice.assert_consumed()
        if g.decision.step == "bravery":  # Insane Bravery offered to B: declined
            g.apply(parse("pass"))
        test = [e for e in g.events if e["e"] == "battleshock_test"]
        assert [(e["unit"], e.get("mod", 0)) for e in test] == [("B3", -1 if lost else 0)]
        assert g.units["B3"].battleshocked == shocked


def clavitine(name: str) -> None:
    g = game()
    bear(g, "A3", name)
    place(g, "A3", [(7.4, 6.43)])  # within 1" of closed Hatchway 2
    kept_answers.touch(g)
    g.apply(parse("hold A4"))  # another unit has moved: the start of the step is past
    assert parse("hatch A3 2") in g.legal_actions()
    g.apply(parse("hatch A3 2"))  # selected to move: it first operates the Hatchway
    assert g.bf.is_open(1) and g.units["A3"].moved is None
    g.apply(parse("hold A3"))
    with pytest.raises(IllegalAction):  # once it has moved, no longer (and once per turn)
        g.check_as("move", "A", parse("hatch A3 2"))
    g = game()  # without it: only at the end of the Move Units step
    place(g, "A3", [(7.4, 6.43)])
    kept_answers.touch(g)
    with pytest.raises(IllegalAction):
        g.check_as("move", "A", parse("hatch A3 2"))


def beseech(name: str) -> None:
    for bearer, offered in ((True, True), (False, False)):
        g = game()
        if bearer:
            bear(g, "A3", name)
        place(g, "A3", block(4.6, 6.43, dx=-1.4))  # about 3" from Hatchway 2, facing it
        kept_answers.touch(g)
        g.apply(parse("done"))  # the end of the Move Units step
        legal = [a.text() for a in g.legal_actions()] if g.decision.step == "hatch" else []
        assert ("hatch A3 2" in legal) == offered
        if offered:
            g.dice = Dice.scripted([])
            g.apply(parse("hatch A3 2"))
            assert g.bf.is_open(1)


def lockdown(name: str) -> None:
    g = game()
    bear(g, "B3", name)
    place(g, "A3", [(7.4, 6.43)])  # within 1" of Hatchway 2
    place(g, "B3", [(13.0, 6.43)])  # 4" beyond it, on the other side: not within 1"
    kept_answers.touch(g)
    g.apply(parse("done"))
    # B3 tries to prevent it: A 2 + T4 against B 5 + T5
    g.dice = Dice.scripted([2, 5])
    g.apply(parse("hatch A3 2"))
    g.dice.assert_consumed()
    assert not g.bf.is_open(1) and ("B", name, -1) in g.used  # once per battle round
    ev = [e for e in g.events if e["e"] == "hatch_rolloff"]
    assert [(e["unit"], e["against"]) for e in ev] == [("A3", "B3")]


def masterful(name: str) -> None:
    g = game()
    a3 = g.units["A3"]
    g.armies["A"].uses = g.armies["A"].uses + tuple(
        use_of(m, name, "Enhancement", "A3") for m in pack_enhancements()[name].moments)
    at(g, "fight", "A")
    options = [a.text() for a in moments.usable(g, "A", "selected_to_fight", "A3")]
    assert options == [f"use A3 {name}: {c}" for c in ("devastating wounds", "lethal hits", "sustained hits 1")]
    assert moments.usable(g, "A", "selected_to_fight", "A4") == []  # the bearer's unit only
    moments.use_rule(g, "A", parse(f"use A3 {name}: lethal hits"))
    assert moments.usable(g, "A", "selected_to_fight", "A3") == []  # one of them, once each time
    assert effect_weapon(a3, BLADE).abilities.lethal_hits and not effect_weapon(a3, BLADE).abilities.devastating_wounds
    psychic = replace(BLADE, name="Test psychic blade", abilities=Abilities(psychic=True))
    assert not effect_weapon(a3, psychic).abilities.lethal_hits  # excluding Psychic weapons
    # a hit roll of 6: a Critical Hit wounds automatically (Lethal Hits); the save (Sv 4+) 1 fails
    assert attack(g, "A3", "B3", BLADE, [6, 1]) == (1, 0)
    moments.end_timed(g, "phase")
    at(g, "shooting", "A")
    g.phase_id += 1
    assert len(moments.usable(g, "A", "selected_to_shoot", "A3")) == 3  # again when selected to shoot


def translocation(name: str) -> None:
    for take in (False, True):
        g = game()
        a3 = bear(g, "A3", name)
        a3.ranged = [GUN]
        place(g, "A3", block(14))
        place(g, "B3", block(24, dx=1.4))
        kept_answers.touch(g)
        advance_to(g, "shoot")
        g.dice = Dice(1)
        g.apply(parse("shoot A3 B3"))
        d = g.decision
        assert (d.step, d.player, d.info["unit"], d.info["reach"]) == ("freemove", "A", "A3", 6)
        assert g.legal_actions()[-1].kind == "pass"
        mk = g.map.layout.markers[0]
        g.apply(parse(f"move A3 {mk.x},{mk.y}" if take else "pass"))
        moves = [e for e in g.events if e["e"] == "move" and e.get("why") == name]
        assert len(moves) == take and (("A", name, 0) in g.used) == take  # once per battle, when made
        if take:
            assert 0 < moves[0]["moved"] <= 6 + 1e-9


def worthier_skulls(name: str) -> None:
    g = game()
    bear(g, "B3", name)
    place(g, "A3", block(14))
    place(g, "B3", block(15.6, dx=1.4))
    kept_answers.touch(g)
    fall_back = next(a for a in g.legal_actions() if a.kind == "fallback" and a.unit == "A3")
    g.dice = Dice(2)
    g.apply(fall_back)
    d = g.decision
    assert (d.step, d.player, d.info["unit"]) == ("freemove", "B", "B3")  # B3 is no longer engaged
    g.apply(parse("move B3 20,15"))
    ev = [e for e in g.events if e["e"] == "move"][-1]
    assert ev["unit"] == "B3" and ev["why"] == name and ev["moved"] <= 6 + 1e-9
    assert g.decision.player == "A"  # back to A's Move Units step


def shunt(name: str) -> None:
    # the Enhancement's uses only (the army's own abilities may be usable too: Litanies of Sanctity)
    g = near_bearer(name, keyword="SKITARII")
    a3, a4 = g.units["A3"], g.units["A4"]
    at(g, "shooting", "B")  # the start of any phase, either player's turn
    assert [a for a in moments.usable(g, "A", "phase_start") if a.arg == name] == []  # no Battle-shocked SKITARII unit
    a4.battleshocked = True  # any friendly SKITARII unit: A4 is far from the bearer
    assert [a.text() for a in [a for a in moments.usable(g, "A", "phase_start") if a.arg == name]] == [f"use A4 {name}"]
    moments.use_rule(g, "A", parse(f"use A4 {name}"))
    assert not a4.battleshocked
    a3.battleshocked = True
    assert [a for a in moments.usable(g, "A", "phase_start") if a.arg == name] == []  # once per battle
    g = near_bearer(name, keyword="SKITARII")
    at(g, "shooting", "B")
    g.units["A4"].battleshocked = True
    g.units["A1"].models = []  # the bearer is not on the battlefield
    assert [a for a in moments.usable(g, "A", "phase_start") if a.arg == name] == []


def vox(name: str) -> None:
    from bagm.engine.bots import make_bot

    army = build_army("A", str(REPO / "rosters" / "heretic_astartes_underdeck_uprising.yaml"))
    g = Game(11, army, copy.deepcopy(_armies()[1]), dice=Dice(4), rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    heretics = [u for u in army.units if "HERETIC ASTARTES" in u.keywords]
    others = [u for u in army.units if "HERETIC ASTARTES" not in u.keywords]
    assert heretics and all(effect_has(u, "reroll_advance") for u in heretics)  # the army's units
    assert not any(effect_has(u, "reroll_advance") for u in others)
    bot = make_bot("greedy")
    while g.round < 2 and not g.finished:
        g.apply(bot(g))
    assert not any(effect_has(u, "reroll_advance") for u in heretics)  # the first battle round only


def sinister(name: str) -> None:
    for near in (True, False):
        g = game()
        bear(g, "A3", name)
        mk = g.map.layout.markers[0]
        place(g, "B3", block(mk.x + 1.0, mk.y, dx=1.4))  # B3 holds objective marker 1
        if near:  # 4.5" from B3 (A3 stays where it was deployed otherwise)
            place(g, "A3", block(mk.x - 5.5, mk.y))
        kept_answers.touch(g)
        control.update_control(g, False)
        a3, b3 = g.units["A3"], g.units["B3"]
        assert g.control[0] == "B" and (positions.min_straight(g, a3, b3) <= 6) == near and not positions.engaged(g, a3, b3)
        b3.secure_marker = 0  # B3 performed Secure Site: it Seizes the marker in B's next Command phase
        g.dice = Dice.scripted([4, 4] if near else [])  # B3's Battle-shock test (forced, within 6")
        advance_to(g, "move", "B")
        g.dice.assert_consumed()
        assert (g.secured[0] == "B") != near
        test = [e for e in g.events if e["e"] == "battleshock_test"]
        assert [e["unit"] for e in test] == (["B3"] if near else [])


# --- Enhancements encoded with fields other Enhancements brought --------------------------------


def sanctification(name: str) -> None:
    """Sanctification Rituals: the bearer can perform Secure Site as if it had BATTLELINE."""
    g = game()
    a1 = g.units["A1"]  # the Chaplain: a CHARACTER, not BATTLELINE
    assert "BATTLELINE" not in a1.keywords
    assert g.mission.secure_reason(g, a1, 0) == "is not BATTLELINE"
    bear(g, "A1", name)
    assert g.mission.secure_reason(g, a1, 0) is None


def martial_discipline(name: str) -> None:
    """Martial Discipline: "at the start of your Shooting phase, select one ADEPTA SORORITAS unit
    within 6\" of the bearer": it can shoot in a turn it Advanced or Fell Back, until the end of
    the phase. A unit beyond 6\" (A4), or without the keyword (the bearer's own here), cannot be
    selected."""
    m = pack_enhancements()[name].moments[0]
    assert (m.when, m.phase, m.turn, m.within, m.once) == ("phase_start", "shooting", "yours", 6, "phase")
    g = near_bearer(name, keyword="ADEPTA SORORITAS")
    near = g.units["A3"]
    at(g, "movement", "A")
    assert moments.usable(g, "A", "phase_start") == []  # only in your Shooting phase
    at(g, "shooting", "B")
    assert moments.usable(g, "A", "phase_start") == []
    at(g, "shooting", "A")
    assert [a.text() for a in moments.usable(g, "A", "phase_start")] == [f"use A3 {name}"]
    near.moved = "advance"
    assert shooting.shoot_reason(g, near) is not None
    moments.use_rule(g, "A", parse(f"use A3 {name}"))
    assert shooting.shoot_reason(g, near) is None
    near.moved = "fallback"
    assert shooting.shoot_reason(g, near) is None
    assert moments.usable(g, "A", "phase_start") == []  # once per phase
    moments.end_timed(g, "phase")
    assert shooting.shoot_reason(g, near) is not None


def unholy_fury(name: str) -> None:
    """Unholy Fury: "if the bearer is destroyed by a melee attack and it has not fought this
    phase, roll one D6: on a 2+" it fights before it is removed (a 1: it does not)."""
    from bagm.engine.rules.effects import fights_on_death

    for roll, fights in ((2, True), (1, False)):
        g = game()
        bear(g, "A3", name)
        a3 = g.units["A3"]
        g.dice = Dice.scripted([roll])
        fights_on_death(g, a3, 1)
        g.dice.assert_consumed()
        assert a3.dying == (1 if fights else 0)
    g = game()
    bear(g, "A3", name)
    g.units["A3"].fought = True  # it has fought this phase: no roll
    g.dice = Dice.scripted([])
    fights_on_death(g, g.units["A3"], 1)
    assert g.units["A3"].dying == 0
    bearers = {d.name for d in _catalog().faction("Legiones Daemonica").pack.units
               if "CHARACTER" in d.keywords and d.name in ("Bloodmaster", "Karanak", "Skulltaker")}
    assert len(bearers) == 3  # the reading: each is a one-model unit


def enemy_moment(g: Game, name: str, bearer: str = "A3") -> None:
    """Muster's part: the bearer's unit may use the Enhancement's moments (TARGET: an enemy unit)."""
    g.armies["A"].uses = g.armies["A"].uses + tuple(
        use_of(m, name, "Enhancement", bearer) for m in pack_enhancements()[name].moments)


def mutagenic_flames(name: str) -> None:
    """Mutagenic Flames: "after the bearer has shot, select one enemy unit hit by one or more of
    those attacks. Until the start of your next Shooting phase, each time a model in that unit
    makes an attack, subtract 1 from the Hit roll." An enemy unit it did not hit: not offered."""
    g = game()
    enemy_moment(g, name)
    at(g, "shooting", "A")
    g.units["A3"].volley = (("B3", 0, 0), ("B4", 2, 0))  # its attacks: B3 not hit, B4 hit twice
    assert [a.text() for a in moments.usable(g, "A", "after_shot", "A3")] == [f"use B4 {name}"]
    assert moments.usable(g, "A", "after_shot", "A4") == []  # after the bearer has shot only
    moments.use_rule(g, "A", parse(f"use B4 {name}"))
    assert moments.usable(g, "A", "after_shot", "A3") == []
    assert attack(g, "B4", "A3", GUN, [3]) == (0, 0)  # a Hit roll of 3 misses (BS 3+, -1)
    for until in ("phase", "turn", "next shooting B", "next command A"):
        moments.end_timed(g, until)
    assert effect_conditions(g.units["B4"], g.units["A3"], GUN, Conditions()).hit_mod == -1
    moments.end_timed(g, "next shooting A")  # the start of A's next Shooting phase
    assert effect_conditions(g.units["B4"], g.units["A3"], GUN, Conditions()).hit_mod == 0


def test_after_shot_is_offered_once_the_unit_has_shot_and_lasts_until_your_next_shooting_phase():
    from bagm.engine.bots import make_bot

    g = game()
    enemy_moment(g, "Mutagenic Flames")
    place(g, "A3", block(14))
    place(g, "B3", block(20, dx=1.4))
    kept_answers.touch(g)
    advance_to(g, "shoot")
    shots = [a for a in g.legal_actions() if a.kind == "shoot" and a.unit == "A3" and a.target == "B3"]
    g.dice = Dice.scripted([6] * 400)
    g.apply(shots[0])
    assert g.decision.step == "use" and g.decision.info == {"timing": "after_shot", "unit": "A3"}
    act = make_bot("greedy")(g)  # the bot selects the enemy unit hit
    assert act.text() == "use B3 Mutagenic Flames"
    g.apply(act)
    b3 = g.units["B3"]
    g.dice = Dice(3)
    advance_to(g, "shoot", "B")  # B's turn: B3 still at -1 to hit
    assert effect_conditions(b3, g.units["A3"], GUN, Conditions()).hit_mod == -1
    advance_to(g, "move", "A")
    assert effect_conditions(b3, g.units["A3"], GUN, Conditions()).hit_mod == -1
    advance_to(g, "shoot", "A")  # the start of A's next Shooting phase: over
    assert effect_conditions(b3, g.units["A3"], GUN, Conditions()).hit_mod == 0
    assert any(e["e"] == "effect_ends" and e["unit"] == "B3" for e in g.events)


def omni_auspex(name: str) -> None:
    """Omni-Structural Auspex: after the bearer has shot, one enemy unit hit; until the end of the
    phase a friendly ADEPTUS ASTARTES model's attack on it (excluding CHARACTER models) has its AP
    improved by 1. The Chaplain (a CHARACTER): unchanged."""
    g = game()
    enemy_moment(g, name)
    at(g, "shooting", "A")
    g.units["A3"].volley = (("B4", 1, 0),)
    moments.use_rule(g, "A", parse(f"use B4 {name}"))
    b4 = g.units["B4"]
    assert effect_weapon(g.units["A4"], GUN, b4).ap == -1  # another unit's attack too
    assert "CHARACTER" in g.units["A1"].keywords and effect_weapon(g.units["A1"], GUN, b4).ap == 0
    assert effect_weapon(g.units["B3"], GUN, g.units["A4"]).ap == 0
    # one attack: hit 3, wound 4 (S4 against T5... the roll that wounds), save roll of exactly Sv: failed
    need = 4 if GUN.strength == b4.T else 5 if GUN.strength < b4.T else 3
    assert attack(g, "A4", "B4", GUN, [3, need, b4.Sv]) == (1, 1 if b4.W == 1 else 0)
    moments.end_timed(g, "phase")
    assert effect_weapon(g.units["A4"], GUN, b4).ap == 0


def dark_majesty(name: str) -> None:
    """Dark Majesty: "each time the bearer makes a Charge move, select one enemy unit within
    Engagement Range of it. Until the start of your next Charge phase" it is stunned: -1 to its
    Hit rolls. A failed charge: nothing to use."""
    for dice, made in (([6, 6], True), ([1, 1], False)):
        g = game()
        enemy_moment(g, name)
        place(g, "A3", block(14))
        place(g, "B3", block(20, dx=1.4))
        g.apply(parse("hold A3"))
        advance_to(g, "charge")
        g.dice = Dice.scripted(dice)
        g.apply(parse("charge A3 B3"))
        assert g.units["A3"].charged == made
        if not made:
            assert g.decision.step != "use"
            continue
        assert g.decision.step == "use" and g.decision.info["timing"] == "charge_move_end"
        assert [a.text() for a in g.legal_actions()] == [f"use B3 {name}", "pass"]  # B4: not engaged
        g.apply(parse(f"use B3 {name}"))
        assert attack(g, "B3", "A3", BLADE, [3]) == (0, 0)  # a Hit roll of 3 misses (WS 3+, -1)
        moments.end_timed(g, "turn")
        moments.end_timed(g, "next charge A")
        assert effect_conditions(g.units["B3"], g.units["A3"], BLADE, Conditions()).hit_mod == 0


def vasov(name: str) -> None:
    """Vasov's Auto-Oppressor: "at the end of your Movement phase, you can select one enemy unit
    visible to the bearer. Until the start of your next Movement phase, halve the Movement
    characteristic of models in that unit, and halve Advance and Charge rolls made for it"
    (rounding up, before other modifiers)."""
    g = game()
    enemy_moment(g, name)
    at(g, "movement", "A")
    b3 = g.units["B3"]
    offered = {a.unit for a in moments.usable(g, "A", "phase_end")}
    assert offered and offered == {e.uid for e in g.army_units("B") if sight.visible_idx(g, g.units["A3"], e)}
    place(g, "B3", block(20, dx=1.4))
    place(g, "A3", block(14))
    kept_answers.touch(g)
    m = b3.move()
    moments.use_rule(g, "A", parse(f"use B3 {name}"))
    assert b3.move() == (m + 1) // 2
    moments.end_timed(g, "next movement A")
    assert b3.move() == m
    # the field in the Advance and Charge rolls (here on A3): a 5 to Advance counts 3
    g = game()
    a3 = g.units["A3"]
    a3.timed += (("test", validate(Effect, {"halve_move": True}), "turn"),)
    place(g, "A3", block(14))
    kept_answers.touch(g)
    before = [(p.x, p.y) for p in a3.models]
    g.dice = Dice.scripted([5])
    g.apply(parse("advance A3 40,15"))
    assert [e["roll"] for e in g.events if e["e"] == "advance_roll"][-1] == 5
    far = max(((p.x - x) ** 2 + (p.y - y) ** 2) ** 0.5 for p, (x, y) in zip(a3.models, before))
    assert 5 < far <= (a3.M + 1) // 2 + 3 + 1e-6  # Move 6 halved (3) + the roll 5 halved (3), not 11
    g = game()
    a3 = g.units["A3"]
    a3.timed += (("test", validate(Effect, {"halve_move": True}), "turn"),)
    place(g, "A3", block(14))
    place(g, "B3", block(20, dx=1.4))
    g.apply(parse("hold A3"))
    advance_to(g, "charge")
    g.dice = Dice.scripted([6, 5])  # 11 halved: 6, enough for about 5"
    g.apply(parse("charge A3 B3"))
    assert [e["roll"] for e in g.events if e["e"] == "charge_roll"] == [6]


def mindshackle(name: str) -> None:
    """Mindshackle Scarabs: "in your Command phase, select one enemy unit within 12\" of and
    visible to the bearer. That enemy unit must take a Leadership test subtracting 1 from the
    result: if failed", until the start of your next Command phase -2" Move and -2 to its Advance
    and Charge rolls. A roll of its Leadership fails (the -1), one more passes."""
    for roll, failed in ((None, True), (1, False)):
        g = game()
        enemy_moment(g, name)
        place(g, "A3", block(14))
        place(g, "B3", block(20, dx=1.4))
        place(g, "B4", block(40, dx=1.4))  # beyond 12"
        kept_answers.touch(g)
        at(g, "command", "A")
        b3 = g.units["B3"]
        assert [a.text() for a in moments.usable(g, "A", "phase_start")] == [f"use B3 {name}"]
        ld = b3.leadership()
        total = ld + (roll or 0)
        g.dice = Dice.scripted([total // 2, total - total // 2])
        m = b3.move()
        moments.use_rule(g, "A", parse(f"use B3 {name}"))
        g.dice.assert_consumed()
        test = [e for e in g.events if e["e"] == "leadership_test"][-1]
        assert (test["roll"], test["passed"], test["mod"]) == (total, not failed, -1)
        assert b3.move() == (m - 2 if failed else m)
        assert effect_sum(b3, "advance_mod") == effect_sum(b3, "charge_mod") == (-2 if failed else 0)
        moments.end_timed(g, "next command A")
        assert b3.move() == m


def sigil_of_warding(name: str) -> None:
    """Sigil of Warding: "once per battle, at the end of your Shooting phase ... a Normal move of
    up to 3\" and can then attempt to operate a Hatchway. The bearer is then not eligible to
    declare a charge this turn."""
    g = game()
    assert g.units["A1"].enhancement == name  # the Chaplain of the bundled roster bears it
    place(g, "A1", [(14.0, 15.0)])
    kept_answers.touch(g)
    at(g, "shooting", "A")
    assert [a.text() for a in moments.usable(g, "A", "phase_end")] == [f"use A1 {name}"]
    before = [(m.x, m.y) for m in g.units["A1"].models]
    steps = moments.moment(g, "phase_end", "A")
    next(steps)
    assert steps.send(parse(f"use A1 {name}")).step == "freemove"
    try:
        steps.send(parse("move A1 24,15"))
    except StopIteration:
        pass
    moved = max(((m.x - x) ** 2 + (m.y - y) ** 2) ** 0.5 for m, (x, y) in zip(g.units["A1"].models, before))
    assert 2.9 < moved <= 3 + 1e-6
    assert charge.charge_reason(g, g.units["A1"]) == f"it is not eligible to charge this turn ({name})"
    moments.end_timed(g, "turn")
    at(g, "shooting", "A")
    assert moments.usable(g, "A", "phase_end") == []  # once per battle


def dutys_echo(name: str) -> None:
    """Duty's Echo: "at the end of your Shooting phase, you can select one friendly Fire Warrior
    or Pathfinder Team within 6\" of the bearer ... a Normal move of up to 3\" and then counts as
    having performed the Set Overwatch Tactical Manoeuvre this turn." A4 (beyond 6"): not offered."""
    g = near_bearer(name, rename="Strike Team")
    g.armies["A"].uses = tuple(x for x in g.armies["A"].uses if x.name == name)  # (A1's Sigil of Warding)
    at(g, "shooting", "A")
    assert [a.text() for a in moments.usable(g, "A", "phase_end") if a.arg == name] == [f"use A3 {name}"]
    steps = moments.moment(g, "phase_end", "A")
    next(steps)
    assert steps.send(parse(f"use A3 {name}")).step == "freemove"
    with pytest.raises(StopIteration):
        steps.send(parse("pass"))
    a3 = g.units["A3"]
    assert a3.manoeuvre == "overwatch" and a3.overwatch_until == g.turn + 1
    assert charge.charge_reason(g, a3) == "it performed a Tactical Manoeuvre this turn"


def rush(name: str, on: str) -> None:
    """Close and Sanction ("if the bearer was hit by one or more of those attacks ... roll one D6:
    the bearer can be moved ... up to the result, but it must finish that move as close as
    possible to the nearest visible enemy unit"; one Dash move per phase) and Battle Lust ("if the
    bearer was the target of one or more of those attacks ... as close as possible to the
    attacking unit"): a target not hit (Close and Sanction) does not move; the D6 is how far."""
    g = game()
    bear(g, "A3", name)
    place(g, "A3", block(14))
    place(g, "B3", block(24, dx=1.4))
    kept_answers.touch(g)
    at(g, "shooting", "B")
    b3, a3 = g.units["B3"], g.units["A3"]
    b3.volley = (("A3", 0, 0),)  # a target, not hit
    if on == "hit":
        with pytest.raises(StopIteration):
            next(shooting.rushes(g, b3))
    b3.volley = (("A3", 2, 0),)
    before = [(m.x, m.y) for m in a3.models]
    steps = shooting.rushes(g, b3)
    d = next(steps)
    assert d.step == "freemove" and d.info["rush"] == "B3" and d.info["reach"] == "D6"
    g.dice = Dice.scripted([2])
    with pytest.raises(StopIteration):
        steps.send(movement.legal_freemove(g, d.info)[0])
    g.dice.assert_consumed()
    moved = max(((m.x - x) ** 2 + (m.y - y) ** 2) ** 0.5 for m, (x, y) in zip(a3.models, before))
    assert 1.9 < moved <= 2 + 1e-6
    if on == "hit":  # one Dash move per phase
        with pytest.raises(StopIteration):
            next(shooting.rushes(g, b3))


def limitless_resolve(name: str) -> None:
    """Limitless Resolve: "when the bearer is on the battlefield, friendly Battle-shocked ADEPTA
    SORORITAS models (excluding Arco-flagellants and Repentia Squads) have an Objective Control
    characteristic of 1." Not Battle-shocked: their own OC; the bearer destroyed: 0 again."""
    army = build_army("A", str(REPO / "rosters" / "adepta_sororitas_pious_protectors.yaml"))
    g = Game(11, army, copy.deepcopy(_armies()[1]), dice=Dice(4), rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    bearer = next(u for u in army.units if u.enhancement == name)
    sisters = next(u for u in army.units if u.datasheet.name == "Battle Sisters Squad")
    for u in army.units:
        u.where = "board"
    assert sisters.oc() == sisters.OC == 2
    sisters.battleshocked = True
    assert sisters.oc() == 1
    bearer.battleshocked = True
    assert bearer.oc() == 1  # the bearer's own unit too
    bearer.models = []
    shooting.check_destroyed(g, bearer)  # the game takes the army's effect away with the bearer
    assert sisters.oc() == 0
    assert not any(e.OC_shocked for u in build_army("A", ORKS).units for e in u.effects())


def gnasher(name: str) -> None:
    """Gnasher Squig Crates: "in your Command phase, you can select one Nobz or Meganobz unit from
    your army (excluding Battle-shocked units) that is within 6\" of the bearer and is within range
    of an objective marker. If there is no enemy units within range of that objective marker, it
    is Secured by your army." B1 (the Warboss) bears it in the bundled Orks roster."""
    g = game()
    assert g.units["B1"].enhancement == name
    mk = g.map.layout.markers[0]
    nobz = next(u for u in g.army_units("B") if u.datasheet.name == "Nobz")
    place(g, nobz.uid, block(mk.x + 1.0, mk.y, dx=1.4))
    place(g, "B1", [(mk.x + 5.0, mk.y)])
    far = (mk.x + 30.0 if mk.x < 30 else mk.x - 30.0, mk.y)
    a3 = g.units["A3"]
    for i, u in enumerate(g.army_units("A")):
        place(g, u.uid, [(far[0], 3.0 + 4 * i)][:len(u.models)] + block(far[0] + 3, 3.0 + 4 * i)[:len(u.models) - 1])
    kept_answers.touch(g)
    at(g, "command", "B")
    assert f"use {nobz.uid} {name}" in [a.text() for a in moments.usable(g, "B", "phase_start")]
    nobz.battleshocked = True
    assert f"use {nobz.uid} {name}" not in [a.text() for a in moments.usable(g, "B", "phase_start")]
    nobz.battleshocked = False
    place(g, "A3", [(mk.x - 1.5, mk.y)])  # an enemy unit within range of the marker
    kept_answers.touch(g)
    assert f"use {nobz.uid} {name}" not in [a.text() for a in moments.usable(g, "B", "phase_start")]
    place(g, "A3", [far])
    kept_answers.touch(g)
    assert g.secured[0] != "B"
    moments.use_rule(g, "B", parse(f"use {nobz.uid} {name}"))
    assert g.secured[0] == "B"
    assert moments.usable(g, "B", "phase_start") == [] or all(a.arg != name for a in moments.usable(g, "B", "phase_start"))
    assert a3.alive


def daemonshrieker(name: str) -> None:
    """Daemonshrieker: "in your shooting phase, you can select one closed Hatchway within 12\" of
    and visible to the bearer. If you do, roll one D6: on a 2+ open that Hatchway and, until the
    end of the battle, that Hatchway cannot be closed." A 1: it stays closed."""
    for roll in (2, 1):
        g = game()
        enemy_moment(g, name)
        at(g, "shooting", "A")
        a3 = g.units["A3"]
        uses = [a.text() for a in moments.usable(g, "A", "phase_start") if a.arg == name]
        options = hatchways.hatches_to_open(g, a3, 12)
        assert uses == ([f"use A3 {name}"] if options else [])
        if not options:  # A3 where it was deployed: move it beside a closed Hatchway
            h = next(h for h in g.map.layout.hatchways if not g.bf.is_open(h.index))
            cx, cy = h.centre
            place(g, "A3", [(cx, cy + 3.0) if h.horizontal else (cx + 3.0, cy)])
            kept_answers.touch(g)
            options = hatchways.hatches_to_open(g, a3, 12)
        assert options and all(g.bf.distance_to_hatchway(a3.models[0].base, n - 1) <= 12 + a3.radius for n in options)
        steps = moments.moment(g, "phase_start", "A")
        next(steps)
        d = steps.send(parse(f"use A3 {name}"))
        assert d.step == "freemove" and d.info["options"] == options
        g.dice = Dice.scripted([roll])
        with pytest.raises(StopIteration):
            steps.send(Action("hatch", "A3", arg=str(options[0])))
        g.dice.assert_consumed()
        i = options[0] - 1
        assert g.bf.is_open(i) == (roll >= 2)
        assert (i in g.hatch_jammed) == (roll >= 2)


def _versus_orks(roster: str, text: str | None = None) -> Game:
    """A bundled roster (or ``text`` instead of it) against the Orks, deployed as the first legal
    choices; the start of A's first battle round."""
    import tempfile

    path = str(REPO / "rosters" / roster)
    if text is not None:
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8") as f:
            f.write(text)
        path = f.name
    g = Game(11, build_army("A", path), copy.deepcopy(_armies()[1]), dice=Dice(4),
             rolloffs={"attacker": "A", "first_turn": "A"})
    GAMES.append(g)
    for _ in range(100):
        if g.decision.step not in ("roles", "deploy", "opening"):
            break
        legal = g.legal_actions()
        g.apply(next((x for x in legal if x.kind in ("deploy", "done")), legal[0]))
    return g


def cogitators(name: str) -> None:
    """Optimised Cogitators: "once per battle round when you target the bearer with a Stratagem,
    that use of the Stratagem costs 1 less CP than normal." The second use in the round, or a
    Stratagem on another unit: the full cost."""
    from bagm.engine.rules.stratagems import COMMAND_REROLL, may_use, use

    g = _versus_orks("adeptus_mechanicus_response_clade.yaml")
    b = next(u for u in g.army_units("A") if u.enhancement == name)
    other = next(u for u in g.army_units("A") if u is not b)
    g.cp["A"] = 0
    assert may_use(g, "A", COMMAND_REROLL, b) and not may_use(g, "A", COMMAND_REROLL, other)
    use(g, "A", COMMAND_REROLL, unit=b)
    assert g.cp["A"] == 0 and [e["cost"] for e in g.events if e["e"] == "stratagem"][-1] == 0
    g.used.discard(("A", "Command Re-roll", g.phase_id))  # (another phase of the round)
    assert not may_use(g, "A", COMMAND_REROLL, b)  # once per battle round
    g.cp["A"] = 1
    use(g, "A", COMMAND_REROLL, unit=b)
    assert g.cp["A"] == 0


def shipboard_veteran(name: str) -> None:
    """Shipboard Veteran: "each time you target an ASTRA MILITARUM unit from your army with a
    Stratagem, if that unit is visible to the bearer, roll one D6: on a 4+, you gain 1CP." A 3:
    nothing; the bearer's own unit counts as visible to it (reading)."""
    from bagm.engine.rules.stratagems import COMMAND_REROLL, use

    for roll, back in ((4, 1), (3, 0)):
        g = _versus_orks("astra_militarum_embarked_regiment.yaml")
        b = next(u for u in g.army_units("A") if u.enhancement == name)
        g.cp["A"] = 1
        g.dice = Dice.scripted([roll])
        use(g, "A", COMMAND_REROLL, unit=b)
        g.dice.assert_consumed()
        assert g.cp["A"] == back


def malevolent_cunning(name: str) -> None:
    """Malevolent Cunning: "the first time in each battle round that your opponent targets a unit
    from their army that is within 3\" of the bearer with a Stratagem, increase that Stratagem's
    cost by 1CP for that usage." Beyond 3", or the second time in the round: the normal cost."""
    from bagm.engine.rules.stratagems import COMMAND_REROLL, may_use, use

    text = (REPO / "rosters" / "drukhari_kabalite_corsairs.yaml").read_text(encoding="utf-8")
    g = _versus_orks("", text.replace("enhancement: Dark Charisma", f"enhancement: {name}"))
    b = next(u for u in g.army_units("A") if u.enhancement == name)
    near, far = g.army_units("B")[-1], g.army_units("B")[-2]
    place(g, b.uid, [(20.0, 15.0)])
    place(g, near.uid, [(22.5, 15.0)])  # 2.5" centre to centre: within 3"
    place(g, far.uid, [(40.0, 15.0)])
    kept_answers.touch(g)
    g.cp["B"] = 1
    assert may_use(g, "B", COMMAND_REROLL, far) and not may_use(g, "B", COMMAND_REROLL, near)
    g.cp["B"] = 2
    use(g, "B", COMMAND_REROLL, unit=near)
    assert g.cp["B"] == 0
    g.used.discard(("B", "Command Re-roll", g.phase_id))
    g.cp["B"] = 1
    assert may_use(g, "B", COMMAND_REROLL, near)  # the first time in the round only


def lathimon(name: str) -> None:
    """Lathimon's Flock: "in the Deploy Armies step, your opponent must deploy their entire army
    before you deploy yours ... In addition Imperial Navy Breachers units gain the Infiltrate
    rule." Without it: neither."""
    from bagm.engine.rules.army_rules import deploys_last

    text = (REPO / "rosters" / "agents_of_the_imperium_voidships_company.yaml").read_text(encoding="utf-8")
    for on in (True, False):
        army = build_army("A", str(REPO / "rosters" / "agents_of_the_imperium_voidships_company.yaml")) if not on \
            else None
        if on:
            import tempfile

            with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8") as f:
                f.write(text.replace("enhancement: Heirloom Blade", f"enhancement: {name}"))
            army = build_army("A", f.name)
        assert army is not None
        breachers = [u for u in army.units if u.datasheet.name == "Imperial Navy Breachers"]
        assert breachers and all(u.infiltrators == on for u in breachers)
        assert not any(u.infiltrators for u in army.units if u not in breachers)
        g = Game(11, army, copy.deepcopy(_armies()[1]), dice=Dice(4), rolloffs={"attacker": "A", "first_turn": "A"})
        GAMES.append(g)
        assert deploys_last(g, "A") == on and not deploys_last(g, "B")


def gulyks_stars(name: str) -> None:
    """Gulyk's Stars: "each time the bearer ends a Charge move, select one enemy unit within
    Engagement Range of it and roll one D6: on a 2-4, that enemy unit suffers 1 mortal wound; on
    a 5+ that enemy unit suffers 2 mortal wounds" (a 1: none). A failed charge: no roll."""
    for dice, wounds in (([6, 6, 1], 0), ([6, 6, 2], 1), ([6, 6, 4], 1), ([6, 6, 5], 2), ([1, 1], None)):
        g = game()
        bear(g, "A3", name)
        place(g, "A3", block(14))
        place(g, "B3", block(20, dx=1.4))
        g.apply(parse("hold A3"))
        advance_to(g, "charge")
        b3 = g.units["B3"]
        before = sum(m.wounds for m in b3.models)
        g.dice = Dice.scripted(dice)
        g.apply(parse("charge A3 B3"))
        while g.decision.step in ("freemove", "use"):  # a Hatchway to open (if any is near), Sigil...
            g.apply(Action("pass"))
        g.dice.assert_consumed()
        rolls = [e["roll"] for e in g.events if e["e"] == "mortal_roll"]
        assert rolls == ([] if wounds is None else [dice[-1]])
        assert before - sum(m.wounds for m in b3.models) == (wounds or 0)


def fountaining_filth(name: str) -> None:
    """Fountaining Filth: "when the bearer is destroyed, before removing it from the battlefield,
    select one enemy unit within engagement range of the bearer and roll one D6: On a 2-3, ... one
    mortal wound, on a 4-5, ... two ..., on a 6, ... 3". No enemy unit in Engagement Range: no roll."""
    from bagm.engine.rules.abilities import models_destroyed

    for near, roll, wounds in ((True, 6, 3), (True, 3, 1), (True, 1, 0), (False, 6, None)):
        g = game()
        bear(g, "A1", name)
        place(g, "A1", [(14.0, 15.0)])
        place(g, "B3", block(15.6 if near else 30.0, dx=1.4))
        kept_answers.touch(g)
        a1, b3 = g.units["A1"], g.units["B3"]
        assert positions.engaged(g, a1, b3) == near
        before = sum(m.wounds for m in b3.models)
        dead, a1.models = a1.models, []
        g.dice = Dice.scripted([roll] if near else [])
        models_destroyed(g, a1, dead)
        g.dice.assert_consumed()
        assert before - sum(m.wounds for m in b3.models) == (wounds or 0)


def predestined(name: str) -> None:
    """Predestined Champion: "while the bearer is on the battlefield, you are considered to control
    one additional objective marker for the purposes of the Twisting Fate army rule": with one
    marker to the opponent's one, Ascendence (+1 to the D6): a 5 gives 1CP. The bearer destroyed:
    0 to 1, no Ascendence, a 5 gives nothing."""
    from bagm.engine.rules.army_rules import stratagem_spent

    for alive, gained in ((True, 1), (False, 0)):
        g = _versus_orks("thousand_sons_fateseekers.yaml")
        b = next(u for u in g.army_units("A") if u.enhancement == name)
        assert any("PSYKER" in u.keywords and effect_has(u, "stratagem_cp_roll") for u in g.army_units("A") if u is not b)
        g.control[:] = [None] * len(g.control)
        g.control[0] = "B"
        if not alive:
            b.models = []
            shooting.check_destroyed(g, b)
        cp = g.cp["A"]
        g.dice = Dice.scripted([5])  # A's Twisting Fate roll (B's army has no such rule)
        stratagem_spent(g, "B", 1)
        g.dice.assert_consumed()
        assert g.cp["A"] == cp + gained


def tellyporta(name: str) -> None:
    """Tellyporta: "in the Deploy Armies step, select one Meganobz unit from your army. Until the
    end of the battle, models in that unit have the Deep Strike ability" (the roster's first)."""
    text = (REPO / "rosters" / "orks_kaptin_killers.yaml").read_text(encoding="utf-8")
    two = text.replace("  - unit: Nobz\n    models: 10\n", "  - unit: Meganobz\n    models: 3\n    label: First Meganobz\n")
    assert two != text
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8") as f:
        f.write(two)
    for path, first in ((str(REPO / "rosters" / "orks_kaptin_killers.yaml"), True), (f.name, True)):
        army = build_army("B", path)
        mega = [u for u in army.units if u.datasheet.name == "Meganobz"]
        assert [u.deep_strike for u in mega] == [first] + [False] * (len(mega) - 1)
        assert not any(u.deep_strike for u in army.units if u not in mega)
    plain = text.replace("enhancement: Tellyporta", "")
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8") as f:
        f.write(plain)
    assert not any(u.deep_strike for u in build_army("B", f.name).units)


def spiteful_demise(name: str) -> None:
    """Spiteful Demise: "when the bearer is destroyed, if it has not fought this phase, roll one
    D6: on a 2+, do not remove it from play. The bearer can fight after the attacking unit has
    finished making it's attacks, and is then removed from play." Shot dead beside an enemy unit
    (B3): on a 2 it fights B3; on a 1 it does not."""
    gun = replace(GUN, damage=DiceExpr(0, 6, 6))
    for roll, fights in ((2, True), (1, False)):
        g = game()
        bear(g, "A1", name)
        place(g, "A1", [(14.0, 15.0)])
        place(g, "B3", block(15.6, dx=1.4))
        place(g, "B4", block(30.0, dx=1.4))
        kept_answers.touch(g)
        a1, b3 = g.units["A1"], g.units["B3"]
        assert positions.engaged(g, a1, b3)
        # B4 shoots A1: hit 3, wound 6, save 1, Damage 6 (its wounds); then the D6 to fight on
        g.dice = Dice.scripted([3, 6, 1, roll])
        steps = shooting.attack(g, g.units["B4"], a1, gun, 1, Conditions(), None, ranged=True)
        assert declined(steps)[1] == 1  # every Command Re-roll declined
        assert not a1.models and a1.dying == (1 if fights else 0)
        before = sum(m.wounds for m in b3.models)
        g.dice = Dice.scripted([6] * 12 + [1] * 12)
        list(shooting.shot_dead_fight(g, a1))
        fought = [e for e in g.events if e["e"] == "fight" and e.get("dying")]
        assert bool(fought) == fights
        assert (sum(m.wounds for m in b3.models) < before) == fights


CHECKS: dict[str, Callable[[str], None]] = {
    "Sinister Presence (Aura)": sinister,
    "Vox Malevolus": vox,
    "Admonissor Shunt": shunt,
    "Impromptu Translocation": translocation,
    "Worthier Skulls": worthier_skulls,
    "Masterful Construction": masterful,
    "Beseech the Machine Spirits": beseech,
    "Remote Lockdown": lockdown,
    "Clavitine Reliquary": clavitine,
    "Domineering Presence": domineering,
    "Master Saboteur": saboteur,
    "Tactical Haruspexy": haruspexy,
    "Virulent Corruption": virulent,
    "Primary Detonator": detonator,
    "Rigged Blind Grenades": lambda n: detonator(n, shocks=True),
    "Fires of Change": fires_of_change,
    "Warp Mastery": warp_mastery,
    "Synaptic Goad": synaptic_goad,
    "Target Optimisation Microdrones": microdrones,
    "Direct Guidance": direct_guidance,
    "Prescient Authority": prescient,
    "Rabble Rouser": rabble_rouser,
    "Runes of Sanctuary": runes,
    "Elimination Force": elimination,
    "Experienced Leader": experienced_leader,
    "Covert Breach": opening_own,
    "Geller Breach": opening_own,
    "Speartip of the Chapter": speartip,
    "Thrallmaster": thrallmaster,
    "Heirloom Blade": heirloom,
    "Vile Surgeon": vile_surgeon,
    "Disgusting Reinvigoration": reinvigoration,
    "Swollen with Power": hatch_rolloff,
    "Living Battering Ram": battering_ram,
    "Path of Eldanesh": eldanesh,
    "Spiteful Imp": spiteful_imp,
    "Rending Chain-Flails": chain_flails,
    "Seal of Indomitability": seal,
    "Resolute": resolute,
    "Prismatic Garb": prismatic,
    "Psi-Spoor Sensitivity": psi_spoor,
    "Nanoscarab Reconstitution": nanoscarab,
    "Tolorek Data Djinn": secure_2,
    "Hand of Nurgle": secure_2,
    "Harmonic Discordator": lambda n: shock(n, engaged=False),
    "Blood-Drenched Champion": lambda n: shock(n, engaged=True),
    "Fervent Ferocity": fnp(5),
    "Scarred Brute": fnp(5),
    "Inured to Damage": inured,
    "Void Warrior": advance_then_charge,
    "Frenzied": advance_then_charge,
    "Stimm-Fervour": lambda n: advance_then_charge(n, rerolls=False),
    "Voidstrider": move_plus_2,
    "Venom of the Six-Fanged Serpent": venom,
    "Miasmic Fumes": minus_to_hit(False, wound=True),
    "Fulgurating Presence": minus_to_hit(False),
    "Shield of Admonishment": minus_to_hit(True),
    "Adamantine Mantle": minus_damage,
    "Foul Constitution": minus_damage,
    "Reinforced Carapace": minus_damage,
    "Mantle of the Emissary": oc_5,
    "Dark Charisma": oc_5,
    "Carmine Corona": lambda n: oc_5(n, after_kill=True),
    "Endless Gift": mustered("legiones_daemonica_rotten_and_rusted.yaml", "Endless Gift", 0, 2),
    "Cryptometric Enhancement": mustered("necrons_harbinger_cabal.yaml", "Cryptometric Enhancement", 1, 1, 4),
    "Fatal Caress": fatal_caress,
    "Grace of Khaine": grace,
    "Spite Made Manifest": spite,
    "Sanctification Rituals": sanctification,
    "Martial Discipline": martial_discipline,
    "Unholy Fury": unholy_fury,
    "Mutagenic Flames": mutagenic_flames,
    "Omni-Structural Auspex": omni_auspex,
    "Dark Majesty": dark_majesty,
    "Vasov's Auto-Oppressor": vasov,
    "Mindshackle Scarabs": mindshackle,
    "Sigil of Warding": sigil_of_warding,
    "Duty's Echo": dutys_echo,
    "Close and Sanction": lambda n: rush(n, "hit"),
    "Battle Lust": lambda n: rush(n, "targeted"),
    "Limitless Resolve": limitless_resolve,
    "Gnasher Squig Crates": gnasher,
    "Daemonshrieker": daemonshrieker,
    "Optimised Cogitators": cogitators,
    "Shipboard Veteran": shipboard_veteran,
    "Malevolent Cunning": malevolent_cunning,
    "Lathimon's Flock": lathimon,
    "Gulyk's Stars": gulyks_stars,
    "Fountaining Filth": fountaining_filth,
    "Predestined Champion": predestined,
    "Tellyporta": tellyporta,
    "Spiteful Demise": spiteful_demise,
    # played in tests/test_detachment_rules_late.py
    "The Vratine Aquila (Aura)": lambda n: late.test_vratine_aquila_4_plus_invulnerable_save_for_anathema_psykana_units_within_3_inches(
        Path(tempfile.mkdtemp())),
    "Manhunter's Helm": lambda n: late.test_manhunters_helm_plus_1_to_wound_the_priority_target_for_adeptus_arbites_units(),
    "Power and Greed": lambda n: late.test_power_and_greed_the_first_time_each_turn_the_bearer_is_empowered_a_3_plus_gains_a_pain_token(3, 1),
    "Quill Marker": lambda n: late.test_quill_marker_kroot_units_within_6_inches_can_charge_the_selected_unit_unseen(2.0, 6.0, True, True),
    "Song of Renewal": lambda n: late.test_song_of_renewal_one_destroyed_model_back_in_your_command_phase_up_to_two_times(),
    "Pox-Bearer": lambda n: late.test_pox_bearer_up_to_d3_plus_2_destroyed_poxwalkers_back_at_the_end_of_the_movement_phase(3, 9, 5),
    "Synaptic Beacon": lambda n: late.test_synaptic_beacon_tyranids_units_within_9_inches_are_within_synapse_range(8.9, True, True),
    "Stalking Menace": lambda n: late.test_stalking_menace_into_strategic_reserves_then_back_by_deep_strike_or_destroyed(True),
    "Resurrection Protocols": lambda n: late.test_resurrection_protocols_the_first_time_the_bearer_is_destroyed_a_2_plus_sets_it_back_up(2, True),
    "Rallying Cry": lambda n: late.test_rallying_cry_two_guardians_units_in_the_bearers_entry_zone(),
    "Voice of the Octed": lambda n: late.test_voice_of_the_octed_a_dark_pact_gives_both_abilities(True, None),
    "Horrifying Visage": lambda n: late.test_horrifying_visage_a_failed_leadership_test_stops_a_tactical_manoeuvre((1, 1), True),
    "Miasmic Odour": lambda n: late.test_miasmic_odour_adds_3_inches_to_the_bearers_contagion_range(3.9, True),
    "Chosen of Khorne": lambda n: enh_late.test_chosen_of_khorne_re_rolls_every_dice(),
}


def test_every_encoded_enhancement_has_a_check_in_play():
    encoded = {n for n, e in pack_enhancements().items() if e.effects or e.moments}
    assert encoded == set(CHECKS)
    # the README's figure
    text = (REPO / "README.md").read_text(encoding="utf-8")
    n, total = len(encoded), len(pack_enhancements())
    assert f"{n} of the {total} Boarding Actions Detachment Enhancements" in text
    assert f"the other {total - n} are listed as not modelled" in text


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_enhancement_in_play(name):
    CHECKS[name](name)


def test_bundled_rosters_give_their_bearers_the_encoded_enhancements():
    for path in sorted((REPO / "rosters").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if not re.search(r"^detachment:", text, re.M):
            continue
        army = build_army("A", str(path))
        for u in army.units:
            e = pack_enhancements().get(u.enhancement or "")
            if e is None:
                continue
            listed = any(f"Enhancement '{e.name}' is not implemented" in n for n in army.not_modelled)
            assert listed == (e.effects is None and not e.moments), (path.name, e.name)
            assert [n for n, _ in u.standing if n == e.name] == [e.name] * len(e.effects or [])


# --- the fields in the attack sequence ---------------------------------------------------------


def test_damage_modifier_applies_after_the_roll_and_never_below_1():
    target = Target(toughness=4, save=7, wounds=10)
    d3 = replace(GUN, damage=DiceExpr(1, 3, 0))
    # two attacks hit (4, 4) and wound (4, 4); Damage rolls 3 and 1: 3-1 = 2, and 1-1 = 1 (not 0)
    res = resolve(AttackProfile(d3, 2, Conditions(damage_mod=-1)), target, Dice.scripted([4, 4, 4, 4, 3, 1]))
    assert res.damage == 3 and res.wounds_lost == 3


def test_damage_roll_of_1_rerolled_once():
    target = Target(toughness=4, save=7, wounds=10)
    d3 = replace(GUN, damage=DiceExpr(1, 3, 1))  # D3+1: a die of 1 totals 2
    dice = Dice.scripted([4, 4, 1, 1])  # re-rolled 1 stays 1: a die is re-rolled once
    res = resolve(AttackProfile(d3, 1, Conditions(reroll_damage_ones=True)), target, dice)
    assert res.damage == 2
    dice.assert_consumed()
    dice = Dice.scripted([4, 4, 2])  # a 2 is not re-rolled
    assert resolve(AttackProfile(d3, 1, Conditions(reroll_damage_ones=True)), target, dice).damage == 3
    dice.assert_consumed()


def test_critical_wounds_on_5_plus():
    target = Target(toughness=4, save=7, wounds=10)
    dev = GUN.with_abilities(devastating_wounds=True)
    res = resolve(AttackProfile(dev, 1, Conditions(critical_wound=5)), target, Dice.scripted([4, 5]))
    assert (res.critical_wounds, res.devastating) == (1, 1)
    res = resolve(AttackProfile(dev, 1, Conditions()), target, Dice.scripted([4, 5]))
    assert (res.critical_wounds, res.devastating) == (0, 0)


def test_toughness_and_wounds_modifiers_with_a_keyword_condition(tmp_path):
    lines = ["faction: Grey Knights", "detachments:", "  - name: Void Purge Force",
             "    enhancements:",
             "      - {name: Sigil of Warding, effects: [{T_mod: 1, W_mod: 2}, {T_mod: 5, only_keyword: ORKS}]}",
             "      - {name: Tactical Haruspexy}"]
    (tmp_path / "gk.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    from bagm.data.packs import data_dirs

    army = build_army("A", GK, Catalog(data_dirs([tmp_path])))
    chaplain = next(u for u in army.units if u.enhancement == "Sigil of Warding")
    plain = build_army("A", GK).units[army.units.index(chaplain)]
    assert (chaplain.T, chaplain.W) == (plain.T + 1, plain.W + 2)


def test_abilities_of_a_hazardous_weapon_stay_put():
    g = game()
    bear(g, "A3", "Spite Made Manifest")
    w = BLADE.with_abilities(hazardous=True)
    assert effect_weapon(g.units["B3"], w, g.units["A3"]) is w
    assert effect_weapon(g.units["B3"], BLADE, g.units["A3"]).abilities == Abilities(hazardous=True)


def test_greedy_bot_makes_the_opening_move_and_a_clone_waits_there_too():
    from bagm.engine.bots import make_bot

    g = before_battle("Covert Breach")
    g.dice = Dice(3)
    assert g.decision.step == "opening"
    c = g.clone()
    act = make_bot("greedy")(g)
    assert act.kind == "move" and act.unit == "A3"
    g.apply(act)
    c.apply(act)
    assert [(m.x, m.y) for m in c.units["A3"].models] == [(m.x, m.y) for m in g.units["A3"].models]


def test_greedy_bot_counts_a_free_charge_reroll():
    """A charge of about 9" (a 28% chance) is worth declaring with a free re-roll (48%)."""
    from bagm.engine.bots import make_bot

    def declares(name: str | None) -> bool:
        g = game()
        if name:
            bear(g, "A3", name)
        place(g, "A3", block(14))
        place(g, "B3", block(24.6, dx=1.4))
        g.apply(parse("hold A3"))
        advance_to(g, "charge")
        act = make_bot("greedy")(g)
        return act.kind == "charge" and act.unit == "A3"
    assert declares("Void Warrior") and not declares(None)


def test_greedy_bot_uses_a_free_rule_at_the_end_of_a_phase():
    from bagm.engine.bots import make_bot
    from bagm.engine.state.core import Decision

    g = near_bearer("Direct Guidance", keyword="WRAITH CONSTRUCT")
    at(g, "movement", "A")
    g.decision = Decision("use", "A", {"timing": "phase_end"})
    assert make_bot("greedy")(g).text() == "use A3 Direct Guidance"


@pytest.mark.parametrize("best_ld_diff, battleshocked", [(0, True), (-1, False)])
def test_a_forced_battle_shock_test_is_taken_on_the_best_leadership_left(best_ld_diff: int,
                                                                        battleshocked: bool) -> None:
    """A Battle-shock test a rule forces (Living Battering Ram: "that enemy unit must take a
    Battle-shock test") is the Core Rules' test: passed "if the result is greater than or equal to
    the best Leadership characteristic in that unit". B3 (Ld 7+) with a model of Ld 6+ among those
    left passes on 3 + 3 = 6; without it, fails."""
    g = game()
    bear(g, "A3", "Living Battering Ram")
    at_hatchway(g)
    b3 = g.units["B3"]
    b3.models[0].ld_diff = best_ld_diff  # the one model left (as a Superior's profile would give)
    b3.kit_ld = [best_ld_diff]
    assert b3.Ld == 7 and b3.leadership() == 7 + best_ld_diff
    g.dice = Dice.scripted([3, 3])
    g.apply(parse("hatch A3 2"))
    g.dice.assert_consumed()
    test = [e for e in g.events if e["e"] == "battleshock_test"]
    assert [(e["roll"], e["ld"], e["passed"]) for e in test] == [(6, 7 + best_ld_diff, not battleshocked)]
    assert b3.battleshocked == battleshocked
