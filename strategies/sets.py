"""sets: Aims at end-game bonus and icon-count buildings, weighing each bonus by its size.

Its weights go to strategies/_common.decide, which reads cards by their table fields.
"""

from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import decide, weights

NAME = "sets"
DESCRIPTION = "Aims at end-game bonus and icon-count buildings, weighing each bonus by its size."
PARAMS = {"reserve": 1.0, "set_weight": 1.5}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = weights(reserve=params[0], hire_until=5.0, build=11.0, money=1.0, hire=9.0, draw=1.0,
                vp=0.5, set_bonus=params[1], income_card=0.5, late_build=1.0)
    return decide(kind, seat, opts, n, ctx, st, tab, w)
