"""The in-memory glossary handed to the rest of the bot.

A ``Glossary`` is built only from documents that already passed validation
(see ``glossary.loader``) and cannot be modified afterwards, so index and bot code
can cache derived data keyed by ``content_hash`` without defensive copies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence

from glossary.schema import ComparisonTable, FaqItem, GlossaryDocument, GlossaryEntry


class Glossary:
    """Validated, read-only collection of glossary documents with id and heading lookup."""

    __slots__ = ("_by_id", "_by_term", "_documents", "_entries", "_hash")

    def __init__(self, documents: Sequence[GlossaryDocument]) -> None:
        self._documents = tuple(documents)
        self._entries = tuple(entry for document in self._documents for entry in document.entries)
        self._by_id = {entry.id: entry for entry in self._entries}
        self._by_term: dict[str, GlossaryEntry] = {}
        for entry in self._entries:
            self._by_term.setdefault(entry.term, entry)
        canonical = json.dumps(
            [document.model_dump(mode="json") for document in self._documents],
            ensure_ascii=False,
            sort_keys=True,
            separators=(",", ":"),
        )
        self._hash = hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    @property
    def documents(self) -> tuple[GlossaryDocument, ...]:
        return self._documents

    @property
    def entries(self) -> tuple[GlossaryEntry, ...]:
        """All entries, documents in load order and entries in document order."""
        return self._entries

    @property
    def tables(self) -> tuple[ComparisonTable, ...]:
        return tuple(table for document in self._documents for table in document.tables)

    @property
    def faq(self) -> tuple[FaqItem, ...]:
        return tuple(item for document in self._documents for item in document.faq)

    @property
    def content_hash(self) -> str:
        """sha256 of a canonical JSON dump of all documents: a cache key for anything derived from them."""
        return self._hash

    def title(self, document: str) -> str:
        """The title of a loaded document (its file name when it has none, or no loaded document has
        that name)."""
        found = next((d for d in self._documents if d.document == document), None)
        return (found.title or found.title_hi or document) if found else document

    def get(self, entry_id: str) -> GlossaryEntry:
        try:
            return self._by_id[entry_id]
        except KeyError:
            raise KeyError(f"no glossary entry with id '{entry_id}' ({len(self)} entries loaded)") from None

    def by_term(self, term: str) -> GlossaryEntry | None:
        """Entry whose source heading is exactly ``term`` (first one if several files share a heading)."""
        return self._by_term.get(term)

    def without_project_extras(self) -> Glossary:
        """The same glossary without project-written paraphrases and aliases: what retrieval has to
        work with for a user's file, so the bundled glossary can be measured that way too."""
        bare: dict[str, list[str]] = {"paraphrases": [], "aliases": []}
        return Glossary(
            [
                d.model_copy(update={"entries": [e.model_copy(update=bare) for e in d.entries]})
                for d in self.documents
            ]
        )

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[GlossaryEntry]:
        return iter(self._entries)

    def __repr__(self) -> str:
        return f"Glossary({len(self._documents)} documents, {len(self)} entries, hash={self._hash[:12]})"
