"""A fresh process for start-up and memory figures (``python -m benchmarks.child MODE BACKEND CACHE``).

An optional last argument list names glossary files (default: the bundled glossary).

MODE ``bare``: import the encoder stack, load the model, encode one question (the floor of a start).
MODE ``serve``: load the bot, answer one question, build the Gradio app, answer ``SERVE_QUESTIONS``
more. Prints one JSON object: wall-clock timestamps of each phase and the process's memory.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

QUESTION = "What is gradient clipping?"
SERVE_QUESTIONS = ["dropout kya hai?", "ओवरफिटिंग क्या है?", "batch vs epoch", "what is LoRA"] * 5


def bare(backend: str, cache: Path) -> dict:
    from index.encoders import make_encoder

    imported = time.time()
    make_encoder(backend, cache).encode_queries([QUESTION])  # type: ignore[arg-type]
    return {"imported": imported, "ready": time.time()}


def serve(backend: str, cache: Path, glossary: list[Path]) -> dict:
    from bot.core import GlossaryBot
    from bot.settings import Settings

    imported = time.time()
    bot = GlossaryBot.load(Settings(cache_dir=cache, encoder_backend=backend, glossary_paths=glossary))
    loaded = time.time()
    bot.answer(QUESTION)
    first = time.time()
    import app

    app.build_app(bot)
    app_built = time.time()
    for q in SERVE_QUESTIONS:
        bot.answer(q)
    return {"imported": imported, "loaded": loaded, "ready": first, "app_built": app_built}


def _status_mb(field: str) -> float:
    """VmRSS (now) or VmHWM (peak) of this process. Not ru_maxrss: Linux carries that over from
    the parent across fork and exec, so a child of a big benchmark process would report its size."""
    with open("/proc/self/status", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return float("nan")


if __name__ == "__main__":
    mode, backend, cache, *glossary = sys.argv[1:]
    if mode == "bare":
        stamps = bare(backend, Path(cache))
    else:
        stamps = serve(backend, Path(cache), [Path(g) for g in glossary])
    stamps["peak_rss_mb"] = _status_mb("VmHWM")
    stamps["rss_mb"] = _status_mb("VmRSS")
    print(json.dumps(stamps))
