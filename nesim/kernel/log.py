"""Kernel decision logs in the reference engine's terms, so the reference can replay them."""

from __future__ import annotations

import numpy as np

from nesim.cards import CONSUMER, GameData
from nesim.kernel.core import K_BUILD, K_DISCARD, K_KEEP, K_MODE, K_PLACE, K_SELL, K_SELL_CARD, OWN, PAIR
from nesim.kernel.tables import CONS, NT
from nesim.reference.decisions import BUILD, DISCARD, KEEP, MODE, PLACE, SELL
from nesim.reference.replay import DecisionLog

_KINDS = {K_PLACE: PLACE, K_BUILD: BUILD, K_DISCARD: DISCARD, K_KEEP: KEEP, K_MODE: MODE}


def unpack(entry: int) -> tuple[int, int, int]:
    return entry >> 24, (entry >> 20) & 0xF, entry & 0xFFFFF


def to_reference(data: GameData, n_players: int, seed: int, packed: np.ndarray) -> DecisionLog:
    """The DecisionLog of one kernel game from its packed entries."""
    def key(card: int) -> str:
        return CONSUMER if card == CONS else data.buildings[card].key

    decisions = []
    entries = [unpack(int(e)) for e in packed]
    i = 0
    while i < len(entries):
        kind, seat, v = entries[i]
        i += 1
        if kind == K_SELL:
            cards = tuple(key(entries[i + j][2]) for j in range(v))
            assert all(entries[i + j][0] == K_SELL_CARD for j in range(v)), "malformed sale in log"
            i += v
            decisions.append((SELL, seat, cards))
            continue
        if kind == K_PLACE:
            value = f"pub:{v}" if v < OWN else f"own:{key(v - OWN)}"
        elif kind == K_BUILD:
            value = key(v) if v < PAIR else f"{key((v - PAIR) // NT)}+{key((v - PAIR) % NT)}"
        elif kind == K_MODE:
            value = "draw" if v else "items"
        else:
            value = key(v)
        decisions.append((_KINDS[kind], seat, value))
    return DecisionLog(data.game, n_players, seed, decisions)
