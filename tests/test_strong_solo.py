"""strong in solo: its round plan follows the blocking rule, and its playouts score well."""

from __future__ import annotations

import numpy as np
import pytest

from nesim.cards import load_game
from nesim.kernel import batch, core
from nesim.kernel.tables import STATE, build_table
from nesim.registry import param_matrix, resolve
from strategies import strong


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
    assert strong.plan_value(s, tab, 0, opts, 5, gains, 2, 3) == 6.0
    # the Mine is never blocked once occupied and takes any number of units
    gains = np.array([3.0, 0.0, 0.0, 0.0, 0.0])
    assert strong.plan_value(s, tab, 0, opts, 5, gains, 2, 3) == 6.0
    # an older card is still there after the newest one was taken
    gains = np.array([0.0, 0.0, 4.0, 0.0, 6.0])
    assert strong.plan_value(s, tab, 0, opts, 5, gains, 2, 3) == 10.0
    assert s["pub_side"][:5].sum() == 0 and s["pub_plc"][:5].sum() == 0  # the state is restored


# solo mean scores of the round plan alone (solo_playouts=0) over 3,000 games (seeds 0..):
# 38.3 / 58.4 / 19.9, before the solo rules 23.1 / 32.7 / 6.0; the sd of a mean over 1,000 games
# is about 0.7.
# With the default lookahead (16 playouts per candidate placement, 8 per candidate build, discard
# or keep), over 40 games (seeds 0..39): 90.9 / 109.8 / 53.8 (over 4,000 games 83.5 / 110 / 55);
# searching placements alone gave 65 / 100 / 46 over 100 games. The sd of a mean over 40 games is
# about 4 (Progress, Glory) and 6 (Mecenat), so each floor is about 3 sd below and far above the
# plan alone.
FLOORS = {
    ("strong:solo_playouts=0", 1000): {"progress": 30.0, "mecenat": 45.0, "glory": 15.0},
    ("strong", 40): {"progress": 78.0, "mecenat": 90.0, "glory": 42.0},
}


@pytest.mark.parametrize("game", ["glory", "mecenat", "progress"])
@pytest.mark.parametrize("spec, games", sorted(FLOORS))
def test_strong_solo_score(spec, games, game):
    s = resolve(spec)
    seeds = np.arange(games, dtype=np.uint64)
    res = batch.play(load_game(game), 1, seeds, [s.choose], param_matrix([s]))
    assert not res.games[:, 3].any()
    assert res.field(core.F_SCORE).mean() > FLOORS[spec, games][game]
