"""The bundled data packs and example rosters."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

from bagm.data.names import norm
from bagm.data.packs import Catalog
from bagm.roster.packcheck import check_faction
from bagm.roster.validate import validate_path

ROSTERS = sorted((REPO / "rosters").glob("*.yaml"))
CATALOG = Catalog()


@pytest.mark.parametrize("name", CATALOG.faction_names())
def test_pack_is_consistent(name: str) -> None:
    faction = CATALOG.faction(name)
    assert faction is not None
    assert check_faction(faction) == []


@pytest.mark.parametrize("path", ROSTERS, ids=[p.name for p in ROSTERS])
def test_example_roster_is_valid_without_warnings(path: Path) -> None:
    report = validate_path(path, CATALOG)
    assert report.valid, [f.message for f in report.findings]
    assert report.findings == []
    assert 0 < report.points <= 500


def test_six_factions_have_data_and_rosters() -> None:
    names = set(CATALOG.faction_names())
    assert {"Grey Knights", "Adeptus Astartes", "Necrons", "Tyranids", "Astra Militarum",
            "Orks"} <= names
    covered = {validate_path(p, CATALOG).faction for p in ROSTERS}
    assert names <= covered


def test_every_detachment_has_an_example_roster() -> None:
    covered = {(r.faction, r.detachment) for r in (validate_path(p, CATALOG) for p in ROSTERS)}
    for faction in CATALOG.all():
        for det in faction.pack.detachments:
            assert (faction.name, det.name) in covered, det.name


def test_a_roster_loads_only_its_own_faction() -> None:
    catalog = Catalog()
    path = next(p for p in ROSTERS if "grey_knights" in p.name)
    validate_path(path, catalog)
    assert list(catalog._loaded) == [norm("Grey Knights")]


def test_every_pack_records_its_points_source() -> None:
    for faction in CATALOG.all():
        assert "Munitorum Field Manual" in faction.pack.points_source
