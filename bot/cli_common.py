"""What the CLI's command modules share: the settings the main callback read, the one-line exit,
and stdin read as lines."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import NoReturn

import typer

from bot.exitcodes import ExitCode
from bot.settings import Settings

#: The settings of this run, set by ``bot.cli.main`` before any command runs.
state: dict[str, Settings] = {}


def fail(message: str, code: ExitCode) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def stdin_lines() -> Iterator[str]:
    """One query per line of stdin, read as UTF-8 whatever the locale (bad bytes become U+FFFD)."""
    for line in io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"):
        yield line.rstrip("\n")
