"""The CLI's commands about glossary files: how one is read (``check``), a starter file
(``template``) and a one-language view of the configured glossary (``view``); ``bot.cli`` registers
them beside the others."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bot.cli_common import fail, state
from bot.exitcodes import ExitCode


def check(
    files: Annotated[list[Path], typer.Argument(help="Glossary files or folders to check.")],
) -> None:
    """How each glossary file is read (format, encoding, delimiter, sheet, which column is which field,
    languages, entries) and every problem, with its line or row and column. Exit 0 or 3."""
    from glossary.report import check as check_files
    from glossary.report import render

    reports = check_files(files, state["settings"].read_options)
    typer.echo(render(reports))
    if any(r.problems for r in reports):
        raise typer.Exit(ExitCode.LOAD)


def template(
    kind: Annotated[str, typer.Option("--format", help="csv | xlsx | yaml")] = "csv",
    output: Annotated[
        Path | None, typer.Option(help="Where to write it (default glossary-template.<format>).")
    ] = None,
) -> None:
    """Write a starter glossary with one filled example row; only a term and a definition are required."""
    from glossary import template as starter
    from glossary.files import atomic_write

    if kind not in starter.FORMATS:
        fail(f"--format {kind!r}: use one of {', '.join(starter.FORMATS)}", ExitCode.USAGE)
    target = output or Path(f"glossary-template.{kind}")
    if target.exists():
        fail(f"{target} exists; remove it or give --output another name", ExitCode.USAGE)
    try:
        atomic_write(target, starter.render(kind), mode=0o644)
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror or exc}", ExitCode.INPUT)
    typer.echo(f"wrote {target}", err=True)


def view(
    language: Annotated[str, typer.Argument(help="en (English only) or hi (Hindi only).")],
    out: Annotated[Path, typer.Option(help="Folder to write glossary.yaml (and queries.jsonl) into.")],
    questions: Annotated[
        Path | None, typer.Option(help="Labelled questions (JSONL) to map to the view's headings.")
    ] = None,
) -> None:
    """Write the configured glossary as a one-language file would have it (glossary.views)."""
    from glossary import GlossaryError
    from glossary.views import VIEWS, ViewError, write_view

    if language not in VIEWS:
        fail(f"unknown view {language!r}: use {' or '.join(VIEWS)}", ExitCode.USAGE)
    settings = state["settings"]
    try:
        from bot.search.loading import read_glossary

        made = write_view(read_glossary(settings), language, out, questions)
    except GlossaryError as exc:
        fail(str(exc), ExitCode.LOAD)
    except (OSError, ViewError) as exc:
        fail(f"cannot make the {language} view with {questions}: {exc}", ExitCode.INPUT)
    typer.echo(f"{language} view: {len(made)} entries written to {out}", err=True)
