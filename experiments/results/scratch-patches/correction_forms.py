"""Scratch: would a richer linear form of the corrections agree better with the teacher, held out?

    PYTHONPATH=.:experiments .venv/bin/python experiments/results/scratch-patches/correction_forms.py \
        FOLDER base half third sq pairs base@0.3 base@3

FOLDER holds the rows of learn_offsets.py teach and roll-in (files named ``*rolled*`` are the
rolled-in windows). Each form is fitted as ``fit --state all`` is, on four games (windows) in five,
``NAME@LAM`` with that penalty, and its agreement printed for the rest: all, rolled-in, teacher's
own games, and the training games. The forms differ only in what multiplies each card's
coefficients (learn_offsets.design has the 8 numbers of the position): ``half`` and ``third`` a
set of them per part of the game, ``sq`` the numbers and their squares, ``pairs`` the numbers and
their pairwise products. Played at e39c7de on round 3's games and 1107 windows.
"""
import sys
from pathlib import Path
import numpy as np
from scipy.optimize import minimize
import learn_offsets
from learn_offsets import K_PLACE, K_BUILD, K_DISCARD, LEARNED_PHASES, LEARNED_STATE, NCOLS, SLOTS

ROUNDS = 9

def load(folder):
    files = sorted(Path(folder).glob("*.npy"))
    rows = []
    for i, p in enumerate(files):
        r = np.load(p).astype(np.float64)
        r[:, 0] += 1e6 * i
        rolled = 1.0 if "rolled" in p.name else 0.0
        rows.append(np.c_[r, np.full(len(r), rolled)])
    return np.vstack(rows)

def design(rows, feats):
    game, dec, kind, rnd, a, b, value, chosen = (rows[:, i] for i in range(8))
    x = rows[:, 8:8 + LEARNED_STATE]
    rolled = rows[:, -1]
    group = (game * 100000 + dec).astype(np.int64)
    _, inv, counts = np.unique(group, return_inverse=True, return_counts=True)
    keep = counts[inv] > 1
    kind, rnd, a, b, value, chosen, inv, x, rolled = (y[keep] for y in (kind, rnd, a, b, value, chosen, inv, x, rolled))
    _, inv = np.unique(inv, return_inverse=True)
    order = np.argsort(inv, kind="stable")
    kind, rnd, a, b, value, chosen, inv, x, rolled = (y[order] for y in (kind, rnd, a, b, value, chosen, inv, x, rolled))
    slot = np.where(kind == K_PLACE, 0, np.where(kind == K_BUILD, 1, 2)).astype(np.int64)
    phase = np.minimum(LEARNED_PHASES - 1, (rnd.astype(np.int64) - 1) * LEARNED_PHASES // ROUNDS)
    f = feats(x, phase)  # rows x F
    F = f.shape[1]
    base = (slot * LEARNED_PHASES + phase) * NCOLS
    ia = base + a.astype(np.int64)
    ib = np.where(b >= 0, base + b.astype(np.int64), -1)
    sign = np.where(kind == K_DISCARD, -1.0, 1.0)
    starts = np.flatnonzero(np.r_[True, inv[1:] != inv[:-1]])
    first = SLOTS * LEARNED_PHASES * NCOLS + (slot[:, None] * F + np.arange(F)) * NCOLS
    xa = first + a.astype(np.int64)[:, None]
    xb = np.where(b[:, None] >= 0, first + np.maximum(b, 0).astype(np.int64)[:, None], -1)
    noff = SLOTS * LEARNED_PHASES * NCOLS + SLOTS * F * NCOLS
    return dict(slot=slot, value=value, ia=ia, ib=ib, sign=sign, chosen=chosen, group=inv,
                starts=starts, x=f, xa=xa, xb=xb, noff=noff, rolled=rolled[starts])

def nll(theta, d, lam):
    learn_offsets.NOFF = d["noff"]  # its gradient's length; the rest of the fit is learn_offsets'
    return learn_offsets.nll(theta, d, lam)


def agreement(theta, d, mask=None):
    s = learn_offsets.scores(theta, d); starts = d["starts"]
    gmax = np.maximum.reduceat(s, starts)
    ok = np.add.reduceat((s >= gmax[d["group"]]) * d["chosen"], starts) > 0
    slots = d["slot"][starts]
    m = np.ones(len(starts), bool) if mask is None else mask
    return tuple(round(float(ok[(slots == k) & m].mean()), 3) for k in range(SLOTS))


FEATS = {
    "base": lambda x, ph: x,
    "half": lambda x, ph: np.c_[x * (ph < 4)[:, None], x * (ph >= 4)[:, None]],
    "third": lambda x, ph: np.c_[x * (ph < 3)[:, None], x * ((ph >= 3) & (ph < 6))[:, None], x * (ph >= 6)[:, None]],
    "sq": lambda x, ph: np.c_[x, x ** 2 / np.maximum(1, np.abs(x).max(axis=0))],
    "pairs": lambda x, ph: np.c_[x, np.stack([x[:, i] * x[:, j] for i in range(x.shape[1]) for j in range(i + 1, x.shape[1])], 1) / 10],
}

if __name__ == "__main__":
    rows = load(sys.argv[1])
    games = np.unique(rows[:, 0])
    rng = np.random.default_rng(0)
    test_games = rng.choice(games, size=len(games) // 5, replace=False)
    is_test = np.isin(rows[:, 0], test_games)
    for name in sys.argv[2:]:
        name, lam = (name.split("@") + ["1"])[:2]
        tr = design(rows[~is_test], FEATS[name]); te = design(rows[is_test], FEATS[name])
        th0 = np.r_[np.full(SLOTS, 0.05), np.zeros(tr["noff"])]
        th = minimize(nll, th0, args=(tr, float(lam)), jac=True, method="L-BFGS-B", options=dict(maxiter=3000)).x
        print(name, lam, "held-out", agreement(th, te), "held-out rolled", agreement(th, te, te["rolled"] > 0),
              "teacher", agreement(th, te, te["rolled"] == 0), "train", agreement(th, tr), flush=True)
