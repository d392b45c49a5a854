"""What each chat session was answered, kept on the server, and how fast it may vote.

A vote from the page names a message of the chat history, which the browser sends back and could
have changed; the server trusts only its own record of what it answered in that session (answer
text -> the store's answer id), so a vote can rate only an answer this session was given, and the
question and cited entries recorded with it are the server's. Both maps are bounded: the oldest
sessions, and a session's oldest answers, are forgotten first.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque

#: Chat sessions remembered at once (the least recently active is forgotten first).
MAX_SESSIONS = 10_000
#: Answers remembered per session: older ones can no longer be voted on.
MAX_ANSWERS_PER_SESSION = 200
#: The rate limit's window (seconds).
WINDOW_S = 60.0


class SessionAnswers:
    """session -> (answer text -> answer id), both bounded, safe across the app's worker threads."""

    def __init__(self, sessions: int = MAX_SESSIONS, per_session: int = MAX_ANSWERS_PER_SESSION) -> None:
        self._sessions: OrderedDict[str, OrderedDict[str, str]] = OrderedDict()
        self._max_sessions = sessions
        self._per_session = per_session
        self._lock = threading.Lock()

    def remember(self, session: str, text: str, answer_id: str) -> None:
        with self._lock:
            answers = self._sessions.pop(session, None) or OrderedDict()
            answers.pop(text, None)
            answers[text] = answer_id  # the same text answered again: the newer answer is voted on
            while len(answers) > self._per_session:
                answers.popitem(last=False)
            self._sessions[session] = answers
            while len(self._sessions) > self._max_sessions:
                self._sessions.popitem(last=False)

    def lookup(self, session: str, text: str) -> str | None:
        with self._lock:
            answers = self._sessions.get(session)
            return answers.get(text) if answers is not None else None


class Browsers:
    """chat session -> the browser it runs in, bounded: a browser keeps its key across reloads
    (``gr.BrowserState``), so answers restored after a reload are still known as given to it."""

    def __init__(self, sessions: int = MAX_SESSIONS) -> None:
        self._map = SessionAnswers(sessions=1, per_session=sessions)

    def bind(self, session: str, browser: str) -> None:
        self._map.remember("", session, browser)

    def key(self, session: str) -> str:
        """Whose answers a session may rate and copy: its browser's, or its own before it is bound."""
        return self._map.lookup("", session) or session


class RateLimit:
    """At most ``per_window`` events per key in any ``window_s`` seconds (a sliding window)."""

    def __init__(self, per_window: int, window_s: float = WINDOW_S, keys: int = MAX_SESSIONS) -> None:
        self.per_window = per_window
        self.window_s = window_s
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        self._keys = keys
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Count one event for ``key`` if it is within the limit; False (not counted) when it is not."""
        now = time.monotonic()
        with self._lock:
            times = self._events.pop(key, None) or deque()
            while times and now - times[0] >= self.window_s:
                times.popleft()
            allowed = len(times) < self.per_window
            if allowed:
                times.append(now)
            self._events[key] = times
            while len(self._events) > self._keys:
                self._events.popitem(last=False)
            return allowed
