"""Wargear bounds the catalogues change by another choice of the same model or of the unit,
read and checked (issue 13 section 1): the Chosen Champion's combi-weapon not beside his power
fist (``item_unless``). Each at its boundary through the loadout search (``resolve``) and
through ``bagm validate`` on a roster file (BA197 naming the bound)."""

from __future__ import annotations

from pathlib import Path

from test_wargear_bounds import sheet
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.roster.wargear import default_loadouts, resolve


def validate_file(tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "r.yaml"
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(app, ["validate", str(path)])
    return out.exit_code, " ".join(out.output.split())


def codes(problems: list) -> list[str]:
    return [p.code for p in problems]


# --- Chosen: the champion's boltgun (not a combi-weapon) beside his power fist ------------------

CHOSEN = """faction: Heretic Astartes
detachment: Champions of Chaos
units:
  - unit: Chaos Lord in Terminator Armour
    warlord: true
  - unit: Chosen
    models: {n}
    wargear:
      Chosen Champion: {{{champion}}}
"""


def test_the_chosen_champions_combi_weapon_is_read_as_not_beside_his_power_fist() -> None:
    """The catalogue sets his boltgun's minimum to 1 while he carries a power fist; his
    choice is a boltgun or a combi-weapon, so beside a power fist he takes no combi-weapon."""
    champion = next(k for k in sheet("Heretic Astartes", "Chosen").wargear
                    if k.model == "Chosen Champion")
    gun = next(c for c in champion.choices if "Combi-weapon" in c.of)
    assert gun.item_unless == {"Combi-weapon": ["Power fist"]}
    assert "Chosen Champion: Boltgun" not in " ".join(
        sheet("Heretic Astartes", "Chosen").wargear_unread)


def test_the_chosen_champion_takes_a_power_fist_or_a_combi_weapon_not_both() -> None:
    ds = sheet("Heretic Astartes", "Chosen")
    for n in (5, 10):
        for ok in ({"power fist": 1}, {"combi-weapon": 1}):
            loadouts, problems = resolve(ds, n, {"Chosen Champion": ok})
            assert problems == [], (n, ok, problems)
            champ = [lo.items for lo in loadouts if lo.profile == "Chosen Champion"]
            assert len(champ) == 1 and ("Boltgun" in champ[0]) == ("power fist" in ok)
        _, problems = resolve(ds, n, {"Chosen Champion": {"power fist": 1, "combi-weapon": 1}})
        assert codes(problems) == ["BA197"], problems
        assert "Chosen Champion takes Combi-weapon only without Power fist" in \
            problems[0].message
    # the other Chosen's power fists and combi-weapons are not bound so
    assert resolve(ds, 10, {"power fist": 2, "combi-weapon": 4})[1] == []


def test_the_bound_through_bagm_validate(tmp_path: Path) -> None:
    code, text = validate_file(tmp_path, CHOSEN.format(n=5, champion="power fist: 1"))
    assert code == 0, text
    code, text = validate_file(tmp_path, CHOSEN.format(
        n=5, champion="power fist: 1, combi-weapon: 1"))
    assert code == 1 and "9 │ BA197" in text and "Combi-weapon only without Power fist" in text


def test_the_default_champion_meets_it() -> None:
    ds = sheet("Heretic Astartes", "Chosen")
    for n in (5, 10):
        champ = [lo.items for lo in default_loadouts(ds, n) if lo.profile == "Chosen Champion"]
        assert champ == [("Bolt pistol", "Boltgun and accursed weapon", "Boltgun",
                          "Accursed weapon")]


# --- the reader's form, on a catalogue of its own -----------------------------------------------

def _boss_catalogue(gun_hi: int) -> str:
    """A Boss whose gun choice (``gun_hi`` picks at most) is a Gun or a Rifle, the Gun's
    minimum set to 1 while he carries a Fist (his other choice: a Blade or a Fist)."""
    from test_bsdata import _bounds, _group, _unit_xml, _weapon_xml, catalogue_of
    from test_wargear_beside import _cond

    def item(ident: str, name: str, mods: str = "", lo: int | None = None) -> str:
        return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, lo, None)}</constraints>"
                + (f"<modifiers>{mods}</modifiers>" if mods else "")
                + f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")

    fist_held = _cond("atLeast", 1, "model", "g-fist")
    gun = item("g-gun", "Gun", '<modifier type="set" value="1" field="c-g-gun-min">'
               f"<conditions>{fist_held}</conditions></modifier>", lo=0)
    guns = _group("grp-gun", "Gun", gun + item("g-rifle", "Rifle"), 1, gun_hi, default="g-gun")
    melee = _group("grp-melee", "Melee", item("g-blade", "Blade") + item("g-fist", "Fist"), 1,
                   1, default="g-blade")
    boss = ('<selectionEntry type="model" name="Boss" hidden="false" id="m-boss">'
            f"<constraints>{_bounds('m-boss', 1, 1)}</constraints>"
            f"<profiles>{_unit_xml('m-boss', 'Boss')}</profiles>"
            f"<selectionEntryGroups>{guns}{melee}</selectionEntryGroups></selectionEntry>")
    unit = ('<selectionEntry type="unit" name="Gang" hidden="false" id="u-gang">'
            f"<selectionEntries>{boss}</selectionEntries></selectionEntry>")
    return catalogue_of("cat-gang", "Imperium - Gang Test", unit)


def test_an_items_minimum_set_by_another_item_of_the_model_is_read(tmp_path: Path) -> None:
    """In a choice of one, the Gun required beside a Fist is the Rifle not taken beside it;
    in a choice of up to 2 it says more (the Gun as well as the Rifle): named, not read."""
    from test_bsdata import read_test_catalogue

    gang = read_test_catalogue(tmp_path, "Imperium - Gang Test", _boss_catalogue(1))["Gang"]
    guns = next(c for c in gang["wargear"][0]["choices"] if "Rifle" in c["of"])
    assert guns["item_unless"] == {"Rifle": ["Fist"]}
    assert not gang.get("wargear_unread")
    gang = read_test_catalogue(tmp_path, "Imperium - Gang Test", _boss_catalogue(2))["Gang"]
    guns = next(c for c in gang["wargear"][0]["choices"] if "Rifle" in c["of"])
    assert "item_unless" not in guns
    assert gang["wargear_unread"] == ["Boss: Gun: minimum set to 1 while Fist >= 1"]
