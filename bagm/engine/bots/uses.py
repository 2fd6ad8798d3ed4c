"""The greedy bot's use of rules used at a moment (:mod:`bagm.engine.game.moments`): supplied
Stratagems, Enhancements, Detachment rules and datasheet abilities with a moment, free choices
between alternatives (a Ka'Tah stance, a Doctrina, an Arcanoscientific Expertise aura) by the
expected damage they add, and its advice on a Detachment rule's decision (Commorrite Rivalries).
Functions take the bot first (as :mod:`bagm.engine.bots.objectives` does)."""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

from bagm.chance.dice import parse_dice
from bagm.engine.attack.rules import Conditions
from bagm.engine.game import deployment, moments, positions
from bagm.engine.game.sequence import Game, Unit
from bagm.engine.rules.effects import HIT_FIELDS, WEAPON_FIELDS, effect_conditions, effect_weapon, holds_in
from bagm.engine.state.actions import Action
from bagm.engine.state.army import fields_set
from bagm.engine.state.core import Player

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

        base: dict[str, tuple[float, Unit | None]] = {}  # each unit's expected damage without any of them (asked once)
        worths: dict[tuple[str | None, str | None], tuple[float, bool, bool]] = {}

        def worth(a: Action) -> tuple[float, bool, bool]:
            if (a.arg, a.unit) in worths:
                return worths[a.arg, a.unit]
            s, u = rules[a.arg], g.unit(a.unit)
            held = any(n == s.name for v in g.army_units(d.player) for n, _, _ in v.timed)
            # (nothing to gain in attacks: more OC for a unit on an objective marker, say Duty and Honour!)
            oc = any(e.OC_mod > 0 for e in s.effects) and bot.on_marker(g, u)
            got = worths[a.arg, a.unit] = (use_gain(bot, g, s, u, fight, base) - self_risk(s, u), not held, oc)
            return got
        # one at a time (Orders): a unit that already has one this phase is left for the next
        choices = [a for a in choices if call_now(g, rules[a.arg], d.player) and not (
            rules[a.arg].one_at_a_time and _carries(g, rules[a.arg], g.unit(a.unit)))]
        if not choices:
            return None
        # (one choice: it is the best whatever it is worth, which is then worked out only when
        # the answer reads it, in the Fight phase or for a rule with a cost to the unit)
        best = choices[0] if len(choices) == 1 else max(choices, key=worth)
        costly = self_risk(rules[best.arg], g.unit(best.unit)) > 0  # (Dark Pacts: only if it pays)
        return best if not fight and not costly or worth(best)[0] > 0 else None
    # reinforcements (Transdimensional Reinforcement, once per battle): once half the unit is
    # gone, or in the last rounds once any model is
    uses = [a for a in uses if not any(e.reinforce_roll for e in rules[a.arg].effects) or (
        lambda u: 2 * len(u.models) <= u.starting or g.round >= 4 and len(u.models) < u.starting)(g.unit(a.unit))]
    # destroyed models returned (Pox-Bearer: D3+2 once per battle): once as many are lost as it
    # returns on average, or in the last rounds once any is
    uses = [a for a in uses if rules[a.arg].returns is None or _worth_returning(g, g.unit(a.unit), rules[a.arg])]
    if uses and d.info.get("timing") == "phase_end":  # only a free rule (an Enhancement's, say)
        free = {x.name for x in g.armies[d.player].uses if not x.stratagem}
        uses = [a for a in uses if a.arg in free]
    if uses and "unit" in d.info and "CHARACTER" in g.unit(d.info["unit"]).keywords:
        # a rule that makes its weapons [HAZARDOUS] (Overload Machine Spirits): never on a
        # CHARACTER, whose failed Hazardous test costs 3 mortal wounds
        risky = {x.name for x in g.armies[d.player].uses
                 if any(a.name == "hazardous" for e in x.effects for a in e.weapon_abilities)}
        uses = [a for a in uses if a.arg not in risky]
    uses = [a for a in uses if not rules[a.arg].pain or pain_pays(bot, g, rules[a.arg], g.unit(a.unit))]
    if not uses:
        return None
    rules = {x.name: x for x in g.armies[d.player].uses}
    if any(rules[a.arg].moves for a in uses):  # a Normal move now: never off a marker; when the
        # rule ends the unit's charge, only for a unit with no enemy unit within 12" to charge
        foes = g.army_units(g.other(d.player))
        uses = [a for a in uses if not rules[a.arg].moves or not bot.on_marker(g, g.unit(a.unit)) and not (
            any(e.no_charge for e in rules[a.arg].effects) and
            any(positions.min_straight(g, g.unit(a.unit), f) <= 12 for f in foes))]
        if not uses:
            return None
    leave = next((a for a in uses if any(e.deep_strike_back for e in rules[a.arg].effects)), None)
    if leave is not None:  # Stalking Menace: away from a fight it would lose
        return leave if _worth_leaving(bot, g, g.unit(leave.unit)) else None
    if any(rules[a.arg].reserves is not None for a in uses):  # Ambushing Hunters: a unit out of the fight
        # and off the markers goes into Reserves when an empty Entry Zone of its army is nearer to an
        # objective marker than it is (it arrives there in its next Movement phase)
        back = [a for a in uses if rules[a.arg].reserves is not None and regroup(bot, g, g.unit(a.unit))]
        if back:
            return back[0]
        uses = [a for a in uses if rules[a.arg].reserves is None]
        if not uses:
            return None
    enemies = [a for a in uses if g.unit(a.unit).player != d.player]
    if enemies:  # a rule that selects an enemy unit: the most valuable one (Quill Marker: one that a
        # unit of its own could then charge unseen first)
        def reach(a: Action) -> tuple[bool, int]:
            t = g.unit(a.unit)
            near = any(e.charged_unseen is not None and any(
                (e.charged_unseen_by is None or e.charged_unseen_by in v.keywords) and
                positions.unit_distance(g, v, t) <= e.charged_unseen for v in g.army_units(d.player)) for e in rules[a.arg].effects)
            return near, t.points
        return max(enemies, key=reach)
    if "unit" in d.info:
        return uses[0]
    if g.active != d.player:
        return None
    return max(uses, key=lambda a: g.unit(a.unit).points)


def _carries(g: Game, s: Any, u: Unit) -> bool:
    """``u`` has the effects of a use of ``s``'s rule (any alternative, any unit's)."""
    rule = s.group or s.name
    names = {x.name for x in g.armies[u.player].uses if (x.group or x.name) == rule}
    return any(n in names for n, _, _ in u.timed)


def self_risk(s: Any, u: Unit) -> float:
    """What a rule may cost its own unit: its test (Dark Pacts: a failed Leadership test, D3
    mortal wounds and, Forsaken, the rule for the rest of the battle: the chance of failing times
    two wounds' worth of the unit's points, twice over with the rule lost); weapons it makes
    [HAZARDOUS] (one model in six lost, a model's worth of points each)."""
    if not u.models:
        return 0.0
    risk = 0.0
    if s.self_test is not None:
        fail = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b < u.leadership()) / 36
        wounds = sum(m.wounds for m in u.models) or 1
        risk += fail * 2 * u.points / wounds * (2 if s.self_test_forsake else 1)
    if any(a.name == "hazardous" for e in s.effects for a in e.weapon_abilities):
        risk += len(u.models) / 6 * u.points / max(1, u.starting)
    return risk


def pain_pays(bot: GreedyBot, g: Game, s: Any, u: Unit) -> bool:
    """Whether to spend Pain tokens on ``u`` (Power from Pain): a charge it could not otherwise
    declare (it Advanced or Fell Back, an enemy unit within 12"), a re-roll it may need (an enemy
    unit within 12" to charge, 18" to advance toward), or attacks it adds expected damage to."""
    foes = g.army_units(g.other(u.player))
    near = min((positions.min_straight(g, u, f) for f in foes), default=math.inf)
    if any(e.charge_after_advance or e.charge_after_fall_back for e in s.effects):
        return u.moved in ("advance", "fallback") and near <= 12 and not positions.engaged_with(g, u)
    if any(e.reroll_advance or e.reroll_charge for e in s.effects):
        return not positions.engaged_with(g, u) and near <= (12 if g.phase == "charge" else 18)
    return use_gain(bot, g, s, u, g.phase == "fight") > 0


def regroup(bot: GreedyBot, g: Game, u: Unit) -> bool:
    """Whether ``u`` would rather arrive again from an empty Entry Zone of its army: off the
    objective markers, no enemy unit within 18", and that Entry Zone nearer to a marker."""
    if bot.on_marker(g, u) or g.round >= 5 or any(positions.min_straight(g, u, e) <= 18 for e in g.army_units(g.other(u.player))):
        return False
    markers = [(m.x, m.y) for m in g.map.layout.markers]
    if not markers or not u.models:
        return False
    everyone = [m.base for v in g.units.values() if v.alive and v is not u for m in v.models]
    zones = [z for z in deployment.entry_zones(g, u.player) if not any(z.within(b) for b in everyone)]

    def near(q: tuple[float, float]) -> float:
        return min(math.hypot(q[0] - x, q[1] - y) for x, y in markers)
    here = near((u.models[0].x, u.models[0].y))
    return any(near(z.centre) + 6 < here for z in zones)


def call_now(g: Game, s: Any, p: Player) -> bool:
    """A once-per-battle call for the army that lasts a while (Waaagh!, Void Waaagh!): made once a
    unit it covers is within 12" of an enemy unit (a charge away), or in the last battle round;
    Battle-shock tests for every enemy unit (Shadow in the Warp): in the opponent's Command phase;
    other rules with alternatives: whenever they add the most."""
    if s.shocks is not None:  # Shadow in the Warp: at the start of the opponent's Command phase (a
        # failed test lasts through their turn), once most of their units are on the battlefield
        foes = g.army_units(g.other(p))
        return g.active != p and (2 * len(foes) >= len(g.armies[g.other(p)].units) or g.round >= 4)
    if not (s.army and s.once == "battle" and s.until in ("round", "next")) or g.round >= 5:
        return True
    foes = g.army_units(g.other(p))
    # (bounding boxes more than 12" apart: a quick proof that no two bases are within 12")
    return any(not positions.apart(g, v, f, 12.0) and positions.min_straight(g, v, f) <= 12
               for v in g.army_units(p) if moments.covers(s, v) for f in foes)


def _worth_leaving(bot: GreedyBot, g: Game, u: Unit) -> bool:
    """Stalking Menace (into Strategic Reserves, back by Deep Strike next turn): for a bearer that
    has lost wounds or has an enemy unit worth more within 12", never off an objective marker it
    holds, and only while a Movement phase of its own is still to come (else it is destroyed)."""
    if bot.on_marker(g, u) or g.round >= g.mission.rounds and g.first == u.player:
        return False
    hurt = any(m.wounds < full for m, full in zip(u.models, u.fulls() or [u.W] * len(u.models)))
    return hurt or any(e.points > u.points and positions.min_straight(g, u, e) <= 12 for e in g.army_units(g.other(u.player)))


def _worth_returning(g: Game, u: Unit, s: Any) -> bool:
    """Return destroyed models now: as many are lost as the rule returns on average (all of it
    is used), or it is the fourth battle round or later."""
    lost = u.starting - len(u.models)
    return lost >= min(float(parse_dice(s.returns.return_models).mean()), float(u.starting)) or g.round >= 4


PRICED = frozenset(WEAPON_FIELDS + HIT_FIELDS)
"""The fields of a unit's effects that :func:`effects_value` reads (through :func:`effect_weapon`
and :func:`effect_conditions`: the attacker's side of its attacks)."""


def use_gain(bot: GreedyBot, g: Game, s: Any, u: Unit, fight: bool,
             base: dict[str, tuple[float, Unit | None]] | None = None) -> float:
    """What using ``s`` adds: the expected points its units would destroy with its effects
    less without (each unit's first ranged and first melee weapon on the nearest enemy unit;
    in the Fight phase only units within Engagement Range, their melee weapon). ``base``: each
    unit's figure without, and the enemy unit it is priced against, kept across the
    alternatives weighed at one decision. A rule none of whose effects sets a field the pricing
    reads (:data:`PRICED`) adds exactly nothing: it is not priced."""
    if not any(fields_set(e) & PRICED for e in s.effects):
        return 0.0
    units = [v for v in g.army_units(u.player) if moments.covers(s, v)] if s.army else [u]
    if (aura := max((e.aura for e in s.effects if e.aura is not None), default=None)) is not None:
        units = [v for v in g.army_units(u.player) if v is u or positions.unit_distance(g, u, v) <= aura]  # a timed aura
    if fight:
        units = [v for v in units if positions.engaged_with(g, v)]
    base = {} if base is None else base
    total = 0.0
    for v in units:
        got = base.get(v.uid)
        if got is None:
            t = facing(g, v, fight)
            got = base[v.uid] = (effects_value(bot, g, v, (), fight, t), t)
        total += effects_value(bot, g, v, s.effects, fight, got[1]) - got[0]
    return total


def facing(g: Game, u: Unit, fight: bool) -> Unit | None:
    """The enemy unit :func:`effects_value` prices ``u``'s attacks against: the nearest (in the
    Fight phase the nearest within Engagement Range); None: none, or ``u`` has no models."""
    enemies = positions.engaged_with(g, u) if fight else g.army_units(g.other(u.player))
    if not enemies or not u.models:
        return None
    return min(enemies, key=lambda e: positions.min_straight(g, u, e))


def effects_value(bot: GreedyBot, g: Game, u: Unit, effects: tuple[Any, ...], fight: bool,
                  t: Unit | None) -> float:
    """The expected points ``u`` would destroy of ``t`` (:func:`facing`) with ``effects`` used
    on it too, for the while."""
    if t is None:
        return 0.0
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


def _chance(n: int, need: float, first: int | None = None) -> float:
    """The chance that ``n`` D6 (one of them ``first`` when given) total ``need`` or more."""
    rest = n - (first is not None)
    totals = [sum(c) for c in itertools.product(range(1, 7), repeat=rest)] if rest else [0]
    base = first or 0
    return sum(1 for t in totals if t + base >= need - 1e-9) / len(totals)


def miracle_for(bot: GreedyBot, g: Game, p: str, legal: list[Action]) -> Action | None:
    """Acts of Faith, before a roll: an Advance roll takes a Miracle dice of 5 or 6; a Charge roll or a
    Battle-shock test the lowest Miracle dice that makes it as likely as any to succeed, if that adds
    a chance of 1 in 6 or more; a roll of the attack sequence: see :func:`_attack_miracle`."""
    d = g.decision
    options = sorted(int(a.arg) for a in legal if a.kind == "rule" and a.arg is not None)
    if not options:
        return None
    if d.info.get("what") == "advance":
        return Action("rule", arg=str(options[-1])) if options[-1] >= 5 else None
    if "faces" in d.info:  # a roll of the attack sequence
        return _attack_miracle(d.info, options)
    need, n = float(d.info.get("needed", 0)), int(d.info.get("dice", 2))
    best = max(_chance(n, need, v) for v in options)
    v = min(v for v in options if _chance(n, need, v) == best)
    return Action("rule", arg=str(v)) if best - _chance(n, need) >= 1 / 6 else None


def _attack_miracle(info: dict[str, Any], options: list[int]) -> Action | None:
    """Acts of Faith on a roll of the attack sequence: the lowest Miracle dice that adds (or saves) the
    most wounds on average, when that is one wound or more (the dice is the unit's one Act of Faith of
    the phase: spent where it matters). What a face is worth: a Hit roll's success the weapon's average
    Damage times the chances to wound and to get through the save; a Wound roll's the Damage times the
    chance past the save; a saving throw's the Damage it stops (at most the model's wounds left); a
    Damage roll's the wounds it inflicts (at most the model's wounds left)."""
    faces, what = info["faces"], info.get("what")
    damage, left = float(info.get("damage", 1)), int(info.get("wounds_left", 0))
    if what == "damage":
        worth = [min(float(f), left) if left else float(f) for f in faces]
    elif what == "save":
        worth = [min(damage, left or damage) if f else 0.0 for f in faces]
    else:
        past = (6 - int(info.get("save_faces", 0))) / 6 * damage
        if what == "hit":
            past *= int(info.get("wound_faces", 6)) / 6
        worth = [past if f != "fail" else 0.0 for f in faces]
    mean = sum(worth) / 6
    gain = {v: worth[v - 1] - mean for v in options}
    best = max(gain.values())
    return Action("rule", arg=str(min(v for v in options if gain[v] == best))) if best >= 1 else None


def pool_reroll_for(bot: GreedyBot, g: Game, p: str, legal: list[Action]) -> Action | None:
    """Chosen of Khorne: re-roll every dice of a Blessings of Khorne roll that activates no Blessing (a
    roll that fits one is kept: all of it would be risked)."""
    if g.decision.info.get("fits"):
        return None
    return next((a for a in legal if a.kind == "rule" and a.arg == "re-roll"), None)


def pain_for_cp(bot: GreedyBot, g: Game, p: str, legal: list[Action]) -> Action | None:
    """Commorrite Rivalries: a Pain token instead of 1CP for Battlefield Command, unless it is the
    army's last token while CP are plentiful (3 or more: kept to Empower a unit)."""
    if g.pain[p] <= 1 and g.cp[p] >= 3:  # type: ignore[index]
        return None
    return next((a for a in legal if a.kind == "rule"), None)
