"""Rich renderers: roster cards, validation reports, squads, underdog, data browsing.

Renderers only lay out result objects; they decide no rule. Every text that comes from a roster,
a data pack or the user goes in as a ``Text`` (never a ``str``, which Rich would read as markup:
a unit named ``[/]`` must print as itself, on any console).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from bagm.roster.findings import Severity
from bagm.roster.report import ValidationReport

if TYPE_CHECKING:
    from rich.panel import Panel

    from bagm.roster.squads import SquadsResult
    from bagm.roster.underdog import UnderdogResult

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def roster_card(report: ValidationReport) -> Table:
    """Units, models, points, Warlord and Enhancements, with the total against the limit."""
    head = Text.assemble((report.title, "bold"), "\n", report.faction or "?", " · ",
                         report.detachment or "?", (f" · {report.edition} rules", "dim"))
    if report.battle_ready:
        head.append(" · Battle Ready", style="green")
    points = report.points
    left = report.limit - points
    total = Text.assemble(("Total ", "bold"), (f"{points} / {report.limit} pts",
                                               "red" if left < 0 else "green"),
                          (f"  ({left} left)" if left >= 0 else f"  ({-left} over)", "dim"))
    table = Table(title=head, title_justify="left", caption=total, caption_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column("Unit")
    table.add_column("Models", justify="right")
    table.add_column("Pts", justify="right")
    table.add_column("Warlord / Enhancement")
    for u in report.units:
        name = Text(u.display)
        if u.label and u.datasheet is not None:
            name.append(f" ({u.name})", style="dim")
        if u.datasheet is None:
            name.stylize("red")
        extra = Text()
        if u.warlord:
            extra.append("Warlord", style="bold")
        if u.enhancement:
            extra.append((" · " if extra else "") + u.enhancement, style="magenta")
            if u.weapon:
                extra.append(f" ({u.weapon})", style="magenta")
        table.add_row(str(u.index + 1), name, _num(u.models), _num(u.points), extra)
    return table


def _num(value: int | None) -> str:
    return "?" if value is None else str(value)


def findings_table(report: ValidationReport) -> Table | Text:
    if report.input_error is not None:
        e = report.input_error
        return Text(f"✗ {e}", style="bold red")  # Text: never markup
    if not report.findings:
        return Text("✓ valid Boarding Patrol", style="bold green")
    table = Table(show_header=True, show_edge=False, pad_edge=False)
    table.add_column("Line", justify="right", style="dim")
    table.add_column("Code")
    table.add_column("Severity")
    table.add_column("Finding")
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    for f in sorted(report.findings, key=lambda f: (order[f.severity], f.line or 0)):
        table.add_row(_num(f.line), Text(f.code), Text(f.severity.value, style=STYLE[f.severity]),
                      Text(f.message))
    return table


def print_reports(console: Console, reports: list[ValidationReport], cards: bool = True) -> None:
    for report in reports:
        console.print(Text(report.path, style="bold" if not cards else "dim"))
        if report.input_error is None and cards:
            console.print(roster_card(report))
        console.print(findings_table(report))
        console.print()
    if len(reports) > 1:
        console.print(summary_table(reports))


def summary_table(reports: Iterable[ValidationReport]) -> Table:
    """One row a roster: points, errors, warnings, valid or not (under the roster cards)."""
    table = Table(title="Summary", title_justify="left")
    table.add_column("Roster")
    table.add_column("Points", justify="right")
    table.add_column("Errors", justify="right")
    table.add_column("Warnings", justify="right")
    table.add_column("Result")
    for r in reports:
        errors = sum(f.severity is Severity.ERROR for f in r.findings) + (r.input_error is not None)
        warnings = sum(f.severity is Severity.WARNING for f in r.findings)
        table.add_row(Text(r.path), str(r.points), str(errors), str(warnings),
                      Text("valid", style="green") if r.valid else Text("invalid", style="red"))
    return table


def finding_lines(reports: Iterable[ValidationReport]) -> Iterable[Text]:
    """Linter lines, ``FILE:LINE: CODE severity: message``, errors first within a roster."""
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    for r in reports:
        e = r.input_error
        if e is not None:
            where = f"{r.path}:{e.line}" if e.line else r.path
            text = e.message + (f" ({e.hint})" if e.hint else "")
            yield Text.assemble(f"{where}: BA000 ", ("error", STYLE[Severity.ERROR]), f": {text}")
            continue
        for f in sorted(r.findings, key=lambda f: (order[f.severity], f.line or 0)):
            where = f"{r.path}:{f.line}" if f.line else r.path
            yield Text.assemble(f"{where}: {f.code} ", (f.severity.value, STYLE[f.severity]),
                                f": {f.message}")


def totals_table(reports: list[ValidationReport]) -> Table:
    """The linter summary: how many rosters are valid, invalid or unreadable, and the findings
    by severity."""
    unreadable = sum(r.input_error is not None for r in reports)
    valid = sum(r.valid for r in reports)
    counts = {s: sum(f.severity is s for r in reports for f in r.findings) for s in Severity}
    table = Table(title="Summary", title_justify="left")
    for name in ("Rosters", "Valid", "Invalid", "Unreadable", "Errors", "Warnings", "Notes"):
        table.add_column(name, justify="right")
    table.add_row(str(len(reports)), Text(str(valid), style="green" if valid else ""),
                  Text(str(len(reports) - valid - unreadable),
                       style="red" if len(reports) - valid - unreadable else ""),
                  Text(str(unreadable), style="red" if unreadable else ""),
                  str(counts[Severity.ERROR] + unreadable), str(counts[Severity.WARNING]),
                  str(counts[Severity.INFO]))
    return table


def print_findings(console: Console, reports: list[ValidationReport]) -> None:
    """``bagm validate`` of many rosters: the findings, one a line, then the totals."""
    lines = list(finding_lines(reports))
    if lines:
        console.print(Text("\n").join(lines), soft_wrap=True)
        console.print()
    console.print(totals_table(reports))


def squads_table(result: "SquadsResult") -> Table:
    table = Table(title=Text(f"Boarding Squads · {result.path}"), title_justify="left")
    table.add_column("Unit")
    table.add_column("Datasheet", style="dim")
    table.add_column("Models", justify="right")
    table.add_column("Pts", justify="right")
    for s in result.units:
        name = Text(s.name, style="cyan" if s.split_from else "")
        table.add_row(name, Text(s.unit), _num(s.models), _num(s.points))
    table.add_section()
    table.add_row(Text("Total", style="bold"), "", str(sum(s.models or 0 for s in result.units)),
                  str(result.points))
    return table


def underdog_panel(result: "UnderdogResult") -> "Panel":
    from rich.panel import Panel

    a, b = result.names
    lines = [Text(f"A  {a}: {result.points_a} pts"), Text(f"B  {b}: {result.points_b} pts"),
             Text(f"Difference: {result.difference} pts (the Underdog needs 30 or more)",
                  style="dim")]
    if result.underdog is None:
        lines.append(Text("No Underdog.", style="bold"))
    else:
        who = a if result.underdog == "A" else b
        lines.append(Text(f"Underdog: {result.underdog} ({who})", style="bold green"))
    if result.mission is not None:
        m = result.mission
        bonus = m["underdog"] if result.underdog else "not used (no Underdog)"
        lines.append(Text(f"Mission {m['number']} {m['name']}: Underdog Bonus: {bonus}"))
    return Panel(Group(*lines), title="Underdog", title_align="left", expand=False)


def units_table(faction: Any, detachment: Any = None) -> Table:
    title = faction.name + (f" · {detachment.name}" if detachment else "")
    table = Table(title=Text(title), title_justify="left")
    table.add_column("Unit", overflow="fold")
    table.add_column("Points", overflow="fold")
    table.add_column("Keywords", style="dim", overflow="fold", ratio=1)
    if detachment is not None:
        table.add_column("Max", justify="right")
        table.add_column("Sizes")
        allowed = {a.unit.casefold(): a for a in detachment.units}
    for ds in faction.pack.units:
        pts = ", ".join(f"{n}: {p}" for n, p in sorted(ds.points.items()))
        row: list[Text | str] = [Text(ds.name), Text(pts), Text(", ".join(ds.keywords))]
        if detachment is not None:
            a = allowed.get(ds.name.casefold())
            if a is None:
                continue
            sizes = a.sizes or ds.sizes or sorted(ds.points)
            row += [str(a.max), Text("/".join(map(str, sizes)))]
        table.add_row(*row)
    return table


def detachments_table(faction: Any) -> Table:
    table = Table(title=Text(f"{faction.name} · Boarding Actions Detachments"), title_justify="left")
    table.add_column("Detachment", overflow="fold")
    table.add_column("Rule", overflow="fold")
    table.add_column("Enhancements", overflow="fold")
    table.add_column("Units", justify="right")
    table.add_column("Mustering rules", overflow="fold", ratio=1)
    for d in faction.pack.detachments:
        rules = "\n".join(describe_rule(r) for r in d.rules)
        table.add_row(Text(d.name), Text(d.rule or ""), Text("\n".join(e.name for e in d.enhancements)),
                      str(len(d.units)), Text(rules))
    return table


def describe_rule(rule: Any) -> str:
    """A mustering rule in one line, as the Detachment tables and JSON show it."""
    kind = rule.rule
    if kind == "limit":
        return f"max {rule.max} {rule.select.describe()}" + (" (distinct)" if rule.distinct else "")
    if kind == "ratio":
        return f"{rule.count.describe()} ≤ {rule.factor}× {rule.per.describe()}"
    if kind == "requires":
        return f"{rule.select.describe()} needs {rule.needs.describe()}"
    if kind == "excludes":
        return f"{rule.select.describe()} excludes other {rule.others.describe()}"
    if kind == "exclusive":
        return "one of " + " / ".join(rule.units)
    return "no mixing " + " / ".join(rule.keywords)


def suggestions_table(title: str, left: int, found: list[Any],
                      numbers: list[int] | None = None) -> Table:
    """What still fits a roster (``bagm suggest``); ``numbers``: each line's own number
    (``bagm build`` keeps a line's number while the list shrinks), else 1, 2, 3..."""
    table = Table(title=Text(f"Still fits {title} ({left} points left)"), title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column("Unit")
    table.add_column("Models", justify="right")
    table.add_column("Pts", justify="right")
    table.add_column("Left after", justify="right")
    for i, x in zip(numbers or range(1, len(found) + 1), found):
        table.add_row(str(i), Text(x.unit), str(x.models), str(x.points), str(x.left))
    return table
