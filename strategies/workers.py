"""workers: Hires early (schools, Company Housing) while wages are covered, then turns workers into actions.

Its weights go to strategies/_common.decide, which reads cards by their table fields.
"""

from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import decide, weights

NAME = "workers"
DESCRIPTION = "Hires early (schools, Company Housing) while wages are covered, then turns workers into actions."
PARAMS = {"reserve": 1.0, "hire_until": 6.0, "hire_weight": 14.0}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = weights(reserve=params[0], hire_until=params[1], build=10.0, money=1.0, hire=params[2],
                draw=1.0, vp=0.5, set_bonus=0.3, income_card=1.0, late_build=1.0)
    return decide(kind, seat, opts, n, ctx, st, tab, w)
