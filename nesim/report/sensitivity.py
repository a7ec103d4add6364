"""The report's sections on issue 42's sweeps: one-step sensitivity (a tornado chart per figure)
and the variants of a sweep run until decided (which stopped early, why, and the games each
needed). Each section is one function that takes the tables it needs; the numbers come from
:mod:`nesim.stats`, the decisions from the manifest the runner wrote."""

from __future__ import annotations

import html
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from nesim import stats as S
from nesim.report.build import Section, _group_label, _slug, make_table


def sensitivity_section(manifests: list[dict], players: pd.DataFrame, games: pd.DataFrame,
                        builds: pd.DataFrame | None, baseline: str,
                        say: Callable[[str], None] = lambda m: None) -> Section | None:
    """Each knob of a sweep's ``[sensitivity]`` one step down and up: its paired effect on each
    figure, with intervals and Holm (or BH) control, and a tornado chart per figure. None when no
    dataset was swept with ``[sensitivity]``. ``games`` needs the ``seed`` column (for pairing)."""
    effects = [_effects(i, m, players, games, builds, baseline) for i, m in enumerate(manifests)
               if isinstance(m.get("sensitivity"), dict)]
    effects = [e for e in effects if len(e)]
    if not effects:
        return None
    say("sensitivity")
    eff = pd.concat(effects, ignore_index=True)
    controls = sorted({m["sensitivity"].get("control", "holm") for m in manifests if isinstance(m.get("sensitivity"), dict)})
    control = " / ".join({"holm": "Holm", "bh": "Benjamini-Hochberg"}.get(c, c) for c in controls)
    sec = Section("sensitivity", "Sensitivity",
                  f"Each knob of the sweep's <code>[sensitivity]</code> moved one step down and one step up "
                  f"from the baseline <code>{html.escape(baseline)}</code>, and the effect of each step on "
                  "each figure: the mean paired difference from the baseline, game against the game of "
                  "the same seed, with a 95% Student's t interval and the paired t-test's p-value, "
                  f"adjusted ({control}) within each figure, game and player count. Rates in percent "
                  "and their effects in percentage points; scores in points. The longest bars are the knobs that matter; a hatched bar "
                  "is not distinguishable from no effect after the adjustment.")
    for (game, n, figure), sub in eff.groupby(["game", "n_players", "figure"], sort=True):
        sec.figure(tornado_figure(f"fig-tornado-{_slug(game, n, figure)}",
                                  f"{_group_label(game, n)}: {figure}", sub))
    shown = eff.assign(**{c: np.where(eff["unit"] == "rate", 100 * eff[c], eff[c])
                          for c in ("value_b", "value", "diff", "lo", "hi")},
                       unit_shown=np.where(eff["unit"] == "rate", "pp", "points"))
    sec.table(make_table("tab-sensitivity", "Sensitivity: one step down and up", shown, [
        ("game", "game", "str"), ("players", "n_players", "int"), ("figure", "figure", "str"),
        ("knob", "knob", "str"), ("step", "direction", "str"), ("value", "value_shown", "str"),
        ("paired games", "pairs", "int"), ("baseline", "value_b", "f2"), ("variant", "value", "f2"),
        ("effect", "diff", "signed"), ("95% CI", ("lo", "hi"), "ci"), ("unit", "unit_shown", "str"),
        ("p", "p", "p"), ("adjusted p", "p_adj", "p"), ("flag", "flag", "bool")], flag="flag",
        note="Flagged rows differ from the baseline after the adjustment."))
    return sec


def _effects(index: int, manifest: dict, players: pd.DataFrame, games: pd.DataFrame,
             builds: pd.DataFrame | None, baseline: str) -> pd.DataFrame:
    """The paired effects of one dataset's sensitivity variants, with their knob and direction."""
    spec = manifest["sensitivity"]
    figures = [S.parse_figure(f) for f in spec.get("figures", [])]
    steps = {}
    for k in spec.get("knobs", []):
        for direction in ("down", "up"):
            steps[k[direction]] = {"knob": k["knob"], "direction": direction,
                                   "value_shown": f"{_value(k['baseline'])} → {_value(k[direction + '_value'])}"}
    present = set(games["variant"].astype(str))
    variants = [v for v in steps if v in present]
    if not variants or baseline not in present or not figures:
        return pd.DataFrame()
    per_game = S.paired_figures(players, games, figures, builds)
    per_game = per_game[per_game["dataset"] == index]
    eff = S.paired_effects(per_game, baseline, variants, figures, method=spec.get("control", "holm"))
    for col in ("knob", "direction", "value_shown"):
        eff[col] = [steps[v][col] for v in eff["variant"]]
    return eff


def _value(v) -> str:
    if isinstance(v, list):
        return "[" + ",".join(_value(x) for x in v) + "]"
    return f"{v:g}" if isinstance(v, float) else str(v)


def tornado_figure(fig_id: str, title: str, eff: pd.DataFrame):
    """One bar per knob and direction from 0 to its effect, with its 95% interval; knobs sorted
    by their largest effect, the largest on top."""
    from matplotlib.patches import Patch

    from nesim.report.figures import _figure, plt

    scale = 100.0 if (eff["unit"] == "rate").all() else 1.0
    unit = "percentage points" if scale == 100.0 else "points"
    size = eff.groupby("knob")["diff"].apply(lambda d: float(np.nanmax(np.abs(d))))
    knobs = list(size.sort_values().index)  # smallest at the bottom

    def draw():
        fig, ax = plt.subplots(figsize=(8, 0.55 * max(len(knobs), 2) + 1.4))
        for direction, offset, color in (("down", -0.18, "#4c72b0"), ("up", 0.18, "#dd8452")):
            sub = eff[eff["direction"] == direction].set_index("knob")
            for y, k in enumerate(knobs):
                if k not in sub.index:
                    continue
                r = sub.loc[k]
                d, lo, hi = scale * r["diff"], scale * r["lo"], scale * r["hi"]
                ax.barh(y + offset, d, height=0.34, color=color, hatch=None if r["flag"] else "//",
                        alpha=1.0 if r["flag"] else 0.45, edgecolor=color)
                ax.errorbar([d], [y + offset], xerr=[[d - lo], [hi - d]], fmt="none", color="k", capsize=2, lw=1)
        ax.axvline(0, color="k", lw=1)
        ax.set_yticks(range(len(knobs)), knobs)
        ax.set_xlabel(f"effect on the figure, {unit} (95% interval; hatched = not significant)")
        ax.legend(handles=[Patch(color="#4c72b0", label="one step down"), Patch(color="#dd8452", label="one step up")],
                  loc="best", fontsize=8)
        ax.set_title(title)
        fig.tight_layout()
        return fig

    return _figure(fig_id, f"{title}: tornado chart of the one-step effects",
                   f"{title}: the effect of moving each knob one step down (blue) and up (orange) "
                   "from the baseline, paired game by game, with 95% intervals.", draw)


def decisions_section(dirs: Sequence[str], manifests: list[dict]) -> Section | None:
    """The variants of a sweep run with ``--until-decided``: the decision on each, the games it
    needed against its cap, whether it stopped early and why. None when no dataset was run so."""
    rows = []
    for d, m in zip(dirs, manifests):
        decisions = m.get("decisions")
        if not isinstance(decisions, dict):
            continue
        for r in decisions.values():
            if isinstance(r, dict):
                rows.append({"dataset": d, **r})
    if not rows:
        return None
    df = pd.DataFrame(rows)
    for c in ("estimate", "lo", "hi"):
        df[c] = df[c] if c in df else np.nan
    rate = np.array([S.parse_figure(f).unit == "rate" for f in df["figure"]])
    for c in ("estimate", "lo", "hi"):  # rates in percentage points, as everywhere in the report
        df[c] = np.where(rate, 100 * df[c].astype(float), df[c].astype(float))
    df["unit"] = np.where(rate, "pp", "points")
    df["stopped_early"] = df["games"] < df["max_games"]
    df["why"] = np.where(df["stopped_early"], "stopped early: " + df["reason"].astype(str), df["reason"].astype(str))
    base = df[df["status"] == "baseline"]
    played = int(df["games"].sum())
    fixed = int(df["max_games"].sum())
    sec = Section("decisions", "Sweep run until decided",
                  "Each variant played its games in batches beside the baseline of its game and player "
                  "count, which plays the same seeds, and stopped once the always-valid confidence "
                  "sequence of its paired difference from the baseline excluded 0 (it differs) or lay "
                  "within the margin (no difference that matters); the error rate is shared among the "
                  "variants (Bonferroni), and holds however often the sequence is looked at. "
                  "The baseline plays as long as one of its variants does.")
    sec.p(f"{played:,} games played, against {fixed:,} for the same sweep at its cap "
          f"({fixed / max(played, 1):.1f} times as many); {int(df['stopped_early'].sum() - base['stopped_early'].sum())} "
          f"of {len(df) - len(base)} variants stopped early.")
    cols = [("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("figure", "figure", "str"), ("decision", "status", "str"), ("games needed", "games", "int"),
            ("cap", "max_games", "int"), ("difference", "estimate", "signed"),
            ("confidence sequence", ("lo", "hi"), "ci"), ("unit", "unit", "str"),
            ("stopped early and why", "why", "str")]
    if len(set(df["dataset"])) > 1:
        cols.insert(0, ("dataset", "dataset", "str"))
    sec.table(make_table("tab-decisions", "Decisions, games needed and why each variant stopped", df, cols))
    return sec
