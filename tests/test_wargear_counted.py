"""Wargear bounds counting some kinds of model instead of the unit's size (issue 13 section 1):
``max_from`` keyed on the models of ``max_from_kinds``. The catalogues raise "Max 1 {this} per
5 models" on Inquisitorial Agents while their "5 - 10 Acolytes" count fewer than 10: a special
Agent, a Gun Servitor and a Tome-skull up to 1 each, 2 with 10 Acolytes. The unit's size does
not settle that number (11 models may be 10 Acolytes and a servitor, or 9 and two), so the
loadout search tries each range of it. They raise the Neurogaunt Nodebeast's maximum by 1
while the unit has 20 Neurogaunts (21 models: 1 Nodebeast; 22: 2). Each bound is tested at
its limit and one over, through :func:`resolve` and through ``bagm validate`` on a roster
file."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_bsdata import _bounds, _unit_xml, _weapon_xml, catalogue_of, read_test_catalogue
from test_wargear_beside import _cond
from test_wargear_bounds import check, sheet, wargear_findings

from bagm.data.packs import Catalog
from bagm.roster.points import legal_sizes
from bagm.roster.wargear import Models, default_loadouts, resolve

ACOLYTES = ["Agent", "Agent w/ plasma pistol", "Agent w/ eviscerator", "Agent w/ mystic stave"]
SERVITORS = ["Servitor w/ heavy bolter", "Servitor w/ multi-melta", "Servitor w/ plasma cannon"]


def agents():  # type: ignore[no-untyped-def]
    return sheet("Agents of the Imperium", "Inquisitorial Agents")


# --- the bundled datasheet ----------------------------------------------------------------------

def test_the_agents_bounds_are_read_on_their_acolytes() -> None:
    ds = agents()
    assert ds.wargear_unread == []
    kinds = {k.model: k for k in ds.wargear}
    for name in ACOLYTES[1:]:
        k = kinds[name]
        assert (k.max, k.max_from, k.max_from_kinds) == (1, {10: 2}, ACOLYTES)
    assert kinds["Agent"].max_from_kinds == []
    servitors = next(g for g in ds.wargear_groups if g.models == SERVITORS)
    assert (servitors.min, servitors.max, servitors.max_from, servitors.max_from_kinds) == (
        1, 1, {10: 2}, ACOLYTES)
    assert [(b.items, b.max, b.max_from, b.max_from_kinds) for b in ds.wargear_item_bounds] == [
        (["Tome-skull"], 1, {10: 2}, ACOLYTES)]


def _problems(n: int, wanted: dict[str, int]) -> list[tuple[str, str]]:
    return [(p.code, p.message) for p in resolve(agents(), n, wanted)[1]]


@pytest.mark.parametrize("item", ["plasma pistol", "eviscerator", "mystic stave"])
def test_a_special_agent_up_to_1_below_10_acolytes_and_2_with_10(item: str) -> None:
    assert _problems(6, {item: 1}) == []
    (code, message), = _problems(6, {item: 2})
    assert code == "BA197"
    assert f"at most 1 Agent w/ {item} while the unit has fewer than 10 models of Agent / " \
        in message and "(2 from 10):" in message
    assert message.endswith("name fewer, or have 10 or more of them in the unit")
    assert _problems(12, {item: 2}) == []
    assert [c for c, _ in _problems(12, {item: 3})] == ["BA191"]  # the kind's own bound


def test_two_gun_servitors_only_beside_10_acolytes() -> None:
    """11 models: 10 Acolytes and 1 servitor, or 9 and 2, which the error refuses."""
    assert _problems(12, {"plasma cannon": 2}) == []
    assert _problems(12, {"plasma cannon": 1, "multi-melta": 1}) == []
    assert _problems(11, {"plasma cannon": 1}) == []
    assert _problems(11, {"plasma cannon": 1, "plasma pistol": 2}) == []
    (code, message), = _problems(11, {"plasma cannon": 2})
    assert code == "BA197" and message.startswith(
        "Inquisitorial Agents: at most 1 of Servitor w/ heavy bolter / Servitor w/ multi-melta "
        "/ Servitor w/ plasma cannon together while the unit has fewer than 10 models of")
    (code, _), = _problems(11, {"plasma cannon": 1, "multi-melta": 1})
    assert code == "BA197"
    # 6 models hold 5 Acolytes (their least) and 1 servitor: the unit's composition says it
    assert [c for c, _ in _problems(6, {"plasma cannon": 1, "multi-melta": 1})] == ["BA192"]


def test_a_second_tome_skull_only_beside_10_acolytes() -> None:
    assert _problems(6, {"tome-skull": 1}) == []
    (code, message), = _problems(6, {"tome-skull": 2})
    assert code == "BA197" and "at most 1 Tome-skull while the unit has fewer than 10" in message
    assert _problems(12, {"tome-skull": 2}) == []
    assert [c for c, _ in _problems(12, {"tome-skull": 3})] == ["BA191"]  # the choice's own
    assert _problems(11, {"tome-skull": 2, "plasma cannon": 1}) == []  # 10 Acolytes
    assert [c for c, _ in _problems(11, {"tome-skull": 2, "plasma cannon": 1,
                                         "multi-melta": 1})] == ["BA197"]


def test_the_largest_unit_takes_every_bound_at_its_most() -> None:
    loadouts, problems = resolve(agents(), 12, {"plasma pistol": 2, "eviscerator": 2,
                                                "mystic stave": 2, "plasma cannon": 2,
                                                "tome-skull": 2})
    assert problems == []
    assert sum(lo.count for lo in loadouts) == 12


ROSTER = """faction: Agents of the Imperium
detachment: Interdiction Team
units:
  - unit: Inquisitor
    warlord: true
  - unit: Inquisitorial Agents
    models: {n}
    wargear:
      {item}: {k}
"""


@pytest.mark.parametrize("item", ["plasma pistol", "eviscerator", "mystic stave", "tome-skull"])
def test_validate_refuses_a_second_one_in_six_agents_at_its_line(tmp_path: Path,
                                                                 item: str) -> None:
    r = check(tmp_path, ROSTER.format(n=6, item=item, k=1))
    assert r.valid and wargear_findings(r) == [], r.findings
    r = check(tmp_path, ROSTER.format(n=6, item=item, k=2))
    assert not r.valid and wargear_findings(r) == [("BA197", 9)], r.findings
    assert any("while the unit has fewer than 10 models of" in f.message for f in r.findings)
    r = check(tmp_path, ROSTER.format(n=12, item=item, k=2))
    assert r.valid and wargear_findings(r) == [], r.findings


def test_validate_takes_two_gun_servitors_in_twelve_agents(tmp_path: Path) -> None:
    r = check(tmp_path, ROSTER.format(n=12, item="plasma cannon", k=2))
    assert r.valid and wargear_findings(r) == [], r.findings
    r = check(tmp_path, ROSTER.format(n=6, item="plasma cannon", k=2))
    assert not r.valid and [c for c, _ in wargear_findings(r)] == ["BA191"], r.findings


def test_the_datasheet_shows_the_bounds_by_their_acolytes() -> None:
    from bagm.render.datasheet import group_text, item_bound_text, kind_text

    ds = agents()
    kinds = {k.model: k for k in ds.wargear}
    of = " / ".join(ACOLYTES)
    assert kind_text(kinds["Agent w/ eviscerator"]).startswith(
        f"Agent w/ eviscerator (0-1; up to 2 from 10 models of {of}): Eviscerator")
    assert group_text(next(g for g in ds.wargear_groups if g.models == SERVITORS)) == \
        f"Together (1-1; up to 2 from 10 models of {of}): {' / '.join(SERVITORS)}"
    assert item_bound_text(ds.wargear_item_bounds[0]) == \
        f"Together in the unit (up to 1; up to 2 from 10 models of {of}): Tome-skull"


def test_every_default_unit_keeps_the_bounds_counting_some_kinds() -> None:
    """At every legal size of every bundled unit with such a bound, the default unit's
    number of each kind, group and item is within the bound at its own number of models."""
    checked = 0
    for f in Catalog().all():
        for ds in f.pack.units:
            counted = [k for k in ds.wargear if k.max_from_kinds] + \
                [g for g in ds.wargear_groups if g.max_from_kinds] + \
                [b for b in ds.wargear_item_bounds if b.max_from_kinds]
            if not counted:
                continue
            for n in legal_sizes(ds.points, ds.sizes, None):
                unit = Models(ds, n)
                per = {k.model: 0 for k in unit.kinds}
                for i, k in enumerate(unit.kinds):
                    per[k.model] += unit.count(i)
                items = [i for lo in default_loadouts(ds, n) for _ in range(lo.count)
                         for i in lo.items]
                for b in counted:
                    at = b.most(sum(per[m] for m in b.max_from_kinds))
                    has = per[b.model] if hasattr(b, "model") else sum(
                        per[m] for m in b.models) if hasattr(b, "models") else sum(
                        items.count(i) for i in b.items)
                    assert at is None or has <= at, (ds.name, n, b)
                    checked += 1
    assert checked >= 10


NODEBEAST, CLAWS = "Neurogaunt Nodebeast", "Chitinous claws and teeth"


def neurogaunts():  # type: ignore[no-untyped-def]
    return sheet("Tyranids", "Neurogaunts")


def test_the_nodebeasts_maximum_is_read_on_the_neurogaunts() -> None:
    ds = neurogaunts()
    assert ds.wargear_unread == []
    beast = next(k for k in ds.wargear if k.model == NODEBEAST)
    assert (beast.min, beast.max, beast.max_from, beast.max_from_kinds) == (
        1, 1, {20: 2}, ["Neurogaunt"])
    from bagm.render.datasheet import kind_text

    assert kind_text(beast) == \
        f"{NODEBEAST} (1; up to 2 from 20 models of Neurogaunt): {CLAWS}"


def test_a_second_nodebeast_only_beside_20_neurogaunts() -> None:
    ds = neurogaunts()

    def problems(n: int, k: int) -> list[tuple[str, str]]:
        return [(p.code, p.message) for p in resolve(ds, n, {NODEBEAST: {CLAWS: k}})[1]]
    assert problems(21, 1) == [] and problems(22, 2) == []
    (code, message), = problems(21, 2)  # 19 Neurogaunts
    assert (code, message) == ("BA197", f"Neurogaunts: at most 1 {NODEBEAST} while the unit "
                               "has fewer than 20 models of Neurogaunt (2 from 20): name fewer, "
                               "or have 20 or more of them in the unit")
    assert [c for c, _ in problems(22, 3)] == ["BA191"]  # the kind's own bound
    assert problems(11, 1) == []
    assert [c for c, _ in problems(11, 2)] == ["BA191"]  # 10 Neurogaunts at least: the size


NEUROGAUNTS = """faction: Tyranids
detachment: Biotide
units:
  - unit: Winged Tyranid Prime
    warlord: true
  - unit: Neurogaunts
    models: 11
    wargear:
      Neurogaunt Nodebeast: {{Chitinous claws and teeth: {k}}}
"""


def test_validate_takes_one_nodebeast_in_eleven_neurogaunts(tmp_path: Path) -> None:
    """11 models, the one Boarding Actions size: 1 Nodebeast and 10 Neurogaunts, so the
    bound never raises the Nodebeasts there; a second is refused by the unit's size."""
    r = check(tmp_path, NEUROGAUNTS.format(k=1))
    assert r.valid and wargear_findings(r) == [], r.findings
    r = check(tmp_path, NEUROGAUNTS.format(k=2))
    assert not r.valid and wargear_findings(r) == [("BA191", 9)], r.findings


# --- the importer's form, on a catalogue of its own ---------------------------------------------

def _error(text: str, *conds: str) -> str:
    return (f'<modifiers><modifier type="add" value="{text}" field="error"><conditionGroups>'
            f'<conditionGroup type="and"><conditions>{"".join(conds)}</conditions>'
            "</conditionGroup></conditionGroups></modifier></modifiers>")


def _catalogue() -> str:
    """A Retinue: "3 - 6 Acolytes" (Acolytes, Acolytes w/ gun up to 2) and "1 - 2
    Servitors", with "Max 1 per 3 models" while the Acolytes count fewer than 6 on the
    Acolyte w/ gun, the servitors' group and the unit's Skull (up to 2); a Beast (up to 1)
    whose maximum is raised by 1 while the unit has 5 Acolytes (the kind, not the group)."""
    def model(ident: str, name: str, hi: int, lo: int | None = None, mods: str = "") -> str:
        return (f'<selectionEntry type="model" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, hi)}</constraints>{mods}"
                f"<profiles>{_unit_xml(ident, 'Retainer')}</profiles><selectionEntries>"
                f'<selectionEntry type="upgrade" name="{name} blade" hidden="false" '
                f'id="w-{ident}"><constraints>{_bounds("w-" + ident, 1, 1)}</constraints>'
                f"<profiles>{_weapon_xml('w-' + ident, name + ' blade')}</profiles>"
                "</selectionEntry></selectionEntries></selectionEntry>")

    def group(ident: str, name: str, lo: int, hi: int, inner: str, mods: str = "") -> str:
        return (f'<selectionEntryGroup name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, hi)}</constraints>{mods}"
                f"<selectionEntries>{inner}</selectionEntries></selectionEntryGroup>")

    fewer = _cond("lessThan", 6, "u-ret", "grp-aco")
    acolytes = group("grp-aco", "3 - 6 Acolytes", 3, 6, model("m-aco", "Acolyte", 6, 1)
                     + model("m-gun", "Acolyte w/ gun", 2, mods=_error(
                         "Max 1 per 3 models", fewer,
                         _cond("greaterThan", 1, "u-ret", "m-gun"))))
    servitors = group("grp-srv", "1 - 2 Servitors", 1, 2,
                      model("m-srv", "Servitor", 2) + model("m-big", "Big Servitor", 2),
                      _error("Max 1 per 3 models", fewer,
                             _cond("greaterThan", 1, "u-ret", "grp-srv")))
    skull = (f'<selectionEntry type="upgrade" name="Skull" hidden="false" id="g-skull">'
             f"<constraints>{_bounds('g-skull', None, 2)}</constraints>"
             + _error("Max 1 per 3 models", fewer, _cond("greaterThan", 1, "u-ret", "g-skull"))
             + f"<profiles>{_weapon_xml('g-skull', 'Skull')}</profiles></selectionEntry>")
    beast = model("m-beast", "Beast", 1, mods=(
        '<modifiers><modifier type="increment" value="1" field="c-m-beast-max"><conditions>'
        + _cond("atLeast", 5, "unit", "m-aco") + "</conditions></modifier></modifiers>"))
    unit = ('<selectionEntry type="unit" name="Retinue" hidden="false" id="u-ret">'
            f"<selectionEntries>{skull}{beast}</selectionEntries>"
            f"<selectionEntryGroups>{acolytes}{servitors}</selectionEntryGroups>"
            "</selectionEntry>")
    return catalogue_of("cat-ret", "Imperium - Retinue Test", unit)


@pytest.fixture
def retinue(tmp_path: Path) -> dict:
    return read_test_catalogue(tmp_path, "Imperium - Retinue Test", _catalogue())["Retinue"]


def test_an_error_counting_a_group_of_kinds_is_read_on_their_number(retinue: dict) -> None:
    acolytes = ["Acolyte", "Acolyte w/ gun"]
    kinds = {k["model"]: k for k in retinue["wargear"]}
    assert retinue.get("wargear_unread", []) == []
    gun = kinds["Acolyte w/ gun"]
    assert (gun["max"], gun["max_from"], gun["max_from_kinds"]) == (1, {6: 2}, acolytes)
    assert "max_from_kinds" not in kinds["Acolyte"]
    servitors = next(g for g in retinue["wargear_groups"]
                     if g["models"] == ["Servitor", "Big Servitor"])
    assert servitors == {"models": ["Servitor", "Big Servitor"], "min": 1, "max": 1,
                         "max_from": {6: 2}, "max_from_kinds": acolytes}
    assert retinue["wargear_item_bounds"] == [
        {"items": ["Skull"], "max": 1, "max_from": {6: 2}, "max_from_kinds": acolytes}]


def test_a_maximum_raised_by_a_count_of_another_kind_is_read_on_it(retinue: dict) -> None:
    beast = next(k for k in retinue["wargear"] if k["model"] == "Beast")
    assert (beast["max"], beast["max_from"], beast["max_from_kinds"]) == (1, {5: 2},
                                                                          ["Acolyte"])


def test_the_retinues_bounds_are_checked(retinue: dict) -> None:
    from bagm.data import models
    from bagm.data.schema import validate as validate_model

    ds = validate_model(models.Datasheet, dict(retinue, points={4: 40, 8: 80}))
    assert resolve(ds, 8, {"acolyte w/ gun blade": 2, "big servitor blade": 2,
                           "skull": 2})[1] == []
    assert resolve(ds, 4, {"acolyte w/ gun blade": 1, "skull": 1})[1] == []
    beasts = {"beast blade": 2}  # 2 with 5 Acolytes (not Acolytes w/ gun) and a servitor
    assert resolve(ds, 8, beasts)[1] == []
    assert [p.code for p in resolve(ds, 8, {**beasts, "acolyte w/ gun blade": 2})[1]] == [
        "BA197"]
    # 7 models: 6 Acolytes and a servitor, or 5 and two; 5: 4 and one, or 3 and two
    assert resolve(ds, 7, {"acolyte w/ gun blade": 2, "skull": 2})[1] == []
    for n, wanted in ((5, {"acolyte w/ gun blade": 2}), (5, {"skull": 2}),
                      (7, {"big servitor blade": 2}),
                      (7, {"acolyte w/ gun blade": 2, "big servitor blade": 2})):
        assert [p.code for p in resolve(ds, n, wanted)[1]] == ["BA197"], wanted
