"""The greedy bot's use of rules used at a moment (:mod:`bagm.engine.game.moments`): supplied
Stratagems, Enhancements, Detachment rules and datasheet abilities with a moment, free choices
between alternatives (a Ka'Tah stance, a Doctrina, an Arcanoscientific Expertise aura) by the
expected damage they add, and its advice on a Detachment rule's decision (Commorrite Rivalries).
Functions take the bot first (as :mod:`bagm.engine.bots.objectives` does)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bagm.engine.attack.rules import Conditions
from bagm.engine.game.sequence import Game, Unit
from bagm.engine.rules.effects import effect_conditions, effect_weapon, holds_in
from bagm.engine.state.actions import Action

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.bots.greedy import GreedyBot

_PLAIN = Conditions()


def use_choice(bot: GreedyBot, g: Game, legal: list[Action]) -> Action | None:
    """A supplied Stratagem: on the unit a moment is about (just selected to shoot or to
    fight, just targeted), or at the start of one of its own phases on its costliest unit
    that could use it; at the end of a phase only a rule that costs nothing."""
    uses = [a for a in legal if a.kind == "use"]
    d = g.decision
    rules = {x.name: x for x in g.armies[d.player].uses}
    choices = [a for a in uses if rules[a.arg].group is not None or rules[a.arg].army]
    if choices and not any(rules[a.arg].stratagem for a in choices):
        # a free rule with alternatives (a Ka'Tah stance, a Doctrina): the one that adds the
        # most expected damage now, one not yet in force first; in the Fight phase only if it
        # adds some (a stance used once per battle is kept for a fight that needs it); at the
        # start of a battle round the phase still reads the last one's Fight phase: not a fight
        fight = g.phase == "fight" and d.info.get("timing") != "round_start"

        def worth(a: Action) -> tuple[float, bool]:
            s = rules[a.arg]
            held = any(n == s.name for v in g.army_units(d.player) for n, _, _ in v.timed)
            return use_gain(bot, g, s, g.unit(a.unit), fight), not held
        best = max(choices, key=worth)
        return best if not fight or worth(best)[0] > 0 else None
    # reinforcements (Transdimensional Reinforcement, once per battle): once half the unit is
    # gone, or in the last rounds once any model is
    uses = [a for a in uses if not any(e.reinforce_roll for e in rules[a.arg].effects) or (
        lambda u: 2 * len(u.models) <= u.starting or g.round >= 4 and len(u.models) < u.starting)(g.unit(a.unit))]
    if uses and d.info.get("timing") == "phase_end":  # only a free rule (an Enhancement's, say)
        free = {x.name for x in g.armies[d.player].uses if not x.stratagem}
        uses = [a for a in uses if a.arg in free]
    if uses and "unit" in d.info and "CHARACTER" in g.unit(d.info["unit"]).keywords:
        # a rule that makes its weapons [HAZARDOUS] (Overload Machine Spirits): never on a
        # CHARACTER, whose failed Hazardous test costs 3 mortal wounds
        risky = {x.name for x in g.armies[d.player].uses
                 if any(a.name == "hazardous" for e in x.effects for a in e.weapon_abilities)}
        uses = [a for a in uses if a.arg not in risky]
    if not uses:
        return None
    rules = {x.name: x for x in g.armies[d.player].uses}
    if any(rules[a.arg].moves for a in uses):  # a Normal move now: never off a marker; when the
        # rule ends the unit's charge, only for a unit with no enemy unit within 12" to charge
        foes = g.army_units(g.other(d.player))
        uses = [a for a in uses if not rules[a.arg].moves or not bot.on_marker(g, g.unit(a.unit)) and not (
            any(e.no_charge for e in rules[a.arg].effects) and
            any(g.min_straight(g.unit(a.unit), f) <= 12 for f in foes))]
        if not uses:
            return None
    enemies = [a for a in uses if g.unit(a.unit).player != d.player]
    if enemies:  # a rule that selects an enemy unit: the most valuable one (Quill Marker: one that a
        # unit of its own could then charge unseen first)
        def reach(a: Action) -> tuple[bool, int]:
            t = g.unit(a.unit)
            near = any(e.charged_unseen is not None and any(
                (e.charged_unseen_by is None or e.charged_unseen_by in v.keywords) and
                g.unit_distance(v, t) <= e.charged_unseen for v in g.army_units(d.player)) for e in rules[a.arg].effects)
            return near, t.points
        return max(enemies, key=reach)
    if "unit" in d.info:
        return uses[0]
    if g.active != d.player:
        return None
    return max(uses, key=lambda a: g.unit(a.unit).points)


def use_gain(bot: GreedyBot, g: Game, s: Any, u: Unit, fight: bool) -> float:
    """What using ``s`` adds: the expected points its units would destroy with its effects
    less without (each unit's first ranged and first melee weapon on the nearest enemy unit;
    in the Fight phase only units within Engagement Range, their melee weapon)."""
    units = [v for v in g.army_units(u.player) if g.covers(s, v)] if s.army else [u]
    if (aura := max((e.aura for e in s.effects if e.aura is not None), default=None)) is not None:
        units = [v for v in g.army_units(u.player) if v is u or g.unit_distance(u, v) <= aura]  # a timed aura
    if fight:
        units = [v for v in units if g.engaged_with(v)]
    return sum(effects_value(bot, g, v, s.effects, fight) - effects_value(bot, g, v, (), fight) for v in units)


def effects_value(bot: GreedyBot, g: Game, u: Unit, effects: tuple[Any, ...], fight: bool) -> float:
    enemies = g.engaged_with(u) if fight else g.army_units(g.other(u.player))
    if not enemies or not u.models:
        return 0.0
    t = min(enemies, key=lambda e: g.min_straight(u, e))
    saved = u.timed
    u.timed = saved + tuple(("?", e, "phase") for e in effects)  # as if used, for the while
    try:
        holds = holds_in(g)
        total = 0.0
        for w in (u.melee[:1] if fight else u.ranged[:1] + u.melee[:1]):
            w2 = effect_weapon(u, w, t, holds)
            total += bot.expected(w2, len(u.models), t, effect_conditions(u, t, w2, _PLAIN, holds))
        return total
    finally:
        u.timed = saved


def pain_for_cp(bot: GreedyBot, g: Game, p: str, legal: list[Action]) -> Action | None:
    """Commorrite Rivalries: a Pain token instead of 1CP for Battlefield Command, unless it is the
    army's last token while CP are plentiful (3 or more: kept to Empower a unit)."""
    if g.pain[p] <= 1 and g.cp[p] >= 3:  # type: ignore[index]
        return None
    return next((a for a in legal if a.kind == "rule"), None)
