"""Corrections learned from searched games (nesim/learn.py, `nesim learn`), added to strong's
one-ply values: per card and phase of the game for placements, builds and hand values, and per
card and number of the seat's position (``learned_state``). There is one block of them per number
of players, learned from searched games of that many players: ``strategies/strong_learned/
<game>.csv`` (solo), ``<game>-2p.csv``, ``-3p.csv``, ``-4p.csv``, cards named by key, which
``table_rows`` reads and the runner seats below the card table (nesim/registry.py, game_table).
The ``learned`` parameter scales the solo block (0: off), ``learned_multi`` those of 2-4 players
(0, strong's default: off; expert sets it, docs/LEARN.md).
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
from strategies.strong.weights import P_LEARNED, P_LEARNED_MULTI

# Learned corrections: rows LEARNED_ROW on of an extended card table hold, in thousandths of a
# point, an offset per card and phase of the game for placements, builds and hand values (keeps
# and discards), then, per family in the same order, a coefficient per card on each of the
# LEARNED_STATE numbers of learned_state (the seat's position), so that a correction can depend
# on it. A table may stop after any row: the rows it lacks count as zeros. One such block per
# number of players follows the other (learned_block), solo first.
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
LEARNED_BLOCK = LEARNED_END - LEARNED_ROW  # rows of one block
LEARNED_FILES = ("{game}.csv", "{game}-2p.csv", "{game}-3p.csv", "{game}-4p.csv")  # per block


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
    """The learned corrections for ``data``'s game as the rows strong reads below the card table:
    one block per number of players, from the files of LEARNED_FILES (a missing file: zeros),
    up to the last row filled (None when none is): strong skips the work of the rows a table
    lacks.

    The files name cards by key, so a variant of the game keeps the corrections of the cards it
    still has; a card it adds gets none, and a line for a card it lacks is skipped.
    """
    blocks = [read_learned_block(data, LEARNED_DIR / name.format(game=data.game))
              for name in LEARNED_FILES]
    rows = np.vstack(blocks)
    filled = np.flatnonzero(rows.any(axis=1))
    return rows[:filled[-1] + 1] if len(filled) else None


def read_learned_block(data: GameData, path: Path) -> np.ndarray:
    """One block of learned rows from a corrections file (zeros when there is no such file)."""
    rows = np.zeros((LEARNED_BLOCK, NCOLS), dtype=np.int64)
    if not path.exists():
        return rows
    ids = card_ids(data)
    with path.open(newline="") as f:
        for number, line in enumerate(csv.DictReader(f), start=2):
            try:
                if line["card"] in ids:
                    row = learned_row(line["family"], line["index"]) - LEARNED_ROW
                    rows[row, ids[line["card"]]] = int(line["millipoints"])
            except (KeyError, ValueError, TypeError) as exc:  # a hand-edited file: name the line
                raise NesimError(f"{path}: line {number}: not family,index,card,millipoints "
                                 f"({type(exc).__name__}: {exc})") from None
    return rows


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
def has_learned(tab, params, n):
    """Whether the table carries learned corrections for games of n players and strong reads
    them (solo unless ``learned`` is 0; in games of 2-4 players if ``learned_multi`` is set)."""
    scale = params[P_LEARNED] if n == 1 else params[P_LEARNED_MULTI]
    return tab.shape[0] > learned_block(n) and scale != 0


@njit(cache=True, _nrt=False)
def learned_block(n):
    """The first row of the learned block of games of n players."""
    return LEARNED_ROW + (n - 1) * LEARNED_BLOCK


@njit(cache=True, _nrt=False)
def one_ply_values(kind, s, tab, p, opts, n, ctx, params, w, keep, worth, position, out):
    """out[:n] = each option's one-ply value, with the learned correction where the table has
    one for this many players and strong reads it; ``keep`` and ``position`` are room for the
    keep values and the position."""
    wp = ctx[CTX_WORKPLACE] if kind == K_BUILD else 0
    if kind == K_PLACE:
        keep_values(s, tab, p, w, worth, keep)
    learned = has_learned(tab, params, s.n)
    phase = npos = 0
    block = learned_block(s.n)
    scale = params[P_LEARNED] if s.n == 1 else params[P_LEARNED_MULTI]
    if learned:  # the round's rows and the position are the same for every option
        phase = learned_phase(s, tab)
        npos = learned_position(s, tab, p, kind, position, block)
    for i in range(n):
        out[i] = option_value(kind, s, tab, p, opts[i], wp, w, keep, worth)
        if learned:
            out[i] += scale * learned_offset(kind, s, tab, opts[i], phase, position, npos, block)


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
def learned_position(s, tab, p, kind, position, block):
    """Fills position[:k] with the numbers of the seat's position the decision's correction reads
    (k: as many as the table has coefficient rows for, in the block from row ``block``) and
    returns k."""
    base = block + LEARNED_STATE_ROW - LEARNED_ROW + learned_family(kind) * LEARNED_STATE
    k = max(0, min(LEARNED_STATE, tab.shape[0] - base))
    for j in range(k):
        position[j] = learned_state(s, tab, p, j)
    return k


@njit(cache=True, _nrt=False)
def learned_card(tab, family, card, ph, position, npos, block):
    """One card's correction, in thousandths of a point, from the block at row ``block``: its
    phase offset and its coefficients times the position."""
    off = float(tab[block + family * LEARNED_PHASES + ph, card])
    base = block + LEARNED_STATE_ROW - LEARNED_ROW + family * LEARNED_STATE
    for j in range(npos):
        off += tab[base + j, card] * position[j]
    return off


@njit(cache=True, _nrt=False)
def learned_offset(kind, s, tab, v, ph, position, npos, block):
    """The correction, in points, the table's learned rows add to option v's one-ply value in
    phase ``ph``, with ``position[:npos]`` from learned_position."""
    if kind == K_PLACE:
        return learned_card(tab, 0, option_card(s, v), ph, position, npos, block) / 1000.0
    if kind == K_BUILD:
        a, b = build_cards(v)
        off = learned_card(tab, 1, a, ph, position, npos, block)
        if b >= 0:
            off += learned_card(tab, 1, b, ph, position, npos, block)
        return off / 1000.0
    if kind == K_KEEP:
        return learned_card(tab, 2, v, ph, position, npos, block) / 1000.0
    if kind == K_DISCARD:
        return -learned_card(tab, 2, v, ph, position, npos, block) / 1000.0
    return 0.0
