"""``GET /source/{document}?line=N``: the source viewer a citation opens, the cited entry in context.

A bundled seed's own text is shown (``glossary.sources``, checked against the checksums recorded
at import), the cited entry highlighted from its heading to its last line, each line of the document
on a line of its own (blank ones kept). A user glossary's documents are not shipped text, so the
records loaded from that row are shown instead, with the rows around it, as a spreadsheet would show
them. The page opens in a tab of its own and links back to the chat, opening the entry's card there.
Everything is HTML-escaped: the page shows the text as it is.
"""

from __future__ import annotations

import html
from urllib.parse import quote

from fastapi import Query
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute

from bot.core import GlossaryBot
from bot.markdown import SOURCE_ROUTE
from bot.reply.messages import t
from bot.reply.titles import document_title
from glossary import Glossary, GlossaryEntry
from glossary.sources import entry_end, excerpt

#: Rows shown on each side of a cited row of a row-based glossary (a CSV's neighbours).
CONTEXT_ROWS = 3
BACK = "← Back to the chat · बातचीत पर लौटें"

_PAGE = """<!doctype html>
<html lang="hi"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1rem; line-height: 1.5; }}
ol {{ padding-left: 3.5rem; }} li {{ padding: 2px 6px; white-space: pre-wrap; }}
li {{ min-height: 1.5em; }} li.entry {{ background: #fff3b0; }} li.cited {{ font-weight: 600; }}
</style></head>
<body><p><a id='back' href='{back}'>{back_label}</a></p>
<h1>{title}</h1><p><code>{document}</code></p>{body}</body></html>"""


def _lines_html(lines: list[tuple[int, str]], cited: int, last: int) -> str:
    """An ordered list numbered as the document is; the cited line is the current one, and every line
    of its entry (``cited`` to ``last``) is marked."""

    def marks(n: int) -> str:
        if n == cited:
            return " class='entry cited' aria-current='true'"
        return " class='entry'" if cited < n <= last else ""

    items = "".join(f"<li value='{n}' id='L{n}'{marks(n)}>{html.escape(text)}</li>" for n, text in lines)
    return f"<ol id='source-lines'>{items}</ol>"


def _document_entries(glossary: Glossary, document: str) -> list[GlossaryEntry]:
    return sorted((e for e in glossary.entries if e.source.document == document), key=lambda e: e.source.line)


def _seed_lines(entries: list[GlossaryEntry], document: str, line: int) -> str | None:
    """The seed's lines around the entry at ``line`` (None when the document's text is not shipped)."""
    cited = [e for e in entries if e.source.line == line]
    later = [e.source.line for e in entries if e.source.line > line]
    texts = [t for e in cited for t in (e.definition_hi, e.usage_hi, e.example_hi, *e.notes_hi) if t]
    last = entry_end(document, line, texts, min(later, default=None))
    lines = excerpt(document, line, last)
    return None if lines is None else _lines_html(lines, line, last)


def _rows(entries: list[GlossaryEntry], line: int) -> str | None:
    """The records loaded from the cited row and its neighbours (None when no record is from it)."""
    if not any(e.source.line == line for e in entries):
        return None
    near = [e for e in entries if abs(e.source.line - line) <= CONTEXT_ROWS]
    return _lines_html([(e.source.line, f"{e.term} — {e.definition_hi}") for e in near], line, line)


def _both_titles(glossary: Glossary, document: str) -> str:
    """The document's own title and, when it has one, its English name: the page has no interface
    language of its own (a citation link is the same from either interface)."""
    own, english = (document_title(glossary, document, lang) for lang in ("hi", "en"))
    return own if own == english else f"{own} · {english}"


def source_routes(bot: GlossaryBot) -> list[APIRoute]:
    def source(document: str, line: int = Query(ge=1)) -> HTMLResponse:
        """The cited lines of a glossary's source document, the cited one highlighted."""
        glossary = bot.glossary
        entries = _document_entries(glossary, document)
        body = _seed_lines(entries, document, line) or _rows(entries, line)
        if body is None:
            return HTMLResponse(f"<p>{html.escape(t('source_missing', 'en'))}</p>", status_code=404)
        cited = next((e.id for e in entries if e.source.line == line), None)
        back = f"../?entry={quote(cited, safe='')}" if cited else "../"
        page = _PAGE.format(
            title=html.escape(_both_titles(glossary, document)),
            document=html.escape(document),
            body=body,
            back=html.escape(back),
            back_label=html.escape(BACK),
        )
        return HTMLResponse(page)

    return [APIRoute(f"/{SOURCE_ROUTE}/{{document}}", source, methods=["GET"], response_class=HTMLResponse)]
