"""Building game positions by hand and acting in them, for tests of single rules and cards."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from nesim.cards import CONSUMER, load_game
from nesim.reference.decisions import Decision
from nesim.reference.engine import Game
from nesim.reference.state import Workplace


@lru_cache(maxsize=None)
def data(game: str):
    return load_game(game)


def position(game: str = "progress", n: int = 2, *, round: int = 1, budget: int = 0,
             deck: list[str] | None = None, discard: dict | None = None,
             public: list[str] | None = None, game_data=None, **seat0) -> Game:
    """A fresh game whose seat 0 is set as given (hand, buildings, money, workers, vp, dolls ...).

    Seat 0 keeps its 3 dealt cards unless ``hand`` is given. ``deck`` lists building keys with
    the top card *first* (``top_first(g)`` reads it back the same way). Cards given to a player are taken
    out of the deck model entirely (the conservation check is not meant for these positions).
    ``public`` adds sold buildings (or other workplaces) to the general workplace row.
    ``game_data``: a variant's data (``GameData.with_changes``) instead of the game's files.
    """
    g = Game(game_data or data(game), n, seed=1)
    g.round = round
    g.budget = budget
    rounds = g.data.round_cards()
    for r in range(2, round + 1):
        g.public.append(Workplace(rounds[r], "round"))
    for key in public or []:
        g.public.append(Workplace(key, "sold"))
    if deck is not None:
        g.deck = list(reversed(deck))
    if discard is not None:
        g.discard = Counter(discard)
    p = g.players[0]
    for field, value in seat0.items():
        if field in ("hand", "buildings"):
            value = Counter(value)
        setattr(p, field, value)
    return g


def options(g: Game, seat: int = 0) -> list[str]:
    return g.placement_options(g.players[seat])


def where(g: Game, key: str) -> str:
    """The placement value of workplace ``key``: the player's own building, else the first open public one."""
    p = g.players[0]
    if p.buildings[key]:
        return f"own:{key}"
    for i, wp in enumerate(g.public):
        if wp.key == key:
            return f"pub:{i}"
    raise KeyError(key)


def place(g: Game, key: str, *answers, seat: int = 0) -> list[Decision]:
    """Places a unit of ``seat`` on ``key`` and answers its decisions in order.

    Checks first that the placement is legal; returns the decisions that were asked.
    """
    choice = where(g, key) if seat == 0 else key
    legal = g.placement_options(g.players[seat])
    assert choice in legal, f"{choice} is not a legal placement; legal: {legal}"
    return drive(g._place(g.players[seat], choice), answers)


def drive(gen, answers) -> list[Decision]:
    """Runs an engine generator, sending ``answers`` in order to the decisions it yields."""
    asked: list[Decision] = []
    answers = list(answers)
    try:
        decision = next(gen)
        while True:
            asked.append(decision)
            assert answers, f"unanswered decision {decision.kind} with options {decision.options}"
            answer = answers.pop(0)
            if isinstance(answer, tuple):  # a sale is a set of buildings: any order
                answer = next((o for o in decision.options if sorted(o) == sorted(answer)), answer)
            assert answer in decision.options, f"{answer!r} not in {decision.options}"
            decision = gen.send(answer)
    except StopIteration:
        pass
    assert not answers, f"answers left over: {answers}"
    return asked


def place_at(g: Game, choice: str, *answers, seat: int = 0) -> list[Decision]:
    """Like ``place`` but names the placement exactly (``pub:<row index>`` or ``own:<key>``)."""
    legal = g.placement_options(g.players[seat])
    assert choice in legal, f"{choice} is not a legal placement; legal: {legal}"
    return drive(g._place(g.players[seat], choice), answers)


def payday(g: Game, *answers) -> list[Decision]:
    return drive(g._payday(), answers)


def next_round(g: Game) -> None:
    """The next round's setup: its round card, Brewery items, every unit ready."""
    g.round += 1
    g._start_round(g.data.round_cards().get(g.round))


def top_first(g: Game) -> list[str]:
    """The deck with its top card first, the order ``position(deck=...)`` takes."""
    return list(reversed(g.deck))


CI = CONSUMER
