"""Effect shapes that several cards share (discard-then-draw, discard-for-money, ...).

Each function registers one card of that shape; the card's own module calls it, so a reader
looking for a card still finds it in its game's module.
"""

from nesim.reference.effects import workplace
from nesim.reference.engine import Construction


def hand_at_least(n: int):
    return lambda g, p: p.hand_size() >= n


def discard_then_draw(game: str, key: str, discard: int, draw: int) -> None:
    """Factory-type cards: discard some cards, then draw more buildings."""
    def use(g, p):
        yield from g.discard_from_hand(p, discard, "effect", workplace=key)
        g.draw(p, draw)
    workplace(game, key, can=hand_at_least(discard))(use)


def discard_for_money(game: str, key: str, discard: int, money: int) -> None:
    """Restaurant-type cards: discard cards and take money from the Budget."""
    def use(g, p):
        yield from g.discard_from_hand(p, discard, "effect", workplace=key)
        g.take_money(p, money)
    workplace(game, key, can=lambda g, p: p.hand_size() >= discard and g.budget >= money)(use)


def take_items(game: str, key: str, n: int) -> None:
    workplace(game, key)(lambda g, p: g.take_items(p, n))


def draw_buildings(game: str, key: str, n: int) -> None:
    workplace(game, key)(lambda g, p: g.draw(p, n))


def fill_hand_to(game: str, key: str, size: int) -> None:
    """Orchard / Potato Field: consumer items until the hand holds ``size`` cards."""
    workplace(game, key, can=lambda g, p: p.hand_size() < size)(
        lambda g, p: g.take_items(p, size - p.hand_size()))


def construction_workplace(game: str, key: str, how: Construction, after=None) -> None:
    """A workplace that constructs; ``after(g, p)`` is its follow-up once the building stands."""
    def use(g, p):
        yield from g.construct(p, how)
        if after is not None:
            after(g, p)
    workplace(game, key, can=lambda g, p: bool(g.build_options(p, how)))(use)
