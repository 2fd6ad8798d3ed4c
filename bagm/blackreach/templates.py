"""Templates (HOWITZER, INDIRECT FIRE, FLAMETHROWER, DA KRUNCH, the weirdboy's B template):
every unit even partly under one is attacked with its own roll; how many fall."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from bagm.blackreach.odds import Chances, Odds, need
from bagm.chance.dist import Dist, convolve


def destroys(outcome: str) -> bool:
    """An outcome that removes the unit (a destroyed counter, a double 6, a deserter)."""
    return outcome == "destroyed" or outcome.endswith((": destroyed", " deserts"))


def unhurt(outcome: str) -> bool:
    return outcome in ("miss", "saved")


def _count(odds: Sequence[Odds], judge: str) -> Dist:
    dist: Dist = {0: Fraction(1)}
    for o in odds:
        p = sum((q for k, q in o.outcomes.items()
                 if (destroys(k) if judge == "destroyed" else not unhurt(k))), Fraction(0))
        dist = convolve(dist, {0: 1 - p, 1: p})
    return {k: p for k, p in sorted(dist.items()) if p}


def template_odds(units: Sequence[tuple[str, Odds]]) -> Odds:
    """How many of the units under one template are destroyed, and how many are harmed
    (each attack rolled separately, so the units fall independently)."""
    need(len(units) >= 1, "name at least one unit under the template")
    odds = [o for _, o in units]
    destroyed = _count(odds, "destroyed")
    out: Chances = {f"{n} destroyed": p for n, p in destroyed.items()}
    tables: dict[str, Mapping[Any, Fraction]] = {"units harmed (not missed or saved)":
                                  {str(k): p for k, p in _count(odds, "harmed").items()}}
    for name, o in units:
        tables[name] = dict(o.outcomes)
    first = odds[0]
    notes = [f"{len(units)} units under the template, each attacked with its own roll"]
    notes += first.notes
    return Odds(f"{first.procedure}, {len(units)} units", first.section, out,
                {k: f"{k.split()[0]} of the {len(units)} units removed" for k in out}, tables,
                notes, {"units": [name for name, _ in units]})
