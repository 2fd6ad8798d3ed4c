"""Every construction rule of Skirmish Battles, checked on a roster: findings with stable codes,
file lines and fixes (:mod:`bagm.skirmish.findings`).

A rule that needs a value the text lost reports SK001 with the key to supply through --data;
the rest of the roster is still checked.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from bagm.io.yamlsafe import InputError
from bagm.skirmish.data import LostValue, SkirmishData
from bagm.skirmish.findings import Finding
from bagm.skirmish.roster import Model, Pack, Roster, load_roster

CATEGORY_NAMES = ("Combat", "Shooting", "Strength", "Agility", "Intelligence")
AMPUTATIONS = {"arm_amputated", "leg_amputated", "eye_lost"}
REPLACED = {"arm_replaced", "leg_replaced", "eye_replaced"}  # campaign buy --replaces


@dataclass
class Report:
    """What ``bagm skirmish validate`` says about one roster."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    points: int | None = None  # None: a cost was lost
    models: Fraction | None = None
    faction: str | None = None
    input_error: InputError | None = None
    examples: list[str] = field(default_factory=list)  # example overlays whose values were used

    @property
    def valid(self) -> bool:
        return self.input_error is None and not any(f.severity == "error" for f in self.findings)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.path, "valid": self.valid, "faction": self.faction,
                                  "points": self.points,
                                  "models": None if self.models is None else float(self.models),
                                  "findings": [f.as_dict() for f in self.findings],
                                  "example_values_from": self.examples}
        if self.input_error is not None:
            e = self.input_error
            out["input_error"] = {"message": e.message, "line": e.line, "hint": e.hint}
        return out


class _Checker:
    def __init__(self, roster: Roster, data: SkirmishData):
        self.r = roster
        self.data = data
        self.findings: list[Finding] = []
        self.lost_seen: set[str] = set()
        self.fkey: str | None = data.faction_key(roster.faction)
        self.f: dict[str, Any] = data.raw["factions"][self.fkey] if self.fkey else {}

    # -- helpers ---------------------------------------------------------------------------
    def add(self, code: str, message: str, loc: tuple[Any, ...] = (), where: str | None = None,
            fix: str | None = None) -> None:
        self.findings.append(Finding(code, message, self.r.line(loc), where, fix))

    def need(self, loc: tuple[Any, ...], where: str | None, *path: Any) -> Any:
        """A data value; a lost one becomes an SK001 finding (once per key) and None."""
        try:
            return self.data.get(*path)
        except LostValue as exc:
            if exc.key not in self.lost_seen:
                self.lost_seen.add(exc.key)
                self.add("SK001", str(exc), loc, where, exc.fix)
            return None

    def armoury(self, loc: tuple[Any, ...], where: str) -> dict[str, Any]:
        """The printed armoury, with the lost part of it when an overlay supplied it."""
        items = dict(self.f.get("armoury", {}))
        extra = self.f.get("extra_armoury")
        if isinstance(extra, dict):
            items.update(extra)
        return items

    def missing_item(self, name: str, loc: tuple[Any, ...], where: str,
                     armoury: dict[str, Any]) -> None:
        """An item not in the armoury: lost with the armoury's lost part, or unknown."""
        if "extra_armoury" in self.f and self.need(loc, where, "factions", self.fkey,
                                                    "extra_armoury") is None:
            return  # SK001: the text lost part of this armoury; the item may be in it
        self.add("SK130", f"'{name}' is not in the {self.f['name']} armoury", loc, where,
                 _closest(name, armoury))

    # -- the rules -------------------------------------------------------------------------
    def run(self) -> tuple[int | None, Fraction | None]:
        r = self.r
        if self.fkey is None:
            self.add("SK100", f"unknown faction '{r.faction}'", ("faction",), None,
                     self.data.faction_hint(r.faction))
            return None, None
        self.names()
        cost: int | None = 0
        for part in (self.leader(), *self.packs(), *self.upgraded(), self.swarms()):
            cost = None if cost is None or part is None else cost + part
        models = self.model_count()
        if r.state.battles == 0 and cost is not None and cost > self.data.get("budget"):
            # Designing A Unit: 100 points to spend (a new unit; later the Points Pool pays)
            self.add("SK101", f"the unit costs {cost} points; a new unit has "
                     f"{self.data.get('budget')}", ("faction",), None,
                     f"remove {cost - self.data.get('budget')} points of models or equipment")
        self.per_unit_items()
        if len(r.upgraded) > self.data.get("max_upgraded_models"):  # Breaking The Mould
            self.add("SK150", f"{len(r.upgraded)} upgraded models; at most "
                     f"{self.data.get('max_upgraded_models')}", ("upgraded",), None,
                     "remove upgraded models beyond the fourth")
        return cost, models

    def names(self) -> None:
        seen: Counter[str] = Counter(m.name for m in self.r.characters())
        seen.update(p.name for p in self.r.packs)
        for name, n in seen.items():
            if n > 1:
                self.add("SK180", f"'{name}' names {n} models or Packs", (), name,
                         "give each model and Pack its own name")

    def leader(self) -> int | None:
        r, leaders = self.r, self.f["leader"]
        if not leaders:  # Necron Unit: no Leader
            if r.leader is not None:
                self.add("SK111", "a Necron unit has no Leader", ("leader",), r.leader.name,
                         "remove the leader: entry")
            return 0
        if r.leader is None:
            if not r.state.disbanded:
                self.add("SK110", f"a {self.f['name']} unit is led by one Leader",
                         (), None, "add leader: {name: ..., type: " + next(iter(leaders)) + "}")
            return 0
        m = r.leader
        if m.type == "upgraded":  # an upgraded model took command (Death Of A Leader)
            return self.character(m, "upgraded", None)
        if m.type is None or m.type not in leaders:
            self.add("SK112", f"'{m.type or ''}' is not a {self.f['name']} Leader", m.loc + ("type",),
                     m.name, "use one of: " + ", ".join(leaders))
            return None
        cost = self.need(m.loc + ("type",), m.name, "factions", self.fkey, "leader", m.type, "cost")
        items = self.character(m, m.type, m.type)
        return None if cost is None or items is None else cost + items

    def upgraded(self) -> list[int | None]:
        return [self.character(m, "upgraded", None) for m in self.r.upgraded]

    def character(self, m: Model, skill_row: str, leader_type: str | None) -> int | None:
        """One model's armoury purchases, skills and advances; returns what they cost."""
        armoury = self.armoury(m.loc, m.name)
        cost: int | None = 0
        surcharge = self.f.get("broken_mould_surcharge", 0) if leader_type is None else 0
        counts: Counter[str] = Counter()
        for name, group in m.items():
            counts[name] += 1
            item = armoury.get(name)
            loc = m.loc + (group,)
            if item is None:
                self.missing_item(name, loc, m.name, armoury)
                cost = None
                continue
            want = {"weapons": "weapon", "wargear": "wargear", "grenades": "grenade"}[group]
            if item["kind"] != want:
                self.add("SK130", f"'{name}' is {item['kind']}, not {want}", loc, m.name,
                         f"list it under {_group(item['kind'])}")
            c = self.need(loc, m.name, *self._item_path(name), "cost")
            cost = None if cost is None or c is None else cost + c + surcharge
            self.prerequisite(m, name, item, loc)
        for name, n in counts.items():
            if n > 1:  # no model may be given the same item twice
                self.add("SK132", f"{m.name} has '{name}' {n} times", m.loc, m.name,
                         "keep one")
        self.slots(m, armoury)
        self.grenades(m.grenades, m.loc + ("grenades",), m.name)
        self.crafted(m, armoury)
        self.skills(m.skills, m.psychic_powers, m.loc, m.name, skill_row, m)
        profile = (self.need(m.loc + ("type",), m.name, "factions", self.fkey, "leader",
                             leader_type, "profile") if leader_type and m.advances else None)
        self.advances(m.advances, m.loc + ("advances",), m.name, profile, leader_type is not None)
        return cost

    def _item_path(self, name: str) -> tuple[Any, ...]:
        if name in self.f.get("armoury", {}):
            return ("factions", self.fkey, "armoury", name)
        return ("factions", self.fkey, "extra_armoury", name)

    def prerequisite(self, m: Model, name: str, item: dict[str, Any], loc: tuple[Any, ...]) -> None:
        req = item.get("requires")
        if req is None:
            return
        has = set(m.weapons) | set(m.wargear) | set(m.grenades)
        injuries = set(self.r.state.injuries.get(m.name, ()))
        if req == "amputation":  # Bionic Replacement: only after losing a limb
            ok = bool(injuries & (AMPUTATIONS | REPLACED))
            why = ("only a model that lost a limb or eye (arm_amputated, leg_amputated, "
                   "eye_lost, or one replaced by 'campaign buy': arm/leg/eye_replaced)")
        elif req == "leader_or_broken_mould":  # Hive Node: the Leader or an upgraded model
            ok = True
            why = ""
        elif req == "Psychic Training":
            ok = "Psychic Training" in m.skills or any(
                self.armoury(loc, m.name).get(w, {}).get("grants") == "Psychic Training" for w in has)
            why = "a model with the Psychic Training skill"
        else:  # a Mark, Mega Armour, the Hive Node
            ok = req in has
            why = f"a model with {req}"
        if not ok:
            self.add("SK140", f"'{name}' is for {why}", loc, m.name,
                     f"give {m.name} {req} first, or remove {name}")

    def slots(self, m: Model, armoury: dict[str, Any]) -> None:
        rule = self.f.get("slots")
        weapons = [armoury[w] for w in m.weapons if w in armoury and armoury[w]["kind"] == "weapon"]
        count = sum(2 if w.get("pair") else 1 for w in weapons)  # a Lightning Claw pair: two
        two = sum(1 for w in weapons if w.get("hands") == 2)
        loc = m.loc + ("weapons",)
        injuries = set(self.r.state.injuries.get(m.name, ()))
        if "arm_amputated" in injuries and "Bionic Replacement" not in m.wargear \
                and "Bionik Replacement" not in m.wargear and "Limb Replacement" not in m.wargear:
            if count > 1 or two:  # Injury 23: a single one-handed weapon from now on
                self.add("SK131", f"{m.name} lost an arm: a single one-handed weapon only",
                         loc, m.name, "keep one single-handed weapon or buy a Bionic Replacement")
            return
        if rule is None:
            return
        if count > rule["weapons"] or two > rule["two_handed"]:
            self.add("SK131", f"{m.name} has {count} weapon choice(s), {two} two-handed; at most "
                     f"{rule['weapons']}, of them {rule['two_handed']} two-handed", loc, m.name,
                     "two single-handed weapons, or one single-handed and one two-handed")

    def grenades(self, grenades: list[str], loc: tuple[Any, ...], where: str) -> None:
        if len(set(grenades)) > self.data.get("max_grenade_types"):  # Throwing Grenades
            self.add("SK133", f"{where} carries {len(set(grenades))} grenade types; at most "
                     f"{self.data.get('max_grenade_types')}", loc, where, "keep two types")

    def crafted(self, m: Model, armoury: dict[str, Any]) -> None:
        crafted = [w for w in m.wargear if armoury.get(w, {}).get("crafted")]
        loc = m.loc + ("master_crafted",)
        if len(crafted) > 1:  # one weapon of a model may be Master-Crafted
            self.add("SK134", f"{m.name} has {len(crafted)} crafted weapons; one only", loc,
                     m.name, "keep one")
        if crafted and m.master_crafted is None:
            self.add("SK135", f"{m.name} bought {crafted[0]} but names no weapon", m.loc, m.name,
                     "add master_crafted: WEAPON (one of its weapons)")
        elif m.master_crafted is not None and not crafted:
            self.add("SK135", f"{m.name} names a Master-Crafted weapon it did not buy", loc,
                     m.name, "buy a Master-Crafted Weapon or remove master_crafted")
        elif m.master_crafted is not None and m.master_crafted not in m.weapons:
            self.add("SK135", f"'{m.master_crafted}' is not one of {m.name}'s weapons", loc,
                     m.name, "name one of: " + (", ".join(m.weapons) or "(no weapons)"))

    def skills(self, skills: list[str], powers: list[str], loc: tuple[Any, ...], where: str,
               row_key: str | None, m: Model | None) -> None:
        lists: dict[str, list[str]] = self.data.get("skills")
        category = {s: c for c, names in lists.items() for s in names}
        counts: Counter[str] = Counter()
        for s in skills:
            if s not in category:
                self.add("SK160", f"unknown skill '{s}'", loc + ("skills",), where,
                         _closest(s, category))
        for s, n in Counter(skills).items():
            if n > 1 and s != "Psychic Training":  # Psychic Training: a power each time
                self.add("SK162", f"{where} has '{s}' {n} times", loc + ("skills",), where, "keep one")
        scars = "horrible_scars" in self.r.state.injuries.get(where, ())
        for s in set(skills):
            if s in category and not (s == "Fearsome" and scars):  # Horrible Scars: Fearsome free
                counts[category[s]] += 1
        table = self.data.get("psychic_powers", "table")
        for p in powers:
            if p not in table.values():
                self.add("SK160", f"unknown psychic power '{p}'", loc + ("psychic_powers",), where,
                         "one of: " + ", ".join(table.values()))
        if len(powers) > self.data.get("max_psychic_powers"):
            self.add("SK163", f"{where} has {len(powers)} psychic powers; at most "
                     f"{self.data.get('max_psychic_powers')}", loc + ("psychic_powers",), where,
                     "keep four")
        if row_key is None or not counts:
            return
        row = self.need(loc + ("skills",), where, "factions", self.fkey, "skills", row_key)
        if row is None:
            return
        for i, cat in enumerate(CATEGORY_NAMES):
            limit = row[i]
            if limit != "A" and counts[cat] > limit:  # New Skills: the faction's skill table
                self.add("SK161", f"{where} has {counts[cat]} {cat} skill(s); the "
                         f"{self.f['name']} table allows {limit}", loc + ("skills",), where,
                         f"keep at most {limit} {cat} skill(s)")

    def advances(self, adv: dict[str, int], loc: tuple[Any, ...], where: str,
                 profile: dict[str, Any] | None, check_profile: bool) -> None:
        keys = self.data.get("characteristics")
        top, most = self.data.get("characteristic_max"), self.data.get("advance_max")
        for stat, n in adv.items():
            if stat not in keys or stat == "Sv":
                self.add("SK173", f"unknown characteristic '{stat}'", loc, where,
                         "one of: " + ", ".join(k for k in keys if k != "Sv"))
                continue
            if n > most:  # Advances: at most 2 over the starting amount
                self.add("SK170", f"{where}'s {stat} is {n} over its starting amount; at most "
                         f"{most}", loc + (stat,), where, f"set {stat}: {most}")
            if profile is not None and n:
                base = profile[stat]
                if base == 0:  # a characteristic that started at 0 is never increased
                    self.add("SK172", f"{where}'s {stat} started at 0 and never increases",
                             loc + (stat,), where, f"remove the {stat} advance")
                elif base + n > top:
                    self.add("SK171", f"{where}'s {stat} would be {base + n}; no characteristic "
                             f"exceeds {top}", loc + (stat,), where, f"at most +{top - base}")

    def packs(self) -> list[int | None]:
        costs: list[int | None] = []
        types = self.f["packs"]
        seen: Counter[str] = Counter()
        for p in self.r.packs:
            t = types.get(p.type)
            if t is None or "upgrade_of" not in t:
                continue
            seen[p.type] += 1
            allowed = t.get("max_packs", 1)
            if seen[p.type] > allowed:  # one Pack of each upgraded type (Storm Guardians: two)
                self.add("SK122", f"another Pack of {t['name']}; a unit may only ever have "
                         f"{allowed}", p.loc + ("type",), p.name,
                         "keep one Pack of each upgraded type" if allowed == 1 else
                         f"at most {allowed}")
        for p in self.r.packs:
            costs.append(self.pack(p))
        return costs

    def pack(self, p: Pack) -> int | None:
        types = self.f["packs"]
        t = types.get(p.type)
        if t is None:
            self.add("SK120", f"'{p.type}' is not a {self.f['name']} Pack type", p.loc + ("type",),
                     p.name, "use one of: " + ", ".join(types))
            return None
        if p.models < 1 and not self.r.state.battles:
            self.add("SK124", f"{p.name} has no models", p.loc + ("models",), p.name,
                     "remove the Pack or give it models")
        lo, hi = t.get("min_size"), t.get("max_size")
        if hi is not None and p.models > hi:
            self.add("SK123", f"{p.name}: {p.models} {t['name']}; at most {hi} in a Pack",
                     p.loc + ("models",), p.name, f"at most {hi}")
        if lo is not None and 0 < p.models < lo:
            self.add("SK123", f"{p.name}: {p.models} {t['name']}; at least {lo} in a Pack",
                     p.loc + ("models",), p.name, f"buy {lo - p.models} more to reach {lo}, or "
                     "remove the Pack")
        if p.founded is not None and p.models > max(p.founded, lo or 0):
            # a Pack is never added to, except back up to its minimum size
            self.add("SK121", f"{p.name} has {p.models} models but was founded with "
                     f"{p.founded}; a Pack is never added to", p.loc + ("models",), p.name,
                     "put new models in a new Pack")
        each = self.need(p.loc + ("type",), p.name, "factions", self.fkey, "packs",
                         t.get("upgrade_of", p.type), "cost")
        extra = (self.need(p.loc + ("type",), p.name, "factions", self.fkey, "packs", p.type,
                           "upgrade_cost") if "upgrade_of" in t else 0)
        cost = None if each is None or extra is None else p.models * (each + extra)
        cost = self.pack_weapons(p, t, cost)
        cost = self.pack_wargear(p, t, cost)
        self.grenades(p.grenades, p.loc + ("grenades",), p.name)
        if p.grenades:
            self.add("SK138", f"{p.name}: Pack models buy no grenades from the Armoury",
                     p.loc + ("grenades",), p.name, "remove them; the Leader and upgraded models "
                     "may carry grenades")
        self.skills(p.skills, [], p.loc, p.name, None, None)
        profile = self.need(p.loc + ("type",), p.name, "factions", self.fkey, "packs", p.type,
                            "profile") if p.advances else None
        self.advances(p.advances, p.loc + ("advances",), p.name, profile, True)
        return cost

    def pack_weapons(self, p: Pack, t: dict[str, Any], cost: int | None) -> int | None:
        if not p.heavy and not p.assault:
            return cost
        only = self.f.get("heavy_assault_packs")
        if t.get("no_heavy") and p.heavy or (only is not None and p.type not in only):
            self.add("SK125", f"{t['name']} may not buy Heavy weapons", p.loc + ("heavy",), p.name,
                     "remove them")
        if t.get("no_assault") and p.assault or (only is not None and p.type not in only and p.assault):
            self.add("SK125", f"{t['name']} may not buy Assault weapons", p.loc + ("assault",),
                     p.name, "remove them")
        lists = self.need(p.loc + ("heavy",), p.name, "factions", self.fkey, "heavy_assault")
        if lists is None:
            return None
        for group, names in (("heavy", p.heavy), ("assault", p.assault)):
            limit = lists["per_pack"] * (t.get("heavy_factor", 1) if group == "heavy" else 1)
            if len(names) > limit:
                self.add("SK125", f"{p.name} has {len(names)} {group} weapons; a "
                         f"{t['name']} Pack may take {limit}", p.loc + (group,), p.name,
                         f"keep {limit}")
            for n in names:
                item = lists[group].get(n)
                if item is None:
                    self.add("SK130", f"'{n}' is not a {self.f['name']} {group} weapon",
                             p.loc + (group,), p.name, _closest(n, lists[group]))
                    cost = None
                elif cost is not None:
                    cost += item["cost"]
        return cost

    def pack_wargear(self, p: Pack, t: dict[str, Any], cost: int | None) -> int | None:
        if not p.wargear:
            return cost
        loc = p.loc + ("wargear",)
        if not self.f.get("pack_wargear"):
            self.add("SK138", f"{p.name}: Pack models buy no wargear from the Armoury", loc,
                     p.name, "the Leader and upgraded models buy wargear")
            return cost
        if "upgrade_of" in t:  # only standard Warrior Packs buy wargear
            self.add("SK137", f"{t['name']} buy no wargear; only standard Warrior Packs", loc,
                     p.name, "move the item to a Warrior Pack")
        if len(p.wargear) > 1:
            self.add("SK137", f"{p.name} has {len(p.wargear)} wargear items; one per Pack", loc,
                     p.name, "keep one")
        for w in p.wargear:
            item = self.f["armoury"].get(w)
            if item is None:
                self.add("SK130", f"'{w}' is not in the {self.f['name']} armoury", loc, p.name,
                         _closest(w, self.f["armoury"]))
                cost = None
            elif cost is not None:
                cost += item["cost"] * p.models  # the cost times the Pack's models
        return cost

    def swarms(self) -> int | None:
        kinds = self.f.get("swarms", {})
        cost: int | None = 0
        for s in self.r.swarms:
            if s.type not in kinds:
                self.add("SK126", f"'{s.type}' is not a {self.f['name']} swarm", s.loc + ("type",),
                         s.type, "one of: " + (", ".join(kinds) or "(none)"))
                cost = None
            elif cost is not None:
                cost += kinds[s.type]["cost"] * s.bases
        return cost

    def per_unit_items(self) -> None:
        seen: Counter[str] = Counter()
        where: dict[str, tuple[Any, ...]] = {}
        for m in self.r.characters():
            for name in set(m.wargear) | set(m.grenades) | set(m.weapons):
                seen[name] += 1
                where.setdefault(name, m.loc)
        for p in self.r.packs:
            for name in set(p.wargear):
                seen[name] += 1
                where.setdefault(name, p.loc)
        once_all = self.f.get("wargear_once_per_unit", False)
        for name, n in seen.items():
            item = self.f.get("armoury", {}).get(name, {})
            limit = item.get("per_unit") or (1 if once_all and item else None)
            if limit is not None and n > limit:
                self.add("SK136", f"'{name}' is bought {n} times; one per unit", where[name],
                         name, "keep one")

    def model_count(self) -> Fraction:
        """Models towards the unit's limits: Grots count half; companions (Ammo Runt, Attack
        Squig) do not count; reading: swarm bases count as models (no exception is given)."""
        types = self.f["packs"]
        n = Fraction(len(self.r.characters()))
        for p in self.r.packs:
            n += p.models * Fraction(str(types.get(p.type, {}).get("counts_as", 1)))
        n += sum(s.bases for s in self.r.swarms)
        lo, hi = self.f["models"]["min"], self.f["models"]["max"]
        shown = f"{float(n):g}"
        if n < lo:
            self.add("SK102", f"the unit has {shown} models; a {self.f['name']} unit has at "
                     f"least {lo}", ("packs",), None, f"add {lo - n} model(s)")
        if n > hi:
            self.add("SK103", f"the unit has {shown} models; a {self.f['name']} unit has at "
                     f"most {hi}", ("packs",), None, f"remove {float(n - hi):g} model(s)")
        return n


def _group(kind: str) -> str:
    return {"weapon": "weapons", "wargear": "wargear", "grenade": "grenades"}[kind]


def _closest(name: str, options: Any) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(options), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else "see the faction's armoury in the rules text"


def validate(roster: Roster, data: SkirmishData) -> Report:
    """Check ``roster`` against every construction rule."""
    checker = _Checker(roster, data)
    points, models = checker.run()
    return Report(roster.path, checker.findings, points, models,
                  data.raw["factions"][checker.fkey]["name"] if checker.fkey else roster.faction,
                  examples=data.example_files)


def validate_path(path: Path, data: SkirmishData) -> Report:
    """Load and validate one file; unreadable input becomes the report's ``input_error``."""
    try:
        roster = load_roster(path)
    except InputError as exc:
        return Report(str(path), input_error=exc)
    return validate(roster, data)
