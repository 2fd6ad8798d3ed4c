"""Vocabulary shared by the game engine's modules: its constants, the stated simplifications,
illegal actions, decisions, and small geometry helpers."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from bagm.errors import BagmError

VP_CAP = 90  # Determine Victor: at most 90VP from mission objectives
BATTLE_READY_VP = 10
CHARGE_RANGE = 12.0  # Core Rules "Charging with a Unit"
PILE_IN = 3.0  # Core Rules: Pile-in and Consolidation moves of up to 3"
COHERENCY = 2.0  # Core Rules "Unit Coherency"
DEEP_STRIKE_GAP = 9.0  # Core Rules "Deep Strike": more than 9" from enemy models
GAP = 0.2  # space the engine leaves between bases of a formation
INFILTRATE = 6.0  # Deployment: Infiltrators anywhere wholly within 6" of the Entry Zone

SIMPLIFICATIONS = [
    "Units move as formations: the model nearest the destination takes the shortest path "
    "(around Walls, closed Hatchways and other models and, on a Normal or Advance move, enemy "
    "Engagement Range, clipped to its Move); the others are laid out around it in coherency by "
    "the engine, each along its own path within its Move (the formation steps back until every "
    "model reaches its place).",
    "Per-model positions ('place') are measured model by model; formations only for the rest.",
    "Range is measured in a straight line from each model to the nearest visible enemy model; "
    "visibility is decided for the unit as a whole (a model fires if its unit sees the target).",
    "Each model plays its own profile and wargear (the roster's choices, else the datasheet's "
    "default; a unit whose models' profiles the data cannot place plays its most common one, "
    "and the game says so); each model fires all its ranged weapons, each weapon at the target "
    "chosen for it and with one of its profiles (the one named, else the first listed) (pistols "
    "only when it has no other ranged weapon or is engaged), and fights with one melee weapon "
    "(where its unit's models carry different ones, its own that does the most against the "
    "target) and any Extra Attacks weapon it carries.",
    "Benefit of Cover is decided once per weapon, for the first model the attacks are "
    "allocated to.",
    "A charge targets one unit; it succeeds if the 2D6 roll reaches the shortest distance "
    "between the two units less 1\" and the engine's formation ends within Engagement Range.",
    "Pile-in and Consolidation: each model not yet within Engagement Range moves up to 3\" in a "
    "straight line toward the nearest model of the unit it fights.",
    "A model fights if it is within Engagement Range of an enemy model or within 2\" of a model "
    "of its unit that is.",
    "An opponent whose unit is on the opposite side of a Hatchway always tries to prevent it "
    "being operated (with its toughest such unit).",
    "Unit Coherency at the end of a turn keeps the largest group of models linked by 2\" gaps.",
    "Command Re-roll inside the attack sequence follows fast dice: one die of each weapon's "
    "pool of Attacks, Hit and Wound rolls may be re-rolled once all are rolled (a failed one "
    "that no ability re-rolled; the lowest random Attacks roll of a model); a saving throw just "
    "after it fails, a random Damage just after it is rolled, a Hazardous test just after it "
    "fails.",
    "Battlefield Command is offered at the start of each phase and at the end of the Command "
    "phase; it confers only Leader abilities whose effects the data packs describe (the others "
    "are listed below). Detachment Stratagems: only those a data pack supplies are played (no "
    "source the project has lists them; each game names a Detachment without them).",
    "Deploy Armies: each player sets up as many units as they have Entry Zones, at most one "
    "CHARACTER and one non-CHARACTER unit per Entry Zone. Infiltrators: 'wholly within 6\" of the "
    "Entry Zone' is measured in a straight line.",
]


class IllegalAction(BagmError, ValueError):
    """An action the rules forbid: the message names the rule."""

    def __init__(self, message: str, rule: str, unit: str | None = None):
        super().__init__(message)
        self.rule = rule
        self.unit = unit


Player = Literal["A", "B"]
"""A player: A (the first roster) or B."""
Where = Literal["army", "board", "reserves", "destroyed"]
"""Where a unit is: not yet set up, on the battlefield, in Reserves, destroyed."""
Step = Literal["roles", "deploy", "move", "hatch", "reinforce", "manoeuvre", "shoot", "charge", "fight",
               "reroll", "counter", "bravery", "overwatch", "command", "rule", "use", "opening", "shock", "freemove", "mark", "over"]
"""The kinds of decision a game asks for (a Decision's ``step``)."""
PLAYERS: tuple[Player, Player] = ("A", "B")


@dataclass(slots=True)  # not frozen: built for every decision of a game, and never changed
class Decision:
    step: Step
    player: Player
    info: dict[str, Any] = field(default_factory=dict)


_WALL_VIS: dict[int, dict[tuple[Any, ...], bool]] = {}
_GEO: dict[int, dict[Any, Any]] = {}


HEX_RINGS = 5  # rings of places around a formation's anchor


def _hex_offsets(rings: int = HEX_RINGS) -> list[tuple[float, float]]:
    pts = []
    for i in range(-rings, rings + 1):
        for j in range(-rings, rings + 1):
            x, y = i + j / 2, j * math.sqrt(3) / 2
            if math.hypot(x, y) <= rings + 0.01:
                pts.append((x, y))
    pts.sort(key=lambda p: (round(math.hypot(*p), 6), math.atan2(p[1], p[0])))
    return pts


HEX = _hex_offsets()


def _r(p: tuple[float, float]) -> tuple[float, float]:
    return (round(p[0], 3), round(p[1], 3))


def _pt(p: tuple[float, float]) -> str:
    return f"{p[0]:g},{p[1]:g}"


def _along(pts: list[tuple[float, float]], d: float) -> tuple[float, float]:
    """The point ``d`` inches along a polyline."""
    for a, b in zip(pts, pts[1:]):
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        if d <= seg:
            t = d / seg if seg else 0.0
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        d -= seg
    return pts[-1]
