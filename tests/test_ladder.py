"""The skill ladder: a sweep file's ``[ladder]``, the rungs the runner plays after the sweep (each
a dataset of mirror games in the sweep's folder), and the report's section that lines up their
card values, seat win rates and verdicts, with rank correlations between consecutive rungs."""

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
from nesim.errors import NesimError
from nesim.sweep import load_sweep

HEAD = 'game = "progress"\nplayers = [2]\ngames = 40\nseed = 5\nstrategies = ["greedy", "economy"]\n'


def spec(tmp_path, text, head=HEAD):
    p = tmp_path / "s.toml"
    p.write_text(head + text)
    return p


# ---------------------------------------------------------------------------- the [ladder] table


def test_rungs_keep_their_order_and_searched_rungs_default_to_a_tenth_of_the_games(tmp_path):
    sw = load_sweep(spec(tmp_path, '[ladder]\nrungs = ["random", "greedy:reserve=2", "strong:search=2,search_sub=1"]\n'))
    assert [(r.strategy, r.games) for r in sw.ladder] == [
        ("random", 40), ("greedy:reserve=2", 40), ("strong:search=2,search_sub=1", 4)]
    sw = load_sweep(spec(tmp_path, '[ladder]\nrungs = ["random", "greedy"]\ngames = [7, 3]\n'))
    assert [r.games for r in sw.ladder] == [7, 3]
    sw = load_sweep(spec(tmp_path, '[ladder]\nrungs = ["random", "greedy"]\ngames = 9\n'))
    assert [r.games for r in sw.ladder] == [9, 9]


def test_the_default_rungs_are_the_registered_ones_in_order_of_strength(tmp_path, monkeypatch):
    from nesim import registry

    real = registry.find
    monkeypatch.setattr(registry, "find", lambda name: None if name == "expert" else real(name))
    sw = load_sweep(spec(tmp_path, "[ladder]\n"))
    assert [r.strategy for r in sw.ladder] == ["random", "greedy", "strong", "strong:search=2,search_sub=1",
                                               "strong:search=4,search_sub=2"]
    # once expert is registered it takes its place after strong
    monkeypatch.setattr(registry, "find", lambda name: real("greedy") if name == "expert" else real(name))
    from nesim.sweep import default_rungs
    assert default_rungs()[:4] == ["random", "greedy", "strong", "expert"]


def test_a_rung_replays_each_variant_with_its_strategy_in_every_seat_once(tmp_path):
    """The variant that changes only the line-up plays the baseline's very games on a rung, so a
    rung leaves it out; a parameter change of the rung's strategy is kept (and applied), one of
    another strategy is not; solo is no rung's business."""
    sw = load_sweep(spec(tmp_path, """
players = [1, 2, 3]
[[variant]]
name = "mirror"
strategies = ["strong"]
[[variant]]
name = "patient-greedy"
params.greedy.reserve = 2
[[variant]]
name = "cheap-farm"
cards.farm = { cost = 0 }
[ladder]
rungs = ["random", "greedy"]
games = [5, 6]
""", head=HEAD.replace("players = [2]\n", "")))
    random_rung, greedy_rung = (sw.rung_units(r) for r in sw.ladder)
    assert [(u.variant, u.n_players, u.strategies) for u in random_rung] == [
        ("baseline", 2, ("random",) * 2), ("baseline", 3, ("random",) * 3),
        ("cheap-farm", 2, ("random",) * 2), ("cheap-farm", 3, ("random",) * 3)]
    assert [(u.variant, u.strategies[0]) for u in greedy_rung if u.n_players == 2] == [
        ("baseline", "greedy"), ("patient-greedy", "greedy:reserve=2"), ("cheap-farm", "greedy")]
    assert all(u.games == 6 for u in greedy_rung)
    # game ids are unique within the rung's dataset
    ids = [i for u in greedy_rung for i in range(u.id_base, u.id_base + u.games)]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("table, words", [
    ('rungs = ["random", "nobody"]', "unknown strategy 'nobody'"),
    ('rungs = ["random"]', "a ladder compares at least 2"),
    ('rungs = ["random", "random"]', "lists 'random' twice"),
    ('rungs = "random"', "must be a list of strategy names"),
    ('rungs = ["random", "greedy:speed=3"]', "unknown parameter 'speed'"),
    ('rungs = ["random", "greedy"]\ngames = [10]', "gives 1 numbers for 2 rungs"),
    ('rungs = ["random", "greedy"]\ngames = 0', "must be at least 1"),
    ('rungs = ["random", "greedy"]\ngames = [5, "many"]', "must be a whole number"),
    ('steps = 3', "unknown key"),
])
def test_a_bad_ladder_table_is_one_line_and_writes_nothing(tmp_path, table, words):
    out = tmp_path / "out"
    r = CliRunner().invoke(cli, ["sweep", str(spec(tmp_path, "[ladder]\n" + table)), "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert r.output.startswith("nesim: error: ") and r.output.count("\n") == 1, r.output
    assert "ladder" in r.output and words in r.output, r.output
    assert not out.exists()


def test_a_ladder_needs_a_multiplayer_count(tmp_path):
    with pytest.raises(NesimError, match="ladder: needs a player count of 2 or more"):
        load_sweep(spec(tmp_path, '[ladder]\nrungs = ["random", "greedy"]\n',
                        head=HEAD.replace("players = [2]", "players = [1]")))


# ---------------------------------------------------------------------------- the statistics


def _values(per_rung: dict[int, list[float]], cards=("a", "b", "c", "d", "e", "f"), variant="baseline"):
    rows = [{"game": "progress", "n_players": 2, "variant": variant, "rung": r, "card": c, "value": v}
            for r, vals in per_rung.items() for c, v in zip(cards, vals)]
    return pd.DataFrame(rows)


def test_rank_correlation_is_taken_between_consecutive_rungs_only():
    """Planted values: rung 2 ranks the cards in reverse of rung 1 (rho = -1); rung 3 swaps
    neighbouring pairs of rung 2's order (rho = 1 - 6*6/(6*35) = 29/35); rungs 1 and 3, which are
    not consecutive, are not compared. A card valued on one rung only (NaN on the other) is left
    out of that pair."""
    values = _values({1: [1, 2, 3, 4, 5, 6], 2: [60, 50, 40, 30, 20, 10], 3: [5, 6, 3, 4, 1, 2]})
    values = pd.concat([values, _values({1: [0.1, np.nan], 2: [0.2, 0.3]}, cards=("g", "h"))])
    corr = S.ladder_correlations(values, [1, 2, 3])
    assert list(zip(corr["rung_a"], corr["rung_b"])) == [(1, 2), (2, 3)]
    first, second = corr.iloc[0], corr.iloc[1]
    # 1-2 over a-g (h has no rung-1 value): g lowest on both, a-f reversed: d = 5,3,1,1,3,5,0,
    # rho = 1 - 6*70/(7*48) = -1/4
    assert first["n"] == 7 and first["rho"] == pytest.approx(-0.25)
    assert second["n"] == 6  # g and h have no rung-3 value
    assert second["rho"] == pytest.approx(29 / 35)
    assert first["lo"] <= first["rho"] <= first["hi"] and second["lo"] < second["rho"] < second["hi"]


def test_rank_correlation_of_exactly_reversed_values_is_minus_one():
    values = _values({1: [1, 2, 3, 4, 5, 6], 2: [6, 5, 4, 3, 2, 1]})
    corr = S.ladder_correlations(values, [1, 2])
    assert corr["rho"].iloc[0] == pytest.approx(-1) and corr["n"].iloc[0] == 6
    # the order of the rungs is the ladder's, not the numbers': 2 then 1 is still one pair
    assert list(S.ladder_correlations(values, [2, 1])[["rung_a", "rung_b"]].iloc[0]) == [2, 1]


def test_a_correlation_of_too_few_cards_is_undefined_not_invented():
    out = S.rank_correlation([1.0, 2.0], [2.0, 1.0])
    assert out["n"] == 2 and math.isnan(out["rho"])
    out = S.rank_correlation([1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 3.0, 4.0])  # a constant sample
    assert math.isnan(out["rho"])


def _comparison(rows):
    """A sweep_comparison-like dict with one seat_win table."""
    df = pd.DataFrame(rows)
    return {"seat_win": df.assign(game="progress", n_players=2, lo=df["diff"] - 0.01, hi=df["diff"] + 0.01)}


def test_verdict_rows_say_higher_lower_or_no_difference_from_the_flag_and_sign():
    v = S.verdict_rows(_comparison([
        {"variant": "x", "seat": 0, "diff": -0.1, "flag": True},
        {"variant": "x", "seat": 1, "diff": 0.1, "flag": True},
        {"variant": "y", "seat": 0, "diff": 0.3, "flag": False}]))
    assert list(v["verdict"]) == ["lower", "higher", "no difference"]
    assert list(v["item"]) == ["win rate of seat 0", "win rate of seat 1", "win rate of seat 0"]


VERDICT = st.sampled_from(["higher", "lower", "no difference", None])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(VERDICT, min_size=4, max_size=4), min_size=1, max_size=6))
def test_a_verdict_change_is_flagged_exactly_when_two_consecutive_rungs_differ(rows):
    """Rungs 3, 1, 4, 2 in that order (weakest first): a change is between neighbours in that
    order, where both rungs gave a verdict (None: the rung gave none)."""
    order = [3, 1, 4, 2]
    long = pd.DataFrame([{"game": "progress", "n_players": 2, "variant": "v", "table": "seat_win",
                          "item": f"item {i}", "rung": r, "verdict": verdict}
                         for i, verdicts in enumerate(rows) for r, verdict in zip(order, verdicts)
                         if verdict is not None])
    wide = S.ladder_verdicts(long, order).set_index("item")
    for i, verdicts in enumerate(rows):
        if all(v is None for v in verdicts):
            assert f"item {i}" not in wide.index
            continue
        expected = [(order[k], order[k + 1]) for k in range(3)
                    if verdicts[k] is not None and verdicts[k + 1] is not None and verdicts[k] != verdicts[k + 1]]
        row = wide.loc[f"item {i}"]
        assert bool(row["changed"]) == bool(expected)
        assert row["changes"] == "; ".join(f"{a}→{b}: {verdicts[order.index(a)]} → {verdicts[order.index(b)]}"
                                           for a, b in expected)
        assert [row[r] if isinstance(row[r], str) else None for r in order] == verdicts


# ---------------------------------------------------------------------------- played for real


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A Progress sweep with a ladder of random, greedy and strong (40, 40 and 30 games), and two
    variants: one that only changes the line-up (no rung replays it) and one of much higher
    wages, which lowers every player's score whoever plays."""
    tmp = tmp_path_factory.mktemp("ladder")
    p = spec(tmp, """
[[variant]]
name = "mirror"
strategies = ["greedy"]
[[variant]]
name = "high-wages"
rules.wages = [4, 4, 5, 5, 5, 6, 6, 7, 7]
[ladder]
rungs = ["random", "greedy", "strong"]
games = [40, 40, 30]
""")
    out = tmp / "out"
    r = CliRunner().invoke(cli, ["sweep", str(p), "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    return p, out


def test_each_rung_is_a_dataset_of_mirror_games_on_the_sweeps_seeds(swept):
    _, out = swept
    manifest = json.loads((out / "manifest.json").read_text())
    rungs = manifest["ladder"]["rungs"]
    assert [(r["rung"], r["strategy"], r["games"]) for r in rungs] == [(1, "random", 40), (2, "greedy", 40),
                                                                       (3, "strong", 30)]
    main_games = S.read_table([out], "games", ["variant", "game_id", "seed"])
    for r in rungs:
        players = S.read_table([out / r["dataset"]], "players", ["variant", "game_id", "strategy"])
        assert set(players["strategy"].astype(str)) == {r["strategy"]}
        # "mirror" only changes the line-up: not replayed on the rungs
        assert set(players["variant"].astype(str)) == {"baseline", "high-wages"}
        games = S.read_table([out / r["dataset"]], "games", ["variant", "game_id", "seed"])
        assert len(games) == 2 * r["games"]
        # game i of a rung meets the deal of game i of the sweep
        base = games[games["variant"] == "baseline"].sort_values("game_id")["seed"].to_numpy()
        main = main_games[main_games["variant"] == "baseline"].sort_values("game_id")["seed"].to_numpy()
        assert (base == main[:len(base)]).all()


def test_the_ladder_section_shows_the_rungs_in_order_with_their_tables(swept):
    from nesim.report.ladder import ladder_section

    _, out = swept
    manifest = S.read_manifest(out)
    sec = ladder_section([str(out)], [manifest])
    tables = {b.id: b for k, b in sec.blocks if k == "table"}
    rungs = next(t for i, t in tables.items() if "ladder-rungs" in i)
    assert [row[1][0] for row in rungs.rows] == ["random", "greedy", "strong"]
    cards = next(t for i, t in tables.items() if "ladder-cards" in i and "baseline" in i)
    names = [h for h in cards.headers if h not in ("card", "95% CI")]
    assert names == ["1. random", "2. greedy", "3. strong"]
    corr = next(t for i, t in tables.items() if "ladder-corr" in i)
    pairs = [dict(zip(corr.headers, (c for c, _ in row)))["rungs"] for row in corr.rows]
    assert pairs[:2] == ["1. random → 2. greedy", "2. greedy → 3. strong"]
    verdicts = next(t for i, t in tables.items() if "ladder-verdicts" in i)
    assert verdicts.headers[4:7] == ["1. random", "2. greedy", "3. strong"]
    rows = [dict(zip(verdicts.headers, (c for c, _ in row))) for row in verdicts.rows]
    assert {r["variant"] for r in rows} == {"high-wages"}
    # highlighted rows are exactly those whose verdicts change between neighbouring rungs
    for row, cls in zip(rows, verdicts.row_classes):
        steps = [row[h] for h in ("1. random", "2. greedy", "3. strong")]
        differ = any(a != b and "–" not in (a, b) for a, b in zip(steps, steps[1:]))
        assert (cls == "flagged") == differ
    # the wages' effect on the mean score is the same verdict at every rung: lower
    score = next(r for r in rows if r["about"] == "mean score")
    assert [score[h] for h in ("1. random", "2. greedy", "3. strong")] == ["lower"] * 3
    # no ladder in the manifest: no section
    assert ladder_section([str(out)], [{}]) is None


def test_resume_finishes_a_rung_that_was_lost(swept):
    p, out = swept
    import shutil

    manifest = json.loads((out / "manifest.json").read_text())
    lost = out / manifest["ladder"]["rungs"][1]["dataset"]
    before = S.read_table([lost], "players", ["game_id", "seat", "score"])
    shutil.rmtree(lost)
    r = CliRunner().invoke(cli, ["sweep", "--out", str(out), "--resume", "--quiet"])
    assert r.exit_code == 0, r.output
    after = S.read_table([lost], "players", ["game_id", "seat", "score"])
    pd.testing.assert_frame_equal(before.sort_values(["game_id", "seat"], ignore_index=True),
                                  after.sort_values(["game_id", "seat"], ignore_index=True))
    # the same file with another ladder is not the run in --out
    other = p.with_name("other.toml")
    other.write_text(p.read_text().replace("games = [40, 40, 30]", "games = [40, 40, 31]"))
    r = CliRunner().invoke(cli, ["sweep", str(other), "--out", str(out), "--resume"])
    assert r.exit_code == 2 and r.output.startswith("nesim: error: ") and "[ladder]" in r.output


@pytest.mark.slow  # the whole report, every section (10 s); the section alone is tested above
def test_nesim_report_on_a_ladder_sweep_has_the_section_after_the_others(swept, tmp_path):
    _, out = swept
    page = tmp_path / "r.html"
    r = CliRunner().invoke(cli, ["report", str(out), "--out", str(page), "--quiet"])
    assert r.exit_code == 0, r.output
    text = page.read_text()
    assert '<section id="ladder">' in text and 'href="#ladder"' in text
    assert text.index('<section id="sweeps">') < text.index('<section id="ladder">')
    at = text.index('<section id="ladder">')
    assert text.index("1. random", at) < text.index("2. greedy", at) < text.index("3. strong", at)
