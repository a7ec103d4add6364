"""Small questions strong asks of the state: rounds and wages left, what a player owns or holds."""

import numpy as np
from numba import njit

from nesim.kernel.api import sale_price
from nesim.kernel.core import lowest_bit
from nesim.kernel.tables import CONS, EFFECT, R, R_ROUNDS, R_VP_POINTS, R_VP_SET, R_WAGES, SELLABLE


@njit(cache=True, _nrt=False)
def rounds_left(s, tab):
    return tab[R, R_ROUNDS] - s.round


@njit(cache=True, _nrt=False)
def wage_at(tab, rnd):
    return tab[R, R_WAGES + rnd - 1]


@njit(cache=True, _nrt=False)
def wages_from_now(tab, rnd):
    total = 0
    for r in range(rnd, tab[R, R_ROUNDS] + 1):
        total += wage_at(tab, r)
    return total


# The loops below visit only the kinds of building a player owns or holds, by the state's bit
# masks (lowest bit first, so in the order of a loop over every kind): the policy answers every
# decision of every playout, and most kinds are in no one's hand.
BUILDING_KINDS = ~(np.int64(1) << CONS)


@njit(cache=True, inline="always", _nrt=False)
def kinds_held(s, p, in_hand):
    """Bit mask of the kinds of building player p owns (and, with ``in_hand``, holds)."""
    return s.bld_mask[p] | (s.hand_mask[p] & BUILDING_KINDS if in_hand else 0)


@njit(cache=True, _nrt=False)
def sellable_value(s, tab, p):
    total = 0
    m = s.bld_mask[p]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[SELLABLE, b]:
            total += s.bld[p, b] * sale_price(s, tab, b)
    return total


@njit(cache=True, _nrt=False)
def vp_points(tab, t):
    return tab[R, R_VP_POINTS] * (t // tab[R, R_VP_SET]) + t % tab[R, R_VP_SET]


@njit(cache=True, _nrt=False)
def owns_effect(s, tab, p, effect):
    m = s.bld_mask[p]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[EFFECT, b] == effect:
            return True
    return False
