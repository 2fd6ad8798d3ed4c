"""Importing lists from BattleScribe, New Recruit and the Warhammer 40,000 app.

Fixtures in tests/fixtures/import are written by hand in the real shapes: ``.ros`` XML as
BattleScribe 2.03 and New Recruit write it (composite entry ids, unknown extension elements,
the Detachment and the Warlord as selections or categories), New Recruit's JSON, and the text
layouts. Hostile files (entity bombs, external entities, zip bombs, deep nesting) are refused
with a clear error within a second.
"""

from __future__ import annotations

import json
import re
import struct
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, REPO, cpu_timed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.packs import Catalog, bundled_dir
from bagm.io.textlist import read_text_list
from bagm.io.yamlsafe import InputError
from bagm.render.export import RosterSheet, to_json, to_text
from bagm.roster.importer import import_file, import_list, read_army_list, roster_yaml
from bagm.roster.model import load_roster
from bagm.roster.squads import form_boarding_squads
from bagm.roster.validate import validate

IMPORT = FIXTURES / "import"


@pytest.fixture(scope="module")
def bundled() -> Catalog:
    return Catalog([bundled_dir()])


@pytest.fixture(autouse=True)
def _bundled_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BAGM_DATA", raising=False)


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


def U(unit: str, **kw: Any) -> dict[str, Any]:
    return {"unit": unit, **kw}


# --- real-shaped fixtures, one per format ---------------------------------------------------

EXPECTED = {
    "grey_knights_void_purge.ros": ("ros", {
        "name": "Sanctic Purge Cell", "faction": "Grey Knights", "detachment": "Void Purge Force",
        "units": [U("Brother-Captain", warlord=True, enhancement="Trademark Weapon",
                    weapon="Storm bolter"),
                  U("Brotherhood Chaplain", enhancement="Sigil of Warding"),
                  U("Strike Squad", models=10, wargear={"Psycannon": 1})]}),
    "necrons_harbinger_cabal.ros": ("ros", {
        "name": "Conclave of the Silent Vault", "faction": "Necrons",
        "detachment": "Harbinger Cabal",
        "units": [U("Technomancer", warlord=True, enhancement="Cryptometric Enhancement"),
                  U("Chronomancer", enhancement="Peerless Leader"), U("Psychomancer"),
                  U("Immortals", models=10), U("Necron Warriors")]}),
    "newrecruit_necrons.json": ("newrecruit-json", {
        "name": "The Flensing Host", "faction": "Necrons", "detachment": "Deranged Outcasts",
        "units": [U("Skorpekh Lord", warlord=True, enhancement="Inured to Damage"),
                  U("Hexmark Destroyer", enhancement="Expert Breacher"),
                  U("Flayed Ones", models=10), U("Skorpekh Destroyers"),
                  U("Ophydian Destroyers")]}),
    "app_ultramarines.txt": ("app", {
        "name": "Ultramarines Boarding Team", "faction": "Adeptus Astartes",
        "detachment": "Boarding Strike",
        "units": [U("Captain", warlord=True, enhancement="Adamantine Mantle",
                    # the melee weapon chosen inside "Bolt Pistol, Master-crafted Bolter, Melee
                    # Weapon" (the bundle is the default; its bolt pistol needs no line)
                    wargear={"Master-crafted power weapon": 1}),
                  # the melee weapon chosen inside "Pistol, Master-crafted Bolter & Melee Weapon"
                  U("Lieutenant", enhancement="Trademark Weapon", weapon="Master-crafted bolter",
                    wargear={"Master-crafted power weapon": 1}),
                  U("Intercessor Squad", models=10, wargear={"Astartes grenade launcher": 1}),
                  U("Assault Intercessor Squad", models=5),
                  U("Hellblaster Squad")]}),
    "wtc_necrons.txt": ("wtc", {
        "faction": "Necrons", "detachment": "Harbinger Cabal",
        "units": [U("Technomancer", warlord=True, enhancement="Cryptometric Enhancement"),
                  U("Chronomancer", enhancement="Peerless Leader"), U("Psychomancer"),
                  U("Necron Warriors"), U("Immortals", models=10)]}),
    "wtc_compact_orks.txt": ("wtc", {
        "name": "Da Kaptin Krumpas", "faction": "Orks", "detachment": "Kaptin Killers",
        "units": [U("Warboss", warlord=True, enhancement="Gnasher Squig Crates",
                    wargear={"Attack squig": 1}),
                  U("Big Mek in Mega Armour", enhancement="Tellyporta",
                    wargear={"Kustom shoota": 1}),
                  U("Nobz", models=10, wargear={"Power klaw": 5}),
                  U("Meganobz", wargear={"Kustom shoota": 3, "Power klaw": 3})]}),
    "battlescribe_tyranids.txt": ("battlescribe", {
        "faction": "Tyranids", "detachment": "Tyranid Attack",
        "units": [U("Winged Tyranid Prime", warlord=True, enhancement="Synaptic Goad"),
                  U("Winged Tyranid Prime", enhancement="Personal Teleporter"),
                  U("Termagants", wargear={"Termagant spinefist": 1}),
                  U("Tyranid Warriors with Ranged Bio-weapons", wargear={"Deathspitter": 3}),
                  U("Hormagaunts"), U("Neurogaunts"), U("Ripper Swarms")]}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_imports_to_the_expected_valid_roster(name: str, bundled: Catalog,
                                                      tmp_path: Path) -> None:
    fmt, roster = EXPECTED[name]
    result = import_file(IMPORT / name, bundled)
    assert result.format == fmt
    assert result.roster == roster
    assert result.unmapped == []
    text = roster_yaml(result)
    report = validate(load_roster(tmp_path / "r.yaml", text), bundled)
    assert report.valid, [f.message for f in report.findings]


def test_the_fixtures_have_the_real_shapes() -> None:
    """Guard the fixtures themselves: what the reader must tolerate is really in them."""
    gk = (IMPORT / "grey_knights_void_purge.ros").read_text(encoding="utf-8")
    assert 'xmlns="http://www.battlescribe.net/schema/rosterSchema"' in gk
    assert "::" in gk and "<nr:extension" in gk and "<customNotes>" in gk
    assert 'name="Trademark Weapon Upgrade"' in gk and 'name="Warlord"' in gk
    necrons = (IMPORT / "necrons_harbinger_cabal.ros").read_text(encoding="utf-8")
    assert '<category id="nr-c2c" name="Warlord"' in necrons  # the Warlord as a category only
    assert not re.search(r'<selection [^>]*name="Warlord"', necrons)


def test_warlord_as_category_and_as_selection(bundled: Catalog) -> None:
    gk = read_army_list(IMPORT / "grey_knights_void_purge.ros")
    assert [u.warlord for u in gk.units] == [True, False, False]
    nc = read_army_list(IMPORT / "necrons_harbinger_cabal.ros")
    assert [u.warlord for u in nc.units] == [True, False, False, False, False]


def test_ros_reader_counts_models_points_and_keeps_wargear() -> None:
    army = read_army_list(IMPORT / "grey_knights_void_purge.ros")
    squad = army.units[2]
    assert (squad.name, squad.models, squad.points) == ("Strike Squad", 10, 240)
    assert "8x Storm bolter" in squad.items and "Psycannon" in squad.items
    assert army.points == 395 and army.faction and army.faction.text == "Imperium - Grey Knights"
    assert army.detachment and army.detachment.text == "Void Purge Force"
    assert army.faction_hints == ["Grey Knights"]


def test_rosz_reads_like_the_ros(bundled: Catalog, tmp_path: Path) -> None:
    rosz = tmp_path / "list.rosz"
    with zipfile.ZipFile(rosz, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(IMPORT / "grey_knights_void_purge.ros", "Sanctic Purge Cell.ros")
    result = import_file(rosz, bundled)
    assert result.format == "rosz"
    assert result.roster == EXPECTED["grey_knights_void_purge.ros"][1]
    odd = tmp_path / "list.zip"  # a zip under another name is sniffed, not trusted by suffix
    odd.write_bytes(rosz.read_bytes())
    assert import_file(odd, bundled).roster == result.roster


@pytest.mark.parametrize("members, message", [
    ({"a.ros": "<roster/>", "b.ros": "<roster/>"}, "exactly one .ros file (found 2)"),
    ({"notes.txt": "hello"}, "exactly one .ros file (found 0)"),
])
def test_rosz_must_hold_one_ros(tmp_path: Path, members: dict[str, str], message: str) -> None:
    rosz = tmp_path / "list.rosz"
    with zipfile.ZipFile(rosz, "w") as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    with pytest.raises(InputError, match=re.escape(message)):
        read_army_list(rosz)


def test_faction_from_unit_categories_when_the_catalogue_is_unknown(bundled: Catalog,
                                                                     tmp_path: Path) -> None:
    text = (IMPORT / "necrons_harbinger_cabal.ros").read_text(encoding="utf-8")
    path = tmp_path / "homebrew.ros"
    path.write_text(text.replace('catalogueName="Necrons"', 'catalogueName="Homebrew Dynasty"'),
                    encoding="utf-8")
    result = import_file(path, bundled)
    assert result.roster["faction"] == "Necrons" and result.ok


# --- names that cannot be mapped ------------------------------------------------------------


def test_broken_ros_reports_every_unmapped_selection_and_keeps_them(bundled: Catalog,
                                                                   tmp_path: Path) -> None:
    result = import_file(IMPORT / "orks_broken_names.ros", bundled)
    reasons = {u.text: u.reason for u in result.unmapped}
    assert set(reasons) == {"Harbinger Cabal", "Gnasher Squig Crate", "Nobs", "Strike Squad",
                            "Crusade Blessings"}
    assert "Detachment of Necrons" in reasons["Harbinger Cabal"]
    assert "Kaptin Killers, Ramship Raiders" in reasons["Harbinger Cabal"]
    assert "did you mean 'Gnasher Squig Crates'?" in reasons["Gnasher Squig Crate"]
    assert "did you mean 'Nobz'?" in reasons["Nobs"]
    assert "unit of Grey Knights" in reasons["Strike Squad"]
    # nothing dropped: unknown names are written as found, with the sizes read
    units = result.roster["units"]
    assert [u["unit"] for u in units] == ["Warboss", "Nobs", "Strike Squad", "Meganobz"]
    assert units[0] == U("Warboss", warlord=True, enhancement="Gnasher Squig Crate")
    assert units[1]["models"] == 10 and units[2]["models"] == 5
    assert result.roster["detachment"] == "Harbinger Cabal"
    text = roster_yaml(result)
    for u in result.unmapped:
        assert str(u) in text  # also kept in the written file, as comments
    load_roster(tmp_path / "r.yaml", text)  # and the file still loads


def test_broken_text_reports_lines_with_numbers(bundled: Catalog) -> None:
    result = import_file(IMPORT / "app_broken.txt", bundled)
    got = [(u.line, u.text) for u in result.unmapped]
    assert got == [(5, "Void Purge"), (9, "Sigil of Wardin"), (9, "Tactical Haruspexy"),
                   (16, "Strike Sqaud"), (21, "Boyz"), (24, "Purifier Squad"),
                   (26, "this line is not part of any export")]
    reasons = [u.reason for u in result.unmapped]
    assert "did you mean 'Void Purge Force'?" in reasons[0]
    assert "did you mean 'Sigil of Warding'?" in reasons[1]
    assert "'Sigil of Wardin' was kept" in reasons[2]
    assert "did you mean 'Strike Squad'" in reasons[3]
    assert "unit of Orks" in reasons[4]
    assert "add 'models: N' (legal: 5 or 10)" in reasons[5]
    # an unknown unit gets no size made up from its lines: "10x Grey Knight" might be wargear
    assert result.roster["units"][1] == U("Strike Sqaud")
    assert any("Strike Sqaud: no size written" in n for n in result.notes)
    assert result.roster["units"][3] == U("Purifier Squad")


def test_points_that_differ_from_the_data_are_noted(bundled: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text((IMPORT / "wtc_compact_orks.txt").read_text(encoding="utf-8")
                    .replace("10x Nobz (210 pts)", "10x Nobz (200 pts)"), encoding="utf-8")
    result = import_file(path, bundled)
    assert result.ok
    assert any("says 200 points for Nobz, bagm's data 210" in n for n in result.notes)


def test_size_read_from_points_when_no_model_lines(bundled: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("Grey Knights\nVoid Purge Force\n\nCHARACTERS\n\nBrotherhood Chaplain "
                    "(65 points)\n  • Warlord\n\nBATTLELINE\n\nStrike Squad (120 points)\n",
                    encoding="utf-8")
    result = import_file(path, bundled)
    assert result.ok and result.roster["units"][1] == U("Strike Squad", models=5)
    assert any("read from its 120 points" in n for n in result.notes)


def test_no_faction_or_detachment_is_reported_with_the_choices(bundled: Catalog,
                                                               tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("CHARACTERS\n\nWarboss (75 points)\n  • Warlord\n", encoding="utf-8")
    result = import_file(path, bundled)  # the one faction with a Warboss, said in a note
    assert result.roster["faction"] == "Orks"
    assert "the export names no faction: Orks read from its 1 unit name(s)" in result.notes
    unknown = tmp_path / "unknown.txt"
    unknown.write_text("CHARACTERS\n\nWarbos (75 points)\n  • Warlord\n", encoding="utf-8")
    result = import_file(unknown, bundled)
    assert result.roster["faction"] == "" and not result.ok
    assert "pass --faction" in result.unmapped[0].reason
    fixed = import_file(path, bundled, faction="orks")
    assert fixed.roster["faction"] == "Orks"
    assert [u.reason for u in fixed.unmapped] == [
        "no Boarding Actions Detachment found in the export; pass --detachment "
        "(one of: Kaptin Killers, Ramship Raiders)"]
    both = import_file(path, bundled, faction="Orks", detachment="kaptin killers")
    assert both.ok and both.roster["detachment"] == "Kaptin Killers"
    with pytest.raises(InputError, match="did you mean 'Orks'"):
        import_file(path, bundled, faction="Orkz")
    with pytest.raises(InputError, match="did you mean 'Kaptin Killers'"):
        import_file(path, bundled, faction="Orks", detachment="Kaptin Killer")


def test_enhancement_names_with_brackets_and_weapons(bundled: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("Adeptus Custodes\nBlack Ship Guardians\n\nCHARACTERS\n\n"
                    "Knight-Centura (55 Points)\n  • Warlord\n"
                    "  • Enhancement: Sinister Presence (Aura)\n", encoding="utf-8")
    result = import_file(path, bundled)
    assert result.roster["units"] == [U("Knight-Centura", warlord=True,
                                        enhancement="Sinister Presence (Aura)")]


# --- hostile and unreadable files -----------------------------------------------------------


@pytest.mark.parametrize("name, message", [
    ("billion_laughs.ros", "declares the XML entity 'lol'"),
    ("xxe.ros", "external entity 'secret' (file:///etc/passwd)"),
])
def test_xml_bombs_are_refused_fast(name: str, message: str) -> None:
    exc, seconds = cpu_timed(lambda: read_army_list(IMPORT / name))
    assert isinstance(exc, InputError) and message in str(exc)
    assert seconds < 1.0
    result = run("import", IMPORT / name)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output


def test_entity_bomb_inside_a_rosz_is_refused(tmp_path: Path) -> None:
    rosz = tmp_path / "bomb.rosz"
    with zipfile.ZipFile(rosz, "w") as zf:
        zf.write(IMPORT / "billion_laughs.ros", "bomb.ros")
    with pytest.raises(InputError, match="billion laughs"):
        read_army_list(rosz)


def _zip_bomb(path: Path, size: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        with zf.open("bomb.ros", "w") as fh:
            chunk = b"<" + b" " * ((1 << 20) - 1)
            for _ in range(size >> 20):
                fh.write(chunk)


def test_zip_bomb_is_refused_within_a_second(tmp_path: Path) -> None:
    rosz = tmp_path / "bomb.rosz"
    _zip_bomb(rosz, 64 << 20)  # 64 MB of XML in a ~70 KB archive
    assert rosz.stat().st_size < 1_000_000
    exc, seconds = cpu_timed(lambda: read_army_list(rosz))
    assert isinstance(exc, InputError) and "zip bomb" in str(exc), exc
    assert seconds < 1.0
    result = run("import", rosz, "-o", tmp_path / "out.yaml")
    assert result.exit_code == 2 and "zip bomb" in result.stderr
    assert not (tmp_path / "out.yaml").exists()


def test_zip_bomb_that_lies_about_its_size_is_refused(tmp_path: Path) -> None:
    """A member whose headers claim 1 KB but which unpacks to 64 MB: unpacking stops at the
    claimed size and the checksum fails; nothing large is ever held."""
    rosz = tmp_path / "liar.rosz"
    _zip_bomb(rosz, 64 << 20)
    data = bytearray(rosz.read_bytes())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    for offset in (local + 22, central + 24):  # the uncompressed size in both headers
        assert struct.unpack_from("<I", data, offset)[0] == 64 << 20
        struct.pack_into("<I", data, offset, 1024)
    rosz.write_bytes(bytes(data))
    with zipfile.ZipFile(rosz) as zf:
        assert zf.infolist()[0].file_size == 1024  # the lie is what a reader sees
    exc, seconds = cpu_timed(lambda: read_army_list(rosz))
    assert isinstance(exc, InputError) and "not a valid zip archive" in str(exc), exc
    assert "Bad CRC" in str(exc)
    assert seconds < 1.0


def test_deep_nesting_is_refused_without_a_traceback(tmp_path: Path) -> None:
    depth = 5000
    body = '<selection name="x" type="upgrade"><selections>' * depth + \
        "</selections></selection>" * depth
    path = tmp_path / "deep.ros"
    path.write_text('<roster name="d"><forces><force name="f" catalogueName="Orks"><selections>'
                    '<selection name="Boyz" type="unit"><selections>' + body +
                    "</selections></selection></selections></force></forces></roster>",
                    encoding="utf-8")
    exc, seconds = cpu_timed(lambda: read_army_list(path))
    assert isinstance(exc, InputError) and "nested more than" in str(exc)
    assert seconds < 1.0


@pytest.mark.parametrize("name, message", [
    ("truncated.ros", "not well-formed XML"),
    ("catalogue_not_roster.ros", "the root element is <catalogue>, not <roster>"),
])
def test_malformed_xml_is_a_one_line_error(name: str, message: str) -> None:
    result = run("import", IMPORT / name)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"bagm: {IMPORT / name}: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("content, message", [
    (b"\n\n   \n", "no army list found"),
    (b"Grey Knights\n\x00\x01\x02", "is a binary file"),
    (b"Orks\nWarboss (75 points)\n\xff\xfe", "not valid UTF-8 text"),
    (b'{"units": 3}', "neither a New Recruit roster"),
    (b'{"roster": {"name": "x"}}', "the roster has no force"),
    (b"{broken json", "invalid JSON"),
    (b"[" * 100_000, "invalid JSON"),
])
def test_unreadable_inputs_exit_2(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "input.txt"
    path.write_bytes(content)
    result = run("import", path)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.output


def test_huge_text_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(b"Boyz (80 points)\n" * 700_000)  # ~12 MB
    exc, seconds = cpu_timed(lambda: read_army_list(path))
    assert isinstance(exc, InputError) and "too large" in str(exc)
    assert seconds < 1.0


def test_missing_file_and_folder() -> None:
    assert run("import", "no/such/list.txt").exit_code == 2
    result = run("import", IMPORT)
    assert result.exit_code == 2 and "is a directory" in result.stderr


# --- the command ----------------------------------------------------------------------------


def test_import_writes_the_roster(tmp_path: Path, bundled: Catalog) -> None:
    out = tmp_path / "roster.yaml"
    result = run("import", IMPORT / "wtc_compact_orks.txt", "-o", out)
    assert result.exit_code == 0, result.output
    assert "0 line(s) not mapped; 470 points; valid" in result.stdout
    assert out.read_text(encoding="utf-8").startswith(
        "# Imported by bagm from wtc_compact_orks.txt (New Recruit WTC text).\n"
        "name: Da Kaptin Krumpas\nfaction: Orks\ndetachment: Kaptin Killers\nunits:\n"
        "  - unit: Warboss\n    warlord: true\n    enhancement: Gnasher Squig Crates\n")
    assert validate(load_roster(out), bundled).valid
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left behind


def test_import_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "roster.yaml"
    out.write_text("# my own roster\n", encoding="utf-8")
    result = run("import", IMPORT / "wtc_necrons.txt", "-o", out)
    assert result.exit_code == 2 and "already exists; pass --force" in result.stderr
    assert out.read_text(encoding="utf-8") == "# my own roster\n"
    assert run("import", IMPORT / "wtc_necrons.txt", "-o", out, "--force").exit_code == 0
    assert "faction: Necrons" in out.read_text(encoding="utf-8")


def test_a_failed_import_leaves_the_old_file_whole(tmp_path: Path) -> None:
    out = tmp_path / "roster.yaml"
    out.write_text("# keep me\n", encoding="utf-8")
    result = run("import", IMPORT / "billion_laughs.ros", "-o", out, "--force")
    assert result.exit_code == 2
    assert out.read_text(encoding="utf-8") == "# keep me\n"


def test_import_never_writes_over_its_input(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_bytes((IMPORT / "wtc_necrons.txt").read_bytes())
    result = run("import", path, "-o", path, "--force")
    assert result.exit_code == 2 and "is the file being imported" in result.stderr
    assert path.read_bytes() == (IMPORT / "wtc_necrons.txt").read_bytes()


def test_unmapped_lines_exit_1_and_the_roster_is_still_written(tmp_path: Path) -> None:
    out = tmp_path / "roster.yaml"
    result = run("import", IMPORT / "app_broken.txt", "-o", out)
    assert result.exit_code == 1
    assert result.stdout.count("not mapped: ") == 7
    assert "7 line(s) not mapped" in result.stdout
    text = out.read_text(encoding="utf-8")
    assert "#   line 26: 'this line is not part of any export'" in text
    assert "  - unit: Strike Sqaud\n  - unit: Boyz\n    models: 10\n" in text


def test_import_to_stdout_and_json_report(bundled: Catalog) -> None:
    result = run("import", IMPORT / "necrons_harbinger_cabal.ros")
    assert result.exit_code == 0
    assert result.stdout.startswith("# Imported by bagm from necrons_harbinger_cabal.ros")
    assert "-> the roster above" in result.stderr
    result = run("import", IMPORT / "orks_broken_names.ros", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert list(data) == ["output", "source", "format", "roster", "unmapped", "notes",
                          "warnings", "wargear", "valid", "points"]
    assert len(data["wargear"]) == len(data["roster"]["units"])
    assert data["format"] == "ros" and data["valid"] is False
    assert {u["text"] for u in data["unmapped"]} >= {"Nobs", "Strike Squad"}
    assert data["unmapped"][0].keys() == {"where", "line", "text", "reason"}


def test_import_command_options_did_you_mean(tmp_path: Path) -> None:
    result = run("import", IMPORT / "wtc_necrons.txt", "--faction", "Necronz")
    assert result.exit_code == 2 and "did you mean 'Necrons'" in result.stderr
    result = run("import", IMPORT / "wtc_necrons.txt", "--detachment", "Harbinger Cabbal")
    assert result.exit_code == 2 and "did you mean 'Harbinger Cabal'" in result.stderr


# --- round trips ----------------------------------------------------------------------------

ROSTERS = sorted((REPO / "rosters").glob("*.yaml"))


def _same(report: Any) -> tuple[Any, ...]:
    units = sorted((u.name, u.models, u.label or "", u.warlord, u.enhancement or "",
                    u.weapon or "") for u in report.units)
    return (report.title, report.faction, report.detachment, report.edition,
            report.battle_ready, units)


def _sheet(path: Path, catalog: Catalog) -> RosterSheet:
    report = validate(load_roster(path), catalog)
    return RosterSheet(report, form_boarding_squads(report.path, report.units))


@pytest.mark.parametrize("path", ROSTERS, ids=[p.stem for p in ROSTERS])
def test_round_trip_text_and_json(path: Path, bundled: Catalog, tmp_path: Path) -> None:
    sheet = _sheet(path, bundled)
    assert sheet.report.valid
    for name, export in (("list.txt", to_text), ("list.json", to_json)):
        exported = tmp_path / name
        exported.write_text(export(sheet), encoding="utf-8")
        result = import_file(exported, bundled)
        assert result.unmapped == [], (name, result.unmapped)
        back = tmp_path / "back.yaml"
        back.write_text(roster_yaml(result), encoding="utf-8")
        again = _sheet(back, bundled)
        assert again.report.valid
        assert _same(again.report) == _same(sheet.report)
        if name == "list.txt":  # exporting the imported roster gives the same text
            assert to_text(again) == export(sheet)


def test_round_trip_through_the_commands(tmp_path: Path, bundled: Catalog) -> None:
    src = REPO / "rosters" / "grey_knights_void_purge_force.yaml"
    text = tmp_path / "gk.txt"
    assert run("export", src, "--to", "text", "-o", text).exit_code == 0
    back = tmp_path / "gk.yaml"
    assert run("import", text, "-o", back).exit_code == 0
    assert _same(validate(load_roster(back), bundled)) == _same(validate(load_roster(src),
                                                                         bundled))


# --- the readers never crash ----------------------------------------------------------------

_FRAGMENTS = st.sampled_from([
    "", "CHARACTERS", "BATTLELINE", "Grey Knights", "Void Purge Force", "Strike Squad (240 Points)",
    "  • 10x Grey Knight", "     ◦ 1x Storm bolter", "  • Warlord", "  • Enhancement: Sigil of Warding",
    "+ FACTION KEYWORD: Imperium - Grey Knights", "+ DETACHMENT: Void Purge Force",
    "+ WARLORD: Char1: Brother-Captain", "& X (on Char2: Y)", "Char1: 1x Brother-Captain (90 pts)",
    "++ Boarding Patrol (Imperium - Grey Knights) [500pts] ++", "+ Configuration +",
    "Detachment: Void Purge Force", ". 9x Grey Knight: 9x Storm bolter", "Enhancement: (+0 pts)",
    "(", ")", "[", "•", "x (1 pts)", "Total: 5", "+ ENHANCEMENT: (on )",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                        HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=30)), max_size=30))
def test_text_readers_and_the_importer_never_crash(lines: list[str]) -> None:
    catalog = _CATALOG
    text = "\n".join(lines)
    army = read_text_list("fuzz.txt", text)
    try:
        result = import_list(army, catalog)
    except InputError:
        return  # nothing that looks like a list: a clear error, not a crash
    load_roster("fuzz.yaml", roster_yaml(result))  # whatever was found, the file loads


_CATALOG = Catalog([bundled_dir()])


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40), st.lists(st.text(min_size=1, max_size=40), max_size=5))
def test_any_names_are_written_so_that_they_load_back_unchanged(name: str,
                                                                units: list[str]) -> None:
    from bagm.roster.importer import ImportResult, Unmapped

    result = ImportResult("in\n.txt", "app", {"name": name, "faction": name, "detachment": "",
                                                "units": [{"unit": u, "label": u} for u in units]},
                          [Unmapped("line 1", name, "odd\r\nreason\x85")])
    roster = load_roster("r.yaml", roster_yaml(result))
    assert roster.file.name == name and roster.file.faction == name
    assert [(u.unit, u.label) for u in roster.file.units] == [(u, u) for u in units]


def test_marked_bullets_nested_under_a_model_line(bundled: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("Grey Knights\nVoid Purge Force\n\nCHARACTERS\n\nBrother-Captain (90 Points)\n"
                    "  • 1x Brother-Captain\n     ◦ 1x Storm bolter\n     ◦ Warlord\n"
                    "     ◦ Enhancement: Trademark Weapon (Storm bolter)\n", encoding="utf-8")
    result = import_file(path, bundled)
    assert result.ok, result.unmapped
    assert result.roster["units"] == [U("Brother-Captain", warlord=True,
                                        enhancement="Trademark Weapon", weapon="Storm bolter")]


def test_too_many_lines_is_an_error_not_a_silent_cut(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_bytes(b"\n" * 25_000 + b"Boyz (80 points)\n")  # small, but far too many lines
    with pytest.raises(InputError, match="25,002 lines"):
        read_army_list(path)


def test_a_full_size_10th_edition_roster_reports_its_detachment(bundled: Catalog,
                                                                tmp_path: Path) -> None:
    """The same list built in the main 40k catalogues: 'Army Roster' force, a Battle Size and a
    matched-play Detachment, which is not a Boarding Actions one."""
    text = (IMPORT / "grey_knights_void_purge.ros").read_text(encoding="utf-8")
    text = text.replace('name="Boarding Patrol"', 'name="Army Roster"').replace(
        'name="Void Purge Force"', 'name="Teleport Strike Force"').replace(
        '<selection id="d301-77aa-4c1d-8e01"',
        '<selection id="bs1" name="Battle Size" entryId="bs" number="1" type="upgrade">'
        '<selections><selection id="bs2" name="2. Strike Force (2000 Point limit)" number="1" '
        'type="upgrade"/></selections><categories><category id="bs3" name="Configuration" '
        'primary="true"/></categories></selection>\n        <selection id="d301-77aa-4c1d-8e01"')
    path = tmp_path / "matched.ros"
    path.write_text(text, encoding="utf-8")
    result = import_file(path, bundled)
    assert [(u.text, u.where) for u in result.unmapped] == [
        ("Teleport Strike Force", "Army Roster › Detachment › Teleport Strike Force")]
    assert "pick one of: Baneslayer Strike, Void Purge Force" in result.unmapped[0].reason
    assert [u["unit"] for u in result.roster["units"]] == [
        "Brother-Captain", "Brotherhood Chaplain", "Strike Squad"]
    fixed = import_file(path, bundled, detachment="Void Purge Force")
    assert fixed.ok and fixed.roster == EXPECTED["grey_knights_void_purge.ros"][1]
