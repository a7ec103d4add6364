"""The rules kernel: the reference engine's rules as ``@njit`` code over the arrays of tables.py.

Every function mirrors one of ``nesim/reference/engine.py`` or an effect of
``nesim/reference/effects``, under the same name where it can, and asks the same decisions in the
same order with the same options, so that a kernel game's decision log replays in the reference
engine. ``st`` is an array of STATE records: ``s = st[0]`` is the game, ``st[1]`` the scratch
copy that lookahead playouts run on, ``st[2]`` the checkpoint they start from. ``buf`` is a
scratch array: row 0 the options of the decision being asked, row 1 scratch for can-use checks
and revealed cards, row 2 the decision's context; the rows after them are the lookahead's.

Decisions go to the strategy function of the seat (``fns[seat]``, signature STRATEGY_SIG), except
when only one option is legal: that one is taken without a call, and logged all the same.

The lookahead (nesim/kernel/search.py) is not here: the rules call it at a few named places only,
each written ``search.<entry point>`` (answer, action_phase, run_actions, play_game), and never
read its record (``s.search``) themselves.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros

from nesim.kernel.tables import (AGRI, ASSET, CARPENTER, CONS, COPIES, COST, CR_A, CR_B, CR_IF_AGRI,
                                 CR_IF_VP, CR_KIND, CR_PER_IND, C_BUILDING_CO, C_COLONY,
                                 C_CONTRACTOR, C_DISCOUNT, C_DOUBLE_CITY, C_MODERN, C_PREFAB,
                                 C_SETTLER, C_SKYSCRAPER, C_TEMPLE, C_TRANSPORTER, C_WORLDWIDE, EA,
                                 EB, EC, EFFECT, END_A, END_AGRI_AND_IND, END_AGRI_VALUE, END_B,
                                 END_DOUBLE_VP, END_EMPTY_HAND, END_FORGIVE, END_IND_VALUE,
                                 END_KIND, END_MIN_AGRI, END_MIN_BUILDINGS, END_MIN_IND,
                                 END_MIN_ITEMS, END_MIN_LOCK, END_MIN_VP, END_MIN_WORKERS,
                                 END_ONLY_LOCK, END_PER_BUILDING, END_PER_IND, END_PER_ITEM,
                                 END_PER_LOCK, END_PER_NO_SALE, END_PER_WORKER, ERR_BAD_CHOICE, ERR_BAD_SALE,
                                 ERR_LOG_FULL, ERR_OVERFLOW, E_BREWERY, E_BURNT_FIELD, E_CAFE,
                                 E_CHEMICAL, E_CHICKEN, E_CONSTRUCT, E_DESIGN_OFFICE,
                                 E_DISCARD_DRAW, E_DISCARD_MONEY, E_DRAW, E_DRAW_VP, E_FARM_RESORT,
                                 E_FARM_VILLAGE, E_FILL_HAND, E_FISH_FARM, E_HIRE_UPTO,
                                 E_IRONWORK, E_ITEMS_VP, E_LOTTERY, E_MINE, E_MONEY,
                                 E_MUSEUM_GLORY, E_QUARRY, E_RELICS_WP, E_SCHOOL, E_TAKE_ITEMS,
                                 E_TECH_COLLEGE, IND, LOCK, LOGMAX, MAXBUILDS, MAXDECK, MAXOPTS,
                                 MAXP, MAXPUB, MINE, NEED, NT, ONBUILD,
                                 ONBUILD_DOLL,
                                 ONBUILD_VP, ORIG_INITIAL, ORIG_ROUND, ORIG_SOLD, ORIG_SOLO, QUARRY,
                                 R, RELICS_WP, R_CARPENTERS, R_GLORY, R_HAND_LIMIT,
                                 R_ID_BURNT_FIELD, R_ID_COMPANY_HOUSE, R_ID_WAREHOUSE,
                                 R_MAX_WORKERS, R_NTYPES, R_ROUND_CARD, R_ROUNDS, R_SOLO_A,
                                 R_SOLO_B, R_SOLO_DIV, R_SOLO_MONEY, R_SOLO_TARGET,
                                 R_START_HAND, R_START_MONEY, R_START_WORKERS, R_UNPAID_PENALTY,
                                 R_VP_POINTS, R_VP_SET, R_WAGES, R_WAREHOUSE_BONUS, SCHOOL,
                                 SELLABLE, SHARED, STATE_T, WORKABLE)

# decision kinds, as logged (SELL_CARD entries follow a SELL entry, one per building sold).
# In a log that records options (LOG_OPTIONS) every decision is preceded by its options, one
# OPTION entry each; a sale's by its shortfall (SALE_SHORT) and the buildings it may sell.
K_PLACE, K_BUILD, K_DISCARD, K_KEEP, K_MODE, K_SELL, K_SELL_CARD, K_OPTION, K_SALE_SHORT = range(9)
LOG_NONE, LOG_DECISIONS, LOG_OPTIONS = range(3)  # what play_batch's log_mode asks for
# purposes of a discard (ctx[0])
P_COST, P_EFFECT, P_HAND_LIMIT = range(3)
# ctx layout (CTX_PLAYOUTS, CTX_CANDIDATES and CTX_NEST are written by a strategy that answers
# LOOKAHEAD; it may also set CTX_PRIOR to 1 and write each candidate's prior, in thousandths of a
# point, from CTX_PRIOR_AT on)
(CTX_PURPOSE, CTX_REMAINING, CTX_WORKPLACE, CTX_SHORT, CTX_PLAYOUTS, CTX_CANDIDATES,
 CTX_NEST, CTX_PRIOR, CTX_PRIOR_AT) = range(9)
# An answer that asks the kernel to choose by playouts: each candidate is played to the end of the
# game about ctx[CTX_PLAYOUTS] times (see nesim/kernel/search.py)
LOOKAHEAD = -2
OWN = MAXPUB  # PLACE value of an own building b is OWN + b
PAIR = NT  # BUILD value of a pair (a, b) is PAIR + a * NT + b

STRATEGY_SIG = types.int64(types.int64, types.int64, types.Array(types.int64, 1, "C"), types.int64,
                           types.Array(types.int64, 1, "C"), types.Array(STATE_T, 1, "C"),
                           types.Array(types.int64, 2, "C"), types.Array(types.float64, 1, "C"))
STRATEGY_T = types.FunctionType(STRATEGY_SIG)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)


# ---------------------------------------------------------------------------- random numbers

@njit(cache=True, inline="always", _nrt=False)
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * M1
    z = (z ^ (z >> np.uint64(27))) * M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def rng_below(s, n):
    """The game generator's next number in [0, n): SplitMix64, exactly as nesim.rng."""
    s.rng = s.rng + GOLDEN
    return np.int64(mix64(s.rng) % np.uint64(n))


@njit(cache=True, _nrt=False)
def strategy_below(s, seat, n):
    """A number in [0, n) from the seat's own generator, for strategies.

    Multiply-shift of the top 32 bits instead of a 64-bit modulo: strategies draw on nearly every
    decision, and the bias (below n / 2**32) is far under any sampling error.
    """
    s.srng[seat] = s.srng[seat] + GOLDEN
    return np.int64(((mix64(s.srng[seat]) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, _nrt=False)
def shuffle_deck(s, n):
    for i in range(n - 1, 0, -1):
        j = rng_below(s, i + 1)
        t = s.deck[i]
        s.deck[i] = s.deck[j]
        s.deck[j] = t


# ---------------------------------------------------------------------------- small queries

@njit(cache=True, inline="always", _nrt=False)
def lowest_bit(mask):
    """The index of the lowest set bit of a non-zero mask."""
    return trailing_zeros(mask)


@njit(cache=True, inline="always", _nrt=False)
def units_left(s, p):
    if s.stuck[p]:
        return 0
    return s.workers[p] - s.training[p] + s.dolls[p] - s.placed[p]


@njit(cache=True, inline="always", _nrt=False)
def worker_cap(s, tab, p):
    ch = tab[R, R_ID_COMPANY_HOUSE]
    return tab[R, R_MAX_WORKERS] + (s.bld[p, ch] if ch >= 0 else 0)


@njit(cache=True, inline="always", _nrt=False)
def hand_limit(s, tab, p):
    wh = tab[R, R_ID_WAREHOUSE]
    return tab[R, R_HAND_LIMIT] + (tab[R, R_WAREHOUSE_BONUS] * s.bld[p, wh] if wh >= 0 else 0)


@njit(cache=True, _nrt=False)
def count_icon(s, tab, p, row):
    bld = s.bld[p]
    n = 0
    m = s.bld_mask[p]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[row, b]:
            n += bld[b]
    return n


@njit(cache=True, _nrt=False)
def sale_price(s, tab, b):
    if s.n == 1:
        return tab[ASSET, b] // tab[R, R_SOLO_DIV]
    return tab[ASSET, b]


# ---------------------------------------------------------------------------- moving cards and money

@njit(cache=True, inline="always", _nrt=False)
def add_to_hand(s, p, c, k):
    s.hand[p, c] += k
    s.hand_n[p] += k
    if s.hand[p, c] > 0:
        s.hand_mask[p] |= np.int64(1) << c
    else:  # Farm Village hands two consumer items back: k < 0
        s.hand_mask[p] &= ~(np.int64(1) << c)


@njit(cache=True, inline="always", _nrt=False)
def remove_from_hand(s, p, c):
    s.hand[p, c] -= 1
    s.hand_n[p] -= 1
    if s.hand[p, c] == 0:
        s.hand_mask[p] &= ~(np.int64(1) << c)


@njit(cache=True, inline="always", _nrt=False)
def add_building(s, p, b, k):
    s.bld[p, b] += k
    s.bld_n[p] += k
    s.bld_mask[p] |= np.int64(1) << b


@njit(cache=True, inline="always", _nrt=False)
def remove_buildings(s, p, b, k):
    s.bld[p, b] -= k
    s.bld_n[p] -= k
    if s.bld[p, b] == 0:
        s.bld_mask[p] &= ~(np.int64(1) << b)


@njit(cache=True, inline="always", _nrt=False)
def put_in_discard(s, c):
    if c != CONS:  # consumer items go back to the unlimited supply
        s.discard[c] += 1


@njit(cache=True, _nrt=False)
def draw_one(s, tab):
    """The top card, reshuffling the discard pile laid out in type order; a consumer item if none."""
    if s.deck_n == 0:
        k = 0
        for b in range(tab[R, R_NTYPES]):
            for _ in range(s.discard[b]):
                s.deck[k] = b
                k += 1
            s.discard[b] = 0
        s.deck_n = k
        shuffle_deck(s, k)
    if s.deck_n == 0:
        return CONS
    s.deck_n -= 1
    return s.deck[s.deck_n]


@njit(cache=True, _nrt=False)
def draw(s, tab, p, k):
    for _ in range(k):
        add_to_hand(s, p, draw_one(s, tab), 1)


@njit(cache=True, inline="always", _nrt=False)
def take_money(s, p, amount):
    s.budget -= amount
    s.money[p] += amount


@njit(cache=True, _nrt=False)
def hire(s, p, k, ready):
    s.workers[p] += k
    if not ready:
        s.training[p] += k


# ---------------------------------------------------------------------------- asking

@njit(cache=True, _nrt=False)
def log_entry(s, log, kind, seat, value):
    if log.shape[0] == 0:
        return
    if s.n_log >= log.shape[0]:
        s.error |= ERR_LOG_FULL
        return
    log[s.n_log] = (kind << 24) | (seat << 20) | value
    s.n_log += 1


@njit(cache=True, _nrt=False)
def answer(st, tab, fns, params, buf, kind, p, n):
    """The raw answer to a decision (an index into buf[0][:n], a bit mask for K_SELL): the one
    the search dictates while it replays a turn (search.forced_answer), else the seat's
    strategy's. A decision with a single option is not put to the strategy but still counted, so
    replays stay in step."""
    s = st[0]
    a = search.forced_answer(s, tab, kind, p, n)
    if a != search.NO_ANSWER:
        return a
    a = 0
    if kind == K_SELL or n > 1:
        buf[2][CTX_PRIOR] = 0
        a = fns[p](kind, p, buf[0], n, buf[2], st, tab, params[p])
    if a == LOOKAHEAD:
        a = search.unplanned_lookahead(st, tab, fns, params, buf, kind, p, n)
    search.record_answer(s, kind, p, n, a)
    return a


@njit(cache=True, _nrt=False)
def ask(st, tab, fns, params, log, buf, kind, p, n):
    """The option the seat picks among buf[0][:n] (the only one, without asking)."""
    s = st[0]
    if s.log_opts:
        for j in range(n):
            log_entry(s, log, K_OPTION, p, buf[0][j])
    i = answer(st, tab, fns, params, buf, kind, p, n)
    if i < 0 or i >= n:
        s.error |= ERR_BAD_CHOICE
        i = 0
    v = buf[0][i]
    log_entry(s, log, kind, p, v)
    return v


@njit(cache=True, _nrt=False)
def discard_options(s, tab, p, out):
    """Every kind of card in hand, building types in type order, then the consumer item (CONS is
    the highest bit)."""
    m = s.hand_mask[p]
    k = 0
    while m:
        out[k] = lowest_bit(m)
        k += 1
        m &= m - 1
    return k


@njit(cache=True, _nrt=False)
def discard_from_hand(st, tab, fns, params, log, buf, p, k, purpose, workplace):
    s = st[0]
    for i in range(k):
        n = discard_options(s, tab, p, buf[0])
        buf[2, CTX_PURPOSE] = purpose
        buf[2, CTX_REMAINING] = k - i
        buf[2, CTX_WORKPLACE] = workplace
        c = ask(st, tab, fns, params, log, buf, K_DISCARD, p, n)
        remove_from_hand(s, p, c)
        put_in_discard(s, c)


# ---------------------------------------------------------------------------- construction

@njit(cache=True, _nrt=False)
def current_cost(s, tab, p, b):
    cost = tab[COST, b]
    kind = tab[CR_KIND, b]
    if kind == CR_IF_AGRI:
        if count_icon(s, tab, p, AGRI) > 0:
            cost -= tab[CR_A, b]
    elif kind == CR_PER_IND:
        cost -= tab[CR_A, b] * count_icon(s, tab, p, IND)
    elif kind == CR_IF_VP:
        if s.vp[p] >= tab[CR_A, b]:
            cost -= tab[CR_B, b]
    return max(0, cost)


@njit(cache=True, inline="always", _nrt=False)
def terms_free(terms):
    return terms == C_SETTLER or terms == C_PREFAB or terms == C_TRANSPORTER


@njit(cache=True, inline="always", _nrt=False)
def terms_pair(tab, wp):
    """Whether construction workplace ``wp`` builds two buildings at once."""
    terms = tab[EA, wp]
    return terms == C_DOUBLE_CITY or terms == C_WORLDWIDE


@njit(cache=True, inline="always", _nrt=False)
def terms_worth(tab, wp):
    """What a consumer item counts for in a payment at construction workplace ``wp``."""
    return 2 if tab[EA, wp] == C_MODERN else 1


@njit(cache=True, _nrt=False)
def terms_allow(tab, wp, b):
    terms = tab[EA, wp]
    if terms == C_SETTLER:
        return tab[AGRI, b] == 1
    if terms == C_BUILDING_CO:
        return tab[LOCK, b] == 1
    if terms == C_PREFAB:
        return tab[ASSET, b] <= tab[EB, wp]
    return True


@njit(cache=True, _nrt=False)
def construct_cost(s, tab, p, wp, a, b):
    terms = tab[EA, wp]
    ca = current_cost(s, tab, p, a)
    cb = current_cost(s, tab, p, b) if b >= 0 else 0
    if terms_free(terms):
        return 0
    if terms == C_DOUBLE_CITY:
        return ca
    discount = tab[EB, wp] if terms == C_DISCOUNT else 0
    return max(0, ca + cb - discount)


@njit(cache=True, _nrt=False)
def payable_exact(need, buildings, items):
    lo = max(0, -((buildings - need) // 2))  # ceil((need - buildings) / 2)
    hi = min(items, need // 2)
    return lo <= hi


@njit(cache=True, _nrt=False)
def items_only_payable(need, items):
    return need <= 0 or items * 2 >= need


@njit(cache=True, _nrt=False)
def ma_payable(cost, buildings, items):
    return cost == 0 or payable_exact(cost, buildings, items) or items_only_payable(cost, items)


@njit(cache=True, _nrt=False)
def payment_step_ok(remaining, is_item, used_building, buildings_left, items_left):
    if is_item:
        if remaining == 1:
            return not used_building
        return payable_exact(remaining - 2, buildings_left, items_left) or (
            not used_building and items_only_payable(remaining - 2, items_left))
    return payable_exact(remaining - 1, buildings_left, items_left)


@njit(cache=True, _nrt=False)
def construct_payable(s, tab, p, wp, a, b):
    terms = tab[EA, wp]
    if terms == C_DOUBLE_CITY and current_cost(s, tab, p, a) != current_cost(s, tab, p, b):
        return False
    cost = construct_cost(s, tab, p, wp, a, b)
    items = s.hand[p, CONS]
    building_cards = s.hand_n[p] - items - (2 if b >= 0 else 1)
    if terms == C_MODERN:
        return ma_payable(cost, building_cards, items)
    return building_cards + items >= cost


@njit(cache=True, _nrt=False)
def build_options(s, tab, p, wp, out):
    """Buildings (or pairs, as PAIR + a * NT + b) in hand that workplace ``wp`` can build now."""
    ntypes = tab[R, R_NTYPES]
    pair = terms_pair(tab, wp)
    hand = s.hand[p]
    k = 0
    for a in range(ntypes):
        if hand[a] == 0 or not terms_allow(tab, wp, a):
            continue
        if not pair:
            if construct_payable(s, tab, p, wp, a, -1):
                out[k] = a
                k += 1
            continue
        for b in range(a, ntypes):
            if hand[b] == 0 or not terms_allow(tab, wp, b):
                continue
            if (a != b or hand[a] >= 2) and construct_payable(s, tab, p, wp, a, b):
                out[k] = PAIR + a * NT + b
                k += 1
    return k


@njit(cache=True, _nrt=False)
def can_build(s, tab, p, wp):
    """Whether build_options would offer anything (stops at the first option)."""
    ntypes = tab[R, R_NTYPES]
    pair = terms_pair(tab, wp)
    hand = s.hand[p]
    m = s.hand_mask[p] & ~(np.int64(1) << CONS)
    while m:
        a = lowest_bit(m)
        m &= m - 1
        if not terms_allow(tab, wp, a):
            continue
        if not pair:
            if construct_payable(s, tab, p, wp, a, -1):
                return True
            continue
        for b in range(a, ntypes):
            if hand[b] and terms_allow(tab, wp, b) and (a != b or hand[a] >= 2) \
                    and construct_payable(s, tab, p, wp, a, b):
                return True
    return False


@njit(cache=True, _nrt=False)
def place_building(s, tab, p, b):
    add_building(s, p, b, 1)
    i = s.n_builds[p]
    if i < MAXBUILDS:
        s.build_card[p, i] = b
        s.build_round[p, i] = s.round
        s.n_builds[p] = i + 1
    else:
        s.error |= ERR_OVERFLOW
    if tab[ONBUILD, b] == ONBUILD_VP:
        s.vp[p] += tab[EA, b]
    elif tab[ONBUILD, b] == ONBUILD_DOLL:
        s.dolls[p] += tab[EA, b]


@njit(cache=True, _nrt=False)
def pay_cost(st, tab, fns, params, log, buf, p, cost, worth):
    s = st[0]
    paid = 0
    used_building = False
    while paid < cost:
        n = discard_options(s, tab, p, buf[0])
        if worth == 2:
            items = s.hand[p, CONS]
            blds = s.hand_n[p] - items
            k = 0
            for i in range(n):
                c = buf[0, i]
                is_item = c == CONS
                if payment_step_ok(cost - paid, is_item, used_building, blds - (0 if is_item else 1),
                                   items - (1 if is_item else 0)):
                    buf[0, k] = c
                    k += 1
            n = k
        buf[2, CTX_PURPOSE] = P_COST
        buf[2, CTX_REMAINING] = cost - paid
        c = ask(st, tab, fns, params, log, buf, K_DISCARD, p, n)
        remove_from_hand(s, p, c)
        put_in_discard(s, c)
        if c == CONS:
            paid += worth
        else:
            paid += 1
            used_building = True


@njit(cache=True, inline="always", _nrt=False)
def build_cards(v):
    """The card (a, b) a BUILD value names: a pair from PAIR up, else (v, -1)."""
    if v >= PAIR:
        return (v - PAIR) // NT, (v - PAIR) % NT
    return v, -1


@njit(cache=True, _nrt=False)
def construct(st, tab, fns, params, log, buf, p, wp):
    s = st[0]
    n = build_options(s, tab, p, wp, buf[0])
    buf[2, CTX_WORKPLACE] = wp
    v = ask(st, tab, fns, params, log, buf, K_BUILD, p, n)
    a, b = build_cards(v)
    cost = construct_cost(s, tab, p, wp, a, b)  # every cost is read before anything is placed
    remove_from_hand(s, p, a)
    if b >= 0:
        remove_from_hand(s, p, b)
    pay_cost(st, tab, fns, params, log, buf, p, cost, terms_worth(tab, wp))
    place_building(s, tab, p, a)
    if b >= 0:
        place_building(s, tab, p, b)
    # the follow-ups of "construct, then ..." workplaces
    terms = tab[EA, wp]
    k = tab[EB, wp]
    if terms == C_CONTRACTOR or terms == C_BUILDING_CO:
        draw(s, tab, p, k)
    elif terms == C_TEMPLE:
        s.vp[p] += k
    elif terms == C_COLONY:
        add_to_hand(s, p, CONS, k)
    elif terms == C_SKYSCRAPER or terms == C_WORLDWIDE:
        if s.hand_n[p] == 0:
            draw(s, tab, p, k)


# ---------------------------------------------------------------------------- workplaces

@njit(cache=True, inline="always", _nrt=False)
def cafe_income(s, tab, p, card, placed):
    """The higher sum when this placement leaves no unit to place this round (§16.4)."""
    left = units_left(s, p) - (0 if placed else 1)
    return tab[EB, card] if left == 0 else tab[EA, card]


@njit(cache=True, inline="always", _nrt=False)
def hand_size_income(s, tab, p, card):
    return tab[EB, card] if s.hand_n[p] == tab[EA, card] else tab[EC, card]


@njit(cache=True, inline="always", _nrt=False)
def is_money_effect(e):
    """Effects that take money from the Budget."""
    return e == E_DISCARD_MONEY or e == E_MONEY or e == E_LOTTERY or e == E_CAFE \
        or e == E_MUSEUM_GLORY or e == E_FARM_RESORT


@njit(cache=True, _nrt=False)
def workplace_yield(s, tab, p, card, placed):
    """What using workplace ``card`` gives player p now, from its effect row: (money taken from
    the Budget, buildings drawn, consumer items taken, items that join the hand next round, VP
    tokens, workers hired, 1 if they can be placed this round, cards discarded first, 1 if p
    becomes start player, 1 if it constructs). ``placed``: whether p's unit already stands on it.
    Choices (a construction, Farm Village's mode, Design Office's pick) are left to their own
    functions; use_effect applies the rest, and strategies price it."""
    e = tab[EFFECT, card]
    a = tab[EA, card]
    b = tab[EB, card]
    money = cards = items = later = vp = workers = ready = discard = lead = build = 0
    if e == E_QUARRY:
        cards = a
        lead = 1
    elif e == E_MINE or e == E_DRAW or e == E_IRONWORK:
        cards = a
    elif e == E_SCHOOL or e == E_TECH_COLLEGE:
        workers = min(a, worker_cap(s, tab, p) - s.workers[p])
        ready = 1 if e == E_TECH_COLLEGE else 0
    elif e == E_HIRE_UPTO:
        workers = min(a, worker_cap(s, tab, p)) - s.workers[p]
    elif e == E_RELICS_WP or e == E_ITEMS_VP:
        items = a
        vp = b
    elif e == E_DISCARD_MONEY:
        discard = a
        money = b
    elif e == E_TAKE_ITEMS or e == E_BURNT_FIELD:
        items = a
    elif e == E_DESIGN_OFFICE:
        cards = 1  # one of the cards revealed
    elif e == E_MONEY:
        money = a
    elif e == E_DISCARD_DRAW:
        discard = a
        cards = b
    elif e == E_FILL_HAND:
        items = a - s.hand_n[p]
    elif e == E_CHEMICAL:
        cards = a if s.hand_n[p] > 0 else b
    elif e == E_LOTTERY:
        money = a - b  # take a, return b
    elif e == E_FISH_FARM:
        items = b if s.hand[p, CONS] > 0 else a
    elif e == E_FARM_RESORT:
        money = a * s.hand[p, CONS]
    elif e == E_DRAW_VP:
        cards = a
        vp = b
    elif e == E_BREWERY:
        later = a
    elif e == E_FARM_VILLAGE:
        items = a  # the mode that is always open
    elif e == E_CHICKEN:
        items = a if s.hand_n[p] % 2 == 0 else b
    elif e == E_CAFE:
        money = cafe_income(s, tab, p, card, placed)
    elif e == E_MUSEUM_GLORY:
        money = hand_size_income(s, tab, p, card)
    elif e == E_CONSTRUCT:
        build = 1
    return money, cards, items, later, vp, workers, ready, discard, lead, build


@njit(cache=True, inline="always", _nrt=False)
def can_use(s, tab, p, card, tmp):
    """Whether every part of the card's effect can be carried out now (RULES-NOTES §4)."""
    e = tab[EFFECT, card]
    a = tab[EA, card]
    if e == E_SCHOOL or e == E_TECH_COLLEGE:
        return s.workers[p] < worker_cap(s, tab, p)
    if e == E_DISCARD_MONEY:
        return s.hand_n[p] >= a and s.budget >= tab[EB, card]
    if e == E_HIRE_UPTO:
        return s.workers[p] < min(a, worker_cap(s, tab, p))
    if e == E_MONEY or e == E_LOTTERY:  # the Lottery needs what it takes before it returns some
        return s.budget >= a
    if e == E_DISCARD_DRAW:
        return s.hand_n[p] >= a
    if e == E_FILL_HAND:
        return s.hand_n[p] < a
    if e == E_IRONWORK:
        return s.on_mine[p] == 1
    if e == E_FARM_RESORT:  # with no consumer item it pays $0: usable (RULES-NOTES §16.12)
        return s.budget >= a * s.hand[p, CONS]
    if e == E_CAFE:
        return s.budget >= cafe_income(s, tab, p, card, False)
    if e == E_MUSEUM_GLORY:
        return s.budget >= hand_size_income(s, tab, p, card)
    if e == E_CONSTRUCT:
        return can_build(s, tab, p, card)
    # every other workplace can always be used (Brewery in the last round too: its items are laid
    # on the card and never reach a hand, RULES-NOTES §16.11); E_NONE (lock) never
    return e != 0


@njit(cache=True, _nrt=False)
def use_effect(st, tab, fns, params, log, buf, p, card):
    s = st[0]
    e = tab[EFFECT, card]
    if e == E_CONSTRUCT:
        construct(st, tab, fns, params, log, buf, p, card)
        return
    if e == E_DESIGN_OFFICE:
        design_office(st, tab, fns, params, log, buf, p, tab[EA, card])
        return
    if e == E_FARM_VILLAGE:
        farm_village(st, tab, fns, params, log, buf, p, card)
        return
    money, cards, items, later, vp, workers, ready, discard, lead, _ = workplace_yield(s, tab, p, card, True)
    if discard > 0:
        discard_from_hand(st, tab, fns, params, log, buf, p, discard, P_EFFECT, card)
    if money > 0:
        take_money(s, p, money)
    if cards > 0:
        draw(s, tab, p, cards)
    if items > 0:
        add_to_hand(s, p, CONS, items)
    s.vp[p] += vp
    s.brewery[p] += later
    if workers > 0:
        hire(s, p, workers, ready == 1)
    if lead:
        s.start_player = p
    if e == E_BURNT_FIELD:
        s.burnt[p] += 1


@njit(cache=True, _nrt=False)
def farm_village(st, tab, fns, params, log, buf, p, card):
    """Take EA consumer items, or (with EB items in hand) hand EB back and draw EC buildings."""
    s = st[0]
    buf[0, 0] = 0
    buf[0, 1] = 1
    buf[2, CTX_WORKPLACE] = card
    trade = tab[EB, card]
    mode = ask(st, tab, fns, params, log, buf, K_MODE, p, 2 if s.hand[p, CONS] >= trade else 1)
    if mode == 0:
        add_to_hand(s, p, CONS, tab[EA, card])
    else:
        add_to_hand(s, p, CONS, -trade)
        draw(s, tab, p, tab[EC, card])


@njit(cache=True, _nrt=False)
def design_office(st, tab, fns, params, log, buf, p, shown):
    """Reveal ``shown`` cards (drawn like any draw), keep 1, discard the rest."""
    s = st[0]
    revealed = buf[1]
    for i in range(shown):
        revealed[i] = draw_one(s, tab)
    k = 0
    for b in range(tab[R, R_NTYPES]):
        for i in range(shown):
            if revealed[i] == b:
                buf[0, k] = b
                k += 1
                break
    for i in range(shown):
        if revealed[i] == CONS:
            buf[0, k] = CONS
            k += 1
            break
    kept = ask(st, tab, fns, params, log, buf, K_KEEP, p, k)
    add_to_hand(s, p, kept, 1)
    dropped = False
    for i in range(shown):
        if revealed[i] == kept and not dropped:
            dropped = True
        else:
            put_in_discard(s, revealed[i])


# ---------------------------------------------------------------------------- the action phase

@njit(cache=True, inline="always", _nrt=False)
def public_open(s, tab, i):
    if s.pub_side[i]:
        return False
    c = s.pub_card[i]
    shared = tab[SHARED, c]  # from this many players on, any number of units (common.csv)
    if shared and s.n >= shared:
        return True
    return s.pub_plc[i] == 0


@njit(cache=True, _nrt=False)
def placement_options(s, tab, p, out, tmp):
    """Legal placements: open public cards in row order (one per key except in solo), own buildings.

    Copies of a card share one can-use answer, so each card id is judged once (bit masks over
    card ids, which are below 64).
    """
    units = units_left(s, p)
    pub_card = s.pub_card
    judged = 0
    usable = 0
    k = 0
    multi = s.n > 1
    for i in range(s.pub_n):
        c = pub_card[i]
        bit = np.int64(1) << c
        if multi and judged & bit:
            continue  # another copy was offered already, or copies are not usable
        if not public_open(s, tab, i):
            continue
        if judged & bit:
            if not usable & bit:
                continue
        else:
            judged |= bit
            if units >= tab[NEED, c] and can_use(s, tab, p, c, tmp):
                usable |= bit
            else:
                continue
        out[k] = i
        k += 1
    bld = s.bld[p]
    used = s.used[p]
    m = s.bld_mask[p]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        owned = bld[b]
        if owned and tab[WORKABLE, b] and used[b] < owned and units >= tab[NEED, b] \
                and can_use(s, tab, p, b, tmp):
            out[k] = OWN + b
            k += 1
    return k


@njit(cache=True, inline="always", _nrt=False)
def option_card(s, v):
    """The card a PLACE value names: a public slot below OWN, an own building type from OWN up."""
    return s.pub_card[v] if v < OWN else v - OWN


@njit(cache=True, _nrt=False)
def block_newest(s):
    """Solo: turns the newest public card with no unit on it sideways; returns its slot (-1: none)."""
    for i in range(s.pub_n - 1, -1, -1):
        if s.pub_plc[i] == 0 and not s.pub_side[i]:
            s.pub_side[i] = 1
            return i
    return -1


@njit(cache=True, _nrt=False)
def place(st, tab, fns, params, log, buf, p, v):
    s = st[0]
    card = option_card(s, v)
    if v < OWN:
        s.pub_plc[v] += 1
        if card == MINE:
            s.on_mine[p] = 1
    else:
        s.used[p, card] += 1
    s.placed[p] += tab[NEED, card]
    use_effect(st, tab, fns, params, log, buf, p, card)


@njit(cache=True, inline="always", _nrt=False)
def next_to_place(s, seat):
    """The first seat from ``seat`` on, in turn order, with a unit left; -1 when none has."""
    for k in range(s.n):
        q = (seat + k) % s.n
        if units_left(s, q) > 0:
            return q
    return -1


@njit(cache=True, _nrt=False)
def take_turn(st, tab, fns, params, log, buf, seat, v):
    """Seat's placement v played; in solo every unit placed then blocks once, so a 2-worker
    placement blocks twice, both after its effect (RULES-NOTES §15)."""
    s = st[0]
    units = tab[NEED, option_card(s, v)]
    place(st, tab, fns, params, log, buf, seat, v)
    if s.n == 1:
        for _ in range(units):
            block_newest(s)


@njit(cache=True, _nrt=False)
def action_phase(st, tab, fns, params, log, buf):
    """The game's action phase: each turn is planned first (search.plan_turn), then played."""
    s = st[0]
    seat = next_to_place(s, s.start_player)
    while seat >= 0:
        n = placement_options(s, tab, seat, buf[0], buf[1])
        if n == 0:
            s.stuck[seat] = 1
        else:
            if n > 1:
                search.plan_turn(st, tab, fns, params, log, buf, seat, n)
            v = ask(st, tab, fns, params, log, buf, K_PLACE, seat, n)
            take_turn(st, tab, fns, params, log, buf, seat, v)
            search.answers_played(s)
        seat = next_to_place(s, (seat + 1) % s.n)


@njit(cache=True, _nrt=False)
def run_actions(st, tab, fns, params, log, buf, seat):
    """The action phase from ``seat`` on, unplanned: what playouts and probes play (until a probe
    halts: search.forced_answer)."""
    s = st[0]
    seat = next_to_place(s, seat)
    while seat >= 0 and not search.halted(s):
        n = placement_options(s, tab, seat, buf[0], buf[1])
        if n == 0:
            s.stuck[seat] = 1
        else:
            v = ask(st, tab, fns, params, log, buf, K_PLACE, seat, n)
            take_turn(st, tab, fns, params, log, buf, seat, v)
        seat = next_to_place(s, (seat + 1) % s.n)



# ---------------------------------------------------------------------------- payday

@njit(cache=True, _nrt=False)
def sale_is_legal(s, tab, opts, n, mask, short):
    total = 0
    cheapest = 1 << 40
    for i in range(n):
        if (mask >> i) & 1:
            price = sale_price(s, tab, opts[i])
            total += price
            cheapest = min(cheapest, price)
    return total >= short and total - cheapest < short


@njit(cache=True, _nrt=False)
def cheapest_sufficient_sale(s, tab, opts, n, short):
    """A legal sale chosen by the kernel itself when a strategy's choice was not legal."""
    best_mask = (1 << n) - 1
    best = 1 << 40
    for mask in range(1, 1 << min(n, 16)):
        if sale_is_legal(s, tab, opts, n, mask, short):
            total = 0
            for i in range(n):
                if (mask >> i) & 1:
                    total += sale_price(s, tab, opts[i])
            if total < best:
                best = total
                best_mask = mask
    return best_mask


@njit(cache=True, _nrt=False)
def pay_wages(st, tab, fns, params, log, buf, p, owed):
    s = st[0]
    s.sold_value[p] = 0
    if s.money[p] < owed:
        short = owed - s.money[p]
        opts = buf[0]
        n = 0
        total = 0
        for b in range(tab[R, R_NTYPES]):
            if tab[SELLABLE, b]:
                for _ in range(s.bld[p, b]):
                    if n < 62:
                        opts[n] = b
                        n += 1
                        total += sale_price(s, tab, b)
        if n > 0:
            if s.log_opts:
                log_entry(s, log, K_SALE_SHORT, p, min(short, 0xFFFFF))
                for i in range(n):
                    log_entry(s, log, K_OPTION, p, opts[i])
            mask = (1 << n) - 1
            if total >= short:
                buf[2, CTX_SHORT] = short
                mask = answer(st, tab, fns, params, buf, K_SELL, p, n)
                if not sale_is_legal(s, tab, opts, n, mask, short):
                    s.error |= ERR_BAD_SALE
                    mask = cheapest_sufficient_sale(s, tab, opts, n, short)
            k = 0
            for i in range(n):
                k += (mask >> i) & 1
            log_entry(s, log, K_SELL, p, k)
            for i in range(n):
                if (mask >> i) & 1:
                    b = opts[i]
                    log_entry(s, log, K_SELL_CARD, p, b)
                    price = sale_price(s, tab, b)
                    remove_buildings(s, p, b, 1)
                    s.money[p] += price
                    s.sold_value[p] += price
                    s.sales_total += price
                    append_public(s, b, ORIG_SOLD)
    paid = min(s.money[p], owed)
    s.money[p] -= paid
    s.budget += paid
    s.wages_paid[p] = paid
    s.unpaid[p] += owed - paid


@njit(cache=True, _nrt=False)
def payday(st, tab, fns, params, log, buf):
    s = st[0]
    for i in range(s.pub_n):
        s.pub_plc[i] = 0
        s.pub_side[i] = 0
    for p in range(s.n):
        s.placed[p] = 0
        s.training[p] = 0
        s.stuck[p] = 0
        s.on_mine[p] = 0
        s.used[p, :] = 0
    for j in range(s.n):
        p = (s.start_player + j) % s.n
        excess = s.hand_n[p] - hand_limit(s, tab, p)
        if excess > 0:
            discard_from_hand(st, tab, fns, params, log, buf, p, excess, P_HAND_LIMIT, -1)
    wage = tab[R, R_WAGES + s.round - 1]
    for j in range(s.n):
        p = (s.start_player + j) % s.n
        pay_wages(st, tab, fns, params, log, buf, p, wage * s.workers[p])
    bf = tab[R, R_ID_BURNT_FIELD]
    for p in range(s.n):
        if s.burnt[p]:
            remove_buildings(s, p, bf, s.burnt[p])
            s.discard[bf] += s.burnt[p]
            s.burnt[p] = 0


# ---------------------------------------------------------------------------- setup and scoring

@njit(cache=True, _nrt=False)
def append_public(s, card, origin):
    if s.pub_n >= MAXPUB:
        s.error |= ERR_OVERFLOW
        return
    s.pub_card[s.pub_n] = card
    s.pub_origin[s.pub_n] = origin
    s.pub_plc[s.pub_n] = 0
    s.pub_side[s.pub_n] = 0
    s.pub_n += 1


@njit(cache=True, _nrt=False)
def clear_state(s):
    s.deck[:] = 0
    s.discard[:] = 0
    s.hand[:, :] = 0
    s.bld[:, :] = 0
    s.used[:, :] = 0
    for p in range(MAXP):
        s.hand_n[p] = s.bld_n[p] = s.money[p] = s.workers[p] = s.training[p] = 0
        s.dolls[p] = s.placed[p] = s.stuck[p] = s.vp[p] = s.unpaid[p] = s.on_mine[p] = 0
        s.burnt[p] = s.brewery[p] = s.wages_paid[p] = s.sold_value[p] = s.n_builds[p] = 0
        s.hand_mask[p] = s.bld_mask[p] = 0
        s.srng[p] = np.uint64(0)
    s.pub_n = 0
    s.deck_n = 0
    s.budget = 0
    s.sales_total = 0
    s.start_player = 0
    s.round = 0
    s.error = 0
    s.n_log = 0


@njit(cache=True, _nrt=False)
def setup(s, tab, n, seed):
    clear_state(s)
    s.n = n
    s.rng = seed
    for p in range(n):
        s.srng[p] = mix64(seed ^ (GOLDEN * np.uint64(p + 1)))
    solo_a = tab[R, R_SOLO_A]
    solo_b = tab[R, R_SOLO_B]
    k = 0
    for b in range(tab[R, R_NTYPES]):
        copies = tab[COPIES, b]
        if n == 1:
            copies -= (b == solo_a) + (b == solo_b)
        for _ in range(copies):
            if k < MAXDECK:
                s.deck[k] = b
                k += 1
            else:
                s.error |= ERR_OVERFLOW
    s.deck_n = k
    shuffle_deck(s, k)
    for p in range(n):
        s.money[p] = tab[R, R_SOLO_MONEY] if n == 1 else tab[R, R_START_MONEY + p]
        s.workers[p] = tab[R, R_START_WORKERS]
        for _ in range(tab[R, R_START_HAND]):
            s.deck_n -= 1
            add_to_hand(s, p, s.deck[s.deck_n], 1)
    carpenters = tab[R, R_CARPENTERS + n - 1]
    if n == 1:
        s.deck[s.deck_n] = solo_b
        s.deck_n += 1
        append_public(s, MINE, ORIG_INITIAL)
        for _ in range(carpenters):
            append_public(s, CARPENTER, ORIG_INITIAL)
        append_public(s, SCHOOL, ORIG_INITIAL)
        append_public(s, solo_a, ORIG_SOLO)
        s.deck_start_n = s.deck_n
    else:
        append_public(s, QUARRY, ORIG_INITIAL)
        append_public(s, MINE, ORIG_INITIAL)
        append_public(s, SCHOOL, ORIG_INITIAL)
        for _ in range(carpenters):
            append_public(s, CARPENTER, ORIG_INITIAL)
        if tab[R, R_GLORY]:
            append_public(s, RELICS_WP, ORIG_INITIAL)


@njit(cache=True, inline="always", _nrt=False)
def known_on_top(s):
    """How many top cards of the deck every player knows: in solo the set-aside card B, laid on
    top at setup, until the first draw; none otherwise."""
    return 1 if s.n == 1 and s.deck_n == s.deck_start_n else 0


@njit(cache=True, _nrt=False)
def start_round(s, tab):
    card = tab[R, R_ROUND_CARD + s.round - 1]
    if card >= 0:
        append_public(s, card, ORIG_ROUND)
    for p in range(s.n):
        if s.brewery[p]:
            add_to_hand(s, p, CONS, s.brewery[p])
            s.brewery[p] = 0


# fields of a player's result row
(F_SCORE, F_BUILDING, F_BONUS, F_MONEY, F_VP_TOKENS, F_VP_POINTS, F_UNPAID, F_PENALTY, F_RANK,
 F_WORKERS, F_BUILDINGS, F_CLEARED, F_DOLLS, F_HAND) = range(14)
NPF = 14
# fields of a player's per-round row
(RF_MONEY, RF_HOUSEHOLD, RF_WORKERS, RF_HAND, RF_BUILDINGS, RF_WAGES, RF_UNPAID, RF_SOLD) = range(8)
NRF = 8


@njit(cache=True, _nrt=False)
def bonus(kind, a, b, nb, agri, ind, lock, agri_v, ind_v, nosale, hand, items, workers, vp):
    if kind == END_PER_BUILDING:
        return a * nb
    if kind == END_PER_ITEM:
        return a * items
    if kind == END_PER_WORKER:
        return a * workers
    if kind == END_PER_LOCK:
        return a * lock
    if kind == END_PER_NO_SALE:
        return a * nosale
    if kind == END_PER_IND:
        return a * ind
    if kind == END_EMPTY_HAND:
        return a if hand == 0 else 0
    if kind == END_AGRI_AND_IND:
        return a if agri > 0 and ind > 0 else 0
    if kind == END_ONLY_LOCK:
        return a if lock == 1 else 0
    value = -1
    if kind == END_MIN_BUILDINGS:
        value = nb
    elif kind == END_MIN_AGRI:
        value = agri
    elif kind == END_MIN_IND:
        value = ind
    elif kind == END_MIN_LOCK:
        value = lock
    elif kind == END_MIN_VP:
        value = vp
    elif kind == END_MIN_WORKERS:
        value = workers
    elif kind == END_MIN_ITEMS:
        value = items
    elif kind == END_AGRI_VALUE:
        value = agri_v
    elif kind == END_IND_VALUE:
        value = ind_v
    if value >= 0:
        return b if value >= a else 0
    return 0  # double_vp and forgive_unpaid change other parts of the score


@njit(cache=True, inline="always", _nrt=False)
def owned_with(s, p, extra):
    """Bit mask of the kinds of building seat p owns, with ``extra`` added (-1: none)."""
    return s.bld_mask[p] | (np.int64(1) << extra if extra >= 0 else np.int64(0))


@njit(cache=True, _nrt=False)
def icon_counts(s, tab, p, extra):
    """Seat p's (buildings, agriculture, industry, lock, agriculture value, industry value,
    no-sale), the counts the end-game bonuses read, with one more building ``extra`` (-1: none).
    No-sale counts the buildings that cannot be sold: the lock cards and Burnt Field."""
    nb = s.bld_n[p] + (1 if extra >= 0 else 0)
    agri = ind = lock = agri_v = ind_v = nosale = 0
    m = owned_with(s, p, extra)
    while m:  # the kinds owned (and extra) only: strategies ask this for every building they weigh
        b = lowest_bit(m)
        m &= m - 1
        k = s.bld[p, b] + (1 if b == extra else 0)
        if k:
            if tab[AGRI, b]:
                agri += k
                agri_v += k * tab[ASSET, b]
            if tab[IND, b]:
                ind += k
                ind_v += k * tab[ASSET, b]
            if tab[LOCK, b]:
                lock += k
            if not tab[SELLABLE, b]:
                nosale += k
    return nb, agri, ind, lock, agri_v, ind_v, nosale


@njit(cache=True, _nrt=False)
def score(s, tab, p, out):
    ntypes = tab[R, R_NTYPES]
    nb, agri, ind, lock, agri_v, ind_v, nosale = icon_counts(s, tab, p, -1)
    building_points = 0
    for b in range(ntypes):
        building_points += s.bld[p, b] * tab[ASSET, b]
    bonus_points = 0
    doubled = False
    forgiven = 0
    hand = s.hand_n[p]
    items = s.hand[p, CONS]
    for b in range(ntypes):
        k = s.bld[p, b]
        kind = tab[END_KIND, b]
        if k and kind:
            bonus_points += k * bonus(kind, tab[END_A, b], tab[END_B, b], nb, agri, ind, lock, agri_v,
                                      ind_v, nosale, hand, items, s.workers[p], s.vp[p])
            if kind == END_DOUBLE_VP:
                doubled = True
            elif kind == END_FORGIVE:
                forgiven += k * tab[END_A, b]
    t = s.vp[p]
    vp_points = tab[R, R_VP_POINTS] * (t // tab[R, R_VP_SET]) + t % tab[R, R_VP_SET]
    if doubled:
        vp_points *= 2
    unpaid = max(0, s.unpaid[p] - forgiven)
    penalty = tab[R, R_UNPAID_PENALTY] * unpaid
    out[F_SCORE] = building_points + bonus_points + s.money[p] + vp_points - penalty
    out[F_BUILDING] = building_points
    out[F_BONUS] = bonus_points
    out[F_MONEY] = s.money[p]
    out[F_VP_TOKENS] = t
    out[F_VP_POINTS] = vp_points
    out[F_UNPAID] = unpaid
    out[F_PENALTY] = penalty
    out[F_WORKERS] = s.workers[p]
    out[F_BUILDINGS] = nb
    out[F_DOLLS] = s.dolls[p]
    out[F_HAND] = hand
    out[F_CLEARED] = (1 if out[F_SCORE] >= tab[R, R_SOLO_TARGET] else 0) if s.n == 1 else -1


@njit(cache=True, _nrt=False)
def rank_players(s, res):
    """Rank 1 = winner: higher score first, ties to the seat nearest the start player."""
    n = s.n
    winner = 0
    for p in range(n):
        r = 1
        dp = (p - s.start_player) % n
        for q in range(n):
            if q != p:
                dq = (q - s.start_player) % n
                if res[q, F_SCORE] > res[p, F_SCORE] or (res[q, F_SCORE] == res[p, F_SCORE] and dq < dp):
                    r += 1
        res[p, F_RANK] = r
        if r == 1:
            winner = p
    return winner


@njit(cache=True, _nrt=False)
def play_game(st, tab, fns, params, log, buf, seed, n, res, rounds_out):
    """One whole game; fills res[p, F_*] and rounds_out[round, p, RF_*]; returns the winner."""
    s = st[0]
    setup(s, tab, n, seed)
    search.new_game(s)
    for rnd in range(1, tab[R, R_ROUNDS] + 1):
        s.round = rnd
        start_round(s, tab)
        action_phase(st, tab, fns, params, log, buf)
        search.plan_payday(st, tab, fns, params, log, buf)
        payday(st, tab, fns, params, log, buf)
        search.answers_played(s)
        for p in range(n):
            row = rounds_out[rnd - 1, p]
            row[RF_MONEY] = s.money[p]
            row[RF_HOUSEHOLD] = s.budget
            row[RF_WORKERS] = s.workers[p]
            row[RF_HAND] = s.hand_n[p]
            row[RF_BUILDINGS] = s.bld_n[p]
            row[RF_WAGES] = s.wages_paid[p]
            row[RF_UNPAID] = s.unpaid[p]
            row[RF_SOLD] = s.sold_value[p]
    for p in range(n):
        score(s, tab, p, res[p])
    return rank_players(s, res)


@njit(cache=True, _nrt=False)
def play_batch(seeds, n, tab, fns, params, st, buf, log_mode, players_out, rounds_out, games_out,
               builds_card, builds_round, logs):
    """Plays len(seeds) games of n players. Every output array has the games on its first axis.

    games_out[g] = (winner seat, rounds played, Budget at the end, error flags, log length).
    ``log_mode`` (LOG_*) says whether logs[g] gets the game's decisions, and their options.
    """
    for g in range(seeds.shape[0]):
        log = logs[g] if log_mode != LOG_NONE else logs[0, :0]
        st[0].log_opts = 1 if log_mode == LOG_OPTIONS else 0
        winner = play_game(st, tab, fns, params, log, buf, seeds[g], n, players_out[g], rounds_out[g])
        s = st[0]
        games_out[g, 0] = winner
        games_out[g, 1] = tab[R, R_ROUNDS]
        games_out[g, 2] = s.budget
        games_out[g, 3] = s.error
        games_out[g, 4] = s.n_log
        for p in range(n):
            for i in range(s.n_builds[p]):
                builds_card[g, p, i] = s.build_card[p, i]
                builds_round[g, p, i] = s.build_round[p, i]


# Late: the search builds on the rules above (it plays them to weigh its candidates), and the
# rules call it only through the entry points named ``search.<name>`` in this file. Numba reads
# the module's functions when it compiles, after both modules are loaded.
from nesim.kernel import search  # noqa: E402
