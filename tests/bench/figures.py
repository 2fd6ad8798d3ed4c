"""The benchmarks' report of a side-by-side run: each way's games per second of CPU time (median of
the rounds, and every round), then the ratio of two of them (one home for bench_house.py and
bench_faction_rules.py)."""

from __future__ import annotations

import statistics


def report(figures: dict[str, list[float]], games: int, rounds: int, ratio: tuple[str, str],
           width: int = 16) -> None:
    """Print ``figures`` (way -> games/s of each round) and the ratio ``ratio[0] / ratio[1]``."""
    med = {k: statistics.median(v) for k, v in figures.items()}
    print(f"greedy vs greedy, mission 11, one core, {games} games x {rounds} rounds (games/s of CPU time)")
    for k, v in figures.items():
        print(f"  {k:<{width}} median {med[k]:5.1f}   rounds: {', '.join(f'{x:.1f}' for x in v)}")
    print(f"  ratio {ratio[0]}/{ratio[1]}: {med[ratio[0]] / med[ratio[1]]:.3f}")
