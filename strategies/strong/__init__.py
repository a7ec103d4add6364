"""strong: a one-ply evaluation of every option in points, with tunable weights; in solo, a search.

Each placement is scored by what its workplace would bring now (``values``): the best building it
could construct (asset value, the end-game bonus expected for it and what it adds to bonus cards
already owned (``bonuses``), its use as a workplace in the rounds left, less the cards discarded
for it), money against the coming wages (a $ that keeps an Unpaid Wage card away is worth more
than a point), cards and consumer items by how much room the payday hand limit leaves, VP tokens
by the set they complete and the cost rules and bonuses they unlock, and workers by the actions
left in the game against the wages still to pay. Safety rules on top: never hire a worker whose
wages this payday cannot be met, stop hiring late, hire at once while only the two starting
workers are out, and in the last round value cards only for what they can still build (so they
become money). A Mechanical Doll is worth, on top, the wage-free action it adds in each round
left. Discards drop the card worth least in hand (consumer items first unless a bonus or
workplace wants them); sales lose the least in points and in use.

Solo (``s.n == 1``) is played with the weights scaled by ``SOLO_SCALE`` (``weights``: no money
comes into a solo game, so cards, actions and VP tokens matter more than in a race against
opponents), and its decisions are searched by the kernel's playouts (``search``): each playout
plays this strategy's one-ply choices with every continuous weight scaled by a factor drawn from
the playout's seed (``solo_jitter``), so that a move must be good against a spread of
continuations, not one fixed policy's habits. With ``solo_playouts=0`` a placement is chosen by a
short plan over the round's remaining placements instead (``solo``). In solo, where the game has
them, a correction learned from searched games is added to every one-ply value (``learned``).
In 2-4 players it plays the one-ply evaluation, or searches with ``search`` and ``search_sub``.

The package: ``weights`` (PARAMS and the tuning constants), ``queries``, ``bonuses``, ``values``,
``solo``, ``learned``, ``search``; here ``choose`` and ``decide``, which ties them together. What
each setting was measured to give, and why the defaults are what they are:
experiments/results/strong-history.md.
"""

import numpy as np
from numba import njit

from nesim.kernel.api import (CTX_SHORT, CTX_WORKPLACE, K_MODE, K_PLACE, K_SELL, LOOKAHEAD, STRATEGY_SIG, in_playout,
                              playout_luck)
from nesim.kernel.tables import CONS, EA, EB, EC, NT
from strategies.strong.learned import LEARNED_STATE, one_ply_values, table_rows
from strategies.strong.search import search_request
from strategies.strong.solo import solo_placement
from strategies.strong.values import WORTH_SIZE, cheapest_legal_sale, hand_value, sale_loss
from strategies.strong.weights import ITEM_KEEP, P_CARD, P_ITEM, P_SOLO_JITTER, PARAMS, fill_weights, jitter

__all__ = ["NAME", "DESCRIPTION", "PARAMS", "choose", "decide", "table_rows", "SCRATCH_FIXED"]

NAME = "strong"
DESCRIPTION = ("One-ply evaluation of every option in points, with wage and hiring safety rules; in solo,"
               " each placement chosen by playouts to the end of the game, and with search=N in"
               " games of 2-4 players too.")
SCRATCH_FIXED = WORTH_SIZE + (NT + 1) + LEARNED_STATE  # the memo, the keep values, the position


@njit(cache=True, _nrt=False)
def decide(kind, seat, opts, n, ctx, st, tab, params, scratch):
    """choose's answer; ``scratch`` is room for the weights (one per parameter), the building
    worths (NaN: not yet known), the keep values, the position the learned corrections read and
    one value per option."""
    s = st[0]
    p = seat
    nw = params.shape[0]
    w = scratch[:nw]
    worth = scratch[nw:nw + WORTH_SIZE]
    keep = scratch[nw + WORTH_SIZE:nw + WORTH_SIZE + NT + 1]
    position = scratch[nw + WORTH_SIZE + NT + 1:nw + SCRATCH_FIXED]
    per_option = scratch[nw + SCRATCH_FIXED:]
    fill_weights(w, params, s.n == 1)
    for i in range(WORTH_SIZE):
        worth[i] = np.nan
    sampled, luck = playout_luck(s)
    if s.n == 1 and sampled and params[P_SOLO_JITTER] > 0:
        jitter(w, luck, params[P_SOLO_JITTER])
    if kind == K_SELL:
        loss = sale_loss(s, tab, p, opts, n, w, per_option)
        return cheapest_legal_sale(s, tab, opts, n, ctx[CTX_SHORT], loss)
    if kind == K_MODE:  # Farm Village: trade items for cards unless the items are wanted
        wp = ctx[CTX_WORKPLACE]  # its effect's numbers: items taken, items traded, cards drawn
        wanted = hand_value(s, tab, p, CONS, w, worth) - ITEM_KEEP * w[P_ITEM]
        if tab[EC, wp] * w[P_CARD] > tab[EA, wp] * w[P_ITEM] + tab[EB, wp] * wanted:
            return 1
        return 0
    if search_request(kind, s, tab, p, opts, n, ctx, params, w, keep, worth, position, per_option):
        return LOOKAHEAD
    if kind == K_PLACE and s.n == 1:
        if not in_playout(s):  # inside playouts the one-ply choice: half the time, as good
            return solo_placement(s, tab, p, opts, n, w, worth, keep, per_option)
    one_ply_values(kind, s, tab, p, opts, n, ctx, params, w, keep, worth, position, per_option)
    best = 0
    for i in range(1, n):
        if per_option[i] > per_option[best]:
            best = i
    return best


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    # One allocation per decision, and the rest without reference counting: counting the arrays
    # passed between functions that may allocate took a third of a playout's time.
    scratch = np.empty(params.shape[0] + SCRATCH_FIXED + max(n, 1))
    return decide(kind, seat, opts, n, ctx, st, tab, params, scratch)
