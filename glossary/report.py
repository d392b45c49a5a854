"""``glossary-bot check``: how each file was read and everything wrong with it, in one report.

The same reading as loading (``loader.read_source``), so what ``check`` says is what the app does:
format, encoding, delimiter, sheet, the column each header went to, the languages of each field,
the entry count, then every problem with its line, row or page and column (up to a cap, then a
count). The app prints this report when its glossary does not load.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from glossary.errors import GlossaryError, display_path
from glossary.formats import ReadOptions
from glossary.loader import MAX_PROBLEMS_SHOWN, FileReport, Source, expand, read_source
from glossary.schema import GlossaryDocument
from glossary.tables import Problem
from glossary.validation import check_glossary

LANGUAGE_NAMES = {"en": "English", "hi": "Hindi"}


def check(paths: Sequence[Path], options: ReadOptions) -> list[FileReport]:
    """A report per file or folder of pages (a path that is neither gets one saying so); a cross-file
    problem (a duplicate id) goes to the file it names."""
    reports, documents = [], []
    for path in paths:
        try:
            sources = expand([path])
        except GlossaryError as exc:
            reports.append(FileReport(exc.file, problems=[Problem("file", None, exc.problem)]))
            continue
        for source in sources:
            document, report = _read(source, options)
            reports.append(report)
            if document is not None:
                documents.append((report.path, document))
    if documents and not any(r.problems for r in reports):
        try:
            check_glossary(documents)
        except GlossaryError as exc:
            owner = next((r for r in reports if r.path == exc.file), reports[-1])
            owner.problems.append(Problem("glossary", None, str(exc)))
    return reports


def _read(source: Source, options: ReadOptions) -> tuple[GlossaryDocument | None, FileReport]:
    """``read_source``, with a file that cannot be read at all as a report of its one problem."""
    try:
        return read_source(source, options)
    except GlossaryError as exc:
        report = FileReport(exc.file, format=exc.file.suffix.lstrip(".").upper() or "folder")
        report.problems.append(Problem(f"line {exc.line}" if exc.line else "file", None, _without_place(exc)))
        return None, report


def _without_place(error: GlossaryError) -> str:
    """The error's message without the file (and line) it starts with: the report says those."""
    place = display_path(error.file) + (f":{error.line}" if error.line else "") + ": "
    return str(error).removeprefix(place)


def render(reports: Sequence[FileReport]) -> str:
    """The report as text, one block per file, then, for several, what they hold together: a
    folder's README left out is a block of its own with "entries: 0", which alone read as if the
    folder's glossary were empty."""
    blocks = [_block(report) for report in reports]
    if len(reports) > 1:
        blocks.append(_together(reports))
    return "\n\n".join(blocks)


def _together(reports: Sequence[FileReport]) -> str:
    problems = sum(len(report.problems) for report in reports)
    found = f"{problems} problem(s)" if problems else "problems: none"
    return f"in all: {sum(report.entries for report in reports)} entries from {len(reports)} sources, {found}"


def _block(report: FileReport) -> str:
    details = ", ".join(f"{k} {v}" for k, v in report.details.items())
    lines = [f"{display_path(report.path)}: {report.format}" + (f", {details}" if details else "")]
    if report.columns:
        lines.append("  columns:")
        lines.extend(f"    {c.describe()}" for c in report.columns)
    if report.languages:
        lines.append(
            "  languages: "
            + "; ".join(
                f"{name} " + ", ".join(f"{LANGUAGE_NAMES[lang]} {n}" for lang, n in sorted(counts.items()))
                for name, counts in report.languages.items()
            )
        )
    lines.extend(f"  note: {note}" for note in report.notes)
    lines.append(f"  entries: {report.entries}")
    if not report.problems:
        lines.append("  problems: none")
        return "\n".join(lines)
    lines.append(f"  {len(report.problems)} problem(s):")
    lines.extend(f"    - {problem}" for problem in report.problems[:MAX_PROBLEMS_SHOWN])
    if len(report.problems) > MAX_PROBLEMS_SHOWN:
        lines.append(f"    ... and {len(report.problems) - MAX_PROBLEMS_SHOWN} more")
    return "\n".join(lines)
