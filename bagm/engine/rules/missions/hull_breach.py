"""Mission 23: Hull Breach (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    Objective,
    held,
    marker_counts,
    player_of,
    register,
    set_hatchways,
    suffer_mortal_wounds,
    underdog_cp,
    within,
)
from bagm.engine.state import events as ev
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.board.battlefield import Area
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.army import Unit

BOOK = "Symmetric Mission 23 Hull Breach"
DOWNLOAD = "download"  # the action word: 'manoeuvre A3 download'
DATA_VP = 15


# --- Deadly Decompression ---------------------------------------------------------------------

def vented(game: GameInterface) -> Area | None:
    """The Compartment vented this battle round, or None."""
    got = game.mission_state.get("vented")
    if got is None or got[0] != game.round:
        return None
    return next(a for a in game.map.layout.areas_of("Compartment") if str(a.label) == got[1])


def hatchways_of(game: GameInterface, area: Area) -> list[int]:
    """The Hatchways within a Compartment: those on the edge of one of its Zones."""
    out = []
    for h in game.map.layout.hatchways:
        if any(area.zone_rect(c, r).distance_to(h.centre) < 1e-6 for c, r in area.zones):
            out.append(h.index)
    return out


def _decompression(game: Game) -> None:
    # Mission 23 "Deadly Decompression": from round 2, at the start of the battle round the
    # Attacker rolls a D6: on a 3+ a Compartment (the Defender's D6) is vented until the end of
    # the round: its open Hatchways close and each unit within it suffers D3 mortal wounds
    if game.round < 2:
        return
    att, dfn = player_of(game, "Attacker"), player_of(game, "Defender")
    roll = game.dice.d6("Deadly Decompression")
    game.emit(ev.MissionRoll(e="mission_roll", player=att, rule="Deadly Decompression", roll=roll, needed=3))
    if roll < 3:
        return
    which = game.dice.d6("Deadly Decompression: Compartment")
    game.emit(ev.MissionRoll(e="mission_roll", player=dfn, rule="Deadly Decompression: which Compartment", roll=which))
    area = next((a for a in game.map.layout.areas_of("Compartment") if str(a.label) == str(which)), None)
    if area is None:
        return
    game.mission_state["vented"] = (game.round, str(area.label))
    game.emit(ev.Vented(e="vented", area=area.name))
    set_hatchways(game, [i for i in hatchways_of(game, area) if game.bf.is_open(i)], False,
                  "Deadly Decompression")
    for u in list(game.units.values()):
        if u.alive and within(area, u):
            suffer_mortal_wounds(game, u, game.dice.d3(f"Deadly Decompression {u.uid}"), "Deadly Decompression")


def _decompression_move(game: GameInterface, u: Unit, kind: str) -> int:
    # while vented: a unit within it selected for a Normal or Advance move has 1" less Move
    area = vented(game)
    return -1 if area is not None and kind in ("move", "advance") and within(area, u) else 0


def _decompression_ap(game: GameInterface, t: Unit) -> list[int] | None:
    # while vented: "each time an attack is allocated to a model in that Compartment, improve
    # the Armour Penetration characteristic of that attack by 1": model by model (a model in it:
    # some part of its base within the Compartment, as "within" reads for an area), the others
    # of the unit untouched; the defender allocates to a model outside it first (their choice)
    area = vented(game)
    if area is None:
        return None
    out = [1 if area.within(m.base) else 0 for m in t.models]
    return out if any(out) else None


# --- The Datacores: Download Data ----------------------------------------------------------------

def _download_options(game: GameInterface, u: Unit) -> list[int]:
    done = game.mission_state.get("downloaded", {}).get(u.player, [])
    return [i for i, m in enumerate(game.map.layout.markers)
            if game.control[i] == u.player and i not in done and
            any(game.bf.in_objective_range(x.base, m) for x in u.models)]


def _download_reason(game: GameInterface, u: Unit) -> str | None:
    # Mission 23 "The Datacores": once in each player's turn, one unit can perform Download Data
    # on an objective marker it is within range of, that you control and have not downloaded from
    if game.mission_state.get("download_turn") == game.turn:
        return "a unit of this army has already performed Download Data this turn"
    if not _download_options(game, u):
        return "no objective marker you control and have not downloaded from is within its range"
    return None


def _download(game: GameInterface, u: Unit) -> None:
    marker = _download_options(game, u)[0]  # the lowest-numbered one (a unit is rarely in range of two)
    game.mission_state["download_turn"] = game.turn
    game.mission_state.setdefault("pending", {})[u.player] = (u.uid, marker)
    game.emit(ev.MissionRule(e="mission_rule", player=u.player, rule=f"Download Data (objective marker {marker + 1})", unit=u.uid))


def _data_retrieval(game: Game, step: str) -> None:
    # Mission 23 "Data Retrieval": at the start of your next Command phase, if that unit is not
    # Battle-shocked and still within range of the marker, you have downloaded its data: 15VP
    p = game.active
    got = game.mission_state.get("pending", {}).pop(p, None)
    if got is None:
        return
    uid, marker = got
    u = game.units[uid]
    m = game.map.layout.markers[marker]
    if u.alive and not u.battleshocked and any(game.bf.in_objective_range(x.base, m) for x in u.models):
        game.mission_state.setdefault("downloaded", {}).setdefault(p, []).append(marker)
        game.score(p, DATA_VP, f"Data Retrieval: downloaded data from objective marker {marker + 1}", [uid])
    else:
        game.emit(ev.Note(e="note", text=f"{uid} did not download the data of objective marker {marker + 1}"))


def _temporary_stabilisation(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 23 "Temporary Stabilisation": 1+, 2+, more markers than the opponent
    return marker_counts(game, p, (1, 2))


def build() -> Mission:
    return Mission(23, "Hull Breach", "symmetric",
                   rules=[MissionRule("Deadly Decompression", f"{BOOK}, Mission Rules: Deadly Decompression",
                                      "start_round", _decompression, move_mod=_decompression_move,
                                      allocated_ap=_decompression_ap),
                          MissionRule("The Datacores", f"{BOOK}, Mission Rules: The Datacores",
                                      manoeuvre=DOWNLOAD, manoeuvre_reason=_download_reason, perform=_download),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       Objective("Data Retrieval", f"{BOOK}, Mission Objectives: Data Retrieval",
                                 "progressive", ("start_command",), apply=_data_retrieval),
                       held(BOOK, "Temporary Stabilisation", _temporary_stabilisation)])


register("Hull Breach", 23, build)
