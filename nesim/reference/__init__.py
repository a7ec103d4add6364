"""The reference engine: readable rules that the fast kernel is checked against."""

from nesim.reference.decisions import Decision, IllegalDecision
from nesim.reference.engine import Game, run_game
from nesim.reference.players import RandomPlayer
from nesim.reference.replay import DecisionLog, replay

__all__ = ["Decision", "DecisionLog", "Game", "IllegalDecision", "RandomPlayer", "replay", "run_game"]
