"""Property tests: random and mutated rosters never crash the loader or the validator."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bagm.data.packs import Catalog
from bagm.io.yamlsafe import InputError
from bagm.roster.model import load_roster
from bagm.roster.squads import form_boarding_squads
from bagm.roster.validate import validate

CATALOG = Catalog([FIXTURES / "packs", FIXTURES / "packs_other"])
NAMES = ["Lord Commander", "Hero Prime", "Tech Adept", "Unarmed Sage", "Line Squad",
         "Heavy Squad", "Bracket Squad", "Red Guard", "Blue Guard", "Warrior Beast",
         "Hound Pack", "Stranger", "Cherub", "Nobody"]
ENHANCEMENTS = [None, "Iron Will", "Gear Sense", "Trademark Weapon", "Peerless Leader", "Bogus"]

unit = st.fixed_dictionaries(
    {"unit": st.sampled_from(NAMES)},
    optional={"models": st.integers(1, 12), "warlord": st.booleans(),
              "enhancement": st.sampled_from(ENHANCEMENTS),
              "weapon": st.sampled_from(["Storm bolter", "Flamer", "Power sword", "X"]),
              "label": st.sampled_from(["A", "B", "a"])})
roster = st.fixed_dictionaries(
    {"faction": st.sampled_from(["Test Legion", "TL", "Other Faction", "Nope"]),
     "detachment": st.sampled_from(["Test Strike", "Small Detachment", "Other Raid", "Nope"]),
     "units": st.lists(unit, max_size=10)},
    optional={"edition": st.sampled_from([2023, 2024]), "battle_ready": st.booleans()})

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(roster)
def test_validator_never_crashes(data: dict) -> None:
    report = validate(load_roster("r.yaml", yaml.safe_dump(data, sort_keys=False)), CATALOG)
    assert report.valid == (not any(f.severity.value == "error" for f in report.findings))
    assert report.points == sum(u.points or 0 for u in report.units)
    if report.points > 500:
        assert not report.valid
    for f in report.findings:
        assert f.line is None or f.line >= 1
    squads = form_boarding_squads(report.path, report.units)
    assert all(s.models != 10 for s in squads.units)
    assert squads.points >= report.points


@SETTINGS
@given(roster, st.data())
def test_mutated_text_is_refused_cleanly(data: dict, draw) -> None:
    text = yaml.safe_dump(data, sort_keys=False)
    pos = draw.draw(st.integers(0, max(0, len(text) - 1)))
    junk = draw.draw(st.text(min_size=0, max_size=5))
    mutated = text[:pos] + junk + text[pos + draw.draw(st.integers(0, 5)):]
    try:
        report = validate(load_roster("m.yaml", mutated), CATALOG)
    except InputError as exc:
        assert str(exc).startswith("m.yaml")
    else:
        assert isinstance(report.valid, bool)


@SETTINGS
@given(st.binary(max_size=200))
def test_random_bytes(tmp_path_factory, blob: bytes) -> None:
    path = tmp_path_factory.mktemp("b") / "b.yaml"
    path.write_bytes(blob)
    try:
        load_roster(path)
    except InputError:
        pass


def test_catalog_fixture_exists() -> None:
    assert Path(FIXTURES / "packs" / "testing.yaml").is_file()


# --- the roster shape checker agrees with pydantic on the same classes ---------------------

from bagm.data.schema import adapter  # noqa: E402
from bagm.io.shape import ShapeError, build  # noqa: E402
from bagm.roster.model import RosterFile  # noqa: E402

scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 3000), st.text(max_size=4),
                   st.floats(allow_nan=False))
# text keys only: JSON (how pydantic is fed here) turns every key into text
wargear = st.dictionaries(st.text(max_size=3), st.one_of(
    scalar, st.dictionaries(st.text(max_size=3), st.one_of(scalar, st.integers(0, 3)),
                            max_size=2)), max_size=3)
loose_unit = st.dictionaries(st.sampled_from(["unit", "models", "warlord", "label", "enhancement",
                                              "weapon", "wargear", "modles"]),
                             st.one_of(scalar, wargear), max_size=5)
loose_roster = st.dictionaries(
    st.sampled_from(["faction", "detachment", "edition", "battle_ready", "name", "units", "x"]),
    st.one_of(scalar, st.lists(st.one_of(loose_unit, scalar), max_size=3)), max_size=6)


@SETTINGS
@given(st.one_of(roster, loose_roster))
def test_shape_checker_agrees_with_pydantic(data: dict) -> None:
    from pydantic import ValidationError

    try:
        ours = build(RosterFile, data)
    except ShapeError:
        ours = None
    try:
        # JSON mode: strict dataclasses accept mappings there, as a YAML file gives them
        theirs = adapter(RosterFile).validate_json(json.dumps(data))
    except ValidationError:
        theirs = None
    assert (ours is None) == (theirs is None)
    if ours is not None:
        assert ours.faction == theirs.faction and ours.edition == theirs.edition
        assert [vars(u) for u in ours.units] == [vars(u) for u in theirs.units]
