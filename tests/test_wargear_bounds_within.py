"""Wargear bounds the catalogues change by another choice of the same model or of the unit,
read and checked (issue 13 section 1): the Chosen Champion's combi-weapon not beside his power
fist (``item_unless``); Death Company Marines with Bolt Rifles, one Marine replacing his close
combat weapon and one his bolt rifle (``unit_max``); Death Company Marines with Jump Packs, up
to 2 Marines (3 from 10) with a hand flamer, an inferno pistol, a power fist or a power weapon
(``per_model``). Each at its boundary through the loadout search (``resolve``) and
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


# --- Death Company Marines with Bolt Rifles: one swap of each kind in the squad ----------------

BOLT_RIFLES = """faction: Adeptus Astartes
detachment: Boarding Strike
units:
  - unit: Captain
    warlord: true
  - unit: Death Company Marines with Bolt Rifles
    models: {n}
    wargear: {{{wargear}}}
"""


def test_the_bolt_rifle_is_the_default_of_its_swap_and_each_swap_is_bound() -> None:
    """The catalogue sets the alternate-weapons Marine's bolt rifle's minimum to 0: it is the
    default of his choice beside a hand flamer, an inferno or plasma pistol or an Astartes
    chainsword, not always carried (he carried both before). Each of his two choices has
    up to 2 picks across the squad, 1 while no Marine keeps its default, and 2 Marines at
    most make it: at most 1 takes other than the default."""
    ds = sheet("Adeptus Astartes", "Death Company Marines with Bolt Rifles")
    alt = next(k for k in ds.wargear if k.model == "Death Company Marine w/ alternate weapons")
    assert alt.gear == ["Bolt pistol"] and alt.max == 2
    assert [(c.default, c.unit_max) for c in alt.choices] == [("Close Combat Weapon", 1),
                                                             ("Bolt Rifle", 1)]
    assert "Bolt Rifle" in alt.choices[1].of and not ds.wargear_unread


def test_one_marine_replaces_his_close_combat_weapon_and_one_his_bolt_rifle() -> None:
    ds = sheet("Adeptus Astartes", "Death Company Marines with Bolt Rifles")
    for n in (5, 10):
        for ok in ({"power fist": 1}, {"plasma pistol": 1}, {"power fist": 1, "plasma pistol": 1},
                   {"thunder hammer": 1, "hand flamer": 1, "eviscerator": 1},
                   # the chainsword both swaps offer: one each
                   {"astartes chainsword": 2}, {"power weapon": 1, "astartes chainsword": 1}):
            loadouts, problems = resolve(ds, n, ok)
            assert problems == [], (n, ok, problems)
            assert sum(lo.count for lo in loadouts) == n
        for bad, swap in (({"power fist": 1, "thunder hammer": 1}, "Close Combat Weapon"),
                          ({"plasma pistol": 1, "hand flamer": 1}, "Bolt Rifle"),
                          ({"power fist": 1, "astartes chainsword": 2}, "Bolt Rifle")):
            _, problems = resolve(ds, n, bad)
            assert codes(problems) == ["BA197"], (n, bad, problems)
            assert "at most 1 Death Company Marine w/ alternate weapons in the unit takes " \
                   "one of" in problems[0].message and f"for {swap}" in problems[0].message
    # a Marine who swaps his bolt rifle carries none
    loadouts, _ = resolve(ds, 5, {"inferno pistol": 1})
    assert [lo.items for lo in loadouts if "Inferno Pistol" in lo.items] == [
        ("Bolt pistol", "Close Combat Weapon", "Inferno Pistol")]


def test_the_swaps_through_bagm_validate(tmp_path: Path) -> None:
    code, text = validate_file(tmp_path, BOLT_RIFLES.format(
        n=5, wargear="power fist: 1, inferno pistol: 1"))
    assert code == 0, text
    code, text = validate_file(tmp_path, BOLT_RIFLES.format(
        n=5, wargear="inferno pistol: 1, plasma pistol: 1"))
    assert code == 1 and "BA197" in text and "for Bolt Rifle" in text, text


def test_bagm_datasheet_shows_the_swaps_bounds() -> None:
    out = CliRunner().invoke(app, ["datasheet", "Death Company Marines with Bolt Rifles"])
    text = " ".join(out.output.split())
    assert out.exit_code == 0 and "Bounds not read" not in text
    assert "Hand flamer / Inferno Pistol / Plasma pistol / Astartes Chainsword / Bolt Rifle (at " \
        "most 1 model(s) of the unit take other than Bolt Rifle)" in text


def test_the_default_death_company_meets_them() -> None:
    ds = sheet("Adeptus Astartes", "Death Company Marines with Bolt Rifles")
    for n in (5, 10):
        assert all("Bolt Rifle" in lo.items or "Eviscerator" in lo.items
                   for lo in default_loadouts(ds, n))


# --- the reader's forms, on a catalogue of its own ----------------------------------------------

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


def _squad_catalogue(cap: int, lowered: int) -> str:
    """Troopers and up to 2 Specials (5-10 models in a group), a Special's swap of his Knife
    for an Axe or a Maul having ``cap`` picks at most across the squad, ``lowered`` while
    no Special keeps his Knife (the Death Company's form)."""
    from test_bsdata import _bounds, _unit_xml, _weapon_xml, catalogue_of
    from test_wargear_beside import _cond

    def item(ident: str, name: str) -> str:
        return (f'<selectionEntry type="upgrade" name="{name}" hidden="false" id="{ident}">'
                f"<profiles>{_weapon_xml(ident, name)}</profiles></selectionEntry>")

    swap = ('<selectionEntryGroup name="Swap" hidden="false" id="grp-swap" '
            'defaultSelectionEntryId="g-knife"><constraints>' + _bounds("grp-swap", 1, 1)
            + f'<constraint type="max" value="{cap}" field="selections" scope="grp-models" '
            'shared="true" id="c-swap-unit" includeChildSelections="true"/></constraints>'
            f'<modifiers><modifier type="set" value="{lowered}" field="c-swap-unit"><conditions>'
            + _cond("equalTo", 0, "grp-models", "g-knife")
            + "</conditions></modifier></modifiers><selectionEntries>"
            + item("g-knife", "Knife") + item("g-axe", "Axe") + item("g-maul", "Maul")
            + "</selectionEntries></selectionEntryGroup>")

    def model(ident: str, name: str, hi: int, inner: str) -> str:
        return (f'<selectionEntry type="model" name="{name}" hidden="false" id="{ident}">'
                f"<constraints>{_bounds(ident, None, hi)}</constraints>"
                f"<profiles>{_unit_xml(ident, 'Trooper')}</profiles>{inner}</selectionEntry>")

    trooper = model("m-trooper", "Trooper", 10, "<selectionEntries>" + item("g-gun", "Gun")
                    .replace('id="g-gun">', 'id="g-gun"><constraints>'
                             + _bounds("g-gun", 1, 1) + "</constraints>")
                    + "</selectionEntries>")
    special = model("m-special", "Special", 2,
                    f"<selectionEntryGroups>{swap}</selectionEntryGroups>")
    models = ('<selectionEntryGroup name="Models" hidden="false" id="grp-models" '
              'defaultSelectionEntryId="m-trooper"><constraints>' + _bounds("grp-models", 5, 10)
              + f"</constraints><selectionEntries>{trooper}{special}</selectionEntries>"
              "</selectionEntryGroup>")
    unit = ('<selectionEntry type="unit" name="Squad" hidden="false" id="u-sq">'
            f"<selectionEntryGroups>{models}</selectionEntryGroups></selectionEntry>")
    return catalogue_of("cat-sq", "Imperium - Swap Test", unit)


def test_a_choices_maximum_across_the_unit_while_none_keeps_its_default_is_read(
        tmp_path: Path) -> None:
    """Up to 2 picks, 1 while none keeps the Knife, 2 Specials at most: one takes an Axe or
    a Maul (``unit_max``), checked; up to 2, 0 while none keeps it says more (a lone
    Special keeps his Knife): named."""
    from test_bsdata import read_test_catalogue

    from bagm.data import models
    from bagm.data.schema import validate as validate_model

    squad = read_test_catalogue(tmp_path, "Imperium - Swap Test", _squad_catalogue(2, 1))["Squad"]
    special = next(k for k in squad["wargear"] if k["model"] == "Special")
    assert special["choices"] == [{"of": ["Knife", "Axe", "Maul"], "min": 1,
                                   "default": "Knife", "unit_max": 1}]
    assert not squad.get("wargear_unread")
    ds = validate_model(models.Datasheet, dict(squad, points={5: 50, 10: 100}))
    assert resolve(ds, 5, {"axe": 1})[1] == []
    assert codes(resolve(ds, 5, {"axe": 1, "maul": 1})[1]) == ["BA197"]
    squad = read_test_catalogue(tmp_path, "Imperium - Swap Test", _squad_catalogue(2, 0))["Squad"]
    special = next(k for k in squad["wargear"] if k["model"] == "Special")
    assert "unit_max" not in special["choices"][0]
    assert squad["wargear_unread"] == ["Special: Swap: maximum set to 0 while Knife = 0"]


# --- Death Company Marines with Jump Packs: pistol and melee swaps share a pool of Marines ------

JUMP_PACKS = BOLT_RIFLES.replace("with Bolt Rifles", "with Jump Packs")


def test_the_jump_packs_hand_flamer_and_inferno_pistol_are_read_as_a_pool() -> None:
    """The catalogue lowers the hand flamer's (and the inferno pistol's) maximum by 1 while the
    Marine carrying it has no power fist or power weapon and the squad has 2 of them, again
    at 3 from 10 models: one pool, up to 2 Marines (3 from 10) with one or more of the four.
    Each item's own bound stays as read."""
    ds = sheet("Adeptus Astartes", "Death Company Marines with Jump Packs")
    pools = [b for b in ds.wargear_item_bounds if b.per_model]
    assert [(b.items, b.max, b.max_from) for b in pools] == [
        (["Hand flamer", "Inferno Pistol", "Power fist", "Power weapon"], 2, {10: 3})]
    assert not ds.wargear_unread
    assert (["Hand flamer", "Inferno Pistol"], 1, {10: 2}) in [
        (b.items, b.max, b.max_from) for b in ds.wargear_item_bounds]


def test_the_pool_at_its_edges() -> None:
    """At the limit (2 Marines of 5, 3 of 10, a hand flamer beside a power fist on one) the
    squad passes; a Marine more is BA197 naming the pool."""
    ds = sheet("Adeptus Astartes", "Death Company Marines with Jump Packs")
    pool = "models in a unit of {n} carry one or more of Hand flamer / Inferno Pistol / " \
        "Power fist / Power weapon"
    for n, ok, over in ((5, {"power fist": 1, "power weapon": 1, "hand flamer": 1},
                         {"power fist": 2, "power weapon": 1}),
                        (10, {"power fist": 2, "power weapon": 1, "hand flamer": 1,
                              "inferno pistol": 1},
                         {"power fist": 3, "power weapon": 1})):
        loadouts, problems = resolve(ds, n, ok)
        assert problems == [], (n, ok, problems)
        keys = {"Hand flamer", "Inferno Pistol", "Power fist", "Power weapon"}
        assert sum(lo.count for lo in loadouts if keys & set(lo.items)) == (2 if n == 5 else 3)
        _, problems = resolve(ds, n, over)
        assert codes(problems) == ["BA197"] and pool.format(n=n) in problems[0].message, \
            problems


def test_the_pool_through_bagm_validate(tmp_path: Path) -> None:
    code, text = validate_file(tmp_path, JUMP_PACKS.format(
        n=10, wargear="power fist: 3, hand flamer: 2"))
    assert code == 0, text
    code, text = validate_file(tmp_path, JUMP_PACKS.format(
        n=10, wargear="power fist: 3, power weapon: 1"))
    assert code == 1 and "8 │ BA197" in text and "at most 3 models in a unit of 10 carry one " \
        "or more of Hand flamer / Inferno Pistol / Power fist / Power weapon" in text, text


def test_bagm_datasheet_shows_the_pool() -> None:
    out = CliRunner().invoke(app, ["datasheet", "Death Company Marines with Jump Packs"])
    text = " ".join(out.output.split())
    assert out.exit_code == 0 and "Bounds not read" not in text
    assert "Models with one or more of these in the unit (up to 2; up to 3 from 10 models): " \
        "Hand flamer / Inferno Pistol / Power fist / Power weapon" in text


def test_the_default_jump_packs_meet_it() -> None:
    ds = sheet("Adeptus Astartes", "Death Company Marines with Jump Packs")
    for n in (5, 10):
        assert [(lo.count, lo.items) for lo in default_loadouts(ds, n)] == [
            (n, ("Astartes Chainsword", "Heavy Bolt Pistol"))]


def test_a_pool_of_models_is_checked_where_the_items_cannot_share_a_model() -> None:
    """A bound over the models carrying one or more of its items counts a model carrying two
    once: Gunners (a gun always, a sword or an axe) and Troopers (a sword, an axe or a
    maul), at most 2 models with a gun or an axe: 2 Gunners with axes pass (4 items), a
    third axe does not."""
    from bagm.data import models
    from bagm.data.schema import validate as validate_model

    ds = validate_model(models.Datasheet, {
        "name": "Band", "keywords": ["INFANTRY"], "faction_keywords": ["IMPERIUM"],
        "points": {5: 50},
        "models": [{"name": "Trooper", "M": 6, "T": 4, "Sv": 4, "W": 1, "Ld": 7, "OC": 1}],
        "weapons": [], "wargear": [
            {"model": "Gunner", "profile": "Trooper", "min": 0, "max": 2, "gear": ["Gun"],
             "choices": [{"of": ["Sword", "Axe"], "min": 1, "default": "Sword"}]},
            {"model": "Trooper", "profile": "Trooper", "min": 0, "max": 5,
             "choices": [{"of": ["Sword", "Axe", "Maul"], "min": 1, "default": "Sword"}]}],
        "wargear_item_bounds": [{"items": ["Gun", "Axe"], "max": 2, "per_model": True}]})
    assert resolve(ds, 5, {"gun": 1, "axe": 1})[1] == []
    loadouts, problems = resolve(ds, 5, {"gun": 2, "axe": 2})
    assert problems == [] and [lo.items for lo in loadouts if "Gun" in lo.items] == [
        ("Gun", "Axe")]
    problems = resolve(ds, 5, {"gun": 2, "axe": 3})[1]
    assert codes(problems) == ["BA197"] and "at most 2 models in a unit of 5 carry one or " \
        "more of Gun / Axe" in problems[0].message
