"""Rich rendering of Skirmish results: odds, scenarios, lost values, findings, rosters and
campaigns. Renderers decide no rule; every user text is printed as text, never as markup."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bagm.skirmish.data import SkirmishData
    from bagm.skirmish.odds import Odds
    from bagm.skirmish.scenario import Scenario, ScenarioRoll


def pct(p: Fraction) -> str:
    v = float(p) * 100
    return f"{v:.1f}%" if v >= 0.1 or v == 0 else f"{v:.2g}%"


def frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def odds_view(o: Odds, attacks: str | None = None, strength: str | None = None) -> Any:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from bagm.skirmish.tables import Damage

    a, t = o.attack, o.target
    skill = (f"WS {a.ws} v WS {t.ws}" if a.close_combat and a.hit_on is None
             else f"BS {a.bs}" if a.hit_on is None else f"hits on {a.hit_on}+")
    head = Text(f"{attacks or a.attacks} {'attack' if a.close_combat else 'shot'}(s), {skill}, "
                f"S {strength or a.strength}"
                f", AP {a.ap if a.ap is not None else '-'}  against  T {t.toughness}, "
                f"Sv {str(t.save) + '+' if t.save else '-'}"
                + (f", {t.invulnerable}+ invulnerable" if t.invulnerable else "")
                + (", in cover" if t.cover else "") + f", W {t.wounds}")
    steps = Table(title="Each step", title_justify="left", show_edge=False)
    for col in ("step", "needs", "chance"):
        steps.add_column(col, justify="left" if col == "step" else "right")
    steps.add_row("hit", "auto" if o.hit_needed is None else f"{o.hit_needed}+",
                  f"{frac(o.hit)}  {pct(o.hit)}")
    steps.add_row("wound", "N" if not o.wound_needed and o.wound == 0 else
                  f"{o.wound_needed}+" if o.wound_needed else "varies",
                  f"{frac(o.wound)}  {pct(o.wound)}")
    steps.add_row(f"save ({o.save_kind})", f"{o.save}+" if o.save else "none",
                  f"fails {frac(o.unsaved)}  {pct(o.unsaved)}")
    res = Table(title="The model ends", title_justify="left", show_edge=False)
    res.add_column("result")
    res.add_column("exact", justify="right")
    res.add_column("%", justify="right")
    for d in Damage:
        p = o.result.get(d, Fraction(0))
        res.add_row(d.label, frac(p), pct(p))
    parts: list[Any] = [head, steps, res]
    if t.wounds > 1:
        w = Table(title="Wounds left", title_justify="left", show_edge=False)
        w.add_column("wounds")
        w.add_column("exact", justify="right")
        w.add_column("%", justify="right")
        for k, p in sorted(o.wounds_left.items()):
            w.add_row(str(k), frac(p), pct(p))
        parts.append(w)
    for n in o.notes:
        parts.append(Text(n, style="dim"))
    return Group(*parts)


def scenario_view(s: Scenario, roll: ScenarioRoll | None = None, note: str = "") -> Any:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list[Any] = []
    if roll is not None:
        shown = "; re-rolled: ".join(f"{a}+{b}={a + b}" for a, b in roll.rolls)
        parts.append(Text(f"2D6: {shown}"))
    tab = Table(title=s.name, title_justify="left", show_header=False, show_edge=False)
    tab.add_column(style="bold")
    tab.add_column()
    tab.add_row("special rules", Text(", ".join(s.special_rules) or "none"))
    tab.add_row("deployment", Text(s.deployment))
    tab.add_row("first turn", Text(s.first_turn))
    tab.add_row("ending", Text(s.ending))
    if s.bonus:
        tab.add_row("bonus points", Text("\n".join(s.bonus)))
    parts.append(tab)
    if note:
        parts.append(Text(note, style="dim"))
    return Group(*parts)


def lost_view(data: SkirmishData) -> Any:
    from rich.table import Table
    from rich.text import Text

    tab = Table(title="What the text lost", title_justify="left", show_edge=False)
    tab.add_column("key")
    tab.add_column("section")
    tab.add_column("lost")
    tab.add_column("supplied by")
    for lost in data.all_lost():
        s = data.supplied.get(lost.path)
        by = "-" if s is None else f"{s.file}:{s.line}" + (" (EXAMPLE)" if s.example else "")
        tab.add_row(Text(".".join(map(str, lost.path))), Text(lost.section or ""),
                    Text(lost.what), Text(by))
    return tab


def report_view(report: Any) -> Any:
    """A validation report: the verdict, points and models, then each finding with its fix."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if report.input_error is not None:
        return Text(f"{report.path}: unreadable: {report.input_error}", style="red")
    verdict = ("valid", "green") if report.valid else ("NOT valid", "red")
    points = "?" if report.points is None else str(report.points)
    models = "?" if report.models is None else f"{float(report.models):g}"
    head = Text.assemble((f"{report.path}", "bold"), f"  {report.faction}  {points} points  "
                         f"{models} models  ", verdict)
    parts: list[Any] = [head]
    if report.examples:
        parts.append(Text("uses EXAMPLE values (not the rules text's) from " +
                          ", ".join(report.examples), style="yellow"))
    if report.findings:
        tab = Table(show_edge=False)
        for col in ("code", "line", "finding", "fix"):
            tab.add_column(col)
        for f in report.findings:
            style = {"error": "red", "warning": "yellow"}.get(f.severity, "dim")
            tab.add_row(Text(f.code, style=style), str(f.line or ""), Text(f.message),
                        Text(f.fix or ""))
        parts.append(tab)
    return Group(*parts)


def roster_dict(r: Any) -> dict[str, Any]:
    def model(m: Any) -> dict[str, Any]:
        return {"name": m.name, "type": m.type, "weapons": m.weapons, "wargear": m.wargear,
                "grenades": m.grenades, "master_crafted": m.master_crafted, "skills": m.skills,
                "advances": m.advances, "psychic_powers": m.psychic_powers}

    return {"name": r.name, "leader": model(r.leader) if r.leader else None,
            "packs": [{"name": p.name, "type": p.type, "models": p.models, "founded": p.founded,
                       "heavy": p.heavy, "assault": p.assault, "wargear": p.wargear,
                       "skills": p.skills, "advances": p.advances} for p in r.packs],
            "upgraded": [model(m) for m in r.upgraded],
            "swarms": [{"type": s.type, "bases": s.bases} for s in r.swarms],
            "state": {"battles": r.state.battles, "pool": r.state.pool,
                      "injuries": r.state.injuries, "miss_games": r.state.miss_games,
                      "disbanded": r.state.disbanded}}


def roster_card(r: Any, report: Any) -> Any:
    """The unit as a table: who, what they carry, skills and advances, campaign state."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    tab = Table(title=f"{r.name} ({report.faction})", title_justify="left", show_edge=False)
    for col in ("model / Pack", "type", "models", "equipment", "skills, advances"):
        tab.add_column(col)

    def adv(a: dict[str, int]) -> str:
        return " ".join(f"{k}+{v}" for k, v in a.items())

    for m in r.characters():
        kit = ", ".join(m.weapons + m.wargear + m.grenades)
        if m.master_crafted:
            kit += f" (crafted: {m.master_crafted})"
        tab.add_row(Text(m.name), Text(m.type or "upgraded"), "1", Text(kit),
                    Text(", ".join(m.skills + m.psychic_powers) + (" " + adv(m.advances) if m.advances else "")))
    for p in r.packs:
        tab.add_row(Text(p.name), Text(p.type), str(p.models), Text(", ".join(p.heavy + p.assault + p.wargear)),
                    Text(", ".join(p.skills) + (" " + adv(p.advances) if p.advances else "")))
    for s in r.swarms:
        tab.add_row(Text(s.type), "swarm", str(s.bases), "", "")
    st = r.state
    state = Text(f"battles {st.battles}  Points Pool {st.pool}"
                 + ("".join(f"\n{k}: {', '.join(v)}" for k, v in st.injuries.items() if v))
                 + ("".join(f"\n{k} misses {n} game(s)" for k, n in st.miss_games.items() if n))
                 + ("\nDISBANDED" if st.disbanded else ""))
    return Group(tab, state)


def event_text(e: dict[str, Any]) -> str:
    """One campaign event as a line (or a few): what happened, the dice, the Pool."""
    skip = {"n", "event", "dice", "rolls"}
    parts = []
    for k, v in e.items():
        if k in skip or v in (None, [], {}, False, 0) and k not in ("pool", "earned", "valid"):
            continue
        if k == "results" and isinstance(v, list):
            for r in v:
                parts.append("\n    " + ", ".join(f"{a}: {b}" for a, b in r.items()))
            continue
        parts.append(f"{k.replace('_', ' ')}: {v}")
    head = f"#{e.get('n')} {e.get('event')}"
    dice = f"\n    dice ({e['dice']}): " + ", ".join(e["rolls"]) if e.get("rolls") else ""
    return head + "  " + "  ".join(p for p in parts if not p.startswith("\n")) + \
        "".join(p for p in parts if p.startswith("\n")) + dice


def tables_view(raw: dict[str, Any]) -> Any:
    """The To Hit row, the To Wound table and the close-combat To Hit Chart: the printed cells,
    and the lost rows from the formula (marked)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from bagm.skirmish.tables import to_hit_close_combat, to_hit_shooting, to_wound

    def cell(v: int) -> str:
        return "N" if v == 0 else f"{v}+"

    hit = Table(title="Roll To Hit (shooting)", title_justify="left", show_edge=False)
    hit.add_column("BS")
    for bs in range(1, 11):
        hit.add_column(str(bs), justify="right")
    hit.add_row("needs", *[cell(to_hit_shooting(bs)) for bs in range(1, 11)])
    wound = Table(title="To Wound (S down, T across)", title_justify="left", show_edge=False)
    wound.add_column("S")
    for t in range(1, 11):
        wound.add_column(str(t), justify="right")
    for s in range(1, 11):
        wound.add_row(str(s), *[cell(to_wound(s, t)) for t in range(1, 11)])
    cc = Table(title="To Hit Chart (attacker WS down, defender WS across)", title_justify="left",
               show_edge=False)
    cc.add_column("WS")
    for d in range(1, 11):
        cc.add_column(str(d), justify="right")
    lost = set(raw["to_hit_close_combat"]["lost_rows"])
    for ws in range(1, 11):
        label = f"{ws} (formula: row lost)" if ws in lost else str(ws)
        cc.add_row(Text(label, style="yellow" if ws in lost else ""),
                   *[cell(to_hit_close_combat(ws, d)) for d in range(1, 11)])
    return Group(hit, wound, cc, Text("A roll of 1 always misses. The To Wound table and the "
                                      "To Hit Chart follow formulas that reproduce every "
                                      "printed cell.", style="dim"))
