"""Kernel positions built by hand, for tests of single rules in the jitted engine.

The reference engine's positions are in harness.py; these set up the same kind of position on a
kernel STATE record, so that a ruling can be checked in both engines on the same cards.
"""

from __future__ import annotations

import numpy as np

from harness import data
from nesim.kernel import core, search
from nesim.kernel.tables import MAXOPTS, NT, STATE, build_table, card_ids
from strategies.random import choose as random_choose


class KPosition:
    """A kernel game state (``st[0]``) with its card table, ready for core's functions."""

    def __init__(self, game: str, n: int = 2, *, round: int = 1, budget: int = 0,
                 hand: dict | None = None, buildings: dict | None = None, game_data=None,
                 **seat0) -> None:
        self.data = game_data or data(game)
        self.tab = build_table(self.data)
        self.st = np.zeros(search.LOOKAHEAD_STATES, dtype=STATE)
        self.buf = np.zeros((search.LOOKAHEAD_ROWS, MAXOPTS), dtype=np.int64)
        self.log = np.zeros(64, dtype=np.int32)
        self.params = np.zeros((4, 24))
        self.fns = (random_choose,) * 4
        s = self.s
        core.setup(s, self.tab, n, 1)
        for r in range(2, round + 1):  # the round cards of the rounds played so far
            s["round"] = r
            core.start_round(s, self.tab)
        s["round"] = round
        s["budget"] = budget
        if hand is not None:
            for c in range(NT):
                if s["hand"][0, c]:
                    core.add_to_hand(s, 0, c, -int(s["hand"][0, c]))
            for key, k in hand.items():
                core.add_to_hand(s, 0, self.card(key), k)
        for key, k in (buildings or {}).items():
            core.add_building(s, 0, self.card(key), k)
        for field, value in seat0.items():
            s[field][0] = value

    @property
    def s(self):
        return self.st[0]

    def card(self, key: str) -> int:
        return card_ids(self.data)[key]

    def options(self, seat: int = 0) -> list[int]:
        """The placement values the kernel offers seat ``seat`` now."""
        n = core.placement_options(self.s, self.tab, seat, self.buf[0], self.buf[1])
        return [int(v) for v in self.buf[0, :n]]

    def own(self, key: str) -> int:
        """The placement value of one's own building ``key``."""
        return core.OWN + self.card(key)

    def public(self, key: str) -> int:
        """The placement value of the first public card ``key``."""
        return next(i for i in range(int(self.s["pub_n"])) if self.s["pub_card"][i] == self.card(key))

    def take_turn(self, value: int, seat: int = 0) -> None:
        """Seat places on ``value`` (checked legal), decisions answered by the random strategy."""
        assert value in self.options(seat), f"{value} not in {self.options(seat)}"
        core.take_turn(self.st[:1], self.tab, self.fns, self.params, self.log, self.buf, seat, value)

    def score(self, seat: int = 0) -> np.ndarray:
        out = np.zeros(core.NPF, dtype=np.int32)
        core.score(self.s, self.tab, seat, out)
        return out
