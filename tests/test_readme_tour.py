"""The README's "A short tour" works when pasted line by line: every command of it runs, in
order, in a temporary folder holding a copy of rosters/, and exits 0 (issue 18)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

BAGM = Path(sys.executable).parent / "bagm"


def tour_lines() -> list[str]:
    """The command lines of the tour's shell block, in order (blank lines dropped)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("## A short tour")
    block = text[text.index("```sh\n", start) + len("```sh\n"):]
    block = block[:block.index("```")]
    return [line for line in block.splitlines() if line.strip()]


def test_the_tour_is_all_bagm_commands() -> None:
    lines = tour_lines()
    assert len(lines) >= 20
    for line in lines:
        for command in line.split("  #")[0].split(";"):
            assert command.strip().startswith("bagm "), line


@pytest.mark.skipif(not BAGM.is_file(), reason="the bagm command is not installed beside "
                    "this Python (pip install .)")
def test_every_tour_command_runs(tmp_path: Path) -> None:
    shutil.copytree(REPO / "rosters", tmp_path / "rosters")
    env = {**os.environ, "PATH": f"{BAGM.parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "120", "NO_COLOR": "1"}
    env.pop("BAGM_DATA", None)
    for line in tour_lines():
        # Enter at every prompt (bagm build: done adding, the default Warlord, no more)
        result = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, input="\n" * 8,
                                capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, f"{line}\nexit {result.returncode}\n{result.stderr[-2000:]}"
        assert "Traceback" not in result.stderr, line
    for made in ("my_list.yaml", "their_list.txt", "theirs.yaml", "card.html", "map11.svg"):
        assert (tmp_path / made).is_file(), made
    assert "Tellyporta" in (tmp_path / "my_list.yaml").read_text(encoding="utf-8")
