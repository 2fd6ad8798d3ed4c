"""Plain reference of the rules used at a moment offered now (:meth:`bagm.engine.game.moments.
Moments.offered`): every rule of the army looked at, every time (the game keeps them by timing)."""

from __future__ import annotations

from typing import Any


def offered(g: Any, p: str, timing: str) -> list[Any]:
    """Player ``p``'s rules used at a moment whose WHEN is ``timing`` now (phase and turn)."""
    out = []
    yours = g.active == p
    for s in g.armies[p].uses:
        when = s.when
        if when == "your_shooting":  # offered at the start of your Shooting phase
            if timing != "phase_start" or g.phase != "shooting" or not yours:
                continue
        elif when != timing and not (when == "phase_start_or_end" and timing in ("phase_start", "phase_end")):
            continue
        if s.phase is not None and s.phase != g.phase:
            continue
        if s.turn == "yours" and not yours or s.turn == "opponents" and yours or s.first_round and g.round != 1:
            continue
        out.append(s)
    return out
