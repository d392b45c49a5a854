"""The consonant skeleton of a name, to match a Devanagari spelling of an English name with that
name when their letters differ too much for a typo.

Hindi spells an English word by its sound and writes the vowels as heard: "रिफंड" romanizes to
"rifand" (not "refund"), "वेट डिके" to "vet dike" (not "weight decay"), "पासवर्ड" to "paswerd", and a
ratio of letters calls them different words (67, 40, 80 of 100). Their consonants agree once a few
English spellings are read as sounds (silent "gh", "ph" = f, "ck" / hard "c" / "q" = k, soft "c" =
s, "w" = v), vowels and doubled letters dropped: "rfnd", "vtdk", "psvrd" on both sides. A skeleton
says little about a word of the asker's own script, where letters are compared directly; it is read
only across scripts (``bot.search.names.sounded_entry``).
"""

from __future__ import annotations

from functools import lru_cache

import regex

#: Ordered rewrites from English spelling to sound, then the vowels, "h" and doubled letters dropped.
_RULES: tuple[tuple[regex.Pattern[str], str], ...] = tuple(
    (regex.compile(pattern), replacement)
    for pattern, replacement in (
        (r"gh", ""),
        (r"ph", "f"),
        (r"ck", "k"),
        (r"ch", "C"),
        (r"sh", "S"),
        (r"c(?=[eiy])", "s"),
        (r"[cq]", "k"),
        (r"x", "ks"),
        (r"w", "v"),
        (r"[aeiouyæh\s\-]", ""),
        (r"(.)\1+", r"\1"),
    )
)
#: Fewest consonants a skeleton must have to say two names sound alike: "mdl" is "model", "modal"
#: and "middle"; "rfnd" is one word.
MIN_SKELETON = 4
#: Skeletons kept between questions (names of the ranking's first entries, asked topics).
SKELETON_MEMORY = 8192


@lru_cache(maxsize=SKELETON_MEMORY)
def skeleton(latin: str) -> str:
    """The consonants of a Latin spelling, as sounded (``latin`` lower case, e.g. a romanized name)."""
    text = latin.casefold()
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text
