"""The Browse and About pages: every entry A–Z with a filter; the glossary served and how the bot works."""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from bot.identity import GlossaryIdentity
from bot.markdown import code, escape_md
from bot.reply.cards import category_name, entry_card, term
from bot.reply.messages import t
from bot.search.lexical import LexicalIndex, romanized
from bot.understand.hinglish import FUNCTION_WORDS, fold, gloss
from bot.understand.text import Side, normalise, other, tokens
from glossary import Category, Glossary, GlossaryEntry

ALL = ""  # the category filter value meaning "every category"
#: Categories About names; the rest are counted.
MAX_CATEGORIES = 12


def categories(glossary: Glossary, lang: Side) -> list[tuple[str, str]]:
    """(label, value) choices for the category filter; values are the English names (the Hindi ones
    for categories named only in Hindi)."""
    seen = {category_value(e): e.category for e in glossary.entries if e.category}
    pairs = [(_category_label(c, lang), k) for k, c in seen.items() if c]
    return [(t("all_categories", lang), ALL), *sorted(pairs, key=lambda p: normalise(p[0]))]


def category_value(entry: GlossaryEntry) -> str:
    """The filter value of an entry's category ("" for none)."""
    return entry.category.name("en") if entry.category else ""


def _category_label(category: Category, lang: Side) -> str:
    if lang == "en" or not (category.hi and category.en) or category.hi == category.en:
        return category.name(lang)
    return f"{category.hi} · {category.en}"


@dataclass(frozen=True)
class _Haystack:
    """An entry's names and definitions, and the romanized views of their Hindi words."""

    text: str
    romanized: frozenset[str]

    @classmethod
    def of(cls, entry: GlossaryEntry) -> _Haystack:
        parts = [*entry.names, entry.definition_en, entry.definition_hi]
        text = normalise(" ".join(p for p in parts if p))
        return cls(text, frozenset(romanized(tokens(text))))

    def has(self, word: str, lexical: LexicalIndex | None) -> bool:
        """``word`` as typed, spelling-corrected ("dropuot" -> "dropout") or glossed from Hinglish is in
        the text, or its folded spelling is one of the romanized Hindi words ("hani" -> हानि)."""
        return self.has_reading(Reading.of(word, lexical))

    def has_reading(self, reading: Reading) -> bool:
        return any(f in self.text for f in reading.forms) or reading.folded in self.romanized


@dataclass(frozen=True)
class Reading:
    """What a typed word may stand for, worked out once to be looked for in many entries."""

    forms: frozenset[str]
    folded: str

    @classmethod
    def of(cls, word: str, lexical: LexicalIndex | None) -> Reading:
        forms = {word, *gloss([word]), *(lexical.correct([word]) if lexical is not None else [])}
        return cls(frozenset(forms), fold(word))


def filtered(
    glossary: Glossary, query: str, category: str, lang: Side, lexical: LexicalIndex | None = None
) -> list[GlossaryEntry]:
    """Entries whose names or definitions contain every word of ``query`` (or, with the bot's
    ``lexical`` index, what a misspelt or Hinglish word stands for), A–Z in ``lang``."""
    typed = normalise(query).split()
    # Hinglish function words ("ki", "ka") say nothing about an entry, unless they are all there is.
    words = [w for w in typed if w not in FUNCTION_WORDS] or typed
    in_category = [e for e in glossary.entries if category == ALL or category_value(e) == category]
    readings = [Reading.of(w, lexical) for w in words]
    chosen = [e for e in in_category if all(_Haystack.of(e).has_reading(r) for r in readings)]
    return sorted(chosen, key=lambda e: normalise(term(e, lang)))


def _html_text(text: str) -> str:
    """Text for inside an HTML tag: escaped, and brackets as entities so that no markdown renderer
    can read a link into it either."""
    return html.escape(text).replace("[", "&#91;").replace("]", "&#93;")


def _summary(entry: GlossaryEntry, lang: Side) -> str:
    """``<strong>Term</strong> · दूसरा नाम <small>category</small>``, HTML-escaped (no markdown in HTML)."""
    first, second = term(entry, lang), term(entry, other(lang))
    name = f"<strong>{_html_text(first)}</strong>" + (f" · {_html_text(second)}" if second != first else "")
    category = category_name(entry, lang)
    return f"{name} <small>{_html_text(category)}</small>" if category else name


def listing(
    glossary: Glossary, query: str, category: str, lang: Side, lexical: LexicalIndex | None = None
) -> str:
    """The Browse page: a count, then one collapsible full card per entry."""
    entries = filtered(glossary, query, category, lang, lexical)
    count = t("browse_count", lang, shown=len(entries), total=len(glossary))
    if not entries:
        return count + "\n\n" + t("no_match", lang)
    blocks = [
        "\n\n".join(
            [
                f"<details class='entry' id='entry-{e.id}'>\n<summary>{_summary(e, lang)}</summary>",
                entry_card(e, lang, glossary, heading=False),
                "</details>",
            ]
        )
        for e in entries
    ]
    return "\n\n".join([count, *blocks])


def about(identity: GlossaryIdentity, lang: Side) -> str:
    """The loaded glossary (title, description, entries, languages, categories, files), how the bot
    works, and where the text comes from."""
    sources = t("about_bundled_sources", lang) if identity.bundled else t("about_team_sources", lang)
    parts = [_glossary_facts(identity, lang), t("about_how", lang), sources]
    return "\n\n".join(part.strip() for part in parts)


def _glossary_facts(identity: GlossaryIdentity, lang: Side) -> str:
    docs = "\n".join(
        f"  - {code(f.name)}"
        + (f" — **{escape_md(f.title)}**" if f.title != Path(f.name).stem else "")
        + (f": {escape_md(f.subtitle)}" if f.subtitle else "")
        + f" ({f.entries} {t('terms', lang)})"
        for f in identity.files
    )
    return t(
        "about_glossary",
        lang,
        title=escape_md(identity.name(lang)),
        description=escape_md(identity.description[lang]),
        entries=identity.entries,
        languages=identity.language_names,
        categories=_categories(identity, lang),
        docs=docs,
    )


def _categories(identity: GlossaryIdentity, lang: Side) -> str:
    """The category names in ``lang``, the first MAX_CATEGORIES of them ("—" when there are none)."""
    found = [escape_md(c.name(lang)) for c in identity.categories]
    if len(found) > MAX_CATEGORIES:
        found = [*found[:MAX_CATEGORIES], t("more", lang, count=len(found) - MAX_CATEGORIES)]
    return ", ".join(found) or "—"
