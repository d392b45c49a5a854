"""An edited YAML glossary parsed entry by entry: only the entries whose text changed are parsed again.

A one-entry edit of a 5,000-entry file parsed the whole file again (about 2 s of a 9 s rebuild). A
glossary document keeps its entries as a block sequence under a top-level ``entries:`` key, one
``- `` item per entry, so the file splits at the lines where an item starts: what those items hold
cannot run past the next item's line (a block scalar or a plain scalar ends at a line indented no
more than its item; a quoted one that went on would leave its item's text unterminated, which fails
to parse and sends the whole file to the full parse). Each item's text is parsed alone and known by
its hash; the rest of the document is parsed with ``entries: []`` in the block's place.

Only a text with no anchor, alias, tag, directive or document marker is split (each could tie one
item to another or to the document): any other, and any split whose parts do not parse to one entry
each, is parsed whole, so errors always come from the full parse and name the file's own lines.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import regex

#: What could tie one part of a YAML text to another: an anchor (``&a``), alias (``*a``) or tag
#: (``!t``) where a node can start (a line's start, after ``: ``, ``? `` or a flow indicator, each
#: maybe followed by ``- `` entries, as in ``? - &a``), a directive (``%``) or a document marker
#: (``---``, ``...``) at a line's start.
#: Mid-sentence prose ("R&D", "are **observed**") is no tie; a line of prose that starts so is, and
#: only costs the split. The characters are found first (one pattern over the whole text took
#: 0.35 s of a 14 MB file), then what stands before each on its line.
_TIE_MARKS = regex.compile(r"[&*!]")
_NODE_START_BEFORE = regex.compile(r"(?:^[ \t]*|[:?][ \t]*|[\[{,][ \t]*)(?:-[ \t]+)*$")
_DOCUMENT_MARKS = ("%", "---", "...")
_ENTRIES_KEY = regex.compile(r"^entries:[ \t]*(?:#.*)?$", regex.MULTILINE)
#: What replaces the entries block when the rest of the document is parsed.
EMPTY_ENTRIES = "entries: []"
HASH_CHARS = 32


@dataclass(frozen=True)
class Split:
    """A glossary document's text cut into the rest of it and one text per entry (each dedented),
    with each entry's key (``item_key``)."""

    rest: str
    items: list[str]
    keys: list[str]


def item_key(item: str) -> str:
    return hashlib.sha256(item.encode()).hexdigest()[:HASH_CHARS]


def split_entries(text: str) -> Split | None:
    """The text's ``entries:`` block cut at its items, or None when it cannot be cut safely. Each
    item is the text from its ``- `` line to the next one's, line breaks and all (a ``|+`` scalar
    keeps the blank lines before the next item), less the block's indentation."""
    if _has_ties(text):
        return None
    keys = list(_ENTRIES_KEY.finditer(text))
    if len(keys) != 1:
        return None
    block = text.find("\n", keys[0].end()) + 1
    if block == 0:
        return None
    starts: list[int] = []  # where each item's first line starts
    indent: int | None = None
    end = position = block
    # "\n" alone, though YAML also breaks lines at "\r", NEL and the Unicode separators: an item cut
    # where YAML sees no line start would part a text, while one holding two items fails to parse
    for line in _lines(text[block:]):
        position, at = position + len(line), position
        stripped = line.lstrip(" ")
        depth = len(line) - len(stripped)
        if not stripped.strip() or (stripped.startswith("#") and (indent is None or depth <= indent)):
            end = position  # blank lines may belong to a block scalar; comments are nothing
            continue
        if indent is None:
            indent = depth
        if depth == indent and (stripped.rstrip() == "-" or stripped.startswith("- ")):
            starts.append(at)
        elif depth < indent or (depth == 0 and not stripped.startswith("-")):
            end = at
            break
        elif depth == indent or not starts:
            return None  # not a block sequence of entries: the full parse says what it is
        end = position
    if not starts or indent is None:
        return None
    rest = text[: keys[0].start()] + EMPTY_ENTRIES + "\n" + text[end:]
    bounds = zip(starts, [*starts[1:], end], strict=True)
    items = [_dedent(text[a:b], indent) for a, b in bounds]
    return Split(rest, items, [item_key(item) for item in items])


def _has_ties(text: str) -> bool:
    if any(text.startswith(mark) or f"\n{mark}" in text for mark in _DOCUMENT_MARKS):
        return True
    for mark in _TIE_MARKS.finditer(text):
        line_start = text.rfind("\n", 0, mark.start()) + 1
        if _NODE_START_BEFORE.search(text[line_start : mark.start()]):
            return True
    return False


def _lines(text: str) -> list[str]:
    """The text's lines, each with its "\n" (the last without one when the text does not end so)."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _dedent(item: str, indent: int) -> str:
    """The item's lines less ``indent`` spaces each (fewer where a blank or comment line has fewer)."""
    if not indent:
        return item
    return "".join(line[min(indent, len(line) - len(line.lstrip(" "))) :] for line in _lines(item))


def parse_split(split: Split, parse: Callable[[str], Any], known: Mapping[str, Any]) -> dict[str, Any] | None:
    """The document ``split`` came from: the rest and each entry parsed with ``parse``, or taken from
    ``known`` (entry key -> parsed entry) for an entry whose text is unchanged. None when a part
    does not parse to what the full text would (the caller parses it whole)."""
    rest = parse(split.rest)
    if not isinstance(rest, dict) or rest.get("entries") != []:
        return None
    entries = []
    taken: set[str] = set()
    for item, key in zip(split.items, split.keys, strict=True):
        if key in known:
            entries.append(copy.deepcopy(known[key]) if key in taken else known[key])  # one object each
            taken.add(key)
            continue
        parsed = parse(item)
        if not isinstance(parsed, list) or len(parsed) != 1:
            return None
        entries.append(parsed[0])
    rest["entries"] = entries
    return rest
