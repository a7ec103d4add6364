"""strong: a one-ply evaluation of every option, in points, with tunable weights.

Each placement is scored by what its workplace would bring now: the best building it could
construct (asset value, the end-game bonus expected for it and what it adds to bonus cards already
owned, its use as a workplace in the rounds left, less the cards discarded for it), money against
the coming wages (a $ that keeps an Unpaid Wage card away is worth more than a point), cards and
consumer items by how much room the payday hand limit leaves, VP tokens by the set they complete
and the cost rules and bonuses they unlock, and workers by the actions left in the game against
the wages still to pay. Safety rules on top: never hire a worker whose wages this payday cannot be
met, stop hiring late, hire at once while only the two starting workers are out, and in the last
round value cards only for what they can still build (so they become money). A Mechanical Doll
is worth, on top, the wage-free action it adds in each round left (``doll``: Glory solo +4.6 ±
1.6 points over 200 games, 2-player Glory against greedy unchanged at 0.77). Discards drop the
card worth least in hand (consumer items first unless a bonus or workplace wants them); sales
lose the least in points and in use.

Solo (``s.n == 1``) is played with the weights scaled by ``SOLO_SCALE`` (no money comes into a
solo game, so cards, actions and VP tokens matter more than in a race against opponents), and each
placement is chosen by the kernel's lookahead (``solo_playouts`` playouts per candidate, each
played to the end of the game by this strategy's one-ply choices, best mean final score wins,
a quarter of the unpaid wages a playout adds forgiven (nesim/kernel/core.py, playout_value);
see strategies/README.md), and so is every build, discard and Design Office pick with two or more
options (``solo_sub_playouts`` per candidate). Each playout plays with its own weights, every
continuous weight scaled by a factor drawn in [1 - ``solo_jitter``, 1 + ``solo_jitter``] from the
playout's seed: a move must then be good against a spread of continuations, not against one
fixed policy's habits (over 900 Progress games, 0.3 gave 5 points and 7 percentage points of
clear rate more than 0; Mecenat +3 points over 300; Glory unchanged; 0.5 was worse). The budget
of 64 and 32 playouts is where Glory stops gaining (200 games on the same seeds, against 16 and 8:
Progress +12.0 ± 2.2 points, Mecenat about +14, Glory +10.6 ± 1.5; 128 placement playouts added
nothing in Glory), at about four times the time. With ``solo_playouts=0`` it is chosen by a short
plan over the round's remaining placements instead: after every placement the newest free card
of the row is blocked, so taking the newest valuable card first can keep a second one open.
``solo_nest`` (off by default) makes every playout of that search a nested search of its own
over this strategy's decisions in the next ``solo_nest`` rounds (see strategies/README.md,
nested playouts): a candidate is valued by the best line a searching player finds in each
sampled future, not by where the one-ply policy drifts. The candidates share their futures by
sequential halving, so the finalists get most of them. Glory solo with
``solo_nest=3,solo_sub_playouts=8,solo_jitter=0``, against the default on the same seeds:

- ``solo_playouts=32``, seeds 0-99: 100.2 points, 49% clear (default 69.8, 8%); seeds 100-299:
  99.5, 47.5% (default 73.3, 8.5%; experiments/results/strong-nest-halving-solo-5ed6614);
- ``solo_playouts=16``, seeds 0-99: 96.3, 45%; seeds 100-299: 98.0, 44.5% (default 73.3, 8.5%);
- ``solo_playouts=32`` and ``solo_sub_playouts=16`` in place of 8, seeds 100-399: 103.2, 51.3%
  (experiments/results/strong-nest-sub16-solo-5ed6614), +2.9 ± 1.3 over 8 on seeds 100-299; 64
  placement futures added nothing over 32;
- ``solo_playouts=32`` and ``solo_sub_playouts=32``, seeds 100-899: 102.7, 51.5% (Wilson
  48.0-54.9%; experiments/results/strong-nest-sub32-solo-5ed6614; default 72.2 on the same
  seeds), +1.4 ± 0.8 over 16 on seeds 100-399, at about 1.2 times its time.

The setting with ``solo_sub_playouts=16`` scores 153.4 and clears 94% in Progress, 192.1 and 92% in
Mecenat (50 games each, seeds 100-149, where the default has 112.0 and 60%, 137.4 and 54%). In
Glory a game took about 10 s with two processes at 16 placement futures, 15 at 32 with 8 or 16 a
build, 19 at 32 with 32, the default 0.45; the one with 16 about 35 s a Progress game and 25 s a
Mecenat one. The same moves now take about 1/1.7 of those times (32 with 32: 10-13 s a Glory
game). Before the halving, 8 futures per candidate gave +10.4 ± 2.0 points in Glory (200
games), +16.8 ± 3.5 in Progress and +18.2 ± 3.8 in Mecenat (100 games each). ``solo_nest=9``, the
whole game, was as good in Glory over 60 games and slower still; nesting over two rounds, in
rounds 1-4 only or 5-9 only, or trying only the three options strong values most at each nested
decision, was cheaper and lost 7 to 24 points (experiments/results/strong-glory-solo.md). None of
this is the default: at twenty to forty times the time, strong's 10,000-game figures would take
more than a day of two cores for each game to measure again.
Two- to four-player play is unchanged by any of this.

In solo, ``decide`` adds to every one-ply value a correction learned from searched games, where
the game has them: per card and round for placements, builds and hand values, and for placements
per card and number of the seat's position (``learned_state``), in thousandths of a point in the
rows below the card table (from ``LEARNED_ROW``). They come from ``strong_learned/<game>.csv``,
cards named by key, which :func:`table_rows` reads and the runner seats below the table
(nesim/registry.py, game_table); ``learned`` scales them (0: off). Only Glory has such a file,
fitted (nesim/learn.py, `nesim learn`) to the choices of the nested search above (``solo_nest=3``,
8 futures) in 450 Glory games it played with the corrections of the round before, themselves
fitted to 600 games of the nested search playing with corrections learned from strong's own flat
search. On seeds 0-999 strong scores 98.5 points and clears 44.1% with them, 96.4 and 41.6% with
the round before's, 80.7 and 17.9% with those learned from its own search (whose games take
0.36-0.41 of the time: 345-393 s per 1000 on two processes, against 965 s); without any
corrections it scores 71.9 and clears 9.6% of 10,000 Glory solo games
(experiments/results/learned-corrections-glory, strong-glory-solo.md). Two- to four-player games
never read them.

Where it has corrections, strong's search also takes them as priors: ``solo_prior`` of each
placement's corrected one-ply value and ``solo_sub_prior`` of each build's, discard's and keep's,
counted from the best option's, are added to the candidates' mean playout values
(core.best_candidate, ``ctx[CTX_PRIOR]``). The playouts see the corrections only through where
they drift after a move; the prior brings the nested search's judgement of the move itself into
the pick. Glory solo, seeds 0-9999: 109.2 points and 59.2% clear (Wilson 58.2-60.1%); on seeds
0-2999 +9.7 ± 0.5 points and +13.5 ± 0.9 points of clear rate over the same corrections without
priors, paired by seed, in about the same time (experiments/results/strong-prior-glory-67ca006,
strong-solo-67ca006). Without corrections the one-ply value is the playouts' own policy and a
prior only counts it twice (Progress, 200 games: -4.0 ± 2.0 points), so a game without a
corrections file gets none.

Every card is read through the table (effect id, END_KIND/END_A/END_B, ASSET, cost rules, icons),
never by its key, so variants with changed cards play sensibly. The evaluator is self-contained
here so that it does not depend on the weights and helpers other strategies share.
"""

import csv
from pathlib import Path

import numpy as np
from numba import njit

from nesim.cards import GameData
from nesim.errors import NesimError
from nesim.kernel.api import STRATEGY_SIG, in_playout, playout_luck, without_spare
from nesim.kernel.core import (CTX_CANDIDATES, CTX_NEST, CTX_PLAYOUTS, CTX_PRIOR, CTX_PRIOR_AT,
                               CTX_SHORT, CTX_WORKPLACE, GOLDEN, K_BUILD, K_DISCARD, K_KEEP, K_MODE,
                               K_PLACE, K_SELL, LOOKAHEAD, OWN, block_newest, bonus,
                               build_cards, construct_cost, construct_payable, current_cost,
                               hand_limit, icon_counts, lowest_bit, mix64, option_card, owned_with,
                               public_open, sale_price, terms_allow, terms_pair, units_left,
                               workplace_yield)
from nesim.kernel.tables import (ASSET, CONS, CR_A, CR_B, CR_IF_VP, CR_KIND, C_BUILDING_CO,
                                 C_COLONY, C_CONTRACTOR, C_SKYSCRAPER, C_TEMPLE, C_WORLDWIDE, EA,
                                 EB, EC, EFFECT, END_A, END_AGRI_AND_IND, END_AGRI_VALUE, END_B,
                                 END_DOUBLE_VP, END_EMPTY_HAND, END_FORGIVE, END_IND_VALUE,
                                 END_KIND, END_MIN_AGRI, END_MIN_BUILDINGS, END_MIN_IND,
                                 END_MIN_ITEMS, END_MIN_LOCK, END_MIN_VP, END_MIN_WORKERS,
                                 END_ONLY_LOCK, END_PER_BUILDING, END_PER_IND, END_PER_ITEM,
                                 END_PER_LOCK, END_PER_NO_SALE, END_PER_WORKER, E_CONSTRUCT,
                                 E_DESIGN_OFFICE, E_DISCARD_DRAW, E_DISCARD_MONEY, E_FARM_RESORT,
                                 E_FARM_VILLAGE, MINE, NCOLS, NEED, NROWS, NT, ONBUILD, ONBUILD_DOLL,
                                 R, R_NTYPES, R_ROUNDS, R_START_WORKERS, R_UNPAID_PENALTY,
                                 R_VP_POINTS, R_VP_SET, R_WAGES, SELLABLE, WORKABLE, card_ids)

NAME = "strong"
DESCRIPTION = ("One-ply evaluation of every option in points, with wage and hiring safety rules; in solo,"
               " each placement chosen by playouts to the end of the game.")
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
}
(P_RESERVE, P_BUILD, P_CARD, P_ITEM, P_ACTION, P_HIRE_UNTIL, P_HIRE_BIAS, P_VP, P_BONUS, P_URGENT,
 P_UTIL, P_SPEND, P_HIRE_SAFE, P_MAX_WORKERS, P_DOLL, P_SOLO_PLAYOUTS, P_SOLO_SUB,
 P_SOLO_JITTER, P_SOLO_NEST, P_LEARNED, P_SOLO_PRIOR, P_SOLO_SUB_PRIOR, P_SEARCH,
 P_SEARCH_SUB) = range(24)
ITEM_KEEP = 0.6  # keep value of a card in hand, as a share of a new one
KEEP_BUILD = 0.4  # share of the building a card would make, in its keep value
LIMIT_WASTE = 0.85  # share of a card's value lost when it goes over the hand limit
START = 0.5  # the start player marker
LATER_ITEM = 0.9  # share of an item's value when it joins the hand only next round (Brewery)
REVEAL_CHOICE = 1.5  # the pick among the cards revealed (Design Office), beyond one card drawn
# solo: the weights above scaled for a game with no opponents and no money coming in (tuned by
# coordinate descent on solo games of all three games): cards, later actions and VP tokens are
# worth more (a third worker in round 1 pays off), while the urgency of the coming wages and a
# workplace's later use count for less (money taken from the Budget only moves the shortfall to
# a later payday, and the blocking rule leaves few placements to spare for own buildings).
# Cards paid for a construction weigh 0.7 of their keep value: the searched solo game turns
# cards into buildings more readily (200 games on the same seeds against 1.0: Progress +13.5 ±
# 2.3 points, Mecenat +3.2 ± 2.5, Glory +3.9 ± 2.0 over 120; 0.5 lost in Mecenat)
SOLO_SCALE = np.array([1.0, 1.0, 1.5, 1.0, 1.5, 1.0, 1.0, 1.5, 1.0, 0.5, 0.5, 0.7, 1.0, 1.0])
PLAN_DEPTH = 3  # solo: placements planned ahead within the round (blocking makes order matter)
PLAN_TIE = 0.15  # solo: share of a placement's own gain that puts the best step of a plan first


# ---------------------------------------------------------------------------- small queries

@njit(cache=True, _nrt=False)
def rounds_left(s, tab):
    return tab[R, R_ROUNDS] - s.round


@njit(cache=True, _nrt=False)
def wage_at(tab, rnd):
    return tab[R, R_WAGES + rnd - 1]


@njit(cache=True, _nrt=False)
def wages_from_now(tab, rnd):
    total = 0
    for r in range(rnd, tab[R, R_ROUNDS] + 1):
        total += wage_at(tab, r)
    return total


# The loops below visit only the kinds of building a player owns or holds, by the state's bit
# masks (lowest bit first, so in the order of a loop over every kind): the policy answers every
# decision of every playout, and most kinds are in no one's hand.
BUILDING_KINDS = ~(np.int64(1) << CONS)


@njit(cache=True, inline="always", _nrt=False)
def kinds_held(s, p, in_hand):
    """Bit mask of the kinds of building player p owns (and, with ``in_hand``, holds)."""
    return s.bld_mask[p] | (s.hand_mask[p] & BUILDING_KINDS if in_hand else 0)


@njit(cache=True, _nrt=False)
def sellable_value(s, tab, p):
    total = 0
    m = s.bld_mask[p]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[SELLABLE, b]:
            total += s.bld[p, b] * sale_price(s, tab, b)
    return total


@njit(cache=True, _nrt=False)
def vp_points(tab, t):
    return tab[R, R_VP_POINTS] * (t // tab[R, R_VP_SET]) + t % tab[R, R_VP_SET]


@njit(cache=True, _nrt=False)
def owns_effect(s, tab, p, effect):
    m = s.bld_mask[p]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[EFFECT, b] == effect:
            return True
    return False


@njit(cache=True, _nrt=False)
def owns_bonus_building(s, tab, p):
    m = s.bld_mask[p]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[END_KIND, b]:
            return True
    return False


@njit(cache=True, _nrt=False)
def count_end_kind(s, tab, p, kind, in_hand):
    k = 0
    m = kinds_held(s, p, in_hand)
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if tab[END_KIND, b] == kind:
            k += s.bld[p, b] + (s.hand[p, b] if in_hand else 0)
    return k


@njit(cache=True, _nrt=False)
def bonus_total(s, tab, p, extra, removed):
    """The exact end-game bonus of the buildings owned now, with building ``extra`` added and one
    copy of ``removed`` taken away (-1: none)."""
    if removed >= 0:
        s.bld[p, removed] -= 1
        s.bld_n[p] -= 1
    total = bonus_sum(s, tab, p, extra, icon_counts(s, tab, p, extra))
    if removed >= 0:
        s.bld[p, removed] += 1
        s.bld_n[p] += 1
    return total


@njit(cache=True, _nrt=False)
def bonus_sum(s, tab, p, extra, counts):
    """The end-game bonus of the buildings owned now and ``extra`` (-1: none), on ``counts``
    (icon_counts with ``extra``), for a caller that has them already."""
    nb, agri, ind, lock, agri_v, ind_v, nosale = counts
    total = 0
    m = owned_with(s, p, extra)
    while m:
        b = lowest_bit(m)
        m &= m - 1
        k = s.bld[p, b] + (1 if b == extra else 0)
        kind = tab[END_KIND, b]
        if k and kind:
            total += k * bonus(kind, tab[END_A, b], tab[END_B, b], nb, agri, ind, lock, agri_v,
                               ind_v, nosale, s.hand_n[p], s.hand[p, CONS], s.workers[p], s.vp[p])
    return total


@njit(cache=True, _nrt=False)
def own_bonus(s, tab, p, b, counts):
    """(b's own bonus on today's counts with b built, a rough estimate of it at the game's end);
    ``counts`` are icon_counts with b built."""
    kind = tab[END_KIND, b]
    if kind == 0:
        return 0.0, 0.0
    a = tab[END_A, b]
    prize = tab[END_B, b]
    rl = rounds_left(s, tab)
    nb, agri, ind, lock, agri_v, ind_v, nosale = counts
    now = float(bonus(kind, a, prize, nb, agri, ind, lock, agri_v, ind_v, nosale, s.hand_n[p],
                      s.hand[p, CONS], s.workers[p], s.vp[p]))
    grow = 0.7 * rl  # buildings still to come, about a third of them with each icon
    est = now
    if kind == END_PER_BUILDING:
        est = a * (nb + grow)
    elif kind == END_PER_LOCK:
        est = a * (lock + grow / 3.0)
    elif kind == END_PER_NO_SALE:
        est = a * (nosale + grow / 3.0)
    elif kind == END_PER_IND:
        est = a * (ind + grow / 3.0)
    elif kind == END_PER_ITEM:
        est = a * max(float(s.hand[p, CONS]), 2.0)
    elif kind == END_EMPTY_HAND:
        est = 0.3 * a
    elif kind == END_AGRI_AND_IND:
        if now == 0:
            est = a * (0.6 if agri + ind > 0 else 0.3) * min(1.0, rl / 3.0)
    elif kind == END_ONLY_LOCK:
        est = now * (0.6 if rl > 2 else 1.0)
    elif kind == END_DOUBLE_VP:
        est = float(vp_points(tab, s.vp[p])) + 2.0 * rl
    elif kind == END_FORGIVE:
        est = float(tab[R, R_UNPAID_PENALTY] * min(a, s.unpaid[p] + 2))
    elif kind != END_PER_WORKER and now == 0:
        value = 0.0
        step = 1.0
        if kind == END_MIN_BUILDINGS:
            value, step = nb, 0.8
        elif kind == END_MIN_AGRI:
            value, step = agri, 0.3
        elif kind == END_MIN_IND:
            value, step = ind, 0.3
        elif kind == END_MIN_LOCK:
            value, step = lock, 0.3
        elif kind == END_MIN_VP:
            value, step = s.vp[p], 0.6
        elif kind == END_MIN_WORKERS:
            value, step = s.workers[p], 0.3
        elif kind == END_MIN_ITEMS:
            value, step = s.hand[p, CONS], 1.5
        elif kind == END_AGRI_VALUE:
            value, step = agri_v, 3.0
        elif kind == END_IND_VALUE:
            value, step = ind_v, 4.0
        expect = value + step * rl
        est = 0.0
        if expect > value and expect >= a:
            est = prize * min(1.0, (expect - a) / (expect - value) + 0.25) * 0.8
    return now, est


# ---------------------------------------------------------------------------- values in points

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
        per *= 0.15  # the last round: only a build later this round can use them
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
    return v if rounds_left(s, tab) > 0 else 0.15 * v


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
def owned_bonus(s, tab, p, worth):
    """The end-game bonus of the buildings owned now, kept in worth[NT] for the decision."""
    if np.isnan(worth[NT]):
        worth[NT] = bonus_total(s, tab, p, -1, -1)
    return worth[NT]


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
        return v if rl > 0 else 0.15 * v
    cost = current_cost(s, tab, p, c)
    built = max(0.0, build_value(s, tab, p, c, cost, w, worth))
    v = 0.1 + ITEM_KEEP * w[P_CARD] + KEEP_BUILD * built / (cost + 1.0)
    return v if rl > 0 else 0.15 * v


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


@njit(cache=True, _nrt=False)
def open_now(s, tab, p, v):
    """Whether option v is still free in the imagined rest of this round."""
    if v >= OWN:
        return s.used[p, v - OWN] < s.bld[p, v - OWN]
    return public_open(s, tab, v)


@njit(cache=True, _nrt=False)
def take_and_block(s, tab, p, v, card):
    """Imagine placing on v: occupy it, then block the newest free card once per unit placed;
    returns the slots blocked (-1: none), the second only for a 2-unit card."""
    if v < OWN:
        s.pub_plc[v] += 1
    else:
        s.used[p, card] += 1
    first = block_newest(s)
    second = block_newest(s) if tab[NEED, card] > 1 else -1
    return first, second


@njit(cache=True, _nrt=False)
def undo_take(s, p, v, card, blocked):
    for j in blocked:
        if j >= 0:
            s.pub_side[j] = 0
    if v < OWN:
        s.pub_plc[v] -= 1
    else:
        s.used[p, card] -= 1


@njit(cache=True, _nrt=False)
def plan_value(s, tab, p, opts, n, gains, units, depth):
    """Solo: the best total of ``gains`` over this round's remaining placements, applying the
    blocking rule after each one (today's gains; the state changes in between are ignored)."""
    best = 0.0
    for k in range(n):
        v = opts[k]
        card = option_card(s, v)
        if tab[NEED, card] > units or not open_now(s, tab, p, v):
            continue
        blocked = take_and_block(s, tab, p, v, card)
        val = gains[k]
        left = units - tab[NEED, card]
        if depth > 1 and left > 0:
            val += plan_value(s, tab, p, opts, n, gains, left, depth - 1)
        undo_take(s, p, v, card, blocked)
        best = max(best, val)
    return best


@njit(cache=True, _nrt=False)
def solo_placement(s, tab, p, opts, n, w, worth, keep, gains):
    """Solo: the placement that starts the best plan for the round under the blocking rule;
    its own gain breaks ties, so the plan's most valuable step (it changes the state) goes first.
    ``keep`` and ``gains`` are room for keep_values and for each option's gain."""
    keep_values(s, tab, p, w, worth, keep)
    for i in range(n):
        gains[i] = place_gain(s, tab, p, opts[i], w, keep, worth)
    units = units_left(s, p)
    best = 0
    best_v = -1e18
    for i in range(n):
        v = opts[i]
        card = option_card(s, v)
        blocked = take_and_block(s, tab, p, v, card)
        val = (1.0 + PLAN_TIE) * gains[i]
        left = units - tab[NEED, card]
        if left > 0:
            val += plan_value(s, tab, p, opts, n, gains, left, PLAN_DEPTH - 1)
        undo_take(s, p, v, card, blocked)
        if val > best_v:
            best_v = val
            best = i
    return best


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


# Learned corrections: rows LEARNED_ROW on of an extended card table hold, in thousandths of a
# point, an offset per card and phase of the game for placements, builds and hand values (keeps
# and discards), then, per family in the same order, a coefficient per card on each of the
# LEARNED_STATE numbers of learned_state (the seat's position), so that a correction can depend
# on it. A table may stop after any row: the rows it lacks count as zeros.
LEARNED_ROW = NROWS
LEARNED_PHASES = 9
LEARNED_STATE = 8
LEARNED_FAMILIES = ("place", "build", "hand")  # a row per phase each, in this order
LEARNED_STATE_ROW = LEARNED_ROW + len(LEARNED_FAMILIES) * LEARNED_PHASES
LEARNED_PLACE_STATE = LEARNED_STATE_ROW  # the placements' coefficients come first
LEARNED_END = LEARNED_STATE_ROW + len(LEARNED_FAMILIES) * LEARNED_STATE
LEARNED_STATE_NAMES = ("short_now", "workers", "hand", "units_left", "money", "items", "vp",
                       "short_two")  # the numbers of learned_state, in its order
LEARNED_DIR = Path(__file__).with_name("strong_learned")


def learned_row(family: str, index: str) -> int:
    """The table row of one line of a corrections file: a family of LEARNED_FAMILIES with its
    phase (0 to LEARNED_PHASES - 1), or the family with ``_state`` and a name of
    LEARNED_STATE_NAMES (``place_state``, ``money``)."""
    if family.endswith("_state"):
        f = LEARNED_FAMILIES.index(family[:-len("_state")])
        return LEARNED_STATE_ROW + f * LEARNED_STATE + LEARNED_STATE_NAMES.index(index)
    phase = int(index)
    if not 0 <= phase < LEARNED_PHASES:
        raise ValueError(f"phase {phase} outside 0-{LEARNED_PHASES - 1}")
    return LEARNED_ROW + LEARNED_FAMILIES.index(family) * LEARNED_PHASES + phase


def learned_row_names() -> list[tuple[str, str]]:
    """(family, index) of every learned row, in the order of the table."""
    names = [(f, str(ph)) for f in LEARNED_FAMILIES for ph in range(LEARNED_PHASES)]
    return names + [(f + "_state", name) for f in LEARNED_FAMILIES for name in LEARNED_STATE_NAMES]


def table_rows(data: GameData) -> np.ndarray | None:
    """The learned corrections for ``data``'s game as the rows strong reads below the card table,
    from ``strong_learned/<game>.csv`` (None when the game has no such file), up to the last row
    the file fills: strong skips the work of the rows a table lacks.

    The file names cards by key, so a variant of the game keeps the corrections of the cards it
    still has; a card it adds gets none, and a line for a card it lacks is skipped.
    """
    path = LEARNED_DIR / f"{data.game}.csv"
    if not path.exists():
        return None
    ids = card_ids(data)
    rows = np.zeros((LEARNED_END - LEARNED_ROW, NCOLS), dtype=np.int64)
    with path.open(newline="") as f:
        for number, line in enumerate(csv.DictReader(f), start=2):
            try:
                if line["card"] in ids:
                    row = learned_row(line["family"], line["index"]) - LEARNED_ROW
                    rows[row, ids[line["card"]]] = int(line["millipoints"])
            except (KeyError, ValueError, TypeError) as exc:  # a hand-edited file: name the line
                raise NesimError(f"{path}: line {number}: not family,index,card,millipoints "
                                 f"({type(exc).__name__}: {exc})") from None
    filled = np.flatnonzero(rows.any(axis=1))
    return rows[:filled[-1] + 1] if len(filled) else None


def write_table_rows(data: GameData, rows: np.ndarray, path: Path) -> int:
    """Writes learned rows (as table_rows returns them) to a corrections file, one line per card
    with a correction; returns the number of lines."""
    keys = {cid: key for key, cid in card_ids(data).items()}
    lines = 0
    with path.open("w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["family", "index", "card", "millipoints"])
        for row, (family, index) in zip(range(rows.shape[0]), learned_row_names()):
            for cid in np.nonzero(rows[row])[0]:
                out.writerow([family, index, keys[int(cid)], int(rows[row, cid])])
                lines += 1
    return lines


WORTH_SIZE = NT + 1  # build_value's memo of a decision: each building's worth, the owned bonus
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
    if kind == K_MODE:  # Farm Village: trade 2 items for 3 cards unless the items are wanted
        wanted = hand_value(s, tab, p, CONS, w, worth) - ITEM_KEEP * w[P_ITEM]
        if 3 * w[P_CARD] > 2 * w[P_ITEM] + 2 * wanted:
            return 1
        return 0
    if s.n == 1 and not in_playout(s) and params[P_SOLO_PLAYOUTS] >= 1:
        k = share = 0.0
        if kind == K_PLACE:
            k, share = params[P_SOLO_PLAYOUTS], params[P_SOLO_PRIOR]
        elif (kind == K_BUILD or kind == K_DISCARD or kind == K_KEEP) and n > 1:
            k, share = params[P_SOLO_SUB], params[P_SOLO_SUB_PRIOR]
        if k >= 1:
            ctx[CTX_PLAYOUTS] = int(k)
            ctx[CTX_CANDIDATES] = 0
            ctx[CTX_NEST] = int(params[P_SOLO_NEST])
            # Only corrected values carry what the playouts do not know: without corrections
            # (Progress, 200 games) the prior only counted the policy twice and lost 4 points.
            if share > 0 and has_learned(tab, params) and CTX_PRIOR_AT + n <= ctx.shape[0]:
                one_ply_values(kind, s, tab, p, opts, n, ctx, params, w, keep, worth, position,
                               per_option)
                write_priors(ctx, per_option, n, share)
            return LOOKAHEAD
    if s.n > 1 and not in_playout(s):
        k = params[P_SEARCH] if kind == K_PLACE else params[P_SEARCH_SUB]
        if k >= 1 and (kind == K_PLACE or kind == K_BUILD or kind == K_DISCARD or kind == K_KEEP):
            ctx[CTX_PLAYOUTS] = int(k)
            ctx[CTX_CANDIDATES] = 0
            ctx[CTX_NEST] = 0
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


@njit(cache=True, _nrt=False)
def one_ply_values(kind, s, tab, p, opts, n, ctx, params, w, keep, worth, position, out):
    """out[:n] = each option's one-ply value, with the learned correction in solo where the
    table has one; ``keep`` and ``position`` are room for the keep values and the position."""
    wp = ctx[CTX_WORKPLACE] if kind == K_BUILD else 0
    if kind == K_PLACE:
        keep_values(s, tab, p, w, worth, keep)
    learned = s.n == 1 and has_learned(tab, params)
    phase = npos = 0
    if learned:  # the round's rows and the position are the same for every option
        phase = learned_phase(s, tab)
        npos = learned_position(s, tab, p, kind, position)
    for i in range(n):
        out[i] = option_value(kind, s, tab, p, opts[i], wp, w, keep, worth)
        if learned:
            out[i] += params[P_LEARNED] * learned_offset(kind, s, tab, opts[i], phase, position, npos)


@njit(cache=True, _nrt=False)
def has_learned(tab, params):
    """Whether the table carries learned corrections and strong reads them."""
    return tab.shape[0] > LEARNED_ROW and params[P_LEARNED] != 0


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
def learned_phase(s, tab):
    return min(LEARNED_PHASES - 1, (s.round - 1) * LEARNED_PHASES // tab[R, R_ROUNDS])


@njit(cache=True, _nrt=False)
def learned_state(s, tab, p, j):
    """Number j of the seat's position: the wages it is short of this payday, its workers
    beyond three, its hand, its units left after this one, its money, its consumer items, its VP
    tokens, the wages it is short of for this payday and the next (each roughly 0-2)."""
    if j == 0:
        return max(0, s.workers[p] * wage_at(tab, s.round) - s.money[p]) / 5.0
    if j == 1:
        return s.workers[p] - 3.0
    if j == 2:
        return s.hand_n[p] / 5.0
    if j == 3:
        return units_left(s, p) - 1.0
    if j == 4:
        return s.money[p] / 10.0
    if j == 5:
        return s.hand[p, CONS] / 3.0
    if j == 6:
        return s.vp[p] / 3.0
    nxt = wage_at(tab, s.round + 1) if s.round < tab[R, R_ROUNDS] else 0
    return max(0, s.workers[p] * (wage_at(tab, s.round) + nxt) - s.money[p]) / 10.0


@njit(cache=True, _nrt=False)
def learned_family(kind):
    """The family of learned rows a decision reads: 0 placements, 1 builds, 2 keeps and discards."""
    if kind == K_PLACE:
        return 0
    if kind == K_BUILD:
        return 1
    return 2


@njit(cache=True, _nrt=False)
def learned_position(s, tab, p, kind, position):
    """Fills position[:k] with the numbers of the seat's position the decision's correction reads
    (k: as many as the table has coefficient rows for) and returns k."""
    base = LEARNED_STATE_ROW + learned_family(kind) * LEARNED_STATE
    k = max(0, min(LEARNED_STATE, tab.shape[0] - base))
    for j in range(k):
        position[j] = learned_state(s, tab, p, j)
    return k


@njit(cache=True, _nrt=False)
def learned_card(tab, family, card, ph, position, npos):
    """One card's correction, in thousandths of a point: its phase offset and its coefficients
    times the position."""
    off = float(tab[LEARNED_ROW + family * LEARNED_PHASES + ph, card])
    base = LEARNED_STATE_ROW + family * LEARNED_STATE
    for j in range(npos):
        off += tab[base + j, card] * position[j]
    return off


@njit(cache=True, _nrt=False)
def learned_offset(kind, s, tab, v, ph, position, npos):
    """The correction, in points, the table's learned rows add to option v's one-ply value in
    phase ``ph``, with ``position[:npos]`` from learned_position."""
    if kind == K_PLACE:
        return learned_card(tab, 0, option_card(s, v), ph, position, npos) / 1000.0
    if kind == K_BUILD:
        a, b = build_cards(v)
        off = learned_card(tab, 1, a, ph, position, npos)
        if b >= 0:
            off += learned_card(tab, 1, b, ph, position, npos)
        return off / 1000.0
    if kind == K_KEEP:
        return learned_card(tab, 2, v, ph, position, npos) / 1000.0
    if kind == K_DISCARD:
        return -learned_card(tab, 2, v, ph, position, npos) / 1000.0
    return 0.0


@njit(STRATEGY_SIG, cache=True)
def choose(kind, seat, opts, n, ctx, st, tab, params):
    # One allocation per decision, and the rest without reference counting: counting the arrays
    # passed between functions that may allocate took a third of a playout's time.
    scratch = np.empty(params.shape[0] + SCRATCH_FIXED + max(n, 1))
    return decide(kind, seat, opts, n, ctx, st, tab, params, scratch)
