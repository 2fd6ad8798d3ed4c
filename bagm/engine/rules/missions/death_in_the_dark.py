"""Mission 22: Death in the Dark (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    at_end,
    held,
    marker_counts,
    register,
    underdog_cp,
)
from bagm.engine.state import events as ev
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.board.battlefield import Area
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.army import Unit

BOOK = "Symmetric Mission 22 Death in the Dark"
DARK_RANGE = 9.0  # Lights Out: nothing beyond 9", -1 within it


def lighting_areas(game: GameInterface) -> list[Area]:
    return sorted(game.map.layout.areas_of("Lighting Area"), key=lambda a: str(a.label))


def dark(game: GameInterface) -> list[Area]:
    """The Lighting Areas whose lights are off now (until the end of the turn they went off)."""
    off = game.mission_state.get("lights_off", {})
    return [a for a in lighting_areas(game) if off.get(str(a.label)) == game.turn]


def in_the_dark(game: GameInterface, u: Unit) -> bool:
    """``u`` is wholly within a Lighting Area that has the lights off."""
    return any(all(a.wholly_within(m.base) for m in u.models) for a in dark(game)) if u.models else False


def _lights_out(game: Game) -> None:
    # Mission 22 "Lights Out": at the end of your Movement phase, roll one D6 per Lighting Area:
    # on a 1-3 its lights turn off until the end of the turn
    off = game.mission_state.setdefault("lights_off", {})
    for a in lighting_areas(game):
        roll = game.dice.d6(f"Lights Out {a.name}")
        game.emit(ev.MissionRoll(e="mission_roll", player=game.active, rule=f"Lights Out ({a.name})", roll=roll))
        if roll <= 3:
            off[str(a.label)] = game.turn
            game.emit(ev.Lights(e="lights", area=a.name, on=False))
    game.touch()  # what may be shot or charged has changed


def _shooting(game: GameInterface, u: Unit, t: Unit) -> tuple[float | None, int]:
    # Mission 22 "Lights Out": attacker or target wholly within a dark Lighting Area: no ranged
    # attack beyond 9", -1 to the Hit roll within 9"
    if in_the_dark(game, u) or in_the_dark(game, t):
        return DARK_RANGE, -1
    return None, 0


def _charging(game: GameInterface, u: Unit, t: Unit) -> tuple[str | None, int]:
    # Mission 22 "Lights Out": charger or target wholly within a dark Lighting Area: no target
    # beyond 9", -1 to the Charge roll within 9" (at most -1)
    if not (in_the_dark(game, u) or in_the_dark(game, t)):
        return None, 0
    if game.unit_distance(u, t) > DARK_RANGE + 1e-9:
        return "the lights are out and it is more than 9\" away (Lights Out)", 0
    return None, -1


def _lock_it_down(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 22 "Lock It Down!": 1+, 2+, more markers than the opponent
    return marker_counts(game, p, (1, 2))


def _seek_sanctuary(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 22 "Seek Sanctuary": end of the battle, 15VP for each Lighting Area both of whose
    # objective markers the player controls
    out = []
    for a in lighting_areas(game):
        inside = [i for i, m in enumerate(game.map.layout.markers) if a.contains_point((m.x, m.y))]
        if inside and all(game.control[i] == p for i in inside):
            out.append((15, f"controls both objective markers within {a.name}"))
    return out


def build() -> Mission:
    return Mission(22, "Death in the Dark", "symmetric",
                   rules=[MissionRule("Lights Out", f"{BOOK}, Mission Rules: Lights Out", "end_movement",
                                      _lights_out, shooting=_shooting, charging=_charging),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       held(BOOK, "Lock It Down!", _lock_it_down),
                       at_end(BOOK, "Seek Sanctuary", _seek_sanctuary)])


register("Death in the Dark", 22, build)
