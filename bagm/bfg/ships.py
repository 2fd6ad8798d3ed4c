"""Ships as the End Phase sees them: damage left, turrets, race, crew, marks, state.

The text has no ship statistics; the user describes each ship in a short spec,
``NAME,damage=6,race=chaos,mark=nurgle,crippled`` (see :func:`parse_ship`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bagm.errors import BagmError

KINDS = ("capital", "escort", "defence")
RACES = ("other", "orks", "chaos", "tau")
CREWS = ("normal", "space-marines")
MARKS = ("none", "khorne", "nurgle")
# the special orders of Battlefleet Gothic; the text names Lock On, Reload Ordnance and
# Brace For Impact!, the others are the ones a fleet may be on in the core rules
ORDERS = ("none", "lock-on", "reload-ordnance", "all-ahead-full", "come-to-new-heading",
          "burn-retros", "brace-for-impact")
MAX_DAMAGE = 99  # more than any ship has; keeps the exact chains small
MAX_TURRETS = 20


class BfgError(BagmError, ValueError):
    """A ship or request that the End Phase rules cannot be applied to; the message says how
    to fix it."""


@dataclass(frozen=True)
class Ship:
    """One ship (or defence) at this point of the battle."""

    name: str
    damage: int  # damage points remaining
    turrets: int = 0  # turrets remaining (counted when the ship is boarded)
    kind: str = "capital"
    race: str = "other"
    crew: str = "normal"  # "space-marines": a Space Marine or Chaos Space Marine crew
    mark: str = "none"  # a Mark of Chaos
    crippled: bool = False
    crippled_at: int | None = None  # crippled at this many damage points or fewer (user's rulebook)
    blast: bool = False  # Blast Markers in base contact
    orders: str = "none"  # special orders the ship is on
    shields: int | None = None  # shields still up (0: knocked down); None: not given
    squadron: str | None = None  # escorts of one squadron board as one party

    @property
    def escort(self) -> bool:
        return self.kind == "escort"

    def is_crippled(self, damage: int | None = None) -> bool:
        """Crippled as given, or by the user's threshold at ``damage`` points remaining (the
        text does not say when a ship becomes crippled)."""
        d = self.damage if damage is None else damage
        return self.crippled or (self.crippled_at is not None and d <= self.crippled_at)

    def value_factor(self) -> Fraction:
        """What the ship's special rules do to its boarding value (Boarding Value)."""
        factor = Fraction(1)
        if self.mark == "khorne":  # Boarding Value: the Mark of Khorne doubles it
            factor *= 2
        if self.race == "tau":  # Boarding Value: Tau Kor'vattra vessels have it cut in half
            factor /= 2
        return factor

    def race_modifier(self) -> tuple[int, str]:
        """The race or crew modifier to the boarding roll and why (Boarding Modifiers)."""
        if self.crew == "space-marines":
            return 2, "Space Marines"
        if self.race in ("orks", "chaos"):
            return 1, "Orks" if self.race == "orks" else "Chaos"
        return 0, ""


SHIP_KEYS = _KEYS = {"name", "damage", "turrets", "kind", "race", "crew", "mark", "crippled",
                     "crippled-at", "blast", "orders", "shields", "squadron"}
_FLAGS = {"crippled", "blast"}
_WORDS = {k: "kind" for k in KINDS} | {r: "race" for r in RACES if r != "other"} | {
    "khorne": "mark", "nurgle": "mark", "space-marines": "crew"}
SPEC_HELP = ("NAME,damage=N[,turrets=N][,kind=capital|escort|defence][,race=orks|chaos|tau]"
             "[,crew=space-marines][,mark=khorne|nurgle][,crippled][,blast][,orders=lock-on|...]"
             "[,shields=N][,squadron=NAME][,crippled-at=N]")


Fleet = dict[str, dict[str, str]]  # ship name -> its spec's fields (see bagm.bfg.fleet)


def parse_ship(spec: str, what: str = "ship", fleet: Fleet | None = None) -> Ship:
    """A ship from ``NAME,damage=6,turrets=2,race=chaos,crippled,...``.

    The first item may be the bare name; ``crippled`` and ``blast`` are flags; ``escort``,
    ``chaos``, ``khorne``, ``space-marines``... may be given bare for their key. A name found in
    ``fleet`` starts from that ship, and the keys given here change it (``Hyperion,damage=2``)."""
    fields = spec_fields(spec, what)
    if fleet and fields.get("name") in fleet:
        fields = {**fleet[fields["name"]], **fields}
    return make_ship(fields, spec, what)


def spec_fields(spec: str, what: str) -> dict[str, str]:
    """The key=value fields of a ship spec, keys normalised, flags and bare words resolved."""
    fields: dict[str, str] = {}
    items = [s.strip() for s in spec.split(",")]
    for i, item in enumerate(items):
        if not item:
            continue
        key, eq, value = item.partition("=")
        key = key.strip().lower().replace("_", "-")
        value = value.strip()
        if not eq:
            if key in _FLAGS:
                value = "yes"
            elif key in _WORDS:
                key, value = _WORDS[key], key
            elif i == 0 and key not in _KEYS:
                key, value = "name", item
            else:
                raise BfgError(f"{what} '{spec}': '{item}' is not a key=value pair; "
                               f"write {SPEC_HELP}")
        if key == "dp":
            key = "damage"
        if key not in _KEYS:
            raise BfgError(f"{what} '{spec}': unknown key '{key}'; "
                           f"keys: {', '.join(sorted(_KEYS))}")
        if key in fields:
            raise BfgError(f"{what} '{spec}': '{key}' given twice")
        fields[key] = value
    return fields


def make_ship(fields: dict[str, str], spec: str, what: str) -> Ship:
    """A ship from its fields, each checked (``spec`` and ``what`` name it in errors)."""
    if "damage" not in fields:
        raise BfgError(f"{what} '{spec}': give the damage points remaining, e.g. damage=6 "
                       f"({SPEC_HELP})")
    return Ship(
        name=fields.get("name") or what,
        damage=_int(fields["damage"], "damage", spec, what, 0, MAX_DAMAGE),
        turrets=_int(fields.get("turrets", "0"), "turrets", spec, what, 0, MAX_TURRETS),
        kind=_choice(fields.get("kind", "capital"), "kind", KINDS, spec, what),
        race=_choice(fields.get("race", "other"), "race", RACES, spec, what),
        crew=_choice(fields.get("crew", "normal"), "crew", CREWS, spec, what),
        mark=_mark(fields, spec, what),
        crippled=_bool(fields.get("crippled", "no"), "crippled", spec, what),
        crippled_at=(_int(fields["crippled-at"], "crippled-at", spec, what, 0, MAX_DAMAGE)
                     if "crippled-at" in fields else None),
        blast=_bool(fields.get("blast", "no"), "blast", spec, what),
        orders=_choice(fields.get("orders", "none"), "orders", ORDERS, spec, what),
        shields=(_int(fields["shields"], "shields", spec, what, 0, MAX_TURRETS)
                 if "shields" in fields else None),
        squadron=fields.get("squadron") or None,
    )


def _mark(fields: dict[str, str], spec: str, what: str) -> str:
    mark = _choice(fields.get("mark", "none"), "mark", MARKS, spec, what)
    if mark != "none" and fields.get("race", "other") != "chaos":
        raise BfgError(f"{what} '{spec}': the Marks of Chaos are for Chaos ships; add race=chaos")
    return mark


def _int(text: str, key: str, spec: str, what: str, lo: int, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BfgError(f"{what} '{spec}': {key}={text} is not a whole number") from None
    if not lo <= value <= hi:
        raise BfgError(f"{what} '{spec}': {key}={value} must be from {lo} to {hi}")
    return value


def _choice(text: str, key: str, choices: tuple[str, ...], spec: str, what: str) -> str:
    value = text.lower().replace("_", "-").replace(" ", "-")
    if value not in choices:
        raise BfgError(f"{what} '{spec}': {key}={text} is not one of {', '.join(choices)}")
    return value


def _bool(text: str, key: str, spec: str, what: str) -> bool:
    value = text.lower()
    if value in ("yes", "true", "1", "y"):
        return True
    if value in ("no", "false", "0", "n"):
        return False
    raise BfgError(f"{what} '{spec}': {key}={text}: use yes or no (or the bare word '{key}')")
