"""``python -m benchmarks.suggest [--entries N]``: server time of one keystroke's suggestions.

Every prefix (from two characters) of every entry name in both languages is typed, plus the same
names with one letter swapped (a typo); each is one call of the suggester the chat box asks
(``bot.lookup.suggest.Suggester``, what ``GET /suggest`` runs), timed alone. The floor is the Browse
filter (``bot.lookup.browse.filtered``) on the same text, the reading the suggestions share. Printed:
median, p95 and max in ms, and the medians' ratio. ``--entries N`` also measures the bundled
glossary's entries repeated up to N (``benchmarks.generated.generate``), as a large user glossary; no
vector index is needed, the suggester reads only the words. ``--out FILE`` keeps the run (the README's
figures are ``benchmarks/SUGGEST.json``'s, a test keeps them equal).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.generated import generate
from benchmarks.stats import timed_ms
from bot.lookup import browse
from bot.lookup.suggest import Suggester
from bot.search.lexical import LexicalIndex
from glossary import Glossary, load_glossary

#: Keystroke texts measured at most (spread evenly over all of them).
MAX_TYPED = 3000
#: Of which the floor is measured on this many (the Browse filter rebuilds every entry's text per call).
FLOOR_TEXTS = 50


def typed_texts(glossary: Glossary) -> list[str]:
    """Every prefix of every name, and each name with its 2nd and 3rd letters swapped."""
    names = [n for e in glossary.entries for n in dict.fromkeys([e.term_en, e.term_hi])]
    prefixes = [name[:i] for name in names for i in range(2, len(name) + 1)]
    typos = [name[0] + name[2] + name[1] + name[3:] for name in names if len(name) > 3]
    texts = list(dict.fromkeys(prefixes + typos))
    step = max(1, len(texts) // MAX_TYPED)
    return texts[::step]


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
        "max_ms": round(ordered[-1], 3),
    }


def measure(glossary: Glossary) -> dict[str, object]:
    lexical = LexicalIndex(glossary.entries)
    suggester = Suggester(glossary, lexical)
    texts = typed_texts(glossary)
    suggest = [timed_ms(lambda q=q: suggester(q, "en")) for q in texts]
    sample = texts[:: max(1, len(texts) // FLOOR_TEXTS)]
    floor = [timed_ms(lambda q=q: browse.filtered(glossary, q, browse.ALL, "en", lexical)) for q in sample]
    return {
        "entries": len(glossary),
        "keystrokes": len(texts),
        "suggest": _summary(suggest),
        "browse_filter_floor": _summary(floor),
        "ratio_p50": round(statistics.median(suggest) / statistics.median(floor), 5),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suggest", description=__doc__)
    parser.add_argument("--entries", type=int, default=0, help="Also the entries repeated up to this many.")
    parser.add_argument("--out", type=Path, help="Write the run here as JSON.")
    args = parser.parse_args(argv)
    run: dict[str, object] = {
        "command": "python -m benchmarks."
        + " ".join(["suggest", *(argv if argv is not None else sys.argv[1:])]),
        "date": datetime.now(UTC).isoformat(timespec="minutes"),
        "load_average": round(os.getloadavg()[0], 1),
        "bundled": measure(load_glossary()),
    }
    if args.entries:
        with tempfile.TemporaryDirectory() as folder:
            run["generated"] = measure(load_glossary([generate(args.entries, Path(folder))]))
    text = json.dumps(run, indent=2)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
