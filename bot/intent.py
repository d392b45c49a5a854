"""What a question asks for besides "what is X": small talk, a how-to or problem, an opposite.

The phrasings are language patterns in ``data/intents.yaml`` (English, Hindi, Hinglish), general
and about no particular glossary; this module only reads them. FAQ answers are matched by
meaning (the e5 encoder, question against FAQ question), since a how-to question is rarely
phrased like the FAQ's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import regex
from rapidfuzz import fuzz

from bot.lexical import entry_names, romanized
from bot.text import content_tokens, normalise, strip_scaffolding, tokens
from glossary import FaqItem, Glossary, GlossaryEntry
from glossary.yamlio import load_yaml
from index.encoders import Encoder

_RAW = load_yaml((Path(__file__).parent / "data" / "intents.yaml").read_text(encoding="utf-8"))
SMALL_TALK: dict[str, frozenset[str]] = {
    kind: frozenset(normalise(w) for w in words.split()) for kind, words in _RAW["small_talk"].items()
}
_FILLER = frozenset(normalise(w) for w in _RAW["filler"].split())
_HOW_TO = regex.compile("|".join(f"(?:{p})" for p in _RAW["how_to"]), regex.IGNORECASE)
_OPPOSITE = [regex.compile(p) for p in _RAW["opposite"]]
_OPPOSITE_WORDS = frozenset(normalise(w) for w in _RAW["opposite_words"].split())
#: Cosine (e5, query against query) from which an FAQ question is taken to ask what the asker asks.
#: Measured (tests/test_intent.py::test_faq_match_separates_faq_questions_from_term_questions):
#: rewordings of the bundled FAQ questions (English, Hinglish) score 0.906-0.983 against them, while
#: the in-scope how-to questions of the bundled dev set, which ask about an entry rather than an FAQ,
#: score at most 0.894 ("training ke liye GPU ki memory kitni lagegi kaise estimate kare" against
#: "Do I always need a GPU…"; the 0.87 used before sent five of them to an unrelated FAQ answer,
#: now answered with their entries). Midway.
FAQ_MATCH = 0.90


def small_talk(question: str) -> str | None:
    """The kind of small talk ("greeting", "thanks", "identity") a message is, or None."""
    words = tokens(question)
    if not words:
        return None
    vocabulary = _FILLER.union(*SMALL_TALK.values())
    if any(w not in vocabulary for w in words):
        return None
    return next((kind for kind, vocab in SMALL_TALK.items() if vocab & set(words)), None)


def is_how_to(question: str) -> bool:
    """A how-to or problem question ("how do I …", "why does …", "kaise", "is X required")."""
    return _HOW_TO.search(question) is not None


def opposite_topic(question: str) -> str | None:
    """X in "opposite of X" / "X ka ulta kya hai" / "X का विपरीत", or None."""
    for pattern in _OPPOSITE:
        if match := pattern.match(question.strip()):
            return match.group("x").strip()
    return None


def antonym(entry: GlossaryEntry, glossary: Glossary) -> GlossaryEntry | None:
    """The entry the glossary gives as the opposite of ``entry``: one whose text says "opposite"
    and names it, else one related both ways with the most similar name (over-/under-fitting)."""
    ids = {e.id for e in glossary.entries}
    linked = [glossary.get(i) for i in entry.related if i in ids and i != entry.id]
    names = {normalise(n) for n in (entry.term_en, entry.term_hi)}
    for other in linked:
        text = normalise(
            " ".join([other.definition_en, other.definition_hi, *other.notes_en, *other.notes_hi])
        )
        if _OPPOSITE_WORDS & set(tokens(text)) and any(n in text for n in names):
            return other
    mutual = [o for o in linked if entry.id in o.related]
    if not mutual:
        return None
    return max(mutual, key=lambda o: fuzz.ratio(normalise(o.term_en), normalise(entry.term_en)))


#: A bare-term question ("what is X") names at most this many content words.
BARE_TERM_WORDS = 2
#: rapidfuzz ratio from which a typed word is taken as a word of an entry's name (typos pass;
#: "attention" is not "flashattention" at 78).
NAME_WORD_MATCH = 80


def names_other_term(question: str, entry: GlossaryEntry) -> bool:
    """A bare-term question whose words are not all in ``entry``'s names: "what is a transformer"
    answered with Adapters asks for a term the glossary does not have, whatever the ranking says."""
    words = content_tokens(strip_scaffolding(question))
    if not 0 < len(words) <= BARE_TERM_WORDS:
        return False
    name_words = set(tokens(" ".join([entry.term, entry.term_en, entry.term_hi, *entry.aliases])))
    return not all(any(fuzz.ratio(w, n) >= NAME_WORD_MATCH for n in name_words) for w in words)


def _spellings(words: list[str]) -> tuple[str, ...]:
    """Words as typed and, for Devanagari, romanized ("नोड" and "नोड्स" are one edit apart as "nod"
    and "nods", three code points apart as typed)."""
    roman = [romanized([w])[0] if romanized([w]) else w for w in words]
    return tuple(dict.fromkeys([" ".join(words), " ".join(roman)]))


def _name_forms(entry: GlossaryEntry) -> set[str]:
    """Each name of ``entry`` and each part of it around brackets ("Mutual … Security (mTLS)" gives
    the whole, "mutual … security" and "mtls"), as typed and romanized."""
    parts = [p for name in entry_names(entry) for p in (name, *regex.split(r"[()]", name))]
    return {form for p in parts if (words := tokens(p)) for form in _spellings(words)}


def _squashed(text: str) -> str:
    return text.replace(" ", "")


def _names(asked: str, form: str) -> bool:
    """``asked`` is the name ``form`` (typos, plurals, spacing, word order) or contains it ("adamw adam")."""
    a, f = _squashed(asked), _squashed(form)
    if max(fuzz.ratio(a, f), fuzz.token_sort_ratio(asked, form)) >= NAME_WORD_MATCH:
        return True
    return len(f) <= len(a) and fuzz.partial_ratio(f, a) >= NAME_WORD_MATCH


def only_part_of_name(question: str, entry: GlossaryEntry) -> bool:
    """A bare-term question that is a strict part of ``entry``'s longer name and no name of it: "what
    is attention" answered with FlashAttention asks for a term the glossary does not have. A name
    still counts when typed with a typo, a plural, without spaces or in another word order."""
    words = content_tokens(strip_scaffolding(question))
    if not 0 < len(words) <= BARE_TERM_WORDS:
        return False
    asked, forms = _spellings(words), _name_forms(entry)
    pairs = [(a, f) for a in asked for f in forms]
    if any(_names(a, f) for a, f in pairs):
        return False
    return any(
        len(_squashed(a)) < len(_squashed(f))
        and all(fuzz.partial_ratio(w, _squashed(f)) >= NAME_WORD_MATCH for w in a.split())
        for a, f in pairs
    )


@dataclass(frozen=True)
class FaqIndex:
    """A glossary's FAQ questions (both languages) embedded once, to match how-to questions against."""

    items: tuple[FaqItem, ...]
    owners: np.ndarray  # row -> index into items
    vectors: np.ndarray

    @classmethod
    def build(cls, glossary: Glossary, encoder: Encoder) -> FaqIndex:
        items = glossary.faq
        texts = [q for item in items for q in (item.question_en, item.question_hi)]
        owners = np.repeat(np.arange(len(items)), 2)
        vectors = encoder.encode_queries(texts) if texts else np.zeros((0, encoder.dim), dtype=np.float32)
        return cls(items, owners, vectors)

    def match(self, question: str, encoder: Encoder) -> FaqItem | None:
        """The FAQ item whose question asks what ``question`` asks (cosine at least FAQ_MATCH)."""
        if not self.items:
            return None
        scores = self.vectors @ encoder.encode_queries([question])[0]
        best = int(np.argmax(scores))
        return self.items[int(self.owners[best])] if scores[best] >= FAQ_MATCH else None
