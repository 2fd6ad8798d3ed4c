"""A game told in words, read from its event log (JSON lines): by battle round, turn and phase.

The narration is a renderer: it decides no rule and re-plays nothing. Every sentence comes from
one event of the log (see ``bagm/engine/log/record.py`` and ``tests/golden/*.jsonl``); an event kind
it does not know is still told, as its fields, so nothing in a log is silently dropped.

The same :class:`Step` list drives the terminal narration (``--narrate``), its JSON form and the
HTML replay page: a step is one activation (a player's decision and what followed from it) or
the start of a phase.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bagm.engine.board.battlefield import Layout
    from bagm.engine.board.maps import MissionMap
    from bagm.engine.state import events as ev

PHASES = {"command": "Command phase", "movement": "Movement phase", "shooting": "Shooting phase",
          "charge": "Charge phase", "fight": "Fight phase"}
HEADERS = frozenset({"round", "turn", "phase", "end"})  # events that open a step instead of filling one


def count(n: Any, noun: str) -> str:
    """``1 model``, ``3 models`` (a count from the log with its noun)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def dice_text(dice: Any) -> str:
    """An attack's dice as the log keeps them, by what they were rolled for:
    ``hit 2 6 5; wound 6 4; save (armour 2+) 5 2``."""
    if not isinstance(dice, dict):
        return str(dice)
    return "; ".join(f"{k} {' '.join(map(str, v)) if isinstance(v, list) else v}"
                     for k, v in sorted(dice.items(), key=lambda kv: dice_order(kv[0])))


# the order the attack sequence rolls its dice in (the log's keys are sorted by name)
_FAITH_ROLLS = {"hit": "one of its Hit rolls", "wound": "one of its Wound rolls", "save": "a saving throw",
                "damage": "a Damage roll"}  # Acts of Faith inside the attack sequence: what the Miracle dice stands for
DICE_ORDER = ("attacks", "hit", "sustained", "wound", "save", "damage", "feel", "hazardous")


def dice_order(reason: str) -> tuple[int, str]:
    """Where dice rolled for ``reason`` come in the attack sequence (unknown reasons last)."""
    first = reason.split(" ", 1)[0]
    return (DICE_ORDER.index(first) if first in DICE_ORDER else len(DICE_ORDER), reason)


def events_from_lines(lines: Iterable[str]) -> list[dict[str, Any]]:
    """The events of a log's JSON lines (blank lines skipped)."""
    return [json.loads(x) for x in lines if x.strip()]


def zone_name(col: int, row: int) -> str:
    """A Zone by its place on the grid, as on the replay page: columns A, B, C... from the left,
    rows 1, 2, 3... from the top (the rules text names no Zones; this is bagm's grid reference)."""
    letters = ""
    c = col
    while True:
        letters = chr(ord("A") + c % 26) + letters
        c = c // 26 - 1
        if c < 0:
            break
    return f"Zone {letters}{row + 1}"


class Places:
    """Names the Zone a unit stands in, and the area or Entry Zone that Zone belongs to."""

    def __init__(self, layout: Layout | None) -> None:
        self.layout = layout
        self.areas: dict[tuple[int, int], list[str]] = {}
        if layout is None:
            return
        for area in list(layout.entry_zones) + list(layout.areas):
            for z in area.zones:
                self.areas.setdefault(z, []).append(area.name)

    def of(self, points: Sequence[Sequence[float]]) -> str | None:
        """Where a unit whose models stand at ``points`` is: the Zone of their centre."""
        if self.layout is None or not points:
            return None
        x = sum(p[0] for p in points) / len(points)
        y = sum(p[1] for p in points) / len(points)
        z = self.layout.zone_at((x, y))
        if z is None:
            return None
        name = zone_name(*z)
        areas = self.areas.get(z)
        return f"{name} ({', '.join(sorted(set(areas)))})" if areas else name


@dataclass
class Step:
    """One step of the game: an activation, or the opening of a phase."""

    index: int
    first: int  # the events [first, last) of the log
    last: int
    round: int
    turn: int
    player: str | None  # whose turn it is (None before the first battle round)
    phase: str | None  # the phase key (command, movement...) or None during set-up
    lines: list[str] = field(default_factory=list)
    attacks: list[dict[str, Any]] = field(default_factory=list)  # the attack events, as logged
    actor: str | None = None  # the player whose decision opened the step

    @property
    def heading(self) -> str:
        if self.phase == "end":
            return "The end of the battle"
        if self.round == 0:
            return "Before the battle"
        where = f"Battle round {self.round}"
        if self.player:
            where += f", player {self.player}'s turn"
        if self.phase:
            where += f", {PHASES.get(self.phase, self.phase)}"
        return where

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "events": [self.first, self.last], "round": self.round,
                "turn": self.turn, "player": self.player, "phase": self.phase, "actor": self.actor,
                "heading": self.heading, "lines": self.lines, "attacks": self.attacks}


class Narrator:
    """Turns events into sentences, keeping what earlier events told (unit names, control)."""

    def __init__(self, layout: Layout | None = None) -> None:
        self.places = Places(layout)
        self.names: dict[str, str] = {}
        self.control: list[str | None] | None = None
        self.labels: list[str | None] = [m.label for m in layout.markers] if layout is not None else []
        self.roles: dict[str, str] = {}
        self.started = False  # the first battle round has begun

    def unit(self, uid: Any) -> str:
        return self.names.get(str(uid), str(uid))

    def marker(self, index: int) -> str:  # 1-based, as the log counts them
        label = self.labels[index - 1] if 0 < index <= len(self.labels) else None
        return f"objective marker {index}" + (f" ({label})" if label else "")

    def where(self, points: Any, word: str = "in") -> str:
        place = self.places.of(points) if isinstance(points, list) else None
        return f" {word} {place}" if place else ""

    def tell(self, e: dict[str, Any]) -> list[str]:
        """The sentences of one event (none for the bookkeeping ones)."""
        kind = e.get("e")
        method = getattr(self, f"_e_{kind}", None)
        if method is None:
            rest = ", ".join(f"{k} {json.dumps(v, sort_keys=True)}" for k, v in sorted(e.items()) if k != "e")
            return [f"({kind}: {rest})"]
        out: list[str] | str | None = method(e)
        if out is None:
            return []
        return [out] if isinstance(out, str) else out

    # --- before the battle ----------------------------------------------------------------

    def _e_game(self, e: ev.Game) -> str:
        return f"Mission {e.get('mission')}: {e.get('name')} (seed {e.get('seed')})."

    def _e_muster(self, e: ev.Muster) -> list[str]:
        out = []
        for p, units in sorted((e.get("units") or {}).items()):
            for label in units:
                uid, _, _ = str(label).partition(" ")
                self.names[uid] = str(label)
            pts = (e.get("points") or {}).get(p)
            out.append(f"Player {p} musters {pts} pts: {', '.join(map(str, units))}.")
        if e.get("underdog"):
            out.append(f"Player {e['underdog']} is the Underdog.")
        return out

    def _e_rolloff(self, e: ev.Rolloff) -> str:
        what = {"attacker": "who is the Attacker", "first_turn": "the first turn"}.get(e.get("what", ""), e.get("what"))
        if e.get("given"):
            return f"Roll-off for {what}: won by player {e.get('winner')} (as the script gives it)."
        return f"Roll-off for {what}: A {e.get('A')}, B {e.get('B')}; player {e.get('winner')} wins."

    def _e_roles(self, e: ev.Roles) -> str:
        self.roles = {p: str(r) for p, r in e.items() if p != "e"}
        return "; ".join(f"Player {p} is the {r}" for p, r in sorted(self.roles.items())) + "."

    def _e_setup(self, e: ev.Setup) -> str:
        if self.started:  # set up during the battle: arriving from Reserves
            return f"{self.unit(e.get('unit'))} arrives from Reserves{self.where(e.get('at'))}."
        return f"{self.unit(e.get('unit'))} is set up{self.where(e.get('at'))}."

    def _e_reserves(self, e: ev.Reserves) -> str:
        how = "in Deep Strike Reserves" if e.get("deep_strike") else "in Reserves"
        why = f" ({e['why']})" if e.get("why") else ""
        return f"{self.unit(e.get('unit'))} waits {how}{why}."

    def _e_reserve(self, e: ev.Reserve) -> str:
        return f"{self.unit(e.get('unit'))} is placed in Reserves."

    # --- the battle's frame ------------------------------------------------------------------

    def _e_round(self, e: ev.Round) -> None:
        self.started = True  # a heading, not a sentence

    def _e_turn(self, e: ev.Turn) -> None:
        return None

    def _e_phase(self, e: ev.Phase) -> None:
        return None

    def _e_action(self, e: ev.ActionTaken) -> None:
        return None  # what the decision did is told by the events that follow it

    def _e_skip(self, e: ev.Skip) -> str:
        return f"Player {e.get('player')}'s turn is skipped: {e.get('why')}."

    def _e_note(self, e: ev.Note) -> str:
        return f"Note: {e.get('text')}"

    def _e_end(self, e: ev.End) -> str:
        vp = e.get("vp") or {}
        score = ", ".join(f"{p} {v} VP" for p, v in sorted(vp.items()))
        w = e.get("winner")
        return f"The battle ends: {score}. " + (f"Player {w} wins." if w else "The battle is a draw.")

    # --- Command points, Stratagems, Leaders ------------------------------------------------

    def _e_cp(self, e: ev.Cp) -> str:
        return f"Player {e.get('player')} gains {e.get('gain')} CP ({e.get('why')}): {e.get('cp')} CP."

    def _e_stratagem(self, e: ev.StratagemUsed) -> str:
        return (f"Player {e.get('player')} uses the {e.get('name')} Stratagem for {e.get('cost')} CP "
                f"({e.get('cp')} CP left).")

    def _e_reroll(self, e: ev.Reroll) -> str:
        return (f"{e.get('by')}: {self.unit(e.get('unit'))} re-rolls a {e.get('what')} roll of "
                f"{e.get('roll')} ({e.get('weapon')}): now {e.get('new')}.")

    def _e_command_reroll(self, e: ev.CommandReroll) -> str:
        return (f"Command Re-roll: {self.unit(e.get('unit'))} re-rolls a {e.get('what')} roll of "
                f"{e.get('roll')} ({e.get('weapon')}): now {e.get('new')}.")

    def _e_battlefield_command(self, e: ev.BattlefieldCommand) -> str:
        peerless = " (Peerless)" if e.get("peerless") else ""
        return (f"{self.unit(e.get('leader'))} gives {self.unit(e.get('unit'))} "
                f"{e.get('ability')}{peerless}.")

    def _e_leader_ability_ends(self, e: ev.LeaderAbilityEnds) -> str:
        return f"{e.get('ability')} ends for {self.unit(e.get('unit'))}."

    def _e_secure_roll(self, e: ev.SecureRoll) -> str:
        roll = f" (roll {e.get('roll')})" if e.get("roll") else ""
        done = "is Secured by" if e.get("secured") else "is not Secured by"
        return (f"{self.marker(int(e.get('marker') or 0))} {done} player {e.get('player')}'s army{roll}: "
                f"{e.get('rule')}, {self.unit(e.get('unit'))}.")

    def _e_hatch_roll(self, e: ev.HatchRoll) -> str:
        done = "opens" if e.get("opened") else "stays closed"
        return f"{e.get('rule')} ({self.unit(e.get('unit'))}): Hatchway {e.get('hatchway')} {done} (roll {e.get('roll')})."

    def _e_models_return(self, e: ev.ModelsReturn) -> str:
        return f"{count(e.get('returned'), 'destroyed model')} returned to {self.unit(e.get('unit'))} ({e.get('rule')})."

    def _e_pool_roll(self, e: ev.PoolRoll) -> str:
        dice = ", ".join(str(d) for d in e.get("dice") or [])
        if e.get("by"):  # Chosen of Khorne: every dice re-rolled
            return f"Player {e.get('player')} re-rolls every dice for {e.get('rule')} ({e['by']}): {dice or 'no dice'}."
        return f"Player {e.get('player')} rolls for {e.get('rule')}: {dice or 'no dice'}."

    def _e_rule_roll(self, e: ev.RuleRoll) -> str:
        mod = f" {e['mod']:+d}" if e.get("mod") else ""
        dice = e.get("expr") or "one D6"
        return f"Player {e.get('player')} rolls {dice} for {e.get('rule')}: {e.get('roll')}{mod}."

    def _e_miracle(self, e: ev.Miracle) -> str:
        pool = ", ".join(str(v) for v in e.get("pool") or []) or "none"
        if e.get("used") is not None:
            what = str(e.get("what"))
            roll = _FAITH_ROLLS.get(what, f"its {what} roll")
            weapon = f" ({e['weapon']})" if e.get("weapon") else ""
            return (f"Act of Faith: {self.unit(e.get('unit'))} uses a Miracle dice of {e.get('used')} for "
                    f"{roll}{weapon} (Miracle dice left: {pool}).")
        return f"Player {e.get('player')} gains a Miracle dice of {e.get('gain')} ({e.get('why')}; pool: {pool})."

    def _e_rule_used(self, e: ev.RuleUsed) -> str:
        return f"Player {e.get('player')} uses {e.get('name')} ({e.get('kind')})."

    def _e_effect(self, e: ev.Effect) -> str:
        if e.get("until") == "next":  # "until the start of your next Shooting phase"
            return f"{e.get('rule')} takes effect on {self.unit(e.get('unit'))} until the start of the same phase of its user's next turn."
        if e.get("until") == "their_turn":  # "until the end of your opponent's next turn"
            return f"{e.get('rule')} takes effect on {self.unit(e.get('unit'))} until the end of its user's opponent's next turn."
        return f"{e.get('rule')} takes effect on {self.unit(e.get('unit'))} until the end of the {e.get('until')}."

    def _e_mark(self, e: ev.Mark) -> str:
        return f"{e.get('rule')}: {self.unit(e.get('unit'))} selects {self.unit(e.get('target'))}."

    def _e_reinforce(self, e: ev.Reinforce) -> str:
        rolls = ", ".join(str(r) for r in e.get("rolls") or [])
        return (f"{self.unit(e.get('unit'))} requests reinforcement ({e.get('rule')}): rolls {rolls or 'none'}, "
                f"{count(e.get('returned'), 'model')} returned.")

    def _e_yield(self, e: ev.Yield) -> str:
        gained = f"Player {e.get('player')} gains {count(e.get('gain'), 'Yield point')} ({e.get('pool')} in all)"
        if e.get("why"):
            gained += f" ({e.get('why')})"
        return gained + (f"; their units have {e.get('mode')}." if e.get("mode") else ".")

    def _e_crewed(self, e: ev.Crewed) -> str:
        return f"{e.get('rule')}: the crew of {self.unit(e.get('unit'))} has fallen; its {count(e.get('destroyed'), 'model')} left are destroyed."

    def _e_effect_ends(self, e: ev.EffectEnds) -> str:
        return f"{e.get('rule')} ends for {self.unit(e.get('unit'))}."

    def _e_leader_reroll(self, e: ev.LeaderReroll) -> str:
        return f"{self.unit(e.get('unit'))} re-rolls its {e.get('what')} roll ({e.get('ability')})."

    # --- Movement ----------------------------------------------------------------------------

    def _e_move(self, e: ev.Move) -> str:
        u, kind = self.unit(e.get("unit")), e.get("kind")
        if kind == "remain stationary":
            return f"{u} remains stationary."
        verb = {"normal": "moves", "advance": "Advances", "fallback": "Falls Back"}.get(str(kind), f"moves ({kind})")
        dist = f" {e['moved']:g}\"" if isinstance(e.get("moved"), (int, float)) else ""
        at: Any = e.get("at")
        old: Mapping[str, Any] = e  # a log of an older bagm may hold fields no longer declared
        if at is None and isinstance(old.get("to"), list) and old["to"] and isinstance(old["to"][0], list):
            at = old["to"]  # a placement in a log of an older bagm: the models' positions
        return f"{u} {verb}{dist}{self.where(at, 'to') if at else ''}."

    def _e_advance_roll(self, e: ev.AdvanceRoll) -> str:
        how = " (re-rolled)" if e.get("reroll") else (" (fixed)" if e.get("fixed") else "")
        return f"{self.unit(e.get('unit'))} rolls {e.get('roll')} to Advance{how}."

    def _e_desperate_escape(self, e: ev.DesperateEscape) -> str:
        rolls = f" (rolled {', '.join(map(str, e['rolls']))})" if isinstance(e.get("rolls"), list) else ""
        return (f"{self.unit(e.get('unit'))} takes {count(e.get('tests'), 'Desperate Escape test')}{rolls}: "
                f"{count(e.get('destroyed'), 'model')} destroyed.")

    def _e_hatch(self, e: ev.Hatch) -> str:
        u, name = self.unit(e.get("unit")), e.get("name") or f"Hatchway {e.get('hatchway')}"
        if e.get("prevented"):
            return f"{u} tries to {'open' if e.get('open') else 'close'} {name}, but is prevented."
        return f"{u} {'opens' if e.get('open') else 'closes'} {name}."

    def _e_hatch_rolloff(self, e: ev.HatchRolloff) -> str:
        return (f"{self.unit(e.get('unit'))} rolls {e.get('roll')} against {self.unit(e.get('against'))}'s "
                f"{e.get('enemy')} for the Hatchway.")

    # --- Shooting ----------------------------------------------------------------------------

    def _e_manoeuvre(self, e: ev.Manoeuvre) -> str:
        what = {"overwatch": "Overwatch", "defend": "Set to Defend", "secure": "Secure Site",
                "burners": "Turn on the Burners", "download": "Download Data"}.get(
            str(e.get("manoeuvre")), str(e.get("manoeuvre")))
        marker = e.get("marker")
        mk = f" on {self.marker(int(marker))}" if marker is not None and marker != "" else ""
        return f"{self.unit(e.get('unit'))} performs the Tactical Manoeuvre {what}{mk}."

    def _e_overwatch(self, e: ev.Overwatch) -> str:
        why = f" ({e['why']})" if e.get("why") else ""
        return f"{self.unit(e.get('unit'))} fires Overwatch at {self.unit(e.get('target'))}{why}."

    def _e_attack(self, e: ev.Attack) -> list[str]:
        wounds, unsaved = e.get("wounds", 0), e.get("unsaved", 0)
        saves = wounds - unsaved if isinstance(wounds, int) and isinstance(unsaved, int) else "?"
        s = (f"{self.unit(e.get('unit'))} attacks {self.unit(e.get('target'))} with {e.get('weapon')} "
             f"({count(e.get('models'), 'model')}): {count(e.get('attacks'), 'attack')}, "
             f"{count(e.get('hits'), 'hit')}, {count(wounds, 'wound')}, {saves} saved, "
             f"{count(e.get('lost'), 'wound')} lost")
        if e.get("destroyed"):
            s += f", {count(e['destroyed'], 'model')} destroyed"
        return [s + "."] + ([f"Dice: {dice_text(e['dice'])}."] if e.get("dice") else [])

    def _e_shoot(self, e: ev.Shoot) -> str:
        ow = "Overwatch: " if e.get("overwatch") else ""
        return (f"{ow}{self.unit(e.get('unit'))} has shot {self.unit(e.get('target'))}: "
                f"{count(e.get('wounds_lost'), 'wound')} lost, {count(e.get('left'), 'model')} left.")

    def _e_hazardous(self, e: ev.Hazardous) -> str:
        if e.get("failed") == 0:
            s = f"{self.unit(e.get('unit'))} passes {count(e.get('tests'), 'Hazardous test')}"
        else:
            s = f"{self.unit(e.get('unit'))} fails {count(e.get('failed'), 'Hazardous test')}"
            if e.get("tests"):
                s += f" of {e['tests']}"
        if "lost" in e:
            s += (f": {count(e.get('mortal_wounds'), 'mortal wound')}, {count(e.get('lost'), 'wound')} lost, "
                  f"{count(e.get('destroyed'), 'model')} destroyed")
        if e.get("dice"):
            s += f" (dice: {dice_text(e['dice'])})"
        return s + "."

    def _e_destroyed(self, e: ev.Destroyed) -> str:
        why = f": {e['why']}" if e.get("why") else ""
        pts = f" ({e['points']} pts)" if e.get("points") is not None else ""
        by = f" by {self.unit(e['by'])}" if e.get("by") else ""
        return f"{self.unit(e.get('unit'))} is destroyed{pts}{by}{why}."

    # --- Charge and Fight ------------------------------------------------------------------

    def _e_charge_declared(self, e: ev.ChargeDeclared) -> str:
        return f"{self.unit(e.get('unit'))} declares a charge against {self.unit(e.get('target'))}."

    def _e_charge_roll(self, e: ev.ChargeRoll) -> str:
        again = "re-rolled: " if e.get("reroll") else ""
        return f"Charge roll {again}{e.get('roll')} (needs {e.get('needed')}\")."

    def _e_charge_move(self, e: ev.ChargeMove) -> str:
        return f"{self.unit(e.get('unit'))} makes a Charge move{self.where(e.get('at'), 'into')}."

    def _e_charge(self, e: ev.Charge) -> str:
        ok = "succeeds" if e.get("success") else "fails"
        return f"The charge of {self.unit(e.get('unit'))} against {self.unit(e.get('target'))} {ok}."

    def _e_pile_in(self, e: ev.PileIn) -> str:
        return f"{self.unit(e.get('unit'))} Piles In toward {self.unit(e.get('toward'))}{self.where(e.get('at'), 'into')}."

    def _e_consolidate(self, e: ev.Consolidate) -> str:
        return f"{self.unit(e.get('unit'))} Consolidates toward {self.unit(e.get('toward'))}{self.where(e.get('at'), 'into')}."

    def _e_rush(self, e: ev.Rush) -> str:
        return (f"{self.unit(e.get('unit'))} may move up to {e.get('reach')}\" toward "
                f"{self.unit(e.get('toward'))} ({e.get('rule')}).")

    def _e_rush_move(self, e: ev.RushMove) -> str:
        return f"{self.unit(e.get('unit'))} moves toward {self.unit(e.get('toward'))}{self.where(e.get('at'), 'into')}."

    def _e_fight(self, e: ev.Fight) -> str:
        u = self.unit(e.get("unit"))
        if e.get("target") is None:
            return f"{u} fights, with no enemy in reach."
        if not e.get("fighters"):
            return f"{u} fights {self.unit(e.get('target'))}, with no model able to."
        return (f"{u} fights {self.unit(e.get('target'))} with {e.get('weapon')} "
                f"({count(e.get('fighters'), 'model')}); {count(e.get('left'), 'model')} left.")

    # --- Battle-shock, Unit Coherency -------------------------------------------------------

    def _e_battleshock_test(self, e: ev.BattleshockTest) -> str:
        again = " (re-rolled)" if e.get("reroll") else ""
        res = "passes" if e.get("passed") else "fails"
        why = f" ({e['why']})" if e.get("why") else ""
        return (f"{self.unit(e.get('unit'))} {res} a Battle-shock test{why}{again}: {e.get('roll')} "
                f"against Ld {e.get('ld')}+.")

    def _e_fight_on_death(self, e: ev.FightOnDeath) -> str:
        rolls = " ".join(str(r) for r in e.get("rolls") or [])
        return (f"{self.unit(e.get('unit'))}: {e.get('rule')}, {rolls}: "
                f"{count(e.get('fighting'), 'destroyed model')} fight on.")

    def _e_leadership_test(self, e: ev.LeadershipTest) -> str:
        res = "passes" if e.get("passed") else "fails"
        return (f"{self.unit(e.get('unit'))} {res} a Leadership test ({e.get('why')}): {e.get('roll')} "
                f"against Ld {e.get('ld')}+.")

    def _e_battleshock(self, e: ev.Battleshock) -> str:
        if e.get("shocked"):
            return f"{self.unit(e.get('unit'))} is Battle-shocked."
        why = f" ({e['why']})" if e.get("why") else ""
        return f"{self.unit(e.get('unit'))} is not Battle-shocked{why}."

    def _e_battleshock_ends(self, e: ev.BattleshockEnds) -> str:
        return f"{self.unit(e.get('unit'))} is no longer Battle-shocked."

    def _e_coherency(self, e: ev.Coherency) -> str:
        return f"{self.unit(e.get('unit'))} loses {count(e.get('removed'), 'model')} out of Unit Coherency."

    # --- objectives and victory points -----------------------------------------------------

    def _e_control(self, e: ev.Control) -> list[str]:
        new: list[str | None] = list(e.get("markers") or [])
        old = self.control if self.control is not None else [None] * len(new)
        self.control = new
        out = []
        for i, (a, b) in enumerate(zip(old, new)):
            if a != b:
                m = self.marker(i + 1)
                out.append(f"Player {b} now controls {m}." if b else f"Player {a} no longer controls {m}.")
        return out

    def _e_secured(self, e: ev.Secured) -> str:
        return f"{self.unit(e.get('unit'))} secures {self.marker(int(e.get('marker') or 0))} for player {e.get('player')}."

    def _e_vp(self, e: ev.Vp) -> str:
        vp, units = e.get("vp"), e.get("units")
        by = f"; scored by {', '.join(self.unit(u) for u in units)}" if isinstance(units, list) and units else ""
        if isinstance(vp, int) and vp < 0:  # VP passing to the opponent (Destroy Ground Targets)
            return f"Player {e.get('player')} loses {-vp} VP ({e.get('why')}): {e.get('total')} VP."
        if not self.started:  # a mission's starting VP (Destroy Ground Targets), not VP scored
            return f"Player {e.get('player')} starts the battle with {vp} VP ({e.get('why')})."
        return f"Player {e.get('player')} scores {vp} VP ({e.get('why')}{by}): {e.get('total')} VP."

    # --- Mission Rules ---------------------------------------------------------------------------

    def _e_first_turn(self, e: ev.FirstTurn) -> str:
        return f"Player {e.get('player')} has the first turn ({e.get('why')})."

    def _e_mission_rule(self, e: ev.MissionRule) -> str:
        what = f": {self.unit(e.get('unit'))}" if e.get("unit") else ""
        where = f" is set up in {e.get('area')}" if e.get("area") else ""
        return f"Player {e.get('player')} uses {e.get('rule')}{what}{where}."

    def _e_mission_roll(self, e: ev.MissionRoll) -> str:
        if "passed" in e:  # the rule said whether it succeeded (a modified roll, a roll under a value)
            ok = " (success)" if e["passed"] else " (failed)"
        else:
            ok = "" if e.get("needed") is None else (" (success)" if int(e.get("roll") or 0) >= int(e["needed"])
                                                     else " (failed)")
        mod = f" ({int(e['modifier']):+d})" if e.get("modifier") else ""
        return f"Player {e.get('player')} rolls {e.get('roll')}{mod} for {e.get('rule')}{ok}."

    def _e_change_level(self, e: ev.ChangeLevel) -> str:
        return f"{self.unit(e.get('unit'))} changes level: from the {e.get('left')} to {e.get('area')} on the {e.get('level')}."

    def _e_powered(self, e: ev.Powered) -> str:
        which = ", ".join(self.marker(int(t)) for t in e.get("terminals") or [])
        return f"Player {e.get('player')} powers up {which} ({e.get('why')})."

    def _e_burners(self, e: ev.Burners) -> str:
        rolls = ", ".join(str(r) for r in e.get("rolls") or [])
        return (f"The Burners roar over {self.unit(e.get('unit'))}: rolls {rolls}, "
                f"{count(e.get('mortal_wounds'), 'mortal wound')}.")

    def _e_mortal_wounds(self, e: ev.MortalWounds) -> str:
        return (f"{self.unit(e.get('unit'))} suffers {count(e.get('amount'), 'mortal wound')} "
                f"({e.get('why')}): {count(e.get('lost'), 'wound')} lost.")

    def _e_mortal_roll(self, e: ev.MortalRoll) -> str:
        return (f"{self.unit(e.get('unit'))} rolls one D6 for {e.get('rule')} against "
                f"{self.unit(e.get('target'))}: {e.get('roll')}.")

    def _e_deadly_demise(self, e: ev.DeadlyDemise) -> str:
        hit = ", ".join(self.unit(u) for u in e.get("units") or [])
        return (f"Deadly Demise: a model of {self.unit(e.get('unit'))} rolls {e.get('roll')}"
                + (f"; mortal wounds for {hit}." if hit else ": nothing happens."))

    def _e_regain_wounds(self, e: ev.RegainWounds) -> str:
        return f"{self.unit(e.get('unit'))} regains {count(e.get('wounds'), 'wound')} ({e.get('rule')})."

    def _e_pain(self, e: ev.Pain) -> str:
        n = int(e.get("gain") or 0)
        did = f"gains {count(n, 'Pain token')}" if n >= 0 else f"spends {count(-n, 'Pain token')}"
        return f"Player {e.get('player')} {did} ({e.get('why')}; {e.get('pool')} in all)."

    def _e_tokens(self, e: ev.Tokens) -> str:
        n, rule = int(e.get("gain") or 0), e.get("rule")
        if n >= 0:
            return f"Player {e.get('player')} receives {count(n, f'{rule} token')} ({e.get('why')})."
        if e.get("pool") == 0 and str(e.get("why", "")).startswith("unspent"):
            return f"Player {e.get('player')} loses {count(-n, f'{rule} token')} ({e.get('why')})."
        return f"Player {e.get('player')} spends {count(-n, f'{rule} token')} on {e.get('why')} ({e.get('pool')} left)."

    def _e_vented(self, e: ev.Vented) -> str:
        return f"{e.get('area')} is vented to the void until the end of the battle round."

    def _e_lights(self, e: ev.Lights) -> str:
        return f"The lights go {'on' if e.get('on') else 'out'} in {e.get('area')} until the end of the turn."

    def _e_marker_removed(self, e: ev.MarkerRemoved) -> str:
        return f"{self.marker(int(e.get('marker') or 0)).capitalize()} is removed from the battlefield ({e.get('why')})."

    def _e_cp_blocked(self, e: ev.CpBlocked) -> str:
        return f"Player {e.get('player')} cannot gain {e.get('gain')} CP ({e.get('why')}): the Communications Network is down."

    def _e_rad_exposure(self, e: ev.RadExposure) -> str:
        return f"{self.unit(e.get('unit'))} suffers {e.get('level')} Rad until the end of the battle round."

    def _e_hatchways(self, e: ev.Hatchways) -> str:
        which = ", ".join(str(h) for h in e.get("hatchways") or [])
        return f"{e.get('why')}: Hatchways {which} {'open' if e.get('open') else 'close'}."


def steps(events: Sequence[dict[str, Any]], layout: Layout | None = None) -> list[Step]:
    """The game as steps: a new one at each decision and at each round, turn and phase, unless
    the step so far told nothing (then the headings and the decision share one step)."""
    n = Narrator(layout)
    out: list[Step] = []
    rnd = turn = 0
    player: str | None = None
    phase: str | None = None
    cur = Step(0, 0, 0, 0, 0, None, None)
    for i, e in enumerate(events):
        kind = e.get("e")
        if kind in HEADERS or kind == "action":
            if cur.lines:
                cur.last = i
                out.append(cur)
                cur = Step(len(out), i, i, rnd, turn, player, phase)
            if kind == "round":
                rnd, player, phase = int(e.get("round") or 0), None, None
            elif kind == "turn":
                player, turn = e.get("player"), int(e.get("turn") or 0)
            elif kind == "phase":
                phase, player = e.get("phase"), e.get("player", player)
            elif kind == "end":
                phase, player = "end", None
            cur.round, cur.turn, cur.player, cur.phase = rnd, turn, player, phase
            if kind == "action":
                cur.actor = e.get("player")
        cur.lines += n.tell(e)
        if kind == "attack":
            cur.attacks.append({k: v for k, v in e.items() if k != "e"})
    if cur.lines or not out:
        cur.last = len(events)
        out.append(cur)
    else:
        out[-1].last = len(events)
    return out


def narrate(events: Sequence[dict[str, Any]], layout: Layout | None = None) -> list[Step]:
    """The steps of a game whose map is the bundled map of its mission (when there is one)."""
    if layout is None:
        layout = mission_layout(events)
    return steps(events, layout)


def mission_map(events: Sequence[dict[str, Any]]) -> MissionMap | None:
    """The bundled map of the mission the log's 'game' event names, or None if bagm has none."""
    head = events[0] if events else {}
    try:
        number = int(head.get("mission"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    from bagm.engine.board.maps import BUNDLED, bundled

    return bundled(number) if number in BUNDLED else None


def mission_layout(events: Sequence[dict[str, Any]]) -> Layout | None:
    """The layout of that map, or None."""
    mmap = mission_map(events)
    return mmap.layout if mmap is not None else None


def text(steps_: Sequence[Step]) -> str:
    """The narration as plain text: one heading per phase, one indented line per sentence."""
    out: list[str] = []
    heading = None
    for s in steps_:
        if s.heading != heading:
            heading = s.heading
            if out:
                out.append("")
            out.append(heading)
        out += [f"  {line}" for line in s.lines]
    return "\n".join(out) + "\n"


def rich(steps_: Sequence[Step]) -> Any:
    """The narration for the terminal: headings in bold, sentences as plain text (a unit's name
    is never read as Rich markup)."""
    from rich.console import Group, RenderableType
    from rich.padding import Padding
    from rich.text import Text

    parts: list[RenderableType] = []
    heading = None
    for s in steps_:
        if s.heading != heading:
            heading = s.heading
            parts.append(Text(("\n" if parts else "") + heading, style="bold"))
        parts += [Padding(Text(line), (0, 0, 0, 2)) for line in s.lines]
    return Group(*parts)
