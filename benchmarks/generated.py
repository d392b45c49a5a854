"""The generated glossaries the deploy, suggestion and edit benchmarks build (and the memory one reads
where the deploy one kept it): the bundled and CNCF entries copied up to any size, each copy's texts
made distinct so that a build encodes them."""

from __future__ import annotations

from copy import deepcopy
from pathlib import Path

import yaml

from benchmarks.config import REPO

CNCF = REPO.parent / "shared" / "eval" / "foreign" / "cncf-hi" / "glossary.yaml"
BUNDLED = sorted((REPO / "glossary" / "data").glob("*.yaml"))
#: The fields of an entry whose text a copy varies (so that copies are encoded, not found stored).
TEXT_FIELDS = ("definition_en", "definition_hi", "usage_en", "usage_hi", "example_en", "example_hi")


def generate(entries: int, folder: Path, same_texts: bool = False) -> Path:
    """A glossary of ``entries`` entries: the bundled and CNCF entries again and again, each copy's
    id, terms and texts marked with its number (so every text is new to the encoder). ``same_texts``:
    only the id is marked, so a build encodes each text once (about 1,600 texts at any size) and
    everything else a build does is measured at full size."""
    sources = []
    for path in [*BUNDLED, CNCF]:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["entries"]:
            kept = {
                k: v for k, v in entry.items() if k not in {"paraphrases", "aliases", "related", "source"}
            }
            sources.append(kept)
    out = []
    for n in range(entries):
        entry = deepcopy(sources[n % len(sources)])  # shared maps would be written as YAML aliases
        copy = n // len(sources)
        entry["id"] = f"{entry['id']}-{copy}"
        for key in () if same_texts else ("term", "term_en", "term_hi"):
            entry[key] = f"{entry[key]} {copy}"
        for key in () if same_texts else TEXT_FIELDS:
            if entry.get(key):
                entry[key] = f"{entry[key]} ({copy})"
        entry["source"] = {"document": "generated.txt", "line": n + 1}
        out.append(entry)
    path = folder / "generated.yaml"
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"document": "generated.txt", "title_hi": "benchmark", "entries": out}
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path
