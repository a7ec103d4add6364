"""workers: Hires early (schools, Company Housing) while wages are covered, then turns workers into actions.

Its weights go to strategies/_common.decide, which reads cards by their table fields.
"""

import numpy as np
from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import NW, decide

NAME = "workers"
DESCRIPTION = "Hires early (schools, Company Housing) while wages are covered, then turns workers into actions."
PARAMS = {"reserve": 1.0, "hire_until": 6.0, "hire_weight": 14.0}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = np.empty(NW)
    w[0] = params[0]; w[1] = params[1]; w[2] = 10.0; w[3] = 1.0; w[4] = params[2]
    w[5] = 1.0; w[6] = 0.5; w[7] = 0.3; w[8] = 1.0; w[9] = 1.0
    return decide(kind, seat, opts, n, ctx, st, tab, w)
