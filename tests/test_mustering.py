"""The generic mustering engine: one passing and one failing roster per rule kind."""

from __future__ import annotations

from conftest import codes

LORD = "- unit: Lord Commander\n  warlord: true\n"


def test_character_limit(check) -> None:
    three = LORD + "- unit: Hero Prime\n- unit: Tech Adept\n"
    assert check(three).valid
    r = check(three + "- unit: Hero Prime\n")
    assert "BA160" in codes(r) and "at most 3" in r.findings[-1].message


def test_pool_limit_and_no_duplicates(check) -> None:
    r = check(LORD + "- unit: Red Guard\n- unit: Red Guard\n")
    assert codes(r) == ["BA160"] and "taken twice" in r.findings[0].message
    r = check(LORD + "- unit: Red Guard\n- unit: Blue Guard\n- unit: Blue Guard\n")
    assert "BA160" in codes(r)


def test_ratio(check) -> None:
    assert check(LORD + "- {unit: Line Squad, models: 5}\n- unit: Hound Pack\n").valid
    r = check(LORD + "- {unit: Line Squad, models: 5}\n- unit: Hound Pack\n- unit: Hound Pack\n")
    assert codes(r) == ["BA161"] and r.findings[0].line == 8


def test_requires(check) -> None:
    assert check(LORD + "- unit: Warrior Beast\n").valid
    r = check("- {unit: Tech Adept, warlord: true}\n- unit: Warrior Beast\n")
    assert codes(r) == ["BA162"]


def test_exclusive(check) -> None:
    assert check(LORD + "- unit: Tech Adept\n").valid
    r = check(LORD + "- unit: Tech Adept\n- unit: Unarmed Sage\n")
    assert codes(r) == ["BA163"]


def test_keyword_group(check) -> None:
    assert check(LORD + "- unit: Red Guard\n").valid
    r = check(LORD + "- unit: Red Guard\n- unit: Blue Guard\n")
    assert codes(r) == ["BA164"] and "RED CLAN and BLUE CLAN" in r.findings[0].message


def test_excludes(check) -> None:
    assert check("- {unit: Loner, warlord: true}\n- unit: Line Squad\n  models: 5\n").valid
    r = check("- {unit: Loner, warlord: true}\n- unit: Tech Adept\n")
    assert codes(r) == ["BA165"] and r.findings[0].unit == "Tech Adept"
