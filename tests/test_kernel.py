"""The kernel against the reference engine: every kernel game replays there to the same end.

Each kernel game's decision log is replayed by the reference engine from the same seed: at every
decision the kernel's set of options must be the reference's (same placements, build candidates
and pairs, discards, keeps, modes and sale sets), the choice legal there, and the final state,
the scores, the builds and the per-round pacing figures identical. Comparing the option sets, not
only the choices, is what catches a kernel that offers too few options: a player choosing among
fewer still makes legal choices.
"""

from __future__ import annotations

import numpy as np
import pytest

from harness import data
from nesim.kernel import batch, core
from nesim.kernel.tables import CONS
from nesim.reference import replay
from strategies.random import choose as random_choose

GAMES = ["progress", "mecenat", "glory"]
COUNTS = [1, 2, 3, 4]
DIFF_GAMES = 600  # per game and player count (CI time); the slow test plays 20,000 of each
CHECKED = 60  # of these, replayed with the invariants checked after every decision


def kernel_games(game, n, seeds, with_log=True, table=None):
    return batch.play(data(game), n, seeds, [random_choose] * n, with_log=with_log, table=table)


def assert_same_game(res: batch.BatchResult, g: int, ref) -> None:
    n = res.n_players
    assert res.games[g, 3] == 0, f"kernel error flags {res.games[g, 3]}"
    for p, (score, player) in enumerate(zip(ref.scores, ref.players)):
        row = res.players[g, p]
        expected = {core.F_SCORE: score.total, core.F_BUILDING: score.building_points,
                    core.F_BONUS: score.bonus_points, core.F_MONEY: score.money,
                    core.F_VP_TOKENS: score.vp_tokens, core.F_VP_POINTS: score.vp_points,
                    core.F_UNPAID: score.unpaid_wages, core.F_PENALTY: score.unpaid_penalty,
                    core.F_RANK: score.rank, core.F_WORKERS: player.workers,
                    core.F_BUILDINGS: player.building_count(), core.F_DOLLS: player.dolls,
                    core.F_HAND: player.hand_size()}
        got = {f: int(row[f]) for f in expected}
        assert got == expected, f"seat {p}: kernel {got} != reference {expected}"
        builds = [(int(r), res.data.buildings[int(c)].key)
                  for c, r in zip(res.build_card[g, p], res.build_round[g, p]) if c >= 0]
        assert builds == player.builds
    assert int(res.games[g, 2]) == ref.budget
    assert int(res.games[g, 0]) == next(s.seat for s in ref.scores if s.rank == 1)
    kernel_rounds = [[tuple(int(x) for x in res.rounds[g, r, p]) for p in range(n)]
                     for r in range(len(ref.round_records))]
    assert kernel_rounds == ref.round_records


def differential(game, n, seeds, checked=0, batch_size=500):
    for start in range(0, len(seeds), batch_size):  # batches bound the options logs' memory
        differential_batch(game, n, seeds[start:start + batch_size], max(0, checked - start))


def differential_batch(game, n, seeds, checked):
    res = kernel_games(game, n, seeds, with_log="options")
    for g in range(len(seeds)):
        step = (lambda gm: gm.check_invariants()) if g < checked else None
        ref = replay(data(game), res.decision_log(g), after_step=step)
        assert_same_game(res, g, ref)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", COUNTS)
def test_kernel_games_replay_identically_in_the_reference(game, n):
    differential(game, n, np.arange(DIFF_GAMES, dtype=np.uint64) + 7_000 * n, checked=CHECKED)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", COUNTS)
def test_twenty_thousand_kernel_games_replay_identically(game, n):
    differential(game, n, np.arange(20_000, dtype=np.uint64) + 100_000)


def test_a_kernel_offering_too_few_options_is_caught_though_its_choices_are_legal():
    """A mutant kernel that no longer shares the Stall family at 3 players (only their entries of
    the table row change): its games still replay move by move, since each choice it makes is legal in the
    reference, but the option sets differ at the first turn the second Stall placement is missing."""
    from nesim.kernel.tables import SHARED, build_table
    from nesim.reference.replay import OptionsDiffer
    table = build_table(data("progress"))
    table[SHARED, table[SHARED] == 3] = 0
    seeds = np.arange(300, dtype=np.uint64)
    res = kernel_games("progress", 3, seeds, with_log="options", table=table)
    caught = 0
    for g in range(len(seeds)):
        log = res.decision_log(g)
        options, log.options = log.options, None
        replay(data("progress"), log)  # the choices alone pass
        log.options = options
        try:
            replay(data("progress"), log)
        except OptionsDiffer as err:
            assert err.decision.kind == "PLACE" and "only in the rules ['pub:" in str(err)
            caught += 1
    assert caught > 0


def test_a_tampered_kernel_log_is_refused_at_the_tampered_decision():
    res = kernel_games("glory", 3, np.array([5], dtype=np.uint64))
    log = res.decision_log(0)
    i = next(i for i, d in enumerate(log.decisions) if d[0] == "PLACE" and i > 20)
    log.decisions[i] = (log.decisions[i][0], log.decisions[i][1], "own:temple")
    from nesim.reference import IllegalDecision
    with pytest.raises(IllegalDecision) as err:
        replay(data("glory"), log)
    assert err.value.index == i


@pytest.mark.parametrize("game", GAMES)
def test_results_depend_on_the_seed_alone_not_on_batching_or_order(game):
    seeds = np.arange(300, dtype=np.uint64) * 7919 + 11
    whole = kernel_games(game, 3, seeds, with_log=False)
    parts = [kernel_games(game, 3, seeds[i:i + 70], with_log=False) for i in range(0, 300, 70)]
    order = np.random.default_rng(1).permutation(300)
    shuffled = kernel_games(game, 3, seeds[order], with_log=False)
    assert np.array_equal(whole.players, np.concatenate([p.players for p in parts]))
    assert np.array_equal(whole.rounds, np.concatenate([p.rounds for p in parts]))
    assert np.array_equal(whole.players[order], shuffled.players)
    assert np.array_equal(whole.build_card[order], shuffled.build_card)


def test_a_card_with_no_copies_is_never_built_and_no_recompilation_happens():
    kernel_games("mecenat", 2, np.arange(5, dtype=np.uint64), with_log=False)  # compiled already
    compiled = len(core.play_batch.signatures)
    variant = data("mecenat").with_changes(cards={"food_factory": {"copies": 0}, "potato_field": {"copies": 14}})
    base = batch.play(data("mecenat"), 2, np.arange(2000), [random_choose] * 2)
    changed = batch.play(variant, 2, np.arange(2000), [random_choose] * 2)
    ff = variant.index["food_factory"]
    assert (base.build_card == ff).any()  # it is built in the normal game...
    assert not (changed.build_card == ff).any()  # ...and never without copies
    assert len(core.play_batch.signatures) == compiled


def test_a_wage_change_changes_the_wages_paid_without_recompiling():
    compiled = len(core.play_batch.signatures)
    base = batch.play(data("progress"), 2, np.arange(500), [random_choose] * 2)
    doubled = data("progress").with_changes(rules={"wages": [4, 4, 6, 6, 6, 8, 8, 10, 10]})
    high = batch.play(doubled, 2, np.arange(500), [random_choose] * 2)
    wages = lambda r: r.rounds[:, :9, :2, core.RF_WAGES].sum()
    assert wages(high) > wages(base)
    assert high.rounds[:, :, :2, core.RF_UNPAID].sum() > base.rounds[:, :, :2, core.RF_UNPAID].sum()
    assert len(core.play_batch.signatures) == compiled


def test_kernel_games_keep_counts_sane():
    res = kernel_games("glory", 4, np.arange(3000, dtype=np.uint64), with_log=False)
    assert (res.games[:, 3] == 0).all()
    assert (res.rounds[:, :9, :, :] >= 0).all()
    assert (res.field(core.F_WORKERS) <= 5).all() and (res.field(core.F_WORKERS) >= 2).all()
    assert sorted(np.unique(res.field(core.F_RANK))) == [1, 2, 3, 4]
    assert CONS == 31
