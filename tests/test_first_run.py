"""The first run (issue 39, item 13): a cold Numba cache is announced, a warm one is silent, and a
run compiles only the strategies it uses."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from numba import njit

from nesim import compiling
from nesim.compiling import KERNEL, CompileNotice, announce_compiles, header, piece_of

NESIM = str(Path(sys.executable).with_name("nesim"))
HEADER = re.compile(r"^nesim: compiling (.+) \(first run only, about (\d+) minutes? on 2 cores\)\.\.\.$")


def _lines(body) -> list[str]:
    lines: list[str] = []
    with announce_compiles(lines.append):
        body()
    return lines


def test_a_compile_is_announced_once_then_each_piece_with_its_time():
    @njit
    def first(x):
        return x + 1

    @njit
    def second(x):
        return first(x) * 2  # compiles `first` inside it: one piece, not two

    lines = _lines(lambda: (second(1), first(1.5)))
    assert len(lines) == 3, lines
    assert HEADER.match(lines[0]), lines[0]
    assert re.fullmatch(r"nesim: compiled (tests\.)?test_first_run\..*second \(\d+ s\)", lines[1]), lines[1]
    assert re.fullmatch(r"nesim: compiled (tests\.)?test_first_run\..*first \(\d+ s\)", lines[2]), lines[2]


def test_nothing_is_said_when_nothing_compiles():
    @njit
    def ready(x):
        return x - 1

    ready(1)  # compiled before: like a function loaded from the cache, it does not compile again
    assert _lines(lambda: ready(2)) == []


def test_the_first_line_names_the_kernel_and_the_strategies_with_an_estimate():
    m = HEADER.match(header(["strategy strong", KERNEL, "strategy random"]))
    assert m and m.group(1) == "the game kernel and strategies strong, random"
    assert int(m.group(2)) >= 1
    assert HEADER.match(header(["strategy random"])).group(1) == "strategy random"


def _first_line(plays: bool) -> str:
    lines: list[str] = []
    notice = CompileNotice(lines.append, plays)
    notice.expect(["strategy unused_a", "strategy unused_b"])  # what resolve_seats announces
    notice.on_start("strategy unused_a")
    notice.on_end("strategy unused_a")
    assert re.fullmatch(r"nesim: compiled strategy unused_a \(\d+ s\)", lines[1]), lines
    return HEADER.match(lines[0]).group(1)


def test_the_first_line_names_every_strategy_expected_and_the_kernel_last(monkeypatch):
    monkeypatch.setattr(compiling, "_kernel_loaded", lambda: False)
    assert _first_line(plays=True) == "the game kernel and strategies unused_a, unused_b"


def test_a_command_that_plays_no_game_does_not_announce_the_kernel(monkeypatch):
    monkeypatch.setattr(compiling, "_kernel_loaded", lambda: False)
    assert _first_line(plays=False) == "strategies unused_a, unused_b"


def test_code_is_named_as_the_user_knows_it():
    assert piece_of("strategies.strong", "choose") == "strategy strong"
    assert piece_of("strategies.strong.values", "build_value") == "strategy strong"  # its package
    assert piece_of("strategies._common", "decide") == KERNEL  # a helper compiled on its own
    assert piece_of("nesim.kernel.core", "play_batch") == KERNEL


def test_resolving_a_strategy_imports_no_other_strategy():
    code = ("import sys; from nesim.registry import resolve, resolve_seats; resolve('random'); "
            "resolve_seats('greedy:reserve=2,random', 2); "
            "print(sorted(m for m in sys.modules if m.startswith('strategies.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['strategies._common', 'strategies.greedy', 'strategies.random']"


def test_an_unknown_strategy_is_named_with_the_known_ones_without_importing_them():
    code = ("import sys; from nesim.errors import NesimError; from nesim.registry import resolve\n"
            "try: resolve('nosuch')\nexcept NesimError as e: print(e)\n"
            "print([m for m in sys.modules if m.startswith('strategies.')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["unknown strategy 'nosuch' (known: economy, expert, greedy, priority, random, sets, strong, "
                                "vp_tokens, workers)", "[]"]


@pytest.mark.slow
def test_a_cold_cache_is_announced_and_a_warm_one_is_silent(tmp_path):
    """Compiles the kernel and ``random`` from nothing: minutes on a busy 2-core machine."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}

    def simulate(out):
        return subprocess.run([NESIM, "simulate", "--game", "progress", "--players", "2", "--strategies",
                               "random", "--games", "4", "--quiet", "--out", str(tmp_path / out)],
                              capture_output=True, text=True, env=env, check=True).stderr.splitlines()

    cold = simulate("cold")
    assert HEADER.match(cold[0]) and HEADER.match(cold[0]).group(1) == "the game kernel and strategy random", cold
    done = [line for line in cold[1:] if line.startswith("nesim: compiled ")]
    assert {re.sub(r" \(\d+ s\)$", "", line) for line in done} == {"nesim: compiled strategy random",
                                                                     "nesim: compiled the game kernel"}, cold
    assert simulate("warm") == []
