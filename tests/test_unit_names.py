"""A unit name bagm's pack for the roster's faction lacks (issue 18, section 3): another
faction's unit names its faction, a real datasheet Boarding Actions does not allow is said to
be one, only a name bagm has never heard of is "unknown"; messages use the book's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REFERENCE

from bagm.data.names import norm
from bagm.data.packs import Catalog
from bagm.io.yamlsafe import InputError
from bagm.roster.model import load_roster
from bagm.roster.mustering import plain_note
from bagm.roster.validate import validate

ROSTER = """\
faction: Adeptus Astartes
detachment: Boarding Strike
units:
  - unit: Captain
    warlord: true
  - unit: {}
"""


def finding(tmp_path: Path, unit: str) -> tuple[str, str]:
    path = tmp_path / "r.yaml"
    path.write_text(ROSTER.format(unit), encoding="utf-8")
    report = validate(load_roster(path), Catalog())
    found = [f for f in report.findings if f.line == 6]
    assert len(found) == 1, report.findings
    return found[0].code, found[0].message


def test_another_factions_unit_names_its_faction(tmp_path: Path) -> None:
    code, message = finding(tmp_path, "Boyz")
    assert code == "BA111"
    assert message == ("Boyz is a unit of Orks, not of Adeptus Astartes: a Boarding Patrol has "
                       "one Army Faction; remove it")


@pytest.mark.parametrize("unit, army", [("Venerable Land Raider", "Adeptus Custodes"),
                                        ("Commander in Coldstar Battlesuit", "T'au Empire"),
                                        ("Knight Paladin", "Imperial Knights")])
def test_a_real_datasheet_boarding_actions_does_not_allow(tmp_path: Path, unit: str,
                                                          army: str) -> None:
    code, message = finding(tmp_path, unit)
    assert code == "BA112"
    assert message == (f"{unit} is a Warhammer 40,000 datasheet ({army}) that no Boarding "
                       "Actions Detachment includes; remove it")


def test_only_a_name_never_heard_of_is_unknown(tmp_path: Path) -> None:
    code, message = finding(tmp_path, "Intercesor Squad")
    assert code == "BA110" and "did you mean 'Intercessor Squad'" in message


def test_shape_errors_speak_of_units_not_list_indexes(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("faction: Orks\ndetachment: Kaptin Killers\nunits:\n  - unit: Warboss\n"
                    "  - {unit: Nobz, models: '10'}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_roster(path)
    assert err.value.message == "unit 2's 'models' must be a whole number (got '10')" or \
        err.value.message.startswith("unit 2's 'models' ")
    assert "units.1" not in str(err.value)


def test_rule_notes_leave_out_the_source_data_field_names() -> None:
    assert plain_note("mustering keywordRatio: Kroot Hounds cannot outnumber Kroot Carnivores") \
        == "Kroot Hounds cannot outnumber Kroot Carnivores"
    assert plain_note("mustering canTakeEnhancement") is None
    assert plain_note("second transcription: max 2") == "second transcription: max 2"
    for faction in Catalog().all():  # no finding of any bundled rule quotes a field name
        for det in faction.pack.detachments:
            for rule in det.rules:
                note = plain_note(rule.note) or ""
                assert not re.search(r"\b[a-z]+[A-Z][a-z]+[A-Za-z]*\b", note), (det.name, note)


MFM = REFERENCE / "mfm" / "MFM4.3.txt"


@pytest.mark.skipif(not MFM.is_file(), reason="the shared reference (MFM) is not here")
def test_every_listed_datasheet_is_in_the_field_manual_and_no_pack() -> None:
    text = norm(MFM.read_text(encoding="utf-8").replace("\n", " "))
    catalog = Catalog()
    packs = {norm(n) for f in catalog.all() for ds in f.pack.units
             for n in (ds.name, *ds.aliases)}
    import yaml

    listed = yaml.safe_load((Path(__import__("bagm.data", fromlist=["x"]).__file__).parent
                             / "elsewhere.yaml").read_text(encoding="utf-8"))["factions"]
    for army, names in listed.items():
        for name in names:
            assert norm(name) in text, (army, name)
            assert norm(name) not in packs, (army, name)
