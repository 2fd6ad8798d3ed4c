"""Cross-checks of the bundled data against ../shared/reference (skipped when absent).

Every points value and every Detachment maximum equals the mustering reference's, or the
datasheet records why it differs (``points_note`` / ``note``).
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import REFERENCE

from bagm.data.names import norm
from bagm.data.packs import Catalog
from bagm.roster.points import legal_sizes

MUSTERING = REFERENCE / "ba-mustering-json" / "factions"
pytestmark = pytest.mark.skipif(not MUSTERING.is_dir(), reason="../shared/reference is absent")

INDEX = MUSTERING.parent / "index.json"
FILES = ({f["name"]: f["file"] for f in json.loads(INDEX.read_text(encoding="utf-8"))["factions"]}
         if INDEX.is_file() else {})
CATALOG = Catalog()


def reference(name: str) -> dict:
    return json.loads((MUSTERING.parent / FILES[name]).read_text(encoding="utf-8"))


def test_every_reference_faction_has_a_pack() -> None:
    missing = [name for name in FILES if CATALOG.faction(name) is None]
    assert missing == []


def sizes(entry: dict) -> dict[int, int]:
    out = {}
    for s in entry["sizes"]:
        m = re.match(r"(\d+)", s["label"])
        if m:
            out[int(m.group(1))] = s["pts"]
    return out


@pytest.mark.parametrize("name", list(FILES))
def test_points_match_or_are_explained(name: str) -> None:
    faction = CATALOG.faction(name)
    ref = reference(name)
    disagreements = 0
    for unit in ref["units"]:
        ds = faction.units.get(unit["name"])
        assert ds is not None, f"{unit['name']} missing from the {name} pack"
        for n, pts in sizes(unit).items():
            from bagm.roster.points import points_for

            ours = points_for(ds.points, n)
            if ours != pts:
                disagreements += 1
                assert ds.points_note, f"{ds.name} at {n}: {ours} vs reference {pts}, no note"
    print(f"{name}: {disagreements} recorded points disagreement(s)")


@pytest.mark.parametrize("name", list(FILES))
def test_detachment_maximums_match(name: str) -> None:
    faction = CATALOG.faction(name)
    ref = reference(name)
    by_id = {u["id"]: u["name"] for u in ref["units"]}
    for det in ref["detachments"]:
        ours = faction.detachments.get(det["name"])
        assert ours is not None, det["name"]
        allowed = {norm(a.unit): a for a in ours.units}
        for entry in det["units"]:
            ds = faction.units.get(by_id[entry["id"]])
            a = allowed.get(norm(ds.name))
            assert a is not None, f"{det['name']}: {ds.name} not allowed"
            assert a.max == entry["max"] or a.note, f"{det['name']}: {ds.name} max"
            ref_sizes = sorted(sizes(next(u for u in ref["units"] if u["id"] == entry["id"])))
            if "allowedSizeIndices" in entry:
                ref_sizes = [ref_sizes[i] for i in entry["allowedSizeIndices"]]
            ours_sizes = legal_sizes(ds.points, ds.sizes, a.sizes)
            explained = a.note or ds.points_note or any(ds.name in n for n in faction.pack.notes)
            assert ours_sizes == ref_sizes or explained, (det["name"], ds.name, ours_sizes,
                                                          ref_sizes)
        if "maxCharacters" in det:
            limits = [r for r in ours.rules if r.rule == "limit"
                      and r.select.keywords == ["CHARACTER"]]
            assert [r.max for r in limits] == [det["maxCharacters"]]


def test_recorded_disagreements_stay_few() -> None:
    """Every points value that differs from the mustering reference carries a reason, and
    there are few of them (the Field Manual is preferred for points)."""
    from bagm.roster.points import points_for

    count = 0
    for name in FILES:
        faction = CATALOG.faction(name)
        for unit in reference(name)["units"]:
            ds = faction.units.get(unit["name"])
            count += any(points_for(ds.points, n) != pts for n, pts in sizes(unit).items())
    print(f"recorded points disagreements with the mustering reference: {count}")
    assert count <= 45


BSDATA = REFERENCE / "bsdata-wh40k-10e"


@pytest.mark.skipif(not BSDATA.is_dir(), reason="BattleScribe catalogues absent")
@pytest.mark.parametrize("name", sorted(FILES))
def test_importer_knows_every_unit_a_detachment_allows(name: str) -> None:
    """A roster of each faction round-trips through the BattleScribe catalogues: every unit a
    Detachment allows is found by the importer (units in no Detachment may be missing)."""
    from bagm.io.bsdata import update_pack

    faction = CATALOG.faction(name)
    report = update_pack(faction.files[0], BSDATA, dry_run=True)
    missing = {n for n, _ in report.not_found}
    allowed = {a.unit for d in faction.pack.detachments for a in d.units}
    assert not missing & allowed, missing & allowed
