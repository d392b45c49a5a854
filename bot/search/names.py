"""Whether an entry is the one a question names: by its whole name, by the words asked, or as an opposite.

Retrieval ranks entries by every kind of evidence; these checks read names only. A question that is
exactly an entry's name is that entry (:func:`named_entry`), whatever the ranking's doubts, and one
whose topic sounds like one of the first entries' names, in another script or misspelt, is that
entry (:func:`sounded_entry`); the asked topic is the name itself, or its plural (:func:`names_entry`,
what "exact match" means), or a misspelling of it (:func:`misspelt_name`); "the opposite of X" is
the entry whose own text says so (:func:`antonym`). The words an entry's names are made of, as
typed and romanized (:func:`name_forms`, :func:`word_in`), are what ``bot.search.other_term``
reads to say a question asks for another term. Each reads the question as ``bot.understand`` read
it (its name, its topic's words), or reads plain text given instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import regex
from rapidfuzz import fuzz

from bot.search.lexical import MIN_FUZZY_LEN, entry_names, romanized, script_of
from bot.search.skeleton import MIN_SKELETON, skeleton
from bot.understand.cues import OPPOSITE_WORDS
from bot.understand.query import Reading, reading_of
from bot.understand.text import content_tokens, normalise, tokens
from glossary import Glossary, GlossaryEntry


@lru_cache(maxsize=8)
def _name_index(glossary: Glossary) -> dict[str, str | None]:
    names: dict[str, str | None] = {}
    for entry in glossary.entries:
        for name in {normalise(n) for n in _whole_names(entry)}:
            names[name] = entry.id if names.get(name, entry.id) == entry.id else None
    return names


#: A name with a bracketed part after it: "ऑब्जर्वेबिलिटी (Observability)", "Overfitting (ओवरफिटिंग)".
_BRACKETED = regex.compile(r"^\s*(?P<outside>[^()]+?)\s*\((?P<inside>[^()]+)\)\s*$")
#: What separates the parts of a name: brackets, and the semicolons that list a bracket's names
#: ("निरंतर डिलीवरी (Continuous Delivery; CD)" is also Continuous Delivery and CD).
_PART_MARKS = regex.compile(r"[();]")


def _whole_names(entry: GlossaryEntry) -> list[str]:
    """Each name of ``entry``, and both sides of one whose bracketed part is written in a script the
    rest of it does not use: that is the name in the other language, as Hindi glossaries often write
    their headings ("ऑब्जर्वेबिलिटी (Observability)"), each of the names it lists with semicolons
    ("(Continuous Delivery; CD)"). A bracket in the same script may be a qualifier ("Kernel (OS)"),
    which names another thing, so it is no name of the entry."""
    out = list(entry.names)
    for name in entry.names:
        found = _BRACKETED.match(name)
        if found and not _scripts(found["outside"]) & _scripts(found["inside"]):
            out += [found["outside"], found["inside"], *(n.strip() for n in found["inside"].split(";"))]
    return out


def _scripts(text: str) -> set[str]:
    return {script_of(word) for word in tokens(text)}


def named_entry(question: Reading | str, glossary: Glossary) -> GlossaryEntry | None:
    """The entry whose name (term or alias) is the whole question, if exactly one entry has that name."""
    entry_id = _name_index(glossary).get(reading_of(question).name)
    return glossary.get(entry_id) if entry_id else None


def sounded_entry(question: Reading | str, candidates: Sequence[GlossaryEntry]) -> GlossaryEntry | None:
    """The one entry of ``candidates`` whose name, or a bracketed part of it, the whole asked topic
    sounds like: compared romanized, so "what is supervised learning" finds "पर्यवेक्षित अधिगम
    (सुपरवाइज़्ड लर्निंग)" in a Hindi-only file and "ओवरफिटिंग क्या है" finds Overfitting in an
    English-only one, and typed with a typo or a plural ("overfiting kya hai"); across scripts also
    by its consonants as sounded ("रिफंड" finds Refund: :func:`_sounds_across`).

    The ranking found these entries, but across scripts its evidence is weaker than within one, so
    it stated too little of them (0.63 on average for English term questions asked of the bundled
    glossary's Hindi-only view, which had 96 % of them right). None when two candidates sound alike.
    A topic shorter than ``MIN_FUZZY_LEN`` letters must be the name: "ram" is one letter from "vram"."""
    reading = reading_of(question)
    words = reading.topic_words
    if not words:
        return None
    # every word too: a name may split at a stop word ("over fitting" is Overfitting)
    asked = [squashed(a) for a in dict.fromkeys([*spellings(words), *spellings(reading.asked_tokens)])]
    bones = (script_of(" ".join(words)), skeleton(spellings(words)[-1]))
    found = {
        e.id: e
        for e in candidates
        if any(_sounds_like(a, squashed(f)) for f in name_forms(e) for a in asked) or _sounds_across(bones, e)
    }
    return next(iter(found.values())) if len(found) == 1 else None


def _sounds_like(asked: str, name: str) -> bool:
    """Spelt alike, or the name's plural: a short abbreviation too ("what are CDs": CD)."""
    if asked == name or (len(name) >= MIN_NAME_LETTERS and name in _singulars(asked)):
        return True
    return len(asked) >= MIN_FUZZY_LEN and fuzz.ratio(asked, name) >= SOUNDS_LIKE_NAME


def antonym(entry: GlossaryEntry, glossary: Glossary) -> GlossaryEntry | None:
    """The entry the glossary gives as the opposite of ``entry``: one whose text says "opposite"
    and names it, else one related both ways with the most similar name (over-/under-fitting)."""
    ids = {e.id for e in glossary.entries}
    linked = [glossary.get(i) for i in entry.related if i in ids and i != entry.id]
    names = {normalise(n) for n in (entry.term_en, entry.term_hi) if n}
    for other in linked:
        text = normalise(
            " ".join(
                filter(None, [other.definition_en, other.definition_hi, *other.notes_en, *other.notes_hi])
            )
        )
        if OPPOSITE_WORDS & set(tokens(text)) and any(n in text for n in names):
            return other
    mutual = [o for o in linked if entry.id in o.related]
    if not mutual:
        return None
    return max(
        mutual,
        key=lambda o: fuzz.ratio(normalise(o.term_en or o.term), normalise(entry.term_en or entry.term)),
    )


#: Entries whose name forms are kept (:func:`forms_of`): those that came first for recent questions.
NAME_FORMS_MEMORY = 4096
#: rapidfuzz ratio from which a typed word is taken as a word of an entry's name (typos pass;
#: "attention" is not "flashattention" at 78).
NAME_WORD_MATCH = 80
#: rapidfuzz ratio from which a whole asked topic sounds like a whole name (:func:`sounded_entry`).
#: Stricter than a word's match: at 80, "learning rate warmup" sounded like Learning rate.
SOUNDS_LIKE_NAME = 85
#: The shortest name whose plural sounds like it (:func:`_sounds_like`): "CDs" is CD's; no one-letter
#: name is made of "as" or "is".
MIN_NAME_LETTERS = 2


def every_word_in(words: Sequence[str], forms: frozenset[str]) -> bool:
    """Each word is a word of one of ``forms``, compared as typed and romanized."""
    form_words = words_of(forms)
    return all(word_in(w, form_words) for w in words)


def words_of(forms: frozenset[str]) -> set[str]:
    return {word for form in forms for word in form.split()}


def word_in(word: str, form_words: set[str]) -> bool:
    """``word``, as typed or romanized, is one of ``form_words``, typed with a typo or in the plural."""
    return any(alike(s, n) for s in spellings([word]) for n in form_words)


def alike(asked: str, name: str) -> bool:
    """``asked`` is ``name`` typed with a typo, or its singular: a Devanagari plural is rarely
    written, and a romanized "नोड" ("nod") is one letter from "node", two from "nodes"."""
    singular = name[:-1] if name.endswith("s") and len(name) > len(asked) else name
    return max(fuzz.ratio(asked, name), fuzz.ratio(asked, singular)) >= NAME_WORD_MATCH


def spellings(words: Sequence[str]) -> tuple[str, ...]:
    """Words as typed and, for Devanagari, romanized ("नोड" and "नोड्स" are one edit apart as "nod"
    and "nods", three code points apart as typed)."""
    roman = [romanized([w])[0] if romanized([w]) else w for w in words]
    return tuple(dict.fromkeys([" ".join(words), " ".join(roman)]))


def name_forms(entry: GlossaryEntry) -> frozenset[str]:
    """Each name of ``entry`` and each part of it around brackets or semicolons ("Mutual … Security
    (mTLS)" gives the whole, "mutual … security" and "mtls"), as typed and romanized."""
    return forms_of(tuple(entry_names(entry)))


@lru_cache(maxsize=NAME_FORMS_MEMORY)
def forms_of(names: tuple[str, ...]) -> frozenset[str]:
    """:func:`name_forms` by the names alone: both name checks read an entry's forms for every
    question it comes first for, and romanizing them costs about 0.3 ms an entry."""
    return frozenset(form for p in _parts(names) if (words := tokens(p)) for form in spellings(words))


def _parts(names: Sequence[str]) -> list[str]:
    """Each name and each part of it around brackets or semicolons ("Video memory (VRAM)" gives the
    whole, "Video memory " and "VRAM"), unstripped: the name forms, the skeletons and the parts as
    written each read these."""
    return [p for name in names for p in (name, *_PART_MARKS.split(name))]


def _sounds_across(asked: tuple[str, str], entry: GlossaryEntry) -> bool:
    """A name of ``entry`` in the other script than the asked topic (``asked``: its script and
    skeleton) has its consonants, as sounded ("रिफंड" and Refund, "weight decay" and "वेट डिके":
    ``bot.search.skeleton``)."""
    script, bone = asked
    return len(bone) >= MIN_SKELETON and any(
        b == bone and s != script for s, b in _skeletons(tuple(entry.names))
    )


@lru_cache(maxsize=NAME_FORMS_MEMORY)
def _skeletons(names: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """(script, skeleton) of each name and each part of it around brackets or semicolons, kept:
    every question compares them for the ranking's first entries (0.6 ms a question, built anew)."""
    parts = (tokens(p) for p in _parts(names))
    return frozenset((script_of(" ".join(t)), skeleton(spellings(t)[-1])) for t in parts if t)


def squashed(text: str) -> str:
    return text.replace(" ", "")


def _key(words: Sequence[str]) -> str:
    """A name as compared for an exact match: its content words run together (case, spaces,
    hyphens, brackets and function words aside), so "flash attention" is "FlashAttention"."""
    return "".join(words)


def name_parts(entry: GlossaryEntry) -> list[str]:
    """Each name of ``entry`` and each part of it around brackets or semicolons ("Video memory
    (VRAM)" gives the whole, "Video memory" and "VRAM"), as written."""
    return list(dict.fromkeys(p.strip() for p in _parts(entry.names) if tokens(p)))


def names_entry(question: Reading | str, entry: GlossaryEntry) -> bool:
    """The asked topic is one of ``entry``'s names or a bracketed part of one ("vram kya hota h" and
    Video memory (VRAM)), or its plural or singular ("what are loss functions"): what an exact match
    means."""
    reading = reading_of(question)
    asked = {_key(reading.topic_words), _key(reading.asked_tokens)} - {""}  # "over fitting": every word
    return any(_same_noun(a, _key(content_tokens(p))) for a in asked for p in name_parts(entry))


#: English plural endings and the singular endings they replace ("batches", "redundancies").
_PLURAL_ENDINGS = (("ies", "y"), ("es", ""), ("s", ""))


def _singulars(key: str) -> set[str]:
    """What ``key`` is the plural of, if it ends as an English plural does ("losses" may be "loss" or
    "losse"); none for a word that ends in "ss" ("loss", "class")."""
    if not key.isascii() or key.endswith("ss"):
        return set()
    return {key[: -len(end)] + singular for end, singular in _PLURAL_ENDINGS if key.endswith(end)}


def _same_noun(asked: str, name: str) -> bool:
    """``asked`` is ``name``, its plural or its singular. Only one side is made singular: "batchs", a
    typo of Batches, is no plural of it, though both may be read as "batch"."""
    return asked == name or name in _singulars(asked) or asked in _singulars(name)


def misspelt_name(question: Reading | str, entry: GlossaryEntry) -> str | None:
    """The name of ``entry`` the asked topic is a misspelling of ("overfiting" -> Overfitting), or
    None: the whole topic, not a part of it, must be that close to the whole name, and be no name
    (nor a name's plural) itself."""
    words = tuple(reading_of(question).topic_words)
    if not words:
        return None
    names = {p: tuple(content_tokens(p)) for p in name_parts(entry)}
    asked, parts = _key(words), list(names)  # the heading first: of names as close, it is shown
    if any(_same_noun(asked, _key(n)) for n in names.values()):
        return None  # the name itself, or its plural: no misspelling
    scores = [fuzz.ratio(asked, _key(names[p])) for p in parts]
    best = max(range(len(parts)), key=scores.__getitem__, default=None)
    if best is None or scores[best] < NAME_WORD_MATCH:
        return None
    # A question that holds one of the names whole (or that one of them holds) has misspelt none:
    # words were added or left out, which the ranking and the exact-match rule judge. A shorter name
    # inside the closest one is no such name: "zero redundancy optimzer" holds ZeRO, a word of "Zero
    # Redundancy Optimizer", whose misspelling it is.
    closest = names[parts[best]]
    inside = [n for n in names.values() if len(n) < len(closest) and _holds(closest, n)]
    if any(_holds(words, n) or _holds(n, words) for n in names.values() if n not in inside):
        return None
    return parts[best]


def _holds(words: Sequence[str], part: Sequence[str]) -> bool:
    """``part`` stands in ``words`` whole, word for word and in order."""
    n = len(part)
    return n > 0 and any(tuple(words[i : i + n]) == tuple(part) for i in range(len(words) - n + 1))
