"""Bots: players that choose among :meth:`Game.legal_actions` (see :mod:`.random` and
:mod:`.greedy`). A bot is any callable from a game to one of its legal actions."""

from __future__ import annotations

from collections.abc import Callable

from bagm.engine.bots.greedy import GreedyBot
from bagm.engine.bots.random import RandomBot
from bagm.engine.game.sequence import Game
from bagm.engine.state.actions import Action

Bot = Callable[[Game], Action]

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    if name not in BOTS:
        raise ValueError(f"unknown bot '{name}'; bots: {', '.join(BOTS)}")
    return BOTS[name](seed)
