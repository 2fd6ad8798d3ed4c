"""Facts of every bundled datasheet checked by class: each test runs over all units, so one wrong
entry of a kind fails it (issue 13: datasheet corrections and base sizes)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from bagm.roster.packcheck import check_faction
from bagm.data.packs import Catalog
from conftest import REPO

CATALOG = Catalog()
UNITS = [(f.pack.faction, ds) for f in CATALOG.all() for ds in f.pack.units]

# Units the base size guide gives no single size for; README "Base sizes" names them.
UNSOURCED_BASES = {
    "Assault Marines",  # a Legends datasheet: not in the guide
    "Crusader Squad",  # the guide gives "32mm / 40mm" for its Initiates and Sword Brother
    "Dark Commune",  # "28.5mm / 32mm" for all but the Demagogue
    "Kroot Farstalkers",  # "28.5mm / 32mm" for the Farstalkers and the Kill-broker
    "Screamers",  # "Small Flying Base", no size given
}
ROUND_SIZES = {25, 28.5, 32, 40, 50, 60, 80, 90, 100, 130, 160}  # the guide's round bases


def test_base_sizes_are_sourced_for_at_least_95_percent_of_units() -> None:
    sourced = [ds.name for _, ds in UNITS if ds.base is not None and ds.base_source]
    assert len(sourced) / len(UNITS) >= 0.95
    assert {ds.name for _, ds in UNITS if not ds.base_source} == UNSOURCED_BASES
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert all(name in readme for name in UNSOURCED_BASES)


def test_no_base_size_without_its_source() -> None:
    """A base size in a bundled pack is a sourced fact, never a placeholder."""
    assert [ds.name for _, ds in UNITS if ds.base is not None and not ds.base_source] == []
    for faction in CATALOG.all():
        if any(ds.base_source for ds in faction.pack.units):
            assert faction.pack.base_source, faction.pack.faction


@pytest.mark.parametrize("faction,ds", UNITS, ids=[f"{f}/{d.name}" for f, d in UNITS])
def test_base_sizes_are_real_sizes(faction: str, ds: object) -> None:
    for owner in [ds, *ds.models]:  # type: ignore[attr-defined]
        if owner.base is None:
            continue
        if owner.base_oval:
            long, short = owner.base_oval
            assert long > short and owner.base == round(math.sqrt(long * short), 1)
        else:
            assert owner.base in ROUND_SIZES, (owner.name, owner.base)


def test_models_of_one_kind_share_a_base() -> None:
    """The placeholder bug: Ogryn Bodyguard on 25 mm beside Ogryn on 40 mm."""
    units = {ds.name: ds for _, ds in UNITS}
    assert units["Ogryn Bodyguard"].base == units["Ogryn Squad"].base == 40
    assert units["Nork Deddog"].base == 40


def test_check_flags_an_oval_base_without_its_round_equivalent(tmp_path: Path) -> None:
    pack = yaml.safe_load((REPO / "datasheets" / "tyranids.yaml").read_text(encoding="utf-8"))
    pack["units"] = [u for u in pack["units"] if u["name"] == "Lictor"]
    pack["units"][0].update({"base": 50, "base_oval": [75, 42]})
    pack["detachments"] = []
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(pack), encoding="utf-8")
    faction = Catalog([tmp_path]).faction("Tyranids")
    assert faction is not None
    assert any("round equivalent" in line for line in check_faction(faction))
