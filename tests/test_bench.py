"""nesim bench measures the games users run: those of nesim simulate, seed for seed."""

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from nesim import bench
from nesim.cli import cli
from nesim.kernel import core


@pytest.mark.parametrize("game,players,strategy", [("progress", 2, "strong"),
                                                   ("glory", 3, "greedy:reserve=8")])
def test_a_bench_game_is_the_simulate_game_of_the_same_seed(tmp_path, game, players, strategy):
    out = tmp_path / "ds"
    r = CliRunner().invoke(cli, ["simulate", "--game", game, "--players", str(players), "--strategies", strategy,
                                 "--games", "6", "--seed", str(bench.SEED), "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    stored = pd.read_parquet(out / "players").sort_values(["game_id", "seat"])
    res = bench.Workload(game, players, strategy, 6).play()
    for field, column in ((core.F_SCORE, "score"), (core.F_MONEY, "money"), (core.F_BUILDINGS, "buildings")):
        np.testing.assert_array_equal(res.field(field).reshape(-1), stored[column].to_numpy(), err_msg=column)
    assert (pd.read_parquet(out / "games").sort_values("game_id")["seed"].to_numpy() == res.seeds).all()


def test_decisions_are_counted_from_the_log_without_options_or_sale_cards():
    from types import SimpleNamespace

    entry = lambda kind, v=0: (kind << 24) | v
    logs = np.array([[entry(core.K_PLACE), entry(core.K_SELL, 2), entry(core.K_SELL_CARD),
                      entry(core.K_SELL_CARD), entry(core.K_BUILD), entry(core.K_PLACE)],
                     [entry(core.K_OPTION), entry(core.K_OPTION), entry(core.K_PLACE), 0, 0, 0]], np.int32)
    # game 0's last entry lies past its length: left over, not a decision
    res = SimpleNamespace(logs=logs, games=np.array([[0, 0, 0, 0, 5], [0, 0, 0, 0, 3]]))
    assert bench.decisions_in(res) == 3 + 1


def test_the_two_sides_take_turns_going_first():
    order = bench.turns(4)
    assert all(sorted(t) == [0, 1] for t in order)
    assert [t[0] for t in order] == [0, 1, 0, 1]


def test_bench_reports_ns_per_decision():
    r = CliRunner().invoke(cli, ["bench", "--json", "--kernel-games", "30", "--reference-games", "3",
                                 "--repeats", "1", "--no-startup"])
    assert r.exit_code == 0, r.output
    for x in json.loads(r.output)["results"]:
        per_game = 1e9 / x["kernel_games_per_s"]
        # ns per decision times decisions per game is the time of a game (to the rounding)
        assert x["kernel_ns_per_decision"] * x["decisions_per_game"] == pytest.approx(per_game, rel=0.02)
        assert 50 < x["decisions_per_game"] < 2000


def test_against_the_same_checkout_plays_the_same_games():
    results = bench.compare(bench.checkout_root(), games=20, repeats=1, configs=(("progress", 2),))
    (r,) = results
    assert r.same_games and r.ns_per_decision > 0 and r.against_ns_per_decision > 0
    assert r.speedup == pytest.approx(r.against_ns_per_decision / r.ns_per_decision, rel=1e-2)


def test_against_a_folder_that_is_no_checkout_is_a_user_error(tmp_path):
    r = CliRunner().invoke(cli, ["bench", "--against", str(tmp_path), "--kernel-games", "5"])
    assert r.exit_code == 2 and "not a nesim checkout" in r.output


def test_a_checkout_that_fails_to_load_is_one_line_naming_why(tmp_path):
    (tmp_path / "nesim").mkdir()
    (tmp_path / "nesim" / "runner.py").write_text("")
    (tmp_path / "nesim" / "__init__.py").write_text("raise ImportError('broken on purpose')\n")
    r = CliRunner().invoke(cli, ["bench", "--against", str(tmp_path), "--kernel-games", "5"])
    assert r.exit_code == 2 and "broken on purpose" in r.output and "Traceback" not in r.output
