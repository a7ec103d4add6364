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
import os
import shutil
import signal
import sys
import threading
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
# The limits of a plan. The manifest lists every chunk and is rewritten after each one, so their
# number is bounded; a chunk's games and tables are held in memory at once (about 7 KB a game,
# measured on four-player Glory), so its size is too.
MAX_CHUNKS = 100_000
MAX_CHUNK_SIZE = 100_000


@dataclass(frozen=True)
class Unit:
    """One variant of one game at one player count: ``games`` games with ids from ``id_base``."""

    variant: str
    game: str
    n_players: int
    strategies: tuple[str, ...]  # one spec per seat of game 0; later games rotate them
    games: int
    id_base: int = 0
    # {"cards": {...}, "new_cards": {...}, "rules": {...}} against the data files
    changes: dict = field(default_factory=dict)

    def data(self) -> GameData:
        base = load_game(self.game)
        if not self.changes:
            return base
        return base.with_changes(cards=self.changes.get("cards"), rules=self.changes.get("rules"),
                                 where=f"variant {self.variant}", new_cards=self.changes.get("new_cards"))


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
    driver: int | None = None  # pid of the driver that the worker must not outlive (loky), else None


def check_plan(units: list[Unit], chunk_size: int) -> None:
    """Refuses, before anything is allocated, a run whose chunk list or chunks would not fit."""
    if max(min(u.games, chunk_size) for u in units) > MAX_CHUNK_SIZE:
        raise NesimError(f"--chunk-size {chunk_size:,} is too large: a chunk is held in memory, "
                         f"at most {MAX_CHUNK_SIZE:,} games")
    n_chunks = sum(-(-u.games // chunk_size) for u in units)
    if n_chunks > MAX_CHUNKS:
        games = sum(u.games for u in units)
        raise NesimError(f"{games:,} games in chunks of {chunk_size:,} make {n_chunks:,} chunks, more than "
                         f"the {MAX_CHUNKS:,} a run can plan: at most {MAX_CHUNKS * MAX_CHUNK_SIZE:,} games "
                         f"with --chunk-size {MAX_CHUNK_SIZE:,}; split the run into several datasets")


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
    if task.driver is not None:
        end_with_driver(task.driver)
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


# ---------------------------------------------------------------------------- workers outlive no driver

_watched_driver: int | None = None


def end_with_driver(driver: int) -> None:
    """Makes this worker process end when ``driver``, the process that started it, dies.

    A driver killed by SIGKILL cannot stop its loky workers, which would otherwise wait minutes
    for more work while holding their memory. Called by every task; acts once per process."""
    global _watched_driver
    if _watched_driver is not None or os.getpid() == driver:
        return
    _watched_driver = driver
    if os.getppid() != driver:  # not a child of the driver (e.g. a nested pool): nothing to watch
        return
    _die_with_parent()
    threading.Thread(target=_watch_parent, args=(driver,), daemon=True, name="nesim-driver-watch").start()


def _die_with_parent() -> None:
    """On Linux, asks the kernel to SIGKILL this process when its parent dies: unlike a thread,
    this works while a compiled game kernel holds the GIL for a long chunk."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    PR_SET_PDEATHSIG = 1
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))


def _watch_parent(driver: int) -> None:
    """Exits the process once its parent is no longer ``driver`` (it died and we were adopted);
    the portable fallback of _die_with_parent, and a second chance on Linux."""
    while os.getppid() == driver:
        time.sleep(0.5)
    os._exit(1)


# ---------------------------------------------------------------------------- the manifest


def describe_units(units: list[Unit]) -> list[dict]:
    return [{"variant": u.variant, "game": u.game, "n_players": u.n_players,
             "strategies": list(u.strategies), "games": u.games, "id_base": u.id_base,
             "changes": u.changes} for u in units]


def units_from_manifest(manifest: dict) -> list[Unit]:
    return units_described(manifest["config"]["units"])


def units_described(descriptions: list[dict]) -> list[Unit]:
    """The units that :func:`describe_units` described."""
    return [Unit(d["variant"], d["game"], d["n_players"], tuple(d["strategies"]), d["games"],
                 d["id_base"], d.get("changes") or {}) for d in descriptions]


def read_run(out: str | Path) -> dict:
    """A dataset's manifest, checked to describe a run that can be replayed or resumed: its
    ``config`` (units, seed, chunk size) and its chunk list. Anything else is a user error."""
    manifest = ds.read_manifest(out)
    try:
        config = manifest["config"]
        units_from_manifest(manifest)
        int(config["seed"]), int(config["chunk_size"])
        for c in manifest["chunks"]:
            int(c["id"]), int(c["unit"]), int(c["first"]), int(c["count"]), str(c["status"])
    except KeyError as exc:
        raise NesimError(f"{Path(out) / ds.MANIFEST}: not a run's manifest (no {exc} in it)") from None
    except (TypeError, ValueError, AttributeError):
        raise NesimError(f"{Path(out) / ds.MANIFEST}: not a run's manifest (a malformed config or chunk list)") from None
    return manifest


def variant_tables(units: list[Unit]) -> list[dict]:
    """Each variant's full card table and rules, per game, so the manifest says what was played."""
    seen: dict[tuple[str, str], dict] = {}
    for u in units:
        if (u.variant, u.game) in seen:
            continue
        data = u.data()
        seen[(u.variant, u.game)] = {
            "name": u.variant, "game": u.game, "changes": u.changes,
            "cards": [{"key": b.key, "name": b.name, "cost": b.cost, "asset_value": b.asset_value,
                       "copies": b.copies, "effect": str(b.effect or "")} for b in data.buildings],
            "rules": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(data.rules).items()}}
    return list(seen.values())


def make_config(units: list[Unit], seed: int, chunk_size: int, baseline: str = "baseline") -> dict:
    return {"units": describe_units(units), "seed": seed, "chunk_size": chunk_size,
            "baseline": baseline}


def config_hash(config: dict) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]


def new_manifest(units: list[Unit], config: dict, command: list[str], extra: dict | None = None) -> dict:
    labels = sorted({lab for u in units for lab in _labels(u)})
    return {**(extra or {}),
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


def resumable_manifest(out: str | Path) -> dict | None:
    """The manifest of the run in ``out`` that --resume finishes; None when ``out`` is absent or
    empty (--resume then starts the run)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise NesimError(f"--out {out}: exists and is not a directory")
    return read_run(out) if out.is_dir() and any(out.iterdir()) else None


def prepare_output(out: Path, resume: bool, force: bool) -> dict | None:
    """Checks the output folder before anything runs; returns the manifest when resuming."""
    if resume:
        manifest = resumable_manifest(out)
        if manifest is not None:
            return manifest
    if out.exists() and not out.is_dir():
        raise NesimError(f"--out {out}: exists and is not a directory")
    existing = out.is_dir() and any(out.iterdir())
    if existing and not force:
        raise NesimError(f"--out {out}: directory is not empty (use --resume to finish it or --force to overwrite)")
    if existing and force and not (out / ds.MANIFEST).exists():
        raise NesimError(f"--out {out}: not a nesim dataset, so --force will not overwrite it")
    _check_writable(out)
    return None


def _check_writable(out: Path) -> None:
    probe = out if out.exists() else next((p for p in out.parents if p.exists()), Path("."))
    if not os.access(probe, os.W_OK | os.X_OK):
        raise NesimError(f"--out {out}: cannot write to {probe}")


def clear_dataset(out: Path) -> None:
    for name in ds.TABLES:
        shutil.rmtree(out / name, ignore_errors=True)
    ds.remove_temporaries(out)
    (out / ds.MANIFEST).unlink(missing_ok=True)


def check_resumable(manifest: dict, config: dict, out: Path) -> None:
    old = manifest.get("config", {})
    if manifest.get("config_hash") != config_hash(config) or old != config:
        diff = config_differences(old, config) or ["config"]
        raise NesimError(f"--resume {out}: the dataset was made by a different configuration "
                         f"(differs in: {'; '.join(diff)})")


def config_differences(old: dict, new: dict) -> list[str]:
    """What differs between two run configurations, each as 'what: VALUE here, VALUE in the dataset'."""
    said = lambda key, here, there: f"{key}: {json.dumps(here)} here, {json.dumps(there)} in the dataset"
    out = []
    for key in sorted(set(old) | set(new)):
        here, there = new.get(key), old.get(key)
        if here == there:
            continue
        if key == "units" and isinstance(here, list) and isinstance(there, list) and len(here) == len(there):
            for a, b in zip(here, there):
                unit = f"variant {a.get('variant')}, {a.get('game')}, {a.get('n_players')} players"
                out += [said(f"{k} of {unit}", a.get(k), b.get(k))
                        for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        elif key == "units":
            out.append(f"units (variant, game, player count): {len(here or [])} here, "
                       f"{len(there or [])} in the dataset")
        else:
            out.append(said(key, here, there))
    return out


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
    """Compiles (or loads from the cache) every strategy mix once, before workers start.

    On a cold Numba cache this is where the kernel compiles, for minutes: the commands that get
    here announce it (nesim/compiling.py). The strategies are compiled earlier, when the registry
    imports each one."""
    seen = set()
    for u, tab, data in zip(units, tables, datas):
        key = (u.n_players, tuple(sorted(set(u.strategies))))
        if key not in seen:
            seen.add(key)
            play_games(u, data, tab, 0, np.arange(min(u.n_players, u.games), dtype=np.int64))


@contextlib.contextmanager
def backend_context(backend: str, jobs: int, scheduler: str | None) -> Iterator[int]:
    """Yields the n_jobs to give joblib inside the chosen backend, once its workers can be reached.

    A dask scheduler is connected to within dask's connect timeout (``distributed.comm.timeouts.connect``,
    e.g. ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=10s``)."""
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
            check_scheduler_address(scheduler)
            client = Client(scheduler)
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


def check_scheduler_address(address: str) -> None:
    """Refuses what dask cannot even try to connect to (it would fail with a long traceback)."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(location)
            if not host or not 0 < port < 65536:
                raise ValueError("no host, or a port outside 1-65535")
    except ValueError as exc:
        raise NesimError(f"--scheduler {address}: not a dask scheduler address ({exc}); "
                         "expected tcp://HOST:PORT") from None


def run(units: list[Unit], out: str | Path, seed: int, *, jobs: int = 1, backend: str = "loky",
        scheduler: str | None = None, resume: bool = False, force: bool = False,
        chunk_size: int = DEFAULT_CHUNK, progress: bool = True, command: list[str] | None = None,
        baseline: str = "baseline", decide: dict | None = None, extra: dict | None = None,
        warn: Callable[[str], None] = lambda m: print(m, file=sys.stderr)) -> RunSummary:
    """Plays every unit into the dataset at ``out``; see the module text for the guarantees.

    Nothing is written until the run can start (options checked, kernels compiled, workers
    reached). A file that cannot be written (a full disk) stops the run with a one-line error;
    the chunks finished before it stay, and ``--resume`` finishes the run. ``decide`` (the
    settings of ``--until-decided``) plays the units batch by batch and stops each variant once
    decided (see play_until_decided); ``extra`` adds keys to a new manifest (``sensitivity``)."""
    out = Path(out)
    if jobs < 1:
        raise NesimError(f"--jobs must be at least 1, got {jobs}")
    check_plan(units, chunk_size)
    config = make_config(units, seed, chunk_size, baseline)
    if decide is not None:
        check_decide(units, baseline, decide)
        config["until_decided"] = decide
    manifest = prepare_output(out, resume, force)
    datas = [u.data() for u in units]
    tables = [unit_table(u, d) for u, d in zip(units, datas)]
    if manifest is not None:
        check_resumable(manifest, config, out)
    warm_up(units, tables, datas)
    with backend_context(backend, jobs, scheduler) as n_jobs:
        try:
            manifest = open_dataset(out, manifest, units, config, force, command or [], warn, extra)
            driver = os.getpid() if backend == "loky" and jobs > 1 else None
            if decide is not None:
                play = lambda chunks: _results((Task(c["id"], units[c["unit"]], datas[c["unit"]], tables[c["unit"]],
                                                     seed, c["first"], c["count"], driver) for c in chunks),
                                               n_jobs, backend)
                return play_until_decided(out, manifest, units, play, progress, warn)
            pending = [c for c in manifest["chunks"] if c["status"] != "done"]
            tasks = (Task(c["id"], units[c["unit"]], datas[c["unit"]], tables[c["unit"]], seed, c["first"],
                          c["count"], driver) for c in pending)
            return play_into(out, manifest, _results(tasks, n_jobs, backend), progress, warn)
        except ds.WriteError as exc:
            raise NesimError(f"{exc}; the chunks written so far are kept: fix that (e.g. free space), "
                             f"then finish the run with --resume --out {out}") from None


def run_ladder(ladder: dict, out: str | Path, seed: int, *, resume: bool = False, force: bool = False,
               say: Callable[[str], None] = lambda m: None, **options) -> list[RunSummary]:
    """Plays the rungs of a sweep's ``[ladder]`` (the manifest's ``ladder`` record, see
    nesim/sweep.py), each into its own dataset inside the sweep's ``out``, after the sweep itself:
    the same seeds as the sweep, so rung and sweep meet the same deals game by game. Each rung is
    a whole run (its own manifest, staging and --resume); ``options`` go to :func:`run`."""
    out = Path(out)
    if force:  # the sweep's own run has just started over: so does its ladder, old rungs included
        shutil.rmtree(out / "ladder", ignore_errors=True)
    summaries = []
    rungs = ladder["rungs"]
    for r in rungs:
        units = units_described(r["units"])
        say(f"ladder rung {r['rung']} of {len(rungs)}: {r['strategy']} in every seat, "
            f"{r['games']:,} games per variant and player count, into {out / r['dataset']}")
        summaries.append(run(units, out / r["dataset"], seed, resume=resume, **options))
    return summaries


def open_dataset(out: Path, manifest: dict | None, units: list[Unit], config: dict, force: bool,
                 command: list[str], warn: Callable[[str], None], extra: dict | None = None) -> dict:
    """Makes ``out`` ready to take chunks and returns its manifest: a resumed dataset is cleared of
    temporaries and of chunks that are not whole; a new one (or one to --force over) gets a fresh
    manifest."""
    if manifest is not None:
        ds.remove_temporaries(out)
        verify_done_chunks(out, manifest, warn)
    else:
        manifest = new_manifest(units, config, command, extra)
        if force:
            clear_dataset(out)
    out.mkdir(parents=True, exist_ok=True)
    ds.write_manifest(out, manifest)
    return manifest


def play_into(out: Path, manifest: dict, results, progress: bool, warn: Callable[[str], None]) -> RunSummary:
    """Writes each chunk's parts as it arrives and marks it done in the manifest."""
    by_id = {c["id"]: c for c in manifest["chunks"]}
    total = sum(c["count"] for c in manifest["chunks"])
    done_before = sum(c["count"] for c in manifest["chunks"] if c["status"] == "done")
    errors = 0
    start = time.perf_counter()
    with _progress_bar(total, done_before, progress) as bar:
        for chunk, parts, rows, errs in results:
            ds.write_parts(out, chunk, parts)
            by_id[chunk].update(status="done", rows=rows, errors=errs)
            errors += errs
            ds.write_manifest(out, manifest)
            bar.update(by_id[chunk]["count"])
    manifest["complete"] = True
    ds.write_manifest(out, manifest)
    ds.remove_staging(out)
    if errors:
        warn(f"nesim: warning: {errors} games ended with a kernel error flag (a strategy chose an illegal option)")
    return RunSummary(total - done_before, time.perf_counter() - start, errors, out)


def _results(tasks, n_jobs: int, backend: str):
    if backend == "loky" and n_jobs == 1:
        yield from map(run_chunk, tasks)
        return
    from joblib import Parallel, delayed

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


def find_chunk(manifest: dict, game_id: int) -> dict:
    """The manifest's entry of the chunk that holds game ``game_id``."""
    unit, i = find_game(manifest, game_id)
    u = units_from_manifest(manifest).index(unit)
    for c in manifest["chunks"]:
        if c["unit"] == u and c["first"] <= i < c["first"] + c["count"]:
            return c
    stopped = (manifest.get("decisions") or {}).get(str(u))
    if stopped is not None:
        raise NesimError(f"game {game_id} was never played: variant {unit.variant!r} stopped after "
                         f"{stopped['games']:,} games (--until-decided: {stopped['status']})")
    raise NesimError(f"game {game_id} is in no chunk of this dataset's manifest")


def regenerate(manifest: dict, game_id: int):
    """Plays one stored game again; returns (unit, data, its DecisionLog, kernel players array)."""
    unit, i = find_game(manifest, game_id)
    data = unit.data()
    res = play_games(unit, data, unit_table(unit, data), manifest["config"]["seed"],
                     np.array([i], dtype=np.int64), with_log=True)
    return unit, data, res.decision_log(0), res


# ---------------------------------------------------------------------------- games in memory


def play_in_memory(unit: Unit, seed: int, first: int, count: int, n_jobs: int = 1,
                   backend: str = "loky") -> dict[str, pa.Table]:
    """Games ``first .. first+count-1`` of one unit, played through the same workers as a run and
    returned as the four tables, without a dataset on disk (``nesim tune`` plays its candidates
    this way). Game ``i`` has the same seed in every unit of the same player count, so candidates
    played over the same range share their deals (common random numbers). Call inside
    :func:`backend_context` (``n_jobs`` is what it yields) after :func:`warm_up`."""
    import pyarrow.parquet as pq

    data = unit.data()
    table = unit_table(unit, data)
    workers = n_jobs if n_jobs > 0 else (os.cpu_count() or 1)  # dask: n_jobs is -1
    pieces = max(1, min(count, workers))
    bounds = np.linspace(first, first + count, pieces + 1).astype(np.int64)
    tasks = [Task(i, unit, data, table, seed, int(a), int(b - a)) for i, (a, b) in
             enumerate(zip(bounds[:-1], bounds[1:])) if b > a]
    parts: dict[int, dict[str, bytes]] = {}
    for chunk, payload, _, _ in _results(iter(tasks), n_jobs, backend):
        parts[chunk] = payload
    return {name: pa.concat_tables([pq.read_table(pa.BufferReader(parts[c][name])) for c in sorted(parts)])
            for name in ds.TABLES}
# ---------------------------------------------------------------------------- sweeps run until decided
#
# ``nesim sweep --until-decided``: every variant plays its games in batches (one chunk = one batch)
# beside the baseline of its game and player count, which plays the same seeds at the same game
# indices, so the two are compared game by game and the baseline's games serve every variant.
# After each batch a variant is looked at: once the always-valid confidence sequence of its paired
# difference on the chosen figure excludes 0 or lies within +-margin (nesim/stats.py), it stops and
# its chunks not yet played are dropped from the plan; otherwise it goes on up to the cap
# (``--max-games``). The baseline plays as long as one of its variants does. The manifest's
# ``decisions`` records, per unit, the games it needed and why it stopped; looks fall on chunk
# boundaries whatever the run was interrupted by, so --resume reaches the same decisions.

DEFAULT_BATCH = 1000


def decide_settings(on: str, alpha: float, margin: float | None, max_games: int) -> dict:
    """The ``--until-decided`` settings as the run's configuration records them, checked."""
    from nesim.stats import parse_figure

    figure = parse_figure(on, "--on")
    if not 0 < alpha < 1:
        raise NesimError(f"--alpha must be between 0 and 1, got {alpha}")
    if margin is not None and not margin > 0:
        raise NesimError(f"--margin must be above 0, got {margin}")
    if max_games < 1:
        raise NesimError(f"--max-games must be at least 1, got {max_games}")
    return {"on": figure.name, "alpha": float(alpha),
            "margin": float(figure.default_margin() if margin is None else margin), "max_games": int(max_games)}


def decision_pairs(units: list[Unit], baseline: str) -> dict[int, int]:
    """Each variant unit's index -> the index of the baseline unit of its game and player count."""
    base = {(u.game, u.n_players): i for i, u in enumerate(units) if u.variant == baseline}
    return {i: base[(u.game, u.n_players)] for i, u in enumerate(units)
            if u.variant != baseline and (u.game, u.n_players) in base}


def check_decide(units: list[Unit], baseline: str, decide: dict) -> None:
    """Refuses a figure that some compared unit cannot give (a strategy it does not seat, a card
    not in its game) and a sweep with nothing to compare."""
    from nesim.stats import parse_figure

    figure = parse_figure(decide["on"], "--on")
    pairs = decision_pairs(units, baseline)
    if not pairs:
        raise NesimError(f"--until-decided: the sweep has no variant besides the baseline {baseline!r} to decide on")
    for i in sorted(set(pairs) | set(pairs.values())):
        u = units[i]
        if figure.kind == "win" and figure.arg not in _labels(u):
            raise NesimError(f"--on {figure.name}: variant {u.variant!r} ({u.game}, {u.n_players} players) "
                             f"does not seat {figure.arg} (it seats {', '.join(_labels(u))})")
        if figure.kind == "card_edge" and figure.arg not in load_game(u.game).index:
            raise NesimError(f"--on {figure.name}: {figure.arg} is not a card of {u.game}")


class _FigureValues:
    """The chosen figure of every game played so far, per unit, in game-index order; filled from
    the chunk parts on disk (so a resumed run sees what an uninterrupted one saw)."""

    def __init__(self, out: Path, units: list[Unit], figure):
        self.out, self.units, self.figure = out, units, figure
        self.values = [np.full(u.games, np.nan) for u in units]

    def add_chunk(self, chunk: dict) -> None:
        from nesim.stats import game_figure

        u = self.units[chunk["unit"]]
        players = ds.read_table(self.out, "players", chunks=[chunk["id"]]).to_pandas()
        builds = ds.read_table(self.out, "builds", chunks=[chunk["id"]]).to_pandas() \
            if self.figure.kind == "card_edge" else None
        if not len(players):
            return
        v = game_figure(self.figure, players, builds)
        self.values[chunk["unit"]][v.index.to_numpy(np.int64) - u.id_base] = v.to_numpy(float)


def play_until_decided(out: Path, manifest: dict, units: list[Unit], play, progress: bool,
                       warn: Callable[[str], None]) -> RunSummary:
    """Plays the dataset's chunks round by round, one batch per open unit, until every variant is
    decided or at its cap; see the section's text. ``play(chunks)`` yields their results."""
    from nesim.stats import parse_figure

    settings = manifest["config"]["until_decided"]
    figure = parse_figure(settings["on"], "--on")
    pairs = decision_pairs(units, manifest["config"]["baseline"])
    alpha = settings["alpha"] / len(pairs)  # Bonferroni over the variants: the family's error rate
    decisions: dict = manifest.setdefault("decisions", {})
    values = _FigureValues(out, units, figure)
    by_unit: dict[int, list[dict]] = {}
    for c in manifest["chunks"]:
        by_unit.setdefault(c["unit"], []).append(c)
        if c["status"] == "done":
            values.add_chunk(c)
    played = lambda u: sum(c["count"] for c in by_unit.get(u, []) if c["status"] == "done")
    pending = lambda u: [c for c in by_unit.get(u, []) if c["status"] != "done"]
    is_open = lambda v: str(v) not in decisions
    errors, games_before, start = 0, sum(played(u) for u in range(len(units))), time.perf_counter()

    def look() -> None:
        """Decides every open variant whose games so far are paired with the baseline's."""
        for v, b in pairs.items():
            t = played(v)
            if not is_open(v) or t == 0 or played(b) < t:
                continue
            diffs = values.values[v][:t] - values.values[b][:t]
            diffs = diffs[~np.isnan(diffs)]
            d = sequential_decision_of(diffs, alpha, settings["margin"], units[v].games)
            if d["status"] == "open" and pending(v):
                continue
            decisions[str(v)] = _decision_record(v, units[v], figure.name, d, t, alpha, settings["margin"])
            _drop_chunks(manifest, by_unit, v)

    def needed() -> list[dict]:
        """The next chunk of every open variant, of every baseline one of them waits for, and of
        every unit compared with nothing (played whole)."""
        chunks = []
        for u in range(len(units)):
            if not pending(u):
                continue
            if u in pairs:
                wanted = is_open(u)
            else:
                mine = [v for v, b in pairs.items() if b == u]
                wanted = not mine or any(is_open(v) and played(v) >= played(u) for v in mine)
            if wanted:
                chunks.append(pending(u)[0])
        return chunks

    total = lambda: sum(c["count"] for c in manifest["chunks"])
    with _progress_bar(total(), games_before, progress) as bar:
        look()
        while True:
            for b in set(pairs.values()):  # a baseline whose variants are all decided plays no more
                if not any(is_open(v) for v, b2 in pairs.items() if b2 == b):
                    _drop_chunks(manifest, by_unit, b)
            ds.write_manifest(out, manifest)
            bar.total = total()
            chunks = needed()
            if not chunks:
                break
            by_id = {c["id"]: c for c in chunks}
            for chunk, parts, rows, errs in play(chunks):
                ds.write_parts(out, chunk, parts)
                by_id[chunk].update(status="done", rows=rows, errors=errs)
                errors += errs
                ds.write_manifest(out, manifest)
                values.add_chunk(by_id[chunk])
                bar.update(by_id[chunk]["count"])
            look()
    for b in sorted(set(pairs.values())):
        decisions[str(b)] = {"unit": b, "variant": units[b].variant, "game": units[b].game,
                             "n_players": units[b].n_players, "figure": figure.name, "status": "baseline",
                             "games": played(b), "max_games": units[b].games,
                             "reason": "the baseline: played as long as one of its variants did "
                                       "(they share its games, seed by seed)"}
    manifest["complete"] = True
    ds.write_manifest(out, manifest)
    ds.remove_staging(out)
    if errors:
        warn(f"nesim: warning: {errors} games ended with a kernel error flag (a strategy chose an illegal option)")
    games_now = sum(played(u) for u in range(len(units)))
    return RunSummary(games_now - games_before, time.perf_counter() - start, errors, out)


def sequential_decision_of(diffs: np.ndarray, alpha: float, margin: float, cap: int) -> dict:
    """stats.sequential_decision with the confidence sequence made tightest at half the cap,
    where the variants that are not decided early are decided."""
    from nesim.stats import sequential_decision

    return sequential_decision(diffs, alpha, margin, max(cap // 2, 1))


def _drop_chunks(manifest: dict, by_unit: dict[int, list[dict]], u: int) -> None:
    """Removes the unit's chunks not played from the plan: they never will be, and readers then
    see a complete dataset (the unit's games are those of its done chunks)."""
    drop = {id(c) for c in by_unit.get(u, []) if c["status"] != "done"}
    manifest["chunks"] = [c for c in manifest["chunks"] if id(c) not in drop]
    by_unit[u] = [c for c in by_unit.get(u, []) if id(c) not in drop]


def _decision_record(index: int, unit: Unit, figure: str, d: dict, games: int, alpha: float, margin: float) -> dict:
    est, lo, hi = (round(float(d[k]), 6) for k in ("estimate", "lo", "hi"))
    cs = f"{100 * (1 - alpha):.4g}% confidence sequence [{lo:+.4g}, {hi:+.4g}]"
    if d["status"] == "differs":
        status, reason = "differs", f"the {cs} excludes 0 after {games:,} games"
    elif d["status"] == "within margin":
        status, reason = "within margin", f"the {cs} lies within ±{margin:g} after {games:,} games"
    else:
        status, reason = "undecided", f"reached the cap of {unit.games:,} games; the {cs} neither excludes 0 nor lies within ±{margin:g}"
    return {"unit": index, "variant": unit.variant, "game": unit.game, "n_players": unit.n_players,
            "figure": figure, "status": status, "games": games, "max_games": unit.games,
            "stopped_early": games < unit.games, "estimate": est, "lo": lo, "hi": hi, "alpha": alpha,
            "margin": margin, "reason": reason}


def decision_lines(manifest: dict) -> list[str]:
    """One line per variant of a sweep run until decided: its decision, games and why."""
    out = []
    for d in manifest.get("decisions", {}).values():
        where = f"{d['variant']} ({d['game']}, {d['n_players']} players)"
        if d["status"] == "baseline":
            out.append(f"{where}: {d['games']:,} of {d['max_games']:,} games, {d['reason']}")
        else:
            out.append(f"{where}: {d['status']} after {d['games']:,} of {d['max_games']:,} games: {d['reason']}")
    return out
