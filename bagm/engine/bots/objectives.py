"""What the greedy bot knows of the missions: what controlling each objective marker is worth to
a player by the Mission Objectives (:data:`OBJECTIVES`), how the army spreads over them
(:func:`assign`), and its advice on each Mission Rule a player may use (:data:`RULES`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

from bagm.engine.bots.uses import miracle_for, pain_for_cp, pool_reroll_for
from bagm.engine.game import positions
from bagm.engine.game.sequence import Game, Unit
from bagm.engine.state.actions import Action
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.bots.greedy import GreedyBot


def on_marker_now(g: Game, u: Unit) -> bool:
    """A model of ``u`` is within 1" of an objective marker (within its range)."""
    return any(math.hypot(x.x - m.x, x.y - m.y) - x.r - m.radius <= 1.0
               for m in g.map.layout.markers for x in u.models)


class Advice(Protocol):
    """The bot's choice among ``legal`` for one Mission Rule (None: decline)."""

    def __call__(self, bot: GreedyBot, g: Game, p: Player, legal: list[Action], /) -> Action | None: ...


# --- Mission Objectives: what controlling each objective marker is worth to a player -------------

WORTH = 6.0  # inches of detour one unit of a marker's worth pays for
CROWD = 10.0  # inches an Airlock seems farther for each friendly unit already nearer to it


def _ground_targets(g: Game, p: Player) -> dict[int, float]:
    """Pull Their Teeth, Destroy Ground Targets and Seize the Guns: each Loader the Defender
    controls at the start of their Command phase moves 5VP from the Attacker to them (10VP while
    they control the Control Node); the Attacker scores 5VP for the Control Node at the start of
    theirs. Both players want the Loaders (to hold, or to deny); the Control Node is worth twice
    as much to each (it doubles the Loaders' take, or scores)."""
    from bagm.engine.rules.missions.pull_their_teeth import LOADER, NODE

    return {i: 2.0 if m.label == NODE else 1.0 if m.label == LOADER else 0.0
            for i, m in enumerate(g.map.layout.markers)}


def _every_marker(g: Game, p: Player) -> dict[int, float]:
    """Strongrooms, They Are Ours: each marker the Attacker controls at the end of the battle
    scores them 45VP, so both players want both (the Defender holds them from the start)."""
    return {i: 1.0 for i in range(len(g.map.layout.markers))}


def _airlocks(g: Game, p: Player) -> dict[int, float]:
    """Void the Ship, Maintain Ship Integrity: no objective marker is worth anything; the
    Airlocks are (see :meth:`GreedyBot.doors_to_open`)."""
    return {}


OBJECTIVES = {"Destroy Ground Targets": _ground_targets, "They Are Ours": _every_marker,
              "Maintain Ship Integrity": _airlocks}
"""The Mission Objectives the bot has advice for, by name: what controlling each objective
marker is worth to a player (relative worth: 0 for none). A mission with none of them: every
marker alike, the nearest first."""


def assign(g: Game, p: Player, free: list[int], worth: dict[int, float]) -> dict[str, int]:
    """Player ``p``'s units not in combat nor on a marker, each given one of the ``free``
    markers: the pairs taken cheapest first (the distance, less ``WORTH`` inches per unit of the
    marker's worth), at most an even share of the units per marker, so the army spreads over
    the markers its objectives value instead of queueing for the nearest. A function of the game
    as it stands (the bot keeps no plan between decisions: a clone plays alike)."""
    markers = g.map.layout.markers
    units = [u for u in g.army_units(p) if u.models and not positions.engaged_with(g, u)
             and not on_marker_now(g, u)]
    if not units or not free:
        return {}
    share = -(-len(units) // len(free))
    pairs = sorted((math.dist((u.models[0].x, u.models[0].y), (markers[i].x, markers[i].y)) - WORTH * worth[i],
                    k, i, u.uid) for k, u in enumerate(units) for i in free)
    out: dict[str, int] = {}
    taken: dict[int, int] = {}
    for _, _, i, uid in pairs:
        if uid not in out and taken.get(i, 0) < share:
            out[uid] = i
            taken[i] = taken.get(i, 0) + 1
    return out


def marker_worth(g: Game, p: Player) -> dict[int, float] | None:
    """What each objective marker is worth to player ``p`` by the mission's objectives the bot
    has advice for (the greatest advice, marker by marker); None: no advice."""
    out: dict[int, float] | None = None
    for obj in g.mission.objectives:
        advice = OBJECTIVES.get(obj.name)
        if advice is not None:
            got = advice(g, p)
            out = got if out is None else {i: max(out.get(i, 0.0), got.get(i, 0.0)) for i in set(out) | set(got)}
    return out


# --- Mission Rules a player may use: what the bot does with each --------------------------------

def _unlock_overrides(bot: GreedyBot, g: Game, p: Player, legal: list[Action]) -> Action | None:
    """Control Centre: open every Hatchway while marker A (in its closed room) is not ours, to
    reach it; while we hold it the doors stay as they are, keeping the enemy out."""
    a = [i for i, m in enumerate(g.map.layout.markers) if m.label == "A"]
    return legal[0] if any(g.control[i] != p for i in a) else None


def _guard_duty(bot: GreedyBot, g: Game, p: Player, legal: list[Action]) -> Action | None:
    """Strongrooms: the unit worth most points guards each Strongroom (its marker is worth 45VP
    to the Attacker)."""
    return max(legal, key=lambda a: g.unit(a.arg).points)


def _corrupt(bot: GreedyBot, g: Game, p: Player, legal: list[Action]) -> Action | None:
    """Corrupt the Machine Spirit: always attempt it (20VP for the Attacker, 30VP fewer for the
    Defender)."""
    return legal[0]


CONSEQUENCE_ORDER = ("Communications Network", "Gravitational Systems", "Steam Venting Overrides",
                     "Door Controls")


def _consequence(bot: GreedyBot, g: Game, p: Player, legal: list[Action]) -> Action | None:
    """Cut the Defender's CP first, then their Overwatch, then their long-range fire; Door
    Controls last (and, chosen, it is left unused)."""
    opts = [a for a in legal if a.kind == "rule"]
    return min(opts, key=lambda a: CONSEQUENCE_ORDER.index(str(a.arg))) if opts else None


def _imprisoned(bot: GreedyBot, g: Game, p: str, legal: list[Action]) -> Action | None:
    """Jailbreak: imprison the toughest unit (its D6 to open the Prison Cells' Hatchway must roll
    under its Toughness), the cheapest of those (it is out of the fight until freed)."""
    return max(legal, key=lambda a: (g.unit(a.arg).T, -g.unit(a.arg).points))


def _infiltrate(bot: GreedyBot, g: Game, p: str, legal: list[Action]) -> Action | None:
    """Jailbreak: Silent Infiltration costs nothing when the alarm goes off: infiltrate every unit
    but the imprisoned one, the costliest first."""
    from bagm.engine.rules.missions.jailbreak import prisoner

    opts = [a for a in legal if a.kind == "rule" and g.unit(a.arg) is not prisoner(g)]
    return max(opts, key=lambda a: g.unit(a.arg).points) if opts else None


def _infiltration_move(bot: GreedyBot, g: Game, p: str, legal: list[Action]) -> Action | None:
    """Jailbreak: the Silent Infiltration move toward the point nearest the unit's goal."""
    u = g.unit(g.decision.info["unit"])
    goal = bot.goal(g, u)

    def far(a: Action) -> float:
        x, y = (float(v) for v in str(a.arg).split(","))
        return math.dist((x, y), goal)
    opts = [a for a in legal if a.kind == "rule"]
    return min(opts, key=far) if opts else None


def _change_level(bot: GreedyBot, g: Game, p: str, legal: list[Action]) -> Action | None:
    """Power the Generators: a unit standing in an Access Zone changes level when what it heads
    for (the nearest marker its army does not hold, else the nearest enemy) is on the other level."""
    lay = g.map.layout
    for a in legal:
        if a.kind != "rule":
            continue
        u = g.unit(a.arg)
        if lay.board_at((u.models[0].x, u.models[0].y)) is not lay.board_at(bot.target(g, u)):
            return a
    return None


RULES: dict[str, Advice] = {"Unlock Overrides": _unlock_overrides, "Change Level": _change_level, "Guard Duty": _guard_duty,
         "Imprisoned": _imprisoned, "Silent Infiltration": _infiltrate,
         "Silent Infiltration: move": _infiltration_move,
         "Corrupt the Machine Spirit": _corrupt, "Corrupt the Machine Spirit: consequence": _consequence,
         "Commorrite Rivalries": pain_for_cp, "Acts of Faith": miracle_for, "Chosen of Khorne": pool_reroll_for}
