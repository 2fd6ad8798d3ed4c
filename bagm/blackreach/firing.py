"""FIRING ACTION: 1D6 + COMBAT against DEFENCE, double hits; SUPPRESSIVE FIRE; SNIPER fire."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from bagm.blackreach.counters import Kind
from bagm.blackreach.hits import SM_PENALTY, Victim, fate_effect, hit_fates, resolve_hit
from bagm.blackreach.odds import Chances, Odds, add, need
from bagm.chance.dice import Dice
from bagm.chance.dist import Dist, die, highest, mix, outcomes, shift

LONG_RANGE = 7  # RANGE: a shot longer than 7 squares is at long range
LONG_RANGE_PENALTY = 2
REAR_BONUS = 2  # FIRING ON A VEHICLE: LOS across the rear of a heavy vehicle

MISS, HIT, DOUBLE = "miss", "hit", "double hit"


@dataclass(frozen=True)
class Shot:
    """One firing action's numbers (FIRING ACTION, LINE OF SIGHT, RANGE, FIRING ON A VEHICLE).

    ``bonus`` and ``penalty`` are the other modifiers the user counts (action cards, munitions
    carrier +1, fire on the move, enfeebled -2, the aircraft speed penalty...).
    """

    combat: int
    defence: int
    defence_bonus: int = 0  # terrain DEFENSIVE BONUSES, FRONT ARMOUR +2, PAINBOY +2
    bonus: int = 0
    penalty: int = 0
    sm: int = 0  # SMs on the firing unit: -2 each
    obscuring: tuple[int, ...] = ()  # the value of each obscuring square the LOS crosses
    range: int | None = None  # squares to the target; more than 7 is long range
    ignore_long_range: bool = False  # HAWK-EYED; AIRCRAFT never apply it
    rear: bool = False  # LOS crosses the rear of a heavy vehicle: +2
    dice: int = 1  # TWIN-LINKED: 2 dice, keep the best
    speed_penalty: int = 0  # SPEED PENALTY against an aircraft (give ignore_long_range too)
    reroll: bool = False  # PRESCIENCE: reroll a roll that fails; the new result is kept
    template: bool = False  # HOWITZER / INDIRECT FIRE: one attack per unit under a template
    indirect: bool = False  # INDIRECT FIRE: obscuring obstacles do not modify the attack
    victim: Victim = field(default_factory=Victim)
    piercing: bool = False
    double_saveable: bool = True

    def __post_init__(self) -> None:
        need(self.defence >= 1, "DEFENCE is at least 1")
        need(self.defence + self.defence_bonus >= 1, "DEFENCE with its bonuses is at least 1")
        need(self.sm >= 0, "a unit cannot have fewer than 0 SMs")
        need(self.range is None or self.range >= 1, "the range is at least 1 square")
        need(all(v >= 0 for v in self.obscuring), "an obscuring square's value is 0 or more "
             "(give the number printed on it; it is subtracted)")
        need(self.dice in (1, 2), "a firing action rolls 1 die (2 when twin-linked)")
        need(not self.rear or self.victim.kind is Kind.heavy,
             "the rear bonus is for shots at a heavy vehicle")
        # HOWITZER: a template never gets the rear bonus (nor meets front armour: leave it out)
        need(not (self.rear and (self.template or self.indirect)),
             "a template attack never gets the bonus for the rear of a vehicle")

    @property
    def long_range(self) -> bool:
        return self.range is not None and self.range > LONG_RANGE and not self.ignore_long_range

    @property
    def target(self) -> int:
        """The DEFENCE to reach, with its bonuses."""
        return self.defence + self.defence_bonus

    def modifier(self, doubled_bonuses: bool = False) -> int:
        """Everything added to the die: COMBAT and bonuses (doubled for suppressive fire),
        then the penalties (FIRING ACTION: add the bonuses, then subtract the penalties)."""
        plus = self.combat + self.bonus + (REAR_BONUS if self.rear else 0)
        obscured = 0 if self.indirect else sum(self.obscuring)
        minus = (self.penalty + self.speed_penalty + SM_PENALTY * self.sm + obscured
                 + (LONG_RANGE_PENALTY if self.long_range else 0))
        return (2 if doubled_bonuses else 1) * plus - minus

    def total(self, doubled_bonuses: bool = False) -> Dist:
        once = shift(highest(die(6), self.dice), self.modifier(doubled_bonuses))
        if not self.reroll:
            return once
        # PRESCIENCE: a result below DEFENCE (no hit, no SM) is rolled again and kept
        fail = sum((p for r, p in once.items() if r < self.target), Fraction(0))
        kept = {r: p for r, p in once.items() if r >= self.target}
        return mix([(Fraction(1), kept), (fail, once)])

    def roll(self, dice: Dice, reason: str, doubled_bonuses: bool = False) -> int:
        """Play the roll (with the PRESCIENCE reroll of a failed one)."""
        mod = self.modifier(doubled_bonuses)
        result = max(dice.d6(reason) for _ in range(self.dice)) + mod
        if self.reroll and result < self.target:
            result = max(dice.d6(reason + " (prescience)") for _ in range(self.dice)) + mod
        return result

    def judge(self, result: int) -> str:
        # FIRING ACTION: at least DEFENCE hits; Double hits: at least twice DEFENCE destroys
        if result >= 2 * self.target:
            return DOUBLE
        return HIT if result >= self.target else MISS


def _inputs(s: Shot) -> dict[str, object]:
    return {"combat": s.combat, "defence": s.defence, "defence_bonus": s.defence_bonus,
            "modifier": s.modifier(), "long_range": s.long_range, "dice": s.dice,
            "target": s.victim.kind.value}


def fire_odds(s: Shot, frightening: bool = False) -> Odds:
    """The exact odds of one firing action and of what it does to the target."""
    total = s.total()
    shot = outcomes(total, s.judge)
    out: Chances = {}
    add(out, MISS, shot.get(MISS, Fraction(0)))
    for kind in (HIT, DOUBLE):
        for fate, p in hit_fates(s.victim, kind == DOUBLE, s.piercing, s.double_saveable).items():
            add(out, fate, shot.get(kind, Fraction(0)) * p)
    effects = {k: fate_effect(k, s.victim) for k in out}
    effects[MISS] = "no effect" + ("; FRIGHTENING SHOT: you may put 1 SM on the target"
                                   if frightening else "")
    notes = [(f"hit on {s.target}+, double hit (destroyed) on {2 * s.target}+; the die plus "
             f"{s.modifier():+d} in all")]
    if s.indirect and s.obscuring:
        notes.append("INDIRECT FIRE: obscuring obstacles do not modify the attack (ignored)")
    if s.template or s.indirect:
        notes.append("a template attacks each unit even partly under it with its own roll; the "
                     "vehicle's FRONT ARMOUR never applies (do not add it)")
    if s.reroll:
        notes.append("PRESCIENCE: a roll that misses is rolled again and the new result kept")
    if s.speed_penalty:
        notes.append(f"SPEED PENALTY -{s.speed_penalty} against an aircraft")
    if s.victim.save is not None and not s.piercing:
        notes.append("reading: an armour save ignores a double hit too (it ignores 'the hit'); "
                     "--no-save-double-hits for the other reading" if s.double_saveable else
                     "reading chosen: a double hit cannot be saved")
    return Odds("fire", "FIRING ACTION; EFFECT OF A HIT", out, effects,
                {"total": dict(sorted(total.items())), "shot": {k: shot.get(k, Fraction(0))
                                                                for k in (MISS, HIT, DOUBLE)}},
                notes, _inputs(s))


def resolve_fire(dice: Dice, s: Shot) -> str:
    """Play one firing action: the roll, then the save and the hit location if it hits."""
    result = s.roll(dice, "firing action")
    shot = s.judge(result)
    if shot == MISS:
        return MISS
    return resolve_hit(dice, s.victim, shot == DOUBLE, s.piercing, s.double_saveable)


def suppressive_markers(s: Shot, result: int) -> int:
    """SUPPRESSIVE FIRE: 1 SM per whole DEFENCE (with bonuses) the result reaches."""
    return max(result, 0) // s.target


def suppressive_odds(s: Shot) -> Odds:
    """SUPPRESSIVE FIRE: COMBAT and the bonuses doubled, no hits; SMs by multiples of DEFENCE."""
    total = s.total(doubled_bonuses=True)
    sms = outcomes(total, lambda r: suppressive_markers(s, r))
    out = {("no SM" if n == 0 else f"{n} SM"): p for n, p in sorted(sms.items())}
    effects = {k: ("no effect" if k == "no SM" else f"the target receives {k}; no hit")
               for k in out}
    notes = [(f"the die plus {s.modifier(True):+d}: COMBAT and bonuses doubled, penalties not "
             f"(the text doubles 'the attacker's COMBAT and all other bonuses'); 1 SM per "
             f"{s.target} reached")]
    return Odds("suppressive fire", "SUPPRESSIVE FIRE", out, effects,
                {"total": dict(sorted(total.items()))}, notes, _inputs(s))


def resolve_suppressive(dice: Dice, s: Shot) -> str:
    result = s.roll(dice, "suppressive fire", doubled_bonuses=True)
    n = suppressive_markers(s, result)
    return "no SM" if n == 0 else f"{n} SM"


# SNIPER: the result bands of the summary's table
SNIPER_TABLE = ((1, "no effect"), (3, "SM"), (5, "hit"), (6, "hit and SM"))


@dataclass(frozen=True)
class Sniper:
    """SNIPER: 1 die modified by the sniper's SMs, obstacles and bonuses (an alternate firing
    action: the counter's COMBAT does not count)."""

    sm: int = 0
    obscuring: tuple[int, ...] = ()
    bonus: int = 0
    penalty: int = 0
    victim: Victim = field(default_factory=Victim)
    table: tuple[tuple[int, str], ...] = SNIPER_TABLE  # (highest result, effect), ascending

    def __post_init__(self) -> None:
        need(self.sm >= 0, "a unit cannot have fewer than 0 SMs")
        need(all(v >= 0 for v in self.obscuring), "an obscuring square's value is 0 or more")
        need(bool(self.table) and all(a[0] < b[0] for a, b in zip(self.table, self.table[1:])),
             "a sniper table lists its bands in rising order")

    @property
    def modifier(self) -> int:
        return self.bonus - self.penalty - SM_PENALTY * self.sm - sum(self.obscuring)

    def band(self, result: int) -> str:
        # reading: a modified result below the first band counts as it, above the last as it
        for top, effect in self.table:
            if result <= top:
                return effect
        return self.table[-1][1]


def parse_sniper_table(text: str) -> tuple[tuple[int, str], ...]:
    """``1:none,2-3:sm,4-5:hit,6:hit+sm`` -> the bands of a recruitment tile's firing table."""
    names = {"none": "no effect", "no effect": "no effect", "sm": "SM", "hit": "hit",
             "hit+sm": "hit and SM", "hit and sm": "hit and SM"}
    bands: list[tuple[int, str]] = []
    for part in text.split(","):
        scores, _, effect = part.partition(":")
        top = scores.strip().split("-")[-1]
        need(top.strip().isdigit() and effect.strip().lower() in names,
             f"bad sniper table band '{part.strip()}': write bands like 1:none,2-3:sm,4-5:hit,6:hit+sm")
        bands.append((int(top), names[effect.strip().lower()]))
    return tuple(bands)


def sniper_odds(s: Sniper) -> Odds:
    total = shift(die(6), s.modifier)
    bands = outcomes(total, s.band)
    out: Chances = {}
    effects: dict[str, str] = {}
    for _, effect in s.table:
        p = bands.get(effect, Fraction(0))
        if effect in ("no effect", "SM"):
            add(out, effect, p)
            effects[effect] = "no effect" if effect == "no effect" else "the target receives 1 SM"
            continue
        for fate, q in hit_fates(s.victim).items():
            key = f"{effect}: {fate}"
            add(out, key, p * q)
            effects[key] = fate_effect(fate, s.victim) + (
                "; and 1 SM if not destroyed" if effect == "hit and SM" and fate != "destroyed"
                else "")
    notes = ["reading: a modified result of 1 or less has no effect, 6 or more is the top band",
             "a sniper targets infantry only"]
    return Odds("sniper fire", "SNIPER", out, {k: effects.get(k, "") for k in out},
                {"total": dict(sorted(total.items()))}, notes,
                {"modifier": s.modifier, "table": [list(b) for b in s.table]})


def resolve_sniper(dice: Dice, s: Sniper) -> str:
    effect = s.band(dice.d6("sniper") + s.modifier)
    if effect in ("no effect", "SM"):
        return effect
    return f"{effect}: {resolve_hit(dice, s.victim)}"
