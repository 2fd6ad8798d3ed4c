"""The front door: no input crashes bagm, user text is never markup, the CLI conventions.

Every hostile input ends with a clear one-line error (file, what is wrong) and exit 2; a bug ends
with "internal error" and exit 3, the traceback only with --debug.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from conftest import FIXTURES, REPO
from typer.testing import CliRunner

from bagm.cli.app import app

MARK = "[/]"  # closes nothing: Rich would raise MarkupError if it read this as markup
ORKS = REPO / "rosters" / "orks_kaptin_killers.yaml"


def run(*args: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env)


def clean(result, code: int = 2) -> str:  # type: ignore[no-untyped-def]
    """The output of a run that ended as it should: the exit code, no traceback."""
    out = result.output
    assert result.exit_code == code, out + repr(result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in out
    return out


@pytest.fixture
def marked(tmp_path: Path) -> Path:
    """A real roster whose name, label, Enhancement and one unit carry ``[/]``."""
    text = ORKS.read_text(encoding="utf-8")
    text = text.replace("name: Da Kaptin Krumpas", f'name: "Da {MARK} Krumpas"')
    text = text.replace("    warlord: true\n", f'    warlord: true\n    label: "Big {MARK}"\n', 1)
    path = tmp_path / "marked.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# --- user text is never markup --------------------------------------------------------------

def test_markup_in_roster_text_prints_as_itself(marked: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"  # unknown faction, unit and Enhancement: in the findings
    broken.write_text(f'name: "X {MARK}"\nfaction: "Or{MARK}ks"\ndetachment: "D{MARK}"\nunits:\n'
                      f'  - unit: "Nobz {MARK}"\n    enhancement: "E {MARK}"\n', encoding="utf-8")
    for args, code in [(("validate", str(marked)), 0), (("validate", str(broken)), 1),
                       (("validate", str(marked), str(broken)), 1),
                       (("show", str(marked)), 0), (("show", str(broken)), 1),
                       (("squads", str(marked)), 0), (("squads", str(broken)), 1),
                       (("suggest", str(marked)), 0),
                       (("underdog", str(marked), str(ORKS), "--mission", "11"), 0),
                       (("export", str(marked)), 0), (("export", str(marked), "--to", "html"), 0),
                       (("export", str(marked), "--to", "svg"), 0)]:
        out = clean(run(*args), code)
        assert MARK in out, args


def test_markup_in_games(marked: Path) -> None:
    out = clean(run("play", "--mission", "11", str(marked), str(ORKS), "--seed", "1"), 0)
    assert f"Da {MARK} Krumpas" in out
    out = clean(run("simulate", str(marked), str(ORKS), "--games", "1", "--jobs", "1"), 0)
    assert f"Da {MARK} Krumpas" in out


def test_markup_in_map_labels(tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    path.write_text(f'name: "Map {MARK}"\nhatchways: [{{at: [[3, 2], [4, 2]], label: "Air{MARK}"}}]\n'
                    f'objectives: [{{label: "{MARK}", at: [2.5, 3.5]}}]\n'
                    f'areas: [{{kind: Lighting Area, label: "L{MARK}", zones: [[1, 1]]}}]\n'
                    f'summary: ["rule {MARK}"]\n', encoding="utf-8")
    out = clean(run("mission", "show", "--map", str(path)), 0)
    assert f"Map {MARK}" in out and f"Air{MARK}" in out and f"rule {MARK}" in out


def test_markup_in_pack_text(tmp_path: Path) -> None:
    pack = (FIXTURES / "packs" / "testing.yaml").read_text(encoding="utf-8")
    (tmp_path / "pack.yaml").write_text(
        pack.replace("faction: Test Legion", f'faction: "Test {MARK} Legion"')
        .replace("name: Line Squad", f'name: "Line {MARK} Squad"'), encoding="utf-8")
    out = clean(run("units", f"Test {MARK} Legion", "--data", str(tmp_path)), 0)
    assert f"Line {MARK} Squad" in out
    clean(run("detachments", f"Test {MARK} Legion", "--data", str(tmp_path)), 0)
    clean(run("data", "check", "--data", str(tmp_path)), 1)


# --- no input crashes bagm ------------------------------------------------------------------

def nested(depth: int) -> str:
    return "[" * depth + "]" * depth + "\n"


@pytest.mark.parametrize("depth", [100, 1_000, 30_000])
def test_deep_nesting_everywhere(tmp_path: Path, depth: int) -> None:
    deep = nested(depth)
    roster = tmp_path / "roster.yaml"
    roster.write_text("faction: Orks\nunits: " + deep, encoding="utf-8")
    assert "nested more than" in clean(run("validate", str(roster)))
    assert "nested more than" in clean(run("add", str(roster), "Nobz"))
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "deep.yaml").write_text("faction: Orks\nunits: " + deep, encoding="utf-8")
    assert "nested more than" in clean(run("units", "Orks", "--data", str(packs)))
    script = tmp_path / "script.yaml"
    script.write_text("mission: 11\nsteps: " + deep, encoding="utf-8")
    assert "nested more than" in clean(run("play", str(script)))
    map_file = tmp_path / "map.yaml"
    map_file.write_text("walls: " + deep, encoding="utf-8")
    assert "nested more than" in clean(run("mission", "show", "--map", str(map_file)))


def test_deep_nesting_in_block_style(tmp_path: Path) -> None:
    path = tmp_path / "roster.yaml"
    path.write_text("".join(" " * i + "a:\n" for i in range(200)) + " " * 200 + "b\n",
                    encoding="utf-8")
    assert "nested more than 64 levels" in clean(run("validate", str(path)))


def test_shallow_documents_with_many_openers_still_load(tmp_path: Path) -> None:
    # a real roster with many list items is never mistaken for deep nesting
    units = "".join("  - unit: Nobz\n    models: 5\n" for _ in range(80))
    path = tmp_path / "roster.yaml"
    path.write_text("faction: Orks\ndetachment: Kaptin Killers\nunits:\n" + units, encoding="utf-8")
    out = clean(run("validate", str(path), "--format", "json"), 1)
    assert json.loads(out)[0]["issues"][0]["code"] != "BA000"


def test_huge_integers(tmp_path: Path) -> None:
    roster = tmp_path / "roster.yaml"
    roster.write_text("faction: Orks\ndetachment: Kaptin Killers\nunits:\n  - unit: Nobz\n"
                      f"    models: {'9' * 5000}\n", encoding="utf-8")
    out = clean(run("validate", str(roster)))
    assert "5,000 digits" in out and "roster.yaml:5" in out
    export = tmp_path / "list.json"
    export.write_text('{"roster": {"costs": [{"value": ' + "9" * 5000 + "}]}}", encoding="utf-8")
    assert "4300 digits" in clean(run("import", str(export)))


def test_bad_dates_and_values(tmp_path: Path) -> None:
    roster = tmp_path / "roster.yaml"
    roster.write_text("name: 2024-02-31\nfaction: Orks\n", encoding="utf-8")
    assert "roster.yaml:1" in clean(run("validate", str(roster)))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_and_devices_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    for args in (("validate", str(fifo)), ("show", str(fifo)), ("import", str(fifo)),
                 ("add", str(fifo), "Nobz"), ("mission", "show", "--map", str(fifo)),
                 ("play", str(fifo))):
        assert "not a regular file" in clean(run(*args)), args
    if Path("/dev/zero").exists():
        assert "not a regular file" in clean(run("validate", "/dev/zero"))
        assert "not a regular file" in clean(run("import", "/dev/zero"))


def test_data_packs_get_the_safe_loader(tmp_path: Path) -> None:
    packs = tmp_path / "packs"
    (packs / "folder.yaml").mkdir(parents=True)  # a folder named like a pack is no pack
    assert clean(run("units", "Orks", "--data", str(packs)), 0)
    (packs / "bad.yaml").write_bytes(b"faction: Orks\nunits:\n  - name: \xff\xfe\n")
    out = clean(run("units", "Orks", "--data", str(packs)))
    assert "bad.yaml:3" in out and "UTF-8" in out
    (packs / "bad.yaml").unlink()
    bomb = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    bomb += [f"{c}: &{c} [{', '.join(['*' + p] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi", strict=True)]
    (packs / "bomb.yaml").write_text("faction: Orks\n" + "\n".join(bomb) + "\n", encoding="utf-8")
    assert "anchors and aliases are not allowed" in clean(run("units", "Orks", "--data", str(packs)))


def test_replay_of_malformed_logs(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    for text in ("", "not json\n", "[]\n", '{"t": "start"}\n', "{}\n" * 3, '"x"\n',
                 '{"t": "start", "mission": 11, "rosters": {"A": 1}}\n',
                 "[" * 100_000 + "\n"):
        log.write_text(text, encoding="utf-8")
        result = run("replay", str(log))
        assert result.exit_code in (1, 2), (text[:40], result.output, result.exception)
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    log.write_bytes(b"\xff\n")
    clean(run("replay", str(log)))
    clean(run("replay", str(tmp_path)))


# --- the guard and the conventions ----------------------------------------------------------

def _bagm(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bagm", *args], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)


def test_internal_error_guard(monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    import bagm.cli.app as cli
    import bagm.roster.validate

    def boom(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(bagm.roster.validate, "validate_path", boom)
    monkeypatch.setattr(sys, "argv", ["bagm", "validate", str(ORKS)])
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    assert exit_.value.code == 3
    err = capsys.readouterr().err
    assert "internal error, please report" in err and "ZeroDivisionError: a bug" in err
    assert "Traceback" not in err
    monkeypatch.setattr(sys, "argv", ["bagm", "--debug", "validate", str(ORKS)])
    with pytest.raises(ZeroDivisionError):
        cli.main()


def test_version() -> None:
    import bagm

    result = _bagm("--version")
    assert result.returncode == 0 and result.stdout == f"bagm {bagm.__version__}\n"


def test_completion_options_exist() -> None:
    out = _bagm("--help", COLUMNS="200").stdout
    assert "--install-completion" in out and "--show-completion" in out


def test_piped_output_is_not_cut_at_80_columns() -> None:
    result = _bagm("mission", "list")
    assert result.returncode == 0
    assert any("Access Junction Primus" in line for line in result.stdout.splitlines())
    assert "\x1b[" not in result.stdout  # no colour codes into a pipe


def test_no_color(marked: Path) -> None:
    result = _bagm("validate", str(marked), NO_COLOR="1", FORCE_COLOR="")
    assert "\x1b[3" not in result.stdout


# --- map files: finite numbers on the boards ------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("walls: [[[0, 2], [10000000, 2]]]\n", "from -10,000 to 10,000"),
    ("walls: [[[0, 2], [9000, 2]]]\n", "off the board"),
    ("boards: [{name: a, at: [0, 0]}, {name: b, at: [400000, 0]}]\n", "from -10,000 to 10,000"),
    ("boards: [{name: a, at: [0, 0]}, {name: b, at: [200, 0]}]\n", "reaches beyond 64 Zones"),
    ("objectives: [{label: A, at: [.inf, 2]}]\n", "not inf"),
    ("objectives: [{label: A, at: [2, .nan]}]\n", "not nan"),
    ("board: {width: .nan}\n", "not nan"),
    ("pieces: {wall: -.inf}\n", "not -inf"),
    ("board: {columns: 1, rows: 1, width: 5, height: 5}\nboards: ["
     + ", ".join(f"{{name: b{i}, at: [{i}, 0]}}" for i in range(20)) + "]\n",
     "at most 16 boards"),
])
def test_map_coordinates_are_bounded(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "map.yaml"
    path.write_text(text, encoding="utf-8")
    out = clean(run("mission", "show", "--map", str(path)))
    assert message in out and "map.yaml:" in out


# --- one atomic write -----------------------------------------------------------------------

def test_a_read_only_roster_is_not_rewritten(tmp_path: Path) -> None:
    roster = tmp_path / "r.yaml"
    roster.write_text(ORKS.read_text(encoding="utf-8"), encoding="utf-8")
    roster.chmod(0o444)
    before = roster.read_bytes()
    out = clean(run("add", str(roster), "Nobz", "--models", "5", "--force"))
    assert "read-only" in out and roster.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.yaml"]


def test_output_onto_a_device_writes_into_it(tmp_path: Path) -> None:
    if not Path("/dev/null").exists():
        pytest.skip("no /dev/null")
    clean(run("export", str(ORKS), "-o", "/dev/null"), 0)
    assert Path("/dev/null").is_char_device()
    clean(run("mission", "show", "11", "--svg", "/dev/null"), 0)
    assert Path("/dev/null").is_char_device()


def test_killed_writes_leave_nothing_behind(tmp_path: Path) -> None:
    from bagm.io.atomic import write_atomic

    roster = tmp_path / "r.yaml"
    roster.write_text("old\n", encoding="utf-8")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    left = tmp_path / f".r.yaml.bagm-{dead}-x1y2.tmp"  # what a killed write leaves
    left.write_text("half", encoding="utf-8")
    mine = tmp_path / f".r.yaml.bagm-{os.getpid()}-live.tmp"  # a write still in progress
    mine.write_text("busy", encoding="utf-8")
    write_atomic(roster, "new\n")
    assert roster.read_text(encoding="utf-8") == "new\n"
    assert not left.exists() and mine.exists()


def test_every_writer_gives_the_umask_mode(tmp_path: Path) -> None:
    mask = os.umask(0o027)
    try:
        clean(run("mission", "show", "11", "--svg", str(tmp_path / "m.svg")), 0)
        clean(run("export", str(ORKS), "-o", str(tmp_path / "e.txt")), 0)
    finally:
        os.umask(mask)
    for name in ("m.svg", "e.txt"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o640, name


def test_no_writer_of_its_own() -> None:
    """Every file bagm writes goes through bagm.io.atomic (no second implementation)."""
    import re

    pattern = re.compile(r"\bmkstemp\b|\bos\.replace\(|\.write_text\(|\.write_bytes\(|"
                         r"open\([^)]*['\"][wax]b?['\"]")
    found = [f"{p.relative_to(REPO)}:{n}" for p in sorted((REPO / "bagm").rglob("*.py"))
             if p.name != "atomic.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []


# --- the CLI conventions --------------------------------------------------------------------

def _command_paths(group: typer.Typer, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command of a Typer app, as the words that run it (Typer's public registry)."""
    found = [(*prefix, info.name or info.callback.__name__.replace("_", "-"))
             for info in group.registered_commands if info.callback is not None]
    for sub in group.registered_groups:
        assert sub.name and sub.typer_instance is not None
        found += _command_paths(sub.typer_instance, (*prefix, sub.name))
    return found


def test_one_format_vocabulary() -> None:
    """Every command with an output format takes --format/-f with 'text' and 'json': read from
    each command's --help, and a value outside the vocabulary is refused with exit 2."""
    import re

    short = re.compile(r"(?<![\w-])-f(?![\w-])")
    choice = re.compile(r"[<\[]([a-z]+(?:\|[a-z]+)+)[>\]]")  # [a|b] or <a|b>, as Typer shows them
    found: dict[str, list[str]] = {}
    commands = _command_paths(app)
    assert len(commands) > 30  # every module registered (conftest registers them all)
    for words in commands:
        out = clean(run(*words, "--help", env={"COLUMNS": "250"}), 0)
        line = next((line for line in out.splitlines() if "--format" in line), None)
        if line is None:
            continue
        assert short.search(line), (words, line)
        match = choice.search(line)
        assert match, (words, line)
        choices = match.group(1).split("|")
        assert {"text", "json"} <= set(choices), words
        found[" ".join(words)] = choices
    assert {"validate", "show", "play", "replay", "simulate", "import", "export", "odds"} <= set(found)
    result = run("validate", "-f", "yaml", str(ORKS))
    assert result.exit_code == 2 and "'text'" in result.output and "'json'" in result.output


CARD = "Warlord / Enhancement"  # a column of the roster card


def test_validate_many_reads_like_a_linter(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(ORKS.read_text(encoding="utf-8"), encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("faction: Orks\ndetachment: Kaptin Killers\nunits:\n  - unit: Nobbz\n",
                   encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text("faction: [\n", encoding="utf-8")
    out = clean(run("validate", str(tmp_path)), 2)
    lines = out.splitlines()
    assert any(line.startswith(f"{bad}:4: BA110 error: unknown unit 'Nobbz' for Orks; did you "
                               "mean 'Nobz'") for line in lines)
    assert any(line.startswith(f"{broken}:") and "BA000 error: invalid YAML" in line
               for line in lines)
    assert "Summary" in out and CARD not in out  # no roster cards
    assert not any(line.startswith(str(good)) for line in lines)  # a valid roster: no line
    assert CARD in clean(run("validate", str(tmp_path), "--cards"), 2)
    assert CARD in clean(run("validate", str(good)), 0)  # one roster: its card
    assert CARD not in clean(run("validate", str(good), "--brief"), 0)


def test_emoji_codes_in_user_text_print_as_themselves(marked: Path) -> None:
    text = marked.read_text(encoding="utf-8").replace(f"Da {MARK} Krumpas", f"Da :skull: {MARK}")
    marked.write_text(text, encoding="utf-8")
    assert f"Da :skull: {MARK}" in clean(run("show", str(marked)), 0)


# --- start-up: a run imports what its command needs -----------------------------------------

STARTUP_PROBE = """
import sys
from bagm.cli.app import main
sys.argv = ["bagm", "validate", sys.argv[1]]
try:
    main()
except SystemExit:
    pass
heavy = ("bagm.roster.wargear", "bagm.roster.importer", "bagm.io.bsdata", "bagm.engine",
         "bagm.data.schema", "ruamel", "jinja2")
print(sorted(m for m in sys.modules if m.startswith(heavy)), file=sys.stderr)
# the commands the run built: only the one invoked (no other command module imported)
from bagm.cli.app import app
print(sorted(m for m in sys.modules if m.startswith("bagm.cli.")),
      [c.name or c.callback.__name__ for c in app.registered_commands], file=sys.stderr)
"""


def test_validating_one_roster_imports_no_heavy_part(tmp_path: Path) -> None:
    env = dict(os.environ, BAGM_CACHE_DIR=str(tmp_path))
    for _ in range(2):  # the first run fills the pack cache (pydantic's schema), the second reads it
        p = subprocess.run([sys.executable, "-c", STARTUP_PROBE, str(ORKS)], env=env,
                           capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "Da Kaptin" in p.stdout, p.stderr
    heavy, built = p.stderr.strip().splitlines()
    assert heavy == "[]"  # no wargear named: the wargear checker is not imported
    assert built == "['bagm.cli.app', 'bagm.cli.common'] ['validate']"


# --- what an install ships ------------------------------------------------------------------

def test_every_package_and_data_file_ships() -> None:
    """setup.py finds every package under bagm/ (a folder of modules needs its __init__.py to be
    found) and pyproject's package-data globs cover every data file beside the modules."""
    import fnmatch
    import tomllib

    globs = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]
    root = REPO / "bagm"
    missing, unshipped = [], []
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or path.is_dir() or path.suffix == ".md":
            continue  # a README beside the modules is for developers, not the install
        if path.suffix == ".py":
            if not (path.parent / "__init__.py").is_file():
                missing.append(str(path.relative_to(REPO)))
            continue
        package = next(p for p in path.parents if (p / "__init__.py").is_file())
        name = ".".join(package.relative_to(REPO).parts)
        inside = path.relative_to(package).as_posix()
        if not any(fnmatch.fnmatch(inside, g) for g in globs.get(name, [])):
            unshipped.append(str(path.relative_to(REPO)))
    assert missing == [] and unshipped == []
    packs = sorted((REPO / "datasheets").glob("*.yaml"))
    assert packs and all(any(fnmatch.fnmatch(p.name, g) for g in globs["bagm.datasheets"]) for p in packs)
