"""`bagm mission`: the 15 missions of the book and their (reconstructed) maps."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from bagm.cli.common import FormatOpt, SimpleFormat, console
from bagm.cli.common import fail as _fail

mission_app = typer.Typer(help="The Boarding Actions missions and their maps.", no_args_is_help=True)




@mission_app.command("list")
def list_missions(format: FormatOpt = SimpleFormat.text) -> None:
    """List the missions: number, name, kind and what the map holds."""
    from rich.table import Table

    from bagm.data.missions import missions
    from bagm.engine.board.maps import BUNDLED, bundled

    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        info = missions()
        out = []
        for n in BUNDLED:
            m = bundled(n)
            lay = m.layout
            out.append({"number": n, "name": info.get(n, {}).get("name", m.name),
                        "kind": m.kind, "underdog": info.get(n, {}).get("underdog"),
                        "markers": len(lay.markers), "hatchways": len(lay.hatchways),
                        "hatchways_open": sum(h.starts_open for h in lay.hatchways),
                        "areas": sorted({a.kind for a in lay.areas}),
                        "reconstruction": m.reconstruction})
        typer.echo(to_json(out))
        return
    table = Table(title="Boarding Actions missions (October 2024)", title_justify="left")
    for col in ("#", "Mission", "Kind", "Markers", "Hatchways (open)", "Areas", "Rebuilt"):
        table.add_column(col, justify="right" if col in ("#", "Markers") else "left",
                         no_wrap=col in ("#", "Kind", "Rebuilt"))
    info = missions()
    for n in BUNDLED:
        m = bundled(n)
        lay = m.layout
        kinds = sorted({a.kind for a in lay.areas})
        opened = sum(h.starts_open for h in lay.hatchways)
        table.add_row(str(n), info.get(n, {}).get("name", m.name or "?"), m.kind,
                      str(len(lay.markers)), f"{len(lay.hatchways)} ({opened})",
                      ", ".join(kinds) or "-", "yes" if m.reconstruction else "")
    table.caption = ("Rebuilt: the book's map is a picture not in the rules text; this one is "
                     "reconstructed from what the text states (see `bagm mission show N`).")
    table.caption_justify = "left"
    console().print(table)


@mission_app.command("show")
def show(
    number: Annotated[Optional[int], typer.Argument(help="Mission number: 11-33 (D33) or 1-6.",
                                                    show_default=False)] = None,
    map_file: Annotated[Optional[Path], typer.Option("--map", help="Draw this map file instead of "
                                                     "the bundled one (same format).")] = None,
    svg_file: Annotated[Optional[Path], typer.Option("--svg", help="Also write the map as SVG.")] = None,
    format: FormatOpt = SimpleFormat.text,
) -> None:
    """Draw a mission's map (Walls, Hatchways, markers, Entry Zones, areas) and its rules."""
    from bagm.engine.board.maps import BUNDLED, bundled, load_map
    from bagm.io.yamlsafe import InputError
    from bagm.render.map_render import mission_panel, svg, write_svg

    if number is None and map_file is None:
        _fail("give a mission number (bagm mission list) or --map FILE")
    if number is not None and number not in BUNDLED:
        _fail(f"unknown mission {number}; missions: {', '.join(map(str, sorted(BUNDLED)))}")
    try:
        mmap = load_map(map_file) if map_file is not None else bundled(number)  # type: ignore[arg-type]
    except InputError as exc:
        _fail(str(exc))
    if map_file is not None and number is not None:
        base = bundled(number)
        mmap.mission = mmap.mission or number
        mmap.name = mmap.name or base.name
        mmap.summary = mmap.summary or base.summary
    if format is SimpleFormat.json:
        from bagm.data.missions import missions
        from bagm.render.formats import to_json

        lay = mmap.layout
        typer.echo(to_json({
            "mission": mmap.mission, "name": mmap.name, "kind": mmap.kind,
            "symmetry": mmap.symmetry, "reconstruction": mmap.reconstruction,
            "note": mmap.note, "summary": list(mmap.summary),
            "rules": missions().get(mmap.mission) if mmap.mission is not None else None,
            "size_inches": [lay.bounds.width, lay.bounds.height],
            "map": {k: v for k, v in mmap.raw.items() if k not in (
                "mission", "name", "kind", "symmetry", "reconstruction", "note", "summary")}}))
    else:
        console().print(mission_panel(mmap))
    if svg_file is not None:
        if svg_file.is_dir():
            _fail(f"{svg_file}: is a folder; give a file name for the SVG")
        if not svg_file.parent.exists():
            _fail(f"{svg_file}: no such folder '{svg_file.parent}'")
        try:
            write_svg(svg_file, svg(mmap))
        except OSError as exc:
            _fail(f"{svg_file}: cannot be written: {exc.strerror or exc}")
        typer.echo(f"bagm: wrote {svg_file}", err=True)


def register(app: typer.Typer) -> None:
    app.add_typer(mission_app, name="mission")
