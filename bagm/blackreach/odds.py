"""The answer of every Black Reach resolver: named outcomes with exact chances, and notes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bagm.errors import BagmError

Chances = dict[str, Fraction]


class BlackReachError(BagmError, ValueError):
    """Values that do not describe a Black Reach procedure; the message says how to fix them."""


def need(ok: bool, message: str) -> None:
    """Refuse a request with a clear message (``BlackReachError``) unless ``ok``."""
    if not ok:
        raise BlackReachError(message)


@dataclass
class Odds:
    """Exact odds of one procedure.

    ``outcomes`` are mutually exclusive and sum to 1, in the order the text gives them;
    ``effects`` says what each does (from the text); ``tables`` holds further distributions
    (the roll's total, each side's fate); ``notes`` the readings chosen and what is not modelled.
    """

    procedure: str
    section: str
    outcomes: Chances
    effects: dict[str, str] = field(default_factory=dict)
    tables: dict[str, Mapping[Any, Fraction]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    inputs: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        total = sum(self.outcomes.values(), Fraction(0))
        if total != 1:  # pragma: no cover - a bug in a resolver, never the user's input
            raise AssertionError(f"{self.procedure}: outcomes sum to {total}, not 1")

    def chance(self, *names: str) -> Fraction:
        """The chance of any of the named outcomes."""
        return sum((self.outcomes.get(n, Fraction(0)) for n in names), Fraction(0))

    def as_dict(self) -> dict[str, Any]:
        """The stable JSON shape of ``bagm blackreach ... --format json``."""

        def entry(p: Fraction) -> dict[str, Any]:
            return {"p": float(p), "exact": str(p)}

        return {
            "procedure": self.procedure,
            "section": self.section,
            "inputs": self.inputs,
            "outcomes": {k: {**entry(p), "effect": self.effects.get(k, "")}
                         for k, p in self.outcomes.items()},
            "tables": {name: {str(k): entry(p) for k, p in table.items()}
                       for name, table in self.tables.items()},
            "notes": list(self.notes),
        }


def add(into: Chances, key: str, p: Fraction) -> None:
    if p:
        into[key] = into.get(key, Fraction(0)) + p
