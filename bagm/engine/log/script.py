"""Game scripts (YAML): a mission, two rosters, optional seed and roll-off winners, and steps
in the text form of :mod:`bagm.engine.state.actions`; a bot takes every decision the script leaves
open.

How steps meet decisions: each player's steps are queued in order (a step's player is the owner
of its unit, or the ``A:``/``B:`` prefix for ``done``, ``pass``, ``reroll`` and ``role``). While a
player has steps left, the script plays that player: a step of the kind being decided is played;
a step of another part of the turn ends the current part (``done``); a reaction the script does
not ask for (Overwatch, Counter-offensive, Insane Bravery, Command Re-roll, Battlefield Command, a Mission Rule) is declined; a
decision that cannot be declined (Deploy Armies, the roll-off choice, selecting a unit to fight)
goes to the bot. Once a player's steps run out, the bot plays that player. Command Re-roll is
offered for rolls inside the attack sequence too (a saving throw to the defender), so
``reroll charge`` (or ``hit``, ``save``...) answers only the offer of that roll, declining the
others before it; a bare ``reroll`` takes the next offer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bagm.engine.game import movement
from bagm.engine.game.sequence import Game, IllegalAction
from bagm.engine.state.actions import Action, ActionSyntaxError, parse
from bagm.engine.state.core import Player
from bagm.errors import BagmError

KEYS = {"mission", "seed", "rosters", "rolloffs", "bot", "steps"}
STEP_OF = {"role": "roles", "deploy": "deploy", "reserve": "deploy", "move": "move", "advance": "move",
           "fallback": "move", "hold": "move", "place": "move", "hatch": "hatch", "arrive": "reinforce",
           "deepstrike": "reinforce", "manoeuvre": "manoeuvre", "shoot": "shoot", "clearance": "shoot",
           "charge": "charge", "reroll": "reroll", "fight": "fight", "counter": "counter",
           "bravery": "bravery", "overwatch": "overwatch", "command": "command", "rule": "rule",
           "use": "use"}
ORDER = {"bravery": 0, "move": 1, "hatch": 2, "reinforce": 3, "manoeuvre": 4, "shoot": 5, "charge": 6,
         "fight": 7}
LOOPS = ("move", "hatch", "reinforce", "manoeuvre", "shoot", "charge")
REACTIONS = ("overwatch", "counter", "bravery", "reroll", "command", "rule", "use")


class ScriptError(BagmError, ValueError):
    """A script that cannot be read, or a step the rules refuse."""

    def __init__(self, path: str, message: str, line: int | None = None, step: int | None = None,
                 rule: str | None = None, unit: str | None = None):
        self.path, self.message, self.line, self.step, self.rule, self.unit = path, message, line, step, rule, unit
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        step = f" step {self.step}" if self.step is not None else ""
        unit = f" unit {self.unit}:" if self.unit else ""
        rule = f" [rule: {self.rule}]" if self.rule else ""
        return f"{where}:{step}{unit} {self.message}{rule}"


@dataclass
class Step:
    index: int  # from 1
    line: int | None
    player: Player
    action: Action
    text: str


@dataclass
class Script:
    path: str
    mission: int
    rosters: dict[str, str]
    seed: int = 0
    rolloffs: dict[str, str] = field(default_factory=dict)
    bots: dict[str, str] = field(default_factory=lambda: {"A": "greedy", "B": "greedy"})
    steps: list[Step] = field(default_factory=list)


def load_script(path: str | Path) -> Script:
    from bagm.io.yamlsafe import InputError, load

    p = str(path)
    try:
        doc = load(path)
    except InputError as exc:
        raise ScriptError(p, exc.message + (f" ({exc.hint})" if exc.hint else ""), exc.line) from None
    data = doc.data
    if not isinstance(data, dict):
        raise ScriptError(p, "a game script is a mapping with mission, rosters and steps", 1)
    for k in data:
        if k not in KEYS:
            raise ScriptError(p, f"unknown key '{k}' (keys: {', '.join(sorted(KEYS))})", doc.line((k,)))
    mission = data.get("mission", 11)
    if not isinstance(mission, int) or isinstance(mission, bool):
        raise ScriptError(p, "mission must be a number, e.g. mission: 11", doc.line(("mission",)))
    rosters = data.get("rosters")
    if not isinstance(rosters, dict) or set(rosters) != {"A", "B"}:
        raise ScriptError(p, "rosters needs A and B: paths to two roster files (relative to the script)",
                          doc.line(("rosters",)) or 1)
    base = Path(p).parent
    paths = {}
    for k, v in rosters.items():
        if not isinstance(v, str):
            raise ScriptError(p, f"rosters.{k} must be a path", doc.line(("rosters", k)))
        q = Path(v)
        paths[k] = str(q if q.is_absolute() else base / q)
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ScriptError(p, "seed must be a whole number from 0", doc.line(("seed",)))
    rolloffs = data.get("rolloffs", {}) or {}
    if not isinstance(rolloffs, dict) or not set(rolloffs) <= {"attacker", "first_turn"} or \
            not all(v in ("A", "B") for v in rolloffs.values()):
        raise ScriptError(p, "rolloffs: {attacker: A|B, first_turn: A|B} (the winners)", doc.line(("rolloffs",)))
    bot = data.get("bot", "greedy")
    from bagm.engine.bots import BOTS
    bots = {"A": bot, "B": bot} if isinstance(bot, str) else bot
    if not isinstance(bots, dict) or set(bots) != {"A", "B"} or not all(b in BOTS for b in bots.values()):
        raise ScriptError(p, f"bot: one of {', '.join(BOTS)}, or {{A: ..., B: ...}}", doc.line(("bot",)))
    steps_raw = data.get("steps", []) or []
    if not isinstance(steps_raw, list):
        raise ScriptError(p, "steps is a list of actions, e.g. - deploy A1 1", doc.line(("steps",)))
    steps = []
    for i, raw in enumerate(steps_raw):
        line = doc.line(("steps", i))
        if not isinstance(raw, str):
            raise ScriptError(p, "a step is one action written as text, e.g. 'move A3 12,7'", line, i + 1)
        text = raw.strip()
        player = None
        if len(text) > 2 and text[1] == ":" and text[0] in "AB":
            player, text = text[0], text[2:].strip()
        try:
            act = parse(text)
        except ActionSyntaxError as exc:
            raise ScriptError(p, str(exc), line, i + 1) from None
        if act.unit:
            owner = act.unit[0].upper()
            if owner not in "AB":
                raise ScriptError(p, f"unit ids are A1, A2... or B1, B2..., not '{act.unit}'", line, i + 1)
            if player and player != owner:
                raise ScriptError(p, f"step for player {player} names {act.unit}, a unit of player {owner}",
                                  line, i + 1)
            player = owner
        if player is None:
            raise ScriptError(p, f"'{text}' needs its player: write 'A: {text}' or 'B: {text}'", line, i + 1)
        steps.append(Step(i + 1, line, "A" if player == "A" else "B", act, raw))
    return Script(p, mission, paths, seed, {k: str(v) for k, v in rolloffs.items()}, bots, steps)


def script_game(script: Script, catalog: Any = None, rosters: dict[str, Any] | None = None) -> Game:
    """The script's game; ``rosters``: the players' rosters already loaded (or imported), in
    place of the paths the script names (see :func:`~bagm.engine.game.muster.build_army`)."""
    from bagm.engine.game.muster import build_army
    from bagm.engine.state.army import ArmyError
    from bagm.io.yamlsafe import InputError

    given = rosters or {}
    try:
        a = build_army("A", given.get("A", script.rosters["A"]), catalog)
        b = build_army("B", given.get("B", script.rosters["B"]), catalog)
        return Game(script.mission, a, b, script.seed, script.rolloffs or None)
    except (ArmyError, InputError, ValueError) as exc:
        raise ScriptError(script.path, str(exc)) from None


class ScriptPlayer:
    """A chooser: the script's steps first, the bots for what they leave open."""

    def __init__(self, script: Script, bots: dict[str, Callable[[Game], Action]]):
        self.script = script
        self.bots = bots
        self.queues = {p: [s for s in script.steps if s.player == p] for p in ("A", "B")}
        self.deferred: dict[str, tuple[int, int]] = {}  # player: (step index, turn) put off

    def __call__(self, g: Game) -> Action:
        d = g.decision
        q = self.queues[d.player]
        if not q:
            return self.bots[d.player](g)
        s = q[0]
        kind = s.action.kind
        if d.step in LOOPS + ("fight",) and d.player == g.active:
            put_off = self.deferred.get(d.player)
            if put_off is not None and put_off[0] == s.index and put_off[1] != g.turn:
                raise self._error(s, f"could not be played in the turn it belongs to (battle round "
                                     f"{g.round} began another turn): the step it needs was not offered "
                                     f"or came too late", STEP_OF.get(kind))
        if kind in ("done", "pass"):
            if d.step in LOOPS or d.step in REACTIONS:
                q.pop(0)
                return Action("done" if d.step in LOOPS else "pass")
            raise self._error(s, f"'{kind}' does not fit here: player {d.player} must now decide "
                                 f"{d.step}", d.step)
        sk = STEP_OF[kind]
        if kind == "hatch" and d.step == "move":
            u = g.units.get((s.action.unit or "").upper())
            if u is not None and movement.breacher(g, u):
                sk = "move"  # Expert Breacher: during the Move Units step
        if sk == d.step:
            if kind == "reroll" and s.action.arg not in (None, d.info.get("what")):
                return Action("pass")  # 'reroll charge' waits for the offer of a Charge roll
            q.pop(0)
            self.deferred.pop(d.player, None)
            try:
                g.check(s.action)
            except IllegalAction as exc:
                raise self._error(s, str(exc), exc.rule, exc.unit) from None
            return s.action
        if d.step in REACTIONS:
            return Action("pass")
        if kind == "command" and d.step in LOOPS:
            # Battlefield Command waits for the next phase's window: refuse it now if it could
            # not be used then either (rather than carrying it to the end of the battle)
            try:
                g.check_as("command", d.player, s.action)
            except IllegalAction as exc:
                q.pop(0)
                raise self._error(s, str(exc), exc.rule, exc.unit) from None
        if d.step in LOOPS:
            if ORDER.get(sk, -1) > ORDER[d.step] and d.player == g.active:
                self.deferred.setdefault(d.player, (s.index, g.turn))  # a later part of this turn
            return Action("done")
        return self.bots[d.player](g)

    def _error(self, s: Step, message: str, rule: str | None = None, unit: str | None = None) -> ScriptError:
        return ScriptError(self.script.path, f"'{s.text}': {message}", s.line, s.index, rule,
                           unit or s.action.unit)

    def leftover(self) -> list[Step]:
        return [s for p in ("A", "B") for s in self.queues[p]]


def run_script(script: Script, catalog: Any = None, rosters: dict[str, Any] | None = None) -> Any:
    """Play a script to the end (``rosters``: as :func:`script_game` takes them); returns the
    GameRecord. Raises ScriptError."""
    from bagm.engine.bots import make_bot
    from bagm.engine.log.record import play

    game = script_game(script, catalog, rosters)
    player = ScriptPlayer(script, {p: make_bot(b, script.seed * 2 + (1 if p == "A" else 2))
                                   for p, b in script.bots.items()})
    rec = play(game, player)
    left = player.leftover()
    if left:
        s = left[0]
        raise ScriptError(script.path, f"'{s.text}' was never played: the battle ended (or the "
                          f"player had no such decision) before it", s.line, s.index, None, s.action.unit)
    return rec
