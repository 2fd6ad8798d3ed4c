"""Benchmark (not part of the test run), before and after side by side in one run:
``python tests/bench/bench_house.py [BASE_REVISION] [GAMES] [ROUNDS]``.

Greedy against greedy on mission 11 (Grey Knights "Purgation Force" against Orks "Da Kaptin
Krumpas"), one core, steady state (caches warmed by 20 games, then new seeds), as ``bagm
simulate --jobs 1`` plays them. The base revision (default: the commit before the engine's new
house, issue 11) is checked out into a temporary git worktree; the two are run alternately in
fresh processes, ROUNDS times each, so a drifting machine affects both alike. Figures are games
per second of CPU time (the figure that holds on a shared machine), the median of the rounds,
and the ratio. The current code is also measured as a library call (no garbage-collector pause).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from figures import report  # tests/bench/figures.py (run as a script: its folder is on the path)

REPO = Path(__file__).parents[2]
BASE = "9b6b931"  # main before the engine moved into its new house

# runs inside each checkout: old and new module paths both work
SCRIPT = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
try:
    from bagm.engine.game.muster import build_army
    from bagm.engine.log.record import play_bots
except ImportError:
    from bagm.engine.army import build_army
    from bagm.engine.record import play_bots
mode, games = sys.argv[2], int(sys.argv[3])
pause = None
if mode == "simulate":
    try:
        from bagm.engine.log.simulation import many_games as pause
    except ImportError:
        pause = None  # the old code paused the collector inside play_bots itself
root = sys.argv[1]
armies = (build_army("A", root + "/rosters/grey_knights_void_purge_force.yaml"),
          build_army("B", root + "/rosters/orks_kaptin_killers.yaml"))
def one(seed):
    if pause is None:
        return play_bots(11, "", "", seed, "greedy", "greedy", armies=armies)
    with pause():
        return play_bots(11, "", "", seed, "greedy", "greedy", armies=armies)
for s in range(20):
    one(s)
cpu = time.process_time()
for s in range(1000, 1000 + games):
    one(s)
print(games / (time.process_time() - cpu))
"""


def run(tree: Path, mode: str, games: int) -> float:
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tree), mode, str(games)], check=True,
                         capture_output=True, text=True, cwd=tree)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else BASE
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    with tempfile.TemporaryDirectory(prefix="bagm-bench-") as tmp:
        old = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(old), base], check=True,
                       capture_output=True)
        try:
            figures: dict[str, list[float]] = {"before": [], "after": [], "after (library)": []}
            for _ in range(rounds):
                figures["before"].append(run(old, "simulate", games))
                figures["after"].append(run(REPO, "simulate", games))
                figures["after (library)"].append(run(REPO, "library", games))
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(old)], check=True)
    report(figures, games, rounds, ("after", "before"))


if __name__ == "__main__":
    main()
