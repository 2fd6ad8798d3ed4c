"""The Critical Hits table, from the user's own data file.

The rules text sends Hit-and-Run scores to the Critical Hits table but does not give it (nor the
Catastrophic Damage table), so bagm ships neither and never names an effect itself. A user who has
the table writes it as YAML, one score (or range of scores) per line::

    # critical hits: from my rulebook
    critical_hits:
      2: Dorsal armament damaged
      3: Starboard armament damaged
      4-5: Engines damaged

and passes it with ``--table FILE``; the scores bagm reports are then named.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bagm.io.yamlsafe import InputError, load

MAX_SCORE = 20  # a 2D6 attack with a +1 scores 13
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")
HINT = "write 'critical_hits:' then one 'SCORE: effect' (or 'LOW-HIGH: effect') per line"


def read_one_mapping(path: Path | str, key: str, what: str, hint: str, extra_hint: str | None = None
                     ) -> tuple[Any, str, Any]:
    """A YAML file whose top is the one mapping ``key``: (the document, the file's name, the
    value under ``key``); a missing ``key`` or any other key is refused with its line."""
    doc = load(path)
    name = str(path)
    data = doc.data
    if not isinstance(data, dict) or key not in data:
        raise InputError(name, f"no '{key}' {what}", line=doc.line(()), hint=hint)
    extra = [k for k in data if k != key]
    if extra:
        raise InputError(name, f"unknown key '{extra[0]}'", line=doc.line((extra[0],)),
                         hint=extra_hint or hint)
    return doc, name, data[key]


def load_critical_hits(path: Path | str) -> dict[int, str]:
    """Score -> effect name, from the ``critical_hits`` mapping of a YAML file."""
    doc, name, table = read_one_mapping(path, "critical_hits", "table", HINT,
                                    "only 'critical_hits' is read: the text has no procedure that "
                                    "rolls on another table")
    if not isinstance(table, dict) or not table:
        raise InputError(name, "'critical_hits' must map scores to effects",
                         line=doc.line(("critical_hits",)), hint=HINT)
    out: dict[int, str] = {}
    for key, effect in table.items():
        line = doc.line(("critical_hits", key))
        m = _RANGE.match(str(key))
        if m is None:
            raise InputError(name, f"'{key}' is not a score or a range of scores", line=line,
                             hint="use a whole number (5) or a range (4-5)")
        lo = int(m[1])
        hi = int(m[2]) if m[2] else lo
        if not 1 <= lo <= hi <= MAX_SCORE:
            raise InputError(name, f"scores '{key}' must run upwards from 1 to {MAX_SCORE}",
                             line=line)
        if not isinstance(effect, str) or not effect.strip():
            raise InputError(name, f"score '{key}' needs the effect's name as text", line=line,
                             hint="e.g. 2: Dorsal armament damaged")
        for score in range(lo, hi + 1):
            if score in out:
                raise InputError(name, f"score {score} is given twice", line=line)
            out[score] = effect.strip()
    return dict(sorted(out.items()))
