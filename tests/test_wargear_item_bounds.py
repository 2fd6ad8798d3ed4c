"""An item's bound across its unit (issue 13 section 1): the catalogues' ``max`` constraint on
an item counted in the whole unit, set, raised or lowered by the unit's number of models, read
into ``wargear_item_bounds`` and enforced by the wargear search whichever kinds of model carry
the item (BA197 says the bound, as for the items the unit's models carry together,
test_wargear_together). Each form at its edges, on the bundled datasheets and on a
catalogue of its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_bsdata import _bounds, _group, _unit_xml, _weapon_xml, catalogue_of, read_test_catalogue
from test_wargear_beside import _cond
from test_wargear_bounds import check, sheet, wargear_findings

from bagm.data.names import norm
from bagm.roster.points import legal_sizes
from bagm.roster.wargear import default_loadouts, resolve


def carriers(loadouts: list[Any], item: str) -> int:
    return sum(lo.count for lo in loadouts if norm(item) in {norm(i) for i in lo.items})


# --- the bundled datasheets ---------------------------------------------------------------------

# (faction, unit, item, {size: the most models carrying it}); the catalogue's form in a comment
EDGES = [
    # set to 4 while models >= 10 (Chosen's plasma pistols: 5 kinds and the champion carry one)
    ("Heretic Astartes", "Chosen", "Plasma pistol", {5: 2, 10: 4}),
    ("Heretic Astartes", "Chosen", "Power fist", {5: 1, 10: 2}),
    # set to 1 (or 3) while models < 10
    ("Heretic Astartes", "Chaos Terminator Squad", "Chainfist", {5: 1, 10: 2}),
    ("Heretic Astartes", "Chaos Terminator Squad", "Power fist", {5: 3, 10: 6}),
    # raised by 2 while models >= 10
    ("Adeptus Astartes", "Deathwatch Veterans", "Astartes shield", {5: 2, 10: 4}),
    # raised by 1 while the group of every model has >= 5, and again >= 10 (counted without
    # child selections)
    ("Adeptus Astartes", "Sword Brethren", "Thunder Hammer", {5: 1, 10: 2}),
    # raised by 1 while the unit's only kind of model has >= 6
    ("Adeptus Astartes", "Sanguinary Guard", "Inferno Pistol", {3: 1, 6: 2}),
    # raised by 2 for every 5 models (a repeat)
    ("Genestealer Cults", "Acolyte Hybrids with Hand Flamers", "Demolition charge", {5: 2, 10: 4}),
    ("Genestealer Cults", "Acolyte Hybrids with Autopistols", "Heavy mining tool", {5: 3, 10: 6}),
    ("Genestealer Cults", "Neophyte Hybrids", "Mining laser", {10: 1}),
    ("Aeldari", "Troupe", "Fusion Pistol", {5: 2, 6: 2, 11: 4}),
    ("T'au Empire", "Kroot Carnivores", "Tanglebomb launcher", {10: 1}),
    ("Tyranids", "Tyranid Warriors with Ranged Bio-weapons", "Venom cannon", {3: 1, 6: 2}),
    # read beside the modifiers by another choice that lower it (named: BA196)
    ("Adeptus Astartes", "Death Company Marines with Jump Packs", "Eviscerator", {5: 1, 10: 2}),
    # errors on a count and the size: an item across the unit (the champion's choice too)
    ("Death Guard", "Blightlord Terminators", "Combi-weapon", {5: 3, 10: 6}),
    ("Drukhari", "Wracks", "Hexrifle", {5: 1, 10: 2}),
    ("Aeldari", "Dire Avengers", "Aspect Shrine Token", {5: 1}),  # the unit's own item
    # ... a kind of model (what it carries: its item), "equal to" its own maximum among them
    ("Death Guard", "Blightlord Terminators", "Flail of corruption", {5: 1, 10: 2}),
    ("Adeptus Astartes", "Deathwatch Veterans", "Deathwatch thunder hammer", {5: 2, 10: 4}),
    ("Leagues of Votann", "Cthonian Beserks", "Mole grenade launcher", {5: 1, 10: 2}),
]


def test_an_error_on_a_group_of_kinds_is_its_bound() -> None:
    """Plague Marines' special weapons (a group of three kinds): "Max 1 per 5 models" below
    10 models, merged with the group's own maximum of 2."""
    ds = sheet("Death Guard", "Plague Marines")
    assert [(g.max, g.max_from) for g in ds.wargear_groups] == [(1, {10: 2})]


@pytest.mark.parametrize("faction, unit, item, most", EDGES)
def test_an_items_bound_across_the_unit_is_kept_at_its_edge(faction: str, unit: str, item: str,
                                                            most: dict[int, int]) -> None:
    """At each size: as many models carrying the item as the bound allows are accepted,
    whichever kinds they are, and one more is BA197 saying the bound (BA191 where a kind's
    own bound is as tight); exactly at the size it changes at."""
    ds = sheet(faction, unit)
    assert not any(re.search(rf": {item}: maximum (set to|raised by) \d+ while models", w)
                   for w in ds.wargear_unread)
    for n, hi in most.items():
        loadouts, problems = resolve(ds, n, {item: hi})
        assert problems == [] and carriers(loadouts, item) == hi, (n, problems)
        if hi < n:
            _, problems = resolve(ds, n, {item: hi + 1})
            assert [p.code for p in problems] in (["BA197"], ["BA191"]), (n, problems)
            # said as the item's bound, or a kind's where that is as tight (6 of 10 Acolyte
            # Hybrids with heavy mining tools)
            assert f"at most {hi} " in problems[0].message and item in problems[0].message


def test_every_bundled_items_bound_refuses_one_more() -> None:
    """Over all bundled units (85 bounds on 38 datasheets, those over items carried together,
    the Inquisitorial Agents' Tome-skull by their Acolytes and a pool of models among them), at
    each legal size: one model
    more carrying the item than the bound (or the default unit) allows is refused (BA197, or
    BA191 where a kind's own bound is as tight)."""
    from bagm.data.packs import Catalog

    bounded = [ds for f in Catalog().all() for ds in f.pack.units if ds.wargear_item_bounds]
    assert (sum(len(ds.wargear_item_bounds) for ds in bounded), len(bounded)) == (85, 38)
    checked = 0
    for f in Catalog().all():
        for ds in f.pack.units:
            for b in ds.wargear_item_bounds:
                if b.alike or len(b.items) != 1:
                    continue  # items carried together: test_wargear_together
                if b.max_from_kinds:
                    continue  # by some kinds' models: test_wargear_counted
                for n in legal_sizes(ds.points, ds.sizes, None):
                    plain = carriers(default_loadouts(ds, n), b.items[0])
                    hi = max(b.most(n) or 0, plain)
                    if hi + 1 > n:
                        continue
                    _, problems = resolve(ds, n, {b.items[0]: hi + 1})
                    assert [p.code for p in problems] in (["BA197"], ["BA191"]), \
                        (ds.name, n, b, problems)
                    checked += 1
    assert checked >= 60


CHAOS_TERMINATORS = """faction: Heretic Astartes
detachment: Champions of Chaos
units:
  - unit: Chaos Lord in Terminator Armour
    warlord: true
  - unit: Chaos Terminator Squad
    models: 5
    wargear:
      Terminator Champion: {{}}
      chainfist: {k}
"""


def test_two_chainfists_in_five_chaos_terminators_are_refused_at_their_line(
        tmp_path: Path) -> None:
    r = check(tmp_path, CHAOS_TERMINATORS.format(k=1))
    assert r.valid and wargear_findings(r) == [], r.findings
    r = check(tmp_path, CHAOS_TERMINATORS.format(k=2))
    assert not r.valid and wargear_findings(r) == [("BA197", 10)], r.findings


def test_the_datasheet_shows_the_bound_as_read(tmp_path: Path) -> None:
    """`bagm datasheet` lists the bounds across the unit as read, not among those to check by
    hand (it called them bounds changed by other choices)."""
    from typer.testing import CliRunner

    from bagm.cli.app import app

    out = CliRunner().invoke(app, ["datasheet", "Chosen", "--faction", "Heretic Astartes"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "Together in the unit (up to 2; up to 4 from 10 models): Plasma pistol" in text
    assert "other choices" not in text
    # none left to check by hand: the champion's boltgun beside a power fist is read
    assert "Bounds not read" not in text
    assert "Boltgun / Combi-weapon (Combi-weapon only without Power fist)" in text
    out = CliRunner().invoke(app, ["datasheet", "Chosen", "--faction", "Heretic Astartes",
                                   "--format", "json"])
    import json

    data = json.loads(out.output)
    assert {"items": ["Power fist"], "max": 1, "max_from": {"10": 2}, "alike": False}.items() \
        <= next(b for b in data["wargear_item_bounds"] if b["items"] == ["Power fist"]).items()


# --- the reader's forms, on a catalogue of its own ----------------------------------------------

def _mod(kind: str, value: int, field: str, cond: str = "", repeat: str = "") -> str:
    body = f"<conditions>{cond}</conditions>" if cond else ""
    rep = (f'<repeats><repeat value="{repeat}" repeats="1" field="selections" scope="unit" '
           'childId="model" shared="true" roundUp="false" includeChildSelections="true"/>'
           "</repeats>") if repeat else ""
    return f'<modifier type="{kind}" value="{value}" field="{field}">{body}{rep}</modifier>'


def _item(ident: str, name: str, scope: str, hi: int, mods: str = "") -> str:
    """An item of a choice: one per model, at most ``hi`` in ``scope`` (the unit: counting
    child selections)."""
    unit = (f'<constraint field="selections" scope="{scope}" value="{hi}" type="max" '
            f'shared="true" includeChildSelections="true" id="c-{ident}-unit"/>')
    return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
            f"<constraints>{_bounds(ident, None, 1)}{unit}</constraints>"
            + (f"<modifiers>{mods}</modifiers>" if mods else "")
            + f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")


def _catalogue() -> str:
    """A Band of 5-10: a Sergeant and 4-9 Braves, each choosing a weapon. Plasma pistol (the
    Sergeant's and the Braves', one bound each, alike): up to 1 in the unit, 2 from 10
    models. Hammer: none, 1 more for every 5 models. Axe: 1, one more while the unit has a
    plasma pistol (another choice: not read, named). Flail: 2, one fewer while the unit has
    an Axe (read as 2; the lowering named). Mace: 1 in another unit (none here, nothing
    named)."""
    def pp(ident: str) -> str:
        return _item(ident, "Plasma pistol", "u-band", 1,
                     _mod("set", 2, f"c-{ident}-unit", _cond("atLeast", 10, "u-band", "model")))

    knife = ('<selectionEntry type="upgrade" name="Knife" hidden="false" id="g-knife">'
             f"<profiles>{_weapon_xml('g-knife', 'Knife')}</profiles></selectionEntry>")
    weapons = knife + pp("g-pp") \
        + _item("g-ham", "Hammer", "unit", 0, _mod("increment", 1, "c-g-ham-unit", repeat="5")) \
        + _item("g-axe", "Axe", "u-band", 1,
                _mod("increment", 1, "c-g-axe-unit", _cond("atLeast", 1, "u-band", "g-pp"))) \
        + _item("g-flail", "Flail", "unit", 2,
                _mod("decrement", 1, "c-g-flail-unit", _cond("atLeast", 1, "unit", "g-axe"))) \
        + _item("g-mace", "Mace", "u-other", 1,
                _mod("set", 3, "c-g-mace-unit", _cond("atLeast", 10, "u-other", "model")))

    def model(ident: str, name: str, inner: str, lo: int, hi: int) -> str:
        return (f'<selectionEntry type="model" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, hi)}</constraints>"
                f"<profiles>{_unit_xml(ident, name)}</profiles>"
                f"<selectionEntryGroups>{inner}</selectionEntryGroups></selectionEntry>")

    sergeant = model("m-sgt", "Sergeant", _group("grp-sgt", "Pistol", knife.replace(
        "g-knife", "g-sknife") + pp("g-spp"), 1, 1, default="g-sknife"), 1, 1)
    brave = model("m-brave", "Brave", _group("grp-brave", "Weapon", weapons, 1, 1,
                                             default="g-knife"), 4, 9)
    band = ('<selectionEntry type="unit" name="Band" hidden="false" id="u-band">'
            f"<selectionEntries>{sergeant}{brave}</selectionEntries></selectionEntry>")
    other = ('<selectionEntry type="unit" name="Other" hidden="false" id="u-other">'
             + "<selectionEntries>"
             + model("m-other", "Other", _group("grp-other", "Weapon", knife.replace(
                 "g-knife", "g-oknife"), 1, 1, default="g-oknife"), 1, 1)
             + "</selectionEntries></selectionEntry>")
    return catalogue_of("cat-band", "Imperium - Band Test", band + other)


@pytest.fixture
def band(tmp_path: Path) -> dict:
    return read_test_catalogue(tmp_path, "Imperium - Band Test", _catalogue())["Band"]


def test_the_forms_read(band: dict) -> None:
    """The plasma pistols' two alike bounds are one; the hammer's "for every 5 models" is
    worked out to the unit's largest size (10); the flail's is read at its most; the axe's,
    raised by another choice, is not read; the mace's, another unit's, is none."""
    assert band["wargear_item_bounds"] == [
        {"items": ["Plasma pistol"], "max": 1, "max_from": {10: 2}},
        {"items": ["Hammer"], "max": 0, "max_from": {5: 1, 10: 2}},
        {"items": ["Flail"], "max": 2},
    ]
    assert band["wargear_unread"] == [
        "Brave: Axe: maximum raised by 1 while Plasma pistol >= 1",
        "Brave: Flail: maximum lowered by 1 while Axe >= 1",
    ]


def test_the_read_forms_are_checked(band: dict) -> None:
    from bagm.data import models
    from bagm.data.schema import validate as validate_model

    ds = validate_model(models.Datasheet, dict(band, points={5: 50, 10: 100}))
    ok = [(5, {"plasma pistol": 1}), (10, {"plasma pistol": 2}), (5, {"hammer": 1}),
          (9, {"hammer": 1}), (10, {"hammer": 2}), (5, {"flail": 2}),
          (10, {"Sergeant": {"plasma pistol": 1}, "Brave": {"plasma pistol": 1}})]
    for n, wanted in ok:
        assert resolve(ds, n, wanted)[1] == [], (n, wanted)
    refused = [(9, {"plasma pistol": 2}), (4, {"hammer": 1}), (9, {"hammer": 2}),
               (5, {"flail": 3}), (5, {"Sergeant": {"plasma pistol": 1},
                                       "Brave": {"plasma pistol": 1}})]
    for n, wanted in refused:
        problems = resolve(ds, n, wanted)[1]
        assert [p.code for p in problems] == ["BA197"], (n, wanted, problems)
    # the most models a size allows, said with the sizes it grows at
    problems = resolve(ds, 5, {"hammer": 2})[1]
    assert problems[0].message == ("Band: at most 1 Hammer in a unit of 5 models (2 from 10 "
                                   "models), whichever models carry them: name fewer, or take "
                                   "a larger unit")


def test_the_default_unit_keeps_what_it_carries() -> None:
    """A bound below what the default unit carries (a kind whose fixed item the bound would
    refuse) binds choices only: the default unit and its own count pass."""
    from bagm.data import models
    from bagm.data.schema import validate as validate_model

    ds = validate_model(models.Datasheet, {
        "name": "Gunners", "keywords": ["INFANTRY"], "faction_keywords": ["TEST"],
        "points": {4: 40},
        "wargear": [{"model": "Gunner", "min": 2, "max": 2, "gear": ["Gun"]},
                    {"model": "Trooper", "min": 0, "max": 2, "choices": [
                        {"of": ["Knife", "Gun"], "min": 1, "default": "Knife"}]}],
        "wargear_item_bounds": [{"items": ["Gun"], "max": 1}]})
    assert carriers(default_loadouts(ds, 4), "Gun") == 2
    assert resolve(ds, 4, {"gun": 2})[1] == []
    assert [p.code for p in resolve(ds, 4, {"gun": 3})[1]] == ["BA197"]


# --- errors on a count and the unit's size, read as maxima -------------------------------------

def _error(text: str, body: str) -> str:
    return f'<modifier type="add" value="{text}" field="error">{body}</modifier>'


def _and(*conds: str) -> str:
    return ("<conditionGroups><conditionGroup type=\"and\"><conditions>" + "".join(conds)
            + "</conditions></conditionGroup></conditionGroups>")


def _count(kind: str, value: int, child: str, scope: str = "u-crew", ics: bool = True) -> str:
    return (f'<condition type="{kind}" value="{value}" field="selections" scope="{scope}" '
            f'childId="{child}" shared="true" includeChildSelections="{str(ics).lower()}"/>')


def _crew() -> str:
    """A Crew of 3-10: Crewmen (2-9) with a Bomb each at most, an error while more than 3
    Bombs below 10 models or any below 5 (item across the unit); Gunners (0-4), an error
    while more than one below 10 models (counted from "parent", without child selections:
    the unit's own selections); Lancers and Flamers (0-2 each) in a group "Heavy", an error
    on the group while more than one below 10 models; Oddballs (0-2) with an error counting
    a category (not read); Bolters (0-2) with one while exactly 2 below 10 models (2 or
    more: read) and Sluggers (0-3) with the same (3 would pass it: not read)."""
    def model(ident: str, name: str, lo: int, hi: int, inner: str = "", mods: str = "") -> str:
        return (f'<selectionEntry type="model" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, hi)}</constraints>"
                + (f"<modifiers>{mods}</modifiers>" if mods else "")
                + f"<profiles>{_unit_xml(ident, 'Crewman')}</profiles>"
                + (f"<selectionEntries>{inner}</selectionEntries>" if inner else "")
                + "</selectionEntry>")

    def gun(ident: str, name: str, lo: int | None = 1, mods: str = "") -> str:
        return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, 1)}</constraints>"
                + (f"<modifiers>{mods}</modifiers>" if mods else "")
                + f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")

    bomb = gun("g-bomb", "Bomb", None, _error("Max 3 per 5 models", (
        "<conditionGroups><conditionGroup type=\"or\"><conditionGroups>"
        "<conditionGroup type=\"and\"><conditions>" + _count("lessThan", 10, "model")
        + _count("greaterThan", 3, "g-bomb") + "</conditions></conditionGroup>"
        "<conditionGroup type=\"and\"><conditions>" + _count("lessThan", 5, "model")
        + _count("greaterThan", 0, "g-bomb") + "</conditions></conditionGroup>"
        "</conditionGroups></conditionGroup></conditionGroups>")))
    crewman = model("m-crew", "Crewman", 2, 9, gun("g-pick", "Pick") + bomb)
    gunner = model("m-gun", "Gunner", 0, 4, gun("g-gun", "Gun"), _error(
        "Max 1 {this} per 5 models", _and(_count("lessThan", 10, "model", "parent", False),
                                          _count("greaterThan", 1, "m-gun", "parent", False))))
    heavy = _group("grp-heavy", "Heavy", model("m-lance", "Lancer", 0, 2, gun("g-lance", "Lance"))
                   + model("m-flame", "Flamer", 0, 2, gun("g-flame", "Flame")))
    heavy = heavy.replace("</selectionEntries></selectionEntryGroup>", "</selectionEntries>"
                          "<modifiers>" + _error("Max 1 heavy per 5 models", _and(
                              _count("lessThan", 10, "model"),
                              _count("greaterThan", 1, "grp-heavy")))
                          + "</modifiers></selectionEntryGroup>")
    odd = model("m-odd", "Oddball", 0, 2, gun("g-odd", "Odd gun"), _error(
        "Not with infantry", _and(_count("lessThan", 10, "model"),
                                  _count("greaterThan", 1, "cat-inf"))))
    bolter = model("m-bolt", "Bolter", 0, 2, gun("g-bolt", "Bolt gun"), _error(
        "Max 1 per 5", _and(_count("lessThan", 10, "model"), _count("equalTo", 2, "m-bolt"))))
    slugger = model("m-slug", "Slugger", 0, 3, gun("g-slug", "Slug gun"), _error(
        "Max 1 per 5", _and(_count("lessThan", 10, "model"), _count("equalTo", 2, "m-slug"))))
    crew = ('<selectionEntry type="unit" name="Crew" hidden="false" id="u-crew">'
            f"<selectionEntries>{crewman}{gunner}{odd}{bolter}{slugger}</selectionEntries>"
            f"<selectionEntryGroups>{heavy}</selectionEntryGroups></selectionEntry>")
    return catalogue_of("cat-crew", "Imperium - Crew Test", crew)


@pytest.fixture
def crew(tmp_path: Path) -> dict:
    return read_test_catalogue(tmp_path, "Imperium - Crew Test", _crew())["Crew"]


def test_errors_on_a_count_and_the_size_are_read_as_maxima(crew: dict) -> None:
    """The Bombs: none below 5 models, 3 below 10, as many as the unit has from 10 (40, more
    than any unit has, where its profiles do not count its largest size); the Gunners: 1 below 10, then their own 4; the
    group "Heavy": 1 below 10 (its kinds' own 2 each after); the Bolters 1 below 10 (exactly
    2 is 2 or more, their most); the error on a category and the Sluggers' "exactly 2" (3
    would pass it) are named."""
    assert crew["wargear_item_bounds"] == [{"items": ["Bomb"], "max": 0,
                                            "max_from": {5: 3, 10: 40}}]
    kinds = {k["model"]: k for k in crew["wargear"]}
    assert (kinds["Gunner"]["max"], kinds["Gunner"]["max_from"]) == (1, {10: 4})
    assert {"models": ["Lancer", "Flamer"], "min": 0, "max": 1,
            "max_from": {10: 40}} in crew["wargear_groups"]
    assert (kinds["Bolter"]["max"], kinds["Bolter"]["max_from"]) == (1, {10: 2})
    assert crew["wargear_unread"] == [
        "Oddball: error 'Not with infantry' while (models < 10 and Infantry > 1)",
        "Slugger: error 'Max 1 per 5' while (models < 10 and Slugger = 2)",
    ]


def test_the_errors_read_are_checked(crew: dict) -> None:
    from bagm.data import models
    from bagm.data.schema import validate as validate_model

    ds = validate_model(models.Datasheet, dict(crew, points={4: 40, 5: 50, 9: 90, 10: 100}))
    for n, wanted in [(5, {"bomb": 3}), (10, {"bomb": 5}), (9, {"gun": 1}), (10, {"gun": 2}),
                      (9, {"lance": 1}), (10, {"lance": 1, "flame": 1})]:
        assert resolve(ds, n, wanted)[1] == [], (n, wanted)
    for n, wanted in [(4, {"bomb": 1}), (9, {"bomb": 4}), (9, {"gun": 2}),
                      (9, {"lance": 1, "flame": 1})]:
        problems = resolve(ds, n, wanted)[1]
        assert problems and problems[0].code in ("BA191", "BA192", "BA197"), \
            (n, wanted, problems)


def test_a_champions_bundle_of_choices_is_read_as_its_default_item() -> None:
    """The Chosen Champion's "Boltgun and accursed weapon" (the default of its choice beside
    paired accursed weapons) gives nothing itself: its choices (a boltgun or combi-weapon, an
    accursed weapon or power fist) are made by a champion carrying it. Read so, a 5-model
    unit's default champion carries no paired accursed weapons, and one Chosen may."""
    champion = next(k for k in sheet("Heretic Astartes", "Chosen").wargear
                    if k.model == "Chosen Champion")
    assert [(c.of, c.default, c.needs) for c in champion.choices[1:]] == [
        (["Boltgun and accursed weapon", "Paired accursed weapons"],
         "Boltgun and accursed weapon", None),
        (["Boltgun", "Combi-weapon"], "Boltgun", "Boltgun and accursed weapon"),
        (["Accursed weapon", "Power fist"], "Accursed weapon", "Boltgun and accursed weapon")]
    ds = sheet("Heretic Astartes", "Chosen")
    assert [lo.items for lo in default_loadouts(ds, 5) if lo.profile == "Chosen Champion"] == [
        ("Bolt pistol", "Boltgun and accursed weapon", "Boltgun", "Accursed weapon")]
    loadouts, problems = resolve(ds, 5, {"Paired accursed weapons": 1})
    assert problems == [] and carriers(loadouts, "Paired accursed weapons") == 1
    _, problems = resolve(ds, 5, {"Paired accursed weapons": 2})
    assert [p.code for p in problems] == ["BA197"], problems
