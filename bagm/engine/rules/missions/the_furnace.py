"""Mission 32: The Furnace (symmetric)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.missions.base import (
    Mission,
    MissionRule,
    at_end,
    held,
    marker_counts,
    register,
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

BOOK = "Symmetric Mission 32 The Furnace"
BURNERS = "burners"  # the action word: 'manoeuvre A3 burners'
MAX_BURNER_WOUNDS = 3  # "to a maximum of 3 mortal wounds per unit per turn"


def furnace(game: GameInterface) -> Area:
    (area,) = game.map.layout.areas_of("Furnace")
    return area


def furnace_markers(game: GameInterface) -> list[int]:
    """The objective markers (indexes) within the Furnace."""
    area = furnace(game)
    return [i for i, m in enumerate(game.map.layout.markers) if area.contains_point((m.x, m.y))]


def _burners_reason(game: GameInterface, u: Unit) -> str | None:
    # Mission 32 "Rites of Incineration": once in each player's turn, one unit within a Furnace
    # Control Zone can perform Turn on the Burners
    if game.mission_state.get("burners") == game.turn:
        return "the Burners have already been turned on this turn (once in each player's turn)"
    if not any(within(z, u) for z in game.map.layout.areas_of("Furnace Control Zone")):
        return "it is not within a Furnace Control Zone"
    return None


def _turn_on_the_burners(game: GameInterface, u: Unit) -> None:
    game.mission_state["burners"] = game.turn
    game.emit(ev.MissionRule(e="mission_rule", player=u.player, rule="Turn on the Burners", unit=u.uid))


def _burn(game: Game) -> None:
    # Mission 32 "Turn on the Burners": at the end of the turn, each unit within the Furnace
    # rolls a D6 per model: 1 mortal wound per 4+, at most 3 per unit per turn
    if game.mission_state.get("burners") != game.turn:
        return
    area = furnace(game)
    for u in list(game.units.values()):
        if not u.alive or not within(area, u):
            continue
        rolls = [game.dice.d6(f"Turn on the Burners {u.uid}") for _ in u.models]
        hits = min(MAX_BURNER_WOUNDS, sum(1 for r in rolls if r >= 4))
        game.emit(ev.Burners(e="burners", unit=u.uid, rolls=rolls, mortal_wounds=hits))
        suffer_mortal_wounds(game, u, hits, "Turn on the Burners")


def _worth_dying_for(game: GameInterface, u: Unit, marker: int) -> str | None:
    # Mission 32 "Worth Dying For": any unit can Secure Site a marker within the Furnace
    return "" if marker in furnace_markers(game) else None


def _desperate_measures(game: Game) -> None:
    # Mission 32 "Desperate Measures": in your Command phase, holding a marker within the
    # Furnace, roll one D6: on a 5+ you gain 1CP
    p = game.active
    if not any(game.control[i] == p for i in furnace_markers(game)):
        return
    roll = game.dice.d6("Desperate Measures")
    game.emit(ev.MissionRoll(e="mission_roll", player=p, rule="Desperate Measures", roll=roll, needed=5))
    if roll >= 5:
        game.gain_cp(p, 1, "Desperate Measures")


def _promethium_exchangers(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 32 "Promethium Exchangers": 1+, 2+, more than the opponent, 1+ within the Furnace
    out = marker_counts(game, p, (1, 2))
    if any(game.control[i] == p for i in furnace_markers(game)):
        out.append((5, "controls an objective marker within the Furnace"))
    return out


def _costly_prize(game: Game, p: Player) -> list[tuple[int, str]]:
    # Mission 32 "Costly Prize": end of the battle, 10VP for 1+ markers within the Furnace
    held = [i for i in furnace_markers(game) if game.control[i] == p]
    return [(10, "controls an objective marker within the Furnace")] if held else []


def build() -> Mission:
    return Mission(32, "The Furnace", "symmetric",
                   rules=[MissionRule("Rites of Incineration", f"{BOOK}, Mission Rules: Rites of Incineration",
                                      "end_turn", _burn, manoeuvre=BURNERS, manoeuvre_reason=_burners_reason,
                                      perform=_turn_on_the_burners),
                          MissionRule("Worth Dying For", f"{BOOK}, Mission Rules: Worth Dying For",
                                      secure=_worth_dying_for),
                          MissionRule("Desperate Measures", f"{BOOK}, Mission Rules: Desperate Measures",
                                      "command", _desperate_measures),
                          underdog_cp(f"{BOOK}, Mission Rules: Underdog Bonus")],
                   objectives=[
                       held(BOOK, "Promethium Exchangers", _promethium_exchangers),
                       at_end(BOOK, "Costly Prize", _costly_prize)])


register("The Furnace", 32, build)
