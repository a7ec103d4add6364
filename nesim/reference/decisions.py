"""Decision points: what the engine asks a player, and the values a player answers with.

Every choice the rules leave to a player is one decision, asked even when only one answer is
legal, so a game's decision log has the same length in every engine. The values are plain
strings (or a tuple of card keys for a sale) so that logs read well as JSON:

| kind    | asked when                                     | value                                   |
| ------- | ---------------------------------------------- | --------------------------------------- |
| PLACE   | a player has a unit to place                   | ``pub:<row index>`` or ``own:<key>``    |
| BUILD   | after placing on a construction workplace      | a building key, or ``key1+key2``        |
| DISCARD | one card of a payment, an effect or hand limit | a card key (``consumer_item`` included) |
| KEEP    | Design Office's revealed cards                 | a card key                              |
| MODE    | Farm Village                                   | ``items`` or ``draw``                   |
| SELL    | payday, short of wages, with sellable buildings| a tuple of building keys                |
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PLACE, BUILD, DISCARD, KEEP, MODE, SELL = "PLACE", "BUILD", "DISCARD", "KEEP", "MODE", "SELL"


@dataclass
class Decision:
    """One question to one player: the legal options and what the question is about."""

    kind: str
    seat: int
    options: list[Any]
    round: int
    # why a card is discarded ("cost", "effect", "hand_limit"), the workplace used, ...
    context: dict[str, Any] = field(default_factory=dict)


class IllegalDecision(Exception):
    """A decision that the rules do not allow, located precisely in the game."""

    def __init__(self, index: int, decision: Decision, choice: Any, reason: str = "") -> None:
        self.index = index
        self.decision = decision
        self.choice = choice
        opts = ", ".join(map(str, decision.options[:12])) + (" ..." if len(decision.options) > 12 else "")
        why = reason or f"not one of the legal options [{opts}]"
        super().__init__(f"decision #{index} (round {decision.round}, seat {decision.seat}, "
                         f"{decision.kind} {decision.context.get('purpose', '')}".rstrip()
                         + f"): {choice!r} is {why}")


def normalise(kind: str, value: Any) -> Any:
    """The canonical form of a value read back from JSON (a sale comes back as a list)."""
    if kind == SELL and isinstance(value, list):
        return tuple(value)
    return value
