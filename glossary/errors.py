"""Errors that point a user at the exact file, line, record and field to fix.

Everything that can go wrong while importing seeds or loading glossary files is
raised as a ``GlossaryError`` so callers (bot start-up, CLI) need one ``except``
and can still show a precise, actionable message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

RECORD_KINDS = {"entries": "entry", "tables": "table", "faq": "faq item"}


class GlossaryError(ValueError):
    """A glossary file (or seed) is unreadable, malformed or inconsistent."""

    def __init__(
        self,
        file: Path | str,
        problem: str,
        *,
        entry: str | int | None = None,
        field: str | None = None,
        line: int | None = None,
        record: str = "entry",
    ) -> None:
        self.file = Path(file)
        self.problem = problem
        self.entry = entry
        self.field = field
        self.line = line
        parts = [display_path(self.file) + (f":{line}" if line else "")]
        if isinstance(entry, str):
            parts.append(f"{record} '{entry}'")
        elif entry is not None:
            parts.append(f"{record} at index {entry}")
        if field:
            parts.append(f"field '{field}'")
        parts.append(problem)
        super().__init__(": ".join(parts))


class SeedFormatError(GlossaryError):
    """A seed document does not have the layout the importer was written for."""


def display_path(path: Path) -> str:
    """Show paths relative to the working directory when possible: shorter and copy-pasteable."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def from_validation_error(
    file: Path,
    exc: ValidationError,
    raw: Mapping[str, Any],
    entry_lines: Sequence[int] | None = None,
    field_names: Mapping[str, str] | None = None,
) -> GlossaryError:
    """Turn pydantic's first error on a document dict into a GlossaryError naming record and field.

    ``entry_lines`` maps entry index to a line in ``file`` and ``field_names`` maps schema field
    paths to the names the user wrote (CSV rows and columns), so the message points at their input.
    """
    errors = exc.errors()
    loc = errors[0]["loc"]
    problem = errors[0]["msg"]
    if len(errors) > 1:
        problem += f" (and {len(errors) - 1} more problem(s) in this file)"
    if not (len(loc) >= 2 and loc[0] in RECORD_KINDS and isinstance(loc[1], int)):
        return GlossaryError(file, problem, field=".".join(str(part) for part in loc) or None)
    kind, index = str(loc[0]), loc[1]
    record = raw[kind][index]
    record_id = record.get("id") if isinstance(record, Mapping) else None
    field = ".".join(str(part) for part in loc[2:])
    return GlossaryError(
        file,
        problem,
        entry=record_id if isinstance(record_id, str) and record_id else index,
        field=(field_names or {}).get(field, field) or None,
        line=entry_lines[index] if entry_lines and kind == "entries" else None,
        record=RECORD_KINDS[kind],
    )
