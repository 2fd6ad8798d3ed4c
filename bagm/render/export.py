"""Exporting a roster: text for chats and the app, markdown for forums, JSON, and a printable
roster card as HTML and SVG.

Every exporter renders one :class:`RosterSheet` (the validation report, the Boarding Squads
after the split, and the Underdog when an opponent is given) and decides no rule. Output is
deterministic byte for byte: no dates, no random ids, a fixed console width and colour system.

The text layout is the Warhammer 40,000 app's (the list name with its points; faction,
battle size and Detachment lines; ``CHARACTERS`` / ``BATTLELINE`` / ``OTHER DATASHEETS``
sections; ``Unit (N Points)`` with ``•`` bullets for models, the Warlord and the Enhancement),
so that ``bagm import`` and other tools read it back. What the app has no line for is written
as bullets and header lines bagm reads back: ``• Label: ...``, ``• Enhancement: Trademark
Weapon (Storm bolter)``, ``Rules: Boarding Actions 2023``, ``Battle Ready``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bagm.roster.points import legal_sizes
from bagm.roster.report import ArmyUnit, ValidationReport
from bagm.roster.squads import SquadsResult
from bagm.roster.underdog import UNDERDOG_GAP, UnderdogResult

__all__ = ["EXPORTERS", "RosterSheet", "to_html", "to_json", "to_markdown", "to_svg", "to_text"]

CARD_WIDTH = 100
SECTIONS = (("CHARACTERS", "CHARACTER"), ("BATTLELINE", "BATTLELINE"),
            ("DEDICATED TRANSPORTS", "DEDICATED TRANSPORT"), ("OTHER DATASHEETS", None))


@dataclass(frozen=True)
class RosterSheet:
    """Everything an export shows: the checked roster, its Boarding Squads, the Underdog."""

    report: ValidationReport
    squads: SquadsResult
    underdog: UnderdogResult | None = None
    notes: tuple[str, ...] = ()  # what the importer said of a list read with --import

    @classmethod
    def of(cls, path: Any, catalog: Any, opponent: Any = None,
           importing: bool = False) -> RosterSheet:
        """Check ``path`` (and ``opponent`` for the Underdog line) and gather what to show;
        ``importing``: read another tool's army list through the importer."""
        from bagm.roster.foreign import load_or_import, notes_of, roster_of
        from bagm.roster.squads import form_boarding_squads
        from bagm.roster.underdog import decide
        from bagm.roster.validate import validate

        loaded = load_or_import(path, catalog, importing)
        notes = [f"{path}: {n}" for n in notes_of(loaded)]
        report = validate(roster_of(loaded), catalog)
        underdog = None
        if opponent is not None:
            theirs = load_or_import(opponent, catalog, importing)
            notes += [f"{opponent}: {n}" for n in notes_of(theirs)]
            other = validate(roster_of(theirs), catalog)
            underdog = decide(report.points, other.points, (report.title, other.title))
        return cls(report, form_boarding_squads(report.path, report.units), underdog,
                   tuple(notes))


# --- shared pieces --------------------------------------------------------------------------


def _section(u: ArmyUnit) -> str:
    for title, keyword in SECTIONS:
        if keyword is None or keyword in u.keywords:
            return title
    return SECTIONS[-1][0]  # pragma: no cover - the last section takes everything


def sections(report: ValidationReport) -> list[tuple[str, list[ArmyUnit]]]:
    """Units grouped as the app groups them, each group in roster order."""
    out = []
    for title, _ in SECTIONS:
        units = [u for u in report.units if _section(u) == title]
        if units:
            out.append((title, units))
    return out


def _pts(value: int | None) -> str:
    return "?" if value is None else str(value)


def _enhancement(u: ArmyUnit) -> str:
    return f"{u.enhancement} ({u.weapon})" if u.weapon else (u.enhancement or "")


def _wargear(u: ArmyUnit) -> str:
    """The wargear a roster names, as written ("1x Meltagun; Sergeant: 1x Power fist")."""
    if not u.wargear:
        return ""
    parts = []
    for key, value in u.wargear.items():
        if isinstance(value, dict):
            parts.append(f"{key}: " + ", ".join(f"{n}x {k}" for k, n in value.items()))
        else:
            parts.append(f"{value}x {key}")
    return "; ".join(parts)


def model_lines(u: ArmyUnit) -> list[tuple[int, str]]:
    """The models of a unit as ``(count, name)`` lines: by model profile when the data's
    profiles name the models and their counts add up (1 Justicar, 9 Grey Knights), else one
    ``(N, "models")`` line. Single-model units have none, as in the app."""
    if u.models is None or u.models < 1:
        return []
    fallback = [(u.models, "models")]
    if u.models == 1:  # said only when the unit could have had more
        ds, a = u.datasheet, u.allowance
        legal = legal_sizes(ds.points, ds.sizes, a.sizes if a else None) if ds else [1]
        return [] if legal == [1] else fallback
    profiles = list(u.datasheet.models) if u.datasheet is not None else []
    if not profiles or any(p.name.casefold() == u.name.casefold() or not p.count
                           for p in profiles):
        return fallback
    fixed: list[int | None] = []
    ranges: list[tuple[int, int]] = []
    for p in profiles:
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", p.count.strip())
        if not m:
            return fallback
        if m.group(2) is None:
            fixed.append(int(m.group(1)))
        else:
            fixed.append(None)
            ranges.append((int(m.group(1)), int(m.group(2))))
    rest = u.models - sum(n for n in fixed if n is not None)
    if len(ranges) > 1 or (not ranges and rest != 0) or \
            (ranges and not ranges[0][0] <= rest <= ranges[0][1]):
        return fallback
    counts = [n if n is not None else rest for n in fixed]
    return [(n, p.name) for n, p in zip(counts, profiles) if n > 0]


def underdog_line(result: UnderdogResult) -> str:
    a, b = result.names
    pa, pb = result.points_a, result.points_b
    if result.underdog is None:
        return (f"Underdog: none ({a} {pa} pts, {b} {pb} pts: {result.difference} apart; "
                f"the Underdog needs a gap of {UNDERDOG_GAP} or more)")
    who, them = (a, b) if result.underdog == "A" else (b, a)
    text = f"Underdog: {who} ({pa if result.underdog == 'A' else pb} pts, " \
           f"{result.difference} below {them})"
    if result.mission is not None:
        m = result.mission
        text += f"; Mission {m.get('number')} {m.get('name')}: {m.get('underdog')}"
    return text


# --- text -----------------------------------------------------------------------------------


def _line(text: str) -> str:
    """User text on one line (a label or name never breaks the layout)."""
    return " ".join(text.split())


def to_text(sheet: RosterSheet) -> str:
    """The app's plain-text layout, for chats and for other tools."""
    r = sheet.report
    lines = [f"{_line(r.title)} ({r.points} Points)", "", _line(r.faction or "?"),
             _line(r.detachment or "?"), f"Boarding Patrol ({r.limit} Points)"]
    if r.edition != 2024:
        lines.append(f"Rules: Boarding Actions {r.edition}")
    if r.battle_ready:
        lines.append("Battle Ready")
    for title, units in sections(r):
        lines += ["", title]
        for u in units:
            lines += ["", f"{_line(u.name)} ({_pts(u.points)} Points)"]
            if u.label:
                lines.append(f"  • Label: {_line(u.label)}")
            if u.warlord:
                lines.append("  • Warlord")
            if u.wargear and u.loadouts:  # models by loadout, wargear below each (the app's)
                for lo in u.loadouts:
                    lines.append(f"  • {lo.count}x {_line(lo.profile or u.name)}")
                    lines += [f"     ◦ {lo.count}x {_line(item)}" for item in lo.items]
            else:
                lines += [f"  • {n} model{'s' if n != 1 else ''}" if name == "models"
                          else f"  • {n}x {name}" for n, name in model_lines(u)]
            if u.enhancement:
                lines.append(f"  • Enhancement: {_line(_enhancement(u))}")
    lines += ["", f"Total: {r.points} / {r.limit} points"]
    if sheet.underdog is not None:
        lines.append(underdog_line(sheet.underdog))
    return "\n".join(lines) + "\n"


# --- markdown -------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def md(text: str) -> str:
    """Text safe inside a markdown table cell or heading."""
    return _MD_SPECIAL.sub(r"\\\1", text.replace("\n", " "))


def to_markdown(sheet: RosterSheet) -> str:
    """A forum post: heading, the roster table, the total, squads, Underdog, findings."""
    r = sheet.report
    head = f"{md(r.faction or '?')} · {md(r.detachment or '?')} · {r.edition} rules"
    if r.battle_ready:
        head += " · Battle Ready"
    lines = [f"## {md(r.title)}", "", f"**{head}**", "",
             "| Unit | Models | Points | Warlord / Enhancement |", "|---|--:|--:|---|"]
    for title, units in sections(r):
        lines.append(f"| **{title.title()}** | | | |")
        for u in units:
            name = md(u.display) + (f" ({md(u.name)})" if u.label else "")
            extra = ", ".join(x for x in ("Warlord" if u.warlord else "",
                                          md(_enhancement(u)),
                                          md("Wargear: " + _wargear(u)) if u.wargear else "")
                             if x)
            lines.append(f"| {name} | {_pts(u.models)} | {_pts(u.points)} | {extra} |")
    left = r.limit - r.points
    state = f"{left} left" if left >= 0 else f"{-left} over"
    lines += ["", f"**Total: {r.points} / {r.limit} points** ({state})"]
    squads = sheet.squads
    if any(s.split_from for s in squads.units):
        lines += ["", "### Boarding Squads", "", "| Unit | Datasheet | Models | Points |",
                  "|---|---|--:|--:|"]
        lines += [f"| {md(s.name)} | {md(s.unit)} | {_pts(s.models)} | {_pts(s.points)} |"
                  for s in squads.units]
    if sheet.underdog is not None:
        lines += ["", md(underdog_line(sheet.underdog))]
    lines += ["", _verdict_md(r)]
    return "\n".join(lines) + "\n"


def _verdict_md(r: ValidationReport) -> str:
    if r.valid:
        return "✓ valid Boarding Patrol"
    out = ["✗ not a valid Boarding Patrol:", ""]
    out += [f"- {f.code}: {md(f.message)}" for f in r.findings]
    return "\n".join(out)


# --- JSON -----------------------------------------------------------------------------------


def to_json(sheet: RosterSheet) -> str:
    """Stable JSON: the roster (readable by ``bagm import``), its squads, Underdog, issues."""
    r = sheet.report
    data: dict[str, Any] = {
        "format": "bagm-roster", "version": 1, "name": r.title, "faction": r.faction,
        "detachment": r.detachment, "edition": r.edition, "battle_ready": r.battle_ready,
        "points": r.points, "limit": r.limit, "valid": r.valid,
        "units": [{"unit": u.name, "label": u.label, "models": u.models, "points": u.points,
                   "warlord": u.warlord, "enhancement": u.enhancement, "weapon": u.weapon,
                   **({"wargear": u.wargear} if u.wargear else {})} for u in r.units],
        "squads": [s.as_dict() for s in sheet.squads.units],
        "issues": r.as_dict()["issues"],
    }
    if sheet.underdog is not None:
        data["underdog"] = {**sheet.underdog.as_dict(),
                            "names": {"A": sheet.underdog.names[0], "B": sheet.underdog.names[1]}}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# --- the printable card: HTML and SVG -------------------------------------------------------
# Both are rendered by Jinja2 from templates under bagm/render/templates/ with autoescape on:
# every name, label and message a user wrote is escaped by the template engine, never by hand.


def card(sheet: RosterSheet) -> dict[str, Any]:
    """What the roster card shows, as plain values (the templates only lay them out)."""
    from bagm.render.datasheet import adaptation_text, profile_row, weapon_row

    r = sheet.report
    units: list[dict[str, Any]] = []
    first: dict[str, int] = {}  # a datasheet's profiles are printed once, at its first unit
    for u in r.units:
        same_as = first.get(u.name) if u.datasheet is not None else None
        first.setdefault(u.name, u.index + 1)
        ds = u.datasheet if same_as is None else None
        weapons = [weapon_row(w) for w in ds.weapons] if ds is not None else []
        lines = [f"{n} model{'s' if n != 1 else ''}" if name == "models" else f"{n}x {name}"
                 for n, name in model_lines(u)]
        facts = [(tag, text) for tag, text, shown in (
            ("", u.name, u.label or u.datasheet is None), ("", ", ".join(lines), lines),
            ("Warlord", "", u.warlord), ("Enhancement", _enhancement(u), u.enhancement),
            ("Wargear", _wargear(u), u.wargear)) if shown]
        units.append({
            "number": u.index + 1, "name": u.display,
            "known": u.datasheet is not None, "same_as": same_as, "points": _pts(u.points),
            "facts": facts, "warlord": u.warlord, "enhancement": _enhancement(u) or None,
            "profiles": [profile_row(p) for p in ds.models] if ds is not None else [],
            "ranged": [w for w in weapons if w["type"] == "ranged"],
            "melee": [w for w in weapons if w["type"] == "melee"],
            "abilities": list(ds.abilities) if ds is not None else [],
            "adaptation": adaptation_text(ds.adaptation) if ds is not None else "",
            "keywords": ", ".join(ds.keywords) if ds is not None else "",
        })
    left = r.limit - r.points
    split = any(s.split_from for s in sheet.squads.units)
    return {
        "title": r.title, "faction": r.faction or "?", "detachment": r.detachment or "?",
        "edition": r.edition, "battle_ready": r.battle_ready, "points": r.points,
        "limit": r.limit, "left": f"{left} left" if left >= 0 else f"{-left} over",
        "units": units, "options": any(w["option"] for u in units
                                       for w in u["ranged"] + u["melee"]),
        "squads": [{"name": s.name, "unit": s.unit, "models": _pts(s.models),
                    "points": _pts(s.points)} for s in sheet.squads.units] if split else [],
        "underdog": underdog_line(sheet.underdog) if sheet.underdog is not None else None,
        "valid": r.valid,
        "findings": [{"code": f.code, "severity": f.severity.value, "line": f.line,
                      "message": f.message} for f in r.findings],
        "input_error": str(r.input_error) if r.input_error is not None else None,
    }


def _templates() -> Any:
    """The Jinja2 environment every bagm page shares: autoescape on for every template."""
    from bagm.render.templating import environment

    return environment()


def to_html(sheet: RosterSheet) -> str:
    """The roster card as one self-contained HTML page (inline CSS, no scripts, no network),
    with a print stylesheet that fits A4 and Letter in black and white."""
    return _templates().get_template("roster_card.html.j2").render(card=card(sheet))


def to_svg(sheet: RosterSheet) -> str:
    """The same roster card drawn as an SVG image (laid out here, drawn by a template)."""
    from bagm.render.card_svg import layout

    return _templates().get_template("roster_card.svg.j2").render(svg=layout(card(sheet)))


EXPORTERS: dict[str, Callable[[RosterSheet], str]] = {
    "text": to_text, "markdown": to_markdown, "json": to_json, "html": to_html, "svg": to_svg,
}
