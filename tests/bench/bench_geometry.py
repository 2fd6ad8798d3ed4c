"""Benchmarks (not part of the test run): ``python tests/bench/bench_geometry.py``.

On mission 11's map (Access Junction Primus), with 32mm bases at seeded random free positions:
1. building the map's path graph (load, corners, visibility graph, all-pairs distances) and the
   graph of a new Hatchway state;
2. distance queries per second: fresh positions each time (cold caches), and all pairs among 20
   models that stand still (warm caches, as in a game between moves);
3. Engagement Range checks per second;
4. visibility queries per second: `visible` and `fully_visible` between random pairs;
5. movement paths per second for a 32mm base.
"""

from __future__ import annotations

import random
import time
from typing import Callable

from bagm.engine.board.battlefield import Battlefield
from bagm.engine.board.geometry import Base
from bagm.engine.board.maps import bundled_path, load_map

R = 32 / 25.4 / 2


def rate(label: str, fn: Callable[[], int], seconds: float = 2.0) -> None:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        count += fn()
    took = time.perf_counter() - start
    print(f"{label:<58} {count / took:>12,.0f} /s")


def main() -> None:
    rng = random.Random(11)
    start = time.perf_counter()
    mmap = load_map(bundled_path(11))
    bf = Battlefield(mmap.layout)
    layer = mmap.layout.measure_layer
    bf.distance((1, 1), (40, 29))
    built = time.perf_counter() - start
    print(f"mission 11: {len(layer.vertices)} corners, {len(layer.pairs)} corner pairs")
    print(f"{'load + build the path graph + all-pairs distances':<58} {built * 1000:>10.1f} ms")
    bf2 = bf.copy()
    bf2.open_all()
    start = time.perf_counter()
    bf2.distance((1, 1), (40, 29))
    print(f"{'graph of a new Hatchway state':<58} {(time.perf_counter() - start) * 1000:>10.1f} ms")

    b = mmap.layout.bounds

    def spot() -> Base:
        while True:
            m = Base(rng.uniform(b.x0, b.x1), rng.uniform(b.y0, b.y1), R)
            if bf.fits(m):
                return m

    pool = [spot() for _ in range(20000)]
    it = iter(range(10 ** 9))

    def fresh() -> int:
        i = next(it) % (len(pool) - 1)
        bf.distance(pool[i], pool[i + 1])
        return 1

    rate("distance, fresh positions (cold caches)", fresh)
    models = pool[:20]

    def warm() -> int:
        for a in models:
            for c in models:
                bf.distance(a, c)
        return len(models) ** 2

    rate("distance, 20 models all pairs (warm caches)", warm)

    def engaged() -> int:
        for a in models:
            for c in models:
                bf.engaged(a, c)
        return len(models) ** 2

    rate("Engagement Range checks, 20 models all pairs", engaged)
    jt = iter(range(10 ** 9))

    def vis() -> int:
        i = next(jt) % (len(pool) - 1)
        bf.visible(pool[i], pool[i + 1])
        return 1

    rate("visible, random pairs", vis)
    kt = iter(range(10 ** 9))

    def full() -> int:
        i = next(kt) % (len(pool) - 1)
        bf.fully_visible(pool[i], pool[i + 1])
        return 1

    rate("fully_visible, random pairs", full)
    near = [(a, c) for a, c in zip(pool, pool[1:]) if bf.distance(a, c) < 12][:2000]
    lt = iter(range(10 ** 9))

    def vis_near() -> int:
        a, c = near[next(lt) % len(near)]
        bf.visible(a, c)
        bf.fully_visible(a, c)
        return 1

    rate("visible + fully_visible, pairs within 12\"", vis_near)
    mt = iter(range(10 ** 9))
    bf.move_path(pool[0], pool[1].centre)

    def move() -> int:
        i = next(mt) % (len(pool) - 1)
        bf.move_path(pool[i], pool[i + 1].centre)
        return 1

    rate("move_path for a 32mm base, random pairs", move)


if __name__ == "__main__":
    main()
