"""Commands that read a roster, given another tool's army list (issue 18, section 3), and the
small things around it: ``bagm import`` of a bagm roster, folder scans of .YAML and .yml."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.io.yamlsafe import InputError
from bagm.roster.foreign import kind_of
from bagm.roster.model import load_roster

IMPORT = FIXTURES / "import"
GK_ROS = IMPORT / "grey_knights_void_purge.ros"
NR_JSON = IMPORT / "newrecruit_necrons.json"
APP_TXT = IMPORT / "app_ultramarines.txt"


def run(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("path, kind", [
    (GK_ROS, "a BattleScribe / New Recruit roster (.ros)"),
    (NR_JSON, "a New Recruit / BattleScribe JSON export"),
    (APP_TXT, "an army list as text (the Warhammer 40,000 app's or New Recruit's export)"),
    (IMPORT / "wtc_necrons.txt", "a WTC-format text list"),
    (IMPORT / "battlescribe_tyranids.txt", "a BattleScribe / New Recruit text export"),
    (REPO / "rosters" / "orks_kaptin_killers.yaml", None),
])
def test_kind_of(path: Path, kind: str | None) -> None:
    assert kind_of(path) == kind


def test_a_zipped_roster_is_named_whatever_its_name(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "list.yaml"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("list.ros", GK_ROS.read_text(encoding="utf-8"))
    assert kind_of(path) == "a BattleScribe / New Recruit roster (.rosz)"
    with pytest.raises(InputError) as err:
        load_roster(path)
    assert err.value.message == \
        "is a BattleScribe / New Recruit roster (.rosz), not a bagm roster"
    assert err.value.hint is not None and f"bagm import {path} -o list.yaml" in err.value.hint


def test_a_broken_roster_is_still_a_broken_roster(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("faction: Orks\nunits: [\n", encoding="utf-8")
    with pytest.raises(InputError, match="invalid YAML"):
        load_roster(path)


ORKS = REPO / "rosters" / "orks_kaptin_killers.yaml"


@pytest.mark.parametrize("command", [["validate"], ["show"], ["squads"], ["export"],
                                     ["underdog", ORKS], ["play", "--mission", "11", ORKS],
                                     ["simulate", "--games", "1", ORKS]])
def test_every_roster_command_says_what_the_file_is(command: list[object]) -> None:
    result = run(*command, NR_JSON)
    assert result.exit_code == 2
    out = result.output
    assert "is a New Recruit / BattleScribe JSON export, not a bagm roster" in out
    assert f"bagm import {NR_JSON} -o newrecruit_necrons.yaml" in out and "--import" in out


def test_validate_with_import_reads_it_in_memory() -> None:
    result = run("validate", "--import", GK_ROS, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["valid"] is True
    assert "imported as BattleScribe roster (.ros)" in result.stderr
    assert "wargear options kept for 1 unit(s)" in result.stderr  # the importer's notes, shown


def test_show_squads_underdog_export_with_import() -> None:
    assert run("show", "--import", APP_TXT).exit_code == 0
    squads = run("squads", "--import", GK_ROS, "-f", "json")
    assert squads.exit_code == 0 and json.loads(squads.stdout)["units"]
    under = run("underdog", "--import", NR_JSON, GK_ROS, "-f", "json")
    assert under.exit_code == 0, under.output
    assert json.loads(under.stdout)["underdog"] in ("A", "B", None)
    card = run("export", "--import", GK_ROS, "--to", "html", "--opponent", NR_JSON)
    assert card.exit_code == 0 and "Underdog" in card.stdout
    assert f"{NR_JSON}: imported as New Recruit JSON" in card.stderr


def test_import_of_a_bagm_roster_says_so(tmp_path: Path) -> None:
    roster = REPO / "rosters" / "orks_kaptin_killers.yaml"
    result = run("import", roster)
    assert result.exit_code == 2
    assert "is already a bagm roster; nothing to import" in result.stderr
    out = tmp_path / "k.yaml"
    assert run("import", roster, "-o", out).exit_code == 2 and not out.exists()


def test_folder_scans_take_every_yaml_spelling(tmp_path: Path) -> None:
    src = REPO / "rosters" / "orks_kaptin_killers.yaml"
    for name in ("a.yaml", "b.YAML", "c.yml", "d.Yml"):
        shutil.copy(src, tmp_path / name)
    (tmp_path / "notes.txt").write_text("not a roster", encoding="utf-8")
    data = json.loads(run("validate", tmp_path, "-f", "json").stdout)
    assert sorted(Path(r["path"]).name for r in data) == ["a.yaml", "b.YAML", "c.yml", "d.Yml"]


def test_replay_of_a_file_that_is_not_a_log_exits_2(tmp_path: Path) -> None:
    for text in ("hello\n", (REPO / "rosters" / "orks_kaptin_killers.yaml").read_text()):
        path = tmp_path / "game.jsonl"
        path.write_text(text, encoding="utf-8")
        result = run("replay", path)
        assert result.exit_code == 2 and f"{path}:1: not a JSON event" in result.stderr


def test_an_export_gets_the_users_usual_mode(tmp_path: Path) -> None:
    import os

    out = tmp_path / "card.html"
    assert run("export", REPO / "rosters" / "orks_kaptin_killers.yaml", "--to", "html", "-o",
               out).exit_code == 0
    mask = os.umask(0o022)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_pipe_is_not_opened_to_guess_what_it_is(tmp_path: Path) -> None:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "list.ros"
    os.mkfifo(fifo)
    assert kind_of(fifo) is None  # returns at once: opening it would wait for a writer


def test_build_army_takes_a_path_a_loaded_roster_or_an_import() -> None:
    from bagm.data.packs import Catalog
    from bagm.engine.game.muster import build_army
    from bagm.roster.foreign import Imported, load_or_import

    text = ORKS.read_text(encoding="utf-8")
    by_path = build_army("B", ORKS)
    by_roster = build_army("B", load_roster(ORKS, text), text=text)
    assert by_path.text == by_roster.text == text
    assert [u.label() for u in by_path.units] == [u.label() for u in by_roster.units]
    imported = load_or_import(GK_ROS, Catalog(), True)
    assert isinstance(imported, Imported)
    army = build_army("A", imported)
    assert army.text == imported.text and army.path == str(GK_ROS) and army.units


def test_play_with_import_logs_the_imported_roster_and_replays_anywhere(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "game.jsonl"
    result = run("play", "--mission", "11", "--import", GK_ROS, NR_JSON, "--seed", "3", "--log", log)
    assert result.exit_code == 0, result.output
    assert f"{GK_ROS}: imported as BattleScribe roster (.ros)" in result.stderr
    assert f"{NR_JSON}: imported as New Recruit JSON" in result.stderr
    head = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert head["roster_text"]["A"].startswith("# Imported by bagm from grey_knights_void_purge.ros")
    # the log holds the rosters it was played with: it replays from another folder, no --import
    away = tmp_path / "elsewhere"
    away.mkdir()
    monkeypatch.chdir(away)
    again = run("replay", log, "-f", "json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["reproduced"] is True


def test_a_script_plays_imported_lists_with_import(tmp_path: Path) -> None:
    script = tmp_path / "game.yaml"
    script.write_text(f"mission: 11\nseed: 1\nrosters: {{A: {GK_ROS}, B: {NR_JSON}}}\n"
                      "rolloffs: {attacker: A}\n"
                      "steps:\n  - 'A: role attacker'\n", encoding="utf-8")
    assert run("play", script).exit_code == 2
    result = run("play", "--import", script, "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["winner"] in ("A", "B", None)


def test_simulate_with_import(tmp_path: Path) -> None:
    result = run("simulate", "--import", GK_ROS, ORKS, "--games", "2", "--jobs", "1", "-f", "json",
                 "--html", tmp_path / "r.html")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 2
    assert f"{GK_ROS}: imported as BattleScribe roster (.ros)" in result.stderr
    logs = sorted((tmp_path / "r_games").glob("*.jsonl"))
    assert logs and "Imported by bagm" in json.loads(logs[0].read_text().splitlines()[0])["roster_text"]["A"]
