"""greedy: build the most valuable building it can, keep money for wages, hire while it pays.

Placement scores each option by what its workplace does (the card table's effect id), so changed
card sets need no edit: construction first when it can build, then money while short of the
wage reserve, hiring early while money covers one more worker, card draws otherwise. The
evaluation lives in strategies/_common.py; greedy is its plainest set of weights.
"""

import numpy as np
from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import NW, decide

NAME = "greedy"
DESCRIPTION = "Builds its most valuable affordable building, keeps a wage reserve, hires early while it pays."
PARAMS = {"reserve": 1.0, "hire_until": 5.0, "build_bias": 10.0}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = np.empty(NW)
    w[0] = params[0]; w[1] = params[1]; w[2] = params[2]; w[3] = 1.0; w[4] = 9.0  # noqa: E702
    w[5] = 1.0; w[6] = 0.0; w[7] = 0.0; w[8] = 0.0; w[9] = 1.0  # noqa: E702
    return decide(kind, seat, opts, n, ctx, st, tab, w)
