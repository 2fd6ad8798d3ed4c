"""What a Stratagem costs on a unit, and the CP a use brings back, as effects change them
(Core Rules "Stratagems": its CP cost): an Enhancement that makes a Stratagem targeting its
bearer cheaper once per battle round (Optimised Cogitators), one that makes the opponent's first
Stratagem each battle round on a unit near its bearer dearer (Malevolent Cunning), one that may
give back 1CP when a Stratagem targets a unit its bearer sees (Shipboard Veteran).

A game whose armies have none of these effects pays one look-up per use (``Army.cost_rules``).
"""

from __future__ import annotations

from typing import Any

from bagm.engine.rules.effects import effect_has, effect_least, effect_sum, holds_in
from bagm.engine.state import events as ev
from bagm.engine.state.core import Player


def _any(game: Any) -> bool:
    return any(a.cost_rules for a in game.armies.values())


def stratagem_cost(game: Any, p: Player, base: int, unit: Any, mark: bool = False) -> int:
    """The CP player ``p`` pays to use a Stratagem of cost ``base`` that targets ``unit``;
    ``mark``: the use is made (a once-per-battle-round change is spent)."""
    if unit is None or not any(a.cost_mods for a in game.armies.values()):
        return base  # (an army whose rules only bring CP back: Eye of the Prognosticars)
    cost = base
    if unit.affected and unit.player == p and effect_has(unit, "stratagem_cost_mod"):
        rule = unit.source("stratagem_cost_mod")
        key = (p, rule, -game.round)  # "once per battle round when you target the bearer"
        if key not in game.used:
            cost += effect_sum(unit, "stratagem_cost_mod")
            if mark:
                game.used.add(key)
    for v in game.army_units(game.other(p)):
        reach = effect_least(v, "stratagem_tax") if v.affected else None
        if reach is None or game.unit_distance(v, unit) > reach + 1e-9:
            continue
        rule = v.source("stratagem_tax")
        key = (v.player, rule, -game.round)  # "the first time in each battle round"
        if key not in game.used:
            cost += 1
            if mark:
                game.used.add(key)
    return max(0, cost)


def stratagem_refund(game: Any, p: Player, unit: Any) -> None:
    """Just after player ``p`` used a Stratagem that targets ``unit``: a unit of theirs with
    ``stratagem_refund`` that sees it (its own unit included) rolls one D6: on X+, 1CP; ``unit``
    itself with ``stratagem_refund_own`` (Power of the Rosette: "each time you target this model's
    unit with a Stratagem, roll one D6: on a 3+, you gain 1CP") rolls one too, its conditions read
    with the game's (Eye of the Prognosticars: a 5+, a 4+ within range of a marker its army controls)."""
    if unit is None or not _any(game):
        return
    own = None
    if unit.affected and unit.player == p and unit.sets("stratagem_refund_own"):
        own = min((e.stratagem_refund_own for e in unit.setting("stratagem_refund_own", holds_in(game))), default=None)
    if own is not None:
        roll_for_cp(game, unit, "stratagem_refund_own", own)
    for b in game.army_units(p):
        need = effect_least(b, "stratagem_refund") if b.affected else None
        if need is not None and (b is unit or game.visible_idx(b, unit)):
            roll_for_cp(game, b, "stratagem_refund", need)


def roll_for_cp(game: Any, u: Any, field: str, need: int) -> None:
    """The rule of ``u`` that gives it ``field`` rolls one D6 for its player: on ``need`` or more,
    they gain 1CP (Shipboard Veteran, Power of the Rosette, Coordinated Leadership)."""
    rule = u.source(field)
    roll = game.dice.d6(f"{rule} {u.uid}")
    game.emit(ev.RuleRoll(e="rule_roll", player=u.player, rule=rule, roll=roll))
    if roll >= need:
        game.gain_cp(u.player, 1, rule)
