"""Army lists that are not bagm rosters: saying what they are, and reading them anyway.

A command that reads a roster and is given another tool's export (BattleScribe or New Recruit
.ros/.rosz or JSON, the Warhammer 40,000 app's or New Recruit's text) says what the file is
and how to import it; with ``--import`` it imports the list in memory through the importer
(``bagm.roster.importer.import_file``) and goes on with the importer's notes.

Detection runs only after a file failed to load as a roster, so a real roster costs nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bagm.io.yamlsafe import InputError

if TYPE_CHECKING:  # pragma: no cover
    from bagm.data.packs import Catalog
    from bagm.roster.model import Roster

SNIFF_BYTES = 65536
# "Name (500 Points)" / "Name [500 pts]": the first line of the app's and New Recruit's text
_TITLE = re.compile(r"^.+[(\[]\s*\d+\s*(points|pts)\s*[)\]]\s*$", re.IGNORECASE)
_UNIT = re.compile(r"^.+[(\[]\s*\d+\s*(points|pts)\s*[)\]]\s*$", re.IGNORECASE | re.MULTILINE)


def kind_of(path: Path | str) -> str | None:
    """What kind of army list ``path`` is when it is not a bagm roster, in a user's words;
    None when it looks like none of them (a broken roster, say)."""
    p = Path(path)
    if not p.is_file():  # a folder, a device, a pipe (opening a FIFO would wait for a writer)
        return None
    try:
        with p.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return None
    if p.suffix.lower() == ".rosz" or head[:4] == b"PK\x03\x04":
        return "a BattleScribe / New Recruit roster (.rosz)"
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if p.suffix.lower() == ".ros" or (start[:1] == b"<" and b"<roster" in head):
        return "a BattleScribe / New Recruit roster (.ros)"
    text = start.decode("utf-8", "replace")
    if start[:1] in (b"{", b"["):
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if isinstance(data, dict) and "roster" in data:
            return "a New Recruit / BattleScribe JSON export"
        if isinstance(data, dict) and data.get("format") == "bagm-roster":
            return "bagm's JSON export ('bagm export --to json')"
        return None
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if re.search(r"^\s*\+\s*FACTION KEYWORD\s*:", text, re.IGNORECASE | re.MULTILINE):
        return "a WTC-format text list"
    if re.match(r"^\+\+\s.*\+\+$", first):
        return "a BattleScribe / New Recruit text export"
    if _TITLE.match(first) or ("•" in text and _UNIT.search(text)):
        return "an army list as text (the Warhammer 40,000 app's or New Recruit's export)"
    return None


def not_a_roster(path: Path | str, kind: str) -> InputError:
    """The error for a roster command given another tool's list: what it is, what to do."""
    p = Path(path)
    return InputError(str(p), f"is {kind}, not a bagm roster",
                      hint=f"import it with 'bagm import {p} -o {p.stem}.yaml'; validate, show, "
                      "squads, underdog, export, play and simulate also read it as it is with --import")


@dataclass
class Imported:
    """A list read through the importer: the roster, and what the importer had to say."""

    roster: Roster
    kind: str
    notes: list[str] = field(default_factory=list)
    text: str = ""
    """The roster the list became, as a roster file's text (what a game's log stores)."""


def load_or_import(path: Path | str, catalog: Catalog, importing: bool) -> Imported | Roster:
    """The roster in ``path``; another tool's list is refused (:func:`not_a_roster`) unless
    ``importing``, when it is imported in memory and returned with the importer's notes."""
    from bagm.roster.model import load_roster

    try:
        return load_roster(path)
    except InputError:
        kind = kind_of(path)
        if kind is None:
            raise
        if not importing:
            raise not_a_roster(path, kind) from None
    from bagm.roster.importer import import_file, roster_yaml

    result = import_file(path, catalog)
    text = roster_yaml(result)
    notes = [f"imported as {result.format_name}"] + list(result.notes) + \
        [f"not mapped: {u}" for u in result.unmapped]
    return Imported(load_roster(path, text), kind, notes, text)


def roster_of(loaded: Imported | Roster) -> Roster:
    return loaded.roster if isinstance(loaded, Imported) else loaded


def notes_of(loaded: Imported | Roster) -> list[str]:
    return loaded.notes if isinstance(loaded, Imported) else []
