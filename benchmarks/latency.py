"""In-process latency against the encoder floor, and retrieval quality, for one backend.

The floor is the bare encoder (``bot.encoder.inner``) on one question. ``bot.search`` and
``bot.answer`` run through GlossaryBot's CachedEncoder, whose LRU is cleared before every
timed call, so each figure is what a new question costs; ``answer_repeat`` is the same
question asked again at once (served from that cache).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pydantic import BaseModel

from benchmarks.profile import Breakdown, profile_calls
from benchmarks.stats import Dist, timed_ms
from bot import evaluation
from bot.core import GlossaryBot
from bot.evaluation import EvalItem, Metrics


class Latency(BaseModel):
    backend: str
    load_s: float
    floor: Dist
    search: Dist
    answer: Dist
    answer_repeat: Dist
    index_part: Dist
    encoder_in_answer: Dist
    quality: Metrics | None
    profile: Breakdown | None = None

    @property
    def answer_ratio(self) -> float:
        return self.answer.p50 / self.floor.p50

    @property
    def search_ratio(self) -> float:
        return self.search.p50 / self.floor.p50


def measure(bot: GlossaryBot, load_s: float, queries: list[str], repeats: int, profile: bool) -> Latency:
    inner = bot.encoder.inner
    clear = bot.encoder._cached.cache_clear
    spent: list[float] = []
    real_encode = inner.encode_queries

    def counted(texts: list[str]):
        start = time.perf_counter()
        try:
            return real_encode(texts)
        finally:
            spent.append((time.perf_counter() - start) * 1000)

    def cold(call: Callable[[str], object]) -> Callable[[str], float]:
        def run(q: str) -> float:
            clear()
            return timed_ms(lambda: call(q))

        return run

    for q in queries[:3]:  # first calls pay one-off costs (lazy inits, allocator growth)
        inner.encode_queries([q])
        bot.answer(q)
    series: dict[str, list[float]] = {k: [] for k in ("floor", "search", "answer", "repeat", "index")}
    steps = [
        ("floor", lambda q: timed_ms(lambda: real_encode([q]))),
        ("search", cold(bot.search)),
        ("answer", cold(bot.answer)),
    ]
    inner.encode_queries = counted  # type: ignore[method-assign]  # encoder time inside answer
    try:
        for r in range(repeats):
            for i, q in enumerate(queries):
                shift = (i + r) % len(steps)  # rotate the order so drift hits every series alike
                for name, step in steps[shift:] + steps[:shift]:
                    mark = len(spent)
                    series[name].append(step(q))
                    if name != "answer":
                        del spent[mark:]
                series["repeat"].append(timed_ms(lambda q=q: bot.answer(q)))  # a cache hit
                vector = real_encode([q])
                series["index"].append(timed_ms(lambda v=vector: bot.retriever.vectors.scores(v)))
    finally:
        del inner.encode_queries
    breakdown = profile_calls(cold(bot.answer), queries[:60]) if profile else None
    return Latency(
        backend=bot.settings.encoder_backend,
        load_s=load_s,
        floor=Dist.of(series["floor"]),
        search=Dist.of(series["search"]),
        answer=Dist.of(series["answer"]),
        answer_repeat=Dist.of(series["repeat"]),
        index_part=Dist.of(series["index"]),
        encoder_in_answer=Dist.of(spent),
        quality=None,
        profile=breakdown,
    )


def quality(bot: GlossaryBot, items: list[EvalItem]) -> Metrics | None:
    """The dev-set metrics through bot.evaluation, as ``glossary-bot eval`` computes them."""
    if not items:
        return None
    return evaluation.grouped(evaluation.run(items, evaluation.retrieve_with(bot)))["overall"]
