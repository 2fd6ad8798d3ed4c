"""The browser fixtures themselves: each check here can fail, so a green browser test means
the page really loaded clean, really fits its pages, really looks as it did."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser.kit import BrowserPage, assert_looks_like, pdf_page_count


def write(tmp_path: Path, body: str, name: str = "page.html") -> Path:
    path = tmp_path / name
    path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>t</title></head>"
                    f"<body>{body}</body></html>", encoding="utf-8")
    return path


def test_a_clean_page_is_clean(page: BrowserPage, tmp_path: Path) -> None:
    page.open(write(tmp_path, "<p id='x'>hello</p><script>console.log('fine')</script>"))
    page.assert_clean()
    assert page.raw.inner_text("#x") == "hello"


def test_console_errors_and_exceptions_are_caught(page: BrowserPage, tmp_path: Path) -> None:
    page.open(write(tmp_path, "<script>console.error('boom')</script>"
                              "<script>null.field</script>"))
    assert page.console_errors == ["boom"]
    assert len(page.page_errors) == 1 and "null" in page.page_errors[0]
    with pytest.raises(AssertionError):
        page.assert_clean()


def test_a_request_beyond_the_machine_is_recorded_and_stopped(page: BrowserPage,
                                                              tmp_path: Path) -> None:
    page.open(write(tmp_path, "<img src='https://cdn.example.invalid/x.png'>"))
    assert page.remote_requests == ["https://cdn.example.invalid/x.png"]


def test_print_preview_page_count(page: BrowserPage, tmp_path: Path) -> None:
    one = "<p>short</p>"
    three = "".join(f"<p style='page-break-after:always'>page {i}</p>" for i in range(2)) + \
        "<p>last</p>"
    assert page.open(write(tmp_path, one, "one.html")).pdf_pages("A4") == 1
    assert page.open(write(tmp_path, three, "three.html")).pdf_pages("Letter") == 3
    assert pdf_page_count(b"<< /Type /Pages /Count 0 >>") == 0


def test_screenshot_at_a_fixed_size(page: BrowserPage, tmp_path: Path) -> None:
    from PIL import Image

    page.open(write(tmp_path, "<div style='width:200px;height:100px;background:#000'></div>"))
    shot = page.screenshot("box", 400, 300)
    with Image.open(shot) as img:
        assert img.size == (400, 300)
        assert img.getpixel((50, 50))[:3] == (0, 0, 0)  # the box, top left after the margin
        assert img.getpixel((350, 250))[:3] == (255, 255, 255)


def test_looks_like_catches_a_moved_block(page: BrowserPage, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from browser import kit

    monkeypatch.setattr(kit, "GOLDEN", tmp_path / "golden")
    box = "<div style='position:absolute;left:{}px;top:20px;width:200px;height:200px;" \
          "background:#000'></div>"
    page.open(write(tmp_path, box.format(20), "a.html"))
    first = page.screenshot("a", 400, 300)
    monkeypatch.setenv("BAGM_UPDATE_SCREENSHOTS", "1")
    assert_looks_like(first, "box")
    monkeypatch.delenv("BAGM_UPDATE_SCREENSHOTS")
    assert_looks_like(first, "box")  # itself
    page.open(write(tmp_path, box.format(21), "b.html"))
    assert_looks_like(page.screenshot("b", 400, 300), "box")  # a pixel: within tolerance
    page.open(write(tmp_path, box.format(180), "c.html"))
    with pytest.raises(AssertionError, match="differs"):
        assert_looks_like(page.screenshot("c", 400, 300), "box")
