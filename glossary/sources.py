"""The seed documents' own text, shipped beside the glossary they were imported from, so that a
citation ("document, line N") can be opened and read in context.

``data/seeds.sha256`` records each seed's checksum as imported; text that does not match it is
not shown as the source (a citation would point at lines that are not the ones quoted).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from glossary.loader import DATA_DIR

CHECKSUMS = DATA_DIR / "seeds.sha256"
#: Lines shown on each side of a cited line.
CONTEXT_LINES = 6


@lru_cache(maxsize=1)
def _recorded() -> dict[str, str]:
    """document name -> sha256, as ``sha256sum`` wrote them when the seeds were imported."""
    if not CHECKSUMS.is_file():
        return {}
    pairs = (line.split(maxsplit=1) for line in CHECKSUMS.read_text(encoding="utf-8").splitlines() if line)
    return {name.strip().lstrip("*"): digest for digest, name in pairs}


@lru_cache(maxsize=8)
def source_lines(document: str) -> tuple[str, ...] | None:
    """The lines of a shipped seed document (None for a document that is not one, or whose text
    does not match the recorded checksum)."""
    digest = _recorded().get(document)
    path = DATA_DIR / document
    if digest is None or path.parent != DATA_DIR or not path.is_file():
        return None
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != digest:
        return None
    return tuple(data.decode("utf-8").splitlines())


def excerpt(
    document: str, line: int, last: int | None = None, context: int = CONTEXT_LINES
) -> list[tuple[int, str]] | None:
    """(number, text) of the lines from ``context`` before ``line`` to ``context`` after ``last``
    (the cited entry's last line; ``line`` itself when not given). None when the document's text is
    not shipped."""
    lines = source_lines(document)
    if lines is None or not 1 <= line <= len(lines):
        return None
    last = min(max(line, last or line), len(lines))
    start, end = max(1, line - context), min(len(lines), last + context)
    return [(n, lines[n - 1]) for n in range(start, end + 1)]


def entry_end(document: str, line: int, texts: list[str], next_heading: int | None) -> int:
    """The last line of the entry whose heading is at ``line``: the last line before the next entry's
    heading that holds one of the entry's own ``texts`` (a seed writes an entry's fields one a line,
    and a table or FAQ may follow the last entry). ``line`` when the text is not shipped."""
    lines = source_lines(document)
    if lines is None:
        return line
    stop = min(next_heading or len(lines) + 1, len(lines) + 1)
    own = [n for n in range(line + 1, stop) if any(t and t in lines[n - 1] for t in texts)]
    return max(own, default=line)
