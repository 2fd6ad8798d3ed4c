"""The board after each step of a game, read from its event log: where every unit's models
stand, which models fell (and where), which units are destroyed, VP and CP, objective control,
open Hatchways and Battle-shock.

A renderer: it follows the log and decides no rule. Positions come from the events that carry
them (``at``: ``setup``, ``move``, ``charge_move``, ``pile_in``, ``consolidate``, ``change_level``); the models an
event removes from ``removed_models`` (indices into the unit's models as they stood before it).
A log of an older bagm lacks some of these; the replay then says so (:func:`log_gaps`) rather
than guess silently.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bagm.render.narration import Step

if TYPE_CHECKING:
    from bagm.engine.board.battlefield import Layout

# What a log of an older bagm (its muster event has no base sizes) does not record, and how
# the replay shows it (printed on the page).
OLD_LOG_GAPS = (
    ("This log is from an older bagm: it counts the models each attack destroys but not which "
     "ones, so the replay removes the last models listed."),
    ("Pile-in and Consolidation moves are logged without positions: the models are shown where "
     "they stood before, until the unit's next logged move."),
    ("Each attack is logged as counts (attacks, hits, wounds, unsaved wounds, wounds lost, models "
     "destroyed), not as single dice; Command Re-rolls are logged die by die."),
    "Base sizes are not logged: they are read from the rosters, or drawn 32mm.",
)


def full_log(events: Sequence[dict[str, Any]]) -> bool:
    """The log records which models fall, every position and the attacks' dice (a log of this
    bagm: its muster event names the base sizes)."""
    return any(e.get("e") == "muster" and isinstance(e.get("base_radius"), dict) for e in events[:5])


def log_gaps(events: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """What this log does not record, in words (nothing for a log of this bagm)."""
    return () if full_log(events) else OLD_LOG_GAPS


Point = list[float]


@dataclass
class Frame:
    """The board at the end of a step."""

    units: dict[str, list[Point]] = field(default_factory=dict)  # on the battlefield
    gone: dict[str, list[Point]] = field(default_factory=dict)  # models removed: where they fell
    fell: dict[str, list[Point]] = field(default_factory=dict)  # models removed in this step
    destroyed: list[str] = field(default_factory=list)
    reserves: list[str] = field(default_factory=list)
    vp: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    cp: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    control: list[str | None] = field(default_factory=list)
    open: list[int] = field(default_factory=list)  # open Hatchways, 0-based as in the layout
    shocked: list[str] = field(default_factory=list)
    winner: str | None = None
    ended: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"units": self.units, "gone": self.gone, "fell": self.fell, "destroyed": self.destroyed,
                "reserves": self.reserves, "vp": self.vp, "cp": self.cp, "control": self.control,
                "open": self.open, "shocked": self.shocked, "winner": self.winner, "ended": self.ended}


def _points(value: Any) -> list[Point] | None:
    if isinstance(value, list) and value and all(isinstance(p, list) and len(p) == 2 for p in value):
        return [[float(p[0]), float(p[1])] for p in value]
    return None


POSITIONED = ("setup", "move", "charge_move", "pile_in", "consolidate", "change_level", "rush_move",
              "reinforce", "models_return")  # events with ``at``
REMOVING = {"attack": "target", "hazardous": "unit", "coherency": "unit", "desperate_escape": "unit"}


class Tracker:
    """Applies events to a :class:`Frame`, one at a time."""

    def __init__(self, layout: Layout | None = None, full: bool = True) -> None:
        self.f = Frame()
        self.full = full  # the log names removed models and when Battle-shock ends
        if layout is not None:
            self.f.open = sorted(h.index for h in layout.hatchways if h.starts_open)
            self.f.control = [None] * len(layout.markers)

    def _remove(self, uid: str, indices: list[int]) -> None:
        """Remove the models at ``indices`` (as they stood before the event), greyed where they fell."""
        models = self.f.units.get(uid)
        if models is None:
            return
        drop = {i for i in indices if isinstance(i, int) and 0 <= i < len(models)}
        if not drop:
            return
        fell = [p for i, p in enumerate(models) if i in drop]
        self.f.units[uid] = [p for i, p in enumerate(models) if i not in drop]
        self.f.gone.setdefault(uid, []).extend(fell)
        self.f.fell.setdefault(uid, []).extend(fell)

    def _trim(self, uid: str, left: int) -> None:
        """An older log: which models fell is not logged, so the last ones."""
        models = self.f.units.get(uid)
        if models is not None and 0 <= left < len(models):
            self._remove(uid, list(range(left, len(models))))

    def apply(self, e: dict[str, Any]) -> None:
        f, kind = self.f, e.get("e")
        uid = str(e.get("unit"))
        if kind in POSITIONED:
            at = _points(e.get("at")) or (_points(e.get("to")) if kind == "move" else None)
            if at is not None:
                f.units[uid] = at
                if uid in f.reserves:
                    f.reserves.remove(uid)
        elif kind in ("reserves", "reserve"):
            f.units.pop(uid, None)  # (from the battlefield during the battle: Stalking Menace)
            if uid not in f.reserves:
                f.reserves.append(uid)
            f.units.pop(uid, None)  # placed into Reserves from the battlefield (Ambushing Hunters)
        elif kind in REMOVING and isinstance(e.get("removed_models"), list):
            self._remove(str(e.get(REMOVING[kind])), e["removed_models"])
        elif not self.full:
            self._apply_old(e)
        if kind == "destroyed":
            last = f.units.pop(uid, None)
            if uid in f.reserves:
                f.reserves.remove(uid)
            if last:
                f.gone.setdefault(uid, []).extend(last)
                f.fell.setdefault(uid, []).extend(last)
            if uid not in f.destroyed:
                f.destroyed.append(uid)
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
        elif kind == "battleshock_ends" and uid in f.shocked:
            f.shocked.remove(uid)
        elif kind == "end":
            f.ended = True
            f.winner = e.get("winner")
            vp = e.get("vp")
            if isinstance(vp, Mapping):
                f.vp = {str(p): int(v) for p, v in vp.items()}

    def _apply_old(self, e: dict[str, Any]) -> None:
        """What a log of an older bagm says only as counts."""
        f, kind = self.f, e.get("e")
        uid = str(e.get("unit"))
        if kind == "attack":
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
        elif kind == "phase" and e.get("phase") == "command":
            # Battle-shock lasts until the start of its player's next Command phase
            f.shocked = [u for u in f.shocked if not u.startswith(str(e.get("player")))]

    def snapshot(self) -> Frame:
        out = copy.deepcopy(self.f)
        self.f.fell = {}
        return out


def frames(events: Sequence[dict[str, Any]], steps: Sequence[Step], layout: Layout | None = None) -> list[Frame]:
    """The board at the end of each step."""
    t = Tracker(layout, full_log(events))
    out = []
    for s in steps:
        for e in events[s.first:s.last]:
            t.apply(e)
        out.append(t.snapshot())
    return out
