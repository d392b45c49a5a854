"""The support desk in a real browser (Chromium, desktop 1280×800 and phone 390×844): permalinks and
shared answer links opened in a fresh page, copy for a ticket (plain text, absolute link), and
suggestions as you type (an ARIA combobox driven by the keyboard). One server for the bundled
glossary and one for a user's CSV, shared by every test of the module."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import pytest
import regex

from bot.core import GlossaryBot
from bot.records import Store
from tests.conftest import eventually, serving
from tests.e2e.test_browser import _ask, _idle, _last_answer, _load, browser, outside  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.model, pytest.mark.browser]

#: How long a check waits for the background writer or a fade-in before it fails.
SETTLE_S = 15.0
DESKTOP = (1280, 800)
PHONE = (390, 844)
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
#: Markdown a pasted ticket must not contain.
MARKDOWN = regex.compile(r"\*\*|\]\(|^#+ |\\[!-/:-@\[-`{-~]", regex.MULTILINE)
CSV = (
    "id,term,term_en,term_hi,aliases,category_hi,category_en,definition_hi,definition_en,"
    "usage_hi,usage_en,related\n"
    "desk-widget,Widget,Widget,विजेट,wdg,श्रेणी,Parts,विजेट एक पुर्ज़ा है। दूसरा वाक्य।,"
    "A widget is a part. A second sentence.,विजेट लगाएँ।,Fit the widget first.,desk-gadget\n"
    "desk-gadget,Gadget,Gadget,गैजेट,,श्रेणी,Parts,गैजेट एक उपकरण है।,A gadget is a tool.,,,desk-widget\n"
)


@pytest.fixture(scope="module")
def server(bot, settings) -> Iterator[tuple[str, Store]]:
    with serving(bot, settings) as (url, config):
        yield url, Store.open(config.database)


@pytest.fixture(scope="module")
def csv_server(bot, tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("desk-csv")
    path = folder / "parts.csv"
    path.write_text(CSV, encoding="utf-8")
    settings = bot.settings.model_copy(update={"glossary_paths": [path], "cache_dir": folder / "cache"})
    user_bot = GlossaryBot.load(settings, encoder=bot.encoder)
    with serving(user_bot, user_bot.settings) as (url, _):
        yield url


@contextmanager
def _fresh(browser, url: str, outside, size: tuple[int, int]):  # noqa: F811
    """A new browser context (no stored chat), allowed to use the clipboard."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = _load(context.new_page(), url, outside)
    try:
        yield page
    finally:
        context.close()


def _wait_answer(page) -> str:
    """The last answer's text, once its copy actions are there (without their labels)."""
    page.locator("#chat .desk-actions").last.wait_for()
    return _last_answer(page).split(page.locator("#chat .desk-actions").last.inner_text())[0]


def _copy(page, which: str) -> str:
    page.locator(f"#chat .desk-actions .desk-{which}").last.click()
    page.locator("#chat .desk-status").last.get_by_text(re.compile("Copied|कॉपी")).wait_for()
    return page.evaluate("() => navigator.clipboard.readText()")


@SIZES
def test_entry_permalink_opens_its_card(browser, server, outside, size):  # noqa: F811
    with _fresh(browser, f"{server[0]}/?entry=gradient-clipping", outside, size) as page:
        text = _wait_answer(page)
        assert "Gradient clipping" in text
        assert page.locator("#chat [data-testid=user]").last.inner_text().strip() == "Gradient clipping"
        page.wait_for_function("() => location.search === ''")  # a reload does not ask again


def test_permalink_to_a_missing_entry_says_so(browser, server, outside):  # noqa: F811
    with _fresh(browser, f"{server[0]}/?entry=no-such-entry", outside, DESKTOP) as page:
        assert "no-such-entry" in _wait_answer(page)


@SIZES
def test_copy_for_a_ticket_is_plain_text_with_an_absolute_link(browser, server, outside, size):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, size) as page:
        _ask(page, "how do I choose the batch size")
        _wait_answer(page)
        plain = _copy(page, "plain")
        assert plain.splitlines()[0] == "Batch size (बैच आकार)", plain
        assert "Usage:" in plain  # a how-to question: the usage line answers it
        assert not MARKDOWN.search(plain), plain
        (link,) = regex.findall(r"https?://\S+", plain)
        assert link.startswith(f"{server[0]}/source/") and "line=" in link
        full = _copy(page, "full")
        assert full.startswith(plain) and len(full) > len(plain) and not MARKDOWN.search(full)
        assert "Example:" in full and "उदाहरण:" in full  # the rest, in both languages


def test_shared_answer_link_asks_the_same_question_in_a_fresh_page(browser, server, outside):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, DESKTOP) as page:
        _ask(page, "batch vs epoch")
        _wait_answer(page)
        link = _copy(page, "link")
        first = _wait_answer(page)
    assert link == f"{server[0]}/?q={quote('batch vs epoch').replace('%20', '+')}&lang=en"
    with _fresh(browser, link, outside, PHONE) as shared:
        assert _wait_answer(shared) == first
        assert shared.locator("#chat [data-testid=user]").last.inner_text().strip() == "batch vs epoch"


def test_links_and_copy_work_for_a_user_csv_glossary(browser, csv_server, outside):  # noqa: F811
    with _fresh(browser, f"{csv_server}/?entry=desk-widget", outside, DESKTOP) as page:
        assert "A widget is a part." in _wait_answer(page)
        plain = _copy(page, "plain")
        assert plain.splitlines()[:2] == ["Widget (विजेट)", "A widget is a part."]
        assert f"{csv_server}/source/parts.csv?line=2" in plain


@SIZES
def test_suggestions_as_you_type_pick_with_arrows_and_enter(browser, server, outside, size):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, size) as page:
        page.locator("body").press("/")  # the shortcut focuses the question box
        assert page.evaluate("() => document.activeElement.closest('#question') !== null")
        box = page.locator("#question textarea")
        box.press_sequentially("dropuot", delay=30)  # a typo: read as the Browse filter reads it
        listbox = page.get_by_role("listbox")
        listbox.get_by_role("option").first.wait_for()
        assert box.get_attribute("role") == "combobox" and box.get_attribute("aria-expanded") == "true"
        assert listbox.get_by_role("option").first.inner_text().startswith("Dropout")
        box.press("ArrowDown")
        assert listbox.get_by_role("option").first.get_attribute("aria-selected") == "true"
        assert box.get_attribute("aria-activedescendant") == "suggestion-0"
        box.press("Enter")  # picks the name; the question is not sent yet
        assert box.input_value() == "Dropout"
        assert listbox.is_hidden()
        assert page.locator("#chat [data-testid=user]").count() == 0
        box.fill("")
        box.press_sequentially("seekhne ki dar", delay=30)  # Hinglish
        listbox.get_by_role("option", name=re.compile("Learning rate")).first.wait_for()
        box.press("Escape")
        assert listbox.is_hidden()


#: Everything tapped on the chat tab, as far as it is in view; a target inside another (a thought's
#: arrow in its title row) is measured as the outer one.
TAP_TARGETS = "#chat button, #chat [role=button], #question button, #related-row button"
MEASURE_TARGETS = """sel => {
  const seen = e => { const r = e.getBoundingClientRect();
                     const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                     return top !== null && e.contains(top); };  // in view, not scrolled away
  const all = [...document.querySelectorAll(sel)].filter(seen);
  return all.filter(e => !all.some(o => o !== e && o.contains(e)))
    .map(e => { const r = e.getBoundingClientRect();
                return {name: e.getAttribute('aria-label') || e.textContent.trim().slice(0, 20),
                        x: r.x, y: r.y, w: r.width, h: r.height}; });
}"""


def _gap(a: dict, b: dict) -> float:
    """Distance between two rectangles (0 when they overlap)."""
    dx = max(b["x"] - (a["x"] + a["w"]), a["x"] - (b["x"] + b["w"]), 0)
    dy = max(b["y"] - (a["y"] + a["h"]), a["y"] - (b["y"] + b["h"]), 0)
    return max(dx, dy)


def test_phone_tap_targets_are_44px_and_8px_apart_and_tables_scroll(browser, server, outside):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, PHONE) as page:
        _ask(page, "batch vs epoch")
        _wait_answer(page)
        targets = page.evaluate(MEASURE_TARGETS, TAP_TARGETS)
        assert len(targets) >= 10  # message buttons, copy actions, Details/Sources, related terms
        small = [t for t in targets if t["w"] < 44 or t["h"] < 44]
        assert small == [], small
        close = [(a["name"], b["name"]) for a, b in itertools.combinations(targets, 2) if _gap(a, b) < 8]
        assert close == [], close
        table = page.locator("#chat table").last
        widths = table.evaluate("t => [t.scrollWidth, t.clientWidth, getComputedStyle(t).overflowX]")
        assert widths[0] > widths[1] and widths[2] == "auto"  # scrolls sideways ...
        broken = table.evaluate(
            "t => [...t.querySelectorAll('td, th')].filter(c => getComputedStyle(c).overflowWrap !== 'normal'"
            " || getComputedStyle(c).wordBreak !== 'normal').length"
        )
        assert broken == 0  # ... instead of breaking words


def _same(pair: tuple[object, object]) -> bool:
    return pair[0] == pair[1]


def _records(store) -> dict[str, tuple[str | None, str | None]]:
    return {r["question"]: (r["vote"], r["comment"]) for r in store.answers_between(None, None)}


@SIZES
def test_a_comment_after_a_second_answer_rates_the_message_it_was_opened_for(browser, server, outside, size):  # noqa: F811
    url, store = server
    epoch, batch = f"What is an epoch? ({size[0]})", f"What is a batch? ({size[0]})"  # one record each
    with _fresh(browser, url + "/", outside, size) as page:
        _ask(page, epoch)
        page.locator("#chat button[aria-label=Like]").last.click()
        page.locator("#comment-row textarea").wait_for()
        _ask(page, batch)
        page.locator("#comment-row").wait_for(state="hidden")  # it belonged to the first answer
        page.locator("#chat button[aria-label=Dislike]").last.click()
        page.locator("#comment-row textarea").fill("too short")
        page.locator("#send-comment").click()
        page.locator("#vote-status").get_by_text("Thank").wait_for()
    commented = ("dislike", "too short")
    records = eventually(lambda: _records(store), lambda r: r.get(batch) == commented, SETTLE_S)
    assert records[epoch] == ("like", None)
    assert records[batch] == ("dislike", "too short")


@SIZES
def test_restored_answers_keep_related_terms_and_can_be_rated(browser, server, outside, size):  # noqa: F811
    url, store = server
    with _fresh(browser, url + "/", outside, size) as page:
        _ask(page, "What is weight decay?")
        _wait_answer(page)
        page.wait_for_timeout(500)  # the browser stores the chat
        page.reload()
        page.locator("#chat [data-testid=user]", has_text="What is weight decay?").wait_for()
        page.locator(".related-term").first.wait_for(state="visible")
        _wait_answer(page)  # copy actions are back too
        page.locator("#chat button[aria-label=Like]").last.click()
        page.locator("#vote-status").get_by_text("saved").wait_for()
    assert _records(store)["What is weight decay?"][0] == "like"


def _sources_text(page) -> str:
    sources = page.locator("#chat .thought").last
    sources.locator("[role=button]").first.click()
    sources.get_by_text("rank 1").first.wait_for()
    return sources.inner_text()


@SIZES
def test_hinglish_is_answered_in_the_interface_language_and_labels_follow_it(browser, server, outside, size):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, size) as page:
        _ask(page, "dropout kya hai?")
        assert _wait_answer(page).startswith("Dropout")
        _ask(page, "ओवरफिटिंग क्या है?")  # a Hindi question: Hindi answer, English labels around it
        assert "ओवरफिटिंग" in _wait_answer(page)
        assert page.locator("#chat .thought").last.inner_text().strip().startswith("Sources")
        rows = [line for line in _sources_text(page).splitlines() if "cited" in line or "nearby" in line]
        assert rows and all(regex.search(r"rank \d", row) for row in rows), rows
        page.locator("#ui-lang label", has_text="हिंदी").click()
        page.get_by_role("tab", name="बातचीत").wait_for()
        _ask(page, "dropout kya hai?")
        assert _wait_answer(page).startswith("ड्रॉपआउट")


@SIZES
def test_sources_read_at_the_answers_own_size_and_contrast(browser, server, outside, size):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, size) as page:
        _ask(page, "What is dropout?")
        _wait_answer(page)
        _sources_text(page)
        style = """e => { const s = getComputedStyle(e); let o = 1;
            for (let n = e; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
            return [s.fontSize, o]; }"""
        answer = page.locator("#chat .message:not(.thought) > [data-testid=bot] p").last
        row = page.locator("#chat .thought").last.locator("li").first
        # a message fades in: compare once both have finished (a bound on waiting, not a timing claim)
        both = eventually(lambda: (row.evaluate(style), answer.evaluate(style)), _same, SETTLE_S)
        assert both[0] == both[1], both


def test_small_talk_an_edit_that_keeps_later_turns_and_the_box_limit(browser, server, outside):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, DESKTOP) as page:
        _ask(page, "What is dropout?")
        _ask(page, "What is an epoch?")
        page.locator("#chat [data-testid=user]").first.hover()
        page.locator("#chat button[aria-label=Edit]").first.click()
        page.locator("#chat textarea.edit-textarea").fill("What is batch size?")
        page.locator("#chat button[aria-label=Submit]").click()
        page.locator("#chat [data-testid=user]", has_text="What is batch size?").wait_for()
        _idle(page)  # the edited turn answered before the next question (once on CI, it was not yet)
        users = [u.strip() for u in page.locator("#chat [data-testid=user]").all_inner_texts()]
        assert users == ["What is batch size?", "What is an epoch?"]  # the later turn stood on its own
        _ask(page, "ok")
        assert "Ask about another term" in _last_answer(page)
        _ask(page, "who made you?")
        assert "Glossary Bot" in _last_answer(page)
        box = page.locator("#question textarea")
        box.fill("x" * 2000)
        page.locator("#question-limit").get_by_text("2,000").wait_for()
        box.fill("")
        page.locator("#question-limit").wait_for(state="detached")


def test_an_edit_drops_later_turns_that_refer_back_and_says_so(browser, server, outside):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, DESKTOP) as page:
        _ask(page, "What is dropout?")
        _ask(page, "give me an example")  # about the dropout answer: it cannot stand on its own
        page.locator("#chat [data-testid=user]").first.hover()
        page.locator("#chat button[aria-label=Edit]").first.click()
        page.locator("#chat textarea.edit-textarea").fill("What is batch size?")
        page.locator("#chat button[aria-label=Submit]").click()
        page.locator("#chat", has_text="taken out with it").wait_for()
        users = [u.strip() for u in page.locator("#chat [data-testid=user]").all_inner_texts()]
        assert users == ["What is batch size?"]


@SIZES
def test_a_how_to_question_opens_with_the_advice(browser, server, outside, size):  # noqa: F811
    with _fresh(browser, server[0] + "/", outside, size) as page:
        _ask(page, "how do I choose the batch size")
        assert _wait_answer(page).startswith("Usage: Tune it according to sequence length")
