"""nesim play and nesim cards, and their one-line errors."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nesim.cards import DATA_DIR


def nesim(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "nesim", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("game", ["progress", "mecenat", "glory"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_play_prints_every_round_and_the_final_scores(game, n):
    r = nesim("play", "--game", game, "--players", str(n), "--seed", "3")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [l.split(" (")[0] for l in lines if l.startswith("Round ")] == [f"Round {i}" for i in range(1, 10)]
    finals = lines[lines.index("Final scores") + 1:]
    assert len(finals) == n and sorted(int(l.split("rank ")[1][0]) for l in finals) == list(range(1, n + 1))
    if n == 1:
        assert "solo goal" in finals[0]


def test_play_json_lines_carry_state_and_agree_with_the_final_scores():
    r = nesim("play", "--game", "mecenat", "--players", "3", "--seed", "8", "--json")
    assert r.returncode == 0, r.stderr
    events = [json.loads(l) for l in r.stdout.splitlines()]
    states = [e for e in events if e["event"] == "state"]
    assert states and all({"budget", "players"} <= set(e) for e in states)
    assert all({"money", "hand", "buildings"} <= set(p) for p in states[-1]["players"])
    end = events[-1]
    assert end["event"] == "end"
    assert [s["money"] for s in end["scores"]] == [p["money"] for p in states[-1]["players"]]


def test_play_is_deterministic_for_a_seed():
    a = nesim("play", "--game", "glory", "--players", "2", "--seed", "5").stdout
    b = nesim("play", "--game", "glory", "--players", "2", "--seed", "5").stdout
    c = nesim("play", "--game", "glory", "--players", "2", "--seed", "6").stdout
    assert a == b and a != c


def test_cards_json_lists_every_building_type():
    r = nesim("cards", "--game", "progress", "--json")
    rows = json.loads(r.stdout)
    assert len(rows) == 24 and sum(c["copies"] for c in rows) == 64
    farm = next(c for c in rows if c["key"] == "farm")
    assert (farm["name"], farm["cost"], farm["asset_value"], farm["copies"]) == ("Farm", 1, 6, 8)


@pytest.mark.parametrize("game,types,total", [("progress", 24, 64), ("mecenat", 27, 73), ("glory", 26, 71)])
def test_cards_table(game, types, total):
    r = nesim("cards", "--game", game)
    assert r.returncode == 0
    assert r.stdout.splitlines()[0] == f"{game.capitalize()}: {types} building types, {total} cards"


def assert_user_error(r, *words):
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nesim: error:"), r.stderr
    assert "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0]


def test_unknown_game_is_a_user_error():
    assert_user_error(nesim("play", "--game", "monopoly", "--players", "2"), "monopoly")


@pytest.mark.parametrize("n", ["0", "5"])
def test_player_count_out_of_range_is_a_user_error(n):
    assert_user_error(nesim("play", "--game", "progress", "--players", n), n)


def test_unknown_strategy_is_a_user_error():
    assert_user_error(nesim("play", "--game", "progress", "--players", "2", "--strategies", "genius"), "genius")


def copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def test_card_file_with_a_key_twice_is_a_user_error(tmp_path):
    # (a key of its own is no error since effects are data: a card is its row, whatever its key)
    d = copy_data(tmp_path)
    text = (d / "glory.csv").read_text().replace("\nmonument,", "\nrelics,")
    (d / "glory.csv").write_text(text)
    assert_user_error(nesim("cards", "--game", "glory", "--data", str(d)), "relics", "twice", "glory.csv")


def test_card_file_whose_copies_do_not_add_up_is_a_user_error(tmp_path):
    d = copy_data(tmp_path)
    text = (d / "progress.csv").read_text().replace("farm,Farm,,農場,1,6,8,", "farm,Farm,,農場,1,6,9,")
    (d / "progress.csv").write_text(text)
    assert_user_error(nesim("play", "--game", "progress", "--players", "2", "--data", str(d)), "65", "64")


def test_card_file_with_a_negative_number_names_card_and_field(tmp_path):
    d = copy_data(tmp_path)
    text = (d / "mecenat.csv").read_text().replace("lottery,Lottery,,宝くじ,2,10,", "lottery,Lottery,,宝くじ,-2,10,")
    (d / "mecenat.csv").write_text(text)
    assert_user_error(nesim("cards", "--game", "mecenat", "--data", str(d)), "lottery", "cost")


def test_bench_json_has_the_fields_design_fixes():
    r = nesim("bench", "--json", "--kernel-games", "50", "--reference-games", "5", "--no-startup")
    assert r.returncode == 0, r.stderr
    results = json.loads(r.stdout)["results"]
    assert {(x["game"], x["players"]) for x in results} == {("progress", 2), ("mecenat", 4), ("glory", 4)}
    for x in results:
        assert set(x) == {"game", "players", "strategy", "kernel_games_per_s", "reference_games_per_s", "ratio",
                          "kernel_ns_per_decision", "decisions_per_game"}
        assert x["kernel_games_per_s"] > 0 and x["reference_games_per_s"] > 0
        assert abs(x["ratio"] - x["kernel_games_per_s"] / x["reference_games_per_s"]) < 0.1 * x["ratio"] + 0.1


def test_strategies_json_lists_random():
    rows = {r["name"]: r for r in json.loads(nesim("strategies", "--json").stdout)}
    assert rows["random"]["params"] == {} and rows["random"]["description"]
    assert all(set(r) == {"name", "description", "params"} for r in rows.values())


RUN_OPTION_ERRORS = [
    (["--chunk-size", "0"], "--chunk-size"),
    (["--resume", "--force"], "exclude each other"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "--backend dask"),
]


@pytest.mark.parametrize("extra, words", RUN_OPTION_ERRORS)
@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_simulate_and_sweep_refuse_options_that_cannot_work(tmp_path, command, extra, words):
    out = tmp_path / "out"
    if command == "simulate":
        args = ["simulate", "--game", "progress", "--players", "2", "--games", "10"]
    else:
        args = ["sweep", str(Path(__file__).resolve().parents[1] / "experiments/sweeps/demo.toml")]
    assert_user_error(nesim(*args, "--out", str(out), *extra), words)
    assert not out.exists()
