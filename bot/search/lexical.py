"""The lexical branch: BM25 over entry text, plus matches on term names.

Dense vectors blur near neighbours (batch vs batch size) and romanized Hindi;
the words the asker actually typed, matched against the names and aliases of
an entry, settle those cases. Name tokens are weighted by IDF so that a match
on "clipping" counts for more than a match on "training". Misspellings
("overfiting", "gradiant") are mapped to the nearest name word by
Damerau-Levenshtein similarity before matching.

Hinglish askers type Hindi words in Latin letters ("badlav", "kiraye"), which neither the
English nor the Devanagari text contains. Every Devanagari word of an entry therefore also
gets a romanized view (``bot.understand.translit.romanise``, then ``bot.understand.hinglish.fold``),
derived from the glossary itself when the index is built, so this works for any user's glossary.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import bm25s
import numpy as np
import regex
from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from bot.search.entry_words import EntryWords, Words
from bot.understand.hinglish import fold
from bot.understand.text import STOP_WORDS, tokens
from bot.understand.translit import romanise
from glossary import GlossaryEntry, languages_of

# bm25s logs every index build at DEBUG through its own handler; that is noise on a user's terminal.
logging.getLogger("bm25s").setLevel(logging.WARNING)

#: Normalised Damerau-Levenshtein similarity a misspelt word needs to be read as a name word.
FUZZY_CUTOFF = 0.79  # one edit in a five-letter word (0.8) passes despite float rounding
MIN_FUZZY_LEN = 4
#: Fewest consonants a word's skeleton needs to be matched by sound: shorter ones ("dl", "vd") meet
#: some glossary word by chance.
MIN_SKELETON = 3
#: Words whose spelling correction is remembered, per index.
CORRECTION_MEMORY = 4096
#: Devanagari words whose romanized view is remembered (a word recurs across entries, names count
#: twice, and calibration builds several views of one glossary).
ROMANIZED_MEMORY = 65536
#: Name words count twice in an entry's BM25 document: a name says more about the topic than a word
#: of its description.
NAME_REPEAT = 2
#: Among names that are all typed, each unit of matched IDF adds this much, so "batch size" beats
#: "batch" when both words are asked (a tie-break far below any real difference in share).
LONGER_NAME_TIE_BREAK = 0.01
_DEVANAGARI_WORD = regex.compile(r"\p{Devanagari}")


def _content(text: str) -> list[str]:
    return [t for t in tokens(text) if t not in STOP_WORDS]


def romanized(words: Sequence[str]) -> list[str]:
    """Latin spellings of the Devanagari words, folded as Hinglish words are
    (``bot.understand.hinglish.fold``)."""
    # an ASCII word has no Devanagari: most of a glossary's words are passed over without the pattern
    return [_romanized_word(w) for w in words if not w.isascii() and _DEVANAGARI_WORD.search(w)]


@lru_cache(maxsize=ROMANIZED_MEMORY)
def _romanized_word(word: str) -> str:
    return fold(romanise(word))


def _entry_words(entry: GlossaryEntry) -> Words:
    names = tuple(tuple(_content(name)) for name in entry_names(entry))
    own = tuple([t for name in names for t in name] * NAME_REPEAT + _content(entry_text(entry)))
    return Words(names, own, tuple(romanized(own)))


def _words_source(entry: GlossaryEntry) -> str:
    return "\x1f".join([*entry_names(entry), "\x1e", entry_text(entry)])


def kept_words(path: Path | None) -> EntryWords:
    """The entries' words as ``path`` keeps them between starts (None: worked out, not kept)."""
    return EntryWords(path, _entry_words, _words_source)


def entry_names(entry: GlossaryEntry) -> list[str]:
    return entry.names


def entry_text(entry: GlossaryEntry) -> str:
    """All descriptive text of an entry, in both languages."""
    parts = [
        entry.definition_en,
        entry.definition_hi,
        entry.usage_hi,
        entry.example_hi,
        entry.usage_en,
        entry.example_en,
    ]
    return " ".join(p for p in parts if p)


class LexicalIndex:
    """BM25 and name matching over a fixed list of entries (scores align with that list)."""

    def __init__(self, entries: Sequence[GlossaryEntry], words: EntryWords | None = None) -> None:
        """``words``: the entries' words as a cache keeps them (worked out here where it has none)."""
        self.entries = list(entries)
        self.words = words or kept_words(None)
        found = [self.words.of(e) for e in self.entries]
        self._names = [w.names for w in found]
        own = [w.own for w in found]
        views = [w.romanized for w in found]
        docs = [[*w.own, *w.romanized] for w in found]
        self._bm25 = bm25s.BM25()
        self._bm25.index(docs, show_progress=False)
        doc_freq = Counter(t for doc in docs for t in set(doc))
        self.idf = {t: math.log(1 + len(docs) / df) for t, df in doc_freq.items()}
        #: Words of the glossary's own text; spelling correction leaves them alone. With the romanized
        #: views, what off-topic evidence is measured against. Project-written paraphrases are in
        #: neither, so no decision depends on them.
        self.known = frozenset(t for words in own for t in words)
        self._romanized = frozenset(t for view in views for t in view)
        #: The scripts the glossary's languages are written in (those its definitions are in: an
        #: acronym such as "GPU" in a Hindi-only file does not make English one of them).
        self.scripts = frozenset(_LANGUAGE_SCRIPT[lang] for lang in languages_of(self.entries))
        # A word asked in a script the glossary's languages do not use is matched by sound: an English
        # word against the Devanagari spellings of English terms in a Hindi-only file ("training" and
        # ट्रेनिंग), a Devanagari word against the English words of an English-only file (ओवरफिटिंग and
        # "overfitting"). Both sides are compared as romanized consonant skeletons.
        spoken = self._romanized if "latin" not in self.scripts else self.known
        skeletons = (_consonants(t) for t in spoken if t.isascii())
        self._sounds = frozenset(k for k in skeletons if len(k) >= MIN_SKELETON)
        self.name_vocabulary = sorted({t for names in self._names for name in names for t in name})
        # Names as (entry, tokens, total IDF), and word -> names containing it: a question only
        # touches the few names that share a word with it.
        self._name_table = [
            (i, name, sum(self.idf[t] for t in name))
            for i, names in enumerate(self._names)
            for name in names
            if name
        ]
        self._names_with: dict[str, list[int]] = {}
        for n, (_, name, _) in enumerate(self._name_table):
            for t in set(name):
                self._names_with.setdefault(t, []).append(n)
        self._max_idf = max(self.idf.values(), default=1.0)
        self.acronyms = _acronyms(self.entries)
        # Memoised per index (not per class, so a reloaded glossary's old index can be freed), bounded.
        self._closest = lru_cache(maxsize=CORRECTION_MEMORY)(self._find_closest)

    def correct(self, words: Sequence[str]) -> list[str]:
        """Replace words the glossary never uses by the closest name word, when close enough."""
        return [self._closest(w) for w in words]

    def _find_closest(self, word: str) -> str:
        if word in self.known or len(word) < MIN_FUZZY_LEN:
            return word
        match = process.extractOne(
            word,
            self.name_vocabulary,
            scorer=DamerauLevenshtein.normalized_similarity,
            score_cutoff=FUZZY_CUTOFF,
        )
        return match[0] if match else word

    def expand_acronyms(self, words: Sequence[str]) -> list[str]:
        """English names for the acronyms among the words ("sgd" -> "Stochastic gradient descent")."""
        return list(dict.fromkeys(self.acronyms[w] for w in words if w in self.acronyms))

    def unknown_share(self, words: Sequence[str], own_scripts: bool = True) -> float:
        """Share of the words that the glossary never uses; words with digits (numbers, sizes,
        codes such as "7b" or a stray "31m") say nothing about the topic and are left out.

        A word in a script the glossary's languages do not use (a Hindi word asked of an
        English-only file) counts only when it sounds like one of the glossary's words: not
        knowing it is no evidence, since the glossary could not have written it. A question whose
        words are all such words and none of them sounds like the glossary's is wholly unknown.
        ``own_scripts`` off counts every word alike (the ablation's row).
        """
        seen = self.known | self._romanized
        counted, foreign = [], 0
        for word in words:
            if any(c.isdigit() for c in word):
                continue
            if not own_scripts or self._in_own_script(word):
                counted.append(word in seen or fold(word) in seen)
            elif word in seen or fold(word) in seen or self._sounds_like_own(word):
                counted.append(True)
            else:
                foreign += 1
        if not counted:
            return 1.0 if foreign else 0.0
        return (len(counted) - sum(counted)) / len(counted)

    def foreign_share(self, words: Sequence[str]) -> float:
        """Share of the words (those with digits left out, as above) written in a script the
        glossary's languages do not use. Asked across languages, a right entry is found with lower
        similarities than the glossary's own pseudo-questions have: the decisions read this to tell
        such a question from an off-topic one (on the dev views it was right twice as often as its
        confidence said)."""
        counted = [w for w in words if not any(c.isdigit() for c in w)]
        return sum(not self._in_own_script(w) for w in counted) / len(counted) if counted else 0.0

    def _sounds_like_own(self, word: str) -> bool:
        """Whether a word in another script has the consonants of a glossary word, in order."""
        latin = _romanized_word(word) if _DEVANAGARI_WORD.search(word) else word
        skeleton = _consonants(latin)
        return len(skeleton) >= MIN_SKELETON and skeleton in self._sounds

    def _in_own_script(self, word: str) -> bool:
        return script_of(word) in self.scripts

    def bm25(self, words: Sequence[str]) -> np.ndarray:
        if not words:
            return np.zeros(len(self.entries), dtype=np.float32)
        return np.asarray(self._bm25.get_scores(list(words)), dtype=np.float32)

    def name_match(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Per entry, the IDF-weighted share of its best-matching name that the words spell out,
        and for names spelt out in full, the share of the question's own weight that name accounts for.

        The second is what separates "learning rate" (the whole question is the name) from a long
        description that happens to contain a one-word name ("... in containers ..."). Ties between
        full matches go to the name with more matched weight, so "batch size" beats "batch".
        """
        present = set(words)
        share = np.zeros(len(self.entries), dtype=np.float32)
        coverage = np.zeros(len(self.entries), dtype=np.float32)
        asked = sum(self.idf.get(w, self._max_idf) for w in present)
        candidates = {n for w in present for n in self._names_with.get(w, ())}
        for n in candidates:
            entry, tokens, total = self._name_table[n]
            hit = sum(self.idf[t] for t in tokens if t in present)
            share[entry] = max(share[entry], hit / total + LONGER_NAME_TIE_BREAK * hit)
            if hit >= total:
                coverage[entry] = max(coverage[entry], min(1.0, total / asked))
        return share, coverage


_VOWELS = regex.compile(r"[aeiouy]+")


def _consonants(word: str) -> str:
    """A Latin word's consonants, each run of one letter once ("training" -> "trng")."""
    return fold(_VOWELS.sub("", word))


def script_of(word: str) -> str:
    """ "devanagari" for a word with a Devanagari letter, else "latin"."""
    return "devanagari" if _DEVANAGARI_WORD.search(word) else "latin"


#: The script each glossary language's words are written in (romanized Hindi is matched through
#: the romanized views, not as the glossary's own script).
_LANGUAGE_SCRIPT = {"en": "latin", "hi": "devanagari"}


_ACRONYM = regex.compile(r"^[\p{Lu}\p{N}][\p{L}\p{N}]{1,5}$")


def _acronyms(entries: Sequence[GlossaryEntry]) -> dict[str, str]:
    """Acronyms that name exactly one entry: whole aliases or bracketed in its term (PEFT, SGD, MoE).

    Acronyms inside longer names ("AI accelerator", "ML model training") are not expansions.
    """
    found: dict[str, set[str]] = {}
    for entry in entries:
        if entry.term_en is None:
            continue
        bracketed = regex.findall(r"\(([^)]+)\)", f"{entry.term} {entry.term_en}")
        candidates = [*entry.aliases, *(p.strip() for b in bracketed for p in b.split(","))]
        for candidate in candidates:
            if _ACRONYM.match(candidate) and sum(c.isupper() for c in candidate) >= 2:
                found.setdefault(candidate.casefold(), set()).add(entry.term_en)
    return {acronym: names.pop() for acronym, names in found.items() if len(names) == 1}
