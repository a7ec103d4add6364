"""strong's parameters, their indices and the tuning constants its values are written in.

PARAMS are the numbers a user can set (``strong:reserve=2``); the constants below are the ones
the code reads in several places, each named once. ``fill_weights`` makes the weight vector every
value function reads (``w[P_...]``), scaled for solo; ``jitter`` spreads it inside a playout.
Where these numbers were measured: experiments/results/strong-history.md.
"""

import numpy as np
from numba import njit

from nesim.kernel.core import GOLDEN, mix64

PARAMS = {
    "reserve": 1.0,  # paydays of wages to hold (the coming one, half the next)
    "build_bias": 4.0,  # extra for any construction: it turns cards into points
    "card": 6.0,  # a building card in hand
    "item": 5.0,  # a consumer item in hand
    "action": 6.0,  # one worker action in a later round
    "hire_until": 6.0,  # last round to hire in
    "hire_bias": 3.0,  # extra for hiring while only the starting workers are out
    "vp": 1.5,  # scale on VP-token points
    "bonus": 0.5,  # scale on end-game bonuses
    "urgent": 2.0,  # extra per $ that keeps an Unpaid Wage card away
    "util": 0.6,  # scale on a workplace building's use in later rounds
    "spend": 1.0,  # scale on the cards discarded to pay a construction
    "hire_safe": 0.5,  # cost per $ a hire leaves uncovered for the next payday
    "max_workers": 3.0,  # never hire beyond this many workers
    "doll": 1.0,  # scale on a Mechanical Doll's wage-free action in each later round
    "solo_playouts": 64.0,  # solo: playouts per candidate placement (0: the round plan alone)
    "solo_sub_playouts": 32.0,  # solo: playouts per candidate for a build, discard or keep
    "solo_jitter": 0.3,  # solo: share by which each playout's weights may differ from these
    "solo_nest": 0.0,  # solo: rounds (this one first) over which each playout searches its own line
    "learned": 1.0,  # solo: scale on the corrections learned from searched games (0: none)
    "solo_prior": 0.1,  # solo: share of a placement's corrected value added to its playout mean
    "solo_sub_prior": 0.3,  # solo: the same for a searched build, discard or keep
    "search": 0.0,  # 2-4 players: playouts per candidate placement (0: one-ply play)
    "search_sub": 0.0,  # 2-4 players: playouts per candidate build, discard or keep (0: one-ply)
    "learned_multi": 0.0,  # 2-4 players: scale on the corrections learned from searched games
}
(P_RESERVE, P_BUILD, P_CARD, P_ITEM, P_ACTION, P_HIRE_UNTIL, P_HIRE_BIAS, P_VP, P_BONUS, P_URGENT,
 P_UTIL, P_SPEND, P_HIRE_SAFE, P_MAX_WORKERS, P_DOLL, P_SOLO_PLAYOUTS, P_SOLO_SUB,
 P_SOLO_JITTER, P_SOLO_NEST, P_LEARNED, P_SOLO_PRIOR, P_SOLO_SUB_PRIOR, P_SEARCH,
 P_SEARCH_SUB, P_LEARNED_MULTI) = range(25)
ITEM_KEEP = 0.6  # keep value of a card in hand, as a share of a new one
KEEP_BUILD = 0.4  # share of the building a card would make, in its keep value
LIMIT_WASTE = 0.85  # share of a card's value lost when it goes over the hand limit
START = 0.5  # the start player marker
LATER_ITEM = 0.9  # share of an item's value when it joins the hand only next round (Brewery)
REVEAL_CHOICE = 1.5  # the pick among the cards revealed (Design Office), beyond one card drawn
LAST_ROUND_SHARE = 0.15  # in the last round, the share of a card's or item's value that is left:
#                          only a build later that round can still use it
# solo: the weights above scaled for a game with no opponents and no money coming in (tuned by
# coordinate descent on solo games of all three games): cards, later actions and VP tokens are
# worth more (a third worker in round 1 pays off), while the urgency of the coming wages and a
# workplace's later use count for less (money taken from the Budget only moves the shortfall to
# a later payday, and the blocking rule leaves few placements to spare for own buildings).
# Cards paid for a construction weigh 0.7 of their keep value: the searched solo game turns
# cards into buildings more readily.
SOLO_FACTORS = {"card": 1.5, "action": 1.5, "vp": 1.5, "urgent": 0.5, "util": 0.5, "spend": 0.7}
# the weights a solo game scales and a playout jitters: every parameter before ``doll`` (1.0 for
# those SOLO_FACTORS does not name), in the order of PARAMS
SOLO_SCALE = np.array([SOLO_FACTORS.get(name, 1.0) for name in list(PARAMS)[:list(PARAMS).index("doll")]])


@njit(cache=True, _nrt=False)
def fill_weights(w, params, solo):
    """w[:] = the seat's parameters, scaled by SOLO_SCALE in a solo game."""
    for i in range(params.shape[0]):
        w[i] = params[i]
    if solo:
        for i in range(SOLO_SCALE.shape[0]):
            w[i] *= SOLO_SCALE[i]


@njit(cache=True, _nrt=False)
def jitter(w, luck, share):
    """Each continuous weight scaled by a factor in [1 - share, 1 + share] drawn from ``luck``."""
    for i in range(SOLO_SCALE.shape[0]):
        if i != P_HIRE_UNTIL and i != P_MAX_WORKERS:
            u = float(mix64(luck + GOLDEN * np.uint64(i + 1)) >> np.uint64(11)) / 2.0 ** 53  # [0, 1)
            w[i] *= 1.0 + share * (2.0 * u - 1.0)
