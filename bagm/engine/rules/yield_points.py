"""Prioritised Efficiency (Codex: Leagues of Votann, army rule): Yield points (YP) and the two
abilities they select for the army's LEAGUES OF VOTANN units, Hostile Acquisition and Fortify
Takeover.

- At the start of the battle the units have Hostile Acquisition until the start of their
  player's next Command phase; at the end of each of that player's Command phases, Fortify
  Takeover if the army has 7YP or more, else Hostile Acquisition, until the start of the next.
- At the end of each player's Command phase, an army with the rule gains 1YP if it controls an
  objective marker within its deployment zone and, from the second battle round on, 1YP more
  for each of: it controls an objective marker not within its deployment zone; it controls two
  or more such; it controls more objective markers than its opponent. In its own turn the YP are
  gained before the ability is selected.

Reading: Boarding Actions "Deployment" calls a player's deployment zones Entry Zones, so "within
your deployment zone" is within one of the player's Entry Zones (some part of the marker in it).
The Boarding Actions Mustering Rules' Leagues of Votann army rule (Eternal Resentment) is for
units with Eye of the Ancestors, the army rule the Codex replaced with this one; no datasheet of
the pack has it, so it plays no part.

The ability in force is a label on each unit (``Unit.timed``: the ability's name until "next
command PLAYER"); the units' effects name it in ``only_while`` ('hostile_acquisition',
'fortify_takeover', answered by :meth:`bagm.engine.state.army.Unit.state`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.effects import effect_has, label_effect
from bagm.engine.state import events as ev
from bagm.engine.state.army import YIELD_MODES
from bagm.engine.state.core import PLAYERS, Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.state.army import Unit

RULE = "Prioritised Efficiency"
FORTIFY_AT = 7  # "if you have 7YP or more, your units have Fortify Takeover"
HOSTILE, FORTIFY = YIELD_MODES["hostile_acquisition"], YIELD_MODES["fortify_takeover"]


def _holders(game: GameInterface, p: Player) -> list[Unit]:
    """``p``'s units with the rule (on the battlefield, in reserves or not yet set up)."""
    if not game.armies[p].may_set("yield_points"):
        return []
    return [u for u in game.armies[p].units if u.where != "destroyed" and u.affected and effect_has(u, "yield_points")]


def _set(game: GameInterface, p: Player, units: list[Unit], mode: str) -> None:
    until = f"next command {p}"  # "until the start of your next Command phase"
    for u in units:
        u.timed = tuple(x for x in u.timed if x[0] not in (HOSTILE, FORTIFY)) + ((mode, label_effect(), until),)


def yield_start(game: GameInterface) -> None:
    """The start of the battle: each army with the rule has Hostile Acquisition."""
    for p in PLAYERS:
        units = _holders(game, p)
        if units:
            _set(game, p, units, HOSTILE)
            game.emit(ev.Yield(e="yield", player=p, gain=0, pool=game.yp[p], mode=HOSTILE))


def _gain(game: GameInterface, p: Player) -> int:
    markers = game.map.layout.markers
    zones = game.entry_zones(p)
    mine = [i for i, c in enumerate(game.control) if c == p]
    home = [i for i in mine if any(z.within(markers[i].base) for z in zones)]
    gain = 1 if home else 0
    if game.round >= 2:
        away = len(mine) - len(home)
        gain += (away >= 1) + (away >= 2) + (len(mine) > sum(1 for c in game.control if c == game.other(p)))
    return gain


def yield_on_kill(game: GameInterface, u: Unit) -> None:
    """``u`` destroyed an enemy unit: with ``kill_yield`` (Seized Opportunity), its army gains 1YP,
    once per phase for the army."""
    if not (u.affected and effect_has(u, "kill_yield")):
        return
    rule = u.source("kill_yield")
    key = (u.player, rule, game.phase_id)
    if key in game.used:
        return
    game.used.add(key)
    game.yp[u.player] += 1
    game.emit(ev.Yield(e="yield", player=u.player, gain=1, pool=game.yp[u.player], why=rule))


def yield_command_end(game: GameInterface) -> None:
    """The end of a Command phase (the active player's): each army with the rule gains its YP;
    the active player's then selects its units' ability until the start of its next Command
    phase."""
    for p in PLAYERS:
        units = _holders(game, p)
        if not units:
            continue
        gain = _gain(game, p)
        game.yp[p] += gain
        if p == game.active:
            mode = FORTIFY if game.yp[p] >= FORTIFY_AT else HOSTILE
            _set(game, p, units, mode)
            game.emit(ev.Yield(e="yield", player=p, gain=gain, pool=game.yp[p], mode=mode))
        elif gain:
            game.emit(ev.Yield(e="yield", player=p, gain=gain, pool=game.yp[p]))
