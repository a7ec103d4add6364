"""A strategy written as a priority list over effect kinds (strategies/_common.py: effect_ranks,
by_priority; strategies/priority.py): the first listed kind open wins, money first while short of
wages, options the weights find worse than nothing are passed over; and ``weights`` puts every
named weight where ``decide`` reads it."""

from __future__ import annotations

import numpy as np
import pytest

from nesim.cards import load_game
from nesim.errors import NesimError
from nesim.kernel import core
from nesim.kernel.api import K_PLACE
from nesim.kernel.tables import EFFECT, EFFECT_IDS, STATE, build_table
from strategies._common import (W_BUILD, W_DRAW, W_HIRE, W_HIRE_UNTIL, W_INCOME_CARD, W_LATE_BUILD,
                                W_MONEY, W_RESERVE, W_SET, W_VP, by_priority, effect_ranks, weights)

KIND_OF = {e: kind for kind, e in EFFECT_IDS.items()}


def round_two(money):
    """Progress solo at the start of round 2 (its row: Mine, Carpenter, School and two more),
    seat 0 holding ``money`` and no cards."""
    tab = build_table(load_game("progress"))
    st = np.zeros(1, dtype=STATE)
    core.setup(st[0], tab, 1, 7)
    st[0]["round"] = 2
    core.start_round(st[0], tab)
    st[0]["money"][0] = money
    return st, tab


def greedy_like():
    return weights(reserve=1.0, hire_until=5.0, build=10.0, money=1.0, hire=9.0, draw=1.0, vp=0.5,
                   set_bonus=0.5, income_card=0.5, late_build=1.0)


def place(st, tab, plan, when_short):
    opts = np.arange(st[0]["pub_n"], dtype=np.int64)
    ctx = np.zeros(64, dtype=np.int64)
    return by_priority(K_PLACE, 0, opts, len(opts), ctx, st, tab, effect_ranks(plan),
                       effect_ranks(when_short), greedy_like())


def test_effect_ranks_follow_the_list_and_refuse_an_unknown_kind():
    ranks = effect_ranks(("money", "draw"))
    assert ranks[EFFECT_IDS["money"]] == 0 and ranks[EFFECT_IDS["draw"]] == 1
    others = [e for e in EFFECT_IDS.values() if e not in (EFFECT_IDS["money"], EFFECT_IDS["draw"])]
    assert (ranks[others] == 2).all()  # unlisted kinds after the list, all equal
    with pytest.raises(NesimError, match="'mony'"):
        effect_ranks(("mony",))
    with pytest.raises(NesimError, match="'vp_on_build'"):  # a lock card's effect is no workplace
        effect_ranks(("vp_on_build",))


def test_the_first_listed_kind_wins_and_the_short_list_rules_while_short_of_wages():
    rich, tab = round_two(100)
    poor, _ = round_two(0)
    kinds = [KIND_OF[int(tab[EFFECT, core.option_card(rich[0], v)])] for v in range(rich[0]["pub_n"])]
    assert kinds[:3] == ["mine_draw", "construct", "hire"]
    for i, kind in enumerate(kinds):
        if kinds.count(kind) == 1 and kind != "construct":  # no cards in hand: nothing to build
            assert place(rich, tab, (kind,), ()) == i, kind  # not short: the plan decides
            if kind != "hire":  # (a hire with no money for its wages is passed over)
                assert place(poor, tab, (), (kind,)) == i, kind  # short: the short list decides


def test_a_hire_whose_wages_the_money_cannot_meet_is_passed_over():
    poor, tab = round_two(0)
    assert place(poor, tab, ("hire", "mine_draw"), ("hire", "mine_draw")) == 0  # the Mine, not School
    rich, _ = round_two(100)
    assert place(rich, tab, ("hire", "mine_draw"), ("hire", "mine_draw")) == 2


def test_weights_puts_each_named_weight_where_decide_reads_it():
    w = weights(reserve=0.0, hire_until=1.0, build=2.0, money=3.0, hire=4.0, draw=5.0, vp=6.0,
                set_bonus=7.0, income_card=8.0, late_build=9.0)
    at = [W_RESERVE, W_HIRE_UNTIL, W_BUILD, W_MONEY, W_HIRE, W_DRAW, W_VP, W_SET, W_INCOME_CARD,
          W_LATE_BUILD]
    assert [w[i] for i in at] == list(range(10))
