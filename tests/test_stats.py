"""nesim.stats against independently known values: published intervals, closed forms, planted effects."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats as sps

from nesim import stats as S
from nesim.errors import NesimError
from report_fixtures import simulate_tables, write_dataset


# ---------------------------------------------------------------------------- rates and comparisons


def test_wilson_known_values():
    lo, hi = S.wilson_interval([50, 0, 10], [100, 10, 10])
    assert lo[0] == pytest.approx(0.4038, abs=1e-4) and hi[0] == pytest.approx(0.5962, abs=1e-4)
    assert lo[1] == 0.0 and hi[1] == pytest.approx(0.2775, abs=1e-4)
    assert lo[2] == pytest.approx(0.7225, abs=1e-4) and hi[2] == 1.0


@pytest.mark.parametrize("k,n", [(1, 7), (13, 40), (999, 1000), (3, 3000)])
def test_wilson_matches_scipy(k, n):
    ci = sps.binomtest(k, n).proportion_ci(method="wilson")
    lo, hi = S.wilson_interval(k, n)
    assert float(lo) == pytest.approx(ci.low, abs=1e-9) and float(hi) == pytest.approx(ci.high, abs=1e-9)


def test_wilson_empty_is_nan():
    lo, hi = S.wilson_interval([0], [0])
    assert np.isnan(lo[0]) and np.isnan(hi[0])


def test_newcombe_published_example():
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 vs 48/80, method 10
    d, lo, hi = S.newcombe_diff(56, 70, 48, 80)
    assert float(d) == pytest.approx(0.2)
    assert float(lo) == pytest.approx(0.0524, abs=1e-4) and float(hi) == pytest.approx(0.3339, abs=1e-4)


def test_two_proportion_pvalue_matches_chi_square():
    p = S.two_proportion_pvalue(56, 70, 48, 80)
    chi = sps.chi2_contingency([[56, 14], [48, 32]], correction=False)
    assert float(p) == pytest.approx(chi.pvalue, rel=1e-9)
    assert float(p) == pytest.approx(0.00805, abs=5e-5)


def test_holm_and_bh_known_values():
    p = [0.01, 0.04, 0.03, 0.005]
    np.testing.assert_allclose(S.holm(p), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(S.benjamini_hochberg(p), [0.02, 0.04, 0.04, 0.02])
    adj = S.holm([0.01, np.nan, 0.02])
    assert np.isnan(adj[1]) and adj[0] == pytest.approx(0.02) and adj[2] == pytest.approx(0.02)
    assert S.holm([0.5, 0.9])[1] == 1.0  # step-down: never below an earlier step (0.5 x 2)
    assert S.holm([0.6, 0.7]).max() <= 1.0


def test_mean_diff_interval():
    d, se, lo, hi, p = S.mean_diff(10.0, 0.3, 9.0, 0.4)
    assert float(se) == pytest.approx(0.5)
    assert float(lo) == pytest.approx(1 - 1.959964 * 0.5, abs=1e-5)
    assert float(p) == pytest.approx(2 * (1 - sps.norm.cdf(2.0)))


def test_paired_mean_diff_by_hand():
    # differences 1, 2, 0: mean 1, sample sd 1, se 1/sqrt(3), t(2) critical value 4.3027
    d, se, lo, hi, p = S.paired_mean_diff([2, 4, 3], [1, 2, 3])
    assert (d, se) == (pytest.approx(1.0), pytest.approx(1 / np.sqrt(3)))
    assert (lo, hi) == (pytest.approx(1 - 4.302653 / np.sqrt(3), abs=1e-5),
                        pytest.approx(1 + 4.302653 / np.sqrt(3), abs=1e-5))
    assert p == pytest.approx(sps.ttest_rel([2, 4, 3], [1, 2, 3]).pvalue)
    # a shift shared by every pair cancels: the same games played two ways differ only by it
    assert S.paired_mean_diff([5, 9, 100], [3, 7, 98])[:2] == (2.0, 0.0)
    with pytest.raises(ValueError):
        S.paired_mean_diff([1], [2])


def test_compare_rates_flags_only_real_differences():
    df = pd.DataFrame({"game": "progress", "n_players": 2,
                       "variant": ["baseline", "big", "small"], "strategy": "greedy",
                       "k": [500, 800, 520], "n": [1000, 1000, 1000]})
    out = S.compare_rates(df, "baseline", ["strategy"]).set_index("variant")
    assert out.loc["big", "diff"] == pytest.approx(0.3) and out.loc["big", "flag"]
    assert not out.loc["small", "flag"]
    assert out.loc["small", "lo"] < 0 < out.loc["small", "hi"]
    # Holm over the two comparisons of the family: the smaller p doubled
    raw = S.two_proportion_pvalue(800, 1000, 500, 1000)
    assert out.loc["big", "p_adj"] == pytest.approx(min(1, 2 * float(raw)))


# ---------------------------------------------------------------------------- logistic regression


def test_logistic_regression_recovers_planted_effects():
    rng = np.random.default_rng(7)
    n = 20_000
    X = (rng.random((n, 3)) < [0.3, 0.5, 0.4]).astype(np.uint8)
    eta = -0.3 + 1.0 * X[:, 0] + 0.0 * X[:, 1] - 0.5 * X[:, 2]
    y = rng.random(n) < special.expit(eta)
    res = S.logistic_regression(np.column_stack([np.ones(n, np.uint8), X]), y, ridge=1.0, chunk=4096)
    assert res.converged
    b, se = res.coef, res.se
    assert abs(b[1] - 1.0) < 3 * se[1]
    assert abs(b[2]) < 3 * se[2]
    assert abs(b[3] + 0.5) < 3 * se[3]
    # SE of a binary coefficient with ~6000 treated: about 0.03 to 0.05
    assert 0.02 < se[1] < 0.06


def test_logistic_regression_survives_separation():
    X = np.array([[1, 0], [1, 0], [1, 1], [1, 1], [1, 0], [1, 1]], dtype=np.uint8)
    y = X[:, 1].astype(bool)  # card perfectly predicts the outcome
    res = S.logistic_regression(X, y, ridge=1.0)
    assert np.all(np.isfinite(res.coef)) and np.all(np.isfinite(res.se)) and res.coef[1] > 1


def test_card_stats_finds_planted_card():
    rng = np.random.default_rng(3)
    t = simulate_tables("progress", 2, "baseline", ["a", "b"], 6000, rng, card_effects={"farm": 1.0})
    builds = t["builds"]
    cs = S.card_stats(t["players"], builds)
    top = cs.iloc[0]
    assert top["card"] == "farm"
    assert 0.6 < top["coef"] < 1.2  # attenuated a little: the opponent's cards are not in the model
    null = cs[cs["card"] != "farm"].dropna(subset=["coef"])
    assert (np.abs(null["coef"] / null["coef_se"]) > 3.5).sum() == 0
    # build rate: the share of player-games with at least one build of that card, computed directly
    n_pg = len(t["players"])
    farm_pg = builds[builds["card"] == "farm"][["game_id", "seat"]].drop_duplicates()
    assert top["build_rate"] == pytest.approx(len(farm_pg) / n_pg)
    assert top["player_games"] == n_pg
    # points per cost from the published Progress card table: Farm costs 1, is worth 6
    assert top["cost"] == 1 and top["asset_value"] == 6 and top["points_per_cost"] == 6
    assert 1 <= top["mean_round"] <= 9


def test_card_values_separate_the_card_from_its_builder():
    """A strong player builds Farm in 80% of its games and wins because it is strong (Farm is worth
    nothing); Factory is worth +0.7 log-odds to whoever builds it. Pooled over strategies, Farm
    looks like the best card; within strategy and in mirror games it is worth nothing."""
    rng = np.random.default_rng(11)
    effects = dict(strength={"strong": 2.0}, card_effects={"factory": 0.7},
                   build_bias={"strong": {"farm": 0.8}, "weak": {"farm": 0.1}})
    mixed = simulate_tables("progress", 2, "baseline", ["strong", "weak"], 6000, rng, **effects)
    mirror = simulate_tables("progress", 2, "mirror-strong", ["strong"], 4000, rng, id_base=6000,
                             **effects)
    players = pd.concat([mixed["players"], mirror["players"]], ignore_index=True)
    builds = pd.concat([mixed["builds"], mirror["builds"]], ignore_index=True)
    assert S.mirror_games(players).sum() == 2 * 4000  # every player-game of the mirror variant
    same_cards = lambda game, variant: "published cards"
    cs = S.card_stats(players, builds, card_sets=same_cards)
    base = cs[cs["variant"] == "baseline"].set_index("card")
    farm, factory = base.loc["farm"], base.loc["factory"]
    assert farm["pooled"] > 1.0 and farm["pooled_lo"] > 0  # the builder's strength, not the card's
    assert abs(farm["coef"]) < 0.25 and farm["coef_lo"] < 0 < farm["coef_hi"]
    assert abs(farm["mirror"]) < 0.25 and farm["mirror_lo"] < 0 < farm["mirror_hi"]
    for value in ("coef", "mirror"):
        assert 0.4 < factory[value] < 1.1 and factory[value + "_lo"] > 0
    assert base["mirror_games"].iloc[0] == 4000 and base["mirror_strategies"].iloc[0] == "strong"
    # the mirror variant's own table: one strategy, so within strategy is the pooled fit
    own = cs[cs["variant"] == "mirror-strong"].dropna(subset=["coef"])
    np.testing.assert_allclose(own["coef"], own["pooled"])
    # without card sets, mirror games count only within their own variant
    alone = S.card_stats(players, builds).set_index(["variant", "card"])
    assert np.isnan(alone.loc[("baseline", "farm"), "mirror"])
    assert alone.loc[("baseline", "farm"), "mirror_games"] == 0


def test_card_stats_hand_built():
    players = pd.DataFrame({"game_id": [1, 1, 2, 2], "variant": "v", "game": "progress", "n_players": 2,
                            "seat": [0, 1, 0, 1], "win": [True, False, False, True],
                            "solo_cleared": False})
    builds = pd.DataFrame({"game_id": [1, 1, 2, 1], "variant": "v", "game": "progress", "n_players": 2,
                           "seat": [0, 0, 1, 1], "card": ["farm", "farm", "farm", "factory"],
                           "round": [3, 5, 7, 2]})
    cs = S.card_stats(players, builds).set_index("card")
    assert cs.loc["farm", "built"] == 2 and cs.loc["farm", "build_rate"] == 0.5
    assert cs.loc["farm", "mean_round"] == 5.0  # first builds at rounds 3 and 7
    assert cs.loc["farm", "win_built"] == 1.0 and cs.loc["farm", "win_not"] == 0.0
    assert cs.loc["factory", "built"] == 1 and cs.loc["factory", "win_built"] == 0.0
    assert (cs.drop(["farm", "factory"])["built"] == 0).all() and len(cs) == 24


# ---------------------------------------------------------------------------- ratings


def test_bradley_terry_two_players_closed_form():
    theta, cov = S.bradley_terry(np.array([[0, 60], [40, 0]]), prior=0.0)
    assert theta[0] - theta[1] == pytest.approx(math.log(1.5), abs=1e-8)
    # var(theta1 - theta2) = 1 / (N pi (1 - pi)) with N = 100, pi = 0.6
    var_d = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    assert var_d == pytest.approx(1 / (100 * 0.6 * 0.4), rel=1e-6)


def test_ratings_recover_planted_order():
    strength = {"s0": 0.9, "s1": 0.3, "s2": -0.2, "s3": -1.0}
    rng = np.random.default_rng(11)
    frames = [simulate_tables("progress", 2, "baseline", list(strength), 4000, rng,
                              id_base=0, strength=strength)["players"]]
    r = S.ratings(pd.concat(frames, ignore_index=True))
    assert list(r["strategy"]) == ["s0", "s1", "s2", "s3"]
    planted = np.array(list(strength.values()))
    planted = S.ELO_PER_LOGIT * (planted - planted.mean()) + 1500
    got = r.set_index("strategy").loc[list(strength)]
    assert np.all(np.abs(got["rating"].to_numpy() - planted) < 3 * got["rating_se"].to_numpy() + 5)


def test_pairings_head_to_head():
    players = pd.DataFrame({"game_id": [1, 1, 2, 2, 3, 3], "variant": "v", "game": "glory",
                            "n_players": 2, "seat": [0, 1] * 3, "strategy": ["a", "b", "b", "a", "a", "a"],
                            "rank": [1, 2, 1, 2, 1, 2], "win": [True, False] * 3})
    p = S.pairings(players).set_index(["strategy", "opponent"])
    assert p.loc[("a", "b"), "n"] == 2 and p.loc[("a", "b"), "k"] == 1
    assert ("a", "a") not in p.index


# ---------------------------------------------------------------------------- seats, ties, length


def test_seat_balance_constructed():
    seat_rates = pd.DataFrame({"game": "mecenat", "n_players": 3, "variant": "v", "seat": [0, 1, 2],
                               "k": [50, 30, 20], "n": [100, 100, 100]})
    seat_rates["rate"] = seat_rates["k"] / seat_rates["n"]
    b = S.seat_balance(seat_rates).iloc[0]
    assert b["balance"] == pytest.approx(0.7) and b["best_seat"] == 0 and b["worst_seat"] == 2
    d, lo, hi = S.newcombe_diff(50, 100, 20, 100)
    assert b["balance_lo"] == pytest.approx(1 - hi) and b["balance_hi"] == pytest.approx(1 - lo)


def test_seat_win_rates_from_players():
    wins0 = [True] * 7 + [False] * 3
    players = pd.DataFrame({"game_id": np.repeat(np.arange(10), 2), "variant": "v", "game": "progress",
                            "n_players": 2, "seat": [0, 1] * 10,
                            "win": [w for w0 in wins0 for w in (w0, not w0)]})
    s = S.seat_win_rates(players).set_index("seat")
    assert s.loc[0, "rate"] == 0.7 and s.loc[1, "rate"] == pytest.approx(0.3)
    assert s.loc[0, "fair"] == 0.5
    assert s.loc[0, "p_fair"] == pytest.approx(sps.binomtest(7, 10, 0.5).pvalue)
    assert S.seat_balance(S.seat_win_rates(players)).iloc[0]["balance"] == pytest.approx(0.6)


def test_tie_rate_and_game_length():
    scores = [(10, 10), (10, 9), (5, 5), (3, 8)]
    players = pd.DataFrame({"game_id": np.repeat(np.arange(4), 2), "variant": "v", "game": "glory",
                            "n_players": 2, "seat": [0, 1] * 4, "score": [s for p in scores for s in p]})
    t = S.tie_rate(players).iloc[0]
    assert t["ties"] == 2 and t["rate"] == 0.5
    games = pd.DataFrame({"game_id": range(4), "variant": "v", "game": "glory", "n_players": 2,
                          "rounds_played": [9, 9, 8, 9]})
    g = S.game_length(games).iloc[0]
    assert g["mean"] == pytest.approx(8.75) and g["min"] == 8


# ---------------------------------------------------------------------------- pacing, scores, solo


def test_pacing_hand_built():
    rounds = pd.DataFrame({
        "game_id": [1, 1, 2, 2] * 2, "variant": "v", "game": "progress", "n_players": 2,
        "seat": [0, 1, 0, 1] * 2, "round": [1] * 4 + [2] * 4,
        "money": [1, 3, 5, 7, 2, 2, 2, 2], "household": [10, 10, 20, 20, 30, 30, 50, 50]})
    p = S.pacing(rounds, metrics=["money", "household"]).set_index(["round", "metric"])
    m1 = p.loc[(1, "money")]
    assert m1["n"] == 4 and m1["mean"] == 4.0
    se = math.sqrt(20 / 3) / 2  # sd of 1,3,5,7 over sqrt(4)
    assert m1["se"] == pytest.approx(se) and m1["lo"] == pytest.approx(4 - 1.959964 * se, abs=1e-5)
    assert p.loc[(2, "money"), "se"] == 0 and p.loc[(2, "money"), "hi"] == 2.0
    # the household is one number per game: counted once per game, not once per seat
    assert p.loc[(1, "household"), "n"] == 2 and p.loc[(2, "household"), "mean"] == 40.0


def test_pacing_streamed_equals_whole(tmp_path):
    d = write_dataset(tmp_path / "ds", games=("mecenat",), n_players=(3,), n_games=60, parts=3)
    whole = S.pacing(S.read_table([d], "rounds"))
    streamed = S.read_pacing([d])
    pd.testing.assert_frame_equal(whole.reset_index(drop=True), streamed.reset_index(drop=True))


def test_score_components_in_points_per_strategy():
    players = pd.DataFrame({"game_id": [1, 1, 2, 2], "variant": "v", "game": "progress", "n_players": 2,
                            "strategy": ["a", "b", "b", "a"], "score": [40, 20, 4, -4],
                            "building_points": [30, 14, 6, 0], "bonus_points": [5, 0, 0, 0],
                            "money": [5, 9, 1, -1], "vp_points": [0, 0, 0, 0],
                            "unpaid_wages": [0, 1, 1, 1]})
    c = S.score_components(players, penalty=3)
    assert "share" not in c.columns  # a share of a mean score near 0 is meaningless
    allrows = c[c["strategy"] == "(all)"].set_index("component")
    assert allrows.loc["building_points", "mean"] == pytest.approx(50 / 4)
    assert allrows.loc["unpaid_penalty", "mean"] == pytest.approx(-9 / 4)
    assert allrows.loc["other", "mean"] == pytest.approx(0.0)
    b = c[c["strategy"] == "b"].set_index("component")
    assert b.loc["money", "mean"] == pytest.approx(5.0)  # 9 and 1 points
    # interval: mean +- 1.96 sd / sqrt(n), sd of (9, 1) = sqrt(32)
    width = b.loc["money", "hi"] - b.loc["money", "lo"]
    assert width == pytest.approx(2 * 1.959964 * math.sqrt(32 / 2), rel=1e-5)
    a_ = c[c["strategy"] == "a"].set_index("component")
    none = a_.loc["unpaid_penalty"]
    assert none["mean"] == pytest.approx(-1.5)
    # a penalty per (game, variant): each variant's unpaid wage cards at its own price
    two = pd.concat([players, players.assign(variant="w", game_id=players["game_id"] + 2)])
    by_variant = S.score_components(two, penalty=lambda game, variant: {"v": 3, "w": 5}[variant])
    pen = by_variant[(by_variant["strategy"] == "(all)") & (by_variant["component"] == "unpaid_penalty")]
    assert dict(zip(pen["variant"], pen["mean"])) == {"v": pytest.approx(-9 / 4), "w": pytest.approx(-15 / 4)}
    # a strategy that never left a wage unpaid has a penalty of 0, not -0
    nobody = S.score_components(players.assign(unpaid_wages=0), penalty=3)
    penalty = nobody.loc[nobody["component"] == "unpaid_penalty", ["mean", "lo", "hi"]].to_numpy()
    assert not np.signbit(penalty).any()


def test_solo_clear_rate():
    players = pd.DataFrame({"game_id": range(4), "variant": "v", "game": "glory", "n_players": 1,
                            "seat": 0, "strategy": "greedy", "score": [90, 100, 110, 120],
                            "solo_cleared": [False, True, True, True], "win": [False, True, True, True]})
    s = S.solo_clear_rates(players).iloc[0]
    ci = sps.binomtest(3, 4).proportion_ci(method="wilson")
    assert s["rate"] == 0.75 and s["lo"] == pytest.approx(ci.low) and s["hi"] == pytest.approx(ci.high)


# ---------------------------------------------------------------------------- sweeps and reading


def test_sweep_flags_planted_strategy_difference(tmp_path):
    d = write_dataset(tmp_path / "ds", variants=("baseline", "boost"), strategies=("greedy", "random"),
                      n_games=600, variant_strength={"boost": {"greedy": 1.5}})
    players = S.read_table([d], "players")
    out = S.sweep_comparison(players, "baseline", builds=S.read_table([d], "builds"))
    sw = out["strategy_win"].set_index("strategy")
    assert sw.loc["greedy", "flag"] and sw.loc["greedy", "diff"] > 0.2
    # build rates were not changed by the variant: (almost) nothing flagged
    assert out["card_build"]["flag"].sum() <= 1
    assert set(out) >= {"strategy_win", "seat_win", "balance", "score", "card_build", "card_value"}


def test_read_table_errors_and_chunks(tmp_path):
    with pytest.raises(NesimError, match="nowhere"):
        S.read_table([tmp_path / "nowhere"], "players")
    d = write_dataset(tmp_path / "ds", n_games=40, parts=2)
    assert len(S.read_table([d], "games")) == 40
    two = S.read_table([d, d], "games", ["game_id"])
    assert two["game_id"].is_unique and len(two) == 80
    m = json.loads((d / "manifest.json").read_text())
    m["chunks"][1]["status"] = "pending"
    (d / "manifest.json").write_text(json.dumps(m))
    assert len(S.read_table([d], "games")) == 20  # only done chunks count
    (d / "players" / "part-00000.parquet").write_bytes(b"garbage")
    with pytest.raises(NesimError, match="part-00000"):
        S.read_table([d], "players")


# ---------------------------------------------------------------------------- reading part by part

from hypothesis import given, settings, strategies as st  # noqa: E402


def _rounds_frame(values, games):
    n = len(values)
    return pd.DataFrame({"game": np.where(np.arange(n) % 3 == 0, "glory", "progress"), "n_players": 2,
                         "variant": "v", "game_id": np.arange(n) % games, "seat": np.arange(n) % 2,
                         "round": 1 + np.arange(n) % 4, "money": np.asarray(values, np.int16),
                         "household": np.asarray(values, np.int32) * 3})


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-300, 300), min_size=1, max_size=60), st.lists(st.integers(1, 59), max_size=4))
def test_pacing_moments_of_any_parts_add_up_to_the_whole(values, cuts):
    import pyarrow as pa

    df = _rounds_frame(values, games=7)
    bounds = [0] + sorted(c for c in set(cuts) if c < len(df)) + [len(df)]
    parts = [S.pacing_moments_arrow(pa.Table.from_pandas(df.iloc[a:b], preserve_index=False),
                                    ["money", "household"]) for a, b in zip(bounds, bounds[1:]) if b > a]
    streamed = S.pacing_from_moments(S.to_frame(pa.concat_tables(parts)))
    whole = S.pacing(df, metrics=["money", "household"])
    pd.testing.assert_frame_equal(streamed.reset_index(drop=True), whole.reset_index(drop=True),
                                  check_dtype=False, check_categorical=False)


def test_first_builds_read_part_by_part_are_those_of_the_whole_table(tmp_path):
    dirs = [write_dataset(tmp_path / f"ds{i}", games=("progress", "glory"), variants=("baseline", "w"),
                          n_games=40, parts=3, seed=i) for i in range(2)]
    got = S.read_first_builds(dirs)
    # independently: every part file of each dataset, grouped by pandas
    expected = []
    for i, d in enumerate(dirs):
        b = pd.read_parquet(d / "builds")
        b["game_id"] += i << 40
        b = b.astype({"card": str, "game": str, "variant": str})
        expected.append(b.groupby(["game_id", "seat", "card"])["round"].min())
    expected = pd.concat(expected).sort_index()
    got = got.astype({"card": str}).set_index(["game_id", "seat", "card"])["first_round"].sort_index()
    assert got.index.equals(expected.index)
    assert (got.to_numpy() == expected.to_numpy()).all()


def test_categories_do_not_depend_on_how_many_parts_a_dataset_has(tmp_path):
    one = S.read_table([write_dataset(tmp_path / "one", strategies=("random", "greedy"), n_games=30, parts=1)],
                       "players")
    three = S.read_table([write_dataset(tmp_path / "three", strategies=("random", "greedy"), n_games=30,
                                        parts=3)], "players")
    for frame in (one, three):
        assert list(frame["strategy"].cat.categories) == ["greedy", "random"]


def test_card_rows_made_a_slice_of_builds_at_a_time_are_the_same(tmp_path, monkeypatch):
    d = write_dataset(tmp_path / "ds", strategies=("greedy", "random"), n_games=80, parts=2)
    players, builds = S.read_table([d], "players"), S.read_first_builds([d])
    whole = S.card_stats(players, builds)
    monkeypatch.setattr(S, "_SLICE", 7)
    sliced = S.card_stats(players, builds)
    pd.testing.assert_frame_equal(whole, sliced)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from(["a", "b", "c"])), max_size=30), st.randoms())
def test_mirror_games_are_the_games_of_one_strategy_in_any_row_order(rows, rnd):
    rnd.shuffle(rows)
    players = pd.DataFrame({"game_id": [g for g, _ in rows], "strategy": pd.Categorical([s for _, s in rows]),
                            "n_players": [1 if g == 0 else 2 for g, _ in rows]})
    kinds = {g: len({s for h, s in rows if h == g}) for g, _ in rows}
    expected = [kinds[g] == 1 and g != 0 for g, _ in rows]
    assert list(S.mirror_games(players)) == expected


def test_game_matrix_drops_games_with_a_missing_row_and_keeps_seat_order():
    sub = pd.DataFrame({"game_id": [5, 5, 3, 7, 7, 3], "seat": [1, 0, 0, 0, 1, 1], "n_players": 2,
                        "score": [51, 50, 30, 70, 71, 31]}).drop(index=3)  # game 7 loses seat 0
    gid, m = S.game_matrix(sub, ["score"])
    assert list(gid) == [3, 5] and m["score"].tolist() == [[30, 31], [50, 51]]


def test_a_dataset_with_no_finished_chunk_reads_as_empty_beside_another(tmp_path):
    done = write_dataset(tmp_path / "done", n_games=20, parts=2)
    none = write_dataset(tmp_path / "none", n_games=20, parts=2)
    m = json.loads((none / "manifest.json").read_text())
    for c in m["chunks"]:
        c["status"] = "pending"
    (none / "manifest.json").write_text(json.dumps(m))
    players = S.read_table([done, none], "players", ["game_id", "strategy"])
    assert len(players) == 40 and set(players["strategy"]) == {"greedy", "random"}
