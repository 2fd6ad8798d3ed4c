"""A game to watch: one self-contained HTML page (``bagm replay LOG --html``) and one SVG per
phase (``--svg DIR``), both drawn over the same map drawing as ``bagm mission show --svg``
(:func:`bagm.render.map_render.draw`).

The page holds everything (inline CSS, an inline script, the data as JSON): no network, no
CDN; it opens from a USB stick. User text reaches it only through the template's autoescape
and ``tojson``; the script writes text with ``textContent``, never as HTML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bagm.render.narration import Step, narrate
from bagm.render.replay import Frame, frames, log_gaps

if TYPE_CHECKING:
    from bagm.engine.board.maps import MissionMap
    from bagm.render.map_render import Drawing

DEFAULT_RADIUS = 0.63  # a 32mm base, in inches: when the caller knows no base sizes
# shades of the player's colour (the Attacker's red, the Defender's blue), one per unit
SHADES = {"Attacker": ("#c0392b", "#e67e22", "#6e1a12", "#e59866", "#a04000", "#d98880", "#922b21", "#f0b27a"),
          "Defender": ("#2e5fa8", "#17a2b8", "#1b2f5c", "#7fb3d5", "#6c3483", "#148f77", "#5d6d7e", "#a9cce3")}
PLAYER_COLOUR = {"Attacker": "#c0392b", "Defender": "#2e5fa8"}


@dataclass
class Game:
    """A logged game read for watching: its steps, the board after each, and its units."""

    events: list[dict[str, Any]]
    steps: list[Step]
    frames: list[Frame]
    units: dict[str, dict[str, Any]]  # uid -> name, player, colour, radius
    roles: dict[str, str]
    header: dict[str, Any]


def read_game(events: Sequence[dict[str, Any]], mmap: MissionMap | None,
              radii: Mapping[str, float] | None = None) -> Game:
    """Steps, frames and units of a logged game. Base sizes come from the log's muster event;
    ``radii`` (each unit's base radius in inches) serves a log of an older bagm that has none,
    and without either every base is drawn 32mm."""
    layout = mmap.layout if mmap is not None else None
    st = narrate(events, layout)
    fr = frames(events, st, layout)
    roles = {"A": "Attacker", "B": "Defender"}
    units: dict[str, dict[str, Any]] = {}
    header = events[0] if events else {}
    for e in events:
        if e.get("e") == "roles":
            roles = {p: str(r) for p, r in e.items() if p in ("A", "B")}
        if e.get("e") == "muster":
            logged = e.get("base_radius")
            if isinstance(logged, dict):
                radii = {str(k): float(v) for k, v in logged.items() if isinstance(v, (int, float))}
            for p, labels in sorted((e.get("units") or {}).items()):
                for k, label in enumerate(labels):
                    uid = str(label).partition(" ")[0]
                    units[uid] = {"uid": uid, "name": str(label), "player": p, "index": k,
                                  "radius": round(float((radii or {}).get(uid, DEFAULT_RADIUS)), 3)}
    for u in units.values():
        shades = SHADES[roles.get(u["player"], "Attacker" if u["player"] == "A" else "Defender")]
        u["colour"] = shades[u["index"] % len(shades)]
    return Game(list(events), st, fr, units, roles, header)


def _vp_chart(game: Game, width: float = 340, height: float = 130) -> dict[str, Any]:
    """The VP timeline of both players, step by step, as polyline points."""
    n = max(1, len(game.frames) - 1)
    top = max([10] + [f.vp.get(p, 0) for f in game.frames for p in ("A", "B")])
    left, bottom, right, up = 30.0, 20.0, 8.0, 8.0

    def X(i: int) -> float:
        return round(left + (width - left - right) * i / n, 2)

    def Y(v: float) -> float:
        return round(height - bottom - (height - bottom - up) * v / top, 2)

    lines = {p: " ".join(f"{X(i)},{Y(f.vp.get(p, 0))}" for i, f in enumerate(game.frames)) for p in ("A", "B")}
    ticks = [{"y": Y(v), "label": v} for v in range(0, top + 1, max(5, (top // 4 + 4) // 5 * 5))]
    rounds = []
    seen = set()
    for i, s in enumerate(game.steps):
        if s.round and s.round not in seen and s.phase != "end":
            seen.add(s.round)
            rounds.append({"x": X(i), "label": f"R{s.round}"})
    return {"width": width, "height": height, "lines": lines, "ticks": ticks, "rounds": rounds,
            "left": left, "right": width - right, "bottom": height - bottom, "top": up,
            "xs": [X(i) for i in range(len(game.frames))]}


GRID_PAD = 14.0  # px added under the board for the column letters (the legend moves down)


def _grid(mmap: MissionMap) -> dict[str, Any]:
    """The Zones' grid references, drawn beside the board: letters under it, numbers left of it."""
    from bagm.render.narration import zone_name

    lay = mmap.layout
    cols, rows = lay.grid_size
    return {"cols": [{"x": round((c + 0.5) * lay.zone_w, 2), "label": zone_name(c, 0)[5:-1]} for c in range(cols)],
            "rows": [{"y": round((r + 0.5) * lay.zone_h, 2), "label": str(r + 1)} for r in range(rows)],
            "below": round(lay.bounds.y1 + 0.8, 2), "left": round(lay.bounds.x0 - 0.7, 2)}


def page_data(game: Game, mmap: MissionMap | None) -> dict[str, Any]:
    """What the page's script reads: steps, frames, units, markers."""
    phase_of: list[int] = []
    k, heading = -1, None
    for s in game.steps:
        if s.heading != heading:
            k, heading = k + 1, s.heading
        phase_of.append(k)
    markers = []
    if mmap is not None:
        markers = [{"x": m.x, "y": m.y, "r": m.radius} for m in mmap.layout.markers]
    grid = _grid(mmap) if mmap is not None else None
    end = next((e for e in reversed(game.events) if e.get("e") == "end"), None)
    from bagm.render.narration import dice_text

    def step(i: int, s: Step) -> dict[str, Any]:
        d = s.as_dict()
        d["attacks"] = [{**a, "dice_text": dice_text(a["dice"]) if a.get("dice") else ""} for a in s.attacks]
        return {**d, "phaseIndex": phase_of[i]}

    return {"steps": [step(i, s) for i, s in enumerate(game.steps)],
            "frames": [f.as_dict() for f in game.frames], "units": game.units, "roles": game.roles,
            "markers": markers, "grid": grid, "colours": {p: PLAYER_COLOUR.get(r, "#555") for p, r in game.roles.items()},
            "final": {"vp": (end or {}).get("vp"), "winner": (end or {}).get("winner")} if end else None}


def _drawing(mmap: MissionMap | None) -> Drawing | None:
    """The map drawing, a little taller: the grid's letters go between the board and legend."""
    if mmap is None:
        return None
    from dataclasses import replace

    from bagm.render.map_render import draw

    d = draw(mmap, scale=16.0)
    return replace(d, height=d.height + GRID_PAD)


def html(events: Sequence[dict[str, Any]], mmap: MissionMap | None,
         radii: Mapping[str, float] | None = None) -> str:
    """The replay page of a logged game."""
    from markupsafe import Markup

    from bagm.render.templating import render

    game = read_game(events, mmap, radii)
    d = _drawing(mmap)
    board = None
    if d is not None:
        # the map renderer escapes its own text; its elements are trusted markup here
        board = {"open_tag": Markup(d.open_tag()), "head": Markup("\n".join(d.head[1:])),
                 "board": Markup("\n".join(d.board)), "labels": Markup("\n".join(d.labels)),
                 "hatchways": [{"index": i, "closed": Markup(c), "open": Markup(o)}
                               for i, (c, o) in sorted(d.hatchways.items())],
                 "markers": Markup("\n".join(d.markers)), "legend": Markup("\n".join(d.legend)),
                 "pad": GRID_PAD,
                 "inches": d.inches(), "title": mmap.title if mmap is not None else ""}
    h = game.header
    title = f"Mission {h.get('mission')}: {h.get('name')} (seed {h.get('seed')})"
    armies = {p: [u for u in game.units.values() if u["player"] == p] for p in ("A", "B")}
    return render("replay.html.j2", title=title, board=board, data=page_data(game, mmap),
                  chart=_vp_chart(game), gaps=log_gaps(events), roles=game.roles, armies=armies,
                  colours={p: PLAYER_COLOUR.get(r, "#555") for p, r in game.roles.items()})


def phase_svgs(events: Sequence[dict[str, Any]], mmap: MissionMap,
               radii: Mapping[str, float] | None = None) -> list[tuple[str, str]]:
    """One SVG per phase (the board at the phase's end): (file name, SVG text), in order."""
    from markupsafe import Markup

    from bagm.render.templating import render

    game = read_game(events, mmap, radii)
    d = _drawing(mmap)
    assert d is not None
    last: dict[str, int] = {}
    order: list[str] = []
    for i, s in enumerate(game.steps):
        if s.heading not in last:
            order.append(s.heading)
        last[s.heading] = i
    out = []
    for n, heading in enumerate(order, 1):
        i = last[heading]
        s, f = game.steps[i], game.frames[i]
        if s.phase == "end":
            slug = "end"
        elif s.round == 0:
            slug = "setup"
        else:
            slug = f"round{s.round}-{s.player or ''}-{s.phase or ''}".strip("-")
        opened = set(f.open)
        hatch = [Markup(d.hatchways[k][1 if k in opened else 0]) for k in sorted(d.hatchways)]
        # the fallen first (greyed where they fell), the living drawn over them
        bases = [{"x": p[0], "y": p[1], "r": game.units.get(uid, {}).get("radius", DEFAULT_RADIUS),
                  "fill": "#bbbbbb", "label": uid[1:], "gone": True}
                 for uid, models in sorted(f.gone.items()) for p in models]
        bases += [{"x": p[0], "y": p[1], "r": game.units.get(uid, {}).get("radius", DEFAULT_RADIUS),
                   "fill": game.units.get(uid, {}).get("colour", "#777"), "label": uid[1:], "gone": False}
                  for uid, models in sorted(f.units.items()) for p in models]
        rings = []
        if mmap is not None:
            for m, owner in zip(mmap.layout.markers, f.control):
                if owner:
                    rings.append({"x": m.x, "y": m.y, "r": m.radius + 0.35,
                                  "colour": PLAYER_COLOUR.get(game.roles.get(owner, ""), "#555")})
        text = render("replay_phase.svg.j2", open_tag=Markup(d.open_tag()), head=Markup("\n".join(d.head)),
                      board=Markup("\n".join(d.board)), hatchways=hatch, labels=Markup("\n".join(d.labels)),
                      markers=Markup("\n".join(d.markers)), legend=Markup("\n".join(d.legend)),
                      inches=d.inches(), bases=bases, rings=rings, heading=heading, vp=f.vp,
                      grid=_grid(mmap), pad=GRID_PAD,
                      width=d.width, margin=d.margin)
        out.append((f"{n:03d}-{slug}.svg", text))
    return out
