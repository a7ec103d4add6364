"""strong's valuations visit only the kinds of building a player owns or holds (by the state's bit
masks); on any holding they must give what a loop over every kind of the game gives."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nesim.cards import load_game
from nesim.kernel import core
from nesim.kernel.tables import (AGRI, ASSET, C_DOUBLE_CITY, C_WORLDWIDE, CONS, E_CONSTRUCT, EA,
                                 EFFECT, END_A, END_B, END_KIND, IND, LOCK, ONBUILD, ONBUILD_DOLL,
                                 R, R_NTYPES, R_ROUNDS, SELLABLE, STATE, WORKABLE, build_table)
from strategies import strong
from strategies.strong import bonuses as strong_bonuses
from strategies.strong import queries as strong_queries
from strategies.strong import values as strong_values
from strategies.strong import weights as strong_weights

GAMES = ("progress", "mecenat", "glory")
TABLES = {game: build_table(load_game(game)) for game in GAMES}


@st.composite
def holdings(draw):
    """A solo or 2-player state of any game with a drawn hand and row of buildings for seat 0."""
    game = draw(st.sampled_from(GAMES))
    tab = TABLES[game]
    ntypes = int(tab[R, R_NTYPES])
    n = draw(st.sampled_from([1, 2]))
    s = np.zeros(1, dtype=STATE)
    core.setup(s[0], tab, n, draw(st.integers(0, 2**32)))
    s = s[0]
    s["hand"][0] = 0
    s["hand_n"][0] = 0
    s["hand_mask"][0] = 0
    kinds = st.integers(0, ntypes - 1)
    for c, k in draw(st.dictionaries(kinds, st.integers(1, 3), max_size=7)).items():
        core.add_to_hand(s, 0, c, k)
    items = draw(st.integers(0, 4))
    if items:
        core.add_to_hand(s, 0, CONS, items)
    for b, k in draw(st.dictionaries(kinds, st.integers(1, 2), max_size=9)).items():
        core.add_building(s, 0, b, k)
    s["round"] = draw(st.integers(1, int(tab[R, R_ROUNDS])))
    s["vp"][0] = draw(st.integers(0, 12))
    s["workers"][0] = draw(st.integers(2, 5))
    return game, s, tab


def weights(n):
    w = np.array(list(strong.PARAMS.values()))
    strong_weights.fill_weights(w, w.copy(), n == 1)
    return w


def memo():
    """A fresh build_value memo, as decide starts each decision with."""
    return np.full(strong_values.WORTH_SIZE, np.nan)


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(holdings())
def test_counts_over_held_kinds_match_every_kind(h):
    _, s, tab = h
    every = range(int(tab[R, R_NTYPES]))
    bld, hand = s["bld"][0], s["hand"][0]
    for kind in np.unique(tab[END_KIND]):
        for in_hand in (False, True):
            expected = sum(int(bld[b]) + (int(hand[b]) if in_hand else 0)
                           for b in every if tab[END_KIND, b] == kind)
            assert strong_bonuses.count_end_kind(s, tab, 0, kind, in_hand) == expected
    for effect in np.unique(tab[EFFECT]):
        assert strong_queries.owns_effect(s, tab, 0, effect) == any(bld[b] and tab[EFFECT, b] == effect
                                                            for b in every)
    assert strong_bonuses.owns_bonus_building(s, tab, 0) == any(bld[b] and tab[END_KIND, b] for b in every)
    assert strong_queries.sellable_value(s, tab, 0) == sum(int(bld[b]) * core.sale_price(s, tab, b)
                                                   for b in every if tab[SELLABLE, b])


def counts_over_every_kind(s, tab, extra):
    """icon_counts for seat 0 with ``extra`` added, by a loop over every kind."""
    nb, agri, ind, lock, agri_v, ind_v, nosale = int(s["bld_n"][0]) + (extra >= 0), 0, 0, 0, 0, 0, 0
    for b in range(int(tab[R, R_NTYPES])):
        k = int(s["bld"][0, b]) + (1 if b == extra else 0)
        agri += k * bool(tab[AGRI, b])
        ind += k * bool(tab[IND, b])
        lock += k * bool(tab[LOCK, b])
        agri_v += k * int(tab[ASSET, b]) * bool(tab[AGRI, b])
        ind_v += k * int(tab[ASSET, b]) * bool(tab[IND, b])
        nosale += k * (not tab[SELLABLE, b])
    return nb, agri, ind, lock, agri_v, ind_v, nosale


def bonus_over_every_kind(s, tab, extra):
    """The end-game bonus of seat 0's buildings with ``extra`` added, by the scoring rules'
    functions over every kind."""
    counts = counts_over_every_kind(s, tab, extra)
    total = 0
    for b in range(int(tab[R, R_NTYPES])):
        k = int(s["bld"][0, b]) + (1 if b == extra else 0)
        if k and tab[END_KIND, b]:
            total += k * core.bonus(tab[END_KIND, b], tab[END_A, b], tab[END_B, b],
                                    *counts, s["hand_n"][0], s["hand"][0, CONS], s["workers"][0],
                                    s["vp"][0])
    return total


@SETTINGS
@given(holdings(), st.integers(-1, 30))
def test_icon_counts_over_held_kinds_match_every_kind(h, extra):
    _, s, tab = h
    extra = extra if extra < tab[R, R_NTYPES] else -1
    assert core.icon_counts(s, tab, 0, extra) == counts_over_every_kind(s, tab, extra)


@SETTINGS
@given(holdings(), st.integers(-1, 30))
def test_bonus_total_over_held_kinds_matches_every_kind(h, extra):
    _, s, tab = h
    extra = extra if extra < tab[R, R_NTYPES] else -1
    assert strong_bonuses.bonus_total(s, tab, 0, extra, -1) == bonus_over_every_kind(s, tab, extra)


@SETTINGS
@given(holdings(), st.integers(0, 8))
def test_keep_values_and_discard_cost_follow_the_hand(h, k):
    _, s, tab = h
    ntypes = int(tab[R, R_NTYPES])
    w = weights(s["n"])
    keep = strong_values.keep_values(s, tab, 0, w, memo(), np.full(ntypes + 1, -7.0))
    for c in range(ntypes + 1):
        cid = CONS if c == ntypes else c
        expected = strong_values.hand_value(s, tab, 0, cid, w, memo()) if s["hand"][0, cid] else 0.0
        assert keep[c] == expected
    # discarding k cards costs the k lowest keep values among the cards held, copies counted
    held = sorted(keep[c] for c in range(ntypes + 1)
                  for _ in range(s["hand"][0, CONS if c == ntypes else c]))
    assert np.isclose(strong_values.discard_cost(s, tab, 0, k, keep), sum(held[:k]))


@SETTINGS
@given(holdings())
def test_the_best_construction_is_the_best_over_every_kind_and_pair(h):
    _, s, tab = h
    ntypes = int(tab[R, R_NTYPES])
    w = weights(s["n"])
    hand = s["hand"][0]
    for wp in np.flatnonzero(tab[EFFECT] == E_CONSTRUCT):  # every construction workplace
        pair = tab[EA, wp] in (C_DOUBLE_CITY, C_WORLDWIDE)
        best = -1e9
        for a in range(ntypes):
            if not hand[a] or not core.terms_allow(tab, wp, a):
                continue
            for b in (range(a, ntypes) if pair else [-1]):
                if b >= 0 and (not hand[b] or not core.terms_allow(tab, wp, b)
                               or (a == b and hand[a] < 2)):
                    continue
                if core.construct_payable(s, tab, 0, wp, a, b):
                    cost = core.construct_cost(s, tab, 0, wp, a, b)
                    v = strong_values.build_value(s, tab, 0, a, cost, w, memo())
                    if b >= 0:
                        v += strong_values.build_value(s, tab, 0, b, 0, w, memo())
                    best = max(best, v)
        assert strong_values.best_construction(s, tab, 0, wp, w, memo()) == best


@SETTINGS
@given(holdings())
def test_a_building_is_worth_what_it_adds_to_the_bonuses_owned(h):
    """For a building with no bonus of its own, its worth beyond asset value and later use is
    what it adds to the bonus of the buildings owned, exactly; one memo serves every building,
    as in a decision."""
    _, s, tab = h
    w = weights(s["n"])
    shared = memo()
    base = strong_bonuses.bonus_total(s, tab, 0, -1, -1)
    rl = strong_queries.rounds_left(s, tab)
    for b in range(int(tab[R, R_NTYPES])):
        if tab[END_KIND, b] or tab[ONBUILD, b] == ONBUILD_DOLL:
            continue
        use = w[strong_weights.P_UTIL] * min(rl, 4) * strong_values.building_use(s, tab, 0, b, w) \
            if tab[WORKABLE, b] and rl > 0 else 0.0
        added = strong_bonuses.bonus_total(s, tab, 0, b, -1) - base
        assert np.isclose(strong_values.build_value(s, tab, 0, b, 0, w, shared),
                          tab[ASSET, b] + w[strong_weights.P_BONUS] * added + use, rtol=0, atol=1e-9)


def test_farm_village_trades_by_the_numbers_of_its_effect_not_by_glorys():
    """strong's Farm Village choice (take items, or trade items for cards) reads the effect's
    numbers from the table: a variant that draws many cards for the trade trades, one that draws
    none takes the items, whatever the printed card says."""
    from nesim.kernel.api import CTX_WORKPLACE, K_MODE
    from nesim.kernel.tables import EB, EC, MAXOPTS, card_ids

    data = load_game("glory")
    farm = card_ids(data)["farm_village"]
    params = np.array(list(strong.PARAMS.values()))
    answers = {}
    for drawn in (0, 3, 30):
        tab = TABLES["glory"].copy()
        tab[EC, farm] = drawn
        st_ = np.zeros(1, dtype=STATE)
        core.setup(st_[0], tab, 2, 5)
        st_["search"]["playout"][0] = 1  # answer directly
        core.add_to_hand(st_[0], 0, CONS, int(tab[EB, farm]))
        ctx = np.zeros(MAXOPTS, dtype=np.int64)
        ctx[CTX_WORKPLACE] = farm
        opts = np.zeros(MAXOPTS, dtype=np.int64)
        opts[1] = 1
        answers[drawn] = strong.choose(K_MODE, 0, opts, 2, ctx, st_, tab, params)
    assert answers[0] == 0 and answers[30] == 1
