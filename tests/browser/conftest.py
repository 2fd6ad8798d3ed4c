"""Browser tests: pages bagm writes, opened in a real headless Chromium.

Every test in this folder carries the ``browser`` marker and skips cleanly where Playwright or
a Chromium is not installed (``.ci/run`` installs Debian's ``chromium``). Playwright drives the
system browser (``/usr/bin/chromium``, or ``BAGM_CHROMIUM``) and never downloads its own.

Fixtures:

- ``page``: a :class:`BrowserPage`; ``page.open(path_or_url)`` loads a local file or URL and
  collects console errors, uncaught exceptions and any request that leaves the machine
  (a self-contained page makes none).
- ``page.screenshot(name, width, height)``: a PNG at a fixed viewport size, kept under
  ``BAGM_SCREENSHOTS`` (default: the test's temporary folder) for a person to look at.
- ``browser.kit.assert_looks_like``: compares a screenshot with a reference PNG under
  ``tests/browser/golden/`` at a coarse scale (layout, not font hinting);
  ``BAGM_UPDATE_SCREENSHOTS=1`` writes the reference instead.
- ``page.pdf_pages(paper)``: how many pages the print preview takes on A4 or Letter.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.kit import CHROMIUM_FLAGS, HERE, LOCAL_URLS, BrowserPage, chromium_path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _local_only(route: Any) -> None:
    """Nothing a test opens reaches beyond this machine (the page records the attempt)."""
    if route.request.url.startswith(LOCAL_URLS):
        route.continue_()
    else:
        route.abort()


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One headless Chromium for the session, with a fresh, empty profile."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (pip install '.[browser]')")
    exe = chromium_path()
    if exe is None:
        pytest.skip("no Chromium installed (apt-get install chromium)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as pw:
        # launch_persistent_context: the only way Playwright takes our own --user-data-dir
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=exe, headless=True, args=CHROMIUM_FLAGS,
            viewport={"width": 1024, "height": 768}, device_scale_factor=1,
            locale="en-GB", timezone_id="UTC", color_scheme="light", reduced_motion="reduce")
        context.route("**/*", _local_only)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser_context: Any, tmp_path: Path) -> Iterator[BrowserPage]:
    shots = Path(os.environ.get("BAGM_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    raw = browser_context.new_page()
    try:
        yield BrowserPage(raw, shots)
    finally:
        raw.close()
