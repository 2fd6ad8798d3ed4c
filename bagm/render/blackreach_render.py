"""Rich rendering of Heroes of Black Reach odds: the outcomes, further tables and the notes.

Every string goes into ``Text`` objects, so a counter name is never read as Rich markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bagm.blackreach.odds import Odds


def pct(p: Any) -> str:
    v = float(p) * 100
    return f"{v:.1f}%" if v >= 0.1 or v == 0 else f"{v:.2g}%"


def render(odds: Odds) -> Any:
    """A rich layout: the outcomes with chance, exact fraction and effect; tables; notes."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    title = Text.assemble((odds.procedure, "bold"), (f"  ({odds.section})", "dim"))
    main = Table(show_edge=False)
    main.add_column("outcome")
    main.add_column("chance", justify="right")
    main.add_column("exact", justify="right", style="dim")
    main.add_column("what it does")
    for name, p in odds.outcomes.items():
        main.add_row(Text(name), pct(p), str(p), Text(odds.effects.get(name, "")))
    parts: list[Any] = [title, main]
    for name, table in odds.tables.items():
        t = Table(title=Text(name), title_justify="left", show_edge=False)
        t.add_column("value")
        t.add_column("chance", justify="right")
        t.add_column("exact", justify="right", style="dim")
        for k, p in table.items():
            t.add_row(Text(str(k)), pct(p), str(p))
        parts.append(t)
    for note in odds.notes:
        parts.append(Text(f"note: {note}", style="dim"))
    return Group(*parts)
