"""Measure the scripted strategies: solo score and clear rate, two-player win rates vs random and greedy.

    .venv/bin/python experiments/measure_strategies.py [--solo 10000] [--duel 4000] [name ...]
    .venv/bin/python experiments/measure_strategies.py --matrix 4000
    .venv/bin/python experiments/measure_strategies.py --solo 10000 --duel 0 --jobs 2 strong

Solo: mean score and clear rate (F_CLEARED) over ``--solo`` games per game, with ``--jobs``
processes sharing the seeds (the figures do not depend on it; strong's searched solo games run at
a few a second, so 10,000 of them want both cores). ``--duel 0`` skips the duels. Duels: ``--duel``
two-player games per pairing, half of them with the seats swapped; the win rate is the share won
by the named strategy (rank 1 after the tie-break). Seeds are fixed (0.. for solo, 1,000,000.. for
duels), so the numbers are reproducible.

``--matrix N``: the round-robin win-rate matrices of every registered strategy, per game, as
Markdown. 2 players: row A, column B is A's seat-rotated win rate against B over N games (fair
share 0.5). 4 players: one A against three B, A's seat rotated through all four seats, N games;
the cell is A's win rate (fair share 0.25).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from joblib import Parallel, delayed

from nesim.cards import load_game
from nesim.kernel import batch, core
from nesim.registry import modules, param_matrix, resolve

GAMES = ("progress", "mecenat", "glory")


def play(game: str, specs: list[str], seeds: np.ndarray) -> batch.BatchResult:
    strategies = [resolve(s) for s in specs]
    params = param_matrix(strategies)
    res = batch.play(load_game(game), len(specs), seeds, [s.choose for s in strategies], params)
    assert not res.games[:, 3].any(), f"kernel error flags in {game} {specs}"
    return res


def solo_scores(game: str, spec: str, seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    res = play(game, [spec], seeds)
    return res.field(core.F_SCORE)[:, 0], res.field(core.F_CLEARED)[:, 0]


def solo(game: str, spec: str, games: int, jobs: int = 1) -> tuple[float, float]:
    seeds = np.arange(games, dtype=np.uint64)
    if jobs <= 1:
        parts = [solo_scores(game, spec, seeds)]
    else:
        parts = Parallel(n_jobs=jobs)(delayed(solo_scores)(game, spec, chunk)
                                      for chunk in np.array_split(seeds, jobs))
    scores = np.concatenate([p[0] for p in parts])
    cleared = np.concatenate([p[1] for p in parts])
    return float(scores.mean()), float(cleared.mean())


def duel(game: str, a: str, b: str, games: int) -> tuple[float, float]:
    """Seat-rotated win rate of a against b and a's mean score."""
    half = games // 2
    seeds = np.arange(half, dtype=np.uint64) + 1_000_000
    first = play(game, [a, b], seeds)
    second = play(game, [b, a], seeds)
    wins = (first.field(core.F_RANK)[:, 0] == 1).sum() + (second.field(core.F_RANK)[:, 1] == 1).sum()
    score = (first.field(core.F_SCORE)[:, 0].mean() + second.field(core.F_SCORE)[:, 1].mean()) / 2
    return wins / (2 * half), float(score)


def four_player(game: str, a: str, b: str, games: int) -> float:
    """Win rate of one a against three b, a's seat rotated through every seat."""
    quarter = games // 4
    seeds = np.arange(quarter, dtype=np.uint64) + 2_000_000
    wins = 0
    for seat in range(4):
        specs = [b] * 4
        specs[seat] = a
        wins += (play(game, specs, seeds).field(core.F_RANK)[:, seat] == 1).sum()
    return wins / (4 * quarter)


def print_matrices(names: list[str], games: int) -> None:
    for game in GAMES:
        for players, cell in ((2, lambda a, b: duel(game, a, b, games)[0]),
                              (4, lambda a, b: four_player(game, a, b, games))):
            print(f"\n{game}, {players} players (row's win rate against column, {games} games a cell)\n")
            print("| | " + " | ".join(names) + " |")
            print("|---" * (len(names) + 1) + "|")
            for a in names:
                row = [f"{cell(a, b):.3f}" if a != b else "-" for b in names]
                print(f"| {a} | " + " | ".join(row) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--solo", type=int, default=10_000)
    ap.add_argument("--duel", type=int, default=4_000, help="two-player games a pairing (0: none)")
    ap.add_argument("--jobs", type=int, default=1, help="processes for the solo games")
    ap.add_argument("--matrix", type=int, default=0, help="games a cell of the round-robin matrices")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if args.matrix:
        print_matrices(args.names or list(modules()), args.matrix)
        return
    names = args.names or [n for n in modules() if n != "random"]
    t0 = time.time()
    print(f"{'strategy':10s} {'game':9s} {'solo mean':>9s} {'clear':>6s} {'vs random':>9s} {'vs greedy':>9s}"
          f" {'2p score':>8s}")
    for name in names:
        for game in GAMES:
            score, cleared = solo(game, name, args.solo, args.jobs)
            w_random = w_greedy = s2 = float("nan")
            if args.duel:
                w_random, s2 = duel(game, name, "random", args.duel)
                if name != "greedy":
                    w_greedy = duel(game, name, "greedy", args.duel)[0]
            print(f"{name:10s} {game:9s} {score:9.1f} {cleared:6.3f} {w_random:9.3f} {w_greedy:9.3f} {s2:8.1f}",
                  flush=True)
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
