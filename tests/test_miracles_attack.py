"""Acts of Faith inside the attack sequence (Adepta Sororitas): before a Hit roll, a Wound roll, a saving
throw or a Damage roll, a Miracle dice stands for one of the roll's dice (an unmodified roll of its value,
never re-rolled), played with scripted dice: first the attack sequence alone (resolve_steps and its
MiracleOffer), then in a game (the decision, the event, the narration, once per phase, the greedy bot)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import advance_to, place
from test_miracles import sisters

from bagm.chance.dice import Dice, DiceExpr, parse_dice
from bagm.data.weapons import Abilities, WeaponProfile
from bagm.engine.attack.rules import AttackProfile, Conditions, Target
from bagm.engine.attack.sequence import MiracleOffer, miracle_damage, resolve_steps
from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.game import kept
from bagm.engine.state.actions import Action


def weapon(a: str = "1", skill: int = 3, s: int = 4, ap: int = 0, d: str = "1", **abilities: Any) -> WeaponProfile:
    return WeaponProfile("test gun", False, parse_dice(a), skill, s, ap, parse_dice(d), Abilities(**abilities), 24)


def run(script: list[int], w: WeaponProfile, tgt: Target, answers: dict[str, int],
        faith: tuple[tuple[int, ...], tuple[int, ...]], cond: Conditions = Conditions()) -> tuple[Any, list[Any]]:
    """Drive resolve_steps with ``faith``: each MiracleOffer recorded and answered from ``answers`` (by
    the roll: the Miracle dice's value; absent: declined); every scripted die must be used."""
    dice = Dice.scripted(script)
    gen = resolve_steps(AttackProfile(w, 1, cond), tgt, dice, None, faith=faith)
    seen: list[Any] = []
    try:
        offer = next(gen)
        while True:
            assert isinstance(offer, MiracleOffer)
            seen.append((offer.what, offer.side, offer.facts["faces"]))
            v = answers.get(offer.what)
            offer.new = v
            offer = gen.send(v is not None)
    except StopIteration as stop:
        result = stop.value
    dice.assert_consumed()
    return result, seen


def test_no_pool_no_offer_and_the_same_dice():
    res, seen = run([3, 2, 4], weapon(a="2"), Target(4, 7, 1, 5), {}, ((), ()))
    assert seen == [] and (res.hits, res.wounds) == (1, 1)


@pytest.mark.parametrize("value, hits, critical", [(1, 0, 0), (2, 0, 0), (3, 1, 0), (6, 2, 1)])
def test_a_miracle_dice_for_a_hit_roll_is_an_unmodified_roll_of_its_value(value, hits, critical):
    # one attack, BS 3+, Sustained Hits 1: the Miracle dice is the Hit roll (not rolled); a 6 is a Critical
    # Hit (its extra hit), a 1 fails, 2 misses 3+ by one; then a Wound roll of 4 for each hit
    w = weapon(sustained_hits=DiceExpr.constant(1))
    res, seen = run([4] * hits, w, Target(4, 7, 1, 5), {"hit": value}, ((6, value), ()))
    assert seen == [("hit", "attacker", ["fail", "fail", "success", "success", "success", "critical"])]
    assert (res.hits, res.critical_hits, res.wounds) == (hits, critical, hits)


def test_a_miracle_hit_is_never_re_rolled():
    # re-roll Hit rolls of 1 (an ability): the Miracle dice of 1 stands, the other die's 1 is re-rolled
    res, _ = run([1, 5, 4], weapon(a="2"), Target(4, 7, 1, 5), {"hit": 1}, ((1,), ()),
                 Conditions(reroll_hits="ones"))
    assert (res.attacks, res.hits, res.wounds) == (2, 1, 1)


def test_declined_offers_go_on_to_the_next_roll_and_one_taken_ends_them():
    # declined before the Hit rolls; taken (a 6) before the Wound rolls; no Damage offer after (D1, and
    # one Act of Faith a phase)
    res, seen = run([5, 5, 2], weapon(a="2"), Target(4, 7, 1, 5), {"wound": 6}, ((6,), ()))
    assert [s[0] for s in seen] == ["hit", "wound"]
    assert (res.hits, res.wounds, res.critical_wounds) == (2, 1, 1)


@pytest.mark.parametrize("pool, offered", [((1,), False), ((2,), False), ((3,), True)])
def test_no_offer_where_no_miracle_dice_changes_the_roll(pool, offered):
    # BS 3+: a Miracle dice of 1 or 2 misses as the worst face does; a 3 hits; saves: none (Sv 7+)
    _, seen = run([3, 4], weapon(), Target(4, 7, 1, 5), {}, (pool, ()))
    assert [s[0] for s in seen] == (["hit"] if offered else [])  # (a 3 fails the Wound roll of 4+)


@pytest.mark.parametrize("value, saved", [(3, False), (4, True), (6, True)])
def test_a_miracle_dice_for_the_defenders_saving_throw(value, saved):
    # Save 3+ against AP -1 (4+): the Miracle dice is the saving throw; 3 fails by one, 4 saves
    res, seen = run([4, 4], weapon(ap=-1), Target(4, 3, 2, 1), {"save": value}, ((), (6, value)))
    assert seen == [("save", "defender", [False, False, False, True, True, True])]
    assert (res.saves, res.unsaved, res.wounds_lost) == (int(saved), int(not saved), int(not saved))


def test_no_command_re_roll_for_a_miracle_save():
    dice = Dice.scripted([4, 4])
    gen = resolve_steps(AttackProfile(weapon(ap=-1), 1, Conditions()), Target(4, 3, 2, 1), dice, None,
                        False, True, faith=((), (6, 2)))
    offer = next(gen)
    assert isinstance(offer, MiracleOffer) and offer.what == "save"
    offer.new = 2
    with pytest.raises(StopIteration) as stop:
        gen.send(True)  # a 2 fails the save; a Command Re-roll is not offered for it
    assert stop.value.value.unsaved == 1
    dice.assert_consumed()


@pytest.mark.parametrize("d, value, damage", [("D6", 6, 6), ("D6+2", 1, 3), ("D3", 1, 1), ("D3", 4, 2),
                                              ("D3", 5, 3), ("2D6", 6, 8)])
def test_a_miracle_dice_for_one_dice_of_the_damage_roll(d, value, damage):
    # the Damage roll's dice: one a Miracle dice (a D3 is a D6 halved, rounding up), the rest rolled (2D6: a 2)
    rest = [2] if d == "2D6" else []
    res, seen = run([4, 4] + rest, weapon(d=d), Target(4, 7, 12, 1), {"damage": value}, ((value,), ()))
    assert seen[-1][0] == "damage"
    assert res.damage == damage == miracle_damage(parse_dice(d), value) + sum(rest)


def test_the_damage_modifier_still_applies_to_a_miracle_damage_roll():
    res, seen = run([4, 4], weapon(d="D6"), Target(4, 7, 12, 1), {"damage": 1}, ((1,), ()),
                    Conditions(damage_mod=-1))
    assert res.damage == 1 and seen[-1][2][:2] == [1.0, 1.0]  # never below 1


# --- in a game ---------------------------------------------------------------------------------------


X, Y = 20.0, 15.0


def shooting_game(pool: tuple[int, ...]) -> Any:
    """A (Sororitas, A3 a Repentia Squad) and an Ork unit 6" apart, A's Shooting phase, ``pool``."""
    g = sisters()
    ork = next(u for u in g.units.values() if u.player == "B" and u.ranged)
    place(g, "A3", [(X, Y)])
    place(g, ork.uid, [(X + g.units["A3"].radius + ork.radius + 6.0, Y)])
    kept.touch(g)
    g.dice = Dice(7)
    advance_to(g, "shoot")
    g.miracles["A"] = pool
    return g, ork


def test_a_units_act_of_faith_on_a_hit_roll_in_play_event_and_narration():
    from bagm.render.narration import Narrator
    g, ork = shooting_game((6, 2))
    g.apply(Action("shoot", "A3", ork.uid))
    while g.decision.step == "use":
        g.apply(Action("pass"))
    d = g.decision
    assert d.step == "rule" and d.player == "A" and d.info["what"] == "hit" and d.info["unit"] == "A3"
    assert set(d.info["options"]) == {"6", "2"} and "faces" in d.info and d.info["weapon"]
    g.apply(Action("rule", arg="6"))
    while g.decision.step in ("rule", "use", "reroll") and g.decision.player == "A":
        assert not (g.decision.step == "rule" and g.decision.info.get("unit") == "A3")  # once a phase
        g.apply(Action("pass"))
    used = [e for e in g.events if e["e"] == "miracle" and "used" in e]
    assert used[-1] == {"e": "miracle", "player": "A", "pool": [2], "used": 6, "unit": "A3", "what": "hit",
                        "weapon": d.info["weapon"]}
    assert g.miracles["A"] == (2,)
    said = Narrator().tell(used[-1])
    assert any(f"uses a Miracle dice of 6 for one of its Hit rolls ({d.info['weapon']}) (Miracle dice left: 2)"
               in line for line in said)


def test_the_defender_performs_an_act_of_faith_before_its_saving_throw():
    g, ork = shooting_game(())
    advance_to(g, "shoot", "B")
    g.miracles["A"] = (6, 5)  # a Sister Repentia saves on a 6 (invulnerable)
    g.dice = Dice.scripted([5, 5, 3, 3] + [2] * 8)  # the Warboss hits and wounds (no Critical Wound: Anti 4+)
    g.apply(Action("shoot", ork.uid, "A3"))
    for _ in range(200):
        d = g.decision
        if d.step == "rule" and d.player == "A" and d.info.get("what") == "save":
            break
        g.apply(Action("pass") if Action("pass") in g.legal_actions() else g.legal_actions()[0])
    assert g.decision.info["what"] == "save" and g.decision.info["unit"] == "A3"
    assert g.decision.info["faces"] == [False] * 5 + [True] and g.decision.info["wounds_left"] == 1
    g.apply(Action("rule", arg="6"))
    assert g.miracles["A"] == (5,)
    n = len(g.events)
    while not any(e["e"] == "attack" for e in g.events[n:]):
        assert g.decision.step == "reroll"  # one Act of Faith a phase: the second save is rolled (a 2)
        g.apply(Action("pass"))
    save = [e for e in g.events if e["e"] == "attack"][-1]
    assert (save["wounds"], save["unsaved"], save["dice"]["save (invulnerable 6+)"]) == (2, 1, [2])


@pytest.mark.parametrize("info, options, take", [
    # a Damage roll of D6 against a model with 5 wounds left: the 5 (as good as the 6, the lowest)
    ({"what": "damage", "faces": [1, 2, 3, 4, 5, 6], "damage": 3.5, "wounds_left": 5}, [2, 5, 6], "5"),
    # against a 1-wound model nothing a Miracle dice adds reaches one wound
    ({"what": "damage", "faces": [1, 2, 3, 4, 5, 6], "damage": 3.5, "wounds_left": 1}, [6], None),
    # a 1-wound model's 5+ save: 1 - 2/6 of a wound saved, kept
    ({"what": "save", "faces": [False] * 4 + [True] * 2, "damage": 1, "wounds_left": 1}, [6], None),
    # a 5-wound model's 5+ save against Damage 3: 3 x 4/6 = 2 wounds saved: the lowest that saves
    ({"what": "save", "faces": [False] * 4 + [True] * 2, "damage": 3, "wounds_left": 5}, [3, 5, 6], "5"),
    # a Hit roll of a Damage 1 weapon: a small part of a wound
    ({"what": "hit", "faces": ["fail", "fail", "success", "success", "success", "critical"], "damage": 1,
      "wound_faces": 3, "save_faces": 2}, [6], None),
    # a Wound roll of a Damage 6 weapon past no save: 6 x 1/2 = 3 wounds
    ({"what": "wound", "faces": ["fail"] * 3 + ["success"] * 2 + ["critical"], "damage": 6, "save_faces": 0},
     [2, 4], "4"),
])
def test_the_greedy_bot_spends_a_miracle_dice_where_it_adds_a_wound_or_more(info, options, take):
    from bagm.engine.bots.uses import miracle_for
    from bagm.engine.state.core import Decision

    class G:
        decision = Decision("rule", "A", {"rule": "Acts of Faith", "unit": "A3", "options": [str(v) for v in options],
                                          **info})
    legal = [Action("rule", arg=str(v)) for v in options] + [Action("pass")]
    got = miracle_for(GreedyBot(), G(), "A", legal)  # type: ignore[arg-type]
    assert (got.arg if got is not None else None) == take


def test_a_greedy_game_spends_miracle_dice_in_attacks_and_its_log_replays_exactly():
    from test_miracles import ORKS, SORORITAS

    from bagm.engine.log.record import play_bots, replay
    rec = play_bots(11, SORORITAS, ORKS, 1)
    used = [e for e in rec.events if e["e"] == "miracle" and e.get("what") in ("hit", "wound", "save", "damage")]
    assert used and all(e.get("weapon") for e in used)  # (seed 1: the Priest saves against a Kustom mega-blasta)
    assert replay(rec.lines).lines == rec.lines


@pytest.mark.parametrize("die, passed", [(1, False), (2, True)])
def test_a_miracle_dice_for_the_battle_shock_test_a_declared_charge_calls_for(die, passed):
    # Focused Ferocity (World Eaters): each target of a charge takes a Battle-shock test at once; A3 (Repentia,
    # Leadership 8+ ... its best model's) puts a Miracle dice of 6 in place of one of the two dice
    from bagm.data.models import Effect
    from bagm.data.schema import validate
    from bagm.engine.rules.effects import charge_tests
    from bagm.engine.state.core import Decision

    g, ork = shooting_game((6, 3))
    ork.standing += (("Focused Ferocity", validate(Effect, {"charge_test": "battle-shock"})),)
    sisters_unit = g.units["A3"]
    ld = sisters_unit.leadership()
    steps = charge_tests(g, ork, sisters_unit)
    d = next(steps)
    assert isinstance(d, Decision) and d.step == "rule" and d.player == "A"
    assert (d.info["what"], d.info["dice"], d.info["needed"], set(d.info["options"])) == ("battle-shock", 2, ld, {"6", "3"})
    g.dice = Dice.scripted([ld - 8 + die])  # the other dice: 6 + it makes ld - 1 (fails) or ld (passes)
    with pytest.raises(StopIteration):
        steps.send(Action("rule", arg="6"))
    g.dice.assert_consumed()
    test = [e for e in g.events if e["e"] == "battleshock_test"][-1]
    assert (test["unit"], test["roll"], test["passed"]) == ("A3", ld - 2 + die, passed)
    assert g.miracles["A"] == (3,)
