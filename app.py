"""The Gradio app (and Hugging Face Space entry point): chat with the glossary bot, browse it, read about it.

``python app.py`` serves on 127.0.0.1:7860 (``GLOSSARY_BOT_HOST`` / ``_PORT``).
Nothing is fetched at run time: no share link, no analytics, no hub.
API: ``POST /api/answer`` (JSON ``{"question": ..., "lang": null}`` -> the answer as JSON: markdown
text, language, citations, follow-up ids), a plain route beside Gradio's queue, the fast path for
programs; and Gradio's ``/ask`` (question -> answer markdown, the same text as ``glossary-bot ask``)
and ``/chat`` (question, history -> cleared box, new history) for gradio_client.

It refuses to start, with one line on stderr and no traceback, when a setting is invalid
(exit 2), when the glossary, model or index cannot be loaded (exit 3, the CLI's code), or when
it cannot listen on the configured address (exit 5); the codes are ``bot.exitcodes.ExitCode``.
A user glossary is watched while serving (``reload_interval_s``): an edit is swapped in once it
loads; a broken edit is logged and the last good glossary stays in service.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import gradio as gr
from fastapi import HTTPException, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field, ValidationError

from bot import browse, dialogue, feedback
from bot.answer import Answer, Citation, escape_md, sources_markdown, term
from bot.core import GlossaryBot
from bot.exitcodes import ExitCode
from bot.inputs import as_question
from bot.messages import SIDES, Side, side, t
from bot.reload import GlossaryWatcher
from bot.settings import Settings
from bot.text import Lang
from glossary import Glossary, GlossaryError
from index.errors import IndexLayerError

log = logging.getLogger(__name__)

EXAMPLES = [
    "What is gradient clipping?",
    "ओवरफिटिंग क्या है?",
    "dropout kya hai?",
    "batch vs epoch",
    "मिनी-बैच और बैच में क्या अंतर है?",
    "LoRA में low-rank matrices कहाँ inject की जाती हैं?",
    "learning rate warmup kyu karte hai",
    "give me an example",
]
#: Related-term buttons under the chat (answers offer up to this many follow-ups).
N_RELATED = 4

#: Gradio's default theme, with the Bold face of its bundled font (its SemiBold file lacks most glyphs).
THEME = gr.themes.Default(
    font=[
        gr.themes.LocalFont("Source Sans Pro", weights=(400, 700)),
        "ui-sans-serif",
        "system-ui",
        "sans-serif",
    ]
)

CSS = """
.gradio-container { max-width: 1100px !important; width: 100%; margin: 0 auto; }
#related-row { flex-wrap: wrap; gap: 6px; }
#related-row button { flex: 0 1 auto; min-width: 0; }
#chat table, #browse-list table { display: block; overflow-x: auto; }
#chat td:first-child, #chat th:first-child { white-space: nowrap; }
#browse-list details.entry { border-bottom: 1px solid var(--border-color-primary); padding: 6px 0; }
#browse-list summary { cursor: pointer; }
#browse-list summary small { opacity: 0.7; margin-left: 0.5em; }
#chat details summary { cursor: pointer; font-weight: 600; }
@media (max-width: 640px) {
  #header { flex-wrap: wrap; }
  #header > *, #header #ui-lang { flex: 1 1 100% !important; min-width: 100% !important; }
  #title h2 { font-size: 1.2rem; }
  #chat { height: 60vh !important; }
  #chat .message-row.bot-row { max-width: 100% !important; margin: 12px 2px 8px !important; }
}
"""


def user_message(question: str, limit: int) -> dict:
    """The asker's message as shown in the chat: escaped, so it renders as the text typed."""
    return {"role": "user", "content": escape_md(question[:limit])}


def reply_messages(answer: Answer, glossary: Glossary) -> list[dict]:
    """The answer (the same text as the CLI and ``/ask``), then a collapsible Sources block."""
    messages = [{"role": "assistant", "content": answer.text}]
    if answer.citations or answer.hits:
        title = t("sources", answer.lang)
        messages.append(
            {
                "role": "assistant",
                "content": sources_markdown(answer, glossary),
                "metadata": {"title": title, "status": "done"},
            }
        )
    return messages


def related_labels(answer: Answer, glossary: Glossary) -> list[str]:
    """Button labels for the answer's follow-up terms, in the answer's language (asking = the name)."""
    return [term(glossary.get(i), side(answer.lang)) for i in answer.related][:N_RELATED]


def build_app(bot: GlossaryBot, settings: Settings | None = None) -> gr.Blocks:
    """The app around ``bot``. Each event reads the glossary the bot serves at that moment, so a
    reload shows up everywhere (an answer is rendered with the glossary that produced it)."""
    settings = settings or bot.settings
    glossary = bot.glossary

    def respond(message: str, history: list[dict], labels: list[str]) -> tuple[str, list[dict], list[str]]:
        message = as_question(message)
        if not message.strip():
            return "", history, labels
        live = bot.pinned()
        answer = live.answer(message, history)
        shown = [user_message(message, settings.max_question_chars), *reply_messages(answer, live.glossary)]
        return "", [*history, *shown], related_labels(answer, live.glossary)

    def ask(question: str) -> str:
        """Answer one question; returns the answer as markdown (the same text as the CLI)."""
        return bot.answer(as_question(question)).text

    def show_related(labels: list[str]) -> list:
        padded = labels + [""] * (N_RELATED - len(labels))
        return [gr.update(visible=bool(labels))] + [gr.update(value=v, visible=bool(v)) for v in padded]

    def on_vote(history: list[dict], lang: Side, data: gr.LikeData):
        if not isinstance(data.liked, bool):  # a vote taken back: nothing to record
            return None, gr.update(visible=False), ""
        position = data.index[0] if isinstance(data.index, list | tuple) else data.index
        turn = dialogue.turn_at(history, int(position), dialogue.citation_index(bot.glossary.entries))
        vote: feedback.Vote = "like" if data.liked else "dislike"
        item = feedback.record(turn.question if turn else "", list(turn.entry_ids) if turn else [], vote)
        try:
            feedback.append(settings.feedback_path, item)
        except feedback.FeedbackError as exc:
            log.error("%s", exc)
            return None, gr.update(visible=False), t("feedback_failed", lang)
        return item.model_dump(), gr.update(visible=True), t(f"vote_{vote}", lang)

    def on_comment(comment: str, pending: dict | None, lang: Side):
        if not pending or not comment.strip():
            return pending, gr.update(), "", ""
        item = feedback.record(
            pending["question"], pending["entry_ids"], pending["vote"], comment, pending["vote_id"]
        )
        try:
            feedback.append(settings.feedback_path, item)
        except feedback.FeedbackError as exc:
            log.error("%s", exc)
            return pending, gr.update(), comment, t("feedback_failed", lang)
        return None, gr.update(visible=False), "", t("comment_saved", lang)

    with gr.Blocks(title=t("page_title", "en"), analytics_enabled=False) as demo:
        related_state = gr.State([])
        pending_vote = gr.State(None)
        with gr.Row(equal_height=True, elem_id="header"):
            title = gr.Markdown(t("header", "en"), elem_id="title")
            ui_lang = gr.Radio(
                [(t("language_name", lang), lang) for lang in SIDES],
                value="en",
                label=t("interface", "en"),
                elem_id="ui-lang",
                scale=0,
                min_width=230,
            )
        with gr.Tabs():
            with gr.Tab(t("chat_tab", "en"), id="chat-tab") as chat_tab:
                chatbot = gr.Chatbot(
                    label=t("chat_label", "en"),
                    elem_id="chat",
                    height="62vh",
                    sanitize_html=True,
                    render_markdown=True,
                    placeholder=t("chat_empty", "en"),
                )
                related_note = gr.Markdown(t("related_note", "en"), visible=False, elem_id="related-note")
                with gr.Row(elem_id="related-row"):
                    related = [
                        gr.Button(visible=False, size="sm", elem_classes="related-term")
                        for _ in range(N_RELATED)
                    ]
                box = gr.Textbox(
                    label=t("question_label", "en"),
                    placeholder=t("question_hint", "en"),
                    submit_btn=True,
                    elem_id="question",
                    max_length=settings.max_question_chars,
                )
                vote_status = gr.Markdown("", elem_id="vote-status")
                with gr.Row(visible=False, elem_id="comment-row") as comment_row:
                    comment = gr.Textbox(
                        label=t("comment_label", "en"), placeholder=t("comment_hint", "en"), scale=4
                    )
                    send = gr.Button(t("comment_send", "en"), scale=1, elem_id="send-comment")
                gr.Examples(examples=EXAMPLES, inputs=box, label=t("examples", "en"))
            with gr.Tab(t("browse_tab", "en"), id="browse-tab") as browse_tab:
                with gr.Row():
                    flt = gr.Textbox(
                        label=t("filter_label", "en"),
                        placeholder=t("filter_hint", "en"),
                        elem_id="browse-filter",
                    )
                    category = gr.Dropdown(
                        browse.categories(glossary, "en"),
                        value=browse.ALL,
                        label=t("category", "en"),
                        elem_id="browse-category",
                    )
                listing = gr.Markdown(
                    browse.listing(glossary, "", browse.ALL, "en"), elem_id="browse-list", sanitize_html=True
                )
            with gr.Tab(t("about_tab", "en"), id="about-tab") as about_tab:
                about = gr.Markdown(browse.about(glossary, "en"), elem_id="about")

        chat_outputs = [box, chatbot, related_state]
        related_outputs = [related_note, *related]
        box.submit(respond, [box, chatbot, related_state], chat_outputs, api_name="chat").then(
            show_related, related_state, related_outputs, api_visibility="private"
        )
        for button in related:
            button.click(
                respond, [button, chatbot, related_state], chat_outputs, api_visibility="private"
            ).then(show_related, related_state, related_outputs, api_visibility="private")
        gr.api(ask, api_name="ask")

        chatbot.like(
            on_vote, [chatbot, ui_lang], [pending_vote, comment_row, vote_status], api_visibility="private"
        )
        for trigger in (send.click, comment.submit):
            trigger(
                on_comment,
                [comment, pending_vote, ui_lang],
                [pending_vote, comment_row, comment, vote_status],
                api_visibility="private",
            )

        def refilter(query: str, cat: str, lang: Side) -> str:
            return browse.listing(bot.glossary, query or "", cat or browse.ALL, lang)

        browse_io = ([flt, category, ui_lang], listing)
        flt.change(refilter, *browse_io, api_visibility="private", trigger_mode="always_last")
        category.change(refilter, *browse_io, api_visibility="private")

        def refresh() -> list:
            """A page opened after a reload browses the glossary served now, not the one at start-up."""
            live = bot.glossary
            return [
                gr.update(choices=browse.categories(live, "en")),
                browse.listing(live, "", browse.ALL, "en"),
                browse.about(live, "en"),
            ]

        demo.load(refresh, None, [category, listing, about], api_visibility="private")

        def relabel(lang: Side, query: str, cat: str) -> list:
            return [
                gr.update(value=t("header", lang)),
                gr.update(label=t("chat_tab", lang)),
                gr.update(label=t("browse_tab", lang)),
                gr.update(label=t("about_tab", lang)),
                gr.update(label=t("chat_label", lang), placeholder=t("chat_empty", lang)),
                gr.update(value=t("related_note", lang)),
                gr.update(label=t("question_label", lang), placeholder=t("question_hint", lang)),
                gr.update(label=t("comment_label", lang), placeholder=t("comment_hint", lang)),
                gr.update(value=t("comment_send", lang)),
                gr.update(label=t("filter_label", lang), placeholder=t("filter_hint", lang)),
                gr.update(label=t("category", lang), choices=browse.categories(bot.glossary, lang)),
                refilter(query, cat, lang),
                browse.about(bot.glossary, lang),
            ]

        ui_lang.change(
            relabel,
            [ui_lang, flt, category],
            [
                title,
                chat_tab,
                browse_tab,
                about_tab,
                chatbot,
                related_note,
                box,
                comment,
                send,
                flt,
                category,
                listing,
                about,
            ],
            api_visibility="private",
        )
    return demo


class AskBody(BaseModel):
    """Body of ``POST /api/answer``."""

    question: str = Field(description="The question, in Hindi, English or Hinglish.")
    lang: Lang | None = Field(default=None, description="Answer language; null = the question's.")


class ApiAnswer(BaseModel):
    """Reply of ``POST /api/answer``: the answer's text and where each part came from."""

    text: str = Field(description="The answer as markdown (the same text as the chat and the CLI).")
    lang: Lang
    abstained: bool = Field(description="True when the glossary does not cover the question.")
    citations: list[Citation]
    related: list[str] = Field(description="Entry ids offered as follow-up questions.")
    notice: str | None


#: The Answer fields ``/api/answer`` returns (the hits' full entries would be most of the bytes).
_API_FIELDS = set(ApiAnswer.model_fields)


class Busy(Exception):
    """More questions are waiting than the server queues (``queue_max_size``)."""


class Gate:
    """At most ``workers`` answers computed at once (more only share the cores slower), and at most
    ``capacity`` callers waiting: beyond that a caller is told to come back instead of waiting unbounded."""

    def __init__(self, workers: int, capacity: int) -> None:
        self._slots = threading.BoundedSemaphore(workers)
        self._lock = threading.Lock()
        self._waiting = 0
        self.capacity = capacity

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._lock:
            if self._waiting >= self.capacity:
                raise Busy
            self._waiting += 1
        try:
            self._slots.acquire()
        finally:
            with self._lock:
                self._waiting -= 1
        try:
            yield
        finally:
            self._slots.release()


def api_routes(bot: GlossaryBot, settings: Settings) -> list[APIRoute]:
    """``POST /api/answer``: off Gradio's queue (no event stream, no per-event bookkeeping), so a
    program's question costs about what ``bot.answer`` costs (benchmarks/RESULTS.md, "Over HTTP")."""
    gate = Gate(settings.concurrency_limit, settings.queue_max_size)

    def answer(body: AskBody) -> Response:
        """Answer one question with citations."""
        try:
            with gate.slot():
                found = bot.answer(as_question(body.question), lang=body.lang)
        except Busy:
            raise HTTPException(
                503, f"busy: {gate.capacity} questions are waiting; try again shortly", {"Retry-After": "1"}
            ) from None
        # Serialised straight from the Answer: FastAPI would otherwise validate it again as ApiAnswer.
        return Response(found.model_dump_json(include=_API_FIELDS), media_type="application/json")

    return [APIRoute("/api/answer", answer, methods=["POST"], response_model=ApiAnswer)]


def serve(bot: GlossaryBot, settings: Settings, **launch: object) -> gr.Blocks:
    """Build, queue and launch the app (offline: no share link, no analytics, errors without tracebacks).

    The queue holds at most ``queue_max_size`` requests (a caller beyond that is told it is full) and
    works on ``concurrency_limit`` requests of each kind at a time, so one busy client cannot
    make the others wait without bound.
    """
    demo = build_app(bot, settings)
    demo.queue(default_concurrency_limit=settings.concurrency_limit, max_size=settings.queue_max_size)
    demo.launch(
        server_name=settings.host,
        server_port=settings.port,
        share=False,
        show_error=False,
        css=CSS,
        theme=THEME,
        app_kwargs={"routes": api_routes(bot, settings)},  # first in the router, before Gradio's own
        **launch,
    )
    return demo


def _refuse(message: str, code: ExitCode) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for ours in ("bot", "index"):  # reloads, model conversion, index builds; libraries stay quiet
        logging.getLogger(ours).setLevel(logging.INFO)
    try:
        settings = Settings()
    except ValidationError as exc:
        _refuse(f"invalid setting: {exc}", ExitCode.USAGE)
    try:
        bot = GlossaryBot.load(settings, progress=True)  # first start: converts the model, builds the index
    except (GlossaryError, IndexLayerError, OSError) as exc:
        _refuse(f"cannot start: {exc}", ExitCode.LOAD)
    GlossaryWatcher.start_for(bot)
    try:
        serve(bot, settings)
    except OSError as exc:
        _refuse(f"cannot serve on {settings.host}:{settings.port}: {exc}", ExitCode.SERVE)


if __name__ == "__main__":
    main()
