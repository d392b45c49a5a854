"""A big first build serves a first pass of its index (the query-prompt copies), then completes it:
``GlossaryBot.load(first_pass=True)`` and ``complete_index``, as the app starts. Fake encoders
record what is encoded with which prompt; one test with the real model checks the answers of
both (small glossaries: ``first_pass_min_texts`` lowered, no quality figure claimed)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from bot import core
from bot.core import GlossaryBot
from bot.settings import Settings
from index.embeddings import STORE_FILE, BuildStatus, EmbeddingStore
from index.passages import FIRST_PASS_PROMPT, FIRST_PASS_RECIPE, RECIPE
from index.store import INDEX_DIR, MANIFEST_FILE
from tests.factories import user_entry
from tests.test_glossary_loader import document, write_yaml
from tests.test_reliability_glossary import QUOKKA, WOMBAT, user_bot
from ui.health import health_routes

ENTRIES = 4


class PromptEncoder:
    """Hash-seeded unit vectors that record (prompt, text) of every text encoded (no quality claims)."""

    dim = 8
    id = "prompt-recorder"

    def __init__(self) -> None:
        self.encoded: list[tuple[str, str]] = []

    def _encode(self, prompt: str, texts: list[str]) -> np.ndarray:
        self.encoded.extend((prompt, t) for t in texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(f"{prompt}|{text}".encode()).digest()[:4], "big")
            v = np.random.default_rng(seed).standard_normal(self.dim)
            out[i] = v / np.linalg.norm(v)
        return out

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode("query", texts)

    def encode_passages(self, texts: list[str]) -> np.ndarray:
        return self._encode("passage", texts)

    def prompts(self) -> set[str]:
        return {prompt for prompt, _ in self.encoded}


@pytest.fixture()
def glossary_file(tmp_path) -> Path:
    entries = [
        user_entry(f"term-{i}", definition_en=f"Definition number {i}.", usage_en=f"Usage {i}.")
        for i in range(ENTRIES)
    ]
    return write_yaml(tmp_path / "g.yaml", document(*entries))


def _settings(tmp_path: Path, glossary: Path, min_texts: int = 1) -> Settings:
    return Settings(glossary_paths=[glossary], cache_dir=tmp_path / "cache", first_pass_min_texts=min_texts)


def _recipes(cache: Path) -> set[str]:
    manifests = (cache / INDEX_DIR).glob(f"*/{MANIFEST_FILE}")
    return {json.loads(m.read_text(encoding="utf-8"))["recipe"] for m in manifests}


def test_a_first_pass_encodes_the_query_copies_and_completing_encodes_the_rest(tmp_path, glossary_file):
    settings, encoder = _settings(tmp_path, glossary_file), PromptEncoder()
    bot = GlossaryBot.load(settings, encoder=encoder, sentences=False, first_pass=True)
    assert bot.complete is False
    assert encoder.prompts() == {FIRST_PASS_PROMPT}, "calibration questions are queries too"
    assert {row.prompt for row in bot.retriever.vectors.manifest.rows} == {FIRST_PASS_PROMPT}
    assert _recipes(settings.cache_dir) == {FIRST_PASS_RECIPE}
    first = len(encoder.encoded)
    assert bot.complete_index() is True
    assert bot.complete is True
    later = encoder.encoded[first:]
    assert later and {prompt for prompt, _ in later} == {"passage"}, "the query copies come from the store"
    assert _recipes(settings.cache_dir) == {FIRST_PASS_RECIPE, RECIPE}
    assert bot.complete_index() is False, "nothing left to complete"


def test_the_completed_index_is_the_one_a_whole_build_makes(tmp_path, glossary_file):
    completed = GlossaryBot.load(
        _settings(tmp_path / "a", glossary_file), encoder=PromptEncoder(), sentences=False, first_pass=True
    )
    completed.complete_index()
    whole = GlossaryBot.load(
        _settings(tmp_path / "b", glossary_file, 0), encoder=PromptEncoder(), sentences=False
    )
    assert completed.retriever.vectors.manifest.rows == whole.retriever.vectors.manifest.rows
    assert completed.calibration == whole.calibration


def test_no_first_pass_under_the_threshold_or_when_the_setting_is_0(tmp_path, glossary_file):
    for name, min_texts in (("under", 10_000), ("off", 0)):
        bot = GlossaryBot.load(
            _settings(tmp_path / name, glossary_file, min_texts),
            encoder=PromptEncoder(),
            sentences=False,
            first_pass=True,
        )
        assert bot.complete is True, name
        assert _recipes(tmp_path / name / "cache") == {RECIPE}, name


def test_no_first_pass_when_the_whole_index_is_saved_or_its_texts_are_stored(tmp_path, glossary_file):
    settings = _settings(tmp_path, glossary_file)
    GlossaryBot.load(settings, encoder=PromptEncoder(), sentences=False)
    again = PromptEncoder()
    assert GlossaryBot.load(settings, encoder=again, sentences=False, first_pass=True).complete
    assert again.encoded == []
    shutil.rmtree(settings.cache_dir / INDEX_DIR)  # indexes lost, the embedding store kept
    rebuilt = GlossaryBot.load(settings, encoder=again, sentences=False, first_pass=True)
    assert rebuilt.complete is True and again.encoded == []


def test_a_completion_for_a_glossary_replaced_meanwhile_is_dropped(tmp_path, glossary_file, monkeypatch):
    settings, encoder = _settings(tmp_path, glossary_file), PromptEncoder()
    bot = GlossaryBot.load(settings, encoder=encoder, sentences=False, first_pass=True)
    built = core.ready
    edits = [document(user_entry("other", definition_en="Another glossary's only entry."))]

    def edited_meanwhile(*args, **kwargs):
        loaded = built(*args, **kwargs)
        if edits and not kwargs.get("first_pass"):
            write_yaml(glossary_file, edits.pop())
            assert bot.reload() is True  # which serves and completes the new glossary itself
        return loaded

    monkeypatch.setattr(core, "ready", edited_meanwhile)
    assert bot.complete_index() is False
    assert [e.id for e in bot.glossary.entries] == ["other"]
    assert bot.complete is True


def test_a_completion_that_fails_leaves_the_first_pass_serving(tmp_path, glossary_file, monkeypatch, caplog):
    bot = GlossaryBot.load(
        _settings(tmp_path, glossary_file), encoder=PromptEncoder(), sentences=False, first_pass=True
    )

    def unwritable(*args, **kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(core, "ready", unwritable)
    assert bot.complete_index() is False
    assert "index not completed (answers come from its first pass): No space left on device" in caplog.text
    assert bot.complete is False and bot.completing is None
    assert bot.search("Definition number 2")


def test_readyz_says_whether_the_index_is_a_first_pass(tmp_path, glossary_file):
    bot = GlossaryBot.load(
        _settings(tmp_path, glossary_file), encoder=PromptEncoder(), sentences=False, first_pass=True
    )
    readyz = next(r for r in health_routes(bot) if r.path == "/readyz").endpoint
    assert readyz()["ready"] is True
    assert readyz()["index"] == "first pass (query-prompt copies only); not being completed"
    bot.completing = BuildStatus()
    bot.completing.begin("encoding g.yaml")
    bot.completing.expect(8, 4)
    assert (
        readyz()["index"]
        == "first pass (query-prompt copies only); encoding g.yaml: 4/8 texts (4 already encoded)"
    )
    bot.completing = None
    bot.complete_index()
    assert readyz()["index"] == "complete"


def test_the_store_counts_what_it_holds_of_some_texts(tmp_path):
    store = EmbeddingStore(tmp_path / STORE_FILE)
    store.add("enc", "passage", ["a", "b"], np.ones((2, 4), dtype=np.float32))
    store.add("enc", "query", ["c"], np.ones((1, 4), dtype=np.float32))
    assert store.stored("enc", "passage", ["a", "b", "c", "d"]) == 2
    assert store.stored("enc", "query", ["a", "c"]) == 1
    assert store.stored("other", "passage", ["a"]) == 0


@pytest.mark.model
def test_a_first_pass_and_its_completion_answer_with_the_real_model(bot, tmp_path):
    glossary = write_yaml(tmp_path / "user.yaml", document(QUOKKA, WOMBAT))
    served = user_bot(bot, tmp_path, glossary, sentences=False, first_pass_min_texts=1)
    assert served.complete is True, "user_bot loads without a first pass"
    shutil.rmtree(tmp_path / "cache")
    settings = served.settings
    first = GlossaryBot.load(settings, encoder=bot.encoder, sentences=False, first_pass=True)
    assert first.complete is False
    assert first.answer("What is Wombat rate?").entry_ids == ["wombat-rate"]
    assert first.complete_index() is True
    assert first.answer("What is Wombat rate?").entry_ids == ["wombat-rate"]
    assert [h.entry.id for h in first.search("quokka loss kya hai")] == [
        h.entry.id for h in served.search("quokka loss kya hai")
    ]
