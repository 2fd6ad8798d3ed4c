"""Armies on the table: the units of a mustered Boarding Patrol after "Form Boarding Squads",
with their models, characteristics, weapons and what the engine does not model for them.

Mission sequence steps 1 and 5 (Muster Boarding Patrol; Form Boarding Squads): the roster is
validated with :func:`bagm.roster.validate.validate` and an invalid one is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, cast

from bagm.data.weapons import WeaponProfile
from bagm.engine.board.geometry import Base
from bagm.engine.state.core import Player, Where
from bagm.errors import BagmError

MOVE_CAP = 9  # Rules Adaptations "Flying": a Move over 9" is reduced to 9"

# Abilities the engine plays in its own code (by name, lower case): the ability tables'
# `engine: true` entries (bagm/data/core.yaml) name these and no others.
IMPLEMENTED_ABILITIES = {"deep strike", "leader", "infiltrators"}

# Prioritised Efficiency (Leagues of Votann): the only_while state -> the ability it names, a label
# on the unit's timed effects while in force (bagm/engine/rules/yield_points.py)
YIELD_MODES = {"hostile_acquisition": "Hostile Acquisition", "fortify_takeover": "Fortify Takeover"}


def _better(a: int | None, b: int | None) -> int | None:
    """The better of two optional saves (a lower number is better)."""
    return b if a is None else a if b is None else min(a, b)


def _listed(x: Any) -> list[Any]:
    return x if isinstance(x, list) else [x]


def fits(e: Any, name: str, keywords: frozenset[str]) -> bool:
    """Whether an effect's conditions that never change in a game (a keyword it needs or must
    lack, the datasheets it names or leaves out) let it apply to a unit of datasheet ``name``."""
    if e.only_keyword is not None and e.only_keyword not in keywords:
        return False
    if e.only_lacks and any(k in keywords for k in e.only_lacks):
        return False
    if e.only_units or e.except_units:
        from bagm.data.names import norm

        n = norm(name)
        if e.only_units and n not in {norm(x) for x in e.only_units}:
            return False
        if n in {norm(x) for x in e.except_units}:
            return False
    return True


_DEFAULTS: dict[str, Any] = {}  # each Effect field's default (filled on first use)
_NO_DEFAULT = object()


def _defaults() -> dict[str, Any]:
    """Each Effect field's default where it is a "nothing" (None, 0, False or empty), else
    ``_NO_DEFAULT``."""
    if not _DEFAULTS:
        from dataclasses import MISSING, fields

        from bagm.data.models import Effect

        for f in fields(cast(Any, Effect)):  # (a pydantic dataclass: mypy sees no dataclass)
            d = f.default if f.default is not MISSING else \
                f.default_factory() if f.default_factory is not MISSING else _NO_DEFAULT
            _DEFAULTS[f.name] = d if d is _NO_DEFAULT or not d else _NO_DEFAULT
    return _DEFAULTS


_SETS: dict[Any, frozenset[str]] = {}  # effect -> the fields it sets (effects hash by identity: eq=False)


def fields_set(e: Any) -> frozenset[str]:
    """The fields effect ``e`` sets to other than their "nothing" default (those :func:`_setting`
    tells apart; a field with another default counts as set by every effect: it is not listed),
    worked out once for each effect (effects never change once built)."""
    got = _SETS.get(e)
    if got is None:
        if len(_SETS) > 100000:
            _SETS.clear()
        got = _SETS[e] = frozenset(n for n, d in _defaults().items() if d is not _NO_DEFAULT and getattr(e, n) != d)
    return got


def _setting(effects: tuple[Any, ...], name: str | tuple[str, ...]) -> tuple[Any, ...]:
    """Those of ``effects`` whose field ``name`` is other than the field's default (all of them
    where the default is no "nothing": not None, 0, False or empty, or the field is unknown):
    what a sum, a least value, a flag or a first value over the effects reads. ``name`` a tuple
    of fields: those setting any of them, in their order (what one step of an attack reads)."""
    _defaults()
    if isinstance(name, tuple):
        if any(_DEFAULTS.get(n, _NO_DEFAULT) is _NO_DEFAULT for n in name):
            return effects
        return tuple(e for e in effects if any(getattr(e, n) != _DEFAULTS[n] for n in name))
    default = _DEFAULTS.get(name, _NO_DEFAULT)
    if default is _NO_DEFAULT:
        return effects
    return tuple(e for e in effects if getattr(e, name) != default)


class Index(dict[str | tuple[str, ...] | None, tuple[Any, ...]]):
    """A unit's effects whose fixed conditions hold (key None), and those setting a field (key: its
    name) or one of several (a tuple of names), each worked out on the first question (so a
    question is one dictionary lookup: :meth:`Unit._fields`)."""

    def __missing__(self, name: str | tuple[str, ...] | None) -> tuple[Any, ...]:
        assert name is not None
        got = self[name] = _setting(self[None], name)
        return got


_INDEXES: dict[tuple[Any, ...], Index] = {}
"""Every index worked out in this process, by what it was worked out from (standing, timed and
conferred effects, keywords, datasheet name: effects compare by identity): the units of each new
game (clones of a mustered army's) and units whose effects come back to ones they had read the
answers found before instead of finding them again."""


def profile_group(name: str) -> str:
    """The weapon a profile belongs to: 'Smite - witchfire' and 'Smite - focused witchfire' are
    two profiles of one weapon (the data packs name profiles 'Weapon - profile')."""
    return name.split(" - ", 1)[0].strip().lower()


class ArmyError(BagmError, ValueError):
    """A roster that cannot be played (invalid, or a datasheet without profiles)."""


@dataclass(frozen=True)
class Own:
    """A model's own datasheet profile where it differs from its unit's (a Superior's better
    Save, a Heavy Weapon Platform's OC 0, a Kroot Hound's Move, Gaunt's invulnerable save among
    his Ghosts). Toughness and Move are differences from the unit's characteristics, so a rule
    that changes the unit's (Rad Exposure's -1 Toughness, an Enhancement's +1) changes every
    model's; the saves and OC are the model's own."""

    T: int
    """Its Toughness less the unit's T."""
    M: int
    """Its Move less the unit's M (both after the Flying adaptation's 9" cap)."""
    Sv: int
    invuln: int | None
    invuln_melee: int | None
    OC: int
    r: float | None = None
    """Its base's radius in inches, where its base differs from its unit's main profile's (a
    Heavy Weapon Platform's 40mm among Guardians' 28.5mm); None: the same."""


@dataclass
class Model:
    x: float
    y: float
    r: float
    wounds: int
    full: int | None = None  # its own starting Wounds (another profile's); None: the unit's W
    gear: frozenset[str] | None = None  # the weapons it carries (lower case); None: all
    ld_diff: int = 0  # its own profile's Leadership less the unit's Ld (a Superior's 7+ in 8+: -1)
    own: Own | None = None  # its own profile's other characteristics; None: the unit's
    bearer: bool = False  # it bears its unit's Enhancement (Unit.bearer)

    def carries(self, weapon: str) -> bool:
        return self.gear is None or weapon.lower() in self.gear

    @property
    def base(self) -> Base:
        # kept while the model stays put: building a frozen Base is slow and this is asked
        # tens of thousands of times a game (not a dataclass field: eq, repr, replace ignore it)
        b = self.__dict__.get("_base")
        if b is None or b.x != self.x or b.y != self.y or b.radius != self.r:
            b = self.__dict__["_base"] = Base(self.x, self.y, self.r)
        return b


@dataclass
class Unit:
    uid: str  # "A1", "B3"
    player: Player  # "A" or "B"
    name: str  # the Boarding Squad's display name
    datasheet: Any
    starting: int  # Starting Strength
    points: int
    T: int
    Sv: int
    W: int
    Ld: int
    OC: int
    M: int
    invuln: int | None
    radius: float
    keywords: frozenset[str]
    ranged: list[WeaponProfile]
    melee: list[WeaponProfile]
    warlord: bool = False
    enhancement: str | None = None
    deep_strike: bool = False
    infiltrators: bool = False
    invuln_melee: int | None = None  # an invulnerable save against melee attacks only
    kit: list[tuple[int | None, frozenset[str] | None]] = field(default_factory=list)
    """Each model's (own Wounds, weapons) as mustered, in order; empty: every model alike."""
    kit_ld: list[int] = field(default_factory=list)
    """Each model's Leadership less the unit's Ld as mustered, in order; empty: all have Ld."""
    kit_own: list[Own | None] = field(default_factory=list)
    """Each model's own profile (:class:`Own`) as mustered, in order; empty: every model has the
    unit's characteristics (then the unit plays exactly as a unit of identical models)."""
    model_r: float | None = None
    """The base radius of its models without a base of their own, where some model has its own
    (``radius`` is then the largest base among its models: its formations, paths, doorways and
    Unit Coherency use that one, while each model stands on its own base for Engagement Range,
    visibility and objective range). None: every model on ``radius``."""
    models: list[Model] = field(default_factory=list)
    where: Where = "army"  # army (not yet set up), board, reserves, destroyed
    deep_strike_reserve: bool = False  # placed into Reserves with its Deep Strike ability
    # state of the turn and of lasting effects
    moved: str | None = None  # normal / advance / fallback / stationary
    set_up_turn: int = -1
    shot: bool = False
    charged: bool = False  # made a Charge move this turn
    declared: bool = False  # declared a charge this turn
    fought: bool = False
    manoeuvre: str | None = None
    battleshocked: bool = False
    set_to_defend: bool = False
    overwatch_until: int = -1  # the turn number through which Set Overwatch lasts
    overwatch_used_turn: int = -1
    secure_marker: int | None = None
    secured_turn: int = -1  # the turn it last performed Secure Site
    slew: frozenset[str] = frozenset()  # the keywords of enemy units it has destroyed models of
    hatch_target: tuple[int, str] | None = None  # (phase id, enemy unit) selected beyond a Hatchway
    struck_turn: int = -1  # the turn it arrived by Deep Strike
    dying: int = 0  # its destroyed models that fight once the attacking unit has made its attacks
    dying_foe: str | None = None  # ... shot dead: the enemy unit within Engagement Range where they fell
    _index: tuple[tuple[Any, ...], Index] | None = field(
        default=None, init=False, repr=False, compare=False)
    """Its effects indexed by the fields they set (:meth:`_fields`), with what they were worked
    out from: its standing and timed effects, its conferred Leader ability and its keywords."""
    hatch_turn: int = -1
    clearance: bool = False
    hazard: tuple[str, ...] = ()  # Hazardous tests owed: the weapon of each, until all attacks are made
    volley: tuple[tuple[str, int, int], ...] = ()  # its last shooting: (target, hits, models destroyed) per attack
    hazard_failed: tuple[str, ...] = ()  # failed tests whose mortal wounds wait for a Charge move
    commanded: bool = False  # targeted with Battlefield Command since its last Command phase
    opened_hatch: tuple[int, int] | None = None  # (turn, Hatchway index) of the last Hatchway it opened
    opened: bool = False  # opened a Hatchway this turn ("each time it opens a Hatchway, until the end of the turn")
    marked: frozenset[str] = frozenset()  # the enemy rules that marked it ("select one enemy unit")
    regained: tuple[int, int] = (-1, 0)  # (phase id, wounds regained by an effect in it)
    kills: int = 0  # enemy units its attacks destroyed ("once it has destroyed an enemy unit")
    empowered: int = -1  # Power from Pain: the phase (its id) it was Empowered in, until that phase's end
    revive: tuple[int, float, float] | None = None  # (phase id, x, y): destroyed, to be set back up at the phase's end
    recalled: str | None = None  # the rule that put it into Strategic Reserves during the battle (Stalking Menace)
    held_at: int = -1  # the phase (its id) at whose start it was within range of a marker its army controlled (Raid and Pillage)
    led: Any = None  # (Leader uid, ability name, LeaderAbility) conferred by Battlefield Command
    standing: tuple[tuple[str, Any], ...] = ()
    """Effects (:class:`bagm.data.models.Effect`) that apply to it all battle, each with the rule
    that gives it: its Detachment rule, its Enhancement, its own datasheet abilities."""
    timed: tuple[tuple[str, Any, str], ...] = ()
    """Effects that last until the end of the phase or turn: (rule name, Effect, "phase" or
    "turn"), from a Stratagem used on it (or another rule used at a moment)."""
    move_never_increased: bool = False  # 2023 Flying: a FLY model's Move "cannot be increased"
    late_reserve: bool = False  # placed into Strategic Reserves after the battle began (not destroyed after round 3)
    enemy_auras: tuple[tuple[str, Any], ...] = ()
    """Its abilities' auras on enemy units (Nurgle's Gift), each with the ability's name: the game
    gives the enemy units their copies (muster.spread_enemy_auras)."""
    bearer: int | None = 0
    """Which of its models (in the order they are set up) bears its Enhancement, "the bearer":
    its CHARACTER model where its models have different profiles (see muster.bearer_index),
    else the first; None: no model of this Boarding Squad (its unit's bearer is in the other)."""

    def new_models(self, pts: list[tuple[float, float]]) -> list[Model]:
        """Its models set up at ``pts``, each with its own profile's Wounds and its weapons."""
        b = self.bearer if self.enhancement else None
        if not self.kit and not self.kit_ld and not self.kit_own:
            return [Model(x, y, self.radius, self.W, bearer=i == b) for i, (x, y) in enumerate(pts)]
        out = []
        main = self.radius if self.model_r is None else self.model_r
        for i, (x, y) in enumerate(pts):
            full, gear = self.kit[i] if i < len(self.kit) else (None, None)
            diff = self.kit_ld[i] if i < len(self.kit_ld) else 0
            own = self.kit_own[i] if i < len(self.kit_own) else None
            r = own.r if own is not None and own.r is not None else main
            out.append(Model(x, y, r, full or self.W, full, gear, diff, own, i == b))
        return out

    def bearer_model(self) -> Model | None:
        """The model bearing its Enhancement, while it is alive (None once it is destroyed)."""
        return next((m for m in self.models if m.bearer), None)

    def toughness(self) -> int:
        """The Toughness an attack's Wound roll compares its Strength with ("the target's
        Toughness", Core Rules, Wound Roll). With models of different Toughness (a Runtherd among
        Gretchin): reading, that of the majority of the models left, ties going to the highest.
        The rules texts we have state no general rule; the one they do state (Leader: an
        Attached unit uses its Bodyguard models' Toughness, the body of the unit, even if its
        Leader's differs) points to the unit's main body, and the 9th edition's Mixed Unit rule
        used the majority (ties: the defender's choice, so the highest)."""
        if not self.kit_own or not self.models:
            return self.T
        count: dict[int, int] = {}
        for m in self.models:
            t = self.T + (m.own.T if m.own is not None else 0)
            count[t] = count.get(t, 0) + 1
        return max(count, key=lambda t: (count[t], t))

    def toughest(self) -> int:
        """The highest Toughness among its models: a roll-off that adds "the Toughness
        characteristic of one of the models from their respective units" (Operating Hatchways),
        where the player picks the best."""
        if not self.kit_own or not self.models:
            return self.T
        return self.T + max(0 if m.own is None else m.own.T for m in self.models)

    def saves(self, invuln: int | None, ranged: bool) -> list[tuple[int, int | None]] | None:
        """Each model's (Save, invulnerable save) against an attack, where its models have
        their own profiles ("the Save characteristic of the model the attack was allocated to",
        Core Rules, Saving Throw); ``invuln``: the best an effect gives the unit (None: none).
        None: every model has the unit's."""
        if not self.kit_own:
            return None
        out = []
        for m in self.models:
            o = m.own
            if o is None:
                out.append((self.Sv, self.invuln_against(_better(self.invuln, invuln), ranged)))
            else:
                own = _better(o.invuln, invuln)
                if not ranged and o.invuln_melee is not None:
                    own = _better(own, o.invuln_melee)
                out.append((o.Sv, own))
        return out

    def ranks(self) -> list[int] | None:
        """The defender's choice of the model an attack is allocated to, among models that have
        lost no wounds (Core Rules, Allocate Attack: "the player controlling the target unit
        allocates that attack to one model"), as a rank per model, lowest first: the model whose
        loss costs least -- one of the unit's main profile before one with its own (troopers
        before their Superior, servitors before their character), then one carrying the unit's
        commonest loadout before one with other wargear (a special or heavy weapon, a
        sergeant's), then fewer starting Wounds; index order among equals. The one place this
        choice is made (``TargetUnit.rank``); None when every model ranks alike (in order, as
        before)."""
        models = self.models
        if not self.kit_own and not any(m.gear is not None or m.full for m in models):
            return None
        kits: dict[frozenset[str] | None, int] = {}
        for m in models:
            kits[m.gear] = kits.get(m.gear, 0) + 1
        common = max(kits, key=lambda k: kits[k])  # (the first of equals: dicts keep their order)
        keys = [(m.own is not None, m.gear != common, m.full or self.W) for m in models]
        levels = sorted(set(keys))
        if len(levels) == 1:
            return None
        return [levels.index(k) for k in keys]

    def leadership(self, holds: Callable[[Unit, str, Unit | None], bool] | None = None) -> int:
        """The Leadership a Battle-shock test is taken on: "the best Leadership characteristic
        in that unit" (Core Rules, Battle-shock step), of the models left, so it worsens when
        the model with the best is destroyed; with the unit's modifiers (``Ld``, e.g. Rad
        Exposure); ``holds``: the game's answer to the conditions of effects that need it."""
        ld = self.Ld if not self.kit_ld or not self.models else self.Ld + min(m.ld_diff for m in self.models)
        if self.affected and self.sets("Ld_mod"):  # e.g. Duty and Honour!: "improve the Leadership characteristic by 1"
            ld = max(2, ld + sum(e.Ld_mod for e in self.setting("Ld_mod", holds)))
        return ld

    def invuln_against(self, invuln: int | None, ranged: bool) -> int | None:
        """The invulnerable save against an attack: ``invuln`` (its own, or a conferred one),
        or for a melee attack its save against melee attacks only, when that is better (a
        datasheet's "4+ invulnerable save against melee attacks")."""
        if ranged or self.invuln_melee is None:
            return invuln
        return self.invuln_melee if invuln is None else min(invuln, self.invuln_melee)

    @property
    def mixed(self) -> bool:
        """Its models carry different weapons (the roster names its wargear)."""
        return any(gear is not None for _, gear in self.kit)

    def fulls(self) -> list[int] | None:
        """Each model's starting Wounds, where they differ; None: all have W."""
        if not any(m.full for m in self.models):
            return None
        return [m.full or self.W for m in self.models]

    @property
    def alive(self) -> bool:
        return bool(self.models) and self.where == "board"

    @cached_property
    def longest_range(self) -> float:
        """The longest Range among its ranged weapons (0 without any): a quick bound."""
        return max((w.range or 0 for w in self.ranged), default=0)

    @property
    def is_character(self) -> bool:
        return "CHARACTER" in self.keywords

    @property
    def bases(self) -> list[Base]:
        return [m.base for m in self.models]

    def below_half(self) -> bool:
        """Below Half-strength (Core Rules): fewer than half its Starting Strength, or for a
        one-model unit fewer than half its Wounds."""
        if self.starting == 1:
            return bool(self.models) and self.models[0].wounds * 2 < self.W
        return len(self.models) * 2 < self.starting

    def below_starting(self) -> bool:
        """Below Starting Strength (Core Rules): fewer models than its Starting Strength."""
        return len(self.models) < self.starting

    @property
    def affected(self) -> bool:
        """Some effect applies to it (a conferred Leader ability or a standing rule): callers
        ask this first, so units without any pay nothing."""
        return self.led is not None or bool(self.standing) or bool(self.timed)

    def effects(self, holds: Callable[[Unit, str, Unit | None], bool] | None = None) -> list[Any]:
        """The effects that apply to it now: its standing rules', those used on it for a phase or
        turn, and its conferred Leader ability's (Battlefield Command). One with a condition (below
        Starting Strength or Half-strength, a keyword, a datasheet) applies only while it holds;
        ``holds(unit, state)`` answers the states that need the game ('near_objective',
        'secured_site'), which do not hold without it."""
        return self._now(self._fields()[None], holds)

    def setting(self, name: str | tuple[str, ...],
                holds: Callable[[Unit, str, Unit | None], bool] | None = None) -> list[Any]:
        """The effects that apply to it now (:meth:`effects`) and set field ``name`` to other than
        its default: a lookup of one field (a sum, the least, a flag) reads only these, so a unit
        whose effects never touch that field pays next to nothing. ``name`` a tuple: those setting
        any of the fields (one step of an attack), so only their conditions are looked at."""
        got = self._fields()[name]
        return self._now(got, holds) if got else []

    def sets(self, name: str | tuple[str, ...]) -> bool:
        """Whether some effect that could apply to it (its conditions aside) sets field ``name``."""
        return self.affected and bool(self._fields()[name])

    def _now(self, effects: tuple[Any, ...], holds: Callable[[Unit, str, Unit | None], bool] | None) -> list[Any]:
        """Those of ``effects`` whose changing conditions (``only_while``) hold now."""
        return [e for e in effects if e.only_while is None or all(self.state(c, holds) for c in _listed(e.only_while))]

    def _fields(self) -> Index:
        """Its effects whose fixed conditions hold (key None), and those setting each field asked
        about so far (by field name): worked out again only when its standing or timed effects,
        its conferred Leader ability or its keywords are no longer the ones they were from (the
        tuples are compared, element by element, the same objects at once), and then found in
        ``_INDEXES`` when a unit has had those effects before."""
        kept = self._index
        if kept is not None:
            k = kept[0]  # the same objects (the usual case): no key built
            if k[0] is self.standing and k[1] is self.timed and k[2] is self.led and k[3] is self.keywords:
                return kept[1]
        key = (self.standing, self.timed, self.led, self.keywords)
        if kept is not None and kept[0] == key:
            self._index = (key, kept[1])
            return kept[1]
        name = getattr(self.datasheet, "name", self.name)
        index = _INDEXES.get((key, name))
        if index is None:
            if len(_INDEXES) > 20000:
                _INDEXES.clear()
            index = _INDEXES[key, name] = Index({None: tuple(e for e in self.carried() if fits(e, name, self.keywords))})
        self._index = (key, index)
        return index

    def carried(self) -> list[Any]:
        """Every effect it carries, its conditions aside: its standing rules', those used on it for
        a while, its conferred Leader ability's."""
        out = [e for _, e in self.standing]
        out += [e for _, e, _ in self.timed]
        if self.led is not None:
            out += self.led[2].effects
        return out

    def state(self, cond: str, holds: Callable[[Unit, str, Unit | None], bool] | None = None,
              other: Unit | None = None) -> bool:
        """Whether the unit is in a state an effect's condition names (Effect.only_while,
        target_while); ``holds`` answers those that need the game (``other``: the attacker,
        for a condition on an attack's target)."""
        if cond == "below_starting":
            return self.below_starting()
        if cond == "below_half":
            return self.below_half()
        if cond == "set_to_defend":
            return self.set_to_defend
        if cond == "destroyed_unit":  # "once the bearer has destroyed one or more enemy units"
            return self.kills > 0
        if cond == "opened_hatchway":  # "each time it opens a Hatchway, until the end of the turn"
            return self.opened
        if cond == "charged":  # "if this unit made a Charge move this turn"
            return self.charged
        if cond == "not_battleshocked":  # "unless this model's unit is Battle-shocked"
            return not self.battleshocked
        if cond in YIELD_MODES:  # Prioritised Efficiency: "your units have Hostile Acquisition"
            return any(x[0] == YIELD_MODES[cond] for x in self.timed)
        if cond == "own_model":  # "while this unit contains a Tempestor Prime" (its one other profile)
            return any(m.own is not None or m.full is not None or m.ld_diff for m in self.models)
        if cond == "battleshocked":  # "an attack that targets a Battle-shocked unit" (Tormentors)
            return self.battleshocked
        if cond == "waaagh":  # "while the Waaagh! is active for your army" (a Void Waaagh! counts as one)
            return any(n in ("Waaagh!", "Void Waaagh!") for n, _, _ in self.timed)
        return holds is not None and holds(self, cond, other)

    def source(self, field: str) -> str:
        """The name of the rule that gives it ``field`` (an effect's flag): for events."""
        if self.led is not None and any(getattr(e, field) for e in self.led[2].effects):
            return str(self.led[1])
        return next((name for name, e in self.standing if getattr(e, field)), None) or \
            next((name for name, e, _ in self.timed if getattr(e, field)), "")

    def effect_key(self) -> tuple[Any, ...]:
        """What of its effects can change during a game, for the keys of answers kept on it."""
        return (self.led and self.led[:2], tuple(name for name, _, _ in self.timed))

    def oc(self, model: Model | None = None,
           holds: Callable[[Unit, str, Unit | None], bool] | None = None) -> int:
        """The OC of its models (``model``: that one's, from its own profile where it has one;
        Objective Control sums the models' OC). ``holds``: the game's answer to the conditions
        of effects that need it (without it, such an effect does not apply)."""
        if self.battleshocked:  # Battle-shock: OC 0, or an effect's "Battle-shocked models have an OC of 1"
            return max((e.OC_shocked for e in self.setting("OC_shocked", holds)), default=0) \
                if self.affected else 0
        own = self.OC if model is None or model.own is None else model.own.OC
        if self.affected:  # a conferred Leader ability's or a standing rule's OC modifier
            index = self._fields()
            sets, mods = index["OC_set"], index["OC_mod"]
            if not sets and not mods:
                return max(0, own)
            # "the bearer has an OC characteristic of 5" (the highest such), then modifiers
            values = [e.OC_set for e in self._now(sets, holds)]
            base = max(values) if values else own
            return max(0, base + sum(e.OC_mod for e in self._now(mods, holds)))
        return own

    @property
    def mixed_oc(self) -> bool:
        """Its models have different OC characteristics (a Heavy Weapon Platform's 0)."""
        return bool(self.kit_own) and any(o is not None and o.OC != self.OC for o in self.kit_own)

    def move(self, holds: Callable[[Unit, str, Unit | None], bool] | None = None) -> int:
        """The Move characteristic, with its effects' modifiers (a conferred Leader ability, a
        standing rule); the Flying cap applies at the start of the battle only (Rules Adaptations).
        With models of different Move (Kroot Hounds among Kroot), the slowest model's left: "each
        model in that unit can move a distance ... up to its Move characteristic" (Core Rules,
        Normal Moves) and the engine moves a unit's models in step, so none goes farther than
        its own Move. ``holds``: the game's answer to the conditions of effects that need it."""
        base = self.M
        if self.kit_own and self.models:
            base = max(0, self.M + min(0 if m.own is None else m.own.M for m in self.models))
        if not self.affected:
            return base
        if self.setting("halve_move", holds):  # halved first (Vasov's Auto-Oppressor)
            base = (base + 1) // 2
        move = max(0, base + sum(e.M_mod for e in self.setting("M_mod", holds)))
        return min(move, base) if self.move_never_increased else move

    def label(self) -> str:
        return f"{self.uid} {self.name}"


@dataclass
class Army:
    player: Player
    path: str
    title: str
    faction: str
    detachment: str
    battle_ready: bool
    points: int  # the Army Roster's total (step 1, what the Underdog is decided on)
    units: list[Unit]
    not_modelled: list[str]
    text: str | None = None  # the roster's text as played (an import: the roster it became)
    uses: tuple[Any, ...] = ()
    """Its rules used at a moment (:class:`bagm.engine.rules.uses.Use`): Detachment Stratagems
    supplied as data, Enhancements and its Detachment rule used "once per battle..."."""
    edition: str = "2024"  # the roster's edition of the rules ("edition: 2023"): the game's, at muster
    faction_rules: bool = True  # False: played without its faction's rules (muster.build_army)

    _sets: tuple[list[tuple[Any, ...]], frozenset[str]] | None = field(
        default=None, init=False, repr=False, compare=False)
    """The fields its units' effects set (:meth:`may_set`), with what they were worked out from."""
    offered_index: tuple[tuple[Any, ...], dict[tuple[str, str, bool, bool], tuple[Any, ...]]] | None = field(
        default=None, init=False, repr=False, compare=False)
    """Its ``uses`` offered at each moment in each phase and turn, with the ``uses`` they were
    worked out from (kept by :func:`bagm.engine.game.moments.offered`, which alone reads it)."""

    def may_set(self, name: str) -> bool:
        """Whether an effect one of its units carries (standing, timed or conferred; its conditions
        aside) may set field ``name``: when not, no unit of the army has it, so a scan of the army
        for a rule few armies have (Power from Pain, Acts of Faith, Manhunter's Helm) asks this
        first. Kept while each unit's effects are the ones they were (the same objects)."""
        key = [(u.standing, u.timed, u.led) for u in self.units]
        kept = self._sets
        if kept is None or kept[0] != key:
            got: set[str] = set()
            for u in self.units:
                for e in u.carried():
                    got |= fields_set(e)
            kept = self._sets = (key, frozenset(got))
        return name in kept[1] or _defaults().get(name, _NO_DEFAULT) is _NO_DEFAULT

    @cached_property
    def cost_rules(self) -> bool:
        """Whether a unit has an effect that changes what a Stratagem costs or brings back
        (:mod:`bagm.engine.rules.stratagem_costs`)."""
        return any(e.stratagem_cost_mod or e.stratagem_tax is not None or e.stratagem_refund is not None
                   or e.stratagem_refund_own is not None for u in self.units for _, e in u.standing)

    @cached_property
    def cost_mods(self) -> bool:
        """Whether a unit has an effect that changes what a Stratagem costs (not only what it brings
        back): a game without one pays nothing to price a Stratagem."""
        return any(e.stratagem_cost_mod or e.stratagem_tax is not None for u in self.units for _, e in u.standing)

    @cached_property
    def rushers(self) -> bool:
        """Whether a unit has an effect that moves it just after an enemy unit has shot
        (``rush_move``): the shooting phase asks no more of an army without one."""
        return any(e.rush_move is not None for u in self.units for _, e in u.standing)

    def clone(self) -> Army:
        """A fresh copy for a new game (datasheets and weapons are shared: they never change)."""
        units = [replace(u, models=[replace(m) for m in u.models]) for u in self.units]
        return replace(self, units=units, not_modelled=list(self.not_modelled))


def _profile(ds: Any) -> Any:
    """The model profile used for every model of the unit: the one with the most models."""
    if not ds.models:
        raise ArmyError(f"datasheet '{ds.name}' has no model profile; the engine cannot play it")

    def top(p: Any) -> int:
        c = (p.count or "1").split("-")[-1]
        return int(c) if c.isdigit() else 1
    return max(ds.models, key=top)
