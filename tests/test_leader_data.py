"""Leader data: Bodyguard units and Leader abilities as structured effects.

The pattern parser is tested on short synthetic texts (written for these tests, in the shape of
real abilities); the importer on a tiny made-up catalogue; the bundled packs for consistency;
and the real BSData catalogues when ``../shared/reference`` exists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import FIXTURES, REFERENCE

from bagm.data.packs import Catalog
from bagm.io.bsdata import (
    CatalogueError,
    is_leader_ability,
    leader_data,
    parse_leader_effects,
    parse_leader_units,
    read_catalogues,
    update_pack,
)
from bagm.roster.packcheck import check_faction

BSDATA = REFERENCE / "bsdata-wh40k-10e"
LEADS = "While this model is leading a unit, "

# --- the effect parser ------------------------------------------------------------------------

PARSED: list[tuple[str, list[dict[str, Any]]]] = [
    ("weapons equipped by models in that unit have the [SUSTAINED HITS 1] ability.",
     [{"weapon_abilities": [{"name": "sustained hits", "value": 1}]}]),
    ("melee weapons equipped by models in that unit have the **[Lethal Hits]** ability.",
     [{"attacks": "melee", "weapon_abilities": [{"name": "lethal hits"}]}]),
    ("ranged weapons equipped by that unit have the [ANTI-PSYKER 4+] ability",
     [{"attacks": "ranged",
       "weapon_abilities": [{"name": "anti", "target": "PSYKER", "value": 4}]}]),
    ("melee weapons equipped by models in that unit have the [Sustained Hits 1] and [Lance] "
     "abilties.",  # the typo is in the real data
     [{"attacks": "melee",
       "weapon_abilities": [{"name": "sustained hits", "value": 1}, {"name": "lance"}]}]),
    ("ranged weapons equipped by models in that unit have the [ASSAULT] ability and melee "
     "weapons equipped by models in that unit have the [LANCE] ability.",
     [{"attacks": "ranged", "weapon_abilities": [{"name": "assault"}]},
      {"attacks": "melee", "weapon_abilities": [{"name": "lance"}]}]),
    ("each time a model in that unit makes a melee attack, add 1 to the Hit roll.",
     [{"attacks": "melee", "hit_mod": 1}]),
    ("each time a model in that unit makes an attack, you can add 1 to the Hit roll.",
     [{"hit_mod": 1}]),
    ("each time a model in that unit makes a ranged attack, add 1 to the Wound roll.",
     [{"attacks": "ranged", "wound_mod": 1}]),
    ("each time a model in that unit makes a melee attack, you can re-roll the Hit roll.",
     [{"attacks": "melee", "reroll_hits": "failed"}]),
    ("each time a model in that unit makes a ranged attack, you can re-roll the Wound roll.",
     [{"attacks": "ranged", "reroll_wounds": "failed"}]),
    ("each time a model in that unit makes a ranged attack, re-roll a Hit roll of 1.",
     [{"attacks": "ranged", "reroll_hits": "ones"}]),
    ("each time a model in that unit makes a melee attack, re-roll a Hit roll of 1 and re-roll "
     "a Wound roll of 1.",
     [{"attacks": "melee", "reroll_hits": "ones", "reroll_wounds": "ones"}]),
    ("add 1 to the Attacks characteristic of ranged weapons equipped by models in that unit.",
     [{"attacks": "ranged", "A_mod": 1}]),
    ("add 1 to the Attacks and Strength characteristic of melee weapons equipped by models in "
     "that unit.", [{"attacks": "melee", "A_mod": 1, "S_mod": 1}]),
    ("improve the Armour Penetration characteristic of melee weapons equipped by models in "
     "that unit by 1.", [{"attacks": "melee", "AP_mod": -1}]),
    ("models in that unit have the Feel No Pain 5+ ability", [{"fnp": 5}]),
    ("models in that unit have a 4+ invulnerable save.", [{"invuln": 4}]),
    ("each time an attack targets that unit, subtract 1 from the Hit roll.",
     [{"hit_against_mod": -1}]),
    ("each time an attack targets that unit, subtract 1 from the Wound roll.",
     [{"wound_against_mod": -1}]),
    # Feel No Pain against some wounds only
    ("models in that unit have the Feel No Pain 4+ ability against Psychic Attacks.",
     [{"fnp_psychic": 4}]),
    ("models in that unit have the Feel No Pain 5+ ability against mortal wounds.",
     [{"fnp_mortal": 5}]),
    ("models in that unit have the Feel No Pain 4+ ability against Psychic Attacks and mortal "
     "wounds.", [{"fnp_mortal": 4, "fnp_psychic": 4}]),
    ("models in that unit have the Feel No Pain 4+ ability against mortal wounds and Psychic "
     "Attacks.", [{"fnp_mortal": 4, "fnp_psychic": 4}]),
    # Critical Hits on 5+
    ("each time a model in that unit makes a melee attack, an unmodified Hit roll of 5+ scores "
     "a Critical Hit.", [{"attacks": "melee", "crit_hit": 5}]),
    ("each time a model in that unit makes an attack, a successful unmodified Hit roll of 5+ "
     "scores a Critical Hit.", [{"crit_hit": 5}]),
    ("each time a model in that unit makes a ranged attack, a successful unmodifed Hit roll of "
     "5+ scores a Critical Hit.",  # the typo is in the real data
     [{"attacks": "ranged", "crit_hit": 5}]),
    ("weapons equipped by models in that unit have the [LETHAL HITS] ability. In addition, each "
     "time a model in that unit makes an attack, a Critical Hit is scored on an unmodified Hit "
     "roll of 5+, instead of only on a 6.",
     [{"weapon_abilities": [{"name": "lethal hits"}], "crit_hit": 5}]),
    # Objective Control, Fights First
    ("add 1 to the Objective Control characteristic of models in that unit.", [{"OC_mod": 1}]),
    ("models in that unit have the Fights First ability.", [{"fights_first": True}]),
    ("that unit has the Fights First ability", [{"fights_first": True}]),
    # Move, Advance and Charge
    ("you can re-roll Charge rolls made for that unit.", [{"reroll_charge": True}]),
    ("you can re-roll Advance and Charge rolls made for that unit.",
     [{"reroll_advance": True, "reroll_charge": True}]),
    ("add 1 to Advance and Charge rolls made for that unit.", [{"advance_mod": 1, "charge_mod": 1}]),
    ("add 2\" to the Move characteristic of models in that unit and add 2 to Advance and Charge "
     "rolls made for that unit.", [{"M_mod": 2, "advance_mod": 2, "charge_mod": 2}]),
    ("add 1 to the Move characteristic of models in that unit and you can re-roll Advance rolls "
     "made for that unit.", [{"M_mod": 1, "reroll_advance": True}]),
    ("add 1 to Advance and Charge rolls made for that unit and each time a model in that unit "
     "makes an attack, add 1 to the Hit roll.",
     [{"advance_mod": 1, "charge_mod": 1, "hit_mod": 1}]),
    ("that unit is eligible to declare a charge in a turn in which it Advanced.",
     [{"charge_after_advance": True}]),
    ("that unit is eligible to shoot in a turn in which it Fell Back.",
     [{"shoot_after_fall_back": True}]),
    # attacks that target the unit
    ("each time a melee attack targets that unit, subtract 1 from the Hit roll.",
     [{"hit_against_mod": -1, "against": "melee"}]),
    ("models in that unit have the Benefit of Cover.", [{"cover": True}]),
    ("that unit can only be selected as the target of a ranged attack if the attacking model is "
     "within 18\".", [{"ranged_within": 18}]),
    ("models in this unit cannot be targeted by ranged attacks unless the attacking model is "
     "within 12\".", [{"ranged_within": 12}]),
    ("that unit cannot be targeted by ranged attacks unless the attacking unit is within 18\".",
     [{"ranged_unit_within": 18}]),
    ("models in that unit have the Stealth ability and that unit cannot be targeted by ranged "
     "attacks unless the attacking model is within 12\".",
     [{"hit_against_mod": -1, "against": "ranged"}, {"ranged_within": 12}]),
    ("models in that unit have the Stealth ability and each time an attack targets that unit, "
     "subtract 1 from the Wound roll.",  # two effects: Stealth is for ranged attacks only
     [{"hit_against_mod": -1, "against": "ranged"}, {"wound_against_mod": -1}]),
    # conditions on the led unit that the engine checks
    ("each time a model in that unit makes an attack, add 1 to the Hit roll if that unit is "
     "below its Starting Strength, and add 1 to the Wound roll as well if that unit is Below "
     "Half-strength.",
     [{"hit_mod": 1, "only_while": "below_starting"}, {"wound_mod": 1, "only_while": "below_half"}]),
    ("each time a model in that unit makes a melee attack, add 1 to the Hit roll if that unit is "
     "below its Starting Strength.",
     [{"attacks": "melee", "hit_mod": 1, "only_while": "below_starting"}]),
    ("models in that unit have the Feel No Pain 5+ ability. If that unit has the Line-Troops "
     "keyword, models in that unit have the Feel No Pain 4+ ability instead.",
     [{"fnp": 5}, {"fnp": 4, "only_keyword": "LINE-TROOPS"}]),
    ("each time a model in that unit makes an attack that targets a unit that is Below "
     "Half-strength, add 1 to the Hit roll.", [{"hit_mod": 1, "target_while": "below_half"}]),
    ("each time a model in that unit makes an attack that targets an enemy unit that does not "
     "have the IMPERIUM or CHAOS keywords, add 1 to the Hit roll.",
     [{"hit_mod": 1, "target_lacks": ["IMPERIUM", "CHAOS"]}]),
    ("you can re-roll Leadership tests taken for that unit.", [{"reroll_leadership": True}]),
    # Strategic Knowledge, Guardian of the Lost, Golden Laurels
    ("that unit is eligible to shoot and declare a charge in a turn in which it Advanced or Fell Back.",
     [{"shoot_after_advance": True, "charge_after_advance": True, "shoot_after_fall_back": True,
       "charge_after_fall_back": True}]),
    ("that unit is eligible to shoot and declare a charge in a turn in which it Fell Back.",
     [{"shoot_after_fall_back": True, "charge_after_fall_back": True}]),
    ("each time an attack is allocated to a model in that unit, subtract 1 from the Damage characteristic "
     "of that attack.", [{"damage_against_mod": -1}]),
    ("each time a melee attack targets that unit, worsen that Armour Penetration characteristic of that "
     "attack by 1.", [{"AP_against_mod": 1, "against": "melee"}]),
    # Redeemer of the Lost, Intractable Will (one sentence after another), Vengeful Exhortation,
    # Anvil of Endurance: the dead fight on a 4+
    ("each time a model in that unit is destroyed by a melee attack, if that model has not fought this phase, "
     "roll one D6. On a 4+, do not remove it from play; that destroyed model can fight after the attacking "
     "model's unit has finished making its attacks, and is then removed from play.", [{"fight_on_death": 4}]),
    ("each time a model in that unit is destroyed by a melee attack, if it has not fought this phase, roll one "
     "D6: on a 4+, do not remove it from play, the destroyed model can fight after the attacking unit has "
     "finished making its attacks, and is then removed from play.", [{"fight_on_death": 4}]),
    ("each time a model in that unit is destroyed by a melee attack, if that model has not fought this phase, "
     "roll one D6, on a 4+, do not remove the destroyed model from play. The destroyed model can fight after "
     "the attacking unit has finished making its attacks, and then is removed from play", [{"fight_on_death": 4}]),
    # Tempered Ferocity: "... ability and, each time ...", and a target within X"
    ("weapons equipped by models in that unit have the [SUSTAINED HITS 1] ability and, each time a model "
     "in that unit makes an attack that targets an enemy unit within 6\", re-roll a Hit roll of 1.",
     [{"weapon_abilities": [{"name": "sustained hits", "value": 1}]}, {"reroll_hits": "ones", "target_within": 6}]),
    ("ranged weapons equipped by models in that unit have the [ASSAULT] ability and each time "
     "that unit advances, do not make an Advance roll. Instead, until the end of the phase, add "
     "6\" to the Move characteristic of models in this unit.",
     [{"attacks": "ranged", "weapon_abilities": [{"name": "assault"}]}, {"advance_fixed": 6}]),
    # Pile-in and Consolidation
    ("each time a model in that unit makes a Pile-In or Consolidation move, it can move up to 6\" "
     "instead of up to 3\".", [{"pile_in": 6}]),
    ("each time that unit Piles In or Consolidates, each model in that unit can move up to 6\" "
     "instead of up to 3\".", [{"pile_in": 6}]),
]


@pytest.mark.parametrize("body,expected", PARSED, ids=[b[:50] for b, _ in PARSED])
def test_parser_reads_each_pattern(body: str, expected: list[dict[str, Any]]) -> None:
    assert parse_leader_effects(LEADS + body) == expected


def test_parser_reads_the_unit_form_and_when() -> None:
    text = "While this unit is leading a unit, models in that unit have a 5+ invulnerable save."
    assert parse_leader_effects(text) == [{"invuln": 5}]
    text = ("When this model is leading a unit, melee weapons equipped by models in that unit "
            "have the [DEVASTATING WOUNDS] ability")
    assert parse_leader_effects(text) == [
        {"attacks": "melee", "weapon_abilities": [{"name": "devastating wounds"}]}]


def test_parser_merges_clauses_of_one_kind_and_a_bullet_list() -> None:
    text = ("While this model is leading a unit: - Each time a model in that unit makes an "
            "attack, add 1 to the Hit roll and add 1 to the Wound roll. - Each time an attack "
            "targets that unit, subtract 1 from the Wound roll.")
    assert parse_leader_effects(text) == [
        {"hit_mod": 1, "wound_mod": 1, "wound_against_mod": -1}]


NOT_MODELLED = [
    # conditional: never approximated as unconditional
    LEADS + "each time a model in that unit makes an attack, add 1 to the Hit roll if that "
    "unit is within range of an objective marker.",
    LEADS + "each time a model in that unit makes a melee attack that targets a unit that is "
    "below its Starting Strength, you can re-roll the Hit roll. If that unit is Below "
    "Half-strength, you can re-roll the Wound roll as well.",  # which unit: left to a human
    LEADS + "each time a model in that unit makes an attack that targets a unit that is below "
    "its Starting Strength, add 1 to the Hit roll if that unit is Below Half-strength.",
    LEADS + "models in that unit have the Feel No Pain 4+ ability against attacks made by "
    "DAEMON models.",
    LEADS + "each time a model in that unit makes an attack that targets a MONSTER unit, an "
    "unmodified Hit roll of 5+ scores a Critical Hit.",
    LEADS + "you can re-roll Advance rolls made for that unit, and you can re-roll any rolls "
    "made for that unit while it is performing a Special Manoeuvre.",
    "While this model is leading a SQUAD unit, it has the Fights First ability.",
    LEADS + "add 1 to the Objective Control characteristic of models in that unit while it is "
    "within range of an objective marker.",
    LEADS + "each time that unit Advances, do not make an Advance roll. Instead, add 6\" to the "
    "Move characteristic of models in that unit and each time a model in that unit makes an "
    "Advance move, ignore any vertical distance.",
    LEADS + "add 1 to the Objective Control characteristic of models in that unit. If that unit "
    "has the SOMETHING keyword, add 2 to the Objective Control characteristic of models in "
    "that unit instead.",  # "instead" of an added value: not the better of two
    LEADS + "models in that unit have the Feel No Pain 5+ ability. If that unit has the "
    "SOMETHING keyword, models in that unit have the Feel No Pain 4+ ability.",  # no "instead"
    LEADS + "each time an attack targets that unit, subtract 1 from the Hit roll. In addition, "
    "once per battle round, something else happens.",
    LEADS + "each time that unit ends a Charge move, until the end of the turn, add 1 to the "
    "Strength characteristic of melee weapons equipped by models in that unit.",
    "While this unit is leading a unit and contains a HERO model, models in that unit have a "
    "5+ invulnerable save.",
    "While this model is leading a SQUAD unit, each time a model in that unit makes a melee "
    "attack, you can re-roll the Wound roll.",
    LEADS + "models in that unit have a 6+ invulnerable save, and 4+ invulnerable save against "
    "Psychic Attacks.",
    # outside the vocabulary
    LEADS + "each time a model in that unit makes a Pile-in or Consolidation move, it can move "
    "up to 6\" instead of 3\". In addition, it does not need to end that move closer.",
    LEADS + "add 1 to the Attacks characteristic of Named weapons equipped by that unit.",
    LEADS + "weapons equipped by models in that unit have the [MADE UP] ability.",
    LEADS + "in your Command phase, you can return 1 destroyed Bodyguard model to that unit.",
    # the same field twice: left to a human
    LEADS + "each time a model in that unit makes an attack, add 1 to the Hit roll and you can "
    "add 1 to the Hit roll.",
    # not a Leader ability at all, or empty
    "Each time this model makes an attack, add 1 to the Hit roll.",
    LEADS,
    "",
    None,
]


@pytest.mark.parametrize("text", NOT_MODELLED, ids=lambda t: str(t)[:60])
def test_parser_gives_null_for_conditional_or_unknown_effects(text: str | None) -> None:
    assert parse_leader_effects(text) is None


def test_is_leader_ability() -> None:
    assert is_leader_ability(LEADS + "anything.")
    assert is_leader_ability("While this unit is leading a unit and contains a HERO model, x.")
    assert is_leader_ability("While this model is leading a SQUAD unit, x.")
    assert not is_leader_ability("At the start of the Fight phase, if this model is not "
                                 "leading a unit, x.")
    assert not is_leader_ability("In your Command phase, if this model is leading a unit, x.")
    assert not is_leader_ability(None)


# --- the Bodyguard list -----------------------------------------------------------------------


def test_bodyguards_from_bullets_and_markup() -> None:
    text = ("This model can be attached to the following units:\n\n■ Line Squad\n"
            "- **^^Heavy Squad^^**\n- ^^**RED GUARD^^**\u00a0\n■ Blue Guard*\n\n"
            "* This model cannot be attached to a Blue Guard unit unless it has a shield.")
    assert parse_leader_units(text) == ["Line Squad", "Heavy Squad", "RED GUARD", "Blue Guard"]


def test_bodyguards_from_a_comma_list_and_footnote_prose_ignored() -> None:
    text = ("This model can be attached to the following units: ^^**Line Squad^^**, "
            "^^**Heavy Squad**^^.\n\n*You can attach this model to a Line Squad unit, even if "
            "one other Leader unit has already been attached to it.*")
    assert parse_leader_units(text) == ["Line Squad", "Heavy Squad"]
    text = "This model can be attached to the following unit:\n^^**Line Squad; Red Guard^^**"
    assert parse_leader_units(text) == ["Line Squad", "Red Guard"]


def test_bodyguards_none_when_there_is_no_list() -> None:
    assert parse_leader_units("This unit can join one other unit from your army, and more "
                              "prose that is not a list.") == []
    assert parse_leader_units(None) == []


def test_leader_data_needs_the_leader_ability() -> None:
    texts = {"Leader": "This model can be attached to the following units:\n■ Line Squad",
             "Inspiring": LEADS + "models in that unit have the Feel No Pain 5+ ability.",
             "Other": "Once per battle, something."}
    assert leader_data(texts) == {
        "bodyguards": ["Line Squad"],
        "abilities": [{"name": "Inspiring", "effects": [{"fnp": 5}]}]}
    assert leader_data({"Inspiring": texts["Inspiring"]}) is None


# --- the importer -----------------------------------------------------------------------------

GST = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<gameSystem xmlns="http://www.battlescribe.net/schema/gameSystemSchema" id="sys-l" name="Test 40k" revision="1" battleScribeVersion="2.03" type="gameSystem">
  <profileTypes>
    <profileType id="pt-unit" name="Unit"/>
    <profileType id="pt-abil" name="Abilities"/>
  </profileTypes>
</gameSystem>
"""


def _unit(ident: str, name: str, character: bool, abilities: dict[str, str]) -> str:
    profiles = "".join(
        f'<profile name="{n}" typeId="pt-abil" typeName="Abilities" hidden="false" '
        f'id="{ident}-a{i}"><characteristics><characteristic name="Description" '
        f'typeId="d">{t}</characteristic></characteristics></profile>'
        for i, (n, t) in enumerate(abilities.items()))
    cats = '<categoryLink name="Character" hidden="false" id="{0}-c" targetId="c-char"/>' \
        .format(ident) if character else ""
    return f"""
    <selectionEntry type="model" name="{name}" hidden="false" id="{ident}">
      <profiles>
        <profile name="{name}" typeId="pt-unit" typeName="Unit" hidden="false" id="{ident}-p">
          <characteristics>
            <characteristic name="M" typeId="u1">6"</characteristic>
            <characteristic name="T" typeId="u2">4</characteristic>
            <characteristic name="SV" typeId="u3">3+</characteristic>
            <characteristic name="W" typeId="u4">4</characteristic>
            <characteristic name="LD" typeId="u5">6+</characteristic>
            <characteristic name="OC" typeId="u6">1</characteristic>
          </characteristics>
        </profile>{profiles}
      </profiles>
      <categoryLinks>{cats}
        <categoryLink name="Faction: Test Legion" hidden="false" id="{ident}-f" targetId="c-f"/>
      </categoryLinks>
    </selectionEntry>"""


LIST = ("This model can be attached to the following units:\n\n"
        "■ Liners\n■ Heavy Squad\n■ Ghost Squad")
CAT = f"""\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" library="false" id="cat-l" name="Test Legion" gameSystemId="sys-l" revision="1" battleScribeVersion="2.03" type="catalogue">
  <selectionEntries>{_unit("u-lord", "Lord Commander", True, {
      "Leader": LIST,
      "Tactical Mind": LEADS + "weapons equipped by models in that unit have the [LETHAL HITS] "
                       "ability.",
      "Stubborn": LEADS + "models in that unit have the Infiltrators ability."})}
{_unit("u-sage", "Unarmed Sage", False, {"Leader": LIST})}
{_unit("u-line", "Line Squad", False, {"Grit": "Once per battle, something."})}
  </selectionEntries>
</catalogue>
"""


@pytest.fixture
def catalogue_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "cats"
    folder.mkdir()
    (folder / "Test 40k.gst").write_text(GST, encoding="utf-8")
    (folder / "Test Legion.cat").write_text(CAT, encoding="utf-8")
    return folder


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    path = tmp_path / "testing.yaml"
    path.write_text((FIXTURES / "packs" / "testing.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    return path


def _units(path: Path) -> dict[str, dict[str, Any]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {u["name"]: u for u in data["units"]}


def test_reader_gives_leader_data(catalogue_dir: Path) -> None:
    units = read_catalogues([catalogue_dir / "Test Legion.cat"])
    assert units["Lord Commander"]["leader"]["bodyguards"] == ["Liners", "Heavy Squad",
                                                              "Ghost Squad"]
    assert "leader" not in units["Line Squad"]


def test_importer_writes_leader_with_pack_names_and_is_idempotent(
        catalogue_dir: Path, pack: Path) -> None:
    report = update_pack(pack, catalogue_dir)
    lord = _units(pack)["Lord Commander"]
    assert lord["leader"] == {
        "bodyguards": ["Line Squad", "Heavy Squad"],  # "Liners" is Line Squad's alias
        "abilities": [
            {"name": "Tactical Mind", "effects": [{"weapon_abilities": [{"name": "lethal hits"}]}]},
            {"name": "Stubborn", "effects": None}]}
    assert list(lord).index("leader") > list(lord).index("abilities")
    assert report.leaders == ["Lord Commander", "Unarmed Sage"]
    assert ("Lord Commander", "Ghost Squad") in report.bodyguards_dropped
    assert "Ghost Squad" in report.summary()
    assert "must never" not in pack.read_text(encoding="utf-8")
    assert "leader:\n" in pack.read_text(encoding="utf-8")  # block style, one key a line
    first = pack.read_bytes()
    update_pack(pack, catalogue_dir)
    assert pack.read_bytes() == first


def test_importer_gives_leader_data_only_to_characters(catalogue_dir: Path, pack: Path) -> None:
    text = pack.read_text(encoding="utf-8").replace(
        "  - name: Unarmed Sage\n    keywords: [INFANTRY, CHARACTER]",
        "  - name: Unarmed Sage\n    keywords: [INFANTRY]")
    pack.write_text(text, encoding="utf-8")
    update_pack(pack, catalogue_dir)
    units = _units(pack)
    assert "leader" not in units["Unarmed Sage"]  # not a CHARACTER in the pack
    assert "leader" not in units["Line Squad"]


def test_importer_keeps_a_hand_entered_leader(catalogue_dir: Path, pack: Path) -> None:
    text = pack.read_text(encoding="utf-8").replace(
        "  - name: Tech Adept\n    keywords: [INFANTRY, CHARACTER, ENGINEER]\n",
        "  - name: Tech Adept\n    keywords: [INFANTRY, CHARACTER, ENGINEER]\n"
        "    leader: {bodyguards: [Red Guard]}\n")
    pack.write_text(text, encoding="utf-8")
    update_pack(pack, catalogue_dir)
    assert _units(pack)["Tech Adept"]["leader"] == {"bodyguards": ["Red Guard"]}


def test_importer_bad_pack_is_a_clear_error(catalogue_dir: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("units: {not: a list}\n", encoding="utf-8")
    with pytest.raises(CatalogueError, match="not a faction pack"):
        update_pack(bad, catalogue_dir)


# --- bagm data check ----------------------------------------------------------------------------


def _check(tmp_path: Path, leader: str, unit: str = "Lord Commander") -> list[str]:
    """The problems ``bagm data check`` finds once ``unit`` of the test pack has ``leader``
    (only the new ones: the test pack has a deliberate problem of its own)."""
    text = (FIXTURES / "packs" / "testing.yaml").read_text(encoding="utf-8")
    before = check_faction(Catalog([FIXTURES / "packs"]).faction("Test Legion"))
    head = f"  - name: {unit}\n"
    assert head in text
    lines = text.split(head, 1)
    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "testing.yaml").write_text(
        lines[0] + head + f"    leader: {leader}\n" + lines[1], encoding="utf-8")
    faction = Catalog([folder]).faction("Test Legion")
    assert faction is not None
    return [p for p in check_faction(faction) if p not in before]


def test_check_accepts_sound_leader_data(tmp_path: Path) -> None:
    assert _check(tmp_path, "{bodyguards: [Line Squad, Heavy Squad]}") == []


def test_check_reports_bad_leader_data(tmp_path: Path) -> None:
    found = _check(tmp_path, "{bodyguards: [Line Squad, Line Squad, Ghost Squad, Lord Commander],"
                   " abilities: [{name: Mystery, effects: [{weapon_abilities: [{name: zap}]}]}]}")
    assert "Lord Commander: Bodyguard unit 'line squad' listed twice" in found
    assert "Lord Commander: Bodyguard unit 'Ghost Squad' is not a datasheet of Test Legion" \
        in found
    assert "Lord Commander: lists itself as a Bodyguard unit" in found
    assert "Lord Commander: Leader ability 'Mystery' is not one of its abilities" in found
    assert "Lord Commander: Leader ability 'Mystery': weapon ability 'zap' is not one the " \
        "engine applies" in found


def test_check_reports_leader_data_on_a_non_character(tmp_path: Path) -> None:
    found = _check(tmp_path, "{bodyguards: [Heavy Squad]}", unit="Line Squad")
    assert found == ["Line Squad: has Leader data but is not a CHARACTER"]


# --- the bundled packs --------------------------------------------------------------------------

CATALOG = Catalog()


@pytest.mark.parametrize("name", CATALOG.faction_names())
def test_bundled_leader_data_resolves(name: str) -> None:
    faction = CATALOG.faction(name)
    assert faction is not None
    for ds in faction.pack.units:
        if ds.leader is None:
            continue
        assert ds.is_character, ds.name
        for bodyguard in ds.leader.bodyguards:
            unit = faction.units.get(bodyguard)
            assert unit is not None and unit.name == bodyguard, (ds.name, bodyguard)
    assert not [p for p in check_faction(faction) if "Leader" in p or "Bodyguard" in p]


def test_bundled_packs_have_leader_data() -> None:
    leaders = [ds for name in CATALOG.faction_names()
               for ds in CATALOG.faction(name).pack.units if ds.leader]  # type: ignore[union-attr]
    assert len(leaders) > 150
    assert sum(1 for ds in leaders for a in ds.leader.abilities if a.effects) > 50


def test_bundled_winged_tyranid_prime_alpha_warrior() -> None:
    # the Rules Adaptations "Leader Abilities" example
    faction = CATALOG.faction("Tyranids")
    assert faction is not None
    prime = faction.units.get("Winged Tyranid Prime")
    assert prime is not None and prime.leader is not None
    assert "Tyranid Warriors with Melee Bio-weapons" in prime.leader.bodyguards
    (alpha,) = [a for a in prime.leader.abilities if a.name == "Alpha Warrior"]
    assert alpha.effects is not None
    (effect,) = alpha.effects
    assert [(w.name, w.value) for w in effect.weapon_abilities] == [("sustained hits", 1)]
    assert effect.attacks == "all"


# --- the real catalogues --------------------------------------------------------------------------


@pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/reference is absent")
def test_real_catalogue_leader_data() -> None:
    units = read_catalogues([BSDATA / "Orks.cat"])
    warboss = units["Warboss"]["leader"]
    assert {"Boyz", "Nobz"} <= {b.title() for b in warboss["bodyguards"]}
    assert {"name": "Might is Right",
            "effects": [{"attacks": "melee", "hit_mod": 1}]} in warboss["abilities"]


@pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/reference is absent")
def test_real_import_matches_the_bundled_leader_data(tmp_path: Path) -> None:
    pack = tmp_path / "grey_knights.yaml"
    source = Path(__file__).parents[1] / "datasheets" / "grey_knights.yaml"
    pack.write_bytes(source.read_bytes())
    update_pack(pack, BSDATA)
    assert pack.read_bytes() == source.read_bytes()  # the bundled pack is the import's output
