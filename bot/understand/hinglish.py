"""Romanized Hindi content words -> English glosses, so Hinglish questions match English text.

The glossary, its BM25 index and the dense encoder know English and Devanagari; in "training ke
time loss kyu badhta hai" only the English words match anything. Glossing the Hindi content words
("badhta" -> "increase") and dropping the function words gives "training time loss increase",
which both branches understand. There is no stemmer for romanized Hindi, so the lexicon in
data/hinglish_lexicon.yaml lists inflections and common spellings; folding doubled vowels and
z/j, w/v-style variants catches the longer spellings it does not list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import regex

from bot.understand.text import HINGLISH_WORDS
from bot.understand.text import tokens as _tokens
from glossary.yamlio import load_yaml

LEXICON_PATH = Path(__file__).parents[1] / "data" / "hinglish_lexicon.yaml"
#: Unlisted spellings are folded only from this length on: short folds collide with English words.
MIN_FOLD_LEN = 6
_FOLDS = (("aa", "a"), ("ee", "i"), ("oo", "u"), ("w", "v"), ("q", "k"), ("z", "j"), ("ph", "f"))
_DOUBLED = regex.compile(r"(.)\1+")


def fold(word: str) -> str:
    """One spelling per sound for the variants people type: "seekhta"/"sikhta", "zaroori"/"jaruri"."""
    for old, new in _FOLDS:
        word = word.replace(old, new)
    return _DOUBLED.sub(r"\1", word)


@dataclass(frozen=True)
class _Lexicon:
    words: dict[str, str]
    #: Phrase headwords, their last word replaced by its light verb's infinitive ("kam kiya" -> "kam karna").
    phrases: dict[tuple[str, ...], str]
    folded: dict[str, str]
    light: dict[str, str]
    function_words: frozenset[str]
    longest: int  # words in the longest phrase

    @classmethod
    def load(cls, path: Path = LEXICON_PATH) -> _Lexicon:
        raw = load_yaml(path.read_text(encoding="utf-8"))
        light = {form: verb for verb, forms in raw["light_verbs"].items() for form in forms.split()}
        words: dict[str, str] = {}
        phrases: dict[tuple[str, ...], str] = {}
        for headword, english in raw["words"].items():
            parts = tuple(headword.split())
            if len(parts) == 1:
                words[headword] = english
            else:
                phrases[(*parts[:-1], light.get(parts[-1], parts[-1]))] = english
        folded: dict[str, str | None] = {}
        for word, english in words.items():
            key = fold(word)
            folded[key] = english if folded.get(key, english) == english else None  # ambiguous: no guess
        return cls(
            words=words,
            phrases=phrases,
            folded={key: english for key, english in folded.items() if english},
            light=light,
            function_words=HINGLISH_WORDS | frozenset(raw["function_words"].split()),
            longest=max(map(len, phrases), default=1),
        )

    def lookup(self, span: Sequence[str]) -> str | None:
        if len(span) > 1:
            return self.phrases.get((*span[:-1], self.light.get(span[-1], span[-1])))
        word = span[0]
        if word in self.words:
            return self.words[word]
        if len(word) < MIN_FOLD_LEN or word in self.function_words:
            return None
        return self.folded.get(fold(word))

    def segment(self, words: Sequence[str]) -> list[tuple[str, str | None]]:
        """(surface, gloss or None) left to right, the longest phrase at each position first."""
        out: list[tuple[str, str | None]] = []
        i = 0
        while i < len(words):
            for n in range(min(self.longest, len(words) - i), 0, -1):
                english = self.lookup(words[i : i + n])
                if english or n == 1:
                    out.append((" ".join(words[i : i + n]), english))
                    i += n
                    break
        return out


_LEXICON = _Lexicon.load()
#: Romanized Hindi function words: the shared stop list plus the lexicon's own additions.
FUNCTION_WORDS = _LEXICON.function_words


def gloss(tokens: Sequence[str]) -> list[str]:
    """English glosses of the lexicon words and phrases among casefolded tokens, in order."""
    return [g for _, g in _LEXICON.segment(tokens) if g]


def to_english(text: str) -> str:
    """The query with Hinglish content words glossed and Hinglish function words dropped.

    English and Devanagari words are kept as they are (casefolded, without punctuation):
    "training me random neurons band kar dena" -> "training random neurons turn off".
    """
    out = []
    for surface, g in _LEXICON.segment(_tokens(text)):
        if g:
            out.append(g)
        elif surface not in FUNCTION_WORDS:
            out.append(surface)
    return " ".join(out)
