"""The BattleScribe catalogue reader and pack importer (``bagm.io.bsdata``).

Small hand-written catalogues (real-shaped: namespace, shared entries across a game system, a
faction catalogue and a linked library) test the reading; the real BSData catalogues are read
when ``../shared/reference`` exists.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import cpu_timed, raw_zip
from hypothesis import given, settings
from hypothesis import strategies as st

from bagm.data import models
from bagm.data.schema import validate
from bagm.io.bsdata import (
    CatalogueError,
    catalogues_for_faction,
    dump_pack,
    parse_ap,
    parse_dice,
    parse_range,
    parse_skill,
    parse_weapon_keywords,
    read_catalogues,
    update_pack,
)

REFERENCE = Path(__file__).parents[2] / "shared" / "reference"
BSDATA = REFERENCE / "bsdata-wh40k-10e"

PROSE = "must never be copied"  # every description in the fixtures contains this

GST = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<gameSystem xmlns="http://www.battlescribe.net/schema/gameSystemSchema" id="sys-1" name="Test 40k" revision="1" battleScribeVersion="2.03" type="gameSystem">
  <profileTypes>
    <profileType id="pt-unit" name="Unit"/>
    <profileType id="pt-ranged" name="Ranged Weapons"/>
    <profileType id="pt-abil" name="Abilities"/>
    <profileType id="pt-melee" name="Melee Weapons"/>
  </profileTypes>
  <categoryEntries>
    <categoryEntry id="cat-inf" name="Infantry" hidden="false"/>
  </categoryEntries>
  <sharedRules>
    <rule id="rule-ds" name="Deep Strike" hidden="false"><description>Deep Strike text that must never be copied.</description></rule>
    <rule id="rule-leader" name="Leader" hidden="false"><description>Leader text that must never be copied.</description></rule>
    <rule id="rule-fnp" name="Feel No Pain" hidden="false"><description>FNP text that must never be copied.</description></rule>
  </sharedRules>
  <sharedProfiles>
    <profile id="prof-inv4" name="Invulnerable Save (4+)" typeId="pt-abil" typeName="Abilities" hidden="false">
      <characteristics><characteristic name="Description" typeId="c-desc">This model has a 4+ invulnerable save (this must never be copied).</characteristic></characteristics>
    </profile>
  </sharedProfiles>
</gameSystem>
"""

LIBRARY = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" library="true" id="lib-1" name="Test - Library" gameSystemId="sys-1" revision="1" battleScribeVersion="2.03" type="catalogue">
  <sharedSelectionEntries>
    <selectionEntry type="upgrade" import="true" name="Storm bolter" hidden="false" id="w-sb">
      <profiles>
        <profile name="Storm bolter" typeId="pt-ranged" typeName="Ranged Weapons" hidden="false" id="p-sb">
          <characteristics>
            <characteristic name="Range" typeId="t1">24&quot;</characteristic>
            <characteristic name="A" typeId="t2">2</characteristic>
            <characteristic name="BS" typeId="t3">3+</characteristic>
            <characteristic name="S" typeId="t4">4</characteristic>
            <characteristic name="AP" typeId="t5">0</characteristic>
            <characteristic name="D" typeId="t6">1</characteristic>
            <characteristic name="Keywords" typeId="t7">Rapid Fire 2</characteristic>
          </characteristics>
        </profile>
      </profiles>
      <infoLinks>
        <infoLink name="Rapid Fire" hidden="false" type="rule" id="il-rf" targetId="rule-rf"/>
      </infoLinks>
    </selectionEntry>
    <selectionEntry type="upgrade" import="true" name="Plasma gun" hidden="false" id="w-pg">
      <profiles>
        <profile name="➤ Plasma gun - standard" typeId="pt-ranged" typeName="Ranged Weapons" hidden="false" id="p-pg1">
          <characteristics>
            <characteristic name="Range" typeId="t1">24&quot;</characteristic>
            <characteristic name="A" typeId="t2">1</characteristic>
            <characteristic name="BS" typeId="t3">3+</characteristic>
            <characteristic name="S" typeId="t4">7</characteristic>
            <characteristic name="AP" typeId="t5">-2</characteristic>
            <characteristic name="D" typeId="t6">1</characteristic>
            <characteristic name="Keywords" typeId="t7">Rapid Fire 1</characteristic>
          </characteristics>
        </profile>
        <profile name="➤ Plasma gun - supercharge" typeId="pt-ranged" typeName="Ranged Weapons" hidden="false" id="p-pg2">
          <characteristics>
            <characteristic name="Range" typeId="t1">24&quot;</characteristic>
            <characteristic name="A" typeId="t2">1</characteristic>
            <characteristic name="BS" typeId="t3">3+</characteristic>
            <characteristic name="S" typeId="t4">8</characteristic>
            <characteristic name="AP" typeId="t5">-3</characteristic>
            <characteristic name="D" typeId="t6">2</characteristic>
            <characteristic name="Keywords" typeId="t7">Rapid Fire 1, Hazardous</characteristic>
          </characteristics>
        </profile>
      </profiles>
    </selectionEntry>
    <selectionEntry type="upgrade" import="true" name="Incinerator" hidden="false" id="w-inc">
      <profiles>
        <profile name="Incinerator" typeId="pt-ranged" typeName="Ranged Weapons" hidden="false" id="p-inc">
          <characteristics>
            <characteristic name="Range" typeId="t1">12&quot;</characteristic>
            <characteristic name="A" typeId="t2">D6</characteristic>
            <characteristic name="BS" typeId="t3">N/A</characteristic>
            <characteristic name="S" typeId="t4">6</characteristic>
            <characteristic name="AP" typeId="t5">-1</characteristic>
            <characteristic name="D" typeId="t6">1</characteristic>
            <characteristic name="Keywords" typeId="t7">Ignores Cover, Torrent</characteristic>
          </characteristics>
        </profile>
      </profiles>
    </selectionEntry>
    <selectionEntry type="upgrade" import="true" name="Force sword" hidden="false" id="w-fs">
      <profiles>
        <profile name="Force sword" typeId="pt-melee" typeName="Melee Weapons" hidden="false" id="p-fs">
          <characteristics>
            <characteristic name="Range" typeId="m1">Melee</characteristic>
            <characteristic name="A" typeId="m2">D6+1</characteristic>
            <characteristic name="WS" typeId="m3">2+</characteristic>
            <characteristic name="S" typeId="m4">6</characteristic>
            <characteristic name="AP" typeId="m5">-2</characteristic>
            <characteristic name="D" typeId="m6">2</characteristic>
            <characteristic name="Keywords" typeId="m7">Psychic, Anti-Infantry 4+, Sustained Hits D3</characteristic>
          </characteristics>
        </profile>
      </profiles>
    </selectionEntry>
    <selectionEntry type="upgrade" import="true" name="Close combat weapon" hidden="false" id="w-ccw">
      <profiles>
        <profile name="Close combat weapon" typeId="pt-melee" typeName="Melee Weapons" hidden="false" id="p-ccw">
          <characteristics>
            <characteristic name="Range" typeId="m1">Melee</characteristic>
            <characteristic name="A" typeId="m2">3</characteristic>
            <characteristic name="WS" typeId="m3">3+</characteristic>
            <characteristic name="S" typeId="m4">4</characteristic>
            <characteristic name="AP" typeId="m5">0</characteristic>
            <characteristic name="D" typeId="m6">1</characteristic>
            <characteristic name="Keywords" typeId="m7">-</characteristic>
          </characteristics>
        </profile>
      </profiles>
    </selectionEntry>
    <selectionEntry type="upgrade" import="true" name="Staff of light" hidden="false" id="w-staff">
      <profiles>
        <profile name="Staff of light" typeId="pt-ranged" typeName="Ranged Weapons" hidden="false" id="p-st1">
          <characteristics>
            <characteristic name="Range" typeId="t1">18&quot;</characteristic>
            <characteristic name="A" typeId="t2">3</characteristic>
            <characteristic name="BS" typeId="t3">4+</characteristic>
            <characteristic name="S" typeId="t4">5</characteristic>
            <characteristic name="AP" typeId="t5">-1</characteristic>
            <characteristic name="D" typeId="t6">1</characteristic>
            <characteristic name="Keywords" typeId="t7">-</characteristic>
          </characteristics>
        </profile>
        <profile name="Staff of light" typeId="pt-melee" typeName="Melee Weapons" hidden="false" id="p-st2">
          <characteristics>
            <characteristic name="Range" typeId="m1">Melee</characteristic>
            <characteristic name="A" typeId="m2">2</characteristic>
            <characteristic name="WS" typeId="m3">4+</characteristic>
            <characteristic name="S" typeId="m4">5</characteristic>
            <characteristic name="AP" typeId="m5">-1</characteristic>
            <characteristic name="D" typeId="m6">1</characteristic>
            <characteristic name="Keywords" typeId="m7">-</characteristic>
          </characteristics>
        </profile>
      </profiles>
    </selectionEntry>
  </sharedSelectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup name="Crusade" id="g-crusade" hidden="false">
      <selectionEntries>
        <selectionEntry type="upgrade" name="Relic blade" hidden="false" id="w-relic">
          <profiles>
            <profile name="Relic blade" typeId="pt-melee" typeName="Melee Weapons" hidden="false" id="p-relic">
              <characteristics>
                <characteristic name="Range" typeId="m1">Melee</characteristic>
                <characteristic name="A" typeId="m2">9</characteristic>
                <characteristic name="WS" typeId="m3">2+</characteristic>
                <characteristic name="S" typeId="m4">9</characteristic>
                <characteristic name="AP" typeId="m5">-4</characteristic>
                <characteristic name="D" typeId="m6">3</characteristic>
                <characteristic name="Keywords" typeId="m7">-</characteristic>
              </characteristics>
            </profile>
          </profiles>
        </selectionEntry>
      </selectionEntries>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
  <sharedRules>
    <rule id="rule-rf" name="Rapid Fire" hidden="false"><description>Rapid Fire text that must never be copied.</description></rule>
  </sharedRules>
</catalogue>
"""

CATALOGUE = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" library="false" id="cat-1" name="Imperium - Test Knights" gameSystemId="sys-1" revision="3" battleScribeVersion="2.03" type="catalogue">
  <catalogueLinks>
    <catalogueLink type="catalogue" name="Test - Library" id="cl-1" targetId="lib-1" importRootEntries="false"/>
  </catalogueLinks>
  <entryLinks>
    <entryLink import="true" name="Brother-Knight Captain" hidden="false" type="selectionEntry" id="el-1" targetId="u-cap"/>
    <entryLink import="true" name="Strike Team" hidden="false" type="selectionEntry" id="el-2" targetId="u-strike"/>
  </entryLinks>
  <selectionEntries>
    <selectionEntry type="model" import="true" name="Lexmechanic" hidden="false" id="u-lex">
      <profiles>
        <profile name="Lexmechanic" typeId="pt-unit" typeName="Unit" hidden="false" id="p-lex">
          <characteristics>
            <characteristic name="M" typeId="u1">-</characteristic>
            <characteristic name="T" typeId="u2">3</characteristic>
            <characteristic name="SV" typeId="u3">4+</characteristic>
            <characteristic name="W" typeId="u4">3</characteristic>
            <characteristic name="LD" typeId="u5">7+</characteristic>
            <characteristic name="OC" typeId="u6">1</characteristic>
          </characteristics>
        </profile>
      </profiles>
      <entryLinks>
        <entryLink import="true" name="Staff of light" hidden="false" id="el-l1" type="selectionEntry" targetId="w-staff">
          <constraints><constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c20"/></constraints>
        </entryLink>
      </entryLinks>
      <selectionEntryGroups>
        <selectionEntryGroup name="Pistol" id="g-pistol" hidden="false" defaultSelectionEntryId="removed-long-ago">
          <constraints>
            <constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c21"/>
            <constraint type="max" value="1" field="selections" scope="parent" shared="true" id="c22"/>
          </constraints>
          <entryLinks>
            <entryLink import="true" name="Incinerator" hidden="false" id="el-l2" type="selectionEntry" targetId="w-inc"/>
            <entryLink import="true" name="Storm bolter" hidden="false" id="el-l3" type="selectionEntry" targetId="w-sb"/>
          </entryLinks>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntries>
    <selectionEntry type="model" import="true" name="Brother-Knight Captain" hidden="false" id="u-cap">
      <categoryLinks>
        <categoryLink targetId="cat-inf" id="cl-a" primary="false" name="Infantry"/>
        <categoryLink targetId="cat-char" id="cl-b" primary="true" name="Character"/>
        <categoryLink targetId="cat-fac" id="cl-c" primary="false" name="Faction: Test Knights"/>
        <categoryLink targetId="cat-conf" id="cl-d" primary="false" name="Configuration"/>
      </categoryLinks>
      <profiles>
        <profile name="Brother-Knight Captain" typeId="pt-unit" typeName="Unit" hidden="false" id="p-cap">
          <characteristics>
            <characteristic name="M" typeId="u1">5&quot;</characteristic>
            <characteristic name="T" typeId="u2">5</characteristic>
            <characteristic name="SV" typeId="u3">2+</characteristic>
            <characteristic name="W" typeId="u4">6</characteristic>
            <characteristic name="LD" typeId="u5">6+</characteristic>
            <characteristic name="OC" typeId="u6">1</characteristic>
          </characteristics>
        </profile>
        <profile name="Hammerhand (Psychic)" typeId="pt-abil" typeName="Abilities" hidden="false" id="p-hh">
          <characteristics><characteristic name="Description" typeId="c-desc">Ability text that must never be copied.</characteristic></characteristics>
        </profile>
      </profiles>
      <infoLinks>
        <infoLink name="Leader" hidden="false" type="rule" id="il-1" targetId="rule-leader"/>
        <infoLink name="Deep Strike" hidden="false" type="rule" id="il-2" targetId="sys-1::rule-ds"/>
        <infoLink name="Invulnerable Save (4+)" hidden="false" type="profile" id="il-3" targetId="prof-inv4"/>
        <infoLink name="Feel No Pain" hidden="false" type="rule" id="il-4" targetId="rule-fnp">
          <modifiers><modifier type="append" value="5+" field="name"/></modifiers>
        </infoLink>
        <infoLink name="Detachment Rules" hidden="false" type="infoGroup" id="il-5" targetId="ig-det"/>
      </infoLinks>
      <selectionEntryGroups>
        <selectionEntryGroup name="Wargear" id="g-wargear" hidden="false">
          <selectionEntryGroups>
            <selectionEntryGroup name="Ranged weapon" id="g-ranged" hidden="false" defaultSelectionEntryId="el-sb">
              <constraints>
                <constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c1"/>
                <constraint type="max" value="1" field="selections" scope="parent" shared="true" id="c2"/>
              </constraints>
              <entryLinks>
                <entryLink import="true" name="Storm bolter" hidden="false" id="el-sb" type="selectionEntry" targetId="w-sb"/>
                <entryLink import="true" name="Incinerator" hidden="false" id="el-inc" type="selectionEntry" targetId="lib-1::w-inc"/>
              </entryLinks>
            </selectionEntryGroup>
          </selectionEntryGroups>
          <entryLinks>
            <entryLink import="true" name="Force sword" hidden="false" id="el-fs" type="selectionEntry" targetId="w-fs">
              <constraints>
                <constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c3"/>
                <constraint type="max" value="1" field="selections" scope="parent" shared="true" id="c4"/>
              </constraints>
            </entryLink>
          </entryLinks>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <entryLinks>
        <entryLink import="true" name="Crusade" hidden="false" id="el-cr" type="selectionEntryGroup" targetId="g-crusade"/>
      </entryLinks>
      <someFutureElement attr="ignored"><child/></someFutureElement>
    </selectionEntry>
    <selectionEntry type="unit" import="true" name="Strike Team" hidden="false" id="u-strike">
      <categoryLinks>
        <categoryLink targetId="cat-inf" id="cl-e" primary="false" name="Infantry"/>
        <categoryLink targetId="cat-bl" id="cl-f" primary="true" name="Battleline"/>
        <categoryLink targetId="cat-fac" id="cl-g" primary="false" name="Faction: Test Knights"/>
        <categoryLink targetId="cat-imp" id="cl-h" primary="false" name="Faction: Imperium"/>
      </categoryLinks>
      <profiles>
        <profile name="Strike Team" typeId="pt-unit" hidden="false" id="p-strike">
          <characteristics>
            <characteristic name="M" typeId="u1">6&quot;</characteristic>
            <characteristic name="T" typeId="u2">4</characteristic>
            <characteristic name="SV" typeId="u3">3+</characteristic>
            <characteristic name="W" typeId="u4">2</characteristic>
            <characteristic name="LD" typeId="u5">6+</characteristic>
            <characteristic name="OC" typeId="u6">2</characteristic>
          </characteristics>
        </profile>
        <profile name="Sanctifying Ritual" typeId="pt-abil" typeName="Abilities" hidden="false" id="p-sr">
          <characteristics><characteristic name="Description" typeId="c-desc">Ritual text that must never be copied.</characteristic></characteristics>
          <modifiers>
            <modifier type="set" value="true" field="hidden">
              <conditions><condition type="instanceOf" value="1" field="selections" scope="force" childId="boarding-actions" shared="true"/></conditions>
            </modifier>
          </modifiers>
        </profile>
      </profiles>
      <selectionEntryGroups>
        <selectionEntryGroup name="4-9 Knights" id="g-knights" hidden="false" defaultSelectionEntryId="m-knight">
          <constraints>
            <constraint type="min" value="4" field="selections" scope="parent" shared="true" id="c5"/>
            <constraint type="max" value="9" field="selections" scope="parent" shared="true" id="c6"/>
          </constraints>
          <selectionEntries>
            <selectionEntry type="model" import="true" name="Knight" hidden="false" id="m-knight">
              <entryLinks>
                <entryLink import="true" name="Storm bolter" hidden="false" id="el-k1" type="selectionEntry" targetId="w-sb">
                  <constraints><constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c7"/></constraints>
                </entryLink>
                <entryLink import="true" name="Force sword" hidden="false" id="el-k2" type="selectionEntry" targetId="w-fs">
                  <constraints><constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c8"/></constraints>
                </entryLink>
              </entryLinks>
            </selectionEntry>
            <selectionEntry type="model" import="true" name="Knight with Special Weapon" hidden="false" id="m-special">
              <constraints><constraint type="max" value="1" field="selections" scope="parent" shared="true" id="c9"/></constraints>
              <entryLinks>
                <entryLink import="true" name="Plasma gun" hidden="false" id="el-k3" type="selectionEntry" targetId="w-pg">
                  <constraints><constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c10"/></constraints>
                </entryLink>
                <entryLink import="true" name="Close combat weapon" hidden="false" id="el-k4" type="selectionEntry" targetId="w-ccw"/>
              </entryLinks>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
        <selectionEntryGroup name="Justicar" id="g-justicar" hidden="false">
          <selectionEntries>
            <selectionEntry type="model" import="true" name="Justicar" hidden="false" id="m-justicar">
              <constraints>
                <constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c11"/>
                <constraint type="max" value="1" field="selections" scope="parent" shared="true" id="c12"/>
              </constraints>
              <entryLinks>
                <entryLink import="true" name="Storm bolter" hidden="false" id="el-j1" type="selectionEntry" targetId="w-sb">
                  <constraints><constraint type="min" value="1" field="selections" scope="parent" shared="true" id="c13"/></constraints>
                </entryLink>
              </entryLinks>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <infoLinks>
        <infoLink name="Deep Strike" hidden="false" type="rule" id="il-6" targetId="rule-ds"/>
      </infoLinks>
    </selectionEntry>
  </sharedSelectionEntries>
  <sharedInfoGroups>
    <infoGroup name="Detachment Rules" id="ig-det" hidden="false">
      <infoLinks>
        <infoLink name="Only In One Detachment" id="il-det" hidden="false" type="rule" targetId="rule-det">
          <modifiers>
            <modifier type="set" value="true" field="hidden">
              <conditions><condition type="lessThan" value="1" field="selections" scope="force" childId="det-1" shared="true"/></conditions>
            </modifier>
          </modifiers>
        </infoLink>
      </infoLinks>
    </infoGroup>
  </sharedInfoGroups>
  <sharedRules>
    <rule id="rule-det" name="Only In One Detachment" hidden="false"><description>Detachment text that must never be copied.</description></rule>
  </sharedRules>
</catalogue>
"""


def catalogue_of(cat_id: str, name: str, entries: str) -> str:
    """A catalogue file of the test game system holding the selection entries ``entries``."""
    return ('<?xml version="1.0" encoding="UTF-8"?>'
            '<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" library="false" '
            f'id="{cat_id}" name="{name}" gameSystemId="sys-1" revision="1" '
            'battleScribeVersion="2.03" type="catalogue"><selectionEntries>'
            + entries + "</selectionEntries></catalogue>")


def read_test_catalogue(tmp_path: Path, name: str, text: str) -> dict:
    """The datasheets bagm reads from the catalogue ``text`` (file ``name``.cat beside the test
    game system)."""
    (tmp_path / "Test 40k.gst").write_text(GST, encoding="utf-8")
    (tmp_path / f"{name}.cat").write_text(text, encoding="utf-8")
    return read_catalogues([tmp_path / f"{name}.cat"])


@pytest.fixture
def catdir(tmp_path: Path) -> Path:
    d = tmp_path / "catalogues"
    d.mkdir()
    (d / "Test 40k.gst").write_text(GST, encoding="utf-8")
    (d / "Test - Library.cat").write_text(LIBRARY, encoding="utf-8")
    (d / "Imperium - Test Knights.cat").write_text(CATALOGUE, encoding="utf-8")
    return d


@pytest.fixture
def units(catdir: Path) -> dict:
    return read_catalogues([catdir / "Imperium - Test Knights.cat"])


# --- reading --------------------------------------------------------------------------------


def test_reads_the_catalogues_datasheets(units: dict) -> None:
    # root selectionEntries first, then the root entryLinks' targets
    assert list(units) == ["Lexmechanic", "Brother-Knight Captain", "Strike Team"]


def test_same_name_ranged_and_melee_profiles_and_a_stale_default(units: dict) -> None:
    lex = units["Lexmechanic"]
    assert lex["models"][0]["M"] is None  # "-"
    weapons = [(w["name"], w["type"], w.get("default", True)) for w in lex["weapons"]]
    # the group's default id names no entry: the first choice is the default, as in a builder
    # both profiles of the staff are kept; weapon names stay unique within a datasheet
    assert weapons == [("Staff of light", "ranged", True), ("Incinerator", "ranged", True),
                       ("Storm bolter", "ranged", False), ("Staff of light (melee)", "melee", True)]


def test_character_profile_keywords_and_invulnerable_save(units: dict) -> None:
    cap = units["Brother-Knight Captain"]
    assert cap["keywords"] == ["INFANTRY", "CHARACTER"]  # "Configuration" is not a keyword
    assert cap["faction_keywords"] == ["TEST KNIGHTS"]
    assert cap["models"] == [{"name": "Brother-Knight Captain", "M": 5, "T": 5, "Sv": 2, "W": 6,
                              "Ld": 6, "OC": 1, "invuln": 4, "count": "1"}]


def test_weapons_resolved_across_files_with_default_and_options(units: dict) -> None:
    weapons = {w["name"]: w for w in units["Brother-Knight Captain"]["weapons"]}
    assert set(weapons) == {"Storm bolter", "Incinerator", "Force sword"}  # no Crusade relic
    assert weapons["Storm bolter"] == {
        "name": "Storm bolter", "type": "ranged", "range": 24, "A": 2, "skill": 3, "S": 4, "AP": 0,
        "D": 1, "abilities": [{"name": "rapid fire", "value": 2}]}
    assert weapons["Incinerator"]["default"] is False  # the group's default is the storm bolter
    assert weapons["Incinerator"]["skill"] is None  # "N/A": a Torrent weapon
    sword = weapons["Force sword"]
    assert "default" not in sword and "range" not in sword
    assert sword["A"] == "D6+1" and sword["AP"] == -2
    assert sword["abilities"] == [{"name": "psychic"},
                                  {"name": "anti", "target": "INFANTRY", "value": 4},
                                  {"name": "sustained hits", "value": "D3"}]


def test_abilities_are_names_only(units: dict) -> None:
    cap = units["Brother-Knight Captain"]
    # rules with modifiers applied (Feel No Pain 5+); the invulnerable save is a number, not an
    # ability; a Detachment rule hidden unless that Detachment is chosen is left out
    assert cap["abilities"] == ["Hammerhand (Psychic)", "Leader", "Deep Strike", "Feel No Pain 5+"]
    # an ability hidden only in a Boarding Actions force is still on the datasheet
    assert units["Strike Team"]["abilities"] == ["Sanctifying Ritual", "Deep Strike"]


def test_no_description_text_anywhere(units: dict) -> None:
    text = yaml.safe_dump(units, allow_unicode=True)
    assert PROSE not in text
    assert "invulnerable save (" not in text.lower()


def test_squad_models_counts_and_multi_profile_weapons(units: dict) -> None:
    team = units["Strike Team"]
    assert team["keywords"] == ["INFANTRY", "BATTLELINE"]
    assert team["faction_keywords"] == ["TEST KNIGHTS", "IMPERIUM"]
    # the profile's type is found from its typeId when typeName is missing
    assert team["models"] == [{"name": "Strike Team", "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6,
                               "OC": 2, "count": "5-10"}]
    weapons = {w["name"]: w for w in team["weapons"]}
    # deduplicated by name; the two plasma profiles stay separate, without the "➤" marker
    assert list(weapons) == ["Storm bolter", "Plasma gun - standard", "Plasma gun - supercharge",
                             "Force sword", "Close combat weapon"]
    assert "default" not in weapons["Storm bolter"]
    assert weapons["Plasma gun - supercharge"]["default"] is False  # an optional model's gun
    assert weapons["Plasma gun - supercharge"]["abilities"] == [
        {"name": "rapid fire", "value": 1}, {"name": "hazardous"}]
    assert weapons["Close combat weapon"]["default"] is False
    assert "abilities" not in weapons["Close combat weapon"]  # "-" is no keyword


def test_unit_dicts_validate_against_the_pack_models(units: dict) -> None:
    for unit in units.values():
        sheet = validate(models.Datasheet, {**unit, "points": {1: 10}})
        assert sheet.models and sheet.weapons
        for weapon in unit["weapons"]:
            validate(models.Weapon, weapon)


def test_zipped_catalogue(catdir: Path) -> None:
    plain = catdir / "Imperium - Test Knights.cat"
    zipped = catdir / "Imperium - Test Knights.catz"
    with zipfile.ZipFile(zipped, "w") as zf:
        zf.writestr("Imperium - Test Knights.cat", plain.read_text(encoding="utf-8"))
    plain.unlink()
    assert list(read_catalogues([zipped])) == ["Lexmechanic", "Brother-Knight Captain",
                                                "Strike Team"]


def test_missing_linked_catalogue_is_not_fatal(catdir: Path) -> None:
    (catdir / "Test - Library.cat").unlink()
    units = read_catalogues([catdir / "Imperium - Test Knights.cat"])
    assert units["Brother-Knight Captain"]["weapons"] == []  # nothing to resolve them from
    assert units["Brother-Knight Captain"]["models"][0]["T"] == 5


# --- hostile and broken files ---------------------------------------------------------------

BOMB = """<?xml version="1.0"?>
<!DOCTYPE catalogue [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="x" name="&lol4;"/>
"""

XXE = """<?xml version="1.0"?>
<!DOCTYPE catalogue [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="x" name="&secret;"/>
"""


def test_entity_expansion_bomb_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bomb.cat"
    path.write_text(BOMB, encoding="utf-8")
    with pytest.raises(CatalogueError) as err:
        read_catalogues([path])
    assert err.value.path == str(path)
    assert "entity" in err.value.message and "billion laughs" in err.value.message
    assert str(path) in str(err.value)


def test_external_entity_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "xxe.cat"
    path.write_text(XXE, encoding="utf-8")
    with pytest.raises(CatalogueError) as err:
        read_catalogues([path])
    assert err.value.path == str(path)
    assert "external entity" in err.value.message and "/etc/passwd" in err.value.message


def test_bomb_next_to_real_catalogues_does_not_break_them(catdir: Path) -> None:
    (catdir / "Zz bomb.cat").write_text(BOMB, encoding="utf-8")
    assert len(read_catalogues([catdir / "Imperium - Test Knights.cat"])) == 3


@pytest.mark.parametrize("text, message", [
    ("<catalogue><unclosed></catalogue>", "not well-formed XML"),
    ("<roster xmlns='x'/>", "not the expected BattleScribe file"),
    ("", "not well-formed XML"),
])
def test_broken_files_raise_catalogue_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "broken.cat"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogueError, match=message):
        read_catalogues([path])


def test_missing_file_and_bad_archive(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="no such file"):
        read_catalogues([tmp_path / "nope.cat"])
    bad = tmp_path / "bad.catz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(CatalogueError, match="zip"):
        read_catalogues([bad])


def _zipped(name: str, data: bytes) -> bytes:
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr(name, data)
    return buf.getvalue()


def _declared(encoding: str) -> bytes:
    body = CATALOGUE.encode()
    return b'<?xml version="1.0" encoding="%s"?>\n' % encoding.encode() + body[body.index(b"<catalogue"):]


_ROOT = b'<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="x" name="x">'
# what the roster reader refuses, a catalogue reader refuses too (one shared reader, its limits)
HOSTILE_CATALOGUES = {
    "idna encoding": (".cat", lambda: _declared("idna"), "declares the encoding 'idna'"),
    "zlib encoding": (".cat", lambda: _declared("zlib"), "declares the encoding 'zlib'"),
    "encrypted member": (".catz", lambda: raw_zip(b"x.cat", CATALOGUE.encode(), flags=1),
                         "is encrypted"),
    "empty member name": (".catz", lambda: raw_zip(b"", CATALOGUE.encode()), "a member with no name"),
    "cheap archive, costly XML": (".catz", lambda: _zipped("x.cat", _ROOT + b"<a/>" * 1_000_000
                                                           + b"</catalogue>"), "is this a zip bomb?"),
    "too many elements": (".cat", lambda: _ROOT + b"<a/>" * 500_000 + b"</catalogue>",
                          "more than 400,000 XML elements"),
    "deep elements": (".cat", lambda: _ROOT + b"<a>" * 5_000 + b"</a>" * 5_000 + b"</catalogue>",
                      "nested more than 200 deep"),
    "huge tag": (".cat", lambda: b'<catalogue name="x" ' + b" ".join(
        b'a%d="1"' % i for i in range(300_000)) + b"/>", "XML tag longer"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_CATALOGUES))
def test_hostile_catalogues_are_refused_quickly(name: str, tmp_path: Path) -> None:
    suffix, make, message = HOSTILE_CATALOGUES[name]
    path = tmp_path / ("Imperium - Test Knights" + suffix)
    path.write_bytes(make())
    err, cpu = cpu_timed(lambda: read_catalogues([path]))
    assert isinstance(err, CatalogueError), err
    assert message in err.message and err.path == str(path), err.message
    assert cpu < 1.0, cpu


def test_special_files_are_refused_and_skipped(catdir: Path) -> None:
    """A FIFO is never opened (that would wait for a writer); next to real catalogues it is
    skipped while the folder is indexed."""
    import os

    fifo = catdir / "Zz pipe.cat"
    os.mkfifo(fifo)
    with pytest.raises(CatalogueError, match="not a regular file"):
        read_catalogues([fifo])
    assert len(read_catalogues([catdir / "Imperium - Test Knights.cat"])) == 3


# --- value and keyword parsing --------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("Rapid Fire 2", [{"name": "rapid fire", "value": 2}]),
    ("Rapid Fire D3", [{"name": "rapid fire", "value": "D3"}]),
    ("Sustained Hits D3", [{"name": "sustained hits", "value": "D3"}]),
    ("Sustained hits 1", [{"name": "sustained hits", "value": 1}]),
    ("Anti-Infantry 4+", [{"name": "anti", "target": "INFANTRY", "value": 4}]),
    ("Anti-VEHICLE 3+", [{"name": "anti", "target": "VEHICLE", "value": 3}]),
    ("Anti Vehicle 4+", [{"name": "anti", "target": "VEHICLE", "value": 4}]),
    ("Anti-Epic Hero 4+", [{"name": "anti", "target": "EPIC HERO", "value": 4}]),
    ("Lethal Hits", [{"name": "lethal hits"}]),
    ("Torrent", [{"name": "torrent"}]),
    ("Pistol", [{"name": "pistol"}]),
    ("Assault, Heavy, Blast", [{"name": "assault"}, {"name": "heavy"}, {"name": "blast"}]),
    ("Melta 2", [{"name": "melta", "value": 2}]),
    ("Devastating Wounds", [{"name": "devastating wounds"}]),
    ("Twin-linked", [{"name": "twin-linked"}]),
    ("Twin-Linked", [{"name": "twin-linked"}]),
    ("Twin Linked", [{"name": "twin-linked"}]),
    ("Ignores Cover", [{"name": "ignores cover"}]),
    ("Precision, Hazardous, Psychic", [{"name": "precision"}, {"name": "hazardous"},
                                       {"name": "psychic"}]),
    ("Extra Attacks", [{"name": "extra attacks"}]),
    ("Lance", [{"name": "lance"}]),
    ("Indirect Fire", [{"name": "indirect fire"}]),
    ("One Shot", [{"name": "one shot"}]),
    ("Rapid Fire D6+3", [{"name": "rapid fire", "value": "D6+3"}]),
    ("Bubblechukka", [{"name": "bubblechukka"}]),  # unknown keywords are kept by name
    ("-", []),
    ("", []),
    ("Blast, Blast", [{"name": "blast"}]),
    ("This weapon can target units that are not visible to the bearer.", []),  # prose: dropped
])
def test_weapon_keywords(text: str, expected: list) -> None:
    assert parse_weapon_keywords(text) == expected


@pytest.mark.parametrize("text, expected", [("3", 3), ("D6", "D6"), ("d6+1", "D6+1"),
                                            ("2D6", "2D6"), ("D3+3", "D3+3"), ("-", None)])
def test_dice(text: str, expected: object) -> None:
    assert parse_dice(text) == expected


def test_characteristics() -> None:
    assert parse_range('24"') == 24 and parse_range("Melee") is None and parse_range("N/A") is None
    assert parse_skill("3+") == 3 and parse_skill("N/A") is None and parse_skill("n/a") is None
    assert parse_ap("-1") == -1 and parse_ap("0") == 0 and parse_ap("-") == 0
    with pytest.raises(ValueError):
        parse_dice("lots")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_keyword_parser_never_fails_and_stays_short(text: str) -> None:
    for ability in parse_weapon_keywords(text):
        validate(models.WeaponAbility, ability)
        assert len(ability["name"]) <= 40


# --- which catalogues -----------------------------------------------------------------------


def test_catalogues_for_faction(tmp_path: Path) -> None:
    for name in ["Imperium - Grey Knights", "Imperium - Space Marines", "Imperium - Blood Angels",
                 "Necrons", "Tyranids", "Library - Tyranids", "Imperium - Astra Militarum",
                 "Imperium - Astra Militarum - Library", "Orks", "Chaos - Death Guard"]:
        (tmp_path / f"{name}.cat").write_text("<catalogue/>", encoding="utf-8")
    names = lambda faction: [p.stem for p in catalogues_for_faction(faction, tmp_path)]  # noqa: E731
    assert names("Grey Knights") == ["Imperium - Grey Knights"]
    assert names("Adeptus Astartes") == ["Imperium - Space Marines", "Imperium - Blood Angels"]
    assert names("Tyranids") == ["Tyranids", "Library - Tyranids"]
    assert names("astra militarum") == ["Imperium - Astra Militarum",
                                        "Imperium - Astra Militarum - Library"]
    assert names("Necrons") == ["Necrons"] and names("Orks") == ["Orks"]
    assert names("Death Guard") == ["Chaos - Death Guard"]  # found by name
    assert names("Squats") == []


# --- updating a pack ------------------------------------------------------------------------

PACK = """\
# Test Knights: a data pack
# (header comments survive)
faction: Test Knights
points_source: Munitorum Field Manual 4.3
notes:
  - "Kept as is."
units:
  - name: Brother Knight-Captain
    aliases: [Captain]
    keywords: [INFANTRY, CHARACTER]
    faction_keywords: [TEST KNIGHTS]
    points: {1: 90}
    base: 40
    abilities: [Old Name]
    adaptation: {loses: [Hammerhand]}
  - name: Strike Squad
    aliases: ["Strike Team"]
    keywords: [INFANTRY, BATTLELINE]
    faction_keywords: [TEST KNIGHTS]
    points: {5: 120, 10: 240}
    models:
      - {name: Strike Team, M: 6, T: 4, Sv: 3, W: 2, Ld: 6, OC: 2}
  - name: Purifier Squad
    keywords: [INFANTRY]
    faction_keywords: [TEST KNIGHTS]
    points: {5: 130}
    points_note: "not in the catalogue"
detachments: []
"""


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    path = tmp_path / "test_knights.yaml"
    path.write_text(PACK, encoding="utf-8")
    return path


def test_update_pack_fills_profiles_and_keeps_the_rest(pack: Path, catdir: Path) -> None:
    report = update_pack(pack, catdir)
    assert report.catalogues == ["Imperium - Test Knights.cat"]
    assert report.filled == ["Brother Knight-Captain", "Strike Squad"]
    assert report.matched_as == {"Brother Knight-Captain": "Brother-Knight Captain",
                                 "Strike Squad": "Strike Team"}
    assert [n for n, _ in report.not_found] == ["Purifier Squad"]
    assert report.written and not report.ok

    text = pack.read_text(encoding="utf-8")
    assert text.startswith("# Test Knights: a data pack\n# (header comments survive)\nfaction:")
    assert PROSE not in text
    data = yaml.safe_load(text)
    validate(models.FactionPack, data)
    cap, strike, purifier = data["units"]
    assert list(cap) == ["name", "aliases", "keywords", "faction_keywords", "points", "base",
                         "models", "weapons", "wargear", "abilities", "adaptation"]
    assert cap["points"] == {1: 90} and cap["adaptation"] == {"loses": ["Hammerhand"]}
    assert cap["abilities"][0] == "Hammerhand (Psychic)"  # replaced
    assert cap["models"][0]["invuln"] == 4
    assert strike["models"][0]["count"] == "5-10"
    assert purifier == yaml.safe_load(PACK)["units"][2]  # reported, not dropped or changed
    assert data["notes"] == ["Kept as is."] and data["detachments"] == []
    assert "      - {name: Brother-Knight Captain, M: 5, T: 5" in text  # compact flow style
    assert not [p for p in pack.parent.iterdir() if p.name.endswith(".tmp")]


def test_update_pack_is_deterministic_and_idempotent(pack: Path, catdir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.yaml"
    update_pack(pack, catdir, out)
    assert pack.read_text(encoding="utf-8") == PACK  # out_path given: the input is untouched
    first = out.read_bytes()
    update_pack(out, catdir)
    assert out.read_bytes() == first


def test_update_pack_with_explicit_catalogues_and_dry_run(pack: Path, catdir: Path) -> None:
    report = update_pack(pack, None, catalogues=[catdir / "Imperium - Test Knights.cat"],
                         dry_run=True)
    assert len(report.filled) == 2 and not report.written
    assert pack.read_text(encoding="utf-8") == PACK
    assert "not found: Purifier Squad" in report.summary()
    assert report.to_dict()["not_found"][0]["unit"] == "Purifier Squad"


def test_update_pack_errors(pack: Path, catdir: Path, tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="no catalogue found"):
        update_pack(pack, tmp_path)  # a folder without the faction's catalogue
    with pytest.raises(CatalogueError, match="no such pack"):
        update_pack(tmp_path / "missing.yaml", catdir)
    bad = tmp_path / "bad.yaml"
    bad.write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(CatalogueError, match="not a faction pack"):
        update_pack(bad, catdir)


def test_dump_pack_round_trips() -> None:
    data = {"faction": "X", "units": [{"name": "Ünit: with colon", "keywords": ["A"],
                                       "weapons": [{"name": "Gun", "type": "ranged", "A": "D6",
                                                    "abilities": [{"name": "anti", "target":
                                                                   "INFANTRY", "value": 4}]}]}]}
    text = dump_pack(data)
    assert yaml.safe_load(text) == data
    assert "Ünit" in text  # unicode written as is



def test_a_rewrite_keeps_every_unchanged_block_as_written() -> None:
    """An import rewrites ``units``; the hand-written tables (abilities, detachments) keep their
    comments and layout, and the file's header is kept (edits keep comments)."""
    from bagm.io.bsdata import pack_text

    original = ("# Header: kept\n\nfaction: X\n"
                "# what the abilities do (a heading comment, kept)\n"
                "abilities:\n  # a reading, kept\n  - {name: A, removed: true}\n"
                "units:\n  - name: Old\n"
                "detachments:\n  - name: D   # trailing comment, kept\n")
    data = yaml.safe_load(original)
    data["units"] = [{"name": "New", "keywords": ["INFANTRY"]}]
    text = pack_text(data, original)
    assert yaml.safe_load(text) == data
    assert text.startswith("# Header: kept\n")
    assert "# what the abilities do (a heading comment, kept)\nabilities:\n  # a reading, kept\n" \
        "  - {name: A, removed: true}\n" in text
    assert "  - name: D   # trailing comment, kept\n" in text
    assert "Old" not in text
    # nothing changed: the text comes back byte for byte
    assert pack_text(yaml.safe_load(original), original) == original
    # a changed hand-written block is written anew (its comments with it: it is no longer the same)
    data["abilities"] = [{"name": "B"}]
    assert "a reading, kept" not in pack_text(data, original)


# --- the real catalogues --------------------------------------------------------------------


@pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/reference is absent")
def test_real_grey_knights_brother_captain() -> None:
    units = read_catalogues(catalogues_for_faction("Grey Knights", BSDATA))
    captain = units["Brother-Captain"]
    (model,) = captain["models"]
    assert (model["T"], model["W"], model["Sv"], model["invuln"]) == (5, 6, 2, 4)
    bolter = next(w for w in captain["weapons"] if w["name"] == "Storm bolter")
    assert {"name": "rapid fire", "value": 2} in bolter["abilities"]
    assert bolter.get("default", True)
    assert "GREY KNIGHTS" in captain["faction_keywords"] and "CHARACTER" in captain["keywords"]
    assert {"Leader", "Deep Strike"} <= set(captain["abilities"])
    strike = units["Strike Squad"]
    assert strike["models"][0]["count"] == "5-10"
    assert "Sanctifying Ritual (Psychic)" in strike["abilities"]
    validate(models.Datasheet, {**captain, "points": {1: 90}})


@pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/reference is absent")
@pytest.mark.parametrize("faction, unit, check", [
    ("Necrons", "Necron Warriors", lambda u: u["models"][0]["count"] == "10-20"),
    ("Tyranids", "Termagants", lambda u: u["models"][0]["T"] == 3),
    ("Orks", "Boyz", lambda u: [m["name"] for m in u["models"]] == ["Boy", "Boss Nob"]),
    ("Astra Militarum", "Cadian Shock Troops", lambda u: u["models"][0]["Sv"] == 5),
    ("Adeptus Astartes", "Intercessor Squad",
     lambda u: any(w["name"] == "Bolt Rifle" for w in u["weapons"])),
])
def test_real_factions_read(faction: str, unit: str, check) -> None:
    units = read_catalogues(catalogues_for_faction(faction, BSDATA))
    assert check(units[unit])
    assert PROSE not in yaml.safe_dump(units[unit])


# --- default wargear and model facts (issue 13: classes of datasheet error) ------------------


def _chars(**values: str) -> str:
    return "".join(f'<characteristic name="{k}" typeId="c-{k}">{v}</characteristic>'
                   for k, v in values.items())


def _weapon_xml(ident: str, name: str, bs: str = "3+", kind: str = "ranged") -> str:
    if kind == "melee":
        body = _chars(Range="Melee", A="3", WS=bs, S="5", AP="-1", D="1", Keywords="-")
        type_id, type_name = "pt-melee", "Melee Weapons"
    else:
        body = _chars(Range="24&quot;", A="2", BS=bs, S="7", AP="-1", D="2", Keywords="-")
        type_id, type_name = "pt-ranged", "Ranged Weapons"
    return (f'<profile name="{name}" typeId="{type_id}" typeName="{type_name}" hidden="false" '
            f'id="p-{ident}"><characteristics>{body}</characteristics></profile>')


def _ability_xml(ident: str, name: str, text: str) -> str:
    return (f'<profile name="{name}" typeId="pt-abil" typeName="Abilities" hidden="false" '
            f'id="p-{ident}"><characteristics><characteristic name="Description" typeId="c-d">'
            f'{text}</characteristic></characteristics></profile>')


def _unit_xml(ident: str, name: str, w: str = "2") -> str:
    return (f'<profile name="{name}" typeId="pt-unit" typeName="Unit" hidden="false" '
            f'id="p-{ident}"><characteristics>'
            + _chars(M="6&quot;", T="4", SV="3+", W=w, LD="6+", OC="1")
            + "</characteristics></profile>")


def _bounds(ident: str, lo: int | None, hi: int | None) -> str:
    """min/max selections constraints (scope parent), as the catalogues write them."""
    return "".join(f'<constraint field="selections" scope="parent" value="{v}" type="{kind}" '
                   f'id="c-{ident}-{kind}"/>' for kind, v in (("min", lo), ("max", hi))
                   if v is not None)


def _entry(ident: str, name: str, kind: str, inner: str, lo: int | None = None,
           hi: int | None = None, profiles: str = "") -> str:
    cons = _bounds(ident, lo, hi)
    return (f'<selectionEntry type="{kind}" name="{name}" hidden="false" id="{ident}">'
            + (f"<constraints>{cons}</constraints>" if cons else "")
            + (f"<profiles>{profiles}</profiles>" if profiles else "")
            + (f"<selectionEntries>{inner}</selectionEntries>" if inner else "")
            + "</selectionEntry>")


def _group(ident: str, name: str, inner: str, lo: int | None = None, hi: int | None = None,
           default: str = "") -> str:
    cons = _bounds(ident, lo, hi)
    dflt = f' defaultSelectionEntryId="{default}"' if default else ""
    return (f'<selectionEntryGroup name="{name}" hidden="false" id="{ident}"{dflt}>'
            + (f"<constraints>{cons}</constraints>" if cons else "")
            + f"<selectionEntries>{inner}</selectionEntries></selectionEntryGroup>")


def _gear_catalogue() -> str:
    horrors = _entry("u-hor", "Horrors", "unit", _entry(
        "m-hor", "Horror", "model", _entry("g-claws", "Claws", "upgrade", "", 1, 1,
                                           _weapon_xml("claws", "Claws", "4+", "melee")), 10, 10,
        _unit_xml("hor", "Horror", "1")), profiles=_unit_xml("ref", "Other Horror (ref. only)", "1")
        + _weapon_xml("ref-claws", "Yellow claws (ref. only)", "5+", "melee")
        + _ability_xml("inv", "Invulnerable Save", "This unit has a 6+ invulnerable save. This unit "
                       "has a 4+ invulnerable save against melee attacks."))
    # a model in a wrapper group without a minimum; its weapon choice has no default: the first
    hunters = _entry("u-hunt", "Head Hunters", "unit", _group("grp-hunt", "Head Hunters", _entry(
        "m-hunt", "Head Hunter", "model", _entry("g-pistol", "Pistol", "upgrade", "", 1, 1,
                                                 _weapon_xml("pistol", "Pistol"))
        + _group("grp-opt", "Weapon Option", _entry(
            "g-shield", "Blade and Storm Shield", "upgrade", "", None, None,
            _weapon_xml("blade", "Blade", "3+", "melee")
            + _ability_xml("ss", "Storm Shield", "The bearer has a 4+ invulnerable save."))
            + _entry("g-pair", "Paired Blades", "upgrade", "", None, None,
                     _weapon_xml("pair", "Paired Blades", "3+", "melee")), 1, 1),
        profiles=_unit_xml("hunt", "Head Hunter", "3"))))
    brutes = _entry("u-brute", "Brutes", "unit", _group("grp-brutes", "3 Brutes", _entry(
        "m-brute", "Brute", "model", _group("grp-slab", "Shield", _entry(
            "g-slab", "Slabshield", "upgrade", "", None, None,
            _ability_xml("slab", "Slabshield", "The bearer has a Wounds characteristic of 4."))
            + _entry("g-gl", "Gauntlet", "upgrade", "", None, None, _weapon_xml("gl", "Gauntlet")),
            1, 1, default="g-slab"), 3, 3, _unit_xml("brute", "Brute", "3")), 3, 3))
    chaplain = _entry("u-chap", "Chaplain Morn", "unit", _entry(
        "m-chap", "Chaplain Morn", "model", _entry("g-croz", "Crozius", "upgrade", "", 1, 1,
                                                  _weapon_xml("croz", "Crozius", "2+", "melee")),
        1, 1) + _entry("m-serv", "Servitor", "model", "", 3, 3),
        profiles=_unit_xml("morn", "Morn", "4") + _unit_xml("serv", "Servitor", "1"))
    suits = _entry("u-suit", "Battlesuits", "unit", _entry(
        "m-suit", "Battlesuit", "model", _group("grp-drone", "Drones", _entry(
            "g-drone", "Missile Drone", "upgrade", _entry("g-dpod", "Missile pod", "upgrade", "", 1,
                                                          1, _weapon_xml("dpod", "Missile pod", "5+")),
            None, 2), None, 2)
        + _entry("g-pod", "Missile pod", "upgrade", "", 1, 1, _weapon_xml("pod", "Missile pod", "4+")),
        3, 3, _unit_xml("suit", "Battlesuit", "4")))
    # wargear options: a "Wargear" folder group (no bounds) holding a fixed item, a bounded
    # choice with a default (and a nested group it flattens) and an optional item; a hidden
    # item, a Crusade branch and an entry with max 0 are no options
    more = _group("grp-more", "More guns", _entry(
        "g-big", "Big gun", "upgrade", "", None, None,
        _weapon_xml("big1", "Big gun - short") + _weapon_xml("big2", "Big gun - long"))
        + _entry("g-combo", "Gun and knife", "upgrade", "", None, None,
                 _weapon_xml("gk1", "Gun") + _weapon_xml("gk2", "Knife", "3+", "melee")))
    crusade = _group("grp-crusade", "Crusade", _entry("g-relic", "Relic", "upgrade", "", None,
                                                      None, _weapon_xml("relic", "Relic")))
    gun = _group("grp-gun", "Gun", _entry("g-gun", "Gun", "upgrade", "", None, None,
                                          _weapon_xml("gun", "Gun")) + more + crusade,
                 1, 1, default="g-gun")
    folder = _group("grp-folder", "Wargear", _entry(
        "g-axe", "Axe", "upgrade", "", 1, 1, _weapon_xml("axe", "Axe", "3+", "melee"))
        + _entry("g-grenade", "Grenade", "upgrade", "", None, 1, _weapon_xml("gren", "Grenade"))
        + _entry("g-none", "Never", "upgrade", "", None, 0, _weapon_xml("never", "Never")) + gun)
    warband = _entry("u-war", "Warband", "unit", _entry(
        "m-boss", "Boss", "model", folder, 1, 1, _unit_xml("boss", "Boss", "3"))
        + _entry("m-war", "Warrior", "model", _entry("g-knife", "Knife", "upgrade", "", 1, 1,
                                                     _weapon_xml("knife", "Knife", "3+", "melee")),
                 4, 9, _unit_xml("war", "Warrior"))
        + _entry("m-warg", "Warrior w/ Big gun", "model", _entry(
            "g-big2", "Big gun", "upgrade", "", 1, 1, _weapon_xml("bigw", "Big gun - short")),
            None, 1, _unit_xml("war2", "Warrior")))
    return catalogue_of("cat-gear", "Imperium - Gear Test",
                        horrors + hunters + brutes + chaplain + suits + warband)


@pytest.fixture
def gear(tmp_path: Path) -> dict:
    return read_test_catalogue(tmp_path, "Imperium - Gear Test", _gear_catalogue())


def test_reference_only_profiles_are_never_carried_by_default(gear: dict) -> None:
    weapons = {w["name"]: w for w in gear["Horrors"]["weapons"]}
    assert weapons["Yellow claws (ref. only)"]["default"] is False
    assert weapons["Claws"].get("default", True) is True


def test_saves_only_against_melee_attacks_are_kept_apart(gear: dict) -> None:
    horror = {m["name"]: m for m in gear["Horrors"]["models"]}["Horror"]
    assert (horror["invuln"], horror["invuln_melee"]) == (6, 4)


def test_a_model_without_a_minimum_still_carries_its_default_wargear(gear: dict) -> None:
    unit = gear["Head Hunters"]
    carried = {w["name"] for w in unit["weapons"] if w.get("default", True)}
    assert carried == {"Pistol", "Blade"}  # the first of a required choice, as a list builder does
    assert unit["models"][0]["invuln"] == 4  # from the default Storm Shield


def test_default_wargear_sets_wounds(gear: dict) -> None:
    assert gear["Brutes"]["models"][0]["W"] == 4


def test_a_character_with_attendants_counts_each_profile(gear: dict) -> None:
    counts = {m["name"]: m.get("count") for m in gear["Chaplain Morn"]["models"]}
    assert counts == {"Morn": "1", "Servitor": "3"}


def test_a_drones_weapon_does_not_replace_the_models_own(gear: dict) -> None:
    pods = [w for w in gear["Battlesuits"]["weapons"] if w["name"] == "Missile pod"]
    assert len(pods) == 1 and pods[0]["skill"] == 4 and pods[0].get("default", True)


def test_recorded_corrections_survive_a_re_import(pack: Path, catdir: Path) -> None:
    data = yaml.safe_load(pack.read_text(encoding="utf-8"))
    unit = next(u for u in data["units"] if u["name"] == "Strike Squad")
    unit["corrections"] = [{"model": "Strike Team", "values": {"W": 9}, "note": "a test"}]
    pack.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    report = update_pack(pack, catdir)
    again = yaml.safe_load(pack.read_text(encoding="utf-8"))
    unit = next(u for u in again["units"] if u["name"] == "Strike Squad")
    assert {m["name"]: m["W"] for m in unit["models"]}["Strike Team"] == 9
    assert not [w for w in report.warnings if "correction" in w]


# --- wargear options (issue 13 section 1) ----------------------------------------------------


def test_wargear_options_per_kind_of_model(gear: dict) -> None:
    boss, warrior, gunner = gear["Warband"]["wargear"]
    assert boss == {"model": "Boss", "profile": "Boss", "min": 1, "max": 1, "gear": ["Axe"],
                    "choices": [{"of": ["Grenade"]},
                                {"of": ["Gun", "Big gun", "Gun and knife"], "min": 1,
                                 "default": "Gun"}]}
    assert warrior == {"model": "Warrior", "profile": "Warrior", "min": 4, "max": 9,
                       "gear": ["Knife"]}
    assert gunner == {"model": "Warrior w/ Big gun", "profile": "Warrior", "min": 0, "max": 1,
                      "gear": ["Big gun"]}
    # an item whose weapons are not named after it says which it gives
    assert gear["Warband"]["wargear_items"] == {"Gun and knife": ["Gun", "Knife"]}


def test_wargear_options_of_a_choice_without_default_and_of_attendants(gear: dict) -> None:
    (hunter,) = gear["Head Hunters"]["wargear"]
    assert hunter["choices"] == [{"of": ["Blade and Storm Shield", "Paired Blades"], "min": 1}]
    assert gear["Brutes"]["wargear"][0]["choices"] == [
        {"of": ["Slabshield", "Gauntlet"], "min": 1, "default": "Slabshield"}]
    chaplain, servitors = gear["Chaplain Morn"]["wargear"]
    assert (chaplain["profile"], servitors["profile"], servitors["min"]) == ("Morn", "Servitor", 3)


def test_wargear_options_validate_and_resolve(gear: dict) -> None:
    from bagm.roster.wargear import resolve

    unit = dict(gear["Warband"], points={5: 50, 10: 100})
    sheet = validate(models.Datasheet, unit)
    got, problems = resolve(sheet, 5, {"big gun": 2})
    assert problems == []
    assert {(lo.profile, lo.items): lo.count for lo in got} == {
        ("Boss", ("Axe", "Big gun")): 1, ("Warrior", ("Knife",)): 3, ("Warrior", ("Big gun",)): 1}
    assert [p.code for p in resolve(sheet, 5, {"big gun": 3})[1]] == ["BA191"]
    assert [p.code for p in resolve(sheet, 5, {"relic": 1})[1]] == ["BA190"]  # Crusade: none
    assert [p.code for p in resolve(sheet, 5, {"never": 1})[1]] == ["BA190"]  # max 0: none


@pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/reference is absent")
def test_real_wargear_options_match_the_bundled_packs() -> None:
    """The bundled packs' options are what the catalogues say today (a re-import changes
    nothing), for a squad with a sergeant and for a character."""
    from bagm.data.packs import Catalog

    units = read_catalogues(catalogues_for_faction("Adeptus Astartes", BSDATA))
    pack = Catalog().faction("Adeptus Astartes")
    for name in ("Tactical Squad", "Intercessor Squad", "Terminator Squad", "Captain"):
        bundled = pack.units.get(name)
        got = [{"model": k.model, "profile": k.profile, "gear": k.gear,
                "choices": [c.of for c in k.choices]} for k in bundled.wargear]
        want = [{"model": k["model"], "profile": k.get("profile"), "gear": k.get("gear", []),
                 "choices": [c["of"] for c in k.get("choices", [])]} for k in units[name]["wargear"]]
        assert got == want, name
    sergeant = next(k for k in units["Tactical Squad"]["wargear"]
                    if k["model"] == "Tactical Marine Sergeant")
    assert {"of": ["Astartes Chainsword", "Storm bolter", "Power fist", "Thunder Hammer",
                   "Power weapon", "Boltgun", "Combi-weapon"], "min": 1,
            "default": "Boltgun", "unless": ["Twin lightning claws"]} in sergeant["choices"]


def test_a_kind_of_models_maximum_that_grows_with_the_unit(tmp_path: Path) -> None:
    """"One more heavy gunner in a unit of 10": a modifier on the model entry's own maximum,
    with a condition on the unit's number of models, becomes ``max_from``; a modifier with any
    other condition is not read."""
    cat = _gear_catalogue()
    head = '<selectionEntry type="model" name="Warrior w/ Big gun" hidden="false" id="m-warg">'
    at = cat.index(head) + len(head)
    close = cat.index("</constraints>", at) + len("</constraints>")
    mods = ('<modifiers><modifier type="set" value="2" field="c-m-warg-max"><conditions>'
            '<condition type="atLeast" value="10" field="selections" scope="u-war" '
            'childId="model" shared="true"/></conditions></modifier>'
            '<modifier type="set" value="5" field="c-m-warg-max"><conditions>'
            '<condition type="atLeast" value="1" field="selections" scope="u-war" '
            'childId="g-big" shared="true"/></conditions></modifier></modifiers>')
    (tmp_path / "Test 40k.gst").write_text(GST, encoding="utf-8")
    (tmp_path / "Imperium - Gear Test.cat").write_text(cat[:close] + mods + cat[close:],
                                                       encoding="utf-8")
    units = read_catalogues([tmp_path / "Imperium - Gear Test.cat"])
    gunner = units["Warband"]["wargear"][2]
    assert (gunner["max"], gunner["max_from"]) == (1, {10: 2})

    from bagm.roster.wargear import resolve

    sheet = validate(models.Datasheet, dict(units["Warband"], points={5: 50, 10: 100}))
    assert resolve(sheet, 10, {"big gun": 3})[1] == []  # the Boss's choice and two gunners
    assert [p.code for p in resolve(sheet, 10, {"big gun": 4})[1]] == ["BA191"]
    assert [p.code for p in resolve(sheet, 5, {"big gun": 3})[1]] == ["BA191"]


@pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/reference is absent")
def test_units_whose_models_come_as_fixed_bundles_have_their_kinds_of_model() -> None:
    """"1 Runtherd and 10 Gretchin" or "2 Runtherds and 20 Gretchin": the default bundle's
    models are the kinds of model; the larger bundle, hidden in a Boarding Actions force,
    grows no maximum."""
    orks = read_catalogues(catalogues_for_faction("Orks", BSDATA))
    kinds = {k["model"]: k for k in orks["Gretchin"]["wargear"]}
    assert {m: (k["min"], k["max"], k.get("max_from")) for m, k in kinds.items()} == {
        "Gretchin": (10, 10, None), "Runtherd": (1, 1, None)}
    assert kinds["Runtherd"]["gear"] == ["Grot-smacka", "Slugga"]
    burna = {k["model"]: k for k in orks["Burna Boyz"]["wargear"]}
    assert burna["Spanner"]["choices"] == [{"of": ["Big shoota", "Kustom mega-blasta", "Rokkit launcha"], "min": 1}]
    guard = read_catalogues(catalogues_for_faction("Astra Militarum", BSDATA))
    for name in ("Cadian Shock Troops", "Catachan Jungle Fighters", "Death Korps of Krieg"):
        assert guard[name].get("wargear"), name


def test_bundled_units_play_their_models_own_wargear() -> None:
    from bagm.data.packs import Catalog
    from bagm.roster.wargear import default_loadouts

    orks = Catalog().faction("Orks")
    got = {(lo.profile, lo.items): lo.count for lo in default_loadouts(orks.units.get("Burna Boyz"), 10)}
    assert got == {("Burna Boyz", ("Burna", "Cuttin’ flames")): 8,
                   ("Burna Boyz", ("Close combat weapon", "Big shoota")): 2}
    got = {(lo.profile, lo.items): lo.count for lo in default_loadouts(orks.units.get("Gretchin"), 11)}
    assert got == {("Gretchin", ("Close combat weapon", "Grot blasta")): 10,
                   ("Runtherd", ("Grot-smacka", "Slugga")): 1}
