"""Editing rosters: new, add, remove, set. Comments and layout survive; rule breaks are refused
unless --force; unknown names get a "did you mean"; hostile files are refused quickly. Also the
CI hooks: the pre-commit entry and ``bagm validate --changed-only``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, REPO, cpu_timed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.io.roundtrip import dump_document, load_document
from bagm.io.yamlsafe import load
from bagm.roster import edit
from bagm.roster.model import load_roster

COMMENTED = """\
# Club league roster: keep these notes!
name: Comment Force   # the name on the card
faction: Test Legion
detachment: Test Strike   # chosen for the Testing Ground rule

units:
  # --- characters ---
  - unit: Lord Commander   # our Warlord
    warlord: true
    # the Iron Will keeps him standing
    enhancement: Iron Will

  # --- troops ---
  - unit: Line Squad
    models: 10   # full squad
    label: Alpha
  # second squad, half strength
  - {unit: Line Squad, models: 5, label: Bravo}
  # hounds need the Battleline above
  - unit: Hound Pack
    models: 5
# end of list: Cherub next time?
battle_ready: true  # painted in March
"""
# comments written on the lines of one unit go when that unit is removed; all others stay
OWNED = {0: ["# our Warlord", "# the Iron Will keeps him standing"], 1: ["# full squad"], 2: [],
         3: []}

# flow items with comments next to block ones: ruamel.yaml 0.19 garbles this mix on its own
FLOWY = """\
faction: Test Legion  # f
detachment: Test Strike
units:   # the list
- {unit: Lord Commander, warlord: true}   # boss
# between
- unit: Line Squad
  models: 10
- {unit: Cherub}
# after cherub
battle_ready: false
"""
FLOWY_OWNED = {0: ["# boss"], 1: [], 2: []}


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAGM_DATA", os.pathsep.join([str(FIXTURES / "packs"),
                                                     str(FIXTURES / "packs_other")]))


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


def roster(tmp_path: Path, text: str = COMMENTED, name: str = "r.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def comments(text: str) -> Counter[str]:
    return Counter(m.group(0).strip() for line in text.splitlines()
                   if (m := re.search(r"#.*$", line)))


def diff(before: str, after: str) -> tuple[list[str], list[str]]:
    """Lines only in ``before``, lines only in ``after`` (in order)."""
    import difflib

    lines = list(difflib.ndiff(before.splitlines(), after.splitlines()))
    return ([x[2:] for x in lines if x.startswith("- ")],
            [x[2:] for x in lines if x.startswith("+ ")])


# --- round trip -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((REPO / "rosters").glob("*.yaml")), ids=lambda p: p.name)
def test_bundled_rosters_round_trip_byte_for_byte(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert dump_document(load_document(path, text)) == text


@pytest.mark.parametrize("text", [
    COMMENTED,
    COMMENTED.replace("\n", "\r\n"),
    "faction: Test Legion\ndetachment: Test Strike\nunits:\n- unit: Cherub\n- unit: Loner\n",
    "faction: Test Legion\ndetachment: Test Strike\nunits:\n    -   unit: Cherub\n"
    "        label: 'on'\n",
    "faction: Test Legion\ndetachment: Test Strike\nunits: [{unit: Cherub}, {unit: Loner}]\n",
    "---\nfaction: \"Test Legion\"\ndetachment: Test Strike\nunits: []\n",
])
def test_layouts_round_trip_byte_for_byte(text: str, tmp_path: Path) -> None:
    path = roster(tmp_path, text)
    assert dump_document(load_document(path)).encode() == text.encode()


def test_a_layout_ruamel_garbles_is_written_as_block_items_with_every_comment() -> None:
    text = dump_document(load_document("r.yaml", FLOWY))
    expected = FLOWY.replace("- {unit: Lord Commander, warlord: true}   # boss",
                             "- unit: Lord Commander\n  warlord: true # boss").replace(
                                 "- {unit: Cherub}", "- unit: Cherub")
    assert re.sub(r" +#", " #", text) == re.sub(r" +#", " #", expected)


# --- the edit operations, comment by comment ------------------------------------------------


def test_add_appends_after_the_last_unit_and_keeps_the_closing_comment(env, tmp_path: Path) -> None:
    path = roster(tmp_path)
    result = run("add", str(path), "cherub")
    assert result.exit_code == 0, result.output
    after = path.read_text()
    assert diff(COMMENTED, after) == ([], ["  - unit: Cherub"])
    assert after.index("  - unit: Cherub") < after.index("# end of list")
    assert "Added Cherub to" in result.output and "451 / 500 pts" in result.output
    assert "(49 left)" in result.output and "valid Boarding Patrol" in result.output


def test_add_with_size_and_label(env, tmp_path: Path) -> None:
    path = roster(tmp_path)
    result = run("add", str(path), "Liners", "--models", "5", "--label", "Charlie", "--force")
    assert result.exit_code == 1  # 505 points: over the limit, written because of --force
    assert diff(COMMENTED, path.read_text()) == (
        [], ["  - unit: Line Squad", "    models: 5", "    label: Charlie"])
    assert "BA170" in result.output and "now breaks" in result.output


@pytest.mark.parametrize("target, gone", [
    ("#1", ["  - unit: Lord Commander   # our Warlord", "    warlord: true",
            "    # the Iron Will keeps him standing", "    enhancement: Iron Will"]),
    ("alpha", ["  - unit: Line Squad", "    models: 10   # full squad", "    label: Alpha"]),
    ("Bravo", ["  - {unit: Line Squad, models: 5, label: Bravo}"]),
    ("hound pack", ["  - unit: Hound Pack", "    models: 5"]),
])
def test_remove_takes_only_the_units_lines(env, tmp_path: Path, target: str,
                                           gone: list[str]) -> None:
    path = roster(tmp_path)
    warlord = target == "#1"  # removing the Warlord takes --force (and says what breaks)
    result = run("remove", str(path), target, *(["--force"] if warlord else []))
    assert result.exit_code == (1 if warlord else 0), result.output
    assert diff(COMMENTED, path.read_text()) == (gone, [])
    assert "Removed #" in result.output


def test_add_to_a_roster_without_units_key(env, tmp_path: Path) -> None:
    path = roster(tmp_path, "faction: Test Legion  # x\ndetachment: Test Strike\n# the end\n")
    assert run("add", str(path), "Lord Commander").exit_code == 0
    assert path.read_text() == ("faction: Test Legion  # x\ndetachment: Test Strike\nunits:\n"
                                "  - unit: Lord Commander\n# the end\n")


def test_set_changes_values_in_place(env, tmp_path: Path) -> None:
    path = roster(tmp_path)
    result = run("set", str(path), "Alpha", "--models", "5", "--label", "Charlie")
    assert result.exit_code == 0, result.output
    assert diff(COMMENTED, path.read_text()) == (
        ["    models: 10   # full squad", "    label: Alpha"],
        ["    models: 5    # full squad", "    label: Charlie"])
    result = run("set", str(path), "#1", "--enhancement", "")
    assert result.exit_code == 0
    assert "    enhancement: Iron Will" not in path.read_text()
    assert "# the Iron Will keeps him standing\n\n  # --- troops ---" in path.read_text()


def test_set_inserts_new_keys_in_order_under_the_comments(env, tmp_path: Path) -> None:
    path = roster(tmp_path)
    assert run("set", str(path), "hound pack", "--label", "Rex").exit_code == 0
    assert "  - unit: Hound Pack\n    models: 5\n    label: Rex\n# end of list" in path.read_text()
    assert run("set", str(path), "bravo", "--label", "yes").exit_code == 0
    assert "  - {unit: Line Squad, models: 5, label: 'yes'}\n" in path.read_text()
    assert load_roster(path).file.units[2].label == "yes"  # a string, not YAML 1.1's true


def test_warlord_moves_and_keeps_the_comments_of_the_old_one(env, tmp_path: Path) -> None:
    path = roster(tmp_path)
    assert run("add", str(path), "Tech Adept").exit_code == 0
    result = run("set", str(path), "tech adept", "--warlord")
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert diff(COMMENTED, text) == (["    warlord: true"],
                                     ["  - unit: Tech Adept", "    warlord: true"])
    assert "  - unit: Lord Commander   # our Warlord\n    # the Iron Will" in text
    result = run("set", str(path), "tech adept", "--no-warlord")
    assert result.exit_code == 1 and "BA130" in result.output  # taking the Warlord away
    assert load_roster(path).file.units[-1].warlord is True


# --- refusing what breaks a rule -------------------------------------------------------------


@pytest.mark.parametrize("args, code", [
    (["add", "{}", "Lord Commander"], "BA113"),  # the Detachment allows one
    (["add", "{}", "Heavy Squad", "--models", "10"], "BA170"),  # 785 points
    (["add", "{}", "Line Squad", "--models", "7"], "BA114"),
    (["add", "{}", "Loner"], "BA165"),  # must be the only CHARACTER
    (["add", "{}", "Stranger"], "BA111"),
    (["set", "{}", "alpha", "--warlord"], "BA132"),  # a CHARACTER must be the Warlord
    (["set", "{}", "#1", "--enhancement", "Trademark Weapon"], "BA150"),  # needs --weapon
    (["set", "{}", "#1", "--enhancement", "Quiet Step"], "BA140"),  # another Detachment's
    (["set", "{}", "alpha", "--enhancement", "Peerless Leader"], "BA141"),
    (["remove", "{}", "alpha"], None),  # allowed: the Hounds still have Bravo
])
def test_an_edit_that_breaks_a_rule_is_refused(env, tmp_path: Path, args: list[str],
                                               code: str | None) -> None:
    path = roster(tmp_path)
    result = run(*[a.format(path) for a in args])
    if code is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1, result.output
    assert "refused" in result.output and code in result.output and "--force" in result.output
    assert path.read_bytes() == COMMENTED.encode()  # byte-identical
    forced = run(*[a.format(path) for a in args], "--force")
    assert forced.exit_code == 1 and "written with --force" in forced.output
    assert code in forced.output and path.read_bytes() != COMMENTED.encode()


def test_a_rule_broken_before_does_not_block_other_edits(env, tmp_path: Path) -> None:
    path = roster(tmp_path, COMMENTED.replace("models: 10   # full squad", "models: 7"))
    assert "BA114" in run("validate", str(path)).output
    result = run("add", str(path), "Cherub")
    assert result.exit_code == 0, result.output
    result = run("add", str(path), "Bracket Squad", "--models", "2")  # a second BA114
    assert result.exit_code == 1 and "BA114" in result.output


def test_removing_a_required_unit_is_refused(env, tmp_path: Path) -> None:
    path = roster(tmp_path)
    assert run("remove", str(path), "bravo").exit_code == 0
    result = run("remove", str(path), "alpha")  # the last BATTLELINE: the Hounds need one
    assert result.exit_code == 1 and "BA161" in result.output


def test_removing_the_warlord_is_refused(env, tmp_path: Path) -> None:
    # issue 18: losing the Warlord breaks "Select Warlord" like any other breaking edit
    path = roster(tmp_path)
    result = run("remove", str(path), "Lord Commander")
    assert result.exit_code == 1 and "refused" in result.output and "BA130" in result.output
    assert path.read_text() == COMMENTED
    forced = run("remove", str(path), "Lord Commander", "--force")
    assert forced.exit_code == 1 and "now breaks" in forced.output
    assert "Lord Commander" not in path.read_text()


def test_a_roster_being_built_may_lack_a_warlord(env, tmp_path: Path) -> None:
    path = roster(tmp_path, "faction: Test Legion\ndetachment: Test Strike\n")
    assert run("add", str(path), "Tech Adept").exit_code == 0  # no Warlord yet: unfinished
    assert run("add", str(path), "Line Squad", "--models", "5").exit_code == 0
    assert run("remove", str(path), "Line Squad").exit_code == 0


def test_trademark_weapon_with_its_weapon(env, tmp_path: Path) -> None:
    path = roster(tmp_path)
    assert run("set", str(path), "#1", "--enhancement", "").exit_code == 0
    result = run("set", str(path), "#1", "-e", "trademark weapon", "-w", "storm bolter")
    assert result.exit_code == 0, result.output
    assert "    enhancement: Trademark Weapon\n    weapon: Storm bolter\n" in path.read_text()
    result = run("set", str(path), "#1", "--weapon", "Flamer")  # a Torrent weapon
    assert result.exit_code == 1 and "BA152" in result.output
    result = run("set", str(path), "#1", "--enhancement", "")  # takes the weapon with it
    assert result.exit_code == 0 and "weapon:" not in path.read_text()


# --- names, usage and hostile input -----------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["add", "{}", "Line Sqaud"], "unknown unit 'Line Sqaud' for Test Legion (did you mean "
                                  "'Line Squad'?)"),
    (["add", "{}", "Line Squad"], "Line Squad can be taken at 5 or 10 models; give --models N"),
    (["remove", "{}", "Line Squad"], "2 units match 'Line Squad' (#2, #3) (name one by its "
                                     "number, e.g. '#2', or give it a label)"),
    (["remove", "{}", "Alfa"], "no unit 'Alfa' in the roster (did you mean 'Alpha'?)"),
    (["remove", "{}", "#9"], "no unit #9; the roster has 4 unit(s)"),
    (["set", "{}", "#1", "-e", "Iron Wil"], "unknown Enhancement 'Iron Wil' (did you mean "
                                            "'Iron Will'?)"),
    (["set", "{}", "#1", "-w", "bolt gun"], "Lord Commander has no weapon 'bolt gun'"),
    (["set", "{}", "#1"], "nothing to change"),
    (["new", "{}", "--faction", "Test Legion", "--detachment", "Test Strike"], "already exists"),
])
def test_bad_names_and_usage_exit_2(env, tmp_path: Path, args: list[str], message: str) -> None:
    path = roster(tmp_path)
    result = run(*[a.format(path) for a in args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert path.read_bytes() == COMMENTED.encode()


def test_new(env, tmp_path: Path) -> None:
    path = tmp_path / "n.yaml"
    result = run("new", str(path), "--faction", "tl", "--detachment", "test strike",
                 "--name", "Fresh", "--edition", "2023")
    assert result.exit_code == 0, result.output
    assert path.read_text() == ("name: Fresh\nfaction: Test Legion\ndetachment: Test Strike\n"
                                "edition: 2023\nunits: []\n")
    assert "Created" in result.output and "0 / 500 pts" in result.output
    assert run("add", str(path), "Lord Commander").exit_code == 0
    assert run("set", str(path), "#1", "--warlord").exit_code == 0
    assert path.read_text().endswith("units:\n  - unit: Lord Commander\n    warlord: true\n")
    assert run("validate", str(path)).exit_code == 0


@pytest.mark.parametrize("args, message", [
    (["--faction", "Test Legoin", "--detachment", "x"], "did you mean 'Test Legion'?"),
    (["--faction", "Test Legion", "--detachment", "Tset Strike"], "did you mean 'Test Strike'?"),
    (["--faction", "Test Legion", "--detachment", "Test Strike", "--edition", "2025"],
     "--edition must be 2023 or 2024"),
])
def test_new_refuses_unknown_names(env, tmp_path: Path, args: list[str], message: str) -> None:
    result = run("new", str(tmp_path / "n.yaml"), *args)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "n.yaml").exists()


def test_a_10_mb_yaml_is_refused_within_a_second(env, tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(COMMENTED.encode() + b"# padding padding padding\n" * 400_000)
    assert path.stat().st_size > 10_000_000
    result, cpu = cpu_timed(lambda: run("add", str(path), "Cherub"))
    assert cpu < 1.0, cpu
    assert result.exit_code == 2 and "file is too large" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("text, message", [
    # under the 1 MB reading limit, but more than a roster editor needs to parse
    (COMMENTED + "# padding padding padding\n" * 12_000, "too large to edit in place"),
    ("faction: Test Legion\ndetachment: Test Strike\nunits:\n" + "  - {unit: Cherub}\n" * 501,
     "has 501 units; a 500-point Boarding Patrol cannot hold more than 500"),
])
def test_files_too_big_to_edit_are_refused_quickly(env, tmp_path: Path, text: str,
                                                   message: str) -> None:
    path = roster(tmp_path, text)
    result, cpu = cpu_timed(lambda: run("add", str(path), "Cherub"))
    assert cpu < 1.0, cpu
    assert result.exit_code == 2 and message in result.output
    assert path.read_text() == text


@pytest.mark.parametrize("text, message", [
    ("a: &x [1]\nb: *x\n", "anchors and aliases are not allowed"),
    ("faction: !!python/object:os.system x\n", "unsupported YAML tag"),
    ("- just\n- a list\n", "a roster must be a mapping"),
    ("faction: Test Legion\ndetachment: Test Strike\nunits: []\nbatle_ready: true\n",
     "did you mean 'battle_ready'?"),
    ("faction: [\n", "invalid YAML"),
])
def test_hostile_or_broken_files_are_refused(env, tmp_path: Path, text: str,
                                             message: str) -> None:
    path = roster(tmp_path, text)
    result = run("add", str(path), "Cherub")
    assert result.exit_code == 2 and message in result.output, result.output
    assert path.read_text() == text


def test_binary_file_is_refused(env, tmp_path: Path) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"faction: \x00\x01\x02")
    result = run("remove", str(path), "#1")
    assert result.exit_code == 2 and "binary file" in result.output


def test_editing_commands_do_not_slow_down_start_up() -> None:
    code = "import sys, bagm.cli.app; print(sorted(m for m in ('ruamel.yaml', 'rich.prompt', " \
           "'bagm.io.roundtrip', 'bagm.roster.edit') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert out.stdout.strip() == "[]"


# --- property: any sequence of edits keeps every comment that is not on a removed unit --------

op = st.one_of(
    st.tuples(st.just("remove"), st.integers(0, 7)),
    st.tuples(st.just("add"), st.sampled_from(["Cherub", "Red Guard"]), st.sampled_from([None, 5])),
    st.tuples(st.just("models"), st.integers(0, 7), st.integers(1, 10)),
    st.tuples(st.just("label"), st.integers(0, 7), st.sampled_from(["X", "yes", "", "1:30"])),
    st.tuples(st.just("warlord"), st.integers(0, 7)),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([(COMMENTED, OWNED), (FLOWY, FLOWY_OWNED)]), st.lists(op, max_size=8))
def test_edits_keep_comments_and_data(base: tuple[str, dict[int, list[str]]],
                                      ops: list[tuple]) -> None:
    source, owned = base
    doc = load_document("r.yaml", source)
    original = yaml.safe_load(source)
    model = [dict(u) for u in original["units"]]
    owner: list[int | None] = list(range(len(model)))  # original index of each entry
    removed: list[int] = []
    for o in ops:
        if o[0] == "add":
            doc = edit.add_unit(doc, o[1], o[2])
            model.append({"unit": o[1], **({"models": o[2]} if o[2] else {})})
            owner.append(None)
            continue
        if not model:
            continue
        i = o[1] % len(model)
        if o[0] == "remove":
            doc = edit.remove_unit(doc, i)
            del model[i]
            if owner[i] is not None:
                removed.append(owner[i])
            del owner[i]
        elif o[0] == "models":
            doc = edit.set_unit(doc, i, models=o[2])
            model[i]["models"] = o[2]
        elif o[0] == "label":
            doc = edit.set_unit(doc, i, label=o[2])
            if o[2]:
                model[i]["label"] = o[2]
            else:
                model[i].pop("label", None)
        else:
            doc = edit.set_unit(doc, i, warlord=True)
            for u in model:
                u.pop("warlord", None)
            model[i]["warlord"] = True
    text = dump_document(doc)
    data = load("r.yaml", text).data  # the validator's own loader reads it back
    assert data["units"] == model
    assert list(data) == list(original)  # same keys, same order
    assert {k: v for k, v in data.items() if k != "units"} == {
        k: v for k, v in original.items() if k != "units"}
    load_roster("r.yaml", text)
    expected = comments(source) - Counter(c for i in removed for c in owned[i])
    assert comments(text) == expected
    assert dump_document(load_document("r.yaml", text)) == text  # stable when read again


# --- CI: pre-commit hook and --changed-only ---------------------------------------------------


def test_pre_commit_hook(env, tmp_path: Path) -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    (hook,) = [h for h in hooks if h["id"] == "bagm-validate"]
    assert hook["entry"] == "bagm validate" and hook["language"] == "python"
    files = re.compile(hook["files"])
    for name in ["rosters/a.yaml", "club/rosters/b.yml", "roster/x.yaml"]:
        assert files.search(name), name
    for name in [".pre-commit-config.yaml", "datasheets/orks.yaml", ".github/workflows/ci.yml",
                 "rosters/notes.txt"]:
        assert not files.search(name), name
    # pre-commit runs the entry with the changed file names appended
    good = roster(tmp_path, COMMENTED, "good.yaml")
    bad = roster(tmp_path, COMMENTED.replace("Cherub next time", "x") + "edition: 2022\n",
                 "bad.yaml")
    args = hook["entry"].split()[1:]
    assert run(*args, str(good)).exit_code == 0
    assert run(*args, str(good), str(bad)).exit_code == 2


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env) -> Path:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    root = tmp_path / "club"
    (root / "rosters").mkdir(parents=True)
    for name in ("a.yaml", "b.yaml"):
        roster(root / "rosters", COMMENTED, name)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "rosters")
    return root


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   cwd=root, check=True, capture_output=True)


def changed(root: Path, *args: str) -> tuple[int, list[str]]:
    result = run("validate", str(root / "rosters"), "--changed-only", "-f", "json", *args)
    paths = [Path(r["path"]).name for r in json.loads(result.stdout)] if result.stdout else []
    return result.exit_code, paths


def test_changed_only_since_the_last_commit(repo: Path) -> None:
    assert changed(repo) == (0, [])
    result = run("validate", str(repo / "rosters"), "--changed-only")
    assert result.exit_code == 0 and "no changed rosters" in result.output
    (repo / "rosters" / "b.yaml").write_text(COMMENTED.replace("Cherub", "Grot"))
    roster(repo / "rosters", COMMENTED.replace("models: 10", "models: 7"), "c.yaml")  # untracked
    assert changed(repo) == (1, ["b.yaml", "c.yaml"])
    result = run("validate", str(repo / "rosters" / "a.yaml"), "--changed-only", "-f", "json")
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_changed_only_against_a_base_branch(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "rosters" / "b.yaml").write_text(COMMENTED.replace("Cherub", "Grot"))
    git(repo, "commit", "-q", "-am", "b")
    git(repo, "checkout", "-q", "main")
    (repo / "rosters" / "a.yaml").write_text(COMMENTED.replace("Cherub", "Snotling"))
    git(repo, "commit", "-q", "-am", "a on main")
    git(repo, "checkout", "-q", "feature")
    # only what the branch changed since it left main, not what main did since
    assert changed(repo, "--base", "main") == (0, ["b.yaml"])
    result = run("validate", str(repo / "rosters"), "--base", "main", "-f", "github")
    assert result.exit_code == 0 and "1 of 1 roster(s) valid" in result.output


@pytest.mark.parametrize("base, message", [
    ("no-such-branch", "unknown git revision 'no-such-branch'"),
    ("--output=/tmp/x", "is not a git revision"),
])
def test_changed_only_bad_base(repo: Path, base: str, message: str) -> None:
    result = run("validate", str(repo / "rosters"), f"--base={base}")
    assert result.exit_code == 2 and message in result.output


def test_changed_only_outside_a_repository(env, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    path = roster(tmp_path)
    result = run("validate", str(path), "--changed-only")
    assert result.exit_code == 2
    assert "--changed-only needs a git repository" in result.output
