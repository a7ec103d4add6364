"""greedy: build the most valuable building it can, keep money for wages, hire while it pays.

Placement scores each option by what its workplace does (the card table's effect id), so changed
card sets need no edit: construction first when it can build, then money while short of the
wage reserve, hiring early while money covers one more worker, card draws otherwise. The
evaluation lives in strategies/_common.py; greedy is its plainest set of weights.
"""

from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import decide, weights

NAME = "greedy"
DESCRIPTION = "Builds its most valuable affordable building, keeps a wage reserve, hires early while it pays."
PARAMS = {"reserve": 1.0, "hire_until": 5.0, "build_bias": 10.0}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = weights(reserve=params[0], hire_until=params[1], build=params[2], money=1.0, hire=9.0,
                draw=1.0, vp=0.0, set_bonus=0.0, income_card=0.0, late_build=1.0)
    return decide(kind, seat, opts, n, ctx, st, tab, w)
