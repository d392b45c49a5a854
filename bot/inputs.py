"""Text that arrives from outside (chat box, API, command line, stdin) made safe to process and echo.

Python strings may hold lone surrogates ("\\ud800"): a JSON client can send them as escapes, and
Python decodes undecodable command-line bytes into them. No UTF-8 writer accepts them, so any
text that is echoed back (the chat, ``search --json``, the feedback log) passes through
:func:`scrub` first, which swaps each one for U+FFFD (the replacement character).
"""

from __future__ import annotations

import json

import regex

_LONE_SURROGATE = regex.compile(r"[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
#: Characters that JSON allows raw in a string but that line-based readers (Python's
#: ``str.splitlines``, JavaScript before ES2019) take for line breaks: NEL, LINE and PARAGRAPH
#: SEPARATOR. A JSONL line holding one raw would be read as two broken lines.
_LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def scrub(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it can always be written as UTF-8."""
    return _LONE_SURROGATE.sub(REPLACEMENT, text)


def as_question(value: object) -> str:
    """A question from an untyped caller (e.g. the HTTP API): None is empty, other types become text."""
    if value is None:
        return ""
    return scrub(value if isinstance(value, str) else str(value))


def json_line(value: object) -> str:
    """``value`` as one line of JSON, readable as UTF-8 text and safe for every line splitter: lone
    surrogates are scrubbed, NEL / U+2028 / U+2029 are written as escapes."""
    text = scrub(json.dumps(value, ensure_ascii=False))
    for raw, escaped in _LINE_BREAKS.items():
        text = text.replace(raw, escaped)
    return text
