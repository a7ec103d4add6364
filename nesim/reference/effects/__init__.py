"""What a card does, read from its ``effect`` column: one function per effect kind (``kinds.py``).

A workable card's effect runs when a unit is placed on it (``use``) and may be chosen only when
every part of it can be carried out (``can``, RULES-NOTES §4). A lock card's effect, if any, runs
when it is built; its end-of-game bonus is data too (the ``end_game`` column), scored in
``scoring.py``. The kinds and their arguments are listed in ``nesim.cards.EFFECT_KINDS``.
"""

from __future__ import annotations

import inspect
from typing import Any

from nesim.cards import Effect


def effect_of(g: Any, key: str) -> Effect | None:
    data = g.data
    return data.building(key).effect if data.is_building(key) else data.common_card(key).effect


def can_use(g: Any, p: Any, key: str) -> bool:
    e = effect_of(g, key)
    if e is None or not e.workplace:
        return False
    can = KINDS[e.kind][1]
    return can is None or can(g, p, key, e)


def use(g: Any, p: Any, key: str):
    e = effect_of(g, key)
    result = KINDS[e.kind][0](g, p, key, e)
    if inspect.isgenerator(result):
        yield from result


def on_build(g: Any, p: Any, key: str) -> None:
    e = effect_of(g, key)
    if e is not None and not e.workplace:
        KINDS[e.kind][0](g, p, key, e)


from nesim.reference.effects.kinds import KINDS  # noqa: E402
