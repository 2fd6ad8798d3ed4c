"""A cache of validated data packs, so that a warm ``bagm validate`` never imports pydantic.

Entries are pickles of the data classes, keyed by bagm's version and the path, size and
modification time of each source file and of the modules defining those classes; any change to a
pack, an overlay or the format makes a new key. The cache
lives in ``$BAGM_CACHE_DIR``, else ``$XDG_CACHE_HOME/bagm``, else ``~/.cache/bagm``;
``BAGM_NO_CACHE=1`` turns it off. A cache that cannot be read or written is ignored.
"""

from __future__ import annotations

import os
import pickle
import zlib
from pathlib import Path
from typing import Any, Callable

import bagm

FORMAT = 1


def cache_dir() -> Path | None:
    if os.environ.get("BAGM_NO_CACHE"):
        return None
    if os.environ.get("BAGM_CACHE_DIR"):
        return Path(os.environ["BAGM_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bagm"


# the cached objects are instances of these classes: a change to them must invalidate entries
_CODE = [Path(__file__).with_name("models.py"), Path(__file__).with_name("schema.py")]


def _key(paths: list[Path]) -> str:
    text = f"{bagm.__version__}/{FORMAT}"
    for p in [*_CODE, *paths]:
        st = p.stat()
        text += f"\0{p.resolve()}\0{st.st_size}\0{st.st_mtime_ns}"
    data = text.encode()  # two independent checksums: hashlib's import costs more than a run
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def cached(paths: list[Path], build: Callable[[], Any]) -> Any:
    """``build()``'s result for these source files, from the cache when it is fresh."""
    folder = cache_dir()
    if folder is None:
        return build()
    entry = folder / f"{paths[0].stem}-{_key(paths)}.pickle"
    try:
        with entry.open("rb") as fh:
            return pickle.load(fh)
    except Exception:  # missing, stale format or corrupt: rebuild
        pass
    value = build()
    try:
        import tempfile

        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, entry)
    except OSError:
        pass
    return value
