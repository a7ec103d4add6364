"""Solo without search (``solo_playouts=0``, and the search's own playouts never use it): the
placement that starts the best plan for the round's remaining placements under the blocking rule
(after every placement the newest free card of the row is blocked, so taking the newest
valuable card first can keep a second one open)."""

from numba import njit

from nesim.kernel.api import OWN, option_card
from nesim.kernel.core import block_newest, public_open, units_left
from nesim.kernel.tables import NEED
from strategies.strong.values import keep_values, place_gain

PLAN_DEPTH = 3  # solo: placements planned ahead within the round (blocking makes order matter)
PLAN_TIE = 0.15  # solo: share of a placement's own gain that puts the best step of a plan first


@njit(cache=True, _nrt=False)
def open_now(s, tab, p, v):
    """Whether option v is still free in the imagined rest of this round."""
    if v >= OWN:
        return s.used[p, v - OWN] < s.bld[p, v - OWN]
    return public_open(s, tab, v)


@njit(cache=True, _nrt=False)
def take_and_block(s, tab, p, v, card):
    """Imagine placing on v: occupy it, then block the newest free card once per unit placed;
    returns the slots blocked (-1: none), the second only for a 2-unit card."""
    if v < OWN:
        s.pub_plc[v] += 1
    else:
        s.used[p, card] += 1
    first = block_newest(s)
    second = block_newest(s) if tab[NEED, card] > 1 else -1
    return first, second


@njit(cache=True, _nrt=False)
def undo_take(s, p, v, card, blocked):
    for j in blocked:
        if j >= 0:
            s.pub_side[j] = 0
    if v < OWN:
        s.pub_plc[v] -= 1
    else:
        s.used[p, card] -= 1


@njit(cache=True, _nrt=False)
def plan_value(s, tab, p, opts, n, gains, units, depth):
    """Solo: the best total of ``gains`` over this round's remaining placements, applying the
    blocking rule after each one (today's gains; the state changes in between are ignored)."""
    best = 0.0
    for k in range(n):
        v = opts[k]
        card = option_card(s, v)
        if tab[NEED, card] > units or not open_now(s, tab, p, v):
            continue
        blocked = take_and_block(s, tab, p, v, card)
        val = gains[k]
        left = units - tab[NEED, card]
        if depth > 1 and left > 0:
            val += plan_value(s, tab, p, opts, n, gains, left, depth - 1)
        undo_take(s, p, v, card, blocked)
        best = max(best, val)
    return best


@njit(cache=True, _nrt=False)
def solo_placement(s, tab, p, opts, n, w, worth, keep, gains):
    """Solo: the placement that starts the best plan for the round under the blocking rule;
    its own gain breaks ties, so the plan's most valuable step (it changes the state) goes first.
    ``keep`` and ``gains`` are room for keep_values and for each option's gain."""
    keep_values(s, tab, p, w, worth, keep)
    for i in range(n):
        gains[i] = place_gain(s, tab, p, opts[i], w, keep, worth)
    units = units_left(s, p)
    best = 0
    best_v = -1e18
    for i in range(n):
        v = opts[i]
        card = option_card(s, v)
        blocked = take_and_block(s, tab, p, v, card)
        val = (1.0 + PLAN_TIE) * gains[i]
        left = units - tab[NEED, card]
        if left > 0:
            val += plan_value(s, tab, p, opts, n, gains, left, PLAN_DEPTH - 1)
        undo_take(s, p, v, card, blocked)
        if val > best_v:
            best_v = val
            best = i
    return best
