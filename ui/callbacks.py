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

Every answer is recorded in the question store (``bot.records``) and its id kept on the server for
the session that was given it (``ui.votes``): a vote rates that record, never what the browser
sends back about the question or its entries.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Any

import gradio as gr

from bot import browse, dialogue
from bot.answer import MAX_RELATED, Answer, escape_md, sources_markdown, term, unescape_md
from bot.core import GlossaryBot
from bot.inputs import as_question
from bot.messages import Side, side, t
from bot.records import Store, StoreError, Vote
from bot.records import report as maintainers
from bot.records.answered import record
from bot.settings import Settings
from glossary import Glossary
from glossary.files import atomic_write
from ui.votes import RateLimit, SessionAnswers

log = logging.getLogger(__name__)

#: Related-term buttons under the chat: one per follow-up an answer offers.
N_RELATED = MAX_RELATED
#: A chat session's record of what its answers cite: answer text -> cited entry ids.
Cited = dict[str, list[str]]


def user_message(question: str, limit: int) -> dict:
    """The asker's message as shown in the chat: escaped, so it renders as the text typed."""
    return {"role": "user", "content": escape_md(question[:limit])}


def reply_messages(answer: Answer, glossary: Glossary) -> list[dict]:
    """The quick answer (the same text as ``/ask``), then collapsed Details and Sources blocks."""
    messages: list[dict[str, Any]] = [{"role": "assistant", "content": answer.text}]
    if answer.details:
        messages.append(
            {
                "role": "assistant",
                "content": answer.details,
                "metadata": {"title": t("details", answer.lang), "status": "done"},
            }
        )
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


def question_at(history: list[dict], index: int) -> tuple[str, int] | None:
    """The asker's question at or before message ``index`` and its position (None before any)."""
    asked = [i for i, m in enumerate(history[: index + 1]) if m.get("role") == "user"]
    if not asked:
        return None
    return unescape_md(dialogue.message_text(history[asked[-1]])), asked[-1]


def _position(index: int | tuple[int, int]) -> int:
    """A chat event's message index (Gradio gives (row, column) for some events)."""
    return index[0] if isinstance(index, tuple) else index


def related_labels(answer: Answer, glossary: Glossary) -> list[str]:
    """Button labels for the answer's follow-up terms, in the answer's language (asking = the name)."""
    return [term(glossary.get(i), side(answer.lang)) for i in answer.related][:N_RELATED]


def show_related(labels: list[str]) -> list[dict]:
    """The related-terms note and one button per label (the rest hidden)."""
    padded = labels + [""] * (N_RELATED - len(labels))
    return [gr.update(visible=bool(labels))] + [gr.update(value=v, visible=bool(v)) for v in padded]


class Callbacks:
    """The app's event handlers around one bot and its settings."""

    def __init__(self, bot: GlossaryBot, settings: Settings, store: Store) -> None:
        self.bot = bot
        self.settings = settings
        self.store = store
        self.answered = SessionAnswers()
        self.vote_limit = RateLimit(settings.votes_per_minute)

    def respond(
        self,
        message: str,
        history: list[dict],
        labels: list[str],
        cited: Cited,
        request: gr.Request,
        ui_lang: Side | None = None,
    ) -> tuple[str, list[dict], list[str], Cited]:
        """A question typed or clicked: (cleared box, history with the answer, related-term labels,
        the record of cited entries with this answer's). ``ui_lang``, the interface language, is the
        answer's language for a question whose own language cannot be told (a bare "dropout")."""
        message = as_question(message)
        history = history[-self.settings.max_history_messages :]
        if not message.strip():
            return "", history, labels, cited
        live = self.bot.pinned()
        answer = live.answer(message, with_citations(history, cited), preferred=ui_lang)
        answer_id = record(self.store, live, message, answer, "chat")
        if answer_id is not None:
            self.answered.remember(_session(request), answer.text, answer_id)
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

    def retry(
        self,
        history: list[dict],
        labels: list[str],
        cited: Cited,
        ui_lang: Side,
        data: gr.RetryData,
        request: gr.Request,
    ) -> tuple[str, list[dict], list[str], Cited]:
        """Ask the retried message's question again, in place of its answer and all that followed."""
        return self._ask_again(history, labels, cited, (ui_lang, request), data.index, None)

    def edit(
        self,
        history: list[dict],
        labels: list[str],
        cited: Cited,
        ui_lang: Side,
        data: gr.EditData,
        request: gr.Request,
    ) -> tuple[str, list[dict], list[str], Cited]:
        """Ask the edited text in place of the edited question, its answer and all that followed.
        (A handler per event: Gradio fills an event-data parameter only when its type is one class.)"""
        return self._ask_again(history, labels, cited, (ui_lang, request), data.index, str(data.value))

    def _ask_again(
        self,
        history: list[dict],
        labels: list[str],
        cited: Cited,
        asker: tuple[Side, gr.Request],
        index: int | tuple[int, int],
        text: str | None,
    ) -> tuple[str, list[dict], list[str], Cited]:
        """The chat with the question at ``index`` asked again (as ``text`` if edited); unchanged if
        there is no question there."""
        found = question_at(history, _position(index))
        if found is None:
            return "", history, labels, cited
        ui_lang, request = asker
        question = text if text is not None else found[0]
        return self.respond(question, history[: found[1]], [], cited, request, ui_lang)

    @staticmethod
    def undo(history: list[dict], data: gr.UndoData) -> tuple[str, list[dict], list[str]]:
        """Take back the last question: it goes back into the box, its answer out of the chat."""
        found = question_at(history, _position(data.index))
        if found is None:
            return "", history, []
        return found[0], history[: found[1]], []

    @staticmethod
    def clear() -> tuple[list[dict], list[str], Cited, None, dict, str]:
        """A cleared chat: no history kept, no related terms, no pending vote."""
        return [], [], {}, None, gr.update(visible=False), ""

    @staticmethod
    def restore(saved: list[dict] | None) -> list[dict]:
        """The conversation this browser kept (``gr.BrowserState``) back in the chat after a reload."""
        return saved if isinstance(saved, list) else []

    @staticmethod
    def keep(history: list[dict]) -> list[dict]:
        """The conversation as this browser stores it (nothing is kept on the server)."""
        return history

    @staticmethod
    def saved_lang(saved: str | None) -> str:
        """The interface language this browser chose last time (English when none or unknown)."""
        return saved if saved in ("en", "hi") else "en"

    @staticmethod
    def keep_lang(lang: Side) -> Side:
        return lang

    def ask(self, question: str) -> str:
        """Answer one question; returns the answer as markdown (the same text as the CLI)."""
        answer = self.bot.answer(as_question(question))
        record(self.store, self.bot, as_question(question), answer, "api")
        return answer.text

    def vote(
        self, history: list[dict], cited: Cited, lang: Side, data: gr.LikeData, request: gr.Request
    ) -> tuple[dict | None, dict, str]:
        """A like or dislike: saved at once; (pending vote for a comment, comment row, status line).

        Only an answer this session was given can be rated (``ui.votes``); one vote per answer, a
        later one replacing it; at most ``votes_per_minute`` votes and comments per session.
        """
        if not isinstance(data.liked, bool):  # a vote taken back: nothing to record
            return None, gr.update(visible=False), ""
        position = data.index[0] if isinstance(data.index, list | tuple) else data.index
        answer_id = self._voted_answer(history, position, _session(request))
        if answer_id is None:
            return None, gr.update(visible=False), t("feedback_unknown", lang)
        vote: Vote = "like" if data.liked else "dislike"
        status = self._save(request, answer_id, vote, None, lang)
        if status is not None:
            return None, gr.update(visible=False), status
        return {"answer_id": answer_id, "vote": vote}, gr.update(visible=True), t(f"vote_{vote}", lang)

    def comment(
        self, comment: str, pending: dict | None, lang: Side, request: gr.Request
    ) -> tuple[dict | None, dict, str, str]:
        """A comment on the pending vote: (pending vote, comment row, comment box, status line)."""
        if not pending or not comment.strip():
            return pending, gr.update(), "", ""
        text = comment[: self.settings.max_comment_chars]
        status = self._save(request, pending["answer_id"], pending["vote"], text, lang)
        if status is not None:
            return pending, gr.update(), comment, status
        return None, gr.update(visible=False), "", t("comment_saved", lang)

    def _voted_answer(self, history: list[dict], position: object, session: str) -> str | None:
        """The store's id of the answer at ``position`` of the history (or of the answer a Sources block
        belongs to), if this session was given it; None for an impossible position or a forged answer."""
        if not isinstance(position, int) or not 0 <= position < len(history):
            return None
        for message in reversed(history[: position + 1]):
            if not isinstance(message, dict) or message.get("role") != "assistant":
                return None
            if dialogue.is_answer(message):
                return self.answered.lookup(session, dialogue.message_text(message))
        return None

    def _save(
        self, request: gr.Request, answer_id: str, vote: Vote, comment: str | None, lang: Side
    ) -> str | None:
        """Record a vote or comment; None when saved, else the status line to show (the reason logged)."""
        if not self.vote_limit.allow(_session(request)):
            return t("feedback_too_fast", lang)
        try:
            self.store.record_vote(answer_id, vote, comment)
        except StoreError as exc:
            log.error("vote not recorded: %s", exc)
            return t("feedback_failed", lang)
        return None

    def report_file(self) -> dict:
        """The maintainers' report over everything recorded, as a markdown file to download."""
        path = Path(tempfile.gettempdir()) / f"glossary-bot-report-{os.getpid()}.md"
        atomic_write(path, maintainers.to_markdown(maintainers.build(self.store, self.bot)).encode())
        return gr.update(value=str(path), visible=True)

    def refilter(self, query: str, category: str, lang: Side) -> str:
        """The Browse listing for a filter text and a category, read with the bot's spelling correction."""
        view = self.bot.pinned()
        return browse.listing(
            view.glossary, query or "", category or browse.ALL, lang, view.retriever.lexical
        )

    def pages(self, lang: Side, query: str, category: str) -> tuple[dict, str, str]:
        """The glossary-dependent parts of Browse and About, for a new page or a new interface language:
        (category filter, listing, about). A page opened after a reload shows the glossary served now."""
        glossary = self.bot.glossary
        filter_update = gr.update(label=t("category", lang), choices=browse.categories(glossary, lang))
        return filter_update, self.refilter(query, category, lang), browse.about(glossary, lang)


def _session(request: gr.Request) -> str:
    """The chat session a request belongs to (Gradio's session hash; one key for callers without one)."""
    return request.session_hash or ""
