"""Chat sessions against a running app on 127.0.0.1, each checking that it hears only about its own term.

Each session is one browser-like client (its own Gradio session hash) that talks to the app's
queue over HTTP the way the page does: ``/chat`` for questions and the chat's like button for
votes. A session is given one glossary entry and asks about it in turn in English, Hindi and
Hinglish, with follow-ups ("give me an example", "in Hindi please") in between. The questions
name the entry outright, so the correct answer is known in advance: every answer must cite that
entry and no other, and the history the app returns must be the session's own history plus the
new turn. A mixed-up session (cross-talk), a wrong answer, an error or a timeout is an error.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import httpx

from bot.answer import cited_sources, unescape_md
from bot.comparison import split_comparison
from bot.dialogue import CitationIndex, is_answer, message_text, named_entry
from bot.records import Store
from glossary import Glossary, GlossaryEntry

#: A session's questions, in turn; ``{en}`` and ``{hi}`` are its term's names.
SCRIPT = (
    "What is {en}?",
    "give me an example",
    "{hi} क्या है?",
    "iska usage batao",
    "{en} kya hai?",
    "tell me more",
    "in Hindi please",
    "in English please",
)
#: The questions that name the term (the others are follow-ups).
NAMING = tuple(q for q in SCRIPT if "{" in q)
TIMEOUT_S = 120.0


def questions_for(entry: GlossaryEntry, count: int) -> list[str]:
    return [SCRIPT[i % len(SCRIPT)].format(en=entry.term_en, hi=entry.term_hi) for i in range(count)]


def askable(entry: GlossaryEntry, glossary: Glossary) -> bool:
    """The script's questions name this entry and no other (so its answer is known in advance)."""
    for template in NAMING:
        question = template.format(en=entry.term_en, hi=entry.term_hi)
        found = named_entry(question, glossary)
        if found is None or found.id != entry.id or split_comparison(question) is not None:
            return False
    return True


@dataclass
class Report:
    sessions: int
    questions: int
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    votes: list[tuple[str, str, str]] = field(default_factory=list)  # (question, entry id, vote)
    wall_s: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, latency: float | None = None, error: str | None = None, vote=None) -> None:
        with self._lock:
            if latency is not None:
                self.latencies.append(latency)
            if error is not None:
                self.errors.append(error)
            if vote is not None:
                self.votes.append(vote)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")

    def summary(self) -> str:
        mean = statistics.fmean(self.latencies) if self.latencies else float("nan")
        return (
            f"{self.sessions} sessions x {self.questions} questions: {len(self.latencies)} answers, "
            f"{len(self.errors)} errors, {len(self.votes)} votes; latency "
            f"p50 {self.percentile(50) * 1000:.0f} ms, p95 {self.percentile(95) * 1000:.0f} ms, "
            f"mean {mean * 1000:.0f} ms; wall {self.wall_s:.1f} s"
        )


class AppSession:
    """One browser-like session talking to the app's queue (what the page does, over plain HTTP)."""

    def __init__(self, url: str, http: httpx.Client, endpoints: dict[str, tuple[int, int | None]]) -> None:
        self.url = url
        self.http = http
        self.endpoints = endpoints
        self.session_hash = uuid.uuid4().hex[:11]
        self.history: list[dict] = []

    def call(self, name: str, data: list, event_data: dict | None = None) -> list:
        fn_index, trigger_id = self.endpoints[name]
        body = {
            "data": data,
            "event_data": event_data,
            "fn_index": fn_index,
            "trigger_id": trigger_id,
            "session_hash": self.session_hash,
        }
        joined = self.http.post(f"{self.url}/gradio_api/queue/join", json=body)
        joined.raise_for_status()
        event_id = joined.json()["event_id"]
        params = {"session_hash": self.session_hash}
        with self.http.stream("GET", f"{self.url}/gradio_api/queue/data", params=params) as stream:
            for line in stream.iter_lines():
                if not line.startswith("data:"):
                    continue
                message = json.loads(line[len("data:") :])
                if message.get("event_id") != event_id or message.get("msg") != "process_completed":
                    continue
                if not message.get("success"):
                    raise RuntimeError(f"{name} failed: {message.get('output')}")
                return message["output"]["data"]
        raise RuntimeError(f"{name}: the event stream ended without a result")

    def chat(self, question: str) -> list[dict]:
        """Ask; returns the new messages (question, answer, sources) after checking the history."""
        # None: the server-side states (related-term labels, cited entries)
        box, history, *_ = self.call("chat", [question, self.history, None, None])
        if box != "" or history[: len(self.history)] != self.history:
            raise RuntimeError(f"history came back changed for {question!r}")
        new = history[len(self.history) :]
        self.history = history
        return new

    def vote(self, position: int, liked: bool) -> None:
        self.call("vote", [self.history, None, "en"], {"index": position, "value": None, "liked": liked})


def endpoints(url: str) -> dict[str, tuple[int, int | None]]:
    """fn_index and trigger of each named event, from the app's config (as the page reads them)."""
    config = httpx.get(f"{url}/config", timeout=30).json()
    out = {}
    for dep in config["dependencies"]:
        targets = dep.get("targets") or [[None]]
        out.setdefault(dep["api_name"], (dep["id"], targets[0][0]))
    return out


def run_session(url, ends, entry: GlossaryEntry, questions: Sequence[str], vote_every: int, report, index):
    own = entry.source.cite()
    with httpx.Client(timeout=TIMEOUT_S) as http:
        session = AppSession(url, http, ends)
        for n, question in enumerate(questions, start=1):
            start = time.perf_counter()
            try:
                new = session.chat(question)
            except (httpx.HTTPError, RuntimeError, ValueError, KeyError) as exc:
                report.add(error=f"{entry.id} q{n} {question!r}: {exc}")
                return
            report.add(latency=time.perf_counter() - start)
            asked = unescape_md(message_text(new[0]))
            answers = [m for m in new if is_answer(m)]
            sources = [c for a in answers for c in cited_sources(message_text(a))]
            cited = {index[c] for c in sources if c in index}
            if asked != question:
                report.add(error=f"{entry.id} q{n}: the chat shows {asked!r}, not {question!r}")
            if len(answers) != 1 or cited != {entry.id} or own not in sources:
                report.add(error=f"{entry.id} q{n} {question!r}: cites {sorted(cited)}, not {entry.id}")
            if vote_every and n % vote_every == 0:
                position = len(session.history) - len(new) + 1  # the answer message
                liked = n % (2 * vote_every) == 0
                try:
                    session.vote(position, liked)
                except (httpx.HTTPError, RuntimeError, ValueError, KeyError) as exc:
                    report.add(error=f"{entry.id} vote after q{n}: {exc}")
                    continue
                report.add(vote=(question, entry.id, "like" if liked else "dislike"))


def run_load(url: str, glossary: Glossary, sessions: int, questions: int, vote_every: int = 4) -> Report:
    """``sessions`` concurrent sessions of ``questions`` questions each; see the module docstring."""
    pool = [e for e in glossary.entries if askable(e, glossary)]
    chosen = [pool[i % len(pool)] for i in range(sessions)]
    ends = endpoints(url)
    index = CitationIndex(glossary.entries)
    report = Report(sessions, questions)
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=sessions) as executor:
        futures = [
            executor.submit(run_session, url, ends, e, questions_for(e, questions), vote_every, report, index)
            for e in chosen
        ]
        for future in futures:
            future.result()
    report.wall_s = time.perf_counter() - start
    return report


def feedback_errors(store: Store, report: Report) -> list[str]:
    """Every vote sent is recorded once in the store, on the answer it rated (its question and entry);
    and every question asked is recorded once."""
    rows = store.answers_between(None, None)
    voted = [r for r in rows if r["vote"] is not None]
    got = sorted((r["question"], ",".join(r["entry_ids"]), r["vote"]) for r in voted)
    want = sorted(report.votes)
    errors = []
    if len(voted) != len(report.votes):
        errors.append(f"{len(report.votes)} votes sent, {len(voted)} recorded in {store.where}")
    if got != want:
        errors.append(f"recorded votes differ from the votes sent: {set(got) ^ set(want)}")
    if len(rows) != len(report.latencies):
        errors.append(f"{len(report.latencies)} questions answered, {len(rows)} recorded")
    return errors
