import numpy as np
import pytest

from index.convert import default_weights_path
from index.e5_file import E5File, E5FileError, _dequantise_q4


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


def test_dequantise_q4_block_layout():
    scale = np.float16(0.5).tobytes()
    nibbles = bytes((j % 16) | (((15 - j) % 16) << 4) for j in range(16))
    out = _dequantise_q4(scale + nibbles, 0, 32)
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
