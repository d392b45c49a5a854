"""The lexical words kept between starts: the same index as words worked out afresh, only changed
entries worked out again, and a kept file that is stale, broken or unwritable costs only the work."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from bot.search import entry_words
from bot.search.entry_words import WORDS_FILE
from bot.search.lexical import LexicalIndex, kept_words
from glossary import load_glossary

QUERIES = [
    ["dropout"],
    ["overfitting", "kaise", "rokein"],
    ["ओवरफिटिंग"],
    ["learning", "rate"],
    ["gradiant"],
    ["badlav"],
]


@pytest.fixture(scope="module")
def entries():
    return list(load_glossary().entries)


def _signals(index: LexicalIndex, words: list[str]) -> tuple:
    share, cover = index.name_match(words)
    return (index.bm25(words), share, cover, index.unknown_share(words), index.correct(words))


def test_an_index_from_kept_words_is_the_index_from_words_worked_out(tmp_path, entries):
    path = tmp_path / WORDS_FILE
    first = kept_words(path)
    LexicalIndex(entries, first)
    first.save()
    kept = kept_words(path)
    from_kept = LexicalIndex(entries, kept)
    assert kept.derived == 0
    fresh = LexicalIndex(entries)
    for words in QUERIES:
        got, want = _signals(from_kept, words), _signals(fresh, words)
        for a, b in zip(got, want, strict=True):
            assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b, words
    assert from_kept.known == fresh.known and from_kept.name_vocabulary == fresh.name_vocabulary


def test_an_edit_works_out_the_words_of_the_edited_entry_only(tmp_path, entries):
    path = tmp_path / WORDS_FILE
    words = kept_words(path)
    LexicalIndex(entries, words)
    words.save()
    edited = [entries[0].model_copy(update={"definition_en": "An edited definition."}), *entries[1:]]
    again = kept_words(path)
    index = LexicalIndex(edited, again)
    assert again.derived == 1
    assert "edited" in index.known
    again.save()
    assert len(json.loads(path.read_bytes())["entries"]) == len(entries)  # the last build's only


def test_words_kept_by_other_code_are_not_used(tmp_path, entries, monkeypatch):
    path = tmp_path / WORDS_FILE
    words = kept_words(path)
    LexicalIndex(entries, words)
    words.save()
    monkeypatch.setattr(entry_words, "_fingerprint", lambda: "another tokeniser")
    stale = kept_words(path)
    LexicalIndex(entries, stale)
    assert stale.derived == len(entries)


@pytest.mark.parametrize("damage", [b"{not json", b'{"fingerprint": 1, "entries": []}', b"[]"])
def test_a_broken_or_stale_file_is_ignored(tmp_path, entries, caplog, damage):
    path = tmp_path / WORDS_FILE
    path.write_bytes(damage)
    with caplog.at_level(logging.WARNING):
        words = kept_words(path)
    LexicalIndex(entries, words)
    assert words.derived == len(entries)
    words.save()
    assert kept_words(path).of(entries[0]) == words.of(entries[0])  # written afresh


def test_a_cache_that_cannot_be_written_only_costs_the_work_next_time(tmp_path, entries, caplog):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    words = kept_words(blocked / WORDS_FILE)
    LexicalIndex(entries, words)
    with caplog.at_level(logging.WARNING):
        words.save()
    assert "cannot keep the lexical words" in caplog.text
