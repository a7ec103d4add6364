"""The dataset on disk: its four Parquet tables, the manifest, and writing both whole.

A dataset is a directory::

    manifest.json            what was run and which chunks are done
    games/part-NNNNN.parquet     one row per game
    players/part-NNNNN.parquet   one row per player per game
    builds/part-NNNNN.parquet    one row per building built
    rounds/part-NNNNN.parquet    one row per player per round

Every file is written under a temporary name in ``DIR/.staging/`` and then renamed into place, so
a killed run (or a full disk) leaves either a whole file or a temporary one outside the table
folders, where no reader of ``DIR/<table>`` looks; ``remove_temporaries`` clears them on
``--resume``. A chunk counts as done only once its four parts are in place and the manifest says so.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from nesim.errors import NesimError

TABLES = ("games", "players", "builds", "rounds")
MANIFEST = "manifest.json"
FORMAT = 1
# Hidden, and beside the table folders rather than in them: pandas, pyarrow, polars and DuckDB
# read every file of DIR/<table>/, and would fail on a half-written one.
STAGING = ".staging"


class WriteError(NesimError):
    """A dataset file could not be written (disk full, permissions...); names the file and why."""

    def __init__(self, path: Path, exc: OSError):
        super().__init__(f"{path}: cannot write ({exc.strerror or exc})")
        self.path = path

_KEY = [("game_id", pa.int64()), ("variant", pa.string()), ("game", pa.string()),
        ("n_players", pa.int8())]

SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema(_KEY + [
        ("seed", pa.uint64()), ("winner_seat", pa.int8()), ("rounds_played", pa.int8()),
        ("household_end", pa.int32()), ("strategies", pa.string())]),
    "players": pa.schema(_KEY + [
        ("seat", pa.int8()), ("strategy", pa.string()), ("score", pa.int16()), ("rank", pa.int8()),
        ("win", pa.bool_()), ("money", pa.int16()), ("building_points", pa.int16()),
        ("bonus_points", pa.int16()), ("vp_tokens", pa.int16()), ("vp_points", pa.int16()),
        ("unpaid_wages", pa.int16()), ("workers", pa.int8()), ("buildings", pa.int8()),
        ("solo_cleared", pa.bool_())]),
    "builds": pa.schema(_KEY + [("seat", pa.int8()), ("card", pa.string()), ("round", pa.int8())]),
    "rounds": pa.schema(_KEY + [
        ("seat", pa.int8()), ("round", pa.int8()), ("money", pa.int16()), ("household", pa.int32()),
        ("workers", pa.int8()), ("hand", pa.int16()), ("buildings", pa.int16()),
        ("wages_paid", pa.int16()), ("unpaid_wages", pa.int16()), ("sold", pa.int16())]),
}


def table_from_columns(name: str, columns: dict[str, Any]) -> pa.Table:
    """A table of the named schema from numpy or Arrow arrays (a scalar is repeated)."""
    schema = SCHEMAS[name]
    n = max((len(v) for v in columns.values() if isinstance(v, (np.ndarray, pa.Array))), default=0)
    arrays = []
    for f in schema:
        v = columns[f.name]
        if isinstance(v, pa.Array):
            arrays.append(v.cast(f.type))
        elif isinstance(v, np.ndarray):
            arrays.append(pa.array(v, type=f.type))
        else:
            arrays.append(_repeat(v, f.type, n))
    return pa.Table.from_arrays(arrays, schema=schema)


def _repeat(value: Any, type_: pa.DataType, n: int) -> pa.Array:
    if pa.types.is_string(type_):
        return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int32)), pa.array([value])).cast(type_)
    return pa.array(np.full(n, value), type=type_)


def parquet_bytes(table: pa.Table) -> bytes:
    """The table as a Parquet file in memory, so that a worker can compress and the driver write."""
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def part_name(chunk: int) -> str:
    return f"part-{chunk:05d}.parquet"


def write_whole(out: Path, path: Path, payload: bytes) -> None:
    """Writes ``path`` of the dataset ``out`` under a temporary name in its staging folder, then
    renames it into place; raises WriteError (and leaves no temporary) when the write fails."""
    staging = out / STAGING
    tmp = staging / "-".join(path.relative_to(out).parts)
    try:
        staging.mkdir(exist_ok=True)
        path.parent.mkdir(exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise WriteError(path, exc) from None


def write_parts(out: Path, chunk: int, parts: dict[str, bytes]) -> None:
    for name in TABLES:
        write_whole(out, out / name / part_name(chunk), parts[name])


def remove_temporaries(out: Path) -> None:
    """Removes what killed writers left: the staging folder, and the ``*.tmp`` files that
    datasets of earlier nesim versions kept beside their parts."""
    shutil.rmtree(out / STAGING, ignore_errors=True)
    (out / (MANIFEST + ".tmp")).unlink(missing_ok=True)
    for name in TABLES:
        for tmp in (out / name).glob("part-*.parquet.tmp"):
            tmp.unlink(missing_ok=True)


def remove_staging(out: Path) -> None:
    """Removes the staging folder once it is empty (at the end of a run)."""
    with contextlib.suppress(OSError):
        (out / STAGING).rmdir()


def part_rows(out: Path, chunk: int) -> dict[str, int] | None:
    """Row counts of a chunk's four parts, or None when one is missing or unreadable."""
    rows = {}
    for name in TABLES:
        path = out / name / part_name(chunk)
        try:
            meta = pq.read_metadata(path)
        except (OSError, pa.ArrowException):
            return None
        if meta.schema.to_arrow_schema().names != SCHEMAS[name].names:
            return None
        rows[name] = meta.num_rows
    return rows


def remove_parts(out: Path, chunk: int) -> None:
    for name in TABLES:
        (out / name / part_name(chunk)).unlink(missing_ok=True)


def write_manifest(out: Path, manifest: dict) -> None:
    write_whole(out, out / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())


def read_manifest(path: str | Path) -> dict:
    """The manifest of a dataset directory; a missing or unreadable one is a user error."""
    if not Path(path).is_dir():
        raise NesimError(f"{path}: no such dataset directory")
    p = Path(path) / MANIFEST
    try:
        manifest = json.loads(p.read_text())
    except FileNotFoundError:
        raise NesimError(f"{path}: not a nesim dataset (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise NesimError(f"{p}: unreadable manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise NesimError(f"{p}: not a nesim dataset manifest of format {FORMAT}")
    return manifest


def part_paths(path: str | Path, name: str, manifest: dict | None = None,
               chunks: list[int] | None = None) -> list[Path]:
    """The parts of one table of a dataset that the manifest lists as done (and, given
    ``chunks``, only those chunks'), in chunk order: what every reader reads."""
    path = Path(path)
    manifest = read_manifest(path) if manifest is None else manifest
    listed = manifest.get("chunks")
    if not isinstance(listed, list) or not all(isinstance(c, dict) and "id" in c for c in listed):
        raise NesimError(f"{path / MANIFEST}: its chunk list is malformed")
    wanted = None if chunks is None else set(chunks)
    return [path / name / part_name(int(c["id"])) for c in listed
            if c.get("status") == "done" and (wanted is None or c["id"] in wanted)]


def read_table(path: str | Path, name: str, columns: list[str] | None = None,
               filters: list | None = None, chunks: list[int] | None = None) -> pa.Table:
    """One table of a dataset, read only from the parts the manifest lists as done (and, given
    ``chunks``, only from those chunks' parts); an unreadable part is a user error naming it."""
    tables = list(read_parts(path, name, columns, filters, chunks))
    return pa.concat_tables(tables) if tables else _schema(name, columns).empty_table()


def read_parts(path: str | Path, name: str, columns: list[str] | None = None,
               filters: list | None = None, chunks: list[int] | None = None) -> Iterator[pa.Table]:
    """One table of a dataset a done part at a time, so that a reader that reduces each part
    holds one part in memory, not the table. A chunk's games are all in its part. Without
    ``filters``, string columns come dictionary-encoded, as they are stored (decoding a string
    per row costs more than the rest of a reduction)."""
    for f in part_paths(path, name, chunks=chunks):
        yield _read_part(f, name, columns, filters) if filters else _read_part_encoded(f, name, columns)


def read_whole(paths: Sequence[str | Path], name: str, columns: list[str]) -> pa.Table:
    """``columns`` of one table of several datasets, read together: one multithreaded scan over
    every done part, which costs the same in a few large parts as in many small ones. The
    datasets' game ids are made unique (see ``dataset_game_ids``)."""
    import pyarrow.dataset as pds

    tables = []
    for i, path in enumerate(paths):
        files = [str(f) for f in part_paths(path, name)]
        if not files:  # (typed as the read parts are, so that the tables concatenate)
            tables.append(pa.schema([encoded_schema(name).field(c) for c in columns]).empty_table())
            continue
        try:
            t = pds.dataset(files, format="parquet", schema=encoded_schema(name)).to_table(columns=columns)
        except (OSError, pa.ArrowException) as exc:
            raise _unreadable(path, name, exc) from None
        tables.append(dataset_game_ids(t, i, len(paths)))
    return pa.concat_tables(tables)


def encoded_schema(name: str) -> pa.Schema:
    """The table's schema with its strings dictionary-encoded, as Parquet stores them: read so,
    a column of a few distinct names costs an index per row, not a string."""
    return pa.schema([pa.field(f.name, pa.dictionary(pa.int32(), pa.string())) if pa.types.is_string(f.type)
                      else f for f in SCHEMAS[name]])


def dataset_game_ids(table: pa.Table, index: int, n_datasets: int) -> pa.Table:
    """``game_id`` made unique across several datasets read together (each counts from 0): the
    dataset's index in the bits above 40, so that joins on game_id stay correct."""
    if n_datasets < 2 or "game_id" not in table.column_names:
        return table
    import pyarrow.compute as pc

    at = table.column_names.index("game_id")
    return table.set_column(at, "game_id", pc.add(table["game_id"], pa.scalar(index << 40, pa.int64())))


def _schema(name: str, columns: list[str] | None) -> pa.Schema:
    return SCHEMAS[name] if columns is None else pa.schema([SCHEMAS[name].field(c) for c in columns])


def _unreadable(where: Path | str, name: str, exc: Exception) -> NesimError:
    return NesimError(f"{where}: unreadable Parquet part of {name} ({str(exc).splitlines()[0]}); "
                      "--resume on the dataset redoes it")


def _read_part(path: Path, name: str, columns: list[str] | None, filters: list | None) -> pa.Table:
    import pyarrow.dataset as pds

    try:
        return pds.dataset(path, format="parquet", schema=SCHEMAS[name]).to_table(
            columns=columns, filter=_filter(filters))
    except (OSError, pa.ArrowException) as exc:
        raise _unreadable(path, name, exc) from None


def _read_part_encoded(path: Path, name: str, columns: list[str] | None) -> pa.Table:
    cols = list(SCHEMAS[name].names) if columns is None else list(columns)
    strings = [c for c in cols if pa.types.is_string(SCHEMAS[name].field(c).type)]
    try:
        missing = set(cols) - set(pq.read_schema(path).names)
        if missing:
            raise NesimError(f"{path}: Parquet part of {name} without column(s) {', '.join(sorted(missing))}")
        return pq.read_table(path, columns=cols, read_dictionary=strings)
    except (OSError, pa.ArrowException) as exc:
        raise _unreadable(path, name, exc) from None


def _filter(filters):
    if not filters:
        return None
    import pyarrow.compute as pc

    expr = None
    for col, op, value in filters:
        f = pc.field(col)
        e = f.isin(value) if op == "in" else f == value
        expr = e if expr is None else expr & e
    return expr
