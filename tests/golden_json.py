"""Golden JSON outputs: compare with tests/golden/json/NAME.json.

After a deliberate change of an output: BAGM_REGEN_GOLDEN=1 pytest TESTS, then review the diff
of tests/golden/json/.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

GOLDEN_JSON = Path(__file__).parent / "golden" / "json"


def assert_golden_json(name: str, text: str) -> None:
    """``text`` is valid JSON and equal, byte for byte, to the golden file ``name``."""
    json.loads(text)
    path = GOLDEN_JSON / f"{name}.json"
    if os.environ.get("BAGM_REGEN_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"{path} is missing: run the test once with BAGM_REGEN_GOLDEN=1 and review it")
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs from the output"
