"""Each experiment script runs end to end on a few games and writes its page with its figures."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
FIGURES = {"card_values": 3, "seat_advantage": 1, "pacing_three_games": 3, "strategy_ladder": 3}


# One script's page in the fast suite; every script's (about two minutes more) in the slow one.
SLOW_PAGES = {"card_values", "pacing_three_games", "strategy_ladder"}


@pytest.mark.parametrize("script", [pytest.param(s, marks=pytest.mark.slow) if s in SLOW_PAGES else s
                                    for s in sorted(FIGURES)])
def test_experiment_writes_its_page(script, tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "experiments" / f"{script}.py"), "--games", "60",
                        "--jobs", "1", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    page = (tmp_path / f"{script}.html").read_text()
    assert len(re.findall(r'<img alt="[^"]+" src="data:image/png;base64,', page)) == FIGURES[script]
    assert "http://" not in page and "https://" not in page


def measure(*args):
    return subprocess.run([sys.executable, str(ROOT / "experiments" / "measure_strategies.py"), "--duel", "0",
                           *args], capture_output=True, text=True, timeout=600)


def table(out: str) -> dict[str, list[str]]:
    """The printed rows keyed by game (the strategy's name is the first column)."""
    return {cols[1]: cols for cols in (line.split() for line in out.splitlines()[1:]) if len(cols) > 2}


@pytest.mark.slow  # a minute or more of subprocesses; the research scripts' logic
def test_solo_slices_pool_to_the_figures_of_one_run(tmp_path):
    """Two saved slices of seeds pool to what one run over all their seeds prints; a slice that
    repeats seeds is refused rather than counted twice."""
    for first, n in ((0, 12), (12, 18)):
        r = measure("--solo", str(n), "--first", str(first), "--save", str(tmp_path), "greedy")
        assert r.returncode == 0, r.stderr[-2000:]
    assert len(list(tmp_path.glob("solo-greedy-*.npz"))) == 6  # two slices of three games
    pooled = measure("--pool", str(tmp_path))
    assert pooled.returncode == 0, pooled.stderr[-2000:]
    whole = measure("--solo", "30", "greedy")
    assert whole.returncode == 0, whole.stderr[-2000:]
    rows, one = table(pooled.stdout), table(whole.stdout)
    assert set(rows) == set(one) == {"progress", "mecenat", "glory"}
    for game in rows:
        games, seeds, mean, _, clear = rows[game][2:7]
        assert (games, seeds) == ("30", "0-29")
        assert (mean, float(clear)) == (one[game][2], float(one[game][3]))
    again = measure("--solo", "5", "--first", "25", "--save", str(tmp_path), "greedy")
    assert again.returncode == 0, again.stderr[-2000:]
    refused = measure("--pool", str(tmp_path))
    assert refused.returncode == 2 and "share seeds" in refused.stderr


def test_games_option_plays_only_the_games_named(tmp_path):
    """--games limits a slice to the games named (so a slice can be completed game by game); an
    unknown game is a one-line error with status 2 and writes nothing."""
    r = measure("--solo", "4", "--games", "glory", "--save", str(tmp_path), "greedy")
    assert r.returncode == 0, r.stderr[-2000:]
    assert set(table(r.stdout)) == {"glory"}
    assert [p.name for p in tmp_path.glob("*.npz")] == ["solo-greedy-glory-0-3.npz"]
    bad = measure("--solo", "4", "--games", "glory,chess", "--save", str(tmp_path / "x"), "greedy")
    assert bad.returncode == 2 and "chess" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_no_solo_games_measures_only_the_duels_without_warnings(tmp_path):
    """--solo 0 plays no solo game, saves no slice and prints no numpy warning of an empty mean."""
    r = measure("--solo", "0", "--duel", "20", "--games", "glory", "--save", str(tmp_path), "greedy")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Warning" not in r.stderr
    assert not list(tmp_path.glob("*.npz"))
    assert set(table(r.stdout)) == {"glory"}


def compare(*args):
    return subprocess.run([sys.executable, str(ROOT / "experiments" / "compare_solo.py"), *args],
                          capture_output=True, text=True, timeout=600)


def differences(out: str) -> dict[str, tuple[float, float, float]]:
    """'B - A score: d (se s, 95% lo to hi, ...)' lines as {name: (d, lo, hi)}."""
    found = re.findall(r"B - A (\w+): ([-+\d.]+) \(se [\d.]+, 95% ([-+\d.]+) to ([-+\d.]+),", out)
    return {name: (float(d), float(lo), float(hi)) for name, d, lo, hi in found}


def test_compare_solo_plays_both_specs_on_the_same_seeds():
    """A spec against itself differs by exactly nothing (the seeds are shared, not drawn anew);
    random against greedy is far behind, with an interval wholly below zero (B - A, not A - B)."""
    same = compare("greedy", "greedy", "--solo", "12", "--games", "glory")
    assert same.returncode == 0, same.stderr[-2000:]
    assert differences(same.stdout) == {"score": (0.0, 0.0, 0.0), "clear": (0.0, 0.0, 0.0)}
    worse = compare("greedy", "random", "--solo", "30", "--first", "100", "--games", "progress")
    assert worse.returncode == 0, worse.stderr[-2000:]
    assert "seeds 100-129" in worse.stdout
    d, lo, hi = differences(worse.stdout)["score"]
    assert d < -50 and lo < d < hi < 0


@pytest.mark.slow  # a minute or more of subprocesses; the research scripts' logic
def test_compare_solo_pairs_saved_slices_as_it_pairs_played_games(tmp_path):
    """--saved pairs two folders' games by seed and gives what playing both specs on those seeds
    gives; only the seeds both folders hold are paired."""
    for spec, folder, first in (("greedy", "a", 100), ("random", "b", 100), ("random", "c", 106)):
        r = measure("--solo", "12", "--first", str(first), "--games", "glory", "--save",
                    str(tmp_path / folder), spec)
        assert r.returncode == 0, r.stderr[-2000:]
    saved = compare("--saved", str(tmp_path / "a"), str(tmp_path / "b"))
    played = compare("greedy", "random", "--solo", "12", "--first", "100", "--games", "glory")
    assert saved.returncode == 0 and played.returncode == 0, saved.stderr[-2000:]
    assert "12 solo games saved in both, seeds 100-111" in saved.stdout
    assert differences(saved.stdout) == differences(played.stdout)
    assert differences(saved.stdout)["score"][0] < -20  # B - A: random far behind greedy
    part = compare("--saved", str(tmp_path / "a"), str(tmp_path / "c"))
    assert "6 solo games saved in both, seeds 106-111" in part.stdout
    same = compare("--saved", str(tmp_path / "a"), str(tmp_path / "a"))
    assert differences(same.stdout) == {"score": (0.0, 0.0, 0.0), "clear": (0.0, 0.0, 0.0)}
    # a folder with two specs for a game cannot be paired, nor a folder that is not there
    for f in (tmp_path / "a").glob("*.npz"):
        (tmp_path / "c" / f.name).write_bytes(f.read_bytes())
    for args, word in (((tmp_path / "a", tmp_path / "c"), "more than one spec"),
                       ((tmp_path / "a", tmp_path / "nothing"), "no folder")):
        r = compare("--saved", *map(str, args))
        assert r.returncode == 2 and word in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, word", [(("greedy", "nosuch"), "nosuch"),
                                        (("greedy", "greedy:reserve=x"), "reserve"),
                                        (("greedy", "greedy", "--games", "chess"), "chess"),
                                        (("greedy", "greedy", "--solo", "1"), "--solo")])
def test_compare_solo_refuses_bad_arguments_in_one_line(args, word):
    r = compare(*args)
    assert r.returncode == 2 and word in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""


def clairvoyant():
    sys.path.insert(0, str(ROOT / "experiments"))
    import clairvoyant_search
    return clairvoyant_search


@pytest.mark.slow  # a minute or more of subprocesses; the research scripts' logic
def test_clairvoyant_search_keeps_the_best_line_it_finds():
    """The searched game's answers, replayed, give exactly the score reported; seeing the deck,
    even a level-1 search lifts strong's one-ply policy by tens of points in Glory."""
    cs = clairvoyant()
    policies, searched = [], []
    for seed in range(4):
        policy, best, line = cs.search_seed("glory", 1, seed)
        game = cs.solo_game("glory", seed)
        scratch = np.zeros(cs.MAXD, np.int64)
        replayed, k = cs.line_score(game, np.resize(line, cs.MAXD), len(line), scratch, scratch.copy())
        assert (replayed, k) == (best, len(line))
        assert best >= policy
        policies.append(policy)
        searched.append(best)
    assert np.mean(searched) > np.mean(policies) + 30


@pytest.mark.parametrize("args, word", [(("--game", "chess"), "chess"), (("--level", "5"), "--level")])
def test_clairvoyant_search_refuses_bad_arguments_in_one_line(args, word):
    r = subprocess.run([sys.executable, str(ROOT / "experiments" / "clairvoyant_search.py"), *args],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2 and word in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""


def same_moves(*args):
    r = subprocess.run([sys.executable, str(ROOT / "experiments" / "same_moves.py"), "--games", "glory",
                        "--scale", "0.05", *args], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return [line.split("(")[0] for line in r.stdout.splitlines()[1:]]


def test_same_moves_hashes_every_batch_the_same_way_twice_and_sees_other_games():
    once, again, other = same_moves(), same_moves(), same_moves("--first", "7001")
    assert len(once) == 8 and once == again  # one line per batch (same_moves.BATCHES), reproducible
    assert all(a != b for a, b in zip(once, other))  # other seeds: other games, other hashes


@pytest.mark.slow  # a sweep, three rungs and a whole report in subprocesses; tests/test_ladder.py has the logic
def test_skill_ladder_prints_the_rungs_and_their_correlations_and_writes_the_report(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "experiments" / "skill_ladder.py"), "--game", "progress",
                        "--rungs", "random;greedy;strong", "--games", "60", "--jobs", "1", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "1. random -> 2. greedy" in r.stdout and "2. greedy -> 3. strong" in r.stdout
    assert r.stdout.index("1. random") < r.stdout.index("2. greedy") < r.stdout.index("3. strong")
    assert 'id="ladder"' in (tmp_path / "report.html").read_text()
