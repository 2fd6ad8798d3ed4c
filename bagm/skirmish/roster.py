"""The Skirmish squad roster: one unit (a Leader, Packs, upgraded models, swarms) in YAML.

A roster file is ``NAME.skirmish.yaml`` (so Boarding Actions' folder scan passes it by)::

    skirmish: roster
    name: Tarvos' Squad
    faction: Space Marines
    leader: {name: Tarvos, type: sergeant, weapons: [Bolt Pistol, Power Weapon],
             wargear: [Purity Seals], grenades: [Frag Grenades], skills: [], advances: {}}
    packs:
      - {name: Tactical, type: space_marine, models: 5, founded: 5, heavy: [], assault: []}
    upgraded: []      # models that Broke the Mould (at most 4)
    swarms: []        # Scarab, Ripper and Nurgling bases: {type: scarab_swarm, bases: 2}
    state:            # campaign state, kept apart from what was bought
      battles: 0
      pool: 0
      injuries: {Tarvos: [arm_amputated]}

The shape is checked here (a wrong shape is an :class:`InputError`: file, line, fix, exit 2);
the rules are checked by :mod:`bagm.skirmish.validate` (findings, exit 1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bagm.io.yamlsafe import InputError, Loc, Located, load

MODEL_KEYS = {"name", "type", "weapons", "wargear", "grenades", "master_crafted", "skills",
              "advances", "psychic_powers", "from_pack"}
PACK_KEYS = {"name", "type", "models", "founded", "heavy", "assault", "wargear", "skills",
             "advances", "grenades"}
TOP_KEYS = {"skirmish", "name", "faction", "leader", "packs", "upgraded", "swarms", "state"}
STATE_KEYS = {"battles", "pool", "injuries", "miss_games", "disbanded", "history_note"}


@dataclass
class Model:
    """The Leader or an upgraded model: one model with its own armoury purchases."""

    name: str
    type: str | None
    loc: Loc
    weapons: list[str] = field(default_factory=list)
    wargear: list[str] = field(default_factory=list)
    grenades: list[str] = field(default_factory=list)
    master_crafted: str | None = None
    skills: list[str] = field(default_factory=list)
    advances: dict[str, int] = field(default_factory=dict)
    psychic_powers: list[str] = field(default_factory=list)
    from_pack: str | None = None

    def items(self) -> list[tuple[str, str]]:
        """Every armoury item with the list it is in."""
        return ([(w, "weapons") for w in self.weapons] + [(w, "wargear") for w in self.wargear]
                + [(g, "grenades") for g in self.grenades])


@dataclass
class Pack:
    name: str
    type: str
    models: int
    loc: Loc
    founded: int | None = None
    heavy: list[str] = field(default_factory=list)
    assault: list[str] = field(default_factory=list)
    wargear: list[str] = field(default_factory=list)
    grenades: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    advances: dict[str, int] = field(default_factory=dict)


@dataclass
class Swarm:
    type: str
    bases: int
    loc: Loc


@dataclass
class State:
    battles: int = 0
    pool: int = 0
    injuries: dict[str, list[str]] = field(default_factory=dict)
    miss_games: dict[str, int] = field(default_factory=dict)
    disbanded: bool = False


@dataclass
class Roster:
    path: str
    doc: Located
    name: str
    faction: str
    leader: Model | None
    packs: list[Pack]
    upgraded: list[Model]
    swarms: list[Swarm]
    state: State

    def line(self, loc: Loc) -> int | None:
        return self.doc.line(loc)

    def characters(self) -> list[Model]:
        return ([self.leader] if self.leader else []) + self.upgraded


def _bad(path: str, doc: Located, loc: Loc, message: str, hint: str | None = None) -> InputError:
    return InputError(path, message, line=doc.line(loc), hint=hint)


def _text(path: str, doc: Located, loc: Loc, value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(path, doc, loc, f"{what} is a text", "write it as a plain name")
    return value.strip()


def _names(path: str, doc: Located, loc: Loc, value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _bad(path, doc, loc, f"'{loc[-1]}' is a list of names", "e.g. [Frag Grenades]")
    return [v.strip() for v in value]


def _count(path: str, doc: Located, loc: Loc, value: Any, what: str, lo: int = 0,
           hi: int = 1000) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or value > hi:
        raise _bad(path, doc, loc, f"{what} is a whole number from {lo} to {hi:,}")
    return value


# a campaign's Points Pool and battles grow without a limit in the text: these bounds only
# keep a damaged file from passing for a unit
MAX_POOL = 10_000_000
MAX_BATTLES = 100_000


def _advances(path: str, doc: Located, loc: Loc, value: Any) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _bad(path, doc, loc, "advances map a characteristic to its increase", "e.g. {WS: 1}")
    return {str(k): _count(path, doc, loc + (k,), v, f"advance {k}") for k, v in value.items()}


def _check_keys(path: str, doc: Located, loc: Loc, value: dict[Any, Any], allowed: set[str],
                what: str) -> None:
    for k in value:
        if k not in allowed:
            import difflib

            close = difflib.get_close_matches(str(k), sorted(allowed), n=1)
            raise _bad(path, doc, loc + (k,), f"unknown key '{k}' in {what}",
                       f"did you mean '{close[0]}'?" if close else "allowed: " + ", ".join(sorted(allowed)))


def _model(path: str, doc: Located, loc: Loc, value: Any, what: str) -> Model:
    if not isinstance(value, dict):
        raise _bad(path, doc, loc, f"{what} is a mapping", "give name:, type:, weapons: ...")
    _check_keys(path, doc, loc, value, MODEL_KEYS, what)
    mc = value.get("master_crafted")
    return Model(
        name=_text(path, doc, loc + ("name",), value.get("name"), f"{what}'s name"),
        type=None if value.get("type") is None else _text(path, doc, loc + ("type",), value["type"], "type"),
        loc=loc,
        weapons=_names(path, doc, loc + ("weapons",), value.get("weapons")),
        wargear=_names(path, doc, loc + ("wargear",), value.get("wargear")),
        grenades=_names(path, doc, loc + ("grenades",), value.get("grenades")),
        master_crafted=None if mc is None else _text(path, doc, loc + ("master_crafted",), mc, "master_crafted"),
        skills=_names(path, doc, loc + ("skills",), value.get("skills")),
        advances=_advances(path, doc, loc + ("advances",), value.get("advances")),
        psychic_powers=_names(path, doc, loc + ("psychic_powers",), value.get("psychic_powers")),
        from_pack=value.get("from_pack") if isinstance(value.get("from_pack"), str) else None,
    )


def parse(path: str, doc: Located) -> Roster:
    """Check a loaded document's shape and build the :class:`Roster`."""
    data = doc.data
    if not isinstance(data, dict):
        raise InputError(path, "a Skirmish roster is a mapping", line=1,
                         hint="start with 'skirmish: roster' and 'faction:'")
    _check_keys(path, doc, (), data, TOP_KEYS, "the roster")
    if data.get("skirmish") != "roster":
        raise _bad(path, doc, ("skirmish",), "not a Skirmish roster: 'skirmish: roster' is missing",
                   "add 'skirmish: roster' as the first line")
    faction = _text(path, doc, ("faction",), data.get("faction"), "faction")
    name = _text(path, doc, ("name",), data.get("name", Path(path).name), "name")
    leader = None if data.get("leader") is None else _model(path, doc, ("leader",), data["leader"], "the Leader")
    packs: list[Pack] = []
    raw_packs = data.get("packs") or []
    if not isinstance(raw_packs, list):
        raise _bad(path, doc, ("packs",), "packs is a list", "- {name: ..., type: ..., models: N}")
    for i, p in enumerate(raw_packs):
        loc: Loc = ("packs", i)
        if not isinstance(p, dict):
            raise _bad(path, doc, loc, "a Pack is a mapping", "{name: ..., type: ..., models: N}")
        _check_keys(path, doc, loc, p, PACK_KEYS, "a Pack")
        packs.append(Pack(
            name=_text(path, doc, loc + ("name",), p.get("name"), "a Pack's name"),
            type=_text(path, doc, loc + ("type",), p.get("type"), "a Pack's type"),
            models=_count(path, doc, loc + ("models",), p.get("models"), "models"),
            loc=loc,
            founded=None if p.get("founded") is None else _count(path, doc, loc + ("founded",), p["founded"], "founded", 1),
            heavy=_names(path, doc, loc + ("heavy",), p.get("heavy")),
            assault=_names(path, doc, loc + ("assault",), p.get("assault")),
            wargear=_names(path, doc, loc + ("wargear",), p.get("wargear")),
            grenades=_names(path, doc, loc + ("grenades",), p.get("grenades")),
            skills=_names(path, doc, loc + ("skills",), p.get("skills")),
            advances=_advances(path, doc, loc + ("advances",), p.get("advances")),
        ))
    raw_up = data.get("upgraded") or []
    if not isinstance(raw_up, list):
        raise _bad(path, doc, ("upgraded",), "upgraded is a list of models")
    upgraded = [_model(path, doc, ("upgraded", i), m, "an upgraded model") for i, m in enumerate(raw_up)]
    swarms: list[Swarm] = []
    raw_sw = data.get("swarms") or []
    if not isinstance(raw_sw, list):
        raise _bad(path, doc, ("swarms",), "swarms is a list", "- {type: scarab_swarm, bases: 2}")
    for i, s in enumerate(raw_sw):
        loc = ("swarms", i)
        if not isinstance(s, dict) or set(s) - {"type", "bases"}:
            raise _bad(path, doc, loc, "a swarm is {type: ..., bases: N}")
        swarms.append(Swarm(_text(path, doc, loc + ("type",), s.get("type"), "a swarm's type"),
                            _count(path, doc, loc + ("bases",), s.get("bases"), "bases", 1), loc))
    state = State()
    raw_state = data.get("state")
    if raw_state is not None:
        if not isinstance(raw_state, dict):
            raise _bad(path, doc, ("state",), "state is a mapping", "battles:, pool:, injuries:")
        _check_keys(path, doc, ("state",), raw_state, STATE_KEYS, "the state")
        inj = raw_state.get("injuries") or {}
        miss = raw_state.get("miss_games") or {}
        if not isinstance(inj, dict) or not isinstance(miss, dict):
            raise _bad(path, doc, ("state",), "injuries and miss_games map a model's name to a value")
        state = State(
            battles=_count(path, doc, ("state", "battles"), raw_state.get("battles", 0), "battles",
                           hi=MAX_BATTLES),
            pool=_count(path, doc, ("state", "pool"), raw_state.get("pool", 0), "the Points Pool",
                        hi=MAX_POOL),
            injuries={str(k): _names(path, doc, ("state", "injuries", k), v) for k, v in inj.items()},
            miss_games={str(k): _count(path, doc, ("state", "miss_games", k), v, "games to miss")
                        for k, v in miss.items()},
            disbanded=raw_state.get("disbanded") is True)
    return Roster(path, doc, name, faction, leader, packs, upgraded, swarms, state)


def load_roster(path: Path | str, text: str | None = None) -> Roster:
    """Load and shape-check a roster file (safe YAML, line numbers kept)."""
    doc = load(path, text)
    return parse(str(path), doc)


def template(data: Any, faction_key: str, name: str) -> str:
    """A new roster's text for a faction: its Leader and Pack types, ready to fill in."""
    f = data.raw["factions"][faction_key]
    leaders = list(f["leader"])
    packs = list(f["packs"])
    base = next((k for k, t in f["packs"].items() if "upgrade_of" not in t), packs[0])
    lines = [
        f"# Skirmish Battles roster: {f['name']} ({f['section']}); check it with",
        "#   bagm skirmish validate THIS_FILE --data YOUR-VALUES.skirmish-data.yaml",
        f"# {f['name']}: {f['models']['min']} to {f['models']['max']} models, 100 points.",
        "skirmish: roster",
        f"name: {json.dumps(name)}",
        f"faction: {f['name']}",
    ]
    if leaders:
        lines += [f"leader:  # types: {', '.join(leaders)}",
                  "  name: Leader", f"  type: {leaders[0]}", "  weapons: []",
                  "  wargear: []", "  grenades: []"]
    else:
        lines.append("# a Necron unit has no Leader")
    lines += [f"packs:  # types: {', '.join(packs)}",
              f"  - {{name: First Pack, type: {base}, models: {f['models']['min'] - (1 if leaders else 0)}}}"]
    if f.get("swarms"):
        lines.append(f"swarms: []  # types: {', '.join(f['swarms'])}; e.g. - {{type: ..., bases: 1}}")
    return "\n".join(lines) + "\n"
