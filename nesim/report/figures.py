"""The report's figures: matplotlib (Agg backend) drawn from the tidy tables of nesim.stats.

Every function returns a :class:`Figure` holding the PNG as a ``data:`` URI, an id and alt text, so
the HTML needs no external file.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")  # no display, no GUI toolkit; must precede pyplot
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from nesim.stats import PACING_METRICS  # noqa: E402

GAME_COLORS = {"progress": "#1f77b4", "mecenat": "#d62728", "glory": "#2ca02c"}
N_STYLES = {1: ":", 2: "-", 3: "--", 4: "-."}
METRIC_LABELS = {"money": "players' money", "household": "household money", "workers": "workers",
                 "hand": "hand size", "buildings": "buildings", "wages_paid": "wages paid",
                 "unpaid_wages": "unpaid wage cards (cum.)", "sold": "value sold at payday"}
COMPONENT_COLORS = {"building_points": "#4c72b0", "bonus_points": "#55a868", "money": "#c4ad66",
                    "vp_points": "#8172b2", "unpaid_penalty": "#c44e52", "other": "#999999"}
STYLE = {"figure.dpi": 100, "axes.grid": True, "grid.alpha": 0.3, "axes.spines.top": False,
         "axes.spines.right": False, "font.size": 9, "axes.titlesize": 10}


# boxplot's ``vert`` is deprecated from matplotlib 3.10, whose ``orientation`` replaces it
_HORIZONTAL = ({"orientation": "horizontal"}
               if tuple(int(x) for x in matplotlib.__version__.split(".")[:2]) >= (3, 10)
               else {"vert": False})


@dataclass
class Figure:
    id: str
    alt: str
    caption: str
    src: str  # data:image/png;base64,...


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(fig_id: str, alt: str, caption: str, draw) -> Figure:
    with plt.rc_context(STYLE):
        fig = draw()
        return Figure(fig_id, alt, caption, _png(fig))


def _errbars(ax, y, rate, lo, hi, color="#4c72b0", horizontal=True):
    rate, lo, hi = (np.asarray(a, dtype=float) for a in (rate, lo, hi))
    err = np.vstack([rate - lo, hi - rate])
    if horizontal:
        ax.errorbar(rate, y, xerr=err, fmt="o", color=color, capsize=3, ms=4)
    else:
        ax.errorbar(y, rate, yerr=err, fmt="o", color=color, capsize=3, ms=4)


def strategies_figure(fig_id: str, title: str, win: pd.DataFrame, players: pd.DataFrame,
                      rating: pd.DataFrame) -> Figure:
    """Win rate with interval against 1/N, score distribution, Bradley-Terry rating."""
    order = list(win.sort_values("rate", ascending=False)["strategy"].astype(str))

    def draw():
        fig, axes = plt.subplots(1, 3, figsize=(12, 0.45 * len(order) + 1.8))
        y = np.arange(len(order))[::-1]
        w = win.set_index(win["strategy"].astype(str)).loc[order]
        ax = axes[0]
        ax.barh(y, w["rate"], color="#a1c4e8")
        _errbars(ax, y, w["rate"], w["lo"], w["hi"])
        ax.axvline(float(w["fair"].iloc[0]), color="k", ls="--", lw=1, label="fair share 1/N")
        ax.set_yticks(y, order)
        ax.set_xlabel("win rate (95% Wilson interval)")
        ax.legend(loc="lower right", fontsize=8)
        ax = axes[1]
        data = [players.loc[players["strategy"].astype(str) == s, "score"].to_numpy() for s in order]
        ax.boxplot(data, positions=y, widths=0.6, showfliers=False, **_HORIZONTAL)
        ax.set_yticks(y, order)
        ax.set_xlabel("final score (box: quartiles, whiskers 1.5 IQR)")
        ax = axes[2]
        if len(rating):
            r = rating.set_index(rating["strategy"].astype(str)).reindex(order)
            _errbars(ax, y, r["rating"], r["lo"], r["hi"], color="#dd8452")
            ax.axvline(1500, color="k", ls="--", lw=1)
        ax.set_yticks(y, order)
        ax.set_xlabel("Bradley-Terry rating, Elo scale (95% interval)")
        fig.suptitle(title)
        fig.tight_layout()
        return fig

    return _figure(fig_id, f"{title}: win rate, score distribution and rating per strategy",
                   f"{title}. Left: win rate per strategy with 95% interval, dashed line 1/N. "
                   "Middle: score distribution. Right: rating (1500 = average strategy).", draw)


def seats_figure(fig_id: str, title: str, seats: pd.DataFrame, balance: float) -> Figure:
    def draw():
        fig, ax = plt.subplots(figsize=(5.5, 3))
        x = seats["seat"].to_numpy()
        ax.bar(x, seats["rate"], color="#a1c4e8")
        _errbars(ax, x, seats["rate"], seats["lo"], seats["hi"], horizontal=False)
        ax.axhline(float(seats["fair"].iloc[0]), color="k", ls="--", lw=1, label="1/N")
        ax.set_xticks(x, [f"seat {s}" + (" (start)" if s == 0 else "") for s in x])
        ax.set_ylabel("win rate (95% interval)")
        ax.set_title(f"{title} - balance {balance:.3f}")
        ax.legend(fontsize=8)
        fig.tight_layout()
        return fig

    return _figure(fig_id, f"{title}: win rate by seat against 1/N",
                   f"{title}: win rate by seat with 95% interval; dashed line is the fair share 1/N. "
                   "Balance = 1 - largest gap between two seats.", draw)


ESTIMATE_STYLES = {  # marginal values of cards: (column, label, colour, marker)
    "within": ("coef", "within strategy", "#4c72b0", "o"),
    "mirror": ("mirror", "mirror games", "#dd8452", "s"),
    "pooled": ("pooled", "pooled (card and builder mixed)", "#999999", "x"),
}


def cards_figure(fig_id: str, title: str, cards: pd.DataFrame, mirror_from: str = "") -> Figure:
    """Each card's marginal value within strategy, from mirror games and pooled; its build rate."""
    c = cards.dropna(subset=["coef"]).sort_values("coef")
    shown = [k for k in ("within", "mirror", "pooled") if c[ESTIMATE_STYLES[k][0]].notna().any()]
    offsets = dict(zip(shown, np.linspace(-0.22, 0.22, len(shown)) if len(shown) > 1 else [0.0]))

    def draw():
        fig, axes = plt.subplots(1, 2, figsize=(12, 0.26 * max(len(c), 4) + 1.8), sharey=True,
                                 gridspec_kw={"width_ratios": [3, 1.4]})
        y = np.arange(len(c))
        ax = axes[0]
        for k in shown:
            col, label, color, marker = ESTIMATE_STYLES[k]
            v = c[col].to_numpy(float)
            if k == "pooled":  # a point only: for comparison, not an answer
                ax.plot(v, y + offsets[k], marker, color=color, ms=5, ls="none", label=label)
                continue
            err = np.vstack([v - c[col + "_lo"].to_numpy(float), c[col + "_hi"].to_numpy(float) - v])
            ax.errorbar(v, y + offsets[k], xerr=err, fmt=marker, color=color, capsize=2, ms=4, label=label)
        ax.axvline(0, color="k", lw=1)
        ax.set_yticks(y, c["name"].astype(str))
        ax.set_ylim(-0.7, len(c) - 0.3)
        ax.set_xlabel("marginal value: log-odds of winning when built (95% interval)")
        ax.legend(fontsize=8, loc="lower right")
        ax = axes[1]
        _errbars(ax, y, 100 * c["build_rate"], 100 * c["build_lo"], 100 * c["build_hi"], color="#55a868")
        ax.set_xlabel("build rate, % of player-games (95% interval)")
        fig.suptitle(title)
        fig.tight_layout()
        return fig

    mirror = (f" Orange: from mirror games ({mirror_from}), every seat the same strategy."
              if "mirror" in shown else " No mirror games for these cards and rules.")
    return _figure(fig_id, f"{title}: marginal value of each card within strategy, from mirror games "
                   "and pooled, and its build rate",
                   f"{title}. Left: the marginal value of each card (logistic regression of winning on "
                   "the cards built and the seat). Blue: within strategy (also a term per strategy), "
                   f"the order of the rows.{mirror} Grey crosses: pooled over strategies, which "
                   "credits a card with the strength of the players who like it. Right: how often the "
                   "card is built.", draw)


def pacing_figure(fig_id: str, title: str, pace: pd.DataFrame) -> Figure:
    """One panel per metric, one line (with its 95% band) per player count."""
    metrics = [m for m in PACING_METRICS if m in set(pace["metric"])]

    def draw():
        cols = 4
        rows = int(np.ceil(len(metrics) / cols))
        fig, axes = plt.subplots(rows, cols, figsize=(12, 2.6 * rows), squeeze=False)
        for ax, m in zip(axes.flat, metrics):
            for n, sub in pace[pace["metric"] == m].groupby("n_players"):
                sub = sub.sort_values("round")
                line, = ax.plot(sub["round"], sub["mean"], N_STYLES.get(int(n), "-"), label=f"{n}p")
                ax.fill_between(sub["round"], sub["lo"], sub["hi"], color=line.get_color(), alpha=0.25)
            ax.set_title(METRIC_LABELS.get(m, m))
            ax.set_xlabel("round")
        for ax in list(axes.flat)[len(metrics):]:
            ax.set_visible(False)
        axes.flat[0].legend(fontsize=8)
        fig.suptitle(title)
        fig.tight_layout()
        return fig

    return _figure(fig_id, f"{title}: economy pacing per round",
                   f"{title}: per-round means with 95% bands (mean +- 1.96 SE), one line per player "
                   "count.", draw)


def games_pacing_figure(fig_id: str, pace: pd.DataFrame,
                        metrics=("household", "money", "workers", "buildings")) -> Figure:
    """Progress, Mecenat and Glory on shared axes: one colour per game, one dash per player count."""
    metrics = [m for m in metrics if m in set(pace["metric"])]

    def draw():
        fig, axes = plt.subplots(1, len(metrics), figsize=(3.2 * len(metrics), 3.2), squeeze=False)
        for ax, m in zip(axes[0], metrics):
            groups = pace[pace["metric"] == m].groupby(["game", "n_players"], observed=True)
            order = sorted(groups.groups, key=lambda k: (list(GAME_COLORS).index(k[0])
                                                         if k[0] in GAME_COLORS else 9, k))
            for game, n in order:
                sub = groups.get_group((game, n)).sort_values("round")
                color = GAME_COLORS.get(str(game), None)
                ax.plot(sub["round"], sub["mean"], N_STYLES.get(int(n), "-"), color=color,
                        label=f"{game} {n}p")
                ax.fill_between(sub["round"], sub["lo"], sub["hi"], color=color, alpha=0.2)
            ax.set_title(METRIC_LABELS.get(m, m))
            ax.set_xlabel("round")
        axes[0][0].legend(fontsize=7)
        fig.suptitle("Progress, Mecenat and Glory side by side")
        fig.tight_layout()
        return fig

    return _figure(fig_id, "Pacing of the games compared: household money, players' money, workers "
                   "and buildings per round",
                   "The games side by side (baseline variants): per-round means with 95% bands; "
                   "colour = game, dash = player count.", draw)


STRATEGY_COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b2", "#937860", "#da8bc3",
                   "#8c8c8c", "#ccb974", "#64b5cd")


def components_figure(fig_id: str, comps: pd.DataFrame) -> Figure:
    """Mean points of each score component per strategy, with 95% intervals: one panel per
    (game, players, variant) group."""
    c = comps[comps["strategy"] != "(all)"]
    panels = list(c.groupby(["game", "n_players", "variant"], sort=False, observed=True))
    strategies = list(dict.fromkeys(c["strategy"].astype(str)))
    color = {st: STRATEGY_COLORS[i % len(STRATEGY_COLORS)] for i, st in enumerate(strategies)}
    # components that are 0 everywhere (normally "other") would only add empty rows
    used = [k for k in COMPONENT_COLORS if k in set(c["component"])
            and not np.allclose(c.loc[c["component"] == k, ["mean", "lo", "hi"]].to_numpy(float), 0)]
    cols = min(3, max(len(panels), 1))
    rows = int(np.ceil(len(panels) / cols)) if panels else 1

    def draw():
        fig, axes = plt.subplots(rows, cols, figsize=(12, (0.32 * len(used) * 1.2 + 1.1) * rows + 0.6),
                                 squeeze=False, sharey=True)
        y = np.arange(len(used))[::-1]
        for ax, ((game, n, variant), sub) in zip(axes.flat, panels):
            in_panel = list(dict.fromkeys(sub["strategy"].astype(str)))
            offsets = np.linspace(-0.3, 0.3, len(in_panel)) if len(in_panel) > 1 else [0.0]
            for off, st in zip(offsets, in_panel):
                t = sub[sub["strategy"].astype(str) == st].set_index("component").reindex(used)
                _errbars(ax, y + off, t["mean"], t["lo"], t["hi"], color=color[st])
            ax.axvline(0, color="k", lw=0.8)
            ax.set_yticks(y, [k.replace("_", " ") for k in used])
            ax.set_title(f"{str(game).capitalize()} {'solo' if int(n) == 1 else f'{int(n)}p'} ({variant})")
            ax.set_xlabel("points (mean, 95% interval)")
        for ax in list(axes.flat)[len(panels):]:
            ax.set_visible(False)
        handles = [plt.Line2D([], [], marker="o", ls="none", color=color[st]) for st in strategies]
        fig.legend(handles, strategies, fontsize=8, ncol=min(len(strategies), 6), loc="lower center")
        fig.tight_layout(rect=(0, 0.5 / ((0.32 * len(used) * 1.2 + 1.1) * rows + 0.6), 1, 1))
        return fig

    return _figure(fig_id, "Score components in points per strategy",
                   "Mean points of each score component per strategy, with 95% intervals (baseline "
                   "variants): building points, bonus points of end-game cards, money, VP-token points "
                   "and the unpaid-wage penalty (negative). Components that are 0 everywhere are left "
                   "out.", draw)


def solo_figure(fig_id: str, solo: pd.DataFrame) -> Figure:
    labels = [f"{g} {v}: {s}" for g, v, s in zip(solo["game"], solo["variant"], solo["strategy"])]

    def draw():
        fig, ax = plt.subplots(figsize=(7, 0.4 * len(labels) + 1.4))
        y = np.arange(len(labels))[::-1]
        ax.barh(y, solo["rate"], color="#a1c4e8")
        _errbars(ax, y, solo["rate"], solo["lo"], solo["hi"])
        ax.set_yticks(y, labels)
        ax.set_xlim(0, 1)
        ax.set_xlabel("solo clear rate (95% interval)")
        fig.tight_layout()
        return fig

    return _figure(fig_id, "Solo clear rate per game and strategy",
                   "Share of solo games cleared, with 95% Wilson interval.", draw)


def sweep_figure(fig_id: str, title: str, strat: pd.DataFrame, balance: pd.DataFrame) -> Figure:
    """Difference from the baseline in win rate per (variant, strategy) and in seat balance, in
    percentage points like the tables."""
    s = strat.sort_values(["variant", "strategy"], ascending=False)
    labels = [f"{v}: {st}" for v, st in zip(s["variant"], s["strategy"])]

    def draw():
        fig, axes = plt.subplots(1, 2, figsize=(12, 0.3 * max(len(labels), 3) + 1.6),
                                 gridspec_kw={"width_ratios": [3, 2]})
        ax = axes[0]
        y = np.arange(len(labels))
        colors = np.where(s["flag"], "#c44e52", "#4c72b0")
        for yi, (d, lo, hi, col) in enumerate(zip(*(100 * s[c] for c in ("diff", "lo", "hi")), colors)):
            ax.errorbar([d], [yi], xerr=[[d - lo], [hi - d]], fmt="o", color=col, capsize=3, ms=4)
        ax.axvline(0, color="k", lw=1)
        ax.set_yticks(y, labels)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=7))  # few enough ticks that labels never touch
        ax.set_xlabel("win rate minus baseline, pp (95% interval; red = flagged)")
        ax = axes[1]
        if len(balance):
            b = balance.sort_values("variant", ascending=False)
            yb = np.arange(len(b))
            colors = np.where(b["flag"], "#c44e52", "#4c72b0")
            for yi, (d, lo, hi, col) in enumerate(zip(*(100 * b[c] for c in ("diff", "lo", "hi")), colors)):
                ax.errorbar([d], [yi], xerr=[[d - lo], [hi - d]], fmt="o", color=col, capsize=3, ms=4)
            ax.set_yticks(yb, b["variant"].astype(str))
            ax.axvline(0, color="k", lw=1)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
        ax.set_xlabel("seat balance minus baseline, pp (95% interval)")
        fig.suptitle(title)
        fig.tight_layout()
        return fig

    return _figure(fig_id, f"{title}: each variant against the baseline",
                   f"{title}: difference from the baseline, in percentage points, in win rate per "
                   "strategy (left) and in seat balance (right), with 95% intervals; red marks "
                   "differences flagged after the Holm correction.", draw)
