"""Property tests over bot games: no crash; no model inside a Wall or another base; wounds, CP
and VP within their bounds; the same seed gives the same log. BAGM_PROPERTY_GAMES sets how many
random games (default 16; set it higher for a long run)."""

from __future__ import annotations

import copy
import math
import os
from functools import cache

import pytest

from bagm.engine.army import build_army
from bagm.engine.bots import make_bot
from bagm.engine.game import VP_CAP, Game
from bagm.engine.record import bots_chooser, play_bots
from conftest import REPO

GAMES = int(os.environ.get("BAGM_PROPERTY_GAMES", "16"))
PAIRS = [("grey_knights_void_purge_force", "orks_kaptin_killers"),
         ("necrons_harbinger_cabal", "adeptus_astartes_boarding_strike")]


@cache
def armies(a: str, b: str) -> tuple:
    return (build_army("A", REPO / "rosters" / f"{a}.yaml"), build_army("B", REPO / "rosters" / f"{b}.yaml"))


def check_invariants(g: Game) -> None:
    on = [(u, m) for u in g.units.values() if u.where == "board" for m in u.models]
    for u, m in on:
        assert g.bf.fits(m.base), f"{u.uid} model at ({m.x:.2f}, {m.y:.2f}) is inside a Wall or off the board"
        assert 1 <= m.wounds <= u.W, f"{u.uid} model has {m.wounds} wounds of {u.W}"
    for i, (u, m) in enumerate(on):
        for v, n in on[i + 1:]:
            d = math.hypot(m.x - n.x, m.y - n.y)
            assert d >= m.r + n.r - 1e-6, f"{u.uid} and {v.uid} bases overlap"
    for p in ("A", "B"):
        assert g.cp[p] >= 0
        assert 0 <= g.vp[p] <= VP_CAP + 10
        assert len([u for u in g.army_units(p)]) <= len(g.armies[p].units)
    for u in g.units.values():
        assert u.where in ("army", "board", "reserves", "destroyed")
        assert len(u.models) <= u.starting


def play_checked(a: str, b: str, seed: int, bot: str) -> list[str]:
    A, B = armies(a, b)
    g = Game(11, copy.deepcopy(A), copy.deepcopy(B), seed)
    choose = bots_chooser({"A": make_bot(bot, seed), "B": make_bot(bot, seed + 1)})
    n = 0
    while not g.finished:
        legal = g.legal_actions()
        act = choose(g)
        assert act in legal or g.decision.step in ("move", "reinforce")
        g.apply(act)
        n += 1
        if g.decision.step in ("move", "over") or n % 10 == 0:
            check_invariants(g)
    check_invariants(g)
    assert g.round == 5 and g.vp["A"] <= VP_CAP + 10
    return [str(e) for e in g.events]


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_bot_games_keep_the_invariants(seed):
    a, b = PAIRS[seed % len(PAIRS)]
    play_checked(a, b, seed, "random")


def test_greedy_game_keeps_the_invariants():
    play_checked(*PAIRS[1], 3, "greedy")


def test_same_seed_same_log():
    A, B = armies(*PAIRS[0])
    one = play_bots(11, "", "", 11, "random", "random", armies=(A, B))
    two = play_bots(11, "", "", 11, "random", "random", armies=(A, B))
    assert one.lines == two.lines
    three = play_bots(11, "", "", 12, "random", "random", armies=(A, B))
    assert three.lines != one.lines
