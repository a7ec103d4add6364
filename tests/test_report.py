"""The HTML report: sections, embedded figures, the three-game pacing figure, flagged sweep
differences, errors, and (when chromium is installed) that a real browser renders it cleanly."""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from nesim.errors import NesimError
from nesim.report import build_report
from report_fixtures import write_dataset

REPO = Path(__file__).resolve().parents[1]
SECTIONS = {"overview": "Overview", "strategies": "Strategies", "seats": "Seats", "cards": "Cards",
            "pacing": "Pacing", "scores": "Score components", "solo": "Solo", "sweeps": "Sweeps"}
GAMES = ("progress", "mecenat", "glory")


def expected_figures(groups, games, solo_games=(), swept=()):
    """Figure ids by the report's naming convention: per (game, players) group, per game, overall."""
    ids = set()
    for g, n in groups:
        ids |= {f"fig-strategies-{g}-{n}", f"fig-seats-{g}-{n}", f"fig-cards-{g}-{n}"}
    for g in solo_games:
        ids.add(f"fig-cards-{g}-1")
    ids |= {f"fig-pacing-{g}" for g in set(games) | set(solo_games)}
    if len(set(games) | set(solo_games)) > 1:
        ids.add("fig-pacing-games")
    ids.add("fig-score-components")
    if solo_games:
        ids.add("fig-solo")
    ids |= {f"fig-sweep-{g}-{n}" for g, n in swept}
    return ids


def images(text):
    return re.findall(r"<img\b[^>]*>", text)


def attr(tag, name):
    m = re.search(rf'\b{name}="([^"]*)"', tag)
    return m.group(1) if m else None


def figure_ids(text):
    return set(re.findall(r'<figure id="([^"]+)"', text))


def table_rows(text, table_id):
    m = re.search(rf'<table id="{re.escape(table_id)}".*?</table>', text, re.S)
    assert m, f"table {table_id} missing"
    rows = []
    for cls, body in re.findall(r'<tr(?: class="([^"]*)")?>(.*?)</tr>', m.group(0), re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)
        if cells:
            rows.append((cls, cells))
    return rows


@pytest.fixture(scope="module")
def full_report(tmp_path_factory):
    """Three games (one dataset each, 2 players, baseline + a variant where greedy is much
    stronger) and a solo Glory dataset."""
    root = tmp_path_factory.mktemp("full")
    dirs = [write_dataset(root / g, games=(g,), n_players=(2,), variants=("baseline", "boost"),
                          strategies=("greedy", "random", "vp_rush"), n_games=240, seed=i,
                          variant_strength={"boost": {"greedy": 2.0}})
            for i, g in enumerate(GAMES)]
    dirs.append(write_dataset(root / "solo", games=("glory",), n_players=(1,), strategies=("greedy",),
                              n_games=80, seed=9))
    out = root / "out" / "report.html"
    messages = []
    build_report([str(d) for d in dirs], str(out), progress=messages.append)
    return out, out.read_text(encoding="utf-8"), messages


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("small")
    d = write_dataset(root / "ds", games=("mecenat",), n_players=(3,), n_games=150)
    out = root / "small.html"
    build_report([str(d)], str(out))
    return out, out.read_text(encoding="utf-8")


def test_every_section_and_toc(full_report):
    _, text, messages = full_report
    for sid, title in SECTIONS.items():
        assert f'<section id="{sid}">' in text and f"<h2>{title}</h2>" in text, title
        assert f'href="#{sid}"' in text
    for word in ("overview", "strategies", "seats", "cards", "pacing", "score components", "solo", "sweeps"):
        assert word in messages


def test_every_figure_embedded(full_report):
    _, text, _ = full_report
    groups = [(g, 2) for g in GAMES]
    expected = expected_figures(groups, GAMES, solo_games=("glory",), swept=groups)
    assert figure_ids(text) == expected
    imgs = images(text)
    assert len(imgs) == len(expected)
    for tag in imgs:
        src = attr(tag, "src")
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
        assert attr(tag, "alt")
    assert "fig-pacing-games" in expected


def test_self_contained(full_report):
    _, text, _ = full_report
    assert not re.search(r'(src|href)="(https?:)?//', text)
    assert "<link" not in text and not re.search(r"<script[^>]+src=", text)


def test_planted_sweep_difference_flagged(full_report):
    _, text, _ = full_report
    rows = table_rows(text, "tab-sweep-strategy-win")
    greedy = [(cls, cells) for cls, cells in rows if cells[2] == "boost" and cells[3] == "greedy"]
    assert len(greedy) == 3  # one per game
    for cls, cells in greedy:
        assert cls == "flagged" and cells[-1] == "yes"
        assert float(cells[6].split()[0]) > 15  # difference in percentage points, planted ~ +30
    # the strategies' win rates in the report agree with the planted direction
    win = table_rows(text, "tab-strategy-win")
    boost = {c[0]: float(c[6].rstrip("%")) for _, c in win if c[2] == "boost" and c[3] == "greedy"}
    base = {c[0]: float(c[6].rstrip("%")) for _, c in win if c[2] == "baseline" and c[3] == "greedy"}
    assert all(boost[g] > base[g] + 15 for g in GAMES)


def test_written_whole(full_report):
    out, _, _ = full_report
    assert [p.name for p in out.parent.iterdir()] == [out.name]


def test_single_variant_report(small_report):
    _, text = small_report
    assert figure_ids(text) == expected_figures([("mecenat", 3)], ["mecenat"])
    assert '<section id="sweeps">' not in text and '<section id="solo">' not in text
    assert "fig-pacing-games" not in text
    for sid in ("overview", "strategies", "seats", "cards", "pacing", "scores"):
        assert f'<section id="{sid}">' in text


def test_cards_table_ordered_by_marginal_value(small_report):
    _, text = small_report
    rows = table_rows(text, "tab-cards-mecenat-3-baseline")
    values = [float(c[13]) for _, c in rows if c[13] not in ("–",)]
    assert len(values) > 10 and values == sorted(values, reverse=True)


def test_missing_dataset_raises(tmp_path):
    out = tmp_path / "r.html"
    missing = tmp_path / "no-such-dataset"
    with pytest.raises(NesimError) as err:
        build_report([str(missing)], str(out))
    assert str(missing) in str(err.value) and "\n" not in str(err.value)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_unreadable_dataset_raises(tmp_path):
    d = write_dataset(tmp_path / "ds", n_games=20)
    (d / "manifest.json").write_text("{not json")
    with pytest.raises(NesimError, match="manifest"):
        build_report([str(d)], str(tmp_path / "r.html"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(NesimError, match="empty"):
        build_report([str(empty)], str(tmp_path / "r.html"))
    assert not (tmp_path / "r.html").exists()


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def test_renders_in_headless_chromium(full_report):
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium to run the browser check)")
    out, text, _ = full_report
    n_img = len(images(text))
    common = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
              "--enable-logging=stderr", "--v=0", "--virtual-time-budget=15000"]
    dom = subprocess.run(common + ["--dump-dom", out.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    body = re.search(r"<body[^>]*>", dom.stdout)
    html_tag = re.search(r"<html[^>]*>", dom.stdout)
    assert body and html_tag, dom.stdout[:500]
    assert 'data-images-done="ok"' in body.group(0), body.group(0)
    assert f'data-images="{n_img}/{n_img}"' in body.group(0)
    assert "data-js-errors" not in html_tag.group(0), html_tag.group(0)
    console_errors = [ln for ln in dom.stderr.splitlines() if "CONSOLE" in ln and
                      re.search(r"error|uncaught", ln, re.I)]
    assert not console_errors, console_errors
    shot = REPO / "reports" / "report-screenshot.png"
    shot.parent.mkdir(exist_ok=True)
    shot.unlink(missing_ok=True)
    res = subprocess.run(common + [f"--screenshot={shot}", "--window-size=1200,3000", out.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
