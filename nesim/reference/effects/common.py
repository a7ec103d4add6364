"""The workplaces every game shares: initial workplaces, round cards, and the consumer item."""

from nesim.reference.effects import REGISTRY, CardEffect, workplace
from nesim.reference.engine import Construction

G = "common"
ROUND_CARD_KEYS = ("stall", "market", "high_school", "supermarket", "university",
                   "department_store", "technical_college", "world_expo")

REGISTRY[G]["consumer_item"] = CardEffect()  # never a workplace, never built


@workplace(G, "quarry")
def quarry(g, p):
    g.draw(p, 1)
    if g.start_player != p.seat:  # the marker moves at once; this round goes on clockwise (§16.1)
        g.start_player = p.seat
        g.emit("start_player", seat=p.seat)


@workplace(G, "mine")
def mine(g, p):
    g.draw(p, 1)


@workplace(G, "school", can=lambda g, p: p.workers < g.worker_cap(p))
def school(g, p):
    g.hire(p, 1)


CARPENTER = Construction("carpenter")


@workplace(G, "carpenter", can=lambda g, p: bool(g.build_options(p, CARPENTER)))
def carpenter(g, p):
    yield from g.construct(p, CARPENTER)


@workplace(G, "relics_workplace")
def relics_workplace(g, p):
    g.take_items(p, 1)
    g.take_vp(p, 1)


def _sales_workplace(key: str, cards: int, money: int) -> None:
    """Stall, Market, Supermarket, Department Store, World Expo: discard, take money."""
    def can(g, p):
        return p.hand_size() >= cards and g.budget >= money

    def use(g, p):
        yield from g.discard_from_hand(p, cards, "effect", workplace=key)
        g.take_money(p, money)

    workplace(G, key, can=can)(use)


_sales_workplace("stall", 1, 6)
_sales_workplace("market", 2, 12)
_sales_workplace("supermarket", 3, 18)
_sales_workplace("department_store", 4, 24)
_sales_workplace("world_expo", 5, 30)


def _hire_up_to(target: int):
    def can(g, p):
        return p.workers < min(target, g.worker_cap(p))

    def use(g, p):
        g.hire(p, min(target, g.worker_cap(p)) - p.workers)
    return can, use


_hs_can, _hs_use = _hire_up_to(4)
workplace(G, "high_school", can=_hs_can)(_hs_use)
_uni_can, _uni_use = _hire_up_to(5)
workplace(G, "university", can=_uni_can)(_uni_use)


@workplace(G, "technical_college", can=lambda g, p: p.workers < g.worker_cap(p))
def technical_college(g, p):
    g.hire(p, 1, ready=True)
