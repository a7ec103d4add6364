"""The search strong asks the kernel for (strategies/README.md, Lookahead and Priors).

In solo, every placement is searched by ``solo_playouts`` playouts per candidate and every build,
discard and Design Office pick with two or more options by ``solo_sub_playouts``; ``solo_nest``
makes each playout a nested search over the next rounds. Where the game has learned corrections,
a share of each candidate's corrected one-ply value goes with the request as its prior
(``solo_prior``, ``solo_sub_prior``): without corrections the one-ply value is the playouts' own
policy, and a prior would only count it twice. In games of 2-4 players, ``search`` and
``search_sub`` search placements and builds, discards and keeps the same way (0: one-ply play).
Inside a playout (``in_playout``) nothing is searched.
"""

from numba import njit

from nesim.kernel.api import (CTX_CANDIDATES, CTX_NEST, CTX_PLAYOUTS, CTX_PRIOR, CTX_PRIOR_AT, K_BUILD,
                              K_DISCARD, K_KEEP, K_PLACE, in_playout)
from strategies.strong.learned import has_learned, one_ply_values
from strategies.strong.weights import (P_SEARCH, P_SEARCH_SUB, P_SOLO_NEST, P_SOLO_PLAYOUTS, P_SOLO_PRIOR,
                                       P_SOLO_SUB, P_SOLO_SUB_PRIOR)


@njit(cache=True, _nrt=False)
def search_request(kind, s, tab, p, opts, n, ctx, params, w, keep, worth, position, out):
    """Whether this decision (not a sale or Farm Village's mode) is searched; if so, the request
    is written into ``ctx`` (playouts, candidates, nesting, priors) and the caller answers
    LOOKAHEAD. ``keep``, ``position`` and ``out`` are room for the priors' one-ply values."""
    if in_playout(s):
        return False
    searchable = kind == K_PLACE or kind == K_BUILD or kind == K_DISCARD or kind == K_KEEP
    if s.n == 1:
        if params[P_SOLO_PLAYOUTS] < 1:
            return False
        k = share = 0.0
        if kind == K_PLACE:
            k, share = params[P_SOLO_PLAYOUTS], params[P_SOLO_PRIOR]
        elif searchable and n > 1:
            k, share = params[P_SOLO_SUB], params[P_SOLO_SUB_PRIOR]
        if k < 1:
            return False
        ctx[CTX_PLAYOUTS] = int(k)
        ctx[CTX_CANDIDATES] = 0
        ctx[CTX_NEST] = int(params[P_SOLO_NEST])
        if share > 0 and has_learned(tab, params, 1) and CTX_PRIOR_AT + n <= ctx.shape[0]:
            one_ply_values(kind, s, tab, p, opts, n, ctx, params, w, keep, worth, position, out)
            write_priors(ctx, out, n, share)
        return True
    k = params[P_SEARCH] if kind == K_PLACE else params[P_SEARCH_SUB]
    if k >= 1 and searchable:
        ctx[CTX_PLAYOUTS] = int(k)
        ctx[CTX_CANDIDATES] = 0
        ctx[CTX_NEST] = 0
        return True
    return False


@njit(cache=True, _nrt=False)
def write_priors(ctx, values, n, share):
    """The search's priors (core.best_candidate): ``share`` of each option's one-ply value, in
    thousandths of a point, counted from the best option's."""
    top = values[0]
    for i in range(1, n):
        top = max(top, values[i])
    ctx[CTX_PRIOR] = 1
    for i in range(n):
        ctx[CTX_PRIOR_AT + i] = int(round(1000.0 * share * (values[i] - top)))
