"""Building blocks the scripted strategies share: a placement evaluation driven by weights.

``decide`` answers every decision from a weight vector (``weights`` names them), so a strategy
is its weights: ``economy`` values money workplaces and money buildings, ``workers`` hiring,
``sets`` end-game bonus buildings, ``vp_tokens`` token workplaces and token-rewarding cards.
``by_priority`` places by a priority list over effect kinds instead (``effect_ranks`` reads one),
with the weights for the rest (``first_kind`` is written that way). Cards are judged by the
table's effect ids and end-game rules, never by their keys, so variants with changed cards still
play sensibly.
"""

import numpy as np
from numba import njit

from nesim.errors import NesimError
from nesim.kernel.api import (CTX_SHORT, K_BUILD, K_DISCARD, K_KEEP, K_PLACE, K_SELL, build_cards,
                              option_card)
from nesim.kernel.core import cheapest_sufficient_sale, is_money_effect
from nesim.kernel.tables import (ASSET, CONS, CR_IF_VP, CR_KIND, EA, EB, EFFECT, END_A, END_B,
                                 END_DOUBLE_VP, END_KIND, END_MIN_VP, E_CAFE, E_CONSTRUCT, E_DISCARD_DRAW,
                                 E_DISCARD_MONEY, E_DRAW, E_DRAW_VP, E_FARM_RESORT, E_FILL_HAND,
                                 E_HIRE_UPTO, E_ITEMS_VP, E_LOTTERY, E_MONEY, E_MUSEUM_GLORY,
                                 E_RELICS_WP, E_SCHOOL, E_TAKE_ITEMS, E_TECH_COLLEGE, EFFECT_IDS, R,
                                 R_ROUNDS, R_WAGES)

# weight indices, in the order of ``weights``' arguments
(W_RESERVE, W_HIRE_UNTIL, W_BUILD, W_MONEY, W_HIRE, W_DRAW, W_VP, W_SET, W_INCOME_CARD,
 W_LATE_BUILD) = range(10)
NW = 10


@njit(cache=True)
def weights(reserve, hire_until, build, money, hire, draw, vp, set_bonus, income_card, late_build):
    """The weight vector ``decide`` reads, every weight by name (call it with keywords):

    - ``reserve``: paydays of wages to hold; below that, money workplaces get urgent;
    - ``hire_until``: last round to hire in (and only while money covers one more worker);
    - ``build``: value of a construction workplace (six tenths before round ``late_build``);
    - ``money``: scale on money workplaces; ``hire``: value of a hire; ``draw``: scale on card and
      item workplaces;
    - ``vp``: scale on VP tokens and token-rewarding cards; ``set_bonus``: scale on end-game
      bonuses; ``income_card``: extra for a building whose workplace pays money.
    """
    w = np.empty(NW)
    w[W_RESERVE] = reserve
    w[W_HIRE_UNTIL] = hire_until
    w[W_BUILD] = build
    w[W_MONEY] = money
    w[W_HIRE] = hire
    w[W_DRAW] = draw
    w[W_VP] = vp
    w[W_SET] = set_bonus
    w[W_INCOME_CARD] = income_card
    w[W_LATE_BUILD] = late_build
    return w


@njit(cache=True)
def wage_bill(s, tab, p, extra):
    return tab[R, R_WAGES + s.round - 1] * (s.workers[p] + s.training[p] + extra)


@njit(cache=True)
def place_value(s, tab, p, card, w):
    e = tab[EFFECT, card]
    short = wage_bill(s, tab, p, 0) * w[W_RESERVE] - s.money[p]
    urgent = 6.0 + short / 2.0 if short > 0 else 0.0
    hand = s.hand_n[p]
    if e == E_CONSTRUCT:
        late = s.round >= w[W_LATE_BUILD]
        return w[W_BUILD] * (1.0 if late else 0.6)
    if e == E_DISCARD_MONEY:
        return w[W_MONEY] * tab[EB, card] / 3.0 + urgent
    if e == E_MONEY or e == E_LOTTERY or e == E_MUSEUM_GLORY:
        return w[W_MONEY] * (tab[EA, card] if e == E_MONEY else 8.0) / 2.0 + urgent
    if e == E_CAFE or e == E_FARM_RESORT:
        return w[W_MONEY] * 3.0 + urgent
    if e == E_SCHOOL or e == E_HIRE_UPTO or e == E_TECH_COLLEGE:
        wage = tab[R, R_WAGES + s.round - 1]
        if s.round <= w[W_HIRE_UNTIL] and s.money[p] >= wage_bill(s, tab, p, 1) * w[W_RESERVE] + wage:
            return w[W_HIRE]
        return -1.0
    if e == E_ITEMS_VP or e == E_DRAW_VP or e == E_RELICS_WP:
        return 2.0 + w[W_VP] * tab[EB, card] - 0.3 * hand if e != E_RELICS_WP else 2.0 + w[W_VP]
    if e == E_DRAW or e == E_DISCARD_DRAW or e == E_FILL_HAND:
        return w[W_DRAW] * (2.0 + tab[EA, card]) - 0.5 * hand
    if e == E_TAKE_ITEMS:
        return w[W_DRAW] * (1.0 + tab[EA, card] / 2.0) - 0.5 * hand
    return w[W_DRAW] * 1.5 - 0.3 * hand


@njit(cache=True)
def card_worth(tab, b, w):
    """What owning building b is worth to this strategy: points, bonus, income, tokens."""
    v = float(tab[ASSET, b])
    if tab[END_KIND, b] != 0:
        v += w[W_SET] * (tab[END_B, b] / 2.0 if tab[END_B, b] > 0 else 3.0 * tab[END_A, b])
    if is_money_effect(tab[EFFECT, b]):
        v += w[W_INCOME_CARD]
    if tab[CR_KIND, b] == CR_IF_VP or tab[END_KIND, b] == END_MIN_VP or tab[END_KIND, b] == END_DOUBLE_VP \
            or tab[EFFECT, b] == E_ITEMS_VP or tab[EFFECT, b] == E_DRAW_VP:
        v += w[W_VP] * 3.0
    return v


@njit(cache=True)
def build_worth(tab, v, w):
    a, b = build_cards(v)
    return card_worth(tab, a, w) + (card_worth(tab, b, w) if b >= 0 else 0.0)


@njit(cache=True)
def decide(kind, seat, opts, n, ctx, st, tab, w):
    s = st[0]
    if kind == K_SELL:
        return cheapest_sufficient_sale(s, tab, opts, n, ctx[CTX_SHORT])
    last_round = s.round == tab[R, R_ROUNDS]
    best = 0
    best_v = -1e18
    for i in range(n):
        v = opts[i]
        if kind == K_PLACE:
            card = option_card(s, v)
            value = place_value(s, tab, seat, card, w)
            if last_round and tab[EFFECT, card] == E_DISCARD_MONEY:
                value += 5.0  # cards are worth nothing at the end: turn them into money
        elif kind == K_BUILD:
            value = build_worth(tab, v, w)
        elif kind == K_DISCARD:
            value = 1000.0 if v == CONS else -card_worth(tab, v, w)
        elif kind == K_KEEP:
            value = card_worth(tab, v, w) if v != CONS else -1.0
        else:
            value = -i
        if value > best_v:
            best_v = value
            best = i
    return best


def effect_ranks(priority: tuple[str, ...]) -> np.ndarray:
    """Each kernel effect id's place in ``priority``, a list of effect kinds (the names of
    nesim.cards.EFFECT_KINDS, `nesim effects`), first = 0; kinds the list leaves out come after
    it, all equal. Read once at import, so the compiled strategy holds it as a constant."""
    ranks = np.full(max(EFFECT_IDS.values()) + 1, len(priority), dtype=np.int64)
    for place, kind in enumerate(priority):
        if kind not in EFFECT_IDS:
            raise NesimError(f"priority list: {kind!r} is not a workplace effect kind (`nesim effects` lists them)")
        ranks[EFFECT_IDS[kind]] = min(ranks[EFFECT_IDS[kind]], place)
    return ranks


@njit(cache=True)
def short_of_wages(s, tab, p, w):
    """Whether player p's money is below ``reserve`` times the wages of this payday."""
    return s.money[p] < wage_bill(s, tab, p, 0) * w[W_RESERVE]


@njit(cache=True)
def by_priority(kind, seat, opts, n, ctx, st, tab, ranks, short_ranks, w):
    """A placement on the workplace whose effect kind comes first in the priority list
    (``short_ranks`` while short of the wage reserve, ``ranks`` otherwise; effect_ranks), the
    better of two of the same rank by ``place_value``; an option that ``place_value`` finds worse
    than nothing (a hire whose wages the money does not cover, a draw into a full hand) is
    passed over. Every other decision, and a placement with every option passed over, is
    ``decide``'s with the weights ``w``."""
    if kind != K_PLACE:
        return decide(kind, seat, opts, n, ctx, st, tab, w)
    s = st[0]
    order = short_ranks if short_of_wages(s, tab, seat, w) else ranks
    best = -1
    best_rank = 0
    best_v = 0.0
    for i in range(n):
        card = option_card(s, opts[i])
        value = place_value(s, tab, seat, card, w)
        if value < 0:
            continue
        rank = order[tab[EFFECT, card]]
        if best < 0 or rank < best_rank or (rank == best_rank and value > best_v):
            best, best_rank, best_v = i, rank, value
    return best if best >= 0 else decide(kind, seat, opts, n, ctx, st, tab, w)
