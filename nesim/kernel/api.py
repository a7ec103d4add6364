"""What a strategy may use: the decision kinds, the call signature, and helpers for common choices.

A strategy is ``choose(kind, seat, opts, n, ctx, st, tab, params) -> int``, compiled with
``@njit(STRATEGY_SIG, cache=True)``. It returns the index of its choice among ``opts[:n]``,
except for ``K_SELL``, where it returns a bit mask over ``opts[:n]`` (the buildings it could sell)
naming a legal sale. ``st[0]`` is the game state (see ``tables.STATE``), ``tab`` the card table,
``params`` the strategy's numeric parameters in the order of its ``PARAMS``.

What a strategy may know of the lookahead (nesim/kernel/search.py), asked of ``s = st[0]``:
``in_playout(s)``, whether it must answer directly (inside a playout, or asked again where a
LOOKAHEAD cannot be searched); ``playout_luck(s)``, (True, the seed of the sampled future) in a
playout's state; ``in_game(s)``, whether ``s`` is the game itself rather than a search's scratch
copy. ``enter_playout(s)``/``leave_playout(s)`` bracket code that answers for another strategy by
its quick policy.
"""

from numba import njit

from nesim.kernel.core import (CTX_CANDIDATES, CTX_NEST, CTX_PLAYOUTS, CTX_PRIOR, CTX_PRIOR_AT,
                               CTX_PURPOSE, CTX_REMAINING, CTX_SHORT, CTX_WORKPLACE, K_BUILD,
                               K_DISCARD, K_KEEP, K_MODE, K_PLACE, K_SELL, LOOKAHEAD, OWN, PAIR,
                               P_COST, P_EFFECT, P_HAND_LIMIT, STRATEGY_SIG, STRATEGY_T,
                               build_cards, option_card, sale_is_legal, sale_price,
                               strategy_below)
from nesim.kernel.search import enter_playout, in_game, in_playout, leave_playout, playout_luck

__all__ = ["CTX_CANDIDATES", "CTX_NEST", "CTX_PLAYOUTS", "CTX_PRIOR", "CTX_PRIOR_AT", "CTX_PURPOSE",
           "CTX_REMAINING", "CTX_SHORT", "CTX_WORKPLACE", "K_BUILD", "K_DISCARD", "K_KEEP", "K_MODE",
           "K_PLACE", "K_SELL", "LOOKAHEAD", "OWN", "PAIR", "P_COST", "P_EFFECT", "P_HAND_LIMIT",
           "STRATEGY_SIG", "STRATEGY_T", "build_cards", "enter_playout", "in_game", "in_playout",
           "leave_playout", "option_card", "playout_luck", "random_sale", "sale_is_legal",
           "sale_price", "strategy_below", "without_spare"]


@njit(cache=True)
def random_sale(s, tab, seat, opts, n, short):
    """A random legal sale: random buildings until the shortfall is covered, then none too many."""
    mask = 0
    total = 0
    left = n
    while total < short and left > 0:
        pick = strategy_below(s, seat, left)
        for i in range(n):
            if not (mask >> i) & 1:
                if pick == 0:
                    mask |= 1 << i
                    total += sale_price(s, tab, opts[i])
                    break
                pick -= 1
        left -= 1
    return without_spare(s, tab, opts, n, mask, total, short)


@njit(cache=True)
def without_spare(s, tab, opts, n, mask, total, short):
    """The sale ``mask`` (worth ``total``) with every building it does not need dropped, so that
    it is legal: no building left in it could go and the rest still cover ``short``."""
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if (mask >> i) & 1 and total - sale_price(s, tab, opts[i]) >= short:
                mask &= ~(1 << i)
                total -= sale_price(s, tab, opts[i])
                changed = True
    return mask
