"""vp_tokens: Collects VP tokens (Vegetable Garden, Laboratory, Workshop, Relics) toward token-rewarding cards.

Its weights go to strategies/_common.decide, which reads cards by their table fields.
"""

import numpy as np
from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import NW, decide

NAME = "vp_tokens"
DESCRIPTION = "Collects VP tokens (Vegetable Garden, Laboratory, Workshop, Relics) toward token-rewarding cards."
PARAMS = {"reserve": 1.0, "vp_weight": 3.0}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = np.empty(NW)
    w[0] = params[0]; w[1] = 5.0; w[2] = 10.0; w[3] = 1.0; w[4] = 9.0
    w[5] = 1.0; w[6] = params[1]; w[7] = 0.5; w[8] = 0.5; w[9] = 1.0
    return decide(kind, seat, opts, n, ctx, st, tab, w)
