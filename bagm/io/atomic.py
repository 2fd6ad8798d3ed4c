"""Atomic file writes, the one way bagm writes a file: a crash, a kill or a full disk mid-write
leaves the old file whole.

The new content goes to a temporary file in the same folder (so the final rename never crosses
file systems), is flushed and fsynced, gets the old file's permission bits (a new file: what the
user's umask allows), and replaces the target in one ``os.replace``; the folder is then fsynced
so the rename itself is durable.

What it refuses or treats apart:

- a read-only file is not replaced (``PermissionError``): a rename would silently bypass the
  permission the user set, as an editor asks before writing one;
- a folder, block device or socket is refused; a character device or FIFO (``/dev/null``,
  ``/dev/stdout``, a pipe) is a stream, written into as it is instead of being replaced by a
  regular file;
- a temporary file that a killed write left behind (``.NAME.bagm-PID-….tmp`` whose process is
  gone) is removed by the next write of the same file.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import suppress
from pathlib import Path

_TAG = ".bagm-"  # temporary files are ".NAME.bagm-PID-RANDOM.tmp"


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


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):  # someone else's process, or no way to tell
        return True
    return True


def _sweep(target: Path) -> None:
    """Remove the temporary files of earlier writes of ``target`` whose process is gone."""
    if os.name != "posix":  # pragma: no cover - no cheap liveness test
        return
    prefix = f".{target.name}{_TAG}"
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            with suppress(OSError):
                os.unlink(target.parent / name)


def write_atomic(path: Path | str, data: str | bytes, *, overwrite: bool = True,
                 encoding: str = "utf-8") -> None:
    """Write ``data`` to ``path`` atomically, keeping an existing file's permission bits.

    With ``overwrite=False`` an existing file is never replaced: ``FileExistsError`` is raised,
    also when the file appears while this write is in progress. A symbolic link is written
    through (its target is replaced, the link stays). Errors are ``OSError``s whose
    ``strerror`` says what is wrong in words.
    """
    target = Path(os.path.realpath(path))
    payload = data.encode(encoding) if isinstance(data, str) else data
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None:
        if not overwrite:
            raise FileExistsError(errno.EEXIST, "already exists", str(path))
        kind = st.st_mode
        if stat.S_ISDIR(kind):
            raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
        if stat.S_ISCHR(kind) or stat.S_ISFIFO(kind):
            with open(target, "wb") as fh:  # a stream: /dev/null, /dev/stdout, a pipe
                fh.write(payload)
            return
        if not stat.S_ISREG(kind):
            raise OSError(errno.EINVAL, "is not a regular file (a device or socket)", str(path))
        if not kind & 0o222 or not os.access(target, os.W_OK):
            raise PermissionError(errno.EACCES, "the file is read-only (make it writable first)",
                                  str(path))
        mode = stat.S_IMODE(kind)
    else:
        mode = _default_mode()
    _sweep(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}{_TAG}{os.getpid()}-", suffix=".tmp",
                               dir=target.parent)
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
        raise FileExistsError(errno.EEXIST, "already exists", str(target)) from None
    except OSError:  # pragma: no cover - a file system without hard links
        if target.exists():
            raise FileExistsError(errno.EEXIST, "already exists", str(target)) from None
        os.replace(tmp, target)
        return
    os.unlink(tmp)
