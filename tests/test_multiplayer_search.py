"""strong's search in games of 2-4 players (``search``, ``search_sub``) and ``expert``, the player
distilled from it (issue #41): their games are legal (they replay in the reference engine with
every option set compared), depend on the seed alone whatever the batching, a searched placement
depends only on what its player has seen, and expert beats one-ply strong by a margin that a
broken or missing fit would not reach."""

from __future__ import annotations

import numpy as np
import pytest

from harness import data
from nesim.kernel import batch, core
from nesim.learn import play_challenger
from nesim.reference import replay
from nesim.registry import game_table, param_matrix, resolve
from test_hidden_information import searched_first_placement
from test_kernel import assert_same_game
from strategies.strong.learned import LEARNED_DIR as LEARNED

GAMES = ["progress", "mecenat", "glory"]
SEARCHED = "strong:search=2,search_sub=1"


def play(game, specs, seeds, with_log=False):
    chosen = [resolve(s) for s in specs]
    return batch.play(data(game), len(specs), np.asarray(seeds, dtype=np.uint64),
                      [c.choose for c in chosen], param_matrix(chosen), with_log=with_log,
                      table=game_table(data(game), chosen))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_searched_and_expert_games_replay_in_the_reference_engine(game, n):
    specs = [SEARCHED, "expert", "strong", SEARCHED][:n]
    seeds = np.arange(3) + 900
    res = play(game, specs, seeds, with_log="options")
    for g in range(len(seeds)):
        assert_same_game(res, g, replay(data(game), res.decision_log(g)))


@pytest.mark.parametrize("n", [2, 4])
def test_searched_games_depend_on_the_seed_alone_not_on_batching_or_order(n):
    specs = [SEARCHED, "expert", "strong", SEARCHED][:n]
    seeds = np.arange(6) * 7919 + 5
    whole = play("mecenat", specs, seeds, with_log=True)
    parts = [play("mecenat", specs, seeds[i:i + 2], with_log=True) for i in range(0, 6, 2)]
    backwards = play("mecenat", specs, seeds[::-1], with_log=True)
    assert np.array_equal(whole.players, np.concatenate([p.players for p in parts]))
    assert np.array_equal(whole.players[::-1], backwards.players)
    assert np.array_equal(whole.logs[::-1], backwards.logs)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [2, 4])
def test_a_searched_placement_depends_only_on_what_the_player_has_seen(game, n):
    """The first placement of a game of n players, searched, with the hidden cards (the deck and
    the other players' hands) as dealt and dealt anew: the same, since every playout deals what
    the player has not seen from its multiset, never from where the cards really are."""
    for seed in range(3):
        first = [searched_first_placement("strong:search=6,search_sub=2", game, n, seed, redeal)
                 for redeal in (False, True)]
        assert first[0] == first[1]


def win_rate(game, n, challenger, against, seeds):
    """The challenger's share of wins with its seat rotated (game g seats it at g mod n)."""
    wins = sum(int((play_challenger(game, n, challenger, against, seat, seeds[seat::n])
                    [:, seat, core.F_RANK] == 1).sum()) for seat in range(n))
    return wins / len(seeds)


@pytest.mark.parametrize("game", [g for g in GAMES if (LEARNED / f"{g}-2p.csv").exists()])
def test_expert_beats_strong_in_two_player_games_by_a_margin_a_broken_fit_would_miss(game):
    """800 two-player games on seeds no fit or scale was chosen on: expert wins well over half
    (measured 0.64-0.69 over 4,000); without its corrections it is strong and wins about half, and
    corrections of the wrong sign or scrambled across cards lose (a mutant run: see the note of
    issue #41)."""
    seeds = np.arange(800, dtype=np.uint64) + 3_000_000
    assert win_rate(game, 2, "expert", "strong", seeds) > 0.58
    assert 0.44 < win_rate(game, 2, "expert:learned_multi=0", "strong", seeds) < 0.56
