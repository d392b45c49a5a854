"""Broken glossary files: refused at start-up with one clear message; while serving, a broken edit
is logged and the last good glossary stays in service (GlossaryBot.reload, bot.reload.GlossaryWatcher).

The loader's own error messages for each kind of damage are tested in test_glossary_loader.py;
here: the limits, the app's refusal to start, and reloading.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import regex

import app
from bot.core import GlossaryBot
from bot.exitcodes import ExitCode
from bot.reload import GlossaryWatcher
from glossary import GlossaryError, load_glossary
from tests.conftest import free_port
from tests.factories import user_entry
from tests.test_glossary_loader import document, write_yaml
from tests.test_reliability_aliases import nested_aliases
from ui.chat import reply_messages

REPO = Path(__file__).resolve().parents[1]


# --- limits and damage the loader did not catch before -------------------------------------------


def test_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.yaml"
    with path.open("wb") as fh:
        fh.truncate(21 * 1024 * 1024)  # sparse: 21 MB of nothing, never read
    with pytest.raises(GlossaryError) as caught:
        load_glossary([path], max_file_mb=20)
    assert str(caught.value) == (
        f"{path}: file too large: 21.0 MB; the limit is 20 MB (setting max_glossary_mb); "
        "split it or raise the limit"
    )


def test_too_many_entries_are_refused_naming_the_file(tmp_path):
    first = write_yaml(tmp_path / "a.yaml", document(user_entry("alpha"), user_entry("bravo")))
    second = write_yaml(tmp_path / "b.yaml", document(user_entry("charlie"), user_entry("delta")))
    assert len(load_glossary([first, second], max_entries=4)) == 4
    with pytest.raises(GlossaryError) as caught:
        load_glossary([first, second], max_entries=3)
    assert caught.value.file == second
    assert "the glossary reaches 4 entries here; the limit is 3" in str(caught.value)


def test_a_glossary_without_entries_is_refused(tmp_path):
    path = write_yaml(tmp_path / "empty.yaml", document())
    with pytest.raises(GlossaryError, match="no entries: a glossary needs at least one entry"):
        load_glossary([path])


def test_deeply_nested_json_is_an_error_not_a_crash(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(GlossaryError, match="invalid JSON: nested too deeply"):
        load_glossary([path])


def test_unreadable_file_is_a_glossary_error(tmp_path, monkeypatch):
    path = write_yaml(tmp_path / "locked.yaml", document(user_entry("alpha")))

    def denied(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(GlossaryError, match=r"locked\.yaml: cannot read file: Permission denied"):
        load_glossary([path])


# --- the app refuses to start ------------------------------------------------------------------


BROKEN = {
    "invalid-yaml": (
        "g.yaml",
        "entries:\n  - id: a\n    term: [unclosed\n",
        "g.yaml:4: invalid YAML: did not find expected ',' or ']' (column 1); "
        "while parsing a flow sequence at line 3",
    ),
    "invalid-json": ("g.json", '{"entries": [}', "g.json:1: invalid JSON"),
    "invalid-csv": ("g.csv", "id,term,colour\n", "g.csv: no definition column among 'id', 'term', 'colour'"),
    "not-utf8": ("g.yaml", "title_hi: caf\xe9\n".encode("latin-1"), "g.yaml:1: not UTF-8 text"),
    "duplicate-id": (
        "g.yaml",
        [user_entry("alpha"), user_entry("alpha")],
        "g.yaml: entry 'alpha': field 'id': duplicate id, already used in this file",
    ),
    "missing-field": (
        "g.yaml",
        [{k: v for k, v in user_entry("alpha").items() if not k.startswith("definition")}],
        "g.yaml: entry 'alpha': Value error, needs a definition: definition_en (English) or definition_hi",
    ),
    "dangling-related": (
        "g.yaml",
        [user_entry("alpha"), user_entry("bravo", related=["alpa"])],
        "g.yaml: entry 'bravo': field 'related': unknown entry id 'alpa'; did you mean 'alpha'?",
    ),
    "no-entries": ("g.yaml", [], "g.yaml: no entries"),
    "alias-bomb": ("g.yaml", nested_aliases(9, 8), "g.yaml: YAML aliases expand this file to more than"),
}


def _write(path: Path, content: str | bytes | list) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, list):
        write_yaml(path, content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.fixture
def app_port(monkeypatch) -> int:
    """A free port for the app: it listens before it loads (its start page), and another process on
    the default port would turn a refused glossary into a refused address."""
    port = free_port()
    monkeypatch.setenv("GLOSSARY_BOT_PORT", str(port))
    return port


@pytest.mark.parametrize(("name", "content", "message"), BROKEN.values(), ids=BROKEN.keys())
@pytest.mark.usefixtures("app_port")
def test_app_refuses_to_start_on_a_broken_glossary(tmp_path, monkeypatch, capsys, name, content, message):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / name, content)
    monkeypatch.setenv("GLOSSARY_BOT_GLOSSARY_PATHS", json.dumps([name]))
    with pytest.raises(SystemExit) as caught:
        app.main()
    assert caught.value.code == ExitCode.LOAD
    err = capsys.readouterr().err
    # the report `glossary-bot check` prints: the file, then the problem without its file and line
    assert err.startswith(f"error: cannot start: the glossary does not load:\n{name}: "), err
    assert regex.sub(r"^g\.\w+(:\d+)?: ", "", message) in err, err


@pytest.mark.usefixtures("app_port")
def test_app_refuses_an_over_limit_glossary(tmp_path, monkeypatch, capsys):
    path = write_yaml(tmp_path / "g.yaml", document(*(user_entry(f"term-{i}") for i in range(4))))
    monkeypatch.setenv("GLOSSARY_BOT_GLOSSARY_PATHS", json.dumps([str(path)]))
    monkeypatch.setenv("GLOSSARY_BOT_MAX_GLOSSARY_ENTRIES", "3")
    with pytest.raises(SystemExit) as caught:
        app.main()
    assert caught.value.code == ExitCode.LOAD and "too many entries" in capsys.readouterr().err


def test_app_process_exits_3_with_one_line_and_no_traceback(tmp_path, app_port):
    """The real process: ``python app.py`` on a broken glossary."""
    _write(tmp_path / "g.yaml", [user_entry("alpha", related=["ghost"])])
    env = {
        **os.environ,
        "GLOSSARY_BOT_PORT": str(app_port),
        "GLOSSARY_BOT_GLOSSARY_PATHS": json.dumps([str(tmp_path / "g.yaml")]),
        "GLOSSARY_BOT_DATABASE_URL": f"sqlite:///{tmp_path}/records.sqlite3",  # not the shared cache's
    }
    command = [sys.executable, str(REPO / "app.py")]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    assert done.stderr.splitlines()[-6:] == [
        "error: cannot start: the glossary does not load:",
        "g.yaml: YAML",
        "  languages: term English 1, Hindi 1; definition English 1, Hindi 1",
        "  entries: 1",
        "  1 problem(s):",
        "    - glossary: g.yaml: entry 'alpha': field 'related': unknown entry id 'ghost'",
    ]
    assert "Traceback" not in done.stderr and done.stdout == ""


# --- reloading while serving ------------------------------------------------------------------------

QUOKKA = user_entry(
    "quokka-loss",
    term="Quokka loss",
    term_en="Quokka loss",
    term_hi="क्वोका लॉस",
    definition_en="A made-up loss used to test reloading.",
)
WOMBAT = user_entry(
    "wombat-rate",
    term="Wombat rate",
    term_en="Wombat rate",
    term_hi="वॉम्बैट रेट",
    definition_en="A made-up rate that only the edited glossary has.",
)


def user_bot(
    bot: GlossaryBot, tmp_path: Path, *paths: Path, sentences: bool = True, **updates
) -> GlossaryBot:
    """A bot over user glossary files, sharing the session's encoder (its index goes to ``tmp_path``;
    ``sentences=False``: without the sentence index, as the app starts)."""
    settings = bot.settings.model_copy(
        update={"glossary_paths": list(paths), "cache_dir": tmp_path / "cache", **updates}
    )
    return GlossaryBot.load(settings, encoder=bot.encoder, sentences=sentences)


@pytest.fixture()
def live(bot, tmp_path) -> tuple[GlossaryBot, Path]:
    path = write_yaml(tmp_path / "user.yaml", document(QUOKKA))
    return user_bot(bot, tmp_path, path), path


@pytest.mark.model
def test_reload_swaps_in_an_edit_and_keeps_a_pinned_view_consistent(live):
    served, path = live
    before = served.pinned()
    assert served.reload() is False  # nothing changed
    write_yaml(path, document(QUOKKA, WOMBAT))
    assert served.reload() is True
    assert served.answer("What is Wombat rate?").entry_ids == ["wombat-rate"]
    assert len(served.glossary) == 2 and len(before.glossary) == 1
    assert before.answer("What is Quokka loss?").entry_ids == ["quokka-loss"]


@pytest.mark.model
@pytest.mark.parametrize("damage", ["invalid-yaml", "dangling-related", "no-entries", "alias-bomb"])
def test_a_broken_edit_keeps_the_last_good_glossary(live, damage):
    served, path = live
    good = served.glossary
    _, content, message = BROKEN[damage]
    _write(path, content)
    with pytest.raises(GlossaryError, match=message.split(": ", 1)[1][:30]):
        served.reload()
    assert served.glossary is good
    assert served.answer("What is Quokka loss?").entry_ids == ["quokka-loss"]


@pytest.mark.model
def test_answers_during_reloads_never_mix_two_glossaries(live):
    """Reload back and forth between a glossary with and without an entry while 4 threads ask about it."""
    served, path = live
    versions = [document(QUOKKA, WOMBAT), document(QUOKKA)]
    errors: list[str] = []
    stop = threading.Event()

    def ask() -> None:
        while not stop.is_set():
            view = served.pinned()
            try:
                answer = view.answer("What is Wombat rate?")
                for entry_id in answer.entry_ids + answer.related:
                    view.glossary.get(entry_id)  # rendering reads these back from the same glossary
                reply_messages(answer, view.glossary)
            except Exception as exc:  # any exception at all is the failure being tested for
                errors.append(repr(exc))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for n in range(20):
        write_yaml(path, versions[n % 2])
        assert served.reload() is True
    stop.set()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.model
def test_watcher_reloads_edits_and_survives_broken_ones(live, caplog):
    served, path = live
    watcher = GlossaryWatcher(served, interval_s=60)
    assert watcher.poll() == "unchanged"
    _write(path, BROKEN["dangling-related"][1])
    with caplog.at_level(logging.ERROR, logger="bot.reload"):
        assert watcher.poll() == "failed"
    assert "still serving the last good glossary" in caplog.text and "user.yaml" in caplog.text
    assert watcher.poll() == "unchanged"  # no retry until the file changes again
    assert served.answer("What is Quokka loss?").entry_ids == ["quokka-loss"]
    write_yaml(path, document(QUOKKA, WOMBAT))
    assert watcher.poll() == "reloaded" and watcher.last_error is None
    (path.parent / "extra.yaml").write_text("x", encoding="utf-8")  # a new file in a watched folder...
    assert watcher.poll() == "unchanged"  # ...is noticed but not configured: same content


@pytest.mark.model
def test_watcher_thread_picks_up_an_edit_while_the_app_serves(bot, tmp_path):
    from gradio_client import Client

    from tests.conftest import serving

    path = write_yaml(tmp_path / "user.yaml", document(QUOKKA))
    served = user_bot(bot, tmp_path, path, reload_interval_s=0.2)
    watcher = GlossaryWatcher.start_for(served)
    assert watcher is not None
    try:
        with serving(served, served.settings) as (url, _):
            client = Client(url + "/", verbose=False, analytics_enabled=False)
            assert "does not cover" in client.predict("What is Wombat rate?", api_name="/ask")
            write_yaml(path, document(QUOKKA, WOMBAT))
            deadline = time.monotonic() + 30
            while "Wombat rate" not in served.glossary.entries[-1].term and time.monotonic() < deadline:
                time.sleep(0.1)
            assert client.predict("What is Wombat rate?", api_name="/ask").startswith("### Wombat rate")
    finally:
        watcher.stop()


@pytest.mark.model
def test_watcher_is_off_for_the_bundled_glossary_and_interval_0(bot, tmp_path):
    assert GlossaryWatcher.start_for(bot) is None
    user = bot.pinned()
    user.settings = bot.settings.model_copy(update={"glossary_paths": [tmp_path], "reload_interval_s": 0})
    assert GlossaryWatcher.start_for(user) is None
