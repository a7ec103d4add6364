"""Learn corrections to strong's one-ply values from the choices of a searched solo game.

    .venv/bin/nesim learn teach --first 0 --count 500 --jobs 1 --out DIR
    .venv/bin/nesim learn fit DIR --out T1.npy
    .venv/bin/nesim learn teach --table T1.npy --first 1000 --count 500 --jobs 1 --out DIR2
    .venv/bin/nesim learn roll-in --spec TEACHER --table T1.npy --first 50000 --count 20 --out DIR
    .venv/bin/nesim learn judge T1.npy --first 6000 --count 400
    .venv/bin/nesim learn export T1.npy --out strategies/strong_learned/glory.csv

strong's solo search picks each placement, build and discard by playouts played with its own
one-ply choices, and the search is only as good as those playouts. This is a step of policy
improvement by imitation (expert iteration): learn from the searched game's choices a correction
to the one-ply values, so that the playouts choose more as the search does, and search again.

teach: plays solo games of ``--game`` with ``--spec`` (strong's default search unless told), with
the corrections of ``--table`` if given, and keeps each game's decision log. Each log is then
replayed by a recorder strategy, which answers from the log and writes, at every decision with two
or more options, each option's one-ply value (strong's ``option_value``, solo weights without
jitter), its card, the seat's position (strong's ``learned_state``) and whether the searched game
chose it. A replay that strays from its game is dropped (none has yet). The teacher's logs are
kept beside the rows (``-logs.npz``: seeds, logs, lengths), so that another recorder can read the
same games again without playing them.
roll-in: the teacher's choices in the positions the student reaches (DAgger): each seed is played
by ``--student`` (strong, with ``--table``); from ``--per-game`` log entries drawn at random in
its game, the teacher (``--spec``, same table) takes over for ``--width`` entries (then strong's
one-ply choices finish the game cheaply), and only those entries' decisions are recorded, as
teach's rows. Imitating the teacher's own games teaches the student the positions the teacher
reaches; once the student falls behind, it plays in positions those games never saw.
fit: a conditional logit of the chosen option per family of decision (placement, build, hand
value for keeps and discards): slope x one-ply value + an offset per card and round + for
placements (with ``--state all`` for every family) a coefficient per card on each number of the
position, penalised by ``--lam`` x the
squared offsets, fitted on four games in five; the agreement with the searched choices is printed
for the games held out. The offsets divided by their family's slope are points, written in
thousandths as the rows strong reads below an extended card table (strategies/strong/learned.py,
``LEARNED_ROW``).
judge: strong (``--spec``) with and without the corrections (or with those of ``--against``) on
the same solo seeds: each side's mean, clear rate, unpaid wages and workers, and the paired
differences B - A. The tables it builds carry only the rows of ``TABLE`` (for A none, or those of
``--against``), whatever strategies/strong_learned holds. ``--reuse`` takes side A from an earlier
judgement's side B (saved by ``--save``) in place of playing it again.
export: writes a table of corrections as the file strong plays with by default in that game
(strategies/strong_learned/<game>.csv, cards named by key; strategies/strong/learned.py, table_rows).

Several processes (``--jobs``) share the teacher's games; ``--jobs 1`` plays them in this process,
and two such runs over different seeds use both cores. Results: experiments/results/
strong-glory-solo.md, "Corrections learned from the searched games".
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from numba import njit
from scipy.optimize import minimize

from nesim.cards import load_game
from nesim.kernel import batch, core
from nesim.kernel.api import (CTX_WORKPLACE, K_BUILD, K_DISCARD, K_KEEP, K_PLACE, K_SELL,
                              STRATEGY_SIG, build_cards, enter_playout, in_game, in_playout,
                              leave_playout, option_card)
from nesim.kernel.tables import LOGMAX, NCOLS, NT, R, R_ROUNDS, build_table, card_ids
from nesim.registry import game_table, param_matrix, resolve
from nesim.stats import paired_mean_diff, wilson_interval
from strategies.strong import PARAMS, SCRATCH_FIXED, decide
from strategies.strong.learned import (LEARNED_BLOCK, LEARNED_FAMILIES, LEARNED_PHASES, LEARNED_ROW,
                                       LEARNED_STATE, learned_state, write_table_rows)
from strategies.strong.values import WORTH_SIZE, keep_values, option_value
from strategies.strong.weights import fill_weights

NSTRONG = len(PARAMS)  # strong's parameters, at the head of the recorder's row
# The recorder's parameter row: strong's parameters, its counts (NLOG..NDEC), the game's log from
# LOG0, the rows it writes from OUT0.
NLOG, NOUT, ERR, NDEC = NSTRONG, NSTRONG + 1, NSTRONG + 3, NSTRONG + 4
# A window of the log (entries FROM to TO - 1; none: TO 0): the recorder writes rows only there,
# and rolled_in plays the teacher only there (DONE: past it, the one-ply choices).
DONE, FROM, TO = NSTRONG + 2, NSTRONG + 5, NSTRONG + 6
LOG0 = NSTRONG + 8
COLS = 7 + LEARNED_STATE  # decision, kind, round, card a, card b (-1), one-ply value, chosen, state numbers
OUT0 = LOG0 + LOGMAX
ROWS_MAX = 5000
WIDTH = OUT0 + COLS * ROWS_MAX
SLOTS = len(LEARNED_FAMILIES)  # placement, build, hand value (keep and discard)


@njit(cache=True, _nrt=False)
def logged_entry(kind, opts, n, st, params):
    """The index in the log of the entry answering this call: the replay logs every decision
    as the game did (asked or not), so it is the next one the replay will write."""
    at = st[0].n_log
    if at >= int(params[NLOG]):
        return -1
    e = int(params[LOG0 + at])
    if e >> 24 != kind:
        return -1
    if kind == K_SELL:
        return at
    for i in range(n):
        if opts[i] == e & 0xFFFFF:
            return at
    return -1


# Without reference counting, as strong's helpers are: an array one of them returns (keep_values)
# would otherwise be released by a counting caller that never held it, corrupting the heap.
@njit(cache=True, _nrt=False)
def write_rows(kind, seat, opts, n, ctx, st, tab, params, chosen, w, scratch):
    """One row per option (COLS numbers) after the rows already in ``params``; ``w`` and
    ``scratch`` are room for strong's weights and its memo and keep values."""
    s = st[0]
    worth = scratch[:WORTH_SIZE]
    keep = scratch[WORTH_SIZE:WORTH_SIZE + NT + 1]
    fill_weights(w[:NSTRONG], params[:NSTRONG], s.n == 1)
    for i in range(WORTH_SIZE):
        worth[i] = np.nan
    if kind == K_PLACE:
        keep_values(s, tab, seat, w, worth, keep)
    wp = ctx[CTX_WORKPLACE] if kind == K_BUILD else 0  # the construction workplace
    dec = params[NDEC]
    params[NDEC] += 1
    for i in range(n):
        r = int(params[NOUT])
        if r >= ROWS_MAX:
            params[ERR] = 2
            return
        v = opts[i]
        a = v
        b = -1
        if kind == K_PLACE:
            a = option_card(s, v)
        elif kind == K_BUILD:
            a, b = build_cards(v)
        o = OUT0 + COLS * r
        params[o] = dec
        params[o + 1] = kind
        params[o + 2] = s.round
        params[o + 3] = a
        params[o + 4] = b
        params[o + 5] = option_value(kind, s, tab, seat, v, wp, w, keep, worth)
        params[o + 6] = 1.0 if i == chosen else 0.0
        for j in range(LEARNED_STATE):
            params[o + 7 + j] = learned_state(s, tab, seat, j)
        params[NOUT] = r + 1


@njit(cache=True, _nrt=False)
def logged_answer(kind, opts, n, params, at):
    """The answer the logged game gave at log entry ``at``: an option's index, or for a sale the
    mask of the buildings it sold."""
    e = int(params[LOG0 + at])
    v = e & 0xFFFFF
    if kind == K_SELL:
        mask = 0
        for j in range(v):
            card = int(params[LOG0 + at + 1 + j]) & 0xFFFFF
            for i in range(n):
                if not (mask >> i) & 1 and opts[i] == card:
                    mask |= 1 << i
                    break
        return mask
    for i in range(n):
        if opts[i] == v:
            return i
    return 0


@njit(STRATEGY_SIG, cache=True)
def recorder(kind, seat, opts, n, ctx, st, tab, params):
    """A strategy that answers every decision as the logged game did, writing its rows (only in
    the log's window FROM-TO, when TO is set)."""
    at = logged_entry(kind, opts, n, st, params)
    if at < 0:
        params[ERR] = 1
        return 0
    chosen = logged_answer(kind, opts, n, params, at)
    in_window = params[TO] == 0 or params[FROM] <= at < params[TO]
    if in_window and (kind == K_PLACE or kind == K_BUILD or kind == K_KEEP or kind == K_DISCARD):
        write_rows(kind, seat, opts, n, ctx, st, tab, params, chosen, np.empty(NSTRONG),
                   np.empty(SCRATCH_FIXED))
    return chosen


@njit(STRATEGY_SIG, cache=True)
def rolled_in(kind, seat, opts, n, ctx, st, tab, params):
    """Plays the logged game (another player's) up to log entry FROM, then strong with the row's
    parameters (the teacher, searching as it would) up to entry TO, then strong's one-ply choices
    to the end, cheaply: the teacher's choices in positions the other player reached."""
    s = st[0]
    if in_game(s) and not in_playout(s) and params[DONE] == 0:
        at = s.n_log
        if at < params[FROM]:
            if logged_entry(kind, opts, n, st, params) < 0:
                params[ERR] = 1
                return 0
            return logged_answer(kind, opts, n, params, at)
        if at >= params[TO]:
            params[DONE] = 1
    quick = params[DONE] != 0  # past the window, as inside a playout: no search
    if quick:
        enter_playout(s)
    a = decide(kind, seat, opts, n, ctx, st, tab, params[:NSTRONG],
               np.empty(NSTRONG + SCRATCH_FIXED + max(n, 1)))
    if quick:
        leave_playout(s)
    return a


def logged_params(strat, log: np.ndarray, width: int, window=None, players: int = 1) -> np.ndarray:
    """The (4, width) parameter array of a strategy that reads ``log`` in each of ``players``
    seats: ``strat``'s parameters, the log and its length, and the log's window if given."""
    params = np.zeros((4, width))
    for seat in range(players):  # the row is MAXPARAMS long; strong fills NSTRONG
        params[seat, :NSTRONG] = strat.param_row()[:NSTRONG]
        params[seat, NLOG] = len(log)
        params[seat, LOG0:LOG0 + len(log)] = log
        if window is not None:
            params[seat, FROM], params[seat, TO] = window
    return params


def record_game(data, strat, tab, seed, log: np.ndarray, window=None,
                players: int = 1) -> tuple[list[np.ndarray], np.ndarray]:
    """The rows of one logged game, one array per seat (the recorder replaying ``log``, the
    game's decision log, in every seat with ``strat``'s parameters; only log entries
    ``window[0]`` to ``window[1] - 1`` if given), each row ending with its seat's final score,
    and the replay's final scores; no rows for a seat whose replay strayed."""
    params = logged_params(strat, log, WIDTH, window, players)
    again = batch.play(data, players, [seed], [recorder] * players, params, with_log=True, table=tab)
    scores = again.players[0, :, core.F_SCORE].astype(float)
    out = []
    for seat in range(players):
        if params[seat, ERR]:
            out.append(np.zeros((0, COLS + 1)))
            continue
        rows = params[seat, OUT0:OUT0 + COLS * int(params[seat, NOUT])].reshape(-1, COLS)
        out.append(np.hstack([rows, np.full((len(rows), 1), scores[seat])]))
    return out, scores


def teach_slice(game: str, spec: str, seeds: np.ndarray, offsets=None, players: int = 1):
    """Each seed's recorded rows, one array per seat (empty when the replay strayed from the
    game), and the teacher's decision logs and their lengths (so that record_game can read the
    same games again without playing them). With 2-4 players every seat plays ``spec``."""
    data = load_game(game)
    strat = resolve(spec)
    tab = learned_table(game, offsets, players)
    res = batch.play(data, players, seeds, [strat.choose] * players,
                     param_matrix([strat] * players), with_log=True, table=tab)
    out = []
    for g, seed in enumerate(seeds):
        seat_rows, scores = record_game(data, strat, tab, seed, res.logs[g, :int(res.games[g, 4])],
                                        players=players)
        same = np.array_equal(scores, res.players[g, :, core.F_SCORE])
        out.extend(rows if same else rows[:0] for rows in seat_rows)
    return out, res.logs, res.games[:, 4].copy()


def save_rows(games: list[np.ndarray], path: Path) -> list[np.ndarray]:
    """Saves the games that have rows at ``path``, each row led by its game's number in
    ``games``, and returns them."""
    kept = [np.hstack([np.full((len(g), 1), i, dtype=float), g]) for i, g in enumerate(games) if len(g)]
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, np.vstack(kept))
    return kept


def teach(args) -> None:
    seeds = np.arange(args.first, args.first + args.count, dtype=np.uint64)
    parts = np.array_split(seeds, max(1, args.count // 10))
    t0 = time.time()
    offsets = np.load(args.table) if args.table else None
    if args.jobs == 1:
        done = [teach_slice(args.game, args.spec, p, offsets, args.players) for p in parts]
    else:
        done = Parallel(n_jobs=args.jobs)(delayed(teach_slice)(args.game, args.spec, p, offsets,
                                                               args.players) for p in parts)
    games = [g for part, _, _ in done for g in part]
    path = Path(args.out) / f"{args.game}-{args.first}-{args.first + args.count - 1}.npy"
    kept = save_rows(games, path)
    lengths = np.concatenate([n for _, _, n in done])
    logs = np.vstack([lg for _, lg, _ in done])[:, :lengths.max()]
    np.savez_compressed(path.with_name(path.stem + "-logs.npz"), seeds=seeds, logs=logs, lengths=lengths)
    print(f"{len(kept)} of {len(games)} games replayed, {sum(map(len, kept))} rows, "
          f"{time.time() - t0:.0f} s -> {path}")


def rolled_in_game(data, teacher, tab, seed, log: np.ndarray, window) -> np.ndarray:
    """The decision log of a game that follows ``log`` (another player's game of ``seed``) to entry
    ``window[0]``, then the teacher to entry ``window[1]``, then the teacher's one-ply choices."""
    params = logged_params(teacher, log, OUT0, window)
    res = batch.play(data, 1, [seed], [rolled_in], params, with_log=True, table=tab)
    if params[0, ERR]:
        raise RuntimeError(f"seed {seed}: the rolled-in game strayed from the student's log")
    return res.logs[0, :int(res.games[0, 4])]


def roll_in_slice(game: str, student: str, teacher: str, seeds: np.ndarray, offsets, width: int,
                  per_game: int, rng_seed: int):
    """Rows of the teacher's choices in the student's positions (DAgger): each seed's game is
    played by ``student``; from ``per_game`` log entries drawn at random in it, the teacher takes
    over for ``width`` entries, and only those entries' decisions are recorded."""
    data = load_game(game)
    stud, tutor = resolve(student), resolve(teacher)
    tab = learned_table(game, offsets)
    res = batch.play(data, 1, seeds, [stud.choose], param_matrix([stud]), with_log=True, table=tab)
    rng = np.random.default_rng(rng_seed)
    out = []
    for g, seed in enumerate(seeds):
        log = res.logs[g, :int(res.games[g, 4])]
        for k in np.sort(rng.choice(len(log), size=min(per_game, len(log)), replace=False)):
            window = (int(k), int(k) + width)
            mixed = rolled_in_game(data, tutor, tab, seed, log, window)
            rows, _ = record_game(data, tutor, tab, seed, mixed, window)
            out.append(rows[0])
    return out


def roll_in(args) -> None:
    seeds = np.arange(args.first, args.first + args.count, dtype=np.uint64)
    t0 = time.time()
    offsets = np.load(args.table) if args.table else None
    games = roll_in_slice(args.game, args.student, args.spec, seeds, offsets, args.width,
                          args.per_game, args.first)
    path = Path(args.out) / f"{args.game}-rolled-{args.first}-{args.first + args.count - 1}.npy"
    kept = save_rows(games, path)
    print(f"{len(kept)} of {len(games)} windows recorded, {sum(map(len, kept))} rows, "
          f"{time.time() - t0:.0f} s -> {path}")


# ------------------------------------------------------------------ fit

def design(rows: np.ndarray, rounds: int, state_families: int = 1, features=None):
    """Per-row group, slot, value, offset indices and sign; rows of one-option groups dropped.
    The first ``state_families`` families (1: placements only, 3: all) see the position: its
    numbers, or ``features(numbers, phase)`` in their place (a richer form, tried on the rows
    alone; strong reads only the numbers). ``row``: each kept row's index in ``rows``;
    ``noff``: the offsets the design indexes."""
    game, dec, kind, rnd, a, b, value, chosen = (rows[:, i] for i in range(8))
    x = rows[:, 8:8 + LEARNED_STATE]
    group = (game * 100000 + dec).astype(np.int64)
    _, inv, counts = np.unique(group, return_inverse=True, return_counts=True)
    row = np.flatnonzero(counts[inv] > 1)
    _, inv = np.unique(inv[row], return_inverse=True)
    row = row[np.argsort(inv, kind="stable")]
    kind, rnd, a, b, value, chosen, x = (y[row] for y in (kind, rnd, a, b, value, chosen, x))
    inv = np.sort(inv, kind="stable")
    slot = np.where(kind == K_PLACE, 0, np.where(kind == K_BUILD, 1, 2)).astype(np.int64)
    phase = np.minimum(LEARNED_PHASES - 1, (rnd.astype(np.int64) - 1) * LEARNED_PHASES // rounds)
    base = (slot * LEARNED_PHASES + phase) * NCOLS
    ia = base + a.astype(np.int64)
    ib = np.where(b >= 0, base + b.astype(np.int64), -1)
    sign = np.where(kind == K_DISCARD, -1.0, 1.0)
    starts = np.flatnonzero(np.r_[True, inv[1:] != inv[:-1]])
    sees = slot < state_families
    if features is not None:
        x = features(x, phase)
    nx = x.shape[1]
    # the offset index of each row's coefficient on each position number, for card a and card b
    first = NPHASE_OFF + (slot[:, None] * nx + np.arange(nx)) * NCOLS
    xa = first + a.astype(np.int64)[:, None]
    xb = np.where(b[:, None] >= 0, first + np.maximum(b, 0).astype(np.int64)[:, None], -1)
    return dict(slot=slot, value=value, ia=ia, ib=ib, sign=sign, chosen=chosen, group=inv,
                starts=starts, x=x * sees[:, None], xa=xa, xb=xb, row=row,
                noff=NPHASE_OFF + SLOTS * nx * NCOLS)


NPHASE_OFF = SLOTS * LEARNED_PHASES * NCOLS


def scores(theta, d):
    a = theta[:SLOTS]
    off = theta[SLOTS:]
    extra = off[d["ia"]] + np.where(d["ib"] >= 0, off[np.maximum(d["ib"], 0)], 0.0)
    extra = extra + np.sum(off[d["xa"]] * d["x"], axis=1)
    extra = extra + np.sum(np.where(d["xb"] >= 0, off[np.maximum(d["xb"], 0)], 0.0) * d["x"], axis=1)
    return a[d["slot"]] * d["value"] + d["sign"] * extra


def nll(theta, d, lam):
    s = scores(theta, d)
    starts = d["starts"]
    gmax = np.maximum.reduceat(s, starts)
    e = np.exp(s - gmax[d["group"]])
    z = np.add.reduceat(e, starts)
    p = e / z[d["group"]]
    loss = np.sum(np.log(z) + gmax) - np.sum(s * d["chosen"])
    r = p - d["chosen"]
    noff = d["noff"]
    grad = np.zeros_like(theta)
    grad[:SLOTS] = np.bincount(d["slot"], weights=r * d["value"], minlength=SLOTS)
    rs = r * d["sign"]
    g_off = np.bincount(d["ia"], weights=rs, minlength=noff)
    has_b = d["ib"] >= 0
    g_off += np.bincount(d["ib"][has_b], weights=rs[has_b], minlength=noff)
    wx = rs[:, None] * d["x"]
    g_off += np.bincount(d["xa"].ravel(), weights=wx.ravel(), minlength=noff)
    with_b = d["xb"] >= 0
    g_off += np.bincount(d["xb"][with_b], weights=wx[with_b], minlength=noff)
    off = theta[SLOTS:]
    grad[SLOTS:] = g_off + 2 * lam * off
    return loss + lam * np.sum(off ** 2), grad


def agreement(theta, d, mask=None):
    """The share of decisions, per family, whose best-scored option is the chosen one (only the
    decisions where ``mask``, one per decision, is true, if given)."""
    s = scores(theta, d)
    starts = d["starts"]
    gmax = np.maximum.reduceat(s, starts)
    best_is_chosen = np.add.reduceat((s >= gmax[d["group"]]) * d["chosen"], starts) > 0
    slots = d["slot"][starts]
    counted = np.ones(len(starts), dtype=bool) if mask is None else mask
    return {k: float(best_is_chosen[(slots == k) & counted].mean()) for k in range(SLOTS)}


def slope_fit(d) -> np.ndarray:
    """The parameters with every offset 0 and the slopes fitted alone."""
    def loss(a):
        value, grad = nll(np.r_[a, np.zeros(d["noff"])], d, 0.0)
        return value, grad[:SLOTS]

    a = minimize(loss, np.full(SLOTS, 0.5), jac=True, method="L-BFGS-B").x
    return np.r_[a, np.zeros(d["noff"])]


def fitted(d, lam: float, start: np.ndarray | None = None) -> np.ndarray:
    """The slopes and offsets of the penalised conditional logit on design ``d``."""
    if start is None:
        start = slope_fit(d)
    return minimize(nll, start, args=(d, lam), jac=True, method="L-BFGS-B").x


def fit(args) -> None:
    files = sorted(Path(args.folder).glob("*.npy"))
    rows = np.vstack([np.load(p) for p in files])
    starts = np.cumsum([0] + [len(np.load(p, mmap_mode="r")) for p in files])
    for i in range(len(files)):
        rows[starts[i]:starts[i + 1], 0] += 1e6 * i
    rounds = int(build_table(load_game(args.game))[R, R_ROUNDS])
    games = np.unique(rows[:, 0])
    rng = np.random.default_rng(0)
    test_games = set(rng.choice(games, size=len(games) // 5, replace=False).tolist())
    is_test = np.isin(rows[:, 0], list(test_games))
    families = 3 if args.state == "all" else 1
    train = design(rows[~is_test], rounds, families)
    test = design(rows[is_test], rounds, families)
    only_slope = slope_fit(train)
    theta = fitted(train, args.lam, only_slope)
    print("slopes", np.round(theta[:SLOTS], 3))
    for name, th in (("one-ply", np.r_[np.ones(SLOTS), np.zeros(train["noff"])]),
                     ("slope only", only_slope), ("offsets", theta)):
        print(f"{name:10s} held-out agreement", {k: round(v, 3) for k, v in agreement(th, test).items()},
              "train", {k: round(v, 3) for k, v in agreement(th, train).items()})
    slopes = np.r_[np.repeat(theta[:SLOTS], LEARNED_PHASES), np.repeat(theta[:SLOTS], LEARNED_STATE)]
    off = theta[SLOTS:].reshape(SLOTS * (LEARNED_PHASES + LEARNED_STATE), NCOLS) / slopes[:, None]
    kept = SLOTS * LEARNED_PHASES + families * LEARNED_STATE  # rows past these are all zero
    np.save(args.out, np.round(off[:kept] * 1000).astype(np.int64))
    data = load_game(args.game)
    keys = {cid: key for key, cid in card_ids(data).items()}
    for k, name in enumerate(LEARNED_FAMILIES):
        for ph in range(LEARNED_PHASES):
            row = off[k * LEARNED_PHASES + ph]
            big = np.argsort(-np.abs(row))[:6]
            print(name, ph, ", ".join(f"{keys.get(int(c), c)} {row[c]:+.1f}" for c in big if row[c]))


def export(args) -> None:
    rows = np.round(np.load(args.table) * args.scale).astype(np.int64)
    lines = write_table_rows(load_game(args.game), rows, Path(args.out))
    print(f"{args.out}: {lines} corrections")


# ------------------------------------------------------------------ duel (2-4 players)

def play_challenger(game: str, players: int, spec: str, against: str, seat: int,
                    seeds: np.ndarray, table: np.ndarray | None = None) -> np.ndarray:
    """The players table of the games of ``seeds`` with ``spec`` at ``seat`` and ``against`` in
    every other seat, on ``table`` (default: the one the runner builds for these strategies)."""
    specs = [against] * players
    specs[seat] = spec
    chosen = [resolve(s) for s in specs]
    data = load_game(game)
    table = game_table(data, chosen) if table is None else table
    res = batch.play(data, players, seeds, [s.choose for s in chosen], param_matrix(chosen),
                     table=table)
    assert not res.games[:, 3].any(), "kernel error flags"
    return res.players


def duel_slice(game: str, players: int, spec: str, against: str, offsets, seat: int,
               seeds: np.ndarray) -> np.ndarray:
    """Whether ``spec`` (reading ``offsets`` as its block of ``players`` players) won each game
    of ``seeds`` from ``seat``, the other seats playing ``against`` (which must not read them)."""
    table = learned_table(game, offsets, players)
    return play_challenger(game, players, spec, against, seat, seeds, table)[:, seat, core.F_RANK] == 1


def duel(args) -> None:
    """expert with the table at each scale against strong, seats rotated (game g seats the
    challenger at g mod players), on the same seeds for every scale."""
    table = np.load(args.table)
    seeds = np.arange(args.first, args.first + args.count, dtype=np.uint64)
    for scale in (float(x) for x in args.scales.split(",")):
        offsets = np.round(table * scale).astype(np.int64)
        work = [(seat, seeds[seat::args.players]) for seat in range(args.players)]
        won = Parallel(n_jobs=args.jobs)(delayed(duel_slice)(args.game, args.players, args.spec,
                                                             args.against, offsets, seat, part)
                                         for seat, part in work)
        wins = int(sum(w.sum() for w in won))
        low, high = wilson_interval(wins, args.count)
        print(f"scale {scale:g}: {args.spec} won {wins}/{args.count} = {wins / args.count:.3f} "
              f"[{low:.3f}, {high:.3f}] against {args.against} (fair {1 / args.players:.2f})")


# ------------------------------------------------------------------ judge

def learned_table(game: str, offsets: np.ndarray | None, players: int = 1) -> np.ndarray:
    """The card table with ``offsets`` as the learned block strong reads in games of
    ``players`` players (the blocks before it empty)."""
    tab = build_table(load_game(game))
    if offsets is None:
        return tab
    assert tab.shape[0] == LEARNED_ROW
    empty = np.zeros(((players - 1) * LEARNED_BLOCK, tab.shape[1]), dtype=np.int64)
    return np.vstack([tab, empty, offsets])


def judge_slice(game, spec, seeds, offsets):
    strat = resolve(spec)
    res = batch.play(load_game(game), 1, seeds, [strat.choose], param_matrix([strat]),
                     table=learned_table(game, offsets))
    return res.players[:, 0, :]


def saved_side(path, seeds: np.ndarray) -> np.ndarray:
    """Side B of an earlier judgement saved at ``path``, for ``seeds`` (all of which it must hold):
    the games are a function of the seed, so a side already played need not be played again."""
    saved = np.load(path)
    at = np.searchsorted(saved["seeds"], seeds)
    if (at >= len(saved["seeds"])).any() or not np.array_equal(saved["seeds"][at], seeds):
        raise SystemExit(f"{path} does not hold every seed {seeds[0]}-{seeds[-1]}")
    return saved["b"][at]


def judge(args) -> None:
    offsets = np.load(args.table) * args.scale
    offsets = np.round(offsets).astype(np.int64)
    seeds = np.arange(args.first, args.first + args.count, dtype=np.uint64)
    parts = np.array_split(seeds, args.jobs * 4)
    against = np.load(args.against) if args.against else None
    t0 = time.time()
    res = {}
    if args.reuse:
        res["A"] = saved_side(args.reuse, seeds)
    for tag, off in (("A", against), ("B", offsets)):
        if tag not in res:
            got = Parallel(n_jobs=args.jobs)(delayed(judge_slice)(args.game, args.spec, p, off) for p in parts)
            res[tag] = np.vstack(got)
        rows = res[tag]
        print(f"{tag}: mean {rows[:, core.F_SCORE].mean():.1f}, clear {rows[:, core.F_CLEARED].mean():.3f}, "
              f"unpaid {rows[:, core.F_UNPAID].mean():.2f}, workers {rows[:, core.F_WORKERS].mean():.2f}"
              f"  ({time.time() - t0:.0f} s)")
    for name, f in (("score", core.F_SCORE), ("clear", core.F_CLEARED)):
        d, se, lo, hi, p = paired_mean_diff(res["B"][:, f], res["A"][:, f])
        print(f"B - A {name}: {d:+.3f} (se {se:.3f}, 95% {lo:+.3f} to {hi:+.3f})")
    if args.save:
        np.savez(args.save, seeds=seeds, a=res["A"], b=res["B"])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="nesim learn", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("teach")
    t.add_argument("--spec", default="strong")
    t.add_argument("--game", default="glory")
    t.add_argument("--first", type=int, default=0)
    t.add_argument("--count", type=int, default=200)
    t.add_argument("--jobs", type=int, default=2)
    t.add_argument("--out", required=True)
    t.add_argument("--table", help="offsets the teacher plays with (from fit)")
    t.add_argument("--players", type=int, default=1,
                   help="1: solo games; 2-4: mirror games, every seat's decisions recorded")
    r = sub.add_parser("roll-in", help="the teacher's choices in the student's positions (DAgger)")
    r.add_argument("--spec", default="strong", help="the teacher")
    r.add_argument("--student", default="strong")
    r.add_argument("--game", default="glory")
    r.add_argument("--first", type=int, default=0)
    r.add_argument("--count", type=int, default=20)
    r.add_argument("--width", type=int, default=20, help="log entries the teacher plays from each start")
    r.add_argument("--per-game", type=int, default=4, help="starts drawn in each student game")
    r.add_argument("--out", required=True)
    r.add_argument("--table", help="offsets both play with (from fit)")
    f = sub.add_parser("fit")
    f.add_argument("folder")
    f.add_argument("--game", default="glory")
    f.add_argument("--lam", type=float, default=1.0)
    f.add_argument("--state", choices=("place", "all"), default="place",
                   help="the families whose corrections see the position (t1 and t2: place)")
    f.add_argument("--out", required=True)
    e = sub.add_parser("export")
    e.add_argument("table")
    e.add_argument("--game", default="glory")
    e.add_argument("--out", required=True)
    e.add_argument("--scale", type=float, default=1.0, help="factor on every correction")
    d = sub.add_parser("duel", help="expert with the table (at each scale) against strong")
    d.add_argument("table")
    d.add_argument("--game", default="mecenat")
    d.add_argument("--players", type=int, default=2)
    d.add_argument("--spec", default="expert")
    d.add_argument("--against", default="strong")
    d.add_argument("--scales", default="0.1,0.2,0.3,0.5,1")
    d.add_argument("--first", type=int, default=2_000_000)
    d.add_argument("--count", type=int, default=2000)
    d.add_argument("--jobs", type=int, default=1)
    j = sub.add_parser("judge")
    j.add_argument("table")
    j.add_argument("--spec", default="strong")
    j.add_argument("--game", default="glory")
    j.add_argument("--first", type=int, default=5000)
    j.add_argument("--count", type=int, default=200)
    j.add_argument("--jobs", type=int, default=2)
    j.add_argument("--scale", type=float, default=1.0)
    j.add_argument("--save")
    j.add_argument("--against", help="corrections side A plays with (none unless given)")
    j.add_argument("--reuse", help="an earlier judgement (--save) whose side B is this side A, "
                   "read in place of playing A again")
    args = ap.parse_args(argv)
    {"teach": teach, "roll-in": roll_in, "fit": fit, "judge": judge, "export": export,
     "duel": duel}[args.cmd](args)


if __name__ == "__main__":
    main()
