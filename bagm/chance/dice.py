"""Dice: the only source of chance in bagm, and dice expressions (D3, 2D6, D6+2).

A :class:`Dice` is seeded (it owns a ``random.Random``; the global generator is never used),
records every roll with the reason it was made, and can be fed scripted results: a test scripts
the dice, runs a rule, then calls :meth:`Dice.assert_consumed`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from bagm.chance.dist import Dist, die, power
from bagm.errors import BagmError

SIDES = (3, 6)  # the dice of Warhammer 40,000 (a D3 is a D6 halved, rounding up)
MAX_DICE = 20  # more dice than any profile has; keeps the exact odds tractable
MAX_CONSTANT = 200

_EXPR = re.compile(r"^(?:(?P<count>\d*)D(?P<sides>\d+)(?:\+(?P<bonus>\d+))?|(?P<constant>\d+))$")
_FORMS = "use a number or N, D3, D6, 2D6, D6+2, 2D3+1"


class DiceError(BagmError, ValueError):
    """A bad dice expression, or a scripted roll that does not fit the roll asked for."""


@dataclass(frozen=True)
class DiceExpr:
    """``count`` dice of ``sides`` sides plus ``bonus``; a constant has no dice."""

    count: int = 0
    sides: int = 6
    bonus: int = 0

    @classmethod
    def constant(cls, value: int) -> "DiceExpr":
        return cls(0, 6, value)

    @property
    def is_constant(self) -> bool:
        return self.count == 0

    @property
    def min(self) -> int:
        return self.count + self.bonus

    @property
    def max(self) -> int:
        return self.count * self.sides + self.bonus

    def __str__(self) -> str:
        if self.is_constant:
            return str(self.bonus)
        dice = f"{self.count if self.count > 1 else ''}D{self.sides}"
        return dice + (f"+{self.bonus}" if self.bonus else "")

    @cached_property
    def distribution(self) -> Dist:
        """The exact distribution of the total: {value: probability}."""
        return {v + self.bonus: p for v, p in power(die(self.sides), self.count).items()}

    def mean(self) -> Fraction:
        return self.count * Fraction(self.sides + 1, 2) + self.bonus


def parse_dice(text: str | int | DiceExpr, what: str = "dice expression") -> DiceExpr:
    """Parse ``3``, ``D3``, ``D6``, ``2D6``, ``D6+2``... (case and spaces do not matter)."""
    if isinstance(text, DiceExpr):
        return text
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise DiceError(f"bad {what} {text!r}: {_FORMS}")
    if isinstance(text, int):
        if not 0 <= text <= MAX_CONSTANT:
            raise DiceError(f"bad {what} {text}: a number from 0 to {MAX_CONSTANT}")
        return DiceExpr.constant(text)
    m = _EXPR.match(re.sub(r"\s+", "", text).upper())
    if m is None:
        raise DiceError(f"bad {what} '{text}': {_FORMS}")
    if m["constant"] is not None:
        return parse_dice(int(m["constant"]), what)
    sides = int(m["sides"])
    if sides not in SIDES:
        raise DiceError(f"bad {what} '{text}': only D3 and D6 exist; {_FORMS}")
    count = int(m["count"]) if m["count"] else 1
    if not 1 <= count <= MAX_DICE:
        raise DiceError(f"bad {what} '{text}': from 1 to {MAX_DICE} dice")
    bonus = int(m["bonus"] or 0)
    if bonus > MAX_CONSTANT:
        raise DiceError(f"bad {what} '{text}': a bonus of at most {MAX_CONSTANT}")
    return DiceExpr(count, sides, bonus)


@dataclass(frozen=True)
class Roll:
    """One die rolled: its sides, its result, why it was rolled, whether it was scripted."""

    sides: int
    value: int
    reason: str
    scripted: bool = False

    def __str__(self) -> str:
        return f"D{self.sides}={self.value} ({self.reason})" if self.reason else f"D{self.sides}={self.value}"


class Dice:
    """Seeded dice that record every roll and take scripted results first.

    ``Dice(seed)`` rolls from its own ``random.Random(seed)``. ``Dice.scripted([6, 1, 4])``
    only plays the given results, in order, and raises :class:`DiceError` when a roll is asked
    for after they run out. ``feed`` queues scripted results in front of either kind.
    """

    def __init__(self, seed: int | None = 0, script: Iterable[int] = (), strict: bool = False,
                 sides: tuple[int, ...] = SIDES):
        self.seed = seed
        self.sides = sides  # the dice this game has (Warhammer 40,000: D3 and D6)
        self._random = random.Random(seed)
        self._bits = self._random.getrandbits
        self._script: list[int] = list(script)
        self._strict = strict
        self._rolls: list[tuple[int, int, str, bool]] = []  # built into Roll objects when asked

    def copy(self) -> Dice:
        """Dice in the same state that roll on independently: the same results from here on."""
        d = Dice.__new__(Dice)
        d.seed, d.sides, d._strict = self.seed, self.sides, self._strict
        d._random = random.Random()
        d._random.setstate(self._random.getstate())
        d._bits = d._random.getrandbits
        d._script = list(self._script)
        d._rolls = list(self._rolls)
        return d

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        del state["_bits"]  # a bound method: bound again when loaded
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._bits = self._random.getrandbits

    @property
    def rolls(self) -> list[Roll]:
        """Every roll so far, in order."""
        return [Roll(*r) for r in self._rolls]

    @property
    def count(self) -> int:
        """How many dice have been rolled: a mark for :meth:`since`."""
        return len(self._rolls)

    def since(self, mark: int) -> dict[str, list[int]]:
        """The results rolled after ``mark`` (a :attr:`count`), grouped by reason in order."""
        out: dict[str, list[int]] = {}
        for _, value, reason, _ in self._rolls[mark:]:
            out.setdefault(reason, []).append(value)
        return out

    @classmethod
    def scripted(cls, values: Iterable[int]) -> "Dice":
        """Dice that play exactly ``values`` and refuse to roll anything else."""
        return cls(None, values, strict=True)

    def feed(self, values: Iterable[int]) -> None:
        """Queue scripted results; they are used before any random roll."""
        self._script.extend(values)

    def for_replay(self) -> Dice:
        """A copy that rolls again, as scripted results, every result rolled so far, then goes
        on exactly as these dice would (see :meth:`restore_history`)."""
        d = self.copy()
        d._script[:0] = [r[1] for r in self._rolls]
        d._rolls = []
        return d

    def history(self) -> list[tuple[int, int, str, bool]]:
        """Every roll so far as (sides, value, reason, scripted), cheaper than :attr:`rolls`."""
        return list(self._rolls)

    def restore_history(self, rolls: list[tuple[int, int, str, bool]]) -> None:
        """Replace the record of the rolls made (after replaying them as scripted results)."""
        if [r[1] for r in rolls] != [r[1] for r in self._rolls]:
            raise DiceError("the replayed rolls are not the rolls recorded")
        self._rolls = list(rolls)

    @property
    def pending(self) -> tuple[int, ...]:
        """Scripted results not yet used."""
        return tuple(self._script)

    def assert_consumed(self) -> None:
        """Raise unless every scripted result was used."""
        if self._script:
            raise AssertionError(f"{len(self._script)} scripted roll(s) not used: {self._script}")

    def roll(self, sides: int = 6, reason: str = "") -> int:
        """One die of ``sides`` sides."""
        if sides not in self.sides:
            raise DiceError(f"no D{sides} in this game: {_FORMS}")
        if self._script:
            value = self._script.pop(0)
            if not 1 <= value <= sides:
                raise DiceError(f"scripted roll {value} does not fit a D{sides}"
                                f"{' (' + reason + ')' if reason else ''}: use 1 to {sides}")
            self._rolls.append((sides, value, reason, True))
            return value
        if self._strict:
            raise DiceError(f"scripted dice ran out at roll {len(self._rolls) + 1}"
                            f"{' (' + reason + ')' if reason else ''}")
        # a uniform number below `sides` by rejection from random bits: the numbers randint(1, n)
        # gives for the same seed (it draws them so), through the public getrandbits
        bits, k = self._bits, sides.bit_length()
        value = bits(k)
        while value >= sides:
            value = bits(k)
        value += 1
        self._rolls.append((sides, value, reason, False))
        return value

    def d6(self, reason: str = "") -> int:
        return self.roll(6, reason)

    def d3(self, reason: str = "") -> int:
        return self.roll(3, reason)

    def roll_expr(self, expr: DiceExpr | str | int, reason: str = "") -> int:
        """Roll a dice expression: the sum of its dice plus its bonus."""
        e = parse_dice(expr)
        return sum(self.roll(e.sides, reason) for _ in range(e.count)) + e.bonus
