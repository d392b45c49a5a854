"""A team's glossary in a real browser (Chromium): the app takes the glossary's identity.

The app serves a bilingual YAML file a team wrote (no title of its own), so the page must be titled
after the file, offer example questions made from its entries in both its languages, describe that
glossary in About, and head the team's text with its file, not as a translation or an original.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import yaml

from bot.core import GlossaryBot
from bot.identity import identity
from bot.reply.messages import t
from tests.conftest import serving
from tests.e2e.test_browser import _last_answer, _load, _settle, browser, outside  # noqa: F401 (fixtures)
from tests.factories import user_entry

pytestmark = [pytest.mark.model, pytest.mark.browser]

FILE = "payments_desk.yaml"
TERMS = [
    ("refund", "Refund", "धनवापसी", "Money paid back to a customer for a purchase."),
    ("chargeback", "Chargeback", "चार्जबैक", "A card payment reversed by the card issuer."),
    ("invoice", "Invoice", "चालान", "A bill that lists goods or services and what they cost."),
    ("payout", "Payout", "भुगतान", "Money the platform sends to a merchant's bank account."),
    ("settlement", "Settlement", "निपटान", "Moving the collected money between banks."),
]


@pytest.fixture(scope="module")
def team_bot(bot, tmp_path_factory) -> GlossaryBot:
    folder = tmp_path_factory.mktemp("identity")
    entries = [
        user_entry(
            slug,
            term=en,
            term_en=en,
            term_hi=hi,
            definition_en=definition,
            definition_hi=f"{hi}: ग्राहक सहायता में प्रयुक्त शब्द।",
            category={"hi": "भुगतान", "en": "Payments"},
            source={"document": FILE, "line": n + 1},
        )
        for n, (slug, en, hi, definition) in enumerate(TERMS)
    ]
    path = folder / FILE
    path.write_text(yaml.safe_dump(entries, allow_unicode=True), encoding="utf-8")
    settings = bot.settings.model_copy(update={"glossary_paths": [path], "cache_dir": folder / "cache"})
    return GlossaryBot.load(settings, encoder=bot.encoder)


@pytest.fixture(scope="module")
def team_page(team_bot, browser, outside) -> Iterator:  # noqa: F811
    with serving(team_bot, team_bot.settings) as (url, _):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = _load(context.new_page(), f"{url}/", outside)
        try:
            yield page
        finally:
            context.close()


def test_identity_title_and_header_are_the_teams(team_page):
    assert team_page.title() == "Payments desk glossary · Payments desk शब्दावली"
    header = team_page.locator("#title").inner_text()
    assert "Payments desk glossary" in header and "AI" not in header


def test_identity_examples_are_made_from_its_entries(team_page, team_bot):
    examples = identity(team_bot.glossary, team_bot.settings).examples
    assert any(q.startswith("What is ") for q in examples) and any(q.endswith("क्या है?") for q in examples)
    for question in examples:
        team_page.locator("#examples").get_by_text(question, exact=True).wait_for()
    assert team_page.get_by_text("What is gradient clipping?").count() == 0


def test_identity_label_says_the_text_is_from_the_file(team_page):
    before = team_page.locator("#chat [data-testid=bot]").count()
    team_page.locator("#examples").get_by_text("What is Refund?", exact=True).click()
    _settle(team_page, before)
    assert "Refund" in _last_answer(team_page)
    details = team_page.locator("#chat .thought").nth(-2)
    assert "the other language" in details.inner_text()
    details.locator("[role=button]").first.click()
    details.get_by_text(f"from {FILE}").first.wait_for()
    assert "Hindi original" not in details.inner_text() and "project translation" not in details.inner_text()


def test_identity_about_describes_the_teams_glossary(team_page):
    team_page.get_by_role("tab", name="About").click()
    about = team_page.locator("#about").inner_text()
    assert "Payments desk glossary" in about and FILE in about and "Payments" in about
    assert "commissioned" not in about
    team_page.locator("#ui-lang label", has_text="हिंदी").click()
    team_page.get_by_role("tab", name="परिचय").click()
    team_page.locator("#about").get_by_text("Payments desk शब्दावली").first.wait_for()
    team_page.locator("#title").get_by_text("Payments desk शब्दावली").first.wait_for()


CSV_FILE = "support_terms.csv"
CSV_ROWS = [(en, definition) for _, en, _, definition in TERMS]


@pytest.fixture(scope="module")
def english_only_page(bot, browser, outside, tmp_path_factory) -> Iterator:  # noqa: F811
    """The app on a two-column English CSV as a spreadsheet exports it: no ids, no Hindi, no flags."""
    folder = tmp_path_factory.mktemp("english-only")
    path = folder / CSV_FILE
    path.write_text("Term,Definition\n" + "".join(f'{t},"{d}"\n' for t, d in CSV_ROWS), encoding="utf-8")
    settings = bot.settings.model_copy(update={"glossary_paths": [path], "cache_dir": folder / "cache"})
    english_bot = GlossaryBot.load(settings, encoder=bot.encoder)
    with serving(english_bot, settings) as (url, _):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = _load(context.new_page(), f"{url}/", outside)
        try:
            yield page, english_bot
        finally:
            context.close()


def test_an_english_only_csv_shows_its_derived_title_and_english_examples(english_only_page):
    page, english_bot = english_only_page
    assert page.title() == "Support terms glossary · Support terms शब्दावली"
    examples = identity(english_bot.glossary, english_bot.settings).examples
    assert examples and all(q.startswith("What is ") for q in examples)
    for question in examples:
        page.locator("#examples").get_by_text(question, exact=True).wait_for()


def test_an_english_only_csv_answers_a_hindi_question_under_hindi_labels(english_only_page):
    page, _ = english_only_page
    page.locator("#ui-lang label", has_text="हिंदी").click()
    before = page.locator("#chat [data-testid=bot]").count()
    page.fill("#question textarea", "Refund क्या है?")
    page.press("#question textarea", "Enter")
    _settle(page, before)
    answer = _last_answer(page)
    assert "Money paid back to a customer for a purchase." in answer
    assert t("no_text_in_lang", "hi") in answer and t("no_text_in_lang", "en") not in answer
