"""Benchmark (not part of the test run): where a mission 11 greedy game's time goes, step by step,
in several revisions side by side: ``python tests/bench/bench_where.py GAMES REV [REV ...]``
(``.`` is the working tree).

The games of ``tests/bench/bench_house.py`` (greedy against greedy on mission 11, the Grey Knights
"Purgation Force" against the Orks "Da Kaptin Krumpas", one core, caches warmed by 20 games, then
new seeds), each revision in a fresh process, alternately, ROUNDS times. Each decision's CPU time is
split between the bot choosing (``choose``) and the game applying the action (``apply``: the rules
acting until the next decision), by the kind of decision (move, shoot, charge, fight, command...).
The table gives milliseconds a game and decisions a game for each kind, the median of the rounds:
a kind whose time grew while its count did not costs more per decision (the rules it plays, or the
house); a kind whose count grew plays more often (the games differ).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).parents[2]

# runs inside each checkout: old and new module paths both work
SCRIPT = r"""
import sys, time, json, collections
sys.path.insert(0, sys.argv[1])
try:
    from bagm.engine.game.muster import build_army
    from bagm.engine.log import record
except ImportError:
    from bagm.engine.army import build_army
    from bagm.engine import record
try:
    from bagm.engine.log.simulation import many_games as pause
except ImportError:
    pause = None
import contextlib
root, games = sys.argv[1], int(sys.argv[2])
armies = (build_army("A", root + "/rosters/grey_knights_void_purge_force.yaml"),
          build_army("B", root + "/rosters/orks_kaptin_killers.yaml"))
clock = time.process_time
spent = collections.Counter()
count = collections.Counter()
real_play = record.play

def timed_play(game, chooser):
    def choose(g):
        step = g.decision.step
        t = clock()
        act = chooser(g)
        spent["choose", step] += clock() - t
        count[step] += 1
        return act
    real_apply = game.apply
    def apply(act):
        step = game.decision.step
        t = clock()
        out = real_apply(act)
        spent["apply", step] += clock() - t
        return out
    game.apply = apply
    return real_play(game, choose)

record.play = timed_play
def one(seed):
    with (pause() if pause is not None else contextlib.nullcontext()):
        return record.play_bots(11, "", "", seed, "greedy", "greedy", armies=armies)
for s in range(20):
    one(s)
spent.clear(); count.clear()
t = clock()
for s in range(1000, 1000 + games):
    one(s)
total = clock() - t
print(json.dumps({"total": 1000 * total / games,
                  "spent": {f"{k[0]} {k[1]}": 1000 * v / games for k, v in spent.items()},
                  "count": {k: v / games for k, v in count.items()}}))
"""


def run(tree: Path, games: int) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tree), str(games)], check=True,
                         capture_output=True, text=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    revs = sys.argv[2:] or ["9b6b931", "."]
    rounds = 3
    with tempfile.TemporaryDirectory(prefix="bagm-where-") as tmp:
        trees: list[Path] = []
        for i, rev in enumerate(revs):
            if rev == ".":
                trees.append(REPO)
                continue
            tree = Path(tmp) / f"rev{i}"
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), rev],
                           check=True, capture_output=True)
            trees.append(tree)
        try:
            got: list[list[dict[str, object]]] = [[] for _ in revs]
            for _ in range(rounds):
                for i, tree in enumerate(trees):
                    got[i].append(run(tree, games))
        finally:
            for tree in trees:
                if tree != REPO:
                    subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=True)
    def med(i: int, part: str, key: str) -> float:
        return statistics.median(float(r[part].get(key, 0.0)) for r in got[i])  # type: ignore[attr-defined]
    kinds = sorted({k for rs in got for r in rs for k in r["spent"]},  # type: ignore[attr-defined]
                   key=lambda k: -max(med(i, "spent", k) for i in range(len(revs))))
    print(f"mission 11 greedy, ms of CPU time a game (decisions a game), median of {rounds} rounds of {games} games")
    print(f"{'':22}" + "".join(f"{r:>18}" for r in revs))
    totals = [statistics.median(float(r["total"]) for r in rs) for rs in got]  # type: ignore[arg-type]
    print(f"{'whole game':22}" + "".join(f"{t:12.1f}      " for t in totals))
    for k in kinds:
        step = k.split(" ", 1)[1]
        cells = "".join(f"{med(i, 'spent', k):8.2f} ({med(i, 'count', step):5.1f})   " for i in range(len(revs)))
        print(f"{k:22}{cells}")


if __name__ == "__main__":
    main()
