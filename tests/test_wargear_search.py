"""The exact search for a unit's wargear (issue 13 section 1): it accepts every combination the
greedy placement it replaced accepted (tests/wargear_greedy.py, the reference), and what it
accepts really has the counts the roster names, over the bundled datasheets."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wargear_greedy import greedy_accepts

from bagm.data.names import norm
from bagm.data.packs import Catalog
from bagm.roster.points import legal_sizes
from bagm.roster.wargear import offered, resolve

CATALOG = Catalog()
SHEETS = [s for f in CATALOG.all() for s in f.pack.units if s.wargear]


def carriers(loadouts: list[Any], item: str, profile: str | None) -> int:
    return sum(lo.count for lo in loadouts if (profile is None or lo.profile == profile)
               and norm(item) in {norm(i) for i in lo.items})


@st.composite
def choices(draw: st.DrawFn) -> tuple[Any, int, dict[str, Any]]:
    sheet = draw(st.sampled_from(SHEETS))
    n = draw(st.sampled_from(legal_sizes(sheet.points, sheet.sizes, None)))
    items = offered(sheet)
    names = draw(st.lists(st.sampled_from(items), min_size=1, max_size=4, unique=True))
    wanted: dict[str, Any] = {}
    for name in names:
        count = draw(st.integers(0, min(n, 3)))
        profiles = [m.name for m in sheet.models]
        if len(profiles) > 1 and draw(st.booleans()):
            wanted.setdefault(draw(st.sampled_from(profiles)), {})[name] = count
        else:
            wanted[name] = count
    return sheet, n, wanted


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices())
def test_the_exact_search_accepts_whatever_the_greedy_one_did(case: tuple[Any, int, dict]) -> None:
    sheet, n, wanted = case
    loadouts, problems = resolve(sheet, n, wanted)
    if greedy_accepts(sheet, n, wanted):
        assert problems == [], (sheet.name, n, wanted, problems)
    if not problems:
        assert sum(lo.count for lo in loadouts) == n
        for key, value in wanted.items():
            for item, count in (value.items() if isinstance(value, dict) else [(key, value)]):
                profile = next(m.name for m in sheet.models if norm(m.name) == norm(key)) \
                    if isinstance(value, dict) else None
                got = carriers(loadouts, item, profile)
                assert got == count, (sheet.name, n, wanted, item, got)
    else:
        assert len(problems) == 1 and problems[0].code in ("BA191", "BA192", "BA193")


@pytest.mark.parametrize("unit, models, wanted", [
    # legal combinations the greedy placement refused
    ("Deathwatch Veterans", 10, {"deathwatch thunder hammer": 2}),
    ("Terminator Squad", 5, {"heavy flamer": 1, "chainfist": 2}),
])
def test_legal_combinations_are_accepted(unit: str, models: int, wanted: dict) -> None:
    sheet = CATALOG.faction("Adeptus Astartes").units.get(unit)
    if unit == "Deathwatch Veterans":
        assert not greedy_accepts(sheet, models, wanted)
    loadouts, problems = resolve(sheet, models, wanted)
    assert problems == [], problems
    for item, count in wanted.items():
        assert carriers(loadouts, item, None) == count
