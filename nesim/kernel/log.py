"""Kernel decision logs in the reference engine's terms, so the reference can replay them."""

from __future__ import annotations

import itertools

import numpy as np

from nesim.cards import CONSUMER, GameData
from nesim.kernel.core import (K_BUILD, K_DISCARD, K_KEEP, K_MODE, K_OPTION, K_PLACE, K_SALE_SHORT,
                               K_SELL, K_SELL_CARD, OWN, PAIR, sale_is_legal, sale_price)
from nesim.kernel.tables import CONS, NT, STATE, build_table
from nesim.reference.decisions import BUILD, DISCARD, KEEP, MODE, PLACE, SELL
from nesim.reference.replay import DecisionLog

_KINDS = {K_PLACE: PLACE, K_BUILD: BUILD, K_DISCARD: DISCARD, K_KEEP: KEEP, K_MODE: MODE}


def unpack(entry: int) -> tuple[int, int, int]:
    return entry >> 24, (entry >> 20) & 0xF, entry & 0xFFFFF


class _Names:
    """Kernel values (card ids, placement and build codes) as the reference engine names them."""

    def __init__(self, data: GameData) -> None:
        self.data = data

    def card(self, c: int) -> str:
        return CONSUMER if c == CONS else self.data.buildings[c].key

    def value(self, kind: int, v: int) -> str:
        if kind == K_PLACE:
            return f"pub:{v}" if v < OWN else f"own:{self.card(v - OWN)}"
        if kind == K_BUILD:
            return self.card(v) if v < PAIR else f"{self.card((v - PAIR) // NT)}+{self.card((v - PAIR) % NT)}"
        if kind == K_MODE:
            return "draw" if v else "items"
        return self.card(v)


def kernel_sale_options(data: GameData, tab: np.ndarray, n_players: int, cards: list[int],
                        short: int) -> set[tuple]:
    """The sets of buildings the kernel accepts as a sale of ``cards`` (its candidates, grouped by
    type) when ``short`` of wages: every selection its own legality test (core.sale_is_legal)
    passes, or all of them when even all do not cover the shortfall (it then asks nothing).
    ``tab`` is the game's card table (build_table)."""
    s = np.zeros(1, dtype=STATE)[0]
    s["n"] = n_players
    opts = np.array(cards, dtype=np.int64)
    key = lambda c: data.buildings[c].key  # noqa: E731
    if sum(sale_price(s, tab, c) for c in cards) < short:
        return {tuple(key(c) for c in cards)}
    groups = [(c, [i for i, x in enumerate(cards) if x == c]) for c in dict.fromkeys(cards)]
    legal = set()
    for counts in itertools.product(*(range(len(where) + 1) for _, where in groups)):
        mask = 0
        for k, (_, where) in zip(counts, groups):
            for i in where[:k]:
                mask |= 1 << i
        if mask and sale_is_legal(s, tab, opts, len(cards), mask, short):
            legal.add(tuple(key(cards[i]) for i in range(len(cards)) if mask >> i & 1))
    return legal


def to_reference(data: GameData, n_players: int, seed: int, packed: np.ndarray,
                 with_options: bool = False) -> DecisionLog:
    """The DecisionLog of one kernel game from its packed entries; ``with_options`` when the log
    recorded the options of each decision (LOG_OPTIONS): ``options`` then holds them, one set
    per decision."""
    names = _Names(data)
    decisions = []
    options: list[set] = []
    pending: list[int] = []  # the OPTION entries since the last decision
    short = -1  # the shortfall of the sale being recorded
    tab = None  # the card table, built at the first sale recorded
    entries = [unpack(int(e)) for e in packed]
    i = 0
    while i < len(entries):
        kind, seat, v = entries[i]
        i += 1
        if kind == K_OPTION:
            pending.append(v)
            continue
        if kind == K_SALE_SHORT:
            short = v
            continue
        if kind == K_SELL:
            cards = tuple(names.card(entries[i + j][2]) for j in range(v))
            assert all(entries[i + j][0] == K_SELL_CARD for j in range(v)), "malformed sale in log"
            i += v
            decisions.append((SELL, seat, cards))
            if short >= 0:
                tab = build_table(data) if tab is None else tab
                options.append(kernel_sale_options(data, tab, n_players, pending, short))
        else:
            decisions.append((_KINDS[kind], seat, names.value(kind, v)))
            options.append({names.value(kind, o) for o in pending})
        pending, short = [], -1
    return DecisionLog(data.game, n_players, seed, decisions, options=options if with_options else None)
