"""``nesim sweep --until-decided``: the always-valid confidence sequence, the decision rule, and
sweeps that stop a variant once its paired difference from the baseline is decided."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from nesim import stats as S
from nesim.cli import cli

# ---------------------------------------------------------------------------- the statistics


def _ever_excludes_zero(x: np.ndarray, looks: np.ndarray, radius) -> np.ndarray:
    """Per row of ``x`` (observations of mean 0): whether the interval at any look excluded 0."""
    csum = np.cumsum(x, axis=1)
    csq = np.cumsum(x * x, axis=1)
    out = np.zeros(len(x), dtype=bool)
    for t in looks:
        mean = csum[:, t - 1] / t
        sd = np.sqrt((csq[:, t - 1] - t * mean ** 2) / (t - 1))
        out |= np.abs(mean) > radius(sd, t)
    return out


def test_the_confidence_sequence_keeps_its_error_rate_however_often_one_looks():
    """Under no difference, looking after every batch of 50 up to 5,000: the confidence sequence
    excludes 0 in at most about alpha of the runs, while the fixed 95% interval looked at as often
    does so far more often (which is why a sweep cannot just stop at the first p < 0.05)."""
    rng = np.random.default_rng(7)
    x = rng.choice([-1.0, 0.0, 0.0, 1.0], size=(400, 5000))  # paired win differences, mean 0
    looks = np.arange(50, 5001, 50)
    cs = _ever_excludes_zero(x, looks, lambda sd, t: np.array([S.cs_radius(s, t, 0.05, 2500) for s in sd]))
    fixed = _ever_excludes_zero(x, looks, lambda sd, t: S.Z95 * sd / math.sqrt(t))
    assert cs.mean() <= 0.06
    assert fixed.mean() >= 0.2


@settings(max_examples=60, deadline=None)
@given(sd=st.floats(0.1, 50), n=st.integers(2, 10**6), alpha=st.floats(0.001, 0.2), n_opt=st.integers(10, 10**6))
def test_the_confidence_sequence_is_wider_than_the_fixed_interval_and_shrinks(sd, n, alpha, n_opt):
    """At any n it is wider than the fixed interval at the same level (it pays for the looks),
    narrower with more games and wider at a smaller error rate; proportional to the spread."""
    z = float(S.sps.norm.ppf(1 - alpha / 2))
    r = S.cs_radius(sd, n, alpha, n_opt)
    assert r > z * sd / math.sqrt(n)
    assert S.cs_radius(sd, 4 * n, alpha, n_opt) < r
    assert S.cs_radius(sd, n, alpha / 2, n_opt) > r
    assert S.cs_radius(2 * sd, n, alpha, n_opt) == pytest.approx(2 * r)


def test_a_large_difference_is_decided_and_no_difference_is_not():
    rng = np.random.default_rng(3)
    big = rng.choice([0.0, 1.0], size=400, p=[0.6, 0.4])  # +40 points of win rate
    assert S.sequential_decision(big, 0.05, 0.02, 1000)["status"] == "differs"
    null = rng.choice([-1.0, 0.0, 1.0], size=400)
    assert S.sequential_decision(null, 0.05, 0.02, 1000)["status"] == "open"
    same = np.zeros(400)  # a variant that changes no game: within any margin
    assert S.sequential_decision(same, 0.05, 0.02, 1000)["status"] == "within margin"
    # too few games for the asymptotic boundary: no decision, however clear
    assert S.sequential_decision(np.ones(S.MIN_PAIRS_TO_DECIDE - 1), 0.05, 0.02, 1000)["status"] == "open"


def test_a_small_difference_is_within_the_margin_only_once_the_sequence_is_narrow():
    rng = np.random.default_rng(5)
    d = rng.normal(0.0, 0.05, size=20000)
    early = S.sequential_decision(d[:200], 0.05, 0.01, 5000)
    late = S.sequential_decision(d, 0.05, 0.01, 5000)
    assert early["status"] == "open" and early["hi"] - early["lo"] > 0.02
    assert late["status"] == "within margin" and -0.01 < late["lo"] < late["hi"] < 0.01


def test_figures_are_parsed_and_unknown_ones_refused():
    assert S.parse_figure("win:greedy") == S.GameFigure("win", "greedy")
    assert S.parse_figure("winning_score").unit == "points"
    assert S.parse_figure("card_edge:farm").default_margin() == 0.02
    for bad in ("seat", "win", "winning_score:3", "mean:rank"):
        with pytest.raises(S.NesimError):
            S.parse_figure(bad, "--on")


def test_game_figures_from_a_players_table():
    """Two 2-player games: seat 0 wins game 0 with 30 points; seat 1 (greedy) wins game 1."""
    players = pd.DataFrame({
        "game_id": [0, 0, 1, 1], "variant": "baseline", "game": "progress", "n_players": 2,
        "seat": [0, 1, 0, 1], "strategy": ["greedy", "random", "random", "greedy"],
        "score": [30, 20, 25, 40], "win": [True, False, False, True], "solo_cleared": False,
        "money": [1, 2, 3, 4]})
    builds = pd.DataFrame({"game_id": [0, 1, 1], "seat": [0, 0, 1], "card": ["farm", "farm", "factory"]})
    fig = lambda name: S.game_figure(S.parse_figure(name), players, builds).to_dict()
    assert fig("first_seat_win") == {0: 1.0, 1: 0.0}
    assert fig("win:greedy") == {0: 1.0, 1: 1.0}
    assert fig("winning_score") == {0: 30.0, 1: 40.0}
    assert fig("mean:money") == {0: 1.5, 1: 3.5}
    # farm's builders: the winner in game 0 (1 - 1/2), the loser in game 1 (0 - 1/2)
    assert fig("card_edge:farm") == {0: 0.5, 1: -0.5}


# ---------------------------------------------------------------------------- sweeps run until decided

SWEEP = """game = "progress"
players = [2]
games = 1000
seed = 3
strategies = ["greedy", "economy"]

[[variant]]
name = "rich-first-seat"      # planted: the start player begins with $25 instead of $5
rules.start_money = [25, 6, 7, 8]

[[variant]]
name = "swapped-line-up"      # null: the same strategies, each game's seats the other way round
strategies = ["economy", "greedy"]
"""


def run_sweep(tmp_path, out, *args, text=SWEEP):
    p = tmp_path / "s.toml"
    p.write_text(text)
    return CliRunner().invoke(cli, ["sweep", str(p), "--out", str(out), "--until-decided",
                                    "--chunk-size", "100", *args])


@pytest.fixture(scope="module")
def decided(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("decided")
    out = tmp / "out"
    r = run_sweep(tmp, out)
    assert r.exit_code == 0, r.output
    return out, r.output


def _decisions(out) -> dict:
    m = json.loads((out / "manifest.json").read_text())
    return {d["variant"]: d for d in m["decisions"].values()}


def test_a_large_planted_difference_stops_early_and_a_null_variant_does_not(decided):
    out, text = decided
    d = _decisions(out)
    rich, null, base = d["rich-first-seat"], d["swapped-line-up"], d["baseline"]
    assert rich["status"] == "differs" and rich["estimate"] > 0.2 and rich["lo"] > 0
    assert rich["games"] <= 300 and rich["stopped_early"]
    assert null["status"] == "undecided" and null["games"] == 1000 and not null["stopped_early"]
    assert null["lo"] < 0 < null["hi"]
    assert base["status"] == "baseline" and base["games"] == 1000
    assert "rich-first-seat (progress, 2 players): differs after" in text


def test_the_dataset_holds_exactly_the_games_each_variant_needed(decided):
    out, _ = decided
    d = _decisions(out)
    games = pd.read_parquet(out / "games")
    counts = games.groupby("variant").size().to_dict()
    assert counts == {v: d[v]["games"] for v in counts}
    m = json.loads((out / "manifest.json").read_text())
    assert m["complete"] and all(c["status"] == "done" for c in m["chunks"])
    # paired: the variant's game i has the seed of the baseline's game i
    seeds = games.assign(i=games["game_id"] - games.groupby("variant")["game_id"].transform("min"))
    by = seeds.pivot(index="i", columns="variant", values="seed").dropna()
    assert (by["rich-first-seat"] == by["baseline"]).all() and len(by) == d["rich-first-seat"]["games"]


def test_replay_plays_a_game_of_a_stopped_variant_and_names_one_never_played(decided):
    out, _ = decided
    d = _decisions(out)["rich-first-seat"]
    base = 1000  # the variant's first game id: the baseline's 1,000 ids come first
    r = CliRunner().invoke(cli, ["replay", str(out), str(base + d["games"] - 1)])
    assert r.exit_code == 0 and "equal the stored ones" in r.output, r.output
    r = CliRunner().invoke(cli, ["replay", str(out), str(base + d["games"])])
    assert r.exit_code == 2 and f"never played: variant 'rich-first-seat' stopped after {d['games']:,} games" in r.output


def test_the_report_section_says_which_variants_stopped_early_and_why(decided):
    from nesim.report.build import incomplete_datasets
    from nesim.report.sensitivity import decisions_section

    out, _ = decided
    manifest = json.loads((out / "manifest.json").read_text())
    assert incomplete_datasets([str(out)], [manifest]) == []  # the dropped batches are no missing chunks
    sec = decisions_section([str(out)], [manifest])
    table = next(b for k, b in sec.blocks if k == "table")
    rows = {r[2][0]: dict(zip(table.headers, (text for text, _ in r))) for r in table.rows}
    rich = rows["rich-first-seat"]
    assert rich["decision"] == "differs" and rich["cap"] == "1,000"
    assert rich["stopped early and why"].startswith("stopped early: the 97.5% confidence sequence")
    assert rows["swapped-line-up"]["stopped early and why"].startswith("reached the cap of 1,000 games")
    played = sum(int(r["games needed"].replace(",", "")) for r in rows.values())
    assert any(f"{played:,} games played, against 3,000" in b for k, b in sec.blocks if k == "p")
    assert decisions_section(["x"], [{}]) is None


@pytest.mark.slow
def test_the_report_says_which_variants_stopped_early_and_why(decided, tmp_path):
    """The whole report on a stopped-early sweep (slow: every section)."""
    out, _ = decided
    page = tmp_path / "r.html"
    r = CliRunner().invoke(cli, ["report", str(out), "--out", str(page), "--quiet"])
    assert r.exit_code == 0, r.output
    text = page.read_text()
    assert 'id="decisions"' in text and "stopped early and why" in text
    assert "stopped early: the " in text and "excludes 0 after" in text
    assert "reached the cap of 1,000 games" in text
    assert "incomplete" not in text  # the dropped batches are no missing chunks


def test_an_interrupted_run_resumes_to_the_same_decisions(decided, tmp_path, monkeypatch):
    """The disk fills after 5 batches (mid-round): the run stops with one line, keeping the
    batches written; --resume (with no sweep file) finishes it to the decisions and games of the
    run that was never interrupted."""
    from nesim import dataset as ds
    from nesim import runner

    out, _ = decided
    written, real = [], ds.write_parts

    def fill_up(where, chunk, parts):
        if len(written) == 5:
            raise ds.WriteError(where / "players" / ds.part_name(chunk), OSError(28, "No space left on device"))
        written.append(chunk)
        real(where, chunk, parts)

    monkeypatch.setattr(runner.ds, "write_parts", fill_up)
    cut = tmp_path / "cut"
    r = run_sweep(tmp_path, cut, "--quiet")
    assert r.exit_code == 2 and "No space left" in r.output and "--resume" in r.output
    m = json.loads((cut / "manifest.json").read_text())
    assert not m["complete"] and sum(c["status"] == "done" for c in m["chunks"]) == 5
    monkeypatch.setattr(runner.ds, "write_parts", real)
    r = CliRunner().invoke(cli, ["sweep", "--out", str(cut), "--resume", "--quiet"])
    assert r.exit_code == 0, r.output
    assert _decisions(cut) == _decisions(out)
    a, b = (pd.read_parquet(x / "players").sort_values(["game_id", "seat"]).reset_index(drop=True)
            for x in (out, cut))
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.slow
def test_a_killed_run_resumes_to_the_same_decisions(decided, tmp_path):
    """As above with a real SIGKILL of a separate process (slow: a process start)."""
    import sys

    from killing import kill_after_chunks

    out, _ = decided
    p = tmp_path / "s.toml"
    p.write_text(SWEEP)
    killed = tmp_path / "killed"
    cmd = [sys.executable, "-m", "nesim", "sweep", str(p), "--out", str(killed), "--until-decided",
           "--chunk-size", "100", "--quiet"]
    m = kill_after_chunks(cmd, killed, 5)
    assert not m["complete"]
    r = CliRunner().invoke(cli, ["sweep", "--out", str(killed), "--resume", "--quiet"])
    assert r.exit_code == 0, r.output
    assert _decisions(killed) == _decisions(out)
    a, b = (pd.read_parquet(x / "players").sort_values(["game_id", "seat"]).reset_index(drop=True)
            for x in (out, killed))
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("args, words", [
    (["--on", "seat_two"], "--on: unknown figure"),
    (["--on", "win:random"], "does not seat random"),
    (["--alpha", "1.5"], "--alpha must be between 0 and 1"),
    (["--margin", "0"], "--margin must be above 0"),
    (["--max-games", "0"], "--max-games must be at least 1"),
])
def test_bad_options_are_one_line_and_write_nothing(tmp_path, args, words):
    out = tmp_path / "out"
    r = run_sweep(tmp_path, out, *args)
    assert r.exit_code == 2 and r.output.startswith("nesim: error: ") and words in r.output, r.output
    assert r.output.count("\n") == 1 and not out.exists()


def test_decision_options_need_until_decided(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text(SWEEP)
    r = CliRunner().invoke(cli, ["sweep", str(p), "--out", str(tmp_path / "o"), "--max-games", "100"])
    assert r.exit_code == 2 and "need --until-decided" in r.output
