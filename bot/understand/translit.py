"""Devanagari -> Latin romaniser for English technical words written in Devanagari.

Hindi speakers spell English terms by sound ("ओवरफिटिंग", "ऑप्टिमाइज़र"). A scholarly
transliteration such as ITRANS ("ovaraphiTiMga") keeps every inherent vowel and Hindi-only
distinctions, so it is far from the English spelling and fuzzy matching fails. Here the
schwas Hindi does not pronounce are deleted first, ITRANS gives the base spelling, and a short
list of rewrites turns sounds into their usual English spellings ("overfiting", "optimizer"),
close enough for ``rapidfuzz`` to find the English name.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import regex

_VIRAMA = "\u094d"
#: ऑ/ॉ are the English "o" of "loss"; ै/ऐ/ॅ are almost always the English short "a" of "batch",
#: so they become a private marker (ITRANS would give "ai") that later rules treat as a short vowel.
_AE = "æ"
_PREMAP = str.maketrans({"ऑ": "ओ", "ॉ": "ो", "ऍ": "ऐ", "ॅ": "ै", "\u200c": None, "\u200d": None})
_UNIT = regex.compile(
    r"(?P<cons>[\u0915-\u0939\u0958-\u095f\u0978-\u097f]\u093c?)"
    r"(?P<sign>[\u093a\u093b\u093e-\u094f\u0955-\u0957\u0962\u0963]?)(?P<mod>[\u0900-\u0903]*)"
    r"|(?P<vowel>[\u0904-\u0914\u0960\u0961\u0972-\u0977])[\u0900-\u0903]*"
    r"|.",
    regex.S,
)
#: A Devanagari word (letters, signs, digits; not the danda) with the joiners used inside conjuncts.
_WORD = regex.compile(r"[\u0900-\u0963\u0966-\u097f\u200c\u200d]+")

_V = "aeiouæAIUE"  # vowels while the long ones are still upper case (E: the "ai" of "size")
_C = f"[^{_V}]"
_SHORT = "aeiouæ"
#: Ordered rewrites of the ITRANS spelling; each line is one sound-to-spelling habit of English.
_RULES: list[tuple[str, str]] = [
    (r"j~n", "gy"),  # ज्ञ
    (r"[~.]N|~n", "n"),  # chandrabindu, ङ, ञ
    (r"\.Dh?", "r"),  # ड़ ढ़
    (r"RRi", "ri"),
    (r"H|\.c", ""),  # visarga, stray candra sign
    (r"M(?=[pbm])", "m"),  # anusvara is m before labials ...
    (r"Ms$", "nce"),  # ... and "-ंस" ends "inference", "variance", "distance"
    (r"M", "n"),
    (r"Th|T", "t"),  # retroflex and dental stops collapse
    (r"Dh|D", "d"),
    (r"N", "n"),
    (r"Sh", "sh"),
    (r"Ch", "ch"),
    (r"K", "kh"),
    (r"G", "g"),
    (r"Y", "y"),
    (r"L", "l"),
    (r"R", "r"),
    (r"([kgjdb])h", r"\1"),  # aspiration is not written in English
    (r"ph", "f"),
    (r"ai", _AE),
    (r"A[iI]|Ay(?![AIUeiouæ])", "E"),  # "size", "pipeline", "bias"
    (r"Au", "ou"),  # "dropout", "count"
    (rf"(?:(?<={_C})|^)y[uU]", "u"),  # "compute", "distributed", "unit"
    (rf"[iI]y(?=[{_V}])", "i"),  # "linear"
    (rf"(?<![{_V}])a(?=r(?:{_C}|$))", "e"),  # schwa + r is "er": "overfitting", "transformer"
    (r"eshan$", "Ation"),
    (r"shan$", "tion"),
    (rf"(?<=[{_V}])[zj]an$", "sion"),  # "vision", "diffusion"
    (r"cher$", "ture"),  # "feature", "architecture"
    (r"j$", "ge"),  # "image", "language"
    (rf"(?<=[{_V}].*{_C})[iI]$", "y"),  # "accuracy", "entropy"; not "tree"
    (r"([b-df-hj-np-tv-zæ])\1+", r"\1"),  # Hindi conjuncts do not double English letters
    (r"ks(?!h)", "x"),  # "matrix", "softmax"
    (r"(?<![æaeou])kv", "qu"),  # "quantization", "sequence"; not "backward"
    (r"([st])v", r"\1w"),  # "switch", "network"
    (rf"^ka([mn])(?={_C})", r"co\1"),  # "computer", "convolution"
    (r"k(?=[Aæoulrt])", "c"),  # "calibration", "encoder", "vector"
    (rf"(?<=[{_V}]{_C}+)ik$", "ic"),  # "metric", "stochastic"
    (rf"(?<=[{_SHORT}])k(?=$|[^{_V}ylnr])", "ck"),  # "checkpoint", "back"; not "tokenization"
    (rf"(?<=[{_SHORT}])ch$", "tch"),  # "batch", "switch"
    (r"A", "a"),
    (r"I", "ee"),  # long vowels: "deep", "feature", "parameter" ...
    (r"U$", "u"),  # ... "true" ...
    (r"U", "oo"),  # ... "pooling", "loop"
    (r"E", "i"),
    (_AE, "a"),
]
_COMPILED = [(regex.compile(pattern), repl) for pattern, repl in _RULES]


@dataclass
class _Unit:
    text: str
    kind: str  # "C" consonant, "V" independent vowel, "X" anything else
    sign: str = ""  # vowel sign or virama after a consonant; "" means the inherent schwa
    nasal: str = ""  # anusvara/candrabindu/visarga after a consonant
    dropped: bool = False  # inherent schwa deleted (written as a virama)

    @property
    def voiced(self) -> bool:
        """Carries a vowel of its own (independent vowels always do)."""
        return self.kind == "V" or (self.kind == "C" and self.sign != _VIRAMA and not self.dropped)

    def __str__(self) -> str:
        return self.text + (_VIRAMA if self.dropped else self.sign) + self.nasal


def _units(word: str) -> list[_Unit]:
    out = []
    for m in _UNIT.finditer(word):
        if m["cons"]:
            out.append(_Unit(m["cons"], "C", m["sign"], m["mod"]))
        else:
            out.append(_Unit(m[0], "V" if m["vowel"] else "X"))
    return out


def _delete_schwas(word: str) -> str:
    """Write a virama where Hindi drops the inherent vowel: word-finally and in VC_CV, right to left.

    "ओवरफिटिंग" is said "ovar-phiṭiṅg", not "o-va-ra-phi-ṭi-ṅa". Scanning right to left with
    the left context still intact is the standard rule (Narasimhan et al. 2004); clusters on the
    right are allowed because English loans write "बैकप्रोपेगेशन" without a virama after क, and so
    is an independent vowel ("ड्रॉपआउट" is "drop-out").
    """
    units = _units(word)
    for i in reversed(range(len(units))):
        unit = units[i]
        if unit.kind != "C" or unit.sign or unit.nasal:
            continue
        if i + 1 == len(units) or units[i + 1].kind == "X":
            unit.dropped = any(u.voiced for u in units[:i])
            continue
        j = i + 1  # the next syllable's vowel carrier, past any written conjunct
        while j < len(units) - 1 and units[j].kind == "C" and units[j].sign == _VIRAMA:
            j += 1
        unit.dropped = i > 0 and units[i - 1].voiced and units[j].kind != "X" and units[j].voiced
    return "".join(map(str, units))


def romanise(word: str) -> str:
    """Lower-case ASCII spelling of one Devanagari word, as an English writer would spell the sound."""
    # Imported here: its scheme tables take ~0.15 s, paid by the first Devanagari word that needs
    # sounding out rather than by every start (most questions never reach this).
    from indic_transliteration import sanscript

    word = unicodedata.normalize("NFC", word).translate(_PREMAP)
    out = sanscript.transliterate(_delete_schwas(word), sanscript.DEVANAGARI, sanscript.ITRANS)
    for pattern, repl in _COMPILED:
        out = pattern.sub(repl, out)
    return out.lower()


def romanise_text(text: str) -> str:
    """Romanise every Devanagari word; Latin words, digits and punctuation pass through unchanged."""
    return _WORD.sub(lambda m: romanise(m[0]), text)
