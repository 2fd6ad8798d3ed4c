"""A unit's effect lookups against their plain references (tests/reference/effects.py): the
effects of every bundled roster's units, with Leader abilities conferred, rules used on them for
a phase and the unit in the states their conditions name, mixed at random."""

from __future__ import annotations

import contextlib
import dataclasses
from functools import cache

from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import effects as ref

from bagm.data.models import Effect
from bagm.data.schema import DataError, validate
from bagm.engine.attack.rules import Conditions
from bagm.engine.game.muster import build_army
from bagm.engine.rules.effects import (
    effect_conditions,
    effect_defence,
    effect_first,
    effect_has,
    effect_least,
    effect_sum,
    effect_weapon,
    toughness,
)
from bagm.engine.state.army import Unit

FIELDS = sorted(f.name for f in dataclasses.fields(Effect))
# the fields a sum, a least value, a flag or a first value is asked of (numbers, flags, options)
NUMBERS = [f for f in FIELDS if isinstance(getattr(Effect, f, None), int) and not isinstance(getattr(Effect, f), bool)]
FLAGS = [f for f in FIELDS if getattr(Effect, f, None) is False]
OPTIONS = [f for f in FIELDS if hasattr(Effect, f) and getattr(Effect, f) is None]


@cache
def pool() -> tuple[list[Unit], list[tuple[str, Effect]], list[object]]:
    """Every bundled roster's units, every standing effect they carry, every Leader ability
    with effects a datasheet of theirs confers."""
    units, standing, abilities = [], [], []
    for path in sorted((REPO / "rosters").glob("*.yaml")):
        for u in build_army("A", str(path)).units:
            units.append(u)
            standing += [x for x in u.standing if x not in standing]
            leader = getattr(u.datasheet, "leader", None)
            abilities += [a for a in getattr(leader, "abilities", None) or () if a.effects]
    return units, standing, abilities


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_lookups_are_their_plain_references(data):
    u = _unit(data, *pool(), least=0, made=False)
    u.kills = data.draw(st.integers(min_value=0, max_value=1))
    for _ in range(3):  # asked again: the kept index answers as the first time
        assert u.effects() == ref.effects(u)
        assert u.oc() == ref.oc(u)
        for m in u.models[:2]:
            assert u.oc(m) == ref.oc(u, m)
        for f in data.draw(st.lists(st.sampled_from(NUMBERS), max_size=4)):
            assert effect_sum(u, f) == ref.effect_sum(u, f), f
        for f in data.draw(st.lists(st.sampled_from(FLAGS), max_size=4)):
            assert effect_has(u, f) == ref.effect_has(u, f), f
        for f in data.draw(st.lists(st.sampled_from(OPTIONS), max_size=4)):
            assert effect_first(u, f) == ref.effect_first(u, f), f
            if f in ("fnp", "fnp_mortal", "pile_in", "ranged_within", "invuln"):
                assert effect_least(u, f) == ref.effect_least(u, f), f
        # a change of its effects or state between questions
        if data.draw(st.booleans()):
            u.timed = u.timed[:-1]
        u.battleshocked = data.draw(st.booleans())


# option fields of the attack sequence with values to set them to (made effects below)
ATTACK_OPTIONS = {"crit_hit": 5, "overwatch_hit": 5, "crit_wound": 5, "reroll_hits": "ones", "reroll_wounds": "failed",
                  "reroll_damage": "ones", "D_set": 2, "A_set": 3, "invuln": 4, "fnp": 5, "fnp_psychic": 4,
                  "weapon_abilities": [{"name": "lethal hits"}], "target_while": "below_half",
                  "target_has": ["INFANTRY"], "only_psychic": True, "only_weaker": True, "against_stronger": True}


@cache
def settable() -> list[dict[str, object]]:
    """Each number (-1, 1, 2), flag and attack option of the vocabulary set alone, where the
    vocabulary accepts it alone (some fields go with another)."""
    out = []
    for f in NUMBERS + FLAGS + sorted(ATTACK_OPTIONS):
        for v in [ATTACK_OPTIONS[f]] if f in ATTACK_OPTIONS else [True] if f in FLAGS else [-1, 1, 2]:
            try:
                validate(Effect, {f: v})
            except DataError:
                continue
            out.append({f: v})
    return out


@st.composite
def made_effects(draw) -> tuple[str, Effect]:
    """An effect setting one field at random (:func:`settable`), for attacks of a kind or against
    attacks of a kind."""
    kinds = {"attacks": draw(st.sampled_from(["all", "ranged", "melee"])),
             "against": draw(st.sampled_from(["all", "ranged", "melee"]))}
    return "Made", validate(Effect, {**draw(st.sampled_from(settable())), **kinds})


def _unit(data, units, standing, abilities, least: int = 1, made: bool = True) -> Unit:
    """A bundled roster's unit with at least ``least`` of its models and effects mixed at random:
    its own, the pool's (and with ``made``, effects setting one field each), for a while, a
    conferred Leader ability; its flags drawn too."""
    u = dataclasses.replace(data.draw(st.sampled_from(units)))
    u.models = list(u.models)[: data.draw(st.integers(min_value=least, max_value=max(least, len(u.models))))]
    effects = st.sampled_from(standing) | made_effects() if made else st.sampled_from(standing)
    mine = data.draw(st.lists(effects, max_size=6))
    u.standing = tuple(data.draw(st.sampled_from([mine, list(u.standing) + mine, list(u.standing)])))
    u.timed = tuple((n, e, "phase") for n, e in data.draw(st.lists(st.sampled_from(standing), max_size=3)))
    if abilities and data.draw(st.booleans()):
        a = data.draw(st.sampled_from(abilities))
        u.led = ("X1", a.name, a)
    for flag in ("battleshocked", "set_to_defend", "charged", "opened"):
        setattr(u, flag, data.draw(st.booleans()))
    return u


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_attack_lookups_are_their_plain_references(data):
    """effect_weapon, effect_conditions, effect_defence and toughness read only the effects setting
    the fields they read: the same answers as reading every effect (reference.effects.plain)."""
    units, standing, abilities = pool()
    u, t = _unit(data, units, standing, abilities), _unit(data, units, standing, abilities)
    assert _answers(u, t) == _answers(u, t, plainly=True)


def _answers(u: Unit, t: Unit, plainly: bool = False) -> list[object]:
    """The attack sequence's lookups of ``u`` attacking ``t`` (its first ranged and melee weapon),
    read plainly (reference.effects.plainly) or not."""
    out: list[object] = []
    with ref.plainly(u, t) if plainly else contextlib.nullcontext():
        for w in u.ranged[:1] + u.melee[:1]:
            w2 = effect_weapon(u, w, t)
            out += [w2, effect_weapon(u, w), effect_conditions(u, t, w2, Conditions()),
                    effect_defence(t, w2), effect_defence(t, w2, own=False)]
        out.append(toughness(t))
    return out


def test_each_field_alone_is_read_as_plainly():
    """Every number, flag and attack option of the vocabulary set alone on the attacker and on the
    target, for each kind of attack: the attack sequence's lookups read it as every effect read."""
    units, _, _ = pool()
    shooters = [u for u in units if u.ranged and u.melee]
    for field in settable():
        for kind in ("all", "ranged", "melee"):
            e = validate(Effect, {**field, "attacks": kind, "against": kind})
            for a, b in zip(shooters[:3], shooters[-3:]):
                u, t = dataclasses.replace(a), dataclasses.replace(b)
                u.standing, t.standing = (("Made", e),), (("Made", e),)
                assert _answers(u, t) == _answers(u, t, plainly=True), field
