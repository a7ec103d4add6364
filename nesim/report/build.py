"""``build_report``: one self-contained HTML report from one or more datasets.

The numbers come from :mod:`nesim.stats`, the figures from :mod:`nesim.report.figures`, the page from
``templates/report.html.j2`` (inline CSS and a small inline table sorter; no network resources).
The file is rendered to a temporary file in the destination folder and renamed into place.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from nesim import stats as S
from nesim.errors import NesimError

PLAYER_COLUMNS = ["game_id", "variant", "game", "n_players", "seat", "strategy", "score", "rank", "win",
                  "money", "building_points", "bonus_points", "vp_points", "unpaid_wages",
                  "solo_cleared"]
GAME_COLUMNS = ["game_id", "variant", "game", "n_players", "seed", "rounds_played", "household_end"]
BUILD_COLUMNS = ["game_id", "variant", "game", "n_players", "seat", "card", "round"]
GAME_ORDER = {"progress": 0, "mecenat": 1, "glory": 2}


# ---------------------------------------------------------------------------- tables


@dataclass
class Table:
    id: str
    caption: str
    headers: list[str]
    rows: list[list[tuple[str, Any]]]  # (text, sort key) per cell
    row_classes: list[str]
    note: str = ""
    collapsed: bool = False
    column_classes: list[str] = field(default_factory=list)  # "text" cells may wrap


def _num(x) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def _shown(x: float, digits: int) -> float:
    """x as printed with ``digits`` decimals, without a sign on zero: -0.001 prints 0.00, not -0.00."""
    return round(x, digits) + 0.0


def _fmt(kind: str, row: pd.Series, key):
    """(text, sort key) of one cell. Kinds: str, int, f1, f2, f3, pct, ci_pct (key = (lo, hi)),
    ci (key = (lo, hi), 2 decimals), ci1, p."""
    if kind in ("ci_pct", "ci", "ci1"):
        lo, hi = _num(row[key[0]]), _num(row[key[1]])
        if lo is None or hi is None:
            return "–", ""
        if kind == "ci_pct":
            return f"[{_shown(100 * lo, 1):.1f}, {_shown(100 * hi, 1):.1f}]", lo
        digits = 1 if kind == "ci1" else 2
        return f"[{_shown(lo, digits):.{digits}f}, {_shown(hi, digits):.{digits}f}]", lo
    v = row[key]
    if kind == "str":
        return str(v), str(v)
    if kind == "bool":
        return ("yes" if bool(v) else ""), int(bool(v))
    x = _num(v)
    if x is None:
        return "–", ""
    if kind == "int":
        return f"{int(round(x)):,}", x
    if kind == "pct":
        return f"{_shown(100 * x, 1):.1f}%", x
    if kind == "dpct":
        return f"{_shown(100 * x, 1):+.1f} pp", x
    if kind == "p":
        return (f"{x:.2g}" if x >= 1e-4 else "<1e-4"), x
    if kind == "signed":
        return f"{_shown(x, 2):+.2f}", x
    digits = {"f1": 1, "f2": 2, "f3": 3}.get(kind, 2)
    return f"{_shown(x, digits):.{digits}f}", x


def make_table(table_id: str, caption: str, df: pd.DataFrame, columns: Sequence[tuple[str, Any, str]],
               flag: str | None = None, note: str = "", collapsed: bool = False,
               max_rows: int = 2000, hide_constant: Sequence[str] = ()) -> Table:
    """A table from a DataFrame; ``columns`` = (header, column or (lo, hi), kind).

    Columns named in ``hide_constant`` (by header) are left out when they print the same on every
    row (a column of 9.00 [9.00, 9.00] says nothing); the note then gives their one value."""
    rows, classes = [], []
    for _, r in df.head(max_rows).iterrows():
        rows.append([_fmt(kind, r, key) for _, key, kind in columns])
        classes.append("flagged" if flag and bool(r.get(flag, False)) else "")
    headers = [h for h, _, _ in columns]
    constant = [i for i, h in enumerate(headers)
                if h in hide_constant and rows and len({row[i][0] for row in rows}) == 1]
    if constant:
        same = "; ".join(f"{headers[i]} {rows[0][i][0]}" for i in constant)
        note = (note + " " if note else "") + f"The same on every row, so not shown as a column: {same}."
        keep = [i for i in range(len(headers)) if i not in constant]
        headers = [headers[i] for i in keep]
        rows = [[row[i] for i in keep] for row in rows]
        columns = [columns[i] for i in keep]
    if len(df) > max_rows:
        note = (note + " " if note else "") + f"First {max_rows:,} of {len(df):,} rows."
    column_classes = ["text" if kind == "str" else "" for _, _, kind in columns]
    return Table(table_id, caption, headers, rows, classes, note, collapsed, column_classes)


# ---------------------------------------------------------------------------- report model


@dataclass
class Section:
    id: str
    title: str
    intro: str = ""
    blocks: list = field(default_factory=list)  # ("h3", text) | ("figure", Figure) | ("table", Table) | ("p", text)

    def h3(self, text):
        self.blocks.append(("h3", text))

    def p(self, text):
        self.blocks.append(("p", text))

    def figure(self, fig):
        self.blocks.append(("figure", fig))

    def table(self, t):
        self.blocks.append(("table", t))

    @property
    def figures(self):
        return [b for k, b in self.blocks if k == "figure"]


def _slug(*parts) -> str:
    s = "-".join(str(p) for p in parts).lower()
    return "".join(c if c.isalnum() or c == "-" else "-" for c in s)


def _group_label(game, n) -> str:
    return f"{str(game).capitalize()}, {'solo' if int(n) == 1 else f'{int(n)} players'}"


def _distinct(col: pd.Series) -> list[str]:
    """The distinct values of a column as strings, in order of first appearance (without a
    Python object per row: the games table may hold millions)."""
    return list(dict.fromkeys(str(v) for v in pd.unique(col)))


def _sorted_groups(df: pd.DataFrame) -> list[tuple[str, int]]:
    pairs = {(str(g), int(n)) for g, n in df[["game", "n_players"]].drop_duplicates().itertuples(index=False)}
    return sorted(pairs, key=lambda p: (GAME_ORDER.get(p[0], 9), p[0], p[1]))


def _sel(df: pd.DataFrame, game, n, variant=None) -> pd.DataFrame:
    m = (df["game"] == game) & (df["n_players"] == n)
    if variant is not None:
        m &= df["variant"] == variant
    return df[m]


def _order_variants(df: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Sorts rows by game, player count, then baseline first, keeping the order within."""
    if not len(df):
        return df
    key = pd.DataFrame({"g": df["game"].astype(str).map(lambda g: GAME_ORDER.get(g, 9)),
                        "n": df["n_players"].astype(int),
                        "b": (df["variant"].astype(str) != baseline).astype(int),
                        "v": df["variant"].astype(str), "i": np.arange(len(df))}, index=df.index)
    return df.loc[key.sort_values(["g", "n", "b", "v", "i"]).index]


# ---------------------------------------------------------------------------- build


def _variant_meta(manifests: list[dict]):
    """Per (game, variant): its card table, unpaid-wage penalty and card set (the card table and
    rules as one comparable string: variants that play the same cards by the same rules share it)."""
    cards: dict[tuple[str, str], list] = {}
    penalty: dict[tuple[str, str], float] = {}
    card_set: dict[tuple[str, str], str] = {}
    for m in manifests:
        for v in m.get("variants") or []:
            if not isinstance(v, dict) or "name" not in v:
                continue
            games = [v["game"]] if v.get("game") else list(m.get("games") or [])
            for g in games:
                if isinstance(v.get("cards"), list):
                    cards.setdefault((g, v["name"]), v["cards"])
                rules = v.get("rules") or {}
                if "unpaid_wage_penalty" in rules:
                    penalty.setdefault((g, v["name"]), float(rules["unpaid_wage_penalty"]))
                if "cards" in v and "rules" in v:
                    card_set.setdefault((g, v["name"]), json.dumps([v["cards"], v["rules"]], sort_keys=True))
    return cards, penalty, card_set


def _chunks(manifest: dict) -> list[dict]:
    chunks = manifest.get("chunks")
    return [c for c in chunks if isinstance(c, dict)] if isinstance(chunks, list) else []


def _done(chunks: list[dict]) -> list[dict]:
    return [c for c in chunks if c.get("status", "done") == "done"]


def incomplete_datasets(dirs: Sequence[str], manifests: list[dict]) -> list[str]:
    """One sentence per dataset whose run was not finished: its numbers cover only part of it."""
    out = []
    for d, m in zip(dirs, manifests):
        chunks = _chunks(m)
        done = _done(chunks)
        if len(done) < len(chunks):
            games = lambda cs: sum(int(c.get("count", 0)) for c in cs)
            out.append(f"dataset {d} is incomplete: {len(done)} of {len(chunks)} chunks ({games(done):,} of "
                       f"{games(chunks):,} games) were written, so its numbers cover only those games; "
                       f"finish the run with --resume --out {d}")
    return out


def _overview(dirs: Sequence[str], manifests: list[dict], games: pd.DataFrame, length: pd.DataFrame,
              ties: pd.DataFrame, baseline: str) -> Section:
    sec = Section("overview", "Overview",
                  "What was run, from each dataset's manifest, and how many games each group holds. "
                  f"Comparisons use the variant <code>{html.escape(baseline)}</code> as the baseline.")
    rows = []
    for d, m in zip(dirs, manifests):
        chunks = _chunks(m)
        done = len(_done(chunks))
        variants = [v.get("name", "?") if isinstance(v, dict) else str(v) for v in m.get("variants") or []]
        cmd = m.get("command")
        rows.append({"dataset": str(d), "command": " ".join(map(str, cmd)) if isinstance(cmd, list) else str(cmd or ""),
                     "version": str(m.get("nesim_version", "")), "games": ", ".join(map(str, m.get("games") or [])),
                     "players": ", ".join(map(str, m.get("players") or [])),
                     "strategies": ", ".join(map(str, m.get("strategies") or [])),
                     "variants": ", ".join(dict.fromkeys(variants)), "seed": str(m.get("seed", "")),
                     "per_variant": m.get("games_per_variant", np.nan),
                     "chunks": f"{done}/{len(chunks)}" if chunks else "", "baseline": str(m.get("baseline", "baseline"))})
    sec.table(make_table("tab-datasets", "Datasets", pd.DataFrame(rows), [
        ("dataset", "dataset", "str"), ("command", "command", "str"), ("nesim", "version", "str"),
        ("games", "games", "str"), ("players", "players", "str"), ("strategies", "strategies", "str"),
        ("variants", "variants", "str"), ("baseline", "baseline", "str"), ("master seed", "seed", "str"),
        ("games per variant", "per_variant", "int"), ("chunks done", "chunks", "str")]))
    t = length.merge(ties.drop(columns=["games"]).rename(columns={"rate": "tie_rate", "lo": "tie_lo",
                                                                  "hi": "tie_hi"}),
                     on=S.GROUP, how="left")
    t = _order_variants(t, baseline)
    sec.table(make_table("tab-groups", "Games per group, game length and ties", t, [
        ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
        ("games", "games", "int"), ("mean rounds", "mean", "f2"), ("rounds 95% CI", ("lo", "hi"), "ci"),
        ("fewest rounds", "min", "int"), ("most rounds", "max", "int"),
        ("household at end", "household_end", "f1"),
        ("tie rate", "tie_rate", "pct"), ("tie 95% CI", ("tie_lo", "tie_hi"), "ci_pct")],
        note="Tie rate: share of games whose two best scores are equal (decided by the tie-break).",
        hide_constant=("mean rounds", "rounds 95% CI", "fewest rounds", "most rounds")))
    return sec


CARDS_INTRO = (
    "Per card, what building it is worth: three marginal values, each the coefficient (log-odds of "
    "winning; solo: clearing) of a logistic regression on indicators of every card built plus seat "
    "dummies, with 95% intervals (a small ridge penalty keeps them finite when a card always wins). "
    "<strong>Within strategy</strong>: the regression also holds a term per strategy, so a card is "
    "compared with the same strategy not building it; the table is ordered by it. "
    "<strong>Mirror games</strong>: only games in which every seat plays the same strategy, from the "
    "variants with the same cards and rules; the cleanest answer to a designer, what the card is "
    "worth between equal players. <strong>Pooled</strong>: cards and seat only, shown for "
    "comparison; it credits a card with the strength of the players who like it (a strong "
    "strategy's favourite card looks strong). <em>≈ pp</em> turns the within-strategy value into "
    "percentage points of win rate. Build rate = share of player-games that built the card at "
    "least once; the raw win rates when built and not built mix the card with its builders too. "
    "Points per cost = asset value / construction cost.")


def _mirror_note(c: pd.DataFrame, sources: list[str]) -> str:
    """Says what a table's mirror-game values rest on, or how to get them."""
    games = int(c["mirror_games"].max()) if len(c) else 0
    if games == 0:
        return ("No mirror games with these cards and rules: a sweep variant that plays them with "
                "one strategy in every seat (strategies = [\"greedy\"]) gives mirror-game values.")
    strategies = str(c["mirror_strategies"].iloc[0])
    return (f"Mirror-game values from {games:,} games with {strategies} in every seat "
            f"(variant {', '.join(sources)}).")


def _cards_section(cards: pd.DataFrame, groups, main_variant, mirror_share: pd.DataFrame,
                   card_set_of) -> Section:
    from nesim.report import figures as F

    sec = Section("cards", "Cards", CARDS_INTRO)
    for game, n in groups:
        v = main_variant(game, n)
        variants = [v] + sorted(set(_sel(cards, game, n)["variant"].astype(str)) - {v})
        for variant in variants:
            cv = _sel(cards, game, n, variant)
            if not len(cv):
                continue
            ms = _sel(mirror_share, game, n)
            sources = [str(x) for x in ms.loc[ms["mirror"] > 0, "variant"]
                       if card_set_of(game, str(x)) == card_set_of(game, variant)]
            has_mirror = int(cv["mirror_games"].max()) > 0
            if variant == v and len(cv.dropna(subset=["coef"])):
                sec.figure(F.cards_figure(f"fig-cards-{_slug(game, n)}", f"{_group_label(game, n)} ({v})",
                                          cv, ", ".join(sources)))
            value = [("value within strategy", "coef", "signed"), ("95% CI", ("coef_lo", "coef_hi"), "ci"),
                     ("≈ pp", "marginal_pp", "dpct")]
            if has_mirror:
                value += [("value in mirror games", "mirror", "signed"),
                          ("95% CI", ("mirror_lo", "mirror_hi"), "ci")]
            value += [("pooled value (card and builder mixed)", "pooled", "signed")]
            note = _mirror_note(cv, sources) if n > 1 else ""
            sec.table(make_table(
                f"tab-cards-{_slug(game, n, variant)}", f"Cards: {_group_label(game, n)}, variant {variant}",
                cv, [("card", "name", "str")] + value + [
                    ("build rate", "build_rate", "pct"), ("95% CI", ("build_lo", "build_hi"), "ci_pct"),
                    ("mean round", "mean_round", "f2"), ("win rate built", "win_built", "pct"),
                    ("win rate not built", "win_not", "pct"), ("cost", "cost", "int"),
                    ("asset value", "asset_value", "int"), ("points / cost", "points_per_cost", "f2")],
                note=note, collapsed=variant != v))
    return sec


def _mirror_only_variants(mirror_share: pd.DataFrame, baseline: str) -> set[tuple[str, int, str]]:
    """(game, players, variant) groups played in mirror games only while their baseline is not."""
    cols = (mirror_share[c] for c in ("game", "n_players", "variant", "mirror"))
    share = {(str(g), int(n), str(v)): float(m) for g, n, v, m in zip(*cols)}
    return {(g, n, v) for (g, n, v), m in share.items()
            if v != baseline and m == 1.0 and share.get((g, n, baseline), 1.0) < 1.0}


def _drop_groups(df: pd.DataFrame, drop: set[tuple[str, int, str]]) -> pd.DataFrame:
    """The rows of ``df`` outside the (game, players, variant) groups of ``drop``."""
    if not drop or not len(df):
        return df
    out = np.zeros(len(df), dtype=bool)
    for game, n, variant in drop:  # a few groups: one vectorised comparison each
        out |= ((df["game"] == game) & (df["n_players"] == n) & (df["variant"] == variant)).to_numpy()
    return df[~out]


class ReportData:
    """What the sections share: the datasets' manifests, the baseline, the groups, and the tables
    read from disk (each once, when a section first needs it) and the statistics more than one
    section shows. Players and games are read whole with only the report's columns; builds and
    rounds are reduced part by part as they are read (nesim.stats' readers), never held whole."""

    def __init__(self, dirs: list[str], manifests: list[dict]):
        self.dirs = dirs
        self.manifests = manifests
        self.games = S.read_table(dirs, "games", GAME_COLUMNS)
        if not len(self.games):
            raise NesimError(f"{dirs[0] if len(dirs) == 1 else ', '.join(dirs)}: dataset holds no finished games")
        variants_present = _distinct(self.games["variant"])
        baseline = next((m.get("baseline") for m in manifests if m.get("baseline") in variants_present), None)
        if baseline is None:
            baseline = "baseline" if "baseline" in variants_present else variants_present[0]
        self.baseline = baseline
        self.groups = _sorted_groups(self.games)
        self.variant_cards, self.penalties, self.card_sets = _variant_meta(manifests)

    @cached_property
    def players(self) -> pd.DataFrame:
        return S.read_table(self.dirs, "players", PLAYER_COLUMNS)

    @cached_property
    def _variants(self) -> dict[tuple[str, int], list[str]]:
        """The variants of each (game, players) group, in order of first appearance."""
        return {(game, n): _distinct(_sel(self.games, game, n)["variant"]) for game, n in self.groups}

    def main_variant(self, game, n) -> str:
        vs = self._variants[(game, n)]
        return self.baseline if self.baseline in vs else vs[0]

    def cards_of(self, game, variant) -> pd.DataFrame:
        return S.card_info(game, self.variant_cards.get((game, variant)))

    def card_set_of(self, game, variant):
        """Variants without a recorded card table and rules only match themselves."""
        return self.card_sets.get((game, variant), ("variant", variant))

    def penalty_of(self, game, variant) -> float:
        if (game, variant) in self.penalties:
            return self.penalties[(game, variant)]
        from nesim.cards import load_game
        return float(load_game(game).rules.unpaid_wage_penalty)

    @cached_property
    def mirror_share(self) -> pd.DataFrame:
        p = self.players
        return p[S.GROUP].assign(mirror=S.mirror_games(p)).groupby(
            S.GROUP, observed=True)["mirror"].mean().reset_index()

    @cached_property
    def win(self) -> pd.DataFrame:
        return S.strategy_win_rates(self.players)

    @cached_property
    def scores(self) -> pd.DataFrame:
        return S.score_summary(self.players)

    @cached_property
    def seats(self) -> pd.DataFrame:
        return S.seat_win_rates(self.players)

    @cached_property
    def cards(self) -> pd.DataFrame:
        # no name holds the builds here: card_stats drops them once it has made its rows
        return S.card_stats(self.players, S.read_first_builds(self.dirs), cards=self.cards_of,
                            card_sets=self.card_set_of)


def build_report(dataset_dirs: Sequence[str | os.PathLike], out_file: str | os.PathLike,
                 progress: Callable[[str], None] | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
    """See _build_report. The fits of the statistics solve small systems (a few dozen unknowns),
    which a multithreaded BLAS only slows down, many times over on a busy machine (the card
    values of the demo: 129 s with OpenBLAS's default threads against 23 s with one): one
    thread for BLAS while the report is built."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        _build_report(dataset_dirs, out_file, progress, warn)


def _build_report(dataset_dirs: Sequence[str | os.PathLike], out_file: str | os.PathLike,
                  progress: Callable[[str], None] | None = None,
                  warn: Callable[[str], None] | None = None) -> None:
    """Writes one self-contained HTML report about the datasets in ``dataset_dirs`` to ``out_file``.

    Raises NesimError (one line naming the path) when a dataset is missing or unreadable or the
    output cannot be written, the latter before any work. ``progress(message)`` is called as each
    section starts; ``warn(message)`` for each dataset that is incomplete, which the report also
    says at its top."""
    say = progress or (lambda message: None)
    dirs = [str(d) for d in dataset_dirs]
    if not dirs:
        raise NesimError("report: no dataset directory given")
    out_path = Path(out_file)
    check_writable(out_path)
    say("reading datasets")
    manifests = [S.read_manifest(d) for d in dirs]
    warnings = incomplete_datasets(dirs, manifests)
    for w in warnings:
        (warn or (lambda message: None))(w)
    rd = ReportData(dirs, manifests)
    sections: list[Section] = []
    for name, make in SECTIONS:
        if (section := make(rd, lambda: say(name))) is not None:
            sections.append(section)
    say("writing " + str(out_path))
    _write(out_path, _render(sections, dirs, warnings))


# ---------------------------------------------------------------------------- sections
# One function per section: ``make(rd, start)`` returns the Section, or None when the datasets
# give it nothing to show; it calls ``start()`` (the progress line) once it knows it will.


def overview_section(rd: ReportData, start: Callable[[], None]) -> Section:
    start()
    return _overview(rd.dirs, rd.manifests, rd.games, S.game_length(rd.games), S.tie_rate(rd.players),
                     rd.baseline)


def strategies_section(rd: ReportData, start: Callable[[], None]) -> Section:
    from nesim.report import figures as F

    start()
    players, groups, baseline, main_variant = rd.players, rd.groups, rd.baseline, rd.main_variant
    win, scores = rd.win, rd.scores
    rating = S.ratings(players)
    pairs = S.pairings(players)
    sec = Section("strategies", "Strategies",
                  "Win rate per strategy (player-games won; solo: cleared) with 95% Wilson intervals "
                  "against the fair share 1/N; head-to-head results; score distributions; "
                  "Bradley-Terry ratings on the Elo scale (1500 = average; +100 = wins 64% of "
                  "meetings). Figures show the baseline variant; tables list every variant.")
    for game, n in groups:
        if n == 1:
            continue
        v = main_variant(game, n)
        w = _sel(win, game, n, v)
        if len(w):
            sec.figure(F.strategies_figure(f"fig-strategies-{_slug(game, n)}", f"{_group_label(game, n)} ({v})",
                                           w, _sel(players, game, n, v), _sel(rating, game, n, v)))
    multi = lambda df: df[df["n_players"].astype(int) > 1]
    sec.table(make_table("tab-strategy-win", "Win rate per strategy", _order_variants(multi(win), baseline), [
        ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
        ("strategy", "strategy", "str"), ("player-games", "n", "int"), ("wins", "k", "int"),
        ("win rate", "rate", "pct"), ("95% CI", ("lo", "hi"), "ci_pct"), ("1/N", "fair", "pct"),
        ("p vs 1/N", "p_fair", "p")]))
    rt = rating.merge(scores[S.GROUP + ["strategy", "mean", "lo", "hi"]].rename(
        columns={"lo": "s_lo", "hi": "s_hi", "mean": "score_mean"}), on=S.GROUP + ["strategy"], how="left") \
        if len(rating) else rating
    if len(rt):
        sec.table(make_table("tab-ratings", "Ratings (Bradley-Terry, Elo scale) and mean score",
                             _order_variants(rt, baseline), [
            ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("strategy", "strategy", "str"), ("rating", "rating", "f1"), ("95% CI", ("lo", "hi"), "ci1"),
            ("games", "games", "int"), ("wins", "wins", "int"), ("mean score", "score_mean", "f2"),
            ("score 95% CI", ("s_lo", "s_hi"), "ci")],
            note="Each game counts as a win of its winner over every other player. Intervals come "
                 "from the Fisher information and are somewhat narrow with 3-4 players, whose "
                 "comparisons within one game are correlated."))
    if len(pairs):
        sec.table(make_table("tab-pairings", "Head to head: share of meetings in which the strategy "
                             "finished ahead of the opponent", _order_variants(pairs, baseline), [
            ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("strategy", "strategy", "str"), ("opponent", "opponent", "str"), ("meetings", "n", "int"),
            ("ahead", "k", "int"), ("rate", "rate", "pct"), ("95% CI", ("lo", "hi"), "ci_pct")]))
    sec.table(make_table("tab-scores", "Score distribution per strategy", _order_variants(scores, baseline), [
        ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
        ("strategy", "strategy", "str"), ("n", "n", "int"), ("mean", "mean", "f2"),
        ("95% CI", ("lo", "hi"), "ci"), ("sd", "sd", "f2"), ("10%", "q10", "f1"), ("25%", "q25", "f1"),
        ("median", "median", "f1"), ("75%", "q75", "f1"), ("90%", "q90", "f1")], collapsed=True))
    return sec


def seats_section(rd: ReportData, start: Callable[[], None]) -> Section:
    from nesim.report import figures as F

    start()
    groups, baseline, main_variant = rd.groups, rd.baseline, rd.main_variant
    seats = rd.seats
    balance = S.seat_balance(seats)
    sec = Section("seats", "Seats",
                  "Win rate by seat (seat 0 = start player) against 1/N, with 95% intervals. "
                  "Balance = 1 - the largest gap between two seats' win rates (1 = perfectly fair).")
    for game, n in groups:
        if n == 1:
            continue
        v = main_variant(game, n)
        s = _sel(seats, game, n, v)
        b = _sel(balance, game, n, v)
        if len(s):
            sec.figure(F.seats_figure(f"fig-seats-{_slug(game, n)}", f"{_group_label(game, n)} ({v})", s,
                                      float(b["balance"].iloc[0]) if len(b) else float("nan")))
    if len(balance):
        sec.table(make_table("tab-balance", "Seat balance", _order_variants(balance, baseline), [
            ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("balance", "balance", "f3"), ("95% CI", ("balance_lo", "balance_hi"), "ci"),
            ("best seat", "best_seat", "int"), ("worst seat", "worst_seat", "int"),
            ("gap", "gap", "pct"), ("games", "games", "int")],
            note="The interval is that of the best-minus-worst seat difference; choosing the seats "
                 "from the data makes the balance look a little worse than it is."))
        sec.table(make_table("tab-seats", "Win rate by seat", _order_variants(seats, baseline), [
            ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("seat", "seat", "int"), ("games", "n", "int"), ("win rate", "rate", "pct"),
            ("95% CI", ("lo", "hi"), "ci_pct"), ("1/N", "fair", "pct"), ("p vs 1/N", "p_fair", "p")]))
    else:
        sec.p("No multiplayer games.")
    return sec


def cards_section(rd: ReportData, start: Callable[[], None]) -> Section:
    start()
    return _cards_section(rd.cards, rd.groups, rd.main_variant, rd.mirror_share, rd.card_set_of)


def pacing_section(rd: ReportData, start: Callable[[], None]) -> Section:
    from nesim.report import figures as F

    start()
    groups, baseline, main_variant = rd.groups, rd.baseline, rd.main_variant
    pace = S.read_pacing(rd.dirs)
    sec = Section("pacing", "Pacing",
                  "Per round, means with 95% bands (mean ± 1.96 SE): players' money, household "
                  "money after payday (one value per game), workers, hand size, buildings, wages "
                  "paid that round, unpaid wage cards (cumulative) and the value of buildings sold "
                  "at payday. Baseline variants.")
    main_pace = pd.concat([_sel(pace, g, n, main_variant(g, n)) for g, n in groups], ignore_index=True) \
        if len(pace) else pace
    games_present = [g for g in ("progress", "mecenat", "glory") if g in set(main_pace.get("game", []))] \
        if len(main_pace) else []
    if len(games_present) > 1:
        sec.h3("The games compared")
        sec.figure(F.games_pacing_figure("fig-pacing-games", main_pace))
    for game in sorted(set(main_pace["game"]) if len(main_pace) else [], key=lambda g: GAME_ORDER.get(g, 9)):
        sec.figure(F.pacing_figure(f"fig-pacing-{_slug(game)}", str(game).capitalize(),
                                   main_pace[main_pace["game"] == game]))
    if len(pace):
        last = pace.sort_values("round").groupby(S.GROUP + ["metric"], observed=True).tail(1)
        sec.table(make_table("tab-pacing-end", "Pacing: last round", _order_variants(last, baseline), [
            ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("metric", "metric", "str"), ("round", "round", "int"), ("n", "n", "int"),
            ("mean", "mean", "f2"), ("95% band", ("lo", "hi"), "ci"), ("sd", "sd", "f2")]))
        sec.table(make_table("tab-pacing", "Pacing: every round", _order_variants(pace, baseline), [
            ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("metric", "metric", "str"), ("round", "round", "int"), ("n", "n", "int"),
            ("mean", "mean", "f2"), ("95% band", ("lo", "hi"), "ci"), ("sd", "sd", "f2")],
            collapsed=True, max_rows=5000))
    else:
        sec.p("The datasets hold no per-round rows.")
    return sec


def score_components_section(rd: ReportData, start: Callable[[], None]) -> Section:
    from nesim.report import figures as F

    start()
    groups, baseline, main_variant = rd.groups, rd.baseline, rd.main_variant
    comps = S.score_components(rd.players, penalty=rd.penalty_of)
    sec = Section("scores", "Score components",
                  "Mean points of each component of the final score per strategy, with 95% "
                  "intervals: building points, bonus points (end-game cards), money, VP-token points, "
                  "the unpaid-wage penalty (negative) and anything else. In points, not as a share of "
                  "the mean score, which is meaningless when that mean is near 0. Strategy (all) = "
                  "every player-game of the group.")
    main_comps = pd.concat([_sel(comps, g, n, main_variant(g, n)) for g, n in groups], ignore_index=True)
    sec.figure(F.components_figure("fig-score-components", main_comps))
    sec.table(make_table("tab-components", "Score components", _order_variants(comps, baseline), [
        ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
        ("strategy", "strategy", "str"), ("component", "component", "str"), ("n", "n", "int"),
        ("mean points", "mean", "f2"), ("95% CI", ("lo", "hi"), "ci")]))
    return sec


def solo_section(rd: ReportData, start: Callable[[], None]) -> Section | None:
    from nesim.report import figures as F

    baseline = rd.baseline
    solo = S.solo_clear_rates(rd.players)
    if not len(solo):
        return None
    start()
    sec = Section("solo", "Solo", "Solo games: share of games cleared (the target score reached), "
                                  "with 95% Wilson intervals, per game, variant and strategy.")
    solo = _order_variants(solo, baseline)
    sec.figure(F.solo_figure("fig-solo", solo))
    sec.table(make_table("tab-solo", "Solo clear rate", solo, [
        ("game", "game", "str"), ("variant", "variant", "str"), ("strategy", "strategy", "str"),
        ("games", "n", "int"), ("cleared", "k", "int"), ("clear rate", "rate", "pct"),
        ("95% CI", ("lo", "hi"), "ci_pct"), ("mean score", "mean_score", "f1")]))
    return sec


def sweeps_section(rd: ReportData, start: Callable[[], None]) -> Section | None:
    from nesim.report import figures as F

    groups, baseline, games, mirror_share = rd.groups, rd.baseline, rd.games, rd.mirror_share
    mirror_only = _mirror_only_variants(mirror_share, baseline)
    compared = lambda df: _drop_groups(df, mirror_only)
    compared_games = compared(games)
    n_variants = {(g, n): len(_distinct(_sel(compared_games, g, n)["variant"])) for g, n in groups}
    if not any(v > 1 for v in n_variants.values()):
        return None
    start()
    sw = S.sweep_comparison(compared(rd.players), baseline, tables={
        "strategy_win_rates": compared(rd.win), "seat_win_rates": compared(rd.seats),
        "score_summary": compared(rd.scores), "card_stats": compared(rd.cards)})
    sec = Section("sweeps", "Sweeps",
                  f"Each variant against the baseline <code>{html.escape(baseline)}</code> of the "
                  "same game and player count: differences with 95% intervals (Newcombe for rates, "
                  "normal for means) and two-sided p-values, Holm-corrected within each table "
                  "and (game, player count). <span class=\"flagged\">Highlighted</span> rows "
                  "(flag = yes) differ by more than their uncertainty after that correction.")
    n_flags = sum(int(t["flag"].sum()) for t in sw.values() if len(t) and "flag" in t)
    sec.p(f"{n_flags} flagged difference(s) in all.")
    if mirror_only:
        names = sorted({v for _, _, v in mirror_only})
        sec.p(f"Not compared with the baseline: {', '.join(names)}. Every seat of those games plays "
              "the same strategy while the baseline mixes strategies, so their differences would "
              "measure the line-up, not the cards or rules; their games give the Cards section its "
              "mirror-game values.")
    for game, n in groups:
        if n_variants[(game, n)] < 2:
            continue
        st = _sel(sw["strategy_win"], game, n)
        bal = _sel(sw["balance"], game, n) if len(sw["balance"]) else sw["balance"]
        if len(st):
            sec.figure(F.sweep_figure(f"fig-sweep-{_slug(game, n)}", _group_label(game, n), st, bal))
    common = [("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str")]
    diffcols = [("difference", "diff", "dpct"), ("95% CI", ("lo", "hi"), "ci_pct"), ("p", "p", "p"),
                ("Holm p", "p_adj", "p"), ("flag", "flag", "bool")]
    meancols = [("difference", "diff", "signed"), ("95% CI", ("lo", "hi"), "ci"), ("p", "p", "p"),
                ("Holm p", "p_adj", "p"), ("flag", "flag", "bool")]
    specs = [
        ("strategy_win", "Win rate per strategy", [("strategy", "strategy", "str"), ("baseline", "rate_b", "pct"),
                                                   ("variant rate", "rate", "pct")], diffcols),
        ("balance", "Seat balance", [("baseline", "value_b", "f3"), ("variant value", "value", "f3")],
         diffcols),
        ("seat_win", "Win rate per seat", [("seat", "seat", "int"), ("baseline", "rate_b", "pct"),
                                           ("variant rate", "rate", "pct")], diffcols),
        ("score", "Mean score per strategy", [("strategy", "strategy", "str"), ("baseline", "value_b", "f2"),
                                              ("variant mean", "value", "f2")], meancols),
        ("card_build", "Card build rates", [("card", "card", "str"), ("baseline", "rate_b", "pct"),
                                            ("variant rate", "rate", "pct")], diffcols),
        ("card_value", "Card marginal values (log-odds, within strategy)", [("card", "card", "str"),
                                                          ("baseline", "value_b", "signed"),
                                                          ("variant value", "value", "signed")], meancols),
    ]
    for key, caption, cols, dcols in specs:
        t = sw.get(key)
        if t is None or not len(t):
            continue
        sec.table(make_table(f"tab-sweep-{_slug(key)}", f"Sweep: {caption}", t, common + cols + dcols,
                             flag="flag", note="Flagged rows first.",
                             collapsed=key in ("card_build", "card_value", "seat_win")))
    return sec



def sensitivity_report_section(rd: ReportData, start: Callable[[], None]) -> Section | None:
    """A sweep's [sensitivity] knobs (nesim/report/sensitivity.py); the first builds are read only
    when a dataset has such knobs (card_edge figures need them)."""
    from nesim.report.sensitivity import sensitivity_section

    if not any(isinstance(m.get("sensitivity"), dict) for m in rd.manifests):
        return None
    return sensitivity_section(rd.manifests, rd.players, rd.games, S.read_first_builds(rd.dirs), rd.baseline,
                               lambda message: start())


def decisions_report_section(rd: ReportData, start: Callable[[], None]) -> Section | None:
    """The decisions of a sweep run with --until-decided (nesim/report/sensitivity.py)."""
    from nesim.report.sensitivity import decisions_section

    section = decisions_section(rd.dirs, rd.manifests)
    if section is not None:
        start()
    return section


def ladder_report_section(rd: ReportData, start: Callable[[], None]) -> Section | None:
    """A sweep's [ladder] rungs side by side (nesim/report/ladder.py)."""
    from nesim.report.ladder import ladder_section

    return ladder_section(rd.dirs, rd.manifests, lambda message: start())


# The report's sections in order, each (progress name, function). A new section is one more
# function and one more entry here.
SECTIONS: list[tuple[str, Callable[[ReportData, Callable[[], None]], Section | None]]] = [
    ("overview", overview_section),
    ("strategies", strategies_section),
    ("seats", seats_section),
    ("cards", cards_section),
    ("pacing", pacing_section),
    ("score components", score_components_section),
    ("solo", solo_section),
    ("sweeps", sweeps_section),
    ("sensitivity", sensitivity_report_section),
    ("decisions", decisions_report_section),
    ("skill ladder", ladder_report_section),
]


def _render(sections: list[Section], dirs: list[str], warnings: list[str], template: str = "report.html.j2",
            **context) -> str:
    """The page of ``sections``; another page (the tune report) names its own template, which
    extends report.html.j2, and passes what its heading needs in ``context``."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("nesim.report", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]),
                             trim_blocks=True, lstrip_blocks=True)
    tpl = env.get_template(template)
    from nesim import __version__ as version
    n_fig = sum(len(s.figures) for s in sections)
    return tpl.render(sections=sections, datasets=dirs, warnings=warnings, n_figures=n_fig, version=version,
                      generated=_dt.datetime.now().strftime("%Y-%m-%d %H:%M"), Markup=jinja2.utils.markupsafe.Markup,
                      **context)


def _temporary_beside(out_path: Path, folder: Path, option: str = "--out") -> tuple[int, str]:
    """A new hidden temporary file in ``folder`` named after the report (fd, path)."""
    try:
        return tempfile.mkstemp(prefix="." + out_path.name + ".", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise NesimError(f"{option} {out_path}: cannot write ({exc.strerror or exc})") from None


def check_writable(out_path: Path, option: str = "--out") -> None:
    """Refuses an output the report could not be written to, before any work: by creating (and
    removing) a temporary file where the report will be written."""
    if out_path.is_dir():
        raise NesimError(f"{option} {out_path}: is a directory")
    folder = next((p for p in (out_path.parent, *out_path.parent.parents) if p.exists()), Path("."))
    fd, tmp = _temporary_beside(out_path, folder, option)
    os.close(fd)
    os.unlink(tmp)


def _write(out_path: Path, text: str, option: str = "--out") -> None:
    folder = out_path.parent if str(out_path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NesimError(f"{option} {out_path}: cannot write ({exc.strerror or exc})") from None
    fd, tmp = _temporary_beside(out_path, folder, option)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, out_path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise NesimError(f"{option} {out_path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
