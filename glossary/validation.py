"""Checks that span records and files: unique ids and resolvable cross-references.

Pydantic validates each record on its own; these checks need the whole glossary.
They run in both the importer (so it never writes data the loader would reject)
and the loader (so user files are held to the same rules).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path

from glossary.errors import GlossaryError
from glossary.schema import GlossaryDocument

Source = tuple[Path, GlossaryDocument]


def check_glossary(sources: Sequence[Source]) -> None:
    """Raise GlossaryError on the first duplicate id, dangling reference or self-reference."""
    entry_ids = _check_unique_ids(sources)
    for path, document in sources:
        for entry in document.entries:
            _check_refs(path, entry.id, "entry", "related", entry.related, entry_ids, own_id=entry.id)
        for table in document.tables:
            _check_refs(path, table.id, "table", "entry_ids", table.entry_ids, entry_ids)
        for item in document.faq:
            _check_refs(path, item.id, "faq item", "related", item.related, entry_ids)


def _check_unique_ids(sources: Sequence[Source]) -> set[str]:
    """Entries, tables and FAQ items share one id namespace so an id names exactly one record."""
    owners: dict[str, Path] = {}
    entry_ids: set[str] = set()
    for path, document in sources:
        records = [("entry", e.id) for e in document.entries]
        records += [("table", t.id) for t in document.tables] + [("faq item", f.id) for f in document.faq]
        for kind, record_id in records:
            if record_id in owners:
                where = "this file" if owners[record_id] == path else str(owners[record_id])
                raise GlossaryError(
                    path, f"duplicate id, already used in {where}", entry=record_id, field="id", record=kind
                )
            owners[record_id] = path
        entry_ids.update(e.id for e in document.entries)
    return entry_ids


def _check_refs(
    path: Path,
    record_id: str,
    kind: str,
    field: str,
    refs: Sequence[str],
    known: set[str],
    own_id: str | None = None,
) -> None:
    seen: set[str] = set()
    for ref in refs:
        if ref == own_id:
            raise GlossaryError(
                path, "an entry must not relate to itself", entry=record_id, field=field, record=kind
            )
        if ref in seen:
            raise GlossaryError(path, f"'{ref}' is listed twice", entry=record_id, field=field, record=kind)
        if ref not in known:
            close = difflib.get_close_matches(ref, sorted(known), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise GlossaryError(
                path, f"unknown entry id '{ref}'{hint}", entry=record_id, field=field, record=kind
            )
        seen.add(ref)
