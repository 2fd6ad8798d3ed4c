"""Atomic writes: an error, a crash or a kill in the middle of a write leaves the old file whole."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.io import atomic
from bagm.io.atomic import write_atomic

OLD = "faction: Test Legion\ndetachment: Test Strike\nunits:\n  - unit: Lord Commander  # boss\n" \
      "    warlord: true\n"


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAGM_DATA", os.pathsep.join([str(FIXTURES / "packs"),
                                                     str(FIXTURES / "packs_other")]))


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_new_file_gets_the_default_mode(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    write_atomic(path, "x: 1\n")
    assert path.read_text() == "x: 1\n"
    mask = os.umask(0)
    os.umask(mask)
    assert _mode(path) == 0o666 & ~mask
    assert _leftovers(tmp_path) == []


def test_replacing_keeps_the_mode(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(OLD)
    path.chmod(0o640)
    write_atomic(path, "x: 2\n")
    assert path.read_text() == "x: 2\n" and _mode(path) == 0o640


def test_no_overwrite_refuses_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(OLD)
    with pytest.raises(FileExistsError):
        write_atomic(path, "x: 2\n", overwrite=False)
    assert path.read_text() == OLD and _leftovers(tmp_path) == []
    write_atomic(tmp_path / "b.yaml", "x: 3\n", overwrite=False)
    assert (tmp_path / "b.yaml").read_text() == "x: 3\n"


def test_a_symlink_is_written_through(tmp_path: Path) -> None:
    target = tmp_path / "real.yaml"
    target.write_text(OLD)
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    write_atomic(link, "x: 4\n")
    assert link.is_symlink() and target.read_text() == "x: 4\n"


def test_failing_rename_leaves_the_old_file_whole(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(OLD.encode())

    def boom(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(path, "x: 5\n" * 1000)
    assert path.read_bytes() == OLD.encode() and _leftovers(tmp_path) == []


def test_failing_fsync_leaves_the_old_file_whole(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(OLD.encode())

    def boom(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(atomic.os, "fsync", boom)
    with pytest.raises(OSError):
        write_atomic(path, "x: 6\n")
    assert path.read_bytes() == OLD.encode() and _leftovers(tmp_path) == []


def _killed_mid_write(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` until it prints 'writing' (it then sleeps inside the write), kill it."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "writing", proc.stderr.read() if proc.stderr else line
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_killed_mid_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(OLD.encode())
    _killed_mid_write(f"""
        import os, time
        from bagm.io import atomic
        real_fsync = os.fsync
        def slow_fsync(fd):
            real_fsync(fd)
            print("writing", flush=True)
            time.sleep(60)
        atomic.os.fsync = slow_fsync
        atomic.write_atomic({str(path)!r}, "units: []\\n" * 100000)
    """, tmp_path)
    assert path.read_bytes() == OLD.encode()
    # the half-done temporary file is hidden and not a .yaml: 'bagm validate DIR' skips it
    left = _leftovers(tmp_path)
    assert len(left) == 1 and left[0].startswith(".a.yaml.")


def test_bagm_add_killed_before_the_rename_leaves_the_roster_whole(tmp_path: Path, env) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(OLD.encode())
    _killed_mid_write(f"""
        import os, sys, time
        from bagm.io import atomic
        def slow_replace(src, dst):
            print("writing", flush=True)
            time.sleep(60)
        atomic.os.replace = slow_replace
        sys.argv = ["bagm", "add", {str(path)!r}, "Line Squad", "--models", "10"]
        from bagm.cli.app import main
        main()
    """, tmp_path)
    assert path.read_bytes() == OLD.encode()
    result = CliRunner().invoke(app, ["validate", str(tmp_path), "-f", "json"])
    assert '"path": "' + str(path) in result.output and ".tmp" not in result.output


def test_bagm_add_that_cannot_write_says_so_and_changes_nothing(
        tmp_path: Path, env, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(OLD.encode())

    def boom(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", boom)
    result = CliRunner().invoke(app, ["add", str(path), "Line Squad", "--models", "10"])
    assert result.exit_code == 2, result.output
    assert "cannot be written: No space left on device" in result.output
    assert "Traceback" not in result.output
    assert path.read_bytes() == OLD.encode() and _leftovers(tmp_path) == []


def test_bagm_add_whose_dump_fails_changes_nothing(tmp_path: Path, env,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from bagm.io import roundtrip

    path = tmp_path / "r.yaml"
    path.write_bytes(OLD.encode())

    def boom(doc: object) -> str:
        raise RuntimeError("emitter crashed")

    monkeypatch.setattr(roundtrip, "dump_document", boom)
    result = CliRunner().invoke(app, ["add", str(path), "Line Squad", "--models", "10"])
    assert isinstance(result.exception, RuntimeError)
    assert path.read_bytes() == OLD.encode() and _leftovers(tmp_path) == []
