"""Decision logs: recording a game as its seed and decisions, and replaying it move by move."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nesim.cards import GameData
from nesim.reference.decisions import Decision, IllegalDecision, normalise
from nesim.reference.engine import Game, run_game


@dataclass
class DecisionLog:
    game: str
    n_players: int
    seed: int
    decisions: list[tuple[str, int, Any]] = field(default_factory=list)
    initial_deck: list[str] | None = None
    # the options another engine offered at each decision, when it recorded them: replay then
    # checks that the rules here offer exactly the same set
    options: list[set] | None = None

    @classmethod
    def of(cls, g: Game) -> "DecisionLog":
        return cls(g.game, g.n, g.seed, list(g.log), list(g.initial_deck))

    def to_json(self) -> dict:
        return {"game": self.game, "n_players": self.n_players, "seed": self.seed,
                "initial_deck": self.initial_deck,
                "decisions": [[k, s, list(v) if isinstance(v, tuple) else v] for k, s, v in self.decisions]}

    @classmethod
    def from_json(cls, obj: dict) -> "DecisionLog":
        return cls(obj["game"], obj["n_players"], obj["seed"],
                   [(k, s, normalise(k, v)) for k, s, v in obj["decisions"]], obj.get("initial_deck"))


class _LogPlayer:
    def __init__(self, log: DecisionLog) -> None:
        self.log = log
        self.i = 0

    def decide(self, game: Game, decision: Decision):
        if self.i >= len(self.log.decisions):
            raise IllegalDecision(self.i, decision, None, "missing: the log ended before the game did")
        kind, seat, value = self.log.decisions[self.i]
        if (kind, seat) != (decision.kind, decision.seat):
            raise IllegalDecision(self.i, decision, value,
                                  f"recorded as a {kind} of seat {seat}, but the game asks a "
                                  f"{decision.kind} of seat {decision.seat}")
        if self.log.options is not None:
            self._check_options(decision, value)
        self.i += 1
        return value


    def _check_options(self, decision: Decision, value) -> None:
        recorded, here = self.log.options[self.i], set(decision.options)
        if recorded != here:
            only_there = sorted(map(str, recorded - here))
            only_here = sorted(map(str, here - recorded))
            raise OptionsDiffer(self.i, decision, value,
                                f"asked with other options: only in the log {only_there}, "
                                f"only in the rules {only_here}")


class OptionsDiffer(IllegalDecision):
    """The recorded decision was asked with another set of options than the rules offer."""


def replay(data: GameData, log: DecisionLog, trace: bool = False, after_step=None) -> Game:
    """Replays a recorded game; raises IllegalDecision at the first decision the rules refuse."""
    g = Game(data, log.n_players, log.seed, trace=trace)
    if log.initial_deck is not None and log.initial_deck != g.initial_deck:
        raise ValueError("the recorded initial deck differs from the one this seed deals")
    player = _LogPlayer(log)
    run_game(g, [player] * log.n_players, after_step=after_step)
    if player.i != len(log.decisions):
        raise ValueError(f"the game ended after {player.i} of {len(log.decisions)} recorded decisions")
    return g
