"""nesim tune: the tune file's checks, racing, the proposal that changes least, a planted
imbalance moved back into its band, a met target left alone, and kill + --resume."""

from __future__ import annotations

import dataclasses

import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import optuna
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from nesim import runner, stats as S
from nesim.cli import cli
from nesim.sweep import load_sweep
from nesim import tune as T

REPO = Path(__file__).resolve().parents[1]
NESIM = [sys.executable, "-m", "nesim"]
HEAD = 'game = "progress"\nplayers = [2]\nstrategies = ["greedy"]\nseed = 3\ngames = 60\nbudget = 3\n'
KNOB = '[knobs]\n"cards.mansion.cost" = [2, 8]\n'
TARGET = '[target]\nseat_balance = { within_pp = 20 }\n'


def write(tmp_path, text, name="t.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def tune(spec, out, *args):
    return CliRunner().invoke(cli, ["tune", str(spec), "--out", str(out), "--quiet", *args])


# ---------------------------------------------------------------------------- the tune file


BAD = [
    (HEAD + '[knobs]\n"cards.nosuch.cost" = [1, 3]\n' + TARGET, "knobs.cards.nosuch"),
    (HEAD + '[knobs]\n"money.mansion" = [1, 3]\n' + TARGET, "unknown key"),
    (HEAD + '[knobs]\n"cards.mansion.colour" = [1, 3]\n' + TARGET, "unknown field"),
    (HEAD + '[knobs]\n"rules.nosuch" = [1, 3]\n' + TARGET, "unknown rule"),
    (HEAD + '[knobs]\n"cards.mansion.cost" = [8, 2]\n' + TARGET, "empty range"),
    (HEAD + '[knobs]\n"cards.mansion.cost" = [-1, 2]\n' + TARGET, "must be at least 0"),
    (HEAD + '[knobs]\n"cards.mansion.cost" = [1.5, 2]\n' + TARGET, "whole numbers"),
    (HEAD + '[knobs]\n"rules.start_money" = { choices = [] }\n' + TARGET, "choices is empty"),
    (HEAD + '[knobs]\n"cards.mansion.cost" = [1, 2, 3]\n' + TARGET, "must be a range"),
    (HEAD + "[knobs]\n" + TARGET, "knobs: must be a table of at least one knob"),
    (HEAD + KNOB + "[target]\nseat_balance = { within_pp = 0 }\n", "within_pp: must be more than 0"),
    (HEAD + KNOB + "[target]\nseat_balance = { within_pp = 120 }\n", "less than 100"),
    (HEAD + KNOB + "[target]\nwinning_score = [90, 60]\n", "impossible target"),
    (HEAD + KNOB + '[target]\ncard_value = { cards = ["cathedral"], within_pp = 3 }\n', "unknown card 'cathedral'"),
    (HEAD + KNOB + "[target]\nfun = 3\n", "unknown target"),
    (HEAD + KNOB + "[target]\n", "target: must name at least one"),
    (HEAD.replace("[2]", "[1]") + KNOB + TARGET, "needs 2-4 players"),
    (HEAD.replace("budget = 3", "budget = 0") + KNOB + TARGET, "budget: must be at least 1"),
    (HEAD + '[baseline]\ncards.mansion = { cost = -3 }\n' + KNOB + TARGET, "baseline.cards.mansion.cost"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_an_error_in_the_tune_file_is_one_line_and_writes_nothing(tmp_path, text, message):
    p = write(tmp_path, text)
    out = tmp_path / "out"
    r = tune(p, out)
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit), r.output  # no traceback
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"nesim: error: {p}") and message in lines[0], r.stderr
    assert not out.exists()


def test_a_non_empty_out_without_resume_is_refused(tmp_path):
    p = write(tmp_path, HEAD + KNOB + TARGET)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    r = tune(p, out)
    assert r.exit_code == 2 and "--resume" in r.stderr
    assert sorted(x.name for x in out.iterdir()) == ["keep.txt"]


def test_knobs_of_every_kind_and_their_baselines(tmp_path):
    spec = T.load_tune(REPO / "experiments" / "sweeps" / "tune" / "mansion.toml")
    assert {k.key: k.baseline for k in spec.knobs}["cards.mansion.cost"] == 1  # planted by [baseline]; the data say 4
    text = HEAD + '[knobs]\n"rules.start_money" = [[5, 6, 7, 8], [5, 7, 9, 11]]\n"params.greedy.reserve" = [0, 6.5]\n' \
        '"cards.farm.copies" = { choices = [6, 8, 10] }\n' + TARGET
    k = {x.key: x for x in T.load_tune(write(tmp_path, text)).knobs}
    assert k["rules.start_money"].choices == ([5, 6, 7, 8], [5, 7, 9, 11])
    assert k["rules.start_money"].baseline == [5, 6, 7, 8] and k["rules.start_money"].move([5, 7, 9, 11]) == 1
    assert k["params.greedy.reserve"].is_float and k["params.greedy.reserve"].values() is None
    assert k["cards.farm.copies"].choices == (6, 8, 10) and k["cards.farm.copies"].baseline == 8
    assert k["cards.farm.copies"].move(10) == 0.5


# ---------------------------------------------------------------------------- statistics and racing


@settings(max_examples=200, deadline=None)
@given(st.floats(-5, 5), st.floats(0, 3), st.floats(0, 3), st.floats(-5, 5), st.floats(0, 5))
def test_band_status_and_distance_agree_with_the_band(value, below, above, band_lo, width):
    lo, hi, band_hi = value - below, value + above, band_lo + width
    status = S.band_status(lo, hi, band_lo, band_hi).item()
    dist = S.band_distance(value, band_lo, band_hi).item()
    inside = band_lo <= value <= band_hi
    assert (dist == 0) == inside
    if status == "met":
        assert band_lo <= lo and hi <= band_hi and dist == 0
    if status == "missed":
        assert dist > 0 and not (lo <= band_hi and hi >= band_lo)
    if status == "open":
        assert lo < band_lo <= hi or lo <= band_hi < hi


def test_winning_score_is_the_mean_score_of_each_games_rank_one():
    players = pd.DataFrame({"game": "progress", "n_players": 2, "variant": "v", "game_id": [0, 0, 1, 1, 2, 2],
                            "seat": [0, 1] * 3, "score": [10, 40, 30, 20, 50, 50], "rank": [2, 1, 1, 2, 1, 2]})
    w = S.winning_score(players).iloc[0]
    assert w["games"] == 3 and w["mean"] == pytest.approx(40.0)  # 40, 30 and the tie-break winner's 50
    assert w["lo"] < 40 < w["hi"]


def test_card_values_in_points_come_from_mirror_games_else_within_strategy():
    cards = pd.DataFrame({"game": "progress", "n_players": 2, "variant": "v", "card": ["a", "b"],
                          "mirror": [0.4, np.nan], "mirror_se": [0.1, np.nan], "mirror_pp": [0.1, np.nan],
                          "coef": [9.0, -0.2], "coef_se": [9.0, 0.05], "marginal_pp": [9.0, -0.05]})
    v = S.card_value_pp(cards).set_index("card")
    assert list(v["source"]) == ["mirror", "within strategy"]
    # the log-odds interval (0.4 +- 1.96 x 0.1) scaled by the same weight (0.1 / 0.4) as the value
    assert v.loc["a", "value"] == pytest.approx(0.1)
    assert v.loc["a", "lo"] == pytest.approx(0.25 * (0.4 - S.Z95 * 0.1))
    assert v.loc["b", "hi"] == pytest.approx(0.25 * (-0.2 + S.Z95 * 0.05))


def _figs(statuses, distances):
    return pd.DataFrame({"status": statuses, "distance": distances})


def test_a_verdict_stops_on_one_missed_figure_or_all_met_and_else_plays_on():
    assert T.verdict(_figs(["met", "missed", "open"], [0, 2, 0]), False) == ("missed", "interval")
    assert T.verdict(_figs(["met", "met"], [0, 0]), False) == ("met", "interval")
    assert T.verdict(_figs(["met", "open"], [0, 0]), False)[0] == "open"
    # after the last rung the estimates decide
    assert T.verdict(_figs(["met", "open"], [0, 0]), True) == ("met", "estimate")
    assert T.verdict(_figs(["met", "open"], [0, 0.1]), True) == ("missed", "estimate")


def test_rungs_triple_from_first_games_up_to_games(tmp_path):
    spec = T.load_tune(write(tmp_path, HEAD.replace("games = 60", "games = 1000\nfirst_games = 50") + KNOB + TARGET))
    assert spec.rungs() == [50, 150, 450, 1000]


def test_racing_spends_games_only_on_candidates_still_open(tmp_path):
    """A fake player whose figure is far outside the band is stopped after the first rung; one
    whose interval straddles the edge plays every rung. The games asked for say so."""
    spec = T.load_tune(write(tmp_path, HEAD.replace("games = 60", "games = 90\nfirst_games = 10")
                             + KNOB + "[target]\nwinning_score = [50, 60]\n"))
    asked = []

    def fake_figures(score_sd):
        def play(unit, first, count):
            asked.append(count)
            return _fake_tables(unit, first, count, score_sd)
        return play

    asked.clear()
    T.evaluate(spec, {"cards.mansion.cost": 2}, fake_figures(0.0))  # winners score exactly 200: missed
    assert asked == [10]
    asked.clear()
    ev = T.evaluate(spec, {"cards.mansion.cost": 2}, fake_figures(40.0), name="open")
    assert asked == [10, 20, 60] and ev.games == 90


def _fake_tables(unit, first, count, sd):
    """Tables in the dataset schema for ``count`` two-player games: the winner scores 200 (sd 0),
    or 60 +- sd, so that the winning-score interval straddles the band's top edge (60)."""
    import pyarrow as pa

    ids = np.arange(first, first + count)
    rng = np.random.default_rng(first)
    win_score = np.full(count, 200.0) if sd == 0 else 60 + sd * rng.standard_normal(count)
    players = pd.DataFrame({"game_id": np.repeat(ids, 2), "variant": unit.variant, "game": unit.game,
                            "n_players": 2, "seat": np.tile([0, 1], count), "strategy": "greedy",
                            "score": np.column_stack([win_score, win_score - 5]).reshape(-1),
                            "rank": np.tile([1, 2], count), "win": np.tile([True, False], count),
                            "solo_cleared": False})
    builds = pd.DataFrame({"game_id": pd.Series([], dtype="int64"), "variant": pd.Series([], dtype=str),
                           "game": pd.Series([], dtype=str), "n_players": pd.Series([], dtype="int64"),
                           "seat": pd.Series([], dtype="int64"), "card": pd.Series([], dtype=str),
                           "round": pd.Series([], dtype="int64")})
    return {"players": pa.Table.from_pandas(players), "builds": pa.Table.from_pandas(builds)}


# ---------------------------------------------------------------------------- the proposal


def _fake_study(spec, rows):
    """An in-memory study holding finished candidates: (values, verdict, loss, role)."""
    study = optuna.create_study()
    for values, verdict, loss, role in rows:
        n, move = T.change_size(spec, values)
        study.add_trial(optuna.trial.create_trial(value=loss, user_attrs={
            "key": T._key(values), "values": values, "role": role, "games": 10, "verdict": verdict,
            "decided_by": "interval", "n_changed": n, "change": move, "rungs": [],
            "figures": [{"target": "seat_balance", "game": "progress", "n_players": 2, "item": "seat 0",
                         "value": 0.5, "lo": 0.4, "hi": 0.6, "band_lo": 0.3, "band_hi": 0.7,
                         "status": "met", "distance": 0.0}]}))
    return study


def test_the_proposal_is_the_met_candidate_that_changes_least(tmp_path):
    spec = T.load_tune(write(tmp_path, HEAD + '[knobs]\n"cards.mansion.cost" = [0, 10]\n'
                             '"cards.farm.copies" = [4, 12]\n' + TARGET))  # baseline: cost 4, copies 8
    rows = [({"cards.mansion.cost": 4, "cards.farm.copies": 8}, "missed", 3.0, "baseline"),
            ({"cards.mansion.cost": 5, "cards.farm.copies": 9}, "met", 0.0, "search"),    # two knobs
            ({"cards.mansion.cost": 10, "cards.farm.copies": 8}, "met", 0.0, "search"),   # one knob, far
            ({"cards.mansion.cost": 6, "cards.farm.copies": 8}, "met", 0.2, "search"),    # one knob, near
            ({"cards.mansion.cost": 4, "cards.farm.copies": 12}, "missed", 0.0, "search")]
    result = T.collect(_fake_study(spec, rows), spec, "test")
    assert result.proposal == 3 and result.proposal_meets
    # none met: the lowest loss is proposed, said not to meet the targets
    none_met = [(v, "missed", loss, role) for v, _, loss, role in rows[:1] + rows[3:4]]
    result = T.collect(_fake_study(spec, none_met), spec, "test")
    assert result.proposal == 1 and not result.proposal_meets
    assert "NO candidate met" in T.proposal_toml(result)


# ---------------------------------------------------------------------------- common random numbers


def test_every_candidate_plays_the_same_seeds(tmp_path):
    spec = T.load_tune(write(tmp_path, HEAD + KNOB + TARGET))
    seeds = []
    for cost in (2, 8):
        (unit,) = spec.sweep((spec.variant("c", {"cards.mansion.cost": cost}),)).units()
        data = unit.data()
        runner.warm_up([unit], [runner.unit_table(unit, data)], [data])
        tables = runner.play_in_memory(unit, spec.seed, 5, 7)
        seeds.append(tables["games"].column("seed").to_pylist())
        assert tables["games"].column("game_id").to_pylist() == list(range(5, 12))
    assert seeds[0] == seeds[1] and len(set(seeds[0])) == 7


# ---------------------------------------------------------------------------- whole searches


PLANTED = """game = "progress"
players = [2]
strategies = ["greedy"]
seed = 11
games = 300
first_games = 100
budget = 5
[baseline]
rules.start_money = [1, 30, 7, 8]
[knobs]
"rules.start_money" = [[1, 30, 7, 8], [1, 20, 7, 8], [5, 6, 7, 8], [30, 1, 7, 8]]
[target]
seat_balance = { within_pp = 10 }
"""


def test_a_planted_imbalance_is_moved_back_into_the_band(tmp_path):
    """The second seat starts with 30 coins, the first with 1 (planted); of the starts the search
    may choose, the proposal must be one whose seats win within 10 pp of 1/2 when played again by
    nesim sweep from the proposal file, on seeds the search did not see."""
    p = write(tmp_path, PLANTED)
    out = tmp_path / "out"
    r = tune(p, out)
    assert r.exit_code == 0, r.output + r.stderr
    sw = load_sweep(out / "proposal.toml")
    assert [v.name for v in sw.variants] == ["baseline", "proposal"]
    assert sw.variant("baseline").rules["start_money"] == [1, 30, 7, 8]
    check = tmp_path / "check.toml"
    check.write_text((out / "proposal.toml").read_text().replace("seed = 11", "seed = 12"))
    data = tmp_path / "check"
    assert CliRunner().invoke(cli, ["sweep", str(check), "--out", str(data), "--quiet"]).exit_code == 0
    rates = S.seat_win_rates(S.read_table([data], "players"))
    base, prop = rates[rates["variant"] == "baseline"], rates[rates["variant"] == "proposal"]
    assert ((base["rate"] - 0.5).abs() > 0.10).any(), base  # the planted imbalance is real
    assert ((prop["rate"] - 0.5).abs() <= 0.10).all(), prop
    trials = pd.read_parquet(out / "trials.parquet")
    assert trials["trial"].nunique() <= 5 and trials.loc[trials["proposal"], "verdict"].eq("met").all()
    assert "Targets: baseline against proposal" in (out / "report.html").read_text()


def test_a_target_already_met_proposes_no_change(tmp_path):
    p = write(tmp_path, HEAD + KNOB + "[target]\nseat_balance = { within_pp = 49 }\nwinning_score = [0, 500]\n")
    out = tmp_path / "out"
    r = tune(p, out)
    assert r.exit_code == 0, r.output + r.stderr
    sw = load_sweep(out / "proposal.toml")
    assert [v.name for v in sw.variants] == ["baseline"] and not sw.variants[0].cards
    trials = pd.read_parquet(out / "trials.parquet")
    assert set(trials["trial"]) == {0} and trials["cards.mansion.cost"].eq(4).all()


def _study(out: Path):
    from optuna.storages.journal import JournalFileBackend, JournalStorage

    return optuna.load_study(study_name="tune", storage=JournalStorage(JournalFileBackend(str(out / T.JOURNAL))))


def _complete_trials(out: Path) -> dict:
    """trial number -> (knob values, loss, games) of each candidate the journal holds as finished."""
    if not (out / T.JOURNAL).exists():
        return {}
    try:
        study = _study(out)
    except KeyError:  # the study is not created yet
        return {}
    return {t.number: (t.user_attrs["values"], t.value, t.user_attrs["games"])
            for t in study.get_trials(states=(optuna.trial.TrialState.COMPLETE,)) if "repeat_of" not in t.user_attrs}


RESUME = HEAD.replace("budget = 3", "budget = 5").replace("games = 60", "games = 30") + \
    '[knobs]\n"cards.mansion.cost" = [0, 12]\n[target]\nseat_balance = { within_pp = 2 }\n'


class Killed(Exception):
    pass


def _check_resumed(out: Path, before: dict, budget: int) -> None:
    """Every candidate finished before the interruption is in the results as it was, and the
    search went on to the budget with distinct candidates."""
    trials = pd.read_parquet(out / "trials.parquet").drop_duplicates("trial").set_index("trial")
    for number, (values, loss, games) in before.items():
        assert trials.loc[number, "cards.mansion.cost"] == values["cards.mansion.cost"]
        assert trials.loc[number, "loss"] == pytest.approx(loss) and trials.loc[number, "games"] == games
    assert len(trials) == budget and trials["cards.mansion.cost"].nunique() == budget


def test_an_interrupted_search_resumes_without_losing_a_candidate(tmp_path, monkeypatch):
    """In process: the search is stopped in the middle of its third candidate (as a kill would),
    then resumed; the fast twin of the SIGKILL test below."""
    p = write(tmp_path, RESUME)
    out = tmp_path / "out"
    play = runner.play_in_memory

    def dying(*args, **kwargs):
        if len(_complete_trials(out)) >= 2:
            raise Killed
        return play(*args, **kwargs)

    monkeypatch.setattr(runner, "play_in_memory", dying)
    with pytest.raises(Killed):
        T.run_tune(T.load_tune(p), out)
    before = _complete_trials(out)
    assert len(before) == 2 and not any((out / name).exists() for name in T.OUTPUTS)
    monkeypatch.setattr(runner, "play_in_memory", play)
    r = tune(p, out, "--resume")
    assert r.exit_code == 0, r.output + r.stderr
    _check_resumed(out, before, 5)
    # the candidate cut off was played again, not lost: it failed once in the journal
    failed = [t for t in _study(out).get_trials() if t.state == optuna.trial.TrialState.FAIL]
    assert len(failed) == 1 and failed[0].params


@pytest.mark.slow
def test_a_killed_search_resumes_without_losing_a_candidate(tmp_path):
    p = write(tmp_path, RESUME)
    out = tmp_path / "out"
    proc = subprocess.Popen(NESIM + ["tune", str(p), "--out", str(out), "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and len(_complete_trials(out)) < 2:
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = _complete_trials(out)
    assert len(before) >= 2 and not any((out / name).exists() for name in T.OUTPUTS)
    r = tune(p, out, "--resume")
    assert r.exit_code == 0, r.output + r.stderr
    _check_resumed(out, before, 5)


def test_tune_is_in_the_help():
    r = CliRunner().invoke(cli, ["--help"])
    assert "tune" in r.output
    r = CliRunner().invoke(cli, ["tune", "--help"])
    assert "--resume" in r.output and "--backend" in r.output


def test_each_knob_is_first_tried_alone_at_values_spread_over_its_range(tmp_path):
    """After the baseline, the first candidates move one knob each (the others at the baseline),
    at most half the budget of them, so a one-knob proposal is found even when the sampler moves
    every knob together; a baseline outside a knob's choices gives no probes and no error."""
    import optuna

    two = HEAD.replace("budget = 3", "budget = 9") + (
        '[knobs]\n"cards.mansion.cost" = [1, 12]\n"cards.mansion.asset_value" = [16, 28]\n' + TARGET)
    spec = T.load_tune(write(tmp_path, two))
    base = spec.baseline_values()
    study = optuna.create_study()
    T._enqueue_one_knob_probes(study, spec)
    probes = [t.system_attrs["fixed_params"] for t in study.get_trials(deepcopy=False)]  # queued
    assert len(probes) == 4
    for params in probes:
        assert sum(params[k] != base[k] for k in base) == 1
    # two per knob (half of 9 - 1, shared): the costs 1..12 but the data's 4 are eleven values, and
    # the two that cut them in three equal parts are the 4th and 8th (5 and 9)
    assert sorted(p["cards.mansion.cost"] for p in probes if p["cards.mansion.cost"] != base["cards.mansion.cost"]) \
        == [5, 9]
    # the planted example's budget (20, so 4 per knob) from a cost of 1 tries the cost of the data, 4
    assert T._probe_values(dataclasses.replace(spec.knobs[0], baseline=1), 4) == [4, 6, 8, 10]
    off = HEAD + '[knobs]\n"rules.start_money" = [[1, 2, 3, 4], [2, 3, 4, 5]]\n' + TARGET
    study = optuna.create_study()
    T._enqueue_one_knob_probes(study, T.load_tune(write(tmp_path, off, "off.toml")))
    assert study.get_trials(deepcopy=False) == []
