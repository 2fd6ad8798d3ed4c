"""The exact search for a unit's wargear (issue 13 section 1): it accepts every combination the
greedy placement it replaced accepted (tests/wargear_greedy.py, the reference) without giving a
model an item the roster does not name, and what it accepts really has the counts the roster
names, over the bundled datasheets; bounds shared by several kinds, choices inside an item and
bounds that change with another choice, each over all units."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wargear_greedy import greedy_accepts, greedy_loadouts

from bagm.data.names import norm
from bagm.data.packs import Catalog
from bagm.roster.points import legal_sizes
from bagm.roster.wargear import default_loadouts, offered, resolve

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
    plain = copy.copy(sheet)  # the greedy placement knew no bound shared by several kinds,
    plain.wargear_groups = []  # no bounds that change with another choice, no choices inside
    plain.wargear_item_bounds = []  # nor items carried together across the unit
    plain.wargear = [copy.copy(k) for k in sheet.wargear]  # an item (it made them anyway)
    for k in plain.wargear:
        k.choices = [copy.copy(c) for c in k.choices]
        for c in k.choices:
            c.unless, c.needs, c.unit_needs, c.unit_min = [], None, [], None
            c.item_needs, c.item_unit_unless = {}, {}  # nor an item bound to another
            c.item_unless, c.unit_max = {}, None
        k.unit_unless = []  # nor a kind barred beside another
    greedy = greedy_loadouts(plain, n, wanted)
    # nor that a model takes no item the roster does not name (it could give one silently)
    names = {norm(i) for lo in default_loadouts(sheet, n) for i in lo.items} | {
        norm(i) for v in wanted.values() for i in (v if isinstance(v, dict) else {})} | {
        norm(k) for k, v in wanted.items() if not isinstance(v, dict)}
    if greedy is not None and all(norm(i) in names for lo in greedy for i in lo.items):
        assert resolve(plain, n, wanted)[1] == [], (sheet.name, n, wanted)
    loadouts, problems = resolve(sheet, n, wanted)
    if not problems:
        assert sum(lo.count for lo in loadouts) == n
        for key, value in wanted.items():
            for item, count in (value.items() if isinstance(value, dict) else [(key, value)]):
                profile = next(m.name for m in sheet.models if norm(m.name) == norm(key)) \
                    if isinstance(value, dict) else None
                got = carriers(loadouts, item, profile)
                assert got == count, (sheet.name, n, wanted, item, got)
        for b in sheet.wargear_item_bounds:  # kept, or no more than the default unit has
            if b.alike or len(b.items) != 1:
                continue
            plain_count = carriers(default_loadouts(sheet, n), b.items[0], None)
            most = b.most(n)
            assert most is None or carriers(loadouts, b.items[0], None) <= max(most,
                                                                               plain_count)
    else:
        assert len(problems) == 1 and problems[0].code in ("BA191", "BA192", "BA193", "BA197")


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


# --- bounds shared by several kinds of model (the catalogues' groups) ---------------------------

def test_cadian_special_weapons_share_one_bound() -> None:
    """Cadian Shock Troops: each kind with a special weapon is 0-1, and up to 2 of them in a
    unit of 10 (the unit of 20 is hidden in Boarding Actions): a third is refused."""
    sheet = CATALOG.faction("Astra Militarum").units.get("Cadian Shock Troops")
    assert [(g.max, g.max_from) for g in sheet.wargear_groups] == [(2, {})]
    loadouts, problems = resolve(sheet, 10, {"flamer": 1, "meltagun": 1})
    assert problems == [] and carriers(loadouts, "Lasgun", None) == 7
    _, problems = resolve(sheet, 10, {"flamer": 1, "meltagun": 1, "plasma gun": 1})
    assert [(p.code, p.loc) for p in problems] == [("BA192", ("plasma gun",))]
    assert "cannot be combined" in problems[0].message
    assert greedy_accepts(sheet, 10, {"flamer": 1, "meltagun": 1, "plasma gun": 1})  # the old gap


def _signature(sheet: Any, kind: Any, n: int) -> str | None:
    """An item only models of ``kind`` carry (in its gear), none by default."""
    from bagm.roster.wargear import default_loadouts

    carried = {norm(i) for lo in default_loadouts(sheet, n) for i in lo.items}
    for item in kind.gear:
        others = [k for k in sheet.wargear if k is not kind
                  and norm(item) in {norm(i) for i in [*k.gear, *(x for c in k.choices
                                                                 for x in c.of)]}]
        if not others and norm(item) not in carried:
            return item
    return None


def _most(bounded: Any, n: int) -> int:
    hi = bounded.max if bounded.max is not None else n
    for size, value in bounded.max_from.items():
        if n >= size:
            hi = value
    return hi


def test_every_shared_bound_is_kept_at_its_edge() -> None:
    """Over all units: where each kind a bound covers has an item of its own, as many of those
    items as the bound allows are accepted and one more is refused."""
    checked = 0
    for sheet in SHEETS:
        for n in legal_sizes(sheet.points, sheet.sizes, None):
            for g in sheet.wargear_groups:
                hi = _most(g, n) if g.max is not None else None
                kinds = [k for k in sheet.wargear if k.model in g.models]
                signs = [_signature(sheet, k, n) for k in kinds]
                if hi is None or None in signs or hi >= n - 1:
                    continue
                room = [min(_most(k, n), n) for k in kinds]
                if sum(room) <= hi:
                    continue  # the kinds' own maxima already keep it
                wanted: dict[str, int] = {}
                left = hi
                for sign, most in zip(signs, room):
                    take = min(left, most)
                    if take:
                        wanted[str(sign)] = take
                    left -= take
                assert resolve(sheet, n, wanted)[1] == [], (sheet.name, n, wanted)
                extra = next(str(s) for s, most in zip(signs, room)
                             if wanted.get(str(s), 0) < most)
                wanted[extra] = wanted.get(extra, 0) + 1
                problems = resolve(sheet, n, wanted)[1]
                assert [p.code for p in problems] in (["BA191"], ["BA192"]), (sheet.name, n)
                checked += 1
    assert checked >= 15, checked


# --- choices inside a bundled item ----------------------------------------------------------

def test_a_captain_names_the_melee_weapon_inside_his_bundle() -> None:
    """The Captain's "Bolt Pistol, Master-crafted Bolter, Melee Weapon" makes its own choice of
    melee weapon (close combat weapon by default); the other bundle makes none."""
    from bagm.roster.wargear import default_loadouts, from_lines

    sheet = CATALOG.faction("Adeptus Astartes").units.get("Captain")
    bundle = "Bolt Pistol, Master-crafted Bolter, Melee Weapon"
    (inner,) = [c for k in sheet.wargear for c in k.choices if c.needs == bundle]
    assert inner.needs == bundle and inner.default == "Close combat weapon"
    assert "Power fist" in inner.of
    assert [lo.items for lo in default_loadouts(sheet, 1)] == [(bundle, "Close combat weapon")]
    got, problems = resolve(sheet, 1, {"power fist": 1})
    assert problems == [] and [lo.items for lo in got] == [(bundle, "Power fist")]
    other = "Heavy Bolt Pistol, Master-crafted power weapon and 1 Relic Shield"
    got, problems = resolve(sheet, 1, {other: 1})
    assert problems == [] and [lo.items for lo in got] == [(other,)]
    _, problems = resolve(sheet, 1, {other: 1, "power fist": 1})  # not inside the other one
    assert [p.code for p in problems] == ["BA192"]
    _, problems = resolve(sheet, 1, {"close combat weapon": 0})  # say what replaces it
    assert [p.code for p in problems] == ["BA192"]
    # an exported list's lines keep the weapon chosen inside the bundle
    lines = [(1, bundle), (1, "Power fist"), (1, "Bolt pistol"), (1, "Master-crafted bolter")]
    assert from_lines(sheet, 1, lines) == ({"Power fist": 1}, [])


def test_every_choice_inside_an_item_is_offered_with_it() -> None:
    """Over all units: a choice inside an item names an item its kind of model can carry, its
    default is taken only with that item, and each of its options can be taken."""
    from bagm.roster.wargear import default_loadouts

    inside = 0
    for sheet in SHEETS:
        for kind in sheet.wargear:
            own = {*kind.gear, *(i for c in kind.choices if not c.needs for i in c.of)}
            for c in kind.choices:
                if not c.needs:
                    continue
                inside += 1
                assert c.needs in own, (sheet.name, c.needs)
                n = legal_sizes(sheet.points, sheet.sizes, None)[0]
                for lo in default_loadouts(sheet, n):  # this kind's models (other kinds
                    # carry their own: a Chosen's boltgun beside the champion's bundle)
                    if lo.profile == kind.profile and c.default and c.needs not in lo.items:
                        assert c.default not in lo.items or c.default in own, sheet.name
                for item in c.of:
                    _, problems = resolve(sheet, n, {c.needs: n if c.needs in own else 1,
                                                      item: 1})
                    assert problems == [] or problems[0].code != "BA190", (sheet.name, item)
    assert inside >= 3


# --- bounds that change with another choice ---------------------------------------------------

def test_a_sergeant_with_lightning_claws_makes_no_weapon_choice() -> None:
    """Tactical Squad: "if the sergeant takes twin lightning claws" his two weapon choices are
    gone (the catalogue sets their bounds to 0 while he carries them)."""
    sheet = CATALOG.faction("Adeptus Astartes").units.get("Tactical Squad")
    sergeant = next(k for k in sheet.wargear if k.model == "Tactical Marine Sergeant")
    assert [c.unless for c in sergeant.choices] == [[], ["Twin lightning claws"],
                                                    ["Twin lightning claws"]]
    wanted = {"Tactical Marine Sergeant": {"twin lightning claws": 1}}
    got, problems = resolve(sheet, 10, wanted)
    assert problems == []
    assert ("Tactical Marine Sergeant", ("Close combat weapon", "Twin lightning claws")) in \
        {(lo.profile, lo.items) for lo in got}
    _, problems = resolve(sheet, 10, {"Tactical Marine Sergeant": {"twin lightning claws": 1,
                                                                   "power fist": 1}})
    assert [p.code for p in problems] == ["BA192"]
    assert resolve(sheet, 10, {"Tactical Marine Sergeant": {"power fist": 1}})[1] == []


def test_every_choice_an_item_rules_out_takes_nothing_with_it() -> None:
    """Over all units: an item that rules a choice out is one its kind of model can carry, and
    a model carrying it carries none of that choice's items the unit does not carry anyway."""
    ruled = 0
    for sheet in SHEETS:
        n = legal_sizes(sheet.points, sheet.sizes, None)[0]
        for kind in sheet.wargear:
            own = {*kind.gear, *(i for c in kind.choices for i in c.of)}
            for c in kind.choices:
                for item in c.unless:
                    ruled += 1
                    assert item in own, (sheet.name, item)
                    by_profile = bool(kind.profile) and len(
                        {k.profile for k in sheet.wargear}) > 1
                    # an item every plain model carries (the Wracks' twin tools): as many
                    count = max(1, sum(lo.count for lo in default_loadouts(sheet, n)
                                       if item in lo.items
                                       and (not by_profile or lo.profile == kind.profile)))
                    wanted = {kind.profile: {item: count}} if by_profile else {item: count}
                    got, problems = resolve(sheet, n, wanted)
                    assert problems == [], (sheet.name, item, problems)
                    assert all(not set(c.of) & set(lo.items) for lo in got
                               if item in lo.items and lo.profile == kind.profile), sheet.name
    assert ruled >= 9


# --- bounds that change with the unit's size -------------------------------------------------

@pytest.mark.parametrize("n, most", [(3, 1), (5, 1), (6, 2)])
def test_plasmacytes_by_the_units_size(n: int, most: int) -> None:
    """Ophydian Destroyers: up to 2 Plasmacytes, one fewer in a unit of fewer than 6 models (the
    catalogue's "decrement 1 if fewer than 6 models"): 1 in a unit of 3 or 5, 2 in a unit of 6."""
    sheet = CATALOG.faction("Necrons").units.get("Ophydian Destroyers")
    assert sheet.wargear_unread == []
    assert resolve(sheet, n, {"plasmacyte": most})[1] == []
    _, problems = resolve(sheet, n, {"plasmacyte": most + 1})
    assert [p.code for p in problems] == ["BA191"]
    assert f"at most {most}" in problems[0].message


def test_size_bounds_are_shown_by_bagm_datasheet() -> None:
    """The datasheet's text says how a choice's bound changes with the unit's size."""
    from bagm.render.datasheet import kind_dict, kind_text

    sheet = CATALOG.faction("Necrons").units.get("Ophydian Destroyers")
    unit = next(k for k in sheet.wargear if k.model is None)
    assert "optional Plasmacyte (up to 1 in a smaller unit; up to 2 from 6 models)" in kind_text(unit)
    assert kind_dict(unit)["choices"][0]["max_from"] == {"6": 2}


def test_bounds_not_read_are_said(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A choice whose bounds change in a form the import does not read is named in the data
    and in a warning for a roster that names that unit's wargear (never a silent pass). The
    bundled packs have none left (tests/test_wargear_bounds.py): a pack that has one."""
    from bagm.roster.model import load_roster
    from bagm.roster.validate import validate

    sheet = CATALOG.faction("Adeptus Astartes").units.get("Reiver Squad")
    monkeypatch.setattr(sheet, "wargear_unread", ["Reiver Sergeant: Bolt Carbine"])
    path = tmp_path / "r.yaml"
    path.write_text("faction: Adeptus Astartes\ndetachment: Shield of the Void\nunits:\n"
                    "  - unit: Captain\n    warlord: true\n  - unit: Reiver Squad\n"
                    "    models: 5\n    wargear: {grapnel launchers: 1}\n", encoding="utf-8")
    report = validate(load_roster(path), CATALOG)
    found = [f for f in report.findings if f.code == "BA196"]
    assert len(found) == 1 and "Reiver Sergeant: Bolt Carbine" in found[0].message
    assert found[0].line == 8 and report.valid
