"""The index and calibration shipped for the bundled glossary: served only when they verify, and
what a build here gives (the real-model test rebuilds them from an empty cache and compares them as
tests/shipped_fits.py says: exactly but for the CPU's share of the numbers)."""

from __future__ import annotations

import pytest

from bot.core import GlossaryBot
from bot.search import calibration, prebuilt
from bot.search.sentences import SENTENCE_RECIPE, sentence_passages
from bot.settings import Settings
from glossary import load_glossary
from index.passages import RECIPE, glossary_passages
from index.store import FAISS_FILE, VectorIndex
from tests.shipped_fits import assert_same_fit, assert_same_vectors
from tests.test_embeddings import CountingEncoder, _passages


def _shipped(tmp_path):
    passages = _passages(["alpha", "beta"])
    vectors = VectorIndex.build(passages, CountingEncoder("enc"), "g1", RECIPE)
    folder = tmp_path / "prebuilt"
    prebuilt.write(vectors, calibration.shipped(), folder)
    return folder, passages


def test_a_verified_prebuilt_index_is_served(tmp_path):
    folder, passages = _shipped(tmp_path)
    found = prebuilt.load("g1", CountingEncoder("enc"), passages, Settings(), folder)
    assert found is not None
    vectors, fitted = found
    assert vectors.manifest.glossary_hash == "g1"
    assert fitted == calibration.shipped()


@pytest.mark.parametrize(("glossary_hash", "encoder_id"), [("g2", "enc"), ("g1", "other-encoder")])
def test_another_glossary_or_encoder_is_built_as_usual(tmp_path, glossary_hash, encoder_id):
    folder, passages = _shipped(tmp_path)
    assert prebuilt.load(glossary_hash, CountingEncoder(encoder_id), passages, Settings(), folder) is None


def test_a_damaged_or_mismatched_prebuilt_index_is_not_served(tmp_path, caplog):
    folder, passages = _shipped(tmp_path)
    assert (
        prebuilt.load("g1", CountingEncoder("enc"), _passages(["alpha", "beta", "gamma"]), Settings(), folder)
        is None
    )
    data = bytearray((folder / FAISS_FILE).read_bytes())
    data[-1] ^= 0xFF
    (folder / FAISS_FILE).write_bytes(bytes(data))
    assert prebuilt.load("g1", CountingEncoder("enc"), passages, Settings(), folder) is None
    assert "does not verify" in caplog.text


def test_a_fresh_cache_serves_the_shipped_index_without_encoding(tmp_path, monkeypatch):
    glossary = load_glossary()
    encoder = CountingEncoder("enc")
    passages = glossary_passages(list(glossary.entries))
    vectors = VectorIndex.build(passages, encoder, glossary.content_hash, RECIPE)
    _, said = sentence_passages(list(glossary.entries))
    sentences = VectorIndex.build(said, encoder, glossary.content_hash, SENTENCE_RECIPE)
    prebuilt.write(vectors, calibration.shipped(), tmp_path / "prebuilt", sentences)
    monkeypatch.setattr(prebuilt, "FOLDER", tmp_path / "prebuilt")
    encoder.texts.clear()
    bot = GlossaryBot.load(Settings(cache_dir=tmp_path / "cache"), encoder=encoder)
    assert encoder.texts == []
    assert not (tmp_path / "cache" / "indexes").exists()
    assert bot.retriever.vectors.manifest.faiss_sha256 == vectors.manifest.faiss_sha256
    assert bot.sentences is not None
    assert bot.sentences.vectors.manifest.faiss_sha256 == sentences.manifest.faiss_sha256


def test_a_damaged_or_mismatched_shipped_sentence_index_is_built_instead(tmp_path, caplog):
    folder, passages = _shipped(tmp_path)
    said = _passages(["gamma"])
    encoder = CountingEncoder("enc")
    sentences = VectorIndex.build(said, encoder, "g1", SENTENCE_RECIPE)
    vectors = VectorIndex.build(passages, encoder, "g1", RECIPE)
    prebuilt.write(vectors, calibration.shipped(), folder, sentences)
    assert prebuilt.load_sentences("g1", encoder, said, Settings(), folder) is not None
    assert prebuilt.load_sentences("g1", encoder, _passages(["gamma", "delta"]), Settings(), folder) is None
    damaged = folder / prebuilt.SENTENCES_DIR / FAISS_FILE
    data = bytearray(damaged.read_bytes())
    data[-1] ^= 0xFF
    damaged.write_bytes(bytes(data))
    assert prebuilt.load_sentences("g1", encoder, said, Settings(), folder) is None
    assert "sentence index" in caplog.text


@pytest.mark.model
def test_the_prebuilt_index_is_what_a_build_here_gives(tmp_path, settings):
    """bot/data/prebuilt/ is reproducible (`make prebuilt` remakes it): built in an empty cache folder.
    Texts the session's earlier builds encoded (the views without extras share most of them) are read
    from its embedding store: vectors this machine's encoder made, as encoding them again would."""
    fresh = settings.model_copy(
        update={"cache_dir": tmp_path / "cache", "embedding_store": settings.store_file}
    )
    built = GlossaryBot.load(fresh, rebuild_index=True)
    passages = glossary_passages(list(built.glossary.entries))
    shipped = prebuilt.load(built.glossary.content_hash, built.encoder, passages, fresh)
    assert shipped is not None, "the shipped index is not this glossary's or encoder's: run `make prebuilt`"
    vectors, fitted = shipped
    assert_same_vectors(vectors, built.retriever.vectors)
    assert_same_fit(fitted, built.calibration)
    _, said = sentence_passages(list(built.glossary.entries))
    sentences = prebuilt.load_sentences(built.glossary.content_hash, built.encoder, said, fresh)
    assert sentences is not None and built.sentences is not None, "run `make prebuilt`"
    assert_same_vectors(sentences, built.sentences.vectors)
