"""The sentence index, which only advice reads, is left out where nothing needs it and added later:
``GlossaryBot.load(sentences=False)`` then ``add_sentences`` (the app serves first), and the CLI's
``search`` never builds it. The real model encodes small glossaries here; no quality is claimed."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot import core
from bot.search.sentences import SENTENCE_RECIPE
from index import embeddings
from index.embeddings import BuildStatus
from index.passages import RECIPE
from index.store import INDEX_DIR, MANIFEST_FILE
from tests.test_cli import run_cli
from tests.test_glossary_loader import document, write_yaml
from tests.test_reliability_glossary import QUOKKA, WOMBAT, user_bot
from ui.health import health_routes
from ui.serve import _finish_later

pytestmark = pytest.mark.model

#: A how-to question about the one entry: advice reads the sentence index for it.
HOW_TO = "How do I use Quokka loss?"


@pytest.fixture()
def glossary_file(tmp_path) -> Path:
    return write_yaml(tmp_path / "user.yaml", document(QUOKKA))


def _recipes(cache: Path) -> set[str]:
    """The recipes of the indexes saved in ``cache``."""
    manifests = (cache / INDEX_DIR).glob(f"*/{MANIFEST_FILE}")
    return {json.loads(m.read_text(encoding="utf-8"))["recipe"] for m in manifests}


def test_a_bot_without_sentences_ranks_alike_and_adds_them_once(bot, tmp_path, glossary_file):
    whole = user_bot(bot, tmp_path / "whole", glossary_file)
    lean = user_bot(bot, tmp_path / "lean", glossary_file, sentences=False)
    assert lean.sentences is None and whole.sentences is not None
    assert _recipes(tmp_path / "lean" / "cache") == {RECIPE}
    assert [h.entry.id for h in lean.search(HOW_TO)] == [h.entry.id for h in whole.search(HOW_TO)]
    before = lean.answer(HOW_TO)
    assert lean.add_sentences() is True
    assert lean.sentences is not None and lean.sentences.sentences == whole.sentences.sentences
    assert _recipes(tmp_path / "lean" / "cache") == {RECIPE, SENTENCE_RECIPE}
    assert lean.add_sentences() is False  # already there: nothing built again
    assert lean.answer(HOW_TO).entry_ids == before.entry_ids == ["quokka-loss"]


def test_sentences_built_for_a_glossary_replaced_meanwhile_are_dropped(
    bot, tmp_path, glossary_file, monkeypatch
):
    lean = user_bot(bot, tmp_path, glossary_file, sentences=False)
    built = core.sentence_index
    edits = [document(QUOKKA, WOMBAT)]

    def edited_meanwhile(*args, **kwargs):
        index = built(*args, **kwargs)
        if edits:
            write_yaml(glossary_file, edits.pop())
            assert lean.reload() is True  # the reload adds the new glossary's own sentences
        return index

    monkeypatch.setattr(core, "sentence_index", edited_meanwhile)
    assert lean.add_sentences() is False
    assert {s.entry_id for s in lean.sentences.sentences} == {"quokka-loss", "wombat-rate"}


def test_a_reload_serves_the_edit_before_its_sentences_then_adds_them(
    bot, tmp_path, glossary_file, monkeypatch
):
    served = user_bot(bot, tmp_path, glossary_file)
    seen: list[tuple[int, bool]] = []
    built = core.sentence_index

    def watched(glossary, *args, **kwargs):
        seen.append((len(served.glossary), served.sentences is None))  # what is served meanwhile
        return built(glossary, *args, **kwargs)

    monkeypatch.setattr(core, "sentence_index", watched)
    write_yaml(glossary_file, document(QUOKKA, WOMBAT))
    assert served.reload() is True
    assert seen == [(2, True)], "the edit is served, without sentences, while they are built"
    assert {s.entry_id for s in served.sentences.sentences} == {"quokka-loss", "wombat-rate"}


def test_sentences_that_cannot_be_built_cost_only_advice(bot, tmp_path, glossary_file, monkeypatch, caplog):
    lean = user_bot(bot, tmp_path, glossary_file, sentences=False)

    def unwritable(*args, **kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(core, "sentence_index", unwritable)
    assert lean.add_sentences() is False
    assert "advice sentences not built (advice looks in whole fields): No space left on device" in caplog.text
    assert lean.answer(HOW_TO).entry_ids == ["quokka-loss"]


def test_readyz_says_how_far_the_sentences_are(bot, tmp_path, glossary_file):
    lean = user_bot(bot, tmp_path, glossary_file, sentences=False)
    readyz = next(r for r in health_routes(lean) if r.path == "/readyz").endpoint
    assert readyz()["ready"] is True
    assert readyz()["advice_sentences"] == "not built (advice looks in whole fields)"
    lean.adding = BuildStatus()
    lean.adding.begin("encoding the sentences of user.yaml")
    lean.adding.expect(10, 4)
    assert (
        readyz()["advice_sentences"] == "encoding the sentences of user.yaml: 4/10 texts (4 already encoded)"
    )
    lean.adding = None
    _finish_later(lean).join(timeout=300)
    assert readyz()["advice_sentences"] == "ready"


def test_the_cli_search_builds_no_sentences_and_ask_does(tmp_path, glossary_file):
    cache = tmp_path / "cache"
    found = run_cli("--glossary", str(glossary_file), "search", "quokka loss", "--json", cache_dir=cache)
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["results"][0]["id"] == "quokka-loss"
    assert _recipes(cache) == {RECIPE}
    asked = run_cli("--glossary", str(glossary_file), "ask", HOW_TO, cache_dir=cache)
    assert asked.returncode == 0, asked.stderr
    assert _recipes(cache) == {RECIPE, SENTENCE_RECIPE}


def test_adding_sentences_keeps_the_index_vectors_in_the_store(bot, tmp_path, monkeypatch):
    """Only an index build ages the embedding store: sized by its few sentences, a sentence build
    deleted the vectors of the index it serves."""
    monkeypatch.setattr(embeddings, "MIN_KEPT", 1)
    monkeypatch.setattr(embeddings, "KEEP_FACTOR", 1)  # a store kept to what the last build used
    two_sentences = {**QUOKKA, "definition_en": "A made-up loss. It is used to test reloading."}
    glossary_file = write_yaml(tmp_path / "user.yaml", document(two_sentences))
    lean = user_bot(bot, tmp_path, glossary_file, sentences=False)
    before = _stored_keys(lean.settings.store_file)
    assert lean.add_sentences() is True
    after = _stored_keys(lean.settings.store_file)
    assert before < after, "the sentences are added and nothing the index used is deleted"


def _stored_keys(store: Path) -> set[tuple[str, bytes]]:
    with closing(sqlite3.connect(store)) as db:
        return set(db.execute("SELECT prompt, digest FROM vectors"))
