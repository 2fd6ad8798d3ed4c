"""Benchmarks (not part of the test run): ``python tests/bench/bench_skirmish.py``.

1. ``bagm skirmish odds`` CPU time (median of 11 runs; the machine may be shared) for 20 shots against a 3-wound model.
2. The library call alone for 50 attacks at a rolled Strength (D6+6) and D3 attacks a turn.
3. ``bagm skirmish validate`` of the nine example rosters with the example overlay.
4. A whole campaign battle (battle, injuries, points, end) through the library.
5. Rewriting a campaign file of 20 battles, plain and keeping a user's comments.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

RUNS = 11
REPO = Path(__file__).parents[2]
OVERLAY = REPO / "rosters" / "skirmish" / "EXAMPLE-overlay.skirmish-data.yaml"


def median(fn) -> float:  # type: ignore[no-untyped-def]
    """Median CPU seconds (this process and its children): the machine may be shared."""
    times = []
    for _ in range(RUNS):
        before = os.times()
        fn()
        after = os.times()
        times.append(sum(after[:4]) - sum(before[:4]))
    return statistics.median(times)


def main() -> None:
    bagm = shutil.which("bagm") or "bagm"
    odds_cmd = [bagm, "skirmish", "odds", "--attacks", "20", "--bs", "4", "--s", "5", "--ap", "4",
                "--t", "4", "--sv", "3", "--w", "3", "--cover"]
    import sys

    base = median(lambda: subprocess.run([sys.executable, "-c", "import typer, rich"], check=True))
    t = median(lambda: subprocess.run(odds_cmd, stdout=subprocess.DEVNULL, check=True))
    print(f"bagm skirmish odds (20 shots, W3): {t * 1000:.0f} ms CPU "
          f"(python -c 'import typer, rich': {base * 1000:.0f} ms)")

    from bagm.chance.dice import parse_dice
    from bagm.skirmish.odds import Attack, Target, odds

    a, tg = Attack(50, 4, bs=4, ap=5), Target(4, save=3, wounds=3)
    s, n = parse_dice("D6+6").distribution, parse_dice("2D6").distribution
    t = median(lambda: odds(a, tg, strength=s, attacks=n))
    print(f"library: 2D6 attacks at S D6+6 against W3: {t * 1000:.1f} ms CPU")

    val_cmd = [bagm, "skirmish", "validate", str(REPO / "rosters" / "skirmish"), "--data", str(OVERLAY)]
    t = median(lambda: subprocess.run(val_cmd, stdout=subprocess.DEVNULL, check=True))
    print(f"bagm skirmish validate (nine rosters): {t * 1000:.0f} ms CPU")

    from bagm.chance.dice import Dice
    from bagm.skirmish import campaign as cp
    from bagm.skirmish.data import load_data

    data = load_data([OVERLAY])

    def battle() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            c, _ = cp.start(REPO / "rosters" / "skirmish" / "orks.skirmish.yaml",
                            Path(tmp) / "c.skirmish-campaign.yaml", data, seed=1)
            cp.battle(c, scenario="hunt", result="won", routed=False,
                      out_of_action=["Gorzag", "Da Boyz:2"], killed=[], fled=[],
                      enemy_out_of_action=1, enemy_killed=0, bonus=0, dark_eldar_opponent=False)
            cp.injuries(c, data, Dice(3), "seeded")
            cp.points(c, data, Dice(3), "seeded")
            cp.end(c, data)
    t = median(battle)
    print(f"library: start + one battle's after-battle sequence (5 atomic writes): {t * 1000:.1f} ms CPU")

    # 5. rewriting a campaign file of 20 battles: plain, and keeping a user's comments
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.skirmish-campaign.yaml"
        c, _ = cp.start(REPO / "rosters" / "skirmish" / "orks.skirmish.yaml", path, data, seed=1)
        for _ in range(20):
            cp.battle(c, scenario="hunt", result="won", routed=False, out_of_action=[], killed=[],
                      fled=[], enemy_out_of_action=2, enemy_killed=1, bonus=0,
                      dark_eldar_opponent=False)
            cp.injuries(c, data, Dice(3), "seeded")
            cp.points(c, data, Dice(3), "seeded")
            cp.end(c, data)
        plain = path.read_text()
        lines = len(plain.splitlines())
        commented = plain.replace("history:\n", "# what happened\nhistory:\n", 1)
        for label, text in (("plain", plain), ("with comments", commented)):
            path.write_text(text)
            t = median(lambda: cp.load_campaign(path).save())
            print(f"library: rewrite a campaign file of {lines} lines, {label}: {t * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
