"""Bad input: each gets one clear error with file and line, never a traceback, within a second."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import cpu_timed

from bagm.io.yamlsafe import InputError
from bagm.roster.model import load_roster


def error_for(tmp_path: Path, content: str | bytes) -> InputError:
    path = tmp_path / "bad.yaml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    error, cpu = cpu_timed(lambda: load_roster(path))
    assert isinstance(error, InputError), error
    assert cpu < 1.0, cpu
    assert str(path) in str(error)
    return error


def test_malformed_yaml(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\ndetachment: [Kaptin\nunits: []\n")
    assert "invalid YAML" in e.message and e.line is not None


def test_bad_indentation(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\n  detachment: x\n")
    assert e.line == 2


def test_wrong_type(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\ndetachment: X\nunits:\n  - unit: Boyz\n"
                  "    models: ten\n")
    assert e.line == 5 and "models" in e.message and "'ten'" in e.message


def test_units_not_a_list(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\ndetachment: X\nunits: Boyz\n")
    assert e.line == 3 and "units" in e.message


def test_missing_key(tmp_path: Path) -> None:
    e = error_for(tmp_path, "detachment: X\nunits: []\n")
    assert "missing key 'faction'" in e.message


def test_no_detachment_key_gets_the_findings_of_an_empty_one(tmp_path: Path) -> None:
    """Issue 16: a roster without 'detachment:' is validated like 'detachment: ""' (BA101 and
    every other check), not refused with a lone BA000."""
    from bagm.data.packs import Catalog, bundled_dir
    from bagm.roster.validate import validate

    catalog = Catalog([bundled_dir()])
    body = "units:\n  - unit: Boyz\n    models: 10\n"
    missing = validate(load_roster(tmp_path / "a.yaml", "faction: Orks\n" + body), catalog)
    empty = validate(load_roster(tmp_path / "b.yaml", "faction: Orks\ndetachment: ''\n" + body),
                     catalog)
    assert [f.code for f in missing.findings] == [f.code for f in empty.findings]
    assert "BA101" in [f.code for f in missing.findings]
    assert "add 'detachment: ...'" in missing.findings[0].message


def test_missing_unit_name(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\ndetachment: X\nunits:\n  - models: 5\n")
    assert "missing key 'unit'" in e.message and e.line == 4


def test_unknown_key_did_you_mean(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\ndetachment: X\nunits:\n  - unit: Boyz\n"
                  "    modles: 10\n")
    assert e.message == "unknown key 'modles'" and "did you mean 'models'" in (e.hint or "")
    assert e.line == 5
    e = error_for(tmp_path, "faction: Orks\ndetachmnet: X\nunits: []\n")
    assert "did you mean 'detachment'" in (e.hint or "") and e.line == 2


def test_bad_edition(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\ndetachment: X\nedition: 2022\nunits: []\n")
    assert e.line == 3 and "2024 or 2023" in e.message


def test_duplicate_key(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\nfaction: Necrons\ndetachment: X\n")
    assert "duplicate key" in e.message and e.line == 2


def test_empty_file(tmp_path: Path) -> None:
    assert "empty" in error_for(tmp_path, "").message
    assert "empty" in error_for(tmp_path, "# just a comment\n").message


def test_not_a_mapping(tmp_path: Path) -> None:
    assert "mapping" in error_for(tmp_path, "- a\n- b\n").message
    assert "mapping" in error_for(tmp_path, "just text\n").message


def test_binary_file(tmp_path: Path) -> None:
    assert "binary" in error_for(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00\x00").message
    e = error_for(tmp_path, b"faction: Orks\n\xff\xfe bad\n")
    assert "UTF-8" in e.message and e.line == 2


def test_huge_file(tmp_path: Path) -> None:
    big = "faction: Orks\ndetachment: X\nunits:\n" + "  - unit: Boyz\n" * 200_000
    assert "too large" in error_for(tmp_path, big).message


def test_alias_bomb(tmp_path: Path) -> None:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 10):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 9)}]")
    e = error_for(tmp_path, "\n".join(lines) + "\n")
    assert "aliases are not allowed" in e.message


def test_merge_key_refused(tmp_path: Path) -> None:
    e = error_for(tmp_path, "base: &b {faction: Orks}\n<<: *b\n")
    assert "not allowed" in e.message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_roster(tmp_path / "nope.yaml")


def test_python_tags_are_not_executed(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: !!python/object/apply:os.system ['echo hi']\n")
    assert "unsupported YAML tag" in e.message and e.line == 1


def test_absurd_unit_count(tmp_path: Path) -> None:
    e = error_for(tmp_path, "faction: Orks\ndetachment: X\nunits:\n" + "  - unit: Boyz\n" * 300)
    assert "300 units" in e.message and e.line == 3
