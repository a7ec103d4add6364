"""Corrections learned from searched games (nesim/learn.py, `nesim learn`), added in solo to
strong's one-ply values: per card and phase of the game for placements, builds and hand values,
and per card and number of the seat's position (``learned_state``). They come from
``strategies/strong_learned/<game>.csv``, cards named by key, which ``table_rows`` reads and the
runner seats below the card table (nesim/registry.py, game_table); the ``learned`` parameter
scales them (0: off). Two- to four-player games never read them.
"""

import csv
from pathlib import Path

import numpy as np
from numba import njit

from nesim.cards import GameData
from nesim.errors import NesimError
from nesim.kernel.api import CTX_WORKPLACE, K_BUILD, K_DISCARD, K_KEEP, K_PLACE, build_cards, option_card
from nesim.kernel.core import units_left
from nesim.kernel.tables import CONS, NCOLS, NROWS, R, R_ROUNDS, card_ids
from strategies.strong.queries import wage_at
from strategies.strong.values import keep_values, option_value
from strategies.strong.weights import P_LEARNED

# Learned corrections: rows LEARNED_ROW on of an extended card table hold, in thousandths of a
# point, an offset per card and phase of the game for placements, builds and hand values (keeps
# and discards), then, per family in the same order, a coefficient per card on each of the
# LEARNED_STATE numbers of learned_state (the seat's position), so that a correction can depend
# on it. A table may stop after any row: the rows it lacks count as zeros.
LEARNED_ROW = NROWS
LEARNED_PHASES = 9
LEARNED_STATE = 8
LEARNED_FAMILIES = ("place", "build", "hand")  # a row per phase each, in this order
LEARNED_STATE_ROW = LEARNED_ROW + len(LEARNED_FAMILIES) * LEARNED_PHASES
LEARNED_PLACE_STATE = LEARNED_STATE_ROW  # the placements' coefficients come first
LEARNED_END = LEARNED_STATE_ROW + len(LEARNED_FAMILIES) * LEARNED_STATE
LEARNED_STATE_NAMES = ("short_now", "workers", "hand", "units_left", "money", "items", "vp",
                       "short_two")  # the numbers of learned_state, in its order
LEARNED_DIR = Path(__file__).parent.parent / "strong_learned"


def learned_row(family: str, index: str) -> int:
    """The table row of one line of a corrections file: a family of LEARNED_FAMILIES with its
    phase (0 to LEARNED_PHASES - 1), or the family with ``_state`` and a name of
    LEARNED_STATE_NAMES (``place_state``, ``money``)."""
    if family.endswith("_state"):
        f = LEARNED_FAMILIES.index(family[:-len("_state")])
        return LEARNED_STATE_ROW + f * LEARNED_STATE + LEARNED_STATE_NAMES.index(index)
    phase = int(index)
    if not 0 <= phase < LEARNED_PHASES:
        raise ValueError(f"phase {phase} outside 0-{LEARNED_PHASES - 1}")
    return LEARNED_ROW + LEARNED_FAMILIES.index(family) * LEARNED_PHASES + phase


def learned_row_names() -> list[tuple[str, str]]:
    """(family, index) of every learned row, in the order of the table."""
    names = [(f, str(ph)) for f in LEARNED_FAMILIES for ph in range(LEARNED_PHASES)]
    return names + [(f + "_state", name) for f in LEARNED_FAMILIES for name in LEARNED_STATE_NAMES]


def table_rows(data: GameData) -> np.ndarray | None:
    """The learned corrections for ``data``'s game as the rows strong reads below the card table,
    from ``strong_learned/<game>.csv`` (None when the game has no such file), up to the last row
    the file fills: strong skips the work of the rows a table lacks.

    The file names cards by key, so a variant of the game keeps the corrections of the cards it
    still has; a card it adds gets none, and a line for a card it lacks is skipped.
    """
    path = LEARNED_DIR / f"{data.game}.csv"
    if not path.exists():
        return None
    ids = card_ids(data)
    rows = np.zeros((LEARNED_END - LEARNED_ROW, NCOLS), dtype=np.int64)
    with path.open(newline="") as f:
        for number, line in enumerate(csv.DictReader(f), start=2):
            try:
                if line["card"] in ids:
                    row = learned_row(line["family"], line["index"]) - LEARNED_ROW
                    rows[row, ids[line["card"]]] = int(line["millipoints"])
            except (KeyError, ValueError, TypeError) as exc:  # a hand-edited file: name the line
                raise NesimError(f"{path}: line {number}: not family,index,card,millipoints "
                                 f"({type(exc).__name__}: {exc})") from None
    filled = np.flatnonzero(rows.any(axis=1))
    return rows[:filled[-1] + 1] if len(filled) else None


def write_table_rows(data: GameData, rows: np.ndarray, path: Path) -> int:
    """Writes learned rows (as table_rows returns them) to a corrections file, one line per card
    with a correction; returns the number of lines."""
    keys = {cid: key for key, cid in card_ids(data).items()}
    lines = 0
    with path.open("w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["family", "index", "card", "millipoints"])
        for row, (family, index) in zip(range(rows.shape[0]), learned_row_names()):
            for cid in np.nonzero(rows[row])[0]:
                out.writerow([family, index, keys[int(cid)], int(rows[row, cid])])
                lines += 1
    return lines


@njit(cache=True, _nrt=False)
def has_learned(tab, params):
    """Whether the table carries learned corrections and strong reads them."""
    return tab.shape[0] > LEARNED_ROW and params[P_LEARNED] != 0


@njit(cache=True, _nrt=False)
def one_ply_values(kind, s, tab, p, opts, n, ctx, params, w, keep, worth, position, out):
    """out[:n] = each option's one-ply value, with the learned correction in solo where the
    table has one; ``keep`` and ``position`` are room for the keep values and the position."""
    wp = ctx[CTX_WORKPLACE] if kind == K_BUILD else 0
    if kind == K_PLACE:
        keep_values(s, tab, p, w, worth, keep)
    learned = s.n == 1 and has_learned(tab, params)
    phase = npos = 0
    if learned:  # the round's rows and the position are the same for every option
        phase = learned_phase(s, tab)
        npos = learned_position(s, tab, p, kind, position)
    for i in range(n):
        out[i] = option_value(kind, s, tab, p, opts[i], wp, w, keep, worth)
        if learned:
            out[i] += params[P_LEARNED] * learned_offset(kind, s, tab, opts[i], phase, position, npos)


@njit(cache=True, _nrt=False)
def learned_phase(s, tab):
    return min(LEARNED_PHASES - 1, (s.round - 1) * LEARNED_PHASES // tab[R, R_ROUNDS])


@njit(cache=True, _nrt=False)
def learned_state(s, tab, p, j):
    """Number j of the seat's position: the wages it is short of this payday, its workers
    beyond three, its hand, its units left after this one, its money, its consumer items, its VP
    tokens, the wages it is short of for this payday and the next (each roughly 0-2)."""
    if j == 0:
        return max(0, s.workers[p] * wage_at(tab, s.round) - s.money[p]) / 5.0
    if j == 1:
        return s.workers[p] - 3.0
    if j == 2:
        return s.hand_n[p] / 5.0
    if j == 3:
        return units_left(s, p) - 1.0
    if j == 4:
        return s.money[p] / 10.0
    if j == 5:
        return s.hand[p, CONS] / 3.0
    if j == 6:
        return s.vp[p] / 3.0
    nxt = wage_at(tab, s.round + 1) if s.round < tab[R, R_ROUNDS] else 0
    return max(0, s.workers[p] * (wage_at(tab, s.round) + nxt) - s.money[p]) / 10.0


@njit(cache=True, _nrt=False)
def learned_family(kind):
    """The family of learned rows a decision reads: 0 placements, 1 builds, 2 keeps and discards."""
    if kind == K_PLACE:
        return 0
    if kind == K_BUILD:
        return 1
    return 2


@njit(cache=True, _nrt=False)
def learned_position(s, tab, p, kind, position):
    """Fills position[:k] with the numbers of the seat's position the decision's correction reads
    (k: as many as the table has coefficient rows for) and returns k."""
    base = LEARNED_STATE_ROW + learned_family(kind) * LEARNED_STATE
    k = max(0, min(LEARNED_STATE, tab.shape[0] - base))
    for j in range(k):
        position[j] = learned_state(s, tab, p, j)
    return k


@njit(cache=True, _nrt=False)
def learned_card(tab, family, card, ph, position, npos):
    """One card's correction, in thousandths of a point: its phase offset and its coefficients
    times the position."""
    off = float(tab[LEARNED_ROW + family * LEARNED_PHASES + ph, card])
    base = LEARNED_STATE_ROW + family * LEARNED_STATE
    for j in range(npos):
        off += tab[base + j, card] * position[j]
    return off


@njit(cache=True, _nrt=False)
def learned_offset(kind, s, tab, v, ph, position, npos):
    """The correction, in points, the table's learned rows add to option v's one-ply value in
    phase ``ph``, with ``position[:npos]`` from learned_position."""
    if kind == K_PLACE:
        return learned_card(tab, 0, option_card(s, v), ph, position, npos) / 1000.0
    if kind == K_BUILD:
        a, b = build_cards(v)
        off = learned_card(tab, 1, a, ph, position, npos)
        if b >= 0:
            off += learned_card(tab, 1, b, ph, position, npos)
        return off / 1000.0
    if kind == K_KEEP:
        return learned_card(tab, 2, v, ph, position, npos) / 1000.0
    if kind == K_DISCARD:
        return -learned_card(tab, 2, v, ph, position, npos) / 1000.0
    return 0.0
