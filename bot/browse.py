"""The Browse and About pages: every entry A–Z with a filter, and how the bot works."""

from __future__ import annotations

import html

from bot.answer import code, entry_card, escape_md, term
from bot.messages import Side, other, t
from bot.text import normalise
from glossary import Glossary, GlossaryEntry

ALL = ""  # the category filter value meaning "every category"


def categories(glossary: Glossary, lang: Side) -> list[tuple[str, str]]:
    """(label, value) choices for the category filter; values are the English names."""
    seen = {e.category.en: e.category for e in glossary.entries}
    pairs = [
        (c.en if lang == "en" else f"{c.hi} · {c.en}" if c.hi != c.en else c.en, k) for k, c in seen.items()
    ]
    return [(t("all_categories", lang), ALL), *sorted(pairs, key=lambda p: normalise(p[0]))]


def _matches(entry: GlossaryEntry, words: list[str]) -> bool:
    haystack = normalise(
        " ".join(
            [
                entry.term,
                entry.term_en,
                entry.term_hi,
                *entry.aliases,
                entry.definition_en,
                entry.definition_hi,
            ]
        )
    )
    return all(w in haystack for w in words)


def filtered(glossary: Glossary, query: str, category: str, lang: Side) -> list[GlossaryEntry]:
    """Entries whose names or definitions contain every word of ``query``, A–Z in ``lang``."""
    words = normalise(query).split()
    chosen = [
        e for e in glossary.entries if (category == ALL or e.category.en == category) and _matches(e, words)
    ]
    return sorted(chosen, key=lambda e: normalise(term(e, lang)))


def _html_text(text: str) -> str:
    """Text for inside an HTML tag: escaped, and brackets as entities so that no markdown renderer
    can read a link into it either."""
    return html.escape(text).replace("[", "&#91;").replace("]", "&#93;")


def _summary(entry: GlossaryEntry, lang: Side) -> str:
    """``<strong>Term</strong> · दूसरा नाम <small>category</small>``, HTML-escaped (no markdown in HTML)."""
    first, second = term(entry, lang), term(entry, other(lang))
    name = f"<strong>{_html_text(first)}</strong>" + (f" · {_html_text(second)}" if second != first else "")
    category = entry.category.en if lang == "en" else entry.category.hi
    return f"{name} <small>{_html_text(category)}</small>"


def listing(glossary: Glossary, query: str, category: str, lang: Side) -> str:
    """The Browse page: a count, then one collapsible full card per entry."""
    entries = filtered(glossary, query, category, lang)
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


def about(glossary: Glossary, lang: Side) -> str:
    """How the bot works, where its text comes from, and the licence."""
    docs = "\n".join(
        f"- {code(d.document)} — **{escape_md(d.title_hi)}**"
        + (f": {escape_md(d.subtitle_hi)}" if d.subtitle_hi else "")
        + f" ({len(d.entries)} {t('terms', lang)})"
        for d in glossary.documents
    )
    return t("about", lang, docs=docs)
