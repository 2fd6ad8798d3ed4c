"""Wargear in rosters (issue 13 section 1): choices checked against the datasheet's options,
with codes BA190-BA195, file lines and suggestions; default wargear when none is named.

The bundled Adeptus Astartes datasheets are the data (their options come from the catalogues):
Tactical Squad (a sergeant with two weapon choices, one special and one heavy-or-special
Marine), Sternguard Veteran Squad, Intercessor Squad (up to two grenade launchers).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bagm.data.packs import Catalog, data_dirs
from bagm.roster.model import load_roster
from bagm.roster.report import ValidationReport
from bagm.roster.validate import validate
from bagm.roster.wargear import default_loadouts, item_weapons, offered, resolve

HEAD = """faction: Adeptus Astartes
detachment: Shield of the Void
units:
  - unit: Captain
    warlord: true
  - unit: Tactical Squad
    models: 10
"""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog()


@pytest.fixture
def check(catalog: Catalog, tmp_path: Path):
    def run(wargear: str, head: str = HEAD) -> ValidationReport:
        path = tmp_path / "r.yaml"
        path.write_text(head + wargear, encoding="utf-8")
        return validate(load_roster(path), catalog)
    return run


def ds(catalog: Catalog, name: str):
    return catalog.faction("Adeptus Astartes").units.get(name)


def codes(r: ValidationReport) -> list[str]:
    return [f.code for f in r.findings]


def loadouts(r: ValidationReport, index: int = 1) -> dict[tuple[str | None, tuple[str, ...]], int]:
    return {(lo.profile, lo.items): lo.count for lo in r.units[index].loadouts}


# --- passing -------------------------------------------------------------------------------

def test_no_wargear_is_the_default_and_valid(check, catalog: Catalog) -> None:
    r = check("")
    assert r.valid and codes(r) == [] and r.units[1].loadouts == []  # not worked out
    got = {(lo.profile, lo.items): lo.count
           for lo in default_loadouts(ds(catalog, "Tactical Squad"), 10)}
    assert got[("Tactical Marine Sergeant", ("Close combat weapon", "Bolt pistol", "Boltgun"))] == 1
    assert got[("Tactical Squad", ("Bolt pistol", "Close combat weapon", "Boltgun"))] == 9
    assert sum(got.values()) == 10


def test_a_special_weapon_and_the_sergeants_choices(check) -> None:
    r = check("    wargear:\n      meltagun: 1\n      missile launcher: 1\n"
              "      Tactical Marine Sergeant: {power fist: 1, combi-weapon: 1}\n")
    assert r.valid, r.findings
    got = loadouts(r)
    assert got[("Tactical Marine Sergeant", ("Close combat weapon", "Power fist", "Combi-weapon"))] == 1
    assert got[("Tactical Squad", ("Bolt pistol", "Close combat weapon", "Meltagun"))] == 1
    assert got[("Tactical Squad", ("Bolt pistol", "Close combat weapon", "Missile Launcher"))] == 1
    assert got[("Tactical Squad", ("Bolt pistol", "Close combat weapon", "Boltgun"))] == 7
    assert sum(got.values()) == 10


def test_names_are_matched_loosely_and_by_a_weapon_profile(check) -> None:
    r = check("    wargear: {MELTAGUN: 1, plasma gun - supercharge: 1}\n")
    assert r.valid, r.findings
    items = {i for lo in r.units[1].loadouts for i in lo.items}
    assert {"Meltagun", "Plasma gun"} <= items


def plain(catalog: Catalog) -> dict[tuple[str | None, tuple[str, ...]], int]:
    return {(lo.profile, lo.items): lo.count
            for lo in default_loadouts(ds(catalog, "Tactical Squad"), 10)}


def test_naming_a_default_with_its_default_count_changes_nothing(check, catalog: Catalog) -> None:
    r = check("    wargear: {boltgun: 10, bolt pistol: 10}\n")
    assert r.valid and loadouts(r) == plain(catalog)


def test_zero_of_an_option_is_none_of_it(check, catalog: Catalog) -> None:
    r = check("    wargear: {meltagun: 0}\n")
    assert r.valid and loadouts(r) == plain(catalog)


# --- failing, with codes, lines and suggestions ----------------------------------------------

def test_unknown_item_suggests_the_options(check) -> None:
    r = check("    wargear:\n      melta gun: 1\n")
    assert codes(r) == ["BA190"]
    f = r.findings[0]
    assert f.line == 9 and f.unit == "Tactical Squad" and "'Meltagun'" in f.message


def test_unknown_profile_is_named_with_the_profiles(check) -> None:
    r = check("    wargear:\n      Sergant: {power fist: 1}\n")
    assert codes(r) == ["BA193"] and r.findings[0].line == 9
    assert "Tactical Marine Sergeant" in r.findings[0].message


def test_an_item_of_another_profile(check) -> None:
    # the sergeant's power fist is not an option of the other Marines
    r = check("    wargear:\n      Tactical Squad: {power fist: 1}\n")
    assert codes(r) == ["BA191"] and "at most 0" in r.findings[0].message
    assert r.findings[0].line == 9


def test_more_than_the_models_that_can_take_it(check) -> None:
    r = check("    wargear: {meltagun: 3}\n")  # one special and one heavy-or-special Marine
    assert codes(r) == ["BA191"] and "at most 2" in r.findings[0].message


def test_choices_that_compete_for_the_same_models(check) -> None:
    # two slots take a special or heavy weapon; three such weapons cannot all be carried
    r = check("    wargear: {meltagun: 1, flamer: 1, lascannon: 1}\n")
    assert "BA192" in codes(r) or "BA191" in codes(r)
    assert not r.valid


def test_a_default_item_named_with_a_wrong_count(check) -> None:
    r = check("    wargear: {boltgun: 8}\n")
    assert codes(r) == ["BA192"] and "10 model(s) carry Boltgun" in r.findings[0].message


def test_negative_and_too_large_counts(check) -> None:
    assert codes(check("    wargear: {meltagun: -1}\n")) == ["BA195"]
    assert codes(check("    wargear: {boltgun: 11}\n")) == ["BA195"]


def test_a_count_must_be_a_whole_number(tmp_path: Path) -> None:
    from bagm.io.yamlsafe import InputError

    path = tmp_path / "r.yaml"
    path.write_text(HEAD + "    wargear: {meltagun: one}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_roster(path)
    assert err.value.line == 8 and "whole number" in err.value.message


BURNAS = ("faction: Orks\ndetachment: Ramship Raiders\nunits:\n  - unit: Boss Nob\n"
          "    warlord: true\n  - unit: Burna Boyz\n    models: 5\n")


def test_no_options_recorded_is_a_warning(tmp_path: Path) -> None:
    # a pack whose datasheet records no options (here an overlay that removes them)
    data = tmp_path / "data"
    data.mkdir()
    (data / "orks.yaml").write_text("faction: Orks\nunits:\n  - {name: Burna Boyz, wargear: []}\n",
                                    encoding="utf-8")
    path = tmp_path / "r.yaml"
    path.write_text(BURNAS + "    wargear: {burna: 5}\n", encoding="utf-8")
    r = validate(load_roster(path), Catalog(data_dirs([data])))
    assert "BA194" in codes(r)
    assert next(f for f in r.findings if f.code == "BA194").line == 8


def test_a_bundled_unit_checks_its_models_wargear(check) -> None:
    # Burna Boyz come as "4 Burna Boyz and 1 Spanner": the Spanner carries no burna
    r = check("    wargear: {burna: 5}\n", BURNAS)
    found = next(f for f in r.findings if f.code == "BA191")
    assert "at most 4" in found.message and found.line == 8
    assert not [c for c in codes(check("    wargear: {rokkit launcha: 1}\n", BURNAS)) if c.startswith("BA19")]


# --- boundaries -------------------------------------------------------------------------------

def test_the_most_of_an_option_passes_and_one_more_fails(catalog: Catalog) -> None:
    squad = ds(catalog, "Intercessor Squad")
    for n in (5, 10):
        got, problems = resolve(squad, n, {"astartes grenade launcher": 2})
        assert problems == [] and sum(lo.count for lo in got) == n
        _, problems = resolve(squad, n, {"astartes grenade launcher": 3})
        assert [p.code for p in problems] == ["BA191"]


def test_every_model_swapped_where_the_datasheet_allows_it(catalog: Catalog) -> None:
    # Sternguard: any number of Veterans can carry a combi-weapon; the sergeant too
    squad = ds(catalog, "Sternguard Veteran Squad")
    got, problems = resolve(squad, 5, {"combi-weapon": 5})
    assert problems == []
    assert all("Combi-weapon" in lo.items for lo in got) and sum(lo.count for lo in got) == 5
    _, problems = resolve(squad, 5, {"combi-weapon": 6})
    assert [p.code for p in problems] == ["BA195"]


def test_default_loadouts_add_up_for_every_datasheet_and_size(catalog: Catalog) -> None:
    from bagm.roster.points import legal_sizes

    checked = 0
    for faction in catalog.all():
        for sheet in faction.pack.units:
            for n in legal_sizes(sheet.points, sheet.sizes, None):
                got = default_loadouts(sheet, n)
                assert not sheet.wargear or sum(lo.count for lo in got) == n, sheet.name
                checked += bool(sheet.wargear)
    assert checked > 500


def _none_at_size(sheet: Any, item: str, n: int) -> bool:
    """Every kind of model and choice offering ``item`` is bound to 0 in a unit of ``n`` (the
    catalogues' "no Oversight Drone below 10 models")."""
    places = [k.most(n) for k in sheet.wargear if item in k.gear and k.model is not None] + \
        [c.most(n) for k in sheet.wargear for c in k.choices if item in c.of]
    return bool(places) and all(m == 0 for m in places)


def test_every_option_not_carried_by_default_can_be_taken_once(catalog: Catalog) -> None:
    """A class test over all units: each option the data records can be chosen on its own."""
    from bagm.roster.points import legal_sizes

    tried = 0
    for faction in catalog.all():
        for sheet in faction.pack.units:
            for n in legal_sizes(sheet.points, sheet.sizes, None):
                carried = {i for lo in default_loadouts(sheet, n) for i in lo.items}
                for item in offered(sheet):
                    if item in carried or _none_at_size(sheet, item, n):
                        continue
                    wanted = {item: 1}
                    for k in sheet.wargear:  # ruled out by a default item: name a change
                        for c in k.choices:
                            if item in c.of and set(c.unless) & carried:
                                other = next(d for d in k.choices if set(d.of) & set(c.unless))
                                wanted[next(i for i in other.of if i not in c.unless)] = 1
                            if item in c.of and c.unit_needs and not set(c.unit_needs) & carried:
                                wanted[c.unit_needs[0]] = 1  # made only beside it: name it
                            for need in c.item_needs.get(item, []):  # taken only with it
                                wanted.setdefault(need, 1)
                            if c.item_unit_unless.get(item):  # the unit's models take it too
                                wanted[item] = n
                    if any(b.alike and item in b.items for b in sheet.wargear_item_bounds):
                        wanted[item] = n  # every model taking one of its set takes the same
                    got, problems = resolve(sheet, n, wanted)
                    assert problems == [], (sheet.name, n, item, problems)
                    assert sum(lo.count for lo in got) == n
                    tried += 1
    assert tried > 1000


def test_items_name_their_weapons(catalog: Catalog) -> None:
    tactical = ds(catalog, "Tactical Squad")
    assert {w.name for w in item_weapons(tactical, "Plasma gun")} == {
        "Plasma gun - standard", "Plasma gun - supercharge"}
    intercessors = ds(catalog, "Intercessor Squad")
    assert "Bolt Rifle" in {w.name for w in item_weapons(intercessors,
                                                         "Bolt Rifle w/ Grenade Launcher")}


def test_rosters_without_wargear_are_unchanged(catalog: Catalog) -> None:
    """Every bundled roster names no wargear and still validates as before (no BA19x)."""
    rosters = sorted((Path(__file__).parents[1] / "rosters").glob("*.yaml"))
    assert rosters
    for path in rosters:
        r = validate(load_roster(path), catalog)
        assert r.valid and not any(f.code.startswith("BA19") for f in r.findings), path


# --- import, export, edit (issue 13 section 1, second step) ----------------------------------

COMMENTED = HEAD.replace("  - unit: Captain\n", "  # the boss\n  - unit: Captain   # ours\n") + \
    "    # melta for the doors\n    wargear: {meltagun: 1}   # keep this\n# end\n"


def run(*args: object):  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from bagm.cli.app import app

    return CliRunner().invoke(app, [str(a) for a in args])


def test_export_text_writes_each_loadout_and_import_reads_it_back(check, catalog: Catalog,
                                                                  tmp_path: Path) -> None:
    from bagm.render.export import RosterSheet, to_text
    from bagm.roster.importer import import_file, roster_yaml

    wargear = ("    wargear:\n      meltagun: 1\n      missile launcher: 1\n"
               "      Tactical Marine Sergeant: {power fist: 1, combi-weapon: 1}\n")
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + wargear, encoding="utf-8")
    text = to_text(RosterSheet.of(path, catalog))
    assert "  • 1x Tactical Marine Sergeant\n     ◦ 1x Close combat weapon\n" \
           "     ◦ 1x Power fist\n     ◦ 1x Combi-weapon\n" in text
    assert "  • 7x Tactical Squad\n     ◦ 7x Bolt pistol\n" in text
    listed = tmp_path / "list.txt"
    listed.write_text(text, encoding="utf-8")
    result = import_file(listed, catalog)
    assert result.ok
    assert result.roster["units"][1]["wargear"] == {
        "Power fist": 1, "Combi-weapon": 1, "Meltagun": 1, "Missile Launcher": 1}
    back = tmp_path / "back.yaml"
    back.write_text(roster_yaml(result), encoding="utf-8")
    again = validate(load_roster(back), catalog)
    assert again.valid and loadouts(again) == loadouts(check(wargear))


def test_export_without_wargear_is_unchanged(catalog: Catalog, tmp_path: Path) -> None:
    """A roster that names no wargear exports as before: no loadout lines, no JSON key."""
    from bagm.render.export import RosterSheet, to_json, to_markdown, to_text

    path = tmp_path / "r.yaml"
    path.write_text(HEAD, encoding="utf-8")
    sheet = RosterSheet.of(path, catalog)
    assert "◦" not in to_text(sheet) and "  • 10 models\n" in to_text(sheet)
    assert "wargear" not in to_json(sheet) and "Wargear" not in to_markdown(sheet)


def test_json_export_carries_the_mapping_and_imports_as_written(catalog: Catalog,
                                                                tmp_path: Path) -> None:
    import json

    from bagm.render.export import RosterSheet, to_json
    from bagm.roster.importer import import_file

    path = tmp_path / "r.yaml"
    path.write_text(HEAD + "    wargear: {Tactical Marine Sergeant: {power fist: 1}}\n",
                    encoding="utf-8")
    exported = to_json(RosterSheet.of(path, catalog))
    assert json.loads(exported)["units"][1]["wargear"] == {
        "Tactical Marine Sergeant": {"power fist": 1}}
    out = tmp_path / "r.json"
    out.write_text(exported, encoding="utf-8")
    assert import_file(out, catalog).roster["units"][1]["wargear"] == {
        "Tactical Marine Sergeant": {"power fist": 1}}
    bad = json.loads(exported)
    bad["units"][1]["wargear"] = {"power fist": "one"}
    out.write_text(json.dumps(bad), encoding="utf-8")
    result = import_file(out, catalog)
    assert "wargear" not in result.roster["units"][1] and not result.ok  # said, not dropped


@pytest.mark.skipif(not (Path(__file__).parent / "fixtures" / "import").is_dir(),
                    reason="no import fixtures")
def test_imported_exports_keep_their_options() -> None:
    """.ros, the app's text and New Recruit's WTC text: the options that differ from the
    default are kept (defaults need no line); what is not an option is said."""
    from bagm.roster.importer import import_file

    fixtures = Path(__file__).parent / "fixtures" / "import"
    ros = import_file(fixtures / "grey_knights_void_purge.ros")
    assert ros.roster["units"][2]["wargear"] == {"Psycannon": 1}
    app_text = import_file(fixtures / "app_ultramarines.txt")
    assert app_text.roster["units"][2]["wargear"] == {"Astartes grenade launcher": 1}
    wtc = import_file(fixtures / "wtc_compact_orks.txt")
    assert wtc.roster["units"][2]["wargear"] == {"Power klaw": 5}  # "5 with Power klaw"
    assert any("wargear options kept for 4 unit(s)" in n for n in wtc.notes)
    necrons = import_file(fixtures / "wtc_necrons.txt")
    assert any("not kept (line 14: Canoptek cloak" in n for n in necrons.notes)


def test_from_lines_keeps_what_fits_and_names_the_rest(catalog: Catalog) -> None:
    from bagm.roster.wargear import from_lines

    squad = ds(catalog, "Tactical Squad")
    wanted, dropped = from_lines(squad, 10, [(9, "Bolt pistol"), (1, "Meltagun"),
                                             (1, "Lascannon"), (1, "Flamer"), (2, "Banana")])
    assert wanted == {"Meltagun": 1, "Lascannon": 1}  # the last line that does not fit goes
    assert dropped == ["2x Banana", "Flamer"]


def test_set_and_add_edit_wargear_and_keep_comments(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(COMMENTED, encoding="utf-8")
    result = run("set", path, "Tactical Squad", "--wargear", "flamer=1", "-g", "meltagun=0",
                 "-g", "Tactical Marine Sergeant: power fist")
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    for comment in ("# the boss", "# ours", "# melta for the doors", "# keep this", "# end"):
        assert comment in text
    unit = load_roster(path).file.units[1]
    assert unit.wargear == {"Flamer": 1, "Tactical Marine Sergeant": {"Power fist": 1}}
    assert run("set", path, "2", "-g", "").exit_code == 0  # '' : back to the default
    assert load_roster(path).file.units[1].wargear is None
    assert "# end" in path.read_text(encoding="utf-8")
    added = run("add", path, "Intercessor Squad", "--models", "5", "-g",
                "astartes grenade launcher=2")
    assert added.exit_code == 0, added.output
    assert load_roster(path).file.units[2].wargear == {"Astartes grenade launcher": 2}
    assert not [p for p in tmp_path.iterdir() if p.name != "r.yaml"]  # atomic: no leftovers


@pytest.mark.parametrize("option, message", [
    ("melta gun=1", "did you mean 'Meltagun'"),
    ("meltagun=x", "must be a whole number"),
    ("meltagun=-1", "cannot be negative"),
    ("Sargent: power fist=1", "no model profile 'Sargent'"),
    ("=1", "names no wargear item"),
])
def test_bad_wargear_edits_are_refused_with_a_hint(option: str, message: str,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(COMMENTED, encoding="utf-8")
    result = run("set", path, "Tactical Squad", "-g", option)
    assert result.exit_code == 2 and message in result.output
    assert path.read_text(encoding="utf-8") == COMMENTED


def test_an_edit_that_breaks_a_wargear_rule_needs_force(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(COMMENTED, encoding="utf-8")
    result = run("set", path, "Tactical Squad", "-g", "meltagun=3")
    assert result.exit_code != 0 and "BA191" in result.output
    assert path.read_text(encoding="utf-8") == COMMENTED
    forced = run("set", path, "Tactical Squad", "-g", "meltagun=3", "--force")
    assert forced.exit_code == 1 and "written with --force" in forced.output


def test_the_datasheet_shows_each_kind_of_model_and_its_choices() -> None:
    import json

    out = run("datasheet", "Tactical Squad", "--faction", "Adeptus Astartes")
    assert out.exit_code == 0
    assert "Tactical Marine w/Special Weapon (0-1): Bolt pistol, Close combat weapon; one of " \
           "Flamer / Meltagun / Plasma gun / Grav-gun" in " ".join(out.stdout.split())
    data = json.loads(run("datasheet", "Tactical Squad", "--faction", "Adeptus Astartes",
                          "-f", "json").stdout)
    sergeant = next(k for k in data["wargear"] if k["model"] == "Tactical Marine Sergeant")
    assert sergeant["choices"][1]["default"] == "Bolt pistol" and sergeant["max"] == 1


@pytest.mark.parametrize("models, most", [(5, 1), (10, 2)])
def test_a_strike_squad_takes_a_heavy_weapon_per_five_models(catalog: Catalog, models: int,
                                                               most: int) -> None:
    squad = catalog.faction("Grey Knights").units.get("Strike Squad")
    got, problems = resolve(squad, models, {"psycannon": most})
    assert problems == [] and sum(lo.count for lo in got) == models
    assert resolve(squad, models, {"psycannon": 1, "incinerator": most - 1})[1] == []
    _, problems = resolve(squad, models, {"psycannon": most, "psilencer": 1})
    assert [p.code for p in problems] in (["BA191"], ["BA192"])
