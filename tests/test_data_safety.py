"""Data safety (issue 39): interrupted writes, a full disk, a killed driver, broken datasets,
unreachable schedulers, runs too large to plan, --resume alone, and reports of partial data."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from nesim import dataset as ds
from nesim.cli import cli
from killing import kill_after_chunks
from test_runner import assert_same_data

NESIM = [sys.executable, "-m", "nesim"]
RUN = ["--game", "progress", "--players", "2", "--games", "120", "--seed", "7", "--chunk-size", "20"]
SWEEP = """
game = "progress"
players = [2]
games = 40
seed = 5
strategies = ["random", "greedy"]

[[variant]]
name = "cheap-farm"
cards.farm = { cost = 0 }
"""


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def nesim(*args: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(NESIM + list(args), capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})}, **kw)


def one_line_error(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nesim: error: "), stderr
    assert "Traceback" not in stderr
    return lines[0]


def manifest(out: Path) -> dict:
    return json.loads((out / ds.MANIFEST).read_text())


def strays(out: Path) -> list[str]:
    """Files of a dataset that are neither its manifest nor a part of a table."""
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()
                  and p.relative_to(out) != Path(ds.MANIFEST)
                  and not (p.parent.parent == out and p.parent.name in ds.TABLES and p.name.startswith("part-")
                           and p.name.endswith(".parquet")))


def interrupt(out: Path, keep: int) -> None:
    """Leaves the dataset as a run killed after ``keep`` chunks does: later chunks pending, their
    parts absent, the manifest not complete."""
    m = manifest(out)
    for c in m["chunks"][keep:]:
        c["status"] = "pending"
        c.pop("rows", None)
        ds.remove_parts(out, c["id"])
    m["complete"] = False
    (out / ds.MANIFEST).write_text(json.dumps(m))


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("safety") / "base"
    r = invoke("simulate", *RUN, "--out", str(out), "--quiet")
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture
def fail_part_write(monkeypatch):
    """Makes the n-th write of a players part fail as ``fail(fd)`` does, once (through os.fsync,
    where a full disk shows itself at the latest and a kill may land)."""
    real_fsync = os.fsync

    def arm(n: int, fail):
        seen = []

        def fsync(fd):
            name = os.readlink(f"/proc/self/fd/{fd}")
            if ".parquet" in name and "players" in name:
                seen.append(name)
                if len(seen) == n:
                    fail(fd)
            return real_fsync(fd)

        monkeypatch.setattr(os, "fsync", fsync)
        return seen

    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to name an open file")
    return arm


# ---------------------------------------------------------------------------- 1. temporaries


def test_a_write_killed_midway_leaves_no_file_that_readers_of_the_table_trip_on(base, tmp_path, fail_part_write):
    out = tmp_path / "killed"

    def die_midway(fd):  # half the bytes on disk, then the process is gone
        os.ftruncate(fd, os.fstat(fd).st_size // 2)
        raise KeyboardInterrupt

    fail_part_write(3, die_midway)
    r = invoke("simulate", *RUN, "--out", str(out), "--quiet")
    assert r.exit_code != 0 and not manifest(out)["complete"]
    assert strays(out), "the interrupted write should have left its temporary file"
    done_rows = sum(c["rows"]["players"] for c in manifest(out)["chunks"] if c["status"] == "done")

    assert len(pd.read_parquet(out / "players")) == done_rows
    duckdb = pytest.importorskip("duckdb")
    (n,), = duckdb.sql(f"select count(*) from read_parquet('{out}/players/*')").fetchall()
    assert n == done_rows

    r = invoke("simulate", *RUN, "--out", str(out), "--quiet", "--resume")
    assert r.exit_code == 0, r.output
    assert strays(out) == []
    assert_same_data(base, out)


def test_resume_removes_the_temporaries_of_killed_writers_old_and_new(base, tmp_path):
    out = tmp_path / "leftovers"
    shutil.copytree(base, out)
    interrupt(out, 2)
    (out / ds.STAGING).mkdir()
    (out / ds.STAGING / "players-part-00002.parquet").write_bytes(b"half a part")
    (out / "players" / "part-00003.parquet.tmp").write_bytes(b"half a part, as nesim 0.1 named it")
    r = invoke("simulate", "--out", str(out), "--resume", "--quiet")
    assert r.exit_code == 0, r.output
    assert strays(out) == [] and not (out / ds.STAGING).exists()
    assert_same_data(base, out)


# ---------------------------------------------------------------------------- 2. a full disk


def _disk_full(fd):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_is_one_line_exit_2_and_resume_finishes_the_same_data(base, tmp_path, fail_part_write):
    out = tmp_path / "full"
    fail_part_write(2, _disk_full)  # chunk 1's players part
    r = invoke("simulate", *RUN, "--out", str(out), "--quiet")
    assert r.exit_code == 2, r.output
    line = one_line_error(r.stderr)
    assert str(out / "players" / "part-00001.parquet") in line
    assert "No space left on device" in line and "--resume" in line
    assert strays(out) == []
    r = invoke("simulate", *RUN, "--out", str(out), "--quiet", "--resume")
    assert r.exit_code == 0, r.output
    assert_same_data(base, out)


def test_a_full_disk_during_a_sweep_is_one_line_exit_2_and_resume_finishes_it(tmp_path, fail_part_write):
    spec = tmp_path / "sweep.toml"
    spec.write_text(SWEEP)
    out = tmp_path / "full"
    fail_part_write(2, _disk_full)
    r = invoke("sweep", str(spec), "--out", str(out), "--quiet", "--chunk-size", "20")
    assert r.exit_code == 2, r.output
    assert "No space left on device" in one_line_error(r.stderr)
    r = invoke("sweep", str(spec), "--out", str(out), "--quiet", "--chunk-size", "20", "--resume")
    assert r.exit_code == 0, r.output
    games = pd.read_parquet(out / "games")
    assert sorted(games.game_id) == list(range(80)) and manifest(out)["complete"]


# ---------------------------------------------------------------------------- 3. a killed driver


def test_loky_workers_end_when_their_driver_is_killed(tmp_path):
    psutil = pytest.importorskip("psutil")
    out = tmp_path / "orphans"
    cmd = NESIM + ["simulate", "--game", "progress", "--players", "2", "--games", "1000000", "--seed", "1",
                   "--chunk-size", "200", "--jobs", "2", "--out", str(out), "--quiet"]
    children = []
    m = kill_after_chunks(cmd, out, 2, before_kill=lambda proc: children.extend(
        psutil.Process(proc.pid).children(recursive=True)))
    assert not m["complete"] and len(children) >= 2, children
    deadline = time.time() + 30  # a generous bound on a loaded machine; they go in about a second

    def alive():
        out = []
        for p in children:
            try:
                if p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
            except psutil.NoSuchProcess:
                pass
        return out

    while alive() and time.time() < deadline:
        time.sleep(0.2)
    left = alive()
    for p in left:  # do not leave them to the next tests either way
        p.kill()
    assert not left, f"still running after their driver was killed: {[(p.pid, p.cmdline()[:3]) for p in left]}"


# ---------------------------------------------------------------------------- 4. replay of a broken dataset


def test_replay_of_a_manifest_without_config_is_one_line(base, tmp_path):
    out = tmp_path / "noconfig"
    shutil.copytree(base, out)
    m = manifest(out)
    del m["config"]
    (out / ds.MANIFEST).write_text(json.dumps(m))
    r = nesim("replay", str(out), "3")
    line = one_line_error(r.stderr)
    assert r.returncode == 2 and "config" in line and r.stdout == ""


def test_replay_reads_only_its_own_chunk_and_names_it_when_corrupt(base, tmp_path):
    out = tmp_path / "corrupt"
    shutil.copytree(base, out)
    (out / "players" / "part-00004.parquet").write_bytes(b"not parquet at all")  # games 80-99
    r = nesim("replay", str(out), "3")
    assert r.returncode == 0, r.stderr
    assert "equal the stored ones" in r.stdout
    r = nesim("replay", str(out), "85")
    line = one_line_error(r.stderr)
    assert r.returncode == 2 and "part-00004.parquet" in line and r.stdout == ""


# ---------------------------------------------------------------------------- 5. dask scheduler


def test_an_unreachable_scheduler_writes_nothing_and_stays_one_line(base, tmp_path):
    pytest.importorskip("distributed")
    env = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    out = tmp_path / "never"
    args = [*RUN, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--quiet"]
    for _ in range(2):  # the same command again meets the same error, not "directory is not empty"
        r = nesim("simulate", *args, "--out", str(out), env=env)
        assert r.returncode == 2 and "cannot reach the dask scheduler" in one_line_error(r.stderr)
        assert not out.exists()
    kept = tmp_path / "kept"
    shutil.copytree(base, kept)
    before = {p: p.read_bytes() for p in kept.rglob("*") if p.is_file()}
    r = nesim("simulate", *args, "--out", str(kept), "--force", env=env)
    assert r.returncode == 2, r.stderr
    assert {p: p.read_bytes() for p in kept.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("address", ["notanaddress", "foo://host:1", "tcp://host:99999"])
def test_a_malformed_scheduler_address_is_one_line(tmp_path, address):
    pytest.importorskip("distributed")
    out = tmp_path / "never"
    r = nesim("simulate", *RUN, "--backend", "dask", "--scheduler", address, "--out", str(out))
    line = one_line_error(r.stderr)
    assert r.returncode == 2 and address in line and "not a dask scheduler address" in line
    assert not out.exists()


# ---------------------------------------------------------------------------- 8. limits of a plan


def _limit_memory():  # so that even a planner that tried would fail fast, not take the machine
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))


@pytest.mark.parametrize("args,limit", [
    (["--games", "1000000000000"], "100,000 a run can plan"),
    (["--games", "1000000000", "--chunk-size", "1000000000"], "at most 100,000 games"),
])
def test_a_run_that_cannot_be_planned_is_refused_at_once(tmp_path, args, limit):
    out = tmp_path / "huge"
    r = nesim("simulate", "--game", "progress", "--players", "2", *args, "--out", str(out),
              preexec_fn=_limit_memory)
    assert r.returncode == 2 and limit in one_line_error(r.stderr)
    assert not out.exists()


# ---------------------------------------------------------------------------- 10. --resume alone


def test_simulate_resume_alone_finishes_the_run_from_its_manifest(base, tmp_path):
    out = tmp_path / "resumed"
    shutil.copytree(base, out)
    interrupt(out, 2)
    r = invoke("simulate", "--out", str(out), "--resume", "--quiet")
    assert r.exit_code == 0, r.output
    assert manifest(out)["complete"]
    assert_same_data(base, out)


@pytest.mark.parametrize("args,named", [
    (["--seed", "8"], "seed: 8 here, 7 in the dataset"),
    (["--games", "121"], "games of variant baseline, progress, 2 players: 121 here, 120 in the dataset"),
    (["--chunk-size", "30"], "chunk_size: 30 here, 20 in the dataset"),
    (["--strategies", "greedy"], "strategies"),
])
def test_resume_with_an_option_that_differs_is_one_line_naming_it(base, tmp_path, args, named):
    out = tmp_path / "resumed"
    shutil.copytree(base, out)
    interrupt(out, 2)
    before = (out / ds.MANIFEST).read_text()
    r = nesim("simulate", "--out", str(out), "--resume", *args)
    line = one_line_error(r.stderr)
    assert r.returncode == 2 and "different configuration" in line and named in line
    assert (out / ds.MANIFEST).read_text() == before


def test_resume_with_the_same_options_given_still_works(base, tmp_path):
    out = tmp_path / "resumed"
    shutil.copytree(base, out)
    interrupt(out, 3)
    r = invoke("simulate", "--out", str(out), "--resume", "--seed", "7", "--players", "2", "--quiet")
    assert r.exit_code == 0, r.output
    assert_same_data(base, out)


def test_sweep_resume_alone_finishes_the_sweep_from_its_manifest(tmp_path):
    spec = tmp_path / "sweep.toml"
    spec.write_text(SWEEP)
    full = tmp_path / "full"
    r = invoke("sweep", str(spec), "--out", str(full), "--quiet", "--chunk-size", "20")
    assert r.exit_code == 0, r.output
    out = tmp_path / "resumed"
    shutil.copytree(full, out)
    interrupt(out, 1)
    r = nesim("simulate", "--out", str(out), "--resume")  # a sweep's dataset: say which command finishes it
    assert r.returncode == 2 and "nesim sweep --out" in one_line_error(r.stderr)
    r = invoke("sweep", "--out", str(out), "--resume", "--quiet")
    assert r.exit_code == 0, r.output
    assert manifest(out)["complete"]
    assert_same_data(full, out)


def test_sweep_or_simulate_without_a_run_to_resume_asks_for_what_is_missing(tmp_path):
    r = nesim("sweep", "--out", str(tmp_path / "none"), "--resume")
    assert r.returncode == 2 and "SPEC" in one_line_error(r.stderr)
    r = nesim("simulate", "--out", str(tmp_path / "none"), "--resume")
    assert r.returncode == 2 and "--game" in one_line_error(r.stderr)
    assert not (tmp_path / "none").exists()


# ---------------------------------------------------------------------------- 11. report


def test_report_of_a_partial_dataset_says_so_on_stderr_and_at_the_top(base, tmp_path):
    out = tmp_path / "partial"
    shutil.copytree(base, out)
    interrupt(out, 4)
    html = tmp_path / "r.html"
    r = nesim("report", str(out), "--out", str(html), "--quiet")
    assert r.returncode == 0, r.stderr
    assert f"nesim: warning: dataset {out} is incomplete: 4 of 6 chunks (80 of 120 games)" in r.stderr
    text = html.read_text()
    banner = text.find("is incomplete: 4 of 6 chunks")
    assert 0 <= banner < text.find("<section")


@pytest.fixture
def unwritable_dir(tmp_path):
    """A folder this process cannot create files in (for root, which may write anywhere, /sys)."""
    if os.geteuid() == 0:
        if _can_create_in(Path("/sys")):
            pytest.skip("no unwritable folder for root")
        yield Path("/sys")
        return
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    yield ro
    ro.chmod(0o700)


def _can_create_in(folder: Path) -> bool:
    try:
        (folder / ".nesim-probe").touch()
    except OSError:
        return False
    (folder / ".nesim-probe").unlink()
    return True


def test_report_to_an_unwritable_file_is_refused_before_any_work(base, unwritable_dir):
    r = nesim("report", str(base), "--out", str(unwritable_dir / "r.html"))
    line = one_line_error(r.stderr)  # no "report: reading datasets" before it
    assert r.returncode == 2 and "cannot write" in line and r.stdout == ""
