"""What the app does when the asker acts: asks, clicks a related term, votes, comments, filters.

The event handlers are methods of :class:`Callbacks`, which holds the bot and the settings. Each
reads the glossary the bot serves at that moment, so a reload shows up everywhere (an answer is
rendered with the glossary that produced it). The message builders are plain functions: the same
chat messages are built by the tests and the load harness.

Which entries each answer cites is kept as data, not re-read from its markdown: a session state
(:data:`Cited`) maps each answer's text to its entry ids, and before the bot reads the history
they are put back into the answers' ``metadata`` (Gradio's chatbot keeps only the metadata keys
it knows, so they cannot travel in the chat itself). A history the session did not produce, from
an API caller, is read back from its citations by ``bot.dialogue``.
"""

from __future__ import annotations

import logging
from typing import Any

import gradio as gr

from bot import browse, dialogue, feedback
from bot.answer import MAX_RELATED, Answer, escape_md, sources_markdown, term
from bot.core import GlossaryBot
from bot.inputs import as_question
from bot.messages import Side, side, t
from bot.settings import Settings
from glossary import Glossary

log = logging.getLogger(__name__)

#: Related-term buttons under the chat: one per follow-up an answer offers.
N_RELATED = MAX_RELATED
#: A chat session's record of what its answers cite: answer text -> cited entry ids.
Cited = dict[str, list[str]]


def user_message(question: str, limit: int) -> dict:
    """The asker's message as shown in the chat: escaped, so it renders as the text typed."""
    return {"role": "user", "content": escape_md(question[:limit])}


def reply_messages(answer: Answer, glossary: Glossary) -> list[dict]:
    """The answer (the same text as the CLI and ``/ask``), then a collapsible Sources block."""
    messages: list[dict[str, Any]] = [{"role": "assistant", "content": answer.text}]
    if answer.citations or answer.hits:
        messages.append(
            {
                "role": "assistant",
                "content": sources_markdown(answer, glossary),
                "metadata": {"title": t("sources", answer.lang), "status": "done"},
            }
        )
    return messages


def with_citations(history: list[dict], cited: Cited) -> list[dict]:
    """The history with the entry ids this session recorded for each answer in its ``metadata``."""
    return [
        {**m, "metadata": {**(m.get("metadata") or {}), dialogue.CITED_KEY: cited[text]}}
        if dialogue.is_answer(m) and (text := dialogue.message_text(m)) in cited
        else m
        for m in history
    ]


def related_labels(answer: Answer, glossary: Glossary) -> list[str]:
    """Button labels for the answer's follow-up terms, in the answer's language (asking = the name)."""
    return [term(glossary.get(i), side(answer.lang)) for i in answer.related][:N_RELATED]


def show_related(labels: list[str]) -> list[dict]:
    """The related-terms note and one button per label (the rest hidden)."""
    padded = labels + [""] * (N_RELATED - len(labels))
    return [gr.update(visible=bool(labels))] + [gr.update(value=v, visible=bool(v)) for v in padded]


class Callbacks:
    """The app's event handlers around one bot and its settings."""

    def __init__(self, bot: GlossaryBot, settings: Settings) -> None:
        self.bot = bot
        self.settings = settings

    def respond(
        self, message: str, history: list[dict], labels: list[str], cited: Cited
    ) -> tuple[str, list[dict], list[str], Cited]:
        """A question typed or clicked: (cleared box, history with the answer, related-term labels,
        the record of cited entries with this answer's)."""
        message = as_question(message)
        history = history[-self.settings.max_history_messages :]
        if not message.strip():
            return "", history, labels, cited
        live = self.bot.pinned()
        answer = live.answer(message, with_citations(history, cited))
        shown = [
            user_message(message, self.settings.max_question_chars),
            *reply_messages(answer, live.glossary),
        ]
        return (
            "",
            [*history, *shown],
            related_labels(answer, live.glossary),
            {**cited, answer.text: answer.entry_ids},
        )

    def ask(self, question: str) -> str:
        """Answer one question; returns the answer as markdown (the same text as the CLI)."""
        return self.bot.answer(as_question(question)).text

    def vote(
        self, history: list[dict], cited: Cited, lang: Side, data: gr.LikeData
    ) -> tuple[dict | None, dict, str]:
        """A like or dislike: saved at once; (pending vote for a comment, comment row, status line)."""
        if not isinstance(data.liked, bool):  # a vote taken back: nothing to record
            return None, gr.update(visible=False), ""
        position = data.index[0] if isinstance(data.index, list | tuple) else data.index
        turn = dialogue.turn_at(with_citations(history, cited), int(position), self.bot.citations)
        vote: feedback.Vote = "like" if data.liked else "dislike"
        item = feedback.record(turn.question if turn else "", list(turn.entry_ids) if turn else [], vote)
        if not self._save(item):
            return None, gr.update(visible=False), t("feedback_failed", lang)
        return item.model_dump(), gr.update(visible=True), t(f"vote_{vote}", lang)

    def comment(self, comment: str, pending: dict | None, lang: Side) -> tuple[dict | None, dict, str, str]:
        """A comment on the pending vote: (pending vote, comment row, comment box, status line)."""
        if not pending or not comment.strip():
            return pending, gr.update(), "", ""
        item = feedback.record(
            pending["question"], pending["entry_ids"], pending["vote"], comment, pending["vote_id"]
        )
        if not self._save(item):
            return pending, gr.update(), comment, t("feedback_failed", lang)
        return None, gr.update(visible=False), "", t("comment_saved", lang)

    def _save(self, item: feedback.FeedbackRecord) -> bool:
        """Append a vote or comment to the feedback file; False (logged) when it cannot be written."""
        try:
            feedback.append(self.settings.feedback_path, item)
        except feedback.FeedbackError as exc:
            log.error("%s", exc)
            return False
        return True

    def refilter(self, query: str, category: str, lang: Side) -> str:
        """The Browse listing for a filter text and a category."""
        return browse.listing(self.bot.glossary, query or "", category or browse.ALL, lang)

    def pages(self, lang: Side, query: str, category: str) -> tuple[dict, str, str]:
        """The glossary-dependent parts of Browse and About, for a new page or a new interface language:
        (category filter, listing, about). A page opened after a reload shows the glossary served now."""
        glossary = self.bot.glossary
        filter_update = gr.update(label=t("category", lang), choices=browse.categories(glossary, lang))
        return filter_update, self.refilter(query, category, lang), browse.about(glossary, lang)
