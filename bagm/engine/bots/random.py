"""The random bot: a uniform choice among the legal actions, from its own seeded generator."""

from __future__ import annotations

import random

from bagm.engine.game.sequence import Game
from bagm.engine.state.actions import Action


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())
