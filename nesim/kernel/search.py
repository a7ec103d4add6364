"""The kernel's lookahead: decisions a strategy answers with LOOKAHEAD, chosen by playouts.

A strategy may answer LOOKAHEAD instead of an index (strategies/README.md). For a placement the
kernel then plays every candidate to the end of the game on the scratch state st[1] and keeps
the best (best_candidate). Within a turn chosen that way, and at every payday once a game has
used lookahead, the later decisions may be searched too: the state at the start of the turn
(or payday) is kept in st[2]; a probe replays the answers chosen so far from there and goes on,
the strategy answering as in the game, until it answers LOOKAHEAD or the turn ends; the
decision it stopped at is searched by playouts that replay the same answers and then that
candidate. The turn is then played in the game with the whole list of answers. Replays use the
real deck until the searched decision (everything drawn before it is known by then); from
there a playout shuffles the cards still unseen (new_luck), so a search never sees what the
player cannot. Nothing here calls back into plan_turn: playouts and probes run unplanned.

The search keeps its bookkeeping in its own record, ``s.search`` (tables.SEARCH, one per state
of ``st``, so that copying a state copies its search too). The rules (core.py) never read it:
they call the entry points of the seam below only, and this module calls the rules to play the
futures it weighs. Strategies ask what they may know of it through nesim.kernel.api
(``in_playout``, ``playout_luck``, ``in_game``).

``buf`` rows 3-5 are the playouts' own options, scratch and context (rows 0-2 of a game's),
rows 6-9 the bookkeeping of best_candidate and playout_value, 10-11 a nested line and its option
counts, and SEARCH_ROW the request of a decision searched within a turn or payday.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nesim.kernel.core import (CTX_CANDIDATES, CTX_NEST, CTX_PLAYOUTS, CTX_PRIOR, CTX_PRIOR_AT,
                               F_SCORE, GOLDEN, K_PLACE, K_SELL, LOOKAHEAD, add_to_hand, ask,
                               known_on_top, lowest_bit, mix64, payday, placement_options,
                               run_actions, score, shuffle_deck, start_round, take_turn)
from nesim.kernel.tables import CONS, MAXP, NEST_MAX, PREFIX_MAX, R, R_ROUNDS, R_UNPAID_PENALTY

LOOKAHEAD_ROWS = 13  # rows of buf that a lookahead needs
SEARCH_ROW = 12  # the request of a decision searched within a turn or payday (copy_request)
LOOKAHEAD_STATES = 3  # records of st: the game, a playout's scratch copy, the checkpoint
MODE_GAME, MODE_PLAYOUT, MODE_PROBE = range(3)  # what a state is (SEARCH.mode)
CK_TURN, CK_PAYDAY = range(2)  # where a checkpoint was taken
HALT_SEARCH, HALT_FULL = 1, 2  # why a probe stopped
NO_ANSWER = -1  # forced_answer: the player answers this decision
# the only names of this module the rules (core.py) use (tests/test_lookahead.py checks it)
SEAM = ("new_game", "forced_answer", "NO_ANSWER", "unplanned_lookahead", "record_answer",
        "plan_turn", "plan_payday", "answers_played", "halted")


# ---------------------------------------------------------------------------- the seam
#
# What the rules call, and nothing else: answer (core.answer) asks forced_answer first, hands a
# LOOKAHEAD it gets to unplanned_lookahead and every answer given to record_answer; the action
# phase plans each turn (plan_turn), the game each payday (plan_payday), and both end with
# answers_played; run_actions stops once a probe halted; play_game starts every game with
# new_game.

@njit(cache=True, inline="always", _nrt=False)
def new_game(s):
    """The search's record of a game about to start: the game itself, nothing recorded."""
    sr = s.search
    sr.mode = MODE_GAME
    sr.playout = sr.halt = sr.lookahead_on = 0
    sr.prefix_n = sr.forced_pos = 0


@njit(cache=True, _nrt=False)
def forced_answer(s, tab, kind, p, n):
    """The answer the search dictates at this decision, NO_ANSWER when the player answers it: a
    recorded answer while the state replays them (the one after which a playout's own luck
    begins deals that luck), 0 once a probe has halted (nobody is asked any more)."""
    sr = s.search
    if sr.forced_pos < sr.prefix_n:
        a = sr.prefix[sr.forced_pos]
        if sr.nest:
            sr.prefix_opts[sr.forced_pos] = nest_options(s, kind, p, n)
        sr.forced_pos += 1
        if sr.mode == MODE_PLAYOUT and sr.forced_pos == sr.luck_at:
            new_luck(s, tab)
        return a
    if sr.halt:
        return 0
    return NO_ANSWER


@njit(cache=True, _nrt=False)
def unplanned_lookahead(st, tab, fns, params, buf, kind, p, n):
    """The answer to a LOOKAHEAD that no search was planned for: a probe halts there (the
    decision is the one to search), anywhere else the strategy is asked again to answer
    directly."""
    s = st[0]
    if s.search.mode == MODE_PROBE and kind != K_SELL:
        stop_probe(s.search, p, n)
        return 0
    return direct_answer(st, tab, fns, params, buf, kind, p, n)


@njit(cache=True, _nrt=False)
def record_answer(s, kind, p, n, a):
    """Keeps answer ``a``: a probe appends it to the turn's list (and halts when the list is
    full), a nested playout to its line; the game keeps nothing."""
    sr = s.search
    if sr.mode == MODE_PROBE:
        if sr.halt:  # halted at this very decision: its answer is the search's
            return
        if sr.prefix_n < PREFIX_MAX:
            sr.prefix[sr.prefix_n] = a
            sr.prefix_n += 1
            sr.forced_pos = sr.prefix_n
        else:
            sr.halt = HALT_FULL
    elif sr.nest and sr.prefix_n < NEST_MAX:  # a nested playout keeps every answer it gives
        sr.prefix[sr.prefix_n] = a
        sr.prefix_opts[sr.prefix_n] = nest_options(s, kind, p, n)
        sr.prefix_n += 1
        sr.forced_pos = sr.prefix_n


@njit(cache=True, inline="always", _nrt=False)
def halted(s):
    """Whether a probe has stopped: the rules' loops ask nobody any more."""
    return s.search.halt != 0


@njit(cache=True, inline="always", _nrt=False)
def answers_played(s):
    """A turn or payday is over: the answers planned for it are spent."""
    s.search.prefix_n = s.search.forced_pos = 0


@njit(cache=True, _nrt=False)
def plan_turn(st, tab, fns, params, log, buf, p, n):
    """Seat p's placement answer (and, after a LOOKAHEAD, the whole turn's) put on the game's
    answer list, which the turn then replays. The list is empty here: every turn and payday of
    the game empties it when done."""
    s = st[0]
    sr = s.search
    buf[2][CTX_PRIOR] = 0
    a = fns[p](K_PLACE, p, buf[0], n, buf[2], st, tab, params[p])
    if a != LOOKAHEAD or st.shape[0] < LOOKAHEAD_STATES:
        if a == LOOKAHEAD:
            a = direct_answer(st, tab, fns, params, buf, K_PLACE, p, n)
        sr.prefix[0] = a
        sr.prefix_n = 1
        return
    sr.lookahead_on = 1
    st[2] = st[0]
    sr.prefix[0] = best_candidate(st, tab, fns, params, log[:0], buf, CK_TURN, p, p, n, buf[2])
    sr.prefix_n = 1
    plan_answers(st, tab, fns, params, log[:0], buf, CK_TURN, p)


@njit(cache=True, _nrt=False)
def plan_payday(st, tab, fns, params, log, buf):
    """Once the game has used lookahead, the payday's decisions may be searched too: their
    answers are put on the game's answer list, which the payday then replays."""
    if st[0].search.lookahead_on and st.shape[0] >= LOOKAHEAD_STATES:
        st[2] = st[0]
        plan_answers(st, tab, fns, params, log[:0], buf, CK_PAYDAY, -1)


# ---------------------------------------------------------------------------- what strategies see

@njit(cache=True, inline="always", _nrt=False)
def in_playout(s):
    """Whether a strategy asked in state ``s`` must answer directly (never LOOKAHEAD): inside a
    playout, or asked again where a LOOKAHEAD cannot be searched."""
    return s.search.playout != 0


@njit(cache=True, inline="always", _nrt=False)
def playout_luck(s):
    """(True, the seed of its sampled future) when ``s`` is a playout's state, else (False, 0):
    a strategy may draw per-playout variety from it."""
    if s.search.mode == MODE_PLAYOUT:
        return True, s.search.luck
    return False, np.uint64(0)


@njit(cache=True, inline="always", _nrt=False)
def in_game(s):
    """Whether ``s`` is the game itself, not a probe's or playout's scratch copy of it."""
    return s.search.mode == MODE_GAME


@njit(cache=True, inline="always", _nrt=False)
def enter_playout(s):
    """Strategies asked in ``s`` from now on answer directly, as inside a playout (until
    leave_playout): for code that answers for another strategy by its quick policy."""
    s.search.playout += 1


@njit(cache=True, inline="always", _nrt=False)
def leave_playout(s):
    s.search.playout -= 1


@njit(cache=True, _nrt=False)
def direct_answer(st, tab, fns, params, buf, kind, p, n):
    """The strategy asked again, inside enter_playout, where a LOOKAHEAD cannot be searched."""
    s = st[0]
    enter_playout(s)
    a = fns[p](kind, p, buf[0], n, buf[2], st, tab, params[p])
    leave_playout(s)
    return a


# ---------------------------------------------------------------------------- sampled futures

@njit(cache=True, inline="always", _nrt=False)
def nest_options(s, kind, p, n):
    """The options a nested playout may try at this decision: the searching seat's, except a
    sale (its answer is a set of buildings, not an index)."""
    sr = s.search
    return n if kind != K_SELL and p == sr.seat and s.round < sr.nest_until else 0


@njit(cache=True, _nrt=False)
def stop_probe(sr, p, n):
    """The probe halts at seat p's decision among n options; the strategy's request (budget,
    candidates, nesting, priors) stays in the probe's ctx, since no strategy is asked after."""
    sr.seat = p
    sr.n_options = n
    sr.halt = HALT_SEARCH


@njit(cache=True, _nrt=False)
def new_luck(s, tab):
    """A playout's own future, from its luck: fresh generators, and what the searching seat has
    not seen dealt anew (deal_unseen)."""
    s.rng = s.search.luck
    for q in range(s.n):
        s.srng[q] = mix64(s.search.luck ^ (GOLDEN * np.uint64(q + 7)))
    deal_unseen(s, tab, s.search.seat)


@njit(cache=True, _nrt=False)
def deal_unseen(s, tab, p):
    """Deals anew, from the game generator, what seat p cannot see: the deck below the top cards
    every player knows (core.known_on_top), and the building cards in the other players' hands
    (each keeps its number of them, and its consumer items, which every player saw it take). The
    unseen cards are first put in type order, so that the deal depends on which cards are unseen
    and on the generator alone, never on where they really lie: a search sampling futures this
    way, and a strategy asked in a state dealt this way, cannot read the hidden order."""
    known_top = known_on_top(s)
    held = s.search.deal_n  # each seat's building cards dealt anew, then the known top cards
    top = s.deck_n - known_top  # the unseen part of the deck is deck[:top]
    m = top
    for i in range(known_top):  # lift the known cards off: they go back on top at the end
        held[MAXP + i] = s.deck[top + i]
    for q in range(s.n):
        held[q] = 0
        if q == p:
            continue
        mask = s.hand_mask[q] & ~(np.int64(1) << CONS)
        while mask:
            c = lowest_bit(mask)
            mask &= mask - 1
            k = s.hand[q, c]
            for _ in range(k):
                s.deck[m] = c
                m += 1
            held[q] += k
            add_to_hand(s, q, c, -k)
    for i in range(1, m):  # insertion sort: a few dozen cards
        c = s.deck[i]
        j = i - 1
        while j >= 0 and s.deck[j] > c:
            s.deck[j + 1] = s.deck[j]
            j -= 1
        s.deck[j + 1] = c
    shuffle_deck(s, m)
    for q in range(s.n):
        for _ in range(held[q]):
            m -= 1
            add_to_hand(s, q, s.deck[m], 1)
    for i in range(known_top):
        s.deck[m + i] = held[MAXP + i]
    s.deck_n = m + known_top


@njit(cache=True, _nrt=False)
def from_checkpoint(st, mode, extra):
    """st[1] set to the checkpoint st[2] replaying the game's answers so far, then ``extra``
    (when >= 0), in the given mode."""
    sr = st[0].search
    st[1] = st[2]
    c = st[1].search
    for i in range(sr.prefix_n):
        c.prefix[i] = sr.prefix[i]
    c.prefix_n = sr.prefix_n
    if extra >= 0:
        c.prefix[c.prefix_n] = extra
        c.prefix_n += 1
    c.forced_pos = 0
    c.luck_at = c.prefix_n  # a playout's own luck begins after the last answer it replays
    c.nest = 0
    c.mode = mode
    c.playout = 1 if mode == MODE_PLAYOUT else 0
    c.halt = 0


@njit(cache=True, _nrt=False)
def resume(st, tab, fns, params, log, buf, ck, seat):
    """Plays from a checkpoint of kind ``ck`` (a turn of ``seat``, or a payday) to the game's end."""
    s = st[0]
    if ck == CK_TURN:
        run_actions(st, tab, fns, params, log, buf, seat)
    payday(st, tab, fns, params, log, buf)
    for rnd in range(s.round + 1, tab[R, R_ROUNDS] + 1):
        s.round = rnd
        start_round(s, tab)
        run_actions(st, tab, fns, params, log, buf, s.start_player)
        payday(st, tab, fns, params, log, buf)


# Playouts are played by the strategies' quick policies, which meet wages far worse than a
# searched game does (strong's Glory playouts run up 20 or more Unpaid Wage cards where its
# searched games end with 4), so a solo playout gives back a quarter of the penalty for the
# Unpaid Wage cards it adds: a position with more wages to meet is not blamed for all of the
# policy's failures. Against none, strong paired on the same seeds: Glory +3.8 +- 1.3 points over
# 240 games, Mecenat +6.3 +- 2.4 and Progress +0.8 +- 1.6 over 200; giving back 0.8 lost 28 points.
SOLO_QUARTERS = 4  # solo values are in quarter points, so one penalty per added card is a quarter


@njit(cache=True, _nrt=False)
def playout_value(s, tab, p, out, unpaid_before):
    """What a finished playout is worth to seat p: its score, less the best opponent's; in solo,
    in quarter points, with a quarter of the added unpaid-wage penalty given back."""
    score(s, tab, p, out)
    value = out[F_SCORE]
    if s.n == 1:
        added = s.unpaid[p] - unpaid_before
        return SOLO_QUARTERS * value + tab[R, R_UNPAID_PENALTY] * added
    best_other = -(1 << 30)
    for q in range(s.n):
        if q != p:
            score(s, tab, q, out)
            best_other = max(best_other, out[F_SCORE])
    return value - best_other


@njit(cache=True, _nrt=False)
def playout(st, tab, fns, params, log, buf, ck, seat, p, j, luck):
    """Seat p's value of one playout from the checkpoint with answer j to the searched decision."""
    from_checkpoint(st, MODE_PLAYOUT, j)
    c = st[1]
    c.search.luck = luck
    c.search.seat = p  # whose unseen cards the playout deals anew
    resume(st[1:2], tab, fns, params, log, buf[3:6], ck, seat)
    return playout_value(c, tab, p, buf[9], st[0].unpaid[p])


@njit(cache=True, _nrt=False)
def scripted_playout(st, tab, fns, params, log, buf, ck, seat, p, j, luck, script, m, rounds):
    """A playout with answer j that then replays script[:m] and records every later answer and
    its number of options in st[1].search.prefix and prefix_opts. Its luck begins right after j,
    so every script played from j meets the same unseen deck."""
    from_checkpoint(st, MODE_PLAYOUT, j)
    c = st[1]
    sr = c.search
    sr.luck = luck
    m = min(m, NEST_MAX - sr.prefix_n)
    for i in range(m):
        sr.prefix[sr.prefix_n + i] = script[i]
    sr.prefix_n += m
    sr.nest = 1
    sr.seat = p
    sr.nest_until = st[0].round + rounds
    resume(st[1:2], tab, fns, params, log, buf[3:6], ck, seat)
    return playout_value(c, tab, p, buf[9], c.unpaid[p])  # the line is searched: no give-back


@njit(cache=True, _nrt=False)
def kept_line(c, start, seq, opts):
    """Copies the answers a nested playout gave after its candidate into seq and opts."""
    sr = c.search
    m = sr.prefix_n - start
    for i in range(m):
        seq[i] = sr.prefix[start + i]
        opts[i] = sr.prefix_opts[start + i]
    return m


@njit(cache=True, _nrt=False)
def nested_line(st, tab, fns, params, log, buf, ck, seat, p, j, luck, rounds):
    """Seat p's best line after answer j in one sampled future, by a nested Monte Carlo search of
    level 1 (Cazenave 2009) over seat p's later decisions: play the policy on, then at each later
    decision in turn try every other option with the policy after it, and keep the best line
    found so far. Returns its value and length; the line itself is left in buf[10] and its
    decisions' option counts in buf[11]. The future is sampled (luck), not the real one, so the
    search is honest: it values j by what a player who planned well from there would make of it.
    Decisions are taken in order and only later ones change once a line is kept, so with a policy
    that draws no random numbers every single change to the returned line, the policy playing on
    after it, was tried and is worth no more (with one that does, the kept option's continuation
    drew other numbers than a replay of it would)."""
    seq = buf[10]
    opts = buf[11]
    start = st[0].search.prefix_n + 1
    best = scripted_playout(st, tab, fns, params, log, buf, ck, seat, p, j, luck, seq, 0, rounds)
    m = kept_line(st[1], start, seq, opts)
    i = 0
    while i < m:  # a better line may be longer or shorter than the one it replaces
        keep = seq[i]
        for b in range(opts[i]):
            if b == keep:
                continue
            seq[i] = b
            v = scripted_playout(st, tab, fns, params, log, buf, ck, seat, p, j, luck, seq, i + 1,
                                 rounds)
            if v > best:
                best = v
                m = kept_line(st[1], start, seq, opts)
                keep = b
            else:
                seq[i] = keep
        i += 1
    return best, m


@njit(cache=True, _nrt=False)
def nested_playout(st, tab, fns, params, log, buf, ck, seat, p, j, luck, rounds):
    """Seat p's value of answer j in one sampled future: that of the best line nested_line finds."""
    return nested_line(st, tab, fns, params, log, buf, ck, seat, p, j, luck, rounds)[0]


# ---------------------------------------------------------------------------- choosing

@njit(cache=True, _nrt=False)
def best_candidate(st, tab, fns, params, log, buf, ck, seat, p, n, ctx):
    """The answer among 0..n-1 (those in the bit mask ``mask = ctx[CTX_CANDIDATES]``, or all when
    it is 0) with the best mean playout value for seat p, by sequential halving (after Karnin,
    Koren and Somekh 2013) over ceil(log2 m) rounds: every surviving candidate gets budget /
    (survivors x rounds left) playouts, budget = k x m with k = ctx[CTX_PLAYOUTS], and the better
    half by mean goes on. Each round thus spends the budget over the rounds left rather than over
    all rounds, so the total comes to about 1.5-2 times the budget (m = 4: 1.5; m = 6: 1.8), most
    of it on the finalists.
    Playout j of every candidate uses the same shuffle, so candidates meet the same luck. With
    ``nest = ctx[CTX_NEST]`` each playout is a nested one (nested_playout); the halving then
    matters most, since the few sampled futures a nested search can afford are spent mostly on
    the finalists.
    When ``ctx[CTX_PRIOR]`` is set, candidate i is ranked by its mean plus its prior
    ``ctx[CTX_PRIOR_AT + i]`` (thousandths of a point, turned into the playout value's unit)."""
    s = st[0]
    k, mask, nest = ctx[CTX_PLAYOUTS], ctx[CTX_CANDIDATES], ctx[CTX_NEST]
    prior_unit = 0.0
    if ctx[CTX_PRIOR] != 0 and n + CTX_PRIOR_AT <= ctx.shape[0]:
        prior_unit = (SOLO_QUARTERS if s.n == 1 else 1) / 1000.0
    prior = ctx[CTX_PRIOR_AT:]
    alive = buf[6]  # 1 while answer i is a candidate
    done = buf[7]  # its playouts so far
    total = buf[8]  # the sum of their values
    m = 0
    for i in range(n):
        alive[i] = 1 if mask == 0 or (i < 63 and (mask >> i) & 1) else 0
        done[i] = 0
        total[i] = 0
        m += alive[i]
    if m == 0 or k <= 0:
        return 0
    steps = 0
    while (1 << steps) < m:
        steps += 1
    budget = k * m
    where = s.round * 4096 + s.placed[p] * 128 + s.search.prefix_n + 1  # this decision in the game
    seed = mix64(s.rng ^ s.srng[p] ^ (GOLDEN * np.uint64(where)))
    while True:
        share = max(1, budget // (m * max(steps, 1)))
        for i in range(n):
            if alive[i]:
                for _ in range(share):
                    luck = mix64(seed + GOLDEN * np.uint64(done[i] + 1))
                    if nest:
                        total[i] += nested_playout(st, tab, fns, params, log, buf, ck, seat, p, i,
                                                   luck, nest)
                    else:
                        total[i] += playout(st, tab, fns, params, log, buf, ck, seat, p, i, luck)
                    done[i] += 1
        best = best_mean(alive, done, total, n, prior, prior_unit)
        if m <= 1 or steps <= 1:
            return best
        keep = (m + 1) // 2
        for _ in range(m - keep):
            alive[worst_mean(alive, done, total, n, prior, prior_unit)] = 0
        m = keep
        steps -= 1


@njit(cache=True, inline="always", _nrt=False)
def best_mean(alive, done, total, n, prior, unit):
    best = -1
    for i in range(n):
        if alive[i] and (best < 0 or better_mean(i, best, done, total, prior, unit)):
            best = i
    return best


@njit(cache=True, inline="always", _nrt=False)
def worst_mean(alive, done, total, n, prior, unit):
    worst = -1
    for i in range(n):
        if alive[i] and (worst < 0 or not better_mean(i, worst, done, total, prior, unit)):
            worst = i
    return worst


@njit(cache=True, inline="always", _nrt=False)
def better_mean(i, j, done, total, prior, unit):
    """Whether candidate i's mean (plus its prior, when ``unit`` is not 0) beats j's; without
    priors in whole numbers, so that ties fall the same way on every machine."""
    if unit == 0.0:
        return total[i] * done[j] > total[j] * done[i]
    return total[i] / done[i] + unit * prior[i] > total[j] / done[j] + unit * prior[j]


# ---------------------------------------------------------------------------- within a turn

@njit(cache=True, _nrt=False)
def probe(st, tab, fns, params, log, buf, ck, seat):
    """Replays the turn (or payday) from the checkpoint with the answers chosen so far and goes on
    as the game would; appends the answers it meets to the game's list. True if it stopped at a
    decision to search (its seat and number of options are in st[1].search)."""
    sr = st[0].search
    from_checkpoint(st, MODE_PROBE, -1)
    scratch = st[1:2]
    c = st[1]
    sbuf = buf[3:6]
    if ck == CK_TURN:
        n = placement_options(c, tab, seat, sbuf[0], sbuf[1])
        v = ask(scratch, tab, fns, params, log, sbuf, K_PLACE, seat, n)
        take_turn(scratch, tab, fns, params, log, sbuf, seat, v)
    else:
        payday(scratch, tab, fns, params, log, sbuf)
    for i in range(sr.prefix_n, c.search.prefix_n):
        sr.prefix[i] = c.search.prefix[i]
    sr.prefix_n = c.search.prefix_n
    return c.search.halt == HALT_SEARCH


@njit(cache=True, _nrt=False)
def copy_request(c, buf):
    """The request of the decision a probe stopped at (budget, candidates, nesting and, when
    CTX_PRIOR is set, the priors), copied out of the probe's ctx (buf[5], which the playouts
    reuse) into buf[SEARCH_ROW]."""
    ctx = buf[SEARCH_ROW]
    for i in range(CTX_PLAYOUTS, CTX_PRIOR_AT):
        ctx[i] = buf[5][i]
    if ctx[CTX_PRIOR]:
        for i in range(CTX_PRIOR_AT, min(CTX_PRIOR_AT + c.search.n_options, ctx.shape[0])):
            ctx[i] = buf[5][i]


@njit(cache=True, _nrt=False)
def plan_answers(st, tab, fns, params, log, buf, ck, seat):
    """Fills the game's answer list for the turn (or payday) from the checkpoint: probe, search
    the decision the probe stopped at, add the best answer, and again until none is left."""
    s = st[0]
    sr = s.search
    c = st[1]
    while sr.prefix_n < PREFIX_MAX:
        if not probe(st, tab, fns, params, log, buf, ck, seat):
            if c.search.halt == 0:  # the strategies' generators as if they had answered in the game
                for q in range(s.n):
                    s.srng[q] = c.srng[q]
            return
        copy_request(c, buf)
        j = best_candidate(st, tab, fns, params, log, buf, ck, seat, c.search.seat,
                           c.search.n_options, buf[SEARCH_ROW])
        sr.prefix[sr.prefix_n] = j
        sr.prefix_n += 1
