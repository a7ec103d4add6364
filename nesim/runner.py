"""Running many games: chunks of games through joblib (loky on one machine, dask on a cluster).

A run is a list of :class:`Unit` (one variant of one game at one player count, with its
strategies) cut into chunks of at most ``chunk_size`` games. Workers play a chunk in the kernel
and send back its four tables as Parquet bytes; the driver alone writes files, so workers need
no shared filesystem. Game ``i`` of a unit has the seed ``game_seeds(seed, n_players, i)`` and
seat ``s`` plays strategy ``(s + i) mod n`` of the unit's list, so the data depends on nothing
but the configuration: not on ``--jobs``, the chunk size or the backend.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import pyarrow as pa

from nesim import __version__
from nesim import dataset as ds
from nesim.cards import GameData, load_game
from nesim.errors import NesimError
from nesim.rng import game_seeds

DEFAULT_CHUNK = 10_000


@dataclass(frozen=True)
class Unit:
    """One variant of one game at one player count: ``games`` games with ids from ``id_base``."""

    variant: str
    game: str
    n_players: int
    strategies: tuple[str, ...]  # one spec per seat of game 0; later games rotate them
    games: int
    id_base: int = 0
    changes: dict = field(default_factory=dict)  # {"cards": {...}, "rules": {...}} against the data files

    def data(self) -> GameData:
        base = load_game(self.game)
        if not self.changes:
            return base
        return base.with_changes(cards=self.changes.get("cards"), rules=self.changes.get("rules"),
                                 where=f"variant {self.variant}")


@dataclass(frozen=True)
class Task:
    """What a worker needs to play one chunk; small and picklable."""

    chunk: int
    unit: Unit
    data: GameData
    table: np.ndarray
    seed: int
    first: int
    count: int


def plan_chunks(units: list[Unit], chunk_size: int) -> list[dict]:
    chunks = []
    for u, unit in enumerate(units):
        for first in range(0, unit.games, chunk_size):
            chunks.append({"id": len(chunks), "unit": u, "first": first,
                           "count": min(chunk_size, unit.games - first), "status": "pending"})
    return chunks


def rotation(strategies: tuple[str, ...], i: int) -> list[str]:
    """The strategy of each seat in game ``i``: seat s plays entry (s + i) mod n."""
    n = len(strategies)
    return [strategies[(s + i) % n] for s in range(n)]


# ---------------------------------------------------------------------------- one chunk


def unit_table(unit: Unit, data: GameData) -> np.ndarray:
    """The card table the unit's games are played from, with the rows its strategies bring."""
    from nesim.registry import game_table, resolve

    return game_table(data, [resolve(spec) for spec in sorted(set(unit.strategies))])


def play_games(unit: Unit, data: GameData, table: np.ndarray, seed: int, indices: np.ndarray,
               with_log: bool = False):
    """Plays the unit's games of the given indices; returns one merged BatchResult-like record."""
    from nesim.kernel import batch
    from nesim.registry import param_matrix, resolve

    n = unit.n_players
    resolved = {spec: resolve(spec) for spec in set(unit.strategies)}
    seeds = game_seeds(seed, n, indices)
    rotations = [0] if len(set(unit.strategies)) == 1 else range(n)
    merged = None
    for r in rotations:
        pos = np.nonzero(indices % n == r)[0] if len(rotations) > 1 else np.arange(len(indices))
        if len(pos) == 0:
            continue
        seats = [resolved[spec] for spec in rotation(unit.strategies, r)]
        params = param_matrix(seats)
        res = batch.play(data, n, seeds[pos], [s.choose for s in seats], params, with_log, table)
        if merged is None:
            merged = _empty_like(res, len(indices))
            merged.seeds[:] = seeds
        for name in ("players", "rounds", "games", "build_card", "build_round"):
            getattr(merged, name)[pos] = getattr(res, name)
        if with_log:
            merged.logs[pos] = res.logs
    return merged


def _empty_like(res, g: int):
    import dataclasses

    arrays = {name: np.empty((g,) + getattr(res, name).shape[1:], getattr(res, name).dtype)
              for name in ("players", "rounds", "games", "build_card", "build_round")}
    logs = np.empty((g,) + res.logs.shape[1:], res.logs.dtype) if res.logs is not None else None
    return dataclasses.replace(res, seeds=np.empty(g, np.uint64), logs=logs, **arrays)


def run_chunk(task: Task) -> tuple[int, dict[str, bytes], dict[str, int], int]:
    """Plays one chunk and returns (chunk id, Parquet bytes per table, rows per table, errors)."""
    unit = task.unit
    indices = np.arange(task.first, task.first + task.count, dtype=np.int64)
    res = play_games(unit, task.data, task.table, task.seed, indices)
    tables = chunk_tables(unit, task.data, res, indices)
    parts = {name: ds.parquet_bytes(t) for name, t in tables.items()}
    rows = {name: t.num_rows for name, t in tables.items()}
    errors = int(np.count_nonzero(res.games[:, 3]))
    return task.chunk, parts, rows, errors


def chunk_tables(unit: Unit, data: GameData, res, indices: np.ndarray) -> dict[str, pa.Table]:
    """The four tables of a played chunk, in game, seat, round order."""
    from nesim.kernel import core

    n, g = unit.n_players, len(indices)
    key = {"variant": unit.variant, "game": unit.game, "n_players": n}
    game_id = unit.id_base + indices
    labels = _labels(unit)
    seat_labels = [";".join(labels[(s + r) % n] for s in range(n)) for r in range(n)]
    games = ds.table_from_columns("games", {
        **key, "game_id": game_id, "seed": res.seeds, "winner_seat": res.games[:, 0],
        "rounds_played": res.games[:, 1], "household_end": res.games[:, 2],
        "strategies": _strings(seat_labels, indices % n)})

    pf = res.players[:, :n]
    seat = np.tile(np.arange(n), g)
    pid = np.repeat(game_id, n)
    strategy_of = _strings(labels, (seat + np.repeat(indices, n)) % n)
    col = lambda f: pf[:, :, f].reshape(-1)
    cleared = col(core.F_CLEARED) == 1
    players = ds.table_from_columns("players", {
        **key, "game_id": pid, "seat": seat, "strategy": strategy_of,
        "score": col(core.F_SCORE), "rank": col(core.F_RANK), "win": col(core.F_RANK) == 1,
        "money": col(core.F_MONEY), "building_points": col(core.F_BUILDING),
        "bonus_points": col(core.F_BONUS), "vp_tokens": col(core.F_VP_TOKENS),
        "vp_points": col(core.F_VP_POINTS), "unpaid_wages": col(core.F_UNPAID),
        "workers": col(core.F_WORKERS), "buildings": col(core.F_BUILDINGS), "solo_cleared": cleared})

    cards = res.build_card[:, :n]
    gi, si, ki = np.nonzero(cards >= 0)
    card = _strings([b.key for b in data.buildings], cards[gi, si, ki])
    builds = ds.table_from_columns("builds", {
        **key, "game_id": game_id[gi], "seat": si, "card": card,
        "round": res.build_round[:, :n][gi, si, ki]})

    nr = data.rules.rounds
    rf = res.rounds[:, :nr, :n].transpose(0, 2, 1, 3)  # game, seat, round, field
    rcol = lambda f: rf[:, :, :, f].reshape(-1)
    rounds = ds.table_from_columns("rounds", {
        **key, "game_id": np.repeat(game_id, n * nr), "seat": np.tile(np.repeat(np.arange(n), nr), g),
        "round": np.tile(np.arange(1, nr + 1), g * n), "money": rcol(core.RF_MONEY),
        "household": rcol(core.RF_HOUSEHOLD), "workers": rcol(core.RF_WORKERS),
        "hand": rcol(core.RF_HAND), "buildings": rcol(core.RF_BUILDINGS),
        "wages_paid": rcol(core.RF_WAGES), "unpaid_wages": rcol(core.RF_UNPAID),
        "sold": rcol(core.RF_SOLD)})
    return {"games": games, "players": players, "builds": builds, "rounds": rounds}


def _strings(values: list[str], codes: np.ndarray) -> pa.Array:
    """values[codes] as an Arrow string array, without a Python object per row."""
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32)), pa.array(values)).cast(pa.string())


def _labels(unit: Unit) -> list[str]:
    from nesim.registry import resolve

    return [resolve(s).label for s in unit.strategies]


# ---------------------------------------------------------------------------- the manifest


def describe_units(units: list[Unit]) -> list[dict]:
    return [{"variant": u.variant, "game": u.game, "n_players": u.n_players,
             "strategies": list(u.strategies), "games": u.games, "id_base": u.id_base,
             "changes": u.changes} for u in units]


def units_from_manifest(manifest: dict) -> list[Unit]:
    return [Unit(d["variant"], d["game"], d["n_players"], tuple(d["strategies"]), d["games"],
                 d["id_base"], d.get("changes") or {}) for d in manifest["config"]["units"]]


def variant_tables(units: list[Unit]) -> list[dict]:
    """Each variant's full card table and rules, per game, so the manifest says what was played."""
    seen: dict[tuple[str, str], dict] = {}
    for u in units:
        if (u.variant, u.game) in seen:
            continue
        data = u.data()
        seen[(u.variant, u.game)] = {
            "name": u.variant, "game": u.game, "changes": u.changes,
            "cards": [{"key": b.key, "cost": b.cost, "asset_value": b.asset_value, "copies": b.copies}
                      for b in data.buildings],
            "rules": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(data.rules).items()}}
    return list(seen.values())


def make_config(units: list[Unit], seed: int, chunk_size: int, baseline: str = "baseline") -> dict:
    return {"units": describe_units(units), "seed": seed, "chunk_size": chunk_size,
            "baseline": baseline}


def config_hash(config: dict) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]


def new_manifest(units: list[Unit], config: dict, command: list[str]) -> dict:
    labels = sorted({lab for u in units for lab in _labels(u)})
    return {
        "format": ds.FORMAT, "nesim_version": __version__, "command": command,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "games": sorted({u.game for u in units}), "players": sorted({u.n_players for u in units}),
        "strategies": labels, "variants": variant_tables(units), "baseline": config["baseline"],
        "seed": config["seed"], "games_per_variant": max(u.games for u in units),
        "total_games": sum(u.games for u in units),
        "config": config, "config_hash": config_hash(config), "complete": False,
        "chunks": plan_chunks(units, config["chunk_size"]),
    }


# ---------------------------------------------------------------------------- the output folder


def prepare_output(out: Path, resume: bool, force: bool) -> dict | None:
    """Checks the output folder before anything runs; returns the manifest when resuming."""
    if out.exists() and not out.is_dir():
        raise NesimError(f"--out {out}: exists and is not a directory")
    existing = out.is_dir() and any(out.iterdir())
    if existing and resume:
        return ds.read_manifest(out)
    if existing and not force:
        raise NesimError(f"--out {out}: directory is not empty (use --resume to finish it or --force to overwrite)")
    if existing and force and not (out / ds.MANIFEST).exists():
        raise NesimError(f"--out {out}: not a nesim dataset, so --force will not overwrite it")
    _check_writable(out)
    return None


def _check_writable(out: Path) -> None:
    probe = out if out.exists() else next((p for p in out.parents if p.exists()), Path("."))
    import os

    if not os.access(probe, os.W_OK | os.X_OK):
        raise NesimError(f"--out {out}: cannot write to {probe}")


def clear_dataset(out: Path) -> None:
    for name in ds.TABLES:
        shutil.rmtree(out / name, ignore_errors=True)
    (out / ds.MANIFEST).unlink(missing_ok=True)


def check_resumable(manifest: dict, config: dict, out: Path) -> None:
    old = manifest.get("config", {})
    if manifest.get("config_hash") != config_hash(config) or old != config:
        diff = sorted(k for k in set(old) | set(config) if old.get(k) != config.get(k)) or ["config"]
        raise NesimError(f"--resume {out}: the dataset was made by a different configuration "
                         f"(differs in: {', '.join(diff)})")


def verify_done_chunks(out: Path, manifest: dict, warn: Callable[[str], None]) -> None:
    """Marks pending any chunk whose parts are missing, unreadable or of the wrong size."""
    for c in manifest["chunks"]:
        if c["status"] != "done":
            ds.remove_parts(out, c["id"])
            continue
        rows = ds.part_rows(out, c["id"])
        if rows != c.get("rows"):
            bad = [str(out / t / ds.part_name(c["id"])) for t in ds.TABLES]
            warn(f"nesim: chunk {c['id']} has a missing or corrupt part ({bad[0]} ...); redoing it")
            ds.remove_parts(out, c["id"])
            c["status"] = "pending"


# ---------------------------------------------------------------------------- running


@dataclass
class RunSummary:
    games: int
    seconds: float
    errors: int
    out: Path


def warm_up(units: list[Unit], tables: list[np.ndarray], datas: list[GameData]) -> None:
    """Compiles (or loads from the cache) every strategy mix once, before workers start."""
    seen = set()
    for u, tab, data in zip(units, tables, datas):
        key = (u.n_players, tuple(sorted(set(u.strategies))))
        if key not in seen:
            seen.add(key)
            play_games(u, data, tab, 0, np.arange(min(u.n_players, u.games), dtype=np.int64))


@contextlib.contextmanager
def backend_context(backend: str, jobs: int, scheduler: str | None) -> Iterator[int]:
    """Yields the n_jobs to give joblib inside the chosen backend."""
    if backend == "loky":
        yield jobs
        return
    try:
        import joblib
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise NesimError("--backend dask needs dask[distributed]: pip install 'nesim[dask]'") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="10s")
        else:
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
    except (OSError, TimeoutError) as exc:
        raise NesimError(f"--scheduler {scheduler}: cannot reach the dask scheduler ({exc})") from None
    try:
        with joblib.parallel_config(backend="dask"):
            yield -1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run(units: list[Unit], out: str | Path, seed: int, *, jobs: int = 1, backend: str = "loky",
        scheduler: str | None = None, resume: bool = False, force: bool = False,
        chunk_size: int = DEFAULT_CHUNK, progress: bool = True, command: list[str] | None = None,
        baseline: str = "baseline",
        warn: Callable[[str], None] = lambda m: print(m, file=sys.stderr)) -> RunSummary:
    """Plays every unit into the dataset at ``out``; see the module text for the guarantees."""
    out = Path(out)
    if jobs < 1:
        raise NesimError(f"--jobs must be at least 1, got {jobs}")
    config = make_config(units, seed, chunk_size, baseline)
    manifest = prepare_output(out, resume, force)
    datas = [u.data() for u in units]
    tables = [unit_table(u, d) for u, d in zip(units, datas)]
    if manifest is not None:
        check_resumable(manifest, config, out)
        verify_done_chunks(out, manifest, warn)
    else:
        manifest = new_manifest(units, config, command or [])
    warm_up(units, tables, datas)
    if force:
        clear_dataset(out)
    out.mkdir(parents=True, exist_ok=True)
    ds.write_manifest(out, manifest)

    pending = [c for c in manifest["chunks"] if c["status"] != "done"]
    tasks = (Task(c["id"], units[c["unit"]], datas[c["unit"]], tables[c["unit"]], seed, c["first"], c["count"])
             for c in pending)
    by_id = {c["id"]: c for c in manifest["chunks"]}
    total = sum(c["count"] for c in manifest["chunks"])
    done_before = total - sum(c["count"] for c in pending)
    errors = 0
    start = time.perf_counter()
    with _progress_bar(total, done_before, progress) as bar:
        for chunk, parts, rows, errs in _results(tasks, jobs, backend, scheduler):
            ds.write_parts(out, chunk, parts)
            by_id[chunk].update(status="done", rows=rows, errors=errs)
            errors += errs
            ds.write_manifest(out, manifest)
            bar.update(by_id[chunk]["count"])
    manifest["complete"] = True
    ds.write_manifest(out, manifest)
    if errors:
        warn(f"nesim: warning: {errors} games ended with a kernel error flag (a strategy chose an illegal option)")
    return RunSummary(total - done_before, time.perf_counter() - start, errors, out)


def _results(tasks, jobs: int, backend: str, scheduler: str | None):
    if backend == "loky" and jobs == 1:
        yield from map(run_chunk, tasks)
        return
    from joblib import Parallel, delayed

    with backend_context(backend, jobs, scheduler) as n_jobs:
        parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered", pre_dispatch="2*n_jobs")
        yield from parallel(delayed(run_chunk)(t) for t in tasks)


@contextlib.contextmanager
def _progress_bar(total: int, initial: int, enabled: bool):
    from tqdm import tqdm

    disable = not enabled or not sys.stderr.isatty()
    with tqdm(total=total, initial=initial, unit="game", unit_scale=True, disable=disable,
              dynamic_ncols=True, smoothing=0.1) as bar:
        yield bar


# ---------------------------------------------------------------------------- one game again


def find_game(manifest: dict, game_id: int) -> tuple[Unit, int]:
    for unit in units_from_manifest(manifest):
        if unit.id_base <= game_id < unit.id_base + unit.games:
            return unit, game_id - unit.id_base
    raise NesimError(f"game {game_id} is not in this dataset")


def regenerate(manifest: dict, game_id: int):
    """Plays one stored game again; returns (unit, data, its DecisionLog, kernel players array)."""
    unit, i = find_game(manifest, game_id)
    data = unit.data()
    res = play_games(unit, data, unit_table(unit, data), manifest["config"]["seed"],
                     np.array([i], dtype=np.int64), with_log=True)
    return unit, data, res.decision_log(0), res
