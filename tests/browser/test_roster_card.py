"""The printable roster card (``bagm export --to html`` / ``--to svg``) in a real browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.cli.app import app
from browser.kit import BrowserPage, assert_looks_like

ROSTERS = Path(__file__).parents[2] / "rosters"
TYPICAL = ROSTERS / "grey_knights_void_purge_force.yaml"
# the bundled rosters with the most to print: many units, many wargear options
LONGEST = ["astra_militarum_embarked_regiment", "tau_empire_kroot_raiding_party",
           "orks_ramship_raiders", "agents_of_the_imperium_voidships_company"]


def export(roster: Path, to: str, out: Path, *extra: str) -> Path:
    result = CliRunner().invoke(app, ["export", str(roster), "--to", to, "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out


def test_card_loads_clean_and_shows_the_roster(page: BrowserPage, tmp_path: Path) -> None:
    card = export(TYPICAL, "html", tmp_path / "card.html")
    page.open(card).assert_clean()
    raw = page.raw
    assert raw.title() == "Purgation Force · Boarding Patrol"
    assert raw.locator("section.unit").count() == 4
    assert raw.inner_text("#unit-3 h2") .split() == ["3", "Strike", "Squad", "240", "pts"]
    assert "Storm bolter" in raw.inner_text("#unit-3 table.bs")


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("name", ["grey_knights_void_purge_force", *LONGEST])
def test_print_preview_fits_one_page(page: BrowserPage, tmp_path: Path, name: str,
                                     paper: str) -> None:
    card = export(ROSTERS / f"{name}.yaml", "html", tmp_path / "card.html")
    assert page.open(card).pdf_pages(paper) == 1


def test_print_is_black_and_white(page: BrowserPage, tmp_path: Path) -> None:
    page.open(export(TYPICAL, "html", tmp_path / "card.html"))
    page.raw.emulate_media(media="print")
    colours = page.raw.evaluate("""() => {
        const seen = new Set();
        for (const el of document.querySelectorAll('*')) {
            const s = getComputedStyle(el);
            for (const c of [s.color, s.backgroundColor, s.borderTopColor, s.borderBottomColor])
                seen.add(c);
        }
        return [...seen].sort();
    }""")
    assert set(colours) <= {"rgb(0, 0, 0)", "rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"}, colours


def test_card_screenshot(page: BrowserPage, tmp_path: Path) -> None:
    page.open(export(TYPICAL, "html", tmp_path / "card.html"))
    assert_looks_like(page.screenshot("roster-card", 1024, 768), "roster-card")


def test_svg_card_loads_clean(page: BrowserPage, tmp_path: Path) -> None:
    svg = export(TYPICAL, "svg", tmp_path / "card.svg")
    page.open(svg).assert_clean()
    assert page.raw.locator("text").filter(has_text="Purgation Force").count() == 1
    box = page.raw.evaluate("(() => { const b = document.documentElement.getBBox(); "
                            "return [b.width, b.height]; })()")
    assert box[0] <= 794 and box[1] > 500  # drawn inside its width, the whole card
    assert_looks_like(page.screenshot("roster-card-svg", 800, 600), "roster-card-svg")
