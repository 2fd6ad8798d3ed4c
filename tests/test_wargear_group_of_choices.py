"""A group of choices: a group of N picks holding N groups of one pick each, each with its
default (the catalogues' Plague Champion: "Wargear", 2 picks over "Plague knives options" and
"Boltgun options"). Its bounds say nothing its groups' do not, so it is read as their choices,
each with its default, not as one choice of 2 of their items together without one (which a
builder fills with its first items: the Champion played with bubotic weapons and a power fist,
no gun). The plague knives' minimum 1, set to 0 by the link without a condition, makes them
an item of their choice, not always carried. On a catalogue of its own at the form's edges, on
the bundled datasheet, through ``bagm datasheet`` and through a roster."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_bsdata import _bounds, _unit_xml, _weapon_xml, catalogue_of, read_test_catalogue
from test_wargear_bounds import check, sheet, wargear_findings
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data import models
from bagm.data.schema import validate as validate_model
from bagm.roster.wargear import default_loadouts, resolve


def _item(ident: str, name: str, lo: int | None = None, zeroed: bool = False) -> str:
    """A weapon; ``lo``: its own minimum; ``zeroed``: that minimum set to 0 without a
    condition (the Plague knives' link)."""
    cons = _bounds(ident, lo, None)
    mod = (f'<modifiers><modifier type="set" value="0" field="c-{ident}-min"/></modifiers>'
           if zeroed else "")
    return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
            + (f"<constraints>{cons}</constraints>" if cons else "") + mod
            + f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")


def _group(ident: str, name: str, entries: str = "", groups: str = "",
           lo: int | None = None, hi: int | None = None, default: str = "",
           mods: str = "") -> str:
    cons = _bounds(ident, lo, hi)
    dflt = f' defaultSelectionEntryId="{default}"' if default else ""
    return (f'<selectionEntryGroup name="{name}" hidden="false" id="{ident}"{dflt}>'
            + (f"<constraints>{cons}</constraints>" if cons else "")
            + (f"<modifiers>{mods}</modifiers>" if mods else "")
            + (f"<selectionEntries>{entries}</selectionEntries>" if entries else "")
            + (f"<selectionEntryGroups>{groups}</selectionEntryGroups>" if groups else "")
            + "</selectionEntryGroup>")


def _champion_catalogue(lo: int | None = 2, hi: int | None = 2, sub: tuple[int | None, int | None]
                        = (1, 1), outer_default: str = "", extra: str = "", mods: str = "") -> str:
    """A Champion whose "Wargear" (``lo``-``hi`` picks, ``outer_default``, ``extra`` entries
    and ``mods`` of its own) holds "Knife options" (a Knife, min 1 set to 0, default; an Axe; a Fist) and
    "Gun options" (a Pistol; a Gun, default; a Plasma gun), ``sub`` picks each."""
    knives = _group("grp-knife", "Knife options",
                    _item("g-knife", "Knife", 1, zeroed=True) + _item("g-axe", "Axe")
                    + _item("g-fist", "Fist"), lo=sub[0], hi=sub[1], default="g-knife")
    guns = _group("grp-gun", "Gun options",
                  _item("g-pistol", "Pistol") + _item("g-gun", "Gun") + _item("g-plasma", "Plasma"),
                  lo=sub[0], hi=sub[1], default="g-gun")
    wargear = _group("grp-wargear", "Wargear", extra, knives + guns, lo, hi, outer_default,
                     mods)
    champion = ('<selectionEntry type="model" name="Champion" hidden="false" id="m-champ">'
                f"<constraints>{_bounds('m-champ', 1, 1)}</constraints>"
                f"<profiles>{_unit_xml('m-champ', 'Marine')}</profiles>"
                f"<selectionEntryGroups>{wargear}</selectionEntryGroups></selectionEntry>")
    marine = ('<selectionEntry type="model" name="Marine" hidden="false" id="m-marine">'
              f"<constraints>{_bounds('m-marine', 4, 9)}</constraints>"
              f"<profiles>{_unit_xml('m-marine', 'Marine')}</profiles><selectionEntries>"
              + _item("g-mknife", "Knife", 1) + _item("g-mgun", "Gun", 1)
              + "</selectionEntries></selectionEntry>")
    unit = ('<selectionEntry type="unit" name="Plague Squad" hidden="false" id="u-sq">'
            f"<selectionEntries>{champion}{marine}</selectionEntries></selectionEntry>")
    return catalogue_of("cat-plague", "Chaos - Plague Test", unit)


def _champion(tmp_path: Path, **kw: object) -> tuple[dict, dict]:
    unit = read_test_catalogue(tmp_path, "Chaos - Plague Test",
                               _champion_catalogue(**kw))["Plague Squad"]  # type: ignore[arg-type]
    return unit, next(k for k in unit["wargear"] if k["model"] == "Champion")


KNIVES = {"of": ["Knife", "Axe", "Fist"], "min": 1, "default": "Knife"}
GUNS = {"of": ["Pistol", "Gun", "Plasma"], "min": 1, "default": "Gun"}


def test_a_group_of_choices_is_read_as_its_choices_with_their_defaults(tmp_path: Path) -> None:
    unit, champion = _champion(tmp_path)
    assert champion["choices"] == [KNIVES, GUNS]
    assert "gear" not in champion  # the knife is his choice's default, not always carried
    assert not unit.get("wargear_unread")
    ds = validate_model(models.Datasheet, dict(unit, points={5: 50, 10: 100}))
    assert [lo.items for lo in default_loadouts(ds, 5)] == [("Knife", "Gun")]
    loadouts, problems = resolve(ds, 5, {"fist": 1, "plasma": 1})
    assert problems == [] and ("Fist", "Plasma") in [lo.items for lo in loadouts]
    _, problems = resolve(ds, 5, {"axe": 1, "fist": 1})  # one pick of each group
    assert [p.code for p in problems] == ["BA192"]


@pytest.mark.parametrize("kw", [
    {"lo": None, "hi": None},  # no bounds of its own: a folder already
    {"lo": 0, "hi": 2}, {"lo": 1, "hi": None},  # looser than its groups'
])
def test_bounds_saying_nothing_more_are_the_same(tmp_path: Path, kw: dict) -> None:
    assert _champion(tmp_path, **kw)[1]["choices"] == [KNIVES, GUNS]


@pytest.mark.parametrize("kw", [
    {"lo": 2, "hi": 2, "sub": (None, 1)},  # its minimum more than its groups' together
    {"lo": 1, "hi": 1},  # its maximum less than theirs: one of the two groups only
    {"lo": 2, "hi": 2, "sub": (1, None)},  # its groups' maximum open
    {"lo": 2, "hi": 2, "outer_default": "g-knife"},  # a default of its own
    {"lo": 2, "hi": 2, "extra": _item("g-bomb", "Bomb")},  # an item of its own
    {"lo": 2, "hi": 2,  # a modifier of its own (its maximum by the unit's size)
     "mods": '<modifier type="set" value="1" field="c-grp-wargear-max"><conditions>'
             '<condition type="lessThan" value="10" field="selections" scope="parent" '
             'childId="model" shared="true"/></conditions></modifier>'},
])
def test_a_group_saying_more_than_its_groups_stays_one_choice(tmp_path: Path, kw: dict) -> None:
    """Outside the form the group is one choice of its items together, as before, and the
    knife's minimum stands (reading it there would change the loadout without settling the
    form)."""
    _, champion = _champion(tmp_path, **kw)
    assert champion["gear"] == ["Knife"]
    assert len(champion["choices"]) == 1 and "Knife" not in champion["choices"][0]["of"]


# --- the bundled Plague Marines ------------------------------------------------------------------

def test_the_plague_champion_carries_plague_knives_and_a_boltgun() -> None:
    """The catalogue (and the datasheet: his plague knives and his boltgun each replaceable):
    before, one choice of 2 of Bubotic weapons / Power fist / Bolt pistol / Boltgun / Plasma gun
    / Plasma pistol, whose first two he played, with no gun."""
    ds = sheet("Death Guard", "Plague Marines")
    champion = next(k for k in ds.wargear if k.model == "Plague Champion")
    assert champion.gear == []
    assert [(c.of, c.min, c.max, c.default) for c in champion.choices] == [
        (["Plague knives", "Bubotic weapons", "Power fist"], 1, 1, "Plague knives"),
        (["Bolt pistol", "Boltgun", "Plasma gun", "Plasma pistol"], 1, 1, "Boltgun")]
    for n in (5, 7, 10):
        assert [(lo.count, lo.items) for lo in default_loadouts(ds, n)] == [
            (n, ("Plague knives", "Boltgun"))]


def test_bagm_datasheet_shows_the_champions_two_choices() -> None:
    out = CliRunner().invoke(app, ["datasheet", "Plague Marines"])
    text = " ".join(out.output.split())
    assert out.exit_code == 0, text
    assert "Plague Champion (1): one of Plague knives / Bubotic weapons / Power fist (default " \
        "Plague knives); one of Bolt pistol / Boltgun / Plasma gun / Plasma pistol (default " \
        "Boltgun)" in text


ROSTER = """faction: Death Guard
detachment: Vectors of Decay
units:
  - unit: Lord of Contagion
    warlord: true
  - unit: Plague Marines
    models: 5
"""


def test_a_roster_naming_other_wargear_keeps_the_champions_default(tmp_path: Path) -> None:
    """The models the roster does not name keep their defaults (a roster naming no wargear
    plays each model's default weapons)."""
    r = check(tmp_path, ROSTER + "    wargear: {meltagun: 1}\n")
    assert r.valid and wargear_findings(r) == [], r.findings
    assert sorted((lo.count, lo.items) for lo in r.units[1].loadouts) == [
        (1, ("Plague knives", "Meltagun")), (4, ("Plague knives", "Boltgun"))]


@pytest.mark.parametrize("wargear, champion", [
    ("power fist: 1, plasma pistol: 1", ("Power fist", "Plasma pistol")),
    ("bubotic weapons: 1, bolt pistol: 1", ("Bubotic weapons", "Bolt pistol")),
    ("Plague Marine: {power fist: 1, plasma gun: 1}", ("Power fist", "Plasma gun")),
])
def test_a_roster_naming_his_alternatives_is_valid(tmp_path: Path, wargear: str,
                                                   champion: tuple[str, ...]) -> None:
    r = check(tmp_path, ROSTER + f"    wargear: {{{wargear}}}\n")
    assert r.valid and wargear_findings(r) == [], r.findings
    got = {lo.items: lo.count for lo in r.units[1].loadouts}
    assert got[champion] == 1 and sum(got.values()) == 5


@pytest.mark.parametrize("wargear", ["bolt pistol: 1, plasma pistol: 1", "power fist: 2"])
def test_two_picks_of_one_of_his_choices_are_refused(tmp_path: Path, wargear: str) -> None:
    """Only the Champion takes a power fist, a bolt pistol or a plasma pistol, one pick of
    each of his choices: two of one is refused."""
    r = check(tmp_path, ROSTER + f"    wargear: {{{wargear}}}\n")
    assert not r.valid and [c for c, _ in wargear_findings(r)][:1] in (["BA191"], ["BA192"]), \
        r.findings
