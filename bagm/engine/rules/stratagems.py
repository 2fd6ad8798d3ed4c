"""The Boarding Actions Stratagems as registered entries (Boarding Actions, "Stratagems").

Each entry says what the book's card says, as values: its cost, its category, when it can be
used, what it targets and its restrictions. The phase code offers a Stratagem at its timing and
asks :func:`may_use` and :func:`use` here, never comparing names. Detachment Stratagems are not
in any source the project has; a user supplies them in a data pack (a Detachment's
``stratagems:``): they become :class:`bagm.engine.rules.uses.Use` entries the army carries,
offered at their moments (:mod:`bagm.engine.game.moments`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bagm.data.timings import TIMINGS
from bagm.engine.rules.registry import Registry
from bagm.engine.state.core import Player

BOTH_EDITIONS = frozenset({"2023", "2024"})


@dataclass(frozen=True)
class Stratagem:
    """One of the book's Stratagem cards. ``when`` is the card's timing, one of :data:`TIMINGS`.
    Their effects are beyond any vocabulary (a re-roll, a unit fighting next): the phase code
    offers each at its timing. A Detachment Stratagem supplied as data is a
    :class:`bagm.engine.rules.uses.Use`, offered at its moments by the game."""

    name: str
    cp: int
    category: str  # "Epic Deed", "Strategic Ploy", "Battle Tactic", "Wargear"
    when: str
    target: str
    section: str
    battleshocked: bool = False  # may affect a Battle-shocked unit (Insane Bravery says so)
    editions: frozenset[str] = BOTH_EDITIONS
    # RESTRICTIONS: "Once you target a unit with this Stratagem, that unit cannot be targeted
    # with it again until your next Command phase" (2024 Battlefield Command)
    once_until_command: bool = False

    def __post_init__(self) -> None:
        if self.when not in TIMINGS:
            raise ValueError(f"Stratagem '{self.name}': no timing '{self.when}' ({', '.join(TIMINGS)})")


STRATAGEMS: Registry[Stratagem] = Registry("Stratagem")

# Boarding Actions "Stratagems": "You cannot use any Stratagems other than the ones below and
# those found within Boarding Actions Detachments."
COMMAND_REROLL = STRATAGEMS.register(Stratagem(
    "Command Re-roll", 1, "Epic Deed", "after_roll", "that unit or model from your army",
    "Stratagems: Command Re-roll"))
BATTLEFIELD_COMMAND = STRATAGEMS.register(Stratagem(
    "Battlefield Command", 1, "Strategic Ploy", "phase_start_or_end",
    "one Leader unit and one friendly Bodyguard unit within 6\" it could be attached to",
    "Stratagems: Battlefield Command", once_until_command=True))
COUNTER_OFFENSIVE = STRATAGEMS.register(Stratagem(
    "Counter-offensive", 2, "Strategic Ploy", "after_enemy_fought",
    "one unit within Engagement Range of enemy units that has not been selected to fight",
    "Stratagems: Counter-offensive"))
INSANE_BRAVERY = STRATAGEMS.register(Stratagem(
    "Insane Bravery", 1, "Epic Deed", "battleshock_failed",
    "the unit that Battle-shock test was just taken for", "Stratagems: Insane Bravery",
    battleshocked=True))
EXPLOSIVE_CLEARANCE = STRATAGEMS.register(Stratagem(
    "Explosive Clearance", 1, "Battle Tactic", "your_shooting",
    "one unit that has not been selected to shoot this phase", "Stratagems: Explosive Clearance",
    editions=frozenset({"2024"})))  # not among the 2023 book's Stratagems

# The 2023 edition's cards that differ from the 2024 book's (001_79794abb0e3efb63.txt,
# "Stratagems"; read by bagm.engine.rules.editions). The 2023 text prints no CP costs: the 2024
# costs of the same cards are used, and every 2023 game says so.
CARDS_2023 = {s.name: s for s in (
    # 2023 Command Re-roll: "BOARDING ACTIONS - BATTLE TACTIC STRATAGEM" (2024: Epic Deed)
    Stratagem("Command Re-roll", 1, "Battle Tactic", "after_roll", "that unit or model from your army",
              "Stratagems: Command Re-roll (2023)"),
    # 2023 Battlefield Command: "WHEN: Your Command phase", no RESTRICTIONS (2024: start or end of
    # any phase, a unit targeted once until your next Command phase)
    Stratagem("Battlefield Command", 1, "Strategic Ploy", "your_command",
              "one Leader unit and one friendly Bodyguard unit within 6\" it could be attached to",
              "Stratagems: Battlefield Command (2023)"),
)}


class StratagemUser(Protocol):
    """What using a Stratagem reads and changes in a game."""

    edition: Any  # bagm.engine.rules.editions.Edition (which imports this module)
    cp: dict[Player, int]
    used: set[tuple[str, str, int]]
    phase_id: int

    def spend_cp(self, p: Player, n: int, what: str) -> None: ...
    @property
    def cost_rules(self) -> bool: ...


def used_this_phase(game: StratagemUser, player: Player, s: Stratagem) -> bool:
    # Core Rules "Stratagems": the same Stratagem at most once per phase
    return (player, s.name, game.phase_id) in game.used


def card(game: StratagemUser, s: Stratagem) -> Stratagem:
    """The card of ``s`` in the game's edition (2023 cards differ in timing and category)."""
    return game.edition.card(s)


def affects(game: StratagemUser, s: Stratagem, unit: Any) -> bool:
    """Your Stratagem ``s`` can affect your ``unit``: Battle-shock (Core Rules) says "their
    controlling player cannot use Stratagems to affect them" unless the card says so (Insane
    Bravery); the 2023 Stratagems adaptation lifts it ("units can be the target of Stratagems,
    even if they are Battle-shocked")."""
    return not unit.battleshocked or s.battleshocked or game.edition.stratagems_on_battleshocked


def may_use(game: StratagemUser, player: Player, s: Stratagem, unit: Any = None, cp: int | None = None) -> bool:
    """``player`` could use ``s`` now (on ``unit``): a Stratagem of the game's edition, enough
    CP, not yet used this phase, and one that can affect the unit (:func:`affects`). ``cp``: a
    cost changed by a rule."""
    if game.edition.name not in s.editions:
        return False  # e.g. Explosive Clearance, not among the 2023 Stratagems
    cost = s.cp if cp is None else cp
    if unit is not None and game.cost_rules:  # e.g. Optimised Cogitators: 1CP less on the bearer
        from bagm.engine.rules.stratagem_costs import stratagem_cost

        cost = stratagem_cost(game, player, cost, unit)
    if game.cp[player] < cost or used_this_phase(game, player, s):
        return False
    return unit is None or affects(game, s, unit)


def use(game: StratagemUser, player: Player, s: Stratagem, cp: int | None = None, unit: Any = None) -> None:
    """Pay for ``s`` (on ``unit``: as effects change its cost) and mark it used this phase (the
    game records the event)."""
    cost = s.cp if cp is None else cp
    if unit is None or not game.cost_rules:
        game.spend_cp(player, cost, s.name)
        return
    from bagm.engine.rules.stratagem_costs import stratagem_cost, stratagem_refund

    game.spend_cp(player, stratagem_cost(game, player, cost, unit, mark=True), s.name)
    stratagem_refund(game, player, unit)  # e.g. Shipboard Veteran: on a 4+, 1CP back
