"""The state of one game: players, the general workplace row, the deck and the Budget.

Cards of one type are identical, so hands and buildings are counts per card key; the deck is a
list of keys whose *end* is its top. Consumer items in hand are counted under ``consumer_item``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from nesim.cards import CONSUMER


@dataclass
class Workplace:
    """One card of the general workplace: an initial card, a round card or a sold building."""

    key: str
    origin: str  # "initial", "round", "sold" or "solo" (the solo game's card A)
    placements: int = 0  # placements this round (a 2-unit placement counts once)
    sideways: bool = False  # solo blocking: unusable until payday


@dataclass
class Player:
    seat: int
    money: int
    hand: Counter = field(default_factory=Counter)
    buildings: Counter = field(default_factory=Counter)
    workers: int = 2  # human workers owned, in training included
    training: int = 0  # hired this round: paid, but not placeable before next round
    dolls: int = 0  # Glory's mechanical dolls: placeable, never paid, not workers
    placed: int = 0  # units placed this round
    stuck: bool = False  # solo only: no legal placement left this round
    vp: int = 0
    unpaid: int = 0  # Unpaid Wage cards
    used: Counter = field(default_factory=Counter)  # own buildings worked this round, by key
    on_mine: bool = False  # a unit of this player stands on the Mine this round (Ironwork)
    burnt_worked: int = 0  # Burnt Fields worked this round, discarded after payday
    brewery: int = 0  # consumer items waiting on a Brewery for next round
    builds: list = field(default_factory=list)  # (round, key) in build order
    wages_paid: int = 0  # this round's payday
    sold_value: int = 0  # this round's payday

    def hand_size(self) -> int:
        return sum(self.hand.values())

    def items(self) -> int:
        return self.hand[CONSUMER]

    def building_count(self) -> int:
        return sum(self.buildings.values())

    def units_left(self) -> int:
        """Workers and dolls that can still be placed this round."""
        if self.stuck:
            return 0
        return self.workers - self.training + self.dolls - self.placed

    def add_to_hand(self, key: str, n: int = 1) -> None:
        self.hand[key] += n

    def remove_from_hand(self, key: str, n: int = 1) -> None:
        if self.hand[key] < n:
            raise ValueError(f"seat {self.seat} holds {self.hand[key]} {key}, cannot remove {n}")
        self.hand[key] -= n
        if self.hand[key] == 0:
            del self.hand[key]
