"""PSYCHIC POWER OPTIONS: the powers' costs, the LIBRARIANS' and WEIRDBOY's perils of the warp
tests, and DA KRUNCH (2 dice against each unit under the G template)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from bagm.blackreach.hits import (
    SM_PENALTY,
    Victim,
    fate_effect,
    hit_fates,
    resolve_hit,
    unsaved_fates,
)
from bagm.blackreach.odds import BlackReachError, Chances, Odds, add, need
from bagm.chance.dice import Dice
from bagm.chance.dist import Dist, die, power, shift


@dataclass(frozen=True)
class Power:
    name: str
    cost: int  # SMs
    domain: str
    psyker: str  # librarian or weirdboy


# THE PSYCHIC POWERS and the PRIMARIS POWERS: each one's cost in SMs, as the text gives it
POWERS = {p.name.lower(): p for p in (
    Power("Smite", 1, "Biomancy (primaris)", "librarian"),
    Power("Enfeeble", 2, "Biomancy", "librarian"),
    Power("Endurance", 2, "Biomancy", "librarian"),
    Power("Prescience", 1, "Divination (primaris)", "librarian"),
    Power("Perfect Timing", 1, "Divination", "librarian"),
    Power("Scrier's Gaze", 2, "Divination", "librarian"),
    Power("Assail", 1, "Telekinetic (primaris)", "librarian"),
    Power("Objuration Mechanicum", 1, "Telekinetic", "librarian"),
    Power("Telekinetic Dome", 2, "Telekinetic", "librarian"),
    Power("Da Jump", 2, "Power of the Waaagh!", "weirdboy"),
    Power("Warpath", 1, "Power of the Waaagh!", "weirdboy"),
    Power("Da Krunch", 2, "Power of the Waaagh!", "weirdboy"),
    Power("Killbolt", 1, "Power of the Waaagh!", "weirdboy"),
    Power("Frazzle", 1, "Power of the Waaagh! (primaris)", "weirdboy"),
)}


def power_named(name: str) -> Power:
    p = POWERS.get(" ".join(name.lower().replace("’", "'").split()))
    if p is None:
        raise BlackReachError(f"unknown psychic power '{name}': "
                              f"{', '.join(q.name for q in POWERS.values())}")
    return p


# LIBRARIANS: the peril of the warp markers, named after what the text says each does
PERIL_MARKERS = {
    "no effect": "the power has no effect and its option is discarded for the game; discard "
                 "all SMs",
    "hit": "the power works, then the librarian suffers 1 hit; discard all SMs",
    "1 SM": "the power works, then 1 more SM on the librarian",
    "2 SMs": "the power works, then 2 more SMs on the librarian",
    "again": "the power works; discard all SMs; it may use the same power again at its cost",
}


def peril_marker(name: str) -> str:
    key = " ".join(name.lower().replace("-", " ").split())
    for m in PERIL_MARKERS:
        if m.lower() == key or m.lower().replace(" sms", " sm") == key.replace(" sms", " sm"):
            return m
    raise BlackReachError(f"unknown peril of the warp marker '{name}': "
                          f"{', '.join(PERIL_MARKERS)}")


@dataclass(frozen=True)
class Perils:
    """A perils of the warp test: 1 die + the psyker's level - 2 per SM after paying the cost."""

    psyker: str  # librarian or weirdboy
    level: int
    cost: int
    sm: int = 0  # SMs on the psyker before it pays the cost
    shared: bool = False  # WEIRDBOY: 1 SM of the cost (not the first) on an ork unit within 2
    bonus: int = 0
    pool: tuple[tuple[str, int], ...] = ()  # LIBRARIANS: facedown peril markers left, by kind
    victim: Victim = field(default_factory=Victim)  # the weirdboy, when it suffers a hit

    def __post_init__(self) -> None:
        need(self.psyker in ("librarian", "weirdboy"), "the psyker is a librarian or a weirdboy")
        need(self.level >= 0 and self.cost >= 0 and self.sm >= 0,
             "level, cost and SMs are 0 or more")
        need(not self.shared or self.psyker == "weirdboy",
             "only a weirdboy may put an SM of the cost on another ork unit")
        need(not self.shared or self.cost >= 2, "the first SM of the cost stays on the weirdboy: "
             "sharing needs a cost of 2 or more")
        need(all(n >= 0 for _, n in self.pool), "marker counts are 0 or more")
        need(not self.pool or sum(n for _, n in self.pool) > 0, "the marker pool is empty")

    @property
    def markers(self) -> int:
        """SMs on the psyker when it tests (the cost paid, less one placed on another ork)."""
        return self.sm + self.cost - (1 if self.shared else 0)

    @property
    def modifier(self) -> int:
        return self.level + self.bonus - SM_PENALTY * self.markers

    def total(self) -> Dist:
        return shift(die(6), self.modifier)


def perils_odds(p: Perils) -> Odds:
    total = p.total()
    out: Chances = {}
    effects: dict[str, str] = {}
    notes = [(f"1 die {p.modifier:+d}: level {p.level}, {p.markers} SM(s) on the psyker after "
             f"paying the cost")]
    if p.psyker == "librarian":
        # LIBRARIANS: 1 or less draws a peril of the warp marker; 2 or more, the power works
        peril = sum((q for r, q in total.items() if r <= 1), Fraction(0))
        if p.pool:
            size = sum(n for _, n in p.pool)
            for kind, n in p.pool:
                key = f"peril: {kind}"
                add(out, key, peril * Fraction(n, size))
                effects[key] = PERIL_MARKERS[kind]
        else:
            add(out, "peril of the warp marker", peril)
            effects["peril of the warp marker"] = ("draw a facedown marker (give --pool with the "
                                                   "markers left to split this by kind)")
            notes.append("the mix of peril markers is on the components: --pool gives it")
        add(out, "power works", 1 - peril)
        effects["power works"] = "apply the power's effects normally"
        section = "LIBRARIANS"
    else:
        # WEIRDBOY: 1 or less destroys it (B template); 2-3 works, then 1 hit; 4+ works
        low = sum((q for r, q in total.items() if r <= 1), Fraction(0))
        mid = sum((q for r, q in total.items() if 2 <= r <= 3), Fraction(0))
        add(out, "weirdboy destroyed", low)
        effects["weirdboy destroyed"] = ("the power does not apply; the weirdboy is destroyed and "
                                         "a B template next to it attacks every unit under it "
                                         "with the template's COMBAT values (bagm blackreach "
                                         "fire --template --combat N, --under for each unit)")
        for fate, q in unsaved_fates(p.victim, double=False).items():
            key = f"power works, weirdboy {fate}"
            add(out, key, mid * q)
            effects[key] = ("the power works, then the weirdboy suffers 1 hit ("
                            + fate_effect(fate, p.victim) + "); discard all its SMs")
        add(out, "power works", 1 - low - mid)
        effects["power works"] = "apply the power's effects normally"
        if p.shared:
            notes.append("WEIRDBOY: 1 SM of the cost placed on an ork infantry unit within 2 "
                         "squares")
        section = "WEIRDBOY"
    return Odds(f"perils of the warp ({p.psyker})", section, out,
                {k: effects.get(k, "") for k in out}, {"total": dict(sorted(total.items()))},
                notes, {"psyker": p.psyker, "level": p.level, "cost": p.cost, "sm": p.sm,
                        "markers_on_psyker": p.markers})


def resolve_perils(dice: Dice, p: Perils) -> str:
    """Play one test; the peril marker is drawn with a die over the pool's markers in order
    (a pool of 6 or fewer markers only: enough for the tests)."""
    result = dice.d6("perils of the warp") + p.modifier
    if p.psyker == "librarian":
        if result >= 2:
            return "power works"
        if not p.pool:
            return "peril of the warp marker"
        kinds = [k for k, n in p.pool for _ in range(n)]
        need(len(kinds) <= 6 and 6 % len(kinds) == 0, "resolve_perils draws from 1, 2, 3 or 6 "
             "markers with a die")
        return f"peril: {kinds[(dice.d6('peril marker') - 1) * len(kinds) // 6]}"
    if result <= 1:
        return "weirdboy destroyed"
    if result <= 3:
        return f"power works, weirdboy {resolve_hit(dice, replace(p.victim, save=None))}"
    return "power works"


@dataclass(frozen=True)
class Krunch:
    """DA KRUNCH: each unit even partly under the G template is attacked with 2 dice."""

    defence: int
    defence_bonus: int = 0
    combat: int = 0  # reading: the text adds no COMBAT; give the G template's if yours has one
    bonus: int = 0
    penalty: int = 0
    obscuring: tuple[int, ...] = ()
    victim: Victim = field(default_factory=Victim)
    double_saveable: bool = True

    def __post_init__(self) -> None:
        need(self.defence + self.defence_bonus >= 1, "DEFENCE with its bonuses is at least 1")
        need(all(v >= 0 for v in self.obscuring), "an obscuring square's value is 0 or more")

    @property
    def modifier(self) -> int:
        return self.combat + self.bonus - self.penalty - sum(self.obscuring)

    @property
    def target(self) -> int:
        return self.defence + self.defence_bonus

    def judge(self, a: int, b: int) -> str:
        if a == b == 6:
            return "double 6"
        r = a + b + self.modifier
        return "double hit" if r >= 2 * self.target else "hit" if r >= self.target else "miss"


def krunch_odds(k: Krunch) -> Odds:
    shot: Chances = {}
    for a in range(1, 7):
        for b in range(1, 7):
            add(shot, k.judge(a, b), Fraction(1, 36))
    out: Chances = {}
    add(out, "miss", shot.get("miss", Fraction(0)))
    for kind in ("hit", "double hit"):
        for fate, p in hit_fates(k.victim, kind == "double hit",
                                 double_saveable=k.double_saveable).items():
            add(out, fate, shot.get(kind, Fraction(0)) * p)
    add(out, "double 6: destroyed", shot.get("double 6", Fraction(0)))
    effects = {o: fate_effect(o, k.victim) for o in out}
    effects["miss"] = "no effect"
    effects["double 6: destroyed"] = "a double 6 destroys the unit automatically"
    total = shift(power(die(6), 2), k.modifier)
    notes = [(f"2 dice {k.modifier:+d} against DEFENCE {k.target}: hit on {k.target}+, double hit "
             f"on {2 * k.target}+; a double 6 destroys"),
             ("reading: the 2 dice are the attack's total (the text names no COMBAT for Da "
             "Krunch); --combat adds your G template's value if it shows one"),
             ("each unit under the template is attacked with its own roll; the weirdboy's perils "
             "test comes first (bagm blackreach perils --power 'da krunch')")]
    return Odds("Da Krunch", "DA KRUNCH", out, effects,
                {"total": dict(sorted(total.items())),
                 "shot": {s: shot.get(s, Fraction(0))
                          for s in ("miss", "hit", "double hit", "double 6")}},
                notes, {"defence": k.defence, "defence_bonus": k.defence_bonus,
                        "modifier": k.modifier, "target": k.victim.kind.value})


def resolve_krunch(dice: Dice, k: Krunch) -> str:
    shot = k.judge(dice.d6("da krunch"), dice.d6("da krunch"))
    if shot == "miss":
        return "miss"
    if shot == "double 6":
        return "double 6: destroyed"
    return resolve_hit(dice, k.victim, shot == "double hit", double_saveable=k.double_saveable)




# --- LIBRARIANS: the "again" marker's chain ---------------------------------------------------

AGAIN = "again"
_ENDS = {
    "passed": "the last test passed: the power works; the cost's SMs stay on the librarian",
    "no effect": "a 'no effect' marker: that use fails and the power is discarded for the game; "
                 "all SMs discarded",
    "hit": "a 'hit' marker: the power works, then the librarian suffers 1 hit; SMs discarded",
    "1 SM": "a '1 SM' marker: the power works, then 1 more SM on the librarian",
    "2 SMs": "a '2 SMs' marker: the power works, then 2 more SMs on the librarian",
    "no marker left": "a peril with no facedown marker left: the text does not say what happens",
}


def _draw(pool: tuple[tuple[str, int], ...], kind: str) -> tuple[tuple[str, int], ...]:
    return tuple((k, n - (k == kind)) for k, n in pool if n - (k == kind) > 0)


def again_chain(p: Perils) -> Odds:
    """A librarian that uses the same power again each time an 'again' marker lets it: how many
    times the power works, and how the chain ends (LIBRARIANS; the peril of the warp markers)."""
    need(p.psyker == "librarian", "the 'again' marker is a librarian's peril of the warp marker")
    need(bool(p.pool), "the chain needs the facedown peril markers left: give --pool")
    need(any(k == AGAIN for k, n in p.pool if n), "the pool has no 'again' marker: the chain "
         "is the single test (bagm blackreach perils without --again)")
    out: Chances = {}
    sms: dict[int, Fraction] = {}

    def end(works: int, how: str, sm: int, w: Fraction) -> None:
        add(out, f"works {works} time(s), then {how}", w)
        if w:
            sms[sm] = sms.get(sm, Fraction(0)) + w

    def use(pool: tuple[tuple[str, int], ...], sm: int, works: int, w: Fraction) -> None:
        # each use pays the cost, then tests: 1 die + level - 2 per SM on the librarian
        test = replace(p, sm=sm, pool=())
        peril = sum((q for r, q in test.total().items() if r <= 1), Fraction(0))
        end(works + 1, "passed", test.markers, w * (1 - peril))
        size = sum(n for _, n in pool)
        if size == 0:
            end(works, "no marker left", test.markers, w * peril)
            return
        for kind, n in pool:
            q = w * peril * Fraction(n, size)
            if kind == AGAIN:
                # "Apply the effects of the psychic power, then discard all SMs from the
                # librarian. They may immediately use the same psychic power again by paying the
                # cost normally."
                if q:
                    use(_draw(pool, kind), 0, works + 1, q)
            elif kind == "no effect":
                end(works, kind, 0, q)
            elif kind == "hit":
                end(works + 1, kind, 0, q)
            else:
                end(works + 1, kind, test.markers + (1 if kind == "1 SM" else 2), q)

    use(p.pool, p.sm, 0, Fraction(1))
    times: dict[int, Fraction] = {}
    for key, q in out.items():
        n = int(key.split()[1])
        times[n] = times.get(n, Fraction(0)) + q
    effects = {k: _ENDS[k.split(", then ", 1)[1]] for k in out}
    notes = [
        ("LIBRARIANS, 'again': the power works, all SMs are discarded and the librarian uses "
         "it again, paying the cost (it 'may': these are the odds when it always does)"),
        ("reading: a drawn marker is not returned to the facedown markers (the text says to "
         "draw one and never to put it back), so the chain ends when the 'again' markers do"),
    ]
    return Odds("perils of the warp, the 'again' chain (librarian)", "LIBRARIANS", out, effects,
                {"times the power works": dict(sorted(times.items())),
                 "SMs on the librarian at the end": dict(sorted(sms.items()))},
                notes, {"level": p.level, "cost": p.cost, "sm": p.sm,
                        "pool": {k: n for k, n in p.pool}})


def resolve_again_chain(dice: Dice, p: Perils) -> str:
    """Play the chain; each marker is drawn with a die over the markers left in order (1, 2, 3
    or 6 of them at each draw)."""
    pool, sm, works = p.pool, p.sm, 0
    while True:
        test = replace(p, sm=sm, pool=())
        if dice.d6("perils of the warp") + test.modifier >= 2:
            return f"works {works + 1} time(s), then passed"
        kinds = [k for k, n in pool for _ in range(n)]
        if not kinds:
            return f"works {works} time(s), then no marker left"
        need(6 % len(kinds) == 0, "resolve_again_chain draws from 1, 2, 3 or 6 markers with a die")
        kind = kinds[(dice.d6("peril marker") - 1) * len(kinds) // 6]
        if kind != AGAIN:
            return f"works {works + (kind != 'no effect')} time(s), then {kind}"
        pool, sm, works = _draw(pool, kind), 0, works + 1
