"""A fresh process for start-up and memory figures (``python -m benchmarks.child MODE BACKEND CACHE``).

An optional last argument list names glossary files (default: the bundled glossary).

MODE ``bare``: import the libraries the bot is built on (``STACK``), load the model, encode one
question: the floor of a start. ``bare-encoder``: the model alone (no other library).
``bare-app``: ``bare`` plus importing gradio (the floor of the app's start).
MODE ``serve``: load the bot, answer one question, build the Gradio app, answer ``SERVE_QUESTIONS``
more. Prints one JSON object: wall-clock timestamps of each phase and the process's memory.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

QUESTION = "What is gradient clipping?"
SERVE_QUESTIONS = ["dropout kya hai?", "ओवरफिटिंग क्या है?", "batch vs epoch", "what is LoRA"] * 5
#: The third-party libraries ``import bot.core`` loads (tests/test_bench_smoke.py keeps this true);
#: the encoder's own library is imported by ``make_encoder``.
STACK = (
    "numpy",
    "faiss",
    "bm25s",
    "rapidfuzz",
    "regex",
    "pydantic",
    "pydantic_settings",
    "yaml",
    "tqdm",
    "filelock",
    "stopwordsiso",
)


def bare(backend: str, cache: Path, libraries: tuple[str, ...]) -> dict:
    for name in libraries:
        importlib.import_module(name)
    from index.encoders.registry import make_encoder

    imported = time.time()
    make_encoder(backend, cache).encode_queries([QUESTION])
    return {"imported": imported, "ready": time.time()}


def serve(backend: str, cache: Path, glossary: list[Path]) -> dict:
    from bot.core import GlossaryBot
    from bot.settings import Settings

    imported = time.time()
    bot = GlossaryBot.load(Settings(cache_dir=cache, encoder_backend=backend, glossary_paths=glossary))
    loaded = time.time()
    bot.answer(QUESTION)
    first = time.time()
    from ui.layout import build_app

    build_app(bot)
    app_built = time.time()
    for q in SERVE_QUESTIONS:
        bot.answer(q)
    return {"imported": imported, "loaded": loaded, "ready": first, "app_built": app_built}


MODES = {"bare": STACK, "bare-encoder": (), "bare-app": (*STACK, "gradio")}


def status_mb(field: str, pid: int | str = "self") -> float:
    """VmRSS (now) or VmHWM (peak) of this process (or process ``pid``). Not ru_maxrss: Linux carries
    that over from the parent across fork and exec, so a child of a big benchmark process would
    report its size."""
    with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return float("nan")


if __name__ == "__main__":
    mode, backend, cache, *glossary = sys.argv[1:]
    if mode in MODES:
        stamps = bare(backend, Path(cache), MODES[mode])
    else:
        stamps = serve(backend, Path(cache), [Path(g) for g in glossary])
    stamps["peak_rss_mb"] = status_mb("VmHWM")
    stamps["rss_mb"] = status_mb("VmRSS")
    print(json.dumps(stamps))
