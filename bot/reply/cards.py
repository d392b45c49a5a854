"""An entry in markdown, in the asker's language: the pieces every kind of reply is made of.

Text is quoted verbatim from the glossary; the heading over the other language's text says whose it
is (``bot.reply.provenance``). An entry the glossary has in one language only is shown in that
language under the asker's labels, with one line saying the glossary has no text in the asker's
language for it: never an empty section, never a translation nobody wrote.

An entry is a quick part, read first (names, how sure the bot is, the definition's first sentence
in bold, its citation), and details (usage, example, cautions, the other language, the columns of a
user's file that no field took) that the app shows collapsed. No HTML: the text is copied as it is
into tickets and terminals. Every piece of glossary or user text passes through
``bot.markdown.escape_md``, so it renders as text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.markdown import escape_md, source_target
from bot.reply.answer import ConfidenceLabel
from bot.reply.messages import t
from bot.reply.provenance import voice
from bot.reply.titles import document_title
from bot.search.retrieval import Hit
from bot.understand.text import Lang, Side, other, side
from glossary import Glossary, GlossaryEntry, Source
from index.sentences import first_sentence

#: How many related terms an answer offers as follow-ups.
MAX_RELATED = 4
#: Hits a single-entry answer keeps (its sources block): the answer's entry and the two nearest, enough
#: to show what else was close without burying the answer.
ANSWER_SOURCES = 3
#: Entries a near miss offers as the closest ones.
DECLINE_SUGGESTIONS = 2
#: A Sources row's snippet of the entry's definition is cut at this many characters.
SNIPPET_CHARS = 90


def cite(source: Source, lang: Lang, glossary: Glossary) -> str:
    """``Source: [title, line 5](source/doc?line=5)``: the document's title and the line, linked to
    the app's source viewer (read back by ``bot.markdown.cited_sources``)."""
    return f"**{t('source', lang)}:** {source_link(source, lang, glossary)}"


def source_link(source: Source, lang: Lang, glossary: Glossary) -> str:
    title = escape_md(document_title(glossary, source.document, side(lang)))
    return f"[{title}, {t('line', lang)} {source.line}]({source_target(source)})"


def shown_side(entry: GlossaryEntry, lang: Side) -> Side:
    """The language the entry's text is shown in for ``lang``: that one if the entry has a definition
    in it, else the one it has."""
    return lang if entry.text("definition", lang) else other(lang)


def missing_note(entry: GlossaryEntry, lang: Side) -> str:
    """The one line saying the glossary has no text in ``lang`` for this entry ("" when it has)."""
    return f"*{t('no_text_in_lang', lang)}*" if shown_side(entry, lang) != lang else ""


def term(entry: GlossaryEntry, lang: Side) -> str:
    """The term in ``lang``, else in the other language, else the heading as written."""
    return entry.text("term", lang) or entry.text("term", other(lang)) or entry.term


def names(entry: GlossaryEntry, first: Side) -> str:
    second = other(first)
    a, b = term(entry, first), term(entry, second)
    return escape_md(a) if a == b else f"{escape_md(a)} · {escape_md(b)}"


def category_name(entry: GlossaryEntry, lang: Side) -> str:
    """The category in ``lang`` (else the name it has; "" when the entry has none)."""
    return entry.category.name(lang) if entry.category else ""


def fields(entry: GlossaryEntry, lang: Side) -> dict[str, str | None]:
    """Definition, usage and example in one language (None where the glossary has none)."""
    if lang == "hi":
        return {"definition": entry.definition_hi, "usage": entry.usage_hi, "example": entry.example_hi}
    return {"definition": entry.definition_en, "usage": entry.usage_en, "example": entry.example_en}


def entry_notes(entry: GlossaryEntry, lang: Side) -> list[str]:
    return entry.notes_hi if lang == "hi" else entry.notes_en


def _field_lines(
    entry: GlossaryEntry, lang: Side, keys: Iterable[str], labels: Side | None = None
) -> list[str]:
    """The entry's ``keys`` and notes in ``lang``, under labels in ``labels`` (default ``lang``)."""
    values, label = fields(entry, lang), labels or lang
    lines = [f"**{t(k, label)}:** {escape_md(v)}" for k in keys if (v := values[k])]
    lines.extend(f"**{t('notes', label)}:** {escape_md(n)}" for n in entry_notes(entry, lang))
    return lines


def summary(entry: GlossaryEntry, lang: Side) -> str:
    """The one-line answer: the definition's first sentence, in bold."""
    return f"**{escape_md(first_sentence(definition(entry, lang))[0])}**"


def definition(entry: GlossaryEntry, lang: Side) -> str:
    """The definition shown for ``lang`` (in the other language when the entry has none in ``lang``)."""
    return fields(entry, shown_side(entry, lang))["definition"] or ""


def label_line(
    label: ConfidenceLabel | None, confidence: float | None, lang: Side, name: str | None = None
) -> str:
    """The label, with the confidence in per cent when it is the reason for the label; ``name``: the
    entry's name a misspelt question meant ("did you mean <name>?")."""
    if label is None:
        return ""
    line = f"*{t(f'label_{label}', lang, name=escape_md(name or ''))}*"
    if confidence is None:
        return line
    return f"{line} · {t('confidence', lang, percent=round(confidence * 100))}"


def quick_card(
    entry: GlossaryEntry,
    lang: Lang,
    glossary: Glossary,
    heading: bool = True,
    label: ConfidenceLabel | None = None,
    confidence: float | None = None,
    meant: str | None = None,
) -> str:
    """What is read first: names, how sure, the first sentence in bold, the rest of the definition,
    category and citation; ``meant``: the name a misspelt question meant."""
    first = side(lang)
    rest = first_sentence(definition(entry, first))[1]
    category = category_name(entry, first)
    parts = [
        f"### {names(entry, first)}" if heading else "",
        label_line(label, confidence, first, meant),
        missing_note(entry, first),
        summary(entry, first) + (f" {escape_md(rest)}" if rest else ""),
        f"**{t('category', first)}:** {escape_md(category)}" if category else "",
        cite(entry.source, lang, glossary),
    ]
    return "\n\n".join(p for p in parts if p)


def detail_card(entry: GlossaryEntry, lang: Lang) -> str:
    """Usage, example and cautions, then the whole entry in the other language (when the glossary
    has it in both), then the columns of the user's file that no field took, under their headers."""
    first = side(lang)
    shown = shown_side(entry, first)
    own = _field_lines(entry, shown, ("usage", "example"), labels=first)
    theirs = _field_lines(entry, other(shown), ("definition", "usage", "example")) if shown == first else []
    extra = [f"**{escape_md(header)}:** {escape_md(value)}" for header, value in entry.extra.items()]
    if entry.source.reference:
        extra.append(f"**{t('source', first)}:** {escape_md(entry.source.reference)}")
    other_part = [f"#### {voice(entry, other(shown), first)}", *theirs] if theirs else []
    return "\n\n".join([*own, *other_part, *extra])


def entry_card(entry: GlossaryEntry, lang: Lang, glossary: Glossary, heading: bool = True) -> str:
    """The whole entry at once (the Browse page): quick card, then its details."""
    return "\n\n".join([quick_card(entry, lang, glossary, heading), detail_card(entry, lang)])


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


def closest_list(entries: Sequence[GlossaryEntry], lang: Lang, glossary: Glossary) -> str:
    first = side(lang)
    return "\n".join(
        f"- **{escape_md(term(e, first))}** — {snippet(e, first)} ({source_link(e.source, lang, glossary)})"
        for e in entries
    )


def snippet(entry: GlossaryEntry, lang: Side) -> str:
    text = first_sentence(definition(entry, lang))[0]
    return escape_md(text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…")
