"""The default run's property tests draw the same cases every run (conftest's ``bagm``
profile), so a CI run of an unchanged main cannot turn red on a case it never drew before;
``--hypothesis-profile=bagm-random`` and the long ``fuzz`` runs draw new ones."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


def _drawn() -> list[int]:
    seen: list[int] = []

    @settings(max_examples=25)
    @given(st.integers())
    def draw(n: int) -> None:
        seen.append(n)

    draw()
    return seen


def test_the_default_profile_draws_the_same_cases_every_run() -> None:
    if settings.default.derandomize is not True:
        pytest.skip("run with --hypothesis-profile=bagm-random: new cases each run, by choice")
    first = _drawn()
    assert len(first) > 1 and _drawn() == first


def test_the_random_profile_draws_new_cases() -> None:
    random = settings.get_profile("bagm-random")
    assert random.derandomize is False and random.database is None
    assert settings.get_profile("bagm").database is None
