"""Benchmark (not part of the test run): ``python tests/bench/bench_import.py``.

Importing a 100-unit export in the Warhammer 40,000 app's 11th-edition layout (Attached Units
blocks, model lines with their wargear, un-bulleted wargear continuations: some 1,200 lines,
about 30 KB). Target (issue 16): under 0.3 s. Three figures, median of 21 runs each:
1. the import in one process, data packs loaded (read, map, write the roster text);
2. the same with the faction's pack loaded from bagm's cache first (a fresh process's work);
3. the whole ``bagm import BIG.txt -o out.yaml`` command, CPU and wall time (start-up included).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

RUNS = 21
UNITS = 100

_BLOCKS = [
    ("Khârn the Betrayer (100 Points)\n• Attached as: Leader (Character)\n  • 1x Gorechild\n"
     "    1x Plasma pistol\n"),
    ("Khorne Berzerkers (180 Points)\n• Attached as: Bodyguard (Battleline)\n"
     "  • 1x Khorne Berzerker Champion\n    • 1x Chainblade\n      1x Plasma pistol\n"
     "  • 9x Khorne Berzerker\n    • 7x Bolt pistol\n      7x Chainblade\n"
     "      1x Icon of Khorne\n      2x Khornate eviscerator\n"),
    ("Master of Executions (60 Points)\n  • 1x Axe of dismemberment\n    1x Bolt pistol\n"
     "  • Enhancement: Battle Lust\n"),
    "Chaos Spawn (90 Points)\n  • 2x Chaos Spawn\n    • 2x Hideous mutations\n",
    ("Jakhals (65 Points)\n  • 1x Jakhal Pack Leader\n    • 1x Mauler chainblade\n"
     "  • 9x Jakhal\n    • 9x Autopistol\n      9x Chainblades\n"),
    ("Chaos Terminators (175 Points)\n  • 1x Terminator Champion\n    • 1x Accursed weapon\n"
     "      1x Combi-bolter\n  • 4x Chaos Terminator\n    • 4x Accursed weapon\n"
     "      3x Combi-bolter\n      1x Heavy flamer\n"),
]


def export_text(units: int = UNITS) -> str:
    """A 100-unit list in the 11th-edition app layout."""
    parts = ["Big Butchers (9,999 Points)\n\nWorld Eaters\nBoarding Actions (500 Points)\n"
             "Boarding Butchers (1 Detachment Point)\nForce Disposition: Purge the Foe\n\n"
             "Attached Units\n"]
    for i in range(units):
        if i % 10 == 0:
            parts.append(f"\nAttached Unit {i // 10 + 1}\n")
        parts.append("\n" + _BLOCKS[i % len(_BLOCKS)])
    parts.append("\nExported with App Version: v2.0.5 (128), Data Version: v886\n")
    return "".join(parts)


def median(fn) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    from bagm.data.packs import Catalog
    from bagm.roster.importer import import_file, roster_yaml

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.txt"
        path.write_text(export_text(), encoding="utf-8")
        lines = path.read_text(encoding="utf-8").count("\n")
        catalog = Catalog()
        result = import_file(path, catalog)
        assert len(result.roster["units"]) == UNITS and not result.unmapped, result.unmapped
        warm = median(lambda: roster_yaml(import_file(path, catalog)))
        fresh = median(lambda: roster_yaml(import_file(path, Catalog())))
        bagm = shutil.which("bagm") or "bagm"
        out = Path(tmp) / "out.yaml"
        env = dict(os.environ)
        subprocess.run([bagm, "import", str(path), "-o", str(out), "--force"], env=env,
                       capture_output=True, check=False)  # fills the pack cache

        cpu: list[float] = []

        def command() -> None:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([bagm, "import", str(path), "-o", str(out), "--force"], env=env,
                           capture_output=True, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

        wall = median(command)
    size = len(export_text().encode())
    print(f"{UNITS}-unit app export ({lines} lines, {size / 1000:.0f} KB):")
    print(f"  import in one process, packs loaded: {warm * 1000:.0f} ms (target: under 300 ms)")
    print(f"  import with the pack loaded from the cache first: {fresh * 1000:.0f} ms")
    print(f"  'bagm import BIG.txt -o out.yaml': {statistics.median(cpu) * 1000:.0f} ms CPU "
          f"({wall * 1000:.0f} ms wall, which other jobs on the machine stretch)")


if __name__ == "__main__":
    main()
