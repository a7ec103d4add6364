"""Errors that nesim reports to the user."""


class NesimError(Exception):
    """A user error: bad input, unknown game, card or strategy, malformed file, ...

    Its message is one line naming the culprit; the CLI shows it as
    ``nesim: error: <message>`` on stderr and exits with status 2, without a traceback.
    """
