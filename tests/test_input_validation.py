"""Issue 39 (items 6, 7, 9, 12, 17): input that used to be accepted wrongly or end in a traceback.

Every case runs the real ``nesim`` command in a subprocess and expects the one-line user error
(``nesim: error: ...`` on stderr, exit status 2, nothing on stdout) naming the culprit, and no
output written.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nesim.dataset import SCHEMAS

ROOT = Path(__file__).resolve().parents[1]
NESIM = [sys.executable, "-m", "nesim"]
HEAD = {"game": 'game = "mecenat"', "players": "players = [2]", "games": "games = 20", "seed": "seed = 5",
        "strategies": 'strategies = ["greedy", "random"]'}


def nesim(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(NESIM + [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600)


def one_line_error(r: subprocess.CompletedProcess[str], *words: str) -> str:
    """The error line of a run that must have failed as a user error, checked for ``words``."""
    assert r.returncode == 2, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nesim: error: "), r.stderr[-2000:]
    assert r.stdout == ""
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def sweep_file(tmp_path: Path, extra: str = "", name: str = "s.toml", **top: str) -> Path:
    """A small valid sweep file with some top-level lines replaced (``top``) and ``extra`` after."""
    lines = {**HEAD, **top}
    p = tmp_path / name
    p.write_text("\n".join(lines.values()) + "\n" + extra)
    return p


def refused_sweep(tmp_path: Path, p: Path, *words: str) -> str:
    out = tmp_path / "out"
    line = one_line_error(nesim("sweep", p, "--out", out, "--quiet"), str(p), *words)
    assert not out.exists()
    return line


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dataset") / "d"
    r = nesim("simulate", "--game", "progress", "--players", "2", "--strategies", "greedy,random",
              "--games", "20", "--out", out, "--quiet")
    assert r.returncode == 0, r.stderr
    return out


# ---------------------------------------------------------------------------- item 6: duplicates


@pytest.mark.parametrize("key,line,dup", [
    ("game", 'game = ["progress", "mecenat", "progress"]', "'progress'"),
    ("players", "players = [2, 3, 2]", "2"),
])
def test_a_sweep_listing_a_game_or_player_count_twice_is_refused(tmp_path, key, line, dup):
    p = sweep_file(tmp_path, **{key: line})
    err = refused_sweep(tmp_path, p, f"{key}:", "twice")
    assert dup in err


@pytest.mark.parametrize("second", ["{d}", "{d}/", "{parent}/./{name}", "{parent}/../{pname}/{name}"])
def test_report_refuses_the_same_dataset_twice_however_it_is_spelled(dataset, tmp_path, second):
    again = second.format(d=dataset, parent=dataset.parent, name=dataset.name, pname=dataset.parent.name)
    out = tmp_path / "r.html"
    one_line_error(nesim("report", dataset, again, "--out", out, "--quiet"), again, "same dataset", str(dataset))
    assert not out.exists()


def test_report_refuses_a_dataset_given_by_a_relative_and_an_absolute_path(dataset, tmp_path):
    out = tmp_path / "r.html"
    one_line_error(nesim("report", dataset.name, dataset, "--out", out, "--quiet", cwd=dataset.parent),
                   "same dataset")
    assert not out.exists()


def test_report_refuses_a_copy_of_a_dataset_since_it_holds_the_same_games(dataset, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(dataset, copy)
    out = tmp_path / "r.html"
    one_line_error(nesim("report", dataset, copy, "--out", out, "--quiet"), str(copy), "same games", str(dataset))
    assert not out.exists()


# ---------------------------------------------------------------------------- item 7: empty, wrong type, not UTF-8


@pytest.mark.parametrize("key,line", [("game", "game = []"), ("players", "players = []")])
def test_an_empty_game_or_player_list_is_refused(tmp_path, key, line):
    refused_sweep(tmp_path, sweep_file(tmp_path, **{key: line}), f"{key}:", "empty")


def test_a_sweep_file_that_is_not_utf8_is_refused(tmp_path):
    p = tmp_path / "latin1.toml"
    p.write_bytes(("\n".join(HEAD.values()) + '\n[[variant]]\nname = "café"\nrules.hand_limit = 6\n').encode("latin-1"))
    refused_sweep(tmp_path, p, "UTF-8")


@pytest.mark.parametrize("extra,words", [
    ("baseline = 5\n", ("baseline:", "5")),
    ('baseline = ""\n', ("baseline:",)),
    ('baseline = ["a"]\n', ("baseline:",)),
])
def test_a_baseline_that_is_not_a_variant_name_is_refused(tmp_path, extra, words):
    refused_sweep(tmp_path, sweep_file(tmp_path, extra), *words)


@pytest.mark.parametrize("key,line", [
    ("game", "game = 5"),
    ("game", "game = [5]"),
    ("game", 'game = { name = "mecenat" }'),
    ("players", 'players = "2"'),
    ("games", "games = 2.5"),
    ("seed", 'seed = "five"'),
    ("strategies", "strategies = 5"),
])
def test_a_top_level_key_of_the_wrong_type_is_refused(tmp_path, key, line):
    refused_sweep(tmp_path, sweep_file(tmp_path, **{key: line}), f"{key}:")


# ---------------------------------------------------------------------------- item 9: parameters and seeds


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "1e400"])
def test_a_strategy_parameter_that_is_not_a_finite_number_at_least_0_is_refused_on_the_command_line(tmp_path, value):
    out = tmp_path / "out"
    r = nesim("simulate", "--game", "progress", "--players", "2", "--strategies", f"greedy:reserve={value},random",
              "--games", "20", "--out", out, "--quiet")
    one_line_error(r, "reserve", value)
    assert not out.exists()
    one_line_error(nesim("play", "--game", "progress", "--players", "2", "--strategies", f"greedy:reserve={value}"),
                   "reserve")


@pytest.mark.parametrize("extra,words", [
    ('[[variant]]\nname = "v"\nparams.greedy = { reserve = nan }\n', ("variant[0].params.greedy.reserve", "nan")),
    ('[[variant]]\nname = "v"\nparams.greedy = { reserve = inf }\n', ("variant[0].params.greedy.reserve", "inf")),
    ('[[variant]]\nname = "v"\nparams.greedy = { reserve = -2 }\n', ("variant[0].params.greedy.reserve", "-2")),
    ('[grid]\n"params.greedy.build_bias" = [1, -1.5]\n', ("params.greedy.build_bias", "-1.5")),
    ('[[variant]]\nname = "v"\nstrategies = ["greedy:reserve=nan", "random"]\n', ("variant[0].strategies", "reserve")),
])
def test_a_strategy_parameter_that_is_not_a_finite_number_at_least_0_is_refused_in_a_sweep_file(tmp_path, extra, words):
    refused_sweep(tmp_path, sweep_file(tmp_path, extra), *words)


def test_a_sweep_line_up_with_a_nan_parameter_is_refused(tmp_path):
    p = sweep_file(tmp_path, strategies='strategies = ["greedy:build_bias=nan", "random"]')
    refused_sweep(tmp_path, p, "strategies:", "build_bias")


@pytest.mark.parametrize("seed", [str(2 ** 64), str(2 ** 70), "-1"])
def test_a_seed_outside_0_to_2_64_is_refused_at_the_command_line(tmp_path, seed):
    one_line_error(nesim("play", "--game", "glory", "--players", "2", "--seed", seed), "--seed", seed)
    out = tmp_path / "out"
    one_line_error(nesim("simulate", "--game", "glory", "--players", "2", "--games", "20", "--seed", seed,
                         "--out", out, "--quiet"), "--seed", seed)
    assert not out.exists()


@pytest.mark.parametrize("seed", [str(2 ** 64), "-1"])
def test_a_seed_outside_0_to_2_64_is_refused_in_a_sweep_file(tmp_path, seed):
    refused_sweep(tmp_path, sweep_file(tmp_path, seed=f"seed = {seed}"), "seed:", seed)


def test_the_largest_seed_is_played_and_shown_as_given():
    top = str(2 ** 64 - 1)
    r = nesim("play", "--game", "glory", "--players", "2", "--seed", top)
    assert r.returncode == 0, r.stderr
    assert f"seed {top}," in r.stdout.splitlines()[0]


# ---------------------------------------------------------------------------- item 12: nesim cards --spec


WAGES = "[3, 3, 4, 4, 4, 5, 5, 6, 6]"


def wages_spec(tmp_path: Path, game: str = "mecenat") -> Path:
    farm = {"mecenat": "potato_field", "progress": "farm"}[game]
    return sweep_file(tmp_path, f'[[variant]]\nname = "high-wages"\nrules.wages = {WAGES}\n'
                                f'[[variant]]\nname = "cheap-farm"\ncards.{farm} = {{ cost = 1 }}\n',
                      game=f'game = "{game}"')


def test_cards_with_a_variant_marks_the_rule_parameters_it_changes(tmp_path):
    p = wages_spec(tmp_path)
    r = nesim("cards", "--game", "mecenat", "--spec", p, "--variant", "high-wages")
    assert r.returncode == 0, r.stderr
    changed = [ln for ln in r.stdout.splitlines() if "*" in ln]
    assert len(changed) == 1 and changed[0].split()[0] == "wages", r.stdout
    assert "3,3,4,4,4,5,5,6,6*" in changed[0].replace(" ", "") and "2,2,3,3,3,4,4,5,5" in changed[0].replace(" ", "")
    # a variant that changes no rule prints no rule line
    r = nesim("cards", "--game", "mecenat", "--spec", p, "--variant", "cheap-farm")
    assert not any(ln.split()[0] == "wages" for ln in r.stdout.splitlines() if ln.strip())


def test_cards_json_with_a_variant_carries_the_changed_rules(tmp_path):
    p = wages_spec(tmp_path)
    rows = json.loads(nesim("cards", "--game", "mecenat", "--spec", p, "--variant", "high-wages", "--json").stdout)
    assert len(rows) == 27 and all(r["rules_changed"] == {"wages": json.loads(WAGES)} for r in rows)
    rows = json.loads(nesim("cards", "--game", "mecenat", "--spec", p, "--variant", "cheap-farm", "--json").stdout)
    assert all(r["rules_changed"] == {} for r in rows)
    assert next(r for r in rows if r["key"] == "potato_field")["changed"] == ["cost"]


def test_cards_refuses_a_spec_of_another_game(tmp_path):
    p = wages_spec(tmp_path, "progress")
    one_line_error(nesim("cards", "--game", "glory", "--spec", p, "--variant", "high-wages"), str(p), "glory", "progress")


def test_cards_takes_the_game_from_a_spec_of_one_game(tmp_path):
    p = wages_spec(tmp_path, "progress")
    r = nesim("cards", "--spec", p, "--variant", "high-wages")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Progress: 24 building types, 64 cards")


def test_cards_needs_the_game_for_a_spec_of_several_games(tmp_path):
    p = sweep_file(tmp_path, game='game = ["progress", "glory"]')
    one_line_error(nesim("cards", "--spec", p, "--variant", "baseline"), "--game")


# ---------------------------------------------------------------------------- item 17: the dataset page


def documented_columns(text: str) -> dict[str, set[str]]:
    """The columns of each ``## <table>`` section of docs/DATASETS.md: the first cell of its table rows."""
    out: dict[str, set[str]] = {}
    section = None
    for line in text.splitlines():
        if line.startswith("#"):
            head = re.match(r"^##+ `(\w+)`", line)
            section = head.group(1) if head else None
            if section:
                out.setdefault(section, set())
        m = re.match(r"^\|\s*`(\w+)`\s*\|", line)
        if m and section:
            out[section].add(m.group(1))
    return out


def test_every_column_the_runner_writes_is_documented():
    doc = (ROOT / "docs" / "DATASETS.md").read_text()
    columns = documented_columns(doc)
    for table, schema in SCHEMAS.items():
        assert table in columns, f"docs/DATASETS.md has no section for the {table} table"
        assert set(schema.names) == columns[table], table


def test_the_readme_links_the_dataset_and_rules_pages_inside_the_repository():
    readme = (ROOT / "README.md").read_text()
    assert "docs/DATASETS.md" in readme and "docs/RULES.md" in readme
    assert "RULES-NOTES.md" not in readme and "shared reference" not in readme


def test_the_score_is_the_sum_the_dataset_page_gives(dataset):
    import pandas as pd

    from nesim.cards import load_game

    p = pd.read_parquet(dataset / "players")
    penalty = load_game("progress").rules.unpaid_wage_penalty
    parts = p.building_points + p.bonus_points + p.money + p.vp_points - penalty * p.unpaid_wages
    assert len(p) == 40 and (p.score == parts).all()


def test_a_sweep_plays_strategy_parameters_at_full_precision(tmp_path):
    from nesim.registry import resolve
    from nesim.sweep import load_sweep

    p = sweep_file(tmp_path, '[[variant]]\nname = "v"\nparams.greedy = { reserve = 1.23456789, build_bias = 1e-7 }\n')
    s = load_sweep(p)
    greedy = resolve(s.line_up(s.variant("v"), 2)[0])
    assert dict(zip(greedy.defaults, greedy.values)) == {"reserve": 1.23456789, "hire_until": 5.0, "build_bias": 1e-7}


@pytest.mark.parametrize("extra", [
    '[[variant]]\nname = "v"\ncards.lottery = { cost = 99999999999999999999 }\n',
    '[[variant]]\nname = "v"\nrules.hand_limit = 99999999999999999999\n',
])
def test_a_number_too_large_for_the_kernel_is_refused(tmp_path, extra):
    refused_sweep(tmp_path, sweep_file(tmp_path, extra), "variant[0]", "too large")


def test_the_game_log_prints_no_minus_zero_for_unpaid_wages():
    from nesim.cards import load_game
    from nesim.playlog import text_lines
    score = {"seat": 0, "total": 40, "building_points": 20, "bonus_points": 0, "money": 10,
             "vp_points": 10, "vp_tokens": 3, "unpaid_penalty": 0, "rank": 1, "solo_cleared": None}
    lines = list(text_lines(load_game("progress"), [{"event": "end", "scores": [score]}], "t"))
    assert any("unpaid wages 0)" in line for line in lines) and not any("-0" in line for line in lines)
    score["unpaid_penalty"] = 6
    lines = list(text_lines(load_game("progress"), [{"event": "end", "scores": [score]}], "t"))
    assert any("unpaid wages -6)" in line for line in lines)
