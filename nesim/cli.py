"""The ``nesim`` command line.

Commands are added to the group ``cli`` elsewhere with ``@cli.command()``. The console script
``nesim`` runs :func:`main`.

User errors are one line: a :class:`~nesim.errors.NesimError` raised anywhere inside a command,
and click's own usage errors (unknown command or option, bad value, missing argument), print
exactly ``nesim: error: <message>`` on stderr and exit with status 2, without a traceback and
without click's usage block. ``--help`` and ``--version`` behave as usual (exit 0).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import click

from nesim import __version__
from nesim.errors import NesimError

PROG = "nesim"
USER_ERROR_EXIT = 2

# click >= 8.2 raises this (a UsageError) for a group called without a command; it shows the
# help text and is left as click handles it.
_NoArgsIsHelpError = getattr(click.exceptions, "NoArgsIsHelpError", None)


def one_line(message: str) -> str:
    """The message with its lines joined, so that an error is always shown on one line."""
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip())


class UserError(click.ClickException):
    """A user error as shown to the user: one line ``nesim: error: ...``, exit status 2."""

    exit_code = USER_ERROR_EXIT

    def show(self, file=None) -> None:  # noqa: ANN001 - click's signature
        click.echo(f"{PROG}: error: {one_line(self.format_message())}", file=file, err=True)


def _message(exc: BaseException) -> str:
    if isinstance(exc, click.ClickException):
        text = exc.format_message()
    else:
        text = str(exc)
    return one_line(text) or type(exc).__name__


@contextlib.contextmanager
def _one_line_errors() -> Iterator[None]:
    """Turn NesimError and click's exceptions into :class:`UserError`."""
    try:
        yield
    except UserError:
        raise
    except click.ClickException as exc:
        if _NoArgsIsHelpError is not None and isinstance(exc, _NoArgsIsHelpError):
            raise
        raise UserError(_message(exc)) from exc
    except NesimError as exc:
        raise UserError(_message(exc)) from exc


class NesimGroup(click.Group):
    """A click group whose errors, from parsing or from any command below it, are one line."""

    def make_context(self, info_name, args, parent=None, **extra):  # noqa: ANN001
        with _one_line_errors():
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx: click.Context):
        with _one_line_errors():
            return super().invoke(ctx)


@click.group(
    cls=NesimGroup,
    name=PROG,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "--version", prog_name=PROG, message="%(prog)s %(version)s")
def cli() -> None:
    """nesim: simulate the National Economy card games (Progress, Mecenat, Glory) and
    analyse their balance."""


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run :data:`cli` and exit with its status."""
    try:
        cli.main(args=argv, prog_name=PROG)
    except NesimError as exc:  # raised outside any command, e.g. by a context close callback
        click.echo(f"{PROG}: error: {_message(exc)}", err=True)
        sys.exit(USER_ERROR_EXIT)
