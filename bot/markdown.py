"""The markdown answers are written in: glossary and user text escaped, and citation links.

Written by the replies (``bot.reply``) and read back by the dialogue (``bot.understand.dialogue``),
which finds the entries an earlier answer cited in its text when the chat history carries no record
of them; so the link's format is defined once, here, between the two.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

import regex

from glossary import Source

#: Characters that markdown (CommonMark + GFM) may read as markup anywhere in a line: each gets a
#: backslash, which CommonMark defines as "this character, literally" for any ASCII punctuation.
_MD_ANYWHERE = regex.compile(r"([\\`*_\[\]|~#<>&$])")
#: What GFM would turn into a live link: "scheme://", "www.", "name@host" (the ":", "." or "@" is escaped).
_MD_AUTOLINK = regex.compile(r"(?i)(?<=[a-z0-9])(:)(?=//)|(?<=\bwww)(\.)|(?<=[\w.+-])(@)(?=\w)")
#: What markdown reads as a block only at the start of a line: list markers, rules, setext underlines.
_MD_LINE_START = regex.compile(r"^(?=[-+=])|(?<=^\d+)(?=[.)])")
#: A backslash escape as :func:`escape_md` writes them.
_MD_ESCAPED = regex.compile(r"\\([!-/:-@\[-`{-~])")

#: Where the app serves a cited document's lines (``ui.sources``); citations link there.
SOURCE_ROUTE = "source"
#: The citation link as it appears in answers; :func:`cited_sources` reads it back.
_CITATION = regex.compile(rf"\]\({SOURCE_ROUTE}/([^?\s)]+)\?line=(\d+)\)")


def escape_md(text: str) -> str:
    """Glossary or user text as markdown that renders as exactly that text, on one line: no HTML, no
    links (not even bare URLs or e-mail addresses), no emphasis, lists, rules, headings or code.

    The one door through which glossary and user text enter markdown. Whitespace (line breaks,
    indents) is collapsed, so nothing in the text can start a block of its own.
    """
    flat = _MD_ANYWHERE.sub(r"\\\1", " ".join(text.split()))
    escaped = _MD_AUTOLINK.sub(lambda m: "\\" + m.group(0), flat)
    return _MD_LINE_START.sub(r"\\", escaped, count=1)


def unescape_md(text: str) -> str:
    """The inverse of :func:`escape_md` (up to the whitespace it collapsed)."""
    return _MD_ESCAPED.sub(r"\1", text)


def _literal(text: str) -> str:
    """Text as a code span can hold it: a backtick would end the span, a line break split it."""
    return text.replace("`", "'").replace("\n", " ")


def code(text: str) -> str:
    """Inline code: rendered literally by markdown (backslashes too), so only backticks are replaced."""
    return f"`{_literal(text)}`"


def source_target(source: Source) -> str:
    """Where a citation of ``source`` links: the app's source viewer at the cited line."""
    return f"{SOURCE_ROUTE}/{quote(source.document, safe='')}?line={source.line}"


def citation_key(source: Source) -> str:
    """``document:line`` as :func:`cited_sources` reads it back from an answer."""
    return source.cite()


def cited_sources(text: str) -> list[str]:
    """The ``document:line`` citations in an answer's text, in order."""
    return [f"{unquote(doc)}:{line}" for doc, line in _CITATION.findall(text)]
