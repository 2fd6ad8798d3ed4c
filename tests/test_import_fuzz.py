"""No input makes the import readers crash, hang or swell.

Three kinds of test: hand-made hostile inputs that once took seconds or raised a traceback
(each must now end within a second with a one-line error, exit 2); hypothesis-built text that
aims at the readers' regular expressions (long runs of spaces, digits, brackets); and mutations
of the bundled fixtures (bytes flipped, cut, doubled, tokens inserted). A short run of each is in
the default suite; ``pytest -m fuzz tests/test_import_fuzz.py`` runs the long one.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, raw_zip
from conftest import cpu_timed as timed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.packs import Catalog, bundled_dir
from bagm.io.textlist import read_text_list
from bagm.io.yamlsafe import InputError
from bagm.roster.importer import import_list, read_army_list, roster_yaml
from bagm.roster.model import load_roster

IMPORT = FIXTURES / "import"
CATALOG = Catalog([bundled_dir()])
SECOND = 1.0  # of CPU time; generous: the fixed readers take milliseconds, the old ones seconds to hours


def run(*args: Any) -> Any:
    return CliRunner().invoke(app, [str(a) for a in args])


# --- regular expressions that backtracked -----------------------------------------------------

N = 10_000  # one 10 KB line: the cubic patterns took minutes to hours on this
PATHOLOGICAL = {
    "battlescribe category": "++ Force (Cat) ++\n+ a" + " " * N + "b",
    "battlescribe force": "++ a" + " " * N + "b (c) ++",
    "battlescribe forces": "++ a" + " (c" * (N // 3) + " ++",
    "battlescribe total": "++ Force (Cat) ++\n++ total [1" + " " * N,
    "wtc enhancement on": "+ FACTION KEYWORD: x\n+ ENHANCEMENT: x" + " (on a" * (N // 6) + ")",
    "wtc enhancement open": "+ FACTION KEYWORD: x\n+ ENHANCEMENT: x" + " (on a" * (N // 6),
    "wtc enhancement spaces": "+ FACTION KEYWORD: x\n+ ENHANCEMENT: x (on a" + " " * N + "b)",
    "wtc header key": "+ FACTION KEYWORD: x\n+ a" + " " * N + "b",
    "app unit digits": "a (" + "1" * N + " " * N,
    "app unit spaces": "a" + " " * N + "b (",
    "app unit brackets": "a " + "(1 " * (N // 3),
    "app enhancement": "A (1 pts)\n  • Enhancement: a" + " " * N + "b (",
    "app cost": "A (1 pts)\n  • Enhancement: a (+" + "1" * N + " " * N + ")",
    "long count": "A (1 pts)\n  • " + "9" * N + "x Grey Knight",
    "long points": "A (" + "9" * N + " points)",
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_pathological_lines_read_in_linear_time(name: str) -> None:
    army, seconds = timed(lambda: read_text_list("paste.txt", PATHOLOGICAL[name]))
    assert not isinstance(army, Exception), army
    assert seconds < SECOND, f"{name}: {seconds:.2f} s"
    result, _ = timed(lambda: import_list(army, CATALOG))  # (may load every pack: not timed)
    assert not isinstance(result, Exception) or isinstance(result, InputError), result


def test_a_3_kb_pasted_list_imports_in_well_under_a_second(tmp_path: Path) -> None:
    """A real list with one line of a hostile paste: 14 to 21 s before, milliseconds now."""
    text = (IMPORT / "battlescribe_tyranids.txt").read_text(encoding="utf-8")
    hostile = "+ Configuration" + " " * 2_000 + "x\n"
    path = tmp_path / "list.txt"
    path.write_text(text.replace("+ Configuration +\n", "+ Configuration +\n" + hostile),
                    encoding="utf-8")
    assert 2_900 < path.stat().st_size < 3_300
    CATALOG.faction("Tyranids")  # the pack loaded (on a cold cache that alone takes seconds)
    imported, seconds = timed(lambda: import_list(read_army_list(path), CATALOG))
    assert seconds < SECOND and not isinstance(imported, Exception), (seconds, imported)
    result = run("import", path)  # (its time would include loading a pack on a cold cache)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "not mapped: line " in result.stderr  # the odd line is reported, the rest imported


_PIECES = st.sampled_from([" ", "  ", "(", ")", "[", "]", "1", "12", ",", ".", "x", "a", "A", ":",
                           "+", "++", "(on ", "on", "pts", " points", "char1", "Char1: ", "•",
                           "◦", "\t", "-", "Enhancement: ", "9x ", "\n", "\n  • ", "&"])
_HEADERS = st.sampled_from([
    "", "+ FACTION KEYWORD: Orks\n+ ENHANCEMENT: ", "++ Boarding Patrol (Orks) [500pts] ++\n+ ",
    "Orks\nKaptin Killers\n\n", "++ Boarding Patrol (Orks) ++\n++ total ",
    "Warboss (75 points)\n  • "])


@st.composite
def _hostile_text(draw: Any) -> str:
    """A layout's header, then runs of the characters the readers' patterns care about."""
    runs = draw(st.lists(st.tuples(_PIECES, st.integers(1, 600)), min_size=1, max_size=6))
    return draw(_HEADERS) + "".join(piece * n for piece, n in runs)


def _read_and_map(text: str) -> None:
    army, seconds = timed(lambda: read_text_list("fuzz.txt", text))
    assert not isinstance(army, Exception), army
    assert seconds < SECOND, (seconds, text[:200])
    try:
        result = import_list(army, CATALOG)
    except InputError:
        return
    load_roster("fuzz.yaml", roster_yaml(result))


_FAST = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_LONG = settings(max_examples=5_000, deadline=None, derandomize=False,  # new cases each run
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_FAST
@given(_hostile_text())
def test_text_readers_stay_fast_on_hostile_text(text: str) -> None:
    _read_and_map(text)


@pytest.mark.fuzz
@_LONG
@given(_hostile_text())
def test_text_readers_stay_fast_on_hostile_text_long(text: str) -> None:
    _read_and_map(text)


# --- mutations of the bundled fixtures --------------------------------------------------------

SEEDS = sorted(p for p in IMPORT.iterdir() if p.suffix in (".txt", ".ros", ".json"))
_TOKENS = [b"\x00", b"\xff", b"<", b">", b"&lol;", b'number="inf"', b'value="nan"', b"\n", b"(",
           b"10x ", b"\xe2\x80\xa2", b"Enhancement: ", b"+ ", b"++", b"[", b"{", b'"', b"9" * 50,
           b"<selection>", b"</selections>", b'encoding="zlib"', b"\t" * 40]


@st.composite
def _mutant(draw: Any) -> tuple[str, bytes]:
    seed = draw(st.sampled_from(SEEDS))
    data = bytearray(seed.read_bytes())
    for _ in range(draw(st.integers(1, 8))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["flip", "cut", "double", "insert"]))
        size = draw(st.integers(1, 200))
        if kind == "flip":
            data[at] ^= draw(st.integers(1, 255))
        elif kind == "cut":
            del data[at:at + size]
        elif kind == "double":
            data[at:at] = data[at:at + size] * draw(st.integers(1, 50))
        else:
            data[at:at] = draw(st.sampled_from(_TOKENS))
    return seed.suffix, bytes(data)


def _import_mutant(tmp: Path, suffix: str, data: bytes, zipped: bool) -> None:
    path = tmp / ("mutant.rosz" if zipped else "mutant" + suffix)
    if zipped:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("mutant.ros", data)
    else:
        path.write_bytes(data)
    try:
        result = import_list(read_army_list(path), CATALOG)
        load_roster(tmp / "back.yaml", roster_yaml(result))
    except InputError as exc:
        assert "\n" not in str(exc).strip(), exc  # one line


@_FAST
@given(_mutant(), st.booleans())
def test_mutated_exports_never_crash(tmp_path_factory: Any, mutant: tuple[str, bytes],
                                     zipped: bool) -> None:
    _import_mutant(tmp_path_factory.mktemp("m"), *mutant, zipped and mutant[0] == ".ros")


@pytest.mark.fuzz
@_LONG
@given(_mutant(), st.booleans())
def test_mutated_exports_never_crash_long(tmp_path_factory: Any, mutant: tuple[str, bytes],
                                          zipped: bool) -> None:
    _import_mutant(tmp_path_factory.mktemp("m"), *mutant, zipped and mutant[0] == ".ros")


TEXTS = [p.read_text(encoding="utf-8") for p in SEEDS if p.suffix == ".txt"]
_LINE_TOKENS = ["• ", "◦ ", "  ", "    ", "\t", "Attached Unit 1", "ATTACHED UNITS", "1x ",
                "• Attached as: Leader", "Enhancement: ", "Warlord", "+ ", "+++", " + ",
                "Exported from listhammer.info", "(5 points)", "CHARACTERS", "List Name: x",
                "Faction: Orks", "Purge the Foe", "Boarding Butchers (1 Detachment Point)"]


@st.composite
def _line_mutant(draw: Any) -> str:
    """A text fixture with lines doubled, dropped, moved, re-indented or prefixed: the shapes
    a paste goes through (lost indentation, a block pasted twice, a heading out of place)."""
    lines = draw(st.sampled_from(TEXTS)).splitlines()
    for _ in range(draw(st.integers(1, 8))):
        if not lines:
            break
        i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["double", "drop", "swap", "prefix", "strip", "insert"]))
        if kind == "double":
            lines.insert(i, lines[j])
        elif kind == "drop":
            del lines[i]
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "prefix":
            lines[i] = draw(st.sampled_from(_LINE_TOKENS)) + lines[i]
        elif kind == "strip":
            lines[i] = lines[i].lstrip()
        else:
            lines.insert(i, draw(st.sampled_from(_LINE_TOKENS)))
    return "\n".join(lines)


@_FAST
@given(_line_mutant())
def test_pasted_lists_mangled_line_by_line_never_crash(text: str) -> None:
    _read_and_map(text)


@pytest.mark.fuzz
@_LONG
@given(_line_mutant())
def test_pasted_lists_mangled_line_by_line_never_crash_long(text: str) -> None:
    _read_and_map(text)


# --- BattleScribe files that once crashed or cost seconds -------------------------------------

ROS = (IMPORT / "necrons_harbinger_cabal.ros").read_bytes()
BODY = ROS[ROS.find(b"<roster"):]


def _declared(encoding: str) -> bytes:
    return b'<?xml version="1.0" encoding="%s"?>\n' % encoding.encode() + BODY


def _with(attr: bytes, value: bytes) -> bytes:
    """The fixture with every ``attr="..."`` set to ``value``."""
    import re

    return re.sub(attr + rb'="[^"]*"', attr + b'="' + value + b'"', ROS)


def _flat_rosz() -> bytes:
    """An 18 KB archive that unpacks to 19 MB of empty elements: 10 s and 540 MB before."""
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("list.ros", b'<roster name="x"><forces><force name="f" catalogueName="Orks">'
                    b"<selections>" + b"<a/>" * 4_700_000 + b"</selections></force></forces>"
                    b"</roster>")
    return buf.getvalue()


HOSTILE: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "utf-16 declared on 8-bit text": (".ros", lambda: _declared("utf-16"), "encoding"),
    "idna encoding": (".ros", lambda: _declared("idna"), "declares the encoding 'idna'"),
    "zlib encoding": (".ros", lambda: _declared("zlib"), "declares the encoding 'zlib'"),
    "utf-32 encoding": (".ros", lambda: _declared("utf-32"), "declares the encoding 'utf-32'"),
    "unknown encoding": (".ros", lambda: _declared("klingon"), "declares the encoding 'klingon'"),
    "encrypted member": (".rosz", lambda: raw_zip(b"list.ros", ROS, flags=1), "is encrypted"),
    "empty member name": (".rosz", lambda: raw_zip(b"", ROS), "a member with no name"),
    "corrupt member": (".rosz", lambda: raw_zip(b"list.ros", ROS)[:200] + b"\xff" * 50
                       + raw_zip(b"list.ros", ROS)[250:], "not a valid zip archive"),
    "infinite cost": (".ros", lambda: _with(b"value", b"inf"), "costs \"inf\" points"),
    "nan cost": (".ros", lambda: _with(b"value", b"nan"), "costs \"nan\" points"),
    "huge cost": (".ros", lambda: _with(b"value", b"9" * 5000), "not a number of points"),
    "infinite number": (".ros", lambda: _with(b"number", b"inf"), 'number="inf"'),
    "nan number": (".ros", lambda: _with(b"number", b"nan"), 'number="nan"'),
    "huge number": (".ros", lambda: _with(b"number", b"1e300"), 'number="1e300"'),
    "negative number": (".ros", lambda: _with(b"number", b"-3"), 'number="-3"'),
    "cheap archive, costly XML": (".rosz", _flat_rosz, "is this a zip bomb?"),
    "too many elements": (".ros", lambda: b'<roster name="x"><forces>' + b"<a/>" * 200_000
                          + b"</forces></roster>", "more than 60,000 XML elements"),
    "deep elements": (".ros", lambda: b"<roster>" + b"<a>" * 5_000 + b"</a>" * 5_000
                      + b"</roster>", "nested more than 200 deep"),
    "huge tag": (".ros", lambda: b'<roster name="x" ' + b" ".join(
        b'a%d="1"' % i for i in range(300_000)) + b"><forces/></roster>", "XML tag longer"),
    "New Recruit JSON, many objects": (".json", lambda: json.dumps({"roster": {
        "name": "x", "forces": [{"name": "f", "catalogueName": "Orks",
                                 "selections": [{"name": "B", "type": "upgrade"}] * 100_000}]}}
    ).encode(), "JSON objects; a roster has a few thousand"),
    "New Recruit JSON, objects nested": (".json", lambda: json.dumps({"roster": {
        "name": "x", "forces": [{"name": "f", "catalogueName": "Orks", "selections": [
            {"name": "B", "type": "upgrade", "selections": [{"name": "C"}] * 400}] * 110}]}}
    ).encode(), "more than 40,000 objects"),
    "thousands of copies": (".ros", lambda: ROS.replace(b'number="1" type="unit"',
                                                        b'number="9999" type="unit"'),
                            "more than 500 units"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_battlescribe_files_end_in_a_second_with_one_line(name: str,
                                                                  tmp_path: Path) -> None:
    suffix, make, message = HOSTILE[name]
    path = tmp_path / ("list" + suffix)
    path.write_bytes(make())
    exc, seconds = timed(lambda: read_army_list(path))
    assert isinstance(exc, InputError), exc
    assert message in str(exc) and seconds < SECOND, (str(exc), seconds)
    result = run("import", path, "-o", tmp_path / "out.yaml")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"bagm: {path}: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output and not (tmp_path / "out.yaml").exists()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_battlescribe_files_are_refused_in_under_200_mb(name: str, tmp_path: Path) -> None:
    """Issue 16: each hostile file ends under 200 MB (the peak of what Python allocates while
    reading it, the file's own bytes made before counting starts)."""
    import tracemalloc

    suffix, make, _ = HOSTILE[name]
    path = tmp_path / ("list" + suffix)
    path.write_bytes(make())
    tracemalloc.start()
    try:
        with pytest.raises(InputError):
            read_army_list(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200_000_000, f"{peak / 1e6:.0f} MB"


def test_a_utf16_roster_with_its_bom_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "list.ros"
    text = '<?xml version="1.0" encoding="utf-16"?>\n' + BODY.decode()
    path.write_bytes(text.encode("utf-16"))
    assert [u.name for u in read_army_list(path).units][:2] == ["Technomancer", "Chronomancer"]


@pytest.mark.parametrize("value", ["Infinity", "-Infinity", "NaN", "1e999", "9" * 5000])
@pytest.mark.parametrize("key", ["value", "number"])
def test_new_recruit_json_with_odd_numbers_is_refused(key: str, value: str,
                                                      tmp_path: Path) -> None:
    import re

    text = (IMPORT / "newrecruit_necrons.json").read_text(encoding="utf-8")
    path = tmp_path / "list.json"
    path.write_text(re.sub(r'"%s":\s*[0-9.]+' % key, f'"{key}": {value}', text), encoding="utf-8")
    result = run("import", path)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert "Traceback" not in result.output


def test_an_export_too_large_for_a_roster_is_refused_on_the_export(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("Orks\nKaptin Killers\n\nBATTLELINE\n\n" + "Boyz (80 points)\n" * 300,
                    encoding="utf-8")
    result = run("import", path, "-o", tmp_path / "out.yaml")
    assert result.exit_code == 2 and "300 units: no Boarding Patrol has more than" in result.stderr
    assert result.stderr.startswith(f"bagm: {path}: ") and not (tmp_path / "out.yaml").exists()


SPACES = " " * 30_000
LONG_NAMES = {
    "unit name": ('name="Immortals"', f'name="Imm{SPACES}x"'),
    "Detachment name": ('name="Harbinger Cabal"', f'name="Harb{SPACES}x"'),
    "Enhancement name": ('name="Cryptometric Enhancement"', f'name="Cry{SPACES}x ("'),
    "many words": ('name="Immortals"', 'name="' + "Imm (x " * 9_000 + '"'),
}


@pytest.mark.parametrize("name", sorted(LONG_NAMES))
def test_names_with_long_runs_map_in_linear_time(name: str, tmp_path: Path) -> None:
    """Runs of spaces in a roster's names once cost half a minute in name lookup (patterns that
    try every place a run could start); names are folded as they are read."""
    CATALOG.all()  # every pack loaded: a miss looks in the other factions
    path = tmp_path / "list.ros"
    path.write_text(ROS.decode().replace(*LONG_NAMES[name], 1), encoding="utf-8")
    result, seconds = timed(lambda: import_list(read_army_list(path), CATALOG))
    assert not isinstance(result, Exception), result
    assert seconds < SECOND, seconds


def test_text_lines_with_long_runs_map_in_linear_time(tmp_path: Path) -> None:
    CATALOG.all()
    path = tmp_path / "list.txt"
    path.write_text(f"Necrons\nHarb{SPACES}x\n\nCHARACTERS\n\nTechnomancer{SPACES}x (80 points)\n"
                    f"  • Enhancement: Cry{SPACES}x (\n", encoding="utf-8")
    result, seconds = timed(lambda: import_list(read_army_list(path), CATALOG))
    assert not isinstance(result, Exception) and seconds < SECOND, (result, seconds)
    assert result.roster["units"] == [{"unit": "Technomancer x", "enhancement": "Cry x ("}]
