"""vp_tokens: Collects VP tokens (Vegetable Garden, Laboratory, Workshop, Relics) toward token-rewarding cards.

Its weights go to strategies/_common.decide, which reads cards by their table fields.
"""

from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import decide, weights

NAME = "vp_tokens"
DESCRIPTION = "Collects VP tokens (Vegetable Garden, Laboratory, Workshop, Relics) toward token-rewarding cards."
PARAMS = {"reserve": 1.0, "vp_weight": 3.0}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = weights(reserve=params[0], hire_until=5.0, build=10.0, money=1.0, hire=9.0, draw=1.0,
                vp=params[1], set_bonus=0.5, income_card=0.5, late_build=1.0)
    return decide(kind, seat, opts, n, ctx, st, tab, w)
