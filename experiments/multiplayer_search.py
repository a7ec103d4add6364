"""How much a searched player gains over its one-ply self in games of 2-4 players.

    .venv/bin/python experiments/multiplayer_search.py --game mecenat --players 2 --games 400 \\
        --challenger "strong:search=4,search_sub=2" --against strong [--jobs 2]

One seat plays ``--challenger``, the others ``--against``; the challenger's seat is rotated
through every seat, game by game (game g seats it at g mod players), so each seat counts the
same. Seeds are fixed (1,000,000 + g), so a run is reproducible and two challengers measured with
the same ``--games`` meet the same deals. It prints the challenger's win rate (rank 1 after the
tie-break) with its Wilson 95% interval, its mean score and the others' with standard errors,
the mean margin over the best other seat, and games per second per process.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from joblib import Parallel, delayed

from nesim.kernel import core
from nesim.learn import play_challenger
from nesim.stats import wilson_interval

FIRST_SEED = 1_000_000


def play_seat(game: str, n: int, challenger: str, against: str, seat: int,
              seeds: np.ndarray) -> tuple[np.ndarray, float]:
    """The players table of the games in ``seeds`` with the challenger at ``seat``, and the
    seconds they took."""
    start = time.perf_counter()
    players = play_challenger(game, n, challenger, against, seat, seeds)
    return players, time.perf_counter() - start


def measure(game: str, n: int, challenger: str, against: str, games: int, jobs: int) -> dict:
    seeds = FIRST_SEED + np.arange(games, dtype=np.uint64)
    seats = np.arange(games) % n
    work = []
    for seat in range(n):
        mine = seeds[seats == seat]
        for chunk in np.array_split(mine, max(1, jobs)):
            if len(chunk):
                work.append((seat, chunk))
    # compile once in this process before the workers do, so their time is play time
    play_seat(game, n, challenger, against, 0, seeds[:1])
    out = Parallel(n_jobs=jobs)(delayed(play_seat)(game, n, challenger, against, seat, chunk)
                                for seat, chunk in work)
    wins = 0
    mine_scores, other_scores, margins = [], [], []
    seconds = 0.0
    for (seat, _), (players, took) in zip(work, out):
        seconds += took
        score = players[:, :, core.F_SCORE].astype(float)
        rank = players[:, :, core.F_RANK]
        wins += int((rank[:, seat] == 1).sum())
        mine_scores.extend(score[:, seat])
        others = np.delete(score, seat, axis=1)
        other_scores.extend(others.mean(axis=1))
        margins.extend(score[:, seat] - others.max(axis=1))
    low, high = wilson_interval(wins, games)
    mine_scores, other_scores, margins = map(np.asarray, (mine_scores, other_scores, margins))
    return {"wins": wins, "games": games, "rate": wins / games, "low": low, "high": high,
            "score": mine_scores.mean(), "score_se": mine_scores.std(ddof=1) / np.sqrt(games),
            "others": other_scores.mean(), "others_se": other_scores.std(ddof=1) / np.sqrt(games),
            "margin": margins.mean(), "margin_se": margins.std(ddof=1) / np.sqrt(games),
            "games_per_s": games / seconds}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="mecenat")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--challenger", default="strong:search=4,search_sub=2")
    ap.add_argument("--against", default="strong")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    r = measure(args.game, args.players, args.challenger, args.against, args.games, args.jobs)
    print(f"{args.game} {args.players}p  {args.challenger} vs {args.against}: "
          f"won {r['wins']}/{r['games']} = {r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}] "
          f"(fair {1 / args.players:.2f}); score {r['score']:.1f} ± {r['score_se']:.1f}, "
          f"others {r['others']:.1f} ± {r['others_se']:.1f}, margin {r['margin']:+.1f} ± "
          f"{r['margin_se']:.1f}; {r['games_per_s']:.2f} games/s per process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
