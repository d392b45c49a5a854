"""The maintainers' report: what the bot could not answer, which answers were disliked and why,
which entries are asked for most, per language, over a date range of the store.

Declined questions are grouped by meaning with the bot's own encoder (agglomerative clustering on
the cosine distance of their topics, "what is" / "kya hai" stripped), so "capital of France?" and
"फ्रांस की राजधानी क्या है" make one group: one topic the glossary lacks. Each group lists its count,
a few examples and the entries the bot found nearest to it.
Rendered as markdown (people), CSV or JSON (tools).

The cost is bounded whatever the store holds: the same text asked again is encoded once, and only
the ``MAX_GROUPED`` most recent distinct declined texts are clustered (clustering is quadratic in
what it groups: 7,951 texts took 90 s and 1.37 GB). Every text a visitor typed is inert in every
rendering: escaped in markdown (``bot.answer.escape_md``: no tag, link, image or table cell of its
own), and in CSV a cell that a spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``, tab,
carriage return first: OWASP's CSV injection) starts with a ``'``.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from bot.core import GlossaryBot
from bot.inputs import json_line
from bot.markdown import escape_md
from bot.records.store import UNANSWERED, AnswerSource
from bot.understand.courtesy import topic_of

#: Declined questions closer than this (cosine distance of their topics, average linkage) are one
#: group. Measured on made-up out-of-glossary topics with the scaffolding stripped: rephrasings of
#: one topic (also English vs Hindi) 0.01-0.05 apart, different topics 0.15 or more; unstripped,
#: "X kya hai" questions on different topics came as close as 0.105.
GROUP_DISTANCE = 0.10
#: Example questions shown per group, and nearest entries per group.
EXAMPLES = 3
NEAREST = 3
#: Rows shown per section in markdown (CSV and JSON carry them all).
TOP = 20
#: Most recent distinct declined texts grouped by meaning (the older ones are counted, not grouped):
#: bounds the report's time and memory (benchmarks/report.py).
MAX_GROUPED = 500
#: Question vectors a maintainers' area keeps between reports (384 floats each: 1.5 KB).
MEMO_SIZE = 4 * MAX_GROUPED
#: Groups, biggest first, whose nearest entries are looked up (one search each).
MAX_NEAREST_GROUPS = 50
#: A CSV cell beginning with one of these is a formula to a spreadsheet (OWASP CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: Kinds that cite entries the asker wanted (a follow-up repeats an earlier answer's).
ASKED_KINDS = frozenset({"answer", "comparison", "opposite"})


@dataclass(frozen=True)
class DeclinedGroup:
    count: int
    examples: list[str]
    languages: dict[str, int]
    nearest: list[str]  # entry ids, best first


@dataclass(frozen=True)
class DislikedAnswer:
    entry_ids: list[str]
    kind: str
    dislikes: int
    likes: int
    questions: list[str]
    comments: list[str]


@dataclass(frozen=True)
class LanguageCounts:
    questions: int = 0
    declined: int = 0
    likes: int = 0
    dislikes: int = 0


@dataclass
class Report:
    since: datetime | None
    until: datetime | None
    questions: int
    languages: dict[str, LanguageCounts]
    declined: list[DeclinedGroup]
    disliked: list[DislikedAnswer]
    most_asked: list[tuple[str, int]]
    terms: dict[str, str] = field(default_factory=dict)  # entry id -> its term, for display
    declined_total: int = 0  # declined questions with a text in the period
    declined_grouped: int = 0  # of which grouped by meaning (the most recent MAX_GROUPED texts)


class VectorMemo:
    """Question text -> its query vector, the ``size`` most recently used kept (in memory only: no
    visitor text outlives the store's retention on disk). A maintainers' area keeps one, so a report
    encodes only the texts declined since the last one."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    def encode(self, bot: GlossaryBot, texts: list[str]) -> np.ndarray:
        missing = [t for t in texts if t not in self._vectors]
        if missing:
            fresh = bot.encoder.encode_queries([topic_of(t) for t in missing])
            self._vectors.update(zip(missing, fresh, strict=True))
        for text in texts:
            self._vectors.move_to_end(text)
        while len(self._vectors) > self.size:
            self._vectors.popitem(last=False)
        return np.stack([self._vectors[t] for t in texts])


def group_declined(
    bot: GlossaryBot, rows: Sequence[dict[str, Any]], memo: VectorMemo | None = None
) -> list[DeclinedGroup]:
    """Declined questions (with text, oldest first) grouped by meaning, biggest group first: each
    distinct text once, the ``MAX_GROUPED`` most recent of them."""
    asked = Counter(r["question"] for r in rows)
    langs: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        langs[r["question"]][r["lang"]] += 1
    texts = list(dict.fromkeys(r["question"] for r in reversed(rows)))[:MAX_GROUPED]  # newest first
    if not texts:
        return []
    vectors = (memo or VectorMemo()).encode(bot, texts)
    if len(texts) == 1:
        labels = np.zeros(1, dtype=int)
    else:
        # Imported here: scikit-learn imports pandas and scipy.stats, ~100 MB that every app process
        # would otherwise hold from its start, though only a maintainer's report clusters.
        from sklearn.cluster import AgglomerativeClustering

        clustering = AgglomerativeClustering(
            n_clusters=None, metric="cosine", linkage="average", distance_threshold=GROUP_DISTANCE
        )
        labels = clustering.fit_predict(vectors)
    groups: list[tuple[int, list[str], dict[str, int], str]] = []
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        centre = vectors[members].mean(axis=0)
        central = [texts[i] for i in members[np.argsort(-(vectors[members] @ centre))]]  # most typical first
        languages: Counter[str] = Counter()
        for text in central:
            languages.update(langs[text])
        groups.append((sum(asked[t] for t in central), central[:EXAMPLES], dict(languages), central[0]))
    groups.sort(key=lambda g: (-g[0], g[1][0]))
    return [
        DeclinedGroup(
            count,
            examples,
            languages,
            [h.entry.id for h in bot.search(typical, NEAREST)] if n < MAX_NEAREST_GROUPS else [],
        )
        for n, (count, examples, languages, typical) in enumerate(groups)
    ]


def _disliked(rows: Sequence[dict[str, Any]]) -> list[DislikedAnswer]:
    """Answers grouped by what they cited (declines by kind), those with a dislike, most disliked first."""
    by_answer: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r["vote"] is not None:
            by_answer[(r["kind"], tuple(r["entry_ids"]))].append(r)
    out = []
    for (kind, entry_ids), voted in by_answer.items():
        dislikes = [r for r in voted if r["vote"] == "dislike"]
        if not dislikes:
            continue
        out.append(
            DislikedAnswer(
                entry_ids=list(entry_ids),
                kind=kind,
                dislikes=len(dislikes),
                likes=len(voted) - len(dislikes),
                questions=list(dict.fromkeys(r["question"] for r in dislikes if r["question"]))[:EXAMPLES],
                comments=[r["comment"] for r in dislikes if r["comment"]],
            )
        )
    return sorted(out, key=lambda d: (-d.dislikes, d.likes, d.entry_ids))


def _languages(rows: Sequence[dict[str, Any]]) -> dict[str, LanguageCounts]:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        c = counts[r["lang"]]
        c["questions"] += 1
        c["declined"] += r["kind"] in UNANSWERED
        if r["vote"] is not None:
            c[f"{r['vote']}s"] += 1
    return {lang: LanguageCounts(**c) for lang, c in sorted(counts.items())}


def build(
    store: AnswerSource,
    bot: GlossaryBot,
    since: datetime | None = None,
    until: datetime | None = None,
    memo: VectorMemo | None = None,
) -> Report:
    """The report over answers recorded in [since, until) (``memo``: vectors of earlier reports)."""
    rows = store.answers_between(since, until)
    declined = [r for r in rows if r["kind"] in UNANSWERED and r["question"]]
    asked = Counter(e for r in rows if r["kind"] in ASKED_KINDS for e in r["entry_ids"])
    report = Report(
        since=since,
        until=until,
        questions=len(rows),
        languages=_languages(rows),
        declined=group_declined(bot, declined, memo),
        disliked=_disliked(rows),
        most_asked=sorted(asked.items(), key=lambda kv: (-kv[1], kv[0])),
        declined_total=len(declined),
    )
    report.declined_grouped = sum(g.count for g in report.declined)
    ids = {e for g in report.declined for e in g.nearest} | {e for e, _ in report.most_asked}
    ids |= {e for d in report.disliked for e in d.entry_ids}
    terms = {e.id: e.term for e in bot.glossary.entries}  # an id may be gone since it was recorded
    report.terms = {i: terms[i] for i in sorted(ids) if i in terms}
    return report


def _period(report: Report) -> str:
    def day(d: datetime | None, open_end: str) -> str:
        return d.astimezone(UTC).isoformat(timespec="minutes") if d else open_end

    return f"{day(report.since, 'the first record')} to {day(report.until, 'now')}"


def _cell(text: str) -> str:
    """A visitor's or the glossary's text in a markdown table cell: one line, inert (no tag, link,
    image or emphasis), no cell-ending bars (``escape_md`` escapes them)."""
    return escape_md(text)


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: a leading formula character gets a ``'`` before it."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def to_markdown(report: Report) -> str:
    """The report for people (the CLI's default and the maintainers' area's download)."""

    def names(ids: Sequence[str]) -> str:
        return ", ".join(f"{_cell(report.terms.get(i, i))} (`{_cell(i)}`)" for i in ids) or "—"

    lines = [
        "# Glossary bot report",
        "",
        f"{report.questions} questions from {_period(report)}.",
        "",
        "## Per language",
        "",
        "| language | questions | declined | likes | dislikes |",
        "|---|---|---|---|---|",
        *(
            f"| {lang} | {c.questions} | {c.declined} | {c.likes} | {c.dislikes} |"
            for lang, c in report.languages.items()
        ),
        "",
        "## Declined questions, grouped by meaning",
        "",
        f"{report.declined_total} declined questions; {report.declined_grouped} of them (the "
        f"{MAX_GROUPED} most recent distinct texts at most) grouped by meaning.",
        "",
        "| count | languages | examples | nearest entries |",
        "|---|---|---|---|",
        *(
            f"| {g.count} | {', '.join(f'{k} {v}' for k, v in sorted(g.languages.items()))} | "
            f"{_cell(' · '.join(g.examples))} | {names(g.nearest)} |"
            for g in report.declined[:TOP]
        ),
        "",
        "## Most disliked answers",
        "",
        "| dislikes | likes | answer | questions | comments |",
        "|---|---|---|---|---|",
        *(
            f"| {d.dislikes} | {d.likes} | {d.kind}: {names(d.entry_ids)} | "
            f"{_cell(' · '.join(d.questions))} | {_cell(' · '.join(d.comments))} |"
            for d in report.disliked[:TOP]
        ),
        "",
        "## Most asked entries",
        "",
        "| times cited | entry |",
        "|---|---|",
        *(f"| {n} | {names([e])} |" for e, n in report.most_asked[:TOP]),
    ]
    return "\n".join(lines) + "\n"


def to_json(report: Report) -> str:
    """The whole report as one JSON document (line separators escaped: see ``bot.inputs.json_line``)."""
    data = asdict(report)
    data["since"] = report.since.isoformat() if report.since else None
    data["until"] = report.until.isoformat() if report.until else None
    data["most_asked"] = [{"entry_id": e, "count": n} for e, n in report.most_asked]
    return json_line(data)


def to_csv(report: Report) -> str:
    """One row per finding: section, count, languages, entry ids, examples, comments."""
    out = io.StringIO()
    writer = _InertWriter(csv.writer(out))
    writer.writerow(["section", "count", "likes", "languages", "entry_ids", "examples", "comments"])
    for lang, c in report.languages.items():
        writer.writerow(
            ["language", c.questions, c.likes, lang, "", f"declined {c.declined}", f"dislikes {c.dislikes}"]
        )
    for g in report.declined:
        langs = " ".join(f"{k}:{v}" for k, v in sorted(g.languages.items()))
        writer.writerow(["declined", g.count, "", langs, " ".join(g.nearest), " | ".join(g.examples), ""])
    for d in report.disliked:
        writer.writerow(
            [
                "disliked",
                d.dislikes,
                d.likes,
                "",
                " ".join(d.entry_ids),
                " | ".join(d.questions),
                " | ".join(d.comments),
            ]
        )
    for e, n in report.most_asked:
        writer.writerow(["asked", n, "", "", e, "", ""])
    return out.getvalue()


class _InertWriter:
    """A csv writer whose every cell goes through :func:`csv_cell` first."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, row: Sequence[object]) -> None:
        self._writer.writerow([csv_cell(cell) for cell in row])
