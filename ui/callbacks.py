"""What the app does when the asker acts: asks, clicks a related term, votes, comments, filters.

The event handlers are methods of :class:`Callbacks`, which holds the bot and the settings. Each
reads the glossary the bot serves at that moment, so a reload shows up everywhere (an answer is
rendered with the glossary that produced it). The chat messages themselves are built by ``ui.chat``.

Which entries each answer cites is kept as data, not re-read from its markdown: a session state
(:data:`Cited`) maps each answer's text to its entry ids, and before the bot reads the history
they are put back into the answers' ``metadata`` (Gradio's chatbot keeps only the metadata keys
it knows, so they cannot travel in the chat itself). A history the session did not produce, from
an API caller, is read back from its citations by ``bot.understand.dialogue``.

Every answer is recorded in the question store (``bot.records``) and its id kept on the server for
the session that was given it (``ui.votes``): a vote rates that record, never what the browser
sends back about the question or its entries.
"""

from __future__ import annotations

import json
import logging
import secrets
import uuid
from functools import partial

import gradio as gr

from bot.core import GlossaryBot
from bot.inputs import as_question
from bot.lookup import browse
from bot.records import StoreError, UnknownAnswer, Vote
from bot.records.answered import record
from bot.records.writer import Recorder, StoreUnavailable
from bot.reply.answer import Answer
from bot.reply.cards import suggest, term
from bot.reply.messages import t
from bot.settings import Settings
from bot.understand import dialogue
from bot.understand.cues import follow_up_cues
from bot.understand.text import Side, detect_lang, side
from ui import links
from ui.admission import Busy, Lanes
from ui.chat import (
    N_RELATED,
    Cited,
    position,
    question_at,
    related_labels,
    reply_messages,
    user_message,
    with_citations,
)
from ui.desk import Desk, Tickets, base_url, with_id
from ui.votes import Browsers, RateLimit, SessionAnswers

log = logging.getLogger(__name__)

#: Hex characters of the key a browser keeps to be recognised after a reload.
BROWSER_KEY_CHARS = 32


class Callbacks:
    """The app's event handlers around one bot and its settings."""

    def __init__(
        self, bot: GlossaryBot, settings: Settings, store: Recorder, lanes: Lanes | None = None
    ) -> None:
        self.bot = bot
        self.settings = settings
        self.store = store
        self.lanes = lanes or Lanes.for_settings(
            settings.concurrency_limit, settings.api_concurrency_limit, settings.queue_max_size
        )
        self.answered = SessionAnswers()
        self.vote_limit = RateLimit(settings.votes_per_minute)
        self.desk = Desk()
        self.browsers = Browsers()

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
        known = with_citations(history, cited)
        work = partial(live.answer, message, known, lang=_answer_lang(message, ui_lang), preferred=ui_lang)
        try:
            answer = self.lanes.run_chat(live.encoded_text(message, known), _session(request) or "", work)
        except Busy:
            raise gr.Error(t("chat_busy", ui_lang or "en"), print_exception=False) from None
        return self._deliver(message, answer, live, (history, cited), request, ui_lang)

    def _deliver(
        self,
        message: str,
        answer: Answer,
        live: GlossaryBot,
        chat: tuple[list[dict], Cited],
        request: gr.Request,
        ui_lang: Side | None = None,
    ) -> tuple[str, list[dict], list[str], Cited]:
        """Record ``answer`` to ``message`` and add both to the chat (the answer carrying its id)."""
        history, cited = chat
        key = self._browser(request)
        answer_id = record(self.store, live, message, answer, "chat")
        if answer_id is not None and key is not None:  # a sessionless caller cannot vote on it
            self.answered.remember(key, answer.text, answer_id)
            self.answered.remember(key, _by_id(answer_id), answer_id)
        shown_id = answer_id or uuid.uuid4().hex
        if key is not None:
            base = base_url(request, self.settings)
            self.desk.remember(key, shown_id, answer, message, live.glossary, base)
        shown = [
            user_message(message, self.settings.max_question_chars),
            *with_id(reply_messages(answer, live.glossary, ui_lang), shown_id),
        ]
        return (
            "",
            [*history, *shown],
            related_labels(answer, live.glossary),
            {**cited, answer.text: answer.entry_ids},
        )

    def opened(
        self, saved: list[dict] | None, lang: str | None, browser: str | None, request: gr.Request
    ) -> tuple[list[dict], list[str], Cited, str]:
        """The page opened: (chat, related terms, cited entries, the browser's key). The conversation
        this browser kept, then what a link asks for, if any (``?entry=<id>``: that entry's card in
        the interface language; ``?q=…&lang=…``: the question). The browser's key (made on its first
        visit) binds this session to the answers it was given before a reload."""
        browser = browser if isinstance(browser, str) and len(browser) == BROWSER_KEY_CHARS else None
        browser = browser or secrets.token_hex(BROWSER_KEY_CHARS // 2)
        if (session := _session(request)) is not None:
            self.browsers.bind(session, browser)
        history = self.restore(saved)
        ui_lang: Side = "hi" if self.saved_lang(lang) == "hi" else "en"
        params = request.query_params
        live = self.bot.pinned()
        if entry_id := params.get("entry"):
            question, answer = links.entry_answer(entry_id, ui_lang, live.glossary)
            _, shown, labels, cited = self._deliver(question, answer, live, (history, {}), request, ui_lang)
            return shown, labels, cited, browser
        if question := params.get("q"):
            linked = params.get("lang")
            asked: Side = linked if linked in ("en", "hi") else ui_lang  # the link's language first
            _, shown, labels, cited = self.respond(question, history, [], {}, request, asked)
            return shown, labels, cited, browser
        return history, self._restored_related(history, ui_lang), {}, browser

    def _restored_related(self, history: list[dict], lang: Side) -> list[str]:
        """Follow-up terms for the last answer of a restored chat: its cited entries' related terms."""
        answers = [m for m in history if isinstance(m, dict) and dialogue.is_answer(m)]
        if not answers:
            return []
        live = self.bot.pinned()
        entries = [live.glossary.get(i) for i in dialogue.cited_ids(answers[-1], live.citations)]
        return [term(live.glossary.get(i), lang) for i in suggest(entries, [], live.glossary)][:N_RELATED]

    def retry(
        self,
        history: list[dict],
        labels: list[str],
        cited: Cited,
        ui_lang: Side,
        data: gr.RetryData,
        request: gr.Request,
    ) -> tuple[str, list[dict], list[str], Cited]:
        """The retried message's question answered with the next-best entry ("not this one"), in place
        of its answer and all that followed; asked again when there is no other entry."""
        found = question_at(history, position(data.index))
        later = links.later_turns(history, found[1]) if found else []
        answers = (
            [m for m in history[found[1] : len(history) - len(later)] if dialogue.is_answer(m)]
            if found
            else []
        )
        if found is None or not answers:
            return self._ask_again(history, labels, cited, (ui_lang, request), data.index, None)
        live = self.bot.pinned()
        shown = dialogue.cited_ids(answers[0], live.citations)
        lang = _answer_lang(found[0], ui_lang) or side(detect_lang(found[0]))
        try:
            answer = (
                self.lanes.for_chat(found[0]).run(partial(links.next_best, found[0], shown, lang, live))
                if shown
                else None
            )
        except Busy:
            raise gr.Error(t("chat_busy", ui_lang or "en"), print_exception=False) from None
        if answer is None:
            return self._ask_again(history, labels, cited, (ui_lang, request), data.index, None)
        return self._deliver(found[0], answer, live, (history[: found[1]], cited), request, ui_lang)

    def edit(
        self,
        history: list[dict],
        labels: list[str],
        cited: Cited,
        ui_lang: Side,
        data: gr.EditData,
        request: gr.Request,
    ) -> tuple[str, list[dict], list[str], Cited]:
        """Ask the edited text in place of the edited question and its answer. The later turns stay
        when their questions stand on their own; when one refers back, they go and the answer says so.
        (A handler per event: Gradio fills an event-data parameter only when its type is one class.)"""
        found = question_at(history, position(data.index))
        later = links.later_turns(history, found[1]) if found else []
        box, asked, related, cited = self._ask_again(
            history, labels, cited, (ui_lang, request), data.index, str(data.value)
        )
        if not later:
            return box, asked, related, cited
        if links.independent(later):
            return box, [*asked, *later], labels, cited
        dropped = t("edit_dropped", ui_lang)
        note = {"role": "assistant", "content": dropped, "metadata": {"title": dropped, "status": "done"}}
        return box, [*asked, note], related, cited

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
        found = question_at(history, position(index))
        if found is None:
            return "", history, labels, cited
        ui_lang, request = asker
        question = text if text is not None else found[0]
        return self.respond(question, history[: found[1]], [], cited, request, ui_lang)

    @staticmethod
    def undo(history: list[dict], data: gr.UndoData) -> tuple[str, list[dict], list[str]]:
        """Take back the last question: it goes back into the box, its answer out of the chat."""
        found = question_at(history, position(data.index))
        if found is None:
            return "", history, []
        return found[0], history[: found[1]], []

    @staticmethod
    def close_comment() -> tuple[None, dict, str]:
        """A new answer arrived: the comment row of an earlier vote closes (it belongs to that message)."""
        return None, gr.update(visible=False), ""

    @staticmethod
    def clear() -> tuple[list[dict], list[str], Cited, None, dict, str]:
        """A cleared chat: no history kept, no related terms, no pending vote."""
        return [], [], {}, None, gr.update(visible=False), ""

    @staticmethod
    def restore(saved: list[dict] | None) -> list[dict]:
        """The conversation this browser kept (``gr.BrowserState``) back in the chat after a reload."""
        return saved if isinstance(saved, list) else []

    def keep(
        self, history: list[dict], tickets: Tickets | None, request: gr.Request
    ) -> tuple[list[dict], Tickets, str]:
        """The conversation and its answers' tickets as this browser stores them, and the ticket of
        each answer in the chat for the page's copy actions (``ui.desk``), as JSON."""
        kept, shown = self.desk.shown(history, tickets, self._browser(request) or "")
        return history, kept, json.dumps(shown, ensure_ascii=False)

    @staticmethod
    def saved_lang(saved: str | None) -> str:
        """The interface language this browser chose last time (English when none or unknown)."""
        return saved if saved in ("en", "hi") else "en"

    @staticmethod
    def keep_lang(lang: Side) -> Side:
        return lang

    def ask(self, question: str, request: gr.Request) -> str:
        """Answer one question; returns the answer as markdown (the same text as the CLI). Through the
        lanes like the chat: a long question waits in the long lane (or is told the app is busy)."""
        question = as_question(question)
        live = self.bot.pinned()
        try:
            answer = self.lanes.run_chat(
                live.encoded_text(question), _session(request) or "", partial(live.answer, question)
            )
        except Busy:
            raise gr.Error(t("chat_busy", "en"), print_exception=False) from None
        record(self.store, live, question, answer, "api")
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
        session = _session(request)
        answer_id = None if session is None else self._voted_answer(history, position, session)
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

    def _browser(self, request: gr.Request) -> str | None:
        """Whose answers a request may rate and copy: its browser's (None for a sessionless caller)."""
        session = _session(request)
        return None if session is None else self.browsers.key(session)

    def _voted_answer(self, history: list[dict], position: object, session: str) -> str | None:
        """The store's id of the answer at ``position`` of the history (or of the answer a Sources block
        belongs to), if this session was given it; None for an impossible position or a forged answer."""
        if not isinstance(position, int) or not 0 <= position < len(history):
            return None
        for message in reversed(history[: position + 1]):
            if not isinstance(message, dict) or message.get("role") != "assistant":
                return None
            if dialogue.is_answer(message):
                shown_id = (message.get("metadata") or {}).get("id")
                key = _by_id(str(shown_id)) if shown_id else dialogue.message_text(message)
                return self.answered.lookup(self.browsers.key(session), key)
        return None

    def _save(
        self, request: gr.Request, answer_id: str, vote: Vote, comment: str | None, lang: Side
    ) -> str | None:
        """Record a vote or comment; None when saved, else the status line to show (the reason logged)."""
        session = _session(request)
        if session is None or not self.vote_limit.allow(session):
            return t("feedback_too_fast", lang)
        try:
            self.store.record_vote(answer_id, vote, comment)
        except UnknownAnswer as exc:  # this session was given it, so it was never written (or pruned)
            log.error("vote not recorded: %s", exc)
            return t("feedback_not_recorded", lang)
        except StoreUnavailable as exc:
            log.error("vote not recorded: %s", exc)
            return t("feedback_store_down", lang)
        except StoreError as exc:
            log.error("vote not recorded: %s", exc)
            return t("feedback_failed", lang)
        return None

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
        return filter_update, self.refilter(query, category, lang), browse.about(self.bot.identity, lang)


def _answer_lang(message: str, ui_lang: Side | None) -> Side | None:
    """The interface's language for a Hinglish question with a topic of its own (its asker reads
    either; "in Hindi please" and other follow-ups keep choosing their language); else None."""
    cues = follow_up_cues(message)
    hinglish = detect_lang(message) == "hinglish" and (cues is None or cues[1] is None)
    return ui_lang if hinglish else None


def _by_id(answer_id: str) -> str:
    """The key under which an answer is remembered by its id (its text is the other key)."""
    return f"id:{answer_id}"


def _session(request: gr.Request) -> str | None:
    """The chat session a request belongs to (Gradio's session hash), or None for a caller without
    one (a plain REST call): such callers were once one shared key, so one could rate another's
    answer and spend everyone's vote budget; now their answers are not remembered and they cannot vote."""
    return request.session_hash or None
