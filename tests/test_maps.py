"""The 15 mission maps: what each mission's text states, fairness of the symmetric ones, the map
file format's errors, and `bagm mission`."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.missions import missions
from bagm.engine.board.battlefield import Battlefield
from bagm.engine.board.geometry import Base
from bagm.engine.board.maps import BUNDLED, MissionMap, bundled, load_map
from bagm.io.yamlsafe import InputError

SYMMETRIC = (11, 12, 13, 21, 22, 23, 31, 32, 33)
ASYMMETRIC = (1, 2, 3, 4, 5, 6)
R = 32 / 25.4 / 2


def test_all_fifteen_missions_have_a_map() -> None:
    table = missions()
    assert sorted(BUNDLED) == sorted(table)
    for n in BUNDLED:
        m = bundled(n)
        assert m.mission == n and m.name == table[n]["name"]
        assert m.kind == table[n]["kind"] == ("symmetric" if n in SYMMETRIC else "asymmetric")
        assert m.reconstruction and m.note and "text states" in m.note
        assert m.summary, f"mission {n} has no rules summary"
        assert len(m.layout.boards) == 2
        assert m.layout.entry_zones_of("Attacker") and m.layout.entry_zones_of("Defender")


# --- fairness --------------------------------------------------------------------------------

def _mapper(m: MissionMap):  # type: ignore[no-untyped-def]
    cols, rows = m.layout.grid_size
    if m.symmetry == "point":
        return (lambda x, y: (cols - x, rows - y)), (lambda c, r: (cols - 1 - c, rows - 1 - r))
    assert m.symmetry == "mirror"
    return (lambda x, y: (cols - x, y)), (lambda c, r: (cols - 1 - c, r))


def _edges(a, b):  # type: ignore[no-untyped-def]
    if a[1] == b[1]:
        return {((x, a[1]), (x + 1, a[1])) for x in range(min(a[0], b[0]), max(a[0], b[0]))}
    return {((a[0], y), (a[0], y + 1)) for y in range(min(a[1], b[1]), max(a[1], b[1]))}


def _moved(edges, P):  # type: ignore[no-untyped-def]
    return {tuple(sorted((P(*a), P(*b)))) for a, b in edges}


@pytest.mark.parametrize("number", SYMMETRIC)
def test_symmetric_maps_are_fair(number: int) -> None:
    m = bundled(number)
    lay = m.layout
    P, Z = _mapper(m)
    walls = set().union(*(_edges(w.a, w.b) for w in lay.walls))
    assert _moved(walls, P) == walls
    hatches = {(frozenset(_edges(h.a, h.b)), h.starts_open, h.label) for h in lay.hatchways}
    assert {(frozenset(_moved(e, P)), o, lab) for e, o, lab in hatches} == hatches
    assert {P(*p.at) for p in lay.pillars} == {p.at for p in lay.pillars}
    # markers: same places; same labels, except Power Line ends, whose links must map instead
    ends = {x for line in lay.power_lines for x in line}
    zx, zy = lay.zone_w, lay.zone_h
    spots = {(round(mk.x / zx, 6), round(mk.y / zy, 6)): mk for mk in lay.markers}
    image = {}
    for (x, y), mk in spots.items():
        px, py = P(x, y)
        other = spots.get((round(px, 6), round(py, 6)))
        assert other is not None, f"no marker opposite {mk}"
        if mk.label not in ends:
            assert other.label == mk.label
        image[mk.label] = other.label
    lines = {frozenset(line) for line in lay.power_lines}
    assert {frozenset(image[x] for x in line) for line in lines} == lines
    # Entry Zones: each Attacker zone matches a Defender zone of the same kind, and back
    swap = {"Attacker": "Defender", "Defender": "Attacker"}
    zones = Counter((z.player, z.kind, frozenset(z.zones)) for z in lay.entry_zones)
    assert Counter((swap[p], k, frozenset(Z(*c) for c in cells)) for (p, k, cells) in zones.elements()) == zones
    areas = Counter((a.kind, frozenset(a.zones)) for a in lay.areas)
    assert Counter((k, frozenset(Z(*c) for c in cells)) for k, cells in areas.elements()) == areas


def test_every_marker_and_entry_zone_is_reachable() -> None:
    for n in BUNDLED:
        bf = Battlefield(bundled(n).layout)
        bf.open_all()
        lay = bf.layout
        for mk in lay.markers:
            for player in ("Attacker", "Defender"):
                d = min(bf.distance(z.centre, mk.base) for z in lay.entry_zones_of(player)
                        if lay.connected(z.centre, (mk.x, mk.y))) if player else 0
                assert d < math.inf, f"mission {n}: {mk} unreachable for the {player}"
        for z in lay.entry_zones:
            assert bf.fits(Base(*z.centre, R)), f"mission {n}: {z.name} centre is blocked"


# --- what each mission's text states ----------------------------------------------------------

def _labels(n: int) -> Counter[str | None]:
    return Counter(m.label for m in bundled(n).layout.markers)


def test_pipeline_markers_a_and_b() -> None:
    assert _labels(13) == Counter({"A": 2, "B": 2})


def test_power_struggle_power_lines() -> None:
    lay = bundled(21).layout
    assert len(lay.power_lines) >= 2
    labels = {m.label for m in lay.markers}
    assert {x for line in lay.power_lines for x in line} <= labels


def test_death_in_the_dark_lighting_areas_hold_two_markers_each() -> None:
    lay = bundled(22).layout
    areas = lay.areas_of("Lighting Area")
    assert sorted(a.label for a in areas) == ["1", "2"]
    for a in areas:
        assert sum(a.contains_point((m.x, m.y)) for m in lay.markers) == 2


def test_hull_breach_six_compartments_with_hatchways() -> None:
    lay = bundled(23).layout
    comps = lay.areas_of("Compartment")
    assert sorted(a.label for a in comps) == ["1", "2", "3", "4", "5", "6"]
    for a in comps:
        inside = [h for h in lay.hatchways if a.touches_segment(*h.opening)]
        assert inside, f"Compartment {a.label} has no Hatchway"
    assert {m for m in _labels(23)} == {None} and len(lay.markers) >= 2


def test_control_centre_markers() -> None:
    labels = _labels(31)
    assert labels["A"] == 1 and labels["B"] == 1


def test_furnace_and_its_control_zones() -> None:
    lay = bundled(32).layout
    furnace = lay.areas_of("Furnace")
    assert len(furnace) == 1
    inside = [m for m in lay.markers if furnace[0].contains_point((m.x, m.y))]
    assert 1 <= len(inside) < len(lay.markers)
    assert len(lay.areas_of("Furnace Control Zone")) == 2


def test_rad_leak_sectors_and_critical_markers() -> None:
    lay = bundled(33).layout
    sectors = lay.areas_of("Sector")
    assert sorted(a.label for a in sectors) == ["A", "B", "C", "D"]
    cols, rows = lay.grid_size
    every = [z for a in sectors for z in a.zones]
    assert sorted(every) == sorted((c, r) for c in range(cols) for r in range(rows))  # a partition
    assert _labels(33)["Critical"] == 2


def test_void_the_ship_airlocks() -> None:
    lay = bundled(1).layout
    airlocks = [h for h in lay.hatchways if h.label == "Airlock"]
    assert len(airlocks) == 4 and not any(h.starts_open for h in airlocks)
    void = lay.areas_of("Inaccessible Area")[0]
    for h in airlocks:
        assert void.touches_segment(*h.opening)
    assert [z.kind for z in lay.entry_zones_of("Defender", "Patrol")] == ["Patrol"]
    bf = Battlefield(lay)
    inside = (void.centre[0] - 3, void.centre[1])
    assert not bf.fits(Base(*void.centre, R))  # models cannot enter it
    assert lay.markers == []
    assert inside  # (the Inaccessible Area is still measured across: only entering is barred)


def test_pull_their_teeth_markers() -> None:
    labels = _labels(2)
    assert labels["Control Node"] == 1 and labels["Loader"] >= 2


def test_strongrooms_are_sealed_rooms_with_a_marker_each() -> None:
    lay = bundled(3).layout
    rooms = lay.areas_of("Strongroom")
    assert len(rooms) == 2 and len(lay.markers) == 2
    bf = Battlefield(lay)
    outside = lay.entry_zones_of("Attacker")[0].centre
    for room in rooms:
        assert sum(room.contains_point((m.x, m.y)) for m in lay.markers) == 1
        assert bf.distance(outside, room.centre) == math.inf  # every way in is a closed Hatch
    bf.open_all()
    assert all(bf.distance(outside, room.centre) < math.inf for room in rooms)


def test_jailbreak_prison_cells_and_entry_zones() -> None:
    lay = bundled(4).layout
    cells = lay.areas_of("Prison Cells")[0]
    (hatch,) = [h for h in lay.hatchways if h.label == "Prison Cells' Hatchway"]
    assert not hatch.starts_open
    bf = Battlefield(lay)
    outside = lay.entry_zones_of("Defender", "Guard")[0].centre
    assert bf.distance(cells.centre, outside) == math.inf
    bf.set_open(hatch.index)
    assert bf.distance(cells.centre, outside) < math.inf
    kinds = Counter(z.kind for z in lay.entry_zones_of("Defender"))
    assert kinds == Counter({"Guard": 1, "Patrol": 2, "Backup": 2})
    assert lay.markers == []


def test_power_the_generators_two_levels() -> None:
    lay = bundled(5).layout
    deck, sub = lay.boards
    assert (deck.name, sub.name) == ("Deck Level", "Sub-level")
    assert not lay.connected(deck.rect.centre, sub.rect.centre)
    gens = [m for m in lay.markers if m.label == "Generator"]
    terms = [m for m in lay.markers if m.label == "Terminal"]
    assert gens and terms
    assert all(lay.board_at((m.x, m.y)) is sub for m in gens)
    access = lay.areas_of("Access Zone")
    by_label = Counter(a.label for a in access)
    assert by_label and all(n == 2 for n in by_label.values())  # one on each level
    for label in by_label:
        boards = {a.board for a in access if a.label == label}
        assert boards == {"Deck Level", "Sub-level"}


def test_corrupt_the_machine_spirit_markers() -> None:
    assert len(bundled(6).layout.markers) == 3


def test_deck_sweepers_underdog_entry_zones() -> None:
    lay = bundled(12).layout
    for player in ("Attacker", "Defender"):
        assert len(lay.entry_zones_of(player, "Underdog")) == 1


# --- the map file format -----------------------------------------------------------------------

GOOD = """board: {width: 22, height: 30, columns: 5, rows: 7}
walls:
  - [[1, 1], [1, 3]]
hatchways:
  - {at: [[1, 3], [1, 4]], open: true, label: Door}
entry_zones:
  - {player: Attacker, zones: [[0, 0]]}
objectives:
  - {label: A, at: [2.5, 2.5]}
"""


def test_a_users_map_loads() -> None:
    m = load_map("mine.yaml", GOOD)
    assert m.kind == "custom" and not m.reconstruction
    lay = m.layout
    assert len(lay.boards) == 2 and lay.bounds.width == pytest.approx(44)
    assert lay.hatchways[0].label == "Door" and lay.hatchways[0].starts_open


@pytest.mark.parametrize("text, line, words", [
    (GOOD.replace("[[1, 1], [1, 3]]", "[[1, 1], [1, 9]]"), 3, "off the board"),
    (GOOD + "  - {label: B, at: [12, 2]}\n", 10, "off the board"),
    (GOOD.replace("walls:\n", "walls:\n  - [[1, 2], [1, 4]]\n"), 4, "overlapping"),
    (GOOD.replace("[[1, 3], [1, 4]]", "[[1, 2], [1, 3]]"), 5, "overlapping"),
    (GOOD.replace("[[1, 3], [1, 4]]", "[[1, 3.5], [1, 4]]"), 5, "not on the Zone grid"),
    (GOOD.replace("[[1, 3], [1, 4]]", "[[1, 3], [2, 4]]"), 5, "not along a Zone edge"),
    (GOOD.replace("zones: [[0, 0]]", "zones: [[12, 0]]"), 7, "outside the battlefield"),
    (GOOD.replace("zones: [[0, 0]]", "zones: [[0, -1]]"), 7, "outside the battlefield"),
    (GOOD.replace("player: Attacker", "player: Nobody"), 7, "player"),
    (GOOD.replace("open: true", "opn: true"), 5, "did you mean 'open'"),
    (GOOD + "power_lines:\n  - [A, Z]\n", 11, "no objective marker is labelled 'Z'"),
    (GOOD.replace("{label: A, at: [2.5, 2.5]}", "{label: A, at: [1, 2]}"), 9, "inside a Wall"),
    (GOOD.replace("height: 30", "height: 14"), 5, "does not fit"),
    ("walls: [[[0, 0], [1, 0]]\n", 2, "invalid YAML"),
    (GOOD + "boards: [{name: a, at: [0, 0]}, {name: b, at: [3, 0]}]\n", 10, "overlaps"),
])
def test_map_errors_name_the_file_and_line(text: str, line: int, words: str) -> None:
    with pytest.raises(InputError) as err:
        load_map("bad.yaml", text)
    assert err.value.path == "bad.yaml" and err.value.line == line, str(err.value)
    assert words in str(err.value)


# --- the command line --------------------------------------------------------------------------

runner = CliRunner()


def test_cli_mission_list() -> None:
    result = runner.invoke(app, ["mission", "list"], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    for n in BUNDLED:
        assert bundled(n).name in result.output


def test_cli_mission_show_draws_the_map(tmp_path: Path) -> None:
    svg = tmp_path / "m1.svg"
    result = runner.invoke(app, ["mission", "show", "1", "--svg", str(svg)], env={"COLUMNS": "140"})
    assert result.exit_code == 0, result.output
    out = result.output
    for words in ("Void the Ship", "Airlock (4)", "Inaccessible Area", "Defender Patrol Entry Zone",
                  "Hatchway closed, open", "Mission rules", "Reconstruction"):
        assert words in out
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert svg.read_text().count("<circle") == 0  # no markers in Void the Ship
    assert not list(tmp_path.glob(".*.tmp"))  # the temporary file is gone


def test_cli_mission_show_markers_in_svg(tmp_path: Path) -> None:
    svg = tmp_path / "m21.svg"
    assert runner.invoke(app, ["mission", "show", "21", "--svg", str(svg)]).exit_code == 0
    text = svg.read_text()
    assert text.count("<circle") == len(bundled(21).layout.markers)
    assert "Power Lines" in text


def test_cli_mission_show_a_users_map(tmp_path: Path) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text(GOOD)
    result = runner.invoke(app, ["mission", "show", "11", "--map", str(f)], env={"COLUMNS": "140"})
    assert result.exit_code == 0, result.output
    assert "Access Junction Primus" in result.output and "Door" in result.output
    f.write_text(GOOD.replace("[[1, 1], [1, 3]]", "[[1, 1], [1, 9]]"))
    result = runner.invoke(app, ["mission", "show", "--map", str(f)])
    assert result.exit_code == 2
    assert f"{f}:3: " in result.output and "off the board" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args, words", [
    (["mission", "show", "7"], "unknown mission 7"),
    (["mission", "show"], "give a mission number"),
    (["mission", "show", "11", "--map", "/nonexistent/map.yaml"], "no such file"),
    (["mission", "show", "11", "--svg", "/nonexistent/dir/x.svg"], "no such folder"),
])
def test_cli_mission_bad_input(args: list[str], words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and words in result.output


def test_map_names_agree_with_the_mission_table() -> None:
    """Mission names live in two files (the table and each map); keep them equal."""
    import yaml

    from bagm.data.missions import missions

    maps = Path(__file__).parents[1] / "bagm" / "engine" / "board" / "maps"
    for number, info in missions().items():
        data = yaml.safe_load((maps / f"mission_{number:02d}.yaml").read_text(encoding="utf-8"))
        assert data["name"] == info["name"], number
