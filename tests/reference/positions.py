"""Plain references of answers the game keeps on the units' stamps (:mod:`bagm.engine.game.positions`,
:mod:`bagm.engine.game.moments`, :mod:`bagm.engine.game.control`): the same answers worked out
from the battlefield as it stands, every time, nothing kept."""

from __future__ import annotations

from typing import Any

from bagm.engine.board.battlefield import ENGAGEMENT_RANGE
from bagm.engine.rules.effects import moves_through


def move_discs(g: Any, u: Any, kind: str, targets: tuple[str, ...] = ()) -> tuple[tuple[float, float, float], ...]:
    """What the centre of a moving model of ``u`` may not enter: every other unit's models as
    discs grown by the mover's radius, and by Engagement Range for enemy units whose Engagement
    Range keeps it out on this move (not shut off behind closed Hatchways)."""
    r = u.radius
    out = []
    through = u.affected and any(e.move_through for e in u.setting("move_through"))
    doors = [h.door for h in g.map.layout.hatchways if not g.bf.is_open(h.index)]
    for v in g.units.values():
        if v is u or v.where != "board":
            continue
        if through and moves_through(u, v, kind):
            continue
        enemy = v.player != u.player
        if enemy and kind == "fallback":
            continue
        er = enemy and (kind in ("normal", "advance") or kind == "charge" and v.uid not in targets)
        if er and doors and any(d.distance_to((m.x, m.y)) <= m.r + r + ENGAGEMENT_RANGE for d in doors for m in v.models):
            a, b = u.models[0], v.models[0]
            er = g.bf.path((a.x, a.y), (b.x, b.y)) is not None
        grow = r + (ENGAGEMENT_RANGE if er else 0.0)
        out += [(m.x, m.y, m.r + grow) for m in v.models]
    return tuple(out)
