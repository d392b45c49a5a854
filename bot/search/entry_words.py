"""The words the lexical branch indexes for each entry, kept between starts.

Tokenising a 5,000-entry glossary and sounding out its Devanagari words (0.2 ms a word) took about
a second of every start and of every edit, though an edit changes one entry. Each entry's words are
kept under a hash of the text they come from and of the code and word lists that make them, so a
start works out only the entries whose text changed, and a change of tokeniser or stop words
discards every kept entry. The file holds the entries of the last build only (a glossary's size).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path

from glossary import GlossaryEntry
from glossary.files import atomic_write

log = logging.getLogger(__name__)

#: In the cache folder.
WORDS_FILE = "lexical-words.json"
_BOT = Path(__file__).resolve().parents[1]
#: What an entry's words are made by: a change to any of them makes every kept entry stale.
_MAKERS = (
    _BOT / "search" / "lexical.py",
    _BOT / "understand" / "text.py",
    _BOT / "understand" / "translit.py",
    _BOT / "understand" / "hinglish.py",
    _BOT / "data" / "stopwords.yaml",
)


@dataclass(frozen=True)
class Words:
    """One entry's words: its names' content words, its own text's (names repeated as weighted),
    and the romanized view of the Devanagari ones."""

    names: tuple[tuple[str, ...], ...]
    own: tuple[str, ...]
    romanized: tuple[str, ...]


#: An entry's words, worked out.
Derive = Callable[[GlossaryEntry], Words]
#: All the text an entry's words come from (its names and descriptions; not its id or source).
Source = Callable[[GlossaryEntry], str]


@cache
def _fingerprint() -> str:
    """Read once per process, and only by a build that reads or writes the file."""
    digest = hashlib.sha256(version("stopwordsiso").encode())
    for path in _MAKERS:
        digest.update(path.read_bytes())
    return digest.hexdigest()


class EntryWords:
    """Words per entry: those kept in ``path`` by the last build, the rest derived and added."""

    def __init__(self, path: Path | None, derive: Derive, source: Source) -> None:
        self.path = path
        self._derive = derive
        self._source = source
        self._kept = self._read() if path is not None else {}
        self._used: dict[str, Words] = {}
        self.derived = 0

    def of(self, entry: GlossaryEntry) -> Words:
        key = hashlib.sha256(self._source(entry).encode("utf-8", "surrogatepass")).hexdigest()
        words = self._used.get(key) or self._kept.get(key)
        if words is None:
            words = self._derive(entry)
            self.derived += 1
        self._used[key] = words
        return words

    def save(self) -> None:
        """Keep the words of the entries this build used, when any were derived (a cache that cannot
        be written only costs the derivation next start)."""
        if self.path is None or not self.derived:
            return
        body = {
            "fingerprint": _fingerprint(),
            "entries": {key: [w.names, w.own, w.romanized] for key, w in self._used.items()},
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps(body, ensure_ascii=False).encode())
        except OSError as exc:
            log.warning("cannot keep the lexical words in %s: %s", self.path, exc)
        self.derived = 0

    def _read(self) -> dict[str, Words]:
        assert self.path is not None
        try:
            body = json.loads(self.path.read_bytes())
            if body.get("fingerprint") != _fingerprint():
                return {}
            return {
                key: Words(tuple(map(tuple, names)), tuple(own), tuple(view))
                for key, (names, own, view) in body["entries"].items()
            }
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError, AttributeError, KeyError) as exc:
            log.warning("ignoring the kept lexical words in %s: %s", self.path, exc)
            return {}
