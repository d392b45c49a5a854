"""What a question asks for besides "what is X": small talk, a how-to or problem, an opposite, the
terms about a topic ("types of X"), or something about an earlier answer (a follow-up).

The phrasings are language patterns in ``data/intents.yaml`` and the word lists below (English,
Hindi, Hinglish), general and about no particular glossary. Whether the glossary answers such a
question is decided later: the FAQ by meaning (``bot.search.faq``), the opposite by the entries'
own text (``bot.search.names.antonym``), a topic's terms by their names and categories
(``bot.search.topics.entries_about``), the earlier answer a follow-up refers to from the chat
history (``bot.understand.dialogue``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import regex

from bot.understand.text import LANGUAGE_NAMES, STOP_WORDS, Side, tokens, word_set
from glossary.yamlio import load_yaml

_RAW = load_yaml((Path(__file__).parents[1] / "data" / "intents.yaml").read_text(encoding="utf-8"))
SMALL_TALK: dict[str, frozenset[str]] = {kind: word_set(words) for kind, words in _RAW["small_talk"].items()}
_FILLER = word_set(_RAW["filler"])
#: The small talk that asks what the bot can do and what the glossary holds.
HELP = "help"
_HOW_TO = regex.compile("|".join(f"(?:{p})" for p in _RAW["how_to"]), regex.IGNORECASE)
_OPPOSITE = [regex.compile(p) for p in _RAW["opposite"]]
_TOPIC_LIST = [regex.compile(p) for p in _RAW["topic_list"]]
#: Words that say what kind of thing a topic's terms are ("techniques", "तरीके"), not which.
TOPIC_KINDS = word_set(_RAW["topic_kinds"])
#: Words that, in an entry's text, say it is the opposite of another.
OPPOSITE_WORDS = word_set(_RAW["opposite_words"])


def small_talk(question: str) -> str | None:
    """The kind of small talk ("greeting", "thanks", "help", "identity", "ack") a message is, or None."""
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
    return _captured(_OPPOSITE, question)


def listed_topic(question: str) -> str | None:
    """X in "types of X" / "terms related to X" / "X ke types" / "X से जुड़े शब्द", or None."""
    return _captured(_TOPIC_LIST, question)


def _captured(patterns: list[regex.Pattern[str]], question: str) -> str | None:
    """The ``x`` the first matching pattern captures, or None."""
    for pattern in patterns:
        if match := pattern.match(question.strip()):
            return match.group("x").strip()
    return None


#: What a follow-up may ask of an earlier answer's entries: their example, usage, or everything.
Aspect = Literal["example", "usage", "more"]


#: Words that ask for a part of the previous answer (matched after casefolding).
ASPECT_WORDS: dict[Aspect, frozenset[str]] = {
    "example": word_set(
        "example examples eg sample instance udaharan udahran udaaharan उदाहरण उदाहरणों मिसाल"
    ),
    "usage": word_set(
        "usage use used uses using upyog upayog upyoug istemal istemaal prayog उपयोग प्रयोग इस्तेमाल"
    ),
    "more": word_set(
        "more detail details detailed elaborate expand further explain zyada jyada vistar vistaar "
        "विस्तार ज़्यादा ज्यादा अधिक"
    ),
}
#: Words that ask for the previous answer in another language.
LANGUAGE_WORDS: dict[Side, frozenset[str]] = {
    side: word_set(" ".join(n)) for side, n in LANGUAGE_NAMES.items()
}
#: Words that carry no topic in a follow-up: pronouns, politeness, "give/show/tell", "when", "in".
FILLER_WORDS = word_set(
    """
    it its this that these those same term word one please pls plz kindly can could would you me
    give show tell say write provide share another some any an a the of for in about on with now also again
    and when where how why what more so ok okay thanks language please
    iska iske iski isko isse iss is uska uske uski usko inka unka ye yeh wo woh bhi aur ek koi
    do dijiye dijie de dena dedo dikhao dikhaiye batao bataiye bataye btao samjhao samjhaiye likho
    kab kaise kyu kyon me mein main mai karen kare karein karna karte plz zara thoda
    इसका इसके इसकी इसको इसे इस उसका उसके उसकी उसे यह वह और भी एक कोई कब कैसे क्यों में
    दो दीजिए दिखाओ दिखाइए बताओ बताइए बताएं समझाओ समझाइए लिखो करें करना करते कृपया ज़रा थोड़ा
    """
)
#: What a follow-up asks for: an aspect of the earlier answer, and/or the other language.
FollowUpCues = tuple[Aspect | None, Side | None]


#: A name asked spelled out ("what is its full form", "what does it stand for", "इसका पूरा नाम"): the
#: whole card again, whose heading spells it out. A phrase, not words: "what is a form" has a topic.
_SPELLED_OUT = regex.compile(r"(?i)\bfull\s*forms?\b|\bstands?\s+for\b|फुल\s+फॉर्म|पूरा\s+नाम")


def follow_up_cues(message: str) -> FollowUpCues | None:
    """(aspect, language) asked for, or None when the message has a topic of its own or no cue at all."""
    rest, spelled_out = _SPELLED_OUT.subn(" ", message)
    words = tokens(rest)
    aspect = next((a for a, vocab in ASPECT_WORDS.items() if any(w in vocab for w in words)), None)
    if aspect is None and spelled_out:
        aspect = "more"
    lang = next((lg for lg, vocab in LANGUAGE_WORDS.items() if any(w in vocab for w in words)), None)
    if aspect is None and lang is None:
        return None
    cue_words = set().union(*ASPECT_WORDS.values(), *LANGUAGE_WORDS.values())
    topic = [
        w for w in words if w not in cue_words | FILLER_WORDS | STOP_WORDS and len(w) > 1 and not w.isdigit()
    ]
    return None if topic else (aspect, lang)
