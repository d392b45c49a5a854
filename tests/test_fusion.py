"""Fusion and abstention mechanics with a tiny fake encoder (no quality claims here)."""

import numpy as np

from bot.search.retrieval import RetrievalOptions, Retriever, _z
from glossary import load_glossary
from index.passages import glossary_passages
from index.store import VectorIndex


class OneHotEncoder:
    """Every text maps to the same unit vector, so the dense branch cannot separate entries."""

    id = "onehot"
    dim = 4

    def _encode(self, texts):
        out = np.zeros((len(texts), 4), dtype=np.float32)
        out[:, 0] = 1
        return out

    encode_queries = encode_passages = _encode


def _retriever(**options) -> Retriever:
    entries = list(load_glossary().entries)
    enc = OneHotEncoder()
    vectors = VectorIndex.build(glossary_passages(entries), enc, "h", "r")
    return Retriever(entries, enc, vectors, RetrievalOptions(**options))


def test_z_scores():
    z = _z(np.array([1.0, 2.0, 3.0]))
    assert np.isclose(z.mean(), 0) and np.isclose(z.std(), 1)
    assert (_z(np.ones(3)) == 0).all()


def test_lexical_signals_decide_when_dense_is_flat():
    r = _retriever()
    ranking = r.rank("gradient clipping")
    assert r.entries[ranking.top].id == "gradient-clipping"
    assert ranking.name[ranking.top] >= 0.99


def test_weights_switch_signals_off():
    r = _retriever(bm25=0.0, name=0.0)
    ranking = r.rank("gradient clipping")
    assert np.allclose(ranking.fused, 0)  # dense is flat and the lexical weights are zero


def test_hinglish_glosses_reach_the_lexical_branch():
    r = _retriever()
    words, _, _ = r.words("loss kyu badhta hai", hinglish=True)
    assert "loss" in words and "increase" in words


def test_a_fully_typed_name_counts_by_the_share_of_the_question_it_makes_up():
    r = _retriever()
    alone = r.rank("gradient clipping")
    inside = r.rank("why would anyone limit huge updates with gradient clipping during long runs")
    top = alone.top
    assert alone.name_cover[top] == 1.0
    assert 0 < inside.name_cover[top] < 0.5
