"""Benchmark (not part of the test run): ``python tests/bench/bench_game.py [GAMES]``.

Greedy against greedy on mission 11 (Access Junction Primus) with two example rosters (Grey
Knights "Purgation Force" against Orks "Da Kaptin Krumpas"), on one core:
1. games per second, the first games (cold caches) and the rest (caches of geometry and exact
   odds warm, as in a simulation);
2. where the time goes: the top entries of cProfile over 10 games;
3. memory per game: tracemalloc's peak while one game is played, and the size of its event log.
Also: random against random, and the property check over many random games
(``BAGM_PROPERTY_GAMES=200 pytest tests/test_game_properties.py``) for the record.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys
import time
import tracemalloc
from pathlib import Path

from bagm.engine.army import build_army
from bagm.engine.record import play_bots

REPO = Path(__file__).parents[2]
A_PATH = REPO / "rosters" / "grey_knights_void_purge_force.yaml"
B_PATH = REPO / "rosters" / "orks_kaptin_killers.yaml"


def rate(armies: tuple, seeds: range, bot: str = "greedy") -> tuple[float, float]:
    start = time.perf_counter()
    events = 0
    for s in seeds:
        events += len(play_bots(11, "", "", s, bot, bot, armies=armies).lines)
    took = time.perf_counter() - start
    return len(seeds) / took, events / len(seeds)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    armies = (build_army("A", A_PATH), build_army("B", B_PATH))
    cold, _ = rate(armies, range(5))
    print(f"{'greedy vs greedy, first 5 games (cold caches)':<52} {cold:>8.1f} games/s")
    warm, events = rate(armies, range(5, 5 + games))
    print(f"{f'greedy vs greedy, next {games} games (warm caches)':<52} {warm:>8.1f} games/s "
          f"({events:.0f} events per game)")
    rnd, events = rate(armies, range(1000, 1000 + games // 2), "random")
    print(f"{'random vs random':<52} {rnd:>8.1f} games/s ({events:.0f} events per game)")

    tracemalloc.start()
    rec = play_bots(11, "", "", 99, armies=armies)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    log = sum(len(x) + 1 for x in rec.lines)
    print(f"{'memory: peak while playing one game':<52} {peak / 1e6:>8.2f} MB")
    print(f"{'memory: its event log (JSON lines)':<52} {log / 1e3:>8.1f} kB")

    prof = cProfile.Profile()
    prof.enable()
    for s in range(200, 210):
        play_bots(11, "", "", s, armies=armies)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
    print("\nwhere the time goes (10 greedy games, by own time):")
    print("\n".join(x for x in out.getvalue().splitlines() if x.strip())[-2400:])


if __name__ == "__main__":
    main()
