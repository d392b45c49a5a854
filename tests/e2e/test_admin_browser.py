"""The security headers and the maintainers' area in headless Chromium.

The public page must work under its Content-Security-Policy: every violation the browser reports
(``securitypolicyviolation`` events, recorded from before the page's first script) fails the test.
Measured with a policy of ``default-src 'self'`` alone, Gradio's page broke in 19 places: 6 inline
scripts (its config, API info and start-up code, made per request), 4 inline style blocks and 3
style attributes (the theme), 6 ``data:`` images (icons) — hence ``ui.headers.POLICY``.
The maintainers' flow: log in (a wrong password first), see the report, upload a glossary file
through the page's form, see it served, log out.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from playwright.sync_api import sync_playwright
from pydantic import SecretStr

from bot.core import GlossaryBot
from bot.passwords import hash_password
from tests.conftest import serving
from tests.e2e.test_browser import CHROMIUM, CHROMIUM_FLAGS, WAIT_MS
from tests.factories import user_entry

pytestmark = [pytest.mark.model, pytest.mark.browser]
PASSWORD = "a long maintainers password"
#: Records every CSP violation the page meets, from before its first script runs.
RECORD_VIOLATIONS = (
    "window.__csp = [];"
    "document.addEventListener('securitypolicyviolation',"
    " e => window.__csp.push(e.effectiveDirective + ' ' + e.blockedURI));"
)
QUOKKA = user_entry("quokka-loss", term="Quokka loss", term_en="Quokka loss", term_hi="क्वोका लॉस")
WOMBAT = user_entry("wombat-rate", term="Wombat rate", term_en="Wombat rate", term_hi="वॉम्बैट रेट")


def _yaml(*entries: dict) -> str:
    document = {"document": "user.txt", "title_hi": "उपयोगकर्ता", "entries": list(entries)}
    return yaml.safe_dump(document, allow_unicode=True)


@pytest.fixture(scope="module")
def browser():
    if not shutil.which("chromium") and not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `make browser`")
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def app(settings, tmp_path_factory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("admin-browser")
    glossary = folder / "user.yaml"
    glossary.write_text(_yaml(QUOKKA), encoding="utf-8")
    config = settings.model_copy(
        update={
            "glossary_paths": [glossary],
            "cache_dir": folder / "cache",
            "reload_interval_s": 0,
            "admin_password_hash": SecretStr(hash_password(PASSWORD)),
        }
    )
    with serving(GlossaryBot.load(config), config) as (url, _):
        yield url, folder


def _page(browser, url: str):
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(url)
    return page


def test_the_page_works_under_its_content_security_policy(browser, app):
    url, _ = app
    page = _page(browser, f"{url}/")
    try:
        page.wait_for_selector("#question textarea")
        page.fill("#question textarea", "What is Quokka loss?")
        page.press("#question textarea", "Enter")
        page.wait_for_function("() => document.querySelectorAll('#chat [data-testid=bot]').length > 0")
        assert "Quokka" in page.locator("#chat [data-testid=bot]").first.inner_text()
        page.get_by_role("tab", name="Browse").click()
        page.wait_for_selector("#browse-list")
        assert page.evaluate("window.__csp") == []
    finally:
        page.close()


def test_a_maintainer_logs_in_sees_the_report_uploads_a_glossary_and_logs_out(browser, app, tmp_path):
    url, _ = app
    upload = tmp_path / "user.yaml"
    upload.write_text(_yaml(QUOKKA, WOMBAT), encoding="utf-8")
    page = _page(browser, f"{url}/admin")
    try:
        page.fill("#password", "not the password")
        page.click("#login")
        assert "Wrong password" in page.locator("#login-error").inner_text()
        page.fill("#password", PASSWORD)
        page.click("#login")
        page.wait_for_selector("#glossary-status")
        page.wait_for_selector("#report-summary", timeout=60_000)  # the page refreshes until it is made
        assert page.locator("#entries").inner_text() == "1"
        page.set_input_files("#glossary-file", str(upload))
        page.click("#upload")
        assert "2 entries checked" in page.locator("#message").inner_text()
        page.goto(f"{url}/admin")
        page.wait_for_function(
            "() => document.querySelector('#entries')?.textContent === '2'", timeout=60_000
        )
        reply = httpx.post(f"{url}/api/answer", json={"question": "What is Wombat rate?"}, timeout=60).json()
        assert reply["citations"][0]["entry_id"] == "wombat-rate"
        page.click("#logout")
        page.wait_for_selector("#password")
        assert page.evaluate("window.__csp") == []
    finally:
        page.close()
