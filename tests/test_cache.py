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


def test_format_classes_print_as_dataclasses_do(tmp_path: Path, monkeypatch) -> None:
    """The pack format's classes share one __repr__ (not one generated for each at import):
    it prints every field as the generated one would, nested classes included, and survives
    the cache's pickle."""
    from dataclasses import fields

    from bagm.data import models
    from bagm.data.schema import validate

    weapon = validate(models.Weapon, {"name": "Bolt rifle", "type": "ranged", "A": 2, "skill": 3,
                                      "S": 4, "AP": -1, "D": 1, "range": 24,
                                      "abilities": [{"name": "assault"}]})
    assert repr(weapon) == ("Weapon(name='Bolt rifle', type='ranged', A=2, skill=3, S=4, AP=-1, "
                            "D=1, range=24, abilities=[WeaponAbility(name='assault', value=None, "
                            "target=None)], default=True)")
    monkeypatch.setenv("BAGM_CACHE_DIR", str(tmp_path))
    for _ in range(2):  # built by pydantic, then read from the cache
        pack = Catalog().faction("Grey Knights").pack
        text = repr(pack)
        assert text.startswith("FactionPack(faction='Grey Knights', ")
        unit = pack.units[0]
        assert f"Datasheet(name={unit.name!r}, " in text and repr(unit) in text
        assert repr(unit).count("=") >= len(fields(unit))


def test_the_key_covers_the_code_that_builds_an_entry() -> None:
    """An entry is keyed on the modules that read, merge and validate the files into it, not on
    the classes alone: a change to the merge of overlays (packs.py) or to the YAML loader, within
    one bagm version, must not serve entries the old code built."""
    import bagm.data.packs
    import bagm.data.schema
    import bagm.io.yamlsafe
    from bagm.data import cache, models, timings, weapons

    code = {p.resolve() for p in cache._CODE}
    for mod in (models, bagm.data.schema, weapons, timings, bagm.data.packs, bagm.io.yamlsafe):
        assert Path(mod.__file__).resolve() in code, mod.__name__
        assert Path(mod.__file__).is_file()
