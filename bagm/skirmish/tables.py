"""The rules tables of THE BATTLE: to hit, to wound, the close-combat chart, damage, shots.

Two tables are formulas: the To Wound table and the close-combat To Hit Chart. Each formula
reproduces every cell the text prints (tests compare them with the printed cells in the data),
and the chart's rows for attacker WS 3 and WS 5, which the extraction lost, come from it.
"""

from __future__ import annotations

from enum import IntEnum

from bagm.errors import BagmError

NEVER = 0  # "N": the weapon cannot harm the target


class RulesError(BagmError, ValueError):
    """Characteristics outside what the tables cover; the message says the range."""


def _check(name: str, value: int, lo: int = 1, hi: int = 10) -> None:
    if not lo <= value <= hi:
        raise RulesError(f"{name} {value} is outside the tables ({lo} to {hi})")


def to_hit_shooting(bs: int) -> int:
    """The D6 roll a shot needs at Ballistic Skill ``bs`` (Shooting Phase: Roll To Hit):
    6 at BS 1, one less per point of BS, never better than 2+ (a 1 always misses)."""
    _check("BS", bs)
    return max(2, 7 - bs)


def to_wound(s: int, t: int) -> int:
    """The D6 roll to wound at Strength ``s`` against Toughness ``t`` (Roll To Wound), or
    :data:`NEVER`. Formula: 4+ when equal, one worse per point of Toughness over Strength (6+
    at +2 and +3, never at +4 or more), one better per point of Strength over (2+ at best)."""
    _check("S", s)
    _check("T", t)
    d = t - s
    if d >= 4:
        return NEVER
    return min(6, max(2, 4 + d))


def to_hit_close_combat(ws: int, enemy_ws: int) -> int:
    """The D6 roll to hit in close combat (To Hit Chart): 3+ against a lower WS, 4+ up to
    twice the attacker's WS, 5+ beyond. Reproduces every printed row; rows WS 3 and WS 5 were
    lost and come from this formula."""
    _check("WS", ws)
    _check("enemy WS", enemy_ws)
    if ws > enemy_ws:
        return 3
    return 4 if enemy_ws <= 2 * ws else 5


class Damage(IntEnum):
    """The results of the Damage Table, worst last; a model keeps only its worst result."""

    UNHARMED = 0
    PINNED = 1
    STUNNED = 2
    OUT_OF_ACTION = 3
    KILLED = 4

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower()


AUTO, NO = "A", "N"


def damage_row(strength: int, toughness: int, *, full_strength: bool = False) -> int:
    """The Damage Table row: Strength less Toughness, 0 or less and 6 or more grouped.
    ``full_strength`` (a sniper on Overwatch, Nurgle's Rot) does not deduct the Toughness."""
    diff = strength if full_strength else strength - toughness
    return max(0, min(6, diff))


def damage_bonus(strength: int, toughness: int) -> int:
    """+1 to the damage roll when the Strength is more than twice the basic Toughness."""
    return 1 if strength > 2 * toughness else 0


def damage_result(row: list[str | int], roll: int) -> Damage:
    """The worst result of ``row`` (Pinned, Stunned, OOA, Killed cells) a modified ``roll``
    reaches: ``A`` always, ``N`` never, ``n`` on n or more."""
    result = Damage.UNHARMED
    for i, cell in enumerate(row):
        if cell == AUTO or (cell != NO and isinstance(cell, int) and roll >= cell):
            result = Damage(i + 1)
    return result


def grenade_range(strength: int, table: dict[int, int]) -> int:
    """How far a model of basic Strength ``strength`` throws a grenade (Throwing Grenades)."""
    _check("S", strength)
    return table[min(strength, max(table))]


WEAPON_TYPES = ("pistol", "rapid_fire", "assault", "heavy")


def shots(kind: str, x: int = 1, *, moved: bool = False, within_12: bool = True,
          fast_shot: bool = False) -> int:
    """Shots a weapon fires this turn (Weapon Types), with Fast Shot's doubling."""
    if kind == "pistol":  # twice if the model did not move
        n = 1 if moved else 2
    elif kind == "rapid_fire":  # twice within 12" when stationary; else one shot
        if moved and not within_12:
            raise RulesError("a Rapid Fire weapon's range is 12\" after moving")
        n = 2 if not moved and within_12 else 1
    elif kind == "assault":
        n = x
    elif kind == "heavy":
        if moved:
            raise RulesError("a Heavy weapon fires only if the model did not move")
        n = x
    else:
        raise RulesError(f"unknown weapon type '{kind}': {', '.join(WEAPON_TYPES)}")
    if fast_shot:  # Fast Shot: twice as many shots, Pistol or Rapid Fire only
        if kind not in ("pistol", "rapid_fire"):
            raise RulesError("Fast Shot doubles Pistol and Rapid Fire shots only")
        n *= 2
    return n
