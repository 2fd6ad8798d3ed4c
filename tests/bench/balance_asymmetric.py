"""Measurement (not part of the test run): ``python tests/bench/balance_asymmetric.py [SEEDS] [MISSION...]``.

Greedy against greedy on the asymmetric missions (default 1, 2 and 3), over four pairs of
bundled rosters with ``SEEDS`` seeds each (default 5: 20 games a mission). The roll-off decides
who is the Attacker, so each pair plays both roles over the seeds. Printed per mission: wins per
role (and draws), mean VP per role, and mean VP per role from each Mission Objective (VP taken
away, as Destroy Ground Targets does, counted negative). The figures in the README's mission
section come from ``python tests/bench/balance_asymmetric.py 5``.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from bagm.engine.game.muster import build_army
from bagm.engine.log.record import play_bots

REPO = Path(__file__).parents[2]
PAIRS = [("grey_knights_void_purge_force", "orks_kaptin_killers"),
         ("adeptus_astartes_boarding_strike", "tyranids_boarding_swarm"),
         ("astra_militarum_embarked_regiment", "necrons_tomb_ship_complement"),
         ("tau_empire_starfire_cadre", "world_eaters_boarding_butchers")]


def measure(mission: int, seeds: int) -> dict[str, object]:
    wins: dict[str, int] = defaultdict(int)
    vp: dict[str, int] = defaultdict(int)
    by_obj: dict[tuple[str, str], int] = defaultdict(int)
    games = 0
    for a, b in PAIRS:
        armies = (build_army("A", REPO / "rosters" / f"{a}.yaml"), build_army("B", REPO / "rosters" / f"{b}.yaml"))
        for s in range(seeds):
            rec = play_bots(mission, "", "", s, armies=armies)
            games += 1
            roles = next(e for e in rec.events if e["e"] == "roles")
            role = {p: roles[p] for p in ("A", "B")}
            wins[role[rec.winner] if rec.winner else "draw"] += 1
            for p in ("A", "B"):
                vp[role[p]] += rec.vp[p]
            for e in rec.events:
                if e["e"] == "vp":
                    by_obj[(role[e["player"]], str(e["why"]).split(":")[0])] += e["vp"]
    return {"games": games, "wins": dict(wins), "vp": dict(vp), "by_obj": dict(by_obj)}


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    missions = [int(x) for x in sys.argv[2:]] or [1, 2, 3]
    for m in missions:
        r = measure(m, seeds)
        n = r["games"]
        wins, vp, by_obj = r["wins"], r["vp"], r["by_obj"]
        assert isinstance(n, int) and isinstance(wins, dict) and isinstance(vp, dict) and isinstance(by_obj, dict)
        print(f"mission {m}: {n} games; wins Attacker {wins.get('Attacker', 0)}, Defender "
              f"{wins.get('Defender', 0)}, draws {wins.get('draw', 0)}; mean VP Attacker "
              f"{vp.get('Attacker', 0) / n:.1f}, Defender {vp.get('Defender', 0) / n:.1f}")
        for (role, obj), v in sorted(by_obj.items()):
            print(f"    {role:<9} {obj:<40} {v / n:6.1f} VP a game")


if __name__ == "__main__":
    main()
