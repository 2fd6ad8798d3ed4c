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
import resource
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
    return statistics.median(timed(cmd, env, setup)[0] for _ in range(runs))


def timed(cmd: list[str], env: dict[str, str] | None = None, setup=None,  # type: ignore[no-untyped-def]
          stdout: int = subprocess.DEVNULL) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``cmd``. CPU time is the figure to
    trust on a shared machine: other processes stretch the wall time, not the CPU time."""
    if setup:
        setup()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=stdout, stderr=subprocess.DEVNULL, check=False, env=env)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup() -> None:
    bagm = shutil.which("bagm") or "bagm"
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, BAGM_CACHE_DIR=cache)
        subprocess.run([bagm, "validate", str(ROSTER)], env=env, stdout=subprocess.DEVNULL)
        # interleaved, so that a busy machine slows both alike
        bare, warm = [], []
        for _ in range(RUNS):
            bare.append(timed([sys.executable, "-c", "import typer, rich, pydantic, yaml"]))
            warm.append(timed([bagm, "validate", str(ROSTER)], env))
        cold = wall([bagm, "validate", str(ROSTER)], env,
                    setup=lambda: [p.unlink() for p in Path(cache).glob("*")])
    for i, what in ((0, "wall"), (1, "CPU")):
        base = statistics.median(t[i] for t in bare)
        hot = statistics.median(t[i] for t in warm)
        print(f"{what}: bare imports (typer, rich, pydantic, yaml) {base * 1000:.0f} ms; "
              f"bagm validate, one roster, warm cache {hot * 1000:.0f} ms ({hot / base:.2f}x; "
              "target at most 1.2x)")
    print(f"bagm validate, one roster, cold cache: {cold * 1000:.0f} ms wall")


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
        runs = [timed([bagm, "validate", tmp], stdout=subprocess.PIPE) for _ in range(5)]
        whole, cpu = min(t[0] for t in runs), min(t[1] for t in runs)
        start = time.perf_counter()
        catalog = Catalog()
        reports = [validate_path(p, catalog) for p in paths]
        took = time.perf_counter() - start
    valid = sum(r.valid for r in reports)
    print(f"bagm validate FOLDER of {n} rosters ({valid} valid), default output into a pipe: "
          f"{whole:.2f} s wall, {cpu:.2f} s CPU (target < 0.5 s); validation alone {took:.2f} s "
          f"({took / n * 1000:.2f} ms each)")


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
