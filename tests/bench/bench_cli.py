"""Benchmarks (not part of the test run): ``python tests/bench/bench_cli.py``.

Run it against a regular (non-editable) install; the figures go in the README.
1. Start-up: ``bagm validate`` of one roster, warm cache, against a bare
   ``python -c "import typer, rich, pydantic, yaml"`` (median wall time of 21 runs each).
2. The same run with a cold cache (the first run after installing or editing a pack).
3. Throughput: 1,000 rosters validated by one process (the packs load once).
4. Loading every bundled pack, cold (validation) and from the cache, and its memory.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROSTER = REPO / "rosters" / "grey_knights_void_purge_force.yaml"
RUNS = 21


def wall(cmd: list[str], env: dict[str, str] | None = None, setup=None) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(RUNS):
        if setup:
            setup()
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                       env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def startup() -> None:
    bagm = shutil.which("bagm") or "bagm"
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, BAGM_CACHE_DIR=cache)
        subprocess.run([bagm, "validate", str(ROSTER)], env=env, stdout=subprocess.DEVNULL)
        base = wall([sys.executable, "-c", "import typer, rich, pydantic, yaml"])
        warm = wall([bagm, "validate", str(ROSTER)], env)
        cold = wall([bagm, "validate", str(ROSTER)], env,
                    setup=lambda: [p.unlink() for p in Path(cache).glob("*")])
    print(f"bare imports (typer, rich, pydantic, yaml): {base * 1000:.0f} ms")
    print(f"bagm validate, one roster, warm cache: {warm * 1000:.0f} ms ({warm / base:.2f}x)")
    print(f"bagm validate, one roster, cold cache: {cold * 1000:.0f} ms ({cold / base:.2f}x)")


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
    print(f"{n} rosters ({valid} valid), one process: {took:.2f} s ({took / n * 1000:.2f} ms each)")


def packs() -> None:
    from bagm.data.packs import Catalog

    with tempfile.TemporaryDirectory() as cache:
        os.environ["BAGM_CACHE_DIR"] = cache
        tracemalloc.start()
        start = time.perf_counter()
        factions = Catalog().all()
        cold = time.perf_counter() - start
        memory = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        start = time.perf_counter()
        Catalog().all()
        warm = time.perf_counter() - start
    units = sum(len(f.pack.units) for f in factions)
    print(f"all {len(factions)} bundled packs ({units} units): cold {cold * 1000:.0f} ms "
          f"(includes pydantic), cached {warm * 1000:.0f} ms, {memory / 1e6:.1f} MB")


if __name__ == "__main__":
    startup()
    throughput()
    packs()
