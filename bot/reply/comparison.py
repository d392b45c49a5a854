"""A comparison ("X vs Y vs Z"): the entries side by side, and any source table that covers them all."""

from __future__ import annotations

from collections.abc import Sequence

from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer
from bot.reply.cards import category_name, cite, fields, source_link, suggest, term
from bot.reply.context import Context
from bot.reply.messages import t
from bot.reply.provenance import voice
from bot.search.retrieval import Hit
from bot.understand.text import Lang, Side, other, side
from glossary import ComparisonTable, Glossary, GlossaryEntry


def _cell(value: str | None, fallback: str = "—") -> str:
    return escape_md(value) if value else fallback


def _comparison_rows(entries: Sequence[GlossaryEntry], lang: Side, glossary: Glossary) -> list[str]:
    """A table of the entries side by side; rows that are empty on every side are left out."""
    header = "| | " + " | ".join(f"**{escape_md(term(e, lang))}**" for e in entries) + " |"
    rows = [header, "|---" * (len(entries) + 1) + "|"]
    for key in ("definition", "usage", "example"):
        values = [fields(e, lang)[key] for e in entries]
        hindi = [fields(e, "hi")[key] for e in entries]
        if not any(values) and not any(hindi):
            continue
        cells = [
            _cell(v, f"*{t('hindi_only', lang)}*" if h is not None and lang == "en" else "—")
            for v, h in zip(values, hindi, strict=True)
        ]
        rows.append(f"| **{t(key, lang)}** | " + " | ".join(cells) + " |")
    categories = [escape_md(category_name(e, lang)) for e in entries]
    rows.append(f"| **{t('category', lang)}** | " + " | ".join(categories) + " |")
    sources = [source_link(e.source, lang, glossary) for e in entries]
    rows.append(f"| **{t('source', lang)}** | " + " | ".join(sources) + " |")
    return rows


def _voices(entries: Sequence[GlossaryEntry], first: Side) -> str:
    """Whose the other language's texts are: one heading for all the compared entries."""
    return "; ".join(dict.fromkeys(voice(e, other(first), first) for e in entries))


def source_table(table: ComparisonTable, lang: Lang, glossary: Glossary) -> str:
    """A table from the source document, cell for cell (Hindi), with its caption and citation."""
    rows = [
        "| " + " | ".join(_cell(c) for c in table.columns) + " |",
        "|---" * len(table.columns) + "|",
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows),
    ]
    caption = f"**{t('table', lang)}** — {escape_md(table.caption_hi)}"
    return "\n\n".join([caption, "\n".join(rows), cite(table.source, lang, glossary)])


def tables_for(entries: Sequence[GlossaryEntry], glossary: Glossary) -> list[ComparisonTable]:
    """Source tables that describe every one of the compared entries."""
    ids = {e.id for e in entries}
    return [t for t in glossary.tables if ids <= set(t.entry_ids)]


def _missing_line(missing: Sequence[str], lang: Side) -> str:
    """Sides of a comparison that name no entry: said, never dropped silently."""
    if not missing:
        return ""
    return t("no_entry_for", lang, names=", ".join(f"*{escape_md(m)}*" for m in missing))


def comparison_card(
    entries: Sequence[GlossaryEntry], lang: Lang, glossary: Glossary, listing: bool = False
) -> str:
    """Two or more entries side by side, titled "X vs Y", or "X and Y" when the question only
    ``listing`` them asked for no comparison ("what are dropout and weight decay")."""
    first = side(lang)
    names = [escape_md(term(e, first)) for e in entries]
    if listing and len(names) > 1:
        heading = f"{', '.join(names[:-1])} {t('and', first)} {names[-1]}"
    else:
        heading = f" {t('vs', first)} ".join(names)
    return "\n\n".join([f"### {heading}", "\n".join(_comparison_rows(entries, first, glossary))])


def compare(
    hits: Sequence[Hit],
    sides: int,
    lang: Lang,
    glossary: Glossary,
    missing: Sequence[str] = (),
    notice: str | None = None,
    listing: bool = False,
) -> Answer:
    """The first ``sides`` hits side by side (the sides of an "X vs Y (vs Z)" question, or of a list
    of names, ``listing``); sides that name no entry are said, not dropped."""
    entries = [h.entry for h in hits[:sides]]
    first = side(lang)
    parts = [comparison_card(entries, lang, glossary, listing), _missing_line(missing, first)]
    details = [
        "\n".join(_comparison_rows(entries, other(first), glossary)),
        *(source_table(tb, lang, glossary) for tb in tables_for(entries, glossary)),
    ]
    return cited_answer(
        "\n\n".join(p for p in parts if p),
        entries,
        lang,
        hits[: sides + 2],
        suggest(entries, hits[sides:], glossary),
        notice,
        "\n\n".join([f"#### {_voices(entries, first)}", *details]),
        kind="comparison",
    )


def reply(ctx: Context) -> Answer:
    found = ctx.evidence.found
    answer = compare(
        found.hits, found.sides, ctx.lang, ctx.glossary, found.missing, ctx.notice, ctx.query.listing
    )
    return answer.model_copy(update={"confidence": found.confidence, "unnamed": list(found.missing)})
