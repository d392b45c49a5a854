"""The chat's messages: built from answers, and read back from the history the browser sends.

Plain functions of the answer and the glossary, so the tests and the load harness build the same
messages the app shows (``ui.callbacks`` calls them from its event handlers).
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from bot.identity import is_bundled
from bot.markdown import escape_md, unescape_md
from bot.reply.answer import Answer
from bot.reply.cards import MAX_RELATED, term
from bot.reply.messages import t
from bot.reply.sources import sources_markdown
from bot.understand import dialogue
from bot.understand.text import Side, side
from glossary import Glossary

#: Related-term buttons under the chat: one per follow-up an answer offers.
N_RELATED = MAX_RELATED
#: A chat session's record of what its answers cite: answer text -> cited entry ids.
Cited = dict[str, list[str]]


def user_message(question: str, limit: int) -> dict:
    """The asker's message as shown in the chat: escaped, so it renders as the text typed."""
    return {"role": "user", "content": escape_md(question[:limit])}


def reply_messages(answer: Answer, glossary: Glossary, ui: Side | None = None) -> list[dict]:
    """The quick answer (the same text as ``/ask``), then collapsed Details and Sources blocks, whose
    titles and labels are in the interface language ``ui`` (the answer's when not given)."""
    labels = ui or side(answer.lang)
    messages: list[dict[str, Any]] = [{"role": "assistant", "content": answer.text}]
    if answer.details:
        messages.append(
            {
                "role": "assistant",
                "content": answer.details,
                "metadata": {"title": _details_title(glossary, labels), "status": "done"},
            }
        )
    if answer.citations or answer.hits:
        messages.append(
            {
                "role": "assistant",
                "content": sources_markdown(answer, glossary, ui),
                "metadata": {"title": t("sources", labels), "status": "done"},
            }
        )
    return messages


def _details_title(glossary: Glossary, lang: Side) -> str:
    """The Details block's title: what it holds (the bundled glossary's other language is its Hindi
    original or the project's English translation)."""
    return t("details", lang) if is_bundled(glossary) else t("details_other", lang)


def with_citations(history: list[dict], cited: Cited) -> list[dict]:
    """The history with the entry ids this session recorded for each answer in its ``metadata``."""
    return [
        {**m, "metadata": {**(m.get("metadata") or {}), dialogue.CITED_KEY: cited[text]}}
        if dialogue.is_answer(m) and (text := dialogue.message_text(m)) in cited
        else m
        for m in history
    ]


def question_at(history: list[dict], index: int) -> tuple[str, int] | None:
    """The asker's question at or before message ``index`` and its position (None before any)."""
    asked = [i for i, m in enumerate(history[: index + 1]) if m.get("role") == "user"]
    if not asked:
        return None
    return unescape_md(dialogue.message_text(history[asked[-1]])), asked[-1]


def position(index: int | tuple[int, int]) -> int:
    """A chat event's message index (Gradio gives (row, column) for some events)."""
    return index[0] if isinstance(index, tuple) else index


def related_labels(answer: Answer, glossary: Glossary) -> list[str]:
    """Button labels for the answer's follow-up terms, in the answer's language (asking = the name)."""
    return [term(glossary.get(i), side(answer.lang)) for i in answer.related][:N_RELATED]


def ready_to_ask() -> tuple[dict, dict]:
    """The question box, taking questions, and the examples, shown, once the page's kept chat is back
    in it. The chat a page restores when it opens (``Callbacks.opened``) replaces the chat shown: on
    a busy server it came back after a first question had been answered and erased it (two browser
    tests in one run of the whole suite beside another), so nothing asks until then."""
    return gr.update(interactive=True), gr.update(visible=True)


def show_related(labels: list[str]) -> list[dict]:
    """The related-terms note and one button per label (the rest hidden)."""
    padded = labels + [""] * (N_RELATED - len(labels))
    return [gr.update(visible=bool(labels))] + [gr.update(value=v, visible=bool(v)) for v in padded]
