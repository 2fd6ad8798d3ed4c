"""Rich rendering of Battlefleet Gothic End Phase odds (``bagm bfg ...``). Decides no rule: every
figure comes from the result objects of :mod:`bagm.bfg`. Ship and effect names are the user's
text, so they go into :class:`rich.text.Text`, never into markup."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bagm.bfg.boarding import ActionOdds, SideRoll
    from bagm.bfg.end_phase import BlastRemovalOdds, RepairOdds
    from bagm.bfg.grapple import GrappleOdds
    from bagm.bfg.hit_and_run import HitAndRunOdds, TeleportOdds
    from bagm.bfg.play import Played
    from bagm.bfg.report import BoardingReport


def pct(p: Fraction) -> str:
    v = float(p) * 100
    return f"{v:.1f}%" if v >= 0.1 or v == 0 else f"{v:.2g}%"


def _table(title: str, *columns: str, left: int = 1) -> Any:
    """A table whose first ``left`` columns are text and the rest figures."""
    from rich.table import Table

    t = Table(title=title, title_justify="left", show_edge=False, min_width=44)
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i < left else "right")
    return t


def notes(notes: tuple[str, ...] | list[str]) -> Any:
    from rich.text import Text

    out = Text("Notes\n", style="bold")
    for n in notes:
        out.append(f"- {n}\n", style="dim")
    return out


def _side(label: str, s: SideRoll) -> Any:
    from rich.text import Text

    t = Text()
    t.append(f"{label}: ", style="bold")
    t.append(" + ".join(s.names))
    t.append(f"  boarding value {s.value if s.value.denominator > 1 else int(s.value)}"
             f"  modifier {s.total:+d}\n")
    for m in s.modifiers:
        t.append(f"    {m.value:+d} {m.label}\n", style="dim")
    return t


def exact(p: Fraction) -> str:
    """The fraction when it is short enough to read; long ones are in --format json."""
    text = str(p)
    return text if len(text) <= 13 else ""


def _dist_table(title: str, column: str, d: dict[int, Fraction]) -> Any:
    t = _table(title, column, "chance", "exact")
    for k, p in sorted(d.items()):
        if p:
            t.add_row(str(k), pct(p), exact(p))
    return t


def action(a: ActionOdds, title: str = "") -> Any:
    from rich.console import Group
    from rich.text import Text

    from bagm.bfg.boarding import OUTCOME_ORDER, crit_text, critical_on, damage_lost

    parts: list[Any] = []
    if title:
        parts.append(Text(title, style="bold underline"))
    parts += [_side("Boarding", a.attacker), _side("Boarded", a.defender)]
    res = _table("Result (Boarding Action Results)", "winner", "result", "chance", "exact",
                 "loser -dp", "crit A/D", left=2)
    res.caption = ("loser -dp: damage points the loser loses; crit A/D: the critical hit roll of "
                   "each boarding ship / of the boarded ship")
    res.caption_justify = "left"
    for o in OUTCOME_ORDER:
        p = a.outcomes.get(o)
        if p:
            need_a, need_d = critical_on(o)
            res.add_row(o.winner, o.result, pct(p), exact(p), damage_lost(o),
                        f"{crit_text(need_a)}/{crit_text(need_d)}")
    parts.append(res)
    crit = _table("Damage and critical hits", "", "chance")
    crit.add_row(Text("boarded ship: critical hit"), pct(a.defender_crit))
    crit.add_row(Text("boarding ship(s): critical hit, each"), pct(a.attacker_crit))
    crit.add_row("boarded ship a drifting hulk", pct(a.defender_hulk))
    if a.escort_defender:
        crit.add_row("boarded escort destroyed", pct(a.defender_destroyed))
    crit.add_row("boarding ship(s) lose all damage points", pct(a.attackers_hulk))
    crit.add_row("draw: the ships grapple", pct(a.draw))
    parts += [crit, _dist_table("Damage points the boarded ship loses", "damage",
                                a.damage_to_defender),
              _dist_table("Damage points the boarding ship(s) lose", "damage",
                          a.damage_to_attackers)]
    if len(a.attacker.names) > 1:
        title = "Boarding ships with a critical hit"
        if a.escorts_attacking:
            title += " (an escort's destroys it)"
        parts.append(_dist_table(title, "ships", a.attacker_crits))
    return Group(*parts)


def grapple(g: GrappleOdds, notes_: tuple[str, ...] = ()) -> Any:
    from rich.console import Group
    from rich.text import Text

    party = len(g.attackers) > 1
    head = Text()
    head.append("Grapple (Drawn Combats): ", style="bold")
    head.append(" + ".join(f"{s.name} ({s.damage})" for s in g.attackers)
                + f" against {g.defender.name} ({g.defender.damage}), fought every End Phase "
                "until one side is at 0")
    if g.separately:
        head.append("\nafter boarding separately: each party that drew fights its own action "
                    "every End Phase, in turn: "
                    + "; ".join(" + ".join(g.attackers[i].name for i in grp)
                                for grp in g.groups), style="dim")
    if party and any(len(grp) > 1 for grp in g.groups):
        head.append(f"\nlosses shared out by policy '{g.policy}'", style="dim")
    t = _table("How it ends", "", "chance", "exact")
    for name, p in ((g.name, g.attacker_survives), (g.defender.name, g.defender_survives)):
        t.add_row(Text(f"{name} survive{'' if party and name == g.name else 's'}"), pct(p),
                  exact(p))
    if g.both_lost:
        t.add_row("both lost", pct(g.both_lost), exact(g.both_lost))
    t.add_row("expected End Phases", f"{float(g.expected_phases):.3f}", exact(g.expected_phases))
    t.add_row(Text(f"expected critical hits on {g.name}"),
              f"{float(g.attacker_expected_crits):.3f}", "")
    t.add_row(Text(f"expected critical hits on {g.defender.name}"),
              f"{float(g.defender_expected_crits):.3f}", "")
    parts: list[Any] = [head, t]
    if party:
        each = _table("Each boarding ship", "ship", "damage", "grappled", "keeps damage points")
        for s, p, q in zip(g.attackers, g.ship_survives(), g.ship_grappled()):
            each.add_row(Text(s.name), str(s.damage), pct(q), pct(p))
        parts.append(each)
    left = _table("Damage points left to the survivor", "ship", "damage", "chance")
    for name, d in ((g.name, g.attacker_left), (g.defender.name, g.defender_left)):
        for k, p in d.items():
            left.add_row(Text(name), str(k), pct(p))
    phases = _table("Ends in End Phase", "End Phase", "chance")
    for k, p in sorted(g.phases.items()):
        phases.add_row(str(k), pct(p))
    from bagm.bfg.grapple import PHASES_SHOWN

    phases.add_row(f"later than {PHASES_SHOWN}", pct(g.longer))
    return Group(*parts, left, phases, *([notes(notes_)] if notes_ else []))


def board(r: BoardingReport) -> Any:
    from rich.console import Group
    from rich.text import Text

    parts: list[Any] = []
    if r.together is not None:
        parts.append(action(r.together))
    if r.separate is not None:
        for i, a in enumerate(r.separate.actions, 1):
            parts.append(action(a, f"Action {i} of {len(r.separate.actions)}"))
        parts.append(_dist_table(f"{r.defender.name}: damage points left after every action",
                                 "damage", r.separate.defender_damage_left))
    if r.grapple is not None:
        follows = (r.together.draw if r.together is not None else
                   r.separate.grapple_chance if r.separate is not None else None)
        if follows is not None:
            parts.append(Text(f"A grapple follows {pct(follows)} of the time; if it does:",
                              style="bold"))
        parts.append(grapple(r.grapple))
    lost = r.lost_in_the_end
    if lost is not None:
        t = _table("Lost now or in the grapple", "ship", "chance", "exact")
        t.caption = "at 0 damage points, or an escort destroyed by a critical hit"
        t.caption_justify = "left"
        for ship, p in ((r.attackers[0], lost[0]), (r.defender, lost[1])):
            t.add_row(Text(ship.name), pct(p), exact(p))
        parts.append(t)
    parts.append(notes(r.notes))
    return Group(*parts)


def hit_and_run(o: HitAndRunOdds, names: dict[int, str] | None = None,
                extra_notes: tuple[str, ...] = ()) -> Any:
    from rich.console import Group
    from rich.text import Text

    head = Text()
    head.append("Hit-and-Run: ", style="bold")
    target = "an escort" if o.target_kind == "escort" else "a capital ship"
    head.append(f"{o.attacks} attack(s) against {target}"
                f", rolling {o.attack.describe()}")
    t = _table("Each attack", "", "chance", "exact")
    if o.target_kind == "escort":
        t.add_row("destroys the escort", pct(o.success), exact(o.success))
        t.add_row(f"escort destroyed by {o.attacks} attack(s)", pct(o.at_least_one),
                  exact(o.at_least_one))
    else:
        t.add_row("critical hit (score 2+)", pct(o.success), exact(o.success))
        t.add_row(f"at least one of {o.attacks}", pct(o.at_least_one), exact(o.at_least_one))
    parts: list[Any] = [head, t]
    if o.target_kind == "capital":
        crit = _table("Critical Hits score (each attack)", "score", "chance", "expected hits",
                      "effect")
        crit.columns[-1].justify = "left"
        for k, p in sorted(o.critical_scores.items()):
            effect = (names or {}).get(k)
            crit.add_row(str(k), pct(p), f"{float(o.expected_by_score[k]):.3f}",
                         Text(effect) if effect else Text("(Critical Hits table not given)",
                                                          style="dim"))
        parts.append(crit)
    if o.attacks > 1:
        parts.append(_dist_table("Successful attacks", "attacks", o.successes))
    parts.append(notes((*extra_notes, *o.notes)))
    return Group(*parts)


def teleport(o: TeleportOdds, names: dict[int, str] | None = None,
             extra_notes: tuple[str, ...] = ()) -> Any:
    from rich.console import Group
    from rich.text import Text

    head = Text()
    head.append("Teleport attack: ", style="bold")
    head.append(f"{o.attacker.name} against {o.target.name}: ")
    head.append("may be made" if o.eligible else "may not be made",
                style="green" if o.eligible else "red")
    t = _table("Teleport Attacks", "condition", "met", "why", left=3)
    for c in o.checks:
        t.add_row(c.rule, "yes" if c.met else "NO", Text(c.reason))
    parts: list[Any] = [head, t]
    if o.odds is not None:
        parts.append(hit_and_run(o.odds, names, extra_notes))
    else:
        parts.append(notes(extra_notes))
    return Group(*parts)


def repairs(r: RepairOdds) -> Any:
    from rich.console import Group
    from rich.text import Text

    from bagm.chance.dist import mean

    head = Text()
    head.append("Damage control: ", style="bold")
    head.append(f"{r.dice} D6 ({r.damage} damage point(s)"
                + (", halved for Blast Markers in contact" if r.blast else "") + "), 6s repair")
    parts: list[Any] = [head, _dist_table("Systems or fires repaired", "repaired", r.repaired)]
    summary = Text(f"expected repaired {float(mean(r.repaired)):.3f}")
    if r.all_repaired is not None:
        summary.append(f"; all {r.needing} repaired {pct(r.all_repaired)}")
    parts += [summary, notes(r.notes)]
    return Group(*parts)


def blast_removal(b: BlastRemovalOdds) -> Any:
    from rich.console import Group
    from rich.text import Text

    from bagm.chance.dist import mean

    head = Text()
    head.append("Blast Marker removal: ", style="bold")
    head.append(f"D6 of {b.markers - b.in_contact} removable marker(s) "
                f"({b.in_contact} in contact with bases stay)")
    return Group(head, _dist_table("Markers removed", "removed", b.removed),
                 Text(f"expected removed {float(mean(b.removed)):.3f}"))


def played(p: Played) -> Any:
    """Dice rolled at the table: what happened, then every roll with its reason."""
    from rich.text import Text

    out = Text()
    out.append(f"Rolled with seed {p.seed}\n", style="bold")
    for line in p.lines:
        out.append(f"{line}\n")
    out.append("rolls: " + ", ".join(f"{v} ({r})" for v, r in p.rolls) + "\n", style="dim")
    return out
