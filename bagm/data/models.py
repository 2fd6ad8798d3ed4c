"""The data pack format: datasheets, weapons, Detachments and their mustering rules.

A data pack is one YAML file per faction (``datasheets/<faction>.yaml``). These classes are the
single source of truth for its format. They are plain frozen dataclasses so that loading a
cached pack needs no validation library; pydantic validates raw YAML into them and exports
their JSON Schema (``bagm.data.schema``, ``bagm schema datasheets``). Attribute docstrings
become the schema's field descriptions.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Annotated, Any, Literal, TypeVar, Union

from bagm.data.timings import Phase, Timing

Keyword = str
UnitState = Literal["below_starting", "below_half", "set_to_defend", "near_objective", "secured_site",
                    "destroyed_unit", "opened_hatchway", "synapse", "empowered", "near_battleline",
                    "near_controlled", "charged", "not_battleshocked", "hostile_acquisition",
                    "fortify_takeover", "own_model", "waaagh"]
"""A state of a unit an effect's condition names (:attr:`Effect.only_while`)."""
TargetState = Literal["below_starting", "below_half", "near_objective", "markerlight", "engaged",
                      "beyond_hatchway", "closest", "battleshocked"]
"""A state of an attack's target an effect's condition names (:attr:`Effect.target_while`)."""
Dice = Union[int, str]  # a number, or a dice expression such as "D6+1"

# pydantic reads this from each class: unknown keys are errors in every data file
CONFIG: dict[str, Any] = {"extra": "forbid", "use_attribute_docstrings": True}

# Instances are only ever built by pydantic (which fills the fields itself and calls
# __post_init__) or unpickled from the cache, so no __init__ or __eq__ is generated: dataclass
# code generation was the largest part of bagm's start-up. Treat instances as read-only.
_T = TypeVar("_T")


def _model(cls: type[_T]) -> type[_T]:
    """A data class of the format: fields as dataclasses reads them, and one ``__repr__`` shared
    by every class instead of one generated (compiled) for each at import."""
    made = dataclass(init=False, eq=False, repr=False, match_args=False)(cls)
    made.__repr__ = _repr  # type: ignore[method-assign,assignment]
    return made


def _repr(self: Any) -> str:
    """What the generated one prints: ``Weapon(name='Bolt rifle', type='ranged', ...)``."""
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{type(self).__qualname__}({shown})"


def _upper(values: list[str]) -> list[str]:
    return [v.upper() for v in values]


# --- weapons and profiles -------------------------------------------------------------------


@_model
class WeaponAbility:
    """A weapon ability as data, e.g. ``{name: sustained hits, value: 1}``; never rules prose."""

    __pydantic_config__ = CONFIG
    name: str
    """Ability name in lower case: 'lethal hits', 'sustained hits', 'anti', 'torrent'..."""
    value: Dice | None = None
    """Its parameter: 'Sustained Hits 2' has 2; 'Anti-Infantry 4+' has 4."""
    target: Keyword | None = None
    """The keyword of Anti-X: 'Anti-Infantry 4+' has INFANTRY."""


@_model
class Weapon:
    """A ranged or melee weapon profile."""

    __pydantic_config__ = CONFIG
    name: str
    type: Literal["ranged", "melee"]
    A: Dice
    skill: int | None
    """BS or WS (3 means 3+); null for Torrent weapons."""
    S: Dice
    AP: int
    D: Dice
    range: int | None = None
    """Range in inches; null for melee weapons."""
    abilities: list[WeaponAbility] = field(default_factory=list)
    default: bool = True
    """False when the weapon is a wargear option rather than default equipment."""

    def has_ability(self, name: str) -> bool:
        return any(a.name == name for a in self.abilities)


@_model
class ModelProfile:
    """One model's characteristics."""

    __pydantic_config__ = CONFIG
    name: str
    M: int | None
    """Movement in inches; null for '-'."""
    T: int
    Sv: int
    """Save characteristic: 3 means 3+."""
    W: int
    Ld: int
    """Leadership: 6 means 6+."""
    OC: int
    invuln: int | None = None
    """Invulnerable save: 4 means 4+."""
    count: str | None = None
    """How many of this model the unit has, e.g. '1' or '4-9'."""
    invuln_melee: int | None = None
    """An invulnerable save against melee attacks only (4 means 4+), better than ``invuln``;
    e.g. a save that applies only in melee or only against melee attacks."""
    base: float | None = None
    """This model's base diameter in mm, where the unit's models stand on different bases."""
    base_oval: list[float] | None = None
    """This model's oval base as [long axis, short axis] in mm (``base``: its round equivalent)."""


@_model
class Adaptation:
    """A datasheet's Boarding Actions rules adaptation, as structured facts."""

    __pydantic_config__ = CONFIG
    loses: list[str] = field(default_factory=list)
    """Abilities the unit loses in Boarding Actions."""
    M: int | None = None
    """Its Movement characteristic becomes this value."""
    no_split: bool = False
    """It is not split in the Form Boarding Squads step."""
    split: list[int] | None = None
    """The sizes of the Boarding Squads it splits into when not 10 = 5 + 5 (e.g. [5, 6])."""
    note: str | None = None
    """A short paraphrase of anything else."""
    played: bool = False
    """The engine plays the note's rule (an ability entry's data says it: Master Vox's reach in Voice
    of Command); games do not list it as not modelled."""


@_model
class Effect:
    """One effect on a unit, as structured facts (never prose): the one vocabulary of what a
    Leader ability confers on the unit it leads, a Detachment rule gives the units of its army,
    an Enhancement gives its bearer's unit, and a datasheet ability gives its own unit. Only
    effects the engine applies are written here; a rule whose effect cannot be said this way has
    ``effects: null`` and every game lists it as not modelled. "The led unit" below reads as
    "the unit the effect applies to"."""

    __pydantic_config__ = CONFIG
    attacks: Literal["ranged", "melee", "all"] = "all"
    """Which of the led unit's attacks the attack-side fields below change."""
    hit_mod: int = 0
    """Added to the Hit roll of those attacks (+1)."""
    wound_mod: int = 0
    """Added to the Wound roll of those attacks (+1)."""
    reroll_hits: Literal["ones", "failed"] | None = None
    """Re-roll Hit rolls of 1 ('ones') or any failed Hit roll ('failed')."""
    reroll_wounds: Literal["ones", "failed"] | None = None
    """Re-roll Wound rolls of 1 ('ones') or any failed Wound roll ('failed')."""
    weapon_abilities: list[WeaponAbility] = field(default_factory=list)
    """Abilities those weapons gain, e.g. [{name: sustained hits, value: 1}]."""
    A_mod: int = 0
    """Added to the Attacks characteristic of those weapons."""
    S_mod: int = 0
    """Added to the Strength characteristic of those weapons."""
    AP_mod: int = 0
    """Added to the AP characteristic: -1 improves AP by 1."""
    D_mod: int = 0
    """Added to the Damage characteristic of those weapons."""
    hit_against_mod: int = 0
    """Added to the Hit roll of attacks that target the led unit (-1)."""
    wound_against_mod: int = 0
    """Added to the Wound roll of attacks that target the led unit (-1)."""
    against: Literal["ranged", "melee", "all"] = "all"
    """Which attacks that target the led unit the two fields above change (Stealth: ranged)."""
    cover: bool = False
    """The led unit has the Benefit of Cover (against ranged attacks)."""
    ranged_within: int | None = None
    """The led unit can only be targeted by ranged attacks of models within X inches."""
    ranged_unit_within: int | None = None
    """The led unit can only be targeted by ranged attacks of a unit within X inches of it."""
    fnp: int | None = None
    """The led unit's models have Feel No Pain X+."""
    invuln: int | None = None
    """The led unit's models have an X+ invulnerable save."""
    fnp_mortal: int | None = None
    """The led unit's models have Feel No Pain X+ against mortal wounds (Devastating Wounds,
    Hazardous)."""
    fnp_psychic: int | None = None
    """The led unit's models have Feel No Pain X+ against Psychic Attacks (attacks made with
    [PSYCHIC] weapons)."""
    crit_hit: int | None = None
    """An unmodified Hit roll of X+ scores a Critical Hit for those attacks (5: on a 5+)."""
    OC_mod: int = 0
    """Added to the Objective Control characteristic of the led unit's models."""
    fights_first: bool = False
    """The led unit has the Fights First ability."""
    M_mod: int = 0
    """Added to the Move characteristic of the led unit's models (inches)."""
    advance_mod: int = 0
    """Added to Advance rolls made for the led unit."""
    charge_mod: int = 0
    """Added to Charge rolls made for the led unit."""
    advance_fixed: int | None = None
    """The led unit makes no Advance roll: an Advance move adds X inches instead."""
    reroll_advance: bool = False
    """Advance rolls made for the led unit can be re-rolled."""
    reroll_charge: bool = False
    """Charge rolls made for the led unit can be re-rolled."""
    charge_after_advance: bool = False
    """The led unit is eligible to declare a charge in a turn in which it Advanced."""
    only_while: UnitState | list[UnitState] | None = None
    """A condition: this effect applies only while the led unit is below its Starting Strength
    ('below_starting'), Below Half-strength ('below_half'), Set to Defend ('set_to_defend'),
    within range of an objective marker ('near_objective': one of its models is), or has
    performed Secure Site in its player's most recent Shooting phase ('secured_site'), once its
    attacks have destroyed one or more enemy units ('destroyed_unit'), or from when it opens a
    Hatchway until the end of that turn ('opened_hatchway'), while it has BATTLELINE or is within 6
    inches of a friendly BATTLELINE unit ('near_battleline'), or while within range of an
    objective marker its army controls ('near_controlled'), in a turn in which it made a Charge
    move ('charged'), while it is not Battle-shocked ('not_battleshocked'), while its army's
    Prioritised Efficiency gives it Hostile Acquisition ('hostile_acquisition') or Fortify
    Takeover ('fortify_takeover'), while it contains a model whose profile differs from the
    unit's main one ('own_model': "while this unit contains a Tempestor Prime", where that model is
    the unit's only one of another profile), while the Waaagh! is active for its army ('waaagh':
    it carries the Waaagh! or the Void Waaagh!, which "counts as a Waaagh!"); a list: all of them.
    Those about
    the battlefield need the game: asked without it, they do not hold."""
    only_keyword: Keyword | None = None
    """A condition: this effect applies only while the led unit has this keyword."""
    only_lacks: list[Keyword] = field(default_factory=list)
    """A condition: this effect applies only to a unit with none of these keywords ("excluding
    GROTS units")."""
    only_units: list[str] = field(default_factory=list)
    """A condition: this effect applies only to units of these datasheets, by name
    ("Infiltrator Squad and Incursor Squad units")."""
    except_units: list[str] = field(default_factory=list)
    """A condition: this effect applies to no unit of these datasheets, by name ("excluding
    Arco-flagellants and Repentia Squad units")."""
    target_while: TargetState | None = None
    """A condition on the target, for the Hit and Wound roll fields and the weapon fields: only
    attacks that target a unit below its Starting Strength ('below_starting'), Below
    Half-strength ('below_half'), within range of an objective marker ('near_objective') or
    visible to a MARKERLIGHT unit of the attacker's army not within Engagement Range of an
    enemy unit ('markerlight'), within Engagement Range of a unit of the attacker's army
    ('engaged'), or wholly on the opposite side of an open Hatchway within 1" of a model of the
    attacking unit, which is wholly on its own side ('beyond_hatchway': the first such unit it
    attacks in the phase, the one enemy unit the rule selects), or the closest eligible target
    ('closest': reading, the closest enemy unit visible to the attacking unit), or Battle-shocked
    ('battleshocked')."""
    target_lacks: list[Keyword] = field(default_factory=list)
    """A condition on the target, for the Hit and Wound roll fields and the weapon fields: only
    attacks that target a unit with none of these keywords; with ``escape_as_shocked``, the enemy
    units it affects ("excluding MONSTER and VEHICLE units")."""
    target_within: float | None = None
    """A condition on the target, for the Hit and Wound roll fields and the weapon fields: only
    attacks that target a unit within X inches of the led unit (measured around Walls): "enemy
    units within 7\" of this unit are Hunted by it"."""
    against_beyond: int | None = None
    """A condition for the fields on attacks that target the led unit (hit_against_mod,
    wound_against_mod): only ranged attacks by models not within X inches of it."""
    against_stronger: bool = False
    """A condition for the fields on attacks that target the led unit (hit_against_mod,
    wound_against_mod): only attacks whose Strength is greater than its Toughness."""
    against_lacks: list[Keyword] = field(default_factory=list)
    """A condition for the fields on attacks that target the led unit (the *_against fields):
    not attacks made by a unit with any of these keywords ("excluding CHARACTER models")."""
    secure_site: Literal["battleline", "never"] | None = None
    """The led unit can perform the Secure Site Tactical Manoeuvre as if it had the BATTLELINE
    keyword ('battleline'), or cannot perform it at all ('never', whatever a Mission Rule says)."""
    shoot_after_advance: bool = False
    """The led unit is eligible to shoot in a turn in which it Advanced (any weapon, not only
    Assault ones)."""
    manoeuvre_after_move: bool = False
    """The led unit can perform a Tactical Manoeuvre in a turn in which it Advanced or Fell Back."""
    manoeuvre_after_fall_back: bool = False
    """The led unit can perform a Tactical Manoeuvre in a turn in which it Fell Back (not one in
    which it Advanced)."""
    overwatch_hit: int | None = None
    """The led unit's attacks while firing Overwatch hit on an unmodified Hit roll of X+ instead
    of only a 6 (5: 'an unmodified Hit roll of 5+ is required')."""
    save_mod: int = 0
    """Added to armour saving throws made for the led unit's models (+1; never to invulnerable
    saves)."""
    battleshock_mod: int = 0
    """Added to Battle-shock tests taken for the led unit (+1)."""
    charge_test: Literal["battle-shock", "leadership"] | None = None
    """Each time the led unit declares a charge, each enemy unit that is a target of it takes
    this test at once: a Battle-shock test, or a Leadership test whose failure gives it -1 to
    its Hit rolls until the end of the turn."""
    charger_test: Literal["battle-shock", "leadership"] | None = None
    """Each time an enemy unit declares a charge that targets the led unit, that enemy unit
    takes this test at once (as ``charge_test`` says)."""
    shock_range: float | Literal["engagement"] | None = None
    """In the Battle-shock step of the opponent's Command phase, each enemy unit within X inches
    of the led unit ('engagement': within its Engagement Range) takes a Battle-shock test (one
    test in the phase at most); ``target_while`` is a condition on that enemy unit,
    ``shock_below_half_mod`` is added to the test when it is Below Half-strength (-1) and
    ``straight`` measures ignoring Walls."""
    engaged_enemy_OC_mod: int = 0
    """Added to the Objective Control characteristic of the models of each enemy unit within
    Engagement Range of the led unit (once, however many such units)."""
    target_slew: Keyword | None = None
    """A condition on the target, for the Hit and Wound roll fields and the weapon fields: only
    attacks that target an enemy unit that has destroyed a model with this keyword from the led
    unit's army."""
    skill_mod: int = 0
    """Added to the Ballistic or Weapon Skill of those weapons: -1 improves it by 1."""
    fight_on_death: int | None = None
    """Each time a model of the led unit is destroyed by a melee attack, if the unit has not
    fought this phase, roll one D6: on X+ that model fights after the attacking unit has
    finished making its attacks, then is removed (with ``fight_on_death_last``: only its last
    model, the unit being destroyed). Reading: it fights with the unit's first melee weapon, and
    is taken off at once (nothing else happens before it fights)."""
    fight_on_death_last: bool = False
    """``fight_on_death`` only for the unit's last model ("each time a unit is destroyed")."""
    deep_strike_round_1: int | None = None
    """The led unit, if it has Deep Strike, can arrive by Deep Strike in the Reinforcements step
    of its army's first Movement phase (the first battle round, one unit, as every turn), set up
    more than X inches from enemy models instead of 9"; it then cannot declare a charge that
    turn."""
    slow_aura: int | None = None
    """Each enemy unit within X inches of the led unit (in a straight line, through Walls and
    closed Hatchways) has its models' Move halved (rounding up) and -1 to its Advance and Charge
    rolls. Reading: whether it is within X" is judged when it is selected to move or declares a
    charge."""
    crit_wound_AP_mod: int = 0
    """Added to the AP of those attacks that score a Critical Wound (-1 improves it by 1); two
    effects that both apply do not add up (the better counts)."""
    overwatch_after_move: bool = False
    """The led unit can perform the Set Overwatch Tactical Manoeuvre (no other) in a turn in which
    it Advanced or Fell Back."""
    overwatch_after_secure: bool = False
    """The led unit can perform the Set Overwatch Tactical Manoeuvre in a turn in which it
    performed Secure Site."""
    move_through: Literal["models", "friendly", "weaker"] | None = None
    """On the moves ``move_through_moves`` names, the led unit's models can move through other
    models as if they were not there: every model ('models'), friendly models ('friendly'), or
    the models of units with a lower Toughness than its own ('weaker'). Reading: the Engagement
    Range of enemy models it may move through does not stop it either; it still cannot end a
    move on another model or, on a Normal or Advance move, within Engagement Range."""
    move_through_moves: list[Literal["normal", "advance", "fallback", "charge"]] = field(
        default_factory=lambda: ["normal", "advance", "fallback", "charge"])
    """The moves ``move_through`` applies to (all by default)."""
    through_enemy_wound: int | None = None
    """With ``move_through``: each of the led unit's models that moves through an enemy model
    (its straight line from where it started to where it ended crosses one, as Desperate Escape
    tests judge it) rolls one D6: on X or less the unit suffers one mortal wound."""
    hatch_rolloff_mod: int = 0
    """Added to the led unit's result of the roll-off when an enemy unit tries to prevent it
    opening a closed Hatchway."""
    consolidate: Dice | None = None
    """The led unit's Consolidation moves are up to this many inches, a dice expression rolled
    for each ("D3+3"), instead of 3"."""

    reroll_leadership: bool = False
    """Leadership tests (Battle-shock tests) taken for the led unit can be re-rolled."""
    shoot_after_fall_back: bool = False
    """The led unit is eligible to shoot in a turn in which it Fell Back."""
    pile_in: int | None = None
    """The led unit's Pile-in and Consolidation moves are up to X inches instead of 3"."""
    damage_against_mod: int = 0
    """Added to the Damage of each attack allocated to the led unit's models (-1), after any
    roll; never below 1 (Devastating Wounds' mortal wounds too)."""
    OC_set: int | None = None
    """The led unit's models have an Objective Control characteristic of X (OC_mod adds to it;
    Battle-shock still makes it 0)."""
    T_mod: int = 0
    """Added to the led unit's Toughness (set at muster: only a keyword condition applies)."""
    W_mod: int = 0
    """Added to the Wounds of the led unit's models (set at muster: only a keyword condition
    applies)."""
    crit_wound: int | None = None
    """An unmodified Wound roll of X+ scores a Critical Wound for those attacks (5: on a 5+)."""
    reroll_damage: Literal["ones"] | None = None
    """Re-roll a Damage roll of 1 for those attacks."""
    AP_against_mod: int = 0
    """Added to the AP characteristic of attacks that target the led unit (+1 worsens it by 1;
    ``against`` says which)."""
    hazardous_against: bool = False
    """Enemy weapons have [HAZARDOUS] while targeting the led unit (``against`` says which)."""
    charge_after_fall_back: bool = False
    """The led unit is eligible to declare a charge in a turn in which it Fell Back."""
    escape_auto_pass: bool = False
    """Desperate Escape tests taken for the led unit are passed automatically (none is rolled)."""
    no_overwatch_against: bool = False
    """Enemy units cannot fire Overwatch at the led unit."""
    charge_unseen: float | None = None
    """The led unit can declare a charge against enemy units within X inches that are not
    visible to it (12: any it could charge)."""
    charged_unseen: float | None = None
    """On an enemy unit a moment selected (its effects are that unit's): units of the selecting army
    with ``charged_unseen_by`` within X inches of it can declare a charge against it even if it is
    not visible to them (Quill Marker)."""
    charged_unseen_by: Keyword | None = None
    """With ``charged_unseen``: the keyword those charging units have (KROOT)."""
    all_choices: str | None = None
    """Each time the led unit is the target of one alternative (``choice``) of the rule of this
    name, it gets the effects of every alternative of that rule at that moment (Voice of the Octed:
    "both abilities conferred by that Dark Pact")."""
    self_test_cp: int | None = None
    """Each time the led unit takes the Leadership test a rule used on it calls for first (Moment
    ``self_test``: Dark Pacts), a roll of X+ gains its player 1CP (Dark Rewards: 9)."""
    entry_zone_two: Keyword | None = None
    """Deploy Armies: once the led unit is set up in an Entry Zone, two units with this keyword
    (not CHARACTERS) can be set up in that Entry Zone instead of any other unit (Rallying Cry:
    GUARDIANS)."""
    no_manoeuvre: bool = False
    """The led unit cannot perform Tactical Manoeuvres (an attempt under way fails)."""
    no_hatch: bool = False
    """The led unit cannot operate Hatchways (an attempt under way fails)."""
    aura_mod: float = 0
    """Added to the reach of the led unit's auras given by battle round (``aura_rounds``: Contagion
    Range): Miasmic Odour, "add 3\" to the Contagion Range of the bearer"."""
    aura_kills: int | None = None
    """For every X enemy models destroyed, ``aura_kills_mod`` inches are added to the reach of the
    led unit's auras given by battle round (Contagion Range: Sevenfold Offerings, 7)."""
    aura_kills_mod: float = 0
    deep_strike_back: bool = False
    """With ``to_reserves``: it arrives in the Reinforcements step of its player's next Movement
    phase as if it had Deep Strike, or is destroyed, and cannot declare a charge in that turn
    (Stalking Menace)."""
    revive_roll: int | None = None
    """The first time the led unit is destroyed, one D6 at the end of the phase: on X+ it is set back
    up as close as possible to where its last model fell, not within Engagement Range of enemy
    units, with ``revive_wounds`` wounds remaining (Resurrection Protocols)."""
    revive_wounds: Dice | None = None
    return_models: Dice | None = None
    """Used at a moment: up to X (a dice expression rolled then) destroyed models of the target
    return with their full wounds, set up in Unit Coherency with its models (one that does not fit
    stays destroyed): "return up to D3+2 destroyed models to that unit"."""
    regain_wounds: int = 0
    """In each player's Command phase, one model of the led unit regains up to X lost wounds."""
    secure_roll: int | None = None
    """In your Command phase, select one objective marker you control (not yet Secured by your
    army) within range of the led unit: on a D6 of X+ it is Secured by your army."""
    no_seize_range: float | None = None
    """Enemy units within X inches of the led unit cannot Seize objective markers (their Secure
    Site does not complete)."""
    straight: bool = False
    """This effect's distances (shock_range, no_seize_range) ignore Walls and closed Hatchways."""
    shock_select: float | None = None
    """At the start of the Battle-shock step of your opponent's Command phase, select one enemy
    unit within X inches of the led unit: it takes a Battle-shock test (never two in one phase;
    ``shock_below_half_mod`` applies)."""
    shock_mod: int = 0
    """Added to every such Battle-shock test (``shock_range``): "subtracting 1 from the roll"."""
    OC_aura: float | None = None
    """Each enemy unit within X inches of the led unit (``target_lacks`` leaves some out: "excluding
    VEHICLE units") has ``OC_aura_mod`` added to its models' Objective Control (the worst of
    several such rules, added to Overwhelming Magnificence-like ones)."""
    OC_aura_mod: int = 0
    """The change to those enemy models' OC (-1)."""
    shock_below_half_mod: int = 0
    """Added to such a Battle-shock test (``shock_range``, ``shock_select``, ``fight_shock``) when the
    enemy unit is Below Half-strength (-1)."""
    only_weapons: list[str] = field(default_factory=list)
    """A condition: the fields on attacks apply only to the led unit's weapons of these names
    (datasheet names, any case), e.g. "the bearer's monomolecular cane-rapier"."""
    target_has: list[Keyword] = field(default_factory=list)
    """A condition on the target: the fields on attacks apply only to attacks that target a
    unit with one of these keywords ("while targeting CHARACTER units")."""
    only_psychic: bool = False
    """A condition: the fields on attacks apply only to the led unit's [PSYCHIC] weapons."""
    no_psychic: bool = False
    """A condition: the fields on attacks apply only to its weapons without [PSYCHIC]."""
    reroll_attacks: bool = False
    """The roll that determines the number of attacks of those weapons can be re-rolled (the
    engine re-rolls a model's roll below the average)."""
    A_set: int | None = None
    """Those weapons have an Attacks characteristic of X (A_mod adds to it)."""
    fight_shock: int | None = None
    """At the start of the Fight phase, each enemy unit within Engagement Range of the led unit
    takes a Battle-shock test, X added (0; -1: "subtracting 1 from that test"); one test for a unit
    however many such units it is engaged with (the worst modifier)."""
    D_set: int | None = None
    """Those weapons have a Damage characteristic of X (D_mod adds to it)."""
    regain_on_kill: int | None = None
    """Each time the led unit destroys an enemy model with a melee attack, on a D6 of X+ one of
    its models regains one lost wound."""
    regain_on_kill_cap: int | None = None
    """At most this many wounds regained that way a phase."""
    opening_move: float | None = None
    """At the start of the first battle round, the led unit can make a Normal move of up to X
    inches."""
    opening_other_move: float | None = None
    """At the start of the first battle round, one other friendly unit within the same Entry
    Zone as the led unit can make a Normal move of up to X inches."""
    opening_others: list[str] = field(default_factory=list)
    """Which datasheets (by name) that other unit can be; empty: any."""
    mark_enemy: bool = False
    """At the start of the first battle round, the led unit's player selects one enemy unit on
    the battlefield: marked by this rule for the battle (``target_marked``)."""
    mark_again: bool = False
    """With ``mark_enemy``: each time the unit it marked is destroyed, while the led unit is on the
    battlefield, its player selects a new enemy unit (Manhunter's Helm: "each time your Priority
    Target is destroyed, if the bearer is on the battlefield, you can select a new enemy unit")."""
    mark_warlord: bool = False
    """With ``mark_enemy``: the opponent's WARLORD (if on the battlefield) is marked too, besides
    the unit selected ("up to two enemy units, one of which must be your opponent's WARLORD")."""
    mark_each: bool = False
    """With ``mark_enemy``: each unit with the rule selects its own enemy unit ("select one unit
    from your opponent's army; each time a model in this unit makes an attack that targets that
    unit"), not one for the army; its ``target_marked`` effects count that unit's selection."""
    mark_at: Literal["first_round", "command"] = "first_round"
    """When ``mark_enemy`` selects: at the start of the first battle round, for the battle; or
    ('command') at the start of each of its player's Command phases, until the start of their
    next (the mark moves). One enemy unit per rule for the whole army."""
    target_marked: bool = False
    """A condition on the target: the fields on attacks apply only to attacks that target the
    enemy unit this rule marked (``mark_enemy``); with ``charge_unseen``, only charges at it."""
    marked_by: str | None = None
    """With ``target_marked``: the rule whose selected enemy unit counts, when another rule
    selects it ("your Oath of Moment target": Oath of Moment)."""
    only_weaker: bool = False
    """A condition: the fields on attacks apply only to attacks whose Strength is less than the
    target's Toughness."""
    only_not_stronger: bool = False
    """A condition: the fields on attacks apply only to attacks whose Strength is less than or
    equal to the target's Toughness."""
    reroll_charge_vs: list[Keyword] = field(default_factory=list)
    """Charge rolls made for the led unit can be re-rolled when a target of the charge has one of
    these keywords ("if one or more targets of that charge have the PSYKER keyword")."""
    first_round_only: bool = False
    """The effect applies in the first battle round only ("in the first battle round, ...")."""
    army: bool = False
    """The effect is given to every unit of the led unit's army (``only_keyword`` picks them)
    while the led unit is on the battlefield: "each time a KROOT model from your army makes an
    attack ..., if the bearer is on the battlefield"."""
    end_battleshock: bool = False
    """Used at a moment: the target is no longer Battle-shocked, at once."""
    free_move: float | None = None
    """A Normal move of up to X inches the led unit can make at ``free_move_on`` (once per battle
    with ``trigger_once``)."""
    free_move_roll: Dice | None = None
    """Used at a moment: a Normal move of up to this many inches, a dice expression rolled when the rule
    is used ("a Normal move of up to D6+1\""), as ``free_move`` (which gives a fixed distance)."""
    free_move_on: Literal["after_shooting", "enemy_fell_back"] | None = None
    """When: just after it has shot; just after an enemy unit that was within its Engagement Range
    Fell Back, if it is then within Engagement Range of no enemy unit."""
    hatch_before_move: bool = False
    """In the Move Units step, when the led unit is selected to move, it can first operate a
    Hatchway within 1" (once per turn, as any operating)."""
    hatch_reach: float | None = None
    """At the end of the Move Units step, the led unit can operate a Hatchway within X inches of
    and visible to it (instead of within 1")."""
    prevent_reach: float | None = None
    """Once per battle round, the led unit can try to prevent an enemy unit operating a Hatchway
    within X inches of and visible to it, as if it were within 1" of it."""
    reroll_hatch_rolloff: bool = False
    """In a Hatchway roll-off (the led unit operates a Hatchway an enemy unit tries to prevent, or
    tries to prevent one), its player re-rolls a losing result."""
    hatch_unopposed: bool = False
    """When the led unit tries to open a closed Hatchway, the opponent cannot try to prevent it."""
    hatch_shock: float | None = None
    """Each time the led unit opens a Hatchway, each enemy unit within X inches of it and wholly
    on its other side takes a Battle-shock test."""
    mortals_on: Literal["enemy_opens_hatchway", "enemy_falls_back", "charge_end", "destroyed"] | None = None
    """A trigger for ``mortals``: an enemy unit opens a Hatchway within ``mortals_within`` inches
    of the led unit; an enemy unit within Engagement Range of it is selected to Fall Back; it
    ends a Charge move (the unit it charged); it is destroyed (one enemy unit within Engagement
    Range of its last model, before it is removed)."""
    mortals_open_hatch: float | None = None
    """With ``mortals``: if they destroyed one or more enemy models, a closed Hatchway within X" of
    the led unit can be opened (no roll-off)."""
    mortals: list[int] = field(default_factory=list)
    """Mortal wounds the enemy unit suffers for a D6 roll of 1, 2, ... 6 (one roll per trigger)."""
    mortals_within: float | None = None
    """For 'enemy_opens_hatchway': the led unit is within X inches of that Hatchway (null: it
    is anywhere on the battlefield)."""
    shock_roll: int | None = None
    """On the ``mortals_on`` trigger, the enemy unit concerned is Battle-shocked on a D6 of X+."""
    trigger_once: bool = False
    """The ``mortals_on`` trigger fires once per battle (reading: the first time it can); with
    ``charge_unseen``: once per battle, when it declares a charge against a unit not visible."""
    spoil_secure: int | None = None
    """The first time in the battle the opponent's army Secures an objective marker while the led
    unit is on the battlefield, on a D6 of X+ that marker is not Secured."""
    escape_as_shocked: bool = False
    """Enemy units within Engagement Range of the led unit that are selected to Fall Back take
    Desperate Escape tests as if Battle-shocked (1 subtracted from each if they are)."""
    shock_hit: int | None = None
    """After the led unit has shot, one enemy unit hit by its attacks (of the weapons its
    conditions allow: only_psychic, only_weapons) takes a Battle-shock test, X added (-1)."""

    def __post_init__(self) -> None:
        if self.aura_enemy and self.aura is None and not self.aura_rounds:
            raise ValueError("aura_enemy goes with aura (X inches) or aura_rounds (X inches by battle round)")
        if self.aura_choice is not None and not self.aura_enemy:
            raise ValueError("aura_choice goes with aura_enemy")
        if self.free_move is not None and self.free_move_roll is not None:
            raise ValueError("give free_move (a distance) or free_move_roll (a dice expression), not both")
        for name in ("consolidate", "rush_move", "return_models", "revive_wounds", "free_move_roll"):
            if getattr(self, name) is not None:
                from bagm.chance.dice import DiceError, parse_dice

                try:
                    parse_dice(getattr(self, name), name)
                except DiceError as exc:
                    raise ValueError(str(exc)) from None
        if (self.mortals_on is None) != (not self.mortals and self.shock_roll is None) or \
                self.mortals and len(self.mortals) != 6:
            raise ValueError("mortals_on goes with mortals (the mortal wounds for each D6 roll, 1 to 6, "
                             "e.g. [0, 1, 1, 1, 2, 2]) or shock_roll")
    shock_hit_fight: bool = False
    """``shock_hit`` after the led unit has fought too, not only after it has shot (Torturer's
    Craft); ``target_lacks`` leaves some enemy units out ("excluding VEHICLES")."""
    kill_cp: Keyword | None = None
    """Each time the led unit's attacks destroy a model with this keyword, its player gains 1CP
    (Bloody Spectacle, A Worthy Skull: CHARACTER)."""
    pain_tokens: bool = False
    """Power from Pain: the led unit's army gains Pain tokens (1 at the start of the battle, Feast
    of Pain; 1 at the start of its Command phase; 1 each time an enemy unit is destroyed or fails
    a Battle-shock test) and spends them on its Pain abilities (Moment ``pain``)."""
    pain_roll: int | None = None
    """Pain Adept: in its player's Command phase, while the led unit is on the battlefield, one D6
    for the army: on X+ it gains 1 Pain token."""
    fight_kills_pain: int | None = None
    """In the Fight phase, when the X-th enemy unit that phase is destroyed by the attacks of units
    with this effect, their army gains 1 Pain token (once a phase; Appetite for Adulation: "if two
    or more enemy units are destroyed by DRUKHARI units from your army that phase")."""
    raid_pain: bool = False
    """Each time the led unit's attacks destroy an enemy unit that was within range of an objective
    marker its own army controlled at the start of the phase, the led unit's army gains 1 Pain
    token (Raid and Pillage)."""
    kill_pain: Keyword | None = None
    """Each time the led unit's attacks destroy a model with this keyword, its army gains 1 Pain
    token (Commorrite Rivalries: CHARACTER; the Pain twin of ``kill_cp``)."""
    pain_discount: bool = False
    """Each time its player uses the Battlefield Command Stratagem, they can expend 1 Pain token to
    pay 1CP less for it (Commorrite Rivalries)."""
    fnp_pain: int | None = None
    """In a phase, when the X-th Feel No Pain roll made for the models of units with this effect
    succeeds, their army gains 1 Pain token (once a phase; Regenerative Agony: 4)."""
    empower_regen: bool = False
    """Each battle round, the first time a unit of the army with this effect becomes Empowered,
    one D6: 2-5, one of its models regains 1 lost wound (WRACKS: one destroyed model returns with
    full wounds); 6, up to 2 lost wounds (WRACKS: one destroyed model returns) (Regenerative Agony)."""
    empower_pain_roll: int | None = None
    """The first time in each turn the led unit becomes Empowered, one D6: on X+ its army gains 1
    Pain token (Power and Greed)."""
    synapse_range: float | None = None
    """While a friendly unit is within X inches of the led unit (ignoring Walls and closed
    Hatchways), it is within Synapse Range (Synaptic Beacon: 9)."""
    shock_3d6: bool = False
    """Battle-shock tests taken for the led unit are taken on 3D6 instead of 2D6 (Synapse)."""
    aura_enemy: bool = False
    """With ``aura`` or ``aura_rounds``: the aura is on ENEMY units within its range, not friendly
    ones, and not on the unit itself ("while an enemy unit is within Contagion Range of one or more
    DEATH GUARD units from your army, it is Afflicted"): the game gives each enemy unit a copy of
    the effect whose condition is being within that range."""
    aura_rounds: list[float] = field(default_factory=list)
    """The aura's range by battle round, the last for every later round (Contagion Range as the
    Mustering Rules' Slow Decay sets it: [1, 3, 6]); ``straight``: measured ignoring Walls and
    Hatchways."""
    aura_choice: str | None = None
    """With ``aura_enemy``: the copy applies only while the aura's unit carries this alternative of
    its own ability's moment (the Plague selected for Nurgle's Gift: "Skullsquirm Blight")."""
    to_reserves: float | None = None
    """Used at a moment: the target, if more than X inches from every enemy unit (in a straight
    line), is removed from the battlefield and placed into Strategic Reserves, from which it arrives
    as Reserves do; placed there after the battle began, it is not destroyed at the end of the third
    battle round (Ambushing Hunters)."""
    return_on_kill: bool = False
    """Each time the led unit's attacks destroy an enemy model (``target_lacks``: not of a unit with
    one of those keywords), one destroyed model of the led unit returns, set up in Unit Coherency
    with it, once it has resolved those attacks (Curse of the Walking Pox)."""
    shock_all: int | None = None
    """Used at a moment: each enemy unit on the battlefield takes a Battle-shock test at once, X
    added (Shadow in the Warp: 0)."""
    shock_synapse_mod: int = 0
    """With ``shock_all``: added to the test of an enemy unit within 6" of a SYNAPSE unit of the
    user's army (-1)."""
    deploy_last: bool = False
    """In the Deploy Armies step, the opponent sets up their entire army before the led unit's
    army sets up any unit; if both armies have such a rule, both set up as normal."""
    stratagem_cp_roll: bool = False
    """Twisting Fate: each time either player spends one or more CP on a Stratagem, the led
    unit's player rolls one D6 (once for the army), adding 1 while the plan is in Ascendence (a
    PSYKER unit of the army with this rule on the battlefield and at least as many objective
    markers controlled as the opponent): on 1-2 the opponent gains 1CP, on 6+ they gain 1CP."""
    free_move_hatch: Literal["close_first", "after"] | None = None
    """With ``free_move`` in a moment's effects (made at once when the rule is used): the unit can
    also attempt to operate a Hatchway within 1" of it, after the move ('after'), or first an open
    one only ('close_first': "operate one open Hatchway it is within 1\" of, then make a Normal
    move")."""
    no_charge: bool = False
    """The led unit is not eligible to declare a charge (a moment's effect, until the end of the turn)."""
    set_overwatch: bool = False
    """With ``free_move`` in a moment's effects: after the move the unit counts as having performed
    the Set Overwatch Tactical Manoeuvre this turn."""
    rush_move: Dice | None = None
    """Just after an enemy unit has shot, if ``rush_on`` happened to the led unit, it can move up
    to X inches (a dice expression rolled when it does: "D6"), ending as close as possible to
    the attacking unit (``rush_to``); it can move within Engagement Range of that unit."""
    rush_on: Literal["lost_models", "hit", "targeted"] = "targeted"
    """When: models of the led unit were destroyed by those attacks, it was hit by one or more
    of them, or it was a target of them."""
    rush_to: Literal["attacker", "nearest"] = "attacker"
    """Toward the attacking unit, or the nearest visible enemy unit."""
    rush_once: Literal["turn", "phase"] | None = None
    """At most one such move per turn / per phase."""
    rush_unshocked: bool = False
    """Not while the led unit is Battle-shocked."""
    OC_shocked: int | None = None
    """While Battle-shocked, the led unit's models have an OC characteristic of X (not 0)."""
    secure_now: Literal["controlled", "uncontested"] | None = None
    """Used at a moment: one objective marker the target is within range of, not yet Secured by
    its army, is Secured at once: one its army controls ('controlled'), or one with no enemy unit
    within range of it ('uncontested')."""
    miracle_dice: bool = False
    """Acts of Faith: its army has a Miracle dice pool (one gained at the start of each battle round,
    and each time one of its units with this is destroyed); the unit can perform one Act of Faith per
    phase: the value of one Miracle dice used for one dice of a roll made for it."""
    miracle_bonus: int = 0
    """Added to the value of each Miracle dice the army gains (at most 6), and the dice of the start of
    the battle round gained at the start of its player's turn only (Minor Miracles)."""
    miracle_six: bool = False
    """The first time the army gains a Miracle dice because a unit with this is destroyed, that dice
    has the value 6, unrolled (Bloody Redemption)."""
    pool_reroll: bool = False
    """Each time its army makes the roll of a rule's pool of dice (a Blessings of Khorne roll), while
    the unit is on the battlefield, its player can re-roll all of the dice (Chosen of Khorne)."""
    only_rapid_fire: bool = False
    """A condition: the fields on attacks apply only to the unit's [RAPID FIRE] weapons (First Rank,
    Fire! Second Rank, Fire!: "improve the Attacks characteristic of Rapid Fire weapons")."""
    Sv_mod: int = 0
    """Added to the Save characteristic of the unit's models (-1 improves it by 1: Take Cover!),
    never to better than ``Sv_best``."""
    Sv_best: int | None = None
    """With ``Sv_mod``: the best Save it can improve to (3: "this cannot improve a model's Save to
    better than 3+"); a Save already better stays as it is."""
    Ld_mod: int = 0
    """Added to the Leadership characteristic of the unit's models (-1 improves it by 1: Duty and
    Honour!)."""
    secure_at_once: bool = False
    """Each time the unit performs the Secure Site Tactical Manoeuvre, the objective marker it selects
    is Secured by its army at once, not at the start of its player's next Command phase (Imperial
    Insights)."""
    move_after_secure: Dice | None = None
    """With ``secure_at_once``: after that, the unit can make a Normal move of up to this many inches
    (a dice expression, rolled then); it is still not eligible to shoot or declare a charge."""
    hatch_in_move: int | None = None
    """Each time the led unit makes a Normal move, it can attempt to operate a closed Hatchway it
    comes within 1" of during the move (one within its Move less X, plus 1", around Walls), with no
    enemy unit within 1" of it; its models then move X" less (X: 2 or 0) and it cannot operate a
    Hatchway again this turn. The Hatchway is operated first, then the move is made."""
    open_hatch: float | None = None
    """Used at a moment: the player can select one closed Hatchway within X" of and visible to the
    TARGET and roll one D6: on ``open_roll`` or more it opens (no roll-off), never to be closed
    again with ``jam_hatch``."""
    open_roll: int = 1
    jam_hatch: bool = False
    """Each time the led unit opens a Hatchway, that Hatchway cannot be closed until the end of
    the battle."""
    charge_through_mod: int = 0
    """Added to the led unit's Charge rolls in a turn it opened a Hatchway when the target of the
    charge is wholly on the opposite side of that Hatchway from it."""
    stratagem_cost_mod: int = 0
    """Once per battle round, a Stratagem its player uses on the led unit costs X more CP (-1:
    one less)."""
    stratagem_tax: float | None = None
    """The first time in each battle round the opponent uses a Stratagem on one of their units
    within X" of the led unit, that use costs 1CP more."""
    stratagem_refund: int | None = None
    """Each time its player uses a Stratagem on a unit the led unit sees (itself included), one
    D6: on X+, they gain 1CP."""
    stratagem_refund_own: int | None = None
    """Each time its player targets the led unit itself with a Stratagem, one D6: on X+, they gain
    1CP (Power of the Rosette)."""
    cp_roll: int | None = None
    """In its player's Command phase, while the led unit is on the battlefield, one D6 for it: on
    X+, its player gains 1CP (Coordinated Leadership)."""
    shoot_again: bool = False
    """Used at a moment (after_shot): the unit can be selected to shoot again this phase ("after
    this unit has shot, it can shoot again")."""
    crewed: bool = False
    """When the led unit's last model of its main profile is destroyed, its remaining models (of
    other profiles: weapon platforms) are destroyed too (Crewed Platform)."""
    infiltrators: bool = False
    """The led unit has the Infiltrators ability (set at muster: "... units gain the Infiltrate rule")."""
    fate_markers: int = 0
    """While the led unit is on the battlefield, its army counts X more objective markers as
    controlled for the Twisting Fate army rule's Ascendence."""
    deep_strike_one: str | None = None
    """At muster, the first unit of the army of this datasheet (by name) gains the Deep Strike
    ability ("select one Meganobz unit from your army ... the Deep Strike ability")."""
    fight_on_death_any: bool = False
    """With ``fight_on_death``: a model destroyed by a ranged attack fights on too (once the
    attacking unit has shot), against an enemy unit within Engagement Range of where it fell."""
    halve_move: bool = False
    """Halve the Move characteristic of the led unit's models and the Advance and Charge rolls
    made for it (rounding up; before other modifiers)."""
    aura: float | None = None
    """An aura: the effect's other fields apply to the led unit and to each other friendly unit
    within X inches of it (measured around Walls; only_keyword and the other conditions pick the
    units), "while a unit is within 6\" of this unit". Applied where the game answers the
    conditions (the attack sequence): muster gives the other units a copy whose ``only_while``
    ends with the game's own condition 'aura SOURCE X' (never written in data)."""
    reinforce_roll: int | None = None
    """Transdimensional Reinforcement: once per battle the led unit can request reinforcement (a
    moment of the same rule: in its player's Command phase), one D6 for each of its destroyed
    models, each X+ returning one with its full wounds in Unit Coherency; destroyed without having
    requested, it requests at once and its returned models are set up wholly within one of its
    player's Entry Zones."""
    stationary_weapons: list[str] = field(default_factory=list)
    """The led unit's weapons of these names (datasheet names, any case) are equipped only from
    the end of a Movement phase of its player in which it Remained Stationary until the start of
    that player's next turn (DS8 Support Turret); otherwise it cannot use them."""
    kill_yield: bool = False
    """Each time the led unit destroys an enemy unit, its army gains 1 Yield point (Prioritised
    Efficiency), once per phase for the army ("once per phase, one model from your army with this
    ability can use it when its unit destroys an enemy unit": Seized Opportunity)."""
    yield_points: bool = False
    """Prioritised Efficiency (Leagues of Votann): the led unit's army gains Yield points at the end
    of each Command phase, and at the end of its own Command phase its units with this rule get
    Fortify Takeover (7YP or more) or Hostile Acquisition (fewer) until the start of its next
    (Hostile Acquisition from the start of the battle); ``only_while`` names them."""
    deadly_demise: Dice | None = None
    """Deadly Demise X: each time a model of the led unit is destroyed, roll one D6 before
    removing it; on a 6 each unit within 6" of it suffers X mortal wounds (a dice X rolled for
    each unit)."""


@_model
class Ability:
    """A datasheet ability by name, and what it does in the engine: one entry of the ability
    tables (``bagm/data/core.yaml``'s core abilities, a faction pack's ``abilities:``). Exactly
    one of ``effects``, ``x``, ``engine`` and ``removed`` says how the engine plays it; none of
    them: the engine does not model it (every game lists it)."""

    __pydantic_config__ = CONFIG
    name: str
    """The ability's name as datasheets print it; a word X stands for a number or dice the
    datasheet's name carries ('Feel No Pain X+' matches 'Feel No Pain 5+')."""
    effects: list[Effect] | None = None
    """Its effects on the unit that has it."""
    x: str | None = None
    """The :class:`Effect` field that the number in the name goes into ('fnp' for Feel No
    Pain X+); with ``effects``, set on each of them, else on one effect of its own."""
    engine: bool = False
    """The engine plays it in its own code (Deep Strike, Infiltrators, Leader)."""
    removed: bool = False
    """It plays no part in a Boarding Actions game: Boarding Actions removes it (Rules Adaptations
    "Scouts Ability"), it is a Led-by ability ("Leaders": no effect), or it is about Leaders
    attached to the unit (they never attach)."""
    units: list[str] = field(default_factory=list)
    """Only on these datasheets (by name): a name that means different things on others."""
    section: str | None = None
    """Where the rule is written (book and section), for the reader."""
    keyword: Keyword | None = None
    """An army rule every unit of the army with this keyword has, whatever its datasheet lists (the
    Boarding Actions Mustering Rules' "... units from your army gain this one": Twisting Fate,
    THOUSAND SONS); a faction pack's entry only."""
    left: list[str] = field(default_factory=list)
    """Parts of a modelled ability the engine does not play, by short name (no prose); every game
    that has it lists them."""
    moments: list[Moment] = field(default_factory=list)
    """What a unit that has it can use it for at a moment (its TARGET: that unit, unless the
    moment says ``within``, ``target_any`` or ``army``); "once" is kept per unit ("once per
    battle, this model can ..."), or for the army with ``army``."""
    part_of: str | None = None
    """A core rule's name the catalogues list among a datasheet's abilities only as the reference
    of another of its abilities (Bounty Hunters' [LETHAL HITS] and [PRECISION]): it plays as that
    ability does (modelled exactly when that one is), with no effect of its own."""
    lost: str | None = None
    """A number the ability needs that no Boarding Actions text gives (named here, no prose): the
    engine does not play it, and every game that has it says which number is missing (unless a
    user supplies it: ``tokens``)."""
    tokens: int | None = None
    """The tokens its army receives at the start of each battle round, unspent ones lost at the end
    of it (Battle Focus tokens, whose number ``lost`` names: a user supplies it in an overlay); each
    of its ``manoeuvres`` spends one."""
    manoeuvres: list[Manoeuvre] = field(default_factory=list)
    """What a unit that has it can do for one of the army's ``tokens`` (Agile Manoeuvres): a unit at
    most one a phase."""
    army_faction: Keyword | None = None
    """The ``tokens`` come only to an army whose Army Faction is this keyword ("if your Army Faction
    is ASURYANI"): read as every unit of the army having it (the Army Faction is a keyword noted on
    the Army Roster, one its units share)."""

    def __post_init__(self) -> None:
        import re
        from dataclasses import fields

        if self.tokens is not None and self.tokens < 0:
            raise ValueError(f"ability '{self.name}': tokens must be 0 or more, not {self.tokens}")
        kinds = [k for k, on in (("effects/x", self.effects is not None or self.x is not None),
                                 ("moments", bool(self.moments) and self.effects is None and self.x is None),
                                 ("tokens", self.tokens is not None and (self.effects is not None or self.engine)),
                                 ("engine", self.engine), ("removed", self.removed),
                                 ("part_of", self.part_of is not None)) if on]
        if len(kinds) > 1:
            raise ValueError(f"ability '{self.name}': give one of effects/x, engine, removed and part_of, not "
                             + " and ".join(kinds))
        has_x = re.search(r"(?<![A-Za-z])X(?![A-Za-z])", self.name) is not None
        if self.x is not None:
            names = {f.name for f in fields(Effect)}  # type: ignore[arg-type]
            if self.x not in names:
                raise ValueError(f"ability '{self.name}': x: '{self.x}' is not an effect field")
            if not has_x:
                raise ValueError(f"ability '{self.name}': x: needs an X in the name ('Feel No Pain X+')")
            if self.effects is None:  # one effect of its own, the X filled in where it is found
                from bagm.data.schema import validate  # built only while pydantic validates

                self.effects = [validate(Effect, {})]
        elif has_x and (self.effects is not None):
            raise ValueError(f"ability '{self.name}': the name has an X; say which effect field "
                             "it goes into with x:")

    @property
    def modelled(self) -> bool:
        return self.effects is not None or self.x is not None or self.engine or self.removed or bool(self.moments) \
            or self.tokens is not None and bool(self.manoeuvres)


@_model
class LeaderAbility:
    """One Leader ability ('while this model is leading a unit...'), by name."""

    __pydantic_config__ = CONFIG
    name: str
    effects: list[Effect] | None = None
    """Its effects; null when the engine does not model it (games list it as such)."""


@_model
class Leader:
    """A Leader: the Bodyguard units it could normally be attached to, and its Leader abilities
    (conferred in Boarding Actions only by the Battlefield Command Stratagem)."""

    __pydantic_config__ = CONFIG
    bodyguards: list[str] = field(default_factory=list)
    """Names of the units it can be attached to (datasheet names in the same pack)."""
    abilities: list[LeaderAbility] = field(default_factory=list)

    @cached_property
    def bodyguard_keys(self) -> frozenset[str]:
        """Its Bodyguard names as name look-ups compare them (:func:`bagm.data.names.norm`)."""
        from bagm.data.names import norm

        return frozenset(norm(n) for n in self.bodyguards)

    @cached_property
    def described(self) -> list[LeaderAbility]:
        """Its Leader abilities whose effects the pack describes."""
        return [a for a in self.abilities if a.effects]


@_model
class Correction:
    """A fact of a model profile or weapon corrected by hand, where the BattleScribe catalogues
    are wrong or cannot say it; ``bagm data import-bsdata`` applies it again after each import."""

    __pydantic_config__ = CONFIG
    values: dict[str, Any]
    """The fields and their corrected values, e.g. ``{W: 4}`` or ``{count: '1'}``."""
    note: str
    """Why: what the catalogues say and where the right value comes from."""
    model: str | None = None
    """The model profile it corrects (by name)."""
    weapon: str | None = None
    """The weapon it corrects (by name)."""

    def __post_init__(self) -> None:
        if (self.model is None) == (self.weapon is None):
            raise ValueError("a correction names one 'model' or one 'weapon'")


@_model
class WargearChoice:
    """One choice a model makes: between ``min`` and ``max`` of the items ``of`` (a datasheet's
    "can be replaced with one of the following"; an optional item is a choice of one)."""

    __pydantic_config__ = CONFIG
    of: list[str]
    """The wargear items offered, by name (a weapon, or wargear such as a storm shield)."""
    min: int = 0
    """How many it must take (1: the item it replaces, or its default, is always there)."""
    max: int | None = 1
    """How many it may take (in the smallest unit: see ``max_from``); null: no limit given."""
    max_from: dict[int, int] = field(default_factory=dict)
    """Another maximum from a unit size on: ``{6: 2}``, two in a unit of 6 or more models (the
    catalogues' "one fewer Plasmacyte in a unit of fewer than 6")."""
    default: str | None = None
    """The item taken when the roster names none."""
    needs: str | None = None
    """A choice made inside an item: only a model carrying ``needs`` makes it (the Captain's
    melee weapon inside "Bolt Pistol, Master-crafted Bolter, Melee Weapon"); others take none."""
    unless: list[str] = field(default_factory=list)
    """Items that rule the choice out: a model carrying one of them makes no pick here ("if the
    sergeant takes twin lightning claws, he has no Weapon 1")."""
    unit_needs: list[str] = field(default_factory=list)
    """Items of which some model of the unit must carry one for the choice to be made (the
    catalogues hide it otherwise): the Reiver Sergeant's bolt carbine only beside the squad's
    bolt carbines. Without them the choice takes nothing."""
    unit_min: int | None = None
    """The choice's minimum while the unit carries one of ``unit_needs`` (1: the Reiver
    Sergeant then takes his bolt carbine)."""
    item_needs: dict[str, list[str]] = field(default_factory=dict)
    """Items of ``of`` a model takes only while it carries every one of the items listed (the
    catalogues hide them otherwise): the Canoness's Null Rod with a Hallowed Chainsword, her
    Rod of Office with a plasma pistol and a power weapon."""
    unit_max: int | None = None
    """The most models of the unit whose pick here is other than ``default`` (the catalogues:
    at most N of the choice's picks across the unit, N - 1 while no model keeps the default,
    where no more than N models make it): Death Company Marines with Bolt Rifles, one Marine
    replaces his close combat weapon and one his bolt rifle. Null: no such bound."""
    item_unless: dict[str, list[str]] = field(default_factory=dict)
    """Items of ``of`` a model does not take while it carries one of the items listed (the
    catalogues set another item's minimum then): the Chosen Champion's combi-weapon, not with
    his power fist (his boltgun's minimum is 1 beside one)."""
    item_unit_unless: dict[str, list[str]] = field(default_factory=dict)
    """Items of ``of`` no model takes while the unit has a model of one of the kinds listed
    (``ModelWargear.model``; the catalogues hide them then): the Yaegir Theyn's bolt revolver
    and plasma knife beside Yaegirs with bolt shotguns, his bolt shotgun beside Yaegirs with
    revolvers."""

    def most(self, n: int) -> int | None:
        """How many it may take in a unit of ``n`` models."""
        return max_at_size(self.max, self.max_from, n)


def max_at_size(top: int | None, grows: dict[int, int], n: int) -> int | None:
    """A wargear bound's maximum in a unit of ``n`` models: ``top``, or the value of the largest
    size in ``grows`` that ``n`` reaches. A bound with ``max_from_kinds`` counts the models of
    those kinds instead: the catalogues' "Max 1 {this} per 5 models" on Inquisitorial Agents
    holds while the unit has fewer than 10 Acolytes, a count its size does not settle."""
    for size, value in sorted(grows.items()):
        if n >= size:
            top = value
    return top


@_model
class ModelWargear:
    """One kind of model of a unit and its wargear: what it always carries and the choices it
    makes. Kinds that share a profile are the same model equipped differently ("Tactical Marine"
    and "Tactical Marine w/Special Weapon")."""

    __pydantic_config__ = CONFIG
    model: str | None
    """The kind of model as the catalogues name it; null: the unit as a whole (any model)."""
    profile: str | None = None
    """The model profile (``models[].name``) these models use."""
    min: int = 0
    """The fewest models of this kind the unit has."""
    max: int | None = None
    """The most models of this kind; null: no limit given."""
    max_from: dict[int, int] = field(default_factory=dict)
    """A larger maximum from a unit size on: ``{10: 2}``, two in a unit of 10 or more."""
    max_from_kinds: list[str] = field(default_factory=list)
    """Kinds of model (``model``) whose number ``max_from`` counts instead of the unit's
    size (see :func:`max_at_size`)."""

    def most(self, n: int) -> int | None:
        """The most models of this kind where ``n`` models count (the unit's, or those of
        ``max_from_kinds``)."""
        return max_at_size(self.max, self.max_from, n)
    gear: list[str] = field(default_factory=list)
    """Items each model of this kind always carries."""
    choices: list[WargearChoice] = field(default_factory=list)
    unit_unless: list[str] = field(default_factory=list)
    """Kinds of model (``model``) beside which the unit has none of this kind (the catalogues
    hide it then): a Skitarii Ranger with a data-tether or one with an omnispex, not both."""


@_model
class WargearGroup:
    """A bound shared by several kinds of model (``ModelWargear.model``): "up to 2 of the
    Shock Troopers with a special weapon", whichever weapon each has."""

    __pydantic_config__ = CONFIG
    models: list[str]
    """The kinds of model it bounds, by ``ModelWargear.model``."""
    min: int = 0
    """The fewest models of these kinds together."""
    max: int | None = None
    """The most models of these kinds together; null: no limit given."""
    max_from: dict[int, int] = field(default_factory=dict)
    """A larger maximum from a unit size on: ``{20: 4}``, four in a unit of 20 or more."""
    max_from_kinds: list[str] = field(default_factory=list)
    """Kinds of model whose number ``max_from`` counts instead of the unit's size: up to 1
    Gun Servitor of Inquisitorial Agents, 2 with 10 Acolytes (the kinds of Agent)."""

    def most(self, n: int) -> int | None:
        """The most models of these kinds together where ``n`` models count (the unit's, or
        those of ``max_from_kinds``)."""
        return max_at_size(self.max, self.max_from, n)


@_model
class ItemBound:
    """A bound over wargear items the unit's models carry together, whichever kinds of model
    carry them: "Max 1 pistol replacement in squad", "up to 2 plasma pistols in the unit, 4
    from 10 models" (``max``), or "all Thunderkyn models must have the same weapon"
    (``alike``)."""

    __pydantic_config__ = CONFIG
    items: list[str]
    """The items it bounds, by name (as the choices offer them)."""
    max: int | None = None
    """The most of these items the unit's models carry together (a model carrying two of them
    counts twice); null: no limit given (an ``alike`` bound)."""
    max_from: dict[int, int] = field(default_factory=dict)
    """A larger maximum from a unit size on: ``{10: 4}``, four in a unit of 10 or more."""
    max_from_kinds: list[str] = field(default_factory=list)
    """Kinds of model whose number ``max_from`` counts instead of the unit's size."""
    alike: bool = False
    """The unit carries one of these items only: every model taking one takes the same."""
    per_model: bool = False
    """``max`` counts the models carrying one or more of these items (a model carrying two
    counts once), not the items: Death Company Marines with Jump Packs, up to 2 Marines (3
    from 10 models) with a hand flamer, an inferno pistol, a power fist or a power weapon."""
    beside: list[str] = field(default_factory=list)
    """Kinds of model (``ModelWargear.model``) of which the unit has one or more for the bound
    to hold; empty: always (the catalogues raise "Max 1 pistol replacement in squad" on the
    Death Company Marine w/ alternate weapons: none without him)."""

    def most(self, n: int) -> int | None:
        """The most of these items together where ``n`` models count (the unit's, or those
        of ``max_from_kinds``)."""
        return max_at_size(self.max, self.max_from, n)


@_model
class Datasheet:
    """A unit's datasheet: keywords, points, profiles, weapons."""

    __pydantic_config__ = CONFIG
    name: str
    keywords: list[Keyword]
    """Keywords in upper case (CHARACTER, INFANTRY, EPIC HERO...)."""
    faction_keywords: list[Keyword]
    points: dict[int, int]
    """Munitorum Field Manual points by number of models (the bracket tops)."""
    aliases: list[str] = field(default_factory=list)
    supplement_points: dict[Keyword, dict[int, int]] = field(default_factory=dict)
    """A Codex Supplement's own Field Manual points, by its keyword: an army with a unit of that
    keyword pays these instead (Black Templars: Sternguard Veteran Squad, Terminator Squad)."""
    sizes: list[int] | None = None
    """Legal Starting Strengths; default: the points brackets."""
    base: float | None = None
    """Base diameter in mm of most of the unit's models (28.5 is a real size); for an oval base,
    the diameter of a round base of the same area. Unset: the engine uses a keyword default."""
    base_oval: list[float] | None = None
    """An oval base as [long axis, short axis] in mm (``base`` then holds its round equivalent)."""
    base_source: str | None = None
    """Where ``base`` comes from (the pack's ``base_source`` gives the full citation)."""
    models: list[ModelProfile] = field(default_factory=list)
    weapons: list[Weapon] = field(default_factory=list)
    wargear: list[ModelWargear] = field(default_factory=list)
    """The kinds of model and their wargear options (empty: none recorded)."""
    wargear_items: dict[str, list[str]] = field(default_factory=dict)
    """The weapons an item gives, where they are not named after it ('Plasma gun' gives
    'Plasma gun - standard' and '- supercharge' without an entry here)."""
    wargear_groups: list[WargearGroup] = field(default_factory=list)
    """Bounds shared by several kinds of model (the catalogues' groups of model entries)."""
    wargear_item_bounds: list[ItemBound] = field(default_factory=list)
    """Bounds over items the unit's models carry together (the catalogues' errors and bounds
    counted across the unit, by the unit's size: :mod:`bagm.io.bsdata.unit_bounds`)."""
    wargear_unread: list[str] = field(default_factory=list)
    """Bounds ('kind: item: what') the import does not read: they change with another of the
    roster's choices, or in a form not read (a roster naming this unit's wargear is told:
    BA196)."""
    abilities: list[str] = field(default_factory=list)
    adaptation: Adaptation | None = None
    leader: Leader | None = None
    """Leader data: Bodyguard units and Leader abilities (CHARACTER units with Leader)."""
    enhancement: bool | None = None
    """Override: true lets a non-CHARACTER take an Enhancement, false forbids one."""
    points_note: str | None = None
    """Why the points differ from another source."""
    corrections: list[Correction] = field(default_factory=list)
    """Facts corrected by hand, each with its reason (kept by a re-import)."""

    def __post_init__(self) -> None:
        self.keywords = _upper(self.keywords)
        self.faction_keywords = _upper(self.faction_keywords)

    @cached_property
    def key(self) -> str:
        """Its name as name look-ups compare it (:func:`bagm.data.names.norm`)."""
        from bagm.data.names import norm

        return norm(self.name)

    @cached_property
    def all_keywords(self) -> frozenset[str]:
        return frozenset(self.keywords) | frozenset(self.faction_keywords)

    @property
    def is_character(self) -> bool:
        return "CHARACTER" in self.keywords

    @property
    def is_epic_hero(self) -> bool:
        return "EPIC HERO" in self.keywords


# --- mustering rules ------------------------------------------------------------------------


@_model
class Selector:
    """Picks units of a roster: a unit matches when ``units`` names its datasheet or it has
    every keyword of ``keywords``."""

    __pydantic_config__ = CONFIG
    units: list[str] = field(default_factory=list)
    keywords: list[Keyword] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.units and not self.keywords:
            raise ValueError("a selector needs 'units' or 'keywords'")
        self.keywords = _upper(self.keywords)

    def describe(self) -> str:
        parts = list(self.units)
        if self.keywords:
            parts.append(" ".join(self.keywords))
        return ", ".join(parts)


@_model
class Allowance:
    """One line of a Detachment's unit list: a datasheet, how many, at which sizes."""

    __pydantic_config__ = CONFIG
    unit: str
    max: int
    """The most units of this datasheet the army can include."""
    sizes: list[int] | None = None
    """Legal Starting Strengths in this Detachment."""
    enhancement: bool | None = None
    """True: this unit may take an Enhancement although it is not a CHARACTER."""
    note: str | None = None


@_model
class Limit:
    """At most ``max`` units matching ``select`` ("up to two of the following")."""

    __pydantic_config__ = CONFIG
    rule: Literal["limit"]
    select: Selector
    max: int
    distinct: bool = False
    """No duplicates: each datasheet at most once among them."""
    note: str | None = None


@_model
class Ratio:
    """Units matching ``count`` may not outnumber ``factor`` times the units matching ``per``
    ("no more X than Y", "for each Y, up to one X")."""

    __pydantic_config__ = CONFIG
    rule: Literal["ratio"]
    count: Selector
    per: Selector
    factor: int = 1
    note: str | None = None


@_model
class Requires:
    """Units matching ``select`` only if the army includes a unit matching ``needs``."""

    __pydantic_config__ = CONFIG
    rule: Literal["requires"]
    select: Selector
    needs: Selector
    note: str | None = None


@_model
class Exclusive:
    """At most one of these datasheets may be included: they exclude each other."""

    __pydantic_config__ = CONFIG
    rule: Literal["exclusive"]
    units: list[str]
    note: str | None = None


@_model
class Excludes:
    """A unit matching ``select`` excludes every other unit matching ``others`` ("if you
    include it, it must be your only CHARACTER")."""

    __pydantic_config__ = CONFIG
    rule: Literal["excludes"]
    select: Selector
    others: Selector
    note: str | None = None


@_model
class KeywordGroup:
    """Units with these keywords cannot be mixed: every unit with one of them shares one
    (chapters, Chaos gods)."""

    __pydantic_config__ = CONFIG
    rule: Literal["keyword_group"]
    keywords: list[Keyword]
    note: str | None = None

    def __post_init__(self) -> None:
        self.keywords = _upper(self.keywords)


MusteringRule = Union[Limit, Ratio, Requires, Exclusive, Excludes, KeywordGroup]


@_model
class Moment:
    """A rule used at a moment of the game (a Stratagem's WHEN; an Enhancement or a Detachment
    rule used "once per battle, at the start of your Command phase..."): when, on which unit,
    and its effect in the :class:`Effect` vocabulary on that unit for a while."""

    __pydantic_config__ = CONFIG
    when: Timing
    """Its moment, one of :mod:`bagm.data.timings` (e.g. phase_start, selected_to_shoot, targeted)."""
    phase: Phase | None = None
    """Only in this phase (WHEN "your Shooting phase"); null: any phase the moment happens in."""
    turn: Literal["yours", "opponents", "either"] = "either"
    """Whose turn it must be."""
    target_keywords: list[Keyword] = field(default_factory=list)
    """TARGET: one unit from your army with all of these keywords (the unit the moment is about,
    for selected_to_shoot, selected_to_fight and targeted; an Enhancement's: its bearer's unit)."""
    effects: list[Effect] | None = None
    """EFFECT on the target unit; null when the engine cannot play it (games list it)."""
    until: Literal["phase", "turn", "next", "round", "battle", "their_turn", "target_next_turn"] = "phase"
    """How long the effect lasts: until the end of the phase, of the turn, of the battle round or
    of the battle, ('next') until the start of the user's next phase of the kind it was used in
    ("until the start of your next Shooting phase"), ('their_turn') until the end of the user's
    opponent's next turn ("until the end of your opponent's next turn"), or ('target_next_turn')
    until the start of the next turn of the target's player ("until the start of your opponent's
    next turn")."""
    once: Literal["phase", "turn", "round", "battle", "unit"] = "battle"
    """How often it can be used: once per phase, turn, battle round or battle, or once per phase
    for each unit ('unit': "each time a unit is selected to shoot, it can use this")."""
    within: float | None = None
    """An Enhancement's: its TARGET is a friendly unit within X inches of the bearer's unit
    (that unit itself included) instead of the bearer's unit ("select one friendly WRAITH
    CONSTRUCT unit within 6\" of the bearer")."""
    visible: bool = False
    """With ``within``: and visible to the bearer's unit."""
    reach_straight: float | None = None
    """With ``within``: or a friendly unit within X inches of the bearer's unit in a straight line,
    Walls and closed Hatchways ignored (Master Vox: "up to 12\" away ... Walls and closed Hatchways
    are ignored")."""
    reach_item: str | None = None
    """With ``reach_straight``: that reach only for a unit whose models carry this wargear item (the
    roster's wargear, else the datasheet's default: "Master vox")."""
    target_units: list[str] = field(default_factory=list)
    """TARGET: only units of these datasheets (by name, any case), with ``target_keywords``."""
    target_any: bool = False
    """An Enhancement's: its TARGET is any friendly unit (``target_keywords``, ``target_units``),
    not only the bearer's unit."""
    target_battleshocked: bool = False
    """TARGET: only a Battle-shocked unit."""
    self_test: Literal["leadership"] | None = None
    """Using it, its target first takes this test (Dark Pacts: "it must first take a Leadership
    test before any effects ... are resolved"); the effects apply either way."""
    self_test_mortals: Dice | None = None
    """With ``self_test``: a failed test, the target suffers this many mortal wounds (D3)."""
    self_test_forsake: bool = False
    """With ``self_test``: a failed test, the target can never use the rule again (The Forsaken:
    "until the end of the battle, this unit loses its Dark Pacts ability")."""
    pain: int = 0
    """Using it costs X Pain tokens of the army's pool (Power from Pain: "you can spend 1 Pain token
    to Empower that unit"); its target is then Empowered until the end of the phase."""
    empower: bool = True
    """With ``pain``: the target is Empowered (false: the tokens are only expended, "expend 1 Pain
    token ... that objective is Secured": Raid and Pillage)."""
    choice: str | None = None
    """A named alternative ("select one of the following abilities"): the moments of one rule
    with choices share its ``once``, and using one names it ("use A3 Rule: lethal hits")."""
    enemy: bool = False
    """Its TARGET is one enemy unit ("select one enemy unit ..."), its effects on that unit (its
    own attacks and moves: hit_mod, M_mod...); an Enhancement's: measured from the bearer's unit
    (``within``, ``visible``; the moment's unit must be the bearer's)."""
    acting: bool = False
    """With ``enemy``: the TARGET is the enemy unit the moment is about (``enemy_attempt``: the one
    attempting a Tactical Manoeuvre or to operate a Hatchway), within ``within`` of the bearer's unit."""
    target_hit: bool = False
    """With ``enemy``: only an enemy unit hit by one or more of the attacks the unit just made
    (``after_shot``: "select one enemy unit hit by one or more of those attacks")."""
    target_engaged: bool = False
    """With ``enemy``: only an enemy unit within Engagement Range of the bearer's unit."""
    target_lacks: list[Keyword] = field(default_factory=list)
    """With ``enemy``: only an enemy unit with none of these keywords ("select one enemy unit
    (excluding MONSTERS and VEHICLES)")."""
    test: Literal["leadership"] | None = None
    """The TARGET takes this test first (2D6 against its Leadership, ``test_mod`` added); the
    effects apply only if it fails."""
    test_mod: int = 0
    after_kill: bool = False
    test_pass: bool = False
    """With ``test``: the effects apply if the test is PASSED (not failed)."""
    test_mod_keyword: Keyword | None = None
    """With ``test_mod``: the modifier only for a target with this keyword ("subtracting 2 if it
    has the WRAITH CONSTRUCT keyword")."""
    target_unshocked: bool = False
    """TARGET: not a Battle-shocked unit."""
    """Only if the attacks the unit just made destroyed one or more enemy units (``after_shot``)."""
    army: bool = False
    """A datasheet ability's: the effects go to every unit of the army that has the ability (one
    use for the army: "the selected stance is active for your army")."""
    first_round: bool = False
    """Only in the first battle round ("at the start of the first battle round, select ...")."""
    times: int | None = None
    """At most X uses in the battle, besides ``once`` ("the bearer can only use this Enhancement up
    to two times")."""
    once_each: Literal["battle"] | None = None
    """With ``choice``: each alternative can also be selected only once per battle ("each Ka'Tah
    stance can only be selected once per battle")."""
    pool: int = 0
    """At the start of each battle round its player rolls X D6 for the rule, once (a Blessings of
    Khorne roll: 4 with the Mustering Rules' Slaughterer's Glory); ``pool_needs`` says which
    results let this alternative be selected."""
    pool_needs: list[str] = field(default_factory=list)
    """With ``pool``: the dice it needs, any of ("double 5": two dice of the same value, 5 or
    higher; "triple 2": three of the same value, 2 or higher)."""
    per_phase: int | None = None
    """A datasheet ability's: each unit that has it can use it (its alternatives together) up to X
    times in each phase, instead of once ("this OFFICER can issue 2 Orders"); with ``once: phase``."""
    one_at_a_time: bool = False
    """A unit is affected by one use of this rule (any unit's) at a time: using it on a unit ends the
    effects the last use left on it ("a unit can only be affected by one Order at a time")."""
    rule: str | None = None
    """A datasheet ability's: the name of the rule this moment is used as, when the ability gives a
    second rule of its own name and "once" ("units with the Waaagh! ability retain that ability and
    gain this one": Void Waaagh!); null: the ability's name."""

    def __post_init__(self) -> None:
        import re

        for need in self.pool_needs:
            if not re.fullmatch(r"(double|triple) [1-6]", need):
                raise ValueError(f"pool_needs: '{need}' is not 'double X' or 'triple X' (X 1 to 6)")
        if self.pool_needs and not self.pool:
            raise ValueError("pool_needs goes with pool (how many D6 are rolled)")


@_model
class Manoeuvre(Moment):
    """One use of an ability's tokens (an Agile Manoeuvre of Battle Focus: "each time one of the
    triggers ... occurs, you can spend one Battle Focus token to enable the relevant eligible unit
    to perform that Agile Manoeuvre"): its name, trigger (``when``), TARGET (the unit the moment is
    about, with ``target_keywords``: one that has the ability and has performed none this phase)
    and effects. It costs one token; "unless otherwise stated, you cannot trigger the same Agile
    Manoeuvre more than once per phase" (``once: phase``; ``unit``: "more than once per phase,
    provided a different unit performs it each time")."""

    __pydantic_config__ = CONFIG
    name: str
    once: Literal["phase", "unit"] = "phase"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.when == "after_roll":
            raise ValueError(f"manoeuvre '{self.name}': 'after_roll' is Command Re-roll's moment alone; give "
                             "another timing")
        for key in ("pain", "pool", "army", "choice", "enemy", "times", "per_phase", "rule"):
            if getattr(self, key):
                raise ValueError(f"manoeuvre '{self.name}': '{key}' is not supported in a manoeuvre (it spends "
                                 "one of the ability's tokens on the unit its moment is about)")
        if self.effects is not None and not self.effects:
            raise ValueError(f"manoeuvre '{self.name}': effects is empty (give effects, or null when the engine "
                             "cannot play it)")


@_model
class Stratagem(Moment):
    """A Detachment Stratagem a user supplies (no source the project has lists them): the card's
    name, cost and category, and when, on what and with what effect it is used (Core Rules
    "Stratagems": once per phase)."""

    __pydantic_config__ = CONFIG
    name: str
    cp: int
    """Its cost in CP (0 to 3)."""
    category: Literal["Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear"]
    once: Literal["phase", "round", "battle"] = "phase"

    def __post_init__(self) -> None:
        if not 0 <= self.cp <= 3:
            raise ValueError(f"Stratagem '{self.name}': cp must be 0 to 3, not {self.cp}")


@_model
class Enhancement:
    """An Enhancement and who may take it."""

    __pydantic_config__ = CONFIG
    name: str
    aliases: list[str] = field(default_factory=list)
    requires_keywords: list[Keyword] = field(default_factory=list)
    """The bearer must have all of these keywords."""
    weapon: bool = False
    """The roster must name the ranged weapon it improves (Trademark Weapon)."""
    weapon_excludes: list[str] = field(default_factory=list)
    """Weapon abilities that make a weapon ineligible, e.g. torrent."""
    editions: list[int] = field(default_factory=lambda: [2023, 2024])
    """The editions it exists in."""
    effects: list[Effect] | None = None
    """What it gives the bearer's unit in the engine; null when the engine does not model it
    (every game lists it as not modelled, unless ``moments`` say what it does)."""
    moments: list[Moment] = field(default_factory=list)
    """What the bearer's unit can use it for at a moment ("once per battle, when the bearer's
    unit is selected as the target of attacks..."): the target is always the bearer's unit."""
    bars: list[Keyword] = field(default_factory=list)
    """Not an Enhancement a model takes but a bar (Monoform Predators, the mustering reference's
    ``noAssign``): models with any of these keywords in its Detachment cannot be given Enhancements
    (roster validation: BA148)."""


@_model
class Detachment:
    """A Boarding Actions Detachment and its Mustering Rules."""

    __pydantic_config__ = CONFIG
    name: str
    faction_keyword: Keyword
    units: list[Allowance]
    aliases: list[str] = field(default_factory=list)
    rule: str | None = None
    """The Detachment rule's name (no prose)."""
    rule_effects: list[Effect] | None = None
    """What the Detachment rule gives the units of the army that uses it, in the engine (a
    keyword condition, ``only_keyword``, says which units); null when the engine does not model
    it (every game lists it as not modelled, unless ``rule_moments`` say what it does)."""
    rule_moments: list[Moment] = field(default_factory=list)
    """What the army can use the Detachment rule for at a moment ("once per battle, at the start
    of your Command phase, select one unit..."), on a unit with ``target_keywords``."""
    rule_left: list[str] = field(default_factory=list)
    """Parts of a modelled rule the engine does not play, each by a short name (no prose): every
    game lists them as not modelled."""
    enhancements: list[Enhancement] = field(default_factory=list)
    stratagems: list[Stratagem] = field(default_factory=list)
    """Its Detachment Stratagems, as a user supplies them (the sources have none)."""
    rules: list[Annotated[MusteringRule, "discriminator:rule"]] = field(default_factory=list)
    note: str | None = None


@_model
class FactionPack:
    """One faction file."""

    __pydantic_config__ = CONFIG
    faction: str
    """The Army Faction keyword as printed, e.g. 'Grey Knights'."""
    points_source: str
    aliases: list[str] = field(default_factory=list)
    mustering_source: str | None = None
    base_source: str | None = None
    """The full citation of the base sizes its datasheets record."""
    units: list[Datasheet] = field(default_factory=list)
    detachments: list[Detachment] = field(default_factory=list)
    abilities: list[Ability] = field(default_factory=list)
    """The faction's abilities by name (army rules, datasheet abilities) and what they do in the
    engine; the core abilities are in ``bagm/data/core.yaml``."""
    notes: list[str] = field(default_factory=list)


@_model
class CorePack:
    """Universal data: the Boarding Actions Enhancements any army may take, and the core
    abilities datasheets list by name."""

    __pydantic_config__ = CONFIG
    enhancements: list[Enhancement]
    abilities: list[Ability] = field(default_factory=list)
