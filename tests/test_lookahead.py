"""The kernel's lookahead: a strategy may answer a placement with LOOKAHEAD and let playouts choose.

The playouts run on a scratch copy of the game, so the game itself must come out exactly as if the
strategy had picked the same option directly; the choice must follow the playouts' values; and
games played this way must replay in the reference engine like any other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from harness import data
from nesim.kernel import batch, core, search
from nesim.kernel.api import (CTX_CANDIDATES, CTX_NEST, CTX_PLAYOUTS, CTX_PRIOR, CTX_PRIOR_AT,
                              CTX_SHORT, K_BUILD, K_DISCARD, K_KEEP, K_PLACE, K_SELL, LOOKAHEAD,
                              STRATEGY_SIG, in_playout, sale_price, without_spare)
from nesim.kernel.tables import SEARCH
from nesim.reference import replay
from strategies.random import choose as random_choose

ROOT = Path(__file__).resolve().parents[1]


@njit(STRATEGY_SIG)
def first_placement(kind, seat, opts, n, ctx, st, tab, params):
    """Random, except that every placement takes the first option."""
    if kind == K_PLACE:
        return 0
    return random_choose(kind, seat, opts, n, ctx, st, tab, params)


@njit(STRATEGY_SIG)
def first_choices(kind, seat, opts, n, ctx, st, tab, params):
    """Random, except that placements, builds, discards and Design Office take the first option."""
    if kind == K_PLACE or kind == K_BUILD or kind == K_DISCARD or kind == K_KEEP:
        return 0
    return random_choose(kind, seat, opts, n, ctx, st, tab, params)


@njit(STRATEGY_SIG)
def searching(kind, seat, opts, n, ctx, st, tab, params):
    """Random, except that outside playouts it answers LOOKAHEAD with params[0] playouts and the
    candidate mask params[1], to placements and, when params[2] is set, to builds, discards and
    Design Office picks as well."""
    within = kind == K_BUILD or kind == K_DISCARD or kind == K_KEEP
    searched = kind == K_PLACE or (params[2] > 0 and within)
    if not in_playout(st[0]) and searched:
        ctx[CTX_PLAYOUTS] = int(params[0])
        ctx[CTX_CANDIDATES] = int(params[1])
        return LOOKAHEAD
    return random_choose(kind, seat, opts, n, ctx, st, tab, params)


def play(game, n, seeds, fn, playouts=4, only_first=False, deep=False):
    """Plays with fn at every seat; for ``searching``: its playouts, a lookahead whose only
    candidate is the first option, and whether decisions within turns are searched too."""
    params = np.zeros((4, 16))
    params[:, :3] = playouts, 1 if only_first else 0, 1 if deep else 0
    return batch.play(data(game), n, np.asarray(seeds, dtype=np.uint64), [fn] * n, params,
                      with_log=True)


@pytest.mark.parametrize("game", ["progress", "mecenat", "glory"])
@pytest.mark.parametrize("n", [1, 3])
def test_playouts_leave_the_game_untouched(game, n):
    seeds = np.arange(40)
    direct = play(game, n, seeds, first_placement)
    looked = play(game, n, seeds, searching, playouts=3, only_first=True)
    assert not looked.games[:, 3].any()
    np.testing.assert_array_equal(direct.players, looked.players)
    np.testing.assert_array_equal(direct.rounds, looked.rounds)
    np.testing.assert_array_equal(direct.logs, looked.logs)


@pytest.mark.parametrize("game", ["progress", "mecenat", "glory"])
@pytest.mark.parametrize("n", [1, 2])
def test_searching_decisions_within_a_turn_leaves_the_game_untouched(game, n):
    """Every decision of a turn (and of a payday) replayed from the turn's start, one searched
    answer at a time, must give the very game of answering directly."""
    seeds = np.arange(30)
    direct = play(game, n, seeds, first_choices)
    looked = play(game, n, seeds, searching, playouts=2, only_first=True, deep=True)
    assert not looked.games[:, 3].any()
    np.testing.assert_array_equal(direct.players, looked.players)
    np.testing.assert_array_equal(direct.logs, looked.logs)


def test_searching_builds_and_discards_beats_searching_placements_alone():
    seeds = np.arange(30)
    placements = play("progress", 1, seeds, searching, playouts=4).field(core.F_SCORE).mean()
    deep = play("progress", 1, seeds, searching, playouts=4, deep=True).field(core.F_SCORE).mean()
    assert deep > placements + 10


@pytest.mark.parametrize("game", ["progress", "glory"])
def test_lookahead_chooses_by_playout_value(game):
    """Random play scores far below zero in solo (unpaid wages); choosing each placement by
    playouts, even playouts of random play, avoids most of that."""
    seeds = np.arange(30)
    base = play(game, 1, seeds, random_choose).field(core.F_SCORE).mean()
    few = play(game, 1, seeds, searching, playouts=1).field(core.F_SCORE).mean()
    more = play(game, 1, seeds, searching, playouts=8).field(core.F_SCORE).mean()
    assert few > base + 30
    assert more > few + 10


@njit(STRATEGY_SIG)
def first_by_prior(kind, seat, opts, n, ctx, st, tab, params):
    """``searching`` (params[0] playouts, params[2]: builds, discards and keeps searched too),
    with a prior of params[3] thousandths of a point on the first option against every other."""
    within = kind == K_BUILD or kind == K_DISCARD or kind == K_KEEP
    searched = kind == K_PLACE or (params[2] > 0 and within)
    if not in_playout(st[0]) and searched:
        ctx[CTX_PLAYOUTS] = int(params[0])
        ctx[CTX_CANDIDATES] = 0
        ctx[CTX_PRIOR] = 1
        for i in range(n):
            ctx[CTX_PRIOR_AT + i] = 0 if i == 0 else -int(params[3])
        return LOOKAHEAD
    return random_choose(kind, seat, opts, n, ctx, st, tab, params)


@pytest.mark.parametrize("game", ["progress", "glory"])
@pytest.mark.parametrize("deep", [False, True])
def test_a_prior_ranks_the_candidates_with_their_playouts(game, deep):
    """A prior far above any playout difference decides every searched decision: the game is the
    one played by taking the first option there. A small one leaves the playouts to decide."""
    seeds = np.arange(6)
    first = play(game, 1, seeds, first_choices if deep else first_placement)
    params = np.zeros((4, 16))
    params[:, 0] = 3
    params[:, 2] = deep
    params[:, 3] = 10 ** 9
    by_prior = batch.play(data(game), 1, seeds.astype(np.uint64), [first_by_prior], params, with_log=True)
    np.testing.assert_array_equal(first.players, by_prior.players)
    np.testing.assert_array_equal(first.logs, by_prior.logs)
    params[:, 3] = 1
    by_playouts = batch.play(data(game), 1, seeds.astype(np.uint64), [first_by_prior], params, with_log=True)
    assert not np.array_equal(first.logs, by_playouts.logs)


def test_lookahead_games_replay_in_the_reference_engine():
    res = play("mecenat", 2, np.arange(6), searching, playouts=2)
    assert not res.games[:, 3].any()
    for g in range(6):
        final = replay(data("mecenat"), res.decision_log(g))
        assert [p.money for p in final.players] == list(res.field(core.F_MONEY)[g])
        assert [p.vp for p in final.players] == list(res.field(core.F_VP_TOKENS)[g])


def test_lookahead_is_reproducible():
    a = play("progress", 1, np.arange(10), searching, playouts=3)
    b = play("progress", 1, np.arange(10), searching, playouts=3)
    np.testing.assert_array_equal(a.players, b.players)
    np.testing.assert_array_equal(a.logs, b.logs)


def finished_game(game, players, unpaid):
    tab = batch.build_table(data(game))
    st = np.zeros(1, dtype=batch.STATE)
    core.setup(st[0], tab, players, 11)
    st["money"][0, :players] = [7, 3, 0, 0][:players]
    st["unpaid"][0, :players] = unpaid
    return st[0], tab


@pytest.mark.parametrize("game", ["progress", "glory"])
def test_a_solo_playout_gives_back_a_quarter_of_the_unpaid_wages_it_adds(game):
    """The cards held when the search began count in full; those the playout added at 3/4."""
    out = np.zeros(core.NPF, dtype=np.int32)
    s, tab = finished_game(game, 1, [5])
    value = search.playout_value(s, tab, 0, out, 2)
    assert out[core.F_SCORE] == 7 - 15
    assert value == 4 * (7 - 15) + 3 * 3  # in quarter points: a quarter of the 3 added cards' 9 back
    assert search.playout_value(s, tab, 0, out, 5) == 4 * (7 - 15)


def test_a_multiplayer_playout_is_worth_the_lead_over_the_best_opponent():
    out = np.zeros(core.NPF, dtype=np.int32)
    s, tab = finished_game("progress", 2, [0, 4])
    assert search.playout_value(s, tab, 0, out, 0) == 7 - (3 - 12)
    assert search.playout_value(s, tab, 1, out, 0) == (3 - 12) - 7


# ---------------------------------------------------------------------------- nested playouts

@njit(STRATEGY_SIG)
def nesting(kind, seat, opts, n, ctx, st, tab, params):
    """``searching`` that also asks for nested playouts over params[3] rounds."""
    within = kind == K_BUILD or kind == K_DISCARD or kind == K_KEEP
    searched = kind == K_PLACE or (params[2] > 0 and within)
    if not in_playout(st[0]) and searched:
        ctx[CTX_PLAYOUTS] = int(params[0])
        ctx[CTX_CANDIDATES] = int(params[1])
        ctx[CTX_NEST] = int(params[3])
        return LOOKAHEAD
    return random_choose(kind, seat, opts, n, ctx, st, tab, params)


def play_nested(game, n, seeds, playouts, rounds, only_first=False, deep=False):
    params = np.zeros((4, 16))
    params[:, :4] = playouts, 1 if only_first else 0, 1 if deep else 0, rounds
    return batch.play(data(game), n, np.asarray(seeds, dtype=np.uint64), [nesting] * n, params,
                      with_log=True)


@pytest.mark.parametrize("game", ["progress", "glory"])
def test_nested_playouts_leave_the_game_untouched(game):
    seeds = np.arange(8)
    direct = play(game, 1, seeds, first_choices)
    nested = play_nested(game, 1, seeds, playouts=1, rounds=9, only_first=True, deep=True)
    assert not nested.games[:, 3].any()
    np.testing.assert_array_equal(direct.players, nested.players)
    np.testing.assert_array_equal(direct.logs, nested.logs)


def test_nested_games_replay_in_the_reference_engine():
    res = play_nested("glory", 1, np.arange(3), playouts=1, rounds=2, deep=True)
    assert not res.games[:, 3].any()
    for g in range(3):
        final = replay(data("glory"), res.decision_log(g))
        assert final.players[0].money == res.field(core.F_MONEY)[g, 0]
        assert final.players[0].vp == res.field(core.F_VP_TOKENS)[g, 0]


def checkpoint(game, seed):
    """A solo game at its first placement, kept as the lookahead's checkpoint, with the scratch
    state, buffers and strategies a playout needs."""
    tab = batch.build_table(data(game))
    st = np.zeros(search.LOOKAHEAD_STATES, dtype=batch.STATE)
    core.setup(st[0], tab, 1, seed)
    st[0]["round"] = 1
    core.start_round(st[0], tab)
    st[2] = st[0]
    buf = np.zeros((search.LOOKAHEAD_ROWS, batch.MAXOPTS), dtype=np.int64)
    return st, tab, (random_choose,) * 4, np.zeros((4, 4)), np.zeros(0, dtype=np.int32), buf


@pytest.mark.parametrize("game", ["progress", "glory"])
def test_a_nested_playout_keeps_one_sampled_future_for_every_line(game):
    """Replaying a playout's whole line as a script must meet the same future and give the same
    value: the sampled deck begins right after the candidate, however long the script is."""
    for seed in range(5):
        st, tab, fns, params, log, buf = checkpoint(game, seed)
        luck = np.uint64(1000 + seed)
        first = search.scripted_playout(st, tab, fns, params, log, buf, search.CK_TURN, 0, 0, 0, luck,
                                      buf[10], 0, 9)
        line = buf[10].copy()
        m = search.kept_line(st[1], st["search"]["prefix_n"][0] + 1, line, buf[11])
        assert m > 10
        again = search.scripted_playout(st, tab, fns, params, log, buf, search.CK_TURN, 0, 0, 0, luck,
                                      line, m, 9)
        assert again == first
        assert st["search"]["prefix_n"][1] == m + 1


def test_a_nested_playout_is_worth_at_least_its_first_line():
    better = 0
    for seed in range(5):
        st, tab, fns, params, log, buf = checkpoint("glory", seed)
        luck = np.uint64(77 + seed)
        first = search.scripted_playout(st, tab, fns, params, log, buf, search.CK_TURN, 0, 0, 0, luck,
                                      buf[10], 0, 9)
        best = search.nested_playout(st, tab, fns, params, log, buf, search.CK_TURN, 0, 0, 0, luck, 9)
        assert best >= first
        better += best > first + 4 * 20
    assert better >= 4


@njit(STRATEGY_SIG)
def positional(kind, seat, opts, n, ctx, st, tab, params):
    """A policy without random numbers: its answer depends on the position alone, so a line's
    continuation is the same however the line got there."""
    s = st[0]
    if kind == K_SELL:
        total = 0
        for i in range(n):
            total += sale_price(s, tab, opts[i])
        return without_spare(s, tab, opts, n, (1 << n) - 1, total, ctx[CTX_SHORT])
    h = core.mix64(np.uint64(s.round * 7919 + s.money[seat] * 104729 + s.hand_n[seat] * 131
                             + s.placed[seat] * 17 + kind * 5 + n))
    return np.int64((h >> np.uint64(33)) % np.uint64(n))


@pytest.mark.parametrize("game", ["progress", "glory"])
def test_no_single_change_improves_a_nested_line(game):
    """Level-1 nested search takes decisions in order and a kept line only changes later ones, so
    with a policy that draws no random numbers every one-decision change of the line it returns
    (the policy playing on) was tried: none may beat it, however much longer or shorter than the
    first line the kept one is."""
    rounds = 9
    # Glory seeds 4 and 5 and Progress seed 4 broke this while only the first line's length was
    # searched: their kept lines grow, and the decisions past the first line's end went untried
    for seed in range(6):
        st, tab, _, params, log, buf = checkpoint(game, seed)
        fns = (positional,) * 4
        luck = np.uint64(300 + seed)
        best, m = search.nested_line(st, tab, fns, params, log, buf, search.CK_TURN, 0, 0, 0, luck,
                                   rounds)
        line, opts = buf[10][:m].copy(), buf[11][:m].copy()
        assert m > 3 and (opts > 1).any()
        assert search.scripted_playout(st, tab, fns, params, log, buf, search.CK_TURN, 0, 0, 0, luck,
                                     line, m, rounds) == best
        for t in range(m):
            for b in range(opts[t]):
                if b != line[t]:
                    trial = line.copy()
                    trial[t] = b
                    assert search.scripted_playout(st, tab, fns, params, log, buf, search.CK_TURN, 0,
                                                 0, 0, luck, trial, t + 1, rounds) <= best, (seed, t, b)


# ---------------------------------------------------------------------------- the seam

def attributes(path):
    """Every ``x.name`` in a source file, as (what x is, name)."""
    tree = ast.parse(path.read_text())
    return [(ast.unparse(node.value), node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)]


def test_the_rules_reach_the_search_only_through_its_seam():
    """core.py calls search.<name> for the names of search.SEAM only, and never reads the search
    record itself (``s.search`` or a field of it on a state)."""
    found = attributes(ROOT / "nesim/kernel/core.py")
    used = {name for value, name in found if value == "search"}
    assert used and used <= set(search.SEAM), used - set(search.SEAM)
    fields = set(SEARCH.names) | {"search"}
    assert not [(v, n) for v, n in found if n in fields and v != "search"]


def test_strategies_ask_the_search_through_the_api_only():
    for path in [*sorted((ROOT / "strategies").glob("*.py")), ROOT / "nesim/learn.py"]:
        assert not [n for v, n in attributes(path) if n == "search"], path
        assert "nesim.kernel.search" not in path.read_text(), path
