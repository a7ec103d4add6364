"""How far could a solo game go if the player knew the whole deck? A search that sees the future.

    .venv/bin/python experiments/clairvoyant_search.py --game glory --level 2 --first 5000 --count 40

For each seed it plays the solo game by a nested Monte Carlo search (Cazenave 2009) over every
decision of the game (placements, builds, discards, Design Office picks, Farm Village's mode;
payday sales are left to the policy), in the seed's own deck order: the search sees every card
before it is drawn. Level 0 is strong's one-ply policy played straight through; level L tries, at
each decision in turn, every option followed by a level L-1 search, and keeps the best line found
so far. Every line is a whole game replayed from the deal (about 70 microseconds), so level 2
costs some tens of thousands of games per seed (seconds) and level 3 about a hundred times more
(minutes).

The scores are not what a player could make: they use knowledge no player has. They are a
yardstick for the solo targets. A target that even this search seldom reaches asks more of an
honest strategy than search over strong's policy can give, and the distance between this search
and the honest one shows how much of the gap is the hidden deck. It prints one line per seed
(the seed, the policy's score, the searched score, the decisions in the searched game, seconds)
and the means with the clear rate at the end. Nothing is written.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit

from measure_strategies import GAMES
from nesim.cards import load_game
from nesim.errors import NesimError
from nesim.kernel import core, search
from nesim.kernel.api import K_SELL, STRATEGY_SIG, enter_playout, leave_playout
from nesim.kernel.tables import MAXOPTS, MAXP, STATE, build_table
from strategies import strong
from strategies.strong import choose as strong_choose

MAXD = 1000  # decisions a game may have
# where the scripted strategy keeps its bookkeeping in its params row (strong's weights come first)
POS, LEN, SCRIPT, OPTIONS, ANSWERS = 24, 25, 32, 32 + MAXD, 32 + 2 * MAXD
NPARAMS = 32 + 3 * MAXD


@njit(STRATEGY_SIG)
def scripted(kind, seat, opts, n, ctx, st, tab, params):
    """The answers params[SCRIPT:SCRIPT + LEN] to the game's decisions with two or more options,
    in order, then strong's one-ply policy; records each decision's options and answer."""
    pos = int(params[POS])
    if kind != K_SELL and pos < params[LEN]:
        a = int(params[SCRIPT + pos])
    else:
        s = st[0]
        enter_playout(s)  # strong answers by its one-ply policy, never by a lookahead
        a = strong_choose(kind, seat, opts, n, ctx, st, tab, params)
        leave_playout(s)
        if kind == K_SELL:
            return a
    if pos < MAXD:
        params[OPTIONS + pos] = n
        params[ANSWERS + pos] = a
    params[POS] = pos + 1
    return a


@njit
def line_score(game, script, m, line, options):
    """The score of the game played with ``script[:m]`` and the policy after it; its whole line
    of answers and option counts are copied into ``line`` and ``options``."""
    st, tab, fns, params, log, buf, seed, res, rounds = game
    params[0, POS] = 0
    params[0, LEN] = m
    params[0, SCRIPT:SCRIPT + m] = script[:m]
    core.play_game(st, tab, fns, params, log, buf, seed, 1, res, rounds)
    k = min(int(params[0, POS]), MAXD)
    line[:k] = params[0, ANSWERS:ANSWERS + k]
    options[:k] = params[0, OPTIONS:OPTIONS + k]
    return res[0, core.F_SCORE], k


@njit
def nested_search(game, level, script, m, line, options):
    """The best score a level-``level`` nested search finds from ``script[:m]``; its line is left
    in ``line`` and ``options``."""
    best, k = line_score(game, script, m, line, options)
    if level == 0:
        return best, k
    trial = np.empty(MAXD, np.int64)
    trial_line = np.empty(MAXD, np.int64)
    trial_options = np.empty(MAXD, np.int64)
    i = m
    while i < k:
        for a in range(options[i]):
            if a == line[i]:
                continue
            trial[:i] = line[:i]
            trial[i] = a
            v, k2 = nested_search(game, level - 1, trial, i + 1, trial_line, trial_options)
            if v > best:
                best, k = v, k2
                line[:k] = trial_line[:k]
                options[:k] = trial_options[:k]
        i += 1
    return best, k


def solo_game(game_name: str, seed: int) -> tuple:
    """Everything ``line_score`` needs to replay the solo game of ``seed``."""
    data = load_game(game_name)
    data.check_solo()
    params = np.zeros((MAXP, NPARAMS))
    params[0, :len(strong.PARAMS)] = list(strong.PARAMS.values())
    return (np.zeros(search.LOOKAHEAD_STATES, dtype=STATE), build_table(data), (scripted,) * MAXP, params,
            np.zeros(0, np.int32), np.zeros((search.LOOKAHEAD_ROWS, MAXOPTS), np.int64), np.uint64(seed),
            np.zeros((MAXP, core.NPF), np.int32), np.zeros((data.rules.rounds, MAXP, core.NRF), np.int32))


def search_seed(game_name: str, level: int, seed: int) -> tuple[int, int, np.ndarray]:
    """(the policy's score, the searched score, the searched game's answers) for one seed."""
    game = solo_game(game_name, seed)
    line = np.zeros(MAXD, np.int64)
    options = np.zeros(MAXD, np.int64)
    policy, _ = line_score(game, line, 0, line, options)
    best, k = nested_search(game, level, np.zeros(MAXD, np.int64), 0, line, options)
    return int(policy), int(best), line[:k].copy()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="glory", help="progress, mecenat or glory")
    ap.add_argument("--level", type=int, default=2, help="the search's level, 1-3")
    ap.add_argument("--first", type=int, default=0, help="the first seed")
    ap.add_argument("--count", type=int, default=10, help="how many seeds")
    args = ap.parse_args()
    try:
        if args.game not in GAMES:
            raise NesimError(f"unknown game {args.game!r}; choose from {', '.join(GAMES)}")
        if not 0 <= args.level <= 3 or args.count < 1 or args.first < 0:
            raise NesimError("--level is 0 to 3, --count at least 1 and --first at least 0")
    except NesimError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    target = load_game(args.game).rules.solo_target
    scores = []
    for seed in range(args.first, args.first + args.count):
        t = time.time()
        policy, best, line = search_seed(args.game, args.level, seed)
        scores.append(best)
        print(f"{seed} policy {policy} searched {best} decisions {len(line)} {time.time() - t:.1f}s",
              flush=True)
    s = np.array(scores)
    print(f"{args.game} level {args.level}: {len(s)} seeds, mean {s.mean():.1f} "
          f"(se {s.std(ddof=1) / np.sqrt(len(s)) if len(s) > 1 else 0:.1f}), "
          f"clear {(s >= target).mean():.3f}")


if __name__ == "__main__":
    main()
