"""The event vocabulary: every event a game records, by kind, with its fields and their types.

A game's log is a list of events, plain dicts ``{"e": kind, ...}`` (JSON as written, a game's
replay with its seed). Each kind is declared here once, as a ``TypedDict``: what a renderer,
the replay page or another tool may read. Every event is built at its call site as one of
these records and handed to ``Game.emit(event)``::

    from bagm.engine.state import events as ev
    self.emit(ev.Charge(e="charge", unit=u.uid, target=t.uid, success=ok))

Calling a ``TypedDict`` builds a plain dict (the log, its JSON and its speed are those of a
dict), and mypy checks the call: the kind's literal ``e``, every required field, no undeclared
field, each value's type. A field sent only sometimes is ``NotRequired`` and set after the
call (``event["mod"] = mod``). The tests also play games of every mission and check each event
against its declaration at run time (tests/test_events.py: values typed ``Any`` too, and the
JSON a log is read back from). A new kind is a class here, named in ``Event`` below.

The vocabulary sits with the state (the game and the rules below the log emit it). Units are
named by id ("A3"), players "A" / "B", points ``[x, y]`` in inches.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, Union, get_args, get_type_hints

from bagm.engine.state.core import Player

Point = list[float]  # [x, y] in inches
Positions = list[Point]  # a unit's models, in order


# --- the game and its set-up ------------------------------------------------------------------


class Game(TypedDict):
    e: Literal["game"]
    mission: int
    name: str
    seed: int
    rosters: dict[str, str]
    rolloffs: dict[str, Any]
    roster_text: NotRequired[dict[Player, str]]  # the rosters' texts, when read from files (a replay needs no file)
    roster_sha256: NotRequired[dict[Player, str]]
    edition: NotRequired[Literal["2023"]]  # the rules' edition, when not the 2024 book's
    without_faction_rules: NotRequired[list[Player]]  # armies played without their faction's rules


class Muster(TypedDict):
    e: Literal["muster"]
    points: dict[str, int]
    underdog: Player | None
    units: dict[str, Any]
    base_radius: dict[str, float]


class Rolloff(TypedDict):
    e: Literal["rolloff"]
    what: str
    A: NotRequired[int]  # each player's D6 (none when a script gave the winner)
    B: NotRequired[int]
    winner: Player
    given: NotRequired[bool]  # the winner a script gave, no dice rolled


class Roles(TypedDict):
    e: Literal["roles"]
    A: str
    B: str


class Setup(TypedDict):
    e: Literal["setup"]
    unit: str
    at: Positions


class Reserve(TypedDict):
    e: Literal["reserve"]
    unit: str


class Reserves(TypedDict):
    e: Literal["reserves"]
    unit: str
    deep_strike: NotRequired[bool]
    why: NotRequired[str]  # why it is placed there (it did not fit in its Entry Zone; Ambushing Hunters)


class FirstTurn(TypedDict):
    e: Literal["first_turn"]
    player: Player
    why: str


class Note(TypedDict):
    e: Literal["note"]
    text: str


# --- rounds, turns, phases, actions ---------------------------------------------------------


class Round(TypedDict):
    e: Literal["round"]
    round: int


class Turn(TypedDict):
    e: Literal["turn"]
    player: Player
    round: int
    turn: int


class Skip(TypedDict):
    e: Literal["skip"]
    player: Player
    why: str


class Phase(TypedDict):
    e: Literal["phase"]
    phase: str
    player: Player


class ActionTaken(TypedDict):
    e: Literal["action"]
    player: Player
    step: str
    action: str


class End(TypedDict):
    e: Literal["end"]
    vp: dict[Player, int]
    winner: Player | None


# --- CP, Stratagems, rules used, effects ------------------------------------------------------


class Cp(TypedDict):
    e: Literal["cp"]
    player: Player
    gain: int
    cp: int
    why: str


class CpBlocked(TypedDict):
    e: Literal["cp_blocked"]
    player: Player
    gain: int
    why: str


class StratagemUsed(TypedDict):
    e: Literal["stratagem"]
    player: Player
    name: str
    cost: int
    cp: int


class Reinforce(TypedDict):
    """A unit requests reinforcement (Transdimensional Reinforcement): one D6 per destroyed model;
    or a rule returns destroyed models (Song of Renewal, Pox-Bearer: no ``rolls``); ``returned``
    models set up, the unit's models then at ``at``."""
    e: Literal["reinforce"]
    unit: str
    rule: str
    rolls: list[int]
    returned: int
    at: list[list[float]]


class RuleUsed(TypedDict):
    e: Literal["rule_used"]
    player: Player
    name: str
    kind: str


class Crewed(TypedDict):
    """Crewed Platform: the unit's last model of its main profile fell, so its remaining models (weapon
    platforms) are destroyed too (then the unit is destroyed)."""
    e: Literal["crewed"]
    unit: str
    destroyed: int
    rule: str


class Yield(TypedDict):
    """Prioritised Efficiency (Leagues of Votann): Yield points gained at the end of a Command phase,
    the pool after, and the ability its units then have (Hostile Acquisition, Fortify Takeover)."""
    e: Literal["yield"]
    player: Player
    gain: int
    pool: int
    mode: NotRequired[str]
    why: NotRequired[str]  # a rule that gave the YP (Seized Opportunity)


class Pain(TypedDict):
    """Power from Pain: Pain tokens gained (a positive ``gain``) or spent, and the pool after."""
    e: Literal["pain"]
    player: Player
    gain: int
    pool: int
    why: str


class Tokens(TypedDict):
    """An ability's token pool (Battle Focus): tokens received at the start of the battle round (a
    positive ``gain``), one spent on a manoeuvre (``why``: its name) or the unspent ones lost at the
    end of the battle round; the pool after."""
    e: Literal["tokens"]
    player: Player
    rule: str
    gain: int
    pool: int
    why: str


class Miracle(TypedDict):
    """Acts of Faith: a Miracle dice gained (``gain``: its value, ``why``) or used by ``unit`` for one
    dice of a roll (``used``: its value, ``what``: the roll), and the pool after."""
    e: Literal["miracle"]
    player: Player
    pool: list[int]
    gain: NotRequired[int]
    why: NotRequired[str]
    used: NotRequired[int]
    unit: NotRequired[str]
    what: NotRequired[str]
    weapon: NotRequired[str]


class ModelsReturn(TypedDict):
    """Destroyed models returned to a unit by a rule (Curse of the Walking Pox); ``at``: where the
    unit's models stand after."""
    e: Literal["models_return"]
    unit: str
    rule: str
    returned: int
    at: list[list[float]]


class PoolRoll(TypedDict):
    """A rule's dice rolled at the start of the battle round (a Blessings of Khorne roll); ``by``: the
    rule that let its player re-roll them all (Chosen of Khorne)."""
    e: Literal["pool_roll"]
    player: Player
    rule: str
    dice: list[int]
    by: NotRequired[str]


class RuleRoll(TypedDict):
    """A roll an army rule makes for its army (Twisting Fate), its modifier if any; or (``expr``) the
    total of a dice expression a rule rolls (a Normal move of up to D6+1")."""
    e: Literal["rule_roll"]
    player: Player
    rule: str
    roll: int
    mod: NotRequired[int]
    expr: NotRequired[str]


class Effect(TypedDict):
    e: Literal["effect"]
    unit: str
    rule: str
    until: Literal["phase", "turn", "next", "round", "battle", "their_turn"]


class EffectEnds(TypedDict):
    e: Literal["effect_ends"]
    unit: str
    rule: str


class BattlefieldCommand(TypedDict):
    e: Literal["battlefield_command"]
    leader: str
    unit: str
    ability: str
    peerless: bool


class LeaderAbilityEnds(TypedDict):
    e: Literal["leader_ability_ends"]
    unit: str
    ability: str


class LeaderReroll(TypedDict):
    e: Literal["leader_reroll"]
    unit: str
    ability: str
    what: str


class CommandReroll(TypedDict):
    e: Literal["command_reroll"]
    unit: str
    what: str
    roll: int
    new: int
    weapon: NotRequired[str]


class Reroll(TypedDict):
    """A free re-roll the player chose, of the rule ``by`` (Close-Quarters Killer: a Wound roll)."""
    e: Literal["reroll"]
    unit: str
    what: str
    roll: int
    new: int
    weapon: str
    by: str


# --- Battle-shock ----------------------------------------------------------------------------


class BattleshockTest(TypedDict):
    e: Literal["battleshock_test"]
    unit: str
    roll: int
    ld: int
    passed: bool
    reroll: NotRequired[bool]
    why: NotRequired[str]  # the rule that calls for it, outside the Battle-shock step's own
    mod: NotRequired[int]  # what the rule that calls for it adds to it (-1 if Below Half-strength)


class FightOnDeath(TypedDict):
    """Destroyed models roll to fight on (a Detachment rule: Faolchu's Last Flight)."""

    e: Literal["fight_on_death"]
    unit: str
    rule: str
    rolls: list[int]
    fighting: int


class LeadershipTest(TypedDict):
    """A Leadership test a rule calls for (not a Battle-shock test): its failure does only what
    the rule says."""

    e: Literal["leadership_test"]
    unit: str
    roll: int
    ld: int
    passed: bool
    why: str
    mod: NotRequired[int]  # what the rule adds to the roll


class Battleshock(TypedDict):
    e: Literal["battleshock"]
    unit: str
    shocked: bool
    why: NotRequired[str]


class BattleshockEnds(TypedDict):
    e: Literal["battleshock_ends"]
    unit: str


# --- movement --------------------------------------------------------------------------------


class Move(TypedDict):
    e: Literal["move"]
    unit: str
    kind: str  # normal, advance, fallback, remain stationary
    goal: NotRequired[Point]
    moved: NotRequired[float]
    at: NotRequired[Positions]
    why: NotRequired[str]  # a move a Mission Rule (Silent Infiltration) or an effect grants


class AdvanceRoll(TypedDict):
    e: Literal["advance_roll"]
    unit: str
    roll: int
    reroll: NotRequired[bool]
    fixed: NotRequired[bool]  # no dice: a rule adds a fixed distance (``roll``) instead


class DesperateEscape(TypedDict):
    e: Literal["desperate_escape"]
    unit: str
    tests: int
    destroyed: int
    rolls: list[int]
    removed_models: list[int]


class Hatch(TypedDict):
    e: Literal["hatch"]
    unit: str
    hatchway: int
    name: str
    open: bool
    prevented: NotRequired[bool]  # an enemy won the roll-off: the Hatchway stays as it was


class HatchRolloff(TypedDict):
    e: Literal["hatch_rolloff"]
    unit: str
    against: str
    roll: int
    enemy: int


class Hatchways(TypedDict):
    e: Literal["hatchways"]
    open: bool
    hatchways: list[int]
    why: str


class Coherency(TypedDict):
    e: Literal["coherency"]
    unit: str
    removed: int
    removed_models: list[int]


# --- shooting and fighting ---------------------------------------------------------------------


class Manoeuvre(TypedDict):
    e: Literal["manoeuvre"]
    unit: str
    manoeuvre: str
    marker: str | int | None


class Overwatch(TypedDict):
    e: Literal["overwatch"]
    unit: str
    target: str
    why: str


class Shoot(TypedDict):
    e: Literal["shoot"]
    unit: str
    target: str
    weapons: list[str]
    wounds_lost: int
    left: int
    overwatch: bool


class Attack(TypedDict):
    e: Literal["attack"]
    unit: str
    target: str
    weapon: str
    models: int
    attacks: int
    hits: int
    wounds: int
    unsaved: int
    lost: int
    destroyed: int
    removed_models: list[int]
    dice: dict[str, Any]


class Hazardous(TypedDict):
    """Hazardous tests taken after all of a unit's attacks (``tests``), and the mortal wounds of
    those failed (``mortal_wounds``, ``lost``, ``destroyed``: only when one failed and is
    resolved now; without ``tests``: failed ones resolved after a Charge move)."""
    e: Literal["hazardous"]
    unit: str
    tests: NotRequired[int]
    failed: int
    mortal_wounds: NotRequired[int]
    lost: NotRequired[int]
    destroyed: NotRequired[int]
    removed_models: list[int]
    dice: dict[str, Any]


class MortalWounds(TypedDict):
    e: Literal["mortal_wounds"]
    unit: str
    amount: int
    lost: int
    why: str


class DeadlyDemise(TypedDict):
    """Core Rules "Deadly Demise": the D6 rolled for a destroyed model of ``unit``; ``units``: the
    units within 6" that suffer its mortal wounds (a 6; empty otherwise), in the order they do."""
    e: Literal["deadly_demise"]
    unit: str
    roll: int
    units: list[str]


class Destroyed(TypedDict):
    e: Literal["destroyed"]
    unit: str
    why: NotRequired[str]
    points: NotRequired[int]
    by: NotRequired[str | None]


class ChargeDeclared(TypedDict):
    e: Literal["charge_declared"]
    unit: str
    target: str


class ChargeRoll(TypedDict):
    e: Literal["charge_roll"]
    unit: str
    roll: int
    needed: float
    reroll: NotRequired[bool]


class Charge(TypedDict):
    e: Literal["charge"]
    unit: str
    target: str
    success: bool


class ChargeMove(TypedDict):
    e: Literal["charge_move"]
    unit: str
    at: Positions


class PileIn(TypedDict):
    e: Literal["pile_in"]
    unit: str
    toward: str
    at: Positions


class Rush(TypedDict):
    """A unit moves toward an enemy unit that has just shot (an effect's ``rush_move``): how far."""

    e: Literal["rush"]
    unit: str
    toward: str
    rule: str
    reach: float


class RushMove(TypedDict):
    e: Literal["rush_move"]
    unit: str
    toward: str
    at: Positions


class Consolidate(TypedDict):
    e: Literal["consolidate"]
    unit: str
    toward: str
    at: Positions


class Fight(TypedDict):
    e: Literal["fight"]
    unit: str
    target: str | None
    fighters: NotRequired[int]
    weapon: NotRequired[str]
    left: NotRequired[int]
    dying: NotRequired[bool]  # destroyed models fighting on (fight_on_death)


# --- objectives and victory points --------------------------------------------------------------


class Control(TypedDict):
    e: Literal["control"]
    markers: list[Player | None]


class Secured(TypedDict):
    e: Literal["secured"]
    player: Player
    marker: int
    unit: str


class Mark(TypedDict):
    """A rule selects an enemy unit for the battle ("at the start of the first battle round,
    select one enemy unit")."""
    e: Literal["mark"]
    unit: str
    target: str
    rule: str


class SecureRoll(TypedDict):
    """An effect's roll to Secure an objective marker ("on a 2+, it is Secured by your army")."""
    e: Literal["secure_roll"]
    player: Player
    marker: int
    unit: str
    roll: int
    secured: bool
    rule: str


class RegainWounds(TypedDict):
    e: Literal["regain_wounds"]
    unit: str
    wounds: int
    rule: str


class HatchRoll(TypedDict):
    """A rule's D6 to open a closed Hatchway without operating it (Daemonshrieker: on a 2+)."""
    e: Literal["hatch_roll"]
    unit: str
    hatchway: int
    rule: str
    roll: int
    opened: bool


class MortalRoll(TypedDict):
    """A rule's D6 whose table gives mortal wounds to an enemy unit (a ``mortal_wounds`` event
    follows)."""
    e: Literal["mortal_roll"]
    unit: str
    target: str
    rule: str
    roll: int


class Vp(TypedDict):
    e: Literal["vp"]
    player: Player
    vp: int
    total: int
    why: str
    units: NotRequired[list[str]]


# --- mission rules -----------------------------------------------------------------------------


class MissionRule(TypedDict):
    e: Literal["mission_rule"]
    player: Player
    rule: str
    unit: NotRequired[str]
    area: NotRequired[str]


class MissionRoll(TypedDict):
    e: Literal["mission_roll"]
    player: Player
    rule: str
    roll: int
    needed: NotRequired[int]
    unit: NotRequired[str]  # the unit the roll is for (Silent Infiltration, Imprisoned)
    modifier: NotRequired[int]  # added to the roll (Silent Infiltration: -1 per unit before it)
    toughness: NotRequired[int]  # Imprisoned: the roll must be below it
    passed: NotRequired[bool]  # the rule's verdict on the roll


class MarkerRemoved(TypedDict):
    e: Literal["marker_removed"]
    marker: int
    why: str


class Lights(TypedDict):
    e: Literal["lights"]
    area: str
    on: bool


class Vented(TypedDict):
    e: Literal["vented"]
    area: str


class RadExposure(TypedDict):
    e: Literal["rad_exposure"]
    unit: str
    level: str


class Burners(TypedDict):
    e: Literal["burners"]
    unit: str
    rolls: list[int]
    mortal_wounds: int


class ChangeLevel(TypedDict):
    """Power the Generators: a unit set up in the matching Access Zone of the other level."""
    e: Literal["change_level"]
    unit: str
    area: str
    level: str | None
    left: str | None
    at: Positions


class Powered(TypedDict):
    """Power the Generators (Access the Data): the Terminals powered up (numbered from 1)."""
    e: Literal["powered"]
    player: Player
    terminals: list[int]
    why: str


Event = Union[
    Game, Muster, Rolloff, Roles, Setup, Reserve, Reserves, FirstTurn, Note, Round, Turn, Skip, Phase,
    ActionTaken, End, Cp, CpBlocked, StratagemUsed, RuleUsed, RuleRoll, PoolRoll, ModelsReturn, Pain, Tokens, Miracle, Yield, Crewed, Reinforce, Effect, EffectEnds, BattlefieldCommand,
    LeaderAbilityEnds, LeaderReroll, CommandReroll, Reroll, BattleshockTest, LeadershipTest, FightOnDeath,
    Battleshock, BattleshockEnds, Move,
    AdvanceRoll, DesperateEscape, Hatch, HatchRolloff, Hatchways, Coherency, Manoeuvre, Overwatch, Shoot,
    Attack, Hazardous, MortalWounds, DeadlyDemise, Destroyed, ChargeDeclared, ChargeRoll, Charge, ChargeMove, PileIn,
    Consolidate, Rush, RushMove, Fight, Control, Secured, Vp, MissionRule, MissionRoll, MarkerRemoved, Lights, Vented,
    RadExposure, Burners, ChangeLevel, Powered, SecureRoll, RegainWounds, MortalRoll, HatchRoll, Mark,
]
"""Any event of a game's log."""



def kinds() -> dict[str, type]:
    """Each event's declaration by its kind (its ``e``)."""
    return {get_args(get_type_hints(t)["e"])[0]: t for t in get_args(Event)}
