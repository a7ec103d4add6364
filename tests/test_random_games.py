"""Many random games of every game and player count: they end, and the invariants hold throughout.

After every decision: building cards are conserved (each in exactly one place), money is
conserved (Budget + players' money changes only by sales from the supply), no count is negative,
worker caps hold. Each game is then replayed from its decision log to the same scores.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import data
from nesim.reference import DecisionLog, Game, IllegalDecision, RandomPlayer, replay, run_game

GAMES = ["progress", "mecenat", "glory"]
COUNTS = [1, 2, 3, 4]
CHECKED_PER_CONFIG = 80  # invariants after every decision: 3 x 4 x 80 = 960 games
PLAYED_PER_CONFIG = 400  # final checks only: 3 x 4 x 400 = 4,800 more games


def play_checked(game: str, n: int, seed: int, every_step: bool = True) -> Game:
    g = Game(data(game), n, seed)
    return run_game(g, [RandomPlayer(seed * 7 + i) for i in range(n)],
                    after_step=(lambda g: g.check_invariants()) if every_step else None)


def check_final(g: Game) -> None:
    assert g.finished and g.round == g.rules.rounds
    assert sorted(s.rank for s in g.scores) == list(range(1, g.n + 1))
    for s, p in zip(g.scores, g.players):
        assert s.total == s.building_points + s.bonus_points + s.money + s.vp_points - s.unpaid_penalty
        assert s.money == p.money
    if g.n == 1:
        assert g.scores[0].solo_cleared == (g.scores[0].total >= g.rules.solo_target)
    if g.game == "progress":
        assert all(p.vp == 0 and p.dolls == 0 for p in g.players)
    if g.game != "glory":
        assert all(p.dolls == 0 for p in g.players)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", COUNTS)
def test_random_games_keep_the_invariants_and_replay(game, n):
    for seed in range(CHECKED_PER_CONFIG):
        g = play_checked(game, n, seed)
        check_final(g)
        if seed % 4 == 0:
            again = replay(data(game), DecisionLog.from_json(DecisionLog.of(g).to_json()))
            assert [s.as_dict() for s in again.scores] == [s.as_dict() for s in g.scores]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", COUNTS)
def test_thousands_of_random_games_end_well(game, n):
    for seed in range(1_000, 1_000 + PLAYED_PER_CONFIG):
        g = play_checked(game, n, seed, every_step=False)
        g.check_invariants()
        check_final(g)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", COUNTS)
def test_many_random_games_checked_at_every_step(game, n):
    for seed in range(10_000, 12_500):
        check_final(play_checked(game, n, seed))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), n=st.sampled_from(COUNTS), seed=st.integers(0, 2**64 - 1))
def test_any_seed_plays_a_legal_game(game, n, seed):
    check_final(play_checked(game, n, seed))


def test_the_same_seed_and_decisions_give_the_same_game():
    a = run_game(Game(data("mecenat"), 3, 99), [RandomPlayer(i) for i in range(3)])
    b = run_game(Game(data("mecenat"), 3, 99), [RandomPlayer(i) for i in range(3)])
    assert a.log == b.log and [s.total for s in a.scores] == [s.total for s in b.scores]


def test_replay_names_the_first_illegal_decision():
    g = run_game(Game(data("progress"), 2, 5), [RandomPlayer(1), RandomPlayer(2)])
    log = DecisionLog.of(g)
    i = next(i for i, (kind, _, _) in enumerate(log.decisions) if kind == "PLACE" and i > 10)
    log.decisions[i] = ("PLACE", log.decisions[i][1], "pub:99")
    with pytest.raises(IllegalDecision) as err:
        replay(data("progress"), log)
    assert err.value.index == i and "pub:99" in str(err.value)


def test_replay_notices_a_log_that_belongs_to_another_seed():
    g = run_game(Game(data("glory"), 2, 5), [RandomPlayer(1), RandomPlayer(2)])
    log = DecisionLog.of(g)
    log.seed = 6
    with pytest.raises((ValueError, IllegalDecision)):
        replay(data("glory"), log)
