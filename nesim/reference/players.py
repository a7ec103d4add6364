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


class ScriptedPlayer:
    """Answers from a list of values, in order (used to replay and to build test positions)."""

    def __init__(self, values) -> None:
        self.values = list(values)
        self.i = 0

    def decide(self, game, decision: Decision):
        value = self.values[self.i]
        self.i += 1
        return value


REFERENCE_PLAYERS = {"random": RandomPlayer}


def reference_players(spec: str, n: int, seed: int) -> list:
    """Players for a comma-separated strategy list (one name for every seat, or one per seat)."""
    from nesim.errors import NesimError
    from nesim.rng import derive_seed

    names = [s.strip() for s in spec.split(",") if s.strip()]
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise NesimError(f"--strategies names {len(names)} strategies for {n} players")
    for name in names:
        if name not in REFERENCE_PLAYERS:
            raise NesimError(f"unknown strategy {name!r} (known: {', '.join(sorted(REFERENCE_PLAYERS))})")
    return [REFERENCE_PLAYERS[name](derive_seed(seed, seat + 1)) for seat, name in enumerate(names)]
