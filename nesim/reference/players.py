"""Players for the reference engine: anything with ``decide(game, decision) -> value``."""

from __future__ import annotations

import random

from nesim.reference.decisions import Decision


class RandomPlayer:
    """Picks uniformly among the legal options of every decision."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, game, decision: Decision):
        return decision.options[self.rng.randrange(len(decision.options))]
