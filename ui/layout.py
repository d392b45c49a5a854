"""The page: a header with the interface-language switch, the Chat, Browse and About tabs, and which
event calls which callback (``ui.callbacks``).

Every text on the page comes from the message catalog (``bot.reply.messages``), or, where it says
whose glossary this is, from the glossary's identity; ``ui.labels`` records which component shows
which, so the interface-language switch relabels all of them from that one record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr
from gradio.components.api_component import Api
from gradio.helpers import Examples

from bot.core import GlossaryBot
from bot.lookup import browse
from bot.records.writer import Recorder, open_recorder
from bot.reply.messages import t
from bot.settings import Settings
from bot.understand.text import SIDES, Side
from ui.admission import Lanes
from ui.callbacks import Callbacks
from ui.chat import N_RELATED, ready_to_ask, show_related
from ui.desk import SCRIPT_TAG, TICKETS_KEY
from ui.labels import START, Identity, Labels

#: localStorage keys of what the browser keeps across reloads: the conversation, the interface
#: language, the key by which the server knows the answers it gave this browser.
CHAT_KEY = "glossary-bot-chat"
LANG_KEY = "glossary-bot-lang"
BROWSER_KEY = "glossary-bot-browser"
#: No LaTeX in answers: glossary text with "$$...$$" is text, not a formula.
NO_LATEX: list[dict[str, str | bool]] = []
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
#: Gradio leaves two icon buttons without an accessible name: the arrow that folds a Details or
#: Sources block, and the question box's send button. This names each as it appears.
HEAD = f"""<script>
new MutationObserver(() => {{
  document.querySelectorAll('button[aria-label=""]').forEach(
    b => b.setAttribute('aria-label', {json.dumps(t("toggle_block", START))}));
  document.querySelectorAll('#question button:not([aria-label])').forEach(
    b => b.setAttribute('aria-label', {json.dumps(t("ask_button", START))}));
}}).observe(document.documentElement, {{childList: true, subtree: true}});
</script>
{SCRIPT_TAG}"""


@dataclass(frozen=True)
class Chat:
    """The Chat tab's parts that events read or change."""

    chatbot: gr.Chatbot
    box: gr.Textbox
    stored: gr.BrowserState
    related_note: gr.Markdown
    related: list[gr.Button]
    related_state: gr.State
    cited: gr.State
    vote_status: gr.Markdown
    comment_row: gr.Row
    comment: gr.Textbox
    send: gr.Button
    pending_vote: gr.State
    tickets: gr.BrowserState
    shown_tickets: gr.Textbox
    #: Holds the examples, hidden until the page's kept chat is back (``ready_to_ask``).
    examples_box: gr.Column


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


def _header(labels: Labels, identity: Identity) -> gr.Radio:
    """The title and the interface-language switch (returned): one compact row, so that on a phone
    the question box is in view without scrolling."""
    with gr.Row(equal_height=True, elem_id="header"):
        labels.show(gr.Markdown, identity.header, elem_id="title", latex_delimiters=NO_LATEX)
        return gr.Radio(
            [(t("language_name", lang), lang) for lang in SIDES],
            value=START,
            label=t("interface", START),
            show_label=False,
            elem_id="ui-lang",
            scale=0,
            min_width=160,
        )


def _chat_tab(labels: Labels, settings: Settings, identity: Identity) -> tuple[Chat, Examples]:
    """The chat with its vote confirmation and comment row right under it (next to the message voted
    on), the related-term buttons, the question box, examples that ask when clicked."""
    with labels.make(gr.Tab, {"label": "chat_tab"}, id="chat-tab"):
        # States in the tab: gr.Tabs holds only tabs.
        related_state, cited, pending_vote = gr.State([]), gr.State({}), gr.State(None)
        stored = gr.BrowserState([], storage_key=CHAT_KEY)
        tickets = gr.BrowserState({}, storage_key=TICKETS_KEY)
        # in the page but not shown (style.css): what the copy actions of ui/static/desk.js copy, one
        # per answer, as JSON; the script reads it, so no event runs JavaScript from a string (CSP)
        shown_tickets = gr.Textbox(
            "[]", elem_id="desk-tickets", show_label=False, container=False, interactive=False
        )
        chatbot = labels.show(
            gr.Chatbot,
            identity.chat,
            elem_id="chat",
            height="58vh",
            sanitize_html=True,
            render_markdown=True,
            latex_delimiters=NO_LATEX,
            buttons=["copy", "copy_all"],
            editable="user",
            show_label=False,
        )
        vote_status = gr.Markdown("", elem_id="vote-status")
        with gr.Row(visible=False, elem_id="comment-row") as comment_row:
            comment = labels.make(
                gr.Textbox, {"label": "comment_label", "placeholder": "comment_hint"}, scale=4
            )
            send = labels.make(gr.Button, {"value": "comment_send"}, scale=1, elem_id="send-comment")
        box = labels.show(
            gr.Textbox,
            identity.question,
            submit_btn=True,
            elem_id="question",
            show_label=False,
            max_length=settings.max_question_chars,
            interactive=False,  # until the page's kept chat is back (``ready_to_ask``)
        )
        related_note = labels.make(
            gr.Markdown, {"value": "related_note"}, visible=False, elem_id="related-note"
        )
        with gr.Row(elem_id="related-row"):
            related = [
                gr.Button(visible=False, size="sm", elem_classes="related-term") for _ in range(N_RELATED)
            ]
        with gr.Column(visible=False, elem_id="examples-box") as examples_box:
            examples = gr.Examples(
                examples=list(identity.bot.identity.examples),
                inputs=box,
                label=t("examples", START),
                elem_id="examples",
            )
    chat = Chat(
        chatbot,
        box,
        stored,
        related_note,
        related,
        related_state,
        cited,
        vote_status,
        comment_row,
        comment,
        send,
        pending_vote,
        tickets,
        shown_tickets,
        examples_box,
    )
    return chat, examples


def _pages(labels: Labels, bot: GlossaryBot) -> Pages:
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
            browse.listing(bot.glossary, "", browse.ALL, START),
            elem_id="browse-list",
            sanitize_html=True,
            latex_delimiters=NO_LATEX,
        )
    with labels.make(gr.Tab, {"label": "about_tab"}, id="about-tab"):
        about = gr.Markdown(browse.about(bot.identity, START), elem_id="about", latex_delimiters=NO_LATEX)
    return Pages(query, category, listing, about)


#: The concurrency id of every event that answers a question (ui.serve finds them by it).
ANSWERING = "answer"
#: What the question of an answering event comes in as: the box, a related-term button, or the
#: parameter of ``/ask`` (``gr.api``'s stand-in component), so ``ui.joins`` reads its text.
QUESTION_INPUTS = (gr.Textbox, gr.Button, Api)


def _wire_chat(chat: Chat, examples: Examples, callbacks: Callbacks, ui_lang: gr.Radio) -> None:
    """Questions (typed, clicked, retried, edited), undo and clear, ``/chat`` and ``/ask`` for
    gradio_client, votes and comments, and the conversation kept in the browser."""
    kept = [chat.chatbot, chat.related_state, chat.cited]
    outputs = [chat.box, *kept]
    # The interface language, the answer's for a bare term name, as server-side state: API callers of
    # /chat send the question and history only (a component input would be required of them).
    answer_lang = gr.State(START)
    ui_lang.change(callbacks.keep_lang, ui_lang, answer_lang, api_visibility="private")
    asked = [*kept, answer_lang]
    related_outputs = [chat.related_note, *chat.related]

    comment_outputs = [chat.pending_vote, chat.comment_row, chat.vote_status]

    def then_related(event: Any) -> None:
        event.then(show_related, chat.related_state, related_outputs, api_visibility="private").then(
            callbacks.close_comment, None, comment_outputs, api_visibility="private"
        )

    # Every event that answers shares one count of slots: as many as the lanes hold (ui.admission).
    answering: dict[str, Any] = {
        "concurrency_id": ANSWERING,
        "concurrency_limit": callbacks.lanes.chat_slots,
    }
    then_related(
        chat.box.submit(callbacks.respond, [chat.box, *asked], outputs, api_name="chat", **answering)
    )
    for button in chat.related:
        then_related(
            button.click(callbacks.respond, [button, *asked], outputs, api_visibility="private", **answering)
        )
    then_related(
        examples.dataset.click(
            callbacks.respond, [chat.box, *asked], outputs, api_visibility="private", **answering
        )
    )
    then_related(chat.chatbot.retry(callbacks.retry, asked, outputs, api_visibility="private", **answering))
    then_related(chat.chatbot.edit(callbacks.edit, asked, outputs, api_visibility="private", **answering))
    then_related(
        chat.chatbot.undo(
            callbacks.undo,
            chat.chatbot,
            [chat.box, chat.chatbot, chat.related_state],
            api_visibility="private",
        )
    )
    then_related(
        chat.chatbot.clear(
            callbacks.clear,
            None,
            [
                chat.stored,
                chat.related_state,
                chat.cited,
                chat.pending_vote,
                chat.comment_row,
                chat.vote_status,
            ],
            api_visibility="private",
        )
    )
    chat.chatbot.change(
        callbacks.keep,
        [chat.chatbot, chat.tickets],
        [chat.stored, chat.tickets, chat.shown_tickets],
        api_visibility="private",
    )
    gr.api(callbacks.ask, api_name="ask", **answering)
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


def build_app(
    bot: GlossaryBot,
    settings: Settings | None = None,
    store: Recorder | None = None,
    lanes: Lanes | None = None,
) -> gr.Blocks:
    """The app around ``bot``, recording into ``store`` (default: the one the settings name), answering
    in ``lanes`` (default: the settings' own); not yet queued or launched: ``ui.serve.serve`` does that."""
    settings = settings or bot.settings
    store = store or open_recorder(settings)
    callbacks = Callbacks(bot, settings, store, lanes)
    labels = Labels()
    identity = Identity(bot)
    with gr.Blocks(title=bot.identity.name(START), analytics_enabled=False) as demo:
        ui_lang = _header(labels, identity)
        lang_store = gr.BrowserState(START, storage_key=LANG_KEY)
        with gr.Tabs():
            chat, examples = _chat_tab(labels, settings, identity)
            pages = _pages(labels, bot)
        _wire_chat(chat, examples, callbacks, ui_lang)
        browser = gr.BrowserState("", storage_key=BROWSER_KEY)
        opened = demo.load(
            callbacks.opened,
            [chat.stored, lang_store, browser],
            [chat.chatbot, chat.related_state, chat.cited, browser],
            api_visibility="private",
        )
        opened.then(ready_to_ask, None, [chat.box, chat.examples_box], api_visibility="private")
        opened.then(
            show_related, chat.related_state, [chat.related_note, *chat.related], api_visibility="private"
        )
        demo.load(callbacks.saved_lang, lang_store, ui_lang, api_visibility="private")
        ui_lang.change(callbacks.keep_lang, ui_lang, lang_store, api_visibility="private")
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
