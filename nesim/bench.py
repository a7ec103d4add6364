"""How fast the kernel plays the games users run, and how that compares with the reference engine
or with another checkout.

The kernel plays its games through the runner's own code path (``runner.unit_table`` and
``runner.play_games``: the strategies' parameters, the table rows they bring, the seeds of
``derive_seed``), so a bench game is the game ``nesim simulate`` writes with the same seed and
line-up. The reference engine is timed replaying the kernel's own games (same seeds, same
decisions), so both engines play exactly the same games; the ratio is measured in one run.

Besides games per second, the kernel's time per decision: games differ in length between games
and strategies, a decision is the unit of work that the kernel's speed-ups change. The decisions
are counted once from the decision logs of the same games (logging does not change a game).

Each engine is timed ``repeats`` times over the same games, the engines taking turns, and each
keeps its best time (the timeit convention): on a shared machine the slower repeats measure the
neighbours, not the engine. The first kernel repeat also pays for fresh output pages, which a long
run pays only once.

``compare`` times this checkout against another one (``nesim bench --against PATH``): each side
runs in a worker process of its own (``WORKER``, which imports only the runner's long-standing
API, so the other side may be an older checkout), the two taking turns repeat after repeat, so
a speed ratio comes from one run under one load.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from nesim.errors import NesimError

CONFIGS = (("progress", 2), ("mecenat", 4), ("glory", 4))
SEED = 0  # the master seed of the bench's games (as ``nesim simulate --seed 0``)
LOG_BATCH = 1_000  # games per logged batch when counting decisions: a log is 16 KB a game


@dataclass
class BenchResult:
    game: str
    players: int
    strategy: str
    kernel_games_per_s: float
    reference_games_per_s: float
    ratio: float
    kernel_ns_per_decision: float
    decisions_per_game: float


@dataclass
class Workload:
    """The games ``nesim simulate --game G --players N --strategies S --games K --seed SEED`` plays."""

    game: str
    players: int
    strategy: str
    games: int
    seed: int = SEED

    def __post_init__(self):
        from nesim.registry import resolve_seats
        from nesim.runner import Unit, unit_table

        specs = tuple(s.label for s in resolve_seats(self.strategy, self.players))
        self.unit = Unit("bench", self.game, self.players, specs, self.games)
        self.data = self.unit.data()
        self.table = unit_table(self.unit, self.data)

    def play(self, indices: np.ndarray | None = None, with_log: bool = False):
        """The games of ``indices`` (default: all), as the runner plays a chunk of them."""
        from nesim.runner import play_games

        if indices is None:
            indices = np.arange(self.games, dtype=np.int64)
        return play_games(self.unit, self.data, self.table, self.seed, indices, with_log)


def decisions_in(res) -> int:
    """Decisions the games of a logged batch hold: every log entry but the options recorded
    with a decision and the cards listed after a sale (one decision each)."""
    from nesim.kernel import core

    length = res.games[:, 4]
    kinds = res.logs >> 24
    within = np.arange(res.logs.shape[1])[None, :] < length[:, None]
    extra = np.isin(kinds, (core.K_OPTION, core.K_SALE_SHORT, core.K_SELL_CARD))
    return int(np.count_nonzero(within & ~extra))


def count_decisions(work: Workload) -> int:
    """Decisions in all the workload's games, counted from their logs a batch at a time."""
    total = 0
    for first in range(0, work.games, LOG_BATCH):
        idx = np.arange(first, min(first + LOG_BATCH, work.games), dtype=np.int64)
        total += decisions_in(work.play(idx, with_log=True))
    return total


def best_times(timed: list[Callable[[], object]], repeats: int) -> list[float]:
    """Seconds of the fastest of ``repeats`` calls of each function.

    The calls are interleaved (all of them once, then again) so that every engine is timed under
    the same passing load of a shared machine."""
    best = [float("inf")] * len(timed)
    for _ in range(repeats):
        for i, play in enumerate(timed):
            t = time.perf_counter()
            play()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


def measure(game: str, players: int, strategy: str = "random", kernel_games: int = 20_000,
            reference_games: int = 200, repeats: int = 5) -> BenchResult:
    from nesim.reference import replay

    work = Workload(game, players, strategy, kernel_games)
    work.play(np.arange(min(2, kernel_games), dtype=np.int64))  # compiled or loaded from the cache
    logged = work.play(np.arange(reference_games, dtype=np.int64), with_log=True)
    logs = [logged.decision_log(g) for g in range(reference_games)]
    decisions = count_decisions(work)

    def replay_all():
        for log in logs:
            replay(work.data, log)

    kernel_s, reference_s = best_times([work.play, replay_all], repeats)
    kernel_rate, reference_rate = kernel_games / kernel_s, reference_games / reference_s
    return BenchResult(game, players, strategy, round(kernel_rate, 1), round(reference_rate, 1),
                       round(kernel_rate / reference_rate, 1), round(kernel_s / decisions * 1e9, 1),
                       round(decisions / kernel_games, 1))


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


# ---------------------------------------------------------------------------- two checkouts

# The worker each side of ``compare`` runs: ``python -c WORKER ROOT``, with ROOT's nesim first on
# the path. It reads one JSON request a line and answers one JSON line. It uses only what the
# runner has long offered (Unit, unit_table, play_games, resolve_seats), so that the other side
# can be the main branch as it was before this module learnt to compare; for that reason it
# restates ``decisions_in`` rather than importing it.
WORKER = r'''
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import nesim
from nesim.registry import resolve_seats
from nesim.runner import Unit, play_games, unit_table
from nesim.kernel import core

def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

answer({"nesim": nesim.__file__})
work = None
for line in sys.stdin:
    req = json.loads(line)
    if req["op"] == "prepare":
        n, games, seed = req["players"], req["games"], req["seed"]
        specs = tuple(s.label for s in resolve_seats(req["strategy"], n))
        unit = Unit("bench", req["game"], n, specs, games)
        data = unit.data()
        table = unit_table(unit, data)
        idx = np.arange(games, dtype=np.int64)
        play_games(unit, data, table, seed, idx[:2])  # compiled or loaded from the cache
        digest = hashlib.sha256()
        decisions = 0
        for first in range(0, games, 1000):
            res = play_games(unit, data, table, seed, idx[first:first + 1000], True)
            digest.update(np.ascontiguousarray(res.players).tobytes())
            kinds = res.logs >> 24
            within = np.arange(res.logs.shape[1])[None, :] < res.games[:, 4][:, None]
            extra = np.isin(kinds, (core.K_OPTION, core.K_SALE_SHORT, core.K_SELL_CARD))
            decisions += int(np.count_nonzero(within & ~extra))
        work = (unit, data, table, seed, idx)
        answer({"decisions": decisions, "digest": digest.hexdigest()})
    elif req["op"] == "play":
        t = time.perf_counter()
        play_games(*work)
        answer({"seconds": time.perf_counter() - t})
'''


@dataclass
class CompareResult:
    game: str
    players: int
    strategy: str
    games: int
    ns_per_decision: float          # this checkout
    against_ns_per_decision: float  # the other one
    speedup: float                  # the other's ns per decision over this one's: 2.0 = twice as fast
    same_games: bool                # both played the same moves (same final states of every game)


def checkout_root() -> Path:
    """The folder holding this nesim package."""
    return Path(__file__).resolve().parent.parent


def python_of(root: Path) -> str:
    """The interpreter to run a checkout with: its own .venv when it has one, else this one."""
    venv = root / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


class Side:
    """One checkout's worker process."""

    def __init__(self, root: Path):
        if not (root / "nesim" / "runner.py").is_file():
            raise NesimError(f"--against {root}: not a nesim checkout (no nesim/runner.py)")
        self.root = root
        # the worker's stderr goes to a file: a checkout that fails to load is one line of ours,
        # not its traceback
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([python_of(root), "-c", WORKER, str(root)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errors, text=True)
        loaded = Path(self.ask(None)["nesim"]).resolve()
        if root not in loaded.parents:
            self.close()
            raise NesimError(f"--against {root}: its worker loaded nesim from {loaded.parent}")

    def ask(self, request: dict | None) -> dict:
        if request is not None:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.errors.seek(0)
            last = (self.errors.read().strip().splitlines() or ["no message"])[-1]
            raise NesimError(f"--against: the bench worker of {self.root} stopped ({last})")
        return json.loads(line)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        self.proc.wait()
        self.errors.close()


def turns(repeats: int) -> list[tuple[int, int]]:
    """The order the two sides play in: both every repeat, the one to go first alternating, so
    neither always plays right after the other (warm caches, a neighbour's burst)."""
    return [(0, 1) if r % 2 == 0 else (1, 0) for r in range(repeats)]


def compare(against: str | Path, strategy: str = "random", games: int = 20_000, repeats: int = 5,
            configs=CONFIGS) -> list[CompareResult]:
    """This checkout's kernel against the one at ``against`` on the same games, interleaved."""
    other = Path(against).resolve()
    sides = [Side(checkout_root())]
    try:
        sides.append(Side(other))
        out = []
        for game, players in configs:
            req = {"op": "prepare", "game": game, "players": players, "strategy": strategy,
                   "games": games, "seed": SEED}
            prepared = [s.ask(req) for s in sides]
            best = [float("inf"), float("inf")]
            for order in turns(repeats):
                for i in order:
                    best[i] = min(best[i], sides[i].ask({"op": "play"})["seconds"])
            ns = [b / p["decisions"] * 1e9 for b, p in zip(best, prepared)]
            out.append(CompareResult(game, players, strategy, games, round(ns[0], 1), round(ns[1], 1),
                                     round(ns[1] / ns[0], 3),
                                     prepared[0]["digest"] == prepared[1]["digest"]))
        return out
    finally:
        for s in sides:
            s.close()
