"""Turning glossary entries into cited markdown answers in the asker's language.

Hindi text is quoted verbatim from the glossary; English text is the project's translation (About
says so once). An answer is a quick part, read first (names, how sure the bot is, the definition's
first sentence in bold, its citation), and details (usage, example, cautions, the other language)
that the app shows collapsed. No HTML: the text is copied as it is into tickets and terminals.
Every piece of glossary or user text passes through :func:`escape_md`, so it renders as text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal
from urllib.parse import quote, unquote

import regex
from pydantic import BaseModel, ConfigDict

from bot.messages import Side, other, side, t
from bot.remedies import Remedy
from bot.retrieval import Hit
from bot.text import Lang
from glossary import ComparisonTable, FaqItem, Glossary, GlossaryEntry, Source

Aspect = Literal["example", "usage", "more"]

#: How many related terms an answer offers as follow-ups.
MAX_RELATED = 4
#: Hits a single-entry answer keeps (its sources block): the answer's entry and the two nearest, enough
#: to show what else was close without burying the answer.
ANSWER_SOURCES = 3
#: Entries a near miss offers as the closest ones.
DECLINE_SUGGESTIONS = 2

#: Characters that markdown (CommonMark + GFM) may read as markup anywhere in a line: each gets a
#: backslash, which CommonMark defines as "this character, literally" for any ASCII punctuation.
_MD_ANYWHERE = regex.compile(r"([\\`*_\[\]|~#<>&$])")
#: What GFM would turn into a live link: "scheme://", "www.", "name@host" (the ":", "." or "@" is escaped).
_MD_AUTOLINK = regex.compile(r"(?i)(?<=[a-z0-9])(:)(?=//)|(?<=\bwww)(\.)|(?<=[\w.+-])(@)(?=\w)")
#: What markdown reads as a block only at the start of a line: list markers, rules, setext underlines.
_MD_LINE_START = regex.compile(r"^(?=[-+=])|(?<=^\d+)(?=[.)])")
#: A backslash escape as :func:`escape_md` writes them.
_MD_ESCAPED = regex.compile(r"\\([!-/:-@\[-`{-~])")

#: Where the app serves a cited document's lines (``ui.sources``); citations link there.
SOURCE_ROUTE = "source"
#: The citation link as it appears in answers; :func:`cited_sources` reads it back.
_CITATION = regex.compile(rf"\]\({SOURCE_ROUTE}/([^?\s)]+)\?line=(\d+)\)")
#: The end of a sentence (full stop, question or exclamation mark, or Hindi danda) before a space.
_SENTENCE_END = regex.compile(r"(?<=[.!?।])\s+")
#: A Sources row's snippet of the entry's definition is cut at this many characters.
SNIPPET_CHARS = 90

ConfidenceLabel = Literal["exact", "likely", "closest"]
#: A card; a near miss (no entry for what was asked, the closest offered); a comparison; the FAQ's
#: answer; entries whose text addresses a problem; an antonym; a follow-up about an earlier answer;
#: a decline; small talk; a follow-up with nothing to refer to.
AnswerKind = Literal[
    "answer",
    "near miss",
    "comparison",
    "faq",
    "remedy",
    "opposite",
    "follow-up",
    "declined",
    "small talk",
    "no context",
]
#: Confidence from which the first entry is labelled an exact match: on both dev sets (bundled
#: dev.jsonl, 163 answered; cncf-hi, 92 answered) every first entry at or above it was right (135/135).
EXACT_CONFIDENCE = 0.8
#: Confidence below which an answer is a near miss ("no entry for X; the closest are ..."): below it
#: 21 of 38 answered first entries were right on both dev sets together (5 of 21 on cncf-hi), at or
#: above it 205 of 217 (94 %).
NEAR_MISS_CONFIDENCE = 0.3


class Citation(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry_id: str
    term: str
    source: str  # "document:line"


class Answer(BaseModel):
    """What the bot says: markdown, the entries it cites, follow-up suggestions, whether it declined.

    ``text`` is the quick answer, read first; ``details`` (usage, example, cautions, the other
    language) is shown collapsed by the app and after the text by the CLI.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    citations: list[Citation]
    abstained: bool
    lang: Lang
    details: str = ""
    hits: list[Hit] = []
    notice: str | None = None
    related: list[str] = []  # entry ids offered as follow-up questions
    #: Probability that the first entry is the right one (calibrated per glossary); None when no
    #: search was made (a follow-up about an earlier answer).
    confidence: float | None = None
    #: The confidence in words (:func:`confidence_label`); None when there is no confidence.
    label: ConfidenceLabel | None = None
    #: What kind of reply this is, set where it is made (recorded for the maintainers' report).
    kind: AnswerKind = "answer"

    @property
    def entry_ids(self) -> list[str]:
        return [c.entry_id for c in self.citations]

    @property
    def full_text(self) -> str:
        """The quick answer and its details, for readers that show everything at once (the CLI)."""
        return "\n\n".join(p for p in (self.text, self.details) if p)


#: The Answer fields programs get (``ask --json`` and ``POST /api/answer``): the hits' full entries
#: would be most of the bytes, and ``citations`` names them.
PUBLIC_FIELDS = frozenset(
    {"text", "details", "lang", "abstained", "citations", "related", "notice", "confidence", "label"}
)


def public_json(answer: Answer) -> str:
    """The answer as programs get it: the same JSON from ``ask --json`` and ``POST /api/answer``."""
    return answer.model_dump_json(include=set(PUBLIC_FIELDS))


def confidence_label(confidence: float) -> ConfidenceLabel:
    if confidence >= EXACT_CONFIDENCE:
        return "exact"
    return "likely" if confidence >= NEAR_MISS_CONFIDENCE else "closest"


def escape_md(text: str) -> str:
    """Glossary or user text as markdown that renders as exactly that text, on one line: no HTML, no
    links (not even bare URLs or e-mail addresses), no emphasis, lists, rules, headings or code.

    The one door through which glossary and user text enter markdown. Whitespace (line breaks,
    indents) is collapsed, so nothing in the text can start a block of its own.
    """
    flat = _MD_ANYWHERE.sub(r"\\\1", " ".join(text.split()))
    escaped = _MD_AUTOLINK.sub(lambda m: "\\" + m.group(0), flat)
    return _MD_LINE_START.sub(r"\\", escaped, count=1)


def unescape_md(text: str) -> str:
    """The inverse of :func:`escape_md` (up to the whitespace it collapsed)."""
    return _MD_ESCAPED.sub(r"\1", text)


def first_sentence(text: str) -> tuple[str, str]:
    """(the first sentence, the rest): the quick answer leads with the first."""
    parts = _SENTENCE_END.split(text.strip(), maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


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


def cite(source: Source, lang: Lang, glossary: Glossary) -> str:
    """``Source: [title, line 5](source/doc?line=5)``: the document's title and the line, linked to
    the app's source viewer (read back by :func:`cited_sources`)."""
    return f"**{t('source', lang)}:** {source_link(source, lang, glossary)}"


def source_link(source: Source, lang: Lang, glossary: Glossary) -> str:
    title = escape_md(glossary.title(source.document))
    url = f"{SOURCE_ROUTE}/{quote(source.document, safe='')}?line={source.line}"
    return f"[{title}, {t('line', lang)} {source.line}]({url})"


def citation_key(source: Source) -> str:
    """``document:line`` as :func:`cited_sources` reads it back from an answer."""
    return source.cite()


def cited_sources(text: str) -> list[str]:
    """The ``document:line`` citations in an answer's text, in order."""
    return [f"{unquote(doc)}:{line}" for doc, line in _CITATION.findall(text)]


def citation(entry: GlossaryEntry) -> Citation:
    return Citation(entry_id=entry.id, term=entry.term, source=entry.source.cite())


def term(entry: GlossaryEntry, lang: Side) -> str:
    return entry.term_en if lang == "en" else entry.term_hi


def names(entry: GlossaryEntry, first: Side) -> str:
    second = other(first)
    a, b = term(entry, first), term(entry, second)
    return escape_md(a) if a == b else f"{escape_md(a)} · {escape_md(b)}"


def category_name(entry: GlossaryEntry, lang: Side) -> str:
    return entry.category.en if lang == "en" else entry.category.hi


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
    lines.extend(f"**{t('notes', lang)}:** {escape_md(n)}" for n in _notes(entry, lang))
    return lines


def summary(entry: GlossaryEntry, lang: Side) -> str:
    """The one-line answer: the definition's first sentence, in bold."""
    return f"**{escape_md(first_sentence(fields(entry, lang)['definition'] or '')[0])}**"


def _label_line(label: ConfidenceLabel | None, confidence: float | None, lang: Side) -> str:
    """The label, with the confidence in per cent when it is the reason for the label."""
    if label is None:
        return ""
    line = f"*{t(f'label_{label}', lang)}*"
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
) -> str:
    """What is read first: names, how sure, the first sentence in bold, the rest of the definition,
    category and citation."""
    first = side(lang)
    rest = first_sentence(fields(entry, first)["definition"] or "")[1]
    parts = [
        f"### {names(entry, first)}" if heading else "",
        _label_line(label, confidence, first),
        summary(entry, first) + (f" {escape_md(rest)}" if rest else ""),
        f"**{t('category', first)}:** {escape_md(category_name(entry, first))}",
        cite(entry.source, lang, glossary),
    ]
    return "\n\n".join(p for p in parts if p)


def detail_card(entry: GlossaryEntry, lang: Lang) -> str:
    """Usage, example and cautions, then the whole entry in the other language."""
    first = side(lang)
    second = other(first)
    own = _field_lines(entry, first, ("usage", "example"))
    theirs = _field_lines(entry, second, ("definition", "usage", "example"))
    return "\n\n".join([*own, f"#### {t('other', first)}", *theirs])


def entry_card(entry: GlossaryEntry, lang: Lang, glossary: Glossary, heading: bool = True) -> str:
    """The whole entry at once (the Browse page): quick card, then its details."""
    return "\n\n".join([quick_card(entry, lang, glossary, heading), detail_card(entry, lang)])


def aspect_card(
    entry: GlossaryEntry, aspect: Literal["example", "usage"], lang: Lang, glossary: Glossary
) -> str:
    """Just an entry's example (or usage note), in the asker's language; its definition when it has none."""
    first = side(lang)
    heading = f"### {t(aspect, first)}: {names(entry, first)}"
    value = fields(entry, first)[aspect] or fields(entry, "hi")[aspect]
    if value is None:
        missing = t(f"no_{aspect}", first, term=escape_md(term(entry, first)))
        body = [missing, summary(entry, first)]
    else:
        body = [escape_md(value)]
    return "\n\n".join([heading, *body, cite(entry.source, lang, glossary)])


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


def comparison_card(entries: Sequence[GlossaryEntry], lang: Lang, glossary: Glossary) -> str:
    """Two or more entries side by side, plus any source table that covers them all."""
    first = side(lang)
    heading = f" {t('vs', first)} ".join(escape_md(term(e, first)) for e in entries)
    return "\n\n".join([f"### {heading}", "\n".join(_comparison_rows(entries, first, glossary))])


def faq_for(entry: GlossaryEntry, glossary: Glossary) -> list[FaqItem]:
    return [item for item in glossary.faq if entry.id in item.related]


def faq_text(item: FaqItem, lang: Side) -> tuple[str, str]:
    """(question, answer) in ``lang`` where the glossary has it, else in Hindi."""
    if lang == "en" and item.answer_en:
        return item.question_en, item.answer_en
    return item.question_hi, item.answer_hi


def _faq_block(items: Sequence[FaqItem], lang: Lang, glossary: Glossary) -> str:
    first = side(lang)
    lines = []
    for item in items:
        question, reply = faq_text(item, first)
        lines += [f"**{escape_md(question)}** {escape_md(reply)}", cite(item.source, lang, glossary)]
    return "\n\n".join([f"#### {t('faq', first)}", *lines]) if lines else ""


def more_card(entry: GlossaryEntry, lang: Lang, glossary: Glossary) -> str:
    """The full card, the FAQ answers that mention the entry, and its related terms."""
    first = side(lang)
    related = [glossary.get(r) for r in known(entry.related, glossary)]
    see_also = ", ".join(f"**{escape_md(term(r, first))}**" for r in related)
    parts = [
        entry_card(entry, lang, glossary),
        _faq_block(faq_for(entry, glossary), lang, glossary),
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


def _with_notice(text: str, notice: str | None) -> str:
    return f"> {escape_md(notice)}\n\n{text}" if notice else text


def _answer(
    text: str,
    entries: Sequence[GlossaryEntry],
    lang: Lang,
    hits: Sequence[Hit],
    related: list[str],
    notice: str | None,
    details: str = "",
    confidence: float | None = None,
    kind: AnswerKind = "answer",
) -> Answer:
    return Answer(
        text=_with_notice(text, notice),
        details=details,
        citations=[citation(e) for e in entries],
        abstained=False,
        lang=lang,
        hits=list(hits),
        notice=notice,
        related=related,
        confidence=confidence,
        label=None if confidence is None else confidence_label(confidence),
        kind=kind,
    )


def compose(
    hits: Sequence[Hit], lang: Lang, glossary: Glossary, confidence: float, notice: str | None = None
) -> Answer:
    """The quick card of the best hit (details collapsed); the following hits as sources and follow-ups.

    Below :data:`NEAR_MISS_CONFIDENCE` it is a near miss instead (:func:`near_miss`).
    """
    best, nearby = hits[0].entry, hits[1:]
    label = confidence_label(confidence)
    return _answer(
        quick_card(best, lang, glossary, label=label, confidence=confidence),
        [best],
        lang,
        hits[:ANSWER_SOURCES],
        suggest([best], nearby, glossary),
        notice,
        detail_card(best, lang),
        confidence,
    )


def _closest_list(entries: Sequence[GlossaryEntry], lang: Lang, glossary: Glossary) -> str:
    first = side(lang)
    return "\n".join(
        f"- **{escape_md(term(e, first))}** — {_snippet(e, first)} ({source_link(e.source, lang, glossary)})"
        for e in entries
    )


def near_miss(
    topic: str,
    hits: Sequence[Hit],
    lang: Lang,
    glossary: Glossary,
    confidence: float,
    notice: str | None = None,
) -> Answer:
    """ "The glossary has no entry for *topic*; the closest entries are ...": the entries are offered
    as what they are, not as a definition of what was asked."""
    first = side(lang)
    shown = [h.entry for h in hits[:DECLINE_SUGGESTIONS]]
    text = "\n\n".join(
        [
            # a percentage would read as the confidence in an answer to what was asked; it is the
            # confidence that the first entry is the nearest, which a near miss already says
            _label_line("closest", None, first),
            t("near_miss", first, topic=escape_md(topic)),
            _closest_list(shown, lang, glossary),
        ]
    )
    answer = _answer(
        text,
        shown,
        lang,
        hits[:ANSWER_SOURCES],
        suggest(shown, hits[len(shown) :], glossary),
        notice,
        confidence=confidence,
        kind="near miss",
    )
    return answer.model_copy(update={"label": "closest"})  # whatever the confidence: the entry was not asked


def compare(
    hits: Sequence[Hit],
    sides: int,
    lang: Lang,
    glossary: Glossary,
    missing: Sequence[str] = (),
    notice: str | None = None,
) -> Answer:
    """The first ``sides`` hits side by side (the sides of an "X vs Y (vs Z)" question); sides that
    name no entry are said, not dropped."""
    entries = [h.entry for h in hits[:sides]]
    first = side(lang)
    parts = [comparison_card(entries, lang, glossary), _missing_line(missing, first)]
    details = [
        "\n".join(_comparison_rows(entries, other(first), glossary)),
        *(source_table(tb, lang, glossary) for tb in tables_for(entries, glossary)),
    ]
    return _answer(
        "\n\n".join(p for p in parts if p),
        entries,
        lang,
        hits[: sides + 2],
        suggest(entries, hits[sides:], glossary),
        notice,
        "\n\n".join([f"#### {t('other', first)}", *details]),
        kind="comparison",
    )


def faq_answer(item: FaqItem, lang: Lang, glossary: Glossary, notice: str | None = None) -> Answer:
    """A how-to or problem question the glossary's FAQ answers: that answer first, then the entries
    it points to."""
    first = side(lang)
    question, reply = faq_text(item, first)
    entries = [glossary.get(i) for i in known(item.related, glossary)]
    text = "\n\n".join(
        [
            f"### {escape_md(question)}",
            f"**{escape_md(first_sentence(reply)[0])}** {escape_md(first_sentence(reply)[1])}".strip(),
            cite(item.source, lang, glossary),
        ]
    )
    details = "\n\n".join([f"#### {t('faq_entries', first)}", _closest_list(entries, lang, glossary)])
    return _answer(
        text,
        entries,
        lang,
        [],
        [e.id for e in entries][:MAX_RELATED],
        notice,
        details if entries else "",
        kind="faq",
    )


def remedy_answer(
    found: Sequence[Remedy], lang: Lang, glossary: Glossary, notice: str | None = None
) -> Answer:
    """A problem no entry names, answered with the entries whose own text addresses it: each with the
    sentence that does, so the asker sees why it is offered (not a definition of what was asked)."""
    first = side(lang)
    lines = [
        f"- **{escape_md(term(r.entry, first))}** — {escape_md(r.sentence)} "
        f"({source_link(r.entry.source, lang, glossary)})"
        for r in found
    ]
    entries = [r.entry for r in found]
    return _answer(
        "\n\n".join([t("remedies", first), "\n".join(lines)]),
        entries,
        lang,
        [],
        suggest(entries, [], glossary),
        notice,
        kind="remedy",
    )


def opposite(
    entry: GlossaryEntry,
    antonym: GlossaryEntry | None,
    lang: Lang,
    glossary: Glossary,
    notice: str | None = None,
) -> Answer:
    """ "The opposite of X": the antonym's card, or a plain statement that the glossary names none."""
    first = side(lang)
    shown = antonym or entry
    key = "opposite_of" if antonym else "no_opposite"
    text = "\n\n".join([t(key, first, term=escape_md(term(entry, first))), quick_card(shown, lang, glossary)])
    return _answer(
        text,
        [shown],
        lang,
        [],
        suggest([shown], [], glossary),
        notice,
        detail_card(shown, lang),
        kind="opposite",
    )


def small_talk(kind: str, lang: Lang) -> Answer:
    """A greeting, thanks or "who are you": a short friendly reply saying what the bot can do."""
    return Answer(
        text=t(f"small_talk_{kind}", lang), citations=[], abstained=False, lang=lang, kind="small talk"
    )


def focus(entries: Sequence[GlossaryEntry], aspect: Aspect, lang: Lang, glossary: Glossary) -> Answer:
    """A follow-up about entries answered before: their example, usage, or everything known."""
    if aspect == "more":
        cards = [more_card(e, lang, glossary) for e in entries]
    else:
        cards = [aspect_card(e, aspect, lang, glossary) for e in entries]
    return _answer(
        "\n\n".join(cards), entries, lang, [], suggest(entries, [], glossary), None, kind="follow-up"
    )


def decline(suggestions: Sequence[Hit], lang: Lang, notice: str | None = None) -> Answer:
    """Say plainly that the glossary does not cover the question, and offer the nearest terms."""
    first = side(lang)
    text = t("declined", first)
    listed = ", ".join(f"**{escape_md(term(h.entry, first))}**" for h in suggestions)
    if listed:
        text += " " + t("nearest", first, names=listed)
    return Answer(
        text=_with_notice(text, notice),
        citations=[],
        abstained=True,
        lang=lang,
        hits=list(suggestions),
        notice=notice,
        related=[h.entry.id for h in suggestions][:MAX_RELATED],
        kind="declined",
    )


def no_context(lang: Lang) -> Answer:
    """A follow-up ("give me an example") with no earlier answer to refer to."""
    return Answer(text=t("which_term", lang), citations=[], abstained=True, lang=lang, kind="no context")


def _snippet(entry: GlossaryEntry, lang: Side) -> str:
    text = first_sentence(fields(entry, lang)["definition"] or "")[0]
    return escape_md(text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…")


def sources_markdown(answer: Answer, glossary: Glossary) -> str:
    """The cited entries (and the nearby ones considered): title and line, a snippet of each
    definition, and the calibrated confidence of the first (raw fused scores mean nothing to a reader)."""
    first = side(answer.lang)
    rows = [(c.entry_id, t("cited", first)) for c in answer.citations]
    rows += [(h.entry.id, t("nearby", first)) for h in answer.hits if h.entry.id not in answer.entry_ids]
    if not rows:
        return "—"
    lines = []
    for n, (entry_id, role) in enumerate(rows, start=1):
        entry = glossary.get(entry_id)
        sure = ""
        if n == 1 and answer.confidence is not None:
            sure = f" · {t('confidence', first, percent=round(answer.confidence * 100))}"
        link = source_link(entry.source, answer.lang, glossary)
        lines.append(f"{n}. **{names(entry, first)}** ({role}{sure}) — {link}  \n   {_snippet(entry, first)}")
    return "\n".join(lines)
