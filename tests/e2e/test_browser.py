"""The app in a real browser: headless Debian Chromium driven by Playwright.

The app runs in a thread on 127.0.0.1 (a free port) with the session's bot and a
temporary question store. Every request the page makes to anywhere else is
blocked and recorded, and the last test checks there were none. Screenshots go
to ``test-artifacts/``; the desktop and mobile ones are also copied to
``docs/`` (shrunk to a 256-colour palette) for the README.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import regex
from PIL import Image
from playwright.sync_api import sync_playwright

from bot.core import GlossaryBot
from bot.records import Store
from bot.reply.titles import document_title
from tests.conftest import serving
from ui.callbacks import Callbacks

pytestmark = [pytest.mark.model, pytest.mark.browser]

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = REPO / "test-artifacts"
DOCS = REPO / "docs"
#: Set (``make screenshots``) to remake the README's screenshots from this run; otherwise the copies
#: go with the other artifacts and a test run leaves the tree as it found it.
UPDATE_DOCS = os.environ.get("GLOSSARY_BOT_UPDATE_DOCS") == "1"
WAIT_MS = 20_000
#: A page is open once its question box takes questions: after the chat it kept is restored.
READY = "#question textarea:enabled"


def _docs_copy(shot: Path, name: str) -> None:
    """A palette PNG copy for the README (a few tens of KB instead of several hundred)."""
    folder = DOCS if UPDATE_DOCS else ARTIFACTS
    folder.mkdir(exist_ok=True)
    with Image.open(shot) as image:
        image.convert("RGB").quantize(colors=256).save(folder / name, optimize=True)
    assert (folder / name).stat().st_size < 300_000


@pytest.fixture(scope="module")
def server(bot, settings) -> Iterator[tuple[str, Store]]:
    with serving(bot, settings) as (url, config):
        yield f"{url}/", Store.open(config.database)


@pytest.fixture(scope="module")
def browser():
    if not shutil.which("chromium") and not Path(CHROMIUM).exists():
        pytest.fail(
            "chromium is not installed: run `make browser` (Debian packages chromium, chromium-driver)"
        )
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def outside() -> list[str]:
    """URLs the pages tried to reach beyond 127.0.0.1 (all blocked)."""
    return []


def _open(browser, url: str, outside: list[str], width: int, height: int):
    return _load(browser.new_page(viewport={"width": width, "height": height}), url, outside)


def _load(page, url: str, outside: list[str], ready: str = READY):
    """``page`` at ``url``, every request beyond 127.0.0.1 blocked and recorded in ``outside``, once
    ``ready`` is on it."""

    def route(r) -> None:
        if r.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    page.wait_for_selector(ready)
    return page


@contextmanager
def _opened(browser, url: str, outside: list[str], width: int = 1280, height: int = 900):
    """A page of its own (its own browser storage), closed afterwards."""
    page = _open(browser, url, outside, width, height)
    try:
        yield page
    finally:
        page.close()


@pytest.fixture(scope="module")
def page(browser, server, outside):
    page = _open(browser, server[0], outside, 1280, 900)
    yield page
    page.close()


def _ask(page, question: str) -> None:
    before = page.locator("#chat [data-testid=bot]").count()
    page.fill("#question textarea", question)
    page.press("#question textarea", "Enter")
    _settle(page, before)


def _settle(page, answers_before: int) -> None:
    """Wait for a new answer and for every event it set off (the related-term buttons) to finish."""
    page.wait_for_function(
        "n => document.querySelectorAll('#chat [data-testid=bot]').length > n", arg=answers_before
    )
    _idle(page)


def _idle(page) -> None:
    """Wait until no event is running (a question asked while one runs is not taken)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=status-tracker]')]"
        ".every(t => t.classList.contains('hide'))"
    )


def _last_answer(page) -> str:
    """Text of the last answer (the message before its Sources block)."""
    return page.locator("#chat .message:not(.thought) > [data-testid=bot]").last.inner_text()


def _shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path


@pytest.mark.parametrize(
    ("question", "expected", "citation"),
    [
        ("ओवरफिटिंग क्या है?", "ओवरफिटिंग", "पंक्ति"),
        ("What is gradient clipping?", "Gradient clipping", "line"),
        ("dropout kya hai?", "Dropout", "line"),  # Hinglish: in the interface's language (English)
    ],
    ids=["hindi", "english", "hinglish"],
)
def test_answer_shows_term_and_citation(page, bot, question, expected, citation):
    _ask(page, question)
    entry = bot.answer(question).citations[0]
    document, line = entry.source.rsplit(":", 1)
    text = _last_answer(page)
    assert expected in text
    title = document_title(bot.glossary, document, "hi" if citation == "पंक्ति" else "en")
    assert f"{title}, {citation} {line}" in text  # the document's name in the answer's language, not its file


def test_details_and_sources_are_one_click_away(page):
    """A Hinglish question is answered in English: Hindi is in the collapsed Details; Sources show
    the confidence. (It asks its own question: run alone, it had read whatever the page held.)"""
    _ask(page, "dropout kya hai?")
    details, sources = page.locator("#chat .thought").nth(-2), page.locator("#chat .thought").last
    assert "परिभाषा" not in _last_answer(page)
    details.locator("[role=button]").first.click()
    details.get_by_text("परिभाषा").first.wait_for()
    sources.locator("[role=button]").first.click()
    sources.get_by_text("%").first.wait_for()
    assert "ड्रॉपआउट" in sources.inner_text()


def test_related_term_button_asks_about_it(page):
    _ask(page, "What is gradient clipping?")  # its own answer's buttons: the test can run alone
    button = page.locator(".related-term").first
    button.wait_for(state="visible")
    label = button.inner_text().strip()
    before = page.locator("#chat [data-testid=bot]").count()
    button.click()
    _settle(page, before)
    assert label in _last_answer(page)


def test_follow_up_uses_the_previous_term(page):
    _ask(page, "What is gradient clipping?")
    _ask(page, "give me an example")
    text = _last_answer(page)
    assert "Example: Gradient clipping" in text
    _shot(page, "chat-follow-up.png")


def _voted(store: Store) -> list[dict]:
    return [r for r in store.answers_between(None, None) if r["vote"] is not None]


def test_like_records_a_vote_on_the_servers_answer(page, server):
    store = server[1]
    _ask(page, "What is gradient clipping?")
    _ask(page, "give me an example")  # the answer voted on is this test's own: it can run alone
    page.locator("#chat button[aria-label=Like]").last.click()
    page.locator("#vote-status").get_by_text("saved").wait_for()
    (record,) = _voted(store)
    assert (record["vote"], record["question"], record["entry_ids"]) == (
        "like",
        "give me an example",
        ["gradient-clipping"],
    )
    page.locator("#comment-row textarea").fill("clear and short")
    page.locator("#send-comment").click()
    page.locator("#vote-status").get_by_text("Comment saved").wait_for()
    (record,) = _voted(store)
    assert (record["vote"], record["comment"]) == ("like", "clear and short")


def test_user_text_renders_as_text(page):
    attack = (
        '<img src=x onerror="window.pwned=1"> [click](javascript:window.pwned=2) '
        "<script>window.pwned=3</script>"
    )
    _ask(page, attack)
    chat = page.locator("#chat")
    assert chat.locator("img[src=x]").count() == 0
    assert chat.locator("script").count() == 0
    assert chat.locator("a[href^='javascript']").count() == 0
    assert "<img src=x" in chat.locator("[data-testid=user]").last.inner_text()
    assert page.evaluate("() => window.pwned") is None


def _show_question(page) -> None:
    """Scroll page and chat to the top, so a fresh page's question and the start of its answer show."""
    page.wait_for_timeout(1000)  # let the chat's own scroll-to-the-newest-message settle first
    page.evaluate(
        """() => {
            window.scrollTo({top: 0, behavior: 'instant'});
            for (const e of document.querySelectorAll('#chat *')) {
                if (['auto', 'scroll'].includes(getComputedStyle(e).overflowY)) e.scrollTop = 0;
            }
        }"""
    )
    page.wait_for_timeout(300)


def test_screenshot_desktop(browser, server, outside):
    page = _open(browser, server[0], outside, 1280, 1000)
    try:
        _ask(page, "What is gradient clipping?")
        _show_question(page)
        _docs_copy(_shot(page, "chat-desktop.png"), "screenshot.png")
    finally:
        page.close()


def test_browse_tab_opens_an_entry(page):
    page.get_by_role("tab", name="Browse").click()
    page.fill("#browse-filter textarea", "dropout")
    page.wait_for_function("() => document.querySelectorAll('#browse-list details.entry').length < 5")
    entry = page.locator("#browse-list details#entry-dropout")
    entry.locator("summary").first.click()
    assert "A regularization technique" in entry.inner_text()
    _shot(page, "browse.png")


def test_interface_language_toggle(page):
    page.locator("#ui-lang label", has_text="हिंदी").click()
    page.get_by_role("tab", name="बातचीत").wait_for()
    page.get_by_role("tab", name="परिचय").click()
    assert "MIT" in page.locator("#about").inner_text()
    _shot(page, "about-hindi.png")
    page.locator("#ui-lang label", has_text="English").click()
    page.get_by_role("tab", name="Chat").click()


def test_mobile_layout(browser, server, outside):
    page = _open(browser, server[0], outside, 390, 844)
    try:
        _ask(page, "ओवरफिटिंग क्या है?")
        assert "ओवरफिटिंग" in _last_answer(page)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1
        assert page.locator("#question textarea").is_visible()
        _show_question(page)
        _docs_copy(_shot(page, "chat-mobile.png"), "screenshot-mobile.png")
    finally:
        page.close()


@pytest.fixture(scope="module")
def hostile_server(bot, tmp_path_factory) -> Iterator[str]:
    """The app over a user glossary whose every field is HTML and javascript: links (see the module)."""
    from tests.test_reliability_injection import hostile_bot

    hostile = hostile_bot(bot, tmp_path_factory.mktemp("hostile"))
    with serving(hostile, hostile.settings) as (url, _):
        yield url + "/"


#: Attributes that only injected markup would carry, anywhere in the page.
INJECTED = "img[src=x], [onerror], [onload], [ontoggle], iframe, a[href^='javascript']"


def _no_script_ran(page, dialogs: list[str]) -> None:
    assert page.evaluate("() => window.__pwned") is None
    assert dialogs == []
    assert page.locator(INJECTED).count() == 0
    assert page.locator("#chat script, #browse-list script, #about script").count() == 0


def test_glossary_html_stays_text_in_chat_sources_browse_and_about(browser, hostile_server, outside):
    page = _open(browser, hostile_server, outside, 1280, 900)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        _ask(page, "What is xss probe?")
        answer = _last_answer(page)
        assert "<script>window.__pwned=9</script>" in answer and "[click](javascript:" in answer
        sources = page.locator("#chat .thought").last
        sources.locator("[role=button]").first.click()
        sources.get_by_text("XSS").first.wait_for()
        _ask(page, "xss probe vs xss neighbour")
        _ask(page, "tell me more")
        _no_script_ran(page, dialogs)

        page.get_by_role("tab", name="Browse").click()
        for summary in page.locator("#browse-list details.entry summary").all():
            summary.click()
        assert "<svg onload=window.__pwned=8>" in page.locator("#browse-list").inner_text()
        page.locator("#browse-category input").click()  # the category dropdown lists hostile names
        page.keyboard.press("Escape")
        page.locator("#ui-lang label", has_text="हिंदी").click()
        page.get_by_role("tab", name="परिचय").click()
        assert "<script>window.__pwned=2</script>" in page.locator("#about").inner_text()
        page.wait_for_timeout(500)  # give anything injected a moment to run
        _no_script_ran(page, dialogs)
        _shot(page, "hostile-glossary.png")
    finally:
        page.close()


# --- chat round 2 -------------------------------------------------------------------------------


def test_near_miss_says_what_is_missing_with_a_label(page):
    _ask(page, "what is a transformer")
    text = _last_answer(page)
    assert "no entry for transformer" in text and "Closest entry, not exactly what you asked" in text


def test_how_to_question_gets_the_faq_answer(page, bot):
    _ask(page, "is a GPU required for training?")
    faq = next(f for f in bot.glossary.faq if "ai-accelerator" in f.related)
    assert faq.answer_en.split(".")[0] in _last_answer(page)


def test_three_way_comparison_keeps_every_side(page):
    _ask(page, "compare dropout, weight decay and early stopping")
    header = page.locator("#chat [data-testid=bot] table").last.locator("tr").first.inner_text()
    assert all(side in header for side in ("Dropout", "Weight decay", "Early stopping"))


def test_small_talk_gets_a_friendly_reply(page):
    _ask(page, "hello")
    assert "Hello!" in _last_answer(page) and "does not cover" not in _last_answer(page)


def test_citation_opens_the_source_lines(page, bot):
    _ask(page, "What is gradient clipping?")
    entry = bot.glossary.get("gradient-clipping")
    link = page.locator("#chat [data-testid=bot] a[href*='source/']").last
    assert document_title(bot.glossary, entry.source.document, "en") in link.inner_text()
    with page.context.expect_page() as opened:
        link.click()
    viewer = opened.value
    viewer.wait_for_load_state()
    cited = viewer.locator("li.cited")
    assert cited.get_attribute("value") == str(entry.source.line) and entry.term in cited.inner_text()
    assert entry.definition_hi in viewer.locator("#source-lines").inner_text()
    assert viewer.locator("#source-lines li").count() > 1  # the lines around it too
    viewer.close()


def test_copy_gives_text_without_html(browser, server, outside):
    with _opened(browser, server[0], outside, 1280, 900) as page:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        _ask(page, "What is gradient clipping?")
        page.locator("#chat [data-testid=bot]").last.hover()
        page.locator("#chat button[aria-label='Copy message']").last.click()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert "Gradient clipping" in copied
        assert not regex.search(r"</?[a-z]+[ >]", copied), copied


def test_reload_keeps_the_chat_and_the_interface_language(browser, server, outside):
    with _opened(browser, server[0], outside, 1280, 900) as page:
        _ask(page, "What is dropout?")
        page.locator("#ui-lang label", has_text="हिंदी").click()
        page.get_by_role("tab", name="बातचीत").wait_for()
        page.wait_for_timeout(500)  # the browser stores both
        page.reload()
        page.wait_for_selector("#question textarea")
        page.locator("#chat [data-testid=user]", has_text="What is dropout?").wait_for()
        page.get_by_role("tab", name="बातचीत").wait_for()


#: How long the test below holds back the chat a page restores when it opens: far longer than an answer.
RESTORE_DELAY_S = 3.0


def test_a_question_asked_as_the_page_opens_stays_in_the_chat(browser, server, outside, monkeypatch):
    """On a busy server the chat a page restores came back after the first question had been answered
    and replaced it; the box now takes questions only once the restore is done."""
    restore = Callbacks.restore

    def slow_restore(self, saved):
        time.sleep(RESTORE_DELAY_S)
        return restore(saved)

    monkeypatch.setattr(Callbacks, "restore", slow_restore)
    with _opened(browser, server[0], outside, 1280, 900) as page:
        _ask(page, "What is dropout?")
        page.wait_for_timeout(RESTORE_DELAY_S * 1000)
        users = page.locator("#chat [data-testid=user]").all_inner_texts()
        assert [u.strip() for u in users] == ["What is dropout?"]


def test_an_example_clicked_as_the_page_opens_stays_in_the_chat(browser, server, outside, monkeypatch):
    """The examples ask as the question box does, so they too wait for the kept chat to be back: the
    page is not waited on here, the first example is clicked as soon as it can be."""
    restore = Callbacks.restore

    def slow_restore(self, saved):
        time.sleep(RESTORE_DELAY_S)
        return restore(saved)

    monkeypatch.setattr(Callbacks, "restore", slow_restore)
    page = _load(browser.new_page(viewport={"width": 1280, "height": 900}), server[0], outside, "#chat")
    try:
        example = page.locator("#examples button").first
        example.wait_for(state="visible")  # as soon as it can be clicked; hidden, its text may be unset
        question = example.inner_text().strip()
        example.click()
        page.locator("#chat [data-testid=user]").first.wait_for()  # asked; does it stay?
        page.wait_for_timeout(RESTORE_DELAY_S * 1000)
        users = page.locator("#chat [data-testid=user]").all_inner_texts()
        assert [u.strip() for u in users] == [question]
    finally:
        page.close()


def test_retry_undo_edit_and_clear(browser, server, outside):
    with _opened(browser, server[0], outside, 1280, 900) as page:
        _ask(page, "What is dropout?")
        _ask(page, "What is an epoch?")
        page.locator("#chat button[aria-label=Retry]").last.click()  # "not this one": the next-best entry
        page.locator("#chat [data-testid=bot]", has_text="Not this one").last.wait_for()
        assert page.locator("#chat [data-testid=user]").count() == 2
        page.locator("#chat button[aria-label=Undo]").last.dispatch_event("click")
        page.wait_for_function("() => document.querySelectorAll('#chat [data-testid=user]').length === 1")
        assert page.locator("#question textarea").input_value() == "What is an epoch?"
        _ask(page, "What is batch size?")
        page.locator(".related-term").first.wait_for(state="visible")
        page.once("dialog", lambda dialog: dialog.dismiss())  # Clear asks first: "no" keeps the chat
        page.locator("#chat button[aria-label=Clear]").click()
        page.wait_for_timeout(500)
        assert page.locator("#chat [data-testid=user]").count() == 2
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#chat button[aria-label=Clear]").click()
        page.wait_for_function(
            "() => document.querySelectorAll('.related-term:not(.hidden)').length === 0 ||"
            " [...document.querySelectorAll('.related-term')].every(b => !b.offsetParent)"
        )
        assert page.locator("#chat [data-testid=user]").count() == 0


def test_edit_of_the_last_question(browser, server, outside):
    """Gradio's edit (``editable="user"``): the question's text becomes a box; its submitted text is
    asked in place of the old question, and the old answer goes."""
    with _opened(browser, server[0], outside, 1280, 900) as page:
        _ask(page, "What is dropout?")
        _ask(page, "What is an epoch?")
        page.locator("#chat [data-testid=user]").last.hover()
        page.locator("#chat button[aria-label=Edit]").last.click()
        box = page.locator("#chat textarea.edit-textarea")
        box.fill("What is batch size?")
        page.locator("#chat button[aria-label=Submit]").click()
        page.locator("#chat [data-testid=user]", has_text="What is batch size?").wait_for()
        page.locator("#chat [data-testid=bot]", has_text="Batch size").last.wait_for()
        users = page.locator("#chat [data-testid=user]").all_inner_texts()
        assert [u.strip() for u in users] == ["What is dropout?", "What is batch size?"]
        assert page.locator("#chat [data-testid=bot]", has_text="Epoch").count() == 0


def test_every_button_has_an_accessible_name(browser, server, outside):
    with _opened(browser, server[0], outside, 1280, 900) as page:
        _ask(page, "What is dropout?")
        page.locator("#chat [data-testid=bot]").first.hover()
        nameless = page.evaluate(
            """() => [...document.querySelectorAll('button, [role=button]')]
                .filter(b => b.offsetParent !== null)
                .filter(b => !(b.getAttribute('aria-label') || b.innerText || b.title || '').trim()
                             && !b.getAttribute('aria-labelledby'))
                .map(b => `${b.closest('[id]')?.id} ${b.innerHTML.slice(0, 200)}`)"""
        )
        assert nameless == []
        assert page.locator("#chat button[aria-label=Share]").count() == 0


def test_phone_question_box_in_view_and_feedback_next_to_the_message(browser, server, outside):
    with _opened(browser, server[0], outside, 390, 844) as page:
        box = page.locator("#question textarea").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844
        _ask(page, "What is dropout?")
        page.locator("#chat button[aria-label=Like]").last.click()
        page.locator("#comment-row textarea").wait_for()
        chat = page.locator("#chat").bounding_box()
        comment = page.locator("#comment-row").bounding_box()
        question = page.locator("#question").bounding_box()
        assert chat and comment and question
        assert chat["y"] + chat["height"] <= comment["y"] < question["y"]  # between the message and the box


#: A user glossary whose text is markup markdown (and KaTeX) would make live: it must show as text.
MARKUP_TEXT = (
    "see https://evil.example/login or www.evil.example, mail evil@evil.example, <https://evil.example/x>"
)
MARKUP_BLOCKS = "intro\n\n---\n\n    indented code\n\nTitle\n======\n\n$$x^2$$"


@pytest.fixture(scope="module")
def markup_server(bot, tmp_path_factory) -> Iterator[str]:
    from tests.factories import user_entry
    from tests.test_glossary_loader import write_yaml

    folder = tmp_path_factory.mktemp("markup")
    document = {
        "document": "markup.txt",
        "title_hi": f"Links {MARKUP_TEXT}",
        "entries": [
            user_entry(
                "markup-probe",
                term="Markup probe",
                term_en="Markup probe",
                definition_en=MARKUP_TEXT,
                definition_hi=MARKUP_BLOCKS,
                usage_hi=MARKUP_TEXT,
                usage_en=MARKUP_BLOCKS,
            ),
            user_entry(
                "markup-other", term="Markup other", term_en="Markup other", definition_en=MARKUP_BLOCKS
            ),
        ],
    }
    path = write_yaml(folder / "markup.yaml", document)
    settings = bot.settings.model_copy(update={"glossary_paths": [path], "cache_dir": folder / "cache"})
    markup_bot = GlossaryBot.load(settings, encoder=bot.encoder)
    with serving(markup_bot, markup_bot.settings) as (url, _):
        yield url + "/"


#: Elements only glossary text turned into markup would make (the project's own links go to source/).
LIVE_MARKUP = "a:not([href^='source/']), hr, pre, h1, .katex"


def test_glossary_text_is_no_live_markup_in_chat_browse_and_about(browser, markup_server, outside):
    with _opened(browser, markup_server, outside, 1280, 900) as page:
        _ask(page, "What is markup probe?")
        for block in page.locator("#chat .thought").all():
            block.locator("[role=button]").first.click()
        assert "https://evil.example/login" in page.locator("#chat").inner_text()
        assert page.locator(f"#chat :is({LIVE_MARKUP})").count() == 0
        page.get_by_role("tab", name="Browse").click()
        for summary in page.locator("#browse-list details.entry summary").all():
            summary.click()
        assert "www.evil.example" in page.locator("#browse-list").inner_text()
        assert page.locator(f"#browse-list :is({LIVE_MARKUP})").count() == 0
        page.get_by_role("tab", name="About").click()
        assert "evil@evil.example" in page.locator("#about").inner_text()
        assert page.locator(f"#about :is({LIVE_MARKUP})").count() == 0


def test_nothing_was_fetched_from_outside(outside):
    assert outside == []
