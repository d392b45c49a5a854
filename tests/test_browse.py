"""The Browse filter reads typed words as the bot reads questions: typos and Hinglish still find entries."""

from __future__ import annotations

import pytest

from bot.lookup.browse import ALL, filtered
from bot.search.lexical import LexicalIndex
from glossary import load_glossary


@pytest.fixture(scope="module")
def bundled():
    glossary = load_glossary()
    return glossary, LexicalIndex(glossary.entries)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("dropuot", "dropout"),  # a typo, corrected to the name word
        ("gradiant clipping", "gradient-clipping"),
        ("badlav", "gradient"),  # romanized Hindi (बदलाव in its Hindi definition)
        ("sikhne ki dar", "learning-rate"),  # Hinglish with a function word
        ("Dropout", "dropout"),  # as before: plain words still match
    ],
)
def test_filter_finds_misspelt_and_hinglish_words(bundled, query: str, expected: str) -> None:
    glossary, lexical = bundled
    assert expected in [e.id for e in filtered(glossary, query, ALL, "en", lexical)]


def test_filter_still_excludes_what_no_entry_says(bundled) -> None:
    glossary, lexical = bundled
    assert filtered(glossary, "zzzz", ALL, "en", lexical) == []
    assert len(filtered(glossary, "gradiant clipping", ALL, "en", lexical)) < len(glossary.entries)
