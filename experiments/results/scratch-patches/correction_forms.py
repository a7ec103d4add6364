"""Scratch: would a richer linear form of the corrections agree better with the teacher, held out?

    PYTHONPATH=.:experiments .venv/bin/python experiments/results/scratch-patches/correction_forms.py \
        FOLDER base half third sq pairs base@0.3 base@3

FOLDER holds the rows of learn_offsets.py teach and roll-in (files named ``*rolled*`` are the
rolled-in windows). Each form is fitted as ``fit --state all`` is, on four games (windows) in five,
``NAME@LAM`` with that penalty, and its agreement printed for the rest: all, rolled-in, teacher's
own games, and the training games. The forms differ only in what multiplies each card's
coefficients (learn_offsets.design has the 8 numbers of the position): ``half`` and ``third`` a
set of them per part of the game, ``sq`` the numbers and their squares, ``pairs`` the numbers and
their pairwise products (learn_offsets.design with ``features``); ``base`` is fit's own form and
agrees as `fit` prints. Run on round 3's games and 1107 windows (the rows of tn8r3e.npy).
"""
import sys
from pathlib import Path

import numpy as np

from learn_offsets import SLOTS, agreement, design, fitted

ROUNDS = 9


def load(folder):
    """The rows of every file in ``folder``, game numbers made distinct per file, and a last
    column: 1 for a rolled-in window's row."""
    rows = []
    for i, p in enumerate(sorted(Path(folder).glob("*.npy"))):
        r = np.load(p).astype(np.float64)
        r[:, 0] += 1e6 * i
        rows.append(np.c_[r, np.full(len(r), 1.0 if "rolled" in p.name else 0.0)])
    return np.vstack(rows)


def pairs(x):
    return np.stack([x[:, i] * x[:, j] for i in range(x.shape[1]) for j in range(i + 1, x.shape[1])], 1)


FEATS = {
    "base": lambda x, ph: x,
    "half": lambda x, ph: np.c_[x * (ph < 4)[:, None], x * (ph >= 4)[:, None]],
    "third": lambda x, ph: np.c_[x * (ph < 3)[:, None], x * ((ph >= 3) & (ph < 6))[:, None], x * (ph >= 6)[:, None]],
    "sq": lambda x, ph: np.c_[x, x ** 2 / np.maximum(1, np.abs(x).max(axis=0))],
    "pairs": lambda x, ph: np.c_[x, pairs(x) / 10],
}


def shown(agree):
    return tuple(round(agree[k], 3) for k in range(SLOTS))


if __name__ == "__main__":
    rows = load(sys.argv[1])
    games = np.unique(rows[:, 0])
    test_games = np.random.default_rng(0).choice(games, size=len(games) // 5, replace=False)
    is_test = np.isin(rows[:, 0], test_games)
    for arg in sys.argv[2:]:
        name, lam = (arg.split("@") + ["1"])[:2]
        tr, te = (design(rows[part, :-1], ROUNDS, 3, FEATS[name]) for part in (~is_test, is_test))
        rolled = rows[is_test, -1][te["row"][te["starts"]]] > 0
        th = fitted(tr, float(lam))
        print(name, lam, "held-out", shown(agreement(th, te)), "held-out rolled", shown(agreement(th, te, rolled)),
              "teacher", shown(agreement(th, te, ~rolled)), "train", shown(agreement(th, tr)), flush=True)
