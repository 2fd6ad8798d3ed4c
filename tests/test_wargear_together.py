"""Bounds over items the unit's models carry together (issue 13 section 1,
:mod:`bagm.io.bsdata.together`): the catalogues' "all models must have the same weapon"
errors and a sergeant whose weapon follows the squad's, read as one of a set of items only
(``alike``); an error counting a category of items across the unit and an item's maximum
lowered by each of other items, read as at most N of them together (``max``); a choice's
group barred beside another group of the same choice of one, and a count of a weapon profile
(never a selection), which bind nothing more. Each is checked by the roster's wargear search
(BA197) and shown by ``bagm datasheet``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_bsdata import _bounds, _unit_xml, _weapon_xml, catalogue_of, read_test_catalogue
from test_wargear_beside import _cond
from test_wargear_bounds import CATALOG, sheet


def _item(ident: str, name: str, mods: str = "", lo: int | None = None, hi: int | None = 1,
          extra: str = "") -> str:
    """An item with its own bounds (and an extra constraint: ``extra``) and modifiers."""
    return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
            f"<constraints>{_bounds(ident, lo, hi)}{extra}</constraints>"
            + (f"<modifiers>{mods}</modifiers>" if mods else "")
            + f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")


def _error(text: str, *conds: str, inner: str = "") -> str:
    """An error while every condition holds (and, ``inner``: one of a nested "or" group)."""
    nested = (f'<conditionGroups><conditionGroup type="or"><conditions>{inner}</conditions>'
              "</conditionGroup></conditionGroups>") if inner else ""
    return (f'<modifier type="add" value="{text}" field="error"><conditionGroups>'
            f'<conditionGroup type="and"><conditions>{"".join(conds)}</conditions>{nested}'
            "</conditionGroup></conditionGroups></modifier>")


def _set(field: str, value: int, cond: str) -> str:
    return (f'<modifier type="set" value="{value}" field="{field}"><conditions>{cond}'
            "</conditions></modifier>")


def _group(ident: str, name: str, inner: str, lo: int, hi: int, default: str = "",
           groups: str = "", mods: str = "") -> str:
    dflt = f' defaultSelectionEntryId="{default}"' if default else ""
    return (f'<selectionEntryGroup name="{name}" hidden="false" id="{ident}"{dflt}>'
            f"<constraints>{_bounds(ident, lo, hi)}</constraints>"
            + (f"<modifiers>{mods}</modifiers>" if mods else "")
            + (f"<selectionEntries>{inner}</selectionEntries>" if inner else "")
            + (f"<selectionEntryGroups>{groups}</selectionEntryGroups>" if groups else "")
            + "</selectionEntryGroup>")


def _model(ident: str, name: str, lo: int, hi: int, inner: str = "", groups: str = "",
           profile: str = "Trooper") -> str:
    return (f'<selectionEntry type="model" name="{name}" hidden="false" id="{ident}">'
            f"<constraints>{_bounds(ident, lo, hi)}</constraints>"
            f"<profiles>{_unit_xml(ident, profile)}</profiles>"
            + (f"<selectionEntries>{inner}</selectionEntries>" if inner else "")
            + (f"<selectionEntryGroups>{groups}</selectionEntryGroups>" if groups else "")
            + "</selectionEntry>")


def _catalogue() -> str:
    """A Squad: Troopers (2-8) with an Axe or a Maul, an error on each while the unit has
    both; a Gunner (0-1) with a flamer (Special) or a cannon (Heavy), each group's maximum 0
    while the Gunner has the other, and a pistol whose maximum is 2 while he has 2 of its
    profile. A Led squad: a Sergeant (1) whose Axe or Maul has a minimum of 1 while the unit
    has the Troopers' of that name, Troopers (2-8) with an Axe or a Maul. A Mixed unit: a Trooper's Axe barred beside a Maul, a Hammer beside a
    Maul, the Axe beside the Hammer not: no set every two of which are barred together. A
    Pair: two Leaders (0-2) each following the Troopers' weapon (not one model: named)."""
    sq = "u-sq"
    follow = "".join(
        _item(f"g-s-{w}", name, _set(f"c-g-s-{w}-min", 1, _cond("atLeast", 1, sq, f"g-l-{w}")),
              lo=0) for w, name in (("axe", "Axe"), ("maul", "Maul")))
    sergeant = _model("m-sgt", "Sergeant", 1, 1, profile="Sergeant",
                      groups=_group("grp-sw", "Sergeant Weapon", follow, 1, 1, "g-s-axe"))
    both = (_cond("atLeast", 1, sq, "g-axe"), _cond("atLeast", 1, sq, "g-maul"))
    weapons = _item("g-axe", "Axe", _error("All the same", *both)) + \
        _item("g-maul", "Maul", _error("All the same", *both))
    troopers = _model("m-tr", "Trooper", 2, 8, groups=_group("grp-w", "Weapon", weapons, 1, 1,
                                                             "g-axe"))
    special = _group("grp-sp", "Special", _item("g-flamer", "Flamer"), 0, 1,
                     mods=_set("c-grp-sp-max", 0, _cond("atLeast", 1, "m-gun", "grp-hv")))
    heavy = _group("grp-hv", "Heavy", _item("g-cannon", "Cannon"), 0, 1,
                   mods=_set("c-grp-hv-max", 0, _cond("greaterThan", 0, "m-gun", "grp-sp")))
    pistol = _item("g-pistol", "Pistol", _set("c-g-pistol-max", 2,
                                              _cond("atLeast", 2, "parent", "p-g-pistol")),
                   lo=1)
    gunner = _model("m-gun", "Gunner", 0, 1, inner=pistol,
                    groups=_group("grp-gun", "Gun", "", 1, 1, groups=special + heavy))
    squad = ('<selectionEntry type="unit" name="Squad" hidden="false" id="u-sq">'
             f"<selectionEntries>{troopers}{gunner}</selectionEntries></selectionEntry>")
    plain = _item("g-l-axe", "Axe") + _item("g-l-maul", "Maul")
    led = ('<selectionEntry type="unit" name="Led" hidden="false" id="u-sq">'
           f"<selectionEntries>{sergeant}"
           + _model("m-l-tr", "Trooper", 2, 8, groups=_group("grp-l-w", "Weapon", plain, 1, 1,
                                                             "g-l-axe"))
           + "</selectionEntries></selectionEntry>")
    mx = "u-mx"
    mixed_weapons = (
        _item("g-x-axe", "Axe", _error("Not with a maul", _cond("atLeast", 1, mx, "g-x-axe"),
                                       _cond("atLeast", 1, mx, "g-x-maul")))
        + _item("g-x-maul", "Maul")
        + _item("g-x-hammer", "Hammer", _error("Not with a maul",
                                               _cond("atLeast", 1, mx, "g-x-hammer"),
                                               _cond("atLeast", 1, mx, "g-x-maul"))))
    mixed = ('<selectionEntry type="unit" name="Mixed" hidden="false" id="u-mx">'
             "<selectionEntries>"
             + _model("m-x", "Trooper", 5, 5, groups=_group("grp-x", "Weapon", mixed_weapons,
                                                            1, 1, "g-x-axe"))
             + "</selectionEntries></selectionEntry>")
    pr = "u-pr"
    pair_follow = "".join(
        _item(f"g-p-s-{w}", name, _set(f"c-g-p-s-{w}-min", 1,
                                       _cond("atLeast", 1, pr, f"g-p-{w}")), lo=0)
        for w, name in (("axe", "Axe"), ("maul", "Maul")))
    pair_weapons = _item("g-p-axe", "Axe") + _item("g-p-maul", "Maul")
    pair = ('<selectionEntry type="unit" name="Pair" hidden="false" id="u-pr">'
            "<selectionEntries>"
            + _model("m-p-l", "Leader", 0, 2, profile="Leader",
                     groups=_group("grp-p-s", "Leader Weapon", pair_follow, 1, 1, "g-p-s-axe"))
            + _model("m-p-t", "Trooper", 3, 5,
                     groups=_group("grp-p-w", "Weapon", pair_weapons, 1, 1, "g-p-axe"))
            + "</selectionEntries></selectionEntry>")
    return catalogue_of("cat-tg", "Imperium - Together Test", squad + led + mixed + pair)


@pytest.fixture
def units(tmp_path: Path) -> dict:
    return read_test_catalogue(tmp_path, "Imperium - Together Test", _catalogue())


def test_the_same_weapon_errors_and_a_sergeant_following_the_squad_are_one_of_a_set(
        units: dict) -> None:
    """The Troopers' errors (each item none beside the other) and the Sergeant's minima (he
    takes what the Troopers do, one item only) each say one of Axe / Maul in the unit.
    The Gunner's groups barred beside each other (his choice takes one anyway) and his
    pistol's maximum on a count of its profile (never a selection) bind nothing more."""
    squad = units["Squad"]
    assert squad["wargear_item_bounds"] == [{"items": ["Axe", "Maul"], "alike": True}]
    assert units["Led"]["wargear_item_bounds"] == [{"items": ["Axe", "Maul"], "alike": True}]
    assert "wargear_unread" not in squad and "wargear_unread" not in units["Led"]
    gunner = next(k for k in squad["wargear"] if k["model"] == "Gunner")
    assert gunner["gear"] == ["Pistol"]
    assert gunner["choices"] == [{"of": ["Flamer", "Cannon"], "min": 1}]


def test_a_set_not_every_two_of_whose_items_are_barred_together_is_named(units: dict) -> None:
    """Axe and Hammer are each barred beside a Maul, not beside each other: no one-of-a-set
    bound says that, so both errors are named (BA196), never passed silently."""
    mixed = units["Mixed"]
    assert "wargear_item_bounds" not in mixed
    assert mixed["wargear_unread"] == [
        "Trooper: Axe: error 'Not with a maul' while (Axe >= 1 and Maul >= 1)",
        "Trooper: Hammer: error 'Not with a maul' while (Hammer >= 1 and Maul >= 1)",
    ]


def test_a_weapon_following_the_squad_on_more_than_one_model_is_named(units: dict) -> None:
    """Two Leaders may each follow the Troopers and differ from each other where the
    Troopers carry neither item: not one of a set for the whole unit, so named."""
    pair = units["Pair"]
    assert "wargear_item_bounds" not in pair
    assert pair["wargear_unread"] == [
        "Leader: Axe: minimum set to 1 while Axe >= 1",
        "Leader: Maul: minimum set to 1 while Maul >= 1",
    ]


def _sheet(units: dict, name: str) -> Any:
    from bagm.data import models
    from bagm.data.schema import validate as validate_model

    return validate_model(models.Datasheet, dict(units[name], points={5: 50, 10: 100}))


@pytest.mark.parametrize("wanted, ok", [
    ({"maul": 5}, True),  # every model the same
    ({"maul": 4, "flamer": 1}, True),  # the Gunner carries neither
    ({"maul": 4}, False),  # the fifth keeps an axe (a Gunner would take a weapon not named)
    ({"axe": 5}, True),
    ({"maul": 4, "axe": 1}, False),  # a Trooper (or the Sergeant) differs
    ({"maul": 1}, False),  # one model alone: the others keep their axes
    ({"Sergeant": {"maul": 1}, "Trooper": {"maul": 4}}, "Led"),
    ({"Sergeant": {"maul": 1}, "Trooper": {"maul": 3}}, False),  # a Trooper keeps an axe
    ({"Trooper": {"maul": 4}}, False),  # the Sergeant keeps his
])
def test_one_of_a_set_is_checked(units: dict, wanted: dict, ok: bool | str) -> None:
    from bagm.roster.wargear import resolve

    unit = "Led" if "Sergeant" in wanted or ok == "Led" else "Squad"
    loadouts, problems = resolve(_sheet(units, unit), 5, wanted)
    if ok:
        assert problems == []
        carried = {i for lo in loadouts for i in lo.items}
        assert not {"Axe", "Maul"} <= carried
    else:
        assert [p.code for p in problems] == ["BA197"]
        assert "every model taking one of Axe / Maul takes the same" in problems[0].message
        assert problems[0].message.endswith("name one of them only")


def test_the_default_unit_keeps_one_of_the_set(units: dict) -> None:
    from bagm.roster.wargear import default_loadouts

    carried = [i for lo in default_loadouts(_sheet(units, "Led"), 10) for i in lo.items]
    assert "Axe" in carried and "Maul" not in carried


def test_a_set_is_shown_by_bagm_datasheet() -> None:
    from bagm.render.datasheet import item_bound_text

    ds = sheet("Leagues of Votann", "Brôkhyr Thunderkyn")
    assert [item_bound_text(b) for b in ds.wargear_item_bounds] == [
        "The same for every model taking one: Bolt cannon / Graviton blast cannon / "
        "SP conversion beamer"]


# --- the bundled packs --------------------------------------------------------------------------

@pytest.mark.parametrize("faction, unit, items", [
    ("Leagues of Votann", "Brôkhyr Thunderkyn",
     ["Bolt cannon", "Graviton blast cannon", "SP conversion beamer"]),
    ("Leagues of Votann", "Cthonian Beserks", ["Concussion maul", "Heavy plasma axe"]),
    ("Necrons", "Lychguard", ["Warscythe", "Hyperphase sword and dispersion shield"]),
    ("Adeptus Astartes", "Aggressor Squad",
     ["Auto Boltstorm Gauntlets & Fragstorm Grenade Launcher", "Flamestorm Gauntlets"]),
])
def test_the_bundled_same_weapon_units_take_one_of_their_set(faction: str, unit: str,
                                                            items: list[str]) -> None:
    from bagm.roster.wargear import resolve

    ds = sheet(faction, unit)
    assert [(b.items, b.alike) for b in ds.wargear_item_bounds] == [(items, True)]
    assert not ds.wargear_unread
    n = min(ds.points)
    other = next(i for i in items if i not in {c.default for k in ds.wargear for c in k.choices})
    assert resolve(ds, n, {other: n})[1] == []  # every model with the other item
    assert [p.code for p in resolve(ds, n, {other: 1})[1]] == ["BA197"]  # one model alone


def test_the_battle_sisters_groups_and_superiors_pistol_bind_nothing_more() -> None:
    """A Battle Sister w/ Special or Heavy Weapon takes one weapon of the two groups (each
    group's maximum 0 beside the other says as much); the Sister and Dominion Superior's bolt
    pistol is "up to 2 while she has 2 Bolt pistol profiles", which no roster counts."""
    from bagm.roster.wargear import resolve

    sisters = sheet("Adepta Sororitas", "Battle Sisters Squad")
    assert not sisters.wargear_unread and not sheet("Adepta Sororitas",
                                                    "Dominion Squad").wargear_unread
    assert resolve(sisters, 10, {"Multi-melta": 1})[1] == []
    assert resolve(sisters, 10, {"Multi-melta": 1, "Meltagun": 1})[1] == []
    assert resolve(sisters, 10, {"Multi-melta": 1, "Meltagun": 2})[1] != []  # one each
    assert resolve(sisters, 10, {"Multi-melta": 2})[1] != []


def test_a_lychguard_roster_is_checked_without_ba196(tmp_path: Path) -> None:
    from bagm.roster.model import load_roster
    from bagm.roster.validate import validate

    def findings(wargear: str) -> list[Any]:
        path = tmp_path / "r.yaml"
        path.write_text("faction: Necrons\ndetachment: Tomb Ship Complement\nunits:\n"
                        "  - unit: Overlord\n    warlord: true\n  - unit: Lychguard\n"
                        f"    models: 5\n    wargear:\n{wargear}", encoding="utf-8")
        return [f for f in validate(load_roster(path), CATALOG).findings
                if f.code.startswith("BA19")]

    assert findings("      Hyperphase sword and dispersion shield: 5\n") == []
    found = findings("      Hyperphase sword and dispersion shield: 3\n      Warscythe: 2\n")
    assert [f.code for f in found] == ["BA197"]
    assert "every model taking one of Warscythe / Hyperphase sword and dispersion shield " \
        "takes the same" in found[0].message


# --- at most N of a category's items (an error counting a category across the unit) -----------

def _cat_item(ident: str, name: str, category: str = "") -> str:
    """An item bearing ``category`` (none: no category)."""
    cats = (f'<categoryLinks><categoryLink targetId="{category}" id="cl-{ident}" '
            'name="Swap" primary="false"/></categoryLinks>') if category else ""
    return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
            f"<constraints>{_bounds(ident, None, 1)}</constraints>{cats}"
            f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")


def _company(unit: str, plain_pistol: bool = False) -> str:
    """Marines (2-10) with a pistol; an Alt (0-2) replacing his pistol (a Flamer or Plasma
    pistol, category "cat-pr") and his sword (a Fist, "cat-sw"), whose entry raises "Max 1
    pistol replacement" while the unit counts 2 or more of "cat-pr" and "Max 1 swap" while it
    counts more than 1 of "cat-sw"; an Evisc (0-2) replacing his pistol the same way (or, with
    ``plain_pistol``, with a Plasma pistol bearing no category)."""
    u = f"u-{unit[:3].lower()}"
    pistols = _cat_item(f"{u}-hp", "Heavy pistol") + _cat_item(f"{u}-fp", "Flamer pistol",
                                                               "cat-pr") \
        + _cat_item(f"{u}-pp", "Plasma pistol", "cat-pr")
    melee = _cat_item(f"{u}-sw", "Sword") + _cat_item(f"{u}-fi", "Fist", "cat-sw")
    errors = ('<modifiers><modifier type="add" value="Max 1 pistol replacement" field="error">'
              f"<conditions>{_cond('atLeast', 2, u, 'cat-pr')}</conditions></modifier>"
              '<modifier type="add" value="Max 1 swap" field="error">'
              f"<conditions>{_cond('greaterThan', 1, u, 'cat-sw')}</conditions></modifier>"
              "</modifiers>")
    alt = (f'<selectionEntry type="model" name="Alt" hidden="false" id="{u}-alt">'
           f"<constraints>{_bounds(u + '-alt', 0, 2)}</constraints>{errors}"
           f"<profiles>{_unit_xml(u + '-alt', 'Marine')}</profiles><selectionEntryGroups>"
           + _group(f"{u}-gp", "Pistol", pistols, 1, 1, f"{u}-hp")
           + _group(f"{u}-gm", "Melee", melee, 1, 1, f"{u}-sw")
           + "</selectionEntryGroups></selectionEntry>")
    evisc_pistols = _cat_item(f"{u}-ehp", "Heavy pistol") + (
        _cat_item(f"{u}-epp", "Plasma pistol") if plain_pistol else
        _cat_item(f"{u}-efp", "Flamer pistol", "cat-pr")
        + _cat_item(f"{u}-epp", "Plasma pistol", "cat-pr"))
    evisc = _model(f"{u}-ev", "Evisc", 0, 2, inner=_item(f"{u}-evi", "Eviscerator", lo=1),
                   groups=_group(f"{u}-egp", "Pistol", evisc_pistols, 1, 1, f"{u}-ehp"),
                   profile="Marine")
    marines = _model(f"{u}-m", "Marine", 2, 10, inner=_item(f"{u}-mhp", "Heavy pistol", lo=1),
                     profile="Marine")
    return (f'<selectionEntry type="unit" name="{unit}" hidden="false" id="{u}">'
            f"<selectionEntries>{marines}{alt}{evisc}</selectionEntries></selectionEntry>")


@pytest.fixture
def company(tmp_path: Path) -> dict:
    text = catalogue_of("cat-co", "Imperium - Company Test",
                        _company("Company") + _company("Mixed", plain_pistol=True))
    return read_test_catalogue(tmp_path, "Imperium - Company Test", text)


def test_an_error_counting_a_category_is_a_bound_over_its_items(company: dict) -> None:
    """At most 1 of the category's items in the unit, while it has an Alt (the error is
    raised on his entry); where another entry of a counted name lacks the category (the
    Mixed unit's Evisc's plasma pistol), counting by name would count it too: named."""
    assert company["Company"]["wargear_item_bounds"] == [
        {"items": ["Flamer pistol", "Plasma pistol"], "max": 1, "beside": ["Alt"]},
        {"items": ["Fist"], "max": 1, "beside": ["Alt"]}]
    assert "wargear_unread" not in company["Company"]
    assert company["Mixed"]["wargear_item_bounds"] == [
        {"items": ["Fist"], "max": 1, "beside": ["Alt"]}]
    assert company["Mixed"]["wargear_unread"] == [
        "Alt: error 'Max 1 pistol replacement' while cat-pr >= 2"]  # no category entry: its id


@pytest.mark.parametrize("wanted, ok", [
    ({"plasma pistol": 1}, True),
    ({"plasma pistol": 1, "fist": 1}, True),  # one of each category
    ({"plasma pistol": 1, "flamer pistol": 1, "fist": 1}, False),  # 2 beside an Alt
    ({"eviscerator": 1, "plasma pistol": 2}, False),  # the Alt's and the Evisc's
    ({"plasma pistol": 1, "flamer pistol": 1}, True),  # two Eviscs, no Alt: no error
])
def test_a_bound_over_a_categorys_items_is_checked(company: dict, wanted: dict,
                                                   ok: bool) -> None:
    from bagm.roster.wargear import resolve

    loadouts, problems = resolve(_sheet(company, "Company"), 5, wanted)
    if ok:
        assert problems == []
        assert sum(lo.count for lo in loadouts if "Plasma pistol" in lo.items) == \
            wanted["plasma pistol"]
    else:
        assert [p.code for p in problems] == ["BA197"]
        assert "at most 1 of Flamer pistol / Plasma pistol in the unit together while it " \
            "has a Alt" in problems[0].message
        assert problems[0].message.endswith("name fewer of them, or what the models take "
                                            "instead")


def test_a_bound_over_a_categorys_items_is_shown_by_bagm_datasheet(company: dict) -> None:
    from bagm.render.datasheet import item_bound_text

    ds = _sheet(company, "Company")
    assert item_bound_text(ds.wargear_item_bounds[1]) == \
        "Together in the unit (up to 1; while it has a Alt): Fist"


# --- an item's maximum across the unit lowered by each of other items (a repeat each) ----------

def _pooled(ident: str, name: str, most: int, more: int, lowered_by: list[str]) -> str:
    """An item up to ``most`` in the unit (``more`` more from 10 models), 1 fewer for each
    of the items ``lowered_by`` (a repeat each)."""
    field = f"c-{ident}-unit"
    grow = (f'<modifier type="increment" value="{more}" field="{field}"><conditions>'
            + _cond("atLeast", 10, "unit", "model") + "</conditions></modifier>")
    repeats = "".join(f'<repeat value="1" repeats="1" field="selections" scope="unit" '
                      f'childId="{o}" shared="true" roundUp="false" '
                      'includeChildSelections="true"/>' for o in lowered_by)
    lower = (f'<modifier type="decrement" value="1" field="{field}"><repeats>{repeats}'
             "</repeats></modifier>") if lowered_by else ""
    return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
            f"<constraints>{_bounds(ident, None, 1)}"
            f'<constraint field="selections" scope="unit" value="{most}" type="max" '
            f'id="{field}" includeChildSelections="true"/></constraints>'
            f"<modifiers>{grow}{lower}</modifiers>"
            f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")


def _jumpers(unit: str, flamer_bound: bool = True) -> str:
    """Marines (2-10); Alts (0-7) replacing a heavy pistol with a plasma pistol (2 in the
    unit, 4 from 10 models, 1 fewer for each flamer or inferno pistol), a flamer (1, 2 from
    10, 1 fewer for each inferno pistol) or an inferno pistol (the same, 1 fewer for each
    flamer); ``flamer_bound`` False: the flamer has no bound of its own."""
    u = f"u-{unit[:3].lower()}"
    pistols = _item(f"{u}-hp", "Heavy pistol") \
        + _pooled(f"{u}-pp", "Plasma pistol", 2, 2, [f"{u}-fl", f"{u}-in"]) \
        + (_pooled(f"{u}-fl", "Flamer", 1, 1, [f"{u}-in"]) if flamer_bound
           else _item(f"{u}-fl", "Flamer")) \
        + _pooled(f"{u}-in", "Inferno pistol", 1, 1, [f"{u}-fl"])
    alt = _model(f"{u}-alt", "Alt", 0, 7, profile="Marine",
                 groups=_group(f"{u}-gp", "Pistol", pistols, 1, 1, f"{u}-hp"))
    marines = _model(f"{u}-m", "Marine", 2, 10, inner=_item(f"{u}-mhp", "Heavy pistol", lo=1),
                     profile="Marine")
    return (f'<selectionEntry type="unit" name="{unit}" hidden="false" id="{u}">'
            f"<selectionEntries>{marines}{alt}</selectionEntries></selectionEntry>")


@pytest.fixture
def jumpers(tmp_path: Path) -> dict:
    text = catalogue_of("cat-ju", "Imperium - Jumpers Test",
                        _jumpers("Jumpers") + _jumpers("Lone", flamer_bound=False))
    return read_test_catalogue(tmp_path, "Imperium - Jumpers Test", text)


def test_a_maximum_lowered_by_each_of_other_items_is_a_bound_over_them(jumpers: dict) -> None:
    """Plasma pistols, flamers and inferno pistols up to 2 together (4 from 10 models);
    flamers and inferno pistols up to 1 together (2 from 10). Each item's maximum across the
    unit by its size alone is read as its own bound (bagm.io.bsdata.unit_bounds). Where the
    flamer has no bound of its own, the plasma pistol's and the inferno pistol's lowering
    binds only while the unit has one of them (2 flamers and no inferno pistol are
    allowed): named, their maxima by size read."""
    single = [{"items": ["Plasma pistol"], "max": 2, "max_from": {10: 4}},
              {"items": ["Flamer"], "max": 1, "max_from": {10: 2}},
              {"items": ["Inferno pistol"], "max": 1, "max_from": {10: 2}}]
    assert jumpers["Jumpers"]["wargear_item_bounds"] == [
        {"items": ["Plasma pistol", "Flamer", "Inferno pistol"], "max": 2, "max_from": {10: 4}},
        {"items": ["Flamer", "Inferno pistol"], "max": 1, "max_from": {10: 2}}, *single]
    assert "wargear_unread" not in jumpers["Jumpers"]
    assert jumpers["Lone"]["wargear_item_bounds"] == [single[0], single[2]]
    assert [w for w in jumpers["Lone"]["wargear_unread"] if "lowered" in w] == [
        "Alt: Plasma pistol: maximum lowered by 1 (repeated)",
        "Alt: Inferno pistol: maximum lowered by 1 (repeated)"]


@pytest.mark.parametrize("n, wanted, ok", [
    (5, {"plasma pistol": 2}, True),
    (5, {"plasma pistol": 1, "flamer": 1}, True),
    (5, {"plasma pistol": 2, "flamer": 1}, False),
    (5, {"flamer": 1, "inferno pistol": 1}, False),
    (10, {"plasma pistol": 2, "flamer": 1, "inferno pistol": 1}, True),
    (10, {"plasma pistol": 3, "flamer": 1, "inferno pistol": 1}, False),
    (10, {"plasma pistol": 4}, True),
])
def test_a_bound_over_items_together_is_checked(jumpers: dict, n: int, wanted: dict,
                                                ok: bool) -> None:
    from bagm.roster.wargear import resolve

    problems = resolve(_sheet(jumpers, "Jumpers"), n, wanted)[1]
    assert (problems == []) == ok
    if not ok:
        assert [p.code for p in problems] == ["BA197"]
        assert "in the unit together (the catalogues' error otherwise)" in problems[0].message


@pytest.mark.parametrize("unit, n, wanted, ok", [
    # one pistol and one melee swap in the squad, while it has a Marine w/ alternate weapons
    ("Death Company Marines", 5, {"plasma pistol": 1, "power fist": 1}, True),
    ("Death Company Marines", 5, {"plasma pistol": 1, "hand flamer": 1}, False),
    ("Death Company Marines", 5, {"power fist": 1, "thunder hammer": 1}, False),
    # plasma pistols, hand flamers and inferno pistols together; power weapons and fists
    ("Death Company Marines with Jump Packs", 5, {"plasma pistol": 2}, True),
    ("Death Company Marines with Jump Packs", 5, {"plasma pistol": 1, "hand flamer": 1}, True),
    ("Death Company Marines with Jump Packs", 5, {"plasma pistol": 2, "hand flamer": 1}, False),
    ("Death Company Marines with Jump Packs", 5, {"hand flamer": 1, "inferno pistol": 1},
     False),
    ("Death Company Marines with Jump Packs", 10,
     {"plasma pistol": 2, "hand flamer": 1, "inferno pistol": 1, "astartes chainsword": 10},
     True),
    ("Death Company Marines with Jump Packs", 10, {"power fist": 2, "power weapon": 1}, True),
    ("Death Company Marines with Jump Packs", 10, {"power fist": 2, "power weapon": 2}, False),
    # 4 plasma pistols bring 4 power weapons (a required choice's first item) unless the
    # roster names what they take
    ("Death Company Marines with Jump Packs", 10, {"plasma pistol": 4}, False),
    ("Death Company Marines with Jump Packs", 10,
     {"plasma pistol": 4, "astartes chainsword": 10}, True),
])
def test_the_bundled_death_company_bounds_are_checked(unit: str, n: int, wanted: dict,
                                                      ok: bool) -> None:
    from bagm.roster.wargear import resolve

    ds = sheet("Adeptus Astartes", unit)
    problems = resolve(ds, n, wanted)[1]
    assert (problems == []) == ok, problems
    if not ok:
        assert [p.code for p in problems] == ["BA197"]
        assert "in the unit together" in problems[0].message
