"""The command line: exit codes, formats, overlays, schema."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from bagm.cli.app import app

VALID = """\
name: Test Force
faction: Test Legion
detachment: Test Strike
units:
  - unit: Lord Commander   # the Warlord
    warlord: true
  - unit: Line Squad
    models: 10
"""

INVALID = VALID + "  - unit: Line Sqaud\n    models: 5\n"


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    data = os.pathsep.join([str(FIXTURES / "packs"), str(FIXTURES / "packs_other")])
    monkeypatch.setenv("BAGM_DATA", data)
    return {"BAGM_DATA": data}


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_valid_exit_0(env, tmp_path: Path) -> None:
    result = run("validate", str(write(tmp_path, "a.yaml", VALID)))
    assert result.exit_code == 0, result.output
    assert "valid Boarding Patrol" in result.output and "275 / 500" in result.output


def test_validate_invalid_exit_1_and_json(env, tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", INVALID)
    result = run("validate", str(path), "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data == [{"path": str(path), "valid": False, "points": 275, "limit": 500,
                     "issues": [{"code": "BA110", "severity": "error",
                                 "message": "unknown unit 'Line Sqaud' for Test Legion; "
                                            "did you mean 'Line Squad'?",
                                 "line": 9, "unit": "Line Sqaud"}]}]


def test_validate_folder_and_github(env, tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", VALID)
    write(tmp_path, "b.yaml", INVALID)
    result = run("validate", str(tmp_path), "--format", "github")
    assert result.exit_code == 1
    lines = [x for x in result.output.splitlines() if x.startswith("::")]
    assert lines == [f"::error file={tmp_path / 'b.yaml'},line=9,title=BA110 unit-unknown::"
                     "unknown unit 'Line Sqaud' for Test Legion; did you mean 'Line Squad'?"]


def test_unreadable_roster_exit_2(env, tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "faction: [\n")
    result = run("validate", str(path))
    assert result.exit_code == 2
    assert str(path) in result.output and "Traceback" not in result.output
    result = run("validate", str(path), "--format", "json")
    assert result.exit_code == 2 and json.loads(result.output)[0]["issues"][0]["code"] == "BA000"


def test_missing_path_exit_2(env, tmp_path: Path) -> None:
    result = run("validate", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2 and "no such file" in result.output


def test_usage_error_exit_2() -> None:
    assert run("validate", "--format", "xml", "x").exit_code == 2
    assert run("no-such-command").exit_code == 2


def test_show(env, tmp_path: Path) -> None:
    result = run("show", str(write(tmp_path, "a.yaml", VALID)))
    assert result.exit_code == 0 and "Test Force" in result.output and "Warlord" in result.output
    result = run("show", str(write(tmp_path, "a.yaml", VALID)), "-f", "json")
    data = json.loads(result.output)
    assert data["units"][0]["warlord"] is True and data["points"] == 275


def test_squads_json(env, tmp_path: Path) -> None:
    result = run("squads", str(write(tmp_path, "a.yaml", VALID)), "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [u["name"] for u in data["units"]] == ["Lord Commander", "Line Squad A", "Line Squad B"]
    assert data["points"] == 90 + 93 + 93


def test_underdog(env, tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", VALID)  # 275 points
    b = write(tmp_path, "b.yaml", VALID.replace("models: 10", "models: 5"))  # 185 points
    result = run("underdog", str(a), str(b), "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.output) == {"underdog": "B", "points": {"A": 275, "B": 185},
                                         "difference": 90}
    result = run("underdog", str(a), str(b), "--mission", "12")
    assert "Deck Sweepers" in result.output and "Underdog Entry Zone" in result.output
    assert run("underdog", str(a), str(b), "--mission", "99").exit_code == 2


def test_data_overlay_fixes_points(env, tmp_path: Path) -> None:
    over = tmp_path / "over"
    over.mkdir()
    write(over, "fix.yaml", "faction: Test Legion\npoints_source: my fix\nunits:\n"
          "  - name: Line Squad\n    points: {5: 100, 10: 200}\n")
    roster = write(tmp_path, "a.yaml", VALID)
    result = run("validate", str(roster), "--data", str(over), "-f", "json")
    assert json.loads(result.output)[0]["points"] == 290


def _option_rows(help_text: str) -> list[str]:
    """The option names of a --help page, in order."""
    import re

    return re.findall(r"│ (--[a-z-]+)", help_text)


def test_roster_commands_share_their_options(env, tmp_path: Path) -> None:
    """show, squads and underdog take --format, --data and --import, declared once
    (cli.rosters.roster_options), after their own options and with the same help."""
    pages = {c: run(c, "--help").output for c in ("show", "squads", "underdog")}
    assert _option_rows(pages["show"]) == ["--format", "--data", "--import", "--help"]
    assert _option_rows(pages["squads"]) == ["--format", "--data", "--import", "--help"]
    assert _option_rows(pages["underdog"]) == ["--mission", "--format", "--data", "--import",
                                               "--help"]
    for page in pages.values():
        assert "Output format." in page and "Extra data pack" in page and "Read another" in page
    over = tmp_path / "over"
    over.mkdir()
    write(over, "fix.yaml", "faction: Test Legion\npoints_source: my fix\nunits:\n"
          "  - name: Line Squad\n    points: {5: 100, 10: 200}\n")
    roster = write(tmp_path, "a.yaml", VALID)
    shown = run("show", str(roster), "--data", str(over), "-f", "json")
    assert json.loads(shown.output)["points"] == 290
    squads = run("squads", "--data", str(over), str(roster), "--format", "json")
    assert json.loads(squads.output)["points"] == 290
    under = run("underdog", str(roster), str(roster), "--data", str(over), "-f", "json")
    assert json.loads(under.output)["points"] == {"A": 290, "B": 290}
    assert run("show", str(roster), "-f", "yaml").exit_code == 2  # not a format


def test_roster_options_needs_the_options_parameter() -> None:
    from bagm.cli.rosters import roster_options

    def command(roster: Path) -> None:
        pass

    with pytest.raises(TypeError, match="options: RosterOptions"):
        roster_options(command)


def test_broken_overlay_is_a_clear_error(env, tmp_path: Path) -> None:
    over = tmp_path / "over"
    over.mkdir()
    write(over, "fix.yaml", "faction: Test Legion\nunits:\n  - name: Line Squad\n"
          "    points: lots\n")
    result = run("validate", str(write(tmp_path, "a.yaml", VALID)), "--data", str(over))
    assert result.exit_code == 2 and "Line Squad" in result.output and "points" in result.output


def test_units_and_detachments(env) -> None:
    result = run("units", "Test Legion", "--detachment", "Small Detachment")
    assert result.exit_code == 0 and "Line Squad" in result.output and "Cherub" not in result.output
    result = run("detachments", "tl")
    assert result.exit_code == 0 and "Test Strike" in result.output
    result = run("units", "Test Legoin")
    assert result.exit_code == 2 and "Test Legion" in result.output


def test_schema() -> None:
    roster = json.loads(run("schema", "roster").output)
    assert roster["additionalProperties"] is False and "units" in roster["properties"]
    packs = json.loads(run("schema", "datasheets").output)
    assert "detachments" in packs["properties"]


def test_output_is_deterministic(env, tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", INVALID)
    assert run("validate", str(path)).output == run("validate", str(path)).output


def test_import_bsdata_reports_and_refuses_bad_input(tmp_path: Path) -> None:
    result = run("data", "import-bsdata", str(tmp_path), str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2 and "no such data pack" in result.output
    pack = write(tmp_path, "p.yaml", "faction: Grey Knights\npoints_source: t\nunits:\n"
                 "  - {name: Strike Squad, keywords: [INFANTRY], faction_keywords: [GREY KNIGHTS], "
                 "points: {5: 120}}\n")
    result = run("data", "import-bsdata", str(tmp_path / "empty"), str(pack), "--dry-run")
    assert result.exit_code in (1, 2) and "Traceback" not in result.output


def test_help_shows_argument_help() -> None:
    result = run("show", "--help")
    assert result.exit_code == 0 and "A roster file." in result.output


def test_command_module_table_matches_the_modules() -> None:
    import importlib

    import typer

    from bagm.cli.app import COMMAND_MODULES

    for module, names in COMMAND_MODULES.items():
        probe = typer.Typer()
        importlib.import_module(f"bagm.cli.{module}").register(probe)
        found = {c.name or c.callback.__name__ for c in probe.registered_commands}
        found |= {g.name for g in probe.registered_groups}
        assert found == set(names), module


def test_main_runs_a_module_command_and_help(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "bagm", "mission", "list"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and "Rad Leak" in out.stdout
    out = subprocess.run([sys.executable, "-m", "bagm", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "odds" in out.stdout and "validate" in out.stdout
