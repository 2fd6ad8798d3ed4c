"""Benchmarks (not part of the test run): ``python tests/bench/bench_bfg.py``.

The exact Battlefleet Gothic resolvers: one boarding action, the grapple chain between two
battleships (every state of 12 x 12 damage points, solved in fractions), a party of two cruisers
grappling one (648 states, the party's choices by each policy), the two boarding it separately
(every draw's grapple, the parties acting in turn), ten Hit-and-Run
attacks, and the ``bagm bfg board`` command's wall time (median of 11 runs).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable

from bagm.bfg.boarding import action
from bagm.bfg.grapple import grapple
from bagm.bfg.hit_and_run import Attack, hit_and_run
from bagm.bfg.report import board
from bagm.bfg.ships import parse_ship

RUNS = 11


def best(fn: Callable[[], object], runs: int = 5) -> float:
    """The fastest of ``runs`` single calls, in seconds."""
    return min(timeit.repeat(fn, number=1, repeat=runs))


def main() -> None:
    emperor = parse_ship("Emperor,damage=12,turrets=5,crippled-at=6")
    despoiler = parse_ship("Despoiler,damage=12,turrets=4,race=chaos,crew=space-marines,"
                           "crippled-at=6")
    plague = parse_ship("Plagueclaw,damage=6,race=chaos")
    hyperion = parse_ship("Hyperion,damage=3,turrets=2")
    print(f"one boarding action: {best(lambda: action([plague], hyperion)) * 1e3:.2f} ms")
    print(f"grapple 6 x 3: {best(lambda: grapple(plague, hyperion)) * 1e3:.1f} ms")
    big = best(lambda: grapple(emperor, despoiler))
    print(f"grapple 12 x 12 (crippled-at 6): {big * 1e3:.0f} ms")
    party = [parse_ship("Murder,damage=8,race=chaos"),
             parse_ship("Devastation,damage=8,race=chaos,crew=space-marines,crippled-at=4")]
    lunar = parse_ship("Lunar,damage=8,turrets=2,crippled-at=4")
    for policy in ("best", "spread"):
        t = best(lambda: grapple(party, lunar, policy), runs=3)  # noqa: B023
        print(f"party grapple 8 + 8 x 8, policy {policy}: {t * 1e3:.0f} ms")
    both = best(lambda: board(party, lunar, separately=True), runs=3)
    print(f"board 8 and 8 separately x 8, with the grapples after draws: {both * 1e3:.0f} ms")
    print(f"10 Hit-and-Run attacks, 2D6 twice: "
          f"{best(lambda: hit_and_run('capital', Attack('2d6', tyranids=True), 10)) * 1e3:.2f} ms")
    cmd = [sys.executable, "-m", "bagm", "bfg", "board", "-a", "Plagueclaw,damage=6,race=chaos",
           "-d", "Hyperion,damage=3,turrets=2"]
    walls = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - start)
    print(f"bagm bfg board (with its grapple), wall: {statistics.median(walls) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
