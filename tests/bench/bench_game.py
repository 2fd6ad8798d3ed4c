"""Benchmark (not part of the test run): ``python tests/bench/bench_game.py [GAMES]``.

Greedy against greedy on mission 11 (Access Junction Primus) with two example rosters (Grey
Knights "Purgation Force" against Orks "Da Kaptin Krumpas"), on one core:
1. games per second, the first games (cold caches), the next ones, and the steady state of a
   simulation (new seeds after 100 games: caches of geometry and exact odds warm), by the clock
   and by CPU time; the same games with their JSON-lines event logs written (``bagm simulate``
   never writes them; ``bagm play --log`` does);
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

from bagm.engine.game.muster import build_army
from bagm.engine.log.record import play_bots

REPO = Path(__file__).parents[2]
A_PATH = REPO / "rosters" / "grey_knights_void_purge_force.yaml"
B_PATH = REPO / "rosters" / "orks_kaptin_killers.yaml"


def rate(armies: tuple, seeds: range, bot: str = "greedy", log: bool = False
         ) -> tuple[float, float, float]:
    """Games per second by the clock and by this process's CPU time (the figure that holds on
    a shared machine), and events per game; ``log``: also write each game's JSON-lines log."""
    start, cpu = time.perf_counter(), time.process_time()
    events = 0
    for s in seeds:
        rec = play_bots(11, "", "", s, bot, bot, armies=armies)
        events += len(rec.lines) if log else len(rec.events)
    took, took_cpu = time.perf_counter() - start, time.process_time() - cpu
    return len(seeds) / took, len(seeds) / took_cpu, events / len(seeds)


def show(what: str, figures: tuple[float, float, float]) -> None:
    wall, cpu, events = figures
    print(f"{what:<58} {wall:>6.1f} games/s ({cpu:.1f} by CPU time; {events:.0f} events per game)")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    armies = (build_army("A", A_PATH), build_army("B", B_PATH))
    show("greedy vs greedy, first 5 games (cold caches)", rate(armies, range(5)))
    show(f"greedy vs greedy, next {games} games", rate(armies, range(5, 5 + games)))
    rate(armies, range(5 + games, 100))  # warm-up to 100 games, as a simulation is after a while
    show(f"greedy vs greedy, steady: {2 * games} new seeds after 100 games",
         rate(armies, range(1000, 1000 + 2 * games)))
    show("  the same, other new seeds, each game's JSON-lines log written",
         rate(armies, range(3000, 3000 + 2 * games), log=True))
    show("random vs random", rate(armies, range(2000, 2000 + games // 2), "random"))

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
