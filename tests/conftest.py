from __future__ import annotations

import atexit
import functools
import os
import shutil
import struct
import tempfile
import textwrap
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from bagm.cli.app import register_all
from bagm.data.packs import Catalog, data_dirs
from bagm.engine.game import positions
from bagm.roster.model import load_roster
from bagm.roster.report import ValidationReport
from bagm.roster.validate import validate

# the tests never read or write the user's own pack cache
os.environ["BAGM_CACHE_DIR"] = _CACHE = tempfile.mkdtemp(prefix="bagm-test-cache-")
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)  # tests leave no folders behind
# no .hypothesis/ in the checkout: no example database (a failing example prints its
# reproducer) and hypothesis's own caches in the folder removed above
set_hypothesis_home_dir(os.path.join(_CACHE, "hypothesis"))
# The default run draws the same cases every time (derandomised): a CI run on an unchanged
# main cannot turn red on a case it never saw before. New cases are drawn by the long runs
# behind the ``fuzz`` marker and by ``pytest --hypothesis-profile=bagm-random``.
settings.register_profile("bagm", database=None, derandomize=True)
settings.register_profile("bagm-random", database=None, derandomize=False)
settings.load_profile("bagm")  # the plugin's --hypothesis-profile, read later, overrides it

# a terminal's size in the environment (COLUMNS and LINES, which a shell may export and
# pytest-xdist sets to 80 x 24 in its workers) would make the CLI wrap what it prints to a pipe;
# a test that wants a width sets it itself
for _size in ("COLUMNS", "LINES"):
    os.environ.pop(_size, None)

register_all()  # the CLI registers command modules on demand; the tests use them all

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parents[1]
REFERENCE = REPO.parent / "shared" / "reference"


HANG = 60.0  # wall seconds: only a hang takes this long, however busy the machine


def cpu_timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """What ``fn`` returned or raised, and the CPU seconds it took.

    Speed bounds in tests are CPU time (``time.process_time``): other jobs on a shared machine
    stretch the wall time of a run, not its CPU time, so a bound fails only when the work itself
    is slow (a backtracking pattern, an unbounded read). A wall-time bound of ``HANG`` catches a
    hang, which uses no CPU.
    """
    start, cpu = time.perf_counter(), time.process_time()
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001 - the caller checks what was raised
        value = exc
    wall = time.perf_counter() - start
    assert wall < HANG, f"a hang: {wall:.0f} s"
    return value, time.process_time() - cpu


def raw_zip(name: bytes, data: bytes, flags: int = 0) -> bytes:
    """A one-member zip written by hand (stored), so that names and flags no zip library would
    write can be tested: an empty name, the encryption bit."""
    crc = zlib.crc32(data)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, 0, 0, 0, crc, len(data), len(data),
                        len(name), 0) + name + data
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, 0, 0, 0, crc,
                          len(data), len(data), len(name), 0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(local), 0)
    return local + central + end


def until_finished(game: Any, limit: int = 20_000) -> Iterator[int]:
    """Yield (the decision's number) until ``game`` ends; fail after ``limit`` decisions instead of
    hanging the suite (a rule offered without end: the Electro-shock loop of an earlier session)."""
    for n in range(limit):
        if game.finished:
            return
        yield n
    raise AssertionError(f"the game did not end within {limit} decisions (a rule offered without end?)")


def place(g, uid: str, pts: list[tuple[float, float]]) -> None:
    """Put unit ``uid`` of a game at ``pts`` (one model each; models beyond them removed)."""
    u = g.units[uid]
    u.models = u.models[:len(pts)]
    positions.set_positions(g, u, pts)


def block(x: float, y: float = 15.0, dx: float = -1.4) -> list[tuple[float, float]]:
    """Five bases in two columns around (x, y), the second column ``dx`` away."""
    return [(x, y - 0.7), (x, y + 0.7), (x + dx, y - 0.7), (x + dx, y + 0.7), (x + 2 * dx, y)]


def declined(steps):
    """Run an attack sequence (``Game.attack``), declining every Command Re-roll (and Act of Faith)
    it offers; its result."""
    from bagm.engine.state.actions import Action

    try:
        d = next(steps)
        while True:
            assert d.step == "reroll" or d.step == "rule" and d.info.get("rule") == "Acts of Faith"
            d = steps.send(Action("pass"))
    except StopIteration as stop:
        return stop.value


def advance_to(g, step: str, player: str = "A") -> None:
    """Decline every decision of a game (``done`` or ``pass``) until ``player`` must decide
    ``step``."""
    from bagm.engine.state.actions import Action

    for _ in range(200):
        d = g.decision
        if d.step == step and d.player == player:
            return
        if d.step in ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge"):
            g.apply(Action("done"))
        elif d.step in ("overwatch", "counter", "bravery", "reroll", "command", "rule", "use"):
            g.apply(Action("pass"))
        elif d.step == "mark":  # a rule's enemy unit (Oath of Moment): the first, no pass
            g.apply(g.legal_actions()[0])
        else:
            raise AssertionError(f"stuck at {d}")
    raise AssertionError(f"never reached {step}")


@functools.cache
def without_rules() -> Catalog:
    """The bundled packs with the Detachment rules of the Grey Knights' Void Purge Force and
    the Orks' Kaptin Killers left out: for tests of other rules with those two armies."""
    return Catalog(data_dirs([FIXTURES / "without_rules"]))


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog([FIXTURES / "packs", FIXTURES / "packs_other"])


def roster_text(units: str, header: str = "") -> str:
    head = "faction: Test Legion\ndetachment: Test Strike\n" + textwrap.dedent(header)
    return head + "units:\n" + textwrap.indent(textwrap.dedent(units).strip("\n"), "  ") + "\n"


@pytest.fixture
def check(catalog: Catalog, tmp_path: Path):
    """Validate roster text (units block, optional header lines) against the test pack."""

    def run(units: str, header: str = "", raw: str | None = None) -> ValidationReport:
        path = tmp_path / "roster.yaml"
        path.write_text(raw if raw is not None else roster_text(units, header), encoding="utf-8")
        return validate(load_roster(path), catalog)

    return run


def codes(report: ValidationReport) -> list[str]:
    return [f.code for f in report.findings]
