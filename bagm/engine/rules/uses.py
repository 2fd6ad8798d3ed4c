"""Rules used at a moment, as the game offers them: a Detachment Stratagem supplied as data, an
Enhancement or a Detachment rule used "once per battle, at the start of your Command phase...".

Each is one small value built at muster from the pack's facts (:class:`bagm.data.models.Moment`
and its :class:`~bagm.data.models.Stratagem`): when, on which unit, how often, and the effects
(the :class:`bagm.data.models.Effect` vocabulary) it gives that unit until the end of the phase or
turn. :mod:`bagm.engine.game.moments` offers them; adding one touches no phase code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from bagm.data.timings import TIMINGS


@dataclass(frozen=True)
class Use:
    """One rule used at a moment. ``kind``: "Stratagem" (Core Rules "Stratagems": CP, once per
    phase, never on a Battle-shocked unit), "Enhancement" or "Detachment rule" (free, as often
    as ``once`` says)."""

    name: str
    kind: str
    when: str
    effects: tuple[Any, ...]
    cp: int = 0
    phase: str | None = None  # only in this phase
    turn: str = "either"  # "yours", "opponents" or "either"
    target_keywords: frozenset[str] = frozenset()  # the target has all of these
    bearer: str | None = None  # an Enhancement's: only its bearer's unit (uid)
    until: str = "phase"  # its effects last until the end of the "phase" or "turn"
    once: str = "phase"  # once per "phase", "turn", "round" or "battle"
    within: float | None = None  # an Enhancement's: a friendly unit within X" of the bearer's unit
    visible: bool = False  # ... and visible to it
    reach_straight: float | None = None  # ... or within X" of it in a straight line (Master Vox)
    target_units: frozenset[str] = frozenset()  # the target's datasheet name (casefolded) is one of these
    group: str | None = None  # a choice's rule: the alternatives share its "once"
    anywhere: bool = False  # an Enhancement's: any friendly unit is its target
    shocked: bool = False  # its target is Battle-shocked
    enemy: bool = False  # its target is an enemy unit
    hit: bool = False  # ... hit by the attacks the unit just made
    acting: bool = False  # ... the one the moment is about (enemy_attempt)
    engaged: bool = False  # ... within Engagement Range of the bearer's unit
    test: str | None = None  # the target's test first ("leadership"): effects only if failed
    test_mod: int = 0
    after_kill: bool = False  # only if the attacks the unit just made destroyed an enemy unit
    test_pass: bool = False  # the effects on a passed test
    test_mod_keyword: str | None = None  # test_mod only for a target with this keyword
    unshocked: bool = False  # its target is not Battle-shocked
    pain: int = 0  # it costs this many Pain tokens (Power from Pain)
    empower: bool = True  # ... and Empowers its target
    self_test: str | None = None  # its target takes this test first (Dark Pacts: "leadership")
    self_test_mortals: Any = None  # ... failed: this many mortal wounds (a dice expression)
    self_test_forsake: bool = False  # ... failed: the target never uses the rule again
    army: bool = False  # its effects go to every unit in ``holders`` (one use for the army)
    holders: frozenset[str] = frozenset()  # a datasheet ability's: the units that have it (uids)
    once_each: bool = False  # a choice: each alternative once per battle too
    first_round: bool = False  # only in the first battle round
    lacks: frozenset[str] = frozenset()  # an enemy target has none of these keywords
    pool: int = 0  # D6 rolled for the rule at the start of each battle round (Blessings of Khorne)
    pool_needs: tuple[str, ...] = ()  # ... this alternative needs one of these ("double 5", "triple 2")
    times: int | None = None  # at most this many uses in the battle
    per_phase: int | None = None  # up to this many uses in each phase (by each unit that has it)
    one_at_a_time: bool = False  # a new use on a unit ends the effects of the last one on it
    spends: str | None = None  # it spends one token of this rule's pool (Battle Focus), on one of ``holders``
    gain: int = 0  # ... of which the army receives this many at the start of each battle round

    def __post_init__(self) -> None:
        if self.when not in TIMINGS:
            raise ValueError(f"{self.kind} '{self.name}': no timing '{self.when}' ({', '.join(TIMINGS)})")

    @cached_property
    def reserves(self) -> float | None:
        """Its effect's ``to_reserves``: the target goes into Strategic Reserves, if more than X" from
        every enemy unit."""
        return next((e.to_reserves for e in self.effects if getattr(e, "to_reserves", None) is not None), None)

    @cached_property
    def shocks(self) -> Any:
        """Its effect that makes every enemy unit take a Battle-shock test at once (``shock_all``)."""
        return next((e for e in self.effects if getattr(e, "shock_all", None) is not None), None)

    @cached_property
    def moves(self) -> bool:
        """Its effects include a Normal move made at once (``free_move``, ``free_move_roll``)."""
        return any(getattr(e, "free_move", None) is not None or getattr(e, "free_move_roll", None) is not None
                   for e in self.effects)

    @cached_property
    def opens(self) -> Any:
        """Its effect that opens a Hatchway at once (``open_hatch``), if any."""
        return next((e for e in self.effects if getattr(e, "open_hatch", None) is not None), None)

    @cached_property
    def returns(self) -> Any:
        """Its effect that returns destroyed models at once (``return_models``), if any."""
        return next((e for e in self.effects if getattr(e, "return_models", None) is not None), None)

    @cached_property
    def secures(self) -> str | None:
        """Its effects Secure an objective marker at once (``secure_now``): how."""
        return next((e.secure_now for e in self.effects if getattr(e, "secure_now", None)), None)

    @cached_property
    def stratagem(self) -> bool:
        return self.kind == "Stratagem"


def use_of(data: Any, name: str, kind: str, bearer: str | None = None,
           holders: frozenset[str] = frozenset()) -> Use | None:
    """The :class:`Use` of a pack's Moment or Stratagem entry ``data`` (None: no modelled effects)."""
    if data.effects is None:
        return None
    name = getattr(data, "rule", None) or name  # a second rule the ability gives (Void Waaagh!)
    choice = getattr(data, "choice", None)
    group, name = (name, f"{name}: {choice}") if choice else (None, name)
    return Use(name, kind, data.when, tuple(data.effects), cp=getattr(data, "cp", 0), phase=data.phase,
               turn=data.turn, target_keywords=frozenset(data.target_keywords), bearer=bearer,
               until=data.until, once=data.once, within=getattr(data, "within", None),
               visible=getattr(data, "visible", False), reach_straight=getattr(data, "reach_straight", None),
               target_units=frozenset(n.casefold() for n in getattr(data, "target_units", ())), group=group,
               anywhere=getattr(data, "target_any", False), shocked=getattr(data, "target_battleshocked", False),
               enemy=getattr(data, "enemy", False), hit=getattr(data, "target_hit", False),
               acting=getattr(data, "acting", False),
               engaged=getattr(data, "target_engaged", False), test=getattr(data, "test", None),
               test_mod=getattr(data, "test_mod", 0), after_kill=getattr(data, "after_kill", False),
               test_pass=getattr(data, "test_pass", False), test_mod_keyword=getattr(data, "test_mod_keyword", None),
               unshocked=getattr(data, "target_unshocked", False),
               pain=getattr(data, "pain", 0), empower=getattr(data, "empower", True), self_test=getattr(data, "self_test", None),
               self_test_mortals=getattr(data, "self_test_mortals", None),
               self_test_forsake=getattr(data, "self_test_forsake", False),
               army=getattr(data, "army", False), holders=holders,
               once_each=getattr(data, "once_each", None) == "battle", first_round=getattr(data, "first_round", False),
               lacks=frozenset(getattr(data, "target_lacks", ())),
               pool=getattr(data, "pool", 0), pool_needs=tuple(getattr(data, "pool_needs", ())),
               times=getattr(data, "times", None), per_phase=getattr(data, "per_phase", None),
               one_at_a_time=getattr(data, "one_at_a_time", False))
