"""economy: Drains the household with Stall/Market-style and money buildings, builds points late.

Its weights go to strategies/_common.decide, which reads cards by their table fields.
"""

import numpy as np
from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import NW, decide

NAME = "economy"
DESCRIPTION = "Drains the household with Stall/Market-style and money buildings, builds points late."
PARAMS = {"reserve": 1.0, "late_build": 6.0, "income_card": 6.0}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = np.empty(NW)
    w[0] = params[0]; w[1] = 4.0; w[2] = 10.0; w[3] = 2.0; w[4] = 8.0
    w[5] = 0.8; w[6] = 0.5; w[7] = 0.3; w[8] = params[2]; w[9] = params[1]
    return decide(kind, seat, opts, n, ctx, st, tab, w)
