"""Many games in one process (``bagm simulate``): the one place bagm touches a process-wide switch.

:func:`many_games` pauses Python's cyclic garbage collector around each game of a simulation. A
game makes no reference cycles (``tests/test_game_properties.py`` checks it), so everything it
drops is freed by reference counting; the collector would otherwise walk the process's large
geometry and odds caches again and again for nothing (measured: about a seventh of a game's time,
see the README's figures). Library calls (:func:`bagm.engine.log.record.play`) never do this:
only the simulation command, which owns its process, asks for it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def many_games() -> Iterator[None]:
    """Pause the cyclic garbage collector for one game of a simulation; restored afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
