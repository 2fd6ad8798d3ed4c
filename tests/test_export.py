"""Exporting rosters: the app's text layout, markdown, JSON, and the HTML / SVG roster card."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.packs import Catalog
from bagm.io.textlist import read_text_list
from bagm.render.export import (
    EXPORTERS,
    RosterSheet,
    model_lines,
    to_html,
    to_json,
    to_markdown,
    to_svg,
    to_text,
)
from bagm.roster.importer import import_list
from bagm.roster.report import ArmyUnit

ROSTER = """\
# my club list
name: Test Force
faction: Test Legion
detachment: Test Strike
units:
  - unit: Lord Commander
    warlord: true
    enhancement: Trademark Weapon
    weapon: Storm bolter
  - unit: Tech Adept
    enhancement: Gear Sense
  - unit: Line Squad
    models: 10
    label: Alpha | *Squad*
  - unit: Hound Pack
"""

OPPONENT = """\
name: Small Force
faction: Test Legion
detachment: Small Detachment
units:
  - unit: Lord Commander
    warlord: true
  - unit: Line Squad
    models: 5
"""

TEXT = """\
Test Force (365 Points)

Test Legion
Test Strike
Boarding Patrol (500 Points)

CHARACTERS

Lord Commander (90 Points)
  • Warlord
  • Enhancement: Trademark Weapon (Storm bolter)

Tech Adept (50 Points)
  • Enhancement: Gear Sense

BATTLELINE

Line Squad (185 Points)
  • Label: Alpha | *Squad*
  • 10 models

OTHER DATASHEETS

Hound Pack (40 Points)
  • 5 models

Total: 365 / 500 points
"""


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAGM_DATA", os.pathsep.join([str(FIXTURES / "packs"),
                                                      str(FIXTURES / "packs_other")]))


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "force.yaml", tmp_path / "small.yaml"
    a.write_text(ROSTER, encoding="utf-8")
    b.write_text(OPPONENT, encoding="utf-8")
    return a, b


def sheet(path: Path, catalog: Catalog, opponent: Path | None = None) -> RosterSheet:
    return RosterSheet.of(path, catalog, opponent)


def run(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


def test_text_is_the_app_layout(files: tuple[Path, Path], catalog: Catalog) -> None:
    s = sheet(files[0], catalog)
    assert s.report.valid, [f.message for f in s.report.findings]
    assert to_text(s) == TEXT


def test_text_with_an_opponent_ends_with_the_underdog(files: tuple[Path, Path],
                                                      catalog: Catalog) -> None:
    text = to_text(sheet(files[0], catalog, files[1]))
    assert text == TEXT + "Underdog: Small Force (185 pts, 180 below Test Force)\n"


def test_text_reads_back_into_the_same_roster(files: tuple[Path, Path], catalog: Catalog,
                                              tmp_path: Path) -> None:
    s = sheet(files[0], catalog)
    result = import_list(read_text_list("force.txt", to_text(s)), catalog)
    assert result.ok, result.unmapped
    assert result.roster == {
        "name": "Test Force", "faction": "Test Legion", "detachment": "Test Strike",
        "units": [{"unit": "Lord Commander", "warlord": True, "enhancement": "Trademark Weapon",
                   "weapon": "Storm bolter"},
                  {"unit": "Tech Adept", "enhancement": "Gear Sense"},
                  {"unit": "Line Squad", "models": 10, "label": "Alpha | *Squad*"},
                  {"unit": "Hound Pack"}]}


def test_edition_and_battle_ready_survive_the_text(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / "old.yaml"
    path.write_text("faction: Test Legion\ndetachment: Test Strike\nedition: 2023\n"
                    "battle_ready: true\nunits:\n  - unit: Lord Commander\n    warlord: true\n"
                    "    enhancement: Iron Will\n  - unit: Bracket Squad\n    models: 4\n",
                    encoding="utf-8")
    s = sheet(path, catalog)
    text = to_text(s)
    assert "Boarding Patrol (500 Points)\nRules: Boarding Actions 2023\nBattle Ready\n" in text
    assert text.startswith("old (210 Points)\n")  # no name: the file's stem; 4 pay for 6
    result = import_list(read_text_list("old.txt", text), catalog)
    assert result.ok
    assert result.roster["edition"] == 2023 and result.roster["battle_ready"] is True
    assert result.roster["units"][1] == {"unit": "Bracket Squad", "models": 4}


def test_markdown_escapes_and_lists_the_boarding_squads(files: tuple[Path, Path],
                                                        catalog: Catalog) -> None:
    md = to_markdown(sheet(files[0], catalog, files[1]))
    assert md.startswith("## Test Force\n\n**Test Legion · Test Strike · 2024 rules**\n")
    assert "| Alpha \\| \\*Squad\\* (Line Squad) | 10 | 185 |  |" in md
    assert "| Lord Commander | 1 | 90 | Warlord, Trademark Weapon (Storm bolter) |" in md
    assert "**Total: 365 / 500 points** (135 left)" in md
    squads = md.split("### Boarding Squads", 1)[1]
    assert "| Alpha \\| \\*Squad\\* A | Line Squad | 5 | 93 |" in squads
    assert "| Alpha \\| \\*Squad\\* B | Line Squad | 5 | 93 |" in squads
    assert "Underdog: Small Force (185 pts, 180 below Test Force)" in md
    assert md.endswith("✓ valid Boarding Patrol\n")


def test_markdown_of_an_invalid_roster_lists_the_findings(tmp_path: Path,
                                                          catalog: Catalog) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(ROSTER.replace("Hound Pack", "Hound Pak"), encoding="utf-8")
    md = to_markdown(sheet(path, catalog))
    assert "✗ not a valid Boarding Patrol:" in md
    assert "- BA110: unknown unit 'Hound Pak'" in md


def test_json_export(files: tuple[Path, Path], catalog: Catalog) -> None:
    data = json.loads(to_json(sheet(files[0], catalog, files[1])))
    assert list(data) == ["format", "version", "name", "faction", "detachment", "edition",
                          "battle_ready", "points", "limit", "valid", "units", "squads",
                          "issues", "underdog"]
    assert data["units"][2] == {"unit": "Line Squad", "label": "Alpha | *Squad*", "models": 10,
                                "points": 185, "warlord": False, "enhancement": None,
                                "weapon": None}
    assert [s["name"] for s in data["squads"]][2:4] == ["Alpha | *Squad* A", "Alpha | *Squad* B"]
    assert data["underdog"] == {"underdog": "B", "points": {"A": 365, "B": 185},
                                "difference": 180, "names": {"A": "Test Force",
                                                             "B": "Small Force"}}


def _html_text(html: str) -> str:
    """The text a reader sees in an HTML page (tags dropped, entities decoded)."""
    from html.parser import HTMLParser

    parts: list[str] = []
    parser = HTMLParser()
    parser.handle_data = parts.append  # type: ignore[method-assign]
    parser.feed(html)
    return " ".join(" ".join(parts).split())


def test_card_html_is_a_roster_card(files: tuple[Path, Path], catalog: Catalog) -> None:
    html = to_html(sheet(files[0], catalog, files[1]))
    assert html.startswith("<!DOCTYPE html>")
    assert "<title>Test Force · Boarding Patrol</title>" in html
    assert "<script" not in html and "http" not in html.replace('"http://www.w3.org', "")
    text = _html_text(html)
    for needle in ("Test Legion · Test Strike · Boarding Actions 2024 rules",
                   "365 / 500 points (135 left) · ✓ valid Boarding Patrol",
                   "1 Lord Commander 90 pts Warlord · Enhancement Trademark Weapon (Storm bolter)",
                   # the weapon profiles with their abilities, as printed on a datasheet
                   'Storm bolter Rapid Fire 2 24" 2 2+ 4 0 1',
                   'Flamer Torrent, Ignores Cover 12" D6 N/A 4 0 1',
                   "Power sword Melee 5 2+ 5 -2 1",
                   "Keywords: INFANTRY, CHARACTER, PSYKER",
                   "Boarding Squads", "Alpha | *Squad* A Line Squad 5 93",
                   "Underdog: Small Force (185 pts, 180 below Test Force)"):
        assert needle in text, needle
    assert "@media print" in html and "@page" in html


def test_card_escapes_all_user_text(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / "evil.yaml"
    path.write_text(ROSTER.replace("name: Test Force", "name: \"<script>alert(1)</script> & Co\"")
                    .replace("Alpha | *Squad*", "'<img src=x onerror=alert(2)>'"),
                    encoding="utf-8")
    s = sheet(path, catalog)
    for out in (to_html(s), to_svg(s)):
        assert "<script>" not in out and "<img" not in out
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in out
        assert "&lt;img src=x onerror=alert(2)&gt;" in out


def test_card_svg_draws_the_same_card(files: tuple[Path, Path], catalog: Catalog) -> None:
    import xml.etree.ElementTree as ET

    svg = to_svg(sheet(files[0], catalog, files[1]))
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    lines = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for needle in ("Test Force", "365 / 500 points (135 left) · ✓ valid Boarding Patrol",
                   "1. Lord Commander", "WARLORD · ENHANCEMENT Trademark Weapon (Storm bolter)",
                   "Storm bolter", "Rapid Fire 2", "Boarding Squads", "Alpha | *Squad* A (Line Squad)",
                   "Underdog: Small Force (185 pts, 180 below Test Force)"):
        assert any(needle in line for line in lines), needle
    height = int(root.get("height") or 0)
    assert max(float(t.get("y") or 0) for t in root.iter("{http://www.w3.org/2000/svg}text")) \
        < height  # everything drawn inside the image


def test_card_of_an_invalid_roster_lists_the_findings(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(ROSTER.replace("Hound Pack", "Hound Pak"), encoding="utf-8")
    text = _html_text(to_html(sheet(path, catalog)))
    assert "✗ not a valid Boarding Patrol" in text
    assert "No datasheet of this name in the data packs" in text
    assert "BA110 error unknown unit 'Hound Pak'" in text


@pytest.mark.parametrize("kind", sorted(EXPORTERS))
def test_every_export_is_deterministic(kind: str, files: tuple[Path, Path],
                                       catalog: Catalog) -> None:
    first = EXPORTERS[kind](sheet(files[0], catalog, files[1]))
    second = EXPORTERS[kind](sheet(files[0], Catalog([FIXTURES / "packs",
                                                      FIXTURES / "packs_other"]), files[1]))
    assert first == second and first.endswith("\n" if kind != "svg" else "</svg>\n")


def test_model_lines_follow_the_profiles() -> None:
    from types import SimpleNamespace as NS

    def unit(models: int, profiles: list[tuple[str, str | None]], sizes=None):  # noqa: ANN001
        ds = NS(models=[NS(name=n, count=c) for n, c in profiles], points={5: 1, 10: 2},
                sizes=sizes)
        return ArmyUnit(0, "Squad", None, models, 1, None, datasheet=ds)

    assert model_lines(unit(10, [("Sergeant", "1"), ("Trooper", "4-9")])) == \
        [(1, "Sergeant"), (9, "Trooper")]
    assert model_lines(unit(10, [("Sergeant", "1"), ("Trooper", "9")])) == \
        [(1, "Sergeant"), (9, "Trooper")]
    assert model_lines(unit(10, [("Squad", "5-10")])) == [(10, "models")]  # named as the unit
    assert model_lines(unit(10, [("A", "0-9"), ("B", "0-9"), ("C", "1")])) == [(10, "models")]
    assert model_lines(unit(12, [("Sergeant", "1"), ("Trooper", "4-9")])) == [(12, "models")]
    assert model_lines(unit(1, [("Hero", "1")], sizes=[1])) == []
    assert model_lines(unit(1, [("Beast", "1-3")], sizes=[1, 2, 3])) == [(1, "models")]


# --- the command ----------------------------------------------------------------------------


@pytest.mark.usefixtures("env")
def test_export_command_prints_and_writes(files: tuple[Path, Path], tmp_path: Path) -> None:
    result = run("export", files[0])
    assert result.exit_code == 0 and result.stdout == TEXT
    for kind in EXPORTERS:
        out = tmp_path / f"card.{kind}"
        first = run("export", files[0], "--to", kind, "-o", out, "--opponent", files[1])
        assert first.exit_code == 0, first.output
        data = out.read_bytes()
        assert run("export", files[0], "--to", kind, "-o", out, "--opponent",
                   files[1]).exit_code == 0
        assert out.read_bytes() == data  # byte for byte, run after run
        assert run("export", files[0], "--to", kind, "--opponent", files[1]).stdout.encode() \
            == data
        assert run("export", files[0], "--to", kind, "-o", "-", "--opponent",
                   files[1]).stdout.encode() == data
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".") or p.name == "-"]
    assert leftovers == []


@pytest.mark.usefixtures("env")
def test_export_refuses_to_overwrite_the_roster(files: tuple[Path, Path]) -> None:
    result = run("export", files[0], "-o", files[0])
    assert result.exit_code == 2 and "is a roster being exported" in result.stderr
    assert files[0].read_text(encoding="utf-8") == ROSTER
    assert run("export", files[0], "-o", files[1], "--opponent", files[1]).exit_code == 2


@pytest.mark.usefixtures("env")
def test_export_of_an_invalid_roster_exits_1_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(ROSTER.replace("models: 10", "models: 7"), encoding="utf-8")
    result = run("export", path, "--to", "markdown")
    assert result.exit_code == 1
    assert "BA114" in result.stdout and "is not a valid Boarding Patrol" in result.stderr


@pytest.mark.usefixtures("env")
def test_export_of_unreadable_input_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("faction: [\n", encoding="utf-8")
    result = run("export", path)
    assert result.exit_code == 2 and result.stderr.startswith(f"bagm: {path}:")
    assert run("export", tmp_path / "none.yaml").exit_code == 2
    assert run("export", path, "--to", "pdf").exit_code == 2
    good = tmp_path / "good.yaml"
    good.write_text(ROSTER, encoding="utf-8")
    result = run("export", good, "--opponent", path)
    assert result.exit_code == 2 and "broken.yaml" in result.stderr
