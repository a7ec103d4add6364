"""Scripted strategies: legal in every game, their parameters matter, and they beat random."""

from __future__ import annotations

import numpy as np
import pytest

from nesim.cards import load_game
from nesim.kernel import batch, core
from nesim.reference import replay
from nesim.registry import modules, param_matrix, resolve

GAMES = ("progress", "mecenat", "glory")
SCRIPTED = [name for name in modules() if name != "random"]


def play(game, specs, seeds):
    strategies = [resolve(s) for s in specs]
    params = param_matrix(strategies)
    return batch.play(load_game(game), len(specs), seeds, [s.choose for s in strategies], params, with_log=True)


@pytest.mark.parametrize("name", SCRIPTED)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_strategy_plays_only_legal_decisions(name, game, n):
    games, spec = 300, name
    if n == 1 and name == "strong":  # its solo playouts are slow: a small search takes the same paths
        games, spec = 60, "strong:solo_playouts=4,solo_sub_playouts=4"
    res = play(game, [spec] * n, np.arange(games, dtype=np.uint64))
    assert not res.games[:, 3].any(), "the kernel flagged an illegal choice"
    data = load_game(game)
    for g in range(0, games, games // 5):  # a sample replayed decision by decision in the reference engine
        final = replay(data, res.decision_log(g))
        assert [p.money for p in final.players] == list(res.field(core.F_MONEY)[g])


def win_rate(game, a, b, games=1000):
    """Seat-rotated two-player win rate of strategy a against b."""
    seeds = np.arange(games, dtype=np.uint64)
    first = play(game, [a, b], seeds).field(core.F_RANK)[:, 0] == 1
    second = play(game, [b, a], seeds).field(core.F_RANK)[:, 1] == 1
    return (first.sum() + second.sum()) / (2 * games)


@pytest.mark.parametrize("name", SCRIPTED)
@pytest.mark.parametrize("game", GAMES)
def test_scripted_strategies_beat_random(name, game):
    # measured 0.92-0.99 over 4,000 games for every scripted strategy; a random-like one sits
    # near 0.5 (sd 0.016 at 1,000 games)
    assert win_rate(game, name, "random", games=500) > 0.8


def test_the_wage_reserve_parameter_reaches_greedy():
    seeds = np.arange(1500, dtype=np.uint64)
    careless = play("mecenat", ["greedy:reserve=0"] * 2, seeds).field(core.F_UNPAID).mean()
    careful = play("mecenat", ["greedy:reserve=2"] * 2, seeds).field(core.F_UNPAID).mean()
    assert careful < careless - 0.5, (careful, careless)


def test_the_hiring_parameters_reach_workers():
    seeds = np.arange(1000, dtype=np.uint64)
    never = play("glory", ["workers:hire_until=0"] * 2, seeds).field(core.F_WORKERS).mean()
    eager = play("glory", ["workers:hire_until=6"] * 2, seeds).field(core.F_WORKERS).mean()
    assert never == 2 and eager > 2.5, (never, eager)  # measured 2.96


def test_the_vp_weight_reaches_vp_tokens():
    seeds = np.arange(1000, dtype=np.uint64)
    low = play("mecenat", ["vp_tokens:vp_weight=0"] * 2, seeds).field(core.F_VP_TOKENS).mean()
    high = play("mecenat", ["vp_tokens:vp_weight=6"] * 2, seeds).field(core.F_VP_TOKENS).mean()
    assert high > low + 1, (low, high)


@pytest.mark.parametrize("game", GAMES)
def test_strong_beats_random_and_greedy(game):
    # measured over 4,000 seat-rotated games: vs random 0.995-1.000, vs greedy 0.75 (Progress),
    # 0.87 (Mecenat), 0.77 (Glory); here 0.74 / 0.87 / 0.76; the sd of a rate near 0.75 over
    # 1,200 games is 0.013, so 0.6 is over ten sd below
    assert win_rate(game, "strong", "random", games=300) > 0.9
    assert win_rate(game, "strong", "greedy", games=600) > 0.6


def test_the_hiring_parameters_reach_strong():
    seeds = np.arange(500, dtype=np.uint64)
    never = play("progress", ["strong:hire_until=0"] * 2, seeds).field(core.F_WORKERS).mean()
    default = play("progress", ["strong"] * 2, seeds).field(core.F_WORKERS).mean()
    assert never == 2 and default > 2.5, (never, default)  # measured 2.81
