import numpy as np
import pytest

from index.convert import default_weights_path
from index.e5_file import _Q4_BLOCK, E5File, E5FileError, _dequantise


@pytest.fixture(scope="module")
def e5() -> E5File:
    return E5File(default_weights_path())


def test_header_describes_multilingual_e5_small(e5):
    h = e5.header
    assert (h.hidden, h.layers, h.heads, h.intermediate) == (384, 12, 12, 1536)
    assert h.vocab_rows == 250037 and h.max_positions == 512


def test_tokenizer_tables(e5):
    tok = e5.tokenizer
    assert tok.pieces[:4] == ["<s>", "<pad>", "</s>", "<unk>"]
    assert len(tok.pieces) == len(tok.scores) == 250002
    assert tok.norm_map[0x200D] == " " and tok.norm_map[0x200C] == " "  # ZWJ/ZWNJ become spaces
    assert tok.norm_map[0x095C] == "\u0921\u093c"  # precomposed nukta letters are decomposed


def test_tensor_shapes(e5):
    assert e5.tensor("l0.q.w", (384, 384)).shape == (384, 384)
    with pytest.raises(E5FileError, match="expected shape"):
        e5.tensor("l0.q.w", (384, 385))
    with pytest.raises(E5FileError, match="missing"):
        e5.tensor("nope", (1,))


def test_rows_equal_the_whole_table_indexed(e5):
    shape = (e5.header.vocab_rows, e5.header.hidden)
    ids = np.array([[0, 5, 250_001], [17, 17, 1000]])
    rows = e5.rows("emb.word", shape, ids)
    assert rows.shape == (2, 3, e5.header.hidden) and rows.dtype == np.float32
    assert np.array_equal(rows, e5.tensor("emb.word", shape)[ids])
    pos = (e5.header.max_positions, e5.header.hidden)  # a float32 tensor
    assert np.array_equal(e5.rows("emb.pos", pos, np.array([3, 1])), e5.tensor("emb.pos", pos)[[3, 1]])


def test_dequantise_q4_block_layout():
    scale = np.float16(0.5).tobytes()
    nibbles = bytes((j % 16) | (((15 - j) % 16) << 4) for j in range(16))
    out = _dequantise(np.frombuffer(scale + nibbles, dtype=_Q4_BLOCK))
    assert out[:16].tolist() == [(j - 8) * 0.5 for j in range(16)]
    assert out[16:].tolist() == [(15 - j - 8) * 0.5 for j in range(16)]


def test_bad_files_are_rejected(tmp_path):
    bad = tmp_path / "x.bin"
    bad.write_bytes(b"NOPE" + b"\0" * 64)
    with pytest.raises(E5FileError, match="bad magic"):
        E5File(bad)
    truncated = tmp_path / "t.bin"
    truncated.write_bytes(default_weights_path().read_bytes()[:100])
    with pytest.raises(E5FileError, match="truncated"):
        E5File(truncated)
    with pytest.raises(E5FileError, match="cannot read"):
        E5File(tmp_path / "missing.bin")
