"""Rich rendering of exact odds (``bagm odds``): the steps' chances and the histograms."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bagm.engine.attack.odds import Distribution


def _pct(p: Any) -> str:
    v = float(p) * 100
    return f"{v:.1f}%" if v >= 0.1 or v == 0 else f"{v:.2g}%"


def render(result: "Distribution", extra_notes: list[str]) -> Any:
    """A rich layout: the profile, the chance of each step, expectations, two histograms."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from bagm.engine.attack.rules import Outcome

    p, t, st = result.profile, result.target, result.steps
    w = p.weapon
    skill = "auto" if w.abilities.torrent else f"{'WS' if w.melee else 'BS'} {w.skill}+"
    abil = ", ".join(w.abilities.names())
    head = Text.assemble(
        (w.name, "bold"), f"  x{p.models} model(s): A {w.attacks}  {skill}  S {w.strength}  "
        f"AP {w.ap}  D {w.damage}", (f"  [{abil}]" if abil else "", "cyan"), "\n",
        (t.name, "bold"), f"  {t.models} model(s): T {t.toughness}  Sv {t.save}+  W {t.wounds}"
        + (f"  {t.invuln}++" if t.invuln else "") + (f"  FNP {t.fnp}+" if t.fnp else ""))

    steps = Table(title="Each step", title_justify="left", show_edge=False)
    steps.add_column("step")
    steps.add_column("chance", justify="right")
    steps.add_column("detail", style="dim")
    steps.add_row("attacks", f"{float(result.expected_attacks):.2f}", "expected number")
    if w.abilities.torrent:
        steps.add_row("hit", "100%", "Torrent: automatic")
    else:
        steps.add_row("hit", _pct(st.hit[Outcome.success] + st.hit[Outcome.critical]),
                      f"Critical Hit {_pct(st.hit[Outcome.critical])}")
    steps.add_row("wound", _pct(st.wound[Outcome.success] + st.wound[Outcome.critical]),
                  f"{st.wound_needed}+ needed; Critical Wound on {st.critical_wound_on}+ "
                  f"({_pct(st.wound[Outcome.critical])})")
    steps.add_row("save fails", _pct(st.unsaved), str(st.save))
    steps.add_row("gets through", _pct(st.through), "per hit that rolls to wound")
    if t.fnp:
        steps.add_row("Feel No Pain", _pct(st.fnp_ignores), f"{t.fnp}+ per wound")

    summary = Text.assemble(
        ("expected damage ", "bold"), f"{float(result.expected_damage):.3f}",
        (f"  (through saves and Feel No Pain, before the {t.wounds}-wound cap)", "dim"), "\n",
        ("expected models destroyed ", "bold"), f"{float(result.expected_models_destroyed):.3f}",
        f" of {t.models}", "\n",
        ("expected wounds lost ", "bold"), f"{float(result.expected_wounds_lost):.3f}")
    parts: list[Any] = [head, steps, summary,
                        _histogram("models destroyed", result.models_destroyed, tail=False),
                        _histogram("damage", result.damage, tail=True)]
    if w.abilities.hazardous:
        fails = result.hazardous_failed
        risk = 1 - fails.get(0, 0)
        parts.append(Text(f"Hazardous: {_pct(risk)} chance of at least one failed test "
                          f"(3 mortal wounds each to the attacking unit)", style="yellow"))
    all_notes = extra_notes + list(result.notes)
    if all_notes:
        parts.append(Text("\n".join(f"note: {n}" for n in all_notes), style="dim"))
    return Group(*parts)


def _histogram(title: str, dist: dict[int, Any], tail: bool, width: int = 30) -> Any:
    """Value, chance, chance of at least that value, and a bar; a long tail folds into one
    row."""
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_edge=False)
    table.add_column(title.split()[0], justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at least", justify="right")
    table.add_column("", no_wrap=True)
    top = max(dist.values())
    values = sorted(dist)
    remaining = 1.0
    for i, v in enumerate(values):
        chance = float(dist[v])
        if tail and remaining < 0.001 and i < len(values) - 1:
            table.add_row(f"{v}+", _pct(remaining), _pct(remaining), "")
            break
        table.add_row(str(v), _pct(chance), _pct(remaining), "█" * round(width * chance / float(top)))
        remaining -= chance
    return table
