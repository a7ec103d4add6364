"""The game viewer (`nesim replay DIR GAME_ID --html FILE`): its steps follow the traced game
placement by placement and end on the dataset's stored scores; the page steps forward and back in
a real browser with no script error."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from nesim.cli import _traced_game
from nesim.playlog import text_lines
from nesim.report.viewer import viewer_steps
from nesim.runner import read_run, regenerate

ROOT = Path(__file__).resolve().parents[1]
GAMES = 6


def nesim(*args) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nesim", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("viewer") / "d"
    r = nesim("simulate", "--game", "glory", "--players", "3", "--strategies", "strong,greedy,random",
              "--games", GAMES, "--out", out, "--quiet")
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def games(dataset):
    """(data, events) of every game of the dataset, traced through the reference engine."""
    manifest = read_run(dataset)
    out = []
    for game_id in range(GAMES):
        _, data, log, _ = regenerate(manifest, game_id)
        out.append((data, _traced_game(data, log).events))
    return out


def test_one_step_per_placement_and_the_last_shows_the_stored_scores_and_money(dataset, games):
    stored = pd.read_parquet(dataset / "players").sort_values(["game_id", "seat"])
    for game_id, (data, events) in enumerate(games):
        steps = viewer_steps(data, events)
        places = [e for e in events if e["event"] == "place"]
        placed = [s for s in steps if s["kind"] == "place"]
        assert [(s["round"], s["seat"]) for s in placed] == [(e["round"], e["seat"]) for e in places]
        rows = stored[stored.game_id == game_id]
        end = steps[-1]
        assert end["kind"] == "end"
        assert [s["total"] for s in sorted(end["scores"], key=lambda s: s["seat"])] == rows.score.tolist()
        # the position shown at the end is the one after the last payday, as the kernel stored it
        assert [p["money"] for p in end["state"]["players"]] == rows.money.tolist()
        assert [p["workers"] for p in end["state"]["players"]] == rows.workers.tolist()
        assert [len(p["buildings"]) for p in end["state"]["players"]] == rows.buildings.tolist()


def test_the_public_row_shows_who_stands_where_this_round_only(games):
    for data, events in games:
        steps = viewer_steps(data, events)
        places = iter(e for e in events if e["event"] == "place")
        public_so_far: dict[int, int] = {}  # round -> public placements, counted from the events
        for s in steps:
            if s["kind"] != "place":
                if s["kind"] in ("round", "payday"):
                    assert sum(map(len, s["occupied"].values())) == 0
                continue
            ev = next(places)
            public_so_far[s["round"]] = public_so_far.get(s["round"], 0) + ev["public"]
            assert sum(map(len, s["occupied"].values())) == public_so_far[s["round"]]
            if ev["public"]:
                assert s["seat"] in s["occupied"][str(ev["slot"])]
                assert s["state"]["row"][ev["slot"]]["card"] == ev["workplace"]


def test_hand_limit_discards_belong_to_the_payday_in_the_viewer_and_in_the_log(games):
    found = 0
    for data, events in games:
        limits = [e for e in events if e["event"] == "discard" and e["purpose"] == "hand_limit"]
        found += len(limits)
        steps = viewer_steps(data, events)
        in_payday = [line for s in steps if s["kind"] == "payday" for line in s["lines"] if "(hand limit)" in line]
        in_placements = [line for s in steps if s["kind"] == "place" for line in s["lines"] if "(hand limit)" in line]
        assert len(in_payday) == len(limits) and not in_placements
        log = list(text_lines(data, events, "t"))
        assert sum("(hand limit)" in line for line in log) == len(limits)
    assert found > 0  # the fixture's games do discard down to the hand limit


def test_replay_writes_the_page_and_refuses_an_unwritable_one(dataset, tmp_path):
    page = tmp_path / "g.html"
    r = nesim("replay", dataset, 2, "--html", page)
    assert r.returncode == 0, r.stderr
    blob = re.search(r'<script id="game" type="application/json">(.*?)</script>', page.read_text(), re.S).group(1)
    payload = json.loads(blob)
    assert payload["title"].startswith("Glory, 3 players, game 2 of ")
    assert payload["steps"][-1]["kind"] == "end"
    (tmp_path / "a-file").write_text("")
    for where, why in ((tmp_path, "is a directory"), (tmp_path / "a-file" / "g.html", "cannot write")):
        r = nesim("replay", dataset, 2, "--html", where)
        assert r.returncode == 2 and r.stdout == "", r.stderr  # refused before the log is printed
        assert r.stderr.startswith("nesim: error: ") and why in r.stderr and "--html" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


HARNESS = """<!DOCTYPE html><html><body><iframe id="f" src="{page}" width="1200" height="800"></iframe>
<pre id="out"></pre><script>
document.getElementById("f").addEventListener("load", function () {{
  var d = this.contentDocument, seen = [d.body.dataset.step];
  function press(id) {{ d.getElementById(id).click(); seen.push(d.body.dataset.step); }}
  press("next"); press("next"); press("next"); press("prev"); press("last"); press("first");
  press("nextround"); press("nextround");
  var money = Array.from(d.querySelectorAll(".v-money")).map(function (c) {{ return c.textContent; }});
  var errors = d.documentElement.getAttribute("data-js-errors") || "";
  document.getElementById("out").textContent = JSON.stringify({{seen: seen, money: money, errors: errors}});
}});
</script></body></html>"""


def test_the_page_steps_forward_and_back_in_headless_chromium(dataset, games, tmp_path):
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                   None)
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium to run the browser check)")
    page = tmp_path / "g.html"
    assert nesim("replay", dataset, 2, "--html", page).returncode == 0
    harness = tmp_path / "harness.html"
    harness.write_text(HARNESS.format(page=page.as_uri()))
    r = subprocess.run([browser, "--headless", "--disable-gpu", "--no-sandbox", "--allow-file-access-from-files",
                        "--virtual-time-budget=10000", "--dump-dom", harness.as_uri()],
                       capture_output=True, text=True, timeout=120)
    out = json.loads(html_unescape(re.search(r'<pre id="out">(.*?)</pre>', r.stdout, re.S).group(1)))
    data, events = games[2]
    steps = viewer_steps(data, events)
    rounds = [k for k, s in enumerate(steps) if s["kind"] == "round"]
    assert out["errors"] == ""
    assert out["seen"] == [str(k) for k in (0, 1, 2, 3, 2, len(steps) - 1, 0, rounds[0], rounds[1])]
    assert out["money"] == [f"${p['money']}" for p in steps[rounds[1]]["state"]["players"]]


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)


def test_play_writes_the_page_of_the_game_it_prints(tmp_path):
    page = tmp_path / "p.html"
    r = nesim("play", "--game", "progress", "--players", "2", "--strategies", "greedy", "--seed", "4", "--html", page)
    assert r.returncode == 0, r.stderr
    blob = re.search(r'<script id="game" type="application/json">(.*?)</script>', page.read_text(), re.S).group(1)
    steps = json.loads(blob)["steps"]
    final = [line for line in r.stdout.splitlines() if line.startswith("  seat ") and " points (" in line]
    assert steps[-1]["lines"][1:] == final  # the page ends on the scores the log prints
