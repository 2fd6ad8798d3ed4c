"""No input makes bagm's readers crash: rosters, data packs, maps, game scripts and event logs.

Two kinds of input: mutations of the bundled files (bytes flipped, cut, doubled, hostile tokens
inserted: markup, anchors, tags, deep brackets, huge numbers, NUL, invalid UTF-8) and documents
that hypothesis builds from YAML's own pieces. Every run must end as bagm promises: a result, or
a clear error with exit 1 or 2, never a traceback, an internal error or a hang. A short run is in
the default suite; ``pytest -m fuzz tests/test_fuzz.py`` runs the long one.
(The import formats have their own fuzz tests: tests/test_import_fuzz.py.)
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.engine.log.script import ScriptError, load_script
from bagm.errors import BagmError

ROSTERS = sorted((REPO / "rosters").glob("*.yaml"))
PACKS = sorted((REPO / "datasheets").glob("*.yaml"))
MAPS = sorted((REPO / "bagm" / "engine" / "board" / "maps").glob("*.yaml"))
SCRIPT = REPO / "games" / "example_mission11.yaml"
LOG = REPO / "tests" / "golden" / "greedy_seed7.jsonl"

TOKENS = [b"[/]", b"[bold]", b"&a ", b"*a", b"!!python/object:os.system ", b"!!binary ", b"<<: ",
          b"{", b"}", b"[", b"]", b"- ", b": ", b"? ", b"'", b'"', b"\t", b"\n", b"  ", b"#",
          b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b".inf", b"-.nan", b"9" * 5000, b"1e999",
          b"[" * 3000, b"{a: " * 200, b"- " * 500, b"2024-02-31", b"0x", b"~", b"null", b"yes",
          b"%YAML 1.1\n", b"---\n", b"...\n", b'{"e": "game"}', b"NaN", b"\\u0000"]
SHORT, LONG = 12, 400


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random edits of ``data``."""
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(data) + 1)
        op = rng.randrange(5)
        if op == 0 and data:  # flip a byte
            data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
        elif op == 1:  # cut a slice
            data = data[:i] + data[i + rng.randint(1, 200):]
        elif op == 2:  # double a slice
            data = data[:i] + data[i:i + rng.randint(1, 200)] * rng.randint(2, 5) + data[i:]
        else:  # a hostile token
            data = data[:i] + rng.choice(TOKENS) + data[i:]
    return data


def invoke(*args: str) -> Any:
    start, cpu = time.perf_counter(), time.process_time()
    result = CliRunner().invoke(app, list(args))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args, result.output, repr(result.exception))
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    assert "Traceback" not in result.output and "internal error" not in result.output
    # CPU time bounds the work (a shared machine stretches wall time); wall time catches a hang
    assert cpu < 10 and seconds < 120, (args, cpu, seconds)
    return result


def fuzz(examples: int, **kw: Any) -> Any:
    """Hypothesis settings for a fuzz test: ``examples`` runs, no deadline (the machine is
    shared), derandomised so that the default suite is the same every run."""
    return settings(max_examples=examples, deadline=None, derandomize=examples == SHORT,
                    suppress_health_check=list(HealthCheck), **kw)


# --- mutations of the bundled files -----------------------------------------------------------

def _roster(tmp: Path, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp / "roster.yaml"
    path.write_bytes(mutate(rng.choice(ROSTERS).read_bytes(), rng))
    invoke("validate", str(path))
    invoke("show", str(path), "--format", "json")
    invoke("squads", str(path))


def _pack(tmp: Path, seed: int) -> None:
    rng = random.Random(seed)
    source = rng.choice(PACKS)
    folder = tmp / f"packs{seed}"
    folder.mkdir()
    (folder / source.name).write_bytes(mutate(source.read_bytes(), rng))
    faction = yaml.safe_load(source.read_text(encoding="utf-8"))["faction"]
    invoke("units", faction, "--data", str(folder))


def _map(tmp: Path, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp / "map.yaml"
    path.write_bytes(mutate(rng.choice(MAPS).read_bytes(), rng))
    invoke("mission", "show", "--map", str(path))


def _script(tmp: Path, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp / "script.yaml"
    text = SCRIPT.read_bytes().replace(b"../rosters/", str(REPO / "rosters").encode() + b"/")
    path.write_bytes(mutate(text, rng))
    try:  # the reader only: a valid script plays a whole game, which the engine tests cover
        load_script(path)
    except (ScriptError, BagmError):
        pass


def _log(tmp: Path, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp / "game.jsonl"
    text = LOG.read_bytes().replace(b'"rosters/', b'"' + str(REPO / "rosters").encode() + b"/")
    path.write_bytes(mutate(text, rng))
    invoke("replay", str(path))


READERS = {"roster": _roster, "pack": _pack, "map": _map, "script": _script}


@pytest.mark.parametrize("reader", sorted(READERS))
@fuzz(SHORT)
@given(seed=st.integers(0, 2**32))
def test_mutated_bundled_files(reader: str, seed: int, tmp_path_factory: Any) -> None:
    READERS[reader](tmp_path_factory.mktemp(reader), seed)


@fuzz(3)
@given(seed=st.integers(0, 2**32))
def test_mutated_event_logs(seed: int, tmp_path_factory: Any) -> None:
    _log(tmp_path_factory.mktemp("log"), seed)


@pytest.mark.fuzz
@pytest.mark.parametrize("reader", sorted(READERS) + ["log"])
@fuzz(LONG)
@given(seed=st.integers(0, 2**32))
def test_mutated_bundled_files_long(reader: str, seed: int, tmp_path_factory: Any) -> None:
    {**READERS, "log": _log}[reader](tmp_path_factory.mktemp(reader), seed)


# --- documents built from YAML's pieces -------------------------------------------------------

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
                    st.sampled_from(["[/]", "[bold]x", "Nobz", "Warboss", "Orks",
                                     "Kaptin Killers", "2024", "A1", "deploy A1 1"]))
KEYS = st.sampled_from(["name", "faction", "detachment", "units", "unit", "models", "warlord",
                        "enhancement", "weapon", "label", "edition", "mission", "rosters",
                        "steps", "seed", "walls", "hatchways", "objectives", "boards", "board",
                        "at", "zones", "areas", "entry_zones", "pillars", "x"])
DOCS = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)), max_leaves=25)


def _document(tmp: Path, doc: Any) -> None:
    text = yaml.safe_dump(doc, allow_unicode=True)
    for name, args in (("roster.yaml", ("validate",)), ("map.yaml", ("mission", "show", "--map"))):
        path = tmp / name
        path.write_text(text, encoding="utf-8")
        invoke(*args, str(path))
    path = tmp / "script.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_script(path)
    except (ScriptError, BagmError):
        pass


@fuzz(SHORT * 2)
@given(doc=DOCS)
def test_built_documents(doc: Any, tmp_path_factory: Any) -> None:
    _document(tmp_path_factory.mktemp("doc"), doc)


@pytest.mark.fuzz
@fuzz(LONG * 5)
@given(doc=DOCS)
def test_built_documents_long(doc: Any, tmp_path_factory: Any) -> None:
    _document(tmp_path_factory.mktemp("doc"), doc)
