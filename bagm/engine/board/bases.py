"""Base sizes: round bases, in millimetres from the datasheet's ``base`` or, when the data gives
none, a documented default by keyword (the first rule that matches wins).

The defaults follow the usual sizes of current models; a datasheet's own ``base`` always wins.
Oval and flying-stand bases are taken as round bases of about the same area.
"""

from __future__ import annotations

from typing import Iterable, Protocol

from bagm.engine.board.geometry import MM_PER_INCH

# (keywords that must all be present, diameter in mm), checked in order
DEFAULT_BASES: tuple[tuple[frozenset[str], int], ...] = (
    (frozenset({"TITANIC"}), 100),
    (frozenset({"VEHICLE"}), 60),
    (frozenset({"MONSTER"}), 60),
    (frozenset({"MOUNTED"}), 60),
    (frozenset({"BEAST"}), 40),
    (frozenset({"SWARM"}), 40),
    (frozenset({"TERMINATOR"}), 40),
    (frozenset({"GRAVIS"}), 40),
    (frozenset({"MEGA ARMOUR"}), 40),
    (frozenset({"WRAITH CONSTRUCT"}), 50),
    (frozenset({"GRETCHIN"}), 25),
    (frozenset({"GROTS"}), 25),
    (frozenset({"RIPPERS"}), 40),
    (frozenset({"ASTRA MILITARUM", "INFANTRY"}), 25),
    (frozenset({"GENESTEALER CULTS", "INFANTRY"}), 25),
    (frozenset({"AELDARI", "INFANTRY"}), 28),
    (frozenset({"DRUKHARI", "INFANTRY"}), 28),
    (frozenset({"TERMAGANTS"}), 28),
    (frozenset({"HORMAGAUNTS"}), 28),
    (frozenset({"INFANTRY"}), 32),
)
FALLBACK_MM = 32  # anything else: a 32mm base, the common infantry size


class _HasBase(Protocol):
    base: int | None
    keywords: list[str]
    faction_keywords: list[str]


def default_base_mm(keywords: Iterable[str]) -> int:
    """The default base diameter for a model with these keywords."""
    have = {k.upper() for k in keywords}
    for needed, mm in DEFAULT_BASES:
        if needed <= have:
            return mm
    return FALLBACK_MM


def base_mm(datasheet: _HasBase) -> int:
    """The datasheet's base in mm, or the default for its keywords."""
    if datasheet.base:
        return datasheet.base
    return default_base_mm(list(datasheet.keywords) + list(datasheet.faction_keywords))


def base_radius(datasheet: _HasBase) -> float:
    """The base's radius in inches."""
    return base_mm(datasheet) / MM_PER_INCH / 2
