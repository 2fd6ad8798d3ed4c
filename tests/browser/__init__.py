"""Browser tests (marker ``browser``): pages bagm writes, in a headless Chromium."""
