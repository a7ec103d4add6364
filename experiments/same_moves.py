"""Do two versions of the code play the same moves? One hash per batch of games, and its time.

A change meant only to make the kernel or a strategy faster must leave every decision as it was.
This script plays a fixed set of batches (solo, 2-4 players mixing the strategies, and with
``--nested`` strong's nested search) in every game and prints, for each, a hash of everything the
batch returns (results, per-round fields, builds, the decision logs) and the seconds it took. Run
it once on each version and compare the lines; with the two runs side by side, one process each,
the times also give the speed ratio measured in one run:

    git worktree add /tmp/before <commit>
    PYTHONPATH=/tmp/before .venv/bin/python experiments/same_moves.py > before.txt &
    .venv/bin/python experiments/same_moves.py > after.txt; wait
    diff <(cut -d'(' -f1 before.txt) <(cut -d'(' -f1 after.txt) && echo the same moves

(PYTHONPATH puts the other version's ``nesim`` and ``strategies`` first; the first line printed
names the folder they were loaded from.) ``--scale`` multiplies every batch's number of games,
``--games`` names the games to play and ``--first`` the first seed of every batch.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

import nesim
import strategies
from nesim.cards import load_game
from nesim.kernel import batch
from nesim.registry import param_matrix, resolve

GAMES = ("progress", "mecenat", "glory")
BATCHES = (  # (players, strategy per seat, games)
    (1, ["strong"], 40),
    (1, ["strong:solo_playouts=0"], 300),
    (2, ["strong", "greedy"], 3000),
    (2, ["strong", "strong:reserve=2"], 3000),
    (3, ["strong", "economy", "sets"], 3000),
    (4, ["strong", "vp_tokens", "workers", "random"], 3000),
    (2, ["strong:search=2,search_sub=1", "greedy"], 30),  # the search in 2-4 players
    (4, ["strong:search=2,search_sub=1", "strong", "economy", "strong:search=1"], 10),
)
NESTED = ((1, ["strong:solo_nest=3,solo_playouts=4,solo_sub_playouts=4,solo_jitter=0"], 6),)


def batch_hash(res: batch.BatchResult) -> str:
    h = hashlib.sha1()
    for a in (res.players, res.rounds, res.games, res.build_card, res.build_round, res.logs):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def run(game: str, players: int, specs: list[str], first: int, games: int) -> tuple[str, float]:
    chosen = [resolve(s) for s in specs]
    seeds = np.arange(first, first + games, dtype=np.uint64)
    data = load_game(game)
    batch.play(data, players, seeds[:1], [s.choose for s in chosen], param_matrix(chosen))  # compile
    start = time.perf_counter()
    res = batch.play(data, players, seeds, [s.choose for s in chosen], param_matrix(chosen),
                     with_log=True)
    return batch_hash(res), time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nested", action="store_true", help="strong's nested search instead (slow)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every batch's games")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--first", type=int, default=7000, help="the first seed of every batch")
    args = ap.parse_args()
    print(f"code from {nesim.__path__[0]} and {strategies.__path__[0]}", flush=True)
    for game in args.games.split(","):
        for players, specs, games in NESTED if args.nested else BATCHES:
            n = max(1, round(games * args.scale))
            digest, seconds = run(game, players, specs, args.first, n)
            print(f"{game} {players}p {'/'.join(specs)} x{n}: {digest}  ({seconds:.2f} s)", flush=True)


if __name__ == "__main__":
    main()
