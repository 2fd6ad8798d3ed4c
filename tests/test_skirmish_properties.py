"""Skirmish Battles odds: properties over many attacks and targets (hypothesis)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bagm.skirmish.odds import Attack, Reroll, Target, odds
from bagm.skirmish.tables import Damage

SETTINGS = settings(max_examples=60, deadline=None)

attacks = st.builds(
    Attack,
    attacks=st.integers(0, 6), strength=st.integers(1, 12), bs=st.integers(1, 10),
    ap=st.one_of(st.none(), st.integers(1, 6)),
    reroll_hits=st.sampled_from(list(Reroll)), reroll_wounds=st.sampled_from(list(Reroll)),
    gauss=st.booleans(), no_armour=st.booleans(), damage_bonus=st.integers(0, 2),
    pins_on_hit=st.booleans(), stuns_on_hit=st.booleans(), partial=st.booleans())
targets = st.builds(
    Target, toughness=st.integers(1, 10), save=st.one_of(st.none(), st.integers(2, 6)),
    invulnerable=st.one_of(st.none(), st.integers(2, 6)), cover=st.booleans(),
    wounds=st.integers(1, 3))


@SETTINGS
@given(attacks, targets)
def test_every_answer_is_a_distribution(a: Attack, t: Target) -> None:
    o = odds(a, t)
    for dist in (o.result, o.hits, o.unsaved_wounds, o.wounds_left):
        assert sum(dist.values()) == 1 and all(p >= 0 for p in dist.values())
    assert max(o.hits) <= a.attacks and max(o.unsaved_wounds) <= a.attacks


@SETTINGS
@given(attacks, targets)
def test_one_more_attack_never_helps_the_target(a: Attack, t: Target) -> None:
    from dataclasses import replace

    more = replace(a, attacks=a.attacks + 1)
    harmed = 1 - odds(a, t).result.get(Damage.UNHARMED, Fraction(0))
    assert 1 - odds(more, t).result.get(Damage.UNHARMED, Fraction(0)) >= harmed


@SETTINGS
@given(attacks, targets)
def test_a_better_save_never_hurts_the_target(a: Attack, t: Target) -> None:
    from dataclasses import replace

    if t.save is None or t.save == 2:
        return
    better = replace(t, save=t.save - 1)
    killed = odds(a, t).result.get(Damage.KILLED, Fraction(0)) + odds(a, t).result.get(
        Damage.OUT_OF_ACTION, Fraction(0))
    killed_better = odds(a, better).result.get(Damage.KILLED, Fraction(0)) + odds(a, better).result.get(
        Damage.OUT_OF_ACTION, Fraction(0))
    assert killed_better <= killed
