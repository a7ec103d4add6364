"""End-game bonuses: exact ones for what a player owns (with a building added or one taken away),
and an estimate of what a bonus building will be worth by the end of the game."""

import numpy as np
from numba import njit

from nesim.kernel.core import bonus, icon_counts, lowest_bit, owned_with
from nesim.kernel.tables import (CONS, END_A, END_AGRI_AND_IND, END_AGRI_VALUE, END_B, END_DOUBLE_VP,
                                 END_EMPTY_HAND, END_FORGIVE, END_IND_VALUE, END_KIND, END_MIN_AGRI,
                                 END_MIN_BUILDINGS, END_MIN_IND, END_MIN_ITEMS, END_MIN_LOCK, END_MIN_VP,
                                 END_MIN_WORKERS, END_ONLY_LOCK, END_PER_BUILDING, END_PER_IND,
                                 END_PER_ITEM, END_PER_LOCK, END_PER_NO_SALE, END_PER_WORKER, NT, R,
                                 R_UNPAID_PENALTY)
from strategies.strong.queries import kinds_held, rounds_left, vp_points


@njit(cache=True, _nrt=False)
def owns_bonus_building(s, tab, p):
    m = s.bld_mask[p]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[END_KIND, b]:
            return True
    return False


@njit(cache=True, _nrt=False)
def count_end_kind(s, tab, p, kind, in_hand):
    k = 0
    m = kinds_held(s, p, in_hand)
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[END_KIND, b] == kind:
            k += s.bld[p, b] + (s.hand[p, b] if in_hand else 0)
    return k


@njit(cache=True, _nrt=False)
def bonus_total(s, tab, p, extra, removed):
    """The exact end-game bonus of the buildings owned now, with building ``extra`` added and one
    copy of ``removed`` taken away (-1: none)."""
    if removed >= 0:
        s.bld[p, removed] -= 1
        s.bld_n[p] -= 1
    total = bonus_sum(s, tab, p, extra, icon_counts(s, tab, p, extra))
    if removed >= 0:
        s.bld[p, removed] += 1
        s.bld_n[p] += 1
    return total


@njit(cache=True, _nrt=False)
def bonus_sum(s, tab, p, extra, counts):
    """The end-game bonus of the buildings owned now and ``extra`` (-1: none), on ``counts``
    (icon_counts with ``extra``), for a caller that has them already."""
    nb, agri, ind, lock, agri_v, ind_v, nosale = counts
    total = 0
    m = owned_with(s, p, extra)
    while m:
        b = lowest_bit(m)
        m &= m - 1
        k = s.bld[p, b] + (1 if b == extra else 0)
        kind = tab[END_KIND, b]
        if k and kind:
            total += k * bonus(kind, tab[END_A, b], tab[END_B, b], nb, agri, ind, lock, agri_v,
                               ind_v, nosale, s.hand_n[p], s.hand[p, CONS], s.workers[p], s.vp[p])
    return total


@njit(cache=True, _nrt=False)
def own_bonus(s, tab, p, b, counts):
    """(b's own bonus on today's counts with b built, a rough estimate of it at the game's end);
    ``counts`` are icon_counts with b built."""
    kind = tab[END_KIND, b]
    if kind == 0:
        return 0.0, 0.0
    a = tab[END_A, b]
    prize = tab[END_B, b]
    rl = rounds_left(s, tab)
    nb, agri, ind, lock, agri_v, ind_v, nosale = counts
    now = float(bonus(kind, a, prize, nb, agri, ind, lock, agri_v, ind_v, nosale, s.hand_n[p],
                      s.hand[p, CONS], s.workers[p], s.vp[p]))
    grow = 0.7 * rl  # buildings still to come, about a third of them with each icon
    est = now
    if kind == END_PER_BUILDING:
        est = a * (nb + grow)
    elif kind == END_PER_LOCK:
        est = a * (lock + grow / 3.0)
    elif kind == END_PER_NO_SALE:
        est = a * (nosale + grow / 3.0)
    elif kind == END_PER_IND:
        est = a * (ind + grow / 3.0)
    elif kind == END_PER_ITEM:
        est = a * max(float(s.hand[p, CONS]), 2.0)
    elif kind == END_EMPTY_HAND:
        est = 0.3 * a
    elif kind == END_AGRI_AND_IND:
        if now == 0:
            est = a * (0.6 if agri + ind > 0 else 0.3) * min(1.0, rl / 3.0)
    elif kind == END_ONLY_LOCK:
        est = now * (0.6 if rl > 2 else 1.0)
    elif kind == END_DOUBLE_VP:
        est = float(vp_points(tab, s.vp[p])) + 2.0 * rl
    elif kind == END_FORGIVE:
        est = float(tab[R, R_UNPAID_PENALTY] * min(a, s.unpaid[p] + 2))
    elif kind != END_PER_WORKER and now == 0:
        value = 0.0
        step = 1.0
        if kind == END_MIN_BUILDINGS:
            value, step = nb, 0.8
        elif kind == END_MIN_AGRI:
            value, step = agri, 0.3
        elif kind == END_MIN_IND:
            value, step = ind, 0.3
        elif kind == END_MIN_LOCK:
            value, step = lock, 0.3
        elif kind == END_MIN_VP:
            value, step = s.vp[p], 0.6
        elif kind == END_MIN_WORKERS:
            value, step = s.workers[p], 0.3
        elif kind == END_MIN_ITEMS:
            value, step = s.hand[p, CONS], 1.5
        elif kind == END_AGRI_VALUE:
            value, step = agri_v, 3.0
        elif kind == END_IND_VALUE:
            value, step = ind_v, 4.0
        expect = value + step * rl
        est = 0.0
        if expect > value and expect >= a:
            est = prize * min(1.0, (expect - a) / (expect - value) + 0.25) * 0.8
    return now, est


@njit(cache=True, _nrt=False)
def owned_bonus(s, tab, p, worth):
    """The end-game bonus of the buildings owned now, kept in worth[NT] for the decision."""
    if np.isnan(worth[NT]):
        worth[NT] = bonus_total(s, tab, p, -1, -1)
    return worth[NT]
