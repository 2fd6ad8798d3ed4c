"""Actions: the small frozen values a player (a script, a bot) chooses, with a text form.

Text forms (unit ids such as ``A3``; points in inches ``x,y``)::

    role attacker | role defender          deploy A1 2 | reserve A1      done | pass
    deploy A1 2 8,15                       (Infiltrators: anywhere wholly within 6" of Entry Zone 2)
    move A1 12.5,7 | advance A1 12.5,7 | fallback A1 3,4 | hold A1
    place A1 3,4;4.5,4;6,4                 (a Normal move with a position per model)
    hatch A1 3                             (operate Hatchway 3, numbered from 1)
    arrive A1 2 | deepstrike A1 20,15      (Reinforcements)
    manoeuvre A1 secure 2 | manoeuvre A1 defend | manoeuvre A1 overwatch | manoeuvre A1 burners | manoeuvre A1 download
    shoot A1 B2 | shoot A1 B2 Storm bolter+Psilencer   clearance A1
    shoot A1 B2 Storm bolter; B3 Psilencer (each weapon at its own target)
    charge A1 B2 | fight A1 B2 | counter A1 | bravery A1 | overwatch A1 B2
    reroll | reroll charge                 (Command Re-roll; naming the roll: only an offer of it)
    command A1 A4 Alpha Warrior            (Battlefield Command: Leader, Bodyguard, Leader ability)
    rule Unlock Overrides                  (use a Mission Rule the mission offers now)
    use A3 Ere We Go                       (use a supplied Stratagem on unit A3)
    mark A3 B2                             (the rule of A3's Enhancement selects enemy unit B2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bagm.errors import BagmError

KINDS = ("role", "deploy", "reserve", "done", "pass", "move", "advance", "fallback", "hold",
         "place", "hatch", "arrive", "deepstrike", "manoeuvre", "shoot", "clearance", "charge",
         "reroll", "fight", "counter", "bravery", "overwatch", "command", "rule", "use", "mark")
MOVES = ("move", "advance", "fallback", "place")
MISSION_MANOEUVRES = ("burners", "download")
"""The words of the Tactical Manoeuvres Mission Rules add (The Furnace: Turn on the Burners;
Hull Breach: Download Data)."""
MANOEUVRES = ("secure", "defend", "overwatch") + MISSION_MANOEUVRES
_NO_UNIT = ("role", "done", "pass", "reroll")
REROLL_ROLLS = ("advance", "charge", "desperate escape", "attacks", "hit", "wound", "save", "damage",
                "hazardous")
"""The rolls Command Re-roll is offered for (a Decision's info["what"])."""


class ActionSyntaxError(BagmError, ValueError):
    pass


@dataclass(frozen=True)
class Action:
    kind: str
    unit: str | None = None
    target: str | None = None  # enemy unit id, or the argument (zone, Hatchway, manoeuvre)
    point: tuple[float, float] | None = None
    points: tuple[tuple[float, float], ...] | None = None
    weapons: tuple[str, ...] = ()
    arg: str | None = None
    also: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Shooting at more than one target: further (target, weapons) groups."""

    def __init__(self, kind: str, unit: str | None = None, target: str | None = None,
                 point: tuple[float, float] | None = None,
                 points: tuple[tuple[float, float], ...] | None = None, weapons: tuple[str, ...] = (),
                 arg: str | None = None, also: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> None:
        # the dataclass's own __init__ for a frozen class sets each field through
        # object.__setattr__ (slow: legal action lists build many); the same fields, written at once
        self.__dict__.update(kind=kind, unit=unit, target=target, point=point, points=points,
                             weapons=weapons, arg=arg, also=also)

    def text(self) -> str:
        k = self.kind
        if k in ("done", "pass", "reroll"):
            return f"{k} {self.arg}" if self.arg else k
        if k in ("role", "rule"):
            return f"{k} {self.arg}"
        out = [k, self.unit or ""]
        if self.target is not None:
            out.append(self.target)
        if self.arg is not None:
            out.append(self.arg)
        if self.point is not None:
            out.append(_pt(self.point))
        if self.points is not None:
            out.append(";".join(_pt(p) for p in self.points))
        if self.weapons:
            out.append("+".join(self.weapons))
        text = " ".join(out)
        for target, weapons in self.also:
            text += f"; {target} {'+'.join(weapons)}"
        return text

    __str__ = text


def _pt(p: tuple[float, float]) -> str:
    return f"{round(p[0], 3):g},{round(p[1], 3):g}"


def _point(s: str) -> tuple[float, float]:
    try:
        x, y = s.split(",")
        p = (float(x), float(y))
    except ValueError:
        raise ActionSyntaxError(f"bad point '{s}': write x,y in inches, e.g. 12.5,7") from None
    if not all(math.isfinite(v) for v in p):
        raise ActionSyntaxError(f"bad point '{s}': write x,y in inches, e.g. 12.5,7")
    return p


def parse(text: str) -> Action:
    """Parse the text form of an action (see the module docstring)."""
    words = text.strip().split()
    if not words:
        raise ActionSyntaxError("empty action")
    k = words[0].lower()
    if k not in KINDS:
        raise ActionSyntaxError(f"unknown action '{words[0]}'; actions: {', '.join(KINDS)}")
    if k == "reroll" and len(words) > 1:  # the roll it is for: 'reroll charge', 'reroll save'
        what = " ".join(words[1:]).lower()
        if what not in REROLL_ROLLS:
            raise ActionSyntaxError(f"'reroll' names one of: {', '.join(REROLL_ROLLS)} (or nothing)")
        return Action(k, arg=what)
    if k in ("done", "pass", "reroll"):
        if len(words) != 1:
            raise ActionSyntaxError(f"'{k}' takes nothing more")
        return Action(k)
    if k == "rule":  # a Mission Rule by its name (and what it is used on)
        if len(words) < 2:
            raise ActionSyntaxError("write 'rule NAME', e.g. 'rule Unlock Overrides'")
        return Action(k, arg=" ".join(words[1:]))
    if k == "role":
        if len(words) != 2 or words[1].lower() not in ("attacker", "defender"):
            raise ActionSyntaxError("write 'role attacker' or 'role defender'")
        return Action(k, arg=words[1].lower())
    if len(words) < 2:
        raise ActionSyntaxError(f"'{k}' needs a unit, e.g. '{k} A1'")
    unit = words[1]
    rest = words[2:]

    def need(n: int, form: str) -> None:
        if len(rest) != n:
            raise ActionSyntaxError(f"write '{form}'")
    if k in ("move", "advance", "fallback", "deepstrike"):
        need(1, f"{k} {unit} x,y")
        return Action(k, unit, point=_point(rest[0]))
    if k == "place":
        need(1, f"place {unit} x,y;x,y;...")
        pts = tuple(_point(p) for p in rest[0].split(";") if p)
        if not pts:
            raise ActionSyntaxError(f"write 'place {unit} x,y;x,y;...' with a position per model")
        return Action(k, unit, points=pts)
    if k in ("hold", "reserve", "clearance", "counter", "bravery"):
        need(0, f"{k} {unit}")
        return Action(k, unit)
    if k == "deploy" and len(rest) == 2:  # Infiltrators: a point within 6" of the Entry Zone
        if not rest[0].isdigit():
            raise ActionSyntaxError(f"'deploy' takes an Entry Zone number from 1, not '{rest[0]}'")
        return Action(k, unit, arg=rest[0], point=_point(rest[1]))
    if k in ("deploy", "arrive", "hatch"):
        need(1, f"{k} {unit} N")
        if not rest[0].isdigit():
            raise ActionSyntaxError(f"'{k}' takes a number from 1, not '{rest[0]}'")
        return Action(k, unit, arg=rest[0])
    if k == "manoeuvre":
        if not rest or rest[0].lower() not in MANOEUVRES:
            raise ActionSyntaxError("write 'manoeuvre UNIT secure N', 'defend', 'overwatch' or a "
                                    f"mission's Tactical Manoeuvre ({', '.join(MISSION_MANOEUVRES)})")
        m = rest[0].lower()
        if m == "secure":
            if len(rest) != 2 or not rest[1].isdigit():
                raise ActionSyntaxError("write 'manoeuvre UNIT secure N' (objective marker N)")
            return Action(k, unit, target=m, arg=rest[1])
        need(1, f"manoeuvre {unit} {m}")
        return Action(k, unit, target=m)
    if k in ("charge", "fight", "overwatch", "mark"):
        need(1, f"{k} {unit} ENEMY")
        return Action(k, unit, target=rest[0])
    if k == "command":
        if len(rest) < 2:
            raise ActionSyntaxError("write 'command LEADER UNIT ABILITY', e.g. 'command A1 A4 Alpha Warrior'")
        return Action(k, unit, target=rest[0], arg=" ".join(rest[1:]))
    if k == "use":
        if not rest:
            raise ActionSyntaxError("write 'use UNIT STRATAGEM', e.g. 'use A3 Ere We Go'")
        return Action(k, unit, arg=" ".join(rest))
    if k == "shoot":
        if not rest:
            raise ActionSyntaxError("write 'shoot UNIT ENEMY [weapon+weapon]'")
        groups = []
        for part in " ".join(rest).split(";"):  # more than one target: 'B2 Bolter; B3 Psilencer'
            words = part.split()
            if not words:
                raise ActionSyntaxError("write 'shoot UNIT ENEMY weapon+weapon; ENEMY weapon' (one target per group)")
            groups.append((words[0], tuple(w.strip() for w in " ".join(words[1:]).split("+") if w.strip())))
        if len(groups) > 1 and not all(ws for _, ws in groups):
            raise ActionSyntaxError("shooting at more than one target: name the weapons of each, e.g. "
                                    "'shoot A1 B2 Storm bolter; B3 Psilencer'")
        return Action(k, unit, target=groups[0][0], weapons=groups[0][1], also=tuple(groups[1:]))
    raise ActionSyntaxError(f"cannot parse '{text}'")  # pragma: no cover
