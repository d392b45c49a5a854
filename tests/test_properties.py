"""Property-based tests: for any Unicode string, search and answer return valid results and the
CLI's JSON always parses (in process with the session's bot, plus one real subprocess)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bot import cli
from bot.inputs import scrub
from bot.markdown import cited_sources
from glossary import load_glossary

pytestmark = pytest.mark.model

REPO = Path(__file__).resolve().parents[1]
NAMES = sorted({n for e in load_glossary() for n in (e.term_en, e.term_hi, *e.aliases)})
SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udcff", "\udfff"])
#: Any Unicode text; text made of the awkward categories (controls, format characters, surrogates,
#: combining marks, separators); and glossary names buried in such noise.
QUESTIONS = st.one_of(
    st.text(),
    st.text(st.characters(categories=["Cs", "Cc", "Cf", "Zl", "Zp", "Zs", "Mn", "So"])),
    st.lists(st.one_of(st.text(max_size=4), SURROGATES, st.sampled_from(NAMES)), max_size=6).map("".join),
)
HISTORIES = st.lists(
    st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant"]), "content": QUESTIONS}), max_size=4
)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(question=QUESTIONS, k=st.integers(min_value=1, max_value=10))
def test_search_never_raises_and_ranks_validly(bot, question, k):
    hits = bot.search(question, k)
    assert len(hits) <= k
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert len({h.entry.id for h in hits}) == len(hits)
    for hit in hits:
        assert bot.glossary.get(hit.entry.id) == hit.entry and math.isfinite(hit.score)


@FAST
@given(question=QUESTIONS, history=HISTORIES)
def test_answer_never_raises_and_cites_real_entries(bot, question, history):
    answer = bot.answer(question, history)
    assert answer.text.strip() and answer.text.encode("utf-8")
    assert answer.abstained == (not answer.citations)
    for entry_id in answer.entry_ids + answer.related:
        bot.glossary.get(entry_id)
    shown = cited_sources(answer.full_text)
    for citation in answer.citations:
        assert citation.source in shown, (citation.source, shown)


@pytest.fixture(scope="module")
def runner(bot) -> Iterator[CliRunner]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "_bot", lambda **_: bot)
        yield CliRunner()


@FAST
@given(question=QUESTIONS)
def test_cli_json_always_parses(runner, question):
    # "--": a question may start with "-", which would read as an option
    result = runner.invoke(cli.app, ["search", "--json", "--k", "3", "--", question])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["query"] == scrub(question) and len(record["results"]) <= 3
    assert set(record) == {"query", "abstained", "no_entry", "confidence", "results"}


def test_cli_json_from_a_real_process(cache_dir):
    """One real ``glossary-bot search --json`` over stdin lines a terminal or a pipe could deliver."""
    lines = [
        b"dropout kya hai",
        b"\xff\xfe not utf-8 \xc3(",
        "\u202eकृपया\u200b batch vs epoch\x00\x1b[0m 🤖".encode(),
        b"",
        ("ओवरफिटिंग क्या है? " * 10_000).encode(),
    ]
    stdin = b"\n".join(lines) + b"\n"
    env = {**os.environ, "GLOSSARY_BOT_CACHE_DIR": str(cache_dir), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "search", "--json"],
        input=stdin,
        capture_output=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    records = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert len(records) == len(lines)
    assert records[0]["results"][0]["id"] == "dropout"
    assert records[1]["query"].startswith("\ufffd\ufffd not utf-8")
    assert {r["id"] for r in records[2]["results"][:2]} == {"batch", "epoch"}
    assert records[3]["results"] == [] and records[4]["results"][0]["id"] == "overfitting"
