"""Benchmarks (not part of the test run): ``python tests/bench/bench_cli.py``.

Run it against a regular (non-editable) install; the figures go in the README.
1. Start-up: ``bagm validate`` of one roster, warm cache, against a bare
   ``python -c "import typer, rich, pydantic, yaml"`` (median wall time of 21 runs each).
2. The same run with a cold cache (the first run after installing or editing a pack).
3. Throughput: ``bagm validate FOLDER`` of 1,000 rosters, one process, its default output into
   a pipe (the linter lines and the summary), wall time of the whole command; and in-process
   the validation alone.
4. Loading every bundled pack, cold (validation) and from the cache, and its memory.

All figures come from one run, side by side, with the targets of issue 16: start-up at most
1.2x the bare imports, 1,000 rosters under 0.5 s.
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


def wall(cmd: list[str], env: dict[str, str] | None = None, setup=None,  # type: ignore[no-untyped-def]
         runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
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
        # interleaved, so that a busy machine slows both alike
        bare, warm = [], []
        for _ in range(RUNS):
            bare.append(wall([sys.executable, "-c", "import typer, rich, pydantic, yaml"], runs=1))
            warm.append(wall([bagm, "validate", str(ROSTER)], env, runs=1))
        base, hot = statistics.median(bare), statistics.median(warm)
        cold = wall([bagm, "validate", str(ROSTER)], env,
                    setup=lambda: [p.unlink() for p in Path(cache).glob("*")])
    print(f"bare imports (typer, rich, pydantic, yaml): {base * 1000:.0f} ms")
    print(f"bagm validate, one roster, warm cache: {hot * 1000:.0f} ms ({hot / base:.2f}x; "
          "target at most 1.2x)")
    print(f"bagm validate, one roster, cold cache: {cold * 1000:.0f} ms ({cold / base:.2f}x)")


def throughput(n: int = 1000) -> None:
    from bagm.data.packs import Catalog
    from bagm.roster.validate import validate_path

    bagm = shutil.which("bagm") or "bagm"
    rosters = sorted((REPO / "rosters").glob("*.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(n):
            p = Path(tmp) / f"r{i:04}.yaml"
            p.write_text(rosters[i % len(rosters)].read_text(encoding="utf-8"), encoding="utf-8")
            paths.append(p)
        whole = min(_once([bagm, "validate", tmp]) for _ in range(5))
        start = time.perf_counter()
        catalog = Catalog()
        reports = [validate_path(p, catalog) for p in paths]
        took = time.perf_counter() - start
    valid = sum(r.valid for r in reports)
    print(f"bagm validate FOLDER of {n} rosters ({valid} valid), default output into a pipe: "
          f"{whole:.2f} s (target < 0.5 s); validation alone {took:.2f} s "
          f"({took / n * 1000:.2f} ms each)")


def _once(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


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
