"""Plain reference of the greedy bot's pricing of a rule used at a moment
(:func:`bagm.engine.bots.uses.use_gain`): every unit it covers priced with and without the
rule's effects, each time from the start (the bot skips rules that set no field the pricing
reads, and prices each unit's figure without them and its target once a decision)."""

from __future__ import annotations

from typing import Any

from bagm.engine.attack.rules import Conditions
from bagm.engine.game import moments, positions
from bagm.engine.rules.effects import effect_conditions, effect_weapon, holds_in


def use_gain(bot: Any, g: Any, s: Any, u: Any, fight: bool) -> float:
    """The expected points the rule's units would destroy with its effects less without."""
    units = [v for v in g.army_units(u.player) if moments.covers(s, v)] if s.army else [u]
    aura = max((e.aura for e in s.effects if e.aura is not None), default=None)
    if aura is not None:
        units = [v for v in g.army_units(u.player) if v is u or positions.unit_distance(g, u, v) <= aura]
    if fight:
        units = [v for v in units if positions.engaged_with(g, v)]
    return sum(_value(bot, g, v, s.effects, fight) - _value(bot, g, v, (), fight) for v in units)


def _value(bot: Any, g: Any, u: Any, effects: tuple[Any, ...], fight: bool) -> float:
    enemies = positions.engaged_with(g, u) if fight else g.army_units(g.other(u.player))
    if not enemies or not u.models:
        return 0.0
    t = min(enemies, key=lambda e: positions.min_straight(g, u, e))
    saved = u.timed
    u.timed = saved + tuple(("?", e, "phase") for e in effects)
    try:
        holds = holds_in(g)
        total = 0.0
        for w in (u.melee[:1] if fight else u.ranged[:1] + u.melee[:1]):
            w2 = effect_weapon(u, w, t, holds)
            total += bot.expected(w2, len(u.models), t, effect_conditions(u, t, w2, Conditions(), holds))
        return total
    finally:
        u.timed = saved


def call_now(g: Any, s: Any, p: str) -> bool:
    """Whether the bot makes a once-per-battle call for the army that lasts a while now: every
    pair of a unit it covers and an enemy unit measured (:func:`bagm.engine.bots.uses.call_now`
    first refuses the pairs whose bounding boxes are more than 12" apart)."""
    if s.shocks is not None:
        foes = g.army_units(g.other(p))
        return bool(g.active != p and (2 * len(foes) >= len(g.armies[g.other(p)].units) or g.round >= 4))
    if not (s.army and s.once == "battle" and s.until in ("round", "next")) or g.round >= 5:
        return True
    return any(positions.min_straight(g, v, f) <= 12 for v in g.army_units(p) if moments.covers(s, v)
               for f in g.army_units(g.other(p)))
