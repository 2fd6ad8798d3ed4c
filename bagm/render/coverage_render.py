"""``bagm data coverage`` as a Rich table and as the README's Markdown table, both from the
command's JSON form (:meth:`bagm.engine.coverage.Coverage.to_dict`), so the three agree."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

COLUMNS = (("detachment_rules", "Detachment rules"), ("enhancements", "Enhancements"),
           ("leader_abilities", "Leader abilities"), ("ability_occurrences", "Ability occurrences"))


def cell(pair: list[int]) -> str:
    """'12/58 (21%)'; '0/0' when there is nothing to count."""
    modelled, total = pair
    if not total:
        return "0/0"
    return f"{modelled}/{total} ({100 * modelled // total}%)"


def _rows(data: dict[str, Any]) -> list[tuple[str, list[str]]]:
    rows = [(name, [cell(counts[k]) for k, _ in COLUMNS]) for name, counts in data["factions"].items()]
    rows.append(("Total", [cell(data["total"][k]) for k, _ in COLUMNS]))
    return rows


def coverage_table(data: dict[str, Any]) -> Table:
    table = Table(title=Text(f"Modelled by the engine (ability occurrences in {data['rosters']} rosters)"),
                  title_justify="left")
    table.add_column("Faction", overflow="fold")
    for _, label in COLUMNS:
        table.add_column(label, justify="right")
    rows = _rows(data)
    for i, (name, cells) in enumerate(rows):
        table.add_row(Text(name, style="bold" if i == len(rows) - 1 else ""), *cells,
                      end_section=i == len(rows) - 2)
    return table


def coverage_markdown(data: dict[str, Any]) -> str:
    """The README's coverage table (GitHub Markdown)."""
    lines = ["| Faction | " + " | ".join(label for _, label in COLUMNS) + " |",
             "|---|" + "---:|" * len(COLUMNS)]
    for name, cells in _rows(data):
        name = f"**{name}**" if name == "Total" else name.replace("|", "\\|")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def missing_lines(data: dict[str, Any]) -> list[Text]:
    """What is not modelled, per faction and kind: one line each, names with how often."""
    out = []
    for faction, kinds in data.get("not_modelled", {}).items():
        for key, label in COLUMNS:
            names = kinds.get(key)
            if names:
                items = ", ".join(f"{n} (x{c})" if c > 1 else n for n, c in names.items())
                out.append(Text.assemble((f"{faction} · {label}: ", "bold"), items))
    return out
