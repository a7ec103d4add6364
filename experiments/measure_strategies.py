"""Measure the scripted strategies: solo score and clear rate, two-player win rates vs random and greedy.

    .venv/bin/python experiments/measure_strategies.py [--solo 10000] [--duel 4000] [name ...]
    .venv/bin/python experiments/measure_strategies.py --matrix 4000
    .venv/bin/python experiments/measure_strategies.py --solo 10000 --duel 0 --jobs 2 strong
    .venv/bin/python experiments/measure_strategies.py --solo 500 --first 2000 --duel 0 --save DIR strong
    .venv/bin/python experiments/measure_strategies.py --pool DIR

Solo: mean score and clear rate (F_CLEARED) over ``--solo`` games per game, with ``--jobs``
processes sharing the seeds (the figures do not depend on it; strong's searched solo games run at
a few a second, so 10,000 of them want both cores). ``--duel 0`` skips the duels. Duels: ``--duel``
two-player games per pairing, half of them with the seats swapped; the win rate is the share won
by the named strategy (rank 1 after the tie-break). Seeds are fixed (0.. for solo, 1,000,000.. for
duels), so the numbers are reproducible.

``--first S`` starts the solo seeds at S, and ``--save DIR`` keeps every solo game's score and
outcome in ``DIR/solo-<strategy>-<game>-<first>-<last>.npz``, so that a long measurement (strong's
searched solo games run at a few a second) can be taken in slices, in several sittings, and
``--pool DIR`` prints the figures of all the slices saved there together: the mean with its
standard error and the clear rate with its Wilson 95% interval. Slices whose seeds overlap are
refused, so no game is counted twice.

``--matrix N``: the round-robin win-rate matrices of every registered strategy, per game, as
Markdown. 2 players: row A, column B is A's seat-rotated win rate against B over N games (fair
share 0.5). 4 players: one A against three B, A's seat rotated through all four seats, N games;
the cell is A's win rate (fair share 0.25).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from nesim.cards import load_game
from nesim.kernel import batch, core
from nesim.registry import game_table, modules, param_matrix, resolve
from nesim.stats import wilson_interval

GAMES = ("progress", "mecenat", "glory")


def play(game: str, specs: list[str], seeds: np.ndarray) -> batch.BatchResult:
    strategies = [resolve(s) for s in specs]
    params = param_matrix(strategies)
    data = load_game(game)
    res = batch.play(data, len(specs), seeds, [s.choose for s in strategies], params,
                     table=game_table(data, strategies))
    assert not res.games[:, 3].any(), f"kernel error flags in {game} {specs}"
    return res


def parse_games(text: str) -> list[str]:
    """The games named in a comma-separated list; an unknown one is a ValueError naming it."""
    games = [g.strip() for g in text.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise ValueError(f"unknown game {unknown[0]!r}; choose from {', '.join(GAMES)}")
    return games


def solo_rows(game: str, spec: str, seeds: np.ndarray) -> np.ndarray:
    """The result row (core.F_* fields) of every solo game, shape (games, NPF)."""
    return play(game, [spec], seeds).players[:, 0, :]


def solo_players(game: str, spec: str, seeds: np.ndarray, jobs: int = 1) -> np.ndarray:
    """solo_rows with ``jobs`` processes sharing the seeds (the rows do not depend on it)."""
    if jobs <= 1:
        return solo_rows(game, spec, seeds)
    parts = Parallel(n_jobs=jobs)(delayed(solo_rows)(game, spec, chunk)
                                  for chunk in np.array_split(seeds, jobs))
    return np.concatenate(parts)


def solo_games(game: str, spec: str, seeds: np.ndarray, jobs: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Every game's score and whether it cleared, with ``jobs`` processes sharing the seeds."""
    rows = solo_players(game, spec, seeds, jobs)
    return rows[:, core.F_SCORE], rows[:, core.F_CLEARED]


def solo(game: str, spec: str, games: int, jobs: int = 1, first: int = 0,
         save: Path | None = None) -> tuple[float, float]:
    if games == 0:  # --solo 0 measures only the duels
        return float("nan"), float("nan")
    seeds = np.arange(first, first + games, dtype=np.uint64)
    scores, cleared = solo_games(game, spec, seeds, jobs)
    if save is not None:
        save_slice(save, game, spec, seeds, scores, cleared)
    return float(scores.mean()), float(cleared.mean())


def slice_name(game: str, spec: str, seeds: np.ndarray) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.=,-]", "_", spec)
    return f"solo-{safe}-{game}-{int(seeds[0])}-{int(seeds[-1])}.npz"


def save_slice(folder: Path, game: str, spec: str, seeds, scores, cleared) -> None:
    """One slice of solo games, written whole (to a temporary name, then renamed) or not at all."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / slice_name(game, spec, seeds)
    tmp = path.with_name(path.name + ".part.npz")
    np.savez(tmp, game=game, spec=spec, seeds=seeds, scores=scores, cleared=cleared)
    os.replace(tmp, path)


def pooled_slices(folder: Path) -> dict[tuple[str, str], dict[str, np.ndarray]]:
    """Every saved slice in ``folder`` joined per (strategy spec, game); overlapping seeds are an
    error."""
    pooled: dict[tuple[str, str], dict[str, list]] = {}
    for path in sorted(folder.glob("solo-*.npz")):
        if path.name.endswith(".part.npz"):
            continue
        with np.load(path) as z:
            key = (str(z["spec"]), str(z["game"]))
            entry = pooled.setdefault(key, {"seeds": [], "scores": [], "cleared": []})
            for field in entry:
                entry[field].append(z[field])
    out = {}
    for key, entry in pooled.items():
        joined = {field: np.concatenate(parts) for field, parts in entry.items()}
        if len(np.unique(joined["seeds"])) != len(joined["seeds"]):
            raise ValueError(f"the saved slices of {key[0]} in {key[1]} share seeds")
        out[key] = joined
    return out


def print_pooled(folder: Path) -> None:
    """The pooled solo figures of every strategy and game saved in ``folder``."""
    pooled = pooled_slices(folder)
    if not pooled:
        raise ValueError(f"no saved solo slices in {folder}")
    print(f"{'strategy':12s} {'game':9s} {'games':>6s} {'seeds':>12s} {'mean':>6s} {'se':>5s}"
          f" {'clear':>6s} {'95% interval':>14s}")
    for (spec, game), d in sorted(pooled.items(), key=lambda kv: (kv[0][0], GAMES.index(kv[0][1]))):
        n = len(d["scores"])
        k = int(d["cleared"].sum())
        lo, hi = wilson_interval(k, n)
        se = d["scores"].std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
        seeds = f"{int(d['seeds'].min())}-{int(d['seeds'].max())}"
        print(f"{spec:12s} {game:9s} {n:6d} {seeds:>12s} {d['scores'].mean():6.1f} {se:5.2f}"
              f" {k / n:6.3f} {f'{lo:.3f}-{hi:.3f}':>14s}")


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
    ap.add_argument("--first", type=int, default=0, help="the first solo seed")
    ap.add_argument("--save", type=Path, help="keep every solo game's result in this folder")
    ap.add_argument("--pool", type=Path, help="print the solo figures of the slices saved here")
    ap.add_argument("--games", default=",".join(GAMES),
                    help="comma-separated games to play (default: all three)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if args.pool:
        try:
            print_pooled(args.pool)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            sys.exit(2)
        return
    if args.matrix:
        print_matrices(args.names or list(modules()), args.matrix)
        return
    names = args.names or [n for n in modules() if n != "random"]
    try:
        games = parse_games(args.games)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    t0 = time.time()
    print(f"{'strategy':10s} {'game':9s} {'solo mean':>9s} {'clear':>6s} {'vs random':>9s} {'vs greedy':>9s}"
          f" {'2p score':>8s}")
    for name in names:
        for game in games:
            score, cleared = solo(game, name, args.solo, args.jobs, args.first, args.save)
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
