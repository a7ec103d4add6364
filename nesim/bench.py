"""Games per second of the kernel and of the reference engine on the same games.

The reference engine is timed replaying the kernel's own games (same seeds, same decisions), so
both engines play exactly the same games; the ratio is measured in one run.

Each engine is timed ``repeats`` times over the same games, the two engines taking turns, and each
keeps its best rate (the timeit convention): on a shared machine the slower repeats measure the
neighbours, not the engine. The first kernel repeat also pays for fresh output pages, which a long
run pays only once.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

CONFIGS = (("progress", 2), ("mecenat", 4), ("glory", 4))


@dataclass
class BenchResult:
    game: str
    players: int
    strategy: str
    kernel_games_per_s: float
    reference_games_per_s: float
    ratio: float


def best_rates(timed: list[tuple[int, Callable[[], object]]], repeats: int) -> list[float]:
    """Games per second of the fastest of ``repeats`` calls of each ``(games, play)``.

    The calls are interleaved (all of them once, then again) so that every engine is timed under
    the same passing load of a shared machine.
    """
    best = [float("inf")] * len(timed)
    for _ in range(repeats):
        for i, (_, play) in enumerate(timed):
            t = time.perf_counter()
            play()
            best[i] = min(best[i], time.perf_counter() - t)
    return [games / b for (games, _), b in zip(timed, best)]


def measure(game: str, players: int, strategy: str = "random", kernel_games: int = 20_000,
            reference_games: int = 200, repeats: int = 5) -> BenchResult:
    from nesim.cards import load_game
    from nesim.kernel import batch
    from nesim.reference import replay
    from nesim.registry import resolve

    data = load_game(game)
    fn = resolve(strategy).choose
    seeds = np.arange(kernel_games, dtype=np.uint64)
    batch.play(data, players, seeds[:2], [fn] * players)  # compiled or loaded from the cache
    logged = batch.play(data, players, seeds[:reference_games], [fn] * players, with_log=True)
    logs = [logged.decision_log(g) for g in range(reference_games)]

    def replay_all():
        for log in logs:
            replay(data, log)

    kernel_rate, reference_rate = best_rates(
        [(kernel_games, lambda: batch.play(data, players, seeds, [fn] * players)),
         (reference_games, replay_all)], repeats)
    return BenchResult(game, players, strategy, round(kernel_rate, 1), round(reference_rate, 1),
                       round(kernel_rate / reference_rate, 1))


def warm_start_seconds() -> float:
    """Seconds from a new Python process to its first finished kernel game (cache warm)."""
    code = ("import time; t = time.perf_counter(); import numpy as np; "
            "from nesim.cards import load_game; from nesim.kernel import batch; "
            "from nesim.registry import resolve; f = resolve('random').choose; "
            "batch.play(load_game('glory'), 4, np.arange(1), [f] * 4); print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def run(strategy: str = "random", kernel_games: int = 20_000, reference_games: int = 200,
        repeats: int = 5) -> list[BenchResult]:
    return [measure(game, players, strategy, kernel_games, reference_games, repeats) for game, players in CONFIGS]


def as_json(results: list[BenchResult], warm_start: float | None) -> dict:
    out: dict = {"results": [asdict(r) for r in results]}
    if warm_start is not None:
        out["warm_start_s"] = round(warm_start, 2)
    return out
