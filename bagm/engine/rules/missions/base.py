"""The mission machinery: a mission is an entry registered by its book name (and number); its
Mission Rules are entries hooked on named steps of the mission sequence (or answering the few
questions the phases ask a mission: which Entry Zones, who takes the first turn); its Mission
Objectives are Progressive or End Game scorers with their timing.

Named steps the game calls (``Game.mission.run(step, game)``), listed in :data:`STEPS`.
Decisions a Mission Rule asks of a player come through :meth:`Mission.decide` (a generator the
phase code runs with ``yield from`` at a named step) as a ``Decision("rule", player, {"rule":
NAME, "options": [...]})`` whose legal actions are ``rule OPTION`` for each option, and
``pass`` unless the rule must be used (``"must": True``).

The shared pieces several missions use live here: the "rounds 2-4 at the end of the Command
phase, in round 5 the second player at the end of their turn" timing (:func:`take_and_hold`),
first-turn overrides (``MissionRule.first_turn``), Entry Zone kinds by role
(``MissionRule.zone_kinds``), new Tactical Manoeuvres (``MissionRule.manoeuvre``), mortal
wounds from a rule (:func:`suffer_mortal_wounds`), starting VP and VP passing between players (:func:`start_vp`,
:func:`take_vp`), and Hatchways a rule opens or closes (:func:`set_hatchways`). Jailbreak added:
a rule barring a set-up in Deploy Armies (``MissionRule.deploying``), areas no unit is set up
within (``barred``), a rule's own roll when a unit tries a Hatchway (``attempt``), following
where a unit stands as it moves and loses models (``watch``), and asking a player at the start
of a battle round (``step="start_round"`` with ``ask``).
Power the Generators added: models a rule counts as within Engagement Range in the Fight phase
though they are not (``fight_link`` and ``pile_toward``: Fighting Between Decks, two levels
apart), and asking a player at the end of the Movement phase (``step="movement"``: Change Level).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bagm.engine.rules.registry import Registry
from bagm.engine.state import events as ev
from bagm.engine.state.core import PLAYERS

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.board.battlefield import Area
    from bagm.engine.board.geometry import Base
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.game.sequence import Game
    from bagm.engine.state.actions import Action
    from bagm.engine.state.army import Unit
    from bagm.engine.state.core import Decision, Player

STEPS = ("muster", "start_deploy", "deploy", "start_round", "start_turn", "start_command",
         "command", "end_command", "movement", "end_movement", "end_shooting", "end_charge",
         "end_fight", "end_turn", "end_round", "end_battle")
"""The named steps of the mission sequence a Mission Rule or Objective may act at
(``start_deploy``: the start of the Deploy Armies step; ``deploy``: its end; ``start_command``:
the start of a Command phase; ``command``: the Command phase after its Battle-shock step, where
a player may use a rule such as Unlock Overrides; ``end_command``: its end, where most
Progressive Objectives score; ``movement``: the end of the Movement phase, after
Reinforcements, where a player may use a rule such as Change Level, just before
``end_movement``)."""

Hook = Callable[["Game"], None]
# a scorer's VP: (vp, why) or (vp, why, the uids of the units it credits, for the log)
Score = tuple[int, str] | tuple[int, str, list[str]]
Scorer = Callable[["Game", "Player"], Sequence[Score]]
When = Callable[["Game", str, "Player"], bool]  # (game, step, player): does the objective score now
Ask = Callable[["Game"], "Generator[Decision, Action, None]"]
# the rules that answer the phases' questions (secure, hatchway, manoeuvres, shooting, charging,
# move_mod, weapon, removed) are given the game as the phases see it: the declared interface
# (game/interface.py), so they use only what it declares


@dataclass(frozen=True)
class MissionRule:
    """One of a mission's Mission Rules, by its book name, with the one-line citation of where
    the book states it, and how it acts: at a named step (``step`` and ``apply``), by asking a
    player (``ask``, at ``step``), or by answering one of the questions the phases ask (first
    turn, Entry Zone kinds, Secure Site, operating a Hatchway, a new Tactical Manoeuvre)."""

    name: str
    section: str
    step: str | None = None
    apply: Hook | None = None
    ask: Ask | None = None  # a decision of a player at ``step`` (see Mission.decide)
    first_turn: str | None = None  # "Attacker" or "Defender": that player has the first turn
    # Secure Site: (game, unit, marker) -> "" (allowed), a reason it is not, or None (as usual)
    secure: Callable[[GameInterface, Unit, int], str | None] | None = None
    # Operating Hatchways: (game, unit, Hatchway) -> why the unit may not operate it, or None
    hatchway: Callable[[GameInterface, Unit, int], str | None] | None = None
    # a Tactical Manoeuvre the rule adds: its word in the action ("manoeuvre A3 burners"), why
    # a unit may not perform it now (None: it may), and what performing it does
    manoeuvre: str | None = None
    manoeuvre_reason: Callable[[GameInterface, Unit], str | None] | None = None
    perform: Callable[[GameInterface, Unit], None] | None = None
    # why a core Tactical Manoeuvre ("defend", "overwatch") is barred now (None: it is not)
    core_manoeuvre: Callable[[GameInterface, Unit, str], str | None] | None = None
    # ranged attacks of a unit at a target: (the farthest a model may be to make them, or None;
    # a Hit roll modifier)
    shooting: Callable[[GameInterface, Unit, Unit], tuple[float | None, int]] | None = None
    # a charge of a unit at a target: (why it may not be the target, or None; a Charge roll modifier)
    charging: Callable[[GameInterface, Unit, Unit], tuple[str | None, int]] | None = None
    # a player cannot gain CP now (Communications Network)
    blocks_cp: Callable[[Game, Player], bool] | None = None
    # an objective marker removed from the battlefield: no player controls it
    removed: Callable[[GameInterface, int], bool] | None = None
    # a unit's Move for a move of a kind ("move", "advance", "fallback"): the modifier
    move_mod: Callable[[GameInterface, Unit, str], int] | None = None
    # attacks allocated to a model of a unit: for each model, by how much their AP improves
    # (Deadly Decompression: a model in the vented Compartment); None: for no model
    allocated_ap: Callable[[GameInterface, Unit], list[int] | None] | None = None
    # extra Entry Zone kinds (map ``kind:``) a player may use: (game, player, deploying) -> kinds
    zone_kinds: Callable[[GameInterface, Player, bool], tuple[str, ...]] | None = None
    # Deploy Armies: why player p may not set a unit up in their Entry Zone z now (z None: place
    # it into Reserves), or None (Prison Guards: the last unit goes to the Guard Entry Zone)
    deploying: Callable[[GameInterface, Player, int | None], str | None] | None = None
    # areas a unit may not be set up within, by any rule (the Prison Cells, but for the prisoner)
    barred: Callable[[GameInterface, Unit], tuple[Area, ...]] | None = None
    # a unit attempts to operate a Hatchway: False when the attempt fails (the rule's own roll)
    attempt: Callable[[GameInterface, Unit, int], bool] | None = None
    # told of the units whose models moved, were removed or were set up (touch(); none named:
    # any unit may have): a rule that follows where a unit stands (Imprisoned)
    watch: Callable[[GameInterface, tuple[Unit, ...]], None] | None = None
    # Fight phase: two models of opposing units count as visible to and within Engagement Range
    # of each other though they are not (Fighting Between Decks): (game, model, enemy model)
    fight_link: Callable[[GameInterface, Base, Base], bool] | None = None
    # the same for whole units: the opposing units with a model ``fight_link`` joins to one of
    # ``u``'s (a quick answer: the Fight phase asks it of every unit again and again)
    fight_units: Callable[[GameInterface, Unit], list[Unit]] | None = None
    # Fight phase: the point a unit's models Pile in and Consolidate toward instead of the
    # closest enemy model, when it fights ``t`` through ``fight_link`` (None: as usual)
    pile_toward: Callable[[GameInterface, Unit, Unit], tuple[float, float] | None] | None = None


@dataclass(frozen=True)
class Objective:
    """A Mission Objective: Progressive (scored during the battle at ``steps`` when ``when``
    says so) or End Game (scored at the end of the battle)."""

    name: str
    section: str
    kind: str  # "progressive" or "end_game"
    steps: tuple[str, ...]
    score: Scorer | None = None
    whose: str = "active"  # "active": the player whose turn it is; "both": each player
    when: When | None = None
    # an objective that moves VP rather than scoring them (Destroy Ground Targets): run at each step
    apply: Callable[[Game, str], None] | None = None
    # a control objective: its VP credit the player's units within range of markers it controls
    # (for the log: game.controlling_units; decides no rule)
    credit_control: bool = False

    @property
    def step(self) -> str:
        return self.steps[0]


@dataclass
class Mission:
    """One game's mission: its rules, objectives and the state its rules keep."""

    number: int
    name: str
    kind: str = "symmetric"
    rules: list[MissionRule] = field(default_factory=list)
    objectives: list[Objective] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)
    """Mission Rules (or parts) the engine does not play: listed in every game's output."""
    rounds: int = 5
    # what the rules remember during a game lives in game.mission_state (copied by a clone):
    # the Mission itself is shared by clones and never changes
    watching: bool = field(init=False, default=False)
    """A Mission Rule follows where units stand (``MissionRule.watch``): set once, read on every
    change of the battlefield."""

    removing: bool = field(init=False, default=False)
    """A Mission Rule can remove objective markers (``MissionRule.removed``): set once, read
    wherever objective control is worked out."""

    def __post_init__(self) -> None:
        self.watching = any(r.watch is not None for r in self.rules)
        self.removing = any(r.removed is not None for r in self.rules)

    def run(self, step: str, game: Game) -> None:
        """Run the mission rules and score the objectives of a named step."""
        if step == "start_turn" and any(r.shooting or r.charging for r in self.rules):
            game.touch()  # effects "until the end of the turn" end: answers kept on them go
        for rule in self.rules:
            if rule.step == step and rule.apply is not None:
                rule.apply(game)
        for obj in self.objectives:
            if step not in obj.steps:
                continue
            if obj.apply is not None:
                obj.apply(game, step)
                continue
            players: list[Player] = [game.active] if obj.whose == "active" else list(PLAYERS)
            for p in players:
                if obj.when is not None and not obj.when(game, step, p):
                    continue
                got_all = list(obj.score(game, p)) if obj.score is not None else []
                units = game.controlling_units(p) if obj.credit_control and got_all else None
                for got in got_all:
                    credited = got[2] if len(got) > 2 else units  # type: ignore[misc]
                    game.score(p, got[0], f"{obj.name}: {got[1]}", credited)

    def decide(self, step: str, game: Game, act: bool = True) -> Generator[Decision, Action, None]:
        """The Mission Rules of a named step where a player may be asked (``yield from``): in
        their order, those that ask a player and (``act``) those that simply act (Desperate
        Measures); ``act`` False at a step whose acting rules :meth:`run` has run already."""
        for rule in self.rules:
            if rule.step == step and rule.ask is not None:
                yield from rule.ask(game)
            elif act and rule.step == step and rule.apply is not None:
                rule.apply(game)

    def secure_reason(self, game: GameInterface, u: Unit, marker: int) -> str | None:
        """Why ``u`` may not perform Secure Site on ``marker`` (None: it may, as far as its
        keywords and the Mission Rules go). Core: only BATTLELINE units; a Mission Rule may lift
        that (Control Node, Worth Dying For) or forbid a marker; an effect may let it act as if
        BATTLELINE or forbid it (a Detachment rule)."""
        secure = _secure_effect(u)
        if secure == "never":
            return "cannot perform Secure Site (its Detachment rule)"
        for rule in self.rules:
            if rule.secure is not None:
                why = rule.secure(game, u, marker)
                if why is not None:
                    return why or None
        return None if "BATTLELINE" in u.keywords or secure == "battleline" else "is not BATTLELINE"

    def hatchway_reason(self, game: GameInterface, u: Unit, index: int) -> str | None:
        """Why a Mission Rule stops ``u`` operating Hatchway ``index`` (None: it does not)."""
        for rule in self.rules:
            if rule.hatchway is not None:
                why = rule.hatchway(game, u, index)
                if why:
                    return why
        return None

    def manoeuvres(self, game: GameInterface, u: Unit) -> list[str]:
        """The Tactical Manoeuvres the Mission Rules let ``u`` perform now (their words)."""
        return [r.manoeuvre for r in self.rules if r.manoeuvre is not None and
                (r.manoeuvre_reason is None or r.manoeuvre_reason(game, u) is None)]

    def manoeuvre_reason(self, game: GameInterface, u: Unit, word: str | None) -> str | None:
        """Why ``u`` may not perform the Tactical Manoeuvre ``word`` (None: it may)."""
        for r in self.rules:
            if r.manoeuvre == word:
                return r.manoeuvre_reason(game, u) if r.manoeuvre_reason is not None else None
        return f"there is no Tactical Manoeuvre '{word}' in this mission"

    def perform(self, game: GameInterface, u: Unit, word: str | None) -> None:
        """``u`` performs the Mission Rule's Tactical Manoeuvre ``word``."""
        for r in self.rules:
            if r.manoeuvre == word and r.perform is not None:
                r.perform(game, u)

    def core_manoeuvre_reason(self, game: GameInterface, u: Unit, word: str) -> str | None:
        """Why a Mission Rule bars ``u`` from the core Tactical Manoeuvre ``word`` now."""
        for r in self.rules:
            if r.core_manoeuvre is not None and (why := r.core_manoeuvre(game, u, word)):
                return why
        return None

    def ranged(self, game: GameInterface, u: Unit, t: Unit) -> tuple[float | None, int]:
        """Mission Rules on ranged attacks of ``u`` at ``t``: the farthest a model may be from
        the target to make them (None: no limit), and the Hit roll modifier."""
        cap: float | None = None
        mod = 0
        for r in self.rules:
            if r.shooting is not None:
                c, m = r.shooting(game, u, t)
                cap = c if cap is None else (cap if c is None else min(cap, c))
                mod += m
        return cap, mod

    def charge(self, game: GameInterface, u: Unit, t: Unit) -> tuple[str | None, int]:
        """Mission Rules on a charge of ``u`` at ``t``: why ``t`` may not be its target (None:
        it may), and the Charge roll modifier."""
        mod = 0
        for r in self.rules:
            if r.charging is not None:
                why, m = r.charging(game, u, t)
                if why:
                    return why, 0
                mod += m
        return None, mod

    def move_modifier(self, game: GameInterface, u: Unit, kind: str) -> int:
        """The Mission Rules' modifier to ``u``'s Move for a move of ``kind``."""
        return sum(r.move_mod(game, u, kind) for r in self.rules if r.move_mod is not None)

    def allocated_ap(self, game: GameInterface, t: Unit) -> list[int] | None:
        """For each model of ``t``, by how much the Mission Rules improve the AP of an attack
        allocated to it (None: for no model)."""
        out: list[int] | None = None
        for r in self.rules:
            if r.allocated_ap is not None and (got := r.allocated_ap(game, t)) is not None:
                out = got if out is None else [a + b for a, b in zip(out, got)]
        return out

    def deploy_reason(self, game: GameInterface, p: Player, zone: int | None) -> tuple[str, str] | None:
        """(the rule, why) a Mission Rule bars player ``p`` from setting a unit up in their
        Entry Zone ``zone`` (None: placing it into Reserves) in Deploy Armies now; None: it does not."""
        for r in self.rules:
            if r.deploying is not None and (why := r.deploying(game, p, zone)):
                return r.name, why
        return None

    def barred(self, game: GameInterface, u: Unit) -> tuple[Area, ...]:
        """The areas a Mission Rule bars ``u`` from being set up within (by any rule)."""
        out: tuple[Area, ...] = ()
        for r in self.rules:
            if r.barred is not None:
                out += r.barred(game, u)
        return out

    def attempt(self, game: GameInterface, u: Unit, index: int) -> bool:
        """``u`` attempts to operate Hatchway ``index``: False when a Mission Rule makes the
        attempt fail (its roll, e.g. Imprisoned's D6 against Toughness)."""
        return all(r.attempt(game, u, index) for r in self.rules if r.attempt is not None)

    def watch(self, game: GameInterface, moved: tuple[Unit, ...]) -> None:
        """Tell the rules that follow where units stand of a change (see ``watching``)."""
        for r in self.rules:
            if r.watch is not None:
                r.watch(game, moved)

    @property
    def fights_between(self) -> bool:
        """A Mission Rule links models that are not within Engagement Range (see ``fight_link``)."""
        return any(r.fight_link is not None for r in self.rules)

    def linked(self, game: GameInterface, a: Base, b: Base) -> bool:
        """In the Fight phase a Mission Rule counts models ``a`` and ``b`` (opposing) as visible
        to and within Engagement Range of each other (Fighting Between Decks)."""
        return any(r.fight_link is not None and r.fight_link(game, a, b) for r in self.rules)

    def fight_links(self, game: GameInterface, u: Unit) -> list[Unit]:
        """The enemy units a Mission Rule counts as within Engagement Range of ``u`` now (some
        pair of their models :meth:`linked`), in army order; [] at once for most missions."""
        if not self.fights_between or game.phase != "fight" or not u.alive:
            return []
        out: list[Unit] = []
        for r in self.rules:
            if r.fight_units is not None:
                got = r.fight_units(game, u)
            elif r.fight_link is not None:
                link = r.fight_link
                got = [e for e in game.army_units(game.other(u.player))
                       if any(link(game, m.base, n.base) for m in u.models for n in e.models)]
            else:
                continue
            out += [e for e in got if e not in out]
        return out

    def pile_point(self, game: GameInterface, u: Unit, t: Unit) -> tuple[float, float] | None:
        """Where ``u``'s models Pile in or Consolidate toward when fighting ``t`` by a Mission
        Rule (None: toward the closest enemy model, as usual)."""
        for r in self.rules:
            if r.pile_toward is not None and (p := r.pile_toward(game, u, t)) is not None:
                return p
        return None

    def blocks_cp(self, game: Game, p: Player) -> bool:
        """A Mission Rule stops player ``p`` gaining CP now."""
        return any(r.blocks_cp is not None and r.blocks_cp(game, p) for r in self.rules)

    def removed(self, game: GameInterface, marker: int) -> bool:
        """A Mission Rule has removed objective marker ``marker`` from the battlefield."""
        return self.removing and any(r.removed is not None and r.removed(game, marker) for r in self.rules)

    def first_player(self, game: Game) -> Player | None:
        """The player a Mission Rule gives the first turn (None: roll off)."""
        for rule in self.rules:
            if rule.first_turn is not None:
                p = next(q for q in PLAYERS if game.role.get(q) == rule.first_turn)
                game.emit(ev.FirstTurn(e="first_turn", player=p, why=rule.name))
                return p
        return None

    def entry_zones(self, game: GameInterface, p: Player) -> list[Area]:
        """The Entry Zones player ``p`` may use now: the plain ones of their role, and the
        kinds a Mission Rule opens to them (in the Deploy Armies step or afterwards)."""
        deploying = game.phase == "deploy" and game.round == 0  # the Deploy Armies step, not round 1
        kinds = {"Entry Zone"}
        for rule in self.rules:
            if rule.zone_kinds is not None:
                kinds.update(rule.zone_kinds(game, p, deploying))
        return [z for z in game.map.layout.entry_zones_of(game.role[p]) if z.kind in kinds]



@dataclass(frozen=True)
class MissionEntry:
    """A playable mission: its book name and number, and how to set up a fresh one."""

    name: str
    number: int
    build: Callable[[], Mission]


MISSIONS: Registry[MissionEntry] = Registry("mission")


def register(name: str, number: int, build: Callable[[], Mission]) -> MissionEntry:
    return MISSIONS.register(MissionEntry(name, number, build), aliases=(str(number),))


def get_mission(number: int | str) -> Mission:
    """A fresh mission, by its number or its book name."""
    entry = MISSIONS.get(str(number))
    if entry is None:
        raise ValueError(f"mission {number} is not playable yet; playable: "
                         f"{', '.join(f'{e.number} {e.name}' for e in sorted(MISSIONS, key=_order))}")
    return entry.build()


def _order(e: MissionEntry) -> tuple[int, int]:
    return (e.number < 10, e.number)  # the book's order: symmetric 11-33, then asymmetric 1-6


# --- shared pieces ------------------------------------------------------------------------------

def underdog_cp(section: str) -> MissionRule:
    """The usual Underdog Bonus: the Underdog starts the battle with 1 additional CP."""
    def apply(game: Game) -> None:
        if game.underdog is not None:
            game.gain_cp(game.underdog, 1, "Underdog Bonus")
    return MissionRule("Underdog Bonus", section, "muster", apply)


def take_and_hold(game: Game, step: str, p: Player) -> bool:
    """The timing of the symmetric missions' Progressive Objectives (e.g. Mission 12 "Take and
    Hold"): in battle rounds 2-4 at the end of each player's Command phase; in round 5 the
    player with the first turn at the end of their Command phase, the player with the second
    turn at the end of their turn instead."""
    if step == "end_command":
        return 2 <= game.round <= 4 or (game.round == 5 and p == game.first)
    if step == "end_turn":
        return game.round == 5 and p != game.first
    return False


TAKE_AND_HOLD_STEPS = ("end_command", "end_turn")


def controlled(game: GameInterface, p: Player) -> list[int]:
    """The objective markers (indexes) player ``p`` controls."""
    return [i for i, c in enumerate(game.control) if c == p]


def labelled(game: GameInterface, label: str) -> list[int]:
    """The objective markers (indexes) with a label (case as written on the map)."""
    return [i for i, m in enumerate(game.map.layout.markers) if m.label == label]


def marker_counts(game: Game, p: Player, thresholds: Iterable[int] = (1, 2),
                  more: bool = True) -> list[tuple[int, str]]:
    """5VP for each of: controlling ``n`` or more markers (each threshold), and (``more``)
    controlling more markers than the opponent."""
    mine, theirs = len(controlled(game, p)), len(controlled(game, game.other(p)))
    out = [(5, f"controls {n}+ objective markers") for n in thresholds if mine >= n]
    if more and mine > theirs:
        out.append((5, "controls more objective markers than the opponent"))
    return out


def warlord_destroyed(game: Game, p: Player) -> bool:
    """Player ``p``'s WARLORD is destroyed."""
    return any(u.warlord and u.where == "destroyed" for u in game.armies[p].units)


def held(book: str, name: str, score: Scorer) -> Objective:
    """A Progressive Objective scored for what a player controls, at the symmetric missions'
    timing (:func:`take_and_hold`); its VP credit the units within range of the markers held."""
    return Objective(name, f"{book}, Mission Objectives: {name}", "progressive", TAKE_AND_HOLD_STEPS, score,
                     when=take_and_hold, credit_control=True)


def at_end(book: str, name: str, score: Scorer, credit_control: bool = True) -> Objective:
    """An End Game Objective: each player scores it at the end of the battle."""
    return Objective(name, f"{book}, Mission Objectives: {name}", "end_game", ("end_battle",), score,
                     whose="both", credit_control=credit_control)


def cut_off_the_head(section: str, vp: int) -> Objective:
    """Cut Off the Head (several missions): at the end of the battle, each player scores ``vp``
    if the opponent's WARLORD is destroyed."""
    def score(game: Game, p: Player) -> list[tuple[int, str]]:
        return [(vp, "the opponent's WARLORD is destroyed")] if warlord_destroyed(game, game.other(p)) else []
    return Objective("Cut Off the Head", section, "end_game", ("end_battle",), score, whose="both")


def player_of(game: GameInterface, role: str) -> Player:
    """The player ("A" or "B") with a role ("Attacker" or "Defender")."""
    return next(q for q in PLAYERS if game.role.get(q) == role)


def start_vp(game: Game, p: Player, vp: int, why: str) -> None:
    """A player starts the battle with VP (e.g. Pull Their Teeth: the Attacker's 60VP): they
    count toward the 90VP cap of mission objectives as every other VP does."""
    game.score(p, vp, why)


def take_vp(game: Game, loser: Player, gainer: Player, vp: int, why: str) -> None:
    """VP passing from one player to the other (Destroy Ground Targets): subtract ``vp`` from
    ``loser`` (to a minimum of 0VP) and ``gainer`` scores ``vp`` (the whole amount: the text
    gives the Defender the VP whatever the Attacker had left)."""
    game.lose_vp(loser, vp, why)  # recorded as VP taken in the round, not negative VP scored
    game.score(gainer, vp, why)


def within(area: Area, u: Unit) -> bool:
    """A unit is within an area when any of its models is (Core Rules: "within")."""
    return any(area.within(m.base) for m in u.models)


def suffer_mortal_wounds(game: GameInterface, u: Unit, amount: int, why: str) -> None:
    """``u`` suffers ``amount`` mortal wounds (Core Rules "Mortal Wounds": allocated one at a
    time, excess carrying on to the next model), a conferred Feel No Pain taken into account."""
    from bagm.engine.attack.sequence import TargetUnit
    from bagm.engine.rules.abilities import models_destroyed
    from bagm.engine.rules.effects import effect_defence, effect_fnp_mortal

    if amount <= 0 or not u.models:
        return
    tu = TargetUnit([m.wounds for m in u.models], u.W, fulls=u.fulls(), rank=u.ranks())
    if u.affected:
        tu.fnp, tu.fnp_mortal = effect_defence(u)[1], effect_fnp_mortal(u)
    lost = tu.mortal_wounds(amount, game.dice, spill=True, reason=why)
    if tu.fnp_saved:
        from bagm.engine.rules.army_rules import fnp_pain

        fnp_pain(game, u, tu.fnp_saved)  # e.g. Regenerative Agony
    for m, left in zip(u.models, tu.wounds):
        m.wounds = left
    dead = [m for m in u.models if m.wounds <= 0]
    u.models = [m for m in u.models if m.wounds > 0]
    if dead:
        game.touch(u)
    game.emit(ev.MortalWounds(e="mortal_wounds", unit=u.uid, amount=amount, lost=lost, why=why))
    models_destroyed(game, u, dead)  # e.g. Deadly Demise
    game.check_destroyed(u)


def set_hatchways(game: Game, indexes: Iterable[int], open_: bool, why: str) -> None:
    """Open or close Hatchways by a Mission Rule: it cannot be prevented (no roll-off, no
    Overwatch window), and it acts on every Hatchway named whoever stands near it."""
    changed = []
    for i in indexes:
        if game.bf.is_open(i) != open_ and (open_ or i not in game.hatch_jammed):  # (Brutal Entrance)
            game.bf.set_open(i, open_)
            changed.append(i + 1)
    if changed:
        game.touch()
        game.emit(ev.Hatchways(e="hatchways", open=open_, hatchways=changed, why=why))


# --- Determine Mission: the random tables --------------------------------------------------------

RANDOM = {"random": "symmetric", "random-symmetric": "symmetric", "random-asymmetric": "asymmetric"}


def roll_mission(kind: str, seed: int) -> tuple[int, str]:
    """Determine Mission by the book's roll: a D33 for a symmetric mission (two D3s, the first
    the tens, the second the units), a D6 for an asymmetric one. Rolled on dice of their own
    seeded with ``seed`` (the game's own dice are untouched): the same seed, the same mission."""
    from bagm.chance.dice import Dice

    dice = Dice(seed)
    if kind == "symmetric":  # Symmetric Missions, step 2 "Determine Mission": D33
        tens, units = dice.d3("D33 tens"), dice.d3("D33 units")
        n = tens * 10 + units
        return n, f"D33: {tens} then {units} = {n}"
    n = dice.d6("D6 mission")  # Asymmetric Missions, step 2 "Determine Mission": D6
    return n, f"D6: {n}"


def resolve_mission(text: str | int, seed: int = 0) -> tuple[int, str | None]:
    """A mission named on the command line: its number or book name, or ``random`` (a D33 of
    the symmetric missions) or ``random-asymmetric`` (a D6): (number, how it was rolled or
    None). A mission that is not playable (named or rolled) is a ValueError saying so."""
    kind = RANDOM.get(str(text).strip().lower())
    if kind is None:
        return get_mission(text).number, None
    n, how = roll_mission(kind, seed)
    entry = MISSIONS.get(str(n))
    if entry is None:
        raise ValueError(f"the {how.split(':')[0]} rolled mission {n} ({how}), which is not playable yet; "
                         f"try another --seed, or name a playable mission")
    return n, f"Determine Mission: {how}, mission {n} {entry.name}"


def _secure_effect(u: Unit) -> str | None:
    """What the unit's effects say of Secure Site: 'never' beats 'battleline' (None: nothing)."""
    if not u.affected:
        return None
    says = {e.secure_site for e in u.effects()}
    return "never" if "never" in says else "battleline" if "battleline" in says else None
