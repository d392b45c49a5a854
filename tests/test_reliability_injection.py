"""Glossary text is rendered as text: a user glossary full of HTML and javascript: links yields
answers, Sources blocks, Browse and About pages with no live tag or link. (User-typed text:
test_answer.py and test_app.py; in a real browser, for both: tests/e2e/test_browser.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import regex

from bot.core import GlossaryBot
from bot.lookup import browse
from tests.factories import user_entry
from tests.markdown import render
from tests.test_glossary_loader import write_yaml
from ui.chat import reply_messages

pytestmark = pytest.mark.model


def _payload(n: int) -> str:
    """Markup that sets ``window.__pwned = n`` if it ever runs, in several disguises."""
    return (
        f'<img src=x onerror="window.__pwned={n}"> <script>window.__pwned={n}</script> '
        f"[click](javascript:window.__pwned={n}) <svg onload=window.__pwned={n}> "
        f'<a href="javascript:window.__pwned={n}">link</a> ![i](x" onerror="window.__pwned={n}) '
        f"<iframe src=javascript:window.__pwned={n}></iframe> <details open ontoggle=window.__pwned={n}>"
    )


HOSTILE_DOCUMENT = {
    "document": "<img src=x onerror=window.__pwned=1>.txt",
    "title_hi": _payload(2),
    "subtitle_hi": _payload(3),
    "entries": [
        user_entry(
            "xss-probe",
            term=f"XSS probe {_payload(4)}",
            term_en="XSS probe",
            term_hi=f"एक्सएसएस {_payload(5)}",
            aliases=["xss probe"],
            category={"hi": _payload(6), "en": f"Hostile {_payload(7)}"},
            definition_hi=_payload(8),
            definition_en=f"A probe. {_payload(9)}",
            usage_hi=_payload(10),
            usage_en=_payload(11),
            example_hi=_payload(12),
            example_en=_payload(13),
            notes_hi=[_payload(14)],
            notes_en=[_payload(15)],
            related=["xss-neighbour"],
            source={"document": "<script>window.__pwned=16</script>`|.txt", "line": 3},
        ),
        user_entry(
            "xss-neighbour",
            term="XSS neighbour",
            term_en="XSS neighbour",
            term_hi=_payload(17),
            definition_en=f"Its neighbour. {_payload(18)}",
            related=["xss-probe"],
        ),
    ],
}
#: The only raw HTML the app itself writes into markdown (Browse cards).
OWN_TAGS = {"details", "summary", "strong", "small"}
#: What markdown itself makes of the app's own markdown (cards, tables, lists, citations).
MARKDOWN_TAGS = {
    "p",
    "h3",
    "h4",
    "strong",
    "em",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "ul",
    "ol",
    "li",
    "blockquote",
    "code",
    "br",
    "a",
    "hr",
}
_TAG = regex.compile(r"<\s*/?\s*([a-zA-Z][a-zA-Z0-9]*)")
#: Links the app writes itself: citations to its source viewer.
_OWN_LINK = regex.compile(r'<a href="source/[^"]*">')


def hostile_bot(bot: GlossaryBot, folder: Path) -> GlossaryBot:
    """A bot over the hostile glossary, sharing the session's encoder (its index lives in ``folder``)."""
    path = write_yaml(folder / "hostile.yaml", HOSTILE_DOCUMENT)
    settings = bot.settings.model_copy(update={"glossary_paths": [path], "cache_dir": folder / "cache"})
    return GlossaryBot.load(settings, encoder=bot.encoder)


@pytest.fixture(scope="module")
def hostile(bot, tmp_path_factory) -> GlossaryBot:
    return hostile_bot(bot, tmp_path_factory.mktemp("hostile"))


def assert_inert(markdown: str) -> None:
    """Rendered, the markdown has no tag but markdown's own and the app's, and no link but citations."""
    rendered = render(markdown)
    tags = {t.lower() for t in _TAG.findall(rendered)}
    assert tags <= OWN_TAGS | MARKDOWN_TAGS, tags - OWN_TAGS - MARKDOWN_TAGS
    assert rendered.count("<a ") == len(_OWN_LINK.findall(rendered)), rendered


QUESTIONS = ["What is xss probe?", "xss probe kya hai", "xss probe vs xss neighbour", "give me an example"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_answers_and_sources_render_glossary_html_as_text(hostile, question):
    history: list[dict] = []
    if question == "give me an example":  # also: a citation of a document with a backtick reads back
        history = [{"role": "user", "content": "What is xss probe?"}]
        history += reply_messages(hostile.answer("What is xss probe?"), hostile.glossary)
    answer = hostile.answer(question, history)
    assert answer.entry_ids and set(answer.entry_ids) <= {"xss-probe", "xss-neighbour"}
    for message in reply_messages(answer, hostile.glossary):
        assert_inert(message["content"])
    assert "&lt;script&gt;" in render(answer.text) or "&lt;img" in render(answer.text)  # shown, as text


def test_tell_me_more_renders_related_names_as_text(hostile):
    history = [{"role": "user", "content": "What is xss probe?"}]
    history += reply_messages(hostile.answer("What is xss probe?"), hostile.glossary)
    assert_inert(hostile.answer("tell me more", history).text)


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_browse_and_about_render_glossary_html_as_text(hostile, lang):
    listing = browse.listing(hostile.glossary, "", browse.ALL, lang)
    assert_inert(listing)
    assert listing.count("<details class='entry'") == 2
    assert_inert(browse.about(hostile.identity, lang))
