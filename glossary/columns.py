"""Which column holds what, read from its header's meaning rather than its exact name.

A header is matched case-, space- and punctuation-insensitively against synonyms in English and
Hindi ("Term", "word", "शब्द"; "Meaning", "परिभाषा"; ...); a language word in it ("Hindi term",
"definition_en", "हिंदी") says the language of its text. A text column whose header does not say
is read by its content: each cell goes to the language whose script most of its letters are in
(Devanagari: Hindi, else English); a column that names its language comes first.
``overrides`` (``--columns term=Word,definition=Meaning``) take precedence over synonyms.
Columns nothing takes are kept under their own headers (``GlossaryEntry.extra``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import regex

#: Fields a column can fill; text fields have a language, the others do not.
TEXT_FIELDS = ("term", "definition", "usage", "example", "notes", "category")
OTHER_FIELDS = ("aliases", "related", "id", "source", "paraphrases", "source_document", "source_line")
SYNONYMS: dict[str, tuple[str, ...]] = {
    "term": (
        "term",
        "terms",
        "word",
        "name",
        "title",
        "headword",
        "entry",
        "concept",
        "keyword",
        "शब्द",
        "पद",
        "नाम",
        "शीर्षक",
    ),
    "definition": (
        "definition",
        "meaning",
        "description",
        "desc",
        "explanation",
        "body",
        "defn",
        "परिभाषा",
        "अर्थ",
        "विवरण",
        "व्याख्या",
    ),
    "category": (
        "category",
        "categories",
        "topic",
        "tags",
        "tag",
        "group",
        "subject",
        "domain",
        "subjectfield",
        "श्रेणी",
        "विषय",
        "वर्ग",
    ),
    "example": ("example", "examples", "sample", "उदाहरण"),
    "usage": ("usage", "whentouse", "howtouse", "use", "context", "उपयोग", "प्रयोग"),
    "notes": ("notes", "note", "caution", "cautions", "remarks", "टिप्पणी", "सावधानी"),
    "aliases": (
        "synonyms",
        "synonym",
        "aliases",
        "alias",
        "aka",
        "abbreviation",
        "abbreviations",
        "acronym",
        "acronyms",
        "alsoknownas",
        "othernames",
        "variants",
        "पर्याय",
        "पर्यायवाची",
        "समानार्थी",
        "संक्षिप्तनाम",
    ),
    "related": ("related", "seealso", "relatedterms", "see", "संबंधित", "देखें"),
    "id": ("id", "slug", "key", "identifier"),
    "source": ("source", "url", "link", "reference", "references", "fulllink", "website", "स्रोत"),
    "paraphrases": ("paraphrases",),
    "source_document": ("sourcedocument",),
    "source_line": ("sourceline",),
}
LANGUAGE_WORDS = {
    "en": ("en", "eng", "english", "अंग्रेज़ी", "अंग्रेजी", "इंग्लिश"),
    "hi": ("hi", "hin", "hindi", "हिंदी", "हिन्दी"),
}
_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+")
_DEVANAGARI = regex.compile(r"\p{Devanagari}")
_LATIN = regex.compile(r"\p{Latin}")


def _key(text: str) -> str:
    return "".join(_WORD.findall(text.casefold()))


_BY_KEY = {_key(word): name for name, words in SYNONYMS.items() for word in words}
_LANG_BY_KEY = {_key(word): lang for lang, words in LANGUAGE_WORDS.items() for word in words}


@dataclass(frozen=True)
class Column:
    """What one header holds: ``field`` (None: kept as extra) and, for text, ``lang`` ("en", "hi",
    "script": per cell by its script, "heading": the term as written, whatever its language)."""

    header: str
    field: str | None
    lang: str | None = None
    why: str = "synonym"

    def describe(self) -> str:
        if self.field is None:
            return f"'{self.header}' → kept as its own column ({self.why})"
        target = (
            self.field
            if self.lang in (None, "heading")
            else (
                f"{self.field} (language by script)" if self.lang == "script" else f"{self.field}_{self.lang}"
            )
        )
        return f"'{self.header}' → {target}" + (f" ({self.why})" if self.why != "synonym" else "")


class ColumnError(ValueError):
    """An override names a field or header that does not exist."""


def parse_overrides(text: str) -> dict[str, str]:
    """``term=Word,definition=Meaning`` as {field: header}; raises ColumnError on a malformed pair."""
    pairs: dict[str, str] = {}
    for part in (p for p in text.split(",") if p.strip()):
        name, sep, header = part.partition("=")
        if not sep or not name.strip() or not header.strip():
            raise ColumnError(f"'{part.strip()}': write field=Header, e.g. term=Word,definition=Meaning")
        pairs[name.strip()] = header.strip()
    return pairs


def map_columns(
    header: Sequence[str], overrides: Mapping[str, str], known: Mapping[str, str]
) -> list[Column]:
    """One ``Column`` per header, in order. ``known``: headers whose language the format states."""
    by_override = _overrides(header, overrides)
    columns = [by_override.get(h) or _by_synonym(h, known.get(h)) for h in header]
    columns = _settle_languages(columns)
    return _first_wins(columns)


def _overrides(header: Sequence[str], overrides: Mapping[str, str]) -> dict[str, Column]:
    found: dict[str, Column] = {}
    for name, wanted in overrides.items():
        field, _, lang = name.partition("_") if name not in OTHER_FIELDS else (name, "", "")
        if field not in TEXT_FIELDS + OTHER_FIELDS or lang not in ("", "en", "hi"):
            fields = (
                ", ".join(f"{f}, {f}_en, {f}_hi" for f in TEXT_FIELDS) + ", " + ", ".join(OTHER_FIELDS[:5])
            )
            raise ColumnError(f"--columns: unknown field '{name}'; fields: {fields}")
        match = next((h for h in header if h == wanted), None) or next(
            (h for h in header if _key(h) == _key(wanted)), None
        )
        if match is None:
            raise ColumnError(
                f"--columns {name}={wanted}: no such column; the headers are {', '.join(header)}"
            )
        text_lang = (lang or "script") if field in TEXT_FIELDS else None
        found[match] = Column(match, field, text_lang, "--columns")
    return found


def _by_synonym(header: str, stated: str | None) -> Column:
    words = [_key(w) for w in _WORD.findall(header.casefold())]
    whole = _key(header)
    if whole in _BY_KEY and _BY_KEY[whole] not in TEXT_FIELDS:
        return Column(header, _BY_KEY[whole])
    langs = {_LANG_BY_KEY[w] for w in words if w in _LANG_BY_KEY}
    rest = "".join(w for w in words if w not in _LANG_BY_KEY)
    if len(langs) > 1:
        return Column(header, None, why="names two languages")
    lang = stated or (langs.pop() if langs else None)
    field = _BY_KEY.get(rest) or _BY_KEY.get(whole) or ("term" if not rest and lang else None)
    if field is None:
        return Column(header, None, why="no known meaning")
    if field not in TEXT_FIELDS:
        return Column(header, field)
    return Column(header, field, lang or "script")


def _settle_languages(columns: list[Column]) -> list[Column]:
    """A term column whose header names no language, beside term columns that name both, is the
    heading as written (the bundled CSV layout: ``term``, ``term_en``, ``term_hi``)."""
    named = {c.lang for c in columns if c.field == "term" and c.lang in ("en", "hi")}
    return [
        Column(c.header, "term", "heading", "the term as written")
        if c.field == "term" and c.lang == "script" and named == {"en", "hi"}
        else c
        for c in columns
    ]


def _first_wins(columns: list[Column]) -> list[Column]:
    """Two columns for the same field and language: the first one is used, the other kept as is."""
    seen: set[tuple[str | None, str | None]] = set()
    out = []
    for column in columns:
        slot = (column.field, column.lang)
        if column.field is not None and slot in seen and column.field != "aliases":
            column = Column(column.header, None, why=f"another column already gives {column.field}")
        seen.add(slot)
        out.append(column)
    return out


def script_language(text: str) -> str:
    """ "hi" when most letters of ``text`` are Devanagari, else "en"."""
    return "hi" if len(_DEVANAGARI.findall(text)) > len(_LATIN.findall(text)) else "en"


def split_list(cell: str, separators: str = "|;,") -> list[str]:
    """A list cell's items: split on the first of ``separators`` the cell contains."""
    separator = next((s for s in separators if s in cell), None)
    items = cell.split(separator) if separator else [cell]
    return [item.strip() for item in items if item.strip()]
