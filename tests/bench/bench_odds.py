"""Benchmarks (not part of the test run): ``python tests/bench/bench_odds.py``.

1. ``bagm odds`` wall time for a 20-attack profile with Sustained Hits and Devastating Wounds
   (median of 11 runs), against a bare ``python -c "import typer, rich"``.
2. The library call alone (``bagm.engine.attack.odds.distribution``) for the same profile.
3. A heavy profile: 10 models with D6 attacks, Sustained Hits D3, Devastating Wounds and
   D6+2 Damage against 10 three-wound models with Feel No Pain (the size of the exact chains).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time

RUNS = 11
PROFILE = ["--attacks", "20", "--bs", "3", "--s", "5", "--ap=-1", "--d", "D3", "--sustained", "2",
           "--devastating", "--t", "4", "--sv", "3", "--w", "2", "--models", "10"]


def wall(cmd: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def library(profile, target, runs: int = RUNS) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    from bagm.engine.attack.odds import distribution

    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = distribution(profile, target)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    from bagm.chance.dice import parse_dice
    from bagm.data.weapons import Abilities, WeaponProfile
    from bagm.engine.attack.rules import AttackProfile, Target

    bagm = shutil.which("bagm") or "bagm"
    base = wall([sys.executable, "-c", "import typer, rich"])
    text = wall([bagm, "odds", *PROFILE])
    js = wall([bagm, "odds", *PROFILE, "--format", "json"])
    print(f"bare imports (typer, rich): {base * 1000:.0f} ms")
    print(f"bagm odds, 20 attacks, Sustained Hits 2 + Devastating Wounds, D3 vs 10x W2: "
          f"text {text * 1000:.0f} ms, json {js * 1000:.0f} ms")

    w = WeaponProfile("bench", False, parse_dice(20), 3, 5, -1, parse_dice("D3"),
                      Abilities(sustained_hits=parse_dice(2), devastating_wounds=True))
    t, r = library(AttackProfile(w), Target(4, 3, 2, models=10))
    print(f"  library call alone: {t * 1000:.1f} ms "
          f"(expected damage {float(r.expected_damage):.3f}, "  # type: ignore[attr-defined]
          f"{len(r.damage)} damage values)")  # type: ignore[attr-defined]

    heavy = WeaponProfile("heavy", False, parse_dice("D6"), 3, 6, -2, parse_dice("D6+2"),
                          Abilities(sustained_hits=parse_dice("D3"), devastating_wounds=True))
    t, r = library(AttackProfile(heavy, 10), Target(4, 3, 3, models=10, fnp=5), runs=3)
    print(f"heavy: 10 models x D6 attacks, Sustained Hits D3, Devastating, D6+2, vs 10x W3 FNP 5+: "
          f"{t * 1000:.0f} ms ({len(r.damage)} damage values, "  # type: ignore[attr-defined]
          f"up to {max(r.packets)} packets)")  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
