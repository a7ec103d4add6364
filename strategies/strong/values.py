"""strong's one-ply values, in points: money against the coming wages, cards and items against
the hand limit, VP tokens, hires, a workplace's yield, a building's worth, a card's keep value,
a placement, a build, and the sale that loses least.

Every card is read through the table (effect id and arguments, end-game rule, asset value, cost
rules, icons), never by its key, so variants and new cards are played sensibly. ``worth`` is a
decision's memo (WORTH_SIZE long, NaN until known): see ``build_value``.
"""

import numpy as np
from numba import njit

from nesim.kernel.api import K_BUILD, K_DISCARD, K_KEEP, K_PLACE, OWN, build_cards, option_card, sale_price, without_spare
from nesim.kernel.core import (construct_cost, construct_payable, current_cost, hand_limit, icon_counts,
                               lowest_bit, terms_allow, terms_pair, units_left, workplace_yield)
from nesim.kernel.tables import (ASSET, CONS, CR_A, CR_B, CR_IF_VP, CR_KIND, C_BUILDING_CO, C_COLONY,
                                 C_CONTRACTOR, C_SKYSCRAPER, C_TEMPLE, C_WORLDWIDE, EA, EB, EC, EFFECT,
                                 END_A, END_B, END_DOUBLE_VP, END_KIND, END_MIN_ITEMS, END_MIN_VP,
                                 END_PER_ITEM, E_CONSTRUCT, E_DESIGN_OFFICE, E_DISCARD_DRAW,
                                 E_DISCARD_MONEY, E_FARM_RESORT, E_FARM_VILLAGE, MINE, NT, ONBUILD,
                                 ONBUILD_DOLL, R, R_NTYPES, R_START_WORKERS, R_UNPAID_PENALTY, R_VP_POINTS,
                                 R_VP_SET, WORKABLE)
from strategies.strong.bonuses import (bonus_sum, bonus_total, count_end_kind, own_bonus, owned_bonus,
                                       owns_bonus_building)
from strategies.strong.queries import (BUILDING_KINDS, kinds_held, owns_effect, rounds_left,
                                       sellable_value, vp_points, wage_at, wages_from_now)
from strategies.strong.weights import (ITEM_KEEP, KEEP_BUILD, LAST_ROUND_SHARE, LATER_ITEM, LIMIT_WASTE,
                                       P_ACTION, P_BONUS, P_BUILD, P_CARD, P_DOLL, P_HIRE_BIAS, P_HIRE_SAFE,
                                       P_HIRE_UNTIL, P_ITEM, P_MAX_WORKERS, P_RESERVE, P_SPEND, P_URGENT,
                                       P_UTIL, P_VP, REVEAL_CHOICE, START)

WORTH_SIZE = NT + 1  # build_value's memo of a decision: each building's worth, the owned bonus


@njit(cache=True, _nrt=False)
def money_value(s, tab, p, m, w):
    """$m now: a point each, plus more for what covers the wage reserve."""
    if m <= 0:
        return 0.0
    need = w[P_RESERVE] * wage_at(tab, s.round) * s.workers[p]
    if rounds_left(s, tab) > 0:
        need += 0.5 * w[P_RESERVE] * wage_at(tab, s.round + 1) * s.workers[p]
    deficit = need - s.money[p]
    v = float(m)
    if deficit > 0:
        factor = w[P_URGENT]
        if s.n > 1 and sellable_value(s, tab, p) >= deficit:
            factor *= 0.4  # a sale would cover it at full price
        v += min(float(m), deficit) * factor
    return v


@njit(cache=True, _nrt=False)
def cards_value(s, tab, p, k, per):
    """k more cards at ``per`` each, less what the payday hand limit would take."""
    if k <= 0:
        return 0.0
    if rounds_left(s, tab) == 0:
        per *= LAST_ROUND_SHARE  # the last round: only a build later this round can use them
    room = hand_limit(s, tab, p) + 1.5 * max(0, units_left(s, p) - 1) - s.hand_n[p]
    v = 0.0
    for i in range(k):
        v += per if i < room else per * (1.0 - LIMIT_WASTE)
    return v


@njit(cache=True, _nrt=False)
def keep_values(s, tab, p, w, worth, keep):
    """Fills keep[:ntypes + 1] with the hand_value of every kind of card in hand (index ntypes:
    the consumer item), 0 elsewhere, and returns it."""
    ntypes = tab[R, R_NTYPES]
    for c in range(ntypes + 1):
        keep[c] = 0.0
    m = s.hand_mask[p]
    while m:
        cid = lowest_bit(m)
        m &= m - 1
        keep[ntypes if cid == CONS else cid] = hand_value(s, tab, p, cid, w, worth)
    return keep


@njit(cache=True, _nrt=False)
def discard_cost(s, tab, p, k, keep):
    """What discarding k cards costs: the k lowest keep values in hand (``keep_values``)."""
    if k <= 0:
        return 0.0
    # the kinds of card by (keep value, index): all copies of one kind, then the next
    total = 0.0
    ntypes = tab[R, R_NTYPES]
    last_v = -1e300
    last = -1
    left = k
    while left > 0:
        best = -1
        best_v = 1e18
        m = s.hand_mask[p]  # CONS, the highest bit, comes last as index ntypes does
        while m:
            cid = lowest_bit(m)
            m &= m - 1
            c = ntypes if cid == CONS else cid
            v = keep[c]
            if (v > last_v or (v == last_v and c > last)) and v < best_v:
                best_v = v
                best = c
        if best < 0:
            break
        for _ in range(min(left, s.hand[p, CONS if best == ntypes else best])):
            total += best_v
            left -= 1
        last_v = best_v
        last = best
    return total


@njit(cache=True, _nrt=False)
def rough_discard_cost(s, tab, p, k, w):
    """discard_cost without looking at the buildings in hand (items first, then plain cards)."""
    items = s.hand[p, CONS]
    from_items = min(items, k)
    v = ITEM_KEEP * (from_items * w[P_ITEM] + (k - from_items) * w[P_CARD])
    return v if rounds_left(s, tab) > 0 else LAST_ROUND_SHARE * v


@njit(cache=True, _nrt=False)
def vp_value(s, tab, p, k, w):
    """k VP tokens: their points, and what they unlock in cost rules and bonuses held."""
    t = s.vp[p]
    rl = rounds_left(s, tab)
    exact = vp_points(tab, t + k) - vp_points(tab, t)
    avg = k * tab[R, R_VP_POINTS] / tab[R, R_VP_SET]
    v = exact if rl == 0 else 0.5 * exact + 0.5 * avg
    if count_end_kind(s, tab, p, END_DOUBLE_VP, rl > 0):
        v *= 2.0
    extra = 0.0
    m = kinds_held(s, p, True)
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[END_KIND, b] == END_MIN_VP and (s.bld[p, b] or (rl > 0 and s.hand[p, b])):
            need = tab[END_A, b]
            if t < need:
                extra += tab[END_B, b] * (0.9 if t + k >= need else k / (need - t + 2.0))
        if rl > 0 and tab[CR_KIND, b] == CR_IF_VP and s.hand[p, b]:
            need = tab[CR_A, b]
            if t < need:
                extra += 1.5 * tab[CR_B, b] * (1.0 if t + k >= need else k / (need - t + 1.0))
    return w[P_VP] * (v + extra)


@njit(cache=True, _nrt=False)
def hire_value(s, tab, p, k, ready, w):
    """k workers now: their actions in the rounds left against their wages, and this payday."""
    if k <= 0:
        return -1e6
    if s.round > w[P_HIRE_UNTIL] or s.workers[p] + k > w[P_MAX_WORKERS]:
        return -20.0
    rl = rounds_left(s, tab)
    v = k * (rl + (1 if ready else 0)) * w[P_ACTION] - k * wages_from_now(tab, s.round)
    if s.workers[p] <= tab[R, R_START_WORKERS]:
        v += w[P_HIRE_BIAS]
    short = wage_at(tab, s.round) * (s.workers[p] + k) - s.money[p]
    if short > 0:  # a worker whose wages cannot be met costs 3 points per $
        cover = sellable_value(s, tab, p) if s.n > 1 else 0
        v -= tab[R, R_UNPAID_PENALTY] * max(0, short - cover) + 0.5 * min(short, cover) + 5.0
    if rl > 0:  # and the next payday should not need a sale either
        short2 = short + wage_at(tab, s.round + 1) * (s.workers[p] + k)
        if short2 > 0:
            v -= w[P_HIRE_SAFE] * short2
    return v


@njit(cache=True, _nrt=False)
def basic_gain(s, tab, p, card, w):
    """What using workplace ``card`` now brings, in points: what core.workplace_yield says it
    gives, priced; a construction at a flat value."""
    money, cards, items, later, vp, workers, ready, discard, lead, build = \
        workplace_yield(s, tab, p, card, False)
    e = tab[EFFECT, card]
    cw = w[P_CARD]
    iw = w[P_ITEM]
    if build:
        return w[P_BUILD] + 4.0
    if workers > 0:
        return hire_value(s, tab, p, workers, ready == 1, w)
    trade = tab[EB, card]
    if e == E_FARM_VILLAGE and s.hand[p, CONS] >= trade:  # the better of its two modes
        return max(cards_value(s, tab, p, items, iw),
                   cards_value(s, tab, p, tab[EC, card] - trade, cw) + trade * (cw - iw))
    if discard > 0 and cards > 0:  # cards drawn against the cheapest cards given up
        v = cards_value(s, tab, p, cards - discard, cw) + discard * (0.3 * cw + 1.0)
    else:
        v = money_value(s, tab, p, money, w) + cards_value(s, tab, p, cards, cw) \
            + cards_value(s, tab, p, items, iw)
    if later > 0:
        v += later * LATER_ITEM * iw
    if e == E_DESIGN_OFFICE:
        v += REVEAL_CHOICE
    if vp > 0:
        v += vp_value(s, tab, p, vp, w)
    if lead and s.n > 1:
        v += START
    if discard > 0:
        v -= rough_discard_cost(s, tab, p, discard, w)
    return v


@njit(cache=True, _nrt=False)
def building_use(s, tab, p, b, w):
    """What owning workplace ``b`` brings per later round, beyond a Mine placement."""
    if not tab[WORKABLE, b]:
        return 0.0
    return max(0.0, basic_gain(s, tab, p, b, w) - cards_value(s, tab, p, tab[EA, MINE], w[P_CARD]))


@njit(cache=True, _nrt=False)
def build_worth(s, tab, p, b, w, worth):
    """Points from owning ``b`` built now, before the cards paid for it."""
    rl = rounds_left(s, tab)
    now = est = 0.0
    others = 0.0  # what b adds to the bonuses of buildings owned (none: no need to count)
    owned = owns_bonus_building(s, tab, p)
    if tab[END_KIND, b] or owned:
        counts = icon_counts(s, tab, p, b)
        now, est = own_bonus(s, tab, p, b, counts)
        if owned:
            others = bonus_sum(s, tab, p, b, counts) - owned_bonus(s, tab, p, worth) - now
    v = tab[ASSET, b] + w[P_BONUS] * (others + max(now, est))
    if tab[WORKABLE, b] and rl > 0:
        v += w[P_UTIL] * min(rl, 4) * building_use(s, tab, p, b, w)
    if tab[ONBUILD, b] == ONBUILD_DOLL:  # an extra unit that draws no wages, from this round on
        v += w[P_DOLL] * w[P_ACTION] * (rl + 0.5)
    return v


@njit(cache=True, _nrt=False)
def build_value(s, tab, p, b, cost, w, worth):
    """Points from constructing ``b`` for ``cost`` discards. ``worth`` (WORTH_SIZE long, NaN
    until known) holds each card's build_worth and, at NT, the bonus of the buildings owned: a
    placement asks for the same card's building from its keep value and from every construction
    workplace, and that was most of its time."""
    if np.isnan(worth[b]):
        worth[b] = build_worth(s, tab, p, b, w, worth)
    v = worth[b]
    items = s.hand[p, CONS]
    from_items = min(items, cost)
    v -= w[P_SPEND] * (from_items * ITEM_KEEP * w[P_ITEM] + (cost - from_items) * ITEM_KEEP * w[P_CARD])
    return v


@njit(cache=True, _nrt=False)
def hand_value(s, tab, p, c, w, worth):
    """Keep value of card ``c`` in hand, in points: items lowest unless a bonus or workplace
    wants them, a building card by what building it would make; little in the last round."""
    rl = rounds_left(s, tab)
    if c == CONS:
        v = ITEM_KEEP * w[P_ITEM]
        if count_end_kind(s, tab, p, END_PER_ITEM, False) or count_end_kind(s, tab, p, END_MIN_ITEMS, False):
            v += 4.0
        if rl > 0 and owns_effect(s, tab, p, E_FARM_RESORT):
            v += 1.5
        return v if rl > 0 else LAST_ROUND_SHARE * v
    cost = current_cost(s, tab, p, c)
    built = max(0.0, build_value(s, tab, p, c, cost, w, worth))
    v = 0.1 + ITEM_KEEP * w[P_CARD] + KEEP_BUILD * built / (cost + 1.0)
    return v if rl > 0 else LAST_ROUND_SHARE * v


@njit(cache=True, _nrt=False)
def best_construction(s, tab, p, wp, w, worth):
    """Value of the best construction workplace ``wp`` allows from the hand now."""
    pair = terms_pair(tab, wp)
    hand = s.hand[p]
    best = -1e9
    held = s.hand_mask[p] & BUILDING_KINDS
    ma = held
    while ma:
        a = lowest_bit(ma)
        ma &= ma - 1
        if not terms_allow(tab, wp, a):
            continue
        if not pair:
            if construct_payable(s, tab, p, wp, a, -1):
                cost = construct_cost(s, tab, p, wp, a, -1)
                best = max(best, build_value(s, tab, p, a, cost, w, worth))
            continue
        mb = held & ~((np.int64(1) << a) - 1)  # a itself and the kinds after it
        while mb:
            b = lowest_bit(mb)
            mb &= mb - 1
            if not terms_allow(tab, wp, b) or (a == b and hand[a] < 2):
                continue
            if construct_payable(s, tab, p, wp, a, b):
                cost = construct_cost(s, tab, p, wp, a, b)
                pair_v = build_value(s, tab, p, a, cost, w, worth) + build_value(s, tab, p, b, 0, w, worth)
                best = max(best, pair_v)
    return best


@njit(cache=True, _nrt=False)
def place_gain(s, tab, p, v, w, keep, worth):
    """What placing on option v brings, in points (``keep``: the hand's keep_values)."""
    card = option_card(s, v)
    e = tab[EFFECT, card]
    if e != E_CONSTRUCT:
        val = basic_gain(s, tab, p, card, w)
        if e == E_DISCARD_MONEY or e == E_DISCARD_DRAW:  # the cards it would really cost
            k = tab[EA, card]
            val += rough_discard_cost(s, tab, p, k, w) - discard_cost(s, tab, p, k, keep)
    else:
        terms = tab[EA, card]
        then = tab[EB, card]  # what the terms give after the build (core.construct)
        val = w[P_BUILD] + best_construction(s, tab, p, card, w, worth)
        if terms == C_CONTRACTOR or terms == C_BUILDING_CO:
            val += cards_value(s, tab, p, then, w[P_CARD])
        elif terms == C_TEMPLE:
            val += vp_value(s, tab, p, then, w)
        elif terms == C_COLONY:
            val += cards_value(s, tab, p, then, w[P_ITEM])
        elif terms == C_SKYSCRAPER or terms == C_WORLDWIDE:
            val += 1.0
    if s.n == 1 and v >= OWN and units_left(s, p) > 1:
        val -= 1.0  # solo: own buildings are never blocked, so use the public row first
    return val


@njit(cache=True, _nrt=False)
def option_value(kind, s, tab, p, v, wp, w, keep, worth):
    """The one-ply value of option ``v`` of a placement, build, keep or discard (``keep``: the
    hand's keep_values, filled for a placement; ``wp``: the construction workplace of a build)."""
    if kind == K_PLACE:
        return place_gain(s, tab, p, v, w, keep, worth)
    if kind == K_BUILD:
        a, b = build_cards(v)
        val = build_value(s, tab, p, a, construct_cost(s, tab, p, wp, a, b), w, worth)
        if b >= 0:
            val += build_value(s, tab, p, b, 0, w, worth)
        return val
    if kind == K_KEEP:
        return hand_value(s, tab, p, v, w, worth)
    if kind == K_DISCARD:
        return -hand_value(s, tab, p, v, w, worth)
    return 0.0


@njit(cache=True, _nrt=False)
def cheapest_legal_sale(s, tab, opts, n, short, keep):
    """A legal sale (RULES-NOTES §12) losing the least keep value; exhaustive up to 14 buildings,
    greedy beyond, always legal (no building can be dropped and still cover the shortfall)."""
    if n <= 14:
        best_mask = (1 << n) - 1
        best = 1e18
        for mask in range(1, 1 << n):
            total = 0
            cheapest = 1 << 40
            lost = 0.0
            for i in range(n):
                if (mask >> i) & 1:
                    price = sale_price(s, tab, opts[i])
                    total += price
                    cheapest = min(cheapest, price)
                    lost += keep[i]
            if total >= short and total - cheapest < short and lost < best:
                best = lost
                best_mask = mask
        return best_mask
    mask = 0
    total = 0
    while total < short:
        pick = -1
        for i in range(n):
            if not (mask >> i) & 1 and (pick < 0 or keep[i] < keep[pick]):
                pick = i
        if pick < 0:
            break
        mask |= 1 << pick
        total += sale_price(s, tab, opts[pick])
    return without_spare(s, tab, opts, n, mask, total, short)


@njit(cache=True, _nrt=False)
def sale_loss(s, tab, p, opts, n, w, keep):
    """Fills keep[:n] with the points lost by selling each building offered (value over the
    price, use, bonuses) and returns it."""
    base = bonus_total(s, tab, p, -1, -1)
    rl = rounds_left(s, tab)
    for i in range(n):
        b = opts[i]
        keep[i] = tab[ASSET, b] - sale_price(s, tab, b) + 0.01 * sale_price(s, tab, b)
        if rl > 0:
            keep[i] += w[P_UTIL] * min(rl, 3) * building_use(s, tab, p, b, w)
        keep[i] += base - bonus_total(s, tab, p, -1, b)
    return keep
