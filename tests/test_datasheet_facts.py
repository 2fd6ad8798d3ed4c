"""Facts of every bundled datasheet checked by class: each test runs over all units, so one wrong
entry of a kind fails it (issue 13: datasheet corrections and base sizes)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml
from conftest import REPO

from bagm.data.packs import Catalog
from bagm.roster.packcheck import check_faction

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


# --- datasheet corrections: each class of error, over every unit ----------------------------


def _units(name: str) -> object:
    return next(ds for _, ds in UNITS if ds.name == name)


def test_every_unit_has_model_profiles_and_carries_a_weapon() -> None:
    """Wolf Guard Headtakers carried nothing by default (never shot or fought); Assault Marines
    had no profiles at all."""
    assert [ds.name for _, ds in UNITS if not ds.models] == []
    assert [ds.name for _, ds in UNITS if ds.weapons and not any(w.default for w in ds.weapons)] \
        == []


def test_no_reference_profile_is_carried_by_default() -> None:
    """Pink and Blue Horrors shot the "(ref. only)" flames of the Horrors they split into."""
    assert [(ds.name, w.name) for _, ds in UNITS for w in ds.weapons
            if w.default and "ref. only" in w.name.lower()] == []
    pink = {w.name for w in _units("Pink Horrors").weapons if w.default}  # type: ignore[attr-defined]
    assert pink == {"Coruscating Pink flames", "Pink claws"}


def test_model_counts_add_up_to_every_costed_size() -> None:
    """Chaplain Grimaldus played as four Grimalduses, the Brôkhyr Iron-master as five E-COGs:
    the counts of a unit's profiles must make each size the Field Manual costs."""
    bad = []
    for _, ds in UNITS:
        spans = []
        for m in ds.models:
            if m.count is None:
                break
            lo, _, hi = m.count.partition("-")
            spans.append((int(lo), int(hi or lo)))
        else:
            if spans and any(not sum(a for a, _ in spans) <= n <= sum(b for _, b in spans)
                             for n in ds.points):
                bad.append(ds.name)
    assert bad == []
    counts = {m.name: m.count for m in _units("Chaplain Grimaldus").models}  # type: ignore[attr-defined]
    assert counts == {"Grimaldus": "1", "Cenobyte Servitor": "3"}


@pytest.mark.parametrize("unit,model,save,melee", [
    ("Wulfen with Storm Shields", "Wulfen", 4, None),
    ("Hearthkyn Warriors", "Hearthkyn Warriors", 5, None),
    ("Einhyr Hearthguard", "Einhyr Hearthguard", 5, None),
    ("Storm Guardians", "Storm Guardian", 5, None),
    ("Einhyr Champion", "Einhyr Champion", 4, None), ("Wyches", "Wyches", 6, 4),
    ("Howling Banshees", "Howling Banshee", 5, 4), ("Judiciar", "Judiciar", None, 4),
])
def test_invulnerable_saves_from_wargear_and_against_melee(unit: str, model: str, save: int | None,
                                                           melee: int | None) -> None:
    m = {m.name: m for m in _units(unit).models}[model]  # type: ignore[attr-defined]
    assert (m.invuln, m.invuln_melee) == (save, melee)


def test_melee_only_saves_are_better_than_the_all_round_one() -> None:
    assert [(ds.name, m.name) for _, ds in UNITS for m in ds.models if m.invuln_melee is not None
            and m.invuln is not None and m.invuln_melee >= m.invuln] == []


def test_wounds_raised_by_wargear_and_weapon_profiles() -> None:
    assert {m.name: m.W for m in _units("Custodian Guard").models}["Custodian Guard (Shield)"] == 4  # type: ignore[attr-defined]
    assert _units("Bullgryn Squad").models[0].W == 4  # type: ignore[attr-defined]
    pod = {w.name: w for w in _units("Crisis Fireknife Battlesuits").weapons}["Missile pod"]  # type: ignore[attr-defined]
    assert pod.skill == 4 and pod.default


def test_every_correction_says_why_and_holds() -> None:
    fixes = [(ds.name, c) for _, ds in UNITS for c in ds.corrections]
    assert fixes and all(len(c.note) > 30 for _, c in fixes)
    for faction in CATALOG.all():  # check_faction holds each correction against its target
        assert [x for x in check_faction(faction) if "correction" in x] == []


def test_half_size_points_follow_the_mustering_rule() -> None:
    """Mustering: a size the Field Manual only costs at twice that size costs half, rounding
    up. Blood Claws, Grey Hunters, Skitarii Rangers and Vanguard at 5 models: 68, 83, 43, 48
    (the mustering reference's 70, 85, 45, 50 round to 5, which no rule says)."""
    from bagm.roster.points import points_for

    expected = {"Blood Claws": 68, "Grey Hunters": 83, "Skitarii Rangers": 43,
                "Skitarii Vanguard": 48}
    assert {n: points_for(_units(n).points, 5) for n in expected} == expected  # type: ignore[attr-defined]
    # the price is derived from the 10-model entry, never written by hand beside it
    assert all(5 not in _units(n).points for n in expected)  # type: ignore[attr-defined]


def test_black_templars_pay_their_supplement_prices(tmp_path: Path) -> None:
    """Munitorum Field Manual 4.3, Codex Supplement: Black Templars: Sternguard Veteran Squad
    85/170 and Terminator Squad 175/330, not Codex: Space Marines' 100/200 and 170/340."""
    from bagm.roster.validate import validate_path

    assert _units("Sternguard Veteran Squad").supplement_points == {  # type: ignore[attr-defined]
        "BLACK TEMPLARS": {5: 85, 10: 170}}
    assert _units("Terminator Squad").supplement_points == {  # type: ignore[attr-defined]
        "BLACK TEMPLARS": {5: 175, 10: 330}}
    roster = tmp_path / "bt.yaml"
    for chapter, price in (("Marshal", 85), ("Captain", 100)):
        roster.write_text(f"faction: Adeptus Astartes\ndetachment: Shield of the Void\nunits:\n"
                          f"  - unit: {chapter}\n  - unit: Sternguard Veteran Squad\n"
                          f"    models: 5\n", encoding="utf-8")
        report = validate_path(roster, CATALOG)
        points = {u.name: u.points for u in report.units}
        assert points["Sternguard Veteran Squad"] == price, (chapter, report.findings)


BSDATA = REPO.parent / "shared" / "reference" / "bsdata-wh40k-10e"
FILES = sorted((REPO / "datasheets").glob("*.yaml"))
# optional wargear whose invulnerable save a plain roster does not have (each is an option on
# its datasheet); the importer reports it and records nothing
OPTIONAL_SAVES = {
    ("Assault Marines", "Astartes Shield"), ("Lieutenant", "Storm Shield"),
    ("Vanguard Veteran Squad with Jump Packs", "Storm Shield"),
    ("Deathwatch Veterans", "Astartes shield"), ("Wulfen with Storm Shields", "Storm Shield"),
    ("Wraithblades", "Forceshield"), ("Dire Avengers", "Shimmershield"),
    ("Ogryn Bodyguard", "Brute Shield"), ("Bullgryn Squad", "Brute Shield"),
    ("Lychguard", "Dispersion Shield"),
}


@pytest.mark.skipif(not BSDATA.is_dir(), reason="BattleScribe catalogues absent")
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_re_import_keeps_every_fix(path: Path, tmp_path: Path) -> None:
    """Each pack is exactly what `bagm data import-bsdata` writes from the catalogues (with the
    recorded corrections), so the fixes live in the importer and survive a re-import; no save is
    left unread except on optional wargear."""
    from bagm.io.bsdata import update_pack

    out = tmp_path / path.name
    report = update_pack(path, BSDATA, out)
    assert out.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    assert not [w for w in report.warnings if "conditional invulnerable" in w
                or "correction" in w]
    optional = {tuple(w.removesuffix(")").split(": invulnerable save of optional wargear not "
                                                 "recorded (")) for w in report.warnings
                if "optional wargear" in w}
    assert optional <= OPTIONAL_SAVES
