"""Benchmark (not part of the test run): ``python tests/bench/bench_missions.py [GAMES] [MISSION...]``.

Greedy against greedy on each playable mission (or those named), with the bench pair of
``bench_game.py`` (Grey Knights "Purgation Force" against Orks "Da Kaptin Krumpas"), on one core:
games per second by CPU time (the figure that holds on a shared machine) and by the clock, after
5 warm-up games of the mission (cold caches of its map), and events per game.
"""

from __future__ import annotations

import sys
import time

from bench_game import A_PATH, B_PATH

from bagm.engine.game.muster import build_army
from bagm.engine.log.record import play_bots
from bagm.engine.rules.missions import MISSIONS


def rate(mission: int, armies: tuple, seeds: range) -> tuple[float, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    events = 0
    for s in seeds:
        events += len(play_bots(mission, "", "", s, armies=armies).events)
    took, took_cpu = time.perf_counter() - start, time.process_time() - cpu
    return len(seeds) / took_cpu, len(seeds) / took, events / len(seeds)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    named = [int(x) for x in sys.argv[2:]]
    order = sorted(MISSIONS, key=lambda e: (e.number < 10, e.number))  # the book's order
    armies = (build_army("A", A_PATH), build_army("B", B_PATH))
    print(f"{'mission':<32} {'games/s (CPU)':>13} {'(clock)':>8} {'events/game':>12}")
    for e in order:
        if named and e.number not in named:
            continue
        rate(e.number, armies, range(5))  # warm-up: the map's geometry caches
        cpu, wall, events = rate(e.number, armies, range(100, 100 + games))
        print(f"{f'{e.number} {e.name}':<32} {cpu:>13.1f} {wall:>8.1f} {events:>12.0f}")


if __name__ == "__main__":
    main()
