"""pydantic models of a data pack: datasheets, weapons, Detachments and their mustering rules.

A data pack is one YAML file per faction (``datasheets/<faction>.yaml``). These models are the
single source of truth for its format: validation, defaults and the JSON Schema
(``bagm schema datasheets``) all come from here.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Keyword = str
Dice = Union[int, str]  # a number, or a dice expression such as "D6+1"


class Strict(BaseModel):
    """Unknown keys are errors in every data file: a typo must never be silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- weapons and profiles -------------------------------------------------------------------


class WeaponAbility(Strict):
    """A weapon ability as data: ``{name: sustained hits, value: 1}``; never rules prose."""

    name: str = Field(description="Ability name in lower case, e.g. 'lethal hits', 'anti'.")
    value: Dice | None = Field(None, description="Its parameter: 'Sustained Hits 2' -> 2.")
    target: Keyword | None = Field(None, description="Keyword for Anti-X: 'Anti-Infantry 4+'.")


class Weapon(Strict):
    name: str
    type: Literal["ranged", "melee"]
    range: int | None = Field(None, description="Range in inches; null for melee weapons.")
    A: Dice
    skill: int | None = Field(description="BS or WS (2 means 2+); null for Torrent weapons.")
    S: Dice
    AP: int
    D: Dice
    abilities: list[WeaponAbility] = []
    default: bool = Field(True, description="False for a wargear option, not default kit.")

    def has_ability(self, name: str) -> bool:
        return any(a.name == name for a in self.abilities)


class ModelProfile(Strict):
    name: str
    M: int | None = Field(description="Movement in inches; null for '-'.")
    T: int
    Sv: int = Field(description="Save: 3 means 3+.")
    W: int
    Ld: int = Field(description="Leadership: 6 means 6+.")
    OC: int
    invuln: int | None = Field(None, description="Invulnerable save, 4 means 4+.")
    count: str | None = Field(None, description="How many of this model, e.g. '1' or '4-9'.")


class Adaptation(Strict):
    """A datasheet's Boarding Actions rules adaptation, as structured facts."""

    loses: list[str] = Field([], description="Abilities the unit loses in Boarding Actions.")
    M: int | None = Field(None, description="Movement characteristic set to this value.")
    no_split: bool = Field(False, description="Not split in the Form Boarding Squads step.")
    note: str | None = Field(None, description="Short paraphrase of anything else.")


class Datasheet(Strict):
    name: str
    aliases: list[str] = []
    keywords: list[Keyword] = Field(description="Keywords in upper case (CHARACTER, INFANTRY...).")
    faction_keywords: list[Keyword]
    points: dict[int, int] = Field(
        description="Munitorum Field Manual points by model count (the bracket tops)."
    )
    sizes: list[int] | None = Field(
        None, description="Legal Starting Strengths; default: the points brackets."
    )
    base: int | None = Field(None, description="Base diameter in mm.")
    models: list[ModelProfile] = []
    weapons: list[Weapon] = []
    abilities: list[str] = []
    adaptation: Adaptation | None = None
    enhancement: bool | None = Field(
        None, description="Override: true lets a non-CHARACTER take one, false forbids."
    )
    points_note: str | None = Field(None, description="Why the points differ from the source.")

    @field_validator("keywords", "faction_keywords")
    @classmethod
    def _upper(cls, v: list[str]) -> list[str]:
        return [k.upper() for k in v]

    @property
    def all_keywords(self) -> frozenset[str]:
        return frozenset(self.keywords) | frozenset(self.faction_keywords)

    @property
    def is_character(self) -> bool:
        return "CHARACTER" in self.keywords

    @property
    def is_epic_hero(self) -> bool:
        return "EPIC HERO" in self.keywords


# --- mustering rules ------------------------------------------------------------------------


class Selector(Strict):
    """Picks units of a roster: by datasheet name, or by keywords (all of them must be present).

    A unit matches when it is named in ``units`` or carries every keyword of ``keywords``.
    """

    units: list[str] = []
    keywords: list[Keyword] = []

    @model_validator(mode="after")
    def _not_empty(self) -> "Selector":
        if not self.units and not self.keywords:
            raise ValueError("a selector needs 'units' or 'keywords'")
        return self

    def describe(self) -> str:
        parts = list(self.units) + [" ".join(self.keywords)] if self.keywords else list(self.units)
        return ", ".join(parts)


class Allowance(Strict):
    """One line of a Detachment's unit list: a datasheet, how many, at which sizes."""

    unit: str
    max: int = Field(ge=1)
    sizes: list[int] | None = Field(None, description="Legal Starting Strengths here.")
    enhancement: bool | None = Field(None, description="True: may take an Enhancement.")
    note: str | None = None


class Limit(Strict):
    """At most ``max`` units matching ``select`` ("up to two of the following")."""

    rule: Literal["limit"] = "limit"
    select: Selector
    max: int = Field(ge=0)
    distinct: bool = Field(False, description="No duplicates: each datasheet at most once.")
    note: str | None = None


class Ratio(Strict):
    """Units matching ``count`` may not exceed ``per`` times ``factor`` ("for each X, one Y")."""

    rule: Literal["ratio"] = "ratio"
    count: Selector
    per: Selector
    factor: int = 1
    note: str | None = None


class Requires(Strict):
    """Units matching ``select`` only if the army includes a unit matching ``needs``."""

    rule: Literal["requires"] = "requires"
    select: Selector
    needs: Selector
    note: str | None = None


class Exclusive(Strict):
    """At most one of these datasheets may be included (they exclude each other)."""

    rule: Literal["exclusive"] = "exclusive"
    units: list[str] = Field(min_length=2)
    note: str | None = None


class KeywordGroup(Strict):
    """Units carrying these keywords cannot be mixed: all must share one of them (chapters)."""

    rule: Literal["keyword_group"] = "keyword_group"
    keywords: list[Keyword] = Field(min_length=2)
    note: str | None = None


MusteringRule = Annotated[
    Union[Limit, Ratio, Requires, Exclusive, KeywordGroup], Field(discriminator="rule")
]


class Enhancement(Strict):
    name: str
    requires_keywords: list[Keyword] = Field(
        [], description="The bearer must have all of these keywords."
    )
    weapon: bool = Field(False, description="The roster must name a ranged weapon for it.")
    weapon_excludes: list[str] = Field(
        [], description="Weapon abilities that make a weapon ineligible (e.g. torrent)."
    )
    editions: list[int] = Field([2023, 2024], description="Editions it exists in.")


class Detachment(Strict):
    name: str
    faction_keyword: Keyword
    rule: str | None = Field(None, description="Detachment rule name (no prose).")
    enhancements: list[Enhancement] = []
    units: list[Allowance]
    rules: list[MusteringRule] = []
    note: str | None = None


class FactionPack(Strict):
    """One faction file."""

    faction: str = Field(description="Army Faction keyword as printed, e.g. 'Grey Knights'.")
    aliases: list[str] = []
    points_source: str
    mustering_source: str | None = None
    units: list[Datasheet] = []
    detachments: list[Detachment] = []
    notes: list[str] = []


class CorePack(Strict):
    """Universal data: the Boarding Actions Enhancements any army may take."""

    enhancements: list[Enhancement]
