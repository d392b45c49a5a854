"""Who may enter the maintainers' area: one password (its argon2 hash is a setting), sessions that
expire, login attempts limited per address and overall.

The password itself is never stored, logged or echoed: the setting holds an argon2id hash (made by
``glossary-bot admin-password``), a login compares against it, and a session is a random token kept
in an HttpOnly, SameSite=Strict cookie scoped to ``/admin``; the server keeps each token's expiry
and its form token (every form posts it back, so another site cannot post on a maintainer's behalf).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass

from argon2.exceptions import InvalidHashError, VerificationError

from bot.passwords import hasher

#: Sessions kept at once (the oldest is logged out first): a few maintainers, a few browsers each.
MAX_SESSIONS = 64
#: Addresses whose failures are remembered at once.
MAX_ADDRESSES = 10_000
#: All addresses together may try this many times more often than one address.
OVERALL_FACTOR = 4
#: The window of the login limits (seconds).
LOGIN_WINDOW_S = 60.0
#: Every address together counts under this key.
EVERYONE = "*"


class TooManyAttempts(Exception):
    """Login attempts beyond the limit: every login is refused until the window has passed."""


class Failures:
    """Wrong passwords per key in the last ``window_s`` seconds (bounded: the oldest keys go first)."""

    def __init__(self, per_window: int, window_s: float, keys: int = MAX_ADDRESSES) -> None:
        self.per_window = per_window
        self.window_s = window_s
        self._times: OrderedDict[str, deque[float]] = OrderedDict()
        self._keys = keys
        self._lock = threading.Lock()

    def _recent(self, key: str) -> deque[float]:
        times = self._times.pop(key, None) or deque()
        now = time.monotonic()
        while times and now - times[0] >= self.window_s:
            times.popleft()
        self._times[key] = times
        while len(self._times) > self._keys:
            self._times.popitem(last=False)
        return times

    def spent(self, key: str, factor: int = 1) -> bool:
        with self._lock:
            return len(self._recent(key)) >= self.per_window * factor

    def count(self, key: str) -> None:
        with self._lock:
            self._recent(key).append(time.monotonic())


@dataclass(frozen=True)
class Session:
    token: str
    form_token: str
    expires: float  # time.monotonic()


class AdminAuth:
    """Checks passwords against the configured hash and keeps the sessions that logins opened."""

    def __init__(
        self, password_hash: str, session_s: float, attempts_per_minute: int, window_s: float = LOGIN_WINDOW_S
    ) -> None:
        self._hash = password_hash
        self._hasher = hasher()
        self.session_s = session_s
        self._failures = Failures(attempts_per_minute, window_s)
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self._checking = threading.Lock()

    def login(self, password: str, address: str) -> Session | None:
        """A new session for the right password, None for a wrong one.

        Raises :class:`TooManyAttempts` once the wrong passwords of the last minute reach the limit
        (checked before the hash is, so a guesser cannot make the server hash faster than that either).
        One password is checked at a time, so logins sent together cannot all pass the limit before
        any has failed, and they take one core at the most.
        """
        with self._checking:
            if self._failures.spent(address) or self._failures.spent(EVERYONE, OVERALL_FACTOR):
                raise TooManyAttempts
            try:
                self._hasher.verify(self._hash, password)
            except (VerificationError, InvalidHashError):
                self._failures.count(address)
                self._failures.count(EVERYONE)
                return None
        session = Session(
            secrets.token_urlsafe(32), secrets.token_urlsafe(16), time.monotonic() + self.session_s
        )
        with self._lock:
            self._sessions[session.token] = session
            while len(self._sessions) > MAX_SESSIONS:
                self._sessions.popitem(last=False)
        return session

    def session(self, token: str | None) -> Session | None:
        """The live session of a cookie's token; None when there is none or it has expired."""
        if not token:
            return None
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                return None
            if time.monotonic() >= session.expires:
                del self._sessions[token]
                return None
            return session

    def logout(self, token: str) -> None:
        with self._lock:
            self._sessions.pop(token, None)
