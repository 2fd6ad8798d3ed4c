"""Weapons as the data packs describe them: characteristics and the weapon-ability vocabulary.

The vocabulary (Sustained Hits X, Lethal Hits, Anti-KEYWORD X+, Torrent, ...) is data: the packs
store it, the BattleScribe importer writes it, ``bagm data check`` validates it, and the engine's
attack sequence (:mod:`bagm.engine.attack.rules`) gives each ability its effect. It lives here so that
``data`` and ``io`` never import the engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from bagm.chance.dice import DiceError, DiceExpr, parse_dice
from bagm.errors import BagmError


class AttackError(BagmError, ValueError):
    """A profile, target or ability that the attack sequence cannot use."""


@dataclass(frozen=True)
class Anti:
    """[ANTI-KEYWORD X+]. ``keyword`` None: the caller has decided the target has it."""

    keyword: str | None
    x: int

    def __str__(self) -> str:
        return f"Anti-{(self.keyword or 'keyword').title()} {self.x}+"


@dataclass(frozen=True)
class Abilities:
    """A weapon's abilities as structured values (parsed from the data packs' WeaponAbility)."""

    sustained_hits: DiceExpr | None = None
    lethal_hits: bool = False
    devastating_wounds: bool = False
    torrent: bool = False
    blast: bool = False
    hazardous: bool = False
    anti: tuple[Anti, ...] = ()
    twin_linked: bool = False
    melta: int | None = None
    rapid_fire: DiceExpr | None = None
    heavy: bool = False
    lance: bool = False
    ignores_cover: bool = False
    precision: bool = False
    pistol: bool = False
    assault: bool = False
    extra_attacks: bool = False
    indirect_fire: bool = False
    psychic: bool = False
    one_shot: bool = False
    conversion: bool = False
    unknown: tuple[str, ...] = ()
    """Abilities bagm does not know; reported, never applied."""

    @classmethod
    def from_data(cls, abilities: Iterable[Any]) -> "Abilities":
        """Build from data-pack WeaponAbility values (``name``, ``value``, ``target``)."""
        found: dict[str, Any] = {}
        anti: list[Anti] = []
        unknown: list[str] = []
        for ab in abilities:
            name = re.sub(r"[\s_]+", " ", str(ab.name).strip().lower())
            where = f"weapon ability '{ab.name}'"
            if name == "anti" or name.startswith("anti-"):
                keyword = ab.target or (name[5:] if name.startswith("anti-") else None)
                if not keyword:
                    raise AttackError(f"{where}: Anti needs a target keyword, e.g. target: INFANTRY")
                anti.append(Anti(keyword.upper(), _threshold(ab.value, where)))
            elif name in ("sustained hits", "rapid fire"):
                if ab.value is None:
                    raise AttackError(f"{where}: needs a value, e.g. value: 1 or value: D3")
                try:
                    found[name.replace(" ", "_")] = parse_dice(ab.value, f"{name} value")
                except DiceError as exc:
                    raise AttackError(f"{where}: {exc}") from None
            elif name == "melta":
                if not isinstance(ab.value, int) or isinstance(ab.value, bool) or ab.value < 1:
                    raise AttackError(f"{where}: needs a whole-number value, e.g. value: 2")
                found["melta"] = ab.value
            elif name.replace(" ", "_").replace("-", "_") in _FLAGS:
                found[name.replace(" ", "_").replace("-", "_")] = True
            else:
                unknown.append(str(ab.name))
        return cls(anti=tuple(anti), unknown=tuple(unknown), **found)

    def plus(self, extra: "Abilities") -> "Abilities":
        """These abilities and those ``extra`` gives (one this weapon already has stays as it is)."""
        changes: dict[str, Any] = {f: True for f in _FLAGS if getattr(extra, f) and not getattr(self, f)}
        for f in ("sustained_hits", "rapid_fire", "melta"):
            if getattr(extra, f) is not None and getattr(self, f) is None:
                changes[f] = getattr(extra, f)
        if extra.anti:
            changes["anti"] = self.anti + tuple(a for a in extra.anti if a not in self.anti)
        return replace(self, **changes) if changes else self

    def names(self) -> list[str]:
        """The abilities as printed on a datasheet, e.g. ['Sustained Hits 2', 'Anti-Infantry 4+']."""
        out = []
        if self.sustained_hits is not None:
            out.append(f"Sustained Hits {self.sustained_hits}")
        if self.rapid_fire is not None:
            out.append(f"Rapid Fire {self.rapid_fire}")
        if self.melta is not None:
            out.append(f"Melta {self.melta}")
        out += [str(a) for a in self.anti]
        out += [_FLAGS[f] for f in _FLAGS if getattr(self, f)]
        return out + list(self.unknown)


_FLAGS = {
    "lethal_hits": "Lethal Hits", "devastating_wounds": "Devastating Wounds", "torrent": "Torrent",
    "blast": "Blast", "hazardous": "Hazardous", "twin_linked": "Twin-linked", "heavy": "Heavy",
    "lance": "Lance", "ignores_cover": "Ignores Cover", "precision": "Precision",
    "pistol": "Pistol", "assault": "Assault", "extra_attacks": "Extra Attacks",
    "indirect_fire": "Indirect Fire", "psychic": "Psychic", "one_shot": "One Shot",
    "conversion": "Conversion",
}


def _threshold(value: Any, where: str) -> int:
    """A roll threshold such as 4 or '4+'."""
    text = str(value).strip().rstrip("+") if value is not None else ""
    if not text.isdigit() or not 2 <= int(text) <= 6:
        raise AttackError(f"{where}: needs a value from 2+ to 6+, e.g. value: 4")
    return int(text)


class HashedOnce:
    """A frozen dataclass whose hash is worked out once: profiles and attack conditions key
    caches of exact odds, looked up thousands of times a game, and never change. The hash is
    not pickled (string hashes differ between processes): it is worked out again there."""

    def __hash__(self) -> int:
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(self.__dict__[f] for f in self.__dataclass_fields__))  # type: ignore[attr-defined]
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


@dataclass(frozen=True)
class WeaponProfile(HashedOnce):
    """A weapon's characteristics as the attack sequence uses them."""

    __hash__ = HashedOnce.__hash__  # kept by @dataclass, which would write its own

    name: str
    melee: bool
    attacks: DiceExpr
    skill: int | None
    """BS or WS (3 means 3+); None only for Torrent weapons."""
    strength: int
    ap: int
    """As printed: 0, -1, -2..."""
    damage: DiceExpr
    abilities: Abilities = field(default_factory=Abilities)
    range: int | None = None

    def __post_init__(self) -> None:
        where = f"weapon '{self.name}'"
        if self.skill is None and not self.abilities.torrent:
            raise AttackError(f"{where}: needs a BS or WS (only Torrent weapons have none)")
        if self.skill is not None and not 2 <= self.skill <= 6:
            raise AttackError(f"{where}: BS/WS {self.skill}+ is not one of 2+ to 6+")
        if not 1 <= self.strength <= 30:
            raise AttackError(f"{where}: Strength {self.strength} is not from 1 to 30")
        if not -6 <= self.ap <= 0:
            raise AttackError(f"{where}: AP {self.ap} is not as printed (0, -1, ... -6)")

    @classmethod
    def from_data(cls, weapon: Any) -> "WeaponProfile":
        """Build from a data-pack ``bagm.data.models.Weapon``."""
        where = f"weapon '{weapon.name}'"
        if not isinstance(weapon.S, int):
            raise AttackError(f"{where}: a random Strength ({weapon.S}) is not supported")
        try:
            attacks = parse_dice(weapon.A, "Attacks")
            damage = parse_dice(weapon.D, "Damage")
        except DiceError as exc:
            raise AttackError(f"{where}: {exc}") from None
        return cls(weapon.name, weapon.type == "melee", attacks, weapon.skill, weapon.S,
                   weapon.AP, damage, Abilities.from_data(weapon.abilities), weapon.range)

    def with_abilities(self, **changes: Any) -> "WeaponProfile":
        return replace(self, abilities=replace(self.abilities, **changes))
