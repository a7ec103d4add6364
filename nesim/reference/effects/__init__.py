"""Every card's effect, one module per game (``common``, ``progress``, ``mecenat``, ``glory``).

A workable card registers what it does when a unit is placed on it (``use``) and when that is
allowed (``can``: every part of the effect must be possible, RULES-NOTES §4). A lock card
registers only what happens when it is built, if anything; its end-of-game bonus is data
(the ``end_game`` column) and is scored in ``scoring.py``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable

REGISTRY: dict[str, dict[str, "CardEffect"]] = {"common": {}, "progress": {}, "mecenat": {}, "glory": {}}


def always(g: Any, p: Any) -> bool:
    return True


@dataclass
class CardEffect:
    use: Callable | None = None  # None for lock cards
    can: Callable = always
    on_build: Callable | None = None


def workplace(game: str, key: str, can: Callable = always) -> Callable:
    """Registers the decorated function as the effect of placing a unit on card ``key``."""
    def register(fn: Callable) -> Callable:
        REGISTRY[game][key] = CardEffect(use=fn, can=can)
        return fn
    return register


def lock(game: str, key: str, on_build: Callable | None = None) -> None:
    """Registers a lock card: never worked; ``on_build`` runs when it is constructed."""
    REGISTRY[game][key] = CardEffect(on_build=on_build)


def _effect(game: str, key: str) -> CardEffect:
    return REGISTRY[game].get(key) or REGISTRY["common"][key]


def can_use(g: Any, p: Any, key: str) -> bool:
    e = _effect(g.game, key)
    return e.use is not None and e.can(g, p)


def use(g: Any, p: Any, key: str):
    result = _effect(g.game, key).use(g, p)
    if inspect.isgenerator(result):
        yield from result


def on_build(g: Any, p: Any, key: str) -> None:
    e = _effect(g.game, key)
    if e.on_build is not None:
        e.on_build(g, p)


def implemented_keys(game: str) -> set[str]:
    return set(REGISTRY["common"]) | set(REGISTRY[game])


from nesim.reference.effects import common, glory, mecenat, progress  # noqa: E402,F401

ROUND_CARD_KEYS = common.ROUND_CARD_KEYS
