"""Datasheets extracted from loaded catalogues: model profiles and counts, default and optional
weapons, abilities, invulnerable saves (as numbers only) and Leader data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from bagm.io.bsdata.conditions import hidden_by_default, named
from bagm.io.bsdata.leader import is_leader_ability, leader_data
from bagm.io.bsdata.links import Library, child_elements, id_variants
from bagm.io.bsdata.names import dedupe, name_key
from bagm.io.bsdata.values import (
    clean_text,
    parse_ap,
    parse_dice,
    parse_int,
    parse_range,
    parse_skill,
    parse_weapon_keywords,
)
from bagm.io.bsdata.wargear import wargear_options

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

MAX_DEPTH = 16  # entry nesting followed below a datasheet (real data: < 8)

_SKIP_BRANCH = re.compile(  # option lists that are not datasheet wargear (Crusade, army options)
    r"\bcrusade\b|\benhancements?$|^warlord$|battle honou?rs?|battle scars?|battle traits?|"
    r"weapon modifications?|weapon upgrades?|\brelics\b|relic upgrades?|mighty champions|"
    r"territory control|blackstone|requisitions?|\bagendas?\b|^detachment\b|chivalric quests|"
    r"shadow operations|infiltrated institutions|boarding acti+ons upgrades",
    re.I,
)
_NOT_KEYWORDS = {
    "configuration", "reference", "warlord", "allied units", "unit", "no force org slot",
    "uncategorised", "legends", "provisionally prepared",
}
_INVULN = re.compile(r"invulnerable\s+save", re.I)
_SAVE_NUMBER = re.compile(r"(\d)\s*\+")
_CONDITIONAL_INVULN = re.compile(r"\bagainst\b|ranged attack|melee attack|psychic attack|"
                                 r"\bwhile\b|\bif\b|\bwhen\b|\beach time\b", re.I)
# an ability whose whole text grants a save (Storm Shield, Weavefield crest, Serpent Shield)
_GRANTS_INVULN = re.compile(r"^(?:the bearer|this model|this unit|models in "
                            r"(?:this|the bearer['\u2019]s) unit) (?:has|have) an? \d\+ "
                            r"invulnerable save\.?$", re.I)
# only against melee attacks: Wyches, Howling Banshees ("improved to 4+ against melee attacks")
_MELEE_ONLY = re.compile(r"against melee attacks\.?$", re.I)
# the whole unit has it ("Models in the bearer's unit have...", "This unit has..."), not one model
_UNIT_WIDE = re.compile(r"\b(?:this|the bearer['\u2019]s) unit\b(?!['\u2019]s)", re.I)
# wargear that changes its bearer's Wounds ("Slabshield", "Praesidium Shield")
_SETS_WOUNDS = re.compile(r"^the bearer has a wounds characteristic of (\d+)\.?$", re.I)
_ADDS_WOUNDS = re.compile(r"^add (\d) to the bearer['\u2019]s wounds characteristic\.?$", re.I)
_REFERENCE_ONLY = re.compile(r"\(ref(?:erence)?\.? only\)", re.I)  # a profile shown for reference


@dataclass
class Node:
    """An entry seen through its link: the link's own children plus the target's."""

    link: "Element | None"
    target: "Element"

    @property
    def parts(self) -> list["Element"]:
        return [p for p in (self.link, self.target) if p is not None]

    @property
    def name(self) -> str:
        link_name = self.link.get("name") if self.link is not None else ""
        return clean_text(self.target.get("name") or link_name)

    @property
    def ids(self) -> set[str]:
        out = {p.get("id", "") for p in self.parts}
        if self.link is not None:
            out.add(self.link.get("targetId", ""))
        return {i for v in out for i in id_variants(v) if i}

    @property
    def hidden(self) -> bool:
        return any(p.get("hidden", "false").lower() == "true" for p in self.parts)

    def children(self, container: str, tag: str) -> list["Element"]:
        out: list[Element] = []
        for p in self.parts:
            out.extend(child_elements(p, container, tag))
        return out

    def bounds(self) -> tuple[int | None, int | None]:
        """Own ``min`` / ``max`` selections constraints (scope parent), link first."""
        lo: int | None = None
        hi: int | None = None
        for p in self.parts:
            for c in child_elements(p, "constraints", "constraint"):
                if c.get("field") != "selections" or c.get("scope") not in ("parent", None):
                    continue
                try:
                    value = int(float(c.get("value", "")))
                except ValueError:
                    continue
                if c.get("type") == "min" and lo is None:
                    lo = value
                elif c.get("type") == "max" and hi is None:
                    hi = value
        return lo, hi


@dataclass(eq=False)
class _Tree:
    """A unit's model structure: groups with their min/max, models with their profile names."""

    lo: int | None
    hi: int | None
    names: list[str] | None = None  # a model: the Unit profiles it uses; a group: None
    children: list["_Tree"] = field(default_factory=list)


@dataclass
class _Found:
    root: int = 0  # the owner that stands for the whole unit
    models: list[tuple["Element", int]] = field(default_factory=list)  # (profile, owner)
    weapons: list[tuple["Element", bool]] = field(default_factory=list)
    abilities: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # ability name -> its text (parsed only)
    invulns: dict[int, int] = field(default_factory=dict)  # owner -> save
    melee_invulns: dict[int, int] = field(default_factory=dict)  # owner -> save against melee
    wounds: dict[int, tuple[str, int]] = field(default_factory=dict)  # owner -> (set|add, n)
    model_owners: list[int] = field(default_factory=list)
    default_owners: list[int] = field(default_factory=list)  # model entries a plain roster has
    notes: list[str] = field(default_factory=list)


class Extractor:
    def __init__(self, lib: Library) -> None:
        self.lib = lib

    # entry contents --------------------------------------------------------------------------

    def _info(self, parts: list["Element"], depth: int = 0) -> Iterator[tuple[str, "Element", str]]:
        """("profile" | "rule", element, display name) of entries' profiles, rules, infoGroups."""
        if depth > 4:
            return
        for p in parts:
            for prof in child_elements(p, "profiles", "profile"):
                if not hidden_by_default(prof):
                    yield "profile", prof, clean_text(prof.get("name"))
            for rule in child_elements(p, "rules", "rule"):
                if not hidden_by_default(rule):
                    yield "rule", rule, named(rule)
            for group in child_elements(p, "infoGroups", "infoGroup"):
                if not hidden_by_default(group):
                    yield from self._info([group], depth + 1)
            for link in child_elements(p, "infoLinks", "infoLink"):
                if hidden_by_default(link):
                    continue
                target = self.lib.get(link.get("targetId"))
                if target is not None and target.get("hidden", "false").lower() == "true":
                    continue
                kind = link.get("type", "")
                if kind == "profile" and target is not None:
                    yield "profile", target, clean_text(target.get("name"))
                elif kind == "rule":
                    base = clean_text(target.get("name")) if target is not None else ""
                    name = named(link) if link.find("modifiers") is not None else (
                        base or clean_text(link.get("name")))
                    yield "rule", link, name
                elif kind == "infoGroup" and target is not None:
                    yield from self._info([link, target], depth + 1)

    def _resolve(self, el: "Element") -> Node | None:
        if el.tag == "entryLink":
            target = self.lib.get(el.get("targetId"))
            if target is None:
                return None
            return Node(el, target)
        return Node(None, el)

    def _members(self, node: Node) -> list[Node]:
        """Child entries and groups of an entry or group, links resolved, in document order."""
        out: list[Node] = []
        for p in node.parts:
            for container in p:
                if container.tag not in ("selectionEntries", "entryLinks", "selectionEntryGroups"):
                    continue
                for el in container:
                    if el.tag not in ("selectionEntry", "entryLink", "selectionEntryGroup"):
                        continue
                    child = self._resolve(el)
                    if child is not None:
                        out.append(child)
        return out

    # walking ---------------------------------------------------------------------------------

    def unit(self, node: Node) -> tuple[dict[str, Any], list[str]]:
        root_owner = id(node.target)
        found = _Found(root=root_owner)
        self._walk(node, found, default=True, level="unit", owner=root_owner,
                   depth=0, stack=set())
        keywords, factions = self._keywords(node)
        counts = self._ranges(self._tree(node, [name_key(clean_text(p.get("name")))
                                                for p, _owner in found.models]))
        models = self._models(node, found, counts, root_owner)
        weapons = self._weapons(found)
        abilities = dedupe(found.abilities)
        unit: dict[str, Any] = {
            "name": node.name,
            "keywords": keywords,
            "faction_keywords": factions,
            "models": models,
            "weapons": weapons,
            "abilities": abilities,
        }
        options, items, groups, unread, together = wargear_options(
            self, node, {name_key(m["name"]): m["name"] for m in models}, _largest(models))
        if options:
            unit["wargear"] = options
        if items:
            unit["wargear_items"] = items
        if groups and options:
            unit["wargear_groups"] = groups
        if together and options:
            unit["wargear_item_bounds"] = together
        if unread and options:
            unit["wargear_unread"] = unread
        leader = leader_data(found.texts)
        if leader is not None:
            unit["leader"] = leader
        return unit, dedupe(found.notes)

    def _walk(self, node: Node, found: _Found, *, default: bool, level: str, owner: int,
              depth: int, stack: set[int]) -> None:
        if depth > MAX_DEPTH or id(node.target) in stack:
            return
        stack = stack | {id(node.target)}
        is_group = node.target.tag == "selectionEntryGroup"
        if not is_group:
            etype = node.target.get("type", "")
            if depth > 0 and etype == "model":
                level, owner = "model", id(node.target)
                found.model_owners.append(owner)
                if default:
                    found.default_owners.append(owner)
            elif depth > 0:
                level = "gear"
        self._collect(node, found, default=default, level=level, owner=owner)  # groups too
        members = self._members(node)
        defaults: set[str] = set()
        if is_group:
            for p in node.parts:
                if p.get("defaultSelectionEntryId"):
                    defaults.update(id_variants(p.get("defaultSelectionEntryId", "")))
        group_min = node.bounds()[0] if is_group else None
        entries = [m for m in members if m.target.tag != "selectionEntryGroup"
                   and not _SKIP_BRANCH.search(m.name) and not m.hidden]
        if defaults and not any(e.ids & defaults for e in entries):
            defaults = set()  # a stale default id (or "none"): as if there were no default
        for child in members:
            if _SKIP_BRANCH.search(child.name):
                continue
            if child.target.tag == "selectionEntryGroup":
                self._walk(child, found, default=default, level=level, owner=owner,
                           depth=depth + 1, stack=stack)
                continue
            if child.hidden or child.target.get("type") == "unit":
                continue
            lo, hi = child.bounds()
            if hi != 0 and self._holds_models(child) and (not is_group or not defaults and sum(
                    self._holds_models(e) for e in entries) == 1):
                # a unit's models are its composition, not an option: walk each (and a wrapper
                # entry around them) as chosen, so its default wargear is default
                chosen = True
            elif is_group and defaults:
                chosen = bool(child.ids & defaults) or (lo or 0) >= 1
            elif is_group and (group_min or 0) >= 1 \
                    and not any((e.bounds()[0] or 0) >= 1 for e in entries):
                # a required choice without a (valid) default: the first, as a list builder does
                chosen = bool(entries) and child is entries[0]
            else:
                chosen = (lo or 0) >= 1
            self._walk(child, found, default=default and chosen, level=level, owner=owner,
                       depth=depth + 1, stack=stack)

    def _holds_models(self, node: Node, depth: int = 0) -> bool:
        """Whether an entry is a model or a wrapper entry (not a group) around model entries."""
        if node.target.get("type") == "model":
            return True
        if depth > 2 or node.target.tag == "selectionEntryGroup" \
                or node.target.get("type") == "upgrade":
            return False
        return any(self._holds_models(m, depth + 1) for m in self._members(node))

    def _collect(self, node: Node, found: _Found, *, default: bool, level: str,
                 owner: int) -> None:
        for kind, el, name in self._info(node.parts):
            if kind == "rule":
                if level in ("unit", "model") and name:
                    found.abilities.append(name)
                continue
            type_name = self.lib.type_name(el)
            if type_name == "Unit":
                found.models.append((el, owner))
            elif type_name in ("Ranged Weapons", "Melee Weapons"):
                # a "(ref. only)" profile is shown for reference: never carried by default
                found.weapons.append((el, default and not _REFERENCE_ONLY.search(name)))
            elif type_name == "Abilities":
                self._ability(el, name, found, default=default, level=level, owner=owner)

    def _ability(self, el: "Element", name: str, found: _Found, *, default: bool, level: str,
                 owner: int) -> None:
        """An Abilities profile: listed by name (unit and model level), and read for the two
        facts the engine needs as numbers, an invulnerable save and a changed Wounds
        characteristic (default wargear gives them too)."""
        text = " ".join(clean_text(c.text) for c in el.iter("characteristic"))
        named = bool(_INVULN.search(name))
        gear = level not in ("unit", "model")
        if (named or _GRANTS_INVULN.match(text)) and not is_leader_ability(text):
            if gear and not default:
                found.notes.append(f"invulnerable save of optional wargear not recorded ({name})")
            else:
                save, melee, unread = self._invuln(el, name)
                where = found.root if _UNIT_WIDE.search(text) else owner
                if save is not None:
                    found.invulns.setdefault(where, save)
                if melee is not None:
                    found.melee_invulns.setdefault(where, melee)
                if unread:
                    found.notes.append(f"conditional invulnerable save not recorded ({name})")
        if gear:
            wounds = _SETS_WOUNDS.match(text) or _ADDS_WOUNDS.match(text)
            if wounds and default:
                how = "set" if wounds.re is _SETS_WOUNDS else "add"
                found.wounds.setdefault(owner, (how, int(wounds.group(1))))
            return
        if name and not named:
            found.abilities.append(name)
            found.texts.setdefault(name, " ".join(c.text or "" for c in el.iter("characteristic"))
                                   .strip())

    @staticmethod
    def _invuln(profile: "Element", name: str) -> tuple[int | None, int | None, bool]:
        """(all-round save, save against melee attacks only, a conditional one left unread).

        Only numbers are read: "Invulnerable Save (4+)", or the first sentence of the text that
        gives an unconditional save; a sentence that limits a save to melee attacks gives the
        melee one (Core Rules: an invulnerable save "against melee attacks"); any other limit
        ("against ranged attacks", "while ...") is not recorded.
        """
        text = " ".join(clean_text(c.text) for c in profile.iter("characteristic"))
        m = _SAVE_NUMBER.search(name)
        if m and "*" not in name:
            return int(m.group(1)), None, False
        named = bool(_INVULN.search(name))
        save: int | None = None
        melee: int | None = None
        unread = False
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            m = _SAVE_NUMBER.search(sentence)
            if not m or not (named or "invulnerable" in sentence.lower()):
                continue
            value = int(m.group(1))
            limited = _CONDITIONAL_INVULN.search(sentence)
            if limited and _MELEE_ONLY.search(sentence) and \
                    not _CONDITIONAL_INVULN.search(_MELEE_ONLY.sub("", sentence)):
                melee = value if melee is None else min(melee, value)
            elif limited:
                unread = True
            elif save is None:
                save = value
        if melee is not None and save is not None and melee >= save:
            melee = None  # no better than the all-round save: nothing to record
        return save, melee, unread

    def _keywords(self, node: Node) -> tuple[list[str], list[str]]:
        keywords: list[str] = []
        factions: list[str] = []
        for link in node.children("categoryLinks", "categoryLink"):
            target = self.lib.get(link.get("targetId"))
            target_name = target.get("name") if target is not None else ""
            name = clean_text(link.get("name") or target_name)
            if not name:
                continue
            if name.lower().startswith("faction:"):
                factions.append(name.split(":", 1)[1].strip().upper())
            elif name.lower() not in _NOT_KEYWORDS \
                    and not re.search(r"\b(weapon|modifier)$", name, re.I):
                keywords.append(name.upper())
        return dedupe(keywords), dedupe(factions)

    # model counts ----------------------------------------------------------------------------

    def _unit_profile_names(self, node: Node) -> list[str]:
        return [name_key(name) for kind, el, name in self._info(node.parts)
                if kind == "profile" and self.lib.type_name(el) == "Unit"]

    def _tree(self, node: Node, profiles: list[str]) -> _Tree:
        """The model entries of a unit, in their groups, each with the profile it uses.

        A model entry without a Unit profile of its own uses the one its group gives; where that
        is not one profile (several on the unit: "Grimaldus" and "Cenobyte Servitor"), the one
        its name names ("Chaplain Grimaldus" -> "Grimaldus")."""
        root = _Tree(None, None)
        root_names = self._unit_profile_names(node)
        if node.target.get("type") == "model":
            root.children.append(_Tree(1, 1, root_names))
            root_names = []  # a character's companions do not share its profile

        def walk(n: Node, into: _Tree, inherited: list[str], depth: int, stack: set[int]) -> None:
            if depth > MAX_DEPTH or id(n.target) in stack:
                return
            stack = stack | {id(n.target)}
            for child, names in self.shown_members(n, inherited, profiles):
                lo, hi = child.bounds()
                if child.target.tag == "selectionEntryGroup":
                    sub = _Tree(lo, hi)
                    walk(child, sub, names, depth + 1, stack)
                    if sub.children:
                        into.children.append(sub)
                elif child.target.get("type") == "model":
                    into.children.append(_Tree(lo or 0, hi, names))

        walk(node, root, root_names, 0, set())
        return root

    def shown_members(self, n: Node, inherited: list[str], profiles: list[str]
                      ) -> Iterator[tuple[Node, list[str]]]:
        """The members of an entry a plain roster shows (not hidden, not Crusade and the
        like), each with the Unit profile names (keys) its models use: its own, else those it
        inherits; for a model entry without one profile, the one its name names."""
        for child in self._members(n):
            if _SKIP_BRANCH.search(child.name) or child.hidden:
                continue
            names = self._unit_profile_names(child) or inherited
            if len(names) != 1 and child.target.get("type") == "model":
                names = _named_profile(child.name, profiles) or names
            yield child, names

    @staticmethod
    def _ranges(tree: _Tree) -> dict[str, tuple[int, int | None]]:
        """How many models use each Unit profile (by name key).

        Computed up the tree: a group's min/max bounds the models of one profile by what the
        group's other models leave over. Where alternatives only add up to an upper bound
        (several open-ended choices in a group without a maximum), the count is unknown.
        """
        Span = tuple[int, int | None]

        def add(a: Span, b: Span) -> Span:
            return a[0] + b[0], None if a[1] is None or b[1] is None else a[1] + b[1]

        def span(t: _Tree, name: str) -> tuple[Span, Span]:
            """(models using ``name``, other models) under ``t``."""
            if t.names is not None:
                own: Span = (t.lo or 0, t.hi)
                return (own, (0, 0)) if name in t.names else ((0, 0), own)
            mine: Span = (0, 0)
            rest: Span = (0, 0)
            open_mine = open_rest = 0
            for child in t.children:
                m, r = span(child, name)
                mine, rest = add(mine, m), add(rest, r)
                open_mine += m[1] != m[0]
                open_rest += r[1] != r[0]
            if t.hi is None:
                if open_mine > 1:
                    mine = (mine[0], None)
                if open_rest > 1:
                    rest = (rest[0], None)
                if t.lo is None:
                    return mine, rest
            m_lo, m_hi = mine
            r_lo, r_hi = rest
            if t.lo is not None:
                if r_hi is not None:
                    m_lo = max(m_lo, t.lo - r_hi)
                if m_hi is not None:
                    r_lo = max(r_lo, t.lo - m_hi)
            if t.hi is not None:
                m_hi = t.hi - rest[0] if m_hi is None else min(m_hi, t.hi - rest[0])
                r_hi = t.hi - mine[0] if r_hi is None else min(r_hi, t.hi - mine[0])
            return (m_lo, m_hi), (r_lo, r_hi)

        names: list[str] = []

        def collect(t: _Tree) -> None:
            if t.names is not None:
                names.extend(n for n in t.names if n not in names)
            for child in t.children:
                collect(child)

        collect(tree)
        return {name: span(tree, name)[0] for name in names}

    # assembling ------------------------------------------------------------------------------

    def _models(self, node: Node, found: _Found, counts: dict[str, tuple[int, int | None]],
                root_owner: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        profiles = found.models
        root_invuln = found.invulns.get(root_owner)
        model_invulns = {o: v for o, v in found.invulns.items() if o != root_owner}
        shared_invuln = _shared(model_invulns, found.model_owners, found.default_owners)
        for prof, owner in profiles:
            name = clean_text(prof.get("name"))
            key = name_key(name)
            if key in seen:
                continue
            try:
                chars = _characteristics(prof)
                model: dict[str, Any] = {
                    "name": name,
                    "M": parse_int(chars.get("M"), allow_none=True),
                    "T": parse_int(chars.get("T")),
                    "Sv": parse_int(chars.get("SV")),
                    "W": parse_int(chars.get("W")),
                    "Ld": parse_int(chars.get("LD")),
                    "OC": parse_int(chars.get("OC")),
                }
            except ValueError as exc:
                found.notes.append(f"model profile '{name}' skipped: {exc}")
                continue
            seen.add(key)
            invuln = model_invulns.get(owner) if owner != root_owner else None
            if invuln is None:
                invuln = root_invuln if root_invuln is not None else shared_invuln
            if invuln is not None:
                model["invuln"] = invuln
            melee = found.melee_invulns.get(owner, found.melee_invulns.get(root_owner))
            if melee is None and owner == root_owner:
                melee = _shared(found.melee_invulns, found.model_owners, found.default_owners)
            if melee is not None and (invuln is None or melee < invuln):
                model["invuln_melee"] = melee
            change = found.wounds.get(owner) if owner != root_owner else \
                _shared(found.wounds, found.model_owners, found.default_owners)
            if change is not None:  # default wargear of this model changes its Wounds
                how, n = change
                model["W"] = n if how == "set" else model["W"] + n
            count = _count_text(counts.get(key))
            if count is not None:
                model["count"] = count
            out.append(model)
        return out

    def _weapons(self, found: _Found) -> list[dict[str, Any]]:
        """One weapon per name and type: where models carry different profiles of one name (a
        drone's Missile pod beside the battlesuit's), the one carried by default wins."""
        seen: dict[str, list[dict[str, Any]]] = {}
        for prof, default in found.weapons:
            name = _weapon_name(prof.get("name"))
            kind = "ranged" if self.lib.type_name(prof) == "Ranged Weapons" else "melee"
            try:
                weapon = _weapon(prof, name, kind)
            except ValueError as exc:
                found.notes.append(f"weapon '{name}' skipped: {exc}")
                continue
            if not default:
                weapon["default"] = False
            # a staff with a ranged and a melee profile: both kept
            seen.setdefault(f"{kind}:{name_key(name)}", []).append(weapon)
        out: dict[str, dict[str, Any]] = {}
        for key, found_ in seen.items():
            carried = [w for w in found_ if w.get("default", True)] or found_
            # models of one unit with different profiles of one name (a sergeant's BS 3+
            # autopistol, the others' 4+): the one most models carry, as the engine plays one
            best = max(carried, key=lambda w: sum(_same_profile(w, x) for x in carried))
            if any(not _same_profile(best, w) for w in carried):
                found.notes.append(f"weapon '{best['name']}' has two different profiles; the one "
                                   f"most of its models carry is kept")
            out[key] = best
        weapons = sorted(out.values(), key=lambda w: w["type"] != "ranged")  # stable: ranged first
        ranged = {name_key(w["name"]) for w in weapons if w["type"] == "ranged"}
        for w in weapons:  # names are unique in a pack: "Staff of light" and "... (melee)"
            if w["type"] == "melee" and name_key(w["name"]) in ranged:
                w["name"] = f"{w['name']} (melee)"
        return weapons


def _shared(values: dict[int, Any], owners: list[int], defaults: list[int]) -> Any:
    """The value every model entry of a plain roster has (those a list builder selects by
    default, else all of them), when they agree; for a Unit profile all model entries share."""
    wanted = defaults or owners
    found = {values.get(o) for o in wanted}
    return next(iter(found)) if wanted and len(found) == 1 else None


def _same_profile(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two weapon dicts with the same characteristics (whether default or not aside)."""
    return {k: v for k, v in a.items() if k not in ("default", "name")} == \
        {k: v for k, v in b.items() if k not in ("default", "name")}


def _named_profile(entry: str, profiles: list[str]) -> list[str]:
    """The one Unit profile (by name key) a model entry's name names, or none."""
    key = name_key(entry)
    if key in profiles:
        return [key]
    found = [p for p in dict.fromkeys(profiles)
             if re.search(rf"\b{re.escape(p)}\b", key) or re.search(rf"\b{re.escape(key)}\b", p)]
    return found if len(found) == 1 else []


def _characteristics(profile: "Element") -> dict[str, str]:
    return {clean_text(c.get("name")).upper(): clean_text(c.text)
            for c in profile.iter("characteristic")}


def _weapon_name(raw: str | None) -> str:
    return clean_text((raw or "").replace("➤", " ").replace("►", " ")).strip(" -")


def _weapon(profile: "Element", name: str, kind: str) -> dict[str, Any]:
    chars = _characteristics(profile)
    skill_text = chars.get("BS") if kind == "ranged" else chars.get("WS")
    if skill_text is None:
        skill_text = chars.get("WS", chars.get("BS"))
    attacks = parse_dice(chars.get("A"))
    strength = parse_dice(chars.get("S"))
    damage = parse_dice(chars.get("D"))
    if attacks is None or strength is None or damage is None:
        raise ValueError("A, S and D are required")
    weapon: dict[str, Any] = {"name": name, "type": kind}
    rng = parse_range(chars.get("RANGE")) if kind == "ranged" else None
    if rng is not None:
        weapon["range"] = rng
    weapon.update({"A": attacks, "skill": parse_skill(skill_text), "S": strength,
                   "AP": parse_ap(chars.get("AP")), "D": damage})
    abilities = parse_weapon_keywords(chars.get("KEYWORDS"))
    if abilities:
        weapon["abilities"] = abilities
    return weapon


def _count_text(span: tuple[int, int | None] | None) -> str | None:
    if span is None:
        return None
    lo, hi = span
    if hi is None or hi <= 0 or lo > hi:
        return None
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _largest(models: list[dict[str, Any]]) -> int | None:
    """The most models the unit's profiles count together ("1", "4-9": 10), None if one is
    not counted."""
    total = 0
    for m in models:
        nums = re.findall(r"\d+", str(m.get("count", "")))
        if not nums:
            return None
        total += int(nums[-1])
    return total or None
