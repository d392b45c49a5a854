"""The page: a header with the interface-language switch, the Chat, Browse and About tabs, and which
event calls which callback (``ui.callbacks``).

Every text on the page comes from the message catalog (``bot.messages``). Components are made in
English through :class:`Labels`, which remembers which property shows which text, so the switch
relabels all of them from that one record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import gradio as gr
from gradio.blocks import Block

from bot import browse
from bot.core import GlossaryBot
from bot.messages import SIDES, Side, t
from bot.records import Store
from bot.settings import Settings
from ui.callbacks import N_RELATED, Callbacks, show_related

#: The interface language a page opens in.
START: Side = "en"
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
#: Gradio's default theme, with the Bold face of its bundled font (its SemiBold file lacks most glyphs).
THEME = gr.themes.Default(
    font=[
        gr.themes.LocalFont("Source Sans Pro", weights=(400, 700)),
        "ui-sans-serif",
        "system-ui",
        "sans-serif",
    ]
)
CSS = (Path(__file__).parent / "style.css").read_text(encoding="utf-8")

B = TypeVar("B", bound=Block)


def _texts(keys: Mapping[str, str], lang: Side) -> dict[str, Any]:
    """Component properties (label, placeholder, value) -> their catalog texts in ``lang``."""
    return {prop: t(key, lang) for prop, key in keys.items()}


class Labels:
    """The components whose texts come from the catalog, and which catalog key each property shows."""

    def __init__(self) -> None:
        self._keys: list[tuple[Block, dict[str, str]]] = []

    def make(self, kind: Callable[..., B], keys: Mapping[str, str], **options: Any) -> B:
        """``kind(**options)`` with the properties in ``keys`` set to their texts in the start language."""
        block = kind(**_texts(keys, START), **options)
        self._keys.append((block, dict(keys)))
        return block

    @property
    def blocks(self) -> list[Block]:
        return [block for block, _ in self._keys]

    def updates(self, lang: Side) -> list[dict]:
        """One update per block (in :attr:`blocks` order) with its texts in ``lang``."""
        return [gr.update(**_texts(keys, lang)) for _, keys in self._keys]


@dataclass(frozen=True)
class Chat:
    """The Chat tab's parts that events read or change."""

    chatbot: gr.Chatbot
    box: gr.Textbox
    related_note: gr.Markdown
    related: list[gr.Button]
    related_state: gr.State
    cited: gr.State
    vote_status: gr.Markdown
    comment_row: gr.Row
    comment: gr.Textbox
    send: gr.Button
    pending_vote: gr.State


@dataclass(frozen=True)
class Pages:
    """The Browse and About tabs' parts that follow the glossary and the interface language."""

    query: gr.Textbox
    category: gr.Dropdown
    listing: gr.Markdown
    about: gr.Markdown


@dataclass(frozen=True)
class Relabel:
    """The interface switch: every catalog text in the new language, and the glossary pages with it."""

    labels: Labels
    callbacks: Callbacks

    def __call__(self, lang: Side, query: str, category: str) -> list[dict | str]:
        return [*self.labels.updates(lang), *self.callbacks.pages(lang, query, category)]


def _header(labels: Labels) -> gr.Radio:
    """The title and the interface-language switch (returned)."""
    with gr.Row(equal_height=True, elem_id="header"):
        labels.make(gr.Markdown, {"value": "header"}, elem_id="title")
        return gr.Radio(
            [(t("language_name", lang), lang) for lang in SIDES],
            value=START,
            label=t("interface", START),
            elem_id="ui-lang",
            scale=0,
            min_width=230,
        )


def _chat_tab(labels: Labels, settings: Settings) -> Chat:
    """The chat, its related-term buttons, the question box, the comment row after a vote, examples."""
    with labels.make(gr.Tab, {"label": "chat_tab"}, id="chat-tab"):
        # States in the tab: gr.Tabs holds only tabs.
        related_state, cited, pending_vote = gr.State([]), gr.State({}), gr.State(None)
        chatbot = labels.make(
            gr.Chatbot,
            {"label": "chat_label", "placeholder": "chat_empty"},
            elem_id="chat",
            height="62vh",
            sanitize_html=True,
            render_markdown=True,
        )
        related_note = labels.make(
            gr.Markdown, {"value": "related_note"}, visible=False, elem_id="related-note"
        )
        with gr.Row(elem_id="related-row"):
            related = [
                gr.Button(visible=False, size="sm", elem_classes="related-term") for _ in range(N_RELATED)
            ]
        box = labels.make(
            gr.Textbox,
            {"label": "question_label", "placeholder": "question_hint"},
            submit_btn=True,
            elem_id="question",
            max_length=settings.max_question_chars,
        )
        vote_status = gr.Markdown("", elem_id="vote-status")
        with gr.Row(visible=False, elem_id="comment-row") as comment_row:
            comment = labels.make(
                gr.Textbox, {"label": "comment_label", "placeholder": "comment_hint"}, scale=4
            )
            send = labels.make(gr.Button, {"value": "comment_send"}, scale=1, elem_id="send-comment")
        gr.Examples(examples=EXAMPLES, inputs=box, label=t("examples", START))
    return Chat(
        chatbot,
        box,
        related_note,
        related,
        related_state,
        cited,
        vote_status,
        comment_row,
        comment,
        send,
        pending_vote,
    )


def _report_download(labels: Labels, callbacks: Callbacks) -> None:
    """The maintainers' report (``glossary-bot report``) as a markdown file, made when asked for."""
    button = labels.make(gr.Button, {"value": "report_download"}, size="sm", elem_id="report-button")
    file = gr.File(visible=False, elem_id="report-file", interactive=False)
    button.click(callbacks.report_file, None, file, api_visibility="private")


def _pages(labels: Labels, bot: GlossaryBot, callbacks: Callbacks) -> Pages:
    """The Browse and About tabs, filled with the glossary served at start-up."""
    with labels.make(gr.Tab, {"label": "browse_tab"}, id="browse-tab"):
        with gr.Row():
            query = labels.make(
                gr.Textbox, {"label": "filter_label", "placeholder": "filter_hint"}, elem_id="browse-filter"
            )
            category = gr.Dropdown(
                browse.categories(bot.glossary, START),
                value=browse.ALL,
                label=t("category", START),
                elem_id="browse-category",
            )
        listing = gr.Markdown(
            browse.listing(bot.glossary, "", browse.ALL, START), elem_id="browse-list", sanitize_html=True
        )
    with labels.make(gr.Tab, {"label": "about_tab"}, id="about-tab"):
        about = gr.Markdown(browse.about(bot.glossary, START), elem_id="about")
        if callbacks.settings.report_download:
            _report_download(labels, callbacks)
    return Pages(query, category, listing, about)


def _wire_chat(chat: Chat, callbacks: Callbacks, ui_lang: gr.Radio) -> None:
    """Questions (typed or clicked), ``/chat`` and ``/ask`` for gradio_client, votes and comments."""
    kept = [chat.chatbot, chat.related_state, chat.cited]
    outputs = [chat.box, *kept]
    related_outputs = [chat.related_note, *chat.related]
    chat.box.submit(callbacks.respond, [chat.box, *kept], outputs, api_name="chat").then(
        show_related, chat.related_state, related_outputs, api_visibility="private"
    )
    for button in chat.related:
        button.click(callbacks.respond, [button, *kept], outputs, api_visibility="private").then(
            show_related, chat.related_state, related_outputs, api_visibility="private"
        )
    gr.api(callbacks.ask, api_name="ask")
    chat.chatbot.like(
        callbacks.vote,
        [chat.chatbot, chat.cited, ui_lang],
        [chat.pending_vote, chat.comment_row, chat.vote_status],
        api_visibility="private",
    )
    for trigger in (chat.send.click, chat.comment.submit):
        trigger(
            callbacks.comment,
            [chat.comment, chat.pending_vote, ui_lang],
            [chat.pending_vote, chat.comment_row, chat.comment, chat.vote_status],
            api_visibility="private",
        )


def build_app(bot: GlossaryBot, settings: Settings | None = None, store: Store | None = None) -> gr.Blocks:
    """The app around ``bot``, recording into ``store`` (default: the one the settings name); not yet
    queued or launched: ``ui.serve.serve`` does that."""
    settings = settings or bot.settings
    store = store or Store.open(settings.database, settings.record_questions)
    callbacks = Callbacks(bot, settings, store)
    labels = Labels()
    with gr.Blocks(title=t("page_title", START), analytics_enabled=False) as demo:
        ui_lang = _header(labels)
        with gr.Tabs():
            chat = _chat_tab(labels, settings)
            pages = _pages(labels, bot, callbacks)
        _wire_chat(chat, callbacks, ui_lang)
        listing_io = ([pages.query, pages.category, ui_lang], pages.listing)
        pages.query.change(
            callbacks.refilter, *listing_io, api_visibility="private", trigger_mode="always_last"
        )
        pages.category.change(callbacks.refilter, *listing_io, api_visibility="private")
        page_inputs = [ui_lang, pages.query, pages.category]
        page_outputs = [pages.category, pages.listing, pages.about]
        demo.load(callbacks.pages, page_inputs, page_outputs, api_visibility="private")
        ui_lang.change(
            Relabel(labels, callbacks), page_inputs, [*labels.blocks, *page_outputs], api_visibility="private"
        )
    return demo
