"""A question read once: the :class:`Query` that every step after understanding reads.

:func:`understand` cleans the question (``bot.understand.clean``), reads its text and the texts it
names (a comparison's sides, the X of "the opposite of X") into :class:`Reading` objects, and notes
what it asks for (``bot.understand.cues``). Search, the router and the replies read these fields;
none of them tokenises, strips, glosses or detects the language of the question again. What depends
on a glossary (spelling corrected against its words, acronyms it spells out, which entries a name
means) is worked out by search, once per search, from the reading.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from bot.understand.clean import Cleaned, clean
from bot.understand.comparison import comparison_splits, is_choice, is_list, refers_back
from bot.understand.courtesy import without_courtesy
from bot.understand.cues import (
    FollowUpCues,
    follow_up_cues,
    is_how_to,
    listed_topic,
    opposite_topic,
    small_talk,
)
from bot.understand.hinglish import FUNCTION_WORDS, fold, gloss, to_english
from bot.understand.text import (
    Lang,
    Side,
    answer_language,
    asked_name,
    asked_topic,
    content_tokens,
    defines,
    detect_lang,
    lang_undecided,
    normalise,
    strip_scaffolding,
    tokens,
)

_LATIN = regex.compile(r"\p{Latin}")
#: Punctuation around a question that names an entry and nothing else ("dropout?").
_AROUND_NAME = " ?？।.!"


@dataclass(frozen=True)
class Reading:
    """One text as search reads it: its words, and their glossed, folded and English forms."""

    text: str
    lang: Lang
    #: The text without question scaffolding ("what is dropout?" -> "dropout"): what the encoder sees.
    topic: str
    #: Content words (tokens minus scaffolding and stop words): what the lexical branch matches on.
    words: tuple[str, ...]
    #: What is asked about: the topic without the function words it ends with ("vram kya hota h" ->
    #: "vram"); shown in a near miss ("the glossary has no entry for *X*").
    asked: str
    #: The asked topic's content words: what a bare-term question ("what is X") names.
    topic_words: tuple[str, ...]
    #: Every word of the asked topic, stop words too ("over-fitting" is "over" and "fitting").
    asked_tokens: tuple[str, ...]
    #: The term asked for: the asked topic without the context a definition question sets it in
    #: (:func:`asked_name`); what a near miss says the glossary has no entry for.
    term: str
    #: ``term`` casefolded, without the punctuation around it: compared with whole entry names.
    name: str
    #: The name asked's content words and every word ("attention", of "what is attention in neural
    #: networks"): the term a question longer than a bare term asks for.
    name_words: tuple[str, ...]
    name_tokens: tuple[str, ...]
    #: Asks what a term is (:func:`defines`): its name is the whole of what it asks.
    defining: bool
    #: Hinglish rendered in English ("loss kyu badhta hai" -> "loss increase"); search uses it for
    #: Hinglish text only.
    english: str
    #: The content words without romanized-Hindi function words, their English glosses, and the
    #: folded spellings of their Latin words (the Hinglish reading of the text).
    hinglish_words: tuple[str, ...]
    glosses: tuple[str, ...]
    folded: tuple[str, ...]
    #: Content words that have an English gloss of their own: no sign that the glossary lacks them.
    glossed: frozenset[str]
    #: Has a letter or digit at all; has a content word with a letter (not only numbers or scaffolding).
    has_words: bool
    topical: bool

    @property
    def hinglish(self) -> bool:
        return self.lang == "hinglish"


def read(text: str) -> Reading:
    """Everything search reads of ``text`` that no glossary changes."""
    words = content_tokens(text)
    topic = strip_scaffolding(text)
    asked = asked_topic(text)
    hinglish_words = [w for w in words if w not in FUNCTION_WORDS]
    defining = defines(text)
    term = asked_name(text, asked, defining)
    name = normalise(term.strip(_AROUND_NAME))
    return Reading(
        text=text,
        lang=detect_lang(text),
        topic=topic,
        asked=asked,
        words=tuple(words),
        topic_words=tuple(content_tokens(asked)),
        asked_tokens=tuple(tokens(asked)),
        term=term,
        name=name,
        name_words=tuple(content_tokens(name)),
        name_tokens=tuple(tokens(name)),
        defining=defining,
        english=to_english(text),
        hinglish_words=tuple(hinglish_words),
        glosses=tuple(gloss(hinglish_words)),
        folded=tuple(f for w in hinglish_words if _LATIN.search(w) and (f := fold(w)) != w),
        glossed=frozenset(w for w in words if gloss([w])),
        has_words=any(ch.isalnum() for ch in text),
        topical=any(ch.isalpha() for word in words for ch in word),
    )


def reading_of(text: Reading | str) -> Reading:
    """A reading as it is, or plain text read now (for callers with text of their own: calibration's
    pseudo-questions, scripts)."""
    return read(text) if isinstance(text, str) else text


@dataclass(frozen=True)
class Query(Cleaned):
    """A question understood: built once per question asked, by :func:`understand`."""

    #: The cleaned text, read for search.
    reading: Reading
    #: Only content words in Latin script ("dropout"): the asker's interface language decides.
    undecided: bool
    #: What it asks of an earlier answer ("give me an example", "in Hindi please"), if anything.
    follow_up: FollowUpCues | None
    #: "greeting", "thanks", "help", "identity" or "ack" for small talk, else None.
    small_talk: str | None
    #: A how-to or problem question ("how do I …", "why does …", "kya karu").
    how_to: bool
    #: X, read, in "the opposite of X".
    opposite: Reading | None
    #: The things compared, read, in "X vs Y (vs Z)"; None when it is no comparison. A side that
    #: refers back ("how is *it* different from Y") is None: the entry the last answer was about. No
    #: sides at all, ``()``: a comparison that names nothing ("difference?") compares the last answers'.
    sides: tuple[Reading | None, ...] | None
    #: The sides are joined only by "or" / "ya", or listed ("and", "aur", a comma): a comparison only
    #: if every side is an entry's name.
    choice: bool = False
    #: The sides are only listed ("what are X and Y"), no comparison asked: titled "X and Y".
    listing: bool = False
    #: The language the question asks its answer in ("dropout in Hindi"), if it names one.
    answer_in: Side | None = None
    #: Other ways to split the sides, tried in turn when ``sides`` do not each name an entry: "सीखने
    #: की दर का PEFT से क्या अंतर है" splits first at its first genitive, "सीखने" against "दर का PEFT".
    other_sides: tuple[tuple[Reading | None, ...], ...] = ()
    #: X, read, in "types of X" or "terms related to X": the entries named or filed under X, listed.
    topic: Reading | None = None

    @property
    def compares_earlier(self) -> bool:
        """A comparison that refers back to the answers before it ("how is it different from Y",
        "difference?"): the chat history says what it compares."""
        splits = () if self.sides is None else (self.sides, *self.other_sides)
        return any(not sides or None in sides for sides in splits)


def understand(question: str, max_chars: int) -> Query:
    """The question cleaned, read, and what it asks for noted: the one reading of it. What it asks is
    read without its courtesy ("hi, …", "… sir", "… please 🙏"); whether it is small talk or a
    follow-up ("thanks bhai", "in Hindi please"), from the whole message."""
    cleaned = clean(question, max_chars)
    text = cleaned.text
    core = without_courtesy(text)
    opposite = opposite_topic(core)
    topic = listed_topic(core)
    splits = comparison_splits(core)
    sides = None if splits is None else [_read_sides(split) for split in splits]
    return Query(
        text=text,
        lang=cleaned.lang,
        cut_at=cleaned.cut_at,
        reading=read(core),
        undecided=lang_undecided(core),
        follow_up=follow_up_cues(text),
        small_talk=small_talk(text),
        how_to=is_how_to(core),
        opposite=None if opposite is None else read(opposite),
        sides=None if sides is None else sides[0],
        choice=sides is not None and is_choice(core),
        listing=sides is not None and is_list(core),
        answer_in=answer_language(core),
        other_sides=() if sides is None else tuple(sides[1:]),
        topic=None if topic is None else read(topic),
    )


def _read_sides(sides: tuple[str, ...]) -> tuple[Reading | None, ...]:
    """A comparison's sides read, a pronoun as None (the entry of the answer before)."""
    return tuple(None if refers_back(side) else read(side) for side in sides)
