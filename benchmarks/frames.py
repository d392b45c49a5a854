"""``python -m benchmarks.frames [--views DIR] [--out benchmarks/FRAMES.json]``: each dev glossary's
names asked in the frames people wrap a name in, against the bare "what is X".

A support desk's askers ask for a name's meaning in many frames ("what is meant by X", "X ke baare
mein batao", "X का पूरा नाम क्या है", "hi, what is X", "do you know what X is", "X kya hai sir") and for
an abbreviation's letters ("what does X stand for"). No glossary changes a frame, so the bot should
answer each as it answers "what is X": the same entry, first, not declined, labelled an exact match,
and never "the glossary has no entry for" a name it has. Every name of every entry of each dev view
(``benchmarks.dev_views.views``), each part around brackets and each name without its bracketed part,
is asked in each frame in ``NAME_FRAMES``; names that are abbreviations (``ABBREVIATION``) are asked
in ``ABBREVIATION_FRAMES`` instead. Nothing here is written for a glossary: the questions are its
own names in fixed frames.

Per frame, pooled over the views, of the answers ``bot.answer`` gives (what an asker is shown):
``asked``, ``answered_right`` (not declined and the name's entry first), ``no_entry`` (declined as a
term the glossary has no entry for) and ``exact`` (labelled an exact match).

Then each name in Latin letters (``MIN_TYPO_LETTERS`` or more) is asked "what is X" with a typo of
each kind in ``TYPOS``, made at random positions seeded by the name: besides the same figures, how
often the label says "did you mean" (it should) and "exact match" (it never should). Each English
name whose plural adds an "s" (``PLURALIZABLE``) is asked "what are Xs", which should be an exact match.

Last, ``PAIRS`` random pairs of each view's entries are asked together in each of ``PAIR_FRAMES``
("what are X and Y", "X ya Y kya better hai", "X vs Y", "how is X different from Y", and
conversations: "what is X" then "how is it different from Y"): ``side_by_side`` counts the answers
(to a conversation's last message) that set exactly those two entries side by side and say no
side is missing. A one-language view is also asked the pairs in ``ACROSS_FRAMES`` with both names
in the language it lacks, as the bilingual glossary it was made from writes them.
"""

from __future__ import annotations

import os
import random

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import regex

from benchmarks.dev_views import arguments, field, pooled, record, source, views
from bot.core import GlossaryBot
from bot.reply.answer import Answer
from bot.search.lexical import entry_text
from bot.search.pseudo import core_name
from bot.understand.dialogue import CITED_KEY
from bot.understand.text import STOP_WORDS, tokens
from glossary import Glossary, GlossaryEntry
from glossary.schema import languages_of

#: Frames for any name, in English, Hinglish and Hindi; the first is the bare question the others
#: are compared with.
NAME_FRAMES = (
    "what is {}",
    "wat is {}",
    "what is meant by {}",
    "what do you mean by {}",
    "tell me about {}",
    "pls explain {}",
    "{} meaning",
    "{} kya hai",
    "{} kya hota h",
    "{} ka matlab kya hai",
    "{} ka mtlb",
    "{} ke baare mein batao",
    "{} ke bare me jaankari do",
    "{} kya hai? example ke saath",
    "{} क्या है",
    "{} का मतलब क्या है",
    "{} का अर्थ क्या है",
    "{} की परिभाषा",
    "{} के बारे में बताओ",
    "{} क्या होता है? उदाहरण सहित",
    "what is {}?? urgent",
    "{} kya hai jaldi batao",
    "{} क्या है? जल्दी बताओ",
    "{} in Hindi",
    "{} english me samjhao",
    "{} अंग्रेज़ी में समझाइए",
    "hi, what is {}",
    "{} kya hai sir",
    "namaste, {} kya hai",
    "{} क्या है जी",
    "can you explain {} to me",
    "do you know what {} is",
    "I want to know about {}",
    "explain {} in simple words",
    "mujhe {} samajh nahi aaya",
    "मुझे {} के बारे में जानना है",
)
#: Frames that ask what an abbreviation's letters stand for.
ABBREVIATION_FRAMES = (
    "what does {} stand for",
    "what is the full form of {}",
    "full form of {}",
    "{} full form",
    "{} ka full form kya hai",
    "{} का फुल फॉर्म क्या है",
    "{} का पूरा नाम क्या है",
)
#: An abbreviation: two to six Latin letters or digits, two of them capitals ("VRAM", "MoE").
ABBREVIATION = regex.compile(r"^(?=(?:.*\p{Lu}){2})[\p{Latin}\d]{2,6}$")


def names(entry: GlossaryEntry) -> list[str]:
    """Each name an asker may type: each part of a name around brackets or semicolons, and each name
    without its bracketed part. A name without brackets is asked as it is; one with them only in its
    parts, since no asker types the brackets ("Video memory (VRAM)" gives "Video memory" and "VRAM";
    "निरंतर डिलीवरी (Continuous Delivery; CD)" gives "निरंतर डिलीवरी", "Continuous Delivery" and "CD")."""
    parts = {p.strip() for n in entry.names for p in regex.split(r"[();]", n)}
    return sorted((parts | {core_name(n) for n in entry.names}) - {""})


#: The typos made in a name: one letter left out, two neighbours swapped, one letter typed twice.
TYPOS = ("a letter dropped", "two letters swapped", "a letter doubled")
#: Shorter names are not typed with a typo here: a typo in a short name is often another word.
MIN_TYPO_LETTERS = 6


#: What is counted of a name asked in a frame, and of a typo or a plural the same and "did you mean".
FIGURES = ("asked", "answered_right", "no_entry", "exact")
TYPO_FIGURES = ("asked", "answered_right", "no_entry", "did_you_mean", "exact")


def misspelt(name: str) -> dict[str, str]:
    """``name`` with a typo of each kind at a position inside it (not its first or last letter)
    chosen at random, seeded by the name; a kind whose typo leaves the name as it was is skipped. The
    letters compared for an exact match are the name's without spaces ("flash attention" is
    FlashAttention), so swapping a letter with a space would leave it exact."""
    rng = random.Random(name)
    inner = [i for i, c in enumerate(name) if c.isalpha()][1:-1]
    pairs = [i for i in inner if name[i + 1].isalpha()]  # two letters: a moved space is no typo
    drop, swap, double = rng.choice(inner), rng.choice(pairs or inner), rng.choice(inner)
    swapped = name[:swap] + name[swap + 1 : swap + 2] + name[swap] + name[swap + 2 :]
    made = (name[:drop] + name[drop + 1 :], swapped, name[:double] + name[double] + name[double:])
    return {kind: text for kind, text in zip(TYPOS, made, strict=True) if text.casefold() != name.casefold()}


def typed(bot: GlossaryBot) -> dict[str, dict[str, int]]:
    """Per kind of typo: names asked with it, answered right, declined as no entry, and labelled "did
    you mean" or "exact match"."""
    counts: dict[str, dict[str, int]] = {}
    for entry in bot.glossary.entries:
        for name in names(entry):
            if not name.isascii() or sum(c.isalpha() for c in name) < MIN_TYPO_LETTERS:
                continue
            for kind, text in misspelt(name).items():
                _count(
                    counts.setdefault(kind, dict.fromkeys(TYPO_FIGURES, 0)),
                    bot.answer(f"what is {text}"),
                    entry,
                )
    return counts


def asked(bot: GlossaryBot) -> dict[str, dict[str, int]]:
    """Per frame: questions asked, answered with the name's entry first, declined as no entry, and
    labelled "exact match"."""
    counts: dict[str, dict[str, int]] = {}
    for entry in bot.glossary.entries:
        for name in names(entry):
            for frame in ABBREVIATION_FRAMES if ABBREVIATION.match(name) else NAME_FRAMES:
                _count(
                    counts.setdefault(frame, dict.fromkeys(FIGURES, 0)), bot.answer(frame.format(name)), entry
                )
    return counts


#: An English name whose plural is its last word with an "s" added ("loss function" -> "loss
#: functions", "GPU" -> "GPUs"); names ending in s, x, z, y, ch or sh form it otherwise.
PLURALIZABLE = regex.compile(r"^[\p{Latin}\d][\p{Latin}\d\s-]*(?<![sxzySXZY]|[cCsS][hH])$")


#: The row of the plurals in the typos' table.
PLURAL = 'the plural ("what are Xs")'


def pluralized(bot: GlossaryBot) -> dict[str, dict[str, int]]:
    """Each English name of ``PLURALIZABLE`` form asked in the plural ("what are loss functions"):
    the same figures as a typo's, in one row (``PLURAL``)."""
    count = dict.fromkeys(TYPO_FIGURES, 0)
    for entry in bot.glossary.entries:
        for name in filter(PLURALIZABLE.match, names(entry)):
            _count(count, bot.answer(f"what are {name}s"), entry)
    return {PLURAL: count}


#: The row of names with a word typed as two ("over fitting").
SPACED = 'a word typed as two ("over fitting")'
#: The shortest half of a word typed as two ("warm up").
MIN_HALF = 2


def spaced(name: str, vocabulary: frozenset[str]) -> str | None:
    """``name`` with its first word that splits into two words of ``vocabulary`` typed as those two,
    split where the halves are most even ("overfitting" -> "over fitting", "checkpoint" -> "check
    point"), or None when no word of it splits so."""
    words = name.split(" ")
    for i, word in enumerate(words):
        if not word[1:].islower():  # an abbreviation ("DBaaS") is not typed apart
            continue
        cuts = [
            c
            for c in range(MIN_HALF, len(word) - MIN_HALF + 1)
            if word[:c].casefold() in vocabulary and word[c:].casefold() in vocabulary
        ]
        if cuts:
            cut = max(cuts, key=lambda c: min(c, len(word) - c))
            return " ".join([*words[:i], word[:cut], word[cut:], *words[i + 1 :]])
    return None


def split(bot: GlossaryBot) -> dict[str, dict[str, int]]:
    """Each name in Latin letters with a word typed as two words of the glossary's own text or stop
    words ("what is over fitting"): the same figures as a typo's, in one row (``SPACED``); it should
    be an exact match."""
    vocabulary = frozenset(t for e in bot.glossary.entries for t in tokens(entry_text(e))) | STOP_WORDS
    count = dict.fromkeys(TYPO_FIGURES, 0)
    for entry in bot.glossary.entries:
        for name in names(entry):
            if name.isascii() and (text := spaced(name, vocabulary)) is not None:
                _count(count, bot.answer(f"what is {text}"), entry)
    return {SPACED: count}


#: Frames that ask for two names at once (a list, a choice, one set against another), and
#: conversations whose last message compares what the earlier ones asked ("how is it different from
#: Y" after "what is X"; "difference?" after X and Y); each should end with both side by side.
PAIR_FRAMES: tuple[tuple[str, ...], ...] = (
    ("what are {a} and {b}",),
    ("{a} aur {b} kya hai",),
    ("{a} और {b} क्या हैं",),
    ("{a}, {b}",),
    ("{a} or {b}, which one is better?",),
    ("{a} ya {b} kya better hai",),
    ("{a} vs {b}",),
    ("{a} vs {b}, what's the difference?",),
    ("{a} aur {b}, kya fark hai?",),
    ("what is the relationship between {a} and {b}",),
    ("{a} और {b} में क्या संबंध है",),
    ("how is {a} different from {b}",),
    ("how does {a} differ from {b}",),
    ("is {a} the same as {b}",),
    ("{a} ka {b} se kya fark hai",),
    ("{a} का {b} से क्या अंतर है",),
    ("what is {a}", "how is it different from {b}"),
    ("{a} kya hai", "iska {b} se kya fark hai"),
    ("what is {a}", "compare with {b}"),
    ("{a} kya hai", "{b} se kaise alag hai"),
    ("what is {a}", "what is {b}", "difference?"),
    ("{a} क्या है", "{b} क्या है", "दोनों में क्या अंतर है"),
)
#: What is counted of a pair frame: ``said_missing`` counts replies that say the glossary has no
#: entry for a side, each of which is wrong, since both are its entries.
PAIR_FIGURES = ("asked", "side_by_side", "said_missing")
#: Random pairs of entries asked per view, seeded; a name that lists things itself ("FP16 और BF16",
#: "Training sample or example") is left out, since its words split it.
PAIRS = 40
_LISTING = regex.compile(r"(?i)\b(?:and|aur|or|ya|vs)\b|\bऔर\b|\bया\b|[,/&]")


def frame_name(frame: tuple[str, ...]) -> str:
    """A pair frame as the README shows it: its messages in turn, the names as X and Y."""
    return " → ".join(message.format(a="X", b="Y") for message in frame)


def converse(bot: GlossaryBot, messages: list[str]) -> Answer:
    """The answer to the last message, each earlier one asked and answered before it, its answer
    kept in the history with the entries it cited, as the app keeps them."""
    history: list[dict[str, object]] = []
    for message in messages[:-1]:
        reply = bot.answer(message, history)
        history += [
            {"role": "user", "content": message},
            {"role": "assistant", "content": reply.text, "metadata": {CITED_KEY: reply.entry_ids}},
        ]
    return bot.answer(messages[-1], history)


#: Pair frames asked of a one-language view with both names in the language it lacks, as the
#: bilingual glossary it was made from writes them ("dropout vs weight decay" of the Hindi-only file,
#: whose names are ड्रॉपआउट and वेट डिके): its sides are found by their sound or not at all.
ACROSS_FRAMES = ("{a} vs {b}", "{a} ka {b} se kya fark hai")


def across_name(frame: str) -> str:
    """An across frame as the README shows it."""
    return f"{frame.format(a='X', b='Y')}, both names in the file's other language"


def comparable(glossary: Glossary) -> list[GlossaryEntry]:
    """The entries whose heading lists no things of its own ("FP16 और BF16"), which its words split."""
    return [e for e in glossary.entries if not _LISTING.search(e.term)]


def _pairs(bot: GlossaryBot) -> list[list[GlossaryEntry]]:
    """``PAIRS`` random pairs of the glossary's entries, seeded."""
    rng = random.Random(PAIRS)
    entries = comparable(bot.glossary)
    return [rng.sample(entries, 2) for _ in range(PAIRS)]


def paired_across(bot: GlossaryBot, source: Glossary) -> dict[str, dict[str, int]]:
    """For a one-language view, per frame of ``ACROSS_FRAMES``: the pairs of :func:`paired` asked
    with the names ``source`` (the bilingual glossary the view was made from) gives them in the
    other language, and how many were set side by side; a pair either of which has no such name is
    left out. Nothing for a bilingual glossary."""
    languages = languages_of(bot.glossary.entries)
    if len(languages) != 1:
        return {}
    other = {"en": "term_hi", "hi": "term_en"}[languages[0]]
    names = {e.id: core_name(n) for e in source.entries if (n := getattr(e, other))}
    pairs = [(a, b) for a, b in _pairs(bot) if a.id in names and b.id in names]
    counts: dict[str, dict[str, int]] = {}
    for frame in ACROSS_FRAMES:
        count = counts.setdefault(across_name(frame), dict.fromkeys(PAIR_FIGURES, 0))
        for first, second in pairs:
            reply = bot.answer(frame.format(a=names[first.id], b=names[second.id]))
            _count_pair(count, reply, first, second)
    return counts


def paired(bot: GlossaryBot) -> dict[str, dict[str, int]]:
    """Per pair frame: pairs asked, and answered side by side with exactly the two entries first."""
    pairs = _pairs(bot)
    counts: dict[str, dict[str, int]] = {}
    for frame in PAIR_FRAMES:
        count = counts.setdefault(frame_name(frame), dict.fromkeys(PAIR_FIGURES, 0))
        for first, second in pairs:
            names = {"a": core_name(first.term), "b": core_name(second.term)}
            reply = converse(bot, [message.format(**names) for message in frame])
            _count_pair(count, reply, first, second)
    return counts


def _count_pair(count: dict[str, int], reply: Answer, first: GlossaryEntry, second: GlossaryEntry) -> None:
    count["asked"] += 1
    count["side_by_side"] += side_by_side(reply, first, second)
    count["said_missing"] += bool(reply.unnamed)


def side_by_side(reply: Answer, *entries: GlossaryEntry) -> bool:
    """``entries``, and nothing else, set side by side: no other entry in the table, no side said to
    be missing (a frame's words read as a side once were: "no entry for *the*")."""
    shown = reply.entry_ids[: len(entries)]
    return reply.kind == "comparison" and set(shown) == {e.id for e in entries} and not reply.unnamed


def _count(into: dict[str, int], reply: Answer, entry: GlossaryEntry) -> None:
    into["asked"] += 1
    into["answered_right"] += _answered_right(reply, entry)
    into["no_entry"] += reply.kind == "near miss"
    into["exact"] += reply.label == "exact"
    if "did_you_mean" in into:
        into["did_you_mean"] += reply.label == "did_you_mean"


def _answered_right(reply: Answer, entry: GlossaryEntry) -> bool:
    """Not declined, and the name's entry first: what the asker is shown, not only the ranking (the
    FAQ answer a question was wrongly sent to is no answer of its entry)."""
    return not reply.abstained and bool(reply.hits) and reply.hits[0].entry.id == entry.id


def table(total: dict[str, dict[str, int]]) -> str:
    lines = ['| frame | asked | answered right | no entry | "exact match" |', "|---|---|---|---|---|"]
    for frame in (*NAME_FRAMES, *ABBREVIATION_FRAMES):
        c = total[frame]
        shares = [f"{c[k] / c['asked']:.3f}" for k in FIGURES[1:]]
        lines.append(f"| {frame.format('X')} | {c['asked']} | " + " | ".join(shares) + " |")
    return "\n".join(lines)


def typo_table(total: dict[str, dict[str, int]]) -> str:
    lines = [
        '| asked with | asked | answered right | no entry | "did you mean" | "exact match" |',
        "|---|---|---|---|---|---|",
    ]
    for kind in (*TYPOS, PLURAL, SPACED):
        c = total[kind]
        shares = [f"{c[k] / c['asked']:.3f}" for k in TYPO_FIGURES[1:]]
        lines.append(f"| {kind} | {c['asked']} | " + " | ".join(shares) + " |")
    return "\n".join(lines)


def pair_table(total: dict[str, dict[str, int]]) -> str:
    lines = ["| two names asked | asked | side by side | a side said missing |", "|---|---|---|---|"]
    for frame in (*map(frame_name, PAIR_FRAMES), *map(across_name, ACROSS_FRAMES)):
        c = total[frame]
        shares = [f"{c[k] / c['asked']:.3f}" for k in PAIR_FIGURES[1:]]
        lines.append(f"| {frame} | {c['asked']} | " + " | ".join(shares) + " |")
    return "\n".join(lines)


def main() -> None:
    args = arguments(__doc__ or "")
    bots = {name: GlossaryBot.load(view[0], sentences=False) for name, view in views(args.views).items()}
    runs = {name: asked(bot) for name, bot in bots.items()}
    typos = {name: typed(bot) | pluralized(bot) | split(bot) for name, bot in bots.items()}
    pairs = {name: paired(bot) | paired_across(bot, source(field(name))) for name, bot in bots.items()}
    total, typos_total, pairs_total = pooled(runs), pooled(typos), pooled(pairs)
    print(table(total), typo_table(typos_total), pair_table(pairs_total), sep="\n\n")
    if args.out is not None:
        record(
            args.out,
            "benchmarks.frames",
            runs=runs,
            pooled=total,
            typos=typos,
            typos_pooled=typos_total,
            pairs=pairs,
            pairs_pooled=pairs_total,
        )


if __name__ == "__main__":
    main()
