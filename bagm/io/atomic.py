"""Atomic file writes: a crash, a kill or a full disk mid-write leaves the old file whole.

The new content goes to a temporary file in the same folder (so the final rename never crosses
file systems), is flushed and fsynced, gets the old file's permission bits, and replaces the
target in one ``os.replace``; the folder is then fsynced so the rename itself is durable.
"""

from __future__ import annotations

import os
import stat
import tempfile
from contextlib import suppress
from pathlib import Path


def _default_mode() -> int:
    """The mode a new file gets from ``open()``: 0o666 less the process umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (best effort: not every platform allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on folders
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path | str, data: str | bytes, *, overwrite: bool = True,
                 encoding: str = "utf-8") -> None:
    """Write ``data`` to ``path`` atomically, keeping an existing file's permission bits.

    With ``overwrite=False`` an existing file is never replaced: ``FileExistsError`` is raised,
    also when the file appears while this write is in progress. A symbolic link is written
    through (its target is replaced, the link stays).
    """
    target = Path(os.path.realpath(path))
    payload = data.encode(encoding) if isinstance(data, str) else data
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
        exists = True
    except FileNotFoundError:
        mode, exists = _default_mode(), False
    if exists and not overwrite:
        raise FileExistsError(f"{path} already exists")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), mode)
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        if not hasattr(os, "fchmod"):  # pragma: no cover - Windows
            os.chmod(tmp, mode)
        if overwrite:
            os.replace(tmp, target)
        else:
            _link_new(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def _link_new(tmp: str, target: Path) -> None:
    """Move ``tmp`` to ``target`` only if ``target`` does not exist (no check-then-write race
    where hard links work)."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise FileExistsError(f"{target} already exists") from None
    except OSError:  # pragma: no cover - a file system without hard links
        if target.exists():
            raise FileExistsError(f"{target} already exists") from None
        os.replace(tmp, target)
        return
    os.unlink(tmp)
