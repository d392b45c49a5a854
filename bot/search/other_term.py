"""Whether a question asks for a term an entry is not: words that are no word of its names, or only
a part of its longer name.

The ranking puts some entry first for any question; these checks read the asked term's words
against that entry's names (``bot.search.names``) and say when the glossary has no entry for it: a
bare term ("what is batch normalization": Batch, :func:`names_other_term`), a definition question's
three-word term ("what is blue green deployment": Canary Deployment, :func:`defines_other_term`), a
comparison's side (:func:`names_another`), a strict part of a longer name ("what is attention":
FlashAttention, :func:`only_part_of_name`), a name with a prefix hyphened to it ("what is
semi-dropout": Dropout, :func:`prefixes_name`); and when a text is an entry's name and nothing more
(:func:`is_only_name`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import regex
from rapidfuzz import fuzz

from bot.search.lexical import entry_names, script_of
from bot.search.names import (
    NAME_WORD_MATCH,
    alike,
    every_word_in,
    forms_of,
    name_forms,
    name_parts,
    spellings,
    squashed,
    word_in,
    words_of,
)
from bot.understand.courtesy import COURTESY_WORDS
from bot.understand.query import Reading, reading_of
from bot.understand.text import TERM_QUALIFIERS, content_tokens
from glossary import GlossaryEntry

#: A bare-term question ("what is X") names at most this many content words.
BARE_TERM_WORDS = 2
#: A definition question ("what is X", "X kya hai") names a term of at most this many content words;
#: one more than a bare term, so a name with two words of its own that no entry has is read too
#: ("blue green deployment", answered with Canary Deployment).
NAMED_TERM_WORDS = 3


def names_other_term(question: Reading | str, entry: GlossaryEntry) -> bool:
    """A bare-term question whose words are not all in ``entry``'s names: "what is a transformer"
    answered with Adapters asks for a term the glossary does not have, whatever the ranking says.

    Only when the words share a script with one of the names: across scripts they are compared by
    romanized sound, which misses names a one-language glossary has (a Hindi-only file's "मॉडल
    पैरेललिज़्म" romanizes to "modal parelijm", not "model parallelism"), and "no entry for model
    parallelism" above that very entry is wrong. The confidence decides then."""
    reading = reading_of(question)
    return _other_term(bare_term(reading)[0], entry, reading)


def defines_other_term(question: Reading | str, entry: GlossaryEntry) -> bool:
    """A definition question's term of three words, two of them not ``entry``'s names' words: "what
    is blue green deployment" answered with Canary Deployment, "what is Zero Trust Architecture"
    with ZeRO (at a confidence of 1.0: its "zero" is the whole of a name) ask for a term the glossary
    does not have. Unlike a bare term's check, no confidence overrules it: three plain words of a
    definition question are the term asked, and two of them that no name of the entry has say what
    the ranking could not."""
    reading = reading_of(question)
    return not bare_term(reading)[0] and _other_term(_defined_term(reading), entry, reading)


def names_another(text: Reading | str, entry: GlossaryEntry) -> bool:
    """A short text said as a name (a comparison's side, the X of "the opposite of X") whose words,
    however many, are not ``entry``'s names, as a bare term's are not (:func:`names_other_term`):
    "batch normalization" spells out all of Batch, "Agile Software Development" the "development" of
    a Validation dataset's "development set", yet each names another term."""
    reading = reading_of(text)
    words = tuple(w for w in _unqualified(reading.topic_words) if w not in COURTESY_WORDS)
    return _other_term(words, entry, reading)


def prefixes_name(question: Reading | str, entry: GlossaryEntry) -> bool:
    """The term asked is another because a word that is no word of ``entry``'s name is hyphened to
    one that is ("what is semi-dropout", "what is semi-supervised learning" of Supervised learning,
    "what is semi-Mixture of Experts"): no name of the entry reads the words as well once the hyphen
    is kept, and the word is one more than the name has (a typo in its own first word, "dorp-out",
    adds none). Unlike a bare term's other words, no confidence overrules it, whatever the name's
    length: the prefix is part of the term typed, not context around it, and the ranking is surest
    exactly there (Dropout's card at 0.98 on the bundled glossary)."""
    reading = reading_of(question)
    joined = _joined(reading)
    words = bare_term(reading)[0] or (reading.name_words if reading.defining else ())
    if not joined or not _comparable(words, entry):
        return False
    # each part of a bracketed name alone too: "semi-VRAM" is one word more than "VRAM"
    parts = name_parts(entry)
    plain, hyphened = _outside_each(words, parts, frozenset()), _outside_each(words, parts, joined)
    fewest = min(plain)
    best = [i for i, outside in enumerate(plain) if outside == fewest]
    return all(hyphened[i] > fewest for i in best) and any(
        len(content_tokens(parts[i])) < len(words) for i in best
    )


def _other_term(words: tuple[str, ...], entry: GlossaryEntry, reading: Reading) -> bool:
    """At most one of ``words`` (and not all) is a word of any one of ``entry``'s names; one word
    more than the name is a kind of it ("large batch size": Batch size)."""
    if not _comparable(words, entry):
        return False
    return _fewest_outside(words, entry, _joined(reading)) >= max(1, len(words) - 1)


def _comparable(words: tuple[str, ...], entry: GlossaryEntry) -> bool:
    """Words that can be read against ``entry``'s names: in a script one of them uses, and not its
    initials."""
    return bool(words) and _shares_a_script(words, entry) and not _spells_initials(words, entry)


def _fewest_outside(words: tuple[str, ...], entry: GlossaryEntry, joined: frozenset[tuple[str, str]]) -> int:
    """How many of ``words`` are outside the name of ``entry`` that holds most of them. Each name is
    read alone: a term is not pieced together from several ("multi-task learning" took "multi" from
    Distributed training's "multi-GPU training" and "learning" from its "distributed learning")."""
    return min(_outside_each(words, entry_names(entry), joined))


def _outside_each(
    words: tuple[str, ...], names: Sequence[str], joined: frozenset[tuple[str, str]]
) -> list[int]:
    """How many of ``words`` are outside each of ``names``, read alone."""
    return [_outside(words, forms_of((name,)), joined) for name in names]


#: A word and the next, as the asker joined them with a hyphen ("semi-supervised").
_HYPHENED = regex.compile(r"([\p{L}\p{M}\p{N}]+)-(?=([\p{L}\p{M}\p{N}]+))")


def _joined(reading: Reading) -> frozenset[tuple[str, str]]:
    return frozenset((a.casefold(), b.casefold()) for a, b in _HYPHENED.findall(reading.topic))


def _outside(words: Sequence[str], forms: frozenset[str], joined: frozenset[tuple[str, str]]) -> int:
    """How many of ``words`` are no word of ``forms``: two typed apart that together are one of its
    words ("check point", of Training checkpoint) are in it, and a word of the name that the asker
    hyphened to a word outside it is another word ("semi-supervised learning" is no kind of
    Supervised learning, as "large batch size" is of Batch size)."""
    form_words = words_of(forms)
    inside = [word_in(w, form_words) for w in words]
    for i, pair in enumerate(pairwise(words)):
        if "".join(pair) in form_words:  # as typed: one letter off, "green deployment" is "deployment"
            inside[i] = inside[i + 1] = True
    for first, second in joined:
        if first in words and second in words and not inside[words.index(first)]:
            inside[words.index(second)] = False
    return len(words) - sum(inside)


def _defined_term(reading: Reading) -> tuple[str, ...]:
    """The term a definition question of up to ``NAMED_TERM_WORDS`` words asks for ("what is blue green
    deployment"). None for one that asks which is best (a recommendation: the confidence decides) or
    whose words a stop word joins: that asks more than a term ("what is VRAM and why does it limit
    training", "Microservices architecture के फायदे क्या हैं?")."""
    words = reading.name_words
    plain = words == _unqualified(words) and len(words) == len(reading.name_tokens)
    return words if reading.defining and plain and len(words) <= NAMED_TERM_WORDS else ()


def bare_term(reading: Reading) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The content words and every word of the term a question asks for: its asked topic, or, when
    that is longer than a bare term, the name asked without the context a definition question sets it
    in ("attention", of "what is attention in neural networks", which was answered with
    FlashAttention's card as if the glossary defined attention)."""
    words, every_word = (
        (reading.topic_words, reading.asked_tokens)
        if len(reading.topic_words) <= BARE_TERM_WORDS
        else (reading.name_words, reading.name_tokens)
    )
    if len(words) > BARE_TERM_WORDS:  # counted with its qualifiers: a longer question is no bare term
        return (), ()
    return _unqualified(words), _unqualified(every_word)


def _unqualified(words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` without those that ask which is best or usual of a term ("the best optimizer" asks
    about Optimizer; "no entry for best optimizer" above it was wrong)."""
    return tuple(w for w in words if w not in TERM_QUALIFIERS)


def _shares_a_script(words: Sequence[str], entry: GlossaryEntry) -> bool:
    asked = {script_of(w) for w in words}
    return any(script_of(word) in asked for name in entry_names(entry) for word in name.split())


def is_only_name(text: Reading | str, entry: GlossaryEntry) -> bool:
    """``text`` says ``entry``'s name and nothing more, whatever its length ("weight decay", not
    "learning rate kam kare"): the side of an "X or Y" question that makes it a comparison."""
    words = reading_of(text).topic_words
    return bool(words) and _all_in_names(words, entry) and not only_part_of_name(text, entry)


def _all_in_names(words: Sequence[str], entry: GlossaryEntry) -> bool:
    """Each word is a word of one of ``entry``'s names, compared as typed and romanized on both
    sides ("कुबेरनेट्स" is Kubernetes's word, as "kubernetes" is कुबेरनेट्स's)."""
    return every_word_in(words, name_forms(entry))


def _spells_initials(words: Sequence[str], entry: GlossaryEntry) -> bool:
    """The words are the initials of one of ``entry``'s Latin names of several words: a Hindi-only
    file's "एमटीएलएस (Mutual Transport Layer Security)" is what "mTLS" asks for. Not a name for a
    choice's side ("lr kam kare ya zyada" is no comparison with Learning rate)."""
    asked = "".join(words)
    return any(
        asked == "".join(w[0] for w in form.split())
        for form in name_forms(entry)
        if form.isascii() and " " in form
    )


def _names(asked: str, form: str) -> bool:
    """``asked`` is the name ``form`` (typos, plurals, spacing, word order) or contains it ("adamw adam")."""
    a, f = squashed(asked), squashed(form)
    if alike(a, f) or fuzz.token_sort_ratio(asked, form) >= NAME_WORD_MATCH:
        return True
    return len(f) <= len(a) and fuzz.partial_ratio(f, a) >= NAME_WORD_MATCH


def only_part_of_name(question: Reading | str, entry: GlossaryEntry) -> bool:
    """A bare-term question that is a strict part of ``entry``'s longer name and no name of it: "what
    is attention" answered with FlashAttention asks for a term the glossary does not have. A name
    still counts when typed with a typo, a plural, without spaces or in another word order."""
    reading = reading_of(question)
    words, every_word = bare_term(reading)
    if not 0 < len(words) <= BARE_TERM_WORDS:
        return False
    if len(reading.topic_words) > BARE_TERM_WORDS and not _shares_a_script(words, entry):
        # a word compared with a name in another script by its romanized sound is a loose match
        # ("bacth" in मिनी-बैच), and asked in a context the question is less surely a bare term
        return False
    asked, forms = spellings(words), name_forms(entry)
    # the asked term's every word too: a name's own words may be stop words ("over-fitting",
    # "training sample or example"), which its content words leave out
    said = dict.fromkeys([*asked, *spellings(every_word)])
    if any(_names(a, f) for a in said for f in forms):
        return False
    pairs = [(a, f) for a in asked for f in forms]
    return any(
        len(squashed(a)) < len(squashed(f))
        and all(fuzz.partial_ratio(w, squashed(f)) >= NAME_WORD_MATCH for w in a.split())
        for a, f in pairs
    )
