"""The simulation report (`bagm simulate --html`) in a real browser: it loads clean and
offline, its charts are drawn, and its links open the sample games' replay pages."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.cli.app import app
from browser.kit import BrowserPage, assert_looks_like

REPO = Path(__file__).resolve().parents[2]
GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")
ORKS = str(REPO / "rosters" / "orks_kaptin_killers.yaml")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict]]:
    folder = tmp_path_factory.mktemp("sim")
    here = os.getcwd()
    os.chdir(folder)
    try:
        r = CliRunner().invoke(app, ["simulate", GK, ORKS, "--games", "4", "--jobs", "1", "--seed", "5",
                                     "--format", "json", "--html", "report.html"])
    finally:
        os.chdir(here)
    assert r.exit_code == 0, r.output
    yield folder / "report.html", json.loads(r.stdout)


def test_the_report_loads_clean_with_its_charts(page: BrowserPage, report: tuple[Path, dict]) -> None:
    path, sim = report
    page.open(path)
    page.assert_clean()
    for section in ("#win-rates", "#vp-histogram", "#vp-by-round", "#vp-reasons", "#units-scored",
                    "#units-died", "#units-damage", "#samples"):
        assert page.raw.is_visible(section), section
    # one bar per player and VP band in the histogram, drawn with a height where games fell there
    bars = page.raw.eval_on_selector_all("#vp-histogram rect", "rs => rs.map(r => Number(r.getAttribute('height')))")
    band_counts = sim["vp_histogram"]["counts"]["A"] + sim["vp_histogram"]["counts"]["B"]
    assert len(bars) == len(band_counts)
    assert [h > 0 for h in bars] == [c > 0 for c in band_counts]
    rows = page.raw.eval_on_selector_all("#units-died tr", "rs => rs.length")
    assert rows == 1 + len(sim["units"])
    # which units scored most: the units the VP events credit, the most first
    top = max(sim["units"], key=lambda u: u["vp_credited"])
    first = page.raw.eval_on_selector_all("#units-scored tr", "rs => [...rs[1].cells].map(c => c.textContent)")
    assert first == [top["name"], f"{top['vp_credited']:.1f}"] and top["vp_credited"] > 0


def test_the_links_open_the_sample_games(page: BrowserPage, report: tuple[Path, dict]) -> None:
    path, sim = report
    page.open(path)
    with page.raw.expect_navigation():
        page.raw.click("#samples a >> text=watch")
    assert page.raw.url.split("#")[0].endswith(sim["samples"][0]["page"])
    page.assert_clean()
    page.raw.keyboard.press("End")
    assert page.raw.inner_text("#vp-a") == str(sim["samples"][0]["vp"]["A"])


def test_screenshot_of_the_report(page: BrowserPage, report: tuple[Path, dict]) -> None:
    path, _ = report
    page.open(path)
    assert_looks_like(page.screenshot("sim-report", 1280, 900), "sim_report")
