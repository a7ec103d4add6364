"""Says on stderr what Numba compiles, so that a first run is not minutes of silence.

Every compiled function is kept in Numba's cache (``cache=True``); a later run loads it in a
fraction of a second. Only a cold cache (a fresh clone, an edited kernel or strategy file, an
empty ``NUMBA_CACHE_DIR``) compiles, and only then does :func:`announce_compiles` print:

    nesim: compiling the game kernel and strategies strong, random (first run only, about 4 minutes on 2 cores)...
    nesim: compiled strategy strong (50 s)
    nesim: compiled strategy random (2 s)
    nesim: compiled the game kernel (170 s)

A cold cache is detected by Numba itself: its ``numba:compile`` event fires only when a function
is compiled, not when it is loaded from the cache, so a warm start prints nothing by
construction (no guess from cache file names, which stay behind when a source file changes).
"""

from __future__ import annotations

import contextlib
import math
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Callable

KERNEL = "the game kernel"

# CPU minutes each piece takes to compile on a cold cache, measured on the 2-core development
# machine (user+sys of a run with an empty NUMBA_CACHE_DIR: 3.0 for the kernel with random, 3.8
# with strong, greedy and economy too; see README, "First run"). Compiling is single-threaded, so
# on an idle machine these are minutes of waiting too. Only used for the estimate in the first line.
_CPU_MINUTES = {KERNEL: 2.9, "strategy strong": 0.6}
_CPU_MINUTES_OTHER_STRATEGY = 0.1

_active: "CompileNotice | None" = None


def piece_of(module: str, qualname: str) -> str:
    """What a user calls the code a compiled function belongs to: a strategy, or the kernel."""
    if module.startswith("strategies."):
        name = module.split(".")[1]  # a strategy package's modules are that strategy
        if not name.startswith("_"):
            return f"strategy {name}"
    if module.startswith("nesim.kernel") or module.startswith("strategies."):
        return KERNEL
    return f"{module}.{qualname}"


def estimate_minutes(pieces: Iterable[str]) -> int:
    """Whole minutes, at least one, that compiling these pieces takes on a cold cache."""
    total = sum(_CPU_MINUTES.get(p, _CPU_MINUTES_OTHER_STRATEGY) for p in pieces)
    return max(1, math.ceil(total))


def header(pieces: list[str]) -> str:
    """The line printed before the first compile, naming everything expected to compile."""
    kernel = [p for p in pieces if p == KERNEL]
    strategies = [p.split(" ", 1)[1] for p in pieces if p.startswith("strategy ")]
    others = [p for p in pieces if p != KERNEL and not p.startswith("strategy ")]
    named = kernel + others
    if strategies:
        named.append(("strategy " if len(strategies) == 1 else "strategies ") + ", ".join(strategies))
    what = " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)
    return (f"nesim: compiling {what} (first run only, about {estimate_minutes(pieces)} "
            f"minute{'s' * (estimate_minutes(pieces) != 1)} on 2 cores)...")


class CompileNotice:
    """Listens to Numba's compile events and prints the header once, then one line per piece.

    Only the outermost compile counts as a piece: the functions it calls are compiled inside it
    (nested events), and their time is its time."""

    def __init__(self, write: Callable[[str], None], plays: bool = True):
        self.write = write
        self.plays = plays  # the command plays games, so the kernel compiles unless loaded already
        self.expected: list[str] = []  # pieces the command will use, in order (see expect)
        self.done: set[str] = set()  # pieces loaded or compiled already
        self.announced = False
        self._depth = 0
        self._started = 0.0

    def expect(self, pieces: Iterable[str]) -> None:
        for p in pieces:
            if p not in self.expected:
                self.expected.append(p)

    def on_start(self, piece: str) -> None:
        self._depth += 1
        if self._depth > 1:
            return
        if not self.announced:
            self.announced = True
            self.write(header(self._still_to_come(piece)))
        self._started = time.perf_counter()

    def on_end(self, piece: str) -> None:
        self._depth -= 1
        if self._depth == 0:
            self.done.add(piece)
            self.write(f"nesim: compiled {piece} ({time.perf_counter() - self._started:.0f} s)")

    def _still_to_come(self, piece: str) -> list[str]:
        """The piece compiling now and those expected after it, the kernel last (it is compiled
        when the first game is played, after every strategy is loaded)."""
        if self.plays and not _kernel_loaded():
            self.expect([KERNEL])
        later = [p for p in self.expected if p != piece and p not in self.done and not _loaded(p)]
        return [piece] + sorted(later, key=lambda p: p == KERNEL)


def _loaded(piece: str) -> bool:
    """A strategy already imported in this process is compiled or loaded: it will not compile."""
    return piece.startswith("strategy ") and f"strategies.{piece.split(' ', 1)[1]}" in sys.modules


def _kernel_loaded() -> bool:
    core = sys.modules.get("nesim.kernel.core")
    return core is not None and bool(core.play_batch.overloads)


def expect_strategies(names: Iterable[str]) -> None:
    """Tells the active notice (if any) which strategies the command is about to load, so that
    the first line names them all."""
    if _active is not None:
        _active.expect(f"strategy {n}" for n in names)


@contextlib.contextmanager
def announce_compiles(write: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True),
                      plays: bool = True) -> Iterator[CompileNotice]:
    """While active, every Numba compile is announced through ``write`` (see the module text);
    ``plays``: the command plays games (and so needs the kernel), not only loads strategies."""
    global _active
    from numba.core import event

    notice = CompileNotice(write, plays)

    class _Listener(event.Listener):
        def on_start(self, ev):
            notice.on_start(_piece(ev))

        def on_end(self, ev):
            notice.on_end(_piece(ev))

    previous, _active = _active, notice
    try:
        with event.install_listener("numba:compile", _Listener()):
            yield notice
    finally:
        _active = previous


def _piece(ev) -> str:
    py_func = ev.data["dispatcher"].py_func
    return piece_of(py_func.__module__, py_func.__qualname__)
