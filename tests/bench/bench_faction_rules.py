"""Benchmark (not part of the test run): what the faction rules cost, side by side in one run:
``python tests/bench/bench_faction_rules.py [GAMES] [ROUNDS]``.

The mission 11 bench's games (greedy against greedy, the Grey Knights "Purgation Force" against
the Orks "Da Kaptin Krumpas", one core, caches warmed by 20 games, then new seeds), played by this
tree's engine twice over: both armies with their faction's rules (Detachment rules, Enhancements,
army rules, the factions' datasheet abilities: issue 13's rules) and both without them
(``build_army(..., faction_rules=False)``; the core abilities and Leader abilities stay). Each
way runs in a fresh process, alternately, ROUNDS times, so a drifting machine affects both alike.
Figures are games per second of CPU time, the median of the rounds, and the ratio.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from figures import report  # tests/bench/figures.py (run as a script: its folder is on the path)

REPO = Path(__file__).parents[2]

SCRIPT = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from bagm.engine.game.muster import build_army
from bagm.engine.log.record import play_bots
from bagm.engine.log.simulation import many_games
root, rules, games = sys.argv[1], sys.argv[2] == "with", int(sys.argv[3])
armies = (build_army("A", root + "/rosters/grey_knights_void_purge_force.yaml", faction_rules=rules),
          build_army("B", root + "/rosters/orks_kaptin_killers.yaml", faction_rules=rules))
def one(seed):
    with many_games():
        return play_bots(11, "", "", seed, "greedy", "greedy", armies=armies)
for s in range(20):
    one(s)
cpu = time.process_time()
for s in range(1000, 1000 + games):
    one(s)
print(games / (time.process_time() - cpu))
"""


def run(rules: str, games: int) -> float:
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(REPO), rules, str(games)], check=True,
                         capture_output=True, text=True, cwd=REPO)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    figures: dict[str, list[float]] = {"without": [], "with": []}
    for _ in range(rounds):
        for way in figures:
            figures[way].append(run(way, games))
    report(figures, games, rounds, ("with", "without"))


if __name__ == "__main__":
    main()
