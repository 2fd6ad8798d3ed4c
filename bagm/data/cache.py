"""A cache of validated data packs, so that a warm ``bagm validate`` never imports pydantic.

Entries are pickles of the data classes, keyed by bagm's version and the content of each source
file and of the modules that read, merge and validate them into those classes: any change to a pack, an overlay or the format
makes a new key, whatever the files' sizes and times say (a restored backup, a ``git checkout``
within the same second, a copy that keeps times). The cache lives in ``$BAGM_CACHE_DIR``, else
the user's cache folder as ``platformdirs`` names it on each system (``~/.cache/bagm`` on Linux,
honouring ``XDG_CACHE_HOME``); ``BAGM_NO_CACHE=1`` turns it off. A cache that cannot be read or
written is ignored.
"""

from __future__ import annotations

import os
import pickle
import sys
import zlib
from functools import cache
from pathlib import Path
from typing import Any, Callable

import bagm

FORMAT = 2


def cache_dir() -> Path | None:
    if os.environ.get("BAGM_NO_CACHE"):
        return None
    if os.environ.get("BAGM_CACHE_DIR"):
        return Path(os.environ["BAGM_CACHE_DIR"])
    if sys.platform.startswith("linux"):  # platformdirs' Linux rule (XDG), without its import
        # (about 9 ms of a 130 ms start-up); tests/test_cache.py checks it gives the same folder
        base = os.environ.get("XDG_CACHE_HOME", "")
        return Path(base if base.strip() else os.path.expanduser("~/.cache")) / "bagm"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("bagm", appauthor=False))


# the code an entry is built by: the classes it holds and what reads, merges and validates the
# files into them. A change to any of them must invalidate entries (bagm's version alone does
# not change between commits of one release)
_HERE = Path(__file__).parent
_CODE = [_HERE / "models.py", _HERE / "schema.py", _HERE / "weapons.py", _HERE / "timings.py",
         _HERE / "packs.py", _HERE.parent / "io" / "yamlsafe.py"]


def _key(paths: list[Path]) -> str:
    """Two independent checksums of everything the entry is built from (hashlib's import costs
    more than a warm run's whole validation)."""
    crc, adler = _code_sums()
    crc, adler = _sums(paths, crc, adler)
    return f"{crc:08x}{adler:08x}"


@cache
def _code_sums() -> tuple[int, int]:
    """The checksums of bagm's version and of the modules defining the cached classes: the
    same for every entry, so worked out once a process (validating a folder reads every pack)."""
    return _sums(_CODE, *_add(f"{bagm.__version__}/{FORMAT}".encode(), 0, 1))


def _sums(paths: list[Path], crc: int, adler: int) -> tuple[int, int]:
    for p in paths:
        if p.exists():
            crc, adler = _add(str(p.resolve()).encode(), crc, adler)
            crc, adler = _add(p.read_bytes(), crc, adler)
    return crc, adler


def _add(part: bytes, crc: int, adler: int) -> tuple[int, int]:
    return (zlib.crc32(part, zlib.crc32(b"\0", crc)),
            zlib.adler32(part, zlib.adler32(b"\0", adler)))


def cached(paths: list[Path], build: Callable[[], Any]) -> Any:
    """``build()``'s result for these source files, from the cache when it is fresh."""
    folder = cache_dir()
    if folder is None:
        return build()
    try:
        entry = folder / f"{paths[0].stem}-{_key(paths)}.pickle"
    except OSError:  # a source that cannot be read: build() reports it
        return build()
    try:
        with entry.open("rb") as fh:
            return pickle.load(fh)
    except Exception:  # missing, stale format or corrupt: rebuild
        pass
    value = build()
    try:
        from bagm.io.atomic import write_atomic

        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(entry, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError):
        pass
    return value
