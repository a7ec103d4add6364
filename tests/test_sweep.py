"""Sweep files: validation, grid expansion, and that each kind of change reaches the games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from nesim.cli import cli
from nesim.errors import NesimError
from nesim.sweep import load_sweep
from killing import kill_after_chunks

NESIM = [sys.executable, "-m", "nesim"]
HEAD = 'game = "mecenat"\nplayers = [2]\ngames = 400\nseed = 5\nstrategies = ["greedy", "random"]\n'


def spec(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def sweep(path, out, *args):
    return CliRunner().invoke(cli, ["sweep", str(path), "--out", str(out), "--quiet", *args])


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sweep")
    p = spec(tmp, HEAD + """
[[variant]]
name = "no-vegetable-garden"
cards.vegetable_garden = { copies = 0 }

[[variant]]
name = "dear-farm"
cards.potato_field = { cost = 4 }

[[variant]]
name = "high-wages"
rules.wages = [5, 5, 5, 5, 5, 5, 5, 5, 5]

[[variant]]
name = "careless-greedy"
params.greedy = { reserve = 0 }
""")
    out = tmp / "out"
    r = sweep(p, out, "--chunk-size", "200")
    assert r.exit_code == 0, r.output
    return {name: pd.read_parquet(out / name) for name in ("games", "players", "builds", "rounds")} | {"out": out, "spec": p}


def test_one_dataset_with_a_variant_column_and_an_implicit_baseline(data):
    g = data["games"]
    assert sorted(g.variant.unique()) == ["baseline", "careless-greedy", "dear-farm", "high-wages", "no-vegetable-garden"]
    assert g.groupby("variant").size().eq(400).all() and g.game_id.is_unique
    # common random numbers: every variant plays the same seeds by index
    seeds = g.sort_values("game_id").groupby("variant").seed.apply(list)
    assert len({tuple(s) for s in seeds}) == 1
    m = json.loads((data["out"] / "manifest.json").read_text())
    cards = {v["name"]: {c["key"]: c for c in v["cards"]} for v in m["variants"]}
    assert cards["no-vegetable-garden"]["vegetable_garden"]["copies"] == 0
    assert cards["baseline"]["vegetable_garden"]["copies"] > 0


def test_copies_zero_is_never_built(data):
    b = data["builds"]
    assert (b[b.variant == "baseline"].card == "vegetable_garden").sum() > 50
    assert (b[b.variant == "no-vegetable-garden"].card == "vegetable_garden").sum() == 0


def test_a_cost_change_changes_how_often_and_when_the_card_is_built(data):
    b = data["builds"]
    base = (b[b.variant == "baseline"].card == "potato_field").sum()
    dear = (b[b.variant == "dear-farm"].card == "potato_field").sum()
    assert dear < 0.8 * base, (base, dear)


def test_a_wage_change_changes_wages_paid(data):
    r = data["rounds"]
    first = r[r["round"] == 1]
    # round 1's wage is 2 per worker in the rules file and 5 in the variant; what is owed is what
    # was paid plus the unpaid wage cards ($1 each) taken that payday
    for variant, wage in (("baseline", 2), ("high-wages", 5)):
        f = first[first.variant == variant]
        assert ((f.wages_paid + f.unpaid_wages) == wage * f.workers).all(), variant


def test_a_strategy_parameter_variant_changes_its_behaviour(data):
    p = data["players"]
    careless = p[(p.variant == "careless-greedy") & p.strategy.str.startswith("greedy")]
    assert set(careless.strategy) == {"greedy:reserve=0"}
    base = p[(p.variant == "baseline") & (p.strategy == "greedy")]
    assert careless.unpaid_wages.mean() > base.unpaid_wages.mean() + 1


def test_cards_command_prints_the_variant_table_with_changes_marked(data):
    r = CliRunner().invoke(cli, ["cards", "--game", "mecenat", "--spec", str(data["spec"]), "--variant", "dear-farm"])
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if ln.startswith("potato_field"))
    assert "4*" in line
    r = CliRunner().invoke(cli, ["cards", "--game", "mecenat", "--spec", str(data["spec"]), "--variant", "dear-farm", "--json"])
    row = next(x for x in json.loads(r.output) if x["key"] == "potato_field")
    assert row["cost"] == 4 and row["changed"] == ["cost"]


def test_grid_expands_to_the_cartesian_product_named_by_values(tmp_path):
    p = spec(tmp_path, HEAD + '[grid]\n"cards.lottery.copies" = [0, 2]\n"rules.hand_limit" = [4, 5, 6]\n"params.greedy.reserve" = [1, 2]\n')
    s = load_sweep(p)
    names = [v.name for v in s.variants]
    assert names[0] == "baseline" and len(names) == 1 + 12
    assert "lottery.copies=0 hand_limit=4 greedy.reserve=1" in names
    v = s.variant("lottery.copies=2 hand_limit=6 greedy.reserve=2")
    assert v.cards == {"lottery": {"copies": 2}} and v.rules == {"hand_limit": 6} and v.params == {"greedy": {"reserve": 2.0}}
    assert s.line_up(v, 2) == ("greedy:reserve=2", "random")
    assert len(s.units()) == 13


def test_a_resumed_sweep_equals_an_uninterrupted_one(tmp_path):
    text = HEAD.replace("games = 400", "games = 600") + '[grid]\n"rules.hand_limit" = [4, 6]\n'
    p = spec(tmp_path, text)
    whole = tmp_path / "whole"
    assert sweep(p, whole, "--chunk-size", "100").exit_code == 0
    killed = tmp_path / "killed"
    m = kill_after_chunks(NESIM + ["sweep", str(p), "--out", str(killed), "--chunk-size", "25", "--quiet"], killed, 4)
    assert not m["complete"]
    assert sweep(p, killed, "--resume", "--chunk-size", "25").exit_code == 0
    for name in ("games", "players", "rounds", "builds"):
        a = pd.read_parquet(whole / name)
        b = pd.read_parquet(killed / name)
        keys = [c for c in ("game_id", "seat", "round", "card") if c in a.columns]
        pd.testing.assert_frame_equal(a.sort_values(keys).reset_index(drop=True), b.sort_values(keys).reset_index(drop=True))


BAD = [
    ('colour = "red"\n', "colour: unknown key"),
    ('[[variant]]\nname = "x"\ncards.nosuch = { cost = 1 }\n', "variant[0].cards.nosuch: unknown card"),
    ('[[variant]]\nname = "x"\ncards.lottery = { price = 1 }\n', "variant[0].cards.lottery.price: unknown field"),
    ('[[variant]]\nname = "x"\ncards.lottery = { copies = -1 }\n', "must be at least 0"),
    ('[[variant]]\nname = "x"\ncards.lottery = { cost = "cheap" }\n', "must be a whole number"),
    ('[[variant]]\nname = "x"\nrules.salary = 3\n', "variant[0].rules.salary: unknown rule"),
    ('[[variant]]\nname = "x"\nrules.wages = [1, 2]\n', "rules.wages"),
    ('[[variant]]\nname = "x"\nrules.start_hand = 30\n', "too few to deal"),
    ('[[variant]]\nname = "x"\nparams.greedy = { patience = 3 }\n', "params.greedy.patience: unknown parameter"),
    ('[[variant]]\nname = "x"\nparams.greedy = { reserve = "lots" }\n', "must be a number"),
    ('[[variant]]\ncards.lottery = { cost = 1 }\n', "every variant needs a name"),
    ('[grid]\n"cards.lottery.copies" = [0, 1, 2, 3]\n"rules.hand_limit" = [1, 2, 3, 4, 5, 6]\n', "more than --max-variants 10"),
    ('[grid]\n"money.lottery" = [1]\n', "grid"),
]


@pytest.mark.parametrize("extra,message", BAD)
def test_an_invalid_sweep_file_is_one_line_naming_file_key_reason_and_writes_nothing(tmp_path, extra, message):
    p = spec(tmp_path, HEAD + extra, "bad.toml")
    out = tmp_path / "out"
    r = subprocess.run(NESIM + ["sweep", str(p), "--out", str(out), "--max-variants", "10"],
                       capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"nesim: error: {p}") and message in lines[0], r.stderr
    assert not out.exists()


@pytest.mark.parametrize("head,message", [
    (HEAD.replace('"mecenat"', '"chess"'), "game: unknown game"),
    (HEAD.replace("[2]", "[5]"), "players: must be 1 to 4"),
    (HEAD.replace("games = 400", "games = 0"), "games: must be at least 1"),
    (HEAD.replace('"random"]', '"nosuch"]'), "strategies: unknown strategy"),
    ("games = 3\n", "missing"),
])
def test_invalid_top_level_values(tmp_path, head, message):
    p = spec(tmp_path, head, "bad.toml")
    with pytest.raises(NesimError, match=message):
        load_sweep(p)


def test_the_example_sweep_files_are_valid():
    files = sorted((Path(__file__).resolve().parent.parent / "experiments" / "sweeps").glob("*.toml"))
    assert {f.stem.split("_")[0] for f in files} >= {"progress", "mecenat", "glory"}
    for f in files:
        assert len(load_sweep(f).variants) >= 2
