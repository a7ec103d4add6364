"""The ``nesim tune`` report: the baseline against the proposal on every target, with intervals,
and how the search went. Presentation only: the figures come from the search's result
(nesim/tune.py, whose numbers nesim/stats.py computed); tables, style and page are the report's
own (nesim/report/build.py, templates/tune.html.j2 extends report.html.j2)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from nesim.report.build import Section, _render, make_table
from nesim.report.figures import Figure, _errbars, _figure, plt

VERDICT_COLORS = {"met": "#55a868", "missed": "#c44e52", "open": "#999999"}
PERCENT_TARGETS = ("card_value", "seat_balance")  # fractions, shown in % / pp


def _knob_text(v) -> str:
    if isinstance(v, str):
        try:
            v = json.loads(v)
        except ValueError:
            return v
    if isinstance(v, float) and float(v).is_integer():
        v = int(v)
    return json.dumps(v) if isinstance(v, list) else str(v)


def _shown(df: pd.DataFrame) -> pd.DataFrame:
    """Figures on the scale they are read in: card values in pp, seat win rates in %, scores as is."""
    df = df.copy()
    scale = np.where(df["target"].isin(PERCENT_TARGETS), 100.0, 1.0)
    for c in ("value", "lo", "hi", "band_lo", "band_hi"):
        df[c] = df[c].astype(float) * scale
    return df


def _label(r) -> str:
    what = {"card_value": "card value (pp)", "seat_balance": "win rate (%)", "winning_score": "winning score"}
    item = f" {r['item']}" if r["item"] else ""
    return f"{str(r['game']).capitalize()} {int(r['n_players'])}p{item}: {what[r['target']]}"


def targets_figure(both: pd.DataFrame) -> Figure:
    """Each figure of the baseline and the proposal with its interval, over its band."""
    def draw():
        rows = both.drop_duplicates(["target", "game", "n_players", "item"]).reset_index(drop=True)
        fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(rows) + 1.2))
        for i, r in rows.iterrows():
            ax.add_patch(plt.Rectangle((r["band_lo"], i - 0.35), r["band_hi"] - r["band_lo"], 0.7,
                                       color="#dfeedd", zorder=0))
        for who, dy, color in (("baseline", -0.15, "#8c8c8c"), ("proposal", 0.15, "#2b5d8a")):
            sub = both[both["who"] == who].set_index(["target", "game", "n_players", "item"])
            idx = [tuple(x) for x in rows[["target", "game", "n_players", "item"]].to_numpy()]
            sel = sub.reindex(idx)
            _errbars(ax, np.arange(len(rows)) + dy, sel["value"], sel["lo"], sel["hi"], color=color)
            ax.plot([], [], "o", color=color, label=who)
        ax.set_yticks(range(len(rows)), [_label(r) for _, r in rows.iterrows()])
        ax.invert_yaxis()
        ax.legend(loc="best", fontsize=8)
        ax.set_title("Targets: baseline and proposal (green: the band)")
        fig.tight_layout()
        return fig

    return _figure("fig-tune-targets", "Each target figure of the baseline and of the proposal with its 95% interval, "
                   "drawn over the target band",
                   "Points: estimate; bars: 95% interval; shaded: the target band. Figures on different scales "
                   "share the axis only row by row.", draw)


def search_figure(trials: pd.DataFrame, proposal: int) -> Figure:
    """Loss and games of each candidate in the order evaluated."""
    def draw():
        fig, (a1, a2) = plt.subplots(2, 1, figsize=(7.5, 4.6), sharex=True)
        colors = [VERDICT_COLORS.get(v, "#999999") for v in trials["verdict"]]
        a1.scatter(trials["trial"], trials["loss"], c=colors, s=22, zorder=3)
        a1.plot(trials["trial"], trials["loss"].cummin(), color="#2b5d8a", lw=1, label="best so far")
        p = trials[trials["trial"] == proposal]
        a1.scatter(p["trial"], p["loss"], s=120, facecolors="none", edgecolors="#222", label="proposal", zorder=4)
        a1.set_ylabel("loss (band widths outside)")
        a1.legend(loc="best", fontsize=8)
        a2.bar(trials["trial"], trials["games"], color=colors)
        a2.set_ylabel("games per player count")
        a2.set_xlabel("candidate (green met, red missed the targets)")
        fig.tight_layout()
        return fig

    return _figure("fig-tune-search", "Loss and games played of each candidate in the order the search evaluated them",
                   "Top: each candidate's loss (0 = every estimate inside its band) and the best so far; "
                   "bottom: the games it played before its verdict was decided (racing).", draw)


def tune_report_html(result) -> str:
    """The whole page of a tune result (nesim.tune.TuneResult) as HTML text."""
    spec, trials = result.spec, result.trials
    base, prop = result.baseline, result.proposal
    row = lambda n: trials.loc[trials["trial"] == n].iloc[0]
    b, p = row(base), row(prop)

    sec = Section("proposal", "Proposal")
    sec.intro = (f"Candidate {prop} {'meets every target' if result.proposal_meets else 'is the closest found: no candidate met every target'}; "
                 f"{len(trials)} candidates evaluated, {result.stopped}. Among the candidates that met the targets the "
                 "proposal moves the fewest knobs, then the least (in units of each knob's range).")
    knobs = pd.DataFrame([{"knob": k.key, "range": (" / ".join(_knob_text(c) for c in k.choices) if k.choices
                                                     else f"{_knob_text(k.low)} to {_knob_text(k.high)}"),
                           "baseline": _knob_text(b[k.key]), "proposal": _knob_text(p[k.key]),
                           "changed": _knob_text(b[k.key]) != _knob_text(p[k.key])} for k in spec.knobs])
    sec.table(make_table("tab-tune-knobs", "Knobs: baseline and proposal", knobs,
                         [("knob", "knob", "str"), ("searched", "range", "str"), ("baseline", "baseline", "str"),
                          ("proposal", "proposal", "str")], flag="changed", note="Changed knobs are highlighted."))

    tsec = Section("targets", "Targets")
    tsec.intro = ("Every target figure of the baseline and of the proposal, with 95% intervals, at the games each "
                  "played (all candidates play the same seeds). Met: the interval lies inside the band; "
                  "missed: wholly outside; open: across an edge.")
    figs = _shown(result.figures)
    both = pd.concat([figs[figs["trial"] == base].assign(who="baseline"),
                      figs[figs["trial"] == prop].assign(who="proposal")], ignore_index=True)
    keys = ["target", "game", "n_players", "item"]
    wide = both[both["who"] == "baseline"].merge(both[both["who"] == "proposal"], on=keys + ["band_lo", "band_hi"],
                                                  suffixes=("_b", "_p"), how="outer")
    wide["games_b"], wide["games_p"] = int(b["games"]), int(p["games"])
    wide["missed"] = wide["status_p"] != "met"
    tsec.table(make_table("tab-tune-targets", "Targets: baseline against proposal", wide,
                          [("target", "target", "str"), ("game", "game", "str"), ("players", "n_players", "int"),
                           ("item", "item", "str"), ("band", ("band_lo", "band_hi"), "ci1"),
                           ("baseline", "value_b", "f1"), ("95% CI", ("lo_b", "hi_b"), "ci1"),
                           ("status", "status_b", "str"), ("games", "games_b", "int"),
                           ("proposal", "value_p", "f1"), ("95% CI ", ("lo_p", "hi_p"), "ci1"),
                           ("status ", "status_p", "str"), ("games ", "games_p", "int")],
                          flag="missed", note="Card values in win-rate points, seat win rates in %. "
                          "Rows the proposal does not meet by its interval are highlighted."))
    tsec.figure(targets_figure(both))

    ssec = Section("search", "The search")
    ssec.intro = (f"An Optuna study (TPE sampler, seed {spec.seed}) proposed candidates; each played rungs of "
                  f"{', '.join(f'{g:,}' for g in spec.rungs())} games per player count and stopped at the first "
                  "rung where its verdict was decided (racing). Candidate 0 is the baseline.")
    ssec.figure(search_figure(trials, prop))
    cols = [("candidate", "trial", "int"), ("role", "role", "str")]
    cols += [(k.key, k.key, "str") for k in spec.knobs]
    cols += [("games", "games", "int"), ("verdict", "verdict", "str"), ("decided by", "decided_by", "str"),
             ("loss", "loss", "f3"), ("knobs moved", "n_changed", "int"), ("change", "change", "f2")]
    shown = trials.copy()
    for k in spec.knobs:
        shown[k.key] = shown[k.key].map(_knob_text)
    shown["is_proposal"] = shown["trial"] == prop
    ssec.table(make_table("tab-tune-trials", "Every candidate evaluated", shown, cols, flag="is_proposal",
                          note="The proposal is highlighted. Change: each moved knob's move in units of its range."))
    sections = [sec, tsec, ssec]
    return _render(sections, [], [], template="tune.html.j2", spec_path=spec.path, n_candidates=len(trials))
