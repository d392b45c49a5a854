"""Chat sessions against a running app on 127.0.0.1, each checking that it hears only about its own term.

Each session is one browser-like client (its own Gradio session hash) that talks to the app's
queue over HTTP the way the page does: ``/chat`` for questions and the chat's like button for
votes. A session is given one glossary entry and asks about it in turn in English, Hindi and
Hinglish, with follow-ups ("give me an example", "in Hindi please") in between. The questions
name the entry outright, so the correct answer is known in advance: every answer must cite that
entry and no other, and the history the app returns must be the session's own history plus the
new turn. A mixed-up session (cross-talk), a wrong answer, an error or a timeout is an error.

``run_attack`` adds the mixed attack of issue 13 (point 2): callers sending long questions inside
the limits (2,000 Devanagari characters) to ``POST /api/answer`` as fast as they are answered,
while the chat sessions above and normal programs (short questions to the same route) go on; it
reports what the normal users saw (latency, 503s) and how many attackers were turned away.
"""

from __future__ import annotations

import json
import random
import statistics
import threading
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import httpx

from bot.markdown import cited_sources, unescape_md
from bot.records import Store
from bot.search.names import named_entry
from bot.understand.comparison import comparison_splits
from bot.understand.dialogue import CitationIndex, is_answer, message_text
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
#: The attack's question: as long as a question may be (Settings.max_question_chars), in Devanagari.
LONG_QUESTION_CHARS = 2000
DEVANAGARI_LETTERS = (0x0905, 0x0939)
WORD_CHARS = 6


def questions_for(entry: GlossaryEntry, count: int) -> list[str]:
    return [SCRIPT[i % len(SCRIPT)].format(en=entry.term_en, hi=entry.term_hi) for i in range(count)]


def askable(entry: GlossaryEntry, glossary: Glossary) -> bool:
    """The script's questions name this entry and no other (so its answer is known in advance)."""
    for template in NAMING:
        question = template.format(en=entry.term_en, hi=entry.term_hi)
        found = named_entry(question, glossary)
        if found is None or found.id != entry.id or comparison_splits(question) is not None:
            return False
    return True


@dataclass
class Report:
    sessions: int
    questions: int
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    votes: list[tuple[str, str, str]] = field(default_factory=list)  # (question, entry id, vote)
    busy: int = 0  # HTTP 503s (turned away by admission control; not errors)
    wall_s: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, latency: float | None = None, error: str | None = None, vote=None, busy=False) -> None:
        with self._lock:
            self.busy += busy
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
            f"{len(self.errors)} errors, {len(self.votes)} votes, {self.busy} x 503; latency "
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
        # None: the server-side states (related-term labels, cited entries, interface language)
        box, history, *_ = self.call("chat", [question, self.history, None, None, None])
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


def wait_until_recorded(url: str, patience_s: float = 60) -> None:
    """Until the app has written every answer it queued (``/readyz``'s ``store.queued`` is 0)."""
    deadline = time.monotonic() + patience_s
    while httpx.get(f"{url}/readyz", timeout=30).json()["store"]["queued"] and time.monotonic() < deadline:
        time.sleep(0.1)


def long_question(seed: int, chars: int = LONG_QUESTION_CHARS) -> str:
    """Random Devanagari "words": about one token per character, so ~2,000 tokens before the encoder's cut."""
    rng = random.Random(seed)
    letters = [chr(rng.randint(*DEVANAGARI_LETTERS)) for _ in range(chars)]
    for i in range(WORD_CHARS, chars, WORD_CHARS):
        letters[i] = " "
    return "".join(letters)


def api_call(http: httpx.Client, url: str, question: str, report: Report) -> dict | None:
    """One ``POST /api/answer``; a 503 is counted as busy, anything else but 200 is an error."""
    start = time.perf_counter()
    try:
        reply = http.post(f"{url}/api/answer", json={"question": question})
    except httpx.HTTPError as exc:
        report.add(error=f"{question[:40]!r}: {exc!r}")
        return None
    if reply.status_code == 503:
        report.add(busy=True)
        return None
    if reply.status_code != 200:
        report.add(error=f"{question[:40]!r}: HTTP {reply.status_code}")
        return None
    report.add(latency=time.perf_counter() - start)
    return reply.json()


def run_attacker(url: str, seed: int, stop: threading.Event, report: Report) -> None:
    """Long questions, one after another (a new one each time: no cache helps), until ``stop``."""
    with httpx.Client(timeout=TIMEOUT_S) as http:
        n = 0
        while not stop.is_set():
            if api_call(http, url, long_question(seed * 1_000_003 + n), report) is None:
                stop.wait(0.05)  # a refused attacker retries at once, as a hostile one would
            n += 1


def run_api_user(url: str, entry: GlossaryEntry, questions: int, report: Report) -> None:
    """A normal program: short questions naming ``entry``; the first citation must be that entry."""
    with httpx.Client(timeout=TIMEOUT_S) as http:
        for n in range(questions):  # only questions that name the entry: the API keeps no history
            question = NAMING[n % len(NAMING)].format(en=entry.term_en, hi=entry.term_hi)
            found = api_call(http, url, question, report)
            if found is not None and [c["entry_id"] for c in found["citations"]][:1] != [entry.id]:
                report.add(error=f"{entry.id} {question!r}: cites {found['citations']}")


@dataclass
class AttackReport:
    """What normal users (chat sessions, short API questions) and the attackers each saw."""

    chat: Report
    api: Report
    attack: Report

    def summary(self) -> str:
        return "\n".join(
            [
                f"normal chat: {self.chat.summary()}",
                f"normal API users: {self.api.summary()}",
                f"attackers ({self.attack.sessions} x long questions): "
                f"{len(self.attack.latencies)} answered, {self.attack.busy} x 503, "
                f"{len(self.attack.errors)} errors; answered p50 "
                f"{self.attack.percentile(50) * 1000:.0f} ms",
            ]
        )


def run_attack(url: str, glossary: Glossary, attackers: int, sessions: int, questions: int) -> AttackReport:
    """``attackers`` long-question callers while ``sessions`` chat sessions and as many API users ask."""
    pool = [e for e in glossary.entries if askable(e, glossary)]
    attack = Report(attackers, 0)
    api = Report(sessions, questions)
    stop = threading.Event()
    hammering = [threading.Thread(target=run_attacker, args=(url, n, stop, attack)) for n in range(attackers)]
    for thread in hammering:
        thread.start()
    try:
        users = [
            threading.Thread(target=run_api_user, args=(url, pool[-1 - i % len(pool)], questions, api))
            for i in range(sessions)
        ]
        for thread in users:
            thread.start()
        started = time.perf_counter()
        chat = run_load(url, glossary, sessions, questions, vote_every=0)
        for thread in users:
            thread.join()
        api.wall_s = time.perf_counter() - started
    finally:
        stop.set()
        for thread in hammering:
            thread.join()
    return AttackReport(chat, api, attack)


def run_flood(url: str, callers: int, chars: int) -> str:
    """``callers`` questions of ``chars`` Devanagari characters sent to ``/api/answer`` at once, and one
    chat question a second later (the reproduction of issue 13, point 2); returns what each saw."""
    from gradio_client import Client

    def post(n: int) -> tuple[int, float]:
        start = time.perf_counter()
        try:
            with httpx.Client(timeout=TIMEOUT_S) as http:
                code = http.post(f"{url}/api/answer", json={"question": long_question(n, chars)}).status_code
        except httpx.HTTPError:
            code = 0  # counted as "other": no answer within TIMEOUT_S
        return code, time.perf_counter() - start

    with ThreadPoolExecutor(max_workers=callers) as executor:
        flood = [executor.submit(post, n) for n in range(callers)]
        time.sleep(1)
        start = time.perf_counter()
        Client(url + "/", verbose=False, analytics_enabled=False).predict(
            "What is dropout?", [], api_name="/chat"
        )
        chat_s = time.perf_counter() - start
        replies = [future.result() for future in flood]
    codes = [code for code, _ in replies]
    ok, busy = codes.count(200), codes.count(503)
    slowest = max(seconds for _, seconds in replies)
    return (
        f"flood of {callers} x {chars}-character questions: {ok} x 200, {busy} x 503, "
        f"{len(codes) - ok - busy} other; slowest {slowest:.1f} s; a /chat sent meanwhile took {chat_s:.2f} s"
    )
