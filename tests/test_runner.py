"""The runner: identical data whatever the parallelism, resumable after a kill, replayable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from nesim import dataset as ds
from nesim.cli import cli
from nesim.runner import rotation
from killing import kill_after_chunks

NESIM = [sys.executable, "-m", "nesim"]


def simulate(out, *args, games=600, game="mecenat", players=3):
    r = CliRunner().invoke(cli, ["simulate", "--game", game, "--players", str(players), "--games",
                                 str(games), "--seed", "7", "--out", str(out), "--quiet", *args])
    return r


def tables(out) -> dict[str, pd.DataFrame]:
    frames = {}
    for name in ds.TABLES:
        df = pd.read_parquet(Path(out) / name)
        keys = [c for c in ("game_id", "seat", "round", "card") if c in df.columns]
        frames[name] = df.sort_values(keys, kind="stable").reset_index(drop=True)
    return frames


def assert_same_data(a, b):
    ta, tb = tables(a), tables(b)
    for name in ds.TABLES:
        pd.testing.assert_frame_equal(ta[name], tb[name], check_like=False)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    out = tmp_path_factory.mktemp("ds") / "base"
    r = simulate(out, "--chunk-size", "100")
    assert r.exit_code == 0, r.output
    return out


def test_dataset_has_every_game_once_with_the_documented_columns(base):
    t = tables(base)
    assert sorted(t["games"].game_id) == list(range(600))
    assert len(t["players"]) == 600 * 3 and len(t["rounds"]) == 600 * 3 * 9
    assert set(ds.SCHEMAS["players"].names) <= set(t["players"].columns)
    assert t["games"].seed.dtype == np.uint64 and t["games"].seed.nunique() == 600
    # exactly one winner per game, and the winner seat in games agrees with players
    winners = t["players"][t["players"].win]
    assert winners.groupby("game_id").size().eq(1).all()
    assert (winners.set_index("game_id").seat.sort_index() == t["games"].set_index("game_id").winner_seat).all()
    # every build is of a real card, and each player's buildings count matches its build rows
    built = t["builds"].groupby(["game_id", "seat"]).size()
    have = t["players"].set_index(["game_id", "seat"]).buildings
    assert (built.reindex(have.index, fill_value=0) >= have).all()  # sold buildings stay in builds
    m = json.loads((base / "manifest.json").read_text())
    assert m["complete"] and all(c["status"] == "done" for c in m["chunks"]) and len(m["chunks"]) == 6


def test_jobs_and_chunk_size_do_not_change_the_data(base, tmp_path):
    out = tmp_path / "j2"
    r = simulate(out, "--jobs", "2", "--chunk-size", "250")
    assert r.exit_code == 0, r.output
    assert_same_data(base, out)


def test_dask_local_cluster_gives_the_same_data(base, tmp_path):
    pytest.importorskip("dask.distributed")
    out = tmp_path / "dask"
    r = simulate(out, "--jobs", "2", "--backend", "dask", "--chunk-size", "150")
    assert r.exit_code == 0, r.output
    assert_same_data(base, out)


def test_duckdb_reads_the_same_rows_and_sums_as_pandas(base):
    duckdb = pytest.importorskip("duckdb")
    for name, col in (("players", "score"), ("rounds", "money"), ("builds", "round"), ("games", "household_end")):
        df = pd.read_parquet(base / name)
        (n, total), = duckdb.sql(f"select count(*), sum({col}) from read_parquet('{base}/{name}/*.parquet')").fetchall()
        assert (n, total) == (len(df), int(df[col].sum()))


def test_replay_reproduces_stored_scores(base):
    players = pd.read_parquet(base / "players")
    for gid in (0, 137, 599):
        r = CliRunner().invoke(cli, ["replay", str(base), str(gid)])
        assert r.exit_code == 0, r.output
        stored = players[players.game_id == gid].sort_values("seat").score.tolist()
        assert f"regenerated scores {stored} equal the stored ones" in r.output
        assert "Round 9" in r.output


def test_resume_after_sigkill_gives_every_game_once_and_the_same_data(base, tmp_path):
    out = tmp_path / "killed"
    cmd = NESIM + ["simulate", "--game", "mecenat", "--players", "3", "--games", "600", "--seed", "7",
                   "--out", str(out), "--chunk-size", "20", "--quiet"]
    m = kill_after_chunks(cmd, out, 3)
    assert not m["complete"], "the run finished before it could be killed; make it longer"
    r = simulate(out, "--resume", "--chunk-size", "20")
    assert r.exit_code == 0, r.output
    t = tables(out)
    assert t["games"].game_id.is_unique and len(t["games"]) == 600
    assert_same_data(base, out)


def test_a_corrupt_part_is_named_and_redone(base, tmp_path):
    import shutil

    out = tmp_path / "corrupt"
    shutil.copytree(base, out)
    part = out / "players" / "part-00002.parquet"
    part.write_bytes(b"not parquet at all")
    r = CliRunner().invoke(cli, ["simulate", "--game", "mecenat", "--players", "3", "--games", "600",
                                 "--seed", "7", "--out", str(out), "--quiet", "--resume", "--chunk-size", "100"])
    assert r.exit_code == 0, r.output
    assert "chunk 2" in r.output and "corrupt" in r.output
    assert_same_data(base, out)


def test_seats_rotate_so_each_strategy_sits_in_each_seat_equally():
    seen = {(s, name) for i in range(6) for s, name in enumerate(rotation(("a", "b", "c"), i))}
    assert seen == {(s, x) for s in range(3) for x in "abc"}
    counts = {}
    for i in range(300):
        for s, name in enumerate(rotation(("a", "b", "c"), i)):
            counts[(s, name)] = counts.get((s, name), 0) + 1
    assert set(counts.values()) == {100}


BAD = [
    (["--game", "chess"], "chess"),
    (["--strategies", "nosuch"], "unknown strategy 'nosuch'"),
    (["--strategies", "random:depth=3"], "unknown parameter 'depth'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--players", "5"], "--players must be 1 to 4"),
    (["--players", "2", "--strategies", "random,random,random"], "3 strategies for 2 players"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    base_args = {"--game": "progress", "--players": "2", "--games": "10", "--strategies": "random"}
    for i in range(0, len(args), 2):
        base_args[args[i]] = args[i + 1]
    flat = [x for kv in base_args.items() for x in kv]
    r = subprocess.run(NESIM + ["simulate", *flat, "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nesim: error:") and message in lines[0], r.stderr
    assert not out.exists()


def test_existing_output_needs_resume_or_force(base, tmp_path):
    out = tmp_path / "full"
    out.mkdir()
    (out / "something.txt").write_text("mine")
    r = simulate(out, games=10)
    assert r.exit_code == 2 and "not empty" in r.output
    r = simulate(out, "--force", games=10)
    assert r.exit_code == 2 and "not a nesim dataset" in r.output
    assert sorted(p.name for p in out.iterdir()) == ["something.txt"]


def test_force_overwrites_a_dataset_and_resume_refuses_another_configuration(base, tmp_path):
    import shutil

    out = tmp_path / "again"
    shutil.copytree(base, out)
    before = (out / "manifest.json").read_text()
    r = simulate(out, "--resume", games=601, players=3)
    assert r.exit_code == 2 and "different configuration" in r.output
    assert "games of variant baseline, mecenat, 3 players: 601 here, 600 in the dataset" in r.output
    assert (out / "manifest.json").read_text() == before
    r = simulate(out, "--force", games=30)
    assert r.exit_code == 0, r.output
    assert len(pd.read_parquet(out / "games")) == 30


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_output_is_a_user_error(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        r = simulate(ro / "out", games=10)
        assert r.exit_code == 2 and "cannot write" in r.output
    finally:
        ro.chmod(0o700)


def test_unwritable_output_as_a_file_path(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    r = simulate(f / "out", games=10)
    assert r.exit_code == 2 and "nesim: error:" in r.output
    assert f.read_text() == "x"
