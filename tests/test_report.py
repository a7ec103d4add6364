"""The HTML report: sections, embedded figures, the three-game pacing figure, flagged sweep
differences, errors, and (when chromium is installed) that a real browser renders it cleanly."""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nesim.errors import NesimError
from nesim.report import build_report
from nesim.report.build import make_table
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


def table_headers(text, table_id):
    m = re.search(rf'<table id="{re.escape(table_id)}".*?</thead>', text, re.S)
    assert m, f"table {table_id} missing"
    return [html.unescape(h) for h in re.findall(r"<th\b[^>]*>(.*?)</th>", m.group(0), re.S)]


def column(text, table_id, header):
    """The cells of the column named ``header`` (the first of that name)."""
    i = table_headers(text, table_id).index(header)
    return [cells[i] for _, cells in table_rows(text, table_id)]


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
    values = [float(c) for c in column(text, "tab-cards-mecenat-3-baseline", "value within strategy")
              if c != "–"]
    assert len(values) > 10 and values == sorted(values, reverse=True)
    # the column the rows are ordered by comes right after the card, where no scrolling hides it
    assert table_headers(text, "tab-cards-mecenat-3-baseline")[:2] == ["card", "value within strategy"]


@pytest.fixture(scope="module")
def mirror_report(tmp_path_factory):
    """Progress, 2 players. Baseline: strong (+2 log-odds) against weak; strong builds Farm in 80% of
    its games, weak in 10%; Farm is worth nothing, Factory +0.7 to whoever builds it. Variant
    mirror-strong: the same cards, strong in both seats. Variant boost: weak gets stronger."""
    root = tmp_path_factory.mktemp("mirror")
    d = write_dataset(root / "ds", games=("progress",), n_players=(2,),
                      variants=("baseline", "mirror-strong", "boost"), strategies=("strong", "weak"),
                      lineups={"mirror-strong": ("strong",)}, n_games=3000, seed=4,
                      strength={"strong": 2.0}, card_effects={"factory": 0.7},
                      build_bias={"strong": {"farm": 0.8}, "weak": {"farm": 0.1}},
                      variant_strength={"boost": {"weak": 1.0}})
    out = root / "mirror.html"
    build_report([str(d)], str(out))
    return out.read_text(encoding="utf-8")


def test_card_values_within_strategy_and_from_mirror_games(mirror_report):
    text = mirror_report
    tid = "tab-cards-progress-2-baseline"
    names = column(text, tid, "card")
    value = dict(zip(names, map(float, column(text, tid, "value within strategy"))))
    mirror = dict(zip(names, map(float, column(text, tid, "value in mirror games"))))
    pooled = dict(zip(names, map(float, column(text, tid, "pooled value (card and builder mixed)"))))
    # pooled, Farm looks like the best card because strong builds it; it is worth nothing
    assert pooled["Farm"] == max(pooled.values()) and pooled["Farm"] > 1.0
    assert abs(value["Farm"]) < 0.3 and abs(mirror["Farm"]) < 0.3
    assert 0.4 < value["Factory"] < 1.1 and 0.4 < mirror["Factory"] < 1.1
    # the report says which estimate is which, and where the mirror games come from
    assert "Mirror-game values from 3,000 games with strong in every seat (variant mirror-strong)" in text
    for words in ("Within strategy", "Mirror games", "Pooled"):
        assert words in text
    fig = re.search(r'<figure id="fig-cards-progress-2">.*?</figure>', text, re.S).group(0)
    assert "within strategy" in fig and "mirror games (mirror-strong)" in fig
    # the mirror variant is no card or rules change: the sweep compares only boost with the baseline
    assert {c[2] for _, c in table_rows(text, "tab-sweep-strategy-win")} == {"boost"}
    assert "Not compared with the baseline: mirror-strong." in text


def test_the_demo_sweep_plays_mirror_games_of_the_baseline_cards():
    """make demo's sweep gives its Cards section mirror-game values at every game and player count:
    a variant with the baseline's cards and rules and one strategy in every seat."""
    from nesim.sweep import load_sweep

    units = load_sweep(REPO / "experiments" / "sweeps" / "demo.toml").units()
    baseline = {(u.game, u.n_players): u for u in units if u.variant == "baseline"}
    mirrors = {(u.game, u.n_players) for u in units
               if len(set(u.strategies)) == 1 and u.changes == baseline[(u.game, u.n_players)].changes}
    assert mirrors == set(baseline)
    assert all(len(set(u.strategies)) > 1 for u in baseline.values())
    assert sum(u.games for u in units) <= 180_000  # no more play than the demo had before


def test_no_mirror_games_says_how_to_get_them(small_report):
    _, text = small_report
    assert "value in mirror games" not in table_headers(text, "tab-cards-mecenat-3-baseline")
    assert "No mirror games with these cards and rules" in text


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """The report of ``full_report``'s Progress dataset with every figure kept as a matplotlib
    figure (by id) instead of a PNG, so tests can read what is drawn: axes, labels, data."""
    from matplotlib import pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from nesim.report import figures as F

    figures = {}

    def keep(fig_id, alt, caption, draw):
        with plt.rc_context(F.STYLE):
            figures[fig_id] = draw()
        plt.close(figures[fig_id])  # out of pyplot's list of open figures,
        FigureCanvasAgg(figures[fig_id])  # on a canvas of its own to draw on
        return F.Figure(fig_id, alt, caption, "data:image/png;base64,")

    root = tmp_path_factory.mktemp("drawn")
    d = write_dataset(root / "ds", games=("progress", "glory"), n_players=(2, 4),
                      variants=("baseline", "boost"), strategies=("greedy", "random", "vp_rush"),
                      n_games=240, seed=0, variant_strength={"boost": {"greedy": 2.0}})
    mp = pytest.MonkeyPatch()
    mp.setattr(F, "_figure", keep)
    try:
        build_report([str(d)], str(root / "r.html"))
    finally:
        mp.undo()
    return figures, (root / "r.html").read_text(encoding="utf-8")


def _points(ax):
    """x values of the round markers drawn on an axes (the centres of the error bars)."""
    xs = [line.get_xdata() for line in ax.lines if line.get_marker() == "o"]
    return np.concatenate([np.asarray(x, float) for x in xs]) if xs else np.array([])


def test_score_components_in_points_per_strategy(drawn):
    figures, text = drawn
    fig = figures["fig-score-components"]
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert sorted(ax.get_title() for ax in axes) == sorted(
        f"{g} {n}p (baseline)" for g in ("Progress", "Glory") for n in (2, 4))
    for ax in axes:
        assert "points" in ax.get_xlabel() and "share" not in ax.get_xlabel()
        # building points of each of the three strategies, in points (about 0.55 x a score of ~40)
        assert len(ax.get_yticks()) >= 4 and 15 < _points(ax).max() < 40
    assert {t.get_text() for t in fig.legends[0].get_texts()} == {"greedy", "random", "vp_rush"}
    assert "share" not in table_headers(text, "tab-components")
    means = column(text, "tab-components", "mean points")
    assert len(means) == 2 * 2 * 2 * 4 * 6  # games x players x variants x (3 strategies + all) x components


def test_sweep_figures_in_percentage_points_like_the_tables(drawn):
    figures, text = drawn
    ax = figures["fig-sweep-progress-2"].axes[0]
    assert "pp" in ax.get_xlabel()
    rows = [c for _, c in table_rows(text, "tab-sweep-strategy-win") if c[0] == "progress" and c[1] == "2"]
    table = sorted(float(c[6].split()[0]) for c in rows)  # "+31.2 pp"
    drawn_x = sorted(_points(ax))
    np.testing.assert_allclose(drawn_x, table, atol=0.051)  # the table rounds to 0.1 pp
    assert max(abs(x) for x in drawn_x) > 15  # planted: greedy gains about 30 pp
    balance_ax = figures["fig-sweep-progress-2"].axes[1]
    assert "pp" in balance_ax.get_xlabel()
    assert "pp" in column(text, "tab-sweep-balance", "difference")[0]


def _overlaps(labels, renderer, axis):
    boxes = sorted((t.get_window_extent(renderer) for t in labels if t.get_visible() and t.get_text()),
                   key=lambda box: box.x0 if axis == "x" else box.y0)
    return [(a, b) for a, b in zip(boxes, boxes[1:])
            if (a.x1 > b.x0 + 0.5 if axis == "x" else a.y1 > b.y0 + 0.5)]


def test_tick_labels_do_not_overlap(drawn):
    """Every figure, every axis: no tick label runs into the next (the Glory 2p seat-balance axis
    of the sweeps printed -0.030-0.025-0.020... as one smudge)."""
    from matplotlib import pyplot as plt

    from nesim.report import figures as F

    figures, _ = drawn
    for fig_id, fig in figures.items():
        with plt.rc_context(F.STYLE):  # ticks are placed for the report's font size
            fig.canvas.draw()
            renderer = fig.canvas.get_renderer()
            for ax in fig.axes:
                if not ax.get_visible():
                    continue
                assert not _overlaps(ax.get_xticklabels(), renderer, "x"), (fig_id, ax.get_title(), "x")
                assert not _overlaps(ax.get_yticklabels(), renderer, "y"), (fig_id, ax.get_title(), "y")


def test_sweep_figure_of_the_demo_glory_2p_is_legible(monkeypatch):
    """The demo's Glory 2p numbers (higher-wages against baseline), which drew the seat-balance
    axis as overlapping fractions."""
    from matplotlib import pyplot as plt

    from nesim.report import figures as F

    strat = pd.DataFrame({"variant": "higher-wages", "strategy": ["strong", "greedy"],
                          "diff": [0.0975, -0.0975], "lo": [0.0869, -0.1081], "hi": [0.1081, -0.0869],
                          "flag": True})
    balance = pd.DataFrame({"variant": ["higher-wages"], "diff": [-0.011], "lo": [-0.03057],
                            "hi": [0.00857], "flag": [False]})
    with plt.rc_context(F.STYLE):  # as the report draws it
        monkeypatch.setattr(F, "_figure", lambda fig_id, alt, caption, draw: draw())
        fig = F.sweep_figure("fig", "Glory, 2 players", strat, balance)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        for ax in fig.axes:
            assert not _overlaps(ax.get_xticklabels(), renderer, "x"), ax.get_xlabel()
    assert all("pp" in ax.get_xlabel() for ax in fig.axes)
    plt.close(fig)


def test_numbers_never_print_minus_zero():
    df = pd.DataFrame({"a": [-0.0, -0.001, -0.04, 0.5], "lo": [-0.0, -0.004, -0.2, 0.1],
                       "hi": [0.0, 0.001, -0.001, 0.9]})
    t = make_table("t", "t", df, [("f2", "a", "f2"), ("f1", "a", "f1"), ("signed", "a", "signed"),
                                  ("pct", "a", "pct"), ("dpct", "a", "dpct"), ("ci", ("lo", "hi"), "ci"),
                                  ("ci_pct", ("lo", "hi"), "ci_pct")])
    cells = [text for row in t.rows for text, _ in row]
    assert not [c for c in cells if re.search(r"-0(\.0+)?(?![.0-9])", c)], cells
    assert [text for text, _ in t.rows[0]] == ["0.00", "0.0", "+0.00", "0.0%", "+0.0 pp", "[0.00, 0.00]",
                                               "[0.0, 0.0]"]
    assert t.rows[2][0][0] == "-0.04" and t.rows[2][6][0] == "[-20.0, -0.1]"


def test_a_column_the_same_on_every_row_is_left_out(small_report):
    _, text = small_report
    headers = table_headers(text, "tab-groups")
    assert "mean rounds" not in headers and "games" in headers  # every synthetic game lasts 9 rounds
    assert "mean rounds 9.00" in text
    varied = pd.DataFrame({"r": [9, 9, 8], "s": ["a", "a", "a"]})
    t = make_table("t", "t", varied, [("rounds", "r", "int"), ("s", "s", "str")],
                   hide_constant=("rounds", "s"))
    assert t.headers == ["rounds"] and "s a" in t.note


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


def test_tables_fit_a_1400px_window(tmp_path):
    """At 1400 px no table is wider than its box: the Datasets table (a long command) and the Cards
    tables (the column they are ordered by far to the right) overflowed and hid columns."""
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium to run the browser check)")
    d = write_dataset(tmp_path / "ds", games=("progress",), n_players=(4,),
                      variants=("baseline", "higher-wages"),
                      strategies=("strong", "greedy", "economy", "random"), n_games=120)
    manifest = json.loads((d / "manifest.json").read_text())
    manifest["command"] = ["nesim", "sweep", "experiments/sweeps/demo.toml", "--out", "reports/demo-data",
                           "--jobs", "2", "--force"]
    (d / "manifest.json").write_text(json.dumps(manifest))
    out = tmp_path / "r.html"
    build_report([str(d)], str(out))
    measure = ("<script>window.addEventListener('load', function () { var o = [];"
               "document.querySelectorAll('.tablewrap').forEach(function (w) {"
               "var d = w.closest('details'); if (d) d.open = true;"
               "o.push(w.querySelector('table').id + ':' + w.scrollWidth + ':' + w.clientWidth); });"
               "document.body.setAttribute('data-widths', o.join(' ')); });</script></body>")
    probe = tmp_path / "probe.html"
    probe.write_text(out.read_text(encoding="utf-8").replace("</body>", measure), encoding="utf-8")
    dom = subprocess.run([browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
                          "--window-size=1400,3000", "--virtual-time-budget=10000", "--dump-dom",
                          probe.as_uri()], capture_output=True, text=True, timeout=120)
    widths = re.search(r'data-widths="([^"]*)"', dom.stdout)
    assert widths, dom.stderr[-2000:]
    tables = [w.split(":") for w in widths.group(1).split()]
    assert {"tab-datasets", "tab-cards-progress-4-baseline"} <= {t for t, _, _ in tables}
    too_wide = [(t, int(need), int(have)) for t, need, have in tables if int(need) > int(have)]
    assert not too_wide


def test_the_fits_run_with_one_blas_thread(tmp_path, monkeypatch):
    """A multithreaded BLAS slows the report's small fits down many times on a busy machine:
    the card values must be fitted with BLAS held to one thread (threadpoolctl)."""
    from threadpoolctl import threadpool_info

    import nesim.stats as S
    seen = []
    fit = S.card_stats

    def recording(*args, **kwargs):
        seen.extend(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas")
        return fit(*args, **kwargs)
    monkeypatch.setattr(S, "card_stats", recording)
    d = write_dataset(tmp_path / "ds", games=("mecenat",), n_players=(2,), n_games=60)
    build_report([str(d)], str(tmp_path / "r.html"))
    assert seen and set(seen) == {1}
