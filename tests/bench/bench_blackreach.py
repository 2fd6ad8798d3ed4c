"""Benchmarks (not part of the test run): ``python tests/bench/bench_blackreach.py``.

The exact Heroes of Black Reach resolvers: a twin-linked firing action at a heavy vehicle with a
techmarine and a mekaniak choosing its damage marker (the heaviest firing case), an assault
with saves on both sides, Da Krunch, and the ``bagm blackreach assault`` command's wall time
(median of 11 runs).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable

from bagm.blackreach.assault import Assault, Side, assault_odds
from bagm.blackreach.counters import Kind, OnHit
from bagm.blackreach.firing import Shot, fire_odds
from bagm.blackreach.hits import Victim
from bagm.blackreach.psychic import Krunch, krunch_odds

RUNS = 11
SET = {1: "tracks", 2: "hull", 3: "secondary weapon", 4: "primary weapon", 5: "hull",
       6: "explosion"}


def best(fn: Callable[[], object], runs: int = 5) -> float:
    """The fastest of ``runs`` single calls, in seconds."""
    return min(timeit.repeat(fn, number=1, repeat=runs))


def main() -> None:
    heavy = Victim(Kind.heavy, damage_set=SET, held=frozenset({"hull"}), adjust=2, extra_die=True,
                   prefer=("tracks",))
    shot = Shot(combat=4, defence=6, dice=2, reroll=True, victim=heavy)
    print(f"firing action, heavy vehicle with every aid: {best(lambda: fire_odds(shot)) * 1e3:.2f} ms")
    x = Assault(Side(3, Victim(on_hit=OnHit.flipped, save=5), assault=1),
                Side(2, Victim(on_hit=OnHit.flipped, save=4), assault=1), supporters=2)
    print(f"assault: {best(lambda: assault_odds(x)) * 1e3:.2f} ms")
    k = Krunch(5, victim=Victim(on_hit=OnHit.flipped, save=5))
    print(f"Da Krunch: {best(lambda: krunch_odds(k)) * 1e3:.2f} ms")
    cmd = [sys.executable, "-m", "bagm", "blackreach", "assault", "--attacker-combat", "3",
           "--attacker-assault", "1", "--defender-combat", "2", "--defender-assault", "0"]
    walls = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - start)
    print(f"bagm blackreach assault, wall: {statistics.median(walls) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
