"""One benchmark run: every section in one process where possible, results to RESULTS.md."""

from __future__ import annotations

import gc
import logging
import os
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from benchmarks import build, latency, plots, report, scale, serving, startup
from benchmarks.config import BenchConfig
from benchmarks.queries import load_queries
from benchmarks.results import Results
from benchmarks.stats import Machine
from bot.core import GlossaryBot
from bot.settings import Settings

log = logging.getLogger("benchmarks")


def run(cfg: BenchConfig) -> Results:
    queries, items, source = load_queries(cfg.dev_set, cfg.max_queries)
    r = Results(config=cfg, machine=Machine.now(), query_source=source, started_at=datetime.now(UTC))
    order = [cfg.reference, *(b for b in cfg.backends if b != cfg.reference)]
    bots: dict[str, GlossaryBot] = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        for backend in order:
            log.info("backend %s", backend)
            start = time.perf_counter()
            bot = _load(cfg, backend)
            load_s = time.perf_counter() - start
            if "latency" in cfg.sections:
                lat = latency.measure(bot, load_s, queries, cfg.repeats, cfg.profile)
                lat.quality = latency.quality(bot, items)
                r.latency.append(lat)
            if not _comparable(r, backend):
                log.info(
                    "backend %s dropped: Recall@1 differs from %s by more than %s",
                    backend,
                    order[0],
                    cfg.parity,
                )
                continue
            r.kept.append(backend)
            bots[backend] = bot
            if "build" in cfg.sections:
                r.build.append(build.measure(bot, cfg.build_passages))
            if "http" in cfg.sections:
                _http(r, bot, queries, Path(tmp))
        if "http" in cfg.sections:
            _echo(r, queries)
        if "http" in cfg.sections and r.latency and cfg.queue_limits:
            _sweep(r, bots, queries, Path(tmp))
        if "scale" in cfg.sections:
            base_bot = next(iter(bots.values())) if bots else _load(cfg, cfg.reference)
            base = base_bot.retriever.vectors.faiss_index
            vectors = base.reconstruct_n(0, base.ntotal)
            qvecs = base_bot.encoder.inner.encode_queries(queries)
            bots.clear()
            del base_bot
            gc.collect()
            r.scale = scale.measure(
                vectors, np.asarray(qvecs), cfg.scale_sizes, cfg.hnsw_max, Settings().ann_nprobe
            )
        bots.clear()
        gc.collect()
        if "start" in cfg.sections:
            for backend in r.kept or order:
                log.info("start-up %s", backend)
                r.start.append(
                    startup.measure(
                        backend, cfg.cache_dir, cfg.start_repeats, cfg.first_start, cfg.glossary_paths
                    )
                )
    r.machine.load_end = os.getloadavg()
    r.finished_at = datetime.now(UTC)
    return r


def _load(cfg: BenchConfig, backend: str) -> GlossaryBot:
    settings = Settings(cache_dir=cfg.cache_dir, encoder_backend=backend, glossary_paths=cfg.glossary_paths)
    return GlossaryBot.load(settings)


def _comparable(r: Results, backend: str) -> bool:
    """Kept if its Recall@1 is within ``parity`` of the reference (or no labels/latency were measured)."""
    if not r.latency or r.latency[0].quality is None:
        return True
    ref = r.latency[0].quality.recall_at_1
    own = next(x.quality.recall_at_1 for x in r.latency if x.backend == backend)
    return ref is None or own is None or abs(own - ref) <= r.config.parity


def _http(r: Results, bot: GlossaryBot, queries: list[str], tmp: Path) -> None:
    """Sequential clients of each kind, a py-spy pass, then concurrent clients, on app.serve."""
    cfg, backend, cores = r.config, bot.settings.encoder_backend, r.machine.cores
    r.parallel_floor[backend] = serving.encoder_throughput(bot, queries, cores, min(cfg.http_seconds, 10))
    with serving.served(bot, None, tmp) as (url, handler):
        for kind in ("api", "rest", "gradio_client"):
            raw, _ = serving.run_load(url, queries, kind, clients=1, requests=len(queries))
            r.http.append(serving.load(backend, kind, "app.serve", 1, raw, handler.take(), cores))
        if cfg.profile:  # a pass of its own: the sampler's CPU must not slow the measured ones
            some = queries[:60]
            _, prof = serving.run_load(
                url, some, "api", clients=1, requests=len(some), profile_to=tmp / "spy"
            )
            handler.take()
            r.http[-3].server_profile = prof
        for kind in ("api", "rest"):
            raw, _ = serving.run_load(url, queries, kind, clients=cfg.http_clients, seconds=cfg.http_seconds)
            conc = serving.load(backend, kind, "app.serve", cfg.http_clients, raw, handler.take(), cores)
            r.concurrency.append(conc)


def _echo(r: Results, queries: list[str]) -> None:
    """The same clients against routes with nothing behind them: what the framework alone costs."""
    cfg, cores = r.config, r.machine.cores
    with serving.echo_app() as url:
        for kind in ("api", "rest"):
            raw, _ = serving.run_load(url, queries, kind, clients=1, requests=len(queries))
            r.echo.append(serving.load("echo (no bot)", kind, "4", 1, raw, ([], []), cores))
            raw, _ = serving.run_load(url, queries, kind, clients=cfg.http_clients, seconds=cfg.sweep_seconds)
            r.echo.append(serving.load("echo (no bot)", kind, "4", cfg.http_clients, raw, ([], []), cores))


def _sweep(r: Results, bots: dict[str, GlossaryBot], queries: list[str], tmp: Path) -> None:
    """The app's concurrency limit (answers computed at once), on the backend with the lowest floor."""
    cfg = r.config
    fastest = min((x for x in r.latency if x.backend in r.kept), key=lambda x: x.floor.p50).backend
    r.thread_scaling = serving.thread_scaling(bots[fastest], queries, cfg.queue_limits, cfg.sweep_seconds / 2)
    for limit in cfg.queue_limits:
        with serving.served(bots[fastest], limit, tmp) as (url, handler):
            raw, _ = serving.run_load(
                url, queries, "api", clients=cfg.http_clients, seconds=cfg.sweep_seconds
            )
            ms = handler.take()
        r.sweep.append(serving.load(fastest, "api", str(limit), cfg.http_clients, raw, ms, r.machine.cores))


def write(r: Results, out_dir: Path, name: str = "RESULTS.md") -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    plots.write(r, out_dir)
    (out_dir / name.replace(".md", ".json")).write_text(r.model_dump_json(indent=1), encoding="utf-8")
    path = out_dir / name
    path.write_text(report.markdown(r), encoding="utf-8")
    return path
