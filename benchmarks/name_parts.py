"""``python -m benchmarks.name_parts [--views DIR] [--out benchmarks/NAME_PARTS.json]``: terms a
glossary has no entry for, asked as a word of a longer name ("what is attention" beside
FlashAttention, "what is rate" beside Learning rate), bare and with the context a definition question
sets a term in ("what is attention in neural networks", "ML me attention kya hai"); and the
glossary's own names asked with that context or with a word asking which is best of them ("what is
the best optimizer"), which must still be answered.

The reply to such a word should say the glossary has no entry for it and offer the closest entries:
answered with the longer name's card, it reads as if the glossary defined the word. Each word of two
or more of a dev view's names' words (``MIN_LETTERS`` letters or more) that is no entry's name and
no word of another entry's name is asked in each frame of ``FRAMES``; each name (``frames.names``) in
the frames that set a context and in ``QUALIFIED``. Nothing here is written for a glossary: the words
are its own names'.

Last, each view is asked the other dev glossary's names it has none of ("what is Canary Deployment"
of the bundled ML glossary, "Gradient clipping kya hai" of CNCF), in ``OTHER_FIELD``: terms of
another field, by their number of content words, which should be declined, best as no entry.

Each view's entries are asked by a name with a prefix hyphened to it that makes another term
("what is semi-Supervised learning", "स्व-पर्यवेक्षित अधिगम क्या है", in ``PREFIXED``), one prefix of
``PREFIXES`` drawn per entry and script, unless the glossary has that name: no kind of the entry, it
should not be answered with its card.

And each view is asked to compare ``PAIRS`` random entries of its own with names of the other field
("Dropout vs Canary Deployment"), in ``OTHER_SIDE``: the reply should show the entry alone and say
the glossary has no entry for the other side, not set another entry beside it.

Per frame, pooled over the views (``benchmarks.dev_views.views``), of ``bot.retrieve``'s decisions:
for parts ``asked``, ``no_entry`` (declined as a term the glossary lacks) and ``answered`` (not
declined); for names ``asked``, ``answered_right`` (not declined, the name's entry first) and
``no_entry``; for comparisons ``asked``, ``alone`` (the own entry shown alone, the other side
said missing) and ``beside_another`` (another entry set beside it); for prefixed names ``asked``,
``as_the_name`` (answered with the entry whose name was prefixed) and ``no_entry``.
"""

from __future__ import annotations

import os
import random

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import regex

from benchmarks.dev_views import arguments, field, pooled, record, source, views
from benchmarks.frames import PAIRS, comparable, core_name, names
from bot.core import GlossaryBot
from bot.search.lexical import script_of
from bot.search.names import squashed
from bot.understand.text import content_tokens
from glossary import Glossary, GlossaryEntry

#: The bare question, then a context around the term in each dev glossary's field: after it in
#: English, before it in Hinglish and Hindi, and after it in English words in a Hinglish frame.
FRAMES = (
    "what is {}",
    "what is {} in machine learning",
    "what is {} in cloud systems",
    "machine learning me {} kya hai",
    "क्लाउड सिस्टम में {} क्या है",
    "{} in cloud systems kya hota hai",
)
#: A name asked with a word that asks which is best of it, in English, Hindi and Hinglish.
QUALIFIED = ("what is the best {}", "what is a good {}", "सबसे अच्छा {} क्या है", "{} ka sahi matlab kya hai")
#: Frames the other dev glossary's names are asked in: a term of another field, which this one lacks.
OTHER_FIELD = ("what is {}", "{} kya hai")
#: Frames a comparison of an own entry (``a``) with the other field's name (``b``) is asked in.
OTHER_SIDE = ("{a} vs {b}", "{a} ka {b} se kya fark hai")
#: Prefixes that make another term of the word they are hyphened to, by the script of the name.
PREFIXES = {
    "latin": ("semi", "multi", "self", "non", "sub", "meta"),
    "devanagari": ("अर्ध", "बहु", "स्व", "गैर", "उप"),
}
#: The definition question a prefixed name is asked in, by its script.
PREFIXED = {"latin": "what is {}", "devanagari": "{} क्या है"}
#: How a prefixed name's row starts (``prefixed``, ``prefixed_table``).
PREFIXED_ROW = "prefixed name: "
#: Names of this many content words or more are counted in one row.
LONGEST_COUNTED = 4
#: Shorter words are often function words or abbreviations a name spells out.
MIN_LETTERS = 4
_WORD = regex.compile(r"[\p{L}\p{M}]+")


def _words(name: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(name)]


def parts(entries: list[GlossaryEntry]) -> list[str]:
    """Words of one entry's longer names that name nothing: no entry's name, no other entry's word."""
    named = {n.casefold() for e in entries for n in names(e)}
    owners: dict[str, set[str]] = {}
    for entry in entries:
        for name in names(entry):
            for word in _words(name):
                owners.setdefault(word, set()).add(entry.id)
    found = {
        word
        for entry in entries
        for name in names(entry)
        if len(words := _words(name)) > 1
        for word in words
        if len(word) >= MIN_LETTERS and word not in named and owners[word] == {entry.id}
    }
    return sorted(found)


def asked(bot: GlossaryBot) -> dict[str, dict[str, int]]:
    """Per frame, the counts of the module's docstring, parts and names in rows of their own."""
    counts: dict[str, dict[str, int]] = {}
    for word in parts(bot.glossary.entries):
        for frame in FRAMES:
            found = bot.retrieve(frame.format(word))
            row = counts.setdefault(f"part: {frame}", dict.fromkeys(("asked", "no_entry", "answered"), 0))
            row["asked"] += 1
            row["no_entry"] += found.no_entry
            row["answered"] += not found.abstained
    for entry in bot.glossary.entries:
        for name in names(entry):
            for frame in (*FRAMES[1:], *QUALIFIED):
                _tally(
                    counts.setdefault(f"name: {frame}", {}), "answered_right", bot, frame.format(name), entry
                )
    return counts


def other_field(bot: GlossaryBot, elsewhere: Glossary) -> dict[str, dict[str, int]]:
    """The other field's names this glossary has none of, per frame of ``OTHER_FIELD``, in a row for
    names of each length up to ``LONGEST_COUNTED`` content words (longer ones in the last): asked,
    declined as no entry, and answered."""
    named = _own_names(bot)
    counts = {
        (length, frame): dict.fromkeys(("asked", "no_entry", "answered"), 0)
        for length in range(1, LONGEST_COUNTED + 1)
        for frame in OTHER_FIELD
    }
    for name in sorted({n for e in elsewhere.entries for n in names(e)} - named, key=str.casefold):
        length = min(len(content_tokens(name)), LONGEST_COUNTED)
        if not length:  # a name of no content words ("IT"): no term to count
            continue
        for frame in OTHER_FIELD:
            found = bot.retrieve(frame.format(name))
            row = counts[(length, frame)]
            row["asked"] += 1
            row["no_entry"] += found.no_entry
            row["answered"] += not found.abstained
    return {_other_row(length, frame): row for (length, frame), row in counts.items()}


def other_side(bot: GlossaryBot, elsewhere: Glossary) -> dict[str, dict[str, int]]:
    """``PAIRS`` random own entries each compared with a random name of the other field that this
    glossary has none of, per frame of ``OTHER_SIDE``."""
    named = _own_names(bot)
    lacked = [
        n for n in sorted({core_name(e.term) for e in comparable(elsewhere)}) if n.casefold() not in named
    ]
    own = comparable(bot.glossary)
    rng = random.Random(PAIRS)
    pairs = [(rng.choice(own), rng.choice(lacked)) for _ in range(PAIRS)]
    counts: dict[str, dict[str, int]] = {}
    for frame in OTHER_SIDE:
        row = dict.fromkeys(("asked", "alone", "beside_another"), 0)
        counts[f"own entry against the other field's name: {frame.format(a='X', b='Y')}"] = row
        for entry, name in pairs:
            reply = bot.answer(frame.format(a=core_name(entry.term), b=name))
            compared = reply.kind == "comparison"
            row["asked"] += 1
            row["alone"] += compared and reply.entry_ids == [entry.id] and reply.unnamed == [name]
            row["beside_another"] += compared and len(reply.entry_ids) > 1
    return counts


def prefixed(bot: GlossaryBot) -> dict[str, dict[str, int]]:
    """Each entry's English and Hindi name with a prefix of ``PREFIXES`` hyphened to it, drawn per
    entry and script, asked in ``PREFIXED``; a name the glossary has ("self-supervised learning") is
    left out."""
    own = {squashed(n) for n in _own_names(bot)}
    rng = random.Random(PAIRS)
    counts: dict[str, dict[str, int]] = {}
    for entry in comparable(bot.glossary):
        for name in sorted({core_name(n) for n in (entry.term_en, entry.term_hi) if n}):
            script = script_of(name)
            if {script_of(w) for w in name.split()} != {script}:
                continue
            term = f"{rng.choice(PREFIXES[script])}-{name}"
            if squashed(term.casefold()) in own:
                continue
            row = counts.setdefault(f"{PREFIXED_ROW}{PREFIXED[script].format('prefix-X')}", {})
            _tally(row, "as_the_name", bot, PREFIXED[script].format(term), entry)
    return counts


def _tally(row: dict[str, int], answered: str, bot: GlossaryBot, question: str, entry: GlossaryEntry) -> None:
    """Count ``question`` in ``row``: asked, ``answered`` with ``entry`` first, said to have no entry."""
    found = bot.retrieve(question)
    for key in ("asked", answered, "no_entry"):
        row.setdefault(key, 0)
    row["asked"] += 1
    row[answered] += not found.abstained and found.hits[0].entry.id == entry.id
    row["no_entry"] += found.no_entry


def prefixed_table(pooled: dict[str, dict[str, int]]) -> str:
    """The prefixed names' pooled rows as the README shows them (a test keeps the two equal)."""
    lines = ["| asked | names | answered with that name's card | no entry |", "|---|---|---|---|"]
    lines += [
        f"| `{row.removeprefix(PREFIXED_ROW)}` | {n['asked']} | {n['as_the_name']} | {n['no_entry']} |"
        for row, n in pooled.items()
        if row.startswith(PREFIXED_ROW)
    ]
    return "\n".join(lines)


def _own_names(bot: GlossaryBot) -> set[str]:
    """Every name of the glossary's entries, case folded: the other field's names it has are left out."""
    return {n.casefold() for e in bot.glossary.entries for n in names(e)}


def _other_row(length: int, frame: str) -> str:
    words = f"{length}+ words" if length == LONGEST_COUNTED else f"{length} word{'s' * (length > 1)}"
    return f"other field's name of {words}: {frame}"


def main() -> None:
    args = arguments(__doc__ or "")
    runs = {
        name: asked(bot := GlossaryBot.load(view[0], sentences=False))
        | other_field(bot, other := source("bundled" if field(name) == "cncf" else "cncf"))
        | other_side(bot, other)
        | prefixed(bot)
        for name, view in views(args.views).items()
    }
    total = pooled(runs)
    for row, count in total.items():
        print(f"{row:42} " + "  ".join(f"{key} {n}" for key, n in count.items()))
    if args.out is not None:
        record(args.out, "benchmarks.name_parts", runs=runs, pooled=total)


if __name__ == "__main__":
    main()
