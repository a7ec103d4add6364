"""strong in solo: its round plan follows the blocking rule, and its playouts score well."""

from __future__ import annotations

import numpy as np
import pytest

from nesim.cards import load_game
from nesim.kernel import batch, core
from nesim.kernel.tables import STATE, build_table
from nesim.registry import param_matrix, resolve
from strategies import strong
from strategies.strong import solo as strong_solo
from strategies.strong import values as strong_values
from strategies.strong import weights as strong_weights


def solo_round_two(game="progress"):
    """A solo state at the start of round 2: the row is Mine, Carpenter, School, A, Stall."""
    tab = build_table(load_game(game))
    st = np.zeros(1, dtype=STATE)
    core.setup(st[0], tab, 1, 7)
    st[0]["round"] = 2
    core.start_round(st[0], tab)
    assert st[0]["pub_n"] == 5
    return st[0], tab


def test_the_plan_knows_the_newest_free_card_gets_blocked():
    s, tab = solo_round_two()
    opts = np.arange(5, dtype=np.int64)
    # A and Stall are the two newest cards: whichever is taken first, the other is blocked
    gains = np.array([0.0, 0.0, 0.0, 5.0, 6.0])
    assert strong_solo.plan_value(s, tab, 0, opts, 5, gains, 2, 3) == 6.0
    # the Mine is never blocked once occupied and takes any number of units
    gains = np.array([3.0, 0.0, 0.0, 0.0, 0.0])
    assert strong_solo.plan_value(s, tab, 0, opts, 5, gains, 2, 3) == 6.0
    # an older card is still there after the newest one was taken
    gains = np.array([0.0, 0.0, 4.0, 0.0, 6.0])
    assert strong_solo.plan_value(s, tab, 0, opts, 5, gains, 2, 3) == 10.0
    assert s["pub_side"][:5].sum() == 0 and s["pub_plc"][:5].sum() == 0  # the state is restored


# solo mean scores of the round plan alone (solo_playouts=0) over 3,000 games (seeds 0..):
# 38.3 / 58.4 / 19.9, before the solo rules 23.1 / 32.7 / 6.0; the sd of a mean over 1,000 games
# is about 0.7.
# With the default lookahead (64 playouts per candidate placement, 32 per candidate build, discard
# or keep, weights jittered by 0.3 in each playout), over 200 games (seeds 0..199):
# 101.0 / about 130 / 68.1, and 105.1 / 137.4 / 64.0 over the 30 games here (seeds 0..29); the
# earlier default of 16 and 8 playouts gave 88.9 / 117.9 / 57.5 over the same 200 games. The sd
# of a mean over 30 games is about 5 (Progress), 6 (Mecenat) and 4 (Glory), so each floor is
# about 3 sd below the 200-game mean and far above the plan alone.
FLOORS = {
    ("strong:solo_playouts=0", 1000): {"progress": 30.0, "mecenat": 45.0, "glory": 15.0},
    ("strong", 30): {"progress": 85.0, "mecenat": 108.0, "glory": 56.0},
}


@pytest.mark.parametrize("game", ["glory", "mecenat", "progress"])
@pytest.mark.parametrize("spec, games", sorted(FLOORS))
def test_strong_solo_score(spec, games, game):
    s = resolve(spec)
    seeds = np.arange(games, dtype=np.uint64)
    res = batch.play(load_game(game), 1, seeds, [s.choose], param_matrix([s]))
    assert not res.games[:, 3].any()
    assert res.field(core.F_SCORE).mean() > FLOORS[spec, games][game]


def test_jitter_scales_each_continuous_weight_within_its_share():
    params = np.array(list(strong.PARAMS.values()))
    w0 = np.empty_like(params)
    strong_weights.fill_weights(w0, params, True)
    assert (w0[:strong_weights.SOLO_SCALE.shape[0]] == params[:strong_weights.SOLO_SCALE.shape[0]] * strong_weights.SOLO_SCALE).all()
    share = 0.3
    ratios = []
    for luck in (1, 2, 12345, 2**63 + 7):
        w = w0.copy()
        strong_weights.jitter(w, np.uint64(luck), share)
        ratio = w[:strong_weights.SOLO_SCALE.shape[0]] / w0[:strong_weights.SOLO_SCALE.shape[0]]
        thresholds = [strong_weights.P_HIRE_UNTIL, strong_weights.P_MAX_WORKERS]
        assert (ratio[thresholds] == 1.0).all()  # round and worker limits stay as they are
        assert ((ratio >= 1 - share) & (ratio <= 1 + share)).all()
        assert (w[strong_weights.SOLO_SCALE.shape[0]:] == w0[strong_weights.SOLO_SCALE.shape[0]:]).all()
        again = w0.copy()
        strong_weights.jitter(again, np.uint64(luck), share)
        assert (again == w).all()  # a playout's weights follow from its seed alone
        ratios.append(np.delete(ratio, thresholds))
    ratios = np.array(ratios)
    assert (np.abs(ratios - 1) > 0.01).mean() > 0.8  # most weights really move
    assert len({tuple(r) for r in ratios}) == len(ratios)  # every seed its own weights
    assert ratios.min() < 0.85 and ratios.max() > 1.15  # the whole range is used


def play_scores(game, players, spec, seeds):
    s = resolve(spec)
    res = batch.play(load_game(game), players, seeds, [s.choose] * players,
                     param_matrix([s] * players))
    assert not res.games[:, 3].any()
    return res.field(core.F_SCORE)


@pytest.mark.parametrize("game", ["glory", "mecenat", "progress"])
def test_jitter_changes_only_the_playouts(game):
    many = np.arange(300, dtype=np.uint64)
    # no playouts (the round plan, or 2 players): the same games with any jitter
    assert (play_scores(game, 1, "strong:solo_playouts=0,solo_jitter=0", many)
            == play_scores(game, 1, "strong:solo_playouts=0,solo_jitter=0.3", many)).all()
    assert (play_scores(game, 2, "strong:solo_jitter=0", many)
            == play_scores(game, 2, "strong:solo_jitter=0.3", many)).all()
    # with playouts the search sees other continuations, and some game goes another way
    few = np.arange(4, dtype=np.uint64)
    assert (play_scores(game, 1, "strong:solo_sub_playouts=0,solo_jitter=0", few)
            != play_scores(game, 1, "strong:solo_sub_playouts=0,solo_jitter=0.3", few)).any()


def test_a_mechanical_doll_is_worth_the_wage_free_actions_it_has_left():
    data = load_game("glory")
    tab = build_table(data)
    keys = [b.key for b in data.buildings]
    doll, plain = keys.index("mechanical_doll"), keys.index("relics")
    st = np.zeros(1, dtype=STATE)
    core.setup(st[0], tab, 2, 7)
    w = np.array(list(strong.PARAMS.values()))
    without = w.copy()
    without[strong_weights.P_DOLL] = 0.0

    def value(card, weights):
        memo = np.full(strong_values.WORTH_SIZE, np.nan)
        return strong_values.build_value(st[0], tab, 0, card, 3, weights, memo)

    extra = []
    for rnd in (1, 5, 9):
        st[0]["round"] = rnd
        extra.append(value(doll, w) - value(doll, without))
        assert value(plain, w) == value(plain, without)  # other buildings are valued as before
    assert extra[0] > extra[1] > extra[2] > 0  # fewer rounds left, fewer free actions
    assert extra[0] >= 8 * w[strong_weights.P_ACTION]  # eight later rounds of one more action
