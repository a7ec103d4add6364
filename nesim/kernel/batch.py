"""Running the kernel from Python: one call plays a batch of games and returns named arrays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from nesim.cards import GameData
from nesim.kernel import core, search
from nesim.kernel.log import to_reference
from nesim.kernel.tables import LOGMAX, LOGMAX_OPTIONS, MAXBUILDS, MAXOPTS, MAXP, STATE, build_table
from nesim.reference.replay import DecisionLog

MAXPARAMS = 32


@dataclass
class BatchResult:
    """The results of ``len(seeds)`` games of ``n_players`` players (games on the first axis)."""

    data: GameData
    n_players: int
    seeds: np.ndarray  # uint64
    players: np.ndarray  # (games, n_players, NPF) int32: core.F_* fields
    rounds: np.ndarray  # (games, rounds, n_players, NRF) int32: core.RF_* fields after each payday
    games: np.ndarray  # (games, 5) int64: winner, rounds, Budget at the end, error flags, log length
    build_card: np.ndarray  # (games, n_players, MAXBUILDS) int16, -1 past the last build
    build_round: np.ndarray
    logs: np.ndarray | None  # (games, LOGMAX) int32 packed decision logs, when asked for
    options_logged: bool = False  # the logs hold every decision's options too

    def field(self, f: int) -> np.ndarray:
        """One player field (core.F_*) of every game and seat, shape (games, n_players)."""
        return self.players[:, :self.n_players, f]

    def decision_log(self, g: int) -> DecisionLog:
        assert self.logs is not None, "the batch was played without logs"
        return to_reference(self.data, self.n_players, int(self.seeds[g]),
                            self.logs[g, :self.games[g, 4]], self.options_logged)


def play(data: GameData, n_players: int, seeds: Sequence[int] | np.ndarray, strategies: Sequence,
         params: np.ndarray | None = None, with_log: bool | str = False,
         table: np.ndarray | None = None) -> BatchResult:
    """Plays one game per seed; ``strategies`` holds one compiled ``choose`` per seat.

    ``with_log``: False, True (each game's decisions) or "options" (the options of every
    decision as well, for comparing option sets with the reference engine)."""
    if with_log not in (False, True, "options"):
        raise ValueError(f"with_log is False, True or 'options', not {with_log!r}")
    log_mode = core.LOG_OPTIONS if with_log == "options" else int(bool(with_log))
    if not 1 <= n_players <= MAXP:
        raise ValueError(f"1 to {MAXP} players, not {n_players}")
    if len(strategies) != n_players:
        raise ValueError(f"{len(strategies)} strategies for {n_players} players")
    if n_players == 1:
        data.check_solo()
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    g = len(seeds)
    tab = build_table(data) if table is None else table
    if params is None:
        params = np.zeros((MAXP, MAXPARAMS))
    # Only the seats and rounds that are played: the outputs are written once per game, and their
    # page faults cost a noticeable share of a short game's time.
    players = np.zeros((g, n_players, core.NPF), dtype=np.int32)
    rounds = np.zeros((g, data.rules.rounds, n_players, core.NRF), dtype=np.int32)
    games = np.zeros((g, 5), dtype=np.int64)
    build_card = np.full((g, n_players, MAXBUILDS), -1, dtype=np.int16)
    build_round = np.full((g, n_players, MAXBUILDS), -1, dtype=np.int16)
    logs = np.zeros((g if with_log else 1, LOGMAX_OPTIONS if with_log == "options" else LOGMAX),
                    dtype=np.int32)
    st = np.zeros(search.LOOKAHEAD_STATES, dtype=STATE)  # the game, a playout's copy, a checkpoint
    buf = np.zeros((search.LOOKAHEAD_ROWS, MAXOPTS), dtype=np.int64)
    params = np.ascontiguousarray(params, dtype=np.float64)
    fns = tuple(strategies[i % n_players] for i in range(MAXP))
    core.play_batch(seeds, n_players, tab, fns, params, st, buf, np.int64(log_mode), players, rounds, games,
                    build_card, build_round, logs)
    return BatchResult(data, n_players, seeds, players, rounds, games, build_card, build_round,
                       logs if with_log else None, with_log == "options")
