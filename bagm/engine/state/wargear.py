"""Which melee weapon each model fights with, for units whose models carry their own wargear.

Core Rules, Fight phase, Make Melee Attacks: each model that fights selects one of its melee
weapons (and makes the attacks of every Extra Attacks weapon it has besides). A unit mustered
without wargear choices keeps the engine's earlier plan: every fighter uses the unit's first
melee weapon that is not an Extra Attacks weapon. A model with its own wargear picks the weapon
with the most expected damage against the target (its mean attacks, hit, wound and failed save
chances, mean damage capped at the target's Wounds): the choice a player makes for it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bagm.engine.attack.rules import wound_threshold


def melee_plan(u: Any, fighters: list[Any], t: Any) -> list[tuple[Any, int]]:
    """(weapon, how many models make its attacks), the selected weapons first."""
    if not u.mixed:
        w = next((x for x in u.melee if not x.abilities.extra_attacks), u.melee[0])
        extras = [x for x in u.melee if x.abilities.extra_attacks and x is not w]
        return [(w, len(fighters))] + [(x, len(fighters)) for x in extras]
    picks: dict[int, int] = {}  # index in u.melee -> models
    extra: dict[int, int] = {}
    for m in fighters:
        mine = [i for i, w in enumerate(u.melee) if m.carries(w.name)]
        main = [i for i in mine if not u.melee[i].abilities.extra_attacks]
        if main:
            best = max(main, key=lambda i: (expected(u.melee[i], t), -i))
            picks[best] = picks.get(best, 0) + 1
        for i in mine:
            if u.melee[i].abilities.extra_attacks and i not in main:
                extra[i] = extra.get(i, 0) + 1
    plan = [(u.melee[i], n) for i, n in sorted(picks.items())]
    plan += [(u.melee[i], n) for i, n in sorted(extra.items())]
    return plan


def expected(w: Any, t: Any) -> Fraction:
    """Mean damage of one model's attacks with ``w`` against ``t`` (no modifiers, no re-rolls,
    no weapon abilities: a ranking of weapons, not odds; bagm odds gives those)."""
    def p(needed: int) -> Fraction:
        return Fraction(max(0, min(6, 7 - needed)), 6) if needed > 1 else Fraction(5, 6)

    hit = Fraction(1) if w.skill is None else p(w.skill)
    wound = p(wound_threshold(w.strength, t.T))
    save = t.Sv - w.ap  # AP is negative: -2 turns a 3+ into a 5+
    invuln = t.invuln_melee if t.invuln_melee is not None else t.invuln
    if invuln is not None:
        save = min(save, invuln)
    unsaved = 1 - (p(save) if save <= 6 else Fraction(0))
    return w.attacks.mean() * hit * wound * unsaved * min(w.damage.mean(), Fraction(t.W))
