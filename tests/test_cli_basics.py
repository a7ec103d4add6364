"""The CLI's outside: --help, --version and one-line user errors (run as a subprocess)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import nesim

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_python("-m", "nesim", *args)


def run_python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("nesim: error:"), proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    return lines[0]


def test_help_exits_0_and_shows_usage() -> None:
    proc = run("--help")
    assert proc.returncode == 0, proc.stderr
    assert "Usage:" in proc.stdout
    assert "nesim" in proc.stdout
    assert "--version" in proc.stdout


def test_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0, proc.stderr
    assert "0.1.0" in proc.stdout
    assert nesim.__version__ == "0.1.0"


def test_unknown_command_is_one_line_error() -> None:
    line = assert_one_line_error(run("no-such-command"))
    assert "no-such-command" in line


def test_unknown_option_is_one_line_error() -> None:
    line = assert_one_line_error(run("--no-such-option"))
    assert "--no-such-option" in line


def test_nesim_error_in_a_command_is_one_line_error() -> None:
    # A throwaway group of the same class as ``nesim.cli.cli``, with a command that fails.
    script = textwrap.dedent(
        """
        import click
        from nesim.cli import NesimGroup
        from nesim.errors import NesimError

        @click.group(cls=NesimGroup)
        def group():
            pass

        @group.command()
        @click.option("--count", type=int, default=1)
        def boom(count):
            raise NesimError("unknown card 'cathederal'\\n(multi-line messages are joined)")

        group.main(["boom", *__import__("sys").argv[1:]], prog_name="nesim")
        """
    )
    line = assert_one_line_error(run_python("-c", script))
    assert line == "nesim: error: unknown card 'cathederal' (multi-line messages are joined)"

    line = assert_one_line_error(run_python("-c", script, "--count", "many"))
    assert "'many'" in line and "--count" in line
