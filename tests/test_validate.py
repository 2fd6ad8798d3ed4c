"""Every construction rule of "Mustering your Boarding Patrol": pass, fail and boundary."""

from __future__ import annotations

from conftest import codes

LORD = "- unit: Lord Commander\n  warlord: true\n"


def test_valid_roster(check) -> None:
    r = check(LORD + "- unit: Line Squad\n  models: 10\n")
    assert r.valid and r.findings == [] and r.points == 275


# --- points (step 1) ------------------------------------------------------------------------

def test_exactly_500_points_is_legal(check) -> None:
    r = check(LORD + "- {unit: Line Squad, models: 10}\n- {unit: Line Squad, models: 10}\n"
              "- {unit: Hound Pack}\n")
    assert r.points == 500 and r.valid


def test_501_points_is_over(check) -> None:
    r = check(LORD + "- {unit: Line Squad, models: 10}\n- {unit: Line Squad, models: 10}\n"
              "- {unit: Cherub}\n")
    assert r.points == 501 and codes(r) == ["BA170"]
    f = r.findings[0]
    assert "over the 500-point limit by 1" in f.message and f.unit == "Cherub" and f.line == 8


# --- faction, Detachment, units (steps 2-4) -------------------------------------------------

def test_unknown_faction_suggests(check) -> None:
    r = check("", raw="faction: Test Legoin\ndetachment: X\nunits:\n  - unit: Cherub\n")
    assert codes(r) == ["BA100"] and "Test Legion" in r.findings[0].message
    assert r.findings[0].line == 1


def test_faction_alias(check) -> None:
    r = check("", raw="faction: tl\ndetachment: test strike\nunits:\n"
              "  - {unit: lord commander, warlord: true}\n")
    assert r.valid and r.faction == "Test Legion" and r.detachment == "Test Strike"


def test_unknown_detachment_suggests(check) -> None:
    r = check("", raw="faction: Test Legion\ndetachment: Test Strke\nunits:\n"
              "  - {unit: Lord Commander, warlord: true}\n")
    assert codes(r) == ["BA101"] and "Test Strike" in r.findings[0].message
    assert r.findings[0].line == 2


def test_detachment_of_another_faction(check) -> None:
    r = check("", raw="faction: Test Legion\ndetachment: Other Raid\nunits:\n"
              "  - {unit: Lord Commander, warlord: true}\n")
    assert codes(r) == ["BA101"] and "belongs to Other Faction" in r.findings[0].message


def test_no_units(check) -> None:
    r = check("", raw="faction: Test Legion\ndetachment: Test Strike\nunits: []\n")
    assert codes(r) == ["BA102"]


def test_unknown_unit_suggests(check) -> None:
    r = check(LORD + "- unit: Line Sqaud\n  models: 5\n")
    assert codes(r) == ["BA110"]
    assert "did you mean 'Line Squad'" in r.findings[0].message and r.findings[0].line == 6


def test_unit_names_are_case_insensitive_and_aliases_work(check) -> None:
    r = check(LORD + "- {unit: LINE squad, models: 5}\n- {unit: Liners, models: 5}\n")
    assert r.valid and [u.name for u in r.units][1:] == ["Line Squad", "Line Squad"]


def test_unit_without_army_faction_keyword(check) -> None:
    r = check(LORD + "- unit: Stranger\n")
    assert codes(r) == ["BA111"]


def test_unit_not_allowed_by_detachment(check) -> None:
    r = check("", raw="faction: Test Legion\ndetachment: Small Detachment\nunits:\n"
              "  - {unit: Lord Commander, warlord: true}\n  - {unit: Cherub}\n")
    assert codes(r) == ["BA112"] and r.findings[0].line == 5


def test_unit_maximum_boundary(check) -> None:
    two = LORD + "- {unit: Heavy Squad, models: 5}\n" * 2
    assert check(two).valid
    r = check(two + "- {unit: Heavy Squad, models: 5}\n")
    assert "BA113" in codes(r)


def test_illegal_starting_strength(check) -> None:
    r = check(LORD + "- unit: Line Squad\n  models: 7\n")
    assert codes(r) == ["BA114"] and r.findings[0].line == 7 and "5 or 10" in r.findings[0].message


def test_detachment_restricts_sizes(check) -> None:
    r = check("", raw="faction: Test Legion\ndetachment: Small Detachment\nunits:\n"
              "  - {unit: Lord Commander, warlord: true}\n  - {unit: Line Squad, models: 10}\n")
    assert codes(r) == ["BA114"]


def test_size_may_be_left_out_only_when_one_is_legal(check) -> None:
    assert check(LORD + "- unit: Hound Pack\n- unit: Line Squad\n  models: 5\n").valid
    r = check(LORD + "- unit: Line Squad\n")
    assert codes(r) == ["BA115"]
    ok = check("", raw="faction: Test Legion\ndetachment: Small Detachment\nunits:\n"
               "  - {unit: Lord Commander, warlord: true}\n  - {unit: Line Squad}\n")
    assert ok.valid and ok.units[1].models == 5


def test_half_of_double_size_points(check) -> None:
    r = check(LORD + "- {unit: Heavy Squad, models: 5}\n")
    assert r.valid and r.units[1].points == 188


def test_bracket_points(check) -> None:
    r = check(LORD + "- {unit: Bracket Squad, models: 4}\n")
    assert r.valid and r.units[1].points == 120


def test_epic_hero_once(check) -> None:
    one = LORD + "- unit: Hero Prime\n"
    assert check(one).valid
    r = check(one + "- unit: Hero Prime\n")
    assert codes(r) == ["BA120"] and r.findings[0].line == 7


# --- Warlord (step 5) -----------------------------------------------------------------------

def test_warlord_missing(check) -> None:
    r = check("- unit: Lord Commander\n")
    assert codes(r) == ["BA130"] and "CHARACTER" in r.findings[0].message


def test_two_warlords(check) -> None:
    r = check(LORD + "- {unit: Tech Adept, warlord: true}\n")
    assert codes(r) == ["BA131"] and r.findings[0].line == 6


def test_warlord_must_be_character_when_there_is_one(check) -> None:
    r = check("- {unit: Lord Commander}\n- {unit: Line Squad, models: 5, warlord: true}\n")
    assert codes(r) == ["BA132"]


def test_warlord_without_characters_may_be_anything(check) -> None:
    assert check("- {unit: Line Squad, models: 5, warlord: true}\n").valid


# --- Enhancements, 2024 ---------------------------------------------------------------------

def test_two_enhancements_on_characters(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Iron Will}\n"
              "- {unit: Tech Adept, enhancement: Peerless Leader}\n")
    assert r.valid


def test_third_enhancement_refused(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Iron Will}\n"
              "- {unit: Tech Adept, enhancement: Peerless Leader}\n"
              "- {unit: Warrior Beast, enhancement: Expert Breacher}\n")
    assert codes(r) == ["BA144"] and r.findings[0].unit == "Warrior Beast"


def test_same_enhancement_twice(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Iron Will}\n"
              "- {unit: Tech Adept, enhancement: iron will}\n")
    assert codes(r) == ["BA143"]


def test_enhancement_on_epic_hero(check) -> None:
    r = check(LORD + "- {unit: Hero Prime, enhancement: Iron Will}\n")
    assert codes(r) == ["BA142"]


def test_enhancement_on_non_character(check) -> None:
    r = check(LORD + "- {unit: Line Squad, models: 5, enhancement: Iron Will}\n")
    assert codes(r) == ["BA141"]


def test_detachment_lets_a_non_character_take_one(check) -> None:
    r = check(LORD + "- {unit: Warrior Beast, enhancement: Iron Will}\n")
    assert r.valid


def test_unknown_enhancement_suggests(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Iron Wil}\n")
    assert codes(r) == ["BA140"] and "Iron Will" in r.findings[0].message


def test_enhancement_of_another_detachment(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Quiet Step}\n")
    assert codes(r) == ["BA140"] and "Small Detachment" in r.findings[0].message


def test_detachment_enhancement_needs_its_faction_keyword(check) -> None:
    r = check(LORD + "- {unit: Tech Adept}\n- {unit: Stranger, enhancement: Iron Will}\n")
    assert "BA146" in codes(r)


def test_enhancement_bearer_keywords(check) -> None:
    assert check(LORD + "- {unit: Tech Adept, enhancement: Gear Sense}\n").valid
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Gear Sense}\n")
    assert codes(r) == ["BA147"]


def test_trademark_weapon_needs_a_weapon(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Trademark Weapon}\n")
    assert codes(r) == ["BA150"]


def test_trademark_weapon_ranged(check) -> None:
    ok = check("- {unit: Lord Commander, warlord: true, enhancement: Trademark Weapon, "
               "weapon: storm bolter}\n")
    assert ok.valid
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Trademark Weapon, "
              "weapon: Power sword}\n")
    assert codes(r) == ["BA152"] and "melee" in r.findings[0].message


def test_trademark_weapon_unknown_weapon(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, enhancement: Trademark Weapon, "
              "weapon: Storm boltr}\n")
    assert codes(r) == ["BA151"] and "Storm bolter" in r.findings[0].message


def test_trademark_weapon_excludes_torrent_in_2024_only(check) -> None:
    units = ("- {unit: Lord Commander, warlord: true, enhancement: Trademark Weapon, "
             "weapon: Flamer}\n")
    assert codes(check(units)) == ["BA152"]
    assert check(units, header="edition: 2023\n").valid


def test_trademark_weapon_without_weapon_data_is_not_pretended(check) -> None:
    r = check("- {unit: Unarmed Sage, warlord: true, enhancement: Trademark Weapon, "
              "weapon: Staff}\n")
    assert codes(r) == ["BA154"] and r.valid  # a warning: the data cannot settle it


def test_weapon_without_trademark_weapon(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, weapon: Storm bolter}\n")
    assert codes(r) == ["BA153"] and r.valid


# --- 2023 against 2024 on the same roster ---------------------------------------------------

TWO_ENHANCEMENTS = ("- {unit: Lord Commander, warlord: true, enhancement: Iron Will}\n"
                    "- {unit: Tech Adept, enhancement: Peerless Leader}\n")


def test_2024_allows_two_enhancements_2023_one_on_the_warlord(check) -> None:
    assert check(TWO_ENHANCEMENTS).valid
    r = check(TWO_ENHANCEMENTS, header="edition: 2023\n")
    assert sorted(codes(r)) == ["BA144", "BA145"]


def test_2023_warlord_enhancement(check) -> None:
    assert check("- {unit: Lord Commander, warlord: true, enhancement: Iron Will}\n",
                 header="edition: 2023\n").valid
    r = check(LORD + "- {unit: Tech Adept, enhancement: Iron Will}\n", header="edition: 2023\n")
    assert codes(r) == ["BA145"]


def test_duplicate_labels_warn(check) -> None:
    r = check(LORD + "- {unit: Line Squad, models: 5, label: A}\n"
              "- {unit: Line Squad, models: 5, label: a}\n")
    assert codes(r) == ["BA180"] and r.valid


def test_findings_have_stable_fields(check) -> None:
    r = check(LORD + "- unit: Nope\n")
    d = r.as_dict()
    assert list(d) == ["path", "valid", "points", "limit", "issues"]
    assert list(d["issues"][0]) == ["code", "severity", "message", "line", "unit"]


def test_datasheet_can_forbid_enhancements_on_a_character(check) -> None:
    r = check(LORD + "- {unit: Flamer Priest, enhancement: Iron Will}\n")
    assert codes(r) == ["BA141"] and "adaptation forbids" in r.findings[0].message


def test_enhancement_and_detachment_aliases(check) -> None:
    r = check("- {unit: Lord Commander, warlord: true, enhancement: will of iron}\n",
              raw=None)
    assert r.valid
    r = check("", raw="faction: Test Legion\ndetachment: Strike of Tests\nunits:\n"
              "  - {unit: Lord Commander, warlord: true}\n")
    assert r.valid and r.detachment == "Test Strike"


def test_names_ignore_accents(check) -> None:
    r = check(LORD + "- {unit: Kharn the tester}\n")
    assert r.valid and r.units[1].name == "Khârn the Tester"
