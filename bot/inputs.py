"""Text that arrives from outside (chat box, API, command line, stdin) made safe to process and echo.

Python strings may hold lone surrogates ("\\ud800"): a JSON client can send them as escapes, and
Python decodes undecodable command-line bytes into them. No UTF-8 writer accepts them, so any
text that is echoed back (the chat, ``search --json``, the feedback log) passes through
:func:`scrub` first, which swaps each one for U+FFFD (the replacement character).
"""

from __future__ import annotations

import regex

_LONE_SURROGATE = regex.compile(r"[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def scrub(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it can always be written as UTF-8."""
    return _LONE_SURROGATE.sub(REPLACEMENT, text)


def as_question(value: object) -> str:
    """A question from an untyped caller (e.g. the HTTP API): None is empty, other types become text."""
    if value is None:
        return ""
    return scrub(value if isinstance(value, str) else str(value))
