"""Mission 1: Void the Ship (asymmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    Objective,
    cut_off_the_head,
    register,
    underdog_cp,
)
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.army import Unit

BOOK = "Asymmetric Mission 1 Void the Ship"
AIRLOCK = "Airlock"


def airlocks(game: GameInterface) -> list[int]:
    """The Hatchways (indexes) labelled 'Airlock' on the map."""
    return [h.index for h in game.map.layout.hatchways if h.label == AIRLOCK]


def _patrol_zone(game: GameInterface, p: Player, deploying: bool) -> tuple[str, ...]:
    # Mission 1 "Security Patrol": the Patrol Entry Zone is the Defender's in Deploy Armies only
    # (never for Strategic Reserves once the battle has begun)
    return ("Patrol",) if deploying and game.role.get(p) == "Defender" else ()


def _airlocks(game: GameInterface, u: Unit, index: int) -> str | None:
    # Mission 1 "Airlocks": only the Attacker can open an Airlock; once opened it cannot be closed
    if index not in airlocks(game):
        return None
    if game.bf.is_open(index):
        return "it is an open Airlock: once opened, an Airlock cannot be closed"
    if game.role[u.player] != "Attacker":
        return "it is an Airlock: only the Attacker can open it"
    return None


def _maintain_ship_integrity(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 1 "Maintain Ship Integrity": end of the battle, the Attacker scores 20VP per open
    # Airlock, the Defender 20VP per Airlock still closed
    name = {h.index: h.name for h in game.map.layout.hatchways}
    opened = game.role[p] == "Attacker"
    return [(20, f"{name[i]} (Hatchway {i + 1}) is {'open' if opened else 'closed'}")
            for i in airlocks(game) if game.bf.is_open(i) == opened]


def build() -> Mission:
    return Mission(1, "Void the Ship", "asymmetric",
                   rules=[MissionRule("Security Patrol", f"{BOOK}, Mission Rules: Security Patrol",
                                      zone_kinds=_patrol_zone),
                          MissionRule("Set Defence", f"{BOOK}, Mission Rules: Set Defence", first_turn="Defender"),
                          # "Exposed to the Void": the battlefield itself bars the Inaccessible Area
                          # to every model (board/battlefield.py IMPASSABLE_AREAS)
                          MissionRule("Exposed to the Void", f"{BOOK}, Mission Rules: Exposed to the Void"),
                          MissionRule("Airlocks", f"{BOOK}, Mission Rules: Airlocks", hatchway=_airlocks),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       Objective("Maintain Ship Integrity", f"{BOOK}, Mission Objectives: Maintain Ship Integrity",
                                 "end_game", ("end_battle",), _maintain_ship_integrity, whose="both"),
                       cut_off_the_head(f"{BOOK}, Mission Objectives: Cut Off the Head", 10)])


register("Void the Ship", 1, build)
