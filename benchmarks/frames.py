"""``python -m benchmarks.frames [--views DIR] [--out benchmarks/FRAMES.json]``: each dev glossary's
names asked in the frames people wrap a name in, against the bare "what is X".

A support desk's askers ask for a name's meaning in many frames ("what is meant by X", "X ke baare
mein batao", "X का पूरा नाम क्या है") and for an abbreviation's letters ("what does X stand for").
No glossary changes a frame, so the bot should answer each as it answers "what is X": the same
entry, first, not declined, and never "the glossary has no entry for" a name it has. Every name of
every entry of each dev view (``benchmarks.dev_views.views``), each part around brackets and each name
without its bracketed part, is asked in each frame in ``NAME_FRAMES``; names that are abbreviations
(``ABBREVIATION``) are asked in ``ABBREVIATION_FRAMES`` instead. Nothing here is written for a
glossary: the questions are its own names in fixed frames.

Per frame, pooled over the views: ``asked``, ``answered_right`` (not declined and the name's entry
first) and ``no_entry`` (declined as a term the glossary has no entry for).
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import regex

from benchmarks.dev_views import arguments, record, views
from bot.core import GlossaryBot
from bot.search.pseudo import core_name
from glossary import GlossaryEntry

#: Frames for any name, in English, Hinglish and Hindi; the first is the bare question the others
#: are compared with.
NAME_FRAMES = (
    "what is {}",
    "what is meant by {}",
    "what do you mean by {}",
    "tell me about {}",
    "pls explain {}",
    "{} meaning",
    "{} kya hai",
    "{} kya hota h",
    "{} ka matlab kya hai",
    "{} ke baare mein batao",
    "{} ke bare me jaankari do",
    "{} kya hai? example ke saath",
    "{} क्या है",
    "{} का मतलब क्या है",
    "{} का अर्थ क्या है",
    "{} की परिभाषा",
    "{} के बारे में बताओ",
    "{} क्या होता है? उदाहरण सहित",
    "{} in Hindi",
    "{} english me samjhao",
    "{} अंग्रेज़ी में समझाइए",
)
#: Frames that ask what an abbreviation's letters stand for.
ABBREVIATION_FRAMES = (
    "what does {} stand for",
    "what is the full form of {}",
    "full form of {}",
    "{} ka full form kya hai",
    "{} का फुल फॉर्म क्या है",
    "{} का पूरा नाम क्या है",
)
#: An abbreviation: two to six Latin letters or digits, two of them capitals ("VRAM", "MoE").
ABBREVIATION = regex.compile(r"^(?=(?:.*\p{Lu}){2})[\p{Latin}\d]{2,6}$")


def names(entry: GlossaryEntry) -> list[str]:
    """Each name an asker may type: every name, each part of it around brackets, and each name
    without its bracketed part ("Video memory (VRAM)" gives it whole, "Video memory" and "VRAM")."""
    parts = {p.strip() for n in entry.names for p in regex.split(r"[()]", n)}
    return sorted((parts | {core_name(n) for n in entry.names}) - {""})


def asked(bot: GlossaryBot) -> dict[str, dict[str, int]]:
    """Per frame: questions asked, answered with the name's entry first, declined as no entry."""
    counts: dict[str, dict[str, int]] = {}
    for entry in bot.glossary.entries:
        for name in names(entry):
            for frame in ABBREVIATION_FRAMES if ABBREVIATION.match(name) else NAME_FRAMES:
                found = bot.retrieve(frame.format(name), 1)
                right = bool(found.hits) and found.hits[0].entry.id == entry.id and not found.abstained
                count = counts.setdefault(frame, {"asked": 0, "answered_right": 0, "no_entry": 0})
                count["asked"] += 1
                count["answered_right"] += right
                count["no_entry"] += found.no_entry
    return counts


def pooled(runs: dict[str, dict[str, dict[str, int]]]) -> dict[str, dict[str, int]]:
    total: dict[str, dict[str, int]] = {}
    for counts in runs.values():
        for frame, count in counts.items():
            into = total.setdefault(frame, dict.fromkeys(count, 0))
            for key, n in count.items():
                into[key] += n
    return total


def table(total: dict[str, dict[str, int]]) -> str:
    lines = ["| frame | asked | answered right | no entry |", "|---|---|---|---|"]
    for frame in (*NAME_FRAMES, *ABBREVIATION_FRAMES):
        c = total[frame]
        shown = frame.format("X")
        lines.append(
            f"| {shown} | {c['asked']} | {c['answered_right'] / c['asked']:.3f} | "
            f"{c['no_entry'] / c['asked']:.3f} |"
        )
    return "\n".join(lines)


def main() -> None:
    args = arguments(__doc__ or "")
    runs = {
        name: asked(GlossaryBot.load(settings, sentences=False))
        for name, (settings, _, _) in views(args.views).items()
    }
    total = pooled(runs)
    print(table(total))
    if args.out is not None:
        record(args.out, "benchmarks.frames", runs=runs, pooled=total)


if __name__ == "__main__":
    main()
