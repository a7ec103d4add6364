"""Compare two strategy specs on the same solo games: the paired score difference and where it comes from.

    .venv/bin/python experiments/compare_solo.py strong strong:bonus=0.75 --games glory --solo 400 --first 5000 --jobs 2

Both specs play the same seeds, so each game's deck order is shared and cancels out of the
difference: for strong in Glory, 400 paired games give the difference a standard error of about 1
point, where two unpaired runs of 400 give about 1.5. This is how a change to a strategy is judged
before a long measurement. Per game it prints each spec's mean score, clear rate and score
components (building points, end-game bonuses, money, VP-token points, Unpaid Wage cards, workers
and Mechanical Dolls at the end), then the difference B - A of the score and of the clear rate,
each with its 95% interval (Student's t on the paired differences, nesim.stats).
Nothing is written. A strategy's solo search is slow (strong: 1.5-3 games a second on a core),
so keep ``--solo`` in the hundreds and use ``--jobs 2``.

With ``--saved`` nothing is played: A and B name folders of slices saved by
``measure_strategies.py --save``, and the games both hold are paired by seed, game by game (the
score and clear-rate difference as above, and how many games only A or only B cleared):

    .venv/bin/python experiments/compare_solo.py --saved experiments/results/strong-nest-sub32-solo-5ed6614 experiments/results/strong-nest2-sub32-solo-e008169
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from pathlib import Path

from measure_strategies import GAMES, parse_games, pooled_slices, solo_players
from nesim.errors import NesimError
from nesim.kernel import core
from nesim.registry import resolve
from nesim.stats import paired_mean_diff

COLUMNS = (("score", core.F_SCORE, "{:7.1f}"), ("clear", core.F_CLEARED, "{:6.3f}"),
           ("bldg", core.F_BUILDING, "{:6.1f}"), ("bonus", core.F_BONUS, "{:6.1f}"),
           ("money", core.F_MONEY, "{:6.1f}"), ("vp", core.F_VP_POINTS, "{:6.1f}"),
           ("unpaid", core.F_UNPAID, "{:6.2f}"), ("workers", core.F_WORKERS, "{:7.2f}"),
           ("dolls", core.F_DOLLS, "{:6.2f}"))


def report(game: str, a: str, b: str, seeds: np.ndarray, rows_a: np.ndarray, rows_b: np.ndarray) -> str:
    width = max(len(a), len(b), 5) + 2
    lines = [f"{game}: {len(seeds)} solo games, seeds {int(seeds[0])}-{int(seeds[-1])}, the same for both",
             " " * (width + 2) + " ".join(f"{name:>{len(fmt.format(0))}s}" for name, _, fmt in COLUMNS)]
    for tag, spec, rows in (("A", a, rows_a), ("B", b, rows_b)):
        cells = " ".join(fmt.format(rows[:, f].mean()) for _, f, fmt in COLUMNS)
        lines.append(f"{tag} {spec:{width}s}{cells}")
    for name, f, unit in (("score", core.F_SCORE, "{:+.2f}"), ("clear", core.F_CLEARED, "{:+.3f}")):
        lines.append(difference_line(rows_a[:, f], rows_b[:, f], name, unit))
    return "\n".join(lines)


def difference_line(a: np.ndarray, b: np.ndarray, name: str, unit: str) -> str:
    d, se, lo, hi, p = paired_mean_diff(b, a)
    return (f"B - A {name}: {unit.format(d)} (se {se:.3f}, 95% {unit.format(lo)} to "
            f"{unit.format(hi)}, p {p:.3g})")


def one_spec_a_game(folder: Path) -> dict[str, tuple[str, dict[str, np.ndarray]]]:
    """The saved slices of ``folder`` by game; a folder must hold one spec for each game."""
    if not folder.is_dir():
        raise ValueError(f"no folder {folder}")
    by_game: dict[str, tuple[str, dict[str, np.ndarray]]] = {}
    for (spec, game), d in pooled_slices(folder).items():
        if game in by_game:
            raise ValueError(f"{folder} holds more than one spec for {game}; pair one at a time")
        by_game[game] = (spec, d)
    return by_game


def saved_report(folder_a: Path, folder_b: Path) -> str:
    """The saved games of two folders paired by seed, for every game both hold."""
    saved_a, saved_b = one_spec_a_game(folder_a), one_spec_a_game(folder_b)
    parts = []
    for game in (g for g in GAMES if g in saved_a and g in saved_b):
        (spec_a, a), (spec_b, b) = saved_a[game], saved_b[game]
        seeds, ia, ib = np.intersect1d(a["seeds"], b["seeds"], return_indices=True)
        if len(seeds) < 2:
            continue
        lines = [f"{game}: {len(seeds)} solo games saved in both, seeds {int(seeds[0])}-{int(seeds[-1])}"]
        for tag, spec, d, i in (("A", spec_a, a, ia), ("B", spec_b, b, ib)):
            lines.append(f"{tag} {spec}: score {d['scores'][i].mean():.1f}, clear {d['cleared'][i].mean():.3f}")
        ca, cb = a["cleared"][ia].astype(bool), b["cleared"][ib].astype(bool)
        lines.append(difference_line(a["scores"][ia].astype(float), b["scores"][ib].astype(float),
                                      "score", "{:+.2f}"))
        lines.append(difference_line(ca.astype(float), cb.astype(float), "clear", "{:+.3f}"))
        lines.append(f"cleared by A only: {int((ca & ~cb).sum())}, by B only: {int((cb & ~ca).sum())}")
        parts.append("\n".join(lines))
    if not parts:
        raise ValueError(f"{folder_a} and {folder_b} share no game with two or more seeds")
    return "\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="the baseline strategy spec, e.g. strong")
    ap.add_argument("b", help="the spec compared with it, e.g. strong:bonus=0.75")
    ap.add_argument("--solo", type=int, default=200, help="solo games per game (at least 2)")
    ap.add_argument("--first", type=int, default=0, help="the first seed")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: all three)")
    ap.add_argument("--jobs", type=int, default=1, help="processes sharing the seeds")
    ap.add_argument("--saved", action="store_true",
                    help="a and b are folders of saved solo slices, paired by seed; nothing is played")
    args = ap.parse_args()
    if args.saved:
        try:
            print(saved_report(Path(args.a), Path(args.b)))
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            sys.exit(2)
        return
    try:
        games = parse_games(args.games)
        if args.solo < 2 or args.first < 0:
            raise NesimError("--solo needs at least 2 games and --first a seed of 0 or more")
        for spec in (args.a, args.b):
            resolve(spec)
    except (ValueError, NesimError) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    seeds = np.arange(args.first, args.first + args.solo, dtype=np.uint64)
    for game in games:
        rows_a = solo_players(game, args.a, seeds, args.jobs)
        rows_b = solo_players(game, args.b, seeds, args.jobs)
        print(report(game, args.a, args.b, seeds, rows_a, rows_b), flush=True)


if __name__ == "__main__":
    main()
