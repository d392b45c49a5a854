"""YAML reading and writing with the guarantees the glossary relies on.

Reading rejects duplicate mapping keys (PyYAML silently keeps the last one, which
would drop an enrichment record keyed by id without anyone noticing), and measures what
aliases expand to before anything is built from them: nine aliases nested eight deep make
a 500-byte file into 43 million strings (a "billion laughs"), which took gigabytes to
validate and to cache. Writing is deterministic and human-readable so regenerated data
files diff cleanly.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Hashable
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from glossary import pruning, yamlentries
from glossary.files import Artifact, load_or_publish

#: Part of a parse cache key: bump when ``load_yaml`` could return other data for the same text.
#: 2: each parse also records its entries' keys (``ENTRY_KEYS_FILE``).
PARSE_FORMAT = "2"
PARSED_FILE = "parsed.json"
#: The key of each entry's text (``glossary.yamlentries.item_key``), in the order of the parsed
#: entries; empty when the text was parsed whole.
ENTRY_KEYS_FILE = "entry_keys.json"
#: Earlier parses looked at for entries whose text is unchanged, most recently used first.
RECENT_PARSES = 3
#: The parse cache's folder in the cache folder; one artifact per parsed text, named by its hash.
PARSED_DIR = "parsed"
HASH_NAME_CHARS = 32
_PARSES = pruning.register("parsed glossaries", PARSED_DIR, f"[0-9a-f]{{{HASH_NAME_CHARS}}}")
#: Default bound (MB) on what a YAML text may expand to (the glossary loader passes its file limit).
DEFAULT_MAX_MB = 20.0
MB = 1024 * 1024
#: Bytes counted per node besides a scalar's own text: about what JSON spends on quotes and commas.
NODE_OVERHEAD = 3

# The C parser (when PyYAML was built with libyaml) is ~10x faster; construction stays in Python either way.
try:
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # PyYAML built without libyaml
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]


#: Where an anchor could start: a ``&`` that begins a node (after the start of a line, a space or a
#: flow indicator) and is followed by its name. Only an anchored node can be aliased, so a text without
#: one shares no node and expands to its own size, which the file limit already bounds: the expansion
#: walk (~1 s at 5,000 entries) is skipped. Prose such as "Tom &Jerry" matches too and only costs it.
_MAY_ANCHOR = re.compile(r"(?:^|[\s\[{,:?-])&\S", re.MULTILINE)


class _UniqueKeyLoader(_SafeLoader):
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, Hashable):
                continue  # PyYAML's own construction refuses it ("found unhashable key")
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    f"found duplicate key {key!r}",
                    key_node.start_mark,
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


class YamlTooLarge(ValueError):
    """Aliases expand the text past the size limit, or an alias contains itself."""


def load_yaml(text: str, max_mb: float = DEFAULT_MAX_MB) -> Any:
    """Parse YAML; raises ``yaml.YAMLError`` (with a ``problem_mark``) on bad syntax or duplicate keys,
    ``YamlTooLarge`` when aliases would expand it past ``max_mb`` (checked before anything is built)."""
    loader = _UniqueKeyLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if _MAY_ANCHOR.search(text):
            _check_expansion(node, int(max_mb * MB))
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _written_size(text: str) -> int:
    """A scalar's bytes as JSON writes it, quotes aside (``NODE_OVERHEAD`` counts them): a quote or
    backslash costs two bytes there, so counting the raw text let a file of '00"¡' copies expand 7 %
    past its limit."""
    return len(json.dumps(text, ensure_ascii=False).encode()) - 2


def _check_expansion(root: yaml.Node, limit: int) -> None:
    """Refuse a node graph whose expansion (every alias written out) is over ``limit`` bytes or infinite.

    The composed graph shares one node per anchor, so this costs one visit per distinct node; the
    walk keeps its own stack because a hostile file may nest deeper than Python's recursion limit.
    """
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in sizes:
            continue
        children = _children(node)
        if not children_done:
            if key in open_nodes:  # reached again from inside itself
                raise YamlTooLarge("an alias refers to a node that contains it; write the data out")
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        open_nodes.discard(key)
        own = _written_size(node.value) if isinstance(node, yaml.ScalarNode) else 0
        sizes[key] = min(limit + 1, NODE_OVERHEAD + own + sum(sizes[id(c)] for c in children))
    if sizes[id(root)] > limit:
        raise YamlTooLarge(
            f"YAML aliases expand this file to more than {limit / MB:g} MB "
            "(setting max_glossary_mb); write the repeated parts out instead of aliasing them"
        )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def load_yaml_cached(text: str, cache_dir: Path | None, max_mb: float = DEFAULT_MAX_MB) -> Any:
    """``load_yaml``, remembered as JSON in ``cache_dir`` under the text's hash.

    Every start reads the glossary: PyYAML builds the bundled one in ~50 ms of Python, JSON in ~1 ms.
    Each parse is a cached artifact of its own (``glossary.files.load_or_publish``) whose content is
    checked against the checksum in its manifest on every read, so an edited cache file is parsed
    again rather than served or blamed on the user's intact file. Only plain data
    is cached (a YAML date or a non-string key would not come back from JSON as it went in); a
    cache that cannot be read or written only costs the parse.
    """
    if cache_dir is None:
        return load_yaml(text, max_mb)
    artifact = _parse_artifact(
        cache_dir / hashlib.sha256((PARSE_FORMAT + text).encode()).hexdigest()[:HASH_NAME_CHARS]
    )
    build = partial(_parse_into, text, max_mb, cache_dir)
    try:
        return load_or_publish(artifact, _read_parsed, build, fallback=True)
    except _NotPlain as exc:
        return exc.data


def _parse_artifact(path: Path) -> Artifact:
    files = (PARSED_FILE, ENTRY_KEYS_FILE)
    return Artifact(path, {"parse_format": PARSE_FORMAT}, files, checksummed=files)


class _NotPlain(Exception):
    """Parsed data that JSON cannot hold as it is; carries the data, which is used but not cached."""

    def __init__(self, data: Any) -> None:
        super().__init__("parsed YAML is not plain JSON data")
        self.data = data


def _parse_into(text: str, max_mb: float, cache_dir: Path, folder: Path, notes: dict[str, object]) -> Any:
    """Parse ``text`` into ``folder``: entry by entry when it splits (``glossary.yamlentries``), with
    the entries of the recent parses whose text is unchanged taken as they are; else whole."""
    split = yamlentries.split_entries(text)
    known = _recent_entries(cache_dir) if split is not None else {}
    data = _parse_split(split, max_mb, known) if split is not None else None
    keys = split.keys if split is not None and data is not None else []
    notes["entries_reused"] = sum(key in known for key in keys)
    if data is None:
        data = load_yaml(text, max_mb)
    try:
        encoded = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError):
        raise _NotPlain(data) from None
    if json.loads(encoded) != data:
        raise _NotPlain(data)
    (folder / PARSED_FILE).write_text(encoded, encoding="utf-8")
    (folder / ENTRY_KEYS_FILE).write_text(json.dumps(keys), encoding="utf-8")
    return data


def _parse_split(split: yamlentries.Split, max_mb: float, known: dict[str, Any]) -> Any:
    try:
        return yamlentries.parse_split(split, partial(load_yaml, max_mb=max_mb), known)
    except yaml.YAMLError:
        return None  # parsed whole, so that the error names the file's own line


def _recent_entries(cache_dir: Path) -> dict[str, Any]:
    """Entry key -> parsed entry, from the most recently used complete parses that were split."""
    known: dict[str, Any] = {}
    for folder in _PARSES.newest_first(cache_dir)[:RECENT_PARSES]:
        if not _parse_artifact(folder).is_complete():
            continue
        try:
            keys = json.loads((folder / ENTRY_KEYS_FILE).read_bytes())
            entries = json.loads((folder / PARSED_FILE).read_bytes())["entries"] if keys else []
        except (OSError, ValueError, TypeError, KeyError):
            continue
        if isinstance(keys, list) and isinstance(entries, list) and len(keys) == len(entries):
            known.update(zip(keys, entries, strict=True))
    return known


def _read_parsed(folder: Path) -> Any:
    try:
        return json.loads((folder / PARSED_FILE).read_bytes())
    except (OSError, ValueError):
        return None


def dump_yaml(data: Any) -> str:
    """Serialise to block-style YAML: Devanagari kept as text, key order kept, no line wrapping."""
    return yaml.safe_dump(
        data, allow_unicode=True, sort_keys=False, width=1_000_000, default_flow_style=False
    )


def yaml_error_line(exc: yaml.YAMLError) -> int | None:
    """1-based line of a YAML error, if PyYAML knows it."""
    mark = getattr(exc, "problem_mark", None)
    return mark.line + 1 if mark is not None else None


def yaml_error_message(exc: yaml.YAMLError) -> str:
    """PyYAML's multi-line message on one line: the problem, its column, and what it was inside."""
    problem = getattr(exc, "problem", None)
    if not problem:
        return " ".join(str(exc).split())
    mark = getattr(exc, "problem_mark", None)
    message = problem + (f" (column {mark.column + 1})" if mark is not None else "")
    context, where = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context:
        message += f"; {context}" + (f" at line {where.line + 1}" if where is not None else "")
    return message
