"""One function per effect kind (``nesim.cards.EFFECT_KINDS``): ``use(g, p, key, effect)`` and,
where the kind can be refused, ``can(g, p, key, effect)``. ``effect.args`` are the numbers of
the card's effect column in the order EFFECT_KINDS names them."""

from __future__ import annotations

from nesim.cards import CONSUMER
from nesim.reference.decisions import KEEP, MODE
from nesim.reference.engine import Construction


def _hand_at_least(g, p, key, e):
    return p.hand_size() >= e.args[0]


def _below_cap(g, p, key, e):
    return p.workers < g.worker_cap(p)


# ---------------------------------------------------------------- consumer items

def take_items(g, p, key, e):
    g.take_items(p, e.args[0])


def take_items_once(g, p, key, e):
    g.take_items(p, e.args[0])
    p.burnt_worked += 1  # the card leaves its owner after this round's payday (§12.7)


def fill_hand(g, p, key, e):
    g.take_items(p, e.args[0] - p.hand_size())


def can_fill_hand(g, p, key, e):
    return p.hand_size() < e.args[0]


def items_more_if_holding(g, p, key, e):
    g.take_items(p, e.args[1] if p.items() else e.args[0])


def items_by_parity(g, p, key, e):
    g.take_items(p, e.args[0] if p.hand_size() % 2 == 0 else e.args[1])


# Usable in the last round too: laying the items on the card can be done; they just never reach
# a hand, since no round follows (RULES-NOTES §16.11, revised).
def items_next_round(g, p, key, e):
    p.brewery += e.args[0]
    g.emit("brewery", seat=p.seat, count=e.args[0])


def items_or_trade(g, p, key, e):
    items, discard, drawn = e.args
    options = ["items", "draw"] if p.items() >= discard else ["items"]
    mode = yield from g.ask(MODE, p, options, workplace=key)
    if mode == "items":
        g.take_items(p, items)
    else:
        p.remove_from_hand(CONSUMER, discard)
        g.emit("discard", seat=p.seat, cards=[CONSUMER] * discard, purpose="effect")
        g.draw(p, drawn)


def items_and_vp(g, p, key, e):
    g.take_items(p, e.args[0])
    g.take_vp(p, e.args[1])


# ---------------------------------------------------------------- buildings drawn

def draw(g, p, key, e):
    g.draw(p, e.args[0])


def draw_and_lead(g, p, key, e):
    g.draw(p, e.args[0])
    if g.start_player != p.seat:  # the marker moves at once; this round goes on clockwise (§16.1)
        g.start_player = p.seat
        g.emit("start_player", seat=p.seat)


def can_draw_if_on_mine(g, p, key, e):
    return p.on_mine


def draw_more_if_empty(g, p, key, e):
    g.draw(p, e.args[0] if p.hand_size() else e.args[1])


def draw_and_vp(g, p, key, e):
    g.draw(p, e.args[0])
    g.take_vp(p, e.args[1])


def discard_then_draw(g, p, key, e):
    yield from g.discard_from_hand(p, e.args[0], "effect", workplace=key)
    g.draw(p, e.args[1])


def reveal_keep_one(g, p, key, e):
    revealed = [g.draw_one() for _ in range(e.args[0])]
    for k in revealed:
        if k != CONSUMER:
            g.limbo[k] += 1
    options = [b.key for b in g.data.buildings if b.key in revealed]
    if CONSUMER in revealed:
        options.append(CONSUMER)
    kept = yield from g.ask(KEEP, p, options, revealed=revealed)
    revealed.remove(kept)
    p.add_to_hand(kept)
    for k in [kept, *revealed]:
        if k != CONSUMER:
            g.limbo[k] -= 1
    for k in revealed:
        g.put_in_discard(k)
    g.emit("design_office", seat=p.seat, revealed=[kept, *revealed], kept=kept)


# ---------------------------------------------------------------- money

def money(g, p, key, e):
    g.take_money(p, e.args[0])


def can_money(g, p, key, e):
    return g.budget >= e.args[0]


def discard_for_money(g, p, key, e):
    yield from g.discard_from_hand(p, e.args[0], "effect", workplace=key)
    g.take_money(p, e.args[1])


def can_discard_for_money(g, p, key, e):
    return p.hand_size() >= e.args[0] and g.budget >= e.args[1]


# With no consumer item it pays $0, which any Budget can pay: usable (RULES-NOTES §16.12, revised).
def money_per_item(g, p, key, e):
    g.take_money(p, e.args[0] * p.items())


def can_money_per_item(g, p, key, e):
    return g.budget >= e.args[0] * p.items()


def _last_unit_income(p, e, placed: bool) -> int:
    """The higher sum when this placement leaves the player no unit to place this round (§16.4)."""
    left = p.units_left() - (0 if placed else 1)
    return e.args[1] if left == 0 else e.args[0]


def money_more_if_last_unit(g, p, key, e):
    g.take_money(p, _last_unit_income(p, e, placed=True))


def can_money_more_if_last_unit(g, p, key, e):
    return g.budget >= _last_unit_income(p, e, placed=False)


def _hand_size_income(p, e) -> int:
    size, rich, poor = e.args
    return rich if p.hand_size() == size else poor


def money_if_hand_size(g, p, key, e):
    g.take_money(p, _hand_size_income(p, e))


def can_money_if_hand_size(g, p, key, e):
    return g.budget >= _hand_size_income(p, e)


def lottery(g, p, key, e):
    g.take_money(p, e.args[0])
    g.give_money(p, e.args[1])


def can_lottery(g, p, key, e):
    return g.budget >= e.args[0]


# ---------------------------------------------------------------- workers

def hire(g, p, key, e):
    g.hire(p, min(e.args[0], g.worker_cap(p) - p.workers))


def hire_ready(g, p, key, e):
    g.hire(p, min(e.args[0], g.worker_cap(p) - p.workers), ready=True)


def hire_up_to(g, p, key, e):
    g.hire(p, min(e.args[0], g.worker_cap(p)) - p.workers)


def can_hire_up_to(g, p, key, e):
    return p.workers < min(e.args[0], g.worker_cap(p))


# ---------------------------------------------------------------- construction

def construction(key: str, e) -> Construction:
    """The terms of a ``construct`` effect (``nesim.cards.CONSTRUCT_TERMS``) as a Construction."""
    terms, n = e.terms, e.args[0]
    if terms == "discount":
        return Construction(key, discount=n)
    if terms == "free_agriculture":
        return Construction(key, free=True, allows=lambda g, b: b.agriculture)
    if terms == "free_up_to_value":
        return Construction(key, free=True, allows=lambda g, b: b.asset_value <= n)
    if terms == "free":
        return Construction(key, free=True)
    if terms == "lock_then_draw":
        return Construction(key, allows=lambda g, b: b.facility)
    if terms == "pair_same_cost":
        return Construction(key, pair="same_cost")
    if terms == "pair_then_draw_if_empty":
        return Construction(key, pair="sum")
    if terms == "items_double":
        return Construction(key, consumer_worth=2)
    return Construction(key)  # plain and the "then ..." terms build at full cost


def _after_construction(g, p, e) -> None:
    """The follow-up of "construct, then ..." terms, once the building stands (too late for
    this build's cost, §8)."""
    terms, n = e.terms, e.args[0]
    if terms in ("then_draw", "lock_then_draw"):
        g.draw(p, n)
    elif terms == "then_vp":
        g.take_vp(p, n)
    elif terms == "then_items":
        g.take_items(p, n)
    elif terms in ("then_draw_if_empty", "pair_then_draw_if_empty") and p.hand_size() == 0:
        g.draw(p, n)


def construct(g, p, key, e):
    yield from g.construct(p, construction(key, e))
    _after_construction(g, p, e)


def can_construct(g, p, key, e):
    return bool(g.build_options(p, construction(key, e)))


# ---------------------------------------------------------------- lock cards, when built

def vp_on_build(g, p, key, e):
    g.take_vp(p, e.args[0])


def doll_on_build(g, p, key, e):
    for _ in range(e.args[0]):
        p.dolls += 1  # placeable from this player's next turn (§10)
        g.emit("doll", seat=p.seat)


# kind -> (use, can or None: always possible)
KINDS = {
    "take_items": (take_items, None), "take_items_once": (take_items_once, None),
    "fill_hand": (fill_hand, can_fill_hand), "items_more_if_holding": (items_more_if_holding, None),
    "items_by_parity": (items_by_parity, None), "items_next_round": (items_next_round, None),
    "items_or_trade": (items_or_trade, None), "items_and_vp": (items_and_vp, None),
    "relics": (items_and_vp, None), "draw": (draw, None), "mine_draw": (draw, None),
    "draw_and_lead": (draw_and_lead, None), "draw_if_on_mine": (draw, can_draw_if_on_mine),
    "draw_more_if_empty": (draw_more_if_empty, None), "draw_and_vp": (draw_and_vp, None),
    "discard_then_draw": (discard_then_draw, _hand_at_least),
    "reveal_keep_one": (reveal_keep_one, None), "money": (money, can_money),
    "discard_for_money": (discard_for_money, can_discard_for_money),
    "money_per_item": (money_per_item, can_money_per_item),
    "money_more_if_last_unit": (money_more_if_last_unit, can_money_more_if_last_unit),
    "money_if_hand_size": (money_if_hand_size, can_money_if_hand_size),
    "lottery": (lottery, can_lottery), "hire": (hire, _below_cap),
    "hire_ready": (hire_ready, _below_cap), "hire_up_to": (hire_up_to, can_hire_up_to),
    "construct": (construct, can_construct), "vp_on_build": (vp_on_build, None),
    "doll_on_build": (doll_on_build, None),
}
