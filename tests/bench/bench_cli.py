"""Benchmarks (not part of the test run): ``python tests/bench/bench_cli.py``.

1. Start-up: ``bagm validate`` of one roster against a bare
   ``python -c "import typer, rich, pydantic, yaml"`` (median wall time of N runs each).
2. Throughput: 1,000 rosters validated by one process (the packs load once).
3. Pack loading: every bundled pack, cold.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RUNS = 15


def wall(cmd: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def startup() -> None:
    roster = sorted((REPO / "rosters").glob("*.yaml"))[0]
    bagm = shutil.which("bagm") or "bagm"
    base = wall([sys.executable, "-c", "import typer, rich, pydantic, yaml"])
    ours = wall([bagm, "validate", str(roster)])
    print(f"bare imports (typer, rich, pydantic, yaml): {base * 1000:.0f} ms")
    print(f"bagm validate {roster.name}: {ours * 1000:.0f} ms  ({ours / base:.2f}x)")


def throughput(n: int = 1000) -> None:
    from bagm.data.packs import Catalog
    from bagm.roster.validate import validate_path

    rosters = sorted((REPO / "rosters").glob("*.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(n):
            p = Path(tmp) / f"r{i:04}.yaml"
            p.write_text(rosters[i % len(rosters)].read_text(encoding="utf-8"), encoding="utf-8")
            paths.append(p)
        start = time.perf_counter()
        catalog = Catalog()
        reports = [validate_path(p, catalog) for p in paths]
        took = time.perf_counter() - start
    valid = sum(r.valid for r in reports)
    print(f"{n} rosters ({valid} valid) in one process: {took:.2f} s "
          f"({took / n * 1000:.2f} ms each)")


def packs() -> None:
    from bagm.data.packs import Catalog

    start = time.perf_counter()
    factions = Catalog().all()
    took = time.perf_counter() - start
    units = sum(len(f.pack.units) for f in factions)
    print(f"load all {len(factions)} bundled packs ({units} units), cold: {took * 1000:.0f} ms")


if __name__ == "__main__":
    startup()
    throughput()
    packs()
