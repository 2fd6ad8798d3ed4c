"""Bounds of an item or a kind of model that the catalogues change by another of the roster's
choices (issue 13 section 1): a modifier of its minimum or maximum, or an error the catalogues
raise, whose conditions count another entry of the roster. Read where the form is simple (a
kind none beside another: ``unit_unless``; a kind's maximum lowered by each model of others:
a bound over them together, ``wargear_groups``, unless the unit's size already says as much;
a kind's minimum 1 lower beside another kind of its profile; an item's minimum beside a kind
its choice's other items are barred beside; items the unit's models carry together:
``wargear_item_bounds``, tests/test_wargear_together.py), named in ``wargear_unread``
otherwise (BA196),
never passed silently. Conditions settled in every Boarding Actions roster (a Crusade entry,
the army's Detachment or force, the unit's size alone, a count of one of its bundles of models)
are no such bound; a bound changed by the unit's size alone that no form reads (an item's own
maximum in the model beside the other items of its choice) is named too. An item's bound
across the unit by its size is read (``wargear_item_bounds``: test_wargear_item_bounds)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_bsdata import catalogue_of, read_test_catalogue
from test_wargear_beside import _cond
from test_wargear_bounds import CATALOG, sheet

# ../shared/reference beside the checkout (a worktree sits a level deeper)
BSDATA = next((p / "shared" / "reference" / "bsdata-wh40k-10e" for p in Path(__file__).parents[2:4]
               if (p / "shared" / "reference" / "bsdata-wh40k-10e").is_dir()),
              Path(__file__).parents[2] / "shared" / "reference" / "bsdata-wh40k-10e")


# --- the bundled packs: what is named, exactly, and what is read ------------------------------

NAMED: list[tuple[str, str]] = []


def test_the_bundled_datasheets_bounds_named_as_not_read_are_these() -> None:
    """No bound of a bundled datasheet is named: a roster naming one of these units' wargear gets
    BA196 saying which (the bundled rosters keep their default wargear there: none gets it).
    The 48 an item's bound across the unit by its size made (Chosen, Chaos Terminators,
    Deathwatch Veterans' shields, ...) and 2 errors on a count and the unit's size
    (Blightlord Terminators' combi-weapons, Acolyte Hybrids' demolition charges) are read
    (test_wargear_item_bounds); the Chosen Champion's boltgun beside his power fist and the
    Death Company Marines' swaps (with Bolt Rifles, with Jump Packs) are read
    (test_wargear_bounds_within)."""
    got = [(ds.name, w) for f in CATALOG.all() for ds in f.pack.units
           for w in ds.wargear_unread]
    assert sorted(got) == sorted(NAMED)
    assert len(NAMED) == 0


def test_the_bundled_datasheets_bounds_read_from_these_forms_are_these() -> None:
    """Read: the Yaegirs' "all models with the same weapon" error (each kind none beside the
    other), and two kinds' maxima lowered by each model of another kind (Crusaders: a power
    fist or a pyreblaster, up to 2 of the two, 4 from 20 models; Wolf Guard Terminators)."""
    yaegirs = {k.model: k.unit_unless for k in sheet("Leagues of Votann",
                                                      "Hernkyn Yaegirs").wargear}
    assert yaegirs["Hernkyn Yaegir w/ bolt shotgun"] == ["Hernkyn Yaegir w/ revolver and knife"]
    assert yaegirs["Hernkyn Yaegir w/ revolver and knife"] == ["Hernkyn Yaegir w/ bolt shotgun"]
    crusaders = sheet("Adeptus Astartes", "Crusader Squad").wargear_groups
    assert (["Initiate w/Power Fist & Heavy Bolt Pistol", "Initiate w/Pyreblaster"], 2,
            {20: 4}) in [(g.models, g.max, g.max_from) for g in crusaders]
    wolves = sheet("Adeptus Astartes", "Wolf Guard Terminators").wargear_groups
    assert sorted((g.models, g.max) for g in wolves) == [
        (["Wolf Guard Terminator w/ storm bolter", "Wolf Guard Terminator w/ Assault Cannon"], 9),
        (["Wolf Guard Terminator w/ storm shield", "Wolf Guard Terminator w/ Assault Cannon"], 9)]


def test_a_crusader_squad_takes_up_to_2_of_the_two_together() -> None:
    from bagm.roster.wargear import resolve

    ds = sheet("Adeptus Astartes", "Crusader Squad")
    n = min(ds.points)
    fist, pyre = "Initiate w/Power Fist & Heavy Bolt Pistol", "Initiate w/Pyreblaster"
    ok = [k for k in ds.wargear if k.model in (fist, pyre)]
    assert len(ok) == 2
    assert resolve(ds, n, {"pyreblaster": 1, "power fist": 1})[1] == []
    assert resolve(ds, n, {"pyreblaster": 2, "power fist": 1})[1] != []


# --- the importer's forms, on a catalogue of their own -----------------------------------------

def _mod(kind: str, value: Any, field: str, *conds: str, repeat: str = "",
         group: str | None = None) -> str:
    inner = "".join(conds)
    if group:
        body = (f'<conditionGroups><conditionGroup type="{group}"><conditions>{inner}'
                "</conditions></conditionGroup></conditionGroups>")
    else:
        body = f"<conditions>{inner}</conditions>" if inner else ""
    rep = (f'<repeats><repeat value="1" repeats="1" field="selections" scope="u-sq" '
           f'childId="{repeat}" shared="true" roundUp="false"/></repeats>') if repeat else ""
    return f'<modifier type="{kind}" value="{value}" field="{field}">{body}{rep}</modifier>'


def _catalogue() -> str:
    """A squad of 10 at most: a Boss whose choice of a Sword or an Axe has an Axe up to 2
    while the unit has a Gunner (another choice: named) and up to 3 in a unit of 10 (its size
    alone: named too), and a Rod whose maximum is 0 while the roster has a Detachment entry
    (the army's: not this) or a Crusade upgrade (never in Boarding Actions: not this);
    Troopers (4-8) 1 fewer at least beside a Gunner (their profile's) and 1 fewer at most for
    each Gunner (the unit's size says as much); Gunners (0-2) and Flamers (0-2), which raise
    an error beside each other; Lancers (0-2), 1 fewer for each Flamer (a bound over the two);
    an Odd model (0-1) with an error while the unit has a Gunner and a Lancer (not read)."""
    from test_bsdata import GST, _bounds, _group, _unit_xml, _weapon_xml  # noqa: F401

    def item(ident: str, name: str, mods: str = "", lo: int | None = None,
             hi: int | None = 1) -> str:
        return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, hi)}</constraints>"
                + (f"<modifiers>{mods}</modifiers>" if mods else "")
                + f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")

    def model(ident: str, name: str, inner: str, lo: int, hi: int, mods: str = "",
              groups: str = "", profile: str = "Trooper") -> str:
        return (f'<selectionEntry type="model" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, hi)}</constraints>"
                + (f"<modifiers>{mods}</modifiers>" if mods else "")
                + f"<profiles>{_unit_xml(ident, profile)}</profiles>"
                f"<selectionEntries>{inner}</selectionEntries>"
                + (f"<selectionEntryGroups>{groups}</selectionEntryGroups>" if groups else "")
                + "</selectionEntry>")

    axe = item("g-axe", "Axe", _mod("set", 2, "c-g-axe-max", _cond("atLeast", 1, "u-sq",
                                                                      "m-gunner"))
               + _mod("set", 3, "c-g-axe-max", _cond("atLeast", 10, "u-sq", "model")))
    melee = _group("grp-melee", "Melee", item("g-sword", "Sword") + axe, 1, 1,
                   default="g-sword")
    rod = item("g-rod", "Rod", _mod("set", 0, "c-g-rod-max",
                                    _cond("atLeast", 1, "roster", "det-1"))
               + _mod("set", 0, "c-g-rod-max", _cond("atLeast", 1, "u-sq", "g-honour")))
    honours = _group("grp-crusade", "Crusade Battle Honours", item("g-honour", "Honour"),
                     None, 1)
    boss = model("m-boss", "Boss", rod, 1, 1, groups=melee + honours, profile="Boss")
    troopers = model("m-trooper", "Trooper", item("g-knife", "Knife", lo=1), 4, 8,
                     _mod("decrement", 1, "c-m-trooper-min",
                          _cond("atLeast", 1, "u-sq", "m-gunner"))
                     + _mod("decrement", 1, "c-m-trooper-max", repeat="m-gunner"))
    gunner = model("m-gunner", "Gunner", item("g-gun", "Gun", lo=1), 0, 2,
                   _mod("add", "Not beside flamers", "error",
                        _cond("atLeast", 1, "u-sq", "m-gunner"),
                        _cond("atLeast", 1, "u-sq", "m-flamer"), group="and"))
    flamer = model("m-flamer", "Flamer", item("g-flamer", "Flamer gun", lo=1), 0, 2,
                   _mod("add", "Not beside gunners", "error",
                        _cond("atLeast", 1, "u-sq", "m-flamer"),
                        _cond("atLeast", 1, "u-sq", "m-gunner"), group="and"),
                   profile="Flamer")
    lancer = model("m-lancer", "Lancer", item("g-lance", "Lance", lo=1), 0, 2,
                   _mod("decrement", 1, "c-m-lancer-max", repeat="m-flamer"),
                   profile="Lancer")
    odd = model("m-odd", "Odd", item("g-odd", "Odd gun", lo=1), 0, 1,
                _mod("add", "Odd", "error", _cond("atLeast", 1, "u-sq", "m-gunner"),
                     _cond("atLeast", 1, "u-sq", "m-lancer"), group="and"), profile="Odd")
    unit = ('<selectionEntry type="unit" name="Squad" hidden="false" id="u-sq">'
            f"<selectionEntries>{boss}{troopers}{gunner}{flamer}{lancer}{odd}"
            "</selectionEntries></selectionEntry>")
    return catalogue_of("cat-sq", "Imperium - Squad Test", unit)


@pytest.fixture
def squad(tmp_path: Path) -> dict:
    return read_test_catalogue(tmp_path, "Imperium - Squad Test", _catalogue())["Squad"]


def test_kinds_with_an_error_beside_each_other_are_read(squad: dict) -> None:
    kinds = {k["model"]: k for k in squad["wargear"]}
    assert kinds["Gunner"]["unit_unless"] == ["Flamer"]
    assert kinds["Flamer"]["unit_unless"] == ["Gunner"]
    assert "unit_unless" not in kinds["Lancer"]


def test_a_maximum_lowered_by_each_model_of_another_kind_is_a_bound_over_both(
        squad: dict) -> None:
    """The Lancers' (2 less each Flamer): Lancers and Flamers up to 2 together; the
    Troopers' (8 less each Gunner): Troopers and Gunners up to 8 (the unit's models, 14 at
    most by its profiles, do not say it)."""
    assert squad["wargear_groups"] == [{"models": ["Trooper", "Gunner"], "min": 0, "max": 8},
                                       {"models": ["Lancer", "Flamer"], "min": 0, "max": 2}]


def test_what_is_not_read_is_named_and_what_cannot_bind_is_not(squad: dict) -> None:
    """Named: the Axe's maximum by a Gunner and by the unit's size alone (an item of a choice
    of two: no form holds it), the Odd model's error beside a Gunner and a Lancer. Not named:
    the Rod's by a Detachment (the army's)
    or a Crusade honour (never in Boarding Actions), the Troopers' minimum beside a Gunner
    (their profile's)."""
    assert squad["wargear_unread"] == [
        "Boss: Axe: maximum set to 2 while Gunner >= 1",
        "Boss: Axe: maximum set to 3 while models >= 10",
        "Odd: error 'Odd' while (Gunner >= 1 and Lancer >= 1)",
    ]


def test_the_read_bounds_are_checked(squad: dict) -> None:
    from bagm.data import models
    from bagm.data.schema import validate as validate_model
    from bagm.roster.wargear import resolve

    ds = validate_model(models.Datasheet, dict(squad, points={5: 50, 10: 100}))
    assert resolve(ds, 5, {"gun": 2})[1] == []
    assert resolve(ds, 10, {"flamer gun": 2})[1] == []
    assert resolve(ds, 10, {"gun": 1, "flamer gun": 1})[1][0].code == "BA197"
    assert resolve(ds, 10, {"lance": 1, "flamer gun": 1})[1] == []
    assert resolve(ds, 10, {"lance": 2, "flamer gun": 1})[1] != []


# --- every real catalogue -----------------------------------------------------------------------

@pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/reference is absent")
def test_every_catalogue_bound_by_another_choice_is_read_or_named() -> None:
    """Over every datasheet of every catalogue (1,391), outside Crusade and Legends: the
    bounds named, 37 on 18 datasheets (the bundled ones as NAMED says). An item's bound
    across the unit by its size is read (with the bounds over items carried together and the
    Inquisitorial Agents' Tome-skull by their Acolytes: 101 on 49 datasheets), and an error
    on a count and the unit's size, passed silently before, is read or named."""
    from bagm.io.bsdata import read_catalogues

    units = read_catalogues(sorted(BSDATA.glob("*.cat")))
    assert len(units) > 1000
    named = {name: u["wargear_unread"] for name, u in units.items()
             if u.get("wargear_unread") and "[Crucible]" not in name
             and "[Legends]" not in name}
    # the bundled packs name two of them otherwise than the catalogues
    alias = {"Sword Brethren": "Sword Brethren Squad"}
    bundled = {alias.get(n, n).casefold() for n, _ in NAMED}
    assert bundled <= {n.casefold() for n in named}
    bounds = {n: [w for w in v if re.search(r": (maximum|minimum|error) ", w)]
              for n, v in named.items()}
    assert sum(len(v) for v in bounds.values()) == 37
    assert len([n for n, v in bounds.items() if v]) == 18
    # read: bounds over items carried together, an item's across the unit by its size among
    # them (test_wargear_item_bounds)
    across = {n: u["wargear_item_bounds"] for n, u in units.items()
              if u.get("wargear_item_bounds") and "[Crucible]" not in n
              and "[Legends]" not in n}
    assert (sum(len(v) for v in across.values()), len(across)) == (101, 49)
