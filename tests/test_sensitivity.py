"""One-step sensitivity: the ``[sensitivity]`` table of a sweep file, the paired effects with
multiple-comparison control, and the report's tornado chart."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from hypothesis import HealthCheck, given, settings, strategies as st

from nesim import stats as S
from nesim.cards import load_game
from nesim.cli import cli
from nesim.errors import NesimError
from nesim.sweep import load_sweep

HEAD = 'game = "progress"\nplayers = [2]\ngames = 300\nseed = 11\nstrategies = ["greedy", "economy"]\n'


def spec(tmp_path, text):
    p = tmp_path / "s.toml"
    p.write_text(HEAD + text)
    return p


# ---------------------------------------------------------------------------- the sweep file


def test_each_knob_adds_one_step_down_and_up_from_the_baseline_variant(tmp_path):
    """The steps start from the baseline variant's values, not the data files': here a baseline
    that makes the farm cost 3 (the data: 1) and keeps its wages change in the stepped variants."""
    sw = load_sweep(spec(tmp_path, """
baseline = "base"
[[variant]]
name = "base"
cards.farm = { cost = 3 }
rules.hand_limit = 6
[sensitivity]
"cards.farm.cost" = 2
"rules.wages" = 1
"params.greedy.reserve" = 0.5
"""))
    v = {x.name: x for x in sw.variants}
    assert list(v) == ["base", "farm.cost=1", "farm.cost=5", "wages=[1,1,2,2,2,3,3,4,4]",
                       "wages=[3,3,4,4,4,5,5,6,6]", "greedy.reserve=0.5", "greedy.reserve=1.5"]
    assert v["farm.cost=1"].cards == {"farm": {"cost": 1}} and v["farm.cost=1"].rules == {"hand_limit": 6}
    assert v["wages=[3,3,4,4,4,5,5,6,6]"].cards == {"farm": {"cost": 3}}
    assert v["wages=[3,3,4,4,4,5,5,6,6]"].rules == {"hand_limit": 6, "wages": [3, 3, 4, 4, 4, 5, 5, 6, 6]}
    assert v["greedy.reserve=1.5"].params == {"greedy": {"reserve": 1.5}}
    knobs = {k["knob"]: k for k in sw.sensitivity["knobs"]}
    assert knobs["cards.farm.cost"] == {"knob": "cards.farm.cost", "step": 2, "baseline": 3,
                                        "down": "farm.cost=1", "down_value": 1, "up": "farm.cost=5", "up_value": 5}
    assert sw.sensitivity["figures"] == ["winning_score", "first_seat_win", "card_edge:farm"]
    assert sw.sensitivity["control"] == "holm"


PROGRESS = load_game("progress")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(card=st.sampled_from([b.key for b in PROGRESS.buildings]), field=st.sampled_from(["cost", "asset_value"]),
       step=st.integers(1, 3), shift=st.integers(0, 2))
def test_the_two_steps_are_the_baseline_value_plus_and_minus_the_step(tmp_path, card, field, step, shift):
    """Whatever the card, field and step, and wherever the baseline variant put the value: the
    down and up variants hold it minus and plus the step and nothing else changes; a step below
    0 is refused, naming the knob."""
    start = getattr(PROGRESS.buildings[PROGRESS.index[card]], field) + shift
    text = f'baseline = "b"\n[[variant]]\nname = "b"\ncards.{card} = {{ {field} = {start} }}\n' \
           f'[sensitivity]\n"cards.{card}.{field}" = {step}\n'
    if start - step < 0:
        with pytest.raises(NesimError, match=f"sensitivity .*{card}"):
            load_sweep(spec(tmp_path, text))
        return
    sw = load_sweep(spec(tmp_path, text))
    down, up = sw.variants[1:]
    assert down.cards == {card: {field: start - step}} and up.cards == {card: {field: start + step}}
    assert down.rules == up.rules == {} and down.params == up.params == {}
    k = sw.sensitivity["knobs"][0]
    assert (k["baseline"], k["down_value"], k["up_value"]) == (start, start - step, start + step)


@pytest.mark.parametrize("table, words", [
    ('"cards.farm.cost" = 0', "step must be a whole number above 0"),
    ('"cards.farm.cost" = 1.5', "step must be a whole number above 0"),
    ('"cards.farm.copies" = 9', "must be at least 0"),         # 8 copies one step down is -1
    ('"cards.nowhere.cost" = 1', "unknown card"),
    ('"cards.farm.effect" = 1', "an effect has no single step"),
    ('"rules.nothing" = 1', "unknown rule"),
    ('"params.greedy.nothing" = 1', "unknown strategy or parameter"),
    ('"cards.farm.cost" = 1\nfigures = ["win_rate"]', "unknown figure"),
    ('"cards.farm.cost" = 1\ncontrol = "bonferroni"', 'must be "holm" or "bh"'),
    ('figures = ["winning_score"]', "names no knob"),
])
def test_a_bad_sensitivity_table_is_one_line_and_writes_nothing(tmp_path, table, words):
    out = tmp_path / "out"
    r = CliRunner().invoke(cli, ["sweep", str(spec(tmp_path, "[sensitivity]\n" + table)), "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert r.output.startswith("nesim: error: ") and r.output.count("\n") == 1 and words in r.output
    assert "sensitivity" in r.output
    assert not out.exists()


# ---------------------------------------------------------------------------- paired effects


def _per_game(diff_by_variant: dict[str, float], n: int = 60, seed: int = 1) -> pd.DataFrame:
    """A synthetic per-game table: the baseline's figure is noise, each variant's is the baseline's
    of the same seed plus its effect plus a little noise; rows shuffled, so only seeds pair them."""
    rng = np.random.default_rng(seed)
    seeds = rng.integers(0, 2**62, n)
    base = rng.normal(50, 10, n)
    rows = [pd.DataFrame({"variant": "baseline", "seed": seeds, "f": base})]
    for v, d in diff_by_variant.items():
        rows.append(pd.DataFrame({"variant": v, "seed": seeds, "f": base + d + rng.normal(0, 0.5, n)}))
    df = pd.concat(rows, ignore_index=True).assign(game="progress", n_players=2, dataset=0)
    return df.sample(frac=1, random_state=2).rename(columns={"f": "winning_score"})


def test_paired_effects_pair_games_by_seed_and_adjust_within_the_figure():
    per_game = _per_game({"up": 3.0, "down": -0.05, "other": 0.0})
    fig = [S.parse_figure("winning_score")]
    eff = S.paired_effects(per_game, "baseline", ["up", "down", "other"], fig).set_index("variant")
    # paired: the baseline's spread (sd 10) cancels, so a 3-point effect is tight around 3
    assert eff.loc["up", "diff"] == pytest.approx(3.0, abs=0.2)
    assert eff.loc["up", "hi"] - eff.loc["up", "lo"] < 0.6
    assert eff.loc["up", "flag"] and not eff.loc["other", "flag"] and not eff.loc["down", "flag"]
    # Holm: the smallest p-value times the family's size (3)
    assert eff.loc["up", "p_adj"] == pytest.approx(min(1.0, 3 * eff.loc["up", "p"]))
    bh = S.paired_effects(per_game, "baseline", ["up", "down", "other"], fig, method="bh").set_index("variant")
    assert bh.loc["other", "p_adj"] <= eff.loc["other", "p_adj"]


# ---------------------------------------------------------------------------- a planted case, end to end


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """Three knobs, one that matters: the wages (one step = 2 more or less a round, which moves
    the winning score by many points); a parameter of a strategy that sits in no seat (vp_tokens) (its
    variants play the baseline's games exactly); the copies of the Mansion (points only, rarely
    drawn). 300 games a variant."""
    tmp = tmp_path_factory.mktemp("sens")
    p = spec(tmp, """
[sensitivity]
"rules.wages" = 2
"params.vp_tokens.vp_weight" = 1
"cards.mansion.copies" = 1
figures = ["winning_score", "first_seat_win"]
""")
    out = tmp / "out"
    r = CliRunner().invoke(cli, ["sweep", str(p), "--out", str(out), "--quiet", "--chunk-size", "300"])
    assert r.exit_code == 0, r.output
    return out


def _effects(out) -> pd.DataFrame:
    """The report section's numbers: its tables, read as the report reads them."""
    from nesim.report.build import BUILD_COLUMNS, GAME_COLUMNS, PLAYER_COLUMNS
    from nesim.report.sensitivity import _effects as effects

    manifest = S.read_manifest(out)
    players = S.read_table([out], "players", PLAYER_COLUMNS)
    games = S.read_table([out], "games", GAME_COLUMNS)
    builds = S.read_table([out], "builds", BUILD_COLUMNS, reduce=S.first_builds)
    return effects(0, manifest, players, games, builds, "baseline")


def test_sensitivity_finds_the_one_knob_that_matters(planted):
    eff = _effects(planted)
    score = eff[eff["figure"] == "winning_score"].set_index(["knob", "direction"])
    # higher wages leave less money and fewer buildings: a lower winning score, and the reverse
    assert score.loc[("rules.wages", "up"), "hi"] < -3 and score.loc[("rules.wages", "down"), "lo"] > 3
    assert score.loc[("rules.wages", "up"), "flag"] and score.loc[("rules.wages", "down"), "flag"]
    # the unseated strategy's parameter changes no game: no difference at all
    assert (score.loc["params.vp_tokens.vp_weight", "diff"] == 0).all()
    assert not score.loc["params.vp_tokens.vp_weight", "flag"].any()
    # the wages are the longest bar of the tornado, by far
    size = score["diff"].abs().groupby(level="knob").max()
    assert size.idxmax() == "rules.wages" and size["rules.wages"] > 3 * size.drop("rules.wages").max()
    assert eff["pairs"].eq(300).all()


def test_the_manifest_records_the_knobs_and_the_section_draws_a_tornado_per_figure(planted):
    from nesim.report.build import BUILD_COLUMNS, GAME_COLUMNS, PLAYER_COLUMNS
    from nesim.report.sensitivity import sensitivity_section

    manifest = json.loads((planted / "manifest.json").read_text())
    assert [k["knob"] for k in manifest["sensitivity"]["knobs"]] == [
        "rules.wages", "params.vp_tokens.vp_weight", "cards.mansion.copies"]
    sec = sensitivity_section([manifest], S.read_table([planted], "players", PLAYER_COLUMNS),
                              S.read_table([planted], "games", GAME_COLUMNS),
                              S.read_table([planted], "builds", BUILD_COLUMNS, reduce=S.first_builds), "baseline")
    assert [f.id for f in sec.figures] == ["fig-tornado-progress-2-first-seat-win", "fig-tornado-progress-2-winning-score"]
    table = next(b for k, b in sec.blocks if k == "table")
    rows = [dict(zip(table.headers, (text for text, _ in r))) for r in table.rows]
    assert len(rows) == 12  # 3 knobs x 2 steps x 2 figures
    wages_up = next(r for r in rows if r["knob"] == "rules.wages" and r["step"] == "up" and r["figure"] == "winning_score")
    assert wages_up["value"] == "[2,2,3,3,3,4,4,5,5] → [4,4,5,5,5,6,6,7,7]" and wages_up["flag"] == "yes"
    # no sensitivity table in the manifest: no section
    assert sensitivity_section([{}], S.read_table([planted], "players", PLAYER_COLUMNS),
                               S.read_table([planted], "games", GAME_COLUMNS), None, "baseline") is None


@pytest.mark.slow
def test_the_report_of_a_sensitivity_sweep_has_its_section(planted, tmp_path):
    """The whole report (slow: every section); the section alone is tested just above."""
    html_out = tmp_path / "r.html"
    r = CliRunner().invoke(cli, ["report", str(planted), "--out", str(html_out), "--quiet"])
    assert r.exit_code == 0, r.output
    page = html_out.read_text()
    assert 'id="sensitivity"' in page and "fig-tornado-progress-2-winning-score" in page
    assert page.count("tab-sensitivity") >= 1
    assert "rules.wages" in page and "[2,2,3,3,3,4,4,5,5] → [4,4,5,5,5,6,6,7,7]" in page
