"""economy: Drains the household with Stall/Market-style and money buildings, builds points late.

Its weights go to strategies/_common.decide, which reads cards by their table fields.
"""

from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import decide, weights

NAME = "economy"
DESCRIPTION = "Drains the household with Stall/Market-style and money buildings, builds points late."
PARAMS = {"reserve": 1.0, "late_build": 6.0, "income_card": 6.0}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = weights(reserve=params[0], hire_until=4.0, build=10.0, money=2.0, hire=8.0, draw=0.8,
                vp=0.5, set_bonus=0.3, income_card=params[2], late_build=params[1])
    return decide(kind, seat, opts, n, ctx, st, tab, w)
