"""The board after each step of a game, read from its event log: where every unit's models
stand, which units are destroyed, VP and CP, objective control and open Hatchways.

A renderer: it follows the log and decides no rule. Where the log is silent it says so rather
than guess (see :data:`LOG_GAPS`): positions come only from events that carry them (``setup``,
``move``, ``charge_move``); models removed as casualties are taken from the end of the unit's
list, because the log counts casualties but does not say which models they were.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bagm.render.narration import Step

if TYPE_CHECKING:
    from bagm.engine.board.battlefield import Layout

# What the event log does not record, and how the replay shows it (also printed on the page).
LOG_GAPS = (
    ("The log counts the models each attack destroys but not which ones: the replay removes the "
     "last models listed."),
    ("Pile-in and Consolidation moves are logged without positions: the models are shown where "
     "they stood before, until the unit's next logged move."),
    ("Each attack is logged as counts (attacks, hits, wounds, unsaved wounds, wounds lost, models "
     "destroyed), not as single dice; Command Re-rolls are logged die by die."),
)

Point = list[float]


@dataclass
class Frame:
    """The board at the end of a step."""

    units: dict[str, list[Point]] = field(default_factory=dict)  # on the battlefield
    gone: dict[str, list[Point]] = field(default_factory=dict)  # destroyed: where they fell
    reserves: list[str] = field(default_factory=list)
    vp: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    cp: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    control: list[str | None] = field(default_factory=list)
    open: list[int] = field(default_factory=list)  # open Hatchways, 0-based as in the layout
    shocked: list[str] = field(default_factory=list)
    winner: str | None = None
    ended: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"units": self.units, "gone": self.gone, "reserves": self.reserves, "vp": self.vp,
                "cp": self.cp, "control": self.control, "open": self.open, "shocked": self.shocked,
                "winner": self.winner, "ended": self.ended}


def _points(value: Any) -> list[Point] | None:
    if isinstance(value, list) and value and all(isinstance(p, list) and len(p) == 2 for p in value):
        return [[float(p[0]), float(p[1])] for p in value]
    return None


class Tracker:
    """Applies events to a :class:`Frame`, one at a time."""

    def __init__(self, layout: Layout | None = None) -> None:
        self.f = Frame()
        self.fallen: dict[str, list[Point]] = {}  # where a unit's last models stood
        if layout is not None:
            self.f.open = sorted(h.index for h in layout.hatchways if h.starts_open)
            self.f.control = [None] * len(layout.markers)

    def _trim(self, uid: str, left: int) -> None:
        models = self.f.units.get(uid)
        if models is not None and 0 <= left < len(models):
            self.f.units[uid] = models[:left]  # which models fell is not logged: the last ones
            if left == 0:
                self.fallen[uid] = models

    def apply(self, e: dict[str, Any]) -> None:
        f, kind = self.f, e.get("e")
        uid = str(e.get("unit"))
        if kind in ("setup", "move", "charge_move"):
            at = _points(e.get("at")) or (_points(e.get("to")) if kind == "move" else None)
            if at is not None:
                f.units[uid] = at
                if uid in f.reserves:
                    f.reserves.remove(uid)
        elif kind in ("reserves", "reserve"):
            if uid not in f.reserves:
                f.reserves.append(uid)
        elif kind == "attack":
            target = str(e.get("target"))
            n = e.get("destroyed")
            if isinstance(n, int) and n > 0 and target in f.units:
                self._trim(target, len(f.units[target]) - n)
        elif kind in ("shoot", "fight") and isinstance(e.get("left"), int):
            self._trim(str(e.get("target")), int(e["left"]))
        elif kind == "coherency" and isinstance(e.get("removed"), int) and uid in f.units:
            self._trim(uid, len(f.units[uid]) - int(e["removed"]))
        elif kind == "desperate_escape" and isinstance(e.get("destroyed"), int) and uid in f.units:
            self._trim(uid, len(f.units[uid]) - int(e["destroyed"]))
        elif kind == "destroyed":
            last = f.units.pop(uid, None)
            if uid in f.reserves:
                f.reserves.remove(uid)
            f.gone[uid] = last or self.fallen.get(uid) or f.gone.get(uid, [])
            if uid in f.shocked:
                f.shocked.remove(uid)
        elif kind in ("vp", "cp") and e.get("player") in ("A", "B"):
            getattr(f, kind)[str(e["player"])] = int(e.get("total" if kind == "vp" else "cp") or 0)
        elif kind == "stratagem" and e.get("player") in ("A", "B"):
            f.cp[str(e["player"])] = int(e.get("cp") or 0)
        elif kind == "control":
            f.control = list(e.get("markers") or [])
        elif kind == "hatch" and not e.get("prevented") and isinstance(e.get("hatchway"), int):
            i = int(e["hatchway"]) - 1
            f.open = sorted((set(f.open) | {i}) if e.get("open") else (set(f.open) - {i}))
        elif kind == "battleshock":
            if e.get("shocked") and uid not in f.shocked:
                f.shocked.append(uid)
        elif kind == "phase" and e.get("phase") == "command":
            # Battle-shock lasts until the start of its player's next Command phase
            f.shocked = [u for u in f.shocked if not u.startswith(str(e.get("player")))]
        elif kind == "end":
            f.ended = True
            f.winner = e.get("winner")
            vp = e.get("vp")
            if isinstance(vp, Mapping):
                f.vp = {str(p): int(v) for p, v in vp.items()}

    def snapshot(self) -> Frame:
        return copy.deepcopy(self.f)


def frames(events: Sequence[dict[str, Any]], steps: Sequence[Step], layout: Layout | None = None) -> list[Frame]:
    """The board at the end of each step."""
    t = Tracker(layout)
    out = []
    for s in steps:
        for e in events[s.first:s.last]:
            t.apply(e)
        out.append(t.snapshot())
    return out
