"""Players see only what a player sees (RULES-NOTES: the deck order and the other players' hands
are hidden; everything else is public).

Every registered strategy, in every game and player count, is asked each decision twice: in the
game, and in a copy whose hidden part is dealt anew (search.deal_unseen: the deck in another order,
the other players' building cards redrawn from the unseen ones, each hand keeping its size and
its consumer items). A strategy that reads only what its player can see answers the same, and
makes the same search request. The search itself is held to the same: a searched placement
depends on the seed of its sampled futures, never on the true order of the unseen cards.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from harness import data
from nesim.kernel import batch, core, search
from nesim.kernel.api import STRATEGY_SIG, in_game
from nesim.kernel.tables import CONS, MAXOPTS, STATE
from nesim.registry import game_table, modules, param_matrix, resolve

PEEKED = 1 << 28  # an error flag the kernel never sets: a decision changed with the hidden cards
GAMES = ["progress", "mecenat", "glory"]


@njit
def deal_again(alt, tab, seat):
    """alt[0] with what ``seat`` cannot see dealt anew, its generator left as it was."""
    s = alt[0]
    rng = s.rng
    s.rng = core.mix64(rng ^ np.uint64(0x5EED))
    search.deal_unseen(s, tab, seat)
    s.rng = rng


def peek_checked(inner):
    """``inner`` asked twice at each decision of the game itself (not in search playouts): the
    answer given is the game's; a different answer or request in the re-dealt copy sets PEEKED."""
    @njit(STRATEGY_SIG)
    def choose(kind, seat, opts, n, ctx, st, tab, params):
        if not in_game(st[0]):
            return inner(kind, seat, opts, n, ctx, st, tab, params)
        alt = st.copy()
        alt_ctx = ctx.copy()
        alt_opts = opts.copy()
        a = inner(kind, seat, opts, n, ctx, st, tab, params)
        deal_again(alt, tab, seat)
        b = inner(kind, seat, alt_opts, n, alt_ctx, alt, tab, params)
        same = a == b
        for i in range(ctx.shape[0]):
            same = same and ctx[i] == alt_ctx[i]
        if not same:
            st[0].error |= PEEKED
        return a
    return choose


# strong searches every solo turn (about a second a game): fewer solo games for it
def games_for(name, n):
    return 2 if (name == "strong" and n == 1) else 40


@pytest.mark.parametrize("name", sorted(modules()))
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_every_strategy_decides_the_same_with_the_hidden_cards_dealt_anew(name, n):
    spec = resolve(name)
    choose = peek_checked(spec.choose)
    for game in GAMES:
        table = game_table(data(game), [spec])
        seeds = np.arange(games_for(name, n), dtype=np.uint64) + 500
        res = batch.play(data(game), n, seeds, [choose] * n, param_matrix([spec] * n), table=table)
        flags = res.games[:, 3]
        assert not (flags & PEEKED).any(), f"{name} in {game} {n}p peeks at hidden cards"
        assert not (flags & ~PEEKED).any(), f"kernel error flags {set(flags.tolist())}"


def test_the_check_catches_a_strategy_that_reads_the_deck():
    """A mutant that places on the first option when the top card of the deck is of an even
    type, else the last: it must be caught in every game."""
    @njit(STRATEGY_SIG)
    def clairvoyant(kind, seat, opts, n, ctx, st, tab, params):
        s = st[0]
        if kind == core.K_SELL:
            return (1 << n) - 1 if n < 62 else 0
        return 0 if s.deck[s.deck_n - 1] % 2 == 0 else n - 1
    choose = peek_checked(clairvoyant)
    for game in GAMES:
        res = batch.play(data(game), 2, np.arange(5, dtype=np.uint64), [choose] * 2)
        assert (res.games[:, 3] & PEEKED).any()


@pytest.mark.parametrize("game", GAMES)
def test_the_deal_keeps_every_count_a_player_can_see(game):
    """search.deal_unseen moves cards between the deck and the other players' hands only: hand sizes,
    consumer items, the searching seat's own hand and the multiset of unseen cards are kept."""
    tab = game_table(data(game), [])
    st = np.zeros(1, dtype=STATE)
    core.setup(st[0], tab, 3, 11)
    core.add_to_hand(st[0], 1, CONS, 2)
    before = st.copy()
    deal_again(st, tab, 0)
    s, b = st[0], before[0]
    assert (s["hand_n"] == b["hand_n"]).all() and (s["hand"][0] == b["hand"][0]).all()
    assert (s["hand"][:, CONS] == b["hand"][:, CONS]).all()
    unseen = lambda x: np.bincount(np.concatenate([x["deck"][:x["deck_n"]]] + [  # noqa: E731
        np.repeat(np.arange(CONS), x["hand"][q, :CONS]) for q in (1, 2)]), minlength=CONS + 1)
    assert (unseen(s) == unseen(b)).all()
    assert s["deck_n"] == b["deck_n"]
    assert not (s["deck"][:s["deck_n"]] == b["deck"][:b["deck_n"]]).all()  # dealt anew


def searched_first_placement(spec_text, game, n, seed, redeal):
    """The first placement a searching strategy chooses in a game of n players (the start
    player's, in round 1), with what that player cannot see as dealt or dealt anew."""
    spec = resolve(spec_text)
    tab = game_table(data(game), [spec])
    params = param_matrix([spec] * n)
    fns = (spec.choose,) * 4
    buf = np.zeros((search.LOOKAHEAD_ROWS, MAXOPTS), dtype=np.int64)
    st = np.zeros(search.LOOKAHEAD_STATES, dtype=STATE)
    core.setup(st[0], tab, n, seed)
    st[0]["round"] = 1
    core.start_round(st[0], tab)
    seat = int(st[0]["start_player"])
    if redeal:
        deal_again(st, tab, seat)
    k = core.placement_options(st[0], tab, seat, buf[0], buf[1])
    search.plan_turn(st, tab, fns, params, np.zeros(0, dtype=np.int32), buf, seat, k)
    return int(st[0]["search"]["prefix"][0])


@pytest.mark.parametrize("game", GAMES)
def test_a_searched_placement_does_not_depend_on_the_true_deck_order(game):
    """strong's searched first placement of a solo game, with the deck as dealt and in another
    order: the same, since every playout deals the unseen cards anew from their multiset."""
    for seed in range(3):
        first = [searched_first_placement("strong:solo_playouts=8", game, 1, seed, redeal)
                 for redeal in (False, True)]
        assert first[0] == first[1]
