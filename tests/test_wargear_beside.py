"""Wargear options the catalogues hide by another of the roster's choices (issue 13 section 1):
read where the form is simple (an item only with other items of the model, an item or a kind
of model none beside another kind of the unit), named in ``wargear_unread`` otherwise, never
offered silently. Units: the Canoness (Null Rod and Brazier of Holy Fire with a Hallowed
Chainsword, Rod of Office with a plasma pistol and a power weapon), Skitarii Rangers and
Vanguard (a data-tether or an omnispex, not both), Hernkyn Yaegirs (the Theyn's weapon goes
with the Yaegirs')."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bsdata import catalogue_of, read_test_catalogue
from test_wargear_bounds import CATALOG, check, sheet, wargear_findings

from bagm.roster.report import ValidationReport

BSDATA = Path(__file__).parents[2] / "shared" / "reference" / "bsdata-wh40k-10e"


def message(r: ValidationReport, code: str) -> str:
    return next(f.message for f in r.findings if f.code == code)


# --- the bundled packs: what is read, exactly ---------------------------------------------------

def test_the_bundled_datasheets_bounds_beside_other_choices_are_these() -> None:
    """Every choice, item and kind of model the catalogues hide by another of the roster's
    choices, across the bundled packs, as read (none is left unread: see
    test_wargear_bounds.test_no_bundled_datasheet_has_a_bound_left_unread)."""
    got = []
    for f in CATALOG.all():
        for ds in f.pack.units:
            for k in ds.wargear:
                if k.unit_unless:
                    got.append((ds.name, k.model, "unit_unless", k.unit_unless))
                for c in k.choices:
                    for field in ("item_needs", "item_unit_unless"):
                        if getattr(c, field):
                            got.append((ds.name, k.model, field, getattr(c, field)))
    assert sorted(got, key=str) == sorted([
        ("Canoness", "Canoness", "item_needs", {
            "Null Rod": ["Hallowed Chainsword"], "Brazier of Holy Fire": ["Hallowed Chainsword"],
            "Rod of Office": ["Plasma pistol", "Power weapon"]}),
        ("Hernkyn Yaegirs", "Yaegir Theyn", "item_unit_unless", {
            "Bolt revolver and plasma knife": ["Hernkyn Yaegir w/ bolt shotgun"],
            "Bolt shotgun": ["Hernkyn Yaegir w/ revolver and knife"]}),
        ("Skitarii Rangers", "Skitarii Ranger w/ data-tether", "unit_unless",
         ["Skitarii Ranger w/ omnispex"]),
        ("Skitarii Rangers", "Skitarii Ranger w/ omnispex", "unit_unless",
         ["Skitarii Ranger w/ data-tether"]),
        ("Skitarii Vanguard", "Skitarii Vanguard w/ data-tether", "unit_unless",
         ["Skitarii Vanguard w/ omnispex"]),
        ("Skitarii Vanguard", "Skitarii Vanguard w/ omnispex", "unit_unless",
         ["Skitarii Vanguard w/ data-tether"]),
        # read from an error, not a hidden condition (test_wargear_bounds_beside)
        ("Hernkyn Yaegirs", "Hernkyn Yaegir w/ bolt shotgun", "unit_unless",
         ["Hernkyn Yaegir w/ revolver and knife"]),
        ("Hernkyn Yaegirs", "Hernkyn Yaegir w/ revolver and knife", "unit_unless",
         ["Hernkyn Yaegir w/ bolt shotgun"]),
    ], key=str)


# --- Canoness: items only with others the model carries ----------------------------------------

CANONESS = """faction: Adepta Sororitas
detachment: Pious Protectors
units:
  - unit: Canoness
    warlord: true
    wargear:
"""


@pytest.mark.parametrize("wargear, carried", [
    ("      Hallowed Chainsword: 1\n      Null Rod: 1\n", {"Hallowed Chainsword", "Null Rod"}),
    ("      Brazier of Holy Fire: 1\n      Hallowed Chainsword: 1\n",
     {"Hallowed Chainsword", "Brazier of Holy Fire"}),
    ("      Plasma pistol: 1\n      Power weapon: 1\n      Rod of Office: 1\n",
     {"Plasma pistol", "Power weapon", "Rod of Office"}),
])
def test_a_canoness_with_what_her_item_needs_is_legal(tmp_path: Path, wargear: str,
                                                      carried: set[str]) -> None:
    r = check(tmp_path, CANONESS + wargear)
    assert r.valid and wargear_findings(r) == [], r.findings
    assert carried <= set(r.units[0].loadouts[0].items)


@pytest.mark.parametrize("wargear, line, says", [
    # the Null Rod alone: her default blessed blade is no Hallowed Chainsword
    ("      Null Rod: 1\n", 7, "the Canoness takes Null Rod only with Hallowed Chainsword"),
    ("      Power weapon: 1\n      Brazier of Holy Fire: 1\n", 8,
     "takes Brazier of Holy Fire only with Hallowed Chainsword"),
    # the Rod of Office needs both: a plasma pistol and a power weapon
    ("      Plasma pistol: 1\n      Rod of Office: 1\n", 8,
     "takes Rod of Office only with Plasma pistol and Power weapon"),
    ("      Hallowed Chainsword: 1\n      Rod of Office: 1\n", 8,
     "takes Rod of Office only with Plasma pistol and Power weapon"),
])
def test_a_canoness_item_without_what_it_needs_is_refused(tmp_path: Path, wargear: str,
                                                         line: int, says: str) -> None:
    r = check(tmp_path, CANONESS + wargear)
    assert not r.valid and wargear_findings(r) == [("BA197", line)], r.findings
    assert says in message(r, "BA197")
    assert message(r, "BA197").endswith("name what it goes with, or leave it out")


# --- Skitarii: a data-tether or an omnispex, not both ------------------------------------------

SKITARII = """faction: Adeptus Mechanicus
detachment: Electromartyrs
units:
  - unit: Skitarii Marshal
    warlord: true
  - unit: {unit}
    models: {n}
    wargear:
"""


@pytest.mark.parametrize("unit, n", [("Skitarii Rangers", 10), ("Skitarii Vanguard", 5)])
@pytest.mark.parametrize("item", ["Enhanced data-tether", "Omnispex"])
def test_skitarii_take_a_data_tether_or_an_omnispex(tmp_path: Path, unit: str, n: int,
                                                    item: str) -> None:
    r = check(tmp_path, SKITARII.format(unit=unit, n=n) + f"      {item}: 1\n")
    assert r.valid and wargear_findings(r) == [], r.findings
    assert sum(lo.count for lo in r.units[1].loadouts if item in lo.items) == 1


@pytest.mark.parametrize("unit, n", [("Skitarii Rangers", 10), ("Skitarii Vanguard", 5)])
def test_skitarii_with_both_are_refused(tmp_path: Path, unit: str, n: int) -> None:
    r = check(tmp_path, SKITARII.format(unit=unit, n=n)
              + "      Enhanced data-tether: 1\n      Omnispex: 1\n")
    assert not r.valid and wargear_findings(r) == [("BA197", 10)], r.findings
    kind = unit.removesuffix("s")
    assert f"no {kind} w/ data-tether beside a {kind} w/ omnispex" in message(r, "BA197")
    assert message(r, "BA197").endswith("keep one of them")


# --- Hernkyn Yaegirs: the Theyn's weapon goes with the Yaegirs' -----------------------------------

YAEGIRS = """faction: Leagues of Votann
detachment: {detachment}
units:
  - unit: Kâhl
    warlord: true
  - unit: Hernkyn Yaegirs
    models: 10
    wargear:
"""
REVOLVER = "Bolt revolver and plasma knife"


def yaegirs_roster() -> str:
    """The roster head with a Detachment that takes Hernkyn Yaegirs."""
    d = next(d for d in CATALOG.faction("Leagues of Votann").pack.detachments
             if any(a.unit == "Hernkyn Yaegirs" for a in d.units))
    return YAEGIRS.replace("{detachment}", d.name)


@pytest.mark.parametrize("wargear, theyn", [
    (f"      {REVOLVER}: 10\n", REVOLVER),  # every model, the Theyn too
    (f"      {REVOLVER}: 9\n      APM launcher: 1\n", REVOLVER),
    ("      APM launcher: 1\n      Magna-coil rifle: 1\n", "Bolt shotgun"),
])
def test_the_theyn_takes_the_yaegirs_weapon(tmp_path: Path, wargear: str, theyn: str) -> None:
    r = check(tmp_path, yaegirs_roster() + wargear)
    assert r.valid and wargear_findings(r) == [], r.findings
    kinds = {lo.items for lo in r.units[1].loadouts}
    assert any(theyn in items for items in kinds)
    assert not any(REVOLVER in items for items in kinds) or \
        not any("Bolt shotgun" in items for items in kinds)


@pytest.mark.parametrize("wargear", [
    f"      {REVOLVER}: 9\n",  # the Yaegirs' revolvers, the Theyn's bolt shotgun
    f"      {REVOLVER}: 4\n",  # revolvers and bolt shotguns mixed: no weapon is the Theyn's
])
def test_a_theyn_apart_from_his_yaegirs_is_refused(tmp_path: Path, wargear: str) -> None:
    r = check(tmp_path, yaegirs_roster() + wargear)
    assert not r.valid and wargear_findings(r) == [("BA197", 9)], r.findings
    assert ("the Yaegir Theyn takes Bolt shotgun only without a Hernkyn Yaegir w/ revolver "
            "and knife in the unit") in message(r, "BA197")


# --- bagm datasheet ------------------------------------------------------------------------------

def test_bagm_datasheet_shows_the_bounds() -> None:
    from bagm.render.datasheet import kind_dict, kind_text

    canoness = sheet("Adepta Sororitas", "Canoness").wargear[0]
    assert "Rod of Office only with Plasma pistol and Power weapon" in kind_text(canoness)
    assert kind_dict(canoness)["choices"][0]["item_needs"]["Null Rod"] == ["Hallowed Chainsword"]
    tether = next(k for k in sheet("Adeptus Mechanicus", "Skitarii Rangers").wargear
                  if k.model == "Skitarii Ranger w/ data-tether")
    assert "(0-1; none beside a Skitarii Ranger w/ omnispex)" in kind_text(tether)
    assert kind_dict(tether)["unit_unless"] == ["Skitarii Ranger w/ omnispex"]
    theyn = next(k for k in sheet("Leagues of Votann", "Hernkyn Yaegirs").wargear
                 if k.model == "Yaegir Theyn")
    assert f"{REVOLVER} only without a Hernkyn Yaegir w/ bolt shotgun in the unit" \
        in kind_text(theyn)
    assert kind_dict(theyn)["choices"][0]["item_unit_unless"]["Bolt shotgun"] == [
        "Hernkyn Yaegir w/ revolver and knife"]


# --- the importer's forms, on a catalogue of their own -----------------------------------------

def _cond(kind: str, value: int, scope: str, child: str) -> str:
    return (f'<condition type="{kind}" value="{value}" field="selections" scope="{scope}" '
            f'childId="{child}" shared="true" includeChildSelections="true"/>')


def _hide(*conds: str, group: str | None = None) -> str:
    inner = "".join(conds)
    body = (f'<conditionGroups><conditionGroup type="{group}"><conditions>{inner}</conditions>'
            '</conditionGroup></conditionGroups>') if group else f"<conditions>{inner}</conditions>"
    return ('<modifiers><modifier type="set" value="true" field="hidden">' + body
            + "</modifier></modifiers>")


def _squad_catalogue() -> str:
    """A Boss whose Rod needs his Sword, whose Staff needs his Axe and his Gun ("hidden while
    he lacks either"), whose Horn no model takes beside a Tether, whose Banner is hidden by a
    count the import does not read (2 or more Swords) and whose Cape is hidden while he
    carries an Axe; a Tether and a Spex that exclude each other; an Odd model hidden while
    the unit has both (several conditions that must all hold: not read)."""
    from test_bsdata import _bounds, _entry, _group, _unit_xml, _weapon_xml

    def item(ident: str, name: str, mods: str = "", lo: int | None = None,
             hi: int | None = 1) -> str:
        return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, hi)}</constraints>{mods}"
                f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")

    def model(ident: str, name: str, inner: str, lo: int, hi: int, mods: str = "",
              groups: str = "") -> str:
        return (f'<selectionEntry type="model" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, hi)}</constraints>{mods}"
                f"<profiles>{_unit_xml(ident, 'Trooper')}</profiles>"
                f"<selectionEntries>{inner}</selectionEntries>"
                + (f"<selectionEntryGroups>{groups}</selectionEntryGroups>" if groups else "")
                + "</selectionEntry>")

    melee = _group("grp-melee", "Melee", item("g-sword", "Sword") + item("g-axe", "Axe"),
                   1, 1, default="g-sword")
    pistol = _group("grp-pistol", "Pistol", item("g-pistol", "Pistol") + item("g-gun", "Gun"),
                    1, 1, default="g-pistol")
    may = _group("grp-may", "May have", "".join([
        item("g-rod", "Rod", _hide(_cond("equalTo", 0, "m-boss", "g-sword"))),
        item("g-staff", "Staff", _hide(_cond("equalTo", 0, "m-boss", "g-axe"),
                                       _cond("lessThan", 1, "parent", "g-gun"), group="or")),
        item("g-horn", "Horn", _hide(_cond("atLeast", 1, "u-sq", "m-tether"))),
        item("g-banner", "Banner", _hide(_cond("atLeast", 2, "m-boss", "g-sword"))),
    ]), None, 1)
    boss = model("m-boss", "Boss", item("g-cape", "Cape", _hide(
        _cond("atLeast", 1, "m-boss", "g-axe"))), 1, 1, groups=melee + pistol + may)
    knife = _entry("g-knife", "Knife", "upgrade", "", 1, 1, _weapon_xml("knife", "Knife"))
    troopers = model("m-trooper", "Trooper", knife, 3, 9)
    tether = model("m-tether", "Tether", item("g-tether", "Tether gun", lo=1),
                   0, 1, _hide(_cond("atLeast", 1, "u-sq", "m-spex")))
    spex = model("m-spex", "Spex", item("g-spex", "Spex gun", lo=1),
                 0, 1, _hide(_cond("atLeast", 1, "u-sq", "m-tether")))
    odd = model("m-odd", "Odd", item("g-odd", "Odd gun", lo=1), 0, 1,
                _hide(_cond("atLeast", 1, "u-sq", "m-tether"),
                      _cond("atLeast", 1, "u-sq", "m-spex")))
    unit = ('<selectionEntry type="unit" name="Squad" hidden="false" id="u-sq">'
            f"<selectionEntries>{boss}{troopers}{tether}{spex}{odd}</selectionEntries>"
            "</selectionEntry>")
    return catalogue_of("cat-sq", "Imperium - Squad Test", unit)


@pytest.fixture
def squad(tmp_path: Path) -> dict:
    return read_test_catalogue(tmp_path, "Imperium - Squad Test", _squad_catalogue())["Squad"]


def test_items_hidden_by_the_models_other_items_are_read(squad: dict) -> None:
    boss = next(k for k in squad["wargear"] if k["model"] == "Boss")
    may = next(c for c in boss["choices"] if "Rod" in c["of"])
    assert may["of"] == ["Rod", "Staff", "Horn", "Banner"]
    assert may["item_needs"] == {"Rod": ["Sword"], "Staff": ["Axe", "Gun"]}
    assert may["item_unit_unless"] == {"Horn": ["Tether"]}
    assert {"of": ["Cape"], "unless": ["Axe"]} in boss["choices"]


def test_kinds_of_model_hidden_beside_another_kind_are_read(squad: dict) -> None:
    kinds = {k["model"]: k for k in squad["wargear"]}
    assert kinds["Tether"]["unit_unless"] == ["Spex"]
    assert kinds["Spex"]["unit_unless"] == ["Tether"]
    assert "unit_unless" not in kinds["Trooper"]


def test_a_form_not_read_is_named_never_dropped(squad: dict) -> None:
    """A count of 2 or more, and conditions that must all hold: not read, so named (a roster
    naming the unit's wargear gets BA196)."""
    assert squad["wargear_unread"] == ["Boss: Banner", "Odd: the model itself"]


def test_the_read_bounds_are_checked(squad: dict) -> None:
    from bagm.data import models
    from bagm.data.schema import validate as validate_model
    from bagm.roster.wargear import resolve

    ds = validate_model(models.Datasheet, dict(squad, points={5: 50, 10: 100}))
    assert resolve(ds, 5, {"rod": 1})[1] == []  # with his default Sword
    assert resolve(ds, 5, {"axe": 1, "rod": 1})[1][0].code == "BA197"
    assert resolve(ds, 5, {"staff": 1, "axe": 1})[1][0].code == "BA197"
    assert resolve(ds, 5, {"staff": 1, "axe": 1, "gun": 1})[1] == []
    assert resolve(ds, 5, {"horn": 1, "spex gun": 1})[1] == []
    assert resolve(ds, 5, {"horn": 1, "tether gun": 1})[1][0].code == "BA197"
    assert resolve(ds, 5, {"tether gun": 1, "spex gun": 1})[1][0].code == "BA197"
    assert resolve(ds, 5, {"cape": 1, "axe": 1})[1][0].code == "BA192"


# --- every real catalogue -----------------------------------------------------------------------

@pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/reference is absent")
def test_every_catalogue_unit_hidden_by_another_choice_is_read_or_named() -> None:
    """Over every datasheet of every catalogue (1,391): what is read and what is named. Read:
    the four bundled datasheets and some Crusade ("[Crucible]") ones. Named outside Crusade
    and Legends (none is bundled), each for a form not read: Death Company Intercessors (a
    kind of model hidden while the unit carries an item; an item hidden while the model
    carries another, an item's own "unless" the data model lacks), Desolation Squad (a
    rocket launcher hidden while the unit lacks that very item), Sammael (hidden unless the
    roster has a Crusade force: another force than Boarding Actions is left open), the
    Wulfen Dreadnought (a count in the scope "model-or-unit"), Fortis Kill Team, Sanctifiers
    and War Walkers (conditions on items of the unit or of another model)."""
    from bagm.io.bsdata import read_catalogues

    units = read_catalogues(sorted(BSDATA.glob("*.cat")))
    assert len(units) > 1000
    read = {name for name, u in units.items() for k in u.get("wargear", [])
            if k.get("unit_unless") or any(c.get("item_needs") or c.get("item_unit_unless")
                                           for c in k.get("choices", []))}
    assert {"Canoness", "Hernkyn Yaegirs", "Skitarii Rangers", "Skitarii Vanguard"} <= read
    assert all(n in {"Canoness", "Hernkyn Yaegirs", "Skitarii Rangers", "Skitarii Vanguard"}
               or "[Crucible]" in n for n in read), read
    bound = re.compile(r": (maximum|minimum|error) ")  # a bound's modifier: see
    named = {name for name, u in units.items()  # test_wargear_bounds_beside
             if any(not bound.search(w) for w in u.get("wargear_unread", []))
             and "[Crucible]" not in name and "[Legends]" not in name}
    assert named == {"Death Company Intercessors", "Desolation Squad", "Fortis Kill Team",
                     "Sammael", "Sanctifiers", "War Walkers", "Wulfen Dreadnought"}


# --- whatever the search accepts keeps the bounds ----------------------------------------------

BESIDE = [("Adepta Sororitas", "Canoness"), ("Adeptus Mechanicus", "Skitarii Rangers"),
          ("Adeptus Mechanicus", "Skitarii Vanguard"), ("Leagues of Votann", "Hernkyn Yaegirs")]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_what_the_search_accepts_keeps_the_bounds(data: st.DataObject) -> None:
    from bagm.roster.points import legal_sizes
    from bagm.roster.wargear import offered, resolve

    ds = sheet(*data.draw(st.sampled_from(BESIDE)))
    n = data.draw(st.sampled_from(legal_sizes(ds.points, ds.sizes, None)))
    names = data.draw(st.lists(st.sampled_from(offered(ds)), min_size=1, max_size=4,
                               unique=True))
    wanted = {name: data.draw(st.integers(0, n)) for name in names}
    loadouts, problems = resolve(ds, n, wanted)
    if problems:
        return
    assert sum(lo.count for lo in loadouts) == n
    for name, count in wanted.items():
        assert sum(lo.count for lo in loadouts if name in lo.items) == count
    items = [set(lo.items) for lo in loadouts]
    for k in ds.wargear:
        for c in k.choices:
            for item, needs in c.item_needs.items():
                assert all(set(needs) <= got for got in items if item in got), (wanted, items)
    held = set().union(*items)
    assert not {"Enhanced data-tether", "Omnispex"} <= held, (wanted, items)
    assert not {"Bolt shotgun", REVOLVER} <= held, (wanted, items)
