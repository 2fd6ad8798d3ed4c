"""Benchmark (not part of the test run): how fast a game is cloned and pickled mid-battle.
``python tests/bench/bench_clone.py [GAMES]``

Greedy against greedy on mission 11 (the pair of bench_house.py). Every decision of GAMES games
is cloned: at the top of a step's loop (``resumable``: a copy of the state) and in the middle
of resolving something (a replay of the actions so far). Figures: clones per second of CPU time
for each kind, over every decision of that kind, and pickle round trips per second.
"""

from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path

REPO = Path(__file__).parents[2]
sys.path.insert(0, str(REPO))

from bagm.engine.bots import make_bot  # noqa: E402
from bagm.engine.game.muster import build_army  # noqa: E402
from bagm.engine.game.sequence import Game  # noqa: E402


def main(games: int) -> None:
    a = build_army("A", REPO / "rosters" / "grey_knights_void_purge_force.yaml")
    b = build_army("B", REPO / "rosters" / "orks_kaptin_killers.yaml")
    took = {True: 0.0, False: 0.0}
    count = {True: 0, False: 0}
    pickled, pick_n = 0.0, 0
    for seed in range(games):
        g = Game(11, a.clone(), b.clone(), seed=seed)
        bots = {"A": make_bot("greedy", seed), "B": make_bot("greedy", seed + 1)}
        while g.decision.step != "over":
            kind = g.resumable
            t = time.process_time()
            g.clone()
            took[kind] += time.process_time() - t
            count[kind] += 1
            if kind and count[kind] % 10 == 0:
                t = time.process_time()
                pickle.loads(pickle.dumps(g))
                pickled += time.process_time() - t
                pick_n += 1
            g.apply(bots[g.decision.player](g))
    for kind, label in ((True, "at the top of a step (state copy)"), (False, "mid-resolution (replay)")):
        print(f"clone {label}: {count[kind]} clones, {count[kind] / took[kind]:,.0f} per second "
              f"({took[kind] / count[kind] * 1e6:,.0f} us each)")
    print(f"pickle round trip at the top of a step: {pick_n / pickled:,.0f} per second")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
