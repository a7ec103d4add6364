"""priority: places by a priority list over effect kinds, the way a Dominion bot is written.

Each placement goes to the first kind of workplace in the list that is open (money first while
the coming wages are not covered); strategies/_common.by_priority does the rest, and the weights
(``weights``) price builds, discards, keeps and sales as ``greedy`` does. A card of any kind,
new ones from a sweep file too, is judged by its kind, never by its key.
"""

from numba import njit

from nesim.kernel.api import STRATEGY_SIG
from strategies._common import by_priority, effect_ranks, weights

NAME = "priority"
DESCRIPTION = "Places on the first open workplace of a priority list of effect kinds; money first while short of wages."
PARAMS = {"reserve": 1.0, "hire_until": 5.0}

# Where a worker goes, first kind first; kinds left out (consumer items) come last, and two
# workplaces of one kind are told apart by greedy's placement value.
PLAN = effect_ranks((
    "construct",  # cards into points whenever a build is open
    "discard_for_money",  # surplus cards into wages
    "hire_ready", "hire", "hire_up_to",  # more workers, while their wages are covered
    "draw_and_vp", "items_and_vp", "relics",  # VP tokens
    "discard_then_draw", "draw", "draw_more_if_empty", "draw_and_lead", "reveal_keep_one",
    "draw_if_on_mine",  # cards to build with
    "money", "money_more_if_last_unit", "money_if_hand_size", "lottery", "money_per_item",
    "mine_draw",
))
# ... and while the money does not cover the wages of this payday
WHEN_SHORT = effect_ranks(("discard_for_money", "money", "money_more_if_last_unit",
                           "money_if_hand_size", "lottery", "money_per_item", "construct"))

@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    w = weights(reserve=params[0], hire_until=params[1], build=10.0, money=1.0, hire=9.0, draw=1.0,
                vp=0.5, set_bonus=0.5, income_card=0.5, late_build=1.0)
    return by_priority(kind, seat, opts, n, ctx, st, tab, PLAN, WHEN_SHORT, w)
