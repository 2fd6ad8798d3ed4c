"""The simulation report (``bagm simulate --html``): what many games add up to, read from each
game's event log, and drawn as one self-contained page with inline SVG charts.

A renderer: it counts what the logs say and decides no rule. The logs name the unit behind
every attack and every destruction (``by``) and the units each VP credits (a ``vp`` event's
``units``: those the mission's objective names, e.g. the units controlling the markers), so the
report gives VP by reason, VP by unit and damage by unit.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

PLAYERS = ("A", "B")


def game_facts(events: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """What one game's log says about its units and its VP, as plain data (small enough to send
    back from a worker process): VP by round, VP by reason, VP credited to each unit, models
    each unit destroyed, the enemy units it finished, the units destroyed."""
    vp_rounds: dict[str, list[int]] = {p: [] for p in PLAYERS}
    vp_taken: dict[str, list[int]] = {p: [] for p in PLAYERS}
    vp_start: dict[str, int] = {p: 0 for p in PLAYERS}
    reasons: Counter[tuple[str, str]] = Counter()
    kills: Counter[str] = Counter()
    finished: Counter[str] = Counter()
    scored: Counter[str] = Counter()  # a VP credited to several units counts for each
    destroyed: list[str] = []
    units: dict[str, str] = {}
    rnd = 0
    full = False
    last_attacker: dict[str, str] = {}  # target -> the unit that last attacked it
    for e in events:
        kind = e.get("e")
        if kind == "muster":
            full = isinstance(e.get("base_radius"), dict)  # a log of this bagm (see replay.full_log)
            for labels in (e.get("units") or {}).values():
                for label in labels:
                    units[str(label).partition(" ")[0]] = str(label)
        elif kind == "round":
            rnd = int(e.get("round") or 0)
            for p in PLAYERS:
                vp_rounds[p].append(0)
                vp_taken[p].append(0)
        elif kind == "vp" and e.get("player") in PLAYERS:
            p, got = str(e["player"]), int(e.get("vp") or 0)
            reasons[(p, str(e.get("why")))] += got
            for uid in e.get("units") or ():
                scored[str(uid)] += got
            # VP scored in a round count in its column; VP taken away (negative, Pull Their
            # Teeth) are counted apart, never as negative VP scored; before round 1: starting VP
            if rnd and vp_rounds[p]:
                if got >= 0:
                    vp_rounds[p][-1] += got
                else:
                    vp_taken[p][-1] -= got
            elif not rnd:
                vp_start[p] += got
        elif kind == "attack":
            unit, target = str(e.get("unit")), str(e.get("target"))
            kills[unit] += int(e.get("destroyed") or 0)
            last_attacker[target] = unit
        elif kind == "destroyed":
            uid = str(e.get("unit"))
            destroyed.append(uid)
            if e.get("by"):
                finished[str(e["by"])] += 1
            elif not full and uid in last_attacker and not e.get("why"):
                finished[last_attacker[uid]] += 1  # a log of an older bagm names no destroyer
    return {"units": units, "vp_rounds": vp_rounds, "vp_taken": vp_taken, "vp_start": vp_start, "destroyed": destroyed, "kills": dict(kills),
            "finished": dict(finished), "scored": dict(scored), "reasons": [[p, why, vp] for (p, why), vp in sorted(reasons.items())]}


@dataclass
class Sample:
    """A game kept for watching: its seed, result and the files written for it."""

    seed: int
    winner: str | None
    vp: dict[str, int]
    log: str  # relative to the report
    page: str


@dataclass
class Report:
    """Many games summed: built once from the per-game facts, rendered as JSON and HTML."""

    sim: dict[str, Any]  # the summary `bagm simulate` prints (results, mean VP, histogram...)
    finals: list[tuple[int, int]] = field(default_factory=list)  # (A, B) final VP per game
    facts: list[dict[str, Any]] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.facts)

    def vp_by_round(self) -> dict[str, list[float]]:
        """Mean VP scored in each battle round, per player."""
        out: dict[str, list[float]] = {}
        for p in PLAYERS:
            rows = [f["vp_rounds"][p] for f in self.facts]
            width = max((len(r) for r in rows), default=0)
            out[p] = [sum(r[i] for r in rows if i < len(r)) / max(1, len(rows)) for i in range(width)]
        return out

    def vp_reasons(self) -> list[dict[str, Any]]:
        """Mean VP per game of each player by the rule that scored them (the reason's text up
        to its first colon: "Capture the Junction", "Purge the Ship", "Battle Ready"), most first.
        VP taken away from a player (Destroy Ground Targets) are a row of their own, negative,
        so the VP a rule scored never hide behind the VP it took."""
        total: dict[str, Counter[str]] = defaultdict(Counter)
        for f in self.facts:
            for p, why, vp in f["reasons"]:
                rule = str(why).split(":", 1)[0].strip()
                total[rule + " (VP taken away)" if vp < 0 else rule][p] += vp
        n = max(1, self.games)
        rows = [{"rule": rule, "mean": {p: c[p] / n for p in PLAYERS}} for rule, c in total.items()]
        return sorted(rows, key=lambda r: (-sum(r["mean"].values()), r["rule"]))

    def units(self) -> list[dict[str, Any]]:
        """Per unit: how often it was destroyed, models it destroyed, enemy units it finished,
        VP credited to it (mean per game)."""
        labels: dict[str, str] = {}
        died: Counter[str] = Counter()
        kills: Counter[str] = Counter()
        finished: Counter[str] = Counter()
        scored: Counter[str] = Counter()
        for f in self.facts:
            labels.update(f["units"])
            died.update(set(f["destroyed"]))
            kills.update(f["kills"])
            finished.update(f["finished"])
            scored.update(f.get("scored") or {})
        n = max(1, self.games)
        return [{"unit": uid, "name": labels[uid], "player": uid[:1], "destroyed": died[uid],
                 "destroyed_rate": died[uid] / n, "models_killed": kills[uid] / n,
                 "units_finished": finished[uid] / n, "vp_credited": scored[uid] / n}
                for uid in sorted(labels, key=lambda u: (u[:1], int(u[1:]) if u[1:].isdigit() else 0))]

    def histogram(self, band: int = 5) -> dict[str, Any]:
        """Games by final VP in bands of ``band`` VP, per player."""
        top = max([v for pair in self.finals for v in pair] + [0])
        bands = top // band + 1
        counts = {p: [0] * bands for p in PLAYERS}
        for a, b in self.finals:
            counts["A"][a // band] += 1
            counts["B"][b // band] += 1
        return {"band": band, "starts": [i * band for i in range(bands)], "counts": counts}

    def as_dict(self) -> dict[str, Any]:
        return {**self.sim, "vp_by_round_mean": self.vp_by_round(), "vp_reasons": self.vp_reasons(),
                "units": self.units(), "vp_histogram": self.histogram(),
                "samples": [s.__dict__ for s in self.samples]}


# --- the page -------------------------------------------------------------------------------

COLOURS = {"A": "#c0392b", "B": "#2e5fa8", "draw": "#7f8c8d"}


def _bars(series: Mapping[str, Sequence[float]], labels: Sequence[str], width: float = 520,
          height: float = 200, fmt: str = "{:g}") -> dict[str, Any]:
    """Grouped vertical bars (one group per label, one bar per series) laid out in pixels."""
    left, right, top, bottom = 36.0, 8.0, 10.0, 26.0
    peak = max([v for vs in series.values() for v in vs] + [1e-9])
    n, k = max(1, len(labels)), max(1, len(series))
    group = (width - left - right) / n
    bar = max(1.0, group * 0.8 / k)
    out = []
    for j, (name, values) in enumerate(series.items()):
        for i, v in enumerate(values):
            h = (height - top - bottom) * v / peak
            out.append({"x": round(left + i * group + group * 0.1 + j * bar, 2), "y": round(height - bottom - h, 2),
                        "w": round(bar - 1, 2), "h": round(h, 2), "fill": COLOURS.get(name, "#555"),
                        "title": f"{name} {labels[i]}: {fmt.format(v)}"})
    step = max(1, -(-n // 10))  # at most about ten labels
    ticks = [{"x": round(left + i * group + group / 2, 2), "label": labels[i]} for i in range(0, n, step)]
    grid = []
    for q in (0, 0.25, 0.5, 0.75, 1):
        grid.append({"y": round(height - bottom - (height - top - bottom) * q, 2), "label": fmt.format(peak * q)})
    return {"width": width, "height": height, "bars": out, "ticks": ticks, "grid": grid, "left": left,
            "right": width - right, "bottom": height - bottom}


def _rates(sim: dict[str, Any], width: float = 520) -> dict[str, Any]:
    """Win rates as horizontal bars with their 95% interval as whiskers."""
    rows = []
    left, span = 70.0, width - 70.0 - 50.0
    for i, key in enumerate(("A", "B", "draw")):
        r = sim["results"][key]
        lo, hi = r["ci"]
        label = {"A": "A wins", "B": "B wins", "draw": "Draws"}[key]
        rows.append({"y": 10 + i * 34, "label": label, "w": round(span * r["rate"], 2),
                     "lo": round(left + span * lo, 2), "hi": round(left + span * hi, 2),
                     "fill": COLOURS[key], "text": f"{r['rate']:.1%} ({lo:.1%}–{hi:.1%})", "count": r["count"]})
    return {"width": width, "height": 10 + 3 * 34, "left": left, "span": span, "rows": rows,
            "ticks": [{"x": round(left + span * q, 2), "label": f"{q:.0%}"} for q in (0, 0.25, 0.5, 0.75, 1)]}


def html(report: Report) -> str:
    """The report as one self-contained page (inline CSS and SVG; no script, no network)."""
    from bagm.render.templating import render

    sim = report.sim
    hist = report.histogram()
    rounds = report.vp_by_round()
    width = max(len(v) for v in rounds.values()) if rounds else 0
    units = report.units()
    return render(
        "sim_report.html.j2", sim=sim, games=report.games, rates=_rates(sim), band=hist["band"],
        histogram=_bars(hist["counts"], [str(s) for s in hist["starts"]], fmt="{:.0f}"),
        by_round=_bars(rounds, [f"Round {i + 1}" for i in range(width)], fmt="{:.1f}"),
        reasons=report.vp_reasons(), died=sorted(units, key=lambda u: (-u["destroyed_rate"], u["unit"])),
        damage=sorted(units, key=lambda u: (-u["models_killed"], u["unit"])),
        scorers=sorted(units, key=lambda u: (-u["vp_credited"], u["unit"])), samples=report.samples,
        colours=COLOURS)
