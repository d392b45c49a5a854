"""The process exit codes of the ``glossary-bot`` command and of the app, in one enum.

Both front ends refuse in the same terms (a bad setting is 2, an unloadable glossary, model or
index is 3), so scripts and the Space's supervisor can tell the causes apart whichever one ran.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Why a process stopped; the values are part of the documented interface (README, "Command line")."""

    INTERNAL = 1  # an unexpected error: a bug (one line on stderr, ``-v`` logs the traceback)
    USAGE = 2  # an invalid option or setting
    LOAD = 3  # the glossary, model or index cannot be loaded
    INPUT = 4  # an input file cannot be read
    SERVE = 5  # the app cannot listen on its host and port
