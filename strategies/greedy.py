"""greedy: build the most valuable building it can, keep money for wages, hire while it pays.

Placement scores each option by what its workplace does (the card table's effect id), so changed
card sets need no edit: construction first when it can build, then money while short of the
wage reserve, hiring early while money allows, card draws otherwise.
"""

from numba import njit

from nesim.kernel.api import CTX_SHORT, K_BUILD, K_DISCARD, K_KEEP, K_PLACE, K_SELL, OWN, PAIR, STRATEGY_SIG
from nesim.kernel.core import cheapest_sufficient_sale
from nesim.kernel.tables import (ASSET, CONS, EA, EB, EFFECT, E_CONSTRUCT, E_DISCARD_DRAW, E_DISCARD_MONEY,
                                 E_DRAW, E_FILL_HAND, E_HIRE_UPTO, E_MONEY, E_SCHOOL, E_TAKE_ITEMS,
                                 E_TECH_COLLEGE, NT, R, R_ROUNDS, R_WAGES)

NAME = "greedy"
DESCRIPTION = "Builds its most valuable affordable building, keeps a wage reserve, hires early while it pays."
PARAMS = {"reserve": 1.0, "hire_until": 5.0, "build_bias": 10.0}


@njit(cache=True)
def wage_bill(s, tab, p):
    """What the coming payday costs this player: the round's wage for every worker."""
    return tab[R, R_WAGES + s.round - 1] * (s.workers[p] + s.training[p])


@njit(cache=True)
def card_of(s, v):
    return s.pub_card[v] if v < OWN else v - OWN


@njit(cache=True)
def place_value(s, tab, p, card, params):
    e = tab[EFFECT, card]
    short = wage_bill(s, tab, p) * params[0] - s.money[p]
    hand = s.hand_n[p]
    if e == E_CONSTRUCT:
        return params[2]
    urgent = 6.0 + short / 2.0 if short > 0 else 0.0
    if e == E_DISCARD_MONEY:
        return tab[EB, card] / 3.0 + urgent
    if e == E_MONEY:
        return tab[EA, card] / 2.0 + urgent
    if e == E_SCHOOL or e == E_HIRE_UPTO or e == E_TECH_COLLEGE:
        wage = tab[R, R_WAGES + s.round - 1]
        if s.round <= params[1] and s.money[p] >= (s.workers[p] + s.training[p] + 1) * wage * params[0] + wage:
            return 9.0
        return -1.0
    if e == E_DRAW or e == E_DISCARD_DRAW or e == E_FILL_HAND:
        return 2.0 + tab[EA, card] - 0.5 * hand
    if e == E_TAKE_ITEMS:
        return 1.0 + tab[EA, card] / 2.0 - 0.5 * hand
    return 1.5 - 0.3 * hand  # the Quarry, the Mine and anything else: a card


@njit(cache=True)
def build_value(tab, v):
    if v >= PAIR:
        a = (v - PAIR) // NT
        b = (v - PAIR) % NT
        return tab[ASSET, a] + tab[ASSET, b]
    return tab[ASSET, v]


@njit(cache=True)
def argbest(values, n):
    best = 0
    for i in range(1, n):
        if values[i] > values[best]:
            best = i
    return best


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    s = st[0]
    if kind == K_SELL:
        return cheapest_sufficient_sale(s, tab, opts, n, ctx[CTX_SHORT])
    best = 0
    best_v = -1e18
    for i in range(n):
        v = opts[i]
        if kind == K_PLACE:
            value = place_value(s, tab, seat, card_of(s, v), params)
        elif kind == K_BUILD:
            value = build_value(tab, v)
        elif kind == K_DISCARD:  # items first, then the least valuable building
            value = 1000.0 if v == CONS else -float(tab[ASSET, v])
        elif kind == K_KEEP:
            value = float(tab[ASSET, v]) if v != CONS else -1.0
        else:
            value = -i  # Farm Village and the rest: the first option
        if value > best_v:
            best_v = value
            best = i
    return best
