"""An answer as plain text for a support ticket, and the links that open it again.

A support agent pastes the answer into a ticket or a mail, where markdown shows as asterisks and a
relative citation link (``source/doc?line=5``) leads nowhere. So the copy is built from the typed
:class:`~bot.reply.answer.Answer` (its kind, cited entries, FAQ item, remedy sentences), never read back
from the rendered markdown: the term, the definition's first sentence (or the FAQ's answer), the
usage line when the question was a how-to, and one absolute citation URL, in the answer's
language. "With details" adds the rest of each entry and every source with its rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlencode

import regex
from pydantic import BaseModel, ConfigDict

from bot.markdown import source_target
from bot.reply.answer import Answer
from bot.reply.cards import fields, known, term
from bot.reply.faq import faq_text
from bot.reply.messages import t
from bot.understand.text import Side, other, side
from glossary import Glossary, GlossaryEntry, Source
from index.sentences import first_sentence

#: Emphasis marks of the interface's own catalog texts (never glossary text), dropped in plain text.
_EMPHASIS = regex.compile(r"(?<!\\)[*_]{1,2}")
#: Kinds whose first cited entry is the answer, shown as its card.
_CARD_KINDS = frozenset({"answer", "opposite", "follow-up"})
#: The line above the entries a near miss offers, by what it says of them.
PLAIN_LINES = {"near miss": "near_miss_plain", "unsure": "near_miss_unsure_plain"}


class Ticket(BaseModel):
    """What the copy actions of one answer put on the clipboard."""

    model_config = ConfigDict(frozen=True)

    plain: str
    full: str
    link: str


def source_url(base: str, source: Source) -> str:
    """The absolute address of the app's source view of a cited line."""
    return f"{base}/{source_target(source)}"


def share_url(base: str, question: str, lang: Side) -> str:
    """A link that opens the app and asks ``question`` again, answered in ``lang``."""
    return f"{base}/?{urlencode({'q': question, 'lang': lang})}"


def entry_url(base: str, entry_id: str) -> str:
    """An entry's permalink: the app opens with its card in the chat."""
    return f"{base}/?{urlencode({'entry': entry_id})}"


def _unmark(catalog_text: str) -> str:
    return _EMPHASIS.sub("", catalog_text)


def _name(entry: GlossaryEntry, lang: Side) -> str:
    first, second = term(entry, lang), term(entry, other(lang))
    return first if first == second else f"{first} ({second})"


def _field(entry: GlossaryEntry, key: str, lang: Side) -> str | None:
    """A field in ``lang``, or in the other language when the entry has it only there."""
    return fields(entry, lang)[key] or fields(entry, other(lang))[key]


def _summary(entry: GlossaryEntry, lang: Side) -> str:
    return first_sentence(_field(entry, "definition", lang) or "")[0]


def _lead(answer: Answer, entries: Sequence[GlossaryEntry], glossary: Glossary, how_to: bool) -> list[str]:
    """The lines a ticket needs, without the citation."""
    lang = side(answer.lang)
    if answer.kind == "faq" and answer.faq_id is not None:
        item = next(i for i in glossary.faq if i.id == answer.faq_id)
        return list(faq_text(item, lang))
    if answer.kind == "remedy":
        return [_unmark(t("remedies", lang))] + [
            f"- {_name(e, lang)}: {answer.advice.get(e.id, _summary(e, lang))}" for e in entries
        ]
    if answer.kind in _CARD_KINDS and entries:
        entry = entries[0]
        lines = [_name(entry, lang), _summary(entry, lang)]
        usage = answer.advice.get(entry.id) or _field(entry, "usage", lang)
        if how_to and usage:
            lines.append(f"{t('usage', lang)}: {usage}")
        return lines
    if entries:  # a comparison or a near miss (sure or not): each entry with its first sentence
        said = PLAIN_LINES.get(answer.kind, "near_miss_plain")
        head = [] if answer.kind in {"comparison", "list"} else [_unmark(t(said, lang))]
        return head + [f"- {_name(e, lang)}: {_summary(e, lang)}" for e in entries]
    if answer.kind == "declined":
        names = ", ".join(term(h.entry, lang) for h in answer.hits)
        return [_unmark(t("declined", lang))] + ([_unmark(t("nearest", lang, names=names))] if names else [])
    return [_unmark(answer.text)]  # small talk, "which term?": the catalog's own text


def _citation(answer: Answer, entries: Sequence[GlossaryEntry], glossary: Glossary) -> Source | None:
    if answer.kind == "faq" and answer.faq_id is not None:
        return next(i.source for i in glossary.faq if i.id == answer.faq_id)
    return entries[0].source if entries else None


def _entry_details(entry: GlossaryEntry, lang: Side) -> list[str]:
    """Everything an entry says, in ``lang`` then the other language."""
    lines = [f"== {_name(entry, lang)} =="]
    for first in (lang, other(lang)):
        values = fields(entry, first)
        lines += [f"{t(k, first)}: {v}" for k in ("definition", "usage", "example") if (v := values[k])]
        lines += [f"{t('notes', first)}: {n}" for n in (entry.notes_hi if first == "hi" else entry.notes_en)]
    return lines


def _sources(answer: Answer, glossary: Glossary, base: str) -> list[str]:
    """Every source of the answer, ranked, with its absolute URL."""
    lang = side(answer.lang)
    ids = list(dict.fromkeys([*answer.entry_ids, *(h.entry.id for h in answer.hits)]))
    rows = []
    for rank, entry_id in enumerate(known(ids, glossary), start=1):
        entry = glossary.get(entry_id)
        role = t("cited", lang) if entry_id in answer.entry_ids else t("nearby", lang)
        rows.append(f"{rank}. {_name(entry, lang)} ({role}): {source_url(base, entry.source)}")
    return [t("sources", lang) + ":", *rows] if rows else []


def build(answer: Answer, question: str, glossary: Glossary, base: str, how_to: bool) -> Ticket:
    """The plain and detailed copies of ``answer`` and the link that asks ``question`` again.

    ``base`` is the app's absolute address (no trailing slash); ``how_to`` says whether the question
    asked how to do something, which puts the entry's usage line into the plain copy.
    """
    entries = [glossary.get(i) for i in known(answer.entry_ids, glossary)]
    lines = _lead(answer, entries, glossary, how_to)
    cited = _citation(answer, entries, glossary)
    url = [source_url(base, cited)] if cited is not None else []
    plain = "\n".join([*lines, *url])
    details = [line for e in entries for line in _entry_details(e, side(answer.lang))]
    full = "\n\n".join(
        p for p in (plain, "\n".join(details), "\n".join(_sources(answer, glossary, base))) if p
    )
    return Ticket(plain=plain, full=full, link=share_url(base, question, side(answer.lang)))
