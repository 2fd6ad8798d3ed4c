"""Helpers of the browser tests, imported as ``browser.kit`` (the fixtures are in conftest.py):
a tab that records its errors, screenshots at a fixed size compared at a coarse scale, PDF
page counts."""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"

# Flags that let Chromium run in this sandbox with no network but the loopback: without the
# background-networking ones it keeps trying (and failing) to reach Google's hosts.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
LOCAL_URLS = ("file:", "data:", "about:", "blob:", "http://127.0.0.1", "http://localhost")


def chromium_path() -> str | None:
    """The system Chromium: ``BAGM_CHROMIUM``, else ``chromium`` on PATH or /usr/bin."""
    env = os.environ.get("BAGM_CHROMIUM")
    if env:
        return env if Path(env).is_file() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None



@dataclass
class BrowserPage:
    """A browser tab that records what went wrong while a page was open."""

    raw: Any  # playwright.sync_api.Page
    shots: Path
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    remote_requests: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.raw.on("console", self._console)
        self.raw.on("pageerror", lambda exc: self.page_errors.append(str(exc)))
        self.raw.on("request", self._request)

    def _console(self, msg: Any) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)

    def _request(self, request: Any) -> None:
        if not request.url.startswith(LOCAL_URLS):
            self.remote_requests.append(request.url)

    @property
    def errors(self) -> list[str]:
        """Console errors and uncaught exceptions, in one list."""
        return self.console_errors + self.page_errors

    def open(self, target: str | Path) -> BrowserPage:
        """Load a local file (a path) or a URL and wait until it has loaded."""
        url = Path(target).resolve().as_uri() if isinstance(target, Path) else target
        self.raw.goto(url, wait_until="load")
        return self

    def assert_clean(self) -> None:
        """No console error, no uncaught exception, no request beyond this machine."""
        assert self.errors == [], self.errors
        assert self.remote_requests == [], self.remote_requests

    def screenshot(self, name: str, width: int = 1024, height: int = 768,
                   full_page: bool = False) -> Path:
        """A PNG of the page at a fixed viewport size, written to the screenshots folder."""
        self.raw.set_viewport_size({"width": width, "height": height})
        path = self.shots / f"{name}.png"
        self.raw.screenshot(path=str(path), full_page=full_page, animations="disabled",
                            caret="hide")
        return path

    def pdf_pages(self, paper: str = "A4") -> int:
        """Pages the print preview takes on ``paper`` (A4 or Letter), default margins."""
        data = self.raw.pdf(format=paper, print_background=False, prefer_css_page_size=False)
        return pdf_page_count(data)


def pdf_page_count(data: bytes) -> int:
    """Page objects in a PDF Chromium wrote (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))



def assert_looks_like(shot: Path, golden: str, tolerance: float = 0.06) -> None:
    """The screenshot matches ``golden/<golden>.png`` at 1/8 scale in greyscale: the layout
    (where blocks of text, tables and pictures sit) must hold, while antialiasing and font
    hinting, which differ between Chromium builds, do not count. ``tolerance`` is the mean
    difference allowed, as a fraction of full scale."""
    try:
        from PIL import Image, ImageChops, ImageStat
    except ImportError:
        pytest.skip("Pillow is not installed (pip install '.[browser]')")
    ref = GOLDEN / f"{golden}.png"
    if os.environ.get("BAGM_UPDATE_SCREENSHOTS") == "1":
        ref.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, ref)
        return
    assert ref.is_file(), f"no reference {ref}; run with BAGM_UPDATE_SCREENSHOTS=1 to write it"
    with Image.open(shot) as a, Image.open(ref) as b:
        assert a.size == b.size, f"screenshot {a.size}, reference {b.size}"
        small = (max(1, a.width // 8), max(1, a.height // 8))
        ga = a.convert("L").resize(small, Image.Resampling.BOX)
        gb = b.convert("L").resize(small, Image.Resampling.BOX)
        diff = ImageStat.Stat(ImageChops.difference(ga, gb)).mean[0] / 255
    assert diff <= tolerance, f"{shot} differs from {ref} by {diff:.3f} (> {tolerance})"
