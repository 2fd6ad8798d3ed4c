"""The editions of the Boarding Actions rules a game is played under, as registered facts.

``2024``: the book (``000_027a8f369a38d052.txt``, October 2024), which the engine implements.
``2023``: the original rules (``001_79794abb0e3efb63.txt``): the same Rules Adaptations in their
first form, four Stratagems, six Enhancements and the older mustering. A roster says which
(``edition:``); the game's edition is decided at muster from both rosters, which must agree
(:func:`edition_of`).

Each difference between the two texts is one field of :class:`Edition`, its comment citing the
section of both; the phase code reads ``game.edition.<field>`` in the one place the rule lives,
and a Stratagem card that differs is the edition's own card (:attr:`Edition.cards`).

Readings (the 2023 text can be read two ways, or is silent):
- The 2023 text has no mission sequence and no missions: a 2023 game plays the 2024 book's
  mission (its sequence, map, Mission Rules and Objectives) with the 2023 Rules Adaptations,
  Stratagems and Enhancements in place of the 2024 ones. So the sequence's own rules stay: Deploy
  Armies sets up one unit per Entry Zone (step 7), Strategic Reserves arrive in an empty Entry
  Zone and Deep Strike units from the second battle round, one a turn (step 8).
- The 2023 text prints no CP costs for its Stratagems (lost): the engine charges the 2024 book's
  costs for the same cards and says so in the game's notes.
- "that player can operate one or more of the Hatchways" (2023) limits the Hatchways, not the
  units: a unit may operate several, each Hatchway at most once a turn.
- Hold Steady (2023 Set Overwatch): "Some rules will allow a unit to Hold Steady"; such a rule
  is the effect ``overwatch_hit: 5`` (:class:`bagm.data.models.Effect`), the same vocabulary a
  2024 Detachment rule's "an unmodified Hit roll of 5+" uses: no edition fact is needed.
- The same in effect in both: Superior Boarding Tactics (2023 "2 additional Command points" in
  the Generate Starting Command Points step, 2024 "You start the battle with 2CP": both +2 from
  0); Expert Breacher (2023 "at either the start or the end ... (but it cannot do both)", 2024
  "cannot attempt to operate more than one Hatchway per turn"); the categories of the cards
  (2023 Command Re-roll is a Battle Tactic: no rule the engine plays reads a category). The
  2024 Led-by abilities and Returning Destroyed Models have nothing to act on: the engine models
  no Led-by ability and returns no destroyed model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from bagm.engine.rules.registry import Registry
from bagm.engine.rules.stratagems import CARDS_2023, Stratagem
from bagm.engine.state.army import ArmyError

if TYPE_CHECKING:
    from bagm.engine.state.army import Army


@dataclass(frozen=True)
class Edition:
    """One edition's rules where the two texts differ (the 2024 value is the book's)."""

    name: Literal["2024", "2023"]
    book: str
    # Rules Adaptations "Benefit of Cover": 2023 "The Save characteristic of models does not
    # affect whether they can receive the Benefit of Cover"; 2024 keeps the Core Rule (no cover
    # for a Save of 3+ or better against AP 0)
    cover_any_save: bool
    # 2024 Rules Adaptations "Blast Weapons": count only the models visible to the attacking
    # model; 2023 has no such adaptation (the Core Rule counts every model of the target unit)
    blast_counts_visible: bool
    # Stratagems: 2023 "units can be the target of Stratagems, even if they are Battle-shocked";
    # 2024 keeps the Core Rule (Battle-shocked units cannot be affected by your Stratagems)
    stratagems_on_battleshocked: bool
    # Rules Adaptations "Operating Hatchways": 2024 "can attempt to operate one Hatchway each"
    # (per unit); 2023 "can operate one or more of the Hatchways" (read: each Hatchway once)
    hatchway_once_per_unit: bool
    # Operating Hatchways: who may try to prevent it: 2024 "enemy units on the opposite side of
    # and within 1" of that Hatchway"; 2023 "any enemy models also within 1" of that Hatchway"
    hatchway_blockers_opposite: bool
    # Operating Hatchways, the roll-off: 2024 adds the Toughness of one model of each unit (no
    # cap); 2023 "the Toughness characteristic of one of their models that is within 1" of that
    # Hatchway ... (to a maximum of +6 each)"
    hatchway_rolloff_cap: int | None
    # 2024 Operating Hatchways: "A Hatchway can never be closed if there are models from the same
    # unit on opposite sides of that Hatchway"; 2023 has no such rule
    hatchway_never_splits_unit: bool
    # 2024 Deployment: "a maximum of one unit without the CHARACTER keyword and a maximum of one
    # unit with the CHARACTER keyword in each Entry Zone"; 2023 has no Deployment adaptation, so
    # Deploy Armies (step 7) sets up "one unit within that Entry Zone"
    character_shares_entry_zone: bool
    # 2024 Deployment: Infiltrators "anywhere on the battlefield wholly within 6" of that Entry
    # Zone"; 2023 has no such adaptation
    infiltrators_near_entry_zone: bool
    # 2024 Deployment: "During the battle, you cannot set up a unit within an Entry Zone if any
    # other unit is within that Entry Zone" (Deep Strike); 2023 has no such rule
    no_set_up_in_occupied_entry_zone: bool
    # 2024 Before the Battle, "Deep Strike Ability": "at least half the units in a players army
    # must be set up normally"; 2023 has no such rule
    deep_strike_half_set_up: bool
    # Tactical Manoeuvres: 2024 "It must not have been set up on the battlefield this turn";
    # 2023 "It must be eligible to shoot" (a unit set up this turn is)
    manoeuvre_not_if_set_up: bool
    # Tactical Manoeuvres, when: 2024 "At the start of your Shooting phase"; 2023 "In your
    # Shooting phase" (read: at any point of it, so also after other units have shot)
    manoeuvre_any_time: bool
    # Secure Site: 2024 a Secured marker stays "until their opponent controls it at the start or
    # end of any turn"; 2023 "unless your opponent controls it at the end of any subsequent phase"
    secured_lost_at_phase_end: bool
    # Pile-in and Consolidation Moves: 2024 "Each time a model makes a Pile-in or Consolidation
    # move" (toward a visible enemy unit); 2023 "Consolidation Moves" only: a Pile-in move follows
    # the Core Rules, whether or not the enemy is visible
    pile_in_needs_visibility: bool
    # Flying: 2023 the Move of such models "is reduced to a maximum of 9" and this cannot be
    # increased for the duration of the battle"; 2024 only reduces it to 9"
    fly_move_never_increased: bool
    cards: dict[str, Stratagem] = field(default_factory=dict)
    """This edition's own card of a Stratagem whose card differs from the 2024 book's."""
    not_modelled: tuple[str, ...] = ()
    """Differences the engine does not play, and the readings it made: listed in every game."""

    def card(self, s: Stratagem) -> Stratagem:
        """The edition's card of the Stratagem ``s`` (its timing, category, restrictions)."""
        return self.cards.get(s.name, s)


EDITIONS: Registry[Edition] = Registry("edition")

EDITION_2024 = EDITIONS.register(Edition(
    "2024", "Boarding Actions (book, October 2024)",
    cover_any_save=False, blast_counts_visible=True, stratagems_on_battleshocked=False,
    hatchway_once_per_unit=True, hatchway_blockers_opposite=True, hatchway_rolloff_cap=None,
    hatchway_never_splits_unit=True, character_shares_entry_zone=True,
    infiltrators_near_entry_zone=True, no_set_up_in_occupied_entry_zone=True,
    deep_strike_half_set_up=True, manoeuvre_not_if_set_up=True, manoeuvre_any_time=False,
    secured_lost_at_phase_end=False,
    pile_in_needs_visibility=True, fly_move_never_increased=False))

EDITION_2023 = EDITIONS.register(Edition(
    "2023", "Boarding Actions (original rules, 2023)",
    cover_any_save=True, blast_counts_visible=False, stratagems_on_battleshocked=True,
    hatchway_once_per_unit=False, hatchway_blockers_opposite=False, hatchway_rolloff_cap=6,
    hatchway_never_splits_unit=False, character_shares_entry_zone=False,
    infiltrators_near_entry_zone=False, no_set_up_in_occupied_entry_zone=False,
    deep_strike_half_set_up=False, manoeuvre_not_if_set_up=False, manoeuvre_any_time=True,
    secured_lost_at_phase_end=True,
    pile_in_needs_visibility=False, fly_move_never_increased=True,
    cards=CARDS_2023,
    not_modelled=(
        "2023 edition: the missions, maps and mission sequence are the 2024 book's (the 2023 text "
        "has none); its Rules Adaptations, Stratagems and Enhancements are the 2023 ones",
        "2023 edition: the text prints no CP costs for its Stratagems; the 2024 book's costs of the "
        "same cards are charged (Command Re-roll 1CP, Battlefield Command 1CP, Counter-offensive "
        "2CP, Insane Bravery 1CP)",
        "2023 edition: Infiltrators set up under the Core Rule (more than 9\" from the enemy "
        "deployment zone and models) is not modelled: such units set up within an Entry Zone",
        "2023 edition: Actions (for missions of the last edition) are not modelled; no mission "
        "the engine plays uses them",
        "2023 edition: Hold Steady (Overwatch hits on an unmodified 5+) is a rule's effect "
        "'overwatch_hit: 5'; no rule in the project's sources lets a unit Hold Steady",
        "2023 edition: a unit holds one conferred Leader ability at a time (Battlefield Command "
        "on a unit that already has one is not offered)",
    )))


class EditionError(ArmyError):
    """Two rosters of different editions: the game cannot be played under one."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


def edition_of(army_a: Army, army_b: Army) -> Edition:
    """The game's edition: both rosters' (a roster says ``edition: 2023`` or, by default, 2024).
    Rosters of different editions are refused: the two texts differ in rules both players use
    (cover, Hatchways, Stratagems), so no game can honour both."""
    ea, eb = army_a.edition, army_b.edition
    if ea != eb:
        raise EditionError(
            f"the rosters are written for different editions of Boarding Actions: {army_a.path} "
            f"is {ea}, {army_b.path} is {eb}; a game is played under one edition's rules. Set "
            f"'edition: {ea}' or 'edition: {eb}' in both rosters (and check them with "
            "'bagm validate': the 2023 mustering allows one Enhancement, on the Warlord)", army_b.path)
    return EDITIONS[ea]


def edition_named(name: Any) -> Edition:
    """The edition ``name`` (2023 or 2024)."""
    return EDITIONS[str(name)]
