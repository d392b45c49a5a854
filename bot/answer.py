"""Turning glossary entries into cited markdown answers in the asker's language.

Hindi text is quoted verbatim from the glossary; English text is the project's
translation and is labelled as such. English questions get English first and the
Hindi original in a collapsible ``<details>`` block; Hindi and Hinglish questions
get Hindi first and English collapsed. Every piece of glossary or user text is
passed through :func:`escape_md`, so it renders as text, never as HTML or a link.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import regex
from pydantic import BaseModel, ConfigDict

from bot.messages import SIDES, Side, side, t
from bot.retrieval import Hit
from bot.text import Lang
from glossary import ComparisonTable, FaqItem, Glossary, GlossaryEntry, Source

Aspect = Literal["example", "usage", "more"]

#: How many related terms an answer offers as follow-ups.
MAX_RELATED = 4
#: Hits a single-entry answer keeps (its sources block): the answer's entry and the two nearest, enough
#: to show what else was close without burying the answer.
ANSWER_SOURCES = 3
#: A comparison ("X vs Y") sets its first this many hits side by side.
COMPARISON_SIDES = 2
#: Hits a comparison keeps (its sources block): its two sides and the two nearest after them.
COMPARISON_SOURCES = COMPARISON_SIDES + 2

_MD_SPECIAL = regex.compile(r"([\\`*_\[\]|~#])")
_MD_ESCAPED = regex.compile(r"\\([\\`*_\[\]|~#])")

#: "line" in every interface language, as citations spell it.
_LINE_WORDS = "|".join(regex.escape(t("line", s)) for s in SIDES)
#: The citation as it appears in answers; :func:`cited_sources` reads it back.
_CITATION = regex.compile(rf"`([^`\n]+)`, (?:{_LINE_WORDS}) (\d+)")


class Citation(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry_id: str
    term: str
    source: str  # "document:line"


class Answer(BaseModel):
    """What the bot says: markdown, the entries it cites, follow-up suggestions, whether it declined."""

    model_config = ConfigDict(frozen=True)

    text: str
    citations: list[Citation]
    abstained: bool
    lang: Lang
    hits: list[Hit] = []
    notice: str | None = None
    related: list[str] = []  # entry ids offered as follow-up questions
    #: Probability that the first entry is the right one (calibrated per glossary); None when no
    #: search was made (a follow-up about an earlier answer).
    confidence: float | None = None

    @property
    def entry_ids(self) -> list[str]:
        return [c.entry_id for c in self.citations]


def escape_md(text: str) -> str:
    """Text that renders literally in markdown: no HTML, no links, no emphasis."""
    escaped = _MD_SPECIAL.sub(r"\\\1", text)
    return escaped.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape_md(text: str) -> str:
    """The inverse of :func:`escape_md`."""
    plain = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return _MD_ESCAPED.sub(r"\1", plain)


def _literal(text: str) -> str:
    """Text as a code span can hold it: a backtick would end the span, a line break split it."""
    return text.replace("`", "'").replace("\n", " ")


def code(text: str) -> str:
    """Inline code: rendered literally by markdown (backslashes too), so only backticks are replaced."""
    return f"`{_literal(text)}`"


def cell_code(text: str) -> str:
    """Inline code in a table cell, where a bare ``|`` would end the cell and the code span with it
    (leaving the rest as raw markdown); GFM reads ``\\|`` there as a literal ``|``."""
    return code(text).replace("|", "\\|")


def other(first: Side) -> Side:
    return "hi" if first == "en" else "en"


def cite(source: Source, lang: Lang) -> str:
    """``Source: `doc`, line 5`` (read back by :func:`cited_sources`)."""
    return f"**{t('source', lang)}:** {code(source.document)}, {t('line', lang)} {source.line}"


def citation_key(source: Source) -> str:
    """``document:line`` as :func:`cited_sources` reads it back from an answer."""
    return f"{_literal(source.document)}:{source.line}"


def cited_sources(text: str) -> list[str]:
    """The ``document:line`` citations in an answer's text, in order (table cells' ``\\|`` read as ``|``)."""
    return [f"{doc}:{line}".replace("\\|", "|") for doc, line in _CITATION.findall(text)]


def citation(entry: GlossaryEntry) -> Citation:
    return Citation(entry_id=entry.id, term=entry.term, source=entry.source.cite())


def term(entry: GlossaryEntry, lang: Side) -> str:
    return entry.term_en if lang == "en" else entry.term_hi


def names(entry: GlossaryEntry, first: Side) -> str:
    second = other(first)
    a, b = term(entry, first), term(entry, second)
    return escape_md(a) if a == b else f"{escape_md(a)} · {escape_md(b)}"


def _category(entry: GlossaryEntry, first: Side) -> str:
    pair = [entry.category.en, entry.category.hi]
    return " · ".join(escape_md(n) for n in dict.fromkeys(pair if first == "en" else pair[::-1]))


def fields(entry: GlossaryEntry, lang: Side) -> dict[str, str | None]:
    """Definition, usage and example in one language (None where the glossary has none)."""
    if lang == "hi":
        return {"definition": entry.definition_hi, "usage": entry.usage_hi, "example": entry.example_hi}
    return {"definition": entry.definition_en, "usage": entry.usage_en, "example": entry.example_en}


def _notes(entry: GlossaryEntry, lang: Side) -> list[str]:
    return entry.notes_hi if lang == "hi" else entry.notes_en


def _field_lines(entry: GlossaryEntry, lang: Side, keys: Iterable[str]) -> list[str]:
    values = fields(entry, lang)
    lines = [f"**{t(k, lang)}:** {escape_md(v)}" for k in keys if (v := values[k])]
    if "definition" in keys:
        lines.extend(f"**{t('notes', lang)}:** {escape_md(n)}" for n in _notes(entry, lang))
    return lines


def collapsible(summary: str, body: Sequence[str]) -> str:
    """A ``<details>`` block; markdown inside renders because of the blank lines around it."""
    if not body:
        return ""
    return "\n\n".join([f"<details>\n<summary>{summary}</summary>", *body, "</details>"])


def _bilingual(lines_first: list[str], lines_second: list[str], first: Side) -> list[str]:
    """The question's language in full, the other one collapsed, with the translation note in English."""
    note = [f"*{t('translated', 'en')}*"]
    if first == "en":
        return [*lines_first, *note, collapsible(t("other", "en"), lines_second)]
    return [*lines_first, collapsible(t("other", "hi"), [*lines_second, *note])]


def entry_card(entry: GlossaryEntry, lang: Lang, heading: bool = True) -> str:
    """The full answer for one entry: names, category, definition, usage, example, cautions, citation."""
    first = side(lang)
    second = other(first)
    keys = ("definition", "usage", "example")
    parts = [
        f"### {names(entry, first)}" if heading else "",
        f"**{t('category', first)}:** {_category(entry, first)}",
        *_bilingual(_field_lines(entry, first, keys), _field_lines(entry, second, keys), first),
        cite(entry.source, lang),
    ]
    return "\n\n".join(p for p in parts if p)


def aspect_card(entry: GlossaryEntry, aspect: Literal["example", "usage"], lang: Lang) -> str:
    """Just an entry's example (or usage note), both languages; its definition when it has none."""
    first = side(lang)
    second = other(first)
    heading = f"### {t(aspect, first)}: {names(entry, first)}"
    if fields(entry, "hi")[aspect] is None:
        missing = t(f"no_{aspect}", first, term=escape_md(term(entry, first)))
        body = [missing, *_field_lines(entry, first, ["definition"])]
        return "\n\n".join([heading, *body, cite(entry.source, lang)])
    own, theirs = _field_lines(entry, first, [aspect]), _field_lines(entry, second, [aspect])
    parts = [heading, *_bilingual(own, theirs, first), cite(entry.source, lang)]
    return "\n\n".join(p for p in parts if p)


def _cell(value: str | None, fallback: str = "—") -> str:
    return escape_md(" ".join(value.split())) if value else fallback


def _comparison_rows(entries: Sequence[GlossaryEntry], lang: Side) -> list[str]:
    header = "| | " + " | ".join(f"**{escape_md(term(e, lang))}**" for e in entries) + " |"
    rows = [header, "|---" * (len(entries) + 1) + "|"]
    for key in ("definition", "usage", "example"):
        cells = []
        for e in entries:
            hindi_exists = fields(e, "hi")[key] is not None
            fallback = f"*{t('hindi_only', lang)}*" if hindi_exists and lang == "en" else "—"
            cells.append(_cell(fields(e, lang)[key], fallback))
        rows.append(f"| **{t(key, lang)}** | " + " | ".join(cells) + " |")
    categories = [escape_md(e.category.en if lang == "en" else e.category.hi) for e in entries]
    rows.append(f"| **{t('category', lang)}** | " + " | ".join(categories) + " |")
    sources = [f"{cell_code(e.source.document)}, {t('line', lang)} {e.source.line}" for e in entries]
    rows.append(f"| **{t('source', lang)}** | " + " | ".join(sources) + " |")
    return rows


def source_table(table: ComparisonTable, lang: Lang) -> str:
    """A table from the source document, cell for cell (Hindi), with its caption and citation."""
    rows = [
        "| " + " | ".join(_cell(c) for c in table.columns) + " |",
        "|---" * len(table.columns) + "|",
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows),
    ]
    caption = f"**{t('table', lang)}** — {escape_md(table.caption_hi)}"
    return "\n\n".join([caption, "\n".join(rows), cite(table.source, lang)])


def tables_for(entries: Sequence[GlossaryEntry], glossary: Glossary) -> list[ComparisonTable]:
    """Source tables that describe every one of the compared entries."""
    ids = {e.id for e in entries}
    return [t for t in glossary.tables if ids <= set(t.entry_ids)]


def comparison_card(entries: Sequence[GlossaryEntry], lang: Lang, glossary: Glossary) -> str:
    """Two (or more) entries side by side, plus any source table that covers them all."""
    first = side(lang)
    second = other(first)
    heading = f" {t('vs', first)} ".join(escape_md(term(e, first)) for e in entries)
    parts = [
        f"### {heading}",
        *_bilingual(
            ["\n".join(_comparison_rows(entries, first))],
            ["\n".join(_comparison_rows(entries, second))],
            first,
        ),
        *(source_table(t, lang) for t in tables_for(entries, glossary)),
    ]
    return "\n\n".join(p for p in parts if p)


def faq_for(entry: GlossaryEntry, glossary: Glossary) -> list[FaqItem]:
    return [item for item in glossary.faq if entry.id in item.related]


def _faq_block(items: Sequence[FaqItem], lang: Lang) -> str:
    first = side(lang)
    lines = []
    for item in items:
        if first == "en" and item.answer_en:
            lines.append(f"**{escape_md(item.question_en)}** {escape_md(item.answer_en)}")
        else:
            lines.append(f"**{escape_md(item.question_hi)}** {escape_md(item.answer_hi)}")
        lines.append(cite(item.source, lang))
    return "\n\n".join([f"#### {t('faq', first)}", *lines]) if lines else ""


def more_card(entry: GlossaryEntry, lang: Lang, glossary: Glossary) -> str:
    """The full card, the FAQ answers that mention the entry, and its related terms."""
    first = side(lang)
    related = [glossary.get(r) for r in known(entry.related, glossary)]
    see_also = ", ".join(f"**{escape_md(term(r, first))}**" for r in related)
    parts = [
        entry_card(entry, lang),
        _faq_block(faq_for(entry, glossary), lang),
        f"{t('see_also', first)}: {see_also}" if see_also else "",
    ]
    return "\n\n".join(p for p in parts if p)


def known(ids: Iterable[str], glossary: Glossary) -> list[str]:
    """The ids that name entries of this glossary (related lists may point outside a user glossary)."""
    out = []
    for entry_id in ids:
        try:
            glossary.get(entry_id)
        except KeyError:
            continue
        out.append(entry_id)
    return out


def suggest(shown: Sequence[GlossaryEntry], nearby: Sequence[Hit], glossary: Glossary) -> list[str]:
    """Up to MAX_RELATED follow-up terms: the shown entries' related terms first, then the next hits."""
    candidates = [r for e in shown for r in e.related] + [h.entry.id for h in nearby]
    skip = {e.id for e in shown}
    picked = [i for i in dict.fromkeys(known(candidates, glossary)) if i not in skip]
    return picked[:MAX_RELATED]


def _answer(
    cards: list[str],
    entries: Sequence[GlossaryEntry],
    lang: Lang,
    hits: Sequence[Hit],
    related: list[str],
    notice: str | None,
) -> Answer:
    parts = ([f"> {escape_md(notice)}"] if notice else []) + cards
    return Answer(
        text="\n\n---\n\n".join(parts),
        citations=[citation(e) for e in entries],
        abstained=False,
        lang=lang,
        hits=list(hits),
        notice=notice,
        related=related,
    )


def compose(hits: Sequence[Hit], lang: Lang, glossary: Glossary, notice: str | None = None) -> Answer:
    """The card of the best hit; the following hits are listed as nearby sources and follow-ups."""
    best, nearby = hits[0].entry, hits[1:]
    return _answer(
        [entry_card(best, lang)],
        [best],
        lang,
        hits[:ANSWER_SOURCES],
        suggest([best], nearby, glossary),
        notice,
    )


def compare(hits: Sequence[Hit], lang: Lang, glossary: Glossary, notice: str | None = None) -> Answer:
    """The first two hits side by side (the two sides of an "X vs Y" question)."""
    sides = [h.entry for h in hits[:COMPARISON_SIDES]]
    return _answer(
        [comparison_card(sides, lang, glossary)],
        sides,
        lang,
        hits[:COMPARISON_SOURCES],
        suggest(sides, hits[COMPARISON_SIDES:], glossary),
        notice,
    )


def focus(entries: Sequence[GlossaryEntry], aspect: Aspect, lang: Lang, glossary: Glossary) -> Answer:
    """A follow-up about entries answered before: their example, usage, or everything known."""
    if aspect == "more":
        cards = [more_card(e, lang, glossary) for e in entries]
    else:
        cards = [aspect_card(e, aspect, lang) for e in entries]
    return _answer(cards, entries, lang, [], suggest(entries, [], glossary), None)


def decline(suggestions: Sequence[Hit], lang: Lang, notice: str | None = None) -> Answer:
    """Say plainly that the glossary does not cover the question, and offer the nearest terms."""
    first = side(lang)
    text = t("declined", first)
    listed = ", ".join(f"**{escape_md(term(h.entry, first))}**" for h in suggestions)
    if listed:
        text += " " + t("nearest", first, names=listed)
    if notice:
        text = f"> {escape_md(notice)}\n\n{text}"
    return Answer(
        text=text,
        citations=[],
        abstained=True,
        lang=lang,
        hits=list(suggestions),
        notice=notice,
        related=[h.entry.id for h in suggestions][:MAX_RELATED],
    )


def no_context(lang: Lang) -> Answer:
    """A follow-up ("give me an example") with no earlier answer to refer to."""
    return Answer(text=t("which_term", lang), citations=[], abstained=True, lang=lang)


def sources_markdown(answer: Answer, glossary: Glossary) -> str:
    """The cited entries (and the nearby ones considered) with their relevance scores."""
    first = side(answer.lang)
    scores = {h.entry.id: h.score for h in answer.hits}
    rows = [(c.entry_id, t("cited", first)) for c in answer.citations]
    rows += [(h.entry.id, t("nearby", first)) for h in answer.hits if h.entry.id not in answer.entry_ids]
    if not rows:
        return "—"
    header = f"| # | {t('term', first)} | {t('source', first)} | {t('relevance', first)} |"
    lines = [header, "|---|---|---|---|"]
    for n, (entry_id, role) in enumerate(rows, start=1):
        entry = glossary.get(entry_id)
        score = f"{scores[entry_id]:.2f}" if entry_id in scores else "—"
        lines.append(f"| {n} | {names(entry, first)} ({role}) | {cell_code(entry.source.cite())} | {score} |")
    return "\n".join(lines)
