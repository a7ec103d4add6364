"""random: every decision uniformly at random among the legal options."""

from numba import njit

from nesim.kernel.api import CTX_SHORT, K_SELL, STRATEGY_SIG, random_sale, strategy_below

NAME = "random"
DESCRIPTION = "Uniformly random legal choices; the baseline every other strategy should beat."
PARAMS: dict[str, float] = {}


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    s = st[0]
    if kind == K_SELL:
        return random_sale(s, tab, seat, opts, n, ctx[CTX_SHORT])
    return strategy_below(s, seat, n)
