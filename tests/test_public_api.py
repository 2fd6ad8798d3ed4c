"""Tests, bots, the log and the CLI use the game's public API only (issue 11: "No test or bot
touches a private member"): a game's members, and the functions of the game's modules (the
phases and the state's queries, ``bagm.engine.game``), whose names start with one underscore
are the engine's own. Checked over the source text: a game is named ``g``, ``game``, ``g2``,
``clone`` or ``copy`` wherever these places hold one; a module by its name."""

from __future__ import annotations

import re

from conftest import REPO

GAME_MODULES = sorted(p.stem for p in (REPO / "bagm" / "engine" / "game").glob("*.py") if p.stem != "__init__")
PRIVATE = re.compile(r"\b(?:g|game|g2|clone|copy|self\.game|self\.g|" + "|".join(GAME_MODULES) + r")\._[a-z]\w*")
PLACES = ["tests", "bagm/engine/bots", "bagm/engine/log", "bagm/cli", "bagm/render"]


def test_no_test_bot_or_front_end_touches_a_private_member_of_the_game():
    found = []
    for place in PLACES:
        for path in sorted((REPO / place).rglob("*.py")):
            if path.name == "test_public_api.py":
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found += [f"{path.relative_to(REPO)}:{n}: {m}" for m in PRIVATE.findall(line)]
    assert not found, "private members of the game used:\n" + "\n".join(found)


def test_the_check_finds_a_private_member():
    assert PRIVATE.findall("for _ in g._shock_test(u):") == ["g._shock_test"]
    assert PRIVATE.findall("positions._groups(pts, r)") == ["positions._groups"]
    assert "positions" in GAME_MODULES and "movement" in GAME_MODULES
    assert not PRIVATE.findall("g.run_step('fight'); game.__class__; g.units")
