"""The mission table (names and Underdog Bonuses) from ``missions.yaml``."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from bagm.io.yamlsafe import load_trusted


@lru_cache(maxsize=1)
def missions() -> dict[int, dict[str, Any]]:
    path = Path(str(resources.files("bagm.data"))) / "missions.yaml"
    return {m["number"]: m for m in load_trusted(path)["missions"]}
