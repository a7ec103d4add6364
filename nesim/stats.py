"""Statistics over nesim datasets: rates with intervals, comparisons, ratings, card values, pacing.

Every function takes pandas DataFrames in the dataset schema (or a list of dataset directories for
the readers) and returns a tidy DataFrame: one row per estimate, with its interval. Results are
grouped by ``GROUP`` = (game, n_players, variant) throughout, because numbers from different games,
player counts or card sets are not comparable.

Conventions
- Rates come with Wilson 95% intervals (``lo``/``hi``); differences of rates with Newcombe's
  hybrid-score interval; differences of means with a normal (Welch) interval; paired differences
  (the same seeds played two ways) with Student's t interval.
- Many comparisons: a two-sided p-value per comparison, Holm-adjusted within a family (one table of
  one (game, n_players) group); ``flag`` is set when the adjusted p-value is below ``alpha``.
- Strategy ratings are Bradley-Terry strengths on the Elo scale (400/ln 10 per unit of log-strength,
  centred on 1500), so a 100-point gap means the stronger one beats the other 64% of the time.
- Card marginal values are coefficients (log-odds) of a ridge-stabilised logistic regression of
  winning on built-card indicators and seat dummies, fitted by Newton-Raphson (IRLS) in chunks so that
  millions of player-games fit in memory. The headline value also holds a term per strategy (the
  card within the strategy that built it); a second comes from mirror games alone (every seat the
  same strategy); the pooled fit without strategies, which credits a card with the strength of
  the players who like it, is kept for comparison.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import special, stats as sps

from nesim import dataset as ds
from nesim.errors import NesimError

Z95 = float(sps.norm.ppf(0.975))  # 1.959963984540054
GROUP = ["game", "n_players", "variant"]
PACING_METRICS = ("money", "household", "workers", "hand", "buildings", "wages_paid",
                  "unpaid_wages", "sold")
SCORE_COMPONENTS = ("building_points", "bonus_points", "money", "vp_points", "unpaid_penalty")
ELO_PER_LOGIT = 400.0 / math.log(10.0)
_STRING_COLUMNS = {"variant", "game", "strategy", "card", "strategies"}
_SEAT_BITS = 4  # a player-game key is game_id << 4 | seat
_SLICE = 1 << 20  # rows of a long table worked on at once where whole columns would cost memory


# ============================================================================ reading datasets
# Datasets are read through nesim.dataset, their one reader (manifest, done parts, schema, errors).
# Tables that grow with the games (builds, rounds) are reduced a part at a time in Arrow, so only
# their aggregates sit in memory; players and games are read whole, only the columns asked for.


def read_manifest(path: str | Path) -> dict:
    """The manifest of a dataset directory (see :func:`nesim.dataset.read_manifest`)."""
    return ds.read_manifest(path)


def _paths(paths: str | Path | Sequence[str | Path]) -> list:
    return [paths] if isinstance(paths, (str, Path)) else list(paths)


def to_frame(table) -> pd.DataFrame:
    """An Arrow table as a DataFrame whose string columns are categoricals with sorted categories
    (the same whatever the parts or the order the rows came in)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for i, name in enumerate(table.column_names):
        if name in _STRING_COLUMNS and not pa.types.is_dictionary(table.schema.field(i).type):
            table = table.set_column(i, name, pc.dictionary_encode(table[name]))
    # column by column, freeing each Arrow column once converted: never both copies whole
    df = table.unify_dictionaries().to_pandas(split_blocks=True, self_destruct=True)
    del table
    for c in df.columns:
        if c in _STRING_COLUMNS:
            col = df[c] if isinstance(df[c].dtype, pd.CategoricalDtype) else df[c].astype("category")
            df[c] = col.cat.reorder_categories(sorted(col.cat.categories))
    return df


def read_table(paths: str | Path | Sequence[str | Path], table: str,
               columns: Sequence[str] | None = None,
               reduce: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> pd.DataFrame:
    """One table of one or more datasets as a DataFrame, reading only ``columns``.

    String columns become categoricals. With several datasets, ``game_id`` is made unique across
    them (dataset index in the high bits), so joins on game_id stay correct. ``reduce`` is applied to
    each part file as it is read (games never straddle parts), which keeps memory bounded."""
    paths = _paths(paths)
    cols = list(columns) if columns is not None else list(ds.SCHEMAS[table].names)
    if reduce is None:
        return to_frame(ds.read_whole(paths, table, cols))
    frames = [reduce(to_frame(ds.dataset_game_ids(part, i, len(paths))))
              for i, path in enumerate(paths) for part in ds.read_parts(path, table, cols)]
    if not frames:
        return pd.DataFrame({c: pd.Series(dtype="object") for c in cols})
    out = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    for c in out.columns:
        if c in _STRING_COLUMNS:
            col = out[c] if isinstance(out[c].dtype, pd.CategoricalDtype) else out[c].astype("category")
            out[c] = col.cat.reorder_categories(sorted(col.cat.categories))
    return out


def read_reduced(paths: str | Path | Sequence[str | Path], table: str, columns: Sequence[str],
                 reduce: Callable) -> "pa.Table":
    """``reduce`` (an Arrow table to a smaller one) applied to each part of a table of several
    datasets as it is read, the results stacked: memory holds one part and the aggregates."""
    import pyarrow as pa

    paths = _paths(paths)
    parts = [reduce(ds.dataset_game_ids(part, i, len(paths)))
             for i, path in enumerate(paths) for part in ds.read_parts(path, table, list(columns))]
    if not parts:
        return reduce(ds.SCHEMAS[table].empty_table().select(list(columns)))
    return pa.concat_tables(parts, promote_options="permissive")


def first_builds_arrow(builds) -> "pa.Table":
    """:func:`first_builds` of an Arrow table: one row per (player-game, card built) with the
    round of its first construction, in small types (the card as a dictionary code)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    keys = [c for c in GROUP + ["game_id", "seat", "card"] if c in builds.column_names]
    out = builds.group_by(keys, use_threads=False).aggregate([("round", "min")])
    out = out.set_column(out.column_names.index("round_min"), "first_round",
                         pc.cast(out["round_min"], pa.int8()))
    for c in ("game", "variant", "card"):  # a few distinct names: 2-byte codes, not 4-byte ones
        if c in out.column_names:
            out = out.set_column(out.column_names.index(c), c, pc.cast(
                pc.dictionary_encode(out[c]) if not pa.types.is_dictionary(out.schema.field(c).type) else out[c],
                pa.dictionary(pa.int16(), pa.string())))
    return out


def read_first_builds(paths: str | Path | Sequence[str | Path]) -> pd.DataFrame:
    """The first builds (:func:`first_builds`, without ``times``) of datasets on disk, reduced
    part by part so that the builds table never sits whole in memory."""
    cols = GROUP + ["game_id", "seat", "card", "round"]
    return to_frame(read_reduced(paths, "builds", cols, first_builds_arrow))


def first_builds(builds: pd.DataFrame) -> pd.DataFrame:
    """One row per (player-game, card built) with the round of its first construction and count."""
    keys = [c for c in GROUP + ["game_id", "seat", "card"] if c in builds.columns]
    g = builds.groupby(keys, observed=True, sort=False)["round"]
    return g.agg(first_round="min", times="size").reset_index()


# ============================================================================ rates and comparisons


def wilson_interval(successes, n, z: float = Z95):
    """Wilson score interval for k successes out of n (vectorised); NaN where n == 0."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2 = z * z
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
        lo = np.clip(centre - half, 0.0, 1.0)
        hi = np.clip(centre + half, 0.0, 1.0)
    lo = np.where(k <= 0, 0.0, lo)
    hi = np.where(k >= n, 1.0, hi)
    bad = ~(n > 0)
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def rate_frame(k, n, z: float = Z95) -> pd.DataFrame:
    """Columns n, k, rate, lo, hi for arrays of successes and trials."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    lo, hi = wilson_interval(k, n, z)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = k / n
    return pd.DataFrame({"n": n.astype(np.int64), "k": k.astype(np.int64), "rate": rate,
                         "lo": lo, "hi": hi})


def newcombe_diff(k1, n1, k2, n2, z: float = Z95):
    """Difference p1 - p2 with Newcombe's hybrid-score interval (method 10). Returns (d, lo, hi)."""
    k1, n1, k2, n2 = (np.asarray(a, dtype=float) for a in (k1, n1, k2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1, z)
    l2, u2 = wilson_interval(k2, n2, z)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def two_proportion_pvalue(k1, n1, k2, n2):
    """Two-sided p-value of the pooled two-proportion z-test (1 when there is no variation)."""
    k1, n1, k2, n2 = (np.asarray(a, dtype=float) for a in (k1, n1, k2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = (k1 + k2) / (n1 + n2)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        z = (k1 / n1 - k2 / n2) / se
        p = 2 * sps.norm.sf(np.abs(z))
    p = np.where(se > 0, p, np.where((n1 > 0) & (n2 > 0), 1.0, np.nan))
    return p


def mean_diff(m1, se1, m2, se2, z: float = Z95):
    """Difference of two independent means with its normal interval and two-sided p-value.

    Returns (d, se, lo, hi, p)."""
    m1, se1, m2, se2 = (np.asarray(a, dtype=float) for a in (m1, se1, m2, se2))
    d = m1 - m2
    se = np.sqrt(se1 ** 2 + se2 ** 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = 2 * sps.norm.sf(np.abs(d / se))
    p = np.where(se > 0, p, np.where(d == 0, 1.0, 0.0))
    p = np.where(np.isnan(d), np.nan, p)
    return d, se, d - z * se, d + z * se, p


def paired_mean_diff(x, y, z: float | None = None):
    """Mean of the paired differences x - y (the same games played two ways), with Student's t
    interval (or a normal one with ``z``) and the two-sided p-value of the paired t-test.

    Pairing removes what both share (in solo, the deck order of each seed), so the interval is
    narrower than ``mean_diff`` of the two means would give. Returns (d, se, lo, hi, p)."""
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    n = d.size
    if n < 2:
        raise ValueError("a paired difference needs two or more pairs")
    mean = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(n))
    crit = float(sps.t.ppf(0.975, n - 1)) if z is None else z
    if se > 0:
        p = float(2 * sps.t.sf(abs(mean / se), n - 1))
    else:
        p = 1.0 if mean == 0 else 0.0
    return mean, se, mean - crit * se, mean + crit * se, p


def holm(pvalues) -> np.ndarray:
    """Holm step-down adjusted p-values (NaNs are left out of the family and stay NaN)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if m == 0:
        return out
    order = np.argsort(q, kind="mergesort")
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * q[order]))
    res = np.empty(m)
    res[order] = adj
    out[ok] = res
    return out


def benjamini_hochberg(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (false discovery rate); NaNs stay NaN."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = sps.false_discovery_control(p[ok], method="bh")
    return out


def flag_family(df: pd.DataFrame, family: Sequence[str], p_col: str = "p", alpha: float = 0.05,
                method: str = "holm") -> pd.DataFrame:
    """Adds p_adj (Holm or BH within each family of rows) and flag (p_adj < alpha)."""
    adjust = holm if method == "holm" else benjamini_hochberg
    df = df.copy()
    df["p_adj"] = np.nan
    if len(df):
        if family:
            for _, idx in df.groupby(list(family), observed=True, sort=False).groups.items():
                df.loc[idx, "p_adj"] = adjust(df.loc[idx, p_col].to_numpy())
        else:
            df["p_adj"] = adjust(df[p_col].to_numpy())
    df["flag"] = (df["p_adj"] < alpha).fillna(False).astype(bool)
    return df


# ============================================================================ helpers


def _groups(df: pd.DataFrame, by=GROUP):
    by = [c for c in by if c in df.columns]
    if not len(df):
        return
    for c in ("strategy", "card"):
        if c in df.columns and not isinstance(df[c].dtype, pd.CategoricalDtype):
            df = df.assign(**{c: df[c].astype("category")})
    grouped = df.groupby(by, observed=True, sort=True)
    if grouped.ngroups == 1:  # the frame itself, rather than a copy of it
        key = next(iter(grouped.indices))
        yield dict(zip(by, key if isinstance(key, tuple) else (key,))), df
        return
    for key, sub in grouped:
        yield dict(zip(by, key if isinstance(key, tuple) else (key,))), sub


def _multiplayer(players: pd.DataFrame) -> pd.DataFrame:
    """The rows of multiplayer games: the frame itself when there are no others (no copy)."""
    multi = players["n_players"].to_numpy() > 1
    return players if multi.all() else players[multi]


def _outcome(players: pd.DataFrame) -> np.ndarray:
    """Win in multiplayer games; solo_cleared in solo games (there is nobody to beat)."""
    win = players["win"].to_numpy(dtype=bool)
    if "solo_cleared" in players.columns:
        solo = players["n_players"].to_numpy() == 1
        win = np.where(solo, players["solo_cleared"].to_numpy(dtype=bool), win)
    return win


def game_matrix(sub: pd.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Players of one (game, n_players) group as (n_games, n_players) arrays by seat.

    Games with a missing player row are dropped. Returns (game_ids, {column: 2-d array})."""
    n = int(sub["n_players"].iloc[0])
    s = in_seat_order(sub)
    sizes = _run_lengths(s["game_id"].to_numpy())
    if not (sizes == n).all():
        s = s[np.repeat(sizes, sizes) == n]
    gid = s["game_id"].to_numpy().reshape(-1, n)[:, 0]
    out = {}
    for c in columns:
        col = s[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            out[c] = col.cat.codes.to_numpy().reshape(-1, n)
        else:
            out[c] = col.to_numpy().reshape(-1, n)
    return gid, out


def in_seat_order(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` sorted by (game_id, seat); the frame itself when it already is, as the datasets'
    rows come (a sorted copy of millions of player rows is a large share of the memory)."""
    key = (df["game_id"].to_numpy(np.int64) << _SEAT_BITS) | df["seat"].to_numpy(np.int64)
    if len(key) < 2 or bool((key[1:] > key[:-1]).all()):
        return df
    return df.sort_values(["game_id", "seat"], kind="mergesort")


def _run_lengths(values: np.ndarray) -> np.ndarray:
    """Lengths of the runs of equal consecutive values (the rows of each game, rows in game order)."""
    if not len(values):
        return np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    return np.diff(np.r_[starts, len(values)])


def _count_pairs(i: np.ndarray, j: np.ndarray, k: int) -> np.ndarray:
    """k x k matrix counting the pairs (i[t], j[t]) (bincount: much faster than np.add.at)."""
    return np.bincount(np.asarray(i, np.int64) * k + np.asarray(j, np.int64),
                       minlength=k * k).reshape(k, k).astype(float)


# ============================================================================ strategies


def strategy_win_rates(players: pd.DataFrame) -> pd.DataFrame:
    """Win rate per strategy (player-games won / played) against the fair share 1/N."""
    y = pd.Series(_outcome(players), index=players.index, name="_y")  # beside, not in, a copy
    g = y.groupby([players[c] for c in GROUP + ["strategy"]], observed=True).agg(k="sum", n="size").reset_index()
    r = rate_frame(g["k"], g["n"])
    out = pd.concat([g[GROUP + ["strategy"]], r], axis=1)
    out["fair"] = 1.0 / out["n_players"].astype(float)
    out["p_fair"] = [sps.binomtest(int(k), int(n), f).pvalue if n else np.nan
                     for k, n, f in zip(out["k"], out["n"], out["fair"])]
    return out.sort_values(GROUP + ["rate"], ascending=[True] * 3 + [False], ignore_index=True)


def pairings(players: pd.DataFrame) -> pd.DataFrame:
    """Head-to-head: for each ordered pair of different strategies at one table, the share of
    their meetings in which the first finished ahead of the second (lower rank), with interval."""
    rows = []
    for key, sub in _groups(_multiplayer(players)):
        n = key["n_players"]
        _, m = game_matrix(sub, ["strategy", "rank"])
        cats = sub["strategy"].cat.categories
        k = len(cats)
        ahead = np.zeros((k, k))
        meet = np.zeros((k, k))
        for a in range(n):
            for b in range(n):
                if a == b:
                    continue
                sa, sb = m["strategy"][:, a], m["strategy"][:, b]
                diff = sa != sb
                meet += _count_pairs(sa[diff], sb[diff], k)
                win = diff & (m["rank"][:, a] < m["rank"][:, b])
                ahead += _count_pairs(sa[win], sb[win], k)
        i, j = np.nonzero(meet)
        r = rate_frame(ahead[i, j], meet[i, j])
        r.insert(0, "opponent", np.asarray(cats)[j])
        r.insert(0, "strategy", np.asarray(cats)[i])
        for c in reversed(GROUP):
            r.insert(0, c, key[c])
        rows.append(r)
    if not rows:
        return pd.DataFrame(columns=GROUP + ["strategy", "opponent", "n", "k", "rate", "lo", "hi"])
    return pd.concat(rows, ignore_index=True).sort_values(
        GROUP + ["strategy", "rate"], ascending=[True] * 4 + [False], ignore_index=True)


def score_summary(players: pd.DataFrame, by: Sequence[str] = ("strategy",)) -> pd.DataFrame:
    """Mean score with SE and 95% interval, SD and quartiles, per group and strategy."""
    keys = GROUP + list(by)
    g = players.groupby(keys, observed=True)["score"]
    out = g.agg(n="size", mean="mean", sd="std", q10=lambda s: s.quantile(0.1),
                q25=lambda s: s.quantile(0.25), median="median",
                q75=lambda s: s.quantile(0.75), q90=lambda s: s.quantile(0.9)).reset_index()
    out["se"] = out["sd"] / np.sqrt(out["n"])
    out["lo"] = out["mean"] - Z95 * out["se"]
    out["hi"] = out["mean"] + Z95 * out["se"]
    return out


def bradley_terry(wins: np.ndarray, prior: float = 0.5, tol: float = 1e-10,
                  max_iter: int = 100_000) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry log-strengths from a matrix ``wins[i, j]`` = times i beat j (MM algorithm).

    ``prior`` pseudo-wins are added each way to every pair that met, which keeps strengths finite
    when a strategy never won. Returns (theta centred on 0, covariance of theta) where the
    covariance is the pseudo-inverse of the Fisher information (sum-to-zero constraint)."""
    w = np.asarray(wins, dtype=float).copy()
    k = w.shape[0]
    met = (w + w.T) > 0
    w = w + prior * met
    np.fill_diagonal(w, 0.0)
    nij = w + w.T
    total = w.sum(axis=1)
    p = np.ones(k)
    active = nij.sum(axis=1) > 0
    for _ in range(max_iter):
        denom = (nij / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(active, total / np.where(denom > 0, denom, 1.0), 1.0)
        new = new / np.exp(np.mean(np.log(new[active]))) if active.any() else new
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            p = new
            break
        p = new
    theta = np.log(p)
    theta = theta - theta[active].mean() if active.any() else theta
    pi = p[:, None] / (p[:, None] + p[None, :])
    v = nij * pi * pi.T
    info = np.diag(v.sum(axis=1)) - v
    cov = np.linalg.pinv(info)
    return theta, cov


def ratings(players: pd.DataFrame, prior: float = 0.5) -> pd.DataFrame:
    """Bradley-Terry ratings per group on the Elo scale (1500 = average strategy).

    Each game gives its winner a win over every other player (players of the same strategy are
    not compared). The interval is rating +- 1.96 SE from the Fisher information; since one game
    yields several correlated comparisons it is somewhat narrow in games of 3-4 players."""
    rows = []
    for key, sub in _groups(_multiplayer(players)):
        n = key["n_players"]
        _, m = game_matrix(sub, ["strategy", "rank", "win"])
        cats = np.asarray(sub["strategy"].cat.categories)
        k = len(cats)
        w = np.zeros((k, k))
        games = np.zeros(k)
        wins = np.zeros(k)
        s, won = m["strategy"], m["win"].astype(bool)
        for a in range(n):
            games += np.bincount(s[:, a].astype(np.int64), minlength=k)
            wins += np.bincount(s[:, a][won[:, a]].astype(np.int64), minlength=k)
            for b in range(n):
                if a != b:
                    sel = won[:, a] & (s[:, a] != s[:, b])
                    w += _count_pairs(s[sel, a], s[sel, b], k)
        present = games > 0
        if present.sum() < 2:
            continue
        idx = np.nonzero(present)[0]
        theta, cov = bradley_terry(w[np.ix_(idx, idx)], prior=prior)
        se = np.sqrt(np.clip(np.diag(cov), 0, None))
        r = pd.DataFrame({"strategy": cats[idx], "games": games[idx].astype(np.int64),
                          "wins": wins[idx].astype(np.int64), "theta": theta, "theta_se": se,
                          "rating": 1500 + ELO_PER_LOGIT * theta, "rating_se": ELO_PER_LOGIT * se})
        r["lo"] = r["rating"] - Z95 * r["rating_se"]
        r["hi"] = r["rating"] + Z95 * r["rating_se"]
        for c in reversed(GROUP):
            r.insert(0, c, key[c])
        rows.append(r)
    if not rows:
        return pd.DataFrame(columns=GROUP + ["strategy", "games", "wins", "theta", "theta_se",
                                             "rating", "rating_se", "lo", "hi"])
    return pd.concat(rows, ignore_index=True).sort_values(
        GROUP + ["rating"], ascending=[True] * 3 + [False], ignore_index=True)


# ============================================================================ logistic regression


@dataclass
class LogitResult:
    coef: np.ndarray
    se: np.ndarray
    n_iter: int
    converged: bool
    mean_weight: float  # mean of mu(1-mu): multiplies a coefficient into a probability effect


def logistic_regression(X: np.ndarray, y: np.ndarray, ridge: float = 1.0,
                        penalize: np.ndarray | None = None, tol: float = 1e-8,
                        max_iter: int = 60, chunk: int = 65_536) -> LogitResult:
    """Logistic regression by Newton-Raphson (IRLS) with an L2 penalty ``ridge/2 * |beta|^2``.

    X may be a compact integer matrix (e.g. uint8 indicators); it is converted to float chunk by
    chunk. ``penalize`` is a boolean mask of penalised coefficients (default: all but column 0, the
    intercept). The small ridge keeps estimates finite under (quasi-)separation and is negligible
    with many observations. SEs are the square roots of the diagonal of the inverse penalised
    Hessian at the optimum."""
    X = np.asarray(X)
    y = np.asarray(y, dtype=float)
    nobs, k = X.shape
    if penalize is None:
        penalize = np.ones(k, dtype=bool)
        penalize[0] = False
    lam = ridge * np.asarray(penalize, dtype=float)
    beta = np.zeros(k)

    def passes(b):
        H = np.zeros((k, k))
        g = np.zeros(k)
        ll = 0.0
        wsum = 0.0
        for i in range(0, nobs, chunk):
            xc = X[i:i + chunk].astype(np.float64)
            yc = y[i:i + chunk]
            eta = xc @ b
            mu = special.expit(eta)
            wt = mu * (1 - mu)
            xw = xc * np.sqrt(wt)[:, None]
            H += xw.T @ xw  # (not (xc * wt).T @ xc, which some BLAS builds run 100x slower)
            g += xc.T @ (yc - mu)
            ll += np.sum(yc * eta - np.logaddexp(0.0, eta))
            wsum += wt.sum()
        return H + np.diag(lam), g - lam * b, ll - 0.5 * np.sum(lam * b * b), wsum

    H, g, obj, wsum = passes(beta)
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        step = np.linalg.solve(H, g)
        t = 1.0
        while True:
            nb = beta + t * step
            H2, g2, obj2, wsum2 = passes(nb)
            if obj2 >= obj - 1e-12 * abs(obj) or t < 1e-6:
                break
            t /= 2
        beta, H, g, obj, wsum = nb, H2, g2, obj2, wsum2
        if np.max(np.abs(t * step)) < tol:
            converged = True
            break
    cov = np.linalg.inv(H)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    return LogitResult(beta, se, it, converged, wsum / max(nobs, 1))


# ============================================================================ cards


def card_info(game: str, variant_cards: Iterable[dict] | None = None) -> pd.DataFrame:
    """key, name, cost, asset_value of a game's buildings, with a variant's card table applied
    (``variant_cards``: dicts with key and any of cost/asset_value/copies, as in the manifest)."""
    from nesim.cards import load_game

    data = load_game(game)
    df = pd.DataFrame({"card": [b.key for b in data.buildings], "name": [b.name for b in data.buildings],
                       "cost": [b.cost for b in data.buildings],
                       "asset_value": [b.asset_value for b in data.buildings],
                       "copies": [b.copies for b in data.buildings]})
    if variant_cards:
        upd = {c["key"]: c for c in variant_cards if isinstance(c, dict) and "key" in c}
        for col in ("cost", "asset_value", "copies"):
            df[col] = [upd.get(k, {}).get(col, v) for k, v in zip(df["card"], df[col])]
        new = [c for k, c in upd.items() if k not in set(df["card"])]  # a variant's new cards
        if new:
            df = pd.concat([df, pd.DataFrame({
                "card": [c["key"] for c in new], "name": [c.get("name", c["key"]) for c in new],
                **{col: [c.get(col, 0) for c in new] for col in ("cost", "asset_value", "copies")}})],
                ignore_index=True)
    return df


def mirror_games(players: pd.DataFrame) -> np.ndarray:
    """Per player row: whether its game is a mirror game, every seat played by the same strategy
    (multiplayer only). Mirror games compare a card with the same player not building it, so
    their card values are not mixed with who built the card."""
    if not len(players) or "strategy" not in players.columns:
        return np.zeros(len(players), dtype=bool)
    codes = pd.factorize(players["strategy"])[0]  # integers: no string per row
    gid = players["game_id"].to_numpy()
    order = None if len(gid) < 2 or bool((gid[1:] >= gid[:-1]).all()) else np.argsort(gid, kind="stable")
    if order is not None:
        gid, codes = gid[order], codes[order]
    sizes = _run_lengths(gid)
    starts = np.cumsum(sizes) - sizes
    # a game is a mirror game when no row's strategy differs from the row before it in the game
    differs = np.r_[False, codes[1:] != codes[:-1]]
    differs[starts] = False
    one_kind = np.repeat(np.logical_or.reduceat(differs, starts) == 0 if len(starts) else differs, sizes)
    if order is not None:
        one_kind[order] = one_kind.copy()
    return one_kind & (players["n_players"].to_numpy() > 1)


@dataclass
class _CardRows:
    """The player-games of one group as regression inputs: built-card indicators and the rest."""
    X: np.ndarray          # (player-games, cards) uint8, 1 = built at least once
    y: np.ndarray          # won (solo: cleared)
    seat: np.ndarray
    strategy: np.ndarray   # strategy labels (str)
    mirror: np.ndarray     # the row's game is a mirror game
    first_sum: np.ndarray  # per card: sum and sum of squares of the first round built
    first_sq: np.ndarray


def _card_rows(sub: pd.DataFrame, b: pd.DataFrame | None, names: list[str]) -> _CardRows:
    """Regression inputs of one group's players (``sub``) and first builds (``b``)."""
    sub = in_seat_order(sub)
    nrow, ncard = len(sub), len(names)
    col_of = {c: i for i, c in enumerate(names)}
    X = np.zeros((nrow, ncard), dtype=np.uint8)
    first_sum = np.zeros(ncard)
    first_sq = np.zeros(ncard)
    if b is not None and len(b) and nrow:
        pkey = (sub["game_id"].to_numpy(np.int64) << _SEAT_BITS) | sub["seat"].to_numpy(np.int64)
        bc = b["card"].astype("category")
        # categories may hold other games' cards too (datasets combined): those map to -1
        lookup = np.array([col_of.get(str(c), -1) for c in bc.cat.categories] + [-1], dtype=np.int64)
        codes = bc.cat.codes.to_numpy()
        gid, seat, rnd = (b[c].to_numpy() for c in ("game_id", "seat", "first_round"))
        # a slice of the builds at a time: the keys and positions of millions of builds at once
        # would take more memory than the whole regression
        for i in range(0, len(b), _SLICE):
            bkey = (gid[i:i + _SLICE].astype(np.int64) << _SEAT_BITS) | seat[i:i + _SLICE].astype(np.int64)
            pos = np.clip(np.searchsorted(pkey, bkey), 0, nrow - 1)
            cidx = lookup[codes[i:i + _SLICE]]  # code -1 (missing) picks the trailing -1
            ok = (pkey[pos] == bkey) & (cidx >= 0)
            X[pos[ok], cidx[ok]] = 1
            fr = rnd[i:i + _SLICE][ok].astype(float)
            first_sum += np.bincount(cidx[ok], weights=fr, minlength=ncard)
            first_sq += np.bincount(cidx[ok], weights=fr * fr, minlength=ncard)
    strategy = (_shared_strings(sub["strategy"]) if "strategy" in sub.columns
                else np.full(nrow, ""))  # unknown players: one strategy as far as we can tell
    return _CardRows(X, _outcome(sub), sub["seat"].to_numpy(), strategy, mirror_games(sub),
                     first_sum, first_sq)


def _shared_strings(col: pd.Series) -> np.ndarray:
    """A column's values as an object array of str, one str object per distinct value (millions
    of rows would otherwise hold a str object each)."""
    codes, levels = pd.factorize(col)
    return np.asarray([str(v) for v in levels] + [""], dtype=object)[codes]  # -1 (missing): ""


def _dummies(values: np.ndarray) -> list[np.ndarray]:
    """0/1 columns for every level of ``values`` but the first (the reference level)."""
    codes, levels = pd.factorize(np.asarray(values), sort=True)  # hashing: np.unique sorts strings
    return [np.asarray(codes == i, dtype=np.uint8) for i in range(1, len(levels))]


def _card_values(rows: _CardRows, by_strategy: bool, ridge: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Log-odds of winning per built card from a logistic regression on every card's indicator
    plus seat dummies and, ``by_strategy``, strategy dummies (so a card is compared within the
    strategy that built it). Returns (coef, se, mean weight); NaN for a card that was built in
    every or no player-game, or when nobody (or everybody) won."""
    X, y, seat, strat = rows.X, rows.y, rows.seat, rows.strategy
    nrow, ncard = X.shape
    coef = np.full(ncard, np.nan)
    se = np.full(ncard, np.nan)
    built = X.sum(axis=0, dtype=np.int64)
    var = (built > 0) & (built < nrow)
    k = int(y.sum())
    if not (nrow and 0 < k < nrow and var.any()):
        return coef, se, np.nan
    extra = _dummies(seat) + (_dummies(strat) if by_strategy else [])
    # filled in place: a copy of X's columns and then their stacking would be two
    design = np.empty((nrow, 1 + int(var.sum()) + len(extra)), np.uint8)
    design[:, 0] = 1
    design[:, 1:1 + var.sum()] = X[:, var] if not var.all() else X
    for i, col in enumerate(extra):
        design[:, 1 + var.sum() + i] = col
    res = logistic_regression(design, y, ridge=ridge)
    coef[var] = res.coef[1:1 + var.sum()]
    se[var] = res.se[1:1 + var.sum()]
    return coef, se, res.mean_weight


def _stack_rows(parts: list[_CardRows]) -> _CardRows:
    return _CardRows(*(np.concatenate([getattr(p, f) for p in parts])
                       for f in ("X", "y", "seat", "strategy", "mirror", "first_sum", "first_sq")))


def card_stats(players: pd.DataFrame, builds: pd.DataFrame,
               cards: pd.DataFrame | Callable[[str, str], pd.DataFrame] | None = None,
               ridge: float = 1.0, card_sets: Callable[[str, str], object] | None = None) -> pd.DataFrame:
    """Per card and group: build rate, mean first round built, win rate built vs not built,
    points per construction cost, and three marginal values (log-odds of winning when built,
    from logistic regressions on all built-card indicators and seat dummies):

    - ``coef`` (with ``coef_se/lo/hi/p`` and ``marginal_pp``): within strategy. The regression
      also holds a term per strategy, so a card is compared with the same strategy not building
      it; a strong player who builds a card a lot does not make the card look strong.
    - ``mirror`` (``mirror_se/lo/hi``, ``mirror_pp``): from mirror games only (every seat the same
      strategy), the cleanest answer to "is this card worth building?". ``card_sets(game,
      variant)`` names each variant's card set and rules: mirror games of every variant of the
      same game and player count with the same card set count (e.g. a variant that only plays
      the baseline's cards with one strategy in every seat). ``mirror_games`` and
      ``mirror_strategies`` say what the estimate rests on; NaN without mirror games.
    - ``pooled`` (``pooled_se/lo/hi``): cards and seat only, as if who built the card did not
      matter; it mixes the card's value with its builder's strength (shown for comparison).

    ``builds`` may be raw or already reduced by :func:`first_builds`. ``cards``: a table (game,
    variant, card, name, cost, asset_value), or a function (game, variant) -> card_info table;
    default: the published card tables."""
    if "first_round" not in builds.columns:
        builds = first_builds(builds)
    card_set = card_sets or (lambda game, variant: variant)
    cache: dict = {}

    def info(game, variant):
        if (game, variant) not in cache:
            if cards is None:
                cache[(game, variant)] = card_info(game)
            elif callable(cards):
                cache[(game, variant)] = cards(game, variant)
            else:
                sel = cards[(cards["game"] == game) & (cards["variant"] == variant)]
                if not len(sel):
                    sel = cards[cards["game"] == game].drop_duplicates("card")
                cache[(game, variant)] = sel
        return cache[(game, variant)]

    # each group's builds are taken (copied) only while its rows are made
    bkeys = [c for c in GROUP if c in builds.columns]
    bgroups = builds.groupby(bkeys, observed=True, sort=False).indices if len(builds) else {}
    groups, b = [], None
    for key, sub in _groups(players):
        at = bgroups.get(tuple(key[c] for c in bkeys) if len(bkeys) > 1 else key[bkeys[0]])
        b = None if at is None else builds if len(at) == len(builds) else builds.iloc[at]
        table = info(key["game"], key["variant"])
        names = list(table["card"]) if len(table) else []
        if b is not None and len(b):
            names += sorted(set(map(str, pd.unique(b["card"]))) - set(names))
        groups.append((key, table, names, _card_rows(sub, b, names)))
    del builds, bgroups, b  # the rows hold what the fits need: the builds' memory is theirs now

    def mirror_pool(key, names):
        """Mirror rows of every group with this game, player count and card set, in ``names``'
        columns, and whether they all come from the group ``key`` itself."""
        parts, own = [], True
        for k2, _, names2, rows2 in groups:
            if (k2["game"], k2["n_players"]) != (key["game"], key["n_players"]) or \
                    card_set(k2["game"], k2["variant"]) != card_set(key["game"], key["variant"]) or \
                    not rows2.mirror.any():
                continue
            m = rows2.mirror
            own &= k2 is key
            pos = {c: i for i, c in enumerate(names2)}
            X = np.zeros((int(m.sum()), len(names)), dtype=np.uint8)
            for j, c in enumerate(names):
                if c in pos:
                    X[:, j] = rows2.X[m, pos[c]]
            parts.append(_CardRows(X, rows2.y[m], rows2.seat[m], rows2.strategy[m], m[m],
                                   np.zeros(len(names)), np.zeros(len(names))))
        return (_stack_rows(parts) if parts else None), own

    rows = []
    for key, table, names, cr in groups:
        nrow, ncard = cr.X.shape
        y = cr.y
        built = cr.X.sum(axis=0, dtype=np.int64)
        k_b = cr.X[y].sum(axis=0, dtype=np.int64)
        k_all = int(y.sum())
        pooled, pooled_se, pooled_w = _card_values(cr, False, ridge)
        if len(pd.unique(cr.strategy)) > 1:
            coef, se, mw = _card_values(cr, True, ridge)
        else:  # one strategy: within it is the pooled fit
            coef, se, mw = pooled, pooled_se, pooled_w
        pool, own = mirror_pool(key, names)
        if pool is not None:
            if own and cr.mirror.all():  # the group's own games, every one a mirror: fitted above
                mirror, mirror_se, mirror_w = coef, se, mw
            else:
                mirror, mirror_se, mirror_w = _card_values(pool, True, ridge)
            mirror_n = len(pool.y) // int(key["n_players"])
            mirror_strats = ", ".join(sorted(set(pool.strategy)))
        else:
            mirror = mirror_se = np.full(ncard, np.nan)
            mirror_w, mirror_n, mirror_strats = np.nan, 0, ""
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_round = cr.first_sum / built
            round_sd = np.sqrt(np.maximum(cr.first_sq / built - mean_round ** 2, 0) * built / (built - 1))
        br = rate_frame(built, np.full(ncard, nrow))
        wb_lo, wb_hi = wilson_interval(k_b, built)
        wn_lo, wn_hi = wilson_interval(k_all - k_b, nrow - built)
        d, d_lo, d_hi = newcombe_diff(k_b, built, k_all - k_b, nrow - built)
        t = table.set_index("card") if len(table) else pd.DataFrame(columns=["name", "cost", "asset_value"])
        cost = np.array([t["cost"].get(c, np.nan) if len(t) else np.nan for c in names], dtype=float)
        asset = np.array([t["asset_value"].get(c, np.nan) if len(t) else np.nan for c in names], dtype=float)
        name = [t["name"].get(c, c) if len(t) else c for c in names]
        with np.errstate(invalid="ignore", divide="ignore"):
            r = pd.DataFrame({
                "card": names, "name": name, "cost": cost, "asset_value": asset,
                "points_per_cost": np.where(cost > 0, asset / cost, np.nan),
                "player_games": nrow, "built": built, "build_rate": br["rate"],
                "build_lo": br["lo"], "build_hi": br["hi"],
                "mean_round": mean_round, "round_se": round_sd / np.sqrt(built),
                "win_built": k_b / built, "win_built_lo": wb_lo, "win_built_hi": wb_hi,
                "win_not": (k_all - k_b) / (nrow - built), "win_not_lo": wn_lo, "win_not_hi": wn_hi,
                "win_diff": d, "win_diff_lo": d_lo, "win_diff_hi": d_hi,
                "coef": coef, "coef_se": se, "coef_lo": coef - Z95 * se, "coef_hi": coef + Z95 * se,
                "coef_p": 2 * sps.norm.sf(np.abs(coef / se)),
                "marginal_pp": coef * mw,
                "mirror": mirror, "mirror_se": mirror_se, "mirror_lo": mirror - Z95 * mirror_se,
                "mirror_hi": mirror + Z95 * mirror_se, "mirror_pp": mirror * mirror_w,
                "mirror_games": mirror_n, "mirror_strategies": mirror_strats,
                "pooled": pooled, "pooled_se": pooled_se, "pooled_lo": pooled - Z95 * pooled_se,
                "pooled_hi": pooled + Z95 * pooled_se,
            })
        for c in reversed(GROUP):
            r.insert(0, c, key[c])
        rows.append(r)
    if not rows:
        return pd.DataFrame(columns=GROUP + ["card", "coef", "mirror", "pooled"])
    out = pd.concat(rows, ignore_index=True)
    return out.sort_values(GROUP + ["coef"], ascending=[True] * 3 + [False], na_position="last",
                           ignore_index=True)


# ============================================================================ seats and games


def seat_win_rates(players: pd.DataFrame) -> pd.DataFrame:
    """Win rate by seat (0 = start player) against the fair share 1/N, with a binomial test."""
    p = _multiplayer(players)
    g = p.groupby(GROUP + ["seat"], observed=True)["win"].agg(k="sum", n="size").reset_index()
    out = pd.concat([g[GROUP + ["seat"]], rate_frame(g["k"], g["n"])], axis=1)
    out["fair"] = 1.0 / out["n_players"].astype(float)
    out["p_fair"] = [sps.binomtest(int(k), int(n), f).pvalue if n else np.nan
                     for k, n, f in zip(out["k"], out["n"], out["fair"])]
    return out


def seat_balance(seat_rates: pd.DataFrame) -> pd.DataFrame:
    """Balance = 1 - the largest gap between two seats' win rates, per group, with the interval
    of that gap (Newcombe, best seat minus worst seat; the choice of seats makes it optimistic)."""
    rows = []
    for key, sub in _groups(seat_rates):
        best = sub.loc[sub["rate"].idxmax()]
        worst = sub.loc[sub["rate"].idxmin()]
        d, lo, hi = newcombe_diff(best["k"], best["n"], worst["k"], worst["n"])
        rows.append({**key, "best_seat": int(best["seat"]), "worst_seat": int(worst["seat"]),
                     "gap": float(d), "gap_lo": float(lo), "gap_hi": float(hi),
                     "balance": 1 - float(d), "balance_lo": 1 - float(hi), "balance_hi": 1 - float(lo),
                     "games": int(sub["n"].max())})
    return pd.DataFrame(rows, columns=GROUP + ["best_seat", "worst_seat", "gap", "gap_lo", "gap_hi",
                                               "balance", "balance_lo", "balance_hi", "games"])


def game_length(games: pd.DataFrame) -> pd.DataFrame:
    """Rounds played per game: mean with SE and interval, and the share of games ending early."""
    g = games.groupby(GROUP, observed=True)["rounds_played"]
    out = g.agg(games="size", mean="mean", sd="std", min="min", max="max").reset_index()
    out["se"] = out["sd"].fillna(0) / np.sqrt(out["games"])
    out["lo"] = out["mean"] - Z95 * out["se"]
    out["hi"] = out["mean"] + Z95 * out["se"]
    if "household_end" in games.columns:
        h = games.groupby(GROUP, observed=True)["household_end"].agg(household_end="mean").reset_index()
        out = out.merge(h, on=GROUP)
    return out


def tie_rate(players: pd.DataFrame) -> pd.DataFrame:
    """Share of games whose two best scores are equal (decided by the tie-break), per group."""
    rows = []
    for key, sub in _groups(_multiplayer(players)):
        _, m = game_matrix(sub, ["score"])
        s = -np.sort(-m["score"], axis=1)
        ties = int(np.sum(s[:, 0] == s[:, 1]))
        r = rate_frame([ties], [len(s)]).iloc[0].to_dict()
        rows.append({**key, "games": int(r["n"]), "ties": ties, "rate": r["rate"],
                     "lo": r["lo"], "hi": r["hi"]})
    return pd.DataFrame(rows, columns=GROUP + ["games", "ties", "rate", "lo", "hi"])


# ============================================================================ pacing


def pacing_moments(rounds: pd.DataFrame, metrics: Sequence[str] = PACING_METRICS) -> pd.DataFrame:
    """Count, sum and sum of squares of each pacing metric per (group, round): combinable across
    part files. Household money is the same for every seat, so it is taken from seat 0 only."""
    keys = GROUP + ["round"]
    parts = []
    for m in metrics:
        if m not in rounds.columns:
            continue
        sub = rounds[rounds["seat"] == 0] if m == "household" else rounds
        v = sub[m].astype(np.float64)
        g = pd.DataFrame({**{k: sub[k] for k in keys}, "v": v, "v2": v * v})
        a = g.groupby(keys, observed=True).agg(n=("v", "size"), s=("v", "sum"), s2=("v2", "sum"))
        a = a.reset_index()
        a["metric"] = m
        parts.append(a)
    if not parts:
        return pd.DataFrame(columns=keys + ["metric", "n", "s", "s2"])
    return pd.concat(parts, ignore_index=True)


def pacing_from_moments(moments: pd.DataFrame) -> pd.DataFrame:
    """Means with 95% bands (mean +- 1.96 SE) from (possibly several parts') moments."""
    keys = GROUP + ["round", "metric"]
    for c in ("game", "variant", "metric"):
        if c in moments.columns:
            moments[c] = moments[c].astype(str)
    m = moments.groupby(keys, observed=True)[["n", "s", "s2"]].sum().reset_index()
    n = m["n"].astype(float)
    mean = m["s"] / n
    var = np.maximum(m["s2"] - n * mean ** 2, 0) / np.maximum(n - 1, 1)
    se = np.sqrt(var / n)
    out = m[keys].copy()
    out["n"] = m["n"].astype(np.int64)
    out["mean"] = mean
    out["sd"] = np.sqrt(var)
    out["se"] = se
    out["lo"] = mean - Z95 * se
    out["hi"] = mean + Z95 * se
    return out.sort_values(keys, ignore_index=True)


def pacing(rounds: pd.DataFrame, metrics: Sequence[str] = PACING_METRICS) -> pd.DataFrame:
    """Per (game, n_players, variant, round, metric): n, mean, sd, se and the 95% band lo..hi."""
    return pacing_from_moments(pacing_moments(rounds, metrics))


def pacing_moments_arrow(rounds, metrics: Sequence[str] = PACING_METRICS):
    """:func:`pacing_moments` of an Arrow table (one part), computed in Arrow: one grouping for
    every metric but household money, one for household money over seat 0's rows."""
    import pyarrow as pa
    import pyarrow.compute as pc

    keys = GROUP + ["round"]
    present = [m for m in metrics if m in rounds.column_names]
    frames = []
    for rows, ms in ((rounds, [m for m in present if m != "household"]),
                     (None, [m for m in present if m == "household"])):
        if not ms:
            continue
        rows = rounds.filter(pc.equal(rounds["seat"], 0)) if rows is None else rows
        cols, aggs = {k: rows[k] for k in keys}, []
        for m in ms:
            v = pc.cast(rows[m], pa.float64())
            cols[m], cols[m + "^2"] = v, pc.multiply(v, v)
            aggs += [(m, "count"), (m, "sum"), (m + "^2", "sum")]
        a = pa.table(cols).group_by(keys, use_threads=False).aggregate(aggs)
        for m in ms:
            frames.append(pa.table({**{k: a[k] for k in keys}, "n": a[m + "_count"], "s": a[m + "_sum"],
                                    "s2": a[m + "^2_sum"], "metric": pa.array([m] * a.num_rows, pa.string())}))
    if not frames:
        return pa.table({k: pa.array([], rounds.schema.field(k).type) for k in keys}
                        | {"n": pa.array([], pa.int64()), "s": pa.array([], pa.float64()),
                           "s2": pa.array([], pa.float64()), "metric": pa.array([], pa.string())})
    return pa.concat_tables(frames, promote_options="permissive")


def read_pacing(paths: Sequence[str | Path], metrics: Sequence[str] = PACING_METRICS) -> pd.DataFrame:
    """Pacing of datasets on disk, reduced part by part (in Arrow) so that the rounds table never
    sits whole in memory."""
    cols = GROUP + ["seat", "round"] + list(metrics)
    mom = read_reduced(paths, "rounds", cols, lambda t: pacing_moments_arrow(t, metrics))
    return pacing_from_moments(to_frame(mom))


# ============================================================================ score components


def score_components(players: pd.DataFrame, penalty: Callable[[str, str], float] | float = 3,
                     by_strategy: bool = True) -> pd.DataFrame:
    """Mean of each score component in points, with SE and 95% interval, per group and strategy
    (and over all strategies, ``strategy`` = "(all)"). Not as a share of the mean score: that
    share blows up wherever the mean score is near 0, and components of both signs make it
    meaningless.

    Components: building_points, bonus_points, money, vp_points, unpaid_penalty (negative:
    -penalty x unpaid wage cards) and ``other`` (whatever the score holds beyond them; normally 0).
    ``penalty`` is the points per unpaid wage card, or a function (game, variant) -> it."""
    if callable(penalty):  # one call per (game, variant), spread over its rows
        per = np.empty(len(players))
        for (game, variant), rows in players.groupby(["game", "variant"], observed=True).indices.items():
            per[rows] = penalty(str(game), str(variant))
    else:
        per = float(penalty)
    # the components as float columns side by side, grouped as they are: a long table (one row
    # per player-game and component) would take six times the players' memory
    comps = list(SCORE_COMPONENTS)
    vals = pd.DataFrame({c: (-per * players["unpaid_wages"].astype(float) + 0.0  # + 0.0: no -0.0 for none
                             if c == "unpaid_penalty" else players[c].astype(float)) for c in comps})
    vals["other"] = players["score"].astype(float) - vals[comps].sum(axis=1)
    comps.append("other")
    frames = []
    keysets = [GROUP] + ([GROUP + ["strategy"]] if by_strategy else [])
    for keys in keysets:
        g = vals.groupby([players[k] for k in keys], observed=True, sort=False)
        n, mean, sd = g.size(), g.mean(), g.std()
        a = pd.concat([pd.DataFrame({"component": c, "n": n, "mean": mean[c], "sd": sd[c]}) for c in comps])
        a = a.reset_index()
        a["se"] = a["sd"].fillna(0) / np.sqrt(a["n"])
        if "strategy" not in keys:
            a.insert(len(GROUP), "strategy", "(all)")
        a["strategy"] = a["strategy"].astype(str)
        frames.append(a)
    out = pd.concat(frames, ignore_index=True)
    out["component"] = pd.Categorical(out["component"], categories=comps, ordered=True)
    out = out.sort_values(GROUP + ["strategy", "component"], ignore_index=True)
    out["component"] = out["component"].astype(str)
    out["lo"] = out["mean"] - Z95 * out["se"]
    out["hi"] = out["mean"] + Z95 * out["se"]
    return out[GROUP + ["strategy", "component", "n", "mean", "se", "lo", "hi"]]


# ============================================================================ solo


def solo_clear_rates(players: pd.DataFrame) -> pd.DataFrame:
    """Solo games: share cleared per game, variant and strategy, with interval; mean score."""
    p = players[players["n_players"] == 1]
    if not len(p):
        return pd.DataFrame(columns=GROUP + ["strategy", "n", "k", "rate", "lo", "hi", "mean_score"])
    g = p.groupby(GROUP + ["strategy"], observed=True).agg(
        k=("solo_cleared", "sum"), n=("solo_cleared", "size"), mean_score=("score", "mean")).reset_index()
    out = pd.concat([g[GROUP + ["strategy"]], rate_frame(g["k"], g["n"])], axis=1)
    out["mean_score"] = g["mean_score"]
    return out.sort_values(GROUP + ["rate"], ascending=[True] * 3 + [False], ignore_index=True)


# ============================================================================ sweeps


def _baseline_pairs(df: pd.DataFrame, baseline: str, keys: Sequence[str]):
    """Rows of each non-baseline variant joined to the baseline row of the same game, n_players
    and keys (suffixes _b for the baseline)."""
    df = df.copy()
    df["variant"] = df["variant"].astype(str)
    df["game"] = df["game"].astype(str)
    for k in keys:
        if isinstance(df[k].dtype, pd.CategoricalDtype):
            df[k] = df[k].astype(str)
    base = df[df["variant"] == baseline].drop(columns=["variant"])
    other = df[df["variant"] != baseline]
    return other.merge(base, on=["game", "n_players"] + list(keys), suffixes=("", "_b"))


def compare_rates(df: pd.DataFrame, baseline: str, keys: Sequence[str], k: str = "k", n: str = "n",
                  alpha: float = 0.05) -> pd.DataFrame:
    """Each variant's rate against the baseline's (same game, n_players and keys): difference
    with Newcombe interval, p-value, Holm-adjusted p within each (game, n_players), flag."""
    m = _baseline_pairs(df[GROUP + list(keys) + [k, n]], baseline, keys)
    out = m[GROUP + list(keys)].copy()
    out["baseline"] = baseline
    out["rate_b"] = m[k + "_b"] / m[n + "_b"]
    out["rate"] = m[k] / m[n]
    d, lo, hi = newcombe_diff(m[k], m[n], m[k + "_b"], m[n + "_b"])
    out["diff"], out["lo"], out["hi"] = d, lo, hi
    out["p"] = two_proportion_pvalue(m[k], m[n], m[k + "_b"], m[n + "_b"])
    out["n"], out["n_b"] = m[n], m[n + "_b"]
    return flag_family(out, ["game", "n_players"], alpha=alpha)


def compare_means(df: pd.DataFrame, baseline: str, keys: Sequence[str], mean: str = "mean",
                  se: str = "se", alpha: float = 0.05) -> pd.DataFrame:
    """Each variant's mean (with SE) against the baseline's: difference, interval, Holm flag."""
    m = _baseline_pairs(df[GROUP + list(keys) + [mean, se]], baseline, keys)
    out = m[GROUP + list(keys)].copy()
    out["baseline"] = baseline
    out["value_b"] = m[mean + "_b"]
    out["value"] = m[mean]
    d, s, lo, hi, p = mean_diff(m[mean], m[se], m[mean + "_b"], m[se + "_b"])
    out["diff"], out["se"], out["lo"], out["hi"], out["p"] = d, s, lo, hi, p
    return flag_family(out, ["game", "n_players"], alpha=alpha)


def sweep_comparison(players: pd.DataFrame, baseline: str = "baseline",
                     card_table: pd.DataFrame | None = None,
                     builds: pd.DataFrame | None = None, alpha: float = 0.05,
                     tables: dict[str, pd.DataFrame] | None = None) -> dict[str, pd.DataFrame]:
    """Every variant against the baseline of the same game and player count.

    Returns tables: strategy_win (win rate per strategy), seat_win (win rate per seat), balance
    (seat balance figure), score (mean score per strategy), card_build (build rates), card_value
    (marginal values). Each has diff, lo, hi, p, p_adj (Holm within game and player count) and
    flag. Already computed tables (keys ``strategy_win_rates``, ``seat_win_rates``,
    ``score_summary``, ``card_stats``) can be passed in ``tables`` to avoid recomputation."""
    tables = dict(tables or {})
    sw = tables.get("strategy_win_rates")
    sw = strategy_win_rates(players) if sw is None else sw
    seats = tables.get("seat_win_rates")
    seats = seat_win_rates(players) if seats is None else seats
    score = tables.get("score_summary")
    score = score_summary(players) if score is None else score
    cards = tables.get("card_stats", card_table)
    if cards is None and builds is not None:
        cards = card_stats(players, builds)
    out = {
        "strategy_win": compare_rates(sw, baseline, ["strategy"], alpha=alpha),
        "seat_win": compare_rates(seats, baseline, ["seat"], alpha=alpha),
        "score": compare_means(score, baseline, ["strategy"], alpha=alpha),
    }
    bal = seat_balance(seats)
    if len(bal):
        bal = bal.assign(se=(bal["gap_hi"] - bal["gap_lo"]) / (2 * Z95))
        out["balance"] = compare_means(bal, baseline, [], mean="balance", se="se", alpha=alpha)
    else:
        out["balance"] = pd.DataFrame(columns=GROUP + ["diff", "lo", "hi", "p", "p_adj", "flag"])
    if cards is not None and len(cards):
        c = cards.rename(columns={"built": "k", "player_games": "n"})
        out["card_build"] = compare_rates(c, baseline, ["card"], alpha=alpha)
        cv = cards.dropna(subset=["coef"])
        out["card_value"] = compare_means(cv, baseline, ["card"], mean="coef", se="coef_se", alpha=alpha)
    for name, t in out.items():
        if len(t) and "p_adj" in t.columns:
            out[name] = t.sort_values(["game", "n_players", "flag", "p_adj"],
                                      ascending=[True, True, False, True], ignore_index=True)
    return out


# ============================================================================ tune targets (nesim tune)
# Figures against a target band: the card values, seat win rates and winning scores above, each
# with its interval, and whether that interval lies inside the band, outside it, or across an edge.


def card_value_pp(cards: pd.DataFrame) -> pd.DataFrame:
    """Per group and card of :func:`card_stats`: the marginal value of building the card in
    win-rate points (a fraction: 0.03 = 3 pp) with its 95% interval. From mirror games where the
    group has them (``source`` = "mirror"), else within strategy. The interval is the log-odds
    interval times the same mean weight that turns the log-odds into points."""
    out = cards[GROUP + ["card"]].copy()
    mirror = cards["mirror"].notna().to_numpy()
    coef = np.where(mirror, cards["mirror"], cards["coef"]).astype(float)
    se = np.where(mirror, cards["mirror_se"], cards["coef_se"]).astype(float)
    pp = np.where(mirror, cards["mirror_pp"], cards["marginal_pp"]).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        weight = np.where(coef != 0, pp / coef, 0.25)  # a zero coefficient: the logistic slope at 1/2
    out["value"] = pp
    out["lo"] = pp - Z95 * se * weight
    out["hi"] = pp + Z95 * se * weight
    out["source"] = np.where(mirror, "mirror", "within strategy")
    return out.reset_index(drop=True)


def winning_score(players: pd.DataFrame) -> pd.DataFrame:
    """Mean score of each game's winner (rank 1, after the tie-break), per group, with its interval."""
    winners = players[players["rank"] == 1]
    out = score_summary(winners, by=())
    return out.rename(columns={"n": "games"})[GROUP + ["games", "mean", "se", "lo", "hi"]]


def band_status(lo, hi, band_lo, band_hi) -> np.ndarray:
    """Per figure: "met" when its interval [lo, hi] lies inside the band, "missed" when it lies
    wholly outside, "open" when it crosses an edge (or is unknown: NaN)."""
    lo, hi, band_lo, band_hi = (np.asarray(a, dtype=float) for a in (lo, hi, band_lo, band_hi))
    met = (lo >= band_lo) & (hi <= band_hi)
    missed = (hi < band_lo) | (lo > band_hi)
    return np.where(met, "met", np.where(missed, "missed", "open"))


def band_distance(value, band_lo, band_hi, unknown: float = 1.0) -> np.ndarray:
    """How far each estimate lies outside its band, in band widths (0 inside the band); ``unknown``
    for a NaN estimate (e.g. a card nobody built). A band of width 0 counts in units of 1."""
    value, band_lo, band_hi = (np.asarray(a, dtype=float) for a in (value, band_lo, band_hi))
    width = np.where(band_hi > band_lo, band_hi - band_lo, 1.0)
    outside = np.maximum(band_lo - value, 0.0) + np.maximum(value - band_hi, 0.0)
    return np.where(np.isnan(value), unknown, outside / width)
# ============================================================================ paired figures, sequential decisions, sensitivity
#
# Issue 42, items 2 and 3. A *figure* is one number per game, so that a variant and the
# baseline, which play the same seeds at the same game index (common random numbers), can be
# compared game by game: the paired differences share the deal and cancel most of the noise.
#
#   first_seat_win     seat 0 won (solo: cleared)                                  rate
#   win:<strategy>     the share of the strategy's seats that won in the game       rate
#   winning_score      the best score of the game (solo: the score)                points
#   card_edge:<card>   wins of the card's builders minus their fair share           rate
#                      (builders / N): in mirror games, what building it is worth
#   mean:<column>      the mean over seats of a players column (score, money, ...)   points
#
# A variant is *decided* once an always-valid confidence sequence for its mean paired difference
# from the baseline excludes 0 ("differs") or lies inside +-margin ("within margin"): the
# two-sided normal-mixture boundary of the asymptotic confidence sequences of Waudby-Smith,
# Arbour, Sinha, Kennedy and Ramdas, "Time-uniform central limit theory and asymptotic confidence
# sequences" (Annals of Statistics 2024), eq. (13). It holds at every look at once, so looking
# after every batch costs no error rate. It is a closed form (a few lines), so no library: the
# one that implements it (confseq) is a C++ extension unmaintained since 2023.

FIGURE_KINDS = ("first_seat_win", "win", "winning_score", "card_edge", "mean")
RATE_FIGURES = ("first_seat_win", "win", "card_edge")
MEAN_COLUMNS = ("score", "money", "building_points", "bonus_points", "vp_points", "unpaid_wages")
DEFAULT_MARGIN = {"rate": 0.02, "points": 1.0}  # 2 percentage points; 1 score point
MIN_PAIRS_TO_DECIDE = 100  # the boundary is asymptotic: no decision on fewer paired games


@dataclass(frozen=True)
class GameFigure:
    """A per-game figure: ``kind`` (one of FIGURE_KINDS) and its argument (strategy, card, column)."""

    kind: str
    arg: str = ""

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.arg}" if self.arg else self.kind

    @property
    def unit(self) -> str:
        return "rate" if self.kind in RATE_FIGURES else "points"

    def default_margin(self) -> float:
        return DEFAULT_MARGIN[self.unit]


def parse_figure(text: str, where: str = "figure") -> GameFigure:
    """``first_seat_win``, ``win:<strategy>``, ``winning_score``, ``card_edge:<card>`` or
    ``mean:<column>``; anything else is a user error naming ``where``."""
    kind, _, arg = str(text).strip().partition(":")
    known = "first_seat_win, win:<strategy>, winning_score, card_edge:<card>, mean:<column>"
    if kind not in FIGURE_KINDS:
        raise NesimError(f"{where}: unknown figure {text!r} (known: {known})")
    needs_arg = kind in ("win", "card_edge", "mean")
    if needs_arg and not arg:
        example = {"win": "greedy", "card_edge": "farm", "mean": "score"}[kind]
        raise NesimError(f"{where}: figure {text!r} needs an argument, e.g. {kind}:{example}")
    if not needs_arg and arg:
        raise NesimError(f"{where}: figure {kind!r} takes no argument, got {text!r}")
    if kind == "mean" and arg not in MEAN_COLUMNS:
        raise NesimError(f"{where}: mean:{arg}: not a players column it can average "
                         f"(known: {', '.join(MEAN_COLUMNS)})")
    return GameFigure(kind, arg)


def game_figure(figure: GameFigure, players: pd.DataFrame, builds: pd.DataFrame | None = None) -> pd.Series:
    """The figure's value for every game of ``players`` (one group: one game, player count and
    variant), indexed by game_id. ``builds`` (raw or first builds) is needed by card_edge."""
    gid = players["game_id"].to_numpy(np.int64)
    if figure.kind == "first_seat_win":
        seat0 = players["seat"].to_numpy() == 0
        return pd.Series(_outcome(players)[seat0].astype(float), index=gid[seat0])
    if figure.kind == "win":
        mine = players["strategy"].astype(str).to_numpy() == figure.arg
        y = pd.Series(_outcome(players)[mine].astype(float), index=gid[mine])
        return y.groupby(level=0).mean()
    if figure.kind == "winning_score":
        return pd.Series(players["score"].to_numpy(float), index=gid).groupby(level=0).max()
    if figure.kind == "mean":
        return pd.Series(players[figure.arg].to_numpy(float), index=gid).groupby(level=0).mean()
    # card_edge: sum over seats of built * (won - 1/N)
    n = players["n_players"].to_numpy(float)
    key = (gid << _SEAT_BITS) | players["seat"].to_numpy(np.int64)
    built = np.zeros(len(players), dtype=bool)
    if builds is not None and len(builds):
        b = builds[builds["card"].astype(str) == figure.arg]
        bkey = (b["game_id"].to_numpy(np.int64) << _SEAT_BITS) | b["seat"].to_numpy(np.int64)
        built = np.isin(key, bkey)
    edge = built * (_outcome(players).astype(float) - 1.0 / n)
    return pd.Series(edge, index=gid).groupby(level=0).sum()


def cs_radius(sd: float, n: int, alpha: float, n_opt: int) -> float:
    """Half-width of the two-sided always-valid (1 - alpha) confidence sequence for a mean after
    ``n`` observations of standard deviation ``sd``: sd * sqrt(2 (n r^2 + 1) / (n^2 r^2) *
    log(sqrt(n r^2 + 1) / alpha)), with the mixing r^2 chosen to make it tightest at ``n_opt``
    (Waudby-Smith et al. 2024, eq. 13; Howard et al. 2021, "Time-uniform, nonparametric,
    nonasymptotic confidence sequences", section 3.5)."""
    if n < 1:
        return math.inf
    la = -2.0 * math.log(alpha)
    r2 = (la + math.log(la + 1.0)) / max(int(n_opt), 1)
    return float(sd) * math.sqrt(2.0 * (n * r2 + 1.0) / (n * n * r2) * math.log(math.sqrt(n * r2 + 1.0) / alpha))


def sequential_decision(diffs, alpha: float, margin: float, n_opt: int) -> dict:
    """The decision after the paired differences ``diffs`` (variant minus baseline, game by game):
    ``status`` "differs" (the confidence sequence excludes 0), "within margin" (it lies inside
    +-margin) or "open" (neither yet), with the estimate, the sequence's bounds and the games."""
    d = np.asarray(diffs, dtype=float)
    n = int(d.size)
    if n == 0:
        return {"status": "open", "games": 0, "estimate": math.nan, "lo": -math.inf, "hi": math.inf}
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else math.inf
    r = cs_radius(sd, n, alpha, n_opt)
    lo, hi = mean - r, mean + r
    status = "open"
    if n >= MIN_PAIRS_TO_DECIDE:
        if lo > 0 or hi < 0:
            status = "differs"
        elif -margin < lo and hi < margin:
            status = "within margin"
    return {"status": status, "games": n, "estimate": mean, "lo": lo, "hi": hi}


def fixed_decision(diffs, alpha: float, margin: float) -> dict:
    """The decision a fixed-size sweep takes on all its paired games at once (Student's t
    interval at level 1 - alpha): the same three answers as ``sequential_decision``."""
    d = np.asarray(diffs, dtype=float)
    n = int(d.size)
    mean = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    half = float(sps.t.ppf(1 - alpha / 2, max(n - 1, 1))) * se
    lo, hi = mean - half, mean + half
    status = "differs" if (lo > 0 or hi < 0) else ("within margin" if -margin < lo and hi < margin else "open")
    return {"status": status, "games": n, "estimate": mean, "lo": lo, "hi": hi}


def paired_figures(players: pd.DataFrame, games: pd.DataFrame, figures: Sequence[GameFigure],
                   builds: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per game: game, n_players, variant, seed, dataset (game_id >> 40, as read_table numbers
    several datasets) and one column per figure (by its name)."""
    key = games[["game_id", "game", "n_players", "variant", "seed"]].copy()
    key["game"] = key["game"].astype(str)
    key["variant"] = key["variant"].astype(str)
    key["dataset"] = key["game_id"].to_numpy(np.int64) >> 40
    out = key.set_index("game_id")
    for f in figures:
        parts = []
        for k, sub in _groups(players):
            b = None
            if builds is not None and f.kind == "card_edge":
                b = builds[(builds["game"].astype(str) == k["game"]) & (builds["n_players"] == k["n_players"])
                           & (builds["variant"].astype(str) == k["variant"])]
            parts.append(game_figure(f, sub, b))
        out[f.name] = pd.concat(parts) if parts else np.nan
    return out.reset_index()


def paired_effects(per_game: pd.DataFrame, baseline: str, variants: Sequence[str],
                   figures: Sequence[GameFigure], method: str = "holm", alpha: float = 0.05) -> pd.DataFrame:
    """Each variant's mean paired difference from the baseline on each figure, game against the
    game of the same seed (and dataset, game and player count), with Student's t interval, the
    paired t-test's p-value and ``p_adj``/``flag`` after Holm (or "bh": Benjamini-Hochberg)
    within each (game, n_players, figure). Rows: game, n_players, variant, figure, pairs, value_b,
    value, diff, se, lo, hi, p, p_adj, flag."""
    rows = []
    on = ["dataset", "game", "n_players", "seed"]
    base = per_game[per_game["variant"] == baseline]
    for v in variants:
        m = per_game[per_game["variant"] == v].merge(base, on=on, suffixes=("", "_b"))
        for (game, n), sub in m.groupby(["game", "n_players"], sort=True):
            for f in figures:
                x, y = sub[f.name].to_numpy(float), sub[f.name + "_b"].to_numpy(float)
                ok = ~(np.isnan(x) | np.isnan(y))
                if ok.sum() < 2:
                    continue
                d, se, lo, hi, p = paired_mean_diff(x[ok], y[ok])
                rows.append({"game": game, "n_players": int(n), "variant": v, "figure": f.name,
                             "unit": f.unit, "pairs": int(ok.sum()), "value_b": float(y[ok].mean()),
                             "value": float(x[ok].mean()), "diff": d, "se": se, "lo": lo, "hi": hi, "p": p})
    cols = ["game", "n_players", "variant", "figure", "unit", "pairs", "value_b", "value", "diff", "se",
            "lo", "hi", "p"]
    out = pd.DataFrame(rows, columns=cols)
    return flag_family(out, ["game", "n_players", "figure"], alpha=alpha, method=method)


# ============================================================================ the skill ladder
# The same sweep played by players of rising strength (rungs, each in mirror games): do the card
# values and the sweep's verdicts hold as the players get stronger? Card values and verdicts are
# those of the report's Cards and Sweeps sections (card_stats, sweep_comparison) computed on each
# rung; here they are lined up rung against rung.

# The sweep comparisons whose verdicts the ladder follows, with what each row is about. In mirror
# games every seat plays the rung's strategy, so its win rate per strategy is 1/N by construction
# and is left out.
VERDICT_TABLES = {"seat_win": "win rate of seat", "balance": "seat balance", "score": "mean score",
                  "card_build": "build rate of", "card_value": "card value of"}
NO_DIFFERENCE = "no difference"


def rank_correlation(x, y) -> dict:
    """Spearman's rank correlation of two paired samples with a 95% interval (Fisher's z with
    Bonett and Wright's variance (1 + rho^2 / 2) / (n - 3)) and scipy's p-value. The interval
    treats the values as exact: noise in them pulls the correlation toward 0. NaN where it is
    undefined (fewer than 3 pairs, or a constant sample; the interval needs 4)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = ~(np.isnan(x) | np.isnan(y))
    x, y = x[ok], y[ok]
    n = len(x)
    out = {"n": n, "rho": np.nan, "lo": np.nan, "hi": np.nan, "p": np.nan}
    if n < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return out
    res = sps.spearmanr(x, y)
    rho = float(res.statistic)
    out.update(rho=rho, p=float(res.pvalue))
    if n > 3:
        half = Z95 * math.sqrt((1 + rho * rho / 2) / (n - 3))
        z = math.atanh(min(max(rho, -0.999999), 0.999999))
        out.update(lo=math.tanh(z - half), hi=math.tanh(z + half))
    return out


def ladder_correlations(values: pd.DataFrame, rungs: Sequence[int]) -> pd.DataFrame:
    """Per group (game, n_players, variant) and pair of consecutive rungs (``rungs`` in order,
    weakest first), the rank correlation of the card values of the two rungs over the cards
    valued in both. ``values``: GROUP + rung, card, value."""
    rows = []
    for key, sub in _groups(values):
        wide = sub.pivot_table(index="card", columns="rung", values="value", aggfunc="first", observed=True)
        for a, b in zip(rungs[:-1], rungs[1:]):
            x = wide[a] if a in wide.columns else pd.Series(np.nan, index=wide.index)
            y = wide[b] if b in wide.columns else pd.Series(np.nan, index=wide.index)
            rows.append({**key, "rung_a": a, "rung_b": b, **rank_correlation(x, y)})
    return pd.DataFrame(rows, columns=GROUP + ["rung_a", "rung_b", "n", "rho", "lo", "hi", "p"])


def verdict_rows(comparison: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The verdicts of one sweep comparison (:func:`sweep_comparison`): per group, table and item
    (a seat, a card, or nothing), the difference from the baseline, its interval and the verdict:
    "higher" or "lower" where it is flagged (Holm-adjusted, as the Sweeps section flags it), else
    "no difference"."""
    parts = []
    for table, what in VERDICT_TABLES.items():
        t = comparison.get(table)
        if t is None or not len(t):
            continue
        if table == "seat_win":
            item = [f"{what} {int(s)}" for s in t["seat"]]
        elif table in ("card_build", "card_value"):
            item = [f"{what} {c}" for c in t["card"]]
        else:
            item = [what] * len(t)
        diff = t["diff"].astype(float).to_numpy()
        flag = t["flag"].astype(bool).to_numpy()
        parts.append(pd.DataFrame({
            "game": t["game"].astype(str).to_numpy(), "n_players": t["n_players"].astype(int).to_numpy(),
            "variant": t["variant"].astype(str).to_numpy(), "table": table, "item": item,
            "diff": diff, "lo": t["lo"].astype(float).to_numpy(), "hi": t["hi"].astype(float).to_numpy(),
            "flag": flag, "verdict": np.where(flag, np.where(diff > 0, "higher", "lower"), NO_DIFFERENCE)}))
    cols = GROUP + ["table", "item", "diff", "lo", "hi", "flag", "verdict"]
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)


def ladder_verdicts(verdicts: pd.DataFrame, rungs: Sequence[int]) -> pd.DataFrame:
    """The verdicts of every rung side by side: one row per group, table and item, a column per
    rung (its verdict, or NaN where that rung gave none, e.g. a card it never built), and
    ``changes``: the consecutive rungs (``rungs`` in order) whose verdicts differ, as
    "a→b: verdict → verdict"; ``changed`` is whether there is one. ``verdicts``: verdict_rows
    with a ``rung`` column."""
    keys = GROUP + ["table", "item"]
    if not len(verdicts):
        return pd.DataFrame(columns=keys + list(rungs) + ["changes", "changed"])
    wide = verdicts.pivot_table(index=keys, columns="rung", values="verdict", aggfunc="first", observed=True)
    wide = wide.reindex(columns=list(rungs)).reset_index()
    wide.columns.name = None
    changes = []
    for row in wide[list(rungs)].itertuples(index=False):
        said = []
        for (a, va), (b, vb) in zip(zip(rungs[:-1], row[:-1]), zip(rungs[1:], row[1:])):
            if isinstance(va, str) and isinstance(vb, str) and va != vb:
                said.append(f"{a}→{b}: {va} → {vb}")
        changes.append("; ".join(said))
    wide["changes"] = changes
    wide["changed"] = wide["changes"] != ""
    return wide
