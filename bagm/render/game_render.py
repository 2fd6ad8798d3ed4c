"""Rich rendering of game records and simulation results (decides no rule)."""

from __future__ import annotations

import math
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text


def game_summary(rec: Any, verbose_notes: bool = False) -> Group:
    """VP by round, units destroyed, the winner, and what the engine does not model: one line
    counting them, or (``verbose_notes``) the full lists."""
    rules = f", Boarding Actions {rec.edition} rules" if getattr(rec, "edition", "2024") != "2024" else ""
    t = Table(title=Text(f"Mission {rec.mission}: {rec.name} (seed {rec.seed}{rules})"), title_justify="left")
    t.add_column("Player")
    start = any(rec.vp_start.values())  # a mission's starting VP (Pull Their Teeth)
    if start:
        t.add_column("Start", justify="right")
    for r in range(1, 6):
        t.add_column(f"R{r}", justify="right")
    t.add_column("Total", justify="right", style="bold")
    t.add_column("CP left", justify="right")
    for p in ("A", "B"):
        # each round: the VP scored in it, and (in brackets) any VP taken away in it
        cells = [str(v) + (f" (-{x})" if x else "") for v, x in zip(rec.vp_rounds[p], rec.vp_taken[p])]
        t.add_row(Text(f"{p}: {rec.armies[p]}"), *([str(rec.vp_start[p])] if start else []), *cells,
                  str(rec.vp[p]), str(rec.cp[p]))
    d = Table(title="Units destroyed", title_justify="left", show_header=True)
    d.add_column("Player")
    d.add_column("Units")
    for p in ("A", "B"):
        d.add_row(p, Text(", ".join(rec.destroyed[p]) or "-"))
    win = f"Winner: player {rec.winner}" if rec.winner else "The battle is a draw"
    parts: list[Any] = [t, d, Text(win, style="bold green"),
                        Text(f"log sha256 {rec.log_sha256}  ({len(rec.lines)} events)", style="dim")]
    if verbose_notes:
        parts.append(Panel(Text("\n".join(f"- {n}" for n in rec.not_modelled) or "-"),
                           title="Not implemented (rules of these armies the engine ignores)",
                           title_align="left"))
        parts.append(Panel(Text("\n".join(f"- {n}" for n in rec.simplifications)),
                           title="Simplifications", title_align="left"))
    else:
        parts.append(Text(notes_line(len(rec.not_modelled), len(rec.simplifications)), style="dim"))
    return Group(*parts)


def notes_line(not_modelled: int, simplifications: int) -> str:
    """The one line a game's result gives to what the engine leaves out."""
    rules = "1 rule" if not_modelled == 1 else f"{not_modelled} rules"
    simp = "1 simplification" if simplifications == 1 else f"{simplifications} simplifications"
    return f"{rules} of these armies not modelled, {simp} of the core rules; --notes lists them."


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def simulation_summary(sim: dict[str, Any]) -> Group:
    rules = f", Boarding Actions {sim['edition']} rules" if "edition" in sim else ""
    t = Table(title=f"{sim['games']} games of mission {sim['mission']} ({sim['bots']['A']} vs {sim['bots']['B']}"
                    f"{rules})",
              title_justify="left")
    for c in ("Result", "Games", "Rate", "95% CI", "Mean VP"):
        t.add_column(c, justify="left" if c == "Result" else "right")
    for key, label in (("A", f"A wins: {sim['armies']['A']}"), ("B", f"B wins: {sim['armies']['B']}"),
                       ("draw", "Draws")):
        r = sim["results"][key]
        mean = f"{sim['mean_vp'][key]:.1f}" if key in sim["mean_vp"] else ""
        t.add_row(Text(label), str(r["count"]), f"{r['rate']:.1%}", f"{r['ci'][0]:.1%} - {r['ci'][1]:.1%}", mean)
    h = Table(title="VP histogram (games per 10VP band)", title_justify="left")
    h.add_column("VP")
    h.add_column("A", justify="right")
    h.add_column("B", justify="right")
    h.add_column("")
    top = max([1] + [c for p in ("A", "B") for c in sim["histogram"][p]])
    for i in range(len(sim["histogram"]["A"])):
        a, b = sim["histogram"]["A"][i], sim["histogram"]["B"][i]
        bar = Text.assemble(("#" * round(20 * a / top), "cyan"), ("#" * round(20 * b / top), "magenta"))
        h.add_row(f"{i * 10}-{i * 10 + 9}" if i < 10 else "100", str(a), str(b), bar)
    return Group(t, h, Text(f"{sim['seconds']:.1f} s, {sim['games_per_second']:.1f} games/s on "
                            f"{sim['jobs']} process(es)", style="dim"))
