"""The pack cache: warm runs skip pydantic, edits invalidate, a broken cache is ignored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO

from bagm.data.packs import Catalog

PROBE = """
import sys
from bagm.data.packs import Catalog
from bagm.roster.validate import validate_path
r = validate_path(sys.argv[1], Catalog())
print(r.valid, 'pydantic' in sys.modules)
"""


def probe(cache: Path) -> str:
    env = dict(os.environ, BAGM_CACHE_DIR=str(cache))
    roster = REPO / "rosters" / "grey_knights_void_purge_force.yaml"
    out = subprocess.run([sys.executable, "-c", PROBE, str(roster)], env=env, check=True,
                         capture_output=True, text=True)
    return out.stdout.strip()


def test_warm_run_does_not_import_pydantic(tmp_path: Path) -> None:
    assert probe(tmp_path) == "True True"  # cold: validated by pydantic, then cached
    assert probe(tmp_path) == "True False"  # warm: straight from the cache


def test_corrupt_cache_is_ignored(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("BAGM_CACHE_DIR", str(tmp_path))
    Catalog().faction("Orks")
    for entry in tmp_path.glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    assert Catalog().faction("Orks").name == "Orks"


def test_cache_can_be_turned_off(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("BAGM_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("BAGM_NO_CACHE", "1")
    Catalog().faction("Orks")
    assert list(tmp_path.iterdir()) == []


def test_editing_a_pack_invalidates_it(tmp_path: Path, monkeypatch) -> None:
    """The key is the content: an edit keeping the size and the time still invalidates."""
    monkeypatch.setenv("BAGM_CACHE_DIR", str(tmp_path / "cache"))
    packs = tmp_path / "packs"
    packs.mkdir()
    pack = packs / "p.yaml"
    text = ("faction: Cache Test\npoints_source: t\nunits:\n  - {name: U, keywords: [X], "
            "faction_keywords: [CACHE TEST], points: {1: 10}}\n")
    pack.write_text(text, encoding="utf-8")
    stamp = pack.stat()
    assert Catalog([packs]).faction("Cache Test").pack.units[0].points == {1: 10}
    pack.write_text(text.replace("10}", "20}"), encoding="utf-8")  # same size
    os.utime(pack, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # and the same time
    assert Catalog([packs]).faction("Cache Test").pack.units[0].points == {1: 20}
    assert not [p for p in (tmp_path / "cache").iterdir() if not p.name.endswith(".pickle")]


def test_default_cache_folder_from_platformdirs(monkeypatch, tmp_path: Path) -> None:
    from platformdirs import user_cache_dir

    from bagm.data.cache import cache_dir

    monkeypatch.delenv("BAGM_CACHE_DIR", raising=False)
    monkeypatch.delenv("BAGM_NO_CACHE", raising=False)
    for xdg in (None, "", "  ", str(tmp_path / "xdg")):
        if xdg is None:
            monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        else:
            monkeypatch.setenv("XDG_CACHE_HOME", xdg)
        assert cache_dir() == Path(user_cache_dir("bagm", appauthor=False)), xdg
