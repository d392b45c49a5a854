"""Whether an entry is the one a question names: by its whole name, by the words asked, or as an opposite.

Retrieval ranks entries by every kind of evidence; these checks read names only. A question that is
exactly an entry's name is that entry (:func:`named_entry`), whatever the ranking's doubts, and one
whose topic sounds like one of the first entries' names, in another script or misspelt, is that
entry (:func:`sounded_entry`); a bare-term question whose words are not that entry's name, or only
part of a longer one, asks for a term the glossary does not have (:func:`names_other_term`,
:func:`only_part_of_name`); "the opposite of X" is the entry whose own text says so
(:func:`antonym`). Each reads the question as ``bot.understand`` read it (its name, its topic's
words), or reads plain text given instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

import regex
from rapidfuzz import fuzz

from bot.search.lexical import MIN_FUZZY_LEN, entry_names, romanized, script_of
from bot.search.skeleton import MIN_SKELETON, skeleton
from bot.understand.cues import OPPOSITE_WORDS
from bot.understand.query import Reading, reading_of
from bot.understand.text import TERM_QUALIFIERS, content_tokens, normalise, tokens
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
    asked = [_squashed(a) for a in dict.fromkeys([*spellings(words), *spellings(reading.asked_tokens)])]
    bones = (script_of(" ".join(words)), skeleton(spellings(words)[-1]))
    found = {
        e.id: e
        for e in candidates
        if any(_sounds_like(a, _squashed(f)) for f in name_forms(e) for a in asked)
        or _sounds_across(bones, e)
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


#: A bare-term question ("what is X") names at most this many content words.
BARE_TERM_WORDS = 2
#: A definition question ("what is X", "X kya hai") names a term of at most this many content words;
#: one more than a bare term, so a name with two words of its own that no entry has is read too
#: ("blue green deployment", answered with Canary Deployment).
NAMED_TERM_WORDS = 3
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


def names_other_term(question: Reading | str, entry: GlossaryEntry) -> bool:
    """A bare-term question whose words are not all in ``entry``'s names: "what is a transformer"
    answered with Adapters asks for a term the glossary does not have, whatever the ranking says.

    Only when the words share a script with one of the names: across scripts they are compared by
    romanized sound, which misses names a one-language glossary has (a Hindi-only file's "मॉडल
    पैरेललिज़्म" romanizes to "modal parelijm", not "model parallelism"), and "no entry for model
    parallelism" above that very entry is wrong. The confidence decides then."""
    return _other_term(bare_term(reading_of(question))[0], entry)


def defines_other_term(question: Reading | str, entry: GlossaryEntry) -> bool:
    """A definition question's term of three words, two of them not ``entry``'s names' words: "what
    is blue green deployment" answered with Canary Deployment, "what is Zero Trust Architecture"
    with ZeRO (at a confidence of 1.0: its "zero" is the whole of a name) ask for a term the glossary
    does not have. Unlike a bare term's check, no confidence overrules it: three plain words of a
    definition question are the term asked, and two of them that no name of the entry has say what
    the ranking could not."""
    reading = reading_of(question)
    return not bare_term(reading)[0] and _other_term(_defined_term(reading), entry)


def _other_term(words: tuple[str, ...], entry: GlossaryEntry) -> bool:
    """At most one of ``words`` (and not all) is a word of ``entry``'s names; one word more than the
    name is a kind of it ("large batch size": Batch size)."""
    if not words or not _shares_a_script(words, entry) or _spells_initials(words, entry):
        return False
    return _outside(words, name_forms(entry)) >= max(1, len(words) - 1)


def _outside(words: Sequence[str], forms: frozenset[str]) -> int:
    """How many of ``words`` are no word of ``forms``: two typed apart that together are one of its
    words ("check point", of Training checkpoint) are in it."""
    form_words = _form_words(forms)
    inside = [_word_in(w, form_words) for w in words]
    for i, pair in enumerate(pairwise(words)):
        if "".join(pair) in form_words:  # as typed: one letter off, "green deployment" is "deployment"
            inside[i] = inside[i + 1] = True
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


def every_word_in(words: Sequence[str], forms: frozenset[str]) -> bool:
    """Each word is a word of one of ``forms``, compared as typed and romanized."""
    form_words = _form_words(forms)
    return all(_word_in(w, form_words) for w in words)


def _form_words(forms: frozenset[str]) -> set[str]:
    return {word for form in forms for word in form.split()}


def _word_in(word: str, form_words: set[str]) -> bool:
    """``word``, as typed or romanized, is one of ``form_words``, typed with a typo or in the plural."""
    return any(_alike(s, n) for s in spellings([word]) for n in form_words)


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


def _alike(asked: str, name: str) -> bool:
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


def _squashed(text: str) -> str:
    return text.replace(" ", "")


def _names(asked: str, form: str) -> bool:
    """``asked`` is the name ``form`` (typos, plurals, spacing, word order) or contains it ("adamw adam")."""
    a, f = _squashed(asked), _squashed(form)
    if _alike(a, f) or fuzz.token_sort_ratio(asked, form) >= NAME_WORD_MATCH:
        return True
    return len(f) <= len(a) and fuzz.partial_ratio(f, a) >= NAME_WORD_MATCH


def _key(words: Sequence[str]) -> str:
    """A name as compared for an exact match: its content words run together (case, spaces,
    hyphens, brackets and function words aside), so "flash attention" is "FlashAttention"."""
    return "".join(words)


def _name_parts(entry: GlossaryEntry) -> list[str]:
    """Each name of ``entry`` and each part of it around brackets or semicolons ("Video memory
    (VRAM)" gives the whole, "Video memory" and "VRAM"), as written."""
    return list(dict.fromkeys(p.strip() for p in _parts(entry.names) if tokens(p)))


def names_entry(question: Reading | str, entry: GlossaryEntry) -> bool:
    """The asked topic is one of ``entry``'s names or a bracketed part of one ("vram kya hota h" and
    Video memory (VRAM)), or its plural or singular ("what are loss functions"): what an exact match
    means."""
    reading = reading_of(question)
    asked = {_key(reading.topic_words), _key(reading.asked_tokens)} - {""}  # "over fitting": every word
    return any(_same_noun(a, _key(content_tokens(p))) for a in asked for p in _name_parts(entry))


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
    names = {p: tuple(content_tokens(p)) for p in _name_parts(entry)}
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
        len(_squashed(a)) < len(_squashed(f))
        and all(fuzz.partial_ratio(w, _squashed(f)) >= NAME_WORD_MATCH for w in a.split())
        for a, f in pairs
    )
