"""The app in a real browser: headless Debian Chromium driven by Playwright.

The app runs in a thread on 127.0.0.1 (a free port) with the session's bot and a
temporary question store. Every request the page makes to anywhere else is
blocked and recorded, and the last test checks there were none. Screenshots go
to ``test-artifacts/``; the desktop and mobile ones are also copied to
``docs/`` (shrunk to a 256-colour palette) for the README.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import sync_playwright

from bot.records import Store
from tests.conftest import serving

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
WAIT_MS = 20_000


def _docs_copy(shot: Path, name: str) -> None:
    """A palette PNG copy for the README (a few tens of KB instead of several hundred)."""
    DOCS.mkdir(exist_ok=True)
    with Image.open(shot) as image:
        image.convert("RGB").quantize(colors=256).save(DOCS / name, optimize=True)
    assert (DOCS / name).stat().st_size < 300_000


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
    page = browser.new_page(viewport={"width": width, "height": height})

    def route(r) -> None:
        if r.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    page.wait_for_selector("#question textarea")
    return page


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
        ("dropout kya hai?", "ड्रॉपआउट", "पंक्ति"),
    ],
    ids=["hindi", "english", "hinglish"],
)
def test_answer_shows_term_and_citation(page, bot, question, expected, citation):
    _ask(page, question)
    entry = bot.answer(question).citations[0]
    document, line = entry.source.rsplit(":", 1)
    text = _last_answer(page)
    assert expected in text
    assert document in text and f"{citation} {line}" in text


def test_other_language_is_one_click_away(page):
    details = page.locator("#chat details").last
    assert not details.evaluate("d => d.open")
    details.locator("summary").click()
    assert details.evaluate("d => d.open")
    assert "Definition" in details.inner_text()  # the last answer was Hinglish: English is collapsed


def test_sources_block_lists_scores(page):
    sources = page.locator("#chat .thought").last
    sources.locator("[role=button]").first.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('#chat .thought')].pop().querySelector('table') !== null"
    )
    table = sources.locator("table").inner_text()
    assert "dropout" in table.lower() or "ड्रॉपआउट" in table


def test_related_term_button_asks_about_it(page):
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
        page.locator("#chat details summary").last.click()
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
        page.locator("#chat details summary").last.click()  # the other language, collapsed
        sources = page.locator("#chat .thought").last
        sources.locator("[role=button]").first.click()
        sources.locator("table").wait_for()
        assert "<script>window.__pwned=16</script>" in sources.inner_text()  # the document name, as text
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


def test_nothing_was_fetched_from_outside(outside):
    assert outside == []
