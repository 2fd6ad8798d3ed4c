"""A unit's effect lookups against their plain references (tests/reference/effects.py): the
effects of every bundled roster's units, with Leader abilities conferred, rules used on them for
a phase and the unit in the states their conditions name, mixed at random."""

from __future__ import annotations

import dataclasses
from functools import cache

from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import effects as ref

from bagm.data.models import Effect
from bagm.engine.game.muster import build_army
from bagm.engine.rules.effects import effect_first, effect_has, effect_least, effect_sum
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
    units, standing, abilities = pool()
    u = dataclasses.replace(data.draw(st.sampled_from(units)))
    u.models = list(u.models)[: data.draw(st.integers(min_value=0, max_value=len(u.models)))]
    mine = data.draw(st.lists(st.sampled_from(standing), max_size=6))
    u.standing = tuple(data.draw(st.sampled_from([mine, list(u.standing) + mine, list(u.standing)])))
    u.timed = tuple((n, e, "phase") for n, e in data.draw(st.lists(st.sampled_from(standing), max_size=3)))
    if abilities and data.draw(st.booleans()):
        a = data.draw(st.sampled_from(abilities))
        u.led = ("X1", a.name, a)
    for flag in ("battleshocked", "set_to_defend", "charged", "opened"):
        setattr(u, flag, data.draw(st.booleans()))
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
