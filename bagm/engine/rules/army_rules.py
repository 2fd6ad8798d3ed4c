"""Army rules that act on the battle as a whole rather than on one unit's attacks or moves: the
Boarding Actions Mustering Rules' army rules (Insidious Ambushers, Auspex Ghosts, Twisting Fate),
Power from Pain's Pain tokens,
carried as effects by the units that have them (:class:`bagm.data.models.Effect`) and read here
where the game asks. An army without such a rule pays one scan of its units' effects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bagm.engine.rules.effects import effect_first, effect_has, effect_least, effect_sum
from bagm.engine.rules.stratagem_costs import roll_for_cp
from bagm.engine.state import events as ev
from bagm.engine.state.core import PLAYERS, Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.engine.game.interface import GameInterface
    from bagm.engine.state.army import Unit


def _army_has(game: GameInterface, p: Player, field: str) -> str | None:
    """The rule of a unit of ``p``'s army (set up or not, not destroyed) that gives ``field``."""
    army = game.armies[p]
    if not army.may_set(field):
        return None  # (asked at every phase of every game: most armies have none of these rules)
    for u in army.units:
        if u.where != "destroyed" and u.affected and effect_has(u, field):
            return u.source(field)
    return None


def deploys_last(game: GameInterface, p: Player) -> bool:
    """Insidious Ambushers, Auspex Ghosts: "in the Deploy Armies step, your opponent must set up
    their entire army before you set up any of your units; if both players have a rule which
    allows them to do this, both players set up their armies normally"."""
    return _army_has(game, p, "deploy_last") is not None and \
        _army_has(game, game.other(p), "deploy_last") is None


def stratagem_spent(game: GameInterface, p: Player, cp: int) -> None:
    """Player ``p`` spent ``cp`` CP to use a Stratagem. Twisting Fate (Thousand Sons, Boarding
    Actions Mustering Rules): "each time you or your opponent spend one or more Command Points to
    use a Stratagem, roll one D6, adding 1 if your plan is in Ascendence: on a 1-2, your opponent
    gains 1CP, on a 6+, you gain 1CP". Ascendence: a THOUSAND SONS PSYKER unit of that army on
    the battlefield (reading: the units with the rule are its THOUSAND SONS units) and at least
    as many objective markers controlled as the opponent."""
    if cp < 1:
        return
    for q in PLAYERS:
        rule = _army_has(game, q, "stratagem_cp_roll")
        if rule is None:
            continue
        other = game.other(q)
        mine = sum(1 for c in game.control if c == q) + sum(  # e.g. Predestined Champion: one more
            effect_sum(u, "fate_markers") for u in game.army_units(q) if u.affected)
        theirs = sum(1 for c in game.control if c == other)
        ascendant = mine >= theirs and any(
            u.alive and "PSYKER" in u.keywords and effect_has(u, "stratagem_cp_roll") for u in game.army_units(q))
        mod = 1 if ascendant else 0
        roll = game.dice.d6(f"{rule} {q}")
        rolled = ev.RuleRoll(e="rule_roll", player=q, rule=rule, roll=roll)
        if mod:
            rolled["mod"] = mod
        game.emit(rolled)
        if roll + mod <= 2:
            game.gain_cp(other, 1, rule)
        elif roll + mod >= 6:
            game.gain_cp(q, 1, rule)


# --- Power from Pain (Drukhari) ------------------------------------------------------------------


def pain_army(game: GameInterface, p: Player) -> str | None:
    """The rule by which ``p``'s army gains Pain tokens (Power from Pain: "if your Army Faction is
    DRUKHARI"), or None."""
    return _army_has(game, p, "pain_tokens")


def gain_pain(game: GameInterface, p: Player, why: str) -> None:
    """Power from Pain: player ``p`` gains 1 Pain token, if their army gains Pain tokens."""
    if pain_army(game, p) is None:
        return
    game.pain[p] += 1
    game.emit(ev.Pain(e="pain", player=p, gain=1, pool=game.pain[p], why=why))


def pain_at_start(game: GameInterface) -> None:
    """Feast of Pain (Drukhari, Boarding Actions Mustering Rules): "at the start of the battle,
    you gain 1 Pain token"."""
    for p in PLAYERS:
        gain_pain(game, p, "Feast of Pain")


def pain_in_command(game: GameInterface, p: Player) -> None:
    """The start of ``p``'s Command phase: Power from Pain, "1 Pain token at the start of your
    Command phase"; Pain Adept, "in your Command phase, if one or more models from your army with
    this ability are on the battlefield, roll one D6: on a 4+, you gain 1 Pain token" (one roll for
    the army)."""
    if pain_army(game, p) is None:
        return
    gain_pain(game, p, "Power from Pain")
    adepts = [u for u in game.army_units(p) if u.affected and effect_least(u, "pain_roll") is not None]
    if adepts:
        need = min(effect_least(u, "pain_roll") or 7 for u in adepts)
        rule = adepts[0].source("pain_roll")
        roll = game.dice.d6(f"{rule} {p}")
        game.emit(ev.RuleRoll(e="rule_roll", player=p, rule=rule, roll=roll))
        if roll >= need:
            gain_pain(game, p, rule)


def cp_rolls(game: GameInterface, p: Player) -> None:
    """``p``'s Command phase: each of their units on the battlefield with ``cp_roll`` rolls one D6,
    X+ gaining 1CP (Coordinated Leadership: "in your Command phase, roll one D6: on a 4+, you gain
    1CP")."""
    for u in game.army_units(p):
        need = effect_least(u, "cp_roll") if u.affected else None
        if need is not None:
            roll_for_cp(game, u, "cp_roll", need)


def pain_from(game: GameInterface, u: Unit, why: str) -> None:
    """``u`` was destroyed, or failed a Battle-shock test: its opponent gains 1 Pain token
    (Power from Pain: "each time an enemy unit is destroyed", "... fails a Battle-shock test")."""
    gain_pain(game, game.other(u.player), why)


def pain_for_kill(game: GameInterface, dead: Unit, by: Unit) -> None:
    """Enemy unit ``dead`` was destroyed by the attacks of ``by``: Detachment rules that gain its
    army Pain tokens then. Appetite for Adulation (Ship-Killer Cult): "in the Fight phase, if two or
    more enemy units are destroyed by DRUKHARI units from your army that phase, you gain 1 Pain
    token" (reading: one token a phase, when the second is destroyed; a unit destroyed by mortal
    wounds no unit's attacks caused does not count). Raid and Pillage (Kabalite Corsairs): "each time a
    DRUKHARI unit from your army destroys an enemy unit, if that enemy unit was within range of an
    objective marker controlled by your opponent at the start of the phase, you gain 1 Pain token"."""
    if not by.affected or pain_army(game, by.player) is None:
        return
    if dead.held_at == game.phase_id and effect_has(by, "raid_pain"):
        gain_pain(game, by.player, by.source("raid_pain"))  # Raid and Pillage
    need = effect_least(by, "fight_kills_pain") if game.phase == "fight" else None
    if need is not None:
        rule, p = by.source("fight_kills_pain"), by.player
        n = 1  # the destroyed units counted this phase are marks in ``used`` (kept by clones)
        while (p, f"{rule} kill {n}", game.phase_id) in game.used:
            n += 1
        game.used.add((p, f"{rule} kill {n}", game.phase_id))
        if n == need:
            gain_pain(game, p, rule)


def raid_marks(game: GameInterface) -> None:
    """The start of a phase: for an army with Raid and Pillage, note each enemy unit within range
    of an objective marker the enemy army controls now (``Unit.held_at``)."""
    for p in PLAYERS:
        if _army_has(game, p, "raid_pain") is None:
            continue
        foe = game.other(p)
        markers = game.map.layout.markers
        held = [mk for i, mk in enumerate(markers) if game.control[i] == foe]
        for u in game.army_units(foe) if held else ():
            if any(game.bf.in_objective_range(m.base, mk) for mk in held for m in u.models):
                u.held_at = game.phase_id


def kill_pain(game: GameInterface, u: Unit, t: Unit, models: int) -> None:
    """``u``'s attacks destroyed ``models`` models of ``t``. Commorrite Rivalries (Space Lane
    Raiders): "each time a DRUKHARI CHARACTER model from your army destroys an enemy CHARACTER
    model, you gain 1 Pain token"."""
    kw = effect_first(u, "kill_pain")
    if kw is not None and kw in t.keywords:
        for _ in range(models):
            gain_pain(game, u.player, u.source("kill_pain"))


def fnp_pain(game: GameInterface, u: Unit, saved: int) -> None:
    """``saved`` Feel No Pain rolls just succeeded for ``u``'s models. Regenerative Agony
    (Painbringers): "each time four or more Feel No Pain rolls are successful for HAEMONCULUS COVENS
    models from your army in a single phase, you gain 1 Pain token" (reading: once a phase, when
    the fourth succeeds; the rolls of every such unit of the army count together)."""
    need = effect_least(u, "fnp_pain") if u.affected else None
    if need is None:
        return
    rule, p = u.source("fnp_pain"), u.player
    for _ in range(saved):
        n = 1  # the successes counted this phase are marks in ``used`` (kept by clones)
        while (p, f"{rule} fnp {n}", game.phase_id) in game.used:
            n += 1
        game.used.add((p, f"{rule} fnp {n}", game.phase_id))
        if n == need:
            gain_pain(game, p, rule)


def _regenerate(game: GameInterface, u: Unit) -> None:
    """Regenerative Agony: "each battle round, the first time a HAEMONCULUS COVENS unit from your
    army becomes Empowered in that battle round, roll one D6: on a 2-5, one model in that unit
    regains 1 lost wound, or if that unit has the WRACKS keyword, one destroyed model is returned to
    it with it's full wounds remaining; on a 6, one model in that unit regains up to two lost wounds
    or if that unit has the WRACKS keyword, one destroyed model is returned to it"."""
    rule = u.source("empower_regen")
    mark = (u.player, f"{rule} regen", -game.round)  # the army's first Empowering of the round
    if mark in game.used:
        return
    game.used.add(mark)
    roll = game.dice.d6(f"{rule} {u.uid}")
    game.emit(ev.RuleRoll(e="rule_roll", player=u.player, rule=rule, roll=roll))
    if roll < 2:
        return
    if "WRACKS" in u.keywords:
        game.return_models(u, 1, rule)
        return
    fulls = u.fulls() or [u.W] * len(u.models)
    for m, full in zip(u.models, fulls):
        if m.wounds < full:
            got = min(2 if roll == 6 else 1, full - m.wounds)
            m.wounds += got
            game.emit(ev.RegainWounds(e="regain_wounds", unit=u.uid, wounds=got, rule=rule))
            return


def empowered(game: GameInterface, u: Unit) -> None:
    """``u`` becomes Empowered (Power from Pain: until the end of the phase). Power and Greed:
    "the first time in each turn that the bearer is Empowered, roll one D6: on a 3+, you gain 1
    Pain token"; Regenerative Agony (:func:`_regenerate`)."""
    u.empowered = game.phase_id
    if u.affected and effect_has(u, "empower_regen"):
        _regenerate(game, u)
    need = effect_least(u, "empower_pain_roll") if u.affected else None
    if need is None:
        return
    rule = u.source("empower_pain_roll")
    mark = (u.player, f"{rule} {u.uid}", 100_000 + game.turn)  # once per turn
    if mark in game.used:
        return
    game.used.add(mark)
    roll = game.dice.d6(f"{rule} {u.uid}")
    game.emit(ev.RuleRoll(e="rule_roll", player=u.player, rule=rule, roll=roll))
    if roll >= need:
        gain_pain(game, u.player, rule)


def pain_discount(game: GameInterface, p: Player) -> str | None:
    """Commorrite Rivalries (Space Lane Raiders): "each time you use the Battlefield Command
    Stratagem, you can expend 1 Pain token from your Pain token pool. If you do, decrease that
    Stratagem's cost by 1CP for that usage": the rule, when ``p`` has a token to expend."""
    return _army_has(game, p, "pain_discount") if game.pain[p] >= 1 else None
