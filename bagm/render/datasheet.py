"""A datasheet as a person reads it: profiles, weapons, abilities, keywords, Starting Strengths.

Shared by ``bagm datasheet`` (text and JSON) and the roster card (HTML and SVG). It lays out
what the data pack holds and decides no rule: legal sizes and their points come from
``bagm.roster.points``, the Detachments that may take a unit from the pack's allowances.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bagm.roster.points import legal_sizes, points_for

__all__ = ["DatasheetView", "ability_text", "adaptation_text", "profile_row", "weapon_abilities",
           "weapon_row"]

PROFILE_COLUMNS = ("M", "T", "Sv", "W", "Ld", "OC")
WEAPON_COLUMNS = ("Range", "A", "BS", "S", "AP", "D")  # "WS" for melee


def ability_text(ab: Any) -> str:
    """A weapon ability as printed on a datasheet: 'Sustained Hits 1', 'Anti-Infantry 4+'."""
    name = " ".join(w.capitalize() for w in ab.name.split())
    if ab.name == "anti":
        target = (ab.target or "?").title()
        return f"Anti-{target} {ab.value}+" if ab.value is not None else f"Anti-{target}"
    return f"{name} {ab.value}" if ab.value is not None else name


def weapon_abilities(wp: Any) -> str:
    return ", ".join(ability_text(a) for a in wp.abilities)


def _plus(value: int | None) -> str:
    return "-" if value is None else f"{value}+"


def _dice(value: Any) -> str:
    return str(value)


def profile_row(p: Any) -> dict[str, str]:
    """A model profile's characteristics as printed (3+ saves, 6" moves, '-' for none)."""
    return {"name": p.name, "M": "-" if p.M is None else f'{p.M}"', "T": str(p.T),
            "Sv": _plus(p.Sv), "W": str(p.W), "Ld": _plus(p.Ld), "OC": str(p.OC),
            "invuln": _plus(p.invuln) if p.invuln is not None else ""}


def weapon_row(wp: Any) -> dict[str, Any]:
    """A weapon's characteristics as printed: Range, A, BS/WS, S, AP, D and its abilities."""
    return {"name": wp.name, "type": wp.type,
            "Range": "Melee" if wp.type == "melee" else (f'{wp.range}"' if wp.range else "-"),
            "A": _dice(wp.A), "skill": "N/A" if wp.skill is None else f"{wp.skill}+",
            "S": _dice(wp.S), "AP": str(wp.AP) if wp.AP else "0", "D": _dice(wp.D),
            "abilities": weapon_abilities(wp), "option": not wp.default}


@dataclass(frozen=True)
class DatasheetView:
    """A datasheet with what the Boarding Actions data says about it, ready to lay out."""

    datasheet: Any  # Datasheet
    faction: str
    detachments: list[tuple[str, int, list[int]]]  # (name, max, legal sizes there)

    @classmethod
    def of(cls, faction: Any, ds: Any) -> DatasheetView:
        """Gather the Detachments of ``faction`` that may take ``ds``."""
        dets = []
        for det in faction.pack.detachments:
            a = faction.allowance(det, ds.name)
            if a is not None:
                dets.append((det.name, a.max, legal_sizes(ds.points, ds.sizes, a.sizes)))
        return cls(ds, faction.name, dets)

    @property
    def sizes(self) -> list[tuple[int, int | None]]:
        """Legal Starting Strengths on the datasheet (any Detachment) with their points."""
        ds = self.datasheet
        return [(n, points_for(ds.points, n)) for n in legal_sizes(ds.points, ds.sizes, None)]

    @property
    def has_options(self) -> bool:
        return any(not w.default for w in self.datasheet.weapons)

    def as_dict(self) -> dict[str, Any]:
        ds = self.datasheet
        ada = ds.adaptation
        return {
            "name": ds.name, "faction": self.faction, "aliases": list(ds.aliases),
            "keywords": list(ds.keywords), "faction_keywords": list(ds.faction_keywords),
            "base_mm": ds.base, "base_oval_mm": ds.base_oval,
            "starting_strengths": [{"models": n, "points": p} for n, p in self.sizes],
            "profiles": [{**profile_row(p), "count": p.count} for p in ds.models],
            "weapons": [weapon_row(w) for w in ds.weapons],
            "wargear_options": [w.name for w in ds.weapons if not w.default],
            "wargear_note": WARGEAR_NOTE if not ds.wargear else WARGEAR_KINDS_NOTE,
            **({"wargear": [kind_dict(k) for k in ds.wargear]} if ds.wargear else {}),
            **({"wargear_groups": [
                {"models": list(g.models), "min": g.min, "max": g.max,
                 "max_from": {str(n): v for n, v in g.max_from.items()},
                 **({"max_from_kinds": list(g.max_from_kinds)} if g.max_from_kinds else {})}
                for g in ds.wargear_groups]} if ds.wargear_groups else {}),
            **({"wargear_item_bounds": [
                {"items": list(b.items), "max": b.max,
                 "max_from": {str(n): v for n, v in b.max_from.items()},
                 **({"max_from_kinds": list(b.max_from_kinds)} if b.max_from_kinds else {}),
                 "alike": b.alike,
                 "beside": list(b.beside), **({"per_model": True} if b.per_model else {})}
                for b in ds.wargear_item_bounds]} if ds.wargear_item_bounds else {}),
            **({"wargear_unread": list(ds.wargear_unread)} if ds.wargear_unread else {}),
            "abilities": list(ds.abilities),
            "boarding_actions": None if ada is None else {
                "loses": list(ada.loses), "M": ada.M, "no_split": ada.no_split,
                "split": ada.split, "note": ada.note},
            "leader": None if ds.leader is None else {
                "bodyguards": list(ds.leader.bodyguards),
                "abilities": [a.name for a in ds.leader.abilities]},
            "detachments": [{"name": n, "max": m, "sizes": s} for n, m, s in self.detachments],
            "points_note": ds.points_note,
        }


WARGEAR_KINDS_NOTE = ("'wargear' gives each kind of model: how many the unit may have, what "
                      "it always carries and its choices ('needs': made inside that item; "
                      "'unless': none while the model carries one of these; 'unit_needs': "
                      "made only while some model of the unit carries one of these, "
                      "'unit_min' its minimum then; 'item_needs': an item taken only by a "
                      "model carrying every one of these; 'unit_max': the most models of the "
                      "unit taking other than the default; 'item_unless': an item not taken "
                      "by a model carrying one of these; 'item_unit_unless': an item no "
                      "model takes beside a model of one of these kinds); a kind's "
                      "'unit_unless': none of it beside a model of one of these kinds; "
                      "'wargear_groups': bounds shared by several kinds; "
                      "'wargear_item_bounds': items the unit's models carry together, at "
                      "most 'max' of them ('max_from': more from a unit size on, or from "
                      "that many models of the kinds 'max_from_kinds'; 'per_model': of the "
                      "models carrying one or more), or one of "
                      "them only ('alike'), while it has a model of one of the kinds 'beside' "
                      "(empty: always); 'wargear_unread': bounds the data does not read "
                      "(check them by hand)")


def kind_dict(k: Any) -> dict[str, Any]:
    return {"model": k.model, "profile": k.profile, "min": k.min, "max": k.max,
            "max_from": {str(n): v for n, v in k.max_from.items()},
            **({"max_from_kinds": list(k.max_from_kinds)} if k.max_from_kinds else {}),
            "gear": list(k.gear), "choices": [{"of": list(c.of), "min": c.min, "max": c.max,
                                               "default": c.default,
                                               **({"needs": c.needs} if c.needs else {}),
                                               **({"unless": list(c.unless)} if c.unless
                                                  else {}),
                                               **({"unit_needs": list(c.unit_needs),
                                                   "unit_min": c.unit_min} if c.unit_needs
                                                  else {}),
                                               **({"item_needs": {i: list(n) for i, n
                                                                  in c.item_needs.items()}}
                                                  if c.item_needs else {}),
                                               **({"unit_max": c.unit_max}
                                                  if c.unit_max is not None else {}),
                                               **({"item_unless": {
                                                   i: list(n) for i, n
                                                   in c.item_unless.items()}}
                                                  if c.item_unless else {}),
                                               **({"item_unit_unless": {
                                                   i: list(n) for i, n
                                                   in c.item_unit_unless.items()}}
                                                  if c.item_unit_unless else {}),
                                               **({"max_from": {str(n): v for n, v in c.max_from.items()}}
                                                  if c.max_from else {})}
                                              for c in k.choices],
            **({"unit_unless": list(k.unit_unless)} if k.unit_unless else {})}


def kind_text(k: Any) -> str:
    """One kind of model on one line: 'Tactical Marine (7-9): Bolt pistol, Boltgun; one of
    Flamer / Meltagun'."""
    count = str(k.min) if k.max == k.min else (
        f"{k.min}-{k.max}" if k.max is not None else f"{k.min}+")
    count += grows_text(k)
    if k.unit_unless:  # a bound on the kinds of model the unit has
        count += f"; none beside a {' or '.join(k.unit_unless)}"
    head = f"{k.model} ({count})" if k.model else "The unit"
    parts = [", ".join(k.gear)] if k.gear else []
    for c in k.choices:
        how = "one of" if (c.min, c.max) == (1, 1) else (
            "up to one of" if (c.min, c.max) == (0, 1) else f"{c.min}-{c.max or 'any'} of")
        text = f"{how} {' / '.join(c.of)}" if len(c.of) > 1 else (
            f"optional {c.of[0]}" if c.min == 0 else c.of[0])
        text = f"inside {c.needs}, {text}" if c.needs else text
        text += f" (none with {' or '.join(c.unless)})" if c.unless else ""
        if c.unit_needs:  # a bound on what the whole unit carries
            text += f" (only while the unit has {' or '.join(c.unit_needs)}" + (
                "; then required)" if c.unit_min else ")")
        beside = [f"{i} only with {' and '.join(n)}" for i, n in c.item_needs.items()] + \
            [f"{i} only without {' or '.join(n)}" for i, n in c.item_unless.items()] + \
            [f"{i} only without a {' or '.join(n)} in the unit"
             for i, n in c.item_unit_unless.items()]
        text += f" ({'; '.join(beside)})" if beside else ""  # an item bound to another
        if c.unit_max is not None:  # a bound on how many models of the unit replace the default
            text += f" (at most {c.unit_max} model(s) of the unit take other than {c.default})"
        if c.max_from:  # a bound that changes with the unit's size
            grows = "; ".join(f"up to {v} from {n} models" for n, v in c.max_from.items())
            text += f" ({'none' if c.max == 0 else f'up to {c.max}'} in a smaller unit; {grows})"
        parts.append(text + (f" (default {c.default})" if c.default else ""))
    return f"{head}: {'; '.join(parts) or 'no wargear'}"


def grows_text(b: Any) -> str:
    """How a kind's, group's or items' maximum grows: '; up to 2 from 10 models', or from
    that many models of some kinds ('; up to 2 from 10 models of Agent / ...')."""
    of = f" of {' / '.join(b.max_from_kinds)}" if b.max_from_kinds else ""
    return "".join(f"; up to {v} from {n} models{of}" for n, v in b.max_from.items())


def group_text(g: Any) -> str:
    """A bound over several kinds: 'Together (0-2): Shock Trooper w/ Flamer / ...'."""
    count = f"{g.min}-{g.max}" if g.max is not None else f"{g.min}+"
    count += grows_text(g)
    return f"Together ({count}): {' / '.join(g.models)}"


def item_bound_text(b: Any) -> str:
    """A bound over items the unit carries together: 'The same for every model: Bolt cannon /
    Graviton blast cannon' or 'Together in the unit (up to 1): Hand flamer / Plasma pistol'."""
    if b.alike:
        return f"The same for every model taking one: {' / '.join(b.items)}"
    count = f"up to {b.max}" if b.max is not None else "any"
    count += grows_text(b)
    count += f"; while it has a {' or '.join(b.beside)}" if b.beside else ""
    if b.per_model:  # models carrying one or more of them, not the items
        return f"Models with one or more of these in the unit ({count}): {' / '.join(b.items)}"
    return f"Together in the unit ({count}): {' / '.join(b.items)}"


def adaptation_text(ada: Any) -> str:
    """The Boarding Actions adaptation in one line: 'loses Deep Strike; M 6"; not split'."""
    if ada is None:
        return ""
    parts = []
    if ada.loses:
        parts.append("loses " + ", ".join(ada.loses))
    if ada.M is not None:
        parts.append(f'M becomes {ada.M}"')
    if ada.no_split:
        parts.append("not split into Boarding Squads")
    if ada.split:
        parts.append("splits into " + " + ".join(map(str, ada.split)))
    if ada.note:
        parts.append(ada.note)
    return "; ".join(parts)


# --- the terminal: rich ---------------------------------------------------------------------

WARGEAR_NOTE = ("the data marks which weapons are options, not who may take them or how many "
                "(the option rules are not in bagm's data)")


def weapons_table(weapons: list[Any], title: str | None = None) -> Any:
    """Every weapon with all its characteristics and abilities (rich Table)."""
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("Weapon")
    kinds = {w.type for w in weapons}
    skill = "BS" if kinds == {"ranged"} else "WS" if kinds == {"melee"} else "BS/WS"
    for col in ("Range", "A", skill, "S", "AP", "D"):
        table.add_column(col, justify="right")
    table.add_column("Abilities")
    for w in weapons:
        r = weapon_row(w)
        table.add_row(r["name"] + (" †" if r["option"] else ""), r["Range"], r["A"], r["skill"],
                      r["S"], r["AP"], r["D"], r["abilities"])
    return table


def datasheet_text(view: DatasheetView) -> Any:
    """The whole datasheet for the terminal (a rich Group)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    ds = view.datasheet
    parts: list[Any] = [Text.assemble((ds.name, "bold"), f"  · {view.faction}")]
    base = "not in the data" if ds.base is None else (
        f"{ds.base_oval[0]:g} x {ds.base_oval[1]:g} mm oval" if ds.base_oval else f"{ds.base:g} mm")
    sizes = ", ".join(f"{n} model{'s' if n != 1 else ''}: {_pts(p)} pts" for n, p in view.sizes)
    parts.append(Text(f"Starting Strengths: {sizes}\nBase: {base}"))
    if ds.models:
        prof = Table(show_edge=False, pad_edge=False)
        prof.add_column("Model")
        for col in (*PROFILE_COLUMNS, "Inv", "Count"):
            prof.add_column(col, justify="right")
        for p in ds.models:
            r = profile_row(p)
            prof.add_row(r["name"], *(r[c] for c in PROFILE_COLUMNS), r["invuln"] or "-",
                         p.count or "")
        parts += [Text(""), prof]
    else:
        parts.append(Text("Profiles: none in the data pack"))
    ranged = [w for w in ds.weapons if w.type == "ranged"]
    melee = [w for w in ds.weapons if w.type == "melee"]
    for title, weapons in (("Ranged weapons", ranged), ("Melee weapons", melee)):
        if weapons:
            parts += [Text(""), weapons_table(weapons, title)]
    if not ds.weapons:
        parts.append(Text("Weapons: none in the data pack"))
    options = [w.name for w in ds.weapons if not w.default]
    if ds.wargear:
        lines = ["Wargear options (weapons marked †): each kind of model, how many, what it "
                 "carries, its choices:"]
        lines += [f"  {kind_text(k)}" for k in ds.wargear]
        lines += [f"  {group_text(g)}" for g in ds.wargear_groups]
        lines += [f"  {item_bound_text(b)}" for b in ds.wargear_item_bounds]
        if ds.wargear_unread:
            lines.append("  Bounds not read (check them by hand): "
                         + "; ".join(ds.wargear_unread))
    else:
        lines = [f"Wargear options: {', '.join(options) + ' (marked †)' if options else 'none'}"
                 "; " + WARGEAR_NOTE]
    lines.append("Abilities: " + (", ".join(ds.abilities) or "none in the data pack"))
    if ds.adaptation is not None:
        lines.append("Boarding Actions: " + adaptation_text(ds.adaptation))
    if ds.leader is not None:
        lines.append("Leader of: " + (", ".join(ds.leader.bodyguards) or "-"))
    lines.append("Keywords: " + ", ".join(ds.keywords))
    lines.append("Faction keywords: " + ", ".join(ds.faction_keywords))
    if view.detachments:
        dets = "; ".join(f"{n} (up to {m}, {'/'.join(map(str, s))} models)"
                         for n, m, s in view.detachments)
        lines.append(f"Boarding Actions Detachments: {dets}")
    else:
        lines.append("Boarding Actions Detachments: none of this faction's may take it")
    if ds.points_note:
        lines.append(f"Points: {ds.points_note}")
    parts += [Text(""), Text("\n".join(lines))]
    return Group(*parts)


def _pts(value: int | None) -> str:
    return "?" if value is None else str(value)
